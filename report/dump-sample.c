/*
 * dump-sample - a SAMPLE's text for -D (perf 6.1's dump_sample(): callchain, branch
 * stack, registers, user stack, read values, the scalar fields) and the thread and
 * dso lines perf's report prints per delivery.  See dump.h.
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

/* attr.branch_sample_type bit PERF_SAMPLE_BRANCH_CALL_STACK */
#define BRANCH_CALL_STACK (1ULL << 11)

/* --- SAMPLE ---------------------------------------------------------------- */

static void chain_line(struct strbuf *sb, uint64_t idx, uint64_t v)
{
	/* the common case, an index below 100, written whole (a tenth of -D's lines) */
	if (idx < 100) {
		char *o = strbuf__reserve(sb, 27);

		if (!o)
			return;
		memcpy(o, "..... ", 6);
		o[6] = idx < 10 ? ' ' : (char)('0' + idx / 10);
		o[7] = (char)('0' + idx % 10);
		o[8] = ':';
		o[9] = ' ';
		strbuf__put_hex16(o + 10, v);
		o[26] = '\n';
		strbuf__commit(sb, 27);
		return;
	}
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

void dump__fmt_sample(struct strbuf *sb, struct rd *rd, const struct dump_ctx *ctx,
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
