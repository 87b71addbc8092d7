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

/*
 * Rules every output follows (util/outpath.h): an output that is the input is refused,
 * with or without force; a link is followed (OUT.tmp goes beside the file it names,
 * which is replaced, the link kept); a device, FIFO or socket is written through with
 * OUTFILE_STREAM (outfile__tmp_path() is then OUT itself, nothing is renamed or
 * removed) and refused without it.
 */
enum outfile_flags {
	OUTFILE_FORCE = 1 << 0,		/* OUT may exist (replaced at outfile__commit()) */
	OUTFILE_STREAM = 1 << 1,	/* a device, FIFO or socket is written through */
	OUTFILE_PRIVATE = 1 << 2,	/* created 0600 (a recording, a database: perf's
					 * mode), else 0666; less what the umask takes */
};

/**
 * @brief Refuse an output that is the input (util/outpath.h: outpath__is_input()).
 * @param input  -i: NULL is perf.data, "-" standard input
 * @return 0; -EINVAL with d saying "is the input".
 * Thread safety: reentrant.  Format: none.
 */
int outfile__check_input(const char *out, const char *input, struct diag *d);

/**
 * @brief Check OUT (it must not exist unless OUTFILE_FORCE, nor be the input), install
 *        the signal handlers and create OUT.tmp (empty), exclusively.
 * @param out    the output path
 * @param input  the input (-i: NULL is perf.data, "-" standard input)
 * @param flags  enum outfile_flags
 * @param d      on error: OUT or OUT.tmp and what is wrong
 * @return 0; -EEXIST (OUT exists without force, or OUT.tmp exists: another dirconvert
 *         may be writing OUT); -EINVAL (OUT is the input, or a device, FIFO or socket
 *         without OUTFILE_STREAM); -EISDIR; -ENAMETOOLONG; -errno of open().
 * Thread safety: see file comment.  Format: none.
 */
int outfile__claim(const char *out, const char *input, unsigned flags, struct diag *d);

/**
 * @brief outfile__claim() for a data directory: OUT.tmp is created as an empty
 *        directory, in which the caller creates `data` and `data.0` .. `data.N-1`.
 *        On errors and signals those files and the directory are removed; with force
 *        an existing OUT (a file, or a directory holding a `data` file: a recording)
 *        is replaced at outfile__commit().
 * @param nr_data_files  N, the data.N files the caller may create
 * @return as outfile__claim() (OUT.tmp is made 0700, as perf makes its directories);
 *         -EEXIST also when OUT is a directory that is not a
 *         recording (no `data` in it), even with force.
 * Thread safety: see file comment.  Format: docs/perf-data-format.md §3 (names).
 */
int outfile__claim_dir(const char *out, const char *input, bool force,
		       unsigned nr_data_files, struct diag *d);

/** @brief Whether the output is written in place (a device, FIFO or socket with
 *         OUTFILE_STREAM): what was written cannot be taken back (valid after
 *         outfile__claim()). */
bool outfile__in_place(void);

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
