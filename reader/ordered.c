#include "reader/ordered.h"

#include <errno.h>
#include <stdlib.h>	/* free */
#include <string.h>	/* memset, memmove */

#include "util/array.h"
#include "banned.h"

void ordered_events__init(struct ordered_events *oe)
{
	memset(oe, 0, sizeof(*oe));
}

void ordered_events__exit(struct ordered_events *oe)
{
	free(oe->items);
	free(oe->runs);
	free(oe->heap);
	memset(oe, 0, sizeof(*oe));
}

static bool less(const struct oe_item *a, const struct oe_item *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

/* The first record of the run at heap position i. */
static const struct oe_item *head_of(const struct ordered_events *oe, size_t i)
{
	return &oe->items[oe->runs[oe->heap[i]].lo];
}

static void sift_down(struct ordered_events *oe, size_t i)
{
	size_t n = oe->nr_heap, x = oe->heap[i];
	const struct oe_item *hx = &oe->items[oe->runs[x].lo];

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && less(head_of(oe, c + 1), head_of(oe, c)))
			c++;
		if (!less(head_of(oe, c), hx))
			break;
		oe->heap[i] = oe->heap[c];
		i = c;
	}
	oe->heap[i] = x;
}

static void sift_up(struct ordered_events *oe, size_t i)
{
	size_t x = oe->heap[i];
	const struct oe_item *hx = &oe->items[oe->runs[x].lo];

	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!less(hx, head_of(oe, parent)))
			break;
		oe->heap[i] = oe->heap[parent];
		i = parent;
	}
	oe->heap[i] = x;
}

/* Move the live runs' records to the front, in order (the runs keep their order and
 * the newest stays the tail), and make the heap again. */
static void compact(struct ordered_events *oe)
{
	size_t dst = 0, w = 0;

	for (size_t k = 0; k < oe->nr_runs; k++) {
		struct oe_run r = oe->runs[k];

		if (r.lo == r.hi)
			continue;
		memmove(&oe->items[dst], &oe->items[r.lo], (r.hi - r.lo) * sizeof(*oe->items));
		oe->runs[w].lo = dst;
		dst += r.hi - r.lo;
		oe->runs[w++].hi = dst;
	}
	oe->nr = dst;
	oe->nr_runs = w;
	oe->nr_heap = w;
	for (size_t k = 0; k < w; k++)
		oe->heap[k] = k;
	for (size_t k = w / 2; k-- > 0;)
		sift_down(oe, k);
}

int ordered_events__queue(struct ordered_events *oe, uint64_t time,
			  const struct record_ref *ref)
{
	struct oe_item it = { .time = time, .seq = oe->seq++, .ref = ref };
	/* the newest run, while it holds records, ends with the last one queued */
	const struct oe_run *tail = oe->nr_runs ? &oe->runs[oe->nr_runs - 1] : NULL;
	bool extend = tail && tail->lo < tail->hi && time >= oe->items[oe->nr - 1].time;

	/* perf appends at the tail when time >= the last queued time, and always sets
	 * max_timestamp then; an insert into an empty queue sets it too. */
	if (oe->live == 0 || time >= oe->max_queued) {
		oe->max_ts = time;
		oe->max_queued = time;
	}
	/* room: the emitted records' first, once they are as many as the live ones */
	if (oe->nr == oe->cap && oe->nr - oe->live >= oe->live)
		compact(oe);
	if (array__grow(&oe->items, &oe->cap, oe->nr + 1, sizeof(*oe->items), 1024))
		return -ENOMEM;
	if (!extend) {
		if (array__grow(&oe->runs, &oe->cap_runs, oe->nr_runs + 1, sizeof(*oe->runs), 64) ||
		    array__grow(&oe->heap, &oe->cap_heap, oe->nr_heap + 1, sizeof(*oe->heap), 64))
			return -ENOMEM;
		oe->runs[oe->nr_runs] = (struct oe_run){ oe->nr, oe->nr };
		oe->heap[oe->nr_heap] = oe->nr_runs++;
	}
	oe->items[oe->nr++] = it;
	oe->runs[oe->nr_runs - 1].hi++;
	oe->live++;
	if (!extend)
		sift_up(oe, oe->nr_heap++);
	return 0;
}

static int flush_upto(struct ordered_events *oe, uint64_t limit, oe_emit_fn emit, void *ctx)
{
	int err = 0;

	while (!err && oe->nr_heap && head_of(oe, 0)->time <= limit) {
		size_t k = oe->heap[0];
		struct oe_run *r = &oe->runs[k];
		const struct record_ref *ref = oe->items[r->lo++].ref;

		oe->live--;
		if (r->lo == r->hi)	/* the run is done: out of the heap */
			oe->heap[0] = oe->heap[--oe->nr_heap];
		if (oe->nr_heap)
			sift_down(oe, 0);
		err = emit(ctx, ref);
	}
	if (oe->live == 0)	/* empty: start again at the front */
		oe->nr = oe->nr_runs = oe->nr_heap = 0;
	return err;
}

int ordered_events__flush_round(struct ordered_events *oe, oe_emit_fn emit, void *ctx)
{
	int err;

	if (!oe->live)
		return 0;
	err = flush_upto(oe, oe->limit, emit, ctx);
	oe->limit = oe->max_ts;
	return err;
}

int ordered_events__flush_all(struct ordered_events *oe, oe_emit_fn emit, void *ctx)
{
	return flush_upto(oe, UINT64_MAX, emit, ctx);
}
