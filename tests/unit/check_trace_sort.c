/*
 * Unit tests of report/trace-sort and of the trace key in report/sort: perf's default
 * sort order for tracepoint recordings, the interned Trace output texts of
 * samples/trace.data, perf's refusal of tracepoints without a format, the bounds of a
 * pipe TRACING_DATA record, and the key's comparison, lazy width and printing.
 *
 * Expected values come from perf 6.1 (linux-perf 6.1.192) on samples/trace.data:
 *   `perf report --stdio -i samples/trace.data` (its default sort is `trace`): 28
 *       sched_switch entries, 13 sched_wakeup, 7 sched_process_exec, 6 _fork, 7 _exit
 *       (61 distinct texts), the first sched_switch entry's text below;
 *   `... -s trace --raw-trace`: the same entry's fields, each with a leading space;
 *   `... -s comm,trace`: sched_process_exec entries of distinct commands are never
 *       compared by text, their column stays 12 wide ("filename=/us").
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/diag.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "report/sort.h"
#include "resolve/trace-sort.h"

#include "banned.h"

#define TRACE_PATH "tests/unit/data/trace.data"

static const char first_switch[] =
	"prev_comm=dd prev_pid=32526 prev_prio=120 prev_state=S ==> next_comm=gzip "
	"next_pid=32527 next_prio=120";
static const char first_switch_raw[] =
	" prev_comm=dd prev_pid=32526 prev_prio=120 prev_state=1 next_comm=gzip "
	"next_pid=32527 next_prio=120";

static struct session *open_session(const char *path)
{
	struct session_opts o = { .path = path, .jobs = 1 };
	struct session *s = NULL;
	struct diag d = { 0 };

	ck_assert_int_eq(session__open(&s, &o, &d), 0);
	ck_assert_int_eq(session__load(s, &d), 0);
	return s;
}

START_TEST(test_default_sort_order)
{
	struct session *s = open_session(TRACE_PATH);

	ck_assert(trace_sort__has_tracepoints(session__evlist(s)));
	ck_assert(trace_sort__default_is_trace(session__evlist(s), false));
	/* perf chooses a pipe's order before it knows the events */
	ck_assert(!trace_sort__default_is_trace(session__evlist(s), true));
	session__close(s);

	s = open_session("tests/unit/data/plain.data");
	ck_assert(!trace_sort__has_tracepoints(session__evlist(s)));
	ck_assert(!trace_sort__default_is_trace(session__evlist(s), false));
	session__close(s);
}
END_TEST

/* Every sample's text, through trace_sort__open() as the report makes it. */
struct texts {
	struct trace_sort *ts;
	const char **v;		/* one per sample, in delivery order */
	size_t n, cap;
};

static int collect(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct texts *t = ctx;

	for (size_t i = 0; i < n; i++) {
		struct diag d = { 0 };
		struct sample smp;

		if (recs[i]->type != REC_SAMPLE || !recs[i]->evsel)
			continue;
		ck_assert_int_eq(sample__parse(&smp, &recs[i]->evsel->attr, recs[i]->data,
					       recs[i]->size), 0);
		if (t->n == t->cap) {
			t->cap = t->cap ? 2 * t->cap : 1024;
			t->v = realloc(t->v, t->cap * sizeof(*t->v));
			ck_assert_ptr_nonnull(t->v);
		}
		ck_assert_int_eq(trace_sort__text(t->ts, recs[i]->evsel, smp.raw, smp.raw_size,
						  "t.data", recs[i]->offset, &t->v[t->n], &d), 0);
		ck_assert_ptr_nonnull(t->v[t->n]);
		t->n++;
	}
	return 0;
}

static size_t distinct(const struct texts *t)
{
	size_t nr = 0;

	for (size_t i = 0; i < t->n; i++) {
		size_t k = 0;

		while (k < i && t->v[k] != t->v[i])
			k++;
		/* interned: equal texts are one pointer */
		for (size_t j = 0; j < i && k == i; j++)
			ck_assert_str_ne(t->v[j], t->v[i]);
		nr += k == i;
	}
	return nr;
}

