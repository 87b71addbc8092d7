/*
 * Unit tests of convert/: the rows of perf's database export (threads, comms and their
 * links, ids on first use, "unknown" symbols, skipped tracepoint samples), the database
 * writer (single and multi-row INSERTs), and dirconvert's output-file rules (temporary
 * file, no overwrite without force, clean-up on damaged input).
 *
 * The export expectations are perf 6.1's, observed on databases made by
 * `perf script -s export-to-sqlite.py` (tests/convert/ compares whole databases).
 */
#include <check.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* unlink, truncate */

#include "convert/cmd.h"
#include "convert/db-writer.h"
#include "convert/export.h"
#include "convert/pg-schema.h"
#include "convert/pg-writer.h"
#include "convert/schema.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/record.h"
#include "reader/session.h"
#include "machine/machine.h"
#include "util/workqueue.h"
#include "testlib.h"

#include "banned.h"

/* ---- helpers ----------------------------------------------------------------- */

static char *path_in(const char *dir, const char *name)
{
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/%s", dir, name), 0);
	return p;
}

static bool exists(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0;
}

/* One integer from a query. */
static int64_t query_int(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v;

	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static void assert_integrity(sqlite3 *db)
{
	sqlite3_stmt *st;

	ck_assert_int_eq(sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL),
			 SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "ok");
	sqlite3_finalize(st);
}

/* ---- exporter ----------------------------------------------------------------- */

struct rows {
	struct export_row v[256];
	size_t n;
};

static int collect(void *ctx, const struct export_row *r)
{
	struct rows *rs = ctx;

	ck_assert_uint_lt(rs->n, 256);
	rs->v[rs->n++] = *r;
	return 0;
}

/* Rows of one table, in the order produced. */
static size_t rows_of(const struct rows *rs, enum export_table t,
		      const struct export_row **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < rs->n; i++)
		if (rs->v[i].table == t && n < cap)
			out[n++] = &rs->v[i];
	return n;
}

/* Records of a little recording, fed to the exporter one by one (batches of one
 * record), or kept and fed as one batch (feed_flush()). */
struct feed {
	struct evlist el;
	struct evsel *ev, *tp;
	struct machine *m;
	struct workqueue *wq;
	struct exporter *ex;
	struct rows rows;
	bool batched;			/* keep the records for feed_flush() */
	struct testlib_buf kept[32];
	struct record_ref refs[32];
	size_t nr_kept;
};

/* An exporter whose pipeline has @p workers workers. */
static void feed_init_wq(struct feed *f, unsigned flags, unsigned workers, bool batched)
{
	struct event_attr a = testlib_attr(0), t = testlib_attr(SAMPLE_RAW);
	struct export_sink sink = { collect, NULL, &f->rows };
	uint64_t id1 = 1, id2 = 2;

	memset(f, 0, sizeof(*f));
	t.type = ATTR_TYPE_TRACEPOINT;
	evlist__init(&f->el);
	ck_assert_int_eq(evlist__add(&f->el, &a, &id1, 1, &f->ev), 0);
	ck_assert_int_eq(evlist__add(&f->el, &t, &id2, 1, &f->tp), 0);
	ck_assert_int_eq(machine__new(&f->m, "/dev/null"), 0);
	ck_assert_int_eq(workqueue__new(&f->wq, workers), 0);
	ck_assert_int_eq(exporter__new(&f->ex, f->m, &f->el, flags, &sink), 0);
	ck_assert_int_eq(exporter__begin(f->ex, f->wq), 0);
	f->batched = batched;
}

static void feed_init(struct feed *f, unsigned flags)
{
	feed_init_wq(f, flags, 0, false);
}

/* The kept records delivered as one batch. */
static void feed_flush(struct feed *f)
{
	const struct record_ref *v[32];

	for (size_t i = 0; i < f->nr_kept; i++)
		v[i] = &f->refs[i];
	ck_assert_int_eq(exporter__on_batch(f->ex, v, f->nr_kept), 0);
	for (size_t i = 0; i < f->nr_kept; i++)
		testlib_buf_free(&f->kept[i]);
	f->nr_kept = 0;
}

static void feed_exit(struct feed *f)
{
	exporter__delete(f->ex);
	workqueue__delete(f->wq);
	machine__delete(f->m);
	evlist__exit(&f->el);
}

