#include "report/sort.h"

#include <errno.h>
#include <inttypes.h>	/* PRIu64, PRIx64 */
#include <stdarg.h>
#include <stdlib.h>	/* free, malloc, strtol */
#include <string.h>	/* strcasecmp, strchr, strdup, strlen, strncasecmp, strtok_r */
#include <strings.h>	/* strncasecmp */

#include "machine/dso.h"
#include "machine/machine.h"
#include "report/branch.h"
#include "machine/mem.h"
#include "util/hashtab.h"
#include "machine/symbol.h"
#include "banned.h"

const struct hist_mem hist_mem__none;

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

static int cmp_i64(int64_t a, int64_t b)
{
	return a < b ? -1 : a > b;
}

/* The sign of perf's (int64_t)(b - a) style comparisons: not transitive across 2^63,
 * which matters (see rbtree.h). */
static int cmp_diff(uint64_t a, uint64_t b)
{
	int64_t d = (int64_t)(a - b);

	return d < 0 ? -1 : d > 0;
}

/* perf's cmp_null(l, r) for "a new entry against a node". */
static int null_last(const void *a, const void *b)
{
	return !a && !b ? 0 : !a ? 1 : -1;
}

/* snprintf returning what was written (at most len - 1). */
static size_t put(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static size_t put(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (!len)
		return 0;
	va_start(ap, fmt);
	n = vsnprintf(buf, len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return 0;
	return (size_t)n < len ? (size_t)n : len - 1;
}

static const char *dso_name(const struct hist_entry *e)
{
	return e->dso ? dso__short_name(e->dso) : "[unknown]";
}

/* -v: perf names dsos by their long names */
static const char *dso_long_name(const struct hist_entry *e)
{
	return e->dso ? dso__long_name(e->dso) : "[unknown]";
}

static uint64_t unmap_ip(const struct hist_entry *e, uint64_t ip)
{
	return e->map_end ? ip - e->map_pgoff + e->map_start : ip;
}

/* ---- value columns ---------------------------------------------------------------- */

static uint64_t v_period(const struct hist_entry *e) { return e->stat.period; }
static uint64_t v_period_acc(const struct hist_entry *e) { return e->stat_acc.period; }
static uint64_t v_sys(const struct hist_entry *e) { return e->stat.period_sys; }
static uint64_t v_us(const struct hist_entry *e) { return e->stat.period_us; }
static uint64_t v_guest_sys(const struct hist_entry *e) { return e->stat.period_guest_sys; }
static uint64_t v_guest_us(const struct hist_entry *e) { return e->stat.period_guest_us; }
static uint64_t v_samples(const struct hist_entry *e) { return e->stat.nr_events; }

/* ---- sort entries: comparisons (a: new entry, b: tree node; < 0: a goes left) --- */

/* The comm, dso and symbol keys' comparisons on the fields alone: the entries' (c_*)
 * and their copies beside the entry trees' (sort_list__cmp_keys()) are the same. */
static int k_comm(const char *a, const char *b)
{
	return a == b ? 0 : strcmp(a, b);
}

static int c_comm(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_comm(a->comm, b->comm);
}

static int32_t tid_of(const struct hist_entry *e)
{
	return e->thread ? e->thread->tid : -1;
}

static int c_pid(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_i64(tid_of(a), tid_of(b));
}

static int k_dso(const struct dso *a, const struct dso *b)
{
	if (a == b)
		return 0;
	if (!a || !b)		/* [unknown] after named dsos */
		return null_last(a, b);
	return strcmp(dso__short_name(a), dso__short_name(b));
}

static int c_dso(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_dso(a->dso, b->dso);
}

/* The dso key on the dsos: by short name, or (-v, perf's sort__dso_cmp) by long name. */
static int k_dso_by(bool long_names, const struct dso *a, const struct dso *b)
{
	if (!long_names)
		return k_dso(a, b);
	if (a == b)
		return 0;
	if (!a || !b)
		return null_last(a, b);
	return strcmp(dso__long_name(a), dso__long_name(b));
}

/* -v: c_dso by long names */
static int c_dso_long(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_dso_by(true, a->dso, b->dso);
}

/* perf's _sort__sym_cmp() with a dso key (which compares the dsos on its own):
 * addresses of unresolved entries, symbol starts and ends. */
static int k_sym_nodso(const struct symbol *as, uint64_t aip, const struct symbol *bs,
		       uint64_t bip)
{
	if (!as && !bs)
		return cmp_diff(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if (as == bs)
		return 0;
	/* perf's _sort__sym_cmp(): inlined functions by name, equal when their
	 * symbols overlap */
	if (as->inlined || bs->inlined) {
		/* perf's strcmp(left, right): the node's name first */
		int c = strcmp(bs->name, as->name);

		if (c)
			return c < 0 ? -1 : 1;
		if (as->start <= bs->end && as->end >= bs->start)
			return 0;
	}
	if (as->start != bs->start)
		return cmp_diff(as->start, bs->start);
	return cmp_diff(as->end, bs->end);
}

/* ... without a dso key (perf's sort__sym_cmp): symbol addresses are relative to their
 * dso, so dsos are compared first (-v: by long name) */
static int k_sym(bool long_names, const struct dso *ad, const struct symbol *as,
		 uint64_t aip, const struct dso *bd, const struct symbol *bs, uint64_t bip)
{
	int c;

	if (!as && !bs)
		return cmp_diff(aip, bip);
	if ((c = k_dso_by(long_names, ad, bd)))
		return c;
	return k_sym_nodso(as, aip, bs, bip);
}

/* The symbol key's comparison function (its dim's cmp; sym_cmp() decides) */
static int c_sym(const struct hist_entry *a, const struct hist_entry *b)
{
	return k_sym(false, a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return a < b ? -1 : a > b;
}

/*
 * The symbol key's total order (sort_list.total_order), with the dso key: entries
 * with a symbol first, then those without by address (as unsigned numbers); symbols
 * by start and end, inlined functions after the others and by name alone.  Equal
 * exactly where k_sym_nodso() is, but for inlined functions: perf's are equal where
 * their names are and their ranges overlap, which is not transitive; these are equal
 * where their names are.
 */
static int t_sym_nodso(const struct symbol *as, uint64_t aip, const struct symbol *bs,
		       uint64_t bip)
{
	if (!as && !bs)
		return cmp_u64(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if (as == bs)
		return 0;
	if (as->inlined != bs->inlined)
		return as->inlined ? 1 : -1;
	if (as->inlined) {
		int c = strcmp(as->name, bs->name);

		return c < 0 ? -1 : c > 0;
	}
	if (as->start != bs->start)
		return cmp_u64(as->start, bs->start);
	return cmp_u64(as->end, bs->end);
}

/* ... and without a dso key: perf's k_sym() compares two unresolved entries by address
 * alone and the others by dso first, an order that is not transitive; here the
 * unresolved ones come after all others, and equality is k_sym()'s. */
static int t_sym(bool long_names, const struct dso *ad, const struct symbol *as,
		 uint64_t aip, const struct dso *bd, const struct symbol *bs, uint64_t bip)
{
	int c;

	if (!as && !bs)
		return cmp_u64(aip, bip);
	if (!as || !bs)
		return as ? -1 : 1;
	if ((c = k_dso_by(long_names, ad, bd)))
		return c;
	return t_sym_nodso(as, aip, bs, bip);
}

/* The symbol key on its fields, as l compares it: perf's order or the total one;
 * @p with_dso: a dso key compares the dsos on its own; -v: dsos by long name */
static int sym_key_cmp(const struct sort_list *l, bool with_dso, const struct dso *ad,
		       const struct symbol *as, uint64_t aip, const struct dso *bd,
		       const struct symbol *bs, uint64_t bip)
{
	if (with_dso)
		return l->total_order ? t_sym_nodso(as, aip, bs, bip)
				      : k_sym_nodso(as, aip, bs, bip);
	return l->total_order ? t_sym(l->verbose, ad, as, aip, bd, bs, bip)
			      : k_sym(l->verbose, ad, as, aip, bd, bs, bip);
}

static int sym_cmp(const struct sort_list *l, bool with_dso, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	return sym_key_cmp(l, with_dso, a->dso, a->sym, a->ip, b->dso, b->sym, b->ip);
}

/* perf's sort__sym_sort: resolved first, then by name. */
static int s_sym(const struct hist_entry *a, const struct hist_entry *b)
{
	if (!a->sym || !b->sym)
		return a->sym ? -1 : b->sym ? 1 : 0;
	return strcmp(symbol__name(a->sym), symbol__name(b->sym));
}

static int c_cpu(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_i64(a->cpu, b->cpu);
}

static int c_socket(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_i64(a->socket, b->socket);
}

static int c_time(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(a->time, b->time);
}

static int c_addr(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(unmap_ip(a, a->ip), unmap_ip(b, b->ip));
}

static uint64_t map_size(const struct hist_entry *e)
{
	return e->map_end - e->map_start;
}

static int c_dso_size(const struct hist_entry *a, const struct hist_entry *b)
{
	uint64_t sa = map_size(a), sb = map_size(b);

	return sa < sb ? -1 : sa > sb;
}

static uint64_t sym_size(const struct hist_entry *e)
{
	return e->sym ? e->sym->end - e->sym->start : 0;
}

static int c_sym_size(const struct hist_entry *a, const struct hist_entry *b)
{
	uint64_t sa = sym_size(a), sb = sym_size(b);

	return sa < sb ? -1 : sa > sb;
}

/* perf's sort__parent_cmp: entries without a parent last, then by name. */
static int c_parent(const struct hist_entry *a, const struct hist_entry *b)
{
	if (!a->parent || !b->parent)
		return null_last(a->parent, b->parent);
	return strcmp(symbol__name(a->parent), symbol__name(b->parent));
}

/* weight, ins_lat, p_stage_cyc: perf keys entries on the sample's value (the local
 * keys print it, the global ones it times the entry's samples).  perf's comparisons
 * are "left - right" (node - new entry): larger values print first among ties
 * (observed with the branch view's weights, the first branch's cycles). */
static int c_weight(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(b->weight, a->weight);
}

static int c_ins_lat(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(b->ins_lat, a->ins_lat);
}

static int c_p_stage_cyc(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(b->p_stage_cyc, a->p_stage_cyc);
}

/* perf's srcline / srcfile keys: by text */
static int c_srcline(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->srcline == b->srcline ? 0 : strcmp(a->srcline, b->srcline);
}

static int c_srcfile(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->srcfile == b->srcfile ? 0 : strcmp(a->srcfile, b->srcfile);
}

/* perf's cgroup keys: the sample's cgroup id, its thread's cgroup namespace */
static int c_cgroup(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(a->cgroup, b->cgroup);
}

static int c_cgroup_id(const struct hist_entry *a, const struct hist_entry *b)
{
	int c = cmp_diff(a->cgroup_dev, b->cgroup_dev);

	return c ? c : cmp_diff(a->cgroup_ino, b->cgroup_ino);
}

static int c_code_page_size(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(a->code_page_size, b->code_page_size);
}

/* perf's sort__trace_cmp: by text; events that are not tracepoints compare equal */
static int c_trace(const struct hist_entry *a, const struct hist_entry *b)
{
	if (a->trace == b->trace || !a->trace || !b->trace)
		return 0;
	return strcmp(a->trace, b->trace);
}

/* --mem-mode keys (report/mem.h): the data address, its dso, one data_src field */
static int c_daddr(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return cmp_diff(am->addr, bm->addr);
}

/* by name as the dso key, but in the opposite order (observed: ties print
 * "ld-linux-x86-64.so.2" before "gconv-modules.cache") */
static int c_dso_daddr(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	if (am->dso == bm->dso)
		return 0;
	if (!am->dso || !bm->dso)
		return -null_last(am->dso, bm->dso);
	return strcmp(dso__short_name(bm->dso), dso__short_name(am->dso));
}

/* -v: by long names */
static int c_dso_daddr_long(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	if (am->dso == bm->dso)
		return 0;
	if (!am->dso || !bm->dso)
		return -null_last(am->dso, bm->dso);
	return strcmp(dso__long_name(bm->dso), dso__long_name(am->dso));
}

static int c_phys_daddr(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return cmp_diff(am->phys_addr, bm->phys_addr);
}

static int c_data_page_size(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return cmp_diff(am->page_size, bm->page_size);
}

static int c_mem_field(const struct hist_entry *a, const struct hist_entry *b,
		       enum mem_field f)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return cmp_diff(mem_src__field(am->data_src, f), mem_src__field(bm->data_src, f));
}

static int c_mem_lvl(const struct hist_entry *a, const struct hist_entry *b)
{
	return c_mem_field(a, b, MEM_FIELD_LVL);
}

static int c_mem_snoop(const struct hist_entry *a, const struct hist_entry *b)
{
	return c_mem_field(a, b, MEM_FIELD_SNOOP);
}

static int c_mem_tlb(const struct hist_entry *a, const struct hist_entry *b)
{
	return c_mem_field(a, b, MEM_FIELD_DTLB);
}

static int c_mem_lock(const struct hist_entry *a, const struct hist_entry *b)
{
	return c_mem_field(a, b, MEM_FIELD_LOCK);
}

static int c_mem_blk(const struct hist_entry *a, const struct hist_entry *b)
{
	return c_mem_field(a, b, MEM_FIELD_BLK);
}

/* ---- sort entries: text --------------------------------------------------------- */

static size_t p_comm(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-*.*s", (int)width, (int)width, e->comm);
}

static size_t p_pid(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	size_t w = width > 8 ? width - 8 : 0;
	const char *comm = e->thread ? thread__comm(e->thread) : "";

	return put(buf, len, "%7d:%-*.*s", (int)tid_of(e), (int)w, (int)w, comm);
}

static size_t p_dso(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-*.*s", (int)width, (int)width, dso_name(e));
}

/* perf's _hist_entry__sym_snprintf: "[L] name" (cut to the width; an object with its
 * offset from the address) or the address; with -v the address (a long's hex digits
 * and 0x, left-aligned) and the dso's symtab origin first.  Entries and branch ends
 * alike: addr is the entry's (map-relative) address, unmapped_start the symbol's. */
static size_t sym_text(char *buf, size_t len, size_t width, bool verbose, uint64_t addr,
		       const struct dso *dso, char level, const struct symbol *sym,
		       uint64_t unmapped_start)
{
	size_t n = 0;

	if (verbose)
		n = put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, addr,
			dso ? dso->origin_letter : '!');
	n += put(buf + n, len - n, "[%c] ", level);
	if (sym && dso) {
		if (sym->type == 1 /* STT_OBJECT */)
			return n + put(buf + n, len - n, "%s+0x%" PRIx64, symbol__name(sym),
				       addr - unmapped_start);
		/* a negative precision (a narrow -w) does not cut */
		n += put(buf + n, len - n, "%.*s", (int)width - (int)n, symbol__name(sym));
		return n + (sym->inlined ? put(buf + n, len - n, " (inlined)") : 0);
	}
	if (!addr)	/* "%-#.*llx" prints no 0x for zero */
		return n + put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, addr);
}

static size_t p_sym_any(const struct hist_entry *e, char *buf, size_t len, size_t width,
			bool verbose)
{
	return sym_text(buf, len, width, verbose, e->ip, e->dso, e->level, e->sym,
			e->sym_unmapped_start);
}

static size_t p_sym(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_sym_any(e, buf, len, width, false);
}

static size_t p_sym_verbose(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_sym_any(e, buf, len, width, true);
}

static size_t p_dso_long(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-*.*s", (int)width, (int)width, dso_long_name(e));
}

static size_t p_parent(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-*.*s", (int)width, (int)width,
		   e->parent ? symbol__name(e->parent) : "[other]");
}

static size_t p_local_weight(const struct hist_entry *e, char *buf, size_t len,
			     size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->weight);
}

