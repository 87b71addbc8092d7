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

#include "banned.h"

/* attr.branch_sample_type bit PERF_SAMPLE_BRANCH_CALL_STACK */
#define BRANCH_CALL_STACK (1ULL << 11)

/*
 * Everything printed here was established by running perf 6.1 `report -D` on real and
 * hand-crafted recordings (see tests/unit/check_dump.c for the exact texts); no perf
 * code is used. Comments name the perf behaviour each piece reproduces.
 */

/* --- bounded record access ------------------------------------------------ */

/* A record being formatted. Fixed fields of non-sample records are read through the
 * views of format/event.h; samples through format/sample.h. The dump_u* helpers below
 * remain for one case, the cpu-map data of CPU_MAP and EVENT_UPDATE (cpu_map_data()):
 * a packed, variable encoding of which perf prints a partial map entry by entry. They
 * never read past n and set trunc when perf would have read beyond the record. */
struct rd {
	const unsigned char *p;	/* borrowed record bytes */
	size_t n;		/* record length in bytes */
	bool trunc;		/* some field lay (partly) beyond n */
};

static uint64_t dump_u64(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 8) {
		r->trunc = true;
		return 0;
	}
	return bytes__u64(r->p + off);
}

static uint32_t dump_u32(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 4) {
		r->trunc = true;
		return 0;
	}
	return bytes__u32(r->p + off);
}

static uint16_t dump_u16(struct rd *r, size_t off)
{
	if (off > r->n || r->n - off < 2) {
		r->trunc = true;
		return 0;
	}
	return bytes__u16(r->p + off);
}

static uint8_t dump_u8(struct rd *r, size_t off)
{
	if (off >= r->n) {
		r->trunc = true;
		return 0;
	}
	return r->p[off];
}

/* True when [ptr, ptr + len) lies inside the record (pointers from struct sample). */
static bool span_ok(const struct rd *r, const unsigned char *ptr, size_t len)
{
	uintptr_t lo = (uintptr_t)r->p, hi = lo + r->n, a = (uintptr_t)ptr;

	return ptr && a >= lo && a <= hi && len <= hi - a;
}

/* True when an array of nr elem-byte entries at ptr lies inside the record. */
static bool arr_ok(const struct rd *r, const unsigned char *ptr, uint64_t nr, size_t elem)
{
	if (!nr)
		return true;
	return nr <= r->n / elem && span_ok(r, ptr, (size_t)nr * elem);
}

/* Number of elem-sized entries of a count-prefixed array at off that fit. */
static uint64_t dump_fit(const struct rd *r, size_t off, size_t elem, uint64_t nr)
{
	uint64_t room = off < r->n ? (r->n - off) / elem : 0;

	return nr < room ? nr : room;
}

/* Close a record's text: when something was missing, make sure we are at the start
 * of a line and add the marker. */
static void dump_finish(struct strbuf *sb, const struct rd *r)
{
	if (!r->trunc)
		return;
	if (sb->len && sb->buf[sb->len - 1] != '\n')
		strbuf__addch(sb, '\n');
	strbuf__addstr(sb, DUMP_TRUNCATED_MARK);
}

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

static const char _hex[] = "0123456789abcdef";

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
		o[3] = _hex[(off >> 12) & 15];
		o[4] = _hex[(off >> 8) & 15];
		o[5] = _hex[(off >> 4) & 15];
		o[6] = _hex[off & 15];
		o[7] = ':';
		o[8] = ' ';
		o += 9;
		for (size_t i = 0; i < k; i++) {
			unsigned char b = p[off + i];

			o[0] = ' ';
			o[1] = _hex[b >> 4];
			o[2] = _hex[b & 15];
			o += 3;
		}
		memset(o, ' ', (16 - k) * 3 + 2);
		o += (16 - k) * 3 + 2;
		for (size_t i = 0; i < k; i++) {
			unsigned char b = p[off + i];

			*o++ = (b >= 0x20 && b < 0x7f) ? (char)b : '.';
		}
		memset(o, ' ', 16 - k);
		o += 16 - k;
		*o++ = '\n';
	}
	strbuf__commit(sb, (size_t)(o - start));
}

