#ifndef DIRREPORT_REPORT_SORT_INTERNAL_H
#define DIRREPORT_REPORT_SORT_INTERNAL_H
#ifndef DIRREPORT_IN_REPORT
#error "sort-internal.h is private to report/"
#endif
/*
 * sort-internal - what the files behind report/sort.h share, and nothing else
 * includes: a key or column (struct sort_dim, perf's sort dimension and hpp
 * format), the helpers the keys' comparisons and texts have in common, and the keys
 * the list code treats by name (-v's and --ns' other texts, keys that are not
 * hashed, the comm, dso and symbol keys' ranks).  Not part of libreport's interface.
 *
 * - sort.c: how entries compare: the comm, dso and symbol keys' comparisons, an
 *   entry's keys in the list's order (classes, trees, output order, ties, ranks);
 * - sort-setup.c: the lists built from -s, -F, -w and the options;
 * - sort-keys.c: the value columns and the keys of every report (comparison, text)
 *   and their table;
 * - sort-mem.c: the --mem-mode keys and their table;
 * - sort-branch.c: the branch view's keys and their table;
 * - sort-print.c: the columns' widths, the header and entry lines, --hierarchy's
 *   texts.
 *
 * A key's comparison cmp(a, b) takes a new entry a and a tree node b (< 0: a goes
 * left); its text print(e, buf, len, width) writes at most len - 1 bytes and a NUL,
 * and returns the bytes written (perf's *_snprintf(), cut to what fits).
 *
 * Thread safety: the tables are immutable; comparisons and texts only read the
 * entries (the lazy srcline, srcfile and trace texts are written by the thread that
 * owns them: hist-build.c, hist-order.c); the branch view's mispredict, in_tx and
 * abort texts keep a static each, as perf's do (printing is the main thread's:
 * sort.h).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report/sort.h"	/* struct hist_entry, struct sort_list, SORT_NEED_* */

struct dso;
struct symbol;

/* perf's hist column length slots (HISTC_*), for the keys that have one. */
enum histc {
	HISTC_SYMBOL, HISTC_DSO, HISTC_THREAD, HISTC_COMM, HISTC_CPU, HISTC_SOCKET,
	HISTC_TIME, HISTC_ADDR, HISTC_DSO_SIZE, HISTC_SYM_SIZE, HISTC_IPC, HISTC_PARENT,
	HISTC_LOCAL_WEIGHT, HISTC_GLOBAL_WEIGHT, HISTC_LOCAL_INS_LAT, HISTC_GLOBAL_INS_LAT,
	HISTC_LOCAL_P_STAGE_CYC, HISTC_GLOBAL_P_STAGE_CYC, HISTC_SRCLINE, HISTC_SRCFILE,
	HISTC_CGROUP_ID, HISTC_CGROUP, HISTC_CODE_PAGE_SIZE, HISTC_TRACE,
	HISTC_MEM_DADDR_SYMBOL, HISTC_MEM_DADDR_DSO, HISTC_MEM_LVL, HISTC_MEM_SNOOP,
	HISTC_MEM_TLB, HISTC_MEM_LOCKED, HISTC_MEM_BLOCKED, HISTC_MEM_PHYS_DADDR,
	HISTC_MEM_DATA_PAGE_SIZE, HISTC_TRANSACTION, HISTC_MEM_DCACHELINE,
	HISTC_MEM_IADDR_SYMBOL, HISTC_DSO_FROM, HISTC_DSO_TO, HISTC_SYMBOL_FROM,
	HISTC_SYMBOL_TO, HISTC_MISPREDICT, HISTC_IN_TX, HISTC_ABORT, HISTC_CYCLES,
	HISTC_ADDR_FROM, HISTC_ADDR_TO, HISTC_NONE,
};
_Static_assert(HISTC_NONE < sizeof(((struct sort_widths *)0)->col_len) / sizeof(size_t),
	       "struct sort_widths.col_len has a slot per HISTC_*");

/* perf prints unresolved addresses with the width of a long in hex. */
#define UNRESOLVED_WIDTH 16

enum dim_kind {
	DIM_HPP,	/* a value column: overhead, samples, period */
	DIM_SE,		/* a sort entry: comm, dso, symbol, ... */
};

/* The value of a value column. */
typedef uint64_t (*value_fn)(const struct hist_entry *e);

