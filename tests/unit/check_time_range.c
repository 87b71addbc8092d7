/*
 * Unit tests of cli/time-range: perf 6.1's --time syntax (absolute and percent
 * ranges, the values checked against perf's pr_debug output semantics) and its
 * sample selection.
 */
#include <check.h>
#include <errno.h>

#include "cli/time-range.h"

#include "banned.h"

#define S 1000000000ULL

START_TEST(test_time_absolute)
{
	struct time_ranges tr;

	ck_assert_int_eq(time_ranges__parse(&tr, "82.95,83.0", 0, 0), 0);
	ck_assert_int_eq(tr.nr, 1);
	ck_assert_uint_eq(tr.r[0].start, 82 * S + 950000000ULL);
	ck_assert_uint_eq(tr.r[0].end, 83 * S);
	ck_assert_int_eq(time_ranges__parse(&tr, ",1.000000001", 0, 0), 0);
	ck_assert_uint_eq(tr.r[0].start, 0);
	ck_assert_uint_eq(tr.r[0].end, S + 1);
	ck_assert_int_eq(time_ranges__parse(&tr, "1,2 3,4", 0, 0), 0);
	ck_assert_int_eq(tr.nr, 2);
	ck_assert_uint_eq(tr.r[1].start, 3 * S);
	ck_assert_uint_eq(tr.r[1].end, 4 * S);
	/* perf's "Invalid time string" */
	ck_assert_int_eq(time_ranges__parse(&tr, "83", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "abc", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "83.0,82", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "0.1234567891,", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "1,2,3", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "1,3 2,4", 0, 0), -EINVAL);	/* overlap */
}
END_TEST

START_TEST(test_time_percent)
{
	struct time_ranges tr;

	ck_assert_int_eq(time_ranges__parse(&tr, "10%/2", 1000, 2000), 0);
	ck_assert_int_eq(tr.nr, 1);
	ck_assert_uint_eq(tr.r[0].start, 1100);
	ck_assert_uint_eq(tr.r[0].end, 1199);	/* perf ends a slice 1 ns early */
	ck_assert_int_eq(time_ranges__parse(&tr, "0%-10%,90%-100%", 1000, 2000), 0);
	ck_assert_int_eq(tr.nr, 2);
	ck_assert_uint_eq(tr.r[1].start, 1900);
	ck_assert_uint_eq(tr.r[1].end, 2000);	/* ... but not at the last sample */
	ck_assert_int_eq(time_ranges__parse(&tr, "25%", 1000, 2000), 0);
	ck_assert_uint_eq(tr.r[0].start, 1000);
	ck_assert_uint_eq(tr.r[0].end, 1249);
	ck_assert_int_eq(time_ranges__parse(&tr, "110%", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "10%/0", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "10%/11", 0, 0), -EINVAL);
	ck_assert_int_eq(time_ranges__parse(&tr, "10%x", 0, 0), -EINVAL);
}
END_TEST

START_TEST(test_time_skip)
{
	struct time_ranges tr;

	ck_assert_int_eq(time_ranges__parse(&tr, "1,2", 0, 0), 0);
	ck_assert(!time_ranges__skip(&tr, 0));		/* no time: kept */
	ck_assert(time_ranges__skip(&tr, S - 1));
	ck_assert(!time_ranges__skip(&tr, S));
	ck_assert(!time_ranges__skip(&tr, 2 * S));
	ck_assert(time_ranges__skip(&tr, 2 * S + 1));
	ck_assert(time_ranges__skip(&tr, (uint64_t)-1));	/* not recorded */
	ck_assert_int_eq(time_ranges__parse(&tr, "1,2 3,", 0, 0), 0);
	ck_assert(time_ranges__skip(&tr, 2 * S + 1));
	ck_assert(!time_ranges__skip(&tr, 30 * S));
	ck_assert(!time_ranges__skip(NULL, 5));
}
END_TEST

Suite *time_range_suite(void)
{
	Suite *s = suite_create("time_range");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_time_absolute);
	tcase_add_test(tc, test_time_percent);
	tcase_add_test(tc, test_time_skip);
	suite_add_tcase(s, tc);
	return s;
}
