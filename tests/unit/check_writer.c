/*
 * Unit tests of format/writer.h and dirconvert --to-file/--to-dir (cmd_write): the
 * header, attrs and feature table read back by format/header.c; records read back by
 * the session in order; every COMPRESSED record a zstd frame that decompresses alone
 * (ZSTD_decompress) into whole records; index points that cover the data; a data
 * directory; a big-endian recording converted to this machine's byte order.
 */
#include <check.h>
#include <errno.h>
#include <linux/filter.h>	/* struct sock_filter, BPF_STMT, BPF_JUMP */
#include <linux/seccomp.h>	/* SECCOMP_MODE_FILTER, SECCOMP_RET_ERRNO */
#include <stddef.h>	/* offsetof */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>	/* signal, SIGXFSZ */
#include <sys/prctl.h>	/* prctl, PR_SET_NO_NEW_PRIVS, PR_SET_SECCOMP */
#include <sys/resource.h>	/* setrlimit */
#include <sys/stat.h>	/* stat */
#include <sys/wait.h>	/* waitpid */
#include <unistd.h>	/* fork, _exit */
#include <zstd.h>

#include "convert/cmd.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/header.h"
#include "format/record.h"
#include "format/writer.h"
#include "reader/session.h"
#include "testlib.h"

#define NR_SAMPLES 3000
#define OBUF_BYTES (256u << 10)	/* the writer's buffer per file (writer.h: 256 KiB) */

struct idx_log {
	struct writer_index_point p[256];
	size_t n;
};

static int log_index(void *ctx, const struct writer_index_point *p)
{
	struct idx_log *l = ctx;

	ck_assert_uint_lt(l->n, 256);
	l->p[l->n++] = *p;
	return 0;
}

/* The records of a recording in delivery order (containers and FINISHED_ROUNDs left
 * out), concatenated. */
struct collect {
	struct testlib_buf b;
	size_t nr;
};

static int collect_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct collect *c = ctx;

	for (size_t i = 0; i < n; i++) {
		if ((recs[i]->flags & RECORD_REF_CONTAINER) ||
		    recs[i]->type == REC_FINISHED_ROUND)
			continue;
		testlib_buf_add(&c->b, recs[i]->data, recs[i]->size);
		c->nr++;
	}
	return 0;
}

