/*
 * Unit tests of script/: perf script's sample line text (script/format.h: padding,
 * pid/tid forms, cpu, time truncated to microseconds, [unknown] forms, -F parsing)
 * and the folded stacks (script/fold.h: stackcollapse-perf.pl's naming rules,
 * counting, byte order).  The expectations are perf 6.1's output and
 * stackcollapse-perf.pl's rules (tests/script/ compares whole outputs with perf's).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "script/fold.h"
#include "script/format.h"
#include "script/script.h"

#include "banned.h"

#define DEFAULT_FIELDS (SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_TIME | SCRIPT_F_PERIOD | \
			SCRIPT_F_EVENT | SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF | \
			SCRIPT_F_DSO)

/* The buffer as a NUL-terminated string (owned by the buffer). */
static const char *text(struct script_buf *b)
{
	ck_assert_int_eq(script_buf__put(b, "", 1), 0);
	b->len--;
	return b->p;
}

static const struct script_head head0 = {
	.comm = "sh", .pid = 14179, .tid = 14179, .cpu = 0, .time = 344348334999ULL,
	.period = 500000, .event = "cpu-clock", .name_width = 9,
};

START_TEST(test_script_head_default)
{
	struct script_buf b = { 0 };

	ck_assert_int_eq(script_buf__head(&b, DEFAULT_FIELDS, &head0), 0);
	/* time truncated (not rounded) to microseconds */
	ck_assert_str_eq(text(&b), "              sh 14179   344.348334:     500000 cpu-clock: ");
	script_buf__exit(&b);
}
END_TEST

START_TEST(test_script_head_callchain_cpu_pid)
{
	struct script_buf b = { 0 };
	struct script_head h = head0;

	h.comm_unaligned = true;
	h.cpu = 7;
	h.tid = 14180;
	h.name_width = 10;
	ck_assert_int_eq(script_buf__head(&b, DEFAULT_FIELDS | SCRIPT_F_CPU | SCRIPT_F_PID,
					  &h), 0);
	ck_assert_str_eq(text(&b),
			 "sh 14179/14180 [007]   344.348334:     500000  cpu-clock: ");
	b.len = 0;
	/* a long comm is not cut; pid alone; small time */
	h.comm = "a-very-long-command-name";
	h.comm_unaligned = false;
	h.time = 5000;
	ck_assert_int_eq(script_buf__head(&b, SCRIPT_F_COMM | SCRIPT_F_PID | SCRIPT_F_TIME,
					  &h), 0);
	ck_assert_str_eq(text(&b), "a-very-long-command-name 14179     0.000005: ");
	b.len = 0;
	h.pid = h.tid = -1;
	h.cpu = -1;
	ck_assert_int_eq(script_buf__head(&b, SCRIPT_F_TID | SCRIPT_F_CPU, &h), 0);
	ck_assert_str_eq(text(&b), "   -1 [-01] ");
	script_buf__exit(&b);
}
END_TEST

START_TEST(test_script_loc_forms)
{
	struct script_buf b = { 0 };
	struct script_loc l = { .ip = 0x7fa357c05a13, .sym = "_dl_start", .symoff = 0x2a3,
				.dso = "/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2" };

	ck_assert_int_eq(script_buf__loc(&b, DEFAULT_FIELDS, &l), 0);
	ck_assert_str_eq(text(&b), "    7fa357c05a13 _dl_start+0x2a3 "
			 "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)");
	b.len = 0;
	l.sym = NULL;		/* no symbol: no offset */
	ck_assert_int_eq(script_buf__loc(&b, DEFAULT_FIELDS, &l), 0);
	ck_assert_str_eq(text(&b), "    7fa357c05a13 [unknown] "
			 "(/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2)");
	b.len = 0;
	l.dso = NULL;
	l.ip = 0xffffffffffffff80ULL;
	ck_assert_int_eq(script_buf__loc(&b, DEFAULT_FIELDS, &l), 0);
	ck_assert_str_eq(text(&b), "ffffffffffffff80 [unknown] ([unknown])");
	b.len = 0;
	/* symbol without offset; no ip: nothing at all */
	l.sym = "f";
	l.symoff = 0;
	ck_assert_int_eq(script_buf__loc(&b, SCRIPT_F_IP | SCRIPT_F_SYM | SCRIPT_F_SYMOFF,
					 &l), 0);
	ck_assert_str_eq(text(&b), "ffffffffffffff80 f+0x0");
	b.len = 0;
	ck_assert_int_eq(script_buf__loc(&b, SCRIPT_F_SYM | SCRIPT_F_DSO, &l), 0);
	ck_assert_uint_eq(b.len, 0);
	script_buf__exit(&b);
}
END_TEST

START_TEST(test_script_fields_parse)
{
	unsigned f = 0;
	const char *bad;

	ck_assert_int_eq(script_fields__parse("comm,tid,time,ip,sym", &f, &bad), 0);
	ck_assert_uint_eq(f, SCRIPT_F_COMM | SCRIPT_F_TID | SCRIPT_F_TIME | SCRIPT_F_IP |
			  SCRIPT_F_SYM);
	ck_assert_int_eq(script_fields__parse("comm,trace", &f, &bad), -EINVAL);
	ck_assert_str_eq(bad, "trace");
	ck_assert_int_eq(script_fields__parse("comm,", &f, &bad), -EINVAL);
	ck_assert_int_eq(script_fields__parse("", &f, &bad), -EINVAL);
	ck_assert_str_eq(script_field__name(SCRIPT_F_SYMOFF), "symoff");
	ck_assert(script__valid_cpu_list("0-2,5"));
	ck_assert(!script__valid_cpu_list("2-1"));
	ck_assert(!script__valid_cpu_list("4096"));
	ck_assert(script__valid_int_list("1,-1,30"));
	ck_assert(!script__valid_int_list("1,,2"));
}
END_TEST

