#include "machine/dso.h"

#include <errno.h>
#include <fcntl.h>	/* open */
#include <gelf.h>	/* GElf_Shdr, gelf_getshdr, elf_getscn: .gnu_debuglink */
#include <elfutils/libdwelf.h>	/* dwelf_elf_gnu_build_id */
#include <limits.h>	/* PATH_MAX */
#include <pthread.h>	/* the check of a kallsyms copy read ahead */
#include <stdatomic.h>
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* snprintf, vsnprintf, sscanf */
#include <stdlib.h>	/* calloc, free, getenv, realpath */
#include <string.h>	/* strcmp, strdup, strrchr, memcpy */
#include <sys/auxv.h>	/* getauxval(AT_SYSINFO_EHDR): the running vdso */
#include <sys/stat.h>	/* stat, lstat */
#include <unistd.h>	/* geteuid, read, close */

#include "util/workqueue.h"
#include "util/hashtab.h"
#include "util/strtab.h"
#include "banned.h"

static void preload_free(struct dso *dso);
static void check_free(struct dso *dso);

struct dsos {
	struct dso **v;		/* owned, open-addressing hash by long name */
	size_t cap, nr;
	char *kallsyms;		/* owned option strings (NULL = default) */
	char *buildid_dir;
	char *debug_dir;
	char *kernel_notes;
	char *symfs;		/* --symfs; NULL = none */
	char *proc_kallsyms;	/* the running kernel's kallsyms */
	char *stale_dir;	/* where stale kallsyms copies are noted */
	bool no_demangle;
	bool no_self_vdso;
	bool kallsyms_ahead;
	bool kallsyms_cached;	/* dsos_opts.kallsyms_cached */
	bool check_at_take;	/* dsos_opts.kallsyms_check_at_take */
	bool kernel_span_only;
};

#define KERNEL_NAME "[kernel.kallsyms]"

static int dup_opt(char **dst, const char *src)
{
	*dst = NULL;
	if (!src)
		return 0;
	*dst = strdup(src);
	return *dst ? 0 : -ENOMEM;
}

int dsos__new(struct dsos **out, const struct dsos_opts *opts)
{
	struct dsos *d = calloc(1, sizeof(*d));
	const char *home;
	char buf[PATH_MAX];

	*out = NULL;
	if (!d)
		return -ENOMEM;
	if (opts) {
		d->no_demangle = opts->no_demangle;
		d->no_self_vdso = opts->no_self_vdso;
		d->kallsyms_ahead = opts->kallsyms_ahead;
		d->kallsyms_cached = opts->kallsyms_cached;
		d->check_at_take = opts->kallsyms_check_at_take;
		d->kernel_span_only = opts->kernel_span_only;
	}
	if (dup_opt(&d->kallsyms, opts ? opts->kallsyms : NULL) ||
	    dup_opt(&d->debug_dir, opts && opts->debug_dir ? opts->debug_dir
							     : "/usr/lib/debug") ||
	    dup_opt(&d->kernel_notes, opts && opts->kernel_notes ? opts->kernel_notes
								  : "/sys/kernel/notes") ||
	    dup_opt(&d->proc_kallsyms, opts && opts->proc_kallsyms ? opts->proc_kallsyms
								    : "/proc/kallsyms") ||
	    dup_opt(&d->stale_dir, opts && opts->stale_dir ? opts->stale_dir : "/dev/shm") ||
	    /* perf: a symfs of "/" is no symfs */
	    dup_opt(&d->symfs, opts && opts->symfs && opts->symfs[0] &&
			       strcmp(opts->symfs, "/") ? opts->symfs : NULL))
		goto err;
	if (opts && opts->buildid_dir) {
		if (dup_opt(&d->buildid_dir, opts->buildid_dir))
			goto err;
	} else {
		home = getenv("HOME");
		snprintf(buf, sizeof(buf), "%s/.debug", home ? home : "");
		if (dup_opt(&d->buildid_dir, buf))
			goto err;
	}
	*out = d;
	return 0;
err:
	dsos__delete(d);
	return -ENOMEM;
}

static void dso__delete(struct dso *dso)
{
	if (!dso)
		return;
	free(dso->long_name);
	free(dso->short_name);
	free(dso->symsrc_path);
	free(dso->ref_name);
	check_free(dso);
	preload_free(dso);
	symtab__exit(&dso->symtab);
	kmod_symbols__exit(&dso->kmods);
	free(dso);
}

void dsos__delete(struct dsos *d)
{
	if (!d)
		return;
	for (size_t i = 0; i < d->cap; i++)
		dso__delete(d->v[i]);
	free(d->v);
	free(d->kallsyms);
	free(d->buildid_dir);
	free(d->debug_dir);
	free(d->kernel_notes);
	free(d->symfs);
	free(d->proc_kallsyms);
	free(d->stale_dir);
	free(d);
}

struct dso *dsos__find(const struct dsos *d, const char *long_name)
{
	size_t i;

	if (!d->cap)
		return NULL;
	i = hashtab__first(str__hash(long_name), d->cap);
	while (d->v[i]) {
		if (!strcmp(d->v[i]->long_name, long_name))
			return d->v[i];
		i = hashtab__next(i, d->cap);
	}
	return NULL;
}

static uint64_t dso_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return str__hash((*(struct dso *const *)slot)->long_name);
}

static bool is_vdso_name(const char *s)
{
	return !strcmp(s, "[vdso]") || !strcmp(s, "[vdso32]") || !strcmp(s, "[vdsox32]");
}

/* perf's dso__set_basename(): "[JIT] tid N" for /tmp/perf-N..., else the basename. */
static char *short_name_of(const char *long_name)
{
	const char *slash;
	char buf[64];
	int tid;

	if (sscanf(long_name, "/tmp/perf-%d.map", &tid) == 1) {
		snprintf(buf, sizeof(buf), "[JIT] tid %d", tid);
		return strdup(buf);
	}
	slash = strrchr(long_name, '/');
	return strdup(slash ? slash + 1 : long_name);
}

struct dso *dsos__findnew(struct dsos *d, const char *long_name)
{
	struct dso *dso = dsos__find(d, long_name);
	size_t i;
	int tid;

