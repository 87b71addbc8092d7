/*
 * hist-order - a histogram's entries collapsed and ordered (report/hist-internal.h):
 * perf's collapse (hist_builder__collapse()), the call graph items grouped by entry
 * (hist_builder__items()), perf's output tree (hist_builder__output_order(): by value,
 * ties decided as perf's tree decides them), and the group view (perf's
 * hists__match() and hists__link(): the leader's entries paired with its members').
 */
#include "report/hist-internal.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, realloc */
#include <string.h>	/* memcpy, memset */

#include "machine/machine.h"	/* thread__comm_overridden */
#include "report/callchain.h"
#include "report/hist.h"
#include "report/sort.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "util/workqueue.h"
#include "banned.h"

/* Entries z and x's rows of numbers (struct sort_ties) compared: > 0 where z's is the
 * greater, lexicographically. */
static int ties_row_cmp(const struct sort_ties *t, uint32_t z, uint32_t x)
{
	const uint64_t *p = t->v + (size_t)z * t->width, *q = t->v + (size_t)x * t->width;

	for (size_t i = 0; i < t->width; i++)
		if (p[i] != q[i])
			return p[i] > q[i] ? 1 : -1;
	return 0;
}

/* Give back the entries' key copies (struct hist_key): they are entries_in's, whose
 * comms the collapse overrides. */
static void builder_drop_keys(struct hist_builder *b)
{
	hugemem__free(b->keys, b->keys_mapped);
	b->keys = NULL;
	b->cap_keys = b->keys_mapped = 0;
}

/* sort_list__cmp(z, x) with the ranks of sort_list__cmp_ranks() (higher: lower). */
static int ranked_cmp(const struct hist_builder *b, const struct sort_ties *r, uint32_t z,
		      uint32_t x)
{
	int c = ties_row_cmp(r, z, x);

	if (c)
		return -c;
	return b->keys ? sort_list__cmp_keys(b->sl, r->from, &b->keys[z], &b->keys[x])
		       : sort_list__cmp_from(b->sl, r->from, &b->v[z], &b->v[x]);
}

struct collapse_ctx {
	const struct hist_builder *b;
	const struct sort_ties *ranks;
	const uint32_t *order;
};

/* The collapse's comparison of the entries at positions x, y of the input order. */
static int collapse_cmp(const void *ctx, uint32_t x, uint32_t y)
{
	const struct collapse_ctx *c = ctx;
	const struct hist_builder *b = c->b;
	uint32_t z = c->order[x], w = c->order[y];

	return c->ranks->v ? ranked_cmp(b, c->ranks, z, w) :
	       b->keys ? sort_list__cmp_keys(b->sl, 0, &b->keys[z], &b->keys[w])
		       : sort_list__cmp(b->sl, &b->v[z], &b->v[w]);
}

/*
 * The collapse of a total order: the tree's in-order is the entries sorted, and the
 * entry an equal one merges into is the first of its key in the input order - a
 * stable sort (on the workers: hist__psort()) and one pass over it.  The n entries
 * of `order`, in the input order, are replaced by the collapsed ones in order (*n)
 * and b->in becomes their tree.  Returns 0, or -ENOMEM with nothing changed.
 */
static int collapse_sorted(struct hist_builder *b, const struct sort_ties *ranks,
			   uint32_t *order, size_t *n, uint32_t *stack)
{
	struct collapse_ctx c = { b, ranks, order };
	uint32_t *pos = malloc((*n ? *n : 1) * sizeof(*pos));
	size_t k = 0;

	if (!pos || hist__psort(b->wq, *n, collapse_cmp, &c, pos, stack)) {
		free(pos);
		return -ENOMEM;
	}
	for (size_t i = 0; i < *n; i++) {
		uint32_t z = order[pos[i]];

		if (i && !collapse_cmp(&c, pos[i], pos[i - 1])) {
			uint32_t x = b->alias[order[pos[i - 1]]];

			hist_stat__merge(&b->v[x].stat, &b->v[z].stat);
			hist_stat__merge(&b->v[x].stat_acc, &b->v[z].stat_acc);
			b->alias[z] = x;
			continue;
		}
		stack[k++] = z;
	}
	rbtree__link_sorted(&b->in, stack, k);
	memcpy(order, stack, k * sizeof(*order));
	*n = k;
	free(pos);
	return 0;
}

