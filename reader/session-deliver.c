/*
 * session-deliver - session__deliver(): each file read again window by window and
 * its records handed to the caller in batches, in exactly the order perf 6.1
 * delivers them (a single file or pipe through perf's ordered-events queue, a data
 * directory's files merged by time through per-file reorder heaps), on a producer
 * thread with workers (batches through a queue of three buffers), windows freed
 * once their records' batches are done.
 */
#define DIRREPORT_IN_READER
#include "reader/session.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>	/* calloc, free, malloc */

#include "format/index.h"	/* struct dir_index, DIR_INDEX_SIDEBAND */
#include "format/record.h"	/* REC_FINISHED_ROUND */
#include "reader/ordered.h"
#include "reader/reader-internal.h"
#include "reader/session-internal.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/workqueue.h"
#include "banned.h"

/* Delivered windows' record arrays a file keeps for its next windows: a single
 * file's queue holds up to three windows at once (the bench file), each array 2 MiB
 * mapped, whose first touch cost the producer a tenth of the flat report's CPU when
 * all but one were unmapped and mapped afresh. */
#define STREAM_SPARES 3

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

		if (session__immediate(ref, s->queue_enabled))
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
		if (!session__immediate(ref, s->queue_enabled)) {
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
				if (!session__immediate(ref, queue_enabled)) {
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
	struct deliver dl = { .fn = fn, .ctx = ctx,
			      .cap = batch ? batch : SESSION_DELIVER_BATCH, .seq = 1,
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
			if (session__add_warning(s, s->readers[i].warning) && !err)
				err = -ENOMEM;
			s->readers[i].warning = NULL;
		}
	return err;
}
