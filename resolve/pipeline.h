#ifndef DIRREPORT_RESOLVE_PIPELINE_H
#define DIRREPORT_RESOLVE_PIPELINE_H
/*
 * pipeline - the sample pipeline between machine/ and the front ends: the reader's
 * ordered records in, resolved samples out, the resolving done on every worker, the
 * front end a sink (babeltrace2's source -> muxer -> sink).
 *
 * Per batch of records (session__deliver()), on the calling thread, in perf's order:
 *   - a side-band record updates the machine (machine__process_record()), unless the
 *     sink's record() takes it;
 *   - a sample is parsed, its thread found or made, its comm taken (perf's default
 *     name given to a thread that has none) and its process's maps copied as they are
 *     at the sample (maps__copy()); the sink's prepare() may drop it (filters) or
 *     note what only the calling thread can give (a running column width, a
 *     tracepoint's text);
 *   - the kept samples wait in the current segment.
 * A segment is flushed - its samples resolved and formatted by the sink's sample() on
 * the workers, ~256 samples a job, each job writing into its own chunk, then the
 * chunks handed to the sink's emit() in order - at the end of each batch and before
 * any record that would change what a waiting sample resolves to: an MMAP of kernel
 * space (the kernel's maps) and an MMAP2 of the build-id form (a dso's build-id, read
 * when the dso is loaded).  A sample that would change the machine itself - a kernel
 * address before the kernel's map has its final span (machine__kernel_ready()) - is
 * resolved on the calling thread in its turn, after the segment before it.
 *
 * Symbols: a worker that needs a dso whose symbols are not loaded yet stops its job
 * there (pipeline__resolve() returns PIPELINE_AGAIN; the sink leaves its chunk as it
 * was before that sample); the dsos asked for are loaded (user dsos in parallel, one
 * per job; modules on the calling thread), and the stopped jobs go on from the sample
 * they stopped at.  Loads thus happen only while no job runs, after every record
 * before the sample was replayed, as perf loads a dso at its first lookup.
 *
 * Output is the same at every -j: each sample is formatted from what it resolves to,
 * and the chunks are emitted in record order.
 *
 * Thread safety: one pipeline per session, driven by the thread that delivers the
 * records.  The sink's sample() runs on any worker, concurrently for different
 * samples; prepare(), record(), emit() run on the calling thread.
 * Format: docs/perf-data-format.md §2.1 (sample), §2.2 (MMAP, MMAP2), §4 (order).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/record-ref.h"
#include "format/sample.h"
#include "machine/machine.h"

struct workqueue;
struct dso;

/** pipeline__resolve()'s return (and the sink's sample()'s) when a dso must be
 *  loaded first: the sample is done again later. */
#define PIPELINE_AGAIN 2
/** The sink's prepare()'s return for a sample left out (a filter). */
#define PIPELINE_DROP 1

/** One sample on its way through the pipeline. */
struct resolved_sample {
	const struct record_ref *ref;	/* the record (file, offset: for errors) */
	struct sample s;		/* parsed */
	struct thread *t;		/* its thread, for prepare() and the calling
					 * thread's resolving; workers read only maps */
	const char *comm;		/* its comm at the sample (interned, owned by
					 * the machine) */
	struct maps maps;		/* its process's maps at the sample (a copy:
					 * valid until the segment is emitted) */
	const void *aux;		/* prepare()'s note for sample(), or NULL */
	int aux_int;			/* prepare()'s number for sample(), or 0 */
	uint32_t aux_ids[3];		/* prepare()'s ids for sample() (the
					 * exporter's row ids of its event, thread
					 * and comm); not cleared */
	bool kernel;			/* prepare() sets it when the sink resolves a
					 * kernel address the pipeline cannot see (a
					 * data address); the ip and the callchain's
					 * are seen */
	/* pipeline_sink.every_record only: */
	bool record_only;		/* no sample to resolve: a record of another
					 * type, or a SAMPLE that does not parse
					 * (parse_err); s, t, comm and maps are not
					 * set (t and comm NULL) */
	int parse_err;			/* a SAMPLE that does not parse: its error
					 * (sample__parse()), else 0 */
};

