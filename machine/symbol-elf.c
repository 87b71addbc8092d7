/*
 * symbol-elf - symbol tables read from ELF files through libelf, as perf 6.1 reads
 * them: a file opened and checked against its build-id (symsrc__open()), .symtab or
 * .dynsym's functions and objects (adjusted by the program headers where perf does),
 * the .plt's entries synthesized from the relocations (symtab__load_elf()).
 */
#define DIRREPORT_IN_MACHINE
#include "machine/symbol.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <gelf.h>	/* GElf_*, gelf_getsym, gelf_getshdr, gelf_getphdr */
#include <elfutils/libdwelf.h>	/* dwelf_elf_gnu_build_id */
#include <pthread.h>	/* pthread_once */
#include <stdlib.h>	/* free, malloc */
#include <string.h>	/* memcmp, memcpy, memset, strcmp, strdup, strlen, strstr */
#include <unistd.h>	/* close */
#include "banned.h"

/* ------------------------------------------------------------------------ */
/* ELF                                                                       */
/* ------------------------------------------------------------------------ */

static pthread_once_t elf_once = PTHREAD_ONCE_INIT;

static void elf_init(void)
{
	elf_version(EV_CURRENT);
}

static int symsrc_check(struct symsrc *ss, const uint8_t *build_id, size_t bid_size)
{
	GElf_Ehdr ehdr;
	size_t shstrndx, nsec = 0;

	if (elf_kind(ss->elf) != ELF_K_ELF || !gelf_getehdr(ss->elf, &ehdr))
		return -ENOEXEC;
	if (build_id) {
		const void *note;
		ssize_t n = dwelf_elf_gnu_build_id(ss->elf, &note);

		if (n <= 0 || (size_t)n != bid_size || memcmp(note, build_id, bid_size))
			return -ESTALE;
	}
	if (elf_getshdrstrndx(ss->elf, &shstrndx) || elf_getshdrnum(ss->elf, &nsec))
		return 0;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(ss->elf, i);
		GElf_Shdr sh;
		const char *nm;

		if (!scn || !gelf_getshdr(scn, &sh))
			continue;
		nm = elf_strptr(ss->elf, shstrndx, sh.sh_name);
		if (!nm)
			continue;
		/* perf takes the first section of that name and checks its type */
		if (!strcmp(nm, ".symtab") && !ss->has_symtab)
			ss->has_symtab = sh.sh_type == SHT_SYMTAB;
		if (!strcmp(nm, ".dynsym") && !ss->has_dynsym)
			ss->has_dynsym = sh.sh_type == SHT_DYNSYM;
	}
	return 0;
}

int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *build_id,
		 size_t bid_size)
{
	int err;

	pthread_once(&elf_once, elf_init);
	memset(ss, 0, sizeof(*ss));
	ss->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (ss->fd < 0) {
		err = -errno;
		ss->fd = -1;
		return err;
	}
	ss->path = strdup(path);
	ss->elf = elf_begin(ss->fd, ELF_C_READ_MMAP, NULL);
	if (!ss->path || !ss->elf) {
		err = ss->path ? -ENOEXEC : -ENOMEM;
		symsrc__close(ss);
		return err;
	}
	err = symsrc_check(ss, build_id, bid_size);
	if (err)
		symsrc__close(ss);
	return err;
}

int symsrc__open_mem(struct symsrc *ss, const void *image, size_t size,
		     const uint8_t *build_id, size_t bid_size)
{
	int err;

	pthread_once(&elf_once, elf_init);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
	/* libelf only reads through this pointer with ELF_C_READ-style access */
	ss->elf = elf_memory((char *)(uintptr_t)image, size);
	if (!ss->elf)
		return -ENOEXEC;
	err = symsrc_check(ss, build_id, bid_size);
	if (err)
		symsrc__close(ss);
	return err;
}

void symsrc__close(struct symsrc *ss)
{
	if (ss->elf)
		elf_end(ss->elf);
	if (ss->fd >= 0)
		close(ss->fd);
	free(ss->path);
	memset(ss, 0, sizeof(*ss));
	ss->fd = -1;
}

/* First section called name (perf's elf_section_by_name); NULL if none. */
static Elf_Scn *section_by_name(Elf *elf, const char *name, GElf_Shdr *sh, size_t *idx)
{
	size_t shstrndx, nsec;

	if (elf_getshdrstrndx(elf, &shstrndx) || elf_getshdrnum(elf, &nsec))
		return NULL;
	for (size_t i = 1; i < nsec; i++) {
		Elf_Scn *scn = elf_getscn(elf, i);
		const char *nm;

		if (!scn || !gelf_getshdr(scn, sh))
			continue;
		nm = elf_strptr(elf, shstrndx, sh->sh_name);
		if (nm && !strcmp(nm, name)) {
			if (idx)
				*idx = i;
			return scn;
		}
	}
	return NULL;
}

