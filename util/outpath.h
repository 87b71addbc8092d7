#ifndef DIRREPORT_UTIL_OUTPATH_H
#define DIRREPORT_UTIL_OUTPATH_H
/*
 * outpath - where an output file may go, and writing one without clobbering.
 *
 * The programs' outputs follow perf's and coreutils' conventions:
 *  - an output that is the input (the same device and inode, through any name or
 *    link; a data file of an input directory) is refused;
 *  - a link is followed: what is replaced is the file it names, the link stays;
 *  - a character or block device, a FIFO or a socket is written through (opened and
 *    written, never replaced), where the output can be a stream;
 *  - a file is written under a temporary name in its directory, created exclusively
 *    (O_EXCL, a name of its own), and renamed over the output once complete, so a
 *    reader never sees half of it and two runs writing one path never mix their
 *    bytes (the last rename wins, whole).
 *
 * Nothing here prints; errors are -errno.
 * Thread safety: reentrant (no state outside the caller's struct).
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <limits.h>	/* PATH_MAX */
#include <sys/types.h>	/* mode_t */

enum outpath_kind {
	OUTPATH_NONE,		/* nothing there (or a dangling link) */
	OUTPATH_REGULAR,	/* a regular file */
	OUTPATH_STREAM,		/* a device, FIFO or socket: written through */
	OUTPATH_DIR,		/* a directory */
};

/**
 * @brief What @p out names, links followed, and the path to replace.
 * @param out     the output as given
 * @param target  out: the path a rename must replace: the link's target where out
 *                is a link to an existing file (its real path), else out
 * @param len     bytes at target
 * @param kind    out: what is there
 * @return 0; -ENAMETOOLONG; -errno of stat() other than ENOENT.
 * Thread safety: reentrant.  Format: none.
 */
int outpath__resolve(const char *out, char *target, size_t len, enum outpath_kind *kind);

/**
 * @brief Whether writing @p out would write over the input @p in: the same file
 *        (device and inode, links followed) or, @p in a directory, the directory
 *        itself or one of its `data*` files.
 * @param in  the input path; NULL or "-": standard input (fd 0)
 * @return true when it would.  Thread safety: reentrant.  Format: none.
 */
bool outpath__is_input(const char *out, const char *in);

/**
 * @brief Create a file of a new name beside @p target exclusively: TARGET.XXXXXX
 *        (O_CREAT | O_EXCL, random letters, tried again where taken).
 * @param mode  its mode before the umask (0600 for recordings, indexes and
 *              databases, as perf's; 0666 for the rest)
 * @param tmp, len  out: its path
 * @return the open descriptor (O_WRONLY, close-on-exec); -ENAMETOOLONG; -errno of
 *         open().  Thread safety: reentrant.  Format: none.
 */
int outpath__create_tmp(const char *target, mode_t mode, char *tmp, size_t len);

/**
 * @brief Write all @p len bytes of @p buf to @p fd (again after EINTR or a short write).
 * @return 0; -errno of write() (-ENOSPC: the disk is full).
 * Thread safety: reentrant.  Format: none.
 */
int outpath__write(int fd, const void *buf, size_t len);

/** An output being written (outpath__open() .. outpath__commit() / __abort()). */
struct outpath_file {
	int fd;				/* open for writing, -1 once closed */
	bool through;			/* a stream written in place: nothing renamed */
	char target[PATH_MAX];		/* what the commit replaces */
	char tmp[PATH_MAX + 16];	/* the temporary file ("" when through) */
};

/**
 * @brief Open @p out for writing as the file comment says: refused when it is the
 *        input @p in (-EINVAL) or a directory (-EISDIR); a stream is opened in
 *        place; anything else gets a temporary file (outpath__create_tmp()).
 * @param f     filled; f->fd is the caller's to write (not to close)
 * @param in    the input (outpath__is_input()), or NULL with @p check_in false
 * @return 0; -EINVAL; -EISDIR; -errno of open() or stat().
 * Thread safety: reentrant.  Format: none.
 */
int outpath__open(struct outpath_file *f, const char *out, const char *in, bool check_in,
		  mode_t mode);

/**
 * @brief Close f's file and rename the temporary file over the target.
 * @return 0; -errno of close() (a write's delayed error: -ENOSPC, -EIO) or rename();
 *         the temporary file is removed on error.
 * Thread safety: reentrant.  Format: none.
 */
int outpath__commit(struct outpath_file *f);

/** @brief Close f's file and remove the temporary file (nothing of a stream). */
void outpath__abort(struct outpath_file *f);

#endif
