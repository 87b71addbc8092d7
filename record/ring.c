#include "record/ring.h"

#include <errno.h>
#include <linux/perf_event.h>	/* struct perf_event_mmap_page */
#include <stdlib.h>		/* malloc, free */
#include <string.h>		/* memcpy */

#include "format/diag.h"
#include "format/record.h"	/* record_header__get */

#include "banned.h"

/* The largest record: perf_event_header.size is a u16. */
#define RING_RECORD_MAX 65535u

int ring__init(struct ring *r, void *page, uint64_t data_offset, uint64_t data_size,
	       const char *label)
{
	*r = (struct ring){ 0 };
	if (!page || data_size < RECORD_HEADER_SIZE ||
	    (data_size & (data_size - 1)))
		return -EINVAL;
	r->bounce = malloc(RING_RECORD_MAX);
	if (!r->bounce)
		return -ENOMEM;
	r->page = page;
	r->data = (unsigned char *)page + data_offset;
	r->size = data_size;
	r->tail = __atomic_load_n(&((struct perf_event_mmap_page *)page)->data_tail,
				  __ATOMIC_RELAXED);
	r->label = label;
	return 0;
}

void ring__exit(struct ring *r)
{
	free(r->bounce);
	r->bounce = NULL;
}

/* n bytes from ring position pos, whole: a pointer into the area, or into bounce
 * when they wrap around its end. */
static const unsigned char *ring_bytes(struct ring *r, uint64_t pos, size_t n)
{
	uint64_t off = pos & (r->size - 1);
	size_t first;

	if (off + n <= r->size)
		return r->data + off;
	first = (size_t)(r->size - off);
	memcpy(r->bounce, r->data + off, first);
	memcpy(r->bounce + first, r->data, n - first);
	return r->bounce;
}

int ring__read(struct ring *r, ring_record_fn fn, void *ctx, uint64_t *bytes,
	       struct diag *d)
{
	return ring__read_span(r, fn, ctx, NULL, NULL, bytes, d);
}

int ring__read_span(struct ring *r, ring_record_fn fn, void *ctx, ring_span_fn span,
		    void *span_ctx, uint64_t *bytes, struct diag *d)
{
	struct perf_event_mmap_page *pc = r->page;
	uint64_t head = __atomic_load_n(&pc->data_head, __ATOMIC_ACQUIRE);
	uint64_t start = r->tail, taken = 0;	/* bytes of the records fn took */
	int err = 0;

	if (bytes)
		*bytes = 0;
	if (head - r->tail > r->size)
		return diag__set(d, r->label, r->tail, -DIAG_BAD_RECORD,
				 "ring buffer head %#llx is not within %llu bytes after the "
				 "tail", (unsigned long long)head,
				 (unsigned long long)r->size);
	while (r->tail != head) {
		struct record_header h;
		const unsigned char *rec;

		record_header__get(&h, ring_bytes(r, r->tail, RECORD_HEADER_SIZE));
		if (h.size < RECORD_HEADER_SIZE || h.size > head - r->tail) {
			err = diag__set(d, r->label, r->tail, -DIAG_RECORD_SIZE,
					"ring buffer record of size %u (%llu bytes published)",
					h.size, (unsigned long long)(head - r->tail));
			break;
		}
		rec = ring_bytes(r, r->tail, h.size);
		r->tail += h.size;
		err = fn(ctx, rec, h.size);
		if (err)
			break;
		taken = r->tail - start;
	}
	if (span && taken) {
		uint64_t off = start & (r->size - 1);
		size_t n1 = (size_t)(taken < r->size - off ? taken : r->size - off);
		int e = span(span_ctx, r->data + off, n1, r->data, (size_t)taken - n1);

		if (!err)
			err = e;
	}
	__atomic_store_n(&pc->data_tail, r->tail, __ATOMIC_RELEASE);
	if (bytes)
		*bytes = r->tail - start;
	return err;
}