static void read_records(const char *path, struct collect *c)
{
	struct session_opts so = { .path = path, .jobs = 1 };
	struct diag d = { 0 };
	struct session *s;

	memset(c, 0, sizeof(*c));
	ck_assert_msg(session__open(&s, &so, &d) == 0, "%s", d.msg);
	ck_assert_msg(session__load(s, &d) == 0, "%s", d.msg);
	ck_assert_int_eq(session__deliver(s, collect_batch, c, 0), 0);
	session__close(s);
}

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p;
	long n;

	ck_assert_ptr_nonnull(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	fseek(f, 0, SEEK_SET);
	p = malloc((size_t)n + 1);
	ck_assert_uint_eq(fread(p, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	*len = (size_t)n;
	return p;
}

/* The records the tests write: a COMM, then samples with rising times (host order). */
static void make_records(struct testlib_buf *b, const struct event_attr *a, uint64_t id)
{
	testlib_rec_comm(b, a, 42, 42, "worker", 0, 0);
	for (unsigned i = 0; i < NR_SAMPLES; i++)
		testlib_rec_sample(b, a, 0x400000 + 16 * (i % 97), 42, 42, 1000 + 10 * i, id,
				   1000);
}

/* Write b's records through a writer: the COMM plain, the samples compressed. */
static void write_records(struct writer *w, unsigned stream, const struct testlib_buf *b)
{
	for (size_t pos = 0; pos < b->len;) {
		struct record_header h;
		bool sample;

		record_header__get(&h, b->p + pos);
		sample = h.type == REC_SAMPLE;
		ck_assert_int_eq(writer__write(w, stream, b->p + pos, h.size,
					       sample ? bytes__u64(b->p + pos + 24) : 0,
					       sample ? 0 : WRITER_PLAIN), 0);
		pos += h.size;
	}
}

START_TEST(test_writer_file_layout_and_frames)
{
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a[2] = { testlib_attr(SAMPLE_ID), testlib_attr(SAMPLE_ID) };
	uint64_t ids0[2] = { 11, 12 }, ids1[1] = { 21 };
	struct idx_log log = { .n = 0 };
	struct writer_opts o = { .comp_level = 3, .index_bytes = 16384, .rounds = true,
				 .on_index = log_index, .ctx = &log };
	struct testlib_buf recs = { 0 };
	struct file_header h;
	struct file_section sec[FEAT_BITS];
	struct evlist el;
	struct diag d = { 0 };
	struct collect got;
	struct writer *w;
	unsigned char *f;
	size_t len, nr_comp = 0, nr_inner = 0;
	uint64_t feat_off, pos, nr_idx = 0;
	bool swap;

	a[1].config = 2;
	snprintf(path, sizeof(path), "%s/out.data", dir);
	make_records(&recs, &a[0], 12);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, &a[0], ids0, 2), 0);
	ck_assert_int_eq(writer__add_event(w, &a[1], ids1, 1), 0);
	ck_assert_int_eq(writer__set_feature(w, FEAT_HOSTNAME, "\x04\0\0\0box", 8), 0);
	write_records(w, 0, &recs);
	ck_assert_int_eq(writer__add_event(w, &a[1], ids1, 1), -EBUSY);
	ck_assert_int_eq(writer__close(w, &d), 0);

	/* header, attrs and ids, feature table: as perf record lays them out */
	f = slurp(path, &len);
	ck_assert_int_eq(file_header__read(&h, &swap, f, len, len, path, &d), 0);
	ck_assert(!swap);
	ck_assert_uint_eq(h.attr_size, 144);
	ck_assert_uint_eq(h.attrs.offset, FILE_HEADER_SIZE + 3 * 8);
	ck_assert_uint_eq(h.attrs.size, 2 * 144);
	ck_assert_uint_eq(h.data.offset, h.attrs.offset + h.attrs.size);
	ck_assert(file_header__has_feat(&h, FEAT_HOSTNAME));
	ck_assert(file_header__has_feat(&h, FEAT_COMPRESSED));
	ck_assert(!file_header__has_feat(&h, FEAT_DIR_FORMAT));
	ck_assert_int_eq(file_header__feat_sections(&h, swap, f, len, sec, &feat_off, path,
						    &d), 0);
	ck_assert_uint_eq(feat_off, h.data.offset + h.data.size);
	ck_assert_uint_eq(sec[FEAT_HOSTNAME].size, 8);
	ck_assert_mem_eq(f + sec[FEAT_HOSTNAME].offset + 4, "box", 3);
	ck_assert_uint_eq(sec[FEAT_COMPRESSED].size, 20);
	ck_assert_uint_eq(bytes__u32(f + sec[FEAT_COMPRESSED].offset + 4), 1);	/* zstd */
	ck_assert_uint_eq(bytes__u32(f + sec[FEAT_COMPRESSED].offset + 8), 3);	/* level */
	ck_assert_uint_eq(bytes__u32(f + sec[FEAT_COMPRESSED].offset + 16),
			  WRITER_COMP_MMAP_LEN);
	evlist__init(&el);
	ck_assert_int_eq(file_header__read_attrs(&h, swap, f, len, &el, path, &d), 0);
	ck_assert_uint_eq(el.nr, 2);
	ck_assert_uint_eq(el.evsels[0]->nr_ids, 2);
	ck_assert_uint_eq(el.evsels[0]->ids[1], 12);
	ck_assert_uint_eq(el.evsels[1]->ids[0], 21);
	ck_assert_uint_eq(el.evsels[1]->attr.config, 2);
	ck_assert_uint_eq(el.evsels[0]->attr.size, 128);
	evlist__exit(&el);

	/* every COMPRESSED record is one frame that decompresses alone into whole
	 * records; no compressed data is larger than the decompression buffer perf
	 * sizes from mmap_len */
	for (pos = h.data.offset; pos < h.data.offset + h.data.size;) {
		struct record_header rh;

		record_header__get(&rh, f + pos);
		ck_assert_uint_ge(rh.size, 8);
		if (rh.type == REC_COMPRESSED) {
			unsigned char *out = malloc(WRITER_COMP_CHUNK);
			size_t n = ZSTD_decompress(out, WRITER_COMP_CHUNK, f + pos + 8,
						   rh.size - 8);

			ck_assert_msg(!ZSTD_isError(n), "%s", ZSTD_getErrorName(n));
			ck_assert_uint_eq(ZSTD_findFrameCompressedSize(f + pos + 8, rh.size - 8),
					  rh.size - 8u);
			for (size_t q = 0; q < n;) {
				struct record_header ih;

				ck_assert_uint_le(q + 8, n);
				record_header__get(&ih, out + q);
				ck_assert_uint_le(q + ih.size, n);
				q += ih.size;
				nr_inner++;
			}
			free(out);
			nr_comp++;
		}
		pos += rh.size;
	}
	ck_assert_uint_eq(pos, h.data.offset + h.data.size);
	ck_assert_uint_gt(nr_comp, 1);
	ck_assert_uint_eq(nr_inner, NR_SAMPLES);

	/* index points: contiguous chunks of the data section, each starting with a
	 * record (a COMPRESSED record: a fresh frame) and ending with FINISHED_ROUND */
	ck_assert_uint_gt(log.n, 2);
	for (size_t i = 0; i < log.n; i++) {
		const struct writer_index_point *p = &log.p[i];
		struct record_header rh;

		ck_assert_uint_eq(p->stream, 0);
		ck_assert_uint_eq(p->offset, i ? log.p[i - 1].offset + log.p[i - 1].size :
					      h.data.offset);
		record_header__get(&rh, f + p->offset + p->size - 8);
		ck_assert_uint_eq(rh.type, REC_FINISHED_ROUND);
		if (i) {
			record_header__get(&rh, f + p->offset);
			ck_assert_uint_eq(rh.type, REC_COMPRESSED);
			ck_assert_uint_ge(p->first_time, log.p[i - 1].last_time);
		}
		ck_assert_uint_le(p->first_time, p->last_time);
		nr_idx += p->nr_records;
	}
	ck_assert_uint_eq(log.p[log.n - 1].offset + log.p[log.n - 1].size,
			  h.data.offset + h.data.size);
	ck_assert_uint_eq(nr_idx, NR_SAMPLES + 1);
	ck_assert_uint_eq(log.p[log.n - 1].last_time, 1000 + 10 * (NR_SAMPLES - 1));

	/* our reader gives back exactly the records, in order */
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, NR_SAMPLES + 1);
	ck_assert_uint_eq(got.b.len, recs.len);
	ck_assert_mem_eq(got.b.p, recs.p, recs.len);
	testlib_buf_free(&got.b);
	testlib_buf_free(&recs);
	free(f);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* n samples of a few hundred addresses, times rising: compressible as a recording is */
static void make_samples(struct testlib_buf *b, const struct event_attr *a, uint64_t id,
			 unsigned n)
{
	uint64_t x = 88172645463325252ULL;

	for (unsigned i = 0; i < n; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		testlib_rec_sample(b, a, 0x400000 + 16 * (x % 300), 42 + (unsigned)(x % 3),
				   42, 1000 + 7 * i + x % 5, id, 1000);
	}
}

/* Write recs (COMM plain, samples compressed) into dir/name at level 1; its size. */
static long write_file(const char *dir, const char *name, bool stream,
		       const struct event_attr *a, uint64_t id, const struct testlib_buf *recs)
{
	char path[512];
	struct writer_opts o = { .comp_level = 1, .comp_stream = stream, .rounds = true,
				 .index_bytes = 64 << 10 };
	struct diag d = { 0 };
	struct writer *w;
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, a, &id, 1), 0);
	write_records(w, 0, recs);
	ck_assert_msg(writer__close(w, &d) == 0, "%s", d.msg);
	ck_assert_int_eq(stat(path, &st), 0);
	return (long)st.st_size;
}

/* What each_compressed() gives for one COMPRESSED record: its offset, its payload,
 * the payload decompressed (the stream so far) and zstd's answer. */
typedef void (*compressed_fn)(void *ctx, uint64_t pos, const unsigned char *payload,
			      size_t n, const unsigned char *out, size_t out_len, size_t ret);

