#ifndef DIRREPORT_MACHINE_DSO_H
#define DIRREPORT_MACHINE_DSO_H
/*
 * dso - the shared objects a recording's maps refer to, and where perf 6.1 finds
 * their symbols.
 *
 * A dso is identified by its long name: the file name of an MMAP/MMAP2 record after
 * perf's renaming (dso__mmap_name(): "//anon" and friends become "/tmp/perf-PID.map"),
 * or "[kernel.kallsyms]" for the kernel.  Symbols are loaded on the first lookup.
 *
 * Where symbols come from (perf 6.1, observed):
 *  - user dsos: candidates in this order, each opened only if it is a regular ELF
 *    file whose GNU build-id equals the dso's (when the dso has one; a dso without a
 *    build-id takes it from its own file first):
 *      1. .gnu_debuglink target: NAME (relative to the cwd), DIR/NAME,
 *         DIR/.debug/NAME, /usr/lib/debug/DIR/NAME
 *      2. build-id cache: BUILDID_DIR/.build-id/xx/yyyy.../elf (vdso: .../vdso)
 *      3. build-id cache: BUILDID_DIR/.build-id/xx/yyyy.../debug
 *      4. /usr/lib/debug/PATH.debug         5. /usr/lib/debug/PATH
 *      6. /usr/lib/debug/.build-id/xx/yyyy....debug
 *      7. PATH itself
 *      8. DIR/.debug/BASENAME              9. /usr/lib/debug/lib/... for /usr/lib/...
 *    The first candidate with a .symtab supplies the symbols, the first with a
 *    .dynsym is the "runtime" image (section/program headers, .plt); the search
 *    stops when both are found.  Without any .symtab the runtime .dynsym is used.
 *  - [vdso]: as above with the build-id cache; a [vdso] that has a build-id (the
 *    BUILD_ID feature lists it) and is not in the cache has NO symbols (perf prints
 *    its addresses); a [vdso] without a build-id uses the running process's vdso.
 *  - /tmp/perf-PID.map: the JIT map text file, if it exists (owned by root or us).
 *  - [kernel.kallsyms]: the kallsyms file given in dsos_opts, else /proc/kallsyms
 *    when the dso has no build-id or its build-id is the running kernel's
 *    (/sys/kernel/notes), else BUILDID_DIR/[kernel.kallsyms]/<build-id>/kallsyms.
 *    vmlinux images and /proc/kcore are not used (perf tries them first; none exist
 *    on the machines this project targets).
 *  - --symfs DIR (dsos_opts.symfs): the build-id cache (2, 3) is not searched, every
 *    other candidate is looked up as DIR/candidate, the dso's own build-id is read
 *    from DIR/PATH, and
 *    the kernel gets symbols only from an explicit kallsyms file (perf reads no local
 *    file then).
 *
 * Invariants: long_name and short_name never change after creation; once loaded a
 * dso's symbol table is immutable.
 *
 * Thread safety: struct dsos is single-threaded (rule 16b: owned by the thread that
 * replays side-band records).  dso__find_symbol() loads lazily and is therefore not
 * safe to call concurrently on a dso that is not loaded yet; after dso__load() (or
 * dsos__load_all()) lookups only read and may run on any number of threads.
 */
#include <stdbool.h>
#include <stddef.h>	/* size_t */
#include <stdint.h>	/* uint8_t, uint64_t */

#include "machine/symbol.h"

/** Longest build-id kept (SHA-1); perf's BUILD_ID_SIZE. */
#define DSO_BUILD_ID_MAX 20

enum dso_kind {
	DSO_KIND_USER = 0,	/* a file, or something named like one */
	DSO_KIND_KERNEL,	/* [kernel.kallsyms] */
	DSO_KIND_VDSO,		/* [vdso], [vdso32], [vdsox32] */
	DSO_KIND_PERF_MAP,	/* /tmp/perf-PID.map (JIT code, anonymous memory) */
	DSO_KIND_MODULE,	/* a kernel module (a kernel MMAP other than the kernel):
				 * symbols only from the kernel's kallsyms, given by
				 * dso__take_module_symbols() */
};

struct dsos;

