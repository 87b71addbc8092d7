#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>	/* fprintf, fputs */
#include <stdlib.h>	/* strtoul */

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

int cli__bad_usage(const char *prog, const char *usage, const char *msg)
{
	if (msg)
		fprintf(stderr, "%s: %s\n", prog, msg);
	fputs(usage, stderr);
	return 2;
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
