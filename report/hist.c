#include "report/hist.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc, realloc */
#include <string.h>	/* memcpy, memset */

#include "format/record.h"	/* MISC_* */
#include "report/callchain.h"
#include "report/hist-internal.h"
#include "machine/dso.h"
#include "machine/machine.h"	/* struct thread */
#include "util/rbtree.h"
#include "report/sort.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/hashtab.h"
#include "banned.h"

/* struct hists.mems: data accesses a block */
#define HIST_MEM_BLOCK 1024

/* Samples that resolve alike: same key attributes and callchain. */
struct hist_group {
	struct hist_sample s;		/* the first sample (ips: offset in hists.ips) */
	size_t ips;			/* its chain addresses, in hists.ips */
	size_t branch;			/* its branch: index + 1 in hists.branches
					 * (0: none; s.branch is NULL) */
	uint64_t period, count;
	bool stable;			/* every sample finds the same entries (see
					 * mark_stable()) */
	bool done;			/* counted (hists__fprintf) */
};

/* One sample, in order: perf creates and finds entries sample by sample.  8 bytes:
 * a period of 2^32 or more takes two steps, one of group STEP_HIGH holding its upper
 * 32 bits, then the sample's own with the lower ones (step_next() reads both). */
struct hist_step {
	uint32_t group;
	uint32_t period;
};

#define STEP_HIGH UINT32_MAX	/* no group's index: groups are counted in 32 bits,
				 * idx1 = index + 1 */

/* The sample whose steps begin at s[*i]: its group, *period whole; *i moves past
 * its steps. */
static uint32_t step_next(const struct hist_step *s, size_t *i, uint64_t *period)
{
	uint64_t high = 0;

	if (s[*i].group == STEP_HIGH) {
		high = (uint64_t)s[*i].period << 32;
		(*i)++;
	}
	*period = high | s[*i].period;
	return s[(*i)++].group;
}

void hists__init(struct hists *h, const struct sort_list *sl, struct callchains *chains)
{
	memset(h, 0, sizeof(*h));
	h->sl = sl;
	h->chains = chains;
}

static void live_free(struct hists *h);

void hists__exit(struct hists *h)
{
	live_free(h);
	hugemem__free(h->groups, h->groups_mapped);
	hugemem__free(h->hash, h->hash_mapped);
	hugemem__free(h->ips, h->ips_mapped);
	hugemem__free(h->steps, h->steps_mapped);
	free(h->branches);
	for (size_t i = 0; i < (h->nr_mems + HIST_MEM_BLOCK - 1) / HIST_MEM_BLOCK; i++)
		free(h->mems[i]);
	free(h->mems);
	memset(h, 0, sizeof(*h));
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9E3779B97F4A7C15ULL;
	return x ^ (x >> 29);
}

/* ---- groups ----------------------------------------------------------------------- */

static uint64_t group_hash(const struct hist_sample *s, unsigned need)
{
	uint64_t x = (uint64_t)(uintptr_t)s->comm * 0x9E3779B97F4A7C15ULL;

	x ^= (uint64_t)(uintptr_t)s->dso * 0xC2B2AE3D27D4EB4FULL;
	x ^= s->sym && !(need & SORT_NEED_IP) ? (uint64_t)(uintptr_t)s->sym * 0x165667B19E3779F9ULL
					       : (s->addr + 1) * 0x27D4EB2F165667C5ULL;
	x = mix(x ^ ((uint64_t)s->filtered << 48 | (uint64_t)s->chain << 16 |
		     (uint64_t)s->cpumode << 8 | (unsigned char)s->level));
	if (need & SORT_NEED_THREAD)
		x = mix(x ^ (uint64_t)(uintptr_t)s->thread);
	if (need & SORT_NEED_CPU)
		x = mix(x ^ (uint32_t)s->cpu);
	if (need & SORT_NEED_TIME)
		x = mix(x ^ s->time);
	if (need & SORT_NEED_MAP)
		x = mix(x ^ s->map_start ^ s->map_end << 1);
	if (need & SORT_NEED_TRACE)
		x = mix(x ^ (uint64_t)(uintptr_t)s->trace);
	return x;
}

/* The data access fields a --mem-mode group is keyed on. */
static bool mem_eq(const struct hist_mem *a, const struct hist_mem *b)
{
	return a->data_src == b->data_src && a->addr == b->addr &&
	       a->phys_addr == b->phys_addr && a->page_size == b->page_size &&
	       a->dso == b->dso && a->sym == b->sym;
}

