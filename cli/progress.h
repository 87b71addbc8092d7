#ifndef DIRREPORT_CLI_PROGRESS_H
#define DIRREPORT_CLI_PROGRESS_H
/*
 * progress - a one-line progress bar on a terminal: bytes of the recording processed
 * out of the total, the rate and the time left (without a total, as for standard
 * input: the bytes and the rate), redrawn at most ten times a second and erased at
 * the end.  Nothing is drawn before the run has taken a second (git's progress delay:
 * a short run shows nothing); DIRREPORT_PROGRESS_DELAY (seconds, e.g. 0) sets that
 * delay, for tests.  Disabled (every call a no-op) unless enabled at creation.
 *
 * Thread safety: one thread.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>
#include <stdio.h>	/* FILE */

struct session;

struct progress {
	FILE *out;		/* borrowed; NULL = disabled */
	uint64_t total;		/* bytes; 0 = unknown */
	uint64_t done;		/* bytes */
	double start, last;	/* seconds (CLOCK_MONOTONIC) */
	double delay;		/* seconds before the first drawing */
	int width;		/* characters of the last line drawn; 0: none shown */
};

/**
 * @brief Start a bar for @p total bytes (0: unknown) on @p out; when @p enabled is
 *        false the bar stays silent.
 * Thread safety: one thread (reads the environment).  Format: none.
 */
void progress__init(struct progress *p, FILE *out, uint64_t total, bool enabled);

/**
 * @brief Add @p bytes (input bytes just processed) and redraw if the run has taken
 *        the delay and the last drawing is older than 0.1 s.
 * Thread safety: one thread.  Format: none.
 */
void progress__add(struct progress *p, uint64_t bytes);

/**
 * @brief Erase the bar (no-op when disabled or nothing was drawn).
 * Thread safety: one thread.  Format: none.
 */
void progress__exit(struct progress *p);

/**
 * @brief Whether a front end draws a bar: standard error is a terminal, and standard
 *        output is not (or the program writes nothing there): the bar would run into
 *        the text.
 * @param writes_stdout  the run's output goes to standard output
 * Thread safety: main thread.  Format: none.
 */
bool progress__wanted(bool writes_stdout);

/**
 * @brief Bytes of the recording's files (its total for progress__init()); 0 when
 *        unknown (standard input, a file gone).
 * Thread safety: the session's thread.  Format: none.
 */
uint64_t progress__session_bytes(struct session *s);

/**
 * @brief A size for people: "812 B", "12.3 MB" (powers of 1000).
 * @param buf, len  output and its size in bytes (NUL-terminated when len > 0)
 * @param bytes     the size
 * Thread safety: pure.  Format: none.
 */
void progress__format_bytes(char *buf, size_t len, double bytes);

#endif
