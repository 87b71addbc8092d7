/*
 * `dirreport --stdio`: replay the records in perf's order through the machine state,
 * resolve every sample (and every frame of its callchain) to comm / dso / symbol and
 * print one histogram per event.
 */
#include "report/cmd.h"
#include "cli/cli.h"	/* cli__kernel_symbols_differ */

#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <pthread.h>
#include <stdatomic.h>	/* atomic_bool */
#include <limits.h>	/* PATH_MAX */
#include <regex.h>	/* regcomp, regexec, regfree */
#include <stdlib.h>	/* calloc, free, strtol, strtoul */
#include <string.h>	/* memcmp, memset, strchr, strcmp, strlen */

#include "format/diag.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "util/workqueue.h"
#include "report/branch.h"
#include "report/callchain.h"
#include "machine/dso.h"
#include "report/group.h"
#include "report/hist.h"
#include "machine/machine.h"
#include "machine/unwind.h"
#include "util/strtab.h"
#include "report/read-values.h"
#include "report/sort.h"
#include "machine/srcline.h"
#include "report/tasks.h"
#include "cli/time-range.h"
#include "resolve/filter.h"
#include "resolve/trace-sort.h"
#include "util/array.h"
#include "util/hugemem.h"
#include "util/hashtab.h"
#include "util/phase.h"
#include "banned.h"

/* perf's PERF_MAX_STACK_DEPTH: --max-stack's default. */
#define MAX_STACK_DEFAULT 127

/* A frame whose map is known; its symbol is looked up once its dso is loaded. */
struct pending_frame {
	struct dso *dso;		/* NULL: no map */
	uint64_t ip;			/* as in the chain */
	uint64_t addr;			/* map-relative */
	uint64_t map_start, map_end, map_pgoff;
	uint64_t map_id;		/* the map object's identity (machine.h) */
	char level;			/* 'k', '.', or 0 without a map */
	bool sym_done;			/* sym was looked up (lookup_symbols()) */
	bool unwound;			/* from the unwound user stack: perf expands
					 * it into its inlined functions */
	const char *srcline;		/* an expanded frame: its inline record's
					 * FILE:LINE (perf's node srcline); else NULL */
	const char *inl_text;		/* an unwound frame with a symbol: its
					 * inlined functions (srclines__inlines(),
					 * pass 2d); else NULL */
	const struct symbol *sym;	/* then: the frame's symbol, or NULL */
};

/* Branch view: one branch of a sample, both ends resolved to their maps (al.map is
 * cleared, as for samples); their symbols are looked up once the dsos are loaded. */
struct pending_branch {
	struct addr_location from, to;
	uint64_t from_ip, to_ip;	/* as in the branch stack */
	uint64_t flags;
	bool sym_done;			/* both symbols were looked up */
};

/* A sample whose map is known; its symbol is looked up once its dso is loaded.  The
 * fields every sample sets come first, those of some reports after them: pass 1
 * writes a batch of these, the counter thread reads them, so the cache lines a
 * sample touches are what those passes cost. */
struct pending {
	struct addr_location al;
	const char *comm;
	const struct thread *thread;
	uint64_t period;
	uint64_t time;
	int32_t cpu;
	uint8_t cpumode;
	uint8_t filtered;		/* FILTER_* bits known in pass 1 */
	bool sym_done;			/* al.sym was looked up (lookup_symbols()) */
	bool unwind;			/* --call-graph dwarf: to unwind (pass 1b) */
	bool chain_dropped;		/* perf dropped the chain: the unwound
					 * frames are not kept */
	bool deferred;			/* the chain is walked in pass 1c */
	bool resolve;			/* pass 1c, or 2b without chains, resolves its
					 * map (report_prepped()): its thread, comm and
					 * filters are in its pending_walk until then */
	bool hole;			/* no sample (pass 0: another record, or a
					 * sample dropped): passes 1c-3 skip it */
	uint16_t ins_lat, p_stage_cyc;
	uint32_t evsel_idx;
	uint32_t chain_nr;		/* a chain to walk in pass 1c (deferred): */
	const unsigned char *chain;	/* its entries, in its record */
	size_t first_frame, nr_frames;	/* in report.frames */
	size_t first_branch, nr_branches;	/* branch view: in report.branches */
	size_t first_user, nr_user;	/* --call-graph dwarf: its unwound user frames
					 * in the chunk's array (unwind_chunk) */
	uint64_t ip;			/* the sample's address (for -S 0xADDR) */
	uint64_t weight;		/* WEIGHT / WEIGHT_STRUCT (0 without) */
	uint64_t cgroup;		/* CGROUP (0 without) */
	uint64_t code_page_size;	/* CODE_PAGE_SIZE (0 without) */
	uint64_t cgroup_dev, cgroup_ino;	/* the thread's, at the sample */
	const char *trace;		/* trace key: its text (resolve/trace-sort.h) */
};

/*
 * What some reports keep of a pending sample besides (struct pending_ext, in
 * report_batch.ext, the same index): --mem-mode's data address and --call-graph
 * dwarf's user stack.  Apart, so that the array every report writes in pass 1 and
 * reads in passes 2 and 3 holds only what they all use (256 bytes a sample instead of
 * 560: a batch of 8192 samples in 2 MiB, not 4.6 MB).
 */
struct pending_ext {
	/* --mem-mode only (else neither is written) */
	struct hist_mem mem;		/* data_src, addresses, page size */
	struct addr_location dal;	/* the data address's map, then symbol */
	/* --call-graph dwarf: the user stack, unwound on the workers (pass 1b) */
	const struct record_ref *ref;	/* its record, valid during the batch */
	/* what the unwinder reads of the sample (pointers into its record) */
	uint64_t regs_abi, regs_mask, stack_size, stack_dyn_size;
	const unsigned char *regs, *stack;
	struct maps maps;		/* the process's maps at the sample (a copy:
					 * maps__copy()), for pass 1b */
};

/*
 * What pass 1 keeps of a sample it leaves to the workers (report_batch.walk, the same
 * index as its pending sample; report.need_walk): its process's maps as they were at
 * it, the slots reserved for the frames of a chain to walk in pass 1c
 * (defer_callchain()), and for a sample whose map the workers resolve (pending.resolve)
 * its thread, comm and thread filters, which resolve_deferred() copies into the
 * pending sample.  Apart from pending_ext (312 bytes, where the children report wrote
 * these), and from the pending samples themselves: with pass 0
 * (report.defer_samples) the workers write those, and pass 1 writes only these 104
 * bytes a sample.
 */
struct pending_walk {
	struct maps maps;		/* a copy: maps__copy() */
	const struct thread *thread;
	const char *comm;
	uint64_t cgroup_dev, cgroup_ino;
	size_t first_frame, reserved;	/* its frames' slots (chains) */
	uint8_t filtered;		/* thread_filter() */
};

/* Pass 0's digest of record i of a batch (report_batch.prep, report.defer_samples):
 * what pass 1 needs of a sample, so that it reads none of the sample's record. */
struct prep {
	int32_t pid, tid;
	uint32_t chain_nr;		/* the chain's entries (where chains are kept) */
	uint8_t kind;			/* enum prep_kind */
	bool kernel;			/* the sample, or the chain the report walks,
					 * reaches the kernel (report_prepped()) */
};

enum prep_kind {
	PREP_RECORD,			/* not a sample: pass 1 reads the record */
	PREP_SAMPLE,			/* its pending sample is filled (resolve, and
					 * deferred with chains): pass 1 adds its
					 * thread, or takes it over (report_sample())
					 * where it reaches the kernel too early */
	PREP_SKIP,			/* outside --time: a hole */
	PREP_SLOW,			/* pass 1 takes it over (report_sample()): it
					 * does not parse, or fails there */
};

/* Pass 1b's output for the pending samples [i * UNWIND_CHUNK, ...): their unwound
 * user frames, each resolved to its map, in the chain's order. */
struct unwind_chunk {
	struct pending_frame *frames;	/* owned */
	size_t nr, cap;
	int err;			/* -ENOMEM, else 0 */
};

/* One batch's samples, resolved to their maps (pass 1), then to their symbols (pass
 * 2), then counted (pass 3). */
struct report_batch {
	struct pending *pending;	/* owned */
	size_t nr_pending, cap_pending;
	struct pending_ext *ext;	/* owned: pending[i]'s is ext[i] (NULL where
					 * the report keeps none: report.need_ext) */
	size_t cap_ext;
	struct pending_frame *frames;	/* owned */
	size_t nr_frames, cap_frames;
	/* bytes mapped of pending, ext, frames and spare (util/hugemem.h: a batch's
	 * arrays are megabytes, their pages faulted in once) */
	size_t pending_mapped, ext_mapped, frames_mapped, spare_mapped;
	struct pending_branch *branches;	/* owned: the batch's (branch view) */
	size_t nr_branches, cap_branches;
	atomic_bool leftover;		/* pass 2 left a symbol to look up */
	bool unwound;			/* some frame is unwound (expand_inlines()) */
	struct pending_frame *spare;	/* owned: expand_inlines()'s other array */
	size_t cap_spare;
	struct unwind_chunk *chunks;	/* owned: pass 1b's (unwinding) */
	size_t cap_chunks;
	bool to_unwind;			/* some pending sample is to be unwound */
	bool deferred;			/* some pending sample's chain is deferred */
	bool to_resolve;		/* some pending sample without a chain is
					 * resolved in pass 2b (report_prepped()) */
	struct pending_walk *walk;	/* owned, report.need_walk: pending[i]'s is
					 * walk[i] */
	size_t cap_walk, walk_mapped;
	struct prep *prep;		/* owned, report.defer_samples: record i's is
					 * prep[i] (and its pending sample pending[i]) */
	size_t cap_prep, prep_mapped;
};

/* What b keeps of its pending sample p for the workers (report.need_walk). */
static inline struct pending_walk *walk_of(const struct report_batch *b,
					   const struct pending *p)
{
	return &b->walk[p - b->pending];
}

/* What b keeps of its pending sample p besides (report.need_ext). */
static inline struct pending_ext *ext_of(const struct report_batch *b,
					 const struct pending *p)
{
	return &b->ext[p - b->pending];
}

/* An unwinder of pass 1b: one per thread that can run a job at once. */
struct unwind_slot {
	struct unwinder *u;		/* owned */
	uint64_t *ips;			/* owned: max_stack addresses */
	atomic_flag busy;
};

/* perf's cgroup list (perf_env cgroups): id -> path of the CGROUP records. */
struct cgroup_name {
	uint64_t id;
	char *path;			/* owned */
};

/* perf's HIST_FILTER__* bits (al->filtered). */
enum { FILTER_DSO = 1 << 0, FILTER_THREAD = 1 << 1, FILTER_PARENT = 1 << 2,
       FILTER_SYMBOL = 1 << 3 };

struct report {
	struct session *session;
	struct machine *machine;
	const struct report_opts *opts;
	enum callchain_order order;	/* the cursor order chains are stored in */
	int max_stack;
	struct hists *hists;		/* one per evsel, owned */
	struct callchains *chains;	/* owned; NULL without callchains */
	uint64_t total_lost_samples;
	/* per batch: the samples resolved to their maps (two batches: the counter
	 * thread counts one while this thread resolves the next; a third, for this
	 * thread to resolve two ahead, was no faster once the replayer ran behind
	 * the counter, and took 4-10 MB more), the dsos to load */
	struct report_batch batch[2];	/* owned */
	struct report_batch *cur;	/* the one being resolved */
	struct counter *counter;	/* owned: pass 3 on its own thread; NULL:
					 * on this one */
	bool replayer;			/* the counter's replayer runs (struct
					 * counter): count_batch() does not replay */
	bool drop_steps;		/* the histograms are printed from their live
					 * replay (no group view of several events):
					 * what it replayed is let go of
					 * (hists__drop_replayed()) */
	bool branch_mode;		/* perf's branch view (report/branch.h): an
					 * entry per branch of each sample */
	struct to_load { struct dso *dso; bool dwarf, queued; } *to_load;
					/* owned; borrowed dsos; see want_loaded() */
	size_t nr_to_load, cap_to_load;
	struct wq_group loads;		/* the batch's load jobs (load_job()) */
	struct wq_group dwarf;		/* DWARF read ahead (dwarf_job()) */
	bool load_early;		/* this batch queues a dso's load at its first
					 * use (scan_mmaps()) */
	uint64_t *ips;			/* owned: one sample's chain addresses */
	size_t cap_ips;
	struct unwinder *unwinder;	/* --call-graph dwarf samples: uw[0].u; else
					 * NULL */
	struct unwind_slot *uw;		/* owned: the workers' unwinders */
	bool preloaded;			/* the kernel symbols job is done */
	size_t nr_uw;
	/* with the unwinder: inlined functions, a srclines per dso (pass 2d looks a
	 * dso's addresses up on one worker at a time) */
	struct inl_dso { const struct dso *dso; struct srclines *sl;
			 bool prepared;	/* its DWARF job was queued */
			 struct pending_frame **todo; size_t nr_todo, cap_todo; } *inl_dsos;
	size_t inl_dsos_cap, nr_inl_dsos;	/* owned, open addressing by dso */
	struct inl_dso **inl_busy;	/* owned: those with frames in this batch */
	size_t nr_inl_busy, cap_inl_busy;
	atomic_int inl_err;		/* pass 2d's -ENOMEM */
	struct inline_sym { const struct symbol *base; const char *name;
			    struct inline_symbol *sym; } *inl_syms;	/* owned (and sym) */
	size_t inl_cap, nr_inl;		/* by (base, name), open addressing */
	struct strtab inl_names;	/* their names */
	struct sort_list sl;		/* the report's keys and columns */
	uint64_t time_quantum;		/* ns: the time key's resolution */
	const struct feat_cpu_topology *topo;	/* borrowed: sockets */
	const struct time_ranges *time;	/* --time; NULL = all */
	struct read_values *threads;	/* -T: READ records; NULL = not asked */
	struct task_ppids ppids;	/* --tasks: each thread's parent */
	struct task_mmaps mmaps;	/* --mmaps: what the maps do not keep */
	struct sample_filter filter;	/* owned: -C, --comms, --pid, --tid, --dsos,
					 * -S (resolve/filter.h) */
	/* the parent key: perf's parent_regex, and which symbols match it */
	char *mem_order;		/* owned: --mem-mode's "# Sort order" text */
	bool parent_on;
	bool need_chains;		/* resolve and keep callchains (see cmd_report) */
	bool defer_chains;		/* chains may be walked on the workers */
	bool defer_samples;		/* pass 0 parses the samples on the workers (a
					 * batch's record i has pending[i], holes where
					 * no sample), and those out of the kernel are
					 * resolved in pass 1c, or 2b without chains
					 * (report_prepped()) */
	bool need_ext;			/* batches keep their samples' pending_ext */
	bool need_walk;			/* and their pending_walk (defer_samples,
					 * defer_chains) */
	bool kernel_now;		/* the kernel's maps are final from here on in
					 * this batch (machine__kernel_ready(), and no
					 * kernel MMAP in the rest of the batch): samples
					 * that reach the kernel may be deferred too */
	bool kernel_maps_kept;		/* no kernel MMAP in the rest of the batch */
	bool kernel_ready;		/* this batch's chains may enter the kernel
					 * there (defer_callchain()) */
	struct walk_job *walk_jobs;	/* owned: pass 1c's or 2b's, by chunk */
	size_t cap_walk_jobs;
	struct prep_job { size_t kernel_maps_end; bool load_early; } *prep_jobs;
	size_t cap_prep_jobs;		/* pass 0's, by chunk: scan_mmaps() */
	const struct record_ref *const *recs;	/* the batch's, for pass 0 */
	size_t nr_recs;
	regex_t parent_re;
	struct parent_slot { const struct symbol *sym; bool match; } *parent_cache;
	size_t parent_cap, nr_parent;	/* slots (a power of two), used */
	struct srclines *srclines;	/* owned: srcline / srcfile keys; else NULL */
	struct sort_lazy lazy;		/* sl.lazy: texts from srclines */
	int lazy_err;			/* -ENOMEM from a lazy text, else 0 */
	struct cgroup_name *cgroups;	/* owned, in record order */
	/* by thread id (machine.h): the cgroup namespace (dev, inode) of the thread's
	 * latest NAMESPACES record (perf's cgroup_id key); 0, 0 without one */
	struct thread_cgns { uint64_t dev, ino; } *cgns;	/* owned */
	size_t nr_cgns, cap_cgns;	/* initialised (zeroed or set), allocated */
	size_t nr_cgroups, cap_cgroups;
	struct trace_sort *traces;	/* owned: trace key; else NULL */
	struct diag trace_diag;		/* what traces found wrong */
};

