#ifndef DIRREPORT_SCRIPT_FORMAT_H
#define DIRREPORT_SCRIPT_FORMAT_H
/*
 * format - the text of perf 6.1's `perf script` sample lines, written into a growable
 * byte buffer (no stdio on the hot path: every sample goes through here).
 *
 * The layout reproduced (observed from perf 6.1, docs/dirscript.1.md):
 *
 *   COMM TID [CPU] TIME: PERIOD EVENT: IP SYM+0xOFF (DSO)          no callchain
 *   COMM TID [CPU] TIME: PERIOD EVENT: \n\tIP SYM+0xOFF (DSO)\n...\n  callchain
 *
 * COMM is right-aligned to 16 columns, except on samples whose callchain is
 * printed (then unpadded); TID (and PID) right-aligned to 5 (`PID/TID ` with
 * both, TID left-aligned); CPU `[%03d]`; TIME seconds with 6 decimals (truncated
 * to microseconds) right-aligned to 12; PERIOD right-aligned to 10; EVENT
 * right-aligned to the longest event name of the recording; IP 16 hex digits
 * right-aligned; a missing symbol or dso prints `[unknown]`.
 *
 * Thread safety: a buffer belongs to one thread; the functions touch only it.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

/** The fields of `perf script -F` that dirscript prints (a bit mask). */
enum script_field {
	SCRIPT_F_COMM = 1u << 0,
	SCRIPT_F_TID = 1u << 1,
	SCRIPT_F_PID = 1u << 2,
	SCRIPT_F_TIME = 1u << 3,
	SCRIPT_F_CPU = 1u << 4,
	SCRIPT_F_EVENT = 1u << 5,
	SCRIPT_F_PERIOD = 1u << 6,
	SCRIPT_F_IP = 1u << 7,
	SCRIPT_F_SYM = 1u << 8,
	SCRIPT_F_SYMOFF = 1u << 9,
	SCRIPT_F_DSO = 1u << 10,
	/* the tracepoint's payload as libtraceevent formats it (tracepoint events) */
	SCRIPT_F_TRACE = 1u << 11,
	/* perf's raw event output (its default for attr.type PERF_TYPE_RAW, the cpu
	 * PMU's events such as MEM_TRANS_RETIRED.LOAD_LATENCY): printed after the
	 * event name (addr to ins_lat) or after the location (the others) */
	SCRIPT_F_ADDR = 1u << 12,
	SCRIPT_F_DATA_SRC = 1u << 13,	/* the value and its text (machine/mem.h) */
	SCRIPT_F_WEIGHT = 1u << 14,
	SCRIPT_F_INS_LAT = 1u << 15,	/* WEIGHT_STRUCT's var2_w */
	SCRIPT_F_PHYS_ADDR = 1u << 16,
	SCRIPT_F_DATA_PAGE_SIZE = 1u << 17,
	SCRIPT_F_CODE_PAGE_SIZE = 1u << 18,
};

/** The fields perf adds for raw events (PERF_TYPE_RAW) by default. */
#define SCRIPT_F_RAW_EXTRA (SCRIPT_F_ADDR | SCRIPT_F_DATA_SRC | SCRIPT_F_WEIGHT | \
			    SCRIPT_F_INS_LAT | SCRIPT_F_PHYS_ADDR | \
			    SCRIPT_F_DATA_PAGE_SIZE | SCRIPT_F_CODE_PAGE_SIZE)

/** A growable output buffer (bytes, not NUL-terminated). */
struct script_buf {
	char *p;		/* owned */
	size_t len, cap;	/* bytes used / allocated */
};

/**
 * @brief Make room for @p n more bytes.
 * @return 0 or -ENOMEM (the buffer unchanged).
 * Thread safety: the buffer's thread.  Format: none.
 */
int script_buf__reserve_slow(struct script_buf *b, size_t n);

static inline int script_buf__reserve(struct script_buf *b, size_t n)
{
	return b->cap - b->len >= n ? 0 : script_buf__reserve_slow(b, n);
}

/** @brief Append @p n bytes of @p s. @return 0 or -ENOMEM. */
int script_buf__put(struct script_buf *b, const char *s, size_t n);

/** @brief Free the buffer's bytes and zero it (safe twice). */
void script_buf__exit(struct script_buf *b);

