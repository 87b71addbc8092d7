/*
 * feature-encode - feature bodies re-encoded in host order from parsed features
 * (writer__encode_feature, writer.h), for input written in the other byte order.
 *
 * Format: docs/perf-data-format.md §2.2 (string: u32 len = pad64(strlen + 1), bytes,
 * zero padded; string list: u32 nr + strings) and §2.3 (one layout per feature).
 */
#include "format/writer.h"

#include <errno.h>
#include <stdlib.h>	/* realloc, free */
#include <string.h>	/* memcpy, strlen */

#include "format/bytes.h"
#include "format/feature.h"
#include "format/header.h"
#include "banned.h"

struct ebuf {
	unsigned char *p;	/* owned */
	size_t len, cap;
	bool nomem;
};

static void eb_add(struct ebuf *b, const void *p, size_t n)
{
	if (b->nomem)
		return;
	if (b->len + n > b->cap) {
		size_t cap = b->cap ? b->cap : 256;
		unsigned char *q;

		while (cap < b->len + n)
			cap *= 2;
		q = realloc(b->p, cap);
		if (!q) {
			b->nomem = true;
			return;
		}
		b->p = q;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void eb_u32(struct ebuf *b, uint32_t v) { eb_add(b, &v, 4); }
static void eb_u64(struct ebuf *b, uint64_t v) { eb_add(b, &v, 8); }

/* perf's do_write_string(): u32 len = pad64(strlen + 1), then the string and zeros. */
static void eb_str(struct ebuf *b, const char *s)
{
	static const unsigned char zeros[64];
	size_t n = s ? strlen(s) : 0, len = (n + 1 + 63) & ~(size_t)63;

	eb_u32(b, (uint32_t)len);
	eb_add(b, s ? s : "", n);
	eb_add(b, zeros, len - n);
}

static void eb_attr(struct ebuf *b, const struct event_attr *attr)
{
	unsigned char a[ATTR_SIZE_VER7];
	struct event_attr c = *attr;

	c.size = ATTR_SIZE_VER7;
	attr__encode(&c, a, sizeof(a));
	eb_add(b, a, sizeof(a));
}

static void enc_event_desc(struct ebuf *b, const struct feat_event *events, size_t nr)
{
	eb_u32(b, (uint32_t)nr);
	eb_u32(b, ATTR_SIZE_VER7);
	for (size_t i = 0; i < nr; i++) {
		const struct feat_event *e = &events[i];

		eb_attr(b, &e->attr);
		eb_u32(b, e->nr_ids);
		eb_str(b, e->name);
		for (uint32_t j = 0; j < e->nr_ids; j++)
			eb_u64(b, e->ids[j]);
	}
}

/* BUILD_ID entries: u32 type 0, u16 misc, u16 size, s32 pid, build_id[20], u8 size,
 * pad[3], file name padded to 64 (perf's write_buildid()). */
static void enc_build_id(struct ebuf *b, const struct feat_build_id *ids, size_t nr)
{
	static const unsigned char zeros[64];

	for (size_t i = 0; i < nr; i++) {
		const struct feat_build_id *e = &ids[i];
		size_t n = strlen(e->filename), len = (n + 1 + 63) & ~(size_t)63;
		unsigned char h[36] = { 0 };

		if (36 + len > UINT16_MAX)
			continue;	/* cannot be stored (perf cannot either) */
		bytes__put_u16(h + 4, (uint16_t)(e->misc | 0x8000));
		bytes__put_u16(h + 6, (uint16_t)(36 + len));
		bytes__put_u32(h + 8, (uint32_t)e->pid);
		memcpy(h + 12, e->build_id, 20);
		h[32] = e->size;
		eb_add(b, h, sizeof(h));
		eb_add(b, e->filename, n);
		eb_add(b, zeros, len - n);
	}
}

/* PMU_MAPPINGS: u32 nr, then per PMU u32 type and its name */
static void enc_pmu_mappings(struct ebuf *b, const struct feat_pmu_mapping *m, size_t nr)
{
	eb_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		eb_u32(b, m[i].type);
		eb_str(b, m[i].name);
	}
}

/* GROUP_DESC: u32 nr, then per group its name, u32 leader index, u32 member count */
static void enc_group_desc(struct ebuf *b, const struct feat_group *g, size_t nr)
{
	eb_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		eb_str(b, g[i].name);
		eb_u32(b, g[i].leader_idx);
		eb_u32(b, g[i].nr_members);
	}
}

