#ifndef DIRREPORT_READER_SESSION_H
#define DIRREPORT_READER_SESSION_H
/*
 * session - one recording opened for reading: a regular perf.data file, a pipe-format
 * stream (a file or standard input), or a data directory (`data` + `data.*`).
 *
 * Life cycle:
 *   session__open()    header, attrs, ids, feature sections (cheap);
 *   session__load()    decodes every file in parallel: record boundaries, byte
 *                      swapping, zstd decompression, record validation, timestamps;
 *                      every damaged-input error is found here, before any output;
 *   session__deliver() hands the records to the caller in exactly perf 6.1's order
 *                      (docs/perf-data-format.md §7), in batches;
 *   session__close().
 *
 * Thread safety: a session is driven by one thread. session__load() uses the session's
 * workqueue internally (one worker per file at a time; each file's reader_state and
 * zstd stream belong to that worker). Everything session__evlist() and the header
 * accessors return is immutable after session__load().
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/evlist.h"
#include "format/header.h"
#include "format/record-ref.h"

struct diag;
struct session;
struct workqueue;

/** A time range of samples: [start, end] in ns, 0 = open (cli/time-range.h's). */
struct session_time_range {
	uint64_t start, end;
};

struct session_opts {
	const char *path;	/* "-" = standard input; NULL = "perf.data" */
	unsigned jobs;		/* worker threads incl. the caller; 0 = online CPUs */
	size_t window;		/* records per file held at once when a directory is
				 * streamed; 0 = default (16384). Tests use tiny ones. */
	size_t scan_part;	/* bytes: a single file's scan pass is split among the
				 * workers in parts of at least this many (session__load);
				 * 0 = default (1 MiB), SIZE_MAX = never split.  Tests use
				 * tiny ones. */
	bool use_index;		/* the recording's index (DIR/dirindex or
				 * FILE.dirindex, docs/index-format.md), when there is
				 * one and it holds, replaces the scan pass
				 * (session__load); one that does not hold adds a
				 * warning */
	bool scan_optional;	/* the caller writes nothing before the delivery has
				 * ended (a report): a single regular file whose events
				 * the header names all is loaded without the scan pass
				 * (session__load), its records checked as they are
				 * delivered, as from an index - a damaged one stops the
				 * delivery (session__deliver_error()), a file cut inside
				 * a record is warned of then (session__warning()) */
	/* optional: called by session__load's scan pass for every record of file
	 * `file`, in file order, from the worker scanning that file (distinct files at
	 * once; with it no file's scan is split among workers); ref is valid during the
	 * call. Non-zero (-ENOMEM) fails the load. session__scanned() tells whether the
	 * scan pass saw every record. */
	int (*on_scan)(void *ctx, size_t file, const struct record_ref *ref);
	void *scan_ctx;
};

/**
 * @brief Open a recording and read its header, attrs and feature table.
 *        Standard input ("-") that is a pipe is first copied to an unnamed temporary
 *        file in $TMPDIR (or /tmp) and mapped, so that it streams like a file; it is
 *        read into memory only when no temporary file can be made.  Standard input
 *        redirected from a regular file is mapped.
 * @param out   the session (caller owns; session__close frees)
 * @param opts  path and jobs
 * @param d     filled on error
 * @return 0; -errno (-ENOENT nonexistent path, -EACCES, -ENOMEM, -ENOSPC while
 *         copying standard input, ...);
 *         -DIAG_NOT_PERF, -DIAG_TRUNCATED, -DIAG_BAD_HEADER, -DIAG_BAD_ATTR,
 *         -DIAG_BAD_FEATURE, -DIAG_MISMATCH, -DIAG_NO_DATA_FILE (directory without
 *         `data`), -DIAG_DIR_VERSION (DIR_FORMAT other than 1), -DIAG_PIPE.
 *         A directory's `data.N` that cannot be stat()ed (a dangling link) is no error:
 *         it is left out, as perf 6.1 leaves it out, with a warning naming it
 *         (session__warning()).
 * Format: docs/perf-data-format.md §0, 1, 2.1, 3 (directory recognition and data.* enumeration).
 */
int session__open(struct session **out, const struct session_opts *opts, struct diag *d);

/** @brief Free everything. NULL is a no-op. */
void session__close(struct session *s);

/**
 * @brief Decode every file of the recording (in parallel, one worker per file).
 * @return 0; -ENOMEM; -errno reading a file; -DIAG_RECORD_SIZE (size < 8, or past the
 *         end in the middle of a stream), -DIAG_RECORD_TYPE, -DIAG_ZSTD,
 *         -DIAG_BAD_SAMPLE, -DIAG_BAD_RECORD, -DIAG_UNKNOWN_ID, -DIAG_PIPE,
 *         -DIAG_BAD_ATTR, -DIAG_BAD_FEATURE. When several files fail, the error of the
 *         lowest file index is reported (deterministic for any -j).
 *         A stream cut inside its last record is not an error: see session__warnings().
 */
int session__load(struct session *s, struct diag *d);

