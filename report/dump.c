/*
 * dump - the -D text of one record (see dump.h): its head (offset, file, raw bytes,
 * summary prefix) and the kernel's record types; SAMPLE is in dump-sample.c, perf's
 * own records in dump-user.c, the closing statistics in dump-stats.c.
 */
#include "report/dump.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, realloc, free */
#include <string.h>	/* memcpy, memset, memchr */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/event.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"

#include "report/dump-internal.h"
#include "report/strbuf.h"
#include "banned.h"

/*
 * Everything printed here was established by running perf 6.1 `report -D` on real and
 * hand-crafted recordings (see tests/unit/check_dump.c for the exact texts); no perf
 * code is used. Comments name the perf behaviour each piece reproduces.
 */

/* --- names ---------------------------------------------------------------- */

static const char *const _type_names[DUMP_STATS_NR_TYPES] = {
	[0] = "TOTAL",
	[REC_MMAP] = "MMAP", [REC_LOST] = "LOST", [REC_COMM] = "COMM",
	[REC_EXIT] = "EXIT", [REC_THROTTLE] = "THROTTLE",
	[REC_UNTHROTTLE] = "UNTHROTTLE", [REC_FORK] = "FORK", [REC_READ] = "READ",
	[REC_SAMPLE] = "SAMPLE", [REC_MMAP2] = "MMAP2", [REC_AUX] = "AUX",
	[REC_ITRACE_START] = "ITRACE_START", [REC_LOST_SAMPLES] = "LOST_SAMPLES",
	[REC_SWITCH] = "SWITCH", [REC_SWITCH_CPU_WIDE] = "SWITCH_CPU_WIDE",
	[REC_NAMESPACES] = "NAMESPACES", [REC_KSYMBOL] = "KSYMBOL",
	[REC_BPF_EVENT] = "BPF_EVENT", [REC_CGROUP] = "CGROUP",
	[REC_TEXT_POKE] = "TEXT_POKE", [REC_AUX_OUTPUT_HW_ID] = "AUX_OUTPUT_HW_ID",
	[REC_CALLCHAIN_DEFERRED] = "CALLCHAIN_DEFERRED",	/* newer perf */
	[REC_HEADER_ATTR] = "ATTR", [REC_HEADER_EVENT_TYPE] = "EVENT_TYPE",
	[REC_HEADER_TRACING_DATA] = "TRACING_DATA", [REC_HEADER_BUILD_ID] = "BUILD_ID",
	[REC_FINISHED_ROUND] = "FINISHED_ROUND", [REC_ID_INDEX] = "ID_INDEX",
	[REC_AUXTRACE_INFO] = "AUXTRACE_INFO", [REC_AUXTRACE] = "AUXTRACE",
	[REC_AUXTRACE_ERROR] = "AUXTRACE_ERROR", [REC_THREAD_MAP] = "THREAD_MAP",
	[REC_CPU_MAP] = "CPU_MAP", [REC_STAT_CONFIG] = "STAT_CONFIG",
	[REC_STAT] = "STAT", [REC_STAT_ROUND] = "STAT_ROUND",
	[REC_EVENT_UPDATE] = "EVENT_UPDATE", [REC_TIME_CONV] = "TIME_CONV",
	[REC_HEADER_FEATURE] = "FEATURE", [REC_COMPRESSED] = "COMPRESSED",
	[REC_FINISHED_INIT] = "FINISHED_INIT",
	/* newer perf */
	[REC_COMPRESSED2] = "COMPRESSED2", [REC_BPF_METADATA] = "BPF_METADATA",
	[REC_SCHEDSTAT_CPU] = "SCHEDSTAT_CPU", [REC_SCHEDSTAT_DOMAIN] = "SCHEDSTAT_DOMAIN",
};

const char *dump__type_name(uint32_t type)
{
	if (type >= DUMP_STATS_NR_TYPES)
		return "INVALID";
	return _type_names[type] ? _type_names[type] : "UNKNOWN";
}

