#include "report/callchain.h"

#include <errno.h>
#include <inttypes.h>	/* PRIx64, PRIu64 */
#include <stdlib.h>	/* calloc, free, malloc, qsort_r, realloc, strtod, strtoul */
#include <string.h>	/* memset, strdup, strlen, strncmp, strtok_r */

#include "format/record.h"
#include "machine/dso.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/hugemem.h"
#include "util/workqueue.h"
#include "util/strtab.h"
#include "util/rbtree.h"
#include "machine/symbol.h"
#include "banned.h"

/* perf formats a frame's name into a 1024-byte buffer (scnprintf). */
#define NAME_MAX_LEN 1023

/* ---- parameters --------------------------------------------------------------- */

void callchain_param__init(struct callchain_param *p)
{
	*p = (struct callchain_param){
		.mode = CALLCHAIN_GRAPH_ABS,
		.min_percent = 0.5,
		.order = CALLCHAIN_CALLEE,
		.key = CALLCHAIN_KEY_FUNCTION,
		.value = CALLCHAIN_VALUE_PERCENT,
	};
}

/* perf's strncmp(tok, word, strlen(tok)): tok is a prefix of word. */
static bool is_prefix(const char *tok, const char *word)
{
	return !strncmp(tok, word, strlen(tok));
}

/* One keyword token: 1 if it was one, 0 if not, negative if unsupported. */
static int parse_keyword(struct callchain_param *p, const char *tok)
{
	static const struct { const char *word; int mode; } modes[] = {
		{ "graph", CALLCHAIN_GRAPH_ABS }, { "flat", CALLCHAIN_FLAT },
		{ "fractal", CALLCHAIN_GRAPH_REL }, { "folded", CALLCHAIN_FOLDED },
	};

	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (is_prefix(tok, modes[i].word)) {
			p->mode = (enum callchain_mode)modes[i].mode;
			return 1;
		}
	}
	if (is_prefix(tok, "callee") || is_prefix(tok, "caller")) {
		p->order = is_prefix(tok, "callee") ? CALLCHAIN_CALLEE : CALLCHAIN_CALLER;
		p->order_set = true;
		return 1;
	}
	if (is_prefix(tok, "function")) {
		p->key = CALLCHAIN_KEY_FUNCTION;
		return 1;
	}
	if (is_prefix(tok, "address")) {
		p->key = CALLCHAIN_KEY_ADDRESS;
		return 1;
	}
	if (is_prefix(tok, "srcline")) {
		p->key = CALLCHAIN_KEY_SRCLINE;
		return 1;
	}
	if (is_prefix(tok, "branch")) {
		p->branch = true;
		return 1;
	}
	if (is_prefix(tok, "percent") || is_prefix(tok, "period") ||
	    is_prefix(tok, "count")) {
		p->value = is_prefix(tok, "percent") ? CALLCHAIN_VALUE_PERCENT :
			   is_prefix(tok, "period") ? CALLCHAIN_VALUE_PERIOD :
						      CALLCHAIN_VALUE_COUNT;
		return 1;
	}
	return 0;
}

int callchain_param__parse(struct callchain_param *p, const char *arg)
{
	char *copy = strdup(arg), *save = NULL, *tok, *end;
	bool min_set = false;
	int err = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ",", &save); tok && !err;
	     tok = strtok_r(NULL, ",", &save)) {
		int k;

		if (is_prefix(tok, "none")) {
			p->mode = CALLCHAIN_NONE;
			break;
		}
		k = parse_keyword(p, tok);
		if (k < 0) {
			err = k;
		} else if (k == 0 && !min_set) {
			p->min_percent = strtod(tok, &end);
			err = end == tok ? -EINVAL : 0;
			min_set = true;
		} else if (k == 0) {
			p->print_limit = (uint32_t)strtoul(tok, &end, 0);
			err = end == tok ? -EINVAL : 0;
		}
	}
	free(copy);
	return err;
}

/* ---- the chain store ------------------------------------------------------------ */

struct cc_node {
	uint32_t parent;	/* node id; the root's is itself */
	uint32_t frame;		/* frame id */
	uint32_t depth;		/* frames from the root */
};

/* One node of an entry's tree: one frame.  perf's nodes are runs of these (a run
 * ends where a chain ends or the tree branches). */
struct et_node {
	uint32_t key;			/* the frame's match id: what perf compares */
	uint32_t frame, parent;		/* frame: the first item's, printed (perf
					 * keeps the first chain's frame of a node) */
	uint64_t ip;			/* the first sample's address here */
	uint32_t kids, nr_kids;		/* children: kids[kids .. kids + nr_kids) */
	uint64_t hit, count;		/* chains ending here: period, samples */
	uint64_t cumul, cumul_count;	/* this node and below */
};

struct callchains {
	enum callchain_key key;
	struct cc_frame *frames;
	uint32_t nr_frames;
	size_t cap_frames;
	uint32_t *match;		/* per frame: the first frame perf's call
					 * graphs take as equal (srcline key: same
					 * text), else itself */
	size_t cap_match;
	uint32_t *shash;		/* srcline key: frame id + 1 by srcline */
	size_t shash_cap, nr_shash;
	uint32_t *ihash;		/* function key: inlined frames (id + 1) by
					 * name */
	size_t ihash_cap, nr_ihash;
	struct hashtab_slot *fhash;	/* frames (idx1: id + 1) */
	size_t fhash_cap;
	struct cc_node *nodes;		/* nodes[0] is the root */
	uint32_t nr_nodes;
	size_t cap_nodes;
	size_t frames_mapped, match_mapped, nodes_mapped;	/* util/hugemem.h */
	size_t fhash_mapped, nhash_mapped;
	struct hashtab_slot *nhash;	/* nodes (idx1: the id; the root is never
					 * in) */
	size_t nhash_cap;
	/* per node: the child callchains__append() gave last, and its frame (child 0:
	 * none) - consecutive chains mostly take the same way down, so this one check
	 * replaces the frame's and the node's hash lookups (four cache misses in tables
	 * of megabytes; the bench file's counter spent 60 % of its CPU there).  The
	 * appending thread's alone (never read by the store's readers). */
	struct last_child {
		uint32_t frame, child;
	} *last;
	size_t cap_last, last_mapped;
	/* callchains__track_seq(): per node, the delivery position of the sample that
	 * made it (cur_seq when it was made) */
	uint64_t *node_seq;
	size_t cap_node_seq, node_seq_mapped;
	uint64_t cur_seq;
	bool track_seq;
	/* printing scratch, reused for every entry */
	uint32_t *memo, *memo_stamp;	/* per chain node: entry tree node, stamp */
	uint32_t *memo_skip;		/* ... and the item's skip it holds for */
	uint32_t memo_cap, stamp;
	struct et_node *et;
	uint32_t nr_et;
	size_t cap_et;
	uint32_t *ethash;		/* et index; 0 = empty (the root is never in) */
	size_t ethash_cap;
	uint32_t *kids;
	uint32_t *stack;
	size_t cap_stack;
	struct rbtree kid_tree;		/* siblings' order, replayed */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdULL;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ULL;
	return x ^ (x >> 33);
}

