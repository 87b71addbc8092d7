/*
 * Unit tests of format/feature (every feature parser, native and cross-endian,
 * truncated and absurd bodies) and report/header-print (perf 6.1's --header-only
 * output). The expected texts below were printed by perf 6.1.187 on files carrying
 * these exact feature bodies; tests/golden/header/ holds its output for samples/.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "format/attr.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/header.h"
#include "report/header-print.h"
#include "testlib.h"
#include "banned.h"

#define BASE 1000	/* file offset given for every test body */

/* ---- body builder: values written in the chosen byte order ---------------------- */

struct fb {
	struct testlib_buf b;
	bool swap;
};

static void fb_u16(struct fb *f, uint16_t v)
{
	v = f->swap ? __builtin_bswap16(v) : v;
	testlib_buf_add(&f->b, &v, 2);
}

static void fb_u32(struct fb *f, uint32_t v)
{
	v = f->swap ? __builtin_bswap32(v) : v;
	testlib_buf_add(&f->b, &v, 4);
}

static void fb_u64(struct fb *f, uint64_t v)
{
	v = f->swap ? __builtin_bswap64(v) : v;
	testlib_buf_add(&f->b, &v, 8);
}

static void fb_zero(struct fb *f, size_t n)
{
	static const unsigned char z[256];

	while (n) {
		size_t k = n < sizeof(z) ? n : sizeof(z);

		testlib_buf_add(&f->b, z, k);
		n -= k;
	}
}

/* perf's string: u32 len = pad64(strlen + 1), NUL-padded bytes */
static void fb_str(struct fb *f, const char *s)
{
	size_t n = strlen(s) + 1, len = (n + 63) / 64 * 64;

	fb_u32(f, (uint32_t)len);
	testlib_buf_add(&f->b, s, n - 1);
	fb_zero(f, len - n + 1);
}

static void fb_strlist(struct fb *f, uint32_t n, const char *const *v)
{
	fb_u32(f, n);
	for (uint32_t i = 0; i < n; i++)
		fb_str(f, v[i]);
}

static int fb_parse(struct features *ft, unsigned id, const struct fb *f, struct diag *d)
{
	return features__parse(ft, id, f->b.p, f->b.len, f->swap, BASE, "t.data", d);
}

/* A host-order attr as the other byte order stores it (docs/perf-data-format.md §12): every field
 * swapped, the flag word's bits reversed inside each byte. */
static void attr_to_other_endian(unsigned char *a, size_t size)
{
	static const struct { unsigned char off, width; } fields[] = {
		{ 0, 4 }, { 4, 4 }, { 8, 8 }, { 16, 8 }, { 24, 8 }, { 32, 8 }, { 48, 4 },
		{ 52, 4 }, { 56, 8 }, { 64, 8 }, { 72, 8 }, { 80, 8 }, { 88, 4 }, { 92, 4 },
		{ 96, 8 }, { 104, 4 }, { 108, 2 }, { 112, 4 }, { 120, 8 }, { 128, 8 },
	};

	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		unsigned char *p = a + fields[i].off;

		if (fields[i].off >= size)
			break;
		if (fields[i].width == 8)
			bytes__put_u64(p, __builtin_bswap64(bytes__u64(p)));
		else if (fields[i].width == 4)
			bytes__put_u32(p, __builtin_bswap32(bytes__u32(p)));
		else
			bytes__put_u16(p, __builtin_bswap16(bytes__u16(p)));
	}
	for (int i = 40; i < 48; i++) {
		unsigned v = a[i], r = 0;

		for (int k = 0; k < 8; k++)
			r |= ((v >> k) & 1u) << (7 - k);
		a[i] = (unsigned char)r;
	}
}

static void fb_attr(struct fb *f, const struct event_attr *a, size_t size)
{
	unsigned char buf[ATTR_SIZE_VER8];

	ck_assert_int_eq(attr__encode(a, buf, size), 0);
	if (f->swap)
		attr_to_other_endian(buf, size);
	testlib_buf_add(&f->b, buf, size);
}

/* An attr with every field set (the "everything" event printed by perf below). */
static struct event_attr attr_everything(void)
{
	struct event_attr a = {
		.type = 0, .size = 128, .config = 0xdead, .sample_period = 7,
		.sample_type = (1ULL << 25) - 1, .read_format = 0x1f,
		.flags = (1ULL << 38) - 1, .wakeup_events = 3, .bp_type = 4,
		.config1 = 0x1234, .config2 = 0x5678, .branch_sample_type = (1ULL << 19) - 1,
		.sample_regs_user = 0xff, .sample_stack_user = 8192, .clockid = -1,
		.sample_regs_intr = 0xf0, .aux_watermark = 9, .sample_max_stack = 127,
		.aux_sample_size = 4096, .sig_data = 77,
	};
	return a;
}

static void fb_event(struct fb *f, const struct event_attr *a, const char *name,
		     uint32_t nr_ids, const uint64_t *ids)
{
	fb_attr(f, a, 128);
	fb_u32(f, nr_ids);
	fb_str(f, name);
	for (uint32_t i = 0; i < nr_ids; i++)
		fb_u64(f, ids[i]);
}

/* ---- printing helpers ------------------------------------------------------------- */

struct mem_out {
	char *buf;
	size_t len;
	FILE *fp;
};

static void out_open(struct mem_out *m)
{
	m->buf = NULL;
	m->len = 0;
	m->fp = open_memstream(&m->buf, &m->len);
	ck_assert_ptr_nonnull(m->fp);
}

static char *out_close(struct mem_out *m)
{
	ck_assert_int_eq(fclose(m->fp), 0);
	return m->buf;
}

static void check_print(const struct features *ft, unsigned feat, bool full,
			const char *expected)
{
	struct header_print_info hi = { .feat = ft, .full = full };
	struct mem_out m;
	char *s;

	out_open(&m);
	ck_assert_int_eq(header_print__feature(m.fp, &hi, feat), 0);
	s = out_close(&m);
	ck_assert_str_eq(s, expected);
	free(s);
}

/* The lines a regular file with only feature feat prints for it (perf prints a feature
 * whose reader failed from what it had read; header_print__feature() is pipe mode). */
static void check_print_file(const struct features *ft, unsigned feat, bool full,
			     const char *expected)
{
	struct header_print_info hi = { .feat = ft, .full = full };
	struct mem_out m;
	char *s, *b, *e;

	hi.bitmap[feat / 64] = 1ULL << (feat % 64);
	out_open(&m);
	ck_assert_int_eq(header_print__header(m.fp, &hi), 0);
	s = out_close(&m);
	b = strstr(s, "# feat offset    : 0\n");
	e = strstr(s, "# missing features: ");
	ck_assert(b && e && b < e);
	b += strlen("# feat offset    : 0\n");
	*e = '\0';
	ck_assert_str_eq(b, expected);
	free(s);
}

/* A header printed to an output that fills up (fmemopen() of 64 bytes, unbuffered:
 * its writes past the end fail with ENOSPC): the write's errno, not -EIO. */
START_TEST(test_header_print_write_error)
{
	struct header_print_info hi = { 0 };
	struct features ft = { 0 };
	static char buf[64];
	FILE *fp = fmemopen(buf, sizeof(buf), "w");

	hi.feat = &ft;
	ck_assert_ptr_nonnull(fp);
	setvbuf(fp, NULL, _IONBF, 0);
	ck_assert_int_eq(header_print__header(fp, &hi), -ENOSPC);
	fclose(fp);
}
END_TEST

/* ---- strings, numbers ----------------------------------------------------------- */

START_TEST(test_feature_strings)
{
	static const unsigned ids[] = { FEAT_HOSTNAME, FEAT_OSRELEASE, FEAT_VERSION,
					FEAT_ARCH, FEAT_CPUDESC, FEAT_CPUID };

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;

		features__init(&ft);
		for (size_t i = 0; i < sizeof(ids) / sizeof(ids[0]); i++) {
			struct fb f = { .swap = sw };
			char v[32];

			snprintf(v, sizeof(v), "value-%u", ids[i]);
			fb_str(&f, v);
			ck_assert_int_eq(fb_parse(&ft, ids[i], &f, &d), 0);
			ck_assert(features__has(&ft, ids[i]));
			testlib_buf_free(&f.b);
		}
		ck_assert_str_eq(ft.hostname, "value-3");
		ck_assert_str_eq(ft.osrelease, "value-4");
		ck_assert_str_eq(ft.version, "value-5");
		ck_assert_str_eq(ft.arch, "value-6");
		ck_assert_str_eq(ft.cpudesc, "value-8");
		ck_assert_str_eq(ft.cpuid, "value-9");
		ck_assert(!features__has(&ft, FEAT_NRCPUS));
		check_print(&ft, FEAT_HOSTNAME, false, "# hostname : value-3\n");
		check_print(&ft, FEAT_OSRELEASE, false, "# os release : value-4\n");
		check_print(&ft, FEAT_VERSION, false, "# perf version : value-5\n");
		check_print(&ft, FEAT_ARCH, false, "# arch : value-6\n");
		check_print(&ft, FEAT_CPUDESC, false, "# cpudesc : value-8\n");
		check_print(&ft, FEAT_CPUID, false, "# cpuid : value-9\n");
		features__exit(&ft);
		features__exit(&ft);	/* harmless twice */
	}
}
END_TEST

