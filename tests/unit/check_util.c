/*
 * Unit tests of util/: the string-intern table (machine comms, source lines,
 * tracepoint texts) and its hash, 64-bit FNV-1a (test vectors of the FNV authors); the
 * growable array; the red-black tree (insert and erase keep its invariants and order);
 * the open-addressing hash table (growth, rehash, probing).
 */
#include <check.h>
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>	/* fgets, fopen, snprintf, sscanf */
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* strcpy is banned: memcpy */

#include "util/array.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "util/rbtree.h"
#include "util/strtab.h"
#include "banned.h"

START_TEST(test_fnv1a)
{
	ck_assert_uint_eq(str__hash(""), 0xcbf29ce484222325ULL);
	ck_assert_uint_eq(str__hash("a"), 0xaf63dc4c8601ec8cULL);
	ck_assert_uint_eq(str__hash("foobar"), 0x85944171f73967e8ULL);
}
END_TEST

START_TEST(test_intern)
{
	struct strtab t = { 0 };
	const char *first[1000];
	char buf[32];

	/* past several doublings: the strings keep their addresses */
	for (int i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "comm-%d", i);
		first[i] = strtab__intern(&t, buf);
		ck_assert_ptr_nonnull(first[i]);
		ck_assert_str_eq(first[i], buf);
	}
	ck_assert_uint_eq(t.nr, 1000);
	for (int i = 0; i < 1000; i++) {
		snprintf(buf, sizeof(buf), "comm-%d", i);
		ck_assert_ptr_eq(strtab__intern(&t, buf), first[i]);
	}
	ck_assert_uint_eq(t.nr, 1000);
	strtab__exit(&t);
	ck_assert_uint_eq(t.nr, 0);
}
END_TEST

START_TEST(test_intern_owned)
{
	struct strtab t = { 0 };
	const char *a = strtab__intern(&t, "sched_switch: prev=sh");
	char *dup = malloc(32), *fresh = malloc(32);

	ck_assert_ptr_nonnull(dup);
	ck_assert_ptr_nonnull(fresh);
	memcpy(dup, "sched_switch: prev=sh", 22);
	memcpy(fresh, "sched_switch: prev=dd", 22);
	/* a text already there: the table's copy (dup is freed: ASan/valgrind check) */
	ck_assert_ptr_eq(strtab__intern_owned(&t, dup), a);
	/* a new one: taken over as it is */
	ck_assert_ptr_eq(strtab__intern_owned(&t, fresh), fresh);
	ck_assert_uint_eq(t.nr, 2);
	strtab__exit(&t);
}
END_TEST

START_TEST(test_array_grow)
{
	int *v = NULL;
	size_t cap = 0, nr = 0;

	/* from `first`, doubling; elements kept */
	for (int i = 0; i < 1000; i++) {
		ck_assert_int_eq(array__grow(&v, &cap, nr + 1, sizeof(*v), 16), 0);
		v[nr++] = i;
	}
	ck_assert_uint_eq(cap, 1024);
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(v[i], i);
	/* room already: nothing changes */
	ck_assert_int_eq(array__grow(&v, &cap, 1024, sizeof(*v), 16), 0);
	ck_assert_uint_eq(cap, 1024);
	/* a size that overflows: -ENOMEM, the array untouched */
	ck_assert_int_eq(array__grow(&v, &cap, (size_t)-1 / 2, sizeof(*v), 16), -ENOMEM);
	ck_assert_uint_eq(cap, 1024);
	ck_assert_int_eq(v[999], 999);
	free(v);
	/* zeroed: every new slot up to the new capacity, the old elements kept */
	v = NULL;
	cap = 0;
	ck_assert_int_eq(array__grow_zeroed(&v, &cap, 3, sizeof(*v), 4), 0);
	ck_assert_uint_eq(cap, 4);
	for (size_t i = 0; i < cap; i++)
		ck_assert_int_eq(v[i], 0);
	v[0] = v[3] = 7;
	ck_assert_int_eq(array__grow_zeroed(&v, &cap, 4, sizeof(*v), 4), 0);	/* room */
	ck_assert_int_eq(array__grow_zeroed(&v, &cap, 5, sizeof(*v), 4), 0);
	ck_assert_uint_eq(cap, 8);
	ck_assert_int_eq(v[0], 7);
	ck_assert_int_eq(v[3], 7);
	for (size_t i = 4; i < cap; i++)
		ck_assert_int_eq(v[i], 0);
	ck_assert_int_eq(array__grow_zeroed(&v, &cap, (size_t)-1 / 2, sizeof(*v), 4), -ENOMEM);
	ck_assert_uint_eq(cap, 8);
	free(v);
}
END_TEST

