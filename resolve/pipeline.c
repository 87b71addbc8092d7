/* pipeline - the sample pipeline: records in, samples resolved on every worker,
 * the sink's chunks out in order.  See pipeline.h. */
#include "resolve/pipeline.h"

#include <errno.h>
#include <stdatomic.h>
#include <stdlib.h>	/* calloc, free, qsort */
#include <string.h>	/* memset */

#include "format/evlist.h"
#include "format/record.h"
#include "machine/dso.h"
#include "reader/session.h"
#include "util/array.h"
#include "util/workqueue.h"
#include "banned.h"

/* Samples a job resolves: small enough that the workers share a segment evenly,
 * large enough that a job's overhead (a chunk, a slot) is noise. */
#define JOB_SAMPLES 256

struct pipeline_thread {
	struct pipeline *p;
	void *state;			/* the sink's, owned */
	bool serial;			/* the calling thread resolving in turn */
	atomic_bool busy;		/* a job holds this slot */
	struct dso **need;		/* owned: dsos to load before going on */
	size_t nr_need, cap_need;
};

/* One job: up to job_items samples of the segment, formatted into chunk.  Queued as
 * soon as it is full, so the workers resolve while the calling thread replays. */
struct block {
	struct pipeline *p;
	size_t n;			/* samples in rs */
	size_t next;			/* the first sample not done yet */
	void *chunk;			/* the sink's, owned, reused */
	int err;			/* < 0: sample next failed */
	bool again;			/* stopped at next for a load */
	bool queued;
	atomic_bool done;		/* the job has run (acquire: its chunk) */
	struct resolved_sample rs[];	/* job_items of them */
};

struct pipeline {
	struct machine *m;
	struct workqueue *wq;
	const struct pipeline_sink *sink;
	void *ctx;
	size_t job_items;		/* samples a job resolves at most */
	struct pipeline_thread *slots;	/* owned: one per thread that runs jobs */
	size_t nr_slots;
	struct pipeline_thread serial;	/* the calling thread's, in turn */
	void *serial_chunk;		/* owned */
	struct block **blocks;		/* owned: the segment's, then spares */
	size_t nr_blocks, cap_blocks;	/* in use; allocated */
	size_t emitted;			/* blocks emitted of the segment */
	struct wq_group groups[2];	/* the queued jobs of this batch (parity) and
					 * of the one before */
	unsigned parity;
	bool held;			/* a batch's jobs may run on while the next
					 * batch is replayed (pipeline__deliver()) */
	size_t prev_end;		/* held: blocks[0, prev_end) are the batch
					 * before's */
	size_t prev_mark;		/* held: machine__maps_retired() when that
					 * batch was replayed */
	bool bad;			/* a record failed: bad_file, bad_offset */
	uint16_t bad_file;
	uint64_t bad_offset;
};

static int note_bad(struct pipeline *p, const struct record_ref *ref, int err)
{
	if (!p->bad && ref) {
		p->bad = true;
		p->bad_file = ref->file;
		p->bad_offset = ref->offset;
	}
	return err;
}

static int slot_init(struct pipeline *p, struct pipeline_thread *pt, bool serial)
{
	pt->p = p;
	pt->serial = serial;
	atomic_init(&pt->busy, false);
	if (!p->sink->thread_size)
		return 0;
	if (!(pt->state = calloc(1, p->sink->thread_size)))
		return -ENOMEM;
	return p->sink->thread_init ? p->sink->thread_init(p->ctx, pt->state) : 0;
}

static void slot_exit(struct pipeline *p, struct pipeline_thread *pt)
{
	if (p->sink->thread_exit && pt->state)
		p->sink->thread_exit(p->ctx, pt->state);
	free(pt->state);
	free(pt->need);
}

static int chunk_new(struct pipeline *p, void **out)
{
	*out = calloc(1, p->sink->chunk_size ? p->sink->chunk_size : 1);
	return *out ? 0 : -ENOMEM;
}

static void chunk_delete(struct pipeline *p, void *chunk)
{
	if (p->sink->chunk_exit)
		p->sink->chunk_exit(p->ctx, chunk);
	free(chunk);
}

