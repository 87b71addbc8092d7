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

/* One job: samples [start, end) of the segment into chunk. */
struct job {
	void *chunk;			/* the sink's, owned, reused */
	size_t start, end;
	size_t next;			/* the first sample not done yet */
	int err;			/* < 0: sample next failed */
	bool again;			/* stopped at next for a load */
};

struct pipeline {
	struct machine *m;
	struct workqueue *wq;
	const struct pipeline_sink *sink;
	void *ctx;
	struct pipeline_thread *slots;	/* owned: one per thread that runs jobs */
	size_t nr_slots;
	struct pipeline_thread serial;	/* the calling thread's, in turn */
	void *serial_chunk;		/* owned */
	struct resolved_sample *pend;	/* owned: the segment */
	size_t nr_pend, cap_pend;
	struct job *jobs;		/* owned */
	size_t nr_jobs, cap_jobs;
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
	if (p->sink->thread_new)
		return p->sink->thread_new(p->ctx, &pt->state);
	return 0;
}

static void slot_exit(struct pipeline *p, struct pipeline_thread *pt)
{
	if (p->sink->thread_delete && pt->state)
		p->sink->thread_delete(p->ctx, pt->state);
	free(pt->need);
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
		err = sink->chunk_new(ctx, &p->serial_chunk);
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
	for (size_t i = 0; i < p->nr_slots; i++)
		slot_exit(p, &p->slots[i]);
	slot_exit(p, &p->serial);
	for (size_t i = 0; i < p->nr_jobs; i++)
		if (p->jobs[i].chunk)
			p->sink->chunk_delete(p->ctx, p->jobs[i].chunk);
	if (p->serial_chunk)
		p->sink->chunk_delete(p->ctx, p->serial_chunk);
	free(p->jobs);
	free(p->slots);
	free(p->pend);
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

static void run_job(void *arg, size_t i)
{
	struct pipeline *p = arg;
	struct job *j = &p->jobs[i];
	struct pipeline_thread *pt;

	if (j->next >= j->end || j->err)
		return;
	pt = take_slot(p);
	j->again = false;
	for (; j->next < j->end; j->next++) {
		int rc = p->sink->sample(p->ctx, pt->state, j->chunk, pt, &p->pend[j->next]);

		if (rc == PIPELINE_AGAIN) {
			j->again = true;
			break;
		}
		if (rc < 0) {
			j->err = rc;
			break;
		}
	}
	atomic_store_explicit(&pt->busy, false, memory_order_release);
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

/* Resolve and emit the waiting samples. */
static int flush(struct pipeline *p)
{
	size_t nr_jobs = (p->nr_pend + JOB_SAMPLES - 1) / JOB_SAMPLES;
	int err = 0;

	if (!p->nr_pend)
		return 0;
	if (array__grow_zeroed(&p->jobs, &p->cap_jobs, nr_jobs, sizeof(*p->jobs), 16))
		return -ENOMEM;
	for (; p->nr_jobs < nr_jobs; p->nr_jobs++)
		if ((err = p->sink->chunk_new(p->ctx, &p->jobs[p->nr_jobs].chunk)))
			return err;
	for (size_t i = 0; i < nr_jobs; i++) {
		struct job *j = &p->jobs[i];

		j->start = j->next = i * JOB_SAMPLES;
		j->end = j->start + JOB_SAMPLES < p->nr_pend ? j->start + JOB_SAMPLES
							     : p->nr_pend;
		j->err = 0;
		j->again = false;
	}
	for (;;) {
		bool again = false;

		if ((err = parallel_for(p->wq, nr_jobs, run_job, p)))
			return err;
		for (size_t i = 0; i < nr_jobs; i++)
			again |= p->jobs[i].again && !p->jobs[i].err;
		if (!again)
			break;
		if ((err = load_needed(p)))
			return err;
	}
	/* in order: each job's chunk, up to the first failed sample */
	for (size_t i = 0; i < nr_jobs && !err; i++) {
		struct job *j = &p->jobs[i];

		err = p->sink->emit(p->ctx, j->chunk);
		if (!err && j->err)
			err = note_bad(p, p->pend[j->next].ref, j->err);
	}
	p->nr_pend = 0;
	for (size_t i = 0; i < p->nr_slots; i++)
		p->slots[i].nr_need = 0;
	machine__release_maps(p->m);
	return err;
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

static int on_sample(struct pipeline *p, const struct record_ref *ref)
{
	struct resolved_sample *rs;
	int err;

	if (array__grow(&p->pend, &p->cap_pend, p->nr_pend + 1, sizeof(*p->pend), 16))
		return -ENOMEM;
	rs = &p->pend[p->nr_pend];
	memset(rs, 0, sizeof(*rs));
	rs->ref = ref;
	if ((err = sample__parse(&rs->s, &ref->evsel->attr, ref->data, ref->size)))
		return note_bad(p, ref, err);
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
	maps__copy(rs->t->maps, &rs->maps);
	if (!machine__kernel_ready(p->m) && touches_kernel(rs))
		return resolve_in_turn(p, rs);
	p->nr_pend++;
	return 0;
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

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		if (ref->type == REC_SAMPLE && ref->evsel) {
			err = on_sample(p, ref);
			continue;
		}
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
		err = flush(p);
	else
		p->nr_pend = 0;
	return err;
}
