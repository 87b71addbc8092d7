/* Unit tests of reader/: sessions over synthetic files, directories and compressed
 * streams; perf's delivery order; damaged input. */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>	/* setrlimit */
#include <sys/stat.h>
#include <sys/wait.h>	/* waitpid */
#include <dirent.h>	/* opendir */
#include <fcntl.h>	/* open */
#include <unistd.h>	/* pipe, fork, dup, dup2 */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/event.h"
#include "format/record.h"
#include "reader/ordered.h"
#include "reader/session.h"
#include "util/workqueue.h"
#include "machine/machine.h"
#include "report/cmd.h"	/* cmd_dump() */
#include "testlib.h"
#include "banned.h"

static char *tmp;

static void setup(void) { tmp = testlib_tmpdir(); }
static void teardown(void) { testlib_rmtree(tmp); free(tmp); }

static char *path_in(const char *name)
{
	char *p;
	ck_assert_int_ge(asprintf(&p, "%s/%s", tmp, name), 0);
	return p;
}

/* What a delivery produced: type, time, file and offset of every record. */
struct seen {
	uint32_t type[4096];
	uint64_t time[4096], offset[4096];
	uint16_t file[4096], flags[4096];
	size_t n;
};

static int collect(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct seen *s = ctx;

	for (size_t i = 0; i < n && s->n < 4096; i++, s->n++) {
		s->type[s->n] = recs[i]->type;
		s->time[s->n] = recs[i]->time;
		s->offset[s->n] = recs[i]->offset;
		s->file[s->n] = recs[i]->file;
		s->flags[s->n] = recs[i]->flags;
	}
	return 0;
}

static int open_load(const char *path, unsigned jobs, struct session **s, struct diag *d)
{
	struct session_opts o = { .path = path, .jobs = jobs };
	int err = session__open(s, &o, d);

	if (err)
		return err;
	return session__load(*s, d);
}

static void write_single(const char *path, const struct testlib_buf *data)
{
	struct event_attr a = testlib_attr(0);
	uint64_t ids[] = { 1, 2 };
	const uint64_t *idp[] = { ids };
	size_t nr[] = { 2 };

	testlib_write_file(path, &a, 1, idp, nr, data->p, data->len, false, false);
}

/* Reference 7.2: the first round releases nothing; each round releases what is older
 * than the largest time seen by the previous round; the end releases the rest. */
START_TEST(test_order_rounds)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	struct session *s;
	struct diag d;
	struct seen *sn = calloc(1, sizeof(*sn));
	char *p = path_in("rounds.data");

	testlib_rec_comm(&b, &a, 1, 1, "a", 0, 0);			/* time 0: immediate */
	testlib_rec_sample(&b, &a, 1, 1, 1, 30, 1, 1);
	testlib_rec_sample(&b, &a, 1, 1, 1, 10, 1, 1);
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);	/* limit 0: nothing; limit 30 */
	testlib_rec_sample(&b, &a, 1, 1, 1, 20, 1, 1);
	testlib_rec_sample(&b, &a, 1, 1, 1, 50, 1, 1);
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);	/* 10 20 30; limit 50 */
	testlib_rec_sample(&b, &a, 1, 1, 1, 25, 1, 1);
	testlib_rec_sample(&b, &a, 1, 1, 1, 40, 1, 1);
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);	/* 25 40 50 */
	testlib_rec_header_only(&b, REC_FINISHED_INIT);
	write_single(p, &b);
	ck_assert_int_eq(open_load(p, 1, &s, &d), 0);
	ck_assert_int_eq(session__deliver(s, collect, sn, 3), 0);
	/* the same through windows of 1, 2 and 5 records (queued records outlive them) */
	for (size_t window = 1; window <= 5; window += window < 2 ? 1 : 3) {
		struct session_opts o = { .path = p, .jobs = 2, .window = window };
		struct session *sw;
		struct seen *sn2 = calloc(1, sizeof(*sn2));

		ck_assert_int_eq(session__open(&sw, &o, &d), 0);
		ck_assert_int_eq(session__load(sw, &d), 0);
		ck_assert_int_eq(session__deliver(sw, collect, sn2, 2), 0);
		ck_assert_uint_eq(sn2->n, 11);
		ck_assert_mem_eq(sn2->time, sn->time, 11 * sizeof(sn->time[0]));
		ck_assert_mem_eq(sn2->type, sn->type, 11 * sizeof(sn->type[0]));
		session__close(sw);
		free(sn2);
	}
	{
		/* a round's own record comes before what it releases */
		static const uint32_t type[] = { REC_COMM, REC_FINISHED_ROUND,
			REC_FINISHED_ROUND, REC_SAMPLE, REC_SAMPLE, REC_SAMPLE,
			REC_FINISHED_ROUND, REC_SAMPLE, REC_SAMPLE, REC_SAMPLE,
			REC_FINISHED_INIT };
		static const uint64_t time[] = { 0, 0, 0, 10, 20, 30, 0, 25, 40, 50, 0 };

		ck_assert_uint_eq(sn->n, 11);
		for (size_t i = 0; i < 11; i++) {
			ck_assert_uint_eq(sn->type[i], type[i]);
			ck_assert_uint_eq(sn->time[i], time[i]);
		}
	}
	session__close(s);
	testlib_buf_free(&b);
	free(sn);
	free(p);
}
END_TEST

/* A directory: data (time-0 side band) + three data.N with interleaved times and ties.
 * perf: immediate records first, then everything sorted by time, ties by arrival. */
static void write_dir(const char *dir, bool compressed, const size_t *cuts, size_t ncuts)
{
	struct event_attr a = testlib_attr(0);
	uint64_t ids[] = { 1, 2, 3 };
	const uint64_t *idp[] = { ids };
	size_t nr[] = { 3 };
	struct testlib_buf m = { 0 };
	char *p;

	mkdir(dir, 0755);
	testlib_rec_comm(&m, &a, 7, 7, "main", 0, 0);
	testlib_rec_header_only(&m, REC_FINISHED_INIT);
	ck_assert_int_ge(asprintf(&p, "%s/data", dir), 0);
	testlib_write_file(p, &a, 1, idp, nr, m.p, m.len, true, compressed);
	free(p);
	for (int f = 0; f < 3; f++) {
		struct testlib_buf r = { 0 }, z = { 0 };

		for (int k = 0; k < 40; k++)	/* times f+1, f+4, ...; ties every 3rd */
			testlib_rec_sample(&r, &a, 0x1000 + (uint64_t)f, 7, 7,
					   100 + (uint64_t)(k * 3 + (k % 3 == 0 ? 0 : f)),
					   ids[f], 1);
		ck_assert_int_ge(asprintf(&p, "%s/data.%d", dir, f), 0);
		if (compressed) {
			testlib_compress(&z, r.p, r.len, cuts, ncuts);
			testlib_write_raw(p, z.p, z.len);
		} else {
			testlib_write_raw(p, r.p, r.len);
		}
		free(p);
		testlib_buf_free(&r);
		testlib_buf_free(&z);
	}
	ck_assert_int_ge(asprintf(&p, "%s/data.9", dir), 0);
	testlib_write_raw(p, "", 0);	/* empty data.N: skipped, as perf does */
	free(p);
	testlib_buf_free(&m);
}

static void check_dir_order(const struct seen *sn, bool compressed)
{
	size_t first_sample = 0;

	while (first_sample < sn->n && sn->type[first_sample] != REC_SAMPLE)
		first_sample++;
	/* the side band and containers come first */
	ck_assert_uint_eq(sn->type[0], REC_COMM);
	ck_assert_uint_eq(sn->type[1], REC_FINISHED_INIT);
	ck_assert_uint_eq(sn->n - first_sample, 120);
	for (size_t i = first_sample + 1; i < sn->n; i++) {
		ck_assert_uint_le(sn->time[i - 1], sn->time[i]);
		if (sn->time[i - 1] == sn->time[i])	/* ties: arrival (file) order */
			ck_assert_uint_le(sn->file[i - 1], sn->file[i]);
	}
	if (compressed)
		ck_assert(sn->flags[first_sample - 1] & RECORD_REF_CONTAINER);
}

