/*
 * Unit tests of format/index: the builder's entries (record boundaries, sizes,
 * times, counts), a write/read round trip, and every kind of damage read back as
 * -DIAG_BAD_INDEX (never trusted, never a crash); freshness against the files.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/diag.h"
#include "format/index.h"
#include "format/record.h"
#include "testlib.h"

#include "banned.h"

/* A file of 3000 bytes of "records" at data offset 100, interval 1000: records at
 * 100 (time 50), 700 (time 10), 1100 (FINISHED_ROUND), 2500 (time 90), none in the
 * interval 2100..3099 before 2500. */
static struct dir_index *build(const char *name, uint64_t size, int64_t mtime)
{
	struct dir_index_builder *b;
	struct dir_index *ix;

	ck_assert_int_eq(dir_index_builder__new(&b, 1, 1000), 0);
	ck_assert_int_eq(dir_index_builder__file(b, 0, name, size, mtime, 100, 2900), 0);
	ck_assert_int_eq(dir_index_builder__record(b, 0, 700, REC_SAMPLE, 10, false), 0);
	ck_assert_int_eq(dir_index_builder__record(b, 0, 100, REC_COMM, 50, false), 0);
	ck_assert_int_eq(dir_index_builder__record(b, 0, 1100, REC_FINISHED_ROUND, UINT64_MAX,
						   false), 0);
	ck_assert_int_eq(dir_index_builder__record(b, 0, 2500, REC_COMPRESSED, 90, true), 0);
	ck_assert_int_eq(dir_index_builder__record(b, 0, 2500, REC_SAMPLE, 90, false), 0);
	/* where they lie: the sample at 2500 came out of the container */
	ck_assert_int_eq(dir_index_builder__place(b, 0, 700, REC_SAMPLE, true), 0);
	ck_assert_int_eq(dir_index_builder__place(b, 0, 100, REC_COMM, true), 0);
	ck_assert_int_eq(dir_index_builder__place(b, 0, 1100, REC_FINISHED_ROUND, true), 0);
	ck_assert_int_eq(dir_index_builder__place(b, 0, 2500, REC_COMPRESSED, true), 0);
	ck_assert_int_eq(dir_index_builder__place(b, 0, 2500, REC_SAMPLE, false), 0);
	{
		static const uint64_t turns[] = { 100, 2500 }, imm[] = { 1100 };

		ck_assert_int_eq(dir_index_builder__scan(b, 0, 40, turns, 2, imm, 1), 0);
	}
	/* outside the data section: counted for the recording, in no entry */
	ck_assert_int_eq(dir_index_builder__record(b, 0, 10, REC_ID_INDEX, UINT64_MAX,
						   false), 0);
	ck_assert_int_eq(dir_index_builder__event(b, 0, "cpu-clock", 2), 0);
	ck_assert_int_eq(dir_index_builder__finish(b, &ix), 0);
	return ix;
}

START_TEST(test_index_builder)
{
	struct dir_index *ix = build("prof.data", 3000, 123456789);

	ck_assert_uint_eq(ix->nr_files, 1);
	ck_assert_uint_eq(ix->nr_entries, 3);
	ck_assert_uint_eq(ix->files[0].nr_entries, 3);
	/* entry 0: the records of 100..1099, from the first one */
	ck_assert_uint_eq(ix->entries[0].offset, 100);
	ck_assert_uint_eq(ix->entries[0].size, 1000);
	ck_assert_uint_eq(ix->entries[0].first_time, 10);
	ck_assert_uint_eq(ix->entries[0].last_time, 50);
	ck_assert_uint_eq(ix->entries[0].counts[0], 2);
	ck_assert_uint_eq(ix->entries[0].counts[REC_SAMPLE], 1);
	ck_assert_uint_eq(ix->entries[1].offset, 1100);
	ck_assert_uint_eq(ix->entries[1].size, 1400);	/* up to the next entry */
	ck_assert_uint_eq(ix->entries[1].nr_rounds, 1);
	ck_assert_uint_eq(ix->entries[1].first_time, UINT64_MAX);
	ck_assert_uint_eq(ix->entries[2].offset, 2500);
	ck_assert_uint_eq(ix->entries[2].size, 500);	/* up to the data's end */
	ck_assert_uint_eq(ix->entries[2].flags, DIR_INDEX_INDEPENDENT);
	/* side-band lists: entry 0 the COMM (not the sample), entry 1 the round; entry
	 * 2 has a record from compressed data: none */
	ck_assert_uint_eq(ix->entries[0].flags, DIR_INDEX_SIDEBAND);
	ck_assert_uint_eq(ix->entries[0].nr_sideband, 1);
	ck_assert_uint_eq(ix->offsets[ix->entries[0].first_sideband], 100);
	ck_assert_uint_eq(ix->entries[1].flags, DIR_INDEX_SIDEBAND);
	ck_assert_uint_eq(ix->entries[1].nr_sideband, 1);
	ck_assert_uint_eq(ix->offsets[ix->entries[1].first_sideband], 1100);
	/* the scan facts */
	ck_assert_uint_eq(ix->files[0].flags, DIR_INDEX_SCANNED);
	ck_assert_uint_eq(ix->files[0].lag, 40);
	ck_assert_uint_eq(ix->files[0].nr_turns, 2);
	ck_assert_uint_eq(ix->offsets[ix->files[0].first_turn + 1], 2500);
	ck_assert_uint_eq(ix->files[0].nr_imm, 1);
	ck_assert_uint_eq(ix->offsets[ix->files[0].first_imm], 1100);
	ck_assert_uint_eq(ix->counts[0], 6);
	ck_assert_uint_eq(ix->counts[REC_SAMPLE], 2);
	ck_assert_uint_eq(ix->counts[REC_ID_INDEX], 1);
	ck_assert_str_eq(ix->events[0].name, "cpu-clock");
	ck_assert_uint_eq(ix->events[0].nr_samples, 2);
	dir_index__delete(ix);
}
END_TEST

