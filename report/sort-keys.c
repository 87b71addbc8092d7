/*
 * sort-keys - the value columns (overhead, sys, usr, samples, period ...) and the sort
 * keys every report has (pid, comm, dso, symbol, parent, cpu, socket, srcline,
 * srcfile, weight, transaction, trace, sizes, cgroups, time, code page size, addr):
 * each key's comparison and text, and perf 6.1's table of them in its order
 * (sort__dim_find()).  The comm, dso and symbol keys' comparisons are in sort.c; the
 * memory and branch keys in sort-mem.c and sort-branch.c.
 */
#define DIRREPORT_IN_REPORT
#include "report/sort-internal.h"

#include <inttypes.h>	/* PRIu64, PRIx64 */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf, vsnprintf */
#include <string.h>	/* strcmp, strlen */
#include <strings.h>	/* strncasecmp */

#include "machine/dso.h"
#include "machine/machine.h"	/* thread__comm */
#include "machine/symbol.h"
#include "banned.h"

/* snprintf returning what was written (at most len - 1). */
size_t sort__put(char *buf, size_t len, const char *fmt, ...)
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

/* ---- value columns ---------------------------------------------------------------- */

static uint64_t v_period(const struct hist_entry *e) { return e->stat.period; }
static uint64_t v_period_acc(const struct hist_entry *e) { return e->stat_acc.period; }
static uint64_t v_sys(const struct hist_entry *e) { return e->stat.period_sys; }
static uint64_t v_us(const struct hist_entry *e) { return e->stat.period_us; }
static uint64_t v_guest_sys(const struct hist_entry *e) { return e->stat.period_guest_sys; }
static uint64_t v_guest_us(const struct hist_entry *e) { return e->stat.period_guest_us; }
static uint64_t v_samples(const struct hist_entry *e) { return e->stat.nr_events; }

/* ---- sort entries: comparisons (a: new entry, b: tree node; < 0: a goes left) ---
 * (the comm, dso and symbol keys': sort.c) */

static int32_t tid_of(const struct hist_entry *e)
{
	return e->thread ? e->thread->tid : -1;
}

static int c_pid(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_i64(tid_of(a), tid_of(b));
}

static int c_cpu(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_i64(a->cpu, b->cpu);
}

static int c_socket(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_i64(a->socket, b->socket);
}

static int c_time(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(a->time, b->time);
}

int sort__addr_cmp(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(sort__unmap_ip(a, a->ip), sort__unmap_ip(b, b->ip));
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
		return sort__null_last(a->parent, b->parent);
	return strcmp(symbol__name(a->parent), symbol__name(b->parent));
}

/* weight, ins_lat, p_stage_cyc: perf keys entries on the sample's value (the local
 * keys print it, the global ones it times the entry's samples).  perf's comparisons
 * are "left - right" (node - new entry): larger values print first among ties
 * (observed with the branch view's weights, the first branch's cycles). */
static int c_weight(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(b->weight, a->weight);
}

static int c_ins_lat(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(b->ins_lat, a->ins_lat);
}

static int c_p_stage_cyc(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(b->p_stage_cyc, a->p_stage_cyc);
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
	return sort__cmp_diff(a->cgroup, b->cgroup);
}

static int c_cgroup_id(const struct hist_entry *a, const struct hist_entry *b)
{
	int c = sort__cmp_diff(a->cgroup_dev, b->cgroup_dev);

	return c ? c : sort__cmp_diff(a->cgroup_ino, b->cgroup_ino);
}

static int c_code_page_size(const struct hist_entry *a, const struct hist_entry *b)
{
	return sort__cmp_diff(a->code_page_size, b->code_page_size);
}

/* perf's sort__trace_cmp: by text; events that are not tracepoints compare equal */
static int c_trace(const struct hist_entry *a, const struct hist_entry *b)
{
	if (a->trace == b->trace || !a->trace || !b->trace)
		return 0;
	return strcmp(a->trace, b->trace);
}

/* ---- sort entries: text --------------------------------------------------------- */

static size_t p_comm(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-*.*s", (int)width, (int)width, e->comm);
}

static size_t p_pid(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	size_t w = width > 8 ? width - 8 : 0;
	const char *comm = e->thread ? thread__comm(e->thread) : "";

	return sort__put(buf, len, "%7d:%-*.*s", (int)tid_of(e), (int)w, (int)w, comm);
}

size_t sort__dso_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-*.*s", (int)width, (int)width, dso_name(e));
}

