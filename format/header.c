#include "format/header.h"

#include <errno.h>
#include <stdlib.h>	/* malloc, free */
#include <string.h>	/* memset */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "banned.h"

int file_header__probe(const void *buf, size_t len, bool *is_pipe, bool *swap)
{
	uint64_t magic, size;

	if (len < PIPE_HEADER_SIZE)
		return -DIAG_TRUNCATED;
	magic = bytes__u64(buf);
	if (magic == PERF_MAGIC2)
		*swap = false;
	else if (magic == PERF_MAGIC2_SWAPPED)
		*swap = true;
	else
		return -DIAG_NOT_PERF;
	size = bytes__u64x((const unsigned char *)buf + 8, *swap);
	*is_pipe = size == PIPE_HEADER_SIZE;
	return 0;
}

static int section_ok(const struct file_section *s, uint64_t file_size)
{
	return s->offset <= file_size && s->size <= file_size - s->offset;
}

int file_header__read(struct file_header *h, bool *swap, const void *buf, size_t len,
		      uint64_t file_size, const char *path, struct diag *d)
{
	const unsigned char *b = buf;
	bool is_pipe;
	int err;

	memset(h, 0, sizeof(*h));
	if (len == 0)
		return diag__set(d, path, 0, -DIAG_TRUNCATED, "empty file");
	if (len < 8)
		return diag__set(d, path, 0, -DIAG_TRUNCATED,
				 "file ends inside the header (%zu bytes)", len);
	/* Fuzzing found: probing 16 bytes of an 8..15-byte buffer read past its end. With
	 * fewer than 16 bytes only the magic is checked. */
	if (len < PIPE_HEADER_SIZE) {
		if (bytes__u64(b) != PERF_MAGIC2 && bytes__u64(b) != PERF_MAGIC2_SWAPPED)
			return diag__set(d, path, 0, -DIAG_NOT_PERF, NULL);
		*swap = bytes__u64(b) == PERF_MAGIC2_SWAPPED;
		h->magic = PERF_MAGIC2;
		return diag__set(d, path, len, -DIAG_TRUNCATED,
				 "file ends inside the header (%zu bytes)", len);
	}
	err = file_header__probe(buf, len, &is_pipe, swap);
	if (err == -DIAG_NOT_PERF)
		return diag__set(d, path, 0, -DIAG_NOT_PERF, NULL);
	h->magic = PERF_MAGIC2;
	h->size = bytes__u64x(b + 8, *swap);
	if (h->size != FILE_HEADER_SIZE && h->size != FILE_HEADER_SIZE_NOFEAT)
		return diag__set(d, path, 8, -DIAG_BAD_HEADER,
				 "header size %llu (expected 104)",
				 (unsigned long long)h->size);
	if (len < h->size)
		return diag__set(d, path, len, -DIAG_TRUNCATED,
				 "file ends inside the header (%zu of %llu bytes)", len,
				 (unsigned long long)h->size);
	h->attr_size = bytes__u64x(b + 16, *swap);
	h->attrs.offset = bytes__u64x(b + 24, *swap);
	h->attrs.size = bytes__u64x(b + 32, *swap);
	h->data.offset = bytes__u64x(b + 40, *swap);
	h->data.size = bytes__u64x(b + 48, *swap);
	h->event_types.offset = bytes__u64x(b + 56, *swap);
	h->event_types.size = bytes__u64x(b + 64, *swap);
	if (h->size == FILE_HEADER_SIZE)
		for (int i = 0; i < 4; i++)
			h->features[i] = bytes__u64x(b + 72 + 8 * i, *swap);
	/* perf: "was perf record properly terminated?" */
	if (h->attr_size == 0)
		return diag__set(d, path, 16, -DIAG_BAD_HEADER,
				 "attr_size is 0 (recording not finished?)");
	if (h->attr_size < ATTR_SIZE_VER0 + 16 || h->attr_size > ATTR_SIZE_MAX + 16)
		return diag__set(d, path, 16, -DIAG_BAD_HEADER, "attr_size %llu out of range",
				 (unsigned long long)h->attr_size);
	if (!section_ok(&h->attrs, file_size))
		return diag__set(d, path, 24, -DIAG_BAD_HEADER,
				 "attrs section [%#llx, +%#llx) past the end of the file (%#llx)",
				 (unsigned long long)h->attrs.offset,
				 (unsigned long long)h->attrs.size,
				 (unsigned long long)file_size);
	/* The data section is checked by the caller: a file cut short (a recording that
	 * was killed, a partial copy) is still readable up to the cut. */
	return 0;
}

