/*
 * dirreport - perf report for perf.data files and data directories, in parallel.
 * A thin front end: parse options, open and load the recording, run one mode, print
 * the one-line diagnostic on failure.
 */
#include <errno.h>
#include <limits.h>	/* INT_MIN, INT_MAX */
#include <regex.h>	/* regcomp, regfree */
#include <stdio.h>
#include <stdlib.h>	/* getenv, strtof, strtol */
#include <string.h>	/* strcmp, strerror */
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
#include "resolve/trace-sort.h"
#include "cli/cli.h"
#include "cli/list.h"
#include "cli/options.h"
#include "cli/pager.h"
#include "util/phase.h"
#include "banned.h"

/* The SYNOPSIS of docs/dirreport.1.md (tests compare the two); the options follow in
 * --help, from the table (parse_options()). */
static const char synopsis[] =
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
	"                 [--perf-compat] [--no-pager]\n"
	"       dirreport -D [-i PATH] [-j N] [--no-skip-empty] [-b | --no-branch-stack]\n"
	"       dirreport --stats [-i PATH] [-j N] [--no-skip-empty]\n"
	"       dirreport --tasks [--mmaps] [-i PATH] [-j N]\n"
	"       dirreport --header-only [-I] [-i PATH]\n";

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
				   .kallsyms_cached = !o->perf_compat,
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

/* -g [FORM]: the call graph parameters into the struct report_opts at value; without
 * FORM perf's default (CALLCHAIN_DEFAULT_OPT). */
static int opt_call_graph(struct cli_parser *p, const struct cli_option *opt,
			  const char *arg)
{
	struct report_opts *o = opt->value;
	int err = callchain_param__parse(&o->cc, arg ? arg : CALLCHAIN_DEFAULT_OPT);

	o->cc_set = o->cc.mode != CALLCHAIN_NONE;
	return err ? cli__opt_usage(p, "-g: invalid call graph option") : 0;
}

/* --percent-limit P (perf: strtof, no checks); also the call graph threshold. */
static int opt_percent_limit(struct cli_parser *p, const struct cli_option *opt,
			     const char *arg)
{
	struct report_opts *o = opt->value;

	(void)p;
	o->percent_limit = strtof(arg, NULL);
	o->cc.min_percent = o->percent_limit;
	return 0;
}

/* --percentage relative|absolute into (bool *)value: relative or not. */
static int opt_percentage(struct cli_parser *p, const struct cli_option *opt,
			  const char *arg)
{
	if (strcmp(arg, "relative") && strcmp(arg, "absolute"))
		return cli__opt_usage(p, "--percentage takes relative or absolute");
	*(bool *)opt->value = !strcmp(arg, "relative");
	return 0;
}

/* -S: perf's strlist, as --comms and --dsos (cli__str_list_valid()). */
static int opt_symbols(struct cli_parser *p, const struct cli_option *opt,
		       const char *arg)
{
	if (!cli__str_list_valid(arg))
		return cli__opt_usage(p, "-S: a symbol is listed twice");
	*(const char **)opt->value = arg;
	return 0;
}

/* -p REGEX: a POSIX extended regex, kept as given. */
static int opt_parent(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	regex_t re;

	/* perf: "Invalid regex", nothing printed, exit 0 */
	if (regcomp(&re, arg, REG_EXTENDED | REG_NOSUB))
		return cli__opt_usage(p, "-p: invalid regular expression");
	regfree(&re);
	*(const char **)opt->value = arg;
	return 0;
}

/* --group-sort-idx N: an int into (int *)value. */
static int opt_group_sort_idx(struct cli_parser *p, const struct cli_option *opt,
			      const char *arg)
{
	char *e;
	long v;

	errno = 0;
	v = strtol(arg, &e, 10);
	if (e == arg || *e || errno || v < INT_MIN || v > INT_MAX)
		return cli__opt_usage(p, "--group-sort-idx takes a number");
	*(int *)opt->value = (int)v;
	return 0;
}