/* The folded name of one frame. */
static const char *frame(struct script_buf *b, const char *sym, const char *dso,
			 bool java, size_t want_parts)
{
	size_t parts;

	b->len = 0;
	ck_assert_int_eq(script_fold__frame(b, sym, dso, java, &parts), 0);
	ck_assert_uint_eq(parts, want_parts);
	return text(b);
}

START_TEST(test_script_fold_frame_names)
{
	struct script_buf b = { 0 };

	ck_assert_str_eq(frame(&b, "pvm_irq_enable", "[kernel.kallsyms]", false, 1),
			 "pvm_irq_enable");	/* no _[k] by default */
	ck_assert_str_eq(frame(&b, NULL, "/usr/lib/x86_64-linux-gnu/libc.so.6", false, 1),
			 "[libc.so.6]");
	ck_assert_str_eq(frame(&b, NULL, "[vdso]", false, 1), "[[vdso]]");
	ck_assert_str_eq(frame(&b, NULL, NULL, false, 1), "[unknown]");
	ck_assert_str_eq(frame(&b, "ns::f(int) const", "a", false, 1), "ns::f");
	ck_assert_str_eq(frame(&b, "ns::(anonymous namespace)::g(long)", "a", false, 1),
			 "ns::(anonymous namespace)::g");
	/* a name starting with '(' is skipped, as stackcollapse's "process names" */
	ck_assert_str_eq(frame(&b, "(anonymous namespace)::g(long)", "a", false, 0), "");
	ck_assert_str_eq(frame(&b, "net/http.(*Client).Do", "a", false, 1),
			 "net/http.(*Client).Do");		/* a Go method keeps its parens */
	ck_assert_str_eq(frame(&b, "a;b\"c'd", "a", false, 1), "a:bcd");
	ck_assert_str_eq(frame(&b, "(deleted)", "a", false, 0), "");
	ck_assert_str_eq(frame(&b, "outer->inner", "a", false, 2), "outer;inner_[i]");
	ck_assert_str_eq(frame(&b, "ptr::operator->", "a", false, 1), "ptr::operator");
	ck_assert_str_eq(frame(&b, "Lorg/x/Y;.call(I)V", "a", true, 1), "org/x/Y:.call");
	ck_assert_str_eq(frame(&b, "Lorg/x/Y;.call(I)V", "a", false, 1), "Lorg/x/Y:.call");
	script_buf__exit(&b);
}
END_TEST

static const char *pname(struct script_buf *b, const char *header)
{
	b->len = 0;
	ck_assert_int_eq(script_fold__pname(b, header, strlen(header)), 0);
	return text(b);
}

START_TEST(test_script_fold_pname)
{
	struct script_buf b = { 0 };

	ck_assert_str_eq(pname(&b, "sh 14211   347.679809:    1000000 cpu-clock: "), "sh");
	ck_assert_str_eq(pname(&b, "V8 WorkerThread 24636/25607 [000] 94564.109216: "),
			 "V8_WorkerThread");
	ck_assert_str_eq(pname(&b, "kworker/0:1 12 [000]   1.000000: "), "kworker/0:1");
	/* the pattern wants two characters before the tid */
	ck_assert_str_eq(pname(&b, "a 1234   347.679809:    1000000 cpu-clock: "),
			 "a_1234___347.679809:");
	ck_assert_str_eq(pname(&b, "   sh 1 "), "");
	script_buf__exit(&b);
}
END_TEST

START_TEST(test_script_fold_count_sort)
{
	static const struct script_fold_frame a[] = {	/* innermost first */
		{ "leaf", "x" }, { "mid", "x" }, { "main", "x" },
	};
	static const struct script_fold_frame b[] = { { NULL, "/lib/libc.so.6" } };
	static const char h[] = "sh 1 1.000000: ";
	struct script_fold *f;
	char *out = NULL;
	size_t len = 0;
	FILE *fp;

	ck_assert_int_eq(script_fold__new(&f), 0);
	ck_assert_int_eq(script_fold__add(f, h, strlen(h), a, 3), 0);
	ck_assert_int_eq(script_fold__add(f, h, strlen(h), b, 1), 0);
	ck_assert_int_eq(script_fold__add(f, h, strlen(h), a, 3), 0);
	ck_assert_int_eq(script_fold__add(f, h, strlen(h), a, 0), 0);	/* chain dropped */
	ck_assert_int_eq(script_fold__add(f, "Sh 1 ", 5, a + 2, 1), 0);
	ck_assert_uint_eq(script_fold__samples(f), 5);
	fp = open_memstream(&out, &len);
	ck_assert_ptr_nonnull(fp);
	ck_assert_int_eq(script_fold__write(f, fp), 0);
	fclose(fp);
	/* byte order: "Sh" < "sh", "sh" < "sh;..." */
	ck_assert_str_eq(out, "Sh;main 1\nsh 1\nsh;[libc.so.6] 1\nsh;main;mid;leaf 2\n");
	free(out);
	script_fold__delete(f);
}
END_TEST

Suite *script_suite(void)
{
	Suite *s = suite_create("script");
	TCase *tc = tcase_create("format");

	tcase_add_test(tc, test_script_head_default);
	tcase_add_test(tc, test_script_head_callchain_cpu_pid);
	tcase_add_test(tc, test_script_loc_forms);
	tcase_add_test(tc, test_script_fields_parse);
	suite_add_tcase(s, tc);
	tc = tcase_create("fold");
	tcase_add_test(tc, test_script_fold_frame_names);
	tcase_add_test(tc, test_script_fold_pname);
	tcase_add_test(tc, test_script_fold_count_sort);
	suite_add_tcase(s, tc);
	return s;
}
