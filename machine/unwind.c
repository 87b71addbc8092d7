/*
 * unwind - user stacks of --call-graph dwarf samples, unwound over libdw's CFI.
 */
#include "machine/unwind.h"

#include <dwarf.h>		/* DW_OP_* */
#include <elfutils/libdw.h>	/* dwarf_getcfi_elf, dwarf_cfi_addrframe */
#include <gelf.h>		/* gelf_getphdr */
#include <errno.h>
#include <inttypes.h>		/* PRIu64 */
#include <fcntl.h>		/* open */
#include <limits.h>		/* PATH_MAX */
#include <stdbool.h>
#include <stdio.h>		/* snprintf */
#include <stdlib.h>		/* calloc, free */
#include <string.h>		/* memcpy, strcmp */
#include <pthread.h>
#include <unistd.h>		/* close, pread */

#include "format/evlist.h"
#include "format/feature.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "format/record-ref.h"
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

/* What the unwinder remembers of a process's maps (struct maps.gen): whether
 * some map has a file perf can read (else perf sets up no unwinding for it). */
struct uw_proc {
	uint64_t gen;			/* the key; 0: free slot */
	bool any_file;
	uint64_t used;			/* the unwinder's clock at its last use */
};

/* The dsos' data files, opened once for all the unwinders that share them (a file
 * descriptor each, whatever the number of threads). */
struct uw_shared {
	pthread_mutex_t lock;
	struct uw_fd { const struct dso *dso; int fd; } *v;	/* owned; fd -1: none */
	size_t nr, cap;
	unsigned refs;			/* unwinders (under lock) */
};

/* A dso's data file: open for reads of code outside the stack copy, and its CFI. */
struct uw_file {
	const struct dso *dso;
	int fd;				/* the shared one; -1: none */
	bool elf_tried;			/* elf and cfi were looked for */
	Elf *elf;			/* owned; NULL: not an ELF file */
	Dwarf_CFI *cfi;			/* owned: its .eh_frame; NULL: none */
	bool exec;			/* ET_EXEC: loaded where its addresses say */
	uint64_t load_vaddr;		/* the first PT_LOAD's address, aligned down
					 * to its p_align (libdwfl's module start) */
	uint64_t load_end;		/* the end of the last PT_LOAD */
	uint64_t elf_base;		/* the first PT_LOAD's address, page-aligned
					 * (perf's elf_base_address()) */
};

