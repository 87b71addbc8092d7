#ifndef DIRREPORT_FORMAT_EVLIST_H
#define DIRREPORT_FORMAT_EVLIST_H
/*
 * evlist - the recording's events (evsels): each attr, its ids and its name, and the
 * lookup from a record to the evsel it belongs to.
 *
 * Format: attrs table (docs/perf-data-format.md §1.2) or HEADER_ATTR records (pipe, 4.4); names from
 * feature EVENT_DESC or EVENT_UPDATE/NAME records; id_pos/is_pos rules of 5.3.
 *
 * Thread safety: built by one thread; afterwards immutable and readable from any thread
 * (model (a) of the style guide). evlist__add() must not run concurrently with lookups.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/attr.h"

struct diag;

struct evsel {
	struct event_attr attr;
	uint64_t *ids;		/* owned, nr_ids entries */
	size_t nr_ids;
	char *name;		/* owned; NULL until named (see evsel__name) */
	size_t idx;		/* position in the evlist (attrs table order) */
	size_t id_hdr_size;	/* bytes of the sample_id trailer of non-sample records */
};

struct evlist {
	struct evsel **evsels;	/* owned array of owned evsels (pointers stay valid) */
	size_t nr;
	/* id -> evsel, util/hashtab.h; owned.  id 0 (an empty slot) is "synthesized"
	 * in perf.data and never stored. */
	struct evlist_id { uint64_t id; struct evsel *evsel; } *hash;
	size_t hash_cap;	/* power of two, or 0 */
	size_t nr_ids;
};

/** Initialise an empty evlist. */
void evlist__init(struct evlist *el);
/** Free everything; safe on a zeroed or already-exited evlist. */
void evlist__exit(struct evlist *el);

/**
 * @brief Append an event.
 * @param attr   decoded attr (copied)
 * @param ids    nr_ids event ids (copied); may be NULL when nr_ids is 0
 * @param out    optional: the new evsel (borrowed, valid until evlist__exit)
 * @return 0; -ENOMEM; -DIAG_BAD_ATTR when an id is already used by another evsel.
 */
int evlist__add(struct evlist *el, const struct event_attr *attr, const uint64_t *ids,
		size_t nr_ids, struct evsel **out);

/**
 * @brief Add more ids to an existing evsel (pipe HEADER_ATTR may repeat, ID_INDEX).
 * @return 0, -ENOMEM, or -DIAG_BAD_ATTR if an id belongs to another evsel.
 */
int evsel__add_ids(struct evlist *el, struct evsel *ev, const uint64_t *ids, size_t nr);

/** @brief Evsel owning id, or NULL. O(1). */
struct evsel *evlist__find_id(const struct evlist *el, uint64_t id);

/** The first evsel (perf takes id_pos/is_pos and sample_id_all from it), or NULL. */
static inline struct evsel *evlist__first(const struct evlist *el)
{
	return el->nr ? el->evsels[0] : NULL;
}

/**
 * @brief Check that all evsels share id_pos, is_pos and sample_id_all (perf refuses
 *        files where they differ) and that SAMPLE_READ comes with FORMAT_ID.
 * @return 0 or -DIAG_MISMATCH (message in d, path/offset left to the caller: offset is
 *         set to DIAG_NO_OFFSET).
 */
int evlist__check(const struct evlist *el, struct diag *d);

/**
 * @brief The evsel a record (host order) belongs to, per docs/perf-data-format.md §5.3.
 * @param rec, size  whole record and its size in bytes
 * @param out        the evsel (borrowed)
 * @return 0; -DIAG_UNKNOWN_ID when the id is found but matches no evsel;
 *         -DIAG_BAD_RECORD when the record is too short to hold the id; -ENOENT when the
 *         evlist is empty.
 */
int evlist__evsel_of(const struct evlist *el, const void *rec, size_t size,
		     struct evsel **out);

/**
 * @brief Timestamp of a kernel record (SAMPLE body or sample_id trailer), nanoseconds.
 * @return 0 when the record has no usable time (perf then delivers it immediately),
 *         else the time. Never fails: malformed records return 0 here and are reported
 *         when parsed.
 */
uint64_t evlist__record_time(const struct evlist *el, const struct evsel *ev,
			     const void *rec, size_t size);

/** True when any evsel samples SAMPLE_CPU / SAMPLE_TIME (for -D line prefixes). */
bool evlist__any_sample_type(const struct evlist *el, uint64_t bits);

/**
 * @brief True when the recording's events can sample no kernel address: there is an
 *        evsel, and every one excludes the kernel (attr.exclude_kernel: perf record
 *        -e EVENT:u, --all-user, or what perf picks where perf_event_paranoid keeps
 *        a user from the kernel; samples, callchains and branch stacks then stay in
 *        user space).  Front ends skip reading the kernel's symbols ahead for such a
 *        recording (a kernel address that comes all the same loads them then).
 * Format: perf_event_attr.exclude_kernel (bit 5 of the flags).
 */
bool evlist__excludes_kernel(const struct evlist *el);

/**
 * @brief Name every evsel the recording did not name (no EVENT_DESC entry, no
 *        EVENT_UPDATE: old files, pipes of perf before 5.x) as perf 6.1 names it:
 *        hardware, software and cache events by their generic names, raw events
 *        `raw 0xCONFIG`, breakpoints `mem:0xADDR:rwx`, each with perf's modifiers from
 *        the attr flags (`cycles:ppH`, `L1-dcache-load-misses:u`); other types
 *        `unknown attr type: N`; tracepoints keep evsel__name()'s fallback.
 * @return 0 or -ENOMEM.  Format: attr type, config, config1 (bp_addr), bp_type, flags
 *         exclude_user/kernel/hv/host/guest and precise_ip (docs/perf-data-format.md
 *         §1.3); the names and the cache table are perf 6.1's output for each case.
 * Thread safety: the evlist's thread, before it is shared.
 */
int evlist__name_defaults(struct evlist *el);

/** The evsel's name: its own, else perf's default name for its type/config. */
const char *evsel__name(const struct evsel *ev);

/** Replace the name (copied). @return 0 or -ENOMEM. */
int evsel__set_name(struct evsel *ev, const char *name);

#endif
