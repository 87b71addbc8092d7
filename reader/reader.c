#define DIRREPORT_IN_READER
#include "reader/reader-internal.h"

#include <errno.h>
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* malloc, realloc, free */
#include <string.h>	/* memcpy, memmove, strdup */
#include <fcntl.h>	/* open, O_TMPFILE */
#include <sys/mman.h>	/* mmap, munmap */
#include <sys/stat.h>	/* fstat */
#include <unistd.h>	/* read, write, lseek, unlink */

#include "format/bytes.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/mapguard.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "banned.h"

#define ARENA_CHUNK (1u << 16)	/* small: a file with few records needs little */

void *arena__alloc(struct arena *a, size_t size)
{
	struct arena_chunk *c = a->head;

	size = (size + 7) & ~(size_t)7;
	if (!c || c->cap - c->used < size) {
		size_t cap = size > ARENA_CHUNK ? size : ARENA_CHUNK;

		c = malloc(sizeof(*c) + cap);
		if (!c)
			return NULL;
		c->cap = cap;
		c->used = 0;
		c->next = a->head;
		a->head = c;
	}
	c->used += size;
	return c->data + c->used - size;
}

void arena__exit(struct arena *a)
{
	while (a->head) {
		struct arena_chunk *n = a->head->next;
		free(a->head);
		a->head = n;
	}
}

/* The most bytes a stream (standard input, a FIFO, a device) is spooled or read into
 * memory: DIRREPORT_SPOOL_MAX in bytes, else SPOOL_MAX_DEFAULT (reader-internal.h). */
static uint64_t spool_max(void)
{
	const char *e = getenv("DIRREPORT_SPOOL_MAX");
	char *end;
	unsigned long long v;

	if (e && *e) {
		errno = 0;
		v = strtoull(e, &end, 10);
		if (!errno && !*end && v > 0)
			return v;
	}
	return SPOOL_MAX_DEFAULT;
}

/* Read all of fd into memory (when no temporary file can be made), after the @p nhead
 * bytes already read at @p head. */
static int slurp_fd(struct reader *r, int fd, const unsigned char *head, size_t nhead)
{
	size_t cap = 1 << 16, len = nhead;
	unsigned char *buf = malloc(cap), *nb;
	uint64_t max = spool_max();
	ssize_t n;

	if (!buf)
		return -ENOMEM;
	memcpy(buf, head, nhead);
	for (;;) {
		if (len > max) {
			free(buf);
			return -EFBIG;
		}
		if (len == cap) {
			nb = realloc(buf, cap *= 2);
			if (!nb) {
				free(buf);
				return -ENOMEM;
			}
			buf = nb;
		}
		n = read(fd, buf + len, cap - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = -errno;
			free(buf);
			return e;
		}
		if (n == 0)
			break;
		len += (size_t)n;
	}
	r->st.map = buf;
	r->st.map_len = len;
	r->st.map_is_malloc = true;
	return 0;
}

/* An unnamed file in $TMPDIR (or /tmp), gone when closed; -errno on failure. */
static int spool_file(void)
{
	const char *dir = getenv("TMPDIR");
	char path[4096];
	int fd;

	if (!dir || !*dir)
		dir = "/tmp";
	fd = open(dir, O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
	if (fd >= 0 || (errno != EOPNOTSUPP && errno != EISDIR && errno != EINVAL))
		return fd >= 0 ? fd : -errno;
	/* file systems without O_TMPFILE: a named file, unlinked at once */
	if ((size_t)snprintf(path, sizeof(path), "%s/dirreport-XXXXXX", dir) >= sizeof(path))
		return -ENAMETOOLONG;
	fd = mkostemp(path, O_CLOEXEC);
	if (fd < 0)
		return -errno;
	unlink(path);
	return fd;
}

/* Copy fd to the temporary file tmp and map that: the bytes live in the page
 * cache, where the delivery window can release them, not in the heap.  Closes tmp.
 * -errno on failure (-ENOSPC when the temporary file's file system is full). */
static int spool_fd(struct reader *r, int fd, int tmp, const unsigned char *head,
		    size_t nhead)
{
	size_t cap = 1 << 20, len = nhead;
	unsigned char *buf = malloc(cap);
	uint64_t max = spool_max();
	int err = buf ? 0 : -ENOMEM;
	void *m;

	if (!err && nhead && write(tmp, head, nhead) != (ssize_t)nhead)
		err = errno ? -errno : -EIO;
	while (!err) {
		if (len > max) {
			err = -EFBIG;
			break;
		}
		ssize_t n = read(fd, buf, cap), w;

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : 0;
			break;
		}
		for (ssize_t off = 0; off < n && !err; off += w) {
			w = write(tmp, buf + off, (size_t)(n - off));
			if (w < 0) {
				err = errno == EINTR ? 0 : -errno;
				w = 0;
			}
		}
		len += (size_t)n;
	}
	free(buf);
	if (!err && len) {
		m = mmap(NULL, len, PROT_READ, MAP_PRIVATE, tmp, 0);
		if (m == MAP_FAILED) {
			err = -errno;
		} else {
			r->st.map = m;
			r->st.map_len = len;
		}
	}
	close(tmp);
	return err;
}

