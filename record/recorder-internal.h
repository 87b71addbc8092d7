#ifndef DIRREPORT_RECORD_RECORDER_INTERNAL_H
#define DIRREPORT_RECORD_RECORDER_INTERNAL_H
/*
 * recorder-internal - the recorder's state, shared by record/recorder.c (opening,
 * synthesizing, the single-threaded reading, finishing), record/threads.c (--threads:
 * a reader thread per cpu mask; snapshot mode's drains). Not for other callers: they
 * use record/recorder.h.
 *
 * Thread safety: a ring (and its emitter, stats and snapshot) belongs to the thread
 * that reads it; the dsos table is shared and locked (dsos_lock) while threads run.
 */
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/diag.h"
#include "record/recorder.h"
#include "record/ring.h"
#include "record/snapshot.h"

struct writer;
struct record_dsos;

/** What one ring's records (or the main thread's synthesized ones) add up to. */
struct rstats {
	uint64_t nr_samples, nr_lost, nr_wakeups, bytes;
	uint64_t first_ns, last_ns;	/* sample times seen (0: none) */
};

/** Where records go: a stream of the writer, its stats, and snapshot mode's copy. */
struct emitter {
	struct recorder *r;
	unsigned stream;		/* writer stream: 0, or 1 + the ring's index */
	struct snapshot *snap;		/* snapshot mode: samples kept here; else NULL */
	unsigned wflags;		/* writer__write()'s flags: WRITER_PLAIN for the
					 * synthesized records (perf -z compresses only
					 * what it reads from the rings) */
	/* direct: the records are written from the ring after its read
	 * (writer__write_direct(): a data.N stream neither compressed nor written
	 * through io_uring), the read's records counted meanwhile */
	bool direct;
	uint64_t d_nr, d_first, d_last;
	struct rstats st;
	/* the maps of this emitter's last user-mode sample ([0]) and last kernel-mode
	 * one ([1]) (record_dsos__hit()): samples in one hit the same file, as long as
	 * the maps are those of generation gen (samples alternate between the two) */
	struct emitter_hit {
		bool valid;
		int32_t pid;
		uint64_t gen, start, end;
	} hit[2];
};

struct evfd {
	int fd;
	size_t ev;		/* index of its event */
	size_t cpu;		/* index into cpus */
	int32_t tid;		/* -1: every thread */
	uint64_t id;
};

struct rring {
	void *base;		/* the mapping */
	size_t len;		/* bytes mapped */
	int fd;			/* the fd it belongs to (borrowed from fds) */
	struct ring ring;
	struct emitter em;
	struct snapshot snap;	/* snapshot mode */
	char label[32];
};

/** A --threads reader: the rings of its cpus, their data.N files. */
struct rthread {
	struct recorder *r;
	pthread_t th;
	bool started;
	cpu_set_t affinity;
	bool has_affinity;
	size_t *rings;		/* indexes into recorder.rings (owned) */
	size_t nr_rings;
	struct pollfd *pfds;	/* owned, nr_rings */
	unsigned snap_seen;	/* the snapshot requests it has served */
	uint64_t reread;	/* bytes of a read after which its rings are read again
				 * at once (else it polls: the kernel wakes it when a
				 * ring is half full) */
	bool hup;		/* all its rings hung up */
	int err;		/* why it stopped early (0: it did not) */
	struct diag d;
};

struct recorder {
	struct recorder_opts o;
	/* -k: the same instant on the wall clock and on the events' clock, taken when
	 * the events were opened (CLOCK_DATA), ns */
	uint64_t ref_tod_ns, ref_clock_ns;
	struct record_event *ev;	/* owned copies (attrs as opened) */
	int *cpus;
	pid_t *tids;
	struct evfd *fds;
	size_t nr_fds;
	struct rring *rings;		/* one per cpu */
	size_t nr_rings;
	struct pollfd *pfds;
	struct writer *w;
	struct record_dsos *dsos;
	size_t id_hdr_size;
	/* where a sample of ev[0]'s layout holds its ip, pid and time (bytes from its
	 * start; 0: not in the layout), and the bytes those first fields end at: read
	 * there, without sample__parse(), from a sample at least that long */
	size_t s_ip_off, s_pid_off, s_time_off, s_fixed;
	struct recorder_stats st;
	struct emitter main_em;		/* stream 0: synthesized and closing records */
	size_t failed_ev;		/* the event perf_event_open() refused */
	bool exclude_kernel;
	/* --threads */
	struct rthread *threads;	/* owned, o.nr_threads */
	size_t nr_threads;
	bool threaded;			/* the threads run: the dsos are locked */
	pthread_mutex_t dsos_lock;
	atomic_uint_fast64_t maps_gen;	/* bumped (under dsos_lock) by every record
					 * that may change the maps: emitter.hit */
	atomic_bool stop;		/* the threads are to finish */
	atomic_uint snap_req;		/* snapshot requests made (SIGUSR2s) */
	atomic_uint nr_hup;		/* threads whose rings all hung up */
	atomic_int failed;		/* a thread stopped on an error */
	char name_buf[64];
};

/**
 * @brief Write one record read from a ring (or synthesized) through emitter ctx: into
 *        its stream (a sample in snapshot mode into its snapshot instead), with the
 *        maps it tells of tracked for the build-ids.
 * @return 0; the writer's errors; -ENOMEM.
 * Thread safety: the emitter's thread. Format: docs/perf-data-format.md §4.
 */
int recorder__emit(void *ctx, const void *rec, size_t size);

/**
 * @brief recorder__emit() past the snapshot: the record goes to the writer now (with
 *        the emitter's writer flags), its stats counted.
 * @param ctx   a struct emitter; rec, size: the whole record (copied by the writer)
 * @return as recorder__emit().
 * Thread safety: the emitter's thread. Format: docs/perf-data-format.md §4.
 */
int recorder__emit_now(void *ctx, const void *rec, size_t size);

/**
 * @brief Read the rings rings[0..nr) (indexes into r->rings; NULL: the first nr) once:
 *        every record published so far through their emitters.
 * @param bytes  set to the bytes read
 * @return 0; ring__read()'s errors (d filled); the writer's errors.
 * Thread safety: the rings' thread. Format: record/ring.h (the ring's layout).
 */
int recorder__read_rings(struct recorder *r, const size_t *rings, size_t nr,
			 uint64_t *bytes, struct diag *d);

/** recorder__writer_error()'s stream when the error may be any stream's. */
#define RECORDER_ANY_STREAM (~0u)

/** @brief d for err where nothing filled it: the writer's diagnostic of stream (of any
 *  stream with RECORDER_ANY_STREAM), else the output's path and the code's text.
 *  Thread safety: the stream's thread; RECORDER_ANY_STREAM only while no reader thread
 *  runs. Format: none. */
void recorder__writer_error(struct recorder *r, unsigned stream, int err, struct diag *d);

/**
 * @brief Stop and join the readers (no-op when none run).
 * @return 0; the first error a reader stopped on (d: its diagnostic).
 * Thread safety: the main thread.
 */
int recorder__threads_stop(struct recorder *r, struct diag *d);


#endif
