#include "machine/symbol.h"

#include <ctype.h>	/* isalnum, isdigit */
#include <dlfcn.h>	/* dlopen, dlsym: __cxa_demangle from libstdc++ */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <gelf.h>	/* GElf_*, gelf_getsym, gelf_getshdr, gelf_getphdr */
#include <elfutils/libdwelf.h>	/* dwelf_elf_gnu_build_id */
#include <inttypes.h>	/* PRIx64 */
#include <pthread.h>	/* pthread_once */
#include <stdio.h>	/* fopen, getline, snprintf */
#include <stdlib.h>	/* malloc, realloc, free, qsort, strtoull */
#include <string.h>	/* memcpy, memrchr, strlen, strcmp, strchr, strstr */
#include <unistd.h>	/* close */

#include "util/array.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "banned.h"

/* ------------------------------------------------------------------------ */
/* The replayed red-black tree                                               */
/* ------------------------------------------------------------------------ */

#define NIL SYMTAB_NO_SYM

struct sb_node {
	uint64_t start, end;	/* map_ip space, end exclusive */
	uint32_t name;		/* offset in the builder's pool */
	uint8_t binding, type;
	uint8_t dead;		/* erased */
	uint8_t kind;		/* KIND_*: what the kallsyms rules ask of its name */
};

/* A node's name holds '[' (a module's, perf's kallsyms end rule) or '\t' ("name\t
 * [module]": perf's kallsyms split), noted as kallsyms lines are parsed (in parallel,
 * see symtab__parse_kallsyms()) rather than searched for in the serial fix-ups;
 * without KIND_KNOWN (symtab_builder__add()) the name is searched. */
#define KIND_KNOWN 1u
#define KIND_BRACKET 2u
#define KIND_TAB 4u

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

