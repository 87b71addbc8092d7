#include "testlib.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zstd.h>

#include "format/header.h"
#include "format/record.h"
#include "banned.h"

void testlib_buf_add(struct testlib_buf *b, const void *p, size_t n)
{
	if (b->len + n > b->cap) {
		b->cap = (b->len + n) * 2 + 64;
		b->p = realloc(b->p, b->cap);
		ck_assert_ptr_nonnull(b->p);
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

void testlib_buf_u32(struct testlib_buf *b, uint32_t v) { testlib_buf_add(b, &v, 4); }
void testlib_buf_u64(struct testlib_buf *b, uint64_t v) { testlib_buf_add(b, &v, 8); }

void testlib_buf_free(struct testlib_buf *b)
{
	free(b->p);
	memset(b, 0, sizeof(*b));
}

struct event_attr testlib_attr(uint64_t extra)
{
	struct event_attr a;

	/* padding zeroed too: tests compare attrs with memcmp (a designated initializer
	 * leaves it unspecified; clang leaves it as it was) */
	memset(&a, 0, sizeof(a));
	a.type = ATTR_TYPE_SOFTWARE;
	a.size = ATTR_SIZE_VER7;
	a.sample_period = 4000;
	a.sample_type = SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_PERIOD | extra;
	a.read_format = FORMAT_ID | FORMAT_LOST;
	a.flags = 0x61943703ULL;	/* perf record -e cpu-clock, docs/perf-data-format.md §1.3 */
	return a;
}

static void header(struct testlib_buf *b, uint32_t type, uint16_t misc, uint16_t size)
{
	testlib_buf_u32(b, type);
	testlib_buf_add(b, &misc, 2);
	testlib_buf_add(b, &size, 2);
}

/* sample_id trailer of non-sample records */
static void trailer(struct testlib_buf *b, const struct event_attr *a, uint32_t pid,
		    uint32_t tid, uint64_t time, uint64_t id)
{
	uint64_t t = a->sample_type;

	if (t & SAMPLE_TID) {
		testlib_buf_u32(b, pid);
		testlib_buf_u32(b, tid);
	}
	if (t & SAMPLE_TIME)
		testlib_buf_u64(b, time);
	if (t & SAMPLE_ID)
		testlib_buf_u64(b, id);
	if (t & SAMPLE_STREAM_ID)
		testlib_buf_u64(b, id);
	if (t & SAMPLE_CPU)
		testlib_buf_u64(b, 0);
	if (t & SAMPLE_IDENTIFIER)
		testlib_buf_u64(b, id);
}

void testlib_rec_sample(struct testlib_buf *b, const struct event_attr *a, uint64_t ip,
			uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
			uint64_t period)
{
	uint64_t t = a->sample_type;
	size_t n = 8 + 8 * (!!(t & SAMPLE_IDENTIFIER) + !!(t & SAMPLE_IP) +
			    !!(t & SAMPLE_TID) + !!(t & SAMPLE_TIME) + !!(t & SAMPLE_ID) +
			    !!(t & SAMPLE_CPU) + !!(t & SAMPLE_PERIOD));

	header(b, REC_SAMPLE, MISC_USER, (uint16_t)n);
	if (t & SAMPLE_IDENTIFIER)
		testlib_buf_u64(b, id);
	if (t & SAMPLE_IP)
		testlib_buf_u64(b, ip);
	if (t & SAMPLE_TID) {
		testlib_buf_u32(b, pid);
		testlib_buf_u32(b, tid);
	}
	if (t & SAMPLE_TIME)
		testlib_buf_u64(b, time);
	if (t & SAMPLE_ID)
		testlib_buf_u64(b, id);
	if (t & SAMPLE_CPU)
		testlib_buf_u64(b, 1);
	if (t & SAMPLE_PERIOD)
		testlib_buf_u64(b, period);
}

void testlib_rec_comm(struct testlib_buf *b, const struct event_attr *a, uint32_t pid,
		      uint32_t tid, const char *comm, uint64_t time, uint64_t id)
{
	char name[16] = { 0 };
	size_t tl = attr__id_hdr_size(a);

	snprintf(name, sizeof(name), "%s", comm);
	header(b, REC_COMM, 0, (uint16_t)(8 + 8 + 16 + tl));
	testlib_buf_u32(b, pid);
	testlib_buf_u32(b, tid);
	testlib_buf_add(b, name, 16);
	trailer(b, a, pid, tid, time, id);
}

void testlib_rec_header_only(struct testlib_buf *b, uint32_t type)
{
	header(b, type, 0, 8);
}

void testlib_compress(struct testlib_buf *out, const unsigned char *raw, size_t len,
		      const size_t *cuts, size_t nr_cuts)
{
	ZSTD_CStream *cs = ZSTD_createCStream();
	size_t prev = 0, cap = ZSTD_compressBound(len) + 1024;
	unsigned char *tmp = malloc(cap);

	ck_assert_ptr_nonnull(cs);
	ck_assert_ptr_nonnull(tmp);
	ZSTD_initCStream(cs, 1);
	for (size_t i = 0; i <= nr_cuts; i++) {
		size_t end = i < nr_cuts ? cuts[i] : len;
		ZSTD_inBuffer in = { raw + prev, end - prev, 0 };
		ZSTD_outBuffer o = { tmp, cap, 0 };
		size_t rest;

		while (in.pos < in.size)
			ck_assert(!ZSTD_isError(ZSTD_compressStream(cs, &o, &in)));
		do {	/* flush, never end the frame: perf's way */
			rest = ZSTD_flushStream(cs, &o);
			ck_assert(!ZSTD_isError(rest));
		} while (rest);
		header(out, REC_COMPRESSED, 0, (uint16_t)(8 + o.pos));
		ck_assert_uint_le(o.pos, 65527);
		testlib_buf_add(out, tmp, o.pos);
		prev = end;
	}
	free(tmp);
	ZSTD_freeCStream(cs);
}

void testlib_write_raw(const char *path, const void *p, size_t n)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(p, 1, n, f), n);
	ck_assert_int_eq(fclose(f), 0);
}

