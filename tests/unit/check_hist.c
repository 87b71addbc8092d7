/*
 * Unit tests of report/hist: filtered entries (perf's he->filtered, the first
 * sample's filter bits) and the two percentage bases of --percentage.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/hist.h"
#include "report/hist-print.h"
#include "report/sort.h"

#include "banned.h"

static char *print(struct hists *h, bool relative)
{
	struct hists_print_opts po = { .filter_relative = relative };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_int_eq(hists__fprintf(h, &po, "cpu-clock", f), 0);
	fclose(f);
	return text;
}

static void add(struct hists *h, const char *comm, uint64_t period, uint8_t filtered)
{
	struct hist_sample s = {
		.comm = comm, .addr = 0x1000, .time = 0, .cpu = -1, .socket = -1,
		.level = '.', .cpumode = 2, .period = period, .filtered = filtered,
	};

	ck_assert_int_eq(hists__add(h, &s), 0);
}

/* gzip 300 + 100 shown, dd 100 hidden (printing consumes a histogram: one each) */
static void fill(struct hists *h, const struct sort_list *sl)
{
	hists__init(h, sl, NULL);
	add(h, "gzip", 300, 0);
	add(h, "dd", 100, 2);
	add(h, "gzip", 100, 0);
}

START_TEST(test_hist_filtered)
{
	struct sort_opts so = { .sort_order = "comm" };
	struct sort_list sl;
	struct hists h;
	char err[128] = "", *out;

	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), 0);
	fill(&h, &sl);
	out = print(&h, false);	/* absolute: the whole total */
	ck_assert_ptr_nonnull(strstr(out, "# Samples: 3  of event 'cpu-clock'\n"
					  "# Event count (approx.): 500\n"));
	ck_assert_ptr_nonnull(strstr(out, "    80.00%  gzip   \n"));
	ck_assert_ptr_null(strstr(out, "dd"));
	free(out);
	hists__exit(&h);
	fill(&h, &sl);
	out = print(&h, true);	/* relative: only what is shown */
	ck_assert_ptr_nonnull(strstr(out, "# Samples: 2  of event 'cpu-clock'\n"
					  "# Event count (approx.): 400\n"));
	ck_assert_ptr_nonnull(strstr(out, "   100.00%  gzip   \n"));
	free(out);
	hists__exit(&h);
}
END_TEST

START_TEST(test_hist_first_sample_filter)
{
	struct sort_opts so = { .sort_order = "comm" };
	struct sort_list sl;
	struct hists h;
	char err[128] = "", *out;

	/* perf keeps the filter bits of the sample that made the entry */
	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), 0);
	hists__init(&h, &sl, NULL);
	add(&h, "sh", 100, 8);
	add(&h, "sh", 100, 0);
	add(&h, "ls", 200, 0);
	out = print(&h, true);
	ck_assert_ptr_nonnull(strstr(out, "# Samples: 1  of event 'cpu-clock'\n"
					  "# Event count (approx.): 200\n"));
	ck_assert_ptr_null(strstr(out, "sh"));
	free(out);
	hists__exit(&h);
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hist_filtered);
	tcase_add_test(tc, test_hist_first_sample_filter);
	suite_add_tcase(s, tc);
	return s;
}
