/*
 * hist-build - perf's entries made from a histogram's groups (report/hist-internal.h):
 * perf's input tree of entries replayed sample by sample (hist_builder__run(): each
 * step's entry, and in children mode its frames', found by hash where the keys allow
 * it, else searched as perf searches), the callchain items' occurrences, and which
 * groups find the same entries at every sample (the unresolved keys' classes) so that
 * their samples are counted at once.
 */
#include "report/hist-internal.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* strcmp */

#include "format/record.h"	/* MISC_* */
#include "machine/dso.h"
#include "machine/machine.h"	/* struct thread */
#include "machine/symbol.h"	/* symbol__inline_base */
#include "report/callchain.h"
#include "report/hist.h"
#include "report/sort.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "banned.h"

/* ---- entries from groups ------------------------------------------------------ */


/* Whether an entry of this key is found by hash: its comparisons are consistent.  (A
 * hash is a shortcut: an entry it misses, of another hash but an equal key, is found
 * in the tree; with a total order the tree search finds every entry.) */
static bool key_hashable(const struct sort_list *sl, const struct symbol *sym)
{
	if (hist__by_group(sl))
		return true;
	return sl->hash_safe && (sym || !(sl->need & SORT_NEED_SYM));
}

/* struct hist_builder: report/hist-internal.h (hashable() says which keys are found
 * by hash) */

static bool hashable(const struct sort_list *sl, const struct hist_entry *e)
{
	return key_hashable(sl, e->sym);
}

/* Hash of the key fields selected by need (SORT_NEED_*). */
static uint64_t need_hash(unsigned need, uint64_t x, const struct hist_entry *e)
{
	if (need & SORT_NEED_COMM)
		x = hist__mix(x ^ (uint64_t)(uintptr_t)e->comm);
	if (need & SORT_NEED_DSO)
		x = hist__mix(x ^ (uint64_t)(uintptr_t)e->dso);
	if (need & SORT_NEED_SYM)	/* an unresolved one's address too */
		x = hist__mix(x ^ (e->sym ? (uint64_t)(uintptr_t)e->sym : e->ip));
	if (need & SORT_NEED_THREAD)
		x = hist__mix(x ^ (uint32_t)(e->thread ? e->thread->tid : -1));
	if (need & SORT_NEED_CPU)
		x = hist__mix(x ^ (uint32_t)e->cpu ^ (uint64_t)(uint32_t)e->socket << 32);
	if (need & SORT_NEED_TIME)
		x = hist__mix(x ^ e->time);
	return x;
}

/* The lazily known texts of an entry whose dso, symbol or address is set: the
 * srcline and srcfile are computed when needed (sort_list.lazy), the cgroup name
 * now. */
static void entry_src(const struct hist_builder *b, struct hist_entry *e)
{
	unsigned need = b->sl->need;

	/* perf's hist_entry__cgroup_snprintf(): looked up when printed */
	if (need & SORT_NEED_CGROUP) {
		const char *path = b->cgroup_path && e->cgroup ?
				   b->cgroup_path(b->cgroup_ctx, e->cgroup) : NULL;

		e->cgroup_name = !e->cgroup ? "N/A" : path ? path : "unknown";
	}
	e->srcline = NULL;
	e->srcfile = NULL;
	e->trace_done = false;	/* perf formats a new entry's text when compared */
}

uint64_t hist_builder__entry_hash(const struct sort_list *sl, const struct hist_entry *e)
{
	return need_hash(sl->need, 0x1234567, e);
}

/* Entry x, found for proto's key.  perf's hists__findnew_entry(): an entry found
 * from another map object takes that map, and its symbol is looked up again there
 * (an inlined function's becomes the real one). */
