/*
 * engine-count - pass 3 of `dirreport --stdio` (docs/pipeline.md): a batch's unwound
 * frames expanded into their inlined functions, its chains interned (the parent key's
 * matches found), its samples counted into the histograms, in order
 * (report__count_batch()); on the counter thread, one batch behind the passes 1-2 of
 * the next, and perf's entry trees replayed live on the replayer thread behind it
 * (report__counter_start(), report__counter_hand(), report__counter_stop()).  By
 * default the counter hands each batch's counting to the workers, each thread into
 * chains and histograms of its own, merged once at the end (struct count_parts).
 */
#define DIRREPORT_IN_REPORT
#include "report/engine-internal.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <regex.h>	/* regexec */
#include <stdlib.h>	/* calloc, free, malloc, realloc */
#include <string.h>	/* memcpy, strcmp */

#include "format/evlist.h"
#include "format/feature.h"	/* struct feat_cpu_topology */
#include "machine/srcline.h"
#include "reader/session.h"
#include "report/branch.h"
#include "report/callchain.h"
#include "report/hist.h"
#include "report/sort.h"
#include "resolve/filter.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "util/strtab.h"
#include "util/workqueue.h"
#include "banned.h"

/* perf: a sample's socket is its cpu's in the CPU_TOPOLOGY feature, else -1. */
static int32_t socket_of(const struct report *rp, int32_t cpu)
{
	if (cpu < 0 || !rp->topo || !rp->topo->has_cpus ||
	    (uint32_t)cpu >= rp->topo->nr_cpus)
		return -1;
	return (int32_t)rp->topo->cpus[cpu].socket_id;
}

/*
 * Where pass 3 counts a sample: the report's chains and histograms, or (counted on
 * the workers: struct count_parts) a thread's own, merged once at the end.
 */
struct count_target {
	struct callchains *chains;	/* NULL without callchains */
	struct hists *hists;		/* one per event */
	uint64_t *ips;			/* one sample's chain addresses */
	size_t cap_ips;
	uint64_t seq;			/* the sample's delivery position (partials) */
};

static int grow_ips(struct count_target *t, size_t n)
{
	uint64_t *v;

	if (n <= t->cap_ips)
		return 0;
	v = realloc(t->ips, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->ips = v;
	t->cap_ips = n;
	return 0;
}

static uint64_t sym_hash(const struct symbol *sym)
{
	return report__ptr_hash(sym);
}

static uint64_t parent_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return sym_hash(((const struct parent_slot *)slot)->sym);
}

/* The batch's spare array, filled with @p nr frames, becomes its frames. */
static void swap_frames(struct report_batch *b, size_t nr)
{
	struct pending_frame *t = b->frames;
	size_t cap = b->cap_frames, mapped = b->frames_mapped;

	b->frames = b->spare;
	b->cap_frames = b->cap_spare;
	b->frames_mapped = b->spare_mapped;
	b->nr_frames = nr;
	b->spare = t;
	b->cap_spare = cap;
	b->spare_mapped = mapped;
}

static uint64_t inline_sym_hash(const void *ctx, const void *slot)
{
	const struct inline_sym *is = slot;

	(void)ctx;
	return sym_hash(is->base) ^ str__hash(is->name);
}

/* perf's new_inline_sym(): the frame's own symbol for its own name, else a symbol of
 * that name over the same range marked inlined, one per (symbol, name); NULL on
 * ENOMEM. */
static const struct symbol *inline_sym(struct report *rp, const struct symbol *base,
				       const char *name, size_t len)
{
	char buf[1024];
	struct inline_sym *is;
	size_t i;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	if (!strcmp(buf, base->name))
		return base;
	name = strtab__intern(&rp->inl_names, buf);
	if (!name || hashtab__reserve(&rp->inl_syms, &rp->inl_cap, rp->nr_inl,
				      sizeof(*rp->inl_syms), 256, inline_sym_hash, NULL))
		return NULL;
	i = hashtab__first(sym_hash(base) ^ str__hash(name), rp->inl_cap);
	for (; (is = &rp->inl_syms[i])->sym; i = hashtab__next(i, rp->inl_cap))
		if (is->base == base && is->name == name)
			return &is->sym->sym;
	is->sym = malloc(sizeof(*is->sym));
	if (!is->sym)
		return NULL;
	*is->sym = (struct inline_symbol){
		.sym = { .start = base->start, .end = base->end, .name = name,
			 .binding = base->binding, .type = base->type, .inlined = 1 },
		.base = base,
	};
	is->base = base;
	is->name = name;
	rp->nr_inl++;
	return &is->sym->sym;
}

