/*
 * `dirreport --stdio`: the front end.  cmd_report() checks what the options need of
 * the recording (perf's refusals), sets the report up, has the session deliver its
 * records to the engine (report/engine.c and the files it names: the records
 * replayed in perf's order through the machine state, every sample - and every frame
 * of its callchain - resolved to comm / dso / symbol and counted), then prints one
 * histogram per event (or --tasks' thread tree).
 */
#define DIRREPORT_IN_REPORT
#include "report/cmd.h"

#include <errno.h>
#include <stdlib.h>	/* calloc */

#include "cli/cli.h"	/* cli__kernel_symbols_differ */
#include "cli/time-range.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/sample.h"
#include "machine/machine.h"
#include "machine/unwind.h"
#include "reader/session.h"
#include "report/branch.h"
#include "report/engine-internal.h"
#include "report/group.h"
#include "report/hist.h"
#include "report/read-values.h"
#include "report/sort.h"
#include "report/tasks.h"
#include "resolve/trace-sort.h"
#include "util/phase.h"
#include "banned.h"

/* The first lines of perf's report (none with --header, which printed the header,
 * or -q). */
static void report_preamble(const struct report_opts *o, FILE *out)
{
	if (!o->header && !o->quiet)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", out);
}

/* perf prints the first lines of the report, then refuses: so do we, and say why
 * (msg: the whole stderr line). */
int report__refuse(const struct report_opts *o, FILE *out, const char *msg)
{
	report_preamble(o, out);
	fputs(msg, stderr);
	return CMD_ERR_REPORTED;
}

/* perf: a recording without samples, or one where -C, -U or --time left none, gets
 * only the two hint lines and this error, with exit status 0 (perf stat record files,
 * for example). Filters like --comms still account their samples. */
static bool no_samples(const struct report *rp, const struct report_opts *o)
{
	struct evlist *el = session__evlist(rp->session);
	uint64_t nr_samples = 0;

	for (size_t i = 0; i < el->nr; i++)
		nr_samples += rp->hists[i].nr_samples;
	if (nr_samples)
		return false;
	fprintf(stderr, "dirreport: The %s data has no samples!\n",
		o->input ? o->input : "perf.data");
	return true;
}

static int print_report(struct report *rp, const struct report_opts *o, FILE *out)
{
	struct evlist *el = session__evlist(rp->session);
	struct callchain_param cc;
	struct hists_print_opts po = report__print_opts(rp, o, &cc);
	struct report_groups *groups;
	int err = report_groups__new(&groups, el, session__features(rp->session), o->group);

	if (err)
		return err;
	/* perf's group hierarchy with --percentage relative hides first-level nodes
	 * only members have, but prints what is below them: not followed */
	for (size_t i = 0; o->hierarchy && o->filter_relative && groups->view &&
			   i < groups->nr; i++) {
		if (groups->nr_members[i] <= 1)
			continue;
		fputs("dirreport: --hierarchy with --percentage relative in the group view "
		      "is not implemented (add --no-group)\n", stderr);
		report_groups__delete(groups);
		return CMD_ERR_REPORTED;
	}
	report_preamble(o, out);
	sort_list__fprintf_elided(&rp->sl, out);
	if (no_samples(rp, o)) {
		report_groups__delete(groups);
		return 0;
	}
	if (!o->quiet)
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)rp->total_lost_samples);
	for (size_t i = 0; i < el->nr; i++)	/* group members are printed with */
		rp->hists[i].has_callchains =	/* their leader */
			(el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN) != 0;
	for (size_t i = 0; i < el->nr && !err; i++) {
		/* perf: a group's members print with their leader (report/group.h) */
		if (!report_groups__prints(groups, i))
			continue;
		/* perf skips events without samples (--skip-empty is on by default) */
		if (!rp->hists[i].nr_samples && !o->no_skip_empty)
			continue;
		err = report_groups__fprintf(groups, i, rp->hists, &po,
					     evsel__name(el->evsels[i]), out);
		if (!err)
			err = rp->lazy_err;
	}
	report_groups__delete(groups);
	if (!err && rp->threads)
		read_values__fprintf(rp->threads, out);
	return err;
}

bool cmd_report_forks(struct session *s)
{
	return session__is_pipe(s) || trace_sort__has_tracepoints(session__evlist(s));
}

/* What the options need of the recording that it does not have: perf refuses those
 * (0 when the report can go on). */
static int check_recording(struct session *s, const struct report_opts *o, FILE *out)
{
	const struct evlist *el = session__evlist(s);
	const struct features *f = session__features(s);
	bool data_src = false, cpu = true;

	if (o->cc_set && !report__has_callchains(el) && !session__is_pipe(s))
		return report__refuse(o, out,
				      "dirreport: -g: the recording has no callchains "
				      "(perf record -g)\n");
	/* perf 6.1 finds no samples in a pipe with --hierarchy: it prints the first
	 * lines of the report, then refuses (exit 0) */
	if (o->hierarchy && session__is_pipe(s))
		return report__refuse(o, out,
				      "dirreport: --hierarchy: perf 6.1 reports no samples "
				      "for a pipe\n");
	for (size_t i = 0; o->cc.branch && i < el->nr; i++) {
		if (!(el->evsels[i]->attr.sample_type & SAMPLE_BRANCH_STACK))
			continue;
		fputs("dirreport: -g branch: callchains from branch stacks are not "
		      "implemented\n", stderr);
		return CMD_ERR_REPORTED;
	}
	if (branch_mode__check(s, o, out))
		return CMD_ERR_REPORTED;
	if (o->time_str && time_ranges__is_percent(o->time_str) && !f->first_sample_ns &&
	    !f->last_sample_ns)
		return report__refuse(o, out,
				      "dirreport: --time: percentages need the first and "
				      "last sample times, which the recording does not have\n");
	for (size_t i = 0; i < el->nr; i++) {
		data_src |= (el->evsels[i]->attr.sample_type & SAMPLE_DATA_SRC) != 0;
		cpu &= (el->evsels[i]->attr.sample_type & SAMPLE_CPU) != 0;
	}
	if (o->mem_mode && !session__is_pipe(s) && !data_src)
		return report__refuse(o, out,
				      "dirreport: --mem-mode: the recording has no data "
				      "sources in its samples (perf record -d)\n");
	if (o->cpus && !cpu)
		return report__refuse(o, out,
				      "dirreport: -C: the recording has no CPU in its "
				      "samples\n");
	return 0;
}