int pipeline__new(struct pipeline **out, struct machine *m, struct workqueue *wq,
		  const struct pipeline_sink *sink, void *ctx)
{
	struct pipeline *p = calloc(1, sizeof(*p));
	int err;

	*out = NULL;
	if (!p)
		return -ENOMEM;
	p->m = m;
	p->wq = wq;
	p->sink = sink;
	p->ctx = ctx;
	p->job_items = sink->job_items ? sink->job_items : JOB_SAMPLES;
	/* parallel_for() runs jobs on every worker and the calling thread */
	p->nr_slots = (wq ? workqueue__nr_workers(wq) : 0) + 1;
	p->slots = calloc(p->nr_slots, sizeof(*p->slots));
	if (!p->slots) {
		free(p);
		return -ENOMEM;
	}
	err = slot_init(p, &p->serial, true);
	for (size_t i = 0; !err && i < p->nr_slots; i++)
		err = slot_init(p, &p->slots[i], false);
	if (!err)
		err = chunk_new(p, &p->serial_chunk);
	if (err) {
		pipeline__delete(p);
		return err;
	}
	*out = p;
	return 0;
}

void pipeline__delete(struct pipeline *p)
{
	if (!p)
		return;
	if (p->wq) {	/* no job of ours is left in the pool's hands */
		workqueue__group_wait(p->wq, &p->groups[0]);
		workqueue__group_wait(p->wq, &p->groups[1]);
	}
	for (size_t i = 0; i < p->nr_slots; i++)
		slot_exit(p, &p->slots[i]);
	slot_exit(p, &p->serial);
	for (size_t i = 0; i < p->cap_blocks && p->blocks[i]; i++) {
		if (p->blocks[i]->chunk)
			chunk_delete(p, p->blocks[i]->chunk);
		free(p->blocks[i]);
	}
	if (p->serial_chunk)
		chunk_delete(p, p->serial_chunk);
	free(p->blocks);
	free(p->slots);
	free(p);
}

bool pipeline__bad(const struct pipeline *p, uint16_t *file, uint64_t *offset)
{
	if (!p->bad)
		return false;
	*file = p->bad_file;
	*offset = p->bad_offset;
	return true;
}

void pipeline__for_each_state(struct pipeline *p, void (*fn)(void *ctx, void *state),
			      void *ctx)
{
	fn(ctx, p->serial.state);
	for (size_t i = 0; i < p->nr_slots; i++)
		fn(ctx, p->slots[i].state);
}

/* ---- resolving ------------------------------------------------------------------ */

static int need_dso(struct pipeline_thread *pt, struct dso *dso)
{
	for (size_t i = 0; i < pt->nr_need; i++)
		if (pt->need[i] == dso)
			return PIPELINE_AGAIN;
	if (array__grow(&pt->need, &pt->cap_need, pt->nr_need + 1,
			sizeof(*pt->need), 16))
		return -ENOMEM;
	pt->need[pt->nr_need++] = dso;
	return PIPELINE_AGAIN;
}

void pipeline__resolve_map(struct pipeline_thread *pt, const struct resolved_sample *rs,
			   uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	if (pt->serial) {
		machine__resolve_map(pt->p->m, rs->t, cpumode, ip, al);
		return;
	}
	machine__resolve_map_at(pt->p->m, &rs->maps, cpumode, ip, al);
	al->thread = rs->t;
	al->sym = NULL;
	al->sym_unmapped_start = 0;
}

int pipeline__resolve_sym(struct pipeline_thread *pt, struct addr_location *al)
{
	if (pt->serial) {
		addr_location__resolve_sym(al);
		return 0;
	}
	if (addr_location__resolve_sym_loaded(al))
		return 0;
	return need_dso(pt, al->dso);
}

bool pipeline_thread__in_turn(const struct pipeline_thread *pt)
{
	return pt->serial;
}

int pipeline__resolve(struct pipeline_thread *pt, const struct resolved_sample *rs,
		      uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	if (pt->serial) {
		machine__resolve(pt->p->m, rs->t, cpumode, ip, al);
		return 0;
	}
	pipeline__resolve_map(pt, rs, cpumode, ip, al);
	if (addr_location__resolve_sym_loaded(al))
		return 0;
	return need_dso(pt, al->dso);
}

