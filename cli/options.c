/*
 * options - the option tables of the front ends (see options.h).
 */
#include "cli/options.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>	/* INT_MAX */
#include <stdarg.h>
#include <stdlib.h>	/* strtol */
#include <string.h>	/* strlen, strchr */

#include "cli/cli.h"
#include "cli/list.h"
#include "cli/time-range.h"
#include "banned.h"

/* getopt_long()'s val of entry i: its letter, or past every letter. */
#define LONG_ONLY_VAL 256

int cli__options_getopt(const struct cli_option *opts, struct option *lo, size_t nlo,
			char *shorts, size_t nshorts)
{
	size_t n = 0, m = 0, k = 0;

	if (nshorts < 2)
		return -ENOSPC;
	shorts[k++] = ':';	/* a missing argument returns ':' */
	for (; opts[n].long_name; n++) {
		const struct cli_option *o = &opts[n];

		if (m + 1 >= nlo || k + 4 > nshorts)
			return -ENOSPC;
		if (!o->long_name[0])	/* a letter alone */
			goto letter;
		lo[m++] = (struct option) {
			.name = o->long_name,
			.has_arg = o->arg == CLI_ARG_NONE ? no_argument :
				   o->arg == CLI_ARG_REQUIRED ? required_argument :
				   optional_argument,
			.val = o->short_name ? o->short_name : LONG_ONLY_VAL + (int)n,
		};
		if (!o->short_name)
			continue;
letter:
		shorts[k++] = (char)o->short_name;
		if (o->arg != CLI_ARG_NONE)
			shorts[k++] = ':';
		if (o->arg == CLI_ARG_OPTIONAL || o->arg == CLI_ARG_OPTIONAL_NEXT)
			shorts[k++] = ':';
	}
	lo[m] = (struct option) { 0 };
	shorts[k] = '\0';
	return 0;
}

/* The entry getopt_long() answered c for; NULL for '?' and ':'. */
static const struct cli_option *entry_of(const struct cli_option *opts, int c)
{
	if (c >= LONG_ONLY_VAL)
		return &opts[c - LONG_ONLY_VAL];
	for (; opts->long_name; opts++)
		if (opts->short_name && opts->short_name == c)
			return opts;
	return NULL;
}

int cli__options_parse(struct cli_parser *p, int argc, char **argv)
{
	struct option lo[CLI_OPTIONS_MAX + 1];
	char shorts[3 * CLI_OPTIONS_MAX + 3];
	int c;

	/* '+': the options end at the first operand (dirrecord ls -l: -l is ls's) */
	shorts[0] = '+';
	if (cli__options_getopt(p->opts, lo, CLI_OPTIONS_MAX + 1, shorts + p->operands,
				sizeof(shorts) - 1))
		return cli__bad_usage(p->prog, "the option table is too large");
	opterr = 0;	/* cli__getopt_error() says what is wrong */
	optind = 0;	/* glibc: from argv[1], whatever was parsed before */
	p->next = argc;
	while ((c = getopt_long(argc, argv, shorts, lo, NULL)) != -1) {
		const struct cli_option *o = entry_of(p->opts, c);
		const char *arg = optarg;
		int ret;

		if (!o)	/* '?' or ':' */
			return cli__getopt_error(p->prog, c, argv, lo);
		if (o->arg == CLI_ARG_OPTIONAL_NEXT && !arg && optind < argc &&
		    argv[optind][0] != '-')
			arg = argv[optind++];	/* getopt permutes around it */
		p->msg[0] = '\0';
		ret = o->fn(p, o, arg);
		if (ret == CLI_STOP)
			return 0;
		if (ret)
			return cli__bad_usage(p->prog, p->msg);
	}
	if (optind < argc && p->operands)
		p->next = optind;
	else if (optind < argc)
		return cli__no_arguments(p->prog, argc, argv, optind);
	return CLI_GO_ON;
}

/* Lines of text, each after the first at CLI_HELP_COLUMN. */
static void put_help(FILE *f, const char *help)
{
	for (;;) {
		const char *nl = strchr(help, '\n');

		fprintf(f, "%.*s\n", (int)(nl ? nl - help : (long)strlen(help)), help);
		if (!nl)
			return;
		help = nl + 1;
		fprintf(f, "%*s", CLI_HELP_COLUMN, "");
	}
}

