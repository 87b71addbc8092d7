/*
 * dirscript - a recording's samples as perf 6.1's `perf script` prints them, or as
 * folded stacks.  A thin front end: parse options, run, print the one-line
 * diagnostic, exit.
 */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>	/* strcspn */
#include <stdlib.h>	/* strtoul */
#include <sys/stat.h>	/* fstat, S_ISFIFO, S_ISSOCK */

#include "cli/cli.h"
#include "cli/pager.h"
#include "cli/progress.h"
#include "cli/time-range.h"
#include "format/diag.h"
#include "script/format.h"
#include "script/script.h"
#include "banned.h"

/* The SYNOPSIS and OPTIONS of docs/dirscript.1.md. */
static const char usage_text[] =
	"usage: dirscript [-i PATH] [-j N] [-F FIELDS | --folded] [--comms LIST]\n"
	"                 [--pid LIST] [--tid LIST] [--dsos LIST] [-C CPUS]\n"
	"                 [--time RANGES] [--max-stack N]\n"
	"                 [--kallsyms FILE] [--buildid-dir DIR]\n"
	"                 [--flamegraph OUT.svg [--inverted] [--title T]\n"
	"                 [--percent-limit P]]\n"
	"                 [--speedscope OUT.json] [--no-pager] [--no-progress]\n"
	"\n"
	"    -i, --input PATH       perf.data file, data directory, or - for stdin\n"
	"                           (default: perf.data)\n"
	"    -j, --jobs N           worker threads (default: online CPUs)\n"
	"    -F, --fields LIST      comma-separated: comm, tid, pid, time, cpu,\n"
	"                           event, period, trace, ip, sym, symoff, dso,\n"
	"                           addr, data_src, weight, ins_lat, phys_addr,\n"
	"                           data_page_size, code_page_size\n"
	"        --folded           folded stacks (FlameGraph's stackcollapse-perf.pl)\n"
	"        --flamegraph FILE  an interactive flame graph (SVG) per event: the\n"
	"                           first into FILE, others into FILE-EVENT.svg\n"
	"        --inverted         icicle graphs (the root on top)\n"
	"        --percent-limit P  flame graph frames under P% of the samples are\n"
	"                           not drawn\n"
	"        --title TEXT       the graphs' title (default \"Flame Graph\")\n"
	"        --speedscope FILE  a speedscope profile (JSON): one per event and\n"
	"                           process\n"
	"        --comms LIST       only these commands\n"
	"        --pid LIST         only these process ids\n"
	"        --tid LIST         only these thread ids\n"
	"        --dsos LIST        only samples in these shared objects\n"
	"    -C, --cpu CPUS         only these cpus (\"0-2,5\")\n"
	"        --time RANGES      only samples in these times (perf's --time:\n"
	"                           \"START,STOP\" seconds, or percentages \"10%/2\")\n"
	"        --max-stack N      callchain entries printed at most (default 127)\n"
	"        --kallsyms FILE    kernel symbols (default: the build-id cache's copy\n"
	"                           for the recording's kernel, or /proc/kallsyms)\n"
	"        --buildid-dir DIR  build-id cache (perf --buildid-dir; default:\n"
	"                           $HOME/.debug)\n"
	"        --no-pager         standard output not through the pager, even on a\n"
	"                           terminal ($DIRREPORT_PAGER, $PAGER or less)\n"
	"        --no-progress      no progress bar, even on a terminal\n"
	"    -h, --help             this text\n"
	"        --version          the version (\"dirscript version N\")\n";

enum { OPT_KALLSYMS = 256, OPT_VERSION, OPT_BUILDID_DIR, OPT_FOLDED, OPT_COMMS, OPT_PID, OPT_TID,
       OPT_MAX_STACK, OPT_FLAMEGRAPH, OPT_INVERTED, OPT_TITLE, OPT_SPEEDSCOPE, OPT_DSOS,
       OPT_TIME, OPT_PERCENT_LIMIT, OPT_NO_PAGER, OPT_NO_PROGRESS };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "fields", required_argument, NULL, 'F' },
	{ "folded", no_argument, NULL, OPT_FOLDED },
	{ "flamegraph", required_argument, NULL, OPT_FLAMEGRAPH },
	{ "inverted", no_argument, NULL, OPT_INVERTED },
	{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
	{ "title", required_argument, NULL, OPT_TITLE },
	{ "speedscope", required_argument, NULL, OPT_SPEEDSCOPE },
	{ "comms", required_argument, NULL, OPT_COMMS },
	{ "dsos", required_argument, NULL, OPT_DSOS },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "cpu", required_argument, NULL, 'C' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "no-progress", no_argument, NULL, OPT_NO_PROGRESS },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

static const char short_opts[] = ":i:j:F:C:h";

