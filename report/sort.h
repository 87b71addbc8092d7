#ifndef DIRREPORT_REPORT_SORT_H
#define DIRREPORT_REPORT_SORT_H
/*
 * sort - perf 6.1's sort keys and output fields (`-s/--sort`, `-F/--fields`, `-n`,
 * `--show-total-period`, `-t`, `-w`): which columns a report has, how entries
 * compare, and how each column is printed.
 *
 * perf keeps two lists built from the options (its perf_hpp_list): the sort keys and
 * the output fields.  `-s KEYS` gives the sort keys, prefixed with `overhead` (and
 * `overhead_children` in children mode) unless KEYS names one; the output fields are
 * perf's defaults (Children, Overhead/Self, Samples with -n, Period with
 * --show-total-period), then every sort key not among them; the sort keys then get
 * every output field not among them.  `-F FIELDS` sets the output fields exactly.
 *
 * Each key compares entries three ways, as perf does: when entries are created and
 * collapsed (se_cmp: symbols by address), and when they are placed for output
 * (se_sort: symbols by name; value fields by value, larger first).
 *
 * Thread safety: a sort_list is immutable once set up.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dso;
struct symbol;
struct thread;

/** Periods of one entry, split by cpumode (perf's he_stat). */
struct hist_stat {
	uint64_t period;		/* event count */
	uint64_t nr_events;		/* samples */
	uint64_t period_sys, period_us;	/* kernel / user cpumode */
	uint64_t period_guest_sys, period_guest_us;
};

/**
 * @brief Add every count of @p from to @p into (periods in event units, sample counts).
 * Thread safety: touches only @p into.  Format: none (perf's he_stat__add_stat).
 */
void hist_stat__merge(struct hist_stat *into, const struct hist_stat *from);

/**
 * --mem-mode: a sample's data access (perf's mem_info daddr): the memory sort keys
 * (mem, snoop, tlb, locked, blocked, symbol_daddr, dso_daddr, phys_daddr,
 * data_page_size) compare and print it.  All zero but data_src without --mem-mode.
 */
struct hist_mem {
	uint64_t data_src;		/* PERF_SAMPLE_DATA_SRC (report/mem.h) */
	uint64_t addr;			/* PERF_SAMPLE_ADDR, virtual (0: none) */
	uint64_t phys_addr;		/* PERF_SAMPLE_PHYS_ADDR (0: none) */
	uint64_t page_size;		/* PERF_SAMPLE_DATA_PAGE_SIZE, bytes (0: none) */
	struct dso *dso;		/* borrowed: addr's map's dso, looked up with the
					 * sample's cpumode; NULL: no map */
	const struct symbol *sym;	/* borrowed: the symbol holding addr, or NULL */
	uint64_t sym_unmapped_start;	/* its start as a virtual address */
	uint64_t al_addr;		/* addr relative to its map (perf's al_addr) */
	uint32_t map_maj, map_min;	/* its map's MMAP2 ids and protection (struct */
	uint64_t map_ino, map_ino_generation;	/* map; 0 without) */
	uint32_t map_prot, map_flags;
};

/** What an entry or a sample without a data access reads as: all zeros. */
extern const struct hist_mem hist_mem__none;

/** Branch view: one end of a branch as perf resolves it (its addr_map_symbol). */
struct hist_branch_end {
	struct dso *dso;		/* borrowed: the map's dso; NULL: no map */
	const struct symbol *sym;	/* borrowed; NULL: unresolved */
	uint64_t addr;			/* the branch stack's address */
	uint64_t al_addr;		/* relative to its map (addr without one) */
	uint64_t sym_unmapped_start;	/* sym's start as a virtual address */
	char level;			/* where it was found: 'k', '.'; 'H': no map */
};

/**
 * Branch view (report/branch.h): one branch of a sample (perf's branch_info), which
 * the branch keys (dso_from, symbol_to, cycles, ...) compare and print.
 */
struct hist_branch {
	struct hist_branch_end from, to;
	uint64_t flags;			/* the entry's flags word (report/branch.h) */
};

