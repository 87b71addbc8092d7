#include "report/header-print.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>	/* errno, EIO */
#include <inttypes.h>	/* PRIu64, PRIx64, PRId64 */
#include <stdarg.h>	/* va_list */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp, strncmp, strlen, memcpy */
#include <time.h>	/* localtime_r, strftime, tzset */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/feature.h"
#include "format/header.h"
#include "banned.h"

/*
 * What a feature printer sees: the features to print from (perf's "env"; empty for a
 * feature perf did not get to read) and the ones really parsed.
 */
struct hpctx {
	const struct features *feat;	/* print from this */
	const struct features *host;	/* everything parsed (for perf's host lookups) */
	bool is_dir;
	bool full;
};

/* ---- small formatting helpers ------------------------------------------------- */

/* Append to buf (size bytes) like the kernel's scnprintf: never more than fits. */
__attribute__((format(printf, 4, 5)))
static void hp_bprintf(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len + 1 >= size)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	*len += (size_t)n < size - *len ? (size_t)n : size - *len - 1;
}

static const char *hp_str(const char *s)
{
	/* perf passes NULL strings to printf, which glibc prints as "(null)" */
	return s ? s : "(null)";
}

/* ---- EVENT_DESC: perf_event_attr__fprintf() of perf 6.1 ---------------------- */

struct bit_name {
	uint64_t bit;
	const char *name;
};

/* perf 6.1's lists (note: no TRANSACTION in sample_type, IDENTIFIER before REGS_INTR). */
static const struct bit_name sample_type_bits[] = {
	{ 1ULL << 0, "IP" }, { 1ULL << 1, "TID" }, { 1ULL << 2, "TIME" },
	{ 1ULL << 3, "ADDR" }, { 1ULL << 4, "READ" }, { 1ULL << 5, "CALLCHAIN" },
	{ 1ULL << 6, "ID" }, { 1ULL << 7, "CPU" }, { 1ULL << 8, "PERIOD" },
	{ 1ULL << 9, "STREAM_ID" }, { 1ULL << 10, "RAW" },
	{ 1ULL << 11, "BRANCH_STACK" }, { 1ULL << 12, "REGS_USER" },
	{ 1ULL << 13, "STACK_USER" }, { 1ULL << 16, "IDENTIFIER" },
	{ 1ULL << 18, "REGS_INTR" }, { 1ULL << 15, "DATA_SRC" }, { 1ULL << 14, "WEIGHT" },
	{ 1ULL << 19, "PHYS_ADDR" }, { 1ULL << 20, "AUX" }, { 1ULL << 21, "CGROUP" },
	{ 1ULL << 22, "DATA_PAGE_SIZE" }, { 1ULL << 23, "CODE_PAGE_SIZE" },
	{ 1ULL << 24, "WEIGHT_STRUCT" }, { 0, NULL },
};

static const struct bit_name read_format_bits[] = {
	{ 1ULL << 0, "TOTAL_TIME_ENABLED" }, { 1ULL << 1, "TOTAL_TIME_RUNNING" },
	{ 1ULL << 2, "ID" }, { 1ULL << 3, "GROUP" }, { 1ULL << 4, "LOST" }, { 0, NULL },
};

static const struct bit_name branch_sample_type_bits[] = {
	{ 1ULL << 0, "USER" }, { 1ULL << 1, "KERNEL" }, { 1ULL << 2, "HV" },
	{ 1ULL << 3, "ANY" }, { 1ULL << 4, "ANY_CALL" }, { 1ULL << 5, "ANY_RETURN" },
	{ 1ULL << 6, "IND_CALL" }, { 1ULL << 7, "ABORT_TX" }, { 1ULL << 8, "IN_TX" },
	{ 1ULL << 9, "NO_TX" }, { 1ULL << 10, "COND" }, { 1ULL << 11, "CALL_STACK" },
	{ 1ULL << 12, "IND_JUMP" }, { 1ULL << 13, "CALL" }, { 1ULL << 14, "NO_FLAGS" },
	{ 1ULL << 15, "NO_CYCLES" }, { 1ULL << 16, "TYPE_SAVE" },
	{ 1ULL << 17, "HW_INDEX" }, { 1ULL << 18, "PRIV_SAVE" }, { 0, NULL },
};