static long builder_found(struct hist_builder *b, uint32_t x, const struct hist_entry *proto)
{
	struct hist_entry *e = &b->v[x];

	if (!(b->sl->need & SORT_NEED_SYM) || !e->sym || !e->sym->inlined ||
	    e->map_id == proto->map_id)
		return x;
	if (b->sl->total_order) {
		/* noted, and done once every entry is made
		 * (hist_builder__inline_rename()): the key must not change while the
		 * entries are searched */
		e->map_moved = true;
		return x;
	}
	e->sym = symbol__inline_base(e->sym);
	if (b->keyed)
		b->keys[x].sym = e->sym;
	e->map_id = proto->map_id;
	return x;
}

/* The entry of proto's key in the builder's entry tree, or a copy of proto linked
 * where perf's search ended (*added then true); -1 on ENOMEM. */
long hist_builder__tree_findnew(struct hist_builder *b, const struct hist_entry *proto,
				bool *added)
{
	uint32_t p = RBTREE_NIL, x = b->in.root;
	struct hist_key pk;
	bool left = false;

	*added = false;
	if (!b->keyed_known) {
		b->keyed = sort_list__keyed(b->sl);
		b->keyed_known = true;
	}
	if (b->keyed)
		hist_key__of(&pk, proto);
	while (x != RBTREE_NIL) {
		/* a node's key copy (32 bytes) where its entry (448) would be a cache miss
		 * a level: the bench file's replay and output at -j 1, 300 -> 265 ms
		 * (medians of 8) */
		int c = b->keyed ? sort_list__cmp_keys(b->sl, 0, &pk, &b->keys[x])
				 : sort_list__cmp(b->sl, proto, &b->v[x]);

		if (!c)
			return builder_found(b, x, proto);
		p = x;
		left = c < 0;
		x = left ? b->in.left[x] : b->in.right[x];
	}
	if (hugemem__grow(&b->v, &b->cap, &b->v_mapped, b->nr + 1, sizeof(*b->v), 1024))
		return -1;
	if (b->keyed) {
		if (hugemem__grow(&b->keys, &b->cap_keys, &b->keys_mapped, b->nr + 1,
				  sizeof(*b->keys), 1024))
			return -1;
		b->keys[b->nr] = pk;
	}
	if (rbtree__reserve(&b->in, b->nr + 1))
		return -1;
	b->v[b->nr] = *proto;	/* with the texts its search computed (perf copies
				 * the he_tmp's) */
	rbtree__link(&b->in, (uint32_t)b->nr, p, left);
	*added = true;
	return (long)b->nr++;
}

/* The entry of this key, created from `proto` if perf would; -1 on ENOMEM. */
static long builder_findnew(struct hist_builder *b, const struct hist_entry *proto)
{
	bool hashed = hashable(b->sl, proto), added;
	uint32_t hash = 0;
	size_t i = 0;
	long x;

	if (hashed) {
		if (hashtab__reserve_mapped(&b->hash, &b->hash_cap, &b->hash_mapped,
					    b->nr_hashed, sizeof(*b->hash), 1024,
					    hashtab__kept_hash, b))
			return -1;
		hash = (uint32_t)hist_builder__entry_hash(b->sl, proto);
		i = hashtab__first(hash, b->hash_cap);
		for (; b->hash[i].idx1; i = hashtab__next(i, b->hash_cap))
			if (b->hash[i].hash == hash &&
			    !sort_list__cmp(b->sl, proto, &b->v[b->hash[i].idx1 - 1]))
				return builder_found(b, b->hash[i].idx1 - 1, proto);
	}
	if (b->no_tree) {	/* hashed: a total order */
		if (hugemem__grow(&b->v, &b->cap, &b->v_mapped, b->nr + 1, sizeof(*b->v),
				  1024))
			return -1;
		b->v[b->nr] = *proto;
		x = (long)b->nr++;
		added = true;
	} else {
		x = hist_builder__tree_findnew(b, proto, &added);
	}
	if (added && hashed) {
		b->hash[i] = (struct hashtab_slot){ (uint32_t)x + 1, hash };
		b->nr_hashed++;
	}
	return x;
}