/* An inline record's FILE:LINE, interned. */
static const char *inline_where(struct report *rp, const char *w, size_t len)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%.*s", (int)len, w);
	return strtab__intern(&rp->inl_names, buf);
}

/*
 * Pass 3's first step (the counter thread, or this one without workers): perf's
 * append_inlines() for the unwound frames (only those: machine.c's unwind_entry())
 * that have a symbol: each becomes one frame per function addr2line -i names at its
 * address (looked up in pass 2d), in the cursor's order (the innermost first from
 * the callee).  The batch's chains, unwound frames included, are written out into
 * its spare array, which becomes its frames.
 */
static int expand_inlines(struct report *rp, struct report_batch *b)
{
	size_t out = 0;

	if (!b->unwound)
		return 0;
	for (size_t k = 0; k < b->nr_pending; k++) {
		struct pending *pd = &b->pending[k];
		size_t first = out;

		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			const struct pending_frame *pf = report__frame_at(rp, b, pd, j);
			const char *text = pf->unwound && pf->inl_text ? pf->inl_text : "";
			struct inline_record rec[INLINE_RECORDS_MAX];
			size_t n;

			n = srclines__inline_records(text, rec, INLINE_RECORDS_MAX);
			if (hugemem__grow(&b->spare, &b->cap_spare, &b->spare_mapped,
					  out + (n ? n : 1), sizeof(*b->spare), 4096))
				return -ENOMEM;
			if (!n) {
				b->spare[out++] = *pf;
				continue;
			}
			for (size_t m = 0; m < n; m++) {
				size_t x = rp->order == CALLCHAIN_CALLER ? n - 1 - m : m;
				const struct symbol *sym = inline_sym(rp, pf->sym, rec[x].name,
								      rec[x].name_len);

				if (!sym)
					return -ENOMEM;
				b->spare[out] = *pf;
				b->spare[out].sym = sym;
				/* perf's node srcline: the record's place */
				b->spare[out].srcline = inline_where(rp, rec[x].where,
								     rec[x].where_len);
				if (!b->spare[out++].srcline)
					return -ENOMEM;
			}
		}
		pd->first_frame = first;
		pd->nr_frames = out - first;
		pd->nr_user = 0;	/* written out with the others */
	}
	swap_frames(b, out);
	return 0;
}

/* perf's symbol__match_regex() on the parent regex, remembered per symbol; -1 on
 * ENOMEM. */
static int parent_match(struct report *rp, const struct symbol *sym)
{
	size_t i;

	if (hashtab__reserve(&rp->parent_cache, &rp->parent_cap, rp->nr_parent,
			     sizeof(*rp->parent_cache), 256, parent_slot_hash, NULL))
		return -1;
	i = hashtab__first(sym_hash(sym), rp->parent_cap);
	for (; rp->parent_cache[i].sym; i = hashtab__next(i, rp->parent_cap))
		if (rp->parent_cache[i].sym == sym)
			return rp->parent_cache[i].match;
	rp->parent_cache[i].sym = sym;
	rp->parent_cache[i].match = !regexec(&rp->parent_re, symbol__name(sym), 0, NULL, 0);
	rp->nr_parent++;
	return rp->parent_cache[i].match;
}

/* The chain node of a pending sample's frames, and their addresses (into ips); *nr
 * receives how many frames it has (with -U perf leaves out the unresolved ones:
 * add_callchain_ip), *parent the first resolved frame, in cursor order, that matches
 * the parent regex (perf's add_callchain_ip; NULL without the parent key). */
