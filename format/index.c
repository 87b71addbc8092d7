/*
 * index - dirreport's per-file index (see index.h and docs/index-format.md).
 */
#include "format/index.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* rename, snprintf */
#include <stdlib.h>	/* calloc, free, malloc, realloc */
#include <string.h>	/* memcmp, memcpy, memset, strlen, strncmp */
#include <sys/stat.h>	/* fstat, stat */
#include <unistd.h>	/* close, read, unlink, write */
#include <dirent.h>	/* opendir, readdir */
#include <zlib.h>	/* crc32 */

#include "format/bytes.h"
#include "format/diag.h"
#include "util/array.h"
#include "banned.h"

/*
 * The file (all numbers little-endian), version 2:
 *   header, 64 bytes:
 *     0  "DIRINDEX"             8  u32 version (2)       12 u32 header size (64)
 *    16  u64 interval          24  u32 files            28 u32 record types counted
 *    32  u32 events            36  u32 0                40 u64 entries
 *    48  u64 body bytes        56  u32 CRC-32 of the body  60 u32 CRC-32 of bytes 0..59
 *   body:
 *     record counts of the recording: u64 per type
 *     u64 offsets: how many u64 the offsets part holds
 *     per file, 104 bytes: u64 size, i64 mtime (ns), u64 data offset, u64 data size,
 *                         u64 first entry, u64 entries, u32 name offset, u32 name bytes,
 *                         u32 flags, u32 0, u64 lag (ns), u64 first turn, u64 turns,
 *                         u64 first immediate, u64 immediates
 *     per entry: u64 offset, size, first time, last time, rounds, u32 flags, u32 0,
 *                u64 first side-band, u64 side-bands, then u32 per type counted
 *     per event: u64 samples, u32 name offset, u32 name bytes
 *     offsets: u64 each (file offsets the files' and entries' lists point into)
 *     names: each NUL-terminated, at the offsets above (from the start of this part)
 */
#define HEADER_SIZE 64
#define FILE_SIZE 104
#define ENTRY_FIXED 64
#define EVENT_SIZE 16

int dir_index__path(const char *input, bool is_dir, char *buf, size_t len)
{
	size_t n = strlen(input);
	int w;

	while (is_dir && n > 1 && input[n - 1] == '/')
		n--;
	w = is_dir ? snprintf(buf, len, "%.*s/%s", (int)n, input, DIR_INDEX_DIR_NAME)
		   : snprintf(buf, len, "%s%s", input, DIR_INDEX_SUFFIX);
	return w < 0 || (size_t)w >= len ? -ENAMETOOLONG : 0;
}

void dir_index__delete(struct dir_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->nr_files; i++)
		free(ix->files[i].name);
	for (size_t i = 0; i < ix->nr_events; i++)
		free(ix->events[i].name);
	free(ix->files);
	free(ix->entries);
	free(ix->events);
	free(ix->offsets);
	free(ix);
}

/* ---- writing ------------------------------------------------------------------- */

struct out {
	unsigned char *p;
	size_t len, cap;
	bool failed;
};

static unsigned char *room(struct out *o, size_t n)
{
	if (o->failed)
		return NULL;
	if (o->len + n > o->cap) {
		size_t cap = o->cap ? o->cap : 4096;
		unsigned char *p;

		while (cap < o->len + n)
			cap *= 2;
		if (!(p = realloc(o->p, cap))) {
			o->failed = true;
			return NULL;
		}
		o->p = p;
		o->cap = cap;
	}
	o->len += n;
	return o->p + o->len - n;
}