static int read_ids(const unsigned char *b, size_t len, bool swap, uint64_t off,
		    uint64_t size, uint64_t **ids, size_t *nr, const char *path,
		    uint64_t entry_off, struct diag *d)
{
	uint64_t n = size / 8;

	*ids = NULL;
	*nr = 0;
	if (off > len || size > len - off || size % 8)
		return diag__set(d, path, entry_off, -DIAG_BAD_ATTR,
				 "attr ids [%#llx, +%#llx) past the end of the file",
				 (unsigned long long)off, (unsigned long long)size);
	if (!n)
		return 0;
	*ids = malloc(n * sizeof(**ids));
	if (!*ids)
		return -ENOMEM;
	for (uint64_t i = 0; i < n; i++)
		(*ids)[i] = bytes__u64x(b + off + 8 * i, swap);
	*nr = n;
	return 0;
}

int file_header__read_attrs(const struct file_header *h, bool swap, const void *buf,
			    size_t len, struct evlist *el, const char *path,
			    struct diag *d)
{
	const unsigned char *b = buf;
	uint64_t pos = h->attrs.offset, end = h->attrs.offset + h->attrs.size;
	int err;

	while (pos < end) {
		struct event_attr a;
		uint64_t ids_off, ids_size, *ids;
		size_t nr;

		if (end - pos < ATTR_SIZE_VER0)
			return diag__set(d, path, pos, -DIAG_BAD_ATTR,
					 "attrs table ends inside an attr");
		err = attr__decode(&a, b + pos, (size_t)(end - pos), swap);
		if (err || a.size > ATTR_SIZE_MAX || end - pos < (uint64_t)a.size + 16)
			return diag__set(d, path, pos + 4, -DIAG_BAD_ATTR,
					 "attr size %u out of range",
					 bytes__u32x(b + pos + 4, swap));
		ids_off = bytes__u64x(b + pos + a.size, swap);
		ids_size = bytes__u64x(b + pos + a.size + 8, swap);
		err = read_ids(b, len, swap, ids_off, ids_size, &ids, &nr, path,
			       pos + a.size, d);
		if (err)
			return err;
		err = evlist__add(el, &a, ids, nr, NULL);
		free(ids);
		if (err == -DIAG_BAD_ATTR)
			return diag__set(d, path, ids_off, err,
					 "attr %zu: id used by two events", el->nr - 1);
		if (err)
			return err;
		/* perf steps by the attr's own size; attr_size must agree. */
		pos += a.size + 16;
	}
	return 0;
}