static void feed_buf(struct feed *f, struct evsel *ev, struct testlib_buf *b)
{
	struct record_ref ref = { .data = b->p, .size = (uint32_t)b->len, .evsel = ev };
	const struct record_ref *one = &f->refs[f->nr_kept];
	struct record_header h;

	record_header__get(&h, b->p);
	ref.type = h.type;
	ck_assert_uint_lt(f->nr_kept, 32);
	f->kept[f->nr_kept] = *b;
	f->refs[f->nr_kept] = ref;
	if (f->batched) {
		f->nr_kept++;
		return;
	}
	ck_assert_int_eq(exporter__on_batch(f->ex, &one, 1), 0);
	testlib_buf_free(b);
}

static void feed_comm(struct feed *f, uint32_t pid, uint32_t tid, const char *comm,
		      uint64_t time, bool exec)
{
	struct testlib_buf b = { 0 };
	uint16_t misc = exec ? MISC_MMAP_DATA /* COMM_EXEC */ : 0;

	testlib_rec_comm(&b, &f->ev->attr, pid, tid, comm, time, 1);
	memcpy(b.p + 4, &misc, 2);
	feed_buf(f, f->ev, &b);
}

static void feed_fork(struct feed *f, uint32_t pid, uint32_t ppid, uint32_t tid,
		      uint32_t ptid, uint64_t time)
{
	struct testlib_buf b = { 0 };
	uint32_t type = REC_FORK;
	uint16_t misc = 0, size = 8 + 24 + 8 + 8;	/* body, then TID and TIME trailer */

	testlib_buf_add(&b, &type, 4);
	testlib_buf_add(&b, &misc, 2);
	testlib_buf_add(&b, &size, 2);
	testlib_buf_u32(&b, pid);
	testlib_buf_u32(&b, ppid);
	testlib_buf_u32(&b, tid);
	testlib_buf_u32(&b, ptid);
	testlib_buf_u64(&b, time);
	testlib_buf_u32(&b, pid);
	testlib_buf_u32(&b, tid);
	testlib_buf_u64(&b, time);
	feed_buf(f, f->ev, &b);
}

static void feed_sample(struct feed *f, struct evsel *ev, uint32_t pid, uint32_t tid,
			uint64_t time)
{
	struct testlib_buf b = { 0 };

	testlib_rec_sample(&b, &ev->attr, 0x1234, pid, tid, time, 1, 4000);
	if (ev->attr.sample_type & SAMPLE_RAW) {	/* an empty RAW area, 8-aligned */
		uint16_t size = (uint16_t)(b.len + 8);

		testlib_buf_u32(&b, 4);
		testlib_buf_u32(&b, 0);
		memcpy(b.p + 6, &size, 2);
	}
	feed_buf(f, ev, &b);
}

/* Assert row r's integers v[0..n). */
static void assert_ints(const struct export_row *r, size_t n, ...)
{
	va_list ap;

	va_start(ap, n);
	for (size_t i = 0; i < n; i++)
		ck_assert_int_eq(r->v[i], va_arg(ap, int64_t));
	va_end(ap);
}

#define I(x) ((int64_t)(x))

START_TEST(test_convert_export_placeholders)
{
	struct feed f;
	const struct export_row *r[64];

	feed_init(&f, EXPORT_CALLCHAINS);
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_THREAD, r, 64), 1);
	assert_ints(r[0], 5, I(0), I(0), I(0), I(-1), I(-1));
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_COMM, r, 64), 1);
	ck_assert_str_eq(r[0]->text[0], "unknown");
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_DSO, r, 64), 1);
	ck_assert_str_eq(r[0]->text[2], "");
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_SAMPLE, r, 64), 1);
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_CALL_PATH, r, 64), 1);
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_BRANCH_TYPE, r, 64), 42);
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_COMM_THREAD, r, 64), 0);
	feed_exit(&f);
}
END_TEST