static bool dump_has(const struct evsel *ev, uint64_t bit)
{
	return ev && (ev->attr.sample_type & bit);
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

/* --- SAMPLE ---------------------------------------------------------------- */

static void chain_line(struct strbuf *sb, uint64_t idx, uint64_t v)
{
	strbuf__addstr(sb, "..... ");
	strbuf__add_s64_width(sb, (int64_t)idx, 2);	/* " %2d": a space, then >= 2 wide */
	strbuf__addstr(sb, ": ");
	strbuf__add_hex_pad(sb, v, 16);
	strbuf__addch(sb, '\n');
}

static uint64_t dump_br(const struct sample *s, uint64_t i, unsigned field)
{
	return bytes__u64(s->branch + 24 * i + 8 * field);
}

/* perf's LBR call-stack view: kernel part of the FP chain up to and including the
 * USER marker, then the first branch's "to" and every branch's "from". */
static void lbr_callstack(struct strbuf *sb, const struct sample *s)
{
	uint64_t i, kernel_nr;

	for (i = 0; i < s->callchain_nr; i++)
		if (sample__callchain_ip(s, i) == CONTEXT_USER)
			break;
	if (i == s->callchain_nr || !s->branch_nr)
		return;
	kernel_nr = i + 1;
	strbuf__addstr(sb, "... LBR call chain: nr:");
	strbuf__add_u64(sb, kernel_nr + s->branch_nr + 1);
	strbuf__addch(sb, '\n');
	for (i = 0; i < kernel_nr; i++)
		chain_line(sb, i, sample__callchain_ip(s, i));
	chain_line(sb, kernel_nr, dump_br(s, 0, 1));
	for (i = 0; i < s->branch_nr; i++)
		chain_line(sb, i + kernel_nr + 1, dump_br(s, i, 0));
}

static void dump_callchain(struct strbuf *sb, struct rd *rd, const struct evsel *ev,
		       const struct sample *s, bool branch_ok)
{
	if (!arr_ok(rd, s->callchain, s->callchain_nr, 8)) {
		rd->trunc = true;
		return;
	}
	if ((ev->attr.branch_sample_type & BRANCH_CALL_STACK) && branch_ok)
		lbr_callstack(sb, s);
	strbuf__addstr(sb, "... FP chain: nr:");
	strbuf__add_u64(sb, s->callchain_nr);
	strbuf__addch(sb, '\n');
	for (uint64_t i = 0; i < s->callchain_nr; i++)
		chain_line(sb, i, sample__callchain_ip(s, i));
}

static const char *const _br_types[16] = {
	"", "COND", "UNCOND", "IND", "CALL", "IND_CALL", "RET", "SYSCALL", "SYSRET",
	"COND_CALL", "COND_RET", "ERET", "IRQ", "SERROR", "NO_TX", NULL,
};

/* Branch type 15 (EXTEND_ABI) takes its name from new_type; perf 6.1 names only 0..7
 * and prints glibc's "(null)" for the rest. */
static const char *const _br_new_types[16] = {
	"FAULT_ALGN", "FAULT_DATA", "FAULT_INST", "ARCH_1", "ARCH_2", "ARCH_3",
	"ARCH_4", "ARCH_5", "(null)", "(null)", "(null)", "(null)", "(null)", "(null)",
	"(null)", "(null)",
};

static void branch_entry(struct strbuf *sb, uint64_t i, uint64_t from, uint64_t to,
			  uint64_t fl)
{
	unsigned type = (fl >> 20) & 15;

	strbuf__addstr(sb, "..... ");
	strbuf__add_s64_width(sb, (int64_t)i, 2);	/* " %2llu" */
	strbuf__addstr(sb, ": ");
	strbuf__add_hex_pad(sb, from, 16);
	strbuf__addstr(sb, " -> ");
	strbuf__add_hex_pad(sb, to, 16);
	strbuf__addch(sb, ' ');
	strbuf__add_u64(sb, (fl >> 4) & 0xffff);	/* cycles */
	strbuf__addstr(sb, " cycles ");
	strbuf__addch(sb, fl & 1 ? 'M' : ' ');		/* mispred */
	strbuf__addch(sb, fl & 2 ? 'P' : ' ');		/* predicted */
	strbuf__addch(sb, fl & 8 ? 'A' : ' ');		/* abort */
	strbuf__addch(sb, fl & 4 ? 'T' : ' ');		/* in_tx */
	strbuf__addch(sb, ' ');
	strbuf__add_hex(sb, fl >> 33);			/* reserved:31 */
	strbuf__addch(sb, ' ');
	strbuf__addstr(sb, type == 15 ? _br_new_types[(fl >> 26) & 15] : _br_types[type]);
	strbuf__addch(sb, '\n');
}

static void branch_stack(struct strbuf *sb, const struct evsel *ev,
			  const struct sample *s)
{
	bool callstack = ev->attr.branch_sample_type & BRANCH_CALL_STACK;

	if (!callstack) {
		strbuf__addstr(sb, "... branch stack: nr:");
		strbuf__add_u64(sb, s->branch_nr);
	} else {
		strbuf__addstr(sb, "... branch callstack: nr:");
		strbuf__add_u64(sb, s->branch_nr + 1);
	}
	strbuf__addch(sb, '\n');
	for (uint64_t i = 0; i < s->branch_nr; i++) {
		if (!callstack) {
			branch_entry(sb, i, dump_br(s, i, 0), dump_br(s, i, 1), dump_br(s, i, 2));
		} else if (i == 0) {
			chain_line(sb, 0, dump_br(s, 0, 1));
			chain_line(sb, 1, dump_br(s, 0, 0));
		} else {
			chain_line(sb, i + 1, dump_br(s, i, 0));
		}
	}
}

static bool arch_is_x86(const char *arch)
{
	static const char *const x86[] = { "x86", "i386", "i486", "i586", "i686", "amd64" };

	if (!arch)
		return true;
	for (size_t i = 0; i < sizeof(x86) / sizeof(x86[0]); i++)
		if (!strncmp(arch, x86[i], strlen(x86[i])))
			return true;
	return false;
}

/* perf's x86 register names (perf_regs.h numbering); bits 32..63 are XMM0..XMM15,
 * two bits each. Other architectures print "unknown" (not implemented). */
static const char *reg_name(unsigned bit, bool x86)
{
	static const char *const gp[24] = {
		"AX", "BX", "CX", "DX", "SI", "DI", "BP", "SP", "IP", "FLAGS", "CS", "SS",
		"DS", "ES", "FS", "GS", "R8", "R9", "R10", "R11", "R12", "R13", "R14", "R15",
	};
	static const char *const xmm[16] = {
		"XMM0", "XMM1", "XMM2", "XMM3", "XMM4", "XMM5", "XMM6", "XMM7", "XMM8",
		"XMM9", "XMM10", "XMM11", "XMM12", "XMM13", "XMM14", "XMM15",
	};

	if (!x86)
		return "unknown";
	if (bit < 24)
		return gp[bit];
	if (bit >= 32)
		return xmm[(bit - 32) / 2];
	return "unknown";
}

static void dump_regs(struct strbuf *sb, struct rd *rd, const struct dump_ctx *ctx,
		  const char *what, uint64_t abi, uint64_t mask, const unsigned char *regs)
{
	static const char *const abis[3] = { "none", "32-bit", "64-bit" };
	bool x86 = arch_is_x86(ctx->arch);
	unsigned nr = (unsigned)__builtin_popcountll(mask), i = 0;

	if (!abi)
		return;
	if (!arr_ok(rd, regs, nr, 8)) {
		rd->trunc = true;
		return;
	}
	strbuf__addstr(sb, "... ");
	strbuf__addstr(sb, what);
	strbuf__addstr(sb, " regs: mask 0x");
	strbuf__add_hex(sb, mask);
	strbuf__addstr(sb, " ABI ");
	strbuf__addstr(sb, abi < 3 ? abis[abi] : "unknown");
	strbuf__addch(sb, '\n');
	for (unsigned bit = 0; bit < 64; bit++) {
		const char *name;
		size_t len;

		if (!(mask >> bit & 1))
			continue;
		name = reg_name(bit, x86);
		len = strlen(name);
		strbuf__addstr(sb, ".... ");
		strbuf__add(sb, name, len);
		if (len < 5)
			strbuf__addchars(sb, ' ', 5 - len);	/* %-5s */
		strbuf__addstr(sb, " 0x");
		strbuf__add_hex_pad(sb, bytes__u64(regs + 8 * i++), 16);
		strbuf__addch(sb, '\n');
	}
}

/* perf's page-size names: 0 is "N/A", else divide by 1024 while the quotient is > 1,
 * at most three times, and print with the unit letter B, K, M or G. */
static void page_size(struct strbuf *sb, const char *label, uint64_t size)
{
	static const char units[] = "BKMG";
	unsigned i = 0;

	strbuf__addstr(sb, label);
	if (!size) {
		strbuf__addstr(sb, "N/A\n");
		return;
	}
	while (size / 1024 > 1 && i < 3) {
		size /= 1024;
		i++;
	}
	strbuf__add_u64(sb, size);
	strbuf__addch(sb, units[i]);
	strbuf__addch(sb, '\n');
}

static void read_value(struct strbuf *sb, uint64_t id, uint64_t value, uint64_t lost,
			bool has_lost)
{
	strbuf__addstr(sb, "..... id ");
	strbuf__add_hex_pad(sb, id, 16);
	strbuf__addstr(sb, ", value ");
	strbuf__add_hex_pad(sb, value, 16);
	if (has_lost) {
		strbuf__addstr(sb, ", lost ");
		strbuf__add_u64(sb, lost);
	}
	strbuf__addch(sb, '\n');
}

static void dump_sample_read(struct strbuf *sb, struct rd *rd, const struct evsel *ev,
			 const struct sample *s)
{
	uint64_t rf = ev->attr.read_format;
	bool has_lost = rf & FORMAT_LOST;
	/* perf steps over {value, id[, lost]} whatever read_format says about ID */
	size_t step = has_lost ? 24 : 16;

	strbuf__addstr(sb, "... sample_read:\n");
	if (rf & FORMAT_TOTAL_TIME_ENABLED) {
		strbuf__addstr(sb, "...... time enabled ");
		strbuf__add_hex_pad(sb, s->read.time_enabled, 16);
		strbuf__addch(sb, '\n');
	}
	if (rf & FORMAT_TOTAL_TIME_RUNNING) {
		strbuf__addstr(sb, "...... time running ");
		strbuf__add_hex_pad(sb, s->read.time_running, 16);
		strbuf__addch(sb, '\n');
	}
	if (!(rf & FORMAT_GROUP)) {
		read_value(sb, s->read.one.id, s->read.one.value, s->read.one.lost, has_lost);
		return;
	}
	strbuf__addstr(sb, ".... group nr ");
	strbuf__add_u64(sb, s->read.nr);
	strbuf__addch(sb, '\n');
	for (uint64_t i = 0; i < s->read.nr; i++) {
		const unsigned char *v = s->read.values + i * step;

		if (i > rd->n / step || !span_ok(rd, v, step)) {
			rd->trunc = true;
			return;
		}
		read_value(sb, bytes__u64(v + 8), bytes__u64(v),
			    has_lost ? bytes__u64(v + 16) : 0, has_lost);
	}
}

static void sample_head(struct strbuf *sb, const struct evsel *ev, const struct sample *s,
			 uint16_t misc)
{
	strbuf__addstr(sb, "(IP, 0x");
	strbuf__add_hex(sb, misc);
	strbuf__addstr(sb, "): ");
	strbuf__add_s64(sb, dump_has(ev, SAMPLE_TID) ? (int32_t)s->pid : -1);
	strbuf__addch(sb, '/');
	strbuf__add_s64(sb, dump_has(ev, SAMPLE_TID) ? (int32_t)s->tid : -1);
	strbuf__addstr(sb, ": ");
	strbuf__add_hex_alt(sb, dump_has(ev, SAMPLE_IP) ? s->ip : 0);
	strbuf__addstr(sb, " period: ");
	/* without PERIOD perf reports the attr's sample_period (the frequency in -F mode) */
	strbuf__add_u64(sb, dump_has(ev, SAMPLE_PERIOD) ? s->period : ev->attr.sample_period);
	strbuf__addstr(sb, " addr: ");
	strbuf__add_hex_alt(sb, dump_has(ev, SAMPLE_ADDR) ? s->addr : 0);
	strbuf__addch(sb, '\n');
}

/* The single-value lines between the register blocks and sample_read, in perf's
 * order. */
static void sample_scalars(struct strbuf *sb, const struct evsel *ev,
			    const struct sample *s)
{
	uint64_t st = ev->attr.sample_type;

	if (st & SAMPLE_STACK_USER) {
		strbuf__addstr(sb, "... ustack: size ");
		strbuf__add_u64(sb, s->user_stack_size ? s->user_stack_dyn_size : 0);
		strbuf__addstr(sb, ", offset 0x");
		strbuf__add_hex(sb, s->user_stack_offset);
		strbuf__addch(sb, '\n');
	}
	if (st & (SAMPLE_WEIGHT | SAMPLE_WEIGHT_STRUCT)) {
		strbuf__addstr(sb, "... weight: ");
		strbuf__add_u64(sb, s->weight);
		if (st & SAMPLE_WEIGHT_STRUCT) {
			/* var2 (ins_lat) only when WEIGHT is not also set; perf on x86 never
			 * fills var3 (p_stage_cyc), so it always prints 0x0 */
			strbuf__addstr(sb, ",0x");
			strbuf__add_hex(sb, (st & SAMPLE_WEIGHT) ? 0 : s->ins_lat);
			strbuf__addstr(sb, ",0x0");
		}
		strbuf__addch(sb, '\n');
	}
	if (st & SAMPLE_DATA_SRC) {
		strbuf__addstr(sb, " . data_src: 0x");
		strbuf__add_hex(sb, s->data_src);
		strbuf__addch(sb, '\n');
	}
	if (st & SAMPLE_PHYS_ADDR) {
		strbuf__addstr(sb, " .. phys_addr: 0x");
		strbuf__add_hex(sb, s->phys_addr);
		strbuf__addch(sb, '\n');
	}
	if (st & SAMPLE_DATA_PAGE_SIZE)
		page_size(sb, " .. data page size: ", s->data_page_size);
	if (st & SAMPLE_CODE_PAGE_SIZE)
		page_size(sb, " .. code page size: ", s->code_page_size);
	if (st & SAMPLE_TRANSACTION) {
		strbuf__addstr(sb, "... transaction: ");
		strbuf__add_hex(sb, s->transaction);
		strbuf__addch(sb, '\n');
	}
}

static void deliveries(struct strbuf *sb, const struct dump_rec *r)
{
	for (unsigned i = 0; i < r->nr_deliveries; i++) {
		strbuf__addstr(sb, " ... thread: ");
		strbuf__addstr(sb, r->comm ? r->comm : "");
		strbuf__addch(sb, ':');
		strbuf__add_s64(sb, r->tid);
		strbuf__addstr(sb, "\n ...... dso: ");
		strbuf__addstr(sb, r->dso ? r->dso : "<not found>");
		strbuf__addch(sb, '\n');
	}
}

static void fmt_sample(struct strbuf *sb, struct rd *rd, const struct dump_ctx *ctx,
			const struct dump_rec *r, uint16_t misc)
{
	const struct evsel *ev = r->evsel;
	const struct sample *s = r->sample;
	uint64_t st;
	bool branch_ok;

	if (!ev)	/* perf prints nothing more for a sample of an unknown event */
		return;
	if (!s) {
		rd->trunc = true;
		return;
	}
	st = ev->attr.sample_type;
	sample_head(sb, ev, s, misc);
	branch_ok = (st & SAMPLE_BRANCH_STACK) && arr_ok(rd, s->branch, s->branch_nr, 24);
	if ((st & SAMPLE_BRANCH_STACK) && !branch_ok)
		rd->trunc = true;
	if (st & SAMPLE_CALLCHAIN)
		dump_callchain(sb, rd, ev, s, branch_ok);
	if (branch_ok)
		branch_stack(sb, ev, s);
	if (st & SAMPLE_REGS_USER)
		dump_regs(sb, rd, ctx, "user", s->user_regs_abi, ev->attr.sample_regs_user,
		      s->user_regs);
	if (st & SAMPLE_REGS_INTR)
		dump_regs(sb, rd, ctx, "intr", s->intr_regs_abi, ev->attr.sample_regs_intr,
		      s->intr_regs);
	sample_scalars(sb, ev, s);
	if (st & SAMPLE_READ)
		dump_sample_read(sb, rd, ev, s);
	deliveries(sb, r);
}

/* --- kernel records -------------------------------------------------------- */

/* The record views of format/event.h print what lies inside the record (fields beyond
 * it read 0) and say what fits: `nfields` for fixed fields, `nul` for strings. A record
 * is marked truncated when a field perf prints did not fit. */

/* Append a string view. perf prints with %s, so a string runs into the trailer bytes
 * until a NUL; the view stops at the record end and we flag truncation. */
static void dump_estr(struct strbuf *sb, struct rd *rd, const struct event_str *s)
{
	if (s->len)
		strbuf__add(sb, s->s, s->len);
	if (!s->nul)
		rd->trunc = true;
}

/* Mark the record truncated when fewer than `need` of a view's fields fit. */
static void need_fields(struct rd *rd, unsigned nfields, unsigned need)
{
	if (nfields < need)
		rd->trunc = true;
}

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
	case REC_SAMPLE: fmt_sample(sb, rd, ctx, r, h->misc); break;
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

static void fmt_user(struct strbuf *sb, struct rd *rd, const struct record_header *h)
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
		fmt_user(out, &rd, &h);
	dump_finish(out, &rd);
}

