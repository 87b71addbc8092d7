/*
 * dirreport - perf report for perf.data files and data directories, in parallel.
 * A thin front end: parse options, open and load the recording, run one mode, print
 * the one-line diagnostic on failure.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>	/* INT_MIN, INT_MAX */
#include <regex.h>	/* regcomp, regfree */
#include <stdio.h>
#include <stdlib.h>	/* strtof, strtol, strtoul */
#include <string.h>	/* strchr, strcmp */
#include <sys/stat.h>	/* fstat */

#include "format/diag.h"
#include "format/evlist.h"	/* evlist__excludes_kernel */
#include "format/index.h"
#include "format/feature.h"
#include "reader/session.h"
#include "util/workqueue.h"
#include "report/cmd.h"
#include "machine/machine.h"
#include "report/sort.h"
#include "cli/time-range.h"
#include "resolve/trace-sort.h"
#include "cli/cli.h"
#include "cli/pager.h"
#include "util/phase.h"
#include "banned.h"

/* The SYNOPSIS of docs/dirreport.1.md, then the options (tests compare the two). */
static const char usage_text[] =
	"usage: dirreport [-i PATH] [--stdio] [-j N] [--header] [--kallsyms FILE]\n"
	"                 [--children | --no-children] [-g FORM] [-G] [--max-stack N]\n"
	"                 [--percent-limit P] [-s KEYS] [-F FIELDS] [-n]\n"
	"                 [--show-total-period] [-t SEP] [-w WIDTHS]\n"
	"                 [--percentage relative|absolute] [--comms COMMS]\n"
	"                 [--pid PIDS] [--tid TIDS] [--dsos DSOS] [-S SYMBOLS]\n"
	"                 [-C CPUS] [-U] [--time RANGES] [-T] [-p REGEX] [-x]\n"
	"                 [--ns] [--demangle | --no-demangle] [-f] [-q] [-v]\n"
	"                 [--symfs DIR] [--skip-empty | --no-skip-empty] [--raw-trace]\n"
	"                 [--group | --no-group] [--group-sort-idx N] [--hierarchy]\n"
	"                 [--mem-mode] [-b | --no-branch-stack] [--buildid-dir DIR]\n"
	"                 [--no-pager]\n"
	"       dirreport -D [-i PATH] [-j N] [--no-skip-empty] [-b | --no-branch-stack]\n"
	"       dirreport --stats [-i PATH] [-j N] [--no-skip-empty]\n"
	"       dirreport --tasks [--mmaps] [-i PATH] [-j N]\n"
	"       dirreport --header-only [-I] [-i PATH]\n"
	"\n"
	"    -i, --input PATH       perf.data file, data directory, or - for stdin\n"
	"                           (default: perf.data)\n"
	"        --stdio            text report (the only output mode; default)\n"
	"    -D, --dump-raw-trace   dump every record, tagged with its file\n"
	"        --stats            record counts only\n"
	"        --tasks            the threads, as a tree of parents and children\n"
	"        --mmaps            --tasks, each thread with its memory maps\n"
	"        --header           print the header, then the report\n"
	"        --header-only      print the header only\n"
	"    -I, --show-info        with --header/--header-only: full header\n"
	"    -j, --jobs N           worker threads (default: online CPUs)\n"
	"        --kallsyms FILE    kernel symbols (default: the build-id cache's copy\n"
	"                           for the recording's kernel, or /proc/kallsyms)\n"
	"        --buildid-dir DIR  build-id cache (perf --buildid-dir; default:\n"
	"                           $HOME/.debug)\n"
	"        --symfs DIR        look for files with symbols under DIR (no build-id\n"
	"                           cache; kernel symbols only from --kallsyms)\n"
	"        --children         Children and Self columns (default with callchains)\n"
	"        --no-children      self overhead only\n"
	"    -g, --call-graph FORM  call graphs, FORM = MODE[,THRESHOLD[,LIMIT]][,ORDER]\n"
	"                           [,KEY][,VALUE]: graph, flat, fractal, folded or\n"
	"                           none; caller or callee; function, address or\n"
	"                           srcline; branch; percent, period or count\n"
	"                           (-g alone: " CALLCHAIN_DEFAULT_OPT ")\n"
	"    -G, --inverted         caller-first call graphs\n"
	"        --max-stack N      frames kept per callchain (default 127)\n"
	"        --percent-limit P  hide entries under P percent (it also sets the\n"
	"                           call graph threshold)\n"
	"    -s, --sort KEYS        sort keys: overhead, overhead_sys, overhead_us,\n"
	"                           overhead_guest_sys, overhead_guest_us,\n"
	"                           overhead_children, sample, period, pid, comm, dso,\n"
	"                           symbol (sym), parent, cpu, socket, srcline,\n"
	"                           srcfile, local_weight, weight, local_ins_lat,\n"
	"                           ins_lat, local_p_stage_cyc, p_stage_cyc, cgroup,\n"
	"                           cgroup_id, code_page_size, time, addr, dso_size,\n"
	"                           symbol_size, trace, transaction; +KEYS adds to\n"
	"                           the default\n"
	"                           (trace for a file of tracepoint events only);\n"
	"                           with --mem-mode also mem, snoop, tlb, locked,\n"
	"                           blocked, symbol_daddr, dso_daddr, phys_daddr,\n"
	"                           data_page_size, dcacheline, symbol_iaddr;\n"
	"                           in the branch view also dso_from, dso_to,\n"
	"                           symbol_from, symbol_to, mispredict, in_tx, abort,\n"
	"                           cycles, addr_from, addr_to\n"
	"    -F, --fields FIELDS    output columns, in order (same names; +FIELDS adds;\n"
	"                           also ipc_null)\n"
	"        --raw-trace        the trace key prints the fields of tracepoint\n"
	"                           events, not their print format (a file of\n"
	"                           tracepoint events only: needs -s KEYS)\n"
	"        --mem-mode         memory accesses: entries weighted by the samples'\n"
	"                           weight (1 for 0), perf's memory sort order, the\n"
	"                           memory keys (needs perf record -d)\n"
	"    -b, --branch-stack     the branch view: an entry per branch of each\n"
	"                           sample's branch stack (the default for\n"
	"                           recordings with branch stacks, perf record -b)\n"
	"        --no-branch-stack  an entry per sample, also with branch stacks\n"
	"        --branch-history   (perf: branch stacks added to the callchains) not\n"
	"                           implemented: a usage error\n"
	"    -n, --show-nr-samples  a Samples column\n"
	"        --show-total-period  a Period column\n"
	"    -t, --field-separator SEP  separate columns with SEP instead of spaces\n"
	"    -w, --column-widths WIDTHS  comma-separated column widths\n"
	"        --percentage relative|absolute  percent base with filters: the\n"
	"                           shown entries, or all (default: absolute)\n"
	"        --comms COMMS      only samples of these commands\n"
	"        --pid PIDS         only samples of these processes\n"
	"        --tid TIDS         only samples of these threads\n"
	"        --dsos DSOS        only samples in these shared objects\n"
	"    -S, --symbols SYMBOLS  only samples in these symbols (names or 0xADDR)\n"
	"    -C, --cpu CPUS         only samples on these cpus (\"0-2,5\")\n"
	"    -U, --hide-unresolved  only samples with a symbol\n"
	"        --time RANGES      only samples in these time ranges: START,STOP\n"
	"                           (seconds; several separated by spaces) or\n"
	"                           percentages (10%/2, 0%-10%, 25%; comma-separated)\n"
	"    -p, --parent REGEX     the parent key's regex (POSIX extended; default\n"
	"                           ^sys_|^do_page_fault); adds the parent key\n"
	"    -x, --exclude-other    only entries with a parent match\n"
	"    -f, --force            accepted (dirreport reads files of any owner)\n"
	"        --demangle         C++ symbol names demangled (the default)\n"
	"        --no-demangle      C++ symbol names as in the symbol table\n"
	"        --ns               the time key (-s time) in nanoseconds\n"
	"    -T, --threads          also the counts of perf record -s per thread\n"
	"    -q, --quiet            entries only: no header or comment lines\n"
	"                           (--header, --header-only and -v are ignored)\n"
	"    -v, --verbose          full dso names; symbol addresses and origins\n"
	"        --skip-empty       events and record types without any: not printed\n"
	"                           (the default)\n"
	"        --no-skip-empty    print them (empty histograms, zero counts)\n"
	"        --group            event groups together, one column per event (the\n"
	"                           default for recordings with groups; without groups:\n"
	"                           all events as one group)\n"
	"        --no-group         every event on its own\n"
	"        --group-sort-idx N the group view sorted by the values of event N of\n"
	"                           the group (0: the leader's, ties by the members';\n"
	"                           out of range: the leader's alone)\n"
	"        --hierarchy        entries nested by sort key, one level per key\n"
	"                           (no children view; not with -F, -t, -w or -x)\n"
	"        --no-pager         standard output not through the pager, even on a\n"
	"                           terminal ($DIRREPORT_PAGER, $PAGER or less)\n"
	"    -h, --help             this text\n"
	"        --version          the version (\"dirreport version N\")\n";

