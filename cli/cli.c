#include "cli/cli.h"

#include <errno.h>
#include <stdio.h>	/* fprintf, fputs */
#include <stdlib.h>	/* strtoul */

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
