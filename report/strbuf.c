#include "report/strbuf.h"

#include <errno.h>
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* vsnprintf */
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memcpy, memset */

#include "util/hugemem.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define STRBUF_X86 1
#include <tmmintrin.h>	/* SSSE3: _mm_shuffle_epi8 */
#else
#define STRBUF_X86 0
#endif

#include "banned.h"

int strbuf__fwrite(const struct strbuf *sb, FILE *out)
{
	int err = strbuf__error(sb);

	if (!err && sb->len && fwrite(sb->buf, 1, sb->len, out) != sb->len)
		err = errno ? -errno : -EIO;
	return err;
}

void strbuf__init(struct strbuf *sb, size_t hint)
{
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->mapped = 0;
	sb->failed = false;
	if (hint)
		(void)strbuf__grow(sb, hint);
}

void strbuf__exit(struct strbuf *sb)
{
	hugemem__free(sb->buf, sb->mapped);
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->mapped = 0;
	sb->failed = false;
}

void strbuf__reset(struct strbuf *sb)
{
	sb->len = 0;
	if (sb->buf)
		sb->buf[0] = '\0';
	sb->failed = false;
}

int strbuf__grow_slow(struct strbuf *sb, size_t extra)
{
	size_t need;

	if (sb->failed)
		return -ENOMEM;
	/* + 1 for the NUL; overflow-checked because extra may come from input sizes */
	if (__builtin_add_overflow(sb->len, extra, &need) ||
	    __builtin_add_overflow(need, 1, &need))
		goto fail;
	if (need <= sb->alloc)
		return 0;
	/* a first block below the mapped sizes malloc()ed, not zeroed: its pages are
	 * touched where the text is written (a dump's 32 chunk buffers of 64 KiB
	 * zeroed by calloc() took 9 ms of the calling thread: page faults) */
	if (!sb->buf && need < HUGEMEM_GROW_MIN) {
		size_t n = need < 64 ? 64 : need;

		if (!(sb->buf = malloc(n)))
			goto fail;
		sb->alloc = n;
		sb->mapped = 0;
	}
	/* doubling from 64 bytes; mapped from a few hundred KiB on (realloc()
	 * copied each doubling into fresh pages) */
	if (hugemem__grow(&sb->buf, &sb->alloc, &sb->mapped, need, 1, 64))
		goto fail;
	sb->buf[sb->len] = '\0';
	return 0;
fail:
	sb->failed = true;
	return -ENOMEM;
}

char *strbuf__detach(struct strbuf *sb, size_t *len)
{
	char *res = sb->buf;

	/* a mapped text (util/hugemem.h) is copied: the caller frees with free() */
	if (sb->mapped) {
		res = malloc(sb->len + 1);
		if (res)
			memcpy(res, sb->buf, sb->len + 1);
		hugemem__free(sb->buf, sb->mapped);
	}
	if (len)
		*len = res ? sb->len : 0;
	sb->buf = NULL;
	sb->len = 0;
	sb->alloc = 0;
	sb->mapped = 0;
	sb->failed = false;
	return res;
}


