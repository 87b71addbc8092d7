/*
 * features - the header's features read off this machine (record/features.h).
 */
#include "record/features.h"

#include <dirent.h>
#include <elf.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>	/* clock_getres */
#include <unistd.h>

#include "format/feature.h"
#include "format/header.h"
#include "format/writer.h"
#include "record/target.h"
#include "record/sysfile.h"
#include "record/tracefs.h"
#include "util/array.h"

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

static int set_nrcpus(struct writer *w, uint32_t *nr_avail)
{
	uint32_t body[2];
	int *cpus = NULL;
	size_t nr = 0;
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	char buf[4096];

	body[0] = online > 0 ? (uint32_t)online : 1;
	if (!sysfile__line(buf, sizeof(buf), "/sys/devices/system/cpu/present") &&
	    !record_target__cpus(buf, &cpus, &nr) && nr)
		body[0] = (uint32_t)cpus[nr - 1] + 1;
	free(cpus);
	body[1] = online > 0 ? (uint32_t)online : 1;
	*nr_avail = body[0];
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

/* ---- topology: CPU_TOPOLOGY, NUMA_TOPOLOGY, CACHE, MEM_TOPOLOGY (sysfs) ---------- */

/* The sysfs files of a cpu's topology */
static const char topology_file[] = "/sys/devices/system/cpu/cpu%d/topology/%s";

/* A number of a cpu's topology (decimal); -1 where unreadable. */
static uint32_t topology_u32(int cpu, const char *file)
{
	char buf[64];

	if (sysfile__line(buf, sizeof(buf), topology_file, cpu, file))
		return UINT32_MAX;
	return (uint32_t)strtoul(buf, NULL, 10);
}

/* Append s to the list v[0..*nr) unless it is there (perf keeps each list once). */
static int add_unique(char ***v, uint32_t *nr, size_t *cap, const char *s)
{
	for (uint32_t i = 0; i < *nr; i++)
		if (!strcmp((*v)[i], s))
			return 0;
	if (array__grow(v, cap, (size_t)*nr + 1, sizeof(**v), 4) ||
	    !((*v)[*nr] = strdup(s)))
		return -ENOMEM;
	(*nr)++;
	return 0;
}

static void free_strs(char **v, uint32_t nr)
{
	for (uint32_t i = 0; i < nr; i++)
		free(v[i]);
	free(v);
}

/* The online cpus (sorted), from /sys/devices/system/cpu/online. */
static int online_cpus(int **cpus, size_t *nr)
{
	char buf[4096];

	*cpus = NULL;
	*nr = 0;
	if (sysfile__line(buf, sizeof(buf), "/sys/devices/system/cpu/online"))
		return -ENOENT;
	return record_target__cpus(buf, cpus, nr);
}

/*
 * CPU_TOPOLOGY as perf 6.1's cpu_topology__new() reads it: for each online cpu its
 * package, die and core sibling lists (package_cpus_list, else core_siblings_list;
 * die_cpus_list; core_cpus_list, else thread_siblings_list), each list kept once in
 * the order first seen; per cpu up to NRCPUS' nr_cpus_avail its core_id,
 * physical_package_id and die_id (-1 for a cpu that is not online).
 */
static int set_cpu_topology(struct writer *w, uint32_t nr_avail)
{
	const char *const cpu_dir = topology_file;
	struct feat_cpu_topology t = { .has_cpus = true, .has_dies = true };
	char buf[4096];
	int *cpus = NULL;
	size_t nr = 0, cap_package = 0, cap_die = 0, cap_core = 0;
	int err = online_cpus(&cpus, &nr);

	if (err)
		return err == -ENOMEM ? err : 0;
	if (!(t.cpus = calloc(nr_avail ? nr_avail : 1, sizeof(*t.cpus)))) {
		free(cpus);
		return -ENOMEM;
	}
	t.nr_cpus = nr_avail;
	for (uint32_t i = 0; i < nr_avail; i++)
		t.cpus[i] = (struct feat_cpu){ UINT32_MAX, UINT32_MAX, UINT32_MAX };
	for (size_t i = 0; i < nr && !err; i++) {
		int c = cpus[i];

		if (!sysfile__line(buf, sizeof(buf), cpu_dir, c, "package_cpus_list") ||
		    !sysfile__line(buf, sizeof(buf), cpu_dir, c, "core_siblings_list"))
			err = add_unique(&t.package_cpus, &t.nr_package_cpus, &cap_package, buf);
		if (!err && !sysfile__line(buf, sizeof(buf), cpu_dir, c, "die_cpus_list"))
			err = add_unique(&t.die_cpus, &t.nr_die_cpus, &cap_die, buf);
		if (!err && (!sysfile__line(buf, sizeof(buf), cpu_dir, c, "core_cpus_list") ||
			     !sysfile__line(buf, sizeof(buf), cpu_dir, c, "thread_siblings_list")))
			err = add_unique(&t.core_cpus, &t.nr_core_cpus, &cap_core, buf);
		if (c >= 0 && (uint32_t)c < nr_avail) {
			t.cpus[c].core_id = topology_u32(c, "core_id");
			t.cpus[c].socket_id = topology_u32(c, "physical_package_id");
			t.cpus[c].die_id = topology_u32(c, "die_id");
		}
	}
	t.has_dies = t.nr_die_cpus != 0;
	if (!err)
		err = writer__set_cpu_topology(w, &t);
	free_strs(t.package_cpus, t.nr_package_cpus);
	free_strs(t.core_cpus, t.nr_core_cpus);
	free_strs(t.die_cpus, t.nr_die_cpus);
	free(t.cpus);
	free(cpus);
	return err;
}

/* NUMA_TOPOLOGY as perf 6.1 reads it: the nodes of /sys/devices/system/node/online,
 * each with its meminfo's MemTotal and MemFree (kB) and its cpulist. */
static int set_numa_topology(struct writer *w)
{
	struct feat_numa_node *v = NULL;
	char buf[4096], cpus[4096];
	int *nodes = NULL;
	size_t nr = 0;
	int err;

	if (sysfile__line(buf, sizeof(buf), "/sys/devices/system/node/online"))
		return 0;
	if ((err = record_target__cpus(buf, &nodes, &nr)))
		return err == -ENOMEM ? err : 0;
	if (!(v = calloc(nr ? nr : 1, sizeof(*v)))) {
		free(nodes);
		return -ENOMEM;
	}
	for (size_t i = 0; i < nr && !err; i++) {
		char path[128], line[256];
		FILE *f;

		v[i].node = (uint32_t)nodes[i];
		snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/meminfo", nodes[i]);
		if ((f = fopen(path, "re"))) {
			while (fgets(line, sizeof(line), f)) {
				char *k = strstr(line, "MemTotal:"), *fr = strstr(line, "MemFree:");

				if (k)
					v[i].mem_total_kb = strtoull(k + 9, NULL, 10);
				else if (fr)
					v[i].mem_free_kb = strtoull(fr + 8, NULL, 10);
			}
			fclose(f);
		}
		if (sysfile__line(cpus, sizeof(cpus), "/sys/devices/system/node/node%d/cpulist",
			     nodes[i]))
			cpus[0] = '\0';
		if (!(v[i].cpus = strdup(cpus)))
			err = -ENOMEM;
	}
	if (!err)
		err = writer__set_numa_topology(w, v, nr);
	for (size_t i = 0; i < nr; i++)
		free(v[i].cpus);
	free(v);
	free(nodes);
	return err;
}

/* perf 6.1's MAX_CACHE_LVL: the cache index directories read per cpu */
#define CACHE_INDEXES 4

static bool cache_eq(const struct feat_cache *a, const struct feat_cache *b)
{
	return a->level == b->level && a->line_size == b->line_size && a->sets == b->sets &&
	       a->ways == b->ways && !strcmp(a->type, b->type) && !strcmp(a->size, b->size) &&
	       !strcmp(a->map, b->map);
}

static void cache_free(struct feat_cache *c)
{
	free(c->type);
	free(c->size);
	free(c->map);
}

/* One cache of a cpu (cpuN/cache/indexM); 1 where it has none, -ENOMEM. */
static int cache_read(struct feat_cache *c, int cpu, int index)
{
	static const char dir[] = "/sys/devices/system/cpu/cpu%d/cache/index%d/%s";
	char buf[4096], path[128];
	const char *const text[] = { "type", "size", "shared_cpu_list" };
	char **field[] = { &c->type, &c->size, &c->map };
	uint32_t *num[] = { &c->level, &c->line_size, &c->sets, &c->ways };
	const char *const numf[] = { "level", "coherency_line_size", "number_of_sets",
				     "ways_of_associativity" };

	*c = (struct feat_cache){ 0 };
	for (size_t k = 0; k < 4; k++) {
		snprintf(path, sizeof(path), dir, cpu, index, numf[k]);
		if (sysfile__line(buf, sizeof(buf), "%s", path))
			return 1;
		*num[k] = (uint32_t)strtoul(buf, NULL, 10);
	}
	for (size_t k = 0; k < 3; k++) {
		snprintf(path, sizeof(path), dir, cpu, index, text[k]);
		if (sysfile__line(buf, sizeof(buf), "%s", path))
			buf[0] = '\0';
		if (!(*field[k] = strdup(buf))) {
			cache_free(c);
			return -ENOMEM;
		}
	}
	return 0;
}

/* CACHE as perf 6.1's build_caches() reads it: each cpu's first four cache indexes,
 * each cache once, ordered by level (a stable sort: cpu and index order within one). */
static int set_caches(struct writer *w, uint32_t nr_avail)
{
	struct feat_cache *v = NULL, c;
	size_t nr = 0, cap = 0;
	int err = 0;

	for (uint32_t cpu = 0; cpu < nr_avail && !err; cpu++)
		for (int index = 0; index < CACHE_INDEXES && !err; index++) {
			bool seen = false;
			int r = cache_read(&c, (int)cpu, index);

			if (r) {
				err = r < 0 ? r : 0;
				continue;
			}
			for (size_t i = 0; i < nr && !seen; i++)
				seen = cache_eq(&v[i], &c);
			if (seen || array__grow(&v, &cap, nr + 1, sizeof(*v), 8)) {
				cache_free(&c);
				err = seen ? 0 : -ENOMEM;
				continue;
			}
			v[nr++] = c;
		}
	/* insertion sort by level: stable, and a few dozen caches at most per level */
	for (size_t i = 1; i < nr; i++) {
		struct feat_cache x = v[i];
		size_t j = i;

		for (; j && v[j - 1].level > x.level; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
	if (!err && nr)
		err = writer__set_caches(w, v, nr);
	for (size_t i = 0; i < nr; i++)
		cache_free(&v[i]);
	free(v);
	return err;
}

/* Whether a directory entry is "PREFIX<number>" (memory42, node0): *n the number. */
static bool numbered(const char *name, const char *prefix, unsigned long *n)
{
	size_t len = strlen(prefix);
	char *end;

	if (strncmp(name, prefix, len) || !isdigit((unsigned char)name[len]))
		return false;
	*n = strtoul(name + len, &end, 10);
	return !*end;
}

static bool memory_block(const char *name, unsigned long *m)
{
	return numbered(name, "memory", m);
}

/* A node's memory blocks (nodeN/memoryM entries) as a bitmap of max M + 1 bits. */
static int mem_node_read(struct feat_mem_node *n, const char *node_dir)
{
	struct dirent *e;
	DIR *d = opendir(node_dir);
	uint64_t max = 0;
	bool any = false;

	if (!d)
		return 1;
	while ((e = readdir(d))) {
		unsigned long m;

		if (!memory_block(e->d_name, &m))
			continue;
		if (!any || m > max)
			max = m;
		any = true;
	}
	n->nbits = any ? max + 1 : 0;
	n->size = n->nbits;
	n->bits = calloc((n->nbits + 63) / 64 + 1, sizeof(*n->bits));
	if (!n->bits) {
		closedir(d);
		return -ENOMEM;
	}
	rewinddir(d);
	while ((e = readdir(d))) {
		unsigned long m;

		if (memory_block(e->d_name, &m) && m < n->nbits)
			n->bits[m / 64] |= 1ULL << (m % 64);
	}
	closedir(d);
	return 0;
}

static int mem_node_cmp(const void *a, const void *b)
{
	const struct feat_mem_node *x = a, *y = b;

	return x->node < y->node ? -1 : x->node > y->node;
}

/* MEM_TOPOLOGY as perf 6.1's build_mem_topology() reads it: the memory block size
 * (/sys/devices/system/memory/block_size_bytes, hex), and the nodeN directories of
 * /sys/devices/system/node with their memory blocks, by node.  Not written where
 * there is no block size (no memory hotplug in sysfs), as perf. */
static int set_mem_topology(struct writer *w)
{
	struct feat_mem_node *v = NULL;
	char buf[64], path[300];
	uint64_t bsize;
	struct dirent *e;
	size_t nr = 0, cap = 0;
	DIR *d;
	int err = 0;

	if (sysfile__line(buf, sizeof(buf), "/sys/devices/system/memory/block_size_bytes") ||
	    !(bsize = strtoull(buf, NULL, 16)) || !(d = opendir("/sys/devices/system/node")))
		return 0;
	while (!err && (e = readdir(d))) {
		unsigned long node;
		int r;

		if (!numbered(e->d_name, "node", &node))
			continue;
		if (array__grow(&v, &cap, nr + 1, sizeof(*v), 4)) {
			err = -ENOMEM;
			break;
		}
		v[nr] = (struct feat_mem_node){ .node = node };
		snprintf(path, sizeof(path), "/sys/devices/system/node/%s", e->d_name);
		r = mem_node_read(&v[nr], path);
		if (r < 0)
			err = r;
		else if (!r)
			nr++;
	}
	closedir(d);
	qsort(v, nr, sizeof(*v), mem_node_cmp);
	if (!err && nr)
		err = writer__set_mem_topology(w, bsize, v, nr);
	for (size_t i = 0; i < nr; i++)
		free(v[i].bits);
	free(v);
	return err;
}

/* Whether a PMU other than "cpu" has capabilities (a caps directory). */
static bool pmu_caps_any(void)
{
	DIR *d = opendir("/sys/bus/event_source/devices");
	struct dirent *e;
	bool any = false;

	if (!d)
		return false;
	while (!any && (e = readdir(d))) {
		char path[512];
		struct stat st;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "cpu"))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/caps", e->d_name);
		any = !stat(path, &st) && S_ISDIR(st.st_mode);
	}
	closedir(d);
	return any;
}

/* TRACING_DATA where some event is a tracepoint (record/tracefs.h) */
static int set_tracing_data(struct writer *w, const struct record_features *f)
{
	const char **names = calloc(f->nr_events ? f->nr_events : 1, sizeof(*names));
	unsigned char *blob = NULL;
	size_t nr = 0, len = 0;
	int err;

	if (!names)
		return -ENOMEM;
	for (size_t i = 0; i < f->nr_events; i++)
		if (f->events[i].attr.type == ATTR_TYPE_TRACEPOINT)
			names[nr++] = f->events[i].name;
	err = nr ? record_tracefs__tracing_data(names, nr, &blob, &len) : 0;
	if (!err && nr)
		err = writer__set_feature(w, FEAT_TRACING_DATA, blob, len);
	free(blob);
	free(names);
	return err;
}

int record_features__write(struct writer *w, const struct record_features *f)
{
	char buf[512], vendor[128], family[32], model[32], stepping[32];
	static const uint32_t none;	/* an empty BPF_PROG_INFO, BPF_BTF, PMU_CAPS */
	uint32_t nr_avail = 0;
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
		err = set_nrcpus(w, &nr_avail);
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
		err = set_tracing_data(w, f);
	if (!err)
		err = set_cpu_topology(w, nr_avail);
	if (!err)
		err = set_numa_topology(w);
	if (!err)
		err = set_caches(w, nr_avail);
	if (!err)
		err = set_mem_topology(w);
	/* no BPF programs recorded: perf writes their tables empty; PMU_CAPS empty
	 * where no PMU has capabilities (else left out: not read here) */
	if (!err)
		err = writer__set_feature(w, FEAT_BPF_PROG_INFO, &none, sizeof(none));
	if (!err)
		err = writer__set_feature(w, FEAT_BPF_BTF, &none, sizeof(none));
	if (!err && !pmu_caps_any())
		err = writer__set_feature(w, FEAT_PMU_CAPS, &none, sizeof(none));
	if (!err)
		err = set_pmu_mappings(w);
	if (!err)
		err = writer__set_build_ids(w, f->build_ids, f->nr_build_ids);
	if (!err && f->use_clockid) {
		struct timespec res;
		uint64_t ns = !clock_getres(f->clockid, &res) ?
			      (uint64_t)res.tv_sec * 1000000000ULL + (uint64_t)res.tv_nsec : 0;
		unsigned char cd[24];
		uint32_t v[2] = { 1, (uint32_t)f->clockid };

		/* perf writes CLOCKID only with a resolution it knows */
		if (ns)
			err = writer__set_feature(w, FEAT_CLOCKID, &ns, sizeof(ns));
		memcpy(cd, v, 8);
		memcpy(cd + 8, &f->ref_tod_ns, 8);
		memcpy(cd + 16, &f->ref_clock_ns, 8);
		if (!err)
			err = writer__set_feature(w, FEAT_CLOCK_DATA, cd, sizeof(cd));
	}
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