struct dso {
	char *long_name;		/* owned: name as recorded (after dso__mmap_name) */
	char *short_name;		/* owned: what perf prints in "Shared Object" */
	enum dso_kind kind;
	uint32_t seq;			/* creation order in its collection (0 first):
					 * perf orders call graph siblings by the dso
					 * objects' addresses, which follow it */
	uint8_t build_id[DSO_BUILD_ID_MAX];	/* valid if has_build_id */
	uint8_t build_id_size;		/* bytes used in build_id */
	bool has_build_id;
	bool named_by_build_id;		/* a module a BUILD_ID entry made before any
					 * MMAP named it: perf's dso->name is then its
					 * path, else its short name (dso__name()) */
	bool loaded;			/* symbol sources were searched */
	int load_err;			/* 0, or why nothing was loaded (-errno) */
	enum symtab_origin origin;	/* where the symbols came from */
	char origin_letter;		/* perf's dso__symtab_origin() once loaded
					 * (perf -v prints it): 'k' kallsyms, 'j' perf
					 * map, 'l' debuglink, 'B'/'D' build-id cache
					 * elf/debug, 'f' PATH.debug / 'u' PATH / 'x'
					 * lib/... under the debug dir, 'b' debug dir
					 * .build-id, 'd' the file itself, 'o' DIR/.debug;
					 * '!' nothing loaded (also before loading) */
	char *symsrc_path;		/* owned: file the symbols came from, or NULL
					 * (perf's symsrc_filename: a user dso's only
					 * when that file has a .symtab) */
	struct symtab symtab;		/* owned, valid once loaded */
	/* kernel only: the MMAP's reference symbol for the KASLR delta */
	char *ref_name;			/* owned: e.g. "_text"; NULL = none seen */
	uint64_t ref_addr;		/* its address at record time (MMAP pgoff) */
	const struct dsos *owner;	/* borrowed: options, search paths */
	struct kallsyms_preload *preload;	/* kernel only: owned; see
						 * dso__preload_kernel() */
	struct kallsyms_check *check;	/* kernel only: owned, the check of a copy
					 * read ahead (dso__check_kernel()) */
	struct kmod_symbols kmods;	/* kernel only, once loaded: the module
					 * symbols of its kallsyms (owned) */
	/* kernel only, with dsos_opts.kernel_span_only: loaded from a table read
	 * ahead, only its span was kept (symtab stays empty) */
	bool span_only;
	uint64_t span_start, span_end;	/* then: dso__symbol_span()'s answer */
};

/** Options of a dso collection.  Zero (or NULL) means perf's default. */
struct dsos_opts {
	const char *kallsyms;	 /* kernel symbols file (perf --kallsyms); NULL = auto */
	const char *buildid_dir; /* build-id cache; NULL = $HOME/.debug */
	const char *debug_dir;	 /* global debug dir; NULL = /usr/lib/debug */
	const char *kernel_notes; /* running kernel's notes; NULL = /sys/kernel/notes */
	const char *symfs;	 /* perf --symfs: files are looked up under this
				  * directory (not the build-id cache), and the
				  * kernel gets symbols only from `kallsyms`;
				  * NULL, "" or "/" = none */
	const char *proc_kallsyms; /* the running kernel's kallsyms; NULL =
				  * /proc/kallsyms (tests give a file) */
	const char *stale_dir;	 /* where a kallsyms copy found stale is noted for
				  * the rest of the boot (dso__check_kernel()); NULL
				  * = /dev/shm (a tmpfs: gone at reboot) */
	bool no_demangle;	 /* keep C++ names mangled (perf --no-demangle) */
	bool no_self_vdso;	 /* never read this process's vdso (tests) */
	bool kallsyms_ahead;	 /* where the kernel's symbols come from the running
				  * kernel's kallsyms and the build-id cache holds a
				  * copy of it, dso__preload_kernel() on a workqueue
				  * with workers reads the copy and checks the running
				  * kernel's file against it on a thread of its own
				  * (dso__check_kernel()) */
	bool kernel_span_only;	 /* the caller uses the kernel's symbols only for its
				  * map's span (dso__symbol_span(): the dump), never
				  * looks one up: dso__preload_kernel() keeps the span
				  * of the table it reads, not the table (nor the
				  * module symbols), and the kernel dso loads that;
				  * dso__find_symbol() then finds nothing in it.  A
				  * table read again at the load (another reference
				  * address: dso__preload_kernel()) is kept whole */
	bool kallsyms_cached;	 /* the kernel's symbols from the build-id cache's
				  * kallsyms copy of its build-id wherever the cache
				  * holds one, also for the running kernel, whose
				  * /proc/kallsyms is then not read: the copy perf
				  * record took is the recording's kernel's, also
				  * after a reboot or a module load (dirreport's
				  * default).  false: perf's rule, the running
				  * kernel's file for the running kernel */
	bool kallsyms_check_at_take; /* with kallsyms_ahead: the check's thread starts
				  * when the copy's table is taken (the first kernel
				  * lookup), not once the copy has parsed - for a
				  * front end that forks before its delivery (the
				  * tracing data's check, machine/trace-event.c), which
				  * no other thread may run beside */
};

