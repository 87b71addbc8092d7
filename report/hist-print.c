/* hist-print.c - perf report --stdio of one event's histogram and of the group view
 * (hists__fprintf(), hists__fprintf_group() in hist.h); the entries come from the
 * builder (hist-build.c, hist-order.c, hist-live.c: report/hist-internal.h). */
#include "report/hist-print.h"

#include <errno.h>
#include <stdatomic.h>	/* atomic_flag */
#include <stdio.h>	/* open_memstream, fwrite */
#include <stdlib.h>	/* calloc, free, malloc */

#include "report/callchain.h"
#include "report/hierarchy.h"
#include "report/hist.h"
#include "report/hist-internal.h"
#include "report/sort.h"
#include "util/workqueue.h"
#include "banned.h"

static void print_event_header(FILE *out, uint64_t nr_samples, uint64_t total,
			       const char *event_name, const char *time_str, bool plural,
			       const char *mem_sort_order)
{
	unsigned long nr = (unsigned long)nr_samples;
	char unit = ' ';

	/* perf's convert_unit(): K, M, G above 1000 */
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	fprintf(out, "# Samples: %lu%c of event%s '%s'", nr, unit, plural ? "s" : "",
		event_name);
	if (time_str)
		fprintf(out, " (time slices: %s)", time_str);
	fputc('\n', out);
	if (mem_sort_order) {	/* perf's --mem-mode header */
		fprintf(out, "# Total weight : %llu\n# Sort order   : %s\n#\n",
			(unsigned long long)total, mem_sort_order);
		return;
	}
	fprintf(out, "# Event count (approx.): %llu\n#\n", (unsigned long long)total);
}

/* perf's absolute call graph threshold: callchain_total * (min_percent / 100),
 * truncated, of output_resort()'s callchain_(non_filtered_)period */
static uint64_t graph_min_hit(const struct hists *h, const struct hist_builder *b,
			      const struct hists_print_opts *o)
{
	return (uint64_t)((double)(o->filter_relative ? b->non_filtered_period
						      : h->total_period) *
			  (o->cc->min_percent / 100));
}

/* How the call graphs under the entries of b (h's, or the group's leader) print. */
static void graph_print_init(struct callchain_print *cp, const struct hists *h,
			     const struct hist_builder *b, const struct hists_print_opts *o)
{
	cp->param = o->cc;
	cp->total = h->total_period;
	cp->min_hit = graph_min_hit(h, b, o);
	cp->skip_first = h->sl->sym_first;
	cp->field_sep = h->sl->field_sep;
}

/* ---- --hierarchy (report/hierarchy.h) ---------------------------------------------- */

/* --hierarchy: the event header (with --percentage relative perf counts the shown
 * nodes' period, but the unfiltered samples) */
struct hierarchy_header {
	uint64_t nr_non_filtered_samples;
	const struct hists *h;
	const struct hists_print_opts *o;
	const char *event_name;
	const struct callchain_item *items;	/* NULL: no call graphs */
	struct callchain_print cp;
	bool group;			/* the group view: the group's sums */
	uint64_t group_samples, group_count;
};

/* --hierarchy: the call graph under a node of the last level */
static int hierarchy_graph(void *ctx, const struct hist_entry *e, FILE *out)
{
	struct hierarchy_header *hh = ctx;

	if (!hh->items || !e->nr_items)
		return 0;
	hh->cp.parent_total = e->stat.period;
	/* an entry's chains weigh at most the entry (as in hists__fprintf()) */
	if (hh->o->cc->mode != CALLCHAIN_GRAPH_REL && hh->cp.parent_total < hh->cp.min_hit)
		return 0;
	return callchains__fprintf(hh->o->chains, hh->items + e->first_item, e->nr_items,
				   &hh->cp, out);
}

static void hierarchy_header(void *ctx, uint64_t period, uint64_t samples, FILE *out)
{
	const struct hierarchy_header *hh = ctx;
	const struct hists_print_opts *o = hh->o;

	if (o->quiet)
		return;
	if (hh->group) {	/* relative: the shown nodes' sums */
		uint64_t count = o->filter_relative ? period : hh->group_count;

		print_event_header(out, hh->group_samples, count, hh->event_name,
				   o->time_str, true, o->mem_sort_order);
		return;
	}
	samples = o->filter_relative ? hh->nr_non_filtered_samples : hh->h->nr_samples;
	if (!o->filter_relative)
		period = hh->h->total_period;
	print_event_header(out, samples, period, hh->event_name, o->time_str,
			   o->leads_group, o->mem_sort_order);
}

/* --hierarchy: the entries of b (perf's collapsed ones, in collapsed order) as
 * report/hierarchy.h prints them.  hh and hp come with what differs between one
 * event and the group view; the rest is set here. */
