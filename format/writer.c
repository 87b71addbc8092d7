/*
 * writer - perf.data files and data directories (see writer.h).
 */
#include "format/writer.h"

#include <errno.h>
#include <fcntl.h>	/* open, fallocate */
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, realloc */
#include <string.h>	/* memcpy, memset, strerror */
#include <sys/stat.h>	/* fstat */
#include <sys/uio.h>	/* pwritev */
#include <unistd.h>	/* pwrite, close */
#include <liburing.h>	/* io_uring_queue_init, io_uring_prep_write, io_uring_wait_cqe */
#include <zstd.h>
#include <zstd_errors.h>	/* ZSTD_getErrorCode, ZSTD_error_dstSize_tooSmall */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/header.h"
#include "format/record.h"
#include "banned.h"

#define OBUF_SIZE (256u << 10)	/* bytes buffered per file before write() */
/* A stream's records compressed by one flush: few enough that the flush (block
 * headers, the frame header at the first) fits one COMPRESSED record's payload */
#define COMP_STREAM_IN_MAX (WRITER_COMP_PAYLOAD_MAX - 64u)

/* One output buffer of a stream; with nr_cblocks, perf's aio control block: its
 * write goes out through the stream's io_uring while the next buffer fills. */
enum wbuf_state {
	WBUF_FREE,		/* the one being filled, or unused */
	WBUF_INFLIGHT,		/* its write submitted, not yet completed */
	WBUF_DONE,		/* on disk, a buffer before it still in flight */
	WBUF_FAILED,		/* its write failed: its bytes are not on disk */
};

struct wbuf {
	unsigned char *p;	/* owned, OBUF_SIZE */
	enum wbuf_state state;
	uint64_t off;		/* file offset of p[0] (bytes), once submitted */
	size_t len;		/* bytes to write */
	size_t done;		/* bytes written so far (a short write goes on) */
	uint64_t rec_end;	/* the stream's rec_end when submitted: whole records
				 * up to it once it and those before it are on disk */
};

struct wstream {
	int fd;
	char path[PATH_MAX];
	uint64_t off;		/* bytes of the file so far, buffered ones included */
	unsigned char *obuf;	/* borrowed: bufs[cur].p */
	size_t olen;
	struct wbuf *bufs;	/* owned, nr_bufs: 1, or nr_cblocks + 1 with a ring */
	unsigned nr_bufs, cur;
	unsigned *queue;	/* owned, nr_bufs: buffers submitted, oldest first */
	unsigned q_head, q_len;
	struct io_uring *ring;	/* owned; NULL: pwrite() */
	int ring_err;		/* the first error of the ring's writes since aio_reset() */
	unsigned nr_inflight;	/* writes submitted, not yet reaped */
	bool ring_broken;	/* a submission or a wait failed: the ring is not used */
	unsigned char *cbuf;	/* owned, WRITER_COMP_CHUNK: records waiting for zstd */
	size_t clen;
	/* the chunk being written (index point) */
	uint64_t chunk_off, chunk_raw, chunk_nr, chunk_first, chunk_last;
	/* compression state of its own, so that distinct streams may be written by
	 * distinct threads */
	ZSTD_CCtx *cctx;	/* owned, when compressing */
	unsigned char *zbuf;	/* owned, 8 + WRITER_COMP_PAYLOAD_MAX */
	uint64_t comp_in, comp_out;	/* bytes into and out of compressed records */
	uint64_t rec_end;	/* off after the last whole record put */
	uint64_t safe;		/* bytes on disk that end with a whole record (the
				 * rec_end of the last flush): writer__salvage()
				 * cuts the file there */
	int failed;		/* the first write or compression error: the stream
				 * takes no more records (with comp_stream, its zstd
				 * stream holds what never reached the file) */
	struct diag diag;	/* its write errors */
};

struct wevent {
	struct event_attr attr;
	uint64_t *ids;		/* owned */
	size_t nr_ids;
};

struct wfeat {
	unsigned char *body;	/* owned; NULL with size 0 for flag features */
	size_t size;
	bool set;
};

struct writer {
	struct writer_opts o;
	struct wstream *st;	/* owned, nr_st */
	unsigned nr_st;
	struct wevent *ev;	/* owned, nr_ev */
	size_t nr_ev;
	struct wfeat feat[FEAT_BITS];
	uint64_t data_offset;	/* of stream 0 in its file */
	bool started;		/* a record was written: the events are fixed */
	int aio_fallback;	/* -errno of io_uring_queue_init(): plain writes */
	struct diag diag;
};

/* A write error of s at file offset `at` (bytes): s stops (s->failed), its diag says
 * where. */
static int io_fail_at(struct wstream *s, uint64_t at, int err, const char *what)
{
	if (!s->failed)
		s->failed = err;
	if (!s->ring_err)
		s->ring_err = err;
	return diag__set(&s->diag, s->path, at, err, "%s: %s", what, strerror(-err));
}

static int io_fail(struct writer *w, struct wstream *s, int err, const char *what)
{
	(void)w;
	return io_fail_at(s, s->off, err, what);
}

/* n bytes of p at file offset off, now (pwrite(): a write that failed halfway leaves
 * no file position for the next one, writer__salvage()'s, to trust). */
