#define DIRREPORT_IN_READER
#include "reader/session.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdio.h>	/* asprintf */
#include <stdlib.h>	/* calloc, free, qsort_r */
#include <string.h>	/* strcmp, strncmp, strdup */
#include <sys/stat.h>	/* stat */
#include <unistd.h>	/* close */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/record.h"
#include "reader/ordered.h"
#include "reader/reader-internal.h"
#include "reader/workqueue.h"
#include "banned.h"

/* perf reads at least this many on-disk bytes from one file of a directory before it
 * moves to the next (reference 7.3). */
#define DIR_TURN_BYTES (2u << 20)

struct session {
	char *path;			/* owned: as given */
	bool is_pipe, is_dir, swap;
	struct file_header header;
	struct file_section feat[FEAT_BITS];
	uint64_t feat_offset;
	int64_t mtime;
	struct evlist evlist;
	struct features features;	/* parsed feature sections (pipe: after load) */
	struct reader *readers;		/* owned array; [0] holds the header file */
	size_t nr_readers;
	struct workqueue *wq;		/* owned */
	char **warnings;		/* owned */
	size_t nr_warnings;
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
	uint64_t len = r->st.map_len, end;
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
	r->st.pos = s->header.data.offset;
	end = s->header.data.offset + s->header.data.size;
	if (s->header.data.size == 0 || end > len || end < s->header.data.offset) {
		/* Not finalised (perf record killed) or cut short: read to the end. */
		end = len;
		r->cut_is_warning = true;
		if (s->header.data.size && asprintf(&r->warning,
			"%s: offset %#llx: file is cut short (data section ends at %#llx); "
			"reporting the records before the cut", r->label,
			(unsigned long long)len,
			(unsigned long long)(s->header.data.offset + s->header.data.size)) < 0)
			r->warning = NULL;
		return 0;	/* the feature table is gone with the cut */
	}
	r->st.end = end;
	return file_header__feat_sections(&s->header, s->swap, m, r->st.map_len, s->feat,
					  &s->feat_offset, r->label, d);
}


/* data.* files of a directory, in readdir order as perf 6.1 takes them. */
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
			err = diag__set(d, fs, DIAG_NO_OFFSET, -errno, "cannot open: %s",
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
	r->st.pos = PIPE_HEADER_SIZE;
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

	*out = NULL;
	if (!s)
		return -ENOMEM;
	evlist__init(&s->evlist);
	features__init(&s->features);
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
		s->mtime = (int64_t)st.st_mtime;
		err = reader__map(&s->readers[0], fd, false);
	} else {
		err = reader__map(&s->readers[0], fd, true);	/* stdin or a FIFO */
	}
	if (!is_stdin)
		close(fd);
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

/* Map (data.N files are mapped here, on the worker) and decode one file. */
static void load_one(void *ctx, size_t i)
{
	struct session *s = ctx;
	struct reader *r = &s->readers[i];
	int fd;

	if (i > 0) {
		fd = open_fd(r->fspath, r->label, &r->diag);
		if (fd < 0) {
			r->err = fd;
			return;
		}
		r->err = reader__map(r, fd, false);
		close(fd);
		if (r->err) {
			diag__set(&r->diag, r->label, DIAG_NO_OFFSET, r->err, "cannot read: %s",
				  diag__code_str(r->err));
			return;
		}
		r->st.pos = 0;
		r->st.end = r->st.map_len;
		r->cut_is_warning = true;
	}
	reader__run(r);
}

static void name_events_from_updates(struct session *s);
static void name_events_from_desc(struct session *s);