START_TEST(test_feature_string_edges)
{
	struct features ft;
	struct diag d;
	struct fb f = { 0 };

	features__init(&ft);
	/* no NUL inside len: the stored bytes are the string */
	fb_u32(&f, 3);
	testlib_buf_add(&f.b, "abc", 3);
	ck_assert_int_eq(fb_parse(&ft, FEAT_HOSTNAME, &f, &d), 0);
	ck_assert_str_eq(ft.hostname, "abc");
	testlib_buf_free(&f.b);
	/* length past the section: read as perf reads it (NULL, the reader fails), with
	 * one warning naming the length's offset */
	fb_u32(&f, 0xffffffffu);
	testlib_buf_add(&f.b, "abc", 3);
	ck_assert_int_eq(fb_parse(&ft, FEAT_OSRELEASE, &f, &d), 0);
	ck_assert(features__has(&ft, FEAT_OSRELEASE));
	ck_assert(features__perf_failed(&ft, FEAT_OSRELEASE));
	ck_assert_ptr_null(ft.osrelease);
	ck_assert_str_eq(ft.warning, "t.data: offset 0x3e8: feature OSRELEASE: string length "
			 "4294967295 larger than section; read as perf reads it, as \"(null)\"");
	/* empty body: the first warning stays the only one */
	ck_assert_int_eq(features__parse(&ft, FEAT_ARCH, NULL, 0, false, 77, "t", &d), 0);
	ck_assert(features__perf_failed(&ft, FEAT_ARCH));
	ck_assert_ptr_null(ft.arch);
	ck_assert(strstr(ft.warning, "OSRELEASE"));
	testlib_buf_free(&f.b);
	features__exit(&ft);
	ck_assert_ptr_null(ft.warning);
}
END_TEST

/* A CPUDESC cut to nothing (0 bytes where its length should be, as in an armv7
 * recording perf 6.1 reads): no error; perf's --header-only text, "(null)" and the
 * later features printed empty. */
START_TEST(test_feature_string_cut)
{
	struct features ft;
	struct diag d;
	struct fb f = { 0 };
	struct header_print_info hi = { .feat = &ft };
	struct mem_out m;
	char *s;

	features__init(&ft);
	fb_str(&f, "x86_64");
	ck_assert_int_eq(fb_parse(&ft, FEAT_ARCH, &f, &d), 0);
	testlib_buf_free(&f.b);
	ck_assert_int_eq(features__parse(&ft, FEAT_CPUDESC, "", 0, false, 0x5e2d4, "in", &d), 0);
	fb_u64(&f, 2067704);
	ck_assert_int_eq(fb_parse(&ft, FEAT_TOTAL_MEM, &f, &d), 0);
	ck_assert_str_eq(ft.warning, "in: offset 0x5e2d4: feature CPUDESC: string truncated "
			 "(0 bytes left); read as perf reads it, as \"(null)\"");
	ck_assert(features__perf_failed(&ft, FEAT_CPUDESC));
	ck_assert(!features__perf_failed(&ft, FEAT_ARCH));
	ck_assert(features__perf_processed(&ft, FEAT_CPUDESC, false));
	ck_assert(!features__perf_processed(&ft, FEAT_TOTAL_MEM, false));
	hi.bitmap[0] = ft.present[0];
	out_open(&m);
	ck_assert_int_eq(header_print__header(m.fp, &hi), 0);
	s = out_close(&m);
	ck_assert_msg(strstr(s, "# arch : x86_64\n# cpudesc : (null)\n# total memory : 0 kB\n"),
		      "%s", s);
	free(s);
	testlib_buf_free(&f.b);
	features__exit(&ft);
}
END_TEST

START_TEST(test_feature_numbers_and_cmdline)
{
	static const char *const argv[] = { "/usr/bin/perf", "record", "-e", "it's", "''" };

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		features__init(&ft);
		fb_u32(&f, 4);		/* avail first */
		fb_u32(&f, 2);
		ck_assert_int_eq(fb_parse(&ft, FEAT_NRCPUS, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_cpus_avail, 4);
		ck_assert_uint_eq(ft.nr_cpus_online, 2);
		check_print(&ft, FEAT_NRCPUS, false, "# nrcpus online : 2\n# nrcpus avail : 4\n");
		testlib_buf_free(&f.b);
		fb_u64(&f, 24684100);
		ck_assert_int_eq(fb_parse(&ft, FEAT_TOTAL_MEM, &f, &d), 0);
		check_print(&ft, FEAT_TOTAL_MEM, false, "# total memory : 24684100 kB\n");
		testlib_buf_free(&f.b);
		fb_strlist(&f, 5, argv);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CMDLINE, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_cmdline, 5);
		ck_assert_str_eq(ft.cmdline[3], "it's");
		check_print(&ft, FEAT_CMDLINE, false,
			    "# cmdline : /usr/bin/perf record -e it\\'s \\'\\' \n");
		testlib_buf_free(&f.b);
		/* absurd count */
		fb_u32(&f, 0x40000000);
		fb_str(&f, "x");
		ck_assert_int_eq(fb_parse(&ft, FEAT_CMDLINE, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_str_eq(d.msg, "feature CMDLINE: nr args 1073741824 larger than section");
		ck_assert_uint_eq(ft.nr_cmdline, 5);	/* unchanged */
		testlib_buf_free(&f.b);
		/* truncated u32 pair */
		fb_u32(&f, 4);
		ck_assert_int_eq(fb_parse(&ft, FEAT_NRCPUS, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_uint_eq(d.offset, BASE + 4);
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

/* ---- EVENT_DESC ------------------------------------------------------------------- */

static const char everything_line[] =
	"# event : name = everything, , id = { 1, 2, 3 }, size = 128, config = 0xdead, "
	"{ sample_period, sample_freq } = 7, sample_type = IP|TID|TIME|ADDR|READ|"
	"CALLCHAIN|ID|CPU|PERIOD|STREAM_ID|RAW|BRANCH_STACK|REGS_USER|STACK_USER|"
	"IDENTIFIER|REGS_INTR|DATA_SRC|WEIGHT|PHYS_ADDR|AUX|CGROUP|DATA_PAGE_SIZE|"
	"CODE_PAGE_SIZE|WEIGHT_STRUCT, read_format = TOTAL_TIME_ENABLED|"
	"TOTAL_TIME_RUNNING|ID|GROUP|LOST, disabled = 1, inherit = 1, pinned = 1, "
	"exclusive = 1, exclude_user = 1, exclude_kernel = 1, exclude_hv = 1, "
	"exclude_idle = 1, mmap = 1, comm = 1, freq = 1, inherit_stat = 1, "
	"enable_on_exec = 1, task = 1, watermark = 1, precise_ip = 3, mmap_data = 1, "
	"sample_id_all = 1, exclude_host = 1, exclude_guest = 1, "
	"exclude_callchain_kernel = 1, exclude_callchain_user = 1, mmap2 = 1, "
	"comm_exec = 1, use_clockid = 1, context_switch = 1, write_backward = 1, "
	"namespaces = 1, ksymbol = 1, bpf_event = 1, aux_output = 1, cgroup = 1, "
	"text_poke = 1, build_id = 1, inherit_thread = 1, remove_on_exec = 1, "
	"sigtrap = 1, { wakeup_events, wakeup_watermark } = 3, bp_type = 4, "
	"{ bp_addr, config1 } = 0x1234, { bp_len, config2 } = 0x5678, "
	"branch_sample_type = USER|KERNEL|HV|ANY|ANY_CALL|ANY_RETURN|IND_CALL|ABORT_TX|"
	"IN_TX|NO_TX|COND|CALL_STACK|IND_JUMP|CALL|NO_FLAGS|NO_CYCLES|TYPE_SAVE|"
	"HW_INDEX|PRIV_SAVE, sample_regs_user = 0xff, sample_stack_user = 8192, "
	"clockid = -1, sample_regs_intr = 0xf0, aux_watermark = 9, "
	"sample_max_stack = 127, aux_sample_size = 4096, sig_data = 77\n";

START_TEST(test_feature_event_desc)
{
	static const uint64_t ids1[] = { 1, 2, 3 }, ids2[] = { 9 };
	struct event_attr all = attr_everything(), cpu = testlib_attr(0);

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };
		const struct feat_event *ev;

		features__init(&ft);
		fb_u32(&f, 2);
		fb_u32(&f, 128);
		fb_event(&f, &all, "everything", 3, ids1);
		fb_event(&f, &cpu, "cpu-clock", 1, ids2);
		ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_events, 2);
		ck_assert(!ft.events_rejected);
		ev = &ft.events[0];
		ck_assert_str_eq(ev->name, "everything");
		ck_assert_uint_eq(ev->nr_ids, 3);
		ck_assert_uint_eq(ev->ids[2], 3);
		ck_assert_uint_eq(ev->attr.config, 0xdead);
		ck_assert_uint_eq(ev->attr.flags, all.flags);
		ck_assert_int_eq(ev->attr.clockid, -1);
		ck_assert_uint_eq(ev->attr.sample_regs_intr, 0xf0);
		ck_assert_uint_eq(ev->attr.sig_data, 77);
		ck_assert_uint_eq(ev->attr.size, 128);
		/* perf 6.1 does not swap clockid, sample_regs_intr and sig_data */
		ck_assert_uint_eq(ev->attr_perf61.sig_data, sw ? __builtin_bswap64(77) : 77);
		ck_assert_ptr_eq(features__event_by_id(&ft, 9), &ft.events[1]);
		ck_assert_ptr_null(features__event_by_id(&ft, 4));
		ck_assert_uint_eq(ft.events[1].attr.flags, 0x61943703ULL);
		if (!sw) {
			struct mem_out m;
			struct header_print_info hi = { .feat = &ft };
			char *s, *nl;

			out_open(&m);
			header_print__feature(m.fp, &hi, FEAT_EVENT_DESC);
			s = out_close(&m);
			nl = strchr(s, '\n');
			ck_assert_ptr_nonnull(nl);
			ck_assert_int_eq(strncmp(s, everything_line, sizeof(everything_line) - 1), 0);
			ck_assert_str_eq(nl + 1,
				"# event : name = cpu-clock, , id = { 9 }, type = 1, size = 128, "
				"{ sample_period, sample_freq } = 4000, sample_type = IP|TID|TIME|"
				"PERIOD, read_format = ID|LOST, disabled = 1, inherit = 1, mmap = 1, "
				"comm = 1, freq = 1, enable_on_exec = 1, task = 1, sample_id_all = 1, "
				"exclude_guest = 1, mmap2 = 1, comm_exec = 1, ksymbol = 1, "
				"bpf_event = 1\n");
			free(s);
		}
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

/* perf reuses its formatting buffer: a mask of unknown bits prints the previous value;
 * the list ends at an attr of stored size 0; attr.size 120 still prints sig_data. */
START_TEST(test_feature_event_desc_perf_quirks)
{
	struct event_attr a = { .type = 4, .size = 128, .sample_type = 1ULL << 17 };
	struct event_attr b = { .type = 4, .size = 128, .config = 5,
				.sample_type = 1ULL << 17, .flags = 1ULL << 15 };
	struct event_attr c = { .type = 4, .size = 128, .config = 6 };
	struct event_attr m = { .type = 0, .size = 128, .config2 = 5, .sig_data = 9 };
	static const uint64_t id9 = 9;
	struct features ft;
	struct diag d;
	struct fb f = { 0 };
	unsigned char raw[128];

	features__init(&ft);
	fb_u32(&f, 5);
	fb_u32(&f, 128);
	fb_event(&f, &a, "onlytrans", 0, NULL);
	fb_event(&f, &b, "trans2", 1, &id9);
	fb_event(&f, &c, "stops", 0, NULL);
	bytes__put_u32(f.b.p + f.b.len - 68 - 4 - 128 + 4, 0);	/* its attr.size = 0 */
	fb_event(&f, &c, "after", 0, NULL);
	attr__encode(&m, raw, 128);
	bytes__put_u32(raw + 4, 120);
	testlib_buf_add(&f.b, raw, 128);
	fb_u32(&f, 0);
	fb_str(&f, "mid");
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), 0);
	ck_assert_uint_eq(ft.events[2].attr_size_raw, 0);
	ck_assert_uint_eq(ft.events[4].attr.sig_data, 0);	/* outside its own size */
	ck_assert_uint_eq(ft.events[4].attr_perf61.sig_data, 9);
	check_print(&ft, FEAT_EVENT_DESC, false,
		    "# event : name = onlytrans, , type = 4, size = 128, sample_type = 128\n"
		    "# event : name = trans2, , id = { 9 }, type = 4, size = 128, "
		    "config = 0x5, sample_type = 0x5, precise_ip = 1\n");
	testlib_buf_free(&f.b);
	/* the size-120 attr alone */
	fb_u32(&f, 1);
	fb_u32(&f, 128);
	testlib_buf_add(&f.b, raw, 128);
	fb_u32(&f, 0);
	fb_str(&f, "mid");
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), 0);
	check_print(&ft, FEAT_EVENT_DESC, false,
		    "# event : name = mid, , size = 120, { bp_len, config2 } = 0x5, "
		    "sig_data = 9\n");
	testlib_buf_free(&f.b);
	features__exit(&ft);
}
END_TEST