/* The flag bit-fields at offset 40, in perf's print order (= bit order). */
static const struct {
	const char *name;
	unsigned bit, width;
} attr_flag_fields[] = {
	{ "disabled", 0, 1 }, { "inherit", 1, 1 }, { "pinned", 2, 1 },
	{ "exclusive", 3, 1 }, { "exclude_user", 4, 1 }, { "exclude_kernel", 5, 1 },
	{ "exclude_hv", 6, 1 }, { "exclude_idle", 7, 1 }, { "mmap", 8, 1 },
	{ "comm", 9, 1 }, { "freq", 10, 1 }, { "inherit_stat", 11, 1 },
	{ "enable_on_exec", 12, 1 }, { "task", 13, 1 }, { "watermark", 14, 1 },
	{ "precise_ip", 15, 2 }, { "mmap_data", 17, 1 }, { "sample_id_all", 18, 1 },
	{ "exclude_host", 19, 1 }, { "exclude_guest", 20, 1 },
	{ "exclude_callchain_kernel", 21, 1 }, { "exclude_callchain_user", 22, 1 },
	{ "mmap2", 23, 1 }, { "comm_exec", 24, 1 }, { "use_clockid", 25, 1 },
	{ "context_switch", 26, 1 }, { "write_backward", 27, 1 },
	{ "namespaces", 28, 1 }, { "ksymbol", 29, 1 }, { "bpf_event", 30, 1 },
	{ "aux_output", 31, 1 }, { "cgroup", 32, 1 }, { "text_poke", 33, 1 },
	{ "build_id", 34, 1 }, { "inherit_thread", 35, 1 }, { "remove_on_exec", 36, 1 },
	{ "sigtrap", 37, 1 },
};

/*
 * perf formats every value into one stack buffer and prints it; a bit mask with only
 * unknown bits writes nothing, so the previous field's text is printed again. We keep
 * that buffer across fields to print the same.
 */
struct attr_out {
	FILE *fp;
	char buf[1024];
};

static void attr_field(struct attr_out *o, const char *name)
{
	fprintf(o->fp, ", %s = %s", name, o->buf);
}

static void attr_u(struct attr_out *o, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(o->buf, sizeof(o->buf), "%" PRIu64, v);
	attr_field(o, name);
}

static void attr_x(struct attr_out *o, const char *name, uint64_t v)
{
	if (!v)
		return;
	snprintf(o->buf, sizeof(o->buf), "%#" PRIx64, v);
	attr_field(o, name);
}

static void attr_bits(struct attr_out *o, const char *name, uint64_t v,
		       const struct bit_name *bits)
{
	size_t len = 0;
	bool first = true;

	if (!v)
		return;
	for (int i = 0; bits[i].name; i++) {
		if (!(v & bits[i].bit))
			continue;
		/* like perf, each name is written at the end of the text so far */
		len += (size_t)snprintf(o->buf + len, sizeof(o->buf) - len, "%s%s",
					first ? "" : "|", bits[i].name);
		first = false;
	}
	attr_field(o, name);
}

static void print_attr(FILE *fp, const struct event_attr *a, uint32_t size_raw)
{
	struct attr_out o = { .fp = fp, .buf = "" };

	attr_u(&o, "type", a->type);
	attr_u(&o, "size", size_raw);
	attr_x(&o, "config", a->config);
	attr_u(&o, "{ sample_period, sample_freq }", a->sample_period);
	attr_bits(&o, "sample_type", a->sample_type, sample_type_bits);
	attr_bits(&o, "read_format", a->read_format, read_format_bits);
	for (size_t i = 0; i < sizeof(attr_flag_fields) / sizeof(attr_flag_fields[0]); i++)
		attr_u(&o, attr_flag_fields[i].name,
			(a->flags >> attr_flag_fields[i].bit) &
			((1ULL << attr_flag_fields[i].width) - 1));
	attr_u(&o, "{ wakeup_events, wakeup_watermark }", a->wakeup_events);
	attr_u(&o, "bp_type", a->bp_type);
	attr_x(&o, "{ bp_addr, config1 }", a->config1);
	attr_x(&o, "{ bp_len, config2 }", a->config2);
	attr_bits(&o, "branch_sample_type", a->branch_sample_type,
		   branch_sample_type_bits);
	attr_x(&o, "sample_regs_user", a->sample_regs_user);
	attr_u(&o, "sample_stack_user", a->sample_stack_user);
	if (a->clockid) {
		snprintf(o.buf, sizeof(o.buf), "%" PRId64, (int64_t)a->clockid);
		attr_field(&o, "clockid");
	}
	attr_x(&o, "sample_regs_intr", a->sample_regs_intr);
	attr_u(&o, "aux_watermark", a->aux_watermark);
	attr_u(&o, "sample_max_stack", a->sample_max_stack);
	attr_u(&o, "aux_sample_size", a->aux_sample_size);
	attr_u(&o, "sig_data", a->sig_data);
}

static void print_event_desc(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	if (!features__has(f, FEAT_EVENT_DESC) || f->events_rejected) {
		fprintf(fp, "# event desc: not available or unable to read\n");
		return;
	}
	/* perf's event array ends at the first attr whose stored size is 0 */
	for (uint32_t i = 0; i < f->nr_events && f->events[i].attr_size_raw; i++) {
		const struct feat_event *ev = &f->events[i];

		fprintf(fp, "# event : name = %s, ", ev->name);
		if (ev->nr_ids) {
			fprintf(fp, ", id = {");
			for (uint32_t j = 0; j < ev->nr_ids; j++)
				fprintf(fp, "%s %" PRIu64, j ? "," : "", ev->ids[j]);
			fprintf(fp, " }");
		}
		print_attr(fp, &ev->attr_perf61, ev->attr_size_raw);
		fputc('\n', fp);
	}
}