static int intern_chain(struct report *rp, struct callchains *chains,
			const struct report_batch *b, const struct pending *pd, uint32_t *node,
			uint64_t *ips, uint32_t *nr, const struct symbol **parent)
{
	*node = CALLCHAIN_ROOT;
	*nr = 0;
	*parent = NULL;
	for (size_t k = 0; k < pd->nr_frames + pd->nr_user; k++) {
		const struct pending_frame *pf = report__frame_at(rp, b, pd, k);
		struct cc_frame f = {
			.dso = pf->dso, .ip = pf->ip, .level = pf->level,
			.map_start = pf->map_start, .map_end = pf->map_end,
			.map_pgoff = pf->map_pgoff,
		};

		f.sym = pf->sym;	/* looked up in pass 2 */
		if (!f.sym && rp->opts->hide_unresolved)
			continue;
		ips[(*nr)++] = pf->ip;
		/* perf matches the parent regex in add_callchain_ip() only, not in the
		 * unwound entries (unwind_entry()) */
		if (f.sym && rp->parent_on && !*parent && !pf->unwound) {
			int m = parent_match(rp, f.sym);

			if (m < 0)
				return -ENOMEM;
			if (m)
				*parent = f.sym;
		}
		if (f.sym)
			f.sym_unmapped_start = pf->map_start + f.sym->start - pf->map_pgoff;
		if (f.sym && f.sym->inlined)	/* see cc_frame.map_id */
			f.map_id = pf->map_id;
		if (pf->srcline && (rp->opts->cc.key != CALLCHAIN_KEY_FUNCTION ||
				    ((rp->sl.need & SORT_NEED_SRCLINE) && f.sym->inlined))) {
			/* an inline record's place (with the function key only an
			 * inlined function's: its frames match by name anyway) */
			f.srcline = pf->srcline;
		} else if (rp->opts->cc.key != CALLCHAIN_KEY_FUNCTION && pf->dso) {
			int err;

			f.srcline = srclines__callchain(rp->srclines, pf->dso, f.sym, pf->addr,
						       rp->opts->cc.key == CALLCHAIN_KEY_ADDRESS,
						       &err);
			if (err)
				return err;
		}
		if (callchains__append(chains, *node, &f, node))
			return -ENOMEM;
	}
	return 0;
}

/* One end of a pending branch as its entries keep it. */
static struct hist_branch_end branch_end(const struct addr_location *al, uint64_t ip)
{
	return (struct hist_branch_end){
		.dso = al->dso, .sym = al->sym, .addr = ip, .al_addr = al->addr,
		.sym_unmapped_start = al->sym_unmapped_start, .level = al->level,
	};
}

/*
 * Branch view: the sample counted once per branch (perf's hist_iter_branch), each
 * time as its branch's target (perf's al: map, symbol and the raw address), with a
 * period of 1 and, as perf's iterator leaves it, the first branch's cycles (or 1) as
 * its weight; no call graph.  -U skips branches with an unresolved end.
 */
static int count_branches(struct report *rp, struct count_target *t,
			  const struct report_batch *b, const struct pending *pd,
			  struct hist_sample *hs)
{
	struct hist_branch hb;
	int err = 0;

	hs->chain = CALLCHAIN_ROOT;
	hs->ips = NULL;
	hs->nr_ips = 0;
	hs->period = 1;
	hs->weight = 1;
	if (pd->nr_branches && branch_flags__cycles(b->branches[pd->first_branch].flags))
		hs->weight = branch_flags__cycles(b->branches[pd->first_branch].flags);
	hs->branch = &hb;
	for (size_t i = 0; i < pd->nr_branches && !err; i++) {
		const struct pending_branch *pb = &b->branches[pd->first_branch + i];

		if (rp->opts->hide_unresolved && !(pb->from.sym && pb->to.sym))
			continue;
		hb = (struct hist_branch){
			.from = branch_end(&pb->from, pb->from_ip),
			.to = branch_end(&pb->to, pb->to_ip), .flags = pb->flags,
		};
		hs->dso = pb->to.dso;
		hs->sym = pb->to.sym;
		hs->addr = pb->to_ip;
		hs->sym_unmapped_start = pb->to.sym_unmapped_start;
		hs->map_start = pb->to.dso ? pb->to.map_start : 0;
		hs->map_end = pb->to.dso ? pb->to.map_end : 0;
		hs->map_pgoff = pb->to.dso ? pb->to.map_pgoff : 0;
		err = hists__add(&t->hists[pd->evsel_idx], hs);
	}
	return err;
}

