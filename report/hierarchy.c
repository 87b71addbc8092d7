/* hierarchy.c - perf report --stdio --hierarchy (see hierarchy.h) */
#include "report/hierarchy.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "util/rbtree.h"
#include "report/sort.h"

#include "banned.h"

/* perf's indent per level (observed: three spaces) */
#define INDENT 3

/* One node: a level's key, the counts of the entries below it. */
struct node {
	struct hist_entry e;	/* its first entry (collapsed order), counts summed */
	uint32_t children;	/* root of its children's tree (next level's tree) */
	bool shown;		/* some entry below it is not filtered (the counts
				 * are of all of them, as perf's) */
	size_t first, nr;	/* its children in output order: perm[level + 1] */
};

struct levels {
	struct node **v;	/* per level, in creation order */
	size_t *nr;
	struct rbtree *t;	/* per level: the collapse trees of all parents */
	uint32_t root;		/* the first level's tree */
	size_t n;		/* levels */
	/* the group view: every node's members' sums (m per node, as node order) */
	size_t m;
	struct hist_entry **pe;			/* per level */
	const struct hist_entry ***pairs;	/* per level: pointers into pe */
};

/* ---- building ------------------------------------------------------------------ */

static void levels_free(struct levels *lv)
{
	for (size_t k = 0; lv->v && k < lv->n; k++)
		free(lv->v[k]);
	for (size_t k = 0; lv->t && k < lv->n; k++)
		rbtree__exit(&lv->t[k]);
	for (size_t k = 0; lv->pe && k < lv->n; k++)
		free(lv->pe[k]);
	for (size_t k = 0; lv->pairs && k < lv->n; k++)
		free(lv->pairs[k]);
	free(lv->pe);
	free(lv->pairs);
	free(lv->v);
	free(lv->t);
	free(lv->nr);
}

/*
 * perf's hierarchy collapse: every entry, in collapsed order, goes down the levels;
 * at each it is searched in its parent's tree with that level's key comparison
 * (node against entry as in the collapse) and makes a new node when not found.
 */
static int levels_build(struct levels *lv, const struct sort_list *sl,
			const struct hist_entry *const *e, size_t n, size_t m)
{
	size_t cap = n ? n : 1;

	lv->m = m;
	lv->n = sort_list__nr_keys(sl);
	lv->root = RBTREE_NIL;
	lv->v = calloc(lv->n, sizeof(*lv->v));
	lv->nr = calloc(lv->n, sizeof(*lv->nr));
	lv->t = calloc(lv->n, sizeof(*lv->t));
	lv->pe = calloc(lv->n, sizeof(*lv->pe));
	lv->pairs = calloc(lv->n, sizeof(*lv->pairs));
	if (!lv->v || !lv->nr || !lv->t || !lv->pe || !lv->pairs)
		return -ENOMEM;
	for (size_t k = 0; m && k < lv->n; k++)
		if (!(lv->pe[k] = calloc(cap * m, sizeof(**lv->pe))) ||
		    !(lv->pairs[k] = malloc(cap * m * sizeof(**lv->pairs))))
			return -ENOMEM;
	for (size_t k = 0; k < lv->n; k++) {
		rbtree__init(&lv->t[k]);
		if (!(lv->v[k] = malloc(cap * sizeof(**lv->v))) ||
		    rbtree__reserve(&lv->t[k], cap))
			return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		uint32_t *root = &lv->root;

		for (size_t k = 0; k < lv->n; k++) {
			struct rbtree *t = &lv->t[k];
			struct node *v = lv->v[k];
			uint32_t x = *root, p = RBTREE_NIL;
			bool left = false;

			while (x != RBTREE_NIL) {
				int c = sort_list__key_cmp(sl, k, e[i], &v[x].e);

				if (!c)
					break;
				p = x;
				left = c < 0;
				x = left ? t->left[x] : t->right[x];
			}
			if (x == RBTREE_NIL) {	/* a new node */
				x = (uint32_t)lv->nr[k]++;
				v[x].e = *e[i];
				memset(&v[x].e.stat, 0, sizeof(v[x].e.stat));
				v[x].e.pairs = m ? lv->pairs[k] + (size_t)x * m : NULL;
				v[x].e.nr_pairs = (uint32_t)m;
				for (size_t j = 0; j < m; j++)
					lv->pairs[k][(size_t)x * m + j] =
						&lv->pe[k][(size_t)x * m + j];
				v[x].children = RBTREE_NIL;
				v[x].shown = false;
				v[x].first = v[x].nr = 0;
				t->root = *root;
				rbtree__link(t, x, p, left);
				*root = t->root;
			}
			hist_stat__merge(&v[x].e.stat, &e[i]->stat);
			for (size_t j = 0; j < m && j < e[i]->nr_pairs; j++)
				if (e[i]->pairs[j])
					hist_stat__merge(&lv->pe[k][(size_t)x * m + j].stat,
						 &e[i]->pairs[j]->stat);
			if (!e[i]->filtered)
				v[x].shown = true;
			root = &v[x].children;
		}
	}
	return 0;
}

/* ---- printing ------------------------------------------------------------------ */

