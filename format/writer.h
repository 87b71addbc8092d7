#ifndef DIRREPORT_FORMAT_WRITER_H
#define DIRREPORT_FORMAT_WRITER_H
/*
 * writer - writes a perf.data recording in this machine's byte order: a single
 * `perf.data` file, or a data directory (`data` with the header, attrs and features,
 * `data.0` .. `data.N-1` bare record streams), optionally with the records wrapped in
 * zstd-compressed PERF_RECORD_COMPRESSED records.
 *
 * Life cycle:
 *   writer__open()           creates the file (or `data` and `data.N` in an existing,
 *                            empty directory) and reserves the header;
 *   writer__add_event()      every event (attr + ids), before the first record;
 *   writer__set_feature()    feature bodies (any time before writer__close());
 *   writer__write()          records, stream by stream, in the order they are to be read;
 *   writer__round()          a FINISHED_ROUND (ordering barrier) now;
 *   writer__close()          flushes, writes the feature table and the final header;
 *   writer__delete()         abandons a writer (the files stay: the caller removes them).
 *
 * Streams: stream 0 is the data section of the file (of `data` in a directory);
 * stream k >= 1 is `data.(k-1)` of a directory.
 *
 * Index points: every stream is cut into chunks of about `index_bytes` of records
 * (1 MiB by default), at record boundaries, and with `rounds` a FINISHED_ROUND closes
 * every chunk of stream 0. The writer reports each chunk (file, byte offset and size,
 * first/last timestamp, record count) through the on_index callback: the per-file
 * index is built from them. Without comp_stream each chunk starts a fresh zstd frame
 * (every COMPRESSED record holds one complete frame, ZSTD_e_end), so a chunk
 * decompresses on its own; with comp_stream a chunk's COMPRESSED records need those
 * before it in the file.
 *
 * Compression as perf 6.1 `-z` writes it (docs/perf-data-format.md §6 and §2.3
 * COMPRESSED): type-81 records of at most 65527 payload bytes; the COMPRESSED feature
 * (version 0, type 1 zstd, level, ratio = round(raw / compressed), mmap_len) is added by
 * writer__close(). Two ways, writer_opts.comp_stream:
 *  - comp_stream (perf record's own): one zstd stream per file (per stream of the
 *    writer), never ended; the records waiting for compression (at most 65463 bytes of
 *    whole records) are fed to it and flushed (ZSTD_e_flush) into one COMPRESSED
 *    record, so every COMPRESSED record decodes into whole records given the ones
 *    before it, and later ones refer back to earlier data (smaller files). A reader
 *    keeps one zstd decompression stream per file, as perf 6.1 does. A write or
 *    compression error stops the stream for good (the writer's calls on it return the
 *    error again): what its zstd stream took never reached the file, so nothing
 *    written after it could be decoded; writer__salvage() keeps the records before it.
 *  - otherwise: every COMPRESSED record is a complete zstd frame of whole records of
 *    at most WRITER_COMP_CHUNK bytes (perf's single unterminated stream per file
 *    decodes the same way: a zstd stream decoder reads frames back to back); a frame
 *    that would not fit in one record is written as its plain records instead.
 * Either way a COMPRESSED record decompresses to at most WRITER_COMP_CHUNK bytes, below
 * the mmap_len we write (perf 6.1 decompresses each COMPRESSED record into a buffer of
 * mmap_len bytes and cannot grow it). Records passed with WRITER_PLAIN, and records
 * larger than what one COMPRESSED record takes, are never compressed (perf keeps its own
 * records and the synthesized ones outside COMPRESSED records).
 *
 * Writes: each stream buffers its bytes (256 KiB) and writes a full buffer with
 * pwrite(2); with writer_opts.nr_cblocks N (perf record --aio=N's control blocks), a
 * full buffer goes out through the stream's own io_uring (liburing) while the next
 * fills: up to N writes in flight per stream, N + 1 buffers. A short write goes on with
 * its rest, as pwrite(2) would; a failed one (ENOSPC, EFBIG) stops the stream as a
 * failed pwrite(2) does, reported by the next call on the stream, and the records on
 * disk before it stay whole (writer__salvage()). Where io_uring cannot be set up (a
 * kernel without it, or one that forbids it: ENOSYS, EPERM), writer__open() falls back
 * to pwrite(2) for every stream (writer__aio_fallback() says why).
 *
 * Thread safety: a writer belongs to one thread; distinct writers are independent.
 * One exception, for a recorder with a thread per group of ring buffers: once the first
 * record has gone to stream 0, distinct streams may be written (writer__write(),
 * writer__round()) by distinct threads at the same time, each stream by one thread
 * only (every stream has its own buffers, io_uring, zstd context and error; the on_index
 * callback is then called on the stream's thread). writer__close() comes after all of
 * them are done.
 * Output byte order: the host's (the flag word of each attr is stored as a host u64,
 * which is perf's layout on little-endian machines).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/attr.h"

struct diag;
struct feat_build_id;
struct feat_cache;
struct feat_cpu_topology;
struct feat_event;
struct feat_group;
struct feat_mem_node;
struct feat_numa_node;
struct feat_pmu_mapping;
struct features;
struct writer;

/** Most writes in flight per stream (perf record --aio's largest number of control
 *  blocks). */
