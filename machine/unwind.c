/*
 * unwind - user stacks of --call-graph dwarf samples, unwound with libdwfl.
 */
#include "machine/unwind.h"

#include <dwarf.h>		/* DW_OP_* */
#include <elfutils/libdwfl.h>	/* dwfl_*, dwarf_cfi_addrframe */
#include <gelf.h>		/* gelf_getphdr */
#include <errno.h>
#include <inttypes.h>		/* PRIu64 */
#include <fcntl.h>		/* open */
#include <limits.h>		/* PATH_MAX */
#include <stdbool.h>
#include <stdlib.h>		/* calloc, free */
#include <string.h>		/* memcpy, strcmp */
#include <unistd.h>		/* close, pread */

#include "format/evlist.h"
#include "format/feature.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "reader/session.h"
#include "util/array.h"
#include "banned.h"

/* Processes whose sessions are kept (least recently used goes first). */
#define UW_PROCS 32
/* perf's PERF_SAMPLE_REGS_ABI_64 */
#define REGS_ABI_64 2

/*
 * x86_64: DWARF register number -> perf's PERF_REG_X86_* index (UAPI
 * asm/perf_regs.h: AX 0, BX 1, CX 2, DX 3, SI 4, DI 5, BP 6, SP 7, IP 8, ...,
 * R8 16 ... R15 23).  DWARF (System V x86_64 psABI): rax, rdx, rcx, rbx, rsi, rdi,
 * rbp, rsp, r8 ... r15, then 16 the return address (rip).
 */
static const uint8_t x86_64_regs[] = {
	0, 3, 2, 1, 4, 5, 6, 7, 16, 17, 18, 19, 20, 21, 22, 23, 8,
};
#define X86_64_REG_SP 7		/* perf index */
#define X86_64_REG_IP 8

/* One process's libdwfl session. */
struct uw_proc {
	const struct maps *maps;	/* the key, with gen; NULL: free slot */
	uint64_t gen;
	Dwfl *dwfl;			/* owned */
	bool any_file;			/* some map has a file perf can read (else
					 * perf sets up no unwinding for it) */
	uint64_t used;			/* the unwinder's clock at its last use */
};

/* A dso's data file, open for reads of code outside the stack copy. */
struct uw_file {
	const struct dso *dso;
	int fd;				/* -1: none */
};

struct unwinder {
	bool supported;			/* the recording's architecture is known */
	struct uw_proc procs[UW_PROCS];
	uint64_t clock;
	struct uw_file *files;
	size_t nr_files, cap_files;
	/* the sample being unwound (the callbacks' argument) */
	const struct thread *t;
	const struct sample *s;
	uint64_t sp;
	uint64_t unwound, tried;
};

/* A user register of the sample by perf index; false when it was not recorded. */
static bool sample_reg(const struct sample *s, unsigned idx, uint64_t *val)
{
	uint64_t below;

	if (!s->user_regs || !(s->user_regs_mask & (1ULL << idx)))
		return false;
	below = s->user_regs_mask & ((1ULL << idx) - 1);
	memcpy(val, s->user_regs + 8 * (unsigned)__builtin_popcountll(below), 8);
	return true;
}

int unwinder__new(struct unwinder **out, const char *arch)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u)
		return -ENOMEM;
#if defined(__x86_64__)
	u->supported = !arch || !strcmp(arch, "x86_64");
#else
	u->supported = arch && !strcmp(arch, "x86_64");
#endif
	*out = u;
	return 0;
}

static void proc_drop(struct uw_proc *p)
{
	if (p->dwfl)
		dwfl_end(p->dwfl);
	*p = (struct uw_proc){ 0 };
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < UW_PROCS; i++)
		proc_drop(&u->procs[i]);
	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i].fd >= 0)
			close(u->files[i].fd);
	free(u->files);
	free(u);
}

bool unwind__wanted(const struct evlist *el)
{
	const uint64_t both = SAMPLE_REGS_USER | SAMPLE_STACK_USER;

	for (size_t i = 0; i < el->nr; i++)
		if ((el->evsels[i]->attr.sample_type & both) == both)
			return true;
	return false;
}