/* Every COMPRESSED record of the file at path, decompressed as one zstd stream into a
 * buffer of out_cap bytes (each wholly, into the buffer), to fn; the records walked
 * end where the data section does. */
static void each_compressed(const char *path, size_t out_cap, compressed_fn fn, void *ctx)
{
	ZSTD_DStream *ds = ZSTD_createDStream();
	unsigned char *f, *out = malloc(out_cap);
	struct file_header h;
	struct diag d = { 0 };
	size_t len;
	uint64_t pos;
	bool swap;

	f = slurp(path, &len);
	ck_assert_int_eq(file_header__read(&h, &swap, f, len, len, path, &d), 0);
	ck_assert(!ZSTD_isError(ZSTD_initDStream(ds)));
	for (pos = h.data.offset; pos < h.data.offset + h.data.size;) {
		struct record_header rh;

		record_header__get(&rh, f + pos);
		ck_assert_uint_ge(rh.size, 8);
		if (rh.type == REC_COMPRESSED) {
			ZSTD_inBuffer in = { f + pos + 8, rh.size - 8u, 0 };
			ZSTD_outBuffer o = { out, out_cap, 0 };
			size_t ret = ZSTD_decompressStream(ds, &o, &in);

			ck_assert_msg(!ZSTD_isError(ret), "%s", ZSTD_getErrorName(ret));
			ck_assert_uint_eq(in.pos, in.size);	/* all of it, in the buffer */
			fn(ctx, pos, f + pos + 8, rh.size - 8u, out, o.pos, ret);
		}
		pos += rh.size;
	}
	ck_assert_uint_eq(pos, h.data.offset + h.data.size);
	ZSTD_freeDStream(ds);
	free(out);
	free(f);
}

struct comp_stream_walk {
	size_t nr_comp, nr_inner;
	struct testlib_buf all;		/* the payloads back to back */
};

static void comp_stream_record(void *ctx, uint64_t pos, const unsigned char *payload,
			       size_t n, const unsigned char *out, size_t out_len, size_t ret)
{
	struct comp_stream_walk *w = ctx;

	(void)pos;
	ck_assert_uint_gt(out_len, 0);
	ck_assert_uint_lt(out_len, WRITER_COMP_CHUNK);
	ck_assert_uint_ne(ret, 0);		/* the frame goes on */
	ck_assert_uint_eq(bytes__u32(payload) == ZSTD_MAGICNUMBER, w->nr_comp == 0);
	for (size_t q = 0; q < out_len;) {	/* whole records */
		struct record_header ih;

		ck_assert_uint_le(q + 8, out_len);
		record_header__get(&ih, out + q);
		ck_assert_uint_le(q + ih.size, out_len);
		q += ih.size;
		w->nr_inner++;
	}
	testlib_buf_add(&w->all, payload, n);
	w->nr_comp++;
}

/*
 * comp_stream: one zstd stream per file, as perf record -z writes it. Its COMPRESSED
 * records fed in file order to one decompression stream (perf 6.1's reader) each give
 * whole records, at most WRITER_COMP_CHUNK bytes (perf's buffer is mmap_len); the
 * first starts a frame that never ends and the others are no frames of their own
 * (they need the data before them); the file is smaller than with a frame per
 * COMPRESSED record; the session reads back exactly the records.
 */
START_TEST(test_writer_comp_stream)
{
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	struct testlib_buf recs = { 0 };
	struct comp_stream_walk w = { 0 };
	struct collect got;
	long frames, stream;

	testlib_rec_comm(&recs, &a, 42, 42, "worker", 0, 0);
	make_samples(&recs, &a, 7, 40000);
	frames = write_file(dir, "frames.data", false, &a, 7, &recs);
	stream = write_file(dir, "stream.data", true, &a, 7, &recs);
	ck_assert_msg(stream < frames, "stream %ld bytes, frames %ld", stream, frames);

	snprintf(path, sizeof(path), "%s/stream.data", dir);
	each_compressed(path, WRITER_COMP_CHUNK, comp_stream_record, &w);
	ck_assert_uint_gt(w.nr_comp, 10);
	ck_assert_uint_eq(w.nr_inner, 40000);
	/* the payloads back to back: one frame, unfinished (perf never ends it) */
	ck_assert(ZSTD_isError(ZSTD_findFrameCompressedSize(w.all.p, w.all.len)));

	read_records(path, &got);
	ck_assert_uint_eq(got.nr, 40001);
	ck_assert_uint_eq(got.b.len, recs.len);
	ck_assert_mem_eq(got.b.p, recs.p, recs.len);
	testlib_buf_free(&got.b);
	testlib_buf_free(&w.all);
	testlib_buf_free(&recs);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* the records read back: an 8-byte FINISHED_INIT, then 40-byte samples whose times
 * (at byte 24) rise */
static void assert_time_order(const struct collect *got)
{
	uint64_t last = 0;

	for (size_t pos = 8; pos < got->b.len; pos += 40) {
		uint64_t t = bytes__u64(got->b.p + pos + 24);

		ck_assert_uint_gt(t, last);
		last = t;
	}
}

START_TEST(test_writer_directory)
{
	char *dir = testlib_tmpdir(), path[512], name[600];
	struct event_attr a = testlib_attr(0);
	uint64_t id = 7;
	struct writer_opts o = { .dir = true, .nr_data_files = 2 };
	struct testlib_buf r0 = { 0 }, r1 = { 0 }, fin = { 0 };
	struct session_opts so = { .path = path, .jobs = 2 };
	struct diag d = { 0 };
	struct collect got;
	struct session *s;
	struct writer *w;
	struct stat st;

	snprintf(path, sizeof(path), "%s/out.data", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	testlib_rec_header_only(&fin, REC_FINISHED_INIT);
	for (unsigned i = 0; i < 100; i++)
		testlib_rec_sample(i % 2 ? &r1 : &r0, &a, 0x1000 + i, 5, 5, 100 + i, id, 1);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, &a, &id, 1), 0);
	write_records(w, 0, &fin);
	write_records(w, 1, &r0);
	write_records(w, 2, &r1);
	ck_assert_int_eq(writer__write(w, 3, fin.p, fin.len, 0, 0), -EINVAL);
	ck_assert_int_eq(writer__close(w, &d), 0);
	snprintf(name, sizeof(name), "%s/data.1", path);
	ck_assert_int_eq(stat(name, &st), 0);
	ck_assert_uint_eq((uint64_t)st.st_size, r1.len);	/* a bare record stream */

	ck_assert_int_eq(session__open(&s, &so, &d), 0);
	ck_assert(session__is_dir(s));
	ck_assert_uint_eq(features__dir_version(session__features(s)), 1);
	ck_assert_uint_eq(session__nr_files(s), 3);
	session__close(s);
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, 101);
	/* FINISHED_INIT first, then the samples of both files merged by time */
	assert_time_order(&got);
	testlib_buf_free(&got.b);
	testlib_buf_free(&r0);
	testlib_buf_free(&r1);
	testlib_buf_free(&fin);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* --- a big-endian recording, built by hand (docs/perf-data-format.md §12) ---------- */