/* Whether node x's name holds c ('[' or '\t', the KIND_ bit for it). */
static bool name_has(const struct symtab_builder *b, uint32_t x, char c, uint8_t bit)
{
	if (b->n[x].kind & KIND_KNOWN)
		return b->n[x].kind & bit;
	return strchr(b->pool + b->n[x].name, c) != NULL;
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
static int build_seq(struct symtab_builder *b)
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
static int seq_erase(struct symtab_builder *b, uint32_t x)
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

static const char *node_name(const struct symtab_builder *b, uint32_t x)
{
	return b->pool + b->n[x].name;
}

int symtab_builder__fixup_end(struct symtab_builder *b, bool kallsyms)
{
	struct sb_node *n = b->n, *last;

	if (build_seq(b))
		return -ENOMEM;
	if (!b->seq_nr)
		return 0;
	for (size_t i = 1; i < b->seq_nr; i++) {
		struct sb_node *p = &n[b->seq[i - 1]], *c = &n[b->seq[i]];

		if (p->end != p->start)
			continue;
		if (kallsyms && name_has(b, b->seq[i - 1], '[', KIND_BRACKET) !=
				name_has(b, b->seq[i], '[', KIND_BRACKET))
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
	na = leading_underscores(node_name(b, xa));
	nb = leading_underscores(node_name(b, xb));
	if (na != nb)
		return na < nb;
	na = strlen(node_name(b, xa));
	nb = strlen(node_name(b, xb));
	if (na != nb)
		return na > nb;
	return true;
}

int symtab_builder__fixup_duplicate(struct symtab_builder *b)
{
	size_t w = 0;

	if (build_seq(b))
		return -ENOMEM;
	/* perf walks the tree comparing each symbol with the next: the one dropped
	 * leaves the walk, the one kept is compared with the following symbol */
	for (size_t i = 0; i < b->seq_nr; i++) {
		uint32_t x = b->seq[i];

		if (w && b->n[b->seq[w - 1]].start == b->n[x].start) {
			uint32_t curr = b->seq[w - 1];

			if (keep_first(b, curr, x)) {
				if (seq_erase(b, x))
					return -ENOMEM;
				continue;
			}
			if (seq_erase(b, curr))
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
	if (build_seq(b) || b->live > SIZE_MAX / (2 * sizeof(*out->ranges)) - 1)
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
	if (build_seq(b))
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
/* kallsyms                                                                  */
/* ------------------------------------------------------------------------ */

#define KSYM_NAME_LEN 512	/* perf 6.1 reads at most this many name bytes */

/* A hex digit's value plus one; 0 for any other byte. */
static const uint8_t hex_digit[256] = {
	['0'] = 1, ['1'] = 2, ['2'] = 3, ['3'] = 4, ['4'] = 5,
	['5'] = 6, ['6'] = 7, ['7'] = 8, ['8'] = 9, ['9'] = 10,
	['a'] = 11, ['b'] = 12, ['c'] = 13, ['d'] = 14, ['e'] = 15, ['f'] = 16,
	['A'] = 11, ['B'] = 12, ['C'] = 13, ['D'] = 14, ['E'] = 15, ['F'] = 16,
};

/* What a byte of a kallsyms name is to the parser: the end of the name (NUL, or
 * the newline of a line not cut yet), or KIND_BRACKET / KIND_TAB for the bytes the
 * kallsyms rules look for; 0 for the rest. */
#define NAME_END 0x80u
static const uint8_t name_byte[256] = {
	[0] = NAME_END, ['\n'] = NAME_END, ['['] = KIND_BRACKET, ['\t'] = KIND_TAB,
};

/*
 * Parse one kallsyms line, "ADDR TYPE NAME" ending at a NUL or a newline; false if
 * it is not one.  The name ends at its first NUL or newline, cut to KSYM_NAME_LEN
 * bytes, and a NUL is written after it; *len is its length, *kind the KIND_BRACKET
 * and KIND_TAB bits of the bytes it holds.  One pass over the line's bytes (a scan
 * for the newline, the name's length and each rule's byte, each a library call of its
 * own, took twice as long on a kernel's 122k lines).
 */
static bool kallsyms_line(char *line, uint64_t *addr, char *type, char **name,
			  size_t *len, uint8_t *kind)
{
	unsigned char *p = (unsigned char *)line;
	uint64_t v = 0;
	unsigned d;
	size_t n = 0;
	uint8_t k = 0, c;

	if (!hex_digit[*p])
		return false;
	while ((d = hex_digit[*p]) != 0) {
		v = v * 16 + (d - 1);
		p++;
	}
	if (*p++ != ' ' || !*p)
		return false;
	*type = (char)*p++;
	if (*p++ != ' ')
		return false;
	while (n < KSYM_NAME_LEN && !((c = name_byte[p[n]]) & NAME_END)) {
		k |= c;
		n++;
	}
	p[n] = '\0';
	*addr = v;
	*name = (char *)p;
	*len = n;
	*kind = k;
	return true;
}

/* toupper() of the "C" locale, which the programs keep (no setlocale()), without
 * the library call each line made. */
static int type_upper(char type)
{
	return type >= 'a' && type <= 'z' ? type - 'a' + 'A' : (unsigned char)type;
}

static bool kallsyms_type_kept(char type)
{
	int t = type_upper(type);

	return t == 'T' || t == 'W' || t == 'D' || t == 'B';
}

static uint8_t kallsyms_binding(char type)
{
	if (type == 'W')
		return 2;	/* STB_WEAK */
	return type >= 'A' && type <= 'Z' ? 1 : 0;	/* isupper() of the "C" locale */
}

static uint8_t kallsyms_stt(char type)
{
	int t = type_upper(type);

	return (t == 'T' || t == 'W') ? 2 /* STT_FUNC */ : 1 /* STT_OBJECT */;
}

/* name + 1 bytes into the pool of k; its offset in *off. */
static int kmod_pool_add(struct kmod_symbols *k, const char *name, size_t len,
			 uint32_t *off)
{
	if (array__grow(&k->pool, &k->pool_cap, k->pool_len + len + 1, 1, 4096))
		return -ENOMEM;
	memcpy(k->pool + k->pool_len, name, len);
	k->pool[k->pool_len + len] = '\0';
	*off = (uint32_t)k->pool_len;
	k->pool_len += len + 1;
	return 0;
}

/* Node x ("sym\t[mod]") into k, in order. */
static int kmod_keep(struct kmod_symbols *k, const struct symtab_builder *b, uint32_t x)
{
	const char *name = node_name(b, x), *tab = strchr(name, '\t');
	struct kmod_sym *m;

	if (array__grow(&k->v, &k->cap, k->nr + 1, sizeof(*k->v), 256))
		return -ENOMEM;
	m = &k->v[k->nr];
	*m = (struct kmod_sym){ .start = b->n[x].start, .end = b->n[x].end,
				.binding = b->n[x].binding, .type = b->n[x].type };
	if (kmod_pool_add(k, name, (size_t)(tab - name), &m->name) ||
	    kmod_pool_add(k, tab + 1, strlen(tab + 1), &m->module))
		return -ENOMEM;
	k->nr++;
	return 0;
}

int kmod_symbols__table(const struct kmod_symbols *k, const char *module,
			uint64_t map_start, struct symtab *out)
{
	struct symtab_builder b = { 0 };
	int err = 0;

	for (size_t i = 0; i < k->nr && !err; i++) {
		const struct kmod_sym *m = &k->v[i];
		const char *name = k->pool + m->name;

		if (strcmp(k->pool + m->module, module))
			continue;
		err = symtab_builder__add(&b, m->start - map_start, m->end - m->start,
					  m->binding, m->type, name, strlen(name));
	}
	if (!err)
		err = symtab_builder__finish(&b, out);
	symtab_builder__exit(&b);
	for (size_t i = 0; !err && i < out->nr; i++)
		out->syms[i].namelen_extra = (uint16_t)(1 + strlen(module));
	return err ? err : (int)out->nr;
}

void kmod_symbols__exit(struct kmod_symbols *k)
{
	free(k->v);
	free(k->pool);
	memset(k, 0, sizeof(*k));
}

/* Remove module symbols (into mods, unless NULL) and the x86 entry trampoline, shift
 * the rest by -delta. */
static int kallsyms_split(struct symtab_builder *b, uint64_t delta,
			  struct kmod_symbols *mods)
{
	size_t w = 0;

	if (build_seq(b))
		return -ENOMEM;
	for (size_t i = 0; i < b->seq_nr; i++) {
		uint32_t x = b->seq[i];
		bool kmod = name_has(b, x, '\t', KIND_TAB);
		const char *name = node_name(b, x);

		if (kmod && mods && kmod_keep(mods, b, x))
			return -ENOMEM;
		if (kmod || (name[0] == '_' && name[1] == '_' &&
			     !strcmp(name, "__entry_SYSCALL_64_trampoline"))) {
			if (seq_erase(b, x))
				return -ENOMEM;
			continue;
		}
		b->seq[w++] = x;
	}
	b->seq_nr = w;
	/* perf shifts its symbols in place; erased ones too, so that a replay of its
	 * tree (symtab_builder__finish) compares the keys perf compared */
	for (size_t i = 0; delta && i < b->nr; i++) {
		b->n[i].start -= delta;
		b->n[i].end -= delta;
	}
	return 0;
}

/* ---- a kallsyms file, block by block ----------------------------------------
 * The file is read into one buffer, its text, block after block of whole lines;
 * each block gets slots in the builder's node array, one for each of its lines,
 * and is parsed there (in place: a name is its offset in the text, which becomes the
 * builder's pool), on whichever thread takes it; at the end the blocks' symbols
 * are moved together in file order.  Nothing is copied but the nodes' moves. */

/* /proc/kallsyms gives up to a page a read(): blocks of about this many bytes are
 * read (a loop of read()s) before they are handed out */
#define KALLSYMS_BLOCK (256u << 10)
/* Room at first, touched only as it is used: the text (a /proc/kallsyms of 120k
 * symbols is 5 MB) and the nodes */
#define KALLSYMS_TEXT_CAP (32u << 20)
#define KALLSYMS_NODES_CAP (256u << 10)

struct kallsyms_block {
	char *text;			/* the load's text */
	size_t off, len;		/* the block's bytes in it */
	struct sb_node *slots;		/* one for each of its lines */
	size_t first;			/* index of slots[0] in the node array */
	size_t kept;			/* symbols parsed into the slots */
	struct kallsyms_text t;		/* its first _text line, if any */
};

int kallsyms_load__open(struct kallsyms_load *l, const char *path)
{
	*l = (struct kallsyms_load){ .fd = open(path, O_RDONLY | O_CLOEXEC) };
	return l->fd < 0 ? -errno : 0;
}

int kallsyms_load__open_fd(struct kallsyms_load *l, int fd)
{
	*l = (struct kallsyms_load){ .fd = fd };
	return fd < 0 ? -EBADF : 0;
}

/* Room for a block more of text (its NUL too) and for lines more nodes: 0; 2 when
 * it must move and may not; -ENOMEM. */
static int load_room(struct kallsyms_load *l, size_t lines, bool may_move)
{
	if (l->cap - l->len < KALLSYMS_BLOCK + 1) {
		size_t cap = l->cap ? l->cap : l->first_cap ? l->first_cap : KALLSYMS_TEXT_CAP;
		char *t;

		if (!may_move)
			return 2;
		while (cap - l->len < KALLSYMS_BLOCK + 1 && cap <= UINT32_MAX)
			cap *= 2;
		if (cap > UINT32_MAX ||
		    !(t = hugemem__realloc(l->text, l->len, cap, &l->text_mapped)))
			return -ENOMEM;
		l->text = t;
		l->cap = cap;
	}
	if (l->nodes_cap - l->lines < lines) {
		size_t cap = l->nodes_cap ? l->nodes_cap :
			     l->first_nodes ? l->first_nodes : KALLSYMS_NODES_CAP;
		struct sb_node *n;

		if (!may_move)
			return 2;
		while (cap - l->lines < lines)
			cap *= 2;
		if (cap >= NIL || !(n = hugemem__realloc(l->nodes, l->lines * sizeof(*n),
							 cap * sizeof(*n), &l->nodes_mapped)))
			return -ENOMEM;
		l->nodes = n;
		l->nodes_cap = cap;
	}
	return 0;
}

/* Lines in p[0, n): its newlines, and one for a last line without.  Eight bytes at a
 * time: in w ^ "\n\n\n\n\n\n\n\n" a newline is a zero byte, the one byte of
 * ((w & 0x7f..) + 0x7f..) | w whose top bit is clear (no carry crosses a byte); a
 * byte at a time took a fifth of a kernel's parse. */
static size_t count_lines(const char *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ULL, low7 = 0x7f7f7f7f7f7f7f7fULL;
	size_t c = 0, i = 0;

	for (; i + 8 <= n; i += 8) {
		uint64_t w, z;

		memcpy(&w, p + i, 8);
		w ^= ones * '\n';
		z = (~(((w & low7) + low7) | w) >> 7) & ones;	/* 1 in each newline's byte */
		c += (size_t)((z * ones) >> 56);		/* their sum: at most 8 */
	}
	for (; i < n; i++)
		c += p[i] == '\n';
	return c + (n && p[n - 1] != '\n');
}

int kallsyms_load__next(struct kallsyms_load *l, struct kallsyms_block **out,
			bool may_move)
{
	size_t want = l->done + KALLSYMS_BLOCK, len, lines;
	struct kallsyms_block *blk;
	ssize_t got = 1;
	char *nl = NULL;
	int err;

	*out = NULL;
	if (l->eof)
		return 0;
	for (;;) {
		if ((err = load_room(l, 0, may_move)))
			return err;
		if (want > l->cap - 1)
			want = l->cap - 1;
		while (l->len < want && got > 0) {
			got = read(l->fd, l->text + l->len, want - l->len);
			if (got < 0 && errno == EINTR)
				got = 1;
			else if (got > 0)
				l->len += (size_t)got;
		}
		/* at the end of the file (or at an error reading it, where stdio's
		 * getline() stopped too) all that is left; else whole lines */
		if (got <= 0 || (nl = memrchr(l->text + l->done, '\n', l->len - l->done)))
			break;
		want = l->len + KALLSYMS_BLOCK;	/* a line longer than a block */
	}
	len = nl ? (size_t)(nl - (l->text + l->done)) + 1 : l->len - l->done;
	lines = count_lines(l->text + l->done, len);
	if ((err = load_room(l, lines, may_move)))
		return err;	/* 2: read again, nothing lost (the block is not out) */
	if (!(blk = calloc(1, sizeof(*blk))) ||
	    array__grow(&l->blocks, &l->blocks_cap, l->nr_blocks + 1, sizeof(*l->blocks), 16)) {
		free(blk);
		return -ENOMEM;
	}
	l->eof = got <= 0;
	if (l->eof)
		l->text[l->len] = '\0';
	*blk = (struct kallsyms_block){ .text = l->text, .off = l->done, .len = len,
					.slots = lines ? l->nodes + l->lines : NULL,
					.first = l->lines };
	l->blocks[l->nr_blocks++] = blk;
	l->done += len;
	l->lines += lines;
	*out = blk;
	return len || !l->eof ? 1 : 0;
}

void kallsyms_block__parse(struct kallsyms_block *blk)
{
	char *text = blk->text, *p = text + blk->off, *end = p + blk->len;

	for (; p < end; ) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *name;
		uint64_t addr;
		size_t n;
		uint8_t kind;
		char type;

		if (nl)
			*nl = '\0';	/* (the last line ends at the NUL after the text) */
		if (kallsyms_line(p, &addr, &type, &name, &n, &kind)) {
			if (!blk->t.found && n == sizeof(KALLSYMS_TEXT) - 1 &&
			    !memcmp(name, KALLSYMS_TEXT, n)) {
				blk->t.found = true;
				blk->t.addr = addr;
			}
			if (kallsyms_type_kept(type) && name[0] != '$')
				blk->slots[blk->kept++] = (struct sb_node){
					.start = addr, .end = addr, .name = (uint32_t)(name - text),
					.binding = kallsyms_binding(type), .type = kallsyms_stt(type),
					.kind = (uint8_t)(KIND_KNOWN | kind),
				};
		}
		p = nl ? nl + 1 : end;
	}
}

int kallsyms_load__finish(struct kallsyms_load *l, struct symtab_builder *b,
			  struct kallsyms_text *t)
{
	size_t w = 0;

	*t = (struct kallsyms_text){ 0 };
	if (b->nr || b->pool)
		return -EINVAL;
	for (size_t i = 0; i < l->nr_blocks; i++) {
		struct kallsyms_block *blk = l->blocks[i];

		if (!t->found)
			*t = blk->t;
		if (w != blk->first && blk->kept)
			memmove(l->nodes + w, l->nodes + blk->first, blk->kept * sizeof(*l->nodes));
		w += blk->kept;
	}
	symtab_builder__exit(b);
	b->n = l->nodes;
	b->n_mapped = l->nodes_mapped;
	b->cap = l->nodes_cap;
	b->nr = b->live = w;
	b->pool = l->text;
	b->pool_mapped = l->text_mapped;
	b->pool_len = b->pool_cap = l->text ? l->len + 1 : 0;
	l->nodes = NULL;
	l->text = NULL;
	l->nodes_cap = l->cap = l->len = l->done = l->lines = 0;
	l->nodes_mapped = l->text_mapped = 0;
	return 0;
}

void kallsyms_load__close(struct kallsyms_load *l)
{
	if (l->fd >= 0)
		close(l->fd);
	for (size_t i = 0; i < l->nr_blocks; i++)
		free(l->blocks[i]);
	free(l->blocks);
	hugemem__free(l->text, l->text_mapped);
	hugemem__free(l->nodes, l->nodes_mapped);
	*l = (struct kallsyms_load){ .fd = -1 };
}

int symtab__read_kallsyms(struct symtab_builder *b, const char *path,
			  struct kallsyms_text *text)
{
	struct kallsyms_load l;
	struct kallsyms_block *blk;
	int more = 0, err = kallsyms_load__open(&l, path);

	text->found = false;
	text->addr = 0;
	while (!err && (more = kallsyms_load__next(&l, &blk, true)) > 0)
		kallsyms_block__parse(blk);
	if (!err && more < 0)
		err = more;
	if (!err)
		err = kallsyms_load__finish(&l, b, text);
	kallsyms_load__close(&l);
	return err;
}

int symtab__finish_kallsyms(struct symtab_builder *b, const struct kallsyms_text *text,
			    bool relocate, uint64_t ref_addr, struct kmod_symbols *mods)
{
	if (relocate && !text->found)
		return -ENOENT;
	if (symtab_builder__fixup_end(b, true) || symtab_builder__fixup_duplicate(b) ||
	    kallsyms_split(b, relocate ? text->addr - ref_addr : 0, mods))
		return -ENOMEM;
	return (int)b->live;
}

int symtab__load_kallsyms(struct symtab_builder *b, const char *path,
			  const char *ref_name, uint64_t ref_addr, struct kmod_symbols *mods)
{
	struct kallsyms_text text;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;
	int err = symtab__read_kallsyms(b, path, &text);

	if (err)
		return err;
	/* Another reference symbol than _text: find its address in a second pass. */
	if (ref_name && strcmp(ref_name, KALLSYMS_TEXT)) {
		text.found = false;
		f = fopen(path, "r");
		if (!f)
			return -errno;
		while (!text.found && getline(&line, &cap, f) >= 0) {
			uint64_t addr;
			char type, *name;
			size_t len;
			uint8_t kind;

			if (kallsyms_line(line, &addr, &type, &name, &len, &kind) &&
			    !strcmp(name, ref_name)) {
				text.found = true;
				text.addr = addr;
			}
		}
		free(line);
		fclose(f);
	}
	return symtab__finish_kallsyms(b, &text, ref_name != NULL, ref_addr, mods);
}

/* ------------------------------------------------------------------------ */
/* perf-PID.map                                                              */
/* ------------------------------------------------------------------------ */

int symtab__load_perf_map(struct symtab_builder *b, const char *path)
{
	FILE *f = fopen(path, "r");
	char *line = NULL;
	size_t cap = 0;
	ssize_t got;
	int nr = 0, err = 0;

	if (!f)
		return -errno;
	while ((got = getline(&line, &cap, f)) >= 0) {
		size_t line_len = (size_t)got, len;
		uint64_t start, size;
		char *end;

		/* perf drops the last byte, newline or not */
		if (line_len == 0)
			continue;
		line[--line_len] = '\0';
		start = strtoull(line, &end, 16);
		len = (size_t)(end - line) + 1;
		if (len + 2 >= line_len)
			continue;
		size = strtoull(line + len, &end, 16);
		len = (size_t)(end - line) + 1;
		if (len + 2 >= line_len)
			continue;
		err = symtab_builder__add(b, start, size, 1, 2, line + len,
					  strlen(line + len));
		if (err)
			break;
		nr++;
	}
	free(line);
	fclose(f);
	return err ? err : nr;
}

/* ------------------------------------------------------------------------ */
/* ELF                                                                       */
/* ------------------------------------------------------------------------ */

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;

static void elf_init(void)
{
	elf_version(EV_CURRENT);
}

static int symsrc_check(struct symsrc *ss, const uint8_t *build_id, size_t bid_size)
{
	GElf_Ehdr ehdr;
	size_t shstrndx, nsec = 0;

	if (elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ehdr))
		return -ENOEXEC;
	if (build_id) {
		const void *note;
		ssize_t n = dwelf_elf_gnu_build_id(ss->elf, &note);

		if (n <= 0 || (size_t)n != bid_size || memcmp(note, build_id, bid_size))
			return -ESTALE;
	}
	if (elf_getshdrstrndx(ss->elf, &shstrndx) || elf_getshdrnum(ss->elf, &nsec))
		return 0;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(ss->elf, i);
		GElf_Shdr sh;
		const char *nm;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(ss->elf, shstrndx, sh.sh_name);
		if (!nm)
			continue;
		/* perf takes the first section of that name and checks its type */
		if (!strcmp(nm, ".symtab") && !ss->has_symtab)
			ss->has_symtab = sh.sh_type == SHT_SYMTAB;
		if (!strcmp(nm, ".dynsym") && !ss->has_dynsym)
			ss->has_dynsym = sh.sh_type == SHT_DYNSYM;
	}
	return 0;
}

int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *build_id,
		 size_t bid_size)
{
	int err;

	pthread_once(&elf_once, elf_init);
	memset(ss, 0, sizeof(*ss));
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0) {
		err = -errno;
		ss->fd = -1;
		return err;
	}
	ss->path = strdup(path);
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->path || !ss->elf) {
		err = ss->path ? -ENOEXEC : -ENOMEM;
		symsrc__close(ss);
		return err;
	}
	err = symsrc_check(ss, build_id, bid_size);
	if (err)
		symsrc__close(ss);
	return err;
}