/* --- statistics ---------------------------------------------------------------- */

void dump_stats__init(struct dump_stats *st)
{
	memset(st, 0, sizeof(*st));
}

void dump_stats__exit(struct dump_stats *st)
{
	free(st->nr_samples);
	free(st->nr_lost_samples);
	memset(st, 0, sizeof(*st));
}

static int stats_reserve(struct dump_stats *st, size_t nr)
{
	uint32_t *a, *b;
	size_t cap;

	if (nr <= st->nr_evsels)
		return 0;
	cap = nr < 8 ? 8 : nr;
	if (cap < st->nr_evsels * 2)
		cap = st->nr_evsels * 2;
	a = realloc(st->nr_samples, cap * sizeof(*a));
	if (!a)
		return -ENOMEM;
	st->nr_samples = a;
	b = realloc(st->nr_lost_samples, cap * sizeof(*b));
	if (!b)
		return -ENOMEM;
	st->nr_lost_samples = b;
	memset(a + st->nr_evsels, 0, (cap - st->nr_evsels) * sizeof(*a));
	memset(b + st->nr_evsels, 0, (cap - st->nr_evsels) * sizeof(*b));
	st->nr_evsels = cap;
	return 0;
}

int dump_stats__count_sample(struct dump_stats *st, size_t evsel_idx)
{
	return dump_stats__count_samples(st, evsel_idx, 1);
}