/* --- context, preamble ---------------------------------------------------- */

void dump_ctx__init(struct dump_ctx *ctx, const struct evlist *el, const char *arch)
{
	uint64_t all = 0;

	ctx->sample_id_all = false;
	ctx->any_cpu = false;
	ctx->any_time = false;
	ctx->arch = arch;
	if (!el || !el->nr)
		return;
	ctx->sample_id_all = attr__flag(&el->evsels[0]->attr, ATTR_SAMPLE_ID_ALL);
	for (size_t i = 0; i < el->nr; i++)
		all |= el->evsels[i]->attr.sample_type;
	ctx->any_cpu = all & SAMPLE_CPU;
	ctx->any_time = all & SAMPLE_TIME;
}

void dump__preamble(struct strbuf *out)
{
	strbuf__addstr(out, "# To display the perf.data header info, please use "
			    "--header/--header-only options.\n#\n");
}

/* --- the common part: header line, hex dump, summary prefix ---------------- */

/* 76 bytes per line: ".  %04x: " + 16 * " %02x" + "  " + 16 chars + "\n", short last
 * lines padded to the same width. perf's printable test is ASCII 0x20..0x7e. */
#define HEXDUMP_LINE 76

static void hexdump(struct strbuf *sb, const unsigned char *p, size_t n)
{
	char *o = strbuf__reserve(sb, (n + 15) / 16 * HEXDUMP_LINE);
	char *start = o;

	if (!o)
		return;
	for (size_t off = 0; off < n; off += 16) {
		size_t k = n - off < 16 ? n - off : 16;

		o[0] = '.';
		o[1] = ' ';
		o[2] = ' ';
		memcpy(o + 3, strbuf__hex_pairs + 2 * ((off >> 8) & 0xff), 2);
		memcpy(o + 5, strbuf__hex_pairs + 2 * (off & 0xff), 2);
		o[7] = ':';
		o[8] = ' ';
		o = strbuf__put_hex_line(o + 9, p + off, k);
	}
	strbuf__commit(sb, (size_t)(o - start));
}

/* perf's parsed-sample defaults: fields absent from the record print as -1. */
static void cpu_time(const struct dump_rec *r, uint32_t type, uint32_t *cpu,
		      uint64_t *time)
{
	const struct evsel *ev = r->evsel;
	const struct sample *s = r->sample;

	*cpu = UINT32_MAX;
	*time = UINT64_MAX;
	if (type >= REC_USER_FIRST) {
		/* perf's own records are dumped with a zeroed sample */
		*cpu = 0;
		*time = 0;
		return;
	}
	if (!s || !ev)
		return;
	if (type != REC_SAMPLE && !attr__flag(&ev->attr, ATTR_SAMPLE_ID_ALL))
		return;
	if (dump_has(ev, SAMPLE_CPU))
		*cpu = s->cpu;
	if (dump_has(ev, SAMPLE_TIME))
		*time = s->time;
}

static void dump_head(struct strbuf *sb, const struct dump_ctx *ctx, const struct dump_rec *r,
		  const struct record_header *h, const struct rd *rd)
{
	strbuf__addch(sb, '\n');
	strbuf__add_hex_alt(sb, r->offset);
	strbuf__addch(sb, '@');
	strbuf__addstr(sb, r->path ? r->path : "");
	strbuf__addstr(sb, " [");
	strbuf__add_hex_alt(sb, h->size);
	strbuf__addstr(sb, "]: event: ");
	strbuf__add_s64(sb, (int32_t)h->type);
	strbuf__addstr(sb, "\n.\n. ... raw event: size ");
	strbuf__add_u64(sb, h->size);
	strbuf__addstr(sb, " bytes\n");
	hexdump(sb, rd->p, rd->n);
	strbuf__addch(sb, '\n');

	if (h->type != REC_SAMPLE && !ctx->sample_id_all) {
		strbuf__addstr(sb, "-1 -1 ");
	} else {
		uint32_t cpu;
		uint64_t time;

		cpu_time(r, h->type, &cpu, &time);
		if (ctx->any_cpu) {
			strbuf__add_u64(sb, cpu);
			strbuf__addch(sb, ' ');
		}
		if (ctx->any_time) {
			strbuf__add_u64(sb, time);
			strbuf__addch(sb, ' ');
		}
	}
	strbuf__add_hex_alt(sb, r->offset);
	strbuf__addstr(sb, " [");
	strbuf__add_hex_alt(sb, h->size);
	strbuf__addstr(sb, "]: PERF_RECORD_");
	strbuf__addstr(sb, dump__type_name(h->type));
}