/* sort_list.lazy: an entry's srcline / srcfile (on ENOMEM "", remembered). */
static const char *lazy_srcline(void *ctx, const struct hist_entry *e)
{
	struct report *rp = ctx;
	const char *t = srclines__line(rp->srclines, e->dso, e->sym, e->ip);

	if (!t)
		rp->lazy_err = -ENOMEM;
	return t ? t : "";
}

static const char *lazy_srcfile(void *ctx, const struct hist_entry *e)
{
	struct report *rp = ctx;
	const char *t = srclines__file(rp->srclines, e->dso, e->sym, e->ip);

	if (!t)
		rp->lazy_err = -ENOMEM;
	return t ? t : "";
}

/* perf's cgroup__findnew(): the first CGROUP record of an id names it. */
static int cgroup_add(struct report *rp, const struct record_ref *ref)
{
	struct event_cgroup ev;
	uint64_t id;

	/* perf needs the id and a byte of path */
	if (event_cgroup__decode(ref->data, ref->size, &ev))
		return 0;
	id = ev.id;

	for (size_t i = 0; i < rp->nr_cgroups; i++)
		if (rp->cgroups[i].id == id)
			return 0;
	if (array__grow(&rp->cgroups, &rp->cap_cgroups, rp->nr_cgroups + 1, sizeof(*rp->cgroups), 16))
		return -ENOMEM;
	rp->cgroups[rp->nr_cgroups].path = strndup(ev.path.s, ev.path.len);
	if (!rp->cgroups[rp->nr_cgroups].path)
		return -ENOMEM;
	rp->cgroups[rp->nr_cgroups++].id = id;
	return 0;
}

static const char *cgroup_path(const void *ctx, uint64_t id)
{
	const struct report *rp = ctx;

	for (size_t i = 0; i < rp->nr_cgroups; i++)
		if (rp->cgroups[i].id == id)
			return rp->cgroups[i].path;
	return NULL;
}

/* perf's machine__process_namespaces_event(): the thread (created if new) takes the
 * record's namespaces; the cgroup one (index 6) is what the cgroup_id key shows. */
static int note_namespaces(struct report *rp, const struct record_ref *ref)
{
	struct event_namespaces ev;
	struct thread *t;

	/* pid, tid and nr are enough; a cgroup entry counts only when inside */
	event_namespaces__decode(ref->data, ref->size, &ev);
	if (ev.nfields < 3)
		return 0;
	t = machine__findnew_thread(rp->machine, (int32_t)ev.pid, (int32_t)ev.tid);
	if (!t)
		return -ENOMEM;
	if (array__grow(&rp->cgns, &rp->cap_cgns, (size_t)t->id + 1, sizeof(*rp->cgns), 256))
		return -ENOMEM;
	while (rp->nr_cgns <= t->id)
		rp->cgns[rp->nr_cgns++] = (struct thread_cgns){ 0, 0 };
	rp->cgns[t->id] = (struct thread_cgns){ 0, 0 };
	event_namespaces__link(&ev, EVENT_NAMESPACES_CGROUP, &rp->cgns[t->id].dev,
			       &rp->cgns[t->id].ino);
	return 0;
}

/* perf's thread__is_filtered(): --comms, --pids, --tids (FILTER_THREAD), by the
 * sample's comm and its thread as they are at the sample (pass 1). */
static uint8_t thread_filter(const struct report *rp, const struct thread *t,
			     const char *comm)
{
	return sample_filter__thread(&rp->filter, t, comm) ? FILTER_THREAD : 0;
}

/* The dso part of perf's machine__resolve(): --dsos (FILTER_DSO). */
static uint8_t dso_filter(const struct report *rp, const struct dso *dso)
{
	return sample_filter__dso(&rp->filter, dso) ? FILTER_DSO : 0;
}

/* perf: a sample's socket is its cpu's in the CPU_TOPOLOGY feature, else -1. */
static int32_t socket_of(const struct report *rp, int32_t cpu)
{
	if (cpu < 0 || !rp->topo || !rp->topo->has_cpus ||
	    (uint32_t)cpu >= rp->topo->nr_cpus)
		return -1;
	return (int32_t)rp->topo->cpus[cpu].socket_id;
}

static int grow_ips(struct report *rp, size_t n)
{
	uint64_t *v;

	if (n <= rp->cap_ips)
		return 0;
	v = realloc(rp->ips, n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	rp->ips = v;
	rp->cap_ips = n;
	return 0;
}

/* A dso's symbols read on a worker. */
static void load_job(void *dso)
{
	/* -ENOMEM leaves the dso unloaded: its lookups then load (and fail) again */
	(void)dso__load(dso);
}

static int queue_load(struct report *rp, struct to_load *tl)
{
	int err = workqueue__queue_group(session__workqueue(rp->session), &rp->loads,
					 load_job, tl->dso);

	tl->queued = !err;
	return err;
}

/* What a dso's inline lookups read, read ahead on a worker. */
struct dwarf_job {
	struct dso *dso;
	struct srclines *sl;
};

static void dwarf_job(void *arg)
{
	struct dwarf_job *dj = arg;

	/* -ENOMEM: pass 2d reads it (and fails) again */
	(void)srclines__prepare(dj->sl, dj->dso);
	free(dj);
}

static struct inl_dso *inl_dso_of(struct report *rp, const struct dso *dso);

/* Pass 2d will look the dso's unwound frames up: its DWARF is read from now on. */
static int queue_dwarf(struct report *rp, struct dso *dso)
{
	struct inl_dso *d = inl_dso_of(rp, dso);
	struct dwarf_job *dj;
	int err;

	if (!d)
		return -ENOMEM;
	if (d->prepared)
		return 0;
	if (!(dj = malloc(sizeof(*dj))))
		return -ENOMEM;
	dj->dso = dso;
	dj->sl = d->sl;
	err = workqueue__queue_group(session__workqueue(rp->session), &rp->dwarf, dwarf_job, dj);
	if (err)
		free(dj);
	d->prepared = !err;
	return err;
}

/*
 * The batch will need @p dso loaded.  Where the batch lets it (scan_mmaps()), a
 * file's load is queued at once, so a worker reads it while this thread goes on
 * replaying; finish_loads() waits for it.  @p dwarf: the dso's inline lookups are
 * wanted too.
 */
static int want_loaded(struct report *rp, struct dso *dso, bool dwarf)
{
	struct to_load *tl;

	if (!dso)
		return 0;
	/* the batch's dsos first: a worker may be loading one (writing it) */
	for (size_t i = 0; i < rp->nr_to_load; i++)
		if (rp->to_load[i].dso == dso) {
			rp->to_load[i].dwarf |= dwarf;	/* if not queued yet */
			return 0;
		}
	if (dso->loaded)
		return 0;
	if (array__grow(&rp->to_load, &rp->cap_to_load, rp->nr_to_load + 1,
			sizeof(*rp->to_load), 16))
		return -ENOMEM;
	tl = &rp->to_load[rp->nr_to_load++];
	*tl = (struct to_load){ dso, dwarf, false };
	/* other kinds are loaded by the replay itself (kernel, modules) or cheap */
	if (rp->load_early && dso->kind == DSO_KIND_USER)
		return queue_load(rp, tl);
	return 0;
}

/* scan_mmaps() for record @p i of a batch: an MMAP2 of the build-id form clears
 * *@p load_early, a kernel MMAP sets *@p kernel_maps_end to i + 1. */
static void note_mmap_kind(const struct record_ref *ref, size_t i, bool *load_early,
			   size_t *kernel_maps_end)
{
	uint16_t misc;

	if (ref->type != REC_MMAP && ref->type != REC_MMAP2)
		return;
	memcpy(&misc, ref->data + 4, sizeof(misc));
	if (ref->type == REC_MMAP2 && (misc & MISC_MMAP_BUILD_ID))
		*load_early = false;
	if ((misc & MISC_CPUMODE_MASK) == MISC_KERNEL)
		*kernel_maps_end = i + 1;
}

/*
 * What a batch's MMAP records allow, in one look at them:
 * - whether the batch may load its dsos early (rp->load_early): loading reads a dso's
 *   build-id and the files it names, and an MMAP2 of the build-id form sets the
 *   build-id of a dso not loaded yet (perf's order: it applies when the dso is loaded
 *   after it), so a batch with one loads its dsos after its replay, as perf would;
 * - from which record on it leaves the kernel's maps alone (*kernel_maps_end: after
 *   its last kernel MMAP - the kernel, a module - or 0), as passes 1c and 2b need for
 *   what they resolve (rp->kernel_now, rp->kernel_ready).
 */
static void scan_mmaps(const struct record_ref *const *recs, size_t n, bool *load_early,
		       size_t *kernel_maps_end)
{
	*load_early = true;
	*kernel_maps_end = 0;
	for (size_t i = 0; i < n; i++)
		note_mmap_kind(recs[i], i, load_early, kernel_maps_end);
}

/* What pass 1 may leave to pass 1c or 2b from here on in the batch (the kernel's maps
 * as they will be at its end: rp->kernel_maps_kept). */
static void batch_defer_flags(struct report *rp)
{
	rp->kernel_now = rp->kernel_maps_kept && machine__kernel_ready(rp->machine);
	rp->kernel_ready = rp->defer_chains && rp->kernel_now;
}

/* The DWARF of a dso with samples, read before the dso is loaded. */
struct early_dwarf {
	struct dso dso;		/* a copy: the replay may write the dso meanwhile */
	struct srclines *sl;
};

static void early_dwarf_job(void *arg)
{
	struct early_dwarf *ej = arg;
	char path[PATH_MAX];

	/* -ENOMEM: pass 2d reads it (and fails) again */
	if (!dso__symsrc_guess(&ej->dso, path, sizeof(path)))
		(void)srclines__prepare_file(ej->sl, path);
	free(ej);
}

/*
 * With --call-graph dwarf stacks, every user dso a sample hit (the BUILD_ID feature
 * names them) will have its unwound frames looked up in pass 2d, whose first lookup
 * in a file reads its DWARF (0.1 s for glibc's): those are read on the workers from
 * the start, while the records are decoded and the first batches replayed (the
 * first 256 the feature names; pass 2d reads the others' when it needs them).
 */
static int read_dwarf_early(struct report *rp)
{
	struct dso *v[256];
	size_t n;

	if (!rp->unwinder)
		return 0;
	n = machine__build_id_dsos(rp->machine, session__features(rp->session), v,
				   sizeof(v) / sizeof(*v));
	for (size_t i = 0; i < n && i < sizeof(v) / sizeof(*v); i++) {
		struct inl_dso *d;
		struct early_dwarf *ej;
		int err;

		if (v[i]->kind != DSO_KIND_USER || v[i]->loaded)
			continue;
		if (!(d = inl_dso_of(rp, v[i])))
			return -ENOMEM;
		if (d->prepared)
			continue;
		if (!(ej = malloc(sizeof(*ej))))
			return -ENOMEM;
		ej->dso = *v[i];
		ej->sl = d->sl;
		err = workqueue__queue_group(session__workqueue(rp->session), &rp->dwarf,
					     early_dwarf_job, ej);
		if (err) {
			free(ej);
			return err;
		}
		d->prepared = true;
	}
	return 0;
}

/*
 * Pass 2a: the batch's dsos loaded, those not queued yet now, on the workers; then
 * the DWARF of those with symbols whose frames pass 2d will look up is read on the
 * workers while this thread goes on (lookup_inlines() waits for it).
 */
static int finish_loads(struct report *rp)
{
	int err = 0;

	for (size_t i = 0; i < rp->nr_to_load && !err; i++)
		if (!rp->to_load[i].queued)
			err = queue_load(rp, &rp->to_load[i]);
	workqueue__group_wait(session__workqueue(rp->session), &rp->loads);
	for (size_t i = 0; i < rp->nr_to_load && !err; i++) {
		const struct to_load *tl = &rp->to_load[i];

		if (tl->dwarf && rp->unwinder && tl->dso->kind == DSO_KIND_USER &&
		    tl->dso->symtab.nr)
			err = queue_dwarf(rp, tl->dso);
	}
	rp->nr_to_load = 0;
	return err;
}

static int push_frame(struct report *rp, struct thread *t, uint16_t cpumode, uint64_t ip)
{
	struct addr_location al;
	struct pending_frame *f;
	bool unwound = cpumode & CALLCHAIN_UNWOUND;

	cpumode &= (uint16_t)~CALLCHAIN_UNWOUND;
	rp->cur->unwound |= unwound;
	if (hugemem__grow(&rp->cur->frames, &rp->cur->cap_frames, &rp->cur->frames_mapped,
			  rp->cur->nr_frames + 1, sizeof(*rp->cur->frames), 4096))
		return -ENOMEM;
	machine__resolve_map(rp->machine, t, cpumode, ip, &al);
	f = &rp->cur->frames[rp->cur->nr_frames++];
	*f = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0,
		.sym_done = false, .unwound = unwound,
	};
	return want_loaded(rp, al.dso, false);
}

struct frame_ctx {
	struct report *rp;
	struct thread *t;
};

static int report_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct frame_ctx *fc = ctx;

	return push_frame(fc->rp, fc->t, cpumode, ip);
}

/* The frames of a sample's callchain, in cursor order, each resolved to its map
 * (machine__callchain_walk: perf's walk, markers, --max-stack).  A sample whose user
 * stack perf unwinds keeps the process's maps as they are now: its user frames are
 * unwound and spliced in on the workers (pass 1b, unwind_batch()). */
static int resolve_callchain(struct report *rp, struct thread *t, const struct sample *s,
			     const struct record_ref *ref, struct pending *p)
{
	struct frame_ctx fc = { rp, t };
	int ret;

	p->first_frame = rp->cur->nr_frames;
	ret = machine__callchain_walk(s, rp->order == CALLCHAIN_CALLER,
				      (uint64_t)rp->max_stack, report_frame, &fc);
	if (ret == 1)	/* perf drops the chain */
		rp->cur->nr_frames = p->first_frame;
	p->nr_frames = rp->cur->nr_frames - p->first_frame;
	if (ret >= 0 && rp->unwinder) {
		/* unwound even when the chain is dropped: the counts of the
		 * warning (unwinder__warning()) */
		struct pending_ext *pe = ext_of(rp->cur, p);

		p->unwind = true;
		pe->ref = ref;
		pe->regs_abi = s->user_regs_abi;
		pe->regs_mask = s->user_regs_mask;
		pe->regs = s->user_regs;
		pe->stack_size = s->user_stack_size;
		pe->stack_dyn_size = s->user_stack_dyn_size;
		pe->stack = s->user_stack;
		maps__copy(t->maps, &pe->maps);
		p->nr_user = 0;
		rp->cur->to_unwind = true;
		p->chain_dropped = ret == 1;
	}
	return ret < 0 ? ret : 0;
}

