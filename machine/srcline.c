/*
 * srcline - perf's srcline/srcfile texts, from DWARF line tables read with libdw.
 */
#include "machine/srcline.h"

#include <dwarf.h>		/* DW_AT_*, DW_TAG_* */
#include <elfutils/libdw.h>	/* dwarf_* */
#include <elfutils/libdwfl.h>	/* dwfl_* */
#include <errno.h>
#include <gelf.h>		/* gelf_getehdr, gelf_getshdr */
#include <inttypes.h>		/* PRIu64, PRIx64 */
#include <limits.h>		/* PATH_MAX */
#include <stdio.h>		/* snprintf */
#include <stdlib.h>		/* calloc, free, malloc */
#include <string.h>		/* memcpy, strcmp, strlen, strrchr */

#include "machine/dso.h"
#include "machine/symbol.h"
#include "util/hashtab.h"
#include "util/strtab.h"
#include "util/array.h"
#include "banned.h"

/* perf's SRCLINE_UNKNOWN */
#define SRCLINE_UNKNOWN "??:0"
/* addr2line's file name when it knows none */
#define SRCLINE_UNKNOWN_FILE "??"

/* One ELF file looked up: its dwfl session (NULL when it cannot be read). */
struct sl_file {
	char *path;			/* owned */
	Dwfl *dwfl;			/* owned; NULL: no lines */
	Dwfl_Module *mod;		/* borrowed from dwfl */
	uint64_t text_off;		/* ET_EXEC: .text sh_addr - sh_offset */
};

/* A remembered answer: (dso, ip, which) -> text. */
struct sl_memo {
	const struct dso *dso;
	uint64_t ip;
	int which;			/* 2/3 callchain with/without the address
					 * fallbacks, 4 the lookup (text: the file) */
	int line;			/* 4: the line */
	const char *text;		/* interned; NULL: empty slot */
	bool none;			/* the answer is "no text" */
};

/* perf's per-dso addr2line state. */
struct sl_dso {
	const struct dso *dso;		/* NULL: empty slot */
	uint32_t fails;
	bool disabled;			/* perf's has_srcline = 0 */
};

struct srclines {
	struct sl_dso *dsos;		/* open addressing */
	size_t nr_dsos, cap_dsos;
	struct sl_file *files;		/* owned, by path (linear: few files) */
	size_t nr_files, cap_files;
	struct sl_memo *memo;		/* open addressing */
	size_t nr_memo, cap_memo;
	struct strtab strs;		/* the texts handed out, interned */
};

static uint64_t mix(uint64_t x)
{
	x ^= x >> 31;
	x *= 0x9E3779B97F4A7C15ULL;
	return x ^ (x >> 29);
}

int srclines__new(struct srclines **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void srclines__delete(struct srclines *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_files; i++) {
		free(s->files[i].path);
		if (s->files[i].dwfl)
			dwfl_end(s->files[i].dwfl);
	}
	strtab__exit(&s->strs);
	free(s->files);
	free(s->dsos);
	free(s->memo);
	free(s);
}

/* The interned copy of text; NULL on ENOMEM. */
static const char *intern(struct srclines *s, const char *text)
{
	return strtab__intern(&s->strs, text);
}

static const Dwfl_Callbacks offline_callbacks = {
	.find_elf = dwfl_build_id_find_elf,
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* perf's text_offset of an ET_EXEC file: .text's address minus its file offset. */
static uint64_t exec_text_offset(Dwfl_Module *mod)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(mod, &bias);
	GElf_Ehdr eh;
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (!elf || !gelf_getehdr(elf, &eh) || eh.e_type != ET_EXEC ||
	    elf_getshdrstrndx(elf, &shstrndx))
		return 0;
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		const char *name;

		if (!gelf_getshdr(scn, &sh))
			continue;
		name = elf_strptr(elf, shstrndx, sh.sh_name);
		if (name && !strcmp(name, ".text"))
			return sh.sh_addr - sh.sh_offset;
	}
	return 0;
}