static size_t p_global_weight(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->weight * e->stat.nr_events);
}

static size_t p_local_ins_lat(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->ins_lat);
}

static size_t p_global_ins_lat(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->ins_lat * e->stat.nr_events);
}

static size_t p_local_p_stage_cyc(const struct hist_entry *e, char *buf, size_t len,
				  size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->p_stage_cyc);
}

static size_t p_global_p_stage_cyc(const struct hist_entry *e, char *buf, size_t len,
				   size_t width)
{
	return put(buf, len, "%-*" PRIu64, (int)width, e->p_stage_cyc * e->stat.nr_events);
}

static size_t p_srcline(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-.*s", (int)width, e->srcline);
}

static size_t p_srcfile(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-.*s", (int)width, e->srcfile);
}

/* perf's hist_entry__trace_snprintf: cut to the width, never padded by itself */
static size_t p_trace(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-.*s", (int)width, e->trace ? e->trace : "N/A");
}

/* perf prints both whole, whatever the column's width */
static size_t p_cgroup(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)width;
	return put(buf, len, "%s", e->cgroup_name ? e->cgroup_name : "N/A");
}

static size_t p_cgroup_id(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)width;
	return put(buf, len, "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev, e->cgroup_ino);
}

/* A page size as perf prints it: N/A for none, else the number in the largest unit
 * (B, K, M, G) that leaves more than 1 of it when divided once more. */
static size_t p_code_page_size(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	static const char unit[] = "BKMG";
	uint64_t n = e->code_page_size;
	char t[32];
	int i = 0;

	if (!n)
		return put(buf, len, "%-*s", (int)width, "N/A");
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(t, sizeof(t), "%" PRIu64 "%c", n, unit[i]);
	return put(buf, len, "%-*s", (int)width, t);
}

/* --mem-mode: the data symbol as perf's symbol column prints a symbol, but with
 * the absolute address (unresolved: "0x" and 16 digits; 0 as 16 zeros) and an
 * object's offset from it */
static size_t p_daddr_sym_any(const struct hist_entry *e, char *buf, size_t len,
			      size_t width, bool verbose)
{
	const struct hist_mem *m = hist_entry__mem(e);
	size_t n = 0;

	if (verbose)	/* -v: the address and the dso's symtab origin first */
		n = put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, m->addr,
			m->dso ? m->dso->origin_letter : '!');
	n += put(buf + n, len - n, "[%c] ", e->level);

	if (m->sym && m->dso) {
		if (m->sym->type == 1 /* STT_OBJECT */)
			return n + put(buf + n, len - n, "%s+0x%" PRIx64, symbol__name(m->sym),
				       m->addr - m->sym_unmapped_start);
		return n + put(buf + n, len - n, "%.*s", (int)width - (int)n,
			       symbol__name(m->sym));
	}
	if (!m->addr)
		return n + put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, m->addr);
}

static size_t p_daddr_sym(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_daddr_sym_any(e, buf, len, width, false);
}

static size_t p_daddr_sym_verbose(const struct hist_entry *e, char *buf, size_t len,
				  size_t width)
{
	return p_daddr_sym_any(e, buf, len, width, true);
}

/* -v: the long name */
static size_t p_dso_daddr_long(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);

	return put(buf, len, "%-*.*s", (int)width, (int)width,
		   m->dso ? dso__long_name(m->dso) : "[unknown]");
}

static size_t p_dso_daddr(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);

	return put(buf, len, "%-*.*s", (int)width, (int)width,
		   m->dso ? dso__short_name(m->dso) : "[unknown]");
}

/* "[k] " and the physical address, padded to the width (0: 16 zeros) */
static size_t p_phys_daddr(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);
	char t[40];

	if (m->phys_addr)
		snprintf(t, sizeof(t), "[%c] %#0*" PRIx64, e->level, UNRESOLVED_WIDTH + 2,
			 m->phys_addr);
	else
		snprintf(t, sizeof(t), "[%c] %0*d", e->level, UNRESOLVED_WIDTH, 0);
	return put(buf, len, "%-*s", (int)width, t);
}

static size_t p_data_page_size(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);
	struct hist_entry t = { .code_page_size = m->page_size };

	return p_code_page_size(&t, buf, len, width);
}

/* data_src texts: mem, snoop and tlb padded to the width, locked and blocked not */
static size_t p_mem_text(const struct hist_entry *e, char *buf, size_t len, size_t width,
			 enum mem_field f, bool pad)
{
	const struct hist_mem *m = hist_entry__mem(e);
	char t[256];

	mem_src__text(m->data_src, f, t, sizeof(t));
	return put(buf, len, "%-*s", pad ? (int)width : 0, t);
}

static size_t p_mem_lvl(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_mem_text(e, buf, len, width, MEM_FIELD_LVL, true);
}

static size_t p_mem_snoop(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_mem_text(e, buf, len, width, MEM_FIELD_SNOOP, true);
}

static size_t p_mem_tlb(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_mem_text(e, buf, len, width, MEM_FIELD_DTLB, true);
}

static size_t p_mem_lock(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_mem_text(e, buf, len, width, MEM_FIELD_LOCK, false);
}

static size_t p_mem_blk(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_mem_text(e, buf, len, width, MEM_FIELD_BLK, false);
}

static size_t p_cpu(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%*.*d", (int)width, (int)width, e->cpu);
}

static size_t p_socket(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%*.*d", (int)width, (int)width - 3, e->socket);
}

static size_t p_time(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
		 e->time % 1000000000 / 1000);
	return put(buf, len, "%-.*s", (int)width, t);
}

/* --ns: seconds with 9 decimals. */
static size_t p_time_ns(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	char t[48];

	snprintf(t, sizeof(t), "%" PRIu64 ".%09" PRIu64, e->time / 1000000000,
		 e->time % 1000000000);
	return put(buf, len, "%-.*s", (int)width, t);
}

static size_t p_addr(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return put(buf, len, "%-#*" PRIx64, (int)width, unmap_ip(e, e->ip));
}

static size_t p_dso_size(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->dso && e->map_end)
		return put(buf, len, "%*d", (int)width, (int)map_size(e));
	return put(buf, len, "%*s", (int)width, "unknown");
}

static size_t p_sym_size(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->sym)
		return put(buf, len, "%*d", (int)width, (int)sym_size(e));
	return put(buf, len, "%*s", (int)width, "unknown");
}

static size_t p_ipc(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)e;
	return put(buf, len, "%-*s", (int)width, "-      -");
}

/* --mem-mode dcacheline: the data address's 64-byte cache line within its map
 * (observed with perf 6.1): entries of a higher cpumode first; then without a map
 * before with one; then by the map's device numbers, inode and inode generation
 * (larger first); user maps that are private with all four 0 (anonymous) by pid
 * (larger first); then by the map-relative address's line (larger first). */
static bool dcl_anon(const struct hist_entry *e)
{
	const struct hist_mem *m = hist_entry__mem(e);

	return e->cpumode != 1 /* MISC_KERNEL */ && !(m->map_flags & 1 /* MAP_SHARED */) &&
	       !m->map_maj && !m->map_min && !m->map_ino &&
	       !m->map_ino_generation;
}

static int c_dcacheline_desc(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);
	int c;

	if (a->cpumode != b->cpumode)
		return a->cpumode > b->cpumode ? -1 : 1;
	if (!am->dso && !bm->dso)
		goto line;
	if (!am->dso || !bm->dso)
		return !am->dso ? -1 : 1;
	if ((c = -cmp_i64(am->map_maj, bm->map_maj)) ||
	    (c = -cmp_i64(am->map_min, bm->map_min)) ||
	    (c = am->map_ino != bm->map_ino ? (am->map_ino > bm->map_ino ? -1 : 1)
						 : 0) ||
	    (c = am->map_ino_generation != bm->map_ino_generation
		 ? (am->map_ino_generation > bm->map_ino_generation ? -1 : 1) : 0))
		return c;
	if (dcl_anon(a)) {
		int32_t pa = a->thread ? a->thread->pid : -1, pb = b->thread ? b->thread->pid : -1;

		if (pa != pb)
			return pa > pb ? -1 : 1;
	}
