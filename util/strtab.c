#include "util/strtab.h"

#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp, strdup */

#include "util/hashtab.h"
#include "banned.h"

uint64_t str__hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static uint64_t slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return str__hash(*(char *const *)slot);
}

/* Room for one more string (util/hashtab.h). */
static int grow(struct strtab *t)
{
	return hashtab__reserve(&t->v, &t->cap, t->nr, sizeof(*t->v), 256, slot_hash, NULL);
}

/* The slot of s: its string, or the empty slot where it goes. */
static size_t slot(const struct strtab *t, const char *s)
{
	size_t i = hashtab__first(str__hash(s), t->cap);

	while (t->v[i] && strcmp(t->v[i], s))
		i = hashtab__next(i, t->cap);
	return i;
}

const char *strtab__intern(struct strtab *t, const char *s)
{
	size_t i;

	if (grow(t))
		return NULL;
	i = slot(t, s);
	if (!t->v[i]) {
		t->v[i] = strdup(s);
		if (!t->v[i])
			return NULL;
		t->nr++;
	}
	return t->v[i];
}

const char *strtab__intern_owned(struct strtab *t, char *s)
{
	size_t i;

	if (grow(t)) {
		free(s);
		return NULL;
	}
	i = slot(t, s);
	if (t->v[i]) {
		free(s);
	} else {
		t->v[i] = s;
		t->nr++;
	}
	return t->v[i];
}

void strtab__exit(struct strtab *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->v[i]);
	free(t->v);
	t->v = NULL;
	t->cap = t->nr = 0;
}