/* The file's dwfl session, opened on first use; NULL on ENOMEM. */
static struct sl_file *file_of(struct srclines *s, const char *path)
{
	struct sl_file *f;

	for (size_t i = 0; i < s->nr_files; i++)
		if (!strcmp(s->files[i].path, path))
			return &s->files[i];
	if (array__grow(&s->files, &s->cap_files, s->nr_files + 1, sizeof(*s->files), 16))
		return NULL;
	f = &s->files[s->nr_files];
	*f = (struct sl_file){ .path = strdup(path) };
	if (!f->path)
		return NULL;
	s->nr_files++;
	f->dwfl = dwfl_begin(&offline_callbacks);
	if (!f->dwfl)
		return f;
	dwfl_report_begin(f->dwfl);
	f->mod = dwfl_report_offline(f->dwfl, "", path, -1);
	dwfl_report_end(f->dwfl, NULL, NULL);
	if (!f->mod) {
		dwfl_end(f->dwfl);
		f->dwfl = NULL;
		return f;
	}
	f->text_off = exec_text_offset(f->mod);
	return f;
}

/*
 * binutils 2.40 (the addr2line perf 6.1 runs here) starts every line sequence of a
 * DWARF 5 table with the name of file entry 0 instead of entry 1 (the initial file
 * register): rows before the sequence's first file change name the primary source
 * file.  Whether the row found is such a row: no row of its sequence up to it names
 * another file than entry 1.
 */
static bool initial_file_row(Dwarf_Die *cu, Dwarf_Line *row)
{
	Dwarf_Lines *lines;
	Dwarf_Half version = 0;
	size_t n, i;

	if (dwarf_cu_info(cu->cu, &version, NULL, NULL, NULL, NULL, NULL, NULL) ||
	    version < 5 || dwarf_getsrclines(cu, &lines, &n))
		return false;
	for (i = 0; i < n && dwarf_onesrcline(lines, i) != row; i++)
		;
	if (i == n)
		return false;
	for (size_t k = i + 1; k-- > 0;) {
		Dwarf_Line *x = dwarf_onesrcline(lines, k);
		Dwarf_Files *files;
		size_t idx;
		bool end = false;

		if (k != i && !dwarf_lineendsequence(x, &end) && end)
			break;		/* the sequence before */
		if (dwarf_line_file(x, &files, &idx) || idx != 1)
			return false;
	}
	return true;
}

/* The section index of the allocated section holding addr, or 0. */
static size_t section_of(Elf *elf, uint64_t addr)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_ALLOC) &&
		    addr >= sh.sh_addr && addr - sh.sh_addr < sh.sh_size)
			return elf_ndxscn(scn);
	}
	return 0;
}

/*
 * Without a line row, binutils names the file of the ELF symbol table instead (its
 * elf_find_function): the function-like symbol (FUNC, IFUNC, NOTYPE) of addr's
 * section with the highest address not above addr (larger size on ties), and the
 * STT_FILE symbol before it when the function is local or no other symbol came
 * between that file symbol and the previous one; the line is then unknown (0).
 * NULL when there is none.  *func (when func is not NULL) receives that symbol's
 * name, NULL without one.
 */