/* Pass 3 for a sample: its symbol (and its frames'), its chain, counted. */
static int count_sample(struct report *rp, struct count_target *t,
			const struct report_batch *b, struct pending *pd)
{
	struct hist_sample hs;
	int err = 0;

	if (rp->opts->hide_unresolved && !pd->al.sym)
		return 0;
	if (rp->opts->mem_mode) {	/* dal's symbol: report__finish_lookups() */
		struct pending_ext *pe = report_batch__ext(b, pd);

		pe->mem.dso = pe->dal.dso;
		pe->mem.sym = pe->dal.sym;
		pe->mem.sym_unmapped_start = pe->dal.sym_unmapped_start;
	}
	hs = (struct hist_sample){
		.comm = pd->comm,
		.dso = pd->al.dso,
		.sym = pd->al.sym,
		.addr = pd->al.addr,
		.sym_unmapped_start = pd->al.sym_unmapped_start,
		.map_start = pd->al.dso ? pd->al.map_start : 0,
		.map_end = pd->al.dso ? pd->al.map_end : 0,
		.map_pgoff = pd->al.dso ? pd->al.map_pgoff : 0,
		.time = rp->time_quantum ? pd->time / rp->time_quantum *
					       rp->time_quantum : pd->time,
		.weight = pd->weight,
		.cgroup = pd->cgroup,
		.code_page_size = pd->code_page_size,
		.cgroup_dev = pd->cgroup_dev,
		.cgroup_ino = pd->cgroup_ino,
		.ins_lat = pd->ins_lat,
		.p_stage_cyc = pd->p_stage_cyc,
		.trace = pd->trace,
		.cpu = pd->cpu,
		.socket = socket_of(rp, pd->cpu),
		.level = pd->al.level,
		.cpumode = pd->cpumode,
		.thread = pd->thread,
		.period = pd->period,
		.seq = t->seq,
		.filtered = pd->filtered |
			    (sample_filter__symbol(&rp->filter, &pd->al, pd->ip) ? FILTER_SYMBOL : 0),
	};
	if (rp->opts->mem_mode)	/* else none (zeros) */
		hs.mem = &report_batch__ext(b, pd)->mem;
	if (pd->nr_frames + pd->nr_user) {
		err = grow_ips(t, pd->nr_frames + pd->nr_user);
		if (!err && t->chains != rp->chains)	/* a thread's own: tracked */
			callchains__set_seq(t->chains, t->seq);
		if (!err)
			err = intern_chain(rp, t->chains, b, pd, &hs.chain, t->ips, &hs.nr_ips,
					   &hs.parent);
		hs.ips = t->ips;
	}
	/* perf's symbol__parent_filter(): -x hides entries without a parent
	 * match (without the parent key no entry has one) */
	if (rp->opts->exclude_other && !hs.parent)
		hs.filtered |= FILTER_PARENT;
	if (!err && rp->branch_mode)
		err = count_branches(rp, t, b, pd, &hs);
	else if (!err)
		err = hists__add(&t->hists[pd->evsel_idx], &hs);
	return err;
}

/*
 * Pass 3 on the workers: where every group's samples are counted at once
 * (hists__mergeable(): a total order; no live replay), each thread counts its share of
 * a batch's samples into chains and histograms of its own, the samples' delivery
 * positions with them, and report__count_merge() merges them once, in the order of
 * their first samples (callchains__merge(), hists__merge()): the chains and groups
 * one thread counting every sample in order makes.  Not where counting a sample
 * writes what the report shares: the parent key's regex cache and the srcline and
 * address callchain keys' source lines.  A thread takes one slot the first time it
 * counts (thread-local: which report's, which slot); parallel_for() gives each thread
 * its items in increasing order, and batches are counted one after the other, so each
 * slot sees its samples in delivery order, as callchains__set_seq() requires.
 */
struct count_parts {
	struct count_target *v;		/* the slots */
	size_t cap;			/* the workers, the counter thread and one more */
	atomic_uint taken;
	unsigned gen;			/* this report's, among the process's */
	size_t nr_hists;
	uint64_t batches;		/* counted so far */
};

/* Pending samples a counting job takes. */
#define COUNT_CHUNK 512

static atomic_uint count_gens;
static _Thread_local struct { unsigned gen, slot; } count_tls;

struct count_job {
	struct report *rp;
	struct report_batch *b;
	atomic_int err;
};

/* This thread's slot of rp's partials; NULL when none is left (cannot happen: each
 * thread that runs a counting job is a worker or the counter). */
static struct count_target *count_slot(struct report *rp)
{
	struct count_parts *cp = rp->count_parts;
	unsigned k;

	if (count_tls.gen != cp->gen) {
		k = atomic_fetch_add(&cp->taken, 1);
		if (k >= cp->cap)
			return NULL;
		count_tls.gen = cp->gen;
		count_tls.slot = k;
	}
	return &cp->v[count_tls.slot];
}