/* ---- the segment ---------------------------------------------------------------- */

static struct pipeline_thread *take_slot(struct pipeline *p)
{
	for (;;)
		for (size_t i = 0; i < p->nr_slots; i++)
			if (!atomic_exchange_explicit(&p->slots[i].busy, true,
						      memory_order_acquire))
				return &p->slots[i];
}

static void run_block(struct block *b)
{
	struct pipeline *p = b->p;
	struct pipeline_thread *pt;

	b->again = false;
	if (b->next >= b->n || b->err)
		return;
	pt = take_slot(p);
	for (; b->next < b->n; b->next++) {
		int rc = p->sink->sample(p->ctx, pt->state, b->chunk, pt, &b->rs[b->next]);

		if (rc == PIPELINE_AGAIN) {
			b->again = true;
			break;
		}
		if (rc < 0) {
			b->err = rc;
			break;
		}
	}
	atomic_store_explicit(&pt->busy, false, memory_order_release);
}

static void block_job(void *arg)
{
	struct block *b = arg;

	run_block(b);
	atomic_store_explicit(&b->done, true, memory_order_release);
}

static void again_job(void *arg, size_t i)
{
	struct block **v = arg;

	run_block(v[i]);
}

static int cmp_ptr(const void *a, const void *b)
{
	uintptr_t x = (uintptr_t)*(void *const *)a, y = (uintptr_t)*(void *const *)b;

	return (x > y) - (x < y);
}

static void load_job(void *arg, size_t i)
{
	struct dso **v = arg;

	(void)dso__load(v[i]);
}

/* The dsos the stopped jobs asked for, loaded: modules here (a module's load reads
 * the kernel's), user dsos in parallel. */
static int load_needed(struct pipeline *p)
{
	struct dso **v = NULL;
	size_t n = 0, cap = 0, users = 0;
	int err = 0;

	for (size_t i = 0; i < p->nr_slots; i++) {
		struct pipeline_thread *pt = &p->slots[i];

		if (pt->nr_need &&
		    array__grow(&v, &cap, n + pt->nr_need, sizeof(*v), 16)) {
			free(v);
			return -ENOMEM;
		}
		for (size_t k = 0; k < pt->nr_need; k++)
			v[n++] = pt->need[k];
		pt->nr_need = 0;
	}
	if (!n)
		return -ENOMEM;	/* a job stopped without naming a dso: out of memory */
	qsort(v, n, sizeof(*v), cmp_ptr);
	for (size_t i = 0; i < n; i++) {
		struct dso *dso = v[i];

		if ((i && dso == v[i - 1]) || dso->loaded)
			continue;
		if (dso->kind == DSO_KIND_USER)
			v[users++] = dso;
		else if (dso__load(dso) < 0)
			err = -ENOMEM;
	}
	if (!err && users)
		err = parallel_for(p->wq, users, load_job, v);
	for (size_t i = 0; !err && i < users; i++)
		if (!v[i]->loaded)
			err = -ENOMEM;	/* dso__load() leaves a dso unloaded only then */
	free(v);
	return err;
}

/* A block of the segment, for the next samples: a spare, or a new one. */
static struct block *next_block(struct pipeline *p)
{
	struct block *b;

	if (array__grow_zeroed(&p->blocks, &p->cap_blocks, p->nr_blocks + 1,
			       sizeof(*p->blocks), 16))
		return NULL;
	b = p->blocks[p->nr_blocks];
	if (!b) {
		b = calloc(1, sizeof(*b) + p->job_items * sizeof(b->rs[0]));
		if (!b)
			return NULL;
		if (chunk_new(p, &b->chunk)) {
			free(b);
			return NULL;
		}
		b->p = p;
		p->blocks[p->nr_blocks] = b;
	}
	b->n = b->next = 0;
	b->err = 0;
	b->again = b->queued = false;
	atomic_store_explicit(&b->done, false, memory_order_relaxed);
	p->nr_blocks++;
	return b;
}

