#include "util/hashtab.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memcpy */

#include "banned.h"

static bool used(const unsigned char *slot, size_t elem)
{
	for (size_t k = 0; k < elem; k++)
		if (slot[k])
			return true;
	return false;
}

int hashtab__reserve_slow(void *pslots, size_t *cap, size_t nr, size_t elem,
			  size_t first, hashtab_hash_fn *hash, const void *ctx)
{
	unsigned char *old, *v;
	size_t n = *cap ? *cap : first;

	if ((nr + 1) * 2 <= *cap)
		return 0;
	while ((nr + 1) * 2 > n) {
		if (n > SIZE_MAX / 2 / elem)
			return -ENOMEM;
		n *= 2;
	}
	v = calloc(n, elem);
	if (!v)
		return -ENOMEM;
	memcpy(&old, pslots, sizeof(old));
	for (size_t k = 0; k < *cap; k++) {
		const unsigned char *s = old + k * elem;
		size_t i;

		if (!used(s, elem))
			continue;
		i = hashtab__first(hash(ctx, s), n);
		while (used(v + i * elem, elem))
			i = hashtab__next(i, n);
		memcpy(v + i * elem, s, elem);
	}
	free(old);
	memcpy(pslots, &v, sizeof(v));
	*cap = n;
	return 0;
}