/* perf's _hist_entry__sym_snprintf: "[L] name" (cut to the width; an object with its
 * offset from the address) or the address; with -v the address (a long's hex digits
 * and 0x, left-aligned) and the dso's symtab origin first.  Entries and branch ends
 * alike: addr is the entry's (map-relative) address, unmapped_start the symbol's. */
size_t sort__sym_text(char *buf, size_t len, size_t width, bool verbose, uint64_t addr,
		      const struct dso *dso, char level, const struct symbol *sym,
		      uint64_t unmapped_start)
{
	size_t n = 0;

	if (verbose)
		n = sort__put(buf, len, "%-#*" PRIx64 " %c ", UNRESOLVED_WIDTH + 2, addr,
			      dso ? dso->origin_letter : '!');
	n += sort__put(buf + n, len - n, "[%c] ", level);
	if (sym && dso) {
		if (sym->type == 1 /* STT_OBJECT */)
			return n + sort__put(buf + n, len - n, "%s+0x%" PRIx64, symbol__name(sym),
					     addr - unmapped_start);
		/* a negative precision (a narrow -w) does not cut */
		n += sort__put(buf + n, len - n, "%.*s", (int)width - (int)n, symbol__name(sym));
		return n + (sym->inlined ? sort__put(buf + n, len - n, " (inlined)") : 0);
	}
	if (!addr)	/* "%-#.*llx" prints no 0x for zero */
		return n + sort__put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + sort__put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, addr);
}

static size_t p_sym_any(const struct hist_entry *e, char *buf, size_t len, size_t width,
			bool verbose)
{
	return sort__sym_text(buf, len, width, verbose, e->ip, e->dso, e->level, e->sym,
			      e->sym_unmapped_start);
}

size_t sort__sym_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_sym_any(e, buf, len, width, false);
}

size_t sort__sym_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_sym_any(e, buf, len, width, true);
}

size_t sort__dso_long_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-*.*s", (int)width, (int)width, dso_long_name(e));
}

static size_t p_parent(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-*.*s", (int)width, (int)width,
			 e->parent ? symbol__name(e->parent) : "[other]");
}

static size_t p_local_weight(const struct hist_entry *e, char *buf, size_t len,
			     size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->weight);
}

static size_t p_global_weight(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->weight * e->stat.nr_events);
}

static size_t p_local_ins_lat(const struct hist_entry *e, char *buf, size_t len,
			      size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->ins_lat);
}

static size_t p_global_ins_lat(const struct hist_entry *e, char *buf, size_t len,
			       size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->ins_lat * e->stat.nr_events);
}

static size_t p_local_p_stage_cyc(const struct hist_entry *e, char *buf, size_t len,
				  size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->p_stage_cyc);
}

static size_t p_global_p_stage_cyc(const struct hist_entry *e, char *buf, size_t len,
				   size_t width)
{
	return sort__put(buf, len, "%-*" PRIu64, (int)width, e->p_stage_cyc * e->stat.nr_events);
}

static size_t p_srcline(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-.*s", (int)width, e->srcline);
}

static size_t p_srcfile(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-.*s", (int)width, e->srcfile);
}

/* perf's hist_entry__trace_snprintf: cut to the width, never padded by itself */
static size_t p_trace(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-.*s", (int)width, e->trace ? e->trace : "N/A");
}

/* perf prints both whole, whatever the column's width */
static size_t p_cgroup(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)width;
	return sort__put(buf, len, "%s", e->cgroup_name ? e->cgroup_name : "N/A");
}

static size_t p_cgroup_id(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)width;
	return sort__put(buf, len, "%" PRIu64 "/0x%" PRIx64, e->cgroup_dev, e->cgroup_ino);
}

/* A page size as perf prints it: N/A for none, else the number in the largest unit
 * (B, K, M, G) that leaves more than 1 of it when divided once more. */
size_t sort__code_page_size_snprintf(const struct hist_entry *e, char *buf, size_t len,
				     size_t width)
{
	static const char unit[] = "BKMG";
	uint64_t n = e->code_page_size;
	char t[32];
	int i = 0;

	if (!n)
		return sort__put(buf, len, "%-*s", (int)width, "N/A");
	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(t, sizeof(t), "%" PRIu64 "%c", n, unit[i]);
	return sort__put(buf, len, "%-*s", (int)width, t);
}

static size_t p_cpu(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%*.*d", (int)width, (int)width, e->cpu);
}

static size_t p_socket(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%*.*d", (int)width, (int)width - 3, e->socket);
}

size_t sort__time_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	char t[32];

	snprintf(t, sizeof(t), "%" PRIu64 ".%06" PRIu64, e->time / 1000000000,
		 e->time % 1000000000 / 1000);
	return sort__put(buf, len, "%-.*s", (int)width, t);
}

