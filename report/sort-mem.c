/*
 * sort-mem - perf 6.1's memory keys (--mem-mode only: symbol_daddr, dso_daddr,
 * locked, tlb, mem, snoop, dcacheline, symbol_iaddr, phys_daddr, data_page_size,
 * blocked): each key's comparison and text, from the entry's data access
 * (hist_entry__mem(), machine/mem.h's DATA_SRC fields), and their table
 * (sort__mem_dim_find()).
 */
#define DIRREPORT_IN_REPORT
#include "report/sort-internal.h"

#include <inttypes.h>	/* PRIx64 */
#include <stdio.h>	/* snprintf */
#include <string.h>	/* strcmp */

#include "machine/dso.h"
#include "machine/machine.h"	/* struct thread */
#include "machine/mem.h"
#include "machine/symbol.h"
#include "banned.h"

/* --mem-mode keys (report/mem.h): the data address, its dso, one data_src field */
static int c_daddr(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return sort__cmp_diff(am->addr, bm->addr);
}

/* by name as the dso key, but in the opposite order (observed: ties print
 * "ld-linux-x86-64.so.2" before "gconv-modules.cache") */
int sort__dso_daddr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	if (am->dso == bm->dso)
		return 0;
	if (!am->dso || !bm->dso)
		return -sort__null_last(am->dso, bm->dso);
	return strcmp(dso__short_name(bm->dso), dso__short_name(am->dso));
}

/* -v: by long names */
int sort__dso_daddr_long_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	if (am->dso == bm->dso)
		return 0;
	if (!am->dso || !bm->dso)
		return -sort__null_last(am->dso, bm->dso);
	return strcmp(dso__long_name(bm->dso), dso__long_name(am->dso));
}

static int c_phys_daddr(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return sort__cmp_diff(am->phys_addr, bm->phys_addr);
}

static int c_data_page_size(const struct hist_entry *a, const struct hist_entry *b)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return sort__cmp_diff(am->page_size, bm->page_size);
}

static int c_mem_field(const struct hist_entry *a, const struct hist_entry *b,
		       enum mem_field f)
{
	const struct hist_mem *am = hist_entry__mem(a), *bm = hist_entry__mem(b);

	return sort__cmp_diff(mem_src__field(am->data_src, f), mem_src__field(bm->data_src, f));
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

/* --mem-mode: the data symbol as perf's symbol column prints a symbol, but with
 * the absolute address (unresolved: "0x" and 16 digits; 0 as 16 zeros) and an
 * object's offset from it */
static size_t p_daddr_sym_any(const struct hist_entry *e, char *buf, size_t len,
			      size_t width, bool verbose)
{
	const struct hist_mem *m = hist_entry__mem(e);
	size_t n = 0;

	if (verbose)	/* -v: the address and the dso's symtab origin first */
		n = sort__put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, m->addr,
			      m->dso ? m->dso->origin_letter : '!');
	n += sort__put(buf + n, len - n, "[%c] ", e->level);

	if (m->sym && m->dso) {
		if (m->sym->type == 1 /* STT_OBJECT */)
			return n + sort__put(buf + n, len - n, "%s+0x%" PRIx64,
					     symbol__name(m->sym), m->addr - m->sym_unmapped_start);
		return n + sort__put(buf + n, len - n, "%.*s", (int)width - (int)n,
				     symbol__name(m->sym));
	}
	if (!m->addr)
		return n + sort__put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + sort__put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, m->addr);
}

size_t sort__daddr_sym_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_daddr_sym_any(e, buf, len, width, false);
}

size_t sort__daddr_sym_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len,
					size_t width)
{
	return p_daddr_sym_any(e, buf, len, width, true);
}

/* -v: the long name */
size_t sort__dso_daddr_long_snprintf(const struct hist_entry *e, char *buf, size_t len,
				     size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);

	return sort__put(buf, len, "%-*.*s", (int)width, (int)width,
			 m->dso ? dso__long_name(m->dso) : "[unknown]");
}

size_t sort__dso_daddr_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);

	return sort__put(buf, len, "%-*.*s", (int)width, (int)width,
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
	return sort__put(buf, len, "%-*s", (int)width, t);
}

static size_t p_data_page_size(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	const struct hist_mem *m = hist_entry__mem(e);
	struct hist_entry t = { .code_page_size = m->page_size };

	return sort__code_page_size_snprintf(&t, buf, len, width);
}

/* data_src texts: mem, snoop and tlb padded to the width, locked and blocked not */
static size_t p_mem_text(const struct hist_entry *e, char *buf, size_t len, size_t width,
			 enum mem_field f, bool pad)
{
	const struct hist_mem *m = hist_entry__mem(e);
	char t[256];