static void queue_block(struct pipeline *p, struct block *b)
{
	b->queued = true;
	if (workqueue__queue_group(p->wq, &p->groups[p->parity], block_job, b))
		block_job(b);	/* no room to queue it: run it here */
}

/* Emit the segment's blocks done so far, in order (up to one that stopped for a
 * load or failed: the flush deals with those). */
static int emit_done(struct pipeline *p)
{
	int err = 0;

	while (!err && p->emitted < p->nr_blocks) {
		struct block *b = p->blocks[p->emitted];

		if (!b->queued || !atomic_load_explicit(&b->done, memory_order_acquire) ||
		    b->again || b->err)
			break;
		err = p->sink->emit(p->ctx, b->chunk);
		p->emitted++;
	}
	return err;
}

/* Resolve and emit the waiting samples. */
static int flush(struct pipeline *p)
{
	struct block **again = NULL;
	size_t cap = 0;
	int err = 0;

	if (p->nr_blocks && !p->blocks[p->nr_blocks - 1]->queued)
		queue_block(p, p->blocks[p->nr_blocks - 1]);
	/* also with every block emitted: a job's done flag is set before its worker
	 * lets go of the group (the pipeline may be freed next) */
	workqueue__group_wait(p->wq, &p->groups[0]);
	workqueue__group_wait(p->wq, &p->groups[1]);
	if (!p->nr_blocks)
		return 0;
	for (;;) {
		size_t n = 0;

		for (size_t i = p->emitted; i < p->nr_blocks && !err; i++) {
			struct block *b = p->blocks[i];

			if (!b->again || b->err)
				continue;
			if (array__grow(&again, &cap, n + 1, sizeof(*again), 16))
				err = -ENOMEM;
			else
				again[n++] = b;
		}
		if (!n || err)
			break;
		if ((err = load_needed(p)) || (err = parallel_for(p->wq, n, again_job, again)))
			break;
	}
	free(again);
	/* in order: each block's chunk, up to the first failed sample */
	for (; p->emitted < p->nr_blocks && !err; p->emitted++) {
		struct block *b = p->blocks[p->emitted];

		err = p->sink->emit(p->ctx, b->chunk);
		if (!err && b->err)
			err = note_bad(p, b->rs[b->next].ref, b->err);
	}
	p->nr_blocks = p->emitted = p->prev_end = p->prev_mark = 0;
	for (size_t i = 0; i < p->nr_slots; i++)
		p->slots[i].nr_need = 0;
	machine__release_maps(p->m);
	return err;
}

/* The end of a batch where batches are held (pipeline__deliver()): this batch's jobs
 * go on; the batch before's, whose records are let go when this returns, are
 * finished and emitted, and the map arrays only they read released.  Where one of
 * them stopped for a load or failed, everything is flushed. */
static int batch_end(struct pipeline *p)
{
	size_t done;
	int err = 0;

	if (p->nr_blocks && !p->blocks[p->nr_blocks - 1]->queued)
		queue_block(p, p->blocks[p->nr_blocks - 1]);
	workqueue__group_wait(p->wq, &p->groups[p->parity ^ 1]);
	for (size_t i = p->emitted; i < p->prev_end; i++)
		if (p->blocks[i]->again || p->blocks[i]->err)
			return flush(p);
	for (; p->emitted < p->prev_end && !err; p->emitted++)
		err = p->sink->emit(p->ctx, p->blocks[p->emitted]->chunk);
	if (!err)
		err = emit_done(p);
	if (err)
		return err;
	machine__release_maps_upto(p->m, p->prev_mark);
	/* the emitted blocks go after the others, as spares */
	done = p->emitted;
	if (done) {
		struct block *tmp[64];

		for (size_t moved = 0; moved < done;) {
			size_t k = done - moved < 64 ? done - moved : 64;

			memcpy(tmp, p->blocks, k * sizeof(*tmp));
			memmove(p->blocks, p->blocks + k,
				(p->nr_blocks - k) * sizeof(*p->blocks));
			memcpy(p->blocks + p->nr_blocks - k, tmp, k * sizeof(*tmp));
			moved += k;
		}
		p->nr_blocks -= done;
		p->emitted = 0;
	}
	p->prev_end = p->nr_blocks;
	p->prev_mark = machine__maps_retired(p->m);
	p->parity ^= 1;
	return 0;
}

