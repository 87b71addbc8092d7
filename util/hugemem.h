#ifndef DIRREPORT_UTIL_HUGEMEM_H
#define DIRREPORT_UTIL_HUGEMEM_H
/*
 * hugemem - large arrays in memory of their own, advised for transparent huge pages.
 *
 * A first touch of a 4 KiB page of fresh memory costs a page fault: 15 us each on
 * the virtual machine the benchmarks run on (a 5 MB kallsyms table: 1300 of them,
 * 20 ms of its 100), far less for a 2 MiB huge page.  glibc's malloc() gives large
 * blocks small pages unless the user sets GLIBC_TUNABLES=glibc.malloc.hugetlb=1 before
 * the program starts; these calls map the memory themselves (mmap), 2 MiB-aligned,
 * and madvise(MADV_HUGEPAGE) it, which the kernel honours where transparent huge
 * pages are "always" or "madvise" (the usual settings), and ignores elsewhere.
 * Below HUGEMEM_MIN bytes they fall back to malloc(): a caller keeps the `mapped`
 * size they return (0: malloc()ed) to give the memory back with hugemem__free().
 *
 * Thread safety: touches only the memory given.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */

/**
 * @brief Whether large arrays are mapped: false in AddressSanitizer builds, which
 *        check the bounds of malloc()ed memory only (every array is malloc()ed there).
 */
bool hugemem__maps(void);

/** Arrays smaller than this (bytes) are malloc()ed: one huge page. */
#define HUGEMEM_MIN ((size_t)2 << 20)
/** ... and growing ones, which glibc's realloc() copied into fresh pages at each
 *  doubling: a quarter of one. */
#define HUGEMEM_GROW_MIN ((size_t)512 << 10)

/**
 * @brief @p size bytes, zeroed.
 * @param mapped  receives the bytes mapped (0: the memory is malloc()ed)
 * @return the memory, or NULL (out of memory).
 */
void *hugemem__alloc(size_t size, size_t *mapped);

/**
 * @brief hugemem__alloc() with the threshold of arrays that grow (HUGEMEM_GROW_MIN):
 *        for a table that replaces one given by hugemem__grow() (a hash table
 *        rehashed into twice the room, say).
 * @param mapped  receives the bytes mapped (0: the memory is malloc()ed)
 * @return @p size bytes, zeroed, or NULL (out of memory).
 */
void *hugemem__alloc_grown(size_t size, size_t *mapped);

/**
 * @brief @p p (of *@p mapped bytes mapped, or malloc()ed with 0) grown or shrunk to
 *        @p size bytes, its first min(old, @p size) bytes kept; bytes past the old
 *        size are zero where the memory is mapped, undefined where malloc()ed.
 * @param mapped  in: as hugemem__alloc() gave it; out: the new one
 * @return the memory (possibly moved), or NULL (then @p p and *@p mapped are
 *         unchanged).
 */
void *hugemem__realloc(void *p, size_t old, size_t size, size_t *mapped);

/**
 * @brief array__grow() (util/array.h) for an array given back with hugemem__free():
 *        room for @p need elements of @p elem bytes, the capacity doubling (from
 *        @p first when 0); once it reaches HUGEMEM_GROW_MIN bytes the array is
 *        mapped.
 * @param pv      address of the array pointer (a `T **` passed as `void *`)
 * @param mapped  its mapped bytes (0: malloc()ed), updated
 * @return 0, or -ENOMEM (the array, *cap and *mapped unchanged).
 */
int hugemem__grow(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
		  size_t first);

/**
 * @brief hugemem__grow() for an array whose elements the caller writes again before
 *        it reads them (a batch's arrays, refilled for each batch): their contents
 *        afterwards are unspecified (kept where malloc()ed memory grows or a
 *        mapping grows; zero where the array moves from malloc()ed memory into a
 *        mapping: the old bytes are not copied over, so that the mapping's pages are
 *        first touched where the elements are written, not here - on the bench VM
 *        a fresh huge page costs about 4 ms at its first touch).
 * @return 0, or -ENOMEM (the array, *cap and *mapped unchanged).
 */
int hugemem__grow_discard(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
			  size_t first);

/**
 * @brief hugemem__grow() whose new elements are zeroed (all of [old cap, new cap)),
 *        as array__grow_zeroed(): a mapping's new pages are zero already (no
 *        memset() touching them).
 * @return 0, or -ENOMEM (the array, *cap and *mapped unchanged).
 */
int hugemem__grow_zeroed(void *pv, size_t *cap, size_t *mapped, size_t need, size_t elem,
			 size_t first);

/**
 * @brief A store of 0 into each 4 KiB page of @p size bytes of zeroed memory (a
 *        calloc()'s), for an array whose first use reads before it writes: a large
 *        calloc() is fresh mapped memory, which reads as the shared zero page until
 *        written, and each page's first store after a read then copies it and
 *        flushes the other cpus' TLBs (an interrupt to each; the bench VM: 5 % of
 *        dirscript's CPU for a 1.7 MB cache probed before it was filled).  A
 *        memset() after malloc() is no help: the compiler makes it a calloc().
 * Thread safety: nothing else may use the memory meanwhile.
 */
void hugemem__touch_zeroed(void *p, size_t size);

/** @brief Give back @p p, of @p mapped bytes mapped (0: free() it; NULL: nothing). */
void hugemem__free(void *p, size_t mapped);

/** Bytes of an array hugemem__populate() is to fault in. */
struct hugemem_span {
	void *p;
	size_t bytes;
};

struct workqueue;

/**
 * @brief Fault in the pages of @p n spans of arrays mapped here, writable, their
 *        contents kept (madvise MADV_POPULATE_WRITE, Linux 5.14), 2 MiB a job on the
 *        workers of @p wq: a thread about to fill megabytes of fresh memory alone
 *        has the kernel zero its pages on the others first (on the bench VM the first
 *        touch costs about 3 ms a MiB).  Spans under 64 KiB, builds without maps
 *        (hugemem__maps()) and kernels without the advice are left as they are: it
 *        only saves time.
 * @return 0 or -ENOMEM (the jobs).
 * Thread safety: nothing may write the spans meanwhile.
 */
int hugemem__populate(struct workqueue *wq, const struct hugemem_span *s, size_t n);

#endif