typedef int (*session_deliver_fn)(void *ctx, const struct record_ref *const *recs,
				  size_t n);

/** session__deliver()'s default batch: records handed to fn at most at a time. */
#define SESSION_DELIVER_BATCH 8192

/**
 * @brief Hand every record to fn in perf 6.1's delivery order, in batches of up to
 *        `batch` records (0 = SESSION_DELIVER_BATCH).
 * Order: records arrive per docs/perf-data-format.md §7.3 (file round robin, 2 MiB turns; decompressed
 * records right after their container); perf's own records and records with time 0
 * are delivered on arrival; the others go through perf's ordered-events queue (7.2),
 * flushed at FINISHED_ROUND and at the end.
 * Threads: fn always runs on the calling thread, one batch at a time; with workers
 * (session_opts.jobs >= 2) a producer thread reads and orders the records meanwhile
 * (up to two batches ahead), so fn must not touch the session's readers; the records
 * of a batch stay valid until fn returns (or longer: session__hold_batches()).
 * Batches are the same with or without it.
 * Warnings: one the delivery finds (a session started from its index has had no scan
 * pass: a file cut inside a record) is added to session__warning()'s list.
 * @return 0, -ENOMEM, or the first non-zero value fn returned (delivery stops).
 */
int session__deliver(struct session *s, session_deliver_fn fn, void *ctx, size_t batch);

/**
 * @brief Keep each batch's records valid for @p n more batches: the records handed
 *        to fn in batch k stay valid until fn has returned for batch k + n, so that a
 *        front end can let workers read a batch while fn takes the next (the dump).
 *        Where a streamed delivery frees records otherwise (at its end, and between
 *        a directory's immediate records and the others), it first calls fn with an
 *        empty batch (n == 0 records) n times: fn must let go of every record it
 *        holds before it returns from that call - and before it returns an error
 *        (no empty batch follows one).  Records that live as long as the session
 *        (standard input read whole, a directory read whole) get no empty batch at
 *        the end: the caller lets go after session__deliver().  Memory: up to n more
 *        batches' windows of records (a batch is at most 8192 records or 2 MiB).
 * @param n  0 (the default): a batch's records stay valid only until fn returns
 * Thread safety: before session__deliver().
 */
void session__hold_batches(struct session *s, unsigned n);

/**
 * @brief Tell the session that the caller drops every SAMPLE outside @p ranges
 *        (perf's --time): a data directory started from an index
 *        (session__indexed()) then leaves out the samples of the index entries whose
 *        records all lie outside them, reading only those entries' other records; every other record is
 *        delivered as before, in the same order.  No effect without an index, nor on
 *        a single file (perf's queue model there depends on every queued record).
 * @param ranges  [start, end] in ns, 0 = open; borrowed until session__close();
 *                n 0: every sample is delivered
 * Thread safety: before session__deliver().  Format: docs/index-format.md
 *        (DIR_INDEX_SIDEBAND entries).
 */
void session__keep_samples(struct session *s, const struct session_time_range *ranges,
			   size_t n);

/**
 * @brief What the scan pass learnt of file @p i, for the recording's index
 *        (format/index.h dir_index_builder__scan()): @p lag in ns, and the file
 *        offsets where its 2 MiB round-robin turns start and of its immediate records
 *        (a single file: of its EVENT_UPDATE records).
 * @param turns, imm  receive malloc'd arrays (caller frees), ascending
 * @return 0; -ENOENT when there is nothing to record (a pipe, a session started from
 *         an index, or a file with compressed data, whose records have no offsets of
 *         their own); -ENOMEM.
 * Thread safety: after session__load(), not during a delivery.  Format:
 *         docs/perf-data-format.md §7.3, docs/index-format.md.
 */
int session__scan_facts(const struct session *s, size_t i, uint64_t *lag,
			uint64_t **turns, size_t *nr_turns, uint64_t **imm, size_t *nr_imm);

/**
 * @brief A recording's per-file index (`dirconvert --index PATH`, dirrecord at its
 *        end) (format/index.h) from one pass over its records and write it, atomically,
 *        to PATH/dirindex (a data directory) or PATH.dirindex (a file), replacing an
 *        older one.
 * @param input  the recording (a perf.data file or a data directory; not a pipe)
 * @param jobs   -j (0: online CPUs)
 * @param interval  bytes of records per index entry (0: DIR_INDEX_INTERVAL)
 * @param d      on error: the input file and offset of damaged input, or the index
 * @return 0; -DIAG_USAGE (a pipe, or a directory perf reads as one file); the
 *         reader's errors; -errno of writing.
 * Thread safety: the main thread.  Format: perf.data; docs/index-format.md.
 */
int session__build_index(const char *input, unsigned jobs, uint64_t interval,
			  struct diag *d);


/**
 * @brief The file, offset and message of the damaged record that stopped the last
 *        session__deliver() (possible only after a session loaded without the scan
 *        pass - started from its index, or session_opts.scan_optional: otherwise the
 *        scan pass has found the damage first).
 * @param d  receives it
 * @return true when there is one.  Thread safety: after session__deliver() returned.
 */