int unwinder__warn(const struct unwinder *u, struct session *s)
{
	const char *arch = session__features(s)->arch;

	if (!u->tried || u->unwound)
		return 0;
	if (!u->supported)
		return session__warn(s, "none of the %" PRIu64 " user stacks of --call-graph "
				     "dwarf samples could be unwound: the recording's "
				     "architecture %s is not supported (x86_64 is)", u->tried,
				     arch ? arch : "(unknown)");
	return session__warn(s, "none of the %" PRIu64 " user stacks of --call-graph dwarf "
			     "samples could be unwound: the files their processes ran "
			     "(their .eh_frame) are not here", u->tried);
}

/* The open data file of a dso (-1: none); -ENOMEM as -2. */
static int dso_fd(struct unwinder *u, const struct dso *dso)
{
	char path[PATH_MAX];
	struct uw_file *f;

	for (size_t i = 0; i < u->nr_files; i++)
		if (u->files[i].dso == dso)
			return u->files[i].fd;
	if (array__grow(&u->files, &u->cap_files, u->nr_files + 1, sizeof(*u->files), 16))
		return -2;
	f = &u->files[u->nr_files++];
	f->dso = dso;
	f->fd = dso__data_path(dso, path, sizeof(path)) ? open(path, O_RDONLY | O_CLOEXEC)
							 : -1;
	return f->fd;
}

/* perf's access_dso_mem(): 8 bytes of the file mapped at addr. */
static bool read_dso_mem(struct unwinder *u, uint64_t addr, uint64_t *val)
{
	const struct map *map = maps__find(u->t->maps, addr);
	int fd;

	if (!map || !map->dso)
		return false;
	fd = dso_fd(u, map->dso);
	if (fd < 0)
		return false;
	return pread(fd, val, 8, (off_t)(addr - map->start + map->pgoff)) == 8;
}

/* perf's access_mem(): the stack copy, else the file mapped there. */
static bool read_mem(struct unwinder *u, uint64_t addr, uint64_t *val)
{
	uint64_t end = u->sp + u->s->user_stack_dyn_size;

	if (addr + 8 < addr || addr < u->sp || addr + 8 >= end) {	/* perf's bound */
		/* what perf's access_mem() cannot read reads as 0 (observed: the
		 * unwinding goes on with it) */
		if (!read_dso_mem(u, addr, val))
			*val = 0;
		return true;
	}
	memcpy(val, u->s->user_stack + (addr - u->sp), 8);
	return true;
}

/* Debug files are not searched: the CFI comes from the files themselves (.eh_frame),
 * as perf's unwinder reads it. */
static int no_debuginfo(Dwfl_Module *mod, void **userdata, const char *modname,
			Dwarf_Addr base, const char *file_name, const char *debuglink_file,
			GElf_Word debuglink_crc, char **debuginfo_file_name)
{
	(void)mod; (void)userdata; (void)modname; (void)base; (void)file_name;
	(void)debuglink_file; (void)debuglink_crc; (void)debuginfo_file_name;
	return -1;
}

static const Dwfl_Callbacks dwfl_callbacks = {
	.find_debuginfo = no_debuginfo,
};

/* The module holding addr: the file of its map reported to the session at the base
 * the map puts it (map start - pgoff), once.  NULL when no file is mapped there. */
static Dwfl_Module *module_of(struct unwinder *u, Dwfl *dwfl, const struct map *m,
			      uint64_t addr)
{
	char path[PATH_MAX];
	Dwfl_Module *mod = dwfl_addrmodule(dwfl, addr);

	if (mod || !dso__data_path(m->dso, path, sizeof(path)))
		return mod;
	(void)u;
	dwfl_report_begin_add(dwfl);
	mod = dwfl_report_elf(dwfl, dso__short_name(m->dso), path, -1, m->start - m->pgoff,
			      false);
	dwfl_report_end(dwfl, NULL, NULL);
	return mod && dwfl_addrmodule(dwfl, addr) == mod ? mod : NULL;
}

/* A session for the thread's process; modules are reported as addresses need them
 * (a map's file may overlap the stale remains of another's). */