START_TEST(test_convert_export_threads_and_comms)
{
	struct feed f;
	const struct export_row *th[16], *cm[16], *ct[16], *sa[16];

	feed_init(&f, 0);
	feed_comm(&f, 100, 100, "sh", 10, true);
	feed_sample(&f, f.ev, 100, 100, 20);
	/* a child process, sampled before and after its exec */
	feed_fork(&f, 101, 100, 101, 100, 30);
	feed_sample(&f, f.ev, 101, 101, 40);
	feed_comm(&f, 101, 101, "ls", 50, true);
	feed_sample(&f, f.ev, 101, 101, 60);
	/* a second thread of process 100 */
	feed_fork(&f, 100, 100, 102, 100, 70);
	feed_sample(&f, f.ev, 100, 102, 80);

	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_THREAD, th, 16), 4);
	assert_ints(th[1], 5, I(1), I(1), I(1), I(100), I(100));
	assert_ints(th[2], 5, I(2), I(1), I(2), I(101), I(101));
	assert_ints(th[3], 5, I(3), I(1), I(1), I(100), I(102));	/* process: main */

	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_COMM, cm, 16), 5);
	/* id, comm, c_thread_id, c_time, exec_flag */
	ck_assert_str_eq(cm[1]->text[0], "sh");
	assert_ints(cm[1], 4, I(1), I(1), I(10), I(1));
	ck_assert_str_eq(cm[2]->text[0], "sh");		/* the fork's copy, not exec */
	assert_ints(cm[2], 4, I(2), I(2), I(30), I(0));
	ck_assert_str_eq(cm[3]->text[0], "ls");
	assert_ints(cm[3], 4, I(3), I(2), I(50), I(1));
	ck_assert_str_eq(cm[4]->text[0], "sh");		/* thread 102's own name */
	assert_ints(cm[4], 4, I(4), I(3), I(70), I(0));

	/* exec comms are linked to their main thread; a new non-main thread to the exec
	 * comm of its process; a thread's current comm gets no link */
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_COMM_THREAD, ct, 16), 4);
	assert_ints(ct[0], 3, I(1), I(1), I(1));
	assert_ints(ct[1], 3, I(2), I(2), I(2));
	assert_ints(ct[2], 3, I(3), I(3), I(2));
	assert_ints(ct[3], 3, I(4), I(1), I(3));

	/* samples.comm_id: the main thread's exec comm */
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_SAMPLE, sa, 16), 5);
	ck_assert_int_eq(sa[1]->v[ES_COMM_ID], 1);
	ck_assert_int_eq(sa[2]->v[ES_COMM_ID], 2);
	ck_assert_int_eq(sa[3]->v[ES_COMM_ID], 3);
	ck_assert_int_eq(sa[4]->v[ES_COMM_ID], 1);
	ck_assert_int_eq(sa[4]->v[ES_THREAD_ID], 3);
	ck_assert_int_eq(sa[4]->v[ES_ID], 4);
	/* no map: no dso, no symbol; the other columns as perf fills them */
	ck_assert_int_eq(sa[4]->v[ES_DSO_ID], 0);
	ck_assert_int_eq(sa[4]->v[ES_SYMBOL_ID], 0);
	ck_assert_int_eq(sa[4]->v[ES_IP], 0x1234);
	ck_assert_int_eq(sa[4]->v[ES_TIME], 80);
	ck_assert_int_eq(sa[4]->v[ES_CPU], -1);
	ck_assert_int_eq(sa[4]->v[ES_PERIOD], 4000);
	ck_assert_int_eq(sa[4]->v[ES_DATA_SRC], 0x05080021);
	feed_exit(&f);
}
END_TEST

START_TEST(test_convert_export_reused_tid)
{
	struct feed f;
	const struct export_row *th[16];

	feed_init(&f, 0);
	feed_comm(&f, 200, 200, "a", 10, true);
	feed_sample(&f, f.ev, 200, 200, 20);
	/* tid 200 forked again: perf makes a new thread, exported anew */
	feed_fork(&f, 200, 1, 200, 1, 30);
	feed_sample(&f, f.ev, 200, 200, 40);
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_THREAD, th, 16), 3);
	assert_ints(th[2], 5, I(2), I(1), I(2), I(200), I(200));
	feed_exit(&f);
}
END_TEST

START_TEST(test_convert_export_tracepoints)
{
	struct feed f;
	struct export_stats st;
	const struct export_row *r[16];

	feed_init(&f, (unsigned)_i * EXPORT_ALL_EVENTS);
	feed_sample(&f, f.tp, 300, 300, 10);
	feed_sample(&f, f.ev, 300, 300, 20);
	exporter__stats(f.ex, &st);
	if (_i) {
		ck_assert_uint_eq(st.samples, 2);
		ck_assert_uint_eq(st.skipped_tracepoint, 0);
	} else {
		ck_assert_uint_eq(st.samples, 1);
		ck_assert_uint_eq(st.skipped_tracepoint, 1);
	}
	/* selected_events ids follow the first sample of each event */
	ck_assert_uint_eq(rows_of(&f.rows, EXPORT_EVSEL, r, 16), _i ? 3 : 2);
	ck_assert_int_eq(r[1]->v[0], 1);
	feed_exit(&f);
}
END_TEST

