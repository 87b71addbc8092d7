#ifndef DIRREPORT_FORMAT_EVENT_H
#define DIRREPORT_FORMAT_EVENT_H
/*
 * event - one typed, bounds-checked view per non-sample record type.
 *
 * Each decoder `event_<type>__decode(rec, size, out)` takes a whole record (the 8-byte
 * header included), reads its fixed fields at perf's offsets into a plain struct with
 * perf's field names, and never reads at or past rec + size.
 *
 * Byte order: records must already be in host byte order. The reader swaps a
 * cross-endian file's records once, in reader/reader.c host_order() with
 * record__swap() (format/record.h, perf's event_swap rules, docs/perf-data-format.md
 * §12), before any record_ref is handed on (docs/HACKING.md, "Records handed to
 * format/report code are always in host byte order"); these decoders do no swapping.
 * A view's `misc` is header.misc, 0 when size < 8.
 *
 * Short records. Every decoder fills `out` as far as the record goes: a field that lies
 * entirely inside [rec, rec + size) gets its value, one that does not is 0. `nfields`
 * says how many of the view's fields, in record order, lie inside the record (a string
 * counts as one field when at least one of its bytes does; a trailing array counts as
 * one when its count fits). This is what lets `perf report -D` print a partial record
 * exactly as perf 6.1 does (report/dump.c prints the fields that fit and marks the
 * record truncated) and lets callers that accept shorter records than perf's struct
 * (e.g. FORK without its time) keep doing so.
 * Return: 0 when every field of the view is inside the record (and, where said,
 * trailing arrays fit their counts); -DIAG_RECORD_SIZE (format/diag.h) otherwise, or
 * when size < 8. No `struct diag` is filled: callers know the file and offset.
 *
 * Strings (file names, comm, cgroup path, ksymbol name, EVENT_UPDATE unit/name) are
 * `struct event_str`: a pointer into the record and the bytes before the first NUL or
 * the record end, whichever comes first. They are never assumed NUL-terminated: `nul`
 * says whether a NUL was found. As in perf, a string is bounded by the record end, not
 * by the start of the sample_id trailer (docs/perf-data-format.md §4.2).
 *
 * The decoders do not check header.type: the caller dispatches on it.
 * Ownership: pointers in the views borrow from rec and live as long as it does.
 * Thread safety: pure functions; they touch only *out.
 * Format: docs/perf-data-format.md §4.3 (kernel records, offsets), §4.4 (records written
 * by perf), §4.1 (misc bits); perf's include/uapi/linux/perf_event.h
 * (enum perf_event_type record comments) and tools/lib/perf/include/perf/event.h
 * (struct perf_record_*), which these structs follow field by field.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "format/record.h"

/* A string field: borrowed, bounded, not necessarily NUL-terminated. */
struct event_str {
	const char *s;		/* into the record; NULL when no byte of it is inside */
	size_t len;		/* bytes before the first NUL (or the record end) */
	bool nul;		/* a NUL ends it inside the record */
};

/* --- kernel records (docs/perf-data-format.md §4.3) ---------------------------- */

/* MMAP (1): 8 pid, 12 tid, 16 start, 24 len, 32 pgoff, 40 filename. */
#define EVENT_MMAP_NFIELDS 6
struct event_mmap {
	uint16_t misc;			/* header.misc: cpumode, MISC_MMAP_DATA */
	uint32_t pid, tid;
	uint64_t start;			/* address */
	uint64_t len;			/* bytes */
	uint64_t pgoff;			/* file offset in bytes */
	struct event_str filename;
	unsigned nfields;
};

/* MMAP2 (10): as MMAP to pgoff; then with MISC_MMAP_BUILD_ID clear: 40 maj, 44 min,
 * 48 ino, 56 ino_generation; set: 40 build_id_size u8, 44 build_id[20]; then 64 prot,
 * 68 flags, 72 filename. */
