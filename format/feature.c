#include "format/feature.h"

#include <ctype.h>	/* isdigit */
#include <errno.h>	/* ENOMEM */
#include <limits.h>	/* INT_MAX */
#include <stdarg.h>	/* va_list */
#include <stddef.h>	/* max_align_t */
#include <stdio.h>	/* asprintf, snprintf, vsnprintf */
#include <stdlib.h>	/* calloc, free, qsort */
#include <string.h>	/* memcpy, memcmp, strnlen, strlen */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/header.h"
#include "banned.h"

/*
 * Memory: every allocation of a struct features is one block of a singly linked list
 * hanging off f->blocks_, so a parser can bail out at any point without cleanup code and
 * features__exit() frees everything in one walk. Parsers build into locals and copy into
 * f only when the whole body was read, so a failed parse leaves f as it was.
 */
struct feat_block {
	struct feat_block *next;
	max_align_t data[];
};

/* Parse state of one feature body. */
struct pctx {
	struct features *f;
	struct cursor c;
	unsigned feat;
	const char *path;
	struct diag *d;
	bool perf_fails;	/* perf 6.1's reader gives up on this body */
};

static const char *feat_name(unsigned feat)
{
	const char *n = feat__name(feat);

	return n ? n : "UNKNOWN";
}

static void *feat_alloc(struct features *f, size_t n)
{
	struct feat_block *b;

	if (n > SIZE_MAX - sizeof(*b))
		return NULL;
	b = calloc(1, sizeof(*b) + n);
	if (!b)
		return NULL;
	b->next = f->blocks_;
	f->blocks_ = b;
	return b->data;
}

static void *alloc_array(struct features *f, size_t nmemb, size_t size)
{
	size_t n;

	if (__builtin_mul_overflow(nmemb, size, &n))
		return NULL;
	return feat_alloc(f, n ? n : 1);
}

void features__init(struct features *f)
{
	memset(f, 0, sizeof(*f));
}

void features__exit(struct features *f)
{
	struct feat_block *b = f->blocks_;

	while (b) {
		struct feat_block *next = b->next;

		free(b);
		b = next;
	}
	memset(f, 0, sizeof(*f));
}

/* ---- reading helpers: each failure becomes one diagnostic naming the feature ---- */

__attribute__((format(printf, 3, 4)))
static int feat_fail(struct pctx *p, uint64_t off, const char *fmt, ...)
{
	char msg[200];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag__set(p->d, p->path, off, -DIAG_BAD_FEATURE, "feature %s: %s",
			 feat_name(p->feat), msg);
}

static int feat_nomem(struct pctx *p)
{
	return diag__set(p->d, p->path, cursor__offset(&p->c), -ENOMEM,
			 "feature %s: out of memory", feat_name(p->feat));
}

static int feat_u32(struct pctx *p, uint32_t *v, const char *what)
{
	if (cursor__u32(&p->c, v))
		return 0;
	return feat_fail(p, cursor__offset(&p->c), "%s truncated (%zu bytes left)", what,
		     cursor__left(&p->c));
}

static int feat_u64(struct pctx *p, uint64_t *v, const char *what)
{
	if (cursor__u64(&p->c, v))
		return 0;
	return feat_fail(p, cursor__offset(&p->c), "%s truncated (%zu bytes left)", what,
		     cursor__left(&p->c));
}

/* A u32 count of elements that each occupy at least min_each bytes. */
static int feat_count(struct pctx *p, uint32_t *n, size_t min_each, const char *what)
{
	uint64_t off = cursor__offset(&p->c);
	int err = feat_u32(p, n, what);

	if (err)
		return err;
	if ((uint64_t)*n * min_each > cursor__left(&p->c))
		return feat_fail(p, off, "%s %u larger than section", what, *n);
	return 0;
}

static int feat_count64(struct pctx *p, uint64_t *n, size_t min_each, const char *what)
{
	uint64_t off = cursor__offset(&p->c);
	int err = feat_u64(p, n, what);

	if (err)
		return err;
	if (*n > cursor__left(&p->c) / min_each)
		return feat_fail(p, off, "%s %llu larger than section", what,
			     (unsigned long long)*n);
	return 0;
}

/* Copy n bytes as a NUL-terminated string cut at the first NUL. */
static char *feat_strndup(struct features *f, const unsigned char *b, size_t n)
{
	size_t len = strnlen((const char *)b, n);
	char *s = feat_alloc(f, len + 1);

	if (s)
		memcpy(s, b, len);
	return s;
}

/* string: u32 len, then len bytes holding a NUL-padded string (docs/perf-data-format.md §2.2). */
static int feat_str(struct pctx *p, char **out, const char *what)
{
	uint64_t off = cursor__offset(&p->c);
	const unsigned char *b;
	uint32_t len = 0;
	int err = feat_u32(p, &len, what);

	if (err)
		return err;
	if (!cursor__bytes(&p->c, len, &b))
		return feat_fail(p, off, "%s length %u larger than section", what, len);
	*out = feat_strndup(p->f, b, len);
	return *out ? 0 : feat_nomem(p);
}

/* string list: u32 nr, then nr strings. */
static int str_list(struct pctx *p, char ***out, uint32_t *nr, const char *what)
{
	char **v;
	int err = feat_count(p, nr, 4, what);

	if (err)
		return err;
	v = alloc_array(p->f, *nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < *nr; i++) {
		err = feat_str(p, &v[i], what);
		if (err)
			return err;
	}
	*out = v;
	return 0;
}