static int write_sync(struct wstream *s, const unsigned char *p, size_t n, uint64_t off)
{
	size_t done = 0;

	while (done < n) {
		ssize_t k = pwrite(s->fd, p + done, n - done, (off_t)(off + done));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return io_fail_at(s, off + done, k < 0 ? -errno : -EIO, "write");
		done += (size_t)k;
	}
	return 0;
}

/* --- asynchronous writes (nr_cblocks): a ring per stream, used by its thread ----------- */

/* The ring cannot be trusted any more (a submission or a wait failed: cannot be but
 * for the kernel's memory): the stream fails, nothing more is submitted or waited
 * for. */
static int aio_broken(struct wstream *s, int err, const char *what)
{
	s->ring_broken = true;
	return io_fail_at(s, s->safe, err, what);
}

/* b's write (what is left of it) submitted. */
static int aio_submit(struct wstream *s, struct wbuf *b)
{
	struct io_uring_sqe *sqe;
	int n;

	if (s->ring_broken)
		return s->ring_err;
	/* at most nr_cblocks in flight, the ring has room for as many */
	sqe = io_uring_get_sqe(s->ring);
	if (!sqe)
		return aio_broken(s, -EBUSY, "io_uring");
	io_uring_prep_write(sqe, s->fd, b->p + b->done, (unsigned)(b->len - b->done),
			    b->off + b->done);
	io_uring_sqe_set_data(sqe, b);
	while ((n = io_uring_submit(s->ring)) == -EINTR)
		;
	if (n != 1)
		return aio_broken(s, n < 0 ? n : -EIO, "io_uring");
	b->state = WBUF_INFLIGHT;
	s->nr_inflight++;
	return 0;
}

/* The buffers written, oldest first, given back; safe moves past their records. */
static void aio_retire(struct wstream *s)
{
	while (s->q_len && s->bufs[s->queue[s->q_head]].state == WBUF_DONE) {
		struct wbuf *b = &s->bufs[s->queue[s->q_head]];

		s->safe = b->rec_end;
		b->state = WBUF_FREE;
		s->q_head = (s->q_head + 1) % s->nr_bufs;
		s->q_len--;
	}
}

/* One completion (waiting for it with `wait`): its buffer written, or the rest of a
 * short write submitted again (as pwrite() goes on), or the stream failed.
 * 0: one reaped (s->ring_err says whether it failed); 1: none (not waiting, none
 * there; or the ring is broken). */
static int aio_reap(struct wstream *s, bool wait)
{
	struct io_uring_cqe *cqe;
	struct wbuf *b;
	int res, err;

	if (s->ring_broken || !s->nr_inflight)
		return 1;
	do
		err = wait ? io_uring_wait_cqe(s->ring, &cqe) : io_uring_peek_cqe(s->ring, &cqe);
	while (err == -EINTR);
	if (err == -EAGAIN && !wait)
		return 1;
	if (err) {
		(void)aio_broken(s, err, "io_uring");
		return 1;
	}
	b = io_uring_cqe_get_data(cqe);
	res = cqe->res;
	io_uring_cqe_seen(s->ring, cqe);
	s->nr_inflight--;
	if (res > 0)
		b->done += (size_t)res;
	if (res == -EINTR || res == -EAGAIN || (res > 0 && b->done < b->len))
		err = aio_submit(s, b);
	else if (res <= 0)
		err = res < 0 ? res : -EIO;
	if (err) {
		b->state = WBUF_FAILED;
		(void)io_fail_at(s, b->off + b->done, err, "write");
	} else if (b->done == b->len) {
		b->state = WBUF_DONE;
		aio_retire(s);
	}
	return 0;
}

/* Every write in flight completed (or the ring broken); the ring's first error. */
static int aio_drain(struct wstream *s)
{
	while (aio_reap(s, true) == 0)
		;
	return s->ring_err;
}

/* After an error or a salvage, nothing in flight: every buffer free, bufs[0] the one
 * filled, the queue empty. */
static void aio_reset(struct wstream *s)
{
	s->ring_err = 0;
	for (unsigned i = 0; i < s->nr_bufs; i++)
		s->bufs[i].state = WBUF_FREE;
	s->q_head = s->q_len = 0;
	s->cur = 0;
	s->obuf = s->bufs[0].p;
}

/* obuf's bytes submitted (once fewer than nr_cblocks writes are in flight); with
 * `next`, a free buffer (waiting for one) becomes obuf.  After an error nothing is in
 * flight (the ring drained). */
static int aio_flush(struct wstream *s, bool next)
{
	struct wbuf *b = &s->bufs[s->cur];

	if (s->olen && !s->ring_err) {
		while (s->nr_inflight >= s->nr_bufs - 1 && aio_reap(s, true) == 0)
			;
		*b = (struct wbuf){ .p = b->p, .off = s->off - s->olen, .len = s->olen,
				    .rec_end = s->rec_end };
		s->queue[(s->q_head + s->q_len) % s->nr_bufs] = s->cur;
		s->q_len++;
		s->olen = 0;
		if (s->ring_err || aio_submit(s, b))
			b->state = WBUF_FAILED;
	}
	while (!s->ring_err && next) {
		unsigned i;

		for (i = 0; i < s->nr_bufs && s->bufs[i].state != WBUF_FREE; i++)
			;
		if (i < s->nr_bufs) {
			s->cur = i;
			s->obuf = s->bufs[i].p;
			break;
		}
		(void)aio_reap(s, true);
	}
	/* what is done already, without waiting: safe keeps up */
	while (!s->ring_err && aio_reap(s, false) == 0)
		;
	return s->ring_err ? aio_drain(s) : 0;
}