/** One line of the report: its key attributes and counts. */
struct hist_entry {
	const char *comm;		/* interned, borrowed */
	const struct thread *thread;	/* borrowed: the first sample's */
	struct dso *dso;		/* borrowed; NULL = [unknown] */
	const struct symbol *sym;	/* borrowed; NULL = unresolved */
	/* with the four above, in the entry's first 64 bytes: what the entry trees'
	 * comparisons read (an unresolved symbol's address) */
	uint64_t ip;			/* perf's he->ip: map-relative for a sample's
					 * own entry, the chain's address for a frame */
	uint64_t sym_unmapped_start;	/* see addr_location */
	const char *srcline;		/* srcline / srcfile keys (machine/srcline.h);
					 * borrowed, interned.  NULL until computed:
					 * perf computes them lazily, when a
					 * comparison or the output needs them (see
					 * sort_list.lazy), which decides widths and,
					 * through addr2line's failure limit, texts */
	const char *srcfile;
	unsigned src_width;		/* SORT_NEED_SRCLINE / _SRCFILE / _TRACE: the
					 * texts that were computed when the entry's
					 * width was taken (only those widen the
					 * column) */
	uint64_t code_page_size;	/* the sample's CODE_PAGE_SIZE, bytes (0: none) */
	uint64_t cgroup;		/* the sample's CGROUP id (0: none) */
	uint64_t cgroup_dev, cgroup_ino;	/* its thread's cgroup namespace */
	const char *cgroup_name;	/* cgroup key: the CGROUP record's path of
					 * cgroup, "unknown" or "N/A"; borrowed */
	const struct symbol *parent;	/* borrowed: the first frame of the sample's
					 * callchain matching -p (parent key); NULL:
					 * none ("[other]") */
	uint64_t map_start, map_end;	/* the map of ip (0, 0: none) */
	uint64_t map_pgoff;
	uint64_t map_id;		/* an inlined function's entry: the map
					 * object it was last seen in (hist-build.c) */
	uint64_t time;			/* ns, quantized (time key) */
	uint64_t weight;		/* the first sample's WEIGHT (var1) */
	uint64_t ins_lat;		/* ... and WEIGHT_STRUCT var2 (perf's ins_lat)
					 * and var3 (p_stage_cyc) */
	uint64_t p_stage_cyc;
	int32_t cpu;			/* -1: not recorded */
	int32_t socket;			/* -1: unknown */
	char level;			/* 'k', '.', 'H' */
	uint8_t cpumode;		/* MISC_* of the first sample */
	uint8_t filtered;		/* the first sample's filter bits: not printed */
	bool map_moved;			/* an inlined function's entry found from a
					 * map object other than its first's
					 * (sort_list.total_order: hist-build.c) */
	const char *trace;		/* trace key: the first sample's Trace output
					 * text (interned: equal texts, equal
					 * pointers; borrowed), NULL for an event that
					 * is not a tracepoint ("N/A") */
	bool trace_done;		/* perf has formatted it (it does so lazily,
					 * when the trace key is compared or printed:
					 * only those texts widen the column, see
					 * src_width) */
	const struct hist_mem *mem;	/* --mem-mode: the first sample's (borrowed
					 * from the histogram, as branch); NULL:
					 * none, read as zeros (hist_entry__mem()) */
	const struct hist_branch *branch;	/* branch view: the branch (borrowed
					 * from the histogram); NULL otherwise */
	struct hist_stat stat;		/* self */
	struct hist_stat stat_acc;	/* children */
	uint32_t max_depth;		/* longest chain appended (perf's max_depth) */
	uint32_t first_item, nr_items;	/* its callchain items (hist-order.c) */
	/* perf's group view (report/group.h): a leader's entry and its "pairs", the
	 * entries of the same key in the group's other events, in group order */
	const struct hist_entry *const *pairs;	/* nr_pairs, borrowed; an element
						 * is NULL where the member has no
						 * such entry (value 0) */
	uint32_t nr_pairs;		/* 0: no group view */
};

/**
 * @brief A data access pointer as read (--mem-mode): @p m, or hist_mem__none for NULL.
 * Ownership: borrowed (the histogram's, or the static zeros).  Thread safety: pure.
 * Format: none.
 */
static inline const struct hist_mem *hist_mem__of(const struct hist_mem *m)
{
	return m ? m : &hist_mem__none;
}

