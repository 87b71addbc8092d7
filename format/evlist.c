#include "format/evlist.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, realloc */
#include <string.h>	/* strdup */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/record.h"
#include "format/sample.h"
#include "util/hashtab.h"
#include "banned.h"

void evlist__init(struct evlist *el)
{
	memset(el, 0, sizeof(*el));
}

void evlist__exit(struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++) {
		free(el->evsels[i]->ids);
		free(el->evsels[i]->name);
		free(el->evsels[i]);
	}
	free(el->evsels);
	free(el->hash);
	memset(el, 0, sizeof(*el));
}

static uint64_t id_hash(uint64_t id)
{
	id ^= id >> 33;
	id *= 0xff51afd7ed558ccdULL;
	id ^= id >> 33;
	return id;
}

static uint64_t slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return id_hash(((const struct evlist_id *)slot)->id);
}

/* Slot of id, or of the empty slot where it would go. */
static size_t hash_find(const struct evlist *el, uint64_t id)
{
	size_t i = hashtab__first(id_hash(id), el->hash_cap);

	while (el->hash[i].id && el->hash[i].id != id)
		i = hashtab__next(i, el->hash_cap);
	return i;
}

int evsel__add_ids(struct evlist *el, struct evsel *ev, const uint64_t *ids, size_t nr)
{
	uint64_t *n;
	int err;

	if (!nr)
		return 0;
	n = realloc(ev->ids, (ev->nr_ids + nr) * sizeof(*n));
	if (!n)
		return -ENOMEM;
	ev->ids = n;
	for (size_t i = 0; i < nr; i++) {
		size_t s;

		if (!ids[i])
			continue;
		if ((err = hashtab__reserve(&el->hash, &el->hash_cap, el->nr_ids,
					    sizeof(*el->hash), 64, slot_hash, NULL)))
			return err;
		s = hash_find(el, ids[i]);
		if (el->hash[s].id) {
			if (el->hash[s].evsel != ev)
				return -DIAG_BAD_ATTR;
			continue;	/* repeated id of the same event: harmless */
		}
		el->hash[s] = (struct evlist_id){ ids[i], ev };
		el->nr_ids++;
		ev->ids[ev->nr_ids++] = ids[i];
	}
	return 0;
}

int evlist__add(struct evlist *el, const struct event_attr *attr, const uint64_t *ids,
		size_t nr_ids, struct evsel **out)
{
	struct evsel **arr, *ev;
	int err;

	arr = realloc(el->evsels, (el->nr + 1) * sizeof(*arr));
	if (!arr)
		return -ENOMEM;
	el->evsels = arr;
	ev = calloc(1, sizeof(*ev));
	if (!ev)
		return -ENOMEM;
	ev->attr = *attr;
	ev->idx = el->nr;
	ev->id_hdr_size = attr__id_hdr_size(attr);
	el->evsels[el->nr++] = ev;
	err = evsel__add_ids(el, ev, ids, nr_ids);
	if (out)
		*out = ev;
	return err;
}

struct evsel *evlist__find_id(const struct evlist *el, uint64_t id)
{
	size_t s;

	if (!el->hash_cap || !id)
		return NULL;
	s = hash_find(el, id);
	return el->hash[s].id ? el->hash[s].evsel : NULL;
}

int evlist__check(const struct evlist *el, struct diag *d)
{
	const struct evsel *first = evlist__first(el);

	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];

		if ((ev->attr.sample_type & SAMPLE_READ) && !(ev->attr.read_format & FORMAT_ID))
			return diag__set(d, NULL, DIAG_NO_OFFSET, -DIAG_MISMATCH,
					 "event %zu samples READ without read_format ID", i);
		if (i == 0)
			continue;
		if (attr__id_pos(&ev->attr) != attr__id_pos(&first->attr) ||
		    attr__is_pos(&ev->attr) != attr__is_pos(&first->attr))
			return diag__set(d, NULL, DIAG_NO_OFFSET, -DIAG_MISMATCH,
					 "event %zu has a non-matching sample_type", i);
		if (attr__flag(&ev->attr, ATTR_SAMPLE_ID_ALL) !=
		    attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL))
			return diag__set(d, NULL, DIAG_NO_OFFSET, -DIAG_MISMATCH,
					 "event %zu has a non-matching sample_id_all", i);
	}
	return 0;
}

int evlist__evsel_of(const struct evlist *el, const void *rec, size_t size,
		     struct evsel **out)
{
	const unsigned char *b = rec;
	struct evsel *first = evlist__first(el);
	uint32_t type;
	uint64_t id;
	int pos;