int symsrc__open_mem(struct symsrc *ss, const void *image, size_t size,
		     const uint8_t *build_id, size_t bid_size)
{
	int err;

	pthread_once(&elf_once, elf_init);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	/* libelf only reads through this pointer with ELF_C_READ-style access */
	ss->elf = elf_memory((char *)(uintptr_t)image, size);
	if (!ss->elf)
		return -ENOEXEC;
	err = symsrc_check(ss, build_id, bid_size);
	if (err)
		symsrc__close(ss);
	return err;
}

void symsrc__close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* First section called name (perf's elf_section_by_name); NULL if none. */
static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *sh, size_t *idx)
{
	size_t shstrndx, nsec;

	if (elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &nsec))
		return NULL;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *nm;

		if (!scn || !gelf_getshdr(scn, sh))
			continue;
		nm = elf_strptr(elf, shstrndx, sh->sh_name);
		if (nm && !strcmp(nm, name)) {
			if (idx)
				*idx = i;
			return scn;
		}
	}
	return NULL;
}

/* Named, non-UNDEF function/object (perf's elf_sym__filter). */
static bool sym_is_func_or_object(const GElf_Sym *s)
{
	int t = GELF_ST_TYPE(s->st_info);

	if (!s->st_name || s->st_shndx == SHN_UNDEF)
		return false;
	return t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT;
}

