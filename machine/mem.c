#include "machine/mem.h"

#include <stdbool.h>
#include <string.h>

#include "banned.h"

/* uapi linux/perf_event.h: where each field of perf_mem_data_src starts, its width */
static const struct { unsigned shift, bits; } field_pos[] = {
	[MEM_FIELD_LVL] = { 5, 14 },
	[MEM_FIELD_SNOOP] = { 19, 5 },
	[MEM_FIELD_LOCK] = { 24, 2 },
	[MEM_FIELD_DTLB] = { 26, 7 },
	[MEM_FIELD_BLK] = { 40, 3 },
	[MEM_FIELD_OP] = { 0, 5 },
};

#define LVL_NUM(src) (((src) >> 33) & 0xf)
#define REMOTE(src) (((src) >> 37) & 1)
#define SNOOPX(src) (((src) >> 38) & 3)
#define HOPS(src) (((src) >> 43) & 7)

/* PERF_MEM_LVL_HIT, _MISS and PERF_MEM_TLB_HIT, _MISS: printed last */
#define BIT_HIT 0x2
#define BIT_MISS 0x4

/* perf 6.1's names, by bit (observed; see mem.h) */
static const char *const lvl_names[14] = {
	"N/A", NULL, NULL, "L1", "LFB/MAB", "L2", "L3", "Local RAM",
	"Remote RAM (1 hop)", "Remote RAM (2 hops)", "Remote Cache (1 hop)",
	"Remote Cache (2 hops)", "I/O", "Uncached",
};
static const char *const lvl_num_names[16] = {
	NULL, "L1", "L2", "L3", "L4", "L5", "L6", "L7", "L8", "CXL", "I/O", "Any cache",
	"LFB/MAB", "RAM", "PMEM", "N/A",
};
static const char *const hop_names[8] = {
	NULL, "core, same node ", "node, same socket ", "socket, same board ", "board ",
	"(null) ", "(null) ", "(null) ",
};
static const char *const snoop_names[7] = {
	"N/A", "None", "Hit", "Miss", "HitM", "Fwd", "Peer",
};
static const char *const op_names[5] = { "N/A", "LOAD", "STORE", "PFETCH", "EXEC" };
static const char *const tlb_names[7] = {
	"N/A", NULL, NULL, "L1", "L2", "Walker", "Fault",
};

uint64_t mem_src__field(uint64_t src, enum mem_field f)
{
	return (src >> field_pos[f].shift) & ((1ULL << field_pos[f].bits) - 1);
}

/* A bounded string being built. */
struct out {
	char *buf;
	size_t len, n;
};

static void add(struct out *o, const char *s)
{
	size_t k = strlen(s);

	if (!o->len)
		return;
	if (o->n + k >= o->len)
		k = o->len - 1 - o->n;
	memcpy(o->buf + o->n, s, k);
	o->n += k;
	o->buf[o->n] = '\0';
}

/* The names of the set bits of @p v (skipping NULL names), joined by " or ";
 * @p first: nothing was joined before. Returns whether one was written. */
static bool join(struct out *o, uint64_t v, const char *const *names, size_t nr,
		 bool first)
{
	bool any = false;

	for (size_t i = 0; i < nr; i++) {
		if (!(v >> i & 1) || !names[i])
			continue;
		if (!first || any)
			add(o, " or ");
		add(o, names[i]);
		any = true;
	}
	return any;
}

static void hit_miss(struct out *o, uint64_t bits)
{
	if (bits & BIT_HIT)
		add(o, " hit");
	if (bits & BIT_MISS)
		add(o, " miss");
}

size_t mem_src__text(uint64_t src, enum mem_field f, char *buf, size_t len)
{
	struct out o = { buf, len, 0 };
	uint64_t v = mem_src__field(src, f);

	if (len)
		buf[0] = '\0';
	switch (f) {
	case MEM_FIELD_LVL: {
		bool lvl = false;

		if (REMOTE(src))
			add(&o, "Remote ");
		if (HOPS(src)) {
			add(&o, hop_names[HOPS(src)]);
		} else {
			lvl = join(&o, v, lvl_names, 14, true);
		}
		if (LVL_NUM(src)) {
			if (lvl)
				add(&o, " or ");
			add(&o, lvl_num_names[LVL_NUM(src)]);
		}
		if (!o.n)
			add(&o, "N/A");
		hit_miss(&o, v);
		break;
	}
	case MEM_FIELD_SNOOP:
		if (!join(&o, v | SNOOPX(src) << 5, snoop_names, 7, true))
			add(&o, "N/A");
		break;
	case MEM_FIELD_DTLB:
		if (!join(&o, v, tlb_names, 7, true))
			add(&o, "N/A");
		hit_miss(&o, v);
		break;
	case MEM_FIELD_LOCK:
		add(&o, v & 1 ? "N/A" : v & 2 ? "Yes" : "No");
		break;
	case MEM_FIELD_OP: {
		size_t i = 0;

		while (i < 5 && !(v >> i & 1))
			i++;
		add(&o, i < 5 ? op_names[i] : "No");
		break;
	}
	case MEM_FIELD_BLK:
		if (!v || (v & 1)) {
			add(&o, " N/A");
		} else {
			if (v & 2)
				add(&o, " Data");
			if (v & 4)
				add(&o, " Addr");
		}
		break;
	}
	return o.n;
}

size_t mem_src__script_text(uint64_t src, char *buf, size_t len)
{
	static const struct { const char *tag; enum mem_field f; } parts[] = {
		{ "|OP ", MEM_FIELD_OP }, { "|LVL ", MEM_FIELD_LVL },
		{ "|SNP ", MEM_FIELD_SNOOP }, { "|TLB ", MEM_FIELD_DTLB },
		{ "|LCK ", MEM_FIELD_LOCK }, { "|BLK ", MEM_FIELD_BLK },
	};
	struct out o = { buf, len, 0 };
	char part[MEM_SCRIPT_TEXT_MAX];

	if (len)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++) {
		add(&o, parts[i].tag);
		mem_src__text(src, parts[i].f, part, sizeof(part));
		add(&o, part);
	}
	return o.n;
}
