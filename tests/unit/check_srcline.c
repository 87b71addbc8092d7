/*
 * Unit tests of report/srcline: line lookups with libdw in this test binary (built
 * with -g), and perf 6.1's texts when there is no line information (observed:
 * "SYMBOL+N", "DSO[HEX]", "??:0", "" for srcfile, nothing in call graphs).
 */
#include <check.h>
#include <dlfcn.h>	/* dladdr */
#include <elf.h>	/* Elf64_*, SHT_*, PT_LOAD, NT_GNU_BUILD_ID */
#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <limits.h>	/* PATH_MAX */
#include <stdint.h>
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* free */
#include <string.h>
#include <sys/stat.h>	/* mkdir */

#include "machine/dso.h"
#include "machine/srcline.h"
#include "machine/symbol.h"
#include "testlib.h"

#include "banned.h"

/* A function on one line: its first instruction is on that line whatever the
 * optimization level. */
/* clang-format off */
static const int probe_line = __LINE__; __attribute__((noinline)) static int probe(int x) { return x * 3 + 1; }
/* clang-format on */

START_TEST(test_srcline_lookup_self)
{
	struct srclines *s;
	Dl_info info;
	const char *file = NULL;
	int line = 0;
	uint64_t addr;

	ck_assert_int_eq(probe(1), 4);
	ck_assert_int_eq(srclines__new(&s), 0);
	ck_assert(dladdr((void *)(uintptr_t)probe, &info));
	/* a position-independent executable: file addresses are offsets from its base */
	addr = (uint64_t)(uintptr_t)probe - (uint64_t)(uintptr_t)info.dli_fbase;
	ck_assert_int_eq(srclines__lookup(s, "/proc/self/exe", addr, &file, &line), 0);
	ck_assert_ptr_nonnull(strstr(file, "check_srcline.c"));
	ck_assert_int_eq(line, probe_line);
	/* far outside any code: no line, no symbol */
	ck_assert_int_eq(srclines__lookup(s, "/proc/self/exe", 0x7fffffff0000ULL, &file,
					  &line), -ENOENT);
	/* a file that does not exist */
	ck_assert_int_eq(srclines__lookup(s, "/nonexistent/dirreport-test.so", 0x1000, &file,
					  &line), -ENOENT);
	srclines__delete(s);
	srclines__delete(NULL);
}
END_TEST

START_TEST(test_srcline_fallbacks)
{
	struct srclines *s;
	struct dsos *d;
	struct dso *dso, *kernel;
	struct symbol sym = { .start = 0x1000, .end = 0x1100, .name = "do_syscall_64" };
	const char *a, *b;
	int err;

	ck_assert_int_eq(srclines__new(&s), 0);
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	dso = dsos__findnew(d, "/nonexistent/dir/libgone.so");
	kernel = dsos__findnew(d, "[kernel.kallsyms]");
	ck_assert_ptr_nonnull(dso);
	ck_assert_ptr_nonnull(kernel);

	/* no map */
	ck_assert_str_eq(srclines__line(s, NULL, NULL, 0x1234), "??:0");
	ck_assert_str_eq(srclines__file(s, NULL, NULL, 0x1234), "");
	/* no lines, no symbol: the short name and the address */
	ck_assert_str_eq(srclines__line(s, dso, NULL, 0xcc5c), "libgone.so[cc5c]");
	/* no lines, a symbol: its name and the decimal offset (kernel: never lines) */
	ck_assert_str_eq(srclines__line(s, kernel, &sym, 0x1071), "do_syscall_64+113");
	ck_assert_str_eq(srclines__file(s, kernel, &sym, 0x1071), "");
	/* perf subtracts even an absolute address (frames of the children view) */
	ck_assert_str_eq(srclines__line(s, kernel, &sym, 0x10),
			 "do_syscall_64+18446744073709547536");
	/* answers are interned and remembered */
	a = srclines__line(s, dso, NULL, 0xcc5c);
	b = srclines__line(s, dso, NULL, 0xcc5c);
	ck_assert_ptr_eq(a, b);

	/* call graphs: the address key's "+N", nothing for the srcline key */
	ck_assert_str_eq(srclines__callchain(s, kernel, &sym, 0x1071, true, &err), "+113");
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_null(srclines__callchain(s, kernel, &sym, 0x1071, false, &err));
	ck_assert_int_eq(err, 0);
	ck_assert_ptr_null(srclines__callchain(s, NULL, &sym, 0x1071, true, &err));
	dsos__delete(d);
	srclines__delete(s);
}
END_TEST

/* perf's addr2line failure limit: 123 failures in a dso before any success and it
 * is not asked again; one success first and failures never count. */
