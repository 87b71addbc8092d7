#ifndef DIRREPORT_CONVERT_EXPORT_H
#define DIRREPORT_CONVERT_EXPORT_H
/*
 * export - the rows of perf 6.1's database export (perf script -s export-to-sqlite.py),
 * computed from records replayed in perf's order.  No SQL here: rows go to a sink.
 *
 * What perf's export does, observed on its databases and reproduced here:
 *  - ids are dense and given on first use: an event when its first sample is
 *    exported, a thread, comm, dso or symbol when a sample (or, with callchains, a
 *    callchain entry) first refers to it; row 0 of every table is a placeholder
 *    ("unknown") written first.
 *  - per sample: the process's main thread is exported first (process_id = its own
 *    id), then its "exec" comm (machine__thread_exec_comm) with a comm_threads row;
 *    then the sample's thread (process_id = the main thread's id, 0 without one),
 *    with a comm_threads row linking it to that exec comm when it is new; then the
 *    thread's current comm if new (a comms row, no comm_threads row).  samples.comm_id is
 *    the main thread's exec comm, 0 when the thread has no main thread.
 *  - an address in a map without a symbol gets a zero-size symbol "unknown" at the
 *    map-relative address (perf inserts it into the dso, so later lookups of exactly
 *    that address find it); without a map dso_id, symbol_id and sym_offset are 0.
 *  - samples of tracepoint events are not exported (perf hands them to the script's
 *    tracepoint handler, which drops them); EXPORT_ALL_EVENTS exports them too.
 *  - samples in guest cpumodes are filtered out (perf_guest is off by default).
 *  - with EXPORT_CALLCHAINS: the sample's callchain, resolved root first (perf's
 *    ORDER_CALLER, at most 127 addresses from the root end), becomes a path of
 *    call_paths nodes (parent, symbol, ip; ip is 0 when the node has a symbol); the
 *    root node (id 1 on first use) has parent 0.  Entries in a map without symbol are
 *    looked up again with the raw address and get an "unknown" symbol there.
 *  - page-fault events sampling ADDR also resolve the data address (to_dso_id,
 *    to_symbol_id, to_sym_offset); samples.to_ip is the sample's ADDR in any case.
 *
 * A sample goes through the sample pipeline (resolve/pipeline.h): its threads and
 * comms get their ids in order, its addresses are resolved on any worker, then its
 * dsos, symbols and call paths get their ids and its row is written, in order.  The
 * rows are the same at every -j.
 *
 * Thread safety: an exporter belongs to the thread replaying the records; the
 * pipeline's workers only resolve addresses.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct evlist;
struct machine;
struct record_ref;
struct session;
struct workqueue;

/** Tables rows are produced for. */
enum export_table {
	EXPORT_EVSEL,		/* selected_events (id, name) */
	EXPORT_MACHINE,		/* machines (id, pid, root_dir) */
	EXPORT_THREAD,		/* threads (id, machine_id, process_id, pid, tid) */
	EXPORT_COMM,		/* comms (id, comm, c_thread_id, c_time, exec_flag) */
	EXPORT_COMM_THREAD,	/* comm_threads (id, comm_id, thread_id) */
	EXPORT_DSO,		/* dsos (id, machine_id, short_name, long_name, build_id) */
	EXPORT_SYMBOL,		/* symbols (id, dso_id, sym_start, sym_end, binding, name) */
	EXPORT_BRANCH_TYPE,	/* branch_types (id, name) */
	EXPORT_CALL_PATH,	/* call_paths (id, parent_id, symbol_id, ip) */
	EXPORT_SAMPLE,		/* samples: the 25 columns in table order */
	EXPORT__NR_TABLES
};

/** Columns of a samples row (the order of perf's samples table). */
enum export_sample_col {
	ES_ID, ES_EVSEL_ID, ES_MACHINE_ID, ES_THREAD_ID, ES_COMM_ID, ES_DSO_ID,
	ES_SYMBOL_ID, ES_SYM_OFFSET, ES_IP, ES_TIME, ES_CPU, ES_TO_DSO_ID,
	ES_TO_SYMBOL_ID, ES_TO_SYM_OFFSET, ES_TO_IP, ES_PERIOD, ES_WEIGHT,
	ES_TRANSACTION, ES_DATA_SRC, ES_BRANCH_TYPE, ES_IN_TX, ES_CALL_PATH_ID,
	ES_INSN_COUNT, ES_CYC_COUNT, ES_FLAGS,
	ES__NR_COLS
};

/** Most text columns a row has (dsos: short_name, long_name, build_id). */
#define EXPORT_ROW_MAX_TEXT 3

