/*
 * engine-resolve - passes 0, 1 and 1c of `dirreport --stdio` (docs/pipeline.md): each
 * sample of a batch parsed (pass 0 on the workers: report__prep_batch()), given its
 * thread, comm and maps in delivery order (pass 1: report__sample(),
 * report__prepped()), its callchain walked and its branches resolved to their maps, or
 * a copy of its process's maps kept for the workers, which resolve the deferred samples
 * and walk the deferred chains (pass 1c: report__walk_deferred()); the thread and dso
 * filters known then.  The dsos found are handed to engine-lookup.c
 * (report__want_loaded()).
 */
#define DIRREPORT_IN_REPORT
#include "report/engine-internal.h"

#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <string.h>	/* memcpy, memset */

#include "cli/time-range.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "machine/machine.h"
#include "reader/session.h"
#include "report/branch.h"
#include "report/callchain.h"
#include "report/sort.h"
#include "resolve/filter.h"
#include "resolve/trace-sort.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/workqueue.h"
#include "banned.h"

/* perf's thread__is_filtered(): --comms, --pids, --tids (FILTER_THREAD), by the
 * sample's comm and its thread as they are at the sample (pass 1). */
static uint8_t thread_filter(const struct report *rp, const struct thread *t,
			     const char *comm)
{
	return sample_filter__thread(&rp->filter, t, comm) ? FILTER_THREAD : 0;
}

/* The dso part of perf's machine__resolve(): --dsos (FILTER_DSO). */
static uint8_t dso_filter(const struct report *rp, const struct dso *dso)
{
	return sample_filter__dso(&rp->filter, dso) ? FILTER_DSO : 0;
}

/* report__scan_mmaps() for record @p i of a batch: an MMAP2 of the build-id form clears
 * *@p load_early, a kernel MMAP sets *@p kernel_maps_end to i + 1. */
static void note_mmap_kind(const struct record_ref *ref, size_t i, bool *load_early,
			   size_t *kernel_maps_end)
{
	uint16_t misc;

	if (ref->type != REC_MMAP && ref->type != REC_MMAP2)
		return;
	memcpy(&misc, ref->data + 4, sizeof(misc));
	if (ref->type == REC_MMAP2 && (misc & MISC_MMAP_BUILD_ID))
		*load_early = false;
	if ((misc & MISC_CPUMODE_MASK) == MISC_KERNEL)
		*kernel_maps_end = i + 1;
}

/*
 * What a batch's MMAP records allow, in one look at them:
 * - whether the batch may load its dsos early (rp->load_early): loading reads a dso's
 *   build-id and the files it names, and an MMAP2 of the build-id form sets the
 *   build-id of a dso not loaded yet (perf's order: it applies when the dso is loaded
 *   after it), so a batch with one loads its dsos after its replay, as perf would;
 * - from which record on it leaves the kernel's maps alone (*kernel_maps_end: after
 *   its last kernel MMAP - the kernel, a module - or 0), as passes 1c and 2b need for
 *   what they resolve (rp->kernel_now, rp->kernel_ready).
 */
void report__scan_mmaps(const struct record_ref *const *recs, size_t n, bool *load_early,
			size_t *kernel_maps_end)
{
	*load_early = true;
	*kernel_maps_end = 0;
	for (size_t i = 0; i < n; i++)
		note_mmap_kind(recs[i], i, load_early, kernel_maps_end);
}

/* What pass 1 may leave to pass 1c or 2b from here on in the batch (the kernel's maps
 * as they will be at its end: rp->kernel_maps_kept). */
void report__batch_defer_flags(struct report *rp)
{
	rp->kernel_now = rp->kernel_maps_kept && machine__kernel_ready(rp->machine);
	rp->kernel_ready = rp->defer_chains && rp->kernel_now;
}

