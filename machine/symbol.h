#ifndef DIRREPORT_MACHINE_SYMBOL_H
#define DIRREPORT_MACHINE_SYMBOL_H
/*
 * symbol - symbol tables built exactly the way perf 6.1 builds them for `perf report`,
 * and the per-address lookup perf performs on them.
 *
 * A table holds the symbols of one dso in the dso's "map_ip" address space: the
 * address perf computes for a sample as ip - map.start + map.pgoff for a file-backed
 * user map, and the ip itself for the kernel and for anonymous/JIT maps.  ELF symbol
 * values (link-time virtual addresses) are converted into that space when the table is
 * built (see symtab__load_elf), kallsyms addresses are shifted by the KASLR delta.
 *
 * Why perf's tree matters: perf keeps symbols in a red-black tree keyed by start
 * (ties go right, so equal starts stay in insertion order), fixes up zero sizes and
 * duplicates on that tree, and answers a lookup by descending it from the root,
 * returning the FIRST node on the path whose [start, end) contains the address (a
 * zero-size symbol matches its start only).  When symbols overlap (nested asm
 * functions, synthesized @plt entries over an extended symbol, ...) the answer
 * depends on the tree's shape.  symtab_builder reproduces that tree (same insertion
 * order, textbook red-black insert/erase, which is what the kernel's rbtree
 * implements), then flattens the answer for every address into a sorted array of
 * disjoint ranges, so lookups are one binary search and the table is immutable.
 *
 * Invariants of a finished struct symtab:
 *   - syms[] is sorted by start; among equal starts perf's tree order is kept;
 *     syms[i].idx == i; start <= end.
 *   - ranges[] is sorted by start with distinct starts; ranges[i] answers every
 *     address in [ranges[i].start, ranges[i + 1].start); the last range answers
 *     "no symbol" up to UINT64_MAX.
 *
 * Thread safety: a finished symtab is immutable (rule 16a): symtab__find() may run on
 * any number of threads.  A builder belongs to one thread.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint64_t */

#include "util/rbtree.h"

/** One symbol.  Fields are read-only for users. */
struct symbol {
	uint64_t start;		/* first address, map_ip space (see above) */
	uint64_t end;		/* exclusive end; == start for a zero-size symbol */
	const char *name;	/* NUL-terminated, demangled; owned by the table */
	uint32_t idx;		/* index in the owning table's syms[] (dense id) */
	uint8_t binding : 7;	/* STB_LOCAL 0, STB_GLOBAL 1, STB_WEAK 2 (ELF values) */
	uint8_t inlined : 1;	/* an inlined function of a frame (perf's fake inline
				 * symbol: report/engine-count.c), in no table */
	uint8_t type;		/* STT_NOTYPE 0, STT_OBJECT 1, STT_FUNC 2, STT_GNU_IFUNC 10 */
	uint16_t namelen_extra;	/* bytes perf's namelen counts beyond the name: a
				 * kallsyms module symbol keeps the length of its
				 * line's "name\t[module]" (the Symbol column's width) */
};

/**
 * A frame's inlined function as perf 6.1 makes one (new_inline_sym()): named after
 * the function, over the range of the symbol the frame resolved to (its base), with
 * sym.inlined set.  Front ends allocate them; symbol__inline_base() gives the base.
 */
struct inline_symbol {
	struct symbol sym;
	const struct symbol *base;	/* borrowed: the frame's own symbol */
};

/** @brief The symbol an inlined function's symbol stands over (itself when not
 *  inlined): what perf's map__find_symbol() finds at its start. */
static inline const struct symbol *symbol__inline_base(const struct symbol *sym)
{
	return sym && sym->inlined ? ((const struct inline_symbol *)(const void *)sym)->base
				   : sym;
}

/** Range of the flattened lookup: [start, next range's start) -> sym. */
struct symtab_range {
	uint64_t start;		/* first address of the range */
	uint32_t sym;		/* index in syms[], or SYMTAB_NO_SYM */
};

/** Sentinel of symtab_range.sym: no symbol covers the range. */
#define SYMTAB_NO_SYM UINT32_MAX

