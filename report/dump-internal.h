#ifndef DIRREPORT_REPORT_DUMP_INTERNAL_H
#define DIRREPORT_REPORT_DUMP_INTERNAL_H
/*
 * dump-internal - what the parts of the -D formatter share (dump.c: the record's head
 * and the kernel's records; dump-sample.c: SAMPLE; dump-user.c: perf's own records;
 * dump-stats.c: the closing statistics): bounded access to the record being
 * formatted.  Not for use outside report/dump*.c.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/bytes.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/record.h"
#include "report/dump.h"

/* --- bounded record access ------------------------------------------------ */

/* A record being formatted. Fixed fields of non-sample records are read through the
 * views of format/event.h; samples through format/sample.h. The dump_u* helpers below
 * remain for one case, the cpu-map data of CPU_MAP and EVENT_UPDATE (cpu_map_data()):
 * a packed, variable encoding of which perf prints a partial map entry by entry. They
 * never read past n and set trunc when perf would have read beyond the record. */
struct rd {
	const unsigned char *p;	/* borrowed record bytes */
	size_t n;		/* record length in bytes */
	bool trunc;		/* some field lay (partly) beyond n */
};

static inline uint64_t dump_u64(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 8) {
		r->trunc = true;
		return 0;
	}
	return bytes__u64(r->p + off);
}

static inline uint32_t dump_u32(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 4) {
		r->trunc = true;
		return 0;
	}
	return bytes__u32(r->p + off);
}

static inline uint16_t dump_u16(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 2) {
		r->trunc = true;
		return 0;
	}
	return bytes__u16(r->p + off);
}

static inline uint8_t dump_u8(struct rd *r, size_t off)
{
	if (off >= r->n) {
		r->trunc = true;
		return 0;
	}
	return r->p[off];
}

/* True when [ptr, ptr + len) lies inside the record (pointers from struct sample). */
static inline bool span_ok(const struct rd *r, const unsigned char *ptr, size_t len)
{
	uintptr_t lo = (uintptr_t)r->p, hi = lo + r->n, a = (uintptr_t)ptr;

	return ptr && a >= lo && a <= hi && len <= hi - a;
}

/* True when an array of nr elem-byte entries at ptr lies inside the record. */
static inline bool arr_ok(const struct rd *r, const unsigned char *ptr, uint64_t nr, size_t elem)
{
	if (!nr)
		return true;
	return nr <= r->n / elem && span_ok(r, ptr, (size_t)nr * elem);
}

/* Number of elem-sized entries of a count-prefixed array at off that fit. */
static inline uint64_t dump_fit(const struct rd *r, size_t off, size_t elem, uint64_t nr)
{
	uint64_t room = off < r->n ? (r->n - off) / elem : 0;

	return nr < room ? nr : room;
}

/* Close a record's text: when something was missing, make sure we are at the start
 * of a line and add the marker. */
static inline void dump_finish(struct strbuf *sb, const struct rd *r)
{
	if (!r->trunc)
		return;
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		strbuf__addch(sb, '\n');
	strbuf__addstr(sb, DUMP_TRUNCATED_MARK);
}


/* Append a string view. perf prints with %s, so a string runs into the trailer bytes
 * until a NUL; the view stops at the record end and we flag truncation. */
static inline void dump_estr(struct strbuf *sb, struct rd *rd, const struct event_str *s)
{
	if (s->len)
		strbuf__add(sb, s->s, s->len);
	if (!s->nul)
		rd->trunc = true;
}

/* Mark the record truncated when fewer than `need` of a view's fields fit. */
static inline void need_fields(struct rd *rd, unsigned nfields, unsigned need)
{
	if (nfields < need)
		rd->trunc = true;
}

/* Whether the record's event samples @p bit (a PERF_SAMPLE_* bit); false without one. */
static inline bool dump_has(const struct evsel *ev, uint64_t bit)
{
	return ev && (ev->attr.sample_type & bit);
}

/**
 * @brief The fields of a SAMPLE after its summary line (perf's dump_sample()), and
 *        its " ... thread:" / " ...... dso:" lines; @p misc is the record
 *        header's.
 * Thread safety: touches only *sb and *rd.  Format: docs/perf-data-format.md §5, §9.
 */
void dump__fmt_sample(struct strbuf *sb, struct rd *rd, const struct dump_ctx *ctx,
		      const struct dump_rec *r, uint16_t misc);

/**
 * @brief The summary suffix and body of one of perf's own records (types >= 64:
 *        ATTR ... FINISHED_INIT), as perf 6.1's -D prints them.
 * Thread safety: touches only *sb and *rd.  Format: docs/perf-data-format.md §4.4, §9.
 */
void dump__fmt_user(struct strbuf *sb, struct rd *rd, const struct record_header *h);

#endif