static int proc_open(struct uw_proc *p, const struct thread *t)
{
	char path[PATH_MAX];

	p->maps = t->maps;
	p->gen = t->maps->gen;
	/* perf's unwind__prepare_access() needs a map whose file tells the ELF class
	 * (dso__type()); a process without one gets no user frames at all */
	p->any_file = false;
	for (size_t i = 0; i < t->maps->nr && !p->any_file; i++)
		p->any_file = t->maps->v[i].dso &&
			      dso__data_path(t->maps->v[i].dso, path, sizeof(path));
	p->dwfl = dwfl_begin(&dwfl_callbacks);
	return p->dwfl ? 0 : -ENOMEM;
}

/* The session of t's process (made or remade as its maps are now). */
static struct uw_proc *proc_of(struct unwinder *u, const struct thread *t, int *err)
{
	struct uw_proc *p = NULL, *lru = &u->procs[0];

	*err = 0;
	for (size_t i = 0; i < UW_PROCS && !p; i++) {
		if (u->procs[i].maps == t->maps)
			p = &u->procs[i];
		else if (u->procs[i].used < lru->used)
			lru = &u->procs[i];
	}
	if (p && p->gen != t->maps->gen)
		proc_drop(p);
	else if (p) {
		p->used = ++u->clock;
		return p;
	}
	if (!p) {
		p = lru;
		proc_drop(p);
	}
	*err = proc_open(p, t);
	p->used = ++u->clock;
	return *err ? NULL : p;
}

/*
 * The stepping: libunwind's (x86_64, remote), the way perf 6.1 drives it, over the
 * CFI rules libdw reads.  A register's location is kept, not its value, and read
 * only when a rule needs it; RSP's value is the CFA.
 */
enum { LOC_NULL, LOC_REG, LOC_MEM, LOC_VAL };

struct uw_loc {
	int kind;		/* LOC_* */
	uint64_t v;		/* REG: the value; MEM: the address; VAL: the value */
};

#define UW_NREGS 17		/* DWARF 0..16, 16 the return address */
#define DW_RBP 6
#define DW_RSP 7
#define DW_RIP 16

struct uw_cursor {
	struct uw_loc loc[UW_NREGS];
	uint64_t cfa, ip;
	bool use_prev_instr;
	bool signal;		/* the last step applied a signal frame's CFI (its
				 * FDE's 'S'): libunwind's unw_is_signal_frame() after
				 * the step, which keeps the new address whole */
};

enum { STEP_END = 0, STEP_OK = 1, STEP_ERR = -1, STEP_NOINFO = -2 };

static int loc_get(struct unwinder *u, const struct uw_cursor *c, struct uw_loc l,
		   uint64_t *val)
{
	(void)c;
	switch (l.kind) {
	case LOC_REG:
	case LOC_VAL:
		*val = l.v;
		return 0;
	case LOC_MEM:
		return read_mem(u, l.v, val) ? 0 : -1;
	default:
		return -1;
	}
}

static int reg_get(struct unwinder *u, const struct uw_cursor *c, unsigned reg,
		   uint64_t *val)
{
	if (reg == DW_RSP) {
		*val = c->cfa;
		return 0;
	}
	if (reg == DW_RIP) {
		*val = c->ip;
		return 0;
	}
	return reg < UW_NREGS ? loc_get(u, c, c->loc[reg], val) : -1;
}

/*
 * A CFI expression (DWARF expression operations) with the CFA and the registers of
 * the frame being unwound.  *is_value: the result is a value (DW_OP_stack_value),
 * else an address; a bare register operation gives that register's location.
 */