	if (dso)
		return dso;
	if (hashtab__reserve(&d->v, &d->cap, d->nr, sizeof(*d->v), 64, dso_slot_hash, NULL))
		return NULL;
	dso = calloc(1, sizeof(*dso));
	if (!dso)
		return NULL;
	dso->long_name = strdup(long_name);
	dso->short_name = short_name_of(long_name);
	if (!dso->long_name || !dso->short_name) {
		dso__delete(dso);
		return NULL;
	}
	dso->owner = d;
	dso->origin_letter = '!';
	dso->seq = (uint32_t)d->nr;
	if (!strcmp(long_name, KERNEL_NAME))
		dso->kind = DSO_KIND_KERNEL;
	else if (is_vdso_name(long_name))
		dso->kind = DSO_KIND_VDSO;
	else if (!strncmp(long_name, "/tmp/perf-", 10) &&
		 sscanf(long_name, "/tmp/perf-%d", &tid) == 1)
		dso->kind = DSO_KIND_PERF_MAP;
	i = hashtab__first(str__hash(long_name), d->cap);
	while (d->v[i])
		i = hashtab__next(i, d->cap);
	d->v[i] = dso;
	d->nr++;
	return dso;
}

/* perf's kmod_path__parse_name(): "[base]" for a (compressed) .ko file, else the
 * base name; '-' becomes '_' either way. */
static char *module_short_name(const char *path)
{
	const char *base = strrchr(path, '/'), *ext;
	char *name;
	size_t len;

	base = base ? base + 1 : path;
	ext = strrchr(base, '.');
	if (ext && (!strcmp(ext, ".gz") || !strcmp(ext, ".xz") || !strcmp(ext, ".zst")))
		ext = ext - base >= 3 ? ext - 3 : NULL;	/* perf steps back over ".ko" */
	if (ext && ext > base && !strncmp(ext, ".ko", 3)) {
		len = (size_t)(ext - base);
		name = malloc(len + 3);
		if (name)
			snprintf(name, len + 3, "[%.*s]", (int)len, base);
	} else {
		name = strdup(base);
	}
	for (char *p = name; p && *p; p++)
		if (*p == '-')
			*p = '_';
	return name;
}

struct dso *dsos__findnew_module(struct dsos *d, const char *path)
{
	struct dso *dso = dsos__findnew(d, path);
	char *name;

	if (!dso || dso->kind == DSO_KIND_MODULE)
		return dso;
	name = module_short_name(path);
	if (!name)
		return NULL;
	free(dso->short_name);
	dso->short_name = name;
	dso->kind = DSO_KIND_MODULE;
	return dso;
}

int dso__take_module_symbols(struct dso *mod, const struct dso *kernel, uint64_t map_start)
{
	int nr;

	if (mod->loaded)
		return 0;
	nr = kmod_symbols__table(&kernel->kmods, mod->short_name, map_start, &mod->symtab);
	if (nr < 0) {
		symtab__exit(&mod->symtab);
		return nr;
	}
	/* perf -v prints the origin of a .ko module's dso, set when it is made
	 * (DSO_BINARY_TYPE__SYSTEM_PATH_KMODULE, 'K'), whatever gave the symbols */
	mod->origin = nr ? SYMTAB_ORIGIN_KALLSYMS : SYMTAB_ORIGIN_NONE;
	mod->origin_letter = nr && mod->short_name[0] == '[' ? 'K' : '!';
	if (nr && kernel->symsrc_path && !(mod->symsrc_path = strdup(kernel->symsrc_path))) {
		symtab__exit(&mod->symtab);
		return -ENOMEM;
	}
	mod->loaded = true;
	return 0;
}

struct dso *dsos__kernel(struct dsos *d)
{
	return dsos__findnew(d, KERNEL_NAME);
}

int dso__set_kernel_ref(struct dso *kdso, const char *mmap_name, uint64_t pgoff)
{
	const char *p = strchr(mmap_name, ']');
	char *name;

	if (!p || !p[1])
		return 0;
	name = strdup(p + 1);
	if (!name)
		return -ENOMEM;
	free(kdso->ref_name);
	kdso->ref_name = name;
	kdso->ref_addr = pgoff;
	return 0;
}

void dso__set_build_id(struct dso *dso, const uint8_t *id, size_t size)
{
	if (dso->loaded)
		return;
	if (size > DSO_BUILD_ID_MAX)
		size = DSO_BUILD_ID_MAX;
	memcpy(dso->build_id, id, size);
	dso->build_id_size = (uint8_t)size;
	dso->has_build_id = true;
}

/* A name module_short_name() brackets. */
static bool is_kmod_path(const char *path)
{
	char *name = module_short_name(path);
	bool kmod = name && name[0] == '[';

	free(name);
	return kmod;
}

int dsos__apply_build_id(struct dsos *d, int32_t pid, uint16_t misc, const char *filename,
			 const uint8_t *id, size_t size)
{
	unsigned cpumode = misc & 7;
	struct dso *dso;

	/* perf keeps guest machines apart; cpumodes 1 kernel, 2 user, 4/5 guest */
	if (pid != -1 || (cpumode != 1 && cpumode != 2))
		return 0;
	/* perf's __event_process_build_id(): a kernel-space .ko is a module */
	if (cpumode == 1 && strcmp(filename, KERNEL_NAME) && is_kmod_path(filename)) {
		/* made here, perf names it by its path (see dso__name()) */
		bool made = !dsos__find(d, filename);

		dso = dsos__findnew_module(d, filename);
		if (dso && made)
			dso->named_by_build_id = true;
	} else {
		dso = dsos__findnew(d, filename);
	}
	if (!dso)
		return -ENOMEM;
	dso__set_build_id(dso, id, size);
	return 0;
}

