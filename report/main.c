/*
 * dirreport - perf report for perf.data files and data directories, in parallel.
 * A thin front end: parse options, open and load the recording, run one mode, print
 * the one-line diagnostic on failure.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>	/* strtoul */
#include <string.h>	/* strcmp */
#include <sys/stat.h>	/* fstat */

#include "format/diag.h"
#include "format/feature.h"
#include "reader/session.h"
#include "reader/workqueue.h"
#include "report/cmd.h"
#include "report/machine.h"
#include "banned.h"

static const char usage_text[] =
	"usage: dirreport [-i PATH] [--stdio] [-j N]\n"
	"       dirreport -D [-i PATH] [-j N]\n"
	"       dirreport --header-only [-I] [-i PATH]\n"
	"\n"
	"    -i, --input PATH       perf.data file, data directory, or - for stdin\n"
	"                           (default: perf.data)\n"
	"        --stdio            text report (the only output mode; default)\n"
	"    -D, --dump-raw-trace   dump every record, tagged with its file\n"
	"        --header           print the header, then the report\n"
	"        --header-only      print the header only\n"
	"    -I, --show-info        with --header/--header-only: full header\n"
	"    -j, --jobs N           worker threads (default: online CPUs)\n"
	"        --kallsyms FILE    kernel symbols (default: /proc/kallsyms)\n"
	"        --no-children      self overhead only (the report dirreport prints)\n"
	"    -g, --call-graph none  no callchain graph (the report dirreport prints)\n"
	"    -h, --help             this text\n";

enum { OPT_STDIO = 256, OPT_HEADER, OPT_HEADER_ONLY, OPT_KALLSYMS, OPT_NO_CHILDREN,
       OPT_CHILDREN };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "show-info", no_argument, NULL, 'I' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "call-graph", required_argument, NULL, 'g' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What main() sets up before a mode runs (git's RUN_SETUP). */
enum mode_flags {
	MODE_NEED_RECORDS = 1 << 0,	/* decode every record (session__load) */
	MODE_NEED_MACHINE = 1 << 1,	/* threads, maps and symbols */
};

static const struct mode {
	const char *name;
	int (*run)(struct session *s, const struct report_opts *o, struct machine *m,
		   FILE *out);
	unsigned flags;
} modes[] = {
	{ "report", cmd_report, MODE_NEED_RECORDS | MODE_NEED_MACHINE },
	{ "dump", cmd_dump, MODE_NEED_RECORDS | MODE_NEED_MACHINE },
	/* a pipe's features are records: header-only loads those (see below) */
	{ "header-only", cmd_header, 0 },
};

/* Machine state for a mode: build-ids applied, kernel symbols read on a worker while
 * the recording decodes. */
static int setup_machine(struct session *s, const struct report_opts *o,
			 struct machine **m)
{
	int err = machine__new(m, o->kallsyms);

	if (!err)
		err = machine__apply_build_ids(*m, session__features(s));
	if (!err)
		err = machine__preload_kernel(*m, session__workqueue(s));
	return err;
}

static int bad_usage(const char *msg)
{
	if (msg)
		fprintf(stderr, "dirreport: %s\n", msg);
	fputs(usage_text, stderr);
	return 2;
}

/* Close stdout and report write errors (not on pipes: `| head` is fine). */
static int finish_stdout(void)
{
	struct stat st;
	bool is_pipe = fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));

	if (fflush(stdout) != 0 || ferror(stdout)) {
		if (is_pipe && errno == EPIPE)
			return 0;
		perror("dirreport: write error");
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct report_opts o = { 0 };
	struct session_opts so = { 0 };
	struct session *s = NULL;
	struct machine *m = NULL;
	const struct mode *mode;
	struct diag d = { .offset = DIAG_NO_OFFSET };
	bool dump = false;
	char line[1024], *end;
	int c, err;

	while ((c = getopt_long(argc, argv, "i:DIj:g:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'i': o.input = optarg; break;
		case 'D': dump = true; break;
		case 'I': o.show_info = true; break;
		case OPT_STDIO: break;
		case OPT_HEADER: o.header = true; break;
		case OPT_HEADER_ONLY: o.header_only = true; break;
		case OPT_KALLSYMS: o.kallsyms = optarg; break;
		case OPT_NO_CHILDREN: break;	/* the flat report is what we print */
		case OPT_CHILDREN:
			return bad_usage("--children: the children view is not implemented yet");
		case 'g':
			if (strcmp(optarg, "none"))
				return bad_usage("-g: only 'none' is implemented yet");
			break;
		case 'j':
			errno = 0;
			o.jobs = (unsigned)strtoul(optarg, &end, 10);
			if (errno || *end || o.jobs == 0 || o.jobs > 1024)
				return bad_usage("-j takes a number from 1 to 1024");
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		default:
			return bad_usage(NULL);
		}
	}
	if (optind < argc)
		return bad_usage("unexpected argument");
	mode = o.header_only ? &modes[2] : dump ? &modes[1] : &modes[0];
	so.path = o.input;
	so.jobs = o.jobs;
	err = session__open(&s, &so, &d);
	if (!err && (mode->flags & MODE_NEED_MACHINE))
		err = setup_machine(s, &o, &m);
	if (!err && ((mode->flags & MODE_NEED_RECORDS) || session__is_pipe(s)))
		err = session__load(s, &d);
	if (s)	/* the kernel symbols job, if any, must be done before records replay */
		workqueue__flush(session__workqueue(s));
	if (err) {
		if (d.code == 0)
			diag__set(&d, o.input ? o.input : "perf.data", DIAG_NO_OFFSET, err, NULL);
		fprintf(stderr, "dirreport: %s\n", diag__format(&d, line, sizeof(line)));
		machine__delete(m);
		session__close(s);
		return 1;
	}
	for (size_t i = 0; i < session__nr_warnings(s); i++)
		fprintf(stderr, "dirreport: warning: %s\n", session__warning(s, i));
	err = mode->run(s, &o, m, stdout);
	machine__delete(m);
	session__close(s);
	if (err) {
		fprintf(stderr, "dirreport: %s\n", diag__code_str(err));
		return 1;
	}
	return finish_stdout();
}