static int eval_ops(struct unwinder *u, const struct uw_cursor *c, uint64_t cfa,
		    const Dwarf_Op *ops, size_t nops, struct uw_loc *out)
{
	uint64_t st[16], v;
	size_t n = 0;
	bool value = false;

	for (size_t i = 0; i < nops; i++) {
		uint8_t op = ops[i].atom;

		if (n >= 15)
			return -1;
		if (op >= DW_OP_lit0 && op <= DW_OP_lit31) {
			st[n++] = op - DW_OP_lit0;
		} else if (op >= DW_OP_breg0 && op <= DW_OP_breg31) {
			if (reg_get(u, c, op - DW_OP_breg0, &v))
				return -1;
			st[n++] = v + ops[i].number;
		} else if (op >= DW_OP_reg0 && op <= DW_OP_reg31) {
			if (nops != 1 || (unsigned)(op - DW_OP_reg0) >= UW_NREGS)
				return -1;
			*out = c->loc[op - DW_OP_reg0];
			return 0;
		} else {
			switch (op) {
			case DW_OP_call_frame_cfa:
				st[n++] = cfa;
				break;
			case DW_OP_bregx:
				if (reg_get(u, c, (unsigned)ops[i].number, &v))
					return -1;
				st[n++] = v + ops[i].number2;
				break;
			case DW_OP_regx:
				if (nops != 1 || ops[i].number >= UW_NREGS)
					return -1;
				*out = c->loc[ops[i].number];
				return 0;
			case DW_OP_const1u: case DW_OP_const2u: case DW_OP_const4u:
			case DW_OP_const8u: case DW_OP_constu:
			case DW_OP_const1s: case DW_OP_const2s: case DW_OP_const4s:
			case DW_OP_const8s: case DW_OP_consts:
				st[n++] = ops[i].number;
				break;
			case DW_OP_plus_uconst:
				if (!n)
					return -1;
				st[n - 1] += ops[i].number;
				break;
			case DW_OP_deref:
				if (!n || !read_mem(u, st[n - 1], &st[n - 1]))
					return -1;
				break;
			case DW_OP_dup:
				if (!n)
					return -1;
				st[n] = st[n - 1];
				n++;
				break;
			case DW_OP_stack_value:
				value = true;
				break;
			case DW_OP_plus: case DW_OP_minus: case DW_OP_and: case DW_OP_or:
			case DW_OP_xor: case DW_OP_shl: case DW_OP_shr: case DW_OP_mul:
			case DW_OP_ge: case DW_OP_gt: case DW_OP_le: case DW_OP_lt:
			case DW_OP_eq: case DW_OP_ne: {
				uint64_t a, b;
				int64_t sa, sb;

				if (n < 2)
					return -1;
				b = st[--n];
				a = st[n - 1];
				sa = (int64_t)a;
				sb = (int64_t)b;
				st[n - 1] = op == DW_OP_plus ? a + b : op == DW_OP_minus ? a - b :
					    op == DW_OP_and ? (a & b) : op == DW_OP_or ? (a | b) :
					    op == DW_OP_xor ? (a ^ b) :
					    op == DW_OP_shl ? (b < 64 ? a << b : 0) :
					    op == DW_OP_shr ? (b < 64 ? a >> b : 0) :
					    op == DW_OP_mul ? a * b :
					    op == DW_OP_ge ? sa >= sb : op == DW_OP_gt ? sa > sb :
					    op == DW_OP_le ? sa <= sb : op == DW_OP_lt ? sa < sb :
					    op == DW_OP_eq ? a == b : a != b;
				break;
			}
			default:
				return -1;
			}
		}
	}
	if (!n)
		return -1;
	*out = (struct uw_loc){ value ? LOC_VAL : LOC_MEM, st[n - 1] };
	return 0;
}

/*
 * The CFI row of ip, as perf's find_proc_info() finds it: the map holding ip, its
 * file's .eh_frame; perf looks the table up relative to the lowest address any map
 * of the same file has in the process, less the file's first PT_LOAD address
 * (elf_base_address()), so when a stale copy of the file sits lower (a process
 * that exec'd keeps its parent's maps) nothing is found.  STEP_ERR: no map or file
 * (perf's -EINVAL ends the chain); STEP_NOINFO: no row (libunwind falls back to the
 * frame pointer).
 */
static int find_frame(struct unwinder *u, Dwfl *dwfl, uint64_t ip, Dwarf_CFI **cfi_out,
		      Dwarf_Frame **frame)
{
	const struct map *m = maps__find(u->t->maps, ip);
	const struct maps *mp = u->t->maps;
	uint64_t lowest = UINT64_MAX, elf_base = 0;
	Dwfl_Module *mod;
	Dwarf_CFI *cfi;
	Dwarf_Addr bias;
	GElf_Addr ebias;
	Elf *elf;
	size_t nph = 0;

	if (!m || !m->dso)
		return STEP_ERR;
	mod = module_of(u, dwfl, m, ip);
	if (!mod)
		return STEP_ERR;
	cfi = dwfl_module_eh_cfi(mod, &bias);
	elf = dwfl_module_getelf(mod, &ebias);
	if (!cfi || !elf)
		return STEP_ERR;
	for (size_t i = 0; !elf_getphdrnum(elf, &nph) && i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_LOAD) {
			elf_base = ph.p_vaddr & ~(uint64_t)4095;
			break;
		}
	}
	for (size_t i = 0; i < mp->nr; i++)
		if (mp->v[i].dso == m->dso && mp->v[i].start < lowest)
			lowest = mp->v[i].start;
	if (lowest - elf_base != bias)
		return STEP_NOINFO;
	if (dwarf_cfi_addrframe(cfi, ip - bias, frame))
		return STEP_NOINFO;
	*cfi_out = cfi;
	return STEP_OK;
}

