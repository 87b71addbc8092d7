#ifndef DIRREPORT_FORMAT_FEATURE_H
#define DIRREPORT_FORMAT_FEATURE_H
/*
 * feature - the parsed content of the perf.data feature sections (HEADER_* ids 1..31 of
 * perf 6.1), from a regular file's feature table or from pipe-mode HEADER_FEATURE
 * records.
 *
 * Format: docs/perf-data-format.md §§2.2 (string encodings), 2.3 (one layout per id), 8 (pipe
 * HEADER_FEATURE records: 8-byte header, u64 feat_id, body) and 12 (cross-endian: u32 and
 * u64 fields swapped one by one, strings as is, attrs through attr__decode).
 *
 * Invariants:
 *  - Every pointer inside struct features is owned by it (allocated from its private
 *    block list) and stays valid until features__exit(); nothing borrows the input.
 *  - Strings are NUL-terminated copies of the stored bytes up to the first NUL (or the
 *    stored length when there is none).
 *  - No allocation is larger than a small multiple of the body that justified it: every
 *    count is checked against the bytes left before anything is allocated.
 *  - A feature parsed twice (a repeated pipe record) replaces the earlier content.
 *
 * Thread safety: a struct features is built by one thread; afterwards it is immutable
 * and may be read from any thread (model (a) of the style guide).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/attr.h"
#include "format/header.h"	/* FEAT_BITS, enum feat_id */

struct diag;

/** One EVENT_DESC entry (an evsel as perf record described it). */
struct feat_event {
	struct event_attr attr;	/* decoded, host order: the fields inside attr.size */
	struct event_attr attr_perf61;	/* what perf 6.1 prints: min(attr_sz, 128) bytes
					 * whatever attr.size says and, cross-endian,
					 * clockid/sample_regs_intr/sig_data left swapped */
	uint32_t attr_size_raw;	/* attr.size exactly as stored (0 means 64) */
	char *name;		/* owned */
	uint64_t *ids;		/* owned, nr_ids entries */
	uint32_t nr_ids;
};

/** Per-cpu part of CPU_TOPOLOGY. */
struct feat_cpu {
	uint32_t core_id;
	uint32_t socket_id;	/* (u32)-1 allowed */
	uint32_t die_id;	/* 0 when the file has no die part */
};

/** CPU_TOPOLOGY: package/core/die sibling lists and per-cpu ids. */
struct feat_cpu_topology {
	char **package_cpus;	/* "sibling sockets" lines; owned */
	uint32_t nr_package_cpus;
	char **core_cpus;	/* "sibling threads" lines; owned */
	uint32_t nr_core_cpus;
	bool has_cpus;		/* the per-cpu core/socket part is present */
	struct feat_cpu *cpus;	/* owned, nr_cpus entries (= NRCPUS nr_cpus_avail) */
	uint32_t nr_cpus;
	bool has_dies;		/* the die part is present (perf >= 5.4) */
	char **die_cpus;	/* "sibling dies" lines; owned */
	uint32_t nr_die_cpus;
};

/** NUMA_TOPOLOGY node. */
struct feat_numa_node {
	uint32_t node;
	uint64_t mem_total_kb;
	uint64_t mem_free_kb;
	char *cpus;		/* cpu list as stored, e.g. "0,1"; owned */
	char *cpus_norm;	/* the list as perf prints it ("0-1", "-1" when empty),
				 * or NULL when perf 6.1 rejects it; owned */
};

/** PMU_MAPPINGS entry. */
struct feat_pmu_mapping {
	uint32_t type;		/* attr.type of the PMU */
	char *name;		/* owned */
};

/** GROUP_DESC entry. */
struct feat_group {
	char *name;		/* "{anon_group}" for unnamed groups; owned */
	uint32_t leader_idx;	/* index into the attrs table / EVENT_DESC */
	uint32_t nr_members;
};

/** Group membership of one evsel, as perf rebuilds it from GROUP_DESC. */
struct feat_group_state {
	uint32_t leader;	/* index of the group leader (itself when alone) */
	uint32_t nr_members;	/* members of the group it leads (0: leads none) */
	const char *name;	/* group name; NULL for "{anon_group}" and non-leaders */
};

/** AUXTRACE index entry: where an AUXTRACE record sits in the file. */
struct feat_auxtrace_entry {
	uint64_t file_offset;	/* bytes from the start of the file */
	uint64_t size;		/* bytes */
};