/* The rest of the body as bytes, into *r. */
static int feat_do_raw(struct pctx *p, struct feat_raw *r)
{
	r->size = cursor__left(&p->c);
	r->file_offset = p->c.base;
	r->data = NULL;
	if (!r->size)
		return 0;
	r->data = feat_alloc(p->f, r->size);
	if (!r->data)
		return feat_nomem(p);
	memcpy(r->data, p->c.p, r->size);
	return 0;
}

/* ---- one parser per feature ---- */

/*
 * A string feature cut inside its body: no room for its u32 length, or a length past
 * the body's end. perf 6.1 reads a regular file's feature through the file descriptor,
 * not bounded by the section: it gets the string when the file goes on, and NULL
 * ("(null)" in --header-only) when it hits the end of the file, failing the feature
 * (and, in a regular file, every later one). Read it that way - the string stays NULL -
 * with one warning instead of rejecting the file. (Where the file goes on past the
 * section perf reads bytes of the next one as the string; we keep NULL.)
 */
static int string_cut(struct pctx *p, uint64_t off, const char *what)
{
	char *line = NULL;
	size_t n;

	p->perf_fails = true;
	if (p->f->warning)
		return 0;	/* one warning: the first damage */
	if (asprintf(&line, "%s: offset %#llx: feature %s: %s; read as perf reads it, as "
		     "\"(null)\"", p->path ? p->path : "", (unsigned long long)off,
		     feat_name(p->feat), what) < 0)
		return feat_nomem(p);
	n = strlen(line) + 1;
	p->f->warning = feat_alloc(p->f, n);
	if (p->f->warning)
		memcpy((char *)p->f->warning, line, n);
	free(line);
	return p->f->warning ? 0 : feat_nomem(p);
}

static char **string_field(struct features *f, unsigned feat)
{
	switch (feat) {
	case FEAT_HOSTNAME: return &f->hostname;
	case FEAT_OSRELEASE: return &f->osrelease;
	case FEAT_VERSION: return &f->version;
	case FEAT_ARCH: return &f->arch;
	case FEAT_CPUDESC: return &f->cpudesc;
	default: return &f->cpuid;
	}
}

static int parse_string(struct pctx *p)
{
	uint64_t off = cursor__offset(&p->c);
	char **field = string_field(p->f, p->feat);
	const unsigned char *b;
	uint32_t len;
	char what[64];
	char *s;

	if (!cursor__u32(&p->c, &len)) {
		snprintf(what, sizeof(what), "string truncated (%zu bytes left)",
			 cursor__left(&p->c));
		*field = NULL;
		return string_cut(p, cursor__offset(&p->c), what);
	}
	if (!cursor__bytes(&p->c, len, &b)) {
		snprintf(what, sizeof(what), "string length %u larger than section", len);
		*field = NULL;
		return string_cut(p, off, what);
	}
	s = feat_strndup(p->f, b, len);
	if (!s)
		return feat_nomem(p);
	*field = s;
	return 0;
}

static int parse_tracing_data(struct pctx *p)
{
	struct feat_raw r;
	int err = feat_do_raw(p, &r);

	if (!err)
		p->f->tracing_data = r;
	return err;
}

/* One BUILD_ID entry header; returns its size in bytes or a negative error. */
static int build_id_entry(struct pctx *p, size_t pos, size_t hdr, struct feat_build_id *out)
{
	const unsigned char *b = p->c.p + pos;
	size_t left = p->c.len - pos;
	uint16_t misc, size;

	if (left < 8)
		return feat_fail(p, p->c.base + pos, "entry header truncated (%zu bytes left)",
			     left);
	misc = bytes__u16x(b + 4, p->c.swap);
	size = bytes__u16x(b + 6, p->c.swap);
	if (size < hdr)
		return feat_fail(p, p->c.base + pos + 6, "entry size %u smaller than %zu",
			     size, hdr);
	if (size > left)
		return feat_fail(p, p->c.base + pos + 6, "entry size %u larger than section",
			     size);
	if (out) {
		out->misc = misc;
		if (hdr == 36) {
			out->pid = (int32_t)bytes__u32x(b + 8, p->c.swap);
			memcpy(out->build_id, b + 12, 20);
			out->size = 20;
			if ((misc & 0x8000) && b[32] < 20)
				out->size = b[32];
		} else {
			/* Pre-guest layout (no pid): perf assumes the host, or the
			 * default guest for guest cpumodes. */
			out->pid = ((misc & 7) == 4 || (misc & 7) == 5) ? 0 : -1;
			memcpy(out->build_id, b + 8, 20);
			out->size = 20;
		}
		out->filename = feat_strndup(p->f, b + hdr, size - hdr);
		if (!out->filename)
			return feat_nomem(p);
	}
	return size;
}

static int parse_build_id(struct pctx *p)
{
	struct feat_build_id *v = NULL;
	struct feat_raw r;
	size_t hdr = 36, n = 0, pos;
	int sz;
	int err = feat_do_raw(p, &r);

	if (err)
		return err;
	/* Files of perf before the guest support (2010) have no pid; perf recognises them
	 * by the kernel's "[kernel.kallsyms]" name appearing 4 bytes too late. */
	if (p->c.len >= 36 + 13 && memcmp(p->c.p + 36, "nel.kallsyms]", 13) == 0)
		hdr = 32;
	for (pos = 0; pos < p->c.len; pos += (size_t)sz, n++) {
		sz = build_id_entry(p, pos, hdr, NULL);
		if (sz < 0)
			return sz;
	}
	if (n) {
		v = alloc_array(p->f, n, sizeof(*v));
		if (!v)
			return feat_nomem(p);
	}
	n = 0;
	for (pos = 0; pos < p->c.len; pos += (size_t)sz, n++) {
		sz = build_id_entry(p, pos, hdr, &v[n]);
		if (sz < 0)
			return sz;
	}
	p->f->build_id_raw = r;
	p->f->build_ids = v;
	p->f->nr_build_ids = n;
	return 0;
}

