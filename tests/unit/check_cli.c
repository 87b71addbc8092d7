/*
 * Unit tests of report/cli: the -j argument both front ends take.
 */
#include <check.h>
#include <errno.h>

#include "cli/cli.h"
#include "banned.h"

START_TEST(test_cli_parse_jobs)
{
	static const char *const bad[] = { "", "0", "1025", "-1", "+2", "2x", "x", " 3",
					   "99999999999999999999" };
	unsigned j = 77;

	ck_assert_int_eq(cli__parse_jobs("1", &j), 0);
	ck_assert_uint_eq(j, 1);
	ck_assert_int_eq(cli__parse_jobs("1024", &j), 0);
	ck_assert_uint_eq(j, 1024);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = 77;
		ck_assert_msg(cli__parse_jobs(bad[i], &j) == -EINVAL, "\"%s\" accepted", bad[i]);
		ck_assert_uint_eq(j, 77);
	}
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("jobs");

	tcase_add_test(tc, test_cli_parse_jobs);
	suite_add_tcase(s, tc);
	return s;
}