/*
 * perf's collapse (when a key has a collapse function, like comm): the entries, in
 * the input tree's order, go into a new tree (same comparison); an entry the search
 * finds equal is merged into the one found (its periods added; its call graph too,
 * but not its depth).  Writes the resulting order to `order` and returns its length.
 */
size_t hist_builder__collapse(struct hist_builder *b, uint32_t *order, uint32_t *stack)
{
	struct sort_ties ranks = { 0 };
	struct rbtree t;
	size_t n = rbtree__inorder(&b->in, order, stack);

	for (size_t i = 0; i < b->nr; i++)
		b->alias[i] = (uint32_t)i;
	/* entries_in's searches are over: keyed no more (group_dummy() searches the
	 * collapsed tree by the entries) */
	builder_drop_keys(b);
	b->keyed = false;
	b->keyed_known = true;
	if (!b->sl->need_collapse && !b->renamed)	/* perf goes on from its input
							 * tree */
		return n;
	/* a thread's default name became its first COMM's (perf's comm__override) */
	for (size_t i = 0; i < b->nr; i++)
		if (b->v[i].thread)
			b->v[i].comm = thread__comm_overridden(b->v[i].thread, b->v[i].comm);
	/* the keys again, with those comms, for this tree's searches too (where there
	 * is memory: else the entries are compared) */
	if (sort_list__keyed(b->sl) &&
	    (b->keys = hugemem__alloc((b->nr ? b->nr : 1) * sizeof(*b->keys),
				      &b->keys_mapped)))
		for (size_t i = 0; i < b->nr; i++)
			hist_key__of(&b->keys[i], &b->v[i]);
	/* the comm and dso keys compared as numbers (where there is memory) */
	if (sort_list__cmp_ranks(b->sl, b->v, b->nr, order, n, &ranks))
		ranks.v = NULL;
	if (hist__sortable(b->sl) && b->wq && workqueue__nr_workers(b->wq) &&
	    collapse_sorted(b, &ranks, order, &n, stack) == 0) {
		free(ranks.v);
		builder_drop_keys(b);
		return n;
	}
	/* the input tree's arrays are reused: its order is saved in `order` */
	t = b->in;
	t.root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = order[i], p = RBTREE_NIL, x = t.root;
		bool left = false, merged = false;

		while (x != RBTREE_NIL) {
			int c = ranks.v ? ranked_cmp(b, &ranks, z, x) :
				b->keys ? sort_list__cmp_keys(b->sl, 0, &b->keys[z], &b->keys[x])
					: sort_list__cmp(b->sl, &b->v[z], &b->v[x]);

			if (!c) {
				hist_stat__merge(&b->v[x].stat, &b->v[z].stat);
				hist_stat__merge(&b->v[x].stat_acc, &b->v[z].stat_acc);
				b->alias[z] = x;
				merged = true;
				break;
			}
			p = x;
			left = c < 0;
			x = left ? t.left[x] : t.right[x];
		}
		if (!merged)
			rbtree__link(&t, z, p, left);
	}
	free(ranks.v);
	builder_drop_keys(b);
	b->in = t;
	return rbtree__inorder(&t, order, stack);
}

/* Items of the entries that need them, grouped by entry (counting sort of the
 * occurrences); a per-entry count array keeps the pass over the occurrences off the
 * entries themselves. */
