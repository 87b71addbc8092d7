/*
 * engine - the batch driver and set-up of `dirreport --stdio` (docs/pipeline.md): the
 * report's keys, callchains, unwinders, source lines, trace key and live replay set up
 * from the options (report__setup(), report__live_setup()); each batch the delivery
 * hands over taken through the passes in order (report__on_batch(): side-band records
 * here - READ, CGROUP, NAMESPACES, tracing data, lost samples, COMM/FORK/MMAP into the
 * machine, --tasks' parents and --mmaps' maps - the samples through
 * engine-resolve.c, engine-lookup.c and engine-count.c); and the end
 * (report__batches_free(), report__exit()).  The front end is cmd-report.c; what the
 * files share is engine-internal.h.
 */
#define DIRREPORT_IN_REPORT
#include "report/engine-internal.h"

#include <errno.h>
#include <stdatomic.h>	/* atomic_flag_clear, atomic_store */
#include <regex.h>	/* regcomp, regfree */
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* memset, strlen, strndup, strstr */

#include "format/diag.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/srcline.h"
#include "machine/unwind.h"
#include "reader/session.h"
#include "report/callchain.h"
#include "report/group.h"
#include "report/hist.h"
#include "report/read-values.h"
#include "report/sort.h"
#include "report/tasks.h"
#include "resolve/filter.h"
#include "resolve/trace-sort.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/phase.h"
#include "util/strtab.h"
#include "util/workqueue.h"
#include "banned.h"

/* perf's PERF_MAX_STACK_DEPTH: --max-stack's default. */
#define MAX_STACK_DEFAULT 127

/* sort_list.lazy: an entry's srcline / srcfile (on ENOMEM "", remembered). */
static const char *lazy_srcline(void *ctx, const struct hist_entry *e)
{
	struct report *rp = ctx;
	const char *t = srclines__line(rp->srclines, e->dso, e->sym, e->ip);

	if (!t)
		rp->lazy_err = -ENOMEM;
	return t ? t : "";
}

static const char *lazy_srcfile(void *ctx, const struct hist_entry *e)
{
	struct report *rp = ctx;
	const char *t = srclines__file(rp->srclines, e->dso, e->sym, e->ip);

	if (!t)
		rp->lazy_err = -ENOMEM;
	return t ? t : "";
}

/* perf's cgroup__findnew(): the first CGROUP record of an id names it. */
static int cgroup_add(struct report *rp, const struct record_ref *ref)
{
	struct event_cgroup ev;
	uint64_t id;

	/* perf needs the id and a byte of path */
	if (event_cgroup__decode(ref->data, ref->size, &ev))
		return 0;
	id = ev.id;

	for (size_t i = 0; i < rp->nr_cgroups; i++)
		if (rp->cgroups[i].id == id)
			return 0;
	if (array__grow(&rp->cgroups, &rp->cap_cgroups, rp->nr_cgroups + 1, sizeof(*rp->cgroups), 16))
		return -ENOMEM;
	rp->cgroups[rp->nr_cgroups].path = strndup(ev.path.s, ev.path.len);
	if (!rp->cgroups[rp->nr_cgroups].path)
		return -ENOMEM;
	rp->cgroups[rp->nr_cgroups++].id = id;
	return 0;
}

static const char *cgroup_path(const void *ctx, uint64_t id)
{
	const struct report *rp = ctx;

	for (size_t i = 0; i < rp->nr_cgroups; i++)
		if (rp->cgroups[i].id == id)
			return rp->cgroups[i].path;
	return NULL;
}

/* perf's machine__process_namespaces_event(): the thread (created if new) takes the
 * record's namespaces; the cgroup one (index 6) is what the cgroup_id key shows. */
static int note_namespaces(struct report *rp, const struct record_ref *ref)
{
	struct event_namespaces ev;
	struct thread *t;

	/* pid, tid and nr are enough; a cgroup entry counts only when inside */
	event_namespaces__decode(ref->data, ref->size, &ev);
	if (ev.nfields < 3)
		return 0;
	t = machine__findnew_thread(rp->machine, (int32_t)ev.pid, (int32_t)ev.tid);
	if (!t)
		return -ENOMEM;
	if (array__grow(&rp->cgns, &rp->cap_cgns, (size_t)t->id + 1, sizeof(*rp->cgns), 256))
		return -ENOMEM;
	while (rp->nr_cgns <= t->id)
		rp->cgns[rp->nr_cgns++] = (struct thread_cgns){ 0, 0 };
	rp->cgns[t->id] = (struct thread_cgns){ 0, 0 };
	event_namespaces__link(&ev, EVENT_NAMESPACES_CGROUP, &rp->cgns[t->id].dev,
			       &rp->cgns[t->id].ino);
	return 0;
}