/* Named, non-UNDEF function/object (perf's elf_sym__filter). */
static bool sym_is_func_or_object(const GElf_Sym *s)
{
	int t = GELF_ST_TYPE(s->st_info);

	if (!s->st_name || s->st_shndx == SHN_UNDEF)
		return false;
	return t == STT_FUNC || t == STT_GNU_IFUNC || t == STT_OBJECT;
}

/* perf's elf_sym__is_label(). */
static bool sym_is_label(const GElf_Sym *s)
{
	int vis = GELF_ST_VISIBILITY(s->st_other);

	return GELF_ST_TYPE(s->st_info) == STT_NOTYPE && s->st_name &&
	       s->st_shndx != SHN_UNDEF && s->st_shndx != SHN_ABS &&
	       vis != STV_HIDDEN && vis != STV_INTERNAL;
}

/* Subtract (p_vaddr - p_offset) of the PT_LOAD holding v; false if none does. */
static bool adjust_by_phdr(Elf *elf, uint64_t *v)
{
	size_t n;

	if (elf_getphdrnum(elf, &n))
		return false;
	for (size_t i = 0; i < n; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
			continue;
		if (*v >= ph.p_vaddr && *v < ph.p_vaddr + ph.p_memsz) {
			*v -= ph.p_vaddr - ph.p_offset;
			return true;
		}
	}
	return false;
}

struct elf_tab {
	Elf_Data *syms, *strs;
	size_t nr;
};

static bool elf_tab_get(Elf *elf, bool want_symtab, struct elf_tab *t)
{
	GElf_Shdr sh, strsh;
	Elf_Scn *scn = section_by_name(elf, want_symtab ? ".symtab" : ".dynsym", &sh, NULL);
	Elf_Scn *strscn;

	if (!scn || sh.sh_type != (want_symtab ? SHT_SYMTAB : SHT_DYNSYM) || !sh.sh_entsize)
		return false;
	strscn = elf_getscn(elf, sh.sh_link);
	if (!strscn || !gelf_getshdr(strscn, &strsh))
		return false;
	t->syms = elf_getdata(scn, NULL);
	t->strs = elf_getdata(strscn, NULL);
	t->nr = sh.sh_size / sh.sh_entsize;
	return t->syms && t->strs;
}

static const char *tab_name(const struct elf_tab *t, size_t off)
{
	if (off >= t->strs->d_size)
		return "";
	/* string tables end with NUL; strnlen guards a damaged one */
	if (strnlen((const char *)t->strs->d_buf + off, t->strs->d_size - off) ==
	    t->strs->d_size - off)
		return "";
	return (const char *)t->strs->d_buf + off;
}

static int add_named(struct symtab_builder *b, uint64_t start, uint64_t size,
		     uint8_t bind, uint8_t type, const char *name, bool demangle,
		     const char *suffix)
{
	char *dm = demangle ? symbol__demangle(name) : NULL;
	const char *nm = dm ? dm : name;
	int err;

	if (suffix) {
		size_t a = strlen(nm), s = strlen(suffix);
		char *full = malloc(a + s + 1);

		if (!full) {
			free(dm);
			return -ENOMEM;
		}
		memcpy(full, nm, a);
		memcpy(full + a, suffix, s + 1);
		err = symtab_builder__add(b, start, size, bind, type, full, a + s);
		free(full);
	} else {
		err = symtab_builder__add(b, start, size, bind, type, nm, strlen(nm));
	}
	free(dm);
	return err;
}

/* The section header describing sym's section, from runtime if syms' is NOBITS. */
static int sym_section(struct symsrc *syms, struct symsrc *rt, size_t shndx,
		       GElf_Shdr *sh, const char **secname)
{
	Elf_Scn *scn = elf_getscn(syms->elf, shndx);
	Elf *elf = syms->elf;
	size_t shstrndx;

	if (!scn || !gelf_getshdr(scn, sh))
		return -EINVAL;
	if (sh->sh_type == SHT_NOBITS && (sh->sh_flags & SHF_ALLOC)) {
		scn = elf_getscn(rt->elf, shndx);
		if (!scn || !gelf_getshdr(scn, sh))
			return -EINVAL;
		elf = rt->elf;
	}
	*secname = "";
	if (!elf_getshdrstrndx(elf, &shstrndx)) {
		const char *nm = elf_strptr(elf, shstrndx, sh->sh_name);

		if (nm)
			*secname = nm;
	}
	return 0;
}