static void eb_strs(struct ebuf *b, char *const *s, uint32_t nr)
{
	eb_u32(b, nr);
	for (uint32_t i = 0; i < nr; i++)
		eb_str(b, s[i]);
}

/* CPU_TOPOLOGY: package and core cpu lists, per cpu core and socket ids, then the die
 * lists and ids (perf's write_cpu_topology()) */
static void enc_cpu_topology(struct ebuf *b, const struct feat_cpu_topology *t)
{
	eb_strs(b, t->package_cpus, t->nr_package_cpus);
	eb_strs(b, t->core_cpus, t->nr_core_cpus);
	if (!t->has_cpus)
		return;
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		eb_u32(b, t->cpus[i].core_id);
		eb_u32(b, t->cpus[i].socket_id);
	}
	if (!t->has_dies)
		return;
	eb_strs(b, t->die_cpus, t->nr_die_cpus);
	for (uint32_t i = 0; i < t->nr_cpus; i++)
		eb_u32(b, t->cpus[i].die_id);
}

/* NUMA_TOPOLOGY: u32 nr, per node u32 node, u64 total kB, u64 free kB, cpu list */
static void enc_numa_topology(struct ebuf *b, const struct feat_numa_node *n, size_t nr)
{
	eb_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		eb_u32(b, n[i].node);
		eb_u64(b, n[i].mem_total_kb);
		eb_u64(b, n[i].mem_free_kb);
		eb_str(b, n[i].cpus);
	}
}

/* CACHE: u32 version 1, u32 nr, per cache four u32 and three strings */
static void enc_caches(struct ebuf *b, const struct feat_cache *c, size_t nr)
{
	eb_u32(b, 1);
	eb_u32(b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++) {
		eb_u32(b, c[i].level);
		eb_u32(b, c[i].line_size);
		eb_u32(b, c[i].sets);
		eb_u32(b, c[i].ways);
		eb_str(b, c[i].type);
		eb_str(b, c[i].size);
		eb_str(b, c[i].map);
	}
}

/* MEM_TOPOLOGY: u64 version 1, u64 block size, u64 nr, per node u64 node, u64 size,
 * the bitmap (u64 bits, then its words) */
static void enc_mem_topology(struct ebuf *b, uint64_t block_size, const struct feat_mem_node *n,
			     size_t nr)
{
	eb_u64(b, 1);
	eb_u64(b, block_size);
	eb_u64(b, nr);
	for (size_t i = 0; i < nr; i++) {
		eb_u64(b, n[i].node);
		eb_u64(b, n[i].size);
		eb_u64(b, n[i].nbits);
		for (uint64_t k = 0; k < (n[i].nbits + 63) / 64; k++)
			eb_u64(b, n[i].bits[k]);
	}
}

static int encode(struct ebuf *b, const struct features *f, unsigned feat)
{
	switch (feat) {
	case FEAT_HOSTNAME: eb_str(b, f->hostname); break;
	case FEAT_OSRELEASE: eb_str(b, f->osrelease); break;
	case FEAT_VERSION: eb_str(b, f->version); break;
	case FEAT_ARCH: eb_str(b, f->arch); break;
	case FEAT_CPUDESC: eb_str(b, f->cpudesc); break;
	case FEAT_CPUID: eb_str(b, f->cpuid); break;
	case FEAT_NRCPUS:
		eb_u32(b, f->nr_cpus_avail);
		eb_u32(b, f->nr_cpus_online);
		break;
	case FEAT_TOTAL_MEM: eb_u64(b, f->total_mem_kb); break;
	case FEAT_CMDLINE:
		eb_u32(b, f->nr_cmdline);
		for (uint32_t i = 0; i < f->nr_cmdline; i++)
			eb_str(b, f->cmdline[i]);
		break;
	case FEAT_EVENT_DESC: enc_event_desc(b, f->events, f->nr_events); break;
	case FEAT_BUILD_ID: enc_build_id(b, f->build_ids, f->nr_build_ids); break;
	case FEAT_SAMPLE_TIME:
		eb_u64(b, f->first_sample_ns);
		eb_u64(b, f->last_sample_ns);
		break;
	case FEAT_PMU_MAPPINGS: enc_pmu_mappings(b, f->pmu_mappings, f->nr_pmu_mappings); break;
	case FEAT_GROUP_DESC: enc_group_desc(b, f->groups, f->nr_groups); break;
	case FEAT_CLOCKID: eb_u64(b, f->clockid_res_ns); break;
	case FEAT_CPU_TOPOLOGY: enc_cpu_topology(b, &f->cpu_topo); break;
	case FEAT_NUMA_TOPOLOGY: enc_numa_topology(b, f->numa_nodes, f->nr_numa_nodes); break;
	case FEAT_CACHE:
		if (f->cache_version != 1)
			return -ENOTSUP;
		enc_caches(b, f->caches, f->nr_caches);
		break;
	case FEAT_MEM_TOPOLOGY:
		if (f->mem_version != 1)
			return -ENOTSUP;
		enc_mem_topology(b, f->mem_block_size, f->mem_nodes, f->nr_mem_nodes);
		break;
	case FEAT_BRANCH_STACK:
	case FEAT_STAT:
		break;	/* empty flags */
	case FEAT_TRACING_DATA:
		/* the blob says its own byte order (§2.4): copied as it is */
		eb_add(b, f->tracing_data.data, f->tracing_data.size);
		break;
	default:
		return -ENOTSUP;
	}
	return b->nomem ? -ENOMEM : 0;
}