int dump_stats__count_samples(struct dump_stats *st, size_t evsel_idx, uint64_t n)
{
	if (evsel_idx == SIZE_MAX || stats_reserve(st, evsel_idx + 1))
		return -ENOMEM;
	st->nr_samples[evsel_idx] += (uint32_t)n;	/* perf's counter is a u32 too */
	return 0;
}

int dump_stats__count_lost_samples(struct dump_stats *st, size_t evsel_idx)
{
	if (evsel_idx == SIZE_MAX || stats_reserve(st, evsel_idx + 1))
		return -ENOMEM;
	st->nr_lost_samples[evsel_idx]++;
	return 0;
}

int dump_stats__merge(struct dump_stats *dst, const struct dump_stats *src)
{
	for (size_t i = 0; i < DUMP_STATS_NR_TYPES; i++)
		dst->nr_events[i] += src->nr_events[i];
	if (stats_reserve(dst, src->nr_evsels))
		return -ENOMEM;
	for (size_t i = 0; i < src->nr_evsels; i++) {
		dst->nr_samples[i] += src->nr_samples[i];
		dst->nr_lost_samples[i] += src->nr_lost_samples[i];
	}
	return 0;
}

/* "%16s events: %10d" */
static void stat_line(struct strbuf *sb, const char *name, uint32_t n)
{
	size_t len = strlen(name);

	if (len < 16)
		strbuf__addchars(sb, ' ', 16 - len);
	strbuf__add(sb, name, len);
	strbuf__addstr(sb, " events: ");
	strbuf__add_s64_width(sb, (int32_t)n, 10);
}

