/*
 * sort-setup - a report's sort keys and output fields built from the options (perf's
 * setup_sorting(), perf_hpp__init(), sort__setup_elide()): -s and -F parsed into the
 * two lists (sort_list__setup()), -w's widths, the columns hidden by one-name
 * filters, and whether the entries may be found by hash (sort_list.hash_safe).
 */
#define DIRREPORT_IN_REPORT
#include "report/sort.h"

#include <errno.h>
#include <stdio.h>	/* fprintf, snprintf */
#include <stdlib.h>	/* free, malloc, strtol, strtoull */
#include <string.h>	/* memcpy, memset, strchr, strdup, strlen, strncmp, strstr, strtok_r */

#include "report/branch.h"	/* BRANCH_DEFAULT_SORT_ORDER */
#include "report/sort-internal.h"
#include "banned.h"

/* ---- building the lists ------------------------------------------------------------ */

/* Two columns are the same (perf's perf_hpp__same_sort_entry / fmt identity); Self is
 * the overhead column. */
static bool same_dim(const struct sort_dim *a, const struct sort_dim *b)
{
	if (a == &sort__self_dim)
		a = &sort__hpp_dims[DIM_OVERHEAD];
	if (b == &sort__self_dim)
		b = &sort__hpp_dims[DIM_OVERHEAD];
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
	if (l->children && !l->strict_fields && d == &sort__hpp_dims[DIM_OVERHEAD])
		return &sort__self_dim;
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
		const struct sort_dim *d = sort__dim_find(tok);

		if (!d && l->branch_mode)
			d = sort__branch_dim_find(tok);
		if (!d && l->mem_mode)
			d = sort__mem_dim_find(tok);
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
		if (d->cmp == sort__sym_cmp)
			sym = true;
		else if (d->branch)	/* addresses by the sign of their difference */
			return false;
		else if (d->cmp == sort__addr_cmp || d->cmp == sort__dcacheline_cmp ||
			 d->cmp == sort__iaddr_cmp)
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
		const struct sort_dim *d = sort__dim_find("parent");

		if (!d || add_sort(l, d))
			return -EINVAL;
	}
	/* perf_hpp__init: the default output fields */
	if (!strict_fields) {
		if (o->children)
			add_field(l, &sort__hpp_dims[DIM_OVERHEAD_CHILDREN]);
		add_field(l, mode_dim(l, &sort__hpp_dims[DIM_OVERHEAD]));
		if (o->show_nr_samples)
			add_field(l, &sort__hpp_dims[DIM_SAMPLE]);
		if (o->show_total_period)
			add_field(l, &sort__hpp_dims[DIM_PERIOD]);
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
		ret = add_field(l, &sort__ipc_dim);
	}
	for (size_t i = 0; i < l->nr_fields && !ret; i++)
		ret = add_key(l, l->fields[i], false);
	if (!ret && o->col_widths)
		parse_widths(l, o->col_widths);
	l->hash_safe = hash_safe(l);
	for (size_t i = 0; i < l->nr_sorts; i++) {
		if (l->sorts[i]->kind != DIM_SE)
			continue;
		if (l->sorts[i]->cmp == sort__sym_cmp)
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

bool sort_order__has_value_key(const char *order)
{
	char *copy = strdup(order ? order : ""), *save = NULL, *tok;
	bool found = false;

	if (!copy)
		return true;	/* the caller refuses: no worse than a usage error */
	for (tok = strtok_r(copy, ", ", &save); tok && !found;
	     tok = strtok_r(NULL, ", ", &save)) {
		const struct sort_dim *d = sort__dim_find(tok[0] == '+' ? tok + 1 : tok);

		found = d && d->kind == DIM_HPP;
	}
	free(copy);
	return found;
}
