/*
 * Unit tests of script/: perf script's sample line text (script/format.h: padding,
 * pid/tid forms, cpu, time truncated to microseconds, [unknown] forms, -F parsing)
 * and the folded stacks (script/fold.h: stackcollapse-perf.pl's naming rules,
 * counting, byte order), the flame graph (script/flame.h: tree, layout, colours,
 * labels, the SVG read back with libxml2) and the speedscope file (read back with
 * jansson).  The expectations are perf 6.1's output and
 * stackcollapse-perf.pl's rules (tests/script/ compares whole outputs with perf's).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>	/* unlink, access */

#include <jansson.h>		/* reading back a speedscope file */
#include <libxml/parser.h>	/* reading back an SVG */
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>	/* xmlXPathRegisterNs */

#include "script/flame.h"
#include "script/fold.h"
#include "script/format.h"
#include "script/script.h"
#include "script/speedscope.h"
#include "format/attr.h"
#include "format/diag.h"
#include "format/record.h"
#include "testlib.h"

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
	ck_assert_int_eq(script_fields__parse("comm,trace", &f, &bad), 0);
	ck_assert_uint_eq(f, SCRIPT_F_COMM | SCRIPT_F_TRACE);
	ck_assert_int_eq(script_fields__parse("addr,data_src,weight,ins_lat,phys_addr,"
						"data_page_size,code_page_size", &f, &bad), 0);
	ck_assert_uint_eq(f, SCRIPT_F_RAW_EXTRA);
	ck_assert_int_eq(script_fields__parse("comm,brstack", &f, &bad), -EINVAL);
	ck_assert_str_eq(bad, "brstack");
	ck_assert_int_eq(script_fields__parse("comm,", &f, &bad), -EINVAL);
	ck_assert_int_eq(script_fields__parse("", &f, &bad), -EINVAL);
	ck_assert_str_eq(script_field__name(SCRIPT_F_SYMOFF), "symoff");
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

/* Two sets merged: what one set counting every sample writes, whichever set counted
 * which sample (the per-worker sets of --folded and --flamegraph) */
START_TEST(test_script_fold_merge)
{
	static const struct script_fold_frame a[] = { { "leaf", "x" }, { "main", "x" } };
	static const struct script_fold_frame b[] = { { NULL, "/lib/libc.so.6" } };
	static const char h[] = "sh 1 1.000000: ";
	struct script_fold *one, *x, *y;
	char *want = NULL, *got = NULL;
	size_t len = 0;
	FILE *fp;

	ck_assert_int_eq(script_fold__new(&one), 0);
	ck_assert_int_eq(script_fold__new(&x), 0);
	ck_assert_int_eq(script_fold__new(&y), 0);
	for (int i = 0; i < 7; i++) {
		const struct script_fold_frame *fr = i % 3 ? a : b;
		size_t n = i % 3 ? 2 : 1;

		ck_assert_int_eq(script_fold__add(one, h, strlen(h), fr, n), 0);
		ck_assert_int_eq(script_fold__add(i & 1 ? x : y, h, strlen(h), fr, n), 0);
	}
	ck_assert_int_eq(script_fold__merge(x, y), 0);
	ck_assert_uint_eq(script_fold__samples(x), 7);
	fp = open_memstream(&want, &len);
	ck_assert_int_eq(script_fold__write(one, fp), 0);
	fclose(fp);
	fp = open_memstream(&got, &len);
	ck_assert_int_eq(script_fold__write(x, fp), 0);
	fclose(fp);
	ck_assert_str_eq(got, want);
	ck_assert_str_eq(got, "sh;[libc.so.6] 3\nsh;main;leaf 4\n");
	free(want);
	free(got);
	script_fold__delete(one);
	script_fold__delete(x);
	script_fold__delete(y);
}
END_TEST

