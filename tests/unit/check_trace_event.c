/*
 * Unit tests of report/trace-event: the HEADER_TRACING_DATA of samples/trace.data
 * (`sh samples/record.sh trace`: sched_switch, sched_wakeup, sched_process_exec/fork/
 * exit of a small shell pipeline) parsed through libtraceevent, every sample formatted
 * and compared with what perf 6.1 prints for it; cut and corrupted tracing data and
 * damaged raw records; synthetic tracing data for big-endian files and %pS.
 *
 * Expected strings come from perf 6.1 (linux-perf 6.1.192) on samples/trace.data:
 *   P1: `perf script -i samples/trace.data -F event,trace` (one line per sample, in
 *       delivery order, which dirreport's session reproduces);
 *   P2: `perf report --stdio -i samples/trace.data` (= `-s trace`, perf's default sort
 *       for a tracepoint-only recording): entries and "Trace output" column widths;
 *   P3: `perf report --stdio -i samples/trace.data -s trace --raw-trace`.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/diag.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "machine/trace-event.h"
#include "testlib.h"

#include "banned.h"

#define SAMPLE_PATH "tests/unit/data/trace.data"

/* --- the real recording --------------------------------------------------------- */

struct tsample {
	uint64_t config;
	const unsigned char *raw;	/* borrowed from the session */
	uint32_t raw_size;
};

struct recording {
	struct session *s;
	const struct feat_raw *td;	/* TRACING_DATA */
	struct tsample *v;
	size_t n, cap;
};

static int collect(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct recording *r = ctx;

	for (size_t i = 0; i < n; i++) {
		struct sample smp;

		if (recs[i]->type != REC_SAMPLE || !recs[i]->evsel)
			continue;
		ck_assert_int_eq(sample__parse(&smp, &recs[i]->evsel->attr, recs[i]->data,
					       recs[i]->size), 0);
		if (r->n == r->cap) {
			r->cap = r->cap ? 2 * r->cap : 1024;
			r->v = realloc(r->v, r->cap * sizeof(*r->v));
			ck_assert_ptr_nonnull(r->v);
		}
		r->v[r->n].config = recs[i]->evsel->attr.config;
		r->v[r->n].raw = smp.raw;
		r->v[r->n].raw_size = smp.raw_size;
		r->n++;
	}
	return 0;
}

static void recording_open(struct recording *r)
{
	struct session_opts o = { .path = SAMPLE_PATH, .jobs = 1 };
	struct diag d = { 0 };
	const struct features *f;

	memset(r, 0, sizeof(*r));
	ck_assert_int_eq(session__open(&r->s, &o, &d), 0);
	ck_assert_int_eq(session__load(r->s, &d), 0);
	f = session__features(r->s);
	ck_assert(features__has(f, FEAT_TRACING_DATA));
	r->td = &f->tracing_data;
	ck_assert_uint_gt(r->td->size, 0);
	ck_assert_int_eq(session__deliver(r->s, collect, r, 0), 0);
}

static void recording_close(struct recording *r)
{
	free(r->v);
	session__close(r->s);
}

static struct trace_event *handle_of(const struct recording *r)
{
	struct trace_event *te = NULL;
	struct diag d = { 0 };

	ck_assert_int_eq(trace_event__new(&te, r->td->data, r->td->size, r->td->file_offset,
					  SAMPLE_PATH, &d), 0);
	ck_assert_ptr_nonnull(te);
	return te;
}

/* Format sample i; the caller frees. */
static char *fmt(struct trace_event *te, const struct tsample *t, unsigned flags)
{
	const struct trace_event_format *ev = trace_event__find(te, t->config);
	char *out = NULL;

	ck_assert_ptr_nonnull(ev);
	ck_assert_int_eq(trace_event__format(te, ev, t->raw, t->raw_size, flags, &out), 0);
	ck_assert_ptr_nonnull(out);
	return out;
}