/* --tasks, --mmaps: the thread tree after the replay. */
static int print_tasks(struct report *rp, const struct report_opts *o, struct machine *m,
		       FILE *out)
{
	int err = 0;

	sort_list__fprintf_elided(&rp->sl, out);
	/* perf registers the idle thread, 0/0 "swapper", up front */
	if (!machine__findnew_thread(m, 0, 0))
		err = -ENOMEM;
	if (!err && !no_samples(rp, o))
		err = tasks__fprintf(m, &rp->ppids, o->mmaps ? &rp->mmaps : NULL, out);
	if (err == -ENOENT) {
		fputs("dirreport: --tasks: a thread's parent is unknown\n", stderr);
		err = CMD_ERR_REPORTED;
	}
	return err;
}

int cmd_report(struct session *s, const struct report_opts *opts, struct machine *m,
	       FILE *out)
{
	struct evlist *el = session__evlist(s);
	struct report_opts po = *opts;
	const struct report_opts *o = &po;
	struct report rp = { .session = s, .machine = m, .opts = o };
	const struct features *f = session__features(s);
	struct time_ranges time;
	struct session_time_range keep[TIME_RANGES_MAX];
	struct read_values threads;
	int err = 0, cerr;

	rp.cur = &rp.batch[0];
	if (o->header && (err = cmd_header(s, o, m, out)))
		return err;
	if ((err = check_recording(s, o, out)))
		return err;
	/* perf's branch view has no children view ("cumulate_callchain = false") */
	rp.branch_mode = branch_mode__on(s, o->branch_stack);
	if (rp.branch_mode && po.children != 0) {
		po.children = 0;
		po.children_cancelled = true;
	}
	/* perf report: a pipe's events are not known when it decides the children
	 * view, and without callchains in the combined sample_type it cancels it
	 * ("silently ignore if callchain is missing"); the chains keep the order that
	 * view gave them (observed with perf 6.1: no Children column, caller graphs) */
	if (session__is_pipe(s) && po.children != 0) {
		if (!po.cc.order_set)
			po.cc.order = CALLCHAIN_CALLER;
		po.children = 0;
		po.children_cancelled = true;
	}
	if (o->time_str) {
		if (time_ranges__parse(&time, o->time_str, f->first_sample_ns,
				       f->last_sample_ns))
			return -EINVAL;	/* main() has checked it */
		rp.time = &time;
		/* samples outside the ranges are dropped first thing (report__sample):
		 * the session may leave them out */
		for (int i = 0; i < time.nr; i++)
			keep[i] = (struct session_time_range){ time.r[i].start, time.r[i].end };
		session__keep_samples(s, keep, (size_t)time.nr);
	}
	err = report__setup(&rp, s, o, out);
	if (!err && o->show_threads && !(err = read_values__init(&threads, el->nr)))
		rp.threads = &threads;
	if (!err && !(rp.hists = calloc(el->nr, sizeof(*rp.hists))))
		err = -ENOMEM;
	if (err)
		goto out;
	for (size_t i = 0; i < el->nr; i++)
		hists__init(&rp.hists[i], &rp.sl, rp.chains);
	if ((err = report__live_setup(&rp, o)) || (err = report__counter_start(&rp)) ||
	    (err = report__read_dwarf_early(&rp)))
		goto out;
	err = session__deliver(s, report__on_batch, &rp, 0);
	phases__mark("delivery");
	cerr = report__counter_stop(&rp);	/* the last batch counted */
	if (!err)
		err = cerr;
	phases__mark("last batch counted");
	report__batches_free(&rp);
	if (!err)	/* the batches' memory given back first */
		err = report__count_merge(&rp);
	if (err < 0 && rp.trace_diag.code)
		err = report__trace_error(&rp.trace_diag);
	/* nothing is printed yet: kernel symbols read from the build-id cache's copy
	 * of the running kernel's file must be the file's (else all again) */
	if (!err && cli__kernel_symbols_differ(m, "dirreport", "report")) {
		err = CMD_AGAIN;
		goto out;
	}
	if (!err && rp.unwinder) {
		for (size_t i = 1; i < rp.nr_uw; i++)
			unwinder__add_counts(rp.unwinder, rp.uw[i].u);
		char msg[256];

		if (unwinder__warning(rp.unwinder, session__features(s)->arch, msg,
				      sizeof(msg)))
			err = session__warn(s, "%s", msg);
	}
	if (!err && (o->tasks || o->mmaps))
		err = print_tasks(&rp, o, m, out);
	else if (!err) {
		/* inlined functions compare by name or by address: perf's trees of
		 * entries are replayed sample by sample, none found by hash */
		if (rp.nr_inl)
			rp.sl.hash_safe = false;
		err = print_report(&rp, o, out);
	}
	phases__mark("output");
out:
	report__exit(&rp, el->nr);
	return err;
}
