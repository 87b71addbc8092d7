/* Unit tests of record/: the ring-buffer reader against a kernel writer simulated here
 * (records published at data_head, space given back through data_tail), and the
 * snapshot keeper against a model of what -M keeps. */
#include <check.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>	/* CLOCK_* */
#include <unistd.h>	/* getpid, readlink */

#include "format/diag.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "reader/session.h"
#include "format/event.h"
#include "format/record.h"
#include "record/dsos.h"
#include "record/events.h"
#include "record/features.h"
#include "record/ring.h"
#include "record/snapshot.h"
#include "record/synth.h"
#include "record/target.h"
#include "record/threads.h"
#include "banned.h"

enum { PAGE = 4096 };

/* A mapping as the kernel makes it: the control page, then the data area. */
struct kring {
	unsigned char *base;
	struct perf_event_mmap_page *pc;
	unsigned char *data;
	uint64_t size;
	unsigned straddled;	/* records written across the area's end */
};

static void kring_new(struct kring *k, uint64_t size, uint64_t start)
{
	k->base = calloc(1, PAGE + size);
	ck_assert_ptr_nonnull(k->base);
	k->pc = (void *)k->base;
	k->data = k->base + PAGE;
	k->size = size;
	k->pc->data_head = k->pc->data_tail = start;
	k->pc->data_offset = PAGE;
	k->pc->data_size = size;
	k->straddled = 0;
}

/* The kernel's side: the record at data_head if the reader left room, then published. */
static bool kring_write(struct kring *k, const unsigned char *rec, size_t n)
{
	uint64_t head = k->pc->data_head;
	uint64_t tail = __atomic_load_n(&k->pc->data_tail, __ATOMIC_ACQUIRE);

	if (k->size - (head - tail) < n)
		return false;
	if ((head & (k->size - 1)) + n > k->size)
		k->straddled++;
	for (size_t i = 0; i < n; i++)
		k->data[(head + i) & (k->size - 1)] = rec[i];
	__atomic_store_n(&k->pc->data_head, head + n, __ATOMIC_RELEASE);
	return true;
}

/* Record k: type k, size n, payload bytes that depend on k and their place. */
static void make_rec(unsigned char *buf, uint32_t k, uint16_t n)
{
	struct perf_event_header h = { .type = k, .misc = 0, .size = n };

	memcpy(buf, &h, sizeof(h));
	for (size_t i = sizeof(h); i < n; i++)
		buf[i] = (unsigned char)(k * 31 + i);
}

static uint16_t rec_size(uint32_t k)
{
	return (uint16_t)(8 + (k * 37 % 75) * 8);	/* 8 .. 600 bytes */
}

/* What a reader was handed: records checked against make_rec's, in order. */
struct got {
	uint32_t next;		/* the record expected next */
	unsigned bad;
	uint32_t stop_at;	/* return 7 after handing this one (UINT32_MAX: never) */
};

static int check_rec(void *ctx, const void *rec, size_t size)
{
	struct got *g = ctx;
	unsigned char want[65536];
	uint32_t k = g->next++;

	make_rec(want, k, rec_size(k));
	if (size != rec_size(k) || memcmp(rec, want, size))
		g->bad++;
	return k == g->stop_at ? 7 : 0;
}

/* Many times the area's size through it, records wrapping around its end, from several
 * starting positions (one just below 2^64: positions are taken modulo the area). */
START_TEST(test_ring_reads_in_order)
{
	static const uint64_t starts[] = { 0, 12345 * 8, UINT64_MAX - 4999 };

	for (size_t si = 0; si < sizeof(starts) / sizeof(starts[0]); si++) {
		struct kring k;
		struct ring r;
		struct got g = { .stop_at = UINT32_MAX };
		uint32_t written = 0;
		unsigned char rec[65536];
		struct diag d = { 0 };

		kring_new(&k, 4096, starts[si] & ~(uint64_t)7);
		ck_assert_int_eq(ring__init(&r, k.base, PAGE, k.size, "cpu 0"), 0);
		while (written < 3000) {
			uint64_t bytes, want = 0;

			for (;;) {
				make_rec(rec, written, rec_size(written));
				if (!kring_write(&k, rec, rec_size(written)))
					break;
				want += rec_size(written++);
			}
			ck_assert_int_eq(ring__read(&r, check_rec, &g, &bytes, &d), 0);
			ck_assert_uint_eq(bytes, want);
			ck_assert_uint_eq(g.next, written);
			ck_assert(k.pc->data_tail == k.pc->data_head);
		}
		ck_assert_uint_eq(g.bad, 0);
		ck_assert_uint_gt(k.straddled, 50);
		/* nothing published: nothing handed */
		ck_assert_int_eq(ring__read(&r, check_rec, &g, NULL, &d), 0);
		ck_assert_uint_eq(g.next, written);
		ring__exit(&r);
		free(k.base);
	}
}
END_TEST

/* A non-zero value of the callback stops the read after that record; the next read goes
 * on with the one after it. */
START_TEST(test_ring_callback_stops)
{
	struct kring k;
	struct ring r;
	struct got g = { .stop_at = 2 };
	unsigned char rec[65536];
	uint64_t bytes, pos0;

	kring_new(&k, 8192, 64);
	pos0 = k.pc->data_head;
	for (uint32_t i = 0; i < 6; i++) {
		make_rec(rec, i, rec_size(i));
		ck_assert(kring_write(&k, rec, rec_size(i)));
	}
	ck_assert_int_eq(ring__init(&r, k.base, PAGE, k.size, "cpu 1"), 0);
	ck_assert_int_eq(ring__read(&r, check_rec, &g, &bytes, NULL), 7);
	ck_assert_uint_eq(g.next, 3);
	ck_assert_uint_eq(bytes, rec_size(0) + rec_size(1) + rec_size(2));
	ck_assert(k.pc->data_tail == pos0 + bytes);
	g.stop_at = UINT32_MAX;
	ck_assert_int_eq(ring__read(&r, check_rec, &g, &bytes, NULL), 0);
	ck_assert_uint_eq(g.next, 6);
	ck_assert(k.pc->data_tail == k.pc->data_head);
	ck_assert_uint_eq(g.bad, 0);
	ring__exit(&r);
	free(k.base);
}
END_TEST

