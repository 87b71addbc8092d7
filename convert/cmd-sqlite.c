/*
 * `dirconvert --to-sqlite`: replay the recording in perf's order through the machine
 * state, turn it into the rows of perf's database export and write them into OUT.tmp,
 * renamed to OUT when everything succeeded (style rule 20).
 */
#include "convert/cmd.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <limits.h>	/* PATH_MAX */
#include <signal.h>	/* sigaction, raise */
#include <stdio.h>	/* fprintf, rename, snprintf */
#include <string.h>	/* memset, strerror, strlen */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close, unlink */

#include "convert/cmd-export.h"
#include "convert/db-writer.h"
#include "format/diag.h"
#include "banned.h"

/* The temporary file, for the signal handler (the front end's only global). */
static char tmp_path[PATH_MAX];
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

/* Claim OUT.tmp: it must not exist (git's lockfile rule). */
static int claim_tmp(const char *out, struct diag *d)
{
	int fd;

	if ((size_t)snprintf(tmp_path, sizeof(tmp_path), "%s.tmp", out) >= sizeof(tmp_path))
		return diag__set(d, out, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
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

static void drop_tmp(void)
{
	if (tmp_live) {
		unlink(tmp_path);
		tmp_live = 0;
	}
}

/* The SQLite target: OUT.tmp, renamed to OUT on commit. */
struct sqlite_target {
	struct db_writer *w;
	const char *out;
};

static int sqlite_open(void *ctx, unsigned flags, bool threaded, struct diag *d)
{
	struct sqlite_target *st = ctx;
	struct db_writer_opts wo = { .path = tmp_path, .flags = flags, .threaded = threaded };
	int err;

	catch_signals();
	if ((err = claim_tmp(st->out, d)))
		return err;
	if ((err = db_writer__open(&st->w, &wo)))
		diag__set(d, st->out, DIAG_NO_OFFSET, err, "%s",
			  st->w ? db_writer__errmsg(st->w) : diag__code_str(err));
	return err;
}

static int sqlite_row(void *ctx, const struct export_row *r)
{
	return db_writer__row(((struct sqlite_target *)ctx)->w, r);
}

static const char *sqlite_errmsg(void *ctx)
{
	return db_writer__errmsg(((struct sqlite_target *)ctx)->w);
}

static int sqlite_commit(void *ctx, struct diag *d)
{
	struct sqlite_target *st = ctx;
	int err = db_writer__commit(st->w);

	if (err)
		return diag__set(d, st->out, DIAG_NO_OFFSET, err, "%s",
				 err == -EIO ? db_writer__errmsg(st->w) : diag__code_str(err));
	if (rename(tmp_path, st->out)) {
		err = -errno;
		return diag__set(d, st->out, DIAG_NO_OFFSET, err, "cannot rename %s: %s",
				 tmp_path, strerror(-err));
	}
	tmp_live = 0;
	return 0;
}

int cmd_sqlite(const struct convert_opts *o, struct diag *d)
{
	struct sqlite_target st = { .out = o->output };
	struct export_target t = { sqlite_open, sqlite_row, sqlite_commit, sqlite_errmsg,
				   o->output, &st };
	struct stat sb;
	int err;

	if (!o->force && stat(o->output, &sb) == 0)
		return diag__set(d, o->output, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	err = cmd_export(o, &t, d);
	db_writer__delete(st.w);
	if (err)
		drop_tmp();
	tmp_live = 0;
	return err;
}