/* The first bytes of stream fd, up to PIPE_HEADER_SIZE (fewer at its end): whether it
 * is a perf.data stream at all, before anything is spooled. */
static int read_head(int fd, unsigned char *head, size_t *nhead)
{
	size_t got = 0;

	while (got < PIPE_HEADER_SIZE) {
		ssize_t n = read(fd, head + got, PIPE_HEADER_SIZE - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		got += (size_t)n;
	}
	*nhead = got;
	if (got >= 8 && bytes__u64(head) != PERF_MAGIC2 &&
	    bytes__u64(head) != PERF_MAGIC2_SWAPPED)
		return -DIAG_NOT_PERF;
	return 0;
}

int reader__map(struct reader *r, int fd, bool slurp)
{
	unsigned char head[PIPE_HEADER_SIZE];
	size_t nhead = 0;
	struct stat st;
	void *m;
	int err;

	if (slurp) {
		int tmp;

		/* standard input redirected from a file: map it like any file */
		if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && lseek(fd, 0, SEEK_CUR) == 0)
			return reader__map(r, fd, false);
		/* /dev/zero and other endless non-perf streams: nothing spooled */
		if ((err = read_head(fd, head, &nhead)))
			return err;
		/* no temporary file can be made: read into memory instead */
		tmp = spool_file();
		return tmp < 0 ? slurp_fd(r, fd, head, nhead) :
				 spool_fd(r, fd, tmp, head, nhead);
	}
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size == 0)
		return 0;
	m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (m == MAP_FAILED)
		return -errno;
	r->st.map = m;
	r->st.map_len = (size_t)st.st_size;
	/* the file may be cut while it is mapped: a SIGBUS then is an error */
	r->st.guard = mapguard__add(m, r->st.map_len) + 1;
	return 0;
}

void reader__exit(struct reader *r)
{
	if (r->st.map) {
		if (r->st.map_is_malloc) {
			free((void *)r->st.map);
		} else {
			mapguard__remove(r->st.guard - 1);
			munmap((void *)r->st.map, r->st.map_len);
		}
	}
	ZSTD_freeDStream(r->st.zstd);
	free(r->st.dbuf);
	reader__read_stop(r);
	hugemem__free(r->recs, r->recs_mapped);
	free(r->imm);
	free(r->imm_ordinal);
	free(r->turn_start);
	free(r->turn_off);
	arena__exit(&r->imm_arena);
	arena__exit(&r->arena);
	free(r->label);
	free(r->fspath);
	free(r->warning);
	memset(r, 0, sizeof(*r));
}

void reader__init_part(struct reader *part, const struct reader *r, uint64_t from,
		       uint64_t to, bool last)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);

	memset(part, 0, sizeof(*part));
	part->label = r->label;
	part->fspath = r->fspath;
	part->index = r->index;
	part->swap = r->swap;
	part->cut_is_warning = last && r->cut_is_warning;
	part->cut_warned = r->cut_warned;	/* one warning per file */
	part->evlist = r->evlist;
	part->st.map = r->st.map;
	part->st.map_len = r->st.map_len;
	part->st.map_is_malloc = r->st.map_is_malloc;
	part->st.start = part->st.pos = from;
	part->st.end = to;
	/* it gives back only whole pages of its own (reader__release_below()) */
	part->st.released = (from + page - 1) / page * page;
	part->st.label_base = r->st.label_base;
	part->st.guard = r->st.guard;
}

void reader__exit_part(struct reader *part)
{
	part->st.map = NULL;	/* r's */
	part->label = part->fspath = NULL;
	reader__exit(part);
}