/* perf's match_chain(): the srcline key compares texts (of any dso) when a frame
 * has one, functions otherwise (like the function key). */
static bool by_function(const struct callchains *cc)
{
	return cc->key == CALLCHAIN_KEY_FUNCTION || cc->key == CALLCHAIN_KEY_SRCLINE;
}

/* Frames are interned by function (or address) and, with the srcline key, srcline:
 * a sample's frames stay exact (its children entries use them); frames that perf's
 * call graphs merge share a match id (see intern_frame()). */
static uint64_t frame_hash(const struct callchains *cc, const struct cc_frame *f)
{
	uint64_t v = by_function(cc) && f->sym ? (uint64_t)(uintptr_t)f->sym : ~f->ip;

	return mix((uint64_t)(uintptr_t)f->dso * 0x9E3779B97F4A7C15ULL ^ v ^
		   (uint64_t)(uintptr_t)f->srcline ^ mix(f->map_id));
}

static bool frame_eq(const struct callchains *cc, const struct cc_frame *a,
		     const struct cc_frame *b)
{
	if (a->dso != b->dso || a->srcline != b->srcline ||	/* interned */
	    a->map_id != b->map_id)
		return false;
	if (by_function(cc) && (a->sym || b->sym))
		return a->sym == b->sym;
	return a->ip == b->ip;
}

static uint64_t node_hash(uint32_t parent, uint32_t frame)
{
	return mix(((uint64_t)parent << 32) | frame);
}

/* array__grow() for the arrays indexed by uint32_t ids. */
static int grow(void *pv, size_t *cap, size_t n, size_t sz)
{
	if (n > UINT32_MAX / 2)
		return -ENOMEM;
	return array__grow(pv, cap, n, sz, 64);
}

/* ... and for the store's own (megabytes: util/hugemem.h). */
static int grow_mapped(void *pv, size_t *cap, size_t *mapped, size_t n, size_t sz)
{
	if (n > UINT32_MAX / 2)
		return -ENOMEM;
	return hugemem__grow(pv, cap, mapped, n, sz, 64);
}

int callchains__new(struct callchains **out, enum callchain_key key)
{
	struct callchains *cc = calloc(1, sizeof(*cc));

	*out = NULL;
	if (!cc)
		return -ENOMEM;
	cc->key = key;
	rbtree__init(&cc->kid_tree);
	if (grow_mapped(&cc->nodes, &cc->cap_nodes, &cc->nodes_mapped, 1, sizeof(*cc->nodes))) {
		free(cc);
		return -ENOMEM;
	}
	cc->nodes[0] = (struct cc_node){ 0 };
	cc->nr_nodes = 1;
	*out = cc;
	return 0;
}

void callchains__delete(struct callchains *cc)
{
	if (!cc)
		return;
	hugemem__free(cc->frames, cc->frames_mapped);
	hugemem__free(cc->match, cc->match_mapped);
	free(cc->shash);
	free(cc->ihash);
	hugemem__free(cc->fhash, cc->fhash_mapped);
	hugemem__free(cc->nodes, cc->nodes_mapped);
	hugemem__free(cc->nhash, cc->nhash_mapped);
	hugemem__free(cc->last, cc->last_mapped);
	hugemem__free(cc->node_seq, cc->node_seq_mapped);
	callchains__printer_delete(cc);
}

/* A printer is a copy of the store's struct whose scratch space is its own: the
 * rest (frames, nodes, hashes) is the store's, read only. */
int callchains__printer_new(const struct callchains *cc, struct callchains **out)
{
	struct callchains *pr = malloc(sizeof(*pr));

	*out = NULL;
	if (!pr)
		return -ENOMEM;
	*pr = *cc;
	pr->last = NULL;	/* the appending thread's */
	pr->cap_last = pr->last_mapped = 0;
	pr->node_seq = NULL;
	pr->cap_node_seq = pr->node_seq_mapped = 0;
	pr->memo = pr->memo_stamp = pr->memo_skip = NULL;
	pr->memo_cap = pr->stamp = 0;
	pr->et = NULL;
	pr->nr_et = 0;
	pr->cap_et = 0;
	pr->ethash = NULL;
	pr->ethash_cap = 0;
	pr->kids = pr->stack = NULL;
	pr->cap_stack = 0;
	rbtree__init(&pr->kid_tree);
	*out = pr;
	return 0;
}

/* The scratch space, and the struct (the store's own, or a printer's). */
void callchains__printer_delete(struct callchains *pr)
{
	if (!pr)
		return;
	free(pr->memo);
	free(pr->memo_stamp);
	free(pr->memo_skip);
	free(pr->et);
	free(pr->ethash);
	free(pr->kids);
	free(pr->stack);
	rbtree__exit(&pr->kid_tree);
	free(pr);
}

/* The hashes of the id tables' slots (util/hashtab.h): frame ids + 1, node ids. */
static uint64_t srcline_slot_hash(const void *ctx, const void *slot)
{
	const struct callchains *cc = ctx;

	return mix((uint64_t)(uintptr_t)cc->frames[*(const uint32_t *)slot - 1].srcline);
}