START_TEST(test_events_of_recording)
{
	struct recording r;
	struct trace_event *te;
	/* the "ID:" lines of the five format files; attr.config in perf's header */
	static const struct { uint64_t id; const char *name; } ev[] = {
		{ 365, "sched_process_exec" }, { 366, "sched_process_fork" },
		{ 369, "sched_process_exit" }, { 372, "sched_switch" },
		{ 374, "sched_wakeup" },
	};

	recording_open(&r);
	te = handle_of(&r);
	for (size_t i = 0; i < sizeof(ev) / sizeof(ev[0]); i++) {
		const struct trace_event_format *f = trace_event__find(te, ev[i].id);

		ck_assert_ptr_nonnull(f);
		ck_assert_str_eq(trace_event__system(f), "sched");
		ck_assert_str_eq(trace_event__name(f), ev[i].name);
	}
	ck_assert_ptr_null(trace_event__find(te, 0));
	ck_assert_ptr_null(trace_event__find(te, 373));
	ck_assert_ptr_null(trace_event__find(te, 1ULL << 40));
	/* every sample's attr has its format (perf would refuse the file otherwise) */
	ck_assert_uint_eq(r.n, 1955);	/* perf report: 1285 + 650 + 7 + 6 + 7 samples */
	for (size_t i = 0; i < r.n; i++)
		ck_assert_ptr_nonnull(trace_event__find(te, r.v[i].config));
	trace_event__delete(te);
	recording_close(&r);
}
END_TEST

START_TEST(test_format_like_perf_script)
{
	/* P1: the first nine samples */
	static const char *const want[] = {
		"filename=/usr/bin/sh pid=32524 old_pid=32524",
		"comm=memfd:sealed-91 pid=26606 prio=120 target_cpu=001",
		"prev_comm=sh prev_pid=32524 prev_prio=120 prev_state=R+ ==> "
		"next_comm=memfd:sealed-91 next_pid=26606 next_prio=120",
		"comm=sh pid=32524 child_comm=sh child_pid=32526",
		"comm=sh pid=32524 child_comm=sh child_pid=32527",
		"comm=sh pid=32524 child_comm=sh child_pid=32528",
		"prev_comm=sh prev_pid=32524 prev_prio=120 prev_state=R ==> next_comm=sh "
		"next_pid=32526 next_prio=120",
		"filename=/usr/bin/dd pid=32526 old_pid=32526",
	};
	struct recording r;
	struct trace_event *te;

	recording_open(&r);
	te = handle_of(&r);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		char *s = fmt(te, &r.v[i], 0);

		ck_assert_str_eq(s, want[i]);
		free(s);
	}
	trace_event__delete(te);
	recording_close(&r);
}
END_TEST

/* The distinct strings of event `config` (perf report's entries of -s trace): count,
 * longest length, and whether `probe` is one of them. */
static void distinct(struct trace_event *te, const struct recording *r, uint64_t config,
		     unsigned flags, const char *probe, size_t *nr, size_t *longest,
		     bool *found)
{
	char **seen = NULL;
	size_t n = 0;

	*longest = 0;
	*found = false;
	for (size_t i = 0; i < r->n; i++) {
		char *s;
		size_t j;

		if (r->v[i].config != config)
			continue;
		s = fmt(te, &r->v[i], flags);
		for (j = 0; j < n && strcmp(seen[j], s); j++)
			;
		if (j < n) {
			free(s);
			continue;
		}
		seen = realloc(seen, (n + 1) * sizeof(*seen));
		ck_assert_ptr_nonnull(seen);
		seen[n++] = s;
		if (strlen(s) > *longest)
			*longest = strlen(s);
		if (probe && !strcmp(s, probe))
			*found = true;
	}
	for (size_t j = 0; j < n; j++)
		free(seen[j]);
	free(seen);
	*nr = n;
}