static int fail(struct reader *r, uint64_t off, int code, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct reader *r, uint64_t off, int code, const char *fmt, ...)
{
	va_list ap;
	char msg[256];

	/* damage read where the file was cut under its mapping: say that instead */
	if (code != -DIAG_CHANGED && reader__changed(r, true))
		return r->err;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	/* errors name the file itself (a pipe's label is "pipe") at its real offset */
	r->err = diag__set(&r->diag, r->fspath, off, code, "%s", msg);
	return r->err;
}

int reader__changed(struct reader *r, bool stat_too)
{
	uint64_t at = 0;
	struct stat st;
	bool cut = mapguard__faulted(r->st.guard - 1, &at);

	if (r->err == -DIAG_CHANGED)
		return r->err;
	/* cut inside its last page, no SIGBUS: the mapping reads zeros from `at` */
	if (!cut && stat_too && r->st.map && !r->st.map_is_malloc && r->fspath &&
	    stat(r->fspath, &st) == 0 && S_ISREG(st.st_mode) &&
	    (uint64_t)st.st_size < r->st.map_len) {
		cut = true;
		at = (uint64_t)st.st_size;
	}
	if (!cut)
		return 0;
	if (stat(r->fspath, &st) == 0)
		r->err = diag__set(&r->diag, r->fspath, at, -DIAG_CHANGED,
				   "changed while being read (%llu bytes now, %llu when "
				   "opened)", (unsigned long long)st.st_size,
				   (unsigned long long)r->st.map_len);
	else
		r->err = diag__set(&r->diag, r->fspath, at, -DIAG_CHANGED,
				   "changed while being read (%s now)", strerror(errno));
	return r->err;
}

static int push(struct reader *r, const struct record_ref *ref)
{
	if (hugemem__grow(&r->recs, &r->cap, &r->recs_mapped, r->nr + 1, sizeof(*r->recs), 64))
		return fail(r, ref->offset, -ENOMEM, "out of memory");
	r->recs[r->nr++] = *ref;
	return 0;
}

/* Find the event and time of a kernel record and check that it parses. */
static int classify(struct reader *r, struct record_ref *ref, uint64_t off)
{
	struct sample s;
	int err;

	if (ref->type >= REC_USER_FIRST)
		return 0;
	err = evlist__evsel_of(r->evlist, ref->data, ref->size, &ref->evsel);
	if (err == -ENOENT)
		return fail(r, off, -DIAG_BAD_RECORD, "%s record before any event attribute",
			    record__type_name(ref->type));
	if (err == -DIAG_UNKNOWN_ID)
		return fail(r, off, err, "%s record: sample id matches no event",
			    record__type_name(ref->type));
	if (err)
		return fail(r, off, err, "%s record too short for its sample id",
			    record__type_name(ref->type));
	/* the scan pass checked that it parses; the delivery pass reads the same bytes
	 * again (a session started from its index has had no scan pass: it checks) */
	if (r->scanned)
		err = 0;
	else if (ref->type == REC_SAMPLE)
		err = sample__check(&ref->evsel->attr, ref->data, ref->size);
	else
		err = sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
	if (err)
		return fail(r, off, err, "%s record of %u bytes is malformed",
			    record__type_name(ref->type), ref->size);
	ref->time = evlist__record_time(r->evlist, ref->evsel, ref->data, ref->size);
	return 0;
}

/* Bring a record into host order; returns the bytes to keep (in the arena when the
 * record had to be copied). */
static const unsigned char *host_order(struct reader *r, const unsigned char *p,
				       uint32_t size, bool copy)
{
	unsigned char *c;
	const struct evsel *first = evlist__first(r->evlist);
	size_t id_hdr = first ? first->id_hdr_size : 0;

	if (!copy && !r->swap)
		return p;
	c = arena__alloc(&r->arena, size);
	if (!c)
		return NULL;
	memcpy(c, p, size);
	if (r->swap) {
		bytes__put_u32(c, __builtin_bswap32(bytes__u32(c)));
		bytes__put_u16(c + 4, __builtin_bswap16(bytes__u16(c + 4)));
		bytes__put_u16(c + 6, __builtin_bswap16(bytes__u16(c + 6)));
		record__swap(c, size, id_hdr);
		if (bytes__u32(c) < REC_USER_FIRST && first)
			sample__unswap_pairs(&first->attr, c, size);
	}
	return c;
}