/* ---- rbtree --------------------------------------------------------------------- */

static int black_height(const struct rbtree *t, uint32_t x)
{
	int l, r;

	if (x == RBTREE_NIL)
		return 1;
	if (t->red[x]) {
		ck_assert(t->left[x] == RBTREE_NIL || !t->red[t->left[x]]);
		ck_assert(t->right[x] == RBTREE_NIL || !t->red[t->right[x]]);
	}
	l = black_height(t, t->left[x]);
	r = black_height(t, t->right[x]);
	ck_assert_int_eq(l, r);
	return l + !t->red[x];
}

START_TEST(test_rbtree_insert)
{
	enum { N = 1000 };
	struct rbtree t;
	uint32_t keys[N], out[N], stack[N];

	rbtree__init(&t);
	ck_assert_int_eq(rbtree__reserve(&t, N), 0);
	for (uint32_t i = 0; i < N; i++)
		keys[i] = (i * 7919u) % N;	/* node id == key */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t z = keys[i], p = RBTREE_NIL, x = t.root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			left = z < x;
			x = left ? t.left[x] : t.right[x];
		}
		rbtree__link(&t, z, p, left);
	}
	ck_assert(!t.red[t.root]);
	black_height(&t, t.root);
	ck_assert_uint_eq(rbtree__inorder(&t, out, stack), N);
	for (uint32_t i = 0; i < N; i++)
		ck_assert_uint_eq(out[i], i);
	rbtree__exit(&t);
}
END_TEST

/* A sequence linked as sorted: a valid red-black tree whose in-order is the sequence
 * (a permutation of the ids, as the report's entries in their tree order). */
START_TEST(test_rbtree_link_sorted)
{
	enum { N = 777 };
	struct rbtree t;
	uint32_t ids[N], out[N], stack[N];

	rbtree__init(&t);
	ck_assert_int_eq(rbtree__reserve(&t, N), 0);
	for (uint32_t i = 0; i < N; i++)
		ids[i] = (i * 389u) % N;
	rbtree__link_sorted(&t, ids, N);
	ck_assert(!t.red[t.root]);
	black_height(&t, t.root);
	ck_assert_uint_eq(rbtree__inorder(&t, out, stack), N);
	for (uint32_t i = 0; i < N; i++)
		ck_assert_uint_eq(out[i], ids[i]);
	rbtree__link_sorted(&t, ids, 0);	/* emptied */
	ck_assert_uint_eq(t.root, RBTREE_NIL);
	rbtree__exit(&t);
}
END_TEST

/* Insert keys (node id == key) in order, smaller keys left. */
static void insert_keys(struct rbtree *t, const uint32_t *keys, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		uint32_t z = keys[i], p = RBTREE_NIL, x = t->root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			left = z < x;
			x = left ? t->left[x] : t->right[x];
		}
		rbtree__link(t, z, p, left);
	}
}

START_TEST(test_rbtree_erase)
{
	enum { N = 1000 };
	struct rbtree t;
	uint32_t keys[N], out[N], stack[N];
	bool gone[N] = { false };
	size_t nr;

	rbtree__init(&t);
	ck_assert_int_eq(rbtree__reserve(&t, N), 0);
	for (uint32_t i = 0; i < N; i++)
		keys[i] = (i * 7919u) % N;
	insert_keys(&t, keys, N);
	/* erase two thirds in a scattered order: still a red-black tree, in order */
	for (uint32_t i = 0; i < N; i++) {
		uint32_t z = (i * 4099u) % N;

		if (z % 3 == 0)
			continue;
		rbtree__erase(&t, z);
		gone[z] = true;
		if (i % 97 == 0) {
			ck_assert(t.root == RBTREE_NIL || !t.red[t.root]);
			black_height(&t, t.root);
		}
	}
	black_height(&t, t.root);
	nr = rbtree__inorder(&t, out, stack);
	ck_assert_uint_eq(nr, (N + 2) / 3);
	for (size_t i = 0, k = 0; i < N; i++)
		if (!gone[i])
			ck_assert_uint_eq(out[k++], i);
	/* an erased id links again */
	insert_keys(&t, (const uint32_t[]){ 1 }, 1);
	ck_assert_uint_eq(rbtree__inorder(&t, out, stack), nr + 1);
	ck_assert_uint_eq(out[1], 1);
	/* down to empty */
	for (uint32_t i = 0; i < N; i++)
		if (!gone[i] || i == 1)
			rbtree__erase(&t, i);
	ck_assert_uint_eq(t.root, RBTREE_NIL);
	rbtree__exit(&t);
}
END_TEST

