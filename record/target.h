#ifndef DIRREPORT_RECORD_TARGET_H
#define DIRREPORT_RECORD_TARGET_H
/*
 * target - what dirrecord records: the cpus its events are opened on (-a, -C LIST, or
 * every online cpu for a command, -p and -t, as perf record opens inherited events
 * per cpu), the threads (-p PID: every thread of the process, -t TID: that thread),
 * and the command it runs, held at a pipe until the events are ready.
 *
 * Format: none (Linux interfaces: /sys/devices/system/cpu/online and perf's cpu list
 * syntax "0-2,5"; /proc/PID/task; fork and execvp).
 *
 * Thread safety: the main thread's; record_child__start() forks.
 */
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>	/* pid_t */

/**
 * @brief Parse a cpu list ("0-2,5", perf's -C syntax: numbers and ranges, comma
 *        separated, ascending or not; duplicates dropped) into ascending cpu numbers.
 * @param list  the list; NULL: every online cpu (/sys/devices/system/cpu/online)
 * @param cpus  receives a malloc()ed array (the caller frees it)
 * @param nr    receives its length (at least 1 on success)
 * @return 0; -EINVAL (not a cpu list, a cpu above 4095, an empty list); -errno of
 *         reading the online list; -ENOMEM.
 * Thread safety: any thread.
 */
int record_target__cpus(const char *list, int **cpus, size_t *nr);

/**
 * @brief The threads of process pid (/proc/PID/task), ascending.
 * @param tids  receives a malloc()ed array (the caller frees it)
 * @param nr    receives its length
 * @return 0; -ESRCH (no such process); -errno of opendir(); -ENOMEM.
 * Thread safety: any thread.
 */
int record_target__threads(pid_t pid, pid_t **tids, size_t *nr);

/**
 * @brief The process (thread group) of thread tid (/proc/TID/status, Tgid).
 * @return the process id; -ESRCH (no such thread).
 * Thread safety: any thread.
 */
pid_t record_target__tgid(pid_t tid);

/** A command forked and held before its exec. */
struct record_child {
	pid_t pid;	/* -1: none */
	int go_fd;	/* write end: one byte lets it exec, closing it makes it exit */
	int err_fd;	/* read end: the exec's errno (4 bytes) when it failed, else EOF */
};

/**
 * @brief Fork the command; the child waits until record_child__go() (so that events
 *        opened on its pid with enable_on_exec start at its exec), then execvp()s
 *        argv. The child keeps the parent's stdin, stdout and stderr.
 * @param c     filled; record_child__go() or record_child__kill() ends the wait
 * @param argv  the command and its arguments (NULL-terminated; argv[0] searched in
 *              PATH)
 * @return 0; -errno of pipe() or fork().
 * Thread safety: the main thread (forks).
 */
int record_child__start(struct record_child *c, char *const argv[]);

/**
 * @brief Let the child exec, and wait until it did (or failed to).
 * @return 0 (the exec happened); the negative errno of a failed exec (the child then
 *         exited with status 127; it is reaped); -errno of write().
 * Thread safety: the main thread.
 */
int record_child__go(struct record_child *c);

/** @brief Close the pipes of a child that was never let go (it exits at once) and
 *  reap it. Thread safety: the main thread. */
void record_child__abandon(struct record_child *c);

#endif
