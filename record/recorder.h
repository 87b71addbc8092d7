#ifndef DIRREPORT_RECORD_RECORDER_H
#define DIRREPORT_RECORD_RECORDER_H
/*
 * recorder - the events opened, their ring buffers read into one perf.data file, or a
 * data directory (`data` and a `data.N` per cpu) read by a thread per --threads mask.
 *
 * Life cycle (dirrecord's main):
 *   recorder__open()        perf_event_open() of every event on every cpu (and every
 *                           thread of a -p/-t target), one ring buffer per cpu (the
 *                           other fds of that cpu write into it:
 *                           PERF_EVENT_IOC_SET_OUTPUT), the output file created and
 *                           the attrs with their ids added;
 *   recorder__synthesize()  ID_INDEX, the kernel's and the modules' maps, the
 *                           target's processes (record/synth.h), FINISHED_INIT;
 *   recorder__start()       a directory: the reader threads start (one per mask);
 *   recorder__enable()      PERF_EVENT_IOC_ENABLE (a command's events start at its
 *                           exec instead: enable_on_exec);
 *   recorder__read()        one pass over the rings: their records written as they
 *                           come (LOST ones too), then a FINISHED_ROUND when the
 *                           pass wrote something, as perf record does;
 *   recorder__wait()        poll() on the rings until the kernel wakes one up;
 *   recorder__snapshot()    snapshot mode, on SIGUSR2: the kept samples written;
 *   recorder__finish()      the events disabled, the rings drained, the header's
 *                           features written, the file closed;
 *   recorder__delete()      frees everything (the fds, the mappings).
 *
 * Format: docs/perf-data-format.md §1 (the file, through format/writer.h), §4 (the
 * records, as the kernel writes them: include/uapi/linux/perf_event.h), §4.4
 * FINISHED_ROUND and §7.2 (rounds: every record written before a round is older than
 * every record written after the next one, which holds because each pass reads every
 * ring up to the head it saw).
 *
 * Thread safety: one thread (dirrecord's main) calls these; with a directory the
 * reader threads recorder__start() made read the rings until recorder__finish()
 * (record/recorder-internal.h).
 */
#include <sched.h>	/* cpu_set_t */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>	/* pid_t */

#include "record/events.h"

struct diag;
struct recorder;

enum recorder_target {
	RECORDER_COMMAND,	/* a forked command: tids[0] (events with enable_on_exec) */
	RECORDER_PID,		/* -p: processes, tids their threads */
	RECORDER_TID,		/* -t: the threads tids */
	RECORDER_SYSTEM,	/* -a or -C: every thread (pid -1) */
};

struct recorder_opts {
	const struct record_event *events;	/* configured (record_events__config()) */
	size_t nr_events;
	enum recorder_target target;
	const pid_t *tids;		/* RECORDER_COMMAND/PID/TID: the threads */
	size_t nr_tids;
	const int *cpus;		/* cpu numbers, ascending */
	size_t nr_cpus;
	unsigned mmap_pages;		/* data pages per ring, a power of two */
	bool mmap_data;			/* -d: the data mappings are synthesized too */
	const char *path;		/* the output file, which must not exist; with
					 * dir an existing empty directory */
	bool dir;			/* a data directory (--threads): the header and
					 * the synthesized records in PATH/data, cpu i's
					 * ring in PATH/data.i, as perf 6.1 lays it out */
	size_t nr_threads;		/* dir: reader threads (--threads masks) */
	const unsigned *thread_of;	/* dir: per cpu, the thread that reads its ring */
	const cpu_set_t *affinity;	/* dir: per thread, where it may run; NULL: any */
	int comp_level;			/* -z: zstd level 1..22; 0: none */
	unsigned nr_cblocks;		/* --aio: writes in flight per file through
					 * io_uring, 1..WRITER_AIO_MAX (format/writer.h);
					 * 0: plain writes */
	size_t snapshot_size;		/* -M: bytes of samples kept per ring until
					 * recorder__snapshot(); 0: no snapshot mode */
	const char *const *argv;	/* the command line, for CMDLINE (argv[0] is
					 * replaced by the program's path as perf does) */
	size_t argc;
	const char *buildid_dir;	/* the build-id cache the recording's entries
					 * go to at its end (record/buildid-cache.h);
					 * NULL: none (-N) */
};