static const char *symtab_best(Dwfl_Module *mod, uint64_t addr, const char **func)
{
	GElf_Addr ebias;
	Elf *elf = dwfl_module_getelf(mod, &ebias);
	int nsyms = dwfl_module_getsymtab(mod);
	const char *file = NULL, *best_file = NULL;
	uint64_t best = 0, best_size = 0;
	bool found = false, sym_seen = false, file_after_sym = false;
	size_t scn = elf ? section_of(elf, addr) : 0;

	if (func)
		*func = NULL;
	if (!scn || nsyms <= 0)
		return NULL;
	for (int i = 1; i < nsyms; i++) {
		GElf_Sym sym;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym(mod, i, &sym, &shndx);
		int type = GELF_ST_TYPE(sym.st_info);
		uint64_t value;

		if (!name)
			continue;
		if (type == STT_FILE) {
			file = name;
			file_after_sym = sym_seen;
			continue;
		}
		sym_seen = true;
		if ((type != STT_FUNC && type != STT_GNU_IFUNC && type != STT_NOTYPE) ||
		    shndx != scn)
			continue;
		value = sym.st_value - ebias;
		if (value > addr || (found && (value < best ||
					       (value == best && sym.st_size <= best_size))))
			continue;
		found = true;
		best = value;
		best_size = sym.st_size;
		if (func)
			*func = name;
		best_file = file && (GELF_ST_BIND(sym.st_info) == STB_LOCAL || !file_after_sym)
			    ? file : NULL;
	}
	return found ? best_file : NULL;
}

int srclines__lookup(struct srclines *s, const char *path, uint64_t addr,
		     const char **file, int *line)
{
	struct sl_file *f = file_of(s, path);
	Dwarf_Addr bias = 0;
	Dwfl_Line *l;
	const char *name;
	int lineno = 0;

	if (!f)
		return -ENOMEM;
	if (!f->dwfl)
		return -ENOENT;
	(void)dwfl_module_getdwarf(f->mod, &bias);	/* no DWARF: the symtab below */
	l = dwfl_module_getsrc(f->mod, addr + bias);
	if (!l) {
		const char *func;

		/*
		 * addr2line: "FILE:?" when a symbol holds the address (the file from the
		 * symbol table, "??" without one: "??:?"), which perf reads as FILE, line 0
		 * (a found line: only "??:0", no symbol, is a failure)
		 */
		name = symtab_best(f->mod, addr, &func);
		if (!name && func)
			name = SRCLINE_UNKNOWN_FILE;
		lineno = 0;
	} else {
		Dwarf_Addr lbias;
		Dwarf_Line *row = dwfl_dwarf_line(l, &lbias);
		Dwarf_Die *cu = dwfl_linecu(l);
		Dwarf_Files *files;
		size_t idx;

		name = dwfl_lineinfo(l, NULL, &lineno, NULL, NULL, NULL);
		if (row && cu && initial_file_row(cu, row) &&
		    !dwarf_line_file(row, &files, &idx))
			name = dwarf_filesrc(files, 0, NULL, NULL);
	}
	/* addr2line's "??": perf then falls back to the symbol */
	if (!name)
		return -ENOENT;
	*file = intern(s, name);
	*line = lineno < 0 ? 0 : lineno;
	return *file ? 0 : -ENOMEM;
}

/* The file perf hands to addr2line for a dso (its dso__name()), or NULL. */
static const char *dso_file(const struct dso *dso)
{
	const char *name = dso->symsrc_path ? dso->symsrc_path : dso__long_name(dso);

	if (dso->kind != DSO_KIND_USER || name[0] == '[')
		return NULL;
	return name;
}

/* perf's map__rip_2objdump() for user dsos: ET_EXEC files add .text's offset. */
static uint64_t objdump_addr(struct srclines *s, const char *path, uint64_t ip)
{
	struct sl_file *f = path ? file_of(s, path) : NULL;

	return f ? ip + f->text_off : ip;
}