START_TEST(test_feature_event_desc_rejected)
{
	/* reserved flag bit, reserved u16/u32, sample_type/read_format/branch too new */
	static const struct { uint64_t st, rf, fl, bst; int r2, r3; } cases[] = {
		{ 1ULL << 25, 0, 0, 0, 0, 0 }, { 0, 1 << 5, 0, 0, 0, 0 },
		{ 0, 0, 1ULL << 38, 0, 0, 0 }, { 0, 0, 0, 0, 1, 0 }, { 0, 0, 0, 0, 0, 1 },
		{ SAMPLE_BRANCH_STACK, 0, 0, 1ULL << 19, 0, 0 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct event_attr a = { .type = 1, .size = 128, .sample_type = cases[i].st,
					.read_format = cases[i].rf, .flags = cases[i].fl,
					.branch_sample_type = cases[i].bst };
		unsigned char raw[128];
		struct features ft;
		struct diag d;
		struct fb f = { 0 };

		features__init(&ft);
		attr__encode(&a, raw, 128);
		if (cases[i].r2)
			bytes__put_u16(raw + 110, 1);
		if (cases[i].r3)
			bytes__put_u32(raw + 116, 1);
		fb_u32(&f, 1);
		fb_u32(&f, 128);
		testlib_buf_add(&f.b, raw, 128);
		fb_u32(&f, 0);
		fb_str(&f, "x");
		ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), 0);
		ck_assert_msg(ft.events_rejected, "case %zu", i);
		check_print(&ft, FEAT_EVENT_DESC, false,
			    "# event desc: not available or unable to read\n");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
	/* without BRANCH_STACK the branch bits are not checked (and print stale) */
	{
		struct event_attr a = { .type = 1, .size = 128, .branch_sample_type = 1ULL << 19 };
		struct features ft;
		struct diag d;
		struct fb f = { 0 };

		features__init(&ft);
		fb_u32(&f, 1);
		fb_u32(&f, 128);
		fb_event(&f, &a, "bst19nobs", 0, NULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), 0);
		ck_assert(!ft.events_rejected);
		check_print(&ft, FEAT_EVENT_DESC, false,
			    "# event : name = bst19nobs, , type = 1, size = 128, "
			    "branch_sample_type = 128\n");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

START_TEST(test_feature_event_desc_absurd)
{
	struct event_attr a = testlib_attr(0);
	struct features ft;
	struct diag d;
	struct fb f = { 0 };

	features__init(&ft);
	fb_u32(&f, 1);
	fb_u32(&f, 128);
	fb_attr(&f, &a, 128);
	fb_u32(&f, 0xffffffffu);		/* nr_ids at BASE + 8 + 128 */
	fb_str(&f, "cpu-clock");
	fb_u64(&f, 1);
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, BASE + 8 + 128);
	ck_assert_str_eq(d.msg, "feature EVENT_DESC: nr_ids 4294967295 larger than section");
	ck_assert(!features__has(&ft, FEAT_EVENT_DESC));
	/* nr events */
	bytes__put_u32(f.b.p, 0x7fffffff);
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, BASE);
	ck_assert_str_eq(d.msg, "feature EVENT_DESC: nr events 2147483647 larger than section");
	/* attr size */
	bytes__put_u32(f.b.p, 1);
	bytes__put_u32(f.b.p + 4, 0);
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, BASE + 4);
	bytes__put_u32(f.b.p + 4, 0xffffffffu);
	ck_assert_int_eq(fb_parse(&ft, FEAT_EVENT_DESC, &f, &d), -DIAG_BAD_FEATURE);
	testlib_buf_free(&f.b);
	features__exit(&ft);
}
END_TEST

/* ---- topology ------------------------------------------------------------------------ */

static void put_nrcpus(struct features *ft, uint32_t avail, bool swap)
{
	struct fb f = { .swap = swap };
	struct diag d;

	fb_u32(&f, avail);
	fb_u32(&f, avail);
	ck_assert_int_eq(fb_parse(ft, FEAT_NRCPUS, &f, &d), 0);
	testlib_buf_free(&f.b);
}

