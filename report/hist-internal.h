#ifndef DIRREPORT_REPORT_HIST_INTERNAL_H
#define DIRREPORT_REPORT_HIST_INTERNAL_H
/*
 * hist-internal - what the histogram's files (report/hist.c: samples counted into
 * groups; hist-build.c: entries made from them; hist-order.c: the collapse, the
 * output order and the group view; hist-live.c: the replay batch by batch) hand
 * report/hist-print.c (the printer) and each other, and nothing else includes:
 * perf's entry trees replayed for one event (struct hist_builder) and the group
 * view's histograms paired (struct hist_group_view).  Not part of libreport's
 * interface.
 *
 * The builder's life: hist_builder__init(), hist_builder__order() (perf's input and
 * collapsed trees, optionally its output tree), then hist_builder__items() for the
 * call graphs and hist_builder__output_order() where the order was not resorted yet,
 * and hist_builder__exit().  Entries are indices into b->v.
 *
 * Thread safety: a builder or group view belongs to the thread of its histograms.
 */
#include "util/hashtab.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/hist.h"	/* struct hists, struct hist_sample (the groups) */
#include "report/sort.h"	/* struct hist_entry, SORT_NEED_* */
#include "util/rbtree.h"	/* struct rbtree (a builder holds its tree) */

struct callchain_item;
struct hist_entry;
struct hist_occurrence;
struct hists;
struct hists_print_opts;
struct sort_ctx;
struct sort_list;
struct workqueue;

/*
 * perf's input tree of entries, then its collapsed tree.  Keys whose comparisons are
 * consistent are found by hash, as a tree search always finds them; others are
 * searched in the replayed tree like perf does, which may miss an equal entry and
 * make a second one.  The printer reads v, in, nr_non_filtered_samples and
 * non_filtered_period; the rest is the builder's files'.
 */
struct hist_builder {
	const struct sort_list *sl;
	struct hist_entry *v;		/* owned: the entries */
	size_t nr, cap, v_mapped;	/* (v_mapped, occ_mapped: util/hugemem.h) */
	struct hashtab_slot *hash;	/* hashable entries */
	size_t hash_cap, nr_hashed, hash_mapped;
	struct rbtree in;		/* perf's entries_in, then its collapsed tree */
	/* the entries' keys beside the tree while entries_in is searched, where
	 * sort_list__keyed() (hist-build.c: hist_builder__tree_findnew());
	 * keyed_known: keyed says whether (found at the first search; false from the
	 * collapse on, whose comms are the overridden ones) */
	struct hist_key *keys;
	size_t cap_keys, keys_mapped;
	bool keyed, keyed_known;
	bool no_tree;			/* a partial builder (hist-merge.c): entries
					 * found by hash alone, none linked into
					 * `in` (a total order: one entry a key) */
	uint32_t *alias;		/* after collapse: the entry each one merged into */
	bool renamed;			/* an entry's key changed after it was made
					 * (hist_builder__inline_rename()): the
					 * collapse merges */
	struct hist_occurrence *occ;	/* where groups' samples go (hist-build.c) */
	size_t nr_occ, cap_occ, occ_mapped;
	struct hashtab_slot *occ_hash;	/* occurrences of unstable groups */
	size_t occ_hash_cap, nr_occ_hashed, occ_hash_mapped;
	const char *(*cgroup_path)(const void *ctx, uint64_t id);	/* see */
	const void *cgroup_ctx;		/* hists_print_opts */
	struct workqueue *wq;		/* hists_print_opts.wq: the collapse's sort
					 * runs there (a total order) */
	uint64_t nr_non_filtered_samples;	/* samples whose own entry is shown */
	uint64_t non_filtered_period;		/* their period (perf's
						 * callchain_non_filtered_period) */
};

/**
 * @brief An empty builder for @p sl, with o's cgroup names (o->cgroup_path).
 * Ownership: @p sl and o's cgroup context are borrowed.  Cannot fail.
 */
void hist_builder__init(struct hist_builder *b, const struct sort_list *sl,
			const struct hists_print_opts *o);