void strbuf__addchars(struct strbuf *sb, char c, size_t n)
{
	if (strbuf__grow(sb, n))
		return;
	memset(sb->buf + sb->len, c, n);
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf__addf(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;
	size_t room;
	int n;

	if (strbuf__grow(sb, 64))
		return;
	room = sb->alloc - sb->len;
	va_start(ap, fmt);
	n = vsnprintf(sb->buf + sb->len, room, fmt, ap);
	va_end(ap);
	if (n < 0) {
		sb->buf[sb->len] = '\0';
		return;
	}
	if ((size_t)n >= room) {
		if (strbuf__grow(sb, (size_t)n)) {
			sb->buf[sb->len] = '\0';
			return;
		}
		va_start(ap, fmt);
		n = vsnprintf(sb->buf + sb->len, sb->alloc - sb->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			sb->buf[sb->len] = '\0';
			return;
		}
	}
	sb->len += (size_t)n;
}

/* Decimal digits of v, written backwards ending at end; returns the start. */
static char *utoa(char *end, uint64_t v)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324252627282930313233343536373839"
		"40414243444546474849505152535455565758596061626364656667686970717273747576777879"
		"8081828384858687888990919293949596979899";
	char *p = end;

	while (v >= 100) {
		unsigned i = (unsigned)(v % 100) * 2;

		v /= 100;
		*--p = pairs[i + 1];
		*--p = pairs[i];
	}
	if (v >= 10) {
		unsigned i = (unsigned)v * 2;

		*--p = pairs[i + 1];
		*--p = pairs[i];
	} else {
		*--p = (char)('0' + v);
	}
	return p;
}

/* The decimal digits of v (1 for 0). */
static size_t dec_digits(uint64_t v)
{
	size_t n = 1;

	while (v >= 10000) {
		v /= 10000;
		n += 4;
	}
	return n + (v >= 10) + (v >= 100) + (v >= 1000);
}

/* The hex digits of v (1 for 0). */
static size_t hex_digits(uint64_t v)
{
	return v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1;
}

/*
 * The numbers are written in place, backwards from the end of their digits (counted
 * first): a copy from a buffer of their own was a memcpy() call of a few bytes each,
 * a tenth of `dirreport -D`'s CPU.
 */

/* n bytes appended (their text written by the caller at the returned place), the
 * terminating NUL after them; NULL when the buffer could not grow (sb->failed). */
static char *append_n(struct strbuf *sb, size_t n)
{
	char *p;

	if (strbuf__grow(sb, n))
		return NULL;
	p = sb->buf + sb->len;
	sb->len += n;
	sb->buf[sb->len] = '\0';
	return p;
}

/* v in decimal, with a '-' when neg, right-aligned in w columns (or left-aligned
 * with left), spaces around. */
static void add_dec(struct strbuf *sb, uint64_t v, bool neg, size_t w, bool left)
{
	size_t n = dec_digits(v) + neg, pad = w > n ? w - n : 0;
	char *p = append_n(sb, n + pad);

	if (!p)
		return;
	if (left)
		memset(p + n, ' ', pad);
	else
		memset(p, ' ', pad), p += pad;
	utoa(p + n, v);
	if (neg)
		*p = '-';
}

void strbuf__add_u64(struct strbuf *sb, uint64_t v)
{
	add_dec(sb, v, false, 0, false);
}

void strbuf__add_s64(struct strbuf *sb, int64_t v)
{
	/* negate in unsigned arithmetic so INT64_MIN works */
	add_dec(sb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, 0, false);
}

void strbuf__add_s64_width(struct strbuf *sb, int64_t v, int width)
{
	size_t w = width < 0 ? (size_t)(-(int64_t)width) : (size_t)width;

	add_dec(sb, v < 0 ? 0 - (uint64_t)v : (uint64_t)v, v < 0, w, width < 0);
}

static const char _hexdig[] = "0123456789abcdef";

const char strbuf__hex_pairs[513] =
	"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"
	"202122232425262728292a2b2c2d2e2f303132333435363738393a3b3c3d3e3f"
	"404142434445464748494a4b4c4d4e4f505152535455565758595a5b5c5d5e5f"
	"606162636465666768696a6b6c6d6e6f707172737475767778797a7b7c7d7e7f"
	"808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f"
	"a0a1a2a3a4a5a6a7a8a9aaabacadaeafb0b1b2b3b4b5b6b7b8b9babbbcbdbebf"
	"c0c1c2c3c4c5c6c7c8c9cacbcccdcecfd0d1d2d3d4d5d6d7d8d9dadbdcdddedf"
	"e0e1e2e3e4e5e6e7e8e9eaebecedeeeff0f1f2f3f4f5f6f7f8f9fafbfcfdfeff";

