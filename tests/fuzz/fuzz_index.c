/*
 * fuzz_index - the per-file index (`dirindex`, format/index.c): dir_index__read() of
 * the input's index bytes, a write and re-read of what it read (the same bytes both
 * times), and a session started from the index (session_opts.use_index) on the
 * recording that follows it.
 *
 * Input: [u8 flags][index] FUZZ_SEP [part 1] FUZZ_SEP [part 2] FUZZ_SEP [part 3]
 * flags bit 0: keep the index's CRCs as they are (else both are computed afresh over
 *              the bytes, so that mutations reach the layout checks behind them);
 *       bit 1: keep the header's body size (else set to the bytes after the header);
 *       bit 2: the recording is a data directory: `data` = part 1, `data.0`, `data.1`
 *              = parts 2, 3 (else part 1 is the single file `file.data`);
 *       bit 3: keep the samples of one entry's time range only (session__keep_samples);
 *       bit 4: keep the files' sizes and mtimes (else the index's files whose names are
 *              the written files' get their size and mtime, so the index is fresh).
 * The session is opened only when the index reads back and there is a part 1.
 * Checked: every delivered record (fuzz__check_batch); the index written from what was
 * read reads back and writes the same bytes again.
 * Format: docs/index-format.md.
 */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free, malloc */
#include <string.h>	/* memcmp, memcpy, strcmp */
#include <sys/stat.h>	/* stat */
#include <zlib.h>	/* crc32 */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/index.h"
#include "reader/session.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

#define IX_HEADER 64	/* docs/index-format.md: the header's bytes */
#define IX_FILE 104	/* bytes per file */