/* libunwind's dwarf_step(): apply the CFI row of the cursor's ip. */
static int dwarf_step(struct unwinder *u, Dwfl *dwfl, struct uw_cursor *c)
{
	uint64_t lookup = c->ip - (c->use_prev_instr ? 1 : 0), cfa, prev_ip = c->ip;
	uint64_t prev_cfa = c->cfa;
	struct uw_loc next[UW_NREGS];
	Dwarf_CFI *cfi;
	Dwarf_Frame *frame = NULL;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal = false;
	int ret = find_frame(u, dwfl, lookup, &cfi, &frame);

	if (ret != STEP_OK)
		return ret;
	(void)dwarf_frame_info(frame, NULL, NULL, &signal);
	/* the CFA: a register plus an offset (RSP unsaved: the current CFA), or an
	 * expression */
	ret = STEP_ERR;
	if (dwarf_frame_cfa(frame, &ops, &nops) || !nops)
		goto out;
	if (nops == 1 && ops[0].atom >= DW_OP_breg0 && ops[0].atom <= DW_OP_breg31) {
		unsigned r = ops[0].atom - DW_OP_breg0;

		if (reg_get(u, c, r, &cfa))
			goto out;
		cfa += ops[0].number;
	} else {
		struct uw_loc l;

		if (eval_ops(u, c, c->cfa, ops, nops, &l) || l.kind != LOC_MEM)
			goto out;
		cfa = l.v;	/* an expression's result is the CFA itself */
	}
	for (unsigned r = 0; r < UW_NREGS; r++) {
		next[r] = c->loc[r];
		if (r == DW_RSP || dwarf_frame_register(frame, (int)r, ops_mem, &ops, &nops))
			continue;
		if (!nops && ops) {
			/* undefined: libdw also says so of the call-clobbered registers
			 * CFI does not name; libunwind keeps those (same value) */
			if (r == DW_RIP || r == DW_RBP || r == 3 || (r >= 12 && r <= 15))
				next[r] = (struct uw_loc){ LOC_NULL, 0 };
			continue;
		}
		if (!nops)
			continue;	/* same value */
		if (eval_ops(u, c, cfa, ops, nops, &next[r]))
			goto out;
	}
	memcpy(c->loc, next, sizeof(next));
	c->cfa = cfa;
	c->use_prev_instr = !signal;
	c->signal = signal;
	if (c->loc[DW_RIP].kind == LOC_NULL) {
		c->ip = 0;
		ret = STEP_END;
	} else {
		/* a location that is not NULL always reads (read_mem()) */
		(void)loc_get(u, c, c->loc[DW_RIP], &c->ip);
		ret = STEP_OK;
	}
	if (c->ip == prev_ip && c->cfa == prev_cfa)
		ret = STEP_ERR;
out:
	free(frame);
	return ret;
}

