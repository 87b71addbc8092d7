/*
 * Unit tests of report/srcline: line lookups with libdw in this test binary (built
 * with -g), and perf 6.1's texts when there is no line information (observed:
 * "SYMBOL+N", "DSO[HEX]", "??:0", "" for srcfile, nothing in call graphs).
 */
#include <check.h>
#include <dlfcn.h>	/* dladdr */
#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <stdint.h>
#include <stdio.h>	/* snprintf */
#include <string.h>

#include "machine/dso.h"
#include "machine/srcline.h"
#include "machine/symbol.h"

#include "banned.h"

/* A function on one line: its first instruction is on that line whatever the
 * optimization level. */
/* clang-format off */
static const int probe_line = __LINE__; __attribute__((noinline)) static int probe(int x) { return x * 3 + 1; }
/* clang-format on */

START_TEST(test_srcline_lookup_self)
{
	struct srclines *s;
	Dl_info info;
	const char *file = NULL;
	int line = 0;
	uint64_t addr;

	ck_assert_int_eq(probe(1), 4);
	ck_assert_int_eq(srclines__new(&s), 0);
	ck_assert(dladdr((void *)(uintptr_t)probe, &info));
	/* a position-independent executable: file addresses are offsets from its base */
	addr = (uint64_t)(uintptr_t)probe - (uint64_t)(uintptr_t)info.dli_fbase;
	ck_assert_int_eq(srclines__lookup(s, "/proc/self/exe", addr, &file, &line), 0);
	ck_assert_ptr_nonnull(strstr(file, "check_srcline.c"));
	ck_assert_int_eq(line, probe_line);
	/* far outside any code: no line, no symbol */
	ck_assert_int_eq(srclines__lookup(s, "/proc/self/exe", 0x7fffffff0000ULL, &file,
					  &line), -ENOENT);
	/* a file that does not exist */
	ck_assert_int_eq(srclines__lookup(s, "/nonexistent/dirreport-test.so", 0x1000, &file,
					  &line), -ENOENT);
	srclines__delete(s);
	srclines__delete(NULL);
}
END_TEST

START_TEST(test_srcline_fallbacks)
{
	struct srclines *s;
	struct dsos *d;
	struct dso *dso, *kernel;
	struct symbol sym = { .start = 0x1000, .end = 0x1100, .name = "do_syscall_64" };
	const char *a, *b;
	int err;

	ck_assert_int_eq(srclines__new(&s), 0);
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	dso = dsos__findnew(d, "/nonexistent/dir/libgone.so");
	kernel = dsos__findnew(d, "[kernel.kallsyms]");
	ck_assert_ptr_nonnull(dso);
	ck_assert_ptr_nonnull(kernel);

	/* no map */
	ck_assert_str_eq(srclines__line(s, NULL, NULL, 0x1234), "??:0");
	ck_assert_str_eq(srclines__file(s, NULL, NULL, 0x1234), "");
	/* no lines, no symbol: the short name and the address */
	ck_assert_str_eq(srclines__line(s, dso, NULL, 0xcc5c), "libgone.so[cc5c]");
	/* no lines, a symbol: its name and the decimal offset (kernel: never lines) */
	ck_assert_str_eq(srclines__line(s, kernel, &sym, 0x1071), "do_syscall_64+113");
	ck_assert_str_eq(srclines__file(s, kernel, &sym, 0x1071), "");
	/* perf subtracts even an absolute address (frames of the children view) */
	ck_assert_str_eq(srclines__line(s, kernel, &sym, 0x10),
			 "do_syscall_64+18446744073709547536");
	/* answers are interned and remembered */
	a = srclines__line(s, dso, NULL, 0xcc5c);
	b = srclines__line(s, dso, NULL, 0xcc5c);
	ck_assert_ptr_eq(a, b);

	/* call graphs: the address key's "+N", nothing for the srcline key */
	ck_assert_str_eq(srclines__callchain(s, kernel, &sym, 0x1071, true, &err), "+113");
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_null(srclines__callchain(s, kernel, &sym, 0x1071, false, &err));
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_null(srclines__callchain(s, NULL, &sym, 0x1071, true, &err));
	dsos__delete(d);
	srclines__delete(s);
}
END_TEST

/* perf's addr2line failure limit: 123 failures in a dso before any success and it
 * is not asked again; one success first and failures never count. */
START_TEST(test_srcline_fail_limit)
{
	struct srclines *s;
	struct dsos *d;
	struct dso *self;
	Dl_info info;
	uint64_t good;
	const char *t;
	char want[64];

	ck_assert(dladdr((void *)(uintptr_t)probe, &info));
	good = (uint64_t)(uintptr_t)probe - (uint64_t)(uintptr_t)info.dli_fbase;
	snprintf(want, sizeof(want), "check_srcline.c:%d", probe_line);
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	self = dsos__findnew(d, "/proc/self/exe");
	ck_assert_ptr_nonnull(self);

	ck_assert_int_eq(srclines__new(&s), 0);
	for (int i = 0; i < 122; i++)
		ck_assert_str_eq(srclines__line(s, self, NULL, 0x10), "exe[10]");
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);	/* 123rd: found */
	srclines__delete(s);

	ck_assert_int_eq(srclines__new(&s), 0);
	for (int i = 0; i < 123; i++)
		(void)srclines__line(s, self, NULL, 0x10);
	snprintf(want, sizeof(want), "exe[%" PRIx64 "]", good);
	t = srclines__line(s, self, NULL, good);		/* 124th: not asked */
	ck_assert_str_eq(t, want);
	srclines__delete(s);

	ck_assert_int_eq(srclines__new(&s), 0);
	snprintf(want, sizeof(want), "check_srcline.c:%d", probe_line);
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);
	for (int i = 0; i < 300; i++)
		(void)srclines__line(s, self, NULL, 0x10);
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);
	srclines__delete(s);
	dsos__delete(d);
}
END_TEST

Suite *srcline_suite(void)
{
	Suite *s = suite_create("srcline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_srcline_lookup_self);
	tcase_add_test(tc, test_srcline_fallbacks);
	tcase_add_test(tc, test_srcline_fail_limit);
	suite_add_tcase(s, tc);
	return s;
}