static void put64(unsigned char *p, uint64_t v)
{
	for (int i = 0; i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

/* The name of file i of the index (p, n), or NULL when it is not where it should be. */
static const char *file_name(const unsigned char *p, size_t n, uint32_t nr_types,
			     uint32_t nr_files, uint32_t nr_events, uint64_t nr_entries,
			     uint32_t i)
{
	uint64_t fixed = IX_HEADER + 8ull * nr_types + 8, names, nr_off, noff, nlen;
	const unsigned char *f = p + fixed + (uint64_t)IX_FILE * i;

	if (nr_types > 1024 || nr_files > 64 || nr_events > 1024 || nr_entries > 1000000)
		return NULL;
	nr_off = bytes__u64(p + fixed - 8);
	if (nr_off > n)
		return NULL;
	names = fixed + (uint64_t)IX_FILE * nr_files +
		nr_entries * (64 + 4ull * nr_types) + 16ull * nr_events + 8 * nr_off;
	noff = get32(f + 48);
	nlen = get32(f + 52);
	/* the name's bytes, then its NUL */
	if (names > n || noff > n - names || nlen >= n - names - noff ||
	    p[names + noff + nlen] != '\0')
		return NULL;
	return (const char *)p + names + noff;
}

/* Give the index's files named like the written ones their size and mtime. */
static void make_fresh(unsigned char *p, size_t n, const char *dir, bool is_dir)
{
	uint32_t nr_types, nr_files, nr_events;
	uint64_t nr_entries;

	if (n < IX_HEADER)
		return;
	nr_files = get32(p + 24);
	nr_types = get32(p + 28);
	nr_events = get32(p + 32);
	nr_entries = bytes__u64(p + 40);
	if (nr_types > 1024 ||
	    (uint64_t)IX_HEADER + 8ull * nr_types + 8 + (uint64_t)IX_FILE * nr_files > n)
		return;
	for (uint32_t i = 0; i < nr_files; i++) {
		unsigned char *f = p + IX_HEADER + 8ull * nr_types + 8 + (uint64_t)IX_FILE * i;
		const char *name = file_name(p, n, nr_types, nr_files, nr_events, nr_entries, i);
		char path[600];
		struct stat st;
		int w;

		if (is_dir && (!name || strchr(name, '/')))
			continue;
		w = is_dir ? snprintf(path, sizeof(path), "%s/%s", dir, name)
			   : snprintf(path, sizeof(path), "%s", dir);
		if (w < 0 || (size_t)w >= sizeof(path) || stat(path, &st))
			continue;
		put64(f, (uint64_t)st.st_size);
		put64(f + 8, (uint64_t)((int64_t)st.st_mtim.tv_sec * 1000000000 +
					st.st_mtim.tv_nsec));
	}
}

static void fix_header(unsigned char *p, size_t n, uint8_t flags)
{
	if (n < IX_HEADER)
		return;
	if (!(flags & 2))
		put64(p + 48, n - IX_HEADER);
	if (!(flags & 1)) {
		put32(p + 56, (uint32_t)crc32(0, p + IX_HEADER, (uInt)(n - IX_HEADER)));
		put32(p + 60, (uint32_t)crc32(0, p, 60));
	}
}

/* Read everything a reader of the index may read. */
static void use_index(const struct dir_index *ix)
{
	for (size_t i = 0; i < ix->nr_files; i++) {
		const struct dir_index_file *f = &ix->files[i];

		fuzz__touch(f->name, strlen(f->name) + 1);
		FUZZ_CHECK(f->first_entry <= ix->nr_entries &&
			   f->nr_entries <= ix->nr_entries - f->first_entry);
	}
	for (size_t i = 0; i < ix->nr_events; i++)
		fuzz__touch(ix->events[i].name, strlen(ix->events[i].name) + 1);
	fuzz__touch(ix->entries, ix->nr_entries * sizeof(*ix->entries));
	fuzz__touch(ix->offsets, ix->nr_offsets * sizeof(*ix->offsets));
}

/* The file's bytes (malloc'd, *n), or NULL. */
static unsigned char *slurp(const char *path, size_t *n)
{
	FILE *f = fopen(path, "rb");
	unsigned char *b = NULL;
	long len;

	*n = 0;
	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && (len = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (b = malloc((size_t)len + 1)) && fread(b, 1, (size_t)len, f) == (size_t)len) {
		*n = (size_t)len;
	} else {
		free(b);
		b = NULL;
	}
	fclose(f);
	return b;
}

/* An index read, written, read again: the two writes are the same bytes. */
static void round_trip(const struct dir_index *ix)
{
	struct dir_index *again = NULL;
	unsigned char *a, *b;
	size_t na, nb;
	struct diag d;
	char pa[600];

	snprintf(pa, sizeof(pa), "%s", fuzz__path("rt-a.dirindex"));
	if (dir_index__write(ix, pa, &d))
		return;
	FUZZ_CHECK(dir_index__read(&again, pa, &d) == 0);
	a = slurp(pa, &na);
	if (dir_index__write(again, fuzz__path("rt-b.dirindex"), &d) == 0) {
		b = slurp(fuzz__path("rt-b.dirindex"), &nb);
		if (a && b)
			FUZZ_CHECK(na == nb && !memcmp(a, b, na));
		free(b);
	}
	free(a);
	dir_index__delete(again);
}

static void run_session(const char *path, const struct dir_index *ix, uint8_t flags)
{
	struct session_opts o = { .path = path, .jobs = 1, .use_index = true };
	struct session_time_range range = { 0, 0 };
	struct fuzz_seen seen = { 0 };
	struct session *s;
	struct diag d;

	if (session__open(&s, &o, &d))
		return;
	if ((flags & 8) && ix->nr_entries) {
		const struct dir_index_entry *e = &ix->entries[ix->nr_entries / 2];

		range.start = e->first_time;
		range.end = e->last_time;
		session__keep_samples(s, &range, 1);
	}
	if (session__load(s, &d) == 0) {
#ifdef FUZZ_DEBUG	/* -DFUZZ_DEBUG: whether each input's session starts from its index */
		fprintf(stderr, "%s: indexed %d, %zu warnings%s%s\n", path, session__indexed(s),
			session__nr_warnings(s), session__nr_warnings(s) ? ": " : "",
			session__nr_warnings(s) ? session__warning(s, 0) : "");
#endif
		seen.s = s;
		(void)session__deliver(s, fuzz__check_batch, &seen, 0);
		for (size_t i = 0; i < session__nr_warnings(s); i++)
			(void)session__warning(s, i);
	}
	session__close(s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const dir_files[3] = { FUZZ_DIR "/data", FUZZ_DIR "/data.0",
						  FUZZ_DIR "/data.1" };
	struct dir_index *ix = NULL;
	size_t off[4], len[4], parts;
	const char *rec = NULL;
	char ixpath[600], recpath[600];
	unsigned char *buf;
	struct diag d;
	uint8_t flags;
	bool is_dir;

	if (!size || !fuzz__tmpdir())
		return 0;
	flags = data[0];
	is_dir = flags & 4;
	parts = fuzz__split(data + 1, size - 1, 4, off, len);
	/* the recording first: the index is made fresh against its files */
	if (parts > 1 && is_dir) {
		for (size_t i = 0; i < 3; i++) {
			if (i + 1 < parts) {
				if (fuzz__write(dir_files[i], data + 1 + off[i + 1], len[i + 1]))
					return 0;
			} else {
				fuzz__unlink(dir_files[i]);
			}
		}
		rec = FUZZ_DIR;
	} else if (parts > 1) {
		if (fuzz__write("file.data", data + 1 + off[1], len[1]))
			return 0;
		rec = "file.data";
	}
	if (rec) {
		snprintf(recpath, sizeof(recpath), "%s", fuzz__path(rec));
		if (dir_index__path(recpath, is_dir, ixpath, sizeof(ixpath)))
			return 0;
	} else {
		snprintf(ixpath, sizeof(ixpath), "%s", fuzz__path("alone.dirindex"));
	}
	buf = fuzz__dup(data + 1 + off[0], len[0]);
	if (!buf)
		return 0;
	if (rec && !(flags & 0x10))
		make_fresh(buf, len[0], recpath, is_dir);
	fix_header(buf, len[0], flags);
	if (fuzz__write(ixpath + strlen(fuzz__tmpdir()) + 1, buf, len[0])) {
		free(buf);
		return 0;
	}
	free(buf);
	if (dir_index__read(&ix, ixpath, &d) == 0) {
		use_index(ix);
		round_trip(ix);
		if (rec) {
			char why[512];

			(void)dir_index__fresh(ix, recpath, is_dir, why, sizeof(why));
			run_session(recpath, ix, flags);
		}
		dir_index__delete(ix);
	}
	return 0;
}
