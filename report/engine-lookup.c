/*
 * engine-lookup - passes 1b and 2 of `dirreport --stdio` (docs/pipeline.md): the dsos a
 * batch needs loaded on the workers (report__want_loaded(), report__finish_loads(); the
 * DWARF of --call-graph dwarf's dsos read ahead), the user stacks of --call-graph dwarf
 * samples unwound (pass 1b: report__unwind_batch()), the symbols of samples, branches
 * and frames looked up (pass 2b on the workers: report__lookup_batch(); 2c on this
 * thread: report__finish_lookups()) and the inlined functions of unwound frames (pass
 * 2d: report__lookup_inlines()).  After it every symbol of the batch is known.
 */
#define DIRREPORT_IN_REPORT
#include "report/engine-internal.h"

#include <errno.h>
#include <stdatomic.h>	/* atomic_flag_*, atomic_load, atomic_store */
#include <limits.h>	/* PATH_MAX */
#include <stdlib.h>	/* free, malloc */

#include "format/feature.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/srcline.h"
#include "machine/unwind.h"
#include "reader/session.h"
#include "report/callchain.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/workqueue.h"
#include "banned.h"

/* A dso's symbols read on a worker. */
static void load_job(void *dso)
{
	/* -ENOMEM leaves the dso unloaded: its lookups then load (and fail) again */
	(void)dso__load(dso);
}

static int queue_load(struct report *rp, struct to_load *tl)
{
	int err = workqueue__queue_group(session__workqueue(rp->session), &rp->loads,
					 load_job, tl->dso);

	tl->queued = !err;
	return err;
}

/* What a dso's inline lookups read, read ahead on a worker. */
struct dwarf_job {
	struct dso *dso;
	struct srclines *sl;
};

static void dwarf_job(void *arg)
{
	struct dwarf_job *dj = arg;

	/* -ENOMEM: pass 2d reads it (and fails) again */
	(void)srclines__prepare(dj->sl, dj->dso);
	free(dj);
}

static struct inl_dso *inl_dso_of(struct report *rp, const struct dso *dso);

/* Pass 2d will look the dso's unwound frames up: its DWARF is read from now on. */
static int queue_dwarf(struct report *rp, struct dso *dso)
{
	struct inl_dso *d = inl_dso_of(rp, dso);
	struct dwarf_job *dj;
	int err;

	if (!d)
		return -ENOMEM;
	if (d->prepared)
		return 0;
	if (!(dj = malloc(sizeof(*dj))))
		return -ENOMEM;
	dj->dso = dso;
	dj->sl = d->sl;
	err = workqueue__queue_group(session__workqueue(rp->session), &rp->dwarf, dwarf_job, dj);
	if (err)
		free(dj);
	d->prepared = !err;
	return err;
}

/*
 * The batch will need @p dso loaded.  Where the batch lets it (report__scan_mmaps()), a
 * file's load is queued at once, so a worker reads it while this thread goes on
 * replaying; report__finish_loads() waits for it.  @p dwarf: the dso's inline lookups are
 * wanted too.
 */
int report__want_loaded(struct report *rp, struct dso *dso, bool dwarf)
{
	struct to_load *tl;

	if (!dso)
		return 0;
	/* the batch's dsos first: a worker may be loading one (writing it) */
	for (size_t i = 0; i < rp->nr_to_load; i++)
		if (rp->to_load[i].dso == dso) {
			rp->to_load[i].dwarf |= dwarf;	/* if not queued yet */
			return 0;
		}
	if (dso->loaded)
		return 0;
	if (array__grow(&rp->to_load, &rp->cap_to_load, rp->nr_to_load + 1,
			sizeof(*rp->to_load), 16))
		return -ENOMEM;
	tl = &rp->to_load[rp->nr_to_load++];
	*tl = (struct to_load){ dso, dwarf, false };
	/* other kinds are loaded by the replay itself (kernel, modules) or cheap */
	if (rp->load_early && dso->kind == DSO_KIND_USER)
		return queue_load(rp, tl);
	return 0;
}

/* The DWARF of a dso with samples, read before the dso is loaded. */
struct early_dwarf {
	struct dso dso;		/* a copy: the replay may write the dso meanwhile */
	struct srclines *sl;
};

static void early_dwarf_job(void *arg)
{
	struct early_dwarf *ej = arg;
	char path[PATH_MAX];

	/* -ENOMEM: pass 2d reads it (and fails) again */
	if (!dso__symsrc_guess(&ej->dso, path, sizeof(path)))
		(void)srclines__prepare_file(ej->sl, path);
	free(ej);
}