/** A finished symbol table (immutable). */
struct symtab {
	struct symbol *syms;		/* owned, sorted by start */
	size_t nr;			/* number of symbols */
	struct symtab_range *ranges;	/* owned, the flattened tree lookup */
	size_t nr_ranges;
	char *names;			/* owned pool every syms[].name points into */
	size_t syms_mapped, ranges_mapped, names_mapped;	/* bytes mapped
					 * (util/hugemem.h), 0: malloc()ed */
	/* symtab__find()'s first step, from SYMTAB_INDEX_MIN ranges on: bucket b
	 * holds the addresses [index_base + (b << index_shift), that + (1 <<
	 * index_shift)); index[b] is the number of ranges starting below the
	 * bucket, so the answer for an address in it is among ranges
	 * [index[b], index[b + 1]] (about two a bucket).  NULL: none (a small
	 * table, or no memory for it: lookups search all ranges). */
	uint32_t *index;		/* owned, nr_index + 1 entries */
	size_t nr_index;
	uint64_t index_base;		/* ranges[0].start */
	unsigned index_shift;
};

/** Tables of fewer ranges have no index (struct symtab): a search of all is short. */
#define SYMTAB_INDEX_MIN 64

/** An erasure of the builder's log: which node, after how many insertions. */
struct sb_erase {
	uint32_t node, after;
};

/**
 * Work area that reproduces perf's symbol tree (an rbtree keyed on start).  Its
 * in-order walk is the symbols sorted by start, equal starts in insertion order, so
 * the fix-ups work on that sequence; the tree itself is built (by replaying the
 * insertions and erasures in their order) only when symbols overlap, where perf's
 * lookup answer depends on the tree's shape.  Zero-initialise before use.
 */
struct sb_node;

struct symtab_builder {
	struct sb_node *n;		/* owned, nodes in insertion order */
	size_t nr, cap;			/* nodes used / allocated (erased ones included) */
	struct rbtree tree;		/* perf's tree over the nodes, when replayed
					 * (finish); zeroed: empty, no storage */
	size_t live;			/* nodes not erased */
	uint32_t *seq;			/* owned, live nodes in tree order (if seq_valid) */
	size_t seq_nr, seq_cap;
	bool seq_valid;
	struct sb_erase *erased;	/* owned log of erasures, in order */
	size_t nr_erased, erased_cap;
	bool replay_always;		/* tests: build the tree even where no symbols
					 * overlap (the answers must not change) */
	char *pool;			/* owned, the names (offsets in nodes) */
	size_t pool_len, pool_cap;	/* bytes */
	size_t n_mapped, pool_mapped;	/* bytes mapped (util/hugemem.h), 0:
					 * malloc()ed */
};

/** Symbol sources perf understands (which loader produced a table). */
enum symtab_origin {
	SYMTAB_ORIGIN_NONE = 0,
	SYMTAB_ORIGIN_ELF,		/* .symtab or .dynsym of an ELF image */
	SYMTAB_ORIGIN_KALLSYMS,		/* a kallsyms text file */
	SYMTAB_ORIGIN_PERF_MAP,		/* /tmp/perf-PID.map (JIT) */
};

/**
 * @brief Insert one symbol into the replayed tree (perf's symbol__new + insert).
 * @param b        builder
 * @param start    first address, map_ip space
 * @param size     bytes; 0 makes a zero-size symbol (end = start)
 * @param binding  STB_* value
 * @param type     STT_* value
 * @param name     name bytes (need not be NUL-terminated); copied
 * @param name_len bytes of name
 * @return 0, or -ENOMEM.
 * Ownership: nothing is taken.  Thread safety: builder owned by the caller.
 * Format: none (perf's symbols__insert: equal starts go to the right).
 */
int symtab_builder__add(struct symtab_builder *b, uint64_t start, uint64_t size,
			uint8_t binding, uint8_t type, const char *name, size_t name_len);

/**
 * @brief perf's symbols__fixup_end(): give every zero-size symbol the next symbol's
 *        start as end; the last one gets roundup(start, 4096) + 4096.
 * @param kallsyms true for kallsyms tables: a zero-size symbol followed by a symbol of
 *        the other kind (kernel vs "\t[module]") ends at roundup(start + 4096, 4096).
 * @return 0, or -ENOMEM.
 * Thread safety: builder owned by the caller.  Format: none.
 */