/* ---- hashtab: a table of ids + 1 into a key array -------------------------------- */

static uint64_t key_of(uint64_t k)
{
	return k * 0x9E3779B97F4A7C15ULL;
}

static uint64_t slot_hash(const void *ctx, const void *slot)
{
	const uint64_t *keys = ctx;

	return key_of(keys[*(const uint32_t *)slot - 1]);
}

START_TEST(test_hashtab)
{
	enum { N = 5000 };
	uint64_t *keys = malloc(N * sizeof(*keys));
	uint32_t *tab = NULL;
	size_t cap = 0, nr = 0;

	ck_assert_ptr_nonnull(keys);
	for (uint32_t i = 0; i < N; i++) {
		size_t s;

		keys[i] = (uint64_t)i * 1000003u;
		ck_assert_int_eq(hashtab__reserve(&tab, &cap, nr, sizeof(*tab), 16, slot_hash,
						  keys), 0);
		ck_assert_uint_le((nr + 1) * 2, cap);
		ck_assert_uint_eq(cap & (cap - 1), 0);
		for (s = hashtab__first(key_of(keys[i]), cap); tab[s]; s = hashtab__next(s, cap))
			ck_assert_uint_ne(keys[tab[s] - 1], keys[i]);
		tab[s] = i + 1;
		nr++;
	}
	ck_assert_uint_eq(cap, 16384);
	/* every key is found where probing from its hash leads, after every growth */
	for (uint32_t i = 0; i < N; i++) {
		size_t s = hashtab__first(key_of(keys[i]), cap);

		while (tab[s] && tab[s] != i + 1)
			s = hashtab__next(s, cap);
		ck_assert_uint_eq(tab[s], i + 1);
	}
	/* room already: nothing moves; an impossible size: -ENOMEM, table kept */
	ck_assert_int_eq(hashtab__reserve(&tab, &cap, nr, sizeof(*tab), 16, slot_hash, keys),
			 0);
	ck_assert_uint_eq(cap, 16384);
	ck_assert_int_eq(hashtab__reserve(&tab, &cap, (size_t)-1 / 4, sizeof(*tab), 16,
					  slot_hash, keys), -ENOMEM);
	ck_assert_uint_eq(cap, 16384);
	free(tab);
	free(keys);
}
END_TEST

/* Large arrays are mapped 2 MiB-aligned and zeroed, small ones malloc()ed; growing
 * keeps the contents either way, and a small array grown large moves to a mapping. */
START_TEST(test_hugemem)
{
	size_t mapped, small_mapped = 1, big = (size_t)5 << 20;
	unsigned char *p = hugemem__alloc(big, &mapped), *q;

	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(mapped, hugemem__maps() ? (size_t)6 << 20 : 0);
	if (mapped)
		ck_assert_uint_eq((uintptr_t)p % ((size_t)2 << 20), 0);
	for (size_t i = 0; i < big; i += 4096)
		ck_assert_uint_eq(p[i], 0);
	p[0] = 1;
	p[big - 1] = 2;
	q = hugemem__realloc(p, big, 3 * big, &mapped);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(mapped, hugemem__maps() ? (size_t)16 << 20 : 0);
	ck_assert_uint_eq(q[0], 1);
	ck_assert_uint_eq(q[big - 1], 2);
	if (mapped)	/* a mapping grows with zeros */
		ck_assert_uint_eq(q[3 * big - 1], 0);
	hugemem__free(q, mapped);
	p = hugemem__alloc(100, &small_mapped);
	ck_assert_ptr_nonnull(p);
	ck_assert_uint_eq(small_mapped, 0);
	ck_assert_uint_eq(p[99], 0);
	p[99] = 7;
	q = hugemem__realloc(p, 100, big, &small_mapped);
	ck_assert_ptr_nonnull(q);
	ck_assert_uint_eq(small_mapped, hugemem__maps() ? (size_t)6 << 20 : 0);
	ck_assert_uint_eq(q[99], 7);
	hugemem__free(q, small_mapped);
	hugemem__free(NULL, 0);
}
END_TEST