/* The srcline key: frame id's match is the first frame with its srcline. */
static int match_srcline(struct callchains *cc, uint32_t id)
{
	const char *text = cc->frames[id].srcline;
	size_t i;

	if (hashtab__reserve(&cc->shash, &cc->shash_cap, cc->nr_shash, sizeof(*cc->shash),
			     256, srcline_slot_hash, cc))
		return -ENOMEM;
	i = hashtab__first(mix((uint64_t)(uintptr_t)text), cc->shash_cap);
	for (; cc->shash[i]; i = hashtab__next(i, cc->shash_cap)) {
		if (cc->frames[cc->shash[i] - 1].srcline == text) {
			cc->match[id] = cc->shash[i] - 1;
			return 0;
		}
	}
	cc->shash[i] = id + 1;
	cc->nr_shash++;
	return 0;
}

static uint64_t inline_slot_hash(const void *ctx, const void *slot)
{
	const struct callchains *cc = ctx;

	return str__hash(cc->frames[*(const uint32_t *)slot - 1].sym->name);
}

/* The function key: an inlined function's frame matches the first inlined frame of
 * its name, whatever its dso or the symbol it was inlined into (perf's match_chain()
 * compares inlined functions by name). */
static int match_inline(struct callchains *cc, uint32_t id)
{
	const char *name = cc->frames[id].sym->name;
	size_t i;

	if (hashtab__reserve(&cc->ihash, &cc->ihash_cap, cc->nr_ihash, sizeof(*cc->ihash),
			     256, inline_slot_hash, cc))
		return -ENOMEM;
	i = hashtab__first(str__hash(name), cc->ihash_cap);
	for (; cc->ihash[i]; i = hashtab__next(i, cc->ihash_cap)) {
		if (!strcmp(cc->frames[cc->ihash[i] - 1].sym->name, name)) {
			cc->match[id] = cc->ihash[i] - 1;
			return 0;
		}
	}
	cc->ihash[i] = id + 1;
	cc->nr_ihash++;
	return 0;
}

static int intern_frame(struct callchains *cc, const struct cc_frame *f, uint32_t *id)
{
	uint32_t hash;
	size_t i;

	if (hashtab__reserve_mapped(&cc->fhash, &cc->fhash_cap, &cc->fhash_mapped,
				    cc->nr_frames, sizeof(*cc->fhash), 1024, hashtab__kept_hash,
				    cc))
		return -ENOMEM;
	hash = (uint32_t)frame_hash(cc, f);
	i = hashtab__first(hash, cc->fhash_cap);
	while (cc->fhash[i].idx1) {
		if (cc->fhash[i].hash == hash &&
		    frame_eq(cc, &cc->frames[cc->fhash[i].idx1 - 1], f)) {
			*id = cc->fhash[i].idx1 - 1;
			return 0;
		}
		i = hashtab__next(i, cc->fhash_cap);
	}
	if (grow_mapped(&cc->frames, &cc->cap_frames, &cc->frames_mapped, cc->nr_frames + 1,
		 sizeof(*cc->frames)) ||
	    grow_mapped(&cc->match, &cc->cap_match, &cc->match_mapped, cc->nr_frames + 1,
		 sizeof(*cc->match)))
		return -ENOMEM;
	cc->frames[cc->nr_frames] = *f;
	*id = cc->nr_frames++;
	cc->fhash[i] = (struct hashtab_slot){ *id + 1, hash };
	cc->match[*id] = *id;
	if (cc->key == CALLCHAIN_KEY_SRCLINE && f->srcline)
		return match_srcline(cc, *id);
	if (cc->key == CALLCHAIN_KEY_FUNCTION && f->sym && f->sym->inlined)
		return match_inline(cc, *id);
	return 0;
}

int callchains__append(struct callchains *cc, uint32_t parent, const struct cc_frame *f,
		       uint32_t *node)
{
	uint32_t frame, hash;
	size_t i;

	if (parent < cc->cap_last && cc->last[parent].child &&
	    frame_eq(cc, &cc->frames[cc->last[parent].frame], f)) {
		/* the frame intern_frame() gives f (no two interned frames are equal),
		 * and the node of (parent, frame) */
		*node = cc->last[parent].child;
		return 0;
	}
	if (parent >= cc->cap_last &&
	    hugemem__grow_zeroed(&cc->last, &cc->cap_last, &cc->last_mapped,
				 (size_t)parent + 1, sizeof(*cc->last), 1024))
		return -ENOMEM;
	if (intern_frame(cc, f, &frame))
		return -ENOMEM;
	if (hashtab__reserve_mapped(&cc->nhash, &cc->nhash_cap, &cc->nhash_mapped,
				    cc->nr_nodes, sizeof(*cc->nhash), 1024, hashtab__kept_hash,
				    cc))
		return -ENOMEM;
	hash = (uint32_t)node_hash(parent, frame);
	i = hashtab__first(hash, cc->nhash_cap);
	for (; cc->nhash[i].idx1; i = hashtab__next(i, cc->nhash_cap)) {
		const struct cc_node *n = &cc->nodes[cc->nhash[i].idx1];

		if (cc->nhash[i].hash == hash && n->parent == parent && n->frame == frame) {
			*node = cc->nhash[i].idx1;
			cc->last[parent] = (struct last_child){ frame, *node };
			return 0;
		}
	}
	if (grow_mapped(&cc->nodes, &cc->cap_nodes, &cc->nodes_mapped, cc->nr_nodes + 1, sizeof(*cc->nodes)))
		return -ENOMEM;
	if (cc->track_seq) {
		if (grow_mapped(&cc->node_seq, &cc->cap_node_seq, &cc->node_seq_mapped,
				cc->nr_nodes + 1, sizeof(*cc->node_seq)))
			return -ENOMEM;
		cc->node_seq[cc->nr_nodes] = cc->cur_seq;
	}
	cc->nodes[cc->nr_nodes] = (struct cc_node){
		.parent = parent, .frame = frame, .depth = cc->nodes[parent].depth + 1,
	};
	*node = cc->nr_nodes++;
	cc->nhash[i] = (struct hashtab_slot){ *node, hash };
	cc->last[parent] = (struct last_child){ frame, *node };
	return 0;
}

