#ifndef DIRREPORT_RECORD_SNAPSHOT_H
#define DIRREPORT_RECORD_SNAPSHOT_H
/*
 * snapshot - the newest records of one ring buffer kept in user memory, for snapshot
 * mode (-M SIZE / --snapshot-size=SIZE): records read from the ring go in; when a new
 * record does not fit, the oldest whole records are let go until it does; nothing is
 * written until the recorder drains the snapshot (on SIGUSR2), oldest record first.
 * What is kept is always the longest run of the newest records that fits in SIZE bytes,
 * a record larger than SIZE left out (it is never kept, and the older records stay).
 *
 * Format: records as in record/ring.h (struct perf_event_header first, its size field
 * the record's length, 8 to 65535 bytes). The design follows the `-M` snapshot patch
 * proposed for perf record on LKML in 2015 (user-space copies of each buffer's newest
 * data, written on a signal).
 *
 * Thread safety: one thread at a time per snapshot (the thread that reads its ring).
 */
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

struct snapshot {
	unsigned char *buf;		/* cap bytes, used as a circle (owned) */
	size_t cap;			/* bytes */
	size_t head;			/* offset in buf of the oldest kept record */
	size_t len;			/* bytes kept */
	size_t nr;			/* records kept */
	unsigned char *bounce;		/* 65535 bytes: a kept record that wraps (owned) */
	uint64_t dropped_records;	/* let go to make room, or larger than cap */
	uint64_t dropped_bytes;		/* their bytes */
};

/**
 * @brief Make an empty snapshot of cap bytes.
 * @param cap  bytes to keep (SIZE of -M), >= 8
 * @return 0; -EINVAL (cap below 8); -ENOMEM.
 * Thread safety: s is the caller's.
 */
int snapshot__init(struct snapshot *s, size_t cap);

/** @brief Free what s owns. A zeroed struct, or one freed already, is a no-op. */
void snapshot__exit(struct snapshot *s);

/**
 * @brief Keep a copy of one record, letting the oldest kept records go until it fits.
 * @param rec   the whole record (header first); copied
 * @param size  bytes; must equal the header's size field
 * @return 0 (also when the record is larger than the whole snapshot: it is counted in
 *         dropped_records and dropped_bytes and not kept); -EINVAL (size below 8 or not
 *         the header's size).
 * Format: the record's length is its perf_event_header's size field (record/ring.h).
 * Thread safety: the thread that owns s.
 */
int snapshot__add(struct snapshot *s, const void *rec, size_t size);

/**
 * Called once per kept record by snapshot__drain(), oldest first.
 * @param rec   the whole record, valid until the callback returns; the callback must
 *              not add to the snapshot
 * @return 0 to go on; non-zero stops the drain.
 */
typedef int (*snapshot_record_fn)(void *ctx, const void *rec, size_t size);

/**
 * @brief Hand every kept record to fn, oldest first, and let each go once handed: after
 *        a full drain the snapshot is empty and goes on keeping what comes next.
 * @return 0; fn's non-zero value (the record it was handed is gone, the later ones
 *         stay for the next drain).
 * Thread safety: the thread that owns s (a signal handler only sets a flag; the
 *         recorder's thread drains).
 */
int snapshot__drain(struct snapshot *s, snapshot_record_fn fn, void *ctx);

#endif