/* --ns: seconds with 9 decimals. */
size_t sort__time_ns_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	char t[48];

	snprintf(t, sizeof(t), "%" PRIu64 ".%09" PRIu64, e->time / 1000000000,
		 e->time % 1000000000);
	return sort__put(buf, len, "%-.*s", (int)width, t);
}

static size_t p_addr(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return sort__put(buf, len, "%-#*" PRIx64, (int)width, sort__unmap_ip(e, e->ip));
}

static size_t p_dso_size(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->dso && e->map_end)
		return sort__put(buf, len, "%*d", (int)width, (int)map_size(e));
	return sort__put(buf, len, "%*s", (int)width, "unknown");
}

static size_t p_sym_size(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->sym)
		return sort__put(buf, len, "%*d", (int)width, (int)sym_size(e));
	return sort__put(buf, len, "%*s", (int)width, "unknown");
}

static size_t p_ipc(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	(void)e;
	return sort__put(buf, len, "%-*s", (int)width, "-      -");
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
	return sort__put(buf, len, "%-*s", (int)width, "");
}
/* perf computes an entry's srcline / srcfile when it first needs it: the entries are
 * the caller's (hist-build.c, hist-order.c) and only look const here. */
void sort__lazy_text_slow(const struct sort_list *l, const struct sort_dim *d,
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

/* ---- the table (perf 6.1's order: a key matches the first name it prefixes) ----- */

#define SE(n, h, hc, c, s, p, nd) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c, .sort = s, \
	  .print = p, .need = nd }
#define SE_TODO(n) { .name = n, .kind = DIM_SE, .unsupported = true }
#define HPP(n, h, l, pc, v) \
	{ .name = n, .kind = DIM_HPP, .header = h, .len = l, .percent = pc, .value = v }

const struct sort_dim sort__hpp_dims[DIM_NR_HPP] = {
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
const struct sort_dim sort__self_dim = HPP("overhead", "Self", 8, true, v_period);

/* perf's sort_sym_ipc_null: compares like the symbol key */
const struct sort_dim sort__ipc_dim =
	SE("ipc_null", "IPC   [IPC Coverage]", HISTC_IPC, sort__sym_cmp, NULL, p_ipc,
	   SORT_NEED_SYM);

static const struct sort_dim se_dims[] = {
	SE("pid", "    Pid:Command", HISTC_THREAD, c_pid, NULL, p_pid, SORT_NEED_THREAD),
	{ .name = "comm", .kind = DIM_SE, .header = "Command", .histc = HISTC_COMM,
	  .cmp = sort__comm_cmp, .print = p_comm, .need = SORT_NEED_COMM, .collapse = true },
	SE("dso", "Shared Object", HISTC_DSO, sort__dso_cmp, NULL, sort__dso_snprintf,
	   SORT_NEED_DSO),
	SE("symbol", "Symbol", HISTC_SYMBOL, sort__sym_cmp, sort__sym_sort, sort__sym_snprintf,
	   SORT_NEED_SYM),
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
	  .histc = HISTC_IPC, .cmp = sort__sym_cmp, .print = p_ipc, .need = SORT_NEED_SYM,
	  .field_only = true },
	SE("time", "Time", HISTC_TIME, c_time, NULL, sort__time_snprintf, SORT_NEED_TIME),
	SE("code_page_size", "Code Page Size", HISTC_CODE_PAGE_SIZE, c_code_page_size, NULL,
	   sort__code_page_size_snprintf, SORT_NEED_PAGE),
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
	SE("addr", "Address", HISTC_ADDR, sort__addr_cmp, NULL, p_addr,
	   SORT_NEED_MAP | SORT_NEED_IP),
};

#define NR_SE (sizeof(se_dims) / sizeof(se_dims[0]))

/* The first of the n keys in v whose name `tok` is a prefix of, or NULL. */
const struct sort_dim *sort__dims_find(const struct sort_dim *v, size_t n, const char *tok)
{
	size_t len = strlen(tok);

	for (size_t i = 0; i < n; i++)
		if (!strncasecmp(tok, v[i].name, len))
			return &v[i];
	return NULL;
}

/* perf's sort_dimension__add lookup: the first key `tok` is a prefix of. */
const struct sort_dim *sort__dim_find(const char *tok)
{
	const struct sort_dim *d = sort__dims_find(se_dims, NR_SE, tok);

	return d ? d : sort__dims_find(sort__hpp_dims, DIM_NR_HPP, tok);
}