#define EVENT_MMAP2_NFIELDS 12		/* inode form */
#define EVENT_MMAP2_BUILD_ID_NFIELDS 10	/* build-id form */
#define EVENT_BUILD_ID_MAX 20		/* bytes; perf's BUILD_ID_SIZE */
struct event_mmap2 {
	uint16_t misc;
	bool has_build_id;		/* misc & MISC_MMAP_BUILD_ID: the build-id form */
	uint32_t pid, tid;
	uint64_t start, len, pgoff;
	/* inode form; in the build-id form the same bytes read as these fields (its
	 * size byte and 3 reserved bytes, then build-id bytes 0-3, 4-11, 12-19), as
	 * perf 6.1 reads its union (the ids of its maps and dsos); 0 where the record
	 * is shorter */
	uint32_t maj, min;
	uint64_t ino, ino_generation;
	/* build-id form (all 0 in the inode form). build_id_size is the record's byte,
	 * not clamped; build_id holds the 20 bytes at offset 44, 0 where beyond the
	 * record. */
	uint8_t build_id_size;
	uint8_t build_id[EVENT_BUILD_ID_MAX];
	uint32_t prot;			/* PROT_READ 1, PROT_WRITE 2, PROT_EXEC 4 */
	uint32_t flags;			/* MAP_SHARED 1, MAP_PRIVATE 2 */
	struct event_str filename;
	unsigned nfields;
};

/* COMM (3): 8 pid, 12 tid, 16 comm. */
#define EVENT_COMM_NFIELDS 3
struct event_comm {
	uint16_t misc;			/* MISC_COMM_EXEC */
	uint32_t pid, tid;
	struct event_str comm;
	unsigned nfields;
};

/* FORK (7) and EXIT (4): 8 pid, 12 ppid, 16 tid, 20 ptid, 24 time. */
#define EVENT_FORK_NFIELDS 5
#define EVENT_FORK_IDS 4		/* pid, ppid, tid, ptid: the fields before time */
struct event_fork {
	uint16_t misc;			/* MISC_FORK_EXEC */
	uint32_t pid, ppid, tid, ptid;
	uint64_t time;			/* nanoseconds */
	unsigned nfields;
};

/* LOST (2): 8 id, 16 lost. */
#define EVENT_LOST_NFIELDS 2
struct event_lost {
	uint64_t id;
	uint64_t lost;			/* records */
	unsigned nfields;
};

/* LOST_SAMPLES (13): 8 lost. */
#define EVENT_LOST_SAMPLES_NFIELDS 1
struct event_lost_samples {
	uint64_t lost;			/* samples */
	unsigned nfields;
};

/* READ (8): 8 pid, 12 tid, 16 value, 24 time_enabled, 32 time_running, 40 id, 48 lost.
 * These are perf's struct perf_record_read offsets, which perf 6.1's dump uses whatever
 * read_format says (docs/perf-data-format.md §4.3 note on READ); the kernel writes only
 * the fields read_format asks for (§5.2). */
#define EVENT_READ_NFIELDS 7
struct event_read {
	uint32_t pid, tid;
	uint64_t value;
	uint64_t time_enabled, time_running;	/* nanoseconds */
	uint64_t id;
	uint64_t lost;
	unsigned nfields;
};

/* THROTTLE (5) and UNTHROTTLE (6): 8 time, 16 id, 24 stream_id. */
#define EVENT_THROTTLE_NFIELDS 3
struct event_throttle {
	uint64_t time, id, stream_id;
	unsigned nfields;
};

/* SWITCH (14) has no body; SWITCH_CPU_WIDE (15): 8 next_prev_pid, 12 next_prev_tid.
 * Both: misc MISC_SWITCH_OUT, MISC_SWITCH_OUT_PREEMPT. */
