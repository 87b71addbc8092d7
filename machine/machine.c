#include "machine/machine.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free, realloc */
#include <string.h>	/* memcpy, memmove, strcmp, strlen */

#include "format/event.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "format/record-ref.h"
#include "util/workqueue.h"
#include "util/hashtab.h"
#include "util/array.h"
#include "util/strtab.h"
#include "banned.h"

/* Interned strings: comm names compare by pointer afterwards. */

struct machine {
	struct thread **threads;	/* open-addressing hash by tid; owned */
	size_t threads_cap, nr_threads;
	struct strtab comms;
	struct dsos *dsos;		/* owned */
	struct maps kernel_maps;	/* [kernel.kallsyms] and modules */
	struct dso *kernel;		/* borrowed from dsos */
	struct thread **retired;	/* owned: threads a FORK replaced (perf removes
					 * them; callers may still hold pointers) */
	size_t nr_retired;
	bool comm_exec;			/* exec COMMs are told apart */
	uint32_t nr_thread_ids, nr_comm_ids;	/* ids handed out (thread.id, comm.id) */
	struct map **old_maps;		/* owned: arrays maps__insert() replaced
					 * while a copy read them (maps__copy()) */
	size_t nr_old_maps, cap_old_maps;
	struct workqueue *preload_wq;	/* borrowed: where the preload job runs */
	struct dso *preload_dso;	/* borrowed: the kernel dso it reads */
	struct wq_group preload;	/* machine__preload_kernel()'s job */
	bool kernel_final;		/* machine__kernel_ready(), kept up to date
					 * (kernel_maps_changed()) */
};

int machine__new(struct machine **out, const char *kallsyms)
{
	struct dsos_opts o = { .kallsyms = kallsyms };

	return machine__new_opts(out, &o);
}

static void maps__put(struct maps *mp)
{
	if (mp && --mp->refs == 0) {
		free(mp->v);
		free(mp);
	}
}

static void thread__free(struct thread *t)
{
	struct comm *c = t->comms, *older;

	for (; c; c = older) {
		older = c->older;
		free(c);
	}
	maps__put(t->maps);
	free(t);
}

void machine__delete(struct machine *m)
{
	if (!m)
		return;
	machine__wait_preload(m);	/* it writes the kernel dso */
	for (size_t i = 0; i < m->threads_cap; i++)
		if (m->threads[i])
			thread__free(m->threads[i]);
	for (size_t i = 0; i < m->nr_retired; i++)
		thread__free(m->retired[i]);
	free(m->retired);
	free(m->threads);
	free(m->kernel_maps.v);
	machine__release_maps(m);
	free(m->old_maps);
	strtab__exit(&m->comms);
	dsos__delete(m->dsos);
	free(m);
}

static uint64_t tid_hash(int32_t tid)
{
	return (uint32_t)tid * 0x9E3779B97F4A7C15ULL >> 20;
}

static uint64_t thread_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return tid_hash((*(struct thread *const *)slot)->tid);
}

static struct thread *find_thread(struct machine *m, int32_t tid)
{
	size_t i;

	if (!m->threads_cap)
		return NULL;
	i = hashtab__first(tid_hash(tid), m->threads_cap);
	while (m->threads[i]) {
		if (m->threads[i]->tid == tid)
			return m->threads[i];
		i = hashtab__next(i, m->threads_cap);
	}
	return NULL;
}

/* A thread object with the machine's next id; NULL on ENOMEM. */
static struct thread *thread__new(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->pid = pid;
	t->tid = tid;
	t->id = m->nr_thread_ids++;
	return t;
}

static int insert_thread(struct machine *m, struct thread *t)
{
	size_t i;

	if (hashtab__reserve(&m->threads, &m->threads_cap, m->nr_threads,
			     sizeof(*m->threads), 1024, thread_slot_hash, NULL))
		return -ENOMEM;
	i = hashtab__first(tid_hash(t->tid), m->threads_cap);
	while (m->threads[i])
		i = hashtab__next(i, m->threads_cap);
	m->threads[i] = t;
	m->nr_threads++;
	return 0;
}

