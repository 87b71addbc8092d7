#ifndef DIRREPORT_FORMAT_HEADER_H
#define DIRREPORT_FORMAT_HEADER_H
/*
 * header - the 104-byte perf.data file header, the 16-byte pipe header, the attrs table
 * with its id arrays, and the feature-section table.
 *
 * Format: docs/perf-data-format.md §§0, 1 and 2.1. Endianness is detected from the magic; every
 * field is returned in host order and `swap` tells the caller to swap everything else.
 * Thread safety: pure functions over caller-provided bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct diag;
struct evlist;

#define PERF_MAGIC2 0x32454c4946524550ULL		/* "PERFILE2" read as a host u64 */
#define PERF_MAGIC2_SWAPPED 0x50455246494c4532ULL
#define FILE_HEADER_SIZE 104
#define FILE_HEADER_SIZE_NOFEAT 72	/* old header without the feature bitmap */
#define PIPE_HEADER_SIZE 16
#define FEAT_BITS 256

/* Feature ids (HEADER_*), docs/perf-data-format.md §2.3. 32 is CPU_DOMAIN_INFO in newer perf and the
 * LAST_FEATURE sentinel of perf 6.1. */
enum feat_id {
	FEAT_RESERVED = 0, FEAT_TRACING_DATA = 1, FEAT_BUILD_ID = 2, FEAT_HOSTNAME = 3,
	FEAT_OSRELEASE = 4, FEAT_VERSION = 5, FEAT_ARCH = 6, FEAT_NRCPUS = 7,
	FEAT_CPUDESC = 8, FEAT_CPUID = 9, FEAT_TOTAL_MEM = 10, FEAT_CMDLINE = 11,
	FEAT_EVENT_DESC = 12, FEAT_CPU_TOPOLOGY = 13, FEAT_NUMA_TOPOLOGY = 14,
	FEAT_BRANCH_STACK = 15, FEAT_PMU_MAPPINGS = 16, FEAT_GROUP_DESC = 17,
	FEAT_AUXTRACE = 18, FEAT_STAT = 19, FEAT_CACHE = 20, FEAT_SAMPLE_TIME = 21,
	FEAT_MEM_TOPOLOGY = 22, FEAT_CLOCKID = 23, FEAT_DIR_FORMAT = 24,
	FEAT_BPF_PROG_INFO = 25, FEAT_BPF_BTF = 26, FEAT_COMPRESSED = 27,
	FEAT_CPU_PMU_CAPS = 28, FEAT_CLOCK_DATA = 29, FEAT_HYBRID_TOPOLOGY = 30,
	FEAT_PMU_CAPS = 31, FEAT_CPU_DOMAIN_INFO = 32,
	FEAT_LAST_PERF61 = 32,	/* perf 6.1's HEADER_LAST_FEATURE */
};

struct file_section {
	uint64_t offset;	/* bytes from the start of the file */
	uint64_t size;		/* bytes */
};

struct file_header {
	uint64_t magic;		/* PERF_MAGIC2 after swapping */
	uint64_t size;		/* 104 (or 72: no features) */
	uint64_t attr_size;	/* bytes per attrs-table entry (attr + ids section) */
	struct file_section attrs;
	struct file_section data;
	struct file_section event_types;
	uint64_t features[FEAT_BITS / 64];
};

/**
 * @brief Recognise the container from its first bytes.
 * @param buf, len   the first bytes of the input (len >= 16 to decide)
 * @param is_pipe    out: true for a pipe-format stream (second u64 == 16)
 * @param swap       out: true when the file was written in the other byte order
 * @return 0; -DIAG_NOT_PERF for a bad magic; -DIAG_TRUNCATED when len < 16.
 * Format: docs/perf-data-format.md §0 and 1.1 (the legacy PERFFILE magic is not accepted).
 */
int file_header__probe(const void *buf, size_t len, bool *is_pipe, bool *swap);

/**
 * @brief Decode and validate the 104-byte header of a regular file.
 * @param h          out, host order
 * @param buf, len   file bytes from offset 0 (len = whole file size when mapped)
 * @param file_size  size of the file in bytes (sections are checked against it)
 * @param path       for diagnostics
 * @return 0; -DIAG_NOT_PERF, -DIAG_TRUNCATED, -DIAG_BAD_HEADER (size not 104/72,
 *         attr_size 0 or out of range, attrs section past the end of the file).
 *         The data section is not checked against file_size: callers clamp it and
 *         report a cut recording as such.
 */
int file_header__read(struct file_header *h, bool *swap, const void *buf, size_t len,
		      uint64_t file_size, const char *path, struct diag *d);

static inline bool file_header__has_feat(const struct file_header *h, unsigned feat)
{
	return feat < FEAT_BITS && (h->features[feat / 64] >> (feat % 64) & 1);
}

/**
 * @brief Read the attrs table and each attr's id array into el.
 * @param buf, len  whole file bytes
 * @return 0; -DIAG_BAD_ATTR (size out of range, ids past the end, duplicate id);
 *         -DIAG_ABI never (we accept newer attrs); -ENOMEM.
 * Format: docs/perf-data-format.md §1.2 (stepping uses each attr's own size field).
 */
int file_header__read_attrs(const struct file_header *h, bool swap, const void *buf,
			    size_t len, struct evlist *el, const char *path,
			    struct diag *d);

/**
 * @brief Locate every present feature's body; any table entry or body past the end of
 *        the file is an error.
 * @param sec     out: sec[feat] for every feature bit set (others zeroed)
 * @param feat_offset  out: offset of the feature table (data.offset + data.size)
 * @return 0; -DIAG_BAD_FEATURE (diagnostic names the table entry's offset).
 * Format: docs/perf-data-format.md §2.1 (one 16-byte entry per set bit, in bit order).
 */
int file_header__feat_sections(const struct file_header *h, bool swap, const void *buf,
			       size_t len, struct file_section sec[FEAT_BITS],
			       uint64_t *feat_offset, const char *path, struct diag *d);

/**
 * @brief file_header__feat_sections() for a file that may be cut short.
 * @param cut_at  a file that simply ends inside the table or inside a body (a
 *                copy or recording cut short) is accepted: the lost features get a
 *                zero section and *cut_at the offset where the loss begins (UINT64_MAX
 *                when nothing was lost). perf writes the bodies in bit order, so a
 *                cut loses a suffix of the features; a lost body followed (in bit
 *                order) by a surviving one is damage, an error either way.
 * @return 0; -DIAG_BAD_FEATURE (diagnostic names the table entry's offset).
 * Format: docs/perf-data-format.md §2.1 (one 16-byte entry per set bit, in bit order; perf writes the
 *         bodies back to back in the same order).
 */
int file_header__feat_sections_cut(const struct file_header *h, bool swap,
				   const void *buf, size_t len,
				   struct file_section sec[FEAT_BITS], uint64_t *feat_offset,
				   uint64_t *cut_at, const char *path, struct diag *d);

/** perf's name of a feature id ("HOSTNAME", "DIR_FORMAT", ...), or NULL if unknown. */
const char *feat__name(unsigned feat);

#endif