/* ---- simple features ------------------------------------------------------------ */

static void print_hostname(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# hostname : %s\n", hp_str(hi->feat->hostname));
}

static void print_osrelease(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# os release : %s\n", hp_str(hi->feat->osrelease));
}

static void print_version(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# perf version : %s\n", hp_str(hi->feat->version));
}

static void print_arch(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# arch : %s\n", hp_str(hi->feat->arch));
}

static void print_nrcpus(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# nrcpus online : %u\n", hi->feat->nr_cpus_online);
	fprintf(fp, "# nrcpus avail : %u\n", hi->feat->nr_cpus_avail);
}

static void print_cpudesc(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# cpudesc : %s\n", hp_str(hi->feat->cpudesc));
}

static void print_cpuid(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# cpuid : %s\n", hp_str(hi->feat->cpuid));
}

static void print_total_mem(FILE *fp, const struct hpctx *hi)
{
	fprintf(fp, "# total memory : %" PRIu64 " kB\n", hi->feat->total_mem_kb);
}

static void print_cmdline(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	fprintf(fp, "# cmdline : ");
	for (uint32_t i = 0; i < f->nr_cmdline; i++) {
		/* single quotes are printed as \' */
		for (const char *s = f->cmdline[i]; *s; s++) {
			if (*s == '\'')
				fputs("\\'", fp);
			else
				fputc(*s, fp);
		}
		fputc(' ', fp);
	}
	fputc('\n', fp);
}

static void print_str_lines(FILE *fp, const char *prefix, char *const *v, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		fprintf(fp, "%s%s\n", prefix, v[i]);
}

static void print_cpu_topology(FILE *fp, const struct hpctx *hi)
{
	const struct feat_cpu_topology *t = &hi->feat->cpu_topo;
	bool dies = t->nr_die_cpus != 0;

	print_str_lines(fp, "# sibling sockets : ", t->package_cpus, t->nr_package_cpus);
	print_str_lines(fp, "# sibling dies    : ", t->die_cpus, t->nr_die_cpus);
	print_str_lines(fp, "# sibling threads : ", t->core_cpus, t->nr_core_cpus);
	if (!t->has_cpus) {
		if (dies)
			fprintf(fp, "# Core ID, Die ID and Socket ID information is not "
				    "available\n");
		else
			fprintf(fp, "# Core ID and Socket ID information is not available\n");
		return;
	}
	for (uint32_t i = 0; i < t->nr_cpus; i++) {
		const struct feat_cpu *c = &t->cpus[i];

		if (dies)
			fprintf(fp, "# CPU %u: Core ID %d, Die ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->die_id, (int)c->socket_id);
		else
			fprintf(fp, "# CPU %u: Core ID %d, Socket ID %d\n", i,
				(int)c->core_id, (int)c->socket_id);
	}
}

static void print_numa_topology(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	if (features__perf_failed(f, FEAT_NUMA_TOPOLOGY))
		return;		/* perf keeps no node of a list it rejects */

	for (uint32_t i = 0; i < f->nr_numa_nodes; i++) {
		const struct feat_numa_node *n = &f->numa_nodes[i];

		fprintf(fp, "# node%u meminfo  : total = %" PRIu64 " kB, free = %" PRIu64
			" kB\n", n->node, n->mem_total_kb, n->mem_free_kb);
		fprintf(fp, "# node%u cpu list : %s\n", n->node, hp_str(n->cpus_norm));
	}
}

static void print_branch_stack(FILE *fp, const struct hpctx *hi)
{
	(void)hi;
	fprintf(fp, "# contains samples with branch stack\n");
}

/*
 * perf 6.1 on an AMD x86 recording checks for IBS PMUs before printing the header and,
 * finding no PMU mappings in the file, loads those of the machine it runs on (sysfs
 * in readdir order), which it then prints. Returns true when it printed them.
 */
static bool print_host_pmu_mappings(FILE *fp, const struct features *f)
{
	const char *arch = f->arch, *sep = "# pmu mappings: ";
	struct dirent *de;
	bool any = false;
	DIR *dir;

	if (!arch || !f->cpuid || strncmp(f->cpuid, "AuthenticAMD", 12))
		return false;
	if (strcmp(arch, "x86_64") && strcmp(arch, "x86") &&
	    !(arch[0] == 'i' && arch[1] && !strcmp(arch + 2, "86")))
		return false;
	dir = opendir("/sys/bus/event_source/devices");
	if (!dir)
		return false;
	while ((de = readdir(dir))) {
		char path[512];
		unsigned type;
		FILE *tf;
		int n;

		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "/sys/bus/event_source/devices/%s/type",
			 de->d_name);
		tf = fopen(path, "r");
		if (!tf)
			continue;
		n = fscanf(tf, "%u", &type);
		fclose(tf);
		if (n != 1)
			continue;
		fprintf(fp, "%s%s = %u", sep, de->d_name, type);
		sep = ", ";
		any = true;
	}
	closedir(dir);
	if (any)
		fputc('\n', fp);
	return any;
}