/* A new struct maps.gen: unique in the run, whatever machine or thread asks. */
static uint64_t maps_next_gen(void)
{
	static uint64_t gen;

	return __atomic_add_fetch(&gen, 1, __ATOMIC_RELAXED);
}

static struct maps *maps__new(void)
{
	struct maps *mp = calloc(1, sizeof(*mp));

	if (mp) {
		mp->refs = 1;
		mp->gen = maps_next_gen();
	}
	return mp;
}

static struct maps *maps__clone(const struct maps *src)
{
	struct maps *mp = maps__new();

	if (!mp || !src->nr)
		return mp;
	mp->v = malloc(src->nr * sizeof(*mp->v));
	if (!mp->v) {
		free(mp);
		return NULL;
	}
	memcpy(mp->v, src->v, src->nr * sizeof(*mp->v));
	mp->nr = mp->cap = src->nr;
	for (size_t i = 0; i < mp->nr; i++)	/* perf clones each map object */
		mp->v[i].id = maps_next_gen();
	return mp;
}

struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = find_thread(m, tid), *leader;

	if (t) {
		if (t->pid == -1 && pid != -1)
			t->pid = pid;
		return t;
	}
	t = thread__new(m, pid, tid);
	if (!t)
		return NULL;
	/* Threads of a process share the leader's maps. */
	leader = pid != tid && pid != -1 ? machine__findnew_thread(m, pid, pid) : NULL;
	if (leader) {
		t->maps = leader->maps;
		t->maps->refs++;
	} else {
		t->maps = maps__new();
	}
	if (!t->maps || insert_thread(m, t)) {
		maps__put(t->maps);
		free(t);
		return NULL;
	}
	return t;
}

const char *thread__comm(const struct thread *t)
{
	return t->comm;
}

const char *thread__comm_overridden(const struct thread *t, const char *comm)
{
	const struct comm *c = t->comms;
	char def[16];

	if (!c || !t->comm_set || !comm || comm[0] != ':')
		return comm;
	snprintf(def, sizeof(def), ":%d", t->tid);
	if (strcmp(comm, def))
		return comm;
	while (c->older)
		c = c->older;
	return c->str;
}

static struct comm *comm__push(struct machine *m, struct thread *t, const char *str,
			       uint64_t start, bool exec)
{
	struct comm *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	c->id = m->nr_comm_ids++;
	c->str = str;
	c->start = start;
	c->exec = exec;
	c->older = t->comms;
	t->comms = c;
	return c;
}

/* perf's __thread__set_comm: the first name overrides the default entry in place. */
static int set_comm(struct machine *m, struct thread *t, const char *comm, uint64_t time,
		    bool exec)
{
	const char *c = strtab__intern(&m->comms, comm);

	if (!c)
		return -ENOMEM;
	if (!t->comm_set && t->comms) {
		t->comms->str = c;
		t->comms->start = time;
		t->comms->exec |= exec;
	} else if (!comm__push(m, t, c, time, exec)) {
		return -ENOMEM;
	}
	t->comm = c;
	t->comm_set = true;
	return 0;
}

/* Default comm perf gives a thread it has not seen a COMM for. */
static int default_comm(struct machine *m, struct thread *t)
{
	char buf[32];

	if (t->comm)
		return 0;
	/* perf names the idle task; everything else is ":<tid>" */
	if (t->tid == 0)
		snprintf(buf, sizeof(buf), "swapper");
	else
		snprintf(buf, sizeof(buf), ":%d", t->tid);
	t->comm = strtab__intern(&m->comms, buf);
	return t->comm ? 0 : -ENOMEM;
}