static int push_frame(struct report *rp, struct thread *t, uint16_t cpumode, uint64_t ip)
{
	struct addr_location al;
	struct pending_frame *f;
	bool unwound = cpumode & CALLCHAIN_UNWOUND;

	cpumode &= (uint16_t)~CALLCHAIN_UNWOUND;
	rp->cur->unwound |= unwound;
	if (hugemem__grow(&rp->cur->frames, &rp->cur->cap_frames, &rp->cur->frames_mapped,
			  rp->cur->nr_frames + 1, sizeof(*rp->cur->frames), 4096))
		return -ENOMEM;
	machine__resolve_map(rp->machine, t, cpumode, ip, &al);
	f = &rp->cur->frames[rp->cur->nr_frames++];
	*f = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0,
		.sym_done = false, .unwound = unwound,
	};
	return report__want_loaded(rp, al.dso, false);
}

struct frame_ctx {
	struct report *rp;
	struct thread *t;
};

static int report_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct frame_ctx *fc = ctx;

	return push_frame(fc->rp, fc->t, cpumode, ip);
}

/* The frames of a sample's callchain, in cursor order, each resolved to its map
 * (machine__callchain_walk: perf's walk, markers, --max-stack).  A sample whose user
 * stack perf unwinds keeps the process's maps as they are now: its user frames are
 * unwound and spliced in on the workers (pass 1b, report__unwind_batch()). */
static int resolve_callchain(struct report *rp, struct thread *t, const struct sample *s,
			     const struct record_ref *ref, struct pending *p)
{
	struct frame_ctx fc = { rp, t };
	int ret;

	p->first_frame = rp->cur->nr_frames;
	ret = machine__callchain_walk(s, rp->order == CALLCHAIN_CALLER,
				      (uint64_t)rp->max_stack, report_frame, &fc);
	if (ret == 1)	/* perf drops the chain */
		rp->cur->nr_frames = p->first_frame;
	p->nr_frames = rp->cur->nr_frames - p->first_frame;
	if (ret >= 0 && rp->unwinder) {
		/* unwound even when the chain is dropped: the counts of the
		 * warning (unwinder__warning()) */
		struct pending_ext *pe = report_batch__ext(rp->cur, p);

		p->unwind = true;
		pe->ref = ref;
		pe->regs_abi = s->user_regs_abi;
		pe->regs_mask = s->user_regs_mask;
		pe->regs = s->user_regs;
		pe->stack_size = s->user_stack_size;
		pe->stack_dyn_size = s->user_stack_dyn_size;
		pe->stack = s->user_stack;
		maps__copy(t->maps, &pe->maps);
		p->nr_user = 0;
		rp->cur->to_unwind = true;
		p->chain_dropped = ret == 1;
	}
	return ret < 0 ? ret : 0;
}

/* Whether a chain has kernel frames (entries after a PERF_CONTEXT_KERNEL marker). */
static bool chain_enters_kernel(const struct sample *s)
{
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		if (sample__callchain_ip(s, i) == CONTEXT_KERNEL)
			return true;
	return false;
}

/* Pass 1 for a sample the workers resolve, or whose chain they walk: a copy of its
 * process's maps as they are now (the time-versioned state: MMAPs later in the batch
 * make new arrays and leave this one as it is), in its pending_walk. */
static void keep_maps(struct report *rp, const struct thread *t, struct pending *p)
{
	maps__copy(t->maps, &report_batch__walk(rp->cur, p)->maps);
}

/* Pass 1: the slots of the frames pass 1c keeps of a chain of @p chain_nr entries
 * (at most --max-stack), in @p pw. */
static int reserve_frames(struct report *rp, uint64_t chain_nr, struct pending_walk *pw)
{
	size_t n = chain_nr < (uint64_t)rp->max_stack ? (size_t)chain_nr :
							(size_t)rp->max_stack;

	if (hugemem__grow(&rp->cur->frames, &rp->cur->cap_frames, &rp->cur->frames_mapped,
			  rp->cur->nr_frames + n, sizeof(*rp->cur->frames), 4096))
		return -ENOMEM;
	pw->first_frame = rp->cur->nr_frames;
	pw->reserved = n;
	rp->cur->nr_frames += n;
	rp->cur->deferred = true;
	return 0;
}