/* --tasks: perf's thread__fork() makes the parent's tid the child's ppid. */
static int note_parent(struct report *rp, const struct record_ref *ref)
{
	struct event_fork ev;
	struct thread *t;

	event_fork__decode(ref->data, ref->size, &ev);
	if (ev.nfields < EVENT_FORK_IDS)	/* time is not needed */
		return 0;
	t = machine__find_thread(rp->machine, (int32_t)ev.pid, (int32_t)ev.tid);
	return t ? task_ppids__set(&rp->ppids, t, (int32_t)ev.ptid) : 0;
}

/* --mmaps: a user MMAP/MMAP2's protection, flags and inode, for the map it made. */
static int note_mmap(struct report *rp, const struct record_ref *ref)
{
	bool mmap2 = ref->type == REC_MMAP2;
	struct event_mmap2 mm2 = { 0 };
	struct event_mmap mm = { 0 };
	struct task_mmap tm = { 0 };
	struct addr_location al;
	struct thread *t;
	uint16_t misc;
	int32_t pid, tid;
	uint64_t start, pgoff;

	/* a record too short for its fields and a byte of file name made no map */
	if (mmap2 ? event_mmap2__decode(ref->data, ref->size, &mm2)
		  : event_mmap__decode(ref->data, ref->size, &mm))
		return 0;
	misc = mmap2 ? mm2.misc : mm.misc;
	pid = (int32_t)(mmap2 ? mm2.pid : mm.pid);
	tid = (int32_t)(mmap2 ? mm2.tid : mm.tid);
	start = mmap2 ? mm2.start : mm.start;
	pgoff = mmap2 ? mm2.pgoff : mm.pgoff;
	if ((misc & MISC_CPUMODE_MASK) == MISC_KERNEL)
		return 0;
	t = machine__find_thread(rp->machine, pid, tid);
	if (!t)
		return 0;
	machine__resolve_map(rp->machine, t, MISC_USER, start, &al);
	if (!al.dso)
		return 0;
	tm.dso = al.dso;
	tm.start = al.map_start;
	tm.end = al.map_end;
	tm.rel = al.map_pgoff - al.map_start;
	/* identity maps (anonymous, [stack]) map with pgoff = start; perf prints the
	 * record's pgoff */
	tm.pgoff = al.map_pgoff == al.map_start ? pgoff : al.map_pgoff;
	if (mmap2) {
		tm.prot = mm2.prot;
		tm.flags = mm2.flags;
		/* a build-id MMAP2 has no inode (perf's dso id stays zero): the view's
		 * ino is 0 there */
		tm.ino = mm2.ino;
	} else {
		tm.prot = misc & MISC_MMAP_DATA ? 0 : 4;	/* PROT_EXEC */
	}
	return task_mmaps__add(&rp->mmaps, &tm);
}

/*
 * A batch in three passes: (1) replay side-band records and resolve each sample's
 * thread and maps, in order (or keep a copy of its maps for pass 1c or 2b: see
 * report__prepped()); (2) load the symbol tables this batch needs, one dso per worker,
 * then look the symbols of samples and frames up in chunks on the workers; (3) count,
 * in order.
 */
