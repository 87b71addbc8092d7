/*
 * hist-merge - the default mode's entries made on the workers
 * (hist_builder__run_parallel(), report/hist-internal.h), and a stable sort there
 * (hist__psort(): the collapse's).
 *
 * With a total order (sort_list.total_order; hist__sortable(): one a sort may use)
 * every search finds the one entry of its key, so the entries a set of groups makes do
 * not depend on the order the groups are counted in; only the entries' numbering and
 * their first samples do.  The groups are cut into one contiguous range per thread;
 * each range's entries are made by a builder of its own on a worker (found by hash
 * only, no tree: struct hist_builder.no_tree) and sorted there.  The calling thread
 * merges the sorted ranges: equal keys meet, each key becomes one merged entry,
 * numbered as one builder counting every group would have made them (by its first
 * entry: range, then the range's own order), with that entry's fields (its first
 * sample's).  The workers then copy the merged entries and add up their counts (each
 * job a slice of the merged entries) and copy the ranges' call graph occurrences (the
 * ranges' groups differ, so no two occurrences merge); the first range's arrays are
 * taken over where its entries are the first merged ones (take_first()).  perf's
 * input tree is linked in the merged order (a total order's tree has the sorted order
 * whatever the insertions were).
 */
#include "report/hist-internal.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, qsort_r */

#include "machine/symbol.h"	/* struct symbol */
#include "report/callchain.h"
#include "report/sort.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "util/workqueue.h"
#include "banned.h"

/* One range of groups and the entries its builder made. */
struct part {
	struct hist_builder b;
	size_t g0, g1;			/* groups [g0, g1) */
	struct hist_key *keys;		/* entry i's key (where sort_list__keyed()) */
	uint32_t *sorted;		/* its entries, in the input tree's order */
	uint32_t *map;			/* entry i is merged entry map[i] */
	size_t off;			/* entries of the ranges before */
	size_t occ_off;			/* its occurrences' place in the merged ones */
	int err;
};

/* A slice of the merged entries, filled by one job. */
struct slice {
	size_t lo, hi;
	uint64_t nf_samples, nf_period;	/* its unfiltered entries' own counts */
};

struct merge {
	struct hist_builder *b;
	const struct hists *h;
	const struct hists_print_opts *o;
	uint32_t max_depth;
	struct part *p;
	size_t np;
	uint32_t *src_part, *src_idx;	/* merged entry g is p[src_part[g]]'s entry
					 * src_idx[g] */
	struct slice *s;		/* np slices of the merged entries */
	uint32_t *order;		/* the merged entries, in the input tree's
					 * order */
	size_t reused;			/* the first range's entries (and
					 * occurrences) are the merged ones' first:
					 * their arrays taken over, not copied */
};

/* perf's input tree's comparison (hist_builder__tree_findnew()) of entry i of range
 * p and entry j of range q. */
static int part_cmp(const struct part *p, uint32_t i, const struct part *q, uint32_t j)
{
	return p->keys ? sort_list__cmp_keys(p->b.sl, 0, &p->keys[i], &q->keys[j])
		       : sort_list__cmp(p->b.sl, &p->b.v[i], &q->b.v[j]);
}

static int part_qcmp(const void *pa, const void *pb, void *ctx)
{
	const struct part *p = ctx;

	return part_cmp(p, *(const uint32_t *)pa, p, *(const uint32_t *)pb);
}

/* Job: one range's entries (struct part), sorted.  Its builder finds them by hash
 * alone, and a hash is a shortcut (keys that compare equal may hash apart: an
 * inlined function's symbols by name, the data address keys): such a key may have
 * several entries here, which the merge makes one. */
static void build_part(void *ctx, size_t k)
{
	struct merge *m = ctx;
	struct part *p = &m->p[k];
	uint32_t *ids = malloc(((size_t)m->max_depth + 1) * sizeof(*ids));
	long *cache = malloc(((size_t)m->max_depth + 2) * sizeof(*cache));
	size_t n;

	hist_builder__init(&p->b, m->b->sl, m->o);
	p->b.no_tree = true;
	p->err = ids && cache ? 0 : -ENOMEM;
	for (size_t i = p->g0; i < p->g1 && !p->err; i++)
		p->err = hist_builder__step(&p->b, m->h, m->o, (uint32_t)i,
					    m->h->groups[i].period, m->h->groups[i].count,
					    ids, cache, NULL);
	free(ids);
	free(cache);
	n = p->b.nr ? p->b.nr : 1;
	if (p->err)
		return;
	p->sorted = malloc(n * sizeof(*p->sorted));
	p->map = malloc(n * sizeof(*p->map));
	if (sort_list__keyed(p->b.sl) && !(p->keys = malloc(n * sizeof(*p->keys))))
		p->err = -ENOMEM;
	if (!p->sorted || !p->map || p->err) {
		p->err = -ENOMEM;
		return;
	}
	for (size_t i = 0; i < p->b.nr; i++) {
		p->sorted[i] = (uint32_t)i;
		if (p->keys)
			hist_key__of(&p->keys[i], &p->b.v[i]);
	}
	qsort_r(p->sorted, p->b.nr, sizeof(*p->sorted), part_qcmp, p);
}