/* A front end that fails on its third batch: the records before it were delivered,
 * in order, and its error is session__deliver()'s, whether the batches were made on
 * this thread (-j 1) or by the producer thread (-j 2, pipelined), through windows of
 * one record (which must outlive the batches in flight). */
struct failing {
	struct seen seen;
	size_t batches;
};

static int collect_then_fail(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct failing *f = ctx;

	if (++f->batches == 3)
		return -EIO;
	return collect(&f->seen, recs, n);
}

START_TEST(test_deliver_error_stops)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("fail.data");
	struct diag d;
	size_t n1 = 0;

	for (uint64_t t = 1; t <= 20; t++) {
		testlib_rec_sample(&b, &a, 1, 1, 1, t * 10, 1, 1);
		if (t % 4 == 0)
			testlib_rec_header_only(&b, REC_FINISHED_ROUND);
	}
	write_single(p, &b);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct session_opts o = { .path = p, .jobs = jobs, .window = 1 };
		struct failing *f = calloc(1, sizeof(*f));
		struct session *s;

		ck_assert_int_eq(session__open(&s, &o, &d), 0);
		ck_assert_int_eq(session__load(s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect_then_fail, f, 2), -EIO);
		ck_assert_uint_eq(f->batches, 3);
		/* two batches of at most two (a window's end hands a batch over early),
		 * the same ones on both paths */
		ck_assert_uint_ge(f->seen.n, 2);
		ck_assert_uint_le(f->seen.n, 4);
		if (jobs == 1)
			n1 = f->seen.n;
		ck_assert_uint_eq(f->seen.n, n1);
		for (size_t i = 1; i < f->seen.n; i++)
			ck_assert_uint_le(f->seen.time[i - 1], f->seen.time[i]);
		session__close(s);
		free(f);
	}
	testlib_buf_free(&b);
	free(p);
}
END_TEST

START_TEST(test_order_directory)
{
	char *dir = path_in("d.data");
	struct session *s1, *s2;
	struct diag d;
	struct seen *a = calloc(1, sizeof(*a)), *b = calloc(1, sizeof(*b));

	write_dir(dir, false, NULL, 0);
	ck_assert_int_eq(open_load(dir, 1, &s1, &d), 0);
	ck_assert(session__is_dir(s1));
	ck_assert_uint_eq(session__nr_files(s1), 4);	/* data + 3 non-empty data.N */
	ck_assert_int_eq(session__deliver(s1, collect, a, 0), 0);
	check_dir_order(a, false);
	/* -j 1 and -j 2 deliver exactly the same sequence */
	ck_assert_int_eq(open_load(dir, 2, &s2, &d), 0);
	ck_assert_int_eq(session__deliver(s2, collect, b, 7), 0);
	ck_assert_uint_eq(a->n, b->n);
	ck_assert_mem_eq(a->time, b->time, a->n * sizeof(a->time[0]));
	ck_assert_mem_eq(a->file, b->file, a->n * sizeof(a->file[0]));
	session__close(s1);
	session__close(s2);
	free(a);
	free(b);
	free(dir);
}
END_TEST

/* Records straddling COMPRESSED boundaries (cuts inside records) decode whole. */
START_TEST(test_compressed_straddling)
{
	static const size_t cuts[] = { 3, 45, 46, 100, 333, 334, 900, 1500 };
	char *dir = path_in("z.data");
	struct session *s;
	struct diag d;
	struct seen *sn = calloc(1, sizeof(*sn));
	size_t containers = 0;

	write_dir(dir, true, cuts, sizeof(cuts) / sizeof(cuts[0]));
	ck_assert_int_eq(open_load(dir, 2, &s, &d), 0);
	ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
	for (size_t i = 0; i < sn->n; i++)
		containers += !!(sn->flags[i] & RECORD_REF_CONTAINER);
	ck_assert_uint_eq(containers, 3 * 9);
	check_dir_order(sn, true);
	session__close(s);
	free(sn);
	free(dir);
}
END_TEST

/* Damaged input: one diagnostic with the file and byte offset, no crash. */
static void expect_error(const char *path, int code, uint64_t offset)
{
	struct session *s = NULL;
	struct diag d = { 0 };
	int err = open_load(path, 2, &s, &d);

	ck_assert_int_eq(err, code);
	ck_assert_uint_eq(d.offset, offset);
	ck_assert_ptr_nonnull(strstr(d.path, tmp));
	session__close(s);
}

START_TEST(test_damaged_records)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("bad.data");
	const uint64_t data_off = 104 + 16 + 144;
	size_t mid;

	testlib_rec_sample(&b, &a, 1, 1, 1, 10, 1, 1);
	mid = b.len;
	testlib_rec_sample(&b, &a, 1, 1, 1, 20, 1, 1);
	testlib_rec_sample(&b, &a, 1, 1, 1, 30, 1, 1);
	bytes__put_u16(b.p + mid + 6, 0);		/* size 0 in the middle */
	write_single(p, &b);
	expect_error(p, -DIAG_RECORD_SIZE, data_off + mid);
	bytes__put_u16(b.p + mid + 6, 4000);		/* past the end of the section */
	write_single(p, &b);
	expect_error(p, -DIAG_RECORD_SIZE, data_off + mid);
	bytes__put_u16(b.p + mid + 6, 40);
	bytes__put_u32(b.p + mid, 200);			/* unknown type */
	write_single(p, &b);
	expect_error(p, -DIAG_RECORD_TYPE, data_off + mid);
	bytes__put_u32(b.p + mid, REC_SAMPLE);
	a.sample_type |= SAMPLE_ID;			/* two attrs, an id nobody owns */
	testlib_buf_free(&b);
	{
		struct event_attr two[2] = { a, a };
		uint64_t i1[] = { 1 }, i2[] = { 2 };
		const uint64_t *idp[] = { i1, i2 };
		size_t nr[] = { 1, 1 };

		two[1].config = 1;
		testlib_rec_sample(&b, &a, 1, 1, 1, 10, 1, 1);
		mid = b.len;
		testlib_rec_sample(&b, &a, 1, 1, 1, 20, 99, 1);
		testlib_write_file(p, two, 2, idp, nr, b.p, b.len, false, false);
		expect_error(p, -DIAG_UNKNOWN_ID, 104 + 16 + 2 * 144 + mid);
	}
	testlib_buf_free(&b);
	free(p);
}
END_TEST

/* A copy of tests/unit/data/plain.data (a perf record of `true`: its events named by
 * EVENT_DESC) at path; its bytes in *len. */
static unsigned char *copy_plain(const char *path, size_t *len)
{
	FILE *f = fopen("tests/unit/data/plain.data", "rb");
	unsigned char *buf = malloc(1 << 20);

	ck_assert_ptr_nonnull(f);
	ck_assert_ptr_nonnull(buf);
	*len = fread(buf, 1, 1 << 20, f);
	ck_assert_uint_gt(*len, 0x208);
	ck_assert_uint_lt(*len, 1 << 20);
	fclose(f);
	testlib_write_raw(path, buf, *len);
	return buf;
}

static int open_load_opts(const char *path, unsigned jobs, bool scan_optional,
			  struct session **s, struct diag *d)
{
	struct session_opts o = { .path = path, .jobs = jobs,
				  .scan_optional = scan_optional };
	int err = session__open(s, &o, d);

	if (err)
		return err;
	return session__load(*s, d);
}

/* session_opts.scan_optional: a single file whose events the header names is loaded
 * without the scan pass and delivered the same; a damaged record then stops the
 * delivery (session__deliver_error(): the same file, offset and code the scan pass
 * gives) instead of the load; a file with an unnamed event is scanned anyway. */