/* libunwind's unw_step() on x86_64: CFI, else a PLT entry or the frame pointer. */
static int step(struct unwinder *u, Dwfl *dwfl, struct uw_cursor *c)
{
	uint64_t prev_ip = c->ip, prev_cfa = c->cfa, w0, w1, rbp;
	int ret = dwarf_step(u, dwfl, c);

	if (ret == STEP_ERR)
		return STEP_ERR;
	if (ret >= 0)	/* the ABI's end of the chain: an undefined RBP */
		return c->loc[DW_RBP].kind == LOC_NULL ? STEP_END : ret;
	/* (libunwind's signal-frame case here never applies: its
	 * unw_is_signal_frame() answers from the step's own state, reset) */
	c->signal = false;
	if (read_mem(u, c->ip, &w0) && read_mem(u, c->ip + 8, &w1) &&
	    (w0 & 0xffff) == 0x25ff && ((w0 >> 48) & 0xff) == 0x68 &&
	    ((w1 >> 24) & 0xff) == 0xe9) {
		/* a PLT entry: CFA = RSP + 8, the return address at RSP */
		c->loc[DW_RIP] = (struct uw_loc){ LOC_MEM, c->cfa };
		c->cfa += 8;
	} else if (c->loc[DW_RBP].kind == LOC_NULL) {
		for (unsigned r = 0; r < UW_NREGS; r++)
			c->loc[r] = (struct uw_loc){ LOC_NULL, 0 };
	} else {
		struct uw_loc rbp_loc, rsp_loc, rip_loc;

		if (loc_get(u, c, c->loc[DW_RBP], &rbp))
			return STEP_ERR;
		if (!rbp) {
			rbp_loc = rsp_loc = rip_loc = (struct uw_loc){ LOC_NULL, 0 };
		} else {
			rbp_loc = (struct uw_loc){ LOC_MEM, rbp };
			rsp_loc = (struct uw_loc){ LOC_VAL, rbp + 16 };
			rip_loc = (struct uw_loc){ LOC_MEM, rbp + 8 };
			/* libunwind's check of its guess: RBP a little above the CFA */
			if (rbp < c->cfa || rbp - c->cfa > 0x4000)
				rip_loc = rbp_loc = (struct uw_loc){ LOC_NULL, 0 };
			c->cfa += 16;
		}
		for (unsigned r = 0; r < UW_NREGS; r++)
			c->loc[r] = (struct uw_loc){ LOC_NULL, 0 };
		c->loc[DW_RBP] = rbp_loc;
		c->loc[DW_RSP] = rsp_loc;
		c->loc[DW_RIP] = rip_loc;
		c->use_prev_instr = true;
	}
	if (c->loc[DW_RBP].kind == LOC_NULL)
		return STEP_END;
	if (c->loc[DW_RIP].kind == LOC_NULL)
		c->ip = 0;
	else if (loc_get(u, c, c->loc[DW_RIP], &c->ip))
		return STEP_ERR;
	if (c->ip == prev_ip && c->cfa == prev_cfa)
		return STEP_ERR;
	return STEP_OK;		/* even at ip 0 (observed: perf keeps such a frame) */
}

int unwinder__unwind(struct unwinder *u, struct thread *t, const struct sample *s,
		     uint64_t *ips, size_t max, size_t *nr)
{
	struct uw_cursor c = { .use_prev_instr = false };
	struct uw_proc *p = NULL;
	uint64_t ip, val;
	size_t n = 0;
	int err;

	*nr = 0;
	if (!s->user_regs || !s->user_stack_size || !s->user_stack_dyn_size || !max)
		return 0;
	if (!sample_reg(s, X86_64_REG_IP, &ip))
		return 0;
	u->tried++;
	if (t && t->maps) {
		p = proc_of(u, t, &err);
		if (!p)
			return err;
		if (!p->any_file)
			return 0;
	}
	ips[n++] = ip;
	*nr = n;
	if (!u->supported || s->user_regs_abi != REGS_ABI_64 || !t || !t->maps ||
	    !sample_reg(s, X86_64_REG_SP, &u->sp) || max < 2)
		return 0;
	u->t = t;
	u->s = s;
	for (unsigned r = 0; r < UW_NREGS; r++)
		if (r != DW_RIP && sample_reg(s, x86_64_regs[r], &val))
			c.loc[r] = (struct uw_loc){ LOC_REG, val };
	c.cfa = u->sp;
	c.ip = ip;
	/* perf's get_entries(): each step's ip, less one but in signal frames */
	while (n < max && step(u, p->dwfl, &c) == STEP_OK) {
		ips[n++] = c.signal ? c.ip : c.ip - 1;
	}
	/* perf keeps every address but 0 */
	*nr = 0;
	for (size_t i = 0; i < n; i++)
		if (ips[i])
			ips[(*nr)++] = ips[i];
	if (*nr > 1)
		u->unwound++;
	u->t = NULL;
	u->s = NULL;
	return 0;
}