static void print_pmu_mappings(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	if (!f->nr_pmu_mappings) {
		if (!print_host_pmu_mappings(fp, hi->host))
			fprintf(fp, "# pmu mappings: not available\n");
		return;
	}
	for (uint32_t i = 0; i < f->nr_pmu_mappings; i++)
		fprintf(fp, "%s%s = %u", i ? ", " : "# pmu mappings: ",
			f->pmu_mappings[i].name, f->pmu_mappings[i].type);
	fputc('\n', fp);
}

/* perf rebuilds the group leaders on its evlist, then prints every group */
static void print_group_desc(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;
	struct feat_group_state *g;
	uint32_t n = f->nr_events, nr = 0;

	if (!f->nr_groups || !n)
		return;
	g = calloc(n, sizeof(*g));
	if (!g)
		return;
	features__group_rebuild(f, g, n);
	for (uint32_t e = 0; e < n; e++) {
		const char *name = f->events[e].name;

		if (g[e].leader == e && g[e].nr_members > 1) {
			fprintf(fp, "# group: %s{%s", g[e].name ? g[e].name : "", name);
			nr = g[e].nr_members - 1;
		} else if (nr) {
			fprintf(fp, ",%s", name);
			if (--nr == 0)
				fprintf(fp, "}\n");
		}
	}
	free(g);
}

static void print_auxtrace(FILE *fp, const struct hpctx *hi)
{
	(void)hi;
	fprintf(fp, "# contains AUX area data (e.g. instruction trace)\n");
}

static void print_stat(FILE *fp, const struct hpctx *hi)
{
	(void)hi;
	fprintf(fp, "# contains stat data\n");
}

static void print_cache(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	fprintf(fp, "# CPU cache info:\n");
	for (uint32_t i = 0; i < f->nr_caches; i++) {
		const struct feat_cache *c = &f->caches[i];

		fprintf(fp, "#  L%d %-15s %8s [%s]\n", (int)c->level, c->type, c->size,
			c->map);
	}
}

static void print_sample_time(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;
	uint64_t first = f->first_sample_ns, last = f->last_sample_ns;

	fprintf(fp, "# time of first sample : %" PRIu64 ".%06" PRIu64 "\n",
		first / 1000000000, first % 1000000000 / 1000);
	fprintf(fp, "# time of last sample : %" PRIu64 ".%06" PRIu64 "\n",
		last / 1000000000, last % 1000000000 / 1000);
	fprintf(fp, "# sample duration : %10.3f ms\n", (double)(last - first) / 1000000);
}

/* perf's unit_number__scnprintf(): divide by 1024 while the result stays above 1. */
static void unit_number(char *buf, size_t size, uint64_t n)
{
	static const char unit[] = "BKMG";
	int i = 0;

	while (n / 1024 > 1 && i < 3) {
		n /= 1024;
		i++;
	}
	snprintf(buf, size, "%" PRIu64 "%c", n, unit[i]);
}

static bool hp_bit(const uint64_t *w, uint64_t i)
{
	return w[i / 64] >> (i % 64) & 1;
}

static void print_mem_node(FILE *fp, const struct feat_mem_node *n, uint64_t bsize)
{
	char map[100], size[50];
	uint64_t weight = 0, i = 0;
	size_t len = 0;
	bool first = true;

	for (uint64_t k = 0; k < n->nbits; k++)
		weight += hp_bit(n->bits, k);
	unit_number(size, sizeof(size), bsize * weight);
	/* bitmap_scnprintf(): ranges of set bits, cut to the 100-byte buffer */
	map[0] = '\0';
	while (i < n->nbits) {
		uint64_t lo;

		if (!hp_bit(n->bits, i)) {
			i++;
			continue;
		}
		lo = i;
		while (i + 1 < n->nbits && hp_bit(n->bits, i + 1))
			i++;
		hp_bprintf(map, sizeof(map), &len, "%s%d", first ? "" : ",", (int)lo);
		if (lo < i)
			hp_bprintf(map, sizeof(map), &len, "-%d", (int)i);
		first = false;
		i++;
	}
	fprintf(fp, "#  %3" PRIu64 " [%s]: %s\n", n->node, size, map);
}

static void print_mem_topology(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	fprintf(fp, "# memory nodes (nr %d, block size 0x%llx):\n", (int)f->nr_mem_nodes,
		(unsigned long long)f->mem_block_size);
	for (uint64_t i = 0; i < f->nr_mem_nodes; i++)
		print_mem_node(fp, &f->mem_nodes[i], f->mem_block_size);
}

