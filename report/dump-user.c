/*
 * dump-user - the -D text of perf's own records (types 64 and up: ID_INDEX,
 * THREAD_MAP, CPU_MAP, STAT_*, EVENT_UPDATE, TIME_CONV, AUXTRACE_*, ...).  See dump.h.
 */
#include "report/dump.h"
#include "report/dump-internal.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* memcpy, memset, memchr */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"

#include "banned.h"

/* --- perf's own records ------------------------------------------------------ */

static void cpu_list_emit(struct strbuf *sb, const int *cpus, size_t nr)
{
	size_t start = 0;

	if (!nr) {	/* perf reads the (zeroed) first slot of an empty map */
		strbuf__addch(sb, '0');
		return;
	}
	for (size_t i = 1; i <= nr; i++) {
		bool last = i == nr;

		if (!last && (int64_t)cpus[i] - cpus[start] == (int64_t)(i - start))
			continue;
		if (start)
			strbuf__addch(sb, ',');
		strbuf__add_s64(sb, cpus[start]);
		if (i - 1 != start) {
			strbuf__addch(sb, '-');
			strbuf__add_s64(sb, cpus[i - 1]);
		}
		start = i;
	}
}

/*
 * CPU map data (CPU_MAP, EVENT_UPDATE/CPUS) printed as perf's list text: runs of
 * consecutive entries (in map order, not sorted) collapse to "a-b", separated by ",".
 * cpu_map() returns false for an unknown encoding; entries beyond the record set
 * rd->trunc.
 */

/* Grow-on-demand list of cpus; large maps are rare (MASK form up to 64K cpus). */
struct cpus {
	int *v;
	size_t nr, cap;
	int small[64];
	bool oom;
};

static void cpus_push(struct cpus *c, int cpu)
{
	if (c->nr == c->cap) {
		size_t cap = c->cap * 2;
		int *v = c->v == c->small ? malloc(cap * sizeof(int))
					  : realloc(c->v, cap * sizeof(int));

		if (!v) {
			c->oom = true;
			return;
		}
		if (c->v == c->small)
			memcpy(v, c->small, sizeof(c->small));
		c->v = v;
		c->cap = cap;
	}
	c->v[c->nr++] = cpu;
}

static bool cpu_map_data(struct strbuf *sb, struct rd *rd, size_t off)
{
	struct cpus c = { .nr = 0, .cap = 64 };
	uint16_t type = dump_u16(rd, off);
	bool ok = true;

	c.v = c.small;
	if (type == 0) {		/* CPUS: u16 nr, u16 cpu[nr]; 0xffff = -1 */
		uint64_t nr = dump_fit(rd, off + 4, 2, dump_u16(rd, off + 2));

		if (nr < dump_u16(rd, off + 2))
			rd->trunc = true;
		for (uint64_t i = 0; i < nr; i++) {
			uint16_t v = dump_u16(rd, off + 4 + 2 * i);

			cpus_push(&c, v == 0xffff ? -1 : v);
		}
	} else if (type == 1) {		/* MASK: u16 nr, u16 long_size, words */
		uint16_t nr = dump_u16(rd, off + 2);
		unsigned bits = dump_u16(rd, off + 4) == 4 ? 32 : 64;
		size_t base = bits == 32 ? off + 6 : off + 10;

		for (uint16_t i = 0; i < nr && !rd->trunc; i++) {
			uint64_t w = bits == 32 ? dump_u32(rd, base + 4 * (size_t)i)
						: dump_u64(rd, base + 8 * (size_t)i);

			for (unsigned b = 0; b < bits; b++)
				if (w >> b & 1)
					cpus_push(&c, (int)(i * bits + b));
		}
	} else if (type == 2) {		/* RANGE: u8 any_cpu, u8 pad, u16 start, u16 end */
		uint16_t lo = dump_u16(rd, off + 4), hi = dump_u16(rd, off + 6);

		if (dump_u8(rd, off + 2))
			cpus_push(&c, -1);
		/* a range inverted by more than one makes perf print stale stack memory;
		 * we print "" (lo == hi + 1 is an empty map, printed "0" below) */
		if (lo > hi + 1 && !dump_u8(rd, off + 2))
			goto out;
		for (unsigned v = lo; v <= hi; v++)
			cpus_push(&c, (int)v);
	} else {
		ok = false;
		goto out;
	}
	if (c.oom)
		sb->failed = true;
	else
		cpu_list_emit(sb, c.v, c.nr);
out:
	if (c.v != c.small)
		free(c.v);
	return ok;
}

