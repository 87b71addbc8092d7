/*
 * recindex - the index dirrecord writes at the end of a recording (format/index.h,
 * docs/index-format.md): the files it just closed read back record by record, and
 * each record counted as `dirconvert --index` counts it (convert/cmd-index.c): its
 * file offset (a record from compressed data: its COMPRESSED container's), type and
 * time, the containers themselves, the samples per event; and for a file without
 * compressed data the facts the reader's scan pass would learn (docs/index-format.md,
 * part 3: the lag, where each 2 MiB turn starts, the immediate records), so that a
 * reader starts from the index. The index is the one `dirconvert --index` makes of
 * the same files (tests/record checks it byte for byte).
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#include "format/attr.h"
#include "format/bytes.h"
#include "format/header.h"
#include "format/index.h"
#include "format/record.h"
#include "format/sample.h"
#include "format/writer.h"
#include "record/recorder-internal.h"
#include "util/array.h"
#include "banned.h"

/* a turn ends once this many bytes of records were read (docs/index-format.md) */
#define TURN_BYTES (2u << 20)

/* what the reader's scan pass learns of one file (reader/session.c's scan_one()) */
struct scan {
	bool off_disk;		/* records came out of compressed data: no facts */
	uint64_t used;		/* bytes of the turn so far */
	uint64_t nr;		/* records so far */
	uint64_t last, lag;	/* newest queued time; how far one trailed it */
	uint64_t *turns, *imm;	/* file offsets */
	size_t nr_turns, cap_turns, nr_imm, cap_imm;
};

struct walk {
	struct recorder *r;
	struct dir_index_builder *b;
	uint64_t *samples;	/* per event */
	ZSTD_DCtx *dctx;
	unsigned char *dbuf;	/* WRITER_COMP_MMAP_LEN */
	bool is_dir, queued;	/* queued: the reader queues timed records (sample_id_all) */
	struct scan sc;		/* of the file being walked */
};

/* the event of a kernel record (by its id, as perf finds it; the first event when the
 * id is unknown or there is one event) */
static size_t event_of(const struct recorder *r, const void *rec, size_t size,
		       uint32_t type)
{
	const struct event_attr *a = &r->ev[0].attr;
	struct sample s;
	int err;

	if (r->o.nr_events == 1)
		return 0;
	err = type == REC_SAMPLE ? sample__parse(&s, a, rec, size)
				 : sample__parse_id_trailer(&s, a, rec, size);
	if (err)
		return 0;
	for (size_t i = 0; i < r->nr_fds; i++)
		if (r->fds[i].id == s.id)
			return r->fds[i].ev;
	return 0;
}

/* the time the reader gives a kernel record (format/evlist.c's evlist__record_time());
 * UINT64_MAX for none */
static uint64_t record_time(const struct event_attr *a, size_t id_hdr_size,
			    const unsigned char *b, size_t size, uint32_t type)
{
	uint64_t t = a->sample_type, v;
	size_t pos;

	if (type >= REC_USER_FIRST || !(t & SAMPLE_TIME))
		return UINT64_MAX;
	if (type == REC_SAMPLE) {
		pos = RECORD_HEADER_SIZE + 8 * (!!(t & SAMPLE_IDENTIFIER) + !!(t & SAMPLE_IP) +
						!!(t & SAMPLE_TID));
		v = pos + 8 <= size ? bytes__u64(b + pos) : 0;
	} else {
		if (!attr__flag(a, ATTR_SAMPLE_ID_ALL) || size < RECORD_HEADER_SIZE + id_hdr_size)
			return UINT64_MAX;
		pos = size - 8 * (1 + !!(t & SAMPLE_ID) + !!(t & SAMPLE_STREAM_ID) +
				  !!(t & SAMPLE_CPU) + !!(t & SAMPLE_IDENTIFIER));
		v = bytes__u64(b + pos);
	}
	return v ? v : UINT64_MAX;
}

/* the scan pass's look at a record of `disk` bytes on disk (0: out of compressed data)
 * at file offset off: turns, immediate records (perf's own, untimed; in a single file
 * only EVENT_UPDATE is kept), the lag of the queued ones */