static void print_clockid(FILE *fp, const struct hpctx *hi)
{
	/* perf prints the resolution in ns times 1000 and calls it MHz */
	fprintf(fp, "# clockid frequency: %" PRIu64 " MHz\n",
		hi->feat->clockid_res_ns * 1000);
}

static void print_dir_format(FILE *fp, const struct hpctx *hi)
{
	/* perf reads the version only when the input is a directory */
	fprintf(fp, "# directory data version : %" PRIu64 "\n",
		hi->is_dir ? hi->feat->dir_version : 0);
}

/* ---- BPF_PROG_INFO / BPF_BTF ------------------------------------------------------ */

/* struct bpf_prog_info offsets (UAPI of Linux 6.1) and perf's PERF_BPIL_* array bits */
enum {
	BPI_ID = 4, BPI_NAME = 64, BPI_NR_JITED_KSYMS = 104, BPI_NR_JITED_FUNC_LENS = 108,
	BPI_JITED_KSYMS = 112, BPI_JITED_FUNC_LENS = 120, BPI_BTF_ID = 128,
	BPI_FUNC_INFO_REC_SIZE = 132, BPI_FUNC_INFO = 136, BPI_NR_FUNC_INFO = 144,
	BPI_NR_PROG_TAGS = 180, BPI_PROG_TAGS = 184,
	BPIL_JITED_KSYMS = 3, BPIL_JITED_FUNC_LENS = 4, BPIL_FUNC_INFO = 5,
	BPIL_PROG_TAGS = 8,
};

/* Bytes at info field `field` (an offset into data) if array `bit` is present and
 * n elements of elem bytes fit; else NULL. */
static const unsigned char *bpf_array(const struct feat_bpf_prog *b, int bit, int field,
				       uint64_t n, size_t elem)
{
	uint64_t off = bytes__u64(b->info + field);

	if (!(b->arrays >> bit & 1) || off > b->data_len ||
	    n > (b->data_len - off) / elem)
		return NULL;
	return b->data + off;
}

/* A BTF blob as libbpf's btf__new() accepts it (native byte order only). */
struct btf_view {
	const unsigned char *types;	/* type section */
	uint32_t types_len;
	const char *strs;		/* string section, NUL-terminated at the end */
	uint32_t strs_len;
};

static uint32_t btf_type_size(const unsigned char *t, uint32_t left, bool *ok)
{
	uint32_t info, vlen, extra;

	*ok = left >= 12;
	if (!*ok)
		return 0;
	info = bytes__u32(t + 4);
	vlen = info & 0xffff;
	switch ((info >> 24) & 0x1f) {
	case 1: case 14: case 17: extra = 4; break;		/* INT, VAR, DECL_TAG */
	case 3: extra = 12; break;				/* ARRAY */
	case 4: case 5: case 15: case 19: extra = vlen * 12; break; /* STRUCT, UNION,
								 * DATASEC, ENUM64 */
	case 6: case 13: extra = vlen * 8; break;		/* ENUM, FUNC_PROTO */
	case 2: case 7: case 8: case 9: case 10: case 11: case 12: case 16: case 18:
		extra = 0;
		break;
	default:
		*ok = false;
		return 0;
	}
	*ok = extra <= left - 12;
	return 12 + extra;
}

static bool btf_open(struct btf_view *v, const struct feat_btf *b)
{
	const unsigned char *p = b->data;
	uint32_t hdr_len, type_off, type_len, str_off, str_len, pos = 0;
	uint64_t meta;

	if (b->size < 24 || bytes__u16(p) != 0xeb9f || p[2] != 1)
		return false;
	hdr_len = bytes__u32(p + 4);
	type_off = bytes__u32(p + 8);
	type_len = bytes__u32(p + 12);
	str_off = bytes__u32(p + 16);
	str_len = bytes__u32(p + 20);
	if (hdr_len < 24 || hdr_len > b->size)
		return false;
	meta = b->size - hdr_len;
	if ((uint64_t)str_off + str_len > meta || (uint64_t)type_off + type_len > str_off ||
	    type_off % 4 || !str_len)
		return false;
	v->types = p + hdr_len + type_off;
	v->types_len = type_len;
	v->strs = (const char *)p + hdr_len + str_off;
	v->strs_len = str_len;
	if (v->strs[0] || v->strs[str_len - 1])
		return false;
	while (pos < type_len) {
		bool ok;
		uint32_t sz = btf_type_size(v->types + pos, type_len - pos, &ok);

		if (!ok)
			return false;
		pos += sz;
	}
	return true;
}