/* Whether resolving @p rs may read the kernel's maps: its own address, its
 * callchain's kernel part, or what the sink said. */
static bool touches_kernel(const struct resolved_sample *rs)
{
	uint16_t cpumode = rs->s.misc & MISC_CPUMODE_MASK;

	if (rs->kernel || cpumode == MISC_KERNEL || cpumode == MISC_GUEST_KERNEL)
		return true;
	for (uint64_t i = 0; i < rs->s.callchain_nr; i++) {
		uint64_t ip = sample__callchain_ip(&rs->s, i);

		if (ip >= CONTEXT_MAX && ip != CONTEXT_USER)
			return true;
	}
	return false;
}

/* A sample the workers cannot resolve (it may change the machine): here, in its
 * turn, after the samples before it. */
static int resolve_in_turn(struct pipeline *p, struct resolved_sample *rs)
{
	int err = flush(p);

	if (!err) {
		/* after the flush, which releases the copies taken before */
		maps__copy(rs->t->maps, &rs->maps);
		err = p->sink->sample(p->ctx, p->serial.state, p->serial_chunk, &p->serial, rs);
		if (err < 0)
			note_bad(p, rs->ref, err);
		else
			err = p->sink->emit(p->ctx, p->serial_chunk);
	}
	return err;
}

/* A sample the sink leaves out still had its own address resolved first (perf's
 * machine__resolve() comes before the filters): where that changes the machine (a
 * kernel address before the kernel's map is final), it is done here, in its turn. */
static int drop_in_turn(struct pipeline *p, struct resolved_sample *rs)
{
	uint16_t cpumode = rs->s.misc & MISC_CPUMODE_MASK;
	struct addr_location al;
	int err;

	if (machine__kernel_ready(p->m) ||
	    (cpumode != MISC_KERNEL && cpumode != MISC_GUEST_KERNEL))
		return 0;
	if ((err = flush(p)))
		return err;
	machine__resolve_map(p->m, rs->t, cpumode, rs->s.ip, &al);
	return 0;
}

/* The next item's slot: the current block's, or a new block's (not counted in until
 * keep_item()); NULL on ENOMEM. */
static struct resolved_sample *next_item(struct pipeline *p, const struct record_ref *ref)
{
	struct block *b = p->nr_blocks ? p->blocks[p->nr_blocks - 1] : NULL;
	struct resolved_sample *rs;

	if ((!b || b->queued) && !(b = next_block(p)))
		return NULL;
	rs = &b->rs[b->n];
	rs->aux = NULL;
	rs->aux_int = 0;
	rs->kernel = false;
	rs->record_only = false;
	rs->parse_err = 0;
	rs->ref = ref;
	return rs;
}

/* The item made by next_item() kept: its block queued once full. */
static int keep_item(struct pipeline *p)
{
	struct block *b = p->blocks[p->nr_blocks - 1];

	if (++b->n == p->job_items) {
		queue_block(p, b);
		return emit_done(p);
	}
	return 0;
}

/* pipeline_sink.every_record: a record that is no sample to resolve, an item of its
 * own (parse_err: a SAMPLE that does not parse). */
static int on_record_item(struct pipeline *p, const struct record_ref *ref, int parse_err)
{
	struct resolved_sample *rs = next_item(p, ref);
	int err;

	if (!rs)
		return -ENOMEM;
	rs->record_only = true;
	rs->parse_err = parse_err;
	rs->t = NULL;
	rs->comm = NULL;
	memset(&rs->maps, 0, sizeof(rs->maps));
	if (p->sink->prepare) {
		err = p->sink->prepare(p->ctx, rs);
		if (err == PIPELINE_DROP)
			return 0;
		if (err)
			return note_bad(p, ref, err);
	}
	return keep_item(p);
}

