#ifndef DIRREPORT_FORMAT_INDEX_H
#define DIRREPORT_FORMAT_INDEX_H
/*
 * index - dirreport's per-file index of a recording (docs/index-format.md): for each
 * data file (a single perf.data, or a data directory's `data` and `data.N`) its size
 * and modification time (the staleness check), its data section, and an entry about
 * every interval (1 MiB by default) of records: the byte offset of a record boundary
 * (a COMPRESSED record's, inside compressed data), the entry's bytes, first and last
 * timestamp, records per type and FINISHED_ROUNDs, and the offsets of its records that
 * are not samples (its side-band list); what the reader's scan pass learns of each file
 * (lag, turn starts, immediate records: reader/session-load.c starts from them instead);
 * and for the whole recording the records per type and the samples per event, with
 * the events' names, as `dirreport --stats` counts them.
 *
 * The index is a file of its own, never named data.* (perf reads those): `DIR/dirindex`
 * inside a data directory, `FILE.dirindex` beside a single file.  Its numbers are
 * little-endian whatever the machine; a CRC-32 (zlib's) covers the header and the
 * body, so a damaged file is told apart from a stale one.
 *
 * Building: dir_index_builder gets every record of the recording once (any order:
 * entries are fixed byte ranges of each file, each starting at the first record
 * boundary inside it), then makes the index.  Reading: dir_index__read() checks the
 * layout and the CRC; dir_index__fresh() compares sizes and mtimes with the files.
 *
 * Thread safety: a builder or an index belongs to one thread, except that
 * dir_index_builder__record() and dir_index_builder__place() of distinct files may run
 * on distinct threads at once (each file's state is its own); a read index is
 * immutable.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/record.h"	/* REC_TYPE_MAX */

struct diag;

#define DIR_INDEX_MAGIC "DIRINDEX"
#define DIR_INDEX_VERSION 2
/** Record types counted (0 = all records, t = type t; types above are not counted). */
#define DIR_INDEX_NR_TYPES REC_TYPE_MAX
/** Default bytes of records per entry. */
#define DIR_INDEX_INTERVAL (1u << 20)
/** The index's name inside a data directory, and the suffix beside a single file. */
#define DIR_INDEX_DIR_NAME "dirindex"
#define DIR_INDEX_SUFFIX ".dirindex"

/** Entry flags. */
enum dir_index_entry_flags {
	/* the entry starts with a COMPRESSED record whose zstd frame decompresses on its
	 * own (written by dirconvert: a fresh frame per record) */
	DIR_INDEX_INDEPENDENT = 1 << 0,
	/* every record of the entry is on disk (none inside compressed data) and its
	 * side-band list names every record that is not a SAMPLE: a reader that may
	 * leave the entry's samples out can read only those */
	DIR_INDEX_SIDEBAND = 1 << 1,
};

/** File flags. */
enum dir_index_file_flags {
	/* the reader's scan facts (lag, turns, immediate records) are recorded: a
	 * reader can start without its scan pass.  Only for files whose records are
	 * all on disk (no compressed data). */
	DIR_INDEX_SCANNED = 1 << 0,
};

/** One entry: about `interval` bytes of one file's records. */
struct dir_index_entry {
	uint64_t offset;	/* file offset of its first record (bytes) */
	uint64_t size;		/* bytes up to the next entry (or the data's end) */
	uint64_t first_time;	/* smallest sample/record timestamp (ns); UINT64_MAX:
				 * none */
	uint64_t last_time;	/* largest (ns); 0: none */
	uint64_t nr_rounds;	/* FINISHED_ROUND records */
	uint32_t flags;		/* DIR_INDEX_* */
	uint32_t counts[DIR_INDEX_NR_TYPES];	/* [0] all records, [t] of type t */
	uint64_t first_sideband;	/* DIR_INDEX_SIDEBAND: its records that are not
					 * samples, dir_index.offsets[first_sideband ...] */
	uint64_t nr_sideband;	/* (file offsets, ascending) */
};

/** One data file. */
struct dir_index_file {
	char *name;		/* owned: "data", "data.3", or the file's base name */
	uint64_t file_size;	/* bytes */
	int64_t mtime_ns;	/* modification time, ns since the epoch */
	uint64_t data_offset, data_size;	/* its records (the data section) */
	size_t first_entry, nr_entries;	/* its entries in dir_index.entries */
	uint32_t flags;		/* DIR_INDEX_SCANNED */
	/* DIR_INDEX_SCANNED: what the reader's scan pass learns (reader/session-load.c),
	 * all offsets into dir_index.offsets, file offsets ascending */
	uint64_t lag;		/* ns: how far a queued record trails the newest queued
				 * record before it in the file (0: time-sorted) */
	uint64_t first_turn, nr_turns;	/* where each 2 MiB round-robin turn starts */
	uint64_t first_imm, nr_imm;	/* the immediate records (perf's own, time 0) */
};

/** One event of the recording (evsel index order). */
struct dir_index_event {
	char *name;		/* owned: the event's name as dirreport prints it */
	uint64_t nr_samples;	/* samples delivered to it */
};