int symtab_builder__fixup_end(struct symtab_builder *b, bool kallsyms);

/**
 * @brief perf's symbols__fixup_duplicate(): of symbols sharing a start keep one:
 *        non-zero size, then non-weak, then global, then fewer leading underscores,
 *        then the longer name, then the earlier one.
 * @return 0, or -ENOMEM.
 * Thread safety: builder owned by the caller.  Format: none.
 */
int symtab_builder__fixup_duplicate(struct symtab_builder *b);

/**
 * @brief Finish: flatten the tree into @p out (which must be zeroed or exited) and
 *        empty the builder.
 * @return 0, or -ENOMEM (the builder is emptied either way).
 * Ownership: out owns all its arrays; free with symtab__exit().
 * Thread safety: builder owned by the caller; the result is immutable.  Format: none.
 */
int symtab_builder__finish(struct symtab_builder *b, struct symtab *out);

/**
 * @brief The span symtab_builder__finish() would give, without building the table:
 *        its first symbol's start and its last symbol's end (syms[0].start and
 *        syms[nr - 1].end: the live symbols in tree order, the order the finish
 *        lays them out in).  perf's map__fixup_start/end() move the kernel's map to
 *        that span (machine/dso.h: dso__symbol_span()).
 * @param start, end  receive the span (addresses: the end is exclusive) when it
 *        returns 1
 * @return 1; 0 when the builder holds no live symbol (nothing written); -ENOMEM.
 * Ownership: the builder keeps its contents (free them with symtab_builder__exit()).
 * Thread safety: builder owned by the caller.  Format: none.
 */
int symtab_builder__span(struct symtab_builder *b, uint64_t *start, uint64_t *end);

/** @brief Free a builder's contents (safe on a zeroed or exited builder). */
void symtab_builder__exit(struct symtab_builder *b);

/** @brief Free a table's contents and zero it (safe to call twice). */
void symtab__exit(struct symtab *t);

/**
 * @brief The symbol perf would pick for address @p addr, or NULL.
 * @param addr map_ip-space address (bytes)
 * The answer is ranges[] searched (binary search), within the bucket of t->index
 * that holds @p addr where the table has one: a search over 2-3 ranges instead of
 * ~18 (a kernel's 200k ranges: most of those steps missed the cache).
 * Thread safety: read-only, any thread.  Format: none (perf's symbols__find()).
 */
const struct symbol *symtab__find(const struct symtab *t, uint64_t addr);

/**
 * @brief Load a kallsyms file the way perf 6.1 does for [kernel.kallsyms].
 *
 * Keeps types T, W, D, B (either case; names starting with '$' are dropped), size 0,
 * binding W -> weak, upper case -> global, else local; T/W are functions, the rest
 * objects.  Fix-ups run with the kallsyms rule; then module symbols ("name\t[mod]")
 * and __entry_SYSCALL_64_trampoline are removed (module symbols go to @p mods when it
 * is not NULL: perf moves them to the module maps), and every remaining symbol is
 * shifted by
 * delta = (address of @p ref_name in the file) - @p ref_addr, perf's KASLR
 * correction.
 * @param b        empty builder; receives the symbols (finish it afterwards)
 * @param path     kallsyms file
 * @param ref_name reference symbol from the kernel MMAP name ("_text"), or NULL for
 *                 no relocation (no kernel MMAP was seen)
 * @param ref_addr its address at record time (the kernel MMAP's pgoff)
 * @param mods     zeroed; receives the module symbols (kmod_symbols__exit() frees
 *                 them, also on error), or NULL to drop them
 * @return number of symbols kept (>= 0); -errno if the file cannot be read;
 *         -ENOENT if ref_name is not in the file (perf then loads nothing);
 *         -ENOMEM.
 * Thread safety: builder owned by the caller.
 * Format: /proc/kallsyms text "%llx %c %s[\t[module]]".
 */
struct kmod_symbols;

int symtab__load_kallsyms(struct symtab_builder *b, const char *path,
			  const char *ref_name, uint64_t ref_addr, struct kmod_symbols *mods);

/** The reference symbol perf's kernel MMAP names ("[kernel.kallsyms]_text"). */
#define KALLSYMS_TEXT "_text"

