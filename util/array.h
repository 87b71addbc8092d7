#ifndef DIRREPORT_UTIL_ARRAY_H
#define DIRREPORT_UTIL_ARRAY_H
/*
 * array - room in a growable array: the one doubling-realloc every append site uses.
 *
 * Thread safety: touches only the array given.
 */
#include <stddef.h>	/* size_t */

/**
 * @brief The capacity array__grow() gives an array of *@p cap elements of @p elem
 *        bytes that must hold @p need: *@p cap doubled (from @p first, or 1, when 0)
 *        until it does; *@p out receives it.
 * @param limit  bytes the array may not reach (SIZE_MAX: none but size_t's)
 * @return 0, or -ENOMEM (no such capacity).
 */
int array__next_cap(size_t cap, size_t need, size_t elem, size_t first, size_t limit,
		    size_t *out);

/**
 * @brief Make room for @p need elements of @p elem bytes in the array *@p pv, whose
 *        capacity is *@p cap elements: nothing when it has that room, else the
 *        capacity doubles (from @p first when it is 0) until it does and the array is
 *        reallocated (its elements kept, its address possibly changed).
 * @param pv     address of the array pointer (a `T **` passed as `void *`)
 * @return 0, or -ENOMEM (the array and *cap unchanged).
 */
int array__grow_slow(void *pv, size_t *cap, size_t need, size_t elem, size_t first);

/** @brief array__grow_slow() after the check that usually says there is room
 *  (inline: append sites are hot). */
static inline int array__grow(void *pv, size_t *cap, size_t need, size_t elem,
			      size_t first)
{
	return need <= *cap ? 0 : array__grow_slow(pv, cap, need, elem, first);
}

/**
 * @brief array__grow() whose new elements are zeroed (all of [old cap, new cap)),
 *        for arrays of per-job results whose owned members are freed up to *cap.
 * @return 0, or -ENOMEM (the array and *cap unchanged).
 */
int array__grow_zeroed(void *pv, size_t *cap, size_t need, size_t elem, size_t first);

#endif