START_TEST(test_feature_cpu_topology)
{
	static const char *const sock[] = { "0-1" }, *const thr[] = { "0", "1" };
	static const char *const dies[] = { "0-3", "5" };

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		features__init(&ft);
		put_nrcpus(&ft, 4, sw);
		/* oldest layout: sibling lists only */
		fb_strlist(&f, 1, sock);
		fb_strlist(&f, 2, thr);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_TOPOLOGY, &f, &d), 0);
		ck_assert(!ft.cpu_topo.has_cpus);
		check_print(&ft, FEAT_CPU_TOPOLOGY, true,
			    "# sibling sockets : 0-1\n# sibling threads : 0\n"
			    "# sibling threads : 1\n"
			    "# Core ID and Socket ID information is not available\n");
		check_print(&ft, FEAT_CPU_TOPOLOGY, false,
			    "# CPU_TOPOLOGY info available, use -I to display\n");
		/* + per-cpu ids (socket -1 allowed) */
		fb_u32(&f, 0); fb_u32(&f, 0); fb_u32(&f, 1); fb_u32(&f, 0);
		fb_u32(&f, 2); fb_u32(&f, 4); fb_u32(&f, 3); fb_u32(&f, 0xffffffffu);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_TOPOLOGY, &f, &d), 0);
		ck_assert(ft.cpu_topo.has_cpus && !ft.cpu_topo.has_dies);
		check_print(&ft, FEAT_CPU_TOPOLOGY, true,
			    "# sibling sockets : 0-1\n# sibling threads : 0\n"
			    "# sibling threads : 1\n"
			    "# CPU 0: Core ID 0, Socket ID 0\n# CPU 1: Core ID 1, Socket ID 0\n"
			    "# CPU 2: Core ID 2, Socket ID 4\n# CPU 3: Core ID 3, Socket ID -1\n");
		/* + dies */
		fb_strlist(&f, 2, dies);
		fb_u32(&f, 1); fb_u32(&f, 2); fb_u32(&f, 3); fb_u32(&f, 4);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_TOPOLOGY, &f, &d), 0);
		ck_assert(ft.cpu_topo.has_dies);
		check_print(&ft, FEAT_CPU_TOPOLOGY, true,
			    "# sibling sockets : 0-1\n# sibling dies    : 0-3\n"
			    "# sibling dies    : 5\n# sibling threads : 0\n"
			    "# sibling threads : 1\n"
			    "# CPU 0: Core ID 0, Die ID 1, Socket ID 0\n"
			    "# CPU 1: Core ID 1, Die ID 2, Socket ID 0\n"
			    "# CPU 2: Core ID 2, Die ID 3, Socket ID 4\n"
			    "# CPU 3: Core ID 3, Die ID 4, Socket ID -1\n");
		/* die ids cut short */
		f.b.len -= 4;
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_TOPOLOGY, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert(strstr(d.msg, "die ids of 4 cpus larger than section"));
		ck_assert(ft.cpu_topo.has_dies);	/* previous content kept */
		testlib_buf_free(&f.b);
		/* socket id above nr_cpus_avail: perf gives up on the per-cpu part */
		fb_strlist(&f, 1, sock);
		fb_strlist(&f, 2, thr);
		fb_u32(&f, 0); fb_u32(&f, 5);
		fb_zero(&f, 24);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_TOPOLOGY, &f, &d), 0);
		ck_assert(features__perf_failed(&ft, FEAT_CPU_TOPOLOGY));
		check_print_file(&ft, FEAT_CPU_TOPOLOGY, true,
				 "# sibling sockets : 0-1\n# sibling threads : 0\n"
				 "# sibling threads : 1\n"
				 "# Core ID and Socket ID information is not available\n");
		check_print(&ft, FEAT_CPU_TOPOLOGY, true, "");	/* pipe: not printed */
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

static void fb_numa_node(struct fb *f, uint32_t node, const char *cpus)
{
	fb_u32(f, node);
	fb_u64(f, 1000);
	fb_u64(f, 500);
	fb_str(f, cpus);
}

START_TEST(test_feature_numa_topology)
{
	static const char *const lists[] = { "3,1-2", "", "010", "0-1,,5", "5,0",
					     "7-8,9,11,13-20,21", "0-4000000000" };
	static const char *const norm[] = { "1-3", "-1", "8", "0-1", "0,5",
					    "7-9,11,13-21", NULL };
	static const char *const bad[] = { "x", "0,0", "1-0", "0-2,1", "3 " };

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };
		uint32_t n = 6;

		features__init(&ft);
		fb_u32(&f, n);
		for (uint32_t i = 0; i < n; i++)
			fb_numa_node(&f, i, lists[i]);
		ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), 0);
		ck_assert(!features__perf_failed(&ft, FEAT_NUMA_TOPOLOGY));
		ck_assert_uint_eq(ft.nr_numa_nodes, n);
		for (uint32_t i = 0; i < n; i++)
			ck_assert_str_eq(ft.numa_nodes[i].cpus_norm, norm[i]);
		ck_assert_str_eq(ft.numa_nodes[0].cpus, "3,1-2");
		ck_assert_uint_eq(ft.numa_nodes[5].mem_total_kb, 1000);
		testlib_buf_free(&f.b);
		fb_u32(&f, 1);
		fb_numa_node(&f, 0, "0-1");
		ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), 0);
		check_print(&ft, FEAT_NUMA_TOPOLOGY, true,
			    "# node0 meminfo  : total = 1000 kB, free = 500 kB\n"
			    "# node0 cpu list : 0-1\n");
		testlib_buf_free(&f.b);
		for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
			fb_u32(&f, 1);
			fb_numa_node(&f, 0, bad[i]);
			ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), 0);
			ck_assert_msg(features__perf_failed(&ft, FEAT_NUMA_TOPOLOGY), "%s",
				      bad[i]);
			check_print_file(&ft, FEAT_NUMA_TOPOLOGY, true, "");
			testlib_buf_free(&f.b);
		}
		/* absurd count */
		fb_u32(&f, 0xffffffffu);
		ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_str_eq(d.msg,
				 "feature NUMA_TOPOLOGY: nr nodes 4294967295 larger than section");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
	/* a huge range costs nothing (perf would enumerate 4e9 cpus, then refuse) */
	{
		struct features ft;
		struct diag d;
		struct fb f = { 0 };

		features__init(&ft);
		fb_u32(&f, 1);
		fb_numa_node(&f, 0, lists[6]);
		ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), 0);
		ck_assert_ptr_null(ft.numa_nodes[0].cpus_norm);
		testlib_buf_free(&f.b);
		fb_u32(&f, 1);
		fb_numa_node(&f, 0, "0-2000000000");
		ck_assert_int_eq(fb_parse(&ft, FEAT_NUMA_TOPOLOGY, &f, &d), 0);
		ck_assert_str_eq(ft.numa_nodes[0].cpus_norm, "0-2000000000");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

