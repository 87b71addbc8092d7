#ifndef DIRREPORT_READER_SESSION_INTERNAL_H
#define DIRREPORT_READER_SESSION_INTERNAL_H
#ifndef DIRREPORT_IN_READER
#error "session-internal.h is private to reader/"
#endif
/*
 * session-internal - what the session's files share, and nothing else includes:
 * struct session itself, and the few helpers more than one of them calls.
 *
 * - session.c: open (file, pipe, data directory), the feature sections, close, the
 *   accessors, warnings and diagnostics;
 * - session-load.c: session__load(): the scan pass (a worker per file, a single
 *   file split among them), or an index's facts instead;
 * - session-deliver.c: session__deliver(): the records again, window by window, in
 *   perf's order, batched to the caller (on a producer thread with workers).
 *
 * Thread safety: a session belongs to the thread that opened it; session.h says
 * which of its parts the workers and the producer touch.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/diag.h"	/* struct diag */
#include "format/evlist.h"	/* struct evlist */
#include "format/feature.h"	/* struct features */
#include "format/header.h"	/* struct file_header, struct file_section, FEAT_BITS */
#include "format/record.h"	/* REC_USER_FIRST */
#include "format/record-ref.h"	/* struct record_ref */
#include "reader/reader-internal.h"	/* struct reader */
#include "reader/session.h"

struct dir_index;
struct workqueue;

/* perf reads at least this many on-disk bytes from one file of a directory before it
 * moves to the next (docs/perf-data-format.md §7.3). */
#define DIR_TURN_BYTES (2u << 20)

struct session {
	char *path;			/* owned: as given */
	bool is_pipe, is_dir, swap;
	bool read_again;	/* opened by path from a regular file (a directory's
				 * data file): opening the path again reads it again */
	struct file_header header;
	struct file_section feat[FEAT_BITS];
	uint64_t feat_offset;
	int64_t mtime;
	struct evlist evlist;
	struct features features;	/* parsed feature sections (pipe: after load) */
	struct reader *readers;		/* owned array; [0] holds the header file */
	size_t nr_readers;
	struct workqueue *wq;		/* owned */
	bool queue_enabled;		/* perf's ordered-events queue is on */
	size_t window;			/* records per file window (streaming) */
	size_t scan_part;		/* bytes: least part of a split scan */
	bool streamed;			/* directory read in windows: records are
					 * delivered from a second pass (see below) */
	char **warnings;		/* owned */
	size_t nr_warnings;
	bool use_index;			/* session_opts.use_index */
	bool scan_optional;		/* session_opts.scan_optional */
	int (*on_scan)(void *ctx, size_t file, const struct record_ref *ref);
	void *scan_ctx;			/* session_opts.on_scan's */
	struct dir_index *ix;		/* owned: the index load started from, or NULL */
	bool by_offset;			/* records are keyed by file offset instead of
					 * ordinal (an index's turns and immediates) */
	const struct session_time_range *keep;	/* borrowed: session__keep_samples() */
	size_t nr_keep;
	unsigned held_batches;		/* session__hold_batches() */
	uint64_t bytes_read;		/* session__bytes_read() */
	struct diag deliver_diag;	/* session__deliver_error(): a reader's error
					 * during a delivery (code 0: none) */
};

/* Whether a record is delivered on arrival rather than through perf's queue: every
 * record when the queue is off, perf's own records and records without a time
 * (docs/perf-data-format.md §7).  Inline: the scan and the delivery ask per record. */
static inline bool session__immediate(const struct record_ref *ref, bool queue_enabled)
{
	return !queue_enabled || ref->type >= REC_USER_FIRST || ref->time == 0 ||
	       ref->time == UINT64_MAX;
}

/**
 * @brief Every present feature section of the header file parsed into s->features,
 *        in id order (CPU_TOPOLOGY needs NRCPUS first; sections newer than perf
 *        6.1's are skipped, as perf skips them); a damaged body's one warning kept.
 * @return 0, -ENOMEM, or features__parse()'s error with @p d filled.
 * Thread safety: the session's thread, before any worker reads the features.
 * Format: the header's feature bitmap and sections (docs/perf-data-format.md).
 */
int session__parse_features(struct session *s, struct diag *d);

/** @brief Keep a warning for the front end (session__warning()): @p w, malloc'd, is
 *  taken over (freed on failure too).  @return 0 or -ENOMEM. */
int session__add_warning(struct session *s, char *w);

/** @brief open(2) @p fspath read-only (close-on-exec).  @return the descriptor, or
 *  -errno with @p d filled ("cannot open", labelled @p label). */
int session__open_fd(const char *fspath, const char *label, struct diag *d);

#endif
