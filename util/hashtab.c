#include "util/hashtab.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memcpy */

#include "util/hugemem.h"
#include "banned.h"

static bool used(const unsigned char *slot, size_t elem)
{
	for (size_t k = 0; k < elem; k++)
		if (slot[k])
			return true;
	return false;
}

/* The table's slots moved to v, n slots (zeroed). */
static void rehash(unsigned char *v, size_t n, const unsigned char *old, size_t cap,
		   size_t elem, hashtab_hash_fn *hash, const void *ctx)
{
	for (size_t k = 0; k < cap; k++) {
		const unsigned char *s = old + k * elem;
		size_t i;

		if (!used(s, elem))
			continue;
		i = hashtab__first(hash(ctx, s), n);
		while (used(v + i * elem, elem))
			i = hashtab__next(i, n);
		memcpy(v + i * elem, s, elem);
	}
}

/* The capacity for nr + 1 used slots: *n, or -ENOMEM. */
static int next_cap(size_t cap, size_t nr, size_t elem, size_t first, size_t *n)
{
	*n = cap ? cap : first;
	while ((nr + 1) * 2 > *n) {
		if (*n > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		*n *= 2;
	}
	return 0;
}

/* The table grown for nr + 1 used slots; mapped: NULL for a malloc()ed table, else
 * its mapped bytes (util/hugemem.h), updated. */
static int reserve(void *pslots, size_t *cap, size_t *mapped, size_t nr, size_t elem,
		   size_t first, hashtab_hash_fn *hash, const void *ctx)
{
	unsigned char *old, *v;
	size_t n, vmapped = 0;

	if ((nr + 1) * 2 <= *cap)
		return 0;
	if (next_cap(*cap, nr, elem, first, &n))
		return -ENOMEM;
	v = mapped ? hugemem__alloc_grown(n * elem, &vmapped) : calloc(n, elem);
	if (!v)
		return -ENOMEM;
	if (!mapped)	/* the rehash's probes read it first */
		hugemem__touch_zeroed(v, n * elem);
	memcpy(&old, pslots, sizeof(old));
	rehash(v, n, old, *cap, elem, hash, ctx);
	if (mapped) {
		hugemem__free(old, *mapped);
		*mapped = vmapped;
	} else {
		free(old);
	}
	memcpy(pslots, &v, sizeof(v));
	*cap = n;
	return 0;
}

int hashtab__reserve_slow(void *pslots, size_t *cap, size_t nr, size_t elem,
			  size_t first, hashtab_hash_fn *hash, const void *ctx)
{
	return reserve(pslots, cap, NULL, nr, elem, first, hash, ctx);
}

int hashtab__reserve_mapped_slow(void *pslots, size_t *cap, size_t *mapped, size_t nr,
				 size_t elem, size_t first, hashtab_hash_fn *hash,
				 const void *ctx)
{
	return reserve(pslots, cap, mapped, nr, elem, first, hash, ctx);
}

uint64_t hashtab__kept_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ((const struct hashtab_slot *)slot)->hash;
}