struct unwinder {
	bool supported;			/* the recording's architecture is known */
	struct uw_proc procs[UW_PROCS];
	uint64_t clock;
	struct uw_shared *shared;	/* the open files (refcounted) */
	struct uw_file *files;		/* owned */
	size_t nr_files, cap_files;
	uint32_t *file_slots;		/* owned: files by dso, open addressing;
					 * index + 1, 0 empty */
	size_t cap_slots;		/* a power of two (or 0) */
	/* the sample being unwound (the callbacks' argument) */
	const struct maps *maps;
	const struct sample *s;
	uint64_t sp;
	bool nomem;			/* a file could not be remembered */
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

static void shared_put(struct uw_shared *sh)
{
	unsigned left;

	if (!sh)
		return;
	pthread_mutex_lock(&sh->lock);
	left = --sh->refs;
	pthread_mutex_unlock(&sh->lock);
	if (left)
		return;
	for (size_t i = 0; i < sh->nr; i++)
		if (sh->v[i].fd >= 0)
			close(sh->v[i].fd);
	free(sh->v);
	pthread_mutex_destroy(&sh->lock);
	free(sh);
}

/* The open data file of a dso, opened by the first unwinder that asks (-1: none);
 * -ENOMEM as -2. */
static int shared_fd(struct uw_shared *sh, const struct dso *dso)
{
	char path[PATH_MAX];
	int fd = -2;

	pthread_mutex_lock(&sh->lock);
	for (size_t i = 0; i < sh->nr; i++)
		if (sh->v[i].dso == dso) {
			fd = sh->v[i].fd;
			goto out;
		}
	if (array__grow(&sh->v, &sh->cap, sh->nr + 1, sizeof(*sh->v), 64))
		goto out;
	fd = dso__data_path(dso, path, sizeof(path)) ? open(path, O_RDONLY | O_CLOEXEC) : -1;
	sh->v[sh->nr++] = (struct uw_fd){ dso, fd };
out:
	pthread_mutex_unlock(&sh->lock);
	return fd;
}

int unwinder__new_sibling(struct unwinder **out, struct unwinder *first)
{
	int err = unwinder__new(out, NULL);

	if (err)
		return err;
	(*out)->supported = first->supported;
	shared_put((*out)->shared);
	pthread_mutex_lock(&first->shared->lock);
	first->shared->refs++;
	pthread_mutex_unlock(&first->shared->lock);
	(*out)->shared = first->shared;
	return 0;
}

int unwinder__new(struct unwinder **out, const char *arch)
{
	struct unwinder *u = calloc(1, sizeof(*u));

	*out = NULL;
	if (!u)
		return -ENOMEM;
	u->shared = calloc(1, sizeof(*u->shared));
	if (!u->shared || pthread_mutex_init(&u->shared->lock, NULL)) {
		free(u->shared);
		free(u);
		return -ENOMEM;
	}
	u->shared->refs = 1;
	(void)elf_version(EV_CURRENT);
#if defined(__x86_64__)
	u->supported = !arch || !strcmp(arch, "x86_64");
#else
	u->supported = arch && !strcmp(arch, "x86_64");
#endif
	*out = u;
	return 0;
}

static void file_close(struct uw_file *f)
{
	if (f->cfi)
		dwarf_cfi_end(f->cfi);
	if (f->elf)
		elf_end(f->elf);
}

void unwinder__delete(struct unwinder *u)
{
	if (!u)
		return;
	for (size_t i = 0; i < u->nr_files; i++)
		file_close(&u->files[i]);
	free(u->files);
	free(u->file_slots);
	shared_put(u->shared);
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

void unwinder__add_counts(struct unwinder *u, const struct unwinder *from)
{
	u->tried += from->tried;
	u->unwound += from->unwound;
}

bool unwinder__warning(const struct unwinder *u, const char *arch, char *buf,
		       size_t len)
{
	if (!u->tried || u->unwound)
		return false;
	if (!u->supported)
		snprintf(buf, len, "none of the %" PRIu64 " user stacks of --call-graph "
			 "dwarf samples could be unwound: the recording's architecture %s "
			 "is not supported (x86_64 is)", u->tried, arch ? arch : "(unknown)");
	else
		snprintf(buf, len, "none of the %" PRIu64 " user stacks of --call-graph "
			 "dwarf samples could be unwound: the files their processes ran "
			 "(their .eh_frame) are not here", u->tried);
	return true;
}

static size_t slot_of(const struct dso *dso, size_t cap)
{
	uint64_t h = (uint64_t)(uintptr_t)dso * 0x9e3779b97f4a7c15ULL;

	return (size_t)(h >> 32) & (cap - 1);
}

static int slots_grow(struct unwinder *u)
{
	size_t cap = u->cap_slots ? u->cap_slots * 2 : 64;
	uint32_t *v = calloc(cap, sizeof(*v));

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < u->nr_files; i++) {
		size_t at = slot_of(u->files[i].dso, cap);

		while (v[at])
			at = (at + 1) & (cap - 1);
		v[at] = (uint32_t)i + 1;
	}
	free(u->file_slots);
	u->file_slots = v;
	u->cap_slots = cap;
	return 0;
}

/* The data file of a dso, opened on first use (its CFI is read later, when a step
 * needs it: file_cfi()); NULL only without memory. */
static struct uw_file *file_of(struct unwinder *u, const struct dso *dso)
{
	struct uw_file *f;
	size_t at;

