#ifndef DIRREPORT_REPORT_HIST_H
#define DIRREPORT_REPORT_HIST_H
/*
 * hist - histogram of samples for one event, with perf 6.1's children (cumulative)
 * accounting and call graphs.  The columns and keys come from a struct sort_list
 * (report/sort.h).  Its `--stdio` rendering is report/hist-print.h.
 *
 * Samples are counted into groups: samples with the same key attributes (those the
 * sort keys use, plus comm, self dso/symbol/address, level, cpumode) and the same
 * callchain (a node of struct callchains) share one group.  Entries are made from
 * the groups when the histogram is printed, in the groups' creation order, which is
 * the order perf creates entries in: an entry is created by the first sample that
 * touches it, and every sample of a group touches the same entries.  An entry's
 * attributes that are not keys are its first sample's, as in perf.
 *
 * Children mode (perf's default with callchains): each sample adds its period to its
 * own entry (Self and Children) and, once per entry, to the entry of every frame of
 * its callchain (Children).  A frame's entry has the frame's dso and symbol, or its
 * raw address when unresolved (the sample's own entry uses the map-relative one).
 *
 * Output order: perf inserts entries into red-black trees whose comparisons are not
 * always transitive (util/rbtree.h); the printer (report/hist-print.h) replays its
 * three trees (input, collapsed, output), which also decides which entries perf
 * merges.
 *
 * Thread safety: one hists per thread.
 */
#include "util/hashtab.h"
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/sort.h"	/* struct hist_mem */

struct callchains;
struct callchain_param;
struct dso;
struct sort_list;
struct symbol;
struct thread;
struct workqueue;

/** One sample, resolved. */
struct hist_sample {
	const char *comm;		/* interned, borrowed */
	struct dso *dso;		/* borrowed; NULL = [unknown] */
	const struct symbol *sym;	/* borrowed; NULL = unresolved */
	const struct symbol *parent;	/* borrowed: the chain's -p match (NULL:
					 * none or no parent key) */
	uint64_t addr;			/* map_ip address (unresolved: the key) */
	uint64_t sym_unmapped_start;	/* see addr_location */
	uint64_t map_start, map_end, map_pgoff;	/* the sample's map (0 0 0: none) */
	uint64_t time;			/* ns (all ones: not recorded) */
	uint64_t weight, ins_lat, p_stage_cyc;	/* WEIGHT / WEIGHT_STRUCT (0: none) */
	uint64_t code_page_size;	/* CODE_PAGE_SIZE, bytes (0: none) */
	const char *trace;		/* trace key: the Trace output text, interned
					 * (resolve/trace-sort.h); NULL otherwise */
	uint64_t cgroup;		/* CGROUP id (0: none) */
	uint64_t cgroup_dev, cgroup_ino;	/* the thread's cgroup namespace */
	const struct hist_mem *mem;	/* --mem-mode: the data access (sort.h),
					 * borrowed, copied for a group's first
					 * sample; NULL: none (zeros) */
	const struct hist_branch *branch;	/* branch view (report/branch.h): the
					 * branch this sample counts (dso, sym and
					 * addr are then its target's); borrowed,
					 * copied for a group's first sample.  NULL
					 * otherwise */
	int32_t cpu, socket;		/* -1: not recorded / unknown */
	char level;			/* 'k', '.', 'H' */
	uint8_t cpumode;		/* header.misc & 7 */
	const struct thread *thread;	/* borrowed: perf's entries remember the first
					 * sample's thread */
	uint32_t chain;			/* callchains node of the sample's chain, in
					 * cursor order (CALLCHAIN_ROOT: none) */
	const uint64_t *ips;		/* the chain's addresses (nr_ips, cursor order);
					 * borrowed, copied for a group's first sample */
	uint32_t nr_ips;
	uint64_t period;		/* event count */
	uint64_t seq;			/* the sample's delivery position, where the
					 * samples are counted into several histograms
					 * merged after (hists__merge()); else 0 */
	uint8_t filtered;		/* perf's HIST_FILTER__* bits: hidden by a
					 * filter (--comms, --pid, --dsos, -S ...) */
};

struct hist_group;
struct hist_step;

