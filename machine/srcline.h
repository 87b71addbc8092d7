#ifndef DIRREPORT_MACHINE_SRCLINE_H
#define DIRREPORT_MACHINE_SRCLINE_H
/*
 * srcline - source lines of addresses, as perf 6.1 shows them in its `srcline` and
 * `srcfile` sort keys.  perf (built without libbfd) asks binutils' addr2line; this
 * module reads the DWARF line tables itself with libdw (dwfl, offline), never
 * spawning a process.
 *
 * What perf prints (observed, perf 6.1):
 *  - an address with line information: "FILE:LINE", FILE without its directories,
 *    the innermost (inlined) location;
 *  - else, when the entry has a symbol: "SYMBOL+N", N = ip - symbol start in decimal
 *    (perf subtracts even when ip is an absolute address: frames of the children
 *    view give huge numbers);
 *  - else "DSO[HEX]" (the dso's short name, the address looked up);
 *  - an entry without a map: "??:0".
 *  The srcfile key is FILE of the first form, else "".
 * Which file is read: the one the dso's symbols came from (dso->symsrc_path) when it
 * has a .symtab, else the dso's own path as recorded, whatever file is there now
 * (perf 6.1 does not check its build-id: a stripped binary's symbols come from the
 * build-id cache, its lines and inline frames from this machine's file); kernel,
 * [vdso] and perf map dsos have no lines.  The address looked up is
 * perf's map__rip_2objdump(): the map-relative address, plus .text's address minus
 * its file offset for ET_EXEC files.
 *
 * Thread safety: a struct srclines belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct dso;
struct symbol;
struct srclines;

/**
 * @brief Create an empty resolver (files are opened on first use).
 * @return 0 or -ENOMEM.  Ownership: *out is the caller's (srclines__delete()).
 * Thread safety: see file comment.  Format: none.
 */
int srclines__new(struct srclines **out);

/** @brief Free a resolver, its open files and its strings (NULL is a no-op). */
void srclines__delete(struct srclines *s);

/**
 * @brief perf's hist_entry__srcline(): the `srcline` key's text of an entry.  Every
 *        call is one of perf's lookups: after 123 failures in a dso before any
 *        success (perf's A2L_FAIL_LIMIT) its lines are not looked up any more, so
 *        the answer depends on the calls before (make them in perf's order).
 * @param dso  the entry's dso; NULL (no map) gives "??:0"
 * @param sym  the entry's symbol, or NULL
 * @param ip   the entry's address (perf's he->ip: map-relative for a sample's own
 *             entry, the chain's absolute address for a frame's entry)
 * @return an interned string owned by @p s (valid until srclines__delete()), or NULL
 *         on ENOMEM.  Files that cannot be read count as "no line information".
 * Thread safety: see file comment.  Format: DWARF .debug_line (via libdw).
 */
const char *srclines__line(struct srclines *s, struct dso *dso, const struct symbol *sym,
			   uint64_t ip);

/**
 * @brief perf's hist_entry__get_srcfile(): the `srcfile` key's text ("" without line
 *        information).  Parameters, return value and ownership as srclines__line().
 * Thread safety: see file comment.  Format: DWARF .debug_line (via libdw).
 */
const char *srclines__file(struct srclines *s, struct dso *dso, const struct symbol *sym,
			   uint64_t ip);

/**
 * @brief The text perf's call graphs print after a frame's symbol with the `address`
 *        and `srcline` keys (its callchain_srcline()): "FILE:LINE"; without line
 *        information, for the address key "+N" (N = addr - symbol start, decimal) or
 *        "DSO[HEX]" without a symbol, for the srcline key nothing.
 * @param dso   the frame's dso (NULL: no map, no text)
 * @param sym   the frame's symbol, or NULL
 * @param addr  the frame's map-relative address
 * @param show_addr  the address key's fallbacks
 * @return an interned string owned by @p s, or NULL for no text; *err = -ENOMEM when
 *         memory ran out (else 0).
 * Thread safety: see file comment.  Format: DWARF .debug_line (via libdw).
 */
const char *srclines__callchain(struct srclines *s, struct dso *dso,
				const struct symbol *sym, uint64_t addr, bool show_addr,
				int *err);

/**
 * @brief perf's inline list of a frame (dso__parse_addr_inlines(), which asks
 *        binutils' addr2line -f -i): the names of the functions at @p addr, the
 *        innermost (inlined) one first, the function holding them last.  Each name
 *        is the DWARF one (the demangled linkage name, else DW_AT_name); among
 *        top-level functions of equal range (an assembler CU's aliases) the last
 *        one, as binutils picks it.  Addresses without a line give no names
 *        (addr2line's "??", which perf drops), and so do dsos without a file
 *        (kernel, [vdso], perf maps).
 * @param addr  the frame's map-relative address
 *        Each record also has the place addr2line gives it, FILE:LINE (the file
 *        without its directories, as perf keeps it): the address's line for the
 *        innermost, the call site of the instance inlined into it for the others,
 *        "??:0" for an ELF symbol's name.
 * @return the records "NAME\tFILE:LINE" joined by '\n' (interned, owned by @p s),
 *         "" for none, NULL on ENOMEM.  Remembered per (dso, address).
 * Thread safety: see file comment.  Format: DWARF .debug_info
 *         (DW_TAG_subprogram, DW_TAG_inlined_subroutine scopes), .debug_line.
 */
const char *srclines__inlines(struct srclines *s, struct dso *dso, uint64_t addr);

/**
 * @brief Open the file the lookups of @p dso read (see srclines__inlines()) and
 *        read its DWARF now: libdw inflates compressed debug sections and indexes
 *        the CUs' address ranges on first use, which can take longer than all the
 *        lookups after it (0.1 s for glibc's debug file), so a caller may do it
 *        ahead of time, on another thread than the lookups'.
 * @return 0 (also for a dso without a file or without DWARF: nothing to read), or
 *         -ENOMEM.
 * Thread safety: as every function here, one thread at a time per struct srclines.
 */
int srclines__prepare(struct srclines *s, const struct dso *dso);

/**
 * @brief srclines__prepare() for the file at @p path (the one a dso's lookups will
 *        read once it is loaded: dso__symsrc_guess()), before the dso is loaded.
 * @return 0 (also when the file cannot be read: the lookups then find nothing, as
 *         they would), or -ENOMEM.
 * Thread safety: see srclines__prepare().
 */
int srclines__prepare_file(struct srclines *s, const char *path);

/** One record of srclines__inlines()'s text: pointers into it, not terminated. */
struct inline_record {
	const char *name, *where;	/* the function; its FILE:LINE */
	size_t name_len, where_len;
};

/** Records at most perf's front ends expand a frame into (more are dropped). */
#define INLINE_RECORDS_MAX 64

/**
 * @brief Split srclines__inlines()'s text into its records, in its order (innermost
 *        first).
 * @return the number written to @p out, at most @p max.
 * Thread safety: pure.  Format: see srclines__inlines().
 */
size_t srclines__inline_records(const char *text, struct inline_record *out, size_t max);

/**
 * @brief The file name and line of an address of an ELF file, read with libdw.
 * @param path  the ELF file (its DWARF, or separate debug info libdw finds for it)
 * @param addr  address in the file's own (objdump) address space
 * @param file, line  receive the innermost location's file name (with directories;
 *              owned by @p s) and line number
 * @return 0, -ENOENT when the file has no line for the address or cannot be read,
 *         -ENOMEM.
 * Thread safety: see file comment.  Format: DWARF .debug_line.
 */
int srclines__lookup(struct srclines *s, const char *path, uint64_t addr,
		     const char **file, int *line);

#endif