/* "FILE:LINE" / FILE of an address, or -ENOENT / -ENOMEM. */
static int file_line(struct srclines *s, struct dso *dso, uint64_t addr, const char **file,
		     int *line)
{
	const char *path = dso_file(dso);

	if (!path)
		return -ENOENT;
	return srclines__lookup(s, path, addr, file, line);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static uint64_t memo_key(const struct dso *dso, uint64_t ip, int which)
{
	return mix((uintptr_t)dso ^ mix(ip) ^ (uint64_t)which);
}

static uint64_t memo_hash(const void *ctx, const void *slot)
{
	const struct sl_memo *m = slot;

	(void)ctx;
	return memo_key(m->dso, m->ip, m->which);
}

/* A remembered answer, or the slot to fill; NULL on ENOMEM. */
static struct sl_memo *memo_slot(struct srclines *s, const struct dso *dso, uint64_t ip,
				 int which)
{
	size_t i;

	if (hashtab__reserve(&s->memo, &s->cap_memo, s->nr_memo, sizeof(*s->memo), 1024,
			     memo_hash, NULL))
		return NULL;
	i = hashtab__first(memo_key(dso, ip, which), s->cap_memo);
	for (; s->memo[i].text; i = hashtab__next(i, s->cap_memo)) {
		const struct sl_memo *m = &s->memo[i];

		if (m->dso == dso && m->ip == ip && m->which == which)
			break;
	}
	return &s->memo[i];
}

static uint64_t dso_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return mix((uintptr_t)((const struct sl_dso *)slot)->dso);
}

/* perf's addr2line failure limit (A2L_FAIL_LIMIT): a dso whose first lookups all
 * fail is not asked again after this many. */
#define A2L_FAIL_LIMIT 123

/* The failure count of a dso (perf's dso->a2l_fails, 1 at first, 0 once a lookup
 * succeeded: then never counted again); NULL on ENOMEM. */
static struct sl_dso *dso_state(struct srclines *s, const struct dso *dso)
{
	size_t i;

	if (hashtab__reserve(&s->dsos, &s->cap_dsos, s->nr_dsos, sizeof(*s->dsos), 64,
			     dso_hash, NULL))
		return NULL;
	for (i = hashtab__first(mix((uintptr_t)dso), s->cap_dsos); s->dsos[i].dso;
	     i = hashtab__next(i, s->cap_dsos))
		if (s->dsos[i].dso == dso)
			return &s->dsos[i];
	s->dsos[i] = (struct sl_dso){ .dso = dso, .fails = 1 };
	s->nr_dsos++;
	return &s->dsos[i];
}

/*
 * One of perf's get_srcline() calls: the line of addr (objdump address) in dso, with
 * perf's failure accounting (after A2L_FAIL_LIMIT failures before any success it
 * stops asking).  0 with *file, *line; -ENOENT; -ENOMEM.
 */
static int ask(struct srclines *s, struct dso *dso, uint64_t addr, const char **file,
	       int *line)
{
	struct sl_dso *st = dso_state(s, dso);
	struct sl_memo *m;
	int err = -ENOENT;

	if (!st)
		return -ENOMEM;
	if (!st->disabled && dso_file(dso)) {
		m = memo_slot(s, dso, addr, 4);
		if (!m)
			return -ENOMEM;
		if (!m->text) {
			const char *f = NULL;
			int l = 0;

			err = file_line(s, dso, addr, &f, &l);
			if (err == -ENOMEM)
				return err;
			/* file_line() does not touch the memo table: m is valid */
			m->text = err ? "" : f;
			m->line = l;
			m->none = err != 0;
			m->dso = dso;
			m->ip = addr;
			m->which = 4;
			s->nr_memo++;
		}
		err = m->none ? -ENOENT : 0;
		*file = m->text;
		*line = m->line;
	}
	if (!err)
		st->fails = 0;
	else if (st->fails && ++st->fails > A2L_FAIL_LIMIT)
		st->disabled = true;
	return err;
}

/* The text of one key (which: 0 srcline, 1 srcfile); every call is one of perf's
 * lookups (not remembered: perf computes each entry's own). */
static const char *resolve(struct srclines *s, struct dso *dso, const struct symbol *sym,
			   uint64_t ip, int which)
{
	const char *file = NULL;
	char buf[4096];
	uint64_t addr = objdump_addr(s, dso_file(dso), ip);
	int line = 0, err = ask(s, dso, addr, &file, &line);

	if (err == -ENOMEM)
		return NULL;
	/* perf's srcfile: "" for a text of "??:0" (a symbol without a file) */
	if (which == 1)
		return intern(s, err || (line == 0 && !strcmp(base_name(file),
							    SRCLINE_UNKNOWN_FILE))
				 ? "" : base_name(file));
	if (!err)
		snprintf(buf, sizeof(buf), "%s:%d", base_name(file), line);
	else if (sym)
		snprintf(buf, sizeof(buf), "%s+%" PRIu64, symbol__name(sym), ip - sym->start);
	else
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso__short_name(dso), addr);
	return intern(s, buf);
}