void callchains__track_seq(struct callchains *cc)
{
	cc->track_seq = true;
}

void callchains__set_seq(struct callchains *cc, uint64_t seq)
{
	cc->cur_seq = seq;
}

/* Whether node i of store a was made before node j of store b (both tracked): by
 * the sample, then (one sample's nodes) from the root down. */
static bool made_before(const struct callchains *a, uint32_t i, const struct callchains *b,
			uint32_t j)
{
	if (a->node_seq[i] != b->node_seq[j])
		return a->node_seq[i] < b->node_seq[j];
	return a->nodes[i].depth < b->nodes[j].depth;
}

/* Room for @p nodes more nodes and @p frames more frames in every array and table
 * of @p cc, their pages faulted in on the workers of @p wq (util/hugemem.h). */
static int merge_room(struct callchains *cc, struct workqueue *wq, size_t nodes,
		      size_t frames)
{
	size_t nn = cc->nr_nodes + nodes, nf = cc->nr_frames + frames;
	struct cc_node root = cc->nodes[0];
	struct hugemem_span sp[6];
	int err;

	if (nn > UINT32_MAX / 2 || nf > UINT32_MAX / 2)
		return -ENOMEM;
	/* a store with nothing but its root (the report's, before its merge) has
	 * nothing to copy: a copy's first write faults a fresh huge page in here */
	if (cc->nr_frames == 0 && cc->nr_nodes == 1 &&
	    (hugemem__grow_discard(&cc->frames, &cc->cap_frames, &cc->frames_mapped, nf,
				   sizeof(*cc->frames), 64) ||
	     hugemem__grow_discard(&cc->match, &cc->cap_match, &cc->match_mapped, nf,
				   sizeof(*cc->match), 64) ||
	     hugemem__grow_discard(&cc->nodes, &cc->cap_nodes, &cc->nodes_mapped, nn,
				   sizeof(*cc->nodes), 64)))
		return -ENOMEM;
	if (grow_mapped(&cc->frames, &cc->cap_frames, &cc->frames_mapped, nf,
			sizeof(*cc->frames)) ||
	    grow_mapped(&cc->match, &cc->cap_match, &cc->match_mapped, nf, sizeof(*cc->match)) ||
	    grow_mapped(&cc->nodes, &cc->cap_nodes, &cc->nodes_mapped, nn, sizeof(*cc->nodes)) ||
	    hugemem__grow_zeroed(&cc->last, &cc->cap_last, &cc->last_mapped, nn,
				 sizeof(*cc->last), 1024) ||
	    hashtab__reserve_mapped(&cc->fhash, &cc->fhash_cap, &cc->fhash_mapped, nf,
				    sizeof(*cc->fhash), 1024, hashtab__kept_hash, cc) ||
	    hashtab__reserve_mapped(&cc->nhash, &cc->nhash_cap, &cc->nhash_mapped, nn,
				    sizeof(*cc->nhash), 1024, hashtab__kept_hash, cc))
		return -ENOMEM;
	/* up to the most they may hold, not their capacities */
	sp[0] = (struct hugemem_span){ cc->frames + cc->nr_frames, frames * sizeof(*cc->frames) };
	sp[1] = (struct hugemem_span){ cc->match + cc->nr_frames, frames * sizeof(*cc->match) };
	sp[2] = (struct hugemem_span){ cc->nodes, nn * sizeof(*cc->nodes) };
	sp[3] = (struct hugemem_span){ cc->last, nn * sizeof(*cc->last) };
	sp[4] = (struct hugemem_span){ cc->fhash, cc->fhash_cap * sizeof(*cc->fhash) };
	sp[5] = (struct hugemem_span){ cc->nhash, cc->nhash_cap * sizeof(*cc->nhash) };
	err = hugemem__populate(wq, sp, 6);
	cc->nodes[0] = root;
	return err;
}

int callchains__merge(struct callchains *into, struct callchains *const *from, size_t n,
		      uint32_t **maps, struct workqueue *wq)
{
	size_t *at = calloc(n ? n : 1, sizeof(*at)), nodes = 0, frames = 0;
	int err = 0;

	if (!at)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		nodes += from[k]->nr_nodes - 1;
		frames += from[k]->nr_frames;
	}
	/* at most all of theirs: room made once (doubling copied the arrays and
	 * rehashed the tables on this thread, 30 ms of the bench directory's merge),
	 * and its pages faulted in on the workers (30 ms more) */
	if ((err = merge_room(into, wq, nodes, frames))) {
		free(at);
		return err;
	}
	for (size_t k = 0; k < n; k++) {
		at[k] = 1;	/* the root is the root */
		maps[k][CALLCHAIN_ROOT] = CALLCHAIN_ROOT;
	}
	for (;;) {
		size_t best = n;

		for (size_t k = 0; k < n; k++)
			if (at[k] < from[k]->nr_nodes &&
			    (best == n || made_before(from[k], (uint32_t)at[k], from[best],
						      (uint32_t)at[best])))
				best = k;
		if (best == n)
			break;
		{
			const struct callchains *f = from[best];
			const struct cc_node *nd = &f->nodes[at[best]];

			/* the node's parent was made before it: mapped already */
			err = callchains__append(into, maps[best][nd->parent],
						 &f->frames[nd->frame], &maps[best][at[best]]);
			if (err)
				break;
			at[best]++;
		}
	}
	free(at);
	return err;
}

uint32_t callchains__nr_nodes(const struct callchains *cc)
{
	return cc->nr_nodes;
}

int callchains__reserve(struct callchains *cc, size_t n)
{
	if (n > UINT32_MAX / 2)
		return -ENOMEM;
	if (grow_mapped(&cc->frames, &cc->cap_frames, &cc->frames_mapped, cc->nr_frames + n, sizeof(*cc->frames)) ||
	    grow_mapped(&cc->match, &cc->cap_match, &cc->match_mapped, cc->nr_frames + n, sizeof(*cc->match)) ||
	    grow_mapped(&cc->nodes, &cc->cap_nodes, &cc->nodes_mapped, cc->nr_nodes + n, sizeof(*cc->nodes)))
		return -ENOMEM;
	return 0;
}