/**
 * @brief The file of a dso's bytes, as perf opens it to read its code and CFI
 *        (dso__data_get_fd(), binary_type_data[]): the build-id cache's copy
 *        (BUILDID_DIR/.build-id/xx/yyy/elf, vdso for [vdso]), else the recorded path
 *        under --symfs.  Kernel, module and anonymous dsos have none.
 * @param out  receives the path (NUL-terminated), @p len bytes at most
 * @return true when such a regular file exists.
 * Thread safety: reads only the dso and the file system; safe on any thread.
 */
bool dso__data_path(const struct dso *dso, char *out, size_t len);

/**
 * @brief Create an empty dso collection.
 * @param out   receives the collection
 * @param opts  options, copied (strings too); NULL for defaults
 * @return 0 or -ENOMEM.
 * Ownership: *out belongs to the caller; free with dsos__delete().
 * Thread safety: the collection belongs to one thread (see file comment).
 * Format: none.
 */
int dsos__new(struct dsos **out, const struct dsos_opts *opts);

/** @brief Free a collection and all its dsos (NULL is a no-op). */
void dsos__delete(struct dsos *d);

/**
 * @brief Find the dso with this long name, creating it if needed (perf's findnew).
 * @param long_name  dso name after dso__mmap_name(); "[kernel.kallsyms]" gives the
 *                   kernel dso
 * @return the dso (owned by the collection, valid until dsos__delete), or NULL on
 *         ENOMEM.
 * Thread safety: collection's thread only.
 * Format: MMAP/MMAP2 filename, BUILD_ID feature filename.
 */
struct dso *dsos__findnew(struct dsos *d, const char *long_name);

/**
 * @brief Find or create the dso of a kernel module or other kernel-space file that a
 *        kernel MMAP names (perf's machine__findnew_module_dso()).
 * @param path  the MMAP's file name, e.g. "/lib/modules/6.1.0/kernel/net/x-y.ko"
 * @return the dso (kind DSO_KIND_MODULE; short name "[x_y]" for a .ko file, also
 *         compressed .ko.gz/.ko.xz/.ko.zst, else the base name, '-' replaced by '_'
 *         as perf's kmod_path__parse_name() does), or NULL on ENOMEM.
 * Thread safety: collection's thread only.
 * Format: kernel MMAP/MMAP2 filename; BUILD_ID entries of kernel cpumode.
 */
struct dso *dsos__findnew_module(struct dsos *d, const char *path);

/**
 * @brief Give a module its symbols from the kernel's kallsyms, relative to the start
 *        of its map, as perf's dso__split_kallsyms() does when the kernel loads; a
 *        module already loaded (perf looked for its file first and found none) gets
 *        none, as in perf.  The module is loaded afterwards.
 * @param mod        a DSO_KIND_MODULE dso
 * @param kernel     the loaded kernel dso (kernel->kmods)
 * @param map_start  start of the module's map (bytes)
 * @return 0 or -ENOMEM (the module then stays unloaded).
 * Thread safety: the collection's thread, with no lookup in @p mod running.
 * Format: /proc/kallsyms module lines "ADDR TYPE NAME\t[MODULE]".
 */
int dso__take_module_symbols(struct dso *mod, const struct dso *kernel, uint64_t map_start);

/** @brief The dso with this long name, or NULL.  Thread safety: collection's thread. */
struct dso *dsos__find(const struct dsos *d, const char *long_name);

/**
 * @brief The kernel dso "[kernel.kallsyms]", created if needed.
 * @return the dso (owned by the collection) or NULL on ENOMEM.
 * Thread safety: collection's thread only.  Format: none.
 */
struct dso *dsos__kernel(struct dsos *d);

