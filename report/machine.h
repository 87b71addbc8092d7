#ifndef DIRREPORT_REPORT_MACHINE_H
#define DIRREPORT_REPORT_MACHINE_H
/*
 * machine - the state of the recorded machine as records replay it in perf's order:
 * threads (pid, tid, current comm), each process's memory maps, and the kernel maps.
 *
 * Semantics follow perf 6.1 (observed): a thread never seen in COMM is named ":<tid>"
 * (tid 0: "swapper");
 * FORK of a new process copies the parent's maps, FORK of a thread shares them; a new
 * map removes the parts of older maps it overlaps (those keep their non-overlapped
 * head and tail); EXIT keeps the thread (samples may still refer to it).
 *
 * Thread safety: one thread replays records; lookups are not safe concurrently with
 * machine__process().
 */
#include <stdbool.h>
#include <stdint.h>

#include "report/dso.h"

struct sample;
struct record_ref;
struct features;

struct map {
	uint64_t start, end;	/* [start, end) virtual addresses */
	uint64_t pgoff;		/* file offset of start, bytes */
	struct dso *dso;	/* borrowed from the machine's dsos */
	bool kernel_fixup;	/* kernel map: move to the span of its symbols when the
				 * first sample lands in it (perf's map__fixup_start/end) */
};

struct maps {
	struct map *v;		/* owned, sorted by start, non-overlapping */
	size_t nr, cap;
	unsigned refs;		/* threads sharing these maps */
};

struct thread {
	int32_t pid, tid;
	const char *comm;	/* interned, owned by the machine */
	bool comm_set;		/* from a COMM record (else ":<tid>") */
	struct maps *maps;	/* shared by the threads of one process */
};

struct machine;

/** @brief Create an empty machine. kallsyms: path of kernel symbols (NULL =
 *         /proc/kallsyms). @return 0 or -ENOMEM. */
int machine__new(struct machine **out, const char *kallsyms);
void machine__delete(struct machine *m);

/**
 * @brief Apply a side-band record (COMM, FORK, EXIT, MMAP, MMAP2); others are ignored.
 * @param ref  a kernel record in host order; s its parsed sample_id trailer
 * @return 0 or -ENOMEM.
 */
int machine__process(struct machine *m, const struct record_ref *ref,
		     const struct sample *s);

/**
 * @brief Give the dsos the build-ids of the BUILD_ID feature (before any lookup: they
 *        decide which files may supply symbols, and which kallsyms the kernel uses).
 * @return 0 or -ENOMEM. Format: feature BUILD_ID.
 */
int machine__apply_build_ids(struct machine *m, const struct features *f);

/** @brief The thread (created on first use, as perf's findnew does), or NULL on ENOMEM. */
struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid);

/** What a sample address resolves to. */
struct addr_location {
	struct thread *thread;
	const struct map *map;		/* NULL: no map ([unknown]) */
	const struct symbol *sym;	/* NULL: unresolved */
	uint64_t addr;			/* map-relative address (perf's al->addr) */
	uint64_t sym_unmapped_start;	/* sym->start as a virtual address (map.start +
					 * sym->start - map.pgoff), for symbol__format */
	char level;			/* 'k' kernel, '.' user, 'H' hypervisor, ... */
};

/**
 * @brief Resolve ip of a sample with cpumode (header.misc & 7) in thread.
 * Kernel addresses use the kernel maps; user ones the thread's process maps.
 */
void machine__resolve(struct machine *m, struct thread *t, uint16_t cpumode, uint64_t ip,
		      struct addr_location *al);

/** Current comm of a thread (":<tid>" until it has one). */
const char *thread__comm(const struct thread *t);

#endif
