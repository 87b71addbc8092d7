#ifndef DIRREPORT_FORMAT_ATTR_H
#define DIRREPORT_FORMAT_ATTR_H
/*
 * attr - struct perf_event_attr as stored in perf.data, every version from VER0 (64 bytes)
 * to VER8 (136 bytes, config3) and beyond (unknown trailing bytes are ignored).
 *
 * Format: docs/perf-data-format.md §1.3 (kernel UAPI perf_event_attr). We keep our own struct
 * rather than <linux/perf_event.h> so that fields newer than the build machine's UAPI
 * headers (config3) can be read.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* sample_type bits (PERF_SAMPLE_*) */
enum {
	SAMPLE_IP = 1ULL << 0, SAMPLE_TID = 1ULL << 1, SAMPLE_TIME = 1ULL << 2,
	SAMPLE_ADDR = 1ULL << 3, SAMPLE_READ = 1ULL << 4, SAMPLE_CALLCHAIN = 1ULL << 5,
	SAMPLE_ID = 1ULL << 6, SAMPLE_CPU = 1ULL << 7, SAMPLE_PERIOD = 1ULL << 8,
	SAMPLE_STREAM_ID = 1ULL << 9, SAMPLE_RAW = 1ULL << 10,
	SAMPLE_BRANCH_STACK = 1ULL << 11, SAMPLE_REGS_USER = 1ULL << 12,
	SAMPLE_STACK_USER = 1ULL << 13, SAMPLE_WEIGHT = 1ULL << 14,
	SAMPLE_DATA_SRC = 1ULL << 15, SAMPLE_IDENTIFIER = 1ULL << 16,
	SAMPLE_TRANSACTION = 1ULL << 17, SAMPLE_REGS_INTR = 1ULL << 18,
	SAMPLE_PHYS_ADDR = 1ULL << 19, SAMPLE_AUX = 1ULL << 20, SAMPLE_CGROUP = 1ULL << 21,
	SAMPLE_DATA_PAGE_SIZE = 1ULL << 22, SAMPLE_CODE_PAGE_SIZE = 1ULL << 23,
	SAMPLE_WEIGHT_STRUCT = 1ULL << 24,
};

/* read_format bits (PERF_FORMAT_*) */
enum {
	FORMAT_TOTAL_TIME_ENABLED = 1 << 0, FORMAT_TOTAL_TIME_RUNNING = 1 << 1,
	FORMAT_ID = 1 << 2, FORMAT_GROUP = 1 << 3, FORMAT_LOST = 1 << 4,
};

/* Flag bits of the u64 at offset 40 (docs/perf-data-format.md §1.3). */
enum attr_flag {
	ATTR_DISABLED = 0, ATTR_INHERIT = 1, ATTR_PINNED = 2, ATTR_EXCLUSIVE = 3,
	ATTR_EXCLUDE_USER = 4, ATTR_EXCLUDE_KERNEL = 5, ATTR_EXCLUDE_HV = 6,
	ATTR_EXCLUDE_IDLE = 7, ATTR_MMAP = 8, ATTR_COMM = 9, ATTR_FREQ = 10,
	ATTR_INHERIT_STAT = 11, ATTR_ENABLE_ON_EXEC = 12, ATTR_TASK = 13,
	ATTR_WATERMARK = 14, ATTR_PRECISE_IP = 15 /* 2 bits */, ATTR_MMAP_DATA = 17,
	ATTR_SAMPLE_ID_ALL = 18, ATTR_EXCLUDE_HOST = 19, ATTR_EXCLUDE_GUEST = 20,
	ATTR_EXCLUDE_CALLCHAIN_KERNEL = 21, ATTR_EXCLUDE_CALLCHAIN_USER = 22,
	ATTR_MMAP2 = 23, ATTR_COMM_EXEC = 24, ATTR_USE_CLOCKID = 25,
	ATTR_CONTEXT_SWITCH = 26, ATTR_WRITE_BACKWARD = 27, ATTR_NAMESPACES = 28,
	ATTR_KSYMBOL = 29, ATTR_BPF_EVENT = 30, ATTR_AUX_OUTPUT = 31, ATTR_CGROUP = 32,
	ATTR_TEXT_POKE = 33, ATTR_BUILD_ID = 34, ATTR_INHERIT_THREAD = 35,
	ATTR_REMOVE_ON_EXEC = 36, ATTR_SIGTRAP = 37,
};