/* Name of type id (1-based), or NULL. */
static const char *btf_type_name(const struct btf_view *v, uint32_t id)
{
	uint32_t pos = 0, name_off;
	bool ok;

	if (id == 0)
		return v->strs;		/* void: name offset 0 */
	while (--id && pos < v->types_len)
		pos += btf_type_size(v->types + pos, v->types_len - pos, &ok);
	if (pos >= v->types_len)
		return NULL;
	name_off = bytes__u32(v->types + pos);
	return name_off < v->strs_len ? v->strs + name_off : NULL;
}

static const struct feat_btf *btf_find(const struct features *f, uint32_t id)
{
	for (uint32_t i = 0; i < f->nr_btfs; i++)
		if (f->btfs[i].id == id)
			return &f->btfs[i];
	return NULL;
}

/* perf's synthesize_bpf_prog_name(): bpf_prog_<tag>[_<name>] */
static void bpf_prog_name(char *buf, size_t size, const struct feat_bpf_prog *b,
			   const unsigned char *tags, const struct btf_view *btf,
			   uint32_t sub, uint32_t nr_sub)
{
	const char *short_name = NULL;
	char name[17];
	size_t len = 0;

	hp_bprintf(buf, size, &len, "bpf_prog_");
	for (int i = 0; i < 8; i++)
		hp_bprintf(buf, size, &len, "%02x", tags[sub * 8 + i]);
	if (btf) {
		uint32_t rec = bytes__u32(b->info + BPI_FUNC_INFO_REC_SIZE);
		const unsigned char *fi = rec >= 8 ?
			bpf_array(b, BPIL_FUNC_INFO, BPI_FUNC_INFO, sub + 1, rec) : NULL;

		if (fi)
			short_name = btf_type_name(btf, bytes__u32(fi + sub * rec + 4));
	} else if (sub == 0 && nr_sub == 1) {
		memcpy(name, b->info + BPI_NAME, 16);
		name[16] = '\0';
		if (name[0])
			short_name = name;
	} else {
		short_name = "F";
	}
	if (short_name)
		hp_bprintf(buf, size, &len, "_%s", short_name);
}

static void print_bpf_prog(FILE *fp, const struct features *f, const struct feat_bpf_prog *b)
{
	uint32_t id = bytes__u32(b->info + BPI_ID), btf_id = bytes__u32(b->info + BPI_BTF_ID);
	uint32_t nr = bytes__u32(b->info + BPI_NR_JITED_KSYMS);
	const unsigned char *addrs, *lens, *tags;
	const struct feat_btf *node;
	struct btf_view view, *btf = NULL;
	char name[512];

	if (nr != bytes__u32(b->info + BPI_NR_PROG_TAGS) ||
	    nr != bytes__u32(b->info + BPI_NR_JITED_FUNC_LENS))
		return;
	addrs = bpf_array(b, BPIL_JITED_KSYMS, BPI_JITED_KSYMS, nr, 8);
	lens = bpf_array(b, BPIL_JITED_FUNC_LENS, BPI_JITED_FUNC_LENS, nr, 4);
	tags = bpf_array(b, BPIL_PROG_TAGS, BPI_PROG_TAGS, nr, 8);
	if (nr && (!addrs || !lens || !tags))
		return;		/* perf would read garbage; print nothing */
	node = btf_id ? btf_find(f, btf_id) : NULL;
	if (node && btf_open(&view, node))
		btf = &view;
	if (nr == 1) {
		bpf_prog_name(name, sizeof(name), b, tags, btf, 0, nr);
		fprintf(fp, "# bpf_prog_info %u: %s addr 0x%llx size %u\n", id, name,
			(unsigned long long)bytes__u64(addrs), bytes__u32(lens));
		return;
	}
	fprintf(fp, "# bpf_prog_info %u:\n", id);
	for (uint32_t i = 0; i < nr; i++) {
		bpf_prog_name(name, sizeof(name), b, tags, btf, i, nr);
		fprintf(fp, "# \tsub_prog %u: %s addr 0x%llx size %u\n", i, name,
			(unsigned long long)bytes__u64(addrs + 8 * i),
			bytes__u32(lens + 4 * i));
	}
}

static void print_bpf_prog_info(FILE *fp, const struct hpctx *hi)
{
	for (uint32_t i = 0; i < hi->feat->nr_bpf_progs; i++)
		print_bpf_prog(fp, hi->feat, &hi->feat->bpf_progs[i]);
}

static void print_bpf_btf(FILE *fp, const struct hpctx *hi)
{
	for (uint32_t i = 0; i < hi->feat->nr_btfs; i++)
		fprintf(fp, "# btf info of id %u\n", hi->feat->btfs[i].id);
}

/* ---- the rest ------------------------------------------------------------------- */

static void print_compressed(FILE *fp, const struct hpctx *hi)
{
	const struct feat_compressed *c = &hi->feat->comp;

	fprintf(fp, "# compressed : %s, level = %d, ratio = %d\n",
		c->type == FEAT_COMP_ZSTD ? "Zstd" : "Unknown", (int)c->level, (int)c->ratio);
}