static void be64(struct testlib_buf *b, uint64_t v)
{
	testlib_buf_u64(b, __builtin_bswap64(v));
}

static void be32(struct testlib_buf *b, uint32_t v)
{
	testlib_buf_u32(b, __builtin_bswap32(v));
}

/* A byte with its bit order reversed (the attr flag word of a big-endian file). */
static unsigned char rev8(unsigned char c)
{
	unsigned char r = 0;

	for (int i = 0; i < 8; i++)
		if (c & (1u << i))
			r |= (unsigned char)(0x80u >> i);
	return r;
}

/* The attr a (VER7) as a big-endian machine stores it. */
static void be_attr(struct testlib_buf *b, const struct event_attr *a)
{
	unsigned char n[ATTR_SIZE_VER7];

	ck_assert_int_eq(attr__encode(a, n, sizeof(n)), 0);
	be32(b, bytes__u32(n));
	be32(b, bytes__u32(n + 4));
	for (size_t off = 8; off < 40; off += 8)
		be64(b, bytes__u64(n + off));
	for (size_t i = 0; i < 8; i++) {
		unsigned char c = rev8(n[40 + i]);

		testlib_buf_add(b, &c, 1);
	}
	be32(b, bytes__u32(n + 48));
	be32(b, bytes__u32(n + 52));
	for (size_t off = 56; off < 88; off += 8)
		be64(b, bytes__u64(n + off));
	be32(b, bytes__u32(n + 88));
	be32(b, bytes__u32(n + 92));
	be64(b, bytes__u64(n + 96));
	be32(b, bytes__u32(n + 104));
	testlib_buf_add(b, n + 108, 4);	/* sample_max_stack, reserved: zero */
	be32(b, bytes__u32(n + 112));
	testlib_buf_add(b, n + 116, 4);
	be64(b, bytes__u64(n + 120));
}

/* A string feature body as a big-endian perf writes it. */
static void be_str(struct testlib_buf *b, const char *s)
{
	unsigned char pad[64] = { 0 };

	be32(b, 64);
	memcpy(pad, s, strlen(s));
	testlib_buf_add(b, pad, 64);
}