/** @brief An entry's data access (--mem-mode): hist_mem__of(e->mem). */
static inline const struct hist_mem *hist_entry__mem(const struct hist_entry *e)
{
	return hist_mem__of(e->mem);
}

/** What the entries of a report are keyed on beyond comm, dso and symbol. */
enum sort_need {
	SORT_NEED_THREAD = 1 << 0,	/* pid */
	SORT_NEED_CPU = 1 << 1,		/* cpu, socket */
	SORT_NEED_TIME = 1 << 2,	/* time */
	SORT_NEED_MAP = 1 << 3,		/* addr, dso_size */
	SORT_NEED_SYM = 1 << 4,		/* symbol (call graphs skip their first frame
					 * when the sort order starts with it) */
	SORT_NEED_DSO = 1 << 5,
	SORT_NEED_COMM = 1 << 6,
	SORT_NEED_IP = 1 << 7,		/* addr: samples differ by address */
	SORT_NEED_PARENT = 1 << 8,	/* parent: callchains are searched for -p */
	SORT_NEED_WEIGHT = 1 << 9,	/* weight, ins_lat, p_stage_cyc keys */
	SORT_NEED_SRCLINE = 1 << 10,	/* srcline: entries need their srcline */
	SORT_NEED_SRCFILE = 1 << 11,	/* srcfile: ... their srcfile */
	SORT_NEED_CGROUP = 1 << 12,	/* cgroup, cgroup_id keys */
	SORT_NEED_PAGE = 1 << 13,	/* code_page_size */
	SORT_NEED_TRACE = 1 << 14,	/* trace: entries differ by their Trace output
					 * text (resolve/trace-sort.h) */
	SORT_NEED_MEM = 1 << 15,	/* the memory keys (--mem-mode): entries differ
					 * by their hist_mem */
	SORT_NEED_DCACHELINE = 1 << 17,	/* dcacheline: entries differ by the data
					 * address's map and cache line */
	SORT_NEED_BRANCH = 1 << 18,	/* the branch keys: entries differ by their
					 * branch (hist_entry.branch) */
	SORT_NEED_TXN = 1 << 16,	/* transaction: samples' TRANSACTION words
					 * must be 0 (the only value checked against
					 * perf; report/engine-resolve.c refuses others) */
};

/** perf 6.1's default sort order with --mem-mode (`# Sort order` of its report). */
#define SORT_MEM_DEFAULT_ORDER "local_weight,mem,sym,dso,symbol_daddr,dso_daddr,snoop,tlb," \
	"locked,blocked,local_ins_lat,local_p_stage_cyc"

struct sort_dim;

/**
 * How the lazily computed texts of an entry are made (perf's hist_entry__srcline()
 * and hist_entry__get_srcfile()); the functions may depend on what was computed
 * before (perf stops asking addr2line about a dso after many failures).
 */
struct sort_lazy {
	const char *(*srcline)(void *ctx, const struct hist_entry *e);
	const char *(*srcfile)(void *ctx, const struct hist_entry *e);
	void *ctx;
};

/** Most columns / sort keys a report can have. */
#define SORT_MAX_FIELDS 32