START_TEST(test_format_like_perf_report)
{
	/* P2 (default) and P3 (--raw-trace): per event, the number of entries, the
	 * "Trace output" column width (the longest entry; the header pads to it) and
	 * one entry */
	static const struct {
		uint64_t id;
		unsigned flags;
		size_t entries, width;
		const char *entry;
	} want[] = {
		{ 372, 0, 28, 115, "prev_comm=dd prev_pid=32526 prev_prio=120 prev_state=S "
		  "==> next_comm=gzip next_pid=32527 next_prio=120" },
		{ 374, 0, 13, 54, "comm=dd pid=32526 prio=120 target_cpu=001" },
		{ 365, 0, 7, 51, "filename=/usr/bin/sha256sum pid=32528 old_pid=32528" },
		{ 366, 0, 6, 47, "comm=sh pid=32524 child_comm=sh child_pid=32531" },
		{ 369, 0, 7, 49, "comm=dd pid=32526 prio=120 group_dead=true" },
		{ 372, TRACE_EVENT_RAW, 28, 112, " prev_comm=dd prev_pid=32526 "
		  "prev_prio=120 prev_state=1 next_comm=gzip next_pid=32527 next_prio=120" },
		{ 374, TRACE_EVENT_RAW, 13, 53, " comm=dd pid=32526 prio=120 target_cpu=1" },
		{ 365, TRACE_EVENT_RAW, 7, 52, " filename=/usr/bin/dd pid=32526 "
		  "old_pid=32526" },
		{ 366, TRACE_EVENT_RAW, 6, 62, " parent_comm=sh parent_pid=32524 "
		  "child_comm=sh child_pid=32526" },
		{ 369, TRACE_EVENT_RAW, 7, 47, " comm=dd pid=32526 prio=120 group_dead=1" },
	};
	struct recording r;
	struct trace_event *te;

	recording_open(&r);
	te = handle_of(&r);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		size_t nr, longest;
		bool found;

		distinct(te, &r, want[i].id, want[i].flags, want[i].entry, &nr, &longest,
			 &found);
		ck_assert_msg(nr == want[i].entries, "event %llu flags %u: %zu entries",
			      (unsigned long long)want[i].id, want[i].flags, nr);
		ck_assert_msg(longest == want[i].width, "event %llu flags %u: width %zu",
			      (unsigned long long)want[i].id, want[i].flags, longest);
		ck_assert_msg(found, "missing: %s", want[i].entry);
	}
	trace_event__delete(te);
	recording_close(&r);
}
END_TEST

START_TEST(test_common_type_picks_the_format)
{
	/* perf 6.1 formats a record with the event its common_type names, not the attr's:
	 * the first sample (sched_process_exec) with common_type 369 (sched_process_exit)
	 * prints, per `perf script -F event,trace` and `perf report -s trace` of such a
	 * patched copy of samples/trace.data (comm is the byte 0x14 of the filename's
	 * __data_loc, read as exit's comm[16]): */
	static const char want[] = "comm=\024 pid=1852400175 prio=6845231 group_dead=false";
	struct recording r;
	struct trace_event *te;
	unsigned char buf[256];
	char *s = NULL;

	recording_open(&r);
	te = handle_of(&r);
	ck_assert_uint_eq(r.v[0].config, 365);
	ck_assert_uint_le(r.v[0].raw_size, sizeof(buf));
	memcpy(buf, r.v[0].raw, r.v[0].raw_size);
	buf[0] = 369 & 0xff;
	buf[1] = 369 >> 8;
	ck_assert_int_eq(trace_event__format(te, trace_event__find(te, 365), buf,
					     r.v[0].raw_size, 0, &s), 0);
	ck_assert_str_eq(s, want);
	free(s);
	trace_event__delete(te);
	recording_close(&r);
}
END_TEST

/* --- damaged tracing data --------------------------------------------------------- */

START_TEST(test_cut_everywhere)
{
	struct recording r;

	recording_open(&r);
	/* The section ends with the (empty) saved cmdlines: every shorter prefix lacks a
	 * part and must be refused with an offset inside the section. */
	for (size_t len = 0; len < r.td->size; len++) {
		struct trace_event *te = (struct trace_event *)1;
		struct diag d = { 0 };
		int err = trace_event__new(&te, r.td->data, len, r.td->file_offset,
					   SAMPLE_PATH, &d);

		ck_assert_msg(err == -DIAG_BAD_FEATURE, "cut at %zu: %d", len, err);
		ck_assert_ptr_null(te);
		ck_assert_int_eq(d.code, -DIAG_BAD_FEATURE);
		ck_assert_str_eq(d.path, SAMPLE_PATH);
		ck_assert_uint_ge(d.offset, r.td->file_offset);
		ck_assert_uint_le(d.offset, r.td->file_offset + len);
		ck_assert(strncmp(d.msg, "TRACING_DATA: ", 14) == 0);
	}
	recording_close(&r);
}
END_TEST