line:
	if ((am->al_addr & ~63ULL) != (bm->al_addr & ~63ULL))
		return (am->al_addr & ~63ULL) > (bm->al_addr & ~63ULL) ? -1 : 1;
	return 0;
}

/* ... in the framework's sense (< 0: a first in the trees; the output puts the
 * larger first among equal values) */
static int c_dcacheline(const struct hist_entry *a, const struct hist_entry *b)
{
	return -c_dcacheline_desc(a, b);
}

/* "[s]" for a shared, non-executable file mapping of user space, "[X]" without a
 * map, else the entry's level; then the line as the data symbol prints an address
 * (a data object: NAME+0xOFFSET, the offset of the map-relative line from the
 * object's virtual address, as perf computes it) */
static size_t p_dcacheline_any(const struct hist_entry *e, char *buf, size_t len,
			       size_t width, bool verbose)
{
	const struct hist_mem *m = hist_entry__mem(e);
	uint64_t cl = m->al_addr & ~63ULL;
	char level = e->level;
	size_t n = 0;

	if (!m->dso)
		level = 'X';
	else if (e->cpumode != 1 && !(m->map_prot & 4 /* PROT_EXEC */) &&
		 (m->map_flags & 1) && (m->map_maj || m->map_min ||
					    m->map_ino || m->map_ino_generation))
		level = 's';
	if (verbose)	/* -v: the line and the dso's symtab origin first */
		n = put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, cl,
			m->dso ? m->dso->origin_letter : '!');
	n += put(buf + n, len - n, "[%c] ", level);
	if (m->sym && m->dso) {
		if (m->sym->type == 1 /* STT_OBJECT */)
			return n + put(buf + n, len - n, "%s+0x%" PRIx64, symbol__name(m->sym),
				       cl - m->sym_unmapped_start);
		return n + put(buf + n, len - n, "%.*s", (int)width - (int)n,
			       symbol__name(m->sym));
	}
	if (!cl)
		return n + put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, cl);
}

static size_t p_dcacheline(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_dcacheline_any(e, buf, len, width, false);
}

static size_t p_dcacheline_verbose(const struct hist_entry *e, char *buf, size_t len,
				   size_t width)
{
	return p_dcacheline_any(e, buf, len, width, true);
}

/* --mem-mode symbol_iaddr (`Code Symbol`): the sample's address, compared as a
 * virtual address, printed as symbol_daddr prints a data address */
static int c_iaddr(const struct hist_entry *a, const struct hist_entry *b)
{
	return cmp_diff(unmap_ip(a, a->ip), unmap_ip(b, b->ip));
}

static size_t p_iaddr_any(const struct hist_entry *e, char *buf, size_t len,
			  size_t width, bool verbose)
{
	uint64_t addr = unmap_ip(e, e->ip);
	size_t n = 0;

	if (verbose)	/* -v: the address and the dso's symtab origin first */
		n = put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, addr,
			e->dso ? e->dso->origin_letter : '!');
	n += put(buf + n, len - n, "[%c] ", e->level);

	if (e->sym && e->dso) {
		if (e->sym->type == 1 /* STT_OBJECT */)
			return n + put(buf + n, len - n, "%s+0x%" PRIx64, symbol__name(e->sym),
				       addr - e->sym_unmapped_start);
		return n + put(buf + n, len - n, "%.*s", (int)width - (int)n,
			       symbol__name(e->sym));
	}
	if (!addr)
		return n + put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, addr);
}

static size_t p_iaddr(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_iaddr_any(e, buf, len, width, false);
}

static size_t p_iaddr_verbose(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return p_iaddr_any(e, buf, len, width, true);
}

/* perf's transaction key: the sample's TRANSACTION word.  Only 0 is printed (blank,
 * observed); report/engine-resolve.c refuses samples with other values (TSX aborts
 * cannot be recorded here, so perf's texts for them were not observed). */
static int c_transaction(const struct hist_entry *a, const struct hist_entry *b)
{
	(void)a;
	(void)b;
	return 0;
}

static size_t p_transaction(const struct hist_entry *e, char *buf, size_t len,
			    size_t width)
{
	(void)e;
	return put(buf, len, "%-*s", (int)width, "");
}

/* ---- branch view keys (perf's bstack dimensions, report/branch.h) -----------------
 *
 * Written as perf's functions f(l, r), which perf calls with (tree node, new entry)
 * when it files entries and with (new entry, node) when it orders the output: the
 * framework's cmp(a: new, b: node) is f(b, a), its output sort -f(a, b).  The two
 * differ where f is not antisymmetric (mispredict, in_tx, abort: 1 for "differ").
 */

static int sgn(int64_t v)
{
	return v < 0 ? -1 : v > 0;
}

/* perf's cmp_null(l, r) */
static int64_t cmp_null(const void *l, const void *r)
{
	return !l && !r ? 0 : !l ? -1 : 1;
}

/* perf's _sort__dso_cmp(map_l, map_r) (the branch keys do not swap it as the dso
 * key does); -v compares long names */
static int64_t f_br_dso(const struct dso *l, const struct dso *r, bool verbose)
{
	if (!l || !r)
		return cmp_null(r, l);
	return verbose ? strcmp(dso__long_name(l), dso__long_name(r))
		       : strcmp(dso__short_name(l), dso__short_name(r));
}

/* perf's sort__sym_from_cmp / sort__sym_to_cmp on one end: unresolved ends by
 * address, else _sort__sym_cmp (no dso: equal ranges of two dsos are one) */
static int64_t f_br_sym(const struct hist_branch_end *l, const struct hist_branch_end *r)
{
	if (!l->sym && !r->sym)
		return (int64_t)(r->addr - l->addr);
	if (!l->sym || !r->sym)
		return cmp_null(l->sym, r->sym);
	if (l->sym == r->sym)
		return 0;
	if (l->sym->start != r->sym->start)
		return (int64_t)(r->sym->start - l->sym->start);
	return (int64_t)(r->sym->end - l->sym->end);
}

/* perf's sort__addr_from_cmp / _to_cmp: the dso, then the address */
static int64_t f_br_addr(const struct hist_branch_end *l, const struct hist_branch_end *r,
			 bool verbose)
{
	int64_t c = f_br_dso(l->dso, r->dso, verbose);

	return c ? c : (int64_t)(r->addr - l->addr);
}

enum br_key {
	BR_DSO_FROM, BR_DSO_TO, BR_SYM_FROM, BR_SYM_TO, BR_MISPREDICT, BR_IN_TX, BR_ABORT,
	BR_CYCLES, BR_ADDR_FROM, BR_ADDR_TO,
};

/* perf's comparison of key k, f(l, r); entries without a branch first; -v compares
 * dsos by long name */
static int64_t f_branch(enum br_key k, const struct hist_entry *l,
			const struct hist_entry *r, bool v)
{
	const struct hist_branch *a = l->branch, *b = r->branch;

	if (!a || !b)
		return cmp_null(a, b);
	switch (k) {
	case BR_DSO_FROM: return f_br_dso(a->from.dso, b->from.dso, v);
	case BR_DSO_TO: return f_br_dso(a->to.dso, b->to.dso, v);
	case BR_SYM_FROM: return f_br_sym(&a->from, &b->from);
	case BR_SYM_TO: return f_br_sym(&a->to, &b->to);
	case BR_MISPREDICT:
		return branch_flags__mispred(a->flags) != branch_flags__mispred(b->flags) ||
		       branch_flags__predicted(a->flags) != branch_flags__predicted(b->flags);
	case BR_IN_TX: return branch_flags__in_tx(a->flags) != branch_flags__in_tx(b->flags);
	case BR_ABORT: return branch_flags__abort(a->flags) != branch_flags__abort(b->flags);
	case BR_CYCLES:
		return (int64_t)branch_flags__cycles(a->flags) -
		       (int64_t)branch_flags__cycles(b->flags);
	case BR_ADDR_FROM: return f_br_addr(&a->from, &b->from, v);
	case BR_ADDR_TO: return f_br_addr(&a->to, &b->to, v);
	}
	return 0;
}

/* c_X, s_X and their -v forms cv_X, sv_X */
#define BR_FNS(name, key) \
	static int c_##name(const struct hist_entry *a, const struct hist_entry *b) \
	{ return sgn(f_branch(key, b, a, false)); } \
	static int s_##name(const struct hist_entry *a, const struct hist_entry *b) \
	{ return -sgn(f_branch(key, a, b, false)); } \
	static int cv_##name(const struct hist_entry *a, const struct hist_entry *b) \
	{ return sgn(f_branch(key, b, a, true)); } \
	static int sv_##name(const struct hist_entry *a, const struct hist_entry *b) \
	{ return -sgn(f_branch(key, a, b, true)); }

BR_FNS(dso_from, BR_DSO_FROM)
BR_FNS(dso_to, BR_DSO_TO)
BR_FNS(sym_from, BR_SYM_FROM)
BR_FNS(sym_to, BR_SYM_TO)
BR_FNS(mispredict, BR_MISPREDICT)
BR_FNS(in_tx, BR_IN_TX)
BR_FNS(abort, BR_ABORT)
BR_FNS(cycles, BR_CYCLES)
BR_FNS(addr_from, BR_ADDR_FROM)
BR_FNS(addr_to, BR_ADDR_TO)

static size_t p_br_dso(const struct hist_entry *e, const struct dso *dso, char *buf,
		       size_t len, size_t width, bool verbose)
{
	const char *name = !e->branch ? "N/A" : !dso ? "[unknown]" :
			   verbose ? dso__long_name(dso) : dso__short_name(dso);

	return put(buf, len, "%-*.*s", (int)width, (int)width, name);
}

static size_t p_dso_from(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->from.dso : NULL, buf, len, width, false);
}

static size_t p_dso_to(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->to.dso : NULL, buf, len, width, false);
}

static size_t p_dso_from_long(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->from.dso : NULL, buf, len, width, true);
}

static size_t p_dso_to_long(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->to.dso : NULL, buf, len, width, true);
}

/* perf's _hist_entry__sym_snprintf() of one end: "[L] " and the symbol (cut to the
 * width; an object with its offset from the map-relative address) or the
 * map-relative address; -v prints that address and the dso's symtab origin first */
static size_t p_br_sym(const struct hist_entry *e, const struct hist_branch_end *end,
		       char *buf, size_t len, size_t width, bool verbose)
{
	if (!e->branch)
		return put(buf, len, "%-*.*s", (int)width, (int)width, "N/A");
	return sym_text(buf, len, width, verbose, end->al_addr, end->dso, end->level,
			end->sym, end->sym_unmapped_start);
}

static size_t p_sym_from(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->from : NULL, buf, len, width, false);
}

static size_t p_sym_to(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->to : NULL, buf, len, width, false);
}

static size_t p_sym_from_verbose(const struct hist_entry *e, char *buf, size_t len,
				 size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->from : NULL, buf, len, width, true);
}

static size_t p_sym_to_verbose(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->to : NULL, buf, len, width, true);
}

/* perf's _hist_entry__addr_snprintf(): as the symbol, but with the entry's level and
 * a function's offset (the map-relative address less the symbol's start; not
 * compared with perf: the recordings at hand resolve no branch symbol) */
static size_t p_br_addr(const struct hist_entry *e, const struct hist_branch_end *end,
			char *buf, size_t len, size_t width)
{
	size_t n;

	if (!e->branch)
		return put(buf, len, "%-*.*s", (int)width, (int)width, "N/A");
	n = put(buf, len, "[%c] ", e->level);
	if (end->sym && end->dso) {
		if (end->sym->type == 1 /* STT_OBJECT */)
			return n + put(buf + n, len - n, "%s+0x%" PRIx64,
				       symbol__name(end->sym),
				       end->al_addr - end->sym_unmapped_start);
		n += put(buf + n, len - n, "%.*s", (int)width - (int)n,
			 symbol__name(end->sym));
		if (end->al_addr != end->sym->start)
			n += put(buf + n, len - n, "+0x%" PRIx64,
				 end->al_addr - end->sym->start);
		return n;
	}
	if (!end->al_addr)
		return n + put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, end->al_addr);
}

