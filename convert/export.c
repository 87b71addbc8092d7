/*
 * export - perf 6.1's database export rows (see export.h for the rules reproduced).
 */
#include "convert/export.h"

#include <errno.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

#include "format/attr.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/srcline.h"
#include "machine/unwind.h"
#include "resolve/pipeline.h"
#include "machine/symbol.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/strtab.h"
#include "banned.h"

/* perf resolves at most this many callchain addresses (PERF_MAX_STACK_DEPTH). */
#define EXPORT_MAX_STACK 127
/* A sample's callchain entries at most: the recorded chain, then as many unwound
 * user frames (perf limits both parts alike) */
#define CHAIN_SAMPLE_MAX (2 * EXPORT_MAX_STACK)

/* Software event configs whose ADDR is a data address perf resolves (page faults). */
enum { SW_PAGE_FAULTS = 2, SW_PAGE_FAULTS_MIN = 5, SW_PAGE_FAULTS_MAJ = 6 };
/* Hardware branch instructions: with period 1 perf treats the event as BTS. */
enum { HW_BRANCH_INSTRUCTIONS = 4 };

/* The branch_types table of perf 6.1's export (ids are perf's branch flags). */
static const struct {
	int id;
	const char *name;
} branch_types[] = {
	{ 0, "no branch" }, { 1, "unconditional jump" }, { 3, "call" },
	{ 5, "return" }, { 9, "conditional jump" }, { 19, "system call" },
	{ 21, "return from system call" }, { 33, "asynchronous branch" },
	{ 67, "software interrupt" }, { 69, "return from interrupt" },
	{ 99, "hardware interrupt" }, { 129, "transaction abort" },
	{ 256, "trace begin / no branch" }, { 257, "trace begin" },
	{ 259, "trace begin / call" }, { 261, "trace begin / return" },
	{ 265, "trace begin / conditional jump" }, { 275, "trace begin / system call" },
	{ 277, "trace begin / return from system call" },
	{ 289, "trace begin / asynchronous branch" },
	{ 323, "trace begin / software interrupt" },
	{ 325, "trace begin / return from interrupt" },
	{ 355, "trace begin / hardware interrupt" },
	{ 385, "trace begin / transaction abort" },
	{ 512, "no branch / trace end" }, { 513, "trace end" },
	{ 515, "call / trace end" }, { 517, "return / trace end" },
	{ 521, "conditional jump / trace end" }, { 531, "system call / trace end" },
	{ 533, "return from system call / trace end" },
	{ 545, "asynchronous branch / trace end" },
	{ 579, "software interrupt / trace end" },
	{ 581, "return from interrupt / trace end" },
	{ 611, "hardware interrupt / trace end" },
	{ 641, "transaction abort / trace end" },
	{ 2051, "vm entry" }, { 2307, "trace begin / vm entry" },
	{ 2563, "vm entry / trace end" }, { 4099, "vm exit" },
	{ 4355, "trace begin / vm exit" }, { 4611, "vm exit / trace end" },
};

/* Open-addressing map from a 3 x u64 key to an id (id 0 = empty slot). */
struct idmap {
	struct idmap_slot {
		uint64_t k[3];
		uint64_t id;
	} *v;
	size_t cap, nr;
};

static uint64_t idmap_hash(const uint64_t k[3])
{
	uint64_t h = k[0] * 0x9E3779B97F4A7C15ULL;

	h = (h ^ (h >> 29) ^ k[1]) * 0xBF58476D1CE4E5B9ULL;
	h = (h ^ (h >> 31) ^ k[2]) * 0x94D049BB133111EBULL;
	return h ^ (h >> 32);
}

static uint64_t idmap__get(const struct idmap *m, uint64_t k0, uint64_t k1, uint64_t k2)
{
	const uint64_t k[3] = { k0, k1, k2 };
	size_t i;

	if (!m->cap)
		return 0;
	for (i = hashtab__first(idmap_hash(k), m->cap); m->v[i].id;
	     i = hashtab__next(i, m->cap))
		if (m->v[i].k[0] == k0 && m->v[i].k[1] == k1 && m->v[i].k[2] == k2)
			return m->v[i].id;
	return 0;
}

static uint64_t idmap_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return idmap_hash(((const struct idmap_slot *)slot)->k);
}

static int idmap__put(struct idmap *m, uint64_t k0, uint64_t k1, uint64_t k2, uint64_t id)
{
	const uint64_t k[3] = { k0, k1, k2 };
	size_t i;

	if (hashtab__reserve(&m->v, &m->cap, m->nr, sizeof(*m->v), 1024, idmap_slot_hash,
			     NULL))
		return -ENOMEM;
	for (i = hashtab__first(idmap_hash(k), m->cap); m->v[i].id;
	     i = hashtab__next(i, m->cap))
		;
	m->v[i] = (struct idmap_slot){ { k0, k1, k2 }, id };
	m->nr++;
	return 0;
}

static void idmap__exit(struct idmap *m)
{
	free(m->v);
	memset(m, 0, sizeof(*m));
}

/* Build-id text of an exported dso, kept until the exporter is deleted. */
struct bid_text {
	struct bid_text *next;
	char hex[2 * DSO_BUILD_ID_MAX + 1];
};

