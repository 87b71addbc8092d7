#define DIRREPORT_IN_READER
#include "reader/session.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>	/* open */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>	/* asprintf */
#include <stdlib.h>	/* calloc, free, qsort_r */
#include <string.h>	/* strcmp, strncmp, strdup */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/event.h"
#include "format/feature.h"
#include "format/index.h"
#include "format/record.h"
#include "reader/ordered.h"
#include "reader/reader-internal.h"
#include "util/workqueue.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "banned.h"

/* perf reads at least this many on-disk bytes from one file of a directory before it
 * moves to the next (docs/perf-data-format.md §7.3). */
#define DIR_TURN_BYTES (2u << 20)
/* A single file's scan pass: parts of at least this many bytes, about four per
 * thread (scan_split()). */
#define SCAN_PART_MIN (1u << 20)
#define SCAN_PART_WINDOW 4096	/* records a part holds at once */

/* Records per file held at once when a directory is streamed (default).  A quarter
 * of it is also how often a directory's merge hands a batch over (deliver_streamed()),
 * so it bounds the front ends' per-batch arrays too: 65536 held 111 MB at the peak of
 * the bench directory's report, 16384 89 MB (with 1 MiB release steps, reader.c),
 * 8192 78 MB but 5 % more wall (batches of 2048 records); 16384 was as fast as 65536
 * at -j 1 and -j 2 on both bench recordings. */
#define STREAM_WINDOW 16384
/* Delivered windows' record arrays a file keeps for its next windows: a single
 * file's queue holds up to three windows at once (the bench file), each array 2 MiB
 * mapped, whose first touch cost the producer a tenth of the flat report's CPU when
 * all but one were unmapped and mapped afresh. */
#define STREAM_SPARES 3

struct session {
	char *path;			/* owned: as given */
	bool is_pipe, is_dir, swap;
	bool read_again;	/* opened by path from a regular file (a directory's
				 * data file): opening the path again reads it again */
	struct file_header header;
	struct file_section feat[FEAT_BITS];
	uint64_t feat_offset;
	int64_t mtime;
	struct evlist evlist;
	struct features features;	/* parsed feature sections (pipe: after load) */
	struct reader *readers;		/* owned array; [0] holds the header file */
	size_t nr_readers;
	struct workqueue *wq;		/* owned */
	bool queue_enabled;		/* perf's ordered-events queue is on */
	size_t window;			/* records per file window (streaming) */
	size_t scan_part;		/* bytes: least part of a split scan */
	bool streamed;			/* directory read in windows: records are
					 * delivered from a second pass (see below) */
	char **warnings;		/* owned */
	size_t nr_warnings;
	bool use_index;			/* session_opts.use_index */
	bool scan_optional;		/* session_opts.scan_optional */
	struct dir_index *ix;		/* owned: the index load started from, or NULL */
	bool by_offset;			/* records are keyed by file offset instead of
					 * ordinal (an index's turns and immediates) */
	const struct session_time_range *keep;	/* borrowed: session__keep_samples() */
	size_t nr_keep;
	unsigned held_batches;		/* session__hold_batches() */
	uint64_t bytes_read;		/* session__bytes_read() */
	struct diag deliver_diag;	/* session__deliver_error(): a reader's error
					 * during a delivery (code 0: none) */
};

static int parse_features(struct session *s, struct diag *d);

