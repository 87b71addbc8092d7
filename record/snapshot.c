#include "record/snapshot.h"

#include <errno.h>
#include <stdlib.h>		/* calloc, malloc, free */
#include <string.h>		/* memcpy */

#include "format/record.h"	/* record_header__get */

#include "banned.h"

#define SNAPSHOT_RECORD_MAX 65535u

int snapshot__init(struct snapshot *s, size_t cap)
{
	*s = (struct snapshot){ 0 };
	if (cap < RECORD_HEADER_SIZE)
		return -EINVAL;
	s->buf = malloc(cap);
	s->bounce = malloc(SNAPSHOT_RECORD_MAX);
	if (!s->buf || !s->bounce) {
		snapshot__exit(s);
		return -ENOMEM;
	}
	s->cap = cap;
	return 0;
}

void snapshot__exit(struct snapshot *s)
{
	free(s->buf);
	free(s->bounce);
	s->buf = s->bounce = NULL;
	s->cap = s->head = s->len = s->nr = 0;
}

/* n bytes at circle offset off into dst. */
static void circle_get(const struct snapshot *s, size_t off, void *dst, size_t n)
{
	size_t first = s->cap - off < n ? s->cap - off : n;

	memcpy(dst, s->buf + off, first);
	memcpy((unsigned char *)dst + first, s->buf, n - first);
}

static void circle_put(struct snapshot *s, size_t off, const void *src, size_t n)
{
	size_t first = s->cap - off < n ? s->cap - off : n;

	memcpy(s->buf + off, src, first);
	memcpy(s->buf, (const unsigned char *)src + first, n - first);
}

/* The size of the oldest kept record. */
static size_t oldest_size(const struct snapshot *s)
{
	unsigned char b[RECORD_HEADER_SIZE];
	struct record_header h;

	circle_get(s, s->head, b, sizeof(b));
	record_header__get(&h, b);
	return h.size;
}

static void let_oldest_go(struct snapshot *s, size_t size)
{
	s->head = (s->head + size) % s->cap;
	s->len -= size;
	s->nr--;
}

int snapshot__add(struct snapshot *s, const void *rec, size_t size)
{
	struct record_header h;

	if (size < RECORD_HEADER_SIZE)
		return -EINVAL;
	record_header__get(&h, rec);
	if (h.size != size)
		return -EINVAL;
	if (size > s->cap) {
		s->dropped_records++;
		s->dropped_bytes += size;
		return 0;
	}
	while (s->cap - s->len < size) {
		size_t old = oldest_size(s);

		let_oldest_go(s, old);
		s->dropped_records++;
		s->dropped_bytes += old;
	}
	circle_put(s, (s->head + s->len) % s->cap, rec, size);
	s->len += size;
	s->nr++;
	return 0;
}

int snapshot__drain(struct snapshot *s, snapshot_record_fn fn, void *ctx)
{
	while (s->len) {
		size_t size = oldest_size(s);
		const unsigned char *rec = s->buf + s->head;
		int err;

		if (s->head + size > s->cap) {
			circle_get(s, s->head, s->bounce, size);
			rec = s->bounce;
		}
		let_oldest_go(s, size);
		err = fn(ctx, rec, size);
		if (err)
			return err;
	}
	s->head = 0;
	return 0;
}