#define SYM_CACHE 1024		/* entries of the symbol id cache (power of 2) */

/* An address as a worker resolved it (pipeline__resolve()): the map's dso and the
 * map-relative address, the real symbols found there.  Which "unknown" perf had
 * inserted at the address is known only in order (emit()). */
struct wloc {
	struct dso *dso;		/* NULL: no map */
	const struct symbol *sym;	/* at addr, or NULL */
	const struct symbol *sym_ip;	/* a callchain entry without sym: the symbol
					 * at its raw address (perf's second lookup) */
	const char *inl;		/* an unwound callchain entry: its inlined
					 * functions (srclines__inlines(), owned by
					 * the worker's srclines), else NULL */
	uint64_t addr;			/* map-relative address */
	uint64_t ip;			/* the address as recorded */
};

/* A sample as a worker resolved it: the row's values, its locations; emit() gives
 * it its sample id and the ids of what it refers to, in order. */
struct wsample {
	uint64_t ip, time, addr, period, weight, transaction, data_src;
	uint32_t evsel_id, thread_id, comm_id;	/* given in prepare(), in order */
	int32_t cpu;
	size_t chain_first, chain_nr;	/* entries in the chunk's frames, root first */
	struct wloc loc;		/* the sample's address */
	struct wloc to;			/* has_to: its ADDR */
	bool has_chain;			/* callchains are exported for this sample */
	bool has_to;			/* ADDR is resolved (page faults) */
};

/* What one job of the pipeline writes: its samples and their callchain entries. */
struct export_chunk {
	struct wsample *samples;
	size_t nr, cap;
	struct wloc *frames;
	size_t nr_frames, cap_frames;
};

/* A worker's own state: --call-graph dwarf's unwinder and inline lookups. */
struct export_worker {
	struct unwinder *uw;		/* owned, NULL without user stacks */
	struct srclines *inl;		/* owned with uw */
	uint64_t user_ips[EXPORT_MAX_STACK];	/* one sample's unwound frames */
};

struct exporter {
	struct machine *machine;	/* borrowed */
	struct evlist *evlist;		/* borrowed */
	unsigned flags;
	struct export_sink sink;
	uint64_t *evsel_ids;		/* owned, per evsel index; 0 = not exported */
	struct db_ids { uint64_t *v; size_t nr, cap; }	/* owned: the machine's */
		thread_ids, comm_ids;	/* thread / comm ids -> row ids; 0 = not yet */
	uint64_t machine_id;		/* 0 until the host machine is exported */
	uint64_t last[EXPORT__NR_TABLES];	/* last id given, per table */
	struct idmap dsos;		/* dso pointer -> id */
	struct idmap syms;		/* symbol pointer -> id */
	struct {			/* direct-mapped cache in front of syms */
		const struct symbol *sym;
		uint64_t id;
	} sym_cache[SYM_CACHE];
	const struct dso *last_dso;	/* cache in front of dsos */
	uint64_t last_dso_id;
	struct idmap unknown;		/* (dso pointer, addr) -> id of "unknown" */
	struct idmap paths;		/* (parent id, symbol id, ip) -> call path id */
	uint64_t root_path_id;		/* 0 until the call path root is exported */
	bool unwind;			/* --call-graph dwarf stacks: each worker has
					 * an unwinder (exporter__unwind()) */
	const char *arch;		/* borrowed: the recording's, for them */
	struct unwinder *uw_first;	/* the first worker's (the others share its
					 * files); owned by that worker */
	struct idmap inl_syms;		/* (dso, address, level) -> symbol id of an
					 * inlined function (perf's objects per
					 * inline node) */
	struct strtab inl_names;	/* their names (rows keep pointers to them) */
	struct bid_text *bids;		/* owned list */
	struct export_stats stats;
	struct pipeline *pipe;		/* owned: resolves the samples (exporter__begin()) */
};

/* What an address resolved to, as perf's db export sees it. */
struct xloc {
	struct dso *dso;		/* the map's dso; NULL: no map */
	const struct symbol *sym;	/* a real symbol, or NULL */
	uint64_t addr;			/* map-relative address (perf's al->addr) */
	uint64_t sym_id;		/* id of sym or of an "unknown"; 0 = none */
	uint64_t sym_start;		/* start of that symbol */
};

static int emit(struct exporter *e, struct export_row *r)
{
	e->stats.rows[r->table]++;
	return e->sink.row(e->sink.ctx, r);
}

static int emit_ints(struct exporter *e, enum export_table t, const char *t0,
		     const char *t1, const char *t2, size_t n, const int64_t *v)
{
	struct export_row r;

	memset(&r, 0, sizeof(r));	/* unused columns are 0, never stack garbage */
	r.table = t;
	r.text[0] = t0;
	r.text[1] = t1;
	r.text[2] = t2;
	memcpy(r.v, v, n * sizeof(*v));
	return emit(e, &r);
}