START_TEST(test_scan_optional)
{
	char *p = path_in("plain.data"), *q = path_in("unnamed.data");
	struct seen *ref = calloc(1, sizeof(*ref)), *sn = calloc(1, sizeof(*sn));
	struct session *s;
	struct diag d = { 0 }, dd = { 0 };
	unsigned char *buf;
	size_t len;

	buf = copy_plain(p, &len);
	ck_assert_int_eq(open_load_opts(p, 1, false, &s, &d), 0);
	ck_assert_int_eq(session__deliver(s, collect, ref, 0), 0);
	ck_assert_uint_gt(ref->n, 10);
	session__close(s);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		memset(sn, 0, sizeof(*sn));
		ck_assert_int_eq(open_load_opts(p, jobs, true, &s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
		ck_assert(!session__deliver_error(s, &dd));
		ck_assert_uint_eq(sn->n, ref->n);
		for (size_t i = 0; i < ref->n; i++) {
			ck_assert_uint_eq(sn->type[i], ref->type[i]);
			ck_assert_uint_eq(sn->time[i], ref->time[i]);
			ck_assert_uint_eq(sn->offset[i], ref->offset[i]);
			ck_assert_uint_eq(sn->flags[i], ref->flags[i]);
		}
		session__close(s);
	}

	/* the record at 0x1a8 of size 0: the scan pass refuses the file at load ... */
	bytes__put_u16(buf + 0x1a8 + 6, 0);
	testlib_write_raw(p, buf, len);
	ck_assert_int_eq(open_load_opts(p, 2, false, &s, &d), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(d.offset, 0x1a8);
	session__close(s);
	/* ... without it, the delivery stops there with the same diagnosis */
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		memset(sn, 0, sizeof(*sn));
		memset(&dd, 0, sizeof(dd));
		ck_assert_int_eq(open_load_opts(p, jobs, true, &s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect, sn, 0), -DIAG_RECORD_SIZE);
		ck_assert(session__deliver_error(s, &dd));
		ck_assert_int_eq(dd.code, -DIAG_RECORD_SIZE);
		ck_assert_uint_eq(dd.offset, 0x1a8);
		ck_assert_str_eq(dd.path, d.path);
		for (size_t i = 0; i < sn->n; i++)	/* nothing from there on */
			ck_assert_uint_lt(sn->offset[i], 0x1a8);
		session__close(s);
	}

	/* no EVENT_DESC (a synthetic file): the scan runs, EVENT_UPDATEs may name */
	{
		struct event_attr a = testlib_attr(0);
		struct testlib_buf b = { 0 };
		size_t mid;

		testlib_rec_sample(&b, &a, 1, 1, 1, 10, 1, 1);
		mid = b.len;
		testlib_rec_sample(&b, &a, 1, 1, 1, 20, 1, 1);
		bytes__put_u16(b.p + mid + 6, 0);
		write_single(q, &b);
		ck_assert_int_eq(open_load_opts(q, 2, true, &s, &d), -DIAG_RECORD_SIZE);
		ck_assert_uint_eq(d.offset, 104 + 16 + 144 + mid);
		session__close(s);
		testlib_buf_free(&b);
	}
	free(buf);
	free(ref);
	free(sn);
	free(p);
	free(q);
}
END_TEST

START_TEST(test_damaged_zstd)
{
	static const size_t cuts[] = { 500 };
	char *dir = path_in("zbad.data"), *f;
	FILE *fp;

	write_dir(dir, true, cuts, 1);
	ck_assert_int_ge(asprintf(&f, "%s/data.1", dir), 0);
	fp = fopen(f, "r+b");
	ck_assert_ptr_nonnull(fp);
	fseek(fp, 8, SEEK_SET);		/* the zstd frame header of the first container */
	fwrite("\xff\xff\xff\xff\xff\xff\xff\xff", 1, 8, fp);
	fclose(fp);
	expect_error(dir, -DIAG_ZSTD, 0);
	free(f);
	free(dir);
}
END_TEST

START_TEST(test_cut_last_record_is_a_warning)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *dir = path_in("cut.data"), *f;
	struct session *s;
	struct diag d;
	struct seen *sn = calloc(1, sizeof(*sn));
	size_t before;

	write_dir(dir, false, NULL, 0);
	for (int k = 0; k < 5; k++)
		testlib_rec_sample(&b, &a, 1, 7, 7, 1000 + (uint64_t)k, 1, 1);
	before = b.len;
	testlib_rec_sample(&b, &a, 1, 7, 7, 2000, 1, 1);
	ck_assert_int_ge(asprintf(&f, "%s/data.0", dir), 0);
	testlib_write_raw(f, b.p, before + 13);	/* cut 13 bytes into the last record */
	ck_assert_int_eq(open_load(dir, 2, &s, &d), 0);
	ck_assert_uint_eq(session__nr_warnings(s), 1);
	{
		char want[64];

		snprintf(want, sizeof(want), "data.0: offset %#zx:", before);
		ck_assert_ptr_nonnull(strstr(session__warning(s, 0), want));
	}
	ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
	ck_assert_uint_eq(sn->n, 2 + 5 + 80);
	session__close(s);
	testlib_buf_free(&b);
	free(sn);
	free(f);
	free(dir);
}
END_TEST

/* A data.N that cannot be stat()ed (a dangling link) is left out, as perf 6.1 leaves it
 * out, with one warning naming it: the same records as without it. */
START_TEST(test_dangling_data_file_is_a_warning)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *dir = path_in("dangling.data"), *f, *l;
	struct session *s;
	struct diag d;
	struct seen *with = calloc(1, sizeof(*with)), *without = calloc(1, sizeof(*without));

	write_dir(dir, false, NULL, 0);
	for (int k = 0; k < 5; k++)
		testlib_rec_sample(&b, &a, 1, 7, 7, 1000 + (uint64_t)k, 1, 1);
	ck_assert_int_ge(asprintf(&f, "%s/data.0", dir), 0);
	ck_assert_int_ge(asprintf(&l, "%s/data.1", dir), 0);
	testlib_write_raw(f, b.p, b.len);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		memset(with, 0, sizeof(*with));
		memset(without, 0, sizeof(*without));
		unlink(l);
		ck_assert_int_eq(open_load(dir, jobs, &s, &d), 0);
		ck_assert_uint_eq(session__nr_warnings(s), 0);
		ck_assert_int_eq(session__deliver(s, collect, without, 0), 0);
		session__close(s);
		ck_assert_int_eq(symlink("data.1.missing", l), 0);
		ck_assert_int_eq(open_load(dir, jobs, &s, &d), 0);
		ck_assert_uint_eq(session__nr_warnings(s), 1);
		ck_assert_ptr_nonnull(strstr(session__warning(s, 0),
					     "data.1: cannot open: No such file or directory"));
		ck_assert_int_eq(session__deliver(s, collect, with, 0), 0);
		session__close(s);
		ck_assert_uint_gt(without->n, 5);
		ck_assert_uint_eq(with->n, without->n);
		ck_assert_int_eq(memcmp(with->offset, without->offset,
					without->n * sizeof(without->offset[0])), 0);
	}
	testlib_buf_free(&b);
	free(with);
	free(without);
	free(f);
	free(l);
	free(dir);
}
END_TEST

START_TEST(test_bad_containers)
{
	struct session *s = NULL;
	struct session_opts o = { 0 };
	struct diag d = { 0 };
	char *p = path_in("nonexistent.data"), *e = path_in("empty.data");
	char *dir = path_in("nodata.data"), *t = path_in("text.data");

	o.path = p;
	ck_assert_int_eq(session__open(&s, &o, &d), -ENOENT);
	testlib_write_raw(e, "", 0);
	o.path = e;
	ck_assert_int_eq(session__open(&s, &o, &d), -DIAG_TRUNCATED);
	testlib_write_raw(t, "hello, this is not a perf file at all\n", 38);
	o.path = t;
	ck_assert_int_eq(session__open(&s, &o, &d), -DIAG_NOT_PERF);
	mkdir(dir, 0755);
	o.path = dir;
	ck_assert_int_eq(session__open(&s, &o, &d), -DIAG_NO_DATA_FILE);
	ck_assert_ptr_null(s);
	free(p);
	free(e);
	free(dir);
	free(t);
}
END_TEST

