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
	size_t nr, cap;
};

/** @brief Record (or update) @p t's parent tid. @return 0 or -ENOMEM. */
int task_ppids__set(struct task_ppids *p, const struct thread *t, int32_t ppid);

/** @brief Free the table (a zeroed or freed table is fine). */
void task_ppids__exit(struct task_ppids *p);

/**
 * @brief perf's --tasks output: "#      pid      tid     ppid  comm", then every
 *        thread under its parent, one level deeper per generation. Threads without a
 *        FORK have ppid -1 and start a tree; trees and siblings come in perf's order
 *        (its thread table: tid modulo 256, then tid).
 * @return 0, -ENOMEM, or -ENOENT when a parent is unknown (perf: "failed to process
 *         tasks").
 * Thread safety: not concurrently with machine__process().  Format: none.
 */
int tasks__fprintf(struct machine *m, const struct task_ppids *p, FILE *out);

#endif