static int on_record(struct reader *r, const unsigned char *p, uint32_t size,
		     uint64_t off, uint32_t disk_size, bool from_container);

/* Split the decompressed buffer into records; keep an incomplete tail. */
static int split_decompressed(struct reader *r, uint64_t container_off)
{
	struct reader_state *st = &r->st;
	size_t pos = 0;
	int err;

	while (st->dbuf_len - pos >= RECORD_HEADER_SIZE) {
		uint16_t size = bytes__u16x(st->dbuf + pos + 6, r->swap);

		if (size < RECORD_HEADER_SIZE)
			return fail(r, container_off, -DIAG_RECORD_SIZE,
				    "record size %u inside compressed data", size);
		if (st->dbuf_len - pos < size)
			break;
		err = on_record(r, st->dbuf + pos, size, container_off, 0, true);
		if (err)
			return err;
		pos += size;
	}
	/* Fuzzing found: an empty COMPRESSED record gets here before any buffer exists
	 * (dbuf NULL, where even dbuf + 0 is undefined): move only what was split off. */
	if (pos) {
		memmove(st->dbuf, st->dbuf + pos, st->dbuf_len - pos);
		st->dbuf_len -= pos;
	}
	return 0;
}

static int decompress(struct reader *r, const unsigned char *src, size_t len, uint64_t off)
{
	struct reader_state *st = &r->st;
	ZSTD_inBuffer in = { src, len, 0 };

	if (!st->zstd) {
		st->zstd = ZSTD_createDStream();
		if (!st->zstd || ZSTD_isError(ZSTD_initDStream(st->zstd)))
			return fail(r, off, -ENOMEM, "cannot create a zstd stream");
	}
	while (in.pos < in.size) {
		ZSTD_outBuffer out;
		size_t ret;

		/* room for 64 KiB more at least */
		if (array__grow(&st->dbuf, &st->dbuf_cap, st->dbuf_len + (1 << 16), 1, 1 << 20))
			return fail(r, off, -ENOMEM, "out of memory");
		out.dst = st->dbuf + st->dbuf_len;
		out.size = st->dbuf_cap - st->dbuf_len;
		out.pos = 0;
		ret = ZSTD_decompressStream(st->zstd, &out, &in);
		if (ZSTD_isError(ret))
			return fail(r, off, -DIAG_ZSTD, "corrupt zstd data: %s",
				    ZSTD_getErrorName(ret));
		st->dbuf_len += out.pos;
		if (out.pos == 0 && in.pos < in.size && out.size > 0)
			return fail(r, off, -DIAG_ZSTD, "zstd stream makes no progress");
		/* Split as we go so the buffer holds at most one flush's worth. */
		if (st->dbuf_len > (8u << 20)) {
			int err = split_decompressed(r, off);
			if (err)
				return err;
		}
	}
	return split_decompressed(r, off);
}

static int on_record(struct reader *r, const unsigned char *p, uint32_t size,
		     uint64_t off, uint32_t disk_size, bool from_container)
{
	struct record_ref ref = { .size = size, .file = r->index, .disk_size = disk_size,
				  .offset = off - r->st.label_base };
	int err;

	ref.type = bytes__u32x(p, r->swap);
	if (!record__type_known(ref.type))
		return fail(r, off, -DIAG_RECORD_TYPE, "unknown record type %u", ref.type);
	if (from_container && (ref.type == REC_COMPRESSED || ref.type == REC_COMPRESSED2))
		return fail(r, off, -DIAG_BAD_RECORD, "compressed record inside compressed data");
	ref.data = host_order(r, p, size, from_container);
	if (!ref.data)
		return fail(r, off, -ENOMEM, "out of memory");
	if (ref.type == REC_COMPRESSED || ref.type == REC_COMPRESSED2) {
		const unsigned char *payload = ref.data + 8;
		size_t len = size - 8;

		if (ref.type == REC_COMPRESSED2) {
			uint64_t dsz = size >= 16 ? bytes__u64(ref.data + 8) : UINT64_MAX;
			if (dsz > (uint64_t)size - 16)
				return fail(r, off, -DIAG_BAD_RECORD,
					    "COMPRESSED2 data_size larger than the record");
			payload += 8;
			len = (size_t)dsz;
		}
		ref.flags = RECORD_REF_CONTAINER | RECORD_REF_IMMEDIATE;
		if ((err = push(r, &ref)))
			return err;
		return decompress(r, payload, len, off);
	}
	if ((err = classify(r, &ref, off)))
		return err;
	r->has_rounds |= ref.type == REC_FINISHED_ROUND;
	return push(r, &ref);
}