static uint64_t occ_hash(uint32_t entry, uint32_t group, uint32_t skip)
{
	return hist__mix(((uint64_t)entry << 32 | group) ^ hist__mix(skip));
}

/* Count samples into the item (entry, group, skip); `merge`: it may exist already.
 * *idx receives the item's index in b->occ. */
static int builder_occ(struct hist_builder *b, uint32_t entry, uint32_t group, uint32_t skip,
		       uint64_t period, uint64_t count, bool merge, uint32_t *idx)
{
	size_t i = 0;
	uint32_t h = 0;

	if (merge) {
		if (hashtab__reserve_mapped(&b->occ_hash, &b->occ_hash_cap,
					    &b->occ_hash_mapped, b->nr_occ_hashed,
					    sizeof(*b->occ_hash), 1024, hashtab__kept_hash, b))
			return -ENOMEM;
		h = (uint32_t)occ_hash(entry, group, skip);
		i = hashtab__first(h, b->occ_hash_cap);
		for (; b->occ_hash[i].idx1; i = hashtab__next(i, b->occ_hash_cap)) {
			struct hist_occurrence *o;

			if (b->occ_hash[i].hash != h)
				continue;
			o = &b->occ[b->occ_hash[i].idx1 - 1];
			if (o->entry == entry && o->group == group && o->skip == skip) {
				o->period += period;
				o->count += count;
				*idx = b->occ_hash[i].idx1 - 1;
				return 0;
			}
		}
	}
	if (hugemem__grow(&b->occ, &b->cap_occ, &b->occ_mapped, b->nr_occ + 1,
			  sizeof(*b->occ), 4096))
		return -ENOMEM;
	*idx = (uint32_t)b->nr_occ;
	b->occ[b->nr_occ++] = (struct hist_occurrence){ entry, group, skip, period, count };
	if (merge) {
		b->occ_hash[i] = (struct hashtab_slot){ (uint32_t)b->nr_occ, h };
		b->nr_occ_hashed++;
	}
	return 0;
}

/* Hash item idx (made by builder_occ() without `merge`), so that a later call with
 * `merge` finds it; -ENOMEM. */
int hist_builder__occ_hash(struct hist_builder *b, uint32_t idx)
{
	const struct hist_occurrence *o = &b->occ[idx];
	size_t i;
	uint32_t h;

	if (hashtab__reserve_mapped(&b->occ_hash, &b->occ_hash_cap, &b->occ_hash_mapped,
				    b->nr_occ_hashed, sizeof(*b->occ_hash), 1024,
				    hashtab__kept_hash, b))
		return -ENOMEM;
	h = (uint32_t)occ_hash(o->entry, o->group, o->skip);
	i = hashtab__first(h, b->occ_hash_cap);
	while (b->occ_hash[i].idx1)
		i = hashtab__next(i, b->occ_hash_cap);
	b->occ_hash[i] = (struct hashtab_slot){ idx + 1, h };
	b->nr_occ_hashed++;
	return 0;
}

/* perf's he_stat__add_cpumode_period, with the period and sample count. */
static void stat_add(struct hist_stat *st, uint8_t cpumode, uint64_t period,
		     uint64_t count)
{
	st->period += period;
	st->nr_events += count;
	switch (cpumode) {
	case MISC_KERNEL: st->period_sys += period; break;
	case MISC_USER: st->period_us += period; break;
	case MISC_GUEST_KERNEL: st->period_guest_sys += period; break;
	case MISC_GUEST_USER: st->period_guest_us += period; break;
	default: break;
	}
}

/* perf's hist_entry__fast__sym_diff(): _sort__sym_cmp() alone (inlined functions
 * by name, equal when their ranges overlap), or the addresses without symbols. */
