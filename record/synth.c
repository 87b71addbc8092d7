/*
 * synth - the records made for what existed before the events were enabled
 * (record/synth.h).
 */
#include "record/synth.h"

#include <ctype.h>	/* isdigit */
#include <dirent.h>
#include <errno.h>
#include <inttypes.h>	/* SCNx64 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>	/* open */
#include <sys/mman.h>	/* PROT_*, MAP_* */
#include <sys/stat.h>	/* fstat */
#include <unistd.h>	/* close */
#include <sys/utsname.h>

#include "format/bytes.h"
#include "format/diag.h"
#include "format/record.h"
#include "record/features.h"	/* record_features__kernel_build_id */
#include "record/sysfile.h"

#include "banned.h"

/* a record with a file name of up to PATH_MAX bytes and the largest trailer */
#define SYNTH_BUF 8192
#define FILENAME_MAX_LEN 4096

struct rec {
	unsigned char b[SYNTH_BUF];
	size_t len;
};

static void rec_start(struct rec *r, uint32_t type, uint16_t misc)
{
	memset(r->b, 0, 8);
	bytes__put_u32(r->b, type);
	bytes__put_u16(r->b + 4, misc);
	r->len = 8;
}

static void rec_u32(struct rec *r, uint32_t v)
{
	bytes__put_u32(r->b + r->len, v);
	r->len += 4;
}

static void rec_u64(struct rec *r, uint64_t v)
{
	bytes__put_u64(r->b + r->len, v);
	r->len += 8;
}

/* s, NUL-terminated and padded with NULs to a multiple of 8 bytes */
static void rec_str(struct rec *r, const char *s, size_t max)
{
	size_t n = strnlen(s, max), padded = (n + 1 + 7) & ~(size_t)7;

	memcpy(r->b + r->len, s, n);
	memset(r->b + r->len + n, 0, padded - n);
	r->len += padded;
}

/* the zero sample_id trailer, the size in the header, then out */
static int rec_emit(struct synth *s, struct rec *r, bool trailer)
{
	if (trailer) {
		memset(r->b + r->len, 0, s->id_hdr_size);
		r->len += s->id_hdr_size;
	}
	bytes__put_u16(r->b + 6, (uint16_t)r->len);
	return s->emit(s->ctx, r->b, r->len);
}

/* The address of the core kernel's symbol `name` (its first "ADDRESS TYPE NAME" line
 * from `from` on, no module) in the n bytes of a kallsyms copy at p; 0 when there is
 * none. */
static uint64_t kallsyms_addr(const char *p, size_t n, const char *from, const char *name)
{
	char pat[16];
	size_t len = (size_t)snprintf(pat, sizeof(pat), " %s\n", name);
	const char *end = p + n, *at = from, *line;

	while ((at = memmem(at, (size_t)(end - at), pat, len))) {
		for (line = at; line > p && line[-1] != '\n'; line--)
			;
		/* "ADDRESS T" before the name: at is the blank after the type */
		if (at - line >= 3 && at[-2] == ' ' && isxdigit((unsigned char)line[0])) {
			char buf[32];
			size_t k = (size_t)(at - 2 - line);

			if (k >= sizeof(buf))
				return 0;
			memcpy(buf, line, k);
			buf[k] = '\0';
			return strtoull(buf, NULL, 16);
		}
		at += len;
	}
	return 0;
}

/* _etext less _text ([0]) and less _stext ([1]) in the build-id cache's copy of the
 * running kernel's kallsyms (DIR/[kernel.kallsyms]/BUILD-ID/kallsyms, as
 * record/buildid-cache.c writes it), 0 where it has not both with addresses; false
 * when there is no copy with _etext. */
static bool kallsyms_cached(const char *dir, uint64_t len[2])
{
	static const char hexd[] = "0123456789abcdef";
	uint8_t id[20], size;
	char hex[41], path[PATH_MAX];
	uint64_t etext, text;
	struct stat st;
	void *p;
	int fd;

	len[0] = len[1] = 0;
	if (record_features__kernel_build_id(id, &size) || !size || size > 20)
		return false;
	for (unsigned i = 0; i < size; i++) {
		hex[2 * i] = hexd[id[i] >> 4];
		hex[2 * i + 1] = hexd[id[i] & 15];
	}
	hex[2 * size] = '\0';
	if (snprintf(path, sizeof(path), "%s/[kernel.kallsyms]/%s/kallsyms", dir, hex) >=
	    (int)sizeof(path))
		return false;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	if (fstat(fd, &st) || st.st_size <= 0 ||
	    (p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)) == MAP_FAILED) {
		close(fd);
		return false;
	}
	close(fd);
	/* _etext ends the core kernel's text symbols, near the end (the data symbols and
	 * the modules' follow): looked for in growing tails first */
	etext = 0;
	for (size_t tail = 256u << 10; !etext; tail *= 4) {
		size_t n = (size_t)st.st_size;

		etext = kallsyms_addr(p, n, (const char *)p + (tail < n ? n - tail : 0),
				      "_etext");
		if (tail >= n)
			break;
	}
	if (etext) {
		text = kallsyms_addr(p, (size_t)st.st_size, p, "_text");
		len[0] = text && text < etext ? etext - text : 0;
		text = kallsyms_addr(p, (size_t)st.st_size, p, "_stext");
		len[1] = text && text < etext ? etext - text : 0;
	}
	munmap(p, (size_t)st.st_size);
	return etext && (len[0] || len[1]);
}