/* Whether a chain has kernel frames (entries after a PERF_CONTEXT_KERNEL marker). */
static bool chain_enters_kernel(const struct sample *s)
{
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		if (sample__callchain_ip(s, i) == CONTEXT_KERNEL)
			return true;
	return false;
}

/* Pass 1 for a sample the workers resolve, or whose chain they walk: a copy of its
 * process's maps as they are now (the time-versioned state: MMAPs later in the batch
 * make new arrays and leave this one as it is), in its pending_walk. */
static void keep_maps(struct report *rp, const struct thread *t, struct pending *p)
{
	maps__copy(t->maps, &walk_of(rp->cur, p)->maps);
}

/* Pass 1: the slots of the frames pass 1c keeps of a chain of @p chain_nr entries
 * (at most --max-stack), in @p pw. */
static int reserve_frames(struct report *rp, uint64_t chain_nr, struct pending_walk *pw)
{
	size_t n = chain_nr < (uint64_t)rp->max_stack ? (size_t)chain_nr :
							(size_t)rp->max_stack;

	if (hugemem__grow(&rp->cur->frames, &rp->cur->cap_frames, &rp->cur->frames_mapped,
			  rp->cur->nr_frames + n, sizeof(*rp->cur->frames), 4096))
		return -ENOMEM;
	pw->first_frame = rp->cur->nr_frames;
	pw->reserved = n;
	rp->cur->nr_frames += n;
	rp->cur->deferred = true;
	return 0;
}

/*
 * Pass 1 for a sample's chain that pass 1c walks on the workers: a copy of the
 * process's maps as they are now (the time-versioned state: MMAPs later in the batch
 * make new arrays and leave this one as it is) and slots for its frames.  Only for
 * chains whose walk has no effect on the machine: no kernel frame, or a kernel whose
 * map is final and whose maps no record of this batch changes (rp->kernel_ready),
 * so the order in which chains are walked does not matter.
 */
static int defer_callchain(struct report *rp, struct thread *t, const struct sample *s,
			   struct pending *p)
{
	struct pending_walk *pw = walk_of(rp->cur, p);
	int err = reserve_frames(rp, s->callchain_nr, pw);

	if (err)
		return err;
	p->first_frame = pw->first_frame;
	p->deferred = true;
	p->chain = s->callchain;
	p->chain_nr = (uint32_t)s->callchain_nr;	/* fits: in a record */
	keep_maps(rp, t, p);
	return 0;
}

/* The output of pass 1c for the pending samples [i * WALK_CHUNK, ...), or of pass 2b
 * for [i * LOOKUP_CHUNK, ...): the dsos their addresses and frames are in, each once,
 * to be loaded. */
struct walk_job {
	struct dso **dsos;		/* owned */
	size_t nr, cap;
	int err;			/* -ENOMEM, else 0 */
};

/* Pending samples per walk_one() job. */
#define WALK_CHUNK 256

struct walk_ctx {
	struct report *rp;
	struct pending *pd;
	const struct pending_walk *pw;	/* pd's */
	struct walk_job *job;
};

/* A dso a job found, to be loaded: each once a job (the last one found is kept at
 * the end of the list: the next frame finds it first). */
static int walk_note_dso(struct walk_job *job, struct dso *dso)
{
	if (!dso || (job->nr && job->dsos[job->nr - 1] == dso))
		return 0;
	for (size_t k = 0; k < job->nr; k++)
		if (job->dsos[k] == dso) {
			job->dsos[k] = job->dsos[job->nr - 1];
			job->dsos[job->nr - 1] = dso;
			return 0;
		}
	if (array__grow(&job->dsos, &job->cap, job->nr + 1, sizeof(*job->dsos), 16))
		return -ENOMEM;
	job->dsos[job->nr++] = dso;
	return 0;
}

static int walk_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct walk_ctx *w = ctx;
	struct pending *pd = w->pd;
	struct walk_job *job = w->job;
	struct addr_location al;

	if (pd->nr_frames == w->pw->reserved)	/* a walk keeps at most that many */
		return -EOVERFLOW;
	machine__resolve_map_at(w->rp->machine, &w->pw->maps, cpumode, ip, &al);
	w->rp->cur->frames[pd->first_frame + pd->nr_frames++] = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0, .sym_done = false,
	};
	return walk_note_dso(job, al.dso);
}

/* A deferred sample (report_prepped()) given what pass 1 kept in @p pw (its thread,
 * comm, thread filters, frame slots), resolved to its map in the copy of its
 * process's maps there, and its dso filtered (--dsos), on any worker (only reads);
 * its dso noted in @p job to be loaded; -ENOMEM, else 0. */
static int resolve_deferred(const struct report *rp, struct pending *pd,
			    const struct pending_walk *pw, struct walk_job *job)
{
	pd->thread = pw->thread;
	pd->comm = pw->comm;
	pd->cgroup_dev = pw->cgroup_dev;
	pd->cgroup_ino = pw->cgroup_ino;
	pd->first_frame = pw->first_frame;
	machine__resolve_map_at(rp->machine, &pw->maps, pd->cpumode, pd->ip, &pd->al);
	pd->al.map = NULL;	/* see report_sample() */
	pd->al.thread = (struct thread *)pd->thread;
	pd->filtered = pw->filtered | dso_filter(rp, pd->al.dso);
	pd->resolve = false;
	return walk_note_dso(job, pd->al.dso);
}

/* Pass 1c for the pending samples [i * WALK_CHUNK, ...), on any worker: the deferred
 * samples resolved to their maps and filtered (report_prepped()), the deferred chains
 * walked as perf walks them, each frame resolved to its map (only reads). */
static void walk_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct walk_job *job = &rp->walk_jobs[i];
	size_t end = (i + 1) * WALK_CHUNK;

	if (end > rp->cur->nr_pending)
		end = rp->cur->nr_pending;
	job->nr = 0;
	job->err = 0;
	for (size_t k = i * WALK_CHUNK; k < end && !job->err; k++) {
		struct pending *pd = &rp->cur->pending[k];
		const struct pending_walk *pw = walk_of(rp->cur, pd);
		struct walk_ctx w = { rp, pd, pw, job };
		struct sample s = { .callchain = pd->chain, .callchain_nr = pd->chain_nr };
		int ret;

		if (pd->resolve && (job->err = resolve_deferred(rp, pd, pw, job)))
			break;
		if (!pd->deferred)
			continue;
		pd->nr_frames = 0;
		ret = machine__callchain_walk(&s, rp->order == CALLCHAIN_CALLER,
					      (uint64_t)rp->max_stack, walk_frame, &w);
		if (ret == 1)	/* perf drops the chain */
			pd->nr_frames = 0;
		else if (ret < 0)
			job->err = ret;
	}
}

/* The dsos jobs [0, jobs) of rp->walk_jobs found, to be loaded (want_loaded(): in the
 * order of the samples' chunks, each dso once a chunk); a job's error, if any. */
static int want_found(struct report *rp, size_t jobs)
{
	int err;

	for (size_t i = 0; i < jobs; i++) {
		const struct walk_job *job = &rp->walk_jobs[i];

		if (job->err)
			return job->err == -EOVERFLOW ? -EINVAL : job->err;
		for (size_t k = 0; k < job->nr; k++)
			if ((err = want_loaded(rp, job->dsos[k], false)))
				return err;
	}
	return 0;
}

/* Pass 1c: the deferred chains of the batch walked on the workers, then the dsos
 * they found queued for loading (want_found()). */
static int walk_deferred(struct report *rp)
{
	size_t jobs = (rp->cur->nr_pending + WALK_CHUNK - 1) / WALK_CHUNK;
	int err;

	if (array__grow_zeroed(&rp->walk_jobs, &rp->cap_walk_jobs, jobs,
			       sizeof(*rp->walk_jobs), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, walk_one, rp)))
		return err;
	return want_found(rp, jobs);
}

/* Branch view: both ends of every branch of a sample, resolved to their maps (perf's
 * sample__resolve_bstack(), after the sample's address and callchain). */
static int resolve_branches(struct report *rp, struct thread *t, const struct sample *s,
			    struct pending *p)
{
	int err = 0;

	p->first_branch = rp->cur->nr_branches;
	if (array__grow(&rp->cur->branches, &rp->cur->cap_branches, rp->cur->nr_branches + s->branch_nr,
			sizeof(*rp->cur->branches), 1024))
		return -ENOMEM;
	for (uint64_t i = 0; i < s->branch_nr && !err; i++) {
		struct sample_branch sb = sample__branch(s, i);
		struct pending_branch *pb = &rp->cur->branches[rp->cur->nr_branches++];

		branch_end__resolve_map(rp->machine, t, sb.from, &pb->from);
		branch_end__resolve_map(rp->machine, t, sb.to, &pb->to);
		pb->from.map = pb->to.map = NULL;	/* see report_sample() */
		pb->from_ip = sb.from;
		pb->to_ip = sb.to;
		pb->flags = sb.flags;
		pb->sym_done = false;
		err = want_loaded(rp, pb->from.dso, false);
		if (!err)
			err = want_loaded(rp, pb->to.dso, false);
	}
	p->nr_branches = rp->cur->nr_branches - p->first_branch;
	return err;
}

/* What a pending sample takes from its record (pass 0 or 1). */
static void pending_sample(struct pending *p, const struct sample *s,
			   const struct record_ref *ref)
{
	p->period = s->period;
	p->time = s->time;
	p->cpu = (int32_t)s->cpu;
	p->cpumode = s->misc & MISC_CPUMODE_MASK;
	p->evsel_idx = ref->evsel->idx;
	p->nr_frames = 0;
	p->nr_branches = 0;
	p->sym_done = false;
	p->unwind = false;
	p->deferred = false;
	p->resolve = false;
	p->hole = false;
	p->nr_user = 0;
	p->ip = s->ip;
	p->weight = s->weight;
	p->cgroup = s->cgroup;
	p->code_page_size = s->code_page_size;
	p->ins_lat = s->ins_lat;
	p->p_stage_cyc = s->weight_var3;
	p->trace = NULL;
	p->chain = NULL;
	p->chain_nr = 0;
}

/* Pass 1 for a sample: what it takes from its record and its thread. */
static void pending_init(const struct report *rp, struct pending *p, struct thread *t,
			 const struct sample *s, const struct record_ref *ref)
{
	pending_sample(p, s, ref);
	p->thread = t;
	p->cgroup_dev = t->id < rp->nr_cgns ? rp->cgns[t->id].dev : 0;
	p->cgroup_ino = t->id < rp->nr_cgns ? rp->cgns[t->id].ino : 0;
}

/* Pass 1: the pending sample of record @p i of the batch (report.defer_samples),
 * else the next one. */
static struct pending *pending_take(struct report *rp, size_t i)
{
	struct report_batch *b = rp->cur;

	return rp->defer_samples ? &b->pending[i] : &b->pending[b->nr_pending++];
}

/* Pass 1: pending_take()'s sample dropped after all. */
static void pending_drop(struct report *rp, struct pending *p)
{
	if (rp->defer_samples)
		p->hole = true;
	else
		rp->cur->nr_pending--;
}

/* What pass 1 keeps in a deferred sample's pending_walk @p pw (resolve_deferred()
 * copies it): its thread, comm and thread filters now. */
static void walk_thread(const struct report *rp, struct pending_walk *pw, struct thread *t,
			const char *comm)
{
	pw->thread = t;
	pw->comm = comm;
	pw->filtered = thread_filter(rp, t, comm);
	pw->cgroup_dev = t->id < rp->nr_cgns ? rp->cgns[t->id].dev : 0;
	pw->cgroup_ino = t->id < rp->nr_cgns ? rp->cgns[t->id].ino : 0;
	pw->first_frame = 0;
}

/* Pass 1 for a sample (record @p i of the batch): thread, comm and maps, in delivery
 * order. */
