#ifndef DIRREPORT_REPORT_CMD_H
#define DIRREPORT_REPORT_CMD_H
/*
 * cmd - the modes of dirreport and the options they share. main() parses the command
 * line into struct report_opts, opens and loads the session once, then runs the mode.
 */
#include <stdbool.h>
#include <stdio.h>

#include "report/callchain.h"

struct machine;
struct session;

struct report_opts {
	const char *input;	/* -i; NULL = perf.data */
	unsigned jobs;		/* -j; 0 = online CPUs */
	bool header;		/* --header: header, then the report */
	bool header_only;	/* --header-only */
	bool show_info;		/* -I: full header */
	const char *sort;	/* -s; NULL = comm,dso,sym */
	const char *fields;	/* -F; NULL = perf's default columns */
	const char *col_widths;	/* -w */
	const char *field_sep;	/* -t */
	bool show_nr_samples;	/* -n */
	bool show_total_period;	/* --show-total-period */
	const char *kallsyms;	/* --kallsyms; NULL = perf's choice (dsos_opts) */
	const char *buildid_dir; /* --buildid-dir; NULL = $HOME/.debug */
	const char *symfs;	/* --symfs: where files with symbols are looked up
				 * (dsos_opts.symfs); NULL = none */
	int children;		/* --children 1, --no-children 0, default -1: on when
				 * the recording has callchains */
	bool children_cancelled; /* cmd_report(): children was asked for (or the
				 * default) and perf cancels it (pipes) */
	int branch_stack;	/* -b/--branch-stack 1, --no-branch-stack -1, 0:
				 * neither: perf's branch view when the recording
				 * has branch stacks (report/branch.h) */
	bool mem_mode;		/* --mem-mode: the memory sort keys, perf's memory
				 * default order; an entry's weight is its samples'
				 * WEIGHT (1 for 0), not their period */
	struct callchain_param cc;	/* -g (callchain_param__init() defaults) */
	bool cc_set;		/* -g asked for call graphs (perf's use_callchain) */
	bool inverted;		/* -G: caller order */
	int max_stack;		/* --max-stack: frames kept per chain */
	float percent_limit;	/* --percent-limit: entries under it are not shown */
	/* filters (perf's symbol_conf lists): comma-separated, NULL = none */
	const char *comms;	/* --comms */
	const char *pids;	/* --pid */
	const char *tids;	/* --tid */
	const char *dsos;	/* --dsos */
	const char *symbols;	/* -S/--symbols */
	const char *cpus;	/* -C/--cpu: cpu list ("0-2,5") */
	bool hide_unresolved;	/* -U */
	bool perf_compat;	/* --perf-compat: perf's entry trees replayed sample by
				 * sample (its split entries kept); else entries are
				 * keyed by a total order (sort_list.total_order) */
	bool filter_relative;	/* --percentage relative */
	bool quiet;		/* -q: entries only (no header, no comment lines) */
	const char *time_str;	/* --time (cli/time-range.h); NULL = all */
	bool show_threads;	/* -T: the READ records' values per thread */
	bool tasks;		/* --tasks: the thread tree instead of the report */
	bool mmaps;		/* --mmaps: --tasks with each thread's maps */
	bool nanosecs;		/* --ns: the time key in nanoseconds */
	bool exclude_other;	/* -x: only entries with a parent match */
	const char *parent;	/* -p: the parent regex (POSIX extended); also adds
				 * the parent key. NULL: PARENT_REGEX_DEFAULT */
	bool no_demangle;	/* --no-demangle: C++ names as in the symbol table */
	bool verbose;		/* -v: long dso names, symbol addresses (not with -q) */
	bool no_skip_empty;	/* --no-skip-empty: events without samples and zero
				 * record counts are printed too */
	bool raw_trace;		/* --raw-trace: the trace key prints the fields of
				 * tracepoint events, not their print fmt */
	int group;		/* --group 1, --no-group -1 (the last given), 0:
				 * neither (report/group.h) */
	bool hierarchy;		/* --hierarchy: entries nested by sort key
				 * (report/hierarchy.h); children off */
	int group_sort_idx;	/* --group-sort-idx N: the group view's entries in
				 * the order of event N's values (0: perf's order) */
};

/** perf's default parent regex (its default_parent_pattern), for `-s parent`. */
#define PARENT_REGEX_DEFAULT "^sys_|^do_page_fault"

/** A mode's return value when it has printed its own message (exit status 1). */
#define CMD_ERR_REPORTED 1

/** The report's return value when the kernel symbols read ahead were not the ones
 *  perf reads (machine__check_kernel_symbols()): it has printed nothing, and main.c's
 *  run() runs it again with a machine that reads the running kernel's file. */
#define CMD_AGAIN 2

/*
 * Every mode runs on a loaded session (records decoded) and, when its mode flags ask
 * for it, a machine that main() created, gave the BUILD_ID feature and started
 * reading kernel symbols for. Modes return 0 or a negative error; main() prints it.
 */

/** @brief `dirreport -D`: every record as perf 6.1's dump-raw-trace prints it. */
int cmd_dump(struct session *s, const struct report_opts *o, struct machine *m, FILE *out);

/**
 * @brief Whether cmd_report() checks @p s's tracing data before its delivery, in a
 *        forked child (machine/trace-event.c): a pipe (its tracing data may come in
 *        a record), or a recording with tracepoint events.  No other thread may run
 *        beside that fork (main() starts no kallsyms check thread before it).
 * Thread safety: reads @p s only.
 */
bool cmd_report_forks(struct session *s);

/** @brief `dirreport --stdio`: the histogram report (with --header: header first). */
int cmd_report(struct session *s, const struct report_opts *o, struct machine *m,
	       FILE *out);

/** @brief `dirreport --stats`: the record counts (perf report --stats). */
int cmd_stats(struct session *s, const struct report_opts *o, struct machine *m,
	      FILE *out);

struct dir_index;

/**
 * @brief The recording's index (format/index.h) when it can answer --stats: read,
 *        checked (layout, CRC), fresh (every file's size and mtime) and of the same
 *        files and events.  A missing index is NULL without a word; a damaged, stale
 *        or foreign one is NULL with one warning line on stderr ("dirreport:
 *        warning: index ignored: ...").
 * @param input  the recording's path as given
 * @return the index (caller frees with dir_index__delete()), or NULL.
 * Thread safety: the main thread.  Format: docs/index-format.md.
 */
struct dir_index *cmd_stats_index(struct session *s, const char *input);

/**
 * @brief cmd_stats(), with the counts taken from @p ix (not NULL) instead of a pass
 *        over the records: the output is the same; the records need not be loaded.
 * Thread safety: the main thread.
 */
int cmd_stats_with(struct session *s, const struct report_opts *o, struct machine *m,
		   FILE *out, const struct dir_index *ix);

/** @brief `--header-only` / the header part of `--header`.
 *  Pipes need session__load() first (their features are records). */
int cmd_header(struct session *s, const struct report_opts *o, struct machine *m,
	       FILE *out);

#endif