int writer__encode_feature(struct writer *w, const struct features *f, unsigned feat)
{
	struct ebuf b = { 0 };
	int err;

	if (!features__has(f, feat))
		return -ENOENT;
	err = encode(&b, f, feat);
	if (!err)
		err = writer__set_feature(w, feat, b.p, b.len);
	free(b.p);
	return err;
}

/* The encoded body handed to the writer, or the encoder's -ENOMEM. */
static int set_encoded(struct writer *w, unsigned feat, struct ebuf *b)
{
	int err = b->nomem ? -ENOMEM : writer__set_feature(w, feat, b->p, b->len);

	free(b->p);
	return err;
}

int writer__set_string_feature(struct writer *w, unsigned feat, const char *s)
{
	struct ebuf b = { 0 };

	eb_str(&b, s);
	return set_encoded(w, feat, &b);
}

int writer__set_strings_feature(struct writer *w, unsigned feat, const char *const *s,
				size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	eb_u32(&b, (uint32_t)nr);
	for (size_t i = 0; i < nr; i++)
		eb_str(&b, s[i]);
	return set_encoded(w, feat, &b);
}

int writer__set_event_desc(struct writer *w, const struct feat_event *ev, size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	enc_event_desc(&b, ev, nr);
	return set_encoded(w, FEAT_EVENT_DESC, &b);
}

int writer__set_build_ids(struct writer *w, const struct feat_build_id *ids, size_t nr)
{
	struct ebuf b = { 0 };

	enc_build_id(&b, ids, nr);
	return set_encoded(w, FEAT_BUILD_ID, &b);
}

int writer__set_group_desc(struct writer *w, const struct feat_group *g, size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	enc_group_desc(&b, g, nr);
	return set_encoded(w, FEAT_GROUP_DESC, &b);
}

int writer__set_pmu_mappings(struct writer *w, const struct feat_pmu_mapping *m, size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	enc_pmu_mappings(&b, m, nr);
	return set_encoded(w, FEAT_PMU_MAPPINGS, &b);
}

int writer__set_cpu_topology(struct writer *w, const struct feat_cpu_topology *t)
{
	struct ebuf b = { 0 };

	enc_cpu_topology(&b, t);
	return set_encoded(w, FEAT_CPU_TOPOLOGY, &b);
}

int writer__set_numa_topology(struct writer *w, const struct feat_numa_node *n, size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	enc_numa_topology(&b, n, nr);
	return set_encoded(w, FEAT_NUMA_TOPOLOGY, &b);
}

int writer__set_caches(struct writer *w, const struct feat_cache *c, size_t nr)
{
	struct ebuf b = { 0 };

	if (nr > UINT32_MAX)
		return -EINVAL;
	enc_caches(&b, c, nr);
	return set_encoded(w, FEAT_CACHE, &b);
}

int writer__set_mem_topology(struct writer *w, uint64_t block_size,
			     const struct feat_mem_node *n, size_t nr)
{
	struct ebuf b = { 0 };

	enc_mem_topology(&b, block_size, n, nr);
	return set_encoded(w, FEAT_MEM_TOPOLOGY, &b);
}