/** Address of KALLSYMS_TEXT in a kallsyms file, found while reading it. */
struct kallsyms_text {
	bool found;
	uint64_t addr;
};

/**
 * @brief First half of symtab__load_kallsyms(): read the file into @p b, an empty
 *        builder (no fix-ups, no relocation), noting where _text is; the file's text
 *        becomes its pool (names parsed in place: kallsyms_block__parse()).  Needs
 *        nothing from the recording, so it can run on a worker while the recording
 *        is decoded.
 * @return 0, -errno if the file cannot be opened, -ENOMEM.
 * Thread safety: builder owned by the caller. Format: /proc/kallsyms text.
 */
int symtab__read_kallsyms(struct symtab_builder *b, const char *path,
			  struct kallsyms_text *text);

/*
 * A kallsyms file read block after block, each block parsed on any thread: what
 * symtab__read_kallsyms() does on one, and the kernel's read ahead
 * (dso__preload_kernel()) on several.  The file is read into one buffer, whose
 * lines the blocks parse in place (a symbol's name stays in the text, which becomes
 * the builder's pool), each into slots of its own in one node array (one for each of
 * its lines); kallsyms_load__finish() moves their symbols together in file order.
 */
struct kallsyms_block;

/** The load's state: the caller's, its fields the load's own. */
struct kallsyms_load {
	int fd;				/* owned, or -1 */
	bool eof;
	char *text;			/* owned: what was read, room for cap bytes */
	size_t len, cap, done;		/* bytes read / allocated / handed out */
	size_t text_mapped;		/* bytes mapped (util/hugemem.h) */
	struct sb_node *nodes;		/* owned: the blocks' slots */
	size_t lines, nodes_cap;	/* slots handed out / allocated */
	size_t nodes_mapped;		/* bytes mapped (util/hugemem.h) */
	struct kallsyms_block **blocks;	/* owned, in file order */
	size_t nr_blocks, blocks_cap;
	size_t first_cap, first_nodes;	/* tests: the first text bytes and slots
					 * allocated (0: 32 MiB, 256k) */
};

/**
 * @brief Open @p path for kallsyms_load__next() (the load zeroed first).
 * @return 0, or -errno (kallsyms_load__close() is safe then too).
 * Thread safety: the load is the caller's.  Format: none.
 */
int kallsyms_load__open(struct kallsyms_load *l, const char *path);

/**
 * @brief kallsyms_load__open() of a file already open: @p fd (owned from here on,
 *        closed by kallsyms_load__close(); read with read() from its offset).
 * @return 0, or -EBADF when @p fd < 0.
 * Thread safety: the load is the caller's.  Format: none.
 */
int kallsyms_load__open_fd(struct kallsyms_load *l, int fd);

/**
 * @brief Read the next block: about 256 KiB of whole lines (at the end of the file,
 *        what is left), with as many read()s as that takes (/proc/kallsyms gives up
 *        to a page each).  An error reading ends the file, as stdio's getline()
 *        would.
 * @param out       receives the block (the load's), to parse with
 *                  kallsyms_block__parse() on any thread
 * @param may_move  whether the text and the node array may be reallocated: every
 *                  block handed out so far is parsed (their first 32 MiB and 256k
 *                  slots are allocated at the first call, touched only as used)
 * @return 1 with a block; 0 at the end of the file; 2 when they must grow and
 *         @p may_move is false (call again with true once the blocks out are
 *         parsed: nothing was lost); -ENOMEM.
 * Thread safety: one thread at a time per load, while the blocks out are parsed
 *         on others (each writes its own bytes of the text and its own slots).
 * Format: /proc/kallsyms text (lines end with '\n').
 */
int kallsyms_load__next(struct kallsyms_load *l, struct kallsyms_block **out,
			bool may_move);

/**
 * @brief Parse a block's lines into its slots as symtab__load_kallsyms() keeps them
 *        (types T, W, D, B either case; no name starting with '$'; names cut at 512
 *        bytes as perf cuts them), noting its first _text line.  Its newlines become
 *        NULs.  Cannot fail.
 * Thread safety: any thread, one per block.  Format: /proc/kallsyms text
 *        "%llx %c %s[\t[module]]".
 */
void kallsyms_block__parse(struct kallsyms_block *blk);