/* Insert a map, cutting the parts of older maps it overlaps. */
static int maps__insert(struct machine *m, struct maps *mp, const struct map *nm)
{
	struct map *out;
	size_t n = 0, cap = mp->nr + 2;

	out = malloc(cap * sizeof(*out));
	if (!out)
		return -ENOMEM;
	if (mp->pinned &&
	    array__grow(&m->old_maps, &m->cap_old_maps, m->nr_old_maps + 1,
			sizeof(*m->old_maps), 64)) {
		free(out);
		return -ENOMEM;
	}
	for (size_t i = 0; i < mp->nr; i++) {
		struct map o = mp->v[i];

		if (o.end <= nm->start || o.start >= nm->end) {
			out[n++] = o;
			continue;
		}
		if (o.start < nm->start) {	/* head survives */
			struct map h = o;
			h.end = nm->start;
			h.id = maps_next_gen();
			out[n++] = h;
		}
		if (o.end > nm->end) {		/* tail survives */
			struct map tl = o;
			tl.id = maps_next_gen();
			tl.pgoff += nm->end - o.start;
			tl.start = nm->end;
			out[n++] = tl;
		}
	}
	/* keep sorted: insert nm at its place */
	size_t at = 0;
	while (at < n && out[at].start < nm->start)
		at++;
	memmove(&out[at + 1], &out[at], (n - at) * sizeof(*out));
	out[at] = *nm;
	out[at].id = maps_next_gen();
	n++;
	if (mp->pinned)
		m->old_maps[m->nr_old_maps++] = mp->v;
	else
		free(mp->v);
	mp->pinned = false;
	mp->v = out;
	mp->nr = n;
	mp->cap = cap;
	mp->gen = maps_next_gen();
	return 0;
}

void maps__copy(struct maps *mp, struct maps *out)
{
	if (!mp) {
		memset(out, 0, sizeof(*out));
		return;
	}
	*out = *mp;
	out->refs = 0;
	out->pinned = false;
	mp->pinned = mp->v != NULL;
}

void machine__release_maps(struct machine *m)
{
	machine__release_maps_upto(m, m->nr_old_maps);
}

size_t machine__maps_retired(const struct machine *m)
{
	return m->nr_old_maps;
}

void machine__release_maps_upto(struct machine *m, size_t n)
{
	if (n > m->nr_old_maps)
		n = m->nr_old_maps;
	if (!n)		/* old_maps may be NULL: no memmove() of it */
		return;
	for (size_t i = 0; i < n; i++)
		free(m->old_maps[i]);
	memmove(m->old_maps, m->old_maps + n, (m->nr_old_maps - n) * sizeof(*m->old_maps));
	m->nr_old_maps -= n;
}

const struct map *maps__find(const struct maps *mp, uint64_t addr)
{
	size_t lo = 0, hi = mp->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < mp->v[mid].start)
			hi = mid;
		else if (addr >= mp->v[mid].end)
			lo = mid + 1;
		else
			return &mp->v[mid];
	}
	return NULL;
}

/* Whether no kernel map waits for its fixup (machine__kernel_ready()), after the
 * kernel's maps changed. */
static void kernel_maps_changed(struct machine *m)
{
	m->kernel_final = true;
	for (size_t i = 0; i < m->kernel_maps.nr; i++)
		if (m->kernel_maps.v[i].kernel_fixup)
			m->kernel_final = false;
}

static int kernel_maps_insert(struct machine *m, const struct map *nm)
{
	int err = maps__insert(m, &m->kernel_maps, nm);

	kernel_maps_changed(m);
	return err;
}

/* The kernel map maps identically (map_ip(ip) = ip). perf moves it to the span of the
 * kernel's symbols when they are loaded, i.e. at the first sample in it (see
 * machine__resolve), so kallsyms is read only when a kernel sample needs it. */
static int kernel_map(struct machine *m, const char *name, struct map *nm,
		      const struct event_mmap2 *mm2)
{
	m->kernel = dsos__kernel(m->dsos);
	if (!m->kernel || dso__set_kernel_ref(m->kernel, name, nm->pgoff))
		return -ENOMEM;
	/* perf's machine__process_kernel_mmap_event(): the build-id of an MMAP2 of the
	 * build-id form (perf record --buildid-mmap) is the kernel's, unless the header
	 * named one */
	if (mm2 && mm2->has_build_id && !m->kernel->has_build_id)
		dso__set_build_id(m->kernel, mm2->build_id,
				  mm2->build_id_size <= EVENT_BUILD_ID_MAX ?
				  mm2->build_id_size : EVENT_BUILD_ID_MAX);
	nm->dso = m->kernel;
	nm->pgoff = nm->start;
	nm->kernel_fixup = true;
	return kernel_maps_insert(m, nm);
}

