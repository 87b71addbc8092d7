#ifndef DIRREPORT_CONVERT_OUTFILE_H
#define DIRREPORT_CONVERT_OUTFILE_H
/*
 * outfile - the life cycle of dirconvert's output file: written as OUT.tmp beside OUT
 * (created exclusively: a second dirconvert writing the same OUT stops, git's lockfile
 * rule), renamed to OUT when everything succeeded, removed on any error and on SIGINT,
 * SIGTERM, SIGHUP and SIGPIPE (then the signal is raised again).  One output file per
 * process: the temporary name is the front end's only global (the signal handler
 * needs it).
 *
 * Thread safety: the main thread.
 */
#include <stdbool.h>

struct diag;

/**
 * @brief Check OUT (it must not exist unless force), install the signal handlers and
 *        create OUT.tmp (empty).
 * @param out    the output path
 * @param force  OUT may exist (it is replaced at outfile__commit())
 * @param d      on error: OUT or OUT.tmp and what is wrong
 * @return 0; -EEXIST (OUT exists without force, or OUT.tmp exists: another dirconvert
 *         may be writing OUT); -ENAMETOOLONG; -errno of open().
 * Thread safety: see file comment.  Format: none.
 */
int outfile__claim(const char *out, bool force, struct diag *d);

/**
 * @brief outfile__claim() for a data directory: OUT.tmp is created as an empty
 *        directory, in which the caller creates `data` and `data.0` .. `data.N-1`.
 *        On errors and signals those files and the directory are removed; with force
 *        an existing OUT (a file, or a directory holding a `data` file: a recording)
 *        is replaced at outfile__commit().
 * @param nr_data_files  N, the data.N files the caller may create
 * @return as outfile__claim(); -EEXIST also when OUT is a directory that is not a
 *         recording (no `data` in it), even with force.
 * Thread safety: see file comment.  Format: docs/perf-data-format.md §3 (names).
 */
int outfile__claim_dir(const char *out, bool force, unsigned nr_data_files,
		       struct diag *d);

/** @brief The temporary file's path (valid after outfile__claim()). */
const char *outfile__tmp_path(void);

/**
 * @brief Rename OUT.tmp to OUT (the output is complete).  When OUT exists (force) and
 *        either of them is a directory, the two are exchanged atomically
 *        (renameat2 RENAME_EXCHANGE) and the old OUT, now at OUT.tmp, is removed.
 * @return 0; -errno of rename() (d says so; OUT.tmp is still there: outfile__drop()).
 * Thread safety: see file comment.  Format: none.
 */
int outfile__commit(struct diag *d);

/** @brief Remove OUT.tmp unless it was committed (no-op otherwise, or when nothing
 *  was claimed). */
void outfile__drop(void);

#endif