/** What a recording holds, for the closing message and the tests. */
struct recorder_stats {
	uint64_t nr_samples;
	uint64_t nr_lost;		/* samples the kernel lost (LOST records' counts) */
	uint64_t nr_wakeups;		/* passes that found data */
	uint64_t bytes;			/* of records written */
	uint64_t comp_in, comp_out;	/* -z: bytes of records compressed, and of the
					 * COMPRESSED records holding them */
	bool kernel_excluded;		/* perf_event_paranoid made us exclude the kernel */
	bool no_kernel_map;		/* /proc/kallsyms hid the kernel's addresses
					 * (kptr_restrict): no kernel map synthesized */
	int buildid_cache_err;		/* -errno: an entry could not be added to the
					 * build-id cache (the recording is whole) */
};

/**
 * @brief Open every event of o on every cpu of o (and thread), map one ring buffer of
 *        1 + o->mmap_pages pages per cpu, create the output and add the attrs and
 *        ids. Where the kernel refuses an event for want of privilege and the events
 *        did not exclude the kernel, they are opened again excluding the kernel and
 *        the hypervisor, as perf record does (stats.kernel_excluded says so); a
 *        system-wide target is not retried.
 * @param out  the recorder (recorder__delete())
 * @param d    on error, one line: the event (path = its name) and what is wrong
 * @return 0; -EACCES or -EPERM (no permission: d names
 *         /proc/sys/kernel/perf_event_paranoid and its value); -ENOENT, -EOPNOTSUPP or
 *         -ENODEV for a hardware event on a cpu with no PMU the kernel drives (d says
 *         so); -ESRCH (the target's threads are gone); -EINVAL (the kernel refused the
 *         attr); -ENOMEM; -EPERM or -ENOMEM from mmap() (locked memory:
 *         d suggests a smaller -m); the writer's errors (format/writer.h), -EEXIST.
 * Ownership: o is copied (the events' attrs and names too).
 */
int recorder__open(struct recorder **out, const struct recorder_opts *o, struct diag *d);

/**
 * @brief Whether o->nr_cblocks' asynchronous writes fell back to plain ones.
 * @return 0: io_uring writes, or none asked for; else the -errno that
 *         io_uring_queue_init() returned (-ENOSYS, -EPERM, -ENOMEM): every file is
 *         written with pwrite(2) (writer__aio_fallback()).
 * Thread safety: any thread, after recorder__open().
 */
int recorder__aio_fallback(const struct recorder *r);

/**
 * @brief The records perf record synthesizes before the events start: ID_INDEX, the
 *        kernel's map and the modules' (unless the events exclude the kernel), the
 *        THREAD_MAP and CPU_MAP the events were opened on, the
 *        target's processes (COMM per thread, MMAP2 per executable mapping; all
 *        processes of /proc for a system-wide target; the processes of the threads
 *        of -p, and the threads of -t with their processes' maps; only the COMM of a
 *        command that has not exec()ed yet: the kernel reports its maps after the
 *        exec), then FINISHED_INIT. Where /proc/kallsyms hides the kernel's addresses
 *        the kernel's map is left out, as perf leaves it (stats.no_kernel_map).
 * @return 0; the writer's errors; -ENOMEM.
 */
int recorder__synthesize(struct recorder *r, struct diag *d);

