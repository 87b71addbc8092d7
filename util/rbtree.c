#include "util/rbtree.h"

#include <errno.h>
#include <stdlib.h>	/* free, realloc */
#include <string.h>	/* memset */

#include "banned.h"

void rbtree__init(struct rbtree *t)
{
	memset(t, 0, sizeof(*t));
	t->root = RBTREE_NIL;
}

void rbtree__exit(struct rbtree *t)
{
	free(t->left);
	free(t->right);
	free(t->parent);
	free(t->red);
	rbtree__init(t);
}

int rbtree__reserve(struct rbtree *t, size_t n)
{
	size_t cap = t->cap ? t->cap : 64;
	void *l, *r, *p, *c;

	if (n <= t->cap)
		return 0;
	while (cap < n)
		cap *= 2;
	l = realloc(t->left, cap * sizeof(uint32_t));
	if (l)
		t->left = l;
	r = realloc(t->right, cap * sizeof(uint32_t));
	if (r)
		t->right = r;
	p = realloc(t->parent, cap * sizeof(uint32_t));
	if (p)
		t->parent = p;
	c = realloc(t->red, cap);
	if (c)
		t->red = c;
	if (!l || !r || !p || !c)
		return -ENOMEM;
	t->cap = cap;
	return 0;
}

/* Rotate x down to the left (its right child comes up) or to the right. */
static void rotate(struct rbtree *t, uint32_t x, bool left)
{
	uint32_t *a = left ? t->right : t->left, *b = left ? t->left : t->right;
	uint32_t y = a[x], p = t->parent[x];

	a[x] = b[y];
	if (b[y] != RBTREE_NIL)
		t->parent[b[y]] = x;
	t->parent[y] = p;
	if (p == RBTREE_NIL)
		t->root = y;
	else if (t->left[p] == x)
		t->left[p] = y;
	else
		t->right[p] = y;
	b[y] = x;
	t->parent[x] = y;
}

void rbtree__link_sorted(struct rbtree *t, const uint32_t *ids, size_t n)
{
	t->root = RBTREE_NIL;
	for (size_t i = 0; i < n; i++)
		rbtree__link(t, ids[i], i ? ids[i - 1] : RBTREE_NIL, false);
}

void rbtree__link(struct rbtree *t, uint32_t z, uint32_t p, bool left)
{
	t->left[z] = t->right[z] = RBTREE_NIL;
	t->parent[z] = p;
	t->red[z] = 1;
	if (p == RBTREE_NIL)
		t->root = z;
	else if (left)
		t->left[p] = z;
	else
		t->right[p] = z;
	while (t->parent[z] != RBTREE_NIL && t->red[t->parent[z]]) {
		uint32_t q = t->parent[z], g = t->parent[q];
		bool qleft = t->left[g] == q;
		uint32_t u = qleft ? t->right[g] : t->left[g];

		if (u != RBTREE_NIL && t->red[u]) {	/* red uncle: recolour, go up */
			t->red[q] = t->red[u] = 0;
			t->red[g] = 1;
			z = g;
			continue;
		}
		if (z == (qleft ? t->right[q] : t->left[q])) {	/* inner grandchild */
			z = q;
			rotate(t, z, qleft);
			q = t->parent[z];
		}
		t->red[q] = 0;
		t->red[g] = 1;
		rotate(t, g, !qleft);
	}
	t->red[t->root] = 0;
}

size_t rbtree__inorder(const struct rbtree *t, uint32_t *out, uint32_t *stack)
{
	size_t k = 0, sp = 0;

	for (uint32_t x = t->root; x != RBTREE_NIL || sp;) {
		if (x != RBTREE_NIL) {
			stack[sp++] = x;
			x = t->left[x];
			continue;
		}
		x = stack[--sp];
		out[k++] = x;
		x = t->right[x];
	}
	return k;
}

static uint32_t subtree_min(const struct rbtree *t, uint32_t x)
{
	while (t->left[x] != RBTREE_NIL)
		x = t->left[x];
	return x;
}

/* Put v (may be NIL) where u hangs. */
static void transplant(struct rbtree *t, uint32_t u, uint32_t v)
{
	uint32_t p = t->parent[u];

	if (p == RBTREE_NIL)
		t->root = v;
	else if (u == t->left[p])
		t->left[p] = v;
	else
		t->right[p] = v;
	if (v != RBTREE_NIL)
		t->parent[v] = p;
}

static bool is_red(const struct rbtree *t, uint32_t x)
{
	return x != RBTREE_NIL && t->red[x];
}

/* Restore the colours after removing a black node: x (may be NIL) took its place
 * under xp. */
static void erase_fixup(struct rbtree *t, uint32_t x, uint32_t xp)
{
	while (x != t->root && !is_red(t, x)) {
		bool xleft = x == t->left[xp];
		uint32_t *near = xleft ? t->left : t->right;	/* x's side */
		uint32_t *far = xleft ? t->right : t->left;
		uint32_t w = far[xp];

		if (is_red(t, w)) {
			t->red[w] = 0;
			t->red[xp] = 1;
			rotate(t, xp, xleft);
			w = far[xp];
		}
		if (!is_red(t, near[w]) && !is_red(t, far[w])) {
			t->red[w] = 1;
			x = xp;
			xp = t->parent[x];
			continue;
		}
		if (!is_red(t, far[w])) {
			t->red[near[w]] = 0;
			t->red[w] = 1;
			rotate(t, w, !xleft);
			w = far[xp];
		}
		t->red[w] = t->red[xp];
		t->red[xp] = 0;
		t->red[far[w]] = 0;
		rotate(t, xp, xleft);
		x = t->root;
	}
	if (x != RBTREE_NIL)
		t->red[x] = 0;
}

void rbtree__erase(struct rbtree *t, uint32_t z)
{
	uint32_t x, xp, y = z;
	bool y_red = t->red[y];

	if (t->left[z] == RBTREE_NIL) {
		x = t->right[z];
		xp = t->parent[z];
		transplant(t, z, x);
	} else if (t->right[z] == RBTREE_NIL) {
		x = t->left[z];
		xp = t->parent[z];
		transplant(t, z, x);
	} else {
		y = subtree_min(t, t->right[z]);
		y_red = t->red[y];
		x = t->right[y];
		if (t->parent[y] == z) {
			xp = y;
		} else {
			xp = t->parent[y];
			transplant(t, y, x);
			t->right[y] = t->right[z];
			t->parent[t->right[y]] = y;
		}
		transplant(t, z, y);
		t->left[y] = t->left[z];
		t->parent[t->left[y]] = y;
		t->red[y] = t->red[z];
	}
	if (!y_red && xp != RBTREE_NIL)
		erase_fixup(t, x, xp);
	else if (x != RBTREE_NIL)
		t->red[x] = 0;
	t->left[z] = t->right[z] = t->parent[z] = RBTREE_NIL;
	if (t->root != RBTREE_NIL)
		t->red[t->root] = 0;
}