static bool _simd_off;

bool strbuf__simd(void)
{
#if STRBUF_X86
	return !_simd_off && __builtin_cpu_supports("ssse3");
#else
	return false;
#endif
}

void strbuf__set_simd(bool on)
{
	_simd_off = !on;
}

#if STRBUF_X86
#define Z 0x80

/* The hex digits of x's 16 bytes through a table lookup (pshufb): each byte's high
 * nibble's digit in *hi, its low nibble's in *lo. */
__attribute__((target("ssse3")))
static inline void hex_digits_ssse3(__m128i x, __m128i *hi, __m128i *lo)
{
	const __m128i lut = _mm_setr_epi8('0', '1', '2', '3', '4', '5', '6', '7',
					  '8', '9', 'a', 'b', 'c', 'd', 'e', 'f');
	const __m128i m4 = _mm_set1_epi8(0x0f);

	*hi = _mm_shuffle_epi8(lut, _mm_and_si128(_mm_srli_epi16(x, 4), m4));
	*lo = _mm_shuffle_epi8(lut, _mm_and_si128(x, m4));
}

/*
 * The last d (1..16) hex digits of v at o[0..d), in one 16-byte store (o must have
 * 16 bytes of room; those after the digits are left as zeros): the digits of v's
 * bytes interleaved high-low (least significant byte first), then a pshufb puts them
 * in order, most significant first, and drops the 16 - d leading ones: its control
 * is the 16 bytes of _hex_order starting at 16 - d.
 */
static const unsigned char _hex_order[32] = {
	14, 15, 12, 13, 10, 11, 8, 9, 6, 7, 4, 5, 2, 3, 0, 1,
	Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z, Z,
};

__attribute__((target("ssse3")))
static void hex_ssse3(char *o, uint64_t v, size_t d)
{
	__m128i hi, lo, c;

	hex_digits_ssse3(_mm_cvtsi64_si128((long long)v), &hi, &lo);
	c = _mm_unpacklo_epi8(hi, lo);
	c = _mm_shuffle_epi8(c, _mm_loadu_si128((const __m128i *)(_hex_order + 16 - d)));
	_mm_storeu_si128((__m128i *)o, c);
}

/*
 * strbuf__put_hex_line() for a whole line of 16 bytes: the digits interleaved
 * high-low into a (bytes 0-7) and b (bytes 8-15), shuffled into the three 16-byte
 * thirds of " xx" * 16 with the spaces ORed in where the controls take nothing (Z);
 * the printable test as two compares.
 */
__attribute__((target("ssse3")))
static char *hex_line16_ssse3(char *o, const unsigned char *p)
{
	__m128i v = _mm_loadu_si128((const __m128i *)p), hi, lo, a, b, t0, t1, t2, ok, txt;

	hex_digits_ssse3(v, &hi, &lo);
	a = _mm_unpacklo_epi8(hi, lo);
	b = _mm_unpackhi_epi8(hi, lo);
	t0 = _mm_shuffle_epi8(a, _mm_setr_epi8(Z, 0, 1, Z, 2, 3, Z, 4, 5, Z, 6, 7, Z, 8, 9, Z));
	t1 = _mm_or_si128(
		_mm_shuffle_epi8(a, _mm_setr_epi8(10, 11, Z, 12, 13, Z, 14, 15,
						  Z, Z, Z, Z, Z, Z, Z, Z)),
		_mm_shuffle_epi8(b, _mm_setr_epi8(Z, Z, Z, Z, Z, Z, Z, Z,
						  Z, 0, 1, Z, 2, 3, Z, 4)));
	t2 = _mm_shuffle_epi8(b, _mm_setr_epi8(5, Z, 6, 7, Z, 8, 9, Z,
					       10, 11, Z, 12, 13, Z, 14, 15));
	/* printable: 0x20..0x7e, i.e. > 0x1f and < 0x7f as signed bytes */
	ok = _mm_and_si128(_mm_cmpgt_epi8(v, _mm_set1_epi8(0x1f)),
			   _mm_cmplt_epi8(v, _mm_set1_epi8(0x7f)));
	txt = _mm_or_si128(_mm_and_si128(ok, v), _mm_andnot_si128(ok, _mm_set1_epi8('.')));
	_mm_storeu_si128((__m128i *)o, _mm_or_si128(t0, _mm_setr_epi8(
		' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ')));
	_mm_storeu_si128((__m128i *)(o + 16), _mm_or_si128(t1, _mm_setr_epi8(
		0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0)));
	_mm_storeu_si128((__m128i *)(o + 32), _mm_or_si128(t2, _mm_setr_epi8(
		0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0, ' ', 0, 0)));
	memcpy(o + 48, "  ", 2);
	_mm_storeu_si128((__m128i *)(o + 50), txt);
	o[66] = '\n';
	return o + 67;
}
#undef Z
#endif