struct printer {
	const struct hierarchy_print *p;
	struct levels lv;
	uint32_t **perm;	/* per level: each sibling range's output order
				 * (indices local to the range), at the range */
	struct rbtree tree;	/* scratch: one sibling range */
	uint32_t *stack, *ids;	/* scratch */
	struct sort_widths w;
	char *buf;
	size_t buf_len;
	size_t values_len;	/* the value columns' text length */
	uint64_t shown_period, shown_samples;	/* the shown first-level nodes' */
	uint64_t shown_group_period;	/* ... period, the members' included */
	uint64_t total;		/* percent base */
	uint64_t *totals;	/* ... and the members' (the group view) */
	int err;		/* the first error of p->graph */
	FILE *out;
};

static void spaces(FILE *out, size_t n)
{
	fprintf(out, "%*s", (int)n, "");
}

static float percent(const struct printer *pr, const struct hist_entry *e)
{
	/* as perf's hist_entry__get_percent_limit(): a float */
	return pr->total ? (float)((double)e->stat.period * 100.0 / (double)pr->total) : 0;
}

/*
 * One parent's children in perf's output order: in their collapse tree's order they
 * go into a tree ordered by the whole sort order (value columns, then every key,
 * with the nodes' first entries' attributes; ties go right), as perf's output
 * resort does.  Each node's lazily computed texts are those its placement needed
 * (they decide the widths).  Writes the order (node indices of level k) to out and
 * returns the number of children.
 */
static size_t sort_siblings(struct printer *pr, size_t k, uint32_t root, uint32_t *out)
{
	struct rbtree *in = &pr->lv.t[k], *t = &pr->tree;
	struct node *v = pr->lv.v[k];
	struct sort_ctx ctx = { .group_sort_idx = pr->p->group_sort_idx };
	size_t n;

	in->root = root;
	n = rbtree__inorder(in, pr->ids, pr->stack);
	t->root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++) {
		struct node *z = &v[pr->ids[i]];
		uint32_t p = RBTREE_NIL, x = t->root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			left = sort_list__output_cmp(pr->p->sl, &ctx, &z->e,
						     &v[pr->ids[x]].e) > 0;
			x = left ? t->left[x] : t->right[x];
		}
		rbtree__link(t, (uint32_t)i, p, left);
		z->e.src_width = (z->e.srcline ? SORT_NEED_SRCLINE : 0) |
				 (z->e.srcfile ? SORT_NEED_SRCFILE : 0) |
				 (z->e.trace_done ? SORT_NEED_TRACE : 0);
	}
	rbtree__inorder(t, out, pr->stack);
	for (size_t i = 0; i < n; i++)
		out[i] = pr->ids[out[i]];
	return n;
}

/* Every parent's children ordered (level by level), then the widths of every node
 * (perf's hists__calc_col_len() for each node it places). */
static void order_all(struct printer *pr)
{
	struct levels *lv = &pr->lv;

	sort_siblings(pr, 0, lv->root, pr->perm[0]);
	for (size_t k = 0; k + 1 < lv->n; k++) {
		size_t used = 0;

		for (size_t i = 0; i < lv->nr[k]; i++) {
			struct node *nd = &lv->v[k][pr->perm[k][i]];

			nd->first = used;
			nd->nr = sort_siblings(pr, k + 1, nd->children, pr->perm[k + 1] + used);
			used += nd->nr;
		}
	}
	sort_widths__init(&pr->w, pr->p->sl);
	pr->w.group_nr = lv->m + 1;
	for (size_t k = 0; k < lv->n; k++)
		for (size_t i = 0; i < lv->nr[k]; i++)
			if (lv->v[k][i].shown)
				sort_widths__add(&pr->w, pr->p->sl, &lv->v[k][i].e);
	sort_widths__finish(&pr->w, pr->p->sl);
}

static void print_range(struct printer *pr, size_t k, size_t first, size_t nr);

static void print_node(struct printer *pr, size_t k, const struct node *nd)
{
	const struct hierarchy_print *p = pr->p;
	size_t levels = pr->lv.n;

	spaces(pr->out, k * INDENT);
	sort_list__snprintf_values(p->sl, &pr->w, &nd->e, pr->totals, pr->buf, pr->buf_len);
	fputs(pr->buf, pr->out);
	spaces(pr->out, 2 + (levels - 1) * INDENT);
	sort_list__snprintf_key(p->sl, &pr->w, k, &nd->e, pr->buf, pr->buf_len);
	fputs(pr->buf, pr->out);
	fputc('\n', pr->out);
	if (k + 1 < levels)
		print_range(pr, k + 1, nd->first, nd->nr);
	else if (p->graph && !pr->err)
		pr->err = p->graph(p->ctx, &nd->e, pr->out);
}