enum { OPT_STDIO = 256, OPT_VERSION, OPT_HEADER, OPT_HEADER_ONLY, OPT_KALLSYMS, OPT_NO_CHILDREN,
       OPT_CHILDREN, OPT_MAX_STACK, OPT_PERCENT_LIMIT, OPT_SHOW_TOTAL_PERIOD,
       OPT_PERCENTAGE, OPT_COMMS, OPT_PID, OPT_TID, OPT_DSOS, OPT_STATS,
       OPT_TIME, OPT_TASKS, OPT_NS, OPT_DEMANGLE, OPT_NO_DEMANGLE,
       OPT_MMAPS, OPT_SKIP_EMPTY, OPT_NO_SKIP_EMPTY, OPT_SYMFS, OPT_RAW_TRACE,
       OPT_GROUP, OPT_NO_GROUP, OPT_GROUP_SORT_IDX, OPT_MEM_MODE,
       OPT_HIERARCHY, OPT_BUILDID_DIR, OPT_NO_BRANCH_STACK, OPT_BRANCH_HISTORY,
       OPT_NO_PAGER };

static const struct option long_opts[] = {
	{ "input", required_argument, NULL, 'i' },
	{ "stdio", no_argument, NULL, OPT_STDIO },
	{ "dump-raw-trace", no_argument, NULL, 'D' },
	{ "header", no_argument, NULL, OPT_HEADER },
	{ "header-only", no_argument, NULL, OPT_HEADER_ONLY },
	{ "show-info", no_argument, NULL, 'I' },
	{ "jobs", required_argument, NULL, 'j' },
	{ "kallsyms", required_argument, NULL, OPT_KALLSYMS },
	{ "buildid-dir", required_argument, NULL, OPT_BUILDID_DIR },
	{ "no-children", no_argument, NULL, OPT_NO_CHILDREN },
	{ "children", no_argument, NULL, OPT_CHILDREN },
	{ "call-graph", required_argument, NULL, 'g' },
	{ "inverted", no_argument, NULL, 'G' },
	{ "max-stack", required_argument, NULL, OPT_MAX_STACK },
	{ "percent-limit", required_argument, NULL, OPT_PERCENT_LIMIT },
	{ "sort", required_argument, NULL, 's' },
	{ "fields", required_argument, NULL, 'F' },
	{ "show-nr-samples", no_argument, NULL, 'n' },
	{ "show-total-period", no_argument, NULL, OPT_SHOW_TOTAL_PERIOD },
	{ "field-separator", required_argument, NULL, 't' },
	{ "column-widths", required_argument, NULL, 'w' },
	{ "percentage", required_argument, NULL, OPT_PERCENTAGE },
	{ "comms", required_argument, NULL, OPT_COMMS },
	{ "pid", required_argument, NULL, OPT_PID },
	{ "tid", required_argument, NULL, OPT_TID },
	{ "dsos", required_argument, NULL, OPT_DSOS },
	{ "symbols", required_argument, NULL, 'S' },
	{ "cpu", required_argument, NULL, 'C' },
	{ "hide-unresolved", no_argument, NULL, 'U' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "stats", no_argument, NULL, OPT_STATS },
	{ "time", required_argument, NULL, OPT_TIME },
	{ "threads", no_argument, NULL, 'T' },
	{ "tasks", no_argument, NULL, OPT_TASKS },
	{ "mmaps", no_argument, NULL, OPT_MMAPS },
	{ "ns", no_argument, NULL, OPT_NS },
	{ "exclude-other", no_argument, NULL, 'x' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "parent", required_argument, NULL, 'p' },
	{ "demangle", no_argument, NULL, OPT_DEMANGLE },
	{ "force", no_argument, NULL, 'f' },
	{ "no-demangle", no_argument, NULL, OPT_NO_DEMANGLE },
	{ "skip-empty", no_argument, NULL, OPT_SKIP_EMPTY },
	{ "symfs", required_argument, NULL, OPT_SYMFS },
	{ "no-skip-empty", no_argument, NULL, OPT_NO_SKIP_EMPTY },
	{ "raw-trace", no_argument, NULL, OPT_RAW_TRACE },
	{ "group", no_argument, NULL, OPT_GROUP },
	{ "no-group", no_argument, NULL, OPT_NO_GROUP },
	{ "group-sort-idx", required_argument, NULL, OPT_GROUP_SORT_IDX },
	{ "mem-mode", no_argument, NULL, OPT_MEM_MODE },
	{ "branch-stack", no_argument, NULL, 'b' },
	{ "no-branch-stack", no_argument, NULL, OPT_NO_BRANCH_STACK },
	{ "branch-history", no_argument, NULL, OPT_BRANCH_HISTORY },
	{ "hierarchy", no_argument, NULL, OPT_HIERARCHY },
	{ "no-pager", no_argument, NULL, OPT_NO_PAGER },
	{ "help", no_argument, NULL, 'h' },
	{ "version", no_argument, NULL, OPT_VERSION },
	{ NULL, 0, NULL, 0 },
};