/* The process's anonymous memory in KiB (/proc/self/smaps_rollup), or -1. */
static long anon_kib(void)
{
	FILE *f = fopen("/proc/self/smaps_rollup", "r");
	char line[256];
	long kib = -1;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Anonymous: %ld kB", &kib) == 1)
			break;
	fclose(f);
	return kib;
}

/* A calloc()ed array read first (the zero page, where it is fresh mapped memory), then
 * touched: its pages are the process's own and still zero. */
START_TEST(test_hugemem_touch_zeroed)
{
	size_t size = ((size_t)8 << 20) + 100;
	long before = anon_kib(), after;
	unsigned char *p = calloc(1, size);
	unsigned sum = 0;

	ck_assert_ptr_nonnull(p);
	for (size_t i = 0; i < size; i += 4096)
		sum += ((volatile unsigned char *)p)[i];
	hugemem__touch_zeroed(p, size);
	after = anon_kib();
	for (size_t i = 0; i < size; i++)
		sum += p[i];
	ck_assert_uint_eq(sum, 0);
	if (before >= 0 && after >= 0)	/* a kernel without the file: contents only */
		ck_assert_int_ge(after - before, (long)(7 << 10));
	free(p);
}
END_TEST

/* A growing array: malloc()ed while small, mapped from HUGEMEM_GROW_MIN bytes on
 * (its contents kept), its new elements zeroed in either state. */
START_TEST(test_hugemem_grow)
{
	uint64_t *v = NULL;
	size_t cap = 0, mapped = 0;
	static const size_t sizes[] = { 100, 60000, 200000, 1000000 };

	for (size_t k = 0, had = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		ck_assert_int_eq(hugemem__grow_zeroed(&v, &cap, &mapped, sizes[k], sizeof(*v),
						      64), 0);
		size_t bad = 0;

		ck_assert_uint_ge(cap, sizes[k]);
		for (size_t i = 0; i < had; i++)	/* kept */
			bad += v[i] != i + 1;
		for (size_t i = had; i < cap; i++)	/* zeroed */
			bad += v[i] != 0;
		ck_assert_uint_eq(bad, 0);
		for (size_t i = had; i < cap; i++)
			v[i] = i + 1;
		had = cap;
		ck_assert_uint_eq(mapped != 0,
				  hugemem__maps() && cap * sizeof(*v) >= HUGEMEM_GROW_MIN);
	}
	ck_assert_int_eq(hugemem__grow(&v, &cap, &mapped, cap + 1, sizeof(*v), 64), 0);
	ck_assert_uint_eq(v[cap / 2 - 1], cap / 2);
	hugemem__free(v, mapped);
}
END_TEST

/* An array refilled after each growth: room for what is asked; where it moves into a
 * mapping its old elements are not copied over (the mapping reads as zero). */
START_TEST(test_hugemem_grow_discard)
{
	uint64_t *v = NULL;
	size_t cap = 0, mapped = 0;
	static const size_t sizes[] = { 100, 60000, 200000, 1000000 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t was = mapped, nonzero = 0;

		ck_assert_int_eq(hugemem__grow_discard(&v, &cap, &mapped, sizes[k], sizeof(*v),
						       64), 0);
		ck_assert_uint_ge(cap, sizes[k]);
		ck_assert_uint_eq(mapped != 0,
				  hugemem__maps() && cap * sizeof(*v) >= HUGEMEM_GROW_MIN);
		if (mapped && !was) {
			for (size_t i = 0; i < cap; i++)
				nonzero += v[i] != 0;
			ck_assert_uint_eq(nonzero, 0);
		}
		for (size_t i = 0; i < cap; i++)
			v[i] = i + 1;
	}
	/* room already: nothing changes */
	ck_assert_int_eq(hugemem__grow_discard(&v, &cap, &mapped, cap, sizeof(*v), 64), 0);
	ck_assert_uint_eq(v[cap - 1], cap);
	hugemem__free(v, mapped);
}
END_TEST

