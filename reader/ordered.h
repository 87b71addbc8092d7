#ifndef DIRREPORT_READER_ORDERED_H
#define DIRREPORT_READER_ORDERED_H
/*
 * ordered - perf 6.1's ordered-events queue, as a model that gives the same delivery
 * order: records are queued by (timestamp, arrival); FINISHED_ROUND releases what is
 * older than the round limit; the end of input releases everything.
 *
 * Format: docs/perf-data-format.md §7.2. Invariants: `limit` only changes at a round flush (to max_ts);
 * max_ts is set by every append at the tail (time >= everything queued) and by every
 * insert into an empty queue (it can go down then); ties keep arrival order.
 *
 * Thread safety: one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct record_ref;

struct oe_item {
	uint64_t time;
	uint64_t seq;			/* arrival number: ties in time keep this order */
	const struct record_ref *ref;	/* borrowed */
};

/* A run: items[lo, hi) of the queue, in (time, seq) order (queued in that order). */
struct oe_run {
	size_t lo, hi;
};

/*
 * The queue as sorted runs: a record whose time is not older than the last one
 * queued extends the newest run while that run still holds records, any other starts
 * a run of its own.  A flush merges
 * the runs through a min-heap of their first records.  perf writes each CPU's ring
 * buffer in turn, so a round holds a few runs per buffer: the merge reads its records
 * in the order they were queued, and its heap is small (a binary heap of every
 * record, before, took a cache miss a level on each pop).  Any order of times is
 * still right: at worst every record is a run.
 */
struct ordered_events {
	struct oe_item *items;	/* owned: the runs' records; those below a run's lo
				 * were emitted (dead until the next compaction) */
	size_t nr, cap;		/* items used, allocated */
	struct oe_run *runs;	/* owned: in the order they were started (so in
				 * items' order: the newest ends at items[nr - 1]);
				 * emitted ones have lo == hi */
	size_t nr_runs, cap_runs;
	size_t *heap;		/* owned: min-heap of the live runs' indexes in runs,
				 * on the (time, seq) of their first record */
	size_t nr_heap, cap_heap;
	size_t live;		/* records queued, not emitted */
	uint64_t max_ts;	/* perf's max_timestamp */
	uint64_t max_queued;	/* largest time in the queue (valid when live > 0) */
	uint64_t limit;		/* perf's next_flush */
	uint64_t seq;
};

typedef int (*oe_emit_fn)(void *ctx, const struct record_ref *ref);

void ordered_events__init(struct ordered_events *oe);
void ordered_events__exit(struct ordered_events *oe);

/**
 * @brief Queue a timestamped record (time must be neither 0 nor all ones: those are
 *        delivered immediately by the caller, as perf does).
 * @return 0 or -ENOMEM.
 */
int ordered_events__queue(struct ordered_events *oe, uint64_t time,
			  const struct record_ref *ref);

/**
 * @brief FINISHED_ROUND: if anything is queued, emit the records with time <= limit in
 *        order, then set limit = max_ts.
 * @return 0 or the first non-zero value of emit.
 */
int ordered_events__flush_round(struct ordered_events *oe, oe_emit_fn emit, void *ctx);

/** @brief End of input: emit everything in order. */
int ordered_events__flush_all(struct ordered_events *oe, oe_emit_fn emit, void *ctx);

#endif