/* The queue model on its own, including the max_ts reset on an empty queue. */
static int emit_time(void *ctx, const struct record_ref *ref)
{
	struct seen *sn = ctx;
	sn->time[sn->n++] = ref->time;
	return 0;
}

START_TEST(test_ordered_events_model)
{
	struct ordered_events oe;
	struct record_ref r[6] = { { .time = 50 }, { .time = 60 }, { .time = 5 },
				   { .time = 70 }, { .time = 65 }, { .time = 1 } };
	struct seen *sn = calloc(1, sizeof(*sn));

	ordered_events__init(&oe);
	ordered_events__queue(&oe, 50, &r[0]);
	ordered_events__queue(&oe, 60, &r[1]);		/* max_ts 60 */
	ordered_events__flush_round(&oe, emit_time, sn);	/* limit 0 -> nothing; limit 60 */
	ck_assert_uint_eq(sn->n, 0);
	ordered_events__flush_round(&oe, emit_time, sn);	/* 50 60; queue empty */
	ck_assert_uint_eq(sn->n, 2);
	ordered_events__queue(&oe, 5, &r[2]);		/* empty queue: max_ts goes down to 5 */
	ordered_events__queue(&oe, 1, &r[5]);		/* middle insert: max_ts stays 5 */
	ordered_events__flush_round(&oe, emit_time, sn);	/* limit 60 -> 1 5; limit 5 */
	ck_assert_uint_eq(sn->n, 4);
	ck_assert_uint_eq(sn->time[2], 1);
	ck_assert_uint_eq(sn->time[3], 5);
	ordered_events__queue(&oe, 70, &r[3]);
	ordered_events__queue(&oe, 65, &r[4]);
	ordered_events__flush_round(&oe, emit_time, sn);	/* limit 5: nothing; limit 70 */
	ck_assert_uint_eq(sn->n, 4);
	ordered_events__flush_all(&oe, emit_time, sn);
	ck_assert_uint_eq(sn->n, 6);
	ck_assert_uint_eq(sn->time[4], 65);
	ck_assert_uint_eq(sn->time[5], 70);
	ordered_events__exit(&oe);
	free(sn);
}
END_TEST

/* The queue against a plain model of perf's: runs of several "ring buffers" written in
 * turn, equal times, records older than the last flush, descending stretches (a run
 * each), rounds in between, enough records to make the queue compact itself. */
struct emitted {
	const struct record_ref **ref;
	size_t n;
};

static int emit_ref(void *ctx, const struct record_ref *ref)
{
	struct emitted *e = ctx;

	e->ref[e->n++] = ref;
	return 0;
}

static int cmp_time_seq(const void *a, const void *b)
{
	const struct record_ref *x = *(const struct record_ref *const *)a;
	const struct record_ref *y = *(const struct record_ref *const *)b;

	/* offset holds the arrival number */
	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->offset < y->offset ? -1 : x->offset > y->offset;
}

/* The model: every queued record in a list; a flush takes those with time <= limit. */
struct oe_model {
	const struct record_ref **q;
	size_t n;
	uint64_t max_ts, max_queued, limit;
};

static void model_flush(struct oe_model *m, uint64_t limit, struct emitted *e)
{
	size_t first = e->n, w = 0;

	for (size_t i = 0; i < m->n; i++) {
		if (m->q[i]->time <= limit)
			e->ref[e->n++] = m->q[i];
		else
			m->q[w++] = m->q[i];
	}
	m->n = w;
	qsort(e->ref + first, e->n - first, sizeof(*e->ref), cmp_time_seq);
}

START_TEST(test_ordered_events_runs)
{
	enum { N = 60000, BUFS = 5 };
	struct record_ref *r = calloc(N, sizeof(*r));
	struct oe_model m = { .q = calloc(N, sizeof(*m.q)) };
	struct emitted got = { calloc(N, sizeof(*got.ref)), 0 };
	struct emitted want = { calloc(N, sizeof(*want.ref)), 0 };
	struct ordered_events oe;
	uint64_t clock[BUFS] = { 0 }, x = 0x9e3779b97f4a7c15ull;
	size_t i = 0;

	ordered_events__init(&oe);
	while (i < N) {
		/* a round: each buffer's records since the last, in turn */
		for (size_t b = 0; b < BUFS && i < N; b++) {
			size_t len;

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			len = x % 300;
			for (size_t k = 0; k < len && i < N; k++, i++) {
				uint64_t t;

				x ^= x << 13, x ^= x >> 7, x ^= x << 17;
				if (x % 97 == 0)		/* far behind: older than flushed */
					t = clock[b] > 5000 ? clock[b] - 5000 : 1;
				else if (b == BUFS - 1 && x % 5 == 0)	/* steps back by 1-4 */
					t = clock[b] > 4 ? clock[b] - 1 - x / 5 % 4 : 1;
				else	/* ascending, often equal */
					t = clock[b] += x % 3 ? x % 40 : 0;
				if (t == 0)
					t = 1;
				r[i] = (struct record_ref){ .time = t, .offset = i };
				ck_assert_int_eq(ordered_events__queue(&oe, t, &r[i]), 0);
				if (m.n == 0 || t >= m.max_queued)
					m.max_ts = m.max_queued = t;
				m.q[m.n++] = &r[i];
			}
		}
		/* FINISHED_ROUND */
		ck_assert_int_eq(ordered_events__flush_round(&oe, emit_ref, &got), 0);
		if (m.n) {
			model_flush(&m, m.limit, &want);
			m.limit = m.max_ts;
		}
		ck_assert_uint_eq(got.n, want.n);
		for (size_t b = 0; b < BUFS; b++)	/* the buffers move on */
			clock[b] += 200;
	}
	ordered_events__flush_all(&oe, emit_ref, &got);
	model_flush(&m, UINT64_MAX, &want);
	ck_assert_uint_eq(got.n, N);
	ck_assert_uint_eq(want.n, N);
	for (size_t k = 0; k < N; k++)
		ck_assert_ptr_eq(got.ref[k], want.ref[k]);
	/* the emitted records' room was used again: a round or two stay queued */
	ck_assert_uint_lt(oe.cap, N / 8);
	ordered_events__exit(&oe);
	free(r);
	free(m.q);
	free(got.ref);
	free(want.ref);
}
END_TEST

/* Side-band records that trail samples (the kernel stamps them before writing), tiny
 * windows (many window changes): still perf's order, the same for any window and -j. */
static int open_load_window(const char *path, unsigned jobs, size_t window,
			    struct session **s, struct diag *d)
{
	struct session_opts o = { .path = path, .jobs = jobs, .window = window };
	int err = session__open(s, &o, d);

	return err ? err : session__load(*s, d);
}

