#ifndef DIRREPORT_FORMAT_SAMPLE_H
#define DIRREPORT_FORMAT_SAMPLE_H
/*
 * sample - decoding PERF_RECORD_SAMPLE bodies and the sample_id trailer of other records.
 *
 * Format: docs/perf-data-format.md §5.1 (field order, which is not bit order), 5.2 (read_format
 * block), 4.2 (sample_id trailer). Records must already be in host byte order.
 * Pointers in struct sample borrow from the record bytes and live as long as they do.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/attr.h"

/** data_src of a sample without DATA_SRC: every field "not available" (UAPI
 *  PERF_MEM_DATA_SRC_NONE = OP_NA | LVL_NA | SNOOP_NA | LOCK_NA | TLB_NA). */
#define SAMPLE_DATA_SRC_NONE 0x05080021ULL

struct sample_read_value {
	uint64_t value, id, lost;
};

struct sample {
	uint64_t ip;
	uint32_t pid, tid;
	uint64_t time;			/* nanoseconds, perf clock */
	uint64_t addr;
	uint64_t id;
	uint64_t stream_id;
	uint32_t cpu;
	uint64_t period;		/* events per sample (attr.sample_period when absent) */
	/* SAMPLE_READ: group form when (read_format & FORMAT_GROUP) */
	struct {
		uint64_t time_enabled, time_running;
		uint64_t nr;			/* values */
		const unsigned char *values;	/* nr entries of value_size bytes, borrowed */
		size_t value_size;		/* 8 + 8*ID + 8*LOST */
		struct sample_read_value one;	/* non-group form */
	} read;
	uint64_t callchain_nr;
	const unsigned char *callchain;	/* callchain_nr u64 entries, borrowed */
	uint32_t raw_size;		/* bytes */
	const unsigned char *raw;	/* borrowed */
	uint64_t branch_nr;
	uint64_t branch_hw_idx;		/* valid when branch_has_hw_idx */
	bool branch_has_hw_idx;
	const unsigned char *branch;	/* branch_nr × {from, to, flags} u64, borrowed */
	uint64_t user_regs_abi, user_regs_mask;
	const unsigned char *user_regs;	/* popcount(mask) u64 when abi != 0, borrowed */
	uint64_t user_stack_size, user_stack_dyn_size;
	const unsigned char *user_stack;	/* borrowed */
	uint32_t user_stack_offset;	/* offset of the size field in the record (bytes) */
	uint64_t weight;		/* WEIGHT, or var1 of WEIGHT_STRUCT */
	uint16_t ins_lat, weight_var3;	/* WEIGHT_STRUCT var2/var3 */
	uint64_t data_src;
	uint64_t transaction;
	uint64_t intr_regs_abi, intr_regs_mask;
	const unsigned char *intr_regs;	/* borrowed */
	uint64_t phys_addr;
	uint64_t cgroup;
	uint64_t data_page_size, code_page_size;
	uint64_t aux_size;
	const unsigned char *aux;	/* borrowed */
	uint16_t misc;			/* header.misc of the record */
	uint64_t sample_type;		/* of the attr used to decode */
};

/**
 * @brief Decode a PERF_RECORD_SAMPLE in host byte order.
 * @param s     output, fully initialised as perf does: absent fields 0 / NULL, except
 *              cpu, pid, tid, id, stream_id and time (all ones), period
 *              (attr.sample_period) and data_src (SAMPLE_DATA_SRC_NONE)
 * @param attr  the attr of the record's event
 * @param rec   whole record including its 8-byte header
 * @param size  record size in bytes (header.size)
 * @return 0; -DIAG_BAD_SAMPLE when a field or array runs past `size`, or counts are
 *         absurd (callchain nr, branch nr, read nr larger than the record can hold).
 * Thread safety: pure. Format: docs/perf-data-format.md §5.1, 5.2.
 */
int sample__parse(struct sample *s, const struct event_attr *attr, const void *rec,
		  size_t size);

/**
 * @brief Check that a PERF_RECORD_SAMPLE decodes, as sample__parse() would, without
 *        keeping what it holds (no struct to fill with defaults: the scan pass checks
 *        every sample of a recording this way).
 * @param attr  the attr of the record's event
 * @param rec   whole record including its 8-byte header, host byte order
 * @param size  record size in bytes (header.size)
 * @return what sample__parse() returns for the same record: 0 or -DIAG_BAD_SAMPLE.
 * Thread safety: pure. Format: docs/perf-data-format.md §5.1, 5.2.
 */
int sample__check(const struct event_attr *attr, const void *rec, size_t size);

/**
 * @brief Decode the sample_id trailer of a non-SAMPLE record (TID, TIME, ID, STREAM_ID,
 *        CPU, IDENTIFIER as present in attr->sample_type), read backwards from the end.
 * @param s     output: pid/tid/time/id/stream_id/cpu set, others as sample__parse() leaves
 *              absent fields; when attr lacks sample_id_all only defaults are set
 * @return 0; -DIAG_BAD_RECORD when the record is shorter than 8 + trailer.
 * Thread safety: pure. Format: docs/perf-data-format.md §4.2.
 */
int sample__parse_id_trailer(struct sample *s, const struct event_attr *attr,
			     const void *rec, size_t size);

/** One entry of a sample's branch stack (perf's struct branch_entry). */
struct sample_branch {
	uint64_t from, to;		/* instruction addresses */
	uint64_t flags;			/* the entry's bit fields: mispred (bit 0),
					 * predicted (1), in_tx (2), abort (3),
					 * cycles (bits 4-19), type (20-23), ... */
};

/**
 * @brief The idx-th entry of the branch stack of a sample parsed by sample__parse().
 * @param idx  0 <= idx < s->branch_nr (entry 0 is the most recent branch)
 * @return the entry (from, to, flags), read unaligned from the record.
 * Thread safety: pure.  Format: docs/perf-data-format.md §5.1, PERF_SAMPLE_BRANCH_STACK
 *         (nr, hw_idx with PERF_SAMPLE_BRANCH_HW_INDEX, nr × {from, to, flags}).
 */
static inline struct sample_branch sample__branch(const struct sample *s, uint64_t idx)
{
	struct sample_branch b;

	__builtin_memcpy(&b.from, s->branch + 24 * idx, 8);
	__builtin_memcpy(&b.to, s->branch + 24 * idx + 8, 8);
	__builtin_memcpy(&b.flags, s->branch + 24 * idx + 16, 8);
	return b;
}

/** Read the idx-th callchain entry. */
static inline uint64_t sample__callchain_ip(const struct sample *s, uint64_t idx)
{
	uint64_t v;
	__builtin_memcpy(&v, s->callchain + 8 * idx, 8);
	return v;
}



/**
 * @brief After record__swap() of a cross-endian record: put the u32 pairs that a u64
 *        swap exchanged (pid/tid, cpu/reserved in SAMPLE bodies and sample_id
 *        trailers) back in order. The RAW size field is not fixed (tracepoint
 *        samples of cross-endian files are not supported).
 * @param rec, size  the record (host order after record__swap), modified in place
 * Thread safety: touches only rec. Format: docs/perf-data-format.md §12.
 */
void sample__unswap_pairs(const struct event_attr *attr, void *rec, size_t size);

#endif