/* perf's callchain_srcline(): one lookup per (dso, address), remembered. */
const char *srclines__callchain(struct srclines *s, struct dso *dso,
				const struct symbol *sym, uint64_t addr, bool show_addr,
				int *err)
{
	struct sl_memo *m;
	const char *file = NULL, *text;
	char buf[4096];
	uint64_t oaddr;
	int line = 0, e;

	*err = 0;
	if (!dso)
		return NULL;
	m = memo_slot(s, dso, addr, show_addr ? 2 : 3);
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	if (m->text)
		return m->none ? NULL : m->text;
	oaddr = objdump_addr(s, dso_file(dso), addr);
	e = ask(s, dso, oaddr, &file, &line);
	if (e == -ENOMEM) {
		*err = e;
		return NULL;
	}
	if (!e)
		snprintf(buf, sizeof(buf), "%s:%d", base_name(file), line);
	else if (show_addr && sym)
		snprintf(buf, sizeof(buf), "+%" PRIu64, addr - sym->start);
	else if (show_addr)
		snprintf(buf, sizeof(buf), "%s[%" PRIx64 "]", dso__short_name(dso), oaddr);
	text = intern(s, e && !show_addr ? "" : buf);
	/* ask() may have grown the memo table: find the slot again */
	m = text ? memo_slot(s, dso, addr, show_addr ? 2 : 3) : NULL;
	if (!m) {
		*err = -ENOMEM;
		return NULL;
	}
	m->dso = dso;
	m->ip = addr;
	m->which = show_addr ? 2 : 3;
	m->text = text;
	m->none = e && !show_addr;
	s->nr_memo++;
	return m->none ? NULL : text;
}

const char *srclines__line(struct srclines *s, struct dso *dso, const struct symbol *sym,
			   uint64_t ip)
{
	if (!dso)
		return intern(s, SRCLINE_UNKNOWN);
	return resolve(s, dso, sym, ip, 0);
}

const char *srclines__file(struct srclines *s, struct dso *dso, const struct symbol *sym,
			   uint64_t ip)
{
	if (!dso)
		return intern(s, "");
	return resolve(s, dso, sym, ip, 1);
}

/* ---- inlined functions (perf's dso__parse_addr_inlines) -------------------------- */

/* A function DIE's name as binutils takes it: the linkage name (mangled C++, perf
 * demangles it) when there is one, else DW_AT_name, through abstract origins and
 * specifications.  *linkage says which. */
static const char *die_function_name(Dwarf_Die *die, bool *linkage)
{
	Dwarf_Attribute a;
	const char *name;

	*linkage = true;
	if ((dwarf_attr_integrate(die, DW_AT_linkage_name, &a) ||
	     dwarf_attr_integrate(die, DW_AT_MIPS_linkage_name, &a)) &&
	    (name = dwarf_formstring(&a)))
		return name;
	*linkage = false;
	return dwarf_attr_integrate(die, DW_AT_name, &a) ? dwarf_formstring(&a) : NULL;
}

/* The length of the range of a function DIE that holds addr (0: none). */
static uint64_t range_len(Dwarf_Die *die, uint64_t addr)
{
	Dwarf_Addr base, start, end;
	ptrdiff_t off = 0;

	while ((off = dwarf_ranges(die, off, &base, &start, &end)) > 0)
		if (addr >= start && addr < end)
			return end - start;
	return 0;
}

/*
 * binutils' choice among the CU's functions holding addr (its
 * lookup_address_in_function_table()): the smallest range, the last DIE on ties
 * (assembler CUs have a DIE per symbol, aliases included).  *die is the one
 * dwarf_getscopes() found; it is replaced by a later top-level one of the same size.
 */