/**
 * @brief Every block parsed: @p b, an empty builder, receives their symbols in file
 *        order (no fix-ups yet) and the text as its pool; @p t the first _text
 *        line's address, if any.
 * @return 0, or -EINVAL if @p b is not empty.
 * Thread safety: the caller's load, after the last block's parse (which the caller
 *        orders before this: a workqueue group wait, a join).  Format: none.
 */
int kallsyms_load__finish(struct kallsyms_load *l, struct symtab_builder *b,
			  struct kallsyms_text *t);

/** @brief Close the file, free what was not taken (safe twice). */
void kallsyms_load__close(struct kallsyms_load *l);

/**
 * @brief Second half: end fix-ups, duplicates, module split (module symbols into
 *        @p mods, see symtab__load_kallsyms()), and (when @p relocate) the KASLR
 *        shift by text->addr - ref_addr.
 * @return number of symbols kept, or -ENOENT when relocating without a _text.
 * Thread safety: builder owned by the caller.
 */
int symtab__finish_kallsyms(struct symtab_builder *b, const struct kallsyms_text *text,
			    bool relocate, uint64_t ref_addr, struct kmod_symbols *mods);

/*
 * Kernel module symbols of a kallsyms file: the lines "ADDR TYPE NAME\t[MODULE]",
 * which perf's dso__split_kallsyms() moves from the kernel's table to the dso of each
 * module's map.  Kept in perf's tree order with the ends the kallsyms fix-ups gave
 * them (absolute addresses, never shifted by the KASLR delta).
 */
struct kmod_sym {
	uint64_t start, end;		/* absolute addresses, end exclusive */
	uint32_t name, module;		/* offsets in the pool: "sym", "[mod]" */
	uint8_t binding, type;		/* STB_*, STT_* */
};

struct kmod_symbols {
	struct kmod_sym *v;		/* owned */
	size_t nr, cap;
	char *pool;			/* owned: the names, NUL-terminated */
	size_t pool_len, pool_cap;	/* bytes */
};

/**
 * @brief The table of one module: its symbols in @p k, made relative to the start of
 *        the module's map (perf: "so that we look just like we get from .ko files").
 * @param k          module symbols of the kernel's kallsyms
 * @param module     the module's dso short name, "[name]"
 * @param map_start  start of the module's map (bytes)
 * @param out        zeroed or exited table; receives the symbols (maybe none)
 * @return the number of symbols, or -ENOMEM.
 * Ownership: out owns its arrays (symtab__exit()).  Thread safety: k is read only.
 * Format: none (perf 6.1's dso__split_kallsyms(): start = map_ip(start), the same
 * for the end).
 */
int kmod_symbols__table(const struct kmod_symbols *k, const char *module,
			uint64_t map_start, struct symtab *out);

/** @brief Free what @p k owns and zero it (safe to call twice). */
void kmod_symbols__exit(struct kmod_symbols *k);

/**
 * @brief Load a perf map file (/tmp/perf-PID.map, "START SIZE NAME" in hex) like perf
 *        6.1: every line becomes a global function, no fix-ups.
 * @return number of symbols (>= 0), -errno if unreadable, -ENOMEM.
 * Thread safety: builder owned by the caller.  Format: perf's JIT map text.
 */
int symtab__load_perf_map(struct symtab_builder *b, const char *path);

/**
 * @brief An opened ELF symbol source (perf's struct symsrc).
 * Ownership: owns fd, elf and path.  Thread safety: one thread.
 */
struct symsrc {
	char *path;		/* owned: file opened, or NULL for an in-memory image */
	int fd;			/* owned, -1 for in-memory images */
	struct Elf *elf;	/* owned libelf handle */
	bool has_symtab;	/* a SHT_SYMTAB ".symtab" exists */
	bool has_dynsym;	/* a SHT_DYNSYM ".dynsym" exists */
};

/**
 * @brief Open an ELF image as a symbol source.
 * @param path       file to open
 * @param build_id   expected build-id bytes, or NULL to accept any file; when given,
 *                   a file without a matching GNU build-id note is refused (perf
 *                   refuses mismatched images)
 * @param bid_size   bytes in build_id
 * @return 0; -errno if open fails; -ENOEXEC if it is not ELF; -ESTALE on a build-id
 *         mismatch or missing note; -ENOMEM.
 * Thread safety: one thread per symsrc.  Format: ELF, GNU build-id note.
 */