static const struct hist_entry *merged_first(const struct merge *m, uint32_t g)
{
	return &m->p[m->src_part[g]].b.v[m->src_idx[g]];
}

/*
 * The ranges' sorted entries merged: equal keys come together, and each key is one
 * merged entry, numbered in the order a single builder would have made them (by its
 * first entry: range, then the range's own order), its first entry's fields.
 * Fills each range's map, src_part/src_idx and m->order; returns the merged
 * entries' number or -ENOMEM.
 */
static long merge_map(struct merge *m)
{
	size_t total = 0, nruns = 0, nr = 0, *at = calloc(m->np, sizeof(*at));
	uint32_t *run_of, *first, *gid, *part_of;
	const struct part *pp = NULL;
	uint32_t pi = 0;

	for (size_t k = 0; k < m->np; k++) {
		m->p[k].off = total;
		total += m->p[k].b.nr;
	}
	run_of = malloc((total ? total : 1) * sizeof(*run_of));	/* by creation */
	first = malloc((total ? total : 1) * sizeof(*first));	/* by run */
	gid = malloc((total ? total : 1) * sizeof(*gid));	/* by run */
	part_of = malloc((total ? total : 1) * sizeof(*part_of));	/* by creation */
	m->src_part = malloc((total ? total : 1) * sizeof(*m->src_part));
	m->src_idx = malloc((total ? total : 1) * sizeof(*m->src_idx));
	m->order = malloc((total ? total : 1) * sizeof(*m->order));
	if (!at || !run_of || !first || !gid || !part_of || !m->src_part || !m->src_idx ||
	    !m->order) {
		free(at);
		free(run_of);
		free(first);
		free(gid);
		free(part_of);
		return -ENOMEM;
	}
	for (size_t n = 0; n < total; n++) {
		const struct part *bp = NULL;
		size_t best = m->np;
		uint32_t bi = 0, c;

		for (size_t k = 0; k < m->np; k++) {
			const struct part *p = &m->p[k];

			if (at[k] == p->b.nr)
				continue;
			if (best == m->np ||
			    part_cmp(p, p->sorted[at[k]], bp, bi) < 0) {
				best = k;
				bp = p;
				bi = p->sorted[at[k]];
			}
		}
		at[best]++;
		c = (uint32_t)(bp->off + bi);
		part_of[c] = (uint32_t)best;
		if (pp && !part_cmp(bp, bi, pp, pi)) {
			if (first[nruns - 1] > c)
				first[nruns - 1] = c;
		} else {
			first[nruns++] = c;
		}
		run_of[c] = (uint32_t)(nruns - 1);
		pp = bp;
		pi = bi;
	}
	/* the keys numbered by their first entries */
	for (size_t c = 0; c < total; c++) {
		uint32_t r = run_of[c];

		if (first[r] == c) {
			m->src_part[nr] = part_of[c];
			m->src_idx[nr] = (uint32_t)(c - m->p[part_of[c]].off);
			gid[r] = (uint32_t)nr++;
		}
		m->p[part_of[c]].map[c - m->p[part_of[c]].off] = gid[r];
	}
	for (size_t r = 0; r < nruns; r++)
		m->order[r] = gid[r];
	free(at);
	free(run_of);
	free(first);
	free(gid);
	free(part_of);
	return (long)nr;
}

/* Job k < np: range k's occurrences copied to their place; k >= np: slice k - np of
 * the merged entries, copied from their first range's and added up from all. */