bool callchains__has_room(const struct callchains *cc, size_t n)
{
	return cc->cap_frames - cc->nr_frames >= n && cc->cap_match - cc->nr_frames >= n &&
	       cc->cap_nodes - cc->nr_nodes >= n;
}

uint32_t callchains__depth(const struct callchains *cc, uint32_t node)
{
	return cc->nodes[node].depth;
}

void callchains__frames(const struct callchains *cc, uint32_t node, uint32_t *ids)
{
	for (uint32_t d = cc->nodes[node].depth; d > 0; d--) {
		ids[d - 1] = cc->nodes[node].frame;
		node = cc->nodes[node].parent;
	}
}

const struct cc_frame *callchains__frame(const struct callchains *cc, uint32_t id)
{
	return &cc->frames[id];
}

/* ---- one entry's tree --------------------------------------------------------- */

static uint64_t et_hash(uint32_t parent, uint32_t frame)
{
	return node_hash(parent, frame) ^ 0x5555;
}

static uint64_t et_slot_hash(const void *ctx, const void *slot)
{
	const struct callchains *cc = ctx;
	const struct et_node *n = &cc->et[*(const uint32_t *)slot];

	return et_hash(n->parent, n->key);
}

/* The child of et node `parent` for match id `key`, created with `frame` if needed;
 * UINT32_MAX on ENOMEM. */
static uint32_t et_findnew(struct callchains *cc, uint32_t parent, uint32_t key,
			   uint32_t frame)
{
	size_t i;

	if (hashtab__reserve(&cc->ethash, &cc->ethash_cap, cc->nr_et, sizeof(*cc->ethash),
			     64, et_slot_hash, cc))
		return UINT32_MAX;
	i = hashtab__first(et_hash(parent, key), cc->ethash_cap);
	while (cc->ethash[i]) {
		const struct et_node *n = &cc->et[cc->ethash[i]];

		if (n->parent == parent && n->key == key)
			return cc->ethash[i];
		i = hashtab__next(i, cc->ethash_cap);
	}
	if (grow(&cc->et, &cc->cap_et, cc->nr_et + 1, sizeof(*cc->et)))
		return UINT32_MAX;
	cc->et[cc->nr_et] = (struct et_node){
		.key = key, .frame = frame, .parent = parent,
		.ip = cc->frames[frame].ip,
	};
	cc->ethash[i] = cc->nr_et;
	return cc->nr_et++;
}

/* The tree node of chain node v under `parent`; a new one takes v's frame (with the
 * srcline key, frames of one text merge: the node shows the first item's function,
 * as perf's node keeps the first chain's entry) and v's address in the item's first
 * sample. */
static uint32_t et_place(struct callchains *cc, uint32_t parent, uint32_t v,
			 const uint64_t *ips)
{
	uint32_t frame = cc->nodes[v].frame, before = cc->nr_et,
		 n = et_findnew(cc, parent, cc->match[frame], frame);

	if (n != UINT32_MAX && n >= before && ips)
		cc->et[n].ip = ips[cc->nodes[v].depth - 1];
	return n;
}

static int et_reset(struct callchains *cc)
{
	uint32_t cap = 64;

	if (grow(&cc->et, &cc->cap_et, 1, sizeof(*cc->et)))
		return -ENOMEM;
	cc->et[0] = (struct et_node){
		.key = UINT32_MAX, .frame = UINT32_MAX, .parent = UINT32_MAX,
	};
	cc->nr_et = 1;
	if (cc->ethash_cap != cap) {
		free(cc->ethash);
		cc->ethash = calloc(cap, sizeof(*cc->ethash));
		if (!cc->ethash) {
			cc->ethash_cap = 0;
			return -ENOMEM;
		}
		cc->ethash_cap = cap;
	} else {
		memset(cc->ethash, 0, cap * sizeof(*cc->ethash));
	}
	if (cc->memo_cap < cc->nr_nodes) {
		uint32_t c = cc->nr_nodes;

		free(cc->memo);
		free(cc->memo_stamp);
		free(cc->memo_skip);
		cc->memo = malloc(c * sizeof(*cc->memo));
		cc->memo_stamp = calloc(c, sizeof(*cc->memo_stamp));
		cc->memo_skip = malloc(c * sizeof(*cc->memo_skip));
		cc->memo_cap = cc->memo && cc->memo_stamp && cc->memo_skip ? c : 0;
		cc->stamp = 0;
		if (!cc->memo_cap)
			return -ENOMEM;
	}
	if (cc->stamp == UINT32_MAX) {
		memset(cc->memo_stamp, 0, cc->memo_cap * sizeof(*cc->memo_stamp));
		cc->stamp = 0;
	}
	cc->stamp++;
	return 0;
}

/*
 * Add frames [skip, depth) of chain `leaf` to the entry's tree.  Chain nodes already
 * placed for this entry from the same start (memo) are not walked again: from one
 * start, a chain node always lands on the same tree node.  Usually an entry has one
 * start per chain (perf counts a sample once per entry, at the outermost frame of
 * the entry, or the whole chain for the sample's own entry); with keys perf compares
 * against a partly filled entry (socket, time) it has several.  Items come in the
 * order of their first samples, so a tree node takes its address from the first
 * item that creates it.
 */
static int et_add(struct callchains *cc, const struct callchain_item *it)
{
	uint32_t st = cc->stamp, v = it->leaf, sp = 0, base;

	if (cc->nodes[v].depth <= it->skip)
		return 0;	/* no frames: perf appends nothing */
	if (grow(&cc->stack, &cc->cap_stack, cc->nodes[v].depth,
		 sizeof(*cc->stack)))
		return -ENOMEM;
	while (!(cc->memo_stamp[v] == st && cc->memo_skip[v] == it->skip) &&
	       cc->nodes[v].depth > it->skip + 1) {
		cc->stack[sp++] = v;
		v = cc->nodes[v].parent;
	}
	if (cc->memo_stamp[v] == st && cc->memo_skip[v] == it->skip)
		base = cc->memo[v];
	else
		base = et_place(cc, 0, v, it->ips);
	cc->memo[v] = base;
	cc->memo_stamp[v] = st;
	cc->memo_skip[v] = it->skip;
	while (sp && base != UINT32_MAX) {
		v = cc->stack[--sp];
		base = et_place(cc, base, v, it->ips);
		cc->memo[v] = base;
		cc->memo_stamp[v] = st;
		cc->memo_skip[v] = it->skip;
	}
	if (base == UINT32_MAX)
		return -ENOMEM;
	cc->et[base].hit += it->period;
	cc->et[base].count += it->count;
	return 0;
}