/* A damaged ring: a record of size 0 or past the head stops the read there (the records
 * before it are handed, the tail stays before it) with one error naming the ring and the
 * position; a head more than the area ahead of the tail, or behind it, is refused. */
START_TEST(test_ring_damaged)
{
	static const uint16_t bad_sizes[] = { 0, 4, 4000 };

	for (size_t b = 0; b < sizeof(bad_sizes) / sizeof(bad_sizes[0]); b++) {
		struct kring k;
		struct ring r;
		struct got g = { .stop_at = UINT32_MAX };
		unsigned char rec[65536];
		struct perf_event_header h = { .type = 9, .size = bad_sizes[b] };
		struct diag d = { 0 };
		uint64_t bad_at;

		kring_new(&k, 4096, 0);
		for (uint32_t i = 0; i < 3; i++) {
			make_rec(rec, i, rec_size(i));
			ck_assert(kring_write(&k, rec, rec_size(i)));
		}
		bad_at = k.pc->data_head;
		memset(rec, 0, 64);
		memcpy(rec, &h, sizeof(h));
		ck_assert(kring_write(&k, rec, 64));
		ck_assert_int_eq(ring__init(&r, k.base, PAGE, k.size, "cpu 2"), 0);
		ck_assert_int_eq(ring__read(&r, check_rec, &g, NULL, &d), -DIAG_RECORD_SIZE);
		ck_assert_uint_eq(g.next, 3);
		ck_assert_uint_eq(g.bad, 0);
		ck_assert(k.pc->data_tail == bad_at);
		ck_assert_str_eq(d.path, "cpu 2");
		ck_assert_uint_eq(d.offset, bad_at);
		ring__exit(&r);
		free(k.base);
	}
	{
		struct kring k;
		struct ring r;
		struct got g = { .stop_at = UINT32_MAX };
		struct diag d = { 0 };

		kring_new(&k, 4096, 4096);
		ck_assert_int_eq(ring__init(&r, k.base, PAGE, k.size, "cpu 3"), 0);
		k.pc->data_head = 4096 + 4096 + 8;
		ck_assert_int_eq(ring__read(&r, check_rec, &g, NULL, &d), -DIAG_BAD_RECORD);
		k.pc->data_head = 4096 - 8;
		ck_assert_int_eq(ring__read(&r, check_rec, &g, NULL, &d), -DIAG_BAD_RECORD);
		ck_assert_uint_eq(g.next, 0);
		ck_assert(k.pc->data_tail == 4096);
		ring__exit(&r);
		free(k.base);
	}
}
END_TEST

START_TEST(test_ring_init_errors)
{
	struct ring r;
	unsigned char page[PAGE + 64];

	ck_assert_int_eq(ring__init(&r, page, PAGE, 48, "x"), -EINVAL);
	ck_assert_int_eq(ring__init(&r, page, PAGE, 4, "x"), -EINVAL);
	ck_assert_int_eq(ring__init(&r, NULL, PAGE, 64, "x"), -EINVAL);
	ring__exit(&r);
}
END_TEST

/* --- snapshot ------------------------------------------------------------------ */

static uint16_t snap_size(uint32_t k, uint32_t seed)
{
	uint32_t x = (k + 1) * 2654435761u ^ seed;

	return (uint16_t)(8 + (x >> 7) % 200);	/* 8 .. 207 bytes, not multiples of 8 */
}

struct drained {
	uint32_t k[4096];
	size_t n, bytes;
	size_t stop_after;	/* return 5 once this many were handed (0: never) */
	unsigned bad;
	uint32_t seed;
};

static int collect_snap(void *ctx, const void *rec, size_t size)
{
	struct drained *dr = ctx;
	struct perf_event_header h;
	unsigned char want[65536];

	memcpy(&h, rec, sizeof(h));
	make_rec(want, h.type, snap_size(h.type, dr->seed));
	if (size != h.size || size != snap_size(h.type, dr->seed) || memcmp(rec, want, size))
		dr->bad++;
	dr->k[dr->n++] = h.type;
	dr->bytes += size;
	return dr->stop_after && dr->n == dr->stop_after ? 5 : 0;
}

/* The model: of the records from..to-1 not larger than cap (the others are never
 * kept), the longest run of the newest whose sizes add up to at most cap, oldest first,
 * into want; returns how many. */
static size_t model_kept(uint32_t from, uint32_t to, size_t cap, uint32_t seed,
			 uint32_t *want)
{
	size_t sum = 0, n = 0;
	uint32_t first = to;

	for (uint32_t k = to; k-- > from;) {
		if (snap_size(k, seed) > cap)
			continue;
		if (sum + snap_size(k, seed) > cap)
			break;
		sum += snap_size(k, seed);
		first = k;
	}
	for (uint32_t k = first; k < to; k++)
		if (snap_size(k, seed) <= cap)
			want[n++] = k;
	return n;
}

/* After any number of records, a drain hands exactly the model's records, oldest first,
 * whole (the circle wraps inside records and headers); then the snapshot is empty and
 * keeps what comes next (repeated drains append). Several sizes of snapshot: one that
 * keeps only 8-byte records, ones that keep a few and many. */
