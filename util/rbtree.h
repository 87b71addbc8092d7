#ifndef DIRREPORT_UTIL_RBTREE_H
#define DIRREPORT_UTIL_RBTREE_H
/*
 * rbtree - perf's red-black trees, replayed.
 *
 * perf keeps symbols, histogram entries and call graph branches in red-black trees.
 * Where symbols overlap, its symbol lookup answer depends on the tree's shape
 * (machine/symbol.c); the histogram and call graph trees' comparisons are not always
 * transitive (unresolved addresses compare by the sign of their 64-bit difference;
 * children-mode entries of one thread compare by call graph depth; call graph
 * siblings compare by symbol start or by address depending on whether both are
 * resolved), so the order perf prints, and even which entries it merges, depend on
 * the trees' shapes.  This is a red-black tree over node ids (0 .. cap-1, chosen by
 * the caller) with the textbook insert and erase fix-ups, which is what the kernel's
 * lib/rbtree.c implements: inserting (and erasing) the same nodes in the same order
 * at the same places gives perf's tree.  The caller descends and decides where a
 * node goes; the tree only links, unlinks and rebalances.
 *
 * Thread safety: one tree per thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/** No node (an empty child, the root's parent). */
#define RBTREE_NIL UINT32_MAX

struct rbtree {
	uint32_t *left, *right, *parent;	/* owned, indexed by node id */
	unsigned char *red;			/* owned */
	size_t cap;				/* node ids that fit */
	uint32_t root;				/* RBTREE_NIL when empty */
};

/** @brief An empty tree without storage. */
void rbtree__init(struct rbtree *t);

/** @brief Free the storage; the tree is empty afterwards. */
void rbtree__exit(struct rbtree *t);

/** @brief Make room for node ids 0 .. n-1 (keeps the tree). @return 0 or -ENOMEM.
 *  Thread safety: the tree's thread. */
int rbtree__reserve(struct rbtree *t, size_t n);

/**
 * @brief Link node z as the left or right child of p (RBTREE_NIL: z becomes the root
 *        of an empty tree) and rebalance.
 * @param z  a node id below the reserved capacity, not in the tree
 */
void rbtree__link(struct rbtree *t, uint32_t z, uint32_t p, bool left);

/**
 * @brief Make the tree hold the @p n nodes @p ids, in that order (the tree is emptied
 *        first): each linked as the right child of the one before, which is the
 *        tree's last node (the shape perf's tree would have after inserting them in
 *        that order with a comparison they are sorted by).
 * @param ids  node ids below the reserved capacity
 * Thread safety: the tree's thread.
 */
void rbtree__link_sorted(struct rbtree *t, const uint32_t *ids, size_t n);

/**
 * @brief Unlink node z from the tree and rebalance: textbook red-black delete, z
 *        replaced by its in-order successor when it has two children (the kernel's
 *        rb_erase takes the same steps, so replaying perf's insertions and erasures
 *        in their order gives perf's tree).
 * @param z  a node of the tree; afterwards not in it (its id may be linked again)
 * Thread safety: the tree's thread.
 */
void rbtree__erase(struct rbtree *t, uint32_t z);

/**
 * @brief The nodes in order (leftmost first).
 * @param out, stack  room for every node of the tree
 * @return number of nodes written.
 */
size_t rbtree__inorder(const struct rbtree *t, uint32_t *out, uint32_t *stack);

#endif