void dump_stats__print(struct strbuf *out, const struct dump_stats *st,
		       const struct evlist *el, bool has_auxtrace)
{
	dump_stats__print_opt(out, st, el, has_auxtrace, true);
}

/* --no-skip-empty: the types perf 6.1 knows get a line even when zero. */
static bool known_to_perf61(uint32_t type)
{
	return type <= REC_FINISHED_INIT && type != REC_CALLCHAIN_DEFERRED &&
	       strcmp(dump__type_name(type), "UNKNOWN");
}

void dump_stats__print_opt(struct strbuf *out, const struct dump_stats *st,
			   const struct evlist *el, bool has_auxtrace, bool skip_empty)
{
	uint32_t total = st->nr_events[0];

	strbuf__addstr(out, "\nAggregated stats:");
	if (has_auxtrace)
		strbuf__addstr(out, " (excludes AUX area (e.g. instruction trace) decoded / "
				    "synthesized events)");
	strbuf__addch(out, '\n');
	for (uint32_t i = 0; i < DUMP_STATS_NR_TYPES; i++) {
		const char *name = dump__type_name(i);

		if (!strcmp(name, "UNKNOWN") ||
		    (!st->nr_events[i] && (skip_empty || !known_to_perf61(i))))
			continue;
		stat_line(out, name, st->nr_events[i]);
		if (i && total)
			strbuf__addf(out, "  (%4.1f%%)", 100.0 * st->nr_events[i] / total);
		strbuf__addch(out, '\n');
	}
	if (!el)
		return;
	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];
		uint32_t ns = i < st->nr_evsels ? st->nr_samples[i] : 0;
		uint32_t nl = i < st->nr_evsels ? st->nr_lost_samples[i] : 0;

		if (!ns && !nl && skip_empty)
			continue;
		strbuf__addstr(out, evsel__name(ev));
		strbuf__addstr(out, " stats:\n");
		if (ns) {
			stat_line(out, "SAMPLE", ns);
			strbuf__addch(out, '\n');
		}
		if (nl) {
			stat_line(out, "LOST_SAMPLES", nl);
			strbuf__addch(out, '\n');
		}
	}
}