static bool sym_differs(const struct sort_list *sl, const struct hist_entry *a,
			const struct hist_entry *b)
{
	const struct symbol *l = a->sym, *r = b->sym;

	if (!l && !r)
		return a->ip != b->ip;
	if (!l || !r)
		return true;
	if (l == r)
		return false;
	if (sl->total_order && (l->inlined || r->inlined))	/* sort.c's t_sym_nodso() */
		return l->inlined != r->inlined || strcmp(l->name, r->name);
	if ((l->inlined || r->inlined) && !strcmp(l->name, r->name) &&
	    l->start <= r->end && l->end >= r->start)
		return false;
	return l->start != r->start || l->end != r->end;
}

/* The entry a group's own samples make. */
static struct hist_entry group_entry(const struct hists *h, const struct hist_group *g)
{
	const struct hist_sample *s = &g->s;

	return (struct hist_entry){
		.comm = s->comm, .thread = s->thread, .dso = s->dso, .sym = s->sym,
		.parent = s->parent, .ip = s->addr, .sym_unmapped_start = s->sym_unmapped_start,
		.map_start = s->map_start, .map_end = s->map_end,
		.map_pgoff = s->map_pgoff, .time = s->time, .weight = s->weight,
		.ins_lat = s->ins_lat, .p_stage_cyc = s->p_stage_cyc, .cpu = s->cpu,
		.cgroup = s->cgroup, .cgroup_dev = s->cgroup_dev, .cgroup_ino = s->cgroup_ino,
		.code_page_size = s->code_page_size, .trace = s->trace, .mem = s->mem,
		.socket = s->socket, .level = s->level, .cpumode = s->cpumode,
		.filtered = s->filtered, .branch = hists__group_branch(h, g),
	};
}

int touch_list__add(struct touch_list *t, long entry, const uint32_t *occ,
		    uint8_t cpumode)
{
	if (!t)
		return 0;
	if (hugemem__grow(&t->v, &t->cap, &t->mapped, t->nr + 1, sizeof(*t->v), 4096))
		return -ENOMEM;
	t->v[t->nr++] = (struct hist_touch){ (uint32_t)entry, occ ? *occ : UINT32_MAX,
					     cpumode };
	return 0;
}

/*
 * Count more samples of a group as its memo says (the n touches of one sample): the
 * same sums hist_builder__step() adds when it finds these entries again.
 */
void hist_builder__apply(struct hist_builder *b, const struct hist_touch *t, size_t n,
			 uint64_t period, uint64_t count)
{
	for (size_t k = 0; k < n; k++) {
		struct hist_entry *e = &b->v[t[k].entry];

		if (!k) {	/* the sample's own entry */
			stat_add(&e->stat, t[k].cpumode, period, count);
			if (!e->filtered) {
				b->nr_non_filtered_samples += count;
				b->non_filtered_period += period;
			}
		}
		stat_add(&e->stat_acc, t[k].cpumode, period, count);
		if (t[k].occ != UINT32_MAX) {
			b->occ[t[k].occ].period += period;
			b->occ[t[k].occ].count += count;
		}
	}
}

/*
 * Samples of one group (all of a stable group, or one sample of another): their own
 * entry, and in children mode the entry of every frame of their chain, once per
 * entry key (perf's he_cache).  A frame without a map keeps the level and cpumode of
 * the frame before it (perf leaves al as it was).  With `rec`, what they touched is
 * appended there (hist_builder__apply() counts more samples the same way).
 */