static bool group_eq(const struct hist_sample *a, const struct hist_sample *b,
		     unsigned need)
{
	if (a->comm != b->comm || a->dso != b->dso || a->sym != b->sym ||
	    a->parent != b->parent ||
	    ((!a->sym || (need & SORT_NEED_IP)) && a->addr != b->addr) ||
	    a->chain != b->chain ||
	    a->level != b->level || a->cpumode != b->cpumode ||
	    a->filtered != b->filtered)
		return false;
	if ((need & SORT_NEED_THREAD) && a->thread != b->thread)
		return false;
	if ((need & SORT_NEED_CPU) && (a->cpu != b->cpu || a->socket != b->socket))
		return false;
	if ((need & SORT_NEED_TIME) && a->time != b->time)
		return false;
	if ((need & SORT_NEED_WEIGHT) && (a->weight != b->weight || a->ins_lat != b->ins_lat ||
					  a->p_stage_cyc != b->p_stage_cyc))
		return false;
	if ((need & SORT_NEED_PAGE) && a->code_page_size != b->code_page_size)
		return false;
	if ((need & SORT_NEED_TRACE) && a->trace != b->trace)
		return false;
	if ((need & SORT_NEED_MEM) && !mem_eq(hist_mem__of(a->mem), hist_mem__of(b->mem)))
		return false;
	if ((need & SORT_NEED_CGROUP) && (a->cgroup != b->cgroup ||
					  a->cgroup_dev != b->cgroup_dev ||
					  a->cgroup_ino != b->cgroup_ino))
		return false;
	if ((need & SORT_NEED_MAP) &&
	    (a->map_start != b->map_start || a->map_end != b->map_end ||
	     a->map_pgoff != b->map_pgoff))
		return false;
	return true;
}

/* A group's branch (branch view), or NULL. */
static const struct hist_branch *group_branch(const struct hists *h,
					      const struct hist_group *g)
{
	return g->branch ? &h->branches[g->branch - 1] : NULL;
}

static bool branch_end_eq(const struct hist_branch_end *a, const struct hist_branch_end *b)
{
	return a->dso == b->dso && a->sym == b->sym && a->addr == b->addr &&
	       a->al_addr == b->al_addr && a->level == b->level;
}

/* Samples of two branches count alike (both NULL outside the branch view). */
static bool branch_eq(const struct hist_branch *a, const struct hist_branch *b)
{
	if (!a || !b)
		return a == b;
	return a->flags == b->flags && branch_end_eq(&a->from, &b->from) &&
	       branch_end_eq(&a->to, &b->to);
}

static uint64_t branch_hash(const struct hist_branch *br)
{
	return br ? mix(br->from.addr ^ mix(br->to.addr ^ mix(br->flags))) : 0;
}

/* The srcline keys tell samples apart by the address in every frame (perf computes
 * each frame entry's text from the sample's own address): their groups also
 * compare and hash the chain addresses. */
static bool by_frame_ips(unsigned need)
{
	return need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE);
}

static uint64_t ips_hash(const uint64_t *ips, uint32_t n)
{
	uint64_t x = n;

	for (uint32_t i = 0; i < n; i++)
		x = mix(x ^ ips[i]);
	return x;
}

static uint64_t sample_hash(const struct hist_sample *s, const uint64_t *ips,
			    const struct hist_branch *br, unsigned need)
{
	uint64_t x = group_hash(s, need) ^ branch_hash(br);

	return by_frame_ips(need) ? mix(x ^ ips_hash(ips, s->nr_ips)) : x;
}

/* The hashes of the lookup tables' slots (util/hashtab.h): group, entry and
 * occurrence indexes + 1, classes. */
static int save_ips(struct hists *h, const struct hist_sample *s, size_t *off)
{
	if (hugemem__grow(&h->ips, &h->cap_ips, &h->ips_mapped, h->nr_ips + s->nr_ips,
			  sizeof(*h->ips), 4096))
		return -ENOMEM;
	if (s->nr_ips)
		memcpy(h->ips + h->nr_ips, s->ips, s->nr_ips * sizeof(*s->ips));
	*off = h->nr_ips;
	h->nr_ips += s->nr_ips;
	return 0;
}

/* A new group's branch, copied (*idx: its index + 1, 0 without one). */
static int save_branch(struct hists *h, const struct hist_sample *s, size_t *idx)
{
	*idx = 0;
	if (!s->branch)
		return 0;
	if (array__grow(&h->branches, &h->cap_branches, h->nr_branches + 1,
			sizeof(*h->branches), 1024))
		return -ENOMEM;
	h->branches[h->nr_branches++] = *s->branch;
	*idx = h->nr_branches;
	return 0;
}

