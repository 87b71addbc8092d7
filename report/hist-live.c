/*
 * hist-live - perf's entry trees replayed batch by batch as the samples come
 * (hists__live_start(), hists__live_replay(): a group whose keys' classes are still
 * consistent keeps what its first sample touched and only sums the others), the room
 * the counter reserves for the replayer (hists__reserve(), hists__reserve_steps(),
 * hists__drop_replayed()), and the builder's order (hist_builder__order(): the live
 * replay taken, or the whole replay made now, then collapsed and ordered).
 */
#include "report/hist.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, realloc */
#include <string.h>	/* memmove */

#include "report/callchain.h"
#include "report/hist-internal.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "banned.h"

/* ---- the live replay (hists__live_start()) ------------------------------------ */

/*
 * The live replay cannot wait for the whole recording to decide which groups are
 * stable (mark_stable()), so it decides as it goes: a group's first sample adds its
 * unresolved addresses to their classes, and while every class the group's keys lie
 * in is consistent with the addresses seen so far, perf's searches for its keys find
 * what a hash would (classes_decide(): the tree holds only keys seen so far), so every
 * later sample finds the entries its first one found.  Such a group keeps what its
 * first sample touched (its memo) and only sums the periods of the others, counted
 * into those entries when the replay is taken (hist_builder__apply()).  Once one of its
 * classes breaks (a class never mends), its later samples are replayed one by one as
 * perf searches for them; the sums so far still go to the memo's entries, which they
 * found at their time.
 */
enum live_state { LIVE_NEW, LIVE_MEMO, LIVE_EACH };

struct live_group {
	uint32_t first, nr;		/* its memo: touches in hist_live.touch */
	uint32_t cls_first, cls_nr;	/* its keys' classes in hist_live.cls */
	uint32_t flips;			/* hist_live.flips when its classes were last
					 * seen consistent */
	uint8_t state;			/* enum live_state */
	uint64_t period, count;		/* LIVE_MEMO: samples not counted yet */
};

struct hist_live {
	struct hist_builder b;
	struct hists_print_opts o;	/* as hists__fprintf() hands them to the
					 * builder (chains and cc cleared when
					 * unused) */
	struct callchain_param cc;	/* o.cc points here (or is NULL) */
	bool hash_safe;			/* sl->hash_safe at the start */
	size_t nr_done;			/* steps replayed */
	uint32_t *ids;			/* hist_builder__step()'s scratch, for chains of */
	long *cache;			/* up to cap_depth frames */
	uint32_t cap_depth;
	struct live_group *g;		/* per group of the histogram */
	size_t cap_g, g_mapped;		/* (g_mapped: util/hugemem.h) */
	struct touch_list touch;	/* the memos */
	struct classes c;		/* the unresolved keys' classes so far */
	struct u32_list cls;		/* the groups' classes (live_group.cls_*) */
	bool *broken;			/* per class index: broken */
	size_t cap_broken;
	uint32_t flips;			/* classes broken so far */
};

void hists__live_free(struct hists *h)
{
	if (!h->live)
		return;
	hist_builder__exit(&h->live->b);
	free(h->live->ids);
	free(h->live->cache);
	hugemem__free(h->live->g, h->live->g_mapped);
	hugemem__free(h->live->touch.v, h->live->touch.mapped);
	free(h->live->c.v);
	free(h->live->cls.v);
	free(h->live->broken);
	free(h->live);
	h->live = NULL;
}

int hists__live_start(struct hists *h, const struct hists_print_opts *o)
{
	struct hist_live *l = calloc(1, sizeof(*l));
	bool graphs = o->cc && o->cc->mode != CALLCHAIN_NONE && h->has_callchains &&
		      o->chains;	/* hist-print.c's prints_graphs() */

	if (!l)
		return -ENOMEM;
	hist_builder__init(&l->b, h->sl, o);
	l->o = *o;
	l->hash_safe = h->sl->hash_safe;
	if (!h->has_callchains || !o->chains)
		l->o.chains = NULL;
	l->o.cc = NULL;
	if (graphs) {
		l->cc = *o->cc;
		l->o.cc = &l->cc;
	}
	hists__live_free(h);
	h->live = l;
	return 0;
}