/* Whether s writes through its ring (a broken one leaves it to pwrite()). */
static bool aio_on(const struct wstream *s)
{
	return s->ring && !s->ring_broken;
}

/* obuf to the file, and on disk (with a ring: every write in flight done). */
static int flush_obuf(struct writer *w, struct wstream *s)
{
	int err;

	(void)w;
	if (aio_on(s)) {
		err = aio_flush(s, false);
		return err ? err : aio_drain(s);
	}
	err = write_sync(s, s->obuf, s->olen, s->off - s->olen);
	if (err)
		return err;
	s->olen = 0;
	s->safe = s->rec_end;	/* records up to it are whole on disk */
	return 0;
}

static int put(struct writer *w, struct wstream *s, const void *p, size_t n)
{
	const unsigned char *b = p;

	while (n) {
		size_t k = OBUF_SIZE - s->olen;
		int err;

		if (k > n)
			k = n;
		memcpy(s->obuf + s->olen, b, k);
		s->olen += k;
		s->off += k;
		b += k;
		n -= k;
		/* a full buffer: written now, or with a ring sent off while the next fills */
		if (s->olen == OBUF_SIZE &&
		    (err = aio_on(s) ? aio_flush(s, true) : flush_obuf(w, s)))
			return err;
	}
	return 0;
}

/* put() of whole records: rec_end moves past them. */
static int put_record(struct writer *w, struct wstream *s, const void *p, size_t n)
{
	int err = put(w, s, p, n);

	if (!err)
		s->rec_end = s->off;
	return err;
}

/* A COMPRESSED record of zbuf's n payload bytes (after its 8-byte header), put. */
static int put_container(struct writer *w, struct wstream *s, size_t n)
{
	bytes__put_u32(s->zbuf, REC_COMPRESSED);
	bytes__put_u16(s->zbuf + 4, 0);
	bytes__put_u16(s->zbuf + 6, (uint16_t)(8 + n));
	s->comp_out += 8 + n;
	return put(w, s, s->zbuf, 8 + n);
}

/* The records waiting in cbuf as one COMPRESSED record holding one zstd frame; as
 * plain records when the frame would not fit in one record (incompressible data). */
static int flush_frame(struct writer *w, struct wstream *s)
{
	size_t n = ZSTD_compress2(s->cctx, s->zbuf + 8, WRITER_COMP_PAYLOAD_MAX, s->cbuf,
				  s->clen);
	int err;

	if (ZSTD_isError(n)) {
		if (ZSTD_getErrorCode(n) != ZSTD_error_dstSize_tooSmall)
			return s->failed = diag__set(&s->diag, s->path, s->off, -DIAG_ZSTD,
						     "zstd compression failed: %s",
						     ZSTD_getErrorName(n));
		n = s->clen;
		s->clen = 0;
		return put_record(w, s, s->cbuf, n);
	}
	s->comp_in += s->clen;
	s->clen = 0;
	if ((err = put_container(w, s, n)))
		return err;
	s->rec_end = s->off;
	return 0;
}

/* The records waiting in cbuf through the stream's zstd stream, flushed (ZSTD_e_flush:
 * everything given so far decodes, the frame goes on), as perf record -z compresses a
 * ring's data.  At most COMP_STREAM_IN_MAX bytes wait, so the flush fits one
 * COMPRESSED record; should it not, it goes on in the next one (a reader carries a
 * record cut between two, as perf does).  The stream cannot take back what it took:
 * an error stops it for good (s->failed), and the file keeps no part of the flush. */
static int flush_stream(struct writer *w, struct wstream *s)
{
	ZSTD_inBuffer in = { s->cbuf, s->clen, 0 };
	size_t left;
	int err;

	do {
		ZSTD_outBuffer out = { s->zbuf + 8, WRITER_COMP_PAYLOAD_MAX, 0 };

		left = ZSTD_compressStream2(s->cctx, &out, &in, ZSTD_e_flush);
		if (ZSTD_isError(left) || (left && !out.pos))
			return s->failed = diag__set(&s->diag, s->path, s->off, -DIAG_ZSTD,
						     "zstd compression failed: %s",
						     ZSTD_isError(left) ?
						     ZSTD_getErrorName(left) : "no progress");
		if (out.pos && (err = put_container(w, s, out.pos)))
			return err;
	} while (left);
	s->comp_in += s->clen;
	s->clen = 0;
	s->rec_end = s->off;	/* whole records again only after the whole flush */
	return 0;
}

static int flush_comp(struct writer *w, struct wstream *s)
{
	if (s->failed)
		return s->failed;
	if (!s->clen)
		return 0;
	return w->o.comp_stream ? flush_stream(w, s) : flush_frame(w, s);
}

/* The most bytes of records one flush_comp() compresses (a larger record is written
 * plain). */