#define EVENT_SWITCH_NFIELDS 2		/* SWITCH_CPU_WIDE */
#define EVENT_SWITCH_PLAIN_NFIELDS 0	/* SWITCH */
struct event_switch {
	uint16_t misc;
	bool out;			/* misc & MISC_SWITCH_OUT */
	bool preempt;			/* misc & MISC_SWITCH_OUT_PREEMPT */
	uint32_t next_prev_pid, next_prev_tid;	/* SWITCH_CPU_WIDE only; else 0 */
	unsigned nfields;
};

/* NAMESPACES (16): 8 pid, 12 tid, 16 nr_namespaces u64, 24 nr × {dev u64, ino u64}
 * in the order net, uts, ipc, pid, user, mnt, cgroup. */
#define EVENT_NAMESPACES_NFIELDS 4	/* pid, tid, nr_namespaces, link_info */
#define EVENT_NAMESPACES_CGROUP 6	/* index of the cgroup namespace */
struct event_namespaces {
	uint32_t pid, tid;
	uint64_t nr_namespaces;
	uint64_t nr_fit;		/* entries inside the record: <= nr_namespaces */
	const unsigned char *link_info;	/* nr_fit × 16 bytes, borrowed; NULL if none */
	unsigned nfields;
};

/* KSYMBOL (17): 8 addr u64, 16 len u32, 20 ksym_type u16, 22 flags u16, 24 name. */
#define EVENT_KSYMBOL_NFIELDS 5
struct event_ksymbol {
	uint64_t addr;
	uint32_t len;			/* bytes */
	uint16_t ksym_type;		/* 0 unknown, 1 BPF, 2 out-of-line */
	uint16_t flags;			/* bit 0 unregister */
	struct event_str name;
	unsigned nfields;
};

/* BPF_EVENT (18): 8 type u16, 10 flags u16, 12 id u32, 16 tag[8]. */
#define EVENT_BPF_EVENT_NFIELDS 4
#define EVENT_BPF_TAG_SIZE 8
struct event_bpf_event {
	uint16_t type;			/* 1 program load, 2 unload */
	uint16_t flags;
	uint32_t id;
	uint8_t tag[EVENT_BPF_TAG_SIZE];	/* 0 where beyond the record */
	unsigned nfields;
};

/* CGROUP (19): 8 id u64, 16 path. */
#define EVENT_CGROUP_NFIELDS 2
struct event_cgroup {
	uint64_t id;
	struct event_str path;
	unsigned nfields;
};

/* TEXT_POKE (20): 8 addr u64, 16 old_len u16, 18 new_len u16, 20 old bytes then new
 * bytes. The decoder returns an error also when old_len + new_len bytes do not fit. */
#define EVENT_TEXT_POKE_NFIELDS 3	/* addr, old_len, new_len */
struct event_text_poke {
	uint64_t addr;
	uint16_t old_len, new_len;	/* bytes */
	const unsigned char *bytes;	/* offset 20, borrowed; NULL if size <= 20 */
	size_t bytes_avail;		/* bytes from offset 20 to the record end (the
					 * trailer included, as perf's dump reads them) */
	unsigned nfields;
};

/* AUX (11): 8 aux_offset, 16 aux_size, 24 flags. */
#define EVENT_AUX_NFIELDS 3
struct event_aux {
	uint64_t aux_offset, aux_size;	/* bytes */
	uint64_t flags;			/* bit 0 TRUNCATED, 1 OVERWRITE, 2 PARTIAL */
	unsigned nfields;
};

/* ITRACE_START (12): 8 pid, 12 tid. */
#define EVENT_ITRACE_START_NFIELDS 2
struct event_itrace_start {
	uint32_t pid, tid;
	unsigned nfields;
};

/* AUX_OUTPUT_HW_ID (21): 8 hw_id. */
#define EVENT_AUX_OUTPUT_HW_ID_NFIELDS 1
struct event_aux_output_hw_id {
	uint64_t hw_id;
	unsigned nfields;
};

/* --- records written by perf (docs/perf-data-format.md §4.4) ------------------- */