static void count_chunk(void *ctx, size_t k)
{
	struct count_job *j = ctx;
	struct report *rp = j->rp;
	struct report_batch *b = j->b;
	struct count_target *t = count_slot(rp);
	size_t hi = (k + 1) * COUNT_CHUNK < b->nr_pending ? (k + 1) * COUNT_CHUNK
							  : b->nr_pending;
	int err = t ? 0 : -EINVAL;

	for (size_t i = k * COUNT_CHUNK; i < hi && !err && !atomic_load(&j->err); i++) {
		if (b->pending[i].hole)
			continue;
		t->seq = rp->count_parts->batches << 32 | i;
		err = count_sample(rp, t, b, &b->pending[i]);
	}
	if (err) {
		int none = 0;

		atomic_compare_exchange_strong(&j->err, &none, err);
	}
}

/* Pass 3 of a batch: its unwound frames expanded into their inlined functions
 * (which may read DWARF: on the counter thread, beside the next batch's passes 1-2),
 * then its samples counted (in order, or on the workers: struct count_parts). */
int report__count_batch(struct report *rp, struct report_batch *b)
{
	int err = expand_inlines(rp, b);
	struct count_target t = { rp->chains, rp->hists, rp->ips, rp->cap_ips, 0 };

	if (!err && rp->count_parts) {
		struct count_job j = { .rp = rp, .b = b };

		atomic_init(&j.err, 0);
		err = parallel_for(session__workqueue(rp->session),
				   (b->nr_pending + COUNT_CHUNK - 1) / COUNT_CHUNK, count_chunk, &j);
		if (!err)
			err = atomic_load(&j.err);
		rp->count_parts->batches++;
		return err;
	}
	for (size_t i = 0; i < b->nr_pending && !err; i++)
		if (!b->pending[i].hole)
			err = count_sample(rp, &t, b, &b->pending[i]);
	rp->ips = t.ips;
	rp->cap_ips = t.cap_ips;
	/* nothing for a histogram not replayed live (report__live_setup()); with a replayer
	 * (report__counter_start()) that thread replays them */
	for (size_t i = 0; i < session__evlist(rp->session)->nr && !err &&
			   !rp->replayer; i++) {
		err = hists__live_replay(&rp->hists[i], rp->hists[i].nr_steps);
		if (!err && rp->drop_steps)
			hists__drop_replayed(&rp->hists[i]);
	}
	return err;
}

void report__count_parts_free(struct report *rp)
{
	struct count_parts *cp = rp->count_parts;

	if (!cp)
		return;
	for (size_t k = 0; cp->v && k < cp->cap; k++) {
		for (size_t i = 0; cp->v[k].hists && i < cp->nr_hists; i++)
			hists__exit(&cp->v[k].hists[i]);
		free(cp->v[k].hists);
		callchains__delete(cp->v[k].chains);
		free(cp->v[k].ips);
	}
	free(cp->v);
	free(cp);
	rp->count_parts = NULL;
}

/* Count on the workers where the report allows it (struct count_parts). */
static int count_parts_setup(struct report *rp)
{
	struct workqueue *wq = session__workqueue(rp->session);
	size_t nr = session__evlist(rp->session)->nr;
	struct count_parts *cp;

	for (size_t i = 0; i < nr; i++)
		if (rp->hists[i].live || !hists__mergeable(&rp->hists[i]))
			return 0;
	if (rp->parent_on ||
	    (rp->chains && rp->opts->cc.key != CALLCHAIN_KEY_FUNCTION))
		return 0;
	if (!(cp = calloc(1, sizeof(*cp))))
		return -ENOMEM;
	rp->count_parts = cp;
	cp->cap = workqueue__nr_workers(wq) + 2;
	cp->nr_hists = nr;
	cp->gen = atomic_fetch_add(&count_gens, 1) + 1;
	atomic_init(&cp->taken, 0);
	if (!(cp->v = calloc(cp->cap, sizeof(*cp->v))))
		return -ENOMEM;
	for (size_t k = 0; k < cp->cap; k++) {
		struct count_target *t = &cp->v[k];

		if (rp->chains) {
			if (callchains__new(&t->chains, rp->opts->cc.key))
				return -ENOMEM;
			callchains__track_seq(t->chains);
		}
		if (!(t->hists = calloc(nr ? nr : 1, sizeof(*t->hists))))
			return -ENOMEM;
		for (size_t i = 0; i < nr; i++) {
			hists__init(&t->hists[i], &rp->sl, t->chains);
			t->hists[i].has_callchains = rp->hists[i].has_callchains;
		}
	}
	return 0;
}

