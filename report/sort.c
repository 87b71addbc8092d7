/*
 * sort - how the entries of a report compare (report/sort.h): the comm, dso and
 * symbol keys' comparisons (perf's, and the total order of sort_list.total_order),
 * and an entry's keys taken in the list's order: its class (sort_list__class_cmp()),
 * its place in perf's entry trees (sort_list__cmp(), sort_list__cmp_keys()), its
 * place in the output (sort_list__output_cmp(), the ties' and ranks' columns that
 * sort it without comparing), one --hierarchy level's key.  The lists are built in
 * sort-setup.c, the keys are in sort-keys.c, sort-mem.c and sort-branch.c, the
 * columns printed in sort-print.c; what they share is sort-internal.h.
 */
#define DIRREPORT_IN_REPORT
#include "report/sort.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, qsort_r */
#include <string.h>	/* strcmp */

#include "machine/dso.h"
#include "machine/symbol.h"
#include "report/sort-internal.h"
#include "util/hashtab.h"
#include "banned.h"

const struct hist_mem hist_mem__none;

/* ---- sort entries: comparisons (a: new entry, b: tree node; < 0: a goes left) --- */

/* The comm, dso and symbol keys' comparisons on the fields alone: the entries'
 * (sort__comm_cmp() ...) and their copies beside the entry trees'
 * (sort_list__cmp_keys()) are the same. */
static int k_comm(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a, b);
}

int sort__comm_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_comm(a->comm, b->comm);
}

static int k_dso(const struct dso *a, const struct dso *b)
{
	if (a == b)
		return 0;
	if (!a || !b)		/* [unknown] after named dsos */
		return sort__null_last(a, b);
	return strcmp(dso__short_name(a), dso__short_name(b));
}

int sort__dso_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_dso(a->dso, b->dso);
}

/* The dso key on the dsos: by short name, or (-v, perf's sort__dso_cmp) by long name. */
static int k_dso_by(bool long_names, const struct dso *a, const struct dso *b)
{
	if (!long_names)
		return k_dso(a, b);
	if (a == b)
		return 0;
	if (!a || !b)
		return sort__null_last(a, b);
	return strcmp(dso__long_name(a), dso__long_name(b));
}

/* -v: sort__dso_cmp by long names */
static int c_dso_long(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_dso_by(true, a->dso, b->dso);
}

/* perf's _sort__sym_cmp() with a dso key (which compares the dsos on its own):
 * addresses of unresolved entries, symbol starts and ends. */