	if (!first)
		return -ENOENT;
	if (el->nr == 1) {
		*out = first;
		return 0;
	}
	type = bytes__u32(b);
	if (type == REC_SAMPLE) {
		pos = attr__id_pos(&first->attr);
		if (pos < 0) {
			*out = first;
			return 0;
		}
		if (size < RECORD_HEADER_SIZE + 8 * (size_t)(pos + 1))
			return -DIAG_BAD_RECORD;
		id = bytes__u64(b + RECORD_HEADER_SIZE + 8 * (size_t)pos);
	} else {
		pos = attr__is_pos(&first->attr);
		if (pos < 0 || !attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL)) {
			*out = first;
			return 0;
		}
		if (size < RECORD_HEADER_SIZE + 8 * (size_t)pos)
			return -DIAG_BAD_RECORD;
		id = bytes__u64(b + size - 8 * (size_t)pos);
	}
	if (!id) {	/* synthesized by perf */
		*out = first;
		return 0;
	}
	*out = evlist__find_id(el, id);
	return *out ? 0 : -DIAG_UNKNOWN_ID;
}

uint64_t evlist__record_time(const struct evlist *el, const struct evsel *ev,
			     const void *rec, size_t size)
{
	const struct event_attr *a = &ev->attr;
	uint64_t t = a->sample_type;
	const unsigned char *b = rec;
	size_t pos;

	(void)el;
	if (!(t & SAMPLE_TIME))
		return 0;
	if (bytes__u32(b) == REC_SAMPLE) {
		pos = RECORD_HEADER_SIZE + 8 * (!!(t & SAMPLE_IDENTIFIER) + !!(t & SAMPLE_IP) +
						!!(t & SAMPLE_TID));
		return pos + 8 <= size ? bytes__u64(b + pos) : 0;
	}
	if (!attr__flag(a, ATTR_SAMPLE_ID_ALL) || size < RECORD_HEADER_SIZE + ev->id_hdr_size)
		return 0;
	/* TIME sits before ID, STREAM_ID, CPU and IDENTIFIER in the trailer. */
	pos = size - 8 * (1 + !!(t & SAMPLE_ID) + !!(t & SAMPLE_STREAM_ID) +
			  !!(t & SAMPLE_CPU) + !!(t & SAMPLE_IDENTIFIER));
	return bytes__u64(b + pos);
}

bool evlist__any_sample_type(const struct evlist *el, uint64_t bits)
{
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i]->attr.sample_type & bits)
			return true;
	return false;
}

bool evlist__excludes_kernel(const struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (!attr__flag(&el->evsels[i]->attr, ATTR_EXCLUDE_KERNEL))
			return false;
	return el->nr > 0;
}

int evsel__set_name(struct evsel *ev, const char *name)
{
	char *n = strdup(name);

	if (!n)
		return -ENOMEM;
	free(ev->name);
	ev->name = n;
	return 0;
}

static const char *const hw_names[] = {
	"cycles", "instructions", "cache-references", "cache-misses",
	"branches", "branch-misses", "bus-cycles", "stalled-cycles-frontend",
	"stalled-cycles-backend", "ref-cycles",
};

/* perf 6.1 names software events 0..9 so; bpf-output (10) and cgroup-switches (11)
 * it names "unknown-software" (observed), as every larger config. */
static const char *const sw_names[] = {
	"cpu-clock", "task-clock", "page-faults", "context-switches",
	"cpu-migrations", "minor-faults", "major-faults", "alignment-faults",
	"emulation-faults", "dummy",
};

/* perf's modifiers of a default name (docs/perf-data-format.md §1.3 flags, and perf's
 * output for each combination): the privilege levels counted when some are excluded
 * (k, u, h), `p` per precise_ip level, then H and G for the host and guest counted
 * when the host is excluded or exclude_guest equals what perf's default is (set
 * when privilege levels or precise_ip are given, else clear). */
static size_t modifiers(const struct event_attr *a, char *buf)
{
	bool k = !attr__flag(a, ATTR_EXCLUDE_KERNEL), u = !attr__flag(a, ATTR_EXCLUDE_USER);
	bool hv = !attr__flag(a, ATTR_EXCLUDE_HV), guest_default = false;
	unsigned precise = (unsigned)(a->flags >> ATTR_PRECISE_IP) & 3;
	size_t n = 1;

	buf[0] = ':';
	if (!k || !u || !hv) {
		if (k)
			buf[n++] = 'k';
		if (u)
			buf[n++] = 'u';
		if (hv)
			buf[n++] = 'h';
		guest_default = true;
	}
	for (unsigned i = 0; i < precise; i++)
		buf[n++] = 'p';
	if (precise)
		guest_default = true;
	if (attr__flag(a, ATTR_EXCLUDE_HOST) ||
	    attr__flag(a, ATTR_EXCLUDE_GUEST) == guest_default) {
		if (!attr__flag(a, ATTR_EXCLUDE_HOST))
			buf[n++] = 'H';
		if (!attr__flag(a, ATTR_EXCLUDE_GUEST))
			buf[n++] = 'G';
	}
	buf[n > 1 ? n : 0] = '\0';
	return n > 1 ? n : 0;
}