static int parse_nrcpus(struct pctx *p)
{
	uint32_t avail = 0, online = 0;
	int err = feat_u32(p, &avail, "nr_cpus_avail");

	if (!err)
		err = feat_u32(p, &online, "nr_cpus_online");
	if (err)
		return err;
	p->f->nr_cpus_avail = avail;
	p->f->nr_cpus_online = online;
	return 0;
}

static int parse_total_mem(struct pctx *p)
{
	return feat_u64(p, &p->f->total_mem_kb, "total memory");
}

static int parse_cmdline(struct pctx *p)
{
	char **argv = NULL;
	uint32_t nr = 0;
	int err = str_list(p, &argv, &nr, "nr args");

	if (err)
		return err;
	p->f->cmdline = argv;
	p->f->nr_cmdline = nr;
	return 0;
}

/*
 * perf 6.1 refuses attrs with reserved bits or sample_type/read_format/branch bits newer
 * than its UAPI (PERF_SAMPLE_MAX 1 << 25, PERF_FORMAT_MAX 1 << 5, PERF_SAMPLE_BRANCH_MAX
 * 1 << 19); raw is the stored attr, n = min(attr_sz, 128) bytes of it.
 */
static bool attr_perf_rejects(const struct event_attr *a, const unsigned char *raw,
			       size_t n)
{
	if (a->flags >> 38)
		return true;
	if ((n >= 112 && bytes__u16(raw + 110)) || (n >= 120 && bytes__u32(raw + 116)))
		return true;
	if (a->sample_type >> 25 || a->read_format >> 5)
		return true;
	return (a->sample_type & SAMPLE_BRANCH_STACK) && a->branch_sample_type >> 19;
}

/*
 * perf 6.1's perf_event__attr_swap() on the host-order copy of a byte-swapped attr:
 * type and size always, other fields only inside attr.size, the flag word bit-reversed
 * per byte, and clockid, sample_regs_intr and sig_data never (they stay byte-swapped).
 */
static void attr_perf61_swap(unsigned char *a)
{
	static const struct { unsigned char off, width; } fields[] = {
		{ 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 48, 4 }, { 52, 4 }, { 56, 8 },
		{ 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 }, { 104, 4 }, { 108, 2 },
		{ 112, 4 },
	};
	uint32_t size = __builtin_bswap32(bytes__u32(a + 4));

	bytes__put_u32(a, __builtin_bswap32(bytes__u32(a)));
	bytes__put_u32(a + 4, size);
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned char *f = a + fields[i].off;

		if (size <= fields[i].off)
			continue;
		if (fields[i].width == 8)
			bytes__put_u64(f, __builtin_bswap64(bytes__u64(f)));
		else if (fields[i].width == 4)
			bytes__put_u32(f, __builtin_bswap32(bytes__u32(f)));
		else
			bytes__put_u16(f, __builtin_bswap16(bytes__u16(f)));
	}
	if (size > 40)
		for (int i = 40; i < 48; i++) {
			unsigned v = a[i], r = 0;

			for (int k = 0; k < 8; k++)
				r |= ((v >> k) & 1u) << (7 - k);
			a[i] = (unsigned char)r;
		}
}

static int event_desc_one(struct pctx *p, uint32_t attr_sz, uint32_t i,
			   struct feat_event *ev, bool *rejected)
{
	uint64_t off = cursor__offset(&p->c), ids_off;
	unsigned char tmp[ATTR_SIZE_VER7], cp[ATTR_SIZE_VER8];
	const unsigned char *b;
	uint32_t n = attr_sz < ATTR_SIZE_VER7 ? attr_sz : ATTR_SIZE_VER7, own;
	int err;

	if (!cursor__bytes(&p->c, attr_sz, &b))
		return feat_fail(p, off, "event %u attr truncated", i);
	ev->attr_size_raw = bytes__u32x(b + 4, p->c.swap);
	/* The attr itself: the fields inside its own size (kept within the section). */
	own = ev->attr_size_raw ? ev->attr_size_raw : ATTR_SIZE_VER0;
	own = own < ATTR_SIZE_VER0 ? ATTR_SIZE_VER0 : own > attr_sz ? attr_sz : own;
	own = own > ATTR_SIZE_VER8 ? ATTR_SIZE_VER8 : own;
	memcpy(cp, b, own);
	bytes__put_u32(cp + 4, p->c.swap ? __builtin_bswap32(own) : own);
	if (attr__decode(&ev->attr, cp, own, p->c.swap))
		return feat_fail(p, off, "event %u: bad attr", i);
	ev->attr.size = ev->attr_size_raw ? ev->attr_size_raw : ATTR_SIZE_VER0;
	/*
	 * What perf 6.1 prints: it copies min(attr_sz, 128) bytes whatever attr.size says
	 * and swaps them its own way.
	 */
	memset(tmp, 0, sizeof(tmp));
	memcpy(tmp, b, n);
	if (p->c.swap)
		attr_perf61_swap(tmp);
	bytes__put_u32(tmp + 4, ATTR_SIZE_VER7);
	attr__decode(&ev->attr_perf61, tmp, ATTR_SIZE_VER7, false);
	ev->attr_perf61.size = ev->attr_size_raw;
	if (attr_perf_rejects(&ev->attr_perf61, b, n))
		*rejected = true;
	ids_off = cursor__offset(&p->c);
	err = feat_u32(p, &ev->nr_ids, "nr_ids");
	if (!err)
		err = feat_str(p, &ev->name, "event name");
	if (err)
		return err;
	if ((uint64_t)ev->nr_ids * 8 > cursor__left(&p->c))
		return feat_fail(p, ids_off, "nr_ids %u larger than section", ev->nr_ids);
	ev->ids = alloc_array(p->f, ev->nr_ids, sizeof(*ev->ids));
	if (!ev->ids)
		return feat_nomem(p);
	for (uint32_t j = 0; j < ev->nr_ids; j++)
		cursor__u64(&p->c, &ev->ids[j]);	/* cannot fail: checked above */
	return 0;
}