static int k_sym_nodso(const struct symbol *as, uint64_t aip, const struct symbol *bs,
		       uint64_t bip)
{
	if (!as && !bs)
		return sort__cmp_diff(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if (as == bs)
		return 0;
	/* perf's _sort__sym_cmp(): inlined functions by name, equal when their
	 * symbols overlap */
	if (as->inlined || bs->inlined) {
		/* perf's strcmp(left, right): the node's name first */
		int c = strcmp(bs->name, as->name);

		if (c)
			return c < 0 ? -1 : 1;
		if (as->start <= bs->end && as->end >= bs->start)
			return 0;
	}
	if (as->start != bs->start)
		return sort__cmp_diff(as->start, bs->start);
	return sort__cmp_diff(as->end, bs->end);
}

/* ... without a dso key (perf's sort__sym_cmp): symbol addresses are relative to their
 * dso, so dsos are compared first (-v: by long name) */
static int k_sym(bool long_names, const struct dso *ad, const struct symbol *as,
		 uint64_t aip, const struct dso *bd, const struct symbol *bs, uint64_t bip)
{
	int c;

	if (!as && !bs)
		return sort__cmp_diff(aip, bip);
	if ((c = k_dso_by(long_names, ad, bd)))
		return c;
	return k_sym_nodso(as, aip, bs, bip);
}

/* The symbol key's comparison function (its dim's cmp; sym_cmp() decides) */
int sort__sym_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_sym(false, a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * The symbol key's total order (sort_list.total_order), with the dso key: entries
 * with a symbol first, then those without by address (as unsigned numbers); symbols
 * by start and end, inlined functions after the others and by name alone.  Equal
 * exactly where k_sym_nodso() is, but for inlined functions: perf's are equal where
 * their names are and their ranges overlap, which is not transitive; these are equal
 * where their names are.
 */
static int t_sym_nodso(const struct symbol *as, uint64_t aip, const struct symbol *bs,
		       uint64_t bip)
{
	if (!as && !bs)
		return cmp_u64(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if (as == bs)
		return 0;
	if (as->inlined != bs->inlined)
		return as->inlined ? 1 : -1;
	if (as->inlined) {
		int c = strcmp(as->name, bs->name);

		return c < 0 ? -1 : c > 0;
	}
	if (as->start != bs->start)
		return cmp_u64(as->start, bs->start);
	return cmp_u64(as->end, bs->end);
}

/* ... and without a dso key: perf's k_sym() compares two unresolved entries by address
 * alone and the others by dso first, an order that is not transitive; here the
 * unresolved ones come after all others, and equality is k_sym()'s. */
static int t_sym(bool long_names, const struct dso *ad, const struct symbol *as,
		 uint64_t aip, const struct dso *bd, const struct symbol *bs, uint64_t bip)
{
	int c;

	if (!as && !bs)
		return cmp_u64(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if ((c = k_dso_by(long_names, ad, bd)))
		return c;
	return t_sym_nodso(as, aip, bs, bip);
}

/* The symbol key on its fields, as l compares it: perf's order or the total one;
 * @p with_dso: a dso key compares the dsos on its own; -v: dsos by long name */
static int sym_key_cmp(const struct sort_list *l, bool with_dso, const struct dso *ad,
		       const struct symbol *as, uint64_t aip, const struct dso *bd,
		       const struct symbol *bs, uint64_t bip)
{
	if (with_dso)
		return l->total_order ? t_sym_nodso(as, aip, bs, bip)
				      : k_sym_nodso(as, aip, bs, bip);
	return l->total_order ? t_sym(l->verbose, ad, as, aip, bd, bs, bip)
			      : k_sym(l->verbose, ad, as, aip, bd, bs, bip);
}

static int sym_cmp(const struct sort_list *l, bool with_dso, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	return sym_key_cmp(l, with_dso, a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

/* perf's sort__sym_sort: resolved first, then by name. */
int sort__sym_sort(const struct hist_entry *a, const struct hist_entry *b)
{
	if (!a->sym || !b->sym)
		return a->sym ? -1 : b->sym ? 1 : 0;
	return strcmp(symbol__name(a->sym), symbol__name(b->sym));
}

/* ---- comparisons ------------------------------------------------------------------ */

/* A key's comparison; -v compares dsos by long name (perf's sort__dso_cmp). */
static int dim_cmp(const struct sort_list *l, const struct sort_dim *d,
		   const struct hist_entry *a, const struct hist_entry *b)
{
	if (l->verbose && d->cmp == sort__dso_cmp)
		return c_dso_long(a, b);
	if (d->cmp == sort__sym_cmp)
		return sym_cmp(l, false, a, b);
	if (l->verbose && d->cmp == sort__dso_daddr_cmp)
		return sort__dso_daddr_long_cmp(a, b);
	if (l->verbose && d->cmp_v)
		return d->cmp_v(a, b);
	return d->cmp(a, b);
}

/* A key's output order (perf's se_sort, else se_cmp), -v's where it differs. */
static int dim_sort(const struct sort_list *l, const struct sort_dim *d,
		    const struct hist_entry *a, const struct hist_entry *b)
{
	if (l->verbose && d->sort_v)
		return d->sort_v(a, b);
	return d->sort ? d->sort(a, b) : dim_cmp(l, d, a, b);
}

int sort_list__class_cmp(const struct sort_list *l, const struct hist_entry *a,
			 const struct hist_entry *b)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		if (d->cmp == sort__sym_cmp)
			return 0;
		sort__lazy_text(l, d, b);
		sort__lazy_text(l, d, a);
		if ((c = dim_cmp(l, d, a, b)))
			return c;
	}
	return 0;
}

void hist_stat__merge(struct hist_stat *into, const struct hist_stat *from)
{
	into->period += from->period;
	into->nr_events += from->nr_events;
	into->period_sys += from->period_sys;
	into->period_us += from->period_us;
	into->period_guest_sys += from->period_guest_sys;
	into->period_guest_us += from->period_guest_us;
}

bool sort_list__keyed(const struct sort_list *l)
{
	if (l->verbose || (l->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE)))
		return false;
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (d->kind == DIM_SE && d->cmp != sort__comm_cmp && d->cmp != sort__dso_cmp &&
		    d->cmp != sort__sym_cmp)
			return false;
	}
	return true;
}

void hist_key__of(struct hist_key *k, const struct hist_entry *e)
{
	*k = (struct hist_key){ .comm = e->comm, .dso = e->dso, .sym = e->sym, .ip = e->ip };
}

int sort_list__cmp_keys(const struct sort_list *l, size_t from, const struct hist_key *a,
			const struct hist_key *b)
{
	/* sort_list__cmp_from() where sort_list__keyed(): no lazy texts, no -v */
	for (size_t i = from; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		if (d->cmp == sort__comm_cmp)
			c = k_comm(a->comm, b->comm);
		else if (d->cmp == sort__dso_cmp)
			c = k_dso(a->dso, b->dso);
		else	/* sort__sym_cmp */
			c = sym_key_cmp(l, l->need & SORT_NEED_DSO, a->dso, a->sym, a->ip,
					b->dso, b->sym, b->ip);
		if (c)
			return c;
	}
	return 0;
}

int sort_list__cmp(const struct sort_list *l, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	return sort_list__cmp_from(l, 0, a, b);
}

int sort_list__cmp_from(const struct sort_list *l, size_t from, const struct hist_entry *a,
			const struct hist_entry *b)
{
	for (size_t i = from; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		sort__lazy_text(l, d, b);
		sort__lazy_text(l, d, a);
		c = d->cmp == sort__sym_cmp && (l->need & SORT_NEED_DSO) ? sym_cmp(l, true, a, b)
								 : dim_cmp(l, d, a, b);
		if (c)
			return c;
	}
	return 0;
}

static int value_cmp(const struct sort_list *l, const struct sort_ctx *c,
		     const struct sort_dim *d, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	uint64_t va = d->value(a), vb = d->value(b);

	if (d->acc && !l->children)
		return 0;
	/* perf's --group-sort-idx: one event of the group decides, the rest does not
	 * break its ties */
	if (c->group_sort_idx && !d->acc && a->nr_pairs && b->nr_pairs) {
		int k = c->group_sort_idx;

		if (k > 0 && (uint32_t)k <= a->nr_pairs && (uint32_t)k <= b->nr_pairs) {
			va = a->pairs[k - 1] ? d->value(a->pairs[k - 1]) : 0;
			vb = b->pairs[k - 1] ? d->value(b->pairs[k - 1]) : 0;
		}
		return va == vb ? 0 : va > vb ? 1 : -1;
	}
	if (va != vb)
		return va > vb ? 1 : -1;
	/* perf's __hpp__sort in the group view: the members' values next (not for
	 * Children: perf's __hpp__sort_acc does not look at them) */
	for (uint32_t k = 0; !d->acc && k < a->nr_pairs && k < b->nr_pairs; k++) {
		va = a->pairs[k] ? d->value(a->pairs[k]) : 0;
		vb = b->pairs[k] ? d->value(b->pairs[k]) : 0;
		if (va != vb)
			return va > vb ? 1 : -1;
	}
	/* perf's hpp__sort_acc: among one thread's entries, the caller first */
	if (d->acc && l->children && c->depth_ties && a->thread == b->thread &&
	    a->max_depth != b->max_depth) {
		int r = a->max_depth > b->max_depth ? 1 : -1;

		return c->caller_first ? r : -r;
	}
	return 0;
}

int sort_list__output_cmp(const struct sort_list *l, const struct sort_ctx *c,
			  const struct hist_entry *a, const struct hist_entry *b)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int r;

		if (l->sort_elided[i])	/* perf_hpp__should_skip() */
			continue;
		if (d->kind == DIM_SE) {
			sort__lazy_text(l, d, a);
			sort__lazy_text(l, d, b);
		}
		if (d->kind == DIM_HPP)
			r = value_cmp(l, c, d, a, b);
		else
			r = -dim_sort(l, d, a, b);
		if (r)
			return r;
	}
	return 0;
}