/* cpu-map data as a view hands it on (a span of the record, event_cpu_map or
 * event_event_update): decoded by cpu_map_data() with this file's bounded readers, the
 * one place dump.c still reads at offsets, because perf prints a partial map entry by
 * entry (docs/perf-data-format.md §4.4, CPU-map data). */
static bool cpu_map(struct strbuf *sb, struct rd *rd, const unsigned char *data, size_t len)
{
	struct rd m = { .p = data, .n = data ? len : 0, .trunc = rd->trunc };
	bool ok = cpu_map_data(sb, &m, 0);

	rd->trunc = m.trunc;
	return ok;
}

static void fmt_id_index(struct strbuf *sb, struct rd *rd)
{
	struct event_id_index ev;

	event_id_index__decode(rd->p, rd->n, &ev);
	if (ev.nfields < EVENT_ID_INDEX_NFIELDS) {
		rd->trunc = true;
		return;
	}
	if (ev.nr > ev.max_nr) {	/* perf's own check, after which it aborts */
		strbuf__addstr(sb, "Too big: nr ");
		strbuf__add_u64(sb, ev.nr);
		strbuf__addstr(sb, " max_nr ");
		strbuf__add_u64(sb, ev.max_nr);
		strbuf__addch(sb, '\n');
		return;
	}
	strbuf__addstr(sb, " nr: ");
	strbuf__add_u64(sb, ev.nr);
	strbuf__addch(sb, '\n');
	for (uint64_t i = 0; i < ev.nr; i++) {
		struct event_id_index_entry e;

		event_id_index__entry(&ev, i, &e);
		strbuf__addstr(sb, " ... id: ");
		strbuf__add_u64(sb, e.id);
		strbuf__addstr(sb, "  idx: ");
		strbuf__add_u64(sb, e.idx);
		strbuf__addstr(sb, "  cpu: ");
		strbuf__add_s64(sb, (int64_t)e.cpu);
		strbuf__addstr(sb, "  tid: ");
		strbuf__add_s64(sb, (int64_t)e.tid);
		if (ev.has_vcpu) {	/* the second array {machine_pid, vcpu} */
			strbuf__addstr(sb, "  machine_pid: ");
			strbuf__add_s64(sb, (int64_t)e.machine_pid);
			strbuf__addstr(sb, "  vcpu: ");
			strbuf__add_u64(sb, e.vcpu);
		}
		strbuf__addch(sb, '\n');
	}
}

static void fmt_thread_map(struct strbuf *sb, struct rd *rd)
{
	struct event_thread_map ev;

	event_thread_map__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_THREAD_MAP_NFIELDS);
	strbuf__addstr(sb, " nr: ");
	strbuf__add_s64(sb, (int32_t)ev.nr);
	strbuf__addstr(sb, (int32_t)ev.nr > 1 ? " threads: " : " thread: ");
	for (uint64_t i = 0; i < ev.nr_fit; i++) {
		uint64_t pid = 0;
		struct event_str comm;

		event_thread_map__entry(&ev, i, &pid, &comm);
		if (i)
			strbuf__addstr(sb, ", ");
		strbuf__add_s64(sb, (int32_t)pid);
	}
	if (ev.nr_fit < ev.nr)
		rd->trunc = true;
	strbuf__addstr(sb, "\n: unhandled!\n");
}

static void fmt_cpu_map(struct strbuf *sb, struct rd *rd)
{
	struct event_cpu_map ev;

	event_cpu_map__decode(rd->p, rd->n, &ev);
	strbuf__addstr(sb, ": ");
	if (!cpu_map(sb, rd, ev.data, ev.data_len))
		strbuf__addstr(sb, "failed to get cpumap from event");
	strbuf__addstr(sb, "\n: unhandled!\n");
}