#define WRITER_AIO_MAX 4u
/** Bytes of records between index points when writer_opts.index_bytes is 0. */
#define WRITER_INDEX_BYTES (1u << 20)
/** Largest decompressed size of one COMPRESSED record we write, in bytes. */
#define WRITER_COMP_CHUNK 65536u
/** Largest zstd payload of one COMPRESSED record (perf: PERF_SAMPLE_MAX_SIZE - 8 - 1). */
#define WRITER_COMP_PAYLOAD_MAX 65527u
/** mmap_len written in the COMPRESSED feature: WRITER_COMP_CHUNK plus a page of slack. */
#define WRITER_COMP_MMAP_LEN (WRITER_COMP_CHUNK + 4096u)

/** One chunk between two index points of a stream. */
struct writer_index_point {
	unsigned stream;	/* 0: the data section of the file (or of `data`); k: data.(k-1) */
	uint64_t offset;	/* bytes from the start of that file to the chunk's first byte */
	uint64_t size;		/* bytes the chunk takes in the file (COMPRESSED records,
				 * plain records and the closing FINISHED_ROUND) */
	uint64_t raw_bytes;	/* bytes of the chunk's records before compression */
	uint64_t nr_records;	/* records written by writer__write() (a FINISHED_ROUND
				 * added by the writer is not counted) */
	uint64_t first_time;	/* ns: smallest non-zero timestamp passed with the chunk's
				 * records, 0 when none had one */
	uint64_t last_time;	/* ns: largest timestamp, 0 when none */
};

/** Called once per finished chunk, in file order per stream; non-zero stops the write
 *  (returned by the writer__* call that ended the chunk). */
typedef int (*writer_index_fn)(void *ctx, const struct writer_index_point *p);

struct writer_opts {
	bool dir;		/* a data directory: PATH/data and PATH/data.N */
	unsigned nr_data_files;	/* dir: data.0 .. data.(nr-1), at least 1 */
	int comp_level;		/* 0: plain records; 1..22: zstd level (perf -z LEVEL) */
	bool comp_stream;	/* with comp_level: one zstd stream per file across its
				 * COMPRESSED records (perf record's); false: a frame
				 * per COMPRESSED record (see the file comment) */
	uint64_t index_bytes;	/* bytes of records per index chunk; 0 = WRITER_INDEX_BYTES */
	unsigned nr_cblocks;	/* writes in flight per stream through io_uring, 1 ..
				 * WRITER_AIO_MAX (perf --aio=N); 0: pwrite(2) */
	bool rounds;		/* a FINISHED_ROUND at the end of every chunk of stream 0
				 * (single time-ordered files; perf writes none in a
				 * directory) */
	writer_index_fn on_index;	/* optional */
	void *ctx;		/* for on_index */
};

enum writer_write_flags {
	WRITER_PLAIN = 1 << 0,	/* never inside a COMPRESSED record */
};

/**
 * @brief Create the output and reserve the header.
 * @param out   the writer (caller owns: writer__close() or writer__delete())
 * @param path  a file to create (it must not exist), or with o->dir an existing
 *              directory in which `data` and `data.0` .. `data.N-1` are created
 * @param o     shape, compression, index interval and callback (copied)
 * @param d     on error: the file and what is wrong
 * @return 0; -EINVAL (nr_data_files 0 for a directory, comp_level outside 0..22,
 *         nr_cblocks above WRITER_AIO_MAX); -EEXIST and the other -errno of open();
 *         -ENOMEM.  io_uring's failures are no error: see writer__aio_fallback().
 * Thread safety: see file comment. Format: docs/perf-data-format.md §1.1 and §3.
 */