int report__on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct report *rp = p;
	struct sample s;
	size_t kernel_maps_end;
	int err = 0;

	/* refilled for this batch: nothing of the last one's is kept (nor copied) */
	if (hugemem__grow_discard(&rp->cur->pending, &rp->cur->cap_pending,
				  &rp->cur->pending_mapped, n, sizeof(*rp->cur->pending), n) ||
	    (rp->need_ext && hugemem__grow_discard(&rp->cur->ext, &rp->cur->cap_ext,
						   &rp->cur->ext_mapped, n,
						   sizeof(*rp->cur->ext), n)) ||
	    (rp->need_walk && hugemem__grow_discard(&rp->cur->walk, &rp->cur->cap_walk,
						    &rp->cur->walk_mapped, n,
						    sizeof(*rp->cur->walk), n)))
		return -ENOMEM;
	if (rp->need_chains) {
		/* the frames' slots: at most one a chain entry, 8 bytes of a record,
		 * reserved at once: growing in pass 1 copied them (and touched the new
		 * pages: 12 ms of the calling thread in the bench directory's report);
		 * a fresh mapping's pages are touched where the frames are written, on
		 * the workers in pass 1c */
		size_t bytes = 0;

		for (size_t i = 0; i < n; i++)
			bytes += recs[i]->size;
		if (hugemem__grow_discard(&rp->cur->frames, &rp->cur->cap_frames,
					  &rp->cur->frames_mapped, bytes / 8,
					  sizeof(*rp->cur->frames), 4096))
			return -ENOMEM;
	}
	rp->cur->nr_pending = 0;
	rp->cur->nr_frames = 0;
	rp->cur->nr_branches = 0;
	rp->cur->unwound = false;
	rp->cur->to_unwind = false;
	rp->cur->deferred = false;
	rp->cur->to_resolve = false;
	atomic_store(&rp->cur->leftover, false);
	if (rp->need_ext || rp->need_walk)	/* the last batch's copies of maps
						 * are done with */
		machine__release_maps(rp->machine);
	if (rp->defer_samples)
		err = report__prep_batch(rp, recs, n, &rp->load_early, &kernel_maps_end);
	else
		report__scan_mmaps(recs, n, &rp->load_early, &kernel_maps_end);
	if (err)
		return err;
	rp->kernel_maps_kept = kernel_maps_end == 0;
	report__batch_defer_flags(rp);
	if (!rp->preloaded) {	/* main.c left the kernel symbols job to us */
		phases__mark("first batch's pass 0");
		machine__wait_preload(rp->machine);
		phases__mark("kernel symbols wait");
		rp->preloaded = true;
	}
	rp->nr_to_load = 0;
	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		if (i && i == kernel_maps_end) {	/* the kernel's maps are final */
			rp->kernel_maps_kept = true;
			report__batch_defer_flags(rp);
		}
		if (rp->defer_samples && rp->cur->prep[i].kind != PREP_RECORD) {
			err = report__prepped(rp, recs, i);
			continue;
		}
		switch (ref->type) {
		case REC_SAMPLE:
			err = report__sample(rp, ref, i);
			break;
		case REC_READ: {
			/* perf's process_read_event(): pid, tid, value */
			struct event_read rv;

			event_read__decode(ref->data, ref->size, &rv);
			if (rp->threads && ref->evsel && rv.nfields >= 3)
				err = read_values__add(rp->threads, rv.pid, rv.tid,
						       ref->evsel->idx,
						       evsel__name(ref->evsel), rv.value);
			break;
		}
		case REC_CGROUP:
			err = cgroup_add(rp, ref);
			break;
		case REC_NAMESPACES:
			err = note_namespaces(rp, ref);
			break;
		case REC_HEADER_TRACING_DATA:	/* pipe mode */
			if (rp->traces)
				err = trace_sort__load_record(rp->traces, ref,
							      session__file_offset(rp->session,
										   ref->file,
										   ref->offset),
							      &rp->trace_diag);
			break;
		case REC_LOST_SAMPLES: {
			struct event_lost_samples ls;

			if (!event_lost_samples__decode(ref->data, ref->size, &ls))
				rp->total_lost_samples += ls.lost;
			break;
		}
		case REC_COMM:
		case REC_FORK:
		case REC_MMAP:
		case REC_MMAP2:
			sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
			err = machine__process(rp->machine, ref, &s);
			if (!err && ref->type == REC_FORK && rp->opts->tasks)
				err = note_parent(rp, ref);
			if (!err && ref->type != REC_FORK && ref->type != REC_COMM &&
			    rp->opts->mmaps)
				err = note_mmap(rp, ref);
			break;
		default:
			break;
		}
	}
	if (!err && rp->cur->deferred)
		err = report__walk_deferred(rp);
	/* pass 1b reads the files of the dsos a load may be writing */
	if (!err)
		err = report__finish_loads(rp);
	if (!err)
		err = report__unwind_batch(rp, rp->cur);
	if (!err)
		err = report__finish_loads(rp);
	if (!err && rp->cur->nr_pending)
		err = report__lookup_batch(rp);
	if (err)
		return err;
	report__finish_lookups(rp, rp->cur);
	if ((err = report__lookup_inlines(rp, rp->cur)))
		return err;
	if (rp->counter)
		return report__counter_hand(rp);
	return report__count_batch(rp, rp->cur);
}

