#include "util/array.h"

#include <errno.h>
#include <stdint.h>	/* SIZE_MAX */
#include <stdlib.h>	/* realloc */
#include <string.h>	/* memcpy, memset */

#include "banned.h"

int array__next_cap(size_t cap, size_t need, size_t elem, size_t first, size_t limit,
		    size_t *out)
{
	size_t c = cap ? cap : (first ? first : 1);

	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (elem && c > limit / elem)
		return -ENOMEM;
	*out = c;
	return 0;
}

int array__grow_slow(void *pv, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t c;
	void *v, *p;

	if (need <= *cap)
		return 0;
	if (array__next_cap(*cap, need, elem, first, SIZE_MAX, &c))
		return -ENOMEM;
	memcpy(&v, pv, sizeof(v));
	p = realloc(v, c * elem);
	if (!p)
		return -ENOMEM;
	memcpy(pv, &p, sizeof(p));
	*cap = c;
	return 0;
}

int array__grow_zeroed(void *pv, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t old = *cap;
	unsigned char *v;
	int err;

	if (need <= old)
		return 0;
	if ((err = array__grow_slow(pv, cap, need, elem, first)))
		return err;
	memcpy(&v, pv, sizeof(v));
	memset(v + old * elem, 0, (*cap - old) * elem);
	return 0;
}