START_TEST(test_writer_big_endian_input)
{
	char *dir = testlib_tmpdir(), in[512], out[512];
	struct event_attr a = testlib_attr(0);
	struct testlib_buf f = { 0 }, host = { 0 };
	struct convert_opts o = { 0 };
	struct diag d = { 0 };
	struct collect want, got;
	struct session_opts so = { .path = out, .jobs = 1 };
	struct session *s;
	const struct features *ft;
	uint64_t data_off, data_size, feat_pos;
	unsigned char *raw;
	size_t len;
	bool pipe, swap;

	snprintf(in, sizeof(in), "%s/be.data", dir);
	snprintf(out, sizeof(out), "%s/native.data", dir);
	/* header placeholder, one id, the attr, the records */
	testlib_buf_add(&f, (unsigned char[FILE_HEADER_SIZE]){ 0 }, FILE_HEADER_SIZE);
	be64(&f, 9);
	be_attr(&f, &a);
	be64(&f, FILE_HEADER_SIZE);
	be64(&f, 8);
	data_off = f.len;
	/* COMM: type 3, misc 0x2000 (exec), pid/tid, "sh", trailer pid/tid + time */
	be32(&f, REC_COMM);
	testlib_buf_add(&f, (unsigned char[]){ 0x20, 0x00, 0, 40 }, 4);
	be32(&f, 77);
	be32(&f, 77);
	testlib_buf_add(&f, "sh\0\0\0\0\0\0", 8);
	be32(&f, 77);
	be32(&f, 77);
	be64(&f, 500);
	for (unsigned i = 0; i < 3; i++) {	/* SAMPLE: ip, pid/tid, time, period */
		be32(&f, REC_SAMPLE);
		testlib_buf_add(&f, (unsigned char[]){ 0x00, 0x02, 0, 40 }, 4);
		be64(&f, 0x401000 + i);
		be32(&f, 77);
		be32(&f, 77);
		be64(&f, 1000 + i);
		be64(&f, 250000);
	}
	data_size = f.len - data_off;
	/* features HOSTNAME (3) and NRCPUS (7) */
	feat_pos = f.len + 32;
	be64(&f, feat_pos);
	be64(&f, 68);
	be64(&f, feat_pos + 68);
	be64(&f, 8);
	be_str(&f, "bigbox");
	be32(&f, 4);	/* nr_cpus_avail */
	be32(&f, 2);	/* nr_cpus_online */
	memcpy(f.p, "2ELIFREP", 8);	/* the magic u64 stored big-endian */
	{
		uint64_t hv[] = { 0, FILE_HEADER_SIZE, 144, FILE_HEADER_SIZE + 8, 144,
				  data_off, data_size, 0, 0,
				  (1ULL << FEAT_HOSTNAME) | (1ULL << FEAT_NRCPUS) };

		for (size_t i = 1; i < sizeof(hv) / sizeof(hv[0]); i++)
			bytes__put_u64(f.p + 8 * i, __builtin_bswap64(hv[i]));
	}
	testlib_write_raw(in, f.p, f.len);
	raw = slurp(in, &len);
	ck_assert_int_eq(file_header__probe(raw, len, &pipe, &swap), 0);
	ck_assert(swap);
	free(raw);
	read_records(in, &want);	/* the records in host order, as our reader makes them */
	ck_assert_uint_eq(want.nr, 4);

	o.input = in;
	o.to_file = out;
	o.jobs = 1;
	ck_assert_msg(cmd_write(&o, &d) == 0, "%s", d.msg);
	raw = slurp(out, &len);
	ck_assert_int_eq(file_header__probe(raw, len, &pipe, &swap), 0);
	ck_assert(!swap);
	free(raw);
	read_records(out, &got);
	ck_assert_uint_eq(got.nr, 4);
	ck_assert_uint_eq(got.b.len, want.b.len);
	ck_assert_mem_eq(got.b.p, want.b.p, want.b.len);
	ck_assert_int_eq(session__open(&s, &so, &d), 0);
	ft = session__features(s);
	ck_assert_str_eq(ft->hostname, "bigbox");
	ck_assert_uint_eq(ft->nr_cpus_avail, 4);
	ck_assert_uint_eq(ft->nr_cpus_online, 2);
	ck_assert_uint_eq(session__evlist(s)->evsels[0]->ids[0], 9);
	ck_assert_uint_eq(session__evlist(s)->evsels[0]->attr.flags, a.flags);
	session__close(s);
	testlib_buf_free(&want.b);
	testlib_buf_free(&got.b);
	testlib_buf_free(&f);
	testlib_buf_free(&host);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* a SAMPLE of `size` bytes of RAW data: random (incompressible) with x, else a
 * pattern */
static void raw_sample(struct testlib_buf *b, size_t size, uint64_t *x)
{
	unsigned char *rec = malloc(size);

	bytes__put_u32(rec, REC_SAMPLE);
	bytes__put_u16(rec + 4, 0);
	bytes__put_u16(rec + 6, (uint16_t)size);
	bytes__put_u32(rec + 8, (uint32_t)size - 12);	/* RAW size */
	for (size_t i = 12; i < size; i++) {
		if (x)
			*x ^= *x << 13, *x ^= *x >> 7, *x ^= *x << 17;
		rec[i] = x ? (unsigned char)*x : (unsigned char)(i % 7);
	}
	testlib_buf_add(b, rec, size);
	free(rec);
}

/* Every COMPRESSED record of the file at path, fed in order to one zstd decompression
 * stream, gives whole records: none is cut between two COMPRESSED records (perf 6.1
 * fails on a file where one is: 'failed to process type: 81'). */
static void whole_records(void *ctx, uint64_t pos, const unsigned char *payload, size_t n,
			  const unsigned char *out, size_t out_len, size_t ret)
{
	size_t q;

	(void)ctx;
	(void)payload;
	(void)n;
	(void)ret;
	for (q = 0; q + 8 <= out_len;) {
		struct record_header ih;

		record_header__get(&ih, out + q);
		ck_assert_uint_ge(ih.size, 8);
		q += ih.size;
	}
	ck_assert_msg(q == out_len, "a record cut at the end of the COMPRESSED record at %llu",
		      (unsigned long long)pos);
}

static void assert_whole_per_container(const char *path)
{
	each_compressed(path, 1u << 20, whole_records, NULL);
}

/* _i 0: a frame per COMPRESSED record, 1: comp_stream */
START_TEST(test_writer_incompressible_and_errors)
{
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	struct writer_opts o = { .comp_level = 1, .comp_stream = _i }, bad = { .dir = true };
	struct testlib_buf recs = { 0 };
	struct diag d = { 0 };
	struct collect got;
	struct writer *w;
	uint64_t id = 1, x = 88172645463325252ULL;

	snprintf(path, sizeof(path), "%s/x.data", dir);
	ck_assert_int_eq(writer__open(&w, dir, &bad, &d), -EINVAL);
	/* records of random bytes: a 65528-byte one does not fit a COMPRESSED record
	 * (written plain: perf mixes plain and COMPRESSED records too); smaller ones go
	 * into COMPRESSED records as zstd's raw blocks; samples around them */
	raw_sample(&recs, 65528, &x);
	for (unsigned i = 0; i < 6; i++)
		raw_sample(&recs, 20000 + 4000 * i, &x);
	for (unsigned i = 0; i < 500; i++)
		raw_sample(&recs, 40 + 8 * (i % 5), NULL);
	raw_sample(&recs, 30000, &x);
	a.sample_type = SAMPLE_RAW;
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, &a, &id, 1), 0);
	ck_assert_int_eq(writer__write(w, 0, recs.p, 4, 0, 0), -EINVAL);
	for (size_t pos = 0; pos < recs.len;) {
		struct record_header h;

		record_header__get(&h, recs.p + pos);
		ck_assert_int_eq(writer__write(w, 0, recs.p + pos, h.size, 0, 0), 0);
		pos += h.size;
	}
	ck_assert_int_eq(writer__close(w, &d), 0);
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, 508);
	ck_assert_uint_eq(got.b.len, recs.len);
	ck_assert_mem_eq(got.b.p, recs.p, recs.len);
	assert_whole_per_container(path);
	testlib_buf_free(&got.b);
	testlib_buf_free(&recs);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), -EEXIST);	/* never replaced */
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* writer__set_string_feature(), writer__set_strings_feature(), writer__set_event_desc(),
 * writer__set_build_ids(), writer__set_group_desc(), writer__set_pmu_mappings() and the
 * topology setters (what dirrecord writes its header with): read back by the session
 * as the features they set. */