int exporter__new(struct exporter **out, struct machine *m, struct evlist *el,
		  unsigned flags, const struct export_sink *sink)
{
	struct exporter *e = calloc(1, sizeof(*e));

	*out = NULL;
	if (!e)
		return -ENOMEM;
	e->evsel_ids = calloc(el->nr ? el->nr : 1, sizeof(*e->evsel_ids));
	if (!e->evsel_ids) {
		free(e);
		return -ENOMEM;
	}
	e->machine = m;
	e->evlist = el;
	e->flags = flags;
	e->sink = *sink;
	/* perf tells exec comms apart when any event has comm_exec */
	for (size_t i = 0; i < el->nr; i++)
		if (attr__flag(&el->evsels[i]->attr, ATTR_COMM_EXEC))
			machine__set_comm_exec(m);
	*out = e;
	return 0;
}

void exporter__delete(struct exporter *e)
{
	struct bid_text *b, *next;

	if (!e)
		return;
	pipeline__delete(e->pipe);	/* the workers' states first */
	for (b = e->bids; b; b = next) {
		next = b->next;
		free(b);
	}
	idmap__exit(&e->dsos);
	idmap__exit(&e->syms);
	idmap__exit(&e->unknown);
	idmap__exit(&e->paths);
	idmap__exit(&e->inl_syms);
	strtab__exit(&e->inl_names);
	free(e->evsel_ids);
	free(e->thread_ids.v);
	free(e->comm_ids.v);
	free(e);
}

int exporter__unwind(struct exporter *e, const char *arch)
{
	e->unwind = unwind__wanted(e->evlist);
	e->arch = arch;
	return 0;
}

static const struct pipeline_sink export_sink;

int exporter__begin(struct exporter *e, struct workqueue *wq)
{
	static const int64_t zero[ES__NR_COLS];
	const int64_t thread0[] = { 0, 0, 0, -1, -1 };
	int err;

	/* id 0 means unknown in every table: perf writes placeholder rows */
	if ((err = emit_ints(e, EXPORT_EVSEL, "unknown", NULL, NULL, 1, zero)) ||
	    (err = emit_ints(e, EXPORT_MACHINE, "unknown", NULL, NULL, 2, zero)) ||
	    (err = emit_ints(e, EXPORT_THREAD, NULL, NULL, NULL, 5, thread0)) ||
	    (err = emit_ints(e, EXPORT_COMM, "unknown", NULL, NULL, 4, zero)) ||
	    (err = emit_ints(e, EXPORT_DSO, "unknown", "unknown", "", 2, zero)) ||
	    (err = emit_ints(e, EXPORT_SYMBOL, "unknown", NULL, NULL, 5, zero)) ||
	    (err = emit_ints(e, EXPORT_SAMPLE, NULL, NULL, NULL, ES__NR_COLS, zero)))
		return err;
	if (e->flags & EXPORT_CALLCHAINS &&
	    (err = emit_ints(e, EXPORT_CALL_PATH, NULL, NULL, NULL, 4, zero)))
		return err;
	for (size_t i = 0; i < sizeof(branch_types) / sizeof(branch_types[0]); i++) {
		const int64_t id = branch_types[i].id;

		err = emit_ints(e, EXPORT_BRANCH_TYPE, branch_types[i].name, NULL, NULL, 1, &id);
		if (err)
			return err;
	}
	return pipeline__new(&e->pipe, e->machine, wq, &export_sink, e);
}

/* ---- machine, events, threads, comms ------------------------------------------- */

static int export_machine(struct exporter *e)
{
	const int64_t v[] = { 1, -1 };	/* the host: perf's HOST_KERNEL_ID pid */

	if (e->machine_id)
		return 0;
	e->machine_id = 1;
	e->last[EXPORT_MACHINE] = 1;
	return emit_ints(e, EXPORT_MACHINE, "", NULL, NULL, 2, v);
}

static int export_evsel(struct exporter *e, const struct evsel *ev, uint64_t *id)
{
	int64_t v;

	if (!e->evsel_ids[ev->idx]) {
		e->evsel_ids[ev->idx] = ++e->last[EXPORT_EVSEL];
		v = (int64_t)e->evsel_ids[ev->idx];
		int err = emit_ints(e, EXPORT_EVSEL, evsel__name(ev), NULL, NULL, 1, &v);

		if (err)
			return err;
	}
	*id = e->evsel_ids[ev->idx];
	return 0;
}

/* The row id of the machine's thread or comm `id` (0: not exported yet). */
static uint64_t db_id(const struct db_ids *d, uint32_t id)
{
	return id < d->nr ? d->v[id] : 0;
}

/* Give machine id `id` its row id; -ENOMEM. */
static int db_id_set(struct db_ids *d, uint32_t id, uint64_t row)
{
	if (array__grow(&d->v, &d->cap, (size_t)id + 1, sizeof(*d->v), 1024))
		return -ENOMEM;
	while (d->nr <= id)
		d->v[d->nr++] = 0;
	d->v[id] = row;
	return 0;
}

static int export_thread(struct exporter *e, const struct thread *t,
			 const struct thread *main)
{
	uint64_t row;

	if (db_id(&e->thread_ids, t->id))
		return 0;
	row = ++e->last[EXPORT_THREAD];
	if (db_id_set(&e->thread_ids, t->id, row))
		return -ENOMEM;
	const int64_t v[] = { (int64_t)row, (int64_t)e->machine_id,
			      main ? (int64_t)db_id(&e->thread_ids, main->id) : 0, t->pid,
			      t->tid };
	return emit_ints(e, EXPORT_THREAD, NULL, NULL, NULL, 5, v);
}

