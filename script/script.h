#ifndef DIRREPORT_SCRIPT_SCRIPT_H
#define DIRREPORT_SCRIPT_SCRIPT_H
/*
 * script - `dirscript`: a recording's samples as perf 6.1's `perf script` prints them
 * by default (or with -F), or as folded stacks (--folded), flame graphs
 * (--flamegraph, script/flame.h) or a speedscope file (--speedscope,
 * script/speedscope.h).
 *
 * The recording is decoded by the session (reader/session.h) and replayed in perf's
 * delivery order through the machine state (machine/machine.h): side-band records
 * (COMM, FORK, EXIT, MMAP, MMAP2) update it, each sample is resolved against it at
 * its place in the stream and formatted at once (script/format.h).
 *
 * Thread safety: one call at a time per process (it writes to the FILE given).
 */
#include <stdbool.h>
#include <stdio.h>	/* FILE */

struct diag;

struct script_opts {
	const char *input;	/* -i; NULL = perf.data; "-" = standard input */
	unsigned jobs;		/* -j; 0 = online CPUs */
	const char *kallsyms;	/* --kallsyms; NULL = perf's choice */
	const char *buildid_dir; /* --buildid-dir; NULL = $HOME/.debug */
	unsigned fields;	/* -F: SCRIPT_F_* (script/format.h); 0 = perf's
				 * default fields per event type */
	const char *comms;	/* --comms: comma-separated names; NULL = all */
	const char *pids;	/* --pid: comma-separated numbers; NULL = all */
	const char *tids;	/* --tid */
	const char *cpus;	/* -C: perf's cpu list ("0-2,5"); NULL = all */
	const char *dsos;	/* --dsos: comma-separated dso names (short or long);
				 * NULL = all */
	const char *time_str;	/* --time (cli/time-range.h); NULL = all */
	int max_stack;		/* --max-stack (entries); < 0 = perf's 127; any
				 * depth is taken (8192 at most) */
	bool folded;		/* --folded: stackcollapse-perf.pl's output */
	/* --flamegraph: the SVG of the first event with samples goes here, each
	 * further event's to script__flame_path()'s name; NULL = none */
	const char *flamegraph;
	bool inverted;		/* --inverted: icicle graphs */
	double percent_limit;	/* --percent-limit: flame graph frames under this share
				 * of their event's samples (percent) not drawn; 0 = all */
	const char *title;	/* --title; NULL = "Flame Graph" / "Icicle Graph" */
	const char *speedscope;	/* --speedscope: the file; NULL = none */
	bool progress;		/* a progress bar on stderr (cli/progress.h) while the
				 * records are replayed */
	/* called with each warning of the reader (one complete line, e.g. a file cut
	 * inside its last record) before any output; NULL = dropped */
	void (*warn)(void *ctx, const char *line);
	void *warn_ctx;
};

/**
 * @brief Print the recording's samples to @p out.
 * @param o    options (strings borrowed for the call)
 * @param out  where the text goes
 * @param d    filled on error: the input file and offset of damaged input, or a
 *             message for the other errors
 * @return 0; -errno (-ENOENT, -ENOMEM, ...); -EIO when writing @p out fails;
 *         -errno of writing the --flamegraph or --speedscope files (d names the
 *         file; nothing is left of a file not complete);
 *         -DIAG_* of the reader (damaged input); -EINVAL when a field of -F is
 *         not recorded for an event, or -C is given for a recording without cpus
 *         (d->msg says it as perf does); -ENOTSUP for what perf prints by default
 *         but dirscript does not implement (tracepoint payloads, raw events' extra
 *         fields).  On error nothing more is written.
 * Thread safety: see the file comment.
 * Format: perf.data (via the session); perf 6.1's perf script text.
 */
int script__run(const struct script_opts *o, FILE *out, struct diag *d);

/**
 * @brief The file of an event's flame graph after the first: @p out without a
 *        trailing ".svg", '-', the event's name with every byte other than
 *        [A-Za-z0-9._-] made '_', ".svg" ("out.svg" and "cpu-clock:u" give
 *        "out-cpu-clock_u.svg").
 * @param buf, len  where the path goes (NUL-terminated)
 * @return 0, or -ENAMETOOLONG when it does not fit.
 * Thread safety: pure.  Format: none.
 */
int script__flame_path(char *buf, size_t len, const char *out, const char *event);

#endif
