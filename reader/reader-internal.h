#ifndef DIRREPORT_READER_READER_INTERNAL_H
#define DIRREPORT_READER_READER_INTERNAL_H
#ifndef DIRREPORT_IN_READER
#error "reader-internal.h is private to reader/"
#endif
/*
 * One reader per file of a recording. A reader owns its reader_state (mapping, position,
 * zstd stream) and the records it decoded; session-load.c runs readers in parallel (each
 * on one worker at a time), session-deliver.c merges their records in perf's order
 * (ordered.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <zstd.h>

#include "format/diag.h"
#include "format/evlist.h"
#include "reader/session.h"

/* Stable storage for decompressed or byte-swapped records: pointers never move. */
struct arena_chunk {
	struct arena_chunk *next;
	size_t used, cap;
	unsigned char data[];
};

struct arena {
	struct arena_chunk *head;	/* owned list, newest first */
};

void *arena__alloc(struct arena *a, size_t size);
void arena__exit(struct arena *a);

/* Pipe-mode feature bodies seen in HEADER_FEATURE records. */
struct pipe_feature {
	const unsigned char *body;	/* borrowed from the reader's storage */
	size_t size;
	uint64_t offset;
};

struct reader_state {
	const unsigned char *map;	/* whole file (mmap) or the pipe's bytes; owned */
	size_t map_len;			/* bytes mapped */
	bool map_is_malloc;		/* pipe input read into memory */
	uint64_t start, pos, end;	/* first, current and end offset in map */
	uint64_t released;		/* map bytes below this were given back to the
					 * kernel (MADV_DONTNEED): the mapping window */
	uint64_t populated;		/* map bytes below this have their page tables
					 * filled (MADV_POPULATE_READ) */
	uint64_t label_base;		/* subtracted from offsets for printing (pipe: 16) */
	int guard;			/* mapguard slot + 1 of a file mapping, 0: none */
	ZSTD_DStream *zstd;		/* owned, created at the first COMPRESSED record */
	unsigned char *dbuf;		/* decompressed bytes not yet split into records */
	size_t dbuf_len, dbuf_cap;
	/* reader__read_start(): the records read with pread() into a small buffer
	 * instead of from the mapping (rbuf NULL: from the mapping) */
	int fd;				/* owned while rbuf is set */
	bool paused;			/* reader__read_pause(): from the mapping now */
	unsigned char *rbuf;		/* owned: READ_BUF bytes, the file's from rbuf_off */
	uint64_t rbuf_off;
	size_t rbuf_len;
	uint64_t rbuf_read;		/* bytes read into it, in all (never reset) */
};

struct reader {
	char *label;			/* owned: what -D prints as the path */
	char *fspath;			/* owned: path to open */
	uint16_t index;			/* file index in the session */
	bool swap;			/* cross-endian file */
	bool is_pipe;
	bool cut_is_warning;		/* a record cut at `end` is a truncation, not damage */
	bool rewound;			/* read before: pipe header records were applied */
	bool scanned;			/* a whole pass validated every record and warned
					 * of a cut (the scan pass); later passes skip both */
	bool cut_warned;		/* the file was reported cut short already */
	struct reader_state st;
	struct evlist *evlist;		/* borrowed; mutated only by a pipe reader */
	struct record_ref *recs;	/* owned: the current window, in file order */
	size_t nr, cap;
	size_t recs_mapped;		/* bytes mapped at recs (util/hugemem.h: a
					 * window's array is megabytes), 0: malloc()ed */
	uint64_t base;			/* ordinal of recs[0] in the file */
	struct arena arena;
	struct pipe_feature pipe_feat[FEAT_BITS];
	bool has_rounds;		/* a FINISHED_ROUND was read */
	/* Streaming (directories): what the scan pass keeps of this file. */
	struct record_ref *imm;		/* owned: its immediate records, file order */
	uint64_t *imm_ordinal;		/* owned: their ordinals in the file */
	size_t nr_imm, cap_imm, cap_imm_ordinal;
	struct arena imm_arena;		/* copies of immediate records not in the map */
	uint64_t *turn_start;		/* owned: ordinal where each round-robin turn
					 * starts ([0] = 0) */
	size_t nr_turns, cap_turns;
	uint64_t *turn_off;		/* owned: the file offset of each turn's first
					 * record (the index's) */
	size_t cap_turn_off;
	bool off_disk;			/* a record came out of compressed data */
	uint64_t lag;			/* ns: how far a queued record trails the newest
					 * queued record before it (0 = time-sorted) */
	uint64_t nr_records;		/* records in the file */
	struct diag diag;		/* the error, when err != 0 */
	int err;
	char *warning;			/* owned, or NULL */
};

/** The most bytes of a stream reader__map() spools (DIRREPORT_SPOOL_MAX overrides it):
 *  64 GiB, past which an endless stream is an error (-EFBIG), not a full disk. */