static int export_comm_thread(struct exporter *e, const struct comm *c,
			      const struct thread *t)
{
	const int64_t v[] = { (int64_t)++e->last[EXPORT_COMM_THREAD],
			      (int64_t)db_id(&e->comm_ids, c->id),
			      (int64_t)db_id(&e->thread_ids, t->id) };

	return emit_ints(e, EXPORT_COMM_THREAD, NULL, NULL, NULL, 3, v);
}

/* A comm not exported yet: its row, timed, with the thread that had it.  *added
 * tells whether it was new. */
static int export_comm(struct exporter *e, const struct comm *c, const struct thread *t,
		       bool *added)
{
	uint64_t row;

	*added = !db_id(&e->comm_ids, c->id);
	if (!*added)
		return 0;
	row = ++e->last[EXPORT_COMM];
	if (db_id_set(&e->comm_ids, c->id, row))
		return -ENOMEM;
	const int64_t v[] = { (int64_t)row, (int64_t)db_id(&e->thread_ids, t->id),
			      (int64_t)c->start, c->exec };
	return emit_ints(e, EXPORT_COMM, c->str, NULL, NULL, 4, v);
}

/* perf's db_export__threads; *comm_id receives the main thread's exec comm. */
static int export_threads(struct exporter *e, struct thread *t, uint64_t *comm_id)
{
	struct thread *main;
	struct comm *comm = NULL, *cur;
	bool added;
	int err;

	*comm_id = 0;
	if (t->pid == t->tid)
		main = t;
	else if (t->pid == -1)
		main = NULL;
	else
		main = machine__find_thread(e->machine, t->pid, t->pid);
	if (main) {
		if ((err = export_thread(e, main, main)))
			return err;
		comm = machine__thread_exec_comm(e->machine, main);
		if (!comm)
			return -ENOMEM;
		/* an exec comm has one main thread: linked when first exported */
		if ((err = export_comm(e, comm, main, &added)) ||
		    (added && (err = export_comm_thread(e, comm, main))))
			return err;
		*comm_id = db_id(&e->comm_ids, comm->id);
	}
	if (t != main) {
		bool link = comm && !db_id(&e->thread_ids, t->id);

		if ((err = export_thread(e, t, main)))
			return err;
		if (link && (err = export_comm_thread(e, comm, t)))
			return err;
	}
	/* the current comm gets a row but no comm_threads link */
	cur = machine__thread_comm(e->machine, t);
	if (!cur)
		return -ENOMEM;
	return export_comm(e, cur, t, &added);
}

/* ---- dsos and symbols ------------------------------------------------------------ */

static int export_dso(struct exporter *e, const struct dso *dso, uint64_t *id)
{
	struct bid_text *b;
	int err;

	if (dso == e->last_dso) {
		*id = e->last_dso_id;
		return 0;
	}
	*id = idmap__get(&e->dsos, (uintptr_t)dso, 0, 0);
	if (*id) {
		e->last_dso = dso;
		e->last_dso_id = *id;
		return 0;
	}
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	b->next = e->bids;
	e->bids = b;
	if (dso->has_build_id) {
		static const char digits[] = "0123456789abcdef";

		for (size_t i = 0; i < dso->build_id_size; i++) {
			b->hex[2 * i] = digits[dso->build_id[i] >> 4];
			b->hex[2 * i + 1] = digits[dso->build_id[i] & 15];
		}
	}
	*id = ++e->last[EXPORT_DSO];
	if ((err = idmap__put(&e->dsos, (uintptr_t)dso, 0, 0, *id)))
		return err;
	const int64_t v[] = { (int64_t)*id, (int64_t)e->machine_id };
	return emit_ints(e, EXPORT_DSO, dso__short_name(dso), dso__long_name(dso), b->hex,
			 2, v);
}

static int export_symbol(struct exporter *e, const struct symbol *sym, uint64_t dso_id,
			 uint64_t *id)
{
	size_t slot = ((uintptr_t)sym >> 4) & (SYM_CACHE - 1);
	int err;

	if (e->sym_cache[slot].sym == sym) {
		*id = e->sym_cache[slot].id;
		return 0;
	}
	*id = idmap__get(&e->syms, (uintptr_t)sym, 0, 0);
	if (!*id) {
		*id = ++e->last[EXPORT_SYMBOL];
		if ((err = idmap__put(&e->syms, (uintptr_t)sym, 0, 0, *id)))
			return err;
		const int64_t v[] = { (int64_t)*id, (int64_t)dso_id, (int64_t)sym->start,
				      (int64_t)sym->end, sym->binding };
		if ((err = emit_ints(e, EXPORT_SYMBOL, symbol__name(sym), NULL, NULL, 5, v)))
			return err;
	}
	e->sym_cache[slot].sym = sym;
	e->sym_cache[slot].id = *id;
	return 0;
}

/* The "unknown" symbol perf inserted at addr of dso, if any: its id, else 0. */
static uint64_t unknown_at(const struct exporter *e, const struct dso *dso, uint64_t addr)
{
	return idmap__get(&e->unknown, (uintptr_t)dso, addr, 0);
}

/*
 * perf's db_ids_from_al: export the dso and the symbol of a location, creating the
 * zero-size "unknown" symbol at loc->addr when the map has none there.
 */