/* attr.type values */
enum {
	ATTR_TYPE_HARDWARE = 0, ATTR_TYPE_SOFTWARE = 1, ATTR_TYPE_TRACEPOINT = 2,
	ATTR_TYPE_HW_CACHE = 3, ATTR_TYPE_RAW = 4, ATTR_TYPE_BREAKPOINT = 5,
};

#define ATTR_SIZE_VER0 64
#define ATTR_SIZE_VER7 128	/* perf 6.1 */
#define ATTR_SIZE_VER8 136	/* perf 6.3+: config3 */
/** Largest attr.size we accept; bigger ones are newer than any known layout but are
 *  still read (unknown tail ignored) up to this bound so a damaged size cannot drive
 *  allocations. */
#define ATTR_SIZE_MAX 4096

struct event_attr {
	uint32_t type;
	uint32_t size;			/* bytes, as stored (0 in the file means 64) */
	uint64_t config;
	uint64_t sample_period;		/* or sample_freq when ATTR_FREQ */
	uint64_t sample_type;		/* SAMPLE_* */
	uint64_t read_format;		/* FORMAT_* */
	uint64_t flags;			/* bit n = enum attr_flag n, host bit order */
	uint32_t wakeup_events;
	uint32_t bp_type;
	uint64_t config1;		/* bp_addr / kprobe_func / uprobe_path */
	uint64_t config2;		/* bp_len / kprobe_addr / probe_offset */
	uint64_t branch_sample_type;
	uint64_t sample_regs_user;
	uint32_t sample_stack_user;	/* bytes */
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack;
	uint32_t aux_sample_size;
	uint64_t sig_data;
	uint64_t config3;
};

static inline bool attr__flag(const struct event_attr *a, enum attr_flag f)
{
	return (a->flags >> f) & 1;
}

/**
 * @brief Decode an attr from its on-disk bytes.
 * @param a     output (zeroed first; fields beyond the stored size stay 0)
 * @param p     the stored attr, at least `len` bytes
 * @param len   bytes available at p (>= 8 to read the size field)
 * @param swap  file is in the other byte order: integers are swapped and the bit order
 *              inside each byte of the flag word is reversed (docs/perf-data-format.md §12)
 * @return 0; -DIAG_BAD_ATTR if len < 8 or the stored size (0 = 64) exceeds len or is
 *         smaller than 64.
 * Ownership: nothing retained. Thread safety: pure.
 * Format: perf_event_attr VER0..VER8, docs/perf-data-format.md §1.3.
 */
int attr__decode(struct event_attr *a, const void *p, size_t len, bool swap);

/**
 * @brief Encode an attr into `size` bytes (a->size must equal size, 64..136) in host order.
 * @return 0, or -DIAG_BAD_ATTR for an unsupported size. Used by tests and writers.
 * Thread safety: pure.
 */
int attr__encode(const struct event_attr *a, void *p, size_t size);

/** Number of u64 slots before the id in a SAMPLE (id_pos), or -1 when it has none. */
int attr__id_pos(const struct event_attr *a);
/** Position of the id counted from the end of a non-sample record (is_pos), or -1. */
int attr__is_pos(const struct event_attr *a);
/** Bytes of the sample_id trailer of non-SAMPLE records (0 without sample_id_all). */
size_t attr__id_hdr_size(const struct event_attr *a);

#endif
