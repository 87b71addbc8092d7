/*
 * Unit tests of cli/: the -j argument the front ends take, the validators of the
 * options they share (cli/list.h, cli/options.h: one each, perf 6.1's rules), and
 * the option table (getopt's arguments, --help's layout, the parse).
 */
#include <check.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>	/* INT_MAX */
#include <stdio.h>	/* open_memstream */
#include <stdlib.h>	/* free */

#include "cli/cli.h"
#include "cli/list.h"
#include "cli/options.h"
#include "banned.h"

#define N_OF(a) (sizeof(a) / sizeof((a)[0]))

START_TEST(test_cli_parse_jobs)
{
	static const char *const bad[] = { "", "0", "1025", "-1", "+2", "2x", "x", " 3",
					   "99999999999999999999" };
	unsigned j = 77;

	ck_assert_int_eq(cli__parse_jobs("1", &j), 0);
	ck_assert_uint_eq(j, 1);
	ck_assert_int_eq(cli__parse_jobs("1024", &j), 0);
	ck_assert_uint_eq(j, 1024);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = 77;
		ck_assert_msg(cli__parse_jobs(bad[i], &j) == -EINVAL, "\"%s\" accepted", bad[i]);
		ck_assert_uint_eq(j, 77);
	}
}
END_TEST

/* Each of good[] valid, each of bad[] not. */
static void check_valid(bool (*valid)(const char *), const char *const *good, size_t ngood,
			const char *const *bad, size_t nbad)
{
	for (size_t i = 0; i < ngood; i++)
		ck_assert_msg(valid(good[i]), "\"%s\" refused", good[i]);
	for (size_t i = 0; i < nbad; i++)
		ck_assert_msg(!valid(bad[i]), "\"%s\" taken", bad[i]);
}

/* --pid/--tid: what perf 6.1's perf report and perf script both take or refuse
 * ("problems parsing pid list"): a repeated number is refused by both. */
START_TEST(test_cli_int_list)
{
	static const char *const good[] = { "", "1", "1,2", "1,", " 1", "+1", "-1,1",
					    "1,,2", "99999999999999999999" };
	static const char *const bad[] = { "1,1", "0,", "1,,", ",,", "0,,0", "x", "1x",
					   "0x1", "1 ", "1, 1", "-0,0", "1,+1",
					   "-1,-1" };

	check_valid(cli__int_list_valid, good, N_OF(good), bad, N_OF(bad));
}
END_TEST

/* --comms/--dsos (and dirreport's -S): perf's strlist refuses an item listed twice,
 * in perf report and perf script alike. */
START_TEST(test_cli_str_list)
{
	static const char *const good[] = { "", "a", "a,b", "a,", ",a", ",", "perl,perl2" };
	static const char *const bad[] = { "perl,perl", "a,,a", "a,a,", "a,b,a" };

	check_valid(cli__str_list_valid, good, N_OF(good), bad, N_OF(bad));
}
END_TEST

/* -C: the empty list is taken (perf: no cpu, no sample); a blank or a sign is not
 * (perf: "Invalid cpu_list"). */
START_TEST(test_cli_cpu_list)
{
	static const char *const good[] = { "", "0", "0-2,5", "4095", "1,1" };
	static const char *const bad[] = { " 1", "+1", "-1", "1,", "1-", "2-1", "4096",
					   "a", "0 1", "1,,2" };

	check_valid(cli__cpu_list_valid, good, N_OF(good), bad, N_OF(bad));
}
END_TEST

/* --max-stack: perf report and perf script take 500 as 500 (no cap at 127), and
 * strtol's syntax; a negative number is refused (perf script). */
START_TEST(test_cli_max_stack)
{
	static const struct { const char *arg; int depth; } good[] = {
		{ "0", 0 }, { "127", 127 }, { "500", 500 }, { "+5", 5 }, { " 5", 5 },
		{ "", 0 }, { "2147483647", INT_MAX }, { "99999999999", INT_MAX },
		{ "99999999999999999999999", INT_MAX },
	};
	static const char *const bad[] = { "-1", " -1", "-0", "x", "5x", "0x10", " ",
					   "5 ", "+" };

	for (size_t i = 0; i < N_OF(good); i++) {
		int d = -7;

		ck_assert_msg(cli__parse_max_stack(good[i].arg, &d) == 0, "\"%s\" refused",
			      good[i].arg);
		ck_assert_int_eq(d, good[i].depth);
	}
	for (size_t i = 0; i < N_OF(bad); i++) {
		int d = -7;

		ck_assert_msg(cli__parse_max_stack(bad[i], &d) == -EINVAL, "\"%s\" taken",
			      bad[i]);
		ck_assert_int_eq(d, -7);
	}
}
END_TEST