/** CACHE entry (one cache level of one cpu set). */
struct feat_cache {
	uint32_t level;
	uint32_t line_size;	/* bytes */
	uint32_t sets;
	uint32_t ways;
	char *type;		/* "Data", "Instruction", "Unified"; owned */
	char *size;		/* e.g. "48K"; owned */
	char *map;		/* shared cpu list; owned */
};

/** MEM_TOPOLOGY node: memory blocks of the node as a bitmap. */
struct feat_mem_node {
	uint64_t node;
	uint64_t size;		/* as stored; perf ignores it and prints weight * bsize */
	uint64_t nbits;		/* bits in the bitmap */
	uint64_t *bits;		/* owned, ceil(nbits / 64) words, host order */
};

/** BPF_PROG_INFO program: a linearised struct bpf_prog_info (host order). */
struct feat_bpf_prog {
	uint32_t info_len;	/* bytes of info as stored (<= FEAT_BPF_INFO_MAX) */
	uint32_t data_len;	/* bytes of data */
	uint64_t arrays;	/* bit mask of the arrays present in data */
	unsigned char *info;	/* owned, FEAT_BPF_INFO_MAX bytes, zeros past info_len */
	unsigned char *data;	/* owned, data_len bytes; info pointers are offsets here */
};

/** Largest bpf_prog_info perf 6.1 accepts (its UAPI sizeof(struct bpf_prog_info)). */
#define FEAT_BPF_INFO_MAX 232

/** BPF_BTF blob. */
struct feat_btf {
	uint32_t id;
	uint32_t size;		/* bytes */
	unsigned char *data;	/* owned, raw BTF */
};

/** A PMU's capabilities (CPU_PMU_CAPS, or one PMU of PMU_CAPS). */
struct feat_pmu_caps {
	char *pmu_name;		/* owned; "cpu" for CPU_PMU_CAPS */
	uint32_t nr_caps;
	char **caps;		/* "name=value" strings; owned */
};

/** HYBRID_TOPOLOGY node. */
struct feat_hybrid_node {
	char *pmu_name;		/* owned */
	char *cpus;		/* owned */
};

/** One BUILD_ID entry (the header of a build-id table entry and its file name). */
struct feat_build_id {
	int32_t pid;		/* -1 = host kernel/user space, 0 = default guest */
	uint16_t misc;		/* cpumode in bits 0..2; bit 15: size is valid */
	uint8_t build_id[20];
	uint8_t size;		/* valid bytes of build_id (20 unless misc bit 15) */
	char *filename;		/* owned */
};

/** A feature body kept as bytes (TRACING_DATA, the whole BUILD_ID table). */
struct feat_raw {
	unsigned char *data;	/* owned copy, or NULL when empty */
	size_t size;		/* bytes */
	uint64_t file_offset;	/* where the body starts in the file (0 in pipe mode) */
};

/** COMPRESSED feature. */
struct feat_compressed {
	uint32_t version;	/* perf 6.1 writes 0 */
	uint32_t type;		/* FEAT_COMP_ZSTD or FEAT_COMP_NONE */
	uint32_t level;
	uint32_t ratio;		/* 0 in pipe mode */
	uint32_t mmap_len;	/* bytes: one ring buffer, the decompression buffer size */
};

enum { FEAT_COMP_NONE = 0, FEAT_COMP_ZSTD = 1 };

/** CLOCK_DATA feature (perf record -k). */
struct feat_clock_data {
	bool enabled;		/* false when the stored version is not 1 */
	uint32_t version;
	uint32_t clockid;
	uint64_t tod_ns;	/* wall-clock reference, ns since the epoch */
	uint64_t clockid_ns;	/* the same instant on clockid, ns */
};

/**
 * features - everything the feature sections say. Fields of a feature whose bit is not
 * present are zero/NULL. Counts carry the stored value only after the whole list was
 * read successfully.
 */
struct features {
	uint64_t present[FEAT_BITS / 64];	/* bit n = feature n was parsed */

	char *hostname, *osrelease, *version, *arch, *cpudesc, *cpuid;	/* owned */
	uint32_t nr_cpus_avail;		/* NRCPUS: highest present cpu + 1 */
	uint32_t nr_cpus_online;
	uint64_t total_mem_kb;		/* TOTAL_MEM */
	char **cmdline;			/* CMDLINE argv, [0] = perf's path; owned */
	uint32_t nr_cmdline;