struct hists {
	const struct sort_list *sl;	/* borrowed: keys and columns */
	struct hist_group *groups;	/* owned, in creation order */
	size_t nr_groups, cap_groups, groups_mapped;	/* (util/hugemem.h) */
	struct hashtab_slot *hash;	/* owned: the groups (util/hashtab.h) */
	size_t hash_cap, hash_mapped;
	uint64_t *ips;			/* owned: the groups' first-sample addresses */
	size_t nr_ips, cap_ips, ips_mapped;
	struct hist_step *steps;	/* owned: samples in order (see hist.c) */
	struct hist_branch *branches;	/* owned: the groups' branches (branch view) */
	size_t nr_branches, cap_branches;
	struct hist_mem **mems;		/* owned: the groups' data accesses
					 * (--mem-mode), in blocks of HIST_MEM_BLOCK
					 * (their addresses stay: groups and entries
					 * point into them) */
	size_t nr_mems, cap_mem_blocks;
	size_t nr_steps, cap_steps, steps_mapped;	/* nr_steps: steps added, one a
					 * sample (two for a period of 2^32 or more) */
	size_t steps_base;		/* steps dropped (replayed live:
					 * hists__drop_replayed()); step k is
					 * steps[k - steps_base] */
	struct callchains *chains;	/* borrowed: the chains samples refer to */
	uint64_t total_period;		/* event count */
	uint64_t nr_samples;
	bool has_callchains;		/* the event records callchains */
	struct hist_live *live;		/* owned: perf's entry trees replayed while
					 * samples are added (hists__live_start());
					 * NULL: replayed when printed */
};

/** How hists__fprintf() (report/hist-print.h) prints; the entries are made with
 *  chains, cc, children, filter_relative and the cgroup names too. */
struct hists_print_opts {
	bool children;			/* Children and Self columns (perf's cumulate) */
	const struct callchain_param *cc; /* call graph form; NULL or mode NONE: none */
	struct callchains *chains;	/* the chains samples refer to (may be NULL
					 * when no sample has one) */
	float percent_limit;		/* entries under it (percent of the total,
					 * Children in children mode) are not printed */
	uint64_t time_quantum;		/* ns: the time key's resolution */
	bool filter_relative;		/* --percentage relative: percentages and the
					 * header count only unfiltered entries */
	bool quiet;			/* -q: no event and column headers */
	const char *time_str;		/* --time: printed after the event name */
	/* the cgroup key's names: the path of a cgroup id (CGROUP records), or NULL */
	const char *(*cgroup_path)(const void *ctx, uint64_t id);
	const void *cgroup_ctx;
	bool leads_group;		/* the event leads a group of several (perf's
					 * nr_members > 1): "of events" in its header,
					 * also without the group view */
	const char *mem_sort_order;	/* --mem-mode: the header has "# Total weight :"
					 * (the total) and "# Sort order   : " this,
					 * not the event count; NULL otherwise */
	bool hierarchy;			/* --hierarchy: entries nested by sort key
					 * (report/hierarchy.h), call graphs under
					 * the last level */
	int group_sort_idx;		/* --group-sort-idx: the group view's order
					 * (struct sort_ctx); 0: perf's default */
	struct workqueue *wq;		/* entries are formatted on its workers (the
					 * text written in order); NULL: all on the
					 * calling thread */
};

/**
 * @brief An empty histogram keyed as @p sl says, of samples whose chains are in
 *        @p chains (may be NULL).
 * Ownership: both are borrowed and must outlive the histogram.
 * Thread safety: the histogram's thread.  Format: none.
 */
void hists__init(struct hists *h, const struct sort_list *sl, struct callchains *chains);

/** @brief Free what the histogram owns (a second call is harmless). */
void hists__exit(struct hists *h);

/**
 * @brief Replay perf's entry creation while samples are added instead of when the
 *        histogram is printed: hists__live_replay() replays the samples added
 *        since its last call, and hists__fprintf() with the same @p o (children,
 *        call graph mode and chains) takes the entries made so far and replays only
 *        the rest.  Each sample is replayed as perf adds it (no group found by
 *        hash), which is exact whatever the keys; printed otherwise (another @p o,
 *        the group view) the replay is dropped and made again there.
 * @param o  the print options hists__fprintf() will get (copied; the cgroup names
 *           are not: keys that need them, and other keys whose text is computed
 *           when compared, must not be replayed live)
 * @return 0 or -ENOMEM.
 * Thread safety: the histogram's thread (the one that adds samples).
 */
