#ifndef DIRREPORT_REPORT_TASKS_H
#define DIRREPORT_REPORT_TASKS_H
/*
 * tasks - `--tasks`: the recording's threads as a tree of parents and children, as
 * perf 6.1's tasks_print() prints it.
 *
 * Thread safety: one table per thread.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct machine;
struct thread;

/** Each thread's parent (perf's thread->ppid: the parent's tid from its FORK). */
struct task_ppids {
	const struct thread **thread;	/* owned array; borrowed threads */
	int32_t *ppid;			/* owned */
	size_t nr, cap, cap_ppid;
};

/** @brief Record (or update) @p t's parent tid. @return 0 or -ENOMEM. */
int task_ppids__set(struct task_ppids *p, const struct thread *t, int32_t ppid);

/** @brief Free the table (a zeroed or freed table is fine). */
void task_ppids__exit(struct task_ppids *p);

/** What `--mmaps` prints of a map that the maps do not keep: its MMAP record's. */
struct task_mmap {
	const struct dso *dso;		/* borrowed */
	uint64_t start, end;		/* the map the record made */
	uint64_t rel;			/* its pgoff - start (mod 2^64), as mapped */
	uint64_t pgoff;			/* the pgoff perf prints for its start (the
					 * record's; 0 for [vdso]) */
	uint32_t prot, flags;		/* PROT_*, MAP_* (MMAP: exec or nothing, 0) */
	uint64_t ino;			/* 0 without one (MMAP, build-id MMAP2) */
};

struct task_mmaps {
	struct task_mmap *v;		/* owned, in record order */
	size_t nr, cap;
};

/** @brief Append one record's map. @return 0 or -ENOMEM. */
int task_mmaps__add(struct task_mmaps *mm, const struct task_mmap *m);

/** @brief Free the table (a zeroed or freed table is fine). */
void task_mmaps__exit(struct task_mmaps *mm);

/**
 * @brief perf's --tasks output: "#      pid      tid     ppid  comm", then every
 *        thread under its parent, one level deeper per generation. Threads without a
 *        FORK have ppid -1 and start a tree; trees and siblings come in perf's order
 *        (its thread table: tid modulo 256, then tid).
 * @param mm  with --mmaps: under each thread its maps (perf's maps__fprintf_task);
 *            NULL without
 * @return 0, -ENOMEM, or -ENOENT when a parent is unknown (perf: "failed to process
 *         tasks").
 * Thread safety: not concurrently with machine__process().  Format: none.
 */
int tasks__fprintf(struct machine *m, const struct task_ppids *p,
		   const struct task_mmaps *mm, FILE *out);

#endif
