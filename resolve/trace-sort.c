#include "resolve/trace-sort.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, realloc */
#include <string.h>	/* memcmp, memcpy, strlen */

#include "format/attr.h"	/* ATTR_TYPE_TRACEPOINT */
#include "format/bytes.h"
#include "format/diag.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/record.h"	/* REC_HEADER_TRACING_DATA, MISC_KERNEL */
#include "format/record-ref.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/symbol.h"
#include "machine/trace-event.h"
#include "util/strtab.h"
#include "banned.h"

struct trace_sort {
	struct trace_event *te;		/* owned; NULL until loaded */
	bool loaded;			/* a TRACING_DATA was seen (te may be NULL:
					 * an empty one) */
	struct machine *machine;	/* borrowed: the resolver's */
	bool raw;			/* --raw-trace */
	const char *path;		/* borrowed */
	struct strtab texts;		/* the texts handed out, interned */
	/* the format of each evsel index, looked up once */
	const struct trace_event_format **formats;
	size_t nr_formats;
};

bool trace_sort__has_tracepoints(const struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i]->attr.type == ATTR_TYPE_TRACEPOINT)
			return true;
	return false;
}

bool trace_sort__default_is_trace(const struct evlist *el, bool pipe)
{
	if (pipe || !el->nr)
		return false;
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i]->attr.type != ATTR_TYPE_TRACEPOINT)
			return false;
	return true;
}

/* perf's machine__resolve_kernel_addr(): the kernel symbol of addr. */
static const char *resolve_kernel(void *ctx, uint64_t addr, uint64_t *start)
{
	struct machine *m = ctx;
	struct addr_location al;

	machine__resolve_map(m, NULL, MISC_KERNEL, addr, &al);
	if (!al.dso)
		return NULL;
	if (!al.dso->loaded)
		(void)dso__load(al.dso);	/* failures leave it without symbols */
	addr_location__resolve_sym(&al);
	if (!al.sym)
		return NULL;
	*start = al.sym_unmapped_start;
	return symbol__name(al.sym);
}

int trace_sort__new(struct trace_sort **out, struct machine *m, bool raw, const char *path)
{
	struct trace_sort *ts = calloc(1, sizeof(*ts));

	*out = NULL;
	if (!ts)
		return -ENOMEM;
	ts->machine = m;
	ts->raw = raw;
	ts->path = path;
	*out = ts;
	return 0;
}

void trace_sort__delete(struct trace_sort *ts)
{
	if (!ts)
		return;
	trace_event__delete(ts->te);
	strtab__exit(&ts->texts);
	free(ts->formats);
	free(ts);
}

int trace_sort__load(struct trace_sort *ts, const void *data, size_t size,
		     uint64_t file_offset, struct diag *d)
{
	int err;

	if (ts->loaded)
		return 0;
	ts->loaded = true;
	if (!size)
		return 0;
	err = trace_event__new(&ts->te, data, size, file_offset, ts->path, d);
	if (!err && ts->machine)
		err = trace_event__set_resolver(ts->te, resolve_kernel, ts->machine);
	return err;
}

int trace_sort__load_record(struct trace_sort *ts, const struct record_ref *ref,
			    uint64_t offset, struct diag *d)
{
	struct event_tracing_data td;
	uint32_t n;

	if (ref->type != REC_HEADER_TRACING_DATA || ts->loaded)
		return 0;
	if (event_tracing_data__decode(ref->data, ref->size, &td))
		return diag__set(d, ts->path, offset, -DIAG_PIPE,
				 "TRACING_DATA record too short");
	n = td.size;
	if (ref->disk_size < ref->size || n > ref->disk_size - ref->size)
		return diag__set(d, ts->path, offset, -DIAG_PIPE,
				 "TRACING_DATA payload of %u bytes runs past the record", n);
	return trace_sort__load(ts, ref->data + ref->size, n, offset + ref->size, d);
}