int hist_builder__step(struct hist_builder *b, const struct hists *h,
		       const struct hists_print_opts *o, uint32_t gi, uint64_t period,
		       uint64_t count, uint32_t *ids, long *cache, struct touch_list *rec)
{
	const struct hist_group *g = &h->groups[gi];
	bool graphs = o->cc && o->cc->mode != CALLCHAIN_NONE, merge = !g->stable;
	bool by_sym = (b->sl->need & SORT_NEED_SYM) != 0;
	uint32_t depth = o->chains ? callchains__depth(o->chains, g->s.chain) : 0, nc = 0;
	struct hist_entry proto = group_entry(h, g);
	uint32_t oi;
	long e0;

	entry_src(b, &proto);
	e0 = builder_findnew(b, &proto);

	if (e0 < 0)
		return -ENOMEM;
	stat_add(&b->v[e0].stat, g->s.cpumode, period, count);
	stat_add(&b->v[e0].stat_acc, g->s.cpumode, period, count);
	/* perf: hists__inc_nr_samples(hists, he->filtered), the entry found's flag */
	if (!b->v[e0].filtered) {
		b->nr_non_filtered_samples += count;
		b->non_filtered_period += period;
	}
	if (depth && graphs) {
		if (builder_occ(b, (uint32_t)e0, gi, 0, period, count, merge, &oi))
			return -ENOMEM;
		if (b->v[e0].max_depth < depth)
			b->v[e0].max_depth = depth;
	}
	if (touch_list__add(rec, e0, depth && graphs ? &oi : NULL, g->s.cpumode))
		return -ENOMEM;
	if (!o->children || !depth)
		return 0;
	callchains__frames(o->chains, g->s.chain, ids);
	cache[nc++] = e0;
	for (uint32_t pos = 0; pos < depth; pos++) {
		const struct cc_frame *f = callchains__frame(o->chains, ids[pos]);
		struct hist_entry tmp;
		bool seen = false;
		long e;

		if (f->level) {
			proto.level = f->level;
			proto.cpumode = f->level == 'k' ? MISC_KERNEL : MISC_USER;
		}
		proto.dso = f->dso;
		proto.sym = f->sym;
		proto.ip = h->ips[g->ips + pos];	/* perf's he->ip: the node's */
		proto.sym_unmapped_start = f->sym_unmapped_start;
		proto.map_start = f->map_start;
		proto.map_end = f->map_end;
		proto.map_pgoff = f->map_pgoff;
		proto.map_id = f->map_id;
		entry_src(b, &proto);
		/* the address and srcline call graph keys give frames a srcline, which
		 * perf's frame entries take (fill_callchain_info()) */
		if (f->srcline && (b->sl->need & SORT_NEED_SRCLINE))
			proto.srcline = f->srcline;
		/* perf compares with a he_tmp that has no socket and no time */
		tmp = proto;
		tmp.socket = 0;
		tmp.time = 0;
		for (uint32_t k = 0; k < nc && !seen; k++) {
			const struct hist_entry *c = &b->v[cache[k]];

			/* perf's quick check first: with a symbol key, entries of other
			 * symbols (or addresses) differ (hist_entry__fast__sym_diff()) */
			if (by_sym && sym_differs(b->sl, c, &tmp))
				continue;
			seen = !sort_list__cmp(b->sl, &tmp, c);
		}
		if (seen)
			continue;
		e = builder_findnew(b, &proto);
		if (e < 0)
			return -ENOMEM;
		cache[nc++] = e;
		stat_add(&b->v[e].stat_acc, proto.cpumode, period, count);
		if (graphs) {
			if (builder_occ(b, (uint32_t)e, gi, pos, period, count, merge, &oi))
				return -ENOMEM;
			if (b->v[e].max_depth < depth - pos)
				b->v[e].max_depth = depth - pos;
		}
		if (touch_list__add(rec, e, graphs ? &oi : NULL, proto.cpumode))
			return -ENOMEM;
	}
	return 0;
}

static uint64_t class_hash(const struct sort_list *sl, const struct hist_entry *e)
{
	/* a class never hashes the symbol */
	return need_hash(sl->class_need & ~SORT_NEED_SYM, 0x9876543, e);
}

static uint64_t class_slot_hash(const void *ctx, const void *slot)
{
	return class_hash(ctx, &((const struct key_class *)slot)->proto);
}

