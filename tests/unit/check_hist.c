/*
 * Unit tests of report/hist: filtered entries (perf's he->filtered, the first
 * sample's filter bits), the two percentage bases of --percentage, the branch
 * view's entries (one per branch, perf's branch keys), and histograms counted in
 * parts and merged (hists__merge(), callchains__merge()) against one counted in
 * order.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/branch.h"
#include "report/callchain.h"
#include "report/hist-internal.h"
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

/* The sort list of `-s comm`. */
static void comm_sort(struct sort_list *sl)
{
	struct sort_opts so = { .sort_order = "comm" };
	char err[128] = "";

	ck_assert_int_eq(sort_list__setup(sl, &so, err, sizeof(err)), 0);
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
	struct sort_list sl;
	struct hists h;
	char *out;

	comm_sort(&sl);
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
	struct sort_list sl;
	struct hists h;
	char *out;

	/* perf keeps the filter bits of the sample that made the entry */
	comm_sort(&sl);
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

/* Periods of 2^32 or more (two steps a sample): each entry gets its samples' whole
 * periods, whether replayed when printed or live as they are added (and let go). */
START_TEST(test_hist_big_periods)
{
	struct sort_list sl;
	struct hists h;
	char *out;

	comm_sort(&sl);
	sl.hash_safe = false;	/* every sample replayed with its own period */
	for (int live = 0; live < 2; live++) {
		struct hists_print_opts po = { 0 };

		hists__init(&h, &sl, NULL);
		if (live)
			ck_assert_int_eq(hists__live_start(&h, &po), 0);
		add(&h, "gzip", ((uint64_t)5 << 32) + 7, 0);
		add(&h, "dd", (uint64_t)1 << 32, 0);
		add(&h, "gzip", (uint64_t)1 << 33, 0);
		add(&h, "gzip", UINT32_MAX, 0);	/* one step */
		if (live) {
			ck_assert_int_eq(hists__live_replay(&h, h.nr_steps), 0);
			hists__drop_replayed(&h);
		}
		ck_assert_uint_eq(h.nr_steps, 7);
		out = print(&h, false);
		ck_assert_ptr_nonnull(strstr(out, "# Event count (approx.): 38654705670\n"));
		/* gzip (7 << 32) + 7 + 2^32 - 1, dd 2^32 */
		ck_assert_ptr_nonnull(strstr(out, "    88.89%  gzip   \n"
						  "    11.11%  dd     \n"));
		free(out);
		hists__exit(&h);
	}
}
END_TEST

/* One branch counted as the branch view counts it: period 1, the target's address
 * as the entry's, unresolved ends (no map: level 'H'). */
static void add_branch(struct hists *h, const char *comm, uint64_t from, uint64_t to,
		       uint64_t flags)
{
	struct hist_branch hb = {
		.from = { .addr = from, .al_addr = from, .level = 'H' },
		.to = { .addr = to, .al_addr = to, .level = 'H' },
		.flags = flags,
	};
	struct hist_sample s = {
		.comm = comm, .addr = to, .time = 0, .cpu = -1, .socket = -1, .level = 'k',
		.cpumode = 1, .period = 1, .branch = &hb,
	};

	ck_assert_int_eq(hists__add(h, &s), 0);
}

#define CYC(n) ((uint64_t)(n) << 4)

START_TEST(test_hist_branch_view)
{
	struct sort_opts so = { .branch_mode = true };
	struct sort_list sl;
	struct hists h;
	char err[128] = "", *out;

	ck_assert(branch_flags__predicted(2) && !branch_flags__mispred(2));
	ck_assert_uint_eq(branch_flags__cycles(CYC(0xa49d) | 0xf), 0xa49d);
	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), 0);
	hists__init(&h, &sl, NULL);
	for (int i = 0; i < 3; i++)
		add_branch(&h, "perf", 0x10, 0x20, CYC(2));
	add_branch(&h, "perf", 0x10, 0x20, CYC(2019));
	add_branch(&h, "perf", 0x30, 0x40, 0);
	add_branch(&h, "perf", 0x10, 0x20, CYC(0xa49d));
	out = print(&h, false);
	/* a sample per branch, each of period 1 */
	ck_assert_ptr_nonnull(strstr(out, "# Samples: 6  of event 'cpu-clock'\n"
					  "# Event count (approx.): 6\n"));
	ck_assert_ptr_nonnull(strstr(out,
		"# Overhead  Command  Source Shared Object  Source Symbol           "
		"Target Symbol           Basic Block Cycles\n"));
	/* ties by source address (lower first), then by cycles compared unsigned
	 * (larger first) and printed as a signed short; no cycles print "-" */
	ck_assert_ptr_nonnull(strstr(out,
		"    50.00%  perf     [unknown]             [H] 0x0000000000000010  "
		"[H] 0x0000000000000020  2                 \n"
		"    16.67%  perf     [unknown]             [H] 0x0000000000000010  "
		"[H] 0x0000000000000020  -23395            \n"
		"    16.67%  perf     [unknown]             [H] 0x0000000000000010  "
		"[H] 0x0000000000000020  2019              \n"
		"    16.67%  perf     [unknown]             [H] 0x0000000000000030  "
		"[H] 0x0000000000000040  -                 \n"));
	free(out);
	hists__exit(&h);
}
END_TEST