/* perf's match_chain order of two tree nodes (dso object, then symbol start or the
 * first sample's address); siblings are kept from the largest down. */
static int et_cmp(const struct callchains *cc, uint32_t na, uint32_t nb)
{
	const struct cc_frame *a = &cc->frames[cc->et[na].frame];
	const struct cc_frame *b = &cc->frames[cc->et[nb].frame];
	uint64_t da = a->dso ? (uint64_t)a->dso->seq + 1 : 0;
	uint64_t db = b->dso ? (uint64_t)b->dso->seq + 1 : 0;
	uint64_t ka = cc->et[na].ip, kb = cc->et[nb].ip;

	/* the srcline key: texts first (perf's match_chain_strings()) */
	if (cc->key == CALLCHAIN_KEY_SRCLINE && (a->srcline || b->srcline)) {
		int c;

		if (!a->srcline || !b->srcline)
			return a->srcline ? -1 : 1;
		c = strcmp(a->srcline, b->srcline);
		return c < 0 ? -1 : c > 0;
	}
	/* inlined functions compare by name (perf's match_chain()) */
	if (by_function(cc) && a->sym && b->sym && (a->sym->inlined || b->sym->inlined)) {
		int c = strcmp(a->sym->name, b->sym->name);

		if (c)
			return c < 0 ? -1 : 1;
	}
	if (da != db)
		return da < db ? -1 : 1;
	if (by_function(cc) && a->sym && b->sym) {
		ka = a->sym->start;
		kb = b->sym->start;
	}
	return ka < kb ? -1 : ka > kb;
}

/*
 * perf's rb_root_in: the children of a node, inserted in the order they were created
 * (that of their first samples), a new one going left of an existing one that
 * compares lower.  The comparison mixes symbol starts and addresses, so the tree is
 * replayed rather than sorted.
 */
static void order_kids(struct callchains *cc, uint32_t *kids, uint32_t n,
		       uint32_t *stack)
{
	struct rbtree *t = &cc->kid_tree;

	t->root = RBTREE_NIL;
	for (uint32_t i = 0; i < n; i++) {
		uint32_t z = kids[i], p = RBTREE_NIL, x = t->root;
		bool left = false;

		while (x != RBTREE_NIL) {
			p = x;
			left = et_cmp(cc, x, z) < 0;
			x = left ? t->left[x] : t->right[x];
		}
		rbtree__link(t, z, p, left);
	}
	rbtree__inorder(t, kids, stack);
}

/* Children lists in perf's rb_root_in order, and cumulative hits. */
static int et_finish(struct callchains *cc)
{
	struct et_node *et = cc->et;
	uint32_t n = cc->nr_et, off = 0;

	free(cc->kids);
	cc->kids = malloc((n ? n : 1) * sizeof(*cc->kids));
	if (!cc->kids)
		return -ENOMEM;
	for (uint32_t i = 1; i < n; i++)
		et[et[i].parent].nr_kids++;
	for (uint32_t i = 0; i < n; i++) {
		et[i].kids = off;
		off += et[i].nr_kids;
		et[i].nr_kids = 0;
	}
	for (uint32_t i = 1; i < n; i++) {
		struct et_node *p = &et[et[i].parent];

		cc->kids[p->kids + p->nr_kids++] = i;
	}
	if (rbtree__reserve(&cc->kid_tree, n) ||
	    grow(&cc->stack, &cc->cap_stack, n, sizeof(*cc->stack)))
		return -ENOMEM;
	for (uint32_t i = 0; i < n; i++)
		if (et[i].nr_kids > 1)
			order_kids(cc, cc->kids + et[i].kids, et[i].nr_kids, cc->stack);
	/* children are created after their parent: a reverse sweep sums them first */
	for (uint32_t i = n; i-- > 1;) {
		et[i].cumul += et[i].hit;
		et[i].cumul_count += et[i].count;
		et[et[i].parent].cumul += et[i].cumul;
		et[et[i].parent].cumul_count += et[i].cumul_count;
	}
	return 0;
}

/* The last tree node of the perf node (run) starting at v. */
static uint32_t run_last(const struct callchains *cc, uint32_t v)
{
	while (cc->et[v].count == 0 && cc->et[v].nr_kids == 1)
		v = cc->kids[cc->et[v].kids];
	return v;
}

/* Hits below the last node of a run (perf's children_hit / children_count). */
static uint64_t children_hit(const struct callchains *cc, uint32_t last)
{
	return cc->et[last].cumul - cc->et[last].hit;
}

static uint64_t children_count(const struct callchains *cc, uint32_t last)
{
	return cc->et[last].cumul_count - cc->et[last].count;
}

static uint64_t ceil_u64(double x)
{
	uint64_t u;

	if (!(x > 0))
		return 0;
	if (x >= 18446744073709551615.0)
		return UINT64_MAX;
	u = (uint64_t)x;
	return (double)u < x ? u + 1 : u;
}

struct sorted {
	uint32_t *v;
	uint32_t n;
};

static int sorted_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct callchains *cc = ctx;
	const uint32_t *a = pa, *b = pb;	/* {node, position} pairs */
	uint64_t ca = cc->et[a[0]].cumul, cb = cc->et[b[0]].cumul;

	if (ca != cb)
		return ca > cb ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* The children of run end `last` that perf keeps (cumulative hits >= min_hit), by
 * cumulative hits, larger first; equal ones in rb_root_in order. */
static int sorted_kids(const struct callchains *cc, uint32_t last, uint64_t min_hit,
		       struct sorted *out)
{
	const struct et_node *n = &cc->et[last];
	uint32_t *pairs = malloc(((size_t)n->nr_kids + 1) * 2 * sizeof(*pairs));