START_TEST(test_snapshot_keeps_newest)
{
	static const size_t caps[] = { 8, 200, 1000, 4093 };

	for (size_t c = 0; c < sizeof(caps) / sizeof(caps[0]); c++) {
		struct snapshot s;
		struct drained *dr = calloc(1, sizeof(*dr));
		unsigned char rec[65536];
		uint32_t k = 0;

		ck_assert_ptr_nonnull(dr);
		dr->seed = (uint32_t)c * 7919u;
		ck_assert_int_eq(snapshot__init(&s, caps[c]), 0);
		for (uint32_t round = 0; round < 6; round++) {
			uint32_t from = k, to = k + 37 + round * 53, want[4096];
			uint64_t dropped_before = s.dropped_records;
			size_t n;

			for (; k < to; k++) {
				make_rec(rec, k, snap_size(k, dr->seed));
				ck_assert_int_eq(snapshot__add(&s, rec, snap_size(k, dr->seed)), 0);
			}
			n = model_kept(from, to, caps[c], dr->seed, want);
			dr->n = dr->bytes = 0;
			ck_assert_int_eq(snapshot__drain(&s, collect_snap, dr), 0);
			ck_assert_uint_eq(dr->n, n);
			for (size_t i = 0; i < n; i++)
				ck_assert_uint_eq(dr->k[i], want[i]);
			ck_assert_uint_le(dr->bytes, caps[c]);
			ck_assert_uint_eq(s.dropped_records - dropped_before, (to - from) - dr->n);
			ck_assert_uint_eq(s.len, 0);
			ck_assert_uint_eq(s.nr, 0);
		}
		ck_assert_uint_eq(dr->bad, 0);
		snapshot__exit(&s);
		free(dr);
	}
}
END_TEST

/* A drain stopped by its callback keeps the records not yet handed for the next one. */
START_TEST(test_snapshot_drain_stops)
{
	struct snapshot s;
	struct drained *dr = calloc(1, sizeof(*dr));
	unsigned char rec[65536];

	ck_assert_ptr_nonnull(dr);
	ck_assert_int_eq(snapshot__init(&s, 5000), 0);
	for (uint32_t k = 0; k < 10; k++) {
		make_rec(rec, k, snap_size(k, 0));
		ck_assert_int_eq(snapshot__add(&s, rec, snap_size(k, 0)), 0);
	}
	dr->stop_after = 4;
	ck_assert_int_eq(snapshot__drain(&s, collect_snap, dr), 5);
	ck_assert_uint_eq(s.nr, 6);
	dr->stop_after = 0;
	ck_assert_int_eq(snapshot__drain(&s, collect_snap, dr), 0);
	ck_assert_uint_eq(dr->n, 10);
	for (uint32_t i = 0; i < 10; i++)
		ck_assert_uint_eq(dr->k[i], i);
	ck_assert_uint_eq(dr->bad, 0);
	ck_assert_uint_eq(s.dropped_records, 0);
	snapshot__exit(&s);
	free(dr);
}
END_TEST

/* Records that cannot be kept: one larger than the snapshot is counted and let go (the
 * older ones stay); a size that is not the header's, or below a header, is refused. */
START_TEST(test_snapshot_errors)
{
	struct snapshot s;
	struct drained *dr = calloc(1, sizeof(*dr));
	unsigned char rec[65536];

	ck_assert_ptr_nonnull(dr);
	ck_assert_int_eq(snapshot__init(&s, 4), -EINVAL);
	snapshot__exit(&s);
	ck_assert_int_eq(snapshot__init(&s, 300), 0);
	make_rec(rec, 0, snap_size(0, 0));
	ck_assert_int_eq(snapshot__add(&s, rec, snap_size(0, 0)), 0);
	make_rec(rec, 1, 400);
	ck_assert_int_eq(snapshot__add(&s, rec, 400), 0);
	ck_assert_uint_eq(s.dropped_records, 1);
	ck_assert_uint_eq(s.dropped_bytes, 400);
	ck_assert_int_eq(snapshot__add(&s, rec, 399), -EINVAL);
	ck_assert_int_eq(snapshot__add(&s, rec, 4), -EINVAL);
	ck_assert_int_eq(snapshot__drain(&s, collect_snap, dr), 0);
	ck_assert_uint_eq(dr->n, 1);
	ck_assert_uint_eq(dr->k[0], 0);
	ck_assert_uint_eq(dr->bad, 0);
	snapshot__exit(&s);
	snapshot__exit(&s);
	free(dr);
}
END_TEST

/* --- events ------------------------------------------------------------------ */

/* Recordings perf record 6.1 made (samples/record.sh) and the options they were made
 * with: our attrs for the same options must be perf's, field by field, and our names
 * and groups (leaders, members, group names) those perf reads from the recording. */