/** A thread's part of the pipeline: what pipeline__resolve() needs. */
struct pipeline_thread;

/** What a front end gives the pipeline.  ctx is the sink's; NULL callbacks are
 *  skipped (record, batch, select, prepare, thread_init, thread_exit, chunk_exit). */
struct pipeline_sink {
	/**
	 * A non-sample record, before the machine sees it (calling thread).
	 * @return 0: the pipeline replays it into the machine (if it has an event);
	 *         1: taken by the sink; < 0: an error (stops the delivery).
	 */
	int (*record)(void *ctx, const struct record_ref *ref);
	/** A batch's records, before any is replayed (calling thread): progress. */
	void (*batch)(void *ctx, const struct record_ref *const *recs, size_t n);
	/** A parsed sample before its thread is looked up (calling thread, in
	 *  order): the cheap filters (cpu, time). @return true to keep it. */
	bool (*select)(void *ctx, const struct record_ref *ref, const struct sample *s);
	/**
	 * A parsed sample with its thread and comm (calling thread, in order).
	 * @return 0 (kept), PIPELINE_DROP, or < 0 (an error at this record).
	 */
	int (*prepare)(void *ctx, struct resolved_sample *rs);
	/** Bytes of a thread's own state (an unwinder, scratch buffers), one per
	 *  thread slot, zeroed by the pipeline, then thread_init() (calling thread);
	 *  thread_exit() frees what it holds at pipeline__delete() (even after a
	 *  failed thread_init()).  0: no state (NULL). */
	size_t thread_size;
	int (*thread_init)(void *ctx, void *state);	/* @return 0 or -ENOMEM */
	void (*thread_exit)(void *ctx, void *state);
	/** Bytes of a chunk, what one job writes (text, frames): zeroed by the
	 *  pipeline, reused; chunk_exit() frees what it holds at pipeline__delete(). */
	size_t chunk_size;
	void (*chunk_exit)(void *ctx, void *chunk);
	/**
	 * Resolve and format one sample into @p chunk (any worker, or the calling
	 * thread).  Resolve addresses only through pipeline__resolve() /
	 * pipeline__resolve_map() with @p pt.
	 * @return 0; PIPELINE_AGAIN (passed on from pipeline__resolve(): @p chunk must
	 *         be left as it was before this call); < 0 an error at this record.
	 */
	int (*sample)(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		      const struct resolved_sample *rs);
	/** A chunk's samples are done: write them out, in record order, and empty
	 *  the chunk for reuse (calling thread). @return 0 or < 0 (stops). */
	int (*emit)(void *ctx, void *chunk);
	/**
	 * Every record goes to the sink, in delivery order (the dump): a record of
	 * another type, a SAMPLE without an event and a SAMPLE that does not parse
	 * (no error then) are items of their own (resolved_sample.record_only) that
	 * prepare() sees in their turn (PIPELINE_DROP leaves one out) and sample()
	 * formats on a worker, their chunks emitted in order with the samples'.
	 * Side-band records are still replayed into the machine (after their item
	 * was made); record() is called as without this.  false: samples only.
	 */
	bool every_record;
	/** Samples (items) a job resolves at most; 0: 256.  A sink whose chunks are
	 *  large text (the dump) takes more, so that a batch's text is in a few
	 *  large chunks (each chunk keeps its memory for reuse). */
	size_t job_items;
};

struct pipeline;

/**
 * @brief Make a pipeline over machine @p m, run on @p wq (its workers and the
 *        calling thread), feeding @p sink.
 * @param out  receives the pipeline (free with pipeline__delete())
 * @param m, wq, sink, ctx  borrowed; live until pipeline__delete()
 * @return 0 or -ENOMEM (the sink's thread_init() errors too).
 */
int pipeline__new(struct pipeline **out, struct machine *m, struct workqueue *wq,
		  const struct pipeline_sink *sink, void *ctx);

/** @brief Free a pipeline and the sink's states and chunks. NULL is a no-op. */
void pipeline__delete(struct pipeline *p);

