#include "report/hist.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, qsort */
#include <string.h>	/* memset, strcmp, strlen */

#include "report/dso.h"
#include "banned.h"

/* perf pads unresolved addresses to the width of a long in hex. */
#define ADDR_HEX_WIDTH 16

void hists__init(struct hists *h)
{
	memset(h, 0, sizeof(*h));
}

void hists__exit(struct hists *h)
{
	free(h->v);
	memset(h, 0, sizeof(*h));
}

static uint64_t key_hash(const struct hist_entry *k)
{
	uint64_t x = (uint64_t)(uintptr_t)k->comm * 0x9E3779B97F4A7C15ULL;

	x ^= (uint64_t)(uintptr_t)k->dso * 0xC2B2AE3D27D4EB4FULL;
	x ^= k->sym ? (uint64_t)(uintptr_t)k->sym * 0x165667B19E3779F9ULL
		    : (k->addr + 1) * 0x27D4EB2F165667C5ULL;
	return x ^ (x >> 29);
}

static bool key_eq(const struct hist_entry *a, const struct hist_entry *b)
{
	return a->comm == b->comm && a->dso == b->dso && a->sym == b->sym &&
	       (a->sym || a->addr == b->addr);
}

static int grow(struct hists *h)
{
	size_t cap = h->cap ? h->cap * 2 : 1024;
	struct hist_entry *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		size_t j;

		if (!h->v[i].nr_samples)
			continue;
		j = key_hash(&h->v[i]) & (cap - 1);
		while (v[j].nr_samples)
			j = (j + 1) & (cap - 1);
		v[j] = h->v[i];
	}
	free(h->v);
	h->v = v;
	h->cap = cap;
	return 0;
}

int hists__add(struct hists *h, const struct hist_entry *key, uint64_t period)
{
	size_t i;

	if ((h->nr + 1) * 2 > h->cap && grow(h))
		return -ENOMEM;
	h->total_period += period;
	h->nr_samples++;
	i = key_hash(key) & (h->cap - 1);
	while (h->v[i].nr_samples) {
		if (key_eq(&h->v[i], key)) {
			h->v[i].period += period;
			h->v[i].nr_samples++;
			return 0;
		}
		i = (i + 1) & (h->cap - 1);
	}
	h->v[i] = *key;
	h->v[i].period = period;
	h->v[i].nr_samples = 1;
	h->nr++;
	return 0;
}

static const char *dso_name(const struct hist_entry *e)
{
	return e->dso ? dso__short_name(e->dso) : "[unknown]";
}

/* perf's output order (hist_entry__sort with the overhead, comm, dso, sym fields). */
static int entry_cmp(const void *pa, const void *pb)
{
	const struct hist_entry *a = *(const struct hist_entry *const *)pa;
	const struct hist_entry *b = *(const struct hist_entry *const *)pb;
	int c;

	if (a->period != b->period)
		return a->period > b->period ? -1 : 1;
	if (a->comm != b->comm && (c = strcmp(a->comm, b->comm)))
		return c;
	if (a->dso != b->dso) {
		if (!a->dso || !b->dso)
			return a->dso ? 1 : -1;
		if ((c = strcmp(dso_name(a), dso_name(b))))
			return c;
	}
	if (!a->sym || !b->sym) {
		if (a->sym || b->sym)
			return a->sym ? -1 : 1;
		return a->addr < b->addr ? -1 : a->addr > b->addr;
	}
	if ((c = strcmp(symbol__name(a->sym), symbol__name(b->sym))))
		return c;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* The Symbol column text without its "[k] " prefix. */
static size_t sym_text(const struct hist_entry *e, char *buf, size_t len)
{
	if (e->sym)
		return symbol__format(buf, len, e->sym, e->addr, e->sym_unmapped_start);
	return symbol__format_addr(buf, len, e->addr);
}

static size_t sym_width(const struct hist_entry *e)
{
	char buf[1];

	return 4 + sym_text(e, buf, sizeof(buf));
}

static void print_padded(FILE *out, const char *s, size_t width)
{
	size_t n = strlen(s);

	fputs(s, out);
	for (; n < width; n++)
		fputc(' ', out);
}

static void print_dots(FILE *out, size_t n)
{
	while (n--)
		fputc('.', out);
}

int hists__fprintf(struct hists *h, const char *event_name, FILE *out)
{
	struct hist_entry **sorted = malloc((h->nr ? h->nr : 1) * sizeof(*sorted));
	size_t n = 0, w_comm = 7, w_dso = 13, w_sym = 6;
	unsigned long nr = (unsigned long)h->nr_samples;
	char unit = ' ', text[1024];

	if (!sorted)
		return -ENOMEM;
	for (size_t i = 0; i < h->cap; i++) {
		struct hist_entry *e = &h->v[i];
		size_t l;

		if (!e->nr_samples)
			continue;
		sorted[n++] = e;
		if ((l = strlen(e->comm)) > w_comm)
			w_comm = l;
		if ((l = strlen(dso_name(e))) > w_dso)
			w_dso = l;
		if (!e->sym && w_dso < ADDR_HEX_WIDTH)
			w_dso = ADDR_HEX_WIDTH;
		if ((l = sym_width(e)) > w_sym)
			w_sym = l;
	}
	qsort(sorted, n, sizeof(*sorted), entry_cmp);

	/* perf's convert_unit(): K, M, G above 1000 */
	for (const char *u = "KMG"; *u && nr > 1000; u++) {
		nr /= 1000;
		unit = *u;
	}
	fprintf(out, "# Samples: %lu%c of event '%s'\n", nr, unit, event_name);
	fprintf(out, "# Event count (approx.): %llu\n#\n",
		(unsigned long long)h->total_period);
	fputs("# Overhead  ", out);
	print_padded(out, "Command", w_comm);
	fputs("  ", out);
	print_padded(out, "Shared Object", w_dso);
	fputs("  ", out);
	print_padded(out, "Symbol", w_sym);
	fputs("\n# ........  ", out);
	print_dots(out, w_comm);
	fputs("  ", out);
	print_dots(out, w_dso);
	fputs("  ", out);
	print_dots(out, w_sym);
	fputs("\n#\n", out);
	for (size_t i = 0; i < n; i++) {
		const struct hist_entry *e = sorted[i];
		double pct = h->total_period ? 100.0 * (double)e->period /
						       (double)h->total_period : 0.0;

		fprintf(out, "  %7.2f%%  ", pct);
		print_padded(out, e->comm, w_comm);
		fputs("  ", out);
		print_padded(out, dso_name(e), w_dso);
		fprintf(out, "  [%c] ", e->level);
		if (sym_text(e, text, sizeof(text)) < sizeof(text)) {
			fputs(text, out);
		} else {	/* a name longer than the stack buffer */
			char *big = malloc(sym_text(e, text, 1) + 1);

			if (!big) {
				free(sorted);
				return -ENOMEM;
			}
			sym_text(e, big, sym_text(e, text, 1) + 1);
			fputs(big, out);
			free(big);
		}
		fputc('\n', out);
	}
	fputs("\n\n", out);
	free(sorted);
	return 0;
}