START_TEST(test_srcline_fail_limit)
{
	struct srclines *s;
	struct dsos *d;
	struct dso *self;
	Dl_info info;
	uint64_t good;
	const char *t;
	char want[64];

	ck_assert(dladdr((void *)(uintptr_t)probe, &info));
	good = (uint64_t)(uintptr_t)probe - (uint64_t)(uintptr_t)info.dli_fbase;
	snprintf(want, sizeof(want), "check_srcline.c:%d", probe_line);
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	self = dsos__findnew(d, "/proc/self/exe");
	ck_assert_ptr_nonnull(self);

	ck_assert_int_eq(srclines__new(&s), 0);
	for (int i = 0; i < 122; i++)
		ck_assert_str_eq(srclines__line(s, self, NULL, 0x10), "exe[10]");
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);	/* 123rd: found */
	srclines__delete(s);

	ck_assert_int_eq(srclines__new(&s), 0);
	for (int i = 0; i < 123; i++)
		(void)srclines__line(s, self, NULL, 0x10);
	snprintf(want, sizeof(want), "exe[%" PRIx64 "]", good);
	t = srclines__line(s, self, NULL, good);		/* 124th: not asked */
	ck_assert_str_eq(t, want);
	srclines__delete(s);

	ck_assert_int_eq(srclines__new(&s), 0);
	snprintf(want, sizeof(want), "check_srcline.c:%d", probe_line);
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);
	for (int i = 0; i < 300; i++)
		(void)srclines__line(s, self, NULL, 0x10);
	ck_assert_str_eq(srclines__line(s, self, NULL, good), want);
	srclines__delete(s);
	dsos__delete(d);
}
END_TEST

/*
 * A stripped x86-64 ET_DYN file: one PT_LOAD, .text at 0x1000 (0x100 bytes), a
 * .dynsym with one global function `func` over all of .text, a GNU build-id note
 * (bid, 20 bytes) and no .symtab.
 */
static void write_stripped_elf(const char *path, const char *func, const uint8_t bid[20])
{
	enum { TEXT = 0x1000, TEXT_SIZE = 0x100, NOTE = 0x40 + 56, SHSTR = NOTE + 36 };
	static const char shstr[] = "\0.text\0.dynsym\0.dynstr\0.note.gnu.build-id\0.shstrtab";
	unsigned char img[TEXT + TEXT_SIZE + 2 * sizeof(Elf64_Sym) + 64 + 6 * sizeof(Elf64_Shdr)];
	Elf64_Ehdr *eh = (Elf64_Ehdr *)(void *)img;
	Elf64_Phdr *ph = (Elf64_Phdr *)(void *)(img + sizeof(*eh));
	size_t dynsym = TEXT + TEXT_SIZE, dynstr = dynsym + 2 * sizeof(Elf64_Sym);
	size_t flen = strlen(func), shoff = (dynstr + 1 + flen + 1 + 7) & ~(size_t)7;
	Elf64_Sym sym = { .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC),
			  .st_shndx = 1, .st_value = TEXT, .st_size = TEXT_SIZE };
	Elf64_Shdr sh[6] = {
		[1] = { .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
			.sh_addr = TEXT, .sh_offset = TEXT, .sh_size = TEXT_SIZE, .sh_addralign = 16 },
		[2] = { .sh_name = 7, .sh_type = SHT_DYNSYM, .sh_flags = SHF_ALLOC,
			.sh_addr = dynsym, .sh_offset = dynsym, .sh_size = 2 * sizeof(Elf64_Sym),
			.sh_link = 3, .sh_info = 1, .sh_addralign = 8,
			.sh_entsize = sizeof(Elf64_Sym) },
		[3] = { .sh_name = 15, .sh_type = SHT_STRTAB, .sh_flags = SHF_ALLOC,
			.sh_addr = dynstr, .sh_offset = dynstr, .sh_size = flen + 2,
			.sh_addralign = 1 },
		[4] = { .sh_name = 23, .sh_type = SHT_NOTE, .sh_flags = SHF_ALLOC,
			.sh_addr = NOTE, .sh_offset = NOTE, .sh_size = 36, .sh_addralign = 4 },
		[5] = { .sh_name = 42, .sh_type = SHT_STRTAB, .sh_offset = SHSTR,
			.sh_size = sizeof(shstr), .sh_addralign = 1 },
	};
	static const uint32_t note_hdr[3] = { 4, 20, NT_GNU_BUILD_ID };

	ck_assert_uint_le(shoff + sizeof(sh), sizeof(img));
	ck_assert_uint_le(SHSTR + sizeof(shstr), TEXT);
	memset(img, 0, sizeof(img));
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_DYN;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_phoff = sizeof(*eh);
	eh->e_shoff = shoff;
	eh->e_ehsize = sizeof(*eh);
	eh->e_phentsize = sizeof(*ph);
	eh->e_phnum = 1;
	eh->e_shentsize = sizeof(Elf64_Shdr);
	eh->e_shnum = 6;
	eh->e_shstrndx = 5;
	*ph = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R | PF_X,
			    .p_filesz = shoff, .p_memsz = shoff, .p_align = 0x1000 };
	memcpy(img + NOTE, note_hdr, sizeof(note_hdr));
	memcpy(img + NOTE + sizeof(note_hdr), "GNU", 4);
	memcpy(img + NOTE + sizeof(note_hdr) + 4, bid, 20);
	memcpy(img + SHSTR, shstr, sizeof(shstr));
	memset(img + TEXT, 0xc3, TEXT_SIZE);			/* ret */
	memcpy(img + dynsym + sizeof(Elf64_Sym), &sym, sizeof(sym));
	memcpy(img + dynstr + 1, func, flen + 1);
	memcpy(img + shoff, sh, sizeof(sh));
	testlib_write_raw(path, img, shoff + sizeof(sh));
}