int symsrc__open(struct symsrc *ss, const char *path, const uint8_t *build_id,
		 size_t bid_size);

/**
 * @brief Same as symsrc__open() for an image in memory (the running vdso).
 * @param image, size  bytes of the image; must outlive the symsrc
 */
int symsrc__open_mem(struct symsrc *ss, const void *image, size_t size,
		     const uint8_t *build_id, size_t bid_size);

/** @brief Close a symbol source (safe on a closed or zeroed one). */
void symsrc__close(struct symsrc *ss);

/**
 * @brief Load the symbols of a user-space ELF dso exactly as perf 6.1 does.
 *
 * @p syms provides the table (.symtab, else .dynsym), @p runtime the loaded image
 * (section headers for NOBITS sections of a debug file, program headers, .plt).
 * Kept: functions (FUNC, GNU_IFUNC) and objects with a name and a section, and
 * NOTYPE "labels" (named, not UNDEF/ABS, not hidden/internal) in a section whose
 * name contains "text" or "data"; sections without SHF_ALLOC are skipped.  A value is
 * converted to map_ip space by subtracting (p_vaddr - p_offset) of the runtime
 * PT_LOAD segment that contains it (else sh_addr - sh_offset of its section).  C++
 * names are demangled without parameters.  Then zero-size/duplicate fix-ups, then
 * (if at least one symbol was kept) "name@plt" symbols for .rela.plt entries are
 * added at .plt offset + (i + 1) * entsize.
 * @param demangle demangle C++ names (perf's default)
 * @return number of symbols (>= 0), or -ENOMEM.
 * Thread safety: builder and sources owned by the caller.
 * Format: ELF symbol tables, .rela.plt/.plt.
 */
int symtab__load_elf(struct symtab_builder *b, struct symsrc *syms,
		     struct symsrc *runtime, bool demangle);

/**
 * @brief Demangle a C++ (Itanium ABI) name the way perf 6.1's default does (libiberty
 *        cplus_demangle without DMGL_PARAMS: no parameter list, no return type, no
 *        function qualifiers, no clone suffix).
 * @return a malloc'ed string (caller frees), or NULL if @p name is not a mangled C++
 *         name or no demangler is available (libstdc++ is loaded with dlopen on
 *         first use).
 * Thread safety: safe after the first call has returned (one-time dlopen).
 * Format: none.
 */
char *symbol__demangle(const char *name);

/** perf's width for an unresolved address: "0x" and 16 hex digits. */
#define SYMBOL_ADDR_WIDTH 18

/**
 * @brief Format an unresolved address as perf prints it in the Symbol column
 *        ("%#018llx"-style: 0x then at least 16 zero-padded hex digits).
 * @param addr the address perf prints: the map_ip address when a map was found
 *             (file-relative for user dsos, the ip for kernel/JIT maps), the raw ip
 *             when no map was found
 * @param buf, len output buffer and its size in bytes (NUL-terminated if len > 0)
 * @return the length the full text has (snprintf semantics).
 * Thread safety: pure.  Format: perf report --stdio Symbol column.
 */
size_t symbol__format_addr(char *buf, size_t len, uint64_t addr);

/**
 * @brief Format a resolved symbol as perf's Symbol column prints it (without the
 *        "[k] " level prefix): the name, and for data objects (STT_OBJECT)
 *        "+0x<off>" with off = @p addr - @p sym_unmapped_start.
 * @param addr               the sample's map_ip address (perf's he->ip)
 * @param sym_unmapped_start the symbol's start as a virtual address
 *                           (map.start + sym->start - map.pgoff; = sym->start for
 *                           kernel and identity maps).  perf mixes the two spaces
 *                           here; we keep its arithmetic.
 * @return length of the full text (snprintf semantics).
 * Thread safety: pure.  Format: perf report --stdio Symbol column.
 */
size_t symbol__format(char *buf, size_t len, const struct symbol *sym, uint64_t addr,
		      uint64_t sym_unmapped_start);

/** @brief The symbol's name (never NULL for a symbol from a table). */
static inline const char *symbol__name(const struct symbol *sym)
{
	return sym->name;
}

#endif
