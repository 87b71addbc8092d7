/*
 * The shared run of dirconvert's database exports (see cmd-export.h).
 */
#include "convert/cmd-export.h"

#include <errno.h>
#include <stdio.h>	/* fprintf */
#include <stdlib.h>	/* calloc, free */

#include "cli/cli.h"	/* cli__kernel_symbols_differ */
#include "cli/progress.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/evlist.h"	/* evlist__excludes_kernel */
#include "reader/session.h"
#include "util/workqueue.h"
#include "machine/machine.h"
#include "util/phase.h"
#include "banned.h"

struct conv {
	struct exporter *ex;
	const struct export_target *t;
	struct progress prog;
	bool bad;			/* a record failed: its file and offset (the record
					 * itself may be gone once delivery returns) */
	uint16_t bad_file;
	uint64_t bad_offset;
	int sink_err;			/* the target failed (not the input) */
};

unsigned cmd_export_flags(const struct convert_opts *o)
{
	return (o->callchains ? EXPORT_CALLCHAINS : 0u) |
	       (o->all_events ? EXPORT_ALL_EVENTS : 0u);
}

static int sink_row(void *ctx, const struct export_row *r)
{
	struct conv *c = ctx;
	int err = c->t->row(c->t->ctx, r);

	if (err)
		c->sink_err = err;
	return err;
}

static void sink_progress(void *ctx, uint64_t bytes)
{
	progress__add(&((struct conv *)ctx)->prog, bytes);
}

/* The kernel's symbols read ahead on @p wq (at once: the file does not depend on the
 * recording's records), while the recording loads. */
static int kernel_start(struct workqueue *wq, struct machine *m, const struct evlist *el)
{
	/* not for a recording that excludes the kernel: its symbols would not be
	 * used */
	return evlist__excludes_kernel(el) ? 0 : machine__preload_kernel(m, wq);
}

/* Replay everything into the target, then commit; *again set (nothing committed)
 * where the kernel's symbols read ahead were not the running kernel's. */
static int convert(struct session *s, struct machine *m, const struct convert_opts *o,
		   const struct export_target *t, struct diag *d,
		   bool *again)
{
	struct conv c = { .t = t };
	struct export_sink sink = { sink_row, sink_progress, &c };
	unsigned flags = cmd_export_flags(o);
	struct export_stats st;
	int err;

	if (t->open && (err = t->open(t->ctx, flags, o->jobs != 1, d)))
		return err;
	/* the kernel's symbols read ahead are in before the first record (the
	 * pipeline loads the kernel's dso at its first kernel address) */
	machine__wait_preload(m);
	err = exporter__new(&c.ex, m, session__evlist(s), flags, &sink);
	if (!err)
		err = exporter__unwind(c.ex, session__features(s)->arch);
	if (!err)
		err = exporter__begin(c.ex, session__workqueue(s));
	progress__init(&c.prog, stderr, progress__session_bytes(s), o->progress);
	if (!err) {
		err = exporter__deliver(c.ex, s);
		c.bad = exporter__bad(c.ex, &c.bad_file, &c.bad_offset);
	}
	phases__mark("delivery");
	progress__exit(&c.prog);
	/* kernel symbols read from the build-id cache's copy of the running kernel's
	 * file must be the file's (else all again, nothing committed) */
	if (!err && cli__kernel_symbols_differ(m, "dirconvert", "export")) {
		t->drop(t->ctx);	/* its rows point into the exporter's strings */
		exporter__delete(c.ex);
		*again = true;
		return 0;
	}
	if (!err) {
		err = t->commit(t->ctx, d);
		phases__mark("commit");
	} else if (!c.sink_err && !c.bad && session__deliver_error(s, d)) {
		/* a damaged record (loaded without the scan pass): d names it */
	} else if (c.sink_err || !c.bad) {
		diag__set(d, t->label, DIAG_NO_OFFSET, err, "%s",
			  c.sink_err ? t->errmsg(t->ctx) : diag__code_str(err));
	} else {
		session__record_diag(s, c.bad_file, c.bad_offset, d, err, NULL);
	}
	if (!err) {
		exporter__stats(c.ex, &st);
		if (st.skipped_tracepoint)
			fprintf(stderr, "dirconvert: note: %llu tracepoint samples not "
				"exported, as perf's export does (--all-events exports them)\n",
				(unsigned long long)st.skipped_tracepoint);
	}
	/* the target's rows point into the exporter's strings: a target left with
	 * rows not written (a failed export) drops them first */
	if (err && t->drop)
		t->drop(t->ctx);
	exporter__delete(c.ex);
	return err;
}