/*
 * With --call-graph dwarf stacks, every user dso a sample hit (the BUILD_ID feature
 * names them) will have its unwound frames looked up in pass 2d, whose first lookup
 * in a file reads its DWARF (0.1 s for glibc's): those are read on the workers from
 * the start, while the records are decoded and the first batches replayed (the
 * first 256 the feature names; pass 2d reads the others' when it needs them).
 */
int report__read_dwarf_early(struct report *rp)
{
	struct dso *v[256];
	size_t n;

	if (!rp->unwinder)
		return 0;
	n = machine__build_id_dsos(rp->machine, session__features(rp->session), v,
				   sizeof(v) / sizeof(*v));
	for (size_t i = 0; i < n && i < sizeof(v) / sizeof(*v); i++) {
		struct inl_dso *d;
		struct early_dwarf *ej;
		int err;

		if (v[i]->kind != DSO_KIND_USER || v[i]->loaded)
			continue;
		if (!(d = inl_dso_of(rp, v[i])))
			return -ENOMEM;
		if (d->prepared)
			continue;
		if (!(ej = malloc(sizeof(*ej))))
			return -ENOMEM;
		ej->dso = *v[i];
		ej->sl = d->sl;
		err = workqueue__queue_group(session__workqueue(rp->session), &rp->dwarf,
					     early_dwarf_job, ej);
		if (err) {
			free(ej);
			return err;
		}
		d->prepared = true;
	}
	return 0;
}

/*
 * Pass 2a: the batch's dsos loaded, those not queued yet now, on the workers; then
 * the DWARF of those with symbols whose frames pass 2d will look up is read on the
 * workers while this thread goes on (report__lookup_inlines() waits for it).
 */
int report__finish_loads(struct report *rp)
{
	int err = 0;

	for (size_t i = 0; i < rp->nr_to_load && !err; i++)
		if (!rp->to_load[i].queued)
			err = queue_load(rp, &rp->to_load[i]);
	workqueue__group_wait(session__workqueue(rp->session), &rp->loads);
	for (size_t i = 0; i < rp->nr_to_load && !err; i++) {
		const struct to_load *tl = &rp->to_load[i];

		if (tl->dwarf && rp->unwinder && tl->dso->kind == DSO_KIND_USER &&
		    tl->dso->symtab.nr)
			err = queue_dwarf(rp, tl->dso);
	}
	rp->nr_to_load = 0;
	return err;
}

/* A frame of the unwound user stack: resolved to its map in the sample's copy of
 * the maps (only reads: see maps__copy()). */
static int unwound_frame(struct unwind_chunk *c, const struct maps *mp, uint64_t ip)
{
	struct addr_location al;

	if (array__grow(&c->frames, &c->cap, c->nr + 1, sizeof(*c->frames), 256))
		return -ENOMEM;
	maps__resolve_user(mp, ip, &al);
	c->frames[c->nr++] = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0, .unwound = true,
	};
	return 0;
}

/* Pass 1b for the pending samples [i * UNWIND_CHUNK, ...), on any worker: each
 * one's user stack unwound against its copy of the maps with a free unwinder. */
static void unwind_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct report_batch *b = rp->cur;
	/* filled in a copy of its own, written back at the end: the chunks share cache
	 * lines, and each frame writes nr */
	struct unwind_chunk cc = b->chunks[i], *c = &cc;
	struct unwind_slot *slot = NULL;
	size_t end = (i + 1) * UNWIND_CHUNK;
	struct sample smp = { 0 };	/* the fields the unwinder reads (pass 1 kept
					 * them) */

	c->nr = 0;
	c->err = 0;
	if (end > b->nr_pending)
		end = b->nr_pending;
	/* as many slots as threads can run jobs: one is free */
	for (size_t k = 0; !slot; k = (k + 1) % rp->nr_uw)
		if (!atomic_flag_test_and_set_explicit(&rp->uw[k].busy,
						       memory_order_acquire))
			slot = &rp->uw[k];
	for (size_t k = i * UNWIND_CHUNK; k < end && !c->err; k++) {
		struct pending *pd = &b->pending[k];
		const struct pending_ext *pe = report_batch__ext(b, pd);
		size_t nr = 0;

		if (!pd->unwind)
			continue;
		pd->first_user = c->nr;
		smp.user_regs_abi = pe->regs_abi;
		smp.user_regs_mask = pe->regs_mask;
		smp.user_regs = pe->regs;
		smp.user_stack_size = pe->stack_size;
		smp.user_stack_dyn_size = pe->stack_dyn_size;
		smp.user_stack = pe->stack;
		if ((c->err = unwinder__unwind(slot->u, &pe->maps, &smp, slot->ips,
					       (size_t)rp->max_stack, &nr)))
			continue;
		for (size_t f = 0; f < nr && !pd->chain_dropped && !c->err; f++)
			c->err = unwound_frame(c, &pe->maps,
					       slot->ips[rp->order == CALLCHAIN_CALLER ?
							 nr - f - 1 : f]);
		pd->nr_user = c->nr - pd->first_user;
	}
	atomic_flag_clear_explicit(&slot->busy, memory_order_release);
	b->chunks[i] = cc;
}