static void put64(struct out *o, uint64_t v)
{
	unsigned char *p = room(o, 8);

	for (int i = 0; p && i < 8; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(struct out *o, uint32_t v)
{
	unsigned char *p = room(o, 4);

	for (int i = 0; p && i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* s with its NUL */
static void put_str(struct out *o, const char *s)
{
	size_t n = strlen(s) + 1;
	unsigned char *p = room(o, n);

	if (p)
		memcpy(p, s, n);
}

static void set32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* The names part: the strings in order, NUL-terminated; their offsets. */
static uint32_t name_at(size_t *names_len, const char *s)
{
	uint32_t off = (uint32_t)*names_len;

	*names_len += strlen(s) + 1;
	return off;
}

static int encode(const struct dir_index *ix, struct out *o)
{
	size_t names_len = 0;

	room(o, HEADER_SIZE);
	for (size_t t = 0; t < DIR_INDEX_NR_TYPES; t++)
		put64(o, ix->counts[t]);
	put64(o, ix->nr_offsets);
	for (size_t i = 0; i < ix->nr_files; i++) {
		const struct dir_index_file *f = &ix->files[i];

		put64(o, f->file_size);
		put64(o, (uint64_t)f->mtime_ns);
		put64(o, f->data_offset);
		put64(o, f->data_size);
		put64(o, f->first_entry);
		put64(o, f->nr_entries);
		put32(o, name_at(&names_len, f->name));
		put32(o, (uint32_t)strlen(f->name));
		put32(o, f->flags);
		put32(o, 0);
		put64(o, f->lag);
		put64(o, f->first_turn);
		put64(o, f->nr_turns);
		put64(o, f->first_imm);
		put64(o, f->nr_imm);
	}
	for (size_t i = 0; i < ix->nr_entries; i++) {
		const struct dir_index_entry *e = &ix->entries[i];

		put64(o, e->offset);
		put64(o, e->size);
		put64(o, e->first_time);
		put64(o, e->last_time);
		put64(o, e->nr_rounds);
		put32(o, e->flags);
		put32(o, 0);
		put64(o, e->first_sideband);
		put64(o, e->nr_sideband);
		for (size_t t = 0; t < DIR_INDEX_NR_TYPES; t++)
			put32(o, e->counts[t]);
	}
	for (size_t i = 0; i < ix->nr_events; i++) {
		put64(o, ix->events[i].nr_samples);
		put32(o, name_at(&names_len, ix->events[i].name));
		put32(o, (uint32_t)strlen(ix->events[i].name));
	}
	for (size_t i = 0; i < ix->nr_offsets; i++)
		put64(o, ix->offsets[i]);
	for (size_t i = 0; i < ix->nr_files; i++)
		put_str(o, ix->files[i].name);
	for (size_t i = 0; i < ix->nr_events; i++)
		put_str(o, ix->events[i].name);
	if (o->failed)
		return -ENOMEM;
	/* the header, now that the body is known */
	unsigned char *h = o->p;
	uint64_t body = o->len - HEADER_SIZE;

	memset(h, 0, HEADER_SIZE);
	memcpy(h, DIR_INDEX_MAGIC, 8);
	set32(h + 8, DIR_INDEX_VERSION);
	set32(h + 12, HEADER_SIZE);
	for (int i = 0; i < 8; i++) {
		h[16 + i] = (unsigned char)(ix->interval >> (8 * i));
		h[40 + i] = (unsigned char)((uint64_t)ix->nr_entries >> (8 * i));
		h[48 + i] = (unsigned char)(body >> (8 * i));
	}
	set32(h + 24, (uint32_t)ix->nr_files);
	set32(h + 28, DIR_INDEX_NR_TYPES);
	set32(h + 32, (uint32_t)ix->nr_events);
	set32(h + 56, (uint32_t)crc32(0, h + HEADER_SIZE, (uInt)body));
	set32(h + 60, (uint32_t)crc32(0, h, 60));
	return 0;
}

int dir_index__write(const struct dir_index *ix, const char *path, struct diag *d)
{
	struct out o = { 0 };
	char tmp[PATH_MAX];
	int err = encode(ix, &o), fd = -1;

	if (err) {
		free(o.p);
		return diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	}
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.tmp", path) >= sizeof(tmp)) {
		free(o.p);
		return diag__set(d, path, DIAG_NO_OFFSET, -ENAMETOOLONG, NULL);
	}
	/* exclusively (another dirconvert --index may be writing it), 0600 as perf's */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		free(o.p);
		if (err == -EEXIST)
			return diag__set(d, tmp, DIAG_NO_OFFSET, err, "exists: another "
					 "dirconvert may be writing %s (remove it if not)", path);
		return diag__set(d, tmp, DIAG_NO_OFFSET, err, "cannot create: %s",
				 strerror(-err));
	}
	for (size_t done = 0; done < o.len;) {
		ssize_t n = write(fd, o.p + done, o.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	if (close(fd) && !err)
		err = -errno;
	if (!err && rename(tmp, path))
		err = -errno;
	free(o.p);
	if (err) {
		unlink(tmp);
		return diag__set(d, path, DIAG_NO_OFFSET, err, "write: %s",
				 strerror(-err));
	}
	return 0;
}

/* ---- reading ------------------------------------------------------------------- */

static uint64_t get64(const unsigned char *p)
{
	uint64_t v = 0;

	for (int i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
	       (uint32_t)p[3] << 24;
}

static int bad(struct diag *d, const char *path, uint64_t off, const char *what)
{
	return diag__set(d, path, off, -DIAG_BAD_INDEX, "%s", what);
}

/* The name at [off, off + len) of the names part (NUL-terminated there), copied. */
static int get_name(const unsigned char *names, size_t names_len, uint32_t off,
		    uint32_t len, char **out)
{
	if ((uint64_t)off + len >= names_len || names[off + len] != '\0' ||
	    memchr(names + off, '\0', len))
		return -DIAG_BAD_INDEX;
	if (!(*out = malloc((size_t)len + 1)))
		return -ENOMEM;
	memcpy(*out, names + off, (size_t)len + 1);
	return 0;
}

/* Whether [first, first + n) lies inside the n_all offsets and ascends. */
static bool list_ok(const struct dir_index *ix, uint64_t first, uint64_t n)
{
	if (first > ix->nr_offsets || n > ix->nr_offsets - first)
		return false;
	for (uint64_t k = first + 1; k < first + n; k++)
		if (ix->offsets[k] <= ix->offsets[k - 1])
			return false;
	return true;
}

/* Whether the (ascending) offsets [first, first + n) lie inside f's data. */
static bool inside(const struct dir_index *ix, const struct dir_index_file *f,
		   uint64_t first, uint64_t n)
{
	return !n || (ix->offsets[first] >= f->data_offset &&
		      ix->offsets[first + n - 1] - f->data_offset < f->data_size);
}

static int decode(struct dir_index *ix, const unsigned char *p, size_t len,
		  const char *path, struct diag *d)
{
	uint32_t nr_types, nr_files, nr_events;
	uint64_t nr_entries, nr_offsets, body, entry_size, need, fixed;
	const unsigned char *q, *names, *offs;
	size_t names_len;

	if (len < HEADER_SIZE || memcmp(p, DIR_INDEX_MAGIC, 8))
		return bad(d, path, 0, "not a dirreport index (bad magic)");
	if (get32(p + 8) != DIR_INDEX_VERSION || get32(p + 12) != HEADER_SIZE)
		return bad(d, path, 8, "unsupported index version");
	if (get32(p + 60) != (uint32_t)crc32(0, p, 60))
		return bad(d, path, 60, "header checksum mismatch");
	ix->interval = get64(p + 16);
	nr_files = get32(p + 24);
	nr_types = get32(p + 28);
	nr_events = get32(p + 32);
	nr_entries = get64(p + 40);
	body = get64(p + 48);
	if (body != len - HEADER_SIZE)
		return bad(d, path, 48, "body size does not match the file");
	if (get32(p + 56) != (uint32_t)crc32(0, p + HEADER_SIZE, (uInt)body))
		return bad(d, path, 56, "body checksum mismatch");
	if (nr_types != DIR_INDEX_NR_TYPES)
		return bad(d, path, 28, "counts a different set of record types");
	entry_size = ENTRY_FIXED + 4ull * nr_types;
	fixed = 8ull * nr_types + 8;
	if (body < fixed)
		return bad(d, path, 24, "counts do not fit the file");
	nr_offsets = get64(p + HEADER_SIZE + 8ull * nr_types);
	need = fixed + (uint64_t)FILE_SIZE * nr_files;
	if (need > body || nr_entries > (body - need) / entry_size ||
	    (uint64_t)EVENT_SIZE * nr_events > body - need - nr_entries * entry_size ||
	    nr_offsets > (body - need - nr_entries * entry_size -
			  (uint64_t)EVENT_SIZE * nr_events) / 8)
		return bad(d, path, 24, "counts do not fit the file");
	q = p + HEADER_SIZE;
	offs = q + need + nr_entries * entry_size + (uint64_t)EVENT_SIZE * nr_events;
	names = offs + 8 * nr_offsets;
	names_len = (size_t)(p + len - names);
	for (size_t t = 0; t < nr_types; t++)
		ix->counts[t] = get64(q + 8 * t);
	q += fixed;
	ix->files = calloc(nr_files ? nr_files : 1, sizeof(*ix->files));
	ix->entries = calloc(nr_entries ? nr_entries : 1, sizeof(*ix->entries));
	ix->events = calloc(nr_events ? nr_events : 1, sizeof(*ix->events));
	ix->offsets = malloc(nr_offsets ? nr_offsets * 8 : 1);
	if (!ix->files || !ix->entries || !ix->events || !ix->offsets)
		return -ENOMEM;
	for (size_t i = 0; i < nr_offsets; i++)
		ix->offsets[i] = get64(offs + 8 * i);
	ix->nr_offsets = nr_offsets;
	for (size_t i = 0; i < nr_files; i++, q += FILE_SIZE) {
		struct dir_index_file *f = &ix->files[i];
		int err;

		f->file_size = get64(q);
		f->mtime_ns = (int64_t)get64(q + 8);
		f->data_offset = get64(q + 16);
		f->data_size = get64(q + 24);
		f->first_entry = get64(q + 32);
		f->nr_entries = get64(q + 40);
		if ((err = get_name(names, names_len, get32(q + 48), get32(q + 52), &f->name)))
			return err == -ENOMEM ? err : bad(d, path, (uint64_t)(q - p), "bad file name");
		f->flags = get32(q + 56);
		f->lag = get64(q + 64);
		f->first_turn = get64(q + 72);
		f->nr_turns = get64(q + 80);
		f->first_imm = get64(q + 88);
		f->nr_imm = get64(q + 96);
		ix->nr_files++;
		if (f->first_entry > nr_entries || f->nr_entries > nr_entries - f->first_entry ||
		    f->data_offset > f->file_size || f->data_size > f->file_size - f->data_offset)
			return bad(d, path, (uint64_t)(q - p), "file entry out of range");
		if ((f->flags & DIR_INDEX_SCANNED) &&
		    (!list_ok(ix, f->first_turn, f->nr_turns) ||
		     !list_ok(ix, f->first_imm, f->nr_imm)))
			return bad(d, path, (uint64_t)(q - p), "file's scan lists out of range");
	}
	for (size_t i = 0; i < nr_entries; i++, q += entry_size) {
		struct dir_index_entry *e = &ix->entries[i];

		e->offset = get64(q);
		e->size = get64(q + 8);
		e->first_time = get64(q + 16);
		e->last_time = get64(q + 24);
		e->nr_rounds = get64(q + 32);
		e->flags = get32(q + 40);
		e->first_sideband = get64(q + 48);
		e->nr_sideband = get64(q + 56);
		for (size_t t = 0; t < nr_types; t++)
			e->counts[t] = get32(q + ENTRY_FIXED + 4 * t);
		if ((e->flags & DIR_INDEX_SIDEBAND) &&
		    !list_ok(ix, e->first_sideband, e->nr_sideband))
			return bad(d, path, (uint64_t)(q - p), "entry's side-band list out of range");
	}
	ix->nr_entries = nr_entries;
	for (size_t i = 0; i < nr_files; i++) {	/* entries inside their file's data */
		const struct dir_index_file *f = &ix->files[i];

		for (size_t k = f->first_entry; k < f->first_entry + f->nr_entries; k++) {
			const struct dir_index_entry *e = &ix->entries[k];

			if (e->offset < f->data_offset || e->size > f->data_size ||
			    e->offset - f->data_offset > f->data_size - e->size ||
			    (k > f->first_entry && e->offset < e[-1].offset + e[-1].size))
				return bad(d, path, HEADER_SIZE, "entry outside its file's data");
			/* side-band records inside their entry */
			if ((e->flags & DIR_INDEX_SIDEBAND) && e->nr_sideband &&
			    (ix->offsets[e->first_sideband] < e->offset ||
			     ix->offsets[e->first_sideband + e->nr_sideband - 1] - e->offset >=
			     e->size))
				return bad(d, path, HEADER_SIZE,
					   "side-band record outside its entry");
		}
		if ((f->flags & DIR_INDEX_SCANNED) &&
		    (!inside(ix, f, f->first_turn, f->nr_turns) ||
		     !inside(ix, f, f->first_imm, f->nr_imm)))
			return bad(d, path, HEADER_SIZE, "scan offset outside its file's data");
	}
	for (size_t i = 0; i < nr_events; i++, q += EVENT_SIZE) {
		int err;

		ix->events[i].nr_samples = get64(q);
		if ((err = get_name(names, names_len, get32(q + 8), get32(q + 12),
				    &ix->events[i].name)))
			return err == -ENOMEM ? err : bad(d, path, (uint64_t)(q - p), "bad event name");
		ix->nr_events++;
	}
	return 0;
}

int dir_index__read(struct dir_index **out, const char *path, struct diag *d)
{
	struct dir_index *ix;
	unsigned char *buf = NULL;
	struct stat st;
	size_t len = 0;
	int fd, err = 0;

	*out = NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		err = -errno;
		return err == -ENOENT ? err : diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	}
	if (fstat(fd, &st) || st.st_size < 0 || (uint64_t)st.st_size > (1ull << 34)) {
		close(fd);
		return bad(d, path, DIAG_NO_OFFSET, "not a readable index file");
	}
	if (!(buf = malloc((size_t)st.st_size ? (size_t)st.st_size : 1))) {
		close(fd);
		return -ENOMEM;
	}
	while (len < (size_t)st.st_size) {
		ssize_t n = read(fd, buf + len, (size_t)st.st_size - len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		len += (size_t)n;
	}
	close(fd);
	if (err) {
		free(buf);
		return diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	}
	if (!(ix = calloc(1, sizeof(*ix)))) {
		free(buf);
		return -ENOMEM;
	}
	err = decode(ix, buf, len, path, d);
	free(buf);
	if (err) {
		dir_index__delete(ix);
		return err == -ENOMEM ? diag__set(d, path, DIAG_NO_OFFSET, err, NULL) : err;
	}
	*out = ix;
	return 0;
}

/* ---- freshness ----------------------------------------------------------------- */

static int64_t mtime_ns(const struct stat *st)
{
	return (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec;
}

bool dir_index__fresh(const struct dir_index *ix, const char *input, bool is_dir,
		      char *why, size_t len)
{
	char path[PATH_MAX];
	struct stat st;
	size_t data_n = 0;

	for (size_t i = 0; i < ix->nr_files; i++) {
		const struct dir_index_file *f = &ix->files[i];

		if (is_dir)
			snprintf(path, sizeof(path), "%s/%s", input, f->name);
		else
			snprintf(path, sizeof(path), "%s", input);
		if (stat(path, &st)) {
			snprintf(why, len, "%s: %s", f->name, strerror(errno));
			return false;
		}
		if ((uint64_t)st.st_size != f->file_size || mtime_ns(&st) != f->mtime_ns) {
			snprintf(why, len, "%s changed since the index was made", f->name);
			return false;
		}
		data_n += is_dir && !strncmp(f->name, "data.", 5);
	}
	if (is_dir) {	/* no data.N the index does not know */
		DIR *dir = opendir(input);
		struct dirent *de;
		size_t n = 0;

		if (!dir) {
			snprintf(why, len, "%s: %s", input, strerror(errno));
			return false;
		}
		/* counted as the session opens them: regular and not empty (a CPU
		 * with nothing to record leaves an empty data.N, which neither the
		 * index nor the session has) */
		while ((de = readdir(dir))) {
			if (strncmp(de->d_name, "data.", 5) ||
			    (size_t)snprintf(path, sizeof(path), "%s/%s", input, de->d_name) >=
			    sizeof(path))
				continue;
			n += stat(path, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0;
		}
		closedir(dir);
		if (n != data_n) {
			snprintf(why, len, "the directory has %zu data files, the index %zu", n,
				 data_n);
			return false;
		}
	}
	return true;
}

int dir_index__open(const char *input, bool is_dir, size_t nr_files, size_t nr_events,
		    struct dir_index **out, char *why, size_t len)
{
	struct diag d = { .offset = DIAG_NO_OFFSET };
	char path[PATH_MAX], reason[256];
	struct dir_index *ix = NULL;
	int err;

	*out = NULL;
	if (dir_index__path(input, is_dir, path, sizeof(path)))
		return -ENOENT;
	err = dir_index__read(&ix, path, &d);
	if (err == -ENOENT || err == -ENOMEM)
		return err;
	if (err) {
		diag__format(&d, why, len);
		return 1;
	}
	if (ix->nr_files != nr_files || ix->nr_events != nr_events) {
		snprintf(why, len, "%s: it describes %zu files and %zu events, the recording "
			 "has %zu and %zu", path, ix->nr_files, ix->nr_events, nr_files,
			 nr_events);
	} else if (dir_index__fresh(ix, input, is_dir, reason, sizeof(reason))) {
		*out = ix;
		return 0;
	} else {
		snprintf(why, len, "%s: %s", path, reason);
	}
	dir_index__delete(ix);
	return 1;
}

/* ---- building ------------------------------------------------------------------ */

struct bfile {
	struct dir_index_file f;
	struct dir_index_entry *entries;	/* one per interval of the data */
	size_t nr;
	bool *seen;				/* an entry got a record */
	bool *off_disk;				/* an entry has a record from
						 * compressed data */
	uint64_t *sb;				/* side-band record offsets */
	size_t nr_sb, cap_sb;
	uint64_t *turns, *imm;			/* dir_index_builder__scan()'s */
	size_t nr_turns, nr_imm;
	/* the file's records per type (summed at the finish: one file's records may
	 * be counted on their own thread) */
	uint64_t counts[DIR_INDEX_NR_TYPES];
};

struct dir_index_builder {
	uint64_t interval;
	struct bfile *files;
	size_t nr_files;
	struct dir_index_event *events;
	size_t nr_events;
};

int dir_index_builder__new(struct dir_index_builder **out, size_t nr_files,
			   uint64_t interval)
{
	struct dir_index_builder *b = calloc(1, sizeof(*b));

	*out = b;
	if (!b || !(b->files = calloc(nr_files ? nr_files : 1, sizeof(*b->files)))) {
		free(b);
		*out = NULL;
		return -ENOMEM;
	}
	b->nr_files = nr_files;
	b->interval = interval ? interval : DIR_INDEX_INTERVAL;
	return 0;
}

int dir_index_builder__file(struct dir_index_builder *b, size_t i, const char *name,
			    uint64_t file_size, int64_t mtime, uint64_t data_offset,
			    uint64_t data_size)
{
	struct bfile *f = &b->files[i];
	size_t n = (size_t)((data_size + b->interval - 1) / b->interval);

	if (!(f->f.name = strdup(name)))
		return -ENOMEM;
	f->f.file_size = file_size;
	f->f.mtime_ns = mtime;
	f->f.data_offset = data_offset;
	f->f.data_size = data_size;
	f->nr = n;
	f->entries = calloc(n ? n : 1, sizeof(*f->entries));
	f->seen = calloc(n ? n : 1, sizeof(*f->seen));
	f->off_disk = calloc(n ? n : 1, sizeof(*f->off_disk));
	if (!f->entries || !f->seen || !f->off_disk)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++) {
		f->entries[k].offset = UINT64_MAX;
		f->entries[k].first_time = UINT64_MAX;
	}
	return 0;
}

int dir_index_builder__record(struct dir_index_builder *b, size_t file, uint64_t offset,
			      uint32_t type, uint64_t time, bool independent)
{
	struct bfile *f = &b->files[file];
	struct dir_index_entry *e;
	size_t k;

	if (type < DIR_INDEX_NR_TYPES) {
		f->counts[0]++;
		f->counts[type]++;
	}
	if (offset < f->f.data_offset || offset - f->f.data_offset >= f->f.data_size)
		return 0;	/* outside the data section (a pipe's header records) */
	k = (size_t)((offset - f->f.data_offset) / b->interval);
	e = &f->entries[k];
	f->seen[k] = true;
	if (offset < e->offset) {
		e->offset = offset;
		e->flags = independent ? DIR_INDEX_INDEPENDENT : 0;
	}
	if (time != UINT64_MAX) {
		if (time < e->first_time)
			e->first_time = time;
		if (time > e->last_time)
			e->last_time = time;
	}
	if (type < DIR_INDEX_NR_TYPES) {
		e->counts[0]++;
		e->counts[type]++;
	}
	e->nr_rounds += type == REC_FINISHED_ROUND;
	/* a sample without a time is never left out (perf keeps time 0): its entry
	 * gets no side-band list */
	if (type == REC_SAMPLE && time == UINT64_MAX)
		f->off_disk[k] = true;
	return 0;
}

int dir_index_builder__place(struct dir_index_builder *b, size_t file, uint64_t offset,
			     uint32_t type, bool on_disk)
{
	struct bfile *f = &b->files[file];
	size_t k;

	if (offset < f->f.data_offset || offset - f->f.data_offset >= f->f.data_size)
		return 0;
	k = (size_t)((offset - f->f.data_offset) / b->interval);
	if (!on_disk) {
		f->off_disk[k] = true;
		return 0;
	}
	if (type == REC_SAMPLE)
		return 0;
	if (array__grow(&f->sb, &f->cap_sb, f->nr_sb + 1, sizeof(*f->sb), 256))
		return -ENOMEM;
	f->sb[f->nr_sb++] = offset;
	return 0;
}

static uint64_t *dup_offsets(const uint64_t *v, size_t n)
{
	uint64_t *c = malloc(n ? n * sizeof(*c) : 1);

	if (c && n)
		memcpy(c, v, n * sizeof(*c));
	return c;
}

int dir_index_builder__scan(struct dir_index_builder *b, size_t i, uint64_t lag,
			    const uint64_t *turns, size_t nr_turns, const uint64_t *imm,
			    size_t nr_imm)
{
	struct bfile *f = &b->files[i];

	free(f->turns);
	free(f->imm);
	f->turns = dup_offsets(turns, nr_turns);
	f->imm = dup_offsets(imm, nr_imm);
	if (!f->turns || !f->imm)
		return -ENOMEM;
	f->nr_turns = nr_turns;
	f->nr_imm = nr_imm;
	f->f.lag = lag;
	f->f.flags |= DIR_INDEX_SCANNED;
	return 0;
}

int dir_index_builder__event(struct dir_index_builder *b, size_t idx, const char *name,
			     uint64_t nr_samples)
{
	if (idx >= b->nr_events) {
		struct dir_index_event *v = realloc(b->events, (idx + 1) * sizeof(*v));

		if (!v)
			return -ENOMEM;
		memset(v + b->nr_events, 0, (idx + 1 - b->nr_events) * sizeof(*v));
		b->events = v;
		b->nr_events = idx + 1;
	}
	if (!b->events[idx].name && !(b->events[idx].name = strdup(name)))
		return -ENOMEM;
	b->events[idx].nr_samples += nr_samples;
	return 0;
}

void dir_index_builder__delete(struct dir_index_builder *b)
{
	if (!b)
		return;
	for (size_t i = 0; i < b->nr_files; i++) {
		free(b->files[i].f.name);
		free(b->files[i].entries);
		free(b->files[i].seen);
		free(b->files[i].off_disk);
		free(b->files[i].sb);
		free(b->files[i].turns);
		free(b->files[i].imm);
	}
	for (size_t i = 0; i < b->nr_events; i++)
		free(b->events[i].name);
	free(b->events);
	free(b->files);
	free(b);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

int dir_index_builder__finish(struct dir_index_builder *b, struct dir_index **out)
{
	struct dir_index *ix = calloc(1, sizeof(*ix));
	size_t total = 0, nr_off = 0;
	int err = -ENOMEM;

	*out = NULL;
	if (!ix)
		goto out;
	for (size_t i = 0; i < b->nr_files; i++) {
		for (size_t k = 0; k < b->files[i].nr; k++)
			total += b->files[i].seen[k];
		nr_off += b->files[i].nr_sb + b->files[i].nr_turns + b->files[i].nr_imm;
	}
	ix->interval = b->interval;
	ix->files = calloc(b->nr_files ? b->nr_files : 1, sizeof(*ix->files));
	ix->entries = calloc(total ? total : 1, sizeof(*ix->entries));
	ix->offsets = malloc(nr_off ? nr_off * sizeof(*ix->offsets) : 1);
	if (!ix->files || !ix->entries || !ix->offsets)
		goto out;
	for (size_t i = 0; i < b->nr_files; i++) {
		struct bfile *f = &b->files[i];
		size_t first = ix->nr_entries, sb = 0;

		ix->files[i] = f->f;
		f->f.name = NULL;	/* moved */
		ix->nr_files++;
		ix->files[i].first_entry = first;
		ix->files[i].first_turn = ix->nr_offsets;
		ix->files[i].nr_turns = f->nr_turns;
		if (f->nr_turns)
			memcpy(ix->offsets + ix->nr_offsets, f->turns,
			       f->nr_turns * sizeof(uint64_t));
		ix->nr_offsets += f->nr_turns;
		ix->files[i].first_imm = ix->nr_offsets;
		ix->files[i].nr_imm = f->nr_imm;
		if (f->nr_imm)
			memcpy(ix->offsets + ix->nr_offsets, f->imm,
			       f->nr_imm * sizeof(uint64_t));
		ix->nr_offsets += f->nr_imm;
		if (f->nr_sb)
			qsort(f->sb, f->nr_sb, sizeof(*f->sb), cmp_u64);
		for (size_t k = 0; k < f->nr; k++) {
			struct dir_index_entry *e;

			if (!f->seen[k])
				continue;
			e = &ix->entries[ix->nr_entries++];
			*e = f->entries[k];
			/* the interval's side-band records (an entry runs to the next
			 * one's first record, which lies in a later interval) */
			uint64_t lim = f->f.data_offset + (k + 1) * b->interval;

			e->first_sideband = ix->nr_offsets;
			e->nr_sideband = 0;
			for (; sb < f->nr_sb && f->sb[sb] < lim; sb++)
				if (!f->off_disk[k])
					ix->offsets[ix->nr_offsets++] = f->sb[sb];
			e->nr_sideband = ix->nr_offsets - e->first_sideband;
			if (!f->off_disk[k])
				e->flags |= DIR_INDEX_SIDEBAND;
		}
		ix->files[i].nr_entries = ix->nr_entries - first;
		/* each entry runs to the next one's first record (or the data's end) */
		for (size_t k = first; k < ix->nr_entries; k++) {
			uint64_t end = k + 1 < ix->nr_entries ? ix->entries[k + 1].offset
							       : f->f.data_offset + f->f.data_size;

			ix->entries[k].size = end - ix->entries[k].offset;
		}
	}
	for (size_t i = 0; i < b->nr_files; i++)
		for (size_t t = 0; t < DIR_INDEX_NR_TYPES; t++)
			ix->counts[t] += b->files[i].counts[t];
	ix->events = b->events;
	ix->nr_events = b->nr_events;
	b->events = NULL;
	b->nr_events = 0;
	*out = ix;
	ix = NULL;
	err = 0;
out:
	dir_index__delete(ix);
	dir_index_builder__delete(b);
	return err;
}