/* The recording opened with its machine (and the kernel's worker). */
struct cmd_recording {
	struct session *s;
	struct machine *m;
	struct workqueue *kwq;	/* owned, one worker: the kernel's symbols read
				 * while the recording loads; NULL with -j 1 */
};

/* How many of the session's warnings were printed: a recording opened again (the
 * export made again) prints only those past them. */
static size_t warned;

/* cmd_recording__open(); `ahead`: the kernel's symbols may come from the build-id
 * cache's copy of the running kernel's kallsyms (dsos_opts.kallsyms_ahead);
 * `scan_optional`: export_target.scan_optional. */
static int recording_open(struct cmd_recording **out, const struct convert_opts *o,
			  bool kernel_worker, bool ahead, bool scan_optional, struct diag *d)
{
	struct session_opts so = { .path = o->input, .jobs = o->jobs,
				   .scan_optional = scan_optional };
	struct dsos_opts dopts = { .kallsyms = o->kallsyms, .buildid_dir = o->buildid_dir };
	struct cmd_recording *r = calloc(1, sizeof(*r));
	int err;

	*out = r;
	if (!r)
		return diag__set(d, o->input ? o->input : "perf.data", DIAG_NO_OFFSET, -ENOMEM,
				 NULL);
	err = session__open(&r->s, &so, d);
	dopts.kallsyms_ahead = ahead && !err && !session__is_pipe(r->s) &&
			       session__can_read_again(r->s);
	if (!err && !(err = machine__new_opts(&r->m, &dopts)))
		err = machine__apply_build_ids(r->m, session__features(r->s));
	/* the kernel's symbols are read on a worker while the files decode and the
	 * records replay (build-ids first: they pick the file; a pipe's come with the
	 * load); with -j 1 they are read at the first kernel sample */
	if (!err && kernel_worker && o->jobs != 1 && !(err = workqueue__new(&r->kwq, 1)) &&
	    !session__is_pipe(r->s))
		err = kernel_start(r->kwq, r->m, session__evlist(r->s));
	if (!err)
		err = session__load(r->s, d);
	phases__mark("load");
	if (!err && session__is_pipe(r->s) && !(err = machine__apply_build_ids(r->m,
					session__features(r->s))) && r->kwq)
		err = kernel_start(r->kwq, r->m, session__evlist(r->s));
	if (err) {
		if (d->code == 0)
			diag__set(d, o->input ? o->input : "perf.data", DIAG_NO_OFFSET, err,
				  NULL);
		return err;
	}
	for (size_t i = warned; i < session__nr_warnings(r->s); i++)
		fprintf(stderr, "dirconvert: warning: %s\n", session__warning(r->s, i));
	if (session__nr_warnings(r->s) > warned)
		warned = session__nr_warnings(r->s);
	return 0;
}

int cmd_recording__open(struct cmd_recording **out, const struct convert_opts *o,
			bool kernel_worker, bool ahead, bool scan_optional, struct diag *d)
{
	return recording_open(out, o, kernel_worker, ahead, scan_optional, d);
}

struct session *cmd_recording__session(struct cmd_recording *r)
{
	return r->s;
}

struct machine *cmd_recording__machine(struct cmd_recording *r)
{
	return r->m;
}

void cmd_recording__close(struct cmd_recording *r)
{
	if (!r)
		return;
	if (r->m)	/* the workqueue goes first: the preload is done with it */
		machine__wait_preload(r->m);
	workqueue__delete(r->kwq);	/* waits for the kernel job: it uses the machine */
	machine__delete(r->m);
	session__close(r->s);
	free(r);
}

int cmd_export(const struct convert_opts *o, const struct export_target *t, struct diag *d)
{
	bool ahead = t->drop != NULL, again = false;

	for (;;) {
		struct cmd_recording *r;
		int err = recording_open(&r, o, true, ahead, t->scan_optional, d);

		if (!err)
			err = convert(r->s, r->m, o, t, d, &again);
		cmd_recording__close(r);
		if (!again)
			return err;
		/* the kernel's symbols read ahead were not the running kernel's: the
		 * rows written were dropped, all is made again from its file */
		ahead = again = false;
	}
}