#define SPOOL_MAX_DEFAULT ((uint64_t)64 << 30)

/**
 * Map the file (regular), or with slurp (standard input, a FIFO) copy it to an
 * unnamed temporary file in $TMPDIR or /tmp and map that (a regular file on standard
 * input is mapped directly); only when no temporary file can be made is the input read
 * into memory (st.map_is_malloc).  A stream's first 8 bytes are checked before any is
 * spooled: -DIAG_NOT_PERF when they are not perf's magic; one longer than
 * DIRREPORT_SPOOL_MAX (SPOOL_MAX_DEFAULT) bytes is -EFBIG.  Fills st.map / st.map_len.
 * Returns 0 or -errno (of reading, of writing the temporary file: -ENOSPC, or of mmap).
 */
int reader__map(struct reader *r, int fd, bool slurp);

/**
 * Whether r's file changed under its mapping: a page of it read past the file's end
 * (reader/mapguard.h) or, where @p stat_too, the file now shorter than mapped.  Then
 * r->err and r->diag say "changed while being read" at the offset (-DIAG_CHANGED)
 * and that is returned; 0 otherwise (r->err as it was).
 */
int reader__changed(struct reader *r, bool stat_too);

/** Decode [st.pos, st.end): fills recs; sets err/diag or warning. */
int reader__run(struct reader *r);

/**
 * Read the records of the passes to come with pread() from @p fd through a buffer of
 * READ_BUF_SIZE (120 KiB) that stays in cache, instead of from the mapping: for a
 * pass that keeps no record past its window (the scan pass), each byte is read once.
 * On the virtual machine we measure on, touching the mapped pages of a 62 MB
 * recording took 31-42 ms, reading it through the buffer 6-8 ms.  A fill then stops
 * where its records would no longer fit in the buffer (a fill's records point into
 * it, until reader__recycle()), so it may return fewer than `limit` records before
 * the end; a record larger than the buffer (an AUXTRACE payload) is read from the
 * mapping, and so is everything after it.
 * Returns 0 (the reader owns fd and closes it) or -ENOMEM (fd still the caller's).
 */
int reader__read_start(struct reader *r, int fd);

/** Read from the mapping while @p on (records read at scattered offsets, each fill
 *  adding one: an index's immediate records), through the buffer again after. */
void reader__read_pause(struct reader *r, bool on);

/** The @p n bytes at file offset @p off (n <= st.end - off, at most 64 KiB) of a reader
 *  that holds no records: in the mapping, or in its read buffer (read again from off
 *  when they are not in it; valid until the next read).  NULL when pread() fails. */
const unsigned char *reader__peek(struct reader *r, uint64_t off, uint64_t n);

/** Back to the mapping for the passes to come: the buffer freed, the fd closed (no-op
 *  without reader__read_start()). */
void reader__read_stop(struct reader *r);

/** Decode on from st.pos until recs holds `limit` records (a compressed container may
 *  add more) or the stream ends - or, reading through a buffer (reader__read_start()),
 *  until the next record is not in it.  0 or the error (also in r->err / r->diag). */
int reader__fill(struct reader *r, size_t limit);

/** End the window: recs emptied (base advances), window storage freed. Records handed
 *  out from it (and their decompressed bytes) are invalid afterwards. */
void reader__recycle(struct reader *r);

/** The caller no longer needs mapped bytes below offset: release their pages. */
void reader__release_below(struct reader *r, uint64_t offset);

/** Back to the start of the stream, for a second pass. 0 or -ENOMEM. */
int reader__rewind(struct reader *r);

void reader__exit(struct reader *r);

/**
 * A reader of the records in [from, to) of @p r's mapping (record boundaries), for a
 * scan pass split among workers (session-load.c): it borrows r's mapping, names and
 * events (r must outlive it and not move), counts ordinals from 0 and owns only
 * its window and what its scan keeps.  @p last: the part that ends the file (a
 * record cut short there is r's warning, not damage, as r says).
 */
void reader__init_part(struct reader *part, const struct reader *r, uint64_t from,
		       uint64_t to, bool last);

/**
 * The bytes on disk (size and trailing payload) of the record of r's file whose bytes
 * start at @p p, @p left bytes before the end of the section (of which @p p holds at
 * least 16, or all when fewer), into *span: what reader__fill() reads of its header
 * (r does not change).
 * @return 0; 1 for a compressed record (its records are split as it is decompressed,
 *         in order: a split scan cannot start after it); -1 when no whole record
 *         starts there (reader__fill() says why).
 */
int reader__record_span(const struct reader *r, const unsigned char *p, uint64_t left,
			uint64_t *span);

/** Free what a part (reader__init_part()) owns; r's mapping stays. */
void reader__exit_part(struct reader *part);

#endif