/** perf's perf_hpp_list: output fields and sort keys. */
struct sort_list {
	const struct sort_dim *fields[SORT_MAX_FIELDS];	/* output, in order */
	int user_len[SORT_MAX_FIELDS];			/* -w; 0 = computed */
	size_t nr_fields;
	const struct sort_dim *sorts[SORT_MAX_FIELDS];	/* comparison order */
	size_t nr_sorts;
	unsigned need;			/* enum sort_need */
	bool children;			/* Children column (perf's cumulate) */
	bool strict_fields;		/* -F without '+': exactly these columns */
	bool sym_first;			/* the sort order starts with "sym" and no -F */
	bool hash_safe;			/* resolved entries may be found by hash
					 * (hist-build.c) */
	bool total_order;		/* the symbol key compares by a total, transitive
					 * order (the default; its owner sets it): one
					 * entry per key whatever the order entries are
					 * searched in.  false (--perf-compat): perf
					 * 6.1's _sort__sym_cmp(), whose entries of
					 * unresolved and resolved symbols without a dso
					 * key, and of overlapping inlined functions,
					 * compare inconsistently, so that its tree
					 * searches may split one key into two entries.
					 * (The other keys' comparisons are consistent
					 * already: the sign of a difference is a total
					 * order on canonical addresses, which lie in
					 * 2^48 around 0, and on times and counts below
					 * 2^63.) */
	bool need_collapse;		/* perf collapses entries (a key like comm) */
	bool mem_mode;			/* --mem-mode (sort_opts.mem_mode) */
	bool branch_mode;		/* the branch view (sort_opts.branch_mode) */
	unsigned class_need;		/* what the keys before the symbol key use */
	const char *field_sep;		/* -t; NULL: aligned columns */
	bool nanosecs;			/* --ns: the time key in nanoseconds */
	bool verbose;			/* -v: dsos by long name, symbols with their
					 * address and symtab origin */
	bool dso_list;			/* --dsos: unresolved entries do not widen the
					 * Shared Object column */
	/* perf's sort__setup_elide(): a filter list of one name hides its column
	 * and prints "# <list>: <name>" above the report, once per hidden column */
	struct {
		const char *list;	/* "comm", "dso" or "symbol" */
		const char *name;	/* borrowed from the option, not terminated */
		size_t len;
	} elided[SORT_MAX_FIELDS];
	size_t nr_elided;
	bool sort_elided[SORT_MAX_FIELDS];	/* sorts[i] is hidden: perf skips it
						 * when it orders the output */
	const struct sort_lazy *lazy;	/* borrowed, set by the owner after setup;
					 * needed with the srcline / srcfile keys:
					 * comparisons and printing compute an
					 * entry's missing texts through it (the
					 * entries are changed, though const) */
};

/** The options that shape a sort_list. */
struct sort_opts {
	const char *sort_order;		/* -s; NULL = default_order */
	const char *default_order;	/* perf's default sort order, also what
					 * "+KEYS" appends to; NULL = "comm,dso,symbol"
					 * (resolve/trace-sort.h: "trace") */
	const char *field_order;	/* -F; NULL = none */
	const char *col_widths;		/* -w: comma-separated widths; NULL = none */
	const char *field_sep;		/* -t */
	bool children;			/* children mode is on */
	bool no_children;		/* --no-children: an overhead_children key or
					 * field is kept and prints N/A (observed with
					 * perf 6.1); otherwise, out of children mode,
					 * -s and -F + drop it */
	bool show_nr_samples;		/* -n */
	bool show_total_period;		/* --show-total-period */
	bool mem_mode;			/* --mem-mode: the memory keys exist, and the
					 * default order is perf's memory one
					 * (SORT_MEM_DEFAULT_ORDER) */
	bool branch_mode;		/* perf's branch view (report/branch.h): the
					 * branch keys exist, the default order is
					 * BRANCH_DEFAULT_SORT_ORDER, and a -s text
					 * holding "symbol" is refused (perf adds its
					 * IPC column, ipc_lbr, not implemented) */
	bool has_callchains;		/* some event records callchains (parent) */
	bool parent_key;		/* -p: the parent key is appended to the sort
					 * keys (perf's parent_pattern != default) */
	bool nanosecs;			/* --ns */
	bool total_order;		/* see sort_list.total_order */
	bool verbose;			/* -v (perf's verbose > 0): the dso key
					 * compares and prints long names, the symbol
					 * key prints "ADDRESS ORIGIN " first */
	const char *comm_list;		/* --comms, --dsos, -S: comma-separated; */
	const char *dso_list;		/* NULL = none (see sort_list.elided) */
	const char *sym_list;
};

/**
 * @brief The "# comm: NAME" lines of the elided columns (see sort_list.elided).
 * Thread safety: pure but for @p out.  Format: none.
 */
void sort_list__fprintf_elided(const struct sort_list *l, FILE *out);

/**
 * @brief Build the sort keys and output fields as perf's setup_sorting() does.
 * @param err, errlen  receives a one-line message on failure
 * @return 0; -EINVAL for an unknown key or a malformed list; -ENOTSUP for a key perf
 *         has that dirreport does not implement.
 * Thread safety: pure.  Format: none.
 */