/**
 * @brief Parse the argument of -F: comma-separated field names (comm, tid, pid,
 *        time, cpu, event, period, ip, sym, symoff, dso, trace, addr, data_src,
 *        weight, ins_lat, phys_addr, data_page_size, code_page_size).
 * @param arg     the list
 * @param fields  receives the SCRIPT_F_* mask
 * @param bad     receives the first unknown name (a pointer into @p arg, not
 *                NUL-terminated: up to the next comma) on error
 * @return 0, or -EINVAL for an empty list, an empty item or an unknown field
 *         (perf's other fields and its `type:` prefixes are not implemented).
 * Thread safety: pure.  Format: perf script -F names (man perf-script).
 */
int script_fields__parse(const char *arg, unsigned *fields, const char **bad);

/** @brief The -F name of one SCRIPT_F_* bit ("comm", ...), or "unknown". */
const char *script_field__name(unsigned field);

/** What the start of a sample line shows. */
struct script_head {
	const char *comm;	/* the thread's current name; borrowed */
	bool comm_unaligned;	/* the callchain is printed: `%s `, not `%16s ` */
	int32_t pid, tid;	/* as recorded (-1 when absent) */
	int32_t cpu;
	uint64_t time;		/* ns */
	uint64_t period;
	const char *event;	/* evsel name; borrowed */
	int name_width;		/* the recording's longest event name, characters */
	const char *trace;	/* the tracepoint's payload text (SCRIPT_F_TRACE), or
				 * NULL; borrowed; printed by the caller after the head */
};

/**
 * @brief Append the sample line's start: the fields of @p fields among COMM, PID,
 *        TID, CPU, TIME, PERIOD and EVENT, each followed by a space.
 * @return 0 or -ENOMEM.
 * Thread safety: the buffer's thread.
 * Format: perf 6.1's perf_sample__fprintf_start() and process_event() text.
 */
int script_buf__head(struct script_buf *b, unsigned fields, const struct script_head *h);

/** One resolved address. */
struct script_loc {
	uint64_t ip;		/* the address printed (as recorded, or map-relative) */
	uint64_t map_addr;	/* map-relative address (perf's al->addr); not printed */
	const char *sym;	/* symbol name, NULL when unresolved; borrowed */
	uint64_t symoff;	/* bytes from the symbol's start */
	const char *dso;	/* dso name (dso__name()), NULL without a map; borrowed */
	bool module;		/* the map is a kernel module's: perf prints a
				 * callchain entry there at its address as
				 * recorded, not map-relative */
	bool inlined;		/* sym is an inlined function of the frame (perf
				 * prints " (inlined)" instead of the dso) */
};

/**
 * @brief Append one location: IP (`%16x`), then ` SYM` (`+0xOFF` with
 *        SCRIPT_F_SYMOFF) and ` (DSO)`, as @p fields select (nothing without
 *        SCRIPT_F_IP: perf prints no location then).
 * @return 0 or -ENOMEM.
 * Thread safety: the buffer's thread.
 * Format: perf 6.1's sample__fprintf_sym() / sample__fprintf_callchain().
 */
int script_buf__loc(struct script_buf *b, unsigned fields, const struct script_loc *l);

/**
 * @brief Append @p v in hexadecimal (lower case), right-aligned to @p width columns
 *        (printf's `%*llx`).
 * @return 0 or -ENOMEM.  Thread safety: the buffer's thread.  Format: none.
 */
int script_buf__hex(struct script_buf *b, uint64_t v, int width);

/**
 * @brief Append perf script's data_src column: the value (`%16llx`), a space and
 *        its text (mem_src__script_text()), cut to 99 bytes as perf's buffer cuts
 *        it, then left-aligned to the widest such column printed so far.
 * @param width  in/out: that width (0 before the first; perf keeps one per run)
 * @return 0 or -ENOMEM.  Thread safety: the buffer's thread.
 * Format: PERF_SAMPLE_DATA_SRC; text: perf 6.1's `perf script -F data_src`.
 */
int script_buf__data_src(struct script_buf *b, uint64_t data_src, int *width);

/**
 * @brief Append a page size as perf script prints it: " N/A" for 0, else a space,
 *        the size divided by 1024 while the quotient is above 1 (three times at
 *        most) and its unit B, K, M or G, e.g. " 4K", " 2M" (observed).
 * @return 0 or -ENOMEM.  Thread safety: the buffer's thread.
 * Format: PERF_SAMPLE_DATA_PAGE_SIZE / CODE_PAGE_SIZE (bytes).
 */
int script_buf__page_size(struct script_buf *b, uint64_t size);

/**
 * @brief Append @p v in decimal, right-aligned to @p width columns.
 * @return 0 or -ENOMEM.  Thread safety: the buffer's thread.  Format: none.
 */
int script_buf__udec(struct script_buf *b, uint64_t v, int width);

#endif