/* --- kernel records -------------------------------------------------------- */

/* The record views of format/event.h print what lies inside the record (fields beyond
 * it read 0) and say what fits: `nfields` for fixed fields, `nul` for strings. A record
 * is marked truncated when a field perf prints did not fit. */

static void pid_tid(struct strbuf *sb, uint32_t pid, uint32_t tid, const char *sep)
{
	strbuf__add_s64(sb, (int32_t)pid);
	strbuf__addstr(sb, sep);
	strbuf__add_s64(sb, (int32_t)tid);
}

static void fmt_mmap(struct strbuf *sb, struct rd *rd, uint16_t misc)
{
	struct event_mmap ev;

	event_mmap__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_MMAP_NFIELDS - 1);	/* the string: below */
	strbuf__addch(sb, ' ');
	pid_tid(sb, ev.pid, ev.tid, "/");
	strbuf__addstr(sb, ": [");
	strbuf__add_hex_alt(sb, ev.start);
	strbuf__addch(sb, '(');
	strbuf__add_hex_alt(sb, ev.len);
	strbuf__addstr(sb, ") @ ");
	strbuf__add_hex_alt(sb, ev.pgoff);
	strbuf__addstr(sb, "]: ");
	strbuf__addch(sb, misc & MISC_MMAP_DATA ? 'r' : 'x');
	strbuf__addch(sb, ' ');
	dump_estr(sb, rd, &ev.filename);
	strbuf__addch(sb, '\n');
}

static void fmt_mmap2(struct strbuf *sb, struct rd *rd, uint16_t misc)
{
	struct event_mmap2 ev;

	/* a missing fixed field leaves the filename (offset 72) without a byte too, so
	 * dump_estr() marks every short record */
	event_mmap2__decode(rd->p, rd->n, &ev);
	strbuf__addch(sb, ' ');
	pid_tid(sb, ev.pid, ev.tid, "/");
	strbuf__addstr(sb, ": [");
	strbuf__add_hex_alt(sb, ev.start);
	strbuf__addch(sb, '(');
	strbuf__add_hex_alt(sb, ev.len);
	strbuf__addstr(sb, ") @ ");
	strbuf__add_hex_alt(sb, ev.pgoff);
	/* the form follows the header this dump read (the view's misc is 0 when the
	 * record is shorter than its header) */
	if (misc & MISC_MMAP_BUILD_ID) {
		unsigned n = ev.build_id_size;

		if (n > EVENT_BUILD_ID_MAX)	/* perf's build-id buffer holds 20 bytes */
			n = EVENT_BUILD_ID_MAX;
		strbuf__addstr(sb, " <");
		for (unsigned i = 0; i < n; i++)
			strbuf__add_hex_pad(sb, ev.build_id[i], 2);
		strbuf__addch(sb, '>');
	} else {
		strbuf__addch(sb, ' ');
		strbuf__add_hex_pad(sb, ev.maj, 2);
		strbuf__addch(sb, ':');
		strbuf__add_hex_pad(sb, ev.min, 2);
		strbuf__addch(sb, ' ');
		strbuf__add_u64(sb, ev.ino);
		strbuf__addch(sb, ' ');
		strbuf__add_u64(sb, ev.ino_generation);
	}
	strbuf__addstr(sb, "]: ");
	strbuf__addch(sb, ev.prot & 1 ? 'r' : '-');
	strbuf__addch(sb, ev.prot & 2 ? 'w' : '-');
	strbuf__addch(sb, ev.prot & 4 ? 'x' : '-');
	strbuf__addch(sb, ev.flags & 1 ? 's' : 'p');	/* MAP_SHARED */
	strbuf__addch(sb, ' ');
	dump_estr(sb, rd, &ev.filename);
	strbuf__addch(sb, '\n');
}