/* /proc/kallsyms's _text and _stext ([0], [1]) and _etext, read from f's position
 * until it has all three (until it has the two with etext NULL) or to its end */
static void kallsyms_scan(FILE *f, uint64_t text[2], uint64_t *etext)
{
	char line[512];

	/* "ADDRESS TYPE NAME[\t[MODULE]]" lines: the name compared first, the address
	 * parsed only for the three wanted (sscanf() of every line was most of the
	 * recorder's own CPU time on a short recording) */
	while (fgets(line, sizeof(line), f)) {
		const char *sp = strchr(line, ' '), *nm;
		size_t len;
		int which;

		if (!sp || !sp[1] || sp[2] != ' ')
			continue;
		nm = sp + 3;
		len = strcspn(nm, " \t\n");
		which = len == 5 && !memcmp(nm, "_text", 5) ? 0 :
			len == 6 && !memcmp(nm, "_stext", 6) ? 1 :
			len == 6 && !memcmp(nm, "_etext", 6) ? 2 : -1;
		if (which < 0)
			continue;
		if (which < 2)
			text[which] = strtoull(line, NULL, 16);
		else if (etext)
			*etext = strtoull(line, NULL, 16);
		if (text[0] && text[1] && (!etext || *etext))
			break;
	}
}

int synth__kernel(struct synth *s, struct diag *d)
{
	static const char *const ref[] = { "_text", "_stext" };
	uint64_t text[2] = { 0, 0 }, etext = 0, len[2];
	char name[256];
	unsigned i;
	struct rec r;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f)
		return diag__set(d, "/proc/kallsyms", DIAG_NO_OFFSET, -ENOENT, "cannot read: %s",
				 strerror(errno));
	if (s->buildid_dir && kallsyms_cached(s->buildid_dir, len)) {
		kallsyms_scan(f, text, NULL);
		i = text[0] ? 0 : 1;
		if (text[i] && len[i])
			etext = text[i] + len[i];
	}
	if (!etext) {
		/* no copy of this kernel's: the whole of it, to _etext */
		rewind(f);
		text[0] = text[1] = 0;
		kallsyms_scan(f, text, &etext);
	}
	fclose(f);
	i = text[0] ? 0 : 1;
	if (!text[i])
		return diag__set(d, "/proc/kallsyms", DIAG_NO_OFFSET, -ENOENT,
				 "no _text or _stext with an address (kernel.kptr_restrict?)");
	snprintf(name, sizeof(name), "[kernel.kallsyms]%s", ref[i]);
	rec_start(&r, REC_MMAP, MISC_KERNEL);
	rec_u32(&r, (uint32_t)-1);	/* pid: the host kernel */
	rec_u32(&r, 0);
	rec_u64(&r, text[i]);
	rec_u64(&r, etext > text[i] ? etext - text[i] : (uint64_t)-1 - text[i]);
	rec_u64(&r, text[i]);
	rec_str(&r, name, sizeof(name));
	return rec_emit(s, &r, true);
}

/* modules.dep's path of module NAME ("kernel/fs/xfs/xfs.ko.xz": '-' and '_' alike),
 * made absolute into out; false when it is not there */
static bool module_path(FILE *dep, const char *release, const char *mod, char *out,
			size_t len)
{
	char line[1024];

	if (!dep)
		return false;
	rewind(dep);
	while (fgets(line, sizeof(line), dep)) {
		char *colon = strchr(line, ':'), *base, *dot;
		size_t i;

		if (!colon)
			continue;
		*colon = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (!dot)
			continue;
		for (i = 0; base + i < dot && mod[i]; i++) {
			char a = base[i] == '-' ? '_' : base[i], b = mod[i] == '-' ? '_' : mod[i];

			if (a != b)
				break;
		}
		if (base + i == dot && !mod[i]) {
			snprintf(out, len, "/lib/modules/%s/%s", release, line);
			return true;
		}
	}
	return false;
}

