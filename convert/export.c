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

#define PENDING_MAX (1u << 18)	/* samples that may wait for stage 2 (104 bytes each) */
#define SYM_CACHE 1024		/* entries of the symbol id cache (power of 2) */
#define CHAIN_MAX (1u << 19)	/* callchain entries that may wait (32 bytes each) */

enum ploc_state {
	PLOC_NONE,		/* no map: final */
	PLOC_MAPPED,		/* map found: dso and map-relative addr */
	PLOC_KERNEL,		/* a kernel address: its map is looked up in stage 2 */
};

/* A location after stage 1. */
struct ploc {
	struct dso *dso;	/* PLOC_MAPPED */
	uint64_t addr;		/* PLOC_MAPPED: map-relative address */
	uint64_t ip;		/* the address as recorded */
	uint8_t state;		/* enum ploc_state */
	bool unwound;		/* from the unwound user stack (inlined functions) */
};

/* A sample after stage 1: the row's values known then, and its locations. */
struct pending {
	uint64_t ip, time, addr, period, weight, transaction, data_src;
	uint32_t evsel_id, thread_id, comm_id;	/* ids (ids of these stay small) */
	int32_t cpu;
	uint32_t chain_first, chain_nr;	/* entries in exporter.chain, root first */
	struct dso *dso;	/* the sample's location (a struct ploc without ip) */
	uint64_t loc_addr;
	uint8_t loc_state;	/* enum ploc_state */
	bool has_chain;		/* callchains are exported for this sample */
	bool has_to;		/* ADDR is resolved into exporter.to (never deferred) */
};

static bool addr_correlates_sym(const struct event_attr *a);

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
	struct unwinder *uw;		/* owned: --call-graph dwarf stacks; else NULL */
	struct srclines *inl;		/* owned with uw: inlined functions */
	struct idmap inl_syms;		/* (dso, address, level) -> symbol id of an
					 * inlined function (perf's objects per
					 * inline node) */
	uint64_t user_ips[EXPORT_MAX_STACK];	/* one sample's unwound frames */
	struct strtab inl_names;	/* their names (rows keep pointers to them) */
	struct bid_text *bids;		/* owned list */
	struct export_stats stats;

	/* samples past stage 1, waiting for stage 2 (see "Two stages" below) */
	struct pending *pending;	/* owned, PENDING_MAX */
	size_t nr_pending;
	struct ploc *chain;		/* owned, CHAIN_MAX: callchain entries of pending */
	size_t nr_chain;
	uint64_t first_pending_id;	/* samples.id of pending[0] (ids are consecutive) */
	struct ploc to;			/* ADDR of the pending sample with has_to */
	bool deferring;			/* kernel lookups wait for the kernel's symbols */
	bool kernel_mapped;		/* kwait.kernel_mapped() was called */
	bool addr_events;		/* some event resolves ADDR (never deferred) */
	struct export_kernel_wait kwait;
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
	e->pending = malloc(PENDING_MAX * sizeof(*e->pending));
	e->chain = (flags & EXPORT_CALLCHAINS) ? malloc(CHAIN_MAX * sizeof(*e->chain))
					      : malloc(CHAIN_SAMPLE_MAX * sizeof(*e->chain));
	if (!e->pending || !e->chain) {
		exporter__delete(e);
		return -ENOMEM;
	}
	e->machine = m;
	e->evlist = el;
	e->flags = flags;
	e->sink = *sink;
	for (size_t i = 0; i < el->nr; i++)
		e->addr_events |= addr_correlates_sym(&el->evsels[i]->attr);
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
	unwinder__delete(e->uw);
	srclines__delete(e->inl);
	free(e->pending);
	free(e->chain);
	free(e->evsel_ids);
	free(e->thread_ids.v);
	free(e->comm_ids.v);
	free(e);
}

int exporter__unwind(struct exporter *e, const char *arch)
{
	if (!unwind__wanted(e->evlist) || e->uw)
		return 0;
	if (unwinder__new(&e->uw, arch) || srclines__new(&e->inl))
		return -ENOMEM;
	return 0;
}