/* perf's dso__synthesize_plt_symbols() of 6.1: one "name@plt" per .rela.plt entry. */
static int synth_plt(struct symtab_builder *b, struct symsrc *rt, bool demangle)
{
	GElf_Shdr rel_sh, plt_sh, dyn_sh;
	size_t dynsym_idx = 0, nrel;
	Elf_Scn *rel_scn, *dyn_scn;
	Elf_Data *reldata, *syms, *strs;
	uint64_t off;
	int nr = 0;

	if (!rt->has_dynsym)
		return 0;
	dyn_scn = section_by_name(rt->elf, ".dynsym", &dyn_sh, &dynsym_idx);
	rel_scn = section_by_name(rt->elf, ".rela.plt", &rel_sh, NULL);
	if (!rel_scn)
		rel_scn = section_by_name(rt->elf, ".rel.plt", &rel_sh, NULL);
	if (!dyn_scn || !rel_scn || rel_sh.sh_link != dynsym_idx || !rel_sh.sh_entsize)
		return 0;
	if (!section_by_name(rt->elf, ".plt", &plt_sh, NULL))
		return 0;
	reldata = elf_getdata(rel_scn, NULL);
	syms = elf_getdata(dyn_scn, NULL);
	strs = elf_getdata(elf_getscn(rt->elf, dyn_sh.sh_link), NULL);
	if (!reldata || !syms || !strs || !strs->d_size)
		return 0;
	nrel = rel_sh.sh_size / rel_sh.sh_entsize;
	/* x86: header and entries are sh_entsize bytes (other arches differ in perf) */
	off = plt_sh.sh_offset + plt_sh.sh_entsize;
	for (size_t i = 0; i < nrel; i++) {
		struct elf_tab t = { .syms = syms, .strs = strs };
		GElf_Sym sym;
		size_t symidx;
		int err;

		if (rel_sh.sh_type == SHT_RELA) {
			GElf_Rela r;

			if (!gelf_getrela(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		} else {
			GElf_Rel r;

			if (!gelf_getrel(reldata, (int)i, &r))
				break;
			symidx = GELF_R_SYM(r.r_info);
		}
		if (!gelf_getsym(syms, (int)symidx, &sym))
			memset(&sym, 0, sizeof(sym));
		err = add_named(b, off, plt_sh.sh_entsize, STB_GLOBAL, STT_FUNC,
				tab_name(&t, sym.st_name), demangle, "@plt");
		if (err)
			return err;
		off += plt_sh.sh_entsize;
		nr++;
	}
	return nr;
}

int symtab__load_elf(struct symtab_builder *b, struct symsrc *syms,
		     struct symsrc *runtime, bool demangle)
{
	struct elf_tab t;
	int nr = 0, err;

	if (!elf_tab_get(syms->elf, true, &t) && !elf_tab_get(syms->elf, false, &t))
		return 0;
	for (size_t i = 0; i < t.nr; i++) {
		GElf_Sym sym;
		GElf_Shdr sh;
		const char *secname;
		bool label;
		uint64_t v;

		if (!gelf_getsym(t.syms, (int)i, &sym))
			continue;
		label = sym_is_label(&sym);
		if (!label && !sym_is_func_or_object(&sym))
			continue;
		/* SHN_ABS objects (symbol-version names) and the like have no section */
		if (sym_section(syms, runtime, sym.st_shndx, &sh, &secname))
			continue;
		if (!(sh.sh_flags & SHF_ALLOC))
			continue;
		if (label && !strstr(secname, "text") && !strstr(secname, "data"))
			continue;
		v = sym.st_value;
		if (!adjust_by_phdr(runtime->elf, &v))
			v -= sh.sh_addr - sh.sh_offset;
		err = add_named(b, v, sym.st_size, GELF_ST_BIND(sym.st_info),
				GELF_ST_TYPE(sym.st_info), tab_name(&t, sym.st_name),
				demangle, NULL);
		if (err)
			return err;
		nr++;
	}
	if (nr > 0) {
		if (symtab_builder__fixup_end(b, false) || symtab_builder__fixup_duplicate(b))
			return -ENOMEM;
		err = synth_plt(b, runtime, demangle);
		if (err < 0)
			return err;
	}
	return (int)b->live;
}