/**
 * @brief Record the kernel MMAP's relocation reference on the kernel dso.
 * @param mmap_name the MMAP file name, e.g. "[kernel.kallsyms]_text"; the part after
 *                  ']' ("_text") is the reference symbol.  Nothing happens if there is
 *                  no such part.
 * @param pgoff     the MMAP's pgoff: that symbol's address at record time
 * @return 0 or -ENOMEM.
 * Thread safety: collection's thread, before the kernel dso is loaded.
 * Format: synthesized kernel MMAP (pid -1) "[kernel.kallsyms]_text", pgoff = _text.
 */
int dso__set_kernel_ref(struct dso *kdso, const char *mmap_name, uint64_t pgoff);

/**
 * @brief Give a dso its build-id (BUILD_ID feature entry or MMAP2 build-id form).
 *        Ignored once the dso is loaded, as in perf.
 * @param id, size  build-id bytes; size is clamped to DSO_BUILD_ID_MAX
 * Thread safety: collection's thread.
 * Format: BUILD_ID feature (bid_size when misc bit 15 is set, else 20);
 *         MMAP2 with misc bit 14: build_id_size, build_id[20].
 */
void dso__set_build_id(struct dso *dso, const uint8_t *id, size_t size);

/**
 * @brief Apply one BUILD_ID feature entry the way perf does when it opens a file:
 *        the dso of that name (created if needed; "[kernel.kallsyms]" is the kernel
 *        dso) gets the build-id.  Entries of guest machines (pid other than -1) and
 *        of unknown cpumodes are ignored.  Must run before symbols are loaded: the
 *        build-id decides which files are acceptable, whether a [vdso] can be
 *        resolved and which kallsyms the kernel uses.
 * @param pid      the entry's pid (-1 for the host)
 * @param misc     the entry's header misc (cpumode in the low 3 bits)
 * @param filename the entry's file name
 * @param id, size build-id bytes (size = bid_size when misc bit 15 is set, else 20)
 * @return 0, or -ENOMEM.
 * Thread safety: collection's thread.
 * Format: BUILD_ID feature section (docs/perf-data-format.md §2.3).
 */
int dsos__apply_build_id(struct dsos *d, int32_t pid, uint16_t misc, const char *filename,
			 const uint8_t *id, size_t size);

/**
 * @brief Load the symbols of every dso of the collection now, so that lookups can
 *        then run on several threads.
 * @return 0, or -ENOMEM.
 * Thread safety: collection's thread; afterwards lookups are read-only.
 * Format: none.
 */
int dsos__load_all(struct dsos *d);

/**
 * @brief Search the symbol sources now (dso__find_symbol() does this on first use).
 * @return number of symbols (0 when none was found: the dso then resolves nothing),
 *         or -ENOMEM.  Other failures are kept in dso->load_err and return 0.
 * Thread safety: not concurrently on the same dso; see file comment.
 * Format: see file comment.
 */
int dso__load(struct dso *dso);

/**
 * @brief The file dso__load() would take a user dso's symbols from when that file
 *        has a .symtab (its symsrc_path once loaded), found as it finds it, without
 *        loading or changing the dso:
 *        for reading what else that file holds (its DWARF) ahead of the load, on
 *        another thread.
 * @param out, len  receives the path (NUL-terminated)
 * @return 0; -ENOENT when the dso is not a user dso, has no build-id yet (the load
 *         reads the file's own first, which may change the choice) or no file has
 *         a .symtab; -ENAMETOOLONG.
 * Thread safety: reads the dso and opens files; may run on any thread while no
 *         other thread writes the dso (its build-id is set before the replay).
 * Format: perf's symbol source search (dso__load(): build-id cache, debug
 *         directories, debuglink, the file).
 */
int dso__symsrc_guess(const struct dso *dso, char *out, size_t len);

struct kallsyms_preload;
struct workqueue;
struct wq_group;

/**
 * @brief Read the kernel dso's kallsyms file ahead of time and build its symbol table
 *        (end fix-ups, module split, sorting) as dso__load() builds it without
 *        relocation: the slow part of loading it.  The first kernel sample then only
 *        takes the table; when the recording's kernel sits elsewhere than the
 *        file's (its reference symbol is not _text, or its address differs from the
 *        file's _text: KASLR) dso__load() reads the file again.
 *        Picks the file exactly as dso__load() will (apply build-ids first).
 *        The file is read on the calling thread in blocks of whole lines, each
 *        parsed as an item of a group whose parent is @p g (by a free worker, by
 *        the thread waiting for @p g, or here), and joined in file order here.
 * @param kdso  the kernel dso (dsos__kernel)
 * @param wq    the pool for the blocks, or NULL (parsed here)
 * @param g     the group of the item that calls this (its waiters help parse), or
 *              NULL
 * @return 0, or -ENOMEM; an unreadable file is left for dso__load() to report.
 * Thread safety: may run on another thread (an item of @p g) while the collection's
 *        thread does not touch this dso (e.g. while the recording is being
 *        decoded); the caller must wait for it to finish before any lookup in the
 *        kernel dso.
 */
