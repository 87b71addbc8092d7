#ifndef DIRREPORT_RECORD_RING_H
#define DIRREPORT_RECORD_RING_H
/*
 * ring - reading one perf_event ring buffer in user space (the kernel writes forward):
 * every complete record the kernel has published between our tail and its head, in
 * order, each handed out whole, then the tail given back to the kernel.
 *
 * Format: include/uapi/linux/perf_event.h, struct perf_event_mmap_page and its comment
 * on data_head: the first page of the mapping is that struct; the data area starts at
 * data_offset and is data_size bytes, a power of two (kernels before 4.1 leave both 0:
 * the area is then the rest of the mapping after one page). The kernel writes records
 * at data_head and publishes data_head only after whole records; user space reads
 * data_head with acquire ordering (the kernel's smp_rmb() pairing), consumes the
 * records, then stores data_tail with release ordering so that the kernel does not
 * overwrite them before they are read. Positions only grow; a position's byte is at
 * (position & (data_size - 1)). A record is a struct perf_event_header (u32 type,
 * u16 misc, u16 size) and is size bytes in all (8 to 65535), so a record wraps around
 * the end of the area at most once. perf's tools/lib/perf/mmap.c reads the same way
 * (perf_mmap__read_head(), perf_mmap__write_tail()).
 *
 * Thread safety: one reader per ring; the kernel is the only writer.
 */
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

struct diag;

/** One ring buffer as mapped from a perf_event file descriptor (or made by a test). */
struct ring {
	void *page;		/* struct perf_event_mmap_page (the mapping's first page; borrowed) */
	unsigned char *data;	/* the data area (borrowed) */
	uint64_t size;		/* bytes of the data area, a power of two */
	uint64_t tail;		/* next position to read (bytes since the buffer was made) */
	unsigned char *bounce;	/* 65535 bytes: a record that wraps, made whole (owned) */
	const char *label;	/* names the ring in errors, e.g. "cpu 3" (borrowed) */
};

/**
 * @brief Start reading a mapped ring buffer from the tail the page holds (0 for a fresh
 *        mapping).
 * @param r            filled; ring__exit() frees what it owns
 * @param page         the mapping's first page (struct perf_event_mmap_page)
 * @param data_offset  bytes from page to the data area (the page's data_offset, or the
 *                     page size where that is 0)
 * @param data_size    bytes of the data area (the page's data_size, or the mapping's
 *                     length less one page where that is 0); a power of two, >= 8
 * @param label        names the ring in errors (borrowed: must outlive r)
 * @return 0; -EINVAL (data_size not a power of two or below 8, or page NULL); -ENOMEM.
 * Thread safety: r is the caller's.
 */
int ring__init(struct ring *r, void *page, uint64_t data_offset, uint64_t data_size,
	       const char *label);

/** @brief Free what r owns (not the mapping). A zeroed struct, or one freed already, is
 *  a no-op. Thread safety: r is the caller's. */
void ring__exit(struct ring *r);

/**
 * Called once per record, oldest first.
 * @param rec   the whole record (header first), in the ring or in the bounce buffer:
 *              valid until the callback returns
 * @param size  bytes (the header's size)
 * @return 0 to go on; non-zero stops ring__read(), which returns it.
 */
typedef int (*ring_record_fn)(void *ctx, const void *rec, size_t size);

/**
 * @brief Hand every record between the tail and the kernel's current head to fn, then
 *        store the new tail in the page (the space goes back to the kernel).
 * @param bytes  if not NULL: set to the bytes consumed by this call
 * @param d      filled on error: path = the label, offset = the ring position of the
 *               bad record
 * @return 0; fn's non-zero value (the record it was handed counts as read, later ones
 *         stay for the next call); -DIAG_RECORD_SIZE (a header's size below 8 or past
 *         the head: the ring is damaged; the tail stays before that record);
 *         -DIAG_BAD_RECORD (the head is more than the area's size ahead of the tail,
 *         or behind it).
 * Thread safety: the reader's thread; the kernel may write meanwhile.
 */
int ring__read(struct ring *r, ring_record_fn fn, void *ctx, uint64_t *bytes,
	       struct diag *d);

/**
 * Called once per ring__read_span() that read records, before the tail goes back to
 * the kernel: the bytes of the records read (those fn took, not one it failed), in the
 * ring itself, n1 bytes at p1 then n2 at p2 (the area's start, where they wrap; else
 * n2 is 0).
 * @return 0; non-zero: ring__read_span() returns it (the records count as read).
 */
typedef int (*ring_span_fn)(void *ctx, const void *p1, size_t n1, const void *p2,
			    size_t n2);

/**
 * @brief ring__read(), then span(span_ctx, ...) with the bytes of the records read
 *        while they are still in the ring (perf writes them from there: no copy).
 * @return as ring__read(); span's non-zero value (when fn and the ring had none).
 * Thread safety: the reader's thread; the kernel may write meanwhile.
 */
int ring__read_span(struct ring *r, ring_record_fn fn, void *ctx, ring_span_fn span,
		    void *span_ctx, uint64_t *bytes, struct diag *d);

#endif