static int parse_event_desc(struct pctx *p)
{
	struct feat_event *v;
	uint64_t off = cursor__offset(&p->c);
	uint32_t nr = 0, attr_sz = 0;
	bool rejected = false;
	int err = feat_u32(p, &nr, "nr events");

	if (!err)
		err = feat_u32(p, &attr_sz, "attr size");
	if (err)
		return err;
	if (attr_sz < ATTR_SIZE_VER0 || attr_sz > ATTR_SIZE_MAX)
		return feat_fail(p, off + 4, "attr size %u out of range", attr_sz);
	/* each event: attr, u32 nr_ids, u32 name length at least */
	if ((uint64_t)nr * (attr_sz + 8) > cursor__left(&p->c))
		return feat_fail(p, off, "nr events %u larger than section", nr);
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr; i++) {
		err = event_desc_one(p, attr_sz, i, &v[i], &rejected);
		if (err)
			return err;
	}
	p->f->events = v;
	p->f->nr_events = nr;
	p->f->events_rejected = rejected;
	return 0;
}

static int cpu_topo_cpus(struct pctx *p, struct feat_cpu_topology *t, uint32_t nr_cpus)
{
	uint64_t off = cursor__offset(&p->c);

	if ((uint64_t)nr_cpus * 8 > cursor__left(&p->c))
		return feat_fail(p, off, "core/socket ids of %u cpus larger than section",
			     nr_cpus);
	t->cpus = alloc_array(p->f, nr_cpus, sizeof(*t->cpus));
	if (!t->cpus)
		return feat_nomem(p);
	t->nr_cpus = nr_cpus;
	t->has_cpus = true;
	for (uint32_t i = 0; i < nr_cpus; i++) {
		struct feat_cpu *c = &t->cpus[i];

		cursor__u32(&p->c, &c->core_id);
		off = cursor__offset(&p->c);
		cursor__u32(&p->c, &c->socket_id);
		/* perf 6.1 gives up on socket ids above the cpu count and drops the
		 * per-cpu part */
		if (c->socket_id != UINT32_MAX && c->socket_id > nr_cpus) {
			p->perf_fails = true;
			t->cpus = NULL;
			t->nr_cpus = 0;
			t->has_cpus = false;
			return 0;
		}
	}
	return 0;
}

static int parse_cpu_topology(struct pctx *p)
{
	struct feat_cpu_topology t = { 0 };
	uint32_t nr_cpus = p->f->nr_cpus_avail;
	uint64_t off;
	int err;

	err = str_list(p, &t.package_cpus, &t.nr_package_cpus, "nr package cpu lists");
	if (!err)
		err = str_list(p, &t.core_cpus, &t.nr_core_cpus, "nr core cpu lists");
	if (err)
		return err;
	/* The per-cpu ids and the die part are optional: older perf stops earlier. */
	if (cursor__left(&p->c)) {
		err = cpu_topo_cpus(p, &t, nr_cpus);
		if (err)
			return err;
	}
	if (cursor__left(&p->c) && !p->perf_fails) {
		err = str_list(p, &t.die_cpus, &t.nr_die_cpus, "nr die cpu lists");
		if (err)
			return err;
		t.has_dies = true;
		off = cursor__offset(&p->c);
		if ((uint64_t)nr_cpus * 4 > cursor__left(&p->c))
			return feat_fail(p, off, "die ids of %u cpus larger than section",
				     nr_cpus);
		for (uint32_t i = 0; i < nr_cpus; i++)
			cursor__u32(&p->c, &t.cpus[i].die_id);
	}
	p->f->cpu_topo = t;
	return 0;
}

struct cpu_range {
	unsigned long lo, hi;
};

static int cpu_range_cmp(const void *a, const void *b)
{
	const struct cpu_range *x = a, *y = b;

	return x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* Print the sorted, disjoint ranges r[0..n) merging neighbours: "0-3,5". */
static char *cpu_ranges_str(struct features *f, const struct cpu_range *r, size_t n)
{
	size_t cap = n * 24 + 1, len = 0;
	char *out = feat_alloc(f, cap);

	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++) {
		unsigned long lo = r[i].lo;
		const char *sep = i ? "," : "";

		while (i + 1 < n && r[i + 1].lo == r[i].hi + 1)
			i++;
		if (lo == r[i].hi)
			len += (size_t)snprintf(out + len, cap - len, "%s%lu", sep, lo);
		else
			len += (size_t)snprintf(out + len, cap - len, "%s%lu-%lu", sep, lo,
						r[i].hi);
	}
	return out;
}