/* A new group's data access, copied (*out: where; NULL without one). */
static int save_mem(struct hists *h, const struct hist_sample *s, const struct hist_mem **out)
{
	size_t blk = h->nr_mems / HIST_MEM_BLOCK;

	*out = NULL;
	if (!s->mem)
		return 0;
	if (h->nr_mems % HIST_MEM_BLOCK == 0) {
		if (array__grow(&h->mems, &h->cap_mem_blocks, blk + 1, sizeof(*h->mems), 16) ||
		    !(h->mems[blk] = malloc(HIST_MEM_BLOCK * sizeof(**h->mems))))
			return -ENOMEM;
	}
	h->mems[blk][h->nr_mems % HIST_MEM_BLOCK] = *s->mem;
	*out = &h->mems[blk][h->nr_mems++ % HIST_MEM_BLOCK];
	return 0;
}

/* The keys whose texts perf computes as its searches compare them: their column is
 * as wide as the texts computed, so their searches are made sample by sample. */
static bool lazy_keys(const struct sort_list *sl)
{
	return sl->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE);
}

/* With a total order and no such keys (sort_list.total_order), each group's samples
 * are counted at once, where its first one is: in the order the groups were made,
 * with no steps kept. */
static bool by_group(const struct sort_list *sl)
{
	return sl->total_order && !lazy_keys(sl);
}

/* Whether an entry of this key is found by hash: its comparisons are consistent.  (A
 * hash is a shortcut: an entry it misses, of another hash but an equal key, is found
 * in the tree; with a total order the tree search finds every entry.) */
static bool key_hashable(const struct sort_list *sl, const struct symbol *sym)
{
	if (by_group(sl))
		return true;
	return sl->hash_safe && (sym || !(sl->need & SORT_NEED_SYM));
}

static int add_step(struct hists *h, uint32_t group, uint64_t period)
{
	size_t k = h->nr_steps - h->steps_base, n = period > UINT32_MAX ? 2 : 1;

	if (hugemem__grow(&h->steps, &h->cap_steps, &h->steps_mapped, k + n,
			  sizeof(*h->steps), 1024))
		return -ENOMEM;
	if (n == 2)
		h->steps[k++] = (struct hist_step){ STEP_HIGH, (uint32_t)(period >> 32) };
	h->steps[k] = (struct hist_step){ group, (uint32_t)period };
	h->nr_steps += n;
	return 0;
}

int hists__add(struct hists *h, const struct hist_sample *s)
{
	unsigned need = h->sl->need;
	const struct hist_mem *mem;
	struct hist_group *g;
	uint32_t hash;
	size_t i;

	if (hashtab__reserve_mapped(&h->hash, &h->hash_cap, &h->hash_mapped, h->nr_groups,
				    sizeof(*h->hash), 1024, hashtab__kept_hash, h))
		return -ENOMEM;
	h->total_period += s->period;
	h->nr_samples++;
	hash = (uint32_t)sample_hash(s, s->ips, s->branch, need);
	i = hashtab__first(hash, h->hash_cap);
	for (; h->hash[i].idx1; i = hashtab__next(i, h->hash_cap)) {
		if (h->hash[i].hash != hash)
			continue;
		g = &h->groups[h->hash[i].idx1 - 1];
		if (group_eq(&g->s, s, need) && branch_eq(group_branch(h, g), s->branch) &&
		    (!by_frame_ips(need) || g->s.nr_ips == s->nr_ips) &&
		    (!by_frame_ips(need) || !s->nr_ips ||
		     !memcmp(h->ips + g->ips, s->ips, s->nr_ips * sizeof(*s->ips)))) {
			g->period += s->period;
			g->count++;
			return by_group(h->sl) ? 0 : add_step(h, h->hash[i].idx1 - 1, s->period);
		}
	}
	if (hugemem__grow(&h->groups, &h->cap_groups, &h->groups_mapped, h->nr_groups + 1,
			  sizeof(*h->groups), 1024))
		return -ENOMEM;
	g = &h->groups[h->nr_groups];
	if (save_ips(h, s, &g->ips) || save_branch(h, s, &g->branch) || save_mem(h, s, &mem))
		return -ENOMEM;
	g->s = *s;
	g->s.ips = NULL;
	g->s.branch = NULL;
	g->s.mem = mem;
	g->period = s->period;
	g->count = 1;
	g->stable = false;
	g->done = false;
	h->hash[i] = (struct hashtab_slot){ (uint32_t)++h->nr_groups, hash };
	return by_group(h->sl) ? 0 : add_step(h, (uint32_t)h->nr_groups - 1, s->period);
}