int trace_sort__check(const struct trace_sort *ts, const struct evlist *el,
		      struct diag *d)
{
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];

		if (ev->attr.type != ATTR_TYPE_TRACEPOINT)
			continue;
		if (!ts->te || !trace_event__find(ts->te, ev->attr.config))
			return diag__set(d, ts->path, DIAG_NO_OFFSET, -DIAG_BAD_FEATURE,
					 "incompatible file format: the tracing data has no "
					 "format for tracepoint id %llu",
					 (unsigned long long)ev->attr.config);
	}
	return 0;
}

/* The interned copy of s (s is malloc'd: taken over, or freed when a copy exists);
 * NULL on ENOMEM (s freed). */
static const char *intern(struct trace_sort *ts, char *s)
{
	return strtab__intern_owned(&ts->texts, s);
}

/* The format of ev's tracepoint into *fmt (NULL: none); 0 or -ENOMEM. */
static int format_of(struct trace_sort *ts, const struct evsel *ev,
		     const struct trace_event_format **fmt)
{
	*fmt = NULL;
	if (ev->idx >= ts->nr_formats) {
		size_t n = ev->idx + 16;
		const struct trace_event_format **v = realloc(ts->formats, n * sizeof(*v));

		if (!v)
			return -ENOMEM;
		for (size_t i = ts->nr_formats; i < n; i++)
			v[i] = NULL;
		ts->formats = v;
		ts->nr_formats = n;
	}
	if (!ts->formats[ev->idx] && ts->te)
		ts->formats[ev->idx] = trace_event__find(ts->te, ev->attr.config);
	*fmt = ts->formats[ev->idx];
	return 0;
}

int trace_sort__text(struct trace_sort *ts, const struct evsel *ev, const void *raw,
		     size_t raw_size, const char *path, uint64_t offset, const char **text,
		     struct diag *d)
{
	const struct trace_event_format *fmt;
	char *s = NULL;
	int err;

	*text = NULL;
	if (ev->attr.type != ATTR_TYPE_TRACEPOINT)
		return 0;
	if (format_of(ts, ev, &fmt))
		return -ENOMEM;
	if (!fmt)
		return diag__set(d, path, offset, -DIAG_BAD_SAMPLE,
				 "tracepoint sample of an event without format (tracepoint "
				 "id %llu): no TRACING_DATA before it",
				 (unsigned long long)ev->attr.config);
	err = trace_event__format(ts->te, fmt, raw, raw_size, ts->raw ? TRACE_EVENT_RAW : 0,
				  &s);
	if (err == -EINVAL)
		return diag__set(d, path, offset, -DIAG_BAD_SAMPLE,
				 "tracepoint sample: raw data of %zu bytes (more than a "
				 "record holds)", raw_size);
	if (err == -DIAG_BAD_SAMPLE)
		return diag__set(d, path, offset, -DIAG_BAD_SAMPLE,
				 "tracepoint sample: the print fmt of its event (%s:%s) "
				 "cannot be printed safely", trace_event__system(fmt),
				 trace_event__name(fmt));
	if (err)
		return err;
	*text = intern(ts, s);
	return *text ? 0 : -ENOMEM;
}

int trace_sort__open(struct trace_sort **out, const struct evlist *el,
		     const struct features *f, bool pipe, struct machine *m, bool raw,
		     const char *path, struct diag *d)
{
	const struct feat_raw *td = &f->tracing_data;
	struct trace_sort *ts;
	int err;

	*out = NULL;
	if (!pipe && !trace_sort__has_tracepoints(el))
		return 0;
	err = trace_sort__new(&ts, m, raw, path);
	if (err || pipe) {
		*out = ts;
		return err;
	}
	err = trace_sort__load(ts, td->data, td->size, td->file_offset, d);
	if (!err)
		err = trace_sort__check(ts, el, d);
	if (err) {
		trace_sort__delete(ts);
		return err;
	}
	*out = ts;
	return 0;
}