/* Terms absent from the record print 0 (perf prints uninitialised stack memory). */
static void fmt_stat_config(struct strbuf *sb, struct rd *rd)
{
	struct event_stat_config ev;
	int64_t aggr_mode = 0;
	uint64_t scale = 0;
	uint32_t interval = 0;

	event_stat_config__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_STAT_CONFIG_NFIELDS);
	for (uint64_t i = 0; i < ev.nr_fit; i++) {
		uint64_t tag = 0, val = 0;

		event_stat_config__entry(&ev, i, &tag, &val);
		if (tag == 0)
			aggr_mode = (int32_t)val;
		else if (tag == 1)
			interval = (uint32_t)val;
		else if (tag == 2)
			scale = val != 0;	/* a bool in perf */
	}
	if (ev.nr_fit < ev.nr)
		rd->trunc = true;
	strbuf__addstr(sb, "\n... aggr_mode ");
	strbuf__add_s64(sb, aggr_mode);
	strbuf__addstr(sb, "\n... scale     ");
	strbuf__add_u64(sb, scale);
	strbuf__addstr(sb, "\n... interval  ");
	strbuf__add_u64(sb, interval);
	strbuf__addstr(sb, "\n: unhandled!\n");
}

static void fmt_stat(struct strbuf *sb, struct rd *rd)
{
	struct event_stat ev;

	if (event_stat__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, "\n... id ");
	strbuf__add_u64(sb, ev.id);
	strbuf__addstr(sb, ", cpu ");
	strbuf__add_s64(sb, (int32_t)ev.cpu);
	strbuf__addstr(sb, ", thread ");
	strbuf__add_s64(sb, (int32_t)ev.thread);
	strbuf__addstr(sb, "\n... value ");
	strbuf__add_u64(sb, ev.val);
	strbuf__addstr(sb, ", enabled ");
	strbuf__add_u64(sb, ev.ena);
	strbuf__addstr(sb, ", running ");
	strbuf__add_u64(sb, ev.run);
	strbuf__addstr(sb, "\n: unhandled!\n");
}

static void fmt_stat_round(struct strbuf *sb, struct rd *rd)
{
	struct event_stat_round ev;

	if (event_stat_round__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, "\n... time ");
	strbuf__add_u64(sb, ev.time);
	strbuf__addstr(sb, ev.type == 1 ? ", type FINAL" : ", type INTERVAL");
	strbuf__addstr(sb, "\n: unhandled!\n");
}

static void fmt_event_update(struct strbuf *sb, struct rd *rd)
{
	struct event_event_update ev;

	event_event_update__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 2);		/* type, id; the payload per type */
	strbuf__addstr(sb, "\n... id:    ");
	strbuf__add_u64(sb, ev.id);
	strbuf__addch(sb, '\n');
	switch (ev.type) {
	case EVENT_UPDATE_UNIT:
		strbuf__addstr(sb, "... unit:  ");
		dump_estr(sb, rd, &ev.str);
		strbuf__addch(sb, '\n');
		break;
	case EVENT_UPDATE_SCALE:
		if (!ev.has_scale)
			rd->trunc = true;
		strbuf__addf(sb, "... scale: %f\n", ev.scale);
		break;
	case EVENT_UPDATE_NAME:
		strbuf__addstr(sb, "... name:  ");
		dump_estr(sb, rd, &ev.str);
		strbuf__addch(sb, '\n');
		break;
	case EVENT_UPDATE_CPUS:
		strbuf__addstr(sb, "... ");
		if (!cpu_map(sb, rd, ev.data, ev.data_len))
			strbuf__addstr(sb, "failed to get cpus");
		strbuf__addch(sb, '\n');
		break;
	default:
		strbuf__addstr(sb, "... unknown type\n");
		break;
	}
}