struct callchain_item *hist_builder__items(struct hist_builder *b, const struct hists *h,
					   bool children, uint64_t min_period)
{
	uint32_t *at = calloc(b->nr ? b->nr : 1, sizeof(*at));
	unsigned char *need = malloc(b->nr ? b->nr : 1);
	struct callchain_item *items = NULL;
	uint32_t off = 0;

	if (!at || !need)
		goto out;
	for (size_t i = 0; i < b->nr; i++) {
		const struct hist_entry *e = &b->v[i];

		need[i] = !min_period || (!e->filtered && (children ? e->stat_acc.period
								      : e->stat.period) >= min_period);
	}
	for (size_t i = 0; i < b->nr_occ; i++) {
		uint32_t e = b->alias[b->occ[i].entry];

		at[e] += need[e];
	}
	for (size_t i = 0; i < b->nr; i++) {
		uint32_t nr = at[i];

		b->v[i].first_item = off;
		b->v[i].nr_items = nr;
		at[i] = off;
		off += nr;
	}
	if (!(items = malloc((off ? off : 1) * sizeof(*items))))
		goto out;
	for (size_t i = 0; i < b->nr_occ; i++) {
		const struct hist_occurrence *oc = &b->occ[i];
		const struct hist_group *g = &h->groups[oc->group];
		uint32_t e = b->alias[oc->entry];

		if (!need[e])
			continue;
		items[at[e]++] = (struct callchain_item){
			.leaf = g->s.chain, .skip = oc->skip, .ips = h->ips + g->ips,
			.period = oc->period, .count = oc->count,
		};
	}
out:
	free(at);
	free(need);
	return items;
}

void hist_builder__exit(struct hist_builder *b)
{
	hugemem__free(b->v, b->v_mapped);
	hugemem__free(b->hash, b->hash_mapped);
	free(b->alias);
	hugemem__free(b->occ, b->occ_mapped);
	hugemem__free(b->occ_hash, b->occ_hash_mapped);
	builder_drop_keys(b);
	rbtree__exit(&b->in);
	*b = (struct hist_builder){ .sl = b->sl, .in = b->in };	/* the tree is empty */
}

/* The entries' numbers that decide most comparisons of the output tree (see
 * sort_list__output_key()), by entry id; NULL where the comparison has none or
 * computes texts whose widths perf takes as it places an entry (srcline, srcfile,
 * trace keys), or without memory (the comparison alone is exact). */
static uint64_t *output_keys(const struct hist_builder *b, const struct sort_ctx *c,
			     const uint32_t *order, size_t n)
{
	uint64_t *key;

	if (b->sl->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE) ||
	    !(key = malloc((b->nr ? b->nr : 1) * sizeof(*key))))
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!sort_list__output_key(b->sl, c, &b->v[order[i]], &key[order[i]])) {
			free(key);
			return NULL;
		}
	return key;
}

/* sort_list__output_cmp(z, x) of two entries whose output keys are equal, from
 * their tie numbers (sort_list__output_ties()). */
static int tie_cmp(const struct hist_builder *b, const struct sort_ties *ties,
		   const struct sort_ctx *c, uint32_t z, uint32_t x)
{
	const struct hist_entry *e = &b->v[z], *f = &b->v[x];

	if (ties->depth_rule && e->thread == f->thread && e->max_depth != f->max_depth) {
		int r = e->max_depth > f->max_depth ? 1 : -1;

		return c->caller_first ? r : -r;
	}
	return ties_row_cmp(ties, z, x);
}

/* The output tree, fed in collapsed order (ties go right).  perf takes each entry's
 * column widths right after placing it (output_resort()). */
void hist_builder__output_order(struct hist_builder *b, const struct sort_ctx *c,
				struct rbtree *t, uint32_t *order, size_t n, uint32_t *stack)
{
	uint64_t *key = output_keys(b, c, order, n);
	struct sort_ties ties = { 0 };

	/* most comparisons are ties of the first key (entries of one sample share
	 * its period): numbers decide them too where the later keys allow (without
	 * memory, the comparison itself) */
	if (key && sort_list__output_ties(b->sl, c, b->v, b->nr, order, n, &ties))
		ties.v = NULL;

