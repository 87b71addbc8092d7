/*
 * features - the header's features read off this machine (record/features.h).
 */
#include "record/features.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "format/feature.h"
#include "format/header.h"
#include "format/writer.h"
#include "record/target.h"

#include "banned.h"

/* the value of the first "KEY<blanks>: VALUE" line of /proc/cpuinfo, blanks squeezed */
static int cpuinfo_value(const char *key, char *out, size_t len)
{
	char line[1024];
	size_t klen = strlen(key);
	FILE *f = fopen("/proc/cpuinfo", "re");
	int err = -ENOENT;

	if (!f)
		return -ENOENT;
	while (fgets(line, sizeof(line), f)) {
		char *p = line + klen, *q;
		size_t n = 0;

		if (strncmp(line, key, klen) || (*p != ' ' && *p != '\t' && *p != ':'))
			continue;
		p = strchr(p, ':');
		if (!p)
			continue;
		p++;
		while (*p == ' ' || *p == '\t')
			p++;
		for (q = p; *q && *q != '\n' && n + 1 < len; q++) {
			if ((*q == ' ' || *q == '\t') && n && out[n - 1] == ' ')
				continue;
			out[n++] = *q == '\t' ? ' ' : *q;
		}
		while (n && out[n - 1] == ' ')
			n--;
		out[n] = '\0';
		err = 0;
		break;
	}
	fclose(f);
	return err;
}

static int set_nrcpus(struct writer *w)
{
	uint32_t body[2];
	int *cpus = NULL;
	size_t nr = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	FILE *f = fopen("/sys/devices/system/cpu/present", "re");
	char buf[4096];

	body[0] = online > 0 ? (uint32_t)online : 1;
	if (f) {
		if (fgets(buf, sizeof(buf), f) && !record_target__cpus(buf, &cpus, &nr) && nr)
			body[0] = (uint32_t)cpus[nr - 1] + 1;
		free(cpus);
		fclose(f);
	}
	body[1] = online > 0 ? (uint32_t)online : 1;
	return writer__set_feature(w, FEAT_NRCPUS, body, sizeof(body));
}

static int set_total_mem(struct writer *w)
{
	char line[256];
	uint64_t kb = 0;
	FILE *f = fopen("/proc/meminfo", "re");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "MemTotal:", 9)) {
			kb = strtoull(line + 9, NULL, 10);
			break;
		}
	fclose(f);
	return kb ? writer__set_feature(w, FEAT_TOTAL_MEM, &kb, sizeof(kb)) : 0;
}

static int set_cmdline(struct writer *w, const struct record_features *f)
{
	char self[4096];
	const char **argv;
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int err;

	if (!f->argc)
		return 0;
	argv = malloc(f->argc * sizeof(*argv));
	if (!argv)
		return -ENOMEM;
	memcpy(argv, f->argv, f->argc * sizeof(*argv));
	if (n > 0) {
		self[n] = '\0';
		argv[0] = self;
	}
	err = writer__set_strings_feature(w, FEAT_CMDLINE, argv, f->argc);
	free(argv);
	return err;
}

/* the PMUs of /sys/bus/event_source/devices (name, attr.type), in directory order as
 * perf lists them */
static int set_pmu_mappings(struct writer *w)
{
	struct feat_pmu_mapping *m = NULL;
	size_t nr = 0, cap = 0;
	struct dirent *e;
	DIR *dir = opendir("/sys/bus/event_source/devices");
	int err = 0;

	if (!dir)
		return 0;
	while (!err && (e = readdir(dir))) {
		char path[512], buf[32] = "";
		FILE *t;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type", e->d_name);
		t = fopen(path, "re");
		if (!t)
			continue;
		if (!fgets(buf, sizeof(buf), t) || buf[0] < '0' || buf[0] > '9') {
			fclose(t);
			continue;
		}
		fclose(t);
		if (nr == cap) {
			struct feat_pmu_mapping *g;

			cap = cap ? 2 * cap : 16;
			g = realloc(m, cap * sizeof(*g));
			if (!g) {
				err = -ENOMEM;
				break;
			}
			m = g;
		}
		m[nr].type = (uint32_t)strtoul(buf, NULL, 10);
		m[nr].name = strdup(e->d_name);
		if (!m[nr].name)
			err = -ENOMEM;
		else
			nr++;
	}
	closedir(dir);
	if (!err && nr)
		err = writer__set_pmu_mappings(w, m, nr);
	for (size_t i = 0; i < nr; i++)
		free(m[i].name);
	free(m);
	return err;
}