static int export_location(struct exporter *e, struct xloc *loc, int64_t *dso_id,
			   int64_t *sym_id, int64_t *offset)
{
	uint64_t did, sid;
	int err;

	*dso_id = *sym_id = *offset = 0;
	if (!loc->dso)
		return 0;
	if ((err = export_dso(e, loc->dso, &did)))
		return err;
	*dso_id = (int64_t)did;
	if (loc->sym) {
		if ((err = export_symbol(e, loc->sym, did, &sid)))
			return err;
		loc->sym_start = loc->sym->start;
	} else if ((sid = loc->sym_id)) {
		loc->sym_start = loc->addr;	/* an "unknown" matches its start only */
	} else {
		sid = ++e->last[EXPORT_SYMBOL];
		err = idmap__put(&e->unknown, (uintptr_t)loc->dso, loc->addr, 0, sid);
		if (err)
			return err;
		loc->sym_start = loc->addr;
		const int64_t v[] = { (int64_t)sid, (int64_t)did, (int64_t)loc->addr,
				      (int64_t)loc->addr, 0 };
		if ((err = emit_ints(e, EXPORT_SYMBOL, "unknown", NULL, NULL, 5, v)))
			return err;
	}
	loc->sym_id = sid;
	*sym_id = (int64_t)sid;
	*offset = (int64_t)(loc->addr - loc->sym_start);
	return 0;
}

/*
 * ---- Workers and order ----------------------------------------------------------
 *
 * A sample goes through the sample pipeline (resolve/pipeline.h).  In order, on the
 * replaying thread (prepare()): its event, machine, threads and comms get their ids
 * and rows, as they are at the sample.  On any worker (sample()): its address, its
 * callchain (unwound user stack and inlined functions included) and its ADDR are
 * resolved to dsos, map-relative addresses and symbols.  In order again (emit()):
 * the "unknown" symbols perf inserted are looked up and made, and the dsos, symbols
 * and call paths get their ids and rows, then the sample its row.  Ids thus come out
 * as in one pass, at every -j.
 */

/* One address on a worker: its map, dso and the real symbol there (perf's
 * thread__find_symbol()); only host kernel and user addresses have maps (perf_guest
 * is off).  @return 0 or PIPELINE_AGAIN. */
static int resolve_loc(struct pipeline_thread *pt, const struct resolved_sample *rs,
		       uint16_t cpumode, uint64_t ip, struct wloc *l)
{
	struct addr_location al;
	int err;

	memset(l, 0, sizeof(*l));
	l->ip = ip;
	if (cpumode != MISC_KERNEL && cpumode != MISC_USER)
		return 0;
	if ((err = pipeline__resolve(pt, rs, cpumode, ip, &al)))
		return err;
	if (al.dso) {
		l->dso = al.dso;
		l->addr = al.addr;
		l->sym = al.sym;
	}
	return 0;
}

/* In order: perf's map__find_symbol at a worker's location, where the symbol may be
 * an "unknown" perf inserted at exactly that map-relative address. */
static void finish_loc(struct exporter *e, const struct wloc *w, struct xloc *loc)
{
	memset(loc, 0, sizeof(*loc));
	loc->dso = w->dso;
	loc->addr = w->addr;
	if (!loc->dso)
		return;
	loc->sym = w->sym;
	if (!loc->sym)
		loc->sym_id = unknown_at(e, loc->dso, loc->addr);
}

/* ---- callchains ---------------------------------------------------------------- */

static int call_path(struct exporter *e, uint64_t parent, uint64_t sym_id, uint64_t ip,
		     uint64_t *id)
{
	int err;

	if (sym_id)
		ip = 0;		/* perf keeps the address only for unresolved entries */
	*id = idmap__get(&e->paths, parent, sym_id, ip);
	if (*id)
		return 0;
	*id = ++e->last[EXPORT_CALL_PATH];
	if ((err = idmap__put(&e->paths, parent, sym_id, ip, *id)))
		return err;
	const int64_t v[] = { (int64_t)*id, (int64_t)parent, (int64_t)sym_id, (int64_t)ip };
	return emit_ints(e, EXPORT_CALL_PATH, NULL, NULL, NULL, 4, v);
}

/* One resolved callchain entry, exported and appended below *cur.  An entry in a map
 * without a symbol is looked up again with its raw address (@p sym_ip: what the
 * worker found there), and exported with the raw address (so an "unknown" symbol is
 * created there), as perf does. */
static int chain_entry(struct exporter *e, struct xloc *loc, uint64_t ip,
		       const struct symbol *sym_ip, uint64_t *cur)
{
	int64_t did, sid, off;
	int err;

	if (loc->dso && !loc->sym && !loc->sym_id) {
		loc->sym = sym_ip;
		if (!loc->sym)
			loc->sym_id = unknown_at(e, loc->dso, ip);
	}
	loc->addr = ip;
	if ((err = export_location(e, loc, &did, &sid, &off)))
		return err;
	if (!e->root_path_id) {
		/* the root is exported with the first path; perf gives it no parent */
		if ((err = call_path(e, 0, 0, 0, &e->root_path_id)))
			return err;
		*cur = e->root_path_id;
	}
	return call_path(e, *cur, (uint64_t)sid, ip, cur);
}