/*
 * perf 6.1 hands addr2line the file the dso's symbols came from only when that file
 * has a .symtab (its symsrc_filename); for a stripped one (.dynsym only) it hands it
 * the dso's own path, whatever file is there now: a recording's stripped perl, its
 * symbols from the build-id cache, has its inline frames looked up in this machine's
 * /usr/bin/perl, whose symbol at the address, when another than the recorded one's,
 * becomes an "(inlined)" frame.
 */
START_TEST(test_srcline_stripped_reads_own_path)
{
	static const uint8_t bid[20] = { 0xd1, 0x78, 0xb8, 0xec, 0x9e };
	char *dir = testlib_tmpdir();
	char live[PATH_MAX], cache[PATH_MAX], got[PATH_MAX];
	struct dsos_opts o = { .buildid_dir = dir, .debug_dir = dir };
	struct srclines *s;
	struct dsos *d;
	struct dso *dso;
	const struct symbol *sym;

	snprintf(live, sizeof(live), "%s/perl", dir);
	write_stripped_elf(live, "Perl_av_exists", bid);
	snprintf(cache, sizeof(cache), "%s/.build-id", dir);
	ck_assert_int_eq(mkdir(cache, 0755), 0);
	snprintf(cache, sizeof(cache), "%s/.build-id/d1", dir);
	ck_assert_int_eq(mkdir(cache, 0755), 0);
	snprintf(cache, sizeof(cache), "%s/.build-id/d1/78b8ec9e%030d", dir, 0);
	ck_assert_int_eq(mkdir(cache, 0755), 0);
	snprintf(cache + strlen(cache), sizeof(cache) - strlen(cache), "/elf");
	write_stripped_elf(cache, "Perl_runops_standard", bid);

	ck_assert_int_eq(dsos__new(&d, &o), 0);
	dso = dsos__findnew(d, live);
	ck_assert_ptr_nonnull(dso);
	dso__set_build_id(dso, bid, sizeof(bid));
	ck_assert_int_eq(dso__symsrc_guess(dso, got, sizeof(got)), -ENOENT);
	sym = dso__find_symbol(dso, 0x1010);
	ck_assert_ptr_nonnull(sym);
	ck_assert_str_eq(symbol__name(sym), "Perl_runops_standard");	/* the cache's */
	ck_assert_ptr_null(dso->symsrc_path);

	ck_assert_int_eq(srclines__new(&s), 0);
	/* addr2line -f -i on the dso's own path: its symbol, no line */
	ck_assert_str_eq(srclines__inlines(s, dso, 0x1010), "Perl_av_exists\t??:0");
	/*
	 * the same record ("Perl_av_exists", "??:?") is a found line for the srcline
	 * too: file "??", line 0, which perf prints as "??:0" (not SYMBOL+OFFSET)
	 */
	ck_assert_str_eq(srclines__line(s, dso, sym, 0x1010), "??:0");
	ck_assert_str_eq(srclines__file(s, dso, sym, 0x1010), "");
	srclines__delete(s);
	dsos__delete(d);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * A stripped x86-64 executable (ET_EXEC, one PT_LOAD at 0x400000): .text at 0x400100
 * (file offset 0x100, 0x40 bytes) and a .symtab with only the function "func" at
 * 0x400110 (16 bytes) and no STT_FILE symbol; no DWARF.
 */
static void write_symbol_only_elf(const char *path)
{
	static const char strtab[] = "\0func";
	static const char shstrtab[] = "\0.text\0.symtab\0.strtab\0.shstrtab";
	unsigned char img[0x200 + 5 * sizeof(Elf64_Shdr)];
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB,
			     EV_CURRENT },
		.e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_entry = 0x400110, .e_phoff = sizeof(Elf64_Ehdr), .e_shoff = 0x200,
		.e_ehsize = sizeof(Elf64_Ehdr), .e_phentsize = sizeof(Elf64_Phdr),
		.e_phnum = 1, .e_shentsize = sizeof(Elf64_Shdr), .e_shnum = 5,
		.e_shstrndx = 4,
	};
	Elf64_Phdr ph = {
		.p_type = PT_LOAD, .p_flags = PF_R | PF_X, .p_offset = 0,
		.p_vaddr = 0x400000, .p_paddr = 0x400000, .p_filesz = 0x140,
		.p_memsz = 0x140, .p_align = 0x1000,
	};
	Elf64_Sym syms[2] = {
		{ 0 },
		{ .st_name = 1, .st_info = ELF64_ST_INFO(STB_GLOBAL, STT_FUNC), .st_shndx = 1,
		  .st_value = 0x400110, .st_size = 16 },
	};
	Elf64_Shdr sh[5] = {
		{ 0 },
		{ .sh_name = 1, .sh_type = SHT_PROGBITS, .sh_flags = SHF_ALLOC | SHF_EXECINSTR,
		  .sh_addr = 0x400100, .sh_offset = 0x100, .sh_size = 0x40, .sh_addralign = 16 },
		{ .sh_name = 7, .sh_type = SHT_SYMTAB, .sh_offset = 0x140,
		  .sh_size = sizeof(syms), .sh_link = 3, .sh_info = 1, .sh_addralign = 8,
		  .sh_entsize = sizeof(Elf64_Sym) },
		{ .sh_name = 15, .sh_type = SHT_STRTAB, .sh_offset = 0x170,
		  .sh_size = sizeof(strtab), .sh_addralign = 1 },
		{ .sh_name = 23, .sh_type = SHT_STRTAB, .sh_offset = 0x180,
		  .sh_size = sizeof(shstrtab), .sh_addralign = 1 },
	};

	memset(img, 0, sizeof(img));
	memcpy(img, &eh, sizeof(eh));
	memcpy(img + eh.e_phoff, &ph, sizeof(ph));
	memset(img + 0x100, 0xc3, 0x40);	/* ret */
	memcpy(img + 0x140, syms, sizeof(syms));
	memcpy(img + 0x170, strtab, sizeof(strtab));
	memcpy(img + 0x180, shstrtab, sizeof(shstrtab));
	memcpy(img + 0x200, sh, sizeof(sh));
	testlib_write_raw(path, img, sizeof(img));
}