START_TEST(test_writer_feature_setters)
{
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	struct writer_opts o = { 0 };
	struct diag d = { 0 };
	struct writer *w;
	struct session_opts so = { .path = path, .jobs = 1 };
	struct session *s;
	const struct features *ft;
	const char *argv[] = { "dirrecord", "-o", "x y", "--", "sleep", "1" };
	uint64_t ids[] = { 7, 8 };
	struct feat_event ev = { .attr = a, .name = "cpu-clock", .ids = ids, .nr_ids = 2 };
	struct feat_pmu_mapping pmus[2] = { { 1, "software" }, { 8, "uprobe" } };
	struct feat_group grp = { .name = "{anon_group}", .leader_idx = 0, .nr_members = 1 };
	struct feat_build_id bid[2] = {
		{ .pid = -1, .misc = MISC_KERNEL, .size = 20, .filename = "[kernel.kallsyms]" },
		{ .pid = -1, .misc = MISC_USER, .size = 20, .filename = "/usr/bin/true" },
	};

	char *pkg[] = { "0-1" }, *core[] = { "0", "1" }, *die[] = { "0-1" };
	struct feat_cpu cpus[2] = { { 0, 0, 0 }, { 1, 0, 0 } };
	struct feat_cpu_topology topo = {
		.package_cpus = pkg, .nr_package_cpus = 1, .core_cpus = core,
		.nr_core_cpus = 2, .has_cpus = true, .cpus = cpus, .nr_cpus = 2,
		.has_dies = true, .die_cpus = die, .nr_die_cpus = 1,
	};
	struct feat_numa_node numa = { .node = 0, .mem_total_kb = 1000, .mem_free_kb = 400,
				       .cpus = "0-1" };
	struct feat_cache caches[2] = {
		{ 1, 64, 64, 12, "Data", "48K", "0" },
		{ 3, 64, 4096, 16, "Unified", "32768K", "0-1" },
	};
	uint64_t bits[1] = { 0xff00ffULL };
	struct feat_mem_node mem = { .node = 0, .size = 24, .nbits = 24, .bits = bits };
	uint32_t nrcpus[2] = { 2, 2 };

	for (int i = 0; i < 20; i++) {
		bid[0].build_id[i] = (uint8_t)i;
		bid[1].build_id[i] = (uint8_t)(0xa0 + i);
	}
	snprintf(path, sizeof(path), "%s/f.data", dir);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, &a, ids, 2), 0);
	ck_assert_int_eq(writer__set_string_feature(w, FEAT_HOSTNAME, "host-with-a-long-name"),
			 0);
	ck_assert_int_eq(writer__set_string_feature(w, FEAT_CPUID, NULL), 0);
	ck_assert_int_eq(writer__set_string_feature(w, 0, "x"), -EINVAL);
	ck_assert_int_eq(writer__set_strings_feature(w, FEAT_CMDLINE, argv, 6), 0);
	ck_assert_int_eq(writer__set_event_desc(w, &ev, 1), 0);
	ck_assert_int_eq(writer__set_build_ids(w, bid, 2), 0);
	ck_assert_int_eq(writer__set_group_desc(w, &grp, 1), 0);
	ck_assert_int_eq(writer__set_pmu_mappings(w, pmus, 2), 0);
	ck_assert_int_eq(writer__set_feature(w, FEAT_NRCPUS, nrcpus, sizeof(nrcpus)), 0);
	ck_assert_int_eq(writer__set_cpu_topology(w, &topo), 0);
	ck_assert_int_eq(writer__set_numa_topology(w, &numa, 1), 0);
	ck_assert_int_eq(writer__set_caches(w, caches, 2), 0);
	ck_assert_int_eq(writer__set_mem_topology(w, 0x8000000, &mem, 1), 0);
	ck_assert_msg(writer__close(w, &d) == 0, "%s", d.msg);

	ck_assert_msg(session__open(&s, &so, &d) == 0, "%s", d.msg);
	ft = session__features(s);
	ck_assert_str_eq(ft->hostname, "host-with-a-long-name");
	ck_assert_str_eq(ft->cpuid, "");
	ck_assert_uint_eq(ft->nr_cmdline, 6);
	for (int i = 0; i < 6; i++)
		ck_assert_str_eq(ft->cmdline[i], argv[i]);
	ck_assert_uint_eq(ft->nr_events, 1);
	ck_assert_str_eq(ft->events[0].name, "cpu-clock");
	ck_assert_uint_eq(ft->events[0].nr_ids, 2);
	ck_assert_uint_eq(ft->events[0].ids[1], 8);
	ck_assert_uint_eq(ft->events[0].attr.sample_type, a.sample_type);
	ck_assert_uint_eq(ft->nr_build_ids, 2);
	ck_assert_str_eq(ft->build_ids[1].filename, "/usr/bin/true");
	ck_assert_int_eq(ft->build_ids[1].pid, -1);
	ck_assert_uint_eq(ft->build_ids[1].size, 20);
	ck_assert_mem_eq(ft->build_ids[1].build_id, bid[1].build_id, 20);
	ck_assert_uint_eq(ft->build_ids[0].misc & MISC_CPUMODE_MASK, MISC_KERNEL);
	ck_assert_uint_eq(ft->nr_groups, 1);
	ck_assert_str_eq(ft->groups[0].name, "{anon_group}");
	ck_assert_uint_eq(ft->groups[0].nr_members, 1);
	ck_assert_uint_eq(ft->nr_pmu_mappings, 2);
	ck_assert_uint_eq(ft->pmu_mappings[1].type, 8);
	ck_assert_str_eq(ft->pmu_mappings[1].name, "uprobe");
	ck_assert_uint_eq(ft->cpu_topo.nr_package_cpus, 1);
	ck_assert_str_eq(ft->cpu_topo.package_cpus[0], "0-1");
	ck_assert_uint_eq(ft->cpu_topo.nr_core_cpus, 2);
	ck_assert_str_eq(ft->cpu_topo.core_cpus[1], "1");
	ck_assert(ft->cpu_topo.has_cpus && ft->cpu_topo.has_dies);
	ck_assert_uint_eq(ft->cpu_topo.nr_cpus, 2);
	ck_assert_uint_eq(ft->cpu_topo.cpus[1].core_id, 1);
	ck_assert_str_eq(ft->cpu_topo.die_cpus[0], "0-1");
	ck_assert_uint_eq(ft->nr_numa_nodes, 1);
	ck_assert_uint_eq(ft->numa_nodes[0].mem_free_kb, 400);
	ck_assert_str_eq(ft->numa_nodes[0].cpus_norm, "0-1");
	ck_assert_uint_eq(ft->cache_version, 1);
	ck_assert_uint_eq(ft->nr_caches, 2);
	ck_assert_uint_eq(ft->caches[1].sets, 4096);
	ck_assert_str_eq(ft->caches[1].map, "0-1");
	ck_assert_str_eq(ft->caches[0].type, "Data");
	ck_assert_uint_eq(ft->mem_block_size, 0x8000000);
	ck_assert_uint_eq(ft->nr_mem_nodes, 1);
	ck_assert_uint_eq(ft->mem_nodes[0].nbits, 24);
	ck_assert_uint_eq(ft->mem_nodes[0].bits[0], 0xff00ff);
	session__close(s);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* one thread per data file: write_records() of its buffer into its stream */
