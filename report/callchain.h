#ifndef DIRREPORT_REPORT_CALLCHAIN_H
#define DIRREPORT_REPORT_CALLCHAIN_H
/*
 * callchain - the callchains of `perf report` (perf 6.1): the -g parameters, every
 * distinct callchain of a recording stored once, and the call graph of one histogram
 * entry printed as perf's graph, fractal, flat or folded forms.
 *
 * Storage.  A sample's callchain, resolved to frames in the cursor order (caller or
 * callee first, see struct callchain_param), is a path in one trie of frames
 * (struct callchains): each distinct chain is a node, and a sample keeps only that
 * node's id.  Frames are interned: with the `function` key a frame is (dso, symbol),
 * or (dso, address) when unresolved, so chains that differ only in the addresses
 * inside functions share their nodes.
 *
 * Printing.  perf keeps one radix tree of chains per histogram entry and appends
 * every sample to it (in children mode: the chain's suffix to every entry on it).
 * The tree's final shape does not depend on the order chains arrive in: a node ends
 * where chains branch or where a sample's chain ends.  Its text does with the srcline
 * key: perf merges frames of different functions that have one srcline text (e.g.
 * unlink() and execve(), both at syscall-template.S:120), and the node keeps the
 * frame of the entry's first chain there (not the recording's first frame with that
 * text).  callchains__fprintf() builds
 * that tree for one entry from (chain, first frame, period, samples) items, sorts and
 * prunes it as perf does, and prints it.
 *
 * perf orders siblings of equal weight by their first frame: dso (perf compares the
 * dso objects' addresses, which follow their creation order: we use dso->seq), then
 * symbol start, larger first; when one of them is unresolved, by the addresses the
 * entry's first samples had there.
 *
 * Thread safety: a struct callchains belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dso;
struct symbol;

/** Output forms of -g (perf's chain_mode). */
enum callchain_mode {
	CALLCHAIN_NONE = 0,	/* no graphs (-g none) */
	CALLCHAIN_GRAPH_ABS,	/* graph: percentages of the total */
	CALLCHAIN_GRAPH_REL,	/* fractal: percentages of the parent */
	CALLCHAIN_FLAT,		/* one block per chain */
	CALLCHAIN_FOLDED,	/* one line per chain, frames joined by ';' */
};

/** Which end of a chain is printed first. */
enum callchain_order {
	CALLCHAIN_CALLEE = 0,	/* the sampled function first */
	CALLCHAIN_CALLER,	/* the outermost caller first */
};

/** What makes two frames equal. */
enum callchain_key {
	CALLCHAIN_KEY_FUNCTION = 0,	/* the symbol (unresolved: the address) */
	CALLCHAIN_KEY_ADDRESS,		/* the address; printed with its srcline */
	CALLCHAIN_KEY_SRCLINE,		/* the srcline when it has one, else the
					 * function; printed with it */
};

/** The value printed next to a branch. */
enum callchain_value {
	CALLCHAIN_VALUE_PERCENT = 0,
	CALLCHAIN_VALUE_PERIOD,
	CALLCHAIN_VALUE_COUNT,		/* samples */
};

/** perf report's -g argument when -g is given without one. */
#define CALLCHAIN_DEFAULT_OPT "graph,0.5,caller,function,percent"

/** The -g parameters (perf's callchain_param). */
struct callchain_param {
	enum callchain_mode mode;
	double min_percent;		/* threshold, percent */
	uint32_t print_limit;		/* chains or branches per level; 0 = all */
	enum callchain_order order;
	bool order_set;			/* order given explicitly (-g caller/callee) */
	enum callchain_key key;
	enum callchain_value value;
	bool branch;			/* `branch`: callchains from branch stacks (perf's
					 * branch_callstack); changes nothing for
					 * recordings without branch stacks */
};

/** @brief perf's defaults: graph, 0.5, callee, function, percent, no print limit.
 *  Thread safety: pure. */
void callchain_param__init(struct callchain_param *p);

/**
 * @brief Parse a -g/--call-graph argument the way perf report 6.1 does:
 *        comma-separated tokens, each a prefix of a mode (graph, flat, fractal,
 *        folded), an order (callee, caller), a key (function, address, srcline),
 *        `branch`, a value (percent, period, count), else the threshold (first
 *        number) and the print limit (second number).  A token that is a prefix of
 *        "none" turns graphs off and ends parsing.
 * @return 0; -EINVAL for a token perf rejects.
 * Thread safety: pure.  Format: none.
 */
int callchain_param__parse(struct callchain_param *p, const char *arg);

/** One resolved frame of a callchain. */
struct cc_frame {
	struct dso *dso;		/* borrowed; NULL: no map */
	const struct symbol *sym;	/* borrowed; NULL: unresolved */
	uint64_t ip;			/* the address in the chain (for a function
					 * frame: the first one seen) */
	uint64_t sym_unmapped_start;	/* sym->start as a virtual address */
	uint64_t map_start, map_end, map_pgoff;	/* the map (first seen; 0: none) */
	char level;			/* 'k' kernel map, '.' user map, 0 no map */
	uint64_t map_id;		/* an inlined function's frame: its map's
					 * identity (machine.h), which perf's entries
					 * compare (hist-build.c); else 0 */
	const char *srcline;		/* keys address and srcline: the frame's text
					 * (machine/srcline.h, interned; borrowed), NULL
					 * none */
};

struct callchains;
struct workqueue;

/**
 * @brief Create an empty chain store.
 * @param key  what makes frames equal (perf's callchain key)
 * @return 0 or -ENOMEM.  Ownership: *out is the caller's (callchains__delete).
 * Thread safety: the store belongs to one thread.  Format: none.
 */
