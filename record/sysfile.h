#ifndef DIRREPORT_RECORD_SYSFILE_H
#define DIRREPORT_RECORD_SYSFILE_H
/*
 * sysfile - what the recorder reads of /proc, /sys and tracefs: a file's first line
 * (a number, a cpu list, a name), or a whole file whose size stat() does not tell
 * (tracefs' and procfs' files say 0).
 *
 * Thread safety: reentrant.
 */
#include <stddef.h>

/**
 * @brief The first line of the file named by the printf-style @p fmt, without its
 *        newline, cut to @p len - 1 bytes.
 * @return 0; -ENAMETOOLONG; -errno of fopen(); -ENODATA (an empty file).
 */
int sysfile__line(char *out, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * @brief The whole of @p path, read to its end.
 * @param out  receives the bytes (malloc()ed; the caller frees them)
 * @param len  their count
 * @return 0; -errno of open() or read(); -ENOMEM.
 */
int sysfile__read(const char *path, unsigned char **out, size_t *len);

#endif