int session__load(struct session *s, struct diag *d)
{
	int err;

	/* A pipe defines its events as it goes: it is one reader, run it here. */
	if (s->is_pipe)
		load_one(s, 0);
	else if ((err = parallel_for(s->wq, s->nr_readers, load_one, s)))
		return err;
	for (size_t i = 0; i < s->nr_readers; i++) {
		struct reader *r = &s->readers[i];

		if (r->err) {
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
	if (s->is_pipe && (err = parse_features(s, d)))
		return err;
	name_events_from_desc(s);
	name_events_from_updates(s);
	return 0;
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
	return 0;
}

/* EVENT_DESC names the events; perf matches them by id (unless it rejected the
 * section, e.g. for attr bits newer than it knows). */
static void name_events_from_desc(struct session *s)
{
	if (s->features.events_rejected)
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

		for (size_t i = 0; i < r->nr; i++) {
			const struct record_ref *ref = &r->recs[i];
			struct evsel *ev;

			if (ref->type != REC_EVENT_UPDATE || ref->size < 25 ||
			    bytes__u64(ref->data + 8) != 2)
				continue;
			ev = evlist__find_id(&s->evlist, bytes__u64(ref->data + 16));
			if (ev && !ev->name) {
				size_t n = strnlen((const char *)ref->data + 24, ref->size - 24);
				char *name = strndup((const char *)ref->data + 24, n);

				if (name) {
					evsel__set_name(ev, name);
					free(name);
				}
			}
		}
	}
}

/* --- delivery in perf's order ------------------------------------------------ */

struct deliver {
	session_deliver_fn fn;
	void *ctx;
	const struct record_ref **batch;
	size_t nr, cap;
	int err;
};

static int emit(void *p, const struct record_ref *ref)
{
	struct deliver *dl = p;

	dl->batch[dl->nr++] = ref;
	if (dl->nr == dl->cap) {
		dl->err = dl->fn(dl->ctx, dl->batch, dl->nr);
		dl->nr = 0;
	}
	return dl->err;
}

static bool immediate(const struct record_ref *ref, bool queue_enabled)
{
	return !queue_enabled || ref->type >= REC_USER_FIRST || ref->time == 0 ||
	       ref->time == UINT64_MAX;
}

/*
 * Round-less streams (every data directory: perf writes no FINISHED_ROUND there) are
 * flushed only at the end, so perf's order is: the immediate records in arrival order,
 * then every queued record sorted by (time, arrival). A record's arrival key is
 * (turn, file, index): which round-robin turn reads it, then file order, then position.
 * Each file computes its turns and sorts its queued records by (time, index) on its own
 * worker; delivery is then a k-way merge instead of one big priority queue.
 */
static void turns_and_sort(void *ctx, size_t f);

struct merge_head {
	uint64_t time;
	uint32_t turn;
	uint32_t file;
	uint32_t idx;
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

static int deliver_roundless(struct session *s, struct deliver *dl, bool queue_enabled)
{
	size_t *pos = calloc(s->nr_readers, sizeof(*pos)), left = s->nr_readers, n = 0;
	struct merge_head *h = calloc(s->nr_readers, sizeof(*h));
	int err = 0;

	if (!pos || !h) {
		free(pos);
		free(h);
		return -ENOMEM;
	}
	for (size_t f = 0; f < s->nr_readers; f++) {
		struct reader *r = &s->readers[f];

		r->nr_queued = 0;
		free(r->turn);
		free(r->queued);
		r->turn = malloc((r->nr ? r->nr : 1) * sizeof(*r->turn));
		r->queued = malloc((r->nr ? r->nr : 1) * sizeof(*r->queued));
		if (!r->turn || !r->queued)
			err = -ENOMEM;
	}
	if (!err)
		err = parallel_for(s->wq, s->nr_readers, turns_and_sort, s);
	/* the immediate records, in arrival order */
	while (left && !err) {
		left = 0;
		for (size_t f = 0; f < s->nr_readers && !err; f++) {
			const struct reader *r = &s->readers[f];
			uint64_t used = 0;

			while (pos[f] < r->nr && !err &&
			       (used < DIR_TURN_BYTES || r->recs[pos[f]].disk_size == 0)) {
				const struct record_ref *ref = &r->recs[pos[f]++];

				used += ref->disk_size;
				if (immediate(ref, queue_enabled))
					err = emit(dl, ref);
			}
			left += pos[f] < r->nr;
		}
	}
	/* then the queued ones: a k-way merge of the per-file sorted runs */
	for (size_t f = 0; f < s->nr_readers && !err; f++) {
		const struct reader *r = &s->readers[f];

		pos[f] = 0;
		if (!r->nr_queued)
			continue;
		h[n].idx = r->queued[0];
		h[n].time = r->recs[h[n].idx].time;
		h[n].turn = r->turn[h[n].idx];
		h[n].file = (uint32_t)f;
		n++;
	}
	for (size_t i = n; i-- > 0;)
		sift_down(h, n, i);
	while (n && !err) {
		const struct reader *r = &s->readers[h[0].file];
		size_t *p = &pos[h[0].file];

		err = emit(dl, &r->recs[h[0].idx]);
		if (++*p < r->nr_queued) {
			h[0].idx = r->queued[*p];
			h[0].time = r->recs[h[0].idx].time;
			h[0].turn = r->turn[h[0].idx];
		} else {
			h[0] = h[--n];
		}
		sift_down(h, n, 0);
	}
	free(pos);
	free(h);
	return err;
}

static int cmp_queued(const void *a, const void *b, void *recs_)
{
	const struct record_ref *recs = recs_;
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	uint64_t tx = recs[x].time, ty = recs[y].time;

	return tx < ty ? -1 : tx > ty ? 1 : x < y ? -1 : x > y;
}

static void turns_and_sort(void *ctx, size_t f)
{
	struct session *s = ctx;
	struct reader *r = &s->readers[f];
	const struct evsel *first = evlist__first(&s->evlist);
	bool queue_enabled = s->is_pipe || !first ||
			     attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
	uint64_t used = 0;
	uint32_t turn = 0;
	bool sorted = true;

	for (size_t i = 0; i < r->nr; i++) {
		const struct record_ref *ref = &r->recs[i];

		/* a turn ends once DIR_TURN_BYTES were read and the next record is on disk
		 * (decompressed records stay with their container) */
		if (used >= DIR_TURN_BYTES && ref->disk_size) {
			turn++;
			used = 0;
		}
		used += ref->disk_size;
		r->turn[i] = turn;
		if (immediate(ref, queue_enabled))
			continue;
		if (r->nr_queued && ref->time < r->recs[r->queued[r->nr_queued - 1]].time)
			sorted = false;
		r->queued[r->nr_queued++] = (uint32_t)i;
	}
	if (sorted)
		return;
	/* rare: a ring buffer slightly out of time order */
	qsort_r(r->queued, r->nr_queued, sizeof(*r->queued), cmp_queued, r->recs);
}

int session__deliver(struct session *s, session_deliver_fn fn, void *ctx, size_t batch)
{
	struct deliver dl = { .fn = fn, .ctx = ctx, .cap = batch ? batch : 8192 };
	struct ordered_events oe;
	size_t *pos = calloc(s->nr_readers, sizeof(*pos)), left = s->nr_readers;
	const struct evsel *first = evlist__first(&s->evlist);
	/* perf disables its queue when the first event has no sample_id_all (files) */
	bool queue_enabled = s->is_pipe || !first ||
			     attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
	bool rounds = false;
	int err = 0;

	dl.batch = malloc(dl.cap * sizeof(*dl.batch));
	if (!pos || !dl.batch) {
		free(pos);
		free(dl.batch);
		return -ENOMEM;
	}
	ordered_events__init(&oe);
	for (size_t f = 0; f < s->nr_readers; f++)
		rounds |= s->readers[f].has_rounds;
	if (!rounds) {
		err = deliver_roundless(s, &dl, queue_enabled);
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
				err = emit(&dl, ref);
				if (!err && ref->type == REC_FINISHED_ROUND)
					err = ordered_events__flush_round(&oe, emit, &dl);
			}
			left += pos[f] < r->nr;
		}
	}
	if (!err && rounds)
		err = ordered_events__flush_all(&oe, emit, &dl);
	if (!err && dl.nr)
		err = fn(ctx, dl.batch, dl.nr);
	ordered_events__exit(&oe);
	free(pos);
	free(dl.batch);
	return err;
}

/* --- accessors ----------------------------------------------------------------- */

struct evlist *session__evlist(struct session *s) { return &s->evlist; }
const struct features *session__features(const struct session *s) { return &s->features; }
size_t session__nr_files(const struct session *s) { return s->nr_readers; }
const char *session__path(const struct session *s) { return s->path; }
bool session__is_pipe(const struct session *s) { return s->is_pipe; }
bool session__is_dir(const struct session *s) { return s->is_dir; }
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