static void fmt_time_conv(struct strbuf *sb, struct rd *rd)
{
	struct event_time_conv ev;

	event_time_conv__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_TIME_CONV_NFIELDS);
	strbuf__addstr(sb, "\n... Time Shift      ");
	strbuf__add_u64(sb, ev.time_shift);
	strbuf__addstr(sb, "\n... Time Muliplier  ");
	strbuf__add_u64(sb, ev.time_mult);
	strbuf__addstr(sb, "\n... Time Zero       ");
	strbuf__add_u64(sb, ev.time_zero);
	strbuf__addch(sb, '\n');
	if (ev.extended) {	/* perf: the extended fields exist when size > 32 */
		need_fields(rd, ev.nfields, EVENT_TIME_CONV_EXT_NFIELDS);
		strbuf__addstr(sb, "... Time Cycles     ");
		strbuf__add_u64(sb, ev.time_cycles);
		strbuf__addstr(sb, "\n... Time Mask       ");
		strbuf__add_hex_alt(sb, ev.time_mask);
		strbuf__addstr(sb, "\n... Cap Time Zero   ");
		strbuf__add_u64(sb, ev.cap_user_time_zero);
		strbuf__addstr(sb, "\n... Cap Time Short  ");
		strbuf__add_u64(sb, ev.cap_user_time_short);
		strbuf__addch(sb, '\n');
	}
	strbuf__addstr(sb, ": unhandled!\n");
}

static void fmt_auxtrace_info(struct strbuf *sb, struct rd *rd)
{
	struct event_auxtrace_info ev;

	/* perf 6.1 then prints PMU-specific details for known AUX types (Intel PT,
	 * CoreSight, ...), which we do not reproduce; unknown types abort */
	event_auxtrace_info__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 1);		/* type */
	strbuf__addstr(sb, " type: ");
	strbuf__add_u64(sb, ev.type);
	strbuf__addch(sb, '\n');
}

static void fmt_auxtrace(struct strbuf *sb, struct rd *rd)
{
	struct event_auxtrace ev;

	event_auxtrace__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 6);		/* all but reserved */
	strbuf__addstr(sb, " size: ");
	strbuf__add_hex_alt(sb, ev.size);
	strbuf__addstr(sb, "  offset: ");
	strbuf__add_hex_alt(sb, ev.offset);
	strbuf__addstr(sb, "  ref: ");
	strbuf__add_hex_alt(sb, ev.reference);
	strbuf__addstr(sb, "  idx: ");
	strbuf__add_u64(sb, ev.idx);
	strbuf__addstr(sb, "  tid: ");
	strbuf__add_s64(sb, (int32_t)ev.tid);
	strbuf__addstr(sb, "  cpu: ");
	strbuf__add_s64(sb, (int32_t)ev.cpu);
	strbuf__addch(sb, '\n');
}

void dump__fmt_user(struct strbuf *sb, struct rd *rd, const struct record_header *h)
{
	switch (h->type) {
	case REC_HEADER_ATTR:
	case REC_HEADER_EVENT_TYPE:
	case REC_HEADER_TRACING_DATA:
	case REC_HEADER_BUILD_ID:
	case REC_HEADER_FEATURE:
		break;	/* perf prints nothing, not even the newline */
	case REC_FINISHED_ROUND:
		strbuf__addch(sb, '\n');
		break;
	case REC_ID_INDEX: fmt_id_index(sb, rd); break;
	case REC_AUXTRACE_INFO: fmt_auxtrace_info(sb, rd); break;
	case REC_AUXTRACE: fmt_auxtrace(sb, rd); break;
	case REC_THREAD_MAP: fmt_thread_map(sb, rd); break;
	case REC_CPU_MAP: fmt_cpu_map(sb, rd); break;
	case REC_STAT_CONFIG: fmt_stat_config(sb, rd); break;
	case REC_STAT: fmt_stat(sb, rd); break;
	case REC_STAT_ROUND: fmt_stat_round(sb, rd); break;
	case REC_EVENT_UPDATE: fmt_event_update(sb, rd); break;
	case REC_TIME_CONV: fmt_time_conv(sb, rd); break;
	case REC_AUXTRACE_ERROR:
	case REC_COMPRESSED:
	case REC_FINISHED_INIT:
	case REC_COMPRESSED2:
	case REC_BPF_METADATA:
	case REC_SCHEDSTAT_CPU:
	case REC_SCHEDSTAT_DOMAIN:
		strbuf__addstr(sb, ": unhandled!\n");
		break;
	default:
		break;	/* INVALID: perf 6.1 rejects the record before printing it */
	}
}

