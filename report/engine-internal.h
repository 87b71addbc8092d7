#ifndef DIRREPORT_REPORT_ENGINE_INTERNAL_H
#define DIRREPORT_REPORT_ENGINE_INTERNAL_H
#ifndef DIRREPORT_IN_REPORT
#error "engine-internal.h is private to report/"
#endif
/*
 * engine-internal - the engine of `dirreport --stdio`, shared by its files and by
 * its front end (cmd-report.c, cmd_report()); not part of libreport's interface.
 *
 * The engine replays the records in perf's order through the machine state,
 * resolves every sample (and every frame of its callchain) to comm / dso / symbol
 * and counts it into one histogram per event, batch by batch
 * (docs/pipeline.md, "dirreport --stdio"):
 *
 * - engine.c: the set-up (keys, filters, callchains, unwinders, source lines, the
 *   trace key, the live replay), the batch driver (report__on_batch(): side-band
 *   records, then the passes in order), the end;
 * - engine-resolve.c: passes 0, 1 and 1c: samples parsed (on the workers), their
 *   threads, comms and maps in delivery order, their chains walked and branches
 *   resolved to maps, the thread and dso filters known then;
 * - engine-lookup.c: passes 1b and 2: dsos loaded on the workers, --call-graph dwarf
 *   stacks unwound, symbols and inlined functions looked up;
 * - engine-count.c: pass 3: chains interned, samples counted into the histograms;
 *   the counter and replayer threads.
 *
 * One batch of pending samples (struct report_batch) goes through the passes in
 * that order; struct report holds what lives across batches.
 *
 * Thread safety: struct report belongs to the calling thread (the one that runs
 * cmd_report() and the delivery's callback), but where a function says otherwise:
 * the workers' jobs of passes 0, 1b, 1c and 2 read the report's options and write
 * only their own slots of the current batch; pass 3 runs on the counter thread one
 * batch behind (report__counter_hand()).
 */
#include <regex.h>	/* regex_t */
#include <stdatomic.h>	/* atomic_bool, atomic_flag, atomic_int */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>	/* FILE */

#include "format/diag.h"	/* struct diag */
#include "machine/machine.h"	/* struct addr_location, struct maps, struct thread */
#include "report/callchain.h"	/* enum callchain_order, struct callchain_param */
#include "report/cmd.h"		/* struct report_opts */
#include "report/hist.h"	/* struct hists, struct hists_print_opts */
#include "report/sort.h"	/* struct hist_mem, struct sort_list, struct sort_lazy */
#include "report/tasks.h"	/* struct task_ppids, struct task_mmaps */
#include "resolve/filter.h"	/* struct sample_filter */
#include "util/strtab.h"	/* struct strtab */
#include "util/workqueue.h"	/* struct wq_group */

struct counter;
struct dso;
struct evlist;
struct feat_cpu_topology;
struct inline_symbol;
struct read_values;
struct record_ref;
struct session;
struct srclines;
struct symbol;
struct time_ranges;
struct trace_sort;
struct unwinder;

/* A frame whose map is known; its symbol is looked up once its dso is loaded. */
struct pending_frame {
	struct dso *dso;		/* NULL: no map */
	uint64_t ip;			/* as in the chain */
	uint64_t addr;			/* map-relative */
	uint64_t map_start, map_end, map_pgoff;
	uint64_t map_id;		/* the map object's identity (machine.h) */
	char level;			/* 'k', '.', or 0 without a map */
	bool sym_done;			/* sym was looked up (report__lookup_batch()) */
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
	bool sym_done;			/* al.sym was looked up (report__lookup_batch()) */
	bool unwind;			/* --call-graph dwarf: to unwind (pass 1b) */
	bool chain_dropped;		/* perf dropped the chain: the unwound
					 * frames are not kept */
	bool deferred;			/* the chain is walked in pass 1c */
	bool resolve;			/* pass 1c, or 2b without chains, resolves its
					 * map (report__prepped()): its thread, comm and
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
 * its thread, comm and thread filters, which report__resolve_deferred() copies into the
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
					 * reaches the kernel (report__prepped()) */
};