struct sort_dim {
	const char *name;		/* -s / -F spelling */
	enum dim_kind kind;
	const char *header;
	/* DIM_HPP */
	int len;			/* perf's fmt->len */
	bool percent;			/* printed as a percentage of the total */
	value_fn value;
	bool acc;			/* the children column (sort: caller first) */
	/* DIM_SE */
	enum histc histc;
	int (*cmp)(const struct hist_entry *a, const struct hist_entry *b);
	int (*sort)(const struct hist_entry *a, const struct hist_entry *b);
	size_t (*print)(const struct hist_entry *e, char *buf, size_t len, size_t width);
	unsigned need;			/* enum sort_need */
	bool collapse;			/* perf's se_collapse: entries are collapsed */
	bool unsupported;		/* perf has it, dirreport does not (yet) */
	bool no_sort_key;		/* perf 6.1 on x86 drops it from -s silently
					 * (an arch-specific key); -F shows it */
	bool mem;			/* a memory key: only with --mem-mode */
	bool branch;			/* a branch key: only in the branch view */
	int (*cmp_v)(const struct hist_entry *a, const struct hist_entry *b);	/* -v's */
	int (*sort_v)(const struct hist_entry *a, const struct hist_entry *b);	/* cmp,
					 * sort (the branch keys; NULL: as without) */
	bool field_only;		/* perf 6.1 refuses it in -s (usage, no
					 * message: ipc_null); -F shows it */
};

/* ---- helpers -------------------------------------------------------------------- */

static inline int sort__cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* The sign of perf's (int64_t)(b - a) style comparisons: not transitive across 2^63,
 * which matters (see rbtree.h). */