/**
 * @brief session__deliver()'s batch callback: replays, resolves and emits the batch
 *        (every sample emitted before it returns; pipeline__deliver() lets the
 *        jobs of one batch finish during the next).  Pass the pipeline as ctx.
 * @return 0; the first error of a record (pipeline__bad() names it); -ENOMEM; what
 *         the sink returned.
 */
int pipeline__on_batch(void *p, const struct record_ref *const *recs, size_t n);

struct session;

/**
 * @brief Deliver the session's records through the pipeline (session__deliver() with
 *        pipeline__on_batch()): with workers, each batch's records are held one batch
 *        longer (session__hold_batches()) so that its jobs go on while the next
 *        batch is replayed; every sample is emitted before this returns.
 * @param batch  records per batch, as session__deliver()'s (0: its default; tests
 *               use small ones)
 * @return as session__deliver(): 0, or the first error (pipeline__bad() names the
 *         record where a record failed).
 * Thread safety: the calling thread, once per pipeline, before any
 *         pipeline__on_batch() of its own.
 */
int pipeline__deliver(struct pipeline *p, struct session *s, size_t batch);

/**
 * @brief Resolve and emit every sample waiting so far: when it returns, no job of
 *        the pipeline runs (before a fork(): a worker holding the allocator's lock
 *        would leave the child stuck).
 * @return 0, or the first error (as pipeline__on_batch()).
 * Thread safety: the calling thread, from a sink's record() or between batches.
 */
int pipeline__flush(struct pipeline *p);

/**
 * @brief Where the first error was: the record's file index and byte offset (the
 *        record_ref's), when a record's replay, prepare() or sample() failed.
 * @return true and fills @p file, @p offset; false when the error was no record's
 *         (-ENOMEM, a write error of emit()).
 */
bool pipeline__bad(const struct pipeline *p, uint16_t *file, uint64_t *offset);

/**
 * @brief Call fn for each thread slot's sink state (after the delivery: adding up
 *        per-thread counts).  Calling thread, while no job runs.
 */
void pipeline__for_each_state(struct pipeline *p, void (*fn)(void *ctx, void *state),
			      void *ctx);

/**
 * @brief machine__resolve() of @p ip as it was at the sample: map, dso, symbol.
 *        On a worker: against the sample's copy of its maps and the kernel's maps
 *        (machine__resolve_map_at()), the symbol from a loaded dso; on the calling
 *        thread (a sample resolved in its turn): machine__resolve() itself.
 *        al->thread is the sample's thread.
 * @param cpumode  MISC_KERNEL, MISC_USER, ... (header.misc & 7)
 * @return 0, or PIPELINE_AGAIN when the dso's symbols are not loaded yet (it is
 *         noted for loading; the caller returns PIPELINE_AGAIN from sample()).
 * Thread safety: the sample()'s thread, with its @p pt.
 */
int pipeline__resolve(struct pipeline_thread *pt, const struct resolved_sample *rs,
		      uint16_t cpumode, uint64_t ip, struct addr_location *al);

/**
 * @brief The symbol part of pipeline__resolve(), for an @p al that
 *        pipeline__resolve_map() filled: al->sym and al->sym_unmapped_start.
 * @return 0, or PIPELINE_AGAIN as pipeline__resolve().
 * Thread safety: as pipeline__resolve().
 */
int pipeline__resolve_sym(struct pipeline_thread *pt, struct addr_location *al);

/**
 * @brief Whether @p pt resolves on the calling thread, in the sample's turn (what
 *        it resolves may change the machine: a sink keeps no cache of it).
 */
bool pipeline_thread__in_turn(const struct pipeline_thread *pt);

/**
 * @brief machine__resolve_map() of @p ip as it was at the sample: the map part
 *        only (al->sym NULL); never waits for a load.
 * Thread safety: as pipeline__resolve().
 */
void pipeline__resolve_map(struct pipeline_thread *pt, const struct resolved_sample *rs,
			   uint16_t cpumode, uint64_t ip, struct addr_location *al);

#endif