/* The class of e (created empty if new); NULL on ENOMEM. */
static struct key_class *class_of(struct classes *c, const struct sort_list *sl,
				  const struct hist_entry *e)
{
	size_t i;

	if (hashtab__reserve(&c->v, &c->cap, c->nr, sizeof(*c->v), 256, class_slot_hash, sl))
		return NULL;
	for (i = hashtab__first(class_hash(sl, e), c->cap); c->v[i].used;
	     i = hashtab__next(i, c->cap))
		if (!sort_list__class_cmp(sl, e, &c->v[i].proto))
			return &c->v[i];
	c->v[i] = (struct key_class){ .proto = *e, .idx = (uint32_t)c->nr, .used = true };
	c->nr++;
	return &c->v[i];
}

/*
 * Add address a to class k's arc (the live replay's classes_decide(), one address at
 * a time): an arc shorter than half the circle that holds the old arc and a is the
 * old one stretched to a one way or the other, the shorter of the two; when neither
 * is shorter than 2^63 the class is broken for good.  Returns whether it broke now.
 */
static bool class_stretch(struct key_class *k, uint64_t a, bool fresh)
{
	uint64_t up, down;

	if (fresh) {
		k->lo = k->hi = a;
		return false;
	}
	if (k->broken || a - k->lo <= k->hi - k->lo)	/* in the arc */
		return false;
	up = a - k->lo;		/* lo .. a */
	down = k->hi - a;	/* a .. hi */
	if (up <= down && up < (1ULL << 63))
		k->hi = a;
	else if (down < up && down < (1ULL << 63))
		k->lo = a;
	else
		k->broken = true;
	return k->broken;
}

/*
 * Call fn(ctx, k, addr) for each unresolved key of a group's samples (its own and,
 * in children mode, its frames'), k its class (made if new: *fresh then true), addr
 * its address; stops at fn's first non-zero return and returns it; -ENOMEM.
 */
typedef int unresolved_fn(void *ctx, struct key_class *k, uint64_t addr, bool fresh);

static int group_unresolved(const struct hist_builder *b, const struct hists *h,
			    const struct hists_print_opts *o, const struct hist_group *g,
			    uint32_t *ids, struct classes *c, unresolved_fn *fn, void *ctx)
{
	uint32_t depth = o->children && o->chains ?
			 callchains__depth(o->chains, g->s.chain) : 0;
	struct hist_entry e = group_entry(h, g);

	if (depth)
		callchains__frames(o->chains, g->s.chain, ids);
	for (uint32_t pos = 0; pos <= depth; pos++) {
		struct key_class *k;
		size_t nr = c->nr;
		int r;

		if (pos) {
			const struct cc_frame *f = callchains__frame(o->chains, ids[pos - 1]);

			e.dso = f->dso;
			e.sym = f->sym;
			e.ip = h->ips[g->ips + pos - 1];
		}
		entry_src(b, &e);
		if (e.sym)
			continue;
		k = class_of(c, b->sl, &e);
		if (!k)
			return -ENOMEM;
		if ((r = fn(ctx, k, e.ip, c->nr != nr)))
			return r;
	}
	return 0;
}

/* mark_stable()'s two looks at a group: its addresses noted, or its classes checked */
struct keys_ctx {
	struct classes *c;
	bool check;
};

static int note_key(void *ctx, struct key_class *k, uint64_t addr, bool fresh)
{
	struct keys_ctx *x = ctx;
	struct classes *c = x->c;

	(void)fresh;
	if (x->check)
		return !c->consistent[k->idx];
	if (array__grow(&c->addrs, &c->cap_addrs, c->nr_addrs + 1, sizeof(*c->addrs), 1024))
		return -ENOMEM;
	c->addrs[c->nr_addrs++] = (struct class_addr){ k->idx, addr };
	return 0;
}

/* Visit the unresolved keys of a group's samples: with `check`, 1 when one lies in an
 * inconsistent class; else their addresses noted for classes_decide(). */
static int group_keys(const struct hist_builder *b, const struct hists *h,
		      const struct hists_print_opts *o, const struct hist_group *g,
		      uint32_t *ids, struct classes *c, bool check)
{
	struct keys_ctx x = { c, check };

	return group_unresolved(b, h, o, g, ids, c, note_key, &x);
}