static int report_sample(struct report *rp, const struct record_ref *ref, size_t i)
{
	struct sample s;
	struct thread *t;
	struct pending *p;
	int err;

	err = sample__parse(&s, &ref->evsel->attr, ref->data, ref->size);
	if (err)
		return err;
	/* perf's first check, before the sample's thread exists */
	if (time_ranges__skip(rp->time, s.time))
		return 0;
	/* the transaction key prints only the word 0 as perf does (sort.h) */
	if ((rp->sl.need & SORT_NEED_TXN) && s.transaction)
		return session__record_diag(rp->session, ref->file, ref->offset,
					    &rp->trace_diag, -DIAG_BAD_SAMPLE,
					    "transaction flags %#" PRIx64 ": only 0 is "
					    "implemented for the transaction key", s.transaction);
	t = machine__findnew_thread(rp->machine, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	p = pending_take(rp, i);
	machine__resolve_map(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.ip, &p->al);
	p->al.map = NULL;	/* not stable across batches; the copied fields are */
	pending_init(rp, p, t, &s, ref);
	p->comm = thread__comm(t);
	p->filtered = thread_filter(rp, t, p->comm) | dso_filter(rp, p->al.dso);
	if (rp->opts->mem_mode) {
		struct pending_ext *pe = ext_of(rp->cur, p);

		memset(&pe->mem, 0, sizeof(pe->mem));
		/* perf's mem iterator: the sample's cost is its weight, or 1; its data
		 * address is looked up as an ip of the sample's cpumode */
		p->period = s.weight ? s.weight : 1;
		pe->mem.data_src = s.data_src;
		pe->mem.addr = s.addr;
		pe->mem.phys_addr = s.phys_addr;
		pe->mem.page_size = s.data_page_size;
		machine__resolve_map(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.addr,
				     &pe->dal);
		pe->mem.al_addr = pe->dal.addr;
		if (pe->dal.map) {	/* the dcacheline key */
			pe->mem.map_maj = pe->dal.map->maj;
			pe->mem.map_min = pe->dal.map->min;
			pe->mem.map_ino = pe->dal.map->ino;
			pe->mem.map_ino_generation = pe->dal.map->ino_generation;
			pe->mem.map_prot = pe->dal.map->prot;
			pe->mem.map_flags = pe->dal.map->flags;
		}
		pe->dal.map = NULL;
	}
	/* perf drops samples of other cpus after resolving them, and in the branch
	 * view those without a branch stack */
	if (!sample_filter__cpu(&rp->filter, p->cpu) ||
	    (rp->branch_mode && !(s.sample_type & SAMPLE_BRANCH_STACK))) {
		pending_drop(rp, p);
		return 0;
	}
	if (rp->traces && (err = trace_sort__text(rp->traces, ref->evsel, s.raw, s.raw_size,
						  session__file_path(rp->session, ref->file),
						  session__file_offset(rp->session, ref->file, ref->offset),
						  &p->trace, &rp->trace_diag)))
		return err;
	err = want_loaded(rp, p->al.dso, p->cpumode == MISC_USER);
	if (!err && rp->opts->mem_mode)
		err = want_loaded(rp, ext_of(rp->cur, p)->dal.dso, false);
	if (!err && rp->need_chains) {
		if (rp->defer_chains && (rp->kernel_ready || !chain_enters_kernel(&s)))
			err = defer_callchain(rp, t, &s, p);
		else
			err = resolve_callchain(rp, t, &s, ref, p);
	}
	if (!err && rp->branch_mode)
		err = resolve_branches(rp, t, &s, p);
	/* the first kernel sample of a recording makes the kernel's map final */
	if (!err && rp->defer_samples && !rp->kernel_now)
		batch_defer_flags(rp);
	return err;
}

/* Records per pass 0 job. */
#define PREP_CHUNK 512

/*
 * Pass 0 for the records [c * PREP_CHUNK, ...) of the batch, on any worker
 * (report.defer_samples): each sample parsed and its pending sample filled (all but
 * what comes from its thread: report_prepped()), its digest for pass 1 in prep; the
 * other records' pending samples made holes, their MMAPs noted as scan_mmaps() does.
 * Pass 1 then reads the digests, not the records: the samples' cache lines are the
 * workers' to fetch.  Only reads the records and the report's options.
 */
static void prep_one(void *ctx, size_t c)
{
	struct report *rp = ctx;
	struct report_batch *b = rp->cur;
	struct prep_job *job = &rp->prep_jobs[c];
	size_t end = (c + 1) * PREP_CHUNK;

	if (end > rp->nr_recs)
		end = rp->nr_recs;
	job->kernel_maps_end = 0;
	job->load_early = true;
	for (size_t i = c * PREP_CHUNK; i < end; i++) {
		const struct record_ref *ref = rp->recs[i];
		struct prep *pr = &b->prep[i];
		struct pending *p = &b->pending[i];
		struct sample smp;

		if (ref->type == REC_SAMPLE &&
		    !sample__parse(&smp, &ref->evsel->attr, ref->data, ref->size) &&
		    !((rp->sl.need & SORT_NEED_TXN) && smp.transaction)) {
			if (time_ranges__skip(rp->time, smp.time)) {
				pr->kind = PREP_SKIP;
			} else {
				pr->kind = PREP_SAMPLE;
				pr->pid = (int32_t)smp.pid;
				pr->tid = (int32_t)smp.tid;
				pr->kernel = (smp.misc & MISC_CPUMODE_MASK) == MISC_KERNEL ||
					     (rp->need_chains && chain_enters_kernel(&smp));
				pr->chain_nr = (uint32_t)smp.callchain_nr;
				pending_sample(p, &smp, ref);
				p->resolve = true;
				if (rp->need_chains) {	/* defer_callchain() */
					p->deferred = true;
					p->chain = smp.callchain;
					p->chain_nr = pr->chain_nr;
				}
				continue;
			}
		} else if (ref->type == REC_SAMPLE) {
			pr->kind = PREP_SLOW;	/* report_sample() says why */
		} else {
			pr->kind = PREP_RECORD;
			note_mmap_kind(ref, i, &job->load_early, &job->kernel_maps_end);
		}
		/* a hole, unless pass 1 takes the sample over (pending_init()) */
		p->hole = true;
		p->resolve = p->deferred = false;
		p->nr_frames = p->nr_user = p->nr_branches = 0;
	}
}

/* Pass 0 on the workers (prep_one()), then what scan_mmaps() finds, from its jobs. */
static int prep_batch(struct report *rp, const struct record_ref *const *recs, size_t n,
		      bool *load_early, size_t *kernel_maps_end)
{
	size_t jobs = (n + PREP_CHUNK - 1) / PREP_CHUNK;
	int err;

	if (hugemem__grow(&rp->cur->prep, &rp->cur->cap_prep, &rp->cur->prep_mapped, n,
			  sizeof(*rp->cur->prep), n) ||
	    array__grow(&rp->prep_jobs, &rp->cap_prep_jobs, jobs, sizeof(*rp->prep_jobs),
			16))
		return -ENOMEM;
	rp->recs = recs;
	rp->nr_recs = n;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, prep_one, rp)))
		return err;
	*load_early = true;
	*kernel_maps_end = 0;
	for (size_t c = 0; c < jobs; c++) {
		if (!rp->prep_jobs[c].load_early)
			*load_early = false;
		if (rp->prep_jobs[c].kernel_maps_end)
			*kernel_maps_end = rp->prep_jobs[c].kernel_maps_end;
	}
	rp->cur->nr_pending = n;
	return 0;
}

/*
 * Pass 1 for record @p i of a batch that pass 0 made (report.defer_samples): what has
 * to be in delivery order of a sample the workers resolve - its thread, the thread's
 * comm and thread filters (--comms, --pids, --tids) now, a copy of its process's maps
 * now (the time-versioned state: maps__copy()) and, with chains, its frames' slots,
 * all into its pending_walk (the pending sample is pass 0's; resolve_deferred()
 * copies them there).  Pass 1c (walk_one()) resolves its address to its map in that
 * copy, filters its dso and walks its chain - without chains pass 2b (lookup_one())
 * does, before its symbol.  Only where resolving changes nothing in the machine: the
 * sample, and the chain the report walks, out of the kernel, or the kernel's map final
 * and no kernel MMAP in the rest of the batch (a user-only recording never makes its
 * map final), so the order in which samples are resolved does not matter.  A sample
 * that reaches the kernel before that, or that pass 0 could not take, goes through
 * report_sample().
 */
static int report_prepped(struct report *rp, const struct record_ref *const *recs,
			  size_t i)
{
	const struct prep *pr = &rp->cur->prep[i];
	struct pending_walk *pw;
	struct thread *t;
	const char *comm;

	switch (pr->kind) {
	case PREP_SKIP:
		return 0;
	case PREP_SAMPLE:
		if (pr->kernel && !rp->kernel_now)
			return report_sample(rp, recs[i], i);
		break;
	default:
		return report_sample(rp, recs[i], i);
	}
	t = machine__findnew_thread(rp->machine, pr->pid, pr->tid);
	if (!t || !(comm = machine__sample_comm(rp->machine, t)))
		return -ENOMEM;
	pw = &rp->cur->walk[i];
	walk_thread(rp, pw, t, comm);
	keep_maps(rp, t, &rp->cur->pending[i]);
	if (rp->need_chains)	/* pass 1c walks the chain and resolves the sample */
		return reserve_frames(rp, pr->chain_nr, pw);
	rp->cur->to_resolve = true;	/* pass 2b resolves it */
	return 0;
}

/* --tasks: perf's thread__fork() makes the parent's tid the child's ppid. */
static int note_parent(struct report *rp, const struct record_ref *ref)
{
	struct event_fork ev;
	struct thread *t;

	event_fork__decode(ref->data, ref->size, &ev);
	if (ev.nfields < EVENT_FORK_IDS)	/* time is not needed */
		return 0;
	t = machine__find_thread(rp->machine, (int32_t)ev.pid, (int32_t)ev.tid);
	return t ? task_ppids__set(&rp->ppids, t, (int32_t)ev.ptid) : 0;
}

/* --mmaps: a user MMAP/MMAP2's protection, flags and inode, for the map it made. */
static int note_mmap(struct report *rp, const struct record_ref *ref)
{
	bool mmap2 = ref->type == REC_MMAP2;
	struct event_mmap2 mm2 = { 0 };
	struct event_mmap mm = { 0 };
	struct task_mmap tm = { 0 };
	struct addr_location al;
	struct thread *t;
	uint16_t misc;
	int32_t pid, tid;
	uint64_t start, pgoff;

	/* a record too short for its fields and a byte of file name made no map */
	if (mmap2 ? event_mmap2__decode(ref->data, ref->size, &mm2)
		  : event_mmap__decode(ref->data, ref->size, &mm))
		return 0;
	misc = mmap2 ? mm2.misc : mm.misc;
	pid = (int32_t)(mmap2 ? mm2.pid : mm.pid);
	tid = (int32_t)(mmap2 ? mm2.tid : mm.tid);
	start = mmap2 ? mm2.start : mm.start;
	pgoff = mmap2 ? mm2.pgoff : mm.pgoff;
	if ((misc & MISC_CPUMODE_MASK) == MISC_KERNEL)
		return 0;
	t = machine__find_thread(rp->machine, pid, tid);
	if (!t)
		return 0;
	machine__resolve_map(rp->machine, t, MISC_USER, start, &al);
	if (!al.dso)
		return 0;
	tm.dso = al.dso;
	tm.start = al.map_start;
	tm.end = al.map_end;
	tm.rel = al.map_pgoff - al.map_start;
	/* identity maps (anonymous, [stack]) map with pgoff = start; perf prints the
	 * record's pgoff */
	tm.pgoff = al.map_pgoff == al.map_start ? pgoff : al.map_pgoff;
	if (mmap2) {
		tm.prot = mm2.prot;
		tm.flags = mm2.flags;
		/* a build-id MMAP2 has no inode (perf's dso id stays zero): the view's
		 * ino is 0 there */
		tm.ino = mm2.ino;
	} else {
		tm.prot = misc & MISC_MMAP_DATA ? 0 : 4;	/* PROT_EXEC */
	}
	return task_mmaps__add(&rp->mmaps, &tm);
}

static uint64_t ptr_hash(const void *p)
{
	return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ULL;
}

static uint64_t sym_hash(const struct symbol *sym)
{
	return ptr_hash(sym);
}

static uint64_t parent_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return sym_hash(((const struct parent_slot *)slot)->sym);
}

/* The batch's spare array, filled with @p nr frames, becomes its frames. */
static void swap_frames(struct report_batch *b, size_t nr)
{
	struct pending_frame *t = b->frames;
	size_t cap = b->cap_frames, mapped = b->frames_mapped;

	b->frames = b->spare;
	b->cap_frames = b->cap_spare;
	b->frames_mapped = b->spare_mapped;
	b->nr_frames = nr;
	b->spare = t;
	b->cap_spare = cap;
	b->spare_mapped = mapped;
}

/* Pending samples per unwind_one() job. */
#define UNWIND_CHUNK 64

/*
 * Frame k of a pending sample's chain, in cursor order: the frames pass 1 resolved
 * (the recorded chain) and, --call-graph dwarf, the user frames pass 1b unwound, in
 * their chunk's array, where perf's walk puts them (machine__callchain_walk_unwound():
 * before the recorded chain from the caller, after it from the callee).  A chain has
 * nr_frames + nr_user frames.
 */
static struct pending_frame *frame_at(const struct report *rp, const struct report_batch *b,
				      const struct pending *pd, size_t k)
{
	if (pd->nr_user) {
		struct pending_frame *user = b->chunks[(size_t)(pd - b->pending) /
						       UNWIND_CHUNK].frames + pd->first_user;

		if (rp->order == CALLCHAIN_CALLER) {
			if (k < pd->nr_user)
				return &user[k];
			k -= pd->nr_user;
		} else if (k >= pd->nr_frames) {
			return &user[k - pd->nr_frames];
		}
	}
	return &b->frames[pd->first_frame + k];
}

/* A frame of the unwound user stack: resolved to its map in the sample's copy of
 * the maps (only reads: see maps__copy()). */
static int unwound_frame(struct unwind_chunk *c, const struct maps *mp, uint64_t ip)
{
	struct addr_location al;

	if (array__grow(&c->frames, &c->cap, c->nr + 1, sizeof(*c->frames), 256))
		return -ENOMEM;
	maps__resolve_user(mp, ip, &al);
	c->frames[c->nr++] = (struct pending_frame){
		.dso = al.dso, .ip = ip, .addr = al.addr, .map_start = al.map_start,
		.map_end = al.map_end, .map_pgoff = al.map_pgoff, .map_id = al.map_id,
		.level = al.dso ? al.level : 0, .unwound = true,
	};
	return 0;
}

/* Pass 1b for the pending samples [i * UNWIND_CHUNK, ...), on any worker: each
 * one's user stack unwound against its copy of the maps with a free unwinder. */
static void unwind_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct report_batch *b = rp->cur;
	/* filled in a copy of its own, written back at the end: the chunks share cache
	 * lines, and each frame writes nr */
	struct unwind_chunk cc = b->chunks[i], *c = &cc;
	struct unwind_slot *slot = NULL;
	size_t end = (i + 1) * UNWIND_CHUNK;
	struct sample smp = { 0 };	/* the fields the unwinder reads (pass 1 kept
					 * them) */

	c->nr = 0;
	c->err = 0;
	if (end > b->nr_pending)
		end = b->nr_pending;
	/* as many slots as threads can run jobs: one is free */
	for (size_t k = 0; !slot; k = (k + 1) % rp->nr_uw)
		if (!atomic_flag_test_and_set_explicit(&rp->uw[k].busy,
						       memory_order_acquire))
			slot = &rp->uw[k];
	for (size_t k = i * UNWIND_CHUNK; k < end && !c->err; k++) {
		struct pending *pd = &b->pending[k];
		const struct pending_ext *pe = ext_of(b, pd);
		size_t nr = 0;

		if (!pd->unwind)
			continue;
		pd->first_user = c->nr;
		smp.user_regs_abi = pe->regs_abi;
		smp.user_regs_mask = pe->regs_mask;
		smp.user_regs = pe->regs;
		smp.user_stack_size = pe->stack_size;
		smp.user_stack_dyn_size = pe->stack_dyn_size;
		smp.user_stack = pe->stack;
		if ((c->err = unwinder__unwind(slot->u, &pe->maps, &smp, slot->ips,
					       (size_t)rp->max_stack, &nr)))
			continue;
		for (size_t f = 0; f < nr && !pd->chain_dropped && !c->err; f++)
			c->err = unwound_frame(c, &pe->maps,
					       slot->ips[rp->order == CALLCHAIN_CALLER ?
							 nr - f - 1 : f]);
		pd->nr_user = c->nr - pd->first_user;
	}
	atomic_flag_clear_explicit(&slot->busy, memory_order_release);
	b->chunks[i] = cc;
}

/*
 * Pass 1b: the user stacks of the batch's --call-graph dwarf samples unwound on the
 * workers.  Their frames stay in the chunks' arrays (frame_at() reads them in the
 * chain); expand_inlines() writes the chains out whole.
 */
static int unwind_batch(struct report *rp, struct report_batch *b)
{
	size_t nr_chunks = (b->nr_pending + UNWIND_CHUNK - 1) / UNWIND_CHUNK;
	int err;

	if (!b->to_unwind)
		return 0;
	if (array__grow_zeroed(&b->chunks, &b->cap_chunks, nr_chunks, sizeof(*b->chunks), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), nr_chunks, unwind_one, rp)))
		return err;
	for (size_t i = 0; i < nr_chunks; i++)
		if (b->chunks[i].err)
			return b->chunks[i].err;
	for (size_t k = 0; k < b->nr_pending; k++) {
		const struct pending *pd = &b->pending[k];
		const struct pending_frame *user =
			&b->chunks[k / UNWIND_CHUNK].frames[pd->first_user];

		for (size_t f = 0; f < pd->nr_user; f++)
			if ((err = want_loaded(rp, user[f].dso, true)))
				return err;
		b->unwound |= pd->nr_user > 0;
	}
	return 0;
}

/* Samples per lookup_one() job. */
#define LOOKUP_CHUNK 512

/* Pass 2b for the pending samples [i * LOOKUP_CHUNK, ...): those without a chain that
 * pass 1 deferred resolved to their maps (the dsos they found, in rp->walk_jobs[i]),
 * then the symbols of their addresses and frames in loaded dsos (read-only lookups,
 * so on any worker); the rest is left to finish_lookups(), on the main thread, once
 * on_batch() has loaded what they found. */
