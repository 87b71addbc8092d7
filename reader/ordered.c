#include "reader/ordered.h"

#include <errno.h>
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* memset */

#include "util/array.h"
#include "banned.h"

void ordered_events__init(struct ordered_events *oe)
{
	memset(oe, 0, sizeof(*oe));
}

void ordered_events__exit(struct ordered_events *oe)
{
	free(oe->heap);
	memset(oe, 0, sizeof(*oe));
}

static bool less(const struct oe_item *a, const struct oe_item *b)
{
	return a->time < b->time || (a->time == b->time && a->seq < b->seq);
}

int ordered_events__queue(struct ordered_events *oe, uint64_t time,
			  const struct record_ref *ref)
{
	struct oe_item it = { .time = time, .seq = oe->seq++, .ref = ref };
	size_t i;

	if (array__grow(&oe->heap, &oe->cap, oe->nr + 1, sizeof(*oe->heap), 1024))
		return -ENOMEM;
	/* perf appends at the tail when time >= the last queued time, and always sets
	 * max_timestamp then; an insert into an empty queue sets it too. */
	if (oe->nr == 0 || time >= oe->max_queued) {
		oe->max_ts = time;
		oe->max_queued = time;
	}
	i = oe->nr++;
	while (i > 0) {
		size_t parent = (i - 1) / 2;

		if (!less(&it, &oe->heap[parent]))
			break;
		oe->heap[i] = oe->heap[parent];
		i = parent;
	}
	oe->heap[i] = it;
	return 0;
}

static struct oe_item pop(struct ordered_events *oe)
{
	struct oe_item top = oe->heap[0], last = oe->heap[--oe->nr];
	size_t i = 0, n = oe->nr;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= n)
			break;
		if (c + 1 < n && less(&oe->heap[c + 1], &oe->heap[c]))
			c++;
		if (!less(&oe->heap[c], &last))
			break;
		oe->heap[i] = oe->heap[c];
		i = c;
	}
	if (n)
		oe->heap[i] = last;
	return top;
}

static int flush_upto(struct ordered_events *oe, uint64_t limit, oe_emit_fn emit, void *ctx)
{
	while (oe->nr && oe->heap[0].time <= limit) {
		struct oe_item it = pop(oe);
		int err = emit(ctx, it.ref);

		if (err)
			return err;
	}
	return 0;
}

int ordered_events__flush_round(struct ordered_events *oe, oe_emit_fn emit, void *ctx)
{
	int err;

	if (!oe->nr)
		return 0;
	err = flush_upto(oe, oe->limit, emit, ctx);
	oe->limit = oe->max_ts;
	return err;
}

int ordered_events__flush_all(struct ordered_events *oe, oe_emit_fn emit, void *ctx)
{
	return flush_upto(oe, UINT64_MAX, emit, ctx);
}