/*
 * perf's append_inlines() for an unwound entry: one entry per function addr2line -i
 * names at its address, root first here (perf's ORDER_CALLER list), each with the
 * frame's symbol when the name is its own, else an inlined function's symbol: perf
 * makes one per (dso, address, level), exported under its name over the frame
 * symbol's range.  The frame's symbol may be the "unknown" an earlier row inserted
 * at the address (perf's dso__insert_symbol()), found like a real one.
 */
static int inline_entries(struct exporter *e, const struct xloc *frame, uint64_t ip,
			  const struct symbol *sym_ip, const char *text, uint64_t *cur)
{
	struct inline_record rec[INLINE_RECORDS_MAX];
	size_t n = srclines__inline_records(text, rec, INLINE_RECORDS_MAX);
	int err = 0;

	for (size_t m = n; m-- > 0 && !err;) {
		struct xloc loc = *frame;
		const struct symbol *base = frame->sym;
		/* an inserted "unknown" is a zero-size local symbol at the address */
		uint64_t start = base ? base->start : frame->addr;
		uint64_t end = base ? base->end : frame->addr;
		int binding = base ? base->binding : 0;
		uint64_t did, sid;
		char name[1024];

		snprintf(name, sizeof(name), "%.*s", (int)rec[m].name_len, rec[m].name);
		if (!strcmp(name, base ? symbol__name(base) : "unknown")) {
			err = chain_entry(e, &loc, ip, sym_ip, cur);
			continue;
		}
		if ((err = export_dso(e, frame->dso, &did)))
			break;
		sid = idmap__get(&e->inl_syms, (uintptr_t)frame->dso, frame->addr, m + 1);
		if (!sid) {
			const char *kept = strtab__intern(&e->inl_names, name);

			if (!kept) {
				err = -ENOMEM;
				break;
			}
			sid = ++e->last[EXPORT_SYMBOL];
			if ((err = idmap__put(&e->inl_syms, (uintptr_t)frame->dso, frame->addr,
					      m + 1, sid)))
				break;
			const int64_t v[] = { (int64_t)sid, (int64_t)did, (int64_t)start,
					      (int64_t)end, binding };
			if ((err = emit_ints(e, EXPORT_SYMBOL, kept, NULL, NULL, 5, v)))
				break;
		}
		if (!e->root_path_id) {	/* as chain_entry() */
			if ((err = call_path(e, 0, 0, 0, &e->root_path_id)))
				break;
			*cur = e->root_path_id;
		}
		err = call_path(e, *cur, sid, ip, cur);
	}
	return err;
}

/* A worker's walk of one callchain: its entries appended to the chunk's frames. */
struct chain_walk {
	struct export_worker *w;
	struct export_chunk *c;
	struct pipeline_thread *pt;
	const struct resolved_sample *rs;
};

static int chain_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct chain_walk *k = ctx;
	struct export_chunk *c = k->c;
	struct wloc *l;
	int err;

	if (array__grow(&c->frames, &c->cap_frames, c->nr_frames + 1, sizeof(*c->frames),
			1024))
		return -ENOMEM;
	l = &c->frames[c->nr_frames];
	if ((err = resolve_loc(k->pt, k->rs, cpumode & ~CALLCHAIN_UNWOUND, ip, l)))
		return err;
	if (l->dso && !l->sym)	/* chain_entry()'s second lookup */
		l->sym_ip = dso__find_symbol(l->dso, ip);
	/* an unwound frame: its inlined functions (perf's append_inlines()), used
	 * where the frame has a symbol, perhaps an "unknown" (known in order only) */
	if ((cpumode & CALLCHAIN_UNWOUND) && l->dso && k->w->inl &&
	    !(l->inl = srclines__inlines(k->w->inl, l->dso, l->addr)))
		return -ENOMEM;
	c->nr_frames++;
	return 0;
}

/* The callchain on a worker: its addresses root first (perf's ORDER_CALLER walk,
 * machine__callchain_walk, at most EXPORT_MAX_STACK from the root end), with the
 * unwound user stack; none when perf would discard the chain.
 * @return 0, PIPELINE_AGAIN or -ENOMEM (the chunk's frames as they were then). */
static int resolve_chain(struct export_worker *w, struct export_chunk *c,
			 struct pipeline_thread *pt, const struct resolved_sample *rs,
			 struct wsample *ws)
{
	struct chain_walk k = { w, c, pt, rs };
	size_t nr_user = 0;
	int err;

	ws->chain_first = c->nr_frames;
	/* perf's thread__resolve_callchain(): the unwound user stack too (out of
	 * memory there unwinds nothing) */
	if (w->uw && unwinder__unwind(w->uw, &rs->maps, &rs->s, w->user_ips,
				      EXPORT_MAX_STACK, &nr_user))
		nr_user = 0;
	err = machine__callchain_walk_unwound(&rs->s, true, EXPORT_MAX_STACK, w->user_ips,
					      nr_user, chain_frame, &k);
	/* 1: perf discards it all; an error leaves the frames as they were */
	if (err)
		c->nr_frames = ws->chain_first;
	if (err == 1)
		err = 0;
	ws->chain_nr = c->nr_frames - ws->chain_first;
	return err;
}