/*
 * Pass 1 for a sample's chain that pass 1c walks on the workers: a copy of the
 * process's maps as they are now (the time-versioned state: MMAPs later in the batch
 * make new arrays and leave this one as it is) and slots for its frames.  Only for
 * chains whose walk has no effect on the machine: no kernel frame, or a kernel whose
 * map is final and whose maps no record of this batch changes (rp->kernel_ready),
 * so the order in which chains are walked does not matter.
 */
static int defer_callchain(struct report *rp, struct thread *t, const struct sample *s,
			   struct pending *p)
{
	struct pending_walk *pw = report_batch__walk(rp->cur, p);
	int err = reserve_frames(rp, s->callchain_nr, pw);

	if (err)
		return err;
	p->first_frame = pw->first_frame;
	p->deferred = true;
	p->chain = s->callchain;
	p->chain_nr = (uint32_t)s->callchain_nr;	/* fits: in a record */
	keep_maps(rp, t, p);
	return 0;
}

/* Pending samples per walk_one() job. */
#define WALK_CHUNK 256

struct walk_ctx {
	struct report *rp;
	struct pending *pd;
	const struct pending_walk *pw;	/* pd's */
	struct walk_job *job;
};

/* A dso a job found, to be loaded: each once a job (the last one found is kept at
 * the end of the list: the next frame finds it first). */
static int walk_note_dso(struct walk_job *job, struct dso *dso)
{
	if (!dso || (job->nr && job->dsos[job->nr - 1] == dso))
		return 0;
	for (size_t k = 0; k < job->nr; k++)
		if (job->dsos[k] == dso) {
			job->dsos[k] = job->dsos[job->nr - 1];
			job->dsos[job->nr - 1] = dso;
			return 0;
		}
	if (array__grow(&job->dsos, &job->cap, job->nr + 1, sizeof(*job->dsos), 16))
		return -ENOMEM;
	job->dsos[job->nr++] = dso;
	return 0;
}

static int walk_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct walk_ctx *w = ctx;
	struct pending *pd = w->pd;
	struct walk_job *job = w->job;
	struct addr_location al;

	if (pd->nr_frames == w->pw->reserved)	/* a walk keeps at most that many */
		return -EOVERFLOW;
	machine__resolve_map_at(w->rp->machine, &w->pw->maps, cpumode, ip, &al);
	w->rp->cur->frames[pd->first_frame + pd->nr_frames++] = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0, .sym_done = false,
	};
	return walk_note_dso(job, al.dso);
}

/* A deferred sample (report__prepped()) given what pass 1 kept in @p pw (its thread,
 * comm, thread filters, frame slots), resolved to its map in the copy of its
 * process's maps there, and its dso filtered (--dsos), on any worker (only reads);
 * its dso noted in @p job to be loaded; -ENOMEM, else 0. */
int report__resolve_deferred(const struct report *rp, struct pending *pd,
			     const struct pending_walk *pw, struct walk_job *job)
{
	pd->thread = pw->thread;
	pd->comm = pw->comm;
	pd->cgroup_dev = pw->cgroup_dev;
	pd->cgroup_ino = pw->cgroup_ino;
	pd->first_frame = pw->first_frame;
	machine__resolve_map_at(rp->machine, &pw->maps, pd->cpumode, pd->ip, &pd->al);
	pd->al.map = NULL;	/* see report__sample() */
	pd->al.thread = (struct thread *)pd->thread;
	pd->filtered = pw->filtered | dso_filter(rp, pd->al.dso);
	pd->resolve = false;
	return walk_note_dso(job, pd->al.dso);
}

/* Pass 1c for the pending samples [i * WALK_CHUNK, ...), on any worker: the deferred
 * samples resolved to their maps and filtered (report__prepped()), the deferred chains
 * walked as perf walks them, each frame resolved to its map (only reads). */