static void fmt_comm(struct strbuf *sb, struct rd *rd, uint16_t misc)
{
	struct event_comm ev;

	event_comm__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 2);		/* pid, tid; the string: dump_estr */
	strbuf__addstr(sb, misc & MISC_COMM_EXEC ? " exec: " : ": ");
	dump_estr(sb, rd, &ev.comm);
	strbuf__addch(sb, ':');
	pid_tid(sb, ev.pid, ev.tid, "/");
	strbuf__addch(sb, '\n');
}

static void fmt_fork_exit(struct strbuf *sb, struct rd *rd)
{
	struct event_fork ev;

	/* perf prints pid, ppid, tid, ptid but not time */
	event_fork__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_FORK_IDS);
	/* printed (pid:tid):(ppid:ptid) */
	strbuf__addch(sb, '(');
	strbuf__add_s64(sb, (int32_t)ev.pid);
	strbuf__addch(sb, ':');
	strbuf__add_s64(sb, (int32_t)ev.tid);
	strbuf__addstr(sb, "):(");
	strbuf__add_s64(sb, (int32_t)ev.ppid);
	strbuf__addch(sb, ':');
	strbuf__add_s64(sb, (int32_t)ev.ptid);
	strbuf__addstr(sb, ")\n");
}

static void fmt_lost(struct strbuf *sb, struct rd *rd)
{
	struct event_lost ev;

	if (event_lost__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, ": id:");
	strbuf__add_u64(sb, ev.id);
	strbuf__addstr(sb, ": lost:");
	strbuf__add_u64(sb, ev.lost);
	strbuf__addch(sb, '\n');
}

static void fmt_lost_samples(struct strbuf *sb, struct rd *rd, const struct dump_rec *r)
{
	const struct evsel *ev = r->evsel;
	struct event_lost_samples ls;
	uint64_t id = UINT64_MAX;

	if (event_lost_samples__decode(rd->p, rd->n, &ls))
		rd->trunc = true;
	/* the id comes from the sample_id trailer (ID or IDENTIFIER), else perf's -1 */
	if (r->sample && ev && attr__flag(&ev->attr, ATTR_SAMPLE_ID_ALL) &&
	    dump_has(ev, SAMPLE_ID | SAMPLE_IDENTIFIER))
		id = r->sample->id;
	strbuf__addstr(sb, ": id:");
	strbuf__add_u64(sb, id);
	strbuf__addstr(sb, ": lost samples :");
	strbuf__add_u64(sb, ls.lost);
	strbuf__addch(sb, '\n');
}

/* READ: perf reads value, time_enabled, time_running, id and lost at the fixed offsets
 * 16/24/32/40/48 whatever read_format says (docs/perf-data-format.md §4.3 note), which
 * is the view's layout; only which lines are printed depends on read_format. */