/* perf's elf_sym__is_label(). */
static bool sym_is_label(const GElf_Sym *s)
{
	int vis = GELF_ST_VISIBILITY(s->st_other);

	return GELF_ST_TYPE(s->st_info) == STT_NOTYPE && s->st_name &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

/* Subtract (p_vaddr - p_offset) of the PT_LOAD holding v; false if none does. */
static bool adjust_by_phdr(Elf *elf, uint64_t *v)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (*v >= ph.p_vaddr && *v < ph.p_vaddr + ph.p_memsz) {
			*v -= ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

struct elf_tab {
	Elf_Data *syms, *strs;
	size_t nr;
};

static bool elf_tab_get(Elf *elf, bool want_symtab, struct elf_tab *t)
{
	GElf_Shdr sh, strsh;
	Elf_Scn *scn = section_by_name(elf, want_symtab ? ".symtab" : ".dynsym", &sh, NULL);
	Elf_Scn *strscn;

	if (!scn || sh.sh_type != (want_symtab ? SHT_SYMTAB : SHT_DYNSYM) || !sh.sh_entsize)
		return false;
	strscn = elf_getscn(elf, sh.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strsh))
		return false;
	t->syms = elf_getdata(scn, NULL);
	t->strs = elf_getdata(strscn, NULL);
	t->nr = sh.sh_size / sh.sh_entsize;
	return t->syms && t->strs;
}

static const char *tab_name(const struct elf_tab *t, size_t off)
{
	if (off >= t->strs->d_size)
		return "";
	/* string tables end with NUL; strnlen guards a damaged one */
	if (strnlen((const char *)t->strs->d_buf + off, t->strs->d_size - off) ==
	    t->strs->d_size - off)
		return "";
	return (const char *)t->strs->d_buf + off;
}

static int add_named(struct symtab_builder *b, uint64_t start, uint64_t size,
		     uint8_t bind, uint8_t type, const char *name, bool demangle,
		     const char *suffix)
{
	char *dm = demangle ? symbol__demangle(name) : NULL;
	const char *nm = dm ? dm : name;
	int err;

	if (suffix) {
		size_t a = strlen(nm), s = strlen(suffix);
		char *full = malloc(a + s + 1);

		if (!full) {
			free(dm);
			return -ENOMEM;
		}
		memcpy(full, nm, a);
		memcpy(full + a, suffix, s + 1);
		err = symtab_builder__add(b, start, size, bind, type, full, a + s);
		free(full);
	} else {
		err = symtab_builder__add(b, start, size, bind, type, nm, strlen(nm));
	}
	free(dm);
	return err;
}

/* The section header describing sym's section, from runtime if syms' is NOBITS. */
static int sym_section(struct symsrc *syms, struct symsrc *rt, size_t shndx,
		       GElf_Shdr *sh, const char **secname)
{
	Elf_Scn *scn = elf_getscn(syms->elf, shndx);
	Elf *elf = syms->elf;
	size_t shstrndx;

	if (!scn || !gelf_getshdr(scn, sh))
		return -EINVAL;
	if (sh->sh_type == SHT_NOBITS && (sh->sh_flags & SHF_ALLOC)) {
		scn = elf_getscn(rt->elf, shndx);
		if (!scn || !gelf_getshdr(scn, sh))
			return -EINVAL;
		elf = rt->elf;
	}
	*secname = "";
	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		const char *nm = elf_strptr(elf, shstrndx, sh->sh_name);

		if (nm)
			*secname = nm;
	}
	return 0;
}