START_TEST(test_script_fold_annotate)
{
	const struct script_fold_frame fr[] = {
		{ "do_sys", "[kernel.kallsyms]", SCRIPT_KIND_KERNEL },
		{ NULL, "/tmp/perf-7.map", SCRIPT_KIND_OTHER },
		{ "main", "/bin/x", SCRIPT_KIND_USER },
	};
	static const char h[] = "sh 1 1.0: ";
	struct script_fold *f;
	char *out = NULL;
	size_t len = 0, bare;
	FILE *fp;

	ck_assert_int_eq(script_fold__new(&f), 0);
	script_fold__annotate(f);
	ck_assert_int_eq(script_fold__add(f, h, strlen(h), fr, 3), 0);
	fp = open_memstream(&out, &len);
	ck_assert_int_eq(script_fold__write(f, fp), 0);
	fclose(fp);
	ck_assert_str_eq(out, "sh;main;[perf-7.map]_[j];do_sys_[k] 1\n");
	free(out);
	script_fold__delete(f);
	ck_assert_int_eq(script_fold__part_kind("do_sys_[k]", 10, &bare), SCRIPT_KIND_KERNEL);
	ck_assert_uint_eq(bare, 6);
	ck_assert_int_eq(script_fold__part_kind("a_[j]", 5, &bare), SCRIPT_KIND_OTHER);
	ck_assert_uint_eq(bare, 1);
	ck_assert_int_eq(script_fold__part_kind("f_[i]", 5, &bare), SCRIPT_KIND_USER);
	ck_assert_uint_eq(bare, 5);
}
END_TEST

/* A tree of three stacks: siblings merged by name and kind, counts summed. */
static struct script_flame *small_tree(void)
{
	struct script_flame *f;

	ck_assert_int_eq(script_flame__new(&f), 0);
	ck_assert_int_eq(script_flame__add(f, "sh;main;a", 9, 3), 0);
	ck_assert_int_eq(script_flame__add(f, "sh;main;b_[k]", 13, 2), 0);
	ck_assert_int_eq(script_flame__add(f, "sh;main;b", 9, 1), 0);
	ck_assert_int_eq(script_flame__add(f, "zz", 2, 4), 0);
	return f;
}

START_TEST(test_script_flame_tree_layout)
{
	struct script_flame *f = small_tree();
	struct script_flame_frame fr = { 0 };
	static const struct { const char *name; uint64_t x, n; unsigned d; int kind; } want[] = {
		{ "all", 0, 10, 0, SCRIPT_KIND_USER }, { "sh", 0, 6, 1, SCRIPT_KIND_USER },
		{ "main", 0, 6, 2, SCRIPT_KIND_USER }, { "a", 0, 3, 3, SCRIPT_KIND_USER },
		{ "b", 3, 2, 3, SCRIPT_KIND_KERNEL }, { "b", 5, 1, 3, SCRIPT_KIND_USER },
		{ "zz", 6, 4, 1, SCRIPT_KIND_USER },
	};

	ck_assert_uint_eq(script_flame__samples(f), 10);
	ck_assert_uint_eq(script_flame__nr_frames(f), 7);
	script_flame__layout(f);
	for (size_t i = 0; i < 7; i++) {
		ck_assert_int_eq(script_flame__frame(f, i, &fr), 0);
		ck_assert_uint_eq(fr.name_len, strlen(want[i].name));
		ck_assert(!memcmp(fr.name, want[i].name, fr.name_len));
		ck_assert_uint_eq(fr.x, want[i].x);
		ck_assert_uint_eq(fr.n, want[i].n);
		ck_assert_uint_eq(fr.depth, want[i].d);
		ck_assert_int_eq(fr.kind, want[i].kind);
	}
	ck_assert_int_eq(script_flame__frame(f, 7, &fr), -ERANGE);
	script_flame__delete(f);
}
END_TEST