static void preload_job(void *arg)
{
	struct machine *m = arg;

	/* -ENOMEM here only loses the head start: dso__load() reads the file again */
	(void)dso__preload_kernel(m->preload_dso, m->preload_wq, &m->preload);
}

/* Queue a job on the kernel dso. */
static int queue_kernel_job(struct machine *m, struct workqueue *wq, workqueue_fn job)
{
	struct dso *k = dsos__kernel(m->dsos);

	if (!k)
		return -ENOMEM;
	return workqueue__queue(wq, job, k);
}

int machine__preload_kernel(struct machine *m, struct workqueue *wq)
{
	struct dso *k = dsos__kernel(m->dsos);

	if (!k)
		return -ENOMEM;
	m->preload_wq = wq;
	m->preload_dso = k;
	return workqueue__queue_group(wq, &m->preload, preload_job, m);
}

void machine__wait_preload(struct machine *m)
{
	if (!m)
		return;
	if (m->preload_wq)
		workqueue__group_wait(m->preload_wq, &m->preload);
	m->preload_wq = NULL;	/* done: the workqueue may go before the machine */
}

enum kallsyms_check_result machine__check_kernel_symbols(struct machine *m,
							 uint64_t *offset)
{
	struct dso *k;

	if (!m)
		return KALLSYMS_NOT_AHEAD;
	machine__wait_preload(m);	/* it made the check */
	k = dsos__kernel(m->dsos);
	return k ? dso__check_kernel(k, offset) : KALLSYMS_NOT_AHEAD;
}

enum kallsyms_check_state machine__kernel_check_state(struct machine *m)
{
	struct dso *k;

	if (!m)
		return KALLSYMS_CHECK_SETTLED;
	machine__wait_preload(m);	/* it made the check */
	k = dsos__kernel(m->dsos);
	return k ? dso__check_kernel_state(k) : KALLSYMS_CHECK_SETTLED;
}

static void load_kernel_job(void *kdso)
{
	/* -ENOMEM here leaves the dso unloaded: the first lookup loads it again */
	(void)dso__load(kdso);
}

int machine__load_kernel(struct machine *m, struct workqueue *wq)
{
	return queue_kernel_job(m, wq, load_kernel_job);
}

int machine__apply_build_ids(struct machine *m, const struct features *f)
{
	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct feat_build_id *b = &f->build_ids[i];

		if (dsos__apply_build_id(m->dsos, b->pid, b->misc, b->filename, b->build_id,
					 b->size))
			return -ENOMEM;
	}
	return 0;
}

size_t machine__build_id_dsos(struct machine *m, const struct features *f,
			      struct dso **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < f->nr_build_ids; i++) {
		const struct feat_build_id *b = &f->build_ids[i];
		struct dso *dso;

		/* dsos__apply_build_id()'s user-space entries */
		if (b->pid != -1 || (b->misc & 7) != MISC_USER ||
		    !(dso = dsos__find(m->dsos, b->filename)))
			continue;
		if (n < max)
			out[n] = dso;
		n++;
	}
	return n;
}