int sort_list__setup(struct sort_list *l, const struct sort_opts *o, char *err,
		     size_t errlen);

/**
 * What the entry trees' comparisons read of an entry whose keys are comm, dso and
 * symbol alone (sort_list__keyed()): a copy of 32 bytes kept beside the tree
 * (report/hist-build.c), where the entry is 448.  A search visits a node per level; the
 * copies of the bench file's 62k entries take 2 MB, the entries 28 MB.
 */
struct hist_key {
	const char *comm;
	const struct dso *dso;
	const struct symbol *sym;
	uint64_t ip;
};

/** @brief @p e's fields that struct hist_key keeps, into @p k.  Thread safety: pure. */
void hist_key__of(struct hist_key *k, const struct hist_entry *e);

/**
 * @brief Whether sort_list__cmp() reads only what struct hist_key keeps: every key
 *        is comm, dso or symbol (and value columns), without -v and without the
 *        lazily computed texts (srcline, srcfile, trace).
 * Thread safety: pure.  Format: none.
 */
bool sort_list__keyed(const struct sort_list *l);

/**
 * @brief sort_list__cmp_from() of the entries whose keys @p a and @p b are, where
 *        sort_list__keyed(): the same comparisons of the same fields, from sort key
 *        @p from on (0: sort_list__cmp()).
 * Thread safety: pure.  Format: none.
 */
int sort_list__cmp_keys(const struct sort_list *l, size_t from, const struct hist_key *a,
			const struct hist_key *b);

/**
 * @brief perf's hist_entry__cmp / hist_entry__collapse for a new entry a against a
 *        tree node b: < 0 puts a left of b, 0 makes them one entry.  Reaching a
 *        srcline / srcfile key computes the missing texts, b's first (perf's
 *        order: node, then new entry).
 * Thread safety: pure but for those texts.  Format: none.
 */
int sort_list__cmp(const struct sort_list *l, const struct hist_entry *a,
		   const struct hist_entry *b);

/**
 * @brief sort_list__cmp() over the keys before the first symbol key: entries that
 *        compare equal here compare by symbol (unresolved ones: by address) next.
 * Thread safety: pure.  Format: none.
 */
int sort_list__class_cmp(const struct sort_list *l, const struct hist_entry *a,
			 const struct hist_entry *b);

/**
 * @brief sort_list__cmp() from the key at index @p from of l->sorts on (0: all of it).
 * Thread safety: as sort_list__cmp().  Format: none.
 */
int sort_list__cmp_from(const struct sort_list *l, size_t from, const struct hist_entry *a,
			const struct hist_entry *b);

/** Context of the output comparison. */
struct sort_ctx {
	bool depth_ties;	/* caller above callee (children mode with graphs) */
	bool caller_first;	/* chains are in caller order */
	int group_sort_idx;	/* --group-sort-idx (group view only): 0, perf's
				 * default, compares the leader's value, then the
				 * members' in group order; k in 1..nr_pairs only
				 * member k's (pairs[k - 1]); any other value only
				 * the leader's; ties go to the next sort key */
};

/**
 * @brief perf's hist_entry__sort(a, b): > 0 puts the new entry a before node b.
 *        Missing srcline / srcfile texts are computed as needed, a's first.
 *        In the group view (a->nr_pairs) value columns other than Children break
 *        ties by the members' values, in group order (perf's __hpp__sort); with
 *        c->group_sort_idx one event's value alone decides (see struct sort_ctx).
 * Thread safety: pure but for those texts.  Format: none.
 */
int sort_list__output_cmp(const struct sort_list *l, const struct sort_ctx *c,
			  const struct hist_entry *a, const struct hist_entry *b);

/**
 * @brief A number that decides sort_list__output_cmp() wherever two entries' numbers
 *        differ: its first key's value (perf's first sort key is a value column:
 *        Children, or Overhead), when that one compares by the value alone.
 * @param key  receives e's number
 * @return false when there is none (another first key, the group view, a value
 *         that does not count): compare with sort_list__output_cmp().
 * Thread safety: pure.  Format: none.
 */
bool sort_list__output_key(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *e, uint64_t *key);

