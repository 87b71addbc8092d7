#ifndef DIRREPORT_REPORT_STRBUF_H
#define DIRREPORT_REPORT_STRBUF_H
/*
 * strbuf - a growable text buffer with fast appends of formatted numbers.
 *
 * Used by the -D formatter (report/dump.c), whose output is dominated by hex dumps
 * and decimal/hex numbers: those have hand-written appenders here, so that printf is
 * only used where a C format has no cheap equivalent (%f, %4.1f).
 *
 * Invariants:
 *   - len <= alloc; when alloc > 0, buf[len] == '\0' (buf is always a C string).
 *   - A zero-initialised struct strbuf (STRBUF_INIT) is a valid empty buffer.
 *   - Allocation failure is sticky: `failed` becomes true, the failing append and every
 *     later one are dropped, and strbuf__error() returns -ENOMEM. Callers check once,
 *     after a batch of appends, instead of after each one (appends are on hot paths).
 *
 * Unless a doc block says otherwise, every function below: touches only *sb (Thread
 * safety: a strbuf belongs to one thread; there are no globals), returns nothing and
 * reports allocation failure through the sticky flag; Format: none (output helper).
 */
#include <errno.h>	/* ENOMEM */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */
#include <string.h>	/* memcpy, strlen */

struct strbuf {
	char *buf;	/* owned; NULL until the first append */
	size_t len;	/* bytes of text, excluding the terminating NUL */
	size_t alloc;	/* bytes allocated at buf */
	size_t mapped;	/* bytes mapped at buf (util/hugemem.h: the dump's texts are
			 * megabytes), 0: malloc()ed */
	bool failed;	/* an allocation failed; appends are being dropped */
};

#define STRBUF_INIT { NULL, 0, 0, 0, false }

/**
 * @brief Initialise an empty buffer, optionally preallocating.
 * @param sb    the buffer (need not be initialised)
 * @param hint  bytes to preallocate (0: none); a failed preallocation only sets `failed`
 * Ownership: sb owns its memory until strbuf__exit()/strbuf__detach().
 * Thread safety: touches only *sb. Format: none.
 */
void strbuf__init(struct strbuf *sb, size_t hint);

/**
 * @brief Free the text and reset to STRBUF_INIT. Safe on a zeroed or exited buffer.
 * Thread safety: touches only *sb. Format: none.
 */
void strbuf__exit(struct strbuf *sb);

/**
 * @brief Make the buffer empty (len 0) but keep its allocation; clears `failed`.
 * Thread safety: touches only *sb. Format: none.
 */
void strbuf__reset(struct strbuf *sb);

/**
 * @brief Ensure room for `extra` more bytes of text (plus the NUL).
 * @return 0; -ENOMEM (also when the buffer had already failed, or on size overflow).
 * Thread safety: touches only *sb. Format: none.
 */
int strbuf__grow_slow(struct strbuf *sb, size_t extra);

static inline int strbuf__grow(struct strbuf *sb, size_t extra)
{
	/* the hot path: room already there (alloc > len always holds once allocated) */
	if (!sb->failed && extra < sb->alloc - sb->len && sb->alloc)
		return 0;
	return strbuf__grow_slow(sb, extra);
}

/**
 * @brief Reserve `n` bytes at the end for direct writing.
 * @return pointer to n writable bytes at buf + len, or NULL on allocation failure.
 *         The caller writes at most n bytes, then calls strbuf__commit() with the
 *         number actually written.
 * Thread safety: touches only *sb. Format: none.
 */
static inline char *strbuf__reserve(struct strbuf *sb, size_t n)
{
	if (strbuf__grow(sb, n))
		return NULL;
	return sb->buf + sb->len;
}

/**
 * @brief Account for `n` bytes written after strbuf__reserve() and re-terminate.
 * @param n  bytes written, <= the reserved amount
 * Thread safety: touches only *sb. Format: none.
 */