static int process_mmap(struct machine *m, const struct record_ref *ref)
{
	struct event_mmap2 mm2;
	struct event_str filename;
	uint16_t misc;
	int32_t pid, tid;
	struct map nm = { 0 };
	char name[4096], dso_name[4096];
	unsigned flags;
	bool exec;
	size_t n;

	/* perf skips records too short for their fields and a byte of file name */
	if (ref->type == REC_MMAP2) {
		if (event_mmap2__decode(ref->data, ref->size, &mm2))
			return 0;
		filename = mm2.filename;
		misc = mm2.misc;
		pid = (int32_t)mm2.pid;
		tid = (int32_t)mm2.tid;
		nm.start = mm2.start;
		nm.end = mm2.start + mm2.len;
		nm.pgoff = mm2.pgoff;
		exec = (mm2.prot & 4 /* PROT_EXEC */) != 0;
	} else {
		struct event_mmap mm;

		if (event_mmap__decode(ref->data, ref->size, &mm))
			return 0;
		filename = mm.filename;	/* a copy: its bytes are the record's */
		misc = mm.misc;
		pid = (int32_t)mm.pid;
		tid = (int32_t)mm.tid;
		nm.start = mm.start;
		nm.end = mm.start + mm.len;
		nm.pgoff = mm.pgoff;
		exec = !(misc & MISC_MMAP_DATA);
	}
	n = filename.len;
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	memcpy(name, filename.s, n);
	name[n] = 0;
	if ((misc & MISC_CPUMODE_MASK) == MISC_KERNEL) {
		if (!strncmp(name, "[kernel.kallsyms]", 17))
			return kernel_map(m, name, &nm, ref->type == REC_MMAP2 ? &mm2 : NULL);
		/* a kernel module: perf's machine__addnew_module_map() maps it like a
		 * file at offset 0 (map_ip(ip) = ip - start, module-relative) */
		nm.dso = dsos__findnew_module(m->dsos, name);
		if (!nm.dso)
			return -ENOMEM;
		nm.pgoff = 0;
		return kernel_maps_insert(m, &nm);
	}
	flags = dso__mmap_name(name, pid, exec, dso_name, sizeof(dso_name));
	struct thread *t = machine__findnew_thread(m, pid, tid);
	if (!t)
		return -ENOMEM;
	nm.dso = dsos__findnew(m->dsos, dso_name);
	if (!nm.dso)
		return -ENOMEM;
	if (flags & DSO_MMAP_IDENTITY)
		nm.pgoff = nm.start;		/* map_ip(ip) = ip */
	else if (flags & DSO_MMAP_VDSO)
		nm.pgoff = 0;
	if (ref->type == REC_MMAP2) {
		/* the build-id form's ids are its build-id bytes, as perf's */
		nm.maj = mm2.maj;
		nm.min = mm2.min;
		nm.ino = mm2.ino;
		nm.ino_generation = mm2.ino_generation;
		nm.prot = mm2.prot;
		nm.flags = mm2.flags;
		if (mm2.has_build_id)
			dso__set_build_id(nm.dso, mm2.build_id,
					  mm2.build_id_size <= EVENT_BUILD_ID_MAX ?
					  mm2.build_id_size : EVENT_BUILD_ID_MAX);
	}
	return maps__insert(m, t->maps, &nm);
}

/* perf removes a thread whose tid a FORK reuses and makes a new one: the old object
 * moves to the retired list (callers may hold it), the new one takes its slot. */
static struct thread *replace_thread(struct machine *m, struct thread *old)
{
	struct thread **r, *t = thread__new(m, old->pid, old->tid);
	size_t i;

	if (!t)
		return NULL;
	r = realloc(m->retired, (m->nr_retired + 1) * sizeof(*r));
	if (!r) {
		free(t);
		return NULL;
	}
	m->retired = r;
	m->retired[m->nr_retired++] = old;
	i = hashtab__first(tid_hash(old->tid), m->threads_cap);
	while (m->threads[i] != old)
		i = hashtab__next(i, m->threads_cap);
	m->threads[i] = t;
	return t;
}