/* ID_INDEX (69): 8 nr, 16 nr × {id, idx, cpu, tid} (u64 each); when the size allows,
 * nr × {machine_pid, vcpu} follow. Error also when nr > max_nr. */
#define EVENT_ID_INDEX_NFIELDS 1
struct event_id_index {
	uint64_t nr;
	uint64_t max_nr;		/* entries the record has room for: (size - 16) / 32 */
	bool has_vcpu;			/* the second array is there: size - 16 >= nr × 48
					 * (only meaningful when nr <= max_nr) */
	const unsigned char *entries;	/* offset 16, borrowed */
	unsigned nfields;
};
struct event_id_index_entry {
	uint64_t id, idx, cpu, tid;
	uint64_t machine_pid, vcpu;	/* 0 without has_vcpu */
};

/* THREAD_MAP (73): 8 nr, 16 nr × {pid u64, comm[16]}. Error also when nr_fit < nr. */
#define EVENT_THREAD_MAP_NFIELDS 1
#define EVENT_THREAD_MAP_ENTRY 24	/* bytes per entry */
struct event_thread_map {
	uint64_t nr;
	uint64_t nr_fit;		/* entries inside the record: <= nr */
	const unsigned char *entries;	/* offset 16, borrowed */
	unsigned nfields;
};

/* CPU_MAP (74): 8 cpu-map data (§4.4 table). The view hands the data on undecoded. */
#define EVENT_CPU_MAP_NFIELDS 1
struct event_cpu_map {
	const unsigned char *data;	/* offset 8, borrowed; NULL when size <= 8 */
	size_t data_len;		/* bytes to the record end */
	unsigned nfields;		/* 1 when data_len >= 2 (the u16 type) */
};

/* STAT_CONFIG (75): 8 nr, 16 nr × {tag u64, val u64}. Error also when nr_fit < nr. */
#define EVENT_STAT_CONFIG_NFIELDS 1
struct event_stat_config {
	uint64_t nr;
	uint64_t nr_fit;		/* entries inside the record: <= nr */
	const unsigned char *data;	/* offset 16, borrowed */
	unsigned nfields;
};

/* STAT (76): 8 id u64, 16 cpu u32, 20 thread u32, 24 val, 32 ena, 40 run (u64). */
#define EVENT_STAT_NFIELDS 6
struct event_stat {
	uint64_t id;
	uint32_t cpu, thread;
	uint64_t val, ena, run;
	unsigned nfields;
};

/* STAT_ROUND (77): 8 type (0 interval, 1 final), 16 time. */
#define EVENT_STAT_ROUND_NFIELDS 2
struct event_stat_round {
	uint64_t type, time;
	unsigned nfields;
};

/* EVENT_UPDATE (78): 8 type, 16 id, 24 payload: a string for UNIT (0) and NAME (2), a
 * double for SCALE (1), cpu-map data for CPUS (3). Error also when the payload its type
 * needs is missing (a string without any byte, a scale without its 8 bytes). */
#define EVENT_UPDATE_NFIELDS 3		/* type, id, payload */
enum { EVENT_UPDATE_UNIT = 0, EVENT_UPDATE_SCALE = 1, EVENT_UPDATE_NAME = 2,
       EVENT_UPDATE_CPUS = 3 };
struct event_event_update {
	uint64_t type;
	uint64_t id;
	const unsigned char *data;	/* offset 24, borrowed; NULL when size <= 24 */
	size_t data_len;		/* bytes to the record end */
	struct event_str str;		/* UNIT, NAME: the string at 24 */
	bool has_scale;			/* SCALE: the 8 bytes at 24 are inside */
	double scale;			/* SCALE: 0 without has_scale */
	unsigned nfields;
};

/* TIME_CONV (79): 8 time_shift, 16 time_mult, 24 time_zero; when size > 32 (perf's
 * test for the extended form): 32 time_cycles, 40 time_mask, 48 cap_user_time_zero u8,
 * 49 cap_user_time_short u8. */