/* perf's dso__synthesize_plt_symbols() of 6.1: one "name@plt" per .rela.plt entry. */
static int synth_plt(struct symtab_builder *b, struct symsrc *rt, bool demangle)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh;
	size_t dynsym_idx = 0, nrel;
	Elf_Scn *rel_scn, *dyn_scn;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off;
	int nr = 0;

	if (!rt->has_dynsym)
		return 0;
	dyn_scn = section_by_name(rt->elf, ".dynsym", &dyn_sh, &dynsym_idx);
	rel_scn = section_by_name(rt->elf, ".rela.plt", &rel_sh, NULL);
	if (!rel_scn)
		rel_scn = section_by_name(rt->elf, ".rel.plt", &rel_sh, NULL);
	if (!dyn_scn || !rel_scn || rel_sh.sh_link != dynsym_idx || !rel_sh.sh_entsize)
		return 0;
	if (!section_by_name(rt->elf, ".plt", &plt_sh, NULL))
		return 0;
	reldata = elf_getdata(rel_scn, NULL);
	syms = elf_getdata(dyn_scn, NULL);
	strs = elf_getdata(elf_getscn(rt->elf, dyn_sh.sh_link), NULL);
	if (!reldata || !syms || !strs || !strs->d_size)
		return 0;
	nrel = rel_sh.sh_size / rel_sh.sh_entsize;
	/* x86: header and entries are sh_entsize bytes (other arches differ in perf) */
	off = plt_sh.sh_offset + plt_sh.sh_entsize;
	for (size_t i = 0; i < nrel; i++) {
		struct elf_tab t = { .syms = syms, .strs = strs };
		GElf_Sym sym;
		size_t symidx;
		int err;

		if (rel_sh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (!gelf_getsym(syms, (int)symidx, &sym))
			memset(&sym, 0, sizeof(sym));
		err = add_named(b, off, plt_sh.sh_entsize, STB_GLOBAL, STT_FUNC,
				tab_name(&t, sym.st_name), demangle, "@plt");
		if (err)
			return err;
		off += plt_sh.sh_entsize;
		nr++;
	}
	return nr;
}