/* perf's generic cache event names: type, op (its name alone and as a count) and
 * which ops each type has. */
static const char *const cache_types[] = {
	"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node",
};
static const char *const cache_ops[][2] = {
	{ "load", "loads" }, { "store", "stores" }, { "prefetch", "prefetches" },
};
static const unsigned char cache_valid_ops[] = {	/* bit op: the type has it */
	7, 5, 7, 7, 1, 1, 7,
};

/* perf's name of a PERF_TYPE_HW_CACHE config: cache type | op << 8 | result << 16
 * (result 0 counts accesses, 1 misses; the bits above are ignored). */
static void cache_name(uint64_t config, char *buf, size_t n)
{
	unsigned type = config & 0xff, op = (config >> 8) & 0xff, res = (config >> 16) & 0xff;

	if (type >= sizeof(cache_types) / sizeof(cache_types[0]))
		snprintf(buf, n, "unknown-ext-hardware-cache-type");
	else if (op >= sizeof(cache_ops) / sizeof(cache_ops[0]))
		snprintf(buf, n, "unknown-ext-hardware-cache-op");
	else if (res >= 2)
		snprintf(buf, n, "unknown-ext-hardware-cache-result");
	else if (!(cache_valid_ops[type] & (1u << op)))
		snprintf(buf, n, "invalid-cache");
	else if (res)
		snprintf(buf, n, "%s-%s-misses", cache_types[type], cache_ops[op][0]);
	else
		snprintf(buf, n, "%s-%s", cache_types[type], cache_ops[op][1]);
}

/* perf's default name of an attr (without modifiers); false: none (tracepoints,
 * named from their format). */
static bool default_name(const struct event_attr *a, char *buf, size_t n, bool *mods)
{
	*mods = true;
	switch (a->type) {
	case ATTR_TYPE_HARDWARE:
		snprintf(buf, n, "%s", a->config < sizeof(hw_names) / sizeof(hw_names[0]) ?
			 hw_names[a->config] : "unknown-hardware");
		return true;
	case ATTR_TYPE_SOFTWARE:
		snprintf(buf, n, "%s", a->config < sizeof(sw_names) / sizeof(sw_names[0]) ?
			 sw_names[a->config] : "unknown-software");
		return true;
	case ATTR_TYPE_TRACEPOINT:
		return false;
	case ATTR_TYPE_HW_CACHE:
		cache_name(a->config, buf, n);
		return true;
	case ATTR_TYPE_RAW:
		snprintf(buf, n, "raw 0x%" PRIx64, a->config);
		return true;
	case ATTR_TYPE_BREAKPOINT:	/* bp_type: 1 read, 2 write, 4 execute */
		snprintf(buf, n, "mem:0x%" PRIx64 ":%s%s%s", a->config1,
			 a->bp_type & 1 ? "r" : "", a->bp_type & 2 ? "w" : "",
			 a->bp_type & 4 ? "x" : "");
		return true;
	default:
		snprintf(buf, n, "unknown attr type: %" PRIu32, a->type);
		*mods = false;
		return true;
	}
}

int evlist__name_defaults(struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++) {
		struct evsel *ev = el->evsels[i];
		char name[96];
		bool mods;

		if (ev->name || !default_name(&ev->attr, name, sizeof(name) - 16, &mods))
			continue;
		if (mods)
			modifiers(&ev->attr, name + strlen(name));
		if (evsel__set_name(ev, name))
			return -ENOMEM;
	}
	return 0;
}

const char *evsel__name(const struct evsel *ev)
{
	const struct event_attr *a = &ev->attr;

	if (ev->name)
		return ev->name;
	if (a->type == ATTR_TYPE_HARDWARE && a->config < sizeof(hw_names) / sizeof(hw_names[0]))
		return hw_names[a->config];
	if (a->type == ATTR_TYPE_SOFTWARE && a->config < sizeof(sw_names) / sizeof(sw_names[0]))
		return sw_names[a->config];
	return "unknown";
}