	struct feat_event *events;	/* EVENT_DESC; owned */
	uint32_t nr_events;
	bool events_rejected;		/* an attr has reserved or unknown bits: perf 6.1
					 * ignores EVENT_DESC (names, print) */

	struct feat_cpu_topology cpu_topo;
	struct feat_numa_node *numa_nodes;	/* owned */
	uint32_t nr_numa_nodes;
	struct feat_pmu_mapping *pmu_mappings;	/* owned */
	uint32_t nr_pmu_mappings;
	struct feat_group *groups;		/* owned */
	uint32_t nr_groups;
	struct feat_auxtrace_entry *auxtrace;	/* owned */
	uint64_t nr_auxtrace;
	uint32_t cache_version;		/* CACHE: 1; other versions leave caches empty */
	struct feat_cache *caches;	/* owned */
	uint32_t nr_caches;
	uint64_t first_sample_ns;	/* SAMPLE_TIME (0 in pipe mode) */
	uint64_t last_sample_ns;
	uint64_t mem_version;		/* MEM_TOPOLOGY: 1 (others: no nodes) */
	uint64_t mem_block_size;	/* bytes */
	struct feat_mem_node *mem_nodes;	/* owned */
	uint64_t nr_mem_nodes;
	uint64_t clockid_res_ns;	/* CLOCKID */
	uint64_t dir_version;		/* DIR_FORMAT */
	struct feat_bpf_prog *bpf_progs;	/* BPF_PROG_INFO, unique ids, ascending */
	uint32_t nr_bpf_progs;
	struct feat_btf *btfs;		/* BPF_BTF, unique ids, ascending */
	uint32_t nr_btfs;
	struct feat_compressed comp;
	struct feat_pmu_caps cpu_pmu_caps;	/* CPU_PMU_CAPS (pmu_name "cpu") */
	struct feat_clock_data clock;
	struct feat_hybrid_node *hybrid_nodes;	/* owned */
	uint32_t nr_hybrid_nodes;
	struct feat_pmu_caps *pmu_caps;		/* PMU_CAPS; owned */
	uint32_t nr_pmu_caps;
	struct feat_raw tracing_data;	/* TRACING_DATA body */
	struct feat_raw build_id_raw;	/* BUILD_ID body */
	struct feat_build_id *build_ids;	/* BUILD_ID entries; owned */
	size_t nr_build_ids;

	/* bit n: perf 6.1's reader of feature n gives up on this body (an unknown
	 * version, a cpu list it rejects, ...). It then also skips every later feature
	 * of a regular file, which prints as empty; we still parse them. */
	uint64_t perf_failed[FEAT_BITS / 64];
	/* the first damage read as perf 6.1 reads it instead of rejected (a string
	 * feature cut inside its body): one line, "path: offset N: what", or NULL;
	 * owned (freed by features__exit) */
	const char *warning;

	void *blocks_;			/* private: owned allocations */
};

/**
 * @brief Initialise an empty feature set (no feature present).
 * @param f  the set to initialise
 * Ownership: f owns nothing yet. Thread safety: touches only *f.
 * Format: none.
 */
void features__init(struct features *f);

/**
 * @brief Free everything f owns and reset it to the empty state; safe to call twice
 *        and on a zeroed struct.
 * Thread safety: touches only *f. Format: none.
 */
void features__exit(struct features *f);