static size_t p_addr_from(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_addr(e, e->branch ? &e->branch->from : NULL, buf, len, width);
}

static size_t p_addr_to(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_addr(e, e->branch ? &e->branch->to : NULL, buf, len, width);
}

/* perf's mispredict, in_tx and abort texts live in a static of its print function,
 * set only by an entry whose flags say something: an entry with neither flag (or
 * without a branch) prints what the last one printed ("N/A" at first).  Printing is
 * the main thread's (see sort.h), so one static each, as in perf. */
static const char *mispredict_text = "N/A", *in_tx_text = "N/A", *abort_text = "N/A";

static size_t p_mispredict(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->branch && branch_flags__predicted(e->branch->flags))
		mispredict_text = "N";
	else if (e->branch && branch_flags__mispred(e->branch->flags))
		mispredict_text = "Y";
	return put(buf, len, "%-*.*s", (int)width, (int)width, mispredict_text);
}

static size_t p_in_tx(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->branch)
		in_tx_text = branch_flags__in_tx(e->branch->flags) ? "T" : ".";
	return put(buf, len, "%-*s", (int)width, in_tx_text);
}

static size_t p_abort(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->branch)
		abort_text = branch_flags__abort(e->branch->flags) ? "A" : ".";
	return put(buf, len, "%-*s", (int)width, abort_text);
}

/* cycles: a signed short, "-" for 0 */
static size_t p_cycles(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	uint16_t c;

	if (!e->branch)
		return put(buf, len, "%-.*s", (int)width, "N/A");
	c = branch_flags__cycles(e->branch->flags);
	if (!c)
		return put(buf, len, "%-*s", (int)width, "-");
	return put(buf, len, "%-*d", (int)width, (int)(int16_t)c);
}

/* ---- the table (perf 6.1's order: a key matches the first name it prefixes) ----- */

#define SE(n, h, hc, c, s, p, nd) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c, .sort = s, \
	  .print = p, .need = nd }
#define SE_TODO(n) { .name = n, .kind = DIM_SE, .unsupported = true }
#define HPP(n, h, l, pc, v) \
	{ .name = n, .kind = DIM_HPP, .header = h, .len = l, .percent = pc, .value = v }

enum {
	DIM_OVERHEAD, DIM_OVERHEAD_SYS, DIM_OVERHEAD_US, DIM_OVERHEAD_GUEST_SYS,
	DIM_OVERHEAD_GUEST_US, DIM_OVERHEAD_CHILDREN, DIM_SAMPLE, DIM_PERIOD,
	DIM_NR_HPP
};

static const struct sort_dim hpp_dims[DIM_NR_HPP] = {
	[DIM_OVERHEAD] = HPP("overhead", "Overhead", 8, true, v_period),
	[DIM_OVERHEAD_SYS] = HPP("overhead_sys", "sys", 8, true, v_sys),
	[DIM_OVERHEAD_US] = HPP("overhead_us", "usr", 8, true, v_us),
	[DIM_OVERHEAD_GUEST_SYS] = HPP("overhead_guest_sys", "guest sys", 9, true,
				       v_guest_sys),
	[DIM_OVERHEAD_GUEST_US] = HPP("overhead_guest_us", "guest usr", 9, true, v_guest_us),
	[DIM_OVERHEAD_CHILDREN] = { .name = "overhead_children", .kind = DIM_HPP,
				    .header = "Children", .len = 8, .percent = true,
				    .value = v_period_acc, .acc = true },
	[DIM_SAMPLE] = HPP("sample", "Samples", 12, false, v_samples),
	[DIM_PERIOD] = HPP("period", "Period", 12, false, v_period),
};

/* Self in children mode: the overhead column renamed. */
static const struct sort_dim self_dim = HPP("overhead", "Self", 8, true, v_period);

/* perf's sort_sym_ipc_null: compares like the symbol key */
static const struct sort_dim ipc_dim =
	SE("ipc_null", "IPC   [IPC Coverage]", HISTC_IPC, c_sym, NULL, p_ipc, SORT_NEED_SYM);

static const struct sort_dim se_dims[] = {
	SE("pid", "    Pid:Command", HISTC_THREAD, c_pid, NULL, p_pid, SORT_NEED_THREAD),
	{ .name = "comm", .kind = DIM_SE, .header = "Command", .histc = HISTC_COMM,
	  .cmp = c_comm, .print = p_comm, .need = SORT_NEED_COMM, .collapse = true },
	SE("dso", "Shared Object", HISTC_DSO, c_dso, NULL, p_dso, SORT_NEED_DSO),
	SE("symbol", "Symbol", HISTC_SYMBOL, c_sym, s_sym, p_sym, SORT_NEED_SYM),
	SE("parent", "Parent symbol", HISTC_PARENT, c_parent, NULL, p_parent,
	   SORT_NEED_PARENT),
	SE("cpu", "CPU", HISTC_CPU, c_cpu, NULL, p_cpu, SORT_NEED_CPU),
	SE("socket", "Socket", HISTC_SOCKET, c_socket, NULL, p_socket, SORT_NEED_CPU),
	SE("srcline", "Source:Line", HISTC_SRCLINE, c_srcline, NULL, p_srcline,
	   SORT_NEED_SRCLINE | SORT_NEED_IP),
	SE("srcfile", "Source File", HISTC_SRCFILE, c_srcfile, NULL, p_srcfile,
	   SORT_NEED_SRCFILE | SORT_NEED_IP),
	SE("local_weight", "Local Weight", HISTC_LOCAL_WEIGHT, c_weight, NULL, p_local_weight,
	   SORT_NEED_WEIGHT),
	SE("weight", "Weight", HISTC_GLOBAL_WEIGHT, c_weight, NULL, p_global_weight,
	   SORT_NEED_WEIGHT),
	SE("transaction", "Transaction", HISTC_TRANSACTION, c_transaction, NULL,
	   p_transaction, SORT_NEED_TXN),
	SE("trace", "Trace output", HISTC_TRACE, c_trace, NULL, p_trace, SORT_NEED_TRACE),
	SE("symbol_size", "Symbol size", HISTC_SYM_SIZE, c_sym_size, NULL, p_sym_size,
	   SORT_NEED_SYM),
	SE("dso_size", "DSO size", HISTC_DSO_SIZE, c_dso_size, NULL, p_dso_size,
	   SORT_NEED_MAP),
	/* "cgr" is cgroup (observed): it comes first */
	SE("cgroup", "Cgroup", HISTC_CGROUP, c_cgroup, NULL, p_cgroup, SORT_NEED_CGROUP),
	SE("cgroup_id", "cgroup id (dev/inode)", HISTC_CGROUP_ID, c_cgroup_id, NULL,
	   p_cgroup_id, SORT_NEED_CGROUP),
	{ .name = "ipc_null", .kind = DIM_SE, .header = "IPC   [IPC Coverage]",
	  .histc = HISTC_IPC, .cmp = c_sym, .print = p_ipc, .need = SORT_NEED_SYM,
	  .field_only = true },
	SE("time", "Time", HISTC_TIME, c_time, NULL, p_time, SORT_NEED_TIME),
	SE("code_page_size", "Code Page Size", HISTC_CODE_PAGE_SIZE, c_code_page_size, NULL,
	   p_code_page_size, SORT_NEED_PAGE),
	SE("local_ins_lat", "Local INSTR Latency", HISTC_LOCAL_INS_LAT, c_ins_lat, NULL,
	   p_local_ins_lat, SORT_NEED_WEIGHT),
	SE("ins_lat", "INSTR Latency", HISTC_GLOBAL_INS_LAT, c_ins_lat, NULL,
	   p_global_ins_lat, SORT_NEED_WEIGHT),
	{ .name = "local_p_stage_cyc", .kind = DIM_SE, .header = "Local Pipeline Stage Cycle",
	  .histc = HISTC_LOCAL_P_STAGE_CYC, .cmp = c_p_stage_cyc,
	  .print = p_local_p_stage_cyc, .need = SORT_NEED_WEIGHT, .no_sort_key = true },
	{ .name = "p_stage_cyc", .kind = DIM_SE, .header = "Pipeline Stage Cycle",
	  .histc = HISTC_GLOBAL_P_STAGE_CYC, .cmp = c_p_stage_cyc,
	  .print = p_global_p_stage_cyc, .need = SORT_NEED_WEIGHT, .no_sort_key = true },
	SE("addr", "Address", HISTC_ADDR, c_addr, NULL, p_addr, SORT_NEED_MAP | SORT_NEED_IP),
};

#define NR_SE (sizeof(se_dims) / sizeof(se_dims[0]))

#define MEM(n, h, hc, c, p) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c, .print = p, \
	  .need = SORT_NEED_MEM, .mem = true }

/* perf 6.1's memory keys (--mem-mode only), in its order, after the others */
static const struct sort_dim mem_dims[] = {
	MEM("symbol_daddr", "Data Symbol", HISTC_MEM_DADDR_SYMBOL, c_daddr, p_daddr_sym),
	MEM("dso_daddr", "Data Object", HISTC_MEM_DADDR_DSO, c_dso_daddr, p_dso_daddr),
	MEM("locked", "Locked", HISTC_MEM_LOCKED, c_mem_lock, p_mem_lock),
	MEM("tlb", "TLB access", HISTC_MEM_TLB, c_mem_tlb, p_mem_tlb),
	MEM("mem", "Memory access", HISTC_MEM_LVL, c_mem_lvl, p_mem_lvl),
	MEM("snoop", "Snoop", HISTC_MEM_SNOOP, c_mem_snoop, p_mem_snoop),
	{ .name = "dcacheline", .kind = DIM_SE, .header = "Data Cacheline",
	  .histc = HISTC_MEM_DCACHELINE, .cmp = c_dcacheline, .print = p_dcacheline,
	  .need = SORT_NEED_MEM | SORT_NEED_THREAD | SORT_NEED_DCACHELINE, .mem = true },
	{ .name = "symbol_iaddr", .kind = DIM_SE, .header = "Code Symbol",
	  .histc = HISTC_MEM_IADDR_SYMBOL, .cmp = c_iaddr, .print = p_iaddr,
	  .need = SORT_NEED_MEM | SORT_NEED_MAP | SORT_NEED_IP, .mem = true },
	MEM("phys_daddr", "Data Physical Address", HISTC_MEM_PHYS_DADDR, c_phys_daddr,
	    p_phys_daddr),
	MEM("data_page_size", "Data Page Size", HISTC_MEM_DATA_PAGE_SIZE, c_data_page_size,
	    p_data_page_size),
	MEM("blocked", "Blocked", HISTC_MEM_BLOCKED, c_mem_blk, p_mem_blk),
};

#define BR(n, h, hc, fn) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c_##fn, \
	  .sort = s_##fn, .print = p_##fn, .need = SORT_NEED_BRANCH, .branch = true, \
	  .cmp_v = cv_##fn, .sort_v = sv_##fn }

/* perf 6.1's branch keys (the branch view only), in its order, before the memory
 * ones; srcline_from, srcline_to and ipc_lbr (IPC from annotations) are not
 * implemented */
static const struct sort_dim branch_dims[] = {
	BR("dso_from", "Source Shared Object", HISTC_DSO_FROM, dso_from),
	BR("dso_to", "Target Shared Object", HISTC_DSO_TO, dso_to),
	BR("symbol_from", "Source Symbol", HISTC_SYMBOL_FROM, sym_from),
	BR("symbol_to", "Target Symbol", HISTC_SYMBOL_TO, sym_to),
	BR("mispredict", "Branch Mispredicted", HISTC_MISPREDICT, mispredict),
	BR("abort", "Transaction abort", HISTC_ABORT, abort),
	BR("in_tx", "Branch in transaction", HISTC_IN_TX, in_tx),
	BR("cycles", "Basic Block Cycles", HISTC_CYCLES, cycles),
	{ .name = "srcline_from", .kind = DIM_SE, .unsupported = true, .branch = true },
	{ .name = "srcline_to", .kind = DIM_SE, .unsupported = true, .branch = true },
	{ .name = "ipc_lbr", .kind = DIM_SE, .unsupported = true, .branch = true },
	BR("addr_from", "Source Address", HISTC_ADDR_FROM, addr_from),
	BR("addr_to", "Target Address", HISTC_ADDR_TO, addr_to),
};