static void last_equal_function(Dwarf_Die *cu, uint64_t addr, Dwarf_Die *die)
{
	uint64_t len = range_len(die, addr);
	Dwarf_Die child;

	if (!len || dwarf_child(cu, &child))
		return;
	do {
		if (dwarf_tag(&child) == DW_TAG_subprogram &&
		    dwarf_dieoffset(&child) > dwarf_dieoffset(die) &&
		    range_len(&child, addr) == len)
			*die = child;
	} while (!dwarf_siblingof(&child, &child));
}

/* Append one record "NAME\tFILE:LINE" to the '\n'-joined list; -ENOMEM. */
static int put_name(char **p, size_t *len, size_t *cap, const char *name, const char *where)
{
	size_t n = strlen(name), w = strlen(where);

	if (array__grow(p, cap, *len + n + w + 3, 1, 256))
		return -ENOMEM;
	if (*len)
		(*p)[(*len)++] = '\n';
	memcpy(*p + *len, name, n);
	*len += n;
	(*p)[(*len)++] = '\t';
	memcpy(*p + *len, where, w);
	*len += w;
	(*p)[*len] = '\0';
	return 0;
}

/* "FILE:LINE" of an inlined instance's call (DW_AT_call_file, DW_AT_call_line), the
 * file without its directories; "??:0" when unknown. */
static void call_site(Dwarf_Die *inst, char *where, size_t size)
{
	Dwarf_Attribute a;
	Dwarf_Word fi = 0, line = 0;
	Dwarf_Die cu;
	Dwarf_Files *files;
	size_t nfiles;
	const char *file = NULL;

	if (dwarf_attr(inst, DW_AT_call_file, &a) && !dwarf_formudata(&a, &fi) &&
	    dwarf_diecu(inst, &cu, NULL, NULL) && !dwarf_getsrcfiles(&cu, &files, &nfiles) &&
	    fi < nfiles)
		file = dwarf_filesrc(files, fi, NULL, NULL);
	if (dwarf_attr(inst, DW_AT_call_line, &a))
		(void)dwarf_formudata(&a, &line);
	snprintf(where, size, "%s:%u", file ? base_name(file) : "??", (unsigned)line);
}

/*
 * The records addr2line -f -i prints for addr of file f (binutils 2.40), each
 * "NAME\tFILE:LINE" (perf's inline_list: the name and srcline_from_fileline()),
 * joined by '\n' (interned), or "" when it prints "??".  The innermost function at
 * addr with the address's line, then for each inlined instance the function it was
 * inlined into with the place of that call, up to the subprogram.  A function is
 * named by its linkage name (a C declaration with an asm label has one), else
 * DW_AT_name.
 */