	out->v = pairs;
	out->n = 0;
	if (!pairs)
		return -ENOMEM;
	for (uint32_t i = 0; i < n->nr_kids; i++) {
		uint32_t k = cc->kids[n->kids + i];

		if (cc->et[k].cumul < min_hit)
			continue;
		pairs[2 * out->n] = k;
		pairs[2 * out->n + 1] = i;
		out->n++;
	}
	qsort_r(pairs, out->n, 2 * sizeof(*pairs), sorted_cmp, (void *)cc);
	for (uint32_t i = 0; i < out->n; i++)
		pairs[i] = pairs[2 * i];
	return 0;
}

/* ---- printing ------------------------------------------------------------------- */

struct printer {
	struct callchains *cc;
	const struct callchain_print *p;
	FILE *out;
	size_t printed;		/* bytes, as perf counts them to decide on a blank line */
	int err;
};

static void put(struct printer *pr, const char *s)
{
	pr->printed += strlen(s);
	fputs(s, pr->out);
}

static void margin(struct printer *pr, int left_margin)
{
	put(pr, "            ");
	for (int i = 0; i < left_margin; i++)
		put(pr, " ");
}

static void frame_name(const struct callchains *cc, uint32_t frame, char *buf)
{
	const struct cc_frame *f = &cc->frames[frame];

	/* perf's callchain_list__sym_name(): "name srcline", " (inlined)" after */
	const char *inl = f->sym && f->sym->inlined ? " (inlined)" : "";

	if (f->sym && f->srcline && cc->key != CALLCHAIN_KEY_FUNCTION) {
		snprintf(buf, NAME_MAX_LEN + 1, "%s %s%s", f->sym->name, f->srcline, inl);
	} else if (f->sym) {
		snprintf(buf, NAME_MAX_LEN + 1, "%s%s", f->sym->name, inl);
	} else {
		snprintf(buf, NAME_MAX_LEN + 1, "%#" PRIx64, f->ip);
	}
}

static void value(struct printer *pr, uint64_t period, uint64_t count, uint64_t total)
{
	char buf[64];

	switch (pr->p->param->value) {
	case CALLCHAIN_VALUE_PERIOD:
		snprintf(buf, sizeof(buf), "%" PRIu64, period);
		break;
	case CALLCHAIN_VALUE_COUNT:
		snprintf(buf, sizeof(buf), "%u", (unsigned)count);
		break;
	default:
		snprintf(buf, sizeof(buf), "%.2f%%",
			 total ? (double)period * 100.0 / (double)total : 0.0);
		break;
	}
	put(pr, buf);
}

/* perf shifts an int by the depth: x86 takes the count modulo 32. */
static int bit(int i)
{
	return (int)(1u << (i & 31));
}

/* One frame line of the graph (perf's ipchain__fprintf_graph). */
static void graph_frame(struct printer *pr, const char *name, uint64_t cumul,
			uint64_t cumul_count, int depth, int mask, int nth, uint64_t total,
			int left_margin)
{
	margin(pr, left_margin);
	for (int i = 0; i < depth; i++) {
		put(pr, mask & bit(i) ? "|" : " ");
		if (!nth && i == depth - 1) {
			put(pr, "--");
			value(pr, cumul, cumul_count, total);
			put(pr, "--");
		} else {
			put(pr, "          ");
		}
	}
	put(pr, name);
	put(pr, "\n");
}

static void graph_line(struct printer *pr, int depth, int mask, int left_margin)
{
	margin(pr, left_margin);
	for (int i = 0; i < depth; i++)
		put(pr, mask & bit(i) ? "|          " : "           ");
	put(pr, "\n");
}

static uint64_t kid_threshold(const struct printer *pr, uint32_t last)
{
	if (pr->p->param->mode == CALLCHAIN_GRAPH_REL)
		return ceil_u64((double)children_hit(pr->cc, last) *
				(pr->p->param->min_percent / 100.0));
	return pr->p->min_hit;
}

/* perf's __callchain__fprintf_graph over the kept children `kids` of one node. */
static void graph_level(struct printer *pr, const struct sorted *kids, uint64_t total,
			int depth, int mask, int left_margin, uint64_t parent_count)
{
	const struct callchain_param *cp = pr->p->param;
	struct callchains *cc = pr->cc;
	uint64_t remaining = total, cumul_count = 0;
	uint32_t printed = 0;
	int new_mask = mask;
	char name[NAME_MAX_LEN + 1];

	for (uint32_t i = 0; i < kids->n && !pr->err; i++) {
		uint32_t child = kids->v[i], last = run_last(cc, child), nth = 0;
		struct sorted sub;

		remaining -= cc->et[child].cumul;
		cumul_count += cc->et[child].cumul_count;
		if (i + 1 == kids->n && (cp->mode != CALLCHAIN_GRAPH_REL || !remaining))
			new_mask &= ~bit(depth - 1);
		graph_line(pr, depth, mask, left_margin);
		for (uint32_t v = child;; v = cc->kids[cc->et[v].kids]) {
			frame_name(cc, cc->et[v].frame, name);
			graph_frame(pr, name, cc->et[child].cumul, cc->et[child].cumul_count,
				    depth, new_mask, (int)nth++, total, left_margin);
			if (v == last)
				break;
		}
		if (sorted_kids(cc, last, kid_threshold(pr, last), &sub)) {
			pr->err = -ENOMEM;
			break;
		}
		graph_level(pr, &sub,
			    cp->mode == CALLCHAIN_GRAPH_REL ? children_hit(cc, last) : total,
			    depth + 1, new_mask | bit(depth), left_margin,
			    children_count(cc, last));
		free(sub.v);
		if (++printed == cp->print_limit)
			break;
	}
	if (cp->mode == CALLCHAIN_GRAPH_REL && remaining && remaining != total) {
		uint64_t rem_count = 0;

		if (cp->value == CALLCHAIN_VALUE_COUNT && kids->n) {
			if (parent_count <= cumul_count)
				return;
			rem_count = parent_count - cumul_count;
		}
		new_mask &= ~bit(depth - 1);
		graph_frame(pr, "[...]", remaining, rem_count, depth, new_mask, 0, total,
			    left_margin);
	}
}