#define EVENT_TIME_CONV_NFIELDS 3
#define EVENT_TIME_CONV_EXT_NFIELDS 7
struct event_time_conv {
	uint64_t time_shift, time_mult, time_zero;
	bool extended;			/* size > 32 */
	uint64_t time_cycles, time_mask;
	uint8_t cap_user_time_zero, cap_user_time_short;
	unsigned nfields;
};

/* HEADER_TRACING_DATA (66, pipes): 8 size u32 (12 pad u32, not part of the view).
 * The tracing-data blob of `size` bytes follows the record in the stream, outside
 * header.size (docs/perf-data-format.md §4.4, §2.4). */
#define EVENT_TRACING_DATA_NFIELDS 1
struct event_tracing_data {
	uint32_t size;			/* bytes of the blob behind the record */
	unsigned nfields;
};

/* HEADER_BUILD_ID (67): 8 pid s32, 12 build_id[20], 32 size u8 (valid when misc has
 * MISC_BUILD_ID_SIZE; perf 6.1 writes 0 and a reader assumes 20), 36 filename. */
#define EVENT_BUILD_ID_NFIELDS 4
struct event_build_id {
	uint16_t misc;			/* cpumode, MISC_BUILD_ID_SIZE */
	int32_t pid;
	uint8_t build_id[EVENT_BUILD_ID_MAX];	/* 0 where beyond the record */
	uint8_t size;			/* the record's byte, not clamped */
	struct event_str filename;
	unsigned nfields;
};

/* AUXTRACE_ERROR (72): 8 type, 12 code, 16 cpu, 20 pid, 24 tid, 28 fmt (u32), 32 ip,
 * 40 time (u64), 48 msg[64]; newer perf adds 112 machine_pid u32, 116 vcpu u32, present
 * when the size reaches them (has_machine_pid). Complete (0) with the fields to msg. */
#define EVENT_AUXTRACE_ERROR_NFIELDS 9
#define EVENT_AUXTRACE_ERROR_MSG 64	/* bytes of msg */
struct event_auxtrace_error {
	uint32_t type, code, cpu, pid, tid, fmt;
	uint64_t ip, time;
	struct event_str msg;		/* bounded by its 64 bytes and the record */
	bool has_machine_pid;		/* size >= 120 */
	uint32_t machine_pid, vcpu;	/* 0 without has_machine_pid */
	unsigned nfields;		/* up to 11 with machine_pid and vcpu */
};

/* AUXTRACE_INFO (70): 8 type u32, 12 reserved u32, 16 priv[]. */
#define EVENT_AUXTRACE_INFO_NFIELDS 2
struct event_auxtrace_info {
	uint32_t type;
	uint32_t reserved;
	const unsigned char *priv;	/* offset 16, borrowed; NULL when size <= 16 */
	size_t priv_len;		/* bytes */
	unsigned nfields;
};

/* AUXTRACE (71): 8 size, 16 offset, 24 reference (u64), 32 idx, 36 tid, 40 cpu,
 * 44 reserved (u32). The AUX data behind the record is not part of the view. */
#define EVENT_AUXTRACE_NFIELDS 7
struct event_auxtrace {
	uint64_t size, offset, reference;
	uint32_t idx, tid, cpu, reserved;
	unsigned nfields;
};

/*
 * The decoders, one per struct above (FORK and EXIT share event_fork, THROTTLE and
 * UNTHROTTLE event_throttle, SWITCH and SWITCH_CPU_WIDE event_switch). Each:
 * @param rec   the record, header first, host byte order; may be unaligned
 * @param size  bytes readable at rec (normally header.size; less when the caller has
 *              less); nothing at or past rec + size is read
 * @param out   filled as described at the top of this file (always, also on error)
 * @return 0, or -DIAG_RECORD_SIZE when a field of the view lies (partly) past size or
 *         size < 8, with the extra conditions noted at each struct.
 * Thread safety: pure. Format: the struct's comment, docs/perf-data-format.md §4.3/§4.4.
 */