static const struct attr_case {
	const char *sample, *events;
	struct record_opts o;
} attr_cases[] = {
	{ "plain.data", "cpu-clock", { .freq = 2000 } },
	{ "threads.data", "cpu-clock", { .freq = 2000 } },
	{ "threads-z.data", "cpu-clock", { .freq = 2000, .buildid_mmap = true } },
	{ "callchain.data", "cpu-clock", { .freq = 1000, .callchain = true } },
	{ "pipe.data", "cpu-clock", { .freq = 2000, .buildid_mmap = true, .pipe = true } },
	{ "threads-core-zg.data", "cpu-clock",
	  { .freq = 1000, .callchain = true, .buildid_mmap = true } },
	{ "threads-package.data", "cpu-clock", { .freq = 1000 } },
	{ "threads-numa.data", "cpu-clock", { .freq = 1000 } },
	{ "threads-user.data", "cpu-clock", { .freq = 1000 } },
	{ "two-events.data", "cpu-clock,task-clock", { .freq = 1000 } },
	{ "group.data", "{cpu-clock,task-clock}", { .freq = 1000 } },
	{ "group-pf.data", "{cpu-clock,page-faults}", { .freq = 1000 } },
	{ "group-mixed.data",
	  "page-faults,{cpu-clock,task-clock},grp{minor-faults,context-switches}",
	  { .freq = 1000 } },
	{ "group-g.data", "{cpu-clock,page-faults}", { .freq = 1000, .callchain = true } },
	{ "group-empty.data", "{major-faults,cpu-clock},{cpu-clock,major-faults,task-clock}",
	  { .freq = 1000 } },
	{ "pipe-g.data", "cpu-clock",
	  { .freq = 1000, .callchain = true, .buildid_mmap = true, .pipe = true } },
	{ "group-pipe.data", "{cpu-clock,page-faults}",
	  { .freq = 1000, .buildid_mmap = true, .pipe = true } },
	{ "mem-pf.data", "page-faults",
	  { .period = 20, .data_addr = true, .phys_data = true, .data_page_size = true } },
	{ "mem-pf-g.data", "page-faults", { .period = 50, .callchain = true, .data_addr = true } },
	{ "tcd.data", "cpu-clock",
	  { .freq = 1000, .timestamp = true, .sample_cpu = true, .data_addr = true } },
	{ "weight.data", "cpu-clock", { .freq = 1000, .weight = true } },
	{ "cgroup.data", "cpu-clock", { .freq = 1000, .all_cgroups = true, .namespaces = true } },
	{ "pagesize.data", "cpu-clock", { .freq = 1000, .code_page_size = true } },
	{ "srcline-g.data", "cpu-clock", { .freq = 4000, .callchain = true } },
	{ "per-thread.data", "cpu-clock", { .freq = 1000, .per_thread = true } },
	{ "dwarf.data", "cpu-clock", { .freq = 300, .dwarf_size = 4096 } },
	{ "dwarf-threads.data", "cpu-clock", { .freq = 300, .dwarf_size = 4096 } },
	{ "dwarf-z.data", "cpu-clock", { .freq = 300, .dwarf_size = 4096, .buildid_mmap = true } },
	{ "dwarf-perl.data", "cpu-clock",
	  { .freq = 1000, .dwarf_size = 4096, .buildid_mmap = true } },
	{ "dwarf-python.data", "cpu-clock",
	  { .freq = 1000, .dwarf_size = 4096, .buildid_mmap = true } },
};

#define ATTR_EQ(f) ck_assert_msg(got->f == want->f, "%s event %zu: " #f " %#llx, perf %#llx", \
				 c->sample, i, (unsigned long long)got->f, \
				 (unsigned long long)want->f)

START_TEST(test_events_as_perf_record)
{
	const struct attr_case *c = &attr_cases[_i];
	struct record_event *ev = NULL;
	size_t nr = 0;
	char err[256] = "", path[256];
	struct session_opts so = { .path = path, .jobs = 1 };
	struct session *s;
	struct diag d;
	struct evlist *el;

	ck_assert_msg(record_events__parse(c->events, &ev, &nr, err, sizeof(err)) == 0, "%s",
		      err);
	ck_assert_int_eq(record_events__config(ev, nr, &c->o), 0);
	snprintf(path, sizeof(path), "samples/%s", c->sample);
	ck_assert_msg(session__open(&s, &so, &d) == 0, "%s: %s", path, d.msg);
	/* a pipe's attrs come in its stream */
	ck_assert_msg(session__load(s, &d) == 0, "%s: %s", path, d.msg);
	el = session__evlist(s);
	ck_assert_uint_eq(el->nr, nr);
	for (size_t i = 0; i < nr; i++) {
		const struct event_attr *got = &ev[i].attr, *want = &el->evsels[i]->attr;

		ATTR_EQ(type);
		ATTR_EQ(size);
		ATTR_EQ(config);
		ATTR_EQ(sample_period);
		ATTR_EQ(sample_type);
		ATTR_EQ(read_format);
		ATTR_EQ(flags);
		ATTR_EQ(wakeup_events);
		ATTR_EQ(bp_type);
		ATTR_EQ(config1);
		ATTR_EQ(config2);
		ATTR_EQ(branch_sample_type);
		ATTR_EQ(sample_regs_user);
		ATTR_EQ(sample_stack_user);
		ATTR_EQ(clockid);
		ATTR_EQ(sample_regs_intr);
		ATTR_EQ(aux_watermark);
		ATTR_EQ(sample_max_stack);
		ATTR_EQ(aux_sample_size);
		ATTR_EQ(sig_data);
		ATTR_EQ(config3);
		ck_assert_str_eq(ev[i].name, evsel__name(el->evsels[i]));
	}
	/* the groups, as perf rebuilds them from the recording's GROUP_DESC */
	{
		struct feat_group_state *g = calloc(nr, sizeof(*g));

		ck_assert_ptr_nonnull(g);
		ck_assert(features__group_rebuild(session__features(s), g, nr));
		for (size_t i = 0; i < nr; i++) {
			bool leads = ev[i].leader == i && ev[i].nr_members > 1;

			ck_assert_msg(g[i].leader == ev[i].leader, "%s event %zu: leader %u, "
				      "ours %zu", c->sample, i, g[i].leader, ev[i].leader);
			ck_assert_uint_eq(g[i].nr_members, leads ? ev[i].nr_members : 0);
			if (leads && ev[i].group)
				ck_assert_str_eq(g[i].name, ev[i].group);
			else
				ck_assert_ptr_null(g[i].name);
		}
		free(g);
	}
	session__close(s);
	record_events__free(ev, nr);
}
END_TEST