/* The first of the n keys in v whose name `tok` is a prefix of, or NULL. */
static const struct sort_dim *dims_find(const struct sort_dim *v, size_t n, const char *tok)
{
	size_t len = strlen(tok);

	for (size_t i = 0; i < n; i++)
		if (!strncasecmp(tok, v[i].name, len))
			return &v[i];
	return NULL;
}

/* The branch key `tok` is a prefix of, or NULL. */
static const struct sort_dim *branch_dim_find(const char *tok)
{
	return dims_find(branch_dims, sizeof(branch_dims) / sizeof(branch_dims[0]), tok);
}

/* The memory key `tok` is a prefix of, or NULL. */
static const struct sort_dim *mem_dim_find(const char *tok)
{
	return dims_find(mem_dims, sizeof(mem_dims) / sizeof(mem_dims[0]), tok);
}

/* perf's sort_dimension__add lookup: the first key `tok` is a prefix of. */
static const struct sort_dim *dim_find(const char *tok)
{
	const struct sort_dim *d = dims_find(se_dims, NR_SE, tok);

	return d ? d : dims_find(hpp_dims, DIM_NR_HPP, tok);
}

/* ---- building the lists ------------------------------------------------------------ */

/* Two columns are the same (perf's perf_hpp__same_sort_entry / fmt identity); Self is
 * the overhead column. */
static bool same_dim(const struct sort_dim *a, const struct sort_dim *b)
{
	if (a == &self_dim)
		a = &hpp_dims[DIM_OVERHEAD];
	if (b == &self_dim)
		b = &hpp_dims[DIM_OVERHEAD];
	return a == b;
}

static bool has(const struct sort_dim *const *v, size_t n, const struct sort_dim *d)
{
	for (size_t i = 0; i < n; i++)
		if (same_dim(v[i], d))
			return true;
	return false;
}

/* A sort key.  Only keys of -s make perf collapse (sort_dimension__add sets
 * need_collapse; output fields appended as keys, perf_hpp__append_sort_keys, do not). */
static int add_key(struct sort_list *l, const struct sort_dim *d, bool from_sort_order)
{
	if (has(l->sorts, l->nr_sorts, d))
		return 0;	/* perf: an hpp field is registered once */
	if (l->nr_sorts == SORT_MAX_FIELDS)
		return -EINVAL;
	l->sorts[l->nr_sorts++] = d;
	l->need |= d->need;
	if (from_sort_order)
		l->need_collapse |= d->collapse;
	return 0;
}

static int add_sort(struct sort_list *l, const struct sort_dim *d)
{
	return add_key(l, d, true);
}

static int add_field(struct sort_list *l, const struct sort_dim *d)
{
	if (l->nr_fields == SORT_MAX_FIELDS)
		return -EINVAL;
	l->fields[l->nr_fields++] = d;
	l->need |= d->need;
	return 0;
}

/* The overhead dims in children mode: overhead is "Self" (perf renames it in
 * perf_hpp__init, which an exact -F skips). */
static const struct sort_dim *mode_dim(const struct sort_list *l, const struct sort_dim *d)
{
	if (l->children && !l->strict_fields && d == &hpp_dims[DIM_OVERHEAD])
		return &self_dim;
	return d;
}

/* One -s or -F list: each key through fn; "+" and empty keys as perf. */
static int parse_keys(struct sort_list *l, const char *list, bool fields,
		      bool keep_acc, char *err, size_t errlen)
{
	char *copy = strdup(list), *save = NULL, *tok;
	int ret = 0;

	if (!copy)
		return -ENOMEM;
	for (tok = strtok_r(copy, ", ", &save); tok && !ret;
	     tok = strtok_r(NULL, ", ", &save)) {
		const struct sort_dim *d = dim_find(tok);

		if (!d && l->branch_mode)
			d = branch_dim_find(tok);
		if (!d && l->mem_mode)
			d = mem_dim_find(tok);
		if (!d) {
			snprintf(err, errlen, "Unknown --%s key: `%s'",
				 fields ? "fields" : "sort", tok);
			ret = -EINVAL;
		} else if (d->field_only && !fields) {
			snprintf(err, errlen, "Invalid --sort key: `%s'", tok);
			ret = -EINVAL;
		} else if (d->unsupported) {
			snprintf(err, errlen, "the %s key `%s' is not implemented",
				 fields ? "--fields" : "--sort", d->name);
			ret = -ENOTSUP;
		} else if (d->acc && !l->children && !l->strict_fields && !keep_acc) {
			continue;	/* perf cancels the children column */
		} else if (d->no_sort_key && !fields) {
			continue;
		} else if (fields) {
			ret = add_field(l, mode_dim(l, d));
		} else {
			ret = add_sort(l, mode_dim(l, d));
		}
	}
	free(copy);
	return ret;
}

/*
 * Whether a resolved entry can be found by hash rather than by perf's tree search:
 * its comparisons with every other entry must agree with the tree's order.  Without
 * a dso key, symbol comparisons of a resolved and an unresolved entry go by dso,
 * those of two unresolved ones by address only: not consistent.  Addresses of the
 * addr key compare by the sign of their difference.
 */
static bool hash_safe(const struct sort_list *l)
{
	bool sym = false;

	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (d->kind != DIM_SE)
			continue;
		if (d->cmp == c_sym)
			sym = true;
		else if (d->branch)	/* addresses by the sign of their difference */
			return false;
		else if (d->cmp == c_addr || d->cmp == c_dcacheline || d->cmp == c_iaddr)
			return false;
	}
	/* perf computes srcline texts as its tree searches compare them (their
	 * widths depend on it): those are replayed, not hashed */
	if (l->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE))
		return false;
	return !sym || (l->need & SORT_NEED_DSO);
}

/* perf's setup_overhead(): sort by overhead (and children) first unless named.
 * "Named" is a substring test on the whole list (observed with perf 6.1): a list
 * holding "overhead_sys", "overhead_us", "overhead_guest_*" or "overhead_children"
 * gets no overhead key; only "overhead_children" counts for the children key. */
static char *with_overhead(const char *keys, bool children)
{
	bool named_over = strstr(keys, "overhead") != NULL;
	bool named_acc = strstr(keys, "overhead_children") != NULL;
	size_t n = strlen(keys) + 64;
	char *out;

	out = malloc(n);
	if (!out)
		return NULL;
	snprintf(out, n, "%s%s%s", children && !named_acc ? "overhead_children," : "",
		 named_over ? "" : "overhead,", keys);
	return out;
}

static int parse_widths(struct sort_list *l, const char *s)
{
	char *end;

	for (size_t i = 0; i < l->nr_fields && *s; i++) {
		long w = strtol(s, &end, 10);

		l->user_len[i] = w > 0 ? (int)w : 0;
		if (*end != ',')
			break;
		s = end + 1;
	}
	return 0;
}

/* perf's -S takes start addresses too: an item that reads as a number (strtoull,
 * base 0: not zero, or nothing after it) is one, and is no name to elide. */
static bool is_number(const char *s, size_t n)
{
	char buf[64], *end;
	unsigned long long v;

	if (n >= sizeof(buf))
		return false;
	memcpy(buf, s, n);
	buf[n] = '\0';
	v = strtoull(buf, &end, 0);
	return v || !*end;
}

/* The only item of a comma-separated list, split as perf's strlist does (a last
 * empty item is dropped, others count; main() has refused duplicates), or NULL
 * when it has none or several. With skip_numbers, numbers are not counted. */
static const char *single_name(const char *list, size_t *len, bool skip_numbers)
{
	const char *one = NULL;
	size_t nr = 0;

	while (list) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) : strlen(list);

		if (!comma && !n)
			break;
		if (!(skip_numbers && is_number(list, n))) {
			one = list;
			*len = n;
			nr++;
		}
		list = comma ? comma + 1 : NULL;
	}
	return nr == 1 ? one : NULL;
}

/* perf's sort__setup_elide(): the columns of one-name filter lists are hidden
 * (unless that would hide every key column). */
static void setup_elide(struct sort_list *l, const struct sort_opts *o)
{
	bool hide[SORT_MAX_FIELDS] = { false }, all = true;
	size_t n = 0;

	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		const char *list = d->histc == HISTC_COMM ? o->comm_list :
				   d->histc == HISTC_DSO ? o->dso_list :
				   d->histc == HISTC_SYMBOL ? o->sym_list : NULL;
		const char *name;
		size_t len = 0;

		if (d->kind != DIM_SE)
			continue;
		name = list ? single_name(list, &len, d->histc == HISTC_SYMBOL) : NULL;
		if (name && l->nr_elided < SORT_MAX_FIELDS) {
			l->elided[l->nr_elided].list = d->histc == HISTC_COMM ? "comm" :
						       d->histc == HISTC_DSO ? "dso" : "symbol";
			l->elided[l->nr_elided].name = name;
			l->elided[l->nr_elided++].len = len;
			hide[i] = true;
		} else {
			all = false;
		}
	}
	if (all)	/* perf shows them all again (the lines are printed) */
		return;
	for (size_t i = 0; i < l->nr_fields; i++) {
		for (size_t k = 0; hide[i] && k < l->nr_sorts; k++)
			if (l->sorts[k] == l->fields[i])
				l->sort_elided[k] = true;
		if (hide[i])
			continue;
		l->fields[n] = l->fields[i];
		l->user_len[n++] = l->user_len[i];
	}
	l->nr_fields = n;
}

int sort_list__setup(struct sort_list *l, const struct sort_opts *o, char *err,
		     size_t errlen)
{
	const char *def = o->mem_mode ? SORT_MEM_DEFAULT_ORDER :
			  o->branch_mode ? BRANCH_DEFAULT_SORT_ORDER :
			  o->default_order ? o->default_order : "comm,dso,symbol";
	const char *keys = o->sort_order ? o->sort_order : def;
	bool strict_fields = o->field_order && o->field_order[0] != '+';
	char *full = NULL;
	int ret = 0;

	memset(l, 0, sizeof(*l));
	l->total_order = o->total_order;
	l->mem_mode = o->mem_mode;
	l->branch_mode = o->branch_mode;
	l->children = o->children;
	l->strict_fields = strict_fields;
	l->field_sep = o->field_sep;
	if (o->sort_order && o->sort_order[0] == '+') {
		if (!o->sort_order[1]) {
			snprintf(err, errlen, "Invalid --sort key: `+'");
			return -EINVAL;
		}
		keys = NULL;
	}
	/* the sort keys */
	if (!(strict_fields && !o->sort_order)) {
		char *k = NULL;

		if (!keys) {
			size_t n = strlen(o->sort_order) + strlen(def) + 2;

			k = malloc(n);
			if (!k)
				return -ENOMEM;
			snprintf(k, n, "%s,%s", def, o->sort_order + 1);
			keys = k;
		}
		full = strict_fields ? strdup(keys) : with_overhead(keys, o->children);
		/* perf tests its sort_order string: the -s argument, or the default it
		 * was appended to ("+KEYS") */
		l->sym_first = !o->field_order && !strncmp(keys, "sym", 3);
		free(k);
		if (!full)
			return -ENOMEM;
		ret = parse_keys(l, full, false, o->no_children, err, errlen);
		free(full);
		if (ret)
			return ret;
	}
	/* perf's setup_sorting(): -p appends the parent key */
	if (o->parent_key) {
		const struct sort_dim *d = dim_find("parent");

		if (!d || add_sort(l, d))
			return -EINVAL;
	}
	/* perf_hpp__init: the default output fields */
	if (!strict_fields) {
		if (o->children)
			add_field(l, &hpp_dims[DIM_OVERHEAD_CHILDREN]);
		add_field(l, mode_dim(l, &hpp_dims[DIM_OVERHEAD]));
		if (o->show_nr_samples)
			add_field(l, &hpp_dims[DIM_SAMPLE]);
		if (o->show_total_period)
			add_field(l, &hpp_dims[DIM_PERIOD]);
	}
	if (o->field_order) {
		ret = parse_keys(l, o->field_order + (o->field_order[0] == '+'), true,
				 o->no_children, err, errlen);
		if (ret)
			return ret;
	}
	/* sort keys become output fields, output fields sort keys */
	for (size_t i = 0; i < l->nr_sorts && !ret; i++)
		if (!has(l->fields, l->nr_fields, l->sorts[i]))
			ret = add_field(l, l->sorts[i]);
	/* perf 6.1 shows its IPC column (a key comparing like the symbol key) when
	 * the -s text contains "symbol" (observed: symbol, symbol_size, symbol_daddr,
	 * +symbol_size; not sym, symbo, nor the default orders) */
	if (!ret && !o->field_order && o->sort_order && strstr(o->sort_order, "symbol")) {
		/* in the branch view perf's column is ipc_lbr, which needs annotations
		 * (perf 6.1 crashes on the recordings at hand) */
		if (o->branch_mode) {
			snprintf(err, errlen, "-s with \"symbol\" in the branch view: perf's "
				 "IPC column (ipc_lbr) is not implemented (use -F or sym)");
			return -ENOTSUP;
		}
		ret = add_field(l, &ipc_dim);
	}
	for (size_t i = 0; i < l->nr_fields && !ret; i++)
		ret = add_key(l, l->fields[i], false);
	if (!ret && o->col_widths)
		parse_widths(l, o->col_widths);
	l->hash_safe = hash_safe(l);
	for (size_t i = 0; i < l->nr_sorts; i++) {
		if (l->sorts[i]->kind != DIM_SE)
			continue;
		if (l->sorts[i]->cmp == c_sym)
			break;
		l->class_need |= l->sorts[i]->need;
	}
	l->dso_list = o->dso_list != NULL;
	l->nanosecs = o->nanosecs;
	l->verbose = o->verbose;
	if (!ret)
		setup_elide(l, o);
	if (ret == -EINVAL && !err[0])
		snprintf(err, errlen, "too many sort keys");
	return ret;
}