/**
 * @brief With o->dir: start one reader thread per mask (pthreads, each pinned to its
 *        affinity), each reading the rings of its cpus into their data.N files until
 *        recorder__finish(); the calling thread then only waits (recorder__wait()
 *        sleeps, recorder__read() reports a thread's error). Without dir: nothing.
 *        Call after recorder__synthesize().
 * @return 0; -errno of pthread_create() (d says so).
 * Thread safety: the main thread; the signals are the main thread's (the readers
 *        block them).
 */
int recorder__start(struct recorder *r, struct diag *d);

/**
 * @brief Snapshot mode (o->snapshot_size), on SIGUSR2: read the rings, then write the
 *        samples every ring kept (its newest snapshot_size bytes of samples; the
 *        side-band records were written as they came) in time order into the
 *        recording, after what it holds already; the snapshots then keep what comes
 *        next. With reader threads each thread writes its own rings' samples into
 *        their data.N files the next time it wakes (within 100 ms).
 *        Without snapshot mode: nothing.
 * @return 0; the errors of recorder__read(); -ENOMEM.
 * Thread safety: the main thread.
 * Format: docs/perf-data-format.md §4 (records, as the kernel wrote them).
 */
int recorder__snapshot(struct recorder *r, struct diag *d);

/** @brief Enable the events now (PERF_EVENT_IOC_ENABLE on every group leader).
 *  @return 0; -errno of ioctl(). */
int recorder__enable(struct recorder *r);

/**
 * @brief One pass over the rings: every record published so far written to the
 *        file (in snapshot mode the samples kept instead), then a FINISHED_ROUND when
 *        the pass found records (none in a directory or in snapshot mode). While
 *        reader threads run, nothing is read here: a reader's error is returned
 *        (the readers then stopped).
 * @param wrote  set to whether the pass found records
 * @return 0; -DIAG_RECORD_SIZE or -DIAG_BAD_RECORD (a damaged ring, ring.h); the
 *         writer's errors.
 * Format: docs/perf-data-format.md §4.4, §7.2.
 */
int recorder__read(struct recorder *r, bool *wrote, struct diag *d);

/**
 * @brief Wait until a ring has data, a signal comes or timeout_ms passes (while reader
 *        threads run: a signal or timeout_ms).
 * @return 0 (also after a signal or the timeout); 1 when every event's task is gone
 *         (all rings hung up, as every reader saw them); -errno of poll().
 * Format: none.
 */
int recorder__wait(struct recorder *r, int timeout_ms);

/**
 * @brief Disable the events, drain the rings, write a LOST_SAMPLES record per
 *        event fd that counted lost samples (read_format LOST, as perf record 6.1
 *        writes them: the trailer holds the event's id), write the header's features (HOSTNAME,
 *        OSRELEASE, VERSION, ARCH, NRCPUS, CPUDESC, CPUID, TOTAL_MEM, CMDLINE,
 *        EVENT_DESC, BUILD_ID, SAMPLE_TIME: record/features.h; GROUP_DESC when
 *        the events have groups; COMPRESSED with -z, DIR_FORMAT for a directory)
 *        and close the file, then write the recording's index beside it
 *        (FILE.dirindex, DIR/dirindex: format/index.h). Reader threads are stopped
 *        and joined first. In snapshot mode, samples kept but never asked for are
 *        dropped.
 *        The recorder must still be deleted.
 * @param stats  if not NULL: filled
 * @return 0; the errors of recorder__read(); the writer's errors (d names the file).
 */
int recorder__finish(struct recorder *r, struct recorder_stats *stats, struct diag *d);

/**
 * @brief After a write error (a full disk): the reader threads stopped and joined, the
 *        events disabled, and the recording kept up to its last whole record on disk
 *        (writer__salvage(): the header written, the features where there is room),
 *        without the index.  The recorder must still be deleted.
 * @return 0 (the recording is kept); an error: nothing could be kept (the caller
 *         removes the files).
 */
int recorder__salvage(struct recorder *r);

/** @brief Close the fds, unmap the rings, abandon an unfinished output (the file
 *  stays as it is). NULL is a no-op. */
void recorder__delete(struct recorder *r);

#endif