START_TEST(test_texts_of_recording)
{
	for (int raw = 0; raw < 2; raw++) {
		struct session *s = open_session(TRACE_PATH);
		struct texts t = { 0 };
		struct diag d = { 0 };
		bool seen = false;

		ck_assert_int_eq(trace_sort__open(&t.ts, session__evlist(s), session__features(s),
						  session__is_pipe(s), NULL, raw, TRACE_PATH, &d), 0);
		ck_assert_ptr_nonnull(t.ts);
		ck_assert_int_eq(session__deliver(s, collect, &t, 0), 0);
		ck_assert_uint_eq(t.n, 1285 + 650 + 7 + 6 + 7);
		if (!raw)
			ck_assert_uint_eq(distinct(&t), 28 + 13 + 7 + 6 + 7);
		for (size_t i = 0; i < t.n; i++)
			seen |= !strcmp(t.v[i], raw ? first_switch_raw : first_switch);
		ck_assert(seen);
		trace_sort__delete(t.ts);
		free(t.v);
		session__close(s);
	}
}
END_TEST

START_TEST(test_no_tracepoints_no_handle)
{
	struct session *s = open_session("tests/unit/data/plain.data");
	const struct evsel *ev = session__evlist(s)->evsels[0];
	struct trace_sort *ts = (void *)1;
	struct diag d = { 0 };
	const char *text = "x";

	ck_assert_int_eq(trace_sort__open(&ts, session__evlist(s), session__features(s),
					  session__is_pipe(s), NULL, false, "p", &d), 0);
	ck_assert_ptr_null(ts);
	/* not a tracepoint: no text (perf prints N/A) */
	ck_assert_int_eq(trace_sort__new(&ts, NULL, false, "p"), 0);
	ck_assert_int_eq(trace_sort__text(ts, ev, NULL, 0, "t.data", 0, &text, &d), 0);
	ck_assert_ptr_null(text);
	trace_sort__delete(ts);
	session__close(s);
}
END_TEST

START_TEST(test_incompatible_file_format)
{
	struct session *s = open_session(TRACE_PATH);
	const struct evsel *ev = session__evlist(s)->evsels[0];
	struct trace_sort *ts;
	struct diag d = { 0 };
	const char *text;

	/* no tracing data at all: every tracepoint lacks its format */
	ck_assert_int_eq(trace_sort__new(&ts, NULL, false, "t.data"), 0);
	ck_assert_int_eq(trace_sort__load(ts, NULL, 0, 0, &d), 0);
	ck_assert_int_eq(trace_sort__check(ts, session__evlist(s), &d), -DIAG_BAD_FEATURE);
	ck_assert_ptr_nonnull(strstr(d.msg, "incompatible file format"));
	ck_assert_str_eq(d.path, "t.data");
	/* a sample of such an event is an error, not a crash */
	memset(&d, 0, sizeof(d));
	ck_assert_int_eq(trace_sort__text(ts, ev, "", 0, "t.data", 1234, &text, &d), -DIAG_BAD_SAMPLE);
	ck_assert_uint_eq(d.offset, 1234);
	trace_sort__delete(ts);
	session__close(s);
}
END_TEST

START_TEST(test_pipe_record_bounds)
{
	unsigned char rec[16] = { 0 };
	struct record_ref ref = { .data = rec, .size = 12, .type = REC_HEADER_TRACING_DATA,
				  .offset = 100, .disk_size = 12 + 4 };
	struct trace_sort *ts;
	struct diag d = { 0 };

	ck_assert_int_eq(trace_sort__new(&ts, NULL, false, "pipe"), 0);
	rec[8] = 5;	/* 5 bytes of payload, 4 on disk */
	ck_assert_int_eq(trace_sort__load_record(ts, &ref, ref.offset, &d), -DIAG_PIPE);
	ck_assert_uint_eq(d.offset, 100);
	ref.size = 8;
	ck_assert_int_eq(trace_sort__load_record(ts, &ref, ref.offset, &d), -DIAG_PIPE);
	/* other records are not its business */
	ref.type = REC_SAMPLE;
	ck_assert_int_eq(trace_sort__load_record(ts, &ref, ref.offset, &d), 0);
	/* 4 bytes that are no tracing data: the parser's error */
	ref.type = REC_HEADER_TRACING_DATA;
	ref.size = 12;
	rec[8] = 4;
	ck_assert_int_eq(trace_sort__load_record(ts, &ref, ref.offset, &d), -DIAG_BAD_FEATURE);
	trace_sort__delete(ts);
}
END_TEST