START_TEST(test_order_late_sideband_windows)
{
	struct event_attr a = testlib_attr(0);
	uint64_t ids[] = { 1, 2 };
	const uint64_t *idp[] = { ids };
	size_t nr[] = { 2 };
	struct testlib_buf m = { 0 }, d0 = { 0 }, d1 = { 0 };
	char *dir = path_in("late.data"), *p;
	static const uint64_t t0[] = { 100, 110, 120, 130, 140, 150 };
	static const uint64_t t1[] = { 104, 106, 125, 151, 152 };
	static const uint64_t want[] = { 100, 104, 105, 106, 110, 112, 120, 125, 130,
					 140, 150, 151, 152 };
	struct seen *ref = NULL;

	mkdir(dir, 0755);
	testlib_rec_comm(&m, &a, 7, 7, "main", 0, 0);
	ck_assert_int_ge(asprintf(&p, "%s/data", dir), 0);
	testlib_write_file(p, &a, 1, idp, nr, m.p, m.len, true, false);
	free(p);
	for (size_t i = 0; i < 6; i++) {
		testlib_rec_sample(&d0, &a, 1, 7, 7, t0[i], 1, 1);
		if (i == 1)	/* a COMM stamped 5 ns before the sample it follows */
			testlib_rec_comm(&d0, &a, 7, 7, "late", 105, 1);
		if (i == 2)
			testlib_rec_comm(&d0, &a, 7, 7, "later", 112, 1);
	}
	for (size_t i = 0; i < 5; i++)
		testlib_rec_sample(&d1, &a, 2, 7, 7, t1[i], 2, 1);
	ck_assert_int_ge(asprintf(&p, "%s/data.0", dir), 0);
	testlib_write_raw(p, d0.p, d0.len);
	free(p);
	ck_assert_int_ge(asprintf(&p, "%s/data.1", dir), 0);
	testlib_write_raw(p, d1.p, d1.len);
	free(p);
	for (size_t window = 1; window <= 64; window *= 4) {
		for (unsigned jobs = 1; jobs <= 2; jobs++) {
			struct session *s;
			struct diag d;
			struct seen *sn = calloc(1, sizeof(*sn));

			ck_assert_int_eq(open_load_window(dir, jobs, window, &s, &d), 0);
			ck_assert_int_eq(session__deliver(s, collect, sn, 2), 0);
			ck_assert_uint_eq(sn->n, 1 + 13);
			ck_assert_uint_eq(sn->type[0], REC_COMM);
			for (size_t i = 0; i < 13; i++)
				ck_assert_msg(sn->time[i + 1] == want[i],
					      "window %zu: record %zu has time %llu", window,
					      i, (unsigned long long)sn->time[i + 1]);
			/* a second delivery of the same session gives the same */
			if (!ref) {
				ref = sn;
			} else {
				ck_assert_mem_eq(ref->file, sn->file, sizeof(sn->file[0]) * 14);
				free(sn);
			}
			session__close(s);
		}
	}
	free(ref);
	testlib_buf_free(&m);
	testlib_buf_free(&d0);
	testlib_buf_free(&d1);
	free(dir);
}
END_TEST

/* session__hold_batches(1): a batch's records stay as they were until fn has returned
 * for the next batch; before the session lets them go, fn gets an empty batch (at the
 * end, and in a directory between its immediate records and the others).  Compressed
 * records live in their window's memory, and tiny windows are freed all the time:
 * AddressSanitizer's check (make asan-check) sees a record read after its window. */
struct held {
	const unsigned char *data[16];
	unsigned char copy[16][256];
	uint32_t size[16];
	size_t n, batches, empties, records;
	bool last_empty;
};

static int check_held(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct held *h = ctx;

	for (size_t i = 0; i < h->n; i++)	/* the previous batch, untouched */
		ck_assert_mem_eq(h->data[i], h->copy[i], h->size[i]);
	h->n = 0;
	h->last_empty = n == 0;
	h->empties += n == 0;
	h->batches += n > 0;
	for (size_t i = 0; i < n && i < 16; i++) {
		ck_assert_uint_le(recs[i]->size, sizeof(h->copy[0]));
		h->data[h->n] = recs[i]->data;
		h->size[h->n] = recs[i]->size;
		memcpy(h->copy[h->n++], recs[i]->data, recs[i]->size);
	}
	h->records += n;
	return 0;
}

START_TEST(test_hold_batches)
{
	static const size_t cuts[] = { 45, 100, 333, 900 };
	char *dir = path_in("held.data");
	struct held *h = calloc(1, sizeof(*h));
	struct seen *sn = calloc(1, sizeof(*sn));

	write_dir(dir, true, cuts, sizeof(cuts) / sizeof(cuts[0]));
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct session *s;
		struct diag d;

		memset(h, 0, sizeof(*h));
		memset(sn, 0, sizeof(*sn));
		ck_assert_int_eq(open_load_window(dir, jobs, 4, &s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect, sn, 5), 0);
		session__hold_batches(s, 1);
		ck_assert_int_eq(session__deliver(s, check_held, h, 5), 0);
		ck_assert_uint_eq(h->records, sn->n);
		ck_assert_uint_ge(h->batches, sn->n / 5);
		ck_assert_uint_eq(h->empties, 2);
		ck_assert(h->last_empty);
		session__close(s);
	}
	testlib_rmtree(dir);
	free(dir);
	free(h);
	free(sn);
}
END_TEST

/* 1024 data.N files under a file-descriptor limit of 64: files are mapped and closed
 * one at a time, so the limit never matters. */
START_TEST(test_many_files_low_fd_limit)
{
	struct event_attr a = testlib_attr(0);
	uint64_t ids[1024];
	const uint64_t *idp[] = { ids };
	size_t nr[] = { 1024 };
	struct testlib_buf m = { 0 };
	char *dir = path_in("many.data"), *p;
	struct rlimit rl = { 64, 64 };
	struct session *s;
	struct diag d;
	struct seen *sn = calloc(1, sizeof(*sn));

	for (int i = 0; i < 1024; i++)
		ids[i] = (uint64_t)i + 1;
	mkdir(dir, 0755);
	testlib_rec_comm(&m, &a, 7, 7, "main", 0, 0);
	ck_assert_int_ge(asprintf(&p, "%s/data", dir), 0);
	testlib_write_file(p, &a, 1, idp, nr, m.p, m.len, true, false);
	free(p);
	for (int f = 0; f < 1024; f++) {
		struct testlib_buf r = { 0 };

		testlib_rec_sample(&r, &a, 1, 7, 7, 1000 + (uint64_t)(f % 3), ids[f], 1);
		ck_assert_int_ge(asprintf(&p, "%s/data.%d", dir, f), 0);
		testlib_write_raw(p, r.p, r.len);
		free(p);
		testlib_buf_free(&r);
	}
	ck_assert_int_eq(setrlimit(RLIMIT_NOFILE, &rl), 0);
	ck_assert_int_eq(open_load(dir, 2, &s, &d), 0);
	ck_assert_uint_eq(session__nr_files(s), 1025);
	ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
	ck_assert_uint_eq(sn->n, 1 + 1024);
	for (size_t i = 2; i < sn->n; i++) {
		ck_assert_uint_le(sn->time[i - 1], sn->time[i]);
		if (sn->time[i - 1] == sn->time[i])
			ck_assert_uint_lt(sn->file[i - 1], sn->file[i]);
	}
	session__close(s);
	testlib_buf_free(&m);
	free(sn);
	free(dir);
}
END_TEST

/* Cut recordings keep what is before the cut: a file cut at every byte of its data
 * section delivers exactly the complete records before the cut; data size 0 (perf record
 * killed) delivers everything; a cut inside the features keeps every record. */
static size_t count_delivered(const char *path)
{
	struct session *s;
	struct diag d;
	struct seen *sn = calloc(1, sizeof(*sn));
	size_t n;

	ck_assert_int_eq(open_load(path, 2, &s, &d), 0);
	ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
	n = sn->n;
	session__close(s);
	free(sn);
	return n;
}

START_TEST(test_cut_recordings_keep_records)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("whole.data"), *c = path_in("cut.data");
	size_t ends[32], nr = 0, whole_len;
	const uint64_t data_off = 104 + 16 + 144;
	FILE *f;
	unsigned char *whole;

	for (int k = 0; k < 12; k++) {
		if (k % 4 == 0)
			testlib_rec_comm(&b, &a, 7, 7, "x", 100 + (uint64_t)k, 1);
		else
			testlib_rec_sample(&b, &a, 1, 7, 7, 100 + (uint64_t)k, 1, 1);
		ends[nr++] = b.len;
	}
	write_single(p, &b);	/* with features: DIR_FORMAT/COMPRESSED absent, none */
	f = fopen(p, "rb");
	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	whole_len = (size_t)ftell(f);
	rewind(f);
	whole = malloc(whole_len);
	ck_assert_uint_eq(fread(whole, 1, whole_len, f), whole_len);
	fclose(f);
	ck_assert_uint_eq(count_delivered(p), nr);
	/* cut at every byte of the data section */
	for (size_t cut = 0; cut <= b.len; cut++) {
		size_t want = 0;

		while (want < nr && ends[want] <= cut)
			want++;
		testlib_write_raw(c, whole, data_off + cut);
		ck_assert_msg(count_delivered(c) == want, "cut at %zu: want %zu", cut, want);
	}
	/* data size 0 in the header: everything up to the end of the file */
	bytes__put_u64(whole + 48, 0);
	testlib_write_raw(c, whole, data_off + b.len);
	ck_assert_uint_eq(count_delivered(c), nr);
	free(whole);
	testlib_buf_free(&b);
	free(p);
	free(c);
}
END_TEST

