#ifndef DIRREPORT_MACHINE_MACHINE_H
#define DIRREPORT_MACHINE_MACHINE_H
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

#include "machine/dso.h"

struct sample;
struct record_ref;
struct features;

struct map {
	uint64_t start, end;	/* [start, end) virtual addresses */
	uint64_t pgoff;		/* file offset of start, bytes */
	struct dso *dso;	/* borrowed from the machine's dsos */
	bool kernel_fixup;	/* kernel map: move to the span of its symbols when the
				 * first sample lands in it (perf's map__fixup_start/end) */
	/* an MMAP2 record's file identity and protection (0 for MMAP records, kernel
	 * maps and MMAP2 records carrying a build-id instead): the dcacheline key */
	uint32_t maj, min;	/* device numbers */
	uint64_t ino, ino_generation;
	uint32_t prot, flags;	/* PROT_*, MAP_* of mmap(2) */
	uint64_t id;		/* the identity of perf's map object: new for each MMAP,
				 * for the pieces an overlapping map leaves and for
				 * every map a FORK copies (unique in the run) */
};

struct maps {
	struct map *v;		/* owned, sorted by start, non-overlapping */
	size_t nr, cap;
	unsigned refs;		/* threads sharing these maps */
	uint64_t gen;		/* changes whenever the maps change, and differs between
				 * any two maps objects of the process's run (a cache of
				 * what was built from them keys on it: unwind.h) */
	bool pinned;		/* a copy reads v (maps__copy()): a change keeps it
				 * until machine__release_maps() */
};

/*
 * One name of a thread (perf's struct comm). A thread keeps every name it had, newest
 * first: the first COMM replaces the default ":<tid>" entry in place (perf's
 * comm__override), later ones are added in front; a FORK gives the child the parent's
 * current name, timed at the fork, when the parent had a COMM.
 */
struct comm {
	const char *str;	/* interned, owned by the machine */
	uint64_t start;		/* ns: time of the COMM/FORK record that set it (its
				 * sample_id time; all ones when it has none); 0 for the
				 * default name */
	bool exec;		/* set by a COMM with PERF_RECORD_MISC_COMM_EXEC */
	struct comm *older;	/* owned: the thread's previous name, or NULL */
	uint32_t id;		/* 0, 1, 2 ...: the machine's comms in creation order
				 * (front ends key their own tables by it) */
};

struct thread {
	int32_t pid, tid;
	const char *comm;	/* interned, owned by the machine */
	bool comm_set;		/* from a COMM record (else ":<tid>") */
	struct maps *maps;	/* shared by the threads of one process */
	struct comm *comms;	/* owned, newest first; NULL until a COMM or FORK sets a
				 * name or machine__thread_comm() makes the default one */
	uint32_t id;		/* 0, 1, 2 ...: the machine's threads in creation order,
				 * replaced ones included (front ends key their own
				 * tables by it) */
};

struct machine;

/**
 * @brief The map of @p mp holding virtual address @p addr, or NULL.
 * Thread safety: reads only @p mp (not concurrently with machine__process(), unless
 *        @p mp is a copy: maps__copy()).
 */
const struct map *maps__find(const struct maps *mp, uint64_t addr);

/**
 * @brief Copy a process's maps as they are now into @p out, for other threads to
 *        read (maps__find(), maps__resolve_user(), unwinder__unwind()) while this
 *        one goes on replaying: the copy stays valid and unchanged until the next
 *        machine__release_maps(), even when MMAP/MMAP2 records change @p mp (the
 *        array it reads is then kept, not freed).  A FORK makes a new struct maps
 *        and changes no array.  Not for the kernel's maps (their map moves in place
 *        on the first kernel sample: machine__resolve_map()).
 * @param mp  NULL (a thread without maps): @p out is empty (no map is found in it)
 * Thread safety: the replaying thread only.
 */
void maps__copy(struct maps *mp, struct maps *out);

/**
 * @brief Free the map arrays kept for copies (maps__copy()) since the last call:
 *        every copy taken before it becomes invalid.
 * Thread safety: the replaying thread only, while no other reads such a copy.
 */