static void print_pmu_caps_one(FILE *fp, const struct feat_pmu_caps *pc, const char *pmu)
{
	if (!pc->nr_caps) {
		fprintf(fp, "# %s pmu capabilities: not available\n", pmu);
		return;
	}
	fprintf(fp, "# %s pmu capabilities: ", pmu);
	for (uint32_t i = 0; i < pc->nr_caps; i++)
		fprintf(fp, "%s%s", i ? ", " : "", pc->caps[i]);
	fputc('\n', fp);
}

static void print_cpu_pmu_caps(FILE *fp, const struct hpctx *hi)
{
	print_pmu_caps_one(fp, &hi->feat->cpu_pmu_caps, "cpu");
}

static void print_pmu_caps(FILE *fp, const struct hpctx *hi)
{
	for (uint32_t i = 0; i < hi->feat->nr_pmu_caps; i++)
		print_pmu_caps_one(fp, &hi->feat->pmu_caps[i],
				    hp_str(hi->feat->pmu_caps[i].pmu_name));
}

/* perf's clockid_name() (util/clockid.c): the first name of each clock. */
static const char *hp_clockid_name(uint32_t clockid)
{
	switch ((int32_t)clockid) {
	case 1: return "monotonic";
	case 4: return "monotonic_raw";
	case 0: return "realtime";
	case 7: return "boottime";
	case 11: return "tai";
	default: return "(not found)";
	}
}

static void print_clock_data(FILE *fp, const struct hpctx *hi)
{
	const struct feat_clock_data *c = &hi->feat->clock;
	time_t tod_sec;
	long tod_usec, clk_sec, clk_nsec;
	char date[64], tstr[64];
	size_t len = 0;
	struct tm tm;

	if (!c->enabled) {
		fprintf(fp, "# reference time disabled\n");
		return;
	}
	tod_sec = (time_t)(c->tod_ns / 1000000000);
	tod_usec = (long)(c->tod_ns % 1000000000 / 1000);
	clk_sec = (long)(c->clockid_ns / 1000000000);
	clk_nsec = (long)(c->clockid_ns % 1000000000);
	tstr[0] = '\0';
	if (!localtime_r(&tod_sec, &tm)) {
		hp_bprintf(tstr, sizeof(tstr), &len, "<error>");
	} else {
		if (!strftime(date, sizeof(date), "%F %T", &tm))
			date[0] = '\0';
		hp_bprintf(tstr, sizeof(tstr), &len, "%s.%06d", date, (int)tod_usec);
	}
	fprintf(fp, "# clockid: %s (%u)\n", hp_clockid_name(c->clockid), c->clockid);
	fprintf(fp, "# reference time: %s = %ld.%06d (TOD) = %ld.%09ld (%s)\n", tstr,
		(long)tod_sec, (int)tod_usec, clk_sec, clk_nsec, hp_clockid_name(c->clockid));
}

static void print_hybrid_topology(FILE *fp, const struct hpctx *hi)
{
	const struct features *f = hi->feat;

	fprintf(fp, "# hybrid cpu system:\n");
	for (uint32_t i = 0; i < f->nr_hybrid_nodes; i++)
		fprintf(fp, "# %s cpu list : %s\n", f->hybrid_nodes[i].pmu_name,
			f->hybrid_nodes[i].cpus);
}

/* ---- the feature table ------------------------------------------------------------ */

typedef void (*feat_print_fn)(FILE *fp, const struct hpctx *hi);

static const struct {
	feat_print_fn print;	/* NULL: perf 6.1 prints nothing */
	bool full_only;		/* printed only with -I */
} feat_printers[] = {
	[FEAT_HOSTNAME] = { print_hostname, false },
	[FEAT_OSRELEASE] = { print_osrelease, false },
	[FEAT_VERSION] = { print_version, false },
	[FEAT_ARCH] = { print_arch, false },
	[FEAT_NRCPUS] = { print_nrcpus, false },
	[FEAT_CPUDESC] = { print_cpudesc, false },
	[FEAT_CPUID] = { print_cpuid, false },
	[FEAT_TOTAL_MEM] = { print_total_mem, false },
	[FEAT_CMDLINE] = { print_cmdline, false },
	[FEAT_EVENT_DESC] = { print_event_desc, false },
	[FEAT_CPU_TOPOLOGY] = { print_cpu_topology, true },
	[FEAT_NUMA_TOPOLOGY] = { print_numa_topology, true },
	[FEAT_BRANCH_STACK] = { print_branch_stack, false },
	[FEAT_PMU_MAPPINGS] = { print_pmu_mappings, false },
	[FEAT_GROUP_DESC] = { print_group_desc, false },
	[FEAT_AUXTRACE] = { print_auxtrace, false },
	[FEAT_STAT] = { print_stat, false },
	[FEAT_CACHE] = { print_cache, true },
	[FEAT_SAMPLE_TIME] = { print_sample_time, false },
	[FEAT_MEM_TOPOLOGY] = { print_mem_topology, true },
	[FEAT_CLOCKID] = { print_clockid, false },
	[FEAT_DIR_FORMAT] = { print_dir_format, false },
	[FEAT_BPF_PROG_INFO] = { print_bpf_prog_info, false },
	[FEAT_BPF_BTF] = { print_bpf_btf, false },
	[FEAT_COMPRESSED] = { print_compressed, false },
	[FEAT_CPU_PMU_CAPS] = { print_cpu_pmu_caps, false },
	[FEAT_CLOCK_DATA] = { print_clock_data, false },
	[FEAT_HYBRID_TOPOLOGY] = { print_hybrid_topology, true },
	[FEAT_PMU_CAPS] = { print_pmu_caps, false },
};