/** Numbers that decide sort_list__output_cmp() after its first key (below). */
struct sort_ties {
	uint64_t *v;		/* owned: width numbers per entry id, v[id * width] */
	size_t width;
	size_t from;		/* sort_list__cmp_ranks(): the first key not ranked */
	bool depth_rule;	/* the first key is Children and c->depth_ties: where
				 * two entries' first numbers are equal, one thread's
				 * entries compare by max_depth first (value_cmp()) */
};

/**
 * @brief The comparison of sort_list__output_cmp() after the first key, as numbers:
 *        for entries a, b whose sort_list__output_key() numbers are equal, and that
 *        the depth rule (struct sort_ties) does not decide, output_cmp(a, b) > 0
 *        exactly when a's numbers are lexicographically greater than b's, and 0 when
 *        they are equal.  Each later key gives one number per entry: a value column
 *        its value; the comm, dso and symbol keys the entry's rank among the distinct
 *        comms, dsos or symbols of @p order in the key's own order (found once per
 *        distinct one: the keys' comparisons there are pure functions of the comm
 *        text, the dso's name and the symbol's name, so ranks preserve them).
 * @param v      the entries, by id; @p nr of them
 * @param order  the ids to rank (n of them); other ids' numbers are left unset
 * @param t      filled; t->v NULL where some later key has no such numbers (another
 *               key, -v, a value of the group view) or the first key has no
 *               sort_list__output_key(): compare with sort_list__output_cmp()
 * @return 0, or -ENOMEM (t->v NULL).
 * Thread safety: pure.  Format: none (perf's hist_entry__sort(), see output_cmp).
 */
int sort_list__output_ties(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *v, size_t nr, const uint32_t *order,
			   size_t n, struct sort_ties *t);

/**
 * @brief sort_list__cmp() of the leading comm and dso keys as numbers: for each entry
 *        of @p order, t->width ranks at t->v[id * t->width], higher for what compares
 *        lower; sort_list__cmp(a, b) is the first of the ranks that differ (-1 where
 *        a's is higher), else sort_list__cmp_from(l, t->from, a, b).  The ranks are
 *        those of sort_list__output_ties(): these keys sort as they compare.
 * @param t  filled; t->v NULL where the list does not start with such a key
 * @return 0, or -ENOMEM (t->v NULL).
 * Thread safety: pure.  Format: none (perf's hist_entry__collapse() with the comm
 *         and dso keys, sort__comm_collapse and sort__dso_cmp).
 */
int sort_list__cmp_ranks(const struct sort_list *l, const struct hist_entry *v, size_t nr,
			 const uint32_t *order, size_t n, struct sort_ties *t);


/** Column widths of a report (perf's hists col_len, per output field). */
struct sort_widths {
	size_t w[SORT_MAX_FIELDS];
	size_t natural[SORT_MAX_FIELDS];	/* without -w */
	size_t col_len[64];	/* perf's HISTC_* lengths, see sort.c */
	size_t group_nr;	/* group view: events per line (perf's nr_members), set
				 * between init and finish; 0 or 1: one.  A value
				 * column is then at least group_nr times its own
				 * width (perf's hpp__width_fn) */
};

/**
 * @brief Column widths, in three steps: sort_widths__init() (the headers),
 *        sort_widths__add() for every entry printed (perf's hists__calc_col_len),
 *        sort_widths__finish() (-w, the value columns).
 * Thread safety: touch only @p w.  Format: none.
 */
void sort_widths__init(struct sort_widths *w, const struct sort_list *l);
void sort_widths__add(struct sort_widths *w, const struct sort_list *l,
		      const struct hist_entry *e);
void sort_widths__finish(struct sort_widths *w, const struct sort_list *l);

/**
 * @brief Print the column header lines ("# Overhead  Command ...", the dots line and
 *        "#"; with -t only the first).
 * Thread safety: pure but for @p out.  Format: none.
 */
void sort_list__fprintf_header(const struct sort_list *l, const struct sort_widths *w,
			       FILE *out);

/**
 * @brief Print one entry's line (with its newline), as perf's hist_entry__fprintf:
 *        columns padded to their widths but the last, cut at perf's line buffer.
 * @param total  the event's total period (percent base)
 * @return 0 or -ENOMEM.
 * Thread safety: pure but for @p out.  Format: none.
 */