int dso__preload_kernel(struct dso *kdso, struct workqueue *wq, struct wq_group *g);

/** What dso__check_kernel() found. */
enum kallsyms_check_result {
	KALLSYMS_NOT_AHEAD = 0,	/* no copy was read ahead: nothing to check */
	KALLSYMS_SAME,		/* the copy read ahead is the running kernel's file,
				 * byte for byte */
	KALLSYMS_DIFFER,	/* it is not (or one of the two could not be read):
				 * the symbols taken from it may not be the ones
				 * perf reads; start again without kallsyms_ahead */
};

/**
 * @brief The result of the check dso__preload_kernel() set up when, with
 *        dsos_opts.kallsyms_ahead, it read the kernel's symbols from the build-id
 *        cache's copy (BUILDID_DIR/[kernel.kallsyms]/<build-id>/kallsyms, which perf
 *        record writes when there is none yet) instead of the running kernel's file
 *        (/proc/kallsyms, which perf 6.1 reads when the recording's kernel is the
 *        running one: dso__find_kallsyms()).  The running kernel formats its file as
 *        it is read (40-50 ms of CPU on one thread for 120k symbols, whatever the
 *        read size, and an offset is reached only by formatting all that precedes
 *        it); the copy is a regular file, read in a few milliseconds, so the first
 *        kernel sample waits that long only.  The copy is read only when it was
 *        written since this boot began (/proc/stat btime) and its first page is the
 *        file's first read() (a copy from another boot holds that boot's KASLR
 *        addresses: it would not pass).  Once the copy has parsed (with
 *        dsos_opts.kallsyms_check_at_take: once its table is taken), the check
 *        starts: it reads the rest of the running kernel's file on a thread of its
 *        own (dr-kallsyms) and compares it with the copy, byte for byte.  Its answer
 *        counts only when dso__load() takes the table read from the copy (the
 *        first kernel lookup); a table never taken has its check stopped (when the
 *        kernel's file is read after all, or when the dso is deleted), having cost
 *        the CPU it took until then, on its own thread.  Waits for the check (joins
 *        its thread); later calls return the same.  A copy found to differ is noted
 *        (STALE_DIR/dirreport-kallsyms-<uid>-<build-id>: this boot's start and the
 *        copy's device, inode, size and mtime), and is not read ahead again while
 *        the note holds: a module or BPF program loaded since perf wrote its copy
 *        (which it never refreshes) makes one run of the boot twice as long, not
 *        every run.
 * @param kdso    the kernel dso
 * @param offset  if not NULL and the files differ: the first byte where they do
 *                (kallsyms__same_file())
 * @return an enum kallsyms_check_result: KALLSYMS_NOT_AHEAD also when the copy's
 *         table was not taken (no kernel address looked up yet; a recording whose
 *         kernel sits elsewhere than the copy's _text, which dso__load() reads the
 *         running kernel's file for; a copy that did not parse).
 * Thread safety: the collection's thread, after dso__preload_kernel() is done and
 *        while no load of the dso runs.
 */
enum kallsyms_check_result dso__check_kernel(struct dso *kdso, uint64_t *offset);

/** Where dso__check_kernel()'s answer stands, asked without waiting. */
enum kallsyms_check_state {
	KALLSYMS_CHECK_SETTLED = 0,	/* no copy was read ahead, or the check has its
					 * answer: dso__check_kernel() returns at once */
	KALLSYMS_CHECK_UNUSED,		/* a copy was read ahead, its table not taken
					 * yet: no symbol looked up so far came from it
					 * (the next kernel lookup may take it) */
	KALLSYMS_CHECK_RUNNING,		/* its table was taken and the check's thread
					 * has no answer yet: dso__check_kernel() would
					 * wait for it */
};

/**
 * @brief dso__check_kernel()'s state, without waiting: for a front end that holds
 *        back output made with the kernel's symbols until their check answers.
 * @return an enum kallsyms_check_state.
 * Thread safety: as dso__check_kernel() (the check's thread only sets a flag).
 */