/* The partials merged into the report's chains and histograms, and freed. */
static int count_parts_merge(struct report *rp)
{
	struct workqueue *wq = session__workqueue(rp->session);
	struct count_parts *cp = rp->count_parts;
	struct callchains **ccs = NULL;
	struct hists **hs = NULL;
	uint32_t **maps = NULL;
	size_t n = atomic_load(&cp->taken);
	int err = 0;

	if (n > cp->cap)
		n = cp->cap;
	ccs = calloc(n ? n : 1, sizeof(*ccs));
	hs = calloc(n ? n : 1, sizeof(*hs));
	maps = calloc(n ? n : 1, sizeof(*maps));
	if (!ccs || !hs || !maps)
		err = -ENOMEM;
	for (size_t k = 0; k < n && !err && rp->chains; k++) {
		ccs[k] = cp->v[k].chains;
		if (!(maps[k] = malloc(callchains__nr_nodes(ccs[k]) * sizeof(**maps))))
			err = -ENOMEM;
	}
	if (!err && rp->chains)
		err = callchains__merge(rp->chains, ccs, n, maps, wq);
	for (size_t i = 0; i < cp->nr_hists && !err; i++) {
		for (size_t k = 0; k < n; k++)
			hs[k] = &cp->v[k].hists[i];
		err = hists__merge(&rp->hists[i], hs, n, rp->chains ? maps : NULL, wq);
	}
	for (size_t k = 0; maps && k < n; k++)
		free(maps[k]);
	free(maps);
	free(hs);
	free(ccs);
	report__count_parts_free(rp);
	return err;
}

/*
 * The counter: pass 3 (chains, histograms) on a thread of its own, one batch behind
 * the thread that resolves (passes 1 and 2), which meanwhile resolves the next batch
 * into the other buffer.  Pass 3 only reads what passes 1 and 2 made (every symbol is
 * known: report__finish_lookups()) and alone writes the chains, histograms, parent cache and
 * srclines, so the two overlap without locks but this handover.
 */
struct counter {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct report *rp;
	struct report_batch *job;	/* handed over, not counted yet; NULL: idle */
	bool quit;
	int err;			/* the first error of pass 3 */
	/*
	 * The replayer: perf's entry trees replayed (hists__live_replay()) on a
	 * thread of its own, behind the counter, which meanwhile counts the next
	 * batches into room reserved before (hists__reserve(),
	 * callchains__reserve()): the replay reads the samples and chains counted so
	 * far, which the counting then moves nowhere.  After each batch the counter
	 * publishes how far it counted (replay_hand()), and the replayer goes on to
	 * there once it is done; the two meet only where the room runs out
	 * (replay_room(): room for up to REPLAY_AHEAD batches is made at a time).  They
	 * met before each batch, and each then waited for the other about a third
	 * of the time (the file's --stdio: the counter 150 ms for the replayer, the
	 * calling thread 240 ms for the counter).  Not with --call-graph dwarf,
	 * whose inlined frames are made while a batch is counted (the counter
	 * replays then).
	 */
	bool replayer;			/* the thread runs */
	pthread_t rthread;
	pthread_mutex_t rmu;
	pthread_cond_t rcv;
	size_t *upto;			/* per event: replay up to this sample (the
					 * samples counted so far) */
	size_t *rupto;			/* the replayer's copy of upto */
	size_t ahead;			/* batches of steps replay_room() makes room
					 * for (the counter's) */
	bool rbusy, rquit;
	int rerr;			/* the first error of the replay */
};