#define NR_PRINTERS (sizeof(feat_printers) / sizeof(feat_printers[0]))

static void print_feature(FILE *fp, const struct hpctx *c, unsigned feat)
{
	if (feat == 0 || feat >= FEAT_LAST_PERF61 || feat >= NR_PRINTERS ||
	    !feat_printers[feat].print)
		return;
	if (!feat_printers[feat].full_only || c->full)
		feat_printers[feat].print(fp, c);
	else
		fprintf(fp, "# %s info available, use -I to display\n", feat__name(feat));
}

/* 0, or fp's write error: the errno its failed write left (each write after the
 * first failure fails again and sets it anew), -EIO without one. */
static int stream_error(FILE *fp)
{
	if (!ferror(fp))
		return 0;
	return errno ? -errno : -EIO;
}

int header_print__feature(FILE *fp, const struct header_print_info *hi, unsigned feat)
{
	struct hpctx c = { hi->feat, hi->feat, hi->is_dir, hi->full };

	/* a pipe feature whose reader fails is not printed */
	if (!features__perf_failed(hi->feat, feat))
		print_feature(fp, &c, feat);
	return stream_error(fp);
}

/*
 * One feature of a regular file. perf stops reading features at the first one whose
 * reader fails but still prints every feature of the bitmap: later ones print from
 * its empty state (EVENT_DESC excepted: perf re-reads it from the file to print it).
 */
static void print_file_feature(FILE *fp, const struct header_print_info *hi,
				unsigned feat)
{
	static const struct features empty;
	struct hpctx c = { hi->feat, hi->feat, hi->is_dir, hi->full };

	if (feat != FEAT_EVENT_DESC && !features__perf_processed(hi->feat, feat, hi->is_dir))
		c.feat = &empty;
	print_feature(fp, &c, feat);
}

static bool bitmap_has(const uint64_t *bm, unsigned bit)
{
	return bm[bit / 64] >> (bit % 64) & 1;
}

/* ctime()'s text (asctime format, C locale names): "Sun Nov 22 09:02:04 2026\n" */
static void print_captured_on(FILE *fp, time_t t)
{
	static const char days[7][4] = { "Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat" };
	static const char months[12][4] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
					    "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
	struct tm tm;

	tzset();
	if (!localtime_r(&t, &tm) || tm.tm_wday < 0 || tm.tm_wday > 6 || tm.tm_mon < 0 ||
	    tm.tm_mon > 11) {
		fprintf(fp, "# captured on    : (null)");	/* glibc's text for NULL */
		return;
	}
	fprintf(fp, "# captured on    : %.3s %.3s%3d %.2d:%.2d:%.2d %d\n", days[tm.tm_wday],
		months[tm.tm_mon], tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
		tm.tm_year + 1900);
}

int header_print__header(FILE *fp, const struct header_print_info *hi)
{
	fprintf(fp, "# ========\n");
	print_captured_on(fp, hi->mtime);
	fprintf(fp, "# header version : 1\n");
	fprintf(fp, "# data offset    : %" PRIu64 "\n", hi->is_pipe ? 0 : hi->data_offset);
	fprintf(fp, "# data size      : %" PRIu64 "\n", hi->is_pipe ? 0 : hi->data_size);
	fprintf(fp, "# feat offset    : %" PRIu64 "\n", hi->is_pipe ? 0 : hi->feat_offset);
	if (!hi->is_pipe) {
		for (unsigned feat = 1; feat < FEAT_LAST_PERF61; feat++)
			if (bitmap_has(hi->bitmap, feat))
				print_file_feature(fp, hi, feat);
		fprintf(fp, "# missing features: ");
		for (unsigned feat = 1; feat < FEAT_LAST_PERF61; feat++)
			if (!bitmap_has(hi->bitmap, feat))
				fprintf(fp, "%s ", feat__name(feat));
		fputc('\n', fp);
	}
	fprintf(fp, "# ========\n#\n");
	return stream_error(fp);
}
