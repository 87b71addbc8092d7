/*
 * Unit tests of report/group: which events print together and under which name
 * (checked against perf 6.1 `perf report --stdio` on samples/group-mixed.data,
 * samples/two-events.data and samples/plain.data, with --group and --no-group).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "format/evlist.h"
#include "format/feature.h"
#include "report/group.h"
#include "testlib.h"

#include "banned.h"

static void make_evlist(struct evlist *el, size_t n)
{
	static const char *const names[] = { "page-faults", "cpu-clock", "task-clock",
					     "minor-faults", "context-switches" };
	struct event_attr a = testlib_attr(0);

	evlist__init(el);
	for (size_t i = 0; i < n; i++) {
		uint64_t id = 100 + i;
		struct evsel *ev;

		ck_assert_int_eq(evlist__add(el, &a, &id, 1, &ev), 0);
		ck_assert_int_eq(evsel__set_name(ev, names[i]), 0);
	}
}

/* GROUP_DESC as perf writes it for -e 'page-faults,{cpu-clock,task-clock},
 * grp{minor-faults,context-switches}' (names are borrowed: reset before exit) */
static struct feat_group mixed_groups[] = {
	{ "{anon_group}", 1, 2 },
	{ "grp", 3, 2 },
};

START_TEST(test_group_desc)
{
	struct report_groups *g;
	struct features f;
	struct evlist el;

	make_evlist(&el, 5);
	features__init(&f);
	f.groups = mixed_groups;
	f.nr_groups = 2;
	ck_assert_int_eq(report_groups__new(&g, &el, &f, 0), 0);
	ck_assert(g->view);
	ck_assert_uint_eq(g->nr_members[0], 1);
	ck_assert_uint_eq(g->nr_members[1], 2);
	ck_assert_uint_eq(g->nr_members[2], 0);
	ck_assert_uint_eq(g->nr_members[3], 2);
	ck_assert_ptr_null(g->desc[0]);
	ck_assert_str_eq(g->desc[1], "anon group { cpu-clock, task-clock }");
	ck_assert_str_eq(g->desc[3], "grp { minor-faults, context-switches }");
	ck_assert(report_groups__prints(g, 0));
	ck_assert(report_groups__prints(g, 1));
	ck_assert(!report_groups__prints(g, 2));
	ck_assert(!report_groups__prints(g, 4));
	report_groups__delete(g);
	/* --no-group: every event prints; the leaders still lead (of events) */
	ck_assert_int_eq(report_groups__new(&g, &el, &f, -1), 0);
	ck_assert(!g->view);
	ck_assert_uint_eq(g->nr_members[1], 2);
	ck_assert(report_groups__prints(g, 2));
	report_groups__delete(g);
	f.groups = NULL;
	f.nr_groups = 0;
	features__exit(&f);
	evlist__exit(&el);
}
END_TEST

START_TEST(test_group_forced)
{
	struct report_groups *g;
	struct evlist el;

	make_evlist(&el, 3);
	/* no groups, no option: every event alone */
	ck_assert_int_eq(report_groups__new(&g, &el, NULL, 0), 0);
	for (size_t i = 0; i < 3; i++) {
		ck_assert_uint_eq(g->nr_members[i], 1);
		ck_assert(report_groups__prints(g, i));
	}
	report_groups__delete(g);
	/* --group: perf's forced leader, named without braces */
	ck_assert_int_eq(report_groups__new(&g, &el, NULL, 1), 0);
	ck_assert_uint_eq(g->nr_members[0], 3);
	ck_assert_uint_eq(g->nr_members[1], 0);
	ck_assert_str_eq(g->desc[0], "page-faults, cpu-clock, task-clock");
	ck_assert(!report_groups__prints(g, 2));
	report_groups__delete(g);
	/* --no-group forces the leader too (its block says "of events") */
	ck_assert_int_eq(report_groups__new(&g, &el, NULL, -1), 0);
	ck_assert_uint_eq(g->nr_members[0], 3);
	ck_assert(report_groups__prints(g, 2));
	report_groups__delete(g);
	evlist__exit(&el);
	/* one event: nothing to group */
	make_evlist(&el, 1);
	ck_assert_int_eq(report_groups__new(&g, &el, NULL, 1), 0);
	ck_assert_uint_eq(g->nr_members[0], 1);
	ck_assert_ptr_null(g->desc[0]);
	report_groups__delete(g);
	evlist__exit(&el);
}
END_TEST

START_TEST(test_group_invalid)
{
	/* a leader inside the previous group: perf calls it invalid; no groups here */
	static struct feat_group bad[] = { { "{anon_group}", 0, 3 }, { "x", 1, 2 } };
	struct report_groups *g;
	struct features f;
	struct evlist el;

	make_evlist(&el, 4);
	features__init(&f);
	f.groups = bad;
	f.nr_groups = 2;
	ck_assert_int_eq(report_groups__new(&g, &el, &f, 0), 0);
	for (size_t i = 0; i < 4; i++)
		ck_assert_uint_eq(g->nr_members[i], 1);
	report_groups__delete(g);
	report_groups__delete(NULL);
	f.groups = NULL;
	f.nr_groups = 0;
	features__exit(&f);
	evlist__exit(&el);
}
END_TEST

Suite *group_suite(void)
{
	Suite *s = suite_create("group");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_group_desc);
	tcase_add_test(tc, test_group_forced);
	tcase_add_test(tc, test_group_invalid);
	suite_add_tcase(s, tc);
	return s;
}