static void fmt_read(struct strbuf *sb, struct rd *rd, const struct dump_rec *r)
{
	struct event_read ev;

	event_read__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 3);		/* pid, tid, value */
	{
		const struct {
			uint64_t bit;
			unsigned field;		/* index in the view's record order */
			uint64_t value;
			const char *label;
		} lines[] = {
			{ FORMAT_TOTAL_TIME_ENABLED, 3, ev.time_enabled, "... time enabled : " },
			{ FORMAT_TOTAL_TIME_RUNNING, 4, ev.time_running, "... time running : " },
			{ FORMAT_ID, 5, ev.id, "... id           : " },
			{ FORMAT_LOST, 6, ev.lost, "... lost         : " },
		};

		strbuf__addstr(sb, ": ");
		pid_tid(sb, ev.pid, ev.tid, " ");
		strbuf__addch(sb, ' ');
		strbuf__addstr(sb, r->evsel ? evsel__name(r->evsel) : "unknown");
		strbuf__addch(sb, ' ');
		strbuf__add_u64(sb, ev.value);
		strbuf__addch(sb, '\n');
		if (!r->evsel)
			return;
		for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
			if (!(r->evsel->attr.read_format & lines[i].bit))
				continue;
			need_fields(rd, ev.nfields, lines[i].field + 1);
			strbuf__addstr(sb, lines[i].label);
			strbuf__add_u64(sb, lines[i].value);
			strbuf__addch(sb, '\n');
		}
	}
}

static const char *switch_text(const struct event_switch *ev)
{
	if (!ev->out)
		return "IN         ";
	if (!ev->preempt)
		return "OUT        ";
	return "OUT preempt";
}

static void fmt_switch(struct strbuf *sb, struct rd *rd, uint32_t type, uint16_t misc)
{
	struct event_switch ev;

	event_switch__decode(rd->p, rd->n, &ev);
	/* out/preempt from the header this dump read */
	ev.out = misc & MISC_SWITCH_OUT;
	ev.preempt = misc & MISC_SWITCH_OUT_PREEMPT;
	strbuf__addch(sb, ' ');
	strbuf__addstr(sb, switch_text(&ev));
	if (type == REC_SWITCH) {
		strbuf__addch(sb, '\n');
		return;
	}
	need_fields(rd, ev.nfields, EVENT_SWITCH_NFIELDS);
	strbuf__addstr(sb, ev.out ? "  next pid/tid: " : "  prev pid/tid: ");
	strbuf__add_s64_width(sb, (int32_t)ev.next_prev_pid, 5);
	strbuf__addch(sb, '/');
	strbuf__add_s64_width(sb, (int32_t)ev.next_prev_tid, -5);
	strbuf__addch(sb, '\n');
}

static void fmt_namespaces(struct strbuf *sb, struct rd *rd)
{
	static const char *const names[] = {
		"net", "uts", "ipc", "pid", "user", "mnt", "cgroup",
	};
	struct event_namespaces ev;
	uint32_t nr;
	uint64_t fit;

	event_namespaces__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 3);		/* pid, tid, nr_namespaces */
	nr = (uint32_t)ev.nr_namespaces;	/* perf keeps the low 32 bits */
	fit = nr < ev.nr_fit ? nr : ev.nr_fit;
	strbuf__addch(sb, ' ');
	pid_tid(sb, ev.pid, ev.tid, "/");
	strbuf__addstr(sb, " - nr_namespaces: ");
	strbuf__add_u64(sb, nr);
	strbuf__addstr(sb, "\n\t\t[");
	for (uint32_t i = 0; i < fit; i++) {
		uint64_t dev = 0, ino = 0;

		event_namespaces__link(&ev, i, &dev, &ino);
		if (i && i % 4 == 0)
			strbuf__addstr(sb, "\n\t\t ");
		strbuf__add_u64(sb, i);
		strbuf__addch(sb, '/');
		strbuf__addstr(sb, i < 7 ? names[i] : "UNKNOWN");
		strbuf__addstr(sb, ": ");
		strbuf__add_u64(sb, dev);
		strbuf__addch(sb, '/');
		strbuf__add_hex_alt(sb, ino);
		strbuf__addstr(sb, i + 1 != nr ? ", " : "]\n");
	}
	if (fit < nr)
		rd->trunc = true;
}

