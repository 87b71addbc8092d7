#ifndef DIRREPORT_RECORD_TRACEFS_H
#define DIRREPORT_RECORD_TRACEFS_H
/*
 * tracefs - the kernel's tracepoints for the recorder: a tracepoint's id (its
 * perf_event_attr config) and the tracing data perf record writes with tracepoint
 * events, which readers need to decode their RAW samples.
 *
 * tracefs is looked for where perf 6.1 looks: /sys/kernel/tracing, then
 * /sys/kernel/debug/tracing; where neither has an `events` directory it is mounted at
 * /sys/kernel/tracing, as perf mounts it (root only).
 *
 * Format: the tracing-data blob of docs/perf-data-format.md §2.4 (the TRACING_DATA
 * feature), version 0.6, as perf 6.1's tracing_data_get() writes it: the magic bytes
 * 0x17 0x08 0x44 "tracing", "0.6" and a NUL, a byte 0 for little-endian or 1, a byte
 * sizeof(long), u32 the page size; "header_page" and "header_event" each with a NUL,
 * a u64 size and tracefs' events/header_page and events/header_event; u32 the number
 * of ftrace event formats (those of the recorded tracepoints of the "ftrace" system)
 * and each as u64 size and text; u32 the number of the other systems, each its name
 * with a NUL, u32 its number of recorded events and each one's events/SYS/NAME/format
 * as u64 size and text; u32 0 (no kallsyms, as perf 6.1); u32 size and printk_formats;
 * u64 size and saved_cmdlines.  Numbers in this machine's byte order.
 *
 * Thread safety: the caller's thread (the tracefs location is found once).
 */
#include <stddef.h>
#include <stdint.h>

/**
 * @brief The id of tracepoint SYS:NAME (tracefs' events/SYS/NAME/id).
 * @param spec  "SYS:NAME", len bytes (not NUL-terminated)
 * @return 0; -ENOENT (no such tracepoint, or no tracefs: not mounted and not
 *         mountable here); -EINVAL (not of the form SYS:NAME).
 */
int record_tracefs__id(const char *spec, size_t len, uint64_t *id);

/**
 * @brief The tracing data of the tracepoints named "SYS:NAME" in @p names.
 * @param names, nr  the recorded tracepoints' names, in event order (a tracepoint
 *                   named twice is written once)
 * @param out  receives the blob (malloc()ed; the caller frees it)
 * @param len  its size in bytes
 * @return 0; -ENOENT (no tracefs, or a tracepoint's format is gone); -ENOMEM.
 */
int record_tracefs__tracing_data(const char *const *names, size_t nr, unsigned char **out,
				 size_t *len);

#endif