/* Deliver path as standard input: through a pipe fed by a child process, or (as_file)
 * redirected from the file itself; records seen go to sn. */
static void deliver_stdin(const char *path, bool as_file, struct seen *sn)
{
	struct session *s;
	struct diag d;
	int saved = dup(0), fds[2];
	pid_t child = -1;

	ck_assert_int_ge(saved, 0);
	if (as_file) {
		int fd = open(path, O_RDONLY);

		ck_assert_int_ge(fd, 0);
		ck_assert_int_eq(dup2(fd, 0), 0);
		close(fd);
	} else {
		ck_assert_int_eq(pipe(fds), 0);
		child = fork();
		ck_assert_int_ge(child, 0);
		if (child == 0) {	/* the writer: the whole file, in small pieces */
			FILE *f = fopen(path, "rb");
			char buf[777];
			size_t n;

			close(fds[0]);
			while (f && (n = fread(buf, 1, sizeof(buf), f)) > 0)
				if (write(fds[1], buf, n) != (ssize_t)n)
					_exit(1);
			_exit(f ? 0 : 1);
		}
		close(fds[1]);
		ck_assert_int_eq(dup2(fds[0], 0), 0);
		close(fds[0]);
	}
	ck_assert_int_eq(open_load("-", 2, &s, &d), 0);
	ck_assert_int_eq(session__deliver(s, collect, sn, 0), 0);
	session__close(s);
	ck_assert_int_eq(dup2(saved, 0), 0);
	close(saved);
	if (child > 0) {
		int st;

		ck_assert_int_eq(waitpid(child, &st, 0), child);
		ck_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	}
}

static size_t dir_entries(const char *dir)
{
	DIR *dp = opendir(dir);
	struct dirent *e;
	size_t n = 0;

	ck_assert_ptr_nonnull(dp);
	while ((e = readdir(dp)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(dp);
	return n;
}

/* Standard input gives what the file gives: a pipe is copied to an unnamed temporary
 * file in $TMPDIR (nothing is left there), or read into memory when no temporary file
 * can be made; a regular file on standard input is mapped.  A perf.data file and a
 * pipe-format file (samples/pipe.data, written by `perf record -o -`). */
START_TEST(test_stdin_like_file)
{
	static const char *const no_tmpdir = "/nonexistent-dirreport-test";
	struct testlib_buf b = { 0 };
	struct event_attr a = testlib_attr(0);
	char *p = path_in("in.data"), *spool = path_in("spool");
	const char *inputs[] = { p, "samples/pipe.data" };
	const char *old = getenv("TMPDIR");
	char *old_copy = old ? strdup(old) : NULL;

	for (int k = 0; k < 300; k++) {
		if (k % 50 == 0)
			testlib_rec_comm(&b, &a, 7, 7, "x", 100 + (uint64_t)k, 1);
		else
			testlib_rec_sample(&b, &a, 1, 7, 7, 100 + (uint64_t)k, 1, 1);
	}
	write_single(p, &b);
	ck_assert_int_eq(mkdir(spool, 0700), 0);
	for (size_t i = 0; i < 2; i++) {
		struct seen *want = calloc(1, sizeof(*want));
		struct session *s;
		struct diag d;

		ck_assert_int_eq(open_load(inputs[i], 2, &s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect, want, 0), 0);
		session__close(s);
		ck_assert_uint_gt(want->n, 200);
		for (int mode = 0; mode < 3; mode++) {
			struct seen *got = calloc(1, sizeof(*got));

			setenv("TMPDIR", mode == 0 ? spool : no_tmpdir, 1);
			deliver_stdin(inputs[i], mode == 2, got);
			ck_assert_uint_eq(got->n, want->n);
			ck_assert_mem_eq(got->type, want->type, want->n * sizeof(want->type[0]));
			ck_assert_mem_eq(got->time, want->time, want->n * sizeof(want->time[0]));
			ck_assert_mem_eq(got->offset, want->offset,
					 want->n * sizeof(want->offset[0]));
			ck_assert_uint_eq(dir_entries(spool), 0);
			free(got);
		}
		free(want);
	}
	if (old_copy)
		setenv("TMPDIR", old_copy, 1);
	else
		unsetenv("TMPDIR");
	free(old_copy);
	testlib_buf_free(&b);
	free(spool);
	free(p);
}
END_TEST

/*
 * A single file's scan pass split among the workers (two at least; parts of at least
 * session_opts.scan_part bytes) gives
 * what the whole scan gives: the same records in the same order (side-band records
 * that trail samples of an earlier part by hundreds of ns: the lag joined across
 * parts), the same error at the same offset, the same cut warning.
 */
struct scan_facts {
	uint64_t lag, *turns, *imm;
	size_t nr_turns, nr_imm;
};

/* *warning: the session's warnings, one a line */
static int deliver_parts(const char *path, size_t part, struct seen *sn, struct diag *d,
			 char **warning, struct scan_facts *f)
{
	struct session_opts o = { .path = path, .jobs = 3, .scan_part = part };
	struct session *s = NULL;
	int err = session__open(&s, &o, d);

	if (!err)
		err = session__load(s, d);
	if (!err)	/* what an index would keep of the scan */
		ck_assert_int_eq(session__scan_facts(s, 0, &f->lag, &f->turns, &f->nr_turns,
						     &f->imm, &f->nr_imm), 0);
	if (!err)
		err = session__deliver(s, collect, sn, 0);
	*warning = NULL;
	for (size_t i = 0; s && i < session__nr_warnings(s); i++) {
		char *w;

		ck_assert_int_ge(asprintf(&w, "%s%s\n", *warning ? *warning : "",
					  session__warning(s, i)), 0);
		free(*warning);
		*warning = w;
	}
	session__close(s);
	return err;
}

static void expect_same_parts(const char *path, int want_err, size_t want_n)
{
	struct seen *whole = calloc(1, sizeof(*whole)), *split = calloc(1, sizeof(*split));
	struct diag dw = { 0 }, ds = { 0 };
	struct scan_facts fw = { 0 }, fs = { 0 };
	char *ww, *ws;

	ck_assert_int_eq(deliver_parts(path, SIZE_MAX, whole, &dw, &ww, &fw), want_err);
	ck_assert_int_eq(deliver_parts(path, 1, split, &ds, &ws, &fs), want_err);
	ck_assert_uint_eq(fs.lag, fw.lag);
	ck_assert_uint_eq(fs.nr_turns, fw.nr_turns);
	ck_assert_uint_eq(fs.nr_imm, fw.nr_imm);
	if (fw.nr_turns)
		ck_assert_mem_eq(fs.turns, fw.turns, fw.nr_turns * sizeof(*fw.turns));
	if (fw.nr_imm)
		ck_assert_mem_eq(fs.imm, fw.imm, fw.nr_imm * sizeof(*fw.imm));
	free(fw.turns);
	free(fs.turns);
	free(fw.imm);
	free(fs.imm);
	if (want_err) {
		ck_assert_uint_eq(ds.offset, dw.offset);
		ck_assert_str_eq(ds.msg, dw.msg);
	} else {
		ck_assert_uint_eq(whole->n, want_n);
		ck_assert_uint_eq(split->n, whole->n);
		for (size_t i = 0; i < whole->n; i++)
			ck_assert_msg(split->type[i] == whole->type[i] &&
				      split->time[i] == whole->time[i] &&
				      split->offset[i] == whole->offset[i] &&
				      split->flags[i] == whole->flags[i],
				      "record %zu: type %u time %llu split, %u %llu whole", i,
				      split->type[i], (unsigned long long)split->time[i],
				      whole->type[i], (unsigned long long)whole->time[i]);
	}
	ck_assert_int_eq(ws != NULL, ww != NULL);
	if (ww)
		ck_assert_str_eq(ws, ww);
	free(ww);
	free(ws);
	free(whole);
	free(split);
}

START_TEST(test_scan_split_parts)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("split.data");
	size_t mid = 0, n = 0;
	uint16_t size;

	/* 400 samples, 10 ns apart in blocks of 50, each block starting 500 ns before
	 * the one before it: a record trails the first block by up to 3,990 ns, the
	 * records of its own part (eight parts of about 50 records) by 990 at most; and
	 * after the 250th a COMM stamped 1,000 ns back */
	for (int k = 0; k < 400; k++, n++) {
		testlib_rec_sample(&b, &a, 1, 7, 7,
				   100000 + 10 * (uint64_t)k - 1000 * (uint64_t)(k / 50), 1, 1);
		if (k == 250) {
			testlib_rec_comm(&b, &a, 7, 7, "late", 100000 + 10 * 250 - 5000 - 1000, 1);
			n++;
		}
		if (k == 300)
			mid = b.len;
	}
	write_single(p, &b);
	expect_same_parts(p, 0, n);
	{	/* the lag a part's own records do not show */
		struct seen *sn = calloc(1, sizeof(*sn));
		struct scan_facts f = { 0 };
		struct diag d;
		char *w;

		ck_assert_int_eq(deliver_parts(p, 1, sn, &d, &w, &f), 0);
		ck_assert_uint_eq(f.lag, 100490 - (100000 + 3500 - 7000));
		free(f.turns);
		free(f.imm);
		free(sn);
	}
	/* with rounds */
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);
	write_single(p, &b);
	expect_same_parts(p, 0, n + 1);
	/* the file cut 13 bytes into its last sample, its data size 0 (perf record
	 * killed): a warning, the records before it */
	{
		const size_t data_off = 104 + 16 + 144;
		unsigned char *whole = malloc(data_off + b.len);
		FILE *f = fopen(p, "rb");

		ck_assert_ptr_nonnull(whole);
		ck_assert_ptr_nonnull(f);
		ck_assert_uint_eq(fread(whole, 1, data_off + b.len, f), data_off + b.len);
		fclose(f);
		bytes__put_u64(whole + 48, 0);
		testlib_write_raw(p, whole, data_off + b.len - 8 - 13);
		expect_same_parts(p, 0, n - 1);
		free(whole);
	}
	/* a record of size 0 in a late part: the parts end before it, the last one
	 * finds it */
	size = bytes__u16(b.p + mid + 6);
	bytes__put_u16(b.p + mid + 6, 0);
	write_single(p, &b);
	expect_same_parts(p, -DIAG_RECORD_SIZE, 0);
	bytes__put_u16(b.p + mid + 6, size);
	/* a type nobody knows, then a record of size 0: the part of the first finds it */
	bytes__put_u32(b.p + mid, 200);
	bytes__put_u16(b.p + b.len - 8 - size + 6, 0);
	write_single(p, &b);
	expect_same_parts(p, -DIAG_RECORD_TYPE, 0);
	testlib_buf_free(&b);
	free(p);
}
END_TEST