static inline int sort__cmp_diff(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's cmp_null(l, r) for "a new entry against a node". */
static inline int sort__null_last(const void *a, const void *b)
{
	return !a && !b ? 0 : !a ? 1 : -1;
}

/* An entry's map-relative address as the virtual address it was (unmapped). */
static inline uint64_t sort__unmap_ip(const struct hist_entry *e, uint64_t ip)
{
	return e->map_end ? ip - e->map_pgoff + e->map_start : ip;
}

/* sort__hpp_dims[]: the value columns (sort-keys.c) */
enum {
	DIM_OVERHEAD, DIM_OVERHEAD_SYS, DIM_OVERHEAD_US, DIM_OVERHEAD_GUEST_SYS,
	DIM_OVERHEAD_GUEST_US, DIM_OVERHEAD_CHILDREN, DIM_SAMPLE, DIM_PERIOD,
	DIM_NR_HPP
};

/*
 * The keys' functions other files refer to.  The comparisons (struct sort_dim.cmp,
 * .sort) take a new entry and a tree node, as above; the texts (struct
 * sort_dim.print) write into buf as above.  All only read the entries.
 */

/** A key's comparison (struct sort_dim.cmp, .sort). */
typedef int sort_cmp_fn(const struct hist_entry *a, const struct hist_entry *b);
/** A key's text (struct sort_dim.print). */
typedef size_t sort_text_fn(const struct hist_entry *e, char *buf, size_t len, size_t width);

/* ---- sort.c: the comm, dso and symbol keys, and one key of a list ------------------ */

/** @brief The comm key (perf's sort__comm_cmp): by text, the same pointer equal. */
sort_cmp_fn sort__comm_cmp;
/** @brief The dso key (perf's sort__dso_cmp): by short name, unknown dsos after the
 *  named ones. */
sort_cmp_fn sort__dso_cmp;
/** @brief The symbol key's comparison function (its dim's cmp; the list's
 *  comparisons call sort_list's own symbol comparison instead, which knows whether a
 *  dso key is there and which order is asked for). */
sort_cmp_fn sort__sym_cmp;
/** @brief The symbol key's output order (perf's sort__sym_sort): resolved first, then
 *  by name. */
sort_cmp_fn sort__sym_sort;

/** @brief The @p key-th sort key (a DIM_SE of l->sorts, from 0), or NULL past the
 *  last (sort_list__nr_keys()). */
const struct sort_dim *sort_list__key_dim(const struct sort_list *l, size_t key);

/* ---- sort-keys.c: the value columns and the keys of every report -------------------- */

/** @brief snprintf() returning what was written: at most @p len - 1 bytes (0 when
 *  @p len is 0 or on an encoding error). */
size_t sort__put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/**
 * @brief perf's _hist_entry__sym_snprintf(): "[L] name" (cut to @p width; an object
 *        with its offset from the address) or the address; with @p verbose the
 *        address and the dso's symtab origin first.
 * @param addr            the map-relative address (an entry's or a branch end's)
 * @param unmapped_start  the symbol's start as unmapped (hist_entry.sym_unmapped_start)
 * @return the bytes written into @p buf (at most @p len - 1).
 */
size_t sort__sym_text(char *buf, size_t len, size_t width, bool verbose, uint64_t addr,
		      const struct dso *dso, char level, const struct symbol *sym,
		      uint64_t unmapped_start);

/** @brief The code_page_size key's text (the data_page_size key's too): the size in
 *  B, K, M or G, "N/A" for 0. */
sort_text_fn sort__code_page_size_snprintf;

/** @brief The addr key: by virtual address, the sign of the difference (not hashed:
 *  sort-setup.c). */
sort_cmp_fn sort__addr_cmp;

/** @brief An entry's srcline or srcfile computed by the list's lazy callbacks the
 *  first time key @p d needs it, or its trace text marked known (perf computes them
 *  as it compares and prints).  Writes the entry (its owner's thread only). */
void sort__lazy_text_slow(const struct sort_list *l, const struct sort_dim *d,
			  const struct hist_entry *e);

/** @brief The symbol key's text (sort__sym_text() of the entry). */
sort_text_fn sort__sym_snprintf;
/** @brief ... with -v: the address and the symtab origin first. */
sort_text_fn sort__sym_verbose_snprintf;
/** @brief The dso key's text: the short name, "[unknown]" without a dso. */
sort_text_fn sort__dso_snprintf;
/** @brief ... with -v: the long name. */
sort_text_fn sort__dso_long_snprintf;
/** @brief The time key's text: seconds with 6 decimals. */
sort_text_fn sort__time_snprintf;
/** @brief ... with --ns: seconds with 9 decimals. */
sort_text_fn sort__time_ns_snprintf;

/** @brief The first of the @p n keys in @p v whose name @p tok is a prefix of, or NULL
 *  (case-insensitive, as perf's sort_dimension__add). */
const struct sort_dim *sort__dims_find(const struct sort_dim *v, size_t n, const char *tok);
/** @brief perf's sort_dimension__add lookup: the first key, then value column,
 *  @p tok is a prefix of, or NULL (the branch and memory keys: their own finders). */
const struct sort_dim *sort__dim_find(const char *tok);

/** The value columns, by DIM_*. */
extern const struct sort_dim sort__hpp_dims[DIM_NR_HPP];
/** Self in children mode: the overhead column renamed. */
extern const struct sort_dim sort__self_dim;
/** perf's sort_sym_ipc_null: the IPC column, which compares like the symbol key. */
extern const struct sort_dim sort__ipc_dim;

/* ---- sort-mem.c: the --mem-mode keys ------------------------------------------------ */

/** @brief The dcacheline key (not hashed: sort-setup.c). */
sort_cmp_fn sort__dcacheline_cmp;
/** @brief The symbol_iaddr key: by virtual address (not hashed: sort-setup.c). */
sort_cmp_fn sort__iaddr_cmp;
/** @brief The dso_daddr key: by short name, in the opposite order of the dso key. */
sort_cmp_fn sort__dso_daddr_cmp;
/** @brief ... with -v: by long name. */
sort_cmp_fn sort__dso_daddr_long_cmp;

/** @brief The symbol_daddr key's text (the data symbol, or its absolute address). */
sort_text_fn sort__daddr_sym_snprintf;
/** @brief ... with -v: the address and the symtab origin first. */
sort_text_fn sort__daddr_sym_verbose_snprintf;
/** @brief The dcacheline key's text (the data address's cache line). */
sort_text_fn sort__dcacheline_snprintf;
/** @brief ... with -v: the line and the symtab origin first. */
sort_text_fn sort__dcacheline_verbose_snprintf;
/** @brief The symbol_iaddr key's text (the code symbol, or its address). */
sort_text_fn sort__iaddr_snprintf;
/** @brief ... with -v: the address and the symtab origin first. */
sort_text_fn sort__iaddr_verbose_snprintf;
/** @brief The dso_daddr key's text: the data object's short name. */
sort_text_fn sort__dso_daddr_snprintf;
/** @brief ... with -v: the long name. */
sort_text_fn sort__dso_daddr_long_snprintf;

/** @brief The memory key @p tok is a prefix of, or NULL. */
const struct sort_dim *sort__mem_dim_find(const char *tok);

/* ---- sort-branch.c: the branch view's keys ------------------------------------------ */

/** @brief The symbol_from / symbol_to keys' texts (a branch end's symbol), and with
 *  -v (_verbose) the address and the symtab origin first; "N/A" without a branch. */
sort_text_fn sort__sym_from_snprintf;
sort_text_fn sort__sym_to_snprintf;
sort_text_fn sort__sym_from_verbose_snprintf;
sort_text_fn sort__sym_to_verbose_snprintf;
/** @brief The dso_from / dso_to keys' texts (a branch end's dso's short name, with -v
 *  (_long) its long name); "N/A" without a branch. */
sort_text_fn sort__dso_from_snprintf;
sort_text_fn sort__dso_to_snprintf;
sort_text_fn sort__dso_from_long_snprintf;
sort_text_fn sort__dso_to_long_snprintf;

/** @brief The branch key @p tok is a prefix of, or NULL. */
const struct sort_dim *sort__branch_dim_find(const char *tok);

/* sort__lazy_text_slow() for the lists with such a key (a call per key of every
 * comparison, 2.6 % of the --stdio report's CPU, where none has one) */
static inline void sort__lazy_text(const struct sort_list *l, const struct sort_dim *d,
				   const struct hist_entry *e)
{
	if (l->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE))
		sort__lazy_text_slow(l, d, e);
}

#endif
