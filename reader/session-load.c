/*
 * session-load - session__load(): every file of a recording scanned once on the
 * workqueue (a worker per file, its own reader and zstd stream; a single file
 * without compressed records cut into parts at record boundaries and scanned by
 * several: scan_split()) - each record validated, the round-robin turns, how far
 * records trail in time and the immediate records noted - or, with a fresh index,
 * those facts taken from it instead; then the events named, the errors and warnings
 * collected in file order.
 */
#define DIRREPORT_IN_READER
#include "reader/session.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdio.h>	/* asprintf, snprintf */
#include <stdlib.h>	/* calloc, free, getenv */
#include <string.h>	/* memcpy, memset, strcmp, strndup, strrchr */
#include <unistd.h>	/* close, read */

#include "format/diag.h"
#include "format/event.h"
#include "format/feature.h"
#include "format/index.h"
#include "format/record.h"
#include "reader/reader-internal.h"
#include "reader/session-internal.h"
#include "util/array.h"
#include "util/workqueue.h"
#include "banned.h"

#define SCAN_PART_WINDOW 4096	/* records a part holds at once */

/* Map data.N file r (on the worker that reads it); with @p read_fd its records are
 * then read through a buffer (reader__read_start()). */
static int map_data_file(struct reader *r, bool read_fd)
{
	int fd = session__open_fd(r->fspath, r->label, &r->diag);

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
	/* files keep only what names events */
	if (session__immediate(ref, s->queue_enabled))
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
			if (!err && s->on_scan)
				err = s->on_scan(s->scan_ctx, i, ref);
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
			if ((err = session__add_warning(s, r->warning)))
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
		    !session__immediate(&r->recs[r->nr - 1], s->queue_enabled)) {
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
	return session__add_warning(s, w) ? -ENOMEM : 1;
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
		if (err && !s->on_scan && (err = scan_split(s)) < 0)
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
	if (s->is_pipe && (err = session__parse_features(s, d)))
		return err;
	first = evlist__first(&s->evlist);
	s->queue_enabled = s->is_pipe || !first || attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL);
	name_events_from_desc(s);
	name_events_from_updates(s);
	test_pause();
	return evlist__name_defaults(&s->evlist);
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
