/*
 * sort-print - a report's columns printed (report/sort.h): their widths (perf's
 * hists__calc_col_len(), -w), the header lines, each entry's line (its values, the
 * group view's members' values, each key's text, -v's and --ns' forms), and the
 * texts of one --hierarchy level (report/hierarchy.c).
 */
#define DIRREPORT_IN_REPORT
#include "report/sort.h"

#include <errno.h>
#include <inttypes.h>	/* PRIu64, PRIx64 */
#include <stdlib.h>	/* free, malloc */
#include <string.h>	/* memmove, memset, strchr, strlen */

#include "machine/dso.h"
#include "machine/machine.h"	/* thread__comm */
#include "machine/symbol.h"
#include "report/sort-internal.h"
#include "banned.h"

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
		return sort__put(at, len, " %*.2f%%", width,
				 total ? 100.0 * (double)v / (double)total : 0.0);
	return sort__put(at, len, " %*" PRIu64, width, total ? v : 0);
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
		if (l->verbose && (l->fields[i]->print == sort__sym_snprintf ||
				   l->fields[i]->print == sort__sym_from_snprintf ||
				   l->fields[i]->print == sort__sym_to_snprintf ||
				   l->fields[i]->print == sort__daddr_sym_snprintf ||
				   l->fields[i]->print == sort__dcacheline_snprintf ||
				   l->fields[i]->print == sort__iaddr_snprintf))
			cap += UNRESOLVED_WIDTH + 2 + 3;
		/* an inlined function's " (inlined)" is not in perf's width either */
		if (l->fields[i]->print == sort__sym_snprintf)
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
		used += sort__put(line + used, cap - used, "  ");
	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		size_t n, width = w->w[i];
		char *at;

		if (i && sep)
			used += sort__put(line + used, cap - used, "%s", sep);
		else if (i)
			used += sort__put(line + used, cap - used, "  ");
		at = line + used;
		if (d->kind == DIM_HPP) {
			int len = sep ? 1 : (int)(l->user_len[i] ? (size_t)l->user_len[i]
							     : (size_t)d->len) -
					      (d->percent ? 2 : 1);
			uint64_t v = d->value(e);

			if (d->acc && !l->children)	/* no children without callchains:
							 * perf's hpp__fmt_acc, as wide as
							 * the field (-w), not the column */
				n = sort__put(at, cap - used, " %*s",
					      (l->user_len[i] ? l->user_len[i] : d->len) - 1,
					      "N/A");
			else if (d->percent)
				n = sort__put(at, cap - used, " %*.2f%%", len,
					      total ? 100.0 * (double)v / (double)total : 0.0);
			else
				n = sort__put(at, cap - used, " %*" PRIu64, len, v);
			/* perf's __hpp__fmt: then each member's value */
			for (uint32_t k = 0; k < e->nr_pairs && !(d->acc && !l->children); k++)
				n += put_value(d, at + n, cap - used - n, len,
					       e->pairs[k] ? d->value(e->pairs[k]) : 0,
					       totals[k + 1]);
		} else {
			sort__lazy_text(l, d, e);	/* perf computes them when printing too */
			if (l->nanosecs && d->print == sort__time_snprintf)
				n = sort__time_ns_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__dso_snprintf)
				n = sort__dso_long_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__sym_snprintf)
				n = sort__sym_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__daddr_sym_snprintf)
				n = sort__daddr_sym_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__dcacheline_snprintf)
				n = sort__dcacheline_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__iaddr_snprintf)
				n = sort__iaddr_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__dso_daddr_snprintf)
				n = sort__dso_daddr_long_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__sym_from_snprintf)
				n = sort__sym_from_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__sym_to_snprintf)
				n = sort__sym_to_verbose_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__dso_from_snprintf)
				n = sort__dso_from_long_snprintf(e, at, cap - used, width);
			else if (l->verbose && d->print == sort__dso_to_snprintf)
				n = sort__dso_to_long_snprintf(e, at, cap - used, width);
			else
				n = d->print(e, at, cap - used, width);
			repsep(l, at);
		}
		used += n;
		/* perf's hist_entry__snprintf_alignment: pad all but the last column */
		if (i + 1 < l->nr_fields && n < width)
			used += sort__put(line + used, cap - used, "%-*s", (int)(width - n), " ");
	}
	fputs(line, out);
	fputc('\n', out);
	free(line);
	return 0;
}

/* ---- --hierarchy's texts (report/hierarchy.c) --------------------------------------- */

const char *sort_list__key_header(const struct sort_list *l, size_t key)
{
	const char *h = sort_list__key_dim(l, key)->header;

	while (*h == ' ')	/* perf prints the level headers left-trimmed */
		h++;
	return h;
}

size_t sort_list__key_width(const struct sort_list *l, const struct sort_widths *w,
			    size_t key)
{
	const struct sort_dim *d = sort_list__key_dim(l, key);
	size_t n = w->col_len[d->histc];

	return n > strlen(d->header) ? n : strlen(d->header);
}

size_t sort_list__snprintf_values(const struct sort_list *l, const struct sort_widths *w,
				  const struct hist_entry *e, const uint64_t *totals, char *buf,
				  size_t len)
{
	size_t used = sort__put(buf, len, "  ");
	bool first = true;

	for (size_t i = 0; i < l->nr_fields; i++) {
		const struct sort_dim *d = l->fields[i];
		int vw = d->len - (d->percent ? 2 : 1);
		size_t n;

		if (d->kind != DIM_HPP)
			continue;
		if (!first)
			used += sort__put(buf + used, len - used, "  ");
		first = false;
		if (d->acc && !l->children) {
			n = sort__put(buf + used, len - used, " %*s", d->len - 1, "N/A");
		} else {
			n = put_value(d, buf + used, len - used, vw, d->value(e), totals[0]);
			/* the group view: each member's value (perf's __hpp__fmt) */
			for (uint32_t k = 0; k < e->nr_pairs; k++)
				n += put_value(d, buf + used + n, len - used - n, vw,
					       e->pairs[k] ? d->value(e->pairs[k]) : 0,
					       totals[k + 1]);
		}
		if (n < w->w[i])
			n += sort__put(buf + used + n, len - used - n, "%-*s",
				       (int)(w->w[i] - n), "");
		used += n;
	}
	return used;
}

size_t sort_list__snprintf_key(const struct sort_list *l, const struct sort_widths *w,
			       size_t key, const struct hist_entry *e, char *buf, size_t len)
{
	const struct sort_dim *d = sort_list__key_dim(l, key);
	size_t width = w->col_len[d->histc], n, skip = 0;

	if (width < strlen(d->header))
		width = strlen(d->header);
	sort__lazy_text(l, d, e);
	if (l->nanosecs && d->print == sort__time_snprintf)
		n = sort__time_ns_snprintf(e, buf, len, width);
	else if (l->verbose && d->print == sort__dso_snprintf)
		n = sort__dso_long_snprintf(e, buf, len, width);
	else if (l->verbose && d->print == sort__sym_snprintf)
		n = sort__sym_verbose_snprintf(e, buf, len, width);
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