static int print_hierarchy(struct hierarchy_header *hh, struct hierarchy_print *hp,
			   const struct hist_builder *b, const uint32_t *sorted, size_t n,
			   FILE *out)
{
	const struct hists_print_opts *o = hh->o;
	const struct hist_entry **v;
	int err;

	hp->sl = hh->h->sl;
	hp->relative = o->filter_relative;
	hp->percent_limit = o->percent_limit;
	hp->quiet = o->quiet;
	hp->event_header = hierarchy_header;
	hp->graph = hierarchy_graph;
	hp->ctx = hh;
	if (hh->items)	/* as the flat view sets them up */
		graph_print_init(&hh->cp, hh->h, b, o);
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		v[i] = &b->v[sorted[i]];
	err = hierarchy__fprintf(hp, v, n, out);
	free(v);
	return err;
}

/* ---- the flat view ------------------------------------------------------------------- */

/* Column widths of the unfiltered entries (perf's output_resort()), group_nr events
 * per column (0: not the group view); returns the entries' period. */
static uint64_t entry_widths(struct sort_widths *w, const struct sort_list *sl,
			     const struct hist_builder *b, const uint32_t *sorted, size_t n,
			     size_t group_nr)
{
	uint64_t period = 0;

	sort_widths__init(w, sl);
	if (group_nr)
		w->group_nr = group_nr;
	for (size_t i = 0; i < n; i++) {
		if (b->v[sorted[i]].filtered)
			continue;
		period += b->v[sorted[i]].stat.period;
		sort_widths__add(w, sl, &b->v[sorted[i]]);
	}
	sort_widths__finish(w, sl);
	return period;
}

/* What print_entries() prints, and where. */
struct entries_print {
	const struct hists *h;
	const struct hist_builder *b;
	const uint32_t *sorted;
	const struct sort_widths *w;
	const uint64_t *totals;
	bool group;
	const struct callchain_item *items;
	const struct hists_print_opts *o;
};

/* The entries sorted[from, to) of print_entries(), their call graphs printed with
 * cc (o->chains, or a printer of it). */
static int print_range(const struct entries_print *ep, struct callchains *cc, size_t from,
		       size_t to, FILE *out)
{
	const struct hists *h = ep->h;
	const struct hist_builder *b = ep->b;
	const struct hists_print_opts *o = ep->o;
	const uint64_t *totals = ep->totals;
	struct callchain_print cp = { 0 };
	int err = 0;

	if (ep->items)
		graph_print_init(&cp, h, b, o);
	for (size_t i = from; i < to && !err; i++) {
		const struct hist_entry *e = &b->v[ep->sorted[i]];
		/* perf's hist_entry__get_percent_limit(), a float */
		uint64_t v = o->children ? e->stat_acc.period : e->stat.period;
		float percent = totals[0] ? (float)((double)v * 100.0 / (double)totals[0]) : 0;

		if (e->filtered || percent < o->percent_limit)
			continue;
		err = ep->group ? sort_list__fprintf_group_entry(h->sl, ep->w, e, totals, out)
				: sort_list__fprintf_entry(h->sl, ep->w, e, totals[0], out);
		if (err || !ep->items || !e->nr_items)
			continue;
		cp.parent_total = v;
		/* an entry's chains weigh at most the entry: under an absolute threshold
		 * no branch of it would print */
		if (o->cc->mode != CALLCHAIN_GRAPH_REL && cp.parent_total < cp.min_hit)
			continue;
		err = callchains__fprintf(cc, ep->items + e->first_item, e->nr_items, &cp, out);
	}
	return err;
}

/*
 * The entries formatted on the workers: a window of chunks of entries at a time,
 * each chunk's text into a buffer of its own (with a call graph printer per thread
 * that runs chunks at once: struct print_slot), then the buffers written in order.
 */
enum { PRINT_CHUNK = 256, PRINT_WINDOW = 64 };

struct print_slot {
	struct callchains *pc;		/* owned; NULL until the slot's first chunk */
	atomic_flag busy;
};

struct print_chunk {
	char *buf;			/* owned */
	size_t len;
	int err;
};

struct parallel_print {
	const struct entries_print *ep;
	size_t n, first;		/* entries; the window's first chunk */
	struct print_chunk chunks[PRINT_WINDOW];
	struct print_slot *slots;	/* owned */
	size_t nr_slots;
};