struct stream_job {
	struct writer *w;
	unsigned stream;
	const struct testlib_buf *b;
};

static void *write_stream(void *arg)
{
	const struct stream_job *j = arg;

	write_records(j->w, j->stream, j->b);
	return NULL;
}

/* the cases of test_writer_salvage */
static const struct salvage_case {
	bool comp;		/* compressed through one zstd stream (comp_stream) */
	unsigned nr_cblocks;	/* asynchronous writes */
	rlim_t limit;		/* bytes */
	bool flushes;		/* writer__flush() every 1000 bytes or so */
	unsigned nr_samples;	/* of random addresses (0: make_records()) */
} salvage_cases[] = {
	{ false, 0, 48 << 10, true, 0 },
	{ true, 0, 48 << 10, true, 12000 },
	{ false, 2, 48 << 10, true, 0 },
	{ true, 2, 48 << 10, true, 12000 },
	/* buffers in flight when the limit is reached: 4 of 256 KiB */
	{ false, 4, (1 << 20) + (100 << 10), false, 60000 },
	{ true, 3, (512 << 10) + (100 << 10), false, 120000 },
};

/*
 * writer__salvage(): a file limit (RLIMIT_FSIZE, in a child: as a full disk, the
 * writes fail, here with EFBIG) stops the records midway; the salvaged file holds a
 * prefix of them, whole, read back by the session, and no more bytes than the limit.
 * The cases: plain records; compressed through one zstd stream (comp_stream), whose
 * kept COMPRESSED records decode without what was cut; each also with asynchronous
 * writes (nr_cblocks: io_uring, the error reported by a later call), and with several
 * buffers in flight when the limit is reached.  After the error the stream takes no
 * more records (with comp_stream, its zstd stream took what never reached the file).
 */
START_TEST(test_writer_salvage)
{
	const struct salvage_case *c = &salvage_cases[_i];
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	uint64_t ids[1] = { 7 };
	struct testlib_buf recs = { 0 };
	struct collect got;
	struct stat st;
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/full.data", dir);
	if (c->nr_samples) {	/* random addresses: about 3 times smaller compressed */
		uint64_t x = 88172645463325252ULL;

		for (unsigned i = 0; i < c->nr_samples; i++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			testlib_rec_sample(&recs, &a, x, 42, 42, 1000 + 10 * i, 7, 1000);
		}
	} else {
		make_records(&recs, &a, 7);
	}
	ck_assert_uint_gt(recs.len, 2 * c->limit);	/* the limit is reached */
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct rlimit rl = { c->limit, c->limit };
		struct writer_opts o = { .rounds = true, .comp_level = c->comp ? 1 : 0,
					 .comp_stream = c->comp, .nr_cblocks = c->nr_cblocks };
		struct diag d = { 0 };
		struct writer *w;
		int err = 0;

		signal(SIGXFSZ, SIG_IGN);
		if (setrlimit(RLIMIT_FSIZE, &rl) || writer__open(&w, path, &o, &d) ||
		    writer__add_event(w, &a, ids, 1) ||
		    writer__set_string_feature(w, FEAT_HOSTNAME, "salvaged"))
			_exit(2);
		for (size_t pos = 0; pos < recs.len && !err;) {
			struct record_header h;

			record_header__get(&h, recs.p + pos);
			err = writer__write(w, 0, recs.p + pos, h.size, 0,
					    c->comp ? 0 : WRITER_PLAIN);
			pos += h.size;
			/* out every 1000 bytes or so, not only when the buffer is full */
			if (!err && c->flushes && pos % 1000 < h.size)
				err = writer__flush(w, 0);
		}
		if (!err)
			err = writer__flush(w, 0);
		if (err != -EFBIG)
			_exit(3);
		/* the stream stopped: no more records, even where they would fit */
		if (writer__write(w, 0, recs.p + recs.len - 40, 40, 0, 0) != -EFBIG ||
		    writer__flush(w, 0) != -EFBIG || writer__round(w, 0) != -EFBIG)
			_exit(5);
		_exit(writer__salvage(w, &d) ? 4 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	ck_assert_int_eq(stat(path, &st), 0);
	ck_assert_int_le(st.st_size, (off_t)c->limit);
	read_records(path, &got);
	ck_assert_uint_gt(got.nr, 100);
	ck_assert_uint_lt(got.b.len, recs.len);
	ck_assert_mem_eq(got.b.p, recs.p, got.b.len);	/* whole records, in order */
	if (c->limit > OBUF_BYTES)	/* whole buffers up to the last one before it */
		ck_assert_uint_gt((uint64_t)st.st_size, c->limit - 2 * OBUF_BYTES);
	testlib_buf_free(&got.b);
	testlib_buf_free(&recs);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * Asynchronous writes (nr_cblocks 1..4, io_uring): a file and a directory of several
 * MiB, plain and compressed (comp_stream), written by a thread per data file as
 * dirrecord --threads writes them: every record read back, in order; no fallback
 * where this kernel has io_uring (else only its errno).
 */
START_TEST(test_writer_aio)
{
	const unsigned cblocks = 1 + (unsigned)_i % 4;
	const bool comp = _i >= 4;
	char *dir = testlib_tmpdir(), path[512], file[512];
	struct event_attr a = testlib_attr(0);
	uint64_t id = 7;
	struct writer_opts o = { .dir = true, .nr_data_files = 2, .nr_cblocks = cblocks,
				 .comp_level = comp ? 1 : 0, .comp_stream = comp };
	struct writer_opts of = { .nr_cblocks = cblocks, .comp_level = comp ? 1 : 0,
				  .comp_stream = comp, .rounds = true };
	struct testlib_buf r[2] = { { 0 } }, fin = { 0 }, one = { 0 };
	struct stream_job job[2];
	pthread_t th[2];
	struct diag d = { 0 };
	struct collect got;
	struct writer *w;
	int fb;

	snprintf(path, sizeof(path), "%s/out.data", dir);
	snprintf(file, sizeof(file), "%s/one.data", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	testlib_rec_header_only(&fin, REC_FINISHED_INIT);
	make_samples(&r[0], &a, id, 60000);	/* 2.4 MB each: buffers in flight */
	make_samples(&r[1], &a, id, 60000);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	fb = writer__aio_fallback(w);
	ck_assert_msg(fb == 0 || fb == -ENOSYS || fb == -EPERM || fb == -ENOMEM, "%d", fb);
	ck_assert_int_eq(writer__add_event(w, &a, &id, 1), 0);
	write_records(w, 0, &fin);
	for (unsigned k = 0; k < 2; k++) {
		job[k] = (struct stream_job){ .w = w, .stream = 1 + k, .b = &r[k] };
		ck_assert_int_eq(pthread_create(&th[k], NULL, write_stream, &job[k]), 0);
	}
	for (unsigned k = 0; k < 2; k++)
		ck_assert_int_eq(pthread_join(th[k], NULL), 0);
	ck_assert_msg(writer__close(w, &d) == 0, "%s", d.msg);
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, 120001);
	testlib_buf_free(&got.b);

	/* a file: the records back byte for byte */
	testlib_buf_add(&one, fin.p, fin.len);
	testlib_buf_add(&one, r[0].p, r[0].len);
	ck_assert_int_eq(writer__open(&w, file, &of, &d), 0);
	ck_assert_int_eq(writer__aio_fallback(w), fb);
	ck_assert_int_eq(writer__add_event(w, &a, &id, 1), 0);
	write_records(w, 0, &one);
	ck_assert_msg(writer__close(w, &d) == 0, "%s", d.msg);
	read_records(file, &got);
	ck_assert_uint_eq(got.nr, 60001);
	ck_assert_uint_eq(got.b.len, one.len);
	ck_assert_mem_eq(got.b.p, one.p, one.len);
	testlib_buf_free(&got.b);
	testlib_buf_free(&one);
	testlib_buf_free(&r[0]);
	testlib_buf_free(&r[1]);
	testlib_buf_free(&fin);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* A seccomp filter that fails io_uring_setup(2) (number 425 on every architecture)
 * with err, as a kernel without io_uring (ENOSYS) or a container forbidding it
 * (EPERM). */
static int deny_io_uring(int err)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 425, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (unsigned)err),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = sizeof(f) / sizeof(f[0]), .filter = f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -1;
	return prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog);
}