static int scan(struct walk *w, uint64_t off, uint32_t type, uint64_t time, size_t disk)
{
	struct scan *sc = &w->sc;

	if (sc->nr++ == 0 || (sc->used >= TURN_BYTES && disk)) {
		if (array__grow(&sc->turns, &sc->cap_turns, sc->nr_turns + 1,
				sizeof(*sc->turns), 16))
			return -ENOMEM;
		sc->turns[sc->nr_turns++] = off;
		sc->used = 0;
	}
	sc->used += disk;
	sc->off_disk |= !disk;
	if (!w->queued || type >= REC_USER_FIRST || time == UINT64_MAX) {
		if (!w->is_dir && type != REC_EVENT_UPDATE)
			return 0;
		if (array__grow(&sc->imm, &sc->cap_imm, sc->nr_imm + 1, sizeof(*sc->imm), 256))
			return -ENOMEM;
		sc->imm[sc->nr_imm++] = off;
	} else if (time < sc->last) {
		if (sc->last - time > sc->lag)
			sc->lag = sc->last - time;
	} else {
		sc->last = time;
	}
	return 0;
}

/* one record (not a container) at file offset off; on_disk false: out of one */
static int count(struct walk *w, size_t file, uint64_t off, const unsigned char *rec,
		 size_t size, bool on_disk)
{
	struct recorder *r = w->r;
	uint32_t type = bytes__u32(rec);
	size_t ev = type < REC_USER_FIRST ? event_of(r, rec, size, type) : 0;
	uint64_t time = record_time(&r->ev[ev].attr, r->id_hdr_size, rec, size, type);
	int err;

	err = scan(w, off, type, time, on_disk ? size : 0);
	if (!err)
		err = dir_index_builder__record(w->b, file, off, type, time, false);
	if (!err)
		err = dir_index_builder__place(w->b, file, off, type, on_disk);
	if (type == REC_SAMPLE)
		w->samples[ev]++;
	return err;
}

/* the records of [data, data + size) of file `file`, whose first byte is at offset off */
static int walk_data(struct walk *w, size_t file, const unsigned char *data, uint64_t size,
		     uint64_t off, const char *path, struct diag *d)
{
	uint64_t pos = 0;

	while (pos + RECORD_HEADER_SIZE <= size) {
		struct record_header h;
		int err;

		record_header__get(&h, data + pos);
		if (h.size < RECORD_HEADER_SIZE || h.size > size - pos)
			return diag__set(d, path, off + pos, -DIAG_BAD_RECORD,
					 "a record that is not whole");
		if (h.type != REC_COMPRESSED) {
			err = count(w, file, off + pos, data + pos, h.size, true);
		} else {
			const unsigned char *p = data + pos + 8;
			size_t n = h.size - 8, got;

			/* the container is not a record the reader scans: what came
			 * out of it is (with no bytes on disk) */
			err = dir_index_builder__record(w->b, file, off + pos, h.type, UINT64_MAX,
							ZSTD_findFrameCompressedSize(p, n) == n);
			if (!err)
				err = dir_index_builder__place(w->b, file, off + pos, h.type, true);
			got = ZSTD_decompressDCtx(w->dctx, w->dbuf, WRITER_COMP_MMAP_LEN, p, n);
			if (ZSTD_isError(got))
				return diag__set(d, path, off + pos, -DIAG_ZSTD, "zstd: %s",
						 ZSTD_getErrorName(got));
			for (size_t q = 0; !err && q + RECORD_HEADER_SIZE <= got;) {
				struct record_header ih;

				record_header__get(&ih, w->dbuf + q);
				if (ih.size < RECORD_HEADER_SIZE || ih.size > got - q)
					return diag__set(d, path, off + pos, -DIAG_BAD_RECORD,
							 "a compressed record that is not whole");
				err = count(w, file, off + pos, w->dbuf + q, ih.size, false);
				q += ih.size;
			}
		}
		if (err)
			return diag__set(d, path, off + pos, err, NULL);
		pos += h.size;
	}
	return 0;
}