int symtab__load_elf(struct symtab_builder *b, struct symsrc *syms,
		     struct symsrc *runtime, bool demangle)
{
	struct elf_tab t;
	int nr = 0, err;

	if (!elf_tab_get(syms->elf, true, &t) && !elf_tab_get(syms->elf, false, &t))
		return 0;
	for (size_t i = 0; i < t.nr; i++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		const char *secname;
		bool label;
		uint64_t v;

		if (!gelf_getsym(t.syms, (int)i, &sym))
			continue;
		label = sym_is_label(&sym);
		if (!label && !sym_is_func_or_object(&sym))
			continue;
		/* SHN_ABS objects (symbol-version names) and the like have no section */
		if (sym_section(syms, runtime, sym.st_shndx, &sh, &secname))
			continue;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (label && !strstr(secname, "text") && !strstr(secname, "data"))
			continue;
		v = sym.st_value;
		if (!adjust_by_phdr(runtime->elf, &v))
			v -= sh.sh_addr - sh.sh_offset;
		err = add_named(b, v, sym.st_size, GELF_ST_BIND(sym.st_info),
				GELF_ST_TYPE(sym.st_info), tab_name(&t, sym.st_name),
				demangle, NULL);
		if (err)
			return err;
		nr++;
	}
	if (nr > 0) {
		if (symtab_builder__fixup_end(b, false) || symtab_builder__fixup_duplicate(b))
			return -ENOMEM;
		err = synth_plt(b, runtime, demangle);
		if (err < 0)
			return err;
	}
	return (int)b->live;
}