int writer__open(struct writer **out, const char *path, const struct writer_opts *o,
		 struct diag *d);

/**
 * @brief Add an event: its attr goes to the attrs table (128 bytes, perf 6.1's VER7,
 *        unless config3 is set: then 136) and its ids to the id arrays.
 * @param attr    host order (copied)
 * @param ids     nr_ids event ids (copied); NULL when nr_ids is 0
 * @return 0; -EBUSY after the first record was written; -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §1.2 and §1.3.
 */
int writer__add_event(struct writer *w, const struct event_attr *attr, const uint64_t *ids,
		      size_t nr_ids);

/**
 * @brief Set the body of feature feat (replacing an earlier one).
 * @param body, size  the body bytes in host order (copied); size 0 is an empty flag
 *                    feature (BRANCH_STACK, STAT)
 * @return 0; -EINVAL for feat 0 or >= 256; -ENOMEM.  DIR_FORMAT and COMPRESSED are
 *         written by the writer itself (their bodies set here are replaced).
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.1, 2.3.
 */
int writer__set_feature(struct writer *w, unsigned feat, const void *body, size_t size);

/**
 * @brief Set feature feat from parsed features (re-encoded in host order): used for
 *        input of the other byte order, whose raw bodies cannot be copied.
 * @return 0; -ENOTSUP for the features this encoder does not know (see format/README.md:
 *         it keeps HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID, NRCPUS,
 *         TOTAL_MEM, CMDLINE, EVENT_DESC, BUILD_ID, SAMPLE_TIME, PMU_MAPPINGS,
 *         GROUP_DESC, CLOCKID, BRANCH_STACK, STAT and TRACING_DATA, whose blob names
 *         its own byte order); -ENOENT when f lacks it; -ENOMEM.
 * Thread safety: f is only read. Format: docs/perf-data-format.md §2.2, 2.3.
 */
int writer__encode_feature(struct writer *w, const struct features *f, unsigned feat);

/**
 * @brief Set a string feature (HOSTNAME, OSRELEASE, VERSION, ARCH, CPUDESC, CPUID):
 *        u32 length (strlen + 1 rounded up to 64 bytes), the string, zero padding.
 * @param s  NUL-terminated (copied); NULL is stored as the empty string
 * @return 0; -EINVAL for feat 0 or >= 256; -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.2, 2.3.
 */
int writer__set_string_feature(struct writer *w, unsigned feat, const char *s);

/**
 * @brief Set a string-list feature (CMDLINE): u32 count, then each string as
 *        writer__set_string_feature() stores one.
 * @param s, nr  nr NUL-terminated strings (copied)
 * @return 0; -EINVAL (feat 0 or >= 256, nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.2, 2.3.
 */
int writer__set_strings_feature(struct writer *w, unsigned feat, const char *const *s,
				size_t nr);

/**
 * @brief Set EVENT_DESC: u32 nr, u32 attr size (128), then per event its attr (128
 *        bytes, host order), u32 number of ids, its name as a string, its ids (u64).
 *        The attr, name, ids and nr_ids of each entry are used (the rest is ignored).
 * @param ev, nr  the events in the order of the attrs table (copied)
 * @return 0; -EINVAL (nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 EVENT_DESC.
 */
int writer__set_event_desc(struct writer *w, const struct feat_event *ev, size_t nr);

/**
 * @brief Set GROUP_DESC: u32 number of groups, then per group its name as a string
 *        (perf writes "{anon_group}" for a group without one), u32 the index of its
 *        leader in the attrs table, u32 its number of events.
 * @param g, nr  the groups of more than one event, in leader order (copied)
 * @return 0; -EINVAL (nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 GROUP_DESC.
 */
int writer__set_group_desc(struct writer *w, const struct feat_group *g, size_t nr);

/**
 * @brief Set PMU_MAPPINGS: u32 number of PMUs, then per PMU u32 its attr.type and its
 *        name as a string.
 * @param m, nr  the PMUs, in the order perf lists them (copied)
 * @return 0; -EINVAL (nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 PMU_MAPPINGS.
 */
int writer__set_pmu_mappings(struct writer *w, const struct feat_pmu_mapping *m, size_t nr);

