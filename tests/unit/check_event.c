/* Unit tests of format/event: the typed views of non-sample records, on real records
 * (taken from the recordings behind tests/unit/check_dump.c) and built ones, and the
 * error of every too-short record. */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "format/diag.h"
#include "format/event.h"
#include "format/record.h"
#include "banned.h"

/* --- helpers ----------------------------------------------------------------- */

static unsigned nibble(char c)
{
	const char *d = "0123456789abcdef", *at = c ? strchr(d, c) : NULL;

	ck_assert_ptr_nonnull(at);
	return (unsigned)(at - d);
}

static size_t unhex(const char *hex, unsigned char *out, size_t cap)
{
	size_t n = strlen(hex) / 2;

	ck_assert_uint_le(n, cap);
	for (size_t i = 0; i < n; i++)
		out[i] = (unsigned char)(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
	return n;
}

/* A record under construction: header, then fields appended in order. */
struct rb {
	unsigned char p[256];
	size_t n;
};

static void rb_init(struct rb *b, uint32_t type, uint16_t misc)
{
	memset(b, 0, sizeof(*b));
	memcpy(b->p, &type, 4);
	memcpy(b->p + 4, &misc, 2);
	b->n = 8;
}

static void rb_add(struct rb *b, const void *v, size_t n)
{
	ck_assert_uint_le(b->n + n, sizeof(b->p));
	memcpy(b->p + b->n, v, n);
	b->n += n;
}

static void rb_u8(struct rb *b, uint8_t v) { rb_add(b, &v, 1); }
static void rb_u16(struct rb *b, uint16_t v) { rb_add(b, &v, 2); }
static void rb_u32(struct rb *b, uint32_t v) { rb_add(b, &v, 4); }
static void rb_u64(struct rb *b, uint64_t v) { rb_add(b, &v, 8); }

/* Pad to 8 and write header.size. */
static const unsigned char *rb_done(struct rb *b)
{
	uint16_t size;

	while (b->n % 8)
		b->n++;
	size = (uint16_t)b->n;
	memcpy(b->p + 6, &size, 2);
	return b->p;
}

static void assert_str(const struct event_str *s, const char *want)
{
	ck_assert_ptr_nonnull(s->s);
	ck_assert(s->nul);
	ck_assert_uint_eq(s->len, strlen(want));
	ck_assert(!memcmp(s->s, want, s->len));
}

/* --- real records (perf 6.1 recordings) ----------------------------------------- */

/* plain.data: the kernel MMAP perf synthesizes */
static const char real_mmap[] =
	"0100000001005000ffffffff0000000000000081ffffffff888d200100000000"
	"00000081ffffffff5b6b65726e656c2e6b616c6c73796d735d5f746578740000"
	"00000000000000000000000000000000";
/* plain.data: an MMAP2 of [vdso], inode form */
static const char real_mmap2[] =
	"0a00000002006000060800000608000000505c72e37f00000020000000000000"
	"0000000000000000000000000000000000000000000000000000000000000000"
	"05000000020000005b7664736f5d00000608000006080000cabfce4d13000000";
/* a build-id recording: MMAP2 of /usr/bin/ls, build-id form (misc 0x4002) */
static const char real_mmap2_bid[] =
	"0a00000002406800d3510000d351000000500aa8065600000060010000000000"
	"00400000000000001400000015dfff3239aa7c3b16a71e6b2e3b6e4009dab998"
	"05000000020000002f7573722f62696e2f6c730000000000d3510000d3510000"
	"d3a3eaf361000000";
/* plain.data: COMM perf-exec */
static const char real_comm[] =
	"03000000000030000608000006080000706572662d6578656300000000000000"
	"00000000000000000000000000000000";
/* plain.data: FORK */
static const char real_fork[] =
	"0700000000003000080800000608000008080000060800008294d94d13000000"
	"06080000060800003793d94d13000000";
/* a cgroup recording: NAMESPACES, 7 entries */
static const char real_namespaces[] =
	"100000000000a800020000000200000007000000000000000400000000000000"
	"f9ffffef000000000400000000000000feffffef000000000400000000000000"
	"ffffffef000000000400000000000000fcffffef000000000400000000000000"
	"fdffffef000000000400000000000000f8ffffef000000000400000000000000"
	"fbffffef00000000000000000000000000000000000000000000000000000000"
	"0000000000000000";
/* a cgroup recording: CGROUP "/" */
static const char real_cgroup[] =
	"130000000000380001000000000000002f000000000000000000000000000000"
	"000000000000000000000000000000000000000000000000";
/* a context-switch recording: SWITCH_CPU_WIDE, out and preempted */
static const char real_switch[] =
	"0f00000000603000ef110000f111000000000000000000002e739ba03d000000"
	"00000000000000009500000000000000";
/* plain.data: ID_INDEX with two ids */
static const char real_id_index[] =
	"4500000000005000020000000000000011000000000000000000000000000000"
	"0000000000000000060800000000000012000000000000000100000000000000"
	"01000000000000000608000000000000";
/* plain.data: EVENT_UPDATE UNIT "msec" and SCALE 1e-6 */
static const char real_update_unit[] =
	"4e00000000003000000000000000000011000000000000006d73656300000000"
	"00000000000000000000000000000000";
static const char real_update_scale[] =
	"4e00000000003000010000000000000011000000000000008dedb5a0f7c6b03e"
	"00000000000000000000000000000000";
/* plain.data: THREAD_MAP with one thread, CPU_MAP "0-1" (RANGE) */
static const char real_thread_map[] =
	"4900000000002800010000000000000006080000000000000000000000000000"
	"0000000000000000";
static const char real_cpu_map[] = "4a000000000010000200000000000100";

START_TEST(test_real_mmap)
{
	unsigned char r[128];
	size_t n = unhex(real_mmap, r, sizeof(r));
	struct event_mmap ev;

	ck_assert_int_eq(event_mmap__decode(r, n, &ev), 0);
	ck_assert_uint_eq(ev.nfields, EVENT_MMAP_NFIELDS);
	ck_assert_uint_eq(ev.misc, MISC_KERNEL);
	ck_assert_int_eq((int32_t)ev.pid, -1);
	ck_assert_uint_eq(ev.tid, 0);
	ck_assert_uint_eq(ev.start, 0xffffffff81000000ULL);
	ck_assert_uint_eq(ev.len, 0x1208d88);
	ck_assert_uint_eq(ev.pgoff, 0xffffffff81000000ULL);
	assert_str(&ev.filename, "[kernel.kallsyms]_text");
}
END_TEST

START_TEST(test_real_mmap2)
{
	unsigned char r[128];
	size_t n = unhex(real_mmap2, r, sizeof(r));
	struct event_mmap2 ev;

	ck_assert_int_eq(event_mmap2__decode(r, n, &ev), 0);
	ck_assert_uint_eq(ev.nfields, EVENT_MMAP2_NFIELDS);
	ck_assert(!ev.has_build_id);
	ck_assert_uint_eq(ev.misc, MISC_USER);
	ck_assert_uint_eq(ev.pid, 2054);
	ck_assert_uint_eq(ev.tid, 2054);
	ck_assert_uint_eq(ev.start, 0x7fe3725c5000ULL);
	ck_assert_uint_eq(ev.len, 0x2000);
	ck_assert_uint_eq(ev.pgoff, 0);
	ck_assert_uint_eq(ev.maj, 0);
	ck_assert_uint_eq(ev.min, 0);
	ck_assert_uint_eq(ev.ino, 0);
	ck_assert_uint_eq(ev.ino_generation, 0);
	ck_assert_uint_eq(ev.build_id_size, 0);
	ck_assert_uint_eq(ev.prot, 5);
	ck_assert_uint_eq(ev.flags, 2);
	assert_str(&ev.filename, "[vdso]");
}
END_TEST

START_TEST(test_real_mmap2_build_id)
{
	static const unsigned char bid[20] = {
		0x15, 0xdf, 0xff, 0x32, 0x39, 0xaa, 0x7c, 0x3b, 0x16, 0xa7,
		0x1e, 0x6b, 0x2e, 0x3b, 0x6e, 0x40, 0x09, 0xda, 0xb9, 0x98,
	};
	unsigned char r[128];
	size_t n = unhex(real_mmap2_bid, r, sizeof(r));
	struct event_mmap2 ev;

	ck_assert_int_eq(event_mmap2__decode(r, n, &ev), 0);
	ck_assert_uint_eq(ev.nfields, EVENT_MMAP2_BUILD_ID_NFIELDS);
	ck_assert(ev.has_build_id);
	ck_assert_uint_eq(ev.misc, MISC_MMAP_BUILD_ID | MISC_USER);
	ck_assert_uint_eq(ev.pid, 20947);
	ck_assert_uint_eq(ev.tid, 20947);
	ck_assert_uint_eq(ev.start, 0x5606a80a5000ULL);
	ck_assert_uint_eq(ev.len, 0x16000);
	ck_assert_uint_eq(ev.pgoff, 0x4000);
	ck_assert_uint_eq(ev.build_id_size, 20);
	ck_assert(!memcmp(ev.build_id, bid, sizeof(bid)));
	/* the inode fields read through the union, as perf reads them (--mmaps prints
	 * the ino): the size byte, then build-id bytes 0-3, 4-11 and 12-19 */
	ck_assert_uint_eq(ev.maj, 20);
	ck_assert_uint_eq(ev.min, 0x32ffdf15u);
	ck_assert_uint_eq(ev.ino, 0x6b1ea7163b7caa39ULL);
	ck_assert_uint_eq(ev.ino_generation, 0x98b9da09406e3b2eULL);
	ck_assert_uint_eq(ev.prot, 5);
	ck_assert_uint_eq(ev.flags, 2);
	assert_str(&ev.filename, "/usr/bin/ls");
}
END_TEST

START_TEST(test_real_comm_fork)
{
	unsigned char r[128];
	size_t n = unhex(real_comm, r, sizeof(r));
	struct event_comm c;
	struct event_fork f;

	ck_assert_int_eq(event_comm__decode(r, n, &c), 0);
	ck_assert_uint_eq(c.nfields, EVENT_COMM_NFIELDS);
	ck_assert_uint_eq(c.pid, 2054);
	ck_assert_uint_eq(c.tid, 2054);
	ck_assert_uint_eq(c.misc & MISC_COMM_EXEC, 0);
	assert_str(&c.comm, "perf-exec");

	n = unhex(real_fork, r, sizeof(r));
	ck_assert_int_eq(event_fork__decode(r, n, &f), 0);
	ck_assert_uint_eq(f.nfields, EVENT_FORK_NFIELDS);
	ck_assert_uint_eq(f.pid, 2056);
	ck_assert_uint_eq(f.ppid, 2054);
	ck_assert_uint_eq(f.tid, 2056);
	ck_assert_uint_eq(f.ptid, 2054);
	ck_assert_uint_eq(f.time, 82910483586ULL);
}
END_TEST

START_TEST(test_real_namespaces_cgroup_switch)
{
	unsigned char r[256];
	size_t n = unhex(real_namespaces, r, sizeof(r));
	struct event_namespaces ns;
	struct event_cgroup cg;
	struct event_switch sw;
	uint64_t dev = 0, ino = 0;

	ck_assert_int_eq(event_namespaces__decode(r, n, &ns), 0);
	ck_assert_uint_eq(ns.nfields, EVENT_NAMESPACES_NFIELDS);
	ck_assert_uint_eq(ns.pid, 2);
	ck_assert_uint_eq(ns.tid, 2);
	ck_assert_uint_eq(ns.nr_namespaces, 7);
	ck_assert_uint_eq(ns.nr_fit, 7);
	ck_assert(event_namespaces__link(&ns, 0, &dev, &ino));
	ck_assert_uint_eq(dev, 4);
	ck_assert_uint_eq(ino, 0xeffffff9);
	ck_assert(event_namespaces__link(&ns, EVENT_NAMESPACES_CGROUP, &dev, &ino));
	ck_assert_uint_eq(dev, 4);
	ck_assert_uint_eq(ino, 0xeffffffb);
	ck_assert(!event_namespaces__link(&ns, 7, &dev, &ino));

	n = unhex(real_cgroup, r, sizeof(r));
	ck_assert_int_eq(event_cgroup__decode(r, n, &cg), 0);
	ck_assert_uint_eq(cg.id, 1);
	assert_str(&cg.path, "/");

	n = unhex(real_switch, r, sizeof(r));
	ck_assert_int_eq(event_switch__decode(r, n, &sw), 0);
	ck_assert_uint_eq(sw.nfields, EVENT_SWITCH_NFIELDS);
	ck_assert(sw.out);
	ck_assert(sw.preempt);
	ck_assert_uint_eq(sw.next_prev_pid, 4591);
	ck_assert_uint_eq(sw.next_prev_tid, 4593);
}
END_TEST

START_TEST(test_real_user_records)
{
	unsigned char r[128];
	size_t n = unhex(real_id_index, r, sizeof(r));
	struct event_id_index ix;
	struct event_id_index_entry e;
	struct event_event_update up;
	struct event_thread_map tm;
	struct event_cpu_map cm;
	struct event_str comm;
	uint64_t pid;

	ck_assert_int_eq(event_id_index__decode(r, n, &ix), 0);
	ck_assert_uint_eq(ix.nr, 2);
	ck_assert_uint_eq(ix.max_nr, 2);
	ck_assert(!ix.has_vcpu);
	ck_assert(event_id_index__entry(&ix, 1, &e));
	ck_assert_uint_eq(e.id, 18);
	ck_assert_uint_eq(e.idx, 1);
	ck_assert_uint_eq(e.cpu, 1);
	ck_assert_uint_eq(e.tid, 2054);
	ck_assert_uint_eq(e.machine_pid, 0);
	ck_assert(!event_id_index__entry(&ix, 2, &e));

	n = unhex(real_update_unit, r, sizeof(r));
	ck_assert_int_eq(event_event_update__decode(r, n, &up), 0);
	ck_assert_uint_eq(up.type, EVENT_UPDATE_UNIT);
	ck_assert_uint_eq(up.id, 17);
	assert_str(&up.str, "msec");
	n = unhex(real_update_scale, r, sizeof(r));
	ck_assert_int_eq(event_event_update__decode(r, n, &up), 0);
	ck_assert_uint_eq(up.type, EVENT_UPDATE_SCALE);
	ck_assert(up.has_scale);
	ck_assert(up.scale > 0.999e-6 && up.scale < 1.001e-6);

	n = unhex(real_thread_map, r, sizeof(r));
	ck_assert_int_eq(event_thread_map__decode(r, n, &tm), 0);
	ck_assert_uint_eq(tm.nr, 1);
	ck_assert_uint_eq(tm.nr_fit, 1);
	ck_assert(event_thread_map__entry(&tm, 0, &pid, &comm));
	ck_assert_uint_eq(pid, 2054);
	ck_assert(comm.nul);
	ck_assert_uint_eq(comm.len, 0);

	n = unhex(real_cpu_map, r, sizeof(r));
	ck_assert_int_eq(event_cpu_map__decode(r, n, &cm), 0);
	ck_assert_uint_eq(cm.data_len, 8);
	ck_assert_uint_eq(cm.data[0], 2);	/* RANGE */
	ck_assert_uint_eq(cm.data[6], 1);	/* end cpu 1 */
}
END_TEST

/* --- built records: the types no pinned recording has --------------------------- */

START_TEST(test_built_kernel_records)
{
	struct rb b;
	const unsigned char *p;
	struct event_lost lo;
	struct event_lost_samples ls;
	struct event_read rd;
	struct event_throttle th;
	struct event_ksymbol ks;
	struct event_bpf_event bpf;
	struct event_text_poke tp;
	struct event_aux aux;
	struct event_itrace_start it;
	struct event_aux_output_hw_id hw;
	struct event_switch sw;
	static const uint8_t tag[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	rb_init(&b, REC_LOST, 0);
	rb_u64(&b, 7);
	rb_u64(&b, 55);
	p = rb_done(&b);
	ck_assert_int_eq(event_lost__decode(p, b.n, &lo), 0);
	ck_assert_uint_eq(lo.id, 7);
	ck_assert_uint_eq(lo.lost, 55);

	rb_init(&b, REC_LOST_SAMPLES, 0);
	rb_u64(&b, 66);
	p = rb_done(&b);
	ck_assert_int_eq(event_lost_samples__decode(p, b.n, &ls), 0);
	ck_assert_uint_eq(ls.lost, 66);

	rb_init(&b, REC_READ, 0);
	rb_u32(&b, 5);
	rb_u32(&b, 6);
	for (uint64_t v = 11; v <= 55; v += 11)
		rb_u64(&b, v);
	p = rb_done(&b);
	ck_assert_int_eq(event_read__decode(p, b.n, &rd), 0);
	ck_assert_uint_eq(rd.pid, 5);
	ck_assert_uint_eq(rd.tid, 6);
	ck_assert_uint_eq(rd.value, 11);
	ck_assert_uint_eq(rd.time_enabled, 22);
	ck_assert_uint_eq(rd.time_running, 33);
	ck_assert_uint_eq(rd.id, 44);
	ck_assert_uint_eq(rd.lost, 55);

	rb_init(&b, REC_THROTTLE, 0);
	rb_u64(&b, 1000);
	rb_u64(&b, 3);
	rb_u64(&b, 4);
	p = rb_done(&b);
	ck_assert_int_eq(event_throttle__decode(p, b.n, &th), 0);
	ck_assert_uint_eq(th.time, 1000);
	ck_assert_uint_eq(th.id, 3);
	ck_assert_uint_eq(th.stream_id, 4);

	rb_init(&b, REC_KSYMBOL, 0);
	rb_u64(&b, 0xffffffffa0000000ULL);
	rb_u32(&b, 0x123);
	rb_u16(&b, 1);
	rb_u16(&b, 1);
	rb_add(&b, "bpf_prog_abc", 13);
	p = rb_done(&b);
	ck_assert_int_eq(event_ksymbol__decode(p, b.n, &ks), 0);
	ck_assert_uint_eq(ks.addr, 0xffffffffa0000000ULL);
	ck_assert_uint_eq(ks.len, 0x123);
	ck_assert_uint_eq(ks.ksym_type, 1);
	ck_assert_uint_eq(ks.flags, 1);
	assert_str(&ks.name, "bpf_prog_abc");

	rb_init(&b, REC_BPF_EVENT, 0);
	rb_u16(&b, 1);
	rb_u16(&b, 0);
	rb_u32(&b, 42);
	rb_add(&b, tag, 8);
	p = rb_done(&b);
	ck_assert_int_eq(event_bpf_event__decode(p, b.n, &bpf), 0);
	ck_assert_uint_eq(bpf.type, 1);
	ck_assert_uint_eq(bpf.id, 42);
	ck_assert(!memcmp(bpf.tag, tag, 8));

	rb_init(&b, REC_TEXT_POKE, 0);
	rb_u64(&b, 0xffffffff81000010ULL);
	rb_u16(&b, 2);
	rb_u16(&b, 3);
	rb_add(&b, "\x90\x90\xe8\x01\x02", 5);
	p = rb_done(&b);
	ck_assert_int_eq(event_text_poke__decode(p, b.n, &tp), 0);
	ck_assert_uint_eq(tp.addr, 0xffffffff81000010ULL);
	ck_assert_uint_eq(tp.old_len, 2);
	ck_assert_uint_eq(tp.new_len, 3);
	ck_assert_uint_eq(tp.bytes_avail, b.n - 20);
	ck_assert_uint_eq(tp.bytes[2], 0xe8);

	rb_init(&b, REC_AUX, 0);
	rb_u64(&b, 0x1000);
	rb_u64(&b, 0x200);
	rb_u64(&b, 5);
	p = rb_done(&b);
	ck_assert_int_eq(event_aux__decode(p, b.n, &aux), 0);
	ck_assert_uint_eq(aux.aux_offset, 0x1000);
	ck_assert_uint_eq(aux.aux_size, 0x200);
	ck_assert_uint_eq(aux.flags, 5);

	rb_init(&b, REC_ITRACE_START, 0);
	rb_u32(&b, 10);
	rb_u32(&b, 11);
	p = rb_done(&b);
	ck_assert_int_eq(event_itrace_start__decode(p, b.n, &it), 0);
	ck_assert_uint_eq(it.pid, 10);
	ck_assert_uint_eq(it.tid, 11);

	rb_init(&b, REC_AUX_OUTPUT_HW_ID, 0);
	rb_u64(&b, 0x77);
	p = rb_done(&b);
	ck_assert_int_eq(event_aux_output_hw_id__decode(p, b.n, &hw), 0);
	ck_assert_uint_eq(hw.hw_id, 0x77);

	rb_init(&b, REC_SWITCH, MISC_SWITCH_OUT);	/* no body */
	p = rb_done(&b);
	ck_assert_int_eq(event_switch__decode(p, b.n, &sw), 0);
	ck_assert_uint_eq(sw.nfields, EVENT_SWITCH_PLAIN_NFIELDS);
	ck_assert(sw.out);
	ck_assert(!sw.preempt);
}
END_TEST

START_TEST(test_built_user_records)
{
	struct rb b;
	const unsigned char *p;
	struct event_stat_config sc;
	struct event_stat st;
	struct event_stat_round sr;
	struct event_time_conv tc;
	struct event_auxtrace_info ai;
	struct event_auxtrace at;
	struct event_tracing_data td;
	struct event_build_id bi;
	struct event_auxtrace_error ae;
	uint64_t tag = 9, val = 9;

	rb_init(&b, REC_STAT_CONFIG, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 0);
	rb_u64(&b, 1);
	rb_u64(&b, 2);
	rb_u64(&b, 1);
	p = rb_done(&b);
	ck_assert_int_eq(event_stat_config__decode(p, b.n, &sc), 0);
	ck_assert_uint_eq(sc.nr, 2);
	ck_assert_uint_eq(sc.nr_fit, 2);
	ck_assert(event_stat_config__entry(&sc, 1, &tag, &val));
	ck_assert_uint_eq(tag, 2);
	ck_assert_uint_eq(val, 1);

	rb_init(&b, REC_STAT, 0);
	rb_u64(&b, 17);
	rb_u32(&b, 3);
	rb_u32(&b, (uint32_t)-1);
	rb_u64(&b, 100);
	rb_u64(&b, 200);
	rb_u64(&b, 300);
	p = rb_done(&b);
	ck_assert_int_eq(event_stat__decode(p, b.n, &st), 0);
	ck_assert_uint_eq(st.id, 17);
	ck_assert_uint_eq(st.cpu, 3);
	ck_assert_int_eq((int32_t)st.thread, -1);
	ck_assert_uint_eq(st.val, 100);
	ck_assert_uint_eq(st.ena, 200);
	ck_assert_uint_eq(st.run, 300);

	rb_init(&b, REC_STAT_ROUND, 0);
	rb_u64(&b, 1);
	rb_u64(&b, 12345);
	p = rb_done(&b);
	ck_assert_int_eq(event_stat_round__decode(p, b.n, &sr), 0);
	ck_assert_uint_eq(sr.type, 1);
	ck_assert_uint_eq(sr.time, 12345);

	/* old 32-byte TIME_CONV, then the 56-byte form */
	rb_init(&b, REC_TIME_CONV, 0);
	rb_u64(&b, 10);
	rb_u64(&b, 20);
	rb_u64(&b, 30);
	p = rb_done(&b);
	ck_assert_int_eq(event_time_conv__decode(p, b.n, &tc), 0);
	ck_assert(!tc.extended);
	ck_assert_uint_eq(tc.time_shift, 10);
	ck_assert_uint_eq(tc.time_mult, 20);
	ck_assert_uint_eq(tc.time_zero, 30);
	rb_u64(&b, 40);
	rb_u64(&b, 0xffff);
	rb_u8(&b, 1);
	rb_u8(&b, 1);
	p = rb_done(&b);
	ck_assert_uint_eq(b.n, 56);
	ck_assert_int_eq(event_time_conv__decode(p, b.n, &tc), 0);
	ck_assert(tc.extended);
	ck_assert_uint_eq(tc.nfields, EVENT_TIME_CONV_EXT_NFIELDS);
	ck_assert_uint_eq(tc.time_cycles, 40);
	ck_assert_uint_eq(tc.time_mask, 0xffff);
	ck_assert_uint_eq(tc.cap_user_time_zero, 1);
	ck_assert_uint_eq(tc.cap_user_time_short, 1);

	/* HEADER_BUILD_ID as perf inject -b writes it: 100 bytes */
	rb_init(&b, REC_HEADER_BUILD_ID, MISC_USER);
	rb_u32(&b, (uint32_t)-1);
	for (uint8_t i = 0; i < 20; i++)
		rb_u8(&b, (uint8_t)(0xa0 + i));
	rb_u8(&b, 0);
	rb_add(&b, "\0\0\0", 3);
	rb_add(&b, "/usr/lib/libc.so.6", 19);
	while (b.n < 100)
		rb_u8(&b, 0);
	p = rb_done(&b);
	ck_assert_int_eq(event_build_id__decode(p, 100, &bi), 0);
	ck_assert_int_eq(bi.pid, -1);
	ck_assert_uint_eq(bi.misc, MISC_USER);
	ck_assert_uint_eq(bi.build_id[0], 0xa0);
	ck_assert_uint_eq(bi.build_id[19], 0xb3);
	ck_assert_uint_eq(bi.size, 0);
	ck_assert_uint_eq(bi.filename.len, strlen("/usr/lib/libc.so.6"));
	ck_assert(bi.filename.nul);
	ck_assert_int_eq(event_build_id__decode(p, 36, &bi), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(bi.nfields, 3);

	/* AUXTRACE_ERROR, old form (112 bytes) then with machine_pid and vcpu */
	rb_init(&b, REC_AUXTRACE_ERROR, 0);
	for (uint32_t v = 1; v <= 6; v++)
		rb_u32(&b, v);
	rb_u64(&b, 0xffffffff81000000ULL);
	rb_u64(&b, 999);
	rb_add(&b, "decoder error", 14);
	while (b.n < 112)
		rb_u8(&b, 0);
	p = rb_done(&b);
	ck_assert_int_eq(event_auxtrace_error__decode(p, b.n, &ae), 0);
	ck_assert_uint_eq(ae.type, 1);
	ck_assert_uint_eq(ae.code, 2);
	ck_assert_uint_eq(ae.cpu, 3);
	ck_assert_uint_eq(ae.pid, 4);
	ck_assert_uint_eq(ae.tid, 5);
	ck_assert_uint_eq(ae.fmt, 6);
	ck_assert_uint_eq(ae.ip, 0xffffffff81000000ULL);
	ck_assert_uint_eq(ae.time, 999);
	assert_str(&ae.msg, "decoder error");
	ck_assert(!ae.has_machine_pid);
	ck_assert_uint_eq(ae.nfields, EVENT_AUXTRACE_ERROR_NFIELDS);
	rb_u32(&b, 42);
	rb_u32(&b, 3);
	p = rb_done(&b);
	ck_assert_int_eq(event_auxtrace_error__decode(p, b.n, &ae), 0);
	ck_assert(ae.has_machine_pid);
	ck_assert_uint_eq(ae.machine_pid, 42);
	ck_assert_uint_eq(ae.vcpu, 3);
	ck_assert_int_eq(event_auxtrace_error__decode(p, 111, &ae), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(ae.nfields, 8);
	ck_assert_uint_eq(ae.msg.len, strlen("decoder error"));

	rb_init(&b, REC_HEADER_TRACING_DATA, 0);
	rb_u32(&b, 0x18b0);
	rb_u32(&b, 0);
	p = rb_done(&b);
	ck_assert_int_eq(event_tracing_data__decode(p, b.n, &td), 0);
	ck_assert_uint_eq(td.size, 0x18b0);
	ck_assert_int_eq(event_tracing_data__decode(p, 11, &td), -DIAG_RECORD_SIZE);
	ck_assert_int_eq(event_tracing_data__decode(p, 12, &td), 0);

	rb_init(&b, REC_AUXTRACE_INFO, 0);
	rb_u32(&b, 6);
	rb_u32(&b, 0);
	rb_u64(&b, 0xabc);
	p = rb_done(&b);
	ck_assert_int_eq(event_auxtrace_info__decode(p, b.n, &ai), 0);
	ck_assert_uint_eq(ai.type, 6);
	ck_assert_uint_eq(ai.priv_len, 8);
	ck_assert_uint_eq(ai.priv[0], 0xbc);

	rb_init(&b, REC_AUXTRACE, 0);
	rb_u64(&b, 0x4000);
	rb_u64(&b, 0x100);
	rb_u64(&b, 0xdead);
	rb_u32(&b, 1);
	rb_u32(&b, 77);
	rb_u32(&b, 2);
	rb_u32(&b, 0);
	p = rb_done(&b);
	ck_assert_int_eq(event_auxtrace__decode(p, b.n, &at), 0);
	ck_assert_uint_eq(at.size, 0x4000);
	ck_assert_uint_eq(at.offset, 0x100);
	ck_assert_uint_eq(at.reference, 0xdead);
	ck_assert_uint_eq(at.idx, 1);
	ck_assert_uint_eq(at.tid, 77);
	ck_assert_uint_eq(at.cpu, 2);
}
END_TEST

/* --- short records ------------------------------------------------------------ */

#define WRAP(name) \
	static int w_##name(const void *p, size_t n, unsigned *nf) \
	{ \
		struct event_##name ev; \
		int err = event_##name##__decode(p, n, &ev); \
		*nf = ev.nfields; \
		return err; \
	}
WRAP(mmap) WRAP(mmap2) WRAP(comm) WRAP(fork) WRAP(namespaces) WRAP(cgroup)
WRAP(switch) WRAP(id_index) WRAP(event_update) WRAP(thread_map) WRAP(cpu_map)

/*
 * Every prefix of a complete record shorter than `min_ok` bytes gives -DIAG_RECORD_SIZE
 * and the full record gives 0; nfields never decreases as the prefix grows. Each
 * prefix is copied to a buffer of exactly its size, so a read past it is a sanitizer
 * error under `make SANITIZE=address,undefined check`.
 */
static void check_prefixes(int (*dec)(const void *, size_t, unsigned *), const char *hex,
			   size_t min_ok)
{
	unsigned char r[256];
	size_t n = unhex(hex, r, sizeof(r));
	unsigned prev = 0, nf;

	for (size_t sz = 0; sz <= n; sz++) {
		unsigned char *copy = malloc(sz ? sz : 1);
		int err;

		ck_assert_ptr_nonnull(copy);
		memcpy(copy, r, sz);
		err = dec(copy, sz, &nf);
		free(copy);
		if (sz < min_ok)
			ck_assert_msg(err == -DIAG_RECORD_SIZE, "size %zu: %d", sz, err);
		else if (sz == n)
			ck_assert_msg(err == 0, "size %zu: %d", sz, err);
		ck_assert_uint_ge(nf, prev);
		prev = nf;
	}
}

START_TEST(test_short_real_records)
{
	check_prefixes(w_mmap, real_mmap, 41);		/* fields and a name byte */
	check_prefixes(w_mmap2, real_mmap2, 73);
	check_prefixes(w_mmap2, real_mmap2_bid, 73);
	check_prefixes(w_comm, real_comm, 17);
	check_prefixes(w_fork, real_fork, 32);
	check_prefixes(w_namespaces, real_namespaces, 24 + 7 * 16);
	check_prefixes(w_cgroup, real_cgroup, 17);
	check_prefixes(w_switch, real_switch, 16);
	check_prefixes(w_id_index, real_id_index, 16 + 2 * 32);
	check_prefixes(w_event_update, real_update_unit, 25);
	check_prefixes(w_event_update, real_update_scale, 32);
	check_prefixes(w_thread_map, real_thread_map, 16 + 24);
	check_prefixes(w_cpu_map, real_cpu_map, 10);
}
END_TEST

/* Partial views: what fits is there, the rest is 0, nfields counts it. */
START_TEST(test_short_partial_fields)
{
	unsigned char r[128];
	size_t n = unhex(real_fork, r, sizeof(r));
	struct event_fork f;
	struct event_mmap2 m;
	struct event_comm c;
	struct event_read rd;
	struct rb b;
	const unsigned char *p;

	(void)n;
	/* FORK without its time: the four ids, which perf's readers need */
	ck_assert_int_eq(event_fork__decode(r, 24, &f), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(f.nfields, EVENT_FORK_IDS);
	ck_assert_uint_eq(f.ptid, 2054);
	ck_assert_uint_eq(f.time, 0);
	/* half a tid */
	ck_assert_int_eq(event_fork__decode(r, 18, &f), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(f.nfields, 2);
	ck_assert_uint_eq(f.ppid, 2054);
	ck_assert_uint_eq(f.tid, 0);
	/* below the header */
	ck_assert_int_eq(event_fork__decode(r, 4, &f), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(f.nfields, 0);

	/* build-id bytes past the end read 0; no file name byte */
	n = unhex(real_mmap2_bid, r, sizeof(r));
	ck_assert_int_eq(event_mmap2__decode(r, 50, &m), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(m.build_id_size, 20);
	ck_assert_uint_eq(m.build_id[5], 0xaa);
	ck_assert_uint_eq(m.build_id[6], 0);
	ck_assert_uint_eq(m.prot, 0);
	ck_assert_ptr_null(m.filename.s);
	ck_assert(!m.filename.nul);

	/* a COMM whose name runs to the record end without a NUL: bounded, not an
	 * error (the fields are there), but not NUL-terminated */
	rb_init(&b, REC_COMM, 0);
	rb_u32(&b, 1);
	rb_u32(&b, 2);
	rb_add(&b, "abcdefgh", 8);
	p = rb_done(&b);
	ck_assert_int_eq(event_comm__decode(p, b.n, &c), 0);
	ck_assert(!c.comm.nul);
	ck_assert_uint_eq(c.comm.len, 8);

	/* READ with only value: the later fields are 0 and not counted */
	rb_init(&b, REC_READ, 0);
	rb_u32(&b, 5);
	rb_u32(&b, 6);
	rb_u64(&b, 11);
	p = rb_done(&b);
	ck_assert_int_eq(event_read__decode(p, b.n, &rd), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(rd.nfields, 3);
	ck_assert_uint_eq(rd.value, 11);
	ck_assert_uint_eq(rd.time_enabled, 0);
}
END_TEST

/* Counts larger than the record: errors, and the accessors stay inside. */
START_TEST(test_short_arrays)
{
	struct rb b;
	const unsigned char *p;
	struct event_namespaces ns;
	struct event_thread_map tm;
	struct event_stat_config sc;
	struct event_id_index ix;
	struct event_text_poke tp;
	struct event_id_index_entry e;
	uint64_t dev, ino, pid;
	struct event_str comm;

	rb_init(&b, REC_NAMESPACES, 0);
	rb_u32(&b, 1);
	rb_u32(&b, 1);
	rb_u64(&b, 1000);
	rb_u64(&b, 4);
	rb_u64(&b, 5);
	p = rb_done(&b);
	ck_assert_int_eq(event_namespaces__decode(p, b.n, &ns), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(ns.nr_fit, 1);
	ck_assert(event_namespaces__link(&ns, 0, &dev, &ino));
	ck_assert(!event_namespaces__link(&ns, 1, &dev, &ino));

	rb_init(&b, REC_THREAD_MAP, 0);
	rb_u64(&b, 3);
	rb_u64(&b, 77);
	rb_add(&b, "0123456789abcdef", 16);	/* a full comm without NUL */
	p = rb_done(&b);
	ck_assert_int_eq(event_thread_map__decode(p, b.n, &tm), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(tm.nr_fit, 1);
	ck_assert(event_thread_map__entry(&tm, 0, &pid, &comm));
	ck_assert_uint_eq(pid, 77);
	ck_assert(!comm.nul);
	ck_assert_uint_eq(comm.len, 16);
	ck_assert(!event_thread_map__entry(&tm, 1, &pid, &comm));

	rb_init(&b, REC_STAT_CONFIG, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 0);
	rb_u64(&b, 1);
	p = rb_done(&b);
	ck_assert_int_eq(event_stat_config__decode(p, b.n, &sc), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(sc.nr_fit, 1);

	rb_init(&b, REC_ID_INDEX, 0);
	rb_u64(&b, 2);
	rb_u64(&b, 1);
	rb_u64(&b, 0);
	rb_u64(&b, 0);
	rb_u64(&b, 0);
	p = rb_done(&b);
	ck_assert_int_eq(event_id_index__decode(p, b.n, &ix), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(ix.nr, 2);
	ck_assert_uint_eq(ix.max_nr, 1);
	ck_assert(!event_id_index__entry(&ix, 0, &e));	/* nr > max_nr: no entry */

	rb_init(&b, REC_TEXT_POKE, 0);
	rb_u64(&b, 0x1000);
	rb_u16(&b, 10);
	rb_u16(&b, 10);
	rb_u32(&b, 0x90909090);
	p = rb_done(&b);
	ck_assert_int_eq(event_text_poke__decode(p, b.n, &tp), -DIAG_RECORD_SIZE);
	ck_assert_uint_eq(tp.nfields, EVENT_TEXT_POKE_NFIELDS);
	ck_assert_uint_eq(tp.bytes_avail, 4);
}
END_TEST

Suite *event_suite(void)
{
	Suite *s = suite_create("event");
	TCase *tc = tcase_create("event");

	tcase_add_test(tc, test_real_mmap);
	tcase_add_test(tc, test_real_mmap2);
	tcase_add_test(tc, test_real_mmap2_build_id);
	tcase_add_test(tc, test_real_comm_fork);
	tcase_add_test(tc, test_real_namespaces_cgroup_switch);
	tcase_add_test(tc, test_real_user_records);
	tcase_add_test(tc, test_built_kernel_records);
	tcase_add_test(tc, test_built_user_records);
	tcase_add_test(tc, test_short_real_records);
	tcase_add_test(tc, test_short_partial_fields);
	tcase_add_test(tc, test_short_arrays);
	suite_add_tcase(s, tc);
	return s;
}