bool sort_list__output_key(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *e, uint64_t *key)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (l->sort_elided[i])
			continue;
		/* value_cmp() by the value alone: no group view (pairs, their values,
		 * --group-sort-idx), a value that counts */
		if (d->kind != DIM_HPP || e->nr_pairs || c->group_sort_idx ||
		    (d->acc && !l->children))
			return false;
		*key = d->value(e);
		return true;
	}
	return false;
}

/* What a later key of sort_list__output_ties() compares by. */
enum tie_kind { TIE_NONE, TIE_VALUE, TIE_ZERO, TIE_COMM, TIE_DSO, TIE_SYM };

static enum tie_kind tie_kind(const struct sort_list *l, const struct sort_dim *d)
{
	if (d->kind == DIM_HPP)	/* value_cmp() without pairs: the value alone */
		return !d->acc ? TIE_VALUE : !l->children ? TIE_ZERO : TIE_NONE;
	if (d->kind != DIM_SE || (l->verbose && d->sort_v))
		return TIE_NONE;
	/* dim_sort(): these compare a comm's text, a dso's name (its long name with
	 * -v), a symbol's name, unresolved ones first or last: pure functions of
	 * the pointers below, and total orders */
	if (d->cmp == sort__comm_cmp && !d->sort && !d->cmp_v)
		return TIE_COMM;
	if (d->cmp == sort__dso_cmp && !d->sort && !d->cmp_v)
		return TIE_DSO;
	if (d->sort == sort__sym_sort)
		return TIE_SYM;
	return TIE_NONE;
}