static void lookup_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	size_t end = (i + 1) * LOOKUP_CHUNK;
	struct walk_job *job = rp->cur->to_resolve ? &rp->walk_jobs[i] : NULL;

	if (end > rp->cur->nr_pending)
		end = rp->cur->nr_pending;
	bool left = false;

	if (job) {
		job->nr = 0;
		job->err = 0;
	}
	for (size_t k = i * LOOKUP_CHUNK; k < end; k++) {
		struct pending *pd = &rp->cur->pending[k];

		if (pd->hole)
			continue;
		if (pd->resolve && job) {
			int err = resolve_deferred(rp, pd, &rp->cur->walk[k], job);

			if (err && !job->err)
				job->err = err;
		}
		pd->sym_done = addr_location__resolve_sym_loaded(&pd->al);
		left |= !pd->sym_done;
		for (size_t j = 0; j < pd->nr_branches; j++) {
			struct pending_branch *pb = &rp->cur->branches[pd->first_branch + j];
			bool from = addr_location__resolve_sym_loaded(&pb->from);

			pb->sym_done = addr_location__resolve_sym_loaded(&pb->to) && from;
			left |= !pb->sym_done;
		}
		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			struct pending_frame *pf = frame_at(rp, rp->cur, pd, j);

			if (pf->dso && !pf->dso->loaded) {
				left = true;
				continue;
			}
			pf->sym = pf->dso ? dso__find_symbol(pf->dso, pf->addr) : NULL;
			pf->sym_done = true;
		}
	}
	if (left)
		atomic_store_explicit(&rp->cur->leftover, true, memory_order_relaxed);
}

/* Pass 2b: lookup_one() on the workers, then the dsos of the samples it resolved
 * loaded (want_found(), finish_loads()) for finish_lookups(). */
static int lookup_batch(struct report *rp)
{
	size_t jobs = (rp->cur->nr_pending + LOOKUP_CHUNK - 1) / LOOKUP_CHUNK;
	int err;

	if (rp->cur->to_resolve &&
	    array__grow_zeroed(&rp->walk_jobs, &rp->cap_walk_jobs, jobs,
			       sizeof(*rp->walk_jobs), 16))
		return -ENOMEM;
	if ((err = parallel_for(session__workqueue(rp->session), jobs, lookup_one, rp)))
		return err;
	if (!rp->cur->to_resolve)
		return 0;
	if ((err = want_found(rp, jobs)))
		return err;
	return finish_loads(rp);
}

/* Pass 2c, on this thread (it may load): what pass 2 left (a dso pass 2b found and
 * lookup_batch() loaded only after it, a dso whose loading failed for memory - loaded
 * again here), and --mem-mode's data symbols.  After it
 * every symbol of the batch is known: pass 3 only reads. */
static void finish_lookups(struct report *rp, struct report_batch *b)
{
	if (!atomic_load(&b->leftover) && !rp->opts->mem_mode)
		return;
	for (size_t k = 0; k < b->nr_pending; k++) {
		struct pending *pd = &b->pending[k];

		if (pd->hole)
			continue;
		if (!pd->sym_done)
			addr_location__resolve_sym(&pd->al);
		pd->sym_done = true;
		if (rp->opts->mem_mode)
			addr_location__resolve_sym(&ext_of(b, pd)->dal);
		for (size_t j = 0; j < pd->nr_branches; j++) {
			struct pending_branch *pb = &b->branches[pd->first_branch + j];

			if (!pb->sym_done) {
				addr_location__resolve_sym(&pb->from);
				addr_location__resolve_sym(&pb->to);
			}
			pb->sym_done = true;
		}
		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			struct pending_frame *pf = frame_at(rp, b, pd, j);

			if (!pf->sym_done)
				pf->sym = pf->dso ? dso__find_symbol(pf->dso, pf->addr) : NULL;
			pf->sym_done = true;
		}
	}
}

static uint64_t inline_sym_hash(const void *ctx, const void *slot)
{
	const struct inline_sym *is = slot;

	(void)ctx;
	return sym_hash(is->base) ^ str__hash(is->name);
}

/* perf's new_inline_sym(): the frame's own symbol for its own name, else a symbol of
 * that name over the same range marked inlined, one per (symbol, name); NULL on
 * ENOMEM. */
static const struct symbol *inline_sym(struct report *rp, const struct symbol *base,
				       const char *name, size_t len)
{
	char buf[1024];
	struct inline_sym *is;
	size_t i;

	snprintf(buf, sizeof(buf), "%.*s", (int)len, name);
	if (!strcmp(buf, base->name))
		return base;
	name = strtab__intern(&rp->inl_names, buf);
	if (!name || hashtab__reserve(&rp->inl_syms, &rp->inl_cap, rp->nr_inl,
				      sizeof(*rp->inl_syms), 256, inline_sym_hash, NULL))
		return NULL;
	i = hashtab__first(sym_hash(base) ^ str__hash(name), rp->inl_cap);
	for (; (is = &rp->inl_syms[i])->sym; i = hashtab__next(i, rp->inl_cap))
		if (is->base == base && is->name == name)
			return &is->sym->sym;
	is->sym = malloc(sizeof(*is->sym));
	if (!is->sym)
		return NULL;
	*is->sym = (struct inline_symbol){
		.sym = { .start = base->start, .end = base->end, .name = name,
			 .binding = base->binding, .type = base->type, .inlined = 1 },
		.base = base,
	};
	is->base = base;
	is->name = name;
	rp->nr_inl++;
	return &is->sym->sym;
}

/* An inline record's FILE:LINE, interned. */
static const char *inline_where(struct report *rp, const char *w, size_t len)
{
	char buf[4096];

	snprintf(buf, sizeof(buf), "%.*s", (int)len, w);
	return strtab__intern(&rp->inl_names, buf);
}

static uint64_t inl_dso_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ptr_hash(((const struct inl_dso *)slot)->dso);
}

/* The inline state of a dso, made on first use; NULL on ENOMEM. */
static struct inl_dso *inl_dso_of(struct report *rp, const struct dso *dso)
{
	size_t i;
	struct inl_dso *d;

	if (hashtab__reserve(&rp->inl_dsos, &rp->inl_dsos_cap, rp->nr_inl_dsos,
			     sizeof(*rp->inl_dsos), 64, inl_dso_hash, NULL))
		return NULL;
	i = hashtab__first(ptr_hash(dso), rp->inl_dsos_cap);
	for (; (d = &rp->inl_dsos[i])->dso; i = hashtab__next(i, rp->inl_dsos_cap))
		if (d->dso == dso)
			return d;
	if (srclines__new(&d->sl))
		return NULL;
	d->dso = dso;
	rp->nr_inl_dsos++;
	return d;
}

/* Pass 2d for one dso with frames in the batch, on any worker: their inlined
 * functions looked up in the dso's own srclines (one job per dso at a time). */
static void inline_one(void *ctx, size_t i)
{
	struct report *rp = ctx;
	struct inl_dso *d = rp->inl_busy[i];

	for (size_t k = 0; k < d->nr_todo; k++) {
		struct pending_frame *pf = d->todo[k];

		pf->inl_text = srclines__inlines(d->sl, pf->dso, pf->addr);
		if (!pf->inl_text) {
			atomic_store(&rp->inl_err, -ENOMEM);
			return;
		}
	}
}

/*
 * Pass 2d: the inlined functions of every unwound frame with a symbol (perf's
 * append_inlines() asks addr2line -i), looked up on the workers a dso per job: the
 * DWARF of each file is read there, and each dso's answers are memoized in its own
 * srclines.  expand_inlines() reads them.
 */
static int lookup_inlines(struct report *rp, struct report_batch *b)
{
	int err;

	if (!b->unwound)
		return 0;
	rp->nr_inl_busy = 0;
	for (size_t k = 0; k < b->nr_pending; k++) {
		const struct pending *pd = &b->pending[k];

		for (size_t j = 0; j < pd->nr_user; j++) {
			struct pending_frame *pf = frame_at(rp, b, pd, rp->order ==
							    CALLCHAIN_CALLER ? j : pd->nr_frames + j);
			struct inl_dso *d;

			pf->inl_text = NULL;
			if (!pf->sym || !pf->dso)
				continue;
			if (!(d = inl_dso_of(rp, pf->dso)))
				return -ENOMEM;
			if (!d->nr_todo &&
			    array__grow(&rp->inl_busy, &rp->cap_inl_busy, rp->nr_inl_busy + 1,
					sizeof(*rp->inl_busy), 16))
				return -ENOMEM;
			if (!d->nr_todo)
				rp->inl_busy[rp->nr_inl_busy++] = d;
			if (array__grow(&d->todo, &d->cap_todo, d->nr_todo + 1,
					sizeof(*d->todo), 256))
				return -ENOMEM;
			d->todo[d->nr_todo++] = pf;
		}
	}
	atomic_store(&rp->inl_err, 0);
	workqueue__group_wait(session__workqueue(rp->session), &rp->dwarf);
	err = parallel_for(session__workqueue(rp->session), rp->nr_inl_busy, inline_one, rp);
	for (size_t i = 0; i < rp->nr_inl_busy; i++)
		rp->inl_busy[i]->nr_todo = 0;
	return err ? err : atomic_load(&rp->inl_err);
}

/*
 * Pass 3's first step (the counter thread, or this one without workers): perf's
 * append_inlines() for the unwound frames (only those: machine.c's unwind_entry())
 * that have a symbol: each becomes one frame per function addr2line -i names at its
 * address (looked up in pass 2d), in the cursor's order (the innermost first from
 * the callee).  The batch's chains, unwound frames included, are written out into
 * its spare array, which becomes its frames.
 */
static int expand_inlines(struct report *rp, struct report_batch *b)
{
	size_t out = 0;

	if (!b->unwound)
		return 0;
	for (size_t k = 0; k < b->nr_pending; k++) {
		struct pending *pd = &b->pending[k];
		size_t first = out;

		for (size_t j = 0; j < pd->nr_frames + pd->nr_user; j++) {
			const struct pending_frame *pf = frame_at(rp, b, pd, j);
			const char *text = pf->unwound && pf->inl_text ? pf->inl_text : "";
			struct inline_record rec[INLINE_RECORDS_MAX];
			size_t n;

			n = srclines__inline_records(text, rec, INLINE_RECORDS_MAX);
			if (hugemem__grow(&b->spare, &b->cap_spare, &b->spare_mapped,
					  out + (n ? n : 1), sizeof(*b->spare), 4096))
				return -ENOMEM;
			if (!n) {
				b->spare[out++] = *pf;
				continue;
			}
			for (size_t m = 0; m < n; m++) {
				size_t x = rp->order == CALLCHAIN_CALLER ? n - 1 - m : m;
				const struct symbol *sym = inline_sym(rp, pf->sym, rec[x].name,
								      rec[x].name_len);

				if (!sym)
					return -ENOMEM;
				b->spare[out] = *pf;
				b->spare[out].sym = sym;
				/* perf's node srcline: the record's place */
				b->spare[out].srcline = inline_where(rp, rec[x].where,
								     rec[x].where_len);
				if (!b->spare[out++].srcline)
					return -ENOMEM;
			}
		}
		pd->first_frame = first;
		pd->nr_frames = out - first;
		pd->nr_user = 0;	/* written out with the others */
	}
	swap_frames(b, out);
	return 0;
}

/* perf's symbol__match_regex() on the parent regex, remembered per symbol; -1 on
 * ENOMEM. */
static int parent_match(struct report *rp, const struct symbol *sym)
{
	size_t i;

	if (hashtab__reserve(&rp->parent_cache, &rp->parent_cap, rp->nr_parent,
			     sizeof(*rp->parent_cache), 256, parent_slot_hash, NULL))
		return -1;
	i = hashtab__first(sym_hash(sym), rp->parent_cap);
	for (; rp->parent_cache[i].sym; i = hashtab__next(i, rp->parent_cap))
		if (rp->parent_cache[i].sym == sym)
			return rp->parent_cache[i].match;
	rp->parent_cache[i].sym = sym;
	rp->parent_cache[i].match = !regexec(&rp->parent_re, symbol__name(sym), 0, NULL, 0);
	rp->nr_parent++;
	return rp->parent_cache[i].match;
}

/* The chain node of a pending sample's frames, and their addresses (into ips); *nr
 * receives how many frames it has (with -U perf leaves out the unresolved ones:
 * add_callchain_ip), *parent the first resolved frame, in cursor order, that matches
 * the parent regex (perf's add_callchain_ip; NULL without the parent key). */
static int intern_chain(struct report *rp, const struct report_batch *b,
			const struct pending *pd, uint32_t *node,
			uint64_t *ips, uint32_t *nr, const struct symbol **parent)
{
	*node = CALLCHAIN_ROOT;
	*nr = 0;
	*parent = NULL;
	for (size_t k = 0; k < pd->nr_frames + pd->nr_user; k++) {
		const struct pending_frame *pf = frame_at(rp, b, pd, k);
		struct cc_frame f = {
			.dso = pf->dso, .ip = pf->ip, .level = pf->level,
			.map_start = pf->map_start, .map_end = pf->map_end,
			.map_pgoff = pf->map_pgoff,
		};

		f.sym = pf->sym;	/* looked up in pass 2 */
		if (!f.sym && rp->opts->hide_unresolved)
			continue;
		ips[(*nr)++] = pf->ip;
		/* perf matches the parent regex in add_callchain_ip() only, not in the
		 * unwound entries (unwind_entry()) */
		if (f.sym && rp->parent_on && !*parent && !pf->unwound) {
			int m = parent_match(rp, f.sym);

			if (m < 0)
				return -ENOMEM;
			if (m)
				*parent = f.sym;
		}
		if (f.sym)
			f.sym_unmapped_start = pf->map_start + f.sym->start - pf->map_pgoff;
		if (f.sym && f.sym->inlined)	/* see cc_frame.map_id */
			f.map_id = pf->map_id;
		if (pf->srcline && (rp->opts->cc.key != CALLCHAIN_KEY_FUNCTION ||
				    ((rp->sl.need & SORT_NEED_SRCLINE) && f.sym->inlined))) {
			/* an inline record's place (with the function key only an
			 * inlined function's: its frames match by name anyway) */
			f.srcline = pf->srcline;
		} else if (rp->opts->cc.key != CALLCHAIN_KEY_FUNCTION && pf->dso) {
			int err;

			f.srcline = srclines__callchain(rp->srclines, pf->dso, f.sym, pf->addr,
						       rp->opts->cc.key == CALLCHAIN_KEY_ADDRESS,
						       &err);
			if (err)
				return err;
		}
		if (callchains__append(rp->chains, *node, &f, node))
			return -ENOMEM;
	}
	return 0;
}

/* One end of a pending branch as its entries keep it. */
static struct hist_branch_end branch_end(const struct addr_location *al, uint64_t ip)
{
	return (struct hist_branch_end){
		.dso = al->dso, .sym = al->sym, .addr = ip, .al_addr = al->addr,
		.sym_unmapped_start = al->sym_unmapped_start, .level = al->level,
	};
}

/*
 * Branch view: the sample counted once per branch (perf's hist_iter_branch), each
 * time as its branch's target (perf's al: map, symbol and the raw address), with a
 * period of 1 and, as perf's iterator leaves it, the first branch's cycles (or 1) as
 * its weight; no call graph.  -U skips branches with an unresolved end.
 */
static int count_branches(struct report *rp, const struct report_batch *b,
			  const struct pending *pd,
			  struct hist_sample *hs)
{
	struct hist_branch hb;
	int err = 0;

	hs->chain = CALLCHAIN_ROOT;
	hs->ips = NULL;
	hs->nr_ips = 0;
	hs->period = 1;
	hs->weight = 1;
	if (pd->nr_branches && branch_flags__cycles(b->branches[pd->first_branch].flags))
		hs->weight = branch_flags__cycles(b->branches[pd->first_branch].flags);
	hs->branch = &hb;
	for (size_t i = 0; i < pd->nr_branches && !err; i++) {
		const struct pending_branch *pb = &b->branches[pd->first_branch + i];

		if (rp->opts->hide_unresolved && !(pb->from.sym && pb->to.sym))
			continue;
		hb = (struct hist_branch){
			.from = branch_end(&pb->from, pb->from_ip),
			.to = branch_end(&pb->to, pb->to_ip), .flags = pb->flags,
		};
		hs->dso = pb->to.dso;
		hs->sym = pb->to.sym;
		hs->addr = pb->to_ip;
		hs->sym_unmapped_start = pb->to.sym_unmapped_start;
		hs->map_start = pb->to.dso ? pb->to.map_start : 0;
		hs->map_end = pb->to.dso ? pb->to.map_end : 0;
		hs->map_pgoff = pb->to.dso ? pb->to.map_pgoff : 0;
		err = hists__add(&rp->hists[pd->evsel_idx], hs);
	}
	return err;
}