int dsos__load_all(struct dsos *d)
{
	for (size_t i = 0; i < d->cap; i++)
		if (d->v[i] && dso__load(d->v[i]) == -ENOMEM)
			return -ENOMEM;
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Candidate files                                                           */
/* ------------------------------------------------------------------------ */

/* snprintf into a path buffer; false if it did not fit. */
static bool __attribute__((format(printf, 3, 4)))
pathf(char *out, size_t len, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(out, len, fmt, ap);
	va_end(ap);
	return n >= 0 && (size_t)n < len;
}

/* path under the --symfs directory (as is without one); a '/' is put between the
 * two unless one is there already. */
static bool symfs_path(const struct dsos *d, char *out, size_t len, const char *path)
{
	const char *fs = d->symfs;
	size_t n = fs ? strlen(fs) : 0;

	if (!fs)
		return pathf(out, len, "%s", path);
	return pathf(out, len, "%s%s%s", fs, n && fs[n - 1] != '/' && path[0] != '/' ? "/" : "",
		     path);
}

static bool is_regular_file(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISREG(st.st_mode);
}

static void build_id_hex(const struct dso *dso, char *hex)
{
	static const char digits[] = "0123456789abcdef";

	for (size_t i = 0; i < dso->build_id_size; i++) {
		hex[2 * i] = digits[dso->build_id[i] >> 4];
		hex[2 * i + 1] = digits[dso->build_id[i] & 15];
	}
	hex[2 * dso->build_id_size] = '\0';
}

/* File named by .gnu_debuglink of path; false if none. */
static bool read_debuglink(const char *path, char *out, size_t len)
{
	struct symsrc ss;
	bool ok = false;
	size_t shstrndx, nsec;

	if (symsrc__open(&ss, path, NULL, 0))
		return false;
	if (!elf_getshdrstrndx(ss.elf, &shstrndx) && !elf_getshdrnum(ss.elf, &nsec)) {
		for (size_t i = 1; i < nsec && !ok; i++) {
			Elf_Scn *scn = elf_getscn(ss.elf, i);
			GElf_Shdr sh;
			Elf_Data *data;
			const char *nm;

			if (!scn || !gelf_getshdr(scn, &sh))
				continue;
			nm = elf_strptr(ss.elf, shstrndx, sh.sh_name);
			if (!nm || strcmp(nm, ".gnu_debuglink"))
				continue;
			data = elf_getdata(scn, NULL);
			if (data && data->d_size &&
			    strnlen(data->d_buf, data->d_size) < data->d_size) {
				snprintf(out, len, "%s", (const char *)data->d_buf);
				ok = true;
			}
			break;
		}
	}
	symsrc__close(&ss);
	return ok;
}

enum cand {
	CAND_DEBUGLINK,
	CAND_BUILDID_CACHE,
	CAND_BUILDID_CACHE_DEBUG,
	CAND_FEDORA,
	CAND_UBUNTU,
	CAND_BUILDID_DEBUGINFO,
	CAND_SYSTEM_PATH,
	CAND_OPENEMBEDDED,
	CAND_MIXEDUP_UBUNTU,
	CAND__NR,
};

/* perf's dso__symtab_origin() letter of each candidate (perf -v prints it). */
static const char cand_origin[CAND__NR] = {
	[CAND_DEBUGLINK] = 'l', [CAND_BUILDID_CACHE] = 'B',
	[CAND_BUILDID_CACHE_DEBUG] = 'D', [CAND_FEDORA] = 'f', [CAND_UBUNTU] = 'u',
	[CAND_BUILDID_DEBUGINFO] = 'b', [CAND_SYSTEM_PATH] = 'd',
	[CAND_OPENEMBEDDED] = 'o', [CAND_MIXEDUP_UBUNTU] = 'x',
};

/* Path of a build-id cache entry: .../.build-id/xx/yyyy/<base>. */
static bool cache_path(const struct dso *dso, bool debug, char *out, size_t len)
{
	const struct dsos *d = dso->owner;
	char hex[2 * DSO_BUILD_ID_MAX + 1];
	char link[PATH_MAX];

	if (!dso->has_build_id)
		return false;
	build_id_hex(dso, hex);
	snprintf(link, sizeof(link), "%s/.build-id/%.2s/%s", d->buildid_dir, hex, hex + 2);
	if (is_regular_file(link))	/* old-style cache: the link is the file */
		return pathf(out, len, "%s", link);
	return pathf(out, len, "%s/%s", link,
		     dso->kind == DSO_KIND_VDSO ? "vdso" : debug ? "debug" : "elf");
}

/* perf's dso__read_binary_type_filename(); false if the candidate does not apply. */
static bool candidate(const struct dso *dso, enum cand c, char *out, size_t len)
{
	const struct dsos *d = dso->owner;
	const char *name = dso->long_name;
	const char *slash = strrchr(name, '/');
	int dirlen = slash ? (int)(slash - name) : 0;
	char hex[2 * DSO_BUILD_ID_MAX + 1];
	char link[PATH_MAX];

	char dbg[PATH_MAX];

	switch (c) {
	case CAND_DEBUGLINK: {
		char dir[PATH_MAX], file[PATH_MAX];
		const char *fslash;

		/* the dso's file and its directory under the symfs */
		if (!symfs_path(d, file, sizeof(file), name) || !is_regular_file(file) ||
		    !read_debuglink(file, link, sizeof(link)))
			return false;
		fslash = strrchr(file, '/');
		snprintf(dir, sizeof(dir), "%.*s", fslash ? (int)(fslash - file) : 0, file);
		/* the debuglink name as is (cwd), DIR/, DIR/.debug/, DEBUGDIR/DIR/ */
		return (pathf(out, len, "%s", link) && is_regular_file(out)) ||
		       (pathf(out, len, "%s/%s", dir, link) && is_regular_file(out)) ||
		       (pathf(out, len, "%s/.debug/%s", dir, link) && is_regular_file(out)) ||
		       (pathf(out, len, "%s%s/%s", d->debug_dir, dir, link) &&
			is_regular_file(out));
	}
	/* perf 6.1 finds nothing in the build-id cache when a symfs is given
	 * (observed: neither BUILDID_DIR nor SYMFS/BUILDID_DIR is read) */
	case CAND_BUILDID_CACHE:
		return !d->symfs && cache_path(dso, false, out, len);
	case CAND_BUILDID_CACHE_DEBUG:
		return !d->symfs && cache_path(dso, true, out, len);
	/* the others are under the symfs */
	case CAND_FEDORA:
		return pathf(dbg, sizeof(dbg), "%s%s.debug", d->debug_dir, name) &&
		       symfs_path(d, out, len, dbg);
	case CAND_UBUNTU:
		return pathf(dbg, sizeof(dbg), "%s%s", d->debug_dir, name) &&
		       symfs_path(d, out, len, dbg);
	case CAND_BUILDID_DEBUGINFO:
		if (!dso->has_build_id)
			return false;
		build_id_hex(dso, hex);
		return pathf(dbg, sizeof(dbg), "%s/.build-id/%.2s/%s.debug", d->debug_dir,
			     hex, hex + 2) &&
		       symfs_path(d, out, len, dbg);
	case CAND_SYSTEM_PATH:
		return symfs_path(d, out, len, name);
	case CAND_OPENEMBEDDED:
		return slash && pathf(dbg, sizeof(dbg), "%.*s/.debug%s", dirlen, name, slash) &&
		       symfs_path(d, out, len, dbg);
	case CAND_MIXEDUP_UBUNTU:
		if (strncmp(name, "/usr/lib/", 9))
			return false;
		return pathf(dbg, sizeof(dbg), "%s%s", d->debug_dir, name + 4) &&
		       symfs_path(d, out, len, dbg);
	default:
		return false;
	}
}

bool dso__data_path(const struct dso *dso, char *out, size_t len)
{
	if (dso->kind != DSO_KIND_USER && dso->kind != DSO_KIND_VDSO)
		return false;
	/* perf's binary_type_data[]: the build-id cache, then the system path */
	if (candidate(dso, CAND_BUILDID_CACHE, out, len) && is_regular_file(out))
		return true;
	return dso->kind == DSO_KIND_USER && candidate(dso, CAND_SYSTEM_PATH, out, len) &&
	       is_regular_file(out);
}

/* The dso's symbol table is in place: where it came from. */
/* The dso took a table of nr symbols (its symtab's; a span-only kernel's, of the
 * table it stands for) from `path`: its origin; nr or -ENOMEM. */
static int took_symtab(struct dso *dso, size_t nr, enum symtab_origin o, const char *path,
		       char letter)
{
	dso->origin = nr ? o : SYMTAB_ORIGIN_NONE;
	dso->origin_letter = nr ? letter : '!';
	if (path && nr) {
		dso->symsrc_path = strdup(path);
		if (!dso->symsrc_path)
			return -ENOMEM;
	}
	return (int)nr;
}

static int take_symtab(struct dso *dso, struct symtab_builder *b, enum symtab_origin o,
		       const char *path, char letter)
{
	int err = symtab_builder__finish(b, &dso->symtab);

	return err ? err : took_symtab(dso, dso->symtab.nr, o, path, letter);
}

/* take_symtab() after a loader that returned nr: a failure other than -ENOMEM is the
 * dso's load_err (no symbols, 0 returned), -ENOMEM is returned. */
static int take_loaded(struct dso *dso, struct symtab_builder *b, int nr,
		       enum symtab_origin o, const char *path, char letter)
{
	if (nr < 0) {
		symtab_builder__exit(b);
		if (nr == -ENOMEM)
			return nr;
		dso->load_err = nr;
		return 0;
	}
	return take_symtab(dso, b, o, path, letter);
}

/* Read the build-id from the dso's own file when it has none (perf does this). */
static void own_build_id(struct dso *dso)
{
	struct symsrc ss;
	const void *note;
	char path[PATH_MAX];
	ssize_t n;

	if (dso->has_build_id || !symfs_path(dso->owner, path, sizeof(path), dso->long_name) ||
	    !is_regular_file(path))
		return;
	if (symsrc__open(&ss, path, NULL, 0))
		return;
	n = dwelf_elf_gnu_build_id(ss.elf, &note);
	if (n > 0)
		dso__set_build_id(dso, note, (size_t)n);
	symsrc__close(&ss);
}

/* Size of an ELF image in memory: the furthest header table or segment end. */
static size_t elf_image_size(const unsigned char *p)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)(const void *)p;
	size_t size = (size_t)eh->e_shoff + (size_t)eh->e_shnum * eh->e_shentsize;

	for (size_t i = 0; i < eh->e_phnum; i++) {
		const Elf64_Phdr *ph = (const Elf64_Phdr *)(const void *)
			(p + eh->e_phoff + i * eh->e_phentsize);

		if (ph->p_offset + ph->p_filesz > size)
			size = ph->p_offset + ph->p_filesz;
	}
	return size;
}

