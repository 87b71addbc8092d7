#include "report/hist.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, qsort_r, realloc */
#include <string.h>	/* memset, strcmp, strlen */

#include "report/callchain.h"
#include "report/dso.h"
#include "report/rbtree.h"
#include "banned.h"

/* perf pads unresolved addresses to the width of a long in hex. */
#define ADDR_HEX_WIDTH 16

/* Samples that resolve alike: same comm, self key, level and callchain. */
struct hist_group {
	const char *comm;
	struct dso *dso;
	const struct symbol *sym;
	uint64_t addr;			/* key when unresolved; else the first sample's */
	uint64_t sym_unmapped_start;
	const struct thread *thread;	/* the first sample's */
	uint64_t period, count;
	size_t ips;			/* its first sample's chain addresses, in
					 * hists.ips */
	uint32_t chain;
	char level;
};

/* One line of the report. */
struct entry {
	const char *comm;
	struct dso *dso;
	const struct symbol *sym;
	uint64_t addr;			/* unresolved: the printed address (a key) */
	uint64_t sym_unmapped_start;
	const struct thread *thread;	/* the first sample's */
	uint64_t period, nr_samples;	/* self */
	uint64_t period_acc;		/* children */
	uint32_t max_depth;		/* longest chain appended (perf's max_depth) */
	uint32_t first_item, nr_items;	/* its callchain items */
	char level;
};

void hists__init(struct hists *h)
{
	memset(h, 0, sizeof(*h));
}

void hists__exit(struct hists *h)
{
	free(h->groups);
	free(h->hash);
	free(h->ips);
	memset(h, 0, sizeof(*h));
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9E3779B97F4A7C15ULL;
	return x ^ (x >> 29);
}

static uint64_t key_hash(const char *comm, const struct dso *dso,
			 const struct symbol *sym, uint64_t addr)
{
	uint64_t x = (uint64_t)(uintptr_t)comm * 0x9E3779B97F4A7C15ULL;

	x ^= (uint64_t)(uintptr_t)dso * 0xC2B2AE3D27D4EB4FULL;
	x ^= sym ? (uint64_t)(uintptr_t)sym * 0x165667B19E3779F9ULL
		 : (addr + 1) * 0x27D4EB2F165667C5ULL;
	return mix(x);
}

static uint64_t group_hash(const struct hist_group *g)
{
	return mix(key_hash(g->comm, g->dso, g->sym, g->addr) ^
		   ((uint64_t)g->chain << 8 | (unsigned char)g->level));
}

static bool group_eq(const struct hist_group *a, const struct hist_sample *s)
{
	return a->comm == s->comm && a->dso == s->dso && a->sym == s->sym &&
	       (a->sym || a->addr == s->addr) && a->chain == s->chain &&
	       a->level == s->level;
}

static int rehash_groups(struct hists *h)
{
	size_t cap = h->hash_cap ? h->hash_cap * 2 : 1024;
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < h->nr_groups; i++) {
		size_t j = group_hash(&h->groups[i]) & (cap - 1);

		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = (uint32_t)i + 1;
	}
	free(h->hash);
	h->hash = t;
	h->hash_cap = cap;
	return 0;
}