/**
 * @brief Replay perf's entry creation from h's samples, then its collapse; with
 *        @p resort also its output tree (perf's output_resort()), else b->in is left
 *        the collapsed tree.
 * @param o  o->chains NULL: no call graph accounting; o->cc NULL: no call graphs
 * @param graphs  call graphs are printed (the output order then breaks ties by depth)
 * @param order  receives the entries (malloc'd, the caller frees it even on error)
 *               in output order (resort) or collapsed order; *n their number
 * @return 0 or -ENOMEM.
 */
int hist_builder__order(struct hist_builder *b, struct hists *h,
			const struct hists_print_opts *o, bool graphs, uint32_t **order,
			size_t *n, bool resort);

/**
 * @brief The entries' callchain items, grouped by entry (entry.first_item,
 *        entry.nr_items index them), for callchains__fprintf().
 * @param min_period  0: every entry's; else only those of the entries not filtered
 *        whose period (@p children: Children's, with the callees') is at least this
 *        (perf prints no call graph under an entry below its absolute threshold):
 *        the others' nr_items is 0
 * @return the items (malloc'd, the caller frees them) or NULL on ENOMEM.
 */
struct callchain_item *hist_builder__items(struct hist_builder *b, const struct hists *h,
					   bool children, uint64_t min_period);

/**
 * @brief Put the n entries of @p order, given in collapsed order, into perf's output
 *        tree (the order of @p c, ties go right) and write them back in its order.
 *        Each entry's src_width is set as perf takes the widths (after placing it).
 * @param t  the tree (its arrays sized for b->nr: b->in may be reused)
 * @param stack  scratch for n entries
 * Cannot fail.
 */
void hist_builder__output_order(struct hist_builder *b, const struct sort_ctx *c,
				struct rbtree *t, uint32_t *order, size_t n, uint32_t *stack);

/** @brief Free what the builder owns (a second call is harmless). */
void hist_builder__exit(struct hist_builder *b);

/*
 * The group view (perf's report__collapse_hists(), hists__match(), hists__link()):
 * every event's entries made and collapsed, the leader's entries paired with the
 * members' entries of the same key; a member entry left unpaired adds a zero entry
 * (perf's dummy) to the leader's collapsed tree.  The fields above `private` are the
 * printer's to read.
 */
struct hist_group_view {
	struct hist_builder *b;		/* nr, the leader's first; the leader's entries
					 * have their pairs (hist_entry.pairs) */
	size_t nr;			/* events */
	uint64_t *totals;		/* nr percent bases (perf's
					 * hists__total_period()) */
	uint64_t nr_samples, count;	/* the header's sums */
	uint32_t *sorted;		/* the leader's entries, dummies included, in
					 * its collapsed tree's order */
	size_t n;
	uint32_t *stack;		/* scratch for n entries */
	/* private: hist-order.c's while it pairs */
	uint32_t **order;		/* each one's collapsed entries, in tree order */
	size_t *nr_order;
	uint32_t *tree;			/* the leader's entries in its tree: collapsed
					 * ones, then the dummies */
	size_t nr_tree, cap_tree;
	uint32_t *pair;			/* [leader entry * (nr - 1) + member - 1]: the
					 * member's entry, RBTREE_NIL: none */
	size_t cap_pair;		/* leader entries it has room for */
	const struct hist_entry **pp;	/* the pairs' storage */
};

/**
 * @brief Make the group view of nr >= 2 histograms (the leader's first) as
 *        hists__fprintf_group() documents it.
 * @param graphs  the leader's call graphs are printed (its items are accounted)
 * @return 0, -EINVAL (nr < 2) or -ENOMEM; hist_group_view__exit() frees g in every
 *         case.
 */
int hist_group_view__make(struct hist_group_view *g, struct hists *const *hs, size_t nr,
			  const struct hists_print_opts *o, bool graphs);

/** @brief Free what the group view owns (a second call is harmless). */
void hist_group_view__exit(struct hist_group_view *g);

/* ---- between the builder's files only (the printer reads none of it) ------------- */

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
 * 32 bits, then the sample's own with the lower ones (hist_step__next() reads both). */