/*
 * A cpu list as libperf's perf_cpu_map__new() reads it (strtoul base 0, "a-b" ranges
 * separated by ',', a cpu listed twice is an error, parsing stops quietly at a
 * non-digit after a ',') and as cpu_map__snprint() prints it (sorted, consecutive cpus
 * merged; the empty list is the dummy map "-1"). *out = NULL when perf rejects s.
 * Works on ranges, so "0-2000000000" costs nothing.
 */
static int cpu_list_norm(struct features *f, const char *s, char **out)
{
	size_t n = 0, cap = strlen(s) / 2 + 1;
	struct cpu_range *r;
	const char *p = s;
	char *end;

	*out = NULL;
	if (!*s) {
		*out = feat_strndup(f, (const unsigned char *)"-1", 2);
		return *out ? 0 : -ENOMEM;
	}
	if (!isdigit((unsigned char)*s))
		return 0;
	r = malloc(cap * sizeof(*r));
	if (!r)
		return -ENOMEM;
	while (isdigit((unsigned char)*p) && n < cap) {
		unsigned long lo = strtoul(p, &end, 0), hi = lo;

		if (lo >= INT_MAX || (*end && *end != ',' && *end != '-'))
			goto out;
		if (*end == '-') {
			hi = strtoul(end + 1, &end, 0);
			if (hi >= INT_MAX || (*end && *end != ',') || hi < lo)
				goto out;
		}
		r[n++] = (struct cpu_range){ lo, hi };
		p = *end ? end + 1 : end;
	}
	qsort(r, n, sizeof(*r), cpu_range_cmp);
	for (size_t i = 1; i < n; i++)
		if (r[i].lo <= r[i - 1].hi)
			goto out;	/* a cpu listed twice */
	*out = cpu_ranges_str(f, r, n);
	if (!*out) {
		free(r);
		return -ENOMEM;
	}
out:
	free(r);
	return 0;
}

static int parse_numa_topology(struct pctx *p)
{
	struct feat_numa_node *v;
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 24, "nr nodes");

	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = feat_u32(p, &v[i].node, "node");
		if (!err)
			err = feat_u64(p, &v[i].mem_total_kb, "mem_total");
		if (!err)
			err = feat_u64(p, &v[i].mem_free_kb, "mem_free");
		if (!err)
			err = feat_str(p, &v[i].cpus, "cpu list");
		if (!err && cpu_list_norm(p->f, v[i].cpus, &v[i].cpus_norm))
			return feat_nomem(p);
		if (!err && !v[i].cpus_norm)
			p->perf_fails = true;	/* perf rejects the list */
	}
	if (err)
		return err;
	p->f->numa_nodes = v;
	p->f->nr_numa_nodes = nr;
	return 0;
}

static int parse_flag(struct pctx *p)
{
	(void)p;	/* BRANCH_STACK, STAT: the bit is the information */
	return 0;
}

static int parse_pmu_mappings(struct pctx *p)
{
	struct feat_pmu_mapping *v;
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 8, "nr pmus");

	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = feat_u32(p, &v[i].type, "pmu type");
		if (!err)
			err = feat_str(p, &v[i].name, "pmu name");
	}
	if (err)
		return err;
	p->f->pmu_mappings = v;
	p->f->nr_pmu_mappings = nr;
	return 0;
}

static int parse_group_desc(struct pctx *p)
{
	struct feat_group *v;
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 12, "nr groups");

	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = feat_str(p, &v[i].name, "group name");
		if (!err)
			err = feat_u32(p, &v[i].leader_idx, "leader_idx");
		if (!err)
			err = feat_u32(p, &v[i].nr_members, "nr_members");
	}
	if (err)
		return err;
	p->f->groups = v;
	p->f->nr_groups = nr;
	if (nr) {
		struct feat_group_state *g = calloc(p->f->nr_events ? p->f->nr_events : 1,
						    sizeof(*g));

		/* perf checks the groups against its evlist (EVENT_DESC has the same
		 * events in the same order); without memory we only skip the check */
		if (g && !features__group_rebuild(p->f, g, p->f->nr_events))
			p->perf_fails = true;
		free(g);
	}
	return 0;
}

bool features__group_rebuild(const struct features *f, struct feat_group_state *out,
			     size_t nr_evsels)
{
	uint32_t gi = 0, nr = 0, leader = 0;

	for (size_t e = 0; e < nr_evsels; e++)
		out[e] = (struct feat_group_state){ (uint32_t)e, 0, NULL };
	for (size_t e = 0; e < nr_evsels; e++) {
		if (gi < f->nr_groups && e == f->groups[gi].leader_idx) {
			const struct feat_group *d = &f->groups[gi];

			out[e].name = strcmp(d->name, "{anon_group}") ? d->name : NULL;
			out[e].nr_members = d->nr_members;
			if (nr > 0)
				return false;	/* a leader inside the previous group */
			leader = (uint32_t)e;
			nr = d->nr_members - 1;	/* wraps for 0 members, as in perf */
			gi++;
		} else if (nr) {
			out[e].leader = leader;
			nr--;
		}
	}
	return gi == f->nr_groups && nr == 0;
}

static int parse_auxtrace(struct pctx *p)
{
	struct feat_auxtrace_entry *v;
	uint64_t nr = 0;
	int err = feat_count64(p, &nr, 16, "nr index entries");

	if (err)
		return err;
	v = alloc_array(p->f, (size_t)nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint64_t i = 0; i < nr; i++) {
		cursor__u64(&p->c, &v[i].file_offset);
		cursor__u64(&p->c, &v[i].size);
	}
	p->f->auxtrace = v;
	p->f->nr_auxtrace = nr;
	return 0;
}