static int bad_usage(const char *msg)
{
	return cli__bad_usage("dirscript", msg);
}

static void warn(void *ctx, const char *line)
{
	(void)ctx;
	fprintf(stderr, "dirscript: warning: %s\n", line);
}

/* Flush and close stdout; a write error is an error unless stdout is a pipe or a
 * socket (`| head` is fine), as dirreport does. */
static int close_stdout(void)
{
	struct stat st;
	bool pipe = !fstat(1, &st) && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));
	int bad = fflush(stdout) != 0 || ferror(stdout);

	bad |= fclose(stdout) != 0;
	if (bad && !pipe) {
		fputs("dirscript: standard output: write error\n", stderr);
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct script_opts o = { .max_stack = -1, .warn = warn };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	char line[1024];
	bool no_pager = false, no_progress = false, to_stdout;
	const char *bad;
	unsigned long v;
	char *end;
	int c;

	opterr = 0;	/* cli__getopt_error() says what is wrong */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'i': o.input = optarg; break;
		case OPT_KALLSYMS: o.kallsyms = optarg; break;
		case OPT_BUILDID_DIR: o.buildid_dir = optarg; break;
		case OPT_FOLDED: o.folded = true; break;
		case OPT_FLAMEGRAPH: o.flamegraph = optarg; break;
		case OPT_INVERTED: o.inverted = true; break;
		case OPT_PERCENT_LIMIT: {
			double p = strtod(optarg, &end);

			if (end == optarg || *end || !(p >= 0 && p <= 100))
				return bad_usage("--percent-limit takes a percentage (0 to 100)");
			o.percent_limit = p;
			break;
		}
		case OPT_TITLE: o.title = optarg; break;
		case OPT_NO_PAGER: no_pager = true; break;
		case OPT_NO_PROGRESS: no_progress = true; break;
		case OPT_SPEEDSCOPE: o.speedscope = optarg; break;
		case 'j':
			if (cli__parse_jobs(optarg, &o.jobs))
				return bad_usage("-j takes a number from 1 to 1024");
			break;
		case 'F':
			if (script_fields__parse(optarg, &o.fields, &bad)) {
				snprintf(line, sizeof(line), "-F: unknown or unsupported field "
					 "'%.*s'", (int)strcspn(bad, ","), bad);
				return bad_usage(line);
			}
			break;
		case OPT_COMMS: o.comms = optarg; break;
		case OPT_DSOS: o.dsos = optarg; break;
		case OPT_TIME: {
			struct time_ranges tr;

			/* the syntax only: percentages need the recording */
			if (time_ranges__parse(&tr, optarg, 0, 0))
				return bad_usage("--time: invalid time string");
			o.time_str = optarg;
			break;
		}
		case OPT_PID:
		case OPT_TID:
			if (!script__valid_int_list(optarg))
				return bad_usage(c == OPT_PID ? "--pid takes numbers, comma-separated"
						 : "--tid takes numbers, comma-separated");
			*(c == OPT_PID ? &o.pids : &o.tids) = optarg;
			break;
		case 'C':
			if (!script__valid_cpu_list(optarg))
				return bad_usage("-C takes a cpu list such as 0-2,5");
			o.cpus = optarg;
			break;
		case OPT_MAX_STACK:
			v = strtoul(optarg, &end, 10);
			if (*optarg < '0' || *optarg > '9' || *end)
				return bad_usage("--max-stack takes a number");
			o.max_stack = v > 127 ? 127 : (int)v;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			return cli__version("dirscript");
		default:	/* '?' or ':' */
			return cli__getopt_error("dirscript", c, argv, long_opts);
		}
	}
	if (optind < argc)
		return cli__no_arguments("dirscript", argc, argv, optind);
	if (o.folded && o.fields)
		return bad_usage("--folded and -F do not go together");
	if ((o.flamegraph || o.speedscope) && o.fields)
		return bad_usage("--flamegraph and --speedscope do not go with -F");
	if ((o.inverted || o.title || o.percent_limit > 0) && !o.flamegraph)
		return bad_usage("--inverted, --title and --percent-limit need --flamegraph");
	if ((o.flamegraph && !*o.flamegraph) || (o.speedscope && !*o.speedscope))
		return bad_usage("--flamegraph and --speedscope take a file name");
	/* the text goes to stdout (as perf script's, through the pager on a
	 * terminal); --flamegraph and --speedscope alone write their files */
	to_stdout = o.folded || !(o.flamegraph || o.speedscope);
	if (to_stdout && !no_pager)
		cli__pager_start();
	o.progress = !no_progress && progress__wanted(to_stdout);
	if (script__run(&o, stdout, &d)) {
		fflush(stdout);
		fprintf(stderr, "dirscript: %s\n", diag__format(&d, line, sizeof(line)));
		return 1;
	}
	return close_stdout();
}