/* A [vdso] without a build-id: perf loads its own process's vdso. */
static int load_self_vdso(struct dso *dso, struct symtab_builder *b)
{
	const unsigned char *img = (const unsigned char *)getauxval(AT_SYSINFO_EHDR);
	struct symsrc ss;
	int nr;

	if (!img || dso->owner->no_self_vdso || memcmp(img, ELFMAG, SELFMAG) ||
	    img[EI_CLASS] != ELFCLASS64)
		return 0;
	if (symsrc__open_mem(&ss, img, elf_image_size(img), NULL, 0))
		return 0;
	nr = symtab__load_elf(b, &ss, &ss, !dso->owner->no_demangle);
	symsrc__close(&ss);
	return nr;
}

/*
 * perf's choice of symbol sources: the first candidate file with a .symtab (syms)
 * and the first with a .dynsym (rt), each the other where one is missing.  Opens up
 * to two files into srcs (the caller closes the returned number of them) and
 * writes their origin letters.
 */
static int pick_symsrcs(const struct dso *dso, struct symsrc srcs[2], char letters[2],
			struct symsrc **syms, struct symsrc **rt)
{
	char path[PATH_MAX];
	int used = 0;

	*syms = *rt = NULL;
	for (int c = 0; c < CAND__NR && used < 2; c++) {
		struct symsrc *ss = &srcs[used];
		bool keep = false;

		if (!candidate(dso, (enum cand)c, path, sizeof(path)) ||
		    !is_regular_file(path))
			continue;
		if (symsrc__open(ss, path, dso->has_build_id ? dso->build_id : NULL,
				 dso->build_id_size))
			continue;
		if (!*syms && ss->has_symtab) {
			*syms = ss;
			keep = true;
		}
		if (!*rt && ss->has_dynsym) {
			*rt = ss;
			keep = true;
		}
		if (!keep) {
			symsrc__close(ss);
			continue;
		}
		letters[used++] = cand_origin[c];
		if (*syms && *rt)
			break;
	}
	if (!*syms)
		*syms = *rt;
	if (!*rt)
		*rt = *syms;
	return used;
}

