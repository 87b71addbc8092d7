#ifndef DIRREPORT_FORMAT_RECORD_H
#define DIRREPORT_FORMAT_RECORD_H
/*
 * record - the common record header, record type numbers and names, and byte-swapping
 * of whole records into host order.
 *
 * Format: docs/perf-data-format.md §§4.1 (header), 4.3 (kernel types 1..22), 4.4 (perf's own
 * types 64..86, including COMPRESSED2 = 83 of newer perf).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum record_type {
	REC_MMAP = 1, REC_LOST = 2, REC_COMM = 3, REC_EXIT = 4, REC_THROTTLE = 5,
	REC_UNTHROTTLE = 6, REC_FORK = 7, REC_READ = 8, REC_SAMPLE = 9, REC_MMAP2 = 10,
	REC_AUX = 11, REC_ITRACE_START = 12, REC_LOST_SAMPLES = 13, REC_SWITCH = 14,
	REC_SWITCH_CPU_WIDE = 15, REC_NAMESPACES = 16, REC_KSYMBOL = 17,
	REC_BPF_EVENT = 18, REC_CGROUP = 19, REC_TEXT_POKE = 20,
	REC_AUX_OUTPUT_HW_ID = 21, REC_CALLCHAIN_DEFERRED = 22,
	REC_KERNEL_MAX = 22,

	REC_USER_FIRST = 64,
	REC_HEADER_ATTR = 64, REC_HEADER_EVENT_TYPE = 65, REC_HEADER_TRACING_DATA = 66,
	REC_HEADER_BUILD_ID = 67, REC_FINISHED_ROUND = 68, REC_ID_INDEX = 69,
	REC_AUXTRACE_INFO = 70, REC_AUXTRACE = 71, REC_AUXTRACE_ERROR = 72,
	REC_THREAD_MAP = 73, REC_CPU_MAP = 74, REC_STAT_CONFIG = 75, REC_STAT = 76,
	REC_STAT_ROUND = 77, REC_EVENT_UPDATE = 78, REC_TIME_CONV = 79,
	REC_HEADER_FEATURE = 80, REC_COMPRESSED = 81, REC_FINISHED_INIT = 82,
	REC_COMPRESSED2 = 83, REC_BPF_METADATA = 84, REC_SCHEDSTAT_CPU = 85,
	REC_SCHEDSTAT_DOMAIN = 86,
	REC_TYPE_MAX = 87,	/* one past the largest type we know */
};

/* header.misc bits */
enum {
	MISC_CPUMODE_MASK = 7,
	MISC_CPUMODE_UNKNOWN = 0, MISC_KERNEL = 1, MISC_USER = 2, MISC_HYPERVISOR = 3,
	MISC_GUEST_KERNEL = 4, MISC_GUEST_USER = 5,
	MISC_MMAP_DATA = 1 << 13,	/* also COMM_EXEC, FORK_EXEC, SWITCH_OUT */
	MISC_EXACT_IP = 1 << 14,	/* also SWITCH_OUT_PREEMPT, MMAP_BUILD_ID */
	MISC_BUILD_ID_SIZE = 1 << 15,
	/* the same bits under perf's per-type names (docs/perf-data-format.md §4.1) */
	MISC_COMM_EXEC = 1 << 13, MISC_FORK_EXEC = 1 << 13, MISC_SWITCH_OUT = 1 << 13,
	MISC_SWITCH_OUT_PREEMPT = 1 << 14, MISC_MMAP_BUILD_ID = 1 << 14,
};

/* Callchain context markers (entries >= CONTEXT_MAX are not addresses). */
#define CONTEXT_HV ((uint64_t)-32)
#define CONTEXT_KERNEL ((uint64_t)-128)
#define CONTEXT_USER ((uint64_t)-512)
#define CONTEXT_GUEST ((uint64_t)-2048)
#define CONTEXT_GUEST_KERNEL ((uint64_t)-2176)
#define CONTEXT_GUEST_USER ((uint64_t)-2560)
#define CONTEXT_MAX ((uint64_t)-4095)

#define RECORD_HEADER_SIZE 8

struct record_header {
	uint32_t type;
	uint16_t misc;
	uint16_t size;		/* bytes, including this header */
};

/** Decode the 8-byte header at p (host order). Thread safety: pure. */
static inline void record_header__get(struct record_header *h, const void *p)
{
	const unsigned char *b = p;
	__builtin_memcpy(&h->type, b, 4);
	__builtin_memcpy(&h->misc, b + 4, 2);
	__builtin_memcpy(&h->size, b + 6, 2);
}

/**
 * @brief perf's name of a record type without the PERF_RECORD_ prefix ("SAMPLE",
 *        "MMAP2", "FINISHED_ROUND", ...), as used by `perf report -D`.
 * @return a static string; "UNKNOWN" for types we do not know.
 * Thread safety: pure. Format: perf 6.1 perf_event__name() table.
 */
const char *record__type_name(uint32_t type);

/** True for the types perf 6.1 itself can process (1..21 and 64..82). */
bool record__type_known_to_perf61(uint32_t type);

/** True for every type we can read: 1..22 and 64..86. */
bool record__type_known(uint32_t type);

/**
 * @brief Byte-swap one record of a cross-endian file in place into host order.
 * @param rec       record bytes; the header is already swapped by the caller
 * @param size      bytes (== header.size)
 * @param id_hdr_size  bytes of the sample_id trailer for this file's non-sample records
 * Fixed fields are swapped per type; u32 pairs (pid/tid, cpu/res) are fixed up after a
 * u64 pass as perf does. Strings are left alone. Unknown types: only u64 words.
 * Thread safety: touches only rec. Format: docs/perf-data-format.md §12 (perf's event_swap).
 */
void record__swap(void *rec, size_t size, size_t id_hdr_size);

#endif