int callchains__new(struct callchains **out, enum callchain_key key);

/** @brief Free a store (NULL is a no-op). */
void callchains__delete(struct callchains *cc);

/** The empty chain: the node of a sample without frames. */
#define CALLCHAIN_ROOT 0u

/**
 * @brief The chain @p parent followed by frame @p f (interned).
 * @param node  receives the node id of the longer chain
 * @return 0 or -ENOMEM.
 * Thread safety: the store's thread.  Format: none.
 */
int callchains__append(struct callchains *cc, uint32_t parent, const struct cc_frame *f,
		       uint32_t *node);

/**
 * @brief Record, from now on, which sample made each chain node: the position set
 *        with callchains__set_seq() when it was made (callchains__merge() reads it).
 * Thread safety: the store's thread.
 */
void callchains__track_seq(struct callchains *cc);

/**
 * @brief The delivery position of the sample whose frames are appended next (any
 *        increasing numbering of the samples; a tracked store's samples must come in
 *        increasing positions).
 * Thread safety: the store's thread.
 */
void callchains__set_seq(struct callchains *cc, uint64_t seq);

/**
 * @brief Append the chains of the @p n tracked stores @p from to @p into, node by
 *        node in the order the samples made them (by position, then from the root
 *        down): @p into's nodes and frames are numbered, and take the fields of
 *        their first samples, as if one store had taken every sample in order.
 * @param maps  maps[k] (callchains__nr_nodes(from[k]) entries, the caller's)
 *              receives the node of @p into that each node of from[k] became
 * @param wq    the room made for them is faulted in on its workers (NULL: none)
 * @return 0 or -ENOMEM.
 * Thread safety: @p into's thread; @p from are only read.
 */
int callchains__merge(struct callchains *into, struct callchains *const *from, size_t n,
		      uint32_t **maps, struct workqueue *wq);

/** @brief The store's nodes, the root included.  Thread safety: read-only. */
uint32_t callchains__nr_nodes(const struct callchains *cc);

/**
 * @brief Make room for @p n more frames and chain nodes: the next n
 *        callchains__append() calls move none of the store's arrays, so another
 *        thread may read the chains made so far (callchains__depth(),
 *        callchains__frames(), callchains__frame()) while they run.
 * @return 0 or -ENOMEM.
 * Thread safety: the store's thread, while no other thread reads the store.
 */
int callchains__reserve(struct callchains *cc, size_t n);

/**
 * @brief Whether the room callchains__reserve() made holds @p n more frames and
 *        chain nodes.
 * Thread safety: the store's thread (readers of the chains may run meanwhile).
 */
bool callchains__has_room(const struct callchains *cc, size_t n);

/** @brief Number of frames of chain @p node.  Thread safety: read-only. */
uint32_t callchains__depth(const struct callchains *cc, uint32_t node);

/**
 * @brief The frames of chain @p node, in cursor order.
 * @param ids  receives callchains__depth() frame ids
 * Thread safety: read-only.  Format: none.
 */
void callchains__frames(const struct callchains *cc, uint32_t node, uint32_t *ids);

/** @brief Frame @p id (from callchains__frames), owned by the store.
 *  Thread safety: read-only. */
const struct cc_frame *callchains__frame(const struct callchains *cc, uint32_t id);

/**
 * One chain of a histogram entry: frames [skip, depth) of chain @c leaf.  Items must
 * be given in the order of their first samples: perf orders siblings of equal weight
 * partly by the address the first sample had in the frame (ips), and a node merged by
 * srcline text shows the function of the first item there.
 */
struct callchain_item {
	uint32_t leaf;		/* chain node */
	uint32_t skip;		/* frames before the entry's own (children mode) */
	const uint64_t *ips;	/* the first sample's address in every frame of the
				 * chain (depth entries, cursor order); borrowed */
	uint64_t period;	/* sum of the samples' periods */
	uint64_t count;		/* samples */
};

/** How one entry's graph is printed. */
struct callchain_print {
	const struct callchain_param *param;
	uint64_t total;		/* percent base: the event's total period */
	uint64_t parent_total;	/* the entry's period (fractal's base at the top) */
	uint64_t min_hit;	/* graph/flat/folded threshold, in period units */
	bool skip_first;	/* sort order starts with sym: the single top
				 * branch omits its first frame */
	const char *field_sep;	/* folded separator; NULL = ";" */
};

/**
 * @brief Print the call graph of one entry as perf 6.1 `--stdio` does.
 * @param items  the entry's chains (any order; equal chains may repeat)
 * @return 0, or -ENOMEM (nothing is printed then).
 * Thread safety: the store's thread (uses scratch space in it).  Format: none.
 */
int callchains__fprintf(struct callchains *cc, const struct callchain_item *items,
			size_t n, const struct callchain_print *p, FILE *out);

/**
 * @brief A printer of @p cc's call graphs for another thread: callchains__fprintf()
 *        on it reads @p cc's chains and frames and writes only scratch space of its
 *        own, so several printers print entries at once.
 * @return 0 or -ENOMEM.  Ownership: *out is the caller's (callchains__printer_delete);
 *         it borrows @p cc, which must outlive it and not change meanwhile (nothing
 *         counted, nothing printed with @p cc itself).
 * Thread safety: each printer on one thread at a time.  Format: none.
 */
int callchains__printer_new(const struct callchains *cc, struct callchains **out);

/** @brief Free a printer made by callchains__printer_new() (NULL: nothing). */
void callchains__printer_delete(struct callchains *pr);

#endif
