#ifndef DIRREPORT_REPORT_HIST_INTERNAL_H
#define DIRREPORT_REPORT_HIST_INTERNAL_H
/*
 * hist-internal - what report/hist.c (the entry builder) hands report/hist-print.c
 * (the printer), and nothing else includes: perf's entry trees replayed for one
 * event (struct hist_builder) and the group view's histograms paired
 * (struct hist_group_view).  Not part of libreport's interface.
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

#include "util/rbtree.h"	/* struct rbtree (a builder holds its tree) */

struct callchain_item;
struct hist_entry;
struct hist_occurrence;
struct hists;
struct hists_print_opts;
struct sort_ctx;
struct sort_list;

/*
 * perf's input tree of entries, then its collapsed tree.  Keys whose comparisons are
 * consistent are found by hash, as a tree search always finds them; others are
 * searched in the replayed tree like perf does, which may miss an equal entry and
 * make a second one.  The printer reads v, in, nr_non_filtered_samples and
 * non_filtered_period; the rest is hist.c's.
 */
struct hist_builder {
	const struct sort_list *sl;
	struct hist_entry *v;		/* owned: the entries */
	size_t nr, cap, v_mapped;	/* (v_mapped, occ_mapped: util/hugemem.h) */
	struct hashtab_slot *hash;	/* hashable entries */
	size_t hash_cap, nr_hashed, hash_mapped;
	struct rbtree in;		/* perf's entries_in, then its collapsed tree */
	/* the entries' keys beside the tree while entries_in is searched, where
	 * sort_list__keyed() (hist.c: builder_tree_findnew()); keyed_known: keyed
	 * says whether (found at the first search; false from the collapse on, whose
	 * comms are the overridden ones) */
	struct hist_key *keys;
	size_t cap_keys, keys_mapped;
	bool keyed, keyed_known;
	uint32_t *alias;		/* after collapse: the entry each one merged into */
	bool renamed;			/* an entry's key changed after it was made
					 * (inline_rename()): the collapse merges */
	struct hist_occurrence *occ;	/* where groups' samples go (hist.c) */
	size_t nr_occ, cap_occ, occ_mapped;
	struct hashtab_slot *occ_hash;	/* occurrences of unstable groups */
	size_t occ_hash_cap, nr_occ_hashed, occ_hash_mapped;
	const char *(*cgroup_path)(const void *ctx, uint64_t id);	/* see */
	const void *cgroup_ctx;		/* hists_print_opts */
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
	/* private: hist.c's while it pairs */
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

#endif