static void walk_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct walk_job *job = &rp->walk_jobs[i];
	size_t end = (i + 1) * WALK_CHUNK;

	if (end > rp->cur->nr_pending)
		end = rp->cur->nr_pending;
	job->nr = 0;
	job->err = 0;
	for (size_t k = i * WALK_CHUNK; k < end && !job->err; k++) {
		struct pending *pd = &rp->cur->pending[k];
		const struct pending_walk *pw = report_batch__walk(rp->cur, pd);
		struct walk_ctx w = { rp, pd, pw, job };
		struct sample s = { .callchain = pd->chain, .callchain_nr = pd->chain_nr };
		int ret;

		if (pd->resolve && (job->err = report__resolve_deferred(rp, pd, pw, job)))
			break;
		if (!pd->deferred)
			continue;
		pd->nr_frames = 0;
		ret = machine__callchain_walk(&s, rp->order == CALLCHAIN_CALLER,
					      (uint64_t)rp->max_stack, walk_frame, &w);
		if (ret == 1)	/* perf drops the chain */
			pd->nr_frames = 0;
		else if (ret < 0)
			job->err = ret;
	}
}

/* The dsos jobs [0, jobs) of rp->walk_jobs found, to be loaded (report__want_loaded(): in the
 * order of the samples' chunks, each dso once a chunk); a job's error, if any. */
int report__want_found(struct report *rp, size_t jobs)
{
	int err;

	for (size_t i = 0; i < jobs; i++) {
		const struct walk_job *job = &rp->walk_jobs[i];

		if (job->err)
			return job->err == -EOVERFLOW ? -EINVAL : job->err;
		for (size_t k = 0; k < job->nr; k++)
			if ((err = report__want_loaded(rp, job->dsos[k], false)))
				return err;
	}
	return 0;
}

/* Pass 1c: the deferred chains of the batch walked on the workers, then the dsos
 * they found queued for loading (report__want_found()). */
int report__walk_deferred(struct report *rp)
{
	size_t jobs = (rp->cur->nr_pending + WALK_CHUNK - 1) / WALK_CHUNK;
	int err;

	if (array__grow_zeroed(&rp->walk_jobs, &rp->cap_walk_jobs, jobs,
			       sizeof(*rp->walk_jobs), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, walk_one, rp)))
		return err;
	return report__want_found(rp, jobs);
}

/* Branch view: both ends of every branch of a sample, resolved to their maps (perf's
 * sample__resolve_bstack(), after the sample's address and callchain). */
static int resolve_branches(struct report *rp, struct thread *t, const struct sample *s,
			    struct pending *p)
{
	int err = 0;

	p->first_branch = rp->cur->nr_branches;
	if (array__grow(&rp->cur->branches, &rp->cur->cap_branches, rp->cur->nr_branches + s->branch_nr,
			sizeof(*rp->cur->branches), 1024))
		return -ENOMEM;
	for (uint64_t i = 0; i < s->branch_nr && !err; i++) {
		struct sample_branch sb = sample__branch(s, i);
		struct pending_branch *pb = &rp->cur->branches[rp->cur->nr_branches++];

		branch_end__resolve_map(rp->machine, t, sb.from, &pb->from);
		branch_end__resolve_map(rp->machine, t, sb.to, &pb->to);
		pb->from.map = pb->to.map = NULL;	/* see report__sample() */
		pb->from_ip = sb.from;
		pb->to_ip = sb.to;
		pb->flags = sb.flags;
		pb->sym_done = false;
		err = report__want_loaded(rp, pb->from.dso, false);
		if (!err)
			err = report__want_loaded(rp, pb->to.dso, false);
	}
	p->nr_branches = rp->cur->nr_branches - p->first_branch;
	return err;
}