void sort_list__fprintf_elided(const struct sort_list *l, FILE *out)
{
	for (size_t i = 0; i < l->nr_elided; i++)
		fprintf(out, "# %s: %.*s\n", l->elided[i].list, (int)l->elided[i].len,
			l->elided[i].name);
}

/* ---- comparisons ------------------------------------------------------------------ */

/* perf computes an entry's srcline / srcfile when it first needs it: the entries are
 * the caller's (hist.c) and only look const here. */
static void lazy_text_slow(const struct sort_list *l, const struct sort_dim *d,
			   const struct hist_entry *e)
{
	struct hist_entry *w = (struct hist_entry *)(uintptr_t)e;

	if (d->cmp == c_srcline && !e->srcline)
		w->srcline = l->lazy ? l->lazy->srcline(l->lazy->ctx, e) : "";
	else if (d->cmp == c_srcfile && !e->srcfile)
		w->srcfile = l->lazy ? l->lazy->srcfile(l->lazy->ctx, e) : "";
	else if (d->cmp == c_trace)
		w->trace_done = true;	/* the text is known; perf formats it now */
}

/* ... for the lists with such a key (a call per key of every comparison, 2.6 % of
 * the --stdio report's CPU, where none has one) */
static inline void lazy_text(const struct sort_list *l, const struct sort_dim *d,
			     const struct hist_entry *e)
{
	if (l->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE))
		lazy_text_slow(l, d, e);
}

/* A key's comparison; -v compares dsos by long name (perf's sort__dso_cmp). */
static int dim_cmp(const struct sort_list *l, const struct sort_dim *d,
		   const struct hist_entry *a, const struct hist_entry *b)
{
	if (l->verbose && d->cmp == c_dso)
		return c_dso_long(a, b);
	if (d->cmp == c_sym)
		return sym_cmp(l, false, a, b);
	if (l->verbose && d->cmp == c_dso_daddr)
		return c_dso_daddr_long(a, b);
	if (l->verbose && d->cmp_v)
		return d->cmp_v(a, b);
	return d->cmp(a, b);
}

/* A key's output order (perf's se_sort, else se_cmp), -v's where it differs. */
static int dim_sort(const struct sort_list *l, const struct sort_dim *d,
		    const struct hist_entry *a, const struct hist_entry *b)
{
	if (l->verbose && d->sort_v)
		return d->sort_v(a, b);
	return d->sort ? d->sort(a, b) : dim_cmp(l, d, a, b);
}

int sort_list__class_cmp(const struct sort_list *l, const struct hist_entry *a,
			 const struct hist_entry *b)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		if (d->cmp == c_sym)
			return 0;
		lazy_text(l, d, b);
		lazy_text(l, d, a);
		if ((c = dim_cmp(l, d, a, b)))
			return c;
	}
	return 0;
}

void hist_stat__merge(struct hist_stat *into, const struct hist_stat *from)
{
	into->period += from->period;
	into->nr_events += from->nr_events;
	into->period_sys += from->period_sys;
	into->period_us += from->period_us;
	into->period_guest_sys += from->period_guest_sys;
	into->period_guest_us += from->period_guest_us;
}

bool sort_list__keyed(const struct sort_list *l)
{
	if (l->verbose || (l->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE | SORT_NEED_TRACE)))
		return false;
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (d->kind == DIM_SE && d->cmp != c_comm && d->cmp != c_dso && d->cmp != c_sym)
			return false;
	}
	return true;
}

void hist_key__of(struct hist_key *k, const struct hist_entry *e)
{
	*k = (struct hist_key){ .comm = e->comm, .dso = e->dso, .sym = e->sym, .ip = e->ip };
}

int sort_list__cmp_keys(const struct sort_list *l, size_t from, const struct hist_key *a,
			const struct hist_key *b)
{
	/* sort_list__cmp_from() where sort_list__keyed(): no lazy texts, no -v */
	for (size_t i = from; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		if (d->cmp == c_comm)
			c = k_comm(a->comm, b->comm);
		else if (d->cmp == c_dso)
			c = k_dso(a->dso, b->dso);
		else	/* c_sym */
			c = sym_key_cmp(l, l->need & SORT_NEED_DSO, a->dso, a->sym, a->ip,
					b->dso, b->sym, b->ip);
		if (c)
			return c;
	}
	return 0;
}

int sort_list__cmp(const struct sort_list *l, const struct hist_entry *a,
		   const struct hist_entry *b)
{
	return sort_list__cmp_from(l, 0, a, b);
}

int sort_list__cmp_from(const struct sort_list *l, size_t from, const struct hist_entry *a,
			const struct hist_entry *b)
{
	for (size_t i = from; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int c;

		if (d->kind != DIM_SE)
			continue;
		lazy_text(l, d, b);
		lazy_text(l, d, a);
		c = d->cmp == c_sym && (l->need & SORT_NEED_DSO) ? sym_cmp(l, true, a, b)
								 : dim_cmp(l, d, a, b);
		if (c)
			return c;
	}
	return 0;
}

static int value_cmp(const struct sort_list *l, const struct sort_ctx *c,
		     const struct sort_dim *d, const struct hist_entry *a,
		     const struct hist_entry *b)
{
	uint64_t va = d->value(a), vb = d->value(b);

	if (d->acc && !l->children)
		return 0;
	/* perf's --group-sort-idx: one event of the group decides, the rest does not
	 * break its ties */
	if (c->group_sort_idx && !d->acc && a->nr_pairs && b->nr_pairs) {
		int k = c->group_sort_idx;

		if (k > 0 && (uint32_t)k <= a->nr_pairs && (uint32_t)k <= b->nr_pairs) {
			va = a->pairs[k - 1] ? d->value(a->pairs[k - 1]) : 0;
			vb = b->pairs[k - 1] ? d->value(b->pairs[k - 1]) : 0;
		}
		return va == vb ? 0 : va > vb ? 1 : -1;
	}
	if (va != vb)
		return va > vb ? 1 : -1;
	/* perf's __hpp__sort in the group view: the members' values next (not for
	 * Children: perf's __hpp__sort_acc does not look at them) */
	for (uint32_t k = 0; !d->acc && k < a->nr_pairs && k < b->nr_pairs; k++) {
		va = a->pairs[k] ? d->value(a->pairs[k]) : 0;
		vb = b->pairs[k] ? d->value(b->pairs[k]) : 0;
		if (va != vb)
			return va > vb ? 1 : -1;
	}
	/* perf's hpp__sort_acc: among one thread's entries, the caller first */
	if (d->acc && l->children && c->depth_ties && a->thread == b->thread &&
	    a->max_depth != b->max_depth) {
		int r = a->max_depth > b->max_depth ? 1 : -1;

		return c->caller_first ? r : -r;
	}
	return 0;
}

int sort_list__output_cmp(const struct sort_list *l, const struct sort_ctx *c,
			  const struct hist_entry *a, const struct hist_entry *b)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int r;

		if (l->sort_elided[i])	/* perf_hpp__should_skip() */
			continue;
		if (d->kind == DIM_SE) {
			lazy_text(l, d, a);
			lazy_text(l, d, b);
		}
		if (d->kind == DIM_HPP)
			r = value_cmp(l, c, d, a, b);
		else
			r = -dim_sort(l, d, a, b);
		if (r)
			return r;
	}
	return 0;
}

bool sort_list__output_key(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *e, uint64_t *key)
{
	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (l->sort_elided[i])
			continue;
		/* value_cmp() by the value alone: no group view (pairs, their values,
		 * --group-sort-idx), a value that counts */
		if (d->kind != DIM_HPP || e->nr_pairs || c->group_sort_idx ||
		    (d->acc && !l->children))
			return false;
		*key = d->value(e);
		return true;
	}
	return false;
}

/* What a later key of sort_list__output_ties() compares by. */
enum tie_kind { TIE_NONE, TIE_VALUE, TIE_ZERO, TIE_COMM, TIE_DSO, TIE_SYM };

static enum tie_kind tie_kind(const struct sort_list *l, const struct sort_dim *d)
{
	if (d->kind == DIM_HPP)	/* value_cmp() without pairs: the value alone */
		return !d->acc ? TIE_VALUE : !l->children ? TIE_ZERO : TIE_NONE;
	if (d->kind != DIM_SE || (l->verbose && d->sort_v))
		return TIE_NONE;
	/* dim_sort(): these compare a comm's text, a dso's name (its long name with
	 * -v), a symbol's name, unresolved ones first or last: pure functions of
	 * the pointers below, and total orders */
	if (d->cmp == c_comm && !d->sort && !d->cmp_v)
		return TIE_COMM;
	if (d->cmp == c_dso && !d->sort && !d->cmp_v)
		return TIE_DSO;
	if (d->sort == s_sym)
		return TIE_SYM;
	return TIE_NONE;
}

static const void *tie_identity(enum tie_kind k, const struct hist_entry *e)
{
	return k == TIE_COMM ? (const void *)e->comm
	       : k == TIE_DSO ? (const void *)e->dso : (const void *)e->sym;
}

struct tie_sort {
	const struct sort_list *l;
	const struct sort_dim *d;
	const struct hist_entry *v;
};

static int tie_sort_cmp(const void *a, const void *b, void *arg)
{
	const struct tie_sort *ts = arg;

	return dim_sort(ts->l, ts->d, &ts->v[*(const uint32_t *)a],
			&ts->v[*(const uint32_t *)b]);
}

/* Column col of t->v for the entries of order: their comm's, dso's or symbol's rank,
 * higher for what comes first (dim_sort() < 0).  Distinct pointers are found by
 * hash (util/hashtab.h; a slot: a representative entry id + 1), ranked by sorting
 * one entry of each. */
