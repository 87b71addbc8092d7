#ifndef DIRREPORT_RESOLVE_TRACE_SORT_H
#define DIRREPORT_RESOLVE_TRACE_SORT_H
/*
 * trace-sort - the report side of perf 6.1's `trace` sort key ("Trace output" column):
 * one recording's tracepoint formats (machine/trace-event.h), the text of each
 * tracepoint sample, interned so that equal texts share one pointer (hist.c groups
 * samples by it, sort-keys.c compares it), and perf's choice of the default sort order.
 *
 * Observed perf 6.1 behaviour this module serves (the rest is in sort-keys.c and hist.c):
 *  - perf report's default sort order is `trace` when every event of a recording file
 *    is a tracepoint; in pipe mode perf chooses the order before it knows the events,
 *    so it stays comm,dso,sym; `+KEYS` appends to that default;
 *  - `--raw-trace` prints the fields of the attr's event (" name=value" each);
 *  - a tracepoint attr whose format the tracing data lacks makes perf refuse the file
 *    ("incompatible file format");
 *  - code addresses in print fmts (%pS) resolve against the report's kernel symbols.
 *
 * Thread safety: one trace_sort per report, used by the replaying thread only.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag;
struct evlist;
struct evsel;
struct machine;
struct record_ref;
struct features;

struct trace_sort;

/**
 * @brief Whether perf 6.1's default sort order is `trace`: the recording is a file
 *        (not a pipe) and every event is a tracepoint (attr.type 2).
 * @param el    the recording's events
 * @param pipe  pipe-format input
 * @return true when the default is "trace" (an empty evlist: false).
 * Thread safety: pure.  Format: attr.type (PERF_TYPE_TRACEPOINT = 2).
 */
bool trace_sort__default_is_trace(const struct evlist *el, bool pipe);

/**
 * @brief Whether some event of el is a tracepoint (attr.type 2).
 * Thread safety: pure.  Format: attr.type.
 */
bool trace_sort__has_tracepoints(const struct evlist *el);

/**
 * @brief A handle for one report.
 * @param out   receives the handle (NULL on error)
 * @param m     the report's machine: print fmts' kernel code addresses resolve
 *              against its kernel maps and symbols (loaded on first use); borrowed,
 *              must outlive the handle; may be NULL (addresses then print in hex)
 * @param raw   --raw-trace: every text is the fields of the attr's event
 * @param path  file name for diagnostics (borrowed, must outlive the handle)
 * @return 0; -ENOMEM.
 * Ownership: the caller frees *out with trace_sort__delete().
 * Thread safety: pure.  Format: none.
 */
int trace_sort__new(struct trace_sort **out, struct machine *m, bool raw,
		    const char *path);

/** @brief Free a handle and every text it returned. NULL is a no-op. */
void trace_sort__delete(struct trace_sort *ts);

/**
 * @brief The report's handle, as perf sets it up when it opens a recording: for a
 *        file with tracepoint events, the TRACING_DATA feature parsed and checked
 *        (trace_sort__check()); for a pipe, an empty handle that the stream's
 *        TRACING_DATA record fills (trace_sort__load_record()).
 * @param out   receives the handle, or NULL when there is nothing to do (a file
 *              without tracepoint events)
 * @param el    the recording's events
 * @param f     its features (the TRACING_DATA feature is read)
 * @param pipe  the recording is a pipe (its formats come in a record)
 * @param m, raw  see trace_sort__new(); path: the recording's path as the user gave
 *              it (diagnostics)
 * @return 0; -ENOMEM; the errors of trace_sort__load() and trace_sort__check() (d
 *         filled; *out NULL).
 * Ownership: the caller frees *out with trace_sort__delete().
 * Thread safety: the session's replaying thread.  Format: HEADER_TRACING_DATA.
 */
int trace_sort__open(struct trace_sort **out, const struct evlist *el,
		     const struct features *f, bool pipe, struct machine *m, bool raw,
		     const char *path, struct diag *d);

/**
 * @brief Parse the tracing data (once: later calls are ignored, as the first
 *        TRACING_DATA is the one perf keeps).
 * @param data, size, file_offset  the HEADER_TRACING_DATA feature body (struct features'
 *              tracing_data); size 0 (no such feature) is accepted and leaves the
 *              handle without formats
 * @param d     receives the problem on error
 * @return 0; the errors of trace_event__new() (d filled).
 * Ownership: data is only read during the call.
 * Thread safety: the handle's thread.  Format: HEADER_TRACING_DATA (trace-event.h).
 */
int trace_sort__load(struct trace_sort *ts, const void *data, size_t size,
		     uint64_t file_offset, struct diag *d);

/**
 * @brief Pipe mode: parse the payload of a PERF_RECORD_HEADER_TRACING_DATA record (as
 *        trace_sort__load(); other record types are ignored).
 * @param ref  the record: u32 payload size at offset 8, the payload right after the
 *             record's header.size bytes, within ref->disk_size
 * @param offset  the record's byte offset in its file (session__file_offset(): 16
 *             more than ref->offset, perf's -D offset of a pipe's record)
 * @return 0; -DIAG_PIPE when the payload size runs past the record's disk size (d
 *         filled); the errors of trace_sort__load().
 * Thread safety: the handle's thread.  Format: PERF_RECORD_HEADER_TRACING_DATA (66).
 */
int trace_sort__load_record(struct trace_sort *ts, const struct record_ref *ref,
			    uint64_t offset, struct diag *d);

/**
 * @brief perf's check when it opens a file: every tracepoint event has a format.
 * @return 0; -DIAG_BAD_FEATURE ("incompatible file format": an event whose id the
 *         tracing data does not describe, or no tracing data at all), d filled.
 * Thread safety: read-only.  Format: attr.config of tracepoint attrs, the "ID:" lines
 * of the tracing data's format files.
 */
int trace_sort__check(const struct trace_sort *ts, const struct evlist *el,
		      struct diag *d);

/**
 * @brief The `Trace output` text of one sample, interned.
 * @param ev        the sample's event
 * @param raw       its PERF_SAMPLE_RAW bytes, raw_size of them
 * @param path, offset  the file the sample record is in and its byte offset there
 *                  (diagnostics: session__file_path(), session__file_offset())
 * @param text      receives the text: NULL for an event that is not a tracepoint
 *                  (perf prints "N/A"); else a string owned by the handle (valid
 *                  until trace_sort__delete()), the same pointer for equal texts
 * @return 0; -ENOMEM; -DIAG_BAD_SAMPLE (d filled) when the event has no format (a
 *         pipe whose TRACING_DATA record is missing or comes late) or its print fmt
 *         cannot be evaluated safely (trace_event__format()).
 * Thread safety: the handle's thread.  Format: PERF_SAMPLE_RAW of a tracepoint
 * sample (machine/trace-event.h).
 */
int trace_sort__text(struct trace_sort *ts, const struct evsel *ev, const void *raw,
		     size_t raw_size, const char *path, uint64_t offset, const char **text,
		     struct diag *d);

#endif