int cli__options_usage(FILE *f, const char *synopsis, const struct cli_option *opts)
{
	fputs(synopsis, f);
	fputc('\n', f);
	for (; opts->long_name; opts++) {
		int n;

		if (!opts->long_name[0])
			n = fprintf(f, "    -%c", opts->short_name);
		else if (opts->short_name)
			n = fprintf(f, "    -%c, --%s", opts->short_name, opts->long_name);
		else
			n = fprintf(f, "        --%s", opts->long_name);
		if (opts->metavar)
			n += fprintf(f, opts->arg == CLI_ARG_OPTIONAL ? "[=%s]" : " %s",
				     opts->metavar);
		if (opts->help[0] == '\n') {
			fputc('\n', f);
			n = 0;
		}
		fprintf(f, "%*s", n < CLI_HELP_COLUMN ? CLI_HELP_COLUMN - n : 2, "");
		put_help(f, opts->help[0] == '\n' ? opts->help + 1 : opts->help);
	}
	return ferror(f) ? -EIO : 0;
}

int cli__opt_usage(struct cli_parser *p, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(p->msg, sizeof(p->msg), fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/* ---- generic handlers -------------------------------------------------------------- */

int cli__opt_string(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p;
	*(const char **)opt->value = arg;
	return 0;
}

int cli__opt_true(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p, (void)arg;
	*(bool *)opt->value = true;
	return 0;
}

int cli__opt_bool(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p, (void)arg;
	*(bool *)opt->value = opt->defval != 0;
	return 0;
}

int cli__opt_int(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p, (void)arg;
	*(int *)opt->value = (int)opt->defval;
	return 0;
}

int cli__opt_accept(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p, (void)opt, (void)arg;
	return 0;
}

int cli__opt_help(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)opt, (void)arg;
	cli__options_usage(stdout, p->synopsis, p->opts);
	if (p->epilogue)
		printf("\n%s", p->epilogue);
	return CLI_STOP;
}

int cli__opt_version(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)opt, (void)arg;
	cli__version(p->prog);
	return CLI_STOP;
}

/* ---- the shared options' validators ----------------------------------------------- */

int cli__opt_jobs(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	if (cli__parse_jobs(arg, opt->value))
		return cli__opt_usage(p, "-j takes a number from 1 to 1024");
	return 0;
}

/* A list perf's strlist takes, stored; else "--NAME: a WHAT is listed twice". */
static int str_list(struct cli_parser *p, const struct cli_option *opt, const char *arg,
		    const char *what)
{
	if (!cli__str_list_valid(arg))
		return cli__opt_usage(p, "--%s: a %s is listed twice", opt->long_name, what);
	*(const char **)opt->value = arg;
	return 0;
}

int cli__opt_comms(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	return str_list(p, opt, arg, "command");
}

int cli__opt_dsos(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	return str_list(p, opt, arg, "dso");
}

/* A list perf's intlist takes, stored; else "--NAME takes distinct numbers, ...". */
static int int_list(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	if (!cli__int_list_valid(arg))
		return cli__opt_usage(p, "--%s takes distinct numbers, comma-separated",
				      opt->long_name);
	*(const char **)opt->value = arg;
	return 0;
}

int cli__opt_pids(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	return int_list(p, opt, arg);
}

int cli__opt_tids(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	return int_list(p, opt, arg);
}

int cli__opt_cpus(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	if (!cli__cpu_list_valid(arg))
		return cli__opt_usage(p, "-C takes a cpu list like 0-2,5");
	*(const char **)opt->value = arg;
	return 0;
}

int cli__opt_time(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct time_ranges tr;

	/* the syntax only: percentages need the recording */
	if (time_ranges__parse(&tr, arg, 0, 0))
		return cli__opt_usage(p, "--time: invalid time string");
	*(const char **)opt->value = arg;
	return 0;
}

int cli__parse_max_stack(const char *arg, int *depth)
{
	const char *s = arg;
	char *end;
	long v;

	while (*s == ' ' || (*s >= '\t' && *s <= '\r'))	/* what strtol skips */
		s++;
	if (*s == '-')
		return -EINVAL;
	errno = 0;
	v = strtol(arg, &end, 10);
	if (*end)
		return -EINVAL;
	*depth = errno == ERANGE || v > INT_MAX ? INT_MAX : (int)v;
	return 0;
}

int cli__opt_max_stack(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	if (cli__parse_max_stack(arg, opt->value))
		return cli__opt_usage(p, "--max-stack takes a number");
	return 0;
}
