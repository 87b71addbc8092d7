#ifndef DIRREPORT_REPORT_DUMP_H
#define DIRREPORT_REPORT_DUMP_H
/*
 * dump - the text of `perf report -D` (dump-raw-trace) for one record, plus the
 * preamble and the closing statistics, byte for byte as perf 6.1 prints them.
 *
 * The formatter is pure: it never looks records up, keeps no machine state and does
 * no ordering. The caller (cmd-dump) decides the delivery order (docs/perf-data-format.md §7),
 * resolves threads and DSOs for samples, and hands each record over with the facts it
 * needs in a struct dump_rec.
 *
 * Damaged records: every field is read bounds-checked against the record size. Where
 * perf 6.1 would read past the end of a record (it does not check most sizes and then
 * prints whatever memory follows), we print what lies inside the record, take missing
 * fixed fields as 0, stop arrays at the last complete entry and strings at the record
 * end, and add the marker line DUMP_TRUNCATED_MARK after the record's text. Where perf
 * has its own check (ID_INDEX "Too big: ..."), its text is reproduced.
 *
 * Format: docs/perf-data-format.md §9 (the -D output), 4 (record layouts), 5 (samples), 8
 * (pipe offsets and the `pipe` label).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/record.h"	/* REC_TYPE_MAX */
#include "report/strbuf.h"

struct evlist;
struct evsel;
struct sample;

/** Line appended after the text of a record that is too short for its type. */
#define DUMP_TRUNCATED_MARK "... truncated record\n"

/* Evlist-wide facts perf consults for every record's summary prefix. */
struct dump_ctx {
	bool sample_id_all;	/* the FIRST evsel has attr.sample_id_all; false => "-1 -1 " */
	bool any_cpu;		/* some evsel samples PERF_SAMPLE_CPU => "<cpu> " */
	bool any_time;		/* some evsel samples PERF_SAMPLE_TIME => "<time> " */
	const char *arch;	/* borrowed: the recording's ARCH feature ("x86_64"), for
				 * register names; NULL means x86 (perf uses the host arch) */
};

/* One record to print. Zero-initialise, then fill what applies. */
struct dump_rec {
	const void *data;	/* borrowed: whole record incl. its header, host order */
	size_t size;		/* bytes readable at data; the record length used is
				 * min(header.size, size) */
	uint64_t offset;	/* printed file offset: the record's own, or for a record
				 * decompressed from COMPRESSED the container's (bytes);
				 * pipe offsets count from the end of the 16-byte header */
	const char *path;	/* borrowed: "dir/data.1", "f.data", or "pipe" */
	const struct evsel *evsel;	/* borrowed; the record's event (docs/perf-data-format.md §5.3);
					 * NULL for perf's own records (types >= 64) */
	const struct sample *sample;	/* borrowed; SAMPLE: the parsed body; other
					 * kernel records: the parsed id trailer; NULL when
					 * not parsed: the prefix prints perf's defaults (-1),
					 * and a SAMPLE gets DUMP_TRUNCATED_MARK instead of
					 * its fields */
	/* SAMPLE only: what perf report's sample handler prints per delivery. */
	unsigned nr_deliveries;	/* times the pair " ... thread:" / " ...... dso:" is printed:
				 * 1 normally; for SAMPLE_READ one per delivered value
				 * (perf skips values whose id is unknown or whose period
				 * delta is 0); 0 when the sample is not delivered */
	const char *comm;	/* borrowed; thread comm as perf shows it (":<tid>" when
				 * the thread has none); NULL prints "" */
	int tid;		/* the thread's tid */
	const char *dso;	/* borrowed; long DSO name, "[hypervisor]", or NULL for
				 * "<not found>" */
	/* TEXT_POKE only: symbol text perf prints between address and " old len" (it
	 * resolves addr in the kernel maps and prints "sym+0xoff"); NULL prints nothing. */
	const char *text_poke_sym;
};

/**
 * @brief Fill a dump_ctx from an evlist (which may be empty: pipe mode before the
 *        first HEADER_ATTR, where perf prints "-1 -1 ").
 * @param ctx   output
 * @param el    borrowed, read only during the call; may be NULL (same as empty)
 * @param arch  borrowed for the lifetime of ctx; ARCH feature text or NULL
 * Thread safety: reads el (model (a)); touches only *ctx.
 * Format: perf's evlist__sample_id_all() (first evsel) and combined sample_type.
 */
void dump_ctx__init(struct dump_ctx *ctx, const struct evlist *el, const char *arch);

/**
 * @brief Append the two preamble lines perf prints before the first record.
 * Thread safety: touches only *out. Format: docs/perf-data-format.md §9 item 1.
 */
void dump__preamble(struct strbuf *out);

/**
 * @brief Append the complete -D text of one record: blank line,
 *        "<off>@<path> [<size>]: event: <type>", the raw hex dump, blank line, the
 *        summary line ("<prefix><off> [<size>]: PERF_RECORD_<NAME>") and the
 *        type-specific suffix. For ATTR, EVENT_TYPE, TRACING_DATA, BUILD_ID and FEATURE
 *        the summary has no newline (perf prints none); the same holds for kernel types
 *        perf 6.1 cannot process (23..63: "PERF_RECORD_UNKNOWN", after which perf
 *        aborts) and for a SAMPLE whose evsel is NULL.
 * @param out  output buffer (check strbuf__error() after a batch)
 * @param ctx  evlist-wide facts valid at the time perf delivers the record
 * @param r    the record; nothing is printed when r->size < 8 (no record header)
 * Types perf 6.1 cannot process but newer perf knows (CALLCHAIN_DEFERRED = 22,
 * COMPRESSED2 = 83, BPF_METADATA = 84, SCHEDSTAT_CPU = 85, SCHEDSTAT_DOMAIN = 86) get
 * their newer-perf name and the suffix ": unhandled!" (6.1 prints UNKNOWN for 22 and
 * rejects >= 83 unprinted; newer perf's own suffixes for them are not reproduced).
 * COMPRESSED / COMPRESSED2 containers are normally not printed at all (perf prints only
 * what it decompresses from them); if passed here they get ": unhandled!".
 * Ownership: nothing retained. Thread safety: touches only *out; reads r and ctx.
 * Format: docs/perf-data-format.md §9 (summary formats per type), 4.3/4.4 (layouts).
 */
