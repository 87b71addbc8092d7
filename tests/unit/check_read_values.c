/*
 * Unit tests of report/read-values: the -T table (checked against perf 6.1 on a
 * `perf record -s -e cpu-clock -e task-clock` recording).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/read-values.h"

#include "banned.h"

START_TEST(test_read_values_table)
{
	struct read_values v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(read_values__init(&v, 2), 0);
	/* summed per thread and event; threads and events in first-record order */
	ck_assert_int_eq(read_values__add(&v, 6367, 6367, 1, "task-clock", 1761924), 0);
	ck_assert_int_eq(read_values__add(&v, 6367, 6367, 0, "cpu-clock", 1000000), 0);
	ck_assert_int_eq(read_values__add(&v, 6367, 6367, 0, "cpu-clock", 778812), 0);
	ck_assert_int_eq(read_values__add(&v, 61, 62, 0, "cpu-clock", 5), 0);
	f = open_memstream(&text, &len);
	read_values__fprintf(&v, f);
	fclose(f);
	ck_assert_str_eq(text, "#  PID   TID  task-clock  cpu-clock\n"
			       "  6367  6367     1761924    1778812\n"
			       "    61    62           0          5\n");
	free(text);
	read_values__exit(&v);
}
END_TEST

START_TEST(test_read_values_empty)
{
	struct read_values v;
	char *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(read_values__init(&v, 1), 0);
	f = open_memstream(&text, &len);
	read_values__fprintf(&v, f);
	fclose(f);
	ck_assert_str_eq(text, "# PID  TID\n");	/* perf, without READ records */
	free(text);
	read_values__exit(&v);
	read_values__exit(&v);
}
END_TEST

Suite *read_values_suite(void)
{
	Suite *s = suite_create("read_values");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_read_values_table);
	tcase_add_test(tc, test_read_values_empty);
	suite_add_tcase(s, tc);
	return s;
}
