/*
 * dump-stats - the counts -D prints at its end ("Aggregated stats:" and the per-event
 * blocks), as perf 6.1's report does.  See dump.h.
 */
#include "report/dump.h"
#include "report/dump-internal.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* memcpy, memset, memchr */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"

#include "banned.h"

/* --- statistics ---------------------------------------------------------------- */

void dump_stats__init(struct dump_stats *st)
{
	memset(st, 0, sizeof(*st));
}

void dump_stats__exit(struct dump_stats *st)
{
	free(st->nr_samples);
	free(st->nr_lost_samples);
	memset(st, 0, sizeof(*st));
}

static int stats_reserve(struct dump_stats *st, size_t nr)
{
	uint32_t *a, *b;
	size_t cap;

	if (nr <= st->nr_evsels)
		return 0;
	cap = nr < 8 ? 8 : nr;
	if (cap < st->nr_evsels * 2)
		cap = st->nr_evsels * 2;
	a = realloc(st->nr_samples, cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	st->nr_samples = a;
	b = realloc(st->nr_lost_samples, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	st->nr_lost_samples = b;
	memset(a + st->nr_evsels, 0, (cap - st->nr_evsels) * sizeof(*a));
	memset(b + st->nr_evsels, 0, (cap - st->nr_evsels) * sizeof(*b));
	st->nr_evsels = cap;
	return 0;
}

int dump_stats__count_sample(struct dump_stats *st, size_t evsel_idx)
{
	return dump_stats__count_samples(st, evsel_idx, 1);
}

int dump_stats__count_samples(struct dump_stats *st, size_t evsel_idx, uint64_t n)
{
	if (evsel_idx == SIZE_MAX || stats_reserve(st, evsel_idx + 1))
		return -ENOMEM;
	st->nr_samples[evsel_idx] += (uint32_t)n;	/* perf's counter is a u32 too */
	return 0;
}

int dump_stats__count_lost_samples(struct dump_stats *st, size_t evsel_idx)
{
	if (evsel_idx == SIZE_MAX || stats_reserve(st, evsel_idx + 1))
		return -ENOMEM;
	st->nr_lost_samples[evsel_idx]++;
	return 0;
}

int dump_stats__merge(struct dump_stats *dst, const struct dump_stats *src)
{
	for (size_t i = 0; i < DUMP_STATS_NR_TYPES; i++)
		dst->nr_events[i] += src->nr_events[i];
	if (stats_reserve(dst, src->nr_evsels))
		return -ENOMEM;
	for (size_t i = 0; i < src->nr_evsels; i++) {
		dst->nr_samples[i] += src->nr_samples[i];
		dst->nr_lost_samples[i] += src->nr_lost_samples[i];
	}
	return 0;
}

/* "%16s events: %10d" */
static void stat_line(struct strbuf *sb, const char *name, uint32_t n)
{
	size_t len = strlen(name);

	if (len < 16)
		strbuf__addchars(sb, ' ', 16 - len);
	strbuf__add(sb, name, len);
	strbuf__addstr(sb, " events: ");
	strbuf__add_s64_width(sb, (int32_t)n, 10);
}

void dump_stats__print(struct strbuf *out, const struct dump_stats *st,
		       const struct evlist *el, bool has_auxtrace)
{
	dump_stats__print_opt(out, st, el, has_auxtrace, true);
}

/* --no-skip-empty: the types perf 6.1 knows get a line even when zero. */
static bool known_to_perf61(uint32_t type)
{
	return type <= REC_FINISHED_INIT && type != REC_CALLCHAIN_DEFERRED &&
	       strcmp(dump__type_name(type), "UNKNOWN");
}

void dump_stats__print_opt(struct strbuf *out, const struct dump_stats *st,
			   const struct evlist *el, bool has_auxtrace, bool skip_empty)
{
	uint32_t total = st->nr_events[0];

	strbuf__addstr(out, "\nAggregated stats:");
	if (has_auxtrace)
		strbuf__addstr(out, " (excludes AUX area (e.g. instruction trace) decoded / "
				    "synthesized events)");
	strbuf__addch(out, '\n');
	for (uint32_t i = 0; i < DUMP_STATS_NR_TYPES; i++) {
		const char *name = dump__type_name(i);

		if (!strcmp(name, "UNKNOWN") ||
		    (!st->nr_events[i] && (skip_empty || !known_to_perf61(i))))
			continue;
		stat_line(out, name, st->nr_events[i]);
		if (i && total)
			strbuf__addf(out, "  (%4.1f%%)", 100.0 * st->nr_events[i] / total);
		strbuf__addch(out, '\n');
	}
	if (!el)
		return;
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];
		uint32_t ns = i < st->nr_evsels ? st->nr_samples[i] : 0;
		uint32_t nl = i < st->nr_evsels ? st->nr_lost_samples[i] : 0;

		if (!ns && !nl && skip_empty)
			continue;
		strbuf__addstr(out, evsel__name(ev));
		strbuf__addstr(out, " stats:\n");
		if (ns) {
			stat_line(out, "SAMPLE", ns);
			strbuf__addch(out, '\n');
		}
		if (nl) {
			stat_line(out, "LOST_SAMPLES", nl);
			strbuf__addch(out, '\n');
		}
	}
}