bool session__deliver_error(const struct session *s, struct diag *d);

/**
 * @brief Whether session__load() started from the recording's index (no scan pass).
 * Thread safety: after session__load().
 */
bool session__indexed(const struct session *s);

/** @brief Whether session__load()'s scan pass read every record of every file (not a
 *  pipe, no index used, records streamed at delivery): session_opts.on_scan saw the
 *  records session__deliver() delivers. Thread safety: after session__load(). */
bool session__scanned(const struct session *s);

/**
 * @brief Bytes of the data files the session has decoded so far: the scan pass and
 *        every delivery, counting each record read on its own (the side-band records
 *        of an index entry whose samples were left out) as the pages it lies in.
 * Thread safety: not during a delivery.
 */
uint64_t session__bytes_read(const struct session *s);

/**
 * @brief Bytes the scan pass read with pread() through its small read buffer instead
 *        of touching the files' mappings (reader__read_start(): a regular single file
 *        and a directory's data.N files, scanned whole, not in parts), in all since
 *        the session was opened: for tests and benchmarks.
 * Thread safety: not during session__load() or a delivery.
 */
uint64_t session__bytes_buffered(const struct session *s);

struct features;

/** The parsed feature sections (regular files: after session__open; pipes: after
 *  session__load). Borrowed. Format: docs/perf-data-format.md §2.3. */
const struct features *session__features(const struct session *s);

/** The events (immutable after session__load). */
struct evlist *session__evlist(struct session *s);

/** Number of files records come from, and the label -D prints for file i
 *  ("prof.data", "prof.data/data.1", or "pipe"). */
size_t session__nr_files(const struct session *s);
const char *session__file_label(const struct session *s, size_t i);

/**
 * @brief What a diagnostic about a record of file @p i names: the file's path
 *        ("prof.data", "prof.data/data.1", "<stdin>" for standard input), where
 *        session__file_label() gives the label -D prints ("pipe" for pipe-format
 *        input).
 * @return borrowed from the session, valid until session__close().
 * Thread safety: pure.
 */
const char *session__file_path(const struct session *s, size_t i);

/**
 * @brief The byte offset, from the start of file @p i, of a record of that file whose
 *        record_ref.offset (perf's -D offset) is @p offset, as diagnostics name it:
 *        @p offset plus, for pipe-format input, the 16-byte pipe header that -D does
 *        not count - the offset the reader's own errors give.
 * Thread safety: pure.
 */
uint64_t session__file_offset(const struct session *s, size_t i, uint64_t offset);

/**
 * @brief diag__set() about a record of file @p i whose record_ref.offset is @p offset,
 *        for the front ends' own errors about a record: the file it is in
 *        (session__file_path()) and its byte offset there (session__file_offset()),
 *        as the reader's errors give them.
 * @param fmt  printf-style description; NULL: diag__code_str(code)
 * @return code.  Thread safety: touches only *d.
 */
int session__record_diag(const struct session *s, size_t i, uint64_t offset,
			 struct diag *d, int code, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/** The input path as given ("perf.data" by default). */
const char *session__path(const struct session *s);

/** True for pipe-format input. */
bool session__is_pipe(const struct session *s);
/** True for a data directory read in directory mode (DIR_FORMAT 1). */
bool session__is_dir(const struct session *s);
/** True when the recording was opened by its path from a regular file (a data
 *  directory's `data` file): opening the same path again reads it again.  False for
 *  standard input and a FIFO, whose bytes were read once. */
bool session__can_read_again(const struct session *s);

/** The file header (zeroed for pipes). */
const struct file_header *session__header(const struct session *s);

/** File mtime in seconds of the header file (for `# captured on`). */
int64_t session__mtime(const struct session *s);

/**
 * @brief Raw body of feature `feat` (regular files: from the feature table; pipes: from
 *        the HEADER_FEATURE record), and whether it must be byte-swapped.
 * @return true when present. *body is borrowed from the session.
 */
bool session__feature(const struct session *s, unsigned feat, const void **body,
		      size_t *size, uint64_t *file_offset, bool *swap);

/** Offset of the feature table (data.offset + data.size), 0 for pipes. */
uint64_t session__feat_offset(const struct session *s);

/** Warnings collected by session__load (e.g. "file cut inside its last record"),
 *  each one complete line without newline; count and i-th. */
size_t session__nr_warnings(const struct session *s);
const char *session__warning(const struct session *s, size_t i);

/**
 * @brief Add a front end's warning (printf-style, one line, no newline) to the list
 *        of session__warning(): the front ends print the ones added during the
 *        delivery after the run.
 * @return 0, or -ENOMEM (the warning is lost).
 * Thread safety: the caller's thread, not during session__deliver()'s callbacks'
 *         concurrent use of the list (there is none: only front ends add).
 */
int session__warn(struct session *s, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/** The session's worker pool (jobs - 1 threads; the caller is the last runner),
 *  for front ends that format in parallel. Borrowed. */
struct workqueue *session__workqueue(struct session *s);

#endif