int file_header__feat_sections_cut(const struct file_header *h, bool swap,
				   const void *buf, size_t len,
				   struct file_section sec[FEAT_BITS], uint64_t *feat_offset,
				   uint64_t *cut_at, const char *path, struct diag *d)
{
	const unsigned char *b = buf;
	uint64_t off = h->data.offset + h->data.size, entry[FEAT_BITS];
	bool lost[FEAT_BITS] = { false };
	unsigned n = 0;

	memset(sec, 0, sizeof(*sec) * FEAT_BITS);
	*feat_offset = off;
	if (cut_at)
		*cut_at = UINT64_MAX;
	for (unsigned f = 0; f < FEAT_BITS; f++) {
		if (!file_header__has_feat(h, f))
			continue;
		uint64_t e = off + 16ULL * n++;

		entry[f] = e;
		if (e > len || len - e < 16) {
			if (!cut_at)
				return diag__set(d, path, e, -DIAG_BAD_FEATURE,
						 "feature table entry for %s past the end of the "
						 "file", feat__name(f) ? feat__name(f) : "unknown");
			/* the file ends inside the table: this and every later feature is
			 * gone with the cut */
			if (*cut_at > e)
				*cut_at = e < len ? e : len;
			lost[f] = true;
			continue;
		}
		sec[f].offset = bytes__u64x(b + e, swap);
		sec[f].size = bytes__u64x(b + e + 8, swap);
		lost[f] = !section_ok(&sec[f], len);
	}
	for (unsigned f = 0; f < FEAT_BITS; f++) {
		if (!file_header__has_feat(h, f) || !lost[f] || !sec[f].size)
			continue;
		/* perf writes the bodies back to back in bit order, so a cut loses a suffix
		 * of the features: a lost body followed by a surviving one is damage. */
		for (unsigned g = f + 1; cut_at && g < FEAT_BITS; g++)
			if (file_header__has_feat(h, g) && !lost[g] && sec[g].size)
				goto damaged;
		if (!cut_at)
			goto damaged;
		if (*cut_at > sec[f].offset)
			*cut_at = sec[f].offset < len ? sec[f].offset : len;
		continue;
damaged:
		return diag__set(d, path, entry[f], -DIAG_BAD_FEATURE,
				 "feature %s body [%#llx, +%#llx) past the end of the file",
				 feat__name(f) ? feat__name(f) : "unknown",
				 (unsigned long long)sec[f].offset,
				 (unsigned long long)sec[f].size);
	}
	/* Fuzzing found: an empty body placed past the end is not an error above, but
	 * without cut_at its offset was handed out and callers formed buf + offset past
	 * the mapping. Lost sections are zero in both modes. */
	for (unsigned f = 0; f < FEAT_BITS; f++)
		if (lost[f])
			memset(&sec[f], 0, sizeof(sec[f]));
	return 0;
}

int file_header__feat_sections(const struct file_header *h, bool swap, const void *buf,
			       size_t len, struct file_section sec[FEAT_BITS],
			       uint64_t *feat_offset, const char *path, struct diag *d)
{
	return file_header__feat_sections_cut(h, swap, buf, len, sec, feat_offset, NULL,
					      path, d);
}

static const char *const feat_names[] = {
	[FEAT_RESERVED] = "RESERVED", [FEAT_TRACING_DATA] = "TRACING_DATA",
	[FEAT_BUILD_ID] = "BUILD_ID", [FEAT_HOSTNAME] = "HOSTNAME",
	[FEAT_OSRELEASE] = "OSRELEASE", [FEAT_VERSION] = "VERSION", [FEAT_ARCH] = "ARCH",
	[FEAT_NRCPUS] = "NRCPUS", [FEAT_CPUDESC] = "CPUDESC", [FEAT_CPUID] = "CPUID",
	[FEAT_TOTAL_MEM] = "TOTAL_MEM", [FEAT_CMDLINE] = "CMDLINE",
	[FEAT_EVENT_DESC] = "EVENT_DESC", [FEAT_CPU_TOPOLOGY] = "CPU_TOPOLOGY",
	[FEAT_NUMA_TOPOLOGY] = "NUMA_TOPOLOGY", [FEAT_BRANCH_STACK] = "BRANCH_STACK",
	[FEAT_PMU_MAPPINGS] = "PMU_MAPPINGS", [FEAT_GROUP_DESC] = "GROUP_DESC",
	[FEAT_AUXTRACE] = "AUXTRACE", [FEAT_STAT] = "STAT", [FEAT_CACHE] = "CACHE",
	[FEAT_SAMPLE_TIME] = "SAMPLE_TIME", [FEAT_MEM_TOPOLOGY] = "MEM_TOPOLOGY",
	[FEAT_CLOCKID] = "CLOCKID", [FEAT_DIR_FORMAT] = "DIR_FORMAT",
	[FEAT_BPF_PROG_INFO] = "BPF_PROG_INFO", [FEAT_BPF_BTF] = "BPF_BTF",
	[FEAT_COMPRESSED] = "COMPRESSED", [FEAT_CPU_PMU_CAPS] = "CPU_PMU_CAPS",
	[FEAT_CLOCK_DATA] = "CLOCK_DATA", [FEAT_HYBRID_TOPOLOGY] = "HYBRID_TOPOLOGY",
	[FEAT_PMU_CAPS] = "PMU_CAPS", [FEAT_CPU_DOMAIN_INFO] = "CPU_DOMAIN_INFO",
};

const char *feat__name(unsigned feat)
{
	return feat < sizeof(feat_names) / sizeof(feat_names[0]) ? feat_names[feat] : NULL;
}