START_TEST(test_script_flame_color)
{
	uint8_t a[3], b[3], k[3], o[3];

	/* the same name, the same colour; kinds have their own palettes */
	script_flame__color("main", 4, SCRIPT_KIND_USER, a);
	script_flame__color("main", 4, SCRIPT_KIND_USER, b);
	ck_assert(!memcmp(a, b, 3));
	ck_assert_uint_ge(a[0], 200);
	script_flame__color("main", 4, SCRIPT_KIND_KERNEL, k);
	ck_assert_uint_ge(k[0], 190);
	ck_assert_uint_ge(k[1], 90);
	ck_assert_uint_eq(k[2], 0);
	script_flame__color("main", 4, SCRIPT_KIND_OTHER, o);
	ck_assert_uint_ge(o[1], 180);
	ck_assert_uint_lt(o[0], o[1]);
	script_flame__color("mainx", 5, SCRIPT_KIND_USER, b);
	script_flame__color("zzzz", 4, SCRIPT_KIND_USER, a);
	ck_assert(memcmp(a, b, 3));	/* different names, different shades */
}
END_TEST

START_TEST(test_script_flame_fit)
{
	struct script_buf b = { 0 };

	/* 7.2 px a character, 3 px margin: 10 characters need 75 px */
	ck_assert_int_eq(script_flame__fit(&b, "abcdefghij", 10, 75.0), 0);
	ck_assert_str_eq(text(&b), "abcdefghij");
	b.len = 0;
	ck_assert_int_eq(script_flame__fit(&b, "abcdefghij", 10, 60.0), 0);
	ck_assert_str_eq(text(&b), "abcde..");		/* 7 fit */
	b.len = 0;
	ck_assert_int_eq(script_flame__fit(&b, "abcdefghij", 10, 20.0), 0);
	ck_assert_str_eq(text(&b), "");			/* 2 fit: no label */
	b.len = 0;
	/* UTF-8 characters are counted and never cut */
	ck_assert_int_eq(script_flame__fit(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 8, 40.0), 0);
	ck_assert_str_eq(text(&b), "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9");
	b.len = 0;
	ck_assert_int_eq(script_flame__fit(&b, "\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9x", 9, 34.0), 0);
	ck_assert_str_eq(text(&b), "\xc3\xa9\xc3\xa9..");
	script_buf__exit(&b);
}
END_TEST

static int xpath_count(xmlDocPtr doc, const char *expr)
{
	xmlXPathContextPtr ctx = xmlXPathNewContext(doc);
	xmlXPathObjectPtr r;
	int n;

	xmlXPathRegisterNs(ctx, BAD_CAST "s", BAD_CAST "http://www.w3.org/2000/svg");
	r = xmlXPathEvalExpression(BAD_CAST expr, ctx);
	ck_assert_ptr_nonnull(r);
	n = r->nodesetval ? r->nodesetval->nodeNr : 0;
	xmlXPathFreeObject(r);
	xmlXPathFreeContext(ctx);
	return n;
}

START_TEST(test_script_flame_svg)
{
	struct script_flame_svg_opts o = { .title = "T <&> \"q\"", .subtitle = "ev: 10" };
	struct script_flame *f = small_tree();
	char path[] = "/tmp/check-flame-XXXXXX", tmp[64];
	int fd = mkstemp(path);
	xmlDocPtr doc;

	ck_assert_int_ge(fd, 0);
	close(fd);
	/* a name with markup and a byte that is not UTF-8 */
	ck_assert_int_eq(script_flame__add(f, "sh;<a&b>\xff", 9, 1), 0);
	ck_assert_int_eq(script_flame__write_svg(f, &o, path), 0);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	ck_assert_int_ne(access(tmp, F_OK), 0);	/* renamed */
	doc = xmlReadFile(path, NULL, XML_PARSE_NONET);
	ck_assert_ptr_nonnull(doc);
	ck_assert_int_eq(xpath_count(doc, "//s:g[@class='f']"), 8);
	ck_assert_int_eq(xpath_count(doc, "//s:g[@data-d='3'][@data-n='2']"
				     "/s:title[text()='b (2 samples, 18.18%)']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:title[text()='<a&b>? (1 sample, 9.09%)']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:text[@id='title'][text()='T <&> \"q\"']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:text[@id='search']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:text[@id='unzoom']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:script"), 1);
	/* the root: full width (1180 px) at the bottom; kernel frames orange */
	ck_assert_int_eq(xpath_count(doc, "//s:g[@data-d='0']/s:rect[@width='1180.0']"), 1);
	ck_assert_int_eq(xpath_count(doc, "//s:g[@data-d='3'][@data-x='3']"
				     "/s:rect[substring(@fill,string-length(@fill)-2)=',0)']"), 1);
	xmlFreeDoc(doc);
	ck_assert_int_eq(unlink(path), 0);
	/* no directory: an error, nothing left */
	ck_assert_int_eq(script_flame__write_svg(f, &o, "/nonexistent-dir/x.svg"), -ENOENT);
	script_flame__delete(f);
}
END_TEST