static void print_chunk_job(void *ctx, size_t i)
{
	struct parallel_print *pp = ctx;
	struct print_chunk *c = &pp->chunks[i];
	size_t from = (pp->first + i) * PRINT_CHUNK, to = from + PRINT_CHUNK;
	struct print_slot *slot = NULL;
	FILE *f;

	if (to > pp->n)
		to = pp->n;
	c->buf = NULL;
	c->len = 0;
	c->err = 0;
	/* a free slot: at most nr_slots jobs run at once (the workers and the caller) */
	for (size_t k = 0; !slot; k = (k + 1) % pp->nr_slots)
		if (!atomic_flag_test_and_set(&pp->slots[k].busy))
			slot = &pp->slots[k];
	if (pp->ep->items && !slot->pc &&
	    (c->err = callchains__printer_new(pp->ep->o->chains, &slot->pc)))
		goto out;
	if (!(f = open_memstream(&c->buf, &c->len))) {
		c->err = -ENOMEM;
		goto out;
	}
	c->err = print_range(pp->ep, slot->pc, from, to, f);
	if (fclose(f) && !c->err)
		c->err = -ENOMEM;
out:
	atomic_flag_clear(&slot->busy);
}

static int print_parallel(const struct entries_print *ep, size_t n, FILE *out)
{
	struct workqueue *wq = ep->o->wq;
	struct parallel_print pp = { .ep = ep, .n = n };
	size_t nr_chunks = (n + PRINT_CHUNK - 1) / PRINT_CHUNK;
	int err = 0;

	pp.nr_slots = workqueue__nr_workers(wq) + 1;
	pp.slots = calloc(pp.nr_slots, sizeof(*pp.slots));
	if (!pp.slots)
		return -ENOMEM;
	for (size_t k = 0; k < pp.nr_slots; k++)
		atomic_flag_clear(&pp.slots[k].busy);
	for (; pp.first < nr_chunks && !err; pp.first += PRINT_WINDOW) {
		size_t jobs = nr_chunks - pp.first < PRINT_WINDOW ? nr_chunks - pp.first
								    : PRINT_WINDOW;

		err = parallel_for(wq, jobs, print_chunk_job, &pp);
		for (size_t i = 0; i < jobs && !err; i++)
			if (!(err = pp.chunks[i].err))
				fwrite(pp.chunks[i].buf, 1, pp.chunks[i].len, out);
		for (size_t i = 0; i < jobs; i++)
			free(pp.chunks[i].buf);
	}
	for (size_t k = 0; k < pp.nr_slots; k++)
		callchains__printer_delete(pp.slots[k].pc);
	free(pp.slots);
	return err;
}

/* The entry lines of b (h's, or the group's leader, then group: its pairs' values
 * too, one percent base per event in totals), each followed by its call graph
 * (items; NULL: none).  Entries filtered out or under --percent-limit are skipped.
 * On o->wq's workers where formatting reads only: no lazily computed srcline or
 * srcfile column (sort-internal.h's sort__lazy_text()). */
static int print_entries(const struct hists *h, const struct hist_builder *b,
			 const uint32_t *sorted, size_t n, const struct sort_widths *w,
			 const uint64_t *totals, bool group, const struct callchain_item *items,
			 const struct hists_print_opts *o, FILE *out)
{
	const struct entries_print ep = { h, b, sorted, w, totals, group, items, o };

	if (o->wq && workqueue__nr_workers(o->wq) && n > PRINT_CHUNK &&
	    !(h->sl->need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE)))
		return print_parallel(&ep, n, out);
	return print_range(&ep, o->chains, 0, n, out);
}

/* Whether call graphs are printed (under h's entries, or the group leader's). */
static bool prints_graphs(const struct hists *h, const struct hists_print_opts *o)
{
	return o->cc && o->cc->mode != CALLCHAIN_NONE && h->has_callchains && o->chains;
}

/* ---- one event ------------------------------------------------------------------------ */

/* The event's header, column headers and entries as perf prints them without
 * --hierarchy; total_nf is the unfiltered entries' period. */
static int print_flat(const struct hists *h, const struct hist_builder *b,
		      const uint32_t *sorted, size_t n, const struct sort_widths *w,
		      uint64_t total_nf, const char *event_name,
		      const struct callchain_item *items, const struct hists_print_opts *o,
		      FILE *out)
{
	/* perf's hists__total_period() */
	uint64_t total = o->filter_relative ? total_nf : h->total_period;

	if (o->quiet)
		;	/* perf: neither header */
	else if (o->filter_relative)
		print_event_header(out, b->nr_non_filtered_samples, total_nf, event_name,
				   o->time_str, o->leads_group, o->mem_sort_order);
	else
		print_event_header(out, h->nr_samples, h->total_period, event_name,
				   o->time_str, o->leads_group, o->mem_sort_order);
	if (!o->quiet)
		sort_list__fprintf_header(h->sl, w, out);
	return print_entries(h, b, sorted, n, w, &total, false, items, o, out);
}