/* --mmaps: --tasks with the maps (the struct report_opts at value). */
static int opt_mmaps(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct report_opts *o = opt->value;

	(void)p, (void)arg;
	o->mmaps = o->tasks = true;
	return 0;
}

/* --branch-history: perf's, not implemented. */
static int opt_branch_history(struct cli_parser *p, const struct cli_option *opt,
			      const char *arg)
{
	(void)opt, (void)arg;
	return cli__opt_usage(p, "--branch-history (branch stacks added to the "
			      "callchains) is not implemented");
}

/* Parse argv into o and cl; -1 to go on, else the exit status (usage error, --help). */
static int parse_options(int argc, char **argv, struct report_opts *o, struct cmdline *cl)
{
	/* --help prints them in this order */
	const struct cli_option opts[] = {
		CLI_OPT_INPUT(&o->input),
		{ "stdio", 0, CLI_ARG_NONE, NULL,
		  "text report (the only output mode; default)", cli__opt_accept },
		{ "dump-raw-trace", 'D', CLI_ARG_NONE, NULL,
		  "dump every record, tagged with its file", cli__opt_true, &cl->dump },
		{ "stats", 0, CLI_ARG_NONE, NULL, "record counts only", cli__opt_true,
		  &cl->stats },
		{ "tasks", 0, CLI_ARG_NONE, NULL,
		  "the threads, as a tree of parents and children", cli__opt_true,
		  &o->tasks },
		{ "mmaps", 0, CLI_ARG_NONE, NULL, "--tasks, each thread with its memory maps",
		  opt_mmaps, o },
		{ "header", 0, CLI_ARG_NONE, NULL, "print the header, then the report",
		  cli__opt_true, &o->header },
		{ "header-only", 0, CLI_ARG_NONE, NULL, "print the header only",
		  cli__opt_true, &o->header_only },
		{ "show-info", 'I', CLI_ARG_NONE, NULL,
		  "with --header/--header-only: full header", cli__opt_true,
		  &o->show_info },
		CLI_OPT_JOBS(&o->jobs),
		CLI_OPT_KALLSYMS(&o->kallsyms),
		CLI_OPT_BUILDID_DIR(&o->buildid_dir),
		{ "symfs", 0, CLI_ARG_REQUIRED, "DIR",
		  "look for files with symbols under DIR (no build-id\n"
		  "cache; kernel symbols only from --kallsyms)", cli__opt_string,
		  &o->symfs },
		{ "children", 0, CLI_ARG_NONE, NULL,
		  "Children and Self columns (default with callchains)", cli__opt_int,
		  &o->children, 1 },
		{ "no-children", 0, CLI_ARG_NONE, NULL, "self overhead only", cli__opt_int,
		  &o->children, 0 },
		{ "call-graph", 'g', CLI_ARG_OPTIONAL_NEXT, "FORM",
		  "call graphs, FORM = MODE[,THRESHOLD[,LIMIT]][,ORDER]\n"
		  "[,KEY][,VALUE]: graph, flat, fractal, folded or\n"
		  "none; caller or callee; function, address or\n"
		  "srcline; branch; percent, period or count\n"
		  "(-g alone: " CALLCHAIN_DEFAULT_OPT ")", opt_call_graph, o },
		{ "inverted", 'G', CLI_ARG_NONE, NULL, "caller-first call graphs",
		  cli__opt_true, &o->inverted },
		CLI_OPT_MAX_STACK(&o->max_stack, "frames kept per callchain (default 127)"),
		{ "percent-limit", 0, CLI_ARG_REQUIRED, "P",
		  "hide entries under P percent (it also sets the\n"
		  "call graph threshold)", opt_percent_limit, o },
		{ "sort", 's', CLI_ARG_REQUIRED, "KEYS",
		  "sort keys: overhead, overhead_sys, overhead_us,\n"
		  "overhead_guest_sys, overhead_guest_us,\n"
		  "overhead_children, sample, period, pid, comm, dso,\n"
		  "symbol (sym), parent, cpu, socket, srcline,\n"
		  "srcfile, local_weight, weight, local_ins_lat,\n"
		  "ins_lat, local_p_stage_cyc, p_stage_cyc, cgroup,\n"
		  "cgroup_id, code_page_size, time, addr, dso_size,\n"
		  "symbol_size, trace, transaction; +KEYS adds to\n"
		  "the default\n"
		  "(trace for a file of tracepoint events only);\n"
		  "with --mem-mode also mem, snoop, tlb, locked,\n"
		  "blocked, symbol_daddr, dso_daddr, phys_daddr,\n"
		  "data_page_size, dcacheline, symbol_iaddr;\n"
		  "in the branch view also dso_from, dso_to,\n"
		  "symbol_from, symbol_to, mispredict, in_tx, abort,\n"
		  "cycles, addr_from, addr_to", cli__opt_string, &o->sort },
		{ "fields", 'F', CLI_ARG_REQUIRED, "FIELDS",
		  "output columns, in order (same names; +FIELDS adds;\n"
		  "also ipc_null)", cli__opt_string, &o->fields },
		{ "raw-trace", 0, CLI_ARG_NONE, NULL,
		  "the trace key prints the fields of tracepoint\n"
		  "events, not their print format (a file of\n"
		  "tracepoint events only: needs -s KEYS)", cli__opt_true, &o->raw_trace },
		{ "mem-mode", 0, CLI_ARG_NONE, NULL,
		  "memory accesses: entries weighted by the samples'\n"
		  "weight (1 for 0), perf's memory sort order, the\n"
		  "memory keys (needs perf record -d)", cli__opt_true, &o->mem_mode },
		{ "branch-stack", 'b', CLI_ARG_NONE, NULL,
		  "the branch view: an entry per branch of each\n"
		  "sample's branch stack (the default for\n"
		  "recordings with branch stacks, perf record -b)", cli__opt_int,
		  &o->branch_stack, 1 },
		{ "no-branch-stack", 0, CLI_ARG_NONE, NULL,
		  "an entry per sample, also with branch stacks", cli__opt_int,
		  &o->branch_stack, -1 },
		{ "branch-history", 0, CLI_ARG_NONE, NULL,
		  "(perf: branch stacks added to the callchains) not\n"
		  "implemented: a usage error", opt_branch_history },
		{ "show-nr-samples", 'n', CLI_ARG_NONE, NULL, "a Samples column",
		  cli__opt_true, &o->show_nr_samples },
		{ "show-total-period", 0, CLI_ARG_NONE, NULL, "a Period column",
		  cli__opt_true, &o->show_total_period },
		{ "field-separator", 't', CLI_ARG_REQUIRED, "SEP",
		  "separate columns with SEP instead of spaces", cli__opt_string,
		  &o->field_sep },
		{ "column-widths", 'w', CLI_ARG_REQUIRED, "WIDTHS",
		  "comma-separated column widths", cli__opt_string, &o->col_widths },
		{ "percentage", 0, CLI_ARG_REQUIRED, "relative|absolute",
		  "percent base with filters: the\n"
		  "shown entries, or all (default: absolute)", opt_percentage,
		  &o->filter_relative },
		CLI_OPT_COMMS(&o->comms, "COMMS", "only samples of these commands"),
		CLI_OPT_PID(&o->pids, "PIDS", "only samples of these processes"),
		CLI_OPT_TID(&o->tids, "TIDS", "only samples of these threads"),
		CLI_OPT_DSOS(&o->dsos, "DSOS", "only samples in these shared objects"),
		{ "symbols", 'S', CLI_ARG_REQUIRED, "SYMBOLS",
		  "only samples in these symbols (names or 0xADDR)", opt_symbols,
		  &o->symbols },
		CLI_OPT_CPU(&o->cpus, "only samples on these cpus (\"0-2,5\")"),
		{ "hide-unresolved", 'U', CLI_ARG_NONE, NULL, "only samples with a symbol",
		  cli__opt_true, &o->hide_unresolved },
		CLI_OPT_TIME(&o->time_str,
			     "only samples in these time ranges: START,STOP\n"
			     "(seconds; several separated by spaces) or\n"
			     "percentages (10%/2, 0%-10%, 25%; comma-separated)"),
		{ "parent", 'p', CLI_ARG_REQUIRED, "REGEX",
		  "the parent key's regex (POSIX extended; default\n"
		  "^sys_|^do_page_fault); adds the parent key", opt_parent, &o->parent },
		{ "exclude-other", 'x', CLI_ARG_NONE, NULL, "only entries with a parent match",
		  cli__opt_true, &o->exclude_other },
		/* perf: read files of other owners; dirreport does */
		{ "force", 'f', CLI_ARG_NONE, NULL,
		  "accepted (dirreport reads files of any owner)", cli__opt_accept },
		{ "demangle", 0, CLI_ARG_NONE, NULL,
		  "C++ symbol names demangled (the default)", cli__opt_bool,
		  &o->no_demangle, 0 },
		{ "no-demangle", 0, CLI_ARG_NONE, NULL,
		  "C++ symbol names as in the symbol table", cli__opt_bool,
		  &o->no_demangle, 1 },
		{ "ns", 0, CLI_ARG_NONE, NULL, "the time key (-s time) in nanoseconds",
		  cli__opt_true, &o->nanosecs },
		{ "threads", 'T', CLI_ARG_NONE, NULL,
		  "also the counts of perf record -s per thread", cli__opt_true,
		  &o->show_threads },
		{ "quiet", 'q', CLI_ARG_NONE, NULL,
		  "entries only: no header or comment lines\n"
		  "(--header, --header-only and -v are ignored)", cli__opt_true, &o->quiet },
		{ "verbose", 'v', CLI_ARG_NONE, NULL,
		  "full dso names; symbol addresses and origins", cli__opt_true,
		  &o->verbose },
		{ "skip-empty", 0, CLI_ARG_NONE, NULL,
		  "events and record types without any: not printed\n"
		  "(the default)", cli__opt_bool, &o->no_skip_empty, 0 },
		{ "no-skip-empty", 0, CLI_ARG_NONE, NULL,
		  "print them (empty histograms, zero counts)", cli__opt_bool,
		  &o->no_skip_empty, 1 },
		{ "group", 0, CLI_ARG_NONE, NULL,
		  "event groups together, one column per event (the\n"
		  "default for recordings with groups; without groups:\n"
		  "all events as one group)", cli__opt_int, &o->group, 1 },
		{ "no-group", 0, CLI_ARG_NONE, NULL, "every event on its own", cli__opt_int,
		  &o->group, -1 },
		{ "group-sort-idx", 0, CLI_ARG_REQUIRED, "N",
		  "the group view sorted by the values of event N of\n"
		  "the group (0: the leader's, ties by the members';\n"
		  "out of range: the leader's alone)", opt_group_sort_idx,
		  &o->group_sort_idx },
		{ "hierarchy", 0, CLI_ARG_NONE, NULL,
		  "entries nested by sort key, one level per key\n"
		  "(no children view; not with -F, -t, -w or -x)", cli__opt_true,
		  &o->hierarchy },
		{ "perf-compat", 0, CLI_ARG_NONE, NULL,
		  "perf 6.1's bytes: its entry trees replayed, with the\n"
		  "split entries their order makes (the default merges\n"
		  "them: one entry per key, the same at every -j)",
		  cli__opt_true, &o->perf_compat },
		CLI_OPT_NO_PAGER(&cl->no_pager),
		CLI_OPT_HELP,
		CLI_OPT_VERSION("dirreport"),
		CLI_OPT_END,
	};
	struct cli_parser p = { .prog = "dirreport", .synopsis = synopsis, .opts = opts };

	callchain_param__init(&o->cc);
	return cli__options_parse(&p, argc, argv);
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