int synth__modules(struct synth *s)
{
	char line[1024], path[FILENAME_MAX_LEN], depname[512];
	struct utsname u;
	FILE *f, *dep = NULL;
	int err = 0;

	f = fopen("/proc/modules", "re");
	if (!f)
		return 0;	/* no modules */
	if (!uname(&u)) {
		snprintf(depname, sizeof(depname), "/lib/modules/%s/modules.dep", u.release);
		dep = fopen(depname, "re");
	}
	while (!err && fgets(line, sizeof(line), f)) {
		char name[256];
		uint64_t size, addr;
		struct rec r;

		/* NAME SIZE REFCOUNT DEPS STATE ADDRESS */
		if (sscanf(line, "%255s %" SCNu64 " %*s %*s %*s %" SCNx64, name, &size,
			   &addr) != 3 || !addr)
			continue;
		if (!module_path(dep, u.release, name, path, sizeof(path)))
			snprintf(path, sizeof(path), "[%s]", name);
		rec_start(&r, REC_MMAP, MISC_KERNEL);
		rec_u32(&r, (uint32_t)-1);
		rec_u32(&r, 0);
		rec_u64(&r, addr);
		rec_u64(&r, size);
		rec_u64(&r, 0);
		rec_str(&r, path, sizeof(path));
		err = rec_emit(s, &r, true);
	}
	if (dep)
		fclose(dep);
	fclose(f);
	return err;
}

static int synth_comm(struct synth *s, pid_t pid, pid_t tid)
{
	char comm[32] = "";
	struct rec r;
	int err = sysfile__line(comm, sizeof(comm), "/proc/%d/task/%d/comm", (int)pid,
				(int)tid);

	if (err && err != -ENODATA) {
		s->nr_timeouts++;
		return 0;	/* gone */
	}
	if (err)
		comm[0] = '\0';
	rec_start(&r, REC_COMM, 0);
	rec_u32(&r, (uint32_t)pid);
	rec_u32(&r, (uint32_t)tid);
	rec_str(&r, comm, 16);
	return rec_emit(s, &r, true);
}

static int synth_maps(struct synth *s, pid_t pid)
{
	char path[64], line[FILENAME_MAX_LEN + 256];
	int err = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 0;	/* gone, or a kernel thread */
	while (!err && fgets(line, sizeof(line), f)) {
		uint64_t start, end, pgoff, ino;
		unsigned maj, min;
		char perms[8];
		int n = 0;
		const char *file;
		uint32_t prot = 0;
		struct rec r;

		/* START-END PERMS PGOFF MAJ:MIN INODE [PATH] */
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %x:%x %" SCNu64 "%n",
			   &start, &end, perms, &pgoff, &maj, &min, &ino, &n) < 7)
			continue;
		if (strlen(perms) < 4)
			continue;
		if (perms[0] == 'r')
			prot |= PROT_READ;
		if (perms[1] == 'w')
			prot |= PROT_WRITE;
		if (perms[2] == 'x')
			prot |= PROT_EXEC;
		if (!(prot & PROT_EXEC) && !s->mmap_data)
			continue;
		file = line + n;
		while (*file == ' ' || *file == '\t')
			file++;
		line[strcspn(line, "\n")] = '\0';
		if (!*file)
			file = "//anon";
		rec_start(&r, REC_MMAP2, (uint16_t)(MISC_USER |
						    (prot & PROT_EXEC ? 0 : MISC_MMAP_DATA)));
		rec_u32(&r, (uint32_t)pid);
		rec_u32(&r, (uint32_t)pid);
		rec_u64(&r, start);
		rec_u64(&r, end - start);
		rec_u64(&r, pgoff);
		rec_u32(&r, maj);
		rec_u32(&r, min);
		rec_u64(&r, ino);
		rec_u64(&r, 0);		/* ino_generation */
		rec_u32(&r, prot);
		rec_u32(&r, perms[3] == 's' ? MAP_SHARED : MAP_PRIVATE);
		rec_str(&r, file, FILENAME_MAX_LEN - 1);
		err = rec_emit(s, &r, true);
	}
	fclose(f);
	return err;
}

int synth__process(struct synth *s, pid_t pid, pid_t tid, bool comm_only)
{
	char path[64];
	struct dirent *e;
	DIR *dir;
	int err = 0;

	if (tid >= 0) {
		err = synth_comm(s, pid, tid);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
		dir = opendir(path);
		if (!dir) {
			s->nr_timeouts++;
			return 0;	/* gone */
		}
		while (!err && (e = readdir(dir)))
			if (isdigit((unsigned char)e->d_name[0]))
				err = synth_comm(s, pid, (pid_t)strtol(e->d_name, NULL, 10));
		closedir(dir);
	}
	if (!err && !comm_only)
		err = synth_maps(s, pid);
	return err;
}