/* Groups: leaders, members and names as the list says. */
START_TEST(test_events_groups)
{
	struct record_event *ev = NULL;
	size_t nr = 0;
	char err[256];

	ck_assert_int_eq(record_events__parse("page-faults,{cpu-clock,task-clock},"
					      "grp{minor-faults,cs}", &ev, &nr, err,
					      sizeof(err)), 0);
	ck_assert_int_eq(record_events__parse("faults", &ev, &nr, err, sizeof(err)), 0);
	ck_assert_uint_eq(nr, 6);
	{
		static const size_t leader[] = { 0, 1, 1, 3, 3, 5 };
		static const size_t members[] = { 1, 2, 1, 2, 1, 1 };
		static const char *const names[] = { "page-faults", "cpu-clock", "task-clock",
						     "minor-faults", "cs", "faults" };

		for (size_t i = 0; i < nr; i++) {
			ck_assert_uint_eq(ev[i].leader, leader[i]);
			ck_assert_uint_eq(ev[i].nr_members, members[i]);
			ck_assert_str_eq(ev[i].name, names[i]);
		}
	}
	ck_assert_ptr_null(ev[1].group);
	ck_assert_str_eq(ev[3].group, "grp");
	ck_assert_uint_eq(ev[4].attr.config, 3);
	ck_assert_uint_eq(ev[5].attr.config, 2);
	record_events__free(ev, nr);
}
END_TEST

/* -k: perf's clock names (and aliases, CLOCK_ prefixes, any case, numbers); the attr
 * bits of every event */
START_TEST(test_events_clockid)
{
	struct record_opts o = { .use_clockid = true };
	struct record_event *ev = NULL;
	size_t nr = 0;
	char err[256] = "";

	ck_assert_int_eq(record_events__clockid("monotonic"), CLOCK_MONOTONIC);
	ck_assert_int_eq(record_events__clockid("mono"), CLOCK_MONOTONIC);
	ck_assert_int_eq(record_events__clockid("CLOCK_MONOTONIC_RAW"), CLOCK_MONOTONIC_RAW);
	ck_assert_int_eq(record_events__clockid("raw"), CLOCK_MONOTONIC_RAW);
	ck_assert_int_eq(record_events__clockid("Realtime"), CLOCK_REALTIME);
	ck_assert_int_eq(record_events__clockid("boot"), CLOCK_BOOTTIME);
	ck_assert_int_eq(record_events__clockid("tai"), CLOCK_TAI);
	ck_assert_int_eq(record_events__clockid("7"), 7);
	ck_assert_int_eq(record_events__clockid("nope"), -1);
	ck_assert_int_eq(record_events__clockid(""), -1);
	ck_assert_int_eq(record_events__clockid("-1"), -1);
	o.clockid = CLOCK_BOOTTIME;
	ck_assert_int_eq(record_events__parse("cpu-clock,task-clock", &ev, &nr, err,
					      sizeof(err)), 0);
	ck_assert_int_eq(record_events__config(ev, nr, &o), 0);
	for (size_t i = 0; i < nr; i++) {
		ck_assert(ev[i].attr.flags & (1ULL << ATTR_USE_CLOCKID));
		ck_assert_int_eq(ev[i].attr.clockid, CLOCK_BOOTTIME);
	}
	record_events__free(ev, nr);
}
END_TEST

/* Lists perf would take but we do not yet, and lists nobody takes: -EINVAL, one line
 * saying what; a DWARF stack size past perf's limit, and -F with -c, which perf refuses. */
START_TEST(test_events_errors)
{
	static const struct { const char *spec, *says; } bad[] = {
		{ "", "empty event name" },
		{ "cpu-clock,", "empty event name" },
		{ "{}", "empty event name" },
		{ "cpu-clock:u", "'cpu-clock:u': event modifiers are not supported yet" },
		/* a tracepoint with a modifier (tracepoints themselves: tests/record) */
		{ "sched:sched_switch:u", "event modifiers are not supported yet" },
		{ "no-such-event", "unknown event 'no-such-event'" },
		{ "{cpu-clock,{task-clock}}", "groups cannot be nested" },
		{ "{cpu-clock,task-clock", "group not closed" },
		{ "cpu-clock}", "'}' without '{'" },
		{ "{cpu-clock}task-clock", "',' expected after '}'" },
	};

	for (size_t k = 0; k < sizeof(bad) / sizeof(bad[0]); k++) {
		struct record_event *ev = NULL;
		size_t nr = 0;
		char err[256] = "";

		ck_assert_int_eq(record_events__parse(bad[k].spec, &ev, &nr, err, sizeof(err)),
				 -EINVAL);
		ck_assert_msg(strstr(err, bad[k].says), "'%s': %s", bad[k].spec, err);
		record_events__free(ev, nr);
	}
	{
		struct record_event *ev = NULL;
		size_t nr = 0;
		char err[256];
		struct record_opts o = { .dwarf_size = 65529 };

		ck_assert_int_eq(record_events__config(ev, nr, &o), -EINVAL);
		ck_assert_int_eq(record_events__parse("cpu-clock", &ev, &nr, err, sizeof(err)), 0);
		ck_assert_int_eq(record_events__config(ev, nr, &o), -EINVAL);
		o.dwarf_size = 65528;
		ck_assert_int_eq(record_events__config(ev, nr, &o), 0);
		ck_assert_uint_eq(ev[0].attr.sample_stack_user, 65528);
		o.dwarf_size = 4090;
		ck_assert_int_eq(record_events__config(ev, nr, &o), 0);
		ck_assert_uint_eq(ev[0].attr.sample_stack_user, 4096);
		ck_assert_uint_eq(ev[0].attr.sample_period, RECORD_DEFAULT_FREQ);
		/* perf: "cannot set frequency and period at the same time" */
		o.freq = 100;
		o.period = 1000;
		ck_assert_int_eq(record_events__config(ev, nr, &o), -EINVAL);
		record_events__free(ev, nr);
	}
}
END_TEST