/* What a pending sample takes from its record (pass 0 or 1). */
static void pending_sample(struct pending *p, const struct sample *s,
			   const struct record_ref *ref)
{
	p->period = s->period;
	p->time = s->time;
	p->cpu = (int32_t)s->cpu;
	p->cpumode = s->misc & MISC_CPUMODE_MASK;
	p->evsel_idx = ref->evsel->idx;
	p->nr_frames = 0;
	p->nr_branches = 0;
	p->sym_done = false;
	p->unwind = false;
	p->deferred = false;
	p->resolve = false;
	p->hole = false;
	p->nr_user = 0;
	p->ip = s->ip;
	p->weight = s->weight;
	p->cgroup = s->cgroup;
	p->code_page_size = s->code_page_size;
	p->ins_lat = s->ins_lat;
	p->p_stage_cyc = s->weight_var3;
	p->trace = NULL;
	p->chain = NULL;
	p->chain_nr = 0;
}

/* Pass 1 for a sample: what it takes from its record and its thread. */
static void pending_init(const struct report *rp, struct pending *p, struct thread *t,
			 const struct sample *s, const struct record_ref *ref)
{
	pending_sample(p, s, ref);
	p->thread = t;
	p->cgroup_dev = t->id < rp->nr_cgns ? rp->cgns[t->id].dev : 0;
	p->cgroup_ino = t->id < rp->nr_cgns ? rp->cgns[t->id].ino : 0;
}

/* Pass 1: the pending sample of record @p i of the batch (report.defer_samples),
 * else the next one. */
static struct pending *pending_take(struct report *rp, size_t i)
{
	struct report_batch *b = rp->cur;

	return rp->defer_samples ? &b->pending[i] : &b->pending[b->nr_pending++];
}

/* Pass 1: pending_take()'s sample dropped after all. */
static void pending_drop(struct report *rp, struct pending *p)
{
	if (rp->defer_samples)
		p->hole = true;
	else
		rp->cur->nr_pending--;
}

/* What pass 1 keeps in a deferred sample's pending_walk @p pw (report__resolve_deferred()
 * copies it): its thread, comm and thread filters now. */
static void walk_thread(const struct report *rp, struct pending_walk *pw, struct thread *t,
			const char *comm)
{
	pw->thread = t;
	pw->comm = comm;
	pw->filtered = thread_filter(rp, t, comm);
	pw->cgroup_dev = t->id < rp->nr_cgns ? rp->cgns[t->id].dev : 0;
	pw->cgroup_ino = t->id < rp->nr_cgns ? rp->cgns[t->id].ino : 0;
	pw->first_frame = 0;
}

/* Pass 1 for a sample (record @p i of the batch): thread, comm and maps, in delivery
 * order. */
