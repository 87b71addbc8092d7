#ifndef DIRREPORT_REPORT_HIERARCHY_H
#define DIRREPORT_REPORT_HIERARCHY_H
/*
 * hierarchy - perf 6.1's `perf report --stdio --hierarchy`: the entries of one event
 * nested by sort key, one level per key (comm, then dso, then symbol with the default
 * keys), each node with the summed counts of the entries below it.
 *
 * Observed perf behaviour reproduced here:
 *   - the header: "#", the indent of the deepest level ((levels - 1) * 3 spaces),
 *     the value columns, then the key headers joined by " / "; the dots line has as
 *     many dots under the keys as the widest of that text and every level's
 *     depth * 3 + key width;
 *   - a node's line: depth * 3 spaces, the value columns, two spaces and
 *     (levels - 1) * 3 spaces, then the key's text left-trimmed (comm and dso keep
 *     their padding, symbols have none);
 *   - nodes are made as perf's hierarchy collapse makes them: every entry, in the
 *     collapsed order, is looked up level by level in its parent's red-black tree
 *     with that level's key comparison (util/rbtree.h replays the trees); a node
 *     has its first entry's attributes;
 *   - siblings, in their tree's order, go into an output tree ordered by the whole
 *     sort order (value columns, then every key, with the nodes' attributes: ties
 *     of one level's key are broken by the keys of other levels; full ties go
 *     right); the texts computed on the way (srcline, trace) widen the columns;
 *   - filters (--comms, --dsos, -S, ...) hide the nodes with no unfiltered entry
 *     below them; the nodes shown count every entry below them, filtered or not;
 *   - the group view: each node also sums its entries' pairs (the members'
 *     entries of the same key), printed after the leader's value in every value
 *     column, as perf's group view does for entries;
 *   - a printed node of the last level is followed by its call graph (p->graph);
 *   - --percent-limit hides nodes under the limit (percent of the total); a printed
 *     node above the last level whose children are all hidden gets one line
 *     "no entry >= P%" at its children's indent; hidden top-level nodes leave nothing.
 *
 * Thread safety: pure but for @p out and the entries' lazily computed texts.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct hist_entry;
struct sort_list;

/** What hierarchy__fprintf() prints from. */
struct hierarchy_print {
	const struct sort_list *sl;	/* keys (the levels) and value columns */
	uint64_t total;			/* percent base (event count, the event's
					 * unit) */
	bool relative;			/* --percentage relative: the percent base is
					 * the shown first-level nodes' period (whose
					 * counts include filtered entries, as perf's) */
	uint32_t nr_members;		/* the group view: events per line (0 or 1:
					 * none); the entries' pairs are then the
					 * members' entries of the same key (NULL:
					 * none) and a node shows each member's sums */
	const uint64_t *member_totals;	/* nr_members - 1 percent bases (relative:
					 * each member's shown nodes' sum instead) */
	int group_sort_idx;		/* the group view: --group-sort-idx (struct
					 * sort_ctx), siblings' order */
	float percent_limit;		/* nodes under it (percent, the leader's
					 * value) are not printed */
	int quiet;			/* -q: no column header lines */
	/* called once the nodes are made, before anything else is printed: the shown
	 * first-level nodes' period (in the group view the members' too) and samples
	 * (perf's non-filtered stats, for the event header); NULL: none */
	void (*event_header)(void *ctx, uint64_t period, uint64_t samples, FILE *out);
	/* called after each printed node of the last level (its call graph): 0 or a
	 * negative error, which stops the printing; NULL: none */
	int (*graph)(void *ctx, const struct hist_entry *leaf, FILE *out);
	void *ctx;
};

/**
 * @brief Print the column header lines (unless quiet) and the entries as a hierarchy.
 * @param p  how to print; borrowed
 * @param e  n entries (perf's collapsed entries: distinct by all keys) in perf's
 *           collapsed order, filtered ones included (see above).  Borrowed; their
 *           missing srcline / srcfile / trace texts may be computed.
 * @param out  receives the event header (p->event_header), the column headers and
 *             one line per shown node
 * Column widths are the shown nodes' (perf's hists__calc_col_len() on each node).
 * @return 0, -ENOMEM or -EINVAL for a sort order without a key (nothing is printed
 *         then), or p->graph's error (output partial).
 * Thread safety: see above.  Format: none (perf report --stdio --hierarchy).
 */
int hierarchy__fprintf(const struct hierarchy_print *p, const struct hist_entry *const *e,
		       size_t n, FILE *out);

#endif