void dump__record(struct strbuf *out, const struct dump_ctx *ctx, const struct dump_rec *r);

/**
 * @brief perf's name of a record type for -D and the statistics ("MMAP", "ATTR",
 *        "FEATURE", ...): "TOTAL" for 0, "UNKNOWN" for unnamed types below 87,
 *        "INVALID" above.
 * @return a static string. Thread safety: pure. Format: perf_event__name().
 */
const char *dump__type_name(uint32_t type);

/* Number of per-type counters: types 0 (TOTAL) .. REC_TYPE_MAX - 1. */
#define DUMP_STATS_NR_TYPES REC_TYPE_MAX

/*
 * Record counts for the closing "Aggregated stats:" block and the per-event blocks.
 * Counters are 32-bit and printed with %d, as perf does. Zero-initialise or use
 * dump_stats__init().
 */
struct dump_stats {
	uint32_t nr_events[DUMP_STATS_NR_TYPES];	/* [0] = TOTAL, [t] = records of type t */
	uint32_t *nr_samples;		/* owned; per evsel idx: samples delivered to it */
	uint32_t *nr_lost_samples;	/* owned; per evsel idx */
	size_t nr_evsels;		/* entries in the two arrays */
};

/** @brief Initialise empty counters. Thread safety: touches only *st. Format: none. */
void dump_stats__init(struct dump_stats *st);

/** @brief Free the per-evsel arrays; safe on zeroed/exited stats. Thread safety: *st. */
void dump_stats__exit(struct dump_stats *st);

/**
 * @brief Count one record read from the input (perf counts every record it reads,
 *        including COMPRESSED containers and each record decompressed from them, before
 *        processing it). Types >= DUMP_STATS_NR_TYPES are not counted (perf 6.1 rejects
 *        them before counting).
 * Thread safety: touches only *st. Format: perf's events_stats__inc().
 */
static inline void dump_stats__count(struct dump_stats *st, uint32_t type)
{
	if (type < DUMP_STATS_NR_TYPES) {
		st->nr_events[0]++;
		st->nr_events[type]++;
	}
}

/**
 * @brief Count one sample delivered to the evsel at position idx (for group reads:
 *        once per delivered member, to the member's evsel).
 * @return 0 or -ENOMEM.
 * Thread safety: touches only *st. Format: perf's hists stats nr_samples.
 */
int dump_stats__count_sample(struct dump_stats *st, size_t evsel_idx);

/**
 * @brief Count @p n samples at once for the evsel at idx: perf's branch view counts
 *        one per branch of a sample's branch stack (report/branch.h).
 * @return 0 or -ENOMEM.
 * Thread safety: touches only *st. Format: perf's hists stats nr_samples.
 */
int dump_stats__count_samples(struct dump_stats *st, size_t evsel_idx, uint64_t n);

/**
 * @brief Count a LOST_SAMPLES record for the evsel at idx. Note: perf 6.1 `report -D`
 *        never increments this (verified), so a caller matching 6.1 does not call it.
 * @return 0 or -ENOMEM.
 * Thread safety: touches only *st. Format: hists stats nr_lost_samples (newer perf).
 */
int dump_stats__count_lost_samples(struct dump_stats *st, size_t evsel_idx);

/**
 * @brief Add src's counters to dst (for per-worker counting).
 * @return 0 or -ENOMEM (dst is then partially updated).
 * Thread safety: touches *dst, reads *src. Format: none.
 */
int dump_stats__merge(struct dump_stats *dst, const struct dump_stats *src);

/**
 * @brief Append the closing block: empty line, "Aggregated stats:" (with perf's
 *        " (excludes AUX area ...)" note when the file has the AUXTRACE feature), one
 *        line per non-zero type in numeric order, then for each evsel with samples
 *        "<name> stats:" and its SAMPLE / LOST_SAMPLES lines.
 * @param el            borrowed; evsel names and order (may be NULL: no event blocks)
 * @param has_auxtrace  the header has feature AUXTRACE
 * Thread safety: touches only *out. Format: perf_session__fprintf_nr_events() and
 * evlist__fprintf_nr_events() with skip-empty (perf report's default).
 */
void dump_stats__print(struct strbuf *out, const struct dump_stats *st,
		       const struct evlist *el, bool has_auxtrace);

/**
 * @brief dump_stats__print() with perf's --skip-empty made explicit.
 * @param skip_empty  true: as dump_stats__print(); false (perf --no-skip-empty): every
 *                    record type perf 6.1 knows (1-21, 64-82) gets a line, zero
 *                    counts too ("  ( 0.0%)"), and every evsel its "<name> stats:"
 *                    line, with or without samples
 * Thread safety: touches only *out. Format: perf 6.1 `perf report --stats
 * --no-skip-empty` (observed).
 */
void dump_stats__print_opt(struct strbuf *out, const struct dump_stats *st,
			   const struct evlist *el, bool has_auxtrace, bool skip_empty);

#endif