/* The scan pass reads a file through a buffer of 120 KiB (reader__read_start()):
 * records on both sides of its refills, AUXTRACE payloads that straddle them, one
 * larger than the buffer (the mapping from there on), damage past the first refill -
 * the same records, facts and errors as the parts' scan, which reads the mapping. */
static void add_auxtrace(struct testlib_buf *b, size_t payload)
{
	unsigned char *z = calloc(1, payload);

	testlib_buf_u32(b, REC_AUXTRACE);
	testlib_buf_u32(b, 48u << 16);	/* misc 0, size 48 */
	testlib_buf_u64(b, payload);
	testlib_buf_u64(b, 0);		/* offset */
	testlib_buf_u64(b, 0);		/* reference */
	testlib_buf_u32(b, 0);		/* idx */
	testlib_buf_u32(b, 7);		/* tid */
	testlib_buf_u32(b, 0);		/* cpu */
	testlib_buf_u32(b, 0);
	testlib_buf_add(b, z, payload);
	free(z);
}

START_TEST(test_scan_read_buffer)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("buffered.data");
	size_t n = 0, early = 0, late = 0;
	uint16_t size;

	for (int k = 0; k < 1200; k++, n++) {
		testlib_rec_sample(&b, &a, 1, 7, 7, 1000 + 10 * (uint64_t)k, 1, 1);
		if (k % 150 == 0) {	/* 45-65 KiB: straddles the buffer's ends */
			add_auxtrace(&b, 45000 + 2500 * (size_t)(k / 150));
			n++;
		}
		if (k == 700) {		/* larger than the buffer */
			add_auxtrace(&b, 200000);
			n++;
		}
		if (k == 400)
			early = b.len;
		if (k == 1000)
			late = b.len;
	}
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);
	n++;
	ck_assert_uint_gt(early, 130000);	/* past the first refill */
	ck_assert_uint_gt(late, 600000);
	write_single(p, &b);
	expect_same_parts(p, 0, n);
	/* a record of size 0 after the mapping took over, then before */
	size = bytes__u16(b.p + late + 6);
	bytes__put_u16(b.p + late + 6, 0);
	write_single(p, &b);
	expect_same_parts(p, -DIAG_RECORD_SIZE, 0);
	bytes__put_u16(b.p + late + 6, size);
	size = bytes__u16(b.p + early + 6);
	bytes__put_u16(b.p + early + 6, 0);
	write_single(p, &b);
	expect_same_parts(p, -DIAG_RECORD_SIZE, 0);
	bytes__put_u16(b.p + early + 6, size);
	testlib_buf_free(&b);
	free(p);
}
END_TEST

static int count_records(void *ctx, const struct record_ref *const *recs, size_t n)
{
	(void)recs;
	*(size_t *)ctx += n;
	return 0;
}

/* A single file of 30000 samples, 10 ns apart, and a FINISHED_ROUND (1.2 MB of
 * records: several batches, several scan-buffer fills); *len receives their bytes.
 * Returns the number of records. */
static size_t write_30000_samples(const char *path, size_t *len)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };

	for (int k = 0; k < 30000; k++)
		testlib_rec_sample(&b, &a, 1, 7, 7, 1000 + 10 * (uint64_t)k, 1, 1);
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);
	write_single(path, &b);
	*len = b.len;
	testlib_buf_free(&b);
	return 30001;
}

/* The scan pass of a regular file reads it through its read buffer (pread()), not
 * through its mapping (whose first touch of each page costs a page fault): a 1.2 MB
 * single file of samples, scanned at -j 1 and -j 2, and the data.N files of a
 * directory - every byte of their records read into the buffer; a directory's `data`
 * (its immediate records stay in the mapping) not.  The same records delivered. */
START_TEST(test_scan_read_buffer_used)
{
	char *p = path_in("buffer-used.data"), *dir = path_in("buffer-used.dir");
	size_t len, n = write_30000_samples(p, &len);

	ck_assert_uint_gt(len, 1200000);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct session *s;
		struct diag d;
		size_t got = 0;

		ck_assert_int_eq(open_load(p, jobs, &s, &d), 0);
		ck_assert_uint_ge(session__bytes_buffered(s), len);
		ck_assert_int_eq(session__deliver(s, count_records, &got, 0), 0);
		ck_assert_uint_eq(got, n);
		session__close(s);
	}
	{
		struct session *s;
		struct diag d;
		uint64_t data_n = 0;
		size_t got = 0;

		write_dir(dir, false, NULL, 0);
		for (int f = 0; f < 3; f++) {	/* data.0-2 (and an empty data.9) */
			struct stat st;
			char *f_path;

			ck_assert_int_ge(asprintf(&f_path, "%s/data.%d", dir, f), 0);
			ck_assert_int_eq(stat(f_path, &st), 0);
			data_n += (uint64_t)st.st_size;
			free(f_path);
		}
		ck_assert_int_eq(open_load(dir, 2, &s, &d), 0);
		ck_assert_uint_eq(session__bytes_buffered(s), data_n);
		ck_assert_int_eq(session__deliver(s, count_records, &got, 0), 0);
		ck_assert_uint_eq(got, 2 + 120);	/* COMM, FINISHED_INIT, the samples */
		session__close(s);
	}
	free(p);
	free(dir);
}
END_TEST