/* hist_builder__live_keys()'s look at one key */
struct live_keys_ctx {
	struct u32_list *cls;
	bool **broken;
	size_t *cap_broken;
	uint32_t *flips;
};

static int stretch_key(void *ctx, struct key_class *k, uint64_t addr, bool fresh)
{
	struct live_keys_ctx *x = ctx;
	struct u32_list *cls = x->cls;

	if (array__grow_zeroed(x->broken, x->cap_broken, (size_t)k->idx + 1,
			       sizeof(**x->broken), 256) ||
	    array__grow(&cls->v, &cls->cap, cls->nr + 1, sizeof(*cls->v), 1024))
		return -ENOMEM;
	if (class_stretch(k, addr, fresh)) {
		(*x->broken)[k->idx] = true;
		++*x->flips;
	}
	cls->v[cls->nr++] = k->idx;
	return 0;
}

/*
 * The live replay's look at a group's first sample: the addresses of its unresolved
 * keys added to their classes (*flips counts the classes that broke), the classes'
 * indices appended to `cls`.  Returns 1 when one of them is broken, else 0; -ENOMEM.
 */
int hist_builder__live_keys(const struct hist_builder *b, const struct hists *h,
			    const struct hists_print_opts *o, const struct hist_group *g,
			    uint32_t *ids, struct classes *c, struct u32_list *cls,
			    bool **broken, size_t *cap_broken, uint32_t *flips)
{
	struct live_keys_ctx x = { cls, broken, cap_broken, flips };
	size_t first = cls->nr;
	int err = group_unresolved(b, h, o, g, ids, c, stretch_key, &x);

	if (err)
		return err;
	/* a later key may have broken the class of an earlier one */
	for (size_t i = first; i < cls->nr; i++)
		if ((*broken)[cls->v[i]])
			return 1;
	return 0;
}