static int cache_one(struct pctx *p, struct feat_cache *c)
{
	int err = feat_u32(p, &c->level, "cache level");

	if (!err)
		err = feat_u32(p, &c->line_size, "cache line_size");
	if (!err)
		err = feat_u32(p, &c->sets, "cache sets");
	if (!err)
		err = feat_u32(p, &c->ways, "cache ways");
	if (!err)
		err = feat_str(p, &c->type, "cache type");
	if (!err)
		err = feat_str(p, &c->size, "cache size");
	if (!err)
		err = feat_str(p, &c->map, "cache cpu map");
	return err;
}

static int parse_cache(struct pctx *p)
{
	struct feat_cache *v = NULL;
	uint32_t version = 0, nr = 0;
	int err = feat_u32(p, &version, "version");

	if (err)
		return err;
	/* perf 6.1 gives up on other versions and prints no entry */
	p->perf_fails = version != 1;
	if (version == 1) {
		err = feat_count(p, &nr, 28, "nr caches");
		if (err)
			return err;
		v = alloc_array(p->f, nr, sizeof(*v));
		if (!v)
			return feat_nomem(p);
		for (uint32_t i = 0; i < nr; i++) {
			err = cache_one(p, &v[i]);
			if (err)
				return err;
		}
	}
	p->f->cache_version = version;
	p->f->caches = v;
	p->f->nr_caches = nr;
	return 0;
}

static int parse_sample_time(struct pctx *p)
{
	uint64_t first = 0, last = 0;
	int err = feat_u64(p, &first, "first sample time");

	if (!err)
		err = feat_u64(p, &last, "last sample time");
	if (err)
		return err;
	p->f->first_sample_ns = first;
	p->f->last_sample_ns = last;
	return 0;
}

static int mem_node(struct pctx *p, struct feat_mem_node *n)
{
	uint64_t off, words;
	int err = feat_u64(p, &n->node, "node");

	if (!err)
		err = feat_u64(p, &n->size, "node size");
	off = cursor__offset(&p->c);
	if (!err)
		err = feat_u64(p, &n->nbits, "bitmap size");
	if (err)
		return err;
	words = n->nbits / 64 + (n->nbits % 64 != 0);
	if (words > cursor__left(&p->c) / 8)
		return feat_fail(p, off, "bitmap of %llu bits larger than section",
			     (unsigned long long)n->nbits);
	n->bits = alloc_array(p->f, (size_t)words, 8);
	if (!n->bits)
		return feat_nomem(p);
	for (uint64_t i = 0; i < words; i++)
		cursor__u64(&p->c, &n->bits[i]);
	return 0;
}

static int parse_mem_topology(struct pctx *p)
{
	struct feat_mem_node *v = NULL;
	uint64_t version = 0, bsize = 0, nr = 0;
	int err = feat_u64(p, &version, "version");

	if (err)
		return err;
	/* perf 6.1 gives up on other versions and prints an empty list */
	p->perf_fails = version != 1;
	if (version == 1) {
		err = feat_u64(p, &bsize, "block size");
		if (!err)
			err = feat_count64(p, &nr, 24, "nr nodes");
		if (err)
			return err;
		v = alloc_array(p->f, (size_t)nr, sizeof(*v));
		if (!v)
			return feat_nomem(p);
		for (uint64_t i = 0; i < nr; i++) {
			err = mem_node(p, &v[i]);
			if (err)
				return err;
		}
	}
	p->f->mem_version = version;
	p->f->mem_block_size = bsize;
	p->f->mem_nodes = v;
	p->f->nr_mem_nodes = nr;
	return 0;
}

static int parse_clockid(struct pctx *p)
{
	return feat_u64(p, &p->f->clockid_res_ns, "clock resolution");
}

static int parse_dir_format(struct pctx *p)
{
	return feat_u64(p, &p->f->dir_version, "version");
}

static uint32_t bpf_prog_id(const struct feat_bpf_prog *b)
{
	return bytes__u32(b->info + 4);	/* bpf_prog_info.id */
}

struct id_pos {
	uint32_t id;
	uint32_t pos;	/* position in the body */
};