static const void *tie_identity(enum tie_kind k, const struct hist_entry *e)
{
	return k == TIE_COMM ? (const void *)e->comm
	       : k == TIE_DSO ? (const void *)e->dso : (const void *)e->sym;
}

struct tie_sort {
	const struct sort_list *l;
	const struct sort_dim *d;
	const struct hist_entry *v;
};

static int tie_sort_cmp(const void *a, const void *b, void *arg)
{
	const struct tie_sort *ts = arg;

	return dim_sort(ts->l, ts->d, &ts->v[*(const uint32_t *)a],
			&ts->v[*(const uint32_t *)b]);
}

/* Column col of t->v for the entries of order: their comm's, dso's or symbol's rank,
 * higher for what comes first (dim_sort() < 0).  Distinct pointers are found by
 * hash (util/hashtab.h; a slot: a representative entry id + 1), ranked by sorting
 * one entry of each. */
static int tie_ranks(const struct sort_list *l, const struct sort_dim *d, enum tie_kind k,
		     const struct hist_entry *v, size_t nr, const uint32_t *order, size_t n,
		     struct sort_ties *t, size_t col)
{
	size_t m = 16, nr_reps = 0;
	uint32_t *slot, *reps, *rank, *where;
	struct tie_sort ts = { l, d, v };
	int err = -ENOMEM;

	while (m < 2 * n)	/* at most half full, never grown */
		m *= 2;
	slot = calloc(m, sizeof(*slot));
	reps = malloc((n ? n : 1) * sizeof(*reps));
	rank = malloc((nr ? nr : 1) * sizeof(*rank));
	where = malloc((n ? n : 1) * sizeof(*where));
	if (!slot || !reps || !rank || !where)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const void *p = tie_identity(k, &v[order[i]]);
		size_t h = hashtab__first(((uintptr_t)p >> 4) * UINT64_C(0x9e3779b97f4a7c15) >> 20,
					  m);

		while (slot[h] && tie_identity(k, &v[slot[h] - 1]) != p)
			h = hashtab__next(h, m);
		if (!slot[h]) {
			slot[h] = order[i] + 1;
			reps[nr_reps++] = order[i];
		}
		where[i] = slot[h] - 1;
	}
	qsort_r(reps, nr_reps, sizeof(*reps), tie_sort_cmp, &ts);
	for (size_t i = 0, pos = 0; i < nr_reps; i++) {
		if (i && dim_sort(l, d, &v[reps[i - 1]], &v[reps[i]]))
			pos++;
		rank[reps[i]] = (uint32_t)(nr_reps - pos);	/* first: highest */
	}
	for (size_t i = 0; i < n; i++)
		t->v[(size_t)order[i] * t->width + col] = rank[where[i]];
	err = 0;
out:
	free(slot);
	free(reps);
	free(rank);
	free(where);
	return err;
}

