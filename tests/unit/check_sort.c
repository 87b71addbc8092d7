/*
 * Unit tests of report/sort: how perf 6.1 turns -s/-F/-n/--show-total-period into
 * columns and sort keys (checked against `perf report --stdio` headers), and the
 * text of a few columns.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sort.h"

#include "banned.h"

/* The header line of a sort list ("# Overhead  Command ..."), trailing blanks cut. */
static char *header_of(const struct sort_opts *o)
{
	struct sort_list l;
	struct sort_widths w;
	char err[128] = "", *text = NULL, *nl;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(sort_list__setup(&l, o, err, sizeof(err)) == 0, "%s", err);
	sort_widths__init(&w, &l);
	sort_widths__finish(&w, &l);
	f = open_memstream(&text, &len);
	sort_list__fprintf_header(&l, &w, f);
	fclose(f);
	nl = strchr(text, '\n');
	*nl = 0;
	while (nl > text && nl[-1] == ' ')
		*--nl = 0;
	return text;
}

static int setup_err(const struct sort_opts *o)
{
	struct sort_list l;
	char err[128] = "";

	return sort_list__setup(&l, o, err, sizeof(err));
}

START_TEST(test_sort_columns)
{
	struct sort_opts o = { 0 };
	char *h;

	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Command  Shared Object  Symbol");
	free(h);

	/* children mode: Children, and Overhead renamed Self */
	o.children = true;
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children      Self  Command  Shared Object  Symbol");
	free(h);

	/* -n and --show-total-period come after the default value columns */
	o = (struct sort_opts){ .show_nr_samples = true, .show_total_period = true,
				.sort_order = "pid" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead       Samples        Period      Pid:Command");
	free(h);

	/* a value key named in -s stays where it is among the sort keys, but the
	 * default value columns come first */
	o = (struct sort_opts){ .sort_order = "sample,comm" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead       Samples  Command");
	free(h);

	/* -F is exact: no Self rename, Children even without children mode */
	o = (struct sort_opts){ .field_order = "overhead_children,overhead,comm" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children  Overhead  Command");
	free(h);

	/* -t: values separated, value headers still right-aligned */
	o = (struct sort_opts){ .children = true, .field_sep = ";", .sort_order = "dso" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children;    Self;Shared Object");
	free(h);

	/* perf's prefix matching: "s" is symbol, "p" is pid */
	o = (struct sort_opts){ .sort_order = "s,p" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Symbol      Pid:Command");
	free(h);
}
END_TEST

START_TEST(test_sort_errors)
{
	struct sort_opts o = { .sort_order = "nonsense" };

	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "+";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "parent";
	ck_assert_int_eq(setup_err(&o), -ENOTSUP);
	o.sort_order = "srcline";
	ck_assert_int_eq(setup_err(&o), -ENOTSUP);
	o.sort_order = NULL;
	o.field_order = "trace";
	ck_assert_int_eq(setup_err(&o), -ENOTSUP);
}
END_TEST

static char *line_of(const struct sort_opts *o, const struct hist_entry *e, uint64_t total)
{
	struct sort_list l;
	struct sort_widths w;
	char err[128] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(sort_list__setup(&l, o, err, sizeof(err)), 0);
	sort_widths__init(&w, &l);
	sort_widths__add(&w, &l, e);
	sort_widths__finish(&w, &l);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sort_list__fprintf_entry(&l, &w, e, total, f), 0);
	fclose(f);
	return text;
}

START_TEST(test_sort_entry_text)
{
	struct hist_entry e = { .comm = "gzip", .ip = 0xcc5c, .level = '.', .cpu = 1,
				.socket = 0, .time = 3219400000000ULL,
				.stat = { .period = 25, .nr_events = 3 } };
	struct sort_opts o = { 0 };
	char *s;

	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  gzip     [unknown]         [.] 0x000000000000cc5c\n");
	free(s);
	e.ip = 0;	/* perf's %#llx prints no 0x for zero */
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  gzip     [unknown]         [.] 0000000000000000\n");
	free(s);
	o.sort_order = "cpu,socket,time,sample";
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  001     000  3219.400000              3\n");
	free(s);
	o = (struct sort_opts){ .sort_order = "comm", .field_sep = "," };
	e.comm = "a,b";
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, " 25.00% ,a.b    \n");
	free(s);
}
END_TEST

Suite *sort_suite(void)
{
	Suite *s = suite_create("sort");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sort_columns);
	tcase_add_test(tc, test_sort_errors);
	tcase_add_test(tc, test_sort_entry_text);
	suite_add_tcase(s, tc);
	return s;
}