/* The rows and ids are the same whatever the pipeline's workers and batches: one
 * record a batch without workers, or the whole recording in one batch with 1, 2 or 4
 * workers (_i). */
static void feed_workload(struct feed *f)
{
	feed_comm(f, 100, 100, "sh", 10, true);
	feed_sample(f, f->ev, 100, 100, 20);
	feed_fork(f, 101, 100, 101, 100, 30);
	feed_sample(f, f->ev, 101, 101, 40);
	feed_comm(f, 101, 101, "ls", 50, true);
	feed_sample(f, f->ev, 101, 101, 60);
	feed_fork(f, 100, 100, 102, 100, 70);
	feed_sample(f, f->ev, 100, 102, 80);
	feed_sample(f, f->tp, 100, 102, 90);	/* left out */
	feed_sample(f, f->ev, 101, 101, 100);
	if (f->batched)
		feed_flush(f);
}

START_TEST(test_convert_export_workers)
{
	struct feed one, batch;
	struct export_stats sa, sb;

	feed_init(&one, EXPORT_CALLCHAINS);
	feed_workload(&one);
	feed_init_wq(&batch, EXPORT_CALLCHAINS, 1u << _i, true);
	feed_workload(&batch);
	ck_assert_uint_eq(one.rows.n, batch.rows.n);
	for (int t = 0; t < EXPORT__NR_TABLES; t++) {
		const struct export_row *a[64], *b[64];
		size_t na = rows_of(&one.rows, (enum export_table)t, a, 64);
		size_t nb = rows_of(&batch.rows, (enum export_table)t, b, 64);

		ck_assert_uint_eq(na, nb);
		for (size_t i = 0; i < na; i++)
			ck_assert_mem_eq(a[i]->v, b[i]->v, sizeof(a[i]->v));
	}
	exporter__stats(one.ex, &sa);
	exporter__stats(batch.ex, &sb);
	ck_assert_uint_eq(sa.samples, 5);
	ck_assert_uint_eq(sb.samples, 5);
	ck_assert_uint_eq(sb.skipped_tracepoint, 1);
	feed_exit(&one);
	feed_exit(&batch);
}
END_TEST

/* ---- db_writer ---------------------------------------------------------------- */

START_TEST(test_convert_writer_modes)
{
	char *dir = testlib_tmpdir(), *path = path_in(dir, "w.db");
	struct db_writer_opts o = { .path = path, .threaded = _i & 1 };
	/* samples go MULTI_ROWS (64) to a statement, flushed at each batch end: whole,
	 * partial and single statements */
	const int64_t n = (_i & 2) ? 65 : 10000;
	struct export_row r = { .table = EXPORT_SAMPLE };
	struct db_writer *w;
	sqlite3 *db;

	ck_assert_int_eq(db_writer__open(&w, &o), 0);
	for (int64_t i = 0; i < n; i++) {
		r.v[ES_ID] = i;
		r.v[ES_TIME] = i * 1000;
		r.v[ES_IP] = -i;
		ck_assert_int_eq(db_writer__row(w, &r), 0);
	}
	r = (struct export_row){ .table = EXPORT_DSO, .text = { "a", "/b/a", "" },
				 .v = { 1, 1 } };
	ck_assert_int_eq(db_writer__row(w, &r), 0);
	ck_assert_int_eq(db_writer__commit(w), 0);
	db_writer__delete(w);

	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	assert_integrity(db);
	ck_assert_int_eq(query_int(db, "SELECT count(*) FROM samples_view"), n);
	ck_assert_int_eq(query_int(db, "SELECT sum(time) FROM samples"), 1000 * n * (n - 1) / 2);
	ck_assert_int_eq(query_int(db, "SELECT min(ip) FROM samples"), -(n - 1));
	ck_assert_int_eq(query_int(db, "SELECT count(*) FROM samples WHERE ip != -id"), 0);
	ck_assert_int_eq(query_int(db, "SELECT count(*) FROM dsos WHERE long_name = '/b/a'"),
			 1);
	sqlite3_close(db);

	/* an existing database is never written over */
	ck_assert_int_eq(db_writer__open(&w, &o), -EEXIST);
	db_writer__delete(w);
	testlib_rmtree(dir);
	free(path);
	free(dir);
}
END_TEST

