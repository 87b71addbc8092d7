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

#include "convert/db-writer.h"
#include "convert/export.h"
#include "convert/progress.h"
#include "format/diag.h"
#include "reader/session.h"
#include "report/machine.h"
#include "banned.h"

/* Inputs smaller than this convert too fast for a progress bar to help. */
#define PROGRESS_MIN_BYTES (32u << 20)

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
}

struct conv {
	struct exporter *ex;
	struct db_writer *w;
	struct progress prog;
	const struct record_ref *bad;	/* the record being exported when it failed */
	int sink_err;			/* the writer failed (not the input) */
};

static int sink_row(void *ctx, const struct export_row *r)
{
	struct conv *c = ctx;
	int err = db_writer__row(c->w, r);

	if (err)
		c->sink_err = err;
	return err;
}

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct conv *c = ctx;
	uint64_t bytes = 0;

	for (size_t i = 0; i < n; i++) {
		int err = exporter__record(c->ex, recs[i]);

		if (err) {
			c->bad = recs[i];
			return err;
		}
		bytes += recs[i]->disk_size;
	}
	progress__add(&c->prog, bytes);
	return 0;
}

/* Bytes of all the files of the recording (0 when unknown: standard input). */
static uint64_t input_bytes(struct session *s)
{
	uint64_t total = 0;
	struct stat st;

	if (session__is_pipe(s) && !strcmp(session__path(s), "-"))
		return 0;
	for (size_t i = 0; i < session__nr_files(s); i++) {
		const char *label = session__file_label(s, i);

		if (!strcmp(label, "pipe"))
			label = session__path(s);
		if (stat(label, &st))
			return 0;
		total += (uint64_t)st.st_size;
	}
	return total;
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

/* Replay everything into the writer, then commit and rename. */
static int convert(struct session *s, struct machine *m, const struct convert_opts *o,
		   struct diag *d)
{
	struct conv c = { 0 };
	struct export_sink sink = { sink_row, &c };
	struct db_writer_opts wo = {
		.path = tmp_path,
		.flags = (o->callchains ? EXPORT_CALLCHAINS : 0u) |
			 (o->all_events ? EXPORT_ALL_EVENTS : 0u),
		.threaded = o->jobs != 1,
	};
	struct export_stats st;
	int err;

	err = db_writer__open(&c.w, &wo);
	if (err) {
		diag__set(d, o->output, DIAG_NO_OFFSET, err, "%s",
			  c.w ? db_writer__errmsg(c.w) : diag__code_str(err));
		db_writer__delete(c.w);
		return err;
	}
	err = exporter__new(&c.ex, m, session__evlist(s), wo.flags, &sink);
	if (!err)
		err = exporter__begin(c.ex);
	progress__init(&c.prog, stderr, input_bytes(s),
		       o->progress && input_bytes(s) >= PROGRESS_MIN_BYTES);
	if (!err)
		err = session__deliver(s, on_batch, &c, 0);
	progress__exit(&c.prog);
	if (!err)
		err = db_writer__commit(c.w);
	if (err && (c.sink_err || !c.bad)) {
		diag__set(d, o->output, DIAG_NO_OFFSET, err, "%s",
			  c.sink_err || err == -EIO ? db_writer__errmsg(c.w)
						    : diag__code_str(err));
	} else if (err) {
		diag__set(d, session__file_label(s, c.bad->file), c.bad->offset, err, NULL);
	} else {
		exporter__stats(c.ex, &st);
		if (st.skipped_tracepoint)
			fprintf(stderr, "dirconvert: note: %llu tracepoint samples not "
				"exported, as perf's export does (--all-events exports them)\n",
				(unsigned long long)st.skipped_tracepoint);
	}
	db_writer__delete(c.w);
	exporter__delete(c.ex);
	return err;
}

int cmd_sqlite(const struct convert_opts *o, struct diag *d)
{
	struct session_opts so = { .path = o->input, .jobs = o->jobs };
	struct session *s = NULL;
	struct machine *m = NULL;
	struct stat st;
	int err;

	if (!o->force && stat(o->output, &st) == 0)
		return diag__set(d, o->output, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	err = session__open(&s, &so, d);
	if (!err)
		err = session__load(s, d);
	if (err) {
		if (d->code == 0)
			diag__set(d, o->input ? o->input : "perf.data", DIAG_NO_OFFSET, err,
				  NULL);
		session__close(s);
		return err;
	}
	for (size_t i = 0; i < session__nr_warnings(s); i++)
		fprintf(stderr, "dirconvert: warning: %s\n", session__warning(s, i));
	err = machine__new(&m, o->kallsyms);
	if (!err)
		err = machine__apply_build_ids(m, session__features(s));
	if (err) {
		diag__set(d, o->output, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	catch_signals();
	if ((err = claim_tmp(o->output, d)))
		goto out;
	err = convert(s, m, o, d);
	if (!err && rename(tmp_path, o->output)) {
		err = -errno;
		diag__set(d, o->output, DIAG_NO_OFFSET, err, "cannot rename %s: %s", tmp_path,
			  strerror(-err));
	}
	if (err)
		drop_tmp();
	tmp_live = 0;
out:
	machine__delete(m);
	session__close(s);
	return err;
}