/* A HEADER_ATTR record of a pipe: add the attr and its ids to the evlist. */
static int pipe_attr(struct reader *r, const unsigned char *p, uint32_t size, uint64_t off)
{
	struct event_attr a;
	uint64_t *ids = NULL;
	size_t n, attr_sz;
	struct evsel *ev;
	int err;

	if (size < 8 + ATTR_SIZE_VER0 || attr__decode(&a, p + 8, size - 8, r->swap))
		return fail(r, off, -DIAG_BAD_ATTR, "bad attr in HEADER_ATTR record");
	attr_sz = (a.size + 7) & ~(size_t)7;
	if (attr_sz > (size_t)size - 8)
		return fail(r, off, -DIAG_BAD_ATTR, "bad attr in HEADER_ATTR record");
	n = (size - 8 - attr_sz) / 8;
	if (n) {
		ids = malloc(n * sizeof(*ids));
		if (!ids)
			return fail(r, off, -ENOMEM, "out of memory");
		for (size_t i = 0; i < n; i++)
			ids[i] = bytes__u64x(p + 8 + attr_sz + 8 * i, r->swap);
	}
	err = evlist__add(r->evlist, &a, ids, n, &ev);
	free(ids);
	if (err == -DIAG_BAD_ATTR)
		return fail(r, off, err, "HEADER_ATTR: id used by two events");
	if (err)
		return fail(r, off, err, "out of memory");
	err = evlist__check(r->evlist, &r->diag);
	if (err)
		return fail(r, off, err, "%s", r->diag.msg);
	return 0;
}

static int pipe_feature(struct reader *r, const unsigned char *p, uint32_t size,
			uint64_t off)
{
	uint64_t feat;

	if (size < 16)
		return fail(r, off, -DIAG_PIPE, "HEADER_FEATURE record too short");
	feat = bytes__u64x(p + 8, r->swap);
	if (feat < FEAT_BITS && !r->pipe_feat[feat].body) {
		r->pipe_feat[feat].body = p + 16;
		r->pipe_feat[feat].size = size - 16;
		r->pipe_feat[feat].offset = off + 16;
	}
	return 0;
}

/* Bytes that follow a record in the stream without being counted in its size. */
static int payload_after(const struct reader *r, const unsigned char *p, uint32_t type,
			 uint32_t size, uint64_t *extra)
{
	*extra = 0;
	if (type == REC_HEADER_TRACING_DATA && size >= 12)
		*extra = bytes__u32x(p + 8, r->swap);
	else if (type == REC_AUXTRACE && size >= 16)
		*extra = bytes__u64x(p + 8, r->swap);
	return 0;
}

int reader__record_span(const struct reader *r, const unsigned char *p, uint64_t left,
			uint64_t *span)
{
	uint64_t extra;
	uint32_t type;
	uint16_t size;

	*span = 0;
	if (left < RECORD_HEADER_SIZE)
		return -1;
	type = bytes__u32x(p, r->swap);
	size = bytes__u16x(p + 6, r->swap);
	if (size < RECORD_HEADER_SIZE || size > left)
		return -1;
	if (type == REC_COMPRESSED || type == REC_COMPRESSED2)
		return 1;
	payload_after(r, p, type, size, &extra);
	if (extra > left - size)
		return -1;
	*span = size + extra;
	return 0;
}

int reader__run(struct reader *r)
{
	return reader__fill(r, SIZE_MAX);
}

/* Mapped bytes given back at once (one madvise() a step): 4 MiB steps kept up to 4 MiB
 * more of each file in memory (bench directory's report: 94 -> 89 MB at its peak). */
#define RELEASE_STEP (1u << 20)

void reader__release_below(struct reader *r, uint64_t offset)
{
	struct reader_state *st = &r->st;
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE), upto;

	/* Fuzzing found: a data offset past the end of the file (pos > map_len) made this
	 * madvise(MADV_DONTNEED) every mapping above ours, the loader's and the heap's
	 * included. Never touch anything past the mapping. */
	if (offset > st->map_len)
		offset = st->map_len;
	upto = offset / page * page;
	/* Drop the pages below offset from our memory (a private read-only file mapping
	 * re-reads them if ever touched again): the mapping window slides on. */
	if (st->map && !st->map_is_malloc && upto > st->released + RELEASE_STEP) {
		madvise((void *)(st->map + st->released), upto - st->released, MADV_DONTNEED);
		st->released = upto;
	}
}