static unsigned char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *p = malloc(1 << 20);

	ck_assert_ptr_nonnull(f);
	*len = fread(p, 1, 1 << 20, f);
	fclose(f);
	return p;
}

START_TEST(test_index_round_trip_and_damage)
{
	char *dir = testlib_tmpdir(), path[4096];
	struct dir_index *ix = build("prof.data", 3000, 42), *back = NULL;
	struct diag d = { .offset = DIAG_NO_OFFSET };
	unsigned char *good;
	size_t len;

	snprintf(path, sizeof(path), "%s/prof.data.dirindex", dir);
	ck_assert_int_eq(dir_index__write(ix, path, &d), 0);
	ck_assert_int_eq(dir_index__read(&back, path, &d), 0);
	ck_assert_uint_eq(back->nr_entries, ix->nr_entries);
	ck_assert_int_eq(memcmp(back->entries, ix->entries,
				ix->nr_entries * sizeof(*ix->entries)), 0);
	ck_assert_int_eq(memcmp(back->counts, ix->counts, sizeof(ix->counts)), 0);
	ck_assert_uint_eq(back->nr_offsets, ix->nr_offsets);
	ck_assert_int_eq(memcmp(back->offsets, ix->offsets,
				ix->nr_offsets * sizeof(*ix->offsets)), 0);
	ck_assert_uint_eq(back->files[0].lag, 40);
	ck_assert_uint_eq(back->files[0].flags, DIR_INDEX_SCANNED);
	ck_assert_str_eq(back->files[0].name, "prof.data");
	ck_assert_int_eq(back->files[0].mtime_ns, 42);
	ck_assert_str_eq(back->events[0].name, "cpu-clock");
	dir_index__delete(back);

	good = slurp(path, &len);
	/* every byte changed in turn (a sample of them), every length cut: refused */
	for (size_t i = 0; i < len; i += 7) {
		unsigned char *bad = malloc(len);

		memcpy(bad, good, len);
		bad[i] ^= 0x5a;
		testlib_write_raw(path, bad, len);
		memset(&d, 0, sizeof(d));
		ck_assert_int_eq(dir_index__read(&back, path, &d), -DIAG_BAD_INDEX);
		ck_assert_ptr_null(back);
		ck_assert_str_eq(d.path, path);
		free(bad);
	}
	for (size_t n = 0; n < len; n += 13) {
		testlib_write_raw(path, good, n);
		ck_assert_int_eq(dir_index__read(&back, path, &d), -DIAG_BAD_INDEX);
	}
	unlink(path);
	ck_assert_int_eq(dir_index__read(&back, path, &d), -ENOENT);
	free(good);
	dir_index__delete(ix);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_index_fresh)
{
	char *dir = testlib_tmpdir(), file[4096], why[256];
	struct stat st;
	struct dir_index *ix;
	char buf[3000] = { 0 };

	snprintf(file, sizeof(file), "%s/prof.data", dir);
	testlib_write_raw(file, buf, sizeof(buf));
	ck_assert_int_eq(stat(file, &st), 0);
	ix = build("prof.data", 3000, (int64_t)st.st_mtim.tv_sec * 1000000000 +
		   st.st_mtim.tv_nsec);
	ck_assert(dir_index__fresh(ix, file, false, why, sizeof(why)));
	testlib_write_raw(file, buf, sizeof(buf) - 1);	/* another size */
	ck_assert(!dir_index__fresh(ix, file, false, why, sizeof(why)));
	ck_assert(strstr(why, "changed"));
	unlink(file);
	ck_assert(!dir_index__fresh(ix, file, false, why, sizeof(why)));
	dir_index__delete(ix);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_index_path)
{
	char buf[64];

	ck_assert_int_eq(dir_index__path("prof.data", false, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "prof.data.dirindex");
	ck_assert_int_eq(dir_index__path("prof.data/", true, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "prof.data/dirindex");
	ck_assert_int_eq(dir_index__path("prof.data", true, buf, 8), -ENAMETOOLONG);
}
END_TEST

Suite *index_suite(void)
{
	Suite *s = suite_create("index");
	TCase *tc = tcase_create("index");

	tcase_add_test(tc, test_index_builder);
	tcase_add_test(tc, test_index_round_trip_and_damage);
	tcase_add_test(tc, test_index_fresh);
	tcase_add_test(tc, test_index_path);
	suite_add_tcase(s, tc);
	return s;
}