static void fill(void *ctx, size_t k)
{
	struct merge *m = ctx;
	struct hist_builder *b = m->b;
	bool by_sym = (b->sl->need & SORT_NEED_SYM) != 0;
	struct slice *s;

	if (k < m->np) {
		const struct part *p = &m->p[k];
		struct hist_occurrence *to = b->occ + p->occ_off;

		if (k == 0 && m->reused)	/* in place already */
			return;
		for (size_t i = 0; i < p->b.nr_occ; i++) {
			to[i] = p->b.occ[i];
			to[i].entry = p->map[to[i].entry];
		}
		return;
	}
	s = &m->s[k - m->np];
	for (size_t g = s->lo > m->reused ? s->lo : m->reused; g < s->hi; g++) {
		struct hist_entry *e = &b->v[g];

		*e = *merged_first(m, (uint32_t)g);
		e->stat = (struct hist_stat){ 0 };
		e->stat_acc = (struct hist_stat){ 0 };
		e->max_depth = 0;
		e->map_moved = false;
	}
	for (size_t q = m->reused ? 1 : 0; q < m->np; q++) {
		const struct part *p = &m->p[q];

		for (size_t i = 0; i < p->b.nr; i++) {
			uint32_t g = p->map[i];
			const struct hist_entry *pe = &p->b.v[i];
			struct hist_entry *e;

			if (g < s->lo || g >= s->hi)
				continue;
			e = &b->v[g];
			hist_stat__merge(&e->stat, &pe->stat);
			hist_stat__merge(&e->stat_acc, &pe->stat_acc);
			if (e->max_depth < pe->max_depth)
				e->max_depth = pe->max_depth;
			/* hist-build.c's builder_found(): an inlined function's entry found
			 * from another map object than its first sample's */
			if (by_sym && e->sym && e->sym->inlined &&
			    (pe->map_moved || pe->map_id != e->map_id))
				e->map_moved = true;
		}
	}
	for (size_t g = s->lo; g < s->hi; g++) {
		const struct hist_entry *e = &b->v[g];

		/* hist_builder__step(): a sample's own entry counts it where that entry
		 * (its key's first sample) is not filtered */
		if (!e->filtered) {
			s->nf_samples += e->stat.nr_events;
			s->nf_period += e->stat.period;
		}
	}
}

/* ---- a stable sort on the workers ---------------------------------------------- */

struct psort {
	hist_pos_cmp_fn *cmp;
	const void *ctx;
	uint32_t *v;			/* the runs, each sorted */
	size_t n, nr_runs;
};

static int psort_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct psort *s = ctx;
	uint32_t a = *(const uint32_t *)pa, b = *(const uint32_t *)pb;
	int c = s->cmp(s->ctx, a, b);

	return c ? c : (a > b) - (a < b);
}

/* Job: run k's positions sorted. */
static void psort_run(void *ctx, size_t k)
{
	struct psort *s = ctx;
	size_t lo = s->n * k / s->nr_runs, hi = s->n * (k + 1) / s->nr_runs;

	for (size_t i = lo; i < hi; i++)
		s->v[i] = (uint32_t)i;
	qsort_r(s->v + lo, hi - lo, sizeof(*s->v), psort_cmp, s);
}

int hist__psort(struct workqueue *wq, size_t n, hist_pos_cmp_fn *cmp, const void *ctx,
		uint32_t *out, uint32_t *tmp)
{
	struct psort s = { .cmp = cmp, .ctx = ctx, .v = tmp, .n = n };
	size_t at[HIST_PSORT_RUNS], hi[HIST_PSORT_RUNS];
	unsigned threads = wq ? workqueue__nr_workers(wq) + 1 : 1;
	int err;

	s.nr_runs = threads < HIST_PSORT_RUNS ? threads : HIST_PSORT_RUNS;
	if (n < 2 * s.nr_runs)
		s.nr_runs = 1;
	if ((err = parallel_for(wq, s.nr_runs, psort_run, &s)))
		return err;
	for (size_t k = 0; k < s.nr_runs; k++) {
		at[k] = n * k / s.nr_runs;
		hi[k] = n * (k + 1) / s.nr_runs;
	}
	for (size_t i = 0; i < n; i++) {
		size_t best = s.nr_runs;

		for (size_t k = 0; k < s.nr_runs; k++)
			if (at[k] < hi[k] &&
			    (best == s.nr_runs || psort_cmp(&tmp[at[k]], &tmp[at[best]], &s) < 0))
				best = k;
		out[i] = tmp[at[best]++];
	}
	return 0;
}

/*
 * Where the first range's entries are the first merged ones, in order (its key has
 * one entry each: no two of its entries merged), its entries and occurrences become
 * the merged arrays, grown in place (a mapping moves its pages: nothing is copied or
 * first touched again; on the bench VM that was 12 MB of the directory's report).
 * Returns 0 (m->reused says whether) or -ENOMEM.
 */