/* Below glibc's first mmap() threshold: the scan of one file reuses the heap memory
 * of the last (no fresh pages to fault in), and a record of 64 KiB fits. */
#define READ_BUF_SIZE (120u << 10)

int reader__read_start(struct reader *r, int fd)
{
	struct reader_state *st = &r->st;

	reader__read_stop(r);
	st->rbuf = malloc(READ_BUF_SIZE);
	if (!st->rbuf)
		return -ENOMEM;
	st->fd = fd;
	st->paused = false;
	st->rbuf_off = st->rbuf_len = 0;
	return 0;
}

void reader__read_pause(struct reader *r, bool on)
{
	r->st.paused = on;
	r->st.rbuf_len = 0;	/* nothing of a fill before points into it */
}

void reader__read_stop(struct reader *r)
{
	struct reader_state *st = &r->st;

	if (st->rbuf)
		close(st->fd);
	free(st->rbuf);
	st->rbuf = NULL;
	st->rbuf_len = 0;
}

/* Bytes of the mapping whose page tables are filled ahead of the reads, in one call
 * (madvise(MADV_POPULATE_READ)) instead of a page fault each 64 KiB (the kernel maps
 * that much around a faulting page of a file): 3.7k -> 2.8k faults on the bench
 * file's flat report, 15-40 us each on the benchmark VM (the flat report -j 2 0.272
 * -> 0.260 s, -D 0.293 -> 0.285 s, medians of 7 interleaved runs). */
#define POPULATE_STEP ((uint64_t)2 << 20)

/* Fill the page tables of the mapping from what is populated (or released) on up to
 * POPULATE_STEP past @p upto. */
static void populate(struct reader_state *st, uint64_t upto)
{
	uint64_t page = (uint64_t)sysconf(_SC_PAGESIZE);
	uint64_t from = st->populated > st->released ? st->populated : st->released;
	uint64_t to;

	from = from / page * page;
	to = upto + POPULATE_STEP;
	if (to > st->map_len)
		to = st->map_len;
#ifdef MADV_POPULATE_READ	/* Linux 5.14; older kernels say EINVAL: faults then */
	if (to > from)
		(void)madvise((void *)(st->map + from), to - from, MADV_POPULATE_READ);
#endif
	st->populated = to > upto ? to : upto;
}

/*
 * The bytes [off, off + n) of the file, n <= st.end - off: in the mapping, or in the
 * read buffer - read again from off when they are not all there, unless records of
 * this fill point into it (NULL then, *err 0: the fill stops here).  NULL with *err
 * set when pread() fails.
 */
static const unsigned char *bytes_at(struct reader *r, uint64_t off, uint64_t n, int *err)
{
	struct reader_state *st = &r->st;
	size_t got = 0, want;

	*err = 0;
	if (!st->rbuf || st->paused) {
		if (off + n > st->populated && !st->map_is_malloc)
			populate(st, off + n);
		return st->map + off;
	}
	if (off >= st->rbuf_off && off + n <= st->rbuf_off + st->rbuf_len)
		return st->rbuf + (off - st->rbuf_off);
	if (r->nr)
		return NULL;
	if (n > READ_BUF_SIZE) {	/* the mapping from here on */
		reader__read_stop(r);
		return st->map + off;
	}
	want = st->end - off < READ_BUF_SIZE ? (size_t)(st->end - off) : READ_BUF_SIZE;
	while (got < want) {
		ssize_t k = pread(st->fd, st->rbuf + got, want - got, (off_t)(off + got));

		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0) {	/* the file shrank under us, or an I/O error */
			*err = k < 0 ? -errno : -DIAG_CHANGED;
			st->rbuf_len = 0;
			return NULL;
		}
		got += (size_t)k;
	}
	st->rbuf_off = off;
	st->rbuf_len = got;
	st->rbuf_read += got;
	return st->rbuf;
}

const unsigned char *reader__peek(struct reader *r, uint64_t off, uint64_t n)
{
	int err;

	return bytes_at(r, off, n, &err);
}

