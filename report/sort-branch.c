/*
 * sort-branch - perf 6.1's branch view keys (report/branch.h: dso_from, dso_to,
 * symbol_from, symbol_to, mispredict, abort, in_tx, cycles, addr_from, addr_to):
 * each key's comparisons (perf's bstack functions, both ways round, and their -v
 * forms) and text, and their table (sort__branch_dim_find()).
 */
#define DIRREPORT_IN_REPORT
#include "report/sort-internal.h"

#include <inttypes.h>	/* PRIx64 */
#include <string.h>	/* strcmp */

#include "machine/dso.h"
#include "machine/symbol.h"
#include "report/branch.h"
#include "banned.h"

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

	return sort__put(buf, len, "%-*.*s", (int)width, (int)width, name);
}

size_t sort__dso_from_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->from.dso : NULL, buf, len, width, false);
}

size_t sort__dso_to_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->to.dso : NULL, buf, len, width, false);
}

size_t sort__dso_from_long_snprintf(const struct hist_entry *e, char *buf, size_t len,
				    size_t width)
{
	return p_br_dso(e, e->branch ? e->branch->from.dso : NULL, buf, len, width, true);
}

size_t sort__dso_to_long_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
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
		return sort__put(buf, len, "%-*.*s", (int)width, (int)width, "N/A");
	return sort__sym_text(buf, len, width, verbose, end->al_addr, end->dso, end->level,
			      end->sym, end->sym_unmapped_start);
}

size_t sort__sym_from_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->from : NULL, buf, len, width, false);
}

size_t sort__sym_to_snprintf(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->to : NULL, buf, len, width, false);
}

size_t sort__sym_from_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len,
				       size_t width)
{
	return p_br_sym(e, e->branch ? &e->branch->from : NULL, buf, len, width, true);
}

size_t sort__sym_to_verbose_snprintf(const struct hist_entry *e, char *buf, size_t len,
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
		return sort__put(buf, len, "%-*.*s", (int)width, (int)width, "N/A");
	n = sort__put(buf, len, "[%c] ", e->level);
	if (end->sym && end->dso) {
		if (end->sym->type == 1 /* STT_OBJECT */)
			return n + sort__put(buf + n, len - n, "%s+0x%" PRIx64,
					     symbol__name(end->sym),
					     end->al_addr - end->sym_unmapped_start);
		n += sort__put(buf + n, len - n, "%.*s", (int)width - (int)n,
			       symbol__name(end->sym));
		if (end->al_addr != end->sym->start)
			n += sort__put(buf + n, len - n, "+0x%" PRIx64,
				       end->al_addr - end->sym->start);
		return n;
	}
	if (!end->al_addr)
		return n + sort__put(buf + n, len - n, "%0*d", UNRESOLVED_WIDTH, 0);
	return n + sort__put(buf + n, len - n, "%#0*" PRIx64, UNRESOLVED_WIDTH + 2, end->al_addr);
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
	return sort__put(buf, len, "%-*.*s", (int)width, (int)width, mispredict_text);
}

static size_t p_in_tx(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->branch)
		in_tx_text = branch_flags__in_tx(e->branch->flags) ? "T" : ".";
	return sort__put(buf, len, "%-*s", (int)width, in_tx_text);
}

static size_t p_abort(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	if (e->branch)
		abort_text = branch_flags__abort(e->branch->flags) ? "A" : ".";
	return sort__put(buf, len, "%-*s", (int)width, abort_text);
}

/* cycles: a signed short, "-" for 0 */
static size_t p_cycles(const struct hist_entry *e, char *buf, size_t len, size_t width)
{
	uint16_t c;

	if (!e->branch)
		return sort__put(buf, len, "%-.*s", (int)width, "N/A");
	c = branch_flags__cycles(e->branch->flags);
	if (!c)
		return sort__put(buf, len, "%-*s", (int)width, "-");
	return sort__put(buf, len, "%-*d", (int)width, (int)(int16_t)c);
}

/* A branch key: fn's comparisons (BR_FNS()) and its text print_fn (BR: p_fn; the
 * keys whose texts sort-print.c calls too have theirs in sort-internal.h) */
#define BR_P(n, h, hc, fn, print_fn) \
	{ .name = n, .kind = DIM_SE, .header = h, .histc = hc, .cmp = c_##fn, \
	  .sort = s_##fn, .print = print_fn, .need = SORT_NEED_BRANCH, .branch = true, \
	  .cmp_v = cv_##fn, .sort_v = sv_##fn }
#define BR(n, h, hc, fn) BR_P(n, h, hc, fn, p_##fn)

/* perf 6.1's branch keys (the branch view only), in its order, before the memory
 * ones; srcline_from, srcline_to and ipc_lbr (IPC from annotations) are not
 * implemented */
static const struct sort_dim branch_dims[] = {
	BR_P("dso_from", "Source Shared Object", HISTC_DSO_FROM, dso_from,
	     sort__dso_from_snprintf),
	BR_P("dso_to", "Target Shared Object", HISTC_DSO_TO, dso_to,
	     sort__dso_to_snprintf),
	BR_P("symbol_from", "Source Symbol", HISTC_SYMBOL_FROM, sym_from,
	     sort__sym_from_snprintf),
	BR_P("symbol_to", "Target Symbol", HISTC_SYMBOL_TO, sym_to,
	     sort__sym_to_snprintf),
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

/* The branch key `tok` is a prefix of, or NULL. */
const struct sort_dim *sort__branch_dim_find(const char *tok)
{
	return sort__dims_find(branch_dims, sizeof(branch_dims) / sizeof(branch_dims[0]), tok);
}