static size_t comp_cap(const struct writer *w)
{
	return w->o.comp_stream ? COMP_STREAM_IN_MAX : WRITER_COMP_CHUNK;
}

static void chunk_start(struct wstream *s)
{
	s->chunk_off = s->off;
	s->chunk_raw = s->chunk_nr = s->chunk_first = s->chunk_last = 0;
}

static int put_round(struct writer *w, struct wstream *s)
{
	unsigned char r[8];
	int err = flush_comp(w, s);

	if (err)
		return err;
	bytes__put_u32(r, REC_FINISHED_ROUND);
	bytes__put_u16(r + 4, 0);
	bytes__put_u16(r + 6, 8);
	return put_record(w, s, r, sizeof(r));
}

/* End the current chunk of stream i: compressed data out, FINISHED_ROUND (stream 0 with
 * rounds), report it. */
static int chunk_end(struct writer *w, unsigned i)
{
	struct wstream *s = &w->st[i];
	struct writer_index_point p;
	int err = flush_comp(w, s);

	if (err)
		return err;
	if (!s->chunk_nr)
		return 0;
	if (i == 0 && w->o.rounds && (err = put_round(w, s)))
		return err;
	p = (struct writer_index_point){
		.stream = i, .offset = s->chunk_off, .size = s->off - s->chunk_off,
		.raw_bytes = s->chunk_raw, .nr_records = s->chunk_nr,
		.first_time = s->chunk_first, .last_time = s->chunk_last,
	};
	chunk_start(s);
	return w->o.on_index ? w->o.on_index(w->o.ctx, &p) : 0;
}

/* Stream i's index chunk counts `bytes` of nr records more, times first..last (0:
 * none); the chunk ends once it holds the index's bytes.  @return chunk_end()'s. */
static int chunk_add(struct writer *w, unsigned i, uint64_t bytes, uint64_t nr,
		     uint64_t first, uint64_t last)
{
	struct wstream *s = &w->st[i];

	s->chunk_raw += bytes;
	s->chunk_nr += nr;
	if (first && (!s->chunk_first || first < s->chunk_first))
		s->chunk_first = first;
	if (last > s->chunk_last)
		s->chunk_last = last;
	if (s->chunk_raw >= w->o.index_bytes)
		return chunk_end(w, i);
	return 0;
}

static int open_stream(struct writer *w, struct wstream *s, const char *path)
{
	if ((size_t)snprintf(s->path, sizeof(s->path), "%s", path) >= sizeof(s->path))
		return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	/* with a ring: nr_cblocks buffers in flight while one more fills */
	s->nr_bufs = w->o.nr_cblocks ? w->o.nr_cblocks + 1 : 1;
	s->bufs = calloc(s->nr_bufs, sizeof(*s->bufs));
	s->queue = calloc(s->nr_bufs, sizeof(*s->queue));
	if (!s->bufs || !s->queue)
		return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	for (unsigned i = 0; i < s->nr_bufs; i++)
		if (!(s->bufs[i].p = malloc(OBUF_SIZE)))
			return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	s->obuf = s->bufs[0].p;
	if (w->o.comp_level && !(s->cbuf = malloc(WRITER_COMP_CHUNK)))
		return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	if (w->o.comp_level) {
		s->cctx = ZSTD_createCCtx();
		s->zbuf = malloc(8 + WRITER_COMP_PAYLOAD_MAX);
		if (!s->cctx || !s->zbuf)
			return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
		if (ZSTD_isError(ZSTD_CCtx_setParameter(s->cctx, ZSTD_c_compressionLevel,
							w->o.comp_level)))
			return diag__set(&w->diag, path, DIAG_NO_OFFSET, -EINVAL,
					 "bad zstd level %d", w->o.comp_level);
	}
	s->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);	/* perf's */
	if (s->fd < 0) {
		int err = -errno;

		return diag__set(&w->diag, path, DIAG_NO_OFFSET, err, "cannot create: %s",
				 strerror(-err));
	}
	return 0;
}