START_TEST(test_layout_errors)
{
	struct recording r;
	unsigned char *b;
	struct diag d;
	struct trace_event *te;
	size_t ver;

	recording_open(&r);
	b = malloc(r.td->size);
	ck_assert_ptr_nonnull(b);
	ver = 10 + strlen((const char *)r.td->data + 10) + 1;	/* endianness byte */

	memcpy(b, r.td->data, r.td->size);
	b[0] = 0x18;
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 100, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, 100);
	ck_assert_ptr_nonnull(strstr(d.msg, "bad magic"));

	memcpy(b, r.td->data, r.td->size);
	b[ver] = 2;
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 0, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, ver);
	ck_assert_ptr_nonnull(strstr(d.msg, "endianness"));

	memcpy(b, r.td->data, r.td->size);
	b[ver + 1] = 3;
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 0, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "long size"));

	memcpy(b, r.td->data, r.td->size);
	b[ver + 6] = 'H';	/* "header_page" */
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 0, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "header_page"));

	memcpy(b, r.td->data, r.td->size);
	b[ver + 6 + 12 + 7] = 0x80;	/* header_page size: 2^63 + 205 */
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 0, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "runs past the section end"));

	/* a version string without NUL */
	memset(b, 'x', r.td->size);
	memcpy(b, r.td->data, 10);
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, 0, "x", &d),
			 -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "version string"));

	ck_assert_int_eq(trace_event__new(&te, NULL, 0, 0, NULL, NULL), -DIAG_BAD_FEATURE);
	free(b);
	recording_close(&r);
}
END_TEST

START_TEST(test_parser_trap_reported)
{
	/* Found by test_corrupt_bytes: sched_switch's print fmt with one constant turned
	 * into "0x0%000000" (0 % 0) makes libtraceevent 1.7.1's parser die of SIGFPE. The
	 * forked check reports the format file it died on; nothing crashes here. */
	static const char at[] = "\"R\", REC->prev_state & (((0x00000000";
	struct recording r;
	struct trace_event *te = NULL;
	struct diag d = { 0 };
	unsigned char *b, *hit, *file;

	recording_open(&r);
	b = malloc(r.td->size);
	ck_assert_ptr_nonnull(b);
	memcpy(b, r.td->data, r.td->size);
	hit = memmem(b, r.td->size, at, strlen(at));
	ck_assert_ptr_nonnull(hit);
	memcpy(hit + strlen(at) - 10, "0x0%000000", 10);
	file = memmem(b, r.td->size, "name: sched_switch", 18);
	ck_assert_ptr_nonnull(file);
	ck_assert_int_eq(trace_event__new(&te, b, r.td->size, r.td->file_offset, SAMPLE_PATH,
					  &d), -DIAG_BAD_FEATURE);
	ck_assert_ptr_null(te);
	/* "dies (signal 8)"; under ASan, whose SIGFPE handler exits: "fails (exit ...)" */
	ck_assert_msg(strstr(d.msg, "libtraceevent dies (signal 8)") ||
		      strstr(d.msg, "libtraceevent fails (exit status"), "%s", d.msg);
	ck_assert_uint_eq(d.offset, r.td->file_offset + (uint64_t)(file - b));
	free(b);
	recording_close(&r);
}
END_TEST

/* Deterministic pseudo-random numbers (LCG of Numerical Recipes). */
static uint32_t rnd(uint32_t *state)
{
	*state = *state * 1664525u + 1013904223u;
	return *state >> 8;
}