struct hist_step {
	uint32_t group;
	uint32_t period;
};

#define STEP_HIGH UINT32_MAX	/* no group's index: groups are counted in 32 bits,
				 * idx1 = index + 1 */

/* The sample whose steps begin at s[*i]: its group, *period whole; *i moves past
 * its steps. */
static inline uint32_t hist_step__next(const struct hist_step *s, size_t *i, uint64_t *period)
{
	uint64_t high = 0;

	if (s[*i].group == STEP_HIGH) {
		high = (uint64_t)s[*i].period << 32;
		(*i)++;
	}
	*period = high | s[*i].period;
	return s[(*i)++].group;
}

/* The hashes' finalizer (a 64-bit mixer): hist.c's groups, hist-build.c's entries
 * and occurrences. */
static inline uint64_t hist__mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9E3779B97F4A7C15ULL;
	return x ^ (x >> 29);
}

/* Where a group's samples go in one callchain item: (entry, group, first frame), in
 * the order of their first samples. */
struct hist_occurrence {
	uint32_t entry, group, skip;
	uint64_t period, count;
};

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

/* A group's branch (branch view), or NULL. */
static inline const struct hist_branch *hists__group_branch(const struct hists *h,
							    const struct hist_group *g)
{
	return g->branch ? &h->branches[g->branch - 1] : NULL;
}

/* The keys whose texts perf computes as its searches compare them: their column is
 * as wide as the texts computed, so their searches are made sample by sample. */
static inline bool hist__lazy_keys(const struct sort_list *sl)
{
	return sl->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE);
}

/* With a total order and no such keys (sort_list.total_order), each group's samples
 * are counted at once, where its first one is: in the order the groups were made,
 * with no steps kept. */
static inline bool hist__by_group(const struct sort_list *sl)
{
	return sl->total_order && !hist__lazy_keys(sl);
}

/* hist__by_group() whose comparison a sort may use (hist-merge.c, the collapse): a
 * total order, not the branch view's keys (perf's mispredict, in_tx and abort
 * comparisons say 1, "differ", both ways round; a tree search takes that as "go
 * right", a sort cannot). */
static inline bool hist__sortable(const struct sort_list *sl)
{
	return hist__by_group(sl) && !sl->branch_mode;
}

/* hist-live.c */

/** @brief Free h's live replay (hists__live_start()), if any: h->live is NULL after.
 *  Thread safety: the histogram's thread. */
void hists__live_free(struct hists *h);

/* hist-build.c */

/**
 * @brief The entry of @p proto's key in the builder's entry tree (perf's input
 *        tree, or the collapsed tree once collapsed), or a copy of proto linked where
 *        perf's search ended (*@p added then true).
 * @return the entry's index in b->v, or -1 on ENOMEM.
 */
long hist_builder__tree_findnew(struct hist_builder *b, const struct hist_entry *proto,
				bool *added);

/** @brief Hash the occurrence b->occ[@p idx] (made without merging), so that a later
 *  search that merges finds it.  @return 0 or -ENOMEM. */
int hist_builder__occ_hash(struct hist_builder *b, uint32_t idx);

/** @brief Append to @p t (NULL: nothing) what a sample touched: @p entry, its
 *  occurrence *@p occ (NULL: none) and the cpumode its period went under.
 *  @return 0 or -ENOMEM. */
int touch_list__add(struct touch_list *t, long entry, const uint32_t *occ, uint8_t cpumode);

/** @brief Count more samples of a group as its memo says (the @p n touches @p t of
 *  one sample): @p period and @p count added as hist_builder__step() adds them.
 *  Cannot fail. */
void hist_builder__apply(struct hist_builder *b, const struct hist_touch *t, size_t n,
			 uint64_t period, uint64_t count);

/**
 * @brief Samples of group @p gi of @p h (all of a stable group, or one sample of
 *        another) into the entries: their own, and in children mode every frame's,
 *        once per entry key (perf's he_cache).
 * @param period  their period (event units); @p count: how many samples
 * @param ids, cache  scratch for a chain of the histogram's deepest depth (+ 1 and
 *                    + 2 elements)
 * @param rec  NULL, or where what they touched is appended (hist_builder__apply())
 * @return 0 or -ENOMEM.
 */