enum prep_kind {
	PREP_RECORD,			/* not a sample: pass 1 reads the record */
	PREP_SAMPLE,			/* its pending sample is filled (resolve, and
					 * deferred with chains): pass 1 adds its
					 * thread, or takes it over (report__sample())
					 * where it reaches the kernel too early */
	PREP_SKIP,			/* outside --time: a hole */
	PREP_SLOW,			/* pass 1 takes it over (report__sample()): it
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
					 * resolved in pass 2b (report__prepped()) */
	struct pending_walk *walk;	/* owned, report.need_walk: pending[i]'s is
					 * walk[i] */
	size_t cap_walk, walk_mapped;
	struct prep *prep;		/* owned, report.defer_samples: record i's is
					 * prep[i] (and its pending sample pending[i]) */
	size_t cap_prep, prep_mapped;
};

/* What b keeps of its pending sample p for the workers (report.need_walk). */
static inline struct pending_walk *report_batch__walk(const struct report_batch *b,
						      const struct pending *p)
{
	return &b->walk[p - b->pending];
}

/* What b keeps of its pending sample p besides (report.need_ext). */
static inline struct pending_ext *report_batch__ext(const struct report_batch *b,
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
	struct count_parts *count_parts;	/* owned: pass 3 on the workers, into
					 * partials merged at the end
					 * (engine-count.c); NULL: not */
	struct counter *counter;	/* owned: pass 3 on its own thread; NULL:
					 * on this one */
	bool replayer;			/* the counter's replayer runs (struct
					 * counter): report__count_batch() does not replay */
	bool drop_steps;		/* the histograms are printed from their live
					 * replay (no group view of several events):
					 * what it replayed is let go of
					 * (hists__drop_replayed()) */
	bool branch_mode;		/* perf's branch view (report/branch.h): an
					 * entry per branch of each sample */
	struct to_load { struct dso *dso; bool dwarf, queued; } *to_load;
					/* owned; borrowed dsos; see report__want_loaded() */
	size_t nr_to_load, cap_to_load;
	struct wq_group loads;		/* the batch's load jobs (load_job()) */
	struct wq_group dwarf;		/* DWARF read ahead (dwarf_job()) */
	bool load_early;		/* this batch queues a dso's load at its first
					 * use (report__scan_mmaps()) */
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
					 * (report__prepped()) */
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
	size_t cap_prep_jobs;		/* pass 0's, by chunk: report__scan_mmaps() */
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

/* The output of pass 1c for the pending samples [i * WALK_CHUNK, ...), or of pass 2b
 * for [i * LOOKUP_CHUNK, ...): the dsos their addresses and frames are in, each once,
 * to be loaded. */
struct walk_job {
	struct dso **dsos;		/* owned */
	size_t nr, cap;
	int err;			/* -ENOMEM, else 0 */
};

/* Pending samples per unwind_one() job. */
#define UNWIND_CHUNK 64

/* A pointer's hash for the engine's open-addressing tables (util/hashtab.h): the
 * inline dsos by dso (engine-lookup.c), the parent cache and the inline symbols by
 * symbol (engine-count.c). */
static inline uint64_t report__ptr_hash(const void *p)
{
	return ((uintptr_t)p >> 4) * 0x9E3779B97F4A7C15ULL;
}

/*
 * Frame k of a pending sample's chain, in cursor order: the frames pass 1 resolved
 * (the recorded chain) and, --call-graph dwarf, the user frames pass 1b unwound, in
 * their chunk's array, where perf's walk puts them (machine__callchain_walk_unwound():
 * before the recorded chain from the caller, after it from the callee).  A chain has
 * nr_frames + nr_user frames.
 */
static inline struct pending_frame *report__frame_at(const struct report *rp,
						     const struct report_batch *b,
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

/* ---- engine.c: set-up, the batch driver, the end ---------------------------------- */

/**
 * @brief The report's keys, callchains, unwinders, source lines, tracepoints and
 *        filters, from the options (main() and cmd_report() have checked them).
 * @param rp   the report: session, machine and opts set, the rest zero
 * @param out  where a refusal's first report lines go (report__refuse())
 * @return 0; CMD_ERR_REPORTED where the set-up printed why it refuses (stderr);
 *         -ENOMEM; -EINVAL (the parent regex); an error of the trace key's set-up.
 *         What was set up is freed by report__exit(), also on failure.
 * Thread safety: the calling thread, before any batch.
 */
int report__setup(struct report *rp, struct session *s, const struct report_opts *o,
		  FILE *out);

/**
 * @brief Start perf's entry trees' live replay (hists__live_start()) where the keys
 *        and options allow it: the histograms are replayed batch by batch, by the
 *        counter's replayer or the counter itself, not all at the end.
 * @param rp  the report after report__setup() and hists__init() of its histograms
 * @return 0 (also where nothing is replayed live), or -ENOMEM.
 * Thread safety: the calling thread, before report__counter_start().
 */
int report__live_setup(struct report *rp, const struct report_opts *o);

/** @brief perf's combined sample_type: whether any event of @p el records callchains.
 *  Thread safety: reads @p el only. */
bool report__has_callchains(const struct evlist *el);

/**
 * @brief How the histograms are printed: the print options of @p rp and @p o.
 * @param cc  filled with the call graph form the result points to (caller's storage,
 *            which must outlive the result)
 * @return the options; their pointers borrow @p rp, @p o and @p cc.
 * Thread safety: reads only.
 */
struct hists_print_opts report__print_opts(const struct report *rp,
					   const struct report_opts *o,
					   struct callchain_param *cc);

/** @brief A problem of the tracing data or of a tracepoint sample (@p d), printed as
 *  one line on stderr.  @return CMD_ERR_REPORTED. */
int report__trace_error(const struct diag *d);

/**
 * @brief session__deliver()'s callback: one batch of records through passes 0-2 on
 *        this thread and the workers, then pass 3 (on the counter thread where there
 *        is one: report__counter_hand()).
 * @param p     the struct report
 * @param recs  the batch's records, in perf's order (borrowed for the call; the
 *              session keeps them valid while the counter counts the batch)
 * @param n     how many
 * @return 0; a negative errno (-ENOMEM ...); -DIAG_* for a sample that does not
 *         parse; the trace key's errors and the transaction key's refusal, negative
 *         with rp->trace_diag filled (cmd_report() prints it: report__trace_error());
 *         the counter's first error.
 * Thread safety: the calling thread (the delivery's consumer).
 */
int report__on_batch(void *p, const struct record_ref *const *recs, size_t n);

/** @brief The two batches' arrays freed (megabytes), once the last batch is counted;
 *  the batches are left empty (report__exit() frees them again harmlessly). */
void report__batches_free(struct report *rp);

/** @brief Everything the report set up freed (the counter stopped first where a run
 *  failed before report__counter_stop(); queued loads waited for); fields left zero
 *  or NULL are skipped.  @param nr_hists  rp->hists' length (events). */
void report__exit(struct report *rp, size_t nr_hists);

/* ---- engine-resolve.c: passes 0, 1 and 1c ----------------------------------------- */

/**
 * @brief What a batch's MMAP records allow, in one look at them: whether its dsos
 *        may be loaded early (*@p load_early; not with an MMAP2 of the build-id form)
 *        and from which record on it leaves the kernel's maps alone
 *        (*@p kernel_maps_end: after its last kernel MMAP, or 0).
 * @param recs  the batch's @p n records (read only)
 * Thread safety: reads the records only.
 */
void report__scan_mmaps(const struct record_ref *const *recs, size_t n, bool *load_early,
			size_t *kernel_maps_end);

/** @brief What pass 1 may leave to pass 1c or 2b from here on in the batch
 *  (rp->kernel_now, rp->kernel_ready), from rp->kernel_maps_kept and the machine.
 *  Thread safety: the calling thread. */
void report__batch_defer_flags(struct report *rp);

/**
 * @brief Pass 0 (rp->defer_samples): the batch's samples parsed into their pending
 *        samples and digests on the workers, then what report__scan_mmaps() finds,
 *        from their jobs.
 * @param recs  the batch's @p n records (borrowed while the batch is resolved)
 * @return 0, -ENOMEM, or the workqueue's error.
 * Thread safety: the calling thread (it runs the jobs on the workers and waits).
 */
int report__prep_batch(struct report *rp, const struct record_ref *const *recs, size_t n,
		       bool *load_early, size_t *kernel_maps_end);

/**
 * @brief Pass 1 for a sample (record @p i of the batch): parsed, its thread, comm and
 *        maps in delivery order, its chain walked or kept for pass 1c, its branches
 *        resolved to their maps, its dsos queued for loading.
 * @return 0 (also for a sample dropped: --time, -C, the branch view); -ENOMEM;
 *         -DIAG_* for a sample that does not parse; the transaction key's refusal
 *         and the trace key's errors, negative with rp->trace_diag filled.
 * Thread safety: the calling thread.
 */
int report__sample(struct report *rp, const struct record_ref *ref, size_t i);

/**
 * @brief Pass 1 for record @p i of a batch that pass 0 made: the thread, comm,
 *        thread filters, copy of the maps and frame slots of a sample the workers
 *        resolve (passes 1c or 2b), or report__sample() for one they cannot.
 * @return as report__sample().
 * Thread safety: the calling thread.
 */
int report__prepped(struct report *rp, const struct record_ref *const *recs, size_t i);

/** @brief Pass 1c: the deferred samples and chains of the batch resolved and walked on
 *  the workers, then the dsos they found queued for loading (report__want_found()).
 *  @return 0, -ENOMEM, -EINVAL (a chain longer than its slots), or the workqueue's
 *  error.  Thread safety: the calling thread. */
int report__walk_deferred(struct report *rp);

/**
 * @brief A deferred sample @p pd given what pass 1 kept in @p pw (its thread, comm,
 *        thread filters, frame slots), resolved to its map in the copy of its
 *        process's maps there and its dso filtered (--dsos); its dso noted in @p job.
 * @return 0 or -ENOMEM.
 * Thread safety: any worker: reads the machine only, writes @p pd and @p job.
 */
int report__resolve_deferred(const struct report *rp, struct pending *pd,
			     const struct pending_walk *pw, struct walk_job *job);

/** @brief The dsos that jobs [0, @p jobs) of rp->walk_jobs found, queued for loading
 *  (report__want_loaded()), in the order of the samples' chunks.
 *  @return 0, a job's error (-EINVAL for -EOVERFLOW), or -ENOMEM.
 *  Thread safety: the calling thread, after the jobs. */
int report__want_found(struct report *rp, size_t jobs);

/* ---- engine-lookup.c: passes 1b and 2 ---------------------------------------------- */

/**
 * @brief The batch will need @p dso loaded (NULL: nothing): noted once, and queued on
 *        a worker at once where the batch lets it (rp->load_early, a user dso);
 *        report__finish_loads() waits for it.  @p dwarf: its inline lookups are
 *        wanted too (pass 2d).
 * @return 0 or -ENOMEM (or the workqueue's error).
 * Thread safety: the calling thread.
 */
int report__want_loaded(struct report *rp, struct dso *dso, bool dwarf);

/** @brief --call-graph dwarf: the DWARF of the user dsos the BUILD_ID feature names
 *  read on the workers from the start (the first 256).  @return 0 or -ENOMEM (or the
 *  workqueue's error).  Thread safety: the calling thread, before the delivery. */
int report__read_dwarf_early(struct report *rp);

/** @brief Pass 2a: the batch's dsos loaded on the workers (those not queued yet now)
 *  and waited for; then the DWARF of those whose frames pass 2d will look up queued.
 *  @return 0 or -ENOMEM (or the workqueue's error).  Thread safety: the calling
 *  thread. */
int report__finish_loads(struct report *rp);

/** @brief Pass 1b: the user stacks of batch @p b's --call-graph dwarf samples unwound
 *  on the workers, their frames resolved to maps and their dsos wanted loaded.
 *  @return 0, -ENOMEM, or the unwinder's or workqueue's error.  Thread safety: the
 *  calling thread. */
int report__unwind_batch(struct report *rp, struct report_batch *b);

/** @brief Pass 2b: the symbols of the current batch's samples, branches and frames in
 *  loaded dsos looked up on the workers (samples pass 1 deferred resolved to their
 *  maps first), then the dsos those found loaded.  @return 0, -ENOMEM, -EINVAL, or
 *  the workqueue's error.  Thread safety: the calling thread. */
int report__lookup_batch(struct report *rp);

/** @brief Pass 2c: what pass 2b left, and --mem-mode's data symbols, looked up here
 *  (it may load dsos); after it every symbol of batch @p b is known.
 *  Thread safety: the calling thread. */
void report__finish_lookups(struct report *rp, struct report_batch *b);

/** @brief Pass 2d: the inlined functions of every unwound frame of batch @p b with a
 *  symbol, looked up on the workers a dso per job.  @return 0 or -ENOMEM (or the
 *  workqueue's error).  Thread safety: the calling thread. */
int report__lookup_inlines(struct report *rp, struct report_batch *b);

/* ---- engine-count.c: pass 3, the counter and replayer threads ---------------------- */

/**
 * @brief Pass 3 of batch @p b: its unwound frames expanded into their inlined
 *        functions, its samples counted into the histograms in order (chains
 *        interned); the histograms replayed live where no replayer does it.
 * @return 0, -ENOMEM, or the error of a source line lookup or of the live replay.
 * Thread safety: one thread at a time: the counter thread, or the calling thread
 *        without one; only reads what passes 1-2 made.
 */
int report__count_batch(struct report *rp, struct report_batch *b);

/** @brief Start the counter thread (and its replayer where histograms are replayed
 *  live); none without workers or where no thread starts (pass 3 then runs on the
 *  calling thread).  @return 0 or -ENOMEM.  Thread safety: the calling thread. */
int report__counter_start(struct report *rp);

/** @brief Hand the current batch to the counter (once it is done with the other one)
 *  and make the other buffer current.  @return 0, or the counter's first error.
 *  Thread safety: the calling thread. */
int report__counter_hand(struct report *rp);

/** @brief Wait for the last batch, stop the counter and its replayer (none: 0).
 *  @return 0, or their first error.  Thread safety: the calling thread. */
int report__counter_stop(struct report *rp);

/** @brief Merge what the workers counted (struct count_parts, engine-count.c), if
 *  anything, into the report's chains and histograms, and free it; after
 *  report__counter_stop() (the batches may be freed before: nothing counted points
 *  into them).  @return 0 or -ENOMEM.  Thread safety: the calling thread. */
int report__count_merge(struct report *rp);

/** @brief Free the workers' partial chains and histograms, if any (a run that
 *  failed before report__counter_stop() merged them).  Thread safety: the calling
 *  thread, once no batch is counted. */
void report__count_parts_free(struct report *rp);

/* ---- cmd-report.c: the front end's, which the set-up calls -------------------------- */

/** @brief perf prints the first lines of the report, then refuses: so do we, and
 *  say why (@p msg: the whole stderr line).  @return CMD_ERR_REPORTED. */
int report__refuse(const struct report_opts *o, FILE *out, const char *msg);

#endif