static void *replayer_main(void *arg)
{
	struct counter *c = arg;
	size_t nr = session__evlist(c->rp->session)->nr;

	(void)pthread_setname_np(pthread_self(), "dr-replayer");	/* for perf, top, gdb */
	pthread_mutex_lock(&c->rmu);
	for (;;) {
		bool more = false;
		int err = 0;

		while (!c->rbusy && !c->rquit)
			pthread_cond_wait(&c->rcv, &c->rmu);
		if (!c->rbusy)
			break;
		memcpy(c->rupto, c->upto, nr * sizeof(*c->rupto));
		pthread_mutex_unlock(&c->rmu);
		for (size_t i = 0; i < nr && !err; i++)
			err = hists__live_replay(&c->rp->hists[i], c->rupto[i]);
		pthread_mutex_lock(&c->rmu);
		if (err && !c->rerr)
			c->rerr = err;
		/* the batches counted meanwhile, if any, at once */
		for (size_t i = 0; i < nr && !err; i++)
			more |= c->upto[i] != c->rupto[i];
		if (!more) {
			c->rbusy = false;
			pthread_cond_broadcast(&c->rcv);
		}
	}
	pthread_mutex_unlock(&c->rmu);
	return NULL;
}

/* Wait for the replayer (its error, if any). */
static int replay_wait(struct counter *c)
{
	int err;

	pthread_mutex_lock(&c->rmu);
	while (c->rbusy)
		pthread_cond_wait(&c->rcv, &c->rmu);
	err = c->rerr;
	pthread_mutex_unlock(&c->rmu);
	return err;
}

/* Before counting batch b: room for its samples and chains.  Where the room made
 * before holds them, the replayer goes on meanwhile; else, once it is idle, the
 * steps it replayed are let go and room made: for the steps of c->ahead batches
 * like b (8 bytes a sample), and for the new groups and chains of GROUPS_AHEAD
 * (their arrays grow by doubling, so they run out of room seldom).  With room for
 * one batch at a time the two threads met before each batch, each waiting for the
 * other about a third of the time; with 4 batches the counter still waited for the
 * replayer to catch up every 4 (150 ms for the file's --stdio); with 64, 12-40 ms.
 * c->ahead starts at REPLAY_AHEAD_FIRST (4) and becomes REPLAY_AHEAD the first
 * time the replayer is still busy when the room runs out: a replayer that keeps up
 * (the flat report's) keeps 4 batches of steps, not 64 (8 MB of 8192-sample batches
 * when a step took 16 bytes: the file's flat report 70 -> 64 MB peak RSS).
 * (Doubling from 4 instead took most of the file's 66 batches to get there: its
 * --stdio was 2-5 % slower.) */
#define REPLAY_AHEAD_FIRST 4
#define REPLAY_AHEAD 64
#define GROUPS_AHEAD 4

static int replay_room(struct counter *c, const struct report_batch *b)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr, nr_ips = 0;
	bool room;
	int err;

	/* the steps the replayer is done with let go while it is idle: a replayer that
	 * keeps up leaves few, so the same pages hold the next batches' */
	if (rp->drop_steps) {
		bool idle;

		pthread_mutex_lock(&c->rmu);
		idle = !c->rbusy;
		pthread_mutex_unlock(&c->rmu);
		for (size_t i = 0; i < nr && idle; i++)
			hists__drop_replayed(&rp->hists[i]);
	}
	for (size_t i = 0; i < b->nr_pending; i++)
		if (!b->pending[i].hole)
			nr_ips += b->pending[i].nr_frames + b->pending[i].nr_user;
	room = !rp->chains || callchains__has_room(rp->chains, nr_ips);
	for (size_t i = 0; i < nr && room; i++)
		room = hists__has_room(&rp->hists[i], b->nr_pending, nr_ips);
	if (room)
		return 0;
	pthread_mutex_lock(&c->rmu);
	if (c->rbusy)
		c->ahead = REPLAY_AHEAD;
	pthread_mutex_unlock(&c->rmu);
	err = replay_wait(c);
	for (size_t i = 0; i < nr && !err; i++) {
		if (rp->drop_steps)	/* the replayer is idle */
			hists__drop_replayed(&rp->hists[i]);
		err = hists__reserve(&rp->hists[i], GROUPS_AHEAD * b->nr_pending,
				     GROUPS_AHEAD * nr_ips);
		if (!err)
			err = hists__reserve_steps(&rp->hists[i],
						   c->ahead * b->nr_pending);
	}
	if (!err && rp->chains)
		err = callchains__reserve(rp->chains, GROUPS_AHEAD * nr_ips);
	return err;
}

/* After counting a batch: the samples counted so far to the replayer (which takes
 * them once it is done with those it has, or at once when idle). */
static void replay_hand(struct counter *c)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr;

	pthread_mutex_lock(&c->rmu);
	for (size_t i = 0; i < nr; i++)
		c->upto[i] = rp->hists[i].nr_steps;
	if (!c->rbusy) {
		c->rbusy = true;
		pthread_cond_broadcast(&c->rcv);
	}
	pthread_mutex_unlock(&c->rmu);
}