START_TEST(test_hist_branch_flags_keys)
{
	struct sort_opts so = { .branch_mode = true, .sort_order = "mispredict,cycles" };
	struct sort_list sl;
	struct hists h;
	char err[128] = "", *out;

	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), 0);
	hists__init(&h, &sl, NULL);
	add_branch(&h, "perf", 0x10, 0x20, 1 | CYC(1));	/* mispredicted */
	add_branch(&h, "perf", 0x10, 0x20, 1 | CYC(1));
	add_branch(&h, "perf", 0x10, 0x20, CYC(3));	/* neither flag */
	out = print(&h, false);
	/* perf's text lives in a static: an entry with neither flag repeats the last */
	ck_assert_ptr_nonnull(strstr(out,
		"    66.67%  Y                    1                 \n"
		"    33.33%  Y                    3                 \n"));
	free(out);
	hists__exit(&h);
	/* the branch keys exist in the branch view only; "symbol" there would need
	 * perf's IPC column */
	so.branch_mode = false;
	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), -EINVAL);
	so.branch_mode = true;
	so.sort_order = "dso_from,symbol_to";
	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), -ENOTSUP);
}
END_TEST

/* A sample of the merge test: its comm, chain (depth frames of a few addresses) and
 * period from i; time i tells first samples apart. */
static void merge_sample(unsigned i, struct callchains *cc, struct hist_sample *s)
{
	static const char *const comms[] = { "gzip", "dd", "make" };
	uint32_t node = CALLCHAIN_ROOT;
	unsigned x = i * 2654435761u;

	for (unsigned d = 0; d < (x >> 8) % 5; d++) {
		struct cc_frame f = { .ip = 0x1000 + 0x10 * ((x >> (12 + 2 * d)) % 3) };

		ck_assert_int_eq(callchains__append(cc, node, &f, &node), 0);
	}
	*s = (struct hist_sample){
		.comm = comms[(x >> 4) % 3], .addr = 0x2000 + 0x10 * ((x >> 20) % 4),
		.time = i, .cpu = -1, .socket = -1, .level = '.', .cpumode = 2,
		.period = 1 + i % 3, .seq = i, .chain = node,
	};
}

/* Samples counted in runs by two "threads" into histograms and chains of their own,
 * merged: the same groups (order, first samples, counts) and chain nodes (numbers,
 * frames) as all of them counted in order into one. */