/*
 * Pass 1b: the user stacks of the batch's --call-graph dwarf samples unwound on the
 * workers.  Their frames stay in the chunks' arrays (report__frame_at() reads them in the
 * chain); expand_inlines() writes the chains out whole.
 */
int report__unwind_batch(struct report *rp, struct report_batch *b)
{
	size_t nr_chunks = (b->nr_pending + UNWIND_CHUNK - 1) / UNWIND_CHUNK;
	int err;

	if (!b->to_unwind)
		return 0;
	if (array__grow_zeroed(&b->chunks, &b->cap_chunks, nr_chunks, sizeof(*b->chunks), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), nr_chunks, unwind_one, rp)))
		return err;
	for (size_t i = 0; i < nr_chunks; i++)
		if (b->chunks[i].err)
			return b->chunks[i].err;
	for (size_t k = 0; k < b->nr_pending; k++) {
		const struct pending *pd = &b->pending[k];
		const struct pending_frame *user =
			&b->chunks[k / UNWIND_CHUNK].frames[pd->first_user];

		for (size_t f = 0; f < pd->nr_user; f++)
			if ((err = report__want_loaded(rp, user[f].dso, true)))
				return err;
		b->unwound |= pd->nr_user > 0;
	}
	return 0;
}

/* Samples per lookup_one() job. */
#define LOOKUP_CHUNK 512

/* Pass 2b for the pending samples [i * LOOKUP_CHUNK, ...): those without a chain that
 * pass 1 deferred resolved to their maps (the dsos they found, in rp->walk_jobs[i]),
 * then the symbols of their addresses and frames in loaded dsos (read-only lookups,
 * so on any worker); the rest is left to report__finish_lookups(), on the main thread, once
 * report__on_batch() has loaded what they found. */
static void lookup_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	size_t end = (i + 1) * LOOKUP_CHUNK;
	struct walk_job *job = rp->cur->to_resolve ? &rp->walk_jobs[i] : NULL;

	if (end > rp->cur->nr_pending)
		end = rp->cur->nr_pending;
	bool left = false;

	if (job) {
		job->nr = 0;
		job->err = 0;
	}
	for (size_t k = i * LOOKUP_CHUNK; k < end; k++) {
		struct pending *pd = &rp->cur->pending[k];

		if (pd->hole)
			continue;
		if (pd->resolve && job) {
			int err = report__resolve_deferred(rp, pd, &rp->cur->walk[k], job);

			if (err && !job->err)
				job->err = err;
		}
		pd->sym_done = addr_location__resolve_sym_loaded(&pd->al);
		left |= !pd->sym_done;
		for (size_t j = 0; j < pd->nr_branches; j++) {
			struct pending_branch *pb = &rp->cur->branches[pd->first_branch + j];
			bool from = addr_location__resolve_sym_loaded(&pb->from);

			pb->sym_done = addr_location__resolve_sym_loaded(&pb->to) && from;
			left |= !pb->sym_done;
		}
		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			struct pending_frame *pf = report__frame_at(rp, rp->cur, pd, j);

			if (pf->dso && !pf->dso->loaded) {
				left = true;
				continue;
			}
			pf->sym = pf->dso ? dso__find_symbol(pf->dso, pf->addr) : NULL;
			pf->sym_done = true;
		}
	}
	if (left)
		atomic_store_explicit(&rp->cur->leftover, true, memory_order_relaxed);
}

/* Pass 2b: lookup_one() on the workers, then the dsos of the samples it resolved
 * loaded (report__want_found(), report__finish_loads()) for report__finish_lookups(). */
int report__lookup_batch(struct report *rp)
{
	size_t jobs = (rp->cur->nr_pending + LOOKUP_CHUNK - 1) / LOOKUP_CHUNK;
	int err;

	if (rp->cur->to_resolve &&
	    array__grow_zeroed(&rp->walk_jobs, &rp->cap_walk_jobs, jobs,
			       sizeof(*rp->walk_jobs), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, lookup_one, rp)))
		return err;
	if (!rp->cur->to_resolve)
		return 0;
	if ((err = report__want_found(rp, jobs)))
		return err;
	return report__finish_loads(rp);
}

/* Pass 2c, on this thread (it may load): what pass 2 left (a dso pass 2b found and
 * report__lookup_batch() loaded only after it, a dso whose loading failed for memory - loaded
 * again here), and --mem-mode's data symbols.  After it
 * every symbol of the batch is known: pass 3 only reads. */
