#include "util/array.h"

#include <errno.h>
#include <stdint.h>	/* SIZE_MAX */
#include <stdlib.h>	/* realloc */
#include <string.h>	/* memcpy */

#include "banned.h"

int array__grow_slow(void *pv, size_t *cap, size_t need, size_t elem, size_t first)
{
	size_t c = *cap ? *cap : (first ? first : 1);
	void *v, *p;

	if (need <= *cap)
		return 0;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return -ENOMEM;
		c *= 2;
	}
	if (elem && c > SIZE_MAX / elem)
		return -ENOMEM;
	memcpy(&v, pv, sizeof(v));
	p = realloc(v, c * elem);
	if (!p)
		return -ENOMEM;
	memcpy(pv, &p, sizeof(p));
	*cap = c;
	return 0;
}