static void fmt_ksymbol(struct strbuf *sb, struct rd *rd)
{
	struct event_ksymbol ev;

	event_ksymbol__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_KSYMBOL_NFIELDS - 1);	/* the name: below */
	strbuf__addstr(sb, " addr ");
	strbuf__add_hex(sb, ev.addr);
	strbuf__addstr(sb, " len ");
	strbuf__add_u64(sb, ev.len);
	strbuf__addstr(sb, " type ");
	strbuf__add_u64(sb, ev.ksym_type);
	strbuf__addstr(sb, " flags 0x");
	strbuf__add_hex(sb, ev.flags);
	strbuf__addstr(sb, " name ");
	dump_estr(sb, rd, &ev.name);
	strbuf__addch(sb, '\n');
}

static void fmt_bpf_event(struct strbuf *sb, struct rd *rd)
{
	struct event_bpf_event ev;

	event_bpf_event__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 3);		/* type, flags, id: not the tag */
	strbuf__addstr(sb, " type ");
	strbuf__add_u64(sb, ev.type);
	strbuf__addstr(sb, ", flags ");
	strbuf__add_u64(sb, ev.flags);
	strbuf__addstr(sb, ", id ");
	strbuf__add_u64(sb, ev.id);
	strbuf__addch(sb, '\n');
}

static void fmt_cgroup(struct strbuf *sb, struct rd *rd)
{
	struct event_cgroup ev;

	event_cgroup__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, 1);		/* id; the path: dump_estr */
	strbuf__addstr(sb, " cgroup: ");
	strbuf__add_u64(sb, ev.id);
	strbuf__addch(sb, ' ');
	dump_estr(sb, rd, &ev.path);
	strbuf__addch(sb, '\n');
}

static void fmt_aux(struct strbuf *sb, struct rd *rd)
{
	struct event_aux ev;

	if (event_aux__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, " offset: ");
	strbuf__add_hex_alt(sb, ev.aux_offset);
	strbuf__addstr(sb, " size: ");
	strbuf__add_hex_alt(sb, ev.aux_size);
	strbuf__addstr(sb, " flags: ");
	strbuf__add_hex_alt(sb, ev.flags);
	strbuf__addstr(sb, " [");
	if (ev.flags & 1)
		strbuf__addch(sb, 'T');	/* TRUNCATED */
	if (ev.flags & 2)
		strbuf__addch(sb, 'O');	/* OVERWRITE */
	if (ev.flags & 4)
		strbuf__addch(sb, 'P');	/* PARTIAL */
	strbuf__addstr(sb, "]\n");
}

/* len bytes from byte `start` of the poke's bytes; perf prints those that are inside
 * the record and we mark the rest truncated. */
static void poke_bytes(struct strbuf *sb, struct rd *rd, const struct event_text_poke *ev,
			size_t start, unsigned len, const char *label)
{
	for (unsigned i = 0; i < len; i++) {
		if (start + i >= ev->bytes_avail) {
			rd->trunc = true;
			break;
		}
		if (i % 16 == 0) {
			strbuf__addstr(sb, "            ");
			strbuf__addstr(sb, label);
			strbuf__addstr(sb, " bytes:");
		}
		strbuf__addch(sb, ' ');
		strbuf__add_hex_pad(sb, ev->bytes[start + i], 2);
		if (i % 16 == 15 || i + 1 == len)
			strbuf__addch(sb, '\n');
	}
}

static void fmt_text_poke(struct strbuf *sb, struct rd *rd, const struct dump_rec *r)
{
	struct event_text_poke ev;

	event_text_poke__decode(rd->p, rd->n, &ev);
	need_fields(rd, ev.nfields, EVENT_TEXT_POKE_NFIELDS);
	strbuf__addch(sb, ' ');
	strbuf__add_hex(sb, ev.addr);
	strbuf__addch(sb, ' ');
	if (r->text_poke_sym)
		strbuf__addstr(sb, r->text_poke_sym);
	strbuf__addstr(sb, " old len ");
	strbuf__add_u64(sb, ev.old_len);
	strbuf__addstr(sb, " new len ");
	strbuf__add_u64(sb, ev.new_len);
	strbuf__addch(sb, '\n');
	poke_bytes(sb, rd, &ev, 0, ev.old_len, "Old");
	poke_bytes(sb, rd, &ev, ev.old_len, ev.new_len, "New");
}

