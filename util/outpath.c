/*
 * outpath - outputs that never clobber the input, devices or links (see outpath.h).
 */
#include "util/outpath.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdio.h>	/* snprintf, rename */
#include <stdlib.h>	/* realpath */
#include <string.h>	/* strcmp, strncmp */
#include <sys/random.h>	/* getrandom */
#include <sys/stat.h>	/* stat */
#include <time.h>	/* clock_gettime */
#include <unistd.h>	/* close, unlink, getpid */

#include "banned.h"

int outpath__resolve(const char *out, char *target, size_t len, enum outpath_kind *kind)
{
	struct stat st, lst;
	char *real;

	*kind = OUTPATH_NONE;
	if (stat(out, &st)) {
		if (errno != ENOENT)
			return -errno;
	} else if (S_ISREG(st.st_mode)) {
		*kind = OUTPATH_REGULAR;
	} else if (S_ISDIR(st.st_mode)) {
		*kind = OUTPATH_DIR;
	} else {
		*kind = OUTPATH_STREAM;
	}
	/* a link to a file: that file is replaced, the link kept (cp, perf -o) */
	if (*kind != OUTPATH_NONE && *kind != OUTPATH_STREAM && lstat(out, &lst) == 0 &&
	    S_ISLNK(lst.st_mode) && (real = realpath(out, NULL))) {
		int n = snprintf(target, len, "%s", real);

		free(real);
		return (size_t)n >= len ? -ENAMETOOLONG : 0;
	}
	return (size_t)snprintf(target, len, "%s", out) >= len ? -ENAMETOOLONG : 0;
}

static bool same(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

bool outpath__is_input(const char *out, const char *in)
{
	struct stat so, si, sd;
	char path[PATH_MAX];
	struct dirent *e;
	bool hit = false;
	DIR *dir;

	if (stat(out, &so))
		return false;
	if (!in || !strcmp(in, "-") ? fstat(0, &si) : stat(in, &si))
		return false;
	if (same(&so, &si))
		return true;
	if (!in || !S_ISDIR(si.st_mode) || !S_ISREG(so.st_mode) || !(dir = opendir(in)))
		return false;
	while (!hit && (e = readdir(dir)))
		hit = !strncmp(e->d_name, "data", 4) &&
		      (size_t)snprintf(path, sizeof(path), "%s/%s", in, e->d_name) <
		      sizeof(path) && stat(path, &sd) == 0 && same(&so, &sd);
	closedir(dir);
	return hit;
}

int outpath__create_tmp(const char *target, mode_t mode, char *tmp, size_t len)
{
	static const char letters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned long long r;
	struct timespec ts;

	for (int attempt = 0; attempt < 100; attempt++) {
		char suffix[7];
		int fd;

		if (getrandom(&r, sizeof(r), GRND_NONBLOCK) != sizeof(r)) {
			clock_gettime(CLOCK_MONOTONIC, &ts);
			r = (unsigned long long)ts.tv_nsec * 2654435761u ^
			    (unsigned long long)getpid() << 20 ^ (unsigned long long)attempt;
		}
		for (int i = 0; i < 6; i++, r /= 62)
			suffix[i] = letters[r % 62];
		suffix[6] = 0;
		if ((size_t)snprintf(tmp, len, "%s.%s", target, suffix) >= len)
			return -ENAMETOOLONG;
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode);
		if (fd >= 0)
			return fd;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

int outpath__open(struct outpath_file *f, const char *out, const char *in, bool check_in,
		  mode_t mode)
{
	enum outpath_kind kind;
	int err;

	f->fd = -1;
	f->through = false;
	f->tmp[0] = 0;
	if (check_in && outpath__is_input(out, in))
		return -EINVAL;
	if ((err = outpath__resolve(out, f->target, sizeof(f->target), &kind)))
		return err;
	if (kind == OUTPATH_DIR)
		return -EISDIR;
	if (kind == OUTPATH_STREAM) {
		/* /dev/null, a FIFO, a link to /proc/self/fd/1: written in place */
		f->through = true;
		f->fd = open(out, O_WRONLY | O_CLOEXEC | O_NOCTTY);
		return f->fd < 0 ? -errno : 0;
	}
	f->fd = outpath__create_tmp(f->target, mode, f->tmp, sizeof(f->tmp));
	if (f->fd < 0) {
		err = f->fd;
		f->tmp[0] = 0;
		return err;
	}
	return 0;
}

int outpath__write(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

int outpath__commit(struct outpath_file *f)
{
	int err = 0;

	if (f->fd >= 0 && close(f->fd))
		err = -errno;
	f->fd = -1;
	if (!err && !f->through && rename(f->tmp, f->target))
		err = -errno;
	if (err) {
		outpath__abort(f);
		return err;
	}
	f->tmp[0] = 0;
	return 0;
}

void outpath__abort(struct outpath_file *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (!f->through && f->tmp[0])
		unlink(f->tmp);
	f->tmp[0] = 0;
}
