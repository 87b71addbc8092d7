#ifndef DIRREPORT_UTIL_HASHTAB_H
#define DIRREPORT_UTIL_HASHTAB_H
/*
 * hashtab - the open-addressing hash table every lookup table of the core uses: a
 * caller's array of slots (pointers, ids or small structs) with linear probing, a
 * power-of-two capacity and at most half of it used.  A slot whose bytes are all zero
 * is empty, so the caller keeps a non-zero key in every used slot (a pointer, an
 * index + 1, a `used` flag).  The caller probes with hashtab__first() and
 * hashtab__next() until it finds its key or an empty slot, and calls
 * hashtab__reserve() before a probe that may insert (growing moves the slots).
 *
 * Thread safety: touches only the table given.
 */
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

/** The hash of a used slot (the one its key was inserted with). */
typedef uint64_t hashtab_hash_fn(const void *ctx, const void *slot);

/**
 * @brief Make room for one more used slot: nothing while (nr + 1) * 2 <= *cap; else
 *        a zeroed array of twice the capacity (@p first slots when it is 0) takes
 *        every used slot again, at the place @p hash gives it, and replaces *@p pslots.
 * @param pslots  address of the slot array (a `T **` passed as `void *`; NULL when
 *                *cap is 0)
 * @param cap     its capacity in slots, a power of two (or 0)
 * @param nr      used slots
 * @param elem    bytes per slot
 * @param first   the capacity of a first array (a power of two)
 * @return 0, or -ENOMEM (the table unchanged).
 */
int hashtab__reserve_slow(void *pslots, size_t *cap, size_t nr, size_t elem,
			  size_t first, hashtab_hash_fn *hash, const void *ctx);

/** @brief hashtab__reserve_slow() after the check that usually says there is room
 *  (inline: lookups that may insert run once per sample or callchain frame). */
static inline int hashtab__reserve(void *pslots, size_t *cap, size_t nr, size_t elem,
				   size_t first, hashtab_hash_fn *hash, const void *ctx)
{
	return (nr + 1) * 2 <= *cap ? 0 :
	       hashtab__reserve_slow(pslots, cap, nr, elem, first, hash, ctx);
}

/**
 * @brief hashtab__reserve_slow() for a table of megabytes: its arrays from
 *        HUGEMEM_GROW_MIN bytes on mapped for huge pages (util/hugemem.h; a rehash
 *        touches every page of the new array), given back with hugemem__free(*pslots,
 *        *mapped).
 * @param mapped  the slot array's mapped bytes (0: malloc()ed), updated
 * @return 0, or -ENOMEM (the table unchanged).
 */
int hashtab__reserve_mapped_slow(void *pslots, size_t *cap, size_t *mapped, size_t nr,
				 size_t elem, size_t first, hashtab_hash_fn *hash,
				 const void *ctx);

/** @brief hashtab__reserve_mapped_slow() after the check that usually says there is
 *  room. */
static inline int hashtab__reserve_mapped(void *pslots, size_t *cap, size_t *mapped,
					  size_t nr, size_t elem, size_t first,
					  hashtab_hash_fn *hash, const void *ctx)
{
	return (nr + 1) * 2 <= *cap ? 0 :
	       hashtab__reserve_mapped_slow(pslots, cap, mapped, nr, elem, first, hash, ctx);
}

/**
 * A slot of the common kind: the index + 1 of an element kept elsewhere, and the low
 * half of its key's hash, which places it as the whole hash does (no table has 2^32
 * slots).  A probe compares the hash before it reads the element, and growing reads
 * no element (hashtab__kept_hash()): with the index alone, each probe and each slot
 * moved read the element, a cache miss in the tables of megabytes (the report's
 * replay of the bench file: 15 % of its CPU less with occurrences kept this way).
 */
struct hashtab_slot {
	uint32_t idx1, hash;
};

/** @brief The hash a struct hashtab_slot keeps (a hashtab_hash_fn; ctx unused). */
uint64_t hashtab__kept_hash(const void *ctx, const void *slot);

/** @brief The first slot to probe for a key of this hash (cap: a power of two, > 0). */
static inline size_t hashtab__first(uint64_t hash, size_t cap)
{
	return (size_t)hash & (cap - 1);
}

/** @brief The slot probed after slot i. */
static inline size_t hashtab__next(size_t i, size_t cap)
{
	return (i + 1) & (cap - 1);
}

#endif