int event_mmap__decode(const void *rec, size_t size, struct event_mmap *out);
int event_mmap2__decode(const void *rec, size_t size, struct event_mmap2 *out);
int event_comm__decode(const void *rec, size_t size, struct event_comm *out);
int event_fork__decode(const void *rec, size_t size, struct event_fork *out);
int event_lost__decode(const void *rec, size_t size, struct event_lost *out);
int event_lost_samples__decode(const void *rec, size_t size,
			       struct event_lost_samples *out);
int event_read__decode(const void *rec, size_t size, struct event_read *out);
int event_throttle__decode(const void *rec, size_t size, struct event_throttle *out);
/* SWITCH or SWITCH_CPU_WIDE, told apart by header.type (SWITCH: no fields). */
int event_switch__decode(const void *rec, size_t size, struct event_switch *out);
/* Error also when nr_fit < nr_namespaces. */
int event_namespaces__decode(const void *rec, size_t size, struct event_namespaces *out);
int event_ksymbol__decode(const void *rec, size_t size, struct event_ksymbol *out);
int event_bpf_event__decode(const void *rec, size_t size, struct event_bpf_event *out);
int event_cgroup__decode(const void *rec, size_t size, struct event_cgroup *out);
int event_text_poke__decode(const void *rec, size_t size, struct event_text_poke *out);
int event_aux__decode(const void *rec, size_t size, struct event_aux *out);
int event_itrace_start__decode(const void *rec, size_t size,
			       struct event_itrace_start *out);
int event_aux_output_hw_id__decode(const void *rec, size_t size,
				   struct event_aux_output_hw_id *out);
int event_id_index__decode(const void *rec, size_t size, struct event_id_index *out);
int event_thread_map__decode(const void *rec, size_t size, struct event_thread_map *out);
int event_cpu_map__decode(const void *rec, size_t size, struct event_cpu_map *out);
int event_stat_config__decode(const void *rec, size_t size,
			      struct event_stat_config *out);
int event_stat__decode(const void *rec, size_t size, struct event_stat *out);
int event_stat_round__decode(const void *rec, size_t size, struct event_stat_round *out);
int event_event_update__decode(const void *rec, size_t size,
			       struct event_event_update *out);
int event_time_conv__decode(const void *rec, size_t size, struct event_time_conv *out);
int event_tracing_data__decode(const void *rec, size_t size,
			       struct event_tracing_data *out);
int event_build_id__decode(const void *rec, size_t size, struct event_build_id *out);
int event_auxtrace_error__decode(const void *rec, size_t size,
				 struct event_auxtrace_error *out);
int event_auxtrace_info__decode(const void *rec, size_t size,
				struct event_auxtrace_info *out);
int event_auxtrace__decode(const void *rec, size_t size, struct event_auxtrace *out);

/*
 * Array entries of the views above. Each reads entry i of a decoded view.
 * @param i  entry index; must be < the view's nr_fit (ID_INDEX: < nr, and the view
 *           decoded with 0); out of range returns false and leaves the outputs alone
 * @return true when the entry was read.
 * Thread safety: pure. Format: docs/perf-data-format.md §4.3 (NAMESPACES), §4.4.
 */
bool event_namespaces__link(const struct event_namespaces *ev, uint64_t i,
			    uint64_t *dev, uint64_t *ino);
bool event_id_index__entry(const struct event_id_index *ev, uint64_t i,
			   struct event_id_index_entry *out);
/* comm: the 16-byte field, bounded like every event_str. */
bool event_thread_map__entry(const struct event_thread_map *ev, uint64_t i,
			     uint64_t *pid, struct event_str *comm);
bool event_stat_config__entry(const struct event_stat_config *ev, uint64_t i,
			      uint64_t *tag, uint64_t *val);

#endif