/* Pass 3 for a sample: its symbol (and its frames'), its chain, counted. */
static int count_sample(struct report *rp, const struct report_batch *b,
			struct pending *pd)
{
	struct hist_sample hs;
	int err = 0;

	if (rp->opts->hide_unresolved && !pd->al.sym)
		return 0;
	if (rp->opts->mem_mode) {	/* dal's symbol: finish_lookups() */
		struct pending_ext *pe = ext_of(b, pd);

		pe->mem.dso = pe->dal.dso;
		pe->mem.sym = pe->dal.sym;
		pe->mem.sym_unmapped_start = pe->dal.sym_unmapped_start;
	}
	hs = (struct hist_sample){
		.comm = pd->comm,
		.dso = pd->al.dso,
		.sym = pd->al.sym,
		.addr = pd->al.addr,
		.sym_unmapped_start = pd->al.sym_unmapped_start,
		.map_start = pd->al.dso ? pd->al.map_start : 0,
		.map_end = pd->al.dso ? pd->al.map_end : 0,
		.map_pgoff = pd->al.dso ? pd->al.map_pgoff : 0,
		.time = rp->time_quantum ? pd->time / rp->time_quantum *
					       rp->time_quantum : pd->time,
		.weight = pd->weight,
		.cgroup = pd->cgroup,
		.code_page_size = pd->code_page_size,
		.cgroup_dev = pd->cgroup_dev,
		.cgroup_ino = pd->cgroup_ino,
		.ins_lat = pd->ins_lat,
		.p_stage_cyc = pd->p_stage_cyc,
		.trace = pd->trace,
		.cpu = pd->cpu,
		.socket = socket_of(rp, pd->cpu),
		.level = pd->al.level,
		.cpumode = pd->cpumode,
		.thread = pd->thread,
		.period = pd->period,
		.filtered = pd->filtered |
			    (sample_filter__symbol(&rp->filter, &pd->al, pd->ip) ? FILTER_SYMBOL : 0),
	};
	if (rp->opts->mem_mode)	/* else none (zeros) */
		hs.mem = &ext_of(b, pd)->mem;
	if (pd->nr_frames + pd->nr_user) {
		err = grow_ips(rp, pd->nr_frames + pd->nr_user);
		if (!err)
			err = intern_chain(rp, b, pd, &hs.chain, rp->ips, &hs.nr_ips,
					   &hs.parent);
		hs.ips = rp->ips;
	}
	/* perf's symbol__parent_filter(): -x hides entries without a parent
	 * match (without the parent key no entry has one) */
	if (rp->opts->exclude_other && !hs.parent)
		hs.filtered |= FILTER_PARENT;
	if (!err && rp->branch_mode)
		err = count_branches(rp, b, pd, &hs);
	else if (!err)
		err = hists__add(&rp->hists[pd->evsel_idx], &hs);
	return err;
}

/* Pass 3 for a batch: its samples counted, in order. */
/* Pass 3 of a batch: its unwound frames expanded into their inlined functions
 * (which may read DWARF: on the counter thread, beside the next batch's passes 1-2),
 * then its samples counted. */
static int count_batch(struct report *rp, struct report_batch *b)
{
	int err = expand_inlines(rp, b);

	for (size_t i = 0; i < b->nr_pending && !err; i++)
		if (!b->pending[i].hole)
			err = count_sample(rp, b, &b->pending[i]);
	/* nothing for a histogram not replayed live (live_setup()); with a replayer
	 * (counter_start()) that thread replays them */
	for (size_t i = 0; i < session__evlist(rp->session)->nr && !err &&
			   !rp->replayer; i++) {
		err = hists__live_replay(&rp->hists[i], rp->hists[i].nr_steps);
		if (!err && rp->drop_steps)
			hists__drop_replayed(&rp->hists[i]);
	}
	return err;
}

/*
 * The counter: pass 3 (chains, histograms) on a thread of its own, one batch behind
 * the thread that resolves (passes 1 and 2), which meanwhile resolves the next batch
 * into the other buffer.  Pass 3 only reads what passes 1 and 2 made (every symbol is
 * known: finish_lookups()) and alone writes the chains, histograms, parent cache and
 * srclines, so the two overlap without locks but this handover.
 */
struct counter {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	struct report *rp;
	struct report_batch *job;	/* handed over, not counted yet; NULL: idle */
	bool quit;
	int err;			/* the first error of pass 3 */
	/*
	 * The replayer: perf's entry trees replayed (hists__live_replay()) on a
	 * thread of its own, behind the counter, which meanwhile counts the next
	 * batches into room reserved before (hists__reserve(),
	 * callchains__reserve()): the replay reads the samples and chains counted so
	 * far, which the counting then moves nowhere.  After each batch the counter
	 * publishes how far it counted (replay_hand()), and the replayer goes on to
	 * there once it is done; the two meet only where the room runs out
	 * (replay_room(): room for up to REPLAY_AHEAD batches is made at a time).  They
	 * met before each batch, and each then waited for the other about a third
	 * of the time (the file's --stdio: the counter 150 ms for the replayer, the
	 * calling thread 240 ms for the counter).  Not with --call-graph dwarf,
	 * whose inlined frames are made while a batch is counted (the counter
	 * replays then).
	 */
	bool replayer;			/* the thread runs */
	pthread_t rthread;
	pthread_mutex_t rmu;
	pthread_cond_t rcv;
	size_t *upto;			/* per event: replay up to this sample (the
					 * samples counted so far) */
	size_t *rupto;			/* the replayer's copy of upto */
	size_t ahead;			/* batches of steps replay_room() makes room
					 * for (the counter's) */
	bool rbusy, rquit;
	int rerr;			/* the first error of the replay */
};

static void *replayer_main(void *arg)
{
	struct counter *c = arg;
	size_t nr = session__evlist(c->rp->session)->nr;

	(void)pthread_setname_np(pthread_self(), "dr-replayer");	/* for perf, top, gdb */
	pthread_mutex_lock(&c->rmu);
	for (;;) {
		bool more = false;
		int err = 0;

		while (!c->rbusy && !c->rquit)
			pthread_cond_wait(&c->rcv, &c->rmu);
		if (!c->rbusy)
			break;
		memcpy(c->rupto, c->upto, nr * sizeof(*c->rupto));
		pthread_mutex_unlock(&c->rmu);
		for (size_t i = 0; i < nr && !err; i++)
			err = hists__live_replay(&c->rp->hists[i], c->rupto[i]);
		pthread_mutex_lock(&c->rmu);
		if (err && !c->rerr)
			c->rerr = err;
		/* the batches counted meanwhile, if any, at once */
		for (size_t i = 0; i < nr && !err; i++)
			more |= c->upto[i] != c->rupto[i];
		if (!more) {
			c->rbusy = false;
			pthread_cond_broadcast(&c->rcv);
		}
	}
	pthread_mutex_unlock(&c->rmu);
	return NULL;
}

/* Wait for the replayer (its error, if any). */
static int replay_wait(struct counter *c)
{
	int err;

	pthread_mutex_lock(&c->rmu);
	while (c->rbusy)
		pthread_cond_wait(&c->rcv, &c->rmu);
	err = c->rerr;
	pthread_mutex_unlock(&c->rmu);
	return err;
}

/* Before counting batch b: room for its samples and chains.  Where the room made
 * before holds them, the replayer goes on meanwhile; else, once it is idle, the
 * steps it replayed are let go and room made: for the steps of c->ahead batches
 * like b (8 bytes a sample), and for the new groups and chains of GROUPS_AHEAD
 * (their arrays grow by doubling, so they run out of room seldom).  With room for
 * one batch at a time the two threads met before each batch, each waiting for the
 * other about a third of the time; with 4 batches the counter still waited for the
 * replayer to catch up every 4 (150 ms for the file's --stdio); with 64, 12-40 ms.
 * c->ahead starts at REPLAY_AHEAD_FIRST (4) and becomes REPLAY_AHEAD the first
 * time the replayer is still busy when the room runs out: a replayer that keeps up
 * (the flat report's) keeps 4 batches of steps, not 64 (8 MB of 8192-sample batches
 * when a step took 16 bytes: the file's flat report 70 -> 64 MB peak RSS).
 * (Doubling from 4 instead took most of the file's 66 batches to get there: its
 * --stdio was 2-5 % slower.) */
#define REPLAY_AHEAD_FIRST 4
#define REPLAY_AHEAD 64
#define GROUPS_AHEAD 4

static int replay_room(struct counter *c, const struct report_batch *b)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr, nr_ips = 0;
	bool room;
	int err;

	/* the steps the replayer is done with let go while it is idle: a replayer that
	 * keeps up leaves few, so the same pages hold the next batches' */
	if (rp->drop_steps) {
		bool idle;

		pthread_mutex_lock(&c->rmu);
		idle = !c->rbusy;
		pthread_mutex_unlock(&c->rmu);
		for (size_t i = 0; i < nr && idle; i++)
			hists__drop_replayed(&rp->hists[i]);
	}
	for (size_t i = 0; i < b->nr_pending; i++)
		if (!b->pending[i].hole)
			nr_ips += b->pending[i].nr_frames + b->pending[i].nr_user;
	room = !rp->chains || callchains__has_room(rp->chains, nr_ips);
	for (size_t i = 0; i < nr && room; i++)
		room = hists__has_room(&rp->hists[i], b->nr_pending, nr_ips);
	if (room)
		return 0;
	pthread_mutex_lock(&c->rmu);
	if (c->rbusy)
		c->ahead = REPLAY_AHEAD;
	pthread_mutex_unlock(&c->rmu);
	err = replay_wait(c);
	for (size_t i = 0; i < nr && !err; i++) {
		if (rp->drop_steps)	/* the replayer is idle */
			hists__drop_replayed(&rp->hists[i]);
		err = hists__reserve(&rp->hists[i], GROUPS_AHEAD * b->nr_pending,
				     GROUPS_AHEAD * nr_ips);
		if (!err)
			err = hists__reserve_steps(&rp->hists[i],
						   c->ahead * b->nr_pending);
	}
	if (!err && rp->chains)
		err = callchains__reserve(rp->chains, GROUPS_AHEAD * nr_ips);
	return err;
}

/* After counting a batch: the samples counted so far to the replayer (which takes
 * them once it is done with those it has, or at once when idle). */
static void replay_hand(struct counter *c)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr;

	pthread_mutex_lock(&c->rmu);
	for (size_t i = 0; i < nr; i++)
		c->upto[i] = rp->hists[i].nr_steps;
	if (!c->rbusy) {
		c->rbusy = true;
		pthread_cond_broadcast(&c->rcv);
	}
	pthread_mutex_unlock(&c->rmu);
}

/* Start the replayer beside counter c when some histogram is replayed live;
 * without it (no memory, no thread) the counter replays. */
static void replayer_start(struct counter *c)
{
	struct report *rp = c->rp;
	size_t nr = session__evlist(rp->session)->nr;
	bool live = false;

	for (size_t i = 0; i < nr; i++)
		live |= rp->hists[i].live != NULL;
	if (!live || rp->unwinder || !(c->upto = calloc(nr ? nr : 1, sizeof(*c->upto))))
		return;
	if (!(c->rupto = calloc(nr ? nr : 1, sizeof(*c->rupto)))) {
		free(c->upto);
		c->upto = NULL;
		return;
	}
	pthread_mutex_init(&c->rmu, NULL);
	pthread_cond_init(&c->rcv, NULL);
	if (pthread_create(&c->rthread, NULL, replayer_main, c)) {
		pthread_mutex_destroy(&c->rmu);
		pthread_cond_destroy(&c->rcv);
		free(c->upto);
		free(c->rupto);
		c->upto = c->rupto = NULL;
		return;
	}
	c->ahead = REPLAY_AHEAD_FIRST;
	c->replayer = true;
	rp->replayer = true;
}

/* Stop the replayer (after the counter): its error, if any. */
static int replayer_stop(struct counter *c)
{
	int err;

	if (!c->replayer)
		return 0;
	err = replay_wait(c);
	pthread_mutex_lock(&c->rmu);
	c->rquit = true;
	pthread_cond_broadcast(&c->rcv);
	pthread_mutex_unlock(&c->rmu);
	pthread_join(c->rthread, NULL);
	pthread_mutex_destroy(&c->rmu);
	pthread_cond_destroy(&c->rcv);
	free(c->upto);
	free(c->rupto);
	c->replayer = false;
	c->rp->replayer = false;
	return err;
}