/* What main() sets up before a mode runs (git's RUN_SETUP). */
enum mode_flags {
	MODE_NEED_RECORDS = 1 << 0,	/* decode every record (session__load) */
	MODE_NEED_MACHINE = 1 << 1,	/* threads, maps and symbols */
	MODE_OWN_PRELOAD = 1 << 2,	/* the mode waits for the kernel symbols job
					 * itself (machine__wait_preload()) */
};

static const struct mode {
	const char *name;
	int (*run)(struct session *s, const struct report_opts *o, struct machine *m,
		   FILE *out);
	unsigned flags;
} modes[] = {
	{ "report", cmd_report, MODE_NEED_RECORDS | MODE_NEED_MACHINE | MODE_OWN_PRELOAD },
	{ "dump", cmd_dump, MODE_NEED_RECORDS | MODE_NEED_MACHINE },
	{ "stats", cmd_stats, MODE_NEED_RECORDS },
	/* a pipe's features are records: header-only loads those (see below) */
	{ "header-only", cmd_header, 0 },
};

/* Machine state for a mode: build-ids applied, kernel symbols read on a worker while
 * the recording decodes (`span_only`: the mode uses them for the kernel map's span
 * alone, dsos_opts.kernel_span_only). */
static int setup_machine(struct session *s, const struct report_opts *o,
			 struct machine **m, bool ahead, bool span_only)
{
	/* the report forks to check the tracing data before its delivery: no check
	 * thread may run beside the fork */
	struct dsos_opts dopts = { .kallsyms = o->kallsyms, .no_demangle = o->no_demangle,
				   .symfs = o->symfs, .buildid_dir = o->buildid_dir,
				   .kallsyms_ahead = ahead,
				   .kallsyms_check_at_take = cmd_report_forks(s),
				   .kernel_span_only = span_only };
	int err = machine__new_opts(m, &dopts);