START_TEST(test_hist_merge)
{
	struct sort_opts so = { .sort_order = "comm,sym", .total_order = true };
	struct callchains *one, *part[2], *merged;
	struct hists h1, hp[2], hm;
	struct hists *hs[2] = { &hp[0], &hp[1] };
	uint32_t *maps[2], ids1[8], idsm[8];
	struct sort_list sl;
	char err[128] = "";

	ck_assert_int_eq(sort_list__setup(&sl, &so, err, sizeof(err)), 0);
	ck_assert(hists__mergeable(&(struct hists){ .sl = &sl }));
	ck_assert_int_eq(callchains__new(&one, CALLCHAIN_KEY_FUNCTION), 0);
	ck_assert_int_eq(callchains__new(&merged, CALLCHAIN_KEY_FUNCTION), 0);
	hists__init(&h1, &sl, one);
	hists__init(&hm, &sl, merged);
	for (int k = 0; k < 2; k++) {
		ck_assert_int_eq(callchains__new(&part[k], CALLCHAIN_KEY_FUNCTION), 0);
		callchains__track_seq(part[k]);
		hists__init(&hp[k], &sl, part[k]);
	}
	for (unsigned i = 0; i < 400; i++) {
		struct hist_sample s;
		int k = (i / 16 + i / 100) % 2;	/* runs of 16, not alternating */

		merge_sample(i, one, &s);
		ck_assert_int_eq(hists__add(&h1, &s), 0);
		callchains__set_seq(part[k], i);
		merge_sample(i, part[k], &s);
		ck_assert_int_eq(hists__add(&hp[k], &s), 0);
	}
	for (int k = 0; k < 2; k++)
		ck_assert_ptr_nonnull(maps[k] = malloc(callchains__nr_nodes(part[k]) *
						       sizeof(**maps)));
	ck_assert_int_eq(callchains__merge(merged, part, 2, maps, NULL), 0);
	ck_assert_int_eq(hists__merge(&hm, hs, 2, maps, NULL), 0);

	ck_assert_uint_eq(callchains__nr_nodes(merged), callchains__nr_nodes(one));
	for (uint32_t n = 0; n < callchains__nr_nodes(one); n++) {
		uint32_t d = callchains__depth(one, n);

		ck_assert_uint_eq(callchains__depth(merged, n), d);
		callchains__frames(one, n, ids1);
		callchains__frames(merged, n, idsm);
		for (uint32_t j = 0; j < d; j++) {
			ck_assert_uint_eq(idsm[j], ids1[j]);
			ck_assert_uint_eq(callchains__frame(merged, idsm[j])->ip,
					  callchains__frame(one, ids1[j])->ip);
		}
	}
	ck_assert_uint_eq(hm.total_period, h1.total_period);
	ck_assert_uint_eq(hm.nr_samples, h1.nr_samples);
	ck_assert_uint_eq(hm.nr_groups, h1.nr_groups);
	ck_assert_uint_gt(h1.nr_groups, 50);
	for (size_t g = 0; g < h1.nr_groups; g++) {
		const struct hist_group *a = &h1.groups[g], *b = &hm.groups[g];

		ck_assert_str_eq(b->s.comm, a->s.comm);
		ck_assert_uint_eq(b->s.addr, a->s.addr);
		ck_assert_uint_eq(b->s.chain, a->s.chain);
		ck_assert_uint_eq(b->s.time, a->s.time);	/* the first sample */
		ck_assert_uint_eq(b->period, a->period);
		ck_assert_uint_eq(b->count, a->count);
		ck_assert_uint_eq(b->s.nr_ips, a->s.nr_ips);
	}
	for (int k = 0; k < 2; k++) {
		free(maps[k]);
		hists__exit(&hp[k]);
		callchains__delete(part[k]);
	}
	hists__exit(&h1);
	hists__exit(&hm);
	callchains__delete(one);
	callchains__delete(merged);
}
END_TEST

Suite *hist_suite(void)
{
	Suite *s = suite_create("hist");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_hist_filtered);
	tcase_add_test(tc, test_hist_first_sample_filter);
	tcase_add_test(tc, test_hist_big_periods);
	tcase_add_test(tc, test_hist_branch_view);
	tcase_add_test(tc, test_hist_branch_flags_keys);
	tcase_add_test(tc, test_hist_merge);
	suite_add_tcase(s, tc);
	return s;
}
