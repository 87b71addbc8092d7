#ifndef DIRREPORT_RECORD_EVENTS_H
#define DIRREPORT_RECORD_EVENTS_H
/*
 * events - the recorder's events: perf record's -e list parsed, and each event's
 * perf_event_attr made as perf record 6.1 makes it for the same options, so that a
 * recording of ours reads in perf (and in dirreport) as one of perf's would.
 *
 * Format: the attr fields and bits are include/uapi/linux/perf_event.h's (format/attr.h
 * names them). Which bits perf record 6.1 sets for which options is taken from the
 * attrs of recordings perf 6.1 made (samples/record.sh lists their options; the unit
 * tests compare with every one of them a target of a command can make):
 *   - every event: size 128 (VER7), sample_type IP|TID, TIME (not with --per-thread
 *     unless -T), PERIOD in frequency mode, ID when there are several events or the
 *     output is a pipe (every pipe recording here was also made with --buildid-mmap,
 *     which alone does not set it), read_format ID|LOST, inherit (not with --per-thread),
 *     sample_id_all, exclude_guest; frequency mode (freq, sample_freq; -F, default
 *     4000 Hz) unless -c gives a period;
 *   - group leaders and events outside groups: disabled and enable_on_exec (the
 *     command's exec starts them);
 *   - the first event (the one perf tracks side-band with): mmap, comm, task, mmap2,
 *     comm_exec, ksymbol, bpf_event; mmap_data with -d or DWARF call graphs;
 *     namespaces with --namespaces; cgroup with --all-cgroups; build_id with
 *     --buildid-mmap;
 *   - -k CLOCKID: use_clockid and clockid on every event;
 *   - tracepoints: every hit (sample_period 1, or -c's; not frequency mode) with
 *     RAW|CPU|PERIOD, as perf's tracepoint evsels;
 *   - -g: CALLCHAIN; --call-graph dwarf,SIZE: CALLCHAIN|REGS_USER|STACK_USER (x86-64's
 *     user registers 0xff0fff, SIZE bytes of stack), ADDR|DATA_SRC and
 *     exclude_callchain_user; -d: ADDR|DATA_SRC; --phys-data: PHYS_ADDR;
 *     --data-page-size, --code-page-size, -W (WEIGHT_STRUCT), --all-cgroups (CGROUP),
 *     --sample-cpu (CPU): their sample bits.
 *
 * Thread safety: pure functions on the caller's data.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

#include "format/attr.h"	/* struct event_attr */

/** The options of perf record that shape the attrs (the target is a command). */
struct record_opts {
	uint64_t freq;			/* -F: samples per second; 0: not given */
	uint64_t period;		/* -c: events per sample; 0: not given */
	bool callchain;			/* -g / --call-graph fp */
	uint32_t dwarf_size;		/* --call-graph dwarf[,SIZE]: bytes; 0: not */
	bool data_addr;			/* -d */
	bool phys_data;			/* --phys-data */
	bool data_page_size;		/* --data-page-size */
	bool code_page_size;		/* --code-page-size */
	bool weight;			/* -W */
	bool sample_cpu;		/* --sample-cpu */
	bool timestamp;			/* -T */
	bool per_thread;		/* --per-thread */
	bool all_cgroups;		/* --all-cgroups */
	bool namespaces;		/* --namespaces */
	bool buildid_mmap;		/* --buildid-mmap */
	bool pipe;			/* -o - */
	bool use_clockid;		/* -k: sample times on clockid's clock (else the
					 * kernel's perf_clock) */
	int clockid;
};

/**
 * @brief perf's -k/--clockid names (util/clockid.c of perf 6.1): monotonic (mono),
 *        monotonic_raw (raw), realtime (real), boottime (boot), tai, each also with
 *        "CLOCK_" before it and in any case, or a number.
 * @return the clock id, or -1 for a name perf does not take.
 */
int record_events__clockid(const char *name);

/** perf record's default frequency (-F), samples per second. */
#define RECORD_DEFAULT_FREQ 4000

/** One event of the list. */
struct record_event {
	struct event_attr attr;
	char *name;		/* as perf names it (owned) */
	size_t leader;		/* index of its group's leader; its own index outside groups */
	char *group;		/* a named group's name ("grp" of grp{...}), or NULL (owned) */
	size_t nr_members;	/* a leader of a group ({...}): the group's events; else 1 */
};

/**
 * @brief Parse perf record's -e list: comma-separated software events (cpu-clock,
 *        task-clock, page-faults/faults, context-switches/cs, cpu-migrations/migrations,
 *        minor-faults, major-faults, alignment-faults, emulation-faults, dummy,
 *        bpf-output, cgroup-switches) and hardware events (cycles/cpu-cycles,
 *        instructions, cache-references, cache-misses, branch-instructions/branches,
 *        branch-misses, bus-cycles, stalled-cycles-frontend, stalled-cycles-backend,
 *        ref-cycles), tracepoints SYS:NAME (type TRACEPOINT, config its tracefs id:
 *        record/tracefs.h), and groups of them, `{a,b}` or `name{a,b}`. -e given
 *        twice appends: call it once per -e with the same list.
 * @param spec    the list
 * @param ev      array to append to (realloc()ed; *ev may be NULL); owned by the caller,
 *                record_events__free() frees it
 * @param nr      its length, updated
 * @param err     filled with one line on failure (what is wrong and where)
 * @return 0; -EINVAL (an unknown event or tracepoint, an empty name, a group left open
 *         or nested, an event modifier, which is not supported yet: err says which);
 *         -ENOMEM.
 */
int record_events__parse(const char *spec, struct record_event **ev, size_t *nr,
			 char *err, size_t errlen);

/**
 * @brief Set every attr as perf record 6.1 sets it for opts (the list in this header's
 *        comment). Type and config, set by the parse, are kept.
 *         A DWARF stack size is rounded up to a multiple of 8 bytes, as perf rounds it.
 * @return 0; -EINVAL (no event; -F and -c both given, which perf 6.1 refuses: "cannot
 *         set frequency and period at the same time"; a DWARF stack size above 65528
 *         bytes, perf's limit). Neither -F nor -c is the default frequency.
 */
int record_events__config(struct record_event *ev, size_t nr, const struct record_opts *o);

/**
 * @brief Add perf record's tracking event of a system-wide recording (-a, -C): a
 *        software "dummy:HG" event after the others, enabled from its start (not
 *        disabled, no enable_on_exec), that takes over the first event's side-band
 *        bits (mmap, comm, task, mmap2, comm_exec, ksymbol, bpf_event, and mmap_data,
 *        namespaces, cgroup, build_id where set), so that what happens while the
 *        recording starts is seen before the sampled events are enabled. Its sample
 *        settings are the first event's, without exclude_guest (perf's HG: host and
 *        guest); every event samples ID, as there are now several. Call after
 *        record_events__config(). Format: the attrs of perf 6.1's `perf record -a`
 *        recordings (samples/system-g.data).
 * @return 0; -EINVAL (no event); -ENOMEM.
 */
int record_events__add_tracking(struct record_event **ev, size_t *nr);

/** @brief Free the names and the array. NULL is a no-op. */
void record_events__free(struct record_event *ev, size_t nr);

#endif