	if (!err)
		err = machine__apply_build_ids(*m, session__features(s));
	/* not for a recording that excludes the kernel: its symbols would not be
	 * used (and the first batch would wait for them) */
	if (!err && !evlist__excludes_kernel(session__evlist(s)))
		err = machine__preload_kernel(*m, session__workqueue(s));
	return err;
}

/* getopt's short options: the letters of long_opts' entries with one (a ':' after
 * those that take an argument). */
static const char short_opts[] = ":i:DIj:g:Ghs:F:nt:w:S:C:UqTxfp:vb";

/* Options followed by a separate argument (for optional_call_graph_arg): those with
 * ':' in short_opts (-g's argument is optional: handled by the caller), and the long
 * options with required_argument. */
static bool takes_arg(const char *a)
{
	if (a[0] == '-' && a[1] != '-') {
		const char *p = a[1] && a[1] != ':' && a[1] != 'g' ? strchr(short_opts, a[1])
								   : NULL;

		return p && !a[2] && p[1] == ':';
	}
	for (const struct option *lo = long_opts; lo->name; lo++)
		if (lo->has_arg == required_argument && !strcmp(a + 2, lo->name))
			return true;
	return false;
}

/*
 * perf's -g/--call-graph argument is optional: without one (last on the command
 * line, or followed by another option) it is CALLCHAIN_DEFAULT_OPT.  getopt cannot
 * say that, so such a -g becomes --call-graph=<default> first.
 */
static void optional_call_graph_arg(int argc, char **argv)
{
	static char dflt[] = "--call-graph=" CALLCHAIN_DEFAULT_OPT;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (!strcmp(a, "--"))
			return;
		if ((!strcmp(a, "-g") || !strcmp(a, "--call-graph")) &&
		    (i + 1 == argc || argv[i + 1][0] == '-'))
			argv[i] = dflt;
		else if (takes_arg(a))
			i++;
	}
}

static int bad_usage(const char *msg)
{
	return cli__bad_usage("dirreport", msg);
}

/* -s/-F/-w/-t: the keys must exist (a usage error otherwise, before any reading). */
static int check_sort_options(const struct report_opts *o)
{
	struct sort_opts so = {
		.sort_order = o->sort, .field_order = o->fields, .col_widths = o->col_widths,
		.field_sep = o->field_sep, .children = o->children != 0,
		.show_nr_samples = o->show_nr_samples,
		.show_total_period = o->show_total_period,
		.comm_list = o->comms, .dso_list = o->dsos, .sym_list = o->symbols,
		.nanosecs = o->nanosecs, .parent_key = o->parent != NULL,
		.mem_mode = o->mem_mode,
	};
	struct sort_list sl;
	char msg[256] = "";
	int err;

	if (o->field_sep && !o->field_sep[0])
		return bad_usage("-t needs a separator");
	err = sort_list__setup(&sl, &so, msg, sizeof(msg));
	/* the branch view's keys: the recording decides whether they exist (the
	 * report checks again) */
	if (err && o->branch_stack >= 0 && !o->mem_mode) {
		so.branch_mode = true;
		so.children = false;
		msg[0] = '\0';
		err = sort_list__setup(&sl, &so, msg, sizeof(msg));
	}
	if (err)
		return bad_usage(msg);
	return 0;
}

