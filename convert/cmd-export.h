#ifndef DIRREPORT_CONVERT_CMD_EXPORT_H
#define DIRREPORT_CONVERT_CMD_EXPORT_H
/*
 * cmd_export - what the database exports of dirconvert have in common: open the
 * recording, replay it in perf's order through the machine state and the exporter
 * (the one row producer), read the kernel's symbols on a worker meanwhile, draw the
 * progress bar, and hand the rows to an export_target: the SQLite file
 * (cmd-sqlite.c) or the PostgreSQL database (cmd-pgsql.c).
 */
#include <stdbool.h>

#include "convert/cmd.h"
#include "convert/export.h"

struct diag;

/** Where the rows of one export go. */
struct export_target {
	/* optional: called once the recording is loaded, before the first row; sets
	 * *d and returns its code on failure */
	int (*open)(void *ctx, unsigned flags, bool threaded, struct diag *d);
	/* one row, in perf's order (export_sink.row); non-zero stops the export */
	int (*row)(void *ctx, const struct export_row *r);
	/* after the last row: make the output final; sets *d on failure */
	int (*commit)(void *ctx, struct diag *d);
	/* the message of a failed row() */
	const char *(*errmsg)(void *ctx);
	/* optional: forget every row written, as if open() had not been called (the
	 * export is made again: its kernel symbols, read from the build-id cache's
	 * copy of the running kernel's kallsyms while that was checked, were not the
	 * running kernel's; machine__check_kernel_symbols()).  Targets without it
	 * read the running kernel's file itself. */
	void (*drop)(void *ctx);
	const char *label;	/* the output as messages name it */
	void *ctx;
	/* the output is made final by commit() alone, and a failed export leaves none
	 * of it (a temporary file): the recording may be loaded without the scan pass
	 * (session_opts.scan_optional), a damaged record then found while delivering */
	bool scan_optional;
};

/**
 * @brief Export the recording of o->input (and o's options) to t.
 * @param d  filled on error: the input file and offset of damaged input, or
 *           t->label with the target's message
 * @return 0; -errno; -DIAG_* of the reader; the target's error.
 * Thread safety: the main thread.
 * Format: perf.data (via the session), perf's database export (export.h).
 */
int cmd_export(const struct convert_opts *o, const struct export_target *t, struct diag *d);

struct cmd_recording;
struct session;
struct machine;

/**
 * @brief Open and load the recording of o->input with a machine for it (build ids
 *        applied); the session's warnings are printed on stderr ("dirconvert:
 *        warning: ...", front-end code).
 * @param out            the recording (caller owns: cmd_recording__close(), also on
 *                       error)
 * @param kernel_worker  read the kernel's symbols on a worker of their own meanwhile
 *                       (not with -j 1); the caller waits for them before it delivers
 *                       (machine__wait_preload())
 * @param ahead          the kernel's symbols may come from the build-id cache's copy
 *                       of the running kernel's kallsyms (dsos_opts.kallsyms_ahead):
 *                       the caller checks them before its output is final
 *                       (cli__kernel_symbols_differ()) and makes it again from a
 *                       recording opened without this where they differ
 * @param scan_optional  the caller's output stays a temporary file until the whole
 *                       delivery succeeded: session_opts.scan_optional (a damaged
 *                       record is then found while delivering:
 *                       session__deliver_error())
 * @param d              on error: the input file (and offset) and what is wrong
 * @return 0; -errno; -DIAG_* of the reader.
 * Thread safety: the main thread.  Format: perf.data (via the session).
 */
int cmd_recording__open(struct cmd_recording **out, const struct convert_opts *o,
			bool kernel_worker, bool ahead, bool scan_optional, struct diag *d);

/** The session and the machine of an open recording (borrowed). */
struct session *cmd_recording__session(struct cmd_recording *r);
struct machine *cmd_recording__machine(struct cmd_recording *r);

/** @brief Close the recording (NULL is a no-op). */
void cmd_recording__close(struct cmd_recording *r);

/** EXPORT_* flags of o. */
unsigned cmd_export_flags(const struct convert_opts *o);

#endif