void reader__recycle(struct reader *r)
{
	r->base += r->nr;
	r->nr = 0;
	arena__exit(&r->arena);
	reader__release_below(r, r->st.pos);	/* nothing below pos is referenced */
}

int reader__rewind(struct reader *r)
{
	struct reader_state *st = &r->st;

	reader__recycle(r);
	r->base = 0;
	r->rewound = true;
	st->pos = st->start;
	st->released = 0;
	st->populated = 0;	/* given back since: filled again as it is read */
	st->dbuf_len = 0;
	if (st->zstd && ZSTD_isError(ZSTD_initDStream(st->zstd)))
		return -ENOMEM;
	return 0;
}

/*
 * A pipe record shorter than its header at st.pos: perf 6.1 ends the stream there
 * ("bad event header size") and exits 0, so the records before it are the report.
 * One warning (not again on a second pass); the stream ends at the record.
 */
static int pipe_short_record(struct reader *r, uint16_t size, uint32_t type)
{
	struct reader_state *st = &r->st;

	if (!r->cut_warned && !r->scanned && asprintf(&r->warning, "%s: offset %#llx: "
		     "record size %u (type %u); the stream ends here, as perf ends it; "
		     "reporting the records before it", r->fspath,
		     (unsigned long long)st->pos, size, type) < 0)
		r->warning = NULL;
	st->end = st->pos;
	return 0;
}

int reader__fill(struct reader *r, size_t limit)
{
	struct reader_state *st = &r->st;
	int err;

	while (st->pos < st->end && r->nr < limit) {
		uint64_t off = st->pos, left = st->end - st->pos, extra;
		const unsigned char *p;
		uint32_t type;
		uint16_t size;

		if (left < RECORD_HEADER_SIZE) {
			if (r->cut_is_warning)
				goto cut;
			return fail(r, off, -DIAG_RECORD_SIZE,
				    "%u bytes left at the end of the data section, not a record",
				    (unsigned)left);
		}
		if (!(p = bytes_at(r, off, RECORD_HEADER_SIZE, &err)))
			goto stop;
		type = bytes__u32x(p, r->swap);
		size = bytes__u16x(p + 6, r->swap);
		if (size < RECORD_HEADER_SIZE && r->is_pipe)
			return pipe_short_record(r, size, type);
		if (size < RECORD_HEADER_SIZE)
			return fail(r, off, -DIAG_RECORD_SIZE, "record size %u (type %u)", size,
				    type);
		if (size > left) {
			if (r->cut_is_warning)
				goto cut;
			return fail(r, off, -DIAG_RECORD_SIZE,
				    "record of %u bytes runs past the end of the data section",
				    size);
		}
		payload_after(r, p, type, size, &extra);
		if (extra > left - size) {
			if (r->cut_is_warning)
				goto cut;
			return fail(r, off, -DIAG_RECORD_SIZE,
				    "payload of %llu bytes runs past the end of the data section",
				    (unsigned long long)extra);
		}
		/* the record and what follows it (a pipe's tracing data) */
		if (!(p = bytes_at(r, off, size + extra, &err)))
			goto stop;
		/* a pipe's header records define events and features: once, on the
		 * first pass (a streamed pipe file is read twice) */
		if (r->is_pipe && !r->rewound && type == REC_HEADER_ATTR &&
		    (err = pipe_attr(r, p, size, off)))
			return err;
		if (r->is_pipe && !r->rewound && type == REC_HEADER_FEATURE &&
		    (err = pipe_feature(r, p, size, off)))
			return err;
		err = on_record(r, p, size, off, (uint32_t)(size + extra), false);
		if (err)
			return err;
		st->pos += size + extra;
	}
	return reader__changed(r, false);
stop:
	/* the read buffer is full (the next fill reads on), or reading failed */
	if (err == -DIAG_CHANGED)
		return reader__changed(r, true) ? r->err :
		       fail(r, st->pos, err, "changed while being read (ends before %llu)",
			    (unsigned long long)st->end);
	return err ? fail(r, st->pos, err, "cannot read: %s", diag__code_str(err)) :
		     reader__changed(r, false);
cut:
	if (!r->cut_warned && !r->scanned && asprintf(&r->warning, "%s: offset %#llx: file ends inside a record; "
		     "reporting the records before it", r->fspath,
		     (unsigned long long)st->pos) < 0)
		r->warning = NULL;
	st->end = st->pos;
	return 0;
}