/* The line of e (no newline) with widths from the entries in ws. */
static char *line(const struct sort_list *l, const struct hist_entry *const *ws, size_t n,
		  const struct hist_entry *e)
{
	struct sort_widths w;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	sort_widths__init(&w, l);
	for (size_t i = 0; i < n; i++)
		sort_widths__add(&w, l, ws[i]);
	sort_widths__finish(&w, l);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sort_list__fprintf_entry(l, &w, e, 100, f), 0);
	fclose(f);
	text[strcspn(text, "\n")] = 0;
	return text;
}

START_TEST(test_trace_key)
{
	struct sort_opts o = { .sort_order = "comm,trace" };
	struct sort_list l;
	char err[128] = "", *s;
	struct hist_entry a = { .comm = "sh", .trace = "comm=sh pid=1 long text" },
			  b = { .comm = "dd", .trace = "comm=dd pid=2 longer text" },
			  c = { .comm = "sh", .trace = "comm=sh pid=3 x" },
			  na = { .comm = "sh" };
	const struct hist_entry *all[] = { &a, &b, &c };

	a.stat.period = b.stat.period = c.stat.period = na.stat.period = 50;
	ck_assert_int_eq(sort_list__setup(&l, &o, err, sizeof(err)), 0);
	ck_assert(l.need & SORT_NEED_TRACE);
	ck_assert(!l.hash_safe);	/* replayed: which texts are computed matters */

	/* commands differ: the texts are not looked at (perf does not format them) */
	ck_assert_int_gt(sort_list__cmp(&l, &a, &b), 0);
	ck_assert(!a.trace_done && !b.trace_done);
	/* same command: by text, both formatted */
	ck_assert_int_gt(sort_list__cmp(&l, &c, &a), 0);
	ck_assert(a.trace_done && c.trace_done && !b.trace_done);
	ck_assert_int_eq(sort_list__cmp(&l, &a, &a), 0);

	/* only formatted texts widen the column; the others are cut to it */
	for (size_t i = 0; i < 3; i++)
		((struct hist_entry *)all[i])->src_width = all[i]->trace_done ? SORT_NEED_TRACE : 0;
	s = line(&l, all, 3, &b);
	ck_assert_str_eq(s, "    50.00%  dd       comm=dd pid=2 longer te");
	free(s);
	/* not a tracepoint */
	s = line(&l, all, 0, &na);
	ck_assert_str_eq(s, "    50.00%  sh       N/A");
	free(s);
	/* nothing formatted: the header's 12 */
	a.src_width = 0;
	s = line(&l, all, 1, &a);
	ck_assert_str_eq(s, "    50.00%  sh       comm=sh pid=");
	free(s);

	/* "+KEYS" appends to perf's default, which is trace for tracepoint files */
	o = (struct sort_opts){ .sort_order = "+pid", .default_order = "trace" };
	ck_assert_int_eq(sort_list__setup(&l, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.nr_fields, 3);
	o.sort_order = NULL;
	ck_assert_int_eq(sort_list__setup(&l, &o, err, sizeof(err)), 0);
	ck_assert_uint_eq(l.nr_fields, 2);
	ck_assert(l.need & SORT_NEED_TRACE);
}
END_TEST

Suite *trace_sort_suite(void)
{
	Suite *s = suite_create("trace_sort");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_default_sort_order);
	tcase_add_test(tc, test_texts_of_recording);
	tcase_add_test(tc, test_no_tracepoints_no_handle);
	tcase_add_test(tc, test_incompatible_file_format);
	tcase_add_test(tc, test_pipe_record_bounds);
	tcase_add_test(tc, test_trace_key);
	suite_add_tcase(s, tc);
	return s;
}