int hists__live_start(struct hists *h, const struct hists_print_opts *o);

/**
 * @brief Replay the samples added since the last call up to step @p upto (the
 *        histogram's nr_steps as it was after the last sample to replay was added;
 *        see hists__live_start(); nothing without it).
 * @return 0 or -ENOMEM.
 * Thread safety: the histogram's thread, or another one while the histogram's
 * thread adds samples for which hists__reserve() made room (the replay reads the
 * samples before @p upto, and the chains of @p h's callchains store, which must
 * have room reserved too: callchains__reserve()); one replay at a time.
 */
int hists__live_replay(struct hists *h, size_t upto);

/**
 * @brief Make room for @p nr_samples more samples whose chains hold @p nr_ips
 *        addresses in all: adding them moves none of the arrays hists__live_replay()
 *        reads, so it may run on another thread meanwhile.
 * @return 0 or -ENOMEM.
 * Thread safety: the histogram's thread, while no replay runs.
 */
int hists__reserve(struct hists *h, size_t nr_samples, size_t nr_ips);

/**
 * @brief Make room for the steps alone of @p nr_samples more samples (8 bytes a
 *        sample, 16 for a period of 2^32 or more; hists__reserve() makes room for
 *        their groups and chains too): a replay that runs many batches behind
 *        needs that many steps kept, but only a batch's worth of new groups and
 *        chains at a time.
 * @return 0 or -ENOMEM.
 * Thread safety: as hists__reserve().
 */
int hists__reserve_steps(struct hists *h, size_t nr_samples);

/**
 * @brief Whether the room hists__reserve() made holds @p nr_samples more samples
 *        whose chains hold @p nr_ips addresses in all (adding them moves none of
 *        the arrays a replay reads).
 * Thread safety: the histogram's thread (a replay may run meanwhile: it reads
 *        none of what this does).
 */
bool hists__has_room(const struct hists *h, size_t nr_samples, size_t nr_ips);

/**
 * @brief Let go of the steps (8 bytes a sample) of the samples the live replay has
 *        replayed, so that a histogram's memory grows with its entries and keys, not
 *        with the length of the recording (a 60 MB `perf record -a -g` file: 4 MB
 *        of steps).  The caller promises that hists__fprintf() will take the live
 *        replay: it is printed with the hists_print_opts given to
 *        hists__live_start() (not in a group view), else that print fails with
 *        -EINVAL (the samples can no longer be replayed from the start).  Nothing
 *        without a live replay.
 * Thread safety: the histogram's thread, while no replay runs (as
 *        hists__reserve()).
 */
void hists__drop_replayed(struct hists *h);

/**
 * @brief Add the groups of the @p n histograms @p from, counted from parts of one
 *        sequence of samples (each sample in one of them, hist_sample.seq its
 *        position), to @p h, in the order of their first samples: @p h gets the
 *        groups, in the order and with the first samples, that counting every
 *        sample into it in order would have given.  Only where each group's samples
 *        are counted at once (a total order without the lazily computed keys:
 *        srcline, srcfile, trace), as no steps are kept.
 * @param chain_maps  chain_maps[k][node]: the node of @p h's chains that node of
 *                    from[k]'s chains became (callchains__merge()); NULL: the same
 *                    store
 * @param wq  the room made for them is faulted in on its workers (NULL: none)
 * @return 0, -EINVAL (steps are kept), or -ENOMEM.
 * Thread safety: @p h's thread; @p from are only read (their chain addresses, branches
 *        and data accesses are copied).
 */
int hists__merge(struct hists *h, struct hists *const *from, size_t n,
		 uint32_t *const *chain_maps, struct workqueue *wq);

/** @brief Whether hists__merge() takes histograms keyed as @p h is (each group's
 *  samples counted at once).  Thread safety: read-only. */
bool hists__mergeable(const struct hists *h);

/**
 * @brief Account one sample (in perf's delivery order: the order decides which entry
 *        perf's searches find).
 * @param s  copied, and its chain addresses with it
 * @return 0 or -ENOMEM.
 * Thread safety: the histogram's thread.  Format: PERF_RECORD_SAMPLE.
 */
int hists__add(struct hists *h, const struct hist_sample *s);

#endif