static void print_range(struct printer *pr, size_t k, size_t first, size_t nr)
{
	const struct node *v = pr->lv.v[k];
	const uint32_t *idx = pr->perm[k] + first;
	size_t printed = 0;

	for (size_t i = 0; i < nr && !pr->err; i++) {
		if (!v[idx[i]].shown ||
		    percent(pr, &v[idx[i]].e) < pr->p->percent_limit)
			continue;
		print_node(pr, k, &v[idx[i]]);
		printed++;
	}
	if (!printed && k)	/* perf: under a printed node, one line */
		fprintf(pr->out, "%*sno entry >= %.2f%%\n",
			(int)(k * INDENT + pr->values_len + 2 + (pr->lv.n - 1) * INDENT), "",
			(double)pr->p->percent_limit);
}

static void print_header(const struct printer *pr, FILE *out)
{
	const struct sort_list *sl = pr->p->sl;
	size_t levels = pr->lv.n, text = 0, width = 0;

	fputs("# ", out);
	spaces(out, (levels - 1) * INDENT);
	sort_list__fprintf_value_headers(sl, &pr->w, false, out);
	fputs("  ", out);
	for (size_t k = 0; k < levels; k++) {
		size_t kw = k * INDENT + sort_list__key_width(sl, &pr->w, k);

		if (k)
			text += (size_t)fprintf(out, " / ");
		text += (size_t)fprintf(out, "%s", sort_list__key_header(sl, k));
		if (kw > width)
			width = kw;
	}
	if (text > width)
		width = text;
	fputs("\n# ", out);
	for (size_t k = 0; k < (levels - 1) * INDENT; k++)
		fputc('.', out);
	sort_list__fprintf_value_headers(sl, &pr->w, true, out);
	fputs("  ", out);
	for (size_t k = 0; k < width; k++)
		fputc('.', out);
	fputs("\n#\n", out);
}

int hierarchy__fprintf(const struct hierarchy_print *p, const struct hist_entry *const *e,
		       size_t n, FILE *out)
{
	struct printer pr = { .p = p, .out = out };
	int err = -EINVAL;

	rbtree__init(&pr.tree);
	if (!sort_list__nr_keys(p->sl))
		goto out;
	if ((err = levels_build(&pr.lv, p->sl, e, n, p->nr_members ? p->nr_members - 1 : 0)))
		goto out;
	err = -ENOMEM;
	pr.perm = calloc(pr.lv.n, sizeof(*pr.perm));
	pr.stack = malloc((n ? n : 1) * sizeof(*pr.stack));
	pr.ids = malloc((n ? n : 1) * sizeof(*pr.ids));
	pr.totals = calloc(pr.lv.m + 1, sizeof(*pr.totals));
	if (!pr.perm || !pr.stack || !pr.ids || !pr.totals ||
	    rbtree__reserve(&pr.tree, n ? n : 1))
		goto out;
	for (size_t k = 0; k < pr.lv.n; k++)
		if (!(pr.perm[k] = malloc((pr.lv.nr[k] ? pr.lv.nr[k] : 1) * sizeof(**pr.perm))))
			goto out;
	err = 0;
	for (size_t i = 0; i < pr.lv.nr[0]; i++) {	/* perf's non-filtered stats */
		const struct node *nd = &pr.lv.v[0][i];

		if (nd->shown) {
			pr.shown_period += nd->e.stat.period;
			pr.shown_samples += nd->e.stat.nr_events;
		}
	}
	pr.total = p->relative ? pr.shown_period : p->total;
	pr.totals[0] = pr.total;
	for (size_t j = 1; j < pr.lv.m + 1; j++) {
		uint64_t shown = 0;	/* the member's shown first-level nodes' */

		for (size_t i = 0; p->relative && i < pr.lv.nr[0]; i++)
			if (pr.lv.v[0][i].shown)
				shown += pr.lv.pe[0][i * pr.lv.m + j - 1].stat.period;
		pr.totals[j] = p->relative ? shown : p->member_totals[j - 1];
		pr.shown_group_period += shown;
	}
	pr.shown_group_period += pr.shown_period;
	order_all(&pr);
	/* a line's parts: the value columns, a key's text (at most its column's
	 * width but for the few keys perf prints whole, and -v's address) */
	pr.buf_len = 4096;
	for (size_t k = 0; k < pr.lv.n; k++)
		pr.buf_len += sort_list__key_width(p->sl, &pr.w, k);
	if (!(pr.buf = malloc(pr.buf_len))) {
		err = -ENOMEM;
		goto out;
	}
	{
		/* all lines' value columns are as long: any node's */
		struct hist_entry zero = { 0 };
		const struct hist_entry *any = pr.lv.nr[0] ? &pr.lv.v[0][0].e : &zero;

		pr.values_len = sort_list__snprintf_values(p->sl, &pr.w, any, pr.totals,
							   pr.buf, pr.buf_len);
	}
	if (p->event_header)
		p->event_header(p->ctx, pr.shown_group_period, pr.shown_samples, out);
	if (!p->quiet)
		print_header(&pr, out);
	print_range(&pr, 0, 0, pr.lv.nr[0]);
	err = pr.err;
out:
	for (size_t k = 0; pr.perm && k < pr.lv.n; k++)
		free(pr.perm[k]);
	free(pr.perm);
	free(pr.stack);
	free(pr.ids);
	free(pr.totals);
	free(pr.buf);
	rbtree__exit(&pr.tree);
	levels_free(&pr.lv);
	return err;
}