	t->root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = order[i], p = RBTREE_NIL, x = t->root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			if (key && key[z] != key[x])
				left = key[z] > key[x];
			else if (ties.v)
				left = tie_cmp(b, &ties, c, z, x) > 0;
			else
				left = sort_list__output_cmp(b->sl, c, &b->v[z], &b->v[x]) > 0;
			x = left ? t->left[x] : t->right[x];
		}
		rbtree__link(t, z, p, left);
		b->v[z].src_width = (b->v[z].srcline ? SORT_NEED_SRCLINE : 0) |
				    (b->v[z].srcfile ? SORT_NEED_SRCFILE : 0) |
				    (b->v[z].trace_done ? SORT_NEED_TRACE : 0);
	}
	free(key);
	free(ties.v);
	rbtree__inorder(t, order, stack);
}

/* ---- the group view (report/hist-internal.h) ------------------------------------ */

/* The entry of e's key in b's collapsed tree, or RBTREE_NIL (perf's
 * hists__find_entry(): the collapse comparison, node against e). */
static uint32_t group_find(const struct hist_builder *b, const struct hist_entry *e)
{
	uint32_t x = b->in.root;

	while (x != RBTREE_NIL) {
		int c = sort_list__cmp(b->sl, e, &b->v[x]);

		if (!c)
			return x;
		x = c < 0 ? b->in.left[x] : b->in.right[x];
	}
	return RBTREE_NIL;
}

/* perf's hists__add_dummy_entry(): the leader's entry of pair's key, made with zero
 * counts (and no call graph) where its collapsed tree has none; *added says which.
 * -1 on ENOMEM. */
static long group_dummy(struct hist_builder *b, const struct hist_entry *pair, bool *added)
{
	long x = hist_builder__tree_findnew(b, pair, added);
	struct hist_entry *e;

	if (x < 0 || !*added)
		return x;
	e = &b->v[x];
	memset(&e->stat, 0, sizeof(e->stat));
	memset(&e->stat_acc, 0, sizeof(e->stat_acc));
	e->max_depth = 0;
	e->first_item = e->nr_items = 0;
	e->pairs = NULL;
	e->nr_pairs = 0;
	return x;
}

static int group_grow(struct hist_group_view *g)
{
	size_t m = g->nr - 1, need = g->b[0].nr;

	if (array__grow(&g->tree, &g->cap_tree, g->nr_tree + 1, sizeof(*g->tree), 1024))
		return -ENOMEM;
	if (need > g->cap_pair) {
		size_t cap = g->cap_pair ? g->cap_pair : 1024;
		uint32_t *v;

		while (cap < need)
			cap *= 2;
		v = realloc(g->pair, cap * m * sizeof(*v));
		if (!v)
			return -ENOMEM;
		for (size_t i = g->cap_pair * m; i < cap * m; i++)
			v[i] = RBTREE_NIL;
		g->pair = v;
		g->cap_pair = cap;
	}
	return 0;
}

/* perf's hists__match() and hists__link() of member k into the leader. */
static int group_link(struct hist_group_view *g, size_t k)
{
	struct hist_builder *lb = &g->b[0], *mb = &g->b[k];
	size_t m = g->nr - 1;
	bool *paired = calloc(mb->nr ? mb->nr : 1, sizeof(*paired));
	int err = 0;

	if (!paired)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_tree; i++) {
		uint32_t le = g->tree[i], x = group_find(mb, &lb->v[le]);

		g->pair[(size_t)le * m + k - 1] = x;
		if (x != RBTREE_NIL)
			paired[x] = true;
	}
	for (size_t i = 0; i < g->nr_order[k] && !err; i++) {
		uint32_t me = g->order[k][i];
		bool added;
		long le;

		if (paired[me])
			continue;
		le = group_dummy(lb, &mb->v[me], &added);
		if (le < 0 || group_grow(g)) {
			err = -ENOMEM;
			break;
		}
		if (added)
			g->tree[g->nr_tree++] = (uint32_t)le;
		g->pair[(size_t)le * m + k - 1] = me;
	}
	free(paired);
	return err;
}

/* Every histogram made and collapsed (perf's report__collapse_hists), with the
 * percent bases and the header's sums. */