/* record_events__add_tracking(): perf record -a -g -F 200's events (samples/system-g.data,
 * made without -e: perf's cycles fell back to cpu-clock:ppp, whose precise_ip and
 * missing exclude_guest come from that fallback and are left out of the comparison) */
START_TEST(test_events_system_wide_tracking)
{
	struct record_opts o = { .freq = 200, .callchain = true, .sample_cpu = true };
	struct session_opts so = { .path = "samples/system-g.data", .jobs = 1 };
	uint64_t fallback = 3ULL << ATTR_PRECISE_IP | 1ULL << ATTR_EXCLUDE_GUEST;
	/* names the recording in ATTR_EQ's message */
	const struct attr_case *c = &(const struct attr_case){ .sample = "system-g.data" };
	struct record_event *ev = NULL;
	size_t nr = 0;
	char err[256] = "";
	struct session *s;
	struct diag d;
	struct evlist *el;

	ck_assert_int_eq(record_events__parse("cpu-clock", &ev, &nr, err, sizeof(err)), 0);
	ck_assert_int_eq(record_events__config(ev, nr, &o), 0);
	/* dirrecord's main: only a command's exec enables the events */
	ev[0].attr.flags &= ~(1ULL << ATTR_ENABLE_ON_EXEC);
	ck_assert_int_eq(record_events__add_tracking(&ev, &nr), 0);
	ck_assert_uint_eq(nr, 2);
	ck_assert_msg(session__open(&s, &so, &d) == 0, "%s", d.msg);
	ck_assert_msg(session__load(s, &d) == 0, "%s", d.msg);
	el = session__evlist(s);
	ck_assert_uint_eq(el->nr, 2);
	for (size_t i = 0; i < 2; i++) {
		const struct event_attr *got = &ev[i].attr, *want = &el->evsels[i]->attr;

		ATTR_EQ(type);
		ATTR_EQ(config);
		ATTR_EQ(sample_period);
		ATTR_EQ(sample_type);
		ATTR_EQ(read_format);
		if (i == 0)
			ck_assert_uint_eq(got->flags & ~fallback, want->flags & ~fallback);
		else
			ATTR_EQ(flags);
	}
	ck_assert_str_eq(ev[1].name, evsel__name(el->evsels[1]));
	ck_assert_uint_eq(ev[1].leader, 1);
	session__close(s);
	record_events__free(ev, nr);
}
END_TEST

/* record_target__cpus(): perf's -C lists, and the online cpus */
START_TEST(test_target_cpu_lists)
{
	static const char *const bad[] = { "", "3-1", "a", "1,", "4096", "1-", "-1", "0,,1" };
	int *cpus;
	size_t nr;

	ck_assert_int_eq(record_target__cpus("0-2,5", &cpus, &nr), 0);
	ck_assert_uint_eq(nr, 4);
	ck_assert_int_eq(cpus[2], 2);
	ck_assert_int_eq(cpus[3], 5);
	free(cpus);
	ck_assert_int_eq(record_target__cpus("5,0-1,1", &cpus, &nr), 0);	/* sorted, once */
	ck_assert_uint_eq(nr, 3);
	ck_assert_int_eq(cpus[0], 0);
	ck_assert_int_eq(cpus[2], 5);
	free(cpus);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		ck_assert_msg(record_target__cpus(bad[i], &cpus, &nr) == -EINVAL, "'%s'", bad[i]);
	ck_assert_int_eq(record_target__cpus(NULL, &cpus, &nr), 0);
	ck_assert_uint_ge(nr, 1);
	free(cpus);
	ck_assert_int_eq(record_target__tgid(getpid()), getpid());
}
END_TEST

/* --threads masks: perf's CPUS/AFFINITY:... spelling, the named layouts, the errors */
START_TEST(test_threads_masks)
{
	static const int cpus[] = { 0, 1, 2, 3 };
	static const char *const bad[] = { "0,2/0:0,3/1", "0-2/0", "7/7:0-3/0", "x/0" };
	unsigned *to;
	cpu_set_t *aff;
	size_t nr;
	char err[128];

	ck_assert_int_eq(record_threads__masks("0,2/0:1,3,9/1-3", cpus, 4, &to, &aff, &nr,
					       err, sizeof(err)), 0);
	ck_assert_uint_eq(nr, 2);	/* cpu 9 is not recorded: ignored */
	ck_assert_uint_eq(to[0], 0);
	ck_assert_uint_eq(to[1], 1);
	ck_assert_uint_eq(to[2], 0);
	ck_assert_uint_eq(to[3], 1);
	ck_assert(CPU_ISSET(0, &aff[0]) && !CPU_ISSET(2, &aff[0]));
	ck_assert(CPU_ISSET(3, &aff[1]) && !CPU_ISSET(0, &aff[1]));
	free(to);
	free(aff);
	ck_assert_int_eq(record_threads__masks(NULL, cpus, 4, &to, &aff, &nr, err,
					       sizeof(err)), 0);
	ck_assert_uint_eq(nr, 4);	/* cpu: one each */
	ck_assert_uint_eq(to[3], 3);
	ck_assert(CPU_ISSET(3, &aff[3]));
	free(to);
	free(aff);
	ck_assert_int_eq(record_threads__masks("package", cpus, 1, &to, &aff, &nr, err,
					       sizeof(err)), 0);
	ck_assert_uint_eq(nr, 1);
	free(to);
	free(aff);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		ck_assert_msg(record_threads__masks(bad[i], cpus, 4, &to, &aff, &nr, err,
						    sizeof(err)) == -EINVAL, "'%s'", bad[i]);
		ck_assert_msg(!strncmp(err, "--threads: ", 11), "'%s': %s", bad[i], err);
	}
}
END_TEST