/* What the test table's handlers saw. */
struct seen {
	const char *input, *pids, *graph;
	bool graph_given, flag;
	int max_stack, level;
	unsigned jobs;
};

static int opt_graph(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct seen *s = opt->value;

	(void)p;
	s->graph_given = true;
	s->graph = arg;
	return 0;
}

/* A table with a shared option of each kind and each layout of --help. */
#define TEST_TABLE(s)							\
	const struct cli_option opts[] = {				\
		CLI_OPT_INPUT(&(s)->input),				\
		CLI_OPT_JOBS(&(s)->jobs),				\
		CLI_OPT_PID(&(s)->pids, "PIDS", "only these"),		\
		CLI_OPT_MAX_STACK(&(s)->max_stack, "frames"),		\
		{ "call-graph", 'g', CLI_ARG_OPTIONAL_NEXT, "FORM",	\
		  "graphs", opt_graph, (s) },				\
		{ "level", 'z', CLI_ARG_OPTIONAL, "LEVEL", "\nzstd level", \
		  cli__opt_int, &(s)->level, 3 },			\
		{ "a-rather-long-flag", 0, CLI_ARG_NONE, NULL, "two spaces\nthen more", \
		  cli__opt_true, &(s)->flag },				\
		{ "flag", 'f', CLI_ARG_NONE, NULL, "set", cli__opt_true, &(s)->flag }, \
		CLI_OPT_HELP,						\
		CLI_OPT_VERSION("prog"),				\
		CLI_OPT_END,						\
	}

START_TEST(test_cli_options_getopt)
{
	struct seen s = { 0 };
	TEST_TABLE(&s);
	struct option lo[CLI_OPTIONS_MAX + 1];
	char shorts[64];

	ck_assert_int_eq(cli__options_getopt(opts, lo, N_OF(lo), shorts, sizeof(shorts)), 0);
	ck_assert_str_eq(shorts, ":i:j:g::z::fh");
	ck_assert_str_eq(lo[0].name, "input");
	ck_assert_int_eq(lo[0].has_arg, required_argument);
	ck_assert_int_eq(lo[0].val, 'i');
	ck_assert_str_eq(lo[2].name, "pid");
	ck_assert_int_eq(lo[2].val, 256 + 2);
	ck_assert_int_eq(lo[4].has_arg, optional_argument);
	ck_assert_int_eq(lo[6].has_arg, no_argument);
	ck_assert_ptr_null(lo[N_OF(opts) - 1].name);
	ck_assert_int_eq(cli__options_getopt(opts, lo, 4, shorts, sizeof(shorts)), -ENOSPC);
	ck_assert_int_eq(cli__options_getopt(opts, lo, N_OF(lo), shorts, 6), -ENOSPC);
}
END_TEST

START_TEST(test_cli_options_usage)
{
	struct seen s = { 0 };
	TEST_TABLE(&s);
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(cli__options_usage(f, "usage: prog [-i PATH]\n", opts), 0);
	fclose(f);
	ck_assert_str_eq(text,
		"usage: prog [-i PATH]\n"
		"\n"
		"    -i, --input PATH       perf.data file, data directory, or - for stdin\n"
		"                           (default: perf.data)\n"
		"    -j, --jobs N           worker threads (default: online CPUs)\n"
		"        --pid PIDS         only these\n"
		"        --max-stack N      frames\n"
		"    -g, --call-graph FORM  graphs\n"
		"    -z, --level[=LEVEL]\n"
		"                           zstd level\n"
		"        --a-rather-long-flag  two spaces\n"
		"                           then more\n"
		"    -f, --flag             set\n"
		"    -h, --help             this text\n"
		"        --version          the version (\"prog version N\")\n");
	free(text);
}
END_TEST