/* The keys and columns (main() has checked the options). */
static int report_sort_setup(struct report *rp, const struct report_opts *o,
			     bool callchains)
{
	struct sort_opts so = {
		.sort_order = o->sort, .field_order = o->fields,
		/* perf's get_default_sort_order() */
		.default_order = trace_sort__default_is_trace(session__evlist(rp->session),
							      session__is_pipe(rp->session))
				 ? "trace" : NULL,
		.col_widths = o->col_widths, .field_sep = o->field_sep,
		.children = callchains && o->children != 0 && !o->mem_mode,
		.no_children = o->children == 0 && !o->children_cancelled,
		.mem_mode = o->mem_mode,
		.branch_mode = rp->branch_mode,
		.show_nr_samples = o->show_nr_samples,
		.show_total_period = o->show_total_period,
		.comm_list = o->comms, .dso_list = o->dsos, .sym_list = o->symbols,
		.nanosecs = o->nanosecs,
		.total_order = !o->perf_compat,
		.has_callchains = callchains,
		.parent_key = o->parent != NULL,
		.verbose = o->verbose && !o->quiet,	/* perf: -q overrides -v */
	};
	char msg[256] = "";

	if (sort_list__setup(&rp->sl, &so, msg, sizeof(msg))) {
		fprintf(stderr, "dirreport: %s\n", msg);
		return CMD_ERR_REPORTED;
	}
	/* --mem-mode's "# Sort order" line: perf's sort order text, to which it
	 * appends ",ipc_null" when it shows the IPC column (see sort-setup.c) */
	if (o->mem_mode) {
		bool plus = o->sort && o->sort[0] == '+';	/* "+KEYS": appended */
		const char *keys = o->sort && !plus ? o->sort : SORT_MEM_DEFAULT_ORDER;
		bool ipc = o->sort && !o->fields && strstr(o->sort, "symbol");
		size_t n = strlen(keys) + (plus ? strlen(o->sort) : 0) + sizeof(",ipc_null");

		rp->mem_order = malloc(n);
		if (!rp->mem_order)
			return -ENOMEM;
		snprintf(rp->mem_order, n, "%s%s%s%s", keys, plus ? "," : "",
			 plus ? o->sort + 1 : "", ipc ? ",ipc_null" : "");
	}
	if (o->hierarchy && !sort_list__nr_keys(&rp->sl)) {
		fputs("dirreport: --hierarchy needs a sort key\n", stderr);
		return CMD_ERR_REPORTED;
	}
	return 0;
}

/* How the histograms are printed (cc: the call graph form they point to). */
struct hists_print_opts report__print_opts(const struct report *rp,
					   const struct report_opts *o,
					   struct callchain_param *cc)
{
	struct hists_print_opts po = {
		.children = rp->chains && o->children != 0 && !o->mem_mode,
		.cc = &o->cc,
		.chains = rp->chains,
		.percent_limit = o->percent_limit,
		.filter_relative = o->filter_relative,
		.quiet = o->quiet,
		.time_str = o->time_str,
		.cgroup_path = cgroup_path,
		.cgroup_ctx = rp,
		.hierarchy = o->hierarchy,
		.group_sort_idx = o->group_sort_idx,
		.mem_sort_order = rp->mem_order,
		.wq = session__workqueue(rp->session),
	};

	*cc = o->cc;
	cc->order = rp->order;
	if (rp->branch_mode)	/* perf appends no chain to a branch's entry */
		cc->mode = CALLCHAIN_NONE;
	po.cc = cc;
	return po;
}

