#ifndef DIRREPORT_TESTS_TESTLIB_H
#define DIRREPORT_TESTS_TESTLIB_H
/*
 * testlib - builders for synthetic perf.data inputs: records, regular files, data
 * directories and zstd-compressed streams, written exactly as perf 6.1 lays them out
 * (docs/perf-data-format.md §§1-6), so unit tests can create edge cases real recordings rarely
 * contain.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/attr.h"

struct testlib_buf {
	unsigned char *p;
	size_t len, cap;
};

void testlib_buf_add(struct testlib_buf *b, const void *p, size_t n);
void testlib_buf_u32(struct testlib_buf *b, uint32_t v);
void testlib_buf_u64(struct testlib_buf *b, uint64_t v);
void testlib_buf_free(struct testlib_buf *b);

/* The attr perf 6.1 writes for `-e cpu-clock`: IP|TID|TIME|PERIOD (+ extra bits),
 * sample_id_all, freq 4000, 128 bytes. */
struct event_attr testlib_attr(uint64_t extra_sample_type);

/* Records (host order). */
void testlib_rec_sample(struct testlib_buf *b, const struct event_attr *a, uint64_t ip,
			uint32_t pid, uint32_t tid, uint64_t time, uint64_t id,
			uint64_t period);
void testlib_rec_comm(struct testlib_buf *b, const struct event_attr *a, uint32_t pid,
		      uint32_t tid, const char *comm, uint64_t time, uint64_t id);
void testlib_rec_header_only(struct testlib_buf *b, uint32_t type);

/* Wrap `raw` into COMPRESSED records, one zstd stream flushed at each of the byte
 * positions in cuts[] (which need not be record boundaries). */
void testlib_compress(struct testlib_buf *out, const unsigned char *raw, size_t len,
		      const size_t *cuts, size_t nr_cuts);

/* Write a regular perf.data file: one attr with the given ids, a data section, and
 * features (bitmap of FEAT_DIR_FORMAT=1 when dir_format, COMPRESSED when compressed). */
void testlib_write_file(const char *path, const struct event_attr *attrs, size_t nr_attrs,
			const uint64_t *const *ids, const size_t *nr_ids,
			const unsigned char *data, size_t data_len, bool dir_format,
			bool compressed);

/* Write bytes to path (creating or truncating). */
void testlib_write_raw(const char *path, const void *p, size_t n);

/* A fresh temporary directory under $TMPDIR (removed by testlib_rmtree). */
char *testlib_tmpdir(void);
void testlib_rmtree(const char *path);

#endif