/* perf's strlist parse of --comms, --dsos, -S: a repeated item is an error (a last
 * empty item is dropped). */
static bool valid_str_list(const char *list)
{
	for (const char *a = list; a;) {
		const char *ca = strchr(a, ',');
		size_t na = ca ? (size_t)(ca - a) : strlen(a);

		if (!ca && !na)
			break;
		for (const char *b = ca ? ca + 1 : NULL; b;) {
			const char *cb = strchr(b, ',');
			size_t nb = cb ? (size_t)(cb - b) : strlen(b);

			if (!cb && !nb)
				break;
			if (na == nb && !memcmp(a, b, na))
				return false;
			b = cb ? cb + 1 : NULL;
		}
		a = ca ? ca + 1 : NULL;
	}
	return true;
}

/* perf's intlist parse of --pid, --tid: decimal numbers (empty: 0), no repeats. */
static bool valid_int_list(const char *list)
{
	for (const char *a = list; a;) {
		char *end;
		long v = strtol(a, &end, 10);

		if (*end != ',' && *end)
			return false;
		for (const char *b = *end ? end + 1 : NULL; b;) {
			char *e2;

			if (strtol(b, &e2, 10) == v)
				return false;
			if (*e2 != ',' && *e2)
				break;	/* reported when a reaches it */
			b = *e2 ? e2 + 1 : NULL;
		}
		a = *end ? end + 1 : NULL;
	}
	return true;
}

/* -C: "N" or "N-M" items, comma-separated, cpus under 4096. */
static bool valid_cpu_list(const char *p)
{
	while (*p) {
		char *end;
		unsigned long a = strtoul(p, &end, 10), b = a;

		if (end == p || *p == '-' || *p == '+')
			return false;
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return false;
			b = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (b < a || b >= 4096)
			return false;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}

/* A write error on stdout (code: its errno), reported; not on pipes: `| head` is
 * fine. Returns the exit status. */
static int write_error(int code)
{
	struct stat st;
	bool is_pipe = fstat(1, &st) == 0 && (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode));

	if (is_pipe && code == EPIPE)
		return 0;
	fprintf(stderr, "dirreport: write error: %s\n", strerror(code));
	return 1;
}

/* Close stdout and report write errors. */
static int finish_stdout(void)
{
	if (fflush(stdout) != 0 || ferror(stdout))
		return write_error(errno ? errno : EIO);	/* a failed write's errno */
	return 0;
}

/* What the command line asks for, beyond report_opts. */
struct cmdline {
	bool dump, stats;
	bool no_pager;		/* --no-pager */
};