static int class_addr_cmp(const void *pa, const void *pb)
{
	const struct class_addr *a = pa, *b = pb;

	if (a->cls != b->cls)
		return a->cls < b->cls ? -1 : 1;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/*
 * A class is consistent when perf's signed differences order its addresses like a
 * line: when they fit in an arc of the 2^64 circle shorter than 2^63, i.e. some gap
 * between neighbours (the wrap-around one included) is longer than 2^63.
 */
static int classes_decide(struct classes *c)
{
	c->consistent = calloc(c->nr ? c->nr : 1, sizeof(*c->consistent));
	if (!c->consistent)
		return -ENOMEM;
	if (c->nr_addrs)
		qsort(c->addrs, c->nr_addrs, sizeof(*c->addrs), class_addr_cmp);
	for (size_t i = 0, j; i < c->nr_addrs; i = j) {
		uint64_t first = c->addrs[i].addr, last = first, gap = 0;

		for (j = i + 1; j < c->nr_addrs && c->addrs[j].cls == c->addrs[i].cls; j++) {
			uint64_t d = c->addrs[j].addr - c->addrs[j - 1].addr;

			if (d > gap)
				gap = d;
			last = c->addrs[j].addr;
		}
		if (first == last || first - last > gap)	/* the wrap-around gap */
			gap = first - last;
		c->consistent[c->addrs[i].cls] = first == last || gap > (1ULL << 63);
	}
	return 0;
}

/*
 * Which groups are stable.  perf finds entries by searching a tree whose order is
 * the keys'; for unresolved entries the symbol key compares addresses by the sign of
 * their difference, which is not always consistent (classes_decide()).  A group whose
 * unresolved keys all lie in consistent classes (entries equal before the symbol
 * key) finds its entries like a hash would, sample after sample; the others are
 * replayed sample by sample.
 */
static int mark_stable(const struct hist_builder *b, struct hists *h,
		       const struct hists_print_opts *o, uint32_t *ids)
{
	struct classes c = { 0 };
	int err = 0;

	/* With a total order every search finds the entry of its key: each group's
	 * samples are counted at once, where its first one is.  But for the keys whose
	 * texts perf computes as its searches compare them (a column is as wide as the
	 * texts computed): their searches are replayed sample by sample, which computes
	 * the texts perf does wherever its entries are not split. */
	if (b->sl->total_order) {
		bool stable = !hist__lazy_keys(b->sl);

		for (size_t i = 0; i < h->nr_groups; i++)
			h->groups[i].stable = stable;
		return 0;
	}
	if (!b->sl->hash_safe || !(b->sl->need & SORT_NEED_SYM)) {
		for (size_t i = 0; i < h->nr_groups; i++)
			h->groups[i].stable = b->sl->hash_safe;
		return 0;
	}
	for (size_t i = 0; i < h->nr_groups && !err; i++)
		err = group_keys(b, h, o, &h->groups[i], ids, &c, false);
	if (!err)
		err = classes_decide(&c);
	for (size_t i = 0; i < h->nr_groups && err >= 0; i++) {
		err = group_keys(b, h, o, &h->groups[i], ids, &c, true);
		h->groups[i].stable = err == 0;
	}
	free(c.v);
	free(c.addrs);
	free(c.consistent);
	return err < 0 ? err : 0;
}

/*
 * perf's hists__findnew_entry() gives an inlined function's entry that a sample
 * from another map object finds that map, and looks its symbol up again there: the
 * entry becomes the function it was inlined into, and samples searched after that
 * no longer find it.  With a total order (sort_list.total_order) the entries are
 * made first, and those found from two map objects or more become their base
 * function's after: the same whatever the order the samples came in; the collapse
 * then merges the entries whose keys became equal.
 */
void hist_builder__inline_rename(struct hist_builder *b)
{
	for (size_t i = 0; i < b->nr; i++) {
		struct hist_entry *e = &b->v[i];

		if (e->map_moved && e->sym && e->sym->inlined) {
			e->sym = symbol__inline_base(e->sym);
			b->renamed = true;
		}
	}
}

/* perf's sample-by-sample entry creation, replayed from the steps. */
int hist_builder__run(struct hist_builder *b, struct hists *h,
		      const struct hists_print_opts *o)
{
	uint32_t max_depth = 0;
	uint32_t *ids;
	long *cache;
	int err = 0;

	for (size_t i = 0; o->chains && i < h->nr_groups; i++) {
		uint32_t d = callchains__depth(o->chains, h->groups[i].s.chain);

		if (d > max_depth)
			max_depth = d;
	}
	ids = malloc(((size_t)max_depth + 1) * sizeof(*ids));
	cache = malloc(((size_t)max_depth + 2) * sizeof(*cache));
	if (!ids || !cache)
		err = -ENOMEM;
	if (!err && h->steps_base)	/* hists__drop_replayed() */
		err = -EINVAL;
	if (!err)
		err = mark_stable(b, h, o, ids);
	if (!err && hist__sortable(b->sl)) {
		err = hist_builder__run_parallel(b, h, o, max_depth);
		if (err <= 0) {
			free(ids);
			free(cache);
			return err;
		}
		err = 0;
	}
	/* hist__by_group(): no steps were kept; the groups, in the order they were made */
	for (size_t i = 0; hist__by_group(b->sl) && i < h->nr_groups && !err; i++)
		err = hist_builder__step(b, h, o, (uint32_t)i, h->groups[i].period,
					 h->groups[i].count, ids, cache, NULL);
	for (size_t i = 0; i < h->nr_steps && !err;) {
		uint64_t period;
		uint32_t gi = hist_step__next(h->steps, &i, &period);
		struct hist_group *g = &h->groups[gi];

		if (!g->stable)
			err = hist_builder__step(b, h, o, gi, period, 1, ids, cache, NULL);
		else if (!g->done)
			err = hist_builder__step(b, h, o, gi, g->period, g->count, ids, cache,
						 NULL);
		g->done = true;
	}
	free(ids);
	free(cache);
	return err;
}