int hists__fprintf(struct hists *h, const struct hists_print_opts *o,
		   const char *event_name, FILE *out)
{
	struct hist_builder b;
	struct sort_widths w;
	struct callchain_item *items = NULL;
	bool graphs = prints_graphs(h, o);
	struct hists_print_opts eo = *o;
	uint32_t *sorted = NULL;
	uint64_t total_nf;
	size_t n = 0;
	int err;

	hist_builder__init(&b, h->sl, o);
	if (!h->has_callchains || !o->chains)
		eo.chains = NULL;
	if (!graphs)
		eo.cc = NULL;
	/* --hierarchy: the collapsed order (which decides ties among siblings) */
	err = hist_builder__order(&b, h, &eo, graphs, &sorted, &n, !o->hierarchy);
	/* without --hierarchy, only for the entries print_range() prints a graph under */
	if (!err && graphs &&
	    !(items = hist_builder__items(&b, h, o->children,
					  o->hierarchy || o->cc->mode == CALLCHAIN_GRAPH_REL
					  ? 0 : graph_min_hit(h, &b, o))))
		err = -ENOMEM;
	if (err)
		goto out;
	/* perf's output_resort(): stats and widths from the unfiltered entries */
	total_nf = entry_widths(&w, h->sl, &b, sorted, n, 0);
	if (o->hierarchy) {	/* report/hierarchy.h */
		struct hierarchy_header hh = {
			.nr_non_filtered_samples = b.nr_non_filtered_samples,
			.h = h, .o = o, .event_name = event_name, .items = items,
		};
		struct hierarchy_print hp = { .total = h->total_period };

		err = print_hierarchy(&hh, &hp, &b, sorted, n, out);
	} else {
		err = print_flat(h, &b, sorted, n, &w, total_nf, event_name, items, o, out);
	}
	if (!err)
		fputs("\n\n", out);
out:
	free(sorted);
	free(items);
	hist_builder__exit(&b);
	return err;
}

/* ---- the group view --------------------------------------------------------------------- */

/* The group view with --hierarchy: the leader's entries (with their pairs) in its
 * collapsed order. */
static int print_group_hierarchy(const struct hists *h, const struct hist_group_view *g,
				 const char *group_name, const struct callchain_item *items,
				 const struct hists_print_opts *o, FILE *out)
{
	struct hierarchy_header hh = {
		.h = h, .o = o, .event_name = group_name, .items = items, .group = true,
		.group_samples = g->nr_samples, .group_count = g->count,
	};
	struct hierarchy_print hp = { .total = g->totals[0],
				      .nr_members = (uint32_t)g->nr,
				      .member_totals = g->totals + 1,
				      .group_sort_idx = o->group_sort_idx };

	return print_hierarchy(&hh, &hp, &g->b[0], g->sorted, g->n, out);
}

/* The group view without --hierarchy: the leader's entries in its output order, one
 * value per event in every value column. */
static int print_group_flat(const struct hists *h, struct hist_group_view *g, bool graphs,
			    const char *group_name, struct callchain_item **items,
			    const struct hists_print_opts *o, FILE *out)
{
	struct hist_builder *lb = &g->b[0];
	struct sort_ctx ctx = {
		.depth_ties = graphs,
		.caller_first = graphs && o->cc->order == CALLCHAIN_CALLER,
		.group_sort_idx = o->group_sort_idx,
	};
	struct sort_widths w;

	hist_builder__output_order(lb, &ctx, &lb->in, g->sorted, g->n, g->stack);
	if (graphs && !(*items = hist_builder__items(lb, h, false, 0)))
		return -ENOMEM;
	entry_widths(&w, h->sl, lb, g->sorted, g->n, g->nr);
	if (!o->quiet) {
		print_event_header(out, g->nr_samples, g->count, group_name, o->time_str, true,
				   o->mem_sort_order);
		sort_list__fprintf_header(h->sl, &w, out);
	}
	return print_entries(h, lb, g->sorted, g->n, &w, g->totals, true, *items, o, out);
}

int hists__fprintf_group(struct hists *const *hs, size_t nr,
			 const struct hists_print_opts *o, const char *group_name, FILE *out)
{
	struct hists *h = hs[0];
	bool graphs = prints_graphs(h, o);
	struct callchain_item *items = NULL;
	struct hist_group_view g;
	int err = hist_group_view__make(&g, hs, nr, o, graphs);

	if (err)
		goto out;
	if (o->hierarchy) {	/* report/hierarchy.h: from the collapsed order */
		if (graphs && !(items = hist_builder__items(&g.b[0], h, false, 0)))
			err = -ENOMEM;
		else
			err = print_group_hierarchy(h, &g, group_name, items, o, out);
	} else {
		err = print_group_flat(h, &g, graphs, group_name, &items, o, out);
	}
	if (!err)
		fputs("\n\n", out);
out:
	hist_group_view__exit(&g);
	free(items);
	return err;
}
