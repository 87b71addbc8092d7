/*
 * dirscript - a recording's samples as perf 6.1's `perf script` prints them, or as
 * folded stacks.  A thin front end: parse options, run, print the one-line
 * diagnostic, exit.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>	/* strcspn */
#include <stdlib.h>	/* getenv, strtod */
#include <sys/stat.h>	/* fstat, S_ISFIFO, S_ISSOCK */

#include "cli/cli.h"
#include "cli/options.h"
#include "cli/pager.h"
#include "cli/progress.h"
#include "format/diag.h"
#include "script/format.h"
#include "script/script.h"
#include "util/phase.h"
#include "banned.h"

/* The SYNOPSIS of docs/dirscript.1.md (tests compare the two); the options follow
 * in --help, from the table. */
static const char synopsis[] =
	"usage: dirscript [-i PATH] [-j N] [-F FIELDS | --folded] [--comms LIST]\n"
	"                 [--pid LIST] [--tid LIST] [--dsos LIST] [-C CPUS]\n"
	"                 [--time RANGES] [--max-stack N]\n"
	"                 [--kallsyms FILE] [--buildid-dir DIR]\n"
	"                 [--flamegraph OUT.svg [--inverted] [--title T]\n"
	"                 [--percent-limit P]]\n"
	"                 [--speedscope OUT.json] [--no-pager] [--no-progress]\n";

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

/* -F: the fields (script_fields__parse()) into (unsigned *)value. */
static int opt_fields(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	const char *bad;

	if (script_fields__parse(arg, opt->value, &bad))
		return cli__opt_usage(p, "-F: unknown or unsupported field '%.*s'",
				      (int)strcspn(bad, ","), bad);
	return 0;
}

/* --percent-limit: a percentage from 0 to 100 into (double *)value. */
static int opt_percent_limit(struct cli_parser *p, const struct cli_option *opt,
			     const char *arg)
{
	char *end;
	double v = strtod(arg, &end);

	if (end == arg || *end || !(v >= 0 && v <= 100))
		return cli__opt_usage(p, "--percent-limit takes a percentage (0 to 100)");
	*(double *)opt->value = v;
	return 0;
}

int main(int argc, char **argv)
{
	struct script_opts o = { .max_stack = -1, .warn = warn };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	char line[1024];
	bool no_pager = false, progress = true, to_stdout;
	/* --help prints them in this order */
	const struct cli_option opts[] = {
		CLI_OPT_INPUT(&o.input),
		CLI_OPT_JOBS(&o.jobs),
		{ "fields", 'F', CLI_ARG_REQUIRED, "LIST",
		  "comma-separated: comm, tid, pid, time, cpu,\n"
		  "event, period, trace, ip, sym, symoff, dso,\n"
		  "addr, data_src, weight, ins_lat, phys_addr,\n"
		  "data_page_size, code_page_size", opt_fields, &o.fields },
		{ "folded", 0, CLI_ARG_NONE, NULL,
		  "folded stacks (FlameGraph's stackcollapse-perf.pl)", cli__opt_true,
		  &o.folded },
		{ "flamegraph", 0, CLI_ARG_REQUIRED, "FILE",
		  "an interactive flame graph (SVG) per event: the\n"
		  "first into FILE, others into FILE-EVENT.svg", cli__opt_string,
		  &o.flamegraph },
		{ "inverted", 0, CLI_ARG_NONE, NULL, "icicle graphs (the root on top)",
		  cli__opt_true, &o.inverted },
		{ "percent-limit", 0, CLI_ARG_REQUIRED, "P",
		  "flame graph frames under P% of the samples are\nnot drawn",
		  opt_percent_limit, &o.percent_limit },
		{ "title", 0, CLI_ARG_REQUIRED, "TEXT",
		  "the graphs' title (default \"Flame Graph\")", cli__opt_string, &o.title },
		{ "speedscope", 0, CLI_ARG_REQUIRED, "FILE",
		  "a speedscope profile (JSON): one per event and\nprocess", cli__opt_string,
		  &o.speedscope },
		CLI_OPT_COMMS(&o.comms, "LIST", "only these commands"),
		CLI_OPT_PID(&o.pids, "LIST", "only these process ids"),
		CLI_OPT_TID(&o.tids, "LIST", "only these thread ids"),
		CLI_OPT_DSOS(&o.dsos, "LIST", "only samples in these shared objects"),
		CLI_OPT_CPU(&o.cpus, "only these cpus (\"0-2,5\")"),
		CLI_OPT_TIME(&o.time_str, "only samples in these times (perf's --time:\n"
			     "\"START,STOP\" seconds, or percentages \"10%/2\")"),
		CLI_OPT_MAX_STACK(&o.max_stack, "callchain entries printed at most (default 127)"),
		CLI_OPT_KALLSYMS(&o.kallsyms),
		CLI_OPT_BUILDID_DIR(&o.buildid_dir),
		CLI_OPT_NO_PAGER(&no_pager),
		CLI_OPT_NO_PROGRESS(&progress),
		CLI_OPT_HELP,
		CLI_OPT_VERSION("dirscript"),
		CLI_OPT_END,
	};
	struct cli_parser p = { .prog = "dirscript", .synopsis = synopsis, .opts = opts };
	int ret, err;

	phases__start(getenv("DIRREPORT_PHASES") != NULL);	/* util/phase.h */
	ret = cli__options_parse(&p, argc, argv);
	if (ret != CLI_GO_ON)
		return ret;
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
	o.progress = progress && progress__wanted(to_stdout);
	err = script__run(&o, stdout, &d);
	/* for bench/phases.sh: where the time went (util/phase.h) */
	(void)phases__print(stderr, "dirscript");
	if (err) {
		fflush(stdout);
		fprintf(stderr, "dirscript: %s\n", diag__format(&d, line, sizeof(line)));
		return 1;
	}
	return close_stdout();
}