static void *counter_main(void *arg)
{
	struct counter *c = arg;

	(void)pthread_setname_np(pthread_self(), "dr-counter");	/* for perf, top, gdb */
	pthread_mutex_lock(&c->mu);
	for (;;) {
		struct report_batch *b;
		int err;

		while (!c->job && !c->quit)
			pthread_cond_wait(&c->cv, &c->mu);
		if (!c->job)
			break;
		b = c->job;
		pthread_mutex_unlock(&c->mu);
		err = c->err || !c->replayer ? 0 : replay_room(c, b);
		if (!err)
			err = c->err ? 0 : count_batch(c->rp, b);
		if (!err && !c->err && c->replayer)
			replay_hand(c);
		pthread_mutex_lock(&c->mu);
		if (err && !c->err)
			c->err = err;
		c->job = NULL;
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return NULL;
}

/* Start the counter; 0 with none (no workers, or no thread: pass 3 stays here). */
static int counter_start(struct report *rp)
{
	struct counter *c;

	if (!workqueue__nr_workers(session__workqueue(rp->session)))
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->rp = rp;
	pthread_mutex_init(&c->mu, NULL);
	pthread_cond_init(&c->cv, NULL);
	replayer_start(c);
	if (pthread_create(&c->thread, NULL, counter_main, c)) {
		replayer_stop(c);
		pthread_mutex_destroy(&c->mu);
		pthread_cond_destroy(&c->cv);
		free(c);
		return 0;
	}
	rp->counter = c;
	return 0;
}

/* Hand the current batch to the counter (once it is done with the other one), and
 * resolve the next batch into the other buffer; the counter's error, if any. */
static int counter_hand(struct report *rp)
{
	struct counter *c = rp->counter;
	int err;

	pthread_mutex_lock(&c->mu);
	while (c->job && !c->err)
		pthread_cond_wait(&c->cv, &c->mu);
	err = c->err;
	if (!err) {
		c->job = rp->cur;
		rp->cur = rp->cur == &rp->batch[0] ? &rp->batch[1] : &rp->batch[0];
		pthread_cond_broadcast(&c->cv);
	}
	pthread_mutex_unlock(&c->mu);
	return err;
}

/* Wait for the last batch, stop the counter; its error, if any. */
static int counter_stop(struct report *rp)
{
	struct counter *c = rp->counter;
	int err, rerr;

	if (!c)
		return 0;
	pthread_mutex_lock(&c->mu);
	while (c->job)
		pthread_cond_wait(&c->cv, &c->mu);
	c->quit = true;
	pthread_cond_broadcast(&c->cv);
	pthread_mutex_unlock(&c->mu);
	pthread_join(c->thread, NULL);
	err = c->err;
	rerr = replayer_stop(c);
	if (!err)
		err = rerr;
	pthread_mutex_destroy(&c->mu);
	pthread_cond_destroy(&c->cv);
	free(c);
	rp->counter = NULL;
	return err;
}

/*
 * A batch in three passes: (1) replay side-band records and resolve each sample's
 * thread and maps, in order (or keep a copy of its maps for pass 1c or 2b: see
 * report_prepped()); (2) load the symbol tables this batch needs, one dso per worker,
 * then look the symbols of samples and frames up in chunks on the workers; (3) count,
 * in order.
 */
static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct report *rp = p;
	struct sample s;
	size_t kernel_maps_end;
	int err = 0;

	/* refilled for this batch: nothing of the last one's is kept (nor copied) */
	if (hugemem__grow_discard(&rp->cur->pending, &rp->cur->cap_pending,
				  &rp->cur->pending_mapped, n, sizeof(*rp->cur->pending), n) ||
	    (rp->need_ext && hugemem__grow_discard(&rp->cur->ext, &rp->cur->cap_ext,
						   &rp->cur->ext_mapped, n,
						   sizeof(*rp->cur->ext), n)) ||
	    (rp->need_walk && hugemem__grow_discard(&rp->cur->walk, &rp->cur->cap_walk,
						    &rp->cur->walk_mapped, n,
						    sizeof(*rp->cur->walk), n)))
		return -ENOMEM;
	rp->cur->nr_pending = 0;
	rp->cur->nr_frames = 0;
	rp->cur->nr_branches = 0;
	rp->cur->unwound = false;
	rp->cur->to_unwind = false;
	rp->cur->deferred = false;
	rp->cur->to_resolve = false;
	atomic_store(&rp->cur->leftover, false);
	if (rp->need_ext || rp->need_walk)	/* the last batch's copies of maps
						 * are done with */
		machine__release_maps(rp->machine);
	if (rp->defer_samples)
		err = prep_batch(rp, recs, n, &rp->load_early, &kernel_maps_end);
	else
		scan_mmaps(recs, n, &rp->load_early, &kernel_maps_end);
	if (err)
		return err;
	rp->kernel_maps_kept = kernel_maps_end == 0;
	batch_defer_flags(rp);
	if (!rp->preloaded) {	/* main.c left the kernel symbols job to us */
		phases__mark("first batch's pass 0");
		machine__wait_preload(rp->machine);
		phases__mark("kernel symbols wait");
		rp->preloaded = true;
	}
	rp->nr_to_load = 0;
	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		if (i && i == kernel_maps_end) {	/* the kernel's maps are final */
			rp->kernel_maps_kept = true;
			batch_defer_flags(rp);
		}
		if (rp->defer_samples && rp->cur->prep[i].kind != PREP_RECORD) {
			err = report_prepped(rp, recs, i);
			continue;
		}
		switch (ref->type) {
		case REC_SAMPLE:
			err = report_sample(rp, ref, i);
			break;
		case REC_READ: {
			/* perf's process_read_event(): pid, tid, value */
			struct event_read rv;

			event_read__decode(ref->data, ref->size, &rv);
			if (rp->threads && ref->evsel && rv.nfields >= 3)
				err = read_values__add(rp->threads, rv.pid, rv.tid,
						       ref->evsel->idx,
						       evsel__name(ref->evsel), rv.value);
			break;
		}
		case REC_CGROUP:
			err = cgroup_add(rp, ref);
			break;
		case REC_NAMESPACES:
			err = note_namespaces(rp, ref);
			break;
		case REC_HEADER_TRACING_DATA:	/* pipe mode */
			if (rp->traces)
				err = trace_sort__load_record(rp->traces, ref,
							      session__file_offset(rp->session,
										   ref->file,
										   ref->offset),
							      &rp->trace_diag);
			break;
		case REC_LOST_SAMPLES: {
			struct event_lost_samples ls;

			if (!event_lost_samples__decode(ref->data, ref->size, &ls))
				rp->total_lost_samples += ls.lost;
			break;
		}
		case REC_COMM:
		case REC_FORK:
		case REC_MMAP:
		case REC_MMAP2:
			sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
			err = machine__process(rp->machine, ref, &s);
			if (!err && ref->type == REC_FORK && rp->opts->tasks)
				err = note_parent(rp, ref);
			if (!err && ref->type != REC_FORK && ref->type != REC_COMM &&
			    rp->opts->mmaps)
				err = note_mmap(rp, ref);
			break;
		default:
			break;
		}
	}
	if (!err && rp->cur->deferred)
		err = walk_deferred(rp);
	/* pass 1b reads the files of the dsos a load may be writing */
	if (!err)
		err = finish_loads(rp);
	if (!err)
		err = unwind_batch(rp, rp->cur);
	if (!err)
		err = finish_loads(rp);
	if (!err && rp->cur->nr_pending)
		err = lookup_batch(rp);
	if (err)
		return err;
	finish_lookups(rp, rp->cur);
	if ((err = lookup_inlines(rp, rp->cur)))
		return err;
	if (rp->counter)
		return counter_hand(rp);
	return count_batch(rp, rp->cur);
}

/* The keys and columns (main() has checked the options). */
static int report_sort_setup(struct report *rp, const struct report_opts *o,
			     bool callchains)
{
	struct sort_opts so = {
		.sort_order = o->sort, .field_order = o->fields,
		/* perf's get_default_sort_order() */
		.default_order = trace_sort__default_is_trace(session__evlist(rp->session),
							      session__is_pipe(rp->session))
				 ? "trace" : NULL,
		.col_widths = o->col_widths, .field_sep = o->field_sep,
		.children = callchains && o->children != 0 && !o->mem_mode,
		.no_children = o->children == 0 && !o->children_cancelled,
		.mem_mode = o->mem_mode,
		.branch_mode = rp->branch_mode,
		.show_nr_samples = o->show_nr_samples,
		.show_total_period = o->show_total_period,
		.comm_list = o->comms, .dso_list = o->dsos, .sym_list = o->symbols,
		.nanosecs = o->nanosecs,
		.total_order = !o->perf_compat,
		.has_callchains = callchains,
		.parent_key = o->parent != NULL,
		.verbose = o->verbose && !o->quiet,	/* perf: -q overrides -v */
	};
	char msg[256] = "";

	if (sort_list__setup(&rp->sl, &so, msg, sizeof(msg))) {
		fprintf(stderr, "dirreport: %s\n", msg);
		return CMD_ERR_REPORTED;
	}
	/* --mem-mode's "# Sort order" line: perf's sort order text, to which it
	 * appends ",ipc_null" when it shows the IPC column (see sort.c) */
	if (o->mem_mode) {
		bool plus = o->sort && o->sort[0] == '+';	/* "+KEYS": appended */
		const char *keys = o->sort && !plus ? o->sort : SORT_MEM_DEFAULT_ORDER;
		bool ipc = o->sort && !o->fields && strstr(o->sort, "symbol");
		size_t n = strlen(keys) + (plus ? strlen(o->sort) : 0) + sizeof(",ipc_null");

		rp->mem_order = malloc(n);
		if (!rp->mem_order)
			return -ENOMEM;
		snprintf(rp->mem_order, n, "%s%s%s%s", keys, plus ? "," : "",
			 plus ? o->sort + 1 : "", ipc ? ",ipc_null" : "");
	}
	if (o->hierarchy && !sort_list__nr_keys(&rp->sl)) {
		fputs("dirreport: --hierarchy needs a sort key\n", stderr);
		return CMD_ERR_REPORTED;
	}
	return 0;
}

/*
 * perf's entry trees are replayed batch by batch (hists__live_start()) beside the
 * resolving and counting of the next batches, by the counter's replayer (or, with
 * --call-graph dwarf, whose inlined functions make the trees searched, not hashed,
 * by the counter itself), instead of all at the end of the run.  Only for keys that
 * compare without computing text (no srcline, cgroup, trace keys) and without
 * --hierarchy; where an event is printed otherwise (the group view's members)
 * hist.c replays it again.  Not with frame pointers at -j 1: with no thread to run
 * beside, the replay at the end measured a little faster (1.44 against 1.49 s on a
 * 60 MB perf record -a -g file: one pass over trees that stay in the cache).
 */
static struct hists_print_opts print_opts(const struct report *rp,
					  const struct report_opts *o,
					  struct callchain_param *cc);

static int live_setup(struct report *rp, const struct report_opts *o)
{
	const struct evlist *el = session__evlist(rp->session);
	const unsigned textual = SORT_NEED_PARENT | SORT_NEED_SRCLINE | SORT_NEED_SRCFILE |
				 SORT_NEED_CGROUP | SORT_NEED_TRACE | SORT_NEED_MEM |
				 SORT_NEED_DCACHELINE | SORT_NEED_BRANCH;
	struct callchain_param cc;
	struct hists_print_opts po;
	struct report_groups *groups;
	int err;

	/* without --perf-compat no sample is replayed: each group is counted once */
	if (!o->perf_compat || o->hierarchy || o->tasks || o->mmaps ||
	    o->mem_mode || rp->branch_mode || (rp->sl.need & textual) ||
	    o->cc.key != CALLCHAIN_KEY_FUNCTION ||
	    (!rp->unwinder && !workqueue__nr_workers(session__workqueue(rp->session))))
		return 0;
	po = print_opts(rp, o, &cc);
	if (rp->unwinder)
		rp->sl.hash_safe = false;	/* as the end of cmd_report() does */
	/* print_report()'s blocks: an event printed in a group view is replayed
	 * again there, from all its samples */
	if ((err = report_groups__new(&groups, el, session__features(rp->session),
				      o->group)))
		return err;
	rp->drop_steps = true;
	for (size_t i = 0; i < el->nr; i++)
		if (groups->view && groups->nr_members[i] != 1)
			rp->drop_steps = false;
	report_groups__delete(groups);
	for (size_t i = 0; i < el->nr; i++) {
		/* as print_report() sets it */
		rp->hists[i].has_callchains =
			(el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN) != 0;
		if ((err = hists__live_start(&rp->hists[i], &po)))
			return err;
	}
	return 0;
}

/* perf's combined sample_type: does any event record callchains? */
static bool has_callchains(const struct evlist *el)
{
	for (size_t i = 0; i < el->nr; i++)
		if (el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN)
			return true;
	return false;
}

/* The first lines of perf's report (none with --header, which printed the header,
 * or -q). */
static void report_preamble(const struct report_opts *o, FILE *out)
{
	if (!o->header && !o->quiet)
		fputs("# To display the perf.data header info, please use "
		      "--header/--header-only options.\n#\n", out);
}

/* perf prints the first lines of the report, then refuses: so do we, and say why
 * (msg: the whole stderr line). */
static int refuse(const struct report_opts *o, FILE *out, const char *msg)
{
	report_preamble(o, out);
	fputs(msg, stderr);
	return CMD_ERR_REPORTED;
}

/* The parent key: perf needs callchains (but in pipes, where it cannot tell), and
 * compiles the -p regex (main() has checked it). */
static int parent_setup(struct report *rp, struct session *s, const struct report_opts *o,
			FILE *out)
{
	if (!has_callchains(session__evlist(s)) && !session__is_pipe(s)) {
		return refuse(o, out, "dirreport: the parent key needs callchains "
			      "(perf record -g)\n");
	}
	if (regcomp(&rp->parent_re, o->parent ? o->parent : PARENT_REGEX_DEFAULT,
		    REG_EXTENDED))
		return -EINVAL;
	rp->parent_on = true;
	return 0;
}

/* perf: a recording without samples, or one where -C, -U or --time left none, gets
 * only the two hint lines and this error, with exit status 0 (perf stat record files,
 * for example). Filters like --comms still account their samples. */
static bool no_samples(const struct report *rp, const struct report_opts *o)
{
	struct evlist *el = session__evlist(rp->session);
	uint64_t nr_samples = 0;

	for (size_t i = 0; i < el->nr; i++)
		nr_samples += rp->hists[i].nr_samples;
	if (nr_samples)
		return false;
	fprintf(stderr, "dirreport: The %s data has no samples!\n",
		o->input ? o->input : "perf.data");
	return true;
}

/* How the histograms are printed (cc: the call graph form they point to). */
static struct hists_print_opts print_opts(const struct report *rp,
					  const struct report_opts *o,
					  struct callchain_param *cc)
{
	struct hists_print_opts po = {
		.children = rp->chains && o->children != 0 && !o->mem_mode,
		.cc = &o->cc,
		.chains = rp->chains,
		.percent_limit = o->percent_limit,
		.filter_relative = o->filter_relative,
		.quiet = o->quiet,
		.time_str = o->time_str,
		.cgroup_path = cgroup_path,
		.cgroup_ctx = rp,
		.hierarchy = o->hierarchy,
		.group_sort_idx = o->group_sort_idx,
		.mem_sort_order = rp->mem_order,
		.wq = session__workqueue(rp->session),
	};

	*cc = o->cc;
	cc->order = rp->order;
	if (rp->branch_mode)	/* perf appends no chain to a branch's entry */
		cc->mode = CALLCHAIN_NONE;
	po.cc = cc;
	return po;
}

static int print_report(struct report *rp, const struct report_opts *o, FILE *out)
{
	struct evlist *el = session__evlist(rp->session);
	struct callchain_param cc;
	struct hists_print_opts po = print_opts(rp, o, &cc);
	struct report_groups *groups;
	int err = report_groups__new(&groups, el, session__features(rp->session), o->group);

	if (err)
		return err;
	/* perf's group hierarchy with --percentage relative hides first-level nodes
	 * only members have, but prints what is below them: not followed */
	for (size_t i = 0; o->hierarchy && o->filter_relative && groups->view &&
			   i < groups->nr; i++) {
		if (groups->nr_members[i] <= 1)
			continue;
		fputs("dirreport: --hierarchy with --percentage relative in the group view "
		      "is not implemented (add --no-group)\n", stderr);
		report_groups__delete(groups);
		return CMD_ERR_REPORTED;
	}
	report_preamble(o, out);
	sort_list__fprintf_elided(&rp->sl, out);
	if (no_samples(rp, o)) {
		report_groups__delete(groups);
		return 0;
	}
	if (!o->quiet)
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)rp->total_lost_samples);
	for (size_t i = 0; i < el->nr; i++)	/* group members are printed with */
		rp->hists[i].has_callchains =	/* their leader */
			(el->evsels[i]->attr.sample_type & SAMPLE_CALLCHAIN) != 0;
	for (size_t i = 0; i < el->nr && !err; i++) {
		/* perf: a group's members print with their leader (report/group.h) */
		if (!report_groups__prints(groups, i))
			continue;
		/* perf skips events without samples (--skip-empty is on by default) */
		if (!rp->hists[i].nr_samples && !o->no_skip_empty)
			continue;
		err = report_groups__fprintf(groups, i, rp->hists, &po,
					     evsel__name(el->evsels[i]), out);
		if (!err)
			err = rp->lazy_err;
	}
	report_groups__delete(groups);
	if (!err && rp->threads)
		read_values__fprintf(rp->threads, out);
	return err;
}