int hists__add(struct hists *h, const struct hist_sample *s)
{
	struct hist_group key = {
		.comm = s->comm, .dso = s->dso, .sym = s->sym, .addr = s->addr,
		.chain = s->chain, .level = s->level,
	};
	size_t i;

	if ((h->nr_groups + 1) * 2 > h->hash_cap && rehash_groups(h))
		return -ENOMEM;
	h->total_period += s->period;
	h->nr_samples++;
	i = group_hash(&key) & (h->hash_cap - 1);
	while (h->hash[i]) {
		struct hist_group *g = &h->groups[h->hash[i] - 1];

		if (group_eq(g, s)) {
			g->period += s->period;
			g->count++;
			return 0;
		}
		i = (i + 1) & (h->hash_cap - 1);
	}
	if (h->nr_groups == h->cap_groups) {
		size_t cap = h->cap_groups ? h->cap_groups * 2 : 1024;
		struct hist_group *v = realloc(h->groups, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		h->groups = v;
		h->cap_groups = cap;
	}
	if (h->nr_ips + s->nr_ips > h->cap_ips) {
		size_t cap = h->cap_ips ? h->cap_ips * 2 : 4096;
		uint64_t *v;

		while (cap < h->nr_ips + s->nr_ips)
			cap *= 2;
		v = realloc(h->ips, cap * sizeof(*v));
		if (!v)
			return -ENOMEM;
		h->ips = v;
		h->cap_ips = cap;
	}
	if (s->nr_ips)
		memcpy(h->ips + h->nr_ips, s->ips, s->nr_ips * sizeof(*s->ips));
	key.ips = h->nr_ips;
	h->nr_ips += s->nr_ips;
	key.sym_unmapped_start = s->sym_unmapped_start;
	key.thread = s->thread;
	key.period = s->period;
	key.count = 1;
	h->groups[h->nr_groups++] = key;
	h->hash[i] = (uint32_t)h->nr_groups;
	return 0;
}

/* ---- entries from groups ------------------------------------------------------ */

static const char *dso_name(const struct entry *e)
{
	return e->dso ? dso__short_name(e->dso) : "[unknown]";
}

static int dso_cmp(const struct entry *a, const struct entry *b)
{
	if (a->dso == b->dso)
		return 0;
	if (!a->dso || !b->dso)		/* [unknown] after named dsos */
		return a->dso ? -1 : 1;
	return strcmp(dso_name(a), dso_name(b));
}

/*
 * perf's hist_entry__cmp / hist_entry__collapse for the keys comm, dso, sym, as
 * "new entry a against tree node b": < 0 puts a left of b, 0 is the same entry.
 * comm, dso name ([unknown] last), then the symbol's start and end, or for
 * unresolved entries the address as perf compares it: the sign of the 64-bit
 * difference, which is not transitive across 2^63.
 */
static int entry_cmp(const struct entry *a, const struct entry *b)
{
	int64_t d;
	int c;

	if (a->comm != b->comm && (c = strcmp(a->comm, b->comm)))
		return c;
	if ((c = dso_cmp(a, b)))
		return c;
	if (!a->sym && !b->sym) {
		d = (int64_t)(a->addr - b->addr);
		return d < 0 ? -1 : d > 0;
	}
	if (!a->sym || !b->sym)
		return a->sym ? -1 : 1;
	if (a->sym == b->sym)
		return 0;
	if (a->sym->start != b->sym->start)
		d = (int64_t)(a->sym->start - b->sym->start);
	else
		d = (int64_t)(a->sym->end - b->sym->end);
	return d < 0 ? -1 : d > 0;
}

static bool entry_eq(const struct entry *a, const struct entry *b)
{
	return a->comm == b->comm && a->dso == b->dso && a->sym == b->sym &&
	       (a->sym || a->addr == b->addr);
}

/* Where a sample's period goes in one callchain item: (entry, group, first frame). */
struct occurrence {
	uint32_t entry, group, skip;
};

/*
 * perf's input tree of entries.  Resolved keys are found by hash (a tree search
 * always finds them: their comparisons are consistent); unresolved ones are searched
 * in the replayed tree like perf does, which may miss an equal entry and make a
 * second one.
 */
struct builder {
	struct entry *v;
	size_t nr, cap;
	uint32_t *hash;			/* resolved entries: index + 1 */
	size_t hash_cap, nr_hashed;
	struct rbtree in;			/* perf's entries_in */
	uint32_t *alias;		/* after collapse: the entry each one merged into */
	struct occurrence *occ;
	size_t nr_occ, cap_occ;
};

static int builder_rehash(struct builder *b)
{
	size_t cap = b->hash_cap ? b->hash_cap * 2 : 1024;
	uint32_t *t = calloc(cap, sizeof(*t));

	if (!t)
		return -ENOMEM;
	for (size_t i = 0; i < b->hash_cap; i++) {
		const struct entry *e;
		size_t j;

		if (!b->hash[i])
			continue;
		e = &b->v[b->hash[i] - 1];
		j = key_hash(e->comm, e->dso, e->sym, e->addr) & (cap - 1);
		while (t[j])
			j = (j + 1) & (cap - 1);
		t[j] = b->hash[i];
	}
	free(b->hash);
	b->hash = t;
	b->hash_cap = cap;
	return 0;
}

/* The entry of this key, created from `proto` if perf would; -1 on ENOMEM. */
static long builder_findnew(struct builder *b, const struct entry *proto)
{
	size_t i = 0;
	uint32_t p = RBTREE_NIL, x = b->in.root;
	bool left = false;

	if (proto->sym) {
		if ((b->nr_hashed + 1) * 2 > b->hash_cap && builder_rehash(b))
			return -1;
		i = key_hash(proto->comm, proto->dso, proto->sym, 0) & (b->hash_cap - 1);
		for (; b->hash[i]; i = (i + 1) & (b->hash_cap - 1))
			if (entry_eq(&b->v[b->hash[i] - 1], proto))
				return b->hash[i] - 1;
	}
	while (x != RBTREE_NIL) {
		int c = entry_cmp(proto, &b->v[x]);

		if (!c)
			return x;
		p = x;
		left = c < 0;
		x = left ? b->in.left[x] : b->in.right[x];
	}
	if (b->nr == b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 1024;
		struct entry *v = realloc(b->v, cap * sizeof(*v));

		if (!v)
			return -1;
		b->v = v;
		b->cap = cap;
	}
	if (rbtree__reserve(&b->in, b->nr + 1))
		return -1;
	b->v[b->nr] = *proto;
	if (proto->sym) {
		b->hash[i] = (uint32_t)b->nr + 1;
		b->nr_hashed++;
	}
	rbtree__link(&b->in, (uint32_t)b->nr, p, left);
	return (long)b->nr++;
}

static int builder_occ(struct builder *b, uint32_t entry, uint32_t group, uint32_t skip)
{
	if (b->nr_occ == b->cap_occ) {
		size_t cap = b->cap_occ ? b->cap_occ * 2 : 4096;
		struct occurrence *v = realloc(b->occ, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		b->occ = v;
		b->cap_occ = cap;
	}
	b->occ[b->nr_occ++] = (struct occurrence){ entry, group, skip };
	return 0;
}

/*
 * One group's samples: its own entry, and in children mode the entry of every frame
 * of its chain, once per entry key (perf's he_cache).  A frame without a map keeps
 * the level of the frame before it (perf leaves al->level as it was).
 */
static int builder_group(struct builder *b, const struct hists *h,
			 const struct hists_print_opts *o, uint32_t gi, uint32_t *ids,
			 long *cache)
{
	const struct hist_group *g = &h->groups[gi];
	bool graphs = o->cc && o->cc->mode != CALLCHAIN_NONE;
	uint32_t depth = o->chains ? callchains__depth(o->chains, g->chain) : 0, nc = 0;
	struct entry proto = {
		.comm = g->comm, .dso = g->dso, .sym = g->sym, .addr = g->addr,
		.sym_unmapped_start = g->sym_unmapped_start, .thread = g->thread,
		.level = g->level,
	};
	char level = g->level;
	long e0 = builder_findnew(b, &proto);

	if (e0 < 0)
		return -ENOMEM;
	b->v[e0].period += g->period;
	b->v[e0].nr_samples += g->count;
	b->v[e0].period_acc += g->period;
	if (depth && graphs) {
		if (builder_occ(b, (uint32_t)e0, gi, 0))
			return -ENOMEM;
		if (b->v[e0].max_depth < depth)
			b->v[e0].max_depth = depth;
	}
	if (!o->children || !depth)
		return 0;
	callchains__frames(o->chains, g->chain, ids);
	cache[nc++] = e0;
	for (uint32_t pos = 0; pos < depth; pos++) {
		const struct cc_frame *f = callchains__frame(o->chains, ids[pos]);
		bool seen = false;
		long e;

		if (f->level)
			level = f->level;
		proto.dso = f->dso;
		proto.sym = f->sym;
		proto.addr = h->ips[g->ips + pos];	/* perf's he->ip: the node's */
		proto.sym_unmapped_start = f->sym_unmapped_start;
		proto.level = level;
		for (uint32_t k = 0; k < nc && !seen; k++)
			seen = entry_eq(&b->v[cache[k]], &proto);
		if (seen)
			continue;
		e = builder_findnew(b, &proto);
		if (e < 0)
			return -ENOMEM;
		cache[nc++] = e;
		b->v[e].period_acc += g->period;
		if (!graphs)
			continue;
		if (builder_occ(b, (uint32_t)e, gi, pos))
			return -ENOMEM;
		if (b->v[e].max_depth < depth - pos)
			b->v[e].max_depth = depth - pos;
	}
	return 0;
}

static int builder_run(struct builder *b, const struct hists *h,
		       const struct hists_print_opts *o)
{
	uint32_t max_depth = 0;
	uint32_t *ids;
	long *cache;
	int err = 0;

	for (size_t i = 0; o->chains && i < h->nr_groups; i++) {
		uint32_t d = callchains__depth(o->chains, h->groups[i].chain);

		if (d > max_depth)
			max_depth = d;
	}
	ids = malloc(((size_t)max_depth + 1) * sizeof(*ids));
	cache = malloc(((size_t)max_depth + 2) * sizeof(*cache));
	if (!ids || !cache)
		err = -ENOMEM;
	for (size_t i = 0; i < h->nr_groups && !err; i++)
		err = builder_group(b, h, o, (uint32_t)i, ids, cache);
	free(ids);
	free(cache);
	return err;
}

/*
 * perf's collapse: the entries, in the input tree's order, go into a new tree (same
 * comparison); an entry the search finds equal is merged into the one found (its
 * periods added; its call graph too, but not its depth).  Writes the collapsed
 * tree's order to `order` and returns its length.
 */
static size_t builder_collapse(struct builder *b, uint32_t *order, uint32_t *stack)
{
	struct rbtree t;
	size_t n = rbtree__inorder(&b->in, order, stack), k = 0;

	for (size_t i = 0; i < n; i++)
		b->alias[i] = (uint32_t)i;
	/* the input tree's arrays are reused: its order is saved in `order` */
	t = b->in;
	t.root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = order[i], p = RBTREE_NIL, x = t.root;
		bool left = false, merged = false;

		while (x != RBTREE_NIL) {
			int c = entry_cmp(&b->v[z], &b->v[x]);

			if (!c) {
				struct entry *into = &b->v[x];

				into->period += b->v[z].period;
				into->nr_samples += b->v[z].nr_samples;
				into->period_acc += b->v[z].period_acc;
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
	k = rbtree__inorder(&t, order, stack);
	b->in = t;
	return k;
}

/* Items of every entry, grouped by entry (counting sort of the occurrences). */
static struct callchain_item *builder_items(struct builder *b, const struct hists *h)
{
	struct callchain_item *items = malloc((b->nr_occ ? b->nr_occ : 1) * sizeof(*items));
	uint32_t off = 0;

	if (!items)
		return NULL;
	for (size_t i = 0; i < b->nr; i++)
		b->v[i].nr_items = 0;
	for (size_t i = 0; i < b->nr_occ; i++)
		b->v[b->alias[b->occ[i].entry]].nr_items++;
	for (size_t i = 0; i < b->nr; i++) {
		b->v[i].first_item = off;
		off += b->v[i].nr_items;
		b->v[i].nr_items = 0;
	}
	for (size_t i = 0; i < b->nr_occ; i++) {
		const struct occurrence *oc = &b->occ[i];
		const struct hist_group *g = &h->groups[oc->group];
		struct entry *e = &b->v[b->alias[oc->entry]];

		items[e->first_item + e->nr_items++] = (struct callchain_item){
			.leaf = g->chain, .skip = oc->skip, .ips = h->ips + g->ips,
			.period = g->period, .count = g->count,
		};
	}
	return items;
}

static void builder_exit(struct builder *b)
{
	free(b->v);
	free(b->hash);
	free(b->alias);
	free(b->occ);
	rbtree__exit(&b->in);
}

/* ---- output order --------------------------------------------------------------- */

struct order {
	const struct entry *v;
	bool children;
	bool depth_ties;	/* caller above callee among a thread's equal entries */
	bool caller_first;	/* the chains are in caller order */
};

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a > b ? 1 : a < b ? -1 : 0;
}

/* perf's hist_entry__sort(a, b): > 0 puts the new entry a before b. */
static int output_cmp(const struct order *o, const struct entry *a, const struct entry *b)
{
	int c;

	if (o->children) {
		if ((c = cmp_u64(a->period_acc, b->period_acc)))
			return c;
		if (o->depth_ties && a->thread == b->thread && a->max_depth != b->max_depth) {
			c = a->max_depth > b->max_depth ? 1 : -1;
			return o->caller_first ? c : -c;
		}
	}
	if ((c = cmp_u64(a->period, b->period)))
		return c;
	if (a->comm != b->comm && (c = strcmp(a->comm, b->comm)))
		return -c;
	if ((c = dso_cmp(a, b)))
		return -c;
	if (!a->sym || !b->sym)
		return a->sym ? 1 : b->sym ? -1 : 0;
	return -strcmp(symbol__name(a->sym), symbol__name(b->sym));
}

/* The output tree, fed in collapsed order (ties go right). */
static void output_order(const struct order *o, struct rbtree *t, uint32_t *order, size_t n,
			 uint32_t *stack)
{
	t->root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++) {
		uint32_t z = order[i], p = RBTREE_NIL, x = t->root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			left = output_cmp(o, &o->v[z], &o->v[x]) > 0;
			x = left ? t->left[x] : t->right[x];
		}
		rbtree__link(t, z, p, left);
	}
	rbtree__inorder(t, order, stack);
}

/* ---- printing ------------------------------------------------------------------- */

/* The Symbol column text without its "[k] " prefix. */
static size_t sym_text(const struct entry *e, char *buf, size_t len)
{
	int n;

	if (e->sym)
		return symbol__format(buf, len, e->sym, e->addr, e->sym_unmapped_start);
	if (e->addr)
		return symbol__format_addr(buf, len, e->addr);
	/* perf's "%#.*llx" prints no 0x for zero */
	n = snprintf(buf, len, "%0*d", ADDR_HEX_WIDTH, 0);
	return n < 0 ? 0 : (size_t)n;
}

static size_t sym_width(const struct entry *e)
{
	char buf[1];

	if (!e->sym)
		return 4 + SYMBOL_ADDR_WIDTH;
	return 4 + sym_text(e, buf, sizeof(buf));
}

static void print_padded(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	fputs(s, out);
	for (; n < width; n++)
		fputc(' ', out);
}

static void print_dots(FILE *out, size_t n)
{
	while (n--)
		fputc('.', out);
}

static double pct(uint64_t v, uint64_t total)
{
	return total ? 100.0 * (double)v / (double)total : 0.0;
}

struct widths {
	size_t comm, dso, sym;
};

static void print_header(FILE *out, const struct hists *h, const struct hists_print_opts *o,
			 const char *event_name, const struct widths *w)
{
	unsigned long nr = (unsigned long)h->nr_samples;
	char unit = ' ';

	/* perf's convert_unit(): K, M, G above 1000 */
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	fprintf(out, "# Samples: %lu%c of event '%s'\n", nr, unit, event_name);
	fprintf(out, "# Event count (approx.): %llu\n#\n",
		(unsigned long long)h->total_period);
	fputs(o->children ? "# Children      Self  " : "# Overhead  ", out);
	print_padded(out, "Command", w->comm);
	fputs("  ", out);
	print_padded(out, "Shared Object", w->dso);
	fputs("  ", out);
	print_padded(out, "Symbol", w->sym);
	fputs(o->children ? "\n# ........  ........  " : "\n# ........  ", out);
	print_dots(out, w->comm);
	fputs("  ", out);
	print_dots(out, w->dso);
	fputs("  ", out);
	print_dots(out, w->sym);
	fputs("\n#\n", out);
}

static int print_entry(FILE *out, const struct hists *h, const struct hists_print_opts *o,
		       const struct entry *e, const struct widths *w)
{
	char text[1024];
	size_t n;

	if (o->children)
		fprintf(out, "  %7.2f%%  %7.2f%%  ", pct(e->period_acc, h->total_period),
			pct(e->period, h->total_period));
	else
		fprintf(out, "  %7.2f%%  ", pct(e->period, h->total_period));
	print_padded(out, e->comm, w->comm);
	fputs("  ", out);
	print_padded(out, dso_name(e), w->dso);
	fprintf(out, "  [%c] ", e->level);
	n = sym_text(e, text, sizeof(text));
	if (n < sizeof(text)) {
		fputs(text, out);
	} else {	/* a name longer than the stack buffer */
		char *big = malloc(n + 1);

		if (!big)
			return -ENOMEM;
		sym_text(e, big, n + 1);
		fputs(big, out);
		free(big);
	}
	fputc('\n', out);
	return 0;
}

static void entry_widths(const struct entry *e, struct widths *w)
{
	size_t l;

	if ((l = strlen(e->comm)) > w->comm)
		w->comm = l;
	if ((l = strlen(dso_name(e))) > w->dso)
		w->dso = l;
	if (!e->sym && w->dso < ADDR_HEX_WIDTH)
		w->dso = ADDR_HEX_WIDTH;
	if ((l = sym_width(e)) > w->sym)
		w->sym = l;
}

/* Entries in perf's output order; *n receives their number. */
static int hists__order(struct hists *h, const struct hists_print_opts *o, bool graphs,
			struct builder *b, uint32_t **order, size_t *n)
{
	uint32_t *stack = NULL;
	struct order ord;
	int err = builder_run(b, h, o);

	*order = NULL;
	if (!err) {
		*order = malloc((b->nr ? b->nr : 1) * sizeof(**order));
		stack = malloc((b->nr ? b->nr : 1) * sizeof(*stack));
		b->alias = malloc((b->nr ? b->nr : 1) * sizeof(*b->alias));
		if (!*order || !stack || !b->alias)
			err = -ENOMEM;
	}
	if (!err) {
		*n = builder_collapse(b, *order, stack);
		ord = (struct order){
			.v = b->v, .children = o->children, .depth_ties = graphs,
			.caller_first = graphs && o->cc->order == CALLCHAIN_CALLER,
		};
		output_order(&ord, &b->in, *order, *n, stack);
	}
	free(stack);
	return err;
}

int hists__fprintf(struct hists *h, const struct hists_print_opts *o,
		   const char *event_name, FILE *out)
{
	struct builder b = { 0 };
	struct widths w = { .comm = 7, .dso = 13, .sym = 6 };
	struct callchain_item *items = NULL;
	bool graphs = o->cc && o->cc->mode != CALLCHAIN_NONE && h->has_callchains &&
		      o->chains;
	struct hists_print_opts eo = *o;
	struct callchain_print cp = { 0 };
	uint32_t *sorted = NULL;
	size_t n = 0;
	int err;

	rbtree__init(&b.in);
	if (!h->has_callchains || !o->chains)
		eo.chains = NULL;
	if (!graphs)
		eo.cc = NULL;
	err = hists__order(h, &eo, graphs, &b, &sorted, &n);
	if (!err && graphs && !(items = builder_items(&b, h)))
		err = -ENOMEM;
	if (err)
		goto out;
	for (size_t i = 0; i < n; i++)
		entry_widths(&b.v[sorted[i]], &w);
	print_header(out, h, o, event_name, &w);
	if (graphs) {
		cp.param = o->cc;
		cp.total = h->total_period;
		/* perf: callchain_total * (min_percent / 100), truncated */
		cp.min_hit = (uint64_t)((double)h->total_period * (o->cc->min_percent / 100));
	}
	for (size_t i = 0; i < n && !err; i++) {
		const struct entry *e = &b.v[sorted[i]];
		/* perf's hist_entry__get_percent_limit(), a float */
		float percent = h->total_period ?
			(float)((double)(o->children ? e->period_acc : e->period) * 100.0 /
				(double)h->total_period) : 0;

		if (percent < o->percent_limit)
			continue;
		err = print_entry(out, h, o, e, &w);
		if (err || !graphs || !e->nr_items)
			continue;
		cp.parent_total = o->children ? e->period_acc : e->period;
		err = callchains__fprintf(o->chains, items + e->first_item, e->nr_items, &cp,
					  out);
	}
	if (!err)
		fputs("\n\n", out);
out:
	free(sorted);
	free(items);
	builder_exit(&b);
	return err;
}