int exporter__begin(struct exporter *e)
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
	return 0;
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
 * ---- Two stages -------------------------------------------------------------------
 *
 * Reading the kernel's symbols takes longer than decoding a recording of seconds, so
 * it runs on a worker while the records replay (exporter__defer_kernel()).  Until it
 * is done a sample goes through stage 1 only: everything that depends on the machine
 * state at the sample's time (thread, comms, user maps) is looked up and kept in a
 * struct pending, and kernel addresses wait.  Stage 2, in sample order, resolves the
 * kernel addresses and all symbols, gives dsos, symbols and call paths their ids and
 * writes the row.  Ids therefore come out as in one pass.  Kernel maps are only changed
 * by kernel MMAPs: one of those (or an MMAP2 carrying a build-id) while samples wait
 * first finishes them.  Once the kernel's symbols are there both stages run per
 * sample.  At most PENDING_MAX samples and CHAIN_MAX callchain entries wait (about
 * 43 MB); past that the replay waits for the kernel's symbols.
 *
 * The worker only touches the kernel dso: it reads the file, and once the kernel MMAP
 * has been replayed (kwait.kernel_mapped()) it loads the symbols with that MMAP's
 * reference symbol; meanwhile stage 1 never looks at the kernel dso, and a second
 * kernel MMAP waits for the worker.
 */

/* Stage 1 of one address: the map now, except kernel addresses while deferring. */
static void map_loc(struct exporter *e, struct thread *t, uint16_t cpumode, uint64_t ip,
		    struct ploc *pl)
{
	struct addr_location al;

	pl->ip = ip;
	pl->state = PLOC_NONE;
	if (cpumode == MISC_KERNEL && e->deferring) {
		pl->state = PLOC_KERNEL;
		return;
	}
	/* only host kernel and user addresses have maps (perf_guest is off) */
	if (cpumode != MISC_KERNEL && cpumode != MISC_USER)
		return;
	machine__resolve_map(e->machine, t, cpumode, ip, &al);
	if (al.dso) {
		pl->state = PLOC_MAPPED;
		pl->dso = al.dso;
		pl->addr = al.addr;
	}
}

/* Stage 2 of one address: perf's map__find_symbol, where the symbol may be an
 * "unknown" perf inserted at exactly that map-relative address. */