int dso__symsrc_guess(const struct dso *dso, char *out, size_t len)
{
	struct symsrc srcs[2], *syms, *rt;
	char letters[2];
	int used, err = -ENOENT;

	/* without a build-id, dso__load() reads the file's own first */
	if (dso->kind != DSO_KIND_USER || !dso->has_build_id)
		return -ENOENT;
	used = pick_symsrcs(dso, srcs, letters, &syms, &rt);
	if (syms && syms->has_symtab && syms->path)
		err = pathf(out, len, "%s", syms->path) ? 0 : -ENAMETOOLONG;
	for (int i = 0; i < used; i++)
		symsrc__close(&srcs[i]);
	return err;
}

/* perf's dso__load() for user-space dsos. */
static int load_user(struct dso *dso)
{
	struct symtab_builder b = { 0 };
	struct symsrc srcs[2], *syms = NULL, *rt = NULL;
	char letters[2] = { '!', '!' };
	int nr = 0, used = 0;

	if (dso->kind == DSO_KIND_VDSO && !dso->has_build_id) {
		nr = load_self_vdso(dso, &b);
		if (nr < 0) {
			symtab_builder__exit(&b);
			return nr;
		}
		/* perf copies its own vdso to a file: a system path dso */
		return take_symtab(dso, &b, SYMTAB_ORIGIN_ELF, "[vdso] of this process", 'd');
	}
	own_build_id(dso);
	used = pick_symsrcs(dso, srcs, letters, &syms, &rt);
	if (syms)
		nr = symtab__load_elf(&b, syms, rt, !dso->owner->no_demangle);
	/* perf's symsrc_filename: only a file with a .symtab is named; without one
	 * (a stripped file, .dynsym only) its addr2line reads the dso's own path */
	if (nr >= 0)
		nr = take_symtab(dso, &b, SYMTAB_ORIGIN_ELF,
				 syms && syms->has_symtab ? syms->path : NULL,
				 syms == &srcs[0] ? letters[0] : letters[1]);
	else
		symtab_builder__exit(&b);
	for (int i = 0; i < used; i++)
		symsrc__close(&srcs[i]);
	if (nr == -ENOMEM)
		return nr;
	if (nr < 0) {
		dso->load_err = nr;
		return 0;
	}
	if (!syms)
		dso->load_err = -ENOENT;
	return nr;
}

static int load_perf_map(struct dso *dso)
{
	struct symtab_builder b = { 0 };
	struct stat st;
	int nr;

	if (lstat(dso->long_name, &st)) {
		dso->load_err = -errno;
		return 0;
	}
	/* perf ignores a map file owned by someone else (unless -f) */
	if (st.st_uid && st.st_uid != geteuid()) {
		dso->load_err = -EPERM;
		return 0;
	}
	nr = symtab__load_perf_map(&b, dso->long_name);
	return take_loaded(dso, &b, nr, SYMTAB_ORIGIN_PERF_MAP, dso->long_name, 'j');
}

/* The running kernel's build-id from a notes file (/sys/kernel/notes). */
static bool running_kernel_is(const struct dso *dso, const char *notes)
{
	unsigned char buf[4096];
	ssize_t n;
	size_t off = 0;
	int fd = open(notes, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	while (n > 0 && off + 12 <= (size_t)n) {
		uint32_t namesz, descsz, type;
		size_t name_off = off + 12, desc_off;

		memcpy(&namesz, buf + off, 4);
		memcpy(&descsz, buf + off + 4, 4);
		memcpy(&type, buf + off + 8, 4);
		desc_off = name_off + ((namesz + 3) & ~3u);
		if (desc_off + descsz > (size_t)n)
			break;
		if (type == 3 /* NT_GNU_BUILD_ID */ && namesz == 4 &&
		    !memcmp(buf + name_off, "GNU", 4))
			return descsz == dso->build_id_size &&
			       !memcmp(buf + desc_off, dso->build_id, descsz);
		off = desc_off + ((descsz + 3) & ~3u);
	}
	return false;
}

/* The kallsyms file perf reads for this kernel dso; NULL: none (perf reads no local
 * file when a symfs is given, only --kallsyms). */
static const char *kallsyms_file(const struct dso *dso, char *path, size_t len)
{
	const struct dsos *d = dso->owner;

	if (d->kallsyms)
		return d->kallsyms;
	if (d->symfs)
		return NULL;
	if (dso->has_build_id) {
		char hex[2 * DSO_BUILD_ID_MAX + 1];
		struct stat st;

		build_id_hex(dso, hex);
		snprintf(path, len, "%s/" KERNEL_NAME "/%s/kallsyms", d->buildid_dir, hex);
		if (d->kallsyms_cached && !stat(path, &st) && S_ISREG(st.st_mode))
			return path;
		if (!running_kernel_is(dso, d->kernel_notes))
			return path;
	}
	return d->proc_kallsyms;
}

struct kallsyms_preload {
	char path[PATH_MAX];		/* the file that was read */
	struct kallsyms_text text;	/* where its _text is */
	bool from_copy;			/* read from the build-id cache's copy of
					 * `path` (dso->check checks it) */
	int err;			/* reading failed: load normally */
	/* the table as dso__load() builds it when the recording's kernel sits where
	 * the file's does (no relocation: most recordings) */
	int nr;				/* symtab__finish_kallsyms()'s answer */
	struct symtab symtab;		/* owned until taken */
	bool span;			/* dsos.kernel_span_only: the table was not
					 * built, its span kept (symtab empty, no
					 * kmods); false when it had no symbol */
	uint64_t span_start, span_end;
	struct kmod_symbols kmods;	/* owned until taken */
};

static void preload_parse(void *blk)
{
	kallsyms_block__parse(blk);
}

/* The check of a kallsyms copy read ahead: its thread compares the running kernel's
 * file with the copy (dso__check_kernel()). */
struct kallsyms_check {
	pthread_t thread;
	bool started;			/* its thread runs: from when the copy is parsed
					 * (check_run()) */
	bool taken;			/* load_kernel() took the table read from the copy:
					 * the check's answer counts (check_take()) */
	bool joined;			/* its thread joined (or the check done in place) */
	bool noted;			/* found stale: noted (stale_write()) */
	atomic_bool stop;		/* give up (the check is not needed any more) */
	atomic_bool done;		/* its thread has its answer (check_main()) */
	int live, copy;			/* owned: the running kernel's file, read on from
					 * `from`; the copy (pread() only: the loader
					 * reads a descriptor that shares its offset) */
	uint64_t from;
	int result;			/* same_stream()'s */
	uint64_t offset;
	char stale[PATH_MAX];		/* the note written where the copy differs */
	char note[128];			/* what it says: the boot, the copy's identity */
};

/* n bytes or up to the end, with read() (at < 0: from the file's offset) or pread()
 * at `at`; the bytes read, or -1 (errno). */
static ssize_t read_full(int fd, char *buf, size_t n, int64_t at)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = at < 0 ? read(fd, buf + got, n - got)
				   : pread(fd, buf + got, n - got, (off_t)at + (off_t)got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -1;
		if (r == 0)
			break;
		got += (size_t)r;
	}
	return (ssize_t)got;
}