int record_features__write(struct writer *w, const struct record_features *f)
{
	char buf[512], vendor[128], family[32], model[32], stepping[32];
	struct utsname u;
	int err = 0;

	if (!uname(&u)) {
		err = writer__set_string_feature(w, FEAT_HOSTNAME, u.nodename);
		if (!err)
			err = writer__set_string_feature(w, FEAT_OSRELEASE, u.release);
		if (!err)
			err = writer__set_string_feature(w, FEAT_ARCH, u.machine);
	}
	if (!err)
		err = writer__set_string_feature(w, FEAT_VERSION, DIRREPORT_VERSION);
	if (!err)
		err = set_nrcpus(w);
	if (!err && !cpuinfo_value("model name", buf, sizeof(buf)))
		err = writer__set_string_feature(w, FEAT_CPUDESC, buf);
	if (!err && !cpuinfo_value("vendor_id", vendor, sizeof(vendor)) &&
	    !cpuinfo_value("cpu family", family, sizeof(family)) &&
	    !cpuinfo_value("model", model, sizeof(model)) &&
	    !cpuinfo_value("stepping", stepping, sizeof(stepping))) {
		snprintf(buf, sizeof(buf), "%s,%s,%s,%s", vendor, family, model, stepping);
		err = writer__set_string_feature(w, FEAT_CPUID, buf);
	}
	if (!err)
		err = set_total_mem(w);
	if (!err)
		err = set_cmdline(w, f);
	if (!err)
		err = writer__set_event_desc(w, f->events, f->nr_events);
	if (!err)
		err = set_pmu_mappings(w);
	if (!err)
		err = writer__set_build_ids(w, f->build_ids, f->nr_build_ids);
	if (!err && (f->first_sample_ns || f->last_sample_ns)) {
		uint64_t t[2] = { f->first_sample_ns, f->last_sample_ns };

		err = writer__set_feature(w, FEAT_SAMPLE_TIME, t, sizeof(t));
	}
	return err;
}

/* the GNU build-id note among len bytes of notes (4-byte aligned fields) */
static int find_build_id(const unsigned char *p, size_t len, uint8_t id[20], uint8_t *size)
{
	size_t at = 0;

	while (at + 12 <= len) {
		uint32_t namesz, descsz, type;
		size_t name_at = at + 12, desc_at, next;

		memcpy(&namesz, p + at, 4);
		memcpy(&descsz, p + at + 4, 4);
		memcpy(&type, p + at + 8, 4);
		desc_at = name_at + (((size_t)namesz + 3) & ~(size_t)3);
		next = desc_at + (((size_t)descsz + 3) & ~(size_t)3);
		if (desc_at > len || next > len || next <= at)
			break;
		if (type == NT_GNU_BUILD_ID && namesz == 4 && !memcmp(p + name_at, "GNU", 4) &&
		    descsz) {
			*size = (uint8_t)(descsz > 20 ? 20 : descsz);
			memset(id, 0, 20);
			memcpy(id, p + desc_at, *size);
			return 0;
		}
		at = next;
	}
	return -ENOENT;
}

int record_features__kernel_build_id(uint8_t id[20], uint8_t *size)
{
	unsigned char buf[8192];
	int fd = open("/sys/kernel/notes", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -ENOENT;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	return n > 0 ? find_build_id(buf, (size_t)n, id, size) : -ENOENT;
}

/* the notes of [off, off + len) of fd */
static int notes_at(int fd, uint64_t off, uint64_t len, uint8_t id[20], uint8_t *size)
{
	unsigned char *buf;
	int err = -ENOENT;

	if (!len || len > (1u << 20))
		return -ENOENT;
	buf = malloc(len);
	if (!buf)
		return -ENOENT;
	if (pread(fd, buf, len, (off_t)off) == (ssize_t)len)
		err = find_build_id(buf, len, id, size);
	free(buf);
	return err;
}

int record_features__file_build_id(const char *path, uint8_t id[20], uint8_t *size)
{
	union { Elf64_Ehdr e64; Elf32_Ehdr e32; } h;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err = -ENOENT;
	bool is64;

	if (fd < 0)
		return -ENOENT;
	if (pread(fd, &h, sizeof(h), 0) < (ssize_t)sizeof(h.e32) ||
	    memcmp(h.e64.e_ident, ELFMAG, SELFMAG))
		goto out;
	is64 = h.e64.e_ident[EI_CLASS] == ELFCLASS64;
	if (is64) {
		for (unsigned i = 0; err && i < h.e64.e_phnum && i < 256; i++) {
			Elf64_Phdr ph;

			if (pread(fd, &ph, sizeof(ph), (off_t)(h.e64.e_phoff +
							   (uint64_t)i * h.e64.e_phentsize)) ==
			    (ssize_t)sizeof(ph) && ph.p_type == PT_NOTE)
				err = notes_at(fd, ph.p_offset, ph.p_filesz, id, size);
		}
		for (unsigned i = 0; err && i < h.e64.e_shnum && i < 4096; i++) {
			Elf64_Shdr sh;

			if (pread(fd, &sh, sizeof(sh), (off_t)(h.e64.e_shoff +
							   (uint64_t)i * h.e64.e_shentsize)) ==
			    (ssize_t)sizeof(sh) && sh.sh_type == SHT_NOTE)
				err = notes_at(fd, sh.sh_offset, sh.sh_size, id, size);
		}
	} else {
		for (unsigned i = 0; err && i < h.e32.e_phnum && i < 256; i++) {
			Elf32_Phdr ph;

			if (pread(fd, &ph, sizeof(ph), (off_t)(h.e32.e_phoff +
							   (uint64_t)i * h.e32.e_phentsize)) ==
			    (ssize_t)sizeof(ph) && ph.p_type == PT_NOTE)
				err = notes_at(fd, ph.p_offset, ph.p_filesz, id, size);
		}
	}
out:
	close(fd);
	return err;
}