/**
 * @brief Set CPU_TOPOLOGY: the package (socket) cpu lists, the core (thread sibling)
 *        cpu lists, per cpu u32 core id and u32 socket id, and where t->has_dies
 *        the die cpu lists and per cpu u32 die id, as perf record 6.1 writes them.
 * @param t  the lists and t->nr_cpus cpus (NRCPUS' nr_cpus_avail; copied); the
 *           per-cpu parts are written where t->has_cpus
 * @return 0; -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 CPU_TOPOLOGY.
 */
int writer__set_cpu_topology(struct writer *w, const struct feat_cpu_topology *t);

/**
 * @brief Set NUMA_TOPOLOGY: u32 number of nodes, then per node u32 its number, u64
 *        total and u64 free memory in kB and its cpu list (n[i].cpus).
 * @param n, nr  the nodes (copied)
 * @return 0; -EINVAL (nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 NUMA_TOPOLOGY.
 */
int writer__set_numa_topology(struct writer *w, const struct feat_numa_node *n, size_t nr);

/**
 * @brief Set CACHE (version 1): u32 1, u32 number of caches, then per cache u32 level,
 *        line size in bytes, sets and ways, and its type, size and shared cpu list as
 *        strings.
 * @param c, nr  the caches in the order perf prints them (copied)
 * @return 0; -EINVAL (nr above 2^32 - 1); -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 CACHE.
 */
int writer__set_caches(struct writer *w, const struct feat_cache *c, size_t nr);

/**
 * @brief Set MEM_TOPOLOGY (version 1): u64 1, u64 the memory block size in bytes, u64
 *        number of nodes, then per node u64 node, u64 size (perf writes the bitmap's
 *        bits), u64 bits and the bitmap's u64 words.
 * @param block_size  bytes
 * @param n, nr  the nodes (copied)
 * @return 0; -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 MEM_TOPOLOGY.
 */
int writer__set_mem_topology(struct writer *w, uint64_t block_size,
			     const struct feat_mem_node *n, size_t nr);

/**
 * @brief Set BUILD_ID: per entry a 36-byte header (u32 type 0, u16 misc with bit 15
 *        "size valid" added, u16 entry size, s32 pid, 20 bytes of build-id, u8 its
 *        length, 3 zero bytes) and the file name zero padded to a multiple of 64
 *        bytes (one NUL at least), as perf record writes it.  The pid, misc,
 *        build_id, size and filename of each entry are used; an entry whose file name
 *        would make it larger than 65535 bytes is left out (perf cannot store it
 *        either).
 * @param ids, nr  the entries (copied); nr 0 writes an empty table
 * @return 0; -ENOMEM.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §2.3 BUILD_ID.
 */
int writer__set_build_ids(struct writer *w, const struct feat_build_id *ids, size_t nr);

/**
 * @brief Write what a stream holds (records waiting for compression, the output
 *        buffer) to its file now, and with nr_cblocks wait for its writes in flight.
 * @return 0; -EINVAL (bad stream); -errno of write() or of an asynchronous write
 *         (d set at close); -DIAG_ZSTD;
 *         after an earlier write or compression error of the stream: that error.
 * Thread safety: see file comment.
 */
int writer__flush(struct writer *w, unsigned stream);

/**
 * @brief Reserve @p bytes of disk space past the end of a stream's file (its size
 *        unchanged): what is written there later cannot fail for want of space, as a
 *        directory's `data` file's closing records and features at writer__salvage().
 * @return 0; -errno of fallocate() (-EOPNOTSUPP where the file system has none).
 * Thread safety: see file comment.
 */
int writer__reserve(struct writer *w, unsigned stream, size_t bytes);

/**
 * @brief Finish a recording whose writes failed (a full disk): each file cut back to
 *        the last whole record on disk (records buffered or waiting for compression
 *        are lost), the feature sections written where there is room for them (else
 *        only DIR_FORMAT, else none), and the header; the files are kept and w is
 *        freed.  A reader then takes the records up to where the disk filled.
 * @return 0; -ENOSPC and the like (d set: no header could be written, or nothing
 *         whole was written yet); the files are left for the caller to remove.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §1.
 */
int writer__salvage(struct writer *w, struct diag *d);