static int take_first(struct merge *m, size_t nr, size_t nr_occ)
{
	struct part *p = &m->p[0];
	struct hist_builder *b = m->b;

	for (size_t i = 0; i < p->b.nr; i++)
		if (p->map[i] != i)
			return 0;
	if (!p->b.nr ||
	    hugemem__grow(&p->b.v, &p->b.cap, &p->b.v_mapped, nr, sizeof(*p->b.v), 1024) ||
	    hugemem__grow(&p->b.occ, &p->b.cap_occ, &p->b.occ_mapped, nr_occ ? nr_occ : 1,
			  sizeof(*p->b.occ), 4096))
		return p->b.nr ? -ENOMEM : 0;
	b->v = p->b.v;
	b->cap = p->b.cap;
	b->v_mapped = p->b.v_mapped;
	b->occ = p->b.occ;
	b->cap_occ = p->b.cap_occ;
	b->occ_mapped = p->b.occ_mapped;
	m->reused = p->b.nr;
	p->b.v = NULL;
	p->b.occ = NULL;
	p->b.cap = p->b.cap_occ = p->b.v_mapped = p->b.occ_mapped = 0;
	return 0;
}

/* What a group costs to count: an entry, and in children mode one a frame. */
static size_t group_weight(const struct hists *h, const struct hists_print_opts *o,
			   size_t i)
{
	return 1 + (o->children && o->chains ?
		    callchains__depth(o->chains, h->groups[i].s.chain) : 0);
}

static void merge_exit(struct merge *m)
{
	for (size_t k = 0; m->p && k < m->np; k++) {
		hist_builder__exit(&m->p[k].b);
		free(m->p[k].keys);
		free(m->p[k].sorted);
		free(m->p[k].map);
	}
	free(m->p);
	free(m->src_part);
	free(m->src_idx);
	free(m->s);
	free(m->order);
}

int hist_builder__run_parallel(struct hist_builder *b, struct hists *h,
			       const struct hists_print_opts *o, uint32_t max_depth)
{
	unsigned threads = o->wq ? workqueue__nr_workers(o->wq) + 1 : 1;
	struct merge m = { .b = b, .h = h, .o = o, .max_depth = max_depth };
	size_t nr_occ = 0, weight = 0, at = 0;
	long nr;
	int err = 0;

	if (threads < 2 || h->nr_groups < 2 || b->nr || b->nr_occ)
		return 1;
	m.np = h->nr_groups < threads ? h->nr_groups : threads;
	if (!(m.p = calloc(m.np, sizeof(*m.p))))
		return -ENOMEM;
	/* ranges of about equal work: a group makes an entry per frame in children
	 * mode */
	for (size_t i = 0; i < h->nr_groups; i++)
		weight += group_weight(h, o, i);
	for (size_t k = 0, i = 0, w = 0; k < m.np; k++) {
		size_t limit = weight / m.np * (k + 1);

		m.p[k].g0 = i;
		/* at least one group a range */
		while (i < h->nr_groups && h->nr_groups - i > m.np - k - 1 &&
		       (k == m.np - 1 || w < limit || i == m.p[k].g0))
			w += group_weight(h, o, i++);
		m.p[k].g1 = i;
	}
	err = parallel_for(o->wq, m.np, build_part, &m);
	for (size_t k = 0; k < m.np && !err; k++)
		err = m.p[k].err;
	if (!err && (nr = merge_map(&m)) < 0)
		err = (int)nr;
	if (err)
		goto out;
	for (size_t k = 0; k < m.np; k++) {
		m.p[k].occ_off = nr_occ;
		nr_occ += m.p[k].b.nr_occ;
	}
	/* no key copies: the collapse, next, compares its own */
	b->keyed = false;
	b->keyed_known = false;
	m.s = calloc(m.np, sizeof(*m.s));
	if (!m.s || (err = take_first(&m, (size_t)nr, nr_occ)))
		goto out;
	if (!m.reused) {
		b->v = hugemem__alloc((nr ? (size_t)nr : 1) * sizeof(*b->v), &b->v_mapped);
		b->occ = hugemem__alloc((nr_occ ? nr_occ : 1) * sizeof(*b->occ),
					&b->occ_mapped);
		b->cap = (size_t)nr;
		b->cap_occ = nr_occ;
	}
	b->nr = (size_t)nr;
	b->nr_occ = nr_occ;
	if (!b->v || !b->occ) {
		err = -ENOMEM;
		goto out;
	}
	for (size_t k = 0; k < m.np; k++) {
		m.s[k].lo = at;
		at = k == m.np - 1 ? b->nr : b->nr / m.np * (k + 1);
		m.s[k].hi = at;
	}
	err = parallel_for(o->wq, 2 * m.np, fill, &m);
	for (size_t k = 0; k < m.np; k++) {
		b->nr_non_filtered_samples += m.s[k].nf_samples;
		b->non_filtered_period += m.s[k].nf_period;
	}
	if (!err && rbtree__reserve(&b->in, b->nr))
		err = -ENOMEM;
	if (!err)	/* perf's input tree: the merged entries in their order */
		rbtree__link_sorted(&b->in, m.order, b->nr);
out:
	merge_exit(&m);
	return err;
}