static int tie_ranks(const struct sort_list *l, const struct sort_dim *d, enum tie_kind k,
		     const struct hist_entry *v, size_t nr, const uint32_t *order, size_t n,
		     struct sort_ties *t, size_t col)
{
	size_t m = 16, nr_reps = 0;
	uint32_t *slot, *reps, *rank, *where;
	struct tie_sort ts = { l, d, v };
	int err = -ENOMEM;

	while (m < 2 * n)	/* at most half full, never grown */
		m *= 2;
	slot = calloc(m, sizeof(*slot));
	reps = malloc((n ? n : 1) * sizeof(*reps));
	rank = malloc((nr ? nr : 1) * sizeof(*rank));
	where = malloc((n ? n : 1) * sizeof(*where));
	if (!slot || !reps || !rank || !where)
		goto out;
	for (size_t i = 0; i < n; i++) {
		const void *p = tie_identity(k, &v[order[i]]);
		size_t h = hashtab__first(((uintptr_t)p >> 4) * UINT64_C(0x9e3779b97f4a7c15) >> 20,
					  m);

		while (slot[h] && tie_identity(k, &v[slot[h] - 1]) != p)
			h = hashtab__next(h, m);
		if (!slot[h]) {
			slot[h] = order[i] + 1;
			reps[nr_reps++] = order[i];
		}
		where[i] = slot[h] - 1;
	}
	qsort_r(reps, nr_reps, sizeof(*reps), tie_sort_cmp, &ts);
	for (size_t i = 0, pos = 0; i < nr_reps; i++) {
		if (i && dim_sort(l, d, &v[reps[i - 1]], &v[reps[i]]))
			pos++;
		rank[reps[i]] = (uint32_t)(nr_reps - pos);	/* first: highest */
	}
	for (size_t i = 0; i < n; i++)
		t->v[(size_t)order[i] * t->width + col] = rank[where[i]];
	err = 0;
out:
	free(slot);
	free(reps);
	free(rank);
	free(where);
	return err;
}

int sort_list__output_ties(const struct sort_list *l, const struct sort_ctx *c,
			   const struct hist_entry *v, size_t nr, const uint32_t *order,
			   size_t n, struct sort_ties *t)
{
	const struct sort_dim *later[SORT_MAX_FIELDS];
	enum tie_kind kinds[SORT_MAX_FIELDS];
	const struct sort_dim *first = NULL;
	size_t width = 0;
	uint64_t key;
	int err = 0;

	*t = (struct sort_ties){ 0 };
	if (!n || !sort_list__output_key(l, c, &v[order[0]], &key))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (v[order[i]].nr_pairs)	/* the group view: value_cmp() looks at
						 * the members' values too */
			return 0;
	for (size_t i = 0; i < l->nr_sorts; i++) {
		if (l->sort_elided[i])
			continue;
		if (!first) {
			first = l->sorts[i];
			continue;
		}
		if ((kinds[width] = tie_kind(l, l->sorts[i])) == TIE_NONE)
			return 0;
		later[width++] = l->sorts[i];
	}
	t->depth_rule = first->acc && l->children && c->depth_ties;
	t->width = width;	/* 0: ties are decided by the depth rule alone */
	if (!(t->v = malloc((width && nr ? nr * width : 1) * sizeof(*t->v))))
		return -ENOMEM;
	for (size_t col = 0; col < width && !err; col++) {
		const struct sort_dim *d = later[col];

		if (kinds[col] == TIE_VALUE || kinds[col] == TIE_ZERO)
			for (size_t i = 0; i < n; i++)
				t->v[(size_t)order[i] * width + col] =
					kinds[col] == TIE_VALUE ? d->value(&v[order[i]]) : 0;
		else
			err = tie_ranks(l, d, kinds[col], v, nr, order, n, t, col);
	}
	if (err) {
		free(t->v);
		*t = (struct sort_ties){ 0 };
	}
	return err;
}

int sort_list__cmp_ranks(const struct sort_list *l, const struct hist_entry *v, size_t nr,
			 const uint32_t *order, size_t n, struct sort_ties *t)
{
	size_t width = 0, from = 0;
	int err = 0;

	*t = (struct sort_ties){ 0 };
	/* the leading comm and dso keys: dim_sort() is their dim_cmp() */
	for (; from < l->nr_sorts; from++) {
		const struct sort_dim *d = l->sorts[from];
		enum tie_kind k;

		if (d->kind != DIM_SE)
			continue;
		k = tie_kind(l, d);
		if (k != TIE_COMM && k != TIE_DSO)
			break;
		width++;
	}
	if (!width || !n)
		return 0;
	if (!(t->v = malloc((nr ? nr : 1) * width * sizeof(*t->v))))
		return -ENOMEM;
	t->width = width;
	t->from = from;
	for (size_t i = 0, col = 0; i < from && !err; i++) {
		const struct sort_dim *d = l->sorts[i];

		if (d->kind == DIM_SE)
			err = tie_ranks(l, d, tie_kind(l, d), v, nr, order, n, t, col++);
	}
	if (err) {
		free(t->v);
		*t = (struct sort_ties){ 0 };
	}
	return err;
}

/* ---- widths ------------------------------------------------------------------------- */

static void col_len(struct sort_widths *w, enum histc c, size_t n)
{
	if (n > w->col_len[c])
		w->col_len[c] = n;
}

void sort_widths__init(struct sort_widths *w, const struct sort_list *l)
{
	memset(w, 0, sizeof(*w));
	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];

		if (d->kind == DIM_SE)
			col_len(w, d->histc, strlen(d->header));
	}
	col_len(w, HISTC_TIME, l->nanosecs ? 16 : 12);
	col_len(w, HISTC_LOCAL_WEIGHT, 12);
	col_len(w, HISTC_GLOBAL_WEIGHT, 12);
	col_len(w, HISTC_ADDR, UNRESOLVED_WIDTH + 2);
	/* the memory keys' fixed widths (observed) */
	col_len(w, HISTC_MEM_LVL, 24);
	col_len(w, HISTC_MEM_SNOOP, 12);
	col_len(w, HISTC_MEM_TLB, 22);
	col_len(w, HISTC_MEM_LOCKED, 6);
	col_len(w, HISTC_MEM_BLOCKED, 10);
	col_len(w, HISTC_MEM_PHYS_DADDR, UNRESOLVED_WIDTH + 4 + 2);
	col_len(w, HISTC_MEM_DATA_PAGE_SIZE, UNRESOLVED_WIDTH + 4 + 2);
	col_len(w, HISTC_TRANSACTION, 27);	/* observed, whatever the entries */
}

/* perf's hists__calc_col_len for one end of a branch: a resolved one its symbol's
 * name and its dso's, an unresolved one an address's width. */
static void branch_end_widths(struct sort_widths *w, const struct sort_list *l,
			      const struct hist_branch_end *end, enum histc sym,
			      enum histc addr, enum histc dso)
{
	if (end->sym) {
		col_len(w, sym, 4 + strlen(symbol__name(end->sym)) +
				(l->verbose ? UNRESOLVED_WIDTH + 2 + 3 : 0));
		if (end->dso)
			col_len(w, dso, strlen(l->verbose ? dso__long_name(end->dso)
							  : dso__short_name(end->dso)));
	} else {
		col_len(w, sym, UNRESOLVED_WIDTH + 4 + 2);
		col_len(w, addr, UNRESOLVED_WIDTH + 4 + 2);
		col_len(w, dso, UNRESOLVED_WIDTH);
	}
}

static void branch_widths(struct sort_widths *w, const struct sort_list *l,
			  const struct hist_branch *b)
{
	branch_end_widths(w, l, &b->from, HISTC_SYMBOL_FROM, HISTC_ADDR_FROM, HISTC_DSO_FROM);
	branch_end_widths(w, l, &b->to, HISTC_SYMBOL_TO, HISTC_ADDR_TO, HISTC_DSO_TO);
}

/* perf's hists__calc_col_len for one entry. */
void sort_widths__add(struct sort_widths *w, const struct sort_list *l,
		      const struct hist_entry *e)
{
	size_t n;

	if (e->sym) {
		/* the text of the Symbol column: "[k] " and the name (+offset) */
		if (e->sym->type == 1 /* STT_OBJECT */) {
			char t[64];

			n = 4 + strlen(symbol__name(e->sym)) +
			    (size_t)snprintf(t, sizeof(t), "+0x%" PRIx64,
					     e->ip - e->sym_unmapped_start);
		} else {
			n = 4 + strlen(symbol__name(e->sym));
		}
		n += e->sym->namelen_extra;	/* perf's namelen of module symbols */
		if (l->verbose)	/* the address, 0x, and " O " */
			n += UNRESOLVED_WIDTH + 2 + 3;
		col_len(w, HISTC_SYMBOL, n);
	} else {
		col_len(w, HISTC_SYMBOL, UNRESOLVED_WIDTH + 4 + 2);
		if (!l->field_sep && !l->dso_list)
			col_len(w, HISTC_DSO, UNRESOLVED_WIDTH);
	}
	/* --mem-mode: a data symbol's name and 22 (observed: an unresolved address
	 * takes 22 in all, a resolved symbol's text is never cut), its dso */
	if (l->mem_mode) {
		const struct hist_mem *m = hist_entry__mem(e);

		col_len(w, HISTC_MEM_DADDR_SYMBOL, UNRESOLVED_WIDTH + 4 + 2 +
			(m->sym ? strlen(symbol__name(m->sym)) : 0));
		col_len(w, HISTC_MEM_IADDR_SYMBOL, UNRESOLVED_WIDTH + 4 + 2 +
			(e->sym ? strlen(symbol__name(e->sym)) : 0));
		col_len(w, HISTC_MEM_DCACHELINE, UNRESOLVED_WIDTH + 4 + 2 +
			(m->sym ? strlen(symbol__name(m->sym)) + 1 : 0));
		if (m->dso)
			col_len(w, HISTC_MEM_DADDR_DSO,
				strlen(l->verbose ? dso__long_name(m->dso)
						  : dso__short_name(m->dso)));
		else if (!l->field_sep && !l->dso_list)
			col_len(w, HISTC_MEM_DADDR_DSO, UNRESOLVED_WIDTH);
	}
	if (e->branch)
		branch_widths(w, l, e->branch);
	/* perf measures the thread's current name (thread__comm_len) */
	n = e->thread ? strlen(thread__comm(e->thread)) : strlen(e->comm);
	col_len(w, HISTC_COMM, n);
	col_len(w, HISTC_THREAD, n + 8);
	if (e->dso)
		col_len(w, HISTC_DSO, strlen(l->verbose ? dso__long_name(e->dso)
						       : dso__short_name(e->dso)));
	if (e->parent)
		col_len(w, HISTC_PARENT, strlen(symbol__name(e->parent)));
	/* only the texts perf had computed when it took the entry's width */
	if (e->srcline && (e->src_width & SORT_NEED_SRCLINE))
		col_len(w, HISTC_SRCLINE, strlen(e->srcline));
	if (e->srcfile && (e->src_width & SORT_NEED_SRCFILE))
		col_len(w, HISTC_SRCFILE, strlen(e->srcfile));
	if (e->trace && (e->src_width & SORT_NEED_TRACE))
		col_len(w, HISTC_TRACE, strlen(e->trace));
}

void sort_widths__finish(struct sort_widths *w, const struct sort_list *l)
{
	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		size_t n;

		size_t natural = d->kind == DIM_SE ? w->col_len[d->histc] : (size_t)d->len;

		n = l->user_len[i] ? (size_t)l->user_len[i] : natural;
		/* perf's hpp__width_fn in the group view */
		if (d->kind == DIM_HPP && w->group_nr > 1 && n < w->group_nr * (size_t)d->len)
			n = w->group_nr * (size_t)d->len;
		if (d->kind == DIM_HPP && w->group_nr > 1 &&
		    natural < w->group_nr * (size_t)d->len)
			natural = w->group_nr * (size_t)d->len;
		if (d->kind == DIM_HPP && n < strlen(d->header))
			n = strlen(d->header);
		if (d->kind == DIM_HPP && natural < strlen(d->header))
			natural = strlen(d->header);
		w->w[i] = n;
		w->natural[i] = natural;
	}
}