/* Parse argv into o and cl; -1 to go on, else the exit status (usage error, --help). */
static int parse_options(int argc, char **argv, struct report_opts *o, struct cmdline *cl)
{
	char *end;
	int c, err;

	callchain_param__init(&o->cc);
	optional_call_graph_arg(argc, argv);
	opterr = 0;	/* cli__getopt_error() says what is wrong */
	while ((c = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
		switch (c) {
		case 'i': o->input = optarg; break;
		case 'D': cl->dump = true; break;
		case 'I': o->show_info = true; break;
		case OPT_STDIO: break;
		case OPT_HEADER: o->header = true; break;
		case OPT_HEADER_ONLY: o->header_only = true; break;
		case OPT_KALLSYMS: o->kallsyms = optarg; break;
		case OPT_BUILDID_DIR: o->buildid_dir = optarg; break;
		case OPT_SYMFS: o->symfs = optarg; break;
		case OPT_NO_CHILDREN: o->children = 0; break;
		case OPT_CHILDREN: o->children = 1; break;
		case 'G': o->inverted = true; break;
		case 'g':
			err = callchain_param__parse(&o->cc, optarg);
			o->cc_set = o->cc.mode != CALLCHAIN_NONE;
			if (err)
				return bad_usage("-g: invalid call graph option");
			break;
		case 's': o->sort = optarg; break;
		case 'F': o->fields = optarg; break;
		case 'n': o->show_nr_samples = true; break;
		case OPT_SHOW_TOTAL_PERIOD: o->show_total_period = true; break;
		case 't': o->field_sep = optarg; break;
		case 'w': o->col_widths = optarg; break;
		case OPT_PERCENTAGE:
			if (strcmp(optarg, "relative") && strcmp(optarg, "absolute"))
				return bad_usage("--percentage takes relative or absolute");
			o->filter_relative = !strcmp(optarg, "relative");
			break;
		case OPT_COMMS:
		case OPT_DSOS:
		case 'S':
			if (!valid_str_list(optarg))
				return bad_usage(c == 'S' ? "-S: a symbol is listed twice" :
						 c == OPT_DSOS ? "--dsos: a dso is listed twice" :
						 "--comms: a command is listed twice");
			*(c == 'S' ? &o->symbols : c == OPT_DSOS ? &o->dsos : &o->comms) = optarg;
			break;
		case OPT_PID:
		case OPT_TID:
			if (!valid_int_list(optarg))
				return bad_usage(c == OPT_PID ? "--pid takes distinct numbers, "
						 "comma-separated" : "--tid takes distinct numbers, "
						 "comma-separated");
			*(c == OPT_PID ? &o->pids : &o->tids) = optarg;
			break;
		case 'U': o->hide_unresolved = true; break;
		case 'q': o->quiet = true; break;
		case 'T': o->show_threads = true; break;
		case OPT_TASKS: o->tasks = true; break;
		case OPT_MMAPS: o->mmaps = o->tasks = true; break;
		case OPT_NS: o->nanosecs = true; break;
		case 'x': o->exclude_other = true; break;
		case 'v': o->verbose = true; break;
		case 'p': {
			regex_t re;

			/* perf: "Invalid regex", nothing printed, exit 0 */
			if (regcomp(&re, optarg, REG_EXTENDED | REG_NOSUB))
				return bad_usage("-p: invalid regular expression");
			regfree(&re);
			o->parent = optarg;
			break;
		}
		case 'f': break;	/* perf: read files of other owners; dirreport does */
		case OPT_DEMANGLE: o->no_demangle = false; break;
		case OPT_NO_DEMANGLE: o->no_demangle = true; break;
		case OPT_SKIP_EMPTY: o->no_skip_empty = false; break;
		case OPT_NO_SKIP_EMPTY: o->no_skip_empty = true; break;
		case OPT_RAW_TRACE: o->raw_trace = true; break;
		case OPT_GROUP: o->group = 1; break;
		case OPT_NO_GROUP: o->group = -1; break;
		case OPT_GROUP_SORT_IDX: {
			char *e;
			long v;

			errno = 0;
			v = strtol(optarg, &e, 10);
			if (e == optarg || *e || errno || v < INT_MIN || v > INT_MAX)
				return bad_usage("--group-sort-idx takes a number");
			o->group_sort_idx = (int)v;
			break;
		}
		case OPT_MEM_MODE: o->mem_mode = true; break;
		case 'b': o->branch_stack = 1; break;
		case OPT_NO_BRANCH_STACK: o->branch_stack = -1; break;
		case OPT_BRANCH_HISTORY:
			return bad_usage("--branch-history (branch stacks added to the "
					 "callchains) is not implemented");
		case OPT_HIERARCHY: o->hierarchy = true; break;
		case OPT_STATS: cl->stats = true; break;
		case OPT_NO_PAGER: cl->no_pager = true; break;
		case OPT_TIME: {
			struct time_ranges tr;

			/* the syntax only: percentages need the recording */
			if (time_ranges__parse(&tr, optarg, 0, 0))
				return bad_usage("--time: invalid time string");
			o->time_str = optarg;
			break;
		}
		case 'C':
			if (!valid_cpu_list(optarg))
				return bad_usage("-C takes a cpu list like 0-2,5");
			o->cpus = optarg;
			break;
		case OPT_PERCENT_LIMIT:
			/* perf: strtof, no checks; also the call graph threshold */
			o->percent_limit = strtof(optarg, NULL);
			o->cc.min_percent = o->percent_limit;
			break;
		case OPT_MAX_STACK:
			errno = 0;
			o->max_stack = (int)strtol(optarg, &end, 10);
			if (errno || *end || end == optarg)
				return bad_usage("--max-stack takes a number");
			break;
		case 'j':
			if (cli__parse_jobs(optarg, &o->jobs))
				return bad_usage("-j takes a number from 1 to 1024");
			break;
		case 'h':
			fputs(usage_text, stdout);
			return 0;
		case OPT_VERSION:
			return cli__version("dirreport");
		default:	/* '?' or ':' */
			return cli__getopt_error("dirreport", c, argv, long_opts);
		}
	}
	if (optind < argc)
		return cli__no_arguments("dirreport", argc, argv, optind);
	return -1;
}

/* Combinations perf refuses, or dirreport does not implement; 0 or the exit status.
 * Also what --hierarchy and -q imply. */
static int check_combinations(struct report_opts *o, const struct cmdline *cl)
{
	int err;

	if (o->mem_mode && o->hierarchy)	/* perf 6.1 mostly crashes (SIGSEGV) */
		return bad_usage("--mem-mode with --hierarchy is not implemented");
	if (o->hierarchy && o->fields)	/* perf refuses it too */
		return bad_usage("--hierarchy and -F cannot be used together");
	if (o->hierarchy && (o->field_sep || o->col_widths))
		return bad_usage("--hierarchy with -t or -w is not implemented");
	if (o->hierarchy && sort_order__has_value_key(o->sort))
		return bad_usage("--hierarchy with overhead, sample or period keys in -s is "
				 "not implemented");
	if (o->hierarchy && o->exclude_other)	/* perf prints nodes below hidden ones */
		return bad_usage("--hierarchy with -x is not implemented");
	if (o->hierarchy) {
		/* perf: no children view in a hierarchy, but chains keep the order the
		 * children view would give them (the parent key's match, for one) */
		if (o->children != 0 && !o->cc.order_set)
			o->cc.order = CALLCHAIN_CALLER;
		o->children = 0;
	}
	err = check_sort_options(o);
	if (err)
		return err;
	if (cl->stats && cl->dump)
		return bad_usage("--stats and -D cannot be combined");
	/* perf prints no counts when these leave no sample; dirreport does not
	 * follow it there */
	if (cl->stats && (o->cpus || o->hide_unresolved || o->time_str || o->tasks))
		return bad_usage("--stats cannot be combined with -C, -U, --time, --tasks "
				 "or --mmaps");
	if (o->quiet && !cl->dump)	/* perf -q prints no header: the report only */
		o->header = o->header_only = false;
	return 0;
}

/* run_once()'s answer when the kernel symbols it read ahead were not the running
 * kernel's: nothing was printed on stdout; run again without reading ahead. */
#define RUN_AGAIN (-1)

/* How many of the session's warnings a run printed before its mode ran: a run made
 * again prints only those past them (the same file gives the same ones). */
static size_t warned_before_mode;

/* Open, load and run the mode; the exit status, or RUN_AGAIN.  With `ahead` the
 * report reads the kernel's symbols from the build-id cache's copy of the running
 * kernel's kallsyms where there is one (dsos_opts.kallsyms_ahead): a report prints
 * only at its end, where it checks the copy against the running kernel's file (the
 * dump prints as it goes; standard input and FIFOs cannot be read again). */
static int run_once(const struct report_opts *o, const struct cmdline *cl, bool ahead)
{
	struct session_opts so = { .path = o->input, .jobs = o->jobs, .use_index = true };
	struct session *s = NULL;
	struct machine *m = NULL;
	struct diag d = { .offset = DIAG_NO_OFFSET };
	const struct mode *mode;
	struct dir_index *ix;
	char line[1024];
	int err;

	mode = o->header_only ? &modes[3] : cl->dump ? &modes[1] : cl->stats ? &modes[2] :
	       &modes[0];
	/* --stats reads a fresh index alone (cmd_stats_index() warns about one that
	 * does not hold); the other modes start the session from it */
	so.use_index = mode->run != cmd_stats;
	/* the report prints at its end (--header: at its start), so a damaged record
	 * found while delivering leaves nothing written (reader/session.h) */
	so.scan_optional = mode->run == cmd_report && !o->header;
	err = session__open(&s, &so, &d);
	/* perf's default sort with --raw-trace is trace_fields (a column per field)
	 * where its default is trace (a file of tracepoint events only), which
	 * dirreport does not have; elsewhere (a pipe, other events) it is perf's
	 * usual default */
	if (!err && o->raw_trace && (!o->sort || o->sort[0] == '+') &&
	    trace_sort__default_is_trace(session__evlist(s), session__is_pipe(s))) {
		session__close(s);
		return bad_usage("--raw-trace on a file of tracepoint events needs -s KEYS "
				 "(perf's trace_fields columns are not implemented)");
	}
	/* perf refuses --group-sort-idx N (N != 0) on a recording without event groups
	 * (GROUP_DESC, or --group/--no-group over several events; a pipe has none when
	 * perf checks), whatever the mode, printing the option's usage (its exit status
	 * 234 is -EINVAL's low byte; dirreport's usage errors exit with 2) */
	if (!err && o->group_sort_idx &&
	    (session__is_pipe(s) ||
	     (!session__features(s)->nr_groups && !(o->group && session__evlist(s)->nr > 1)))) {
		session__close(s);
		return bad_usage("--group-sort-idx: the recording has no event groups");
	}
	if (!err && (mode->flags & MODE_NEED_MACHINE))
		err = setup_machine(s, o, &m, ahead && mode->run == cmd_report && !o->header &&
					      !session__is_pipe(s) && session__can_read_again(s),
				    /* -D prints dsos, never symbols (cmd-dump.c) */
				    mode->run == cmd_dump);
	/* --stats from a fresh index: no pass over the records at all */
	if (!err && mode->run == cmd_stats && !o->header &&
	    (ix = cmd_stats_index(s, o->input ? o->input : "perf.data"))) {
		err = cmd_stats_with(s, o, m, stdout, ix);
		dir_index__delete(ix);
		machine__delete(m);
		session__close(s);
		if (err < 0 && ferror(stdout))
			return write_error(-err);
		if (err) {
			fprintf(stderr, "dirreport: %s\n", diag__code_str(err));
			return 1;
		}
		return finish_stdout();
	}
	if (!err && ((mode->flags & MODE_NEED_RECORDS) || session__is_pipe(s)))
		err = session__load(s, &d);
	phases__mark("load");
	/* the kernel symbols job, if any, must be done before records replay; the
	 * report waits for it at its first batch, so the decoding starts meanwhile */
	if (s && !(mode->flags & MODE_OWN_PRELOAD)) {
		machine__wait_preload(m);	/* its parsing helped with here (the
						 * scan is done) */
		workqueue__flush(session__workqueue(s));
		phases__mark("kernel symbols wait");
	}
	if (err) {
		if (d.code == 0)
			diag__set(&d, o->input ? o->input : "perf.data", DIAG_NO_OFFSET, err, NULL);
		fprintf(stderr, "dirreport: %s\n", diag__format(&d, line, sizeof(line)));
		machine__delete(m);
		session__close(s);
		return 1;
	}
	size_t nr_warned = session__nr_warnings(s);

	for (size_t i = warned_before_mode; i < nr_warned; i++)
		fprintf(stderr, "dirreport: warning: %s\n", session__warning(s, i));
	if (nr_warned > warned_before_mode)
		warned_before_mode = nr_warned;
	err = mode->run(s, o, m, stdout);
	if (err == CMD_AGAIN) {
		machine__delete(m);
		session__close(s);
		return RUN_AGAIN;
	}
	/* and those the delivery found */
	for (size_t i = nr_warned; i < session__nr_warnings(s); i++)
		fprintf(stderr, "dirreport: warning: %s\n", session__warning(s, i));
	/* for bench/phases.sh: where the time went (util/phase.h) */
	(void)phases__print(stderr, "dirreport");
	/* for bench/index.sh and tests/index: how much of the records was read */
	if (getenv("DIRREPORT_IO_STATS"))
		fprintf(stderr, "dirreport: io: %llu bytes of records read%s\n",
			(unsigned long long)session__bytes_read(s),
			session__indexed(s) ? " (started from the index)" : "");
	/* a damaged record found while delivering (a session started from its index
	 * has had no scan pass): its file, offset and what is wrong */
	bool damaged = err < 0 && session__deliver_error(s, &d);

	machine__delete(m);
	session__close(s);
	if (err > 0) {	/* the mode printed its message */
		finish_stdout();
		return 1;
	}
	if (damaged) {
		fprintf(stderr, "dirreport: %s\n", diag__format(&d, line, sizeof(line)));
		return 1;
	}
	/* the mode stopped at a failed write (err: its errno; the dump's and the
	 * stats' writes are checked as they go) */
	if (err < 0 && ferror(stdout))
		return write_error(-err);
	if (err) {
		fprintf(stderr, "dirreport: %s\n", diag__code_str(err));
		return 1;
	}
	return finish_stdout();
}

/* Open, load and run the mode; the exit status. */
static int run(const struct report_opts *o, const struct cmdline *cl)
{
	int ret = run_once(o, cl, true);

	return ret == RUN_AGAIN ? run_once(o, cl, false) : ret;
}

int main(int argc, char **argv)
{
	struct report_opts o = { .children = -1, .max_stack = -1 };
	struct cmdline cl = { 0 };
	int ret;

	phases__start(getenv("DIRREPORT_PHASES") != NULL);	/* util/phase.h */
	ret = parse_options(argc, argv, &o, &cl);

	if (ret >= 0)	/* --help, or a usage error */
		return ret;
	ret = check_combinations(&o, &cl);
	if (ret)
		return ret;
	/* perf report pages whatever it prints to a terminal, but for a recording
	 * read from standard input */
	if (!cl.no_pager && (!o.input || strcmp(o.input, "-")))
		cli__pager_start();
	return run(&o, &cl);
}
