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
#include <stddef.h>	/* size_t */
#include <stdint.h>
#include <stdio.h>	/* FILE */

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

/**
 * @brief Add @p bytes (input bytes just processed) and redraw if the last drawing is
 *        older than 0.1 s.
 * Thread safety: one thread.  Format: none.
 */
void progress__add(struct progress *p, uint64_t bytes);

/**
 * @brief Erase the bar (no-op when disabled or nothing was drawn).
 * Thread safety: one thread.  Format: none.
 */
void progress__exit(struct progress *p);

/**
 * @brief A size for people: "812 B", "12.3 MB" (powers of 1000).
 * @param buf, len  output and its size in bytes (NUL-terminated when len > 0)
 * @param bytes     the size
 * Thread safety: pure.  Format: none.
 */
void progress__format_bytes(char *buf, size_t len, double bytes);

#endif