/* ------------------------------------------------------------------------ */
/* Demangling                                                                */
/* ------------------------------------------------------------------------ */

typedef char *(*cxa_demangle_fn)(const char *, char *, size_t *, int *);

static pthread_once_t demangle_once = PTHREAD_ONCE_INIT;
static cxa_demangle_fn cxa_demangle;	/* set once, then read-only */

static void demangle_init(void)
{
	void *h = dlopen("libstdc++.so.6", RTLD_LAZY | RTLD_LOCAL);

	if (h)
		cxa_demangle = (cxa_demangle_fn)(uintptr_t)dlsym(h, "__cxa_demangle");
}

/* Position of the '(' matching the ')' at s[close]; SIZE_MAX if unbalanced. */
static size_t match_open_paren(const char *s, size_t close)
{
	int depth = 0;

	for (size_t i = close + 1; i-- > 0;) {
		if (s[i] == ')')
			depth++;
		else if (s[i] == '(' && --depth == 0)
			return i;
	}
	return SIZE_MAX;
}

static bool ends_with(const char *s, size_t n, const char *suf)
{
	size_t k = strlen(suf);

	return n >= k && !memcmp(s + n - k, suf, k);
}

/* Length of a trailing " [clone .xxx]" group, 0 if none. */
static size_t clone_suffix_len(const char *s, size_t n)
{
	size_t i;

	if (!n || s[n - 1] != ']')
		return 0;
	for (i = n - 1; i-- > 0;)
		if (s[i] == '[')
			break;
	if (i == SIZE_MAX || i == 0 || s[i - 1] != ' ' || strncmp(s + i, "[clone ", 7))
		return 0;
	return n - (i - 1);
}

/* Length of the operator symbol at s ("<<=", "->", "<", ...; longest match). */
static size_t operator_len(const char *s)
{
	static const char *const ops[] = {
		"<<=", ">>=", "->*", "<=>", "<<", ">>", "<=", ">=", "==", "!=", "&&",
		"||", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "->",
		"+", "-", "*", "/", "%", "^", "&", "|", "~", "!", "=", "<", ">", ",",
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strncmp(s, ops[i], strlen(ops[i])))
			return strlen(ops[i]);
	return 0;
}

/*
 * Index where the top-level name starts in "RET NAME": the last space outside
 * brackets, not counting the space inside "operator new" etc.  0 if none.
 */
static size_t name_start(const char *s, size_t n)
{
	int depth = 0;
	size_t start = 0;

	for (size_t i = 0; i < n; i++) {
		char c = s[i];

		if (!strncmp(s + i, "operator", 8) &&
		    (i == 0 || s[i - 1] == ':' || s[i - 1] == ' ') &&
		    !(isalnum((unsigned char)s[i + 8]) || s[i + 8] == '_')) {
			/* skip the operator token so its <, >, ( and spaces do not count */
			i += 8;
			if (s[i] == ' ') {		/* new, delete, conversions */
				i++;
				while (i < n && s[i] != ' ' && s[i] != '(' && s[i] != '<' &&
				       s[i] != '[')
					i++;
				if (!strncmp(s + i, "[]", 2))
					i += 2;
			} else if (!strncmp(s + i, "()", 2) || !strncmp(s + i, "[]", 2)) {
				i += 2;
			} else {
				i += operator_len(s + i);
				if (s[i] == ' ' && s[i + 1] == '<')	/* "operator<< <T>" */
					i++;
			}
			i--;
			continue;
		}
		if (c == '(' || c == '<' || c == '[' || c == '{')
			depth++;
		else if (c == ')' || c == '>' || c == ']' || c == '}')
			depth--;
		else if (c == ' ' && depth == 0)
			start = i + 1;
	}
	return start;
}

/* Reduce __cxa_demangle's full text to what cplus_demangle prints without params. */
static void strip_params(char *s)
{
	size_t n = strlen(s), k, open;
	static const char *const quals[] = {
		" const", " volatile", " &&", " &", " restrict", " noexcept",
		" transaction_safe",
	};
	bool again = true;

	while ((k = clone_suffix_len(s, n)) != 0)
		n -= k;
	while (again) {
		again = false;
		for (size_t i = 0; i < sizeof(quals) / sizeof(quals[0]); i++) {
			if (ends_with(s, n, quals[i])) {
				n -= strlen(quals[i]);
				again = true;
			}
		}
	}
	if (!n || s[n - 1] != ')') {
		s[n] = '\0';
		return;
	}
	open = match_open_paren(s, n - 1);
	if (open == SIZE_MAX || open == 0) {
		s[n] = '\0';
		return;
	}
	n = open;
	/* A return type is printed only for template functions: NAME ends with '>'. */
	if (s[n - 1] == '>') {
		k = name_start(s, n);
		if (k) {
			memmove(s, s + k, n - k);
			n -= k;
		}
	}
	s[n] = '\0';
}

