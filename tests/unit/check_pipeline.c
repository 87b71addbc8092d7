/*
 * Unit tests of resolve/pipeline: the sample pipeline gives, at every worker count,
 * what resolving each sample on the replaying thread in its turn gives (the serial
 * reference below: perf's order, machine__resolve() at the sample); dsos are loaded
 * between passes (jobs stop and go on), the first kernel sample is resolved in its
 * turn, a sink's filter drops samples, and a failing sample stops the delivery with
 * its record's file and offset, the samples before it emitted; and resolve/filter's
 * matching (perf's strlist and intlist, -C, -S).
 *
 * Recording: samples/callchain.data (cpu-clock, -g: user and kernel chains); its
 * build-id cache (samples/buildid-cache, unpacked by make check) gives the symbols
 * where it is there; the comparisons hold either way.
 */
#include <check.h>
#include <errno.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/diag.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/symbol.h"
#include "reader/session.h"
#include "resolve/filter.h"
#include "resolve/pipeline.h"

#include "banned.h"

#define PATH "samples/callchain.data"

/* A growable text. */
struct text {
	char *p;
	size_t len, cap;
};

static void put(struct text *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void put(struct text *t, const char *fmt, ...)
{
	va_list ap;
	int n;

	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->p ? t->p + t->len : NULL, t->p ? t->cap - t->len : 0, fmt, ap);
		va_end(ap);
		ck_assert_int_ge(n, 0);
		if (t->p && (size_t)n < t->cap - t->len)
			break;
		t->cap = (t->cap + (size_t)n + 1) * 2;
		t->p = realloc(t->p, t->cap);
		ck_assert_ptr_nonnull(t->p);
	}
	t->len += (size_t)n;
}

/* How a sample's addresses are resolved: serially or through the pipeline. */
typedef int (*resolve_fn)(void *ctx, uint16_t cpumode, uint64_t ip,
			  struct addr_location *al);

struct fmt_ctx {
	resolve_fn resolve;
	void *ctx;
	struct text *out;
	int err;
};

static void put_loc(struct fmt_ctx *f, uint16_t cpumode, uint64_t ip)
{
	struct addr_location al;

	if (f->err || (f->err = f->resolve(f->ctx, cpumode, ip, &al)))
		return;
	put(f->out, " %" PRIx64 "=%s@%s+%" PRIx64, ip, al.sym ? symbol__name(al.sym) : "?",
	    al.dso ? dso__name(al.dso) : "?", al.addr);
}

static int chain_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct fmt_ctx *f = ctx;

	put_loc(f, cpumode, ip);
	return f->err;
}

/* One sample's line: pid/tid comm, its own address, its chain's frames. */
static int fmt_sample(struct fmt_ctx *f, const struct sample *s, const char *comm)
{
	size_t mark = f->out->len;

	put(f->out, "%u/%u %s:", s->pid, s->tid, comm);
	put_loc(f, s->misc & MISC_CPUMODE_MASK, s->ip);
	if (!f->err && machine__callchain_walk(s, false, 127, chain_frame, f) == 1)
		put(f->out, " (dropped)");
	put(f->out, "\n");
	if (f->err)
		f->out->len = mark;
	return f->err;
}

static struct machine *new_machine(void)
{
	struct dsos_opts o = { .buildid_dir = "samples/buildid-cache",
			       .debug_dir = "samples/buildid-cache/none",
			       .proc_kallsyms = "/nonexistent", .kernel_notes = "/nonexistent",
			       .no_self_vdso = true };
	struct machine *m = NULL;

	ck_assert_int_eq(machine__new_opts(&m, &o), 0);
	return m;
}

static struct session *open_session(unsigned jobs)
{
	struct session_opts o = { .path = PATH, .jobs = jobs };
	struct session *s = NULL;
	struct diag d = { 0 };

	ck_assert_int_eq(session__open(&s, &o, &d), 0);
	ck_assert_int_eq(session__load(s, &d), 0);
	return s;
}

/* ---- the serial reference: every sample resolved on the replaying thread -------- */