	mem_src__text(m->data_src, f, t, sizeof(t));
	return sort__put(buf, len, "%-*s", pad ? (int)width : 0, t);
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
	if ((c = -sort__cmp_i64(am->map_maj, bm->map_maj)) ||
	    (c = -sort__cmp_i64(am->map_min, bm->map_min)) ||
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
int sort__dcacheline_cmp(const struct hist_entry *a, const struct hist_entry *b)
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
		n = sort__put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, cl,
			      m->dso ? m->dso->origin_letter : '!');
	n += sort__put(buf + n, len - n, "[%c] ", level);
	if (m->sym && m->dso) {
		if (m->sym->type == 1 /* STT_OBJECT */)
			return n + sort__put(buf + n, len - n, "%s+0x%" PRIx64,
					     symbol__name(m->sym), cl - m->sym_unmapped_start);
		return n + sort__put(buf + n, len - n, "%.*s", (int)width - (int)n,
				     symbol__name(m->sym));
	}
	if (!cl)
		return n + sort__put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + sort__put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, cl);
}

size_t sort__dcacheline_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_dcacheline_any(e, buf, len, width, false);
}

size_t sort__dcacheline_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len,
					 size_t width)
{
	return p_dcacheline_any(e, buf, len, width, true);
}

/* --mem-mode symbol_iaddr (`Code Symbol`): the sample's address, compared as a
 * virtual address, printed as symbol_daddr prints a data address */
int sort__iaddr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(sort__unmap_ip(a, a->ip), sort__unmap_ip(b, b->ip));
}

static size_t p_iaddr_any(const struct hist_entry *e, char *buf, size_t len,
			  size_t width, bool verbose)
{
	uint64_t addr = sort__unmap_ip(e, e->ip);
	size_t n = 0;

	if (verbose)	/* -v: the address and the dso's symtab origin first */
		n = sort__put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, addr,
			      e->dso ? e->dso->origin_letter : '!');
	n += sort__put(buf + n, len - n, "[%c] ", e->level);

	if (e->sym && e->dso) {
		if (e->sym->type == 1 /* STT_OBJECT */)
			return n + sort__put(buf + n, len - n, "%s+0x%" PRIx64,
					     symbol__name(e->sym), addr - e->sym_unmapped_start);
		return n + sort__put(buf + n, len - n, "%.*s", (int)width - (int)n,
				     symbol__name(e->sym));
	}
	if (!addr)
		return n + sort__put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + sort__put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, addr);
}

size_t sort__iaddr_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_iaddr_any(e, buf, len, width, false);
}

size_t sort__iaddr_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len,
				    size_t width)
{
	return p_iaddr_any(e, buf, len, width, true);
}

#define MEM(n, h, hc, c, p) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c, .print = p, \
	  .need = SORT_NEED_MEM, .mem = true }

/* perf 6.1's memory keys (--mem-mode only), in its order, after the others */
static const struct sort_dim mem_dims[] = {
	MEM("symbol_daddr", "Data Symbol", HISTC_MEM_DADDR_SYMBOL, c_daddr,
	    sort__daddr_sym_snprintf),
	MEM("dso_daddr", "Data Object", HISTC_MEM_DADDR_DSO, sort__dso_daddr_cmp,
	    sort__dso_daddr_snprintf),
	MEM("locked", "Locked", HISTC_MEM_LOCKED, c_mem_lock, p_mem_lock),
	MEM("tlb", "TLB access", HISTC_MEM_TLB, c_mem_tlb, p_mem_tlb),
	MEM("mem", "Memory access", HISTC_MEM_LVL, c_mem_lvl, p_mem_lvl),
	MEM("snoop", "Snoop", HISTC_MEM_SNOOP, c_mem_snoop, p_mem_snoop),
	{ .name = "dcacheline", .kind = DIM_SE, .header = "Data Cacheline",
	  .histc = HISTC_MEM_DCACHELINE, .cmp = sort__dcacheline_cmp,
	  .print = sort__dcacheline_snprintf,
	  .need = SORT_NEED_MEM | SORT_NEED_THREAD | SORT_NEED_DCACHELINE, .mem = true },
	{ .name = "symbol_iaddr", .kind = DIM_SE, .header = "Code Symbol",
	  .histc = HISTC_MEM_IADDR_SYMBOL, .cmp = sort__iaddr_cmp, .print = sort__iaddr_snprintf,
	  .need = SORT_NEED_MEM | SORT_NEED_MAP | SORT_NEED_IP, .mem = true },
	MEM("phys_daddr", "Data Physical Address", HISTC_MEM_PHYS_DADDR, c_phys_daddr,
	    p_phys_daddr),
	MEM("data_page_size", "Data Page Size", HISTC_MEM_DATA_PAGE_SIZE, c_data_page_size,
	    p_data_page_size),
	MEM("blocked", "Blocked", HISTC_MEM_BLOCKED, c_mem_blk, p_mem_blk),
};

/* The memory key `tok` is a prefix of, or NULL. */
const struct sort_dim *sort__mem_dim_find(const char *tok)
{
	return sort__dims_find(mem_dims, sizeof(mem_dims) / sizeof(mem_dims[0]), tok);
}