static int process_fork(struct machine *m, const struct record_ref *ref,
			const struct sample *s)
{
	struct event_fork ev;
	int32_t pid, ppid, tid, ptid;
	struct thread *parent, *child;

	/* time is not read: a record with the four ids is enough */
	event_fork__decode(ref->data, ref->size, &ev);
	if (ev.nfields < EVENT_FORK_IDS)
		return 0;
	pid = (int32_t)ev.pid;
	ppid = (int32_t)ev.ppid;
	tid = (int32_t)ev.tid;
	ptid = (int32_t)ev.ptid;
	parent = machine__findnew_thread(m, ppid, ptid);
	if (!parent)
		return -ENOMEM;
	child = find_thread(m, tid);
	if (!child) {
		child = thread__new(m, pid, tid);
		if (!child)
			return -ENOMEM;
		if (insert_thread(m, child)) {
			free(child);
			return -ENOMEM;
		}
	} else {
		child = replace_thread(m, child);
		if (!child)
			return -ENOMEM;
		child->pid = pid;
	}
	if (pid == ppid) {		/* a new thread: shares its process's maps */
		child->maps = parent->maps;
		child->maps->refs++;
	} else {
		/* a new process: a copy of the parent's maps, except for FORK records
		 * marked FORK_EXEC (perf writes them for tasks found running at record
		 * start): perf clones nothing there */
		bool fork_exec = ev.misc & MISC_FORK_EXEC;

		child->maps = fork_exec ? maps__new() : maps__clone(parent->maps);
		if (!child->maps)
			return -ENOMEM;
	}
	/* a parent that never had a COMM passes no name on: the child stays ":<tid>" */
	if (parent->comm_set) {
		child->comm = parent->comm;
		child->comm_set = true;
	}
	/* perf's thread__fork: the parent's name, timed at the fork, if it had one */
	if (parent->comm_set && !comm__push(m, child, parent->comm, s ? s->time : 0, false))
		return -ENOMEM;
	return 0;
}

int machine__process_record(struct machine *m, const struct record_ref *ref)
{
	struct sample s;

	switch (ref->type) {
	case REC_MMAP:
	case REC_MMAP2:
	case REC_COMM:
	case REC_FORK:
	case REC_EXIT:
		if (!ref->evsel)
			return 0;
		sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
		return machine__process(m, ref, &s);
	default:
		return 0;
	}
}

int machine__process(struct machine *m, const struct record_ref *ref,
		     const struct sample *s)
{
	struct thread *t;
	bool exec;

	switch (ref->type) {
	case REC_COMM: {
		struct event_comm ev;
		char comm[17];
		size_t n;

		if (event_comm__decode(ref->data, ref->size, &ev))
			return 0;
		n = ev.comm.len < 16 ? ev.comm.len : 16;	/* perf's comm is 16 bytes */
		memcpy(comm, ev.comm.s, n);
		comm[n] = 0;
		t = machine__findnew_thread(m, (int32_t)ev.pid, (int32_t)ev.tid);
		exec = (ev.misc & MISC_COMM_EXEC) != 0;
		if (exec)
			m->comm_exec = true;
		return t ? set_comm(m, t, comm, s ? s->time : 0, exec) : -ENOMEM;
	}
	case REC_FORK:
		return process_fork(m, ref, s);
	case REC_MMAP:
	case REC_MMAP2:
		return process_mmap(m, ref);
	default:
		return 0;
	}
}

/* The first sample in the kernel map loads its symbols; the sample keeps the map, and
 * from then on the map covers the symbols' span (identity mapping: pgoff = start). */
/*
 * The first sample in the kernel map loads the kernel (perf's map__load()): the map
 * moves to the span of its symbols, and the modules mapped by then get their symbols
 * from its kallsyms (perf's dso__split_kallsyms(), through the first map of each
 * module in address order).  -ENOMEM leaves a module unloaded: its lookups then find
 * no symbol.
 */
static void kernel_fixup(struct machine *m, struct map *map)
{
	uint64_t start, end;

	map->kernel_fixup = false;
	if (dso__symbol_span(map->dso, &start, &end)) {
		map->start = map->pgoff = start;
		map->end = end;
	}
	for (size_t i = 0; map->dso->kmods.nr && i < m->kernel_maps.nr; i++) {
		struct map *km = &m->kernel_maps.v[i];

		if (km->dso && km->dso->kind == DSO_KIND_MODULE)
			(void)dso__take_module_symbols(km->dso, map->dso, km->start);
	}
	kernel_maps_changed(m);
}