/* The state of group gi's next sample (see above); -ENOMEM. */
static int live_state(struct hist_live *l, struct hists *h, uint32_t gi)
{
	struct live_group *lg = &l->g[gi];
	const struct sort_list *sl = l->b.sl;
	size_t first = l->cls.nr;
	int r;

	if (lg->state == LIVE_EACH || (lg->state == LIVE_MEMO && lg->flips == l->flips))
		return lg->state;
	if (lg->state == LIVE_MEMO) {	/* classes broke since: one of its own? */
		for (uint32_t i = 0; i < lg->cls_nr; i++)
			if (l->broken[l->cls.v[lg->cls_first + i]])
				return LIVE_EACH;
		lg->flips = l->flips;
		return LIVE_MEMO;
	}
	if (!sl->hash_safe)	/* nothing is found by hash (mark_stable()) */
		return LIVE_EACH;
	if (!(sl->need & SORT_NEED_SYM))
		return LIVE_MEMO;
	r = hist_builder__live_keys(&l->b, h, &l->o, &h->groups[gi], l->ids, &l->c, &l->cls,
				    &l->broken, &l->cap_broken, &l->flips);
	if (r < 0)
		return r;
	if (r) {
		l->cls.nr = first;
		return LIVE_EACH;
	}
	lg->cls_first = (uint32_t)first;
	lg->cls_nr = (uint32_t)(l->cls.nr - first);
	lg->flips = l->flips;
	return LIVE_MEMO;
}

/* One sample of group gi, as perf adds it. */
static int live_step(struct hist_live *l, struct hists *h, uint32_t gi, uint64_t period)
{
	struct live_group *lg = &l->g[gi];
	struct hist_group *g = &h->groups[gi];
	int state = live_state(l, h, gi);
	size_t first = l->touch.nr;
	int err = 0;

	if (state < 0)
		return state;
	if (lg->state == LIVE_MEMO && state == LIVE_MEMO) {
		lg->period += period;
		lg->count++;
		return 0;
	}
	if (lg->state == LIVE_MEMO) {
		/* broken now: the samples so far found the memo's entries; the items
		 * its first sample made without hashing are hashed for the next */
		hist_builder__apply(&l->b, l->touch.v + lg->first, lg->nr, lg->period, lg->count);
		for (uint32_t i = 0; i < lg->nr && !err; i++)
			if (l->touch.v[lg->first + i].occ != UINT32_MAX)
				err = hist_builder__occ_hash(&l->b, l->touch.v[lg->first + i].occ);
	}
	g->stable = lg->state == LIVE_NEW && state == LIVE_MEMO;	/* items merged? */
	if (!err && g->stable) {
		err = hist_builder__step(&l->b, h, &l->o, gi, period, 1, l->ids, l->cache,
					 &l->touch);
		lg->first = (uint32_t)first;
		lg->nr = (uint32_t)(l->touch.nr - first);
	} else if (!err) {
		err = hist_builder__step(&l->b, h, &l->o, gi, period, 1, l->ids, l->cache, NULL);
	}
	lg->state = (uint8_t)state;
	lg->period = lg->count = 0;
	return err;
}

/* Steps nr_samples samples may take (two for a period of 2^32 or more). */
static size_t steps_for(size_t nr_samples)
{
	return nr_samples > SIZE_MAX / 2 ? SIZE_MAX : 2 * nr_samples;
}

int hists__reserve_steps(struct hists *h, size_t nr_samples)
{
	size_t k = h->nr_steps - h->steps_base, n = steps_for(nr_samples);

	if (n > SIZE_MAX - k)
		return -ENOMEM;
	return hugemem__grow(&h->steps, &h->cap_steps, &h->steps_mapped, k + n,
			     sizeof(*h->steps), 1024);
}

bool hists__has_room(const struct hists *h, size_t nr_samples, size_t nr_ips)
{
	return h->cap_steps - (h->nr_steps - h->steps_base) >= steps_for(nr_samples) &&
	       h->cap_groups - h->nr_groups >= nr_samples &&
	       h->cap_ips - h->nr_ips >= nr_ips;
}

int hists__reserve(struct hists *h, size_t nr_samples, size_t nr_ips)
{
	if (hists__reserve_steps(h, nr_samples) ||
	    hugemem__grow(&h->groups, &h->cap_groups, &h->groups_mapped,
			  h->nr_groups + nr_samples, sizeof(*h->groups), 1024) ||
	    hugemem__grow(&h->ips, &h->cap_ips, &h->ips_mapped, h->nr_ips + nr_ips,
			  sizeof(*h->ips), 4096))
		return -ENOMEM;
	return 0;
}