char *strbuf__put_hex_line(char *o, const unsigned char *p, size_t k)
{
#if STRBUF_X86
	if (k == 16 && strbuf__simd())
		return hex_line16_ssse3(o, p);
#endif
	for (size_t i = 0; i < k; i++) {
		o[0] = ' ';
		memcpy(o + 1, strbuf__hex_pairs + 2 * p[i], 2);
		o += 3;
	}
	memset(o, ' ', (16 - k) * 3 + 2);
	o += (16 - k) * 3 + 2;
	for (size_t i = 0; i < k; i++) {
		unsigned char b = p[i];

		*o++ = (b >= 0x20 && b < 0x7f) ? (char)b : '.';
	}
	memset(o, ' ', 16 - k);
	o += 16 - k;
	*o++ = '\n';
	return o;
}

/* v in hex, at least min_digits (<= 16) digits (zero-padded), "0x" before them with
 * prefix. */
static void add_hex(struct strbuf *sb, uint64_t v, size_t min_digits, bool prefix)
{
	size_t d = hex_digits(v), n;
	char *p;

	if (d < min_digits)
		d = min_digits;
	n = d + 2 * prefix;
	/* 16 bytes of room after the text for the SSSE3 form's store */
	if (strbuf__grow(sb, n + 16))
		return;
	p = sb->buf + sb->len;
	if (prefix) {
		p[0] = '0';
		p[1] = 'x';
	}
#if STRBUF_X86
	if (strbuf__simd()) {
		hex_ssse3(p + 2 * prefix, v, d);
		goto done;
	}
#endif
	/* two digits a byte from the pairs' table, the odd one first */
	for (char *q = p + n; d; v >>= 8) {
		if (d == 1) {
			q[-1] = _hexdig[v & 15];
			break;
		}
		q -= 2;
		memcpy(q, strbuf__hex_pairs + 2 * (v & 0xff), 2);
		d -= 2;
	}
#if STRBUF_X86
done:
#endif
	sb->len += n;
	sb->buf[sb->len] = '\0';
}

void strbuf__put_hex16(char *o, uint64_t v)
{
#if STRBUF_X86
	if (strbuf__simd()) {
		hex_ssse3(o, v, 16);
		return;
	}
#endif
	for (int i = 7; i >= 0; i--, v >>= 8)
		memcpy(o + 2 * i, strbuf__hex_pairs + 2 * (v & 0xff), 2);
}

void strbuf__add_hex(struct strbuf *sb, uint64_t v)
{
	add_hex(sb, v, 1, false);
}

void strbuf__add_hex_alt(struct strbuf *sb, uint64_t v)
{
	add_hex(sb, v, 1, v != 0);
}

void strbuf__add_hex_pad(struct strbuf *sb, uint64_t v, unsigned width)
{
	add_hex(sb, v, width > 16 ? 16 : width, false);
}