	if (u->cap_slots) {
		for (at = slot_of(dso, u->cap_slots); u->file_slots[at];
		     at = (at + 1) & (u->cap_slots - 1))
			if (u->files[u->file_slots[at] - 1].dso == dso)
				return &u->files[u->file_slots[at] - 1];
	}
	if (((u->nr_files + 1) * 2 > u->cap_slots && slots_grow(u)) ||
	    array__grow(&u->files, &u->cap_files, u->nr_files + 1, sizeof(*u->files), 16)) {
		u->nomem = true;
		return NULL;
	}
	f = &u->files[u->nr_files];
	*f = (struct uw_file){ .dso = dso, .fd = shared_fd(u->shared, dso) };
	if (f->fd == -2) {
		u->nomem = true;
		return NULL;
	}
	for (at = slot_of(dso, u->cap_slots); u->file_slots[at];
	     at = (at + 1) & (u->cap_slots - 1))
		;
	u->file_slots[at] = (uint32_t)++u->nr_files;
	return f;
}

/*
 * The file's .eh_frame CFI and load addresses, read once (libdw: dwarf_getcfi_elf()).
 * The addresses are those libdwfl gives a module reported at a base address: an
 * ET_EXEC file sits where its addresses say, any other is moved by the base less its
 * first PT_LOAD's address aligned down to p_align.
 */
static const struct uw_file *file_cfi(struct uw_file *f)
{
	size_t nph = 0;
	GElf_Ehdr eh;
	bool first = true;

	if (f->elf_tried)
		return f->cfi ? f : NULL;
	f->elf_tried = true;
	if (f->fd < 0)
		return NULL;
	f->elf = elf_begin(f->fd, ELF_C_READ_MMAP, NULL);
	if (!f->elf || elf_kind(f->elf) != ELF_K_ELF || !gelf_getehdr(f->elf, &eh) ||
	    elf_getphdrnum(f->elf, &nph))
		return NULL;
	f->exec = eh.e_type == ET_EXEC;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(f->elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (first) {
			f->load_vaddr = ph.p_vaddr & -(ph.p_align ? ph.p_align : 1);
			f->elf_base = ph.p_vaddr & ~(uint64_t)4095;
			first = false;
		}
		if (ph.p_vaddr + ph.p_memsz > f->load_end)
			f->load_end = ph.p_vaddr + ph.p_memsz;
	}
	if (first)
		return NULL;
	f->cfi = dwarf_getcfi_elf(f->elf);
	return f->cfi ? f : NULL;
}

/* perf's access_dso_mem(): 8 bytes of the file mapped at addr. */
static bool read_dso_mem(struct unwinder *u, uint64_t addr, uint64_t *val)
{
	const struct map *map = maps__find(u->maps, addr);
	const struct uw_file *f;

	if (!map || !map->dso)
		return false;
	f = file_of(u, map->dso);
	if (!f || f->fd < 0)
		return false;
	return pread(f->fd, val, 8, (off_t)(addr - map->start + map->pgoff)) == 8;
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

/*
 * Whether some map of the process has a file perf can read: perf's
 * unwind__prepare_access() needs one to tell the ELF class (dso__type()), and a
 * process without one gets no user frames at all.  Remembered per maps generation.
 */
static bool proc_any_file(struct unwinder *u, const struct maps *mp)
{
	char path[PATH_MAX];
	struct uw_proc *p = NULL, *lru = &u->procs[0];

	for (size_t i = 0; i < UW_PROCS && !p; i++) {
		if (u->procs[i].gen == mp->gen)
			p = &u->procs[i];
		else if (u->procs[i].used < lru->used)
			lru = &u->procs[i];
	}
	if (!p) {
		p = lru;
		p->gen = mp->gen;
		p->any_file = false;
		for (size_t i = 0; i < mp->nr && !p->any_file; i++)
			p->any_file = mp->v[i].dso &&
				      dso__data_path(mp->v[i].dso, path, sizeof(path));
	}
	p->used = ++u->clock;
	return p->any_file;
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
static int find_frame(struct unwinder *u, uint64_t ip, Dwarf_Frame **frame)
{
	const struct maps *mp = u->maps;
	const struct map *m = maps__find(mp, ip);
	uint64_t lowest = UINT64_MAX, bias;
	struct uw_file *uf;
	const struct uw_file *f;

	if (!m || !m->dso)
		return STEP_ERR;
	uf = file_of(u, m->dso);
	f = uf ? file_cfi(uf) : NULL;
	if (!f)
		return STEP_ERR;
	/* where libdwfl would put the file reported at this map's base; an address
	 * outside its PT_LOAD span is in no module */
	bias = f->exec ? 0 : m->start - m->pgoff - f->load_vaddr;
	if (ip - bias < f->load_vaddr || ip - bias >= f->load_end)
		return STEP_ERR;
	for (size_t i = 0; i < mp->nr; i++)
		if (mp->v[i].dso == m->dso && mp->v[i].start < lowest)
			lowest = mp->v[i].start;
	if (lowest - f->elf_base != bias)
		return STEP_NOINFO;
	if (dwarf_cfi_addrframe(f->cfi, ip - bias, frame))
		return STEP_NOINFO;
	return STEP_OK;
}

/* libunwind's dwarf_step(): apply the CFI row of the cursor's ip. */
static int dwarf_step(struct unwinder *u, struct uw_cursor *c)
{
	uint64_t lookup = c->ip - (c->use_prev_instr ? 1 : 0), cfa, prev_ip = c->ip;
	uint64_t prev_cfa = c->cfa;
	struct uw_loc next[UW_NREGS];
	Dwarf_Frame *frame = NULL;
	Dwarf_Op ops_mem[3], *ops;
	size_t nops;
	bool signal = false;
	int ret = find_frame(u, lookup, &frame);

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
static int step(struct unwinder *u, struct uw_cursor *c)
{
	uint64_t prev_ip = c->ip, prev_cfa = c->cfa, w0, w1, rbp;
	int ret = dwarf_step(u, c);

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

int unwinder__unwind(struct unwinder *u, const struct maps *mp, const struct sample *s,
		     uint64_t *ips, size_t max, size_t *nr)
{
	struct uw_cursor c = { .use_prev_instr = false };
	uint64_t ip, val;
	size_t n = 0;

	*nr = 0;
	if (!s->user_regs || !s->user_stack_size || !s->user_stack_dyn_size || !max)
		return 0;
	if (!sample_reg(s, X86_64_REG_IP, &ip))
		return 0;
	u->tried++;
	if (mp && !proc_any_file(u, mp))
		return 0;
	ips[n++] = ip;
	*nr = n;
	if (!u->supported || s->user_regs_abi != REGS_ABI_64 || !mp ||
	    !sample_reg(s, X86_64_REG_SP, &u->sp) || max < 2)
		return 0;
	u->maps = mp;
	u->s = s;
	u->nomem = false;
	for (unsigned r = 0; r < UW_NREGS; r++)
		if (r != DW_RIP && sample_reg(s, x86_64_regs[r], &val))
			c.loc[r] = (struct uw_loc){ LOC_REG, val };
	c.cfa = u->sp;
	c.ip = ip;
	/* perf's get_entries(): each step's ip, less one but in signal frames */
	while (n < max && step(u, &c) == STEP_OK)
		ips[n++] = c.signal ? c.ip : c.ip - 1;
	/* perf keeps every address but 0 */
	*nr = 0;
	for (size_t i = 0; i < n; i++)
		if (ips[i])
			ips[(*nr)++] = ips[i];
	if (*nr > 1)
		u->unwound++;
	u->maps = NULL;
	u->s = NULL;
	return u->nomem ? -ENOMEM : 0;
}