START_TEST(test_corrupt_bytes)
{
	struct recording r;
	unsigned char *b;
	uint32_t seed = 12345;
	unsigned parsed = 0;

	recording_open(&r);
	b = malloc(r.td->size);
	ck_assert_ptr_nonnull(b);
	/* 400 variants: one to eight bytes overwritten (format text included), then the
	 * first 40 samples formatted with whatever libtraceevent made of it. Nothing may
	 * crash (ASan/UBSan run this too); the outcome is 0 or a layout error. */
	for (int round = 0; round < 400; round++) {
		struct trace_event *te = NULL;
		struct diag d = { 0 };
		int n = 1 + (int)(rnd(&seed) % 8), err;

		memcpy(b, r.td->data, r.td->size);
		for (int k = 0; k < n; k++) {
			/* half the hits in the binary head (magic .. first sizes) */
			size_t at = round % 2 ? rnd(&seed) % 64 : rnd(&seed) % r.td->size;
			static const unsigned char vals[] = { 0, 0xff, '\n', ':', ';', '%', '(',
							      ' ', '9' };

			b[at] = k % 2 ? (unsigned char)rnd(&seed) :
				vals[rnd(&seed) % sizeof(vals)];
		}
		err = trace_event__new(&te, b, r.td->size, 0, "x", &d);
		ck_assert_msg(err == 0 || err == -DIAG_BAD_FEATURE, "round %d: %d", round,
			      err);
		if (err)
			continue;
		parsed++;
		for (size_t i = 0; i < 40 && i < r.n; i++) {
			const struct trace_event_format *ev =
				trace_event__find(te, r.v[i].config);
			char *s = NULL;

			if (!ev)
				continue;
			ck_assert_int_eq(trace_event__format(te, ev, r.v[i].raw,
							     r.v[i].raw_size, i % 2, &s), 0);
			free(s);
		}
		trace_event__delete(te);
	}
	ck_assert_uint_gt(parsed, 0);	/* the format text was reached too */
	free(b);
	recording_close(&r);
}
END_TEST

/* --- damaged raw records ----------------------------------------------------------- */

START_TEST(test_damaged_raw)
{
	struct recording r;
	struct trace_event *te;
	unsigned char buf[512];
	uint32_t seed = 777;
	const struct trace_event_format *ev;
	char *s = NULL;

	recording_open(&r);
	te = handle_of(&r);
	ev = trace_event__find(te, r.v[0].config);	/* sched_process_exec */
	ck_assert_ptr_nonnull(ev);

	/* API misuse */
	ck_assert_int_eq(trace_event__format(te, NULL, r.v[0].raw, r.v[0].raw_size, 0, &s),
			 -EINVAL);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(trace_event__format(te, ev, buf, 65536, 0, &s), -EINVAL);

	/* every prefix of every one of the first 30 records (a record cut anywhere) */
	for (size_t i = 0; i < 30; i++) {
		const struct trace_event_format *e = trace_event__find(te, r.v[i].config);

		for (uint32_t len = 0; len <= r.v[i].raw_size; len++)
			for (unsigned flags = 0; flags < 2; flags++) {
				ck_assert_int_eq(trace_event__format(te, e, r.v[i].raw, len,
								     flags, &s), 0);
				free(s);
			}
	}

	/* random bytes over real records: __data_loc offsets/lengths, common_type */
	for (int round = 0; round < 3000; round++) {
		const struct tsample *t = &r.v[rnd(&seed) % r.n];
		const struct trace_event_format *e = trace_event__find(te, t->config);
		uint32_t len = t->raw_size <= sizeof(buf) ? t->raw_size : sizeof(buf);

		memcpy(buf, t->raw, len);
		for (int k = 1 + (int)(rnd(&seed) % 4); k > 0; k--)
			buf[rnd(&seed) % len] = (unsigned char)rnd(&seed);
		ck_assert_int_eq(trace_event__format(te, e, buf, len, round % 2, &s), 0);
		free(s);
	}

	/* the largest record: all ones (every __data_loc at 0xffff, 0xffff long) */
	{
		unsigned char *big = malloc(65535);

		ck_assert_ptr_nonnull(big);
		memset(big, 0xff, 65535);
		for (size_t i = 0; i < 5; i++) {
			const struct tsample *t = &r.v[i];
			const struct trace_event_format *e = trace_event__find(te, t->config);

			memcpy(big, t->raw, 2);	/* keep common_type */
			ck_assert_int_eq(trace_event__format(te, e, big, 65535, 0, &s), 0);
			free(s);
			ck_assert_int_eq(trace_event__format(te, e, big, 65535, 1, &s), 0);
			free(s);
		}
		free(big);
	}

	/* a common_type the tracing data does not describe: libtraceevent's text */
	memcpy(buf, r.v[0].raw, r.v[0].raw_size);
	buf[0] = 0x0f;
	buf[1] = 0x27;	/* 9999, little-endian */
	ck_assert_int_eq(trace_event__format(te, ev, buf, r.v[0].raw_size, 0, &s), 0);
	ck_assert_str_eq(s, "[UNKNOWN EVENT]");	/* libtraceevent 1.7 */
	free(s);
	trace_event__delete(te);
	recording_close(&r);
}
END_TEST

