#ifndef DIRREPORT_REPORT_READ_VALUES_H
#define DIRREPORT_REPORT_READ_VALUES_H
/*
 * read-values - `-T/--threads`: the counter values of PERF_RECORD_READ records (what
 * `perf record -s` writes when a thread exits), summed per thread and event, printed
 * as perf 6.1's perf_read_values_display() does (the "pretty" style).
 *
 * Thread safety: one table per thread.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct read_values {
	size_t nr_counters;		/* events, in order of their first record */
	const char **names;		/* owned array; borrowed names */
	size_t *counter_ids;		/* owned: the events' evlist positions */
	size_t max_counters;
	size_t nr_threads, cap_threads;	/* threads, in order of their first record */
	size_t cap_tid, cap_values;	/* tid[] and values[] (elements) */
	uint32_t *pid, *tid;		/* owned */
	uint64_t *values;		/* owned: [thread * max_counters + counter] */
};

/**
 * @brief An empty table for at most @p max_counters events.
 * @return 0 or -ENOMEM.  Ownership: free with read_values__exit().
 */
int read_values__init(struct read_values *v, size_t max_counters);

/** @brief Free what the table owns (a second call is harmless). */
void read_values__exit(struct read_values *v);

/**
 * @brief Add one READ record's value to (pid, tid) and the event at evlist position
 *        @p counter (< max_counters), named @p name (borrowed, must outlive @p v).
 * @return 0 or -ENOMEM.  Format: PERF_RECORD_READ (pid, tid, value).
 */
int read_values__add(struct read_values *v, uint32_t pid, uint32_t tid, size_t counter,
		     const char *name, uint64_t value);

/** @brief perf's table: "# PID  TID  <event>..." then one line per thread. */
void read_values__fprintf(const struct read_values *v, FILE *out);

#endif
