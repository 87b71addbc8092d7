/*
 * outfile - OUT.tmp, rename, clean-up (see outfile.h; style rule 20).
 */
#include "convert/outfile.h"

#include <errno.h>
#include <fcntl.h>	/* open, AT_FDCWD */
#include <ftw.h>	/* nftw */
#include <limits.h>	/* PATH_MAX */
#include <signal.h>	/* sigaction, raise */
#include <stdio.h>	/* rename, snprintf */
#include <string.h>	/* memset, strerror */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close, unlink */

#include "format/diag.h"
#include "format/index.h"	/* DIR_INDEX_DIR_NAME */
#include "util/outpath.h"
#include "banned.h"

/* The temporary file, for the signal handler (the front end's only global). */
static char tmp_path[PATH_MAX];
static char out_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;
/* a device, FIFO or socket written in place: tmp_path is OUT, never removed */
static bool through;
/* a data directory (outfile__claim_dir): OUT.tmp/data and data.0 .. data.(nr-1) */
static volatile sig_atomic_t tmp_is_dir;
static unsigned tmp_nr_files;
static char name_buf[PATH_MAX + 32];

/* OUT.tmp/data (i < 0) or OUT.tmp/data.i into name_buf, async-signal-safe (no stdio). */
static const char *dir_entry(long i)
{
	size_t n = strlen(tmp_path);
	char digits[24];
	int k = 0;

	memcpy(name_buf, tmp_path, n);
	memcpy(name_buf + n, "/data", 6);
	n += 5;
	if (i >= 0) {
		name_buf[n++] = '.';
		do
			digits[k++] = (char)('0' + i % 10);
		while ((i /= 10) > 0);
		while (k)
			name_buf[n++] = digits[--k];
		name_buf[n] = 0;
	}
	return name_buf;
}

/* OUT.tmp/LEAF into name_buf, async-signal-safe. */
static const char *dir_named(const char *leaf)
{
	size_t n = strlen(tmp_path), k = strlen(leaf);

	memcpy(name_buf, tmp_path, n);
	name_buf[n] = '/';
	memcpy(name_buf + n + 1, leaf, k + 1);
	return name_buf;
}

/* Remove what a writer may have created in OUT.tmp (the data files and the index),
 * then OUT.tmp (signal-safe). */
static void remove_tmp(void)
{
	if (!tmp_is_dir) {
		unlink(tmp_path);
		return;
	}
	unlink(dir_named(DIR_INDEX_DIR_NAME));
	unlink(dir_named(DIR_INDEX_DIR_NAME ".tmp"));
	unlink(dir_entry(-1));
	for (unsigned i = 0; i < tmp_nr_files; i++)
		unlink(dir_entry((long)i));
	rmdir(tmp_path);
}

static void on_signal(int sig)
{
	if (tmp_live)
		remove_tmp();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
	/* past a file size limit, fail the write (EFBIG) and clean up instead of dying */
	signal(SIGXFSZ, SIG_IGN);
}

/* OUT.tmp could not be created (open or mkdir failed with -errno err). */
static int claim_failed(const char *out, int err, struct diag *d)
{
	if (err == -EEXIST)
		return diag__set(d, tmp_path, DIAG_NO_OFFSET, err,
				 "exists: another dirconvert may be writing %s "
				 "(remove it if not)", out);
	return diag__set(d, tmp_path, DIAG_NO_OFFSET, err, "cannot create: %s",
			 strerror(-err));
}

int outfile__check_input(const char *out, const char *input, struct diag *d)
{
	if (outpath__is_input(out, input ? input : "perf.data"))
		return diag__set(d, out, DIAG_NO_OFFSET, -EINVAL,
				 "is the input: refusing to write over it");
	return 0;
}

/* The checks both claims make: not the input, a link followed (the file it names is
 * replaced), nothing there unless force; *kind says what is there.  Fills out_path. */
static int check_out(const char *out, const char *input, bool force,
		     enum outpath_kind *kind, struct diag *d)
{
	int err;