/* In order: every entry's symbol first (perf resolved the whole chain before
 * exporting it), then the path; *id = 0 when it is empty. */
static int export_callchain(struct exporter *e, const struct export_chunk *c,
			    const struct wsample *ws, uint64_t *id)
{
	struct xloc loc[CHAIN_SAMPLE_MAX];
	const struct wloc *wl = c->frames + ws->chain_first;
	uint64_t cur = e->root_path_id;
	int err;

	*id = 0;
	for (size_t i = 0; i < ws->chain_nr; i++)
		finish_loc(e, &wl[i], &loc[i]);
	for (size_t i = 0; i < ws->chain_nr; i++) {
		/* the frame's symbol may be an "unknown" an earlier row inserted */
		if (wl[i].inl && *wl[i].inl && loc[i].dso && (loc[i].sym || loc[i].sym_id))
			err = inline_entries(e, &loc[i], wl[i].ip, wl[i].sym_ip, wl[i].inl,
					     &cur);
		else
			err = chain_entry(e, &loc[i], wl[i].ip, wl[i].sym_ip, &cur);
		if (err)
			return err;
	}
	*id = ws->chain_nr ? cur : 0;
	return 0;
}

/* ---- samples --------------------------------------------------------------------- */

/* perf's sample_addr_correlates_sym: ADDR is a data address worth resolving. */
static bool addr_correlates_sym(const struct event_attr *a)
{
	if (!(a->sample_type & SAMPLE_ADDR))
		return false;
	if (a->type == ATTR_TYPE_SOFTWARE &&
	    (a->config == SW_PAGE_FAULTS || a->config == SW_PAGE_FAULTS_MIN ||
	     a->config == SW_PAGE_FAULTS_MAJ))
		return true;
	return a->type == ATTR_TYPE_HARDWARE && (a->config & HW_BRANCH_INSTRUCTIONS) &&
	       a->sample_period == 1;
}

/* In order: a sample's symbols, dso/symbol/call path ids, its row. */
static int finish_sample(struct exporter *e, const struct export_chunk *c,
			 const struct wsample *ws)
{
	struct export_row r = { .table = EXPORT_SAMPLE };
	int64_t *v = r.v;
	struct xloc loc;
	uint64_t id;
	int err;

	v[ES_ID] = (int64_t)++e->last[EXPORT_SAMPLE];
	v[ES_EVSEL_ID] = (int64_t)ws->evsel_id;
	v[ES_MACHINE_ID] = (int64_t)e->machine_id;
	v[ES_THREAD_ID] = (int64_t)ws->thread_id;
	v[ES_COMM_ID] = (int64_t)ws->comm_id;
	finish_loc(e, &ws->loc, &loc);
	err = export_location(e, &loc, &v[ES_DSO_ID], &v[ES_SYMBOL_ID], &v[ES_SYM_OFFSET]);
	if (err)
		return err;
	if (ws->has_chain) {
		if ((err = export_callchain(e, c, ws, &id)))
			return err;
		v[ES_CALL_PATH_ID] = (int64_t)id;
	}
	if (ws->has_to) {
		finish_loc(e, &ws->to, &loc);
		err = export_location(e, &loc, &v[ES_TO_DSO_ID], &v[ES_TO_SYMBOL_ID],
				      &v[ES_TO_SYM_OFFSET]);
		if (err)
			return err;
	}
	v[ES_IP] = (int64_t)ws->ip;
	v[ES_TIME] = (int64_t)ws->time;
	v[ES_CPU] = ws->cpu;
	v[ES_TO_IP] = (int64_t)ws->addr;
	v[ES_PERIOD] = (int64_t)ws->period;
	v[ES_WEIGHT] = (int64_t)ws->weight;
	v[ES_TRANSACTION] = (int64_t)ws->transaction;
	v[ES_DATA_SRC] = (int64_t)ws->data_src;
	e->stats.samples++;
	return emit(e, &r);
}

/* A row the sink refused: its error as a negative number (the pipeline stops on
 * those; a positive one would read as PIPELINE_DROP or PIPELINE_AGAIN). */
static int sink_err(int err)
{
	return err > 0 ? -EIO : err;
}

/* pipeline sink: select() - the samples perf's export leaves out */
static bool sink_select(void *ctx, const struct record_ref *ref, const struct sample *s)
{
	struct exporter *e = ctx;
	uint16_t cpumode = s->misc & MISC_CPUMODE_MASK;

	if (ref->evsel->attr.type == ATTR_TYPE_TRACEPOINT && !(e->flags & EXPORT_ALL_EVENTS)) {
		e->stats.skipped_tracepoint++;
		return false;
	}
	if (cpumode == MISC_GUEST_KERNEL || cpumode == MISC_GUEST_USER) {
		e->stats.skipped_guest++;
		return false;
	}
	return true;
}

/* pipeline sink: prepare() - perf's db_export__sample up to the symbol lookups: the
 * ids of the event, the machine, the threads and comms as they are at the sample */