START_TEST(test_script_flame_path)
{
	char b[64];

	ck_assert_int_eq(script__flame_path(b, sizeof(b), "out.svg", "cpu-clock:u"), 0);
	ck_assert_str_eq(b, "out-cpu-clock_u.svg");
	ck_assert_int_eq(script__flame_path(b, sizeof(b), "d/g", "{a,b}"), 0);
	ck_assert_str_eq(b, "d/g-_a_b_.svg");
	ck_assert_int_eq(script__flame_path(b, 8, "out.svg", "cpu-clock"), -ENAMETOOLONG);
}
END_TEST

START_TEST(test_script_speedscope_file)
{
	const struct script_fold_frame leaf[] = {
		{ "leaf", "/bin/x", SCRIPT_KIND_USER }, { "main", "/bin/x", SCRIPT_KIND_USER },
	};
	const struct script_fold_frame other[] = {
		{ "a->b", "/bin/x", SCRIPT_KIND_USER }, { "main", "/bin/x", SCRIPT_KIND_USER },
	};
	struct script_speedscope *s;
	char path[] = "/tmp/check-speedscope-XXXXXX";
	int fd = mkstemp(path);
	json_error_t e;
	json_t *doc, *p, *frames, *st;

	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(script_speedscope__new(&s, "perf.data"), 0);
	ck_assert_int_eq(script_speedscope__add(s, 0, "cycles", 7, "x", leaf, 2, false), 0);
	ck_assert_int_eq(script_speedscope__add(s, 0, "cycles", 7, "x", leaf, 2, false), 0);
	ck_assert_int_eq(script_speedscope__add(s, 0, "cycles", 7, "x", other, 2, false), 0);
	ck_assert_int_eq(script_speedscope__add(s, 1, "faults", 7, "x", leaf, 1, false), 0);
	ck_assert_int_eq(script_speedscope__add(s, 0, "cycles", 8, "y", NULL, 0, false), 0);
	ck_assert_uint_eq(script_speedscope__samples(s), 5);
	ck_assert_uint_eq(script_speedscope__nr_profiles(s), 3);
	ck_assert_int_eq(script_speedscope__write(s, "test", path), 0);
	script_speedscope__delete(s);
	doc = json_load_file(path, 0, &e);
	ck_assert_ptr_nonnull(doc);
	ck_assert_str_eq(json_string_value(json_object_get(doc, "$schema")),
			 "https://www.speedscope.app/file-format-schema.json");
	frames = json_object_get(json_object_get(doc, "shared"), "frames");
	/* leaf, main, b_[i], a: four frames, each once */
	ck_assert_uint_eq(json_array_size(frames), 4);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(frames, 0), "name")),
			 "leaf");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(frames, 0), "file")),
			 "/bin/x");
	ck_assert_uint_eq(json_array_size(json_object_get(doc, "profiles")), 3);
	p = json_array_get(json_object_get(doc, "profiles"), 0);
	ck_assert_str_eq(json_string_value(json_object_get(p, "name")), "x (7) cycles");
	ck_assert_str_eq(json_string_value(json_object_get(p, "type")), "sampled");
	ck_assert_int_eq(json_integer_value(json_object_get(p, "endValue")), 3);
	/* two equal samples in a row: one entry of weight 2; root first */
	ck_assert_uint_eq(json_array_size(json_object_get(p, "samples")), 2);
	ck_assert_int_eq(json_integer_value(json_array_get(json_object_get(p, "weights"), 0)), 2);
	st = json_array_get(json_object_get(p, "samples"), 0);
	ck_assert_int_eq(json_integer_value(json_array_get(st, 0)), 1);	/* main */
	ck_assert_int_eq(json_integer_value(json_array_get(st, 1)), 0);	/* leaf */
	/* "a->b": a, then b_[i] inside it */
	st = json_array_get(json_object_get(p, "samples"), 1);
	ck_assert_uint_eq(json_array_size(st), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(frames,
		json_integer_value(json_array_get(st, 1))), "name")), "a");
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(frames,
		json_integer_value(json_array_get(st, 2))), "name")), "b_[i]");
	json_decref(doc);
	ck_assert_int_eq(unlink(path), 0);
}
END_TEST