int sort_list__fprintf_entry(const struct sort_list *l, const struct sort_widths *w,
			     const struct hist_entry *e, uint64_t total, FILE *out);

/**
 * @brief sort_list__fprintf_entry() for perf's group view: each value column prints
 *        the entry's value, then its pairs' (e->pairs; 0 for none), each as wide as
 *        the column alone would be (perf's __hpp__fmt), the line padded as usual.
 * @param totals  1 + e->nr_pairs percent bases: the leader's total period, then each
 *                member's (a member with total 0 prints 0)
 * @return 0 or -ENOMEM.
 * Thread safety: pure but for @p out.  Format: none (perf report --stdio --group).
 */
int sort_list__fprintf_group_entry(const struct sort_list *l, const struct sort_widths *w,
				   const struct hist_entry *e, const uint64_t *totals,
				   FILE *out);

/*
 * --hierarchy (report/hierarchy.h): the sort keys are the levels, key 0 the outermost.
 * A key index is one of the sort keys (not the value columns) in sort order,
 * 0 <= key < sort_list__nr_keys().  Thread safety: as the rest of this file: pure
 * but for @p out, @p buf and the lazily computed texts of the entries.  Format: none.
 */

/** @brief The number of sort keys (levels of the hierarchy). */
size_t sort_list__nr_keys(const struct sort_list *l);

/** @brief Key @p key's column header, left-trimmed (e.g. "Pid:Command"); static. */
const char *sort_list__key_header(const struct sort_list *l, size_t key);

/** @brief Key @p key's width: its column length in @p w, at least its header's. */
size_t sort_list__key_width(const struct sort_list *l, const struct sort_widths *w,
			    size_t key);

/**
 * @brief Key @p key's own comparison (the collapse one): 0 when a and b are one node
 *        of that level; < 0 puts a first.
 */
int sort_list__key_cmp(const struct sort_list *l, size_t key, const struct hist_entry *a,
		       const struct hist_entry *b);

/**
 * @brief The output order of two nodes of level @p key: the value sort keys (overhead,
 *        then samples, period as sorted), then key @p key's output sort; > 0 puts a
 *        first, 0 ties.
 */
int sort_list__key_output_cmp(const struct sort_list *l, size_t key,
			      const struct hist_entry *a, const struct hist_entry *b);

/**
 * @brief The value columns of an entry as perf's hierarchy prints them: two spaces,
 *        then each value column padded to its width in @p w, separated by two
 *        spaces; no newline.  A column holds the entry's value (a percent of
 *        totals[0], or a count), then, in the group view, each of e->pairs' (of
 *        totals[k + 1]; 0 for a NULL pair).
 * @param totals  1 + e->nr_pairs percent bases (the event's unit)
 * @param buf, len  receive the text (cut to len - 1 bytes, always terminated)
 * @return the length written.
 */
size_t sort_list__snprintf_values(const struct sort_list *l, const struct sort_widths *w,
				  const struct hist_entry *e, const uint64_t *totals,
				  char *buf, size_t len);

/**
 * @brief Key @p key's text of an entry as perf's hierarchy prints it: the key's own
 *        format at the column's width (sort_list__key_width()), left-trimmed (padding
 *        at the end is kept: comm and dso pad themselves, symbol does not).
 * @param buf, len  receive the text (cut to len - 1 bytes, always terminated)
 * @return the length written.
 */
size_t sort_list__snprintf_key(const struct sort_list *l, const struct sort_widths *w,
			       size_t key, const struct hist_entry *e, char *buf, size_t len);

/**
 * @brief The value columns' headers (@p dots false: right-aligned names separated by
 *        two spaces) or their dots line part (@p dots true: dots, ".." between).
 */
void sort_list__fprintf_value_headers(const struct sort_list *l,
				      const struct sort_widths *w, bool dots, FILE *out);

/**
 * @brief Whether a -s list names a value column (overhead, overhead_sys, ..., sample,
 *        period): perf's hierarchy places those in ways dirreport does not follow.
 * @param order  a -s argument ("+KEYS" too); NULL: none
 * @return true also when memory runs out (the caller then refuses the option).
 */
bool sort_order__has_value_key(const char *order);

#endif