/**
 * @brief Append one record to a stream.
 * @param stream  0, or 1..nr_data_files for data.(stream-1) of a directory
 * @param rec     the record in host order; its 8-byte header's size may be smaller
 *                than size when a payload follows it (AUXTRACE, HEADER_TRACING_DATA)
 * @param size    bytes to write (>= 8 and >= header.size)
 * @param time    the record's timestamp in ns (0: none), for the index only
 * @param flags   WRITER_PLAIN
 * @return 0; -EINVAL (bad stream, size); -errno of write() or of an earlier
 *         asynchronous write (nr_cblocks; d set at close);
 *         -ENOMEM; -DIAG_ZSTD (the compressor failed); the on_index callback's value;
 *         after an earlier write or compression error of the stream: that error (the
 *         record is not taken).
 * Thread safety: see file comment. Format: docs/perf-data-format.md §4, §6.
 */
int writer__write(struct writer *w, unsigned stream, const void *rec, size_t size,
		  uint64_t time, unsigned flags);

/**
 * @brief Whether writer__write_direct() may write to the stream: the data section has
 *        started, the stream is not compressed nor written through io_uring, and has
 *        not failed.
 * Thread safety: the stream's thread.
 */
bool writer__direct(const struct writer *w, unsigned stream);

/**
 * @brief Whole records appended to a stream from the caller's memory (a ring buffer's,
 *        as perf record writes them), n1 bytes at p1 then n2 at p2, written now in one
 *        pwritev() with what the stream's buffer holds: no copy.  They count for the
 *        index as nr_records records of n1 + n2 bytes with timestamps first_time to
 *        last_time (0: none), as writer__write() of each would.
 * @return 0; -EINVAL (bad stream, not writer__direct()); -errno of the write; the
 *         on_index callback's value; after an earlier error of the stream: that error.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §4, §6.
 */
int writer__write_direct(struct writer *w, unsigned stream, const void *p1, size_t n1,
			 const void *p2, size_t n2, uint64_t nr_records, uint64_t first_time,
			 uint64_t last_time);

/**
 * @brief Append a FINISHED_ROUND record to a stream now (after the compressed data
 *        pending before it). Two in a row with nothing between them make perf 6.1's
 *        ordered-events queue deliver everything queued so far (§7.2: the first round
 *        moves the flush limit to the largest timestamp seen).
 * @return as writer__write().
 * Thread safety: see file comment. Format: docs/perf-data-format.md §4.4, §7.2.
 */
int writer__round(struct writer *w, unsigned stream);

/**
 * @brief Finish: flush every stream, report the last chunks, write the feature table
 *        and bodies after the data section, then the final header; close the files and
 *        free the writer (also on error).  A data section left empty gets one
 *        FINISHED_ROUND (perf reads data.size 0 as an unfinished recording).
 * @param d  on error: the file and what is wrong
 * @return 0; -errno of write()/pwrite()/close(); the on_index callback's value.
 * Thread safety: see file comment. Format: docs/perf-data-format.md §1.1, §2.1
 *         (feature table at data.offset + data.size, bodies back to back in bit order).
 */
int writer__close(struct writer *w, struct diag *d);

/** @brief Abandon a writer: close its files (left as they are) and free it. NULL is a
 *  no-op. */
void writer__delete(struct writer *w);

/**
 * @brief Bytes of records that went into COMPRESSED records so far, and the bytes of
 *        those COMPRESSED records (headers included), over all streams: the sizes
 *        perf record's closing line prints with -z ("original" and written).
 * @param in, out  set (0 and 0 without compression)
 * Thread safety: the writer's thread, while no other thread writes a stream.
 * Format: docs/perf-data-format.md §2.3 COMPRESSED (the ratio is in / out).
 */
void writer__comp_bytes(const struct writer *w, uint64_t *in, uint64_t *out);

/**
 * @brief The diagnostic of stream's last write error (the file and offset), else the
 *        writer's own (writer__diag()'s first choice).
 * Thread safety: the stream's thread, while other threads write other streams.
 * Format: none.
 */
const struct diag *writer__stream_diag(const struct writer *w, unsigned stream);

/**
 * @brief Whether writer_opts.nr_cblocks' asynchronous writes fell back to pwrite(2).
 * @return 0: io_uring writes (or none asked for); else the -errno of
 *         io_uring_queue_init() (-ENOSYS: no io_uring in this kernel; -EPERM: it is
 *         disabled (kernel.io_uring_disabled) or filtered (seccomp); -ENOMEM), every
 *         stream then written with pwrite(2).
 * Thread safety: any thread (set by writer__open() only). Format: none.
 */
int writer__aio_fallback(const struct writer *w);

/** @brief The last error's diagnostic (write failures name the file and offset). */
const struct diag *writer__diag(const struct writer *w);

#endif