START_TEST(test_feature_mem_topology)
{
	static const uint64_t words[] = { 0x5555555555555555ULL, 0xffff0000ffff0000ULL,
					  0x1, 0x8000000000000000ULL };

	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		features__init(&ft);
		fb_u64(&f, 1);
		fb_u64(&f, 0x8000000);
		fb_u64(&f, 3);
		fb_u64(&f, 0); fb_u64(&f, 99); fb_u64(&f, 256);
		for (int i = 0; i < 4; i++)
			fb_u64(&f, words[i]);
		fb_u64(&f, 1); fb_u64(&f, 0); fb_u64(&f, 70);
		fb_u64(&f, ~0ULL); fb_u64(&f, ~0ULL);
		fb_u64(&f, 1234); fb_u64(&f, 0); fb_u64(&f, 3); fb_u64(&f, 0xff);
		ck_assert_int_eq(fb_parse(&ft, FEAT_MEM_TOPOLOGY, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_mem_nodes, 3);
		ck_assert_uint_eq(ft.mem_nodes[0].bits[1], words[1]);
		/* perf cuts the bitmap text to 99 characters */
		check_print(&ft, FEAT_MEM_TOPOLOGY, true,
			    "# memory nodes (nr 3, block size 0x8000000):\n"
			    "#    0 [8G]: 0,2,4,6,8,10,12,14,16,18,20,22,24,26,28,30,32,34,36,38,"
			    "40,42,44,46,48,50,52,54,56,58,60,62,80-95,11\n"
			    "#    1 [8G]: 0-69\n"
			    "#  1234 [384M]: 0-2\n");
		/* a bitmap larger than the section */
		bytes__put_u64(f.b.p + 24 + 16, sw ? __builtin_bswap64(1ULL << 40) : 1ULL << 40);
		ck_assert_int_eq(fb_parse(&ft, FEAT_MEM_TOPOLOGY, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_uint_eq(d.offset, BASE + 24 + 16);
		ck_assert_uint_eq(ft.nr_mem_nodes, 3);
		testlib_buf_free(&f.b);
		/* unknown version: perf gives up and prints an empty list */
		fb_u64(&f, 2);
		fb_u64(&f, 0x8000000);
		fb_u64(&f, 0);
		ck_assert_int_eq(fb_parse(&ft, FEAT_MEM_TOPOLOGY, &f, &d), 0);
		ck_assert(features__perf_failed(&ft, FEAT_MEM_TOPOLOGY));
		check_print_file(&ft, FEAT_MEM_TOPOLOGY, true,
				 "# memory nodes (nr 0, block size 0x0):\n");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

/* ---- the other features ----------------------------------------------------------- */

START_TEST(test_feature_misc)
{
	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		features__init(&ft);
		/* flags */
		ck_assert_int_eq(features__parse(&ft, FEAT_BRANCH_STACK, NULL, 0, sw, 0, "t", &d), 0);
		ck_assert_int_eq(features__parse(&ft, FEAT_STAT, NULL, 0, sw, 0, "t", &d), 0);
		check_print(&ft, FEAT_BRANCH_STACK, false, "# contains samples with branch stack\n");
		check_print(&ft, FEAT_STAT, false, "# contains stat data\n");
		/* AUXTRACE index */
		fb_u64(&f, 1); fb_u64(&f, 100); fb_u64(&f, 200);
		ck_assert_int_eq(fb_parse(&ft, FEAT_AUXTRACE, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_auxtrace, 1);
		ck_assert_uint_eq(ft.auxtrace[0].size, 200);
		check_print(&ft, FEAT_AUXTRACE, false,
			    "# contains AUX area data (e.g. instruction trace)\n");
		bytes__put_u64(f.b.p, sw ? __builtin_bswap64(~0ULL) : ~0ULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_AUXTRACE, &f, &d), -DIAG_BAD_FEATURE);
		testlib_buf_free(&f.b);
		/* PMU mappings */
		fb_u32(&f, 2); fb_u32(&f, 1); fb_str(&f, "software"); fb_u32(&f, 8);
		fb_str(&f, "uprobe");
		ck_assert_int_eq(fb_parse(&ft, FEAT_PMU_MAPPINGS, &f, &d), 0);
		check_print(&ft, FEAT_PMU_MAPPINGS, false,
			    "# pmu mappings: software = 1, uprobe = 8\n");
		testlib_buf_free(&f.b);
		/* SAMPLE_TIME, also last < first */
		fb_u64(&f, 82910198000ULL); fb_u64(&f, 83006920000ULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_SAMPLE_TIME, &f, &d), 0);
		check_print(&ft, FEAT_SAMPLE_TIME, false,
			    "# time of first sample : 82.910198\n"
			    "# time of last sample : 83.006920\n"
			    "# sample duration :     96.722 ms\n");
		testlib_buf_free(&f.b);
		fb_u64(&f, 5000000000ULL); fb_u64(&f, 4000000000ULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_SAMPLE_TIME, &f, &d), 0);
		check_print(&ft, FEAT_SAMPLE_TIME, false,
			    "# time of first sample : 5.000000\n"
			    "# time of last sample : 4.000000\n"
			    "# sample duration : 18446744072709.551 ms\n");
		testlib_buf_free(&f.b);
		/* CLOCKID, DIR_FORMAT, COMPRESSED */
		fb_u64(&f, 3);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CLOCKID, &f, &d), 0);
		check_print(&ft, FEAT_CLOCKID, false, "# clockid frequency: 3000 MHz\n");
		ck_assert_int_eq(fb_parse(&ft, FEAT_DIR_FORMAT, &f, &d), 0);
		ck_assert_uint_eq(features__dir_version(&ft), 3);
		testlib_buf_free(&f.b);
		fb_u32(&f, 0); fb_u32(&f, 1); fb_u32(&f, 1); fb_u32(&f, 4); fb_u32(&f, 528384);
		ck_assert_int_eq(fb_parse(&ft, FEAT_COMPRESSED, &f, &d), 0);
		ck_assert_uint_eq(ft.comp.mmap_len, 528384);
		check_print(&ft, FEAT_COMPRESSED, false,
			    "# compressed : Zstd, level = 1, ratio = 4\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 0); fb_u32(&f, 2); fb_u32(&f, 3); fb_u32(&f, 4); fb_u32(&f, 5);
		ck_assert_int_eq(fb_parse(&ft, FEAT_COMPRESSED, &f, &d), 0);
		check_print(&ft, FEAT_COMPRESSED, false,
			    "# compressed : Unknown, level = 3, ratio = 4\n");
		testlib_buf_free(&f.b);
		/* CPU_PMU_CAPS, PMU_CAPS */
		fb_u32(&f, 0);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_PMU_CAPS, &f, &d), 0);
		check_print(&ft, FEAT_CPU_PMU_CAPS, false,
			    "# cpu pmu capabilities: not available\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 2); fb_str(&f, "branches"); fb_str(&f, "32");
		fb_str(&f, "max_precise"); fb_str(&f, "3");
		ck_assert_int_eq(fb_parse(&ft, FEAT_CPU_PMU_CAPS, &f, &d), 0);
		check_print(&ft, FEAT_CPU_PMU_CAPS, false,
			    "# cpu pmu capabilities: branches=32, max_precise=3\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 2); fb_u32(&f, 1); fb_str(&f, "slots"); fb_str(&f, "4");
		fb_str(&f, "cpu_core"); fb_u32(&f, 0); fb_str(&f, "cpu_atom");
		ck_assert_int_eq(fb_parse(&ft, FEAT_PMU_CAPS, &f, &d), 0);
		check_print(&ft, FEAT_PMU_CAPS, false,
			    "# cpu_core pmu capabilities: slots=4\n"
			    "# cpu_atom pmu capabilities: not available\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 0);
		ck_assert_int_eq(fb_parse(&ft, FEAT_PMU_CAPS, &f, &d), 0);
		check_print(&ft, FEAT_PMU_CAPS, false, "");
		testlib_buf_free(&f.b);
		/* HYBRID_TOPOLOGY */
		fb_u32(&f, 2); fb_str(&f, "cpu_core"); fb_str(&f, "0-7");
		fb_str(&f, "cpu_atom"); fb_str(&f, "8-15");
		ck_assert_int_eq(fb_parse(&ft, FEAT_HYBRID_TOPOLOGY, &f, &d), 0);
		check_print(&ft, FEAT_HYBRID_TOPOLOGY, true,
			    "# hybrid cpu system:\n# cpu_core cpu list : 0-7\n"
			    "# cpu_atom cpu list : 8-15\n");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

START_TEST(test_feature_cache_and_clock)
{
	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		setenv("TZ", "UTC", 1);
		tzset();
		features__init(&ft);
		fb_u32(&f, 1); fb_u32(&f, 2);
		fb_u32(&f, 1); fb_u32(&f, 64); fb_u32(&f, 64); fb_u32(&f, 12);
		fb_str(&f, "Data"); fb_str(&f, "48K"); fb_str(&f, "0");
		fb_u32(&f, 3); fb_u32(&f, 64); fb_u32(&f, 32768); fb_u32(&f, 16);
		fb_str(&f, "Unified"); fb_str(&f, "32768K"); fb_str(&f, "0-1");
		ck_assert_int_eq(fb_parse(&ft, FEAT_CACHE, &f, &d), 0);
		ck_assert_uint_eq(ft.caches[1].sets, 32768);
		check_print(&ft, FEAT_CACHE, true,
			    "# CPU cache info:\n"
			    "#  L1 Data                 48K [0]\n"
			    "#  L3 Unified           32768K [0-1]\n");
		check_print(&ft, FEAT_CACHE, false, "# CACHE info available, use -I to display\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 2); fb_u32(&f, 0);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CACHE, &f, &d), 0);
		ck_assert(features__perf_failed(&ft, FEAT_CACHE));
		check_print_file(&ft, FEAT_CACHE, true, "# CPU cache info:\n");
		testlib_buf_free(&f.b);
		/* CLOCK_DATA */
		fb_u32(&f, 1); fb_u32(&f, 1);
		fb_u64(&f, 1795338401463369123ULL); fb_u64(&f, 360190765262ULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CLOCK_DATA, &f, &d), 0);
		check_print(&ft, FEAT_CLOCK_DATA, false,
			    "# clockid: monotonic (1)\n"
			    "# reference time: 2026-11-22 09:06:41.463369 = 1795338401.463369 "
			    "(TOD) = 360.190765262 (monotonic)\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 1); fb_u32(&f, 5);
		fb_u64(&f, 1700000000123456789ULL); fb_u64(&f, 123456789012ULL);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CLOCK_DATA, &f, &d), 0);
		check_print(&ft, FEAT_CLOCK_DATA, false,
			    "# clockid: (not found) (5)\n"
			    "# reference time: 2023-11-14 22:13:20.123456 = 1700000000.123456 "
			    "(TOD) = 123.456789012 ((not found))\n");
		testlib_buf_free(&f.b);
		fb_u32(&f, 2); fb_u32(&f, 5); fb_u64(&f, 1); fb_u64(&f, 1);
		ck_assert_int_eq(fb_parse(&ft, FEAT_CLOCK_DATA, &f, &d), 0);
		ck_assert(features__perf_failed(&ft, FEAT_CLOCK_DATA));
		check_print_file(&ft, FEAT_CLOCK_DATA, false, "# reference time disabled\n");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

static void put_events(struct features *ft, uint32_t n, const char *const *names)
{
	struct event_attr a = testlib_attr(0);
	struct fb f = { 0 };
	struct diag d;

	fb_u32(&f, n);
	fb_u32(&f, 128);
	for (uint32_t i = 0; i < n; i++)
		fb_event(&f, &a, names[i], 0, NULL);
	ck_assert_int_eq(fb_parse(ft, FEAT_EVENT_DESC, &f, &d), 0);
	testlib_buf_free(&f.b);
}

START_TEST(test_feature_group_desc)
{
	static const char *const names[] = { "cpu-clock", "task-clock", "page-faults",
					     "a", "b" };
	struct feat_group_state g[5];
	struct features ft;
	struct diag d;
	struct fb f = { 0 };

	features__init(&ft);
	put_events(&ft, 5, names);
	fb_u32(&f, 2);
	fb_str(&f, "mygrp"); fb_u32(&f, 0); fb_u32(&f, 2);
	fb_str(&f, "{anon_group}"); fb_u32(&f, 3); fb_u32(&f, 2);
	ck_assert_int_eq(fb_parse(&ft, FEAT_GROUP_DESC, &f, &d), 0);
	ck_assert(!features__perf_failed(&ft, FEAT_GROUP_DESC));
	ck_assert(features__group_rebuild(&ft, g, 5));
	ck_assert_uint_eq(g[1].leader, 0);
	ck_assert_uint_eq(g[2].leader, 2);
	ck_assert_uint_eq(g[4].leader, 3);
	ck_assert_str_eq(g[0].name, "mygrp");
	ck_assert_ptr_null(g[3].name);
	check_print(&ft, FEAT_GROUP_DESC, false,
		    "# group: mygrp{cpu-clock,task-clock}\n# group: {a,b}\n");
	testlib_buf_free(&f.b);
	/* a leader inside the previous group: invalid for perf, printed as it left it */
	fb_u32(&f, 2);
	fb_str(&f, "{anon_group}"); fb_u32(&f, 0); fb_u32(&f, 3);
	fb_str(&f, "{anon_group}"); fb_u32(&f, 1); fb_u32(&f, 2);
	ck_assert_int_eq(fb_parse(&ft, FEAT_GROUP_DESC, &f, &d), 0);
	ck_assert(features__perf_failed(&ft, FEAT_GROUP_DESC));
	testlib_buf_free(&f.b);
	/* truncated */
	fb_u32(&f, 1);
	fb_str(&f, "x");
	fb_u32(&f, 0);
	ck_assert_int_eq(fb_parse(&ft, FEAT_GROUP_DESC, &f, &d), -DIAG_BAD_FEATURE);
	ck_assert_uint_eq(d.offset, BASE + 4 + 68 + 4);
	testlib_buf_free(&f.b);
	features__exit(&ft);
}
END_TEST

static void fb_build_id(struct fb *f, uint16_t misc, int32_t pid, uint8_t fill,
			uint8_t size, const char *name)
{
	size_t n = strlen(name) + 1, len = (n + 63) / 64 * 64;
	unsigned char id[24] = { 0 };

	memset(id, fill, 20);
	id[20] = size;
	fb_u32(f, 0);
	fb_u16(f, misc);
	fb_u16(f, (uint16_t)(36 + len));
	fb_u32(f, (uint32_t)pid);
	testlib_buf_add(&f->b, id, 24);
	testlib_buf_add(&f->b, name, n);
	fb_zero(f, len - n);
}

START_TEST(test_feature_build_id_and_tracing)
{
	for (int sw = 0; sw < 2; sw++) {
		struct features ft;
		struct diag d;
		struct fb f = { .swap = sw };

		features__init(&ft);
		fb_build_id(&f, 1, -1, 0xab, 0, "[kernel.kallsyms]");
		fb_build_id(&f, 2 | 0x8000, -1, 0xcd, 16, "/usr/lib/libc.so.6");
		ck_assert_int_eq(fb_parse(&ft, FEAT_BUILD_ID, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_build_ids, 2);
		ck_assert_int_eq(ft.build_ids[0].pid, -1);
		ck_assert_uint_eq(ft.build_ids[0].size, 20);
		ck_assert_uint_eq(ft.build_ids[0].build_id[19], 0xab);
		ck_assert_str_eq(ft.build_ids[0].filename, "[kernel.kallsyms]");
		ck_assert_uint_eq(ft.build_ids[1].misc, 0x8002);
		ck_assert_uint_eq(ft.build_ids[1].size, 16);
		ck_assert_uint_eq(ft.build_id_raw.size, f.b.len);
		ck_assert_uint_eq(ft.build_id_raw.file_offset, BASE);
		ck_assert_int_eq(memcmp(ft.build_id_raw.data, f.b.p, f.b.len), 0);
		check_print(&ft, FEAT_BUILD_ID, true, "");
		/* an entry size running past the section */
		bytes__put_u16(f.b.p + 6, sw ? __builtin_bswap16(0x7fff) : 0x7fff);
		ck_assert_int_eq(fb_parse(&ft, FEAT_BUILD_ID, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_uint_eq(d.offset, BASE + 6);
		bytes__put_u16(f.b.p + 6, sw ? __builtin_bswap16(8) : 8);
		ck_assert_int_eq(fb_parse(&ft, FEAT_BUILD_ID, &f, &d), -DIAG_BAD_FEATURE);
		ck_assert_uint_eq(ft.nr_build_ids, 2);
		testlib_buf_free(&f.b);
		/* pre-2010 layout without pid: "[kernel.kallsyms]" 4 bytes early */
		fb_u32(&f, 0); fb_u16(&f, 1); fb_u16(&f, 32 + 64);
		fb_zero(&f, 24);
		testlib_buf_add(&f.b, "[kernel.kallsyms]", 17);
		fb_zero(&f, 64 - 17);
		ck_assert_int_eq(fb_parse(&ft, FEAT_BUILD_ID, &f, &d), 0);
		ck_assert_uint_eq(ft.nr_build_ids, 1);
		ck_assert_str_eq(ft.build_ids[0].filename, "[kernel.kallsyms]");
		ck_assert_int_eq(ft.build_ids[0].pid, -1);
		testlib_buf_free(&f.b);
		/* TRACING_DATA is kept as bytes */
		testlib_buf_add(&f.b, "\027\010\104tracing0.6", 13);
		ck_assert_int_eq(fb_parse(&ft, FEAT_TRACING_DATA, &f, &d), 0);
		ck_assert_uint_eq(ft.tracing_data.size, 13);
		ck_assert_int_eq(memcmp(ft.tracing_data.data + 3, "tracing", 7), 0);
		check_print(&ft, FEAT_TRACING_DATA, true, "");
		testlib_buf_free(&f.b);
		features__exit(&ft);
	}
}
END_TEST

/* ---- BPF ------------------------------------------------------------------------------ */

/* A linearised bpf_prog_info with nr jited functions, as perf record stores it. */
static void fb_bpf_prog(struct fb *f, uint32_t id, uint32_t btf_id, const char *name,
			uint32_t nr, const uint32_t *func_type_ids)
{
	unsigned char info[FEAT_BPF_INFO_MAX] = { 0 };
	struct testlib_buf data = { 0 };
	uint64_t arrays = (1ULL << 3) | (1ULL << 4) | (1ULL << 5) | (1ULL << 8);

	bytes__put_u32(info + 4, id);
	memcpy(info + 64, name, strlen(name));
	bytes__put_u32(info + 104, nr);		/* nr_jited_ksyms */
	bytes__put_u32(info + 108, nr);		/* nr_jited_func_lens */
	bytes__put_u32(info + 180, nr);		/* nr_prog_tags */
	bytes__put_u32(info + 128, btf_id);
	bytes__put_u32(info + 132, 8);		/* func_info_rec_size */
	bytes__put_u32(info + 144, nr);
	bytes__put_u64(info + 112, data.len);	/* jited_ksyms */
	for (uint32_t i = 0; i < nr; i++)
		testlib_buf_u64(&data, 0xffffffffc0022054ULL + 0x40 * i);
	bytes__put_u64(info + 120, data.len);	/* jited_func_lens */
	for (uint32_t i = 0; i < nr; i++)
		testlib_buf_u32(&data, 20 + i);
	bytes__put_u64(info + 136, data.len);	/* func_info */
	for (uint32_t i = 0; i < nr; i++) {
		testlib_buf_u32(&data, i * 2);
		testlib_buf_u32(&data, func_type_ids ? func_type_ids[i] : 0);
	}
	bytes__put_u64(info + 184, data.len);	/* prog_tags */
	for (uint32_t i = 0; i < nr; i++)
		testlib_buf_u64(&data, 0xc6cd4d7431a9f459ULL + i);
	fb_u32(f, FEAT_BPF_INFO_MAX);
	fb_u32(f, (uint32_t)data.len);
	fb_u64(f, arrays);
	testlib_buf_add(&f->b, info, sizeof(info));
	testlib_buf_add(&f->b, data.p, data.len);
	testlib_buf_free(&data);
}

/* BTF: [1] int, [2] func_proto, [3] FUNC my_func, [4] FUNC main_fn, [5] FUNC sub_fn */
static void fb_btf(struct fb *f, uint32_t id)
{
	static const char strs[] = "\0int\0my_func\0main_fn\0sub_fn";
	static const uint32_t types[] = {
		1, 1u << 24, 4, 32, 0, 13u << 24, 1, 5, (12u << 24) | 1, 2,
		13, (12u << 24) | 1, 2, 21, 12u << 24, 2,
	};
	unsigned char hdr[24] = { 0 };

	bytes__put_u16(hdr, 0xeb9f);
	hdr[2] = 1;
	bytes__put_u32(hdr + 4, 24);
	bytes__put_u32(hdr + 12, sizeof(types));
	bytes__put_u32(hdr + 16, sizeof(types));
	bytes__put_u32(hdr + 20, sizeof(strs));
	fb_u32(f, id);
	fb_u32(f, (uint32_t)(24 + sizeof(types) + sizeof(strs)));
	testlib_buf_add(&f->b, hdr, 24);
	testlib_buf_add(&f->b, types, sizeof(types));
	testlib_buf_add(&f->b, strs, sizeof(strs));
}

START_TEST(test_feature_bpf)
{
	static const uint32_t one[] = { 3 }, two[] = { 4, 5 };
	struct features ft;
	struct diag d;
	struct fb f = { 0 };

	features__init(&ft);
	fb_u32(&f, 5);
	fb_bpf_prog(&f, 101, 0, "two_nobtf", 2, NULL);
	fb_bpf_prog(&f, 97, 14, "single_btf", 1, one);
	fb_bpf_prog(&f, 98, 14, "two_btf", 2, two);
	fb_bpf_prog(&f, 99, 0, "nobtf", 1, NULL);
	fb_bpf_prog(&f, 97, 0, "duplicate", 1, NULL);	/* perf keeps the first 97 */
	ck_assert_int_eq(fb_parse(&ft, FEAT_BPF_PROG_INFO, &f, &d), 0);
	ck_assert_uint_eq(ft.nr_bpf_progs, 4);
	testlib_buf_free(&f.b);
	/* without the BTF yet (pipe order): generic names */
	check_print(&ft, FEAT_BPF_PROG_INFO, false,
		    "# bpf_prog_info 97: bpf_prog_59f4a931744dcdc6_single_btf addr "
		    "0xffffffffc0022054 size 20\n"
		    "# bpf_prog_info 98:\n"
		    "# \tsub_prog 0: bpf_prog_59f4a931744dcdc6_F addr 0xffffffffc0022054 size 20\n"
		    "# \tsub_prog 1: bpf_prog_5af4a931744dcdc6_F addr 0xffffffffc0022094 size 21\n"
		    "# bpf_prog_info 99: bpf_prog_59f4a931744dcdc6_nobtf addr "
		    "0xffffffffc0022054 size 20\n"
		    "# bpf_prog_info 101:\n"
		    "# \tsub_prog 0: bpf_prog_59f4a931744dcdc6_F addr 0xffffffffc0022054 size 20\n"
		    "# \tsub_prog 1: bpf_prog_5af4a931744dcdc6_F addr 0xffffffffc0022094 size 21\n");
	fb_u32(&f, 2);
	fb_btf(&f, 14);
	fb_btf(&f, 3);
	ck_assert_int_eq(fb_parse(&ft, FEAT_BPF_BTF, &f, &d), 0);
	ck_assert_uint_eq(ft.btfs[0].id, 3);
	check_print(&ft, FEAT_BPF_BTF, false, "# btf info of id 3\n# btf info of id 14\n");
	check_print(&ft, FEAT_BPF_PROG_INFO, false,
		    "# bpf_prog_info 97: bpf_prog_59f4a931744dcdc6_my_func addr "
		    "0xffffffffc0022054 size 20\n"
		    "# bpf_prog_info 98:\n"
		    "# \tsub_prog 0: bpf_prog_59f4a931744dcdc6_main_fn addr 0xffffffffc0022054 size 20\n"
		    "# \tsub_prog 1: bpf_prog_5af4a931744dcdc6_sub_fn addr 0xffffffffc0022094 size 21\n"
		    "# bpf_prog_info 99: bpf_prog_59f4a931744dcdc6_nobtf addr "
		    "0xffffffffc0022054 size 20\n"
		    "# bpf_prog_info 101:\n"
		    "# \tsub_prog 0: bpf_prog_59f4a931744dcdc6_F addr 0xffffffffc0022054 size 20\n"
		    "# \tsub_prog 1: bpf_prog_5af4a931744dcdc6_F addr 0xffffffffc0022094 size 21\n");
	/* a cross-endian body is not interpreted (perf 6.1) */
	ck_assert_int_eq(features__parse(&ft, FEAT_BPF_BTF, f.b.p, 1, true, 0, "t", &d), 0);
	ck_assert_uint_eq(ft.nr_btfs, 2);
	testlib_buf_free(&f.b);
	/* an info larger than perf's struct: perf keeps what came before and gives up */
	fb_u32(&f, 2);
	fb_bpf_prog(&f, 7, 0, "p", 1, NULL);
	fb_u32(&f, FEAT_BPF_INFO_MAX + 8);
	fb_u32(&f, 0);
	fb_u64(&f, 0);
	ck_assert_int_eq(fb_parse(&ft, FEAT_BPF_PROG_INFO, &f, &d), 0);
	ck_assert(features__perf_failed(&ft, FEAT_BPF_PROG_INFO));
	ck_assert_uint_eq(ft.nr_bpf_progs, 1);
	testlib_buf_free(&f.b);
	features__exit(&ft);
}
END_TEST

/* ---- robustness: every prefix and random damage of every body --------------------- */

static void valid_body(struct fb *f, unsigned feat)
{
	static const char *const sl[] = { "0-1", "0", "1" };
	struct event_attr a = testlib_attr(0);
	static const uint64_t ids[] = { 5, 6 };
	static const uint32_t one[] = { 3 };

	switch (feat) {
	case FEAT_TRACING_DATA: testlib_buf_add(&f->b, "\027\010\104tracing", 10); break;
	case FEAT_BUILD_ID: fb_build_id(f, 1, -1, 1, 0, "[kernel.kallsyms]"); break;
	case FEAT_NRCPUS: fb_u32(f, 2); fb_u32(f, 2); break;
	case FEAT_TOTAL_MEM: case FEAT_CLOCKID: case FEAT_DIR_FORMAT: fb_u64(f, 1); break;
	case FEAT_CMDLINE: fb_strlist(f, 3, sl); break;
	case FEAT_EVENT_DESC:
		fb_u32(f, 2); fb_u32(f, 128);
		fb_event(f, &a, "cpu-clock", 2, ids);
		fb_event(f, &a, "task-clock", 0, NULL);
		break;
	case FEAT_CPU_TOPOLOGY:
		fb_strlist(f, 1, sl); fb_strlist(f, 2, sl + 1);
		fb_u32(f, 0); fb_u32(f, 0); fb_u32(f, 1); fb_u32(f, 0);
		fb_strlist(f, 1, sl); fb_u32(f, 0); fb_u32(f, 0);
		break;
	case FEAT_NUMA_TOPOLOGY: fb_u32(f, 1); fb_numa_node(f, 0, "0-1"); break;
	case FEAT_PMU_MAPPINGS: fb_u32(f, 1); fb_u32(f, 1); fb_str(f, "software"); break;
	case FEAT_GROUP_DESC:
		fb_u32(f, 1); fb_str(f, "{anon_group}"); fb_u32(f, 0); fb_u32(f, 2);
		break;
	case FEAT_AUXTRACE: fb_u64(f, 1); fb_u64(f, 1); fb_u64(f, 2); break;
	case FEAT_CACHE:
		fb_u32(f, 1); fb_u32(f, 1);
		fb_u32(f, 1); fb_u32(f, 64); fb_u32(f, 64); fb_u32(f, 12);
		fb_str(f, "Data"); fb_str(f, "48K"); fb_str(f, "0");
		break;
	case FEAT_SAMPLE_TIME: fb_u64(f, 1); fb_u64(f, 2); break;
	case FEAT_MEM_TOPOLOGY:
		fb_u64(f, 1); fb_u64(f, 4096); fb_u64(f, 1);
		fb_u64(f, 0); fb_u64(f, 0); fb_u64(f, 70); fb_u64(f, ~0ULL); fb_u64(f, 3);
		break;
	case FEAT_BPF_PROG_INFO: fb_u32(f, 1); fb_bpf_prog(f, 9, 4, "x", 1, one); break;
	case FEAT_BPF_BTF: fb_u32(f, 1); fb_btf(f, 4); break;
	case FEAT_COMPRESSED: for (int i = 0; i < 5; i++) fb_u32(f, 1); break;
	case FEAT_CPU_PMU_CAPS: fb_u32(f, 1); fb_str(f, "a"); fb_str(f, "b"); break;
	case FEAT_CLOCK_DATA: fb_u32(f, 1); fb_u32(f, 1); fb_u64(f, 1); fb_u64(f, 2); break;
	case FEAT_HYBRID_TOPOLOGY: fb_u32(f, 1); fb_str(f, "cpu"); fb_str(f, "0-1"); break;
	case FEAT_PMU_CAPS:
		fb_u32(f, 1); fb_u32(f, 1); fb_str(f, "a"); fb_str(f, "b"); fb_str(f, "p");
		break;
	case FEAT_BRANCH_STACK: case FEAT_STAT: break;
	default: fb_str(f, "string"); break;
	}
}

static void print_all(const struct features *ft, bool pipe)
{
	struct header_print_info hi = { .feat = ft, .full = true, .is_pipe = pipe };
	FILE *fp = fopen("/dev/null", "w");

	ck_assert_ptr_nonnull(fp);
	for (unsigned i = 0; i < FEAT_BITS / 64; i++)
		hi.bitmap[i] = ft->present[i];
	header_print__header(fp, &hi);
	for (unsigned feat = 1; feat < FEAT_LAST_PERF61; feat++)
		header_print__feature(fp, &hi, feat);
	fclose(fp);
}

START_TEST(test_feature_truncated_and_damaged)
{
	uint32_t seed = 12345;

	for (int sw = 0; sw < 2; sw++) {
		for (unsigned feat = 1; feat < FEAT_LAST_PERF61; feat++) {
			struct fb f = { .swap = sw };
			struct features ft;
			struct diag d;
			unsigned char *copy;

			features__init(&ft);
			put_nrcpus(&ft, 2, sw);
			valid_body(&f, feat);
			ck_assert_msg(fb_parse(&ft, feat, &f, &d) == 0, "feat %u: %s", feat,
				      d.msg);
			for (size_t len = 0; len < f.b.len; len++) {
				int rc;

				copy = malloc(len ? len : 1);	/* exact size for ASan */
				memcpy(copy, f.b.p, len);
				rc = features__parse(&ft, feat, copy, len, sw, BASE, "t", &d);
				ck_assert_msg(rc == 0 || rc == -DIAG_BAD_FEATURE, "feat %u len %zu",
					      feat, len);
				if (rc) {
					ck_assert_uint_ge(d.offset, BASE);
					ck_assert_uint_le(d.offset, BASE + len);
					ck_assert_int_eq(strncmp(d.msg, "feature ", 8), 0);
				}
				free(copy);
			}
			for (int iter = 0; iter < 300 && f.b.len; iter++) {
				int rc;

				copy = malloc(f.b.len);
				memcpy(copy, f.b.p, f.b.len);
				for (int k = 0; k < 3; k++) {
					seed = seed * 1103515245u + 12345u;
					copy[(seed >> 8) % f.b.len] = (unsigned char)(seed >> 24);
				}
				rc = features__parse(&ft, feat, copy, f.b.len, sw, BASE, "t", &d);
				ck_assert(rc == 0 || rc == -DIAG_BAD_FEATURE || rc == -ENOMEM);
				free(copy);
				print_all(&ft, iter & 1);
			}
			testlib_buf_free(&f.b);
			features__exit(&ft);
		}
	}
}
END_TEST

/* ---- the header printer on whole files ------------------------------------------------ */

START_TEST(test_print_header_lines)
{
	struct features ft;
	struct header_print_info hi = { .mtime = 0, .data_offset = 264, .data_size = 15504,
					.feat_offset = 15768, .feat = &ft };
	struct diag d;
	struct fb f = { 0 };
	struct mem_out m;
	char *s;

	setenv("TZ", "UTC", 1);
	tzset();
	features__init(&ft);
	fb_u32(&f, 2); fb_u32(&f, 0);		/* CACHE v2: perf stops reading there */
	ck_assert_int_eq(fb_parse(&ft, FEAT_CACHE, &f, &d), 0);
	testlib_buf_free(&f.b);
	fb_u64(&f, 82910198000ULL); fb_u64(&f, 83006920000ULL);
	ck_assert_int_eq(fb_parse(&ft, FEAT_SAMPLE_TIME, &f, &d), 0);
	testlib_buf_free(&f.b);
	ck_assert(!features__perf_processed(&ft, FEAT_SAMPLE_TIME, false));
	hi.bitmap[0] = (1ULL << FEAT_CACHE) | (1ULL << FEAT_SAMPLE_TIME);
	out_open(&m);
	ck_assert_int_eq(header_print__header(m.fp, &hi), 0);
	s = out_close(&m);
	ck_assert_str_eq(s,
		"# ========\n"
		"# captured on    : Thu Jan  1 00:00:00 1970\n"
		"# header version : 1\n"
		"# data offset    : 264\n"
		"# data size      : 15504\n"
		"# feat offset    : 15768\n"
		"# CACHE info available, use -I to display\n"
		"# time of first sample : 0.000000\n"
		"# time of last sample : 0.000000\n"
		"# sample duration :      0.000 ms\n"
		"# missing features: TRACING_DATA BUILD_ID HOSTNAME OSRELEASE VERSION ARCH "
		"NRCPUS CPUDESC CPUID TOTAL_MEM CMDLINE EVENT_DESC CPU_TOPOLOGY NUMA_TOPOLOGY "
		"BRANCH_STACK PMU_MAPPINGS GROUP_DESC AUXTRACE STAT MEM_TOPOLOGY CLOCKID "
		"DIR_FORMAT BPF_PROG_INFO BPF_BTF COMPRESSED CPU_PMU_CAPS CLOCK_DATA "
		"HYBRID_TOPOLOGY PMU_CAPS \n"
		"# ========\n#\n");
	free(s);
	/* a pipe: offsets 0, no feature, no missing list */
	hi.is_pipe = true;
	hi.mtime = 1795338124;
	out_open(&m);
	header_print__header(m.fp, &hi);
	s = out_close(&m);
	ck_assert_str_eq(s,
		"# ========\n"
		"# captured on    : Sun Nov 22 09:02:04 2026\n"
		"# header version : 1\n"
		"# data offset    : 0\n"
		"# data size      : 0\n"
		"# feat offset    : 0\n"
		"# ========\n#\n");
	free(s);
	features__exit(&ft);
}
END_TEST

static unsigned char *read_all(const char *path, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	unsigned char *p;
	long n;

	ck_assert_msg(fp != NULL, "%s", path);
	fseek(fp, 0, SEEK_END);
	n = ftell(fp);
	fseek(fp, 0, SEEK_SET);
	p = malloc(n ? (size_t)n : 1);
	ck_assert_uint_eq(fread(p, 1, (size_t)n, fp), (size_t)n);
	fclose(fp);
	*len = (size_t)n;
	return p;
}

/* Print a sample's header as dirreport does (pipe: features as their records come). */
static char *print_sample(const char *sample, bool full)
{
	char path[256];
	struct stat st;
	struct features ft;
	struct header_print_info hi = { .full = full, .feat = &ft };
	struct mem_out m;
	struct diag d;
	unsigned char *b;
	size_t len;
	bool pipe, swap;

	snprintf(path, sizeof(path), "samples/%s", sample);
	ck_assert_int_eq(stat(path, &st), 0);
	if (S_ISDIR(st.st_mode)) {
		snprintf(path, sizeof(path), "samples/%s/data", sample);
		hi.is_dir = true;
		ck_assert_int_eq(stat(path, &st), 0);
	}
	hi.path = path;
	hi.mtime = st.st_mtime;
	b = read_all(path, &len);
	features__init(&ft);
	out_open(&m);
	ck_assert_int_eq(file_header__probe(b, len, &pipe, &swap), 0);
	hi.is_pipe = pipe;
	if (pipe) {
		header_print__header(m.fp, &hi);
		for (size_t pos = PIPE_HEADER_SIZE; pos + 8 <= len;) {
			uint32_t type = bytes__u32x(b + pos, swap);
			uint16_t size = bytes__u16x(b + pos + 6, swap);
			uint64_t id;

			ck_assert_uint_ge(size, 8);
			if (type == 80) {
				id = bytes__u64x(b + pos + 8, swap);
				if (id == FEAT_LAST_PERF61)
					break;
				ck_assert_int_eq(features__parse(&ft, (unsigned)id, b + pos + 16,
								 size - 16u, swap, pos + 16,
								 path, &d), 0);
				header_print__feature(m.fp, &hi, (unsigned)id);
			}
			if (type == 66)
				pos += bytes__u32x(b + pos + 8, swap);
			pos += size;
		}
	} else {
		struct file_header h;
		struct file_section sec[FEAT_BITS];
		uint64_t feat_off;

		ck_assert_int_eq(file_header__read(&h, &swap, b, len, len, path, &d), 0);
		ck_assert_int_eq(file_header__feat_sections(&h, swap, b, len, sec, &feat_off,
							    path, &d), 0);
		for (unsigned i = 1; i < FEAT_BITS; i++)
			if (file_header__has_feat(&h, i))
				ck_assert_int_eq(features__parse(&ft, i, b + sec[i].offset,
								 sec[i].size, swap,
								 sec[i].offset, path, &d), 0);
		hi.data_offset = h.data.offset;
		hi.data_size = h.data.size;
		hi.feat_offset = feat_off;
		memcpy(hi.bitmap, h.features, sizeof(hi.bitmap));
		header_print__header(m.fp, &hi);
	}
	features__exit(&ft);
	free(b);
	return out_close(&m);
}

/* Drop the "# captured on" line: it shows the file's mtime, set by the checkout. */
static void drop_captured_on(char *s)
{
	char *p = strstr(s, "# captured on    : "), *nl;

	ck_assert_ptr_nonnull(p);
	nl = strchr(p, '\n');
	ck_assert_ptr_nonnull(nl);
	memmove(p, nl + 1, strlen(nl + 1) + 1);
}

static const char *const samples[] = {
	"plain.data", "pipe.data", "threads.data", "threads-z.data", "callchain.data",
};

START_TEST(test_print_samples)
{
	for (size_t i = 0; i < sizeof(samples) / sizeof(samples[0]); i++) {
		for (int full = 0; full < 2; full++) {
			char golden[256], name[64];
			char *got, *want;
			size_t len;

			snprintf(name, sizeof(name), "%s", samples[i]);
			*strstr(name, ".data") = '\0';
			snprintf(golden, sizeof(golden), "tests/golden/header/%s%s.txt", name,
				 full ? "-I" : "");
			want = (char *)read_all(golden, &len);
			want = realloc(want, len + 1);
			want[len] = '\0';
			got = print_sample(samples[i], full);
			drop_captured_on(got);
			drop_captured_on(want);
			ck_assert_msg(strcmp(got, want) == 0, "%s:\n--- got\n%s--- want\n%s",
				      golden, got, want);
			free(got);
			free(want);
		}
	}
}
END_TEST

Suite *feature_suite(void)
{
	Suite *s = suite_create("feature");
	TCase *tc = tcase_create("parse");
	TCase *tp = tcase_create("print");

	tcase_add_test(tc, test_feature_strings);
	tcase_add_test(tc, test_feature_string_edges);
	tcase_add_test(tc, test_feature_string_cut);
	tcase_add_test(tc, test_feature_numbers_and_cmdline);
	tcase_add_test(tc, test_feature_event_desc);
	tcase_add_test(tc, test_feature_event_desc_perf_quirks);
	tcase_add_test(tc, test_feature_event_desc_rejected);
	tcase_add_test(tc, test_feature_event_desc_absurd);
	tcase_add_test(tc, test_feature_cpu_topology);
	tcase_add_test(tc, test_feature_numa_topology);
	tcase_add_test(tc, test_feature_mem_topology);
	tcase_add_test(tc, test_feature_misc);
	tcase_add_test(tc, test_feature_cache_and_clock);
	tcase_add_test(tc, test_feature_group_desc);
	tcase_add_test(tc, test_feature_build_id_and_tracing);
	tcase_add_test(tc, test_feature_bpf);
	tcase_add_test(tc, test_feature_truncated_and_damaged);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_test(tp, test_header_print_write_error);
	tcase_add_test(tp, test_print_header_lines);
	tcase_add_test(tp, test_print_samples);
	suite_add_tcase(s, tp);
	return s;
}