/* file i of the recording: describe it to the builder and walk its records */
static int walk_file(struct walk *w, size_t i, const char *path, const char *name,
		     bool header, struct diag *d)
{
	struct file_header h;
	struct stat st;
	unsigned char *map = NULL;
	uint64_t off = 0, size;
	bool swap;
	int fd, err;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st)) {
		err = -errno;
		if (fd >= 0)
			close(fd);
		return diag__set(d, path, DIAG_NO_OFFSET, err, "cannot read: %s",
				 strerror(-err));
	}
	size = (uint64_t)st.st_size;
	if (size) {
		map = mmap(NULL, (size_t)size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (map == MAP_FAILED) {
			err = -errno;
			close(fd);
			return diag__set(d, path, DIAG_NO_OFFSET, err, "cannot map: %s",
					 strerror(-err));
		}
	}
	close(fd);
	err = 0;
	if (header) {
		err = file_header__read(&h, &swap, map, (size_t)size, size, path, d);
		if (!err) {
			off = h.data.offset;
			size = h.data.size;
		}
	}
	if (!err)
		err = dir_index_builder__file(w->b, i, name, (uint64_t)st.st_size,
					      (int64_t)st.st_mtim.tv_sec * 1000000000 +
					      st.st_mtim.tv_nsec, off, size);
	if (err && !d->msg[0])
		diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	free(w->sc.turns);
	free(w->sc.imm);
	w->sc = (struct scan){ 0 };
	if (!err && map)
		err = walk_data(w, i, map + off, size, off, path, d);
	if (!err && !w->sc.off_disk) {
		err = dir_index_builder__scan(w->b, i, w->sc.lag, w->sc.turns, w->sc.nr_turns,
					      w->sc.imm, w->sc.nr_imm);
		if (err)
			diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	}
	if (map)
		munmap(map, (size_t)st.st_size);
	return err;
}

/* a directory's files as the reader opens them: `data`, then the data.N files in
 * readdir order, regular and not empty (a cpu with nothing recorded leaves an empty
 * one, which the reader and the index leave out) */
static int dir_files(const char *dir, size_t max, char (**names)[32], size_t *nr)
{
	char (*v)[32] = calloc(max + 1, sizeof(*v));
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dd;
	size_t n = 1;

	if (!v)
		return -ENOMEM;
	if (!(dd = opendir(dir))) {
		free(v);
		return -errno;
	}
	snprintf(v[0], sizeof(v[0]), "data");
	while ((de = readdir(dd)) && n <= max) {
		if (strncmp(de->d_name, "data.", 5) || strlen(de->d_name) >= sizeof(v[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (stat(path, &st) || !S_ISREG(st.st_mode) || !st.st_size)
			continue;
		snprintf(v[n++], sizeof(v[0]), "%s", de->d_name);
	}
	closedir(dd);
	*names = v;
	*nr = n;
	return 0;
}

int recorder__write_index(struct recorder *r, struct diag *d)
{
	size_t nr_files = 1;
	char (*names)[32] = NULL;
	struct walk w = { .r = r };
	struct dir_index *ix = NULL;
	char path[PATH_MAX], ipath[PATH_MAX];
	const char *base = strrchr(r->o.path, '/') ? strrchr(r->o.path, '/') + 1 : r->o.path;
	int err;

	err = dir_index__path(r->o.path, r->o.dir, ipath, sizeof(ipath));
	if (err)
		return diag__set(d, r->o.path, DIAG_NO_OFFSET, err, NULL);
	if (r->o.dir) {
		err = dir_files(r->o.path, r->o.nr_cpus, &names, &nr_files);
		if (err)
			return diag__set(d, r->o.path, DIAG_NO_OFFSET, err, "cannot list: %s",
					 strerror(-err));
	}
	w.is_dir = r->o.dir;
	w.queued = attr__flag(&r->ev[0].attr, ATTR_SAMPLE_ID_ALL);
	w.samples = calloc(r->o.nr_events, sizeof(*w.samples));
	w.dctx = ZSTD_createDCtx();
	w.dbuf = malloc(WRITER_COMP_MMAP_LEN);
	if (!w.samples || !w.dctx || !w.dbuf ||
	    dir_index_builder__new(&w.b, nr_files, 0)) {
		err = diag__set(d, r->o.path, DIAG_NO_OFFSET, -ENOMEM, NULL);
		goto out;
	}
	for (size_t i = 0; !err && i < nr_files; i++) {
		if (!r->o.dir) {
			err = walk_file(&w, 0, r->o.path, base, true, d);
			break;
		}
		snprintf(path, sizeof(path), "%s/%s", r->o.path, names[i]);
		err = walk_file(&w, i, path, names[i], i == 0, d);
	}
	for (size_t e = 0; !err && e < r->o.nr_events; e++)
		err = dir_index_builder__event(w.b, e, r->ev[e].name, w.samples[e]);
	if (!err) {
		err = dir_index_builder__finish(w.b, &ix);
		w.b = NULL;
	}
	if (err && !d->msg[0])
		diag__set(d, r->o.path, DIAG_NO_OFFSET, err, NULL);
	if (!err)
		err = dir_index__write(ix, ipath, d);
out:
	dir_index__delete(ix);
	dir_index_builder__delete(w.b);
	ZSTD_freeDCtx(w.dctx);
	free(w.dbuf);
	free(w.samples);
	free(w.sc.turns);
	free(w.sc.imm);
	free(names);
	return err;
}