int sort_list__output_ties(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *v, size_t nr, const uint32_t *order,
			   size_t n, struct sort_ties *t)
{
	const struct sort_dim *later[SORT_MAX_FIELDS];
	enum tie_kind kinds[SORT_MAX_FIELDS];
	const struct sort_dim *first = NULL;
	size_t width = 0;
	uint64_t key;
	int err = 0;

	*t = (struct sort_ties){ 0 };
	if (!n || !sort_list__output_key(l, c, &v[order[0]], &key))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[order[i]].nr_pairs)	/* the group view: value_cmp() looks at
						 * the members' values too */
			return 0;
	for (size_t i = 0; i < l->nr_sorts; i++) {
		if (l->sort_elided[i])
			continue;
		if (!first) {
			first = l->sorts[i];
			continue;
		}
		if ((kinds[width] = tie_kind(l, l->sorts[i])) == TIE_NONE)
			return 0;
		later[width++] = l->sorts[i];
	}
	t->depth_rule = first->acc && l->children && c->depth_ties;
	t->width = width;	/* 0: ties are decided by the depth rule alone */
	if (!(t->v = malloc((width && nr ? nr * width : 1) * sizeof(*t->v))))
		return -ENOMEM;
	for (size_t col = 0; col < width && !err; col++) {
		const struct sort_dim *d = later[col];

		if (kinds[col] == TIE_VALUE || kinds[col] == TIE_ZERO)
			for (size_t i = 0; i < n; i++)
				t->v[(size_t)order[i] * width + col] =
					kinds[col] == TIE_VALUE ? d->value(&v[order[i]]) : 0;
		else
			err = tie_ranks(l, d, kinds[col], v, nr, order, n, t, col);
	}
	if (err) {
		free(t->v);
		*t = (struct sort_ties){ 0 };
	}
	return err;
}

int sort_list__cmp_ranks(const struct sort_list *l, const struct hist_entry *v, size_t nr,
			 const uint32_t *order, size_t n, struct sort_ties *t)
{
	size_t width = 0, from = 0;
	int err = 0;

	*t = (struct sort_ties){ 0 };
	/* the leading comm and dso keys: dim_sort() is their dim_cmp() */
	for (; from < l->nr_sorts; from++) {
		const struct sort_dim *d = l->sorts[from];
		enum tie_kind k;

		if (d->kind != DIM_SE)
			continue;
		k = tie_kind(l, d);
		if (k != TIE_COMM && k != TIE_DSO)
			break;
		width++;
	}
	if (!width || !n)
		return 0;
	if (!(t->v = malloc((nr ? nr : 1) * width * sizeof(*t->v))))
		return -ENOMEM;
	t->width = width;
	t->from = from;
	for (size_t i = 0, col = 0; i < from && !err; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (d->kind == DIM_SE)
			err = tie_ranks(l, d, tie_kind(l, d), v, nr, order, n, t, col++);
	}
	if (err) {
		free(t->v);
		*t = (struct sort_ties){ 0 };
	}
	return err;
}

/* ---- --hierarchy (report/hierarchy.c) ------------------------------------------------ */

size_t sort_list__nr_keys(const struct sort_list *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nr_sorts; i++)
		n += l->sorts[i]->kind == DIM_SE;
	return n;
}

/* The i-th sort key (DIM_SE) of l->sorts. */
const struct sort_dim *sort_list__key_dim(const struct sort_list *l, size_t key)
{
	for (size_t i = 0; i < l->nr_sorts; i++)
		if (l->sorts[i]->kind == DIM_SE && !key--)
			return l->sorts[i];
	return NULL;
}

int sort_list__key_cmp(const struct sort_list *l, size_t key, const struct hist_entry *a,
		       const struct hist_entry *b)
{
	const struct sort_dim *d = sort_list__key_dim(l, key);

	sort__lazy_text(l, d, b);
	sort__lazy_text(l, d, a);
	/* as in sort_list__cmp(): a dso key compares the dsos on its own */
	if (d->cmp == sort__sym_cmp && (l->need & SORT_NEED_DSO))
		return sym_cmp(l, true, a, b);
	return dim_cmp(l, d, a, b);
}

int sort_list__key_output_cmp(const struct sort_list *l, size_t key,
			      const struct hist_entry *a, const struct hist_entry *b)
{
	const struct sort_dim *k = sort_list__key_dim(l, key);
	struct sort_ctx c = { 0 };

	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int r;

		if (d->kind == DIM_HPP)
			r = value_cmp(l, &c, d, a, b);
		else if (d == k)
			r = -dim_sort(l, d, a, b);
		else
			r = 0;
		if (r)
			return r;
	}
	return 0;
}