/* --- synthetic tracing data ------------------------------------------------------ */

static void put_num(struct testlib_buf *b, uint64_t v, unsigned n, bool big)
{
	unsigned char x[8];

	for (unsigned i = 0; i < n; i++)
		x[big ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
	testlib_buf_add(b, x, n);
}

static void put_part(struct testlib_buf *b, const char *text, unsigned size_bytes,
		     bool big)
{
	put_num(b, strlen(text), size_bytes, big);
	testlib_buf_add(b, text, strlen(text));
}

static const char header_page[] =
	"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
	"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
	"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
	"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:1;\n";

#define COMMON_FIELDS \
	"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n" \
	"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n" \
	"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n" \
	"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"

/* A test event: id 7, fields call_site (unsigned long), val (int), msg (string). */
static const char test_event[] =
	"name: tp\nID: 7\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n"
	"\tfield:int val;\toffset:16;\tsize:4;\tsigned:1;\n"
	"\tfield:__data_loc char[] msg;\toffset:20;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"site=%pS fn=%ps val=%d msg=%s\", (void *)REC->call_site, "
	"(void *)REC->call_site, REC->val, __get_str(msg)\n";

/* TRACING_DATA version 0.6 with one system "test" holding `event`. */
static void synth(struct testlib_buf *b, bool big, const char *event)
{
	memset(b, 0, sizeof(*b));
	testlib_buf_add(b, "\027\010\104tracing0.6", 14);	/* with the version's NUL */
	testlib_buf_add(b, big ? "\1" : "\0", 1);
	testlib_buf_add(b, "\10", 1);
	put_num(b, 4096, 4, big);
	testlib_buf_add(b, "header_page", 12);
	put_part(b, header_page, 8, big);
	testlib_buf_add(b, "header_event", 13);
	put_part(b, "# compressed entry header\n", 8, big);
	put_num(b, 0, 4, big);			/* no ftrace formats */
	put_num(b, 1, 4, big);			/* one system */
	testlib_buf_add(b, "test", 5);
	put_num(b, 1, 4, big);
	put_part(b, event, 8, big);
	put_part(b, "", 4, big);		/* kallsyms */
	put_part(b, "", 4, big);		/* printk formats */
	put_part(b, "1 init\n", 8, big);	/* saved cmdlines */
}

/* The record of test_event: call_site, val, msg "hi". */
static size_t synth_record(unsigned char *p, bool big, uint64_t call_site, int32_t val)
{
	struct testlib_buf b = { 0 };
	size_t n;

	put_num(&b, 7, 2, big);			/* common_type */
	put_num(&b, 0, 2, big);
	put_num(&b, 42, 4, big);		/* common_pid */
	put_num(&b, call_site, 8, big);
	put_num(&b, (uint32_t)val, 4, big);
	put_num(&b, 3u << 16 | 24, 4, big);	/* __data_loc: 3 bytes at offset 24 */
	testlib_buf_add(&b, "hi", 3);
	n = b.len;
	memcpy(p, b.p, n);
	testlib_buf_free(&b);
	return n;
}

static const char *resolve(void *ctx, uint64_t addr, uint64_t *start)
{
	(*(int *)ctx)++;
	if (addr < 0xffffffff81000000ULL || addr >= 0xffffffff81000100ULL)
		return NULL;
	*start = 0xffffffff81000000ULL;
	return "do_thing";
}

START_TEST(test_synthetic_endianness_and_resolver)
{
	for (int big = 0; big < 2; big++) {
		struct testlib_buf b;
		struct trace_event *te;
		const struct trace_event_format *ev;
		unsigned char rec[64];
		size_t n = synth_record(rec, big, 0xffffffff81000010ULL, -5);
		char *s = NULL;
		int calls = 0;

		synth(&b, big, test_event);
		ck_assert_int_eq(trace_event__new(&te, b.p, b.len, 0, "x", NULL), 0);
		ev = trace_event__find(te, 7);
		ck_assert_ptr_nonnull(ev);
		ck_assert_str_eq(trace_event__system(ev), "test");
		ck_assert_str_eq(trace_event__name(ev), "tp");

		/* no symbols: libtraceevent prints the address */
		ck_assert_int_eq(trace_event__format(te, ev, rec, n, 0, &s), 0);
		ck_assert_str_eq(s, "site=0xffffffff81000010 fn=0xffffffff81000010 val=-5 "
				    "msg=hi");
		free(s);

		ck_assert_int_eq(trace_event__set_resolver(te, resolve, &calls), 0);
		ck_assert_int_eq(trace_event__format(te, ev, rec, n, 0, &s), 0);
		ck_assert_str_eq(s, "site=do_thing+0x10 fn=do_thing val=-5 msg=hi");
		free(s);
		ck_assert_int_gt(calls, 0);

		/* --raw-trace: unsigned long in hex, int in decimal, string as text */
		ck_assert_int_eq(trace_event__format(te, ev, rec, n, TRACE_EVENT_RAW, &s), 0);
		ck_assert_str_eq(s, " call_site=0xffffffff81000010 val=-5 msg=hi");
		free(s);

		ck_assert_int_eq(trace_event__set_resolver(te, NULL, NULL), 0);
		ck_assert_int_eq(trace_event__format(te, ev, rec, n, 0, &s), 0);
		ck_assert_str_eq(s, "site=0xffffffff81000010 fn=0xffffffff81000010 val=-5 "
				    "msg=hi");
		free(s);
		trace_event__delete(te);
		testlib_buf_free(&b);
	}
}
END_TEST

START_TEST(test_synthetic_bad_events)
{
	struct testlib_buf b;
	struct trace_event *te;
	struct diag d;
	/* a field far outside any record: refused, not read */
	static const char far_field[] =
		"name: far\nID: 8\nformat:\n" COMMON_FIELDS
		"\tfield:int val;\toffset:70000;\tsize:4;\tsigned:1;\n\n"
		"print fmt: \"val=%d\", REC->val\n";
	/* a format libtraceevent cannot read: left out, the rest is usable */
	static const char garbage[] = "this is not a format file\n";

	synth(&b, false, far_field);
	ck_assert_int_eq(trace_event__new(&te, b.p, b.len, 0, "x", &d), -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "test:far"));
	ck_assert_ptr_nonnull(strstr(d.msg, "field val"));
	testlib_buf_free(&b);

	synth(&b, false, garbage);
	ck_assert_int_eq(trace_event__new(&te, b.p, b.len, 0, "x", &d), 0);
	ck_assert_ptr_null(trace_event__find(te, 7));
	trace_event__delete(te);
	testlib_buf_free(&b);
	trace_event__delete(NULL);
}
END_TEST