static int group_collapse(struct hist_group_view *g, struct hists *const *hs,
			  const struct hists_print_opts *o, bool graphs)
{
	int err = 0;

	for (size_t k = 0; k < g->nr; k++)
		hist_builder__init(&g->b[k], hs[0]->sl, o);
	for (size_t k = 0; k < g->nr && !err; k++) {
		struct hists_print_opts eo = *o;
		uint64_t total_nf = 0;

		if (!hs[k]->has_callchains || !o->chains)
			eo.chains = NULL;
		if (!graphs || k)	/* only the leader's call graphs are printed */
			eo.cc = NULL;
		err = hist_builder__order(&g->b[k], hs[k], &eo, graphs && !k, &g->order[k],
					  &g->nr_order[k], false);
		for (size_t i = 0; !err && i < g->nr_order[k]; i++)
			if (!g->b[k].v[g->order[k][i]].filtered)
				total_nf += g->b[k].v[g->order[k][i]].stat.period;
		/* perf's hists__total_period() and the header's sums */
		g->totals[k] = o->filter_relative ? total_nf : hs[k]->total_period;
		g->count += g->totals[k];
		g->nr_samples += o->filter_relative ? g->b[k].nr_non_filtered_samples
						    : hs[k]->nr_samples;
	}
	return err;
}

/* The leader's entries get their pairs (pointers into the members' entries), and
 * g->sorted the leader's collapsed tree's order. */
static int group_set_pairs(struct hist_group_view *g)
{
	struct hist_builder *lb = &g->b[0];
	size_t m = g->nr - 1, cap = lb->nr ? lb->nr : 1;

	g->pp = malloc(cap * m * sizeof(*g->pp));
	g->sorted = malloc(cap * sizeof(*g->sorted));
	g->stack = malloc(cap * sizeof(*g->stack));
	if (!g->pp || !g->sorted || !g->stack)
		return -ENOMEM;
	for (size_t i = 0; i < g->nr_tree; i++) {
		uint32_t le = g->tree[i];

		for (size_t k = 1; k < g->nr; k++) {
			uint32_t x = g->pair[(size_t)le * m + k - 1];

			g->pp[(size_t)le * m + k - 1] = x == RBTREE_NIL ? NULL : &g->b[k].v[x];
		}
		lb->v[le].pairs = g->pp + (size_t)le * m;
		lb->v[le].nr_pairs = (uint32_t)m;
	}
	g->n = rbtree__inorder(&lb->in, g->sorted, g->stack);
	return 0;
}

int hist_group_view__make(struct hist_group_view *g, struct hists *const *hs, size_t nr,
			  const struct hists_print_opts *o, bool graphs)
{
	int err;

	*g = (struct hist_group_view){ .nr = nr };
	if (nr < 2)
		return -EINVAL;
	g->totals = calloc(nr, sizeof(*g->totals));
	g->b = calloc(nr, sizeof(*g->b));
	g->order = calloc(nr, sizeof(*g->order));
	g->nr_order = calloc(nr, sizeof(*g->nr_order));
	if (!g->totals || !g->b || !g->order || !g->nr_order)
		return -ENOMEM;
	err = group_collapse(g, hs, o, graphs);
	for (size_t i = 0; !err && i < g->nr_order[0]; i++) {
		err = group_grow(g);
		if (!err)
			g->tree[g->nr_tree++] = g->order[0][i];
	}
	for (size_t k = 1; k < nr && !err; k++)
		err = group_link(g, k);
	return err ? err : group_set_pairs(g);
}

void hist_group_view__exit(struct hist_group_view *g)
{
	for (size_t k = 0; g->b && k < g->nr; k++)
		hist_builder__exit(&g->b[k]);
	for (size_t k = 0; g->order && k < g->nr; k++)
		free(g->order[k]);
	free(g->b);
	free(g->order);
	free(g->nr_order);
	free(g->tree);
	free(g->pair);
	free(g->pp);
	free(g->sorted);
	free(g->stack);
	free(g->totals);
	*g = (struct hist_group_view){ 0 };
}