/* The dump (dirreport -D) stopped by a failed write while workers format the batch it
 * holds (session__hold_batches()): an output of 4 KiB (fmemopen: writes past it fail)
 * and a file of several batches (30000 samples, batches of 8192), at -j 1, 2 and 4 -
 * an error, the output's error flag set; then compressed records in tiny windows,
 * freed all the time, to a small and a large enough output.  Under ThreadSanitizer
 * (make tsan-check) a dump that lets its held batch go without waiting for its
 * format jobs is a data race with the freeing of the window (seen: reader.c's
 * arena__exit()). */
START_TEST(test_dump_write_error)
{
	char *p = path_in("dump-error.data");
	size_t len;

	write_30000_samples(p, &len);
	for (unsigned jobs = 1; jobs <= 4; jobs *= 2) {
		struct report_opts o = { .input = p, .jobs = jobs, .children = -1,
					 .max_stack = -1 };
		static char mem[4096];
		struct machine *m;
		struct session *s;
		struct diag d;
		FILE *out = fmemopen(mem, sizeof(mem), "w");

		ck_assert_ptr_nonnull(out);
		ck_assert_int_eq(open_load(p, jobs, &s, &d), 0);
		ck_assert_int_eq(machine__new(&m, NULL), 0);
		ck_assert_int_lt(cmd_dump(s, &o, m, out), 0);
		ck_assert(ferror(out));
		fclose(out);
		machine__delete(m);
		session__close(s);
	}
	/* compressed records in windows of 4 (freed all the time: batches of one record),
	 * the whole dump to a large enough output too */
	{
		static const size_t cuts[] = { 45, 100, 333, 900 };
		char *dir = path_in("dump-error-z.data");

		write_dir(dir, true, cuts, sizeof(cuts) / sizeof(cuts[0]));
		for (unsigned jobs = 1; jobs <= 4; jobs *= 2) {
			for (size_t size = 4096; size <= 1u << 20; size <<= 8) {
				struct report_opts o = { .input = dir, .jobs = jobs, .children = -1,
							 .max_stack = -1 };
				char *mem = malloc(size);
				struct machine *m;
				struct session *s;
				struct diag d;
				FILE *out = fmemopen(mem, size, "w");

				ck_assert_ptr_nonnull(out);
				ck_assert_int_eq(open_load_window(dir, jobs, 4, &s, &d), 0);
				ck_assert_int_eq(machine__new(&m, NULL), 0);
				if (size == 4096) {
					ck_assert_int_lt(cmd_dump(s, &o, m, out), 0);
					ck_assert(ferror(out));
				} else {
					ck_assert_int_eq(cmd_dump(s, &o, m, out), 0);
				}
				fclose(out);
				free(mem);
				machine__delete(m);
				session__close(s);
			}
		}
		testlib_rmtree(dir);
		free(dir);
	}
	free(p);
}
END_TEST

/* A single file started from its index reads its EVENT_UPDATE records (its immediate
 * records) at their offsets, one fill each: while the scan pass's read buffer is on,
 * the second, 140 KiB on, was not in it and the index was ignored ("no immediate
 * record there").  Started from the index: no warning, the same records. */
static void add_event_update(struct testlib_buf *b, uint64_t id, const char *name)
{
	unsigned char str[16] = { 0 };

	snprintf((char *)str, sizeof(str), "%s", name);
	testlib_buf_u32(b, REC_EVENT_UPDATE);
	testlib_buf_u32(b, (8u + 8 + 8 + sizeof(str)) << 16);
	testlib_buf_u64(b, EVENT_UPDATE_NAME);
	testlib_buf_u64(b, id);
	testlib_buf_add(b, str, sizeof(str));
}

START_TEST(test_index_far_immediates)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	char *p = path_in("far.data");
	struct seen *want = calloc(1, sizeof(*want)), *got = calloc(1, sizeof(*got));
	struct diag d = { 0 };

	add_event_update(&b, 1, "first");
	for (int k = 0; k < 3800; k++)
		testlib_rec_sample(&b, &a, 1, 7, 7, 1000 + 10 * (uint64_t)k, 1, 1);
	add_event_update(&b, 2, "second");
	testlib_rec_header_only(&b, REC_FINISHED_ROUND);
	ck_assert_uint_gt(b.len, 140000);
	write_single(p, &b);
	for (unsigned jobs = 1; jobs <= 2; jobs++) {
		struct session_opts o = { .path = p, .jobs = jobs };
		struct session *s;

		memset(want, 0, sizeof(*want));
		memset(got, 0, sizeof(*got));
		ck_assert_int_eq(open_load(p, jobs, &s, &d), 0);
		ck_assert_int_eq(session__deliver(s, collect, want, 0), 0);
		session__close(s);
		ck_assert_int_eq(session__build_index(p, jobs, 4096, &d), 0);
		o.use_index = true;
		ck_assert_int_eq(session__open(&s, &o, &d), 0);
		ck_assert_int_eq(session__load(s, &d), 0);
		ck_assert(session__indexed(s));
		ck_assert_uint_eq(session__nr_warnings(s), 0);
		ck_assert_int_eq(session__deliver(s, collect, got, 0), 0);
		session__close(s);
		ck_assert_uint_eq(got->n, want->n);
		ck_assert_uint_eq(want->n, 3803);
		ck_assert_mem_eq(got->type, want->type, want->n * sizeof(want->type[0]));
		ck_assert_mem_eq(got->offset, want->offset, want->n * sizeof(want->offset[0]));
		ck_assert_int_eq(unlink(p), 0);
		write_single(p, &b);	/* the index is stale now: made again */
	}
	testlib_buf_free(&b);
	free(want);
	free(got);
	free(p);
}
END_TEST

Suite *reader_suite(void)
{
	Suite *s = suite_create("reader");
	TCase *tc = tcase_create("session");

	tcase_add_checked_fixture(tc, setup, teardown);
	/* a guard against hangs, not a time limit: test_many_files_low_fd_limit
	 * (1,025 files) took over 30 s under ASan on two cores busy with the
	 * ThreadSanitizer and memcheck runs and another job (16 s for the whole case
	 * on an idle machine) */
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, test_order_rounds);
	tcase_add_test(tc, test_order_directory);
	tcase_add_test(tc, test_deliver_error_stops);
	tcase_add_test(tc, test_compressed_straddling);
	tcase_add_test(tc, test_damaged_records);
	tcase_add_test(tc, test_scan_optional);
	tcase_add_test(tc, test_damaged_zstd);
	tcase_add_test(tc, test_cut_last_record_is_a_warning);
	tcase_add_test(tc, test_dangling_data_file_is_a_warning);
	tcase_add_test(tc, test_bad_containers);
	tcase_add_test(tc, test_ordered_events_model);
	tcase_add_test(tc, test_ordered_events_runs);
	tcase_add_test(tc, test_hold_batches);
	tcase_add_test(tc, test_scan_read_buffer);
	tcase_add_test(tc, test_scan_read_buffer_used);
	tcase_add_test(tc, test_dump_write_error);
	tcase_add_test(tc, test_index_far_immediates);
	tcase_add_test(tc, test_order_late_sideband_windows);
	tcase_add_test(tc, test_many_files_low_fd_limit);
	tcase_add_test(tc, test_cut_recordings_keep_records);
	tcase_add_test(tc, test_stdin_like_file);
	tcase_add_test(tc, test_scan_split_parts);
	suite_add_tcase(s, tc);
	return s;
}