/* The map's fields an addr_location copies, and ip's address in the map's file. */
static void al_set_map(struct addr_location *al, const struct map *map, uint64_t ip)
{
	al->dso = map->dso;
	al->map_start = map->start;
	al->map_id = map->id;
	al->map_end = map->end;
	al->map_pgoff = map->pgoff;
	al->addr = ip - map->start + map->pgoff;
}

/* The map of ip with cpumode in the kernel's maps or @p user (NULL: none), and al's
 * address and level (perf, host mode: kernel and user samples have maps; every other
 * cpumode - unknown, hypervisor, guest - is level 'H' without a map); the rest of al
 * zeroed. */
static const struct map *map_of(const struct machine *m, const struct maps *user,
				uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	const struct maps *mp;

	memset(al, 0, sizeof(*al));
	al->addr = ip;
	switch (cpumode) {
	case MISC_KERNEL:
		al->level = 'k';
		mp = &m->kernel_maps;
		break;
	case MISC_USER:
		al->level = '.';
		mp = user;
		break;
	default:
		al->level = 'H';
		return NULL;
	}
	return mp ? maps__find(mp, ip) : NULL;
}

void machine__resolve_map(struct machine *m, struct thread *t, uint16_t cpumode,
			  uint64_t ip, struct addr_location *al)
{
	if (t)
		default_comm(m, t);
	al->map = map_of(m, t ? t->maps : NULL, cpumode, ip, al);
	al->thread = t;
	if (!al->map)
		return;
	if (al->map->kernel_fixup)
		kernel_fixup(m, (struct map *)al->map);
	/* perf loads a module's map on its first sample: when that comes before the
	 * kernel's, the module finds no file and keeps no kallsyms symbols */
	else if (al->map->dso && al->map->dso->kind == DSO_KIND_MODULE &&
		 !al->map->dso->loaded)
		(void)dso__load(al->map->dso);
	al_set_map(al, al->map, ip);
}

bool machine__kernel_ready(const struct machine *m)
{
	return m->kernel_final;
}

void machine__resolve_map_at(const struct machine *m, const struct maps *user,
			     uint16_t cpumode, uint64_t ip, struct addr_location *al)
{
	if ((al->map = map_of(m, user, cpumode, ip, al)))
		al_set_map(al, al->map, ip);
}

void maps__resolve_user(const struct maps *mp, uint64_t ip, struct addr_location *al)
{
	if ((al->map = map_of(NULL, mp, MISC_USER, ip, al)))	/* no kernel: no machine */
		al_set_map(al, al->map, ip);
}

/* A context marker's cpumode, or 0 for one perf rejects. */
static uint16_t marker_cpumode(uint64_t ip)
{
	switch (ip) {
	case CONTEXT_HV:
		return MISC_HYPERVISOR;
	case CONTEXT_KERNEL:
		return MISC_KERNEL;
	case CONTEXT_USER:
		return MISC_USER;
	default:
		return 0;
	}
}

/* perf's find_prev_cpumode: the cpumode of the nearest marker before entry `ent`;
 * unchanged when there is none; false for a marker perf rejects. */
static bool prev_cpumode(const struct sample *s, uint64_t ent, uint16_t *cpumode)
{
	while (ent-- > 0) {
		uint64_t ip = sample__callchain_ip(s, ent);

		if (ip >= CONTEXT_MAX) {
			*cpumode = marker_cpumode(ip);
			return *cpumode != 0;
		}
	}
	return true;
}

int machine__callchain_walk(const struct sample *s, bool caller, uint64_t max_stack,
			    callchain_frame_fn frame, void *ctx)
{
	uint64_t nr = s->callchain_nr, kept = 0;
	uint16_t cpumode = MISC_USER;
	int err = 0;

	if (!nr)
		return 0;
	if (caller && !prev_cpumode(s, nr, &cpumode))
		return 1;
	for (uint64_t i = 0; i < nr && kept < max_stack && !err; i++) {
		uint64_t j = caller ? nr - i - 1 : i, ip = sample__callchain_ip(s, j);

		if (ip >= CONTEXT_MAX) {
			bool ok = caller ? prev_cpumode(s, j, &cpumode)
					 : (cpumode = marker_cpumode(ip)) != 0;

			if (!ok)
				return 1;
			continue;
		}
		kept++;
		err = frame(ctx, cpumode, ip);
	}
	return err;
}