/* ---- printing ---------------------------------------------------------------------- */

void sort_list__fprintf_header(const struct sort_list *l, const struct sort_widths *w,
			       FILE *out)
{
	const char *sep = l->field_sep;

	fputs("# ", out);
	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		int width = (int)w->w[i];

		if (i)
			fputs(sep ? sep : "  ", out);
		if (d->kind == DIM_HPP)
			fprintf(out, "%*s", width, d->header);
		else
			fprintf(out, "%-*.*s", width, width, d->header);
	}
	fputc('\n', out);
	if (sep)
		return;
	fputs("# ", out);
	for (size_t i = 0; i < l->nr_fields; i++) {
		if (i)
			fputs("  ", out);
		for (size_t k = 0; k < w->w[i]; k++)
			fputc('.', out);
	}
	fputs("\n#\n", out);
}

/* perf's repsep_snprintf: the separator character never appears in a value. */
static void repsep(const struct sort_list *l, char *s)
{
	if (!l->field_sep)
		return;
	for (char *p = strchr(s, l->field_sep[0]); p; p = strchr(p + 1, l->field_sep[0]))
		*p = '.';
}

/* One value of a value column (perf's hpp__call_print_fn with " %*.2f%%" or
 * " %*" PRIu64). */
static size_t put_value(const struct sort_dim *d, char *at, size_t len, int width,
			uint64_t v, uint64_t total)
{
	if (d->percent)
		return put(at, len, " %*.2f%%", width,
			   total ? 100.0 * (double)v / (double)total : 0.0);
	return put(at, len, " %*" PRIu64, width, total ? v : 0);
}

static int fprintf_entry(const struct sort_list *l, const struct sort_widths *w,
			 const struct hist_entry *e, const uint64_t *totals, FILE *out);

int sort_list__fprintf_entry(const struct sort_list *l, const struct sort_widths *w,
			     const struct hist_entry *e, uint64_t total, FILE *out)
{
	return fprintf_entry(l, w, e, &total, out);
}

int sort_list__fprintf_group_entry(const struct sort_list *l, const struct sort_widths *w,
				   const struct hist_entry *e, const uint64_t *totals,
				   FILE *out)
{
	return fprintf_entry(l, w, e, totals, out);
}

/* totals: 1 + e->nr_pairs percent bases (see sort_list__fprintf_group_entry) */
static int fprintf_entry(const struct sort_list *l, const struct sort_widths *w,
			 const struct hist_entry *e, const uint64_t *totals, FILE *out)
{
	const char *sep = l->field_sep;
	uint64_t total = totals[0];
	size_t cap = 3 + 1, used = 0;
	char *line;

	/* perf's line buffer: the columns and their separators, plus 3 and its NUL
	 * (as observed, -w widens it but does not narrow it) */
	for (size_t i = 0; i < l->nr_fields; i++) {
		cap += (w->w[i] > w->natural[i] ? w->w[i] : w->natural[i]) + (i ? 2 : 0);
		/* -v: the symbol's address and origin do not count in its width (an
		 * unresolved one would be cut), perf prints them whole */
		if (l->verbose && (l->fields[i]->print == p_sym ||
				   l->fields[i]->print == p_sym_from ||
				   l->fields[i]->print == p_sym_to ||
				   l->fields[i]->print == p_daddr_sym ||
				   l->fields[i]->print == p_dcacheline ||
				   l->fields[i]->print == p_iaddr))
			cap += UNRESOLVED_WIDTH + 2 + 3;
		/* an inlined function's " (inlined)" is not in perf's width either */
		if (l->fields[i]->print == p_sym)
			cap += sizeof(" (inlined)");
		/* the group view: perf prints every member's value whole */
		if (l->fields[i]->kind == DIM_HPP && e->nr_pairs)
			cap += (e->nr_pairs + 1) * ((size_t)(l->user_len[i] > 0 ?
							     l->user_len[i] : 0) + 32);
	}
	line = malloc(cap);
	if (!line)
		return -ENOMEM;
	if (!sep)
		used += put(line + used, cap - used, "  ");
	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		size_t n, width = w->w[i];
		char *at;

		if (i && sep)
			used += put(line + used, cap - used, "%s", sep);
		else if (i)
			used += put(line + used, cap - used, "  ");
		at = line + used;
		if (d->kind == DIM_HPP) {
			int len = sep ? 1 : (int)(l->user_len[i] ? (size_t)l->user_len[i]
							     : (size_t)d->len) -
					      (d->percent ? 2 : 1);
			uint64_t v = d->value(e);

			if (d->acc && !l->children)	/* no children without callchains:
							 * perf's hpp__fmt_acc, as wide as
							 * the field (-w), not the column */
				n = put(at, cap - used, " %*s",
					(l->user_len[i] ? l->user_len[i] : d->len) - 1, "N/A");
			else if (d->percent)
				n = put(at, cap - used, " %*.2f%%", len,
					total ? 100.0 * (double)v / (double)total : 0.0);
			else
				n = put(at, cap - used, " %*" PRIu64, len, v);
			/* perf's __hpp__fmt: then each member's value */
			for (uint32_t k = 0; k < e->nr_pairs && !(d->acc && !l->children); k++)
				n += put_value(d, at + n, cap - used - n, len,
					       e->pairs[k] ? d->value(e->pairs[k]) : 0,
					       totals[k + 1]);
		} else {
			lazy_text(l, d, e);	/* perf computes them when printing too */
			if (l->nanosecs && d->print == p_time)
				n = p_time_ns(e, at, cap - used, width);
			else if (l->verbose && d->print == p_dso)
				n = p_dso_long(e, at, cap - used, width);
			else if (l->verbose && d->print == p_sym)
				n = p_sym_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_daddr_sym)
				n = p_daddr_sym_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_dcacheline)
				n = p_dcacheline_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_iaddr)
				n = p_iaddr_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_dso_daddr)
				n = p_dso_daddr_long(e, at, cap - used, width);
			else if (l->verbose && d->print == p_sym_from)
				n = p_sym_from_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_sym_to)
				n = p_sym_to_verbose(e, at, cap - used, width);
			else if (l->verbose && d->print == p_dso_from)
				n = p_dso_from_long(e, at, cap - used, width);
			else if (l->verbose && d->print == p_dso_to)
				n = p_dso_to_long(e, at, cap - used, width);
			else
				n = d->print(e, at, cap - used, width);
			repsep(l, at);
		}
		used += n;
		/* perf's hist_entry__snprintf_alignment: pad all but the last column */
		if (i + 1 < l->nr_fields && n < width)
			used += put(line + used, cap - used, "%-*s", (int)(width - n), " ");
	}
	fputs(line, out);
	fputc('\n', out);
	free(line);
	return 0;
}

/* ---- --hierarchy (report/hierarchy.c) ------------------------------------------------ */

size_t sort_list__nr_keys(const struct sort_list *l)
{
	size_t n = 0;

	for (size_t i = 0; i < l->nr_sorts; i++)
		n += l->sorts[i]->kind == DIM_SE;
	return n;
}

/* The i-th sort key (DIM_SE) of l->sorts. */
static const struct sort_dim *key_dim(const struct sort_list *l, size_t key)
{
	for (size_t i = 0; i < l->nr_sorts; i++)
		if (l->sorts[i]->kind == DIM_SE && !key--)
			return l->sorts[i];
	return NULL;
}

const char *sort_list__key_header(const struct sort_list *l, size_t key)
{
	const char *h = key_dim(l, key)->header;

	while (*h == ' ')	/* perf prints the level headers left-trimmed */
		h++;
	return h;
}

size_t sort_list__key_width(const struct sort_list *l, const struct sort_widths *w,
			    size_t key)
{
	const struct sort_dim *d = key_dim(l, key);
	size_t n = w->col_len[d->histc];

	return n > strlen(d->header) ? n : strlen(d->header);
}

int sort_list__key_cmp(const struct sort_list *l, size_t key, const struct hist_entry *a,
		       const struct hist_entry *b)
{
	const struct sort_dim *d = key_dim(l, key);

	lazy_text(l, d, b);
	lazy_text(l, d, a);
	/* as in sort_list__cmp(): a dso key compares the dsos on its own */
	if (d->cmp == c_sym && (l->need & SORT_NEED_DSO))
		return sym_cmp(l, true, a, b);
	return dim_cmp(l, d, a, b);
}

int sort_list__key_output_cmp(const struct sort_list *l, size_t key,
			      const struct hist_entry *a, const struct hist_entry *b)
{
	const struct sort_dim *k = key_dim(l, key);
	struct sort_ctx c = { 0 };

	for (size_t i = 0; i < l->nr_sorts; i++) {
		const struct sort_dim *d = l->sorts[i];
		int r;

		if (d->kind == DIM_HPP)
			r = value_cmp(l, &c, d, a, b);
		else if (d == k)
			r = -dim_sort(l, d, a, b);
		else
			r = 0;
		if (r)
			return r;
	}
	return 0;
}

size_t sort_list__snprintf_values(const struct sort_list *l, const struct sort_widths *w,
				  const struct hist_entry *e, const uint64_t *totals, char *buf,
				  size_t len)
{
	size_t used = put(buf, len, "  ");
	bool first = true;

	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		int vw = d->len - (d->percent ? 2 : 1);
		size_t n;

		if (d->kind != DIM_HPP)
			continue;
		if (!first)
			used += put(buf + used, len - used, "  ");
		first = false;
		if (d->acc && !l->children) {
			n = put(buf + used, len - used, " %*s", d->len - 1, "N/A");
		} else {
			n = put_value(d, buf + used, len - used, vw, d->value(e), totals[0]);
			/* the group view: each member's value (perf's __hpp__fmt) */
			for (uint32_t k = 0; k < e->nr_pairs; k++)
				n += put_value(d, buf + used + n, len - used - n, vw,
					       e->pairs[k] ? d->value(e->pairs[k]) : 0,
					       totals[k + 1]);
		}
		if (n < w->w[i])
			n += put(buf + used + n, len - used - n, "%-*s", (int)(w->w[i] - n), "");
		used += n;
	}
	return used;
}

size_t sort_list__snprintf_key(const struct sort_list *l, const struct sort_widths *w,
			       size_t key, const struct hist_entry *e, char *buf, size_t len)
{
	const struct sort_dim *d = key_dim(l, key);
	size_t width = w->col_len[d->histc], n, skip = 0;

	if (width < strlen(d->header))
		width = strlen(d->header);
	lazy_text(l, d, e);
	if (l->nanosecs && d->print == p_time)
		n = p_time_ns(e, buf, len, width);
	else if (l->verbose && d->print == p_dso)
		n = p_dso_long(e, buf, len, width);
	else if (l->verbose && d->print == p_sym)
		n = p_sym_verbose(e, buf, len, width);
	else
		n = d->print(e, buf, len, width);
	while (skip < n && buf[skip] == ' ')	/* perf left-trims each level's text */
		skip++;
	memmove(buf, buf + skip, n - skip + 1);
	return n - skip;
}

void sort_list__fprintf_value_headers(const struct sort_list *l,
				      const struct sort_widths *w, bool dots, FILE *out)
{
	bool first = true;

	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];

		if (d->kind != DIM_HPP)
			continue;
		if (!first)
			fputs(dots ? ".." : "  ", out);
		first = false;
		if (!dots)
			fprintf(out, "%*s", (int)w->w[i], d->header);
		else
			for (size_t k = 0; k < w->w[i]; k++)
				fputc('.', out);
	}
}

bool sort_order__has_value_key(const char *order)
{
	char *copy = strdup(order ? order : ""), *save = NULL, *tok;
	bool found = false;

	if (!copy)
		return true;	/* the caller refuses: no worse than a usage error */
	for (tok = strtok_r(copy, ", ", &save); tok && !found;
	     tok = strtok_r(NULL, ", ", &save)) {
		const struct sort_dim *d = dim_find(tok[0] == '+' ? tok + 1 : tok);

		found = d && d->kind == DIM_HPP;
	}
	free(copy);
	return found;
}