struct serial {
	struct machine *m;
	struct thread *t;
	struct text out;
	size_t samples;
};

static int serial_resolve(void *ctx, uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	struct serial *sr = ctx;

	machine__resolve(sr->m, sr->t, cpumode, ip, al);
	return 0;
}

static int serial_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct serial *sr = ctx;

	for (size_t i = 0; i < n; i++) {
		const struct record_ref *ref = recs[i];
		struct fmt_ctx f = { serial_resolve, sr, &sr->out, 0 };
		struct sample s;

		if (!ref->evsel)
			continue;
		if (ref->type != REC_SAMPLE) {
			ck_assert_int_eq(machine__process_record(sr->m, ref), 0);
			continue;
		}
		ck_assert_int_eq(sample__parse(&s, &ref->evsel->attr, ref->data, ref->size), 0);
		sr->t = machine__findnew_thread(sr->m, (int32_t)s.pid, (int32_t)s.tid);
		ck_assert_ptr_nonnull(sr->t);
		(void)machine__sample_comm(sr->m, sr->t);
		ck_assert_int_eq(fmt_sample(&f, &s, thread__comm(sr->t)), 0);
		sr->samples++;
	}
	return 0;
}

/* pipeline_sink.every_record's reference: a line for each record that is no sample,
 * in its turn ("rec TYPE @OFFSET"). */
static int serial_batch_every(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct serial *sr = ctx;

	for (size_t i = 0; i < n; i++) {
		if (recs[i]->type != REC_SAMPLE || !recs[i]->evsel)
			put(&sr->out, "rec %u @%" PRIu64 "\n", recs[i]->type, recs[i]->offset);
		ck_assert_int_eq(serial_batch(ctx, &recs[i], 1), 0);
	}
	return 0;
}

static void serial_text_as(struct text *out, size_t *samples, bool every)
{
	struct session *s = open_session(1);
	struct serial sr = { .m = new_machine() };

	ck_assert_int_eq(session__deliver(s, every ? serial_batch_every : serial_batch, &sr, 0),
			 0);
	*out = sr.out;
	*samples = sr.samples;
	machine__delete(sr.m);
	session__close(s);
}

static void serial_text(struct text *out, size_t *samples)
{
	serial_text_as(out, samples, false);
}

/* ---- a sink of the pipeline that formats the same lines ------------------------- */

struct chunk {
	struct text t;
};

struct run {
	struct text out;
	size_t samples;		/* sample() calls that returned 0 */
	size_t again;		/* ... that returned PIPELINE_AGAIN */
	size_t fail_at;		/* sample() fails at this sample (1-based), 0 = never */
	size_t seen;		/* samples given to prepare() */
	bool drop_odd_tids;
	bool failed;			/* the failing sample's record: */
	uint16_t failed_file;		/* (copied: the record is let go after the
					 * delivery) */
	uint64_t failed_offset;
};

struct pctx {
	struct pipeline_thread *pt;
	const struct resolved_sample *rs;
};

static int pipe_resolve(void *ctx, uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	struct pctx *pc = ctx;

	return pipeline__resolve(pc->pt, pc->rs, cpumode, ip, al);
}

static int sink_prepare(void *ctx, struct resolved_sample *rs)
{
	struct run *r = ctx;

	rs->aux_int = (int)++r->seen;
	if (r->drop_odd_tids && (rs->s.tid & 1))
		return PIPELINE_DROP;
	return 0;
}

static int sink_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		       const struct resolved_sample *rs)
{
	struct run *r = ctx;
	struct chunk *c = chunk;
	struct pctx pc = { pt, rs };
	struct fmt_ctx f = { pipe_resolve, &pc, &c->t, 0 };
	int err;

	(void)state;
	if (r->fail_at && (size_t)rs->aux_int == r->fail_at) {
		r->failed = true;
		r->failed_file = rs->ref->file;
		r->failed_offset = rs->ref->offset;
		return -EINVAL;
	}
	err = fmt_sample(&f, &rs->s, rs->comm);
	/* counts: only the calling thread runs emit(); these are atomic enough for a
	 * test that reads them after the delivery */
	__atomic_add_fetch(err == PIPELINE_AGAIN ? &r->again : &r->samples, 1, __ATOMIC_RELAXED);
	return err;
}