void hists__drop_replayed(struct hists *h)
{
	size_t done, left;

	if (!h->live || (done = h->live->nr_done) == h->steps_base)
		return;
	left = h->nr_steps - done;
	if (left)
		memmove(h->steps, h->steps + (done - h->steps_base), left * sizeof(*h->steps));
	h->steps_base = done;
}

int hists__live_replay(struct hists *h, size_t upto)
{
	struct hist_live *l = h->live;
	int err = 0;

	if (!l)
		return 0;
	while (l->nr_done < upto && !err) {
		size_t k = l->nr_done - h->steps_base;
		uint64_t period;
		uint32_t gi = hist_step__next(h->steps, &k, &period);
		struct hist_group *g = &h->groups[gi];
		uint32_t d = l->o.chains ? callchains__depth(l->o.chains, g->s.chain) : 0;

		if (gi >= l->cap_g &&
		    hugemem__grow_zeroed(&l->g, &l->cap_g, &l->g_mapped, (size_t)gi + 1,
					 sizeof(*l->g), 1024))
			return -ENOMEM;

		if (d >= l->cap_depth) {
			uint32_t cap = d + 64;
			uint32_t *ids = realloc(l->ids, ((size_t)cap + 1) * sizeof(*ids));
			long *cache;

			if (ids)
				l->ids = ids;
			cache = ids ? realloc(l->cache, ((size_t)cap + 2) * sizeof(*cache)) : NULL;
			if (!cache)
				return -ENOMEM;
			l->cache = cache;
			l->cap_depth = cap;
		}
		err = live_step(l, h, gi, period);
		l->nr_done = h->steps_base + k;
	}
	return err;
}

/* The live replay's entries into b, when made for these options (the rest of the
 * samples replayed first): 0, -ENOMEM, or 1 when there is none to take (dropped). */
static int live_take(struct hist_builder *b, struct hists *h, const struct hists_print_opts *o)
{
	struct hist_live *l = h->live;
	int err;

	if (!l)
		return 1;
	if (o->children != l->o.children || o->chains != l->o.chains ||
	    !o->cc != !l->o.cc || (o->cc && o->cc->mode != l->o.cc->mode) ||
	    b->sl != l->b.sl || b->sl->hash_safe != l->hash_safe) {
		hists__live_free(h);
		/* the dropped samples cannot be replayed again */
		return h->steps_base ? -EINVAL : 1;
	}
	if ((err = hists__live_replay(h, h->nr_steps)))
		return err;
	for (size_t i = 0; i < h->nr_groups && i < l->cap_g; i++) {
		const struct live_group *lg = &l->g[i];

		if (lg->state == LIVE_MEMO && lg->count)
			hist_builder__apply(&l->b, l->touch.v + lg->first, lg->nr, lg->period,
					    lg->count);
	}
	hist_builder__exit(b);
	*b = l->b;
	l->b = (struct hist_builder){ .sl = b->sl };
	rbtree__init(&l->b.in);
	hists__live_free(h);
	return 0;
}

/* Entries in perf's output order (`resort`; else in its collapsed tree's order, the
 * tree left in b->in); *n receives their number. */
int hist_builder__order(struct hist_builder *b, struct hists *h,
			const struct hists_print_opts *o, bool graphs, uint32_t **order,
			size_t *n, bool resort)
{
	uint32_t *stack = NULL;
	struct sort_ctx ctx = {
		.depth_ties = graphs,
		.caller_first = graphs && o->cc->order == CALLCHAIN_CALLER,
	};
	int err = live_take(b, h, o);

	if (err > 0)	/* not replayed live */
		err = hist_builder__run(b, h, o);
	if (!err && b->sl->total_order)
		hist_builder__inline_rename(b);
	*order = NULL;
	if (!err) {
		*order = malloc((b->nr ? b->nr : 1) * sizeof(**order));
		stack = malloc((b->nr ? b->nr : 1) * sizeof(*stack));
		b->alias = malloc((b->nr ? b->nr : 1) * sizeof(*b->alias));
		if (!*order || !stack || !b->alias)
			err = -ENOMEM;
	}
	if (!err) {
		*n = hist_builder__collapse(b, *order, stack);
		if (resort)
			hist_builder__output_order(b, &ctx, &b->in, *order, *n, stack);
	}
	free(stack);
	return err;
}

void hist_builder__init(struct hist_builder *b, const struct sort_list *sl,
			const struct hists_print_opts *o)
{
	*b = (struct hist_builder){ .sl = sl, .cgroup_path = o->cgroup_path,
				    .cgroup_ctx = o->cgroup_ctx, .wq = o->wq };
	rbtree__init(&b->in);
}