void report__finish_lookups(struct report *rp, struct report_batch *b)
{
	if (!atomic_load(&b->leftover) && !rp->opts->mem_mode)
		return;
	for (size_t k = 0; k < b->nr_pending; k++) {
		struct pending *pd = &b->pending[k];

		if (pd->hole)
			continue;
		if (!pd->sym_done)
			addr_location__resolve_sym(&pd->al);
		pd->sym_done = true;
		if (rp->opts->mem_mode)
			addr_location__resolve_sym(&report_batch__ext(b, pd)->dal);
		for (size_t j = 0; j < pd->nr_branches; j++) {
			struct pending_branch *pb = &b->branches[pd->first_branch + j];

			if (!pb->sym_done) {
				addr_location__resolve_sym(&pb->from);
				addr_location__resolve_sym(&pb->to);
			}
			pb->sym_done = true;
		}
		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			struct pending_frame *pf = report__frame_at(rp, b, pd, j);

			if (!pf->sym_done)
				pf->sym = pf->dso ? dso__find_symbol(pf->dso, pf->addr) : NULL;
			pf->sym_done = true;
		}
	}
}

static uint64_t inl_dso_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return report__ptr_hash(((const struct inl_dso *)slot)->dso);
}

/* The inline state of a dso, made on first use; NULL on ENOMEM. */
static struct inl_dso *inl_dso_of(struct report *rp, const struct dso *dso)
{
	size_t i;
	struct inl_dso *d;

	if (hashtab__reserve(&rp->inl_dsos, &rp->inl_dsos_cap, rp->nr_inl_dsos,
			     sizeof(*rp->inl_dsos), 64, inl_dso_hash, NULL))
		return NULL;
	i = hashtab__first(report__ptr_hash(dso), rp->inl_dsos_cap);
	for (; (d = &rp->inl_dsos[i])->dso; i = hashtab__next(i, rp->inl_dsos_cap))
		if (d->dso == dso)
			return d;
	if (srclines__new(&d->sl))
		return NULL;
	d->dso = dso;
	rp->nr_inl_dsos++;
	return d;
}

/* Pass 2d for one dso with frames in the batch, on any worker: their inlined
 * functions looked up in the dso's own srclines (one job per dso at a time). */
static void inline_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct inl_dso *d = rp->inl_busy[i];

	for (size_t k = 0; k < d->nr_todo; k++) {
		struct pending_frame *pf = d->todo[k];

		pf->inl_text = srclines__inlines(d->sl, pf->dso, pf->addr);
		if (!pf->inl_text) {
			atomic_store(&rp->inl_err, -ENOMEM);
			return;
		}
	}
}

/*
 * Pass 2d: the inlined functions of every unwound frame with a symbol (perf's
 * append_inlines() asks addr2line -i), looked up on the workers a dso per job: the
 * DWARF of each file is read there, and each dso's answers are memoized in its own
 * srclines.  expand_inlines() reads them.
 */
int report__lookup_inlines(struct report *rp, struct report_batch *b)
{
	int err;

	if (!b->unwound)
		return 0;
	rp->nr_inl_busy = 0;
	for (size_t k = 0; k < b->nr_pending; k++) {
		const struct pending *pd = &b->pending[k];

		for (size_t j = 0; j < pd->nr_user; j++) {
			struct pending_frame *pf =
				report__frame_at(rp, b, pd, rp->order == CALLCHAIN_CALLER ?
						 j : pd->nr_frames + j);
			struct inl_dso *d;

			pf->inl_text = NULL;
			if (!pf->sym || !pf->dso)
				continue;
			if (!(d = inl_dso_of(rp, pf->dso)))
				return -ENOMEM;
			if (!d->nr_todo &&
			    array__grow(&rp->inl_busy, &rp->cap_inl_busy, rp->nr_inl_busy + 1,
					sizeof(*rp->inl_busy), 16))
				return -ENOMEM;
			if (!d->nr_todo)
				rp->inl_busy[rp->nr_inl_busy++] = d;
			if (array__grow(&d->todo, &d->cap_todo, d->nr_todo + 1,
					sizeof(*d->todo), 256))
				return -ENOMEM;
			d->todo[d->nr_todo++] = pf;
		}
	}
	atomic_store(&rp->inl_err, 0);
	workqueue__group_wait(session__workqueue(rp->session), &rp->dwarf);
	err = parallel_for(session__workqueue(rp->session), rp->nr_inl_busy, inline_one, rp);
	for (size_t i = 0; i < rp->nr_inl_busy; i++)
		rp->inl_busy[i]->nr_todo = 0;
	return err ? err : atomic_load(&rp->inl_err);
}