/**
 * One row.  Integer columns are in v[] and text columns in text[], each in table
 * order; the integers are perf's values as signed 64-bit numbers (addresses above
 * 2^63 are negative, as in perf's database).
 */
struct export_row {
	enum export_table table;
	const char *text[EXPORT_ROW_MAX_TEXT];	/* borrowed: valid while the exporter
						 * and its machine live */
	int64_t v[ES__NR_COLS];
};

/**
 * @brief Where rows go.  Called in the order perf writes them; a non-zero return
 *        stops the export and is returned by the exporter.
 */
struct export_sink {
	int (*row)(void *ctx, const struct export_row *row);
	/* optional: bytes of records (their size on disk) about to be replayed, per
	 * batch (a progress bar) */
	void (*progress)(void *ctx, uint64_t bytes);
	void *ctx;
};

enum export_flags {
	EXPORT_CALLCHAINS = 1 << 0,	/* call_paths and samples.call_path_id */
	EXPORT_ALL_EVENTS = 1 << 1,	/* tracepoint samples too */
};

struct exporter;

/**
 * @brief Create an exporter.
 * @param out     the exporter (caller owns; exporter__delete frees)
 * @param m       the machine records are replayed into (borrowed; must outlive the
 *                exporter and every row it produced)
 * @param el      the recording's events (borrowed, immutable)
 * @param flags   EXPORT_* flags
 * @param sink    receives the rows (copied)
 * @return 0 or -ENOMEM.
 * Thread safety: the replaying thread.  Format: none.
 */
int exporter__new(struct exporter **out, struct machine *m, struct evlist *el,
		  unsigned flags, const struct export_sink *sink);

/**
 * @brief Free an exporter (NULL is a no-op).  The text of the rows it produced lives
 *        in the machine (comms, dso and symbol names) and in the exporter (build-id
 *        text): finish with the rows (db_writer__commit()) before deleting either.
 * Thread safety: the replaying thread.  Format: none.
 */
void exporter__delete(struct exporter *e);

/**
 * @brief Unwind the user stacks of --call-graph dwarf samples into their callchains
 *        (machine/unwind.h), their frames expanded into inlined functions as perf's
 *        export does; nothing when no event samples user stacks.
 * @param arch  the recording's architecture (ARCH feature), NULL: this machine's;
 *              borrowed until exporter__begin()
 * @return 0.  Call before exporter__begin().
 */
int exporter__unwind(struct exporter *e, const char *arch);

/**
 * @brief Write the placeholder rows (id 0 of every table) and the branch_types table,
 *        and make the sample pipeline that resolves the samples on @p wq's workers
 *        (and the calling thread).
 * @param wq  borrowed, until exporter__delete(); its workers run the pipeline's jobs
 * @return 0, -ENOMEM (an unwinder too), or the sink's error.
 * Thread safety: the replaying thread.  Format: none.
 */
int exporter__begin(struct exporter *e, struct workqueue *wq);

/**
 * @brief session__deliver()'s batch callback (pass the exporter as ctx): the batch's
 *        records in perf's delivery order, side-band records into the machine,
 *        samples into rows; every row of the batch is written before it returns.
 * @return 0; -ENOMEM; -DIAG_BAD_SAMPLE / -DIAG_BAD_RECORD for a record that does not
 *         parse (exporter__bad() names it); or the sink's error (negative).
 * Thread safety: the replaying thread.  Format: SAMPLE (docs/perf-data-format.md
 *         §5.1), COMM, FORK, EXIT, MMAP, MMAP2 (4.3).
 */
int exporter__on_batch(void *e, const struct record_ref *const *recs, size_t n);

/**
 * @brief Deliver the whole session through the exporter (pipeline__deliver(): each
 *        batch's samples resolved on the workers while the next batch is
 *        replayed); every row is written before it returns.
 * @return as exporter__on_batch(), or the session's delivery error.
 * Thread safety: the replaying thread, once.
 */
int exporter__deliver(struct exporter *e, struct session *s);

/**
 * @brief Where the first error of a record was (pipeline__bad()): its file index and
 *        byte offset.  @return false when the error was no record's.
 */
bool exporter__bad(const struct exporter *e, uint16_t *file, uint64_t *offset);

/** Counts of what was exported and skipped. */
struct export_stats {
	uint64_t samples;		/* samples rows written (placeholder excluded) */
	uint64_t skipped_tracepoint;	/* tracepoint samples left out */
	uint64_t skipped_guest;		/* guest-mode samples left out */
	uint64_t rows[EXPORT__NR_TABLES];	/* rows per table, placeholders included */
};

/** @brief The counts so far.  Thread safety: the replaying thread. */
void exporter__stats(const struct exporter *e, struct export_stats *st);

#endif