static int id_pos_cmp(const void *a, const void *b)
{
	const struct id_pos *x = a, *y = b;

	if (x->id != y->id)
		return x->id < y->id ? -1 : 1;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

/*
 * perf keeps BPF programs and BTFs in trees keyed by id and drops a repeated id: sort
 * ids[0..nr) ascending, keep the first of each id, and return in order[] the positions
 * to keep. Returns how many were kept, or -1 without memory.
 */
static long unique_ids(struct features *f, const uint32_t *ids, uint32_t nr,
			uint32_t **order)
{
	struct id_pos *v = calloc(nr ? nr : 1, sizeof(*v));
	uint32_t n = 0;

	*order = alloc_array(f, nr, sizeof(**order));
	if (!v || !*order) {
		free(v);
		return -1;
	}
	for (uint32_t i = 0; i < nr; i++)
		v[i] = (struct id_pos){ ids[i], i };
	qsort(v, nr, sizeof(*v), id_pos_cmp);
	for (uint32_t i = 0; i < nr; i++)
		if (!i || v[i].id != v[i - 1].id)
			(*order)[n++] = v[i].pos;
	free(v);
	return n;
}

static int bpf_prog_one(struct pctx *p, struct feat_bpf_prog *b, uint32_t i)
{
	uint64_t off = cursor__offset(&p->c);
	const unsigned char *info, *data;
	int err = feat_u32(p, &b->info_len, "info_len");

	if (!err)
		err = feat_u32(p, &b->data_len, "data_len");
	if (!err)
		err = feat_u64(p, &b->arrays, "arrays");
	if (err)
		return err;
	if (b->info_len > FEAT_BPF_INFO_MAX) {
		p->perf_fails = true;	/* "detected invalid bpf_prog_info" */
		return 0;
	}
	if (!cursor__bytes(&p->c, b->info_len, &info))
		return feat_fail(p, off, "program %u: info_len %u larger than section", i,
			     b->info_len);
	if (!cursor__bytes(&p->c, b->data_len, &data))
		return feat_fail(p, off + 4, "program %u: data_len %u larger than section",
			     i, b->data_len);
	b->info = feat_alloc(p->f, FEAT_BPF_INFO_MAX + (size_t)b->data_len);
	if (!b->info)
		return feat_nomem(p);
	b->data = b->info + FEAT_BPF_INFO_MAX;
	memcpy(b->info, info, b->info_len);
	memcpy(b->data, data, b->data_len);
	return 0;
}

static int parse_bpf_prog_info(struct pctx *p)
{
	struct feat_bpf_prog *v, *out;
	uint32_t nr = 0, *ids, *order;
	long n;
	int err;

	if (p->c.swap)
		return 0;	/* perf 6.1 does not interpret other-endian bpf info */
	err = feat_count(p, &nr, 16, "nr programs");
	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	ids = alloc_array(p->f, nr, sizeof(*ids));
	if (!v || !ids)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr; i++) {
		err = bpf_prog_one(p, &v[i], i);
		if (err)
			return err;
		if (p->perf_fails) {
			nr = i;		/* perf keeps the programs read so far */
			break;
		}
		ids[i] = bpf_prog_id(&v[i]);
	}
	n = unique_ids(p->f, ids, nr, &order);
	out = alloc_array(p->f, nr, sizeof(*out));
	if (n < 0 || !out)
		return feat_nomem(p);
	for (long i = 0; i < n; i++)
		out[i] = v[order[i]];
	p->f->bpf_progs = out;
	p->f->nr_bpf_progs = (uint32_t)n;
	return 0;
}

static int parse_bpf_btf(struct pctx *p)
{
	struct feat_btf *v, *out;
	const unsigned char *b;
	uint32_t nr = 0, *ids, *order;
	uint64_t off;
	long n;
	int err;

	if (p->c.swap)
		return 0;	/* as perf 6.1 */
	err = feat_count(p, &nr, 8, "nr btf");
	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	ids = alloc_array(p->f, nr, sizeof(*ids));
	if (!v || !ids)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr; i++) {
		err = feat_u32(p, &v[i].id, "btf id");
		off = cursor__offset(&p->c);
		if (!err)
			err = feat_u32(p, &v[i].size, "btf size");
		if (err)
			return err;
		if (!cursor__bytes(&p->c, v[i].size, &b))
			return feat_fail(p, off, "btf %u size %u larger than section", v[i].id,
				     v[i].size);
		v[i].data = feat_alloc(p->f, v[i].size ? v[i].size : 1);
		if (!v[i].data)
			return feat_nomem(p);
		memcpy(v[i].data, b, v[i].size);
		ids[i] = v[i].id;
	}
	n = unique_ids(p->f, ids, nr, &order);
	out = alloc_array(p->f, nr, sizeof(*out));
	if (n < 0 || !out)
		return feat_nomem(p);
	for (long i = 0; i < n; i++)
		out[i] = v[order[i]];
	p->f->btfs = out;
	p->f->nr_btfs = (uint32_t)n;
	return 0;
}

static int parse_compressed(struct pctx *p)
{
	struct feat_compressed c = { 0 };
	int err = feat_u32(p, &c.version, "version");

	if (!err)
		err = feat_u32(p, &c.type, "type");
	if (!err)
		err = feat_u32(p, &c.level, "level");
	if (!err)
		err = feat_u32(p, &c.ratio, "ratio");
	if (!err)
		err = feat_u32(p, &c.mmap_len, "mmap_len");
	if (err)
		return err;
	p->f->comp = c;
	return 0;
}

/* u32 nr, then nr {string name, string value}, kept as "name=value". */
static int feat_do_pmu_caps(struct pctx *p, struct feat_pmu_caps *pc)
{
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 8, "nr capabilities");

	if (err)
		return err;
	pc->caps = alloc_array(p->f, nr, sizeof(*pc->caps));
	if (!pc->caps)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr; i++) {
		char *name = NULL, *value = NULL;
		size_t ln, lv;

		err = feat_str(p, &name, "capability name");
		if (!err)
			err = feat_str(p, &value, "capability value");
		if (err)
			return err;
		ln = strlen(name);
		lv = strlen(value);
		pc->caps[i] = feat_alloc(p->f, ln + lv + 2);
		if (!pc->caps[i])
			return feat_nomem(p);
		memcpy(pc->caps[i], name, ln);
		pc->caps[i][ln] = '=';
		memcpy(pc->caps[i] + ln + 1, value, lv);
	}
	pc->nr_caps = nr;
	return 0;
}

static int parse_cpu_pmu_caps(struct pctx *p)
{
	struct feat_pmu_caps pc = { .pmu_name = (char *)"cpu" };
	int err = feat_do_pmu_caps(p, &pc);

	if (err)
		return err;
	p->f->cpu_pmu_caps = pc;
	return 0;
}

