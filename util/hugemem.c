#include "util/hugemem.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>	/* uintptr_t, SIZE_MAX */
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* memcpy */
#include <sys/mman.h>	/* mmap, munmap, mremap, madvise */

#include "util/array.h"
#include "util/workqueue.h"
#include "banned.h"

#define HUGE_PAGE ((size_t)2 << 20)

/* AddressSanitizer checks the bounds of malloc()ed blocks only (no red zones around
 * a mapping): its builds keep every array malloc()ed, as do builds with
 * -DHUGEMEM_NO_MAPS (to compare, in bench/). */
#if defined(__SANITIZE_ADDRESS__) || defined(HUGEMEM_NO_MAPS)
#define MAPS false
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define MAPS false
#endif
#endif
#ifndef MAPS
#define MAPS true
#endif

bool hugemem__maps(void)
{
	return MAPS;
}

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) & ~(to - 1);
}

/* n bytes (a multiple of HUGE_PAGE) mapped at a HUGE_PAGE boundary, advised; NULL if
 * none: a mapping a huge page longer, its unaligned ends unmapped. */
static void *map_aligned(size_t n)
{
	char *p = mmap(NULL, n + HUGE_PAGE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), *a;

	if (p == MAP_FAILED)
		return NULL;
	a = (char *)round_up((uintptr_t)p, HUGE_PAGE);
	if (a > p)
		munmap(p, (size_t)(a - p));
	if (a + n < p + n + HUGE_PAGE)
		munmap(a + n, (size_t)(p + n + HUGE_PAGE - (a + n)));
	/* EINVAL where the kernel has no transparent huge pages: small pages then */
	(void)madvise(a, n, MADV_HUGEPAGE);
	return a;
}

/* hugemem__realloc() mapping from min bytes on; without `keep`, nothing of p is kept
 * where it would be copied. */
static void *realloc_from(void *p, size_t old, size_t size, size_t *mapped, size_t min,
			  bool keep)
{
	size_t n, was = *mapped;
	void *q;

	if (!p && (size < min || !MAPS)) {
		*mapped = 0;
		return calloc(1, size ? size : 1);
	}
	if (!was && (size < min || !MAPS))
		return realloc(p, size ? size : 1);
	if (size > SIZE_MAX - 2 * HUGE_PAGE)
		return NULL;
	n = round_up(size ? size : 1, HUGE_PAGE);
	if (was == n)
		return p;
	if (was) {
		/* the pages move with their mapping (no copy); the kernel picks where */
		q = mremap(p, was, n, MREMAP_MAYMOVE);
		if (q == MAP_FAILED)
			return NULL;
		(void)madvise(q, n, MADV_HUGEPAGE);
	} else {
		if (!(q = map_aligned(n)))
			return NULL;
		if (p && old && keep)
			memcpy(q, p, old < size ? old : size);
		free(p);
	}
	*mapped = n;
	return q;
}

void *hugemem__alloc(size_t size, size_t *mapped)
{
	*mapped = 0;
	return realloc_from(NULL, 0, size, mapped, HUGEMEM_MIN, true);
}

void *hugemem__alloc_grown(size_t size, size_t *mapped)
{
	*mapped = 0;
	return realloc_from(NULL, 0, size, mapped, HUGEMEM_GROW_MIN, true);
}

void *hugemem__realloc(void *p, size_t old, size_t size, size_t *mapped)
{
	return realloc_from(p, old, size, mapped, HUGEMEM_MIN, true);
}

static int grow(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
		size_t first, bool keep)
{
	size_t c;
	void *v, *p;

	if (need <= *cap)
		return 0;
	if (array__next_cap(*cap, need, elem, first, SIZE_MAX - 2 * HUGE_PAGE, &c))
		return -ENOMEM;
	memcpy(&v, pv, sizeof(v));
	p = realloc_from(v, *cap * elem, c * elem, mapped, HUGEMEM_GROW_MIN, keep);
	if (!p)
		return -ENOMEM;
	memcpy(pv, &p, sizeof(p));
	*cap = c;
	return 0;
}

int hugemem__grow(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
		  size_t first)
{
	return grow(pv, cap, mapped, need, elem, first, true);
}

int hugemem__grow_discard(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
			  size_t first)
{
	return grow(pv, cap, mapped, need, elem, first, false);
}

int hugemem__grow_zeroed(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
			 size_t first)
{
	size_t old = *cap;
	unsigned char *v;
	int err;

	if (need <= old)
		return 0;
	if ((err = hugemem__grow(pv, cap, mapped, need, elem, first)))
		return err;
	memcpy(&v, pv, sizeof(v));
	/* a new mapping holds the old elements and zeros; a mapping that grew, zeros
	 * past the old elements (its bytes there were never handed out) */
	if (!*mapped)
		memset(v + old * elem, 0, (*cap - old) * elem);
	return 0;
}

void hugemem__free(void *p, size_t mapped)
{
	if (!p)
		return;
	if (mapped)
		munmap(p, mapped);
	else
		free(p);
}

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23	/* Linux 5.14 */
#endif

/* Spans smaller are left alone (their faults cost less than a job). */
#define POPULATE_MIN ((size_t)64 << 10)

struct populate {
	const struct hugemem_span *s;
	size_t *first;			/* span k's first piece; first[n]: all */
};

/* Job: piece i (a huge page's worth of one span) faulted in. */
static void populate_piece(void *ctx, size_t i)
{
	const struct populate *pp = ctx;
	size_t k = 0, page = 4096;
	char *a, *e, *end;

	while (pp->first[k + 1] <= i)
		k++;
	a = (char *)pp->s[k].p + (i - pp->first[k]) * HUGE_PAGE;
	end = (char *)pp->s[k].p + pp->s[k].bytes;
	e = a + HUGE_PAGE < end ? a + HUGE_PAGE : end;
	a = (char *)round_up((uintptr_t)a, page);
	e = (char *)((uintptr_t)e & ~(uintptr_t)(page - 1));
	if (e > a)
		(void)madvise(a, (size_t)(e - a), MADV_POPULATE_WRITE);	/* EINVAL:
						 * an older kernel; only time lost */
}

int hugemem__populate(struct workqueue *wq, const struct hugemem_span *s, size_t n)
{
	struct populate pp = { .s = s };
	int err;

	if (!MAPS || !n)
		return 0;
	if (!(pp.first = calloc(n + 1, sizeof(*pp.first))))
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		pp.first[k + 1] = pp.first[k] +
				  (s[k].p && s[k].bytes >= POPULATE_MIN ?
				   (s[k].bytes + HUGE_PAGE - 1) / HUGE_PAGE : 0);
	err = parallel_for(wq, pp.first[n], populate_piece, &pp);
	free(pp.first);
	return err;
}

void hugemem__touch_zeroed(void *p, size_t size)
{
	for (size_t off = 0; off < size; off += 4096)
		((volatile unsigned char *)p)[off] = 0;
}