enum kallsyms_check_state dso__check_kernel_state(const struct dso *kdso);

/**
 * @brief Whether two files hold the same bytes, read as a stream (the first may be
 *        a /proc file that gives a page a read() and cannot seek cheaply).
 * @param offset  receives the first byte where they differ, the start of the 64 KiB
 *                chunk where reading one failed (0 when one cannot be opened), or
 *                the length of both when they do not differ
 * @return 0 when the same, 1 when they differ, negative errno when one could not
 *         be opened or read.
 * Thread safety: any thread.
 */
int kallsyms__same_file(const char *a, const char *b, uint64_t *offset);

/**
 * @brief The symbol perf 6.1 picks for a map-relative address.
 *
 * @param addr perf's map_ip: for a file-backed user map ip - map.start + map.pgoff
 *             (a FILE OFFSET, not an ELF virtual address: ELF values were converted
 *             with the segment's p_vaddr - p_offset at load time); for the kernel,
 *             vdso-less identity maps and JIT maps the ip itself; for [vdso]
 *             ip - map.start (perf forces pgoff 0).
 * @return the symbol (owned by the dso, valid until dsos__delete) or NULL.
 * Thread safety: see file comment (loads on first use).
 * Format: none.
 */
const struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr);

/**
 * @brief First symbol start and last symbol end of a loaded table.
 *
 * perf loads the kernel's symbols lazily, the first time a sample's address falls
 * in the kernel map as recorded by the MMAP ([_text, _text + len)); that sample keeps
 * the map.  From then on the kernel map is [span start, span end)
 * (map__fixup_start/end): it may grow (kallsyms data symbols past _etext) or shrink.
 * A kernel loaded with dsos_opts.kernel_span_only gives the span it kept.
 * @param start, end  receive the span (addresses; the end is exclusive)
 * @return false if the dso has no symbols (loads it first if needed).
 * Thread safety: as dso__find_symbol.  Format: none.
 */
bool dso__symbol_span(struct dso *dso, uint64_t *start, uint64_t *end);

/** @brief Name printed in the "Shared Object" column (never NULL). */
static inline const char *dso__short_name(const struct dso *dso)
{
	return dso->short_name;
}

/** @brief The long name the dso was created with. */
/**
 * @brief The name perf keeps as the dso's own (dso->name): what perf script prints
 *        in a location's "(DSO)".  A kernel module a kernel MMAP made is named
 *        "[name]" (perf's machine__findnew_module_dso()); one a BUILD_ID entry of
 *        the header made first keeps its path (machine__findnew_dso_id()), as do
 *        all other dsos.
 * @return the short or the long name; borrowed from the dso.
 * Thread safety: read-only (a).
 * Format: BUILD_ID feature entries and kernel MMAP/MMAP2 file names.
 */
static inline const char *dso__name(const struct dso *dso)
{
	return dso->kind == DSO_KIND_MODULE && !dso->named_by_build_id ? dso->short_name :
	       dso->long_name;
}

static inline const char *dso__long_name(const struct dso *dso)
{
	return dso->long_name;
}

/** Flags returned by dso__mmap_name(). */
enum dso_mmap_flags {
	DSO_MMAP_IDENTITY = 1 << 0,	/* map_ip(ip) = ip: anonymous / no-dso memory */
	DSO_MMAP_VDSO = 1 << 1,		/* perf forces the map's pgoff to 0 */
};

/**
 * @brief The dso name perf 6.1 uses for an MMAP/MMAP2 file name, and how the map
 *        translates addresses.
 *
 * Anonymous memory ("//anon", "/dev/zero*", "/anon_hugepage*") and memory without a
 * dso ("[stack*", "/SYSV*", "[heap]") map identically; when executable they become
 * "/tmp/perf-PID.map" (short name "[JIT] tid PID").  "[vdso]" maps with pgoff 0.
 * @param filename  name from the record
 * @param pid       the record's pid
 * @param exec      mapping is executable (MMAP2: prot & PROT_EXEC; MMAP: not
 *                  PERF_RECORD_MISC_MMAP_DATA)
 * @param buf, len  receives the dso long name (NUL-terminated, truncated to fit)
 * @return DSO_MMAP_* flags.
 * Thread safety: pure.  Format: MMAP/MMAP2 filename, prot, misc.
 */
unsigned dso__mmap_name(const char *filename, int32_t pid, bool exec, char *buf,
			size_t len);

#endif
