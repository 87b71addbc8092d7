/*
 * Unit tests of util/strtab: the one string-intern table (machine comms, source lines,
 * tracepoint texts) and its hash, 64-bit FNV-1a (test vectors of the FNV authors).
 */
#include <check.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* malloc */
#include <string.h>	/* strcpy is banned: memcpy */

#include "util/strtab.h"
#include "banned.h"

START_TEST(test_fnv1a)
{
	ck_assert_uint_eq(str__hash(""), 0xcbf29ce484222325ULL);
	ck_assert_uint_eq(str__hash("a"), 0xaf63dc4c8601ec8cULL);
	ck_assert_uint_eq(str__hash("foobar"), 0x85944171f73967e8ULL);
}
END_TEST

START_TEST(test_intern)
{
	struct strtab t = { 0 };
	const char *first[1000];
	char buf[32];

	/* past several doublings: the strings keep their addresses */
	for (int i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "comm-%d", i);
		first[i] = strtab__intern(&t, buf);
		ck_assert_ptr_nonnull(first[i]);
		ck_assert_str_eq(first[i], buf);
	}
	ck_assert_uint_eq(t.nr, 1000);
	for (int i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "comm-%d", i);
		ck_assert_ptr_eq(strtab__intern(&t, buf), first[i]);
	}
	ck_assert_uint_eq(t.nr, 1000);
	strtab__exit(&t);
	ck_assert_uint_eq(t.nr, 0);
}
END_TEST

START_TEST(test_intern_owned)
{
	struct strtab t = { 0 };
	const char *a = strtab__intern(&t, "sched_switch: prev=sh");
	char *dup = malloc(32), *fresh = malloc(32);

	ck_assert_ptr_nonnull(dup);
	ck_assert_ptr_nonnull(fresh);
	memcpy(dup, "sched_switch: prev=sh", 22);
	memcpy(fresh, "sched_switch: prev=dd", 22);
	/* a text already there: the table's copy (dup is freed: ASan/valgrind check) */
	ck_assert_ptr_eq(strtab__intern_owned(&t, dup), a);
	/* a new one: taken over as it is */
	ck_assert_ptr_eq(strtab__intern_owned(&t, fresh), fresh);
	ck_assert_uint_eq(t.nr, 2);
	strtab__exit(&t);
}
END_TEST

Suite *strtab_suite(void)
{
	Suite *s = suite_create("strtab");
	TCase *tc = tcase_create("strtab");

	tcase_add_test(tc, test_fnv1a);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_intern_owned);
	suite_add_tcase(s, tc);
	return s;
}
