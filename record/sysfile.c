/*
 * sysfile - first lines and whole files of /proc, /sys and tracefs
 * (record/sysfile.h).
 */
#include "record/sysfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>	/* PATH_MAX */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/array.h"

#include "banned.h"

int sysfile__line(char *out, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	va_list ap;
	FILE *f;
	int n, err = 0;

	va_start(ap, fmt);
	n = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof(path))
		return -ENAMETOOLONG;
	if (!(f = fopen(path, "re")))
		return -errno;
	if (!fgets(out, (int)len, f))
		err = -ENODATA;
	fclose(f);
	if (!err)
		out[strcspn(out, "\n")] = '\0';
	return err;
}

int sysfile__read(const char *path, unsigned char **out, size_t *len)
{
	unsigned char *b = NULL;
	size_t cap = 0, n = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return -errno;
	for (;;) {
		ssize_t r;

		if (array__grow(&b, &cap, n + 4096, 1, 8192)) {
			err = -ENOMEM;
			break;
		}
		r = read(fd, b + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		if (r <= 0)
			break;
		n += (size_t)r;
	}
	close(fd);
	if (err) {
		free(b);
		return err;
	}
	*out = b;
	*len = n;
	return 0;
}