static const char *inline_text(struct srclines *s, struct sl_file *f, uint64_t addr)
{
	Dwarf_Addr bias = 0, cubias = 0;
	Dwarf_Die *cu, *scopes = NULL;
	char *out = NULL, where[PATH_MAX + 32];
	size_t len = 0, cap = 0;
	const char *text = "";
	int n, i = 0, err = 0;

	if (!f->dwfl)
		return "";
	(void)dwfl_module_getdwarf(f->mod, &bias);
	cu = dwfl_module_addrdie(f->mod, addr + bias, &cubias);
	if (!cu) {
		/* no line: addr2line names the ELF symbol before the address (its
		 * elf_find_function(), even past the symbol's end) with "??:0";
		 * perf keeps that record unless the name is "??" too */
		const char *func;
		char *dem;

		(void)symtab_best(f->mod, addr, &func);
		if (!func)
			return "";
		dem = symbol__demangle(func);	/* perf's new_inline_sym() demangles */
		err = put_name(&out, &len, &cap, dem ? dem : func, "??:0");
		free(dem);
		text = err ? NULL : intern(s, out);
		free(out);
		return text;
	}
	/* the innermost record's place: the address's line (addr2line's first) */
	{
		const char *file = NULL;
		int line = 0;

		int e = dwfl_module_getsrc(f->mod, addr + bias) ?
			srclines__lookup(s, f->path, addr, &file, &line) : -ENOENT;

		if (e == -ENOMEM)
			return NULL;
		/* a CU without a line for the address: addr2line prints ":?" */
		snprintf(where, sizeof(where), "%s:%d", e ? "" : base_name(file), e ? 0 : line);
	}
	n = dwarf_getscopes(cu, addr + bias - cubias, &scopes);
	while (i < n && !err) {
		int tag = dwarf_tag(&scopes[i]);
		const char *name;
		char *dem = NULL;
		bool linkage;

		if (tag != DW_TAG_subprogram && tag != DW_TAG_inlined_subroutine) {
			i++;
			continue;
		}
		if (tag == DW_TAG_subprogram && i + 1 < n &&
		    dwarf_tag(&scopes[i + 1]) == DW_TAG_compile_unit)
			last_equal_function(cu, addr + bias - cubias, &scopes[i]);
		name = die_function_name(&scopes[i], &linkage);
		if (linkage && name)
			dem = symbol__demangle(name);
		err = put_name(&out, &len, &cap, dem ? dem : name ? name : "??", where);
		free(dem);
		if (tag == DW_TAG_subprogram)
			break;
		/* the next record's place: where this instance was inlined */
		call_site(&scopes[i], where, sizeof(where));
		/* the scopes the instance was inlined into (its concrete parents) */
		{
			Dwarf_Die *up = NULL;
			int m = dwarf_getscopes_die(&scopes[i], &up);

			free(scopes);
			scopes = up;
			n = m;
			i = 1;
		}
	}
	free(scopes);
	if (err) {
		free(out);
		return NULL;
	}
	if (len)
		text = intern(s, out);
	free(out);
	return text;
}

size_t srclines__inline_records(const char *text, struct inline_record *out, size_t max)
{
	size_t n = 0;

	while (text && *text && n < max) {
		const char *nl = strchr(text, '\n'), *end = nl ? nl : text + strlen(text);
		const char *tab = memchr(text, '\t', (size_t)(end - text));

		out[n].name = text;
		out[n].name_len = (size_t)((tab ? tab : end) - text);
		out[n].where = tab ? tab + 1 : end;
		out[n].where_len = (size_t)(end - out[n].where);
		n++;
		text = nl ? nl + 1 : NULL;
	}
	return n;
}

int srclines__prepare_file(struct srclines *s, const char *path)
{
	struct sl_file *f = file_of(s, path);
	Dwarf_Addr bias = 0, cubias;

	if (!f)
		return -ENOMEM;
	if (f->dwfl && dwfl_module_getdwarf(f->mod, &bias))
		/* the first address lookup reads the address ranges of every CU */
		(void)dwfl_module_addrdie(f->mod, bias, &cubias);
	return 0;
}

int srclines__prepare(struct srclines *s, const struct dso *dso)
{
	const char *path = dso_file(dso);

	return path ? srclines__prepare_file(s, path) : 0;
}

const char *srclines__inlines(struct srclines *s, struct dso *dso, uint64_t addr)
{
	const char *path = dso_file(dso);
	uint64_t oaddr;
	struct sl_memo *m;
	struct sl_file *f;

	if (!path)
		return "";
	oaddr = objdump_addr(s, path, addr);
	m = memo_slot(s, dso, oaddr, 5);
	if (!m)
		return NULL;
	if (m->text)
		return m->text;
	f = file_of(s, path);
	if (!f)
		return NULL;
	m = memo_slot(s, dso, oaddr, 5);	/* file_of() may not move it, but be sure */
	if (!m || !(m->text = inline_text(s, f, oaddr))) {
		if (m)
			m->text = NULL;
		return NULL;
	}
	m->dso = dso;
	m->ip = oaddr;
	m->which = 5;
	s->nr_memo++;
	return m->text;
}