	if ((err = outfile__check_input(out, input, d)))
		return err;
	err = outpath__resolve(out, out_path, sizeof(out_path), kind);
	if (err)
		return diag__set(d, out, DIAG_NO_OFFSET, err, "%s", diag__code_str(err));
	if (!force && *kind != OUTPATH_NONE)
		return diag__set(d, out, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	return 0;
}

int outfile__claim(const char *out, const char *input, unsigned flags, struct diag *d)
{
	enum outpath_kind kind;
	int fd, err;

	through = false;
	if ((err = check_out(out, input, flags & OUTFILE_FORCE, &kind, d)))
		return err;
	if (kind == OUTPATH_DIR)
		return diag__set(d, out, DIAG_NO_OFFSET, -EISDIR, "is a directory");
	if (kind == OUTPATH_STREAM) {
		if (!(flags & OUTFILE_STREAM))
			return diag__set(d, out, DIAG_NO_OFFSET, -EINVAL,
					 "is not a regular file: refusing to replace it");
		/* /dev/null, a FIFO, a link to /proc/self/fd/1: written in place */
		if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s", out) >= sizeof(tmp_path))
			return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
		through = true;
		return 0;
	}
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", out_path) >= sizeof(tmp_path))
		return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	catch_signals();
	fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
		  flags & OUTFILE_PRIVATE ? 0600 : 0666);
	if (fd < 0)
		return claim_failed(out, -errno, d);
	close(fd);
	tmp_live = 1;
	return 0;
}

int outfile__claim_dir(const char *out, const char *input, bool force,
		       unsigned nr_data_files, struct diag *d)
{
	enum outpath_kind kind;
	struct stat st;
	char data[PATH_MAX];
	int err;

	through = false;
	if ((err = check_out(out, input, force, &kind, d)))
		return err;
	if (kind == OUTPATH_STREAM)
		return diag__set(d, out, DIAG_NO_OFFSET, -EINVAL,
				 "is not a regular file: refusing to replace it");
	if (kind == OUTPATH_DIR) {
		if ((size_t)snprintf(data, sizeof(data), "%s/data", out_path) >= sizeof(data))
			return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
		if (stat(data, &st) != 0)
			return diag__set(d, out, DIAG_NO_OFFSET, -EEXIST,
					 "is a directory but not a recording (no data file): "
					 "not replaced");
	}
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", out_path) >= sizeof(tmp_path) - 32)
		return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	tmp_nr_files = nr_data_files;
	tmp_is_dir = 1;
	catch_signals();
	if (mkdir(tmp_path, 0700))
		return claim_failed(out, -errno, d);
	tmp_live = 1;
	return 0;
}

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(path) : unlink(path);
}

bool outfile__in_place(void)
{
	return through;
}

const char *outfile__tmp_path(void)
{
	return tmp_path;
}

int outfile__commit(struct diag *d)
{
	struct stat st;

	if (through)
		return 0;	/* written in place */
	if (tmp_is_dir && lstat(out_path, &st) == 0) {
		/* replace the old recording atomically, then remove it (now at OUT.tmp) */
		if (renameat2(AT_FDCWD, tmp_path, AT_FDCWD, out_path, RENAME_EXCHANGE)) {
			int err = -errno;

			return diag__set(d, out_path, DIAG_NO_OFFSET, err,
					 "cannot replace it with %s: %s", tmp_path,
					 strerror(-err));
		}
		tmp_live = 0;
		if (S_ISDIR(st.st_mode))
			nftw(tmp_path, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
		else
			unlink(tmp_path);
		return 0;
	}
	if (rename(tmp_path, out_path)) {
		int err = -errno;

		return diag__set(d, out_path, DIAG_NO_OFFSET, err, "cannot rename %s: %s",
				 tmp_path, strerror(-err));
	}
	tmp_live = 0;
	return 0;
}

void outfile__drop(void)
{
	if (tmp_live) {
		remove_tmp();
		tmp_live = 0;
	}
}