struct emitted {
	unsigned char buf[1 << 20];
	size_t len, nr;
};

static int collect_emit(void *ctx, const void *rec, size_t size)
{
	struct emitted *e = ctx;

	ck_assert_uint_le(e->len + size, sizeof(e->buf));
	memcpy(e->buf + e->len, rec, size);
	e->len += size;
	e->nr++;
	return 0;
}

/* each record whole, its size in its header, a multiple of 8, the trailer zeros */
static void check_shapes(const struct emitted *e, size_t trailer)
{
	for (size_t at = 0; at < e->len;) {
		struct record_header h;

		record_header__get(&h, e->buf + at);
		ck_assert_uint_ge(h.size, 8);
		ck_assert_uint_eq(h.size % 8, 0);
		ck_assert_uint_le(at + h.size, e->len);
		if (h.type < REC_USER_FIRST)
			for (size_t i = h.size - trailer; i < h.size; i++)
				ck_assert_uint_eq(e->buf[at + i], 0);
		at += h.size;
	}
}

/* synth: this process's COMM and MMAP2 records decode through format/event.h, one
 * MMAP2 maps this test's code with its file; ID_INDEX is cut into records of 255 ids;
 * the kernel's map where /proc/kallsyms shows addresses */
START_TEST(test_synth_records)
{
	static struct emitted e;
	struct synth s = { .id_hdr_size = 16, .emit = collect_emit, .ctx = &e };
	struct synth_id ids[300];
	struct diag d = { 0 };
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	uintptr_t code = (uintptr_t)&check_shapes;
	bool comm = false, mapped = false;
	size_t nr_index = 0, nr_ids = 0;
	int err;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(synth__process(&s, getpid(), -1, false), 0);
	check_shapes(&e, 16);
	for (size_t at = 0; at < e.len;) {
		struct record_header h;
		struct event_comm c;
		struct event_mmap2 m;

		record_header__get(&h, e.buf + at);
		if (h.type == REC_COMM) {
			ck_assert_int_eq(event_comm__decode(e.buf + at, h.size, &c), 0);
			ck_assert_uint_eq(c.pid, (uint32_t)getpid());
			comm |= c.tid == (uint32_t)getpid() && c.comm.nul;
		} else {
			ck_assert_uint_eq(h.type, REC_MMAP2);
			ck_assert_int_eq(event_mmap2__decode(e.buf + at, h.size, &m), 0);
			ck_assert_uint_eq(m.prot & 4, 4);	/* executable ones only */
			ck_assert(m.filename.nul);
			if (code >= m.start && code < m.start + m.len &&
			    m.filename.len == strlen(self) && !memcmp(m.filename.s, self, m.filename.len))
				mapped = true;
		}
		at += h.size;
	}
	ck_assert(comm);
	ck_assert(mapped);

	memset(&e, 0, sizeof(e));
	for (size_t i = 0; i < 300; i++)
		ids[i] = (struct synth_id){ .id = 1000 + i, .idx = i % 4, .cpu = i % 4,
					    .tid = (uint64_t)-1 };
	ck_assert_int_eq(synth__id_index(&s, ids, 300), 0);
	ck_assert_int_eq(synth__finished_init(&s), 0);
	check_shapes(&e, 0);
	for (size_t at = 0; at < e.len;) {
		struct record_header h;
		struct event_id_index x;
		struct event_id_index_entry en;

		record_header__get(&h, e.buf + at);
		if (h.type == REC_ID_INDEX) {
			ck_assert_int_eq(event_id_index__decode(e.buf + at, h.size, &x), 0);
			ck_assert_uint_le(x.nr, 255);
			for (uint64_t i = 0; i < x.nr; i++) {
				event_id_index__entry(&x, i, &en);
				ck_assert_uint_eq(en.id, 1000 + nr_ids);
				ck_assert_uint_eq(en.cpu, nr_ids % 4);
				ck_assert_uint_eq(en.tid, (uint64_t)-1);
				nr_ids++;
			}
			nr_index++;
		} else {
			ck_assert_uint_eq(h.type, REC_FINISHED_INIT);
			ck_assert_uint_eq(h.size, 8);
		}
		at += h.size;
	}
	ck_assert_uint_eq(nr_index, 2);
	ck_assert_uint_eq(nr_ids, 300);

	memset(&e, 0, sizeof(e));
	err = synth__kernel(&s, &d);
	if (err == -ENOENT)
		return;	/* kptr_restrict hides the addresses here */
	ck_assert_int_eq(err, 0);
	{
		struct event_mmap m;

		ck_assert_uint_eq(e.nr, 1);
		check_shapes(&e, 16);
		ck_assert_int_eq(event_mmap__decode(e.buf, e.len, &m), 0);
		ck_assert_uint_eq(m.pid, (uint32_t)-1);
		ck_assert_uint_eq(m.misc & MISC_CPUMODE_MASK, MISC_KERNEL);
		ck_assert_uint_eq(m.pgoff, m.start);
		ck_assert_uint_gt(m.len, 0);
		ck_assert(!strncmp(m.filename.s, "[kernel.kallsyms]_", 18));
	}
}
END_TEST

/* THREAD_MAP and CPU_MAP in perf 6.1's forms: RANGE for consecutive cpus, else the
 * smaller of CPUS and MASK (MASK on a tie) */