static int sink_emit(void *ctx, void *chunk)
{
	struct run *r = ctx;
	struct chunk *c = chunk;

	if (c->t.len)
		put(&r->out, "%.*s", (int)c->t.len, c->t.p);
	c->t.len = 0;
	return 0;
}

static void sink_chunk_exit(void *ctx, void *chunk)
{
	(void)ctx;
	free(((struct chunk *)chunk)->t.p);
}

static const struct pipeline_sink test_sink = {
	.prepare = sink_prepare,
	.chunk_size = sizeof(struct chunk),
	.chunk_exit = sink_chunk_exit,
	.sample = sink_sample,
	.emit = sink_emit,
};

/* pipeline_sink.every_record: records that are no sample get their line too */
static int every_prepare(void *ctx, struct resolved_sample *rs)
{
	struct run *r = ctx;

	if (rs->record_only) {
		ck_assert_int_eq(rs->parse_err, 0);
		ck_assert_ptr_null(rs->t);
		r->seen++;
	}
	return 0;
}

static int every_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
			const struct resolved_sample *rs)
{
	struct chunk *c = chunk;

	if (!rs->record_only)
		return sink_sample(ctx, state, chunk, pt, rs);
	put(&c->t, "rec %u @%" PRIu64 "\n", rs->ref->type, rs->ref->offset);
	return 0;
}

static struct pipeline_sink every_sink(size_t job_items)
{
	struct pipeline_sink k = {
		.prepare = every_prepare,
		.chunk_size = sizeof(struct chunk),
		.chunk_exit = sink_chunk_exit,
		.sample = every_sample,
		.emit = sink_emit,
		.every_record = true,
		.job_items = job_items,
	};

	return k;
}

/* The pipeline's text at @p jobs in batches of 64 records (a recording of a few
 * hundred samples crosses many), through pipeline__deliver() (batches held: a
 * batch's jobs finish during the next) or, with @p plain, session__deliver() with
 * pipeline__on_batch() (each batch finished before the next); returns what the
 * delivery returned. */
static int pipeline_text_as(unsigned jobs, bool plain, struct run *r, uint16_t *bad_file,
			    uint64_t *bad_offset, bool *bad)
{
	struct session *s = open_session(jobs);
	struct machine *m = new_machine();
	struct pipeline *p = NULL;
	int err;

	ck_assert_int_eq(pipeline__new(&p, m, session__workqueue(s), &test_sink, r), 0);
	err = plain ? session__deliver(s, pipeline__on_batch, p, 64) : pipeline__deliver(p, s, 64);
	*bad = pipeline__bad(p, bad_file, bad_offset);
	pipeline__delete(p);
	machine__delete(m);
	session__close(s);
	return err;
}

static int pipeline_text(unsigned jobs, struct run *r, uint16_t *bad_file,
			 uint64_t *bad_offset, bool *bad)
{
	return pipeline_text_as(jobs, false, r, bad_file, bad_offset, bad);
}

static size_t lines(const struct text *t)
{
	size_t n = 0;

	for (size_t i = 0; i < t->len; i++)
		n += t->p[i] == '\n';
	return n;
}

START_TEST(test_same_as_serial_at_every_jobs)
{
	static const unsigned jobs[] = { 1, 2, 4 };
	struct text ref;
	size_t nr;

	serial_text(&ref, &nr);
	ck_assert_uint_gt(nr, 100);
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		struct run r = { 0 };
		uint16_t file;
		uint64_t off;
		bool bad;

		ck_assert_int_eq(pipeline_text(jobs[k], &r, &file, &off, &bad), 0);
		ck_assert(!bad);
		ck_assert_uint_eq(r.out.len, ref.len);
		ck_assert(!memcmp(r.out.p, ref.p, ref.len));
		ck_assert_uint_eq(lines(&r.out), nr);
		ck_assert_uint_eq(r.samples, nr);
		/* the dsos were loaded between passes: some jobs stopped for them */
		ck_assert_uint_gt(r.again, 0);
		free(r.out.p);

		/* each batch finished before the next */
		memset(&r, 0, sizeof(r));
		ck_assert_int_eq(pipeline_text_as(jobs[k], true, &r, &file, &off, &bad), 0);
		ck_assert_uint_eq(r.out.len, ref.len);
		ck_assert(!memcmp(r.out.p, ref.p, ref.len));
		free(r.out.p);
	}
	free(ref.p);
}
END_TEST