int synth__all_processes(struct synth *s)
{
	struct dirent *e;
	DIR *dir = opendir("/proc");
	int err = 0;

	if (!dir)
		return -errno;
	while (!err && (e = readdir(dir)))
		if (isdigit((unsigned char)e->d_name[0]))
			err = synth__process(s, (pid_t)strtol(e->d_name, NULL, 10), -1, false);
	closedir(dir);
	return err;
}

int synth__id_index(struct synth *s, const struct synth_id *ids, size_t nr)
{
	/* ids per record: SYNTH_BUF holds 255 entries (perf cuts at the record size) */
	const size_t per = (SYNTH_BUF - 16) / 32;
	int err = 0;

	for (size_t at = 0; !err && at < nr; at += per) {
		size_t n = nr - at < per ? nr - at : per;
		struct rec r;

		rec_start(&r, REC_ID_INDEX, 0);
		rec_u64(&r, n);
		for (size_t i = at; i < at + n; i++) {
			rec_u64(&r, ids[i].id);
			rec_u64(&r, ids[i].idx);
			rec_u64(&r, ids[i].cpu);
			rec_u64(&r, ids[i].tid);
		}
		err = rec_emit(s, &r, false);
	}
	return err;
}

int synth__finished_init(struct synth *s)
{
	struct rec r;

	rec_start(&r, REC_FINISHED_INIT, 0);
	return rec_emit(s, &r, false);
}

int synth__thread_map(struct synth *s, const pid_t *tids, size_t nr)
{
	/* entries per record: as many as SYNTH_BUF holds (perf cuts at the record size) */
	const size_t per = (SYNTH_BUF - 16) / 24;
	static const pid_t any = -1;
	int err = 0;

	if (!nr) {
		tids = &any;	/* every thread: perf's map of one "-1" */
		nr = 1;
	}
	for (size_t at = 0; !err && at < nr; at += per) {
		size_t n = nr - at < per ? nr - at : per;
		struct rec r;

		rec_start(&r, REC_THREAD_MAP, 0);
		rec_u64(&r, n);
		for (size_t i = at; i < at + n; i++) {
			rec_u64(&r, (uint64_t)(int64_t)tids[i]);
			memset(r.b + r.len, 0, 16);	/* comm: perf's map has none */
			r.len += 16;
		}
		err = rec_emit(s, &r, false);
	}
	return err;
}

int synth__cpu_map(struct synth *s, const int *cpus, size_t nr)
{
	struct rec r;
	size_t size_cpus, size_mask, words;
	bool range = nr > 0;

	if (!nr || nr > 4096 || cpus[nr - 1] >= 4096)
		return -EINVAL;
	for (size_t i = 1; i < nr; i++)
		range &= cpus[i] == cpus[i - 1] + 1;
	rec_start(&r, REC_CPU_MAP, 0);
	if (range) {
		bytes__put_u16(r.b + 8, 2);		/* RANGE */
		r.b[10] = 0;				/* any_cpu */
		r.b[11] = 0;
		bytes__put_u16(r.b + 12, (uint16_t)cpus[0]);
		bytes__put_u16(r.b + 14, (uint16_t)cpus[nr - 1]);
		r.len = 16;
		return rec_emit(s, &r, false);
	}
	/* the smaller of a list of u16 and a mask of u32 words, the mask on a tie */
	words = (size_t)cpus[nr - 1] / 32 + 1;
	size_cpus = 2 + 2 + 2 * nr;
	size_mask = 2 + 2 + 2 + 4 * words;
	if (size_cpus < size_mask) {
		bytes__put_u16(r.b + 8, 0);		/* CPUS */
		bytes__put_u16(r.b + 10, (uint16_t)nr);
		for (size_t i = 0; i < nr; i++)
			bytes__put_u16(r.b + 12 + 2 * i, (uint16_t)cpus[i]);
		r.len = 8 + size_cpus;
	} else {
		bytes__put_u16(r.b + 8, 1);		/* MASK */
		bytes__put_u16(r.b + 10, (uint16_t)words);
		bytes__put_u16(r.b + 12, 4);		/* long_size */
		memset(r.b + 14, 0, 4 * words);
		for (size_t i = 0; i < nr; i++)
			r.b[14 + cpus[i] / 8] |= (unsigned char)(1u << (cpus[i] % 8));
		r.len = 8 + size_mask;
	}
	memset(r.b + r.len, 0, 7);
	r.len = (r.len + 7) & ~(size_t)7;	/* padded to 8 */
	return rec_emit(s, &r, false);
}