START_TEST(test_synth_maps)
{
	static struct emitted e;
	struct synth s = { .id_hdr_size = 16, .emit = collect_emit, .ctx = &e };
	static const int range[] = { 0, 1, 2 }, two[] = { 0, 5 }, three[] = { 0, 2, 5 };
	static const pid_t tids[] = { 7, 8 };
	uint64_t v;
	size_t at = 0;

	memset(&e, 0, sizeof(e));
	ck_assert_int_eq(synth__cpu_map(&s, range, 3), 0);
	ck_assert_int_eq(synth__cpu_map(&s, two, 2), 0);
	ck_assert_int_eq(synth__cpu_map(&s, three, 3), 0);
	ck_assert_int_eq(synth__thread_map(&s, NULL, 0), 0);
	ck_assert_int_eq(synth__thread_map(&s, tids, 2), 0);
	ck_assert_int_eq(synth__cpu_map(&s, range, 0), -EINVAL);
	check_shapes(&e, 0);
	ck_assert_uint_eq(e.nr, 5);
	/* RANGE 0-2: type 2, any_cpu 0, pad, start 0, end 2 */
	ck_assert_mem_eq(e.buf + at + 8, ((const unsigned char[]){ 2, 0, 0, 0, 0, 0, 2, 0 }), 8);
	at += 16;
	/* CPUS 0,5: 8 bytes against a mask's 10 */
	ck_assert_mem_eq(e.buf + at + 8, ((const unsigned char[]){ 0, 0, 2, 0, 0, 0, 5, 0 }), 8);
	at += 16;
	/* MASK 0,2,5: 10 bytes either way: type 1, one word, long_size 4, bits 0, 2, 5 */
	ck_assert_mem_eq(e.buf + at + 8,
			 ((const unsigned char[]){ 1, 0, 1, 0, 4, 0, 0x25, 0, 0, 0 }), 10);
	at += 24;
	/* a system-wide map: one thread, -1 */
	memcpy(&v, e.buf + at + 8, 8);
	ck_assert_uint_eq(v, 1);
	memcpy(&v, e.buf + at + 16, 8);
	ck_assert_uint_eq(v, (uint64_t)-1);
	at += 40;
	memcpy(&v, e.buf + at + 8, 8);
	ck_assert_uint_eq(v, 2);
	memcpy(&v, e.buf + at + 16 + 24, 8);
	ck_assert_uint_eq(v, 8);
}
END_TEST

/* dsos: maps followed through fork and exec; only files with samples get a build-id
 * entry, the kernel's always (where /sys/kernel/notes has it) */
START_TEST(test_dsos_hits)
{
	struct record_dsos *t;
	struct feat_build_id *ids;
	uint8_t want[20], want_size;
	char self[4096];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	size_t nr, users = 0;
	uint64_t start, end;

	ck_assert_int_gt(n, 0);
	self[n] = '\0';
	ck_assert_int_eq(record_dsos__new(&t), 0);
	ck_assert_int_eq(record_dsos__mmap(t, 10, 0x1000, 0x1000, "/bin/sh", 7), 0);
	ck_assert_int_eq(record_dsos__mmap(t, 10, 0x4000, 0x1000, self, strlen(self)), 0);
	ck_assert_int_eq(record_dsos__fork(t, 11, 10), 0);
	record_dsos__exec(t, 10);
	/* exec()ed: no map */
	ck_assert(!record_dsos__hit(t, 10, 0x1800, false, &start, &end));
	/* the child kept its parent's: the map's range */
	ck_assert(record_dsos__hit(t, 11, 0x4800, false, &start, &end));
	ck_assert_uint_eq(start, 0x4000);
	ck_assert_uint_eq(end, 0x5000);
	/* unknown process */
	ck_assert(!record_dsos__hit(t, 12, 0x4800, false, &start, &end));
	ck_assert_int_eq(record_dsos__build_ids(t, &ids, &nr), 0);
	for (size_t i = 0; i < nr; i++) {
		if (!strcmp(ids[i].filename, "[kernel.kallsyms]")) {
			ck_assert_uint_eq(ids[i].misc, MISC_KERNEL);
			continue;
		}
		ck_assert_str_eq(ids[i].filename, self);
		ck_assert_int_eq(ids[i].pid, -1);
		ck_assert_int_eq(record_features__file_build_id(self, want, &want_size), 0);
		ck_assert_uint_eq(ids[i].size, want_size);
		ck_assert_mem_eq(ids[i].build_id, want, want_size);
		users++;
	}
	/* a test program linked without a build-id (no --build-id) has no entry */
	ck_assert_uint_eq(users, record_features__file_build_id(self, want, &want_size) ? 0 : 1);
	record_dsos__free_build_ids(ids, nr);
	record_dsos__delete(t);
}
END_TEST

Suite *record_suite(void)
{
	Suite *s = suite_create("record");
	TCase *tr = tcase_create("ring");
	TCase *ts = tcase_create("snapshot");
	TCase *te = tcase_create("events");
	TCase *tp = tcase_create("program");

	tcase_add_test(tr, test_ring_reads_in_order);
	tcase_add_test(tr, test_ring_callback_stops);
	tcase_add_test(tr, test_ring_damaged);
	tcase_add_test(tr, test_ring_init_errors);
	tcase_add_test(ts, test_snapshot_keeps_newest);
	tcase_add_test(ts, test_snapshot_drain_stops);
	tcase_add_test(ts, test_snapshot_errors);
	tcase_add_loop_test(te, test_events_as_perf_record, 0,
			    sizeof(attr_cases) / sizeof(attr_cases[0]));
	tcase_add_test(te, test_events_groups);
	tcase_add_test(te, test_events_errors);
	tcase_add_test(te, test_events_clockid);
	tcase_add_test(te, test_events_system_wide_tracking);
	suite_add_tcase(s, tr);
	suite_add_tcase(s, ts);
	tcase_add_test(tp, test_target_cpu_lists);
	tcase_add_test(tp, test_threads_masks);
	tcase_add_test(tp, test_synth_records);
	tcase_add_test(tp, test_synth_maps);
	tcase_add_test(tp, test_dsos_hits);
	suite_add_tcase(s, te);
	suite_add_tcase(s, tp);
	return s;
}
