#ifndef DIRREPORT_UTIL_PHASE_H
#define DIRREPORT_UTIL_PHASE_H
/*
 * phase - where a run's wall time and CPU time go, stage by stage.
 *
 * A front end marks the end of each stage of its run on the calling thread (the
 * recording loaded, the kernel's symbols waited for, the records delivered, the
 * output written); each mark keeps the wall time (CLOCK_MONOTONIC) and the CPU time
 * of the whole process, every thread together (CLOCK_PROCESS_CPUTIME_ID).  Between
 * two marks, CPU / wall says how many threads were busy on average: about 1 where
 * one thread works alone, up to -j where every worker does.  This is the measured
 * breakdown behind bench/phases.sh: which stages a second core shortens and which
 * stay serial (the serial fraction, stage by stage).
 *
 * Off unless phases__start() is given on = true (the front ends: when the
 * environment variable DIRREPORT_PHASES is set); then a mark costs two clock reads.
 *
 * Thread safety: one process-wide list; phases__start(), phases__mark() and
 * phases__print() are for the calling thread only (the one that runs the stages),
 * never for workers.
 */
#include <stdbool.h>
#include <stdio.h>	/* FILE */

/** At most this many marks are kept; later ones are dropped. */
#define PHASES_MAX 16

/**
 * @brief Start timing (the time origin of every later mark), or keep it off.
 * @param on  false: every later call does nothing
 */
void phases__start(bool on);

/**
 * @brief The stage that ends now: its wall and CPU times since the previous mark
 *        (or since phases__start()).
 * @param name  what the stage did, a string that outlives the run (a literal);
 *              not copied
 */
void phases__mark(const char *name);

/**
 * @brief Write one line per stage: "PROG: phase NAME: W ms wall, C ms CPU, B busy"
 *        (milliseconds; B = C / W, the average number of busy threads), then a
 *        "total" line.  Nothing when off or without marks.
 * @param out   where (stderr in the front ends)
 * @param prog  the program's name, for the lines' prefix
 * @return 0, or -EIO when a write failed.
 */
int phases__print(FILE *out, const char *prog);

#endif