/* One legacy-Rust escape "$..$" at e (len bytes left); 0 if not one. */
static char rust_escape(const char *e, size_t len, size_t *used)
{
	static const struct { const char *code; char c; } tab[] = {
		{ "SP", '@' }, { "BP", '*' }, { "RF", '&' }, { "LT", '<' },
		{ "GT", '>' }, { "LP", '(' }, { "RP", ')' },
	};
	size_t n = 0;
	char c = 0;

	if (len < 3 || e[0] != '$')
		return 0;
	e++, len--;
	if (e[0] == 'C') {
		n = 1;
		c = ',';
	} else if (len > 2) {
		n = 2;
		for (size_t i = 0; i < sizeof(tab) / sizeof(tab[0]); i++)
			if (e[0] == tab[i].code[0] && e[1] == tab[i].code[1])
				c = tab[i].c;
		if (e[0] == 'u' && len > 3) {
			const char *hex = "0123456789abcdef";
			const char *hi = e[1] ? strchr(hex, e[1]) : NULL;
			const char *lo = e[2] ? strchr(hex, e[2]) : NULL;

			n = 3;
			if (!hi || !lo || hi - hex > 7 || (hi - hex) * 16 + (lo - hex) < 0x20)
				return 0;
			c = (char)((hi - hex) * 16 + (lo - hex));
		}
	}
	if (!c || len <= n || e[n] != '$')
		return 0;
	*used = n + 2;
	return c;
}

/* Append one legacy-Rust identifier, unescaped, to out (enough room guaranteed). */
static void rust_ident(const char *id, size_t len, char *out, size_t *o)
{
	if (len >= 2 && id[0] == '_' && id[1] == '$')	/* XID_Start padding */
		id++, len--;
	while (len > 0) {
		size_t n = 1;
		char c;

		if (id[0] == '$') {
			c = rust_escape(id, len, &n);
			if (!c) {	/* unknown escape: the rest verbatim */
				memcpy(out + *o, id, len);
				*o += len;
				return;
			}
			out[(*o)++] = c;
		} else if (id[0] == '.') {
			if (len >= 2 && id[1] == '.') {
				memcpy(out + *o, "::", 2);
				*o += 2;
				n = 2;
			} else {
				out[(*o)++] = '.';
			}
		} else {
			out[(*o)++] = id[0];
		}
		id += n;
		len -= n;
	}
}

/* "h" + 16 lowercase hex digits with at least 5 distinct digits (libiberty's test). */
static bool rust_is_hash(const char *id, size_t len)
{
	unsigned seen = 0, count = 0;

	if (len != 17 || id[0] != 'h')
		return false;
	for (size_t i = 1; i < 17; i++) {
		const char *hex = "0123456789abcdef", *p = id[i] ? strchr(hex, id[i]) : NULL;

		if (!p)
			return false;
		seen |= 1u << (p - hex);
	}
	for (; seen; seen >>= 1)
		count += seen & 1;
	return count >= 5;
}

/*
 * Legacy Rust symbols (_ZN...17h<hash>E) as libiberty's cplus_demangle prints them
 * without DMGL_VERBOSE: path components joined by "::", escapes decoded, the hash
 * dropped.  NULL if name is not one.
 */
static char *rust_legacy_demangle(const char *name)
{
	const char *p = name + 3, *end = strstr(name, ".llvm.");
	const char *last = NULL;
	size_t last_len = 0, o = 0;
	char *out;

	if (!end)	/* an LTO ".llvm.<n>" suffix is not printed */
		end = name + strlen(name);
	for (const char *c = p; c < end; c++)
		if (!isalnum((unsigned char)*c) && !strchr("_$.:@", *c))
			return NULL;
	if (end - p < 20 || end[-1] != 'E' || memcmp(end - 20, "17h", 3))
		return NULL;
	end--;	/* the E */
	out = malloc((size_t)(end - p) * 2 + 1);
	if (!out)
		return NULL;
	while (p < end) {
		size_t len = 0;

		if (!isdigit((unsigned char)*p))
			goto fail;
		while (p < end && isdigit((unsigned char)*p))
			len = len * 10 + (size_t)(*p++ - '0');
		if (len == 0 || len > (size_t)(end - p))
			goto fail;
		if (p + len == end) {	/* the hash */
			last = p;
			last_len = len;
		} else {
			if (o)
				memcpy(out + o, "::", 2), o += 2;
			rust_ident(p, len, out, &o);
		}
		p += len;
	}
	if (!last || !rust_is_hash(last, last_len) || !o)
		goto fail;
	out[o] = '\0';
	return out;
fail:
	free(out);
	return NULL;
}

char *symbol__demangle(const char *name)
{
	char *full;
	int status = -1;
	bool special;

	if (name[0] != '_' || name[1] != 'Z')
		return NULL;
	/* libiberty tries Rust's legacy scheme before C++ (both start with _ZN) */
	if (name[2] == 'N') {
		char *r = rust_legacy_demangle(name);

		if (r)
			return r;
	}
	pthread_once(&demangle_once, demangle_init);
	if (!cxa_demangle)
		return NULL;
	/* special names (vtable for, thunks, guard variables, transaction clones...)
	 * are printed whole, their inner encoding with parameters */
	special = name[2] == 'T' || name[2] == 'G';
	full = cxa_demangle(name, NULL, NULL, &status);
	if (!full || status != 0) {
		/*
		 * cplus_demangle without parameters ignores whatever follows the name
		 * (e.g. an unusual ".suffix"); retry without the suffix.
		 */
		const char *dot = strchr(name, '.');
		char *cut;

		free(full);
		if (!dot)
			return NULL;
		cut = strndup(name, (size_t)(dot - name));
		if (!cut)
			return NULL;
		full = cxa_demangle(cut, NULL, NULL, &status);
		free(cut);
		if (!full || status != 0) {
			free(full);
			return NULL;
		}
	}
	if (!special)
		strip_params(full);
	return full;
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
