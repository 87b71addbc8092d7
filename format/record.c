#include "format/record.h"

#include <string.h>	/* strnlen */

#include "format/bytes.h"
#include "banned.h"

static const char *const type_names[REC_TYPE_MAX] = {
	[0] = "UNKNOWN",
	[REC_MMAP] = "MMAP", [REC_LOST] = "LOST", [REC_COMM] = "COMM",
	[REC_EXIT] = "EXIT", [REC_THROTTLE] = "THROTTLE", [REC_UNTHROTTLE] = "UNTHROTTLE",
	[REC_FORK] = "FORK", [REC_READ] = "READ", [REC_SAMPLE] = "SAMPLE",
	[REC_MMAP2] = "MMAP2", [REC_AUX] = "AUX", [REC_ITRACE_START] = "ITRACE_START",
	[REC_LOST_SAMPLES] = "LOST_SAMPLES", [REC_SWITCH] = "SWITCH",
	[REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE", [REC_NAMESPACES] = "NAMESPACES",
	[REC_KSYMBOL] = "KSYMBOL", [REC_BPF_EVENT] = "BPF_EVENT", [REC_CGROUP] = "CGROUP",
	[REC_TEXT_POKE] = "TEXT_POKE", [REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[REC_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",
	[REC_HEADER_ATTR] = "ATTR", [REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[REC_HEADER_TRACING_DATA] = "TRACING_DATA", [REC_HEADER_BUILD_ID] = "BUILD_ID",
	[REC_FINISHED_ROUND] = "FINISHED_ROUND", [REC_ID_INDEX] = "ID_INDEX",
	[REC_AUXTRACE_INFO] = "AUXTRACE_INFO", [REC_AUXTRACE] = "AUXTRACE",
	[REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR", [REC_THREAD_MAP] = "THREAD_MAP",
	[REC_CPU_MAP] = "CPU_MAP", [REC_STAT_CONFIG] = "STAT_CONFIG", [REC_STAT] = "STAT",
	[REC_STAT_ROUND] = "STAT_ROUND", [REC_EVENT_UPDATE] = "EVENT_UPDATE",
	[REC_TIME_CONV] = "TIME_CONV", [REC_HEADER_FEATURE] = "FEATURE",
	[REC_COMPRESSED] = "COMPRESSED", [REC_FINISHED_INIT] = "FINISHED_INIT",
	[REC_COMPRESSED2] = "COMPRESSED2", [REC_BPF_METADATA] = "BPF_METADATA",
	[REC_SCHEDSTAT_CPU] = "SCHEDSTAT_CPU", [REC_SCHEDSTAT_DOMAIN] = "SCHEDSTAT_DOMAIN",
};

const char *record__type_name(uint32_t type)
{
	if (type < REC_TYPE_MAX && type_names[type])
		return type_names[type];
	return "UNKNOWN";
}

bool record__type_known(uint32_t type)
{
	return (type >= 1 && type <= REC_KERNEL_MAX) ||
	       (type >= REC_USER_FIRST && type < REC_TYPE_MAX);
}

bool record__type_known_to_perf61(uint32_t type)
{
	return (type >= 1 && type <= REC_AUX_OUTPUT_HW_ID) ||
	       (type >= REC_USER_FIRST && type <= REC_FINISHED_INIT);
}

/* Swap the sample_id trailer (u64 words; u32 pairs are fixed by the attr-aware
 * sample__unswap_pairs()). */
static void swap_trailer(unsigned char *r, size_t size, size_t body_end, size_t id_hdr)
{
	/* Fuzzing found: TEXT_POKE passes body_end = size - id_hdr, which wraps when the
	 * record is shorter than the trailer; compare without adding. */
	if (id_hdr && id_hdr <= size && body_end <= size - id_hdr)
		bytes__swap_u64s(r + size - id_hdr, id_hdr / 8);
}

/* End of a NUL-terminated string at off, rounded up to 8 like the kernel pads it. */
static size_t str_end(const unsigned char *r, size_t size, size_t off)
{
	size_t n;

	if (off >= size)
		return size;
	n = strnlen((const char *)r + off, size - off) + 1;
	n = (n + 7) & ~(size_t)7;
	return off + n > size ? size : off + n;
}

/* Overflow-safe: callers pass counts like (size - 16) / 8, huge when size < 16. */
static void swap_u32_at(unsigned char *r, size_t size, size_t off, size_t n)
{
	if (off <= size && n <= (size - off) / 4)
		bytes__swap_u32s(r + off, n);
}

static void swap_u64_at(unsigned char *r, size_t size, size_t off, size_t n)
{
	if (off <= size && n <= (size - off) / 8)
		bytes__swap_u64s(r + off, n);
}

void record__swap(void *rec, size_t size, size_t id_hdr)
{
	unsigned char *r = rec;
	uint32_t type = bytes__u32(r);
	size_t body = size > 8 ? size - 8 : 0;

	switch (type) {
	case REC_MMAP:
		swap_u32_at(r, size, 8, 2);
		swap_u64_at(r, size, 16, 3);
		swap_trailer(r, size, str_end(r, size, 40), id_hdr);
		break;
	case REC_MMAP2:
		swap_u32_at(r, size, 8, 2);
		swap_u64_at(r, size, 16, 3);
		if (!(bytes__u16(r + 4) & MISC_EXACT_IP)) {	/* inode form */
			swap_u32_at(r, size, 40, 2);
			swap_u64_at(r, size, 48, 2);
		}
		swap_u32_at(r, size, 64, 2);
		swap_trailer(r, size, str_end(r, size, 72), id_hdr);
		break;
	case REC_COMM:
		swap_u32_at(r, size, 8, 2);
		swap_trailer(r, size, str_end(r, size, 16), id_hdr);
		break;
	case REC_EXIT:
	case REC_FORK:
		swap_u32_at(r, size, 8, 4);
		swap_u64_at(r, size, 24, 1);
		swap_trailer(r, size, 32, id_hdr);
		break;
	case REC_READ:
	case REC_ITRACE_START:
	case REC_SWITCH_CPU_WIDE:
		swap_u32_at(r, size, 8, 2);
		swap_u64_at(r, size, 16, (size - 16) / 8);
		break;
	case REC_NAMESPACES:
		swap_u32_at(r, size, 8, 2);
		swap_u64_at(r, size, 16, (size - 16) / 8);
		break;
	case REC_KSYMBOL:
		swap_u64_at(r, size, 8, 1);
		swap_u32_at(r, size, 16, 1);
		if (size >= 24) {
			bytes__put_u16(r + 20, __builtin_bswap16(bytes__u16(r + 20)));
			bytes__put_u16(r + 22, __builtin_bswap16(bytes__u16(r + 22)));
		}
		swap_trailer(r, size, str_end(r, size, 24), id_hdr);
		break;
	case REC_BPF_EVENT:
		if (size >= 16) {
			bytes__put_u16(r + 8, __builtin_bswap16(bytes__u16(r + 8)));
			bytes__put_u16(r + 10, __builtin_bswap16(bytes__u16(r + 10)));
			swap_u32_at(r, size, 12, 1);
		}
		swap_trailer(r, size, 24, id_hdr);
		break;
	case REC_CGROUP:
		swap_u64_at(r, size, 8, 1);
		swap_trailer(r, size, str_end(r, size, 16), id_hdr);
		break;
	case REC_TEXT_POKE:
		swap_u64_at(r, size, 8, 1);
		if (size >= 20) {
			bytes__put_u16(r + 16, __builtin_bswap16(bytes__u16(r + 16)));
			bytes__put_u16(r + 18, __builtin_bswap16(bytes__u16(r + 18)));
		}
		swap_trailer(r, size, size - id_hdr, id_hdr);
		break;
	case REC_SWITCH:
		swap_trailer(r, size, 8, id_hdr);
		break;
	case REC_COMPRESSED:
	case REC_FINISHED_ROUND:
	case REC_FINISHED_INIT:
	case REC_HEADER_BUILD_ID:
		/* perf 6.1 has no swap handler for these: payload stays as is. */
		break;
	case REC_COMPRESSED2:
		swap_u64_at(r, size, 8, 1);
		break;
	case REC_HEADER_TRACING_DATA:
		swap_u32_at(r, size, 8, 1);
		break;
	case REC_THREAD_MAP:
		swap_u64_at(r, size, 8, 1);
		for (size_t off = 16; off + 24 <= size; off += 24)
			swap_u64_at(r, size, off, 1);
		break;
	case REC_HEADER_FEATURE:
		/* the feature id; the body is swapped by its feature parser */
		swap_u64_at(r, size, 8, 1);
		break;
	case REC_HEADER_ATTR:
		/* the attr is decoded with attr__decode(swap); only the ids follow */
		break;
	default:
		/* SAMPLE, LOST, LOST_SAMPLES, ID_INDEX, AUX, THROTTLE, STAT*, TIME_CONV, ...:
		 * all u64 words (SAMPLE's u32 pairs are fixed by sample__unswap_pairs). */
		swap_u64_at(r, size, 8, body / 8);
		break;
	}
}