/* Whether fa, read on from where it is (offset `from` of its file), holds the bytes
 * fb holds from `from` on (fb read with pread()); as kallsyms__same_file(), where
 * *offset is counted from the files' start.  Gives up (-ECANCELED) once *stop. */
static int same_stream(int fa, int fb, uint64_t from, atomic_bool *stop, uint64_t *offset)
{
	enum { CHUNK = 64 << 10 };
	char *ba = malloc(CHUNK), *bb = malloc(CHUNK + 1);
	int ret = -ENOMEM;

	*offset = from;
	while (ba && bb) {
		/* a /proc file gives up to a page a read(): read() until a chunk is
		 * full; the other file as much as that (one byte more at the end) */
		ssize_t na, nb;

		if (stop && atomic_load_explicit(stop, memory_order_relaxed)) {
			ret = -ECANCELED;
			break;
		}
		if ((na = read_full(fa, ba, CHUNK, -1)) < 0 ||
		    (nb = read_full(fb, bb, (size_t)na + (na < CHUNK), (int64_t)*offset)) < 0) {
			ret = -errno;
			break;
		}
		if (nb != na || memcmp(ba, bb, (size_t)na)) {
			size_t k = 0;

			while (k < (size_t)na && k < (size_t)nb && ba[k] == bb[k])
				k++;
			*offset += k;
			ret = 1;
			break;
		}
		*offset += (uint64_t)na;
		if (na < CHUNK) {	/* both ended here */
			ret = 0;
			break;
		}
	}
	free(ba);
	free(bb);
	return ret;
}

int kallsyms__same_file(const char *a, const char *b, uint64_t *offset)
{
	int fa = open(a, O_RDONLY | O_CLOEXEC), fb = open(b, O_RDONLY | O_CLOEXEC);
	int ret = fa < 0 || fb < 0 ? -errno : same_stream(fa, fb, 0, NULL, offset);

	if (fa < 0 || fb < 0)
		*offset = 0;
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return ret;
}

static void *check_main(void *arg)
{
	struct kallsyms_check *c = arg;

	c->result = same_stream(c->live, c->copy, c->from, &c->stop, &c->offset);
	atomic_store_explicit(&c->done, true, memory_order_release);
	return NULL;
}

/* When this boot started (/proc/stat's btime, seconds since the epoch); 0 if unknown. */
static long long boot_time(void)
{
	char line[256];
	long long t = 0;
	FILE *f = fopen("/proc/stat", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "btime %lld", &t) == 1)
			break;
	fclose(f);
	return t;
}

/* The note of a stale copy: its path for the copy of build-id `hex` and what it
 * says for the copy `st` in the boot that began at `btime`. */
static void stale_note(const struct dsos *d, const char *hex, const struct stat *st,
		       long long btime, char *path, size_t len, char *note, size_t nlen)
{
	snprintf(path, len, "%s/dirreport-kallsyms-%u-%s", d->stale_dir, (unsigned)geteuid(),
		 hex);
	snprintf(note, nlen, "%lld %llu %llu %lld %lld.%09ld\n", btime,
		 (unsigned long long)st->st_dev, (unsigned long long)st->st_ino,
		 (long long)st->st_size, (long long)st->st_mtim.tv_sec, st->st_mtim.tv_nsec);
}

/* Whether the note at `path` is ours and says `note`. */
static bool stale_noted(const char *path, const char *note)
{
	char buf[128];
	struct stat st;
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);

	if (fd < 0)
		return false;
	n = fstat(fd, &st) || !S_ISREG(st.st_mode) || st.st_uid != geteuid() ? -1 :
	    read_full(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	return n >= 0 && (size_t)n == strlen(note) && !memcmp(buf, note, (size_t)n);
}

/* Note the copy stale for the rest of the boot (best effort: a note that cannot be
 * written only costs the next run its check). */
