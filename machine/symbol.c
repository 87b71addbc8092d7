/*
 * symbol - symbol tables as perf builds them (machine/symbol.h): a table builder that
 * takes symbols in any order (symtab_builder__add()), perf's fix-ups of symbol ends
 * and duplicates, perf's red-black tree replayed where symbols overlap, the finished
 * table (a flattened array of ranges, an index of address buckets, only the symbols'
 * names kept) and its lookups (symtab__find()); a symbol and offset formatted.  The
 * tables' sources are symbol-text.c (kallsyms, perf-PID.map) and symbol-elf.c, the
 * demangler symbol-demangle.c; what they share is symbol-internal.h.
 */
#define DIRREPORT_IN_MACHINE
#include "machine/symbol.h"

#include <elf.h>	/* STT_OBJECT */
#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free, malloc, qsort_r, realloc */
#include <string.h>	/* memcpy, memset, strlen */

#include "machine/symbol-internal.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "banned.h"

/* ------------------------------------------------------------------------ */
/* The replayed red-black tree                                               */
/* ------------------------------------------------------------------------ */

#define NIL SYMTAB_NO_SYM

static int pool_grow(struct symtab_builder *b, size_t need)
{
	size_t cap = b->pool_cap ? b->pool_cap : 4096;
	char *p;

	while (cap - b->pool_len < need) {
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	if (cap > UINT32_MAX)
		return -ENOMEM;
	p = hugemem__realloc(b->pool, b->pool_len, cap, &b->pool_mapped);
	if (!p)
		return -ENOMEM;
	b->pool = p;
	b->pool_cap = cap;
	return 0;
}

/* Copy name[0..n) into the pool; *off receives its offset.  Names are not shared:
 * looking each up in a hash cost more (cache misses on 100k+ kallsyms names) than
 * the bytes of the few repeated names. */
static int pool_add(struct symtab_builder *b, const char *name, size_t n, uint32_t *off)
{
	if (n + 1 > b->pool_cap - b->pool_len && pool_grow(b, n + 1))
		return -ENOMEM;
	memcpy(b->pool + b->pool_len, name, n);
	b->pool[b->pool_len + n] = '\0';
	*off = (uint32_t)b->pool_len;
	b->pool_len += n + 1;
	return 0;
}

/* A node whose name is at offset name_off of the pool (or of the pool to be:
 * symtab_builder__take_pool()). */
static int builder_node(struct symtab_builder *b, uint64_t start, uint64_t size,
			uint8_t binding, uint8_t type, uint32_t name_off, uint8_t kind)
{
	struct sb_node *nd;

	/* node indexes are uint32_t, NIL excluded */
	if (b->nr + 1 >= NIL ||
	    hugemem__grow(&b->n, &b->cap, &b->n_mapped, b->nr + 1, sizeof(*b->n), 256))
		return -ENOMEM;
	nd = &b->n[b->nr++];
	nd->start = start;
	nd->end = size ? start + size : start;
	nd->name = name_off;
	nd->binding = binding;
	nd->type = type;
	nd->dead = 0;
	nd->kind = kind;
	b->live++;
	b->seq_valid = false;
	return 0;
}

int symtab_builder__add(struct symtab_builder *b, uint64_t start, uint64_t size,
			uint8_t binding, uint8_t type, const char *name, size_t name_len)
{
	uint32_t off;

	if (b->nr + 1 >= NIL || pool_add(b, name, name_len, &off))
		return -ENOMEM;
	return builder_node(b, start, size, binding, type, off, 0);
}

/* ---- the in-order sequence ------------------------------------------------
 * perf inserts a symbol left of the nodes with a larger start and right of the
 * others, so an in-order walk of its tree gives the live symbols sorted by start,
 * equal starts in insertion order, whatever the tree's shape.  Fixing up ends and
 * duplicates needs that order only; the shape matters only to perf's lookup where
 * symbols overlap (see symtab_builder__finish). */

static int cmp_seq(const void *a, const void *b, void *arg)
{
	const struct sb_node *n = arg;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	if (n[x].start != n[y].start)
		return n[x].start < n[y].start ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* b->seq: the live nodes in tree order. */
int symtab_builder__build_seq(struct symtab_builder *b)
{
	bool sorted = true;
	size_t k = 0;

	if (b->seq_valid)
		return 0;
	if (b->seq_cap < b->live) {
		uint32_t *v = realloc(b->seq, b->live * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->seq = v;
		b->seq_cap = b->live;
	}
	for (size_t i = 0; i < b->nr; i++) {
		if (b->n[i].dead)
			continue;
		if (k && b->n[b->seq[k - 1]].start > b->n[i].start)
			sorted = false;
		b->seq[k++] = (uint32_t)i;
	}
	b->seq_nr = k;
	if (!sorted)	/* kallsyms and most symbol tables come sorted already */
		qsort_r(b->seq, k, sizeof(*b->seq), cmp_seq, b->n);
	b->seq_valid = true;
	return 0;
}

/* Erase node x (it must be removed from b->seq by the caller); logged so that
 * symtab_builder__finish() can replay perf's tree when it needs its shape. */
int symtab_builder__seq_erase(struct symtab_builder *b, uint32_t x)
{
	if (array__grow(&b->erased, &b->erased_cap, b->nr_erased + 1, sizeof(*b->erased), 64))
		return -ENOMEM;
	b->erased[b->nr_erased].node = x;
	b->erased[b->nr_erased].after = (uint32_t)b->nr;
	b->nr_erased++;
	b->n[x].dead = 1;
	b->live--;
	return 0;
}

int symtab_builder__fixup_end(struct symtab_builder *b, bool kallsyms)
{
	struct sb_node *n = b->n, *last;

	if (symtab_builder__build_seq(b))
		return -ENOMEM;
	if (!b->seq_nr)
		return 0;
	for (size_t i = 1; i < b->seq_nr; i++) {
		struct sb_node *p = &n[b->seq[i - 1]], *c = &n[b->seq[i]];

		if (p->end != p->start)
			continue;
		if (kallsyms &&
		    symtab_builder__name_has(b, b->seq[i - 1], '[', SB_KIND_BRACKET) !=
		    symtab_builder__name_has(b, b->seq[i], '[', SB_KIND_BRACKET))
			p->end = ((p->end + 4096) + 4095) & ~(uint64_t)4095;
		else
			p->end = c->start;
	}
	last = &n[b->seq[b->seq_nr - 1]];
	if (last->end == last->start)
		last->end = ((last->start + 4095) & ~(uint64_t)4095) + 4096;
	return 0;
}

static size_t leading_underscores(const char *s)
{
	size_t n = 0;

	while (s[n] == '_')
		n++;
	return n;
}

/* perf's choose_best_symbol(): true keeps a (drops b), false keeps b. */
static bool keep_first(const struct symtab_builder *b, uint32_t xa, uint32_t xb)
{
	const struct sb_node *a = &b->n[xa], *c = &b->n[xb];
	uint64_t la = a->end - a->start, lb = c->end - c->start;
	size_t na, nb;

	if (lb == 0 && la > 0)
		return true;
	if (la == 0 && lb > 0)
		return false;
	if ((a->binding == 2) != (c->binding == 2))	/* STB_WEAK */
		return c->binding == 2;
	if ((a->binding == 1) != (c->binding == 1))	/* STB_GLOBAL */
		return a->binding == 1;
	na = leading_underscores(symtab_builder__node_name(b, xa));
	nb = leading_underscores(symtab_builder__node_name(b, xb));
	if (na != nb)
		return na < nb;
	na = strlen(symtab_builder__node_name(b, xa));
	nb = strlen(symtab_builder__node_name(b, xb));
	if (na != nb)
		return na > nb;
	return true;
}

int symtab_builder__fixup_duplicate(struct symtab_builder *b)
{
	size_t w = 0;

	if (symtab_builder__build_seq(b))
		return -ENOMEM;
	/* perf walks the tree comparing each symbol with the next: the one dropped
	 * leaves the walk, the one kept is compared with the following symbol */
	for (size_t i = 0; i < b->seq_nr; i++) {
		uint32_t x = b->seq[i];

		if (w && b->n[b->seq[w - 1]].start == b->n[x].start) {
			uint32_t curr = b->seq[w - 1];

			if (keep_first(b, curr, x)) {
				if (symtab_builder__seq_erase(b, x))
					return -ENOMEM;
				continue;
			}
			if (symtab_builder__seq_erase(b, curr))
				return -ENOMEM;
			b->seq[w - 1] = x;
			continue;
		}
		b->seq[w++] = x;
	}
	b->seq_nr = w;
	return 0;
}

/* perf's __symbols__insert(): smaller starts left, equal or larger right. */
static void tree_insert(struct symtab_builder *b, uint32_t z)
{
	const struct rbtree *t = &b->tree;
	uint32_t x = t->root, y = NIL;
	uint64_t start = b->n[z].start;

	b->n[z].dead = 0;
	while (x != NIL) {
		y = x;
		x = start < b->n[x].start ? t->left[x] : t->right[x];
	}
	rbtree__link(&b->tree, z, y, y != NIL && start < b->n[y].start);
	b->live++;
}

/* perf's rb_erase of a symbol (symbols__fixup_duplicate, the end fix-ups). */
static void tree_erase(struct symtab_builder *b, uint32_t z)
{
	rbtree__erase(&b->tree, z);
	b->n[z].dead = 1;
	b->live--;
}

/* Build perf's tree as it stood: every insertion and erasure in their order. */
static int replay_tree(struct symtab_builder *b)
{
	size_t j = 0;

	if (rbtree__reserve(&b->tree, b->nr))
		return -ENOMEM;
	b->tree.root = NIL;
	b->live = 0;
	for (size_t i = 0; i <= b->nr; i++) {
		while (j < b->nr_erased && b->erased[j].after == i)
			tree_erase(b, b->erased[j++].node);
		if (i < b->nr)
			tree_insert(b, (uint32_t)i);
	}
	return 0;
}

/* perf's symbols__find(): the first node on the search path that contains addr. */
static uint32_t tree_find(const struct symtab_builder *b, uint64_t addr)
{
	uint32_t x = b->tree.root;

	while (x != NIL) {
		const struct sb_node *s = &b->n[x];

		if (addr < s->start)
			x = b->tree.left[x];
		else if (addr > s->end || (addr == s->end && addr != s->start))
			x = b->tree.right[x];
		else
			return x;
	}
	return NIL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

void symtab_builder__exit(struct symtab_builder *b)
{
	hugemem__free(b->n, b->n_mapped);
	hugemem__free(b->pool, b->pool_mapped);
	free(b->seq);
	free(b->erased);
	rbtree__exit(&b->tree);
	memset(b, 0, sizeof(*b));
}

void symtab__exit(struct symtab *t)
{
	hugemem__free(t->syms, t->syms_mapped);
	hugemem__free(t->ranges, t->ranges_mapped);
	hugemem__free(t->names, t->names_mapped);
	free(t->index);
	memset(t, 0, sizeof(*t));
}

/* The addresses where the tree's answer can change. */
static uint64_t *boundaries(const struct symtab_builder *b, size_t *nr)
{
	uint64_t *v;
	size_t n = 0;

	if (b->live > SIZE_MAX / (2 * sizeof(*v)))
		return NULL;
	v = malloc((b->live * 2 + 1) * sizeof(*v));
	if (!v)
		return NULL;
	for (size_t i = 0; i < b->nr; i++) {
		const struct sb_node *s = &b->n[i];

		if (s->dead)
			continue;
		v[n++] = s->start;
		if (s->end != s->start)
			v[n++] = s->end;
		else if (s->start != UINT64_MAX)
			v[n++] = s->start + 1;
	}
	qsort(v, n, sizeof(*v), cmp_u64);
	*nr = 0;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || v[i] != v[i - 1])
			v[(*nr)++] = v[i];
	return v;
}

/* The last address node x answers for (its end is exclusive; a zero-size symbol
 * answers for its start), or false if it answers for none (end below start). */
static bool last_addr(const struct sb_node *x, uint64_t *last)
{
	if (x->end < x->start)
		return false;
	*last = x->end > x->start ? x->end - 1 : x->start;
	return true;
}

/* With no two symbols answering for one address, any tree shape gives the same
 * lookups: each symbol answers for its own range.  False if they overlap. */
static bool flatten_disjoint(const struct symtab_builder *b, struct symtab *out)
{
	size_t nr = 0;
	uint64_t last = 0;

	for (size_t i = 0; i < b->seq_nr; i++) {
		const struct sb_node *x = &b->n[b->seq[i]];

		if ((i && x->start <= last) || !last_addr(x, &last))
			return false;
	}
	for (size_t i = 0; i < b->seq_nr; i++) {
		const struct sb_node *x = &b->n[b->seq[i]];

		last_addr(x, &last);
		out->ranges[nr].start = x->start;
		out->ranges[nr++].sym = (uint32_t)i;
		if (last != UINT64_MAX &&
		    (i + 1 == b->seq_nr || b->n[b->seq[i + 1]].start != last + 1)) {
			out->ranges[nr].start = last + 1;
			out->ranges[nr++].sym = SYMTAB_NO_SYM;
		}
	}
	out->nr_ranges = nr;
	return true;
}

static int flatten(struct symtab_builder *b, const uint32_t *order_of, struct symtab *out)
{
	size_t nb = 0, nr = 0;
	uint64_t *bounds;

	/* a kernel's tables are megabytes: huge pages where the system gives them */
	out->ranges = hugemem__alloc((b->live * 2 + 1) * sizeof(*out->ranges),
				     &out->ranges_mapped);
	if (!out->ranges)
		return -ENOMEM;
	if (!b->replay_always && flatten_disjoint(b, out))
		return 0;
	/* Overlapping symbols: the answer depends on perf's tree. */
	if (replay_tree(b))
		return -ENOMEM;
	bounds = boundaries(b, &nb);
	if (!bounds)
		return -ENOMEM;
	for (size_t i = 0; i < nb; i++) {
		uint32_t x = tree_find(b, bounds[i]);
		uint32_t s = x == NIL ? SYMTAB_NO_SYM : order_of[x];

		if (nr && out->ranges[nr - 1].sym == s)
			continue;
		out->ranges[nr].start = bounds[i];
		out->ranges[nr].sym = s;
		nr++;
	}
	out->nr_ranges = nr;
	free(bounds);
	return 0;
}

/* t's index (struct symtab), buckets of about two ranges; none without memory (the
 * lookups then search all ranges: same answers). */
static void build_index(struct symtab *t)
{
	uint64_t base, span;
	unsigned shift = 0;
	size_t n, r = 0;

	if (t->nr_ranges < SYMTAB_INDEX_MIN || t->nr_ranges > UINT32_MAX)
		return;
	base = t->ranges[0].start;
	span = t->ranges[t->nr_ranges - 1].start - base;
	while ((span >> shift) > t->nr_ranges / 2)
		shift++;
	/* buckets 0..n-1 hold [base, base + span]: index[n] is every range */
	n = (size_t)(span >> shift) + 1;
	if (!(t->index = malloc((n + 1) * sizeof(*t->index))))
		return;
	for (size_t b = 0; b < n; b++) {
		uint64_t from = (uint64_t)b << shift;	/* <= span: no overflow */

		while (r < t->nr_ranges && t->ranges[r].start - base < from)
			r++;
		t->index[b] = (uint32_t)r;
	}
	t->index[n] = (uint32_t)t->nr_ranges;
	t->nr_index = n;
	t->index_base = base;
	t->index_shift = shift;
}

/*
 * The pool to out, its names' offsets in out->syms made pointers.  A pool much
 * larger than the names kept - a kallsyms file's text, parsed in place, with its
 * addresses, types and the lines left out - is copied down to those names (122k
 * kernel symbols: 5.4 MB of text in huge pages, 3.1 MB of names in small ones, read
 * only to print): the symbols' order and texts are the same.  -ENOMEM.
 */
static int take_names(struct symtab_builder *b, struct symtab *out)
{
	size_t need = 0;
	char *names, *w;

	for (size_t i = 0; i < out->nr; i++)
		need += strlen(b->pool + (uintptr_t)out->syms[i].name) + 1;
	if (need >= b->pool_len / 4 * 3) {
		out->names = b->pool;
		out->names_mapped = b->pool_mapped;
		b->pool = NULL;
		b->pool_mapped = 0;
		for (size_t i = 0; i < out->nr; i++)
			out->syms[i].name = out->names + (uintptr_t)out->syms[i].name;
		return 0;
	}
	if (!(names = malloc(need ? need : 1)))
		return -ENOMEM;
	w = names;
	for (size_t i = 0; i < out->nr; i++) {
		const char *name = b->pool + (uintptr_t)out->syms[i].name;
		size_t n = strlen(name) + 1;

		memcpy(w, name, n);
		out->syms[i].name = w;
		w += n;
	}
	out->names = names;
	out->names_mapped = 0;	/* malloc()ed: hugemem__free() frees it */
	return 0;
}

int symtab_builder__finish(struct symtab_builder *b, struct symtab *out)
{
	uint32_t *order_of = NULL;
	size_t k = 0;
	int err = -ENOMEM;

	memset(out, 0, sizeof(*out));
	if (!b->live) {
		err = 0;
		goto out;
	}
	if (symtab_builder__build_seq(b) ||
	    b->live > SIZE_MAX / (2 * sizeof(*out->ranges)) - 1)
		goto out;
	order_of = malloc(b->nr * sizeof(*order_of));
	out->syms = hugemem__alloc(b->live * sizeof(*out->syms), &out->syms_mapped);
	if (!order_of || !out->syms)
		goto out;
	for (size_t i = 0; i < b->seq_nr; i++) {
		uint32_t x = b->seq[i];
		struct symbol *s = &out->syms[k];

		s->start = b->n[x].start;
		s->end = b->n[x].end;
		s->name = (const char *)(uintptr_t)b->n[x].name;	/* offset for now */
		s->binding = b->n[x].binding;
		s->type = b->n[x].type;
		s->idx = (uint32_t)k;
		order_of[x] = (uint32_t)k++;
	}
	out->nr = k;
	if (flatten(b, order_of, out))
		goto out;
	/* Hand the pool over; names become pointers. */
	if (take_names(b, out))
		goto out;
	build_index(out);
	err = 0;
out:
	free(order_of);
	if (err)
		symtab__exit(out);
	symtab_builder__exit(b);
	return err;
}

int symtab_builder__span(struct symtab_builder *b, uint64_t *start, uint64_t *end)
{
	if (!b->live)
		return 0;
	if (symtab_builder__build_seq(b))
		return -ENOMEM;
	*start = b->n[b->seq[0]].start;
	*end = b->n[b->seq[b->seq_nr - 1]].end;
	return 1;
}

const struct symbol *symtab__find(const struct symtab *t, uint64_t addr)
{
	size_t lo = 0, hi = t->nr_ranges;

	if (t->index) {
		uint64_t b;

		if (addr < t->index_base)
			return NULL;
		b = (addr - t->index_base) >> t->index_shift;
		if (b < t->nr_index) {
			lo = t->index[b];
			hi = t->index[b + 1];
		} else {
			lo = hi;	/* past the last range's start */
		}
	}
	/* last range with start <= addr */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->ranges[mid].start <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || t->ranges[lo - 1].sym == SYMTAB_NO_SYM)
		return NULL;
	return &t->syms[t->ranges[lo - 1].sym];
}

/* ------------------------------------------------------------------------ */
/* Formatting                                                                */
/* ------------------------------------------------------------------------ */

size_t symbol__format_addr(char *buf, size_t len, uint64_t addr)
{
	int n = snprintf(buf, len, "0x%016" PRIx64, addr);

	return n < 0 ? 0 : (size_t)n;
}

size_t symbol__format(char *buf, size_t len, const struct symbol *sym, uint64_t addr,
		      uint64_t sym_unmapped_start)
{
	int n;

	if (sym->type == STT_OBJECT)
		n = snprintf(buf, len, "%s+0x%" PRIx64, sym->name,
			     addr - sym_unmapped_start);
	else
		n = snprintf(buf, len, "%s", sym->name);
	return n < 0 ? 0 : (size_t)n;
}
