/*
 * outfile - OUT.tmp, rename, clean-up (see outfile.h; style rule 20).
 */
#include "convert/outfile.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <limits.h>	/* PATH_MAX */
#include <signal.h>	/* sigaction, raise */
#include <stdio.h>	/* rename, snprintf */
#include <string.h>	/* memset, strerror */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close, unlink */

#include "format/diag.h"
#include "banned.h"

/* The temporary file, for the signal handler (the front end's only global). */
static char tmp_path[PATH_MAX];
static char out_path[PATH_MAX];
static volatile sig_atomic_t tmp_live;

static void on_signal(int sig)
{
	if (tmp_live)
		unlink(tmp_path);
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

int outfile__claim(const char *out, bool force, struct diag *d)
{
	struct stat st;
	int fd;

	if (!force && stat(out, &st) == 0)
		return diag__set(d, out, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", out) >= sizeof(tmp_path) ||
	    (size_t)snprintf(out_path, sizeof(out_path), "%s", out) >= sizeof(out_path))
		return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	catch_signals();
	fd = open(tmp_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
	if (fd < 0) {
		int err = -errno;

		if (err == -EEXIST)
			return diag__set(d, tmp_path, DIAG_NO_OFFSET, err,
					 "exists: another dirconvert may be writing %s "
					 "(remove it if not)", out);
		return diag__set(d, tmp_path, DIAG_NO_OFFSET, err, "cannot create: %s",
				 strerror(-err));
	}
	close(fd);
	tmp_live = 1;
	return 0;
}

const char *outfile__tmp_path(void)
{
	return tmp_path;
}

int outfile__commit(struct diag *d)
{
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
		unlink(tmp_path);
		tmp_live = 0;
	}
}