static int add_reader(struct session *s, const char *label, const char *fspath)
{
	struct reader *n = realloc(s->readers, (s->nr_readers + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->readers = n;
	n = &s->readers[s->nr_readers];
	memset(n, 0, sizeof(*n));
	n->index = (uint16_t)s->nr_readers++;
	n->label = strdup(label);
	n->fspath = strdup(fspath);
	n->evlist = &s->evlist;
	n->swap = s->swap;
	n->is_pipe = s->is_pipe;
	return n->label && n->fspath ? 0 : -ENOMEM;
}

static int add_warning(struct session *s, char *w)
{
	char **n = realloc(s->warnings, (s->nr_warnings + 1) * sizeof(*n));

	if (!n) {
		free(w);
		return -ENOMEM;
	}
	s->warnings = n;
	s->warnings[s->nr_warnings++] = w;
	return 0;
}

int session__warn(struct session *s, const char *fmt, ...)
{
	va_list ap;
	char *w = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&w, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	return add_warning(s, w);
}

static int open_fd(const char *fspath, const char *label, struct diag *d)
{
	int fd = open(fspath, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return diag__set(d, label, DIAG_NO_OFFSET, -errno, "cannot open: %s",
				 diag__code_str(-errno));
	return fd;
}

/* Regular file: header, attrs, feature table, data section bounds. */
static int open_regular(struct session *s, struct reader *r, struct diag *d)
{
	const unsigned char *m = r->st.map;
	uint64_t len = r->st.map_len, end, cut;
	int err;

	err = file_header__read(&s->header, &s->swap, m, r->st.map_len, len, r->label, d);
	if (err)
		return err;
	r->swap = s->swap;
	err = file_header__read_attrs(&s->header, s->swap, m, r->st.map_len, &s->evlist,
				      r->label, d);
	if (err)
		return err;
	if (!s->evlist.nr)
		return diag__set(d, r->label, 24, -DIAG_BAD_ATTR, "no event attributes");
	err = evlist__check(&s->evlist, d);
	if (err) {
		snprintf(d->path, sizeof(d->path), "%s", r->label);
		d->offset = s->header.attrs.offset;
		return err;
	}
	/* perf puts the data right after the attrs: a start past the end of the file is
	 * damage, not a cut (fuzzing found it) */
	if (s->header.data.offset > len)
		return diag__set(d, r->label, 40, -DIAG_BAD_HEADER,
				 "data section starts at %#llx, past the end of the file (%#llx)",
				 (unsigned long long)s->header.data.offset,
				 (unsigned long long)len);
	r->st.start = r->st.pos = s->header.data.offset;
	end = s->header.data.offset + s->header.data.size;
	if (s->header.data.size == 0 || end > len || end < s->header.data.offset) {
		/* Not finalised (perf record killed) or cut short: read to the end. */
		end = len;
		r->cut_is_warning = true;
		r->cut_warned = true;	/* one warning per file */
		if (s->header.data.size ? asprintf(&r->warning,
			"%s: offset %#llx: file is cut short (data section ends at %#llx); "
			"reporting the records before the cut", r->label,
			(unsigned long long)len,
			(unsigned long long)(s->header.data.offset + s->header.data.size)) < 0
		    : asprintf(&r->warning, "%s: offset 0x30: data size is 0 (perf record did "
			       "not finish); reading the records up to the end of the file",
			       r->label) < 0)
			r->warning = NULL;
		r->st.end = end;
		return 0;	/* the feature table is gone with the cut */
	}
	r->st.end = end;
	err = file_header__feat_sections_cut(&s->header, s->swap, m, r->st.map_len, s->feat,
					     &s->feat_offset, &cut, r->label, d);
	if (!err && cut != UINT64_MAX && asprintf(&r->warning,
		"%s: offset %#llx: file ends inside the feature sections; the features from "
		"there on are ignored", r->label, (unsigned long long)cut) < 0)
		r->warning = NULL;
	return err;
}


/* data.* files of a directory, in readdir order as perf 6.1 takes them: regular and
 * non-empty ones; one that cannot be stat()ed is skipped with a warning. */
static int open_dir_files(struct session *s, struct diag *d)
{
	DIR *dir = opendir(s->path);
	struct dirent *de;
	int err = 0;

	if (!dir)
		return diag__set(d, s->path, DIAG_NO_OFFSET, -errno, "cannot open directory: %s",
				 diag__code_str(-errno));
	while (!err && (de = readdir(dir))) {
		char *fs;
		struct stat st;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		if (asprintf(&fs, "%s/%s", s->path, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (stat(fs, &st) < 0) {
			/* a dangling link, say: perf 6.1 skips the file silently; it is
			 * skipped here with a warning naming it */
			err = session__warn(s, "%s: cannot open: %s; the directory's other "
					    "data files are read without it", fs,
					    diag__code_str(-errno));
		} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
			if (s->nr_readers >= UINT16_MAX)
				err = diag__set(d, s->path, DIAG_NO_OFFSET, -DIAG_BAD_RECORD,
						"too many data files");
			else
				err = add_reader(s, fs, fs);
		}
		free(fs);
	}
	closedir(dir);
	if (!err && s->nr_readers == 1)
		err = diag__set(d, s->path, DIAG_NO_OFFSET, -DIAG_NO_DATA_FILE,
				"data directory has no non-empty data.* file");
	return err;
}

static int open_pipe(struct session *s, struct reader *r)
{
	free(r->label);
	r->label = strdup("pipe");
	if (!r->label)
		return -ENOMEM;
	r->st.start = r->st.pos = PIPE_HEADER_SIZE;
	r->st.end = r->st.map_len;
	r->st.label_base = PIPE_HEADER_SIZE;
	r->cut_is_warning = true;
	r->is_pipe = true;
	r->swap = s->swap;
	return 0;
}

int session__open(struct session **out, const struct session_opts *opts, struct diag *d)
{
	struct session *s = calloc(1, sizeof(*s));
	const char *path = opts->path ? opts->path : "perf.data";
	bool is_stdin = !strcmp(path, "-");
	struct stat st;
	char *hdr_path = NULL;
	unsigned jobs = opts->jobs ? opts->jobs : workqueue__online_cpus();
	uint64_t version;
	int fd, err;
	bool regular = false;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	evlist__init(&s->evlist);
	features__init(&s->features);
	s->window = opts->window ? opts->window : STREAM_WINDOW;
	s->scan_part = opts->scan_part ? opts->scan_part : SCAN_PART_MIN;
	s->use_index = opts->use_index;
	s->scan_optional = opts->scan_optional;
	s->path = strdup(path);
	if (!s->path) {
		err = -ENOMEM;
		goto err;
	}
	if (!is_stdin && stat(path, &st) < 0) {
		err = diag__set(d, path, DIAG_NO_OFFSET, -errno, "%s", diag__code_str(-errno));
		goto err;
	}
	if (!is_stdin && S_ISDIR(st.st_mode)) {
		s->is_dir = true;
		if (asprintf(&hdr_path, "%s/data", path) < 0) {
			err = -ENOMEM;
			goto err;
		}
		if (access(hdr_path, F_OK) < 0) {
			err = diag__set(d, path, DIAG_NO_OFFSET, -DIAG_NO_DATA_FILE,
					"data directory has no 'data' file");
			goto err;
		}
	}
	if (is_stdin && fstat(0, &st) < 0)
		st.st_mtime = 0;
	s->mtime = (int64_t)st.st_mtime;	/* perf prints it as "captured on" */
	/* fspath names the file in diagnostics too: standard input is "<stdin>" */
	err = add_reader(s, hdr_path ? hdr_path : path,
			 hdr_path ? hdr_path : is_stdin ? "<stdin>" : path);
	if (err)
		goto err;
	fd = is_stdin ? 0 : open_fd(s->readers[0].fspath, s->readers[0].label, d);
	if (fd < 0) {
		err = fd;
		goto err;
	}
	if (!is_stdin && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		regular = true;
		s->read_again = true;
		s->mtime = (int64_t)st.st_mtime;
		err = reader__map(&s->readers[0], fd, false);
	} else {
		err = reader__map(&s->readers[0], fd, true);	/* stdin or a FIFO */
	}
	/* a regular file's scan pass reads it through a buffer (reader__read_start());
	 * not a directory's `data`: its immediate records, kept (keep_immediate()),
	 * would all be copied out of the buffer - megabytes of perf's synthesized
	 * side-band - where they can stay in the mapping */
	if (!is_stdin && (err || !regular || s->is_dir ||
			  reader__read_start(&s->readers[0], fd)))
		close(fd);
	if (err == -DIAG_NOT_PERF) {	/* a stream's magic: checked before spooling */
		err = diag__set(d, s->readers[0].label, 0, err, NULL);
		goto err;
	}
	if (err == -EFBIG && !regular) {
		err = diag__set(d, s->readers[0].label, DIAG_NO_OFFSET, err,
				"the stream is longer than the %s bytes it may be spooled "
				"(DIRREPORT_SPOOL_MAX)", getenv("DIRREPORT_SPOOL_MAX") &&
				*getenv("DIRREPORT_SPOOL_MAX") ? getenv("DIRREPORT_SPOOL_MAX") :
				"68719476736");
		goto err;
	}
	if (err) {
		err = diag__set(d, s->readers[0].label, DIAG_NO_OFFSET, err, "cannot read: %s",
				diag__code_str(err));
		goto err;
	}
	err = file_header__probe(s->readers[0].st.map, s->readers[0].st.map_len,
				 &s->is_pipe, &s->swap);
	if (err == -DIAG_NOT_PERF || (err == -DIAG_TRUNCATED && s->readers[0].st.map_len >= 8 &&
				       bytes__u64(s->readers[0].st.map) != PERF_MAGIC2 &&
				       bytes__u64(s->readers[0].st.map) != PERF_MAGIC2_SWAPPED)) {
		err = diag__set(d, s->readers[0].label, 0, -DIAG_NOT_PERF, NULL);
		goto err;
	}
	/* a pipe's header records keep pointers into the bytes (pipe_feature()) */
	if (s->is_pipe)
		reader__read_stop(&s->readers[0]);
	if (!err && s->is_pipe && !s->is_dir)
		err = open_pipe(s, &s->readers[0]);
	else
		err = open_regular(s, &s->readers[0], d);
	if (err)
		goto err;
	if (s->readers[0].warning) {
		err = add_warning(s, s->readers[0].warning);
		s->readers[0].warning = NULL;
		if (err)
			goto err;
	}
	if (!s->is_pipe && (err = parse_features(s, d)))
		goto err;
	if (s->is_dir) {
		version = features__has(&s->features, FEAT_DIR_FORMAT) ?
			  features__dir_version(&s->features) : 0;
		if (version > 1) {
			err = diag__set(d, s->readers[0].label, s->feat[FEAT_DIR_FORMAT].offset,
					-DIAG_DIR_VERSION,
					"unsupported data directory version %llu",
					(unsigned long long)version);
			goto err;
		}
		/* Without DIR_FORMAT perf reads `data` alone, even if data.* exist. */
		s->is_dir = version == 1;
		if (s->is_dir && (err = open_dir_files(s, d)))
			goto err;
	}
	err = workqueue__new(&s->wq, jobs > 1 ? jobs - 1 : 0);
	if (err)
		goto err;
	free(hdr_path);
	*out = s;
	return 0;
err:
	free(hdr_path);
	session__close(s);
	return err;
}

void session__close(struct session *s)
{
	if (!s)
		return;
	workqueue__delete(s->wq);
	dir_index__delete(s->ix);
	for (size_t i = 0; i < s->nr_readers; i++)
		reader__exit(&s->readers[i]);
	free(s->readers);
	for (size_t i = 0; i < s->nr_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	evlist__exit(&s->evlist);
	features__exit(&s->features);
	free(s->path);
	free(s);
}

/* Map data.N file r (on the worker that reads it); with @p read_fd its records are
 * then read through a buffer (reader__read_start()). */
static int map_data_file(struct reader *r, bool read_fd)
{
	int fd = open_fd(r->fspath, r->label, &r->diag);

	if (fd < 0)
		return r->err = fd;
	r->err = reader__map(r, fd, false);
	if (!r->err && read_fd && reader__read_start(r, fd) == 0)
		fd = -1;	/* the reader's */
	if (fd >= 0)
		close(fd);
	if (r->err)
		return diag__set(&r->diag, r->label, DIAG_NO_OFFSET, r->err, "cannot read: %s",
				 diag__code_str(r->err));
	r->st.start = r->st.pos = 0;
	r->st.end = r->st.map_len;
	r->cut_is_warning = true;
	return 0;
}

static void load_one(void *ctx, size_t i)
{
	struct session *s = ctx;
	struct reader *r = &s->readers[i];

	if (i > 0 && !r->st.map && map_data_file(r, false))
		return;
	reader__read_stop(r);	/* every record is kept: they point into the mapping */
	reader__run(r);
}

static bool immediate(const struct record_ref *ref, bool queue_enabled)
{
	return !queue_enabled || ref->type >= REC_USER_FIRST || ref->time == 0 ||
	       ref->time == UINT64_MAX;
}

/*
 * Directories are read in two passes so that memory stays bounded by a window of
 * records per file. perf flushes a round-less stream only at its end, so its order is
 * every immediate record (perf's own records, time 0) in arrival order, then every
 * queued record by (time, arrival). The scan pass (one worker per file) validates the
 * whole file and keeps only: the immediate records, where each round-robin turn starts,
 * and whether the queued records are in time order. The delivery pass re-reads each
 * file window by window and merges them.
 */

static int keep_immediate(struct reader *r, const struct record_ref *ref, uint64_t ordinal)
{
	struct record_ref c = *ref;

	if (array__grow(&r->imm, &r->cap_imm, r->nr_imm + 1, sizeof(*r->imm), 256) ||
	    array__grow(&r->imm_ordinal, &r->cap_imm_ordinal, r->nr_imm + 1,
			sizeof(*r->imm_ordinal), 256))
		return -ENOMEM;
	/* bytes outside the mapping (decompressed, byte-swapped) go with the window */
	if (c.data < r->st.map || c.data >= r->st.map + r->st.map_len) {
		unsigned char *copy = arena__alloc(&r->imm_arena, c.size);

		if (!copy)
			return -ENOMEM;
		memcpy(copy, c.data, c.size);
		c.data = copy;
	}
	r->imm[r->nr_imm] = c;
	r->imm_ordinal[r->nr_imm++] = ordinal;
	return 0;
}

static int add_turn(struct reader *r, uint64_t ordinal, uint64_t offset)
{
	if (array__grow(&r->turn_start, &r->cap_turns, r->nr_turns + 1, sizeof(*r->turn_start), 16) ||
	    array__grow(&r->turn_off, &r->cap_turn_off, r->nr_turns + 1, sizeof(*r->turn_off), 16))
		return -ENOMEM;
	r->turn_off[r->nr_turns] = offset;
	r->turn_start[r->nr_turns++] = ordinal;
	return 0;
}

/* What the scan pass learns of the queued records read so far. */
struct scan_times {
	uint64_t last;			/* the newest queued time (0: none yet) */
	uint64_t min;			/* the oldest (UINT64_MAX: none yet) */
	uint64_t lag;			/* how far one trailed the newest before it */
};

/* The scan pass's look at one record (of a file, or of a part of one: scan_split()):
 * an immediate record kept where delivery needs it, a queued one's time; -ENOMEM. */
static int scan_record(const struct session *s, struct reader *r,
		       const struct record_ref *ref, uint64_t ordinal, struct scan_times *t)
{
	if (immediate(ref, s->queue_enabled))	/* files keep only what names events */
		return s->is_dir || ref->type == REC_EVENT_UPDATE ?
		       keep_immediate(r, ref, ordinal) : 0;
	if (ref->time < t->min)
		t->min = ref->time;
	if (ref->time < t->last) {
		/* side-band records trail samples by microseconds */
		if (t->last - ref->time > t->lag)
			t->lag = t->last - ref->time;
	} else {
		t->last = ref->time;
	}
	return 0;
}

static void scan_one(void *ctx, size_t i)
{
	struct session *s = ctx;
	struct reader *r = &s->readers[i];
	struct scan_times t = { .min = UINT64_MAX };
	uint64_t used = 0;
	int err = 0;

	/* mapped already when an index was tried and rejected (index_start()): that
	 * mapping is read (mapping it again leaked the first) */
	if (i > 0 && !r->st.map && map_data_file(r, true))
		return;
	r->lag = 0;
	while (!err && r->st.pos < r->st.end) {
		if (reader__fill(r, s->window))
			return;
		for (size_t k = 0; k < r->nr && !err; k++) {
			const struct record_ref *ref = &r->recs[k];
			uint64_t ordinal = r->base + k;

			/* a turn ends once DIR_TURN_BYTES were read and the next record is on
			 * disk (decompressed records stay with their container) */
			if (ordinal == 0 || (used >= DIR_TURN_BYTES && ref->disk_size)) {
				err = add_turn(r, ordinal, ref->offset);
				used = 0;
			}
			used += ref->disk_size;
			r->off_disk |= !ref->disk_size;
			if (!err)
				err = scan_record(s, r, ref, ordinal, &t);
		}
		reader__recycle(r);
	}
	reader__read_stop(r);	/* delivery keeps records: the mapping */
	r->lag = t.lag;
	r->nr_records = r->base;
	r->scanned = r->err == 0;
	if (!err)
		err = reader__rewind(r);
	if (err)
		r->err = diag__set(&r->diag, r->fspath, DIAG_NO_OFFSET, err, "out of memory");
}

/*
 * The scan pass of one big file split among the workers: the record headers walked
 * on this thread (where each turn starts, and parts of about equal size cut at
 * record boundaries), each part scanned by a worker as scan_one() scans a file as
 * soon as its end is known, then what they kept joined in file order.  Not for a
 * pipe, nor for compressed records (their records are split as they are
 * decompressed, in order).
 */
struct scan_part {
	const struct session *s;
	struct reader r;		/* over its bytes of the file */
	uint64_t first;			/* ordinal of its first record in the file */
	struct scan_times t;		/* of its queued records */
};

struct scan_split {
	struct session *s;
	struct scan_part *parts;	/* owned: room for cap */
	size_t nr, cap;
	struct wq_group g;		/* the parts' jobs */
};


static void scan_part_job(void *arg)
{
	struct scan_part *p = arg;
	const struct session *s = p->s;
	struct reader *r = &p->r;
	int err = 0;

	while (!err && r->st.pos < r->st.end) {
		/* a small window: each part allocates its records array (the default's
		 * 3 MB, faulted in anew per part, made a part 2.5 times slower) */
		if (reader__fill(r, s->window < SCAN_PART_WINDOW ? s->window : SCAN_PART_WINDOW))
			return;
		for (size_t k = 0; k < r->nr && !err; k++)
			err = scan_record(s, r, &r->recs[k], p->first + r->base + k, &p->t);
		reader__recycle(r);
	}
	if (err)
		r->err = diag__set(&r->diag, r->fspath, DIAG_NO_OFFSET, err, "out of memory");
}

/* Join the parts' scans into r's, as scan_one() would have left it. */
static int scan_join(struct reader *r, struct scan_part *parts, size_t nr)
{
	uint64_t prefix_max = 0;

	for (size_t i = 0; i < nr; i++) {
		struct scan_part *p = &parts[i];

		if (p->r.err) {
			r->err = p->r.err;
			r->diag = p->r.diag;
			return 0;
		}
		r->has_rounds |= p->r.has_rounds;
		/* a record trails the newest before it: in its part, or in those before */
		if (p->t.lag > r->lag)
			r->lag = p->t.lag;
		if (prefix_max > p->t.min && prefix_max - p->t.min > r->lag)
			r->lag = prefix_max - p->t.min;
		if (p->t.last > prefix_max)
			prefix_max = p->t.last;
		for (size_t k = 0; k < p->r.nr_imm; k++)
			if (keep_immediate(r, &p->r.imm[k], p->r.imm_ordinal[k]))
				return -ENOMEM;
		r->nr_records = p->first + p->r.base;
	}
	/* the last part may have found the file cut short */
	r->st.end = parts[nr - 1].r.st.end;
	if (parts[nr - 1].r.warning) {
		free(r->warning);
		r->warning = parts[nr - 1].r.warning;
		parts[nr - 1].r.warning = NULL;
	}
	return 0;
}

/* A part of r's bytes [from, to) (to = the end of r: the last one), first record
 * ordinal `first`, queued for a worker; -ENOMEM. */
static int add_part(struct scan_split *sp, const struct reader *r, uint64_t from,
		    uint64_t to, uint64_t first)
{
	struct scan_part *p;

	if (sp->nr == sp->cap)	/* cannot be: parts are at least part_bytes */
		return -ENOMEM;
	p = &sp->parts[sp->nr++];
	*p = (struct scan_part){ .s = sp->s, .first = first, .t.min = UINT64_MAX };
	reader__init_part(&p->r, r, from, to, to == r->st.end);
	return workqueue__queue_group(sp->s->wq, &sp->g, scan_part_job, p);
}

/* 1: not split (scan_one() scans it); else 0 or -ENOMEM (the parts' errors are r's). */
static int scan_split(struct session *s)
{
	struct reader *r = &s->readers[0];
	size_t threads = workqueue__nr_workers(s->wq) + 1;
	uint64_t bytes = r->st.end - r->st.pos, part_bytes = bytes / (4 * threads);
	uint64_t off = r->st.pos, from = off, from_ordinal = 0, ordinal = 0, used = 0, span;
	struct scan_split sp = { .s = s };
	const unsigned char *p;
	int err = 0, ret = -1;

	/* two workers at least: the report's and the dump's kernel symbols job takes
	 * one during the load (with one worker the parts ran one after the other on
	 * this thread, the header pass only added to the load: 102 against 88 ms for
	 * 60 MB) */
	if (s->nr_readers != 1 || s->is_pipe || threads < 3 || r->st.map_is_malloc)
		return 1;
	if (part_bytes < s->scan_part)
		part_bytes = s->scan_part;
	if (bytes / 2 < part_bytes)
		return 1;
	sp.cap = bytes / part_bytes + 1;
	if (!(sp.parts = calloc(sp.cap, sizeof(*sp.parts))))
		return -ENOMEM;
	r->lag = 0;
	r->nr_turns = 0;
	/* the headers, through r's read buffer (a first touch of every page of the
	 * mapping on this one thread cost three times the copy: 60 MB, 35-43 ms
	 * against 13-15 ms; the parts then fault their pages in on the workers): turns
	 * as scan_one() makes them, and the parts' bounds */
	for (; (p = reader__peek(r, off, r->st.end - off < 16 ? r->st.end - off : 16)) &&
	       !(ret = reader__record_span(r, p, r->st.end - off, &span));
	     off += span, ordinal++) {
		if (ordinal == 0 || used >= DIR_TURN_BYTES) {
			if ((err = add_turn(r, ordinal, off)))
				goto out;
			used = 0;
		}
		used += span;
		if (off - from >= part_bytes && r->st.end - off >= part_bytes) {
			if ((err = add_part(&sp, r, from, off, from_ordinal)))
				goto out;
			from = off;
			from_ordinal = ordinal;
		}
	}
	if (ret > 0 || !sp.nr) {	/* compressed records: scanned whole, in order */
		r->nr_turns = 0;
		err = 1;
		goto out;
	}
	/* the rest, to the end of the file (or to the first record that is not whole:
	 * the last part reports it, or the file cut short, as scan_one() would) */
	if ((err = add_part(&sp, r, from, r->st.end, from_ordinal)))
		goto out;
	workqueue__group_wait(s->wq, &sp.g);
	if ((err = scan_join(r, sp.parts, sp.nr)))
		goto out;
	r->scanned = r->err == 0;
	if ((err = reader__rewind(r)))
		r->err = diag__set(&r->diag, r->fspath, DIAG_NO_OFFSET, err, "out of memory");
	err = 0;
out:
	workqueue__group_wait(s->wq, &sp.g);	/* the parts queued, if any */
	for (size_t i = 0; i < sp.nr; i++)
		reader__exit_part(&sp.parts[i].r);
	free(sp.parts);
	return err;
}

static void name_events_from_updates(struct session *s);
static void name_events_from_desc(struct session *s);

static int collect_errors(struct session *s, struct diag *d)
{
	int err;

	for (size_t i = 0; i < s->nr_readers; i++) {
		struct reader *r = &s->readers[i];

		if (r->err || reader__changed(r, false)) {
			if (d)
				*d = r->diag;
			return r->err;
		}
		if (r->warning) {
			if ((err = add_warning(s, r->warning)))
				return err;
			r->warning = NULL;
		}
	}
	return 0;
}

/* Undo what index_start() applied to a reader, for the scan pass to run instead. */
static void index_unapply(struct reader *r, uint64_t end)
{
	r->nr = 0;
	arena__exit(&r->arena);
	arena__exit(&r->imm_arena);
	r->nr_imm = 0;
	r->nr_turns = 0;
	r->lag = 0;
	r->has_rounds = false;
	r->base = 0;
	r->err = 0;
	memset(&r->diag, 0, sizeof(r->diag));
	free(r->warning);
	r->warning = NULL;
	r->st.pos = r->st.start;
	r->st.end = end;
}

/*
 * Apply an index's facts of file i to its reader: the lag, the turns, the immediate
 * records (read where the index says), and the tail - the records of the file's last
 * entry are read, so that a file cut inside a record is warned of now, as the scan
 * pass would.  Returns 0, or 1 with *why set when the index does not fit the file.
 */
static int index_apply(struct session *s, const struct dir_index *ix, size_t i,
		       char *why, size_t len)
{
	const struct dir_index_file *f = &ix->files[i];
	struct reader *r = &s->readers[i];
	uint64_t last_page = UINT64_MAX;

	if (f->data_offset != r->st.start || f->data_offset + f->data_size < r->st.end) {
		snprintf(why, len, "%s: its data section is not the index's", r->label);
		return 1;
	}
	r->lag = f->lag;
	if (array__grow(&r->turn_start, &r->cap_turns, f->nr_turns + 1,
			sizeof(*r->turn_start), 16))
		return -ENOMEM;
	if (f->nr_turns)
		memcpy(r->turn_start, ix->offsets + f->first_turn,
		       f->nr_turns * sizeof(*r->turn_start));
	r->nr_turns = f->nr_turns;
	for (size_t k = 0; k < f->nr_entries; k++)
		r->has_rounds |= ix->entries[f->first_entry + k].nr_rounds != 0;
	for (size_t k = 0; k < f->nr_imm; k++) {
		uint64_t off = ix->offsets[f->first_imm + k];
		int err;

		r->st.pos = off;
		if (off < r->st.start || off >= r->st.end || reader__fill(r, r->nr + 1) ||
		    r->st.pos == off || !r->nr || r->recs[r->nr - 1].offset != off ||
		    !immediate(&r->recs[r->nr - 1], s->queue_enabled)) {
			snprintf(why, len, "%s: offset %#llx: no immediate record there",
				 r->label, (unsigned long long)off);
			return 1;
		}
		if ((err = keep_immediate(r, &r->recs[r->nr - 1], off)))
			return err;
		if (off / 4096 != last_page)
			s->bytes_read += 4096;
		last_page = off / 4096;
	}
	r->nr = 0;
	arena__exit(&r->arena);
	/* the tail: validated, a cut warned of (the file's end is then the cut) */
	if (f->nr_entries) {
		const struct dir_index_entry *e = &ix->entries[f->first_entry + f->nr_entries - 1];

		r->st.pos = e->offset;
		while (r->st.pos < r->st.end) {
			uint64_t from = r->st.pos;

			if (reader__fill(r, s->window)) {
				diag__format(&r->diag, why, len);
				return 1;
			}
			s->bytes_read += r->st.pos - from;
			r->nr = 0;
			arena__exit(&r->arena);
			if (r->st.pos == from)
				break;	/* cut short: st.end is now here */
		}
		if (r->warning)
			r->cut_warned = true;
	}
	r->nr = 0;
	arena__exit(&r->arena);
	r->base = 0;
	r->st.pos = r->st.start;
	return 0;
}

/*
 * Start a recording from its index instead of the scan pass: every file's lag, turns
 * and immediate records (a single file: its EVENT_UPDATE records) are the index's,
 * read at their offsets, and records are keyed by file offset (the files have no
 * compressed data, so offsets order them as ordinals do).  Returns 0 when started,
 * 1 when the scan pass must run (no index, one that does not hold or does not fit -
 * warned once - or one without scan facts), or an error.
 */
static int index_start(struct session *s)
{
	char why[1024] = "", *w;
	struct dir_index *ix;
	uint64_t *ends;
	int err = 0;

	if (!s->use_index || s->is_pipe || !strcmp(s->path, "-"))
		return 1;
	err = dir_index__open(s->path, s->is_dir, s->nr_readers, s->evlist.nr, &ix, why,
			      sizeof(why));
	if (err == 1)
		goto ignored;
	if (err)
		return err == -ENOENT ? 1 : err;
	for (size_t i = 0; i < s->nr_readers; i++) {
		const char *label = s->readers[i].label, *base = strrchr(label, '/');

		if (!(ix->files[i].flags & DIR_INDEX_SCANNED) ||
		    strcmp(base ? base + 1 : label, ix->files[i].name)) {
			dir_index__delete(ix);
			return 1;
		}
	}
	if (!(ends = calloc(s->nr_readers, sizeof(*ends)))) {
		dir_index__delete(ix);
		return -ENOMEM;
	}
	for (size_t i = 0; i < s->nr_readers && !err; i++) {
		reader__read_pause(&s->readers[i], true);	/* scattered reads */
		if (i > 0 && !s->readers[i].st.map && map_data_file(&s->readers[i], false)) {
			err = 1;	/* the scan pass reports it */
			break;
		}
		ends[i] = s->readers[i].st.end;
		err = index_apply(s, ix, i, why, sizeof(why));
	}
	if (err) {
		for (size_t i = 0; i < s->nr_readers; i++)
			index_unapply(&s->readers[i], ends[i] ? ends[i] : s->readers[i].st.end);
		s->bytes_read = 0;
	}
	free(ends);
	if (err) {
		dir_index__delete(ix);
		if (err < 0)
			return err;
		if (!*why)
			return 1;
		goto ignored;
	}
	s->ix = ix;
	s->by_offset = true;
	s->streamed = true;
	return 0;
ignored:
	if (asprintf(&w, "index ignored: %s", why) < 0)
		return -ENOMEM;
	return add_warning(s, w) ? -ENOMEM : 1;
}

/*
 * Whether the scan pass may be left out (session_opts.scan_optional): one regular
 * file, not pipe-format, read from its mapping, whose events the header's EVENT_DESC
 * names all - the scan keeps a file's EVENT_UPDATE records only to name the events
 * left unnamed.  Its delivery reads the records in file order (FINISHED_ROUNDs flush
 * perf's queue as they come): the scan's other facts - the round-robin turns and how
 * far records trail in time - are a directory's.  The scan of the bench's 60 MB file
 * took 27 ms of its flat report's 220 at -j 1; the delivery then parses each record
 * (classify()), 8 ms.
 */
static bool scan_skippable(struct session *s)
{
	const struct reader *r = &s->readers[0];

	if (!s->scan_optional || s->nr_readers != 1 || s->is_dir || s->is_pipe || s->ix ||
	    !r->st.map || r->st.map_is_malloc)
		return false;
	name_events_from_desc(s);
	for (size_t i = 0; i < s->evlist.nr; i++)
		if (!s->evlist.evsels[i]->name)
			return false;
	return true;
}

/*
 * DIRREPORT_TEST_PAUSE=FIFO, for tests only (tests/faults/run.sh): once the scan pass
 * is done, before any record is delivered, write a line to FIFO, then wait for its
 * writer to close it - the test changes the input files in between.
 */
static void test_pause(void)
{
	const char *fifo = getenv("DIRREPORT_TEST_PAUSE");
	ssize_t n;
	char c;
	int fd;

	if (!fifo || !*fifo)
		return;
	/* a signal the test sends meanwhile (SIGINT) does not end the wait */
	while ((fd = open(fifo, O_WRONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (fd >= 0) {
		if (write(fd, "paused\n", 7) < 0)
			c = 0;	/* the test sees the fifo closed either way */
		close(fd);
	}
	while ((fd = open(fifo, O_RDONLY | O_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (fd >= 0) {
		while ((n = read(fd, &c, 1)) > 0 || (n < 0 && errno == EINTR))
			;
		close(fd);
	}
}

int session__load(struct session *s, struct diag *d)
{
	const struct evsel *first;
	bool rounds = false;
	int err;

	/* A pipe defines its events as it goes: it is one reader, run it here. */
	if (s->is_pipe && s->readers[0].st.map_is_malloc) {
		/* standard input (or a FIFO): read once, kept whole */
		load_one(s, 0);
	} else {
		/* files, pipe-format files and directories: a scan pass now, records
		 * streamed at delivery */
		first = evlist__first(&s->evlist);
		s->queue_enabled = s->is_pipe || !first ||
				   attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
		err = index_start(s);
		for (size_t i = 0; i < s->nr_readers; i++)
			reader__read_pause(&s->readers[i], false);	/* for the scan */
		if (err < 0)
			return err;
		if (err && scan_skippable(s))
			err = 0;	/* checked as delivered (classify()) */
		if (err && (err = scan_split(s)) < 0)
			return err;
		if (err && (err = parallel_for(s->wq, s->nr_readers, scan_one, s)))
			return err;
		if (!s->ix)
			for (size_t i = 0; i < s->nr_readers; i++)
				s->bytes_read += s->readers[i].st.end - s->readers[i].st.start;
		s->streamed = true;
	}
	/* delivery keeps records while they are queued: from the mapping */
	for (size_t i = 0; i < s->nr_readers; i++)
		reader__read_stop(&s->readers[i]);
	if ((err = collect_errors(s, d)))
		return err;
	for (size_t i = 0; i < s->nr_readers; i++)
		rounds |= s->readers[i].has_rounds;
	if (s->streamed && rounds && s->is_dir) {
		/* FINISHED_ROUND inside a directory (perf never writes one there): its
		 * exact order needs the general queue; read everything. */
		s->streamed = false;
		if ((err = parallel_for(s->wq, s->nr_readers, load_one, s)) ||
		    (err = collect_errors(s, d)))
			return err;
	}
	if (s->is_pipe && (err = parse_features(s, d)))
		return err;
	first = evlist__first(&s->evlist);
	s->queue_enabled = s->is_pipe || !first || attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
	name_events_from_desc(s);
	name_events_from_updates(s);
	test_pause();
	return evlist__name_defaults(&s->evlist);
}


/* Every present feature, in id order (CPU_TOPOLOGY needs NRCPUS before it). */
static int parse_features(struct session *s, struct diag *d)
{
	for (unsigned f = 1; f < FEAT_BITS; f++) {
		const void *body;
		size_t size;
		uint64_t off;
		bool swap;
		int err;

		if (!session__feature(s, f, &body, &size, &off, &swap))
			continue;
		if (f > FEAT_LAST_PERF61)
			continue;	/* newer than we know: skipped, as perf skips them */
		err = features__parse(&s->features, f, body, size, swap, off,
				      s->readers[0].label, d);
		if (err)
			return err;
	}
	/* a damaged body read as perf reads it (a cut string): its one warning */
	if (s->features.warning) {
		char *w = strdup(s->features.warning);

		return w ? add_warning(s, w) : -ENOMEM;
	}
	return 0;
}

/* EVENT_DESC names the events; perf matches them by id (unless it rejected the
 * section, e.g. for attr bits newer than it knows). */
static void name_events_from_desc(struct session *s)
{
	if (s->features.events_rejected)
		return;
	/* nor when an earlier feature's reader failed (a cut string): perf 6.1 stops
	 * reading a regular file's features there */
	if (!s->is_pipe && !features__perf_processed(&s->features, FEAT_EVENT_DESC, s->is_dir))
		return;
	for (size_t i = 0; i < s->evlist.nr; i++) {
		struct evsel *ev = s->evlist.evsels[i];
		const struct feat_event *fe;

		if (ev->name)
			continue;
		fe = ev->nr_ids ? features__event_by_id(&s->features, ev->ids[0]) : NULL;
		if (!fe && i < s->features.nr_events && !ev->nr_ids)
			fe = &s->features.events[i];
		if (fe && fe->name)
			evsel__set_name(ev, fe->name);
	}
}


/* EVENT_UPDATE records of type NAME (2) name events (pipe mode sends them). */
static void name_events_from_updates(struct session *s)
{
	for (size_t f = 0; f < s->nr_readers; f++) {
		const struct reader *r = &s->readers[f];

		/* EVENT_UPDATE records are immediate: kept by the scan pass too */
		const struct record_ref *v = s->streamed ? r->imm : r->recs;
		size_t nr = s->streamed ? r->nr_imm : r->nr;

		for (size_t i = 0; i < nr; i++) {
			const struct record_ref *ref = &v[i];
			struct event_event_update up;
			struct evsel *ev;

			/* a NAME with its id and a byte of name */
			if (ref->type != REC_EVENT_UPDATE ||
			    event_event_update__decode(ref->data, ref->size, &up) ||
			    up.type != EVENT_UPDATE_NAME)
				continue;
			ev = evlist__find_id(&s->evlist, up.id);
			if (ev && !ev->name) {
				char *name = strndup(up.str.s, up.str.len);

				if (name) {
					evsel__set_name(ev, name);
					free(name);
				}
			}
		}
	}
}

/* --- delivery in perf's order ------------------------------------------------ */

/*
 * Pipelined delivery (a session with workers): a producer thread reads the files and
 * restores perf's order, while the calling thread runs the front end on the batches
 * already made.  Batches pass through a queue of HANDOFF_DEPTH buffers; the consumer
 * publishes how many it has finished (done), and a window is freed only when its
 * records were all delivered and the batches holding them are done.
 */
#define HANDOFF_DEPTH 3

#ifndef DELIVER_BATCH_BYTES
#define DELIVER_BATCH_BYTES (2u << 20)
#endif

struct handoff {
	pthread_mutex_t mu;
	pthread_cond_t cv;
	const struct record_ref **full[HANDOFF_DEPTH];	/* queued batches, in order */
	size_t full_nr[HANDOFF_DEPTH];
	size_t head, count;
	const struct record_ref **spare[HANDOFF_DEPTH];	/* buffers to fill */
	size_t nr_spare;
	bool end;			/* the producer is done */
	int prod_err, cons_err;
};

struct deliver {
	session_deliver_fn fn;
	void *ctx;
	const struct record_ref **batch;
	size_t nr, cap;
	size_t bytes;			/* of the records in the batch */
	int err;
	uint64_t seq;			/* number of the batch being filled: 1, 2, ... */
	_Atomic uint64_t done;		/* batches the front end has finished (held
					 * batches are not: session__hold_batches()) */
	unsigned held;			/* session__hold_batches() */
	struct handoff *ho;		/* pipelined; NULL: fn runs on this thread */
};

/* The batch being filled goes to the front end (or its queue); -errno or fn's error
 * stops the delivery. */
static int hand_over(struct deliver *dl)
{
	struct handoff *ho = dl->ho;
	int err = 0;

	if (!ho) {
		dl->err = dl->fn(dl->ctx, dl->batch, dl->nr);
		atomic_store(&dl->done, dl->seq > dl->held ? dl->seq - dl->held : 0);
		dl->seq++;
		dl->nr = 0;
		dl->bytes = 0;
		return dl->err;
	}
	pthread_mutex_lock(&ho->mu);
	while (!ho->nr_spare && !ho->cons_err)
		pthread_cond_wait(&ho->cv, &ho->mu);
	if (ho->cons_err) {
		err = ho->cons_err;
	} else {
		size_t t = (ho->head + ho->count) % HANDOFF_DEPTH;

		ho->full[t] = dl->batch;
		ho->full_nr[t] = dl->nr;
		ho->count++;
		dl->batch = ho->spare[--ho->nr_spare];
		pthread_cond_broadcast(&ho->cv);
	}
	pthread_mutex_unlock(&ho->mu);
	dl->seq++;
	dl->nr = 0;
	dl->bytes = 0;
	dl->err = err;
	return err;
}

static int emit(void *p, const struct record_ref *ref)
{
	struct deliver *dl = p;

	dl->batch[dl->nr++] = ref;
	dl->bytes += ref->size;
	if (dl->nr == dl->cap || dl->bytes >= DELIVER_BATCH_BYTES)
		return hand_over(dl);
	return dl->err;
}

/*
 * Merge heads of the streamed delivery: a record's arrival key is (turn, file,
 * ordinal): which round-robin turn reads it, then file order, then its position.
 */
struct merge_head {
	uint64_t time;
	uint32_t turn;
	uint32_t file;
	uint64_t idx;			/* ordinal in the file */
	const struct record_ref *ref;	/* the record */
	struct window *win;		/* streamed: the window holding it */
};

static bool head_less(const struct merge_head *a, const struct merge_head *b)
{
	if (a->time != b->time)
		return a->time < b->time;
	if (a->turn != b->turn)
		return a->turn < b->turn;
	if (a->file != b->file)
		return a->file < b->file;
	return a->idx < b->idx;
}

static void sift_down(struct merge_head *h, size_t n, size_t i)
{
	for (;;) {
		size_t c = 2 * i + 1;
		struct merge_head t;

		if (c >= n)
			return;
		if (c + 1 < n && head_less(&h[c + 1], &h[c]))
			c++;
		if (!head_less(&h[c], &h[i]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/* Hand the batch over now (before a window it points into is freed). */
static int deliver_flush(struct deliver *dl)
{
	if (!dl->err && dl->nr)
		return hand_over(dl);
	dl->nr = 0;
	return dl->err;
}

/* Wait until the front end has finished every batch handed over (or failed); a
 * front end that holds batches gets an empty one for each first, so that it lets
 * the last ones go. */
static void deliver_drain(struct deliver *dl)
{
	struct handoff *ho = dl->ho;

	/* not after fn failed: it let go of everything then (session__hold_batches()) */
	for (unsigned i = 0; i < dl->held && !dl->err; i++) {
		dl->nr = 0;
		(void)hand_over(dl);
	}
	if (!ho)
		return;
	pthread_mutex_lock(&ho->mu);
	while (atomic_load(&dl->done) + 1 + dl->held < dl->seq && !ho->cons_err)
		pthread_cond_wait(&ho->cv, &ho->mu);
	pthread_mutex_unlock(&ho->mu);
}

/*
 * The streamed merge. Each file is read window by window; a window (its records and
 * the decompressed bytes they point to) lives until every queued record in it was
 * delivered and the batch holding them was handed over. Within a file, queued records
 * may trail by up to the file's lag (measured by the scan pass), so each file keeps a
 * small heap: a record leaves it once the file has read a record lag nanoseconds
 * newer (no later record can sort before it), or at the end of the file.
 */
struct window {
	struct record_ref *recs;	/* owned, nr records (room for cap) */
	size_t nr, cap, mapped;		/* (mapped: util/hugemem.h) */
	struct arena arena;		/* the bytes of decompressed records */
	size_t live;			/* queued records not delivered yet */
	uint64_t last_batch;		/* the last batch given one of its records */
	struct window *next;
};

struct stream {
	struct window *windows;		/* owned list, oldest first */
	struct window *cur;		/* the window being read (last in the list) */
	size_t k;			/* next record in cur */
	uint64_t base;			/* ordinal of cur->recs[0] */
	uint64_t maxt;			/* newest queued time read */
	size_t tix;			/* current turn */
	bool eof;
	struct merge_head *heap;	/* owned: this file's pending queued records */
	size_t n, cap;
	struct {			/* owned: delivered windows' arrays, reused by the
					 * next windows (no fresh pages to fault in) */
		struct record_ref *recs;
		size_t cap, mapped;
	} spare[STREAM_SPARES];
	size_t nr_spare;
	size_t ent;			/* with an index: the file's entry at or
					 * after the read position */
};

static uint32_t turn_of(const struct reader *r, uint64_t ordinal, size_t *tix)
{
	while (*tix + 1 < r->nr_turns && r->turn_start[*tix + 1] <= ordinal)
		(*tix)++;
	return (uint32_t)*tix;
}

/* Whether the samples of index entry e may all be left out (session_opts.keep). */
static bool entry_skipped(const struct session *s, const struct dir_index_entry *e)
{
	if (!s->nr_keep || !(e->flags & DIR_INDEX_SIDEBAND) || e->first_time == UINT64_MAX)
		return false;
	for (size_t i = 0; i < s->nr_keep; i++) {
		const struct session_time_range *k = &s->keep[i];

		if (!((k->start && e->last_time < k->start) ||
		      (k->end && e->first_time > k->end)))
			return false;
	}
	return true;
}

/* Read the records of an entry whose samples are left out: its side-band records,
 * each where it lies (the pages they are on are all that is read of it). */
static int read_sideband(struct session *s, struct reader *r, const struct dir_index_entry *e)
{
	uint64_t last_page = UINT64_MAX;

	for (uint64_t k = 0; k < e->nr_sideband; k++) {
		uint64_t off = s->ix->offsets[e->first_sideband + k];

		r->st.pos = off;
		if (reader__fill(r, r->nr + 1))
			return r->err;
		if (r->st.pos <= off)
			return 0;	/* cut short here: the file ends (st.end) */
		for (uint64_t p = off / 4096; p <= (r->st.pos - 1) / 4096; p++)
			if (p != last_page)
				s->bytes_read += 4096;
		last_page = (r->st.pos - 1) / 4096;
	}
	r->st.pos = e->offset + e->size;
	return 0;
}

/*
 * Read the next window of file f into a new window object.  With an index and
 * session_opts.keep, an entry whose samples are all left out is a window of its own
 * holding its side-band records, and other windows end where such an entry begins.
 */
static int stream_fill(struct session *s, uint32_t f, struct stream *st)
{
	struct reader *r = &s->readers[f];
	struct window *w = calloc(1, sizeof(*w)), **tail;
	const struct dir_index_entry *e = NULL, *skip = NULL;
	uint64_t end = r->st.end, limit = end, from = r->st.pos;
	size_t n = 0;
	int err;

	if (!w)
		return -ENOMEM;
	/* a single file's queue model depends on every queued record: only a
	 * directory's samples are left out */
	if (s->ix && s->nr_keep && s->is_dir) {
		e = s->ix->entries + s->ix->files[f].first_entry;
		n = s->ix->files[f].nr_entries;
		while (st->ent < n && e[st->ent].offset + e[st->ent].size <= from)
			st->ent++;
		if (st->ent < n && e[st->ent].offset == from && entry_skipped(s, &e[st->ent]))
			skip = &e[st->ent];
		for (size_t k = st->ent; !skip && k < n; k++)
			if (e[k].offset > from && entry_skipped(s, &e[k])) {
				if (e[k].offset < end)
					limit = e[k].offset;
				break;
			}
	}
	r->nr = 0;
	if (!r->recs && st->nr_spare) {
		st->nr_spare--;
		r->recs = st->spare[st->nr_spare].recs;
		r->cap = st->spare[st->nr_spare].cap;
		r->recs_mapped = st->spare[st->nr_spare].mapped;
	}
	if (skip) {
		err = read_sideband(s, r, skip);
	} else {
		r->st.end = limit;
		err = reader__fill(r, s->window);
		if (r->st.end == limit)	/* not cut short */
			r->st.end = end;
		s->bytes_read += r->st.pos - from;
	}
	if (err) {
		free(w);
		if (r->err)
			s->deliver_diag = r->diag;
		return r->err;
	}
	/* take the window's storage from the reader */
	w->recs = r->recs;
	w->nr = r->nr;
	w->cap = r->cap;
	w->mapped = r->recs_mapped;
	w->arena = r->arena;
	st->base = r->base;
	r->recs = NULL;
	r->cap = 0;
	r->recs_mapped = 0;
	r->arena.head = NULL;
	r->base += r->nr;
	r->nr = 0;
	for (tail = &st->windows; *tail; tail = &(*tail)->next)
		;
	*tail = w;
	st->cur = w;
	st->k = 0;
	return 0;
}

/* Free w; its record array becomes one of st's spares while st has room for one
 * (st may be NULL). */
static void window_free(struct stream *st, struct window *w)
{
	if (st && st->nr_spare < STREAM_SPARES) {
		st->spare[st->nr_spare].recs = w->recs;
		st->spare[st->nr_spare].cap = w->cap;
		st->spare[st->nr_spare].mapped = w->mapped;
		st->nr_spare++;
	} else {
		hugemem__free(w->recs, w->mapped);
	}
	arena__exit(&w->arena);
	free(w);
}

static void stream_free_spares(struct stream *st)
{
	while (st->nr_spare) {
		st->nr_spare--;
		hugemem__free(st->spare[st->nr_spare].recs, st->spare[st->nr_spare].mapped);
	}
}

/* Free the windows whose records were all delivered in batches the front end has
 * finished (`done`), and the mapped pages below the oldest window still needed. */
static void stream_gc(struct reader *r, struct stream *st, uint64_t done)
{
	struct window **p = &st->windows;

	while (*p) {
		struct window *w = *p;

		if (w->live == 0 && w != st->cur && w->last_batch <= done) {
			*p = w->next;
			window_free(st, w);
		} else {
			p = &w->next;
		}
	}
	if (st->windows && st->windows->nr)
		reader__release_below(r, st->windows->recs[0].offset);
}

static void heap_push(struct merge_head *h, size_t *n, const struct merge_head *x)
{
	size_t i = (*n)++;

	while (i > 0 && head_less(x, &h[(i - 1) / 2])) {
		h[i] = h[(i - 1) / 2];
		i = (i - 1) / 2;
	}
	h[i] = *x;
}

/* The next queued record of file f, in (time, ordinal) order; *got false at the end. */
static int stream_next(struct session *s, struct stream *st, uint32_t f,
		       struct merge_head *out, bool *got)
{
	struct reader *r = &s->readers[f];
	int err;

	for (;;) {
		/* the oldest pending record is final once nothing later can precede it */
		if (st->n && (st->eof || (st->maxt >= r->lag &&
					  st->heap[0].time <= st->maxt - r->lag)))
			break;
		if (st->eof)
			break;
		if (!st->cur || st->k == st->cur->nr) {
			if (r->st.pos >= r->st.end) {
				st->eof = true;
				continue;
			}
			if ((err = stream_fill(s, f, st)))
				return err;
			continue;
		}
		struct record_ref *ref = &st->cur->recs[st->k];
		/* started from an index: turns and immediates are keyed by offset */
		uint64_t ordinal = s->by_offset ? ref->offset : st->base + st->k;

		st->k++;
		struct merge_head h;

		if (immediate(ref, s->queue_enabled))
			continue;
		if (array__grow(&st->heap, &st->cap, st->n + 1, sizeof(*st->heap), 64))
			return -ENOMEM;
		h.time = ref->time;
		h.turn = turn_of(r, ordinal, &st->tix);
		h.file = f;
		h.idx = ordinal;
		h.ref = ref;
		h.win = st->cur;
		st->cur->live++;
		heap_push(st->heap, &st->n, &h);
		if (ref->time > st->maxt)
			st->maxt = ref->time;
	}
	*got = st->n > 0;
	if (*got) {
		*out = st->heap[0];
		st->heap[0] = st->heap[--st->n];
		sift_down(st->heap, st->n, 0);
	}
	return 0;
}

static int deliver_streamed(struct session *s, struct deliver *dl)
{
	struct stream *st = calloc(s->nr_readers, sizeof(*st));
	struct merge_head *h = calloc(s->nr_readers, sizeof(*h));
	size_t *ip = calloc(s->nr_readers, sizeof(*ip)), n = 0, since_gc = 0;
	bool more = true;
	int err = 0;

	if (!st || !h || !ip) {
		err = -ENOMEM;
		goto out;
	}
	/* a second delivery reads the files again from the start */
	for (size_t f = 0; f < s->nr_readers && !err; f++)
		err = reader__rewind(&s->readers[f]);
	/* 1. the immediate records, turn by turn, file by file */
	for (uint32_t turn = 0; more && !err; turn++) {
		more = false;
		for (size_t f = 0; f < s->nr_readers && !err; f++) {
			const struct reader *r = &s->readers[f];
			uint64_t end = turn + 1 < r->nr_turns ? r->turn_start[turn + 1]
							      : UINT64_MAX;

			if (turn >= r->nr_turns)
				continue;
			more = true;
			while (ip[f] < r->nr_imm && r->imm_ordinal[ip[f]] < end && !err)
				err = emit(dl, &r->imm[ip[f]++]);
		}
	}
	/* the immediate records may point into mapped pages that step 2 releases */
	if (!err)
		err = deliver_flush(dl);
	deliver_drain(dl);
	/* 2. the queued records: a k-way merge of the files' ordered streams */
	for (size_t f = 0; f < s->nr_readers && !err; f++) {
		bool got;

		err = stream_next(s, &st[f], (uint32_t)f, &h[n], &got);
		n += got;
	}
	for (size_t i = n; i-- > 0;)
		sift_down(h, n, i);
	while (n && !err) {
		uint32_t f = h[0].file;
		bool got;

		h[0].win->live--;
		h[0].win->last_batch = dl->seq;
		err = emit(dl, h[0].ref);
		if (!err)
			err = stream_next(s, &st[f], f, &h[0], &got);
		if (!err && !got)
			h[0] = h[--n];
		sift_down(h, n, 0);
		/* now and then: hand the batch over and free delivered windows */
		if (!err && ++since_gc >= s->window / 4) {
			since_gc = 0;
			err = deliver_flush(dl);
			for (size_t g = 0; g < s->nr_readers; g++)
				stream_gc(&s->readers[g], &st[g], atomic_load(&dl->done));
		}
	}
	if (!err)
		err = deliver_flush(dl);
	deliver_drain(dl);	/* the windows go: nothing may point into them */
out:
	for (size_t f = 0; st && f < s->nr_readers; f++) {
		while (st[f].windows) {
			struct window *w = st[f].windows;

			st[f].windows = w->next;
			window_free(NULL, w);
		}
		free(st[f].heap);
		stream_free_spares(&st[f]);
	}
	free(st);
	free(h);
	free(ip);
	return err;
}

/*
 * A single file, streamed: records in file order window by window through perf's
 * queue model; a window lives while any of its records is queued or in the batch.
 */
struct single {
	struct deliver *dl;
	struct stream st;
};

static void window_unref(struct stream *st, const struct record_ref *ref, uint64_t batch)
{
	for (struct window *w = st->windows; w; w = w->next)
		if (ref >= w->recs && ref < w->recs + w->nr) {
			w->live--;
			w->last_batch = batch;
			return;
		}
}

static int emit_queued(void *p, const struct record_ref *ref)
{
	struct single *sg = p;

	window_unref(&sg->st, ref, sg->dl->seq);
	return emit(sg->dl, ref);
}

static int deliver_single_streamed(struct session *s, struct deliver *dl)
{
	struct reader *r = &s->readers[0];
	struct single sg = { .dl = dl };
	struct ordered_events oe;
	size_t since_gc = 0;
	int err;

	ordered_events__init(&oe);
	err = reader__rewind(r);
	while (!err) {
		struct record_ref *ref;

		if (!sg.st.cur || sg.st.k == sg.st.cur->nr) {
			if (r->st.pos >= r->st.end)
				break;
			err = stream_fill(s, 0, &sg.st);
			continue;
		}
		ref = &sg.st.cur->recs[sg.st.k++];
		if (!immediate(ref, s->queue_enabled)) {
			sg.st.cur->live++;
			err = ordered_events__queue(&oe, ref->time, ref);
		} else {
			sg.st.cur->last_batch = dl->seq;
			err = emit(dl, ref);
			if (!err && ref->type == REC_FINISHED_ROUND)
				err = ordered_events__flush_round(&oe, emit_queued, &sg);
		}
		if (!err && ++since_gc >= s->window) {
			since_gc = 0;
			err = deliver_flush(dl);
			stream_gc(r, &sg.st, atomic_load(&dl->done));
		}
	}
	if (!err)
		err = ordered_events__flush_all(&oe, emit_queued, &sg);
	if (!err)
		err = deliver_flush(dl);
	deliver_drain(dl);	/* the windows go: nothing may point into them */
	while (sg.st.windows) {
		struct window *w = sg.st.windows;

		sg.st.windows = w->next;
		window_free(NULL, w);
	}
	stream_free_spares(&sg.st);
	ordered_events__exit(&oe);
	return err;
}

/* Every record in order into dl's batches (the producer's part). */
static int deliver_all(struct session *s, struct deliver *dl)
{
	struct ordered_events oe;
	size_t *pos = calloc(s->nr_readers, sizeof(*pos)), left = s->nr_readers;
	const struct evsel *first = evlist__first(&s->evlist);
	/* perf disables its queue when the first event has no sample_id_all (files) */
	bool queue_enabled = s->is_pipe || !first ||
			     attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
	int err = 0;

	if (!pos)
		return -ENOMEM;
	ordered_events__init(&oe);
	if (s->streamed && s->is_dir) {
		err = deliver_streamed(s, dl);
		left = 0;
	} else if (s->streamed) {
		err = deliver_single_streamed(s, dl);
		left = 0;
	}
	/* Round robin over the files, DIR_TURN_BYTES of on-disk records per turn; the
	 * records decompressed from a container arrive right after it. */
	while (left && !err) {
		left = 0;
		for (size_t f = 0; f < s->nr_readers && !err; f++) {
			const struct reader *r = &s->readers[f];
			uint64_t used = 0;

			while (pos[f] < r->nr && !err &&
			       (used < DIR_TURN_BYTES || r->recs[pos[f]].disk_size == 0)) {
				const struct record_ref *ref = &r->recs[pos[f]++];

				used += ref->disk_size;
				if (!immediate(ref, queue_enabled)) {
					err = ordered_events__queue(&oe, ref->time, ref);
					continue;
				}
				err = emit(dl, ref);
				if (!err && ref->type == REC_FINISHED_ROUND)
					err = ordered_events__flush_round(&oe, emit, dl);
			}
			left += pos[f] < r->nr;
		}
	}
	if (!err)
		err = ordered_events__flush_all(&oe, emit, dl);
	if (!err)
		err = deliver_flush(dl);
	ordered_events__exit(&oe);
	free(pos);
	return err;
}

struct producer {
	struct session *s;
	struct deliver *dl;
};

static void *producer_main(void *arg)
{
	struct producer *p = arg;
	struct handoff *ho = p->dl->ho;
	int err;

	(void)pthread_setname_np(pthread_self(), "dr-producer");	/* for perf, top, gdb */
	err = deliver_all(p->s, p->dl);

	pthread_mutex_lock(&ho->mu);
	ho->end = true;
	ho->prod_err = err;
	pthread_cond_broadcast(&ho->cv);
	pthread_mutex_unlock(&ho->mu);
	return NULL;
}

/* The calling thread's part: the queued batches to fn, in order, until the end. */
static int consume(struct deliver *dl)
{
	struct handoff *ho = dl->ho;
	uint64_t n = 0;
	int err = 0;

	pthread_mutex_lock(&ho->mu);
	for (;;) {
		const struct record_ref **b;
		size_t nr;

		while (!ho->count && !ho->end)
			pthread_cond_wait(&ho->cv, &ho->mu);
		if (!ho->count)
			break;
		b = ho->full[ho->head];
		nr = ho->full_nr[ho->head];
		ho->head = (ho->head + 1) % HANDOFF_DEPTH;
		ho->count--;
		pthread_mutex_unlock(&ho->mu);
		err = dl->fn(dl->ctx, b, nr);
		pthread_mutex_lock(&ho->mu);
		ho->spare[ho->nr_spare++] = b;
		n++;
		atomic_store(&dl->done, n > dl->held ? n - dl->held : 0);
		if (err)
			ho->cons_err = err;
		pthread_cond_broadcast(&ho->cv);
		if (err)
			break;
	}
	pthread_mutex_unlock(&ho->mu);
	return err;
}

int session__deliver(struct session *s, session_deliver_fn fn, void *ctx, size_t batch)
{
	struct deliver dl = { .fn = fn, .ctx = ctx, .cap = batch ? batch : 8192, .seq = 1,
			      .held = s->held_batches };
	struct handoff ho = { .mu = PTHREAD_MUTEX_INITIALIZER,
			      .cv = PTHREAD_COND_INITIALIZER };
	struct producer p = { s, &dl };
	const struct record_ref **bufs[HANDOFF_DEPTH] = { 0 };
	size_t nbufs = workqueue__nr_workers(s->wq) ? HANDOFF_DEPTH : 1;
	pthread_t t;
	int err = 0, cerr;

	atomic_init(&dl.done, 0);
	for (size_t i = 0; i < nbufs; i++)
		if (!(bufs[i] = malloc(dl.cap * sizeof(**bufs))))
			err = -ENOMEM;
	if (err)
		goto out;
	dl.batch = bufs[0];
	if (nbufs == 1) {	/* no workers: all on this thread */
		err = deliver_all(s, &dl);
		goto out;
	}
	for (size_t i = 1; i < nbufs; i++)
		ho.spare[ho.nr_spare++] = bufs[i];
	dl.ho = &ho;
	if (pthread_create(&t, NULL, producer_main, &p)) {
		dl.ho = NULL;	/* no thread: deliver here */
		err = deliver_all(s, &dl);
		goto out;
	}
	cerr = consume(&dl);
	pthread_join(t, NULL);
	err = cerr ? cerr : ho.prod_err;
out:
	for (size_t i = 0; i < nbufs; i++)
		free(bufs[i]);
	/* a file cut under its mapping: what was read of it since is zeros, and whatever
	 * error they made is this one */
	for (size_t i = 0; i < s->nr_readers; i++)
		if (reader__changed(&s->readers[i], false)) {
			s->deliver_diag = s->readers[i].diag;
			err = s->readers[i].err;
			break;
		}
	/* what a delivery found to warn of (a session started from its index reads
	 * some files' damage only now): the session's warnings after the others */
	for (size_t i = 0; i < s->nr_readers; i++)
		if (s->readers[i].warning) {
			s->readers[i].cut_warned = true;
			if (add_warning(s, s->readers[i].warning) && !err)
				err = -ENOMEM;
			s->readers[i].warning = NULL;
		}
	return err;
}

/* --- accessors ----------------------------------------------------------------- */

int session__scan_facts(const struct session *s, size_t i, uint64_t *lag,
			uint64_t **turns, size_t *nr_turns, uint64_t **imm, size_t *nr_imm)
{
	const struct reader *r = &s->readers[i];

	*turns = *imm = NULL;
	*nr_turns = *nr_imm = 0;
	if (s->is_pipe || !s->streamed || s->ix || r->off_disk)
		return -ENOENT;
	*turns = malloc(r->nr_turns ? r->nr_turns * sizeof(**turns) : 1);
	*imm = malloc(r->nr_imm ? r->nr_imm * sizeof(**imm) : 1);
	if (!*turns || !*imm) {
		free(*turns);
		free(*imm);
		*turns = *imm = NULL;
		return -ENOMEM;
	}
	if (r->nr_turns)
		memcpy(*turns, r->turn_off, r->nr_turns * sizeof(**turns));
	for (size_t k = 0; k < r->nr_imm; k++)
		(*imm)[k] = r->imm[k].offset;
	*nr_turns = r->nr_turns;
	*nr_imm = r->nr_imm;
	*lag = r->lag;
	return 0;
}

bool session__indexed(const struct session *s) { return s->ix != NULL; }

void session__hold_batches(struct session *s, unsigned n) { s->held_batches = n; }

bool session__deliver_error(const struct session *s, struct diag *d)
{
	if (!s || !s->deliver_diag.code)
		return false;
	*d = s->deliver_diag;
	return true;
}

void session__keep_samples(struct session *s, const struct session_time_range *ranges,
			   size_t n)
{
	s->keep = ranges;
	s->nr_keep = n;
}
uint64_t session__bytes_read(const struct session *s) { return s->bytes_read; }

uint64_t session__bytes_buffered(const struct session *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nr_readers; i++)
		n += s->readers[i].st.rbuf_read;
	return n;
}
struct evlist *session__evlist(struct session *s) { return &s->evlist; }
const struct features *session__features(const struct session *s) { return &s->features; }
size_t session__nr_files(const struct session *s) { return s->nr_readers; }
const char *session__path(const struct session *s) { return s->path; }
bool session__is_pipe(const struct session *s) { return s->is_pipe; }
bool session__is_dir(const struct session *s) { return s->is_dir; }
bool session__can_read_again(const struct session *s) { return s->read_again; }
const struct file_header *session__header(const struct session *s) { return &s->header; }
int64_t session__mtime(const struct session *s) { return s->mtime; }
uint64_t session__feat_offset(const struct session *s) { return s->feat_offset; }
size_t session__nr_warnings(const struct session *s) { return s->nr_warnings; }
const char *session__warning(const struct session *s, size_t i) { return s->warnings[i]; }
struct workqueue *session__workqueue(struct session *s) { return s->wq; }

const char *session__file_label(const struct session *s, size_t i)
{
	return s->readers[i].label;
}

const char *session__file_path(const struct session *s, size_t i)
{
	return s->readers[i].fspath;
}

uint64_t session__file_offset(const struct session *s, size_t i, uint64_t offset)
{
	return offset + s->readers[i].st.label_base;
}

int session__record_diag(const struct session *s, size_t i, uint64_t offset,
			 struct diag *d, int code, const char *fmt, ...)
{
	char msg[sizeof(d->msg)];
	va_list ap;

	if (!fmt)
		return diag__set(d, session__file_path(s, i), session__file_offset(s, i, offset),
				 code, NULL);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag__set(d, session__file_path(s, i), session__file_offset(s, i, offset), code,
			 "%s", msg);
}

bool session__feature(const struct session *s, unsigned feat, const void **body,
		      size_t *size, uint64_t *file_offset, bool *swap)
{
	if (feat >= FEAT_BITS)
		return false;
	*swap = s->swap;
	if (s->is_pipe) {
		const struct pipe_feature *pf = &s->readers[0].pipe_feat[feat];

		if (!pf->body)
			return false;
		*body = pf->body;
		*size = pf->size;
		*file_offset = pf->offset;
		return true;
	}
	if (!file_header__has_feat(&s->header, feat) || !s->feat[feat].offset)
		return false;
	*body = s->readers[0].st.map + s->feat[feat].offset;
	*size = (size_t)s->feat[feat].size;
	*file_offset = s->feat[feat].offset;
	return true;
}