void machine__release_maps(struct machine *m);

/**
 * @brief The map arrays kept for copies so far (a count for
 *        machine__release_maps_upto(); it goes down by what that releases).
 * Thread safety: the replaying thread only.
 */
size_t machine__maps_retired(const struct machine *m);

/**
 * @brief machine__release_maps() of the first @p n arrays kept (those replaced
 *        before machine__maps_retired() said @p n), for a caller whose copies of
 *        two stages overlap (the dump formats a batch while it replays the next):
 *        a copy whose array was replaced before that point becomes invalid, one
 *        whose array was still in use then stays valid (so every copy taken after
 *        it).  The arrays kept after it are then counted from 0: a count taken
 *        later goes down by @p n.
 * Thread safety: the replaying thread only, while no other reads such a copy.
 */
void machine__release_maps_upto(struct machine *m, size_t n);

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
 * @brief machine__process() of a record as the session delivers it: its sample_id
 *        trailer is parsed with its event's attr first.  Records without an event
 *        (perf's own) and those that are not side-band are ignored.
 * @return 0 or -ENOMEM.
 * Thread safety: the replaying thread.  Format: the sample_id trailer
 *        (docs/perf-data-format.md §5.2).
 */
int machine__process_record(struct machine *m, const struct record_ref *ref);

/**
 * @brief Give the dsos the build-ids of the BUILD_ID feature (before any lookup: they
 *        decide which files may supply symbols, and which kallsyms the kernel uses).
 * @return 0 or -ENOMEM. Format: feature BUILD_ID.
 */
int machine__apply_build_ids(struct machine *m, const struct features *f);

/**
 * @brief The host user-space dsos the BUILD_ID feature names (those with samples
 *        at record time, as perf record marks them), in the feature's order.
 * @param out  receives up to @p max borrowed dsos (machine__apply_build_ids()
 *             made them)
 * @return how many there are (may exceed @p max: then only @p max were written).
 * Thread safety: the replaying thread.  Format: feature BUILD_ID (pid -1, user
 *        cpumode).
 */
size_t machine__build_id_dsos(struct machine *m, const struct features *f,
			      struct dso **out, size_t max);

struct workqueue;

/**
 * @brief Queue the reading of the kernel's symbols on wq, to overlap it with decoding
 *        the recording (machine__apply_build_ids() first: it picks the file).
 *        The caller must wait for it (machine__wait_preload(), or
 *        workqueue__flush(wq)) before the machine processes records, and call
 *        machine__wait_preload() before it deletes `wq` if that goes before the
 *        machine (machine__delete() waits for a job not waited for yet).
 * @return 0 or -ENOMEM.
 */
int machine__preload_kernel(struct machine *m, struct workqueue *wq);

/**
 * @brief Wait for machine__preload_kernel()'s job alone (other work queued on its
 *        workqueue may still run); nothing when none was queued or @p m is NULL.
 * Thread safety: the thread that queued it.
 */
void machine__wait_preload(struct machine *m);

/**
 * @brief Whether the kernel's symbols machine__preload_kernel() read from the
 *        build-id cache's copy of the running kernel's kallsyms (with
 *        dsos_opts.kallsyms_ahead) are the ones perf reads: machine__wait_preload(),
 *        then dso__check_kernel() of the kernel dso (its check waited for).  Call
 *        before printing anything that a kernel symbol or the kernel's maps
 *        decided.  The check's thread starts at the first kernel lookup that takes
 *        the copy's table.
 * @param offset  if not NULL and they differ: where (dso__check_kernel())
 * @return KALLSYMS_NOT_AHEAD (no copy read or its table not used so far, or @p m
 *         NULL), KALLSYMS_SAME, or KALLSYMS_DIFFER: the output made from them must
 *         be dropped and made again by a machine without kallsyms_ahead.
 * Thread safety: the thread that queued the preload, once no dso load runs.
 */
enum kallsyms_check_result machine__check_kernel_symbols(struct machine *m,
							 uint64_t *offset);

/**
 * @brief Where machine__check_kernel_symbols()'s answer stands, without waiting for
 *        the check (dso__check_kernel_state() of the kernel dso): SETTLED (none read
 *        ahead, or answered: the check returns at once), UNUSED (the copy's table
 *        not taken yet: no output so far depends on it), RUNNING (taken, its answer
 *        to come).  machine__wait_preload() first.
 * Thread safety: as machine__check_kernel_symbols().
 */
enum kallsyms_check_state machine__kernel_check_state(struct machine *m);

/**
 * @brief Queue the loading of the kernel's symbols on wq (dso__load(): the file
 *        machine__preload_kernel() read ahead on the same wq is used, fixed up with
 *        the kernel MMAP's reference symbol), so that the first kernel sample finds
 *        them loaded.  Call after the kernel MMAP ("[kernel.kallsyms]_text") was
 *        processed; until the job is done the caller must not process another such
 *        MMAP nor look up kernel addresses (workqueue__flush(wq) first).
 * @return 0 or -ENOMEM.
 * Thread safety: the replaying thread queues; the job touches only the kernel dso.
 * Format: kernel MMAP reference symbol (pgoff = its address at record time).
 */
int machine__load_kernel(struct machine *m, struct workqueue *wq);

/** @brief The thread (created on first use, as perf's findnew does), or NULL on ENOMEM. */
struct thread *machine__findnew_thread(struct machine *m, int32_t pid, int32_t tid);

/** What a sample address resolves to. */
struct addr_location {
	struct thread *thread;
	const struct map *map;		/* NULL: no map ([unknown]) */
	struct dso *dso;		/* al->map's dso, or NULL */
	uint64_t map_start, map_pgoff;	/* al->map's, copied */
	const struct symbol *sym;	/* NULL: unresolved */
	uint64_t addr;			/* map-relative address (perf's al->addr) */
	uint64_t sym_unmapped_start;	/* sym->start as a virtual address (map.start +
					 * sym->start - map.pgoff), for symbol__format */
	char level;			/* 'k' kernel, '.' user, 'H' hypervisor, ... */
	uint64_t map_end;		/* al->map's end (0 without a map) */
	uint64_t map_id;		/* al->map's id (0 without a map) */
};

/**
 * @brief Resolve ip of a sample with cpumode (header.misc & 7) in thread: map and
 *        symbol. Kernel addresses use the kernel maps; user ones the process's maps.
 *        Loads the dso's symbols on first use.
 */
void machine__resolve(struct machine *m, struct thread *t, uint16_t cpumode, uint64_t ip,
		      struct addr_location *al);

/**
 * @brief The map part of machine__resolve(): al->map, al->dso, al->map_start,
 *        al->map_pgoff and al->addr; al->sym stays NULL. Loads no user dso (the
 *        kernel's symbols are loaded at its first sample: they decide its map's span).
 *        al->map is valid until the next machine__process(); the copied fields stay.
 */
void machine__resolve_map(struct machine *m, struct thread *t, uint16_t cpumode,
			  uint64_t ip, struct addr_location *al);

/**
 * @brief Whether the kernel's map has taken its final span (the first kernel sample's
 *        machine__resolve_map() moves it to its symbols', and gives the modules
 *        mapped then their kallsyms symbols): from then on resolving a kernel address
 *        changes nothing (machine__resolve_map_at()).
 * Thread safety: the replaying thread, or any while it does not change the machine.
 */
bool machine__kernel_ready(const struct machine *m);

/**
 * @brief machine__resolve_map() that only reads: the map of @p ip with @p cpumode
 *        in the kernel's maps (MISC_KERNEL, level 'k') or in @p user (MISC_USER,
 *        level '.': a process's maps, or a copy of them taken at the sample:
 *        maps__copy()); other cpumodes are level 'H' without a map.  al->thread is
 *        NULL, no symbol is looked up and no dso is loaded (a module's first sample
 *        loads it in machine__resolve_map(); here the caller loads what it finds).
 *        Gives what machine__resolve_map() gives only once machine__kernel_ready()
 *        and while the kernel's maps stay as they were at the sample.
 * Thread safety: reads the kernel maps and @p user: any number of threads while the
 *        replaying thread changes neither.  Format: none.
 */
void machine__resolve_map_at(const struct machine *m, const struct maps *user,
			     uint16_t cpumode, uint64_t ip, struct addr_location *al);

/**
 * @brief machine__resolve_map() of a user-mode address (cpumode MISC_USER, level
 *        '.') against the maps @p mp (a thread's, or a copy: maps__copy()): the map holding @p ip, its dso and identity, and
 *        the map-relative address; al->thread is NULL and no symbol is looked up.
 *        A user map needs nothing loaded, so this only reads.
 * @param mp NULL: no map ([unknown]).
 * Thread safety: reads only @p mp (see maps__find()).
 */
void maps__resolve_user(const struct maps *mp, uint64_t ip, struct addr_location *al);

struct sample;

/** The bit machine__callchain_walk_unwound() adds to the cpumode of the frames it
 *  takes from the unwound user stack (perf expands only those into their inlined
 *  functions: machine.c's unwind_entry()). */
#define CALLCHAIN_UNWOUND 0x8000

/** What machine__callchain_walk() calls for each kept entry of a callchain. */
typedef int (*callchain_frame_fn)(void *ctx, uint16_t cpumode, uint64_t ip);

/**
 * @brief Walk a sample's callchain as perf 6.1 does (thread__resolve_callchain_sample):
 *        context markers (PERF_CONTEXT_HV, _KERNEL, _USER) set the cpumode of the
 *        entries after them in the callchain array; in caller order (root first) each
 *        entry takes the cpumode of the nearest marker before it in the array
 *        (find_prev_cpumode); at most @p max_stack entries are kept, counted from the
 *        start of the walk; any other marker (guest contexts, garbage) makes perf drop
 *        the whole chain.
 * @param s          the parsed sample (its callchain_nr entries)
 * @param caller     walk from the root (perf's ORDER_CALLER), else from the sample's
 *                   own address (ORDER_CALLEE, the array order)
 * @param max_stack  entries kept at most (perf's --max-stack, 127 by default)
 * @param frame      called for each kept entry, in walk order, with its cpumode
 *                   (MISC_KERNEL, MISC_USER or MISC_HYPERVISOR) and address; a
 *                   non-zero return stops the walk and is returned
 * @return 0 after the walk, 1 when perf drops the chain (the frames already passed to
 *         @p frame must be discarded by the caller), or what @p frame returned.
 * Thread safety: reads only @p s; safe on any thread.  Format: PERF_SAMPLE_CALLCHAIN,
 *         the UAPI PERF_CONTEXT_* markers (format/record.h CONTEXT_*).
 */
int machine__callchain_walk(const struct sample *s, bool caller, uint64_t max_stack,
			    callchain_frame_fn frame, void *ctx);

/**
 * @brief perf's thread__resolve_callchain() for a sample with unwound user frames
 *        (unwind.h): in callee order the callchain's entries
 *        (machine__callchain_walk()) then the user frames, in caller order the user
 *        frames (root first) then the callchain's entries.  The user frames come
 *        with cpumode MISC_USER | CALLCHAIN_UNWOUND.  The user frames count
 *        apart from @p max_stack (the unwinder was given it).
 * @param user_ips  nr_user user addresses in callee order (the sample's IP first)
 * @return as machine__callchain_walk(): 1 when perf drops the chain (its whole
 *         cursor: the caller discards every frame passed).
 * Thread safety: reads only its arguments.  Format: see machine__callchain_walk().
 */
int machine__callchain_walk_unwound(const struct sample *s, bool caller,
				    uint64_t max_stack, const uint64_t *user_ips,
				    size_t nr_user, callchain_frame_fn frame, void *ctx);

/** @brief The symbol part: al->sym and al->sym_unmapped_start from al->dso/al->addr.
 *  Thread safety: concurrent calls are safe once al->dso is loaded (dso__load). */
void addr_location__resolve_sym(struct addr_location *al);

/**
 * @brief addr_location__resolve_sym() where it only reads: when al->dso is NULL or
 *        already loaded.
 * @return true when done (al->sym and al->sym_unmapped_start set as
 *         addr_location__resolve_sym() sets them), false when al->dso is not loaded
 *         yet (al untouched: the caller resolves it with addr_location__resolve_sym()
 *         on the thread that may load dsos).
 * Thread safety: any number of threads at once, while no thread loads al->dso.
 */
bool addr_location__resolve_sym_loaded(struct addr_location *al);

/** Current comm of a thread (":<tid>" until it has one). */
const char *thread__comm(const struct thread *t);

/**
 * @brief The comm a sample of @p t takes now, as machine__resolve_map() leaves it: the
 *        thread's current comm, or perf's default name given to a thread that has
 *        none yet (":<tid>"; "swapper" for tid 0), which it keeps from then on.
 *        For a sample whose address is resolved later (machine__resolve_map_at()).
 * @return the interned name (valid until machine__delete()), or NULL on -ENOMEM.
 * Thread safety: the replaying thread only.  Format: perf's thread__comm_str().
 */
const char *machine__sample_comm(struct machine *m, struct thread *t);

/**
 * @brief What a name a sample of @p t took becomes once the recording is replayed.
 *        perf's hist entries point at the thread's comm object; the default one
 *        (":<tid>", a thread seen in a sample before any COMM or FORK named it) is
 *        overridden in place by the thread's first COMM (comm__override), so those
 *        entries print, and collapse under, that name.
 * @param comm the interned name the sample took (thread__comm() at the time)
 * @return the thread's oldest name when @p comm is its default name and a COMM has set
 *         one since; else @p comm.  Borrowed, interned.
 * Thread safety: reads the thread; call after the replay.  Format: COMM records.
 */
const char *thread__comm_overridden(const struct thread *t, const char *comm);

/**
 * @brief The thread with this tid, without creating it (perf's machine__find_thread).
 *        A thread known with pid -1 takes @p pid when that is not -1.
 * @return the thread (owned by the machine) or NULL.
 * Thread safety: the replaying thread.  Format: none.
 */
struct thread *machine__find_thread(struct machine *m, int32_t pid, int32_t tid);

/**
 * @brief The thread's current comm object, creating the default one (":<tid>", start
 *        0; "swapper" for tid 0) when the thread has none yet.
 * @return the comm (owned by the thread, valid until machine__delete) or NULL on
 *         ENOMEM.
 * Thread safety: the replaying thread.  Format: COMM records, FORK records.
 */
struct comm *machine__thread_comm(struct machine *m, struct thread *t);

/**
 * @brief The comm perf 6.1 calls the thread's "exec" comm (machine__thread_exec_comm):
 *        when the machine has comm_exec, the newest comm set by an exec COMM; without
 *        one the oldest comm, except that for a main thread (pid == tid) whose oldest
 *        comm has start 0 and a newer one exists, the second oldest.  Without
 *        comm_exec, the current comm.
 * @return the comm (owned by the thread) or NULL on ENOMEM.
 * Thread safety: the replaying thread.  Format: COMM misc bit 13 (COMM_EXEC).
 */
struct comm *machine__thread_exec_comm(struct machine *m, struct thread *t);

/**
 * @brief Whether exec COMMs are told apart: set by machine__set_comm_exec() (an attr
 *        with comm_exec) or by the first COMM record with the exec bit.
 * Thread safety: the replaying thread.  Format: attr flag comm_exec, COMM misc.
 */
bool machine__comm_exec(const struct machine *m);

/** @brief Mark the machine as having comm_exec (perf does so when any attr has it). */
void machine__set_comm_exec(struct machine *m);

/**
 * @brief The machine's current threads (not those a FORK replaced), in no order.
 * @param out, cap  receives up to @p cap borrowed pointers
 * @return the number of threads (call with cap 0 to size @p out).
 * Thread safety: not concurrently with machine__process().  Format: none.
 */
size_t machine__threads(const struct machine *m, struct thread **out, size_t cap);

/**
 * @brief machine__new() with every option of its dso collection (e.g. no_demangle).
 * @param opts  copied; NULL for perf's defaults
 * @return 0 or -ENOMEM.  Ownership: free with machine__delete().
 * Thread safety: any.  Format: none.
 */
int machine__new_opts(struct machine **out, const struct dsos_opts *opts);

#endif
