#ifndef DIRREPORT_FORMAT_BYTES_H
#define DIRREPORT_FORMAT_BYTES_H
/*
 * bytes - unaligned loads/stores and byte swapping.
 *
 * perf.data has no alignment guarantee (COMPRESSED and HEADER_FEATURE records have odd
 * sizes, feature bodies are packed), so every multi-byte field is read with memcpy.
 * Format: perf.data is written in the byte order of the recording machine; a file whose
 * magic reads byte-swapped is swapped field by field (docs/perf-data-format.md §12).
 * Thread safety: pure functions.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>	/* memcpy */

static inline uint16_t bytes__u16(const void *p)
{
	uint16_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint32_t bytes__u32(const void *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline uint64_t bytes__u64(const void *p)
{
	uint64_t v;
	memcpy(&v, p, sizeof(v));
	return v;
}

static inline void bytes__put_u16(void *p, uint16_t v) { memcpy(p, &v, sizeof(v)); }
static inline void bytes__put_u32(void *p, uint32_t v) { memcpy(p, &v, sizeof(v)); }
static inline void bytes__put_u64(void *p, uint64_t v) { memcpy(p, &v, sizeof(v)); }

/** Load with optional byte swap (swap = file written in the other byte order). */
static inline uint16_t bytes__u16x(const void *p, bool swap)
{
	uint16_t v = bytes__u16(p);
	return swap ? __builtin_bswap16(v) : v;
}

static inline uint32_t bytes__u32x(const void *p, bool swap)
{
	uint32_t v = bytes__u32(p);
	return swap ? __builtin_bswap32(v) : v;
}

static inline uint64_t bytes__u64x(const void *p, bool swap)
{
	uint64_t v = bytes__u64(p);
	return swap ? __builtin_bswap64(v) : v;
}

/** Swap n consecutive u64 values in place (unaligned-safe). */
static inline void bytes__swap_u64s(void *p, size_t n)
{
	unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		bytes__put_u64(b + 8 * i, __builtin_bswap64(bytes__u64(b + 8 * i)));
}

/** Swap n consecutive u32 values in place (unaligned-safe). */
static inline void bytes__swap_u32s(void *p, size_t n)
{
	unsigned char *b = p;
	for (size_t i = 0; i < n; i++)
		bytes__put_u32(b + 4 * i, __builtin_bswap32(bytes__u32(b + 4 * i)));
}

/**
 * cursor - a bounds-checked reader over a byte range.
 * Invariants: pos <= len. Every get either succeeds entirely or returns false and
 * leaves pos unchanged; callers turn false into a diagnostic with the failing offset
 * (base + pos).
 */
struct cursor {
	const unsigned char *p;	/* borrowed */
	size_t len;		/* bytes available at p */
	size_t pos;		/* bytes consumed */
	uint64_t base;		/* file offset of p[0], for diagnostics */
	bool swap;		/* values are in the other byte order */
};

static inline void cursor__init(struct cursor *c, const void *p, size_t len, uint64_t base,
				bool swap)
{
	c->p = p;
	c->len = len;
	c->pos = 0;
	c->base = base;
	c->swap = swap;
}

static inline size_t cursor__left(const struct cursor *c) { return c->len - c->pos; }
static inline uint64_t cursor__offset(const struct cursor *c) { return c->base + c->pos; }

static inline bool cursor__u32(struct cursor *c, uint32_t *v)
{
	if (cursor__left(c) < 4)
		return false;
	*v = bytes__u32x(c->p + c->pos, c->swap);
	c->pos += 4;
	return true;
}

static inline bool cursor__u64(struct cursor *c, uint64_t *v)
{
	if (cursor__left(c) < 8)
		return false;
	*v = bytes__u64x(c->p + c->pos, c->swap);
	c->pos += 8;
	return true;
}

/** Borrow n bytes at the cursor and advance. */
static inline bool cursor__bytes(struct cursor *c, size_t n, const unsigned char **out)
{
	if (cursor__left(c) < n)
		return false;
	*out = c->p + c->pos;
	c->pos += n;
	return true;
}

/** Borrow the NUL-terminated string at the cursor (*s) and advance past its NUL;
 *  false (pos unchanged) when no NUL lies within the range. */
static inline bool cursor__str(struct cursor *c, const char **s)
{
	const unsigned char *nul = memchr(c->p + c->pos, 0, cursor__left(c));

	if (!nul)
		return false;
	*s = (const char *)c->p + c->pos;
	c->pos = (size_t)(nul - c->p) + 1;
	return true;
}

/** true: this machine stores numbers big-endian (a cursor's swap for data written in
 *  a known byte order is then `big != bytes__host_big()`). */
static inline bool bytes__host_big(void)
{
	const uint16_t one = 1;
	unsigned char b;

	memcpy(&b, &one, 1);
	return b == 0;
}

static inline bool cursor__skip(struct cursor *c, size_t n)
{
	const unsigned char *unused;
	return cursor__bytes(c, n, &unused);
}

#endif