/* ---- cmd_sqlite: the output file -------------------------------------------------- */

static void write_recording(const char *path)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	uint64_t id = 1;
	const uint64_t *ids[1] = { &id };
	size_t nr = 1;

	testlib_rec_comm(&b, &a, 7, 7, "app", 100, 1);
	for (int i = 0; i < 50; i++)
		testlib_rec_sample(&b, &a, 0x400000 + (uint64_t)i, 7, 7, 200 + (uint64_t)i, 1,
				   4000);
	testlib_write_file(path, &a, 1, ids, &nr, b.p, b.len, false, false);
	testlib_buf_free(&b);
}

START_TEST(test_convert_cmd_output_file)
{
	char *dir = testlib_tmpdir(), *in = path_in(dir, "in.data");
	char *out = path_in(dir, "out.db"), *tmp = path_in(dir, "out.db.tmp");
	struct convert_opts o = { .input = in, .output = out, .jobs = 2,
				  .kallsyms = "/dev/null" };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	sqlite3 *db;

	write_recording(in);
	ck_assert_int_eq(cmd_sqlite(&o, &d), 0);
	ck_assert(exists(out));
	ck_assert(!exists(tmp));
	ck_assert_int_eq(sqlite3_open(out, &db), SQLITE_OK);
	ck_assert_int_eq(query_int(db, "SELECT count(*) FROM samples WHERE id > 0"), 50);
	ck_assert_int_eq(query_int(db, "SELECT count(*) FROM comms WHERE comm = 'app'"), 1);
	sqlite3_close(db);

	/* exists: refused without force, untouched */
	testlib_write_raw(out, "keep", 4);
	ck_assert_int_eq(cmd_sqlite(&o, &d), -EEXIST);
	ck_assert(strstr(d.msg, "already exists"));
	ck_assert(!exists(tmp));
	o.force = true;
	ck_assert_int_eq(cmd_sqlite(&o, &d), 0);
	ck_assert(!exists(tmp));

	/* damaged input: an error naming the file, no output, no temporary file */
	unlink(out);
	ck_assert_int_eq(truncate(in, 60), 0);
	memset(&d, 0, sizeof(d));
	ck_assert_int_lt(cmd_sqlite(&o, &d), 0);
	ck_assert_str_eq(d.path, in);
	ck_assert(!exists(out));
	ck_assert(!exists(tmp));
	testlib_rmtree(dir);
	free(in);
	free(out);
	free(tmp);
	free(dir);
}
END_TEST

/* The PostgreSQL layout agrees with the SQLite one (the same rows feed both): column
 * for column, text where text is; ids only in bigint columns; and every id refers to
 * the table itself or one before it (pg_writer sends the tables before a chunk first,
 * which is what keeps foreign keys satisfied while appending). */
START_TEST(test_convert_pg_schema_layout)
{
	for (int t = 0; t < EXPORT__NR_TABLES; t++) {
		const char *pg = pg_schema_columns[t], *sq = schema_tables[t].columns;
		size_t iv = 0;

		ck_assert_uint_eq(strlen(pg), strlen(sq));
		for (size_t c = 0; sq[c]; c++) {
			ck_assert_int_eq(pg[c] == 't', sq[c] == 't');
			if (sq[c] == 't')
				continue;
			unsigned ref = pg_schema_refs[t][iv++];

			if (ref) {
				ck_assert_int_eq(pg[c], 'q');
				ck_assert_int_le((int)ref - 1, t);
			}
		}
		for (; iv < ES__NR_COLS; iv++)
			ck_assert_uint_eq(pg_schema_refs[t][iv], 0);
		/* the first column is the row's own id, except for the fixed branch types */
		ck_assert_uint_eq(pg_schema_refs[t][0], t == EXPORT_BRANCH_TYPE ? 0u : t + 1u);
	}
	ck_assert_uint_eq(pg_schema_refs[EXPORT_SAMPLE][ES_CALL_PATH_ID], EXPORT_CALL_PATH + 1);
	ck_assert_uint_eq(pg_schema_refs[EXPORT_SAMPLE][ES_TO_SYMBOL_ID], EXPORT_SYMBOL + 1);
	ck_assert_uint_eq(pg_schema_refs[EXPORT_SAMPLE][ES_IP], 0);
}
END_TEST

