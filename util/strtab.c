#include "util/strtab.h"

#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp, strdup */

#include "banned.h"

uint64_t str__hash(const char *s)
{
	uint64_t h = 14695981039346656037ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

/* Room for one more string (the table stays at most half full). */
static int grow(struct strtab *t)
{
	size_t cap = t->cap ? t->cap * 2 : 256;
	char **v;

	if ((t->nr + 1) * 2 <= t->cap)
		return 0;
	v = calloc(cap, sizeof(*v));
	if (!v)
		return -1;
	for (size_t k = 0; k < t->cap; k++) {
		size_t i;

		if (!t->v[k])
			continue;
		i = str__hash(t->v[k]) & (cap - 1);
		while (v[i])
			i = (i + 1) & (cap - 1);
		v[i] = t->v[k];
	}
	free(t->v);
	t->v = v;
	t->cap = cap;
	return 0;
}

/* The slot of s: its string, or the empty slot where it goes. */
static size_t slot(const struct strtab *t, const char *s)
{
	size_t i = str__hash(s) & (t->cap - 1);

	while (t->v[i] && strcmp(t->v[i], s))
		i = (i + 1) & (t->cap - 1);
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
