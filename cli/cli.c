#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>	/* fprintf, fputs */
#include <stdlib.h>	/* strtoul */
#include <string.h>	/* strcspn, strncmp */

#include "machine/machine.h"	/* machine__check_kernel_symbols */
#include "util/phase.h"
#include "banned.h"

int cli__parse_jobs(const char *arg, unsigned *jobs)
{
	char *end;
	unsigned long v;

	if (*arg < '0' || *arg > '9')	/* strtoul would take spaces and signs */
		return -EINVAL;
	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || *end || v == 0 || v > 1024)
		return -EINVAL;
	*jobs = (unsigned)v;
	return 0;
}

int cli__bad_usage(const char *prog, const char *msg)
{
	fprintf(stderr, "%s: %s; see '%s --help'\n", prog, msg, prog);
	return 2;
}

int cli__no_arguments(const char *prog, int argc, char *const *argv, int first)
{
	char msg[256];

	if (first >= argc)
		return 0;
	snprintf(msg, sizeof(msg), "unexpected argument '%.200s'", argv[first]);
	return cli__bad_usage(prog, msg);
}

/* The long options whose name starts with the n bytes of name: how many, and the
 * first (an exact match alone where there is one, as getopt_long takes it). */
static size_t long_matches(const struct option *lo, const char *name, size_t n,
			   const struct option **first)
{
	size_t count = 0;

	*first = NULL;
	for (; lo->name; lo++) {
		if (strncmp(lo->name, name, n))
			continue;
		if (!lo->name[n]) {
			*first = lo;
			return 1;
		}
		if (!count++)
			*first = lo;
	}
	return count;
}

/* "ambiguous option '--gro' (--group, --group-sort-idx)": the names it starts. */
static void ambiguous(char *msg, size_t len, const struct option *lo, const char *name,
		      size_t n)
{
	int k = snprintf(msg, len, "ambiguous option '--%.*s' (", (int)n, name);
	const char *sep = "";

	for (; lo->name && k > 0 && (size_t)k < len; lo++) {
		if (strncmp(lo->name, name, n))
			continue;
		k += snprintf(msg + k, len - (size_t)k, "%s--%s", sep, lo->name);
		sep = ", ";
	}
	if (k > 0 && (size_t)k < len)
		snprintf(msg + k, len - (size_t)k, ")");
}

/* The error of a long option argument: "--name[=value]". */
static int long_error(const char *prog, int c, const char *arg,
		      const struct option *long_opts)
{
	const char *name = arg + 2;
	size_t n = strcspn(name, "=");
	const struct option *lo;
	size_t count = long_matches(long_opts, name, n, &lo);
	char msg[512];

	if (!count)
		snprintf(msg, sizeof(msg), "unknown option '--%.*s'", (int)n, name);
	else if (count > 1)
		ambiguous(msg, sizeof(msg), long_opts, name, n);
	else if (c == ':')
		snprintf(msg, sizeof(msg), "option '--%s' needs an argument", lo->name);
	else
		snprintf(msg, sizeof(msg), "option '--%s' takes no argument", lo->name);
	return cli__bad_usage(prog, msg);
}

int cli__getopt_error(const char *prog, int c, char *const *argv,
		      const struct option *long_opts)
{
	const char *arg = optind > 0 ? argv[optind - 1] : NULL;
	const struct option *lo = NULL;
	char msg[64];

	/*
	 * getopt's optopt is 0 for an unknown or ambiguous long option, the option's
	 * value for a long option refused otherwise, the letter for a short one.
	 * argv[optind - 1] is the long option at fault, but only may be for a short
	 * one (optind moves past a group of letters at its last).
	 */
	if (arg && arg[0] == '-' && arg[1] == '-' && arg[2] &&
	    (optopt == 0 ||
	     (long_matches(long_opts, arg + 2, strcspn(arg + 2, "="), &lo) == 1 &&
	      lo->val == optopt)))
		return long_error(prog, c, arg, long_opts);
	if (c == ':')
		snprintf(msg, sizeof(msg), "option '-%c' needs an argument", optopt);
	else if (optopt > ' ' && optopt < 127)
		snprintf(msg, sizeof(msg), "unknown option '-%c'", optopt);
	else
		snprintf(msg, sizeof(msg), "unknown option");
	return cli__bad_usage(prog, msg);
}

int cli__version(const char *prog)
{
	printf("%s version %s\n", prog, DIRREPORT_VERSION);
	return 0;
}

bool cli__kernel_symbols_differ(struct machine *m, const char *prog, const char *what)
{
	uint64_t at = 0;
	enum kallsyms_check_result k = machine__check_kernel_symbols(m, &at);

	if (k == KALLSYMS_NOT_AHEAD)
		return false;
	phases__mark(k == KALLSYMS_SAME ? "kernel symbols checked" : "kernel symbols differ");
	if (k == KALLSYMS_SAME)
		return false;
	fprintf(stderr, "%s: note: /proc/kallsyms differs from the build-id cache's copy "
		"read ahead (at byte %llu): the %s is made again from /proc/kallsyms, which "
		"this boot's later runs read first\n", prog, (unsigned long long)at, what);
	return true;
}