static void finish_loc(struct exporter *e, const struct ploc *pl, struct xloc *loc)
{
	struct addr_location al;

	memset(loc, 0, sizeof(*loc));
	if (pl->state == PLOC_KERNEL) {
		machine__resolve_map(e->machine, NULL, MISC_KERNEL, pl->ip, &al);
		loc->dso = al.dso;
		loc->addr = al.addr;
	} else if (pl->state == PLOC_MAPPED) {
		loc->dso = pl->dso;
		loc->addr = pl->addr;
	}
	if (!loc->dso)
		return;
	loc->sym = dso__find_symbol(loc->dso, loc->addr);
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
 * without a symbol is looked up again with its raw address, and exported with the raw
 * address (so an "unknown" symbol is created there), as perf does. */
static int chain_entry(struct exporter *e, struct xloc *loc, uint64_t ip, uint64_t *cur)
{
	int64_t did, sid, off;
	int err;

	if (loc->dso && !loc->sym && !loc->sym_id) {
		loc->sym = dso__find_symbol(loc->dso, ip);
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
			  const char *text, uint64_t *cur)
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
			err = chain_entry(e, &loc, ip, cur);
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

struct chain_ctx {
	struct exporter *e;
	struct thread *t;
	struct pending *p;
};

static int chain_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct chain_ctx *cc = ctx;
	struct ploc *pl = &cc->e->chain[cc->e->nr_chain++];

	map_loc(cc->e, cc->t, cpumode & ~CALLCHAIN_UNWOUND, ip, pl);
	pl->unwound = cpumode & CALLCHAIN_UNWOUND;
	cc->p->chain_nr++;
	return 0;
}

/* Stage 1 of the callchain: its addresses root first (perf's ORDER_CALLER walk,
 * machine__callchain_walk, at most EXPORT_MAX_STACK from the root end) into e->chain;
 * none when perf would discard the chain. */
static void map_callchain(struct exporter *e, struct thread *t, const struct sample *s,
			  struct pending *p)
{
	struct chain_ctx cc = { e, t, p };
	size_t nr_user = 0;

	p->chain_first = (uint32_t)e->nr_chain;
	p->chain_nr = 0;
	/* perf's thread__resolve_callchain(): the unwound user stack too (out of
	 * memory there unwinds nothing) */
	if (e->uw && unwinder__unwind(e->uw, t ? t->maps : NULL, s, e->user_ips, EXPORT_MAX_STACK, &nr_user))
		nr_user = 0;
	if (machine__callchain_walk_unwound(s, true, EXPORT_MAX_STACK, e->user_ips, nr_user,
					    chain_frame, &cc) == 1) {
		p->chain_nr = 0;	/* perf discards it all */
		e->nr_chain = p->chain_first;
	}
}

/* Stage 2 of the callchain: every entry's symbol first (perf resolved the whole chain
 * before exporting it), then the path; *id = 0 when it is empty. */
static int export_callchain(struct exporter *e, const struct pending *p, uint64_t *id)
{
	struct xloc loc[CHAIN_SAMPLE_MAX];
	const struct ploc *pl = e->chain + p->chain_first;
	uint64_t cur = e->root_path_id;
	int err;

	*id = 0;
	for (uint32_t i = 0; i < p->chain_nr; i++)
		finish_loc(e, &pl[i], &loc[i]);
	for (uint32_t i = 0; i < p->chain_nr; i++) {
		const char *inl = NULL;

		/* the frame's symbol may be an "unknown" an earlier row inserted */
		if (pl[i].unwound && loc[i].dso && (loc[i].sym || loc[i].sym_id) && e->inl &&
		    !(inl = srclines__inlines(e->inl, loc[i].dso, loc[i].addr)))
			return -ENOMEM;
		if (inl && *inl)
			err = inline_entries(e, &loc[i], pl[i].ip, inl, &cur);
		else
			err = chain_entry(e, &loc[i], pl[i].ip, &cur);
		if (err)
			return err;
	}
	*id = p->chain_nr ? cur : 0;
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

/* perf's thread__resolve for ADDR: the sample's cpumode, else the one the address
 * belongs to (kernel from the top half of the address space).  Never deferred. */
static void map_addr(struct exporter *e, struct thread *t, const struct sample *s,
		     struct ploc *pl)
{
	uint16_t cpumode = s->misc & MISC_CPUMODE_MASK;
	uint16_t addr_mode = (s->addr >> 63) ? MISC_KERNEL : MISC_USER;

	map_loc(e, t, cpumode, s->addr, pl);
	if (pl->state == PLOC_NONE && addr_mode != cpumode)
		map_loc(e, t, addr_mode, s->addr, pl);
}

/* Stage 2 of one sample: symbols, dso/symbol/call path ids, the row. */
static int finish_sample(struct exporter *e, const struct pending *p, uint64_t sample_id)
{
	struct export_row r = { .table = EXPORT_SAMPLE };
	const struct ploc pl = { p->dso, p->loc_addr, p->ip, p->loc_state };
	int64_t *v = r.v;
	struct xloc loc;
	uint64_t id;
	int err;

	v[ES_ID] = (int64_t)sample_id;
	v[ES_EVSEL_ID] = (int64_t)p->evsel_id;
	v[ES_MACHINE_ID] = (int64_t)e->machine_id;
	v[ES_THREAD_ID] = (int64_t)p->thread_id;
	v[ES_COMM_ID] = (int64_t)p->comm_id;
	finish_loc(e, &pl, &loc);
	err = export_location(e, &loc, &v[ES_DSO_ID], &v[ES_SYMBOL_ID], &v[ES_SYM_OFFSET]);
	if (err)
		return err;
	if (p->has_chain) {
		if ((err = export_callchain(e, p, &id)))
			return err;
		v[ES_CALL_PATH_ID] = (int64_t)id;
	}
	if (p->has_to) {
		finish_loc(e, &e->to, &loc);
		err = export_location(e, &loc, &v[ES_TO_DSO_ID], &v[ES_TO_SYMBOL_ID],
				      &v[ES_TO_SYM_OFFSET]);
		if (err)
			return err;
	}
	v[ES_IP] = (int64_t)p->ip;
	v[ES_TIME] = (int64_t)p->time;
	v[ES_CPU] = p->cpu;
	v[ES_TO_IP] = (int64_t)p->addr;
	v[ES_PERIOD] = (int64_t)p->period;
	v[ES_WEIGHT] = (int64_t)p->weight;
	v[ES_TRANSACTION] = (int64_t)p->transaction;
	v[ES_DATA_SRC] = (int64_t)p->data_src;
	e->stats.samples++;
	return emit(e, &r);
}

static int drain(struct exporter *e)
{
	int err = 0;

	for (size_t i = 0; i < e->nr_pending && !err; i++)
		err = finish_sample(e, &e->pending[i], e->first_pending_id + i);
	e->nr_pending = 0;
	e->nr_chain = 0;
	return err;
}

/* The kernel's symbols are needed now: wait for them, finish what waits, and stop
 * deferring. */
static int stop_deferring(struct exporter *e)
{
	if (!e->deferring)
		return 0;
	e->kwait.wait(e->kwait.ctx);
	e->deferring = false;
	return drain(e);
}

/* Stage 1 of one sample (perf's db_export__sample up to the symbol lookups). */
static int map_sample(struct exporter *e, const struct record_ref *ref)
{
	const struct evsel *ev = ref->evsel;
	struct pending *p;
	struct ploc pl;
	struct sample s;
	struct thread *t;
	uint64_t id;
	uint16_t cpumode;
	int err;

	if (ev->attr.type == ATTR_TYPE_TRACEPOINT && !(e->flags & EXPORT_ALL_EVENTS)) {
		e->stats.skipped_tracepoint++;
		return 0;
	}
	if ((err = sample__parse(&s, &ev->attr, ref->data, ref->size)))
		return err;
	cpumode = s.misc & MISC_CPUMODE_MASK;
	if (cpumode == MISC_GUEST_KERNEL || cpumode == MISC_GUEST_USER) {
		e->stats.skipped_guest++;
		return 0;
	}
	if (e->deferring && (e->nr_pending == PENDING_MAX ||
			     e->nr_chain + CHAIN_SAMPLE_MAX > CHAIN_MAX) &&
	    (err = stop_deferring(e)))
		return err;
	t = machine__findnew_thread(e->machine, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	p = &e->pending[e->nr_pending];
	memset(p, 0, sizeof(*p));
	map_loc(e, t, cpumode, s.ip, &pl);
	p->dso = pl.dso;
	p->loc_addr = pl.addr;
	p->loc_state = pl.state;
	if ((err = export_evsel(e, ev, &id)))
		return err;
	p->evsel_id = (uint32_t)id;
	if ((err = export_machine(e)) || (err = export_threads(e, t, &id)))
		return err;
	p->comm_id = (uint32_t)id;
	p->thread_id = (uint32_t)db_id(&e->thread_ids, t->id);
	if (!e->nr_pending)
		e->first_pending_id = e->last[EXPORT_SAMPLE] + 1;
	++e->last[EXPORT_SAMPLE];
	if ((e->flags & EXPORT_CALLCHAINS) && (ev->attr.sample_type & SAMPLE_CALLCHAIN)) {
		p->has_chain = true;
		map_callchain(e, t, &s, p);
	}
	if (addr_correlates_sym(&ev->attr)) {
		p->has_to = true;	/* not deferred: this is the only pending sample */
		map_addr(e, t, &s, &e->to);
	}
	p->ip = s.ip;
	p->time = s.time;
	p->cpu = (int32_t)s.cpu;
	p->addr = s.addr;
	p->period = s.period;
	p->weight = s.weight;
	p->transaction = s.transaction;
	p->data_src = s.data_src;
	e->nr_pending++;
	return 0;
}

/* An MMAP that changes kernel maps, or gives a dso a build-id, must not overtake the
 * samples waiting for stage 2. */
static bool mmap_affects_pending(const struct record_ref *ref)
{
	struct record_header h = { 0 };
	uint16_t misc;

	if (ref->size >= RECORD_HEADER_SIZE)
		record_header__get(&h, ref->data);
	misc = h.misc;

	return (misc & MISC_CPUMODE_MASK) != MISC_USER ||
	       (ref->type == REC_MMAP2 && (misc & MISC_MMAP_BUILD_ID));
}

/* The kernel's own MMAP ("[kernel.kallsyms]_text"): it gives the kernel dso the
 * reference symbol its symbols are loaded with. */
static bool mmap_is_kernel_text(const struct record_ref *ref)
{
	static const char name[] = "[kernel.kallsyms]";
	struct event_mmap2 mm2;
	struct event_mmap mm;
	const struct event_str *filename;
	uint16_t misc;

	if (ref->type == REC_MMAP2) {
		event_mmap2__decode(ref->data, ref->size, &mm2);
		filename = &mm2.filename;
		misc = mm2.misc;
	} else {
		event_mmap__decode(ref->data, ref->size, &mm);
		filename = &mm.filename;
		misc = mm.misc;
	}
	/* the name's first bytes, before any NUL and inside the record */
	return filename->len >= sizeof(name) - 1 &&
	       (misc & MISC_CPUMODE_MASK) == MISC_KERNEL &&
	       !memcmp(filename->s, name, sizeof(name) - 1);
}

/* Side-band MMAPs while deferring: the kernel's symbols may be loading on the worker
 * (which reads the kernel dso's reference symbol), and samples wait for stage 2. */
static int process_mmap(struct exporter *e, const struct record_ref *ref,
			const struct sample *s)
{
	bool text = e->deferring && mmap_is_kernel_text(ref);
	int err;

	if (e->deferring && ((e->nr_pending && mmap_affects_pending(ref)) ||
			     (text && e->kernel_mapped)) &&
	    (err = stop_deferring(e)))
		return err;
	if ((err = machine__process(e->machine, ref, s)))
		return err;
	if (text && e->deferring && !e->kernel_mapped && e->kwait.kernel_mapped) {
		e->kernel_mapped = true;
		return e->kwait.kernel_mapped(e->kwait.ctx);
	}
	return 0;
}

int exporter__record(struct exporter *e, const struct record_ref *ref)
{
	struct sample s;
	int err;

	if (e->deferring && e->kwait.ready(e->kwait.ctx) && (err = stop_deferring(e)))
		return err;
	switch (ref->type) {
	case REC_SAMPLE:
		err = map_sample(e, ref);
		return err || e->deferring ? err : drain(e);
	case REC_MMAP:
	case REC_MMAP2:
		if (!ref->evsel)
			return 0;
		sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
		return process_mmap(e, ref, &s);
	case REC_COMM:
	case REC_FORK:
	case REC_EXIT:
		return machine__process_record(e->machine, ref);
	default:
		return 0;
	}
}

void exporter__defer_kernel(struct exporter *e, const struct export_kernel_wait *w)
{
	/* ADDR of page faults is resolved with a fallback between kernel and user maps;
	 * such recordings are not deferred */
	if (e->addr_events || !w->ready || !w->wait)
		return;
	e->kwait = *w;
	e->deferring = true;
}

int exporter__end(struct exporter *e)
{
	int err = stop_deferring(e);

	return err ? err : drain(e);
}

void exporter__stats(const struct exporter *e, struct export_stats *st)
{
	*st = e->stats;
}