static void fmt_itrace_start(struct strbuf *sb, struct rd *rd)
{
	struct event_itrace_start ev;

	if (event_itrace_start__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, " pid: ");
	strbuf__add_u64(sb, ev.pid);
	strbuf__addstr(sb, " tid: ");
	strbuf__add_u64(sb, ev.tid);
	strbuf__addch(sb, '\n');
}

static void fmt_aux_output_hw_id(struct strbuf *sb, struct rd *rd)
{
	struct event_aux_output_hw_id ev;

	if (event_aux_output_hw_id__decode(rd->p, rd->n, &ev))
		rd->trunc = true;
	strbuf__addstr(sb, " hw_id: ");
	strbuf__add_hex_alt(sb, ev.hw_id);
	strbuf__addch(sb, '\n');
}

static void fmt_kernel(struct strbuf *sb, struct rd *rd, const struct dump_ctx *ctx,
			const struct dump_rec *r, const struct record_header *h)
{
	switch (h->type) {
	case REC_MMAP: fmt_mmap(sb, rd, h->misc); break;
	case REC_LOST: fmt_lost(sb, rd); break;
	case REC_COMM: fmt_comm(sb, rd, h->misc); break;
	case REC_EXIT:
	case REC_FORK: fmt_fork_exit(sb, rd); break;
	case REC_THROTTLE:
	case REC_UNTHROTTLE: strbuf__addstr(sb, ": unhandled!\n"); break;
	case REC_READ: fmt_read(sb, rd, r); break;
	case REC_SAMPLE: dump__fmt_sample(sb, rd, ctx, r, h->misc); break;
	case REC_MMAP2: fmt_mmap2(sb, rd, h->misc); break;
	case REC_AUX: fmt_aux(sb, rd); break;
	case REC_ITRACE_START: fmt_itrace_start(sb, rd); break;
	case REC_LOST_SAMPLES: fmt_lost_samples(sb, rd, r); break;
	case REC_SWITCH:
	case REC_SWITCH_CPU_WIDE: fmt_switch(sb, rd, h->type, h->misc); break;
	case REC_NAMESPACES: fmt_namespaces(sb, rd); break;
	case REC_KSYMBOL: fmt_ksymbol(sb, rd); break;
	case REC_BPF_EVENT: fmt_bpf_event(sb, rd); break;
	case REC_CGROUP: fmt_cgroup(sb, rd); break;
	case REC_TEXT_POKE: fmt_text_poke(sb, rd, r); break;
	case REC_AUX_OUTPUT_HW_ID: fmt_aux_output_hw_id(sb, rd); break;
	case REC_CALLCHAIN_DEFERRED:	/* newer perf; 6.1 prints UNKNOWN and aborts */
		strbuf__addstr(sb, ": unhandled!\n");
		break;
	default:	/* 6.1: "PERF_RECORD_UNKNOWN" without newline, then it aborts */
		break;
	}
}

void dump__record(struct strbuf *out, const struct dump_ctx *ctx, const struct dump_rec *r)
{
	struct record_header h;
	struct rd rd;

	if (r->size < RECORD_HEADER_SIZE)
		return;
	record_header__get(&h, r->data);
	rd.p = r->data;
	rd.n = h.size < r->size ? h.size : r->size;
	rd.trunc = false;
	dump_head(out, ctx, r, &h, &rd);
	if (h.type < REC_USER_FIRST)
		fmt_kernel(out, &rd, ctx, r, &h);
	else
		dump__fmt_user(out, &rd, &h);
	dump_finish(out, &rd);
}

