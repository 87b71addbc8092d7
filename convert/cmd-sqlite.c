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
#include <stdatomic.h>
#include <stdio.h>	/* fprintf, rename, snprintf */
#include <string.h>	/* memset, strerror, strlen */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close, unlink */

#include "convert/db-writer.h"
#include "convert/export.h"
#include "convert/progress.h"
#include "format/diag.h"
#include "reader/session.h"
#include "reader/workqueue.h"
#include "machine/machine.h"
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
	/* past a file size limit, fail the write (EFBIG) and clean up instead of dying */
	signal(SIGXFSZ, SIG_IGN);
}

struct conv {
	struct exporter *ex;
	struct db_writer *w;
	struct progress prog;
	bool bad;			/* a record failed: its file and offset (the record
					 * itself may be gone once delivery returns) */
	uint16_t bad_file;
	uint64_t bad_offset;
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
			c->bad = true;
			c->bad_file = recs[i]->file;
			c->bad_offset = recs[i]->offset;
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

/* The kernel's symbols, read and loaded on a worker of their own (one job after the
 * other: the flag is set once they are loaded). */
struct kernel_job {
	struct workqueue *wq;	/* owned, one worker; NULL with -j 1 */
	struct machine *m;	/* borrowed */
	atomic_bool ready;	/* the kernel's symbols are loaded */
};

static void kernel_read(void *arg)
{
	atomic_store_explicit(&((struct kernel_job *)arg)->ready, true, memory_order_release);
}

static bool kernel_ready(void *arg)
{
	return atomic_load_explicit(&((struct kernel_job *)arg)->ready, memory_order_acquire);
}

static void kernel_wait(void *arg)
{
	workqueue__flush(((struct kernel_job *)arg)->wq);
}

/* Read the kernel's symbols ahead (at once: the file does not depend on the
 * recording's records)... */
static int kernel_start(struct kernel_job *kj, struct machine *m)
{
	kj->m = m;
	return machine__preload_kernel(m, kj->wq);
}

/* ... and load them, on the same worker, once the kernel MMAP gave the reference
 * symbol; then they are ready. */
static int kernel_mapped(void *arg)
{
	struct kernel_job *kj = arg;
	int err = machine__load_kernel(kj->m, kj->wq);

	return err ? err : workqueue__queue(kj->wq, kernel_read, kj);
}

/* Replay everything into the writer, then commit and rename. */
static int convert(struct session *s, struct machine *m, const struct convert_opts *o,
		   struct kernel_job *kj, struct diag *d)
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
	if (!err && kj->wq) {
		struct export_kernel_wait w = { kernel_ready, kernel_wait, kernel_mapped, kj };

		exporter__defer_kernel(c.ex, &w);
	}
	if (!err)
		err = exporter__begin(c.ex);
	progress__init(&c.prog, stderr, input_bytes(s),
		       o->progress && input_bytes(s) >= PROGRESS_MIN_BYTES);
	if (!err)
		err = session__deliver(s, on_batch, &c, 0);
	if (!err)
		err = exporter__end(c.ex);
	progress__exit(&c.prog);
	if (!err)
		err = db_writer__commit(c.w);
	if (err && (c.sink_err || !c.bad)) {
		diag__set(d, o->output, DIAG_NO_OFFSET, err, "%s",
			  c.sink_err || err == -EIO ? db_writer__errmsg(c.w)
						    : diag__code_str(err));
	} else if (err) {
		diag__set(d, session__file_label(s, c.bad_file), c.bad_offset, err, NULL);
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
	struct kernel_job kj = { 0 };
	struct stat st;
	int err;

	if (!o->force && stat(o->output, &st) == 0)
		return diag__set(d, o->output, DIAG_NO_OFFSET, -EEXIST,
				 "already exists (use -f to overwrite)");
	err = session__open(&s, &so, d);
	struct dsos_opts dopts = { .kallsyms = o->kallsyms, .buildid_dir = o->buildid_dir };

	if (!err && !(err = machine__new_opts(&m, &dopts)))
		err = machine__apply_build_ids(m, session__features(s));
	/* the kernel's symbols are read on a worker while the files decode and the
	 * records replay (build-ids first: they pick the file; a pipe's come with the
	 * load); with -j 1 they are read at the first kernel sample */
	if (!err && o->jobs != 1 && !(err = workqueue__new(&kj.wq, 1)) && !session__is_pipe(s))
		err = kernel_start(&kj, m);
	if (!err)
		err = session__load(s, d);
	if (!err && session__is_pipe(s) && !(err = machine__apply_build_ids(m,
					session__features(s))) && kj.wq)
		err = kernel_start(&kj, m);
	if (err) {
		if (d->code == 0)
			diag__set(d, o->input ? o->input : "perf.data", DIAG_NO_OFFSET, err,
				  NULL);
		goto out;
	}
	for (size_t i = 0; i < session__nr_warnings(s); i++)
		fprintf(stderr, "dirconvert: warning: %s\n", session__warning(s, i));
	catch_signals();
	if ((err = claim_tmp(o->output, d)))
		goto out;
	err = convert(s, m, o, &kj, d);
	if (!err && rename(tmp_path, o->output)) {
		err = -errno;
		diag__set(d, o->output, DIAG_NO_OFFSET, err, "cannot rename %s: %s", tmp_path,
			  strerror(-err));
	}
	if (err)
		drop_tmp();
	tmp_live = 0;
out:
	workqueue__delete(kj.wq);	/* waits for the kernel job: it uses the machine */
	machine__delete(m);
	session__close(s);
	return err;
}