/* Texts made acceptable to a UTF8 database's varchar(n): unchanged when they are,
 * cut after n characters (not bytes), each byte that starts no well-formed UTF-8
 * sequence replaced by U+FFFD. */
START_TEST(test_convert_pg_text_fit)
{
	static const struct {
		const char *in;
		size_t max;
		const char *out;
		unsigned fixes;
	} cases[] = {
		{ "main", 2048, "main", 0 },
		{ "", 16, "", 0 },
		{ "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 16,
		  "caf\xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80", 0 },
		{ "abcdef", 4, "abcd", PG_TEXT_CUT },
		/* characters, not bytes: 3 two-byte characters fit in 3 */
		{ "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3, "\xc3\xa9\xc3\xa9\xc3\xa9", PG_TEXT_CUT },
		{ "a\xff" "b", 16, "a\xef\xbf\xbd" "b", PG_TEXT_REPLACED },
		/* overlong NUL, a surrogate, above U+10FFFF, a sequence cut short */
		{ "\xc0\x80", 16, "\xef\xbf\xbd\xef\xbf\xbd", PG_TEXT_REPLACED },
		{ "\xed\xa0\x80", 16, "\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd", PG_TEXT_REPLACED },
		{ "\xf4\x90\x80\x80", 1, "\xef\xbf\xbd", PG_TEXT_REPLACED | PG_TEXT_CUT },
		{ "x\xe2\x82", 16, "x\xef\xbf\xbd\xef\xbf\xbd", PG_TEXT_REPLACED },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char out[64];
		unsigned fixes;
		size_t n = pg_text__fit(cases[i].in, strlen(cases[i].in), cases[i].max, out,
					&fixes);

		ck_assert_msg(n == strlen(cases[i].out) && !memcmp(out, cases[i].out, n),
			      "case %zu: %zu bytes", i, n);
		ck_assert_uint_eq(fixes, cases[i].fixes);
	}
}
END_TEST

/* What pg_writer__open refuses before any server is involved, and a server that is
 * not there: each with its errno and a one-line message. */
START_TEST(test_convert_pg_writer_open_errors)
{
	static const struct {
		const char *conninfo;
		bool append;
		int err;
		const char *msg;
	} cases[] = {
		{ "bogus=1", false, -EINVAL, "invalid connection option \"bogus\"" },
		{ "host=/nonexistent", false, -EINVAL, "names no database" },
		{ "dbname=postgres", false, -EINVAL, "the server's own" },
		{ "postgresql://%zz", false, -EINVAL, NULL },
		{ "host=/nonexistent dbname=x", false, -ECONNREFUSED, "/nonexistent" },
		{ "host=/nonexistent dbname=x", true, -ECONNREFUSED, "/nonexistent" },
	};

	unsetenv("PGDATABASE");
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct pg_writer_opts o = { .conninfo = cases[i].conninfo,
					    .append = cases[i].append };
		struct pg_writer *w = NULL;

		ck_assert_int_eq(pg_writer__open(&w, &o), cases[i].err);
		ck_assert_ptr_nonnull(w);
		ck_assert_ptr_null(strchr(pg_writer__errmsg(w), '\n'));
		if (cases[i].msg)
			ck_assert_msg(strstr(pg_writer__errmsg(w), cases[i].msg), "%s: %s",
				      cases[i].conninfo, pg_writer__errmsg(w));
		pg_writer__delete(w);
	}
	pg_writer__delete(NULL);
}
END_TEST

Suite *convert_suite(void)
{
	Suite *s = suite_create("convert");
	TCase *tc = tcase_create("export");
	tcase_add_test(tc, test_convert_export_placeholders);
	tcase_add_test(tc, test_convert_export_threads_and_comms);
	tcase_add_test(tc, test_convert_export_reused_tid);
	tcase_add_loop_test(tc, test_convert_export_tracepoints, 0, 2);
	tcase_add_loop_test(tc, test_convert_export_workers, 0, 3);
	suite_add_tcase(s, tc);

	tc = tcase_create("writer");
	tcase_add_loop_test(tc, test_convert_writer_modes, 0, 4);
	tcase_add_test(tc, test_convert_cmd_output_file);
	tcase_add_test(tc, test_convert_pg_schema_layout);
	tcase_add_test(tc, test_convert_pg_text_fit);
	tcase_add_test(tc, test_convert_pg_writer_open_errors);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	return s;
}