struct dir_index {
	uint64_t interval;	/* bytes per entry (target) */
	struct dir_index_file *files;	/* owned */
	size_t nr_files;
	struct dir_index_entry *entries;	/* owned, grouped by file */
	size_t nr_entries;
	uint64_t counts[DIR_INDEX_NR_TYPES];	/* the recording's records per type */
	struct dir_index_event *events;	/* owned */
	size_t nr_events;
	uint64_t *offsets;	/* owned: the file offsets the files' and entries'
				 * lists point into */
	size_t nr_offsets;
};

/**
 * @brief The index path of a recording: INPUT/dirindex for a directory, INPUT.dirindex
 *        for a file.
 * @param buf, len  receives it (NUL-terminated)
 * @return 0, or -ENAMETOOLONG.  Thread safety: pure.  Format: docs/index-format.md.
 */
int dir_index__path(const char *input, bool is_dir, char *buf, size_t len);

/**
 * @brief Write @p ix to @p path atomically (PATH.tmp, created exclusively and 0600 as
 *        perf's outputs, less the umask; renamed; removed on error).
 * @return 0; -EEXIST (PATH.tmp exists: another run may be writing PATH); -errno of
 *         creating, writing or renaming; d names the path.
 * Thread safety: the caller's.  Format: docs/index-format.md.
 */
int dir_index__write(const struct dir_index *ix, const char *path, struct diag *d);

/**
 * @brief Read and check an index file.
 * @param out  receives the index (caller frees with dir_index__delete())
 * @return 0; -ENOENT when there is none; -DIAG_BAD_INDEX (d: the path, the offset and
 *         what is wrong: magic, version, a size or count that does not fit the file,
 *         the CRC, an entry outside its file's data, names not NUL-terminated);
 *         -ENOMEM; -errno of reading.
 * Thread safety: the caller's.  Format: docs/index-format.md.
 */
int dir_index__read(struct dir_index **out, const char *path, struct diag *d);

/** @brief Free an index (NULL is a no-op). */
void dir_index__delete(struct dir_index *ix);

/**
 * @brief Whether the index still describes the files: each file exists under
 *        @p dir_or_file (its own path for a single file) with the recorded size and
 *        mtime, and nothing else of the recording is there (a directory's data.N
 *        files are exactly the index's).
 * @param why, len  receives the first difference, for the warning line
 * @return true when fresh.  Thread safety: reads the file system.
 */
bool dir_index__fresh(const struct dir_index *ix, const char *input, bool is_dir,
		      char *why, size_t len);

/**
 * @brief Read the index of a recording and check that it holds for it: read and
 *        checked (dir_index__read()), as many files and events as the recording,
 *        fresh (dir_index__fresh()).
 * @param input      the recording's path; is_dir whether it is a data directory
 * @param nr_files, nr_events  the recording's
 * @param out        receives the index (caller frees) when 0 is returned
 * @param why, len   receives "PATH: what is wrong" when 1 is returned
 * @return 0; -ENOENT when there is no index (no warning is due); 1 when the index is
 *         there but must be ignored (the caller warns once with @p why); -ENOMEM.
 * Thread safety: reads the file system.  Format: docs/index-format.md.
 */
int dir_index__open(const char *input, bool is_dir, size_t nr_files, size_t nr_events,
		    struct dir_index **out, char *why, size_t len);

struct dir_index_builder;

/**
 * @brief Start an index of @p nr_files files, entries of @p interval bytes (0: the
 *        default).
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__new(struct dir_index_builder **out, size_t nr_files,
			   uint64_t interval);

/**
 * @brief Describe file @p i (before its records): its name, size, mtime and data
 *        section.
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__file(struct dir_index_builder *b, size_t i, const char *name,
			    uint64_t file_size, int64_t mtime_ns, uint64_t data_offset,
			    uint64_t data_size);

/**
 * @brief Count one record of file @p file at file offset @p offset (a record inside a
 *        COMPRESSED one: the container's offset), of @p type, with timestamp
 *        @p time (UINT64_MAX: none).  Records inside containers count as records
 *        too, as `--stats` counts them; @p independent marks a container whose zstd
 *        frame stands alone.
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__record(struct dir_index_builder *b, size_t file, uint64_t offset,
			      uint32_t type, uint64_t time, bool independent);

/**
 * @brief Where a record of file @p file lies: @p on_disk false for a record that came
 *        out of compressed data (the entry holding its container then has no
 *        side-band list); a record on disk that is not a SAMPLE joins its entry's
 *        side-band list.  Call once per record, with dir_index_builder__record().
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__place(struct dir_index_builder *b, size_t file, uint64_t offset,
			     uint32_t type, bool on_disk);

/**
 * @brief Record what the reader's scan pass learnt of file @p i (the file gets
 *        DIR_INDEX_SCANNED): @p lag in ns, the file offsets where its turns start and
 *        of its immediate records (ascending; copied).
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__scan(struct dir_index_builder *b, size_t i, uint64_t lag,
			    const uint64_t *turns, size_t nr_turns, const uint64_t *imm,
			    size_t nr_imm);

/** @brief Name event @p idx and add @p nr samples to it. @return 0 or -ENOMEM. */
int dir_index_builder__event(struct dir_index_builder *b, size_t idx, const char *name,
			     uint64_t nr_samples);

/**
 * @brief Make the index (the builder is freed, also on error).
 * @return 0 or -ENOMEM.
 */
int dir_index_builder__finish(struct dir_index_builder *b, struct dir_index **out);

/** @brief Free a builder without making an index (NULL is a no-op). */
void dir_index_builder__delete(struct dir_index_builder *b);

#endif