int report__sample(struct report *rp, const struct record_ref *ref, size_t i)
{
	struct sample s;
	struct thread *t;
	struct pending *p;
	int err;

	err = sample__parse(&s, &ref->evsel->attr, ref->data, ref->size);
	if (err)
		return err;
	/* perf's first check, before the sample's thread exists */
	if (time_ranges__skip(rp->time, s.time))
		return 0;
	/* the transaction key prints only the word 0 as perf does (sort.h) */
	if ((rp->sl.need & SORT_NEED_TXN) && s.transaction)
		return session__record_diag(rp->session, ref->file, ref->offset,
					    &rp->trace_diag, -DIAG_BAD_SAMPLE,
					    "transaction flags %#" PRIx64 ": only 0 is "
					    "implemented for the transaction key", s.transaction);
	t = machine__findnew_thread(rp->machine, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	p = pending_take(rp, i);
	machine__resolve_map(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.ip, &p->al);
	p->al.map = NULL;	/* not stable across batches; the copied fields are */
	pending_init(rp, p, t, &s, ref);
	p->comm = thread__comm(t);
	p->filtered = thread_filter(rp, t, p->comm) | dso_filter(rp, p->al.dso);
	if (rp->opts->mem_mode) {
		struct pending_ext *pe = report_batch__ext(rp->cur, p);

		memset(&pe->mem, 0, sizeof(pe->mem));
		/* perf's mem iterator: the sample's cost is its weight, or 1; its data
		 * address is looked up as an ip of the sample's cpumode */
		p->period = s.weight ? s.weight : 1;
		pe->mem.data_src = s.data_src;
		pe->mem.addr = s.addr;
		pe->mem.phys_addr = s.phys_addr;
		pe->mem.page_size = s.data_page_size;
		machine__resolve_map(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.addr,
				     &pe->dal);
		pe->mem.al_addr = pe->dal.addr;
		if (pe->dal.map) {	/* the dcacheline key */
			pe->mem.map_maj = pe->dal.map->maj;
			pe->mem.map_min = pe->dal.map->min;
			pe->mem.map_ino = pe->dal.map->ino;
			pe->mem.map_ino_generation = pe->dal.map->ino_generation;
			pe->mem.map_prot = pe->dal.map->prot;
			pe->mem.map_flags = pe->dal.map->flags;
		}
		pe->dal.map = NULL;
	}
	/* perf drops samples of other cpus after resolving them, and in the branch
	 * view those without a branch stack */
	if (!sample_filter__cpu(&rp->filter, p->cpu) ||
	    (rp->branch_mode && !(s.sample_type & SAMPLE_BRANCH_STACK))) {
		pending_drop(rp, p);
		return 0;
	}
	if (rp->traces && (err = trace_sort__text(rp->traces, ref->evsel, s.raw, s.raw_size,
						  session__file_path(rp->session, ref->file),
						  session__file_offset(rp->session, ref->file, ref->offset),
						  &p->trace, &rp->trace_diag)))
		return err;
	err = report__want_loaded(rp, p->al.dso, p->cpumode == MISC_USER);
	if (!err && rp->opts->mem_mode)
		err = report__want_loaded(rp, report_batch__ext(rp->cur, p)->dal.dso, false);
	if (!err && rp->need_chains) {
		if (rp->defer_chains && (rp->kernel_ready || !chain_enters_kernel(&s)))
			err = defer_callchain(rp, t, &s, p);
		else
			err = resolve_callchain(rp, t, &s, ref, p);
	}
	if (!err && rp->branch_mode)
		err = resolve_branches(rp, t, &s, p);
	/* the first kernel sample of a recording makes the kernel's map final */
	if (!err && rp->defer_samples && !rp->kernel_now)
		report__batch_defer_flags(rp);
	return err;
}

/* Records per pass 0 job. */
#define PREP_CHUNK 512

/*
 * Pass 0 for the records [c * PREP_CHUNK, ...) of the batch, on any worker
 * (report.defer_samples): each sample parsed and its pending sample filled (all but
 * what comes from its thread: report__prepped()), its digest for pass 1 in prep; the
 * other records' pending samples made holes, their MMAPs noted as report__scan_mmaps() does.
 * Pass 1 then reads the digests, not the records: the samples' cache lines are the
 * workers' to fetch.  Only reads the records and the report's options.
 */
static void prep_one(void *ctx, size_t c)
{
	struct report *rp = ctx;
	struct report_batch *b = rp->cur;
	struct prep_job *job = &rp->prep_jobs[c];
	size_t end = (c + 1) * PREP_CHUNK;

	if (end > rp->nr_recs)
		end = rp->nr_recs;
	job->kernel_maps_end = 0;
	job->load_early = true;
	for (size_t i = c * PREP_CHUNK; i < end; i++) {
		const struct record_ref *ref = rp->recs[i];
		struct prep *pr = &b->prep[i];
		struct pending *p = &b->pending[i];
		struct sample smp;

		if (ref->type == REC_SAMPLE &&
		    !sample__parse(&smp, &ref->evsel->attr, ref->data, ref->size) &&
		    !((rp->sl.need & SORT_NEED_TXN) && smp.transaction)) {
			if (time_ranges__skip(rp->time, smp.time)) {
				pr->kind = PREP_SKIP;
			} else {
				pr->kind = PREP_SAMPLE;
				pr->pid = (int32_t)smp.pid;
				pr->tid = (int32_t)smp.tid;
				pr->kernel = (smp.misc & MISC_CPUMODE_MASK) == MISC_KERNEL ||
					     (rp->need_chains && chain_enters_kernel(&smp));
				pr->chain_nr = (uint32_t)smp.callchain_nr;
				pending_sample(p, &smp, ref);
				p->resolve = true;
				if (rp->need_chains) {	/* defer_callchain() */
					p->deferred = true;
					p->chain = smp.callchain;
					p->chain_nr = pr->chain_nr;
				}
				continue;
			}
		} else if (ref->type == REC_SAMPLE) {
			pr->kind = PREP_SLOW;	/* report__sample() says why */
		} else {
			pr->kind = PREP_RECORD;
			note_mmap_kind(ref, i, &job->load_early, &job->kernel_maps_end);
		}
		/* a hole, unless pass 1 takes the sample over (pending_init()) */
		p->hole = true;
		p->resolve = p->deferred = false;
		p->nr_frames = p->nr_user = p->nr_branches = 0;
	}
}

/* Pass 0 on the workers (prep_one()), then what report__scan_mmaps() finds, from its jobs. */
int report__prep_batch(struct report *rp, const struct record_ref *const *recs, size_t n,
		       bool *load_early, size_t *kernel_maps_end)
{
	size_t jobs = (n + PREP_CHUNK - 1) / PREP_CHUNK;
	int err;

	if (hugemem__grow(&rp->cur->prep, &rp->cur->cap_prep, &rp->cur->prep_mapped, n,
			  sizeof(*rp->cur->prep), n) ||
	    array__grow(&rp->prep_jobs, &rp->cap_prep_jobs, jobs, sizeof(*rp->prep_jobs),
			16))
		return -ENOMEM;
	rp->recs = recs;
	rp->nr_recs = n;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, prep_one, rp)))
		return err;
	*load_early = true;
	*kernel_maps_end = 0;
	for (size_t c = 0; c < jobs; c++) {
		if (!rp->prep_jobs[c].load_early)
			*load_early = false;
		if (rp->prep_jobs[c].kernel_maps_end)
			*kernel_maps_end = rp->prep_jobs[c].kernel_maps_end;
	}
	rp->cur->nr_pending = n;
	return 0;
}