static inline void strbuf__commit(struct strbuf *sb, size_t n)
{
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/**
 * @brief The sticky allocation status.
 * @return 0, or -ENOMEM when some append was dropped since init/reset.
 * Thread safety: pure.
 */
static inline int strbuf__error(const struct strbuf *sb)
{
	return sb->failed ? -ENOMEM : 0;
}

/**
 * @brief Write the buffer's text (len bytes) to @p out.
 * @return 0; -ENOMEM when some append was dropped (nothing written); else, when the
 *         write fails, the negative errno it left (-ENOSPC on a full device; -EIO
 *         when errno has none).
 * Thread safety: reads *sb, writes out. Format: none.
 */
int strbuf__fwrite(const struct strbuf *sb, FILE *out);

/**
 * @brief Hand the text to the caller.
 * @param len  optional: receives the text length in bytes
 * @return the NUL-terminated text (caller frees with free(); a text in huge pages
 *         is copied into malloc()ed memory first), or NULL for an empty
 *         never-allocated buffer or when that copy fails (*len then 0). The strbuf
 *         is left as STRBUF_INIT.
 * Thread safety: touches only *sb. Format: none.
 */
char *strbuf__detach(struct strbuf *sb, size_t *len);

/**
 * @brief Append n raw bytes.
 * Thread safety: touches only *sb. Format: none.
 */
static inline void strbuf__add(struct strbuf *sb, const void *data, size_t n)
{
	if (strbuf__grow(sb, n))
		return;
	__builtin_memcpy(sb->buf + sb->len, data, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

/** Append the C string s (not NULL). */
static inline void strbuf__addstr(struct strbuf *sb, const char *s)
{
	strbuf__add(sb, s, strlen(s));
}

/** Append one character. */
static inline void strbuf__addch(struct strbuf *sb, char c)
{
	if (sb->len + 1 < sb->alloc && !sb->failed) {
		sb->buf[sb->len++] = c;
		sb->buf[sb->len] = '\0';
		return;
	}
	strbuf__add(sb, &c, 1);
}

/** Append `n` copies of character c. */
void strbuf__addchars(struct strbuf *sb, char c, size_t n);

/**
 * @brief Append printf-formatted text (C99 vsnprintf semantics).
 * Thread safety: touches only *sb (vsnprintf may consult the locale). Format: none.
 */
void strbuf__addf(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** Append v in decimal, like printf("%" PRIu64). */
void strbuf__add_u64(struct strbuf *sb, uint64_t v);

/** Append v in decimal, like printf("%" PRId64). */
void strbuf__add_s64(struct strbuf *sb, int64_t v);

/** The two lowercase hex digits of each byte value: byte b's are at 2 * b. */
extern const char strbuf__hex_pairs[513];

/**
 * @brief Whether the x86 SSSE3 forms of the hex formatting run (strbuf__add_hex*(),
 *        strbuf__put_hex16(), strbuf__put_hex_line()): true where the CPU has SSSE3
 *        (asked of the CPU at each call, a bit test) unless strbuf__set_simd()
 *        turned them off; always false on other architectures. Both forms write
 *        the same bytes.
 * Thread safety: reads one flag. Format: none.
 */
bool strbuf__simd(void);

/**
 * @brief Turn the SSSE3 forms off (false), or on again where the CPU has them: for
 *        tests, which run both forms. Not while another thread formats.
 */
void strbuf__set_simd(bool on);

/** Append v in lowercase hex without prefix, like printf("%" PRIx64). */
void strbuf__add_hex(struct strbuf *sb, uint64_t v);

/** Append v like printf("%#" PRIx64): "0" for zero, else "0x" and lowercase hex. */
void strbuf__add_hex_alt(struct strbuf *sb, uint64_t v);

/**
 * @brief Append v in lowercase hex zero-padded to at least `width` digits, like
 *        printf("%0*" PRIx64, width, v).
 * @param width  minimum digits, at most 16 (larger values are treated as 16)
 */
void strbuf__add_hex_pad(struct strbuf *sb, uint64_t v, unsigned width);

/**
 * @brief Write v as exactly 16 lowercase hex digits at o[0..16), like
 *        printf("%016" PRIx64), without a NUL: for callers that write a line in
 *        room taken with strbuf__reserve().
 * Thread safety: touches only o[0..16). Format: none.
 */
void strbuf__put_hex16(char *o, uint64_t v);

/**
 * @brief Write the part of a line of perf's raw dump (`perf report -D`) after its
 *        offset, for k (1..16) bytes at p: " %02x" each, padded to 16, two spaces,
 *        each byte printable (ASCII 0x20..0x7e, perf's test) or '.', padded, '\n'.
 * @param o  room for 67 bytes; no NUL is written
 * @return o + 67
 * Thread safety: touches only o[0..67). Format: perf 6.1's dump_event() hex dump.
 */
char *strbuf__put_hex_line(char *o, const unsigned char *p, size_t k);

/**
 * @brief Append v in decimal right-aligned (width > 0) or left-aligned (width < 0) in
 *        |width| columns, like printf("%*d", width, v).
 */
void strbuf__add_s64_width(struct strbuf *sb, int64_t v, int width);

#endif