/* A table that replaces a growing one: malloc()ed below HUGEMEM_GROW_MIN bytes,
 * mapped (huge-page aligned) from there on, zeroed either way. */
START_TEST(test_hugemem_alloc_grown)
{
	static const size_t sizes[] = { 1, 4096, HUGEMEM_GROW_MIN - 1, HUGEMEM_GROW_MIN,
					(size_t)3 << 20 };

	for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		size_t mapped = 12345, bad = 0;
		unsigned char *p = hugemem__alloc_grown(sizes[k], &mapped);

		ck_assert_ptr_nonnull(p);
		ck_assert_uint_eq(mapped != 0, hugemem__maps() && sizes[k] >= HUGEMEM_GROW_MIN);
		if (mapped) {
			ck_assert_uint_ge(mapped, sizes[k]);
			ck_assert_uint_eq((uintptr_t)p % ((size_t)2 << 20), 0);
		}
		for (size_t i = 0; i < sizes[k]; i++)
			bad += p[i] != 0;
		ck_assert_uint_eq(bad, 0);
		p[sizes[k] - 1] = 1;
		hugemem__free(p, mapped);
	}
}
END_TEST

/* A table of megabytes: its arrays mapped once past HUGEMEM_GROW_MIN bytes, every key
 * found after each growth, given back with hugemem__free(). */
START_TEST(test_hashtab_mapped)
{
	enum { N = 100000 };
	uint64_t *keys = malloc(N * sizeof(*keys));
	uint32_t *tab = NULL;
	size_t cap = 0, nr = 0, mapped = 0;

	ck_assert_ptr_nonnull(keys);
	for (uint32_t i = 0; i < N; i++) {
		size_t s;

		keys[i] = (uint64_t)i * 1000003u;
		ck_assert_int_eq(hashtab__reserve_mapped(&tab, &cap, &mapped, nr, sizeof(*tab),
							 16, slot_hash, keys), 0);
		ck_assert_uint_eq(mapped != 0,
				  hugemem__maps() && cap * sizeof(*tab) >= HUGEMEM_GROW_MIN);
		for (s = hashtab__first(key_of(keys[i]), cap); tab[s]; s = hashtab__next(s, cap))
			ck_assert_uint_ne(keys[tab[s] - 1], keys[i]);
		tab[s] = i + 1;
		nr++;
	}
	ck_assert_uint_eq(cap, 1u << 18);
	for (uint32_t i = 0; i < N; i++) {
		size_t s = hashtab__first(key_of(keys[i]), cap);

		while (tab[s] && tab[s] != i + 1)
			s = hashtab__next(s, cap);
		ck_assert_uint_eq(tab[s], i + 1);
	}
	hugemem__free(tab, mapped);
	free(keys);
}
END_TEST

Suite *util_suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("strtab");
	TCase *ta = tcase_create("array");
	TCase *tr = tcase_create("rbtree");
	TCase *th = tcase_create("hashtab");

	tcase_add_test(tc, test_fnv1a);
	tcase_add_test(tc, test_intern);
	tcase_add_test(tc, test_intern_owned);
	tcase_add_test(ta, test_array_grow);
	tcase_add_test(ta, test_hugemem);
	tcase_add_test(ta, test_hugemem_grow);
	tcase_add_test(ta, test_hugemem_touch_zeroed);
	tcase_add_test(ta, test_hugemem_grow_discard);
	tcase_add_test(ta, test_hugemem_alloc_grown);
	suite_add_tcase(s, tc);
	tcase_add_test(tr, test_rbtree_insert);
	tcase_add_test(tr, test_rbtree_link_sorted);
	tcase_add_test(tr, test_rbtree_erase);
	tcase_add_test(th, test_hashtab);
	tcase_add_test(th, test_hashtab_mapped);
	/* Under the sanitizers, beside CI's TSan and memcheck runs, a mapped table grown
	 * to 100,000 keys can take seconds. */
	tcase_set_timeout(th, 30);
	suite_add_tcase(s, ta);
	suite_add_tcase(s, tr);
	suite_add_tcase(s, th);
	return s;
}
