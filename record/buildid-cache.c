/*
 * buildid-cache - the build-id cache entries of a recording (record/buildid-cache.h).
 */
#include "record/buildid-cache.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* snprintf */
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "format/feature.h"	/* struct feat_build_id */
#include "util/outpath.h"

#include "banned.h"

/* mkdir -p of path (mode 0755); 0 or -errno. */
static int make_dirs(char *path)
{
	struct stat st;

	for (char *p = path + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST) {
			int err = -errno;

			*p = '/';
			return err;
		}
		*p = '/';
	}
	if (mkdir(path, 0755) && errno != EEXIST)
		return -errno;
	return !stat(path, &st) && S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

/* src copied to dst through a temporary file beside it (util/outpath.h), renamed when
 * whole, with exactly this mode; 0 or -errno (-ENOENT: src is gone). */
static int copy_file(const char *src, const char *dst, mode_t mode)
{
	struct outpath_file f;
	unsigned char buf[65536];
	int in, err;
	ssize_t n;

	if ((in = open(src, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	if ((err = outpath__open(&f, dst, NULL, false, mode))) {
		close(in);
		return err;
	}
	while (!err && (n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0)
			err = errno == EINTR ? 0 : -errno;
		else
			err = outpath__write(f.fd, buf, (size_t)n);
	}
	close(in);
	if (!err && fchmod(f.fd, mode))	/* the umask's bits too */
		err = -errno;
	if (err) {
		outpath__abort(&f);
		return err;
	}
	return outpath__commit(&f);
}

/* One entry (see the header); 0 or -errno. */
static int add_one(const char *dir, const struct feat_build_id *id)
{
	static const char hexd[] = "0123456789abcdef";
	bool kernel = !strcmp(id->filename, "[kernel.kallsyms]");
	const char *name = id->filename + (id->filename[0] == '/');
	char hex[2 * 20 + 1], entry[PATH_MAX], file[PATH_MAX], link_dir[PATH_MAX],
	     link_path[PATH_MAX], target[PATH_MAX];
	size_t size = id->size && id->size <= 20 ? id->size : 20;
	struct stat st;
	int err;

	if (!kernel && id->filename[0] != '/')
		return 0;	/* [vdso] and the like: not here */
	for (size_t i = 0; i < size; i++) {
		hex[2 * i] = hexd[id->build_id[i] >> 4];
		hex[2 * i + 1] = hexd[id->build_id[i] & 15];
	}
	hex[2 * size] = '\0';
	if (snprintf(entry, sizeof(entry), "%s/%s/%s", dir, name, hex) >= (int)sizeof(entry) ||
	    snprintf(file, sizeof(file), "%s/%s", entry, kernel ? "kallsyms" : "elf") >=
		    (int)sizeof(file) ||
	    snprintf(link_dir, sizeof(link_dir), "%s/.build-id/%.2s", dir, hex) >=
		    (int)sizeof(link_dir) ||
	    snprintf(link_path, sizeof(link_path), "%s/%s", link_dir, hex + 2) >=
		    (int)sizeof(link_path) ||
	    snprintf(target, sizeof(target), "../../%s/%s", name, hex) >= (int)sizeof(target))
		return -ENAMETOOLONG;
	if (!stat(file, &st))
		return 0;	/* cached already */
	if (kernel ? 0 : stat(id->filename, &st))
		return 0;	/* the file is gone */
	if ((err = make_dirs(entry)))
		return err;
	if (kernel)
		err = copy_file("/proc/kallsyms", file, 0444);
	else if (link(id->filename, file))
		err = errno == EEXIST ? 0 : copy_file(id->filename, file, st.st_mode & 07777);
	if (!err && !kernel) {
		char probes[PATH_MAX + 8];
		int fd;

		snprintf(probes, sizeof(probes), "%s/probes", entry);
		fd = open(probes, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (fd < 0)
			err = -errno;
		else
			close(fd);
	}
	if (!err && (err = make_dirs(link_dir)) == 0 && symlink(target, link_path) &&
	    errno != EEXIST)
		err = -errno;
	return err;
}

int record_buildid_cache__add(const char *dir, const struct feat_build_id *ids, size_t nr)
{
	int first = 0;

	for (size_t i = 0; i < nr; i++) {
		int err = add_one(dir, &ids[i]);

		if (err && !first)
			first = err;
	}
	return first;
}
