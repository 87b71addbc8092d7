#ifndef DIRREPORT_UTIL_STRTAB_H
#define DIRREPORT_UTIL_STRTAB_H
/*
 * strtab - a set of interned strings: each distinct text is stored once, so callers
 * compare interned strings by pointer.  Open addressing on the 64-bit FNV-1a hash.
 *
 * Thread safety: a table belongs to one thread (or is only read once built).
 */
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

struct strtab {
	char **v;		/* owned strings, open addressing; NULL = empty slot */
	size_t cap, nr;		/* slots (0 or a power of two), strings */
};

/**
 * @brief 64-bit FNV-1a of a NUL-terminated string (offset basis 14695981039346656037,
 *        prime 1099511628211).
 * Thread safety: pure.  Format: none.
 */
uint64_t str__hash(const char *s);

/**
 * @brief The interned copy of @p s, made on first sight.
 * @return a string owned by the table, valid until strtab__exit(), equal to @p s; NULL
 *         on ENOMEM.
 */
const char *strtab__intern(struct strtab *t, const char *s);

/**
 * @brief As strtab__intern(), taking over the malloc'd @p s: it becomes the table's
 *        copy, or is freed when the text is there already (also on ENOMEM).
 */
const char *strtab__intern_owned(struct strtab *t, char *s);

/** @brief Free every string and the table; a zeroed table is empty (no init needed). */
void strtab__exit(struct strtab *t);

#endif