/* A sample whose callchain has 300 user entries (no map: each "[unknown]"): dirscript
 * prints 127 of them by default, and every one with --max-stack 500, as perf script
 * takes any depth (observed on a `perf record -g` of a 300-deep recursion with
 * kernel.perf_event_max_stack 1024: perf script --max-stack 500 printed all its frames). */
START_TEST(test_script_max_stack_above_default)
{
	static const int depths[] = { -1, 500, 200, 5 };
	static const size_t want[] = { 127, 300, 200, 5 };
	struct event_attr a = testlib_attr(SAMPLE_CALLCHAIN);
	const uint64_t ids[] = { 1 };
	const uint64_t *idv[] = { ids };
	const size_t nr_ids[] = { 1 };
	struct testlib_buf data = { 0 };
	char *dir = testlib_tmpdir(), path[512];
	uint16_t misc = MISC_USER, size = (uint16_t)(8 + 4 * 8 + 8 + 301 * 8);
	uint32_t type = REC_SAMPLE, pid = 7, tid = 7;
	uint64_t v;

	testlib_buf_add(&data, &type, 4);
	testlib_buf_add(&data, &misc, 2);
	testlib_buf_add(&data, &size, 2);
	testlib_buf_u64(&data, 0x1000);			/* ip */
	testlib_buf_add(&data, &pid, 4);
	testlib_buf_add(&data, &tid, 4);
	testlib_buf_u64(&data, 1000);			/* time */
	testlib_buf_u64(&data, 1);			/* period */
	testlib_buf_u64(&data, 301);			/* callchain: marker + 300 */
	testlib_buf_u64(&data, CONTEXT_USER);
	for (v = 0; v < 300; v++)
		testlib_buf_u64(&data, 0x1000 + 16 * v);
	snprintf(path, sizeof(path), "%s/deep.data", dir);
	testlib_write_file(path, &a, 1, idv, nr_ids, data.p, data.len, false, false);
	for (size_t k = 0; k < sizeof(depths) / sizeof(depths[0]); k++) {
		struct script_opts o = { .input = path, .jobs = 2, .max_stack = depths[k],
					 .kallsyms = "/nonexistent" };
		struct diag d = { 0 };
		char *out = NULL;
		size_t len = 0, frames = 0;
		FILE *fp = open_memstream(&out, &len);

		ck_assert_ptr_nonnull(fp);
		ck_assert_int_eq(script__run(&o, fp, &d), 0);
		fclose(fp);
		for (size_t i = 0; i + 1 < len; i++)
			frames += out[i] == '\n' && out[i + 1] == '\t';
		ck_assert_uint_eq(frames, want[k]);
		free(out);
	}
	testlib_buf_free(&data);
	testlib_rmtree(dir);
	free(dir);
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
	tcase_add_test(tc, test_script_fold_merge);
	tcase_add_test(tc, test_script_fold_annotate);
	suite_add_tcase(s, tc);
	tc = tcase_create("flame");
	tcase_add_test(tc, test_script_flame_tree_layout);
	tcase_add_test(tc, test_script_flame_color);
	tcase_add_test(tc, test_script_flame_fit);
	tcase_add_test(tc, test_script_flame_svg);
	tcase_add_test(tc, test_script_flame_path);
	tcase_add_test(tc, test_script_speedscope_file);
	tcase_add_test(tc, test_script_max_stack_above_default);
	suite_add_tcase(s, tc);
	return s;
}