/* Every record an item, in its turn with the samples, at every worker count and job
 * size (the dump's pipeline) */
START_TEST(test_every_record)
{
	static const unsigned jobs[] = { 1, 2, 4 };
	static const size_t items[] = { 1, 7, 0 };
	struct text ref;
	size_t nr;

	serial_text_as(&ref, &nr, true);
	ck_assert_uint_gt(nr, 100);
	for (size_t k = 0; k < sizeof(jobs) / sizeof(jobs[0]); k++) {
		for (size_t i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
			struct pipeline_sink sink = every_sink(items[i]);
			struct session *s = open_session(jobs[k]);
			struct machine *m = new_machine();
			struct pipeline *p = NULL;
			struct run r = { 0 };

			ck_assert_int_eq(pipeline__new(&p, m, session__workqueue(s), &sink, &r), 0);
			ck_assert_int_eq(pipeline__deliver(p, s, 64), 0);
			pipeline__delete(p);
			machine__delete(m);
			session__close(s);
			ck_assert_uint_eq(r.out.len, ref.len);
			ck_assert(!memcmp(r.out.p, ref.p, ref.len));
			ck_assert_uint_eq(r.samples, nr);
			ck_assert_uint_eq(lines(&r.out), nr + r.seen);
			ck_assert_uint_gt(r.seen, 10);
			free(r.out.p);
		}
	}
	free(ref.p);
}
END_TEST

START_TEST(test_drop)
{
	struct run all = { 0 }, some = { .drop_odd_tids = true };
	uint16_t file;
	uint64_t off;
	bool bad;
	size_t odd = 0;

	ck_assert_int_eq(pipeline_text(2, &all, &file, &off, &bad), 0);
	ck_assert_int_eq(pipeline_text(2, &some, &file, &off, &bad), 0);
	/* every line of the filtered run is a line of the whole run with an even tid,
	 * in the same order */
	for (const char *p = all.out.p, *q = some.out.p; p < all.out.p + all.out.len;) {
		const char *e = memchr(p, '\n', (size_t)(all.out.p + all.out.len - p));
		unsigned pid, tid;

		ck_assert_ptr_nonnull(e);
		ck_assert_int_eq(sscanf(p, "%u/%u", &pid, &tid), 2);
		if (tid & 1) {
			odd++;
		} else {
			ck_assert(!memcmp(p, q, (size_t)(e - p + 1)));
			q += e - p + 1;
		}
		p = e + 1;
	}
	ck_assert_uint_gt(odd, 0);
	ck_assert_uint_eq(lines(&some.out) + odd, lines(&all.out));
	free(all.out.p);
	free(some.out.p);
}
END_TEST

START_TEST(test_failing_sample)
{
	struct text ref;
	size_t nr;

	serial_text(&ref, &nr);
	for (unsigned jobs = 1; jobs <= 3; jobs += 2) {
		struct run r = { .fail_at = 150 };
		uint16_t file = 99;
		uint64_t off = 0;
		bool bad = false;
		const char *p = ref.p;

		ck_assert_int_eq(pipeline_text(jobs, &r, &file, &off, &bad), -EINVAL);
		ck_assert(bad);
		ck_assert(r.failed);
		ck_assert_uint_eq(file, r.failed_file);
		ck_assert_uint_eq(off, r.failed_offset);
		/* what was emitted is the reference's first lines, none from the failed
		 * sample on: the 149 before it */
		ck_assert_uint_eq(lines(&r.out), 149);
		ck_assert(!memcmp(r.out.p ? r.out.p : "", p, r.out.len));
		free(r.out.p);
	}
	free(ref.p);
}
END_TEST