/* ---- entries from groups ------------------------------------------------------ */

/* Where a group's samples go in one callchain item: (entry, group, first frame), in
 * the order of their first samples. */
struct hist_occurrence {
	uint32_t entry, group, skip;
	uint64_t period, count;
};

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
		x = mix(x ^ (uint64_t)(uintptr_t)e->comm);
	if (need & SORT_NEED_DSO)
		x = mix(x ^ (uint64_t)(uintptr_t)e->dso);
	if (need & SORT_NEED_SYM)	/* an unresolved one's address too */
		x = mix(x ^ (e->sym ? (uint64_t)(uintptr_t)e->sym : e->ip));
	if (need & SORT_NEED_THREAD)
		x = mix(x ^ (uint32_t)(e->thread ? e->thread->tid : -1));
	if (need & SORT_NEED_CPU)
		x = mix(x ^ (uint32_t)e->cpu ^ (uint64_t)(uint32_t)e->socket << 32);
	if (need & SORT_NEED_TIME)
		x = mix(x ^ e->time);
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

static uint64_t entry_hash(const struct sort_list *sl, const struct hist_entry *e)
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
		/* noted, and done once every entry is made (inline_rename()): the key
		 * must not change while the entries are searched */
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
static long builder_tree_findnew(struct hist_builder *b, const struct hist_entry *proto,
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
		hash = (uint32_t)entry_hash(b->sl, proto);
		i = hashtab__first(hash, b->hash_cap);
		for (; b->hash[i].idx1; i = hashtab__next(i, b->hash_cap))
			if (b->hash[i].hash == hash &&
			    !sort_list__cmp(b->sl, proto, &b->v[b->hash[i].idx1 - 1]))
				return builder_found(b, b->hash[i].idx1 - 1, proto);
	}
	x = builder_tree_findnew(b, proto, &added);
	if (added && hashed) {
		b->hash[i] = (struct hashtab_slot){ (uint32_t)x + 1, hash };
		b->nr_hashed++;
	}
	return x;
}

static uint64_t occ_hash(uint32_t entry, uint32_t group, uint32_t skip)
{
	return mix(((uint64_t)entry << 32 | group) ^ mix(skip));
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
static int builder_occ_hash(struct hist_builder *b, uint32_t idx)
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
		.filtered = s->filtered, .branch = group_branch(h, g),
	};
}

/*
 * What a group's sample did to the entries, kept by the live replay (its memo): the
 * entries it counted in, each with the cpumode its period went under and the item
 * its chain went into; the first is the sample's own entry.
 */
struct hist_touch {
	uint32_t entry;
	uint32_t occ;			/* index in hist_builder.occ; UINT32_MAX: none */
	uint8_t cpumode;
};

struct touch_list {
	struct hist_touch *v;
	size_t nr, cap, mapped;		/* (mapped: util/hugemem.h) */
};

struct u32_list {
	uint32_t *v;
	size_t nr, cap;
};

static int touch(struct touch_list *t, long entry, const uint32_t *occ, uint8_t cpumode)
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
 * same sums builder_step() adds when it finds these entries again.
 */
static void builder_apply(struct hist_builder *b, const struct hist_touch *t, size_t n,
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
 * appended there (builder_apply() counts more samples the same way).
 */
static int builder_step(struct hist_builder *b, const struct hists *h,
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
	if (touch(rec, e0, depth && graphs ? &oi : NULL, g->s.cpumode))
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
		if (touch(rec, e, graphs ? &oi : NULL, proto.cpumode))
			return -ENOMEM;
	}
	return 0;
}

/* The unresolved keys of one class (entries equal up to the symbol key). */
struct key_class {
	struct hist_entry proto;	/* the class's key attributes */
	uint32_t idx;			/* in creation order */
	bool used;
	/* the live replay's: the shortest arc of the 2^64 circle, from lo up to hi,
	 * that holds the addresses seen so far (classes_decide()); broken: none
	 * shorter than 2^63 does */
	bool broken;
	uint64_t lo, hi;
};

/* An unresolved key's address, by class. */
struct class_addr {
	uint32_t cls;
	uint64_t addr;
};