/* Print fmts libtraceevent cannot be trusted with, and kernel patterns it can. */
static const char div_by_field[] =
	"name: df\nID: 10\nformat:\n" COMMON_FIELDS
	"\tfield:int a;\toffset:8;\tsize:4;\tsigned:1;\n"
	"\tfield:int b;\toffset:12;\tsize:4;\tsigned:1;\n\n"
	"print fmt: \"q=%d r=%d\", REC->a / 4, REC->a / REC->b\n";

/* __print_hex with a count field and __print_array over a __data_loc array with
 * length / 8, as kernel events do (they write sizeof(u64), which libtraceevent 1.7.1
 * does not evaluate: such an event prints as "[FAILED TO PARSE]" and raw fields) */
static const char dumps[] =
	"name: dump\nID: 11\nformat:\n" COMMON_FIELDS
	"\tfield:unsigned int len;\toffset:8;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u8[] buf;\toffset:12;\tsize:4;\tsigned:0;\n"
	"\tfield:__data_loc u64[] arr;\toffset:16;\tsize:4;\tsigned:0;\n\n"
	"print fmt: \"hex=%s arr=%s\", __print_hex(__get_dynamic_array(buf), REC->len), "
	"__print_array(__get_dynamic_array(arr), __get_dynamic_array_len(arr) / 8, 8)\n";