int hist_builder__step(struct hist_builder *b, const struct hists *h,
		       const struct hists_print_opts *o, uint32_t gi, uint64_t period,
		       uint64_t count, uint32_t *ids, long *cache, struct touch_list *rec);

/**
 * @brief The live replay's look at group @p g's first sample: the addresses of its
 *        unresolved keys added to their classes in @p c (*@p flips counts the classes
 *        that broke; *@p broken, of *@p cap_broken, grows per class), the classes'
 *        indices appended to @p cls.
 * @param ids  scratch as hist_builder__step()'s
 * @return 1 when one of its classes is broken, else 0; -ENOMEM.
 */
int hist_builder__live_keys(const struct hist_builder *b, const struct hists *h,
			    const struct hists_print_opts *o, const struct hist_group *g,
			    uint32_t *ids, struct classes *c, struct u32_list *cls,
			    bool **broken, size_t *cap_broken, uint32_t *flips);

/** @brief With a total order: the inlined functions' entries found from two map
 *  objects or more become their base function's (as perf's hists__findnew_entry()
 *  makes them; b->renamed then: the collapse merges).  Cannot fail. */
void hist_builder__inline_rename(struct hist_builder *b);

/** @brief perf's sample-by-sample entry creation, replayed from h's steps (stable
 *  groups at once; with a total order, group by group).  @return 0, -ENOMEM, or
 *  -EINVAL where steps were dropped (hists__drop_replayed()). */
int hist_builder__run(struct hist_builder *b, struct hists *h,
		      const struct hists_print_opts *o);

/* hist-merge.c */

/**
 * @brief hist_builder__run() where every group is counted at once and the keys'
 *        comparison is a total order (hist__sortable()), on the workers of o->wq: the groups cut into one
 *        contiguous range per thread, each range's entries made by a builder of its
 *        own, the builders merged once (entries in the order one builder makes
 *        them, the same values and first samples), then perf's input tree made from
 *        the entries sorted (the total order's tree has that order whatever the
 *        insertions).
 * @param max_depth  the deepest chain of h's groups
 * @return 0, -ENOMEM, or 1 where it did not run (no workers, one group, entries
 *         made already): the caller runs the groups itself.
 * Thread safety: the histogram's thread; the workers read h, o and the chains.
 */
int hist_builder__run_parallel(struct hist_builder *b, struct hists *h,
			       const struct hists_print_opts *o, uint32_t max_depth);

/** A comparison of the elements at two positions of a sequence (hist__psort()). */
typedef int hist_pos_cmp_fn(const void *ctx, uint32_t a, uint32_t b);

/** The most runs hist__psort() sorts at once. */
#define HIST_PSORT_RUNS 64

/**
 * @brief The positions 0 .. n-1 of a sequence sorted by @p cmp, stably (equal
 *        elements keep their positions' order): runs sorted on the workers of @p wq
 *        (one a thread; NULL or no workers: one run), then merged here.
 * @param out  receives the positions (n)
 * @param tmp  scratch for n
 * @return 0 or -ENOMEM.
 * Thread safety: @p cmp runs on several threads at once.
 */
int hist__psort(struct workqueue *wq, size_t n, hist_pos_cmp_fn *cmp, const void *ctx,
		uint32_t *out, uint32_t *tmp);

/** @brief The hash an entry's key is found by in a builder's table (the keys the
 *  sort list needs).  Thread safety: pure. */
uint64_t hist_builder__entry_hash(const struct sort_list *sl, const struct hist_entry *e);

/* hist-order.c */

/** @brief perf's collapse: the entries, in the input tree's order, into a new tree
 *  (entries found equal merged into the one found); the resulting order written to
 *  @p order (b->nr entries' room; @p stack: scratch as large).  @return its length.
 *  Cannot fail. */
size_t hist_builder__collapse(struct hist_builder *b, uint32_t *order, uint32_t *stack);

#endif