static int parse_clock_data(struct pctx *p)
{
	struct feat_clock_data c = { 0 };
	int err = feat_u32(p, &c.version, "version");

	if (err)
		return err;
	if (c.version == 1) {
		err = feat_u32(p, &c.clockid, "clockid");
		if (!err)
			err = feat_u64(p, &c.tod_ns, "tod reference");
		if (!err)
			err = feat_u64(p, &c.clockid_ns, "clockid reference");
		if (err)
			return err;
		c.enabled = true;
	} else {
		p->perf_fails = true;	/* perf prints "reference time disabled" */
	}
	p->f->clock = c;
	return 0;
}

static int parse_hybrid_topology(struct pctx *p)
{
	struct feat_hybrid_node *v;
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 8, "nr nodes");

	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = feat_str(p, &v[i].pmu_name, "pmu name");
		if (!err)
			err = feat_str(p, &v[i].cpus, "cpu list");
	}
	if (err)
		return err;
	p->f->hybrid_nodes = v;
	p->f->nr_hybrid_nodes = nr;
	return 0;
}

static int parse_pmu_caps(struct pctx *p)
{
	struct feat_pmu_caps *v;
	uint32_t nr = 0;
	int err = feat_count(p, &nr, 8, "nr pmus");

	if (err)
		return err;
	v = alloc_array(p->f, nr, sizeof(*v));
	if (!v)
		return feat_nomem(p);
	for (uint32_t i = 0; i < nr && !err; i++) {
		err = feat_do_pmu_caps(p, &v[i]);
		if (!err)
			err = feat_str(p, &v[i].pmu_name, "pmu name");
	}
	if (err)
		return err;
	p->f->pmu_caps = v;
	p->f->nr_pmu_caps = nr;
	return 0;
}

typedef int (*feat_parse_fn)(struct pctx *p);

static const feat_parse_fn parsers[] = {
	[FEAT_TRACING_DATA] = parse_tracing_data,
	[FEAT_BUILD_ID] = parse_build_id,
	[FEAT_HOSTNAME] = parse_string,
	[FEAT_OSRELEASE] = parse_string,
	[FEAT_VERSION] = parse_string,
	[FEAT_ARCH] = parse_string,
	[FEAT_NRCPUS] = parse_nrcpus,
	[FEAT_CPUDESC] = parse_string,
	[FEAT_CPUID] = parse_string,
	[FEAT_TOTAL_MEM] = parse_total_mem,
	[FEAT_CMDLINE] = parse_cmdline,
	[FEAT_EVENT_DESC] = parse_event_desc,
	[FEAT_CPU_TOPOLOGY] = parse_cpu_topology,
	[FEAT_NUMA_TOPOLOGY] = parse_numa_topology,
	[FEAT_BRANCH_STACK] = parse_flag,
	[FEAT_PMU_MAPPINGS] = parse_pmu_mappings,
	[FEAT_GROUP_DESC] = parse_group_desc,
	[FEAT_AUXTRACE] = parse_auxtrace,
	[FEAT_STAT] = parse_flag,
	[FEAT_CACHE] = parse_cache,
	[FEAT_SAMPLE_TIME] = parse_sample_time,
	[FEAT_MEM_TOPOLOGY] = parse_mem_topology,
	[FEAT_CLOCKID] = parse_clockid,
	[FEAT_DIR_FORMAT] = parse_dir_format,
	[FEAT_BPF_PROG_INFO] = parse_bpf_prog_info,
	[FEAT_BPF_BTF] = parse_bpf_btf,
	[FEAT_COMPRESSED] = parse_compressed,
	[FEAT_CPU_PMU_CAPS] = parse_cpu_pmu_caps,
	[FEAT_CLOCK_DATA] = parse_clock_data,
	[FEAT_HYBRID_TOPOLOGY] = parse_hybrid_topology,
	[FEAT_PMU_CAPS] = parse_pmu_caps,
};

int features__parse(struct features *f, unsigned feat_id, const void *body, size_t size,
		    bool swap, uint64_t file_offset, const char *path, struct diag *d)
{
	struct pctx p = { .f = f, .feat = feat_id, .path = path, .d = d };
	int err = 0;

	if (feat_id >= FEAT_BITS)
		return diag__set(d, path, file_offset, -DIAG_BAD_FEATURE,
				 "feature id %u out of range", feat_id);
	if (!body && size)
		return diag__set(d, path, file_offset, -DIAG_BAD_FEATURE,
				 "feature %s: no body", feat_name(feat_id));
	cursor__init(&p.c, body, size, file_offset, swap);
	if (feat_id < sizeof(parsers) / sizeof(parsers[0]) && parsers[feat_id])
		err = parsers[feat_id](&p);
	if (err)
		return err;
	f->present[feat_id / 64] |= 1ULL << (feat_id % 64);
	if (p.perf_fails)
		f->perf_failed[feat_id / 64] |= 1ULL << (feat_id % 64);
	else
		f->perf_failed[feat_id / 64] &= ~(1ULL << (feat_id % 64));
	return 0;
}

bool features__perf_processed(const struct features *f, unsigned feat, bool is_dir)
{
	for (unsigned i = 1; i < feat && i < FEAT_BITS; i++) {
		if (!features__has(f, i))
			continue;
		if (features__perf_failed(f, i) || (i == FEAT_DIR_FORMAT && !is_dir))
			return false;
	}
	return true;
}

const struct feat_event *features__event_by_id(const struct features *f, uint64_t id)
{
	for (uint32_t i = 0; i < f->nr_events; i++)
		for (uint32_t j = 0; j < f->events[i].nr_ids; j++)
			if (f->events[i].ids[j] == id)
				return &f->events[i];
	return NULL;
}