/* io_uring_setup failing (_i 0: ENOSYS, 1: EPERM; in a child, under a seccomp
 * filter): writer__open() succeeds with plain writes, writer__aio_fallback() says
 * why, and the records are all written. */
START_TEST(test_writer_aio_fallback)
{
	const int want = _i ? EPERM : ENOSYS;
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	struct testlib_buf recs = { 0 };
	struct collect got;
	int status = 0;
	pid_t pid;

	snprintf(path, sizeof(path), "%s/plain.data", dir);
	make_records(&recs, &a, 7);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct writer_opts o = { .nr_cblocks = 2, .rounds = true };
		struct diag d = { 0 };
		struct writer *w;
		uint64_t id = 7;

		if (deny_io_uring(want))
			_exit(2);
		if (writer__open(&w, path, &o, &d) || writer__add_event(w, &a, &id, 1))
			_exit(3);
		if (writer__aio_fallback(w) != -want)
			_exit(4);
		write_records(w, 0, &recs);
		_exit(writer__close(w, &d) ? 5 : 0);
	}
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, NR_SAMPLES + 1);
	ck_assert_uint_eq(got.b.len, recs.len);
	ck_assert_mem_eq(got.b.p, recs.p, recs.len);
	testlib_buf_free(&got.b);
	testlib_buf_free(&recs);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* distinct streams written by distinct threads at once, compressed (each stream has its
 * own zstd context): every record read back, in time order */
START_TEST(test_writer_streams_threads)
{
	char *dir = testlib_tmpdir(), path[512];
	struct event_attr a = testlib_attr(0);
	uint64_t id = 7;
	struct writer_opts o = { .dir = true, .nr_data_files = 2, .comp_level = 3,
				 .index_bytes = 4096 };
	struct testlib_buf r[2] = { { 0 } }, fin = { 0 };
	struct stream_job job[2];
	pthread_t th[2];
	struct diag d = { 0 };
	struct collect got;
	struct writer *w;

	snprintf(path, sizeof(path), "%s/out.data", dir);
	ck_assert_int_eq(mkdir(path, 0777), 0);
	testlib_rec_header_only(&fin, REC_FINISHED_INIT);
	for (unsigned i = 0; i < 20000; i++)
		testlib_rec_sample(&r[i % 2], &a, 0x1000 + i % 64, 5, 5, 100 + i, id, 1);
	ck_assert_int_eq(writer__open(&w, path, &o, &d), 0);
	ck_assert_int_eq(writer__add_event(w, &a, &id, 1), 0);
	write_records(w, 0, &fin);	/* stream 0 first: the header is laid out */
	for (unsigned k = 0; k < 2; k++) {
		job[k] = (struct stream_job){ .w = w, .stream = 1 + k, .b = &r[k] };
		ck_assert_int_eq(pthread_create(&th[k], NULL, write_stream, &job[k]), 0);
	}
	for (unsigned k = 0; k < 2; k++)
		ck_assert_int_eq(pthread_join(th[k], NULL), 0);
	ck_assert_int_eq(writer__close(w, &d), 0);
	read_records(path, &got);
	ck_assert_uint_eq(got.nr, 20001);
	assert_time_order(&got);
	testlib_buf_free(&got.b);
	testlib_buf_free(&r[0]);
	testlib_buf_free(&r[1]);
	testlib_buf_free(&fin);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

Suite *writer_suite(void)
{
	Suite *s = suite_create("writer");
	TCase *tc = tcase_create("writer");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_writer_file_layout_and_frames);
	tcase_add_test(tc, test_writer_directory);
	tcase_add_test(tc, test_writer_streams_threads);
	tcase_add_test(tc, test_writer_big_endian_input);
	tcase_add_loop_test(tc, test_writer_incompressible_and_errors, 0, 2);
	tcase_add_test(tc, test_writer_comp_stream);
	tcase_add_test(tc, test_writer_feature_setters);
	tcase_add_loop_test(tc, test_writer_salvage, 0,
			    sizeof(salvage_cases) / sizeof(salvage_cases[0]));
	tcase_add_loop_test(tc, test_writer_aio, 0, 8);
	tcase_add_loop_test(tc, test_writer_aio_fallback, 0, 2);
	suite_add_tcase(s, tc);
	return s;
}
