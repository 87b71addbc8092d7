#ifndef DIRREPORT_CONVERT_PROGRESS_H
#define DIRREPORT_CONVERT_PROGRESS_H
/*
 * progress - a one-line progress bar on a terminal: bytes processed out of the total,
 * the rate and the time left, redrawn at most ten times a second and erased at the
 * end.  Disabled (every call a no-op) unless enabled at creation.
 *
 * Thread safety: one thread.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct progress {
	FILE *out;		/* borrowed; NULL = disabled */
	uint64_t total;		/* bytes */
	uint64_t done;		/* bytes */
	double start, last;	/* seconds (CLOCK_MONOTONIC) */
	int width;		/* characters of the last line drawn */
};

/**
 * @brief Start a bar for @p total bytes on @p out; when @p enabled is false the bar
 *        stays silent.
 * Thread safety: one thread.  Format: none.
 */
void progress__init(struct progress *p, FILE *out, uint64_t total, bool enabled);

/** @brief Add @p bytes to the bytes processed and redraw if due. */
void progress__add(struct progress *p, uint64_t bytes);

/** @brief Erase the bar (no-op when disabled or nothing was drawn). */
void progress__exit(struct progress *p);

/** @brief Human size: "12.3 MB" style, into buf (len bytes). */
void progress__format_bytes(char *buf, size_t len, double bytes);

#endif
