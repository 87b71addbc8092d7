#ifndef DIRREPORT_RECORD_FEATURES_H
#define DIRREPORT_RECORD_FEATURES_H
/*
 * features - the header's features of a recording, read off this machine as perf
 * record reads them: HOSTNAME, OSRELEASE and ARCH (uname), VERSION (ours), NRCPUS
 * (/sys/devices/system/cpu/present's highest cpu + 1, and the online cpus), CPUDESC
 * and CPUID (/proc/cpuinfo: "model name" with runs of blanks made one, and x86's
 * "VENDOR,FAMILY,MODEL,STEPPING"), TOTAL_MEM (/proc/meminfo's MemTotal, kB), CMDLINE
 * (the program's path, then its arguments), PMU_MAPPINGS (the PMUs of
 * /sys/bus/event_source/devices and their types, in directory order as perf lists
 * them), CPU_TOPOLOGY (each online cpu's package, die and core sibling lists and
 * every cpu's core, socket and die ids, /sys/devices/system/cpu/cpuN/topology),
 * NUMA_TOPOLOGY (/sys/devices/system/node: each online node's MemTotal, MemFree and
 * cpulist), CACHE (each cpu's first four cache indexes, each cache once, by level),
 * MEM_TOPOLOGY (the memory block size and each node's memory blocks), BPF_PROG_INFO
 * and BPF_BTF empty (no BPF programs recorded), PMU_CAPS empty where no PMU has
 * capabilities (left out otherwise: not read), CLOCKID (clock_getres() of -k's clock,
 * ns) and CLOCK_DATA (version 1, the clock, the reference pair), EVENT_DESC, BUILD_ID
 * and SAMPLE_TIME
 * (given by the recorder); and the build-ids they need (the kernel's from
 * /sys/kernel/notes, a file's from its ELF notes).  Each as perf record 6.1 reads it
 * (tests/record compares `perf report --header-only -I` of both).
 *
 * Format: docs/perf-data-format.md §2.3 (HOSTNAME .. PMU_CAPS); ELF notes as the
 * ELF specification and <elf.h> lay them out (Elf64/Elf32_Nhdr, name "GNU", type
 * NT_GNU_BUILD_ID).
 *
 * Thread safety: the caller's thread.
 */
#include <stddef.h>
#include <stdbool.h>
#include <stdint.h>

struct feat_build_id;
struct feat_event;
struct writer;

struct record_features {
	const char *const *argv;	/* the command line; argv[0] replaced by the
					 * program's path (/proc/self/exe) */
	size_t argc;
	const struct feat_event *events;	/* EVENT_DESC: attr, name, ids */
	size_t nr_events;
	const struct feat_build_id *build_ids;	/* BUILD_ID entries */
	size_t nr_build_ids;
	uint64_t first_sample_ns, last_sample_ns;	/* SAMPLE_TIME; both 0: not written */
	bool use_clockid;		/* -k: CLOCKID (the clock's resolution) and
					 * CLOCK_DATA (the reference pair) written */
	int32_t clockid;
	uint64_t ref_tod_ns, ref_clock_ns;	/* the same instant, wall clock and
						 * clockid's, ns */
};

/**
 * @brief Set every feature of the file comment on w. A feature whose source cannot be
 *        read here (no /proc/cpuinfo model name, no x86 vendor for CPUID) is left out.
 * @return 0; -ENOMEM; -EINVAL (the writer refused a body).
 */
int record_features__write(struct writer *w, const struct record_features *f);

/**
 * @brief The running kernel's build-id, from the GNU build-id note of
 *        /sys/kernel/notes.
 * @param id    receives up to 20 bytes
 * @param size  receives how many
 * @return 0; -ENOENT (no such note, or the file cannot be read).
 */
int record_features__kernel_build_id(uint8_t id[20], uint8_t *size);

/**
 * @brief The build-id of an ELF file (its PT_NOTE segments', else its SHT_NOTE
 *        sections'), 64- or 32-bit, in this machine's byte order.
 * @return 0; -ENOENT (not readable, not ELF, no build-id note).
 */
int record_features__file_build_id(const char *path, uint8_t id[20], uint8_t *size);

#endif
