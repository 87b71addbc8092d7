#ifndef DIRREPORT_RECORD_SYNTH_H
#define DIRREPORT_RECORD_SYNTH_H
/*
 * synth - the records dirrecord makes itself for what existed before its events were
 * enabled, as perf record synthesizes them: the kernel's map (an MMAP of
 * "[kernel.kallsyms]_text" from _text to _etext, page offset _text, read from
 * /proc/kallsyms), one MMAP per kernel module (/proc/modules), a COMM per thread of the
 * target's processes and an MMAP2 per executable mapping (/proc/PID/maps), the
 * ID_INDEX of the events' ids, the THREAD_MAP and CPU_MAP they were opened on, and the
 * FINISHED_INIT that ends the synthesized part.
 *
 * Every record but ID_INDEX and FINISHED_INIT ends in a sample_id trailer of
 * id_hdr_size zero bytes (the records have no time, cpu or id, as perf's have none).
 *
 * Format: docs/perf-data-format.md §4.3 (MMAP, COMM, MMAP2: pid, tid, start, len,
 * pgoff, maj, min, ino, ino_generation, prot, flags, filename padded with NULs to a
 * multiple of 8 bytes) and §4.4 (ID_INDEX: u64 nr, then per id u64 id, idx, cpu,
 * tid; THREAD_MAP: u64 nr, then u64 pid and char comm[16] each; CPU_MAP: the
 * cpu-map data of §4.4's table; FINISHED_INIT: a bare header). The layouts are those of
 * include/uapi/linux/perf_event.h and perf's tools/lib/perf/include/perf/event.h.
 *
 * Thread safety: the caller's thread; the functions read /proc.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>	/* pid_t */

struct diag;

/** Called with each record made (host order); non-zero stops and is returned. */
typedef int (*synth_emit_fn)(void *ctx, const void *rec, size_t size);

struct synth {
	size_t id_hdr_size;	/* bytes of zeros after each record (attr__id_hdr_size()) */
	bool mmap_data;		/* also the mappings that are not executable (-d) */
	synth_emit_fn emit;
	void *ctx;
	const char *buildid_dir;	/* the build-id cache (NULL: none): its copy of
					 * the running kernel's kallsyms gives _etext */
	unsigned long nr_timeouts;	/* out: processes gone while read (not errors) */
};

/** One event id and where it was opened, for ID_INDEX. */
struct synth_id {
	uint64_t id;
	uint64_t idx;	/* index of the cpu in the recording's cpu list */
	uint64_t cpu;	/* cpu number */
	uint64_t tid;	/* thread, or (u64)-1 for every thread */
};

/**
 * @brief The kernel's map: MMAP, pid -1, tid 0, misc KERNEL, start and page offset
 *        the address of _text (of _stext where there is no _text), length up to
 *        _etext, file name "[kernel.kallsyms]_text" ("..._stext").  _etext comes
 *        from s->buildid_dir's copy of the kallsyms of the running kernel's build-id
 *        where it has one (the same image: its symbols' distances are the running
 *        kernel's), so that /proc/kallsyms is read only up to _text and _stext (its
 *        first lines: the kernel formats every line read, ~25 ms for the ~116000
 *        before _etext); else from /proc/kallsyms.
 * @return 0; -ENOENT (/proc/kallsyms unreadable or without _text and _stext, or its
 *         addresses hidden: all zero, d says which); the emit callback's value.
 */
int synth__kernel(struct synth *s, struct diag *d);

/**
 * @brief An MMAP per loaded module of /proc/modules (its address and size), named
 *        by its file under /lib/modules/RELEASE/ from modules.dep where it is there,
 *        else "[NAME]". No /proc/modules (a kernel without modules): nothing.
 * @return 0; -ENOMEM; the emit callback's value.
 */
int synth__modules(struct synth *s);

/**
 * @brief A process as it is now: a COMM for each of its threads (or for thread tid
 *        only) and, unless comm_only, an MMAP2 per executable mapping of
 *        /proc/PID/maps (every mapping with mmap_data). A process that is gone is
 *        skipped (0).
 * @param pid  the process (thread group id)
 * @param tid  one thread of it, or -1 for all
 * @return 0; -ENOMEM; the emit callback's value.
 */
int synth__process(struct synth *s, pid_t pid, pid_t tid, bool comm_only);

/**
 * @brief synth__process() for every process of /proc.
 * @return 0; -errno of opendir("/proc"); -ENOMEM; the emit callback's value.
 */
int synth__all_processes(struct synth *s);

/**
 * @brief ID_INDEX: which cpu and thread each event id was opened for (as many
 *         records as the ids need, 255 ids each).
 * @return 0; the emit callback's value.
 */
int synth__id_index(struct synth *s, const struct synth_id *ids, size_t nr);

/**
 * @brief THREAD_MAP: the threads the events were opened for (pid, and 16 zero bytes
 *        of comm each), as many records as they need; nr 0: a system-wide recording's
 *        map of one thread -1.
 * @return 0; the emit callback's value.
 */
int synth__thread_map(struct synth *s, const pid_t *tids, size_t nr);

/**
 * @brief CPU_MAP: the cpus the events were opened on, ascending, in perf 6.1's form:
 *        RANGE (u16 type 2, u8 any_cpu 0, pad, u16 first, u16 last) for consecutive
 *        cpus, else the smaller of CPUS (u16 type 0, u16 nr, u16 cpu[nr]) and a MASK of
 *        u32 words (u16 type 1, u16 nr, u16 long_size 4, u32 mask[nr]; bit i is cpu i),
 *        the mask on a tie; the record padded to 8 bytes.
 * @return 0; -EINVAL (no cpu, or a cpu above 4095); the emit callback's value.
 */
int synth__cpu_map(struct synth *s, const int *cpus, size_t nr);

/** @brief FINISHED_INIT, after the synthesized records. @return the emit callback's
 *  value. */
int synth__finished_init(struct synth *s);

#endif