static int sink_prepare(void *ctx, struct resolved_sample *rs)
{
	struct exporter *e = ctx;
	const struct evsel *ev = rs->ref->evsel;
	uint64_t id;
	int err;

	if ((err = export_evsel(e, ev, &id)))
		return sink_err(err);
	rs->aux_ids[0] = (uint32_t)id;
	if ((err = export_machine(e)) || (err = export_threads(e, rs->t, &id)))
		return sink_err(err);
	rs->aux_ids[1] = (uint32_t)db_id(&e->thread_ids, rs->t->id);
	rs->aux_ids[2] = (uint32_t)id;
	/* ADDR may be a kernel address (the pipeline must know) */
	rs->kernel = addr_correlates_sym(&ev->attr);
	return 0;
}

/* pipeline sink: sample() - a sample's locations, on any worker */
static int sink_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		       const struct resolved_sample *rs)
{
	struct exporter *e = ctx;
	struct export_chunk *c = chunk;
	const struct sample *s = &rs->s;
	const struct event_attr *a = &rs->ref->evsel->attr;
	uint16_t cpumode = s->misc & MISC_CPUMODE_MASK;
	struct wsample *ws;
	int err;

	if (array__grow(&c->samples, &c->cap, c->nr + 1, sizeof(*c->samples), 256))
		return -ENOMEM;
	ws = &c->samples[c->nr];
	memset(ws, 0, sizeof(*ws));
	if ((err = resolve_loc(pt, rs, cpumode, s->ip, &ws->loc)))
		return err;
	if ((e->flags & EXPORT_CALLCHAINS) && (a->sample_type & SAMPLE_CALLCHAIN)) {
		ws->has_chain = true;
		if ((err = resolve_chain(state, c, pt, rs, ws)))
			return err;
	}
	if (addr_correlates_sym(a)) {
		/* perf's thread__resolve for ADDR: the sample's cpumode, else the one
		 * the address belongs to (kernel from the top half of the space) */
		uint16_t addr_mode = (s->addr >> 63) ? MISC_KERNEL : MISC_USER;

		ws->has_to = true;
		err = resolve_loc(pt, rs, cpumode, s->addr, &ws->to);
		if (!err && !ws->to.dso && addr_mode != cpumode)
			err = resolve_loc(pt, rs, addr_mode, s->addr, &ws->to);
		if (err) {
			c->nr_frames = ws->chain_first;	/* as it was */
			return err;
		}
	}
	ws->evsel_id = rs->aux_ids[0];
	ws->thread_id = rs->aux_ids[1];
	ws->comm_id = rs->aux_ids[2];
	ws->ip = s->ip;
	ws->time = s->time;
	ws->cpu = (int32_t)s->cpu;
	ws->addr = s->addr;
	ws->period = s->period;
	ws->weight = s->weight;
	ws->transaction = s->transaction;
	ws->data_src = s->data_src;
	c->nr++;
	return 0;
}

/* pipeline sink: emit() - a chunk's samples given their ids and rows, in order */
static int sink_emit(void *ctx, void *chunk)
{
	struct exporter *e = ctx;
	struct export_chunk *c = chunk;
	int err = 0;

	for (size_t i = 0; i < c->nr && !err; i++)
		err = finish_sample(e, c, &c->samples[i]);
	c->nr = c->nr_frames = 0;
	return sink_err(err);
}

/* pipeline sink: batch() - the progress */
static void sink_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct exporter *e = ctx;
	uint64_t bytes = 0;

	if (!e->sink.progress)
		return;
	for (size_t i = 0; i < n; i++)
		bytes += recs[i]->disk_size;
	e->sink.progress(e->sink.ctx, bytes);
}

static int sink_thread_init(void *ctx, void *state)
{
	struct exporter *e = ctx;
	struct export_worker *w = state;

	if (!e->unwind)
		return 0;
	/* the first unwinder opens the files, the others share them */
	if ((e->uw_first ? unwinder__new_sibling(&w->uw, e->uw_first)
			 : unwinder__new(&w->uw, e->arch)) || srclines__new(&w->inl))
		return -ENOMEM;
	if (!e->uw_first)
		e->uw_first = w->uw;
	return 0;
}

static void sink_thread_exit(void *ctx, void *state)
{
	struct export_worker *w = state;

	(void)ctx;
	unwinder__delete(w->uw);
	srclines__delete(w->inl);
}

static void sink_chunk_exit(void *ctx, void *chunk)
{
	struct export_chunk *c = chunk;

	(void)ctx;
	free(c->samples);
	free(c->frames);
}

static const struct pipeline_sink export_sink = {
	.batch = sink_batch,
	.select = sink_select,
	.prepare = sink_prepare,
	.thread_size = sizeof(struct export_worker),
	.thread_init = sink_thread_init,
	.thread_exit = sink_thread_exit,
	.chunk_size = sizeof(struct export_chunk),
	.chunk_exit = sink_chunk_exit,
	.sample = sink_sample,
	.emit = sink_emit,
};

int exporter__on_batch(void *e, const struct record_ref *const *recs, size_t n)
{
	return pipeline__on_batch(((struct exporter *)e)->pipe, recs, n);
}

int exporter__deliver(struct exporter *e, struct session *s)
{
	return pipeline__deliver(e->pipe, s, 0);
}

bool exporter__bad(const struct exporter *e, uint16_t *file, uint64_t *offset)
{
	return e->pipe && pipeline__bad(e->pipe, file, offset);
}

void exporter__stats(const struct exporter *e, struct export_stats *st)
{
	*st = e->stats;
}