struct classes {
	struct key_class *v;
	size_t cap, nr;
	struct class_addr *addrs;	/* pass 1 */
	size_t nr_addrs, cap_addrs;
	bool *consistent;		/* per class index, after pass 1 */
};

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

/* live_keys()'s look at one key */
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
static int live_keys(const struct hist_builder *b, const struct hists *h,
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
		bool stable = !lazy_keys(b->sl);

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
static void inline_rename(struct hist_builder *b)
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
static int builder_run(struct hist_builder *b, struct hists *h,
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
	/* by_group(): no steps were kept; the groups, in the order they were made */
	for (size_t i = 0; by_group(b->sl) && i < h->nr_groups && !err; i++)
		err = builder_step(b, h, o, (uint32_t)i, h->groups[i].period,
				   h->groups[i].count, ids, cache, NULL);
	for (size_t i = 0; i < h->nr_steps && !err;) {
		uint64_t period;
		uint32_t gi = step_next(h->steps, &i, &period);
		struct hist_group *g = &h->groups[gi];

		if (!g->stable)
			err = builder_step(b, h, o, gi, period, 1, ids, cache, NULL);
		else if (!g->done)
			err = builder_step(b, h, o, gi, g->period, g->count, ids, cache, NULL);
		g->done = true;
	}
	free(ids);
	free(cache);
	return err;
}

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

/*
 * perf's collapse (when a key has a collapse function, like comm): the entries, in
 * the input tree's order, go into a new tree (same comparison); an entry the search
 * finds equal is merged into the one found (its periods added; its call graph too,
 * but not its depth).  Writes the resulting order to `order` and returns its length.
 */
static size_t builder_collapse(struct hist_builder *b, uint32_t *order, uint32_t *stack)
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

/* ---- the live replay (hists__live_start()) ------------------------------------ */

/*
 * The live replay cannot wait for the whole recording to decide which groups are
 * stable (mark_stable()), so it decides as it goes: a group's first sample adds its
 * unresolved addresses to their classes, and while every class the group's keys lie
 * in is consistent with the addresses seen so far, perf's searches for its keys find
 * what a hash would (classes_decide(): the tree holds only keys seen so far), so every
 * later sample finds the entries its first one found.  Such a group keeps what its
 * first sample touched (its memo) and only sums the periods of the others, counted
 * into those entries when the replay is taken (builder_apply()).  Once one of its
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
	uint32_t *ids;			/* builder_step()'s scratch, for chains of */
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

static void live_free(struct hists *h)
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
	live_free(h);
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
	r = live_keys(&l->b, h, &l->o, &h->groups[gi], l->ids, &l->c, &l->cls, &l->broken,
		      &l->cap_broken, &l->flips);
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
		builder_apply(&l->b, l->touch.v + lg->first, lg->nr, lg->period, lg->count);
		for (uint32_t i = 0; i < lg->nr && !err; i++)
			if (l->touch.v[lg->first + i].occ != UINT32_MAX)
				err = builder_occ_hash(&l->b, l->touch.v[lg->first + i].occ);
	}
	g->stable = lg->state == LIVE_NEW && state == LIVE_MEMO;	/* items merged? */
	if (!err && g->stable) {
		err = builder_step(&l->b, h, &l->o, gi, period, 1, l->ids, l->cache,
				   &l->touch);
		lg->first = (uint32_t)first;
		lg->nr = (uint32_t)(l->touch.nr - first);
	} else if (!err) {
		err = builder_step(&l->b, h, &l->o, gi, period, 1, l->ids, l->cache, NULL);
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
		uint32_t gi = step_next(h->steps, &k, &period);
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
		live_free(h);
		/* the dropped samples cannot be replayed again */
		return h->steps_base ? -EINVAL : 1;
	}
	if ((err = hists__live_replay(h, h->nr_steps)))
		return err;
	for (size_t i = 0; i < h->nr_groups && i < l->cap_g; i++) {
		const struct live_group *lg = &l->g[i];

		if (lg->state == LIVE_MEMO && lg->count)
			builder_apply(&l->b, l->touch.v + lg->first, lg->nr, lg->period,
				      lg->count);
	}
	hist_builder__exit(b);
	*b = l->b;
	l->b = (struct hist_builder){ .sl = b->sl };
	rbtree__init(&l->b.in);
	live_free(h);
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
		err = builder_run(b, h, o);
	if (!err && b->sl->total_order)
		inline_rename(b);
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
				    .cgroup_ctx = o->cgroup_ctx };
	rbtree__init(&b->in);
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
	long x = builder_tree_findnew(b, pair, added);
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