START_TEST(test_synthetic_unsafe_print_fmts)
{
	struct testlib_buf b;
	struct trace_event *te;
	const struct trace_event_format *ev;
	struct diag d;
	unsigned char rec[64];
	char *s = NULL;

	/* division by a field: refused per sample (b = 0 would trap), raw mode works */
	synth(&b, false, div_by_field);
	ck_assert_int_eq(trace_event__new(&te, b.p, b.len, 0, "x", &d), 0);
	ev = trace_event__find(te, 10);
	ck_assert_ptr_nonnull(ev);
	memset(rec, 0, sizeof(rec));
	rec[0] = 10;	/* common_type */
	rec[8] = 9;	/* a = 9, b = 0 */
	ck_assert_int_eq(trace_event__format(te, ev, rec, 16, 0, &s), -DIAG_BAD_SAMPLE);
	ck_assert_ptr_null(s);
	ck_assert_int_eq(trace_event__format(te, ev, rec, 16, TRACE_EVENT_RAW, &s), 0);
	ck_assert_str_eq(s, " a=9 b=0");
	free(s);
	trace_event__delete(te);
	testlib_buf_free(&b);

	/* dumps: bounded per record */
	synth(&b, false, dumps);
	ck_assert_int_eq(trace_event__new(&te, b.p, b.len, 0, "x", &d), 0);
	ev = trace_event__find(te, 11);
	ck_assert_ptr_nonnull(ev);
	memset(rec, 0, sizeof(rec));
	rec[0] = 11;
	rec[8] = 3;				/* len = 3 */
	rec[12] = 20, rec[14] = 3;		/* buf: 3 bytes at 20 */
	rec[16] = 24, rec[18] = 16;		/* arr: 16 bytes at 24 */
	rec[20] = 0xde, rec[21] = 0xad, rec[22] = 0x01;
	rec[24] = 5, rec[32] = 7;		/* arr = { 5, 7 } */
	ck_assert_int_eq(trace_event__format(te, ev, rec, 40, 0, &s), 0);
	ck_assert_str_eq(s, "hex=de ad 01 arr=5 7");	/* libtraceevent 1.7.1 */
	free(s);
	rec[10] = 1;				/* len = 65539: past any record */
	ck_assert_int_eq(trace_event__format(te, ev, rec, 40, 0, &s), -DIAG_BAD_SAMPLE);
	rec[10] = 0, rec[9] = 0xff;		/* len = 65283: within the pad, zeros */
	ck_assert_int_eq(trace_event__format(te, ev, rec, 40, 0, &s), 0);
	ck_assert_uint_gt(strlen(s), 65283);
	free(s);
	trace_event__delete(te);
	testlib_buf_free(&b);
}
END_TEST

Suite *trace_event_suite(void)
{
	Suite *s = suite_create("trace_event");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_events_of_recording);
	tcase_add_test(tc, test_format_like_perf_script);
	tcase_add_test(tc, test_format_like_perf_report);
	tcase_add_test(tc, test_common_type_picks_the_format);
	tcase_add_test(tc, test_cut_everywhere);
	tcase_add_test(tc, test_layout_errors);
	tcase_add_test(tc, test_parser_trap_reported);
	tcase_add_test(tc, test_corrupt_bytes);
	tcase_add_test(tc, test_damaged_raw);
	tcase_add_test(tc, test_synthetic_endianness_and_resolver);
	tcase_add_test(tc, test_synthetic_bad_events);
	tcase_add_test(tc, test_synthetic_unsafe_print_fmts);
	suite_add_tcase(s, tc);
	return s;
}
