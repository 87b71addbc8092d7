/*
 * Unit tests of report/hierarchy: nodes per sort key, their sums, sibling order,
 * --percent-limit and its "no entry" line, the header and indentation (the layout
 * as perf 6.1 `perf report --stdio --hierarchy` prints it; see the hierarchy-*
 * golden cases for real recordings).
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/hierarchy.h"
#include "report/hist.h"
#include "report/sort.h"

#include "banned.h"

/* Unresolved samples of two commands: gzip 3 + 1, dd 2 (period units). */
static struct hist_entry entries[4];

static void make_entries(void)
{
	static const struct { const char *comm; uint64_t ip, period; } v[] = {
		{ "gzip", 0x20, 1 }, { "dd", 0x30, 2 }, { "gzip", 0x10, 3 }, { "sh", 0x40, 0 },
	};

	memset(entries, 0, sizeof(entries));
	for (size_t i = 0; i < 4; i++) {
		entries[i].comm = v[i].comm;
		entries[i].ip = v[i].ip;
		entries[i].level = '.';
		entries[i].cpu = -1;
		entries[i].stat.period = v[i].period;
		entries[i].stat.nr_events = v[i].period;
	}
	entries[3].filtered = 1;	/* hidden by a filter: left out */
}

/* The report of the entries (make_entries() first) as -s KEYS [-n] with the given
 * limit. */
static char *report(const char *keys, bool samples, float limit, int quiet)
{
	struct sort_opts o = { .sort_order = keys, .show_nr_samples = samples };
	const struct hist_entry *v[4] = { &entries[0], &entries[1], &entries[2],
					  &entries[3] };
	struct sort_list l;
	struct hierarchy_print p = { .sl = &l, .total = 6, .percent_limit = limit,
				     .quiet = quiet };
	char err[128], *buf = NULL;
	size_t len = 0;
	FILE *out;

	ck_assert_msg(sort_list__setup(&l, &o, err, sizeof(err)) == 0, "%s", err);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(hierarchy__fprintf(&p, v, 4, out), 0);
	fclose(out);
	return buf;
}

START_TEST(test_two_levels)
{
	char *s;

	make_entries();
	s = report("comm,sym", false, 0, 0);

	ck_assert_str_eq(s,
		"#    Overhead  Command / Symbol\n"
		"# ...........  .........................\n"
		"#\n"
		"    66.67%     gzip   \n"
		"       50.00%     [.] 0x0000000000000010\n"
		"       16.67%     [.] 0x0000000000000020\n"
		"    33.33%     dd     \n"
		"       33.33%     [.] 0x0000000000000030\n");
	free(s);
}
END_TEST

START_TEST(test_one_level_samples)
{
	char *s;

	make_entries();
	s = report("comm", true, 0, 1);

	/* one level: no indent; the command keeps its padding */
	ck_assert_str_eq(s,
		"    66.67%             4  gzip   \n"
		"    33.33%             2  dd     \n");
	free(s);
}
END_TEST

START_TEST(test_percent_limit)
{
	char *s;

	make_entries();
	s = report("comm,sym", false, 40, 1);

	ck_assert_str_eq(s,
		"    66.67%     gzip   \n"
		"       50.00%     [.] 0x0000000000000010\n");
	free(s);
	/* a shown node whose children are all under the limit */
	s = report("comm,sym", false, 60, 1);
	ck_assert_str_eq(s,
		"    66.67%     gzip   \n"
		"                  no entry >= 60.00%\n");
	free(s);
	/* nothing at the top: no line */
	s = report("comm,sym", false, 70, 1);
	ck_assert_str_eq(s, "");
	free(s);
}
END_TEST

START_TEST(test_ties_and_keys)
{
	char *s;

	/* sym first; equal values: perf's whole sort order decides, with the nodes'
	 * first entries, so the lower level's key (comm: dd before gzip) */
	make_entries();
	entries[0].stat.period = 2;
	s = report("sym,comm", false, 0, 1);
	ck_assert_str_eq(s,
		"    50.00%     [.] 0x0000000000000010\n"
		"       50.00%     gzip   \n"
		"    33.33%     [.] 0x0000000000000030\n"
		"       33.33%     dd     \n"
		"    33.33%     [.] 0x0000000000000020\n"
		"       33.33%     gzip   \n");
	free(s);
}
END_TEST

START_TEST(test_filtered)
{
	char *s;

	/* a filtered entry is not shown, but counts in the nodes above it */
	make_entries();
	entries[3].comm = "gzip";
	entries[3].stat.period = 2;
	s = report("comm,sym", false, 0, 1);
	ck_assert_str_eq(s,
		"   100.00%     gzip   \n"
		"       50.00%     [.] 0x0000000000000010\n"
		"       16.67%     [.] 0x0000000000000020\n"
		"    33.33%     dd     \n"
		"       33.33%     [.] 0x0000000000000030\n");
	free(s);
}
END_TEST

START_TEST(test_group)
{
	/* the group view: a member's values next to the leader's, summed per node;
	 * an entry only the member has is a zero entry of the leader (a dummy) */
	struct hist_entry m1 = { .stat = { .period = 1 } }, m2 = { .stat = { .period = 2 } };
	const struct hist_entry *p0[1] = { &m1 }, *p1[1] = { &m2 }, *p2[1] = { NULL };
	const struct hist_entry *v[3] = { &entries[0], &entries[1], &entries[2] };
	struct sort_opts o = { .sort_order = "comm" };
	const uint64_t member_totals[1] = { 3 };
	struct sort_list l;
	struct hierarchy_print p = { .sl = &l, .total = 6, .nr_members = 2,
				     .member_totals = member_totals, .quiet = 0 };
	char err[128], *buf = NULL;
	size_t len = 0;
	FILE *out;

	make_entries();
	entries[0].pairs = p0;	/* gzip 0x20: leader 1, member 1 */
	entries[1].pairs = p1;	/* dd: the member's only (leader 0) */
	entries[1].stat.period = 0;
	entries[2].pairs = p2;	/* gzip 0x10: leader 3, no member entry */
	for (size_t i = 0; i < 3; i++)
		entries[i].nr_pairs = 1;
	ck_assert_msg(sort_list__setup(&l, &o, err, sizeof(err)) == 0, "%s", err);
	out = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(out);
	ck_assert_int_eq(hierarchy__fprintf(&p, v, 3, out), 0);
	fclose(out);
	ck_assert_str_eq(buf,
		"#         Overhead  Command\n"
		"# ................  .......\n"
		"#\n"
		"    66.67%  33.33%  gzip   \n"
		"     0.00%  66.67%  dd     \n");
	free(buf);
}
END_TEST

START_TEST(test_no_key)
{
	struct sort_opts o = { .sort_order = "overhead" };
	struct sort_list l;
	struct hierarchy_print p = { .sl = &l, .total = 1 };
	const struct hist_entry *v[1] = { &entries[0] };
	char err[128];

	make_entries();
	ck_assert_int_eq(sort_list__setup(&l, &o, err, sizeof(err)), 0);
	ck_assert_int_eq(hierarchy__fprintf(&p, v, 1, stdout), -EINVAL);
}
END_TEST

Suite *hierarchy_suite(void)
{
	Suite *s = suite_create("hierarchy");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_two_levels);
	tcase_add_test(tc, test_one_level_samples);
	tcase_add_test(tc, test_percent_limit);
	tcase_add_test(tc, test_ties_and_keys);
	tcase_add_test(tc, test_filtered);
	tcase_add_test(tc, test_group);
	tcase_add_test(tc, test_no_key);
	suite_add_tcase(s, tc);
	return s;
}