/**
 * @brief Parse one feature body and mark it present.
 * @param f            destination; call in increasing feat_id order (CPU_TOPOLOGY uses
 *                     NRCPUS' nr_cpus_avail, as perf does)
 * @param feat_id      HEADER_* id; ids perf 6.1 does not know (0, 32..255) are marked
 *                     present and otherwise ignored
 * @param body, size   the body bytes (size in bytes; the section size, or the record
 *                     size minus 16 for a pipe HEADER_FEATURE record)
 * @param swap         the file is in the other byte order
 * @param file_offset  file offset of body[0], used for diagnostics and feat_raw
 * @param path         file name for diagnostics
 * @param d            diagnostic, may be NULL
 * @return 0; -DIAG_BAD_FEATURE when feat_id >= FEAT_BITS, the body (not a string
 *         feature's: see Format) is truncated, a
 *         count or string length is
 *         larger than the section can hold, an attr is malformed, or the body
 *         contradicts itself (d names the feature, the field and its file offset);
 *         -ENOMEM. On error f is unchanged (a feature parsed earlier keeps its content).
 *         Pipe callers check the u64 feat_id of a HEADER_FEATURE record before narrowing
 *         it: perf 6.1 ends the features at FEAT_LAST_PERF61 and refuses 0 and larger
 *         ids.
 * Ownership: nothing of body is retained (copies are made). Thread safety: touches only
 * *f and *d.
 * Format: docs/perf-data-format.md §2.2 and 2.3. Bodies that are well formed but that perf 6.1's reader
 * gives up on return 0 and set the feature's perf_failed bit: CACHE, MEM_TOPOLOGY and
 * CLOCK_DATA of an unknown version (left empty), a NUMA cpu list perf rejects, a
 * CPU_TOPOLOGY socket id above nr_cpus_avail (per-cpu part dropped), a GROUP_DESC that
 * does not fit the EVENT_DESC events, a bpf_prog_info larger than perf's (the
 * programs before it are kept). A string feature (HOSTNAME, OSRELEASE, VERSION, ARCH,
 * CPUDESC, CPUID) cut inside its body (no room for its length, or a length past the
 * body) is read as perf reads one whose read hits the end of the file: the string is
 * NULL, the perf_failed bit is set, and f->warning names it (the first such damage
 * only). EVENT_DESC attrs with reserved or unknown bits set
 * events_rejected. BPF_PROG_INFO and BPF_BTF are not read when swap is set (perf 6.1
 * does not interpret them); the bit is set and earlier content stays.
 */
int features__parse(struct features *f, unsigned feat_id, const void *body, size_t size,
		     bool swap, uint64_t file_offset, const char *path, struct diag *d);

/**
 * @brief Whether feature feat_id was parsed into f.
 * @return true when present. Thread safety: read-only. Format: HEADER_* ids.
 */
static inline bool features__has(const struct features *f, unsigned feat_id)
{
	return feat_id < FEAT_BITS && (f->present[feat_id / 64] >> (feat_id % 64) & 1);
}

/**
 * @brief The EVENT_DESC entry whose id list contains id.
 * @return the entry (borrowed from f), or NULL. O(number of ids).
 * Thread safety: read-only. Format: EVENT_DESC ids match the attrs-table ids.
 */
const struct feat_event *features__event_by_id(const struct features *f, uint64_t id);

/**
 * @brief Whether perf 6.1's reader of feature feat fails on the stored body.
 * Thread safety: read-only. Format: see features__parse().
 */
static inline bool features__perf_failed(const struct features *f, unsigned feat)
{
	return feat < FEAT_BITS && (f->perf_failed[feat / 64] >> (feat % 64) & 1);
}

/**
 * @brief Whether perf 6.1 reads feature feat of a regular file at all: it stops at the
 *        first feature whose reader fails (see features__parse()).
 * @param is_dir  the input is a data directory (perf's DIR_FORMAT reader fails on a
 *                regular file)
 * @return false when a present feature with a smaller id failed.
 * Thread safety: read-only. Format: perf_header__process_sections() of perf 6.1.
 */
bool features__perf_processed(const struct features *f, unsigned feat, bool is_dir);

/**
 * @brief Rebuild group leaders from GROUP_DESC like perf 6.1 (process_group_desc()).
 * @param f    parsed features
 * @param out  nr_evsels entries, filled (every evsel first leads itself, no members)
 * @param nr_evsels  events in the recording (attrs table order)
 * @return true when GROUP_DESC fits the events; false when perf calls it invalid (out
 *         then holds perf's partial state, as perf keeps it).
 * Ownership: names in out are borrowed from f. Thread safety: read-only on f.
 * Format: GROUP_DESC leader_idx/nr_members over the attrs-table order.
 */
bool features__group_rebuild(const struct features *f, struct feat_group_state *out,
			     size_t nr_evsels);

/**
 * @brief DIR_FORMAT version.
 * @return the stored version, 0 when the feature is absent.
 * Thread safety: read-only. Format: feature HEADER_DIR_FORMAT (u64, perf writes 1).
 */
static inline uint64_t features__dir_version(const struct features *f)
{
	return features__has(f, FEAT_DIR_FORMAT) ? f->dir_version : 0;
}

#endif
