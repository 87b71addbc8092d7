/*
 * hist - a histogram (report/hist.h): each event's samples counted into groups of
 * samples that resolve alike (hists__add(): the same key attributes and callchain,
 * found by hash; a group's branch and --mem-mode data access kept once), and the
 * steps that replay them in perf's order.  The entries made from the groups are
 * hist-build.c's, their collapse and order hist-order.c's, the replay batch by batch
 * hist-live.c's; what they share is hist-internal.h.
 */
#include "report/hist.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* memcmp, memcpy, memset */

#include "report/hist-internal.h"
#include "report/sort.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "banned.h"

/* struct hists.mems: data accesses a block */
#define HIST_MEM_BLOCK 1024

void hists__init(struct hists *h, const struct sort_list *sl, struct callchains *chains)
{
	memset(h, 0, sizeof(*h));
	h->sl = sl;
	h->chains = chains;
}

void hists__exit(struct hists *h)
{
	hists__live_free(h);
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

/* ---- groups ----------------------------------------------------------------------- */

static uint64_t group_hash(const struct hist_sample *s, unsigned need)
{
	uint64_t x = (uint64_t)(uintptr_t)s->comm * 0x9E3779B97F4A7C15ULL;

	x ^= (uint64_t)(uintptr_t)s->dso * 0xC2B2AE3D27D4EB4FULL;
	x ^= s->sym && !(need & SORT_NEED_IP) ? (uint64_t)(uintptr_t)s->sym * 0x165667B19E3779F9ULL
					       : (s->addr + 1) * 0x27D4EB2F165667C5ULL;
	x = hist__mix(x ^ ((uint64_t)s->filtered << 48 | (uint64_t)s->chain << 16 |
		      (uint64_t)s->cpumode << 8 | (unsigned char)s->level));
	if (need & SORT_NEED_THREAD)
		x = hist__mix(x ^ (uint64_t)(uintptr_t)s->thread);
	if (need & SORT_NEED_CPU)
		x = hist__mix(x ^ (uint32_t)s->cpu);
	if (need & SORT_NEED_TIME)
		x = hist__mix(x ^ s->time);
	if (need & SORT_NEED_MAP)
		x = hist__mix(x ^ s->map_start ^ s->map_end << 1);
	if (need & SORT_NEED_TRACE)
		x = hist__mix(x ^ (uint64_t)(uintptr_t)s->trace);
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
	return br ? hist__mix(br->from.addr ^ hist__mix(br->to.addr ^ hist__mix(br->flags))) : 0;
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
		x = hist__mix(x ^ ips[i]);
	return x;
}

static uint64_t sample_hash(const struct hist_sample *s, const uint64_t *ips,
			    const struct hist_branch *br, unsigned need)
{
	uint64_t x = group_hash(s, need) ^ branch_hash(br);

	return by_frame_ips(need) ? hist__mix(x ^ ips_hash(ips, s->nr_ips)) : x;
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

/* Samples alike (@p count of them, @p period in all) into their group; s is the
 * first one's. */
static int add_samples(struct hists *h, const struct hist_sample *s, uint64_t period,
		       uint64_t count)
{
	unsigned need = h->sl->need;
	const struct hist_mem *mem;
	struct hist_group *g;
	uint32_t hash;
	size_t i;

	if (hashtab__reserve_mapped(&h->hash, &h->hash_cap, &h->hash_mapped, h->nr_groups,
				    sizeof(*h->hash), 1024, hashtab__kept_hash, h))
		return -ENOMEM;
	hash = (uint32_t)sample_hash(s, s->ips, s->branch, need);
	i = hashtab__first(hash, h->hash_cap);
	for (; h->hash[i].idx1; i = hashtab__next(i, h->hash_cap)) {
		if (h->hash[i].hash != hash)
			continue;
		g = &h->groups[h->hash[i].idx1 - 1];
		if (group_eq(&g->s, s, need) && branch_eq(hists__group_branch(h, g), s->branch) &&
		    (!by_frame_ips(need) || g->s.nr_ips == s->nr_ips) &&
		    (!by_frame_ips(need) || !s->nr_ips ||
		     !memcmp(h->ips + g->ips, s->ips, s->nr_ips * sizeof(*s->ips)))) {
			g->period += period;
			g->count += count;
			return hist__by_group(h->sl) ? 0 : add_step(h, h->hash[i].idx1 - 1, period);
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
	g->period = period;
	g->count = count;
	g->stable = false;
	g->done = false;
	h->hash[i] = (struct hashtab_slot){ (uint32_t)++h->nr_groups, hash };
	return hist__by_group(h->sl) ? 0 : add_step(h, (uint32_t)h->nr_groups - 1, period);
}

int hists__add(struct hists *h, const struct hist_sample *s)
{
	h->total_period += s->period;
	h->nr_samples++;
	return add_samples(h, s, s->period, 1);
}

bool hists__mergeable(const struct hists *h)
{
	return hist__by_group(h->sl);
}

/* Room for @p groups more groups whose first samples' chains hold @p ips addresses,
 * faulted in on the workers of @p wq (util/hugemem.h). */
static int merge_room(struct hists *h, struct workqueue *wq, size_t groups, size_t ips)
{
	struct hugemem_span sp[3];

	/* an empty histogram (the report's, before its merge) has nothing to copy: a
	 * copy's first write faults a fresh huge page in here */
	if ((!h->nr_groups &&
	     hugemem__grow_discard(&h->groups, &h->cap_groups, &h->groups_mapped, groups,
				   sizeof(*h->groups), 1024)) ||
	    (!h->nr_ips &&
	     hugemem__grow_discard(&h->ips, &h->cap_ips, &h->ips_mapped, ips,
				   sizeof(*h->ips), 4096)))
		return -ENOMEM;
	if (hugemem__grow(&h->groups, &h->cap_groups, &h->groups_mapped,
			  h->nr_groups + groups, sizeof(*h->groups), 1024) ||
	    hugemem__grow(&h->ips, &h->cap_ips, &h->ips_mapped, h->nr_ips + ips,
			  sizeof(*h->ips), 4096) ||
	    hashtab__reserve_mapped(&h->hash, &h->hash_cap, &h->hash_mapped,
				    h->nr_groups + groups, sizeof(*h->hash), 1024,
				    hashtab__kept_hash, h))
		return -ENOMEM;
	/* up to the most they may hold, not their capacities */
	sp[0] = (struct hugemem_span){ h->groups + h->nr_groups, groups * sizeof(*h->groups) };
	sp[1] = (struct hugemem_span){ h->ips + h->nr_ips, ips * sizeof(*h->ips) };
	sp[2] = (struct hugemem_span){ h->hash, h->hash_cap * sizeof(*h->hash) };
	return hugemem__populate(wq, sp, 3);
}

int hists__merge(struct hists *h, struct hists *const *from, size_t n,
		 uint32_t *const *chain_maps, struct workqueue *wq)
{
	size_t *at, groups = 0, ips = 0;
	int err = 0;

	if (!hist__by_group(h->sl))
		return -EINVAL;
	for (size_t k = 0; k < n; k++) {
		groups += from[k]->nr_groups;
		ips += from[k]->nr_ips;
	}
	/* at most all of theirs: room made once, faulted in on the workers */
	if ((err = merge_room(h, wq, groups, ips)))
		return err;
	if (!(at = calloc(n ? n : 1, sizeof(*at))))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		h->total_period += from[k]->total_period;
		h->nr_samples += from[k]->nr_samples;
		h->has_callchains |= from[k]->has_callchains;
	}
	for (;;) {
		const struct hist_group *g;
		struct hist_sample s;
		size_t best = n;

		/* the group whose first sample came first (one sample is in one
		 * histogram: no two first samples have one position) */
		for (size_t k = 0; k < n; k++)
			if (at[k] < from[k]->nr_groups &&
			    (best == n || from[k]->groups[at[k]].s.seq <
					  from[best]->groups[at[best]].s.seq))
				best = k;
		if (best == n)
			break;
		g = &from[best]->groups[at[best]++];
		s = g->s;
		if (chain_maps)
			s.chain = chain_maps[best][s.chain];
		s.ips = from[best]->ips + g->ips;
		s.branch = hists__group_branch(from[best], g);
		if ((err = add_samples(h, &s, g->period, g->count)))
			break;
	}
	free(at);
	return err;
}