static int open_all(struct writer *w, const char *path)
{
	char name[PATH_MAX];
	int err;

	if (!w->o.dir)
		return open_stream(w, &w->st[0], path);
	if ((size_t)snprintf(name, sizeof(name), "%s/data", path) >= sizeof(name))
		return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	if ((err = open_stream(w, &w->st[0], name)))
		return err;
	for (unsigned i = 1; i < w->nr_st; i++) {
		if ((size_t)snprintf(name, sizeof(name), "%s/data.%u", path, i - 1) >=
		    sizeof(name))
			return diag__set(&w->diag, path, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
		if ((err = open_stream(w, &w->st[i], name)))
			return err;
	}
	return 0;
}

static void close_ring(struct wstream *s)
{
	if (!s->ring)
		return;
	(void)aio_drain(s);	/* the kernel reads our buffers until then */
	io_uring_queue_exit(s->ring);
	free(s->ring);
	s->ring = NULL;
}

/* A ring of nr_cblocks entries per stream; where io_uring cannot be set up (ENOSYS,
 * EPERM: disabled or filtered), none, and plain writes for every stream
 * (aio_fallback says why). */
static int open_rings(struct writer *w)
{
	for (unsigned i = 0; i < w->nr_st; i++) {
		struct wstream *s = &w->st[i];
		int err;

		if (!(s->ring = calloc(1, sizeof(*s->ring))))
			return diag__set(&w->diag, s->path, DIAG_NO_OFFSET, -ENOMEM, NULL);
		/* any error (also ENOMEM: a kernel before 5.12 counts rings against
		 * RLIMIT_MEMLOCK) leaves the writes plain, not the recording undone */
		err = io_uring_queue_init(w->o.nr_cblocks, s->ring, 0);
		if (err) {
			free(s->ring);
			s->ring = NULL;
			w->aio_fallback = err;
			for (unsigned k = 0; k < i; k++)
				close_ring(&w->st[k]);
			return 0;
		}
	}
	return 0;
}

int writer__open(struct writer **out, const char *path, const struct writer_opts *o,
		 struct diag *d)
{
	struct writer *w;
	int err;

	*out = NULL;
	if ((o->dir && o->nr_data_files == 0) || o->comp_level < 0 || o->comp_level > 22 ||
	    o->nr_cblocks > WRITER_AIO_MAX)
		return diag__set(d, path, DIAG_NO_OFFSET, -EINVAL, "bad writer options");
	w = calloc(1, sizeof(*w));
	if (!w)
		return diag__set(d, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	w->o = *o;
	if (!w->o.index_bytes)
		w->o.index_bytes = WRITER_INDEX_BYTES;
	w->nr_st = o->dir ? o->nr_data_files + 1 : 1;
	w->st = calloc(w->nr_st, sizeof(*w->st));
	if (!w->st) {
		free(w);
		return diag__set(d, path, DIAG_NO_OFFSET, -ENOMEM, NULL);
	}
	for (unsigned i = 0; i < w->nr_st; i++)
		w->st[i].fd = -1;
	err = open_all(w, path);
	if (!err && o->nr_cblocks)
		err = open_rings(w);
	if (err) {
		if (d)
			*d = w->diag;
		writer__delete(w);
		return err;
	}
	*out = w;
	return 0;
}

int writer__add_event(struct writer *w, const struct event_attr *attr, const uint64_t *ids,
		      size_t nr_ids)
{
	struct wevent *ev;

	if (w->started)
		return -EBUSY;
	ev = realloc(w->ev, (w->nr_ev + 1) * sizeof(*w->ev));
	if (!ev)
		return -ENOMEM;
	w->ev = ev;
	ev = &w->ev[w->nr_ev];
	ev->attr = *attr;
	ev->attr.size = attr->config3 ? ATTR_SIZE_VER8 : ATTR_SIZE_VER7;
	ev->nr_ids = nr_ids;
	ev->ids = NULL;
	if (nr_ids) {
		ev->ids = malloc(nr_ids * sizeof(*ids));
		if (!ev->ids)
			return -ENOMEM;
		memcpy(ev->ids, ids, nr_ids * sizeof(*ids));
	}
	w->nr_ev++;
	return 0;
}

int writer__set_feature(struct writer *w, unsigned feat, const void *body, size_t size)
{
	unsigned char *copy = NULL;

	if (feat == 0 || feat >= FEAT_BITS)
		return -EINVAL;
	if (size) {
		copy = malloc(size);
		if (!copy)
			return -ENOMEM;
		memcpy(copy, body, size);
	}
	free(w->feat[feat].body);
	w->feat[feat] = (struct wfeat){ .body = copy, .size = size, .set = true };
	return 0;
}

/* The attrs-table entry size: every attr has the same size in a file (perf steps by
 * each attr's own size, and checks attr_size == attr.size + 16). */
static size_t attr_entry_size(const struct writer *w)
{
	uint32_t sz = ATTR_SIZE_VER7;

	for (size_t i = 0; i < w->nr_ev; i++)
		if (w->ev[i].attr.size > sz)
			sz = w->ev[i].attr.size;
	return sz;
}

/* Ids, then the attrs table, after the 104-byte header of stream 0's file (the layout
 * perf record writes, docs/perf-data-format.md §1.1). */
static int start_data(struct writer *w)
{
	struct wstream *s = &w->st[0];
	size_t asz = attr_entry_size(w), nr_ids = 0;
	unsigned char hdr[FILE_HEADER_SIZE] = { 0 };
	unsigned char ent[ATTR_SIZE_VER8 + 16];
	uint64_t ids_off = FILE_HEADER_SIZE;
	int err;

	w->started = true;
	if ((err = put(w, s, hdr, sizeof(hdr))))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++)
		for (size_t j = 0; j < w->ev[i].nr_ids; j++) {
			unsigned char b[8];

			bytes__put_u64(b, w->ev[i].ids[j]);
			if ((err = put(w, s, b, 8)))
				return err;
			nr_ids++;
		}
	for (size_t i = 0; i < w->nr_ev; i++) {
		struct event_attr a = w->ev[i].attr;

		a.size = (uint32_t)asz;
		if (attr__encode(&a, ent, asz))
			return diag__set(&w->diag, s->path, s->off, -DIAG_BAD_ATTR,
					 "cannot encode attr %zu", i);
		bytes__put_u64(ent + asz, ids_off);
		bytes__put_u64(ent + asz + 8, 8 * w->ev[i].nr_ids);
		ids_off += 8 * w->ev[i].nr_ids;
		if ((err = put(w, s, ent, asz + 16)))
			return err;
	}
	w->data_offset = s->off;
	s->rec_end = s->off;	/* the header and attrs, whole */
	(void)nr_ids;
	for (unsigned i = 0; i < w->nr_st; i++)
		chunk_start(&w->st[i]);
	return 0;
}

int writer__write(struct writer *w, unsigned stream, const void *rec, size_t size,
		  uint64_t time, unsigned flags)
{
	struct wstream *s;
	struct record_header h;
	int err;

	if (stream >= w->nr_st || size < RECORD_HEADER_SIZE)
		return -EINVAL;
	record_header__get(&h, rec);
	if (h.size < RECORD_HEADER_SIZE || h.size > size)
		return -EINVAL;
	if (!w->started && (err = start_data(w)))
		return err;
	s = &w->st[stream];
	if (s->failed)
		return s->failed;
	if (w->o.comp_level && !(flags & WRITER_PLAIN) && size <= comp_cap(w)) {
		if (s->clen + size > comp_cap(w) && (err = flush_comp(w, s)))
			return err;
		memcpy(s->cbuf + s->clen, rec, size);
		s->clen += size;
	} else if ((err = flush_comp(w, s)) || (err = put_record(w, s, rec, size))) {
		return err;
	}
	return chunk_add(w, stream, size, 1, time, time);
}

bool writer__direct(const struct writer *w, unsigned stream)
{
	const struct wstream *s;

	if (stream >= w->nr_st || !w->started || w->o.comp_level)
		return false;
	s = &w->st[stream];
	return !aio_on(s) && !s->failed;
}

int writer__write_direct(struct writer *w, unsigned stream, const void *p1, size_t n1,
			 const void *p2, size_t n2, uint64_t nr_records, uint64_t first_time,
			 uint64_t last_time)
{
	struct wstream *s;
	struct iovec iov[3];
	uint64_t at;
	size_t total = n1 + n2, done = 0;
	int n = 0;

	if (!writer__direct(w, stream))
		return stream < w->nr_st && w->st[stream].failed ? w->st[stream].failed :
		       -EINVAL;
	s = &w->st[stream];
	if (s->olen)
		iov[n++] = (struct iovec){ s->obuf, s->olen };
	if (n1)
		iov[n++] = (struct iovec){ (void *)p1, n1 };
	if (n2)
		iov[n++] = (struct iovec){ (void *)p2, n2 };
	total += s->olen;
	at = s->off - s->olen;
	/* pwrite()'s way with short writes: on from where it stopped */
	while (done < total) {
		struct iovec *v = iov;
		int nv = n;
		size_t skip = done;
		ssize_t k;

		while (skip >= v->iov_len) {
			skip -= v->iov_len;
			v++;
			nv--;
		}
		v->iov_base = (unsigned char *)v->iov_base + skip;
		v->iov_len -= skip;
		k = pwritev(s->fd, v, nv, (off_t)(at + done));
		v->iov_base = (unsigned char *)v->iov_base - skip;
		v->iov_len += skip;
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return io_fail_at(s, at + done, k < 0 ? -errno : -EIO, "write");
		done += (size_t)k;
	}
	s->off += n1 + n2;
	s->olen = 0;
	s->rec_end = s->off;
	s->safe = s->rec_end;	/* records up to it are whole on disk */
	return chunk_add(w, stream, n1 + n2, nr_records, first_time, last_time);
}

int writer__flush(struct writer *w, unsigned stream)
{
	int err;

	if (stream >= w->nr_st)
		return -EINVAL;
	if (!w->started && (err = start_data(w)))
		return err;
	if ((err = flush_comp(w, &w->st[stream])))	/* s->failed too */
		return err;
	return flush_obuf(w, &w->st[stream]);
}

int writer__reserve(struct writer *w, unsigned stream, size_t bytes)
{
	struct wstream *s;

	if (stream >= w->nr_st)
		return -EINVAL;
	s = &w->st[stream];
	/* blocks past the end of the file, its size unchanged (Linux's fallocate) */
	if (fallocate(s->fd, FALLOC_FL_KEEP_SIZE, (off_t)s->off, (off_t)bytes))
		return -errno;
	return 0;
}

int writer__round(struct writer *w, unsigned stream)
{
	int err;

	if (stream >= w->nr_st)
		return -EINVAL;
	if (!w->started && (err = start_data(w)))
		return err;
	return put_round(w, &w->st[stream]);
}

void writer__comp_bytes(const struct writer *w, uint64_t *in, uint64_t *out)
{
	*in = *out = 0;
	for (unsigned i = 0; i < w->nr_st; i++) {
		*in += w->st[i].comp_in;
		*out += w->st[i].comp_out;
	}
}

/* The COMPRESSED feature (u32 version 0, type 1, level, ratio, mmap_len). */
static int set_comp_feature(struct writer *w)
{
	unsigned char b[20];
	uint64_t in, out;
	uint32_t ratio = 0;

	writer__comp_bytes(w, &in, &out);
	if (out)
		ratio = (uint32_t)((double)in / (double)out + 0.5);
	bytes__put_u32(b, 0);
	bytes__put_u32(b + 4, FEAT_COMP_ZSTD);
	bytes__put_u32(b + 8, (uint32_t)w->o.comp_level);
	bytes__put_u32(b + 12, ratio);
	bytes__put_u32(b + 16, WRITER_COMP_MMAP_LEN);
	return writer__set_feature(w, FEAT_COMPRESSED, b, sizeof(b));
}

/* Feature table and bodies after the data section, then the header at offset 0. */
static int finish_file(struct writer *w)
{
	struct wstream *s = &w->st[0];
	unsigned char hdr[FILE_HEADER_SIZE] = { 0 };
	uint64_t bits[FEAT_BITS / 64] = { 0 };
	uint64_t data_size = s->off - w->data_offset, body_off;
	size_t nr = 0, asz = attr_entry_size(w), nr_ids = 0;
	unsigned char sec[16];
	int err;

	for (unsigned f = 1; f < FEAT_BITS; f++)
		if (w->feat[f].set) {
			bits[f / 64] |= 1ULL << (f % 64);
			nr++;
		}
	body_off = s->off + 16 * nr;
	for (unsigned f = 1; f < FEAT_BITS; f++) {
		if (!w->feat[f].set)
			continue;
		bytes__put_u64(sec, body_off);
		bytes__put_u64(sec + 8, w->feat[f].size);
		body_off += w->feat[f].size;
		if ((err = put(w, s, sec, sizeof(sec))))
			return err;
	}
	for (unsigned f = 1; f < FEAT_BITS; f++)
		if (w->feat[f].set && w->feat[f].size &&
		    (err = put(w, s, w->feat[f].body, w->feat[f].size)))
			return err;
	if ((err = flush_obuf(w, s)))
		return err;
	for (size_t i = 0; i < w->nr_ev; i++)
		nr_ids += w->ev[i].nr_ids;
	bytes__put_u64(hdr, PERF_MAGIC2);
	bytes__put_u64(hdr + 8, FILE_HEADER_SIZE);
	bytes__put_u64(hdr + 16, asz + 16);
	bytes__put_u64(hdr + 24, FILE_HEADER_SIZE + 8 * nr_ids);	/* attrs */
	bytes__put_u64(hdr + 32, (asz + 16) * w->nr_ev);
	bytes__put_u64(hdr + 40, w->data_offset);
	bytes__put_u64(hdr + 48, data_size);
	for (unsigned i = 0; i < FEAT_BITS / 64; i++)
		bytes__put_u64(hdr + 72 + 8 * i, bits[i]);
	if (pwrite(s->fd, hdr, sizeof(hdr), 0) != (ssize_t)sizeof(hdr))
		return diag__set(&w->diag, s->path, 0, errno ? -errno : -EIO,
				 "cannot write the header: %s", strerror(errno ? errno : EIO));
	return 0;
}

/* Every file closed, the first error (err, else a close's) into d, w freed. */
static int close_all(struct writer *w, int err, struct diag *d)
{
	for (unsigned i = 0; i < w->nr_st; i++) {
		close_ring(&w->st[i]);
		if (w->st[i].fd >= 0 && close(w->st[i].fd) && !err)
			err = io_fail(w, &w->st[i], -errno, "close");
		w->st[i].fd = -1;
	}
	if (err && d)
		*d = *writer__diag(w);
	writer__delete(w);
	return err;
}

/* The features the writer sets itself: COMPRESSED (-z), DIR_FORMAT (a directory;
 * cleared otherwise). */
static int set_closing_features(struct writer *w)
{
	int err = 0;

	if (w->o.comp_level)
		err = set_comp_feature(w);
	if (!err && w->o.dir) {
		unsigned char v[8];

		bytes__put_u64(v, 1);	/* PERF_DIR_VERSION */
		err = writer__set_feature(w, FEAT_DIR_FORMAT, v, sizeof(v));
	} else if (!err && w->feat[FEAT_DIR_FORMAT].set) {
		free(w->feat[FEAT_DIR_FORMAT].body);
		w->feat[FEAT_DIR_FORMAT] = (struct wfeat){ 0 };
	}
	return err;
}

/* A stream's file cut back to `at` bytes, its offset there; where it is no longer,
 * it is not truncated (which would give back the space writer__reserve() kept past
 * its end). */
static int cut(struct writer *w, struct wstream *s, uint64_t at)
{
	struct stat st;

	if (fstat(s->fd, &st) || ((uint64_t)st.st_size > at && ftruncate(s->fd, (off_t)at)) ||
	    lseek(s->fd, (off_t)at, SEEK_SET) < 0)
		return io_fail(w, s, -errno, "truncate");
	return 0;
}

/* The feature sections and header (finish_file()) from pass `from` on: all the
 * features; where they do not fit, only those a reader cannot do without (DIR_FORMAT:
 * a directory); then none, the header alone in its own place.  Stream 0 is cut back
 * between passes to the last whole record on disk (its safe point: the data
 * section's end, or where a full disk stopped it). */
static int finish_reduced(struct writer *w, int from)
{
	struct wstream *s0 = &w->st[0];
	uint64_t end = s0->safe;

	for (int pass = from; pass < 3; pass++) {
		if (pass) {
			for (unsigned f = 1; f < FEAT_BITS; f++) {
				if (pass == 1 && f == FEAT_DIR_FORMAT)
					continue;
				free(w->feat[f].body);
				w->feat[f] = (struct wfeat){ 0 };
			}
			if (s0->ring) {
				(void)aio_drain(s0);
				aio_reset(s0);
			}
			s0->olen = 0;
			s0->off = s0->rec_end = s0->safe = end;
			if (cut(w, s0, end))
				return w->st[0].diag.code;
		}
		if (!finish_file(w))
			return 0;
	}
	return diag__set(&w->diag, s0->path, 0, -ENOSPC, "cannot write the header");
}

int writer__close(struct writer *w, struct diag *d)
{
	int err = 0;

	if (!w->started)
		err = start_data(w);
	for (unsigned i = 0; !err && i < w->nr_st; i++)
		err = chunk_end(w, i);
	/* perf (and our reader) take a data section of size 0 for a recording that was
	 * not finished and read on into the features: an empty one gets a FINISHED_ROUND,
	 * which perf's queue, empty then, ignores */
	if (!err && w->st[0].off == w->data_offset)
		err = put_round(w, &w->st[0]);
	if (!err)
		err = set_closing_features(w);
	if (err == -ENOMEM && w->diag.code == 0)
		diag__set(&w->diag, w->st[0].path, DIAG_NO_OFFSET, err, NULL);
	for (unsigned i = 1; !err && i < w->nr_st; i++)
		err = flush_obuf(w, &w->st[i]);
	if (!err) {
		err = finish_file(w);
		/* a full disk at the features: the file kept readable with fewer of them
		 * (the error stands: the caller decides whether to keep it) */
		if (err == -ENOSPC || err == -EDQUOT || err == -EFBIG)
			(void)finish_reduced(w, 1);
	}
	return close_all(w, err, d);
}

/* Stream 0's records not on disk, written where the space the other streams gave
 * back holds them (a directory's `data`: the header, the attrs and the synthesized
 * records, which may not have filled a buffer): with a ring the buffers whose writes
 * did not complete, oldest first, then obuf's whole records; safe moves past each. */
static void rewrite_pending(struct writer *w, struct wstream *s)
{
	uint64_t start = s->off - s->olen;	/* where obuf[0] goes */

	for (unsigned k = 0; k < s->q_len; k++) {
		struct wbuf *b = &s->bufs[s->queue[(s->q_head + k) % s->nr_bufs]];

		if (b->state != WBUF_DONE && write_sync(s, b->p, b->len, b->off))
			return;
		s->safe = b->rec_end;
	}
	if (s->rec_end >= w->data_offset && s->rec_end > start &&
	    !write_sync(s, s->obuf, (size_t)(s->rec_end - start), start))
		s->safe = s->rec_end;
}

int writer__salvage(struct writer *w, struct diag *d)
{
	struct wstream *s0 = &w->st[0];
	int err = 0;

	/* the records on disk that are whole; what was buffered, in flight or compressed
	 * is lost, but for stream 0's (rewrite_pending()) */
	for (unsigned i = w->nr_st; i-- > 0 && !err;) {
		struct wstream *s = &w->st[i];

		s->clen = 0;
		if (s->ring)
			(void)aio_drain(s);	/* nothing in flight: safe is final */
		if (i == 0 && w->started)
			rewrite_pending(w, s);
		if (s->ring)
			aio_reset(s);
		s->olen = 0;
		s->off = s->rec_end = s->safe;
		s->chunk_nr = 0;
		err = cut(w, s, s->safe);
	}
	if (!err && (!w->started || s0->safe < w->data_offset))
		err = diag__set(&w->diag, s0->path, DIAG_NO_OFFSET, -ENOSPC,
				"nothing whole to keep");
	if (!err)
		err = set_closing_features(w);
	if (!err)
		err = finish_reduced(w, 0);
	return close_all(w, err, d);
}

void writer__delete(struct writer *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->nr_st; i++) {
		close_ring(&w->st[i]);
		if (w->st[i].fd >= 0)
			close(w->st[i].fd);
		for (unsigned k = 0; w->st[i].bufs && k < w->st[i].nr_bufs; k++)
			free(w->st[i].bufs[k].p);
		free(w->st[i].bufs);
		free(w->st[i].queue);
		free(w->st[i].cbuf);
		ZSTD_freeCCtx(w->st[i].cctx);
		free(w->st[i].zbuf);
	}
	free(w->st);
	for (size_t i = 0; i < w->nr_ev; i++)
		free(w->ev[i].ids);
	free(w->ev);
	for (unsigned f = 0; f < FEAT_BITS; f++)
		free(w->feat[f].body);
	free(w);
}

int writer__aio_fallback(const struct writer *w)
{
	return w->aio_fallback;
}

const struct diag *writer__stream_diag(const struct writer *w, unsigned stream)
{
	if (stream < w->nr_st && w->st[stream].diag.code)
		return &w->st[stream].diag;
	return &w->diag;
}

const struct diag *writer__diag(const struct writer *w)
{
	if (w->diag.code)
		return &w->diag;
	for (unsigned i = 0; i < w->nr_st; i++)
		if (w->st[i].diag.code)
			return &w->st[i].diag;
	return &w->diag;
}