/* Start the replayer beside counter c when some histogram is replayed live;
 * without it (no memory, no thread) the counter replays. */
static void replayer_start(struct counter *c)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr;
	bool live = false;

	for (size_t i = 0; i < nr; i++)
		live |= rp->hists[i].live != NULL;
	if (!live || rp->unwinder || !(c->upto = calloc(nr ? nr : 1, sizeof(*c->upto))))
		return;
	if (!(c->rupto = calloc(nr ? nr : 1, sizeof(*c->rupto)))) {
		free(c->upto);
		c->upto = NULL;
		return;
	}
	pthread_mutex_init(&c->rmu, NULL);
	pthread_cond_init(&c->rcv, NULL);
	if (pthread_create(&c->rthread, NULL, replayer_main, c)) {
		pthread_mutex_destroy(&c->rmu);
		pthread_cond_destroy(&c->rcv);
		free(c->upto);
		free(c->rupto);
		c->upto = c->rupto = NULL;
		return;
	}
	c->ahead = REPLAY_AHEAD_FIRST;
	c->replayer = true;
	rp->replayer = true;
}

/* Stop the replayer (after the counter): its error, if any. */
static int replayer_stop(struct counter *c)
{
	int err;

	if (!c->replayer)
		return 0;
	err = replay_wait(c);
	pthread_mutex_lock(&c->rmu);
	c->rquit = true;
	pthread_cond_broadcast(&c->rcv);
	pthread_mutex_unlock(&c->rmu);
	pthread_join(c->rthread, NULL);
	pthread_mutex_destroy(&c->rmu);
	pthread_cond_destroy(&c->rcv);
	free(c->upto);
	free(c->rupto);
	c->replayer = false;
	c->rp->replayer = false;
	return err;
}

static void *counter_main(void *arg)
{
	struct counter *c = arg;

	(void)pthread_setname_np(pthread_self(), "dr-counter");	/* for perf, top, gdb */
	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct report_batch *b;
		int err;

		while (!c->job && !c->quit)
			pthread_cond_wait(&c->cv, &c->mu);
		if (!c->job)
			break;
		b = c->job;
		pthread_mutex_unlock(&c->mu);
		err = c->err || !c->replayer ? 0 : replay_room(c, b);
		if (!err)
			err = c->err ? 0 : report__count_batch(c->rp, b);
		if (!err && !c->err && c->replayer)
			replay_hand(c);
		pthread_mutex_lock(&c->mu);
		if (err && !c->err)
			c->err = err;
		c->job = NULL;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* Start the counter; 0 with none (no workers, or no thread: pass 3 stays here). */
int report__counter_start(struct report *rp)
{
	struct counter *c;

	if (!workqueue__nr_workers(session__workqueue(rp->session)))
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->rp = rp;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	replayer_start(c);
	if (pthread_create(&c->thread, NULL, counter_main, c)) {
		replayer_stop(c);
		pthread_mutex_destroy(&c->mu);
		pthread_cond_destroy(&c->cv);
		free(c);
		return 0;
	}
	rp->counter = c;
	return count_parts_setup(rp);
}

/* Hand the current batch to the counter (once it is done with the other one), and
 * resolve the next batch into the other buffer; the counter's error, if any. */
int report__counter_hand(struct report *rp)
{
	struct counter *c = rp->counter;
	int err;

	pthread_mutex_lock(&c->mu);
	while (c->job && !c->err)
		pthread_cond_wait(&c->cv, &c->mu);
	err = c->err;
	if (!err) {
		c->job = rp->cur;
		rp->cur = rp->cur == &rp->batch[0] ? &rp->batch[1] : &rp->batch[0];
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return err;
}

/* Wait for the last batch, stop the counter; its error, if any. */
int report__counter_stop(struct report *rp)
{
	struct counter *c = rp->counter;
	int err, rerr;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	while (c->job)
		pthread_cond_wait(&c->cv, &c->mu);
	c->quit = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->thread, NULL);
	err = c->err;
	rerr = replayer_stop(c);
	if (!err)
		err = rerr;
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cv);
	free(c);
	rp->counter = NULL;
	return err;
}

int report__count_merge(struct report *rp)
{
	return rp->count_parts ? count_parts_merge(rp) : 0;
}