/*
 * perf's entry trees are replayed batch by batch (hists__live_start()) beside the
 * resolving and counting of the next batches, by the counter's replayer (or, with
 * --call-graph dwarf, whose inlined functions make the trees searched, not hashed,
 * by the counter itself), instead of all at the end of the run.  Only for keys that
 * compare without computing text (no srcline, cgroup, trace keys) and without
 * --hierarchy; where an event is printed otherwise (the group view's members)
 * hist-build.c replays it again.  Not with frame pointers at -j 1: with no thread to run
 * beside, the replay at the end measured a little faster (1.44 against 1.49 s on a
 * 60 MB perf record -a -g file: one pass over trees that stay in the cache).
 */
int report__live_setup(struct report *rp, const struct report_opts *o)
{
	const struct evlist *el = session__evlist(rp->session);
	const unsigned textual = SORT_NEED_PARENT | SORT_NEED_SRCLINE | SORT_NEED_SRCFILE |
				 SORT_NEED_CGROUP | SORT_NEED_TRACE | SORT_NEED_MEM |
				 SORT_NEED_DCACHELINE | SORT_NEED_BRANCH;
	struct callchain_param cc;
	struct hists_print_opts po;
	struct report_groups *groups;
	int err;

	/* without --perf-compat no sample is replayed: each group is counted once */
	if (!o->perf_compat || o->hierarchy || o->tasks || o->mmaps ||
	    o->mem_mode || rp->branch_mode || (rp->sl.need & textual) ||
	    o->cc.key != CALLCHAIN_KEY_FUNCTION ||
	    (!rp->unwinder && !workqueue__nr_workers(session__workqueue(rp->session))))
		return 0;
	po = report__print_opts(rp, o, &cc);
	if (rp->unwinder)
		rp->sl.hash_safe = false;	/* as the end of cmd_report() does */
	/* print_report()'s blocks: an event printed in a group view is replayed
	 * again there, from all its samples */
	if ((err = report_groups__new(&groups, el, session__features(rp->session),
				      o->group)))
		return err;
	rp->drop_steps = true;
	for (size_t i = 0; i < el->nr; i++)
		if (groups->view && groups->nr_members[i] != 1)
			rp->drop_steps = false;
	report_groups__delete(groups);
	for (size_t i = 0; i < el->nr; i++) {
		/* as print_report() sets it */
		rp->hists[i].has_callchains =
			(el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN) != 0;
		if ((err = hists__live_start(&rp->hists[i], &po)))
			return err;
	}
	return 0;
}