static void stale_write(const struct kallsyms_check *c)
{
	int fd = open(c->stale, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		return;
	if (write(fd, c->note, strlen(c->note)) < 0)
		(void)unlink(c->stale);
	close(fd);
}

/* With kallsyms_ahead, for kernel symbols from the running kernel's file (`file`):
 * an open descriptor of the build-id cache's copy to read instead, its check set up
 * (dso->check, started once the copy is parsed: check_run()); -1 to read `file`
 * (no copy; one from before this boot or whose first page is not the file's, i.e.
 * another boot's addresses: the check would fail; no worker to overlap with). */
static int ahead_copy(struct dso *dso, const char *file, struct workqueue *wq)
{
	const struct dsos *d = dso->owner;
	char hex[2 * DSO_BUILD_ID_MAX + 1], copy[PATH_MAX], a[4096], b[4096], stale[PATH_MAX],
	     note[128];
	struct kallsyms_check *c = NULL;
	int fc = -1, fl = -1, fd = -1;
	long long btime;
	struct stat st;
	ssize_t n;

	if (!d->kallsyms_ahead || d->kallsyms || d->symfs || strcmp(file, d->proc_kallsyms) ||
	    !dso->has_build_id || !wq || !workqueue__nr_workers(wq) || dso->check)
		return -1;
	build_id_hex(dso, hex);
	if (snprintf(copy, sizeof(copy), "%s/" KERNEL_NAME "/%s/kallsyms", d->buildid_dir,
		     hex) >= (int)sizeof(copy) ||
	    (fc = open(copy, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fc, &st) ||
	    !S_ISREG(st.st_mode) || ((btime = boot_time()) && st.st_mtime < btime))
		goto none;
	/* not a copy found stale earlier in this boot */
	stale_note(d, hex, &st, btime, stale, sizeof(stale), note, sizeof(note));
	if (stale_noted(stale, note) || (fl = open(file, O_RDONLY | O_CLOEXEC)) < 0)
		goto none;
	/* the first read() of the running kernel's file gives a page of it */
	n = read(fl, a, sizeof(a));
	if (n <= 0 || read_full(fc, b, (size_t)n, 0) != n || memcmp(a, b, (size_t)n) ||
	    !(c = calloc(1, sizeof(*c))) || (fd = dup(fc)) < 0)
		goto none;
	c->live = fl;
	c->copy = fc;
	c->from = (uint64_t)n;
	snprintf(c->stale, sizeof(c->stale), "%s", stale);
	snprintf(c->note, sizeof(c->note), "%s", note);
	atomic_init(&c->stop, false);
	atomic_init(&c->done, false);
	dso->check = c;		/* started once the copy is parsed (check_run()) */
	return fd;
none:
	if (fd >= 0)
		close(fd);
	if (fl >= 0)
		close(fl);
	if (fc >= 0)
		close(fc);
	free(c);
	return -1;
}

/*
 * The check's thread, started once the copy has parsed (dso__preload_kernel()), before
 * the table is finished and long before it is taken: on a machine of few cores the
 * check takes the core that the finish, which runs alone while the first batch waits
 * for it, leaves idle (the bench file's flat report at -j 2: ten milliseconds of one
 * core idle at its start).  A table never taken (no kernel address looked up, another
 * reference address, the file read again) has its check stopped (check_join()), its
 * answer unused: that costs the CPU it took until then, on its own thread.
 */
static void check_run(struct kallsyms_check *c)
{
	if (c->started || c->joined)
		return;
	c->started = pthread_create(&c->thread, NULL, check_main, c) == 0;
	/* named here, not in the thread: the name is there when this returns (for
	 * perf, top - and tests that count the check's threads) */
	if (c->started)
		(void)pthread_setname_np(c->thread, "dr-kallsyms");
}

/* The copy's table is taken: the check's answer counts; done in place when its
 * thread could not be started. */
static void check_take(struct kallsyms_check *c)
{
	if (c->taken)
		return;
	c->taken = true;
	check_run(c);
	if (!c->started && !c->joined) {
		c->result = same_stream(c->live, c->copy, c->from, &c->stop, &c->offset);
		c->joined = true;
	}
}

/* Join the check's thread once (asking it to give up first when `stop`); the files
 * closed. */
static void check_join(struct kallsyms_check *c, bool stop)
{
	if (c->started && !c->joined) {
		if (stop)
			atomic_store_explicit(&c->stop, true, memory_order_relaxed);
		pthread_join(c->thread, NULL);
	}
	c->joined = true;
	if (c->live >= 0)
		close(c->live);
	if (c->copy >= 0)
		close(c->copy);
	c->live = c->copy = -1;
}

enum kallsyms_check_result dso__check_kernel(struct dso *dso, uint64_t *offset)
{
	struct kallsyms_check *c = dso->check;

	if (!c || !c->taken)	/* the copy's table was not used (no kernel sample
				 * yet, another reference address, a copy that did
				 * not parse): nothing was checked */
		return KALLSYMS_NOT_AHEAD;
	check_join(c, false);
	if (c->result && !c->noted) {
		stale_write(c);
		c->noted = true;
	}
	if (offset)
		*offset = c->offset;
	return c->result ? KALLSYMS_DIFFER : KALLSYMS_SAME;
}

enum kallsyms_check_state dso__check_kernel_state(const struct dso *dso)
{
	const struct kallsyms_check *c = dso->check;

	if (!c || c->joined)
		return KALLSYMS_CHECK_SETTLED;
	if (!c->taken)
		return KALLSYMS_CHECK_UNUSED;
	if (c->started && !atomic_load_explicit(&c->done, memory_order_acquire))
		return KALLSYMS_CHECK_RUNNING;
	return KALLSYMS_CHECK_SETTLED;
}

static void check_free(struct dso *dso)
{
	if (dso->check) {
		check_join(dso->check, true);
		free(dso->check);
		dso->check = NULL;
	}
}

int dso__preload_kernel(struct dso *dso, struct workqueue *wq, struct wq_group *g)
{
	struct symtab_builder b = { 0 };
	struct kallsyms_load l;
	struct wq_group blocks = { .parent = g };
	struct kallsyms_preload *p;
	char path[PATH_MAX];
	const char *file;
	int from;

	if (dso->kind != DSO_KIND_KERNEL || dso->loaded || dso->preload)
		return 0;
	file = kallsyms_file(dso, path, sizeof(path));
	if (!file)
		return 0;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	snprintf(p->path, sizeof(p->path), "%s", file);
	/* the build-id cache's copy of the running kernel's file, if any, is read
	 * instead (checked once its table is taken: dso__check_kernel()) */
	from = ahead_copy(dso, file, wq);
	p->from_copy = from >= 0;
	/* the file read here block after block, each parsed where a thread is free
	 * (the thread waiting for g runs them too: workqueue__group_wait()) */
	p->err = from >= 0 ? kallsyms_load__open_fd(&l, from) : kallsyms_load__open(&l, p->path);
	while (!p->err) {
		struct kallsyms_block *blk;
		int more = kallsyms_load__next(&l, &blk, false);

		if (more == 2) {	/* the text grows: the blocks out are parsed first */
			if (wq)
				workqueue__group_wait(wq, &blocks);
			more = kallsyms_load__next(&l, &blk, true);
		}
		if (more <= 0) {
			p->err = more;
			break;
		}
		if (!wq || workqueue__queue_group(wq, &blocks, preload_parse, blk))
			kallsyms_block__parse(blk);
	}
	if (wq)
		workqueue__group_wait(wq, &blocks);
	if (!p->err)
		p->err = kallsyms_load__finish(&l, &b, &p->text);
	kallsyms_load__close(&l);
	if (!p->err && p->from_copy && dso->check && !dso->owner->check_at_take)
		check_run(dso->check);
	if (!p->err) {
		/* the fix-ups and the sorting too, unrelocated: load_kernel() takes
		 * them when the kernel's reference address is the file's _text (else
		 * it reads the file again) */
		bool span_only = dso->owner->kernel_span_only;
		int r = 0;

		p->nr = symtab__finish_kallsyms(&b, &p->text, false, 0,
						span_only ? NULL : &p->kmods);
		if (p->nr >= 0)
			r = span_only ? symtab_builder__span(&b, &p->span_start, &p->span_end)
				      : symtab_builder__finish(&b, &p->symtab);
		if (p->nr < 0 || r < 0)
			p->err = -ENOMEM;
		p->span = span_only && r > 0;
	}
	symtab_builder__exit(&b);
	dso->preload = p;
	return p->err == -ENOMEM ? -ENOMEM : 0;
}

static void preload_free(struct dso *dso)
{
	if (dso->preload) {
		symtab__exit(&dso->preload->symtab);
		kmod_symbols__exit(&dso->preload->kmods);
		free(dso->preload);
		dso->preload = NULL;
	}
}

static int load_kernel(struct dso *dso)
{
	struct symtab_builder b = { 0 };
	char path[PATH_MAX];
	const char *file = kallsyms_file(dso, path, sizeof(path));
	struct kallsyms_preload *p = dso->preload;
	int nr;

	if (!file) {
		dso->load_err = -ENOENT;
		return 0;
	}
	if (p && !p->err && !strcmp(p->path, file) &&
	    (!dso->ref_name || (!strcmp(dso->ref_name, KALLSYMS_TEXT) && p->text.found &&
				p->text.addr == dso->ref_addr))) {
		/* built ahead without relocation: what symtab__finish_kallsyms()
		 * with a KASLR shift of 0 and symtab_builder__finish() give here */
		dso->symtab = p->symtab;
		memset(&p->symtab, 0, sizeof(p->symtab));
		if (p->from_copy && dso->check)
			check_take(dso->check);
		kmod_symbols__exit(&dso->kmods);
		dso->kmods = p->kmods;
		memset(&p->kmods, 0, sizeof(p->kmods));
		dso->span_only = p->span;
		dso->span_start = p->span_start;
		dso->span_end = p->span_end;
		nr = dso->span_only ? p->nr : (int)dso->symtab.nr;
		preload_free(dso);
		return took_symtab(dso, (size_t)nr, SYMTAB_ORIGIN_KALLSYMS, file, 'k');
	}
	if (dso->check && !dso->check->taken)	/* the copy's table is not used */
		check_join(dso->check, true);
	nr = symtab__load_kallsyms(&b, file, dso->ref_name, dso->ref_addr, &dso->kmods);
	if (nr < 0)	/* no kernel symbols, no module symbols */
		kmod_symbols__exit(&dso->kmods);
	preload_free(dso);
	return take_loaded(dso, &b, nr, SYMTAB_ORIGIN_KALLSYMS, file, 'k');
}

int dso__load(struct dso *dso)
{
	int nr;

	if (dso->loaded)
		return (int)dso->symtab.nr;
	switch (dso->kind) {
	case DSO_KIND_KERNEL:
		nr = load_kernel(dso);
		break;
	case DSO_KIND_PERF_MAP:
		nr = load_perf_map(dso);
		break;
	case DSO_KIND_MODULE:
		/* perf looks for the module's file (build-id cache, /lib/modules) and
		 * finds none for a recording from elsewhere; its kallsyms symbols come
		 * from dso__take_module_symbols() when the kernel loads first */
		nr = 0;
		break;
	default:
		nr = load_user(dso);
		break;
	}
	if (nr == -ENOMEM)
		return nr;
	dso->loaded = true;
	return nr;
}

const struct symbol *dso__find_symbol(struct dso *dso, uint64_t addr)
{
	if (!dso->loaded && dso__load(dso) < 0)
		return NULL;
	return symtab__find(&dso->symtab, addr);
}

bool dso__symbol_span(struct dso *dso, uint64_t *start, uint64_t *end)
{
	if (!dso->loaded && dso__load(dso) < 0)
		return false;
	if (dso->span_only) {
		*start = dso->span_start;
		*end = dso->span_end;
		return true;
	}
	if (!dso->symtab.nr)
		return false;
	*start = dso->symtab.syms[0].start;
	*end = dso->symtab.syms[dso->symtab.nr - 1].end;
	return true;
}

/* ------------------------------------------------------------------------ */
/* MMAP names                                                                */
/* ------------------------------------------------------------------------ */

static bool is_anon_memory(const char *f)
{
	return !strcmp(f, "//anon") || !strncmp(f, "/dev/zero", 9) ||
	       !strncmp(f, "/anon_hugepage", 14);
}

static bool is_no_dso_memory(const char *f)
{
	return !strncmp(f, "[stack", 6) || !strncmp(f, "/SYSV", 5) || !strcmp(f, "[heap]");
}

unsigned dso__mmap_name(const char *filename, int32_t pid, bool exec, char *buf,
			size_t len)
{
	unsigned flags = 0;

	if (is_anon_memory(filename) || is_no_dso_memory(filename)) {
		flags |= DSO_MMAP_IDENTITY;
		if (exec) {
			snprintf(buf, len, "/tmp/perf-%d.map", (int)pid);
			return flags;
		}
	} else if (is_vdso_name(filename)) {
		flags |= DSO_MMAP_VDSO;
	}
	snprintf(buf, len, "%s", filename);
	return flags;
}
