/*
 * Unit tests of util/: the string-intern table (machine comms, source lines,
 * tracepoint texts) and its hash, 64-bit FNV-1a (test vectors of the FNV authors); the
 * growable array.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* malloc */
#include <string.h>	/* strcpy is banned: memcpy */

#include "util/array.h"
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

START_TEST(test_array_grow)
{
	int *v = NULL;
	size_t cap = 0, nr = 0;

	/* from `first`, doubling; elements kept */
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(array__grow(&v, &cap, nr + 1, sizeof(*v), 16), 0);
		v[nr++] = i;
	}
	ck_assert_uint_eq(cap, 1024);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(v[i], i);
	/* room already: nothing changes */
	ck_assert_int_eq(array__grow(&v, &cap, 1024, sizeof(*v), 16), 0);
	ck_assert_uint_eq(cap, 1024);
	/* a size that overflows: -ENOMEM, the array untouched */
	ck_assert_int_eq(array__grow(&v, &cap, (size_t)-1 / 2, sizeof(*v), 16), -ENOMEM);
	ck_assert_uint_eq(cap, 1024);
	ck_assert_int_eq(v[999], 999);
	free(v);
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("strtab");
	TCase *ta = tcase_create("array");

	tcase_add_test(tc, test_fnv1a);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_intern_owned);
	tcase_add_test(ta, test_array_grow);
	suite_add_tcase(s, tc);
	suite_add_tcase(s, ta);
	return s;
}