static int on_sample(struct pipeline *p, const struct record_ref *ref)
{
	struct resolved_sample *rs = next_item(p, ref);
	int err;

	if (!rs)
		return -ENOMEM;
	if ((err = sample__parse(&rs->s, &ref->evsel->attr, ref->data, ref->size))) {
		if (p->sink->every_record)
			return on_record_item(p, ref, err);
		return note_bad(p, ref, err);
	}
	if (p->sink->select && !p->sink->select(p->ctx, ref, &rs->s))
		return 0;
	rs->t = machine__findnew_thread(p->m, (int32_t)rs->s.pid, (int32_t)rs->s.tid);
	if (!rs->t)
		return -ENOMEM;
	/* perf names a thread that has no name yet at its first sample */
	(void)machine__sample_comm(p->m, rs->t);
	rs->comm = thread__comm(rs->t);
	if (p->sink->prepare) {
		err = p->sink->prepare(p->ctx, rs);
		if (err == PIPELINE_DROP)
			return drop_in_turn(p, rs);
		if (err)
			return note_bad(p, ref, err);
	}
	if (!machine__kernel_ready(p->m) && touches_kernel(rs))
		return resolve_in_turn(p, rs);
	maps__copy(rs->t->maps, &rs->maps);
	return keep_item(p);
}

/* Whether replaying @p ref changes what a waiting sample resolves to. */
static bool changes_resolving(const struct record_ref *ref)
{
	struct record_header h;

	if (ref->type != REC_MMAP && ref->type != REC_MMAP2)
		return false;
	record_header__get(&h, ref->data);
	return (ref->type == REC_MMAP2 && (h.misc & MISC_MMAP_BUILD_ID)) ||
	       (h.misc & MISC_CPUMODE_MASK) == MISC_KERNEL ||
	       (h.misc & MISC_CPUMODE_MASK) == MISC_GUEST_KERNEL;
}

int pipeline__on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct pipeline *p = ctx;
	int err = 0;

	if (p->sink->batch)
		p->sink->batch(p->ctx, recs, n);

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		if (ref->type == REC_SAMPLE && ref->evsel) {
			err = on_sample(p, ref);
			continue;
		}
		if (p->sink->every_record && (err = on_record_item(p, ref, 0)))
			break;
		if (p->sink->record) {
			err = p->sink->record(p->ctx, ref);
			if (err < 0) {
				note_bad(p, ref, err);
				break;
			}
			if (err == 1) {
				err = 0;
				continue;
			}
		}
		if (!ref->evsel)
			continue;
		if (changes_resolving(ref) && (err = flush(p)))
			break;
		if ((err = machine__process_record(p->m, ref)))
			note_bad(p, ref, err);
	}
	if (!err)
		err = p->held && n ? batch_end(p) : flush(p);
	if (!err)
		return 0;
	/* an error (a record's, or the sink's emit(): a failed write): the queued
	 * jobs finish - they read this batch's records, which the session lets go
	 * once this returns - and nothing more is emitted */
	if (p->nr_blocks) {
		workqueue__group_wait(p->wq, &p->groups[0]);
		workqueue__group_wait(p->wq, &p->groups[1]);
		p->nr_blocks = p->emitted = p->prev_end = p->prev_mark = 0;
		machine__release_maps(p->m);
	}
	return err;
}

int pipeline__flush(struct pipeline *p)
{
	return flush(p);
}

int pipeline__deliver(struct pipeline *p, struct session *s, size_t batch)
{
	int err;

	/* with workers, a batch's jobs run on while the next batch is replayed: its
	 * records must stay valid that long */
	p->held = p->wq && workqueue__nr_workers(p->wq) > 0;
	if (p->held)
		session__hold_batches(s, 1);
	err = session__deliver(s, pipeline__on_batch, p, batch);
	/* records that live as long as the session get no empty batch at the end */
	if (!err)
		err = flush(p);
	else if (p->nr_blocks) {
		workqueue__group_wait(p->wq, &p->groups[0]);
		workqueue__group_wait(p->wq, &p->groups[1]);
		p->nr_blocks = p->emitted = p->prev_end = p->prev_mark = 0;
		machine__release_maps(p->m);
	}
	return err;
}