/* perf's combined sample_type: does any event record callchains? */
bool report__has_callchains(const struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* The parent key: perf needs callchains (but in pipes, where it cannot tell), and
 * compiles the -p regex (main() has checked it). */
static int parent_setup(struct report *rp, struct session *s, const struct report_opts *o,
			FILE *out)
{
	if (!report__has_callchains(session__evlist(s)) && !session__is_pipe(s)) {
		return report__refuse(o, out,
				      "dirreport: the parent key needs callchains "
				      "(perf record -g)\n");
	}
	if (regcomp(&rp->parent_re, o->parent ? o->parent : PARENT_REGEX_DEFAULT,
		    REG_EXTENDED))
		return -EINVAL;
	rp->parent_on = true;
	return 0;
}

/* What the parent and srcline keys own. */
static void report_extras_free(struct report *rp)
{
	if (rp->parent_on)
		regfree(&rp->parent_re);
	rp->parent_on = false;
	free(rp->parent_cache);
	rp->parent_cache = NULL;
	srclines__delete(rp->srclines);
	for (size_t i = 0; i < rp->nr_uw; i++) {
		unwinder__delete(rp->uw[i].u);
		free(rp->uw[i].ips);
	}
	free(rp->uw);
	rp->uw = NULL;
	rp->nr_uw = 0;
	rp->unwinder = NULL;
	for (size_t i = 0; i < rp->inl_dsos_cap; i++) {
		srclines__delete(rp->inl_dsos[i].sl);
		free(rp->inl_dsos[i].todo);
	}
	free(rp->inl_dsos);
	free(rp->inl_busy);
	for (size_t i = 0; i < rp->inl_cap; i++)
		free(rp->inl_syms[i].sym);
	free(rp->inl_syms);
	strtab__exit(&rp->inl_names);
	rp->srclines = NULL;
	trace_sort__delete(rp->traces);
	rp->traces = NULL;
	free(rp->mem_order);
	rp->mem_order = NULL;
	for (size_t i = 0; i < rp->nr_cgroups; i++)
		free(rp->cgroups[i].path);
	free(rp->cgroups);
	rp->cgroups = NULL;
	rp->nr_cgroups = 0;
	free(rp->cgns);
	rp->cgns = NULL;
	rp->nr_cgns = rp->cap_cgns = 0;
}

/* A problem of the tracing data or a tracepoint sample, printed. */
int report__trace_error(const struct diag *d)
{
	char line[1024];

	fprintf(stderr, "dirreport: %s\n", diag__format(d, line, sizeof(line)));
	return CMD_ERR_REPORTED;
}

/* The trace key's texts (resolve/trace-sort.h); a file whose tracepoints have no
 * format is refused whatever the keys, as perf refuses to open it. */
static int trace_setup(struct report *rp, struct session *s, const struct report_opts *o)
{
	int err;

	/* the tracing data is parsed in a forked child first (machine/trace-event.c):
	 * no other thread may be working then, as one could hold a lock the child
	 * needs (AddressSanitizer's allocator does not lock itself across fork()),
	 * so the kernel symbols job is waited for here already where there will be
	 * one (else the first batch waits for it, the decoding started meanwhile) */
	if (cmd_report_forks(s)) {
		machine__wait_preload(rp->machine);
		/* (the check of kernel symbols read ahead has no thread yet: here it
		 * starts at the first kernel lookup, in the delivery - setup_machine()'s
		 * dsos_opts.kallsyms_check_at_take) */
		rp->preloaded = true;
	}
	err = trace_sort__open(&rp->traces, session__evlist(s), session__features(s),
			       session__is_pipe(s), rp->machine, o->raw_trace,
			       o->input ? o->input : "perf.data", &rp->trace_diag);

	if (err == -ENOMEM)
		return err;
	if (err)
		return report__trace_error(&rp->trace_diag);
	if (!(rp->sl.need & SORT_NEED_TRACE)) {
		trace_sort__delete(rp->traces);
		rp->traces = NULL;
	}
	return 0;
}

/* The two batches' arrays, freed (megabytes each: 26 MB resident at the end of the
 * bench directory's delivery before its windows were made smaller) as soon as the
 * last batch is counted, before the report's output. */
void report__batches_free(struct report *rp)
{
	for (size_t i = 0; i < 2; i++) {
		struct report_batch *b = &rp->batch[i];

		hugemem__free(b->pending, b->pending_mapped);
		hugemem__free(b->ext, b->ext_mapped);
		hugemem__free(b->walk, b->walk_mapped);
		hugemem__free(b->prep, b->prep_mapped);
		hugemem__free(b->frames, b->frames_mapped);
		hugemem__free(b->spare, b->spare_mapped);
		free(b->branches);
		for (size_t c = 0; c < b->cap_chunks; c++)
			free(b->chunks[c].frames);
		free(b->chunks);
		memset(b, 0, sizeof(*b));	/* empty: report__exit() frees it again */
	}
}

/* Everything the report set up (fields left zero or NULL are skipped). */
void report__exit(struct report *rp, size_t nr_hists)
{
	/* a run that failed before report__counter_stop() was reached */
	report__counter_stop(rp);
	report__count_parts_free(rp);
	if (rp->session)	/* a batch that failed may have left loads running */
		workqueue__group_wait(session__workqueue(rp->session), &rp->loads);
	if (rp->session)
		workqueue__group_wait(session__workqueue(rp->session), &rp->dwarf);
	for (size_t i = 0; rp->hists && i < nr_hists; i++)
		hists__exit(&rp->hists[i]);
	free(rp->hists);
	report__batches_free(rp);
	free(rp->to_load);
	for (size_t i = 0; i < rp->cap_walk_jobs; i++)
		free(rp->walk_jobs[i].dsos);
	free(rp->walk_jobs);
	free(rp->prep_jobs);
	free(rp->ips);
	sample_filter__exit(&rp->filter);
	if (rp->threads)
		read_values__exit(rp->threads);
	task_ppids__exit(&rp->ppids);
	task_mmaps__exit(&rp->mmaps);
	callchains__delete(rp->chains);
	report_extras_free(rp);
}

static int unwind_setup(struct report *rp, struct session *s)
{
	const char *arch = session__features(s)->arch;

	/* pass 1b: a job runs on each worker and on this thread */
	rp->nr_uw = workqueue__nr_workers(session__workqueue(s)) + 1;
	rp->uw = calloc(rp->nr_uw, sizeof(*rp->uw));
	if (!rp->uw)
		return -ENOMEM;
	for (size_t i = 0; i < rp->nr_uw; i++) {
		atomic_flag_clear(&rp->uw[i].busy);
		rp->uw[i].ips = malloc((size_t)rp->max_stack * sizeof(*rp->uw[i].ips));
		if (!rp->uw[i].ips || (i ? unwinder__new_sibling(&rp->uw[i].u, rp->uw[0].u)
					 : unwinder__new(&rp->uw[i].u, arch)))
			return -ENOMEM;
	}
	rp->unwinder = rp->uw[0].u;
	return 0;
}

/* The report's keys, callchains, source lines, tracepoints and filters. */
int report__setup(struct report *rp, struct session *s, const struct report_opts *o,
		  FILE *out)
{
	const struct evlist *el = session__evlist(s);
	bool on_workers;
	int err = 0;

	if ((err = sample_filter__init(&rp->filter, &(struct sample_filter_opts){
			.comms = o->comms, .pids = o->pids, .tids = o->tids, .dsos = o->dsos,
			.symbols = o->symbols, .cpus = o->cpus })))
		return err;
	rp->max_stack = o->max_stack >= 0 ? o->max_stack : MAX_STACK_DEFAULT;
	/* perf: -G and the children view default to the caller order */
	rp->order = o->cc.order;
	if (o->inverted || (o->children != 0 && !o->cc.order_set))
		rp->order = CALLCHAIN_CALLER;
	if (report__has_callchains(el) && (err = callchains__new(&rp->chains, o->cc.key)))
		return err;
	err = report_sort_setup(rp, o, report__has_callchains(el));
	/* Callchains are resolved only where the output uses them: perf's
	 * sample__resolve_callchain() skips them without call graphs (-g none clears
	 * use_callchain), the children view and the parent key (-p, -x, -s parent) */
	rp->need_chains = rp->chains && (((o->cc.mode != CALLCHAIN_NONE ||
					   (o->children != 0 && !o->mem_mode)) &&
					  !rp->branch_mode) ||
					 (rp->sl.need & SORT_NEED_PARENT) || o->exclude_other);
	if (!err && rp->need_chains && rp->max_stack > 0 && unwind__wanted(el))
		err = unwind_setup(rp, s);
	/* chains walked on the workers (pass 1c) where a worker can take them and no
	 * other pass reads the machine per frame or sample (no unwinder without chains) */
	on_workers = !rp->unwinder && !rp->branch_mode && !o->mem_mode &&
		     workqueue__nr_workers(session__workqueue(s));
	rp->defer_chains = !err && rp->need_chains && on_workers;
	if (!err && (rp->sl.need & SORT_NEED_PARENT))
		err = parent_setup(rp, s, o, out);
	if (!err && ((rp->sl.need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE)) ||
		     o->cc.key != CALLCHAIN_KEY_FUNCTION))
		err = srclines__new(&rp->srclines);
	if (!err && rp->srclines) {
		rp->lazy = (struct sort_lazy){ lazy_srcline, lazy_srcfile, rp };
		rp->sl.lazy = &rp->lazy;
	}
	if (!err)
		err = trace_setup(rp, s, o);
	/* and the samples themselves, where pass 1 does nothing else for them (no --cpu,
	 * no trace key): in pass 1c with their chains, else in pass 2b, before their
	 * symbols (a pass of its own for them cost more than it took off: flat report
	 * of a 60 MB file, -j 2, 0.41 -> 0.44 s) */
	rp->defer_samples = !err && on_workers && !rp->filter.cpus && !rp->traces;
	rp->need_ext = o->mem_mode || rp->unwinder;
	rp->need_walk = rp->defer_samples || rp->defer_chains;
	rp->time_quantum = 100 * 1000000ULL;	/* perf's --time-quantum default, 100 ms */
	rp->topo = &session__features(s)->cpu_topo;
	return err;
}