static void put_u64(unsigned char *p, uint64_t v) { memcpy(p, &v, 8); }

void testlib_write_file(const char *path, const struct event_attr *attrs, size_t nr_attrs,
			const uint64_t *const *ids, const size_t *nr_ids,
			const unsigned char *data, size_t data_len, bool dir_format,
			bool compressed)
{
	struct testlib_buf f = { 0 };
	unsigned char hdr[FILE_HEADER_SIZE] = { 0 }, attr[ATTR_SIZE_VER7];
	uint64_t ids_off[16], data_off, attrs_off, feat_pos;
	size_t nfeat = !!dir_format + !!compressed;

	ck_assert_uint_le(nr_attrs, 16);
	testlib_buf_add(&f, hdr, sizeof(hdr));
	for (size_t i = 0; i < nr_attrs; i++) {
		ids_off[i] = f.len;
		for (size_t k = 0; k < nr_ids[i]; k++)
			testlib_buf_u64(&f, ids[i][k]);
	}
	attrs_off = f.len;
	for (size_t i = 0; i < nr_attrs; i++) {
		ck_assert_int_eq(attr__encode(&attrs[i], attr, ATTR_SIZE_VER7), 0);
		testlib_buf_add(&f, attr, sizeof(attr));
		testlib_buf_u64(&f, ids_off[i]);
		testlib_buf_u64(&f, nr_ids[i] * 8);
	}
	data_off = f.len;
	testlib_buf_add(&f, data, data_len);
	/* feature table, then bodies */
	feat_pos = f.len + 16 * nfeat;
	if (dir_format) {
		testlib_buf_u64(&f, feat_pos);
		testlib_buf_u64(&f, 8);
		feat_pos += 8;
	}
	if (compressed) {
		testlib_buf_u64(&f, feat_pos);
		testlib_buf_u64(&f, 20);
	}
	if (dir_format)
		testlib_buf_u64(&f, 1);
	if (compressed) {
		uint32_t c[5] = { 0, 1, 1, 3, 1 << 20 };	/* version type level ratio mmap_len */
		testlib_buf_add(&f, c, sizeof(c));
	}
	memcpy(f.p, "PERFILE2", 8);
	put_u64(f.p + 8, FILE_HEADER_SIZE);
	put_u64(f.p + 16, ATTR_SIZE_VER7 + 16);
	put_u64(f.p + 24, attrs_off);
	put_u64(f.p + 32, nr_attrs * (ATTR_SIZE_VER7 + 16));
	put_u64(f.p + 40, data_off);
	put_u64(f.p + 48, data_len);
	put_u64(f.p + 72, (dir_format ? 1ULL << FEAT_DIR_FORMAT : 0) |
			  (compressed ? 1ULL << FEAT_COMPRESSED : 0));
	testlib_write_raw(path, f.p, f.len);
	testlib_buf_free(&f);
}

char *testlib_tmpdir(void)
{
	const char *base = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
	char *p;

	ck_assert_int_ge(asprintf(&p, "%s/dirreport-test-XXXXXX", base), 0);
	ck_assert_ptr_nonnull(mkdtemp(p));
	return p;
}

void testlib_rmtree(const char *path)
{
	char *cmd;

	ck_assert_int_ge(asprintf(&cmd, "rm -rf '%s'", path), 0);
	ck_assert_int_eq(system(cmd), 0);
	free(cmd);
}