/* resolve/filter: perf's strlist and intlist matching, -C's bitmap, -S's address form */
START_TEST(test_filter)
{
	struct sample_filter f;
	struct thread t = { .pid = 10, .tid = 12 };
	struct dsos_opts dopts = { .no_self_vdso = true };
	struct dsos *ds = NULL;
	struct dso *libc, *exe;
	struct symbol sym = { .name = "main" };
	struct addr_location al = { .sym = &sym };

	ck_assert_int_eq(sample_filter__init(&f, &(struct sample_filter_opts){ 0 }), 0);
	ck_assert(sample_filter__cpu(&f, 3) && sample_filter__cpu(&f, -1));
	ck_assert(!sample_filter__thread(&f, &t, "perl") && !sample_filter__dso(&f, NULL));
	ck_assert(!sample_filter__symbol(&f, &al, 0x10));
	sample_filter__exit(&f);

	ck_assert_int_eq(sample_filter__init(&f, &(struct sample_filter_opts){
		.comms = "bash,perl", .pids = ",10", .tids = "12", .cpus = "0-2,5",
		.dsos = "libc.so.6", .symbols = "0x10,other" }), 0);
	ck_assert(sample_filter__cpu(&f, 0) && sample_filter__cpu(&f, 2) &&
		  sample_filter__cpu(&f, 5));
	ck_assert(!sample_filter__cpu(&f, 3) && !sample_filter__cpu(&f, 6) &&
		  !sample_filter__cpu(&f, -1) && !sample_filter__cpu(&f, 4095));
	ck_assert(!sample_filter__thread(&f, &t, "perl"));
	ck_assert(sample_filter__thread(&f, &t, "per"));	/* whole items only */
	t.tid = 13;
	ck_assert(sample_filter__thread(&f, &t, "perl"));
	t.tid = 12;
	t.pid = 0;	/* an empty item of --pid is 0, as perf's strtol makes it */
	ck_assert(!sample_filter__thread(&f, &t, "perl"));
	ck_assert_int_eq(dsos__new(&ds, &dopts), 0);
	libc = dsos__findnew(ds, "/usr/lib/x86_64-linux-gnu/libc.so.6");
	exe = dsos__findnew(ds, "/usr/bin/perl");
	ck_assert(libc && exe);
	ck_assert(!sample_filter__dso(&f, libc) && sample_filter__dso(&f, exe));
	ck_assert(sample_filter__dso(&f, NULL));	/* no map: out when there is a list */
	/* -S: the sample's address in perf's "0x..." form keeps it, its symbol's name
	 * not listed; without a symbol it is out */
	ck_assert(!sample_filter__symbol(&f, &al, 0x10));
	ck_assert(sample_filter__symbol(&f, &al, 0x11));
	al.sym = NULL;
	ck_assert(sample_filter__symbol(&f, &al, 0x10));
	sample_filter__exit(&f);

	ck_assert_int_eq(sample_filter__init(&f, &(struct sample_filter_opts){ .cpus = "" }), 0);
	ck_assert(!sample_filter__cpu(&f, 0));	/* perf: an empty -C selects no cpu */
	sample_filter__exit(&f);
	ck_assert_int_eq(sample_filter__init(&f, &(struct sample_filter_opts){ .cpus = "2-1" }),
			 -EINVAL);
	ck_assert_int_eq(sample_filter__init(&f, &(struct sample_filter_opts){ .cpus = "4096" }),
			 -EINVAL);
	dsos__delete(ds);
}
END_TEST

Suite *pipeline_suite(void)
{
	Suite *s = suite_create("pipeline");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_same_as_serial_at_every_jobs);
	tcase_add_test(tc, test_every_record);
	tcase_add_test(tc, test_drop);
	tcase_add_test(tc, test_failing_sample);
	tcase_add_test(tc, test_filter);
	suite_add_tcase(s, tc);
	return s;
}