/* What the parent and srcline keys own. */
static void report_extras_free(struct report *rp)
{
	if (rp->parent_on)
		regfree(&rp->parent_re);
	rp->parent_on = false;
	free(rp->parent_cache);
	rp->parent_cache = NULL;
	srclines__delete(rp->srclines);
	for (size_t i = 0; i < rp->nr_uw; i++) {
		unwinder__delete(rp->uw[i].u);
		free(rp->uw[i].ips);
	}
	free(rp->uw);
	rp->uw = NULL;
	rp->nr_uw = 0;
	rp->unwinder = NULL;
	for (size_t i = 0; i < rp->inl_dsos_cap; i++) {
		srclines__delete(rp->inl_dsos[i].sl);
		free(rp->inl_dsos[i].todo);
	}
	free(rp->inl_dsos);
	free(rp->inl_busy);
	for (size_t i = 0; i < rp->inl_cap; i++)
		free(rp->inl_syms[i].sym);
	free(rp->inl_syms);
	strtab__exit(&rp->inl_names);
	rp->srclines = NULL;
	trace_sort__delete(rp->traces);
	rp->traces = NULL;
	free(rp->mem_order);
	rp->mem_order = NULL;
	for (size_t i = 0; i < rp->nr_cgroups; i++)
		free(rp->cgroups[i].path);
	free(rp->cgroups);
	rp->cgroups = NULL;
	rp->nr_cgroups = 0;
	free(rp->cgns);
	rp->cgns = NULL;
	rp->nr_cgns = rp->cap_cgns = 0;
}

/* A problem of the tracing data or a tracepoint sample, printed. */
static int trace_error(const struct diag *d)
{
	char line[1024];

	fprintf(stderr, "dirreport: %s\n", diag__format(d, line, sizeof(line)));
	return CMD_ERR_REPORTED;
}

bool cmd_report_forks(struct session *s)
{
	return session__is_pipe(s) || trace_sort__has_tracepoints(session__evlist(s));
}

/* The trace key's texts (resolve/trace-sort.h); a file whose tracepoints have no
 * format is refused whatever the keys, as perf refuses to open it. */
static int trace_setup(struct report *rp, struct session *s, const struct report_opts *o)
{
	int err;

	/* the tracing data is parsed in a forked child first (machine/trace-event.c):
	 * no other thread may be working then, as one could hold a lock the child
	 * needs (AddressSanitizer's allocator does not lock itself across fork()),
	 * so the kernel symbols job is waited for here already where there will be
	 * one (else the first batch waits for it, the decoding started meanwhile) */
	if (cmd_report_forks(s)) {
		machine__wait_preload(rp->machine);
		/* (the check of kernel symbols read ahead has no thread yet: here it
		 * starts at the first kernel lookup, in the delivery - setup_machine()'s
		 * dsos_opts.kallsyms_check_at_take) */
		rp->preloaded = true;
	}
	err = trace_sort__open(&rp->traces, session__evlist(s), session__features(s),
			       session__is_pipe(s), rp->machine, o->raw_trace,
			       o->input ? o->input : "perf.data", &rp->trace_diag);

	if (err == -ENOMEM)
		return err;
	if (err)
		return trace_error(&rp->trace_diag);
	if (!(rp->sl.need & SORT_NEED_TRACE)) {
		trace_sort__delete(rp->traces);
		rp->traces = NULL;
	}
	return 0;
}

/* What the options need of the recording that it does not have: perf refuses those
 * (0 when the report can go on). */
static int check_recording(struct session *s, const struct report_opts *o, FILE *out)
{
	const struct evlist *el = session__evlist(s);
	const struct features *f = session__features(s);
	bool data_src = false, cpu = true;

	if (o->cc_set && !has_callchains(el) && !session__is_pipe(s))
		return refuse(o, out, "dirreport: -g: the recording has no callchains "
			      "(perf record -g)\n");
	/* perf 6.1 finds no samples in a pipe with --hierarchy: it prints the first
	 * lines of the report, then refuses (exit 0) */
	if (o->hierarchy && session__is_pipe(s))
		return refuse(o, out, "dirreport: --hierarchy: perf 6.1 reports no samples "
			      "for a pipe\n");
	for (size_t i = 0; o->cc.branch && i < el->nr; i++) {
		if (!(el->evsels[i]->attr.sample_type & SAMPLE_BRANCH_STACK))
			continue;
		fputs("dirreport: -g branch: callchains from branch stacks are not "
		      "implemented\n", stderr);
		return CMD_ERR_REPORTED;
	}
	if (branch_mode__check(s, o, out))
		return CMD_ERR_REPORTED;
	if (o->time_str && time_ranges__is_percent(o->time_str) && !f->first_sample_ns &&
	    !f->last_sample_ns)
		return refuse(o, out, "dirreport: --time: percentages need the first and "
			      "last sample times, which the recording does not have\n");
	for (size_t i = 0; i < el->nr; i++) {
		data_src |= (el->evsels[i]->attr.sample_type & SAMPLE_DATA_SRC) != 0;
		cpu &= (el->evsels[i]->attr.sample_type & SAMPLE_CPU) != 0;
	}
	if (o->mem_mode && !session__is_pipe(s) && !data_src)
		return refuse(o, out, "dirreport: --mem-mode: the recording has no data "
			      "sources in its samples (perf record -d)\n");
	if (o->cpus && !cpu)
		return refuse(o, out, "dirreport: -C: the recording has no CPU in its "
			      "samples\n");
	return 0;
}

/* The two batches' arrays, freed (megabytes each: 26 MB resident at the end of the
 * bench directory's delivery before its windows were made smaller) as soon as the
 * last batch is counted, before the report's output. */
static void batches_free(struct report *rp)
{
	for (size_t i = 0; i < 2; i++) {
		struct report_batch *b = &rp->batch[i];

		hugemem__free(b->pending, b->pending_mapped);
		hugemem__free(b->ext, b->ext_mapped);
		hugemem__free(b->walk, b->walk_mapped);
		hugemem__free(b->prep, b->prep_mapped);
		hugemem__free(b->frames, b->frames_mapped);
		hugemem__free(b->spare, b->spare_mapped);
		free(b->branches);
		for (size_t c = 0; c < b->cap_chunks; c++)
			free(b->chunks[c].frames);
		free(b->chunks);
		memset(b, 0, sizeof(*b));	/* empty: report_exit() frees it again */
	}
}

/* Everything the report set up (fields left zero or NULL are skipped). */
static void report_exit(struct report *rp, size_t nr_hists)
{
	counter_stop(rp);	/* a run that failed before counter_stop() was reached */
	if (rp->session)	/* a batch that failed may have left loads running */
		workqueue__group_wait(session__workqueue(rp->session), &rp->loads);
	if (rp->session)
		workqueue__group_wait(session__workqueue(rp->session), &rp->dwarf);
	for (size_t i = 0; rp->hists && i < nr_hists; i++)
		hists__exit(&rp->hists[i]);
	free(rp->hists);
	batches_free(rp);
	free(rp->to_load);
	for (size_t i = 0; i < rp->cap_walk_jobs; i++)
		free(rp->walk_jobs[i].dsos);
	free(rp->walk_jobs);
	free(rp->prep_jobs);
	free(rp->ips);
	sample_filter__exit(&rp->filter);
	if (rp->threads)
		read_values__exit(rp->threads);
	task_ppids__exit(&rp->ppids);
	task_mmaps__exit(&rp->mmaps);
	callchains__delete(rp->chains);
	report_extras_free(rp);
}

static int unwind_setup(struct report *rp, struct session *s)
{
	const char *arch = session__features(s)->arch;

	/* pass 1b: a job runs on each worker and on this thread */
	rp->nr_uw = workqueue__nr_workers(session__workqueue(s)) + 1;
	rp->uw = calloc(rp->nr_uw, sizeof(*rp->uw));
	if (!rp->uw)
		return -ENOMEM;
	for (size_t i = 0; i < rp->nr_uw; i++) {
		atomic_flag_clear(&rp->uw[i].busy);
		rp->uw[i].ips = malloc((size_t)rp->max_stack * sizeof(*rp->uw[i].ips));
		if (!rp->uw[i].ips || (i ? unwinder__new_sibling(&rp->uw[i].u, rp->uw[0].u)
					 : unwinder__new(&rp->uw[i].u, arch)))
			return -ENOMEM;
	}
	rp->unwinder = rp->uw[0].u;
	return 0;
}

/* The report's keys, callchains, source lines, tracepoints and filters. */
static int report_setup(struct report *rp, struct session *s, const struct report_opts *o,
			FILE *out)
{
	const struct evlist *el = session__evlist(s);
	bool on_workers;
	int err = 0;

	if ((err = sample_filter__init(&rp->filter, &(struct sample_filter_opts){
			.comms = o->comms, .pids = o->pids, .tids = o->tids, .dsos = o->dsos,
			.symbols = o->symbols, .cpus = o->cpus })))
		return err;
	rp->max_stack = o->max_stack >= 0 ? o->max_stack : MAX_STACK_DEFAULT;
	/* perf: -G and the children view default to the caller order */
	rp->order = o->cc.order;
	if (o->inverted || (o->children != 0 && !o->cc.order_set))
		rp->order = CALLCHAIN_CALLER;
	if (has_callchains(el) && (err = callchains__new(&rp->chains, o->cc.key)))
		return err;
	err = report_sort_setup(rp, o, has_callchains(el));
	/* Callchains are resolved only where the output uses them: perf's
	 * sample__resolve_callchain() skips them without call graphs (-g none clears
	 * use_callchain), the children view and the parent key (-p, -x, -s parent) */
	rp->need_chains = rp->chains && (((o->cc.mode != CALLCHAIN_NONE ||
					   (o->children != 0 && !o->mem_mode)) &&
					  !rp->branch_mode) ||
					 (rp->sl.need & SORT_NEED_PARENT) || o->exclude_other);
	if (!err && rp->need_chains && rp->max_stack > 0 && unwind__wanted(el))
		err = unwind_setup(rp, s);
	/* chains walked on the workers (pass 1c) where a worker can take them and no
	 * other pass reads the machine per frame or sample (no unwinder without chains) */
	on_workers = !rp->unwinder && !rp->branch_mode && !o->mem_mode &&
		     workqueue__nr_workers(session__workqueue(s));
	rp->defer_chains = !err && rp->need_chains && on_workers;
	if (!err && (rp->sl.need & SORT_NEED_PARENT))
		err = parent_setup(rp, s, o, out);
	if (!err && ((rp->sl.need & (SORT_NEED_SRCLINE | SORT_NEED_SRCFILE)) ||
		     o->cc.key != CALLCHAIN_KEY_FUNCTION))
		err = srclines__new(&rp->srclines);
	if (!err && rp->srclines) {
		rp->lazy = (struct sort_lazy){ lazy_srcline, lazy_srcfile, rp };
		rp->sl.lazy = &rp->lazy;
	}
	if (!err)
		err = trace_setup(rp, s, o);
	/* and the samples themselves, where pass 1 does nothing else for them (no --cpu,
	 * no trace key): in pass 1c with their chains, else in pass 2b, before their
	 * symbols (a pass of its own for them cost more than it took off: flat report
	 * of a 60 MB file, -j 2, 0.41 -> 0.44 s) */
	rp->defer_samples = !err && on_workers && !rp->filter.cpus && !rp->traces;
	rp->need_ext = o->mem_mode || rp->unwinder;
	rp->need_walk = rp->defer_samples || rp->defer_chains;
	rp->time_quantum = 100 * 1000000ULL;	/* perf's --time-quantum default, 100 ms */
	rp->topo = &session__features(s)->cpu_topo;
	return err;
}

/* --tasks, --mmaps: the thread tree after the replay. */
static int print_tasks(struct report *rp, const struct report_opts *o, struct machine *m,
		       FILE *out)
{
	int err = 0;

	sort_list__fprintf_elided(&rp->sl, out);
	/* perf registers the idle thread, 0/0 "swapper", up front */
	if (!machine__findnew_thread(m, 0, 0))
		err = -ENOMEM;
	if (!err && !no_samples(rp, o))
		err = tasks__fprintf(m, &rp->ppids, o->mmaps ? &rp->mmaps : NULL, out);
	if (err == -ENOENT) {
		fputs("dirreport: --tasks: a thread's parent is unknown\n", stderr);
		err = CMD_ERR_REPORTED;
	}
	return err;
}

int cmd_report(struct session *s, const struct report_opts *opts, struct machine *m,
	       FILE *out)
{
	struct evlist *el = session__evlist(s);
	struct report_opts po = *opts;
	const struct report_opts *o = &po;
	struct report rp = { .session = s, .machine = m, .opts = o };
	const struct features *f = session__features(s);
	struct time_ranges time;
	struct session_time_range keep[TIME_RANGES_MAX];
	struct read_values threads;
	int err = 0, cerr;

	rp.cur = &rp.batch[0];
	if (o->header && (err = cmd_header(s, o, m, out)))
		return err;
	if ((err = check_recording(s, o, out)))
		return err;
	/* perf's branch view has no children view ("cumulate_callchain = false") */
	rp.branch_mode = branch_mode__on(s, o->branch_stack);
	if (rp.branch_mode && po.children != 0) {
		po.children = 0;
		po.children_cancelled = true;
	}
	/* perf report: a pipe's events are not known when it decides the children
	 * view, and without callchains in the combined sample_type it cancels it
	 * ("silently ignore if callchain is missing"); the chains keep the order that
	 * view gave them (observed with perf 6.1: no Children column, caller graphs) */
	if (session__is_pipe(s) && po.children != 0) {
		if (!po.cc.order_set)
			po.cc.order = CALLCHAIN_CALLER;
		po.children = 0;
		po.children_cancelled = true;
	}
	if (o->time_str) {
		if (time_ranges__parse(&time, o->time_str, f->first_sample_ns,
				       f->last_sample_ns))
			return -EINVAL;	/* main() has checked it */
		rp.time = &time;
		/* samples outside the ranges are dropped first thing (report_sample):
		 * the session may leave them out */
		for (int i = 0; i < time.nr; i++)
			keep[i] = (struct session_time_range){ time.r[i].start, time.r[i].end };
		session__keep_samples(s, keep, (size_t)time.nr);
	}
	err = report_setup(&rp, s, o, out);
	if (!err && o->show_threads && !(err = read_values__init(&threads, el->nr)))
		rp.threads = &threads;
	if (!err && !(rp.hists = calloc(el->nr, sizeof(*rp.hists))))
		err = -ENOMEM;
	if (err)
		goto out;
	for (size_t i = 0; i < el->nr; i++)
		hists__init(&rp.hists[i], &rp.sl, rp.chains);
	if ((err = live_setup(&rp, o)) || (err = counter_start(&rp)) ||
	    (err = read_dwarf_early(&rp)))
		goto out;
	err = session__deliver(s, on_batch, &rp, 0);
	phases__mark("delivery");
	cerr = counter_stop(&rp);	/* the last batch counted */
	if (!err)
		err = cerr;
	phases__mark("last batch counted");
	batches_free(&rp);
	if (err < 0 && rp.trace_diag.code)
		err = trace_error(&rp.trace_diag);
	/* nothing is printed yet: kernel symbols read from the build-id cache's copy
	 * of the running kernel's file must be the file's (else all again) */
	if (!err && cli__kernel_symbols_differ(m, "dirreport", "report")) {
		err = CMD_AGAIN;
		goto out;
	}
	if (!err && rp.unwinder) {
		for (size_t i = 1; i < rp.nr_uw; i++)
			unwinder__add_counts(rp.unwinder, rp.uw[i].u);
		char msg[256];

		if (unwinder__warning(rp.unwinder, session__features(s)->arch, msg,
				      sizeof(msg)))
			err = session__warn(s, "%s", msg);
	}
	if (!err && (o->tasks || o->mmaps))
		err = print_tasks(&rp, o, m, out);
	else if (!err) {
		/* inlined functions compare by name or by address: perf's trees of
		 * entries are replayed sample by sample, none found by hash */
		if (rp.nr_inl)
			rp.sl.hash_safe = false;
		err = print_report(&rp, o, out);
	}
	phases__mark("output");
out:
	report_exit(&rp, el->nr);
	return err;
}
