#ifndef DIRREPORT_SCRIPT_SPEEDSCOPE_H
#define DIRREPORT_SCRIPT_SPEEDSCOPE_H
/*
 * speedscope - samples as a speedscope profile file (the file format of
 * https://www.speedscope.app/file-format-schema.json), streamed with libyajl's
 * generator as it is written (no tree of the document).
 *
 *   { "$schema": ".../file-format-schema.json",
 *     "shared": { "frames": [ { "name": NAME, "file": DSO }, ... ] },
 *     "profiles": [ { "type": "sampled", "name": "COMM (PID) EVENT", "unit": "none",
 *                     "startValue": 0, "endValue": SAMPLES,
 *                     "samples": [ [ROOT, ..., LEAF], ... ], "weights": [N, ...] } ],
 *     "name": ..., "activeProfileIndex": 0, "exporter": "dirscript VERSION" }
 *
 * One sampled profile per (event, process, process name) - a thread group, and a
 * new profile when the process runs another program (exec changes its name) - in
 * the order of their first samples; its samples in the order they were added (the recording's), each
 * a list of frame indices from the outermost frame in; consecutive samples with the
 * same stack are one entry whose weight is their number (so the weights add up to
 * the samples).  A frame is a name as `--folded` writes it (script_fold__frame():
 * stackcollapse-perf.pl's naming, a "->" chain giving several frames) plus its dso
 * as "file" (none for [unknown]); equal (name, file) pairs share one entry.
 *
 * Thread safety: an object belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* int32_t, uint64_t */

#include "script/fold.h"	/* struct script_fold_frame */

struct script_speedscope;

/**
 * @brief A new, empty file.
 * @param name  the file's "name" (the recording's path, say); copied
 * @return 0 or -ENOMEM.  Ownership: free with script_speedscope__delete().
 * Thread safety: any.  Format: none.
 */
int script_speedscope__new(struct script_speedscope **out, const char *name);

/** @brief Free everything; NULL is a no-op. */
void script_speedscope__delete(struct script_speedscope *s);

/**
 * @brief Add one sample to the profile of (@p event_idx, @p pid, @p comm), made
 *        when new.
 * @param event   the event's name (for a new profile's name; copied)
 * @param comm    the process's name (likewise)
 * @param frames  innermost first, as perf script prints them, @p nr of them
 * @param java    the process name is "java" (stackcollapse's naming rule)
 * @return 0, -ENOMEM, or -EOVERFLOW past 2^32 - 1 frames.
 * Thread safety: the object's thread.  Format: none.
 */
int script_speedscope__add(struct script_speedscope *s, unsigned event_idx,
			   const char *event, int32_t pid, const char *comm,
			   const struct script_fold_frame *frames, size_t nr, bool java);

/** @brief Samples added so far. */
uint64_t script_speedscope__samples(const struct script_speedscope *s);

/** @brief Profiles made so far. */
size_t script_speedscope__nr_profiles(const struct script_speedscope *s);

/**
 * @brief Write the file to @p path: into `PATH.tmp`, renamed to @p path (both
 *        replaced if there) when complete; nothing is left on error.
 * @param exporter  the "exporter" text (borrowed)
 * @return 0; -errno of creating, writing or renaming; -ENAMETOOLONG; -ENOMEM; -EIO
 *         when a name is not UTF-8 (JSON strings are) or the write fails.
 * Thread safety: the object's thread.  Format: speedscope's file-format schema.
 */
int script_speedscope__write(struct script_speedscope *s, const char *exporter,
			     const char *path);

#endif