/* The unwound user frames in walk order. */
static int walk_unwound(const uint64_t *ips, size_t nr, bool caller,
			callchain_frame_fn frame, void *ctx)
{
	int err = 0;

	for (size_t i = 0; i < nr && !err; i++)
		err = frame(ctx, MISC_USER | CALLCHAIN_UNWOUND, ips[caller ? nr - i - 1 : i]);
	return err;
}

int machine__callchain_walk_unwound(const struct sample *s, bool caller,
				    uint64_t max_stack, const uint64_t *user_ips,
				    size_t nr_user, callchain_frame_fn frame, void *ctx)
{
	int err;

	if (caller) {
		err = walk_unwound(user_ips, nr_user, true, frame, ctx);
		return err ? err : machine__callchain_walk(s, true, max_stack, frame, ctx);
	}
	err = machine__callchain_walk(s, false, max_stack, frame, ctx);
	return err ? err : walk_unwound(user_ips, nr_user, false, frame, ctx);
}

void addr_location__resolve_sym(struct addr_location *al)
{
	if (!al->dso)
		return;
	al->sym = dso__find_symbol(al->dso, al->addr);
	if (al->sym)
		al->sym_unmapped_start = al->map_start + al->sym->start - al->map_pgoff;
}

bool addr_location__resolve_sym_loaded(struct addr_location *al)
{
	if (al->dso && !al->dso->loaded)
		return false;
	addr_location__resolve_sym(al);
	return true;
}

void machine__resolve(struct machine *m, struct thread *t, uint16_t cpumode, uint64_t ip,
		      struct addr_location *al)
{
	machine__resolve_map(m, t, cpumode, ip, al);
	addr_location__resolve_sym(al);
}

struct thread *machine__find_thread(struct machine *m, int32_t pid, int32_t tid)
{
	struct thread *t = find_thread(m, tid);

	if (t && t->pid == -1 && pid != -1)
		t->pid = pid;
	return t;
}

const char *machine__sample_comm(struct machine *m, struct thread *t)
{
	return default_comm(m, t) ? NULL : t->comm;
}

struct comm *machine__thread_comm(struct machine *m, struct thread *t)
{
	if (t->comms)
		return t->comms;
	if (default_comm(m, t))
		return NULL;
	return comm__push(m, t, t->comm, 0, false);
}

struct comm *machine__thread_exec_comm(struct machine *m, struct thread *t)
{
	struct comm *c, *last = NULL, *second_last = NULL;

	if (!machine__thread_comm(m, t))
		return NULL;
	if (!m->comm_exec)
		return t->comms;
	for (c = t->comms; c; c = c->older) {
		if (c->exec)
			return c;
		second_last = last;
		last = c;
	}
	/* an oldest comm without a time may be the parent's name of a synthesized
	 * thread; for a main thread perf prefers the next one */
	if (second_last && !last->start && t->pid == t->tid)
		return second_last;
	return last;
}

bool machine__comm_exec(const struct machine *m)
{
	return m->comm_exec;
}

void machine__set_comm_exec(struct machine *m)
{
	m->comm_exec = true;
}

size_t machine__threads(const struct machine *m, struct thread **out, size_t cap)
{
	size_t n = 0;

	for (size_t i = 0; i < m->threads_cap; i++) {
		if (!m->threads[i])
			continue;
		if (n < cap)
			out[n] = m->threads[i];
		n++;
	}
	return n;
}

int machine__new_opts(struct machine **out, const struct dsos_opts *opts)
{
	struct machine *m = calloc(1, sizeof(*m));
	int err;

	*out = NULL;
	if (!m)
		return -ENOMEM;
	err = dsos__new(&m->dsos, opts);
	if (err) {
		free(m);
		return err;
	}
	m->kernel_maps.refs = 1;
	m->kernel_final = true;	/* no kernel map */
	*out = m;
	return 0;
}