/* perf's callchain__fprintf_graph. */
static void print_graph(struct printer *pr)
{
	const struct callchain_param *cp = pr->p->param;
	struct callchains *cc = pr->cc;
	struct sorted top, sub;
	uint64_t total = pr->p->total, parent_count = children_count(cc, 0);
	int left_margin = 0;
	char name[NAME_MAX_LEN + 1];

	if (sorted_kids(cc, 0, kid_threshold(pr, 0), &top)) {
		pr->err = -ENOMEM;
		return;
	}
	/* perf's need_percent_display(): a single top branch holding the whole entry
	 * is printed without its percentage */
	if (top.n == 1 && cc->et[top.v[0]].cumul == pr->p->parent_total) {
		uint32_t cnode = top.v[0], last = run_last(cc, cnode), i = 0, printed = 0;
		bool started = false;

		for (uint32_t v = cnode;; v = cc->kids[cc->et[v].kids]) {
			if (!(!i++ && pr->p->skip_first)) {
				if (!started) {
					margin(pr, left_margin);
					put(pr, "|\n");
					margin(pr, left_margin);
					put(pr, "---");
					left_margin += 3;
					started = true;
				} else {
					margin(pr, left_margin);
				}
				frame_name(cc, cc->et[v].frame, name);
				put(pr, name);
				put(pr, "\n");
				if (++printed == cp->print_limit)
					break;
			}
			if (v == last)
				break;
		}
		free(top.v);
		if (sorted_kids(cc, last, kid_threshold(pr, last), &sub)) {
			pr->err = -ENOMEM;
			return;
		}
		top = sub;
		parent_count = children_count(cc, last);
	}
	if (cp->mode == CALLCHAIN_GRAPH_REL)
		total = pr->p->parent_total;
	graph_level(pr, &top, total, 1, 1, left_margin, parent_count);
	free(top.v);
	if (pr->printed)
		put(pr, "\n");
}

/* Runs with own hits, post-order in rb_root_in order (perf's __sort_chain_flat). */
static int flat_collect(const struct callchains *cc, uint32_t first, uint64_t min_hit,
			uint32_t **v, uint32_t *n, size_t *cap)
{
	uint32_t last = first ? run_last(cc, first) : 0;
	const struct et_node *l = &cc->et[last];

	for (uint32_t i = 0; i < l->nr_kids; i++)
		if (flat_collect(cc, cc->kids[l->kids + i], min_hit, v, n, cap))
			return -ENOMEM;
	if (first && l->hit && l->hit >= min_hit) {
		if (grow(v, cap, (size_t)*n * 2 + 2, sizeof(**v)))
			return -ENOMEM;
		(*v)[2 * *n] = last;
		(*v)[2 * *n + 1] = *n;
		(*n)++;
	}
	return 0;
}

static int flat_cmp(const void *pa, const void *pb, void *ctx)
{
	const struct callchains *cc = ctx;
	const uint32_t *a = pa, *b = pb;
	uint64_t ha = cc->et[a[0]].hit, hb = cc->et[b[0]].hit;

	if (ha != hb)
		return ha > hb ? -1 : 1;
	return a[1] < b[1] ? -1 : a[1] > b[1];
}

/* perf's callchain__fprintf_flat and callchain__fprintf_folded. */
static void print_flat(struct printer *pr, bool folded)
{
	const struct callchain_param *cp = pr->p->param;
	struct callchains *cc = pr->cc;
	const char *sep = pr->p->field_sep ? pr->p->field_sep : ";";
	uint32_t *v = NULL, n = 0, *path = NULL;
	size_t cap = 0;
	char name[NAME_MAX_LEN + 1];

	if (flat_collect(cc, 0, pr->p->min_hit, &v, &n, &cap)) {
		pr->err = -ENOMEM;
		goto out;
	}
	if (n)
		qsort_r(v, n, 2 * sizeof(*v), flat_cmp, cc);
	path = malloc(((size_t)cc->nr_et + 1) * sizeof(*path));
	if (!path) {
		pr->err = -ENOMEM;
		goto out;
	}
	for (uint32_t i = 0; i < n; i++) {
		uint32_t last = v[2 * i], len = 0;
		const struct et_node *l = &cc->et[last];

		for (uint32_t u = last; u; u = cc->et[u].parent)
			path[len++] = u;
		if (folded) {
			value(pr, l->hit, l->count, pr->p->total);
			put(pr, " ");
		} else {
			put(pr, "           ");
			value(pr, l->cumul, l->cumul_count, pr->p->total);
			put(pr, "\n");
		}
		for (bool first = true; len--;) {
			const struct cc_frame *f = &cc->frames[cc->et[path[len]].frame];

			/* perf skips addresses in the context marker range (an unwound
			 * return address of 0 becomes -1) */
			if (f->ip >= CONTEXT_MAX)
				continue;
			frame_name(cc, cc->et[path[len]].frame, name);
			if (folded) {
				if (!first)
					put(pr, sep);
				put(pr, name);
				first = false;
			} else {
				put(pr, "                ");
				put(pr, name);
				put(pr, "\n");
			}
		}
		put(pr, "\n");
		if (i + 1 == cp->print_limit)
			break;
	}
out:
	free(v);
	free(path);
}

int callchains__fprintf(struct callchains *cc, const struct callchain_item *items,
			size_t n, const struct callchain_print *p, FILE *out)
{
	struct printer pr = { .cc = cc, .p = p, .out = out };
	int err = et_reset(cc);

	for (size_t i = 0; i < n && !err; i++)
		err = et_add(cc, &items[i]);
	if (!err)
		err = et_finish(cc);
	if (err)
		return err;
	switch (p->param->mode) {
	case CALLCHAIN_GRAPH_ABS:
	case CALLCHAIN_GRAPH_REL:
		print_graph(&pr);
		break;
	case CALLCHAIN_FLAT:
		print_flat(&pr, false);
		break;
	case CALLCHAIN_FOLDED:
		print_flat(&pr, true);
		break;
	default:
		break;
	}
	return pr.err;
}