/*
 * Pass 1 for record @p i of a batch that pass 0 made (report.defer_samples): what has
 * to be in delivery order of a sample the workers resolve - its thread, the thread's
 * comm and thread filters (--comms, --pids, --tids) now, a copy of its process's maps
 * now (the time-versioned state: maps__copy()) and, with chains, its frames' slots,
 * all into its pending_walk (the pending sample is pass 0's; report__resolve_deferred()
 * copies them there).  Pass 1c (walk_one()) resolves its address to its map in that
 * copy, filters its dso and walks its chain - without chains pass 2b (lookup_one())
 * does, before its symbol.  Only where resolving changes nothing in the machine: the
 * sample, and the chain the report walks, out of the kernel, or the kernel's map final
 * and no kernel MMAP in the rest of the batch (a user-only recording never makes its
 * map final), so the order in which samples are resolved does not matter.  A sample
 * that reaches the kernel before that, or that pass 0 could not take, goes through
 * report__sample().
 */
int report__prepped(struct report *rp, const struct record_ref *const *recs,
		    size_t i)
{
	const struct prep *pr = &rp->cur->prep[i];
	struct pending_walk *pw;
	struct thread *t;
	const char *comm;

	switch (pr->kind) {
	case PREP_SKIP:
		return 0;
	case PREP_SAMPLE:
		if (pr->kernel && !rp->kernel_now)
			return report__sample(rp, recs[i], i);
		break;
	default:
		return report__sample(rp, recs[i], i);
	}
	t = machine__findnew_thread(rp->machine, pr->pid, pr->tid);
	if (!t || !(comm = machine__sample_comm(rp->machine, t)))
		return -ENOMEM;
	pw = &rp->cur->walk[i];
	walk_thread(rp, pw, t, comm);
	keep_maps(rp, t, &rp->cur->pending[i]);
	if (rp->need_chains)	/* pass 1c walks the chain and resolves the sample */
		return reserve_frames(rp, pr->chain_nr, pw);
	rp->cur->to_resolve = true;	/* pass 2b resolves it */
	return 0;
}