/* Parse argv (NULL-terminated) by the test table; the exit status or CLI_GO_ON. */
static int parse(struct seen *s, char **argv)
{
	TEST_TABLE(s);
	struct cli_parser p = { .prog = "prog", .synopsis = "usage: prog\n", .opts = opts };
	int argc = 0;

	while (argv[argc])
		argc++;
	return cli__options_parse(&p, argc, argv);
}

START_TEST(test_cli_options_parse)
{
	struct seen s = { .max_stack = -1 };
	char *ok[] = { "prog", "-i", "in.data", "--pid=1,2", "--max-stack", "500", "-j2",
		       "-g", "caller", "-z", "-f", NULL };
	char *g_last[] = { "prog", "-g", NULL };
	char *g_opt[] = { "prog", "--call", "-f", NULL };	/* abbreviated */
	char *g_attached[] = { "prog", "--call-graph=flat", "x", NULL };
	char *stray_first[] = { "prog", "stray", "-g", "fractal", NULL };
	char *level[] = { "prog", "--level=9", NULL };

	ck_assert_int_eq(parse(&s, ok), CLI_GO_ON);
	ck_assert_str_eq(s.input, "in.data");
	ck_assert_str_eq(s.pids, "1,2");
	ck_assert_int_eq(s.max_stack, 500);	/* no cap at 127 */
	ck_assert_uint_eq(s.jobs, 2);
	ck_assert_str_eq(s.graph, "caller");
	ck_assert_int_eq(s.level, 3);
	ck_assert(s.flag);

	s = (struct seen) { 0 };
	ck_assert_int_eq(parse(&s, g_last), CLI_GO_ON);
	ck_assert(s.graph_given);
	ck_assert_ptr_null(s.graph);
	s = (struct seen) { 0 };
	ck_assert_int_eq(parse(&s, g_opt), CLI_GO_ON);
	ck_assert(s.graph_given && s.flag);
	ck_assert_ptr_null(s.graph);
	/* an attached argument: the next word is a stray argument */
	ck_assert_int_eq(parse(&s, g_attached), 2);
	s = (struct seen) { 0 };
	ck_assert_int_eq(parse(&s, stray_first), 2);
	ck_assert_str_eq(s.graph, "fractal");
	ck_assert_int_eq(parse(&s, level), CLI_GO_ON);
}
END_TEST

/* The shared validators' refusals: a usage error (exit status 2), the value kept. */
START_TEST(test_cli_options_refused)
{
	static char *const bad[][4] = {
		{ "prog", "--pid", "1,1", NULL },	/* perf: a repeated number */
		{ "prog", "--pid=x", NULL },
		{ "prog", "--max-stack", "-1", NULL },
		{ "prog", "--max-stack", "x", NULL },
		{ "prog", "-j", "0", NULL },
		{ "prog", "--bogus", NULL },
		{ "prog", "--pid", NULL },
		{ "prog", "--flag=1", NULL },
	};

	for (size_t i = 0; i < N_OF(bad); i++) {
		struct seen s = { .max_stack = -1 };
		char *argv[4];

		for (size_t k = 0; k < 4; k++)
			argv[k] = bad[i][k];
		ck_assert_msg(parse(&s, argv) == 2, "%s %s: not a usage error", argv[1],
			      argv[2] ? argv[2] : "");
		ck_assert_ptr_null(s.pids);
		ck_assert_int_eq(s.max_stack, -1);
	}
}
END_TEST

Suite *cli_suite(void)
{
	Suite *s = suite_create("cli");
	TCase *tc = tcase_create("jobs");
	TCase *lists = tcase_create("validators");
	TCase *table = tcase_create("options");

	tcase_add_test(tc, test_cli_parse_jobs);
	suite_add_tcase(s, tc);
	tcase_add_test(lists, test_cli_int_list);
	tcase_add_test(lists, test_cli_str_list);
	tcase_add_test(lists, test_cli_cpu_list);
	tcase_add_test(lists, test_cli_max_stack);
	suite_add_tcase(s, lists);
	tcase_add_test(table, test_cli_options_getopt);
	tcase_add_test(table, test_cli_options_usage);
	tcase_add_test(table, test_cli_options_parse);
	tcase_add_test(table, test_cli_options_refused);
	suite_add_tcase(s, table);
	return s;
}