/*
 * A file without lines or file symbols (a stripped library whose .gnu_debuglink file
 * is absent): binutils' addr2line answers "??:?" where a function symbol comes at or
 * before the address (its name: past the symbol's end too), which perf 6.1 reads as
 * file "??", line 0: srcline "??:0", srcfile "", a found line; "??:0" where none does,
 * perf's failure: the DSO[HEX] fallback.
 */
START_TEST(test_srcline_symbol_without_file)
{
	struct srclines *s;
	struct dsos *d;
	struct dso *dso;
	char *dir = testlib_tmpdir(), path[4096];
	const char *file = NULL;
	int line = -1, err;

	snprintf(path, sizeof(path), "%s/stripped", dir);
	write_symbol_only_elf(path);
	ck_assert_int_eq(srclines__new(&s), 0);
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	dso = dsos__findnew(d, path);
	ck_assert_ptr_nonnull(dso);

	ck_assert_int_eq(srclines__lookup(s, path, 0x400114, &file, &line), 0);
	ck_assert_str_eq(file, "??");
	ck_assert_int_eq(line, 0);
	ck_assert_int_eq(srclines__lookup(s, path, 0x400138, &file, &line), 0);
	ck_assert_int_eq(srclines__lookup(s, path, 0x400104, &file, &line), -ENOENT);

	/* map addresses: ET_EXEC, perf adds .text's address less its offset */
	ck_assert_str_eq(srclines__line(s, dso, NULL, 0x114), "??:0");
	ck_assert_str_eq(srclines__file(s, dso, NULL, 0x114), "");
	ck_assert_str_eq(srclines__line(s, dso, NULL, 0x104), "stripped[400104]");
	ck_assert_str_eq(srclines__file(s, dso, NULL, 0x104), "");
	ck_assert_str_eq(srclines__callchain(s, dso, NULL, 0x118, true, &err), "??:0");
	ck_assert_int_eq(err, 0);
	ck_assert_str_eq(srclines__callchain(s, dso, NULL, 0x118, false, &err), "??:0");
	ck_assert_int_eq(err, 0);

	dsos__delete(d);
	srclines__delete(s);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

Suite *srcline_suite(void)
{
	Suite *s = suite_create("srcline");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_srcline_lookup_self);
	tcase_add_test(tc, test_srcline_fallbacks);
	tcase_add_test(tc, test_srcline_fail_limit);
	tcase_add_test(tc, test_srcline_stripped_reads_own_path);
	tcase_add_test(tc, test_srcline_symbol_without_file);
	suite_add_tcase(s, tc);
	return s;
}
