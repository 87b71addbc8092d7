/* Unit tests of format/: header, attrs, samples, id lookup, byte swapping. */
#include <check.h>
#include <string.h>

#include "format/attr.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "testlib.h"
#include "banned.h"

static void make_header(unsigned char *h, bool swap)
{
	uint64_t f[13] = { PERF_MAGIC2, 104, 144, 104, 144, 248, 1000, 0, 0,
			   0x86717ffcULL, 0, 0, 0 };

	for (int i = 0; i < 13; i++) {
		uint64_t v = swap ? __builtin_bswap64(f[i]) : f[i];
		memcpy(h + 8 * i, &v, 8);
	}
}

START_TEST(test_header_native_and_swapped)
{
	unsigned char h[104];
	struct file_header fh;
	struct diag d;
	bool swap, pipe;

	for (int s = 0; s < 2; s++) {
		make_header(h, s);
		ck_assert_int_eq(file_header__probe(h, sizeof(h), &pipe, &swap), 0);
		ck_assert(!pipe);
		ck_assert_int_eq(swap, s);
		ck_assert_int_eq(file_header__read(&fh, &swap, h, sizeof(h), 5000, "f", &d), 0);
		ck_assert_uint_eq(fh.attr_size, 144);
		ck_assert_uint_eq(fh.data.offset, 248);
		ck_assert_uint_eq(fh.data.size, 1000);
		ck_assert(file_header__has_feat(&fh, FEAT_HOSTNAME));
		ck_assert(!file_header__has_feat(&fh, FEAT_DIR_FORMAT));
		ck_assert(file_header__has_feat(&fh, FEAT_PMU_CAPS));
	}
}
END_TEST

START_TEST(test_header_errors)
{
	unsigned char h[104];
	struct file_header fh;
	struct diag d;
	bool swap;

	make_header(h, false);
	memcpy(h, "NOTAPERF", 8);
	ck_assert_int_eq(file_header__read(&fh, &swap, h, sizeof(h), 5000, "x", &d),
			 -DIAG_NOT_PERF);
	ck_assert_uint_eq(d.offset, 0);
	make_header(h, false);
	ck_assert_int_eq(file_header__read(&fh, &swap, h, 50, 50, "x", &d), -DIAG_TRUNCATED);
	ck_assert_int_eq(file_header__read(&fh, &swap, h, 0, 0, "x", &d), -DIAG_TRUNCATED);
	bytes__put_u64(h + 16, 0);	/* attr_size 0: recording not finished */
	ck_assert_int_eq(file_header__read(&fh, &swap, h, sizeof(h), 5000, "x", &d),
			 -DIAG_BAD_HEADER);
	ck_assert_uint_eq(d.offset, 16);
	make_header(h, false);
	bytes__put_u64(h + 24, 4990);	/* attrs past the end */
	ck_assert_int_eq(file_header__read(&fh, &swap, h, sizeof(h), 5000, "x", &d),
			 -DIAG_BAD_HEADER);
	ck_assert_str_eq(d.path, "x");
}
END_TEST

START_TEST(test_attr_roundtrip_and_swap)
{
	struct event_attr a = testlib_attr(SAMPLE_CPU), b;
	unsigned char buf[ATTR_SIZE_VER8], sw[ATTR_SIZE_VER8];

	a.size = ATTR_SIZE_VER8;
	a.config3 = 0x1234;
	ck_assert_int_eq(attr__encode(&a, buf, ATTR_SIZE_VER8), 0);
	ck_assert_int_eq(attr__decode(&b, buf, sizeof(buf), false), 0);
	ck_assert_mem_eq(&a, &b, sizeof(a));
	/* Build the big-endian image: integers swapped, flag bits reversed per byte. */
	memcpy(sw, buf, sizeof(buf));
	bytes__put_u32(sw, __builtin_bswap32(bytes__u32(buf)));
	bytes__put_u32(sw + 4, __builtin_bswap32(bytes__u32(buf + 4)));
	for (int off = 8; off < 40; off += 8)
		bytes__put_u64(sw + off, __builtin_bswap64(bytes__u64(buf + off)));
	for (int i = 0; i < 8; i++) {
		unsigned char v = buf[40 + i], r = 0;
		for (int k = 0; k < 8; k++)
			if (v & (1u << k))
				r |= (unsigned char)(1u << (7 - k));
		sw[40 + i] = r;
	}
	bytes__put_u32(sw + 48, __builtin_bswap32(bytes__u32(buf + 48)));
	bytes__put_u32(sw + 52, __builtin_bswap32(bytes__u32(buf + 52)));
	for (int off = 56; off < 88; off += 8)
		bytes__put_u64(sw + off, __builtin_bswap64(bytes__u64(buf + off)));
	bytes__put_u32(sw + 88, __builtin_bswap32(bytes__u32(buf + 88)));
	bytes__put_u32(sw + 92, __builtin_bswap32(bytes__u32(buf + 92)));
	bytes__put_u64(sw + 96, __builtin_bswap64(bytes__u64(buf + 96)));
	bytes__put_u32(sw + 104, __builtin_bswap32(bytes__u32(buf + 104)));
	bytes__put_u16(sw + 108, __builtin_bswap16(bytes__u16(buf + 108)));
	bytes__put_u32(sw + 112, __builtin_bswap32(bytes__u32(buf + 112)));
	bytes__put_u64(sw + 120, __builtin_bswap64(bytes__u64(buf + 120)));
	bytes__put_u64(sw + 128, __builtin_bswap64(bytes__u64(buf + 128)));
	ck_assert_int_eq(attr__decode(&b, sw, sizeof(sw), true), 0);
	ck_assert_mem_eq(&a, &b, sizeof(a));
	ck_assert(attr__flag(&b, ATTR_SAMPLE_ID_ALL));
	ck_assert(attr__flag(&b, ATTR_FREQ));
	/* sizes: 0 means 64; below 64 or beyond the buffer is an error */
	bytes__put_u32(buf + 4, 0);
	ck_assert_int_eq(attr__decode(&b, buf, sizeof(buf), false), 0);
	ck_assert_uint_eq(b.size, 64);
	bytes__put_u32(buf + 4, 200);
	ck_assert_int_eq(attr__decode(&b, buf, sizeof(buf), false), -DIAG_BAD_ATTR);
}
END_TEST

START_TEST(test_id_pos)
{
	struct event_attr a = testlib_attr(0);

	ck_assert_int_eq(attr__id_pos(&a), -1);
	a.sample_type |= SAMPLE_ID;
	ck_assert_int_eq(attr__id_pos(&a), 3);	/* IP, TID, TIME before it */
	ck_assert_int_eq(attr__is_pos(&a), 1);
	a.sample_type |= SAMPLE_CPU | SAMPLE_STREAM_ID;
	ck_assert_int_eq(attr__is_pos(&a), 3);
	a.sample_type |= SAMPLE_IDENTIFIER;
	ck_assert_int_eq(attr__id_pos(&a), 0);
	ck_assert_int_eq(attr__is_pos(&a), 1);
}
END_TEST

/* One sample with every fixed-size and variable field, checked field by field. */
/* sample__parse(), with sample__check() asserted to agree (the scan pass checks every
 * sample that way, and delivery then parses it: a record one accepts and the other
 * rejects would be reported at the wrong pass, or not at all). */
static int parse_checked(struct sample *s, const struct event_attr *a, const void *rec,
			 size_t size)
{
	int err = sample__parse(s, a, rec, size);

	ck_assert_int_eq(sample__check(a, rec, size), err);
	return err;
}

START_TEST(test_sample_every_field)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf b = { 0 };
	struct sample s;
	uint64_t hdr_pos;

	a.sample_type = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID | SAMPLE_TIME | SAMPLE_ADDR |
			SAMPLE_ID | SAMPLE_STREAM_ID | SAMPLE_CPU | SAMPLE_PERIOD | SAMPLE_READ |
			SAMPLE_CALLCHAIN | SAMPLE_RAW | SAMPLE_BRANCH_STACK |
			SAMPLE_REGS_USER | SAMPLE_STACK_USER | SAMPLE_WEIGHT_STRUCT |
			SAMPLE_DATA_SRC | SAMPLE_TRANSACTION | SAMPLE_REGS_INTR |
			SAMPLE_PHYS_ADDR | SAMPLE_CGROUP | SAMPLE_DATA_PAGE_SIZE |
			SAMPLE_CODE_PAGE_SIZE | SAMPLE_AUX;
	a.read_format = FORMAT_GROUP | FORMAT_ID | FORMAT_LOST | FORMAT_TOTAL_TIME_ENABLED;
	a.sample_regs_user = 0x3;	/* two registers */
	a.sample_regs_intr = 0x1;
	a.branch_sample_type = 1ULL << 17;	/* HW_INDEX */
	testlib_buf_u64(&b, 0);		/* header, patched below */
	hdr_pos = 0;
	testlib_buf_u64(&b, 77);	/* identifier */
	testlib_buf_u64(&b, 0x401000);	/* ip */
	testlib_buf_u32(&b, 10); testlib_buf_u32(&b, 11);	/* pid tid */
	testlib_buf_u64(&b, 123456789);	/* time */
	testlib_buf_u64(&b, 0xdead);	/* addr */
	testlib_buf_u64(&b, 77);	/* id */
	testlib_buf_u64(&b, 78);	/* stream id */
	testlib_buf_u32(&b, 3); testlib_buf_u32(&b, 0);	/* cpu */
	testlib_buf_u64(&b, 1000);	/* period */
	testlib_buf_u64(&b, 2);		/* read: nr */
	testlib_buf_u64(&b, 555);	/* time_enabled */
	for (int i = 0; i < 2; i++) {
		testlib_buf_u64(&b, 100 + i); testlib_buf_u64(&b, 77 + i); testlib_buf_u64(&b, 0);
	}
	testlib_buf_u64(&b, 3);		/* callchain nr */
	testlib_buf_u64(&b, CONTEXT_USER); testlib_buf_u64(&b, 0x401000);
	testlib_buf_u64(&b, 0x402000);
	testlib_buf_u32(&b, 12);	/* raw size, then 12 bytes: 4 + 12 = 16 */
	testlib_buf_add(&b, "rawrawrawraw", 12);
	testlib_buf_u64(&b, 1);		/* branch nr */
	testlib_buf_u64(&b, 9);		/* hw_idx */
	testlib_buf_u64(&b, 1); testlib_buf_u64(&b, 2); testlib_buf_u64(&b, 3);
	testlib_buf_u64(&b, 2);		/* regs user abi 64 */
	testlib_buf_u64(&b, 0xa); testlib_buf_u64(&b, 0xb);
	testlib_buf_u64(&b, 16);	/* stack user size */
	testlib_buf_add(&b, "0123456789abcdef", 16);
	testlib_buf_u64(&b, 8);		/* dyn size */
	testlib_buf_u64(&b, (uint64_t)7 << 48 | (uint64_t)5 << 32 | 300);	/* weight */
	testlib_buf_u64(&b, 0x42);	/* data_src */
	testlib_buf_u64(&b, 0x99);	/* transaction */
	testlib_buf_u64(&b, 2); testlib_buf_u64(&b, 0xc);	/* regs intr */
	testlib_buf_u64(&b, 0x1000);	/* phys */
	testlib_buf_u64(&b, 4);		/* cgroup */
	testlib_buf_u64(&b, 4096);	/* data page size */
	testlib_buf_u64(&b, 2097152);	/* code page size */
	testlib_buf_u64(&b, 8);		/* aux size */
	testlib_buf_add(&b, "auxauxau", 8);
	bytes__put_u32(b.p + hdr_pos, REC_SAMPLE);
	bytes__put_u16(b.p + 4, MISC_USER);
	bytes__put_u16(b.p + 6, (uint16_t)b.len);

	ck_assert_int_eq(parse_checked(&s, &a, b.p, b.len), 0);
	ck_assert_uint_eq(s.ip, 0x401000);
	ck_assert_uint_eq(s.pid, 10);
	ck_assert_uint_eq(s.tid, 11);
	ck_assert_uint_eq(s.time, 123456789);
	ck_assert_uint_eq(s.addr, 0xdead);
	ck_assert_uint_eq(s.id, 77);
	ck_assert_uint_eq(s.stream_id, 78);
	ck_assert_uint_eq(s.cpu, 3);
	ck_assert_uint_eq(s.period, 1000);
	ck_assert_uint_eq(s.read.nr, 2);
	ck_assert_uint_eq(s.read.time_enabled, 555);
	ck_assert_uint_eq(s.read.value_size, 24);
	ck_assert_uint_eq(bytes__u64(s.read.values + 24), 101);
	ck_assert_uint_eq(s.callchain_nr, 3);
	ck_assert_uint_eq(sample__callchain_ip(&s, 0), CONTEXT_USER);
	ck_assert_uint_eq(sample__callchain_ip(&s, 2), 0x402000);
	ck_assert_uint_eq(s.raw_size, 12);
	ck_assert_mem_eq(s.raw, "rawrawrawraw", 12);
	ck_assert_uint_eq(s.branch_nr, 1);
	ck_assert(s.branch_has_hw_idx);
	ck_assert_uint_eq(s.branch_hw_idx, 9);
	ck_assert_uint_eq(bytes__u64(s.branch + 16), 3);
	ck_assert_uint_eq(s.user_regs_abi, 2);
	ck_assert_uint_eq(bytes__u64(s.user_regs + 8), 0xb);
	ck_assert_uint_eq(s.user_stack_size, 16);
	ck_assert_uint_eq(s.user_stack_dyn_size, 8);
	ck_assert_uint_eq(s.weight, 300);
	ck_assert_uint_eq(s.ins_lat, 5);
	ck_assert_uint_eq(s.weight_var3, 7);
	ck_assert_uint_eq(s.data_src, 0x42);
	ck_assert_uint_eq(s.transaction, 0x99);
	ck_assert_uint_eq(s.intr_regs_abi, 2);
	ck_assert_uint_eq(bytes__u64(s.intr_regs), 0xc);
	ck_assert_uint_eq(s.phys_addr, 0x1000);
	ck_assert_uint_eq(s.cgroup, 4);
	ck_assert_uint_eq(s.data_page_size, 4096);
	ck_assert_uint_eq(s.code_page_size, 2097152);
	ck_assert_uint_eq(s.aux_size, 8);
	ck_assert_mem_eq(s.aux, "auxauxau", 8);
	/* every strictly shorter record is rejected, never read past its end */
	for (size_t cut = 8; cut < b.len; cut += 8) {
		bytes__put_u16(b.p + 6, (uint16_t)cut);
		ck_assert_int_eq(parse_checked(&s, &a, b.p, cut), -DIAG_BAD_SAMPLE);
	}
	testlib_buf_free(&b);
}
END_TEST

/* A branch stack sample of two entries followed by a WEIGHT: with HW_INDEX in
 * branch_sample_type a hw_idx word comes between nr and the entries. */
static void branch_record(struct testlib_buf *b, bool hw_idx)
{
	testlib_buf_u64(b, 0);		/* header, patched below */
	testlib_buf_u64(b, 0x401000);	/* ip */
	testlib_buf_u64(b, 2);		/* branch nr */
	if (hw_idx)
		testlib_buf_u64(b, 5);
	testlib_buf_u64(b, 0x401010); testlib_buf_u64(b, 0x402000);
	testlib_buf_u64(b, 1ULL << 1 | 7ULL << 4);	/* predicted, 7 cycles */
	testlib_buf_u64(b, 0xffffffff81000000ULL); testlib_buf_u64(b, 0);
	testlib_buf_u64(b, 1ULL | 0xa49dULL << 4);	/* mispredicted, 42141 cycles */
	testlib_buf_u64(b, 300);	/* weight */
	bytes__put_u32(b->p, REC_SAMPLE);
	bytes__put_u16(b->p + 4, MISC_USER);
	bytes__put_u16(b->p + 6, (uint16_t)b->len);
}

START_TEST(test_sample_branch_stack)
{
	struct event_attr a = testlib_attr(0);
	struct sample s;

	a.sample_type = SAMPLE_IP | SAMPLE_BRANCH_STACK | SAMPLE_WEIGHT;
	for (int hw = 0; hw < 2; hw++) {
		struct testlib_buf b = { 0 };
		struct sample_branch e0, e1;

		a.branch_sample_type = hw ? 1ULL << 17 /* HW_INDEX */ | 1 : 1;
		branch_record(&b, hw);
		ck_assert_int_eq(parse_checked(&s, &a, b.p, b.len), 0);
		ck_assert_uint_eq(s.branch_nr, 2);
		ck_assert(s.branch_has_hw_idx == (hw != 0));
		ck_assert_uint_eq(s.branch_hw_idx, hw ? 5 : 0);
		e0 = sample__branch(&s, 0);
		e1 = sample__branch(&s, 1);
		ck_assert_uint_eq(e0.from, 0x401010);
		ck_assert_uint_eq(e0.to, 0x402000);
		ck_assert_uint_eq(e0.flags, 2 | 7 << 4);
		ck_assert_uint_eq(e1.from, 0xffffffff81000000ULL);
		ck_assert_uint_eq(e1.to, 0);
		ck_assert_uint_eq(e1.flags, 1 | 0xa49dULL << 4);
		ck_assert_uint_eq(s.weight, 300);	/* the field after the entries */
		/* the same bytes read with the other attr misplace every field after nr:
		 * one word too many to read, or the entries shifted by one */
		a.branch_sample_type ^= 1ULL << 17;
		if (!hw) {
			ck_assert_int_eq(parse_checked(&s, &a, b.p, b.len), -DIAG_BAD_SAMPLE);
		} else {
			ck_assert_int_eq(parse_checked(&s, &a, b.p, b.len), 0);
			ck_assert_uint_eq(sample__branch(&s, 0).from, 5);
			ck_assert_uint_eq(s.weight, 1 | 0xa49dULL << 4);
		}
		a.branch_sample_type ^= 1ULL << 17;
		for (size_t cut = 8; cut < b.len; cut += 8) {
			bytes__put_u16(b.p + 6, (uint16_t)cut);
			ck_assert_int_eq(parse_checked(&s, &a, b.p, cut), -DIAG_BAD_SAMPLE);
		}
		testlib_buf_free(&b);
	}
	/* nr larger than the record can hold */
	{
		struct testlib_buf b = { 0 };

		a.branch_sample_type = 0;
		a.sample_type = SAMPLE_BRANCH_STACK;
		testlib_buf_u64(&b, 0);
		testlib_buf_u64(&b, 1ULL << 59);
		testlib_buf_u64(&b, 1); testlib_buf_u64(&b, 2); testlib_buf_u64(&b, 3);
		bytes__put_u32(b.p, REC_SAMPLE);
		bytes__put_u16(b.p + 6, (uint16_t)b.len);
		ck_assert_int_eq(parse_checked(&s, &a, b.p, b.len), -DIAG_BAD_SAMPLE);
		testlib_buf_free(&b);
	}
}
END_TEST

/* Each sample_type bit alone: the parser consumes exactly the bytes of that field. */
START_TEST(test_sample_single_bits)
{
	static const uint64_t bits[] = { SAMPLE_IP, SAMPLE_TID, SAMPLE_TIME, SAMPLE_ADDR,
		SAMPLE_ID, SAMPLE_STREAM_ID, SAMPLE_CPU, SAMPLE_PERIOD, SAMPLE_IDENTIFIER,
		SAMPLE_WEIGHT, SAMPLE_DATA_SRC, SAMPLE_TRANSACTION, SAMPLE_PHYS_ADDR,
		SAMPLE_CGROUP, SAMPLE_DATA_PAGE_SIZE, SAMPLE_CODE_PAGE_SIZE };
	struct event_attr a = testlib_attr(0);
	unsigned char rec[16];
	struct sample s;

	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]); i++) {
		a.sample_type = bits[i];
		bytes__put_u32(rec, REC_SAMPLE);
		bytes__put_u16(rec + 4, 0);
		bytes__put_u16(rec + 6, 16);
		bytes__put_u64(rec + 8, 0x1122334455667788ULL);
		ck_assert_int_eq(parse_checked(&s, &a, rec, 16), 0);
		ck_assert_int_eq(parse_checked(&s, &a, rec, 8), -DIAG_BAD_SAMPLE);
	}
	a.sample_type = SAMPLE_CALLCHAIN;
	bytes__put_u64(rec + 8, 1ULL << 60);	/* absurd nr */
	ck_assert_int_eq(parse_checked(&s, &a, rec, 16), -DIAG_BAD_SAMPLE);
	a.sample_type = SAMPLE_TID;
	ck_assert_int_eq(parse_checked(&s, &a, rec, 16), 0);
	ck_assert_uint_eq(s.period, a.sample_period);	/* perf's default */
	ck_assert_uint_eq(s.cpu, (uint32_t)-1);
}
END_TEST

START_TEST(test_evlist_lookup)
{
	struct evlist el;
	struct event_attr a = testlib_attr(SAMPLE_IDENTIFIER), b = a;
	uint64_t ida[] = { 5, 6 }, idb[] = { 7 };
	struct testlib_buf r = { 0 };
	struct evsel *ev;
	struct diag d;

	evlist__init(&el);
	b.config = 1;
	ck_assert_int_eq(evlist__add(&el, &a, ida, 2, NULL), 0);
	ck_assert_int_eq(evlist__add(&el, &b, idb, 1, NULL), 0);
	ck_assert_int_eq(evlist__check(&el, &d), 0);
	ck_assert_int_eq(evlist__add(&el, &b, ida, 1, NULL), -DIAG_BAD_ATTR);	/* dup id */
	testlib_rec_sample(&r, &a, 1, 2, 3, 1000, 7, 1);
	ck_assert_int_eq(evlist__evsel_of(&el, r.p, r.len, &ev), 0);
	ck_assert_ptr_eq(ev, el.evsels[1]);
	ck_assert_uint_eq(evlist__record_time(&el, ev, r.p, r.len), 1000);
	r.len = 0;
	testlib_rec_comm(&r, &a, 2, 2, "ls", 2000, 6);
	ck_assert_int_eq(evlist__evsel_of(&el, r.p, r.len, &ev), 0);
	ck_assert_ptr_eq(ev, el.evsels[0]);
	ck_assert_uint_eq(evlist__record_time(&el, ev, r.p, r.len), 2000);
	r.len = 0;
	testlib_rec_sample(&r, &a, 1, 2, 3, 1000, 99, 1);
	ck_assert_int_eq(evlist__evsel_of(&el, r.p, r.len, &ev), -DIAG_UNKNOWN_ID);
	r.len = 0;
	testlib_rec_sample(&r, &a, 1, 2, 3, 1000, 0, 1);	/* id 0: synthesized */
	ck_assert_int_eq(evlist__evsel_of(&el, r.p, r.len, &ev), 0);
	ck_assert_ptr_eq(ev, el.evsels[0]);
	/* a second event with a different id position is refused, as perf does */
	b.sample_type = SAMPLE_IP | SAMPLE_ID;
	ck_assert_int_eq(evlist__add(&el, &b, NULL, 0, NULL), 0);
	ck_assert_int_eq(evlist__check(&el, &d), -DIAG_MISMATCH);
	testlib_buf_free(&r);
	evlist__exit(&el);
}
END_TEST

/* evlist__excludes_kernel(): only when there are events and every one excludes the
 * kernel (exclude_kernel, bit 5); exclude_user or exclude_hv alone do not count. */
START_TEST(test_evlist_excludes_kernel)
{
	struct evlist el;
	struct event_attr a = testlib_attr(SAMPLE_IDENTIFIER), b = a;

	evlist__init(&el);
	ck_assert(!evlist__excludes_kernel(&el));	/* no event (a pipe before its attrs) */
	a.flags |= 1ull << ATTR_EXCLUDE_KERNEL | 1ull << ATTR_EXCLUDE_HV;
	ck_assert_int_eq(evlist__add(&el, &a, NULL, 0, NULL), 0);
	ck_assert(evlist__excludes_kernel(&el));
	b.config = 1;
	b.flags |= 1ull << ATTR_EXCLUDE_USER | 1ull << ATTR_EXCLUDE_HV;
	ck_assert_int_eq(evlist__add(&el, &b, NULL, 0, NULL), 0);
	ck_assert(!evlist__excludes_kernel(&el));	/* one event samples the kernel */
	evlist__exit(&el);
}
END_TEST

START_TEST(test_record_swap_comm)
{
	struct event_attr a = testlib_attr(0);
	struct testlib_buf r = { 0 };
	struct sample s;
	unsigned char *c;

	testlib_rec_comm(&r, &a, 0x01020304, 0x05060708, "sh", 0x1122334455667788ULL, 0);
	c = r.p;
	/* make it big-endian by hand: header, pid/tid, trailer words */
	bytes__put_u32(c, __builtin_bswap32(bytes__u32(c)));
	bytes__put_u16(c + 6, __builtin_bswap16(bytes__u16(c + 6)));
	bytes__swap_u32s(c + 8, 2);
	bytes__swap_u32s(c + 32, 2);
	bytes__swap_u64s(c + 40, 1);
	/* what the reader does: header, record__swap, then the u32 pairs */
	bytes__put_u32(c, __builtin_bswap32(bytes__u32(c)));
	bytes__put_u16(c + 6, __builtin_bswap16(bytes__u16(c + 6)));
	record__swap(c, r.len, attr__id_hdr_size(&a));
	sample__unswap_pairs(&a, c, r.len);
	ck_assert_uint_eq(bytes__u32(c + 8), 0x01020304);
	ck_assert_str_eq((const char *)c + 16, "sh");
	ck_assert_int_eq(sample__parse_id_trailer(&s, &a, c, r.len), 0);
	ck_assert_uint_eq(s.pid, 0x01020304);
	ck_assert_uint_eq(s.tid, 0x05060708);
	ck_assert_uint_eq(s.time, 0x1122334455667788ULL);
	testlib_buf_free(&r);
}
END_TEST

START_TEST(test_record_names)
{
	ck_assert_str_eq(record__type_name(REC_SAMPLE), "SAMPLE");
	ck_assert_str_eq(record__type_name(REC_HEADER_FEATURE), "FEATURE");
	ck_assert_str_eq(record__type_name(REC_FINISHED_INIT), "FINISHED_INIT");
	ck_assert_str_eq(record__type_name(REC_COMPRESSED2), "COMPRESSED2");
	ck_assert_str_eq(record__type_name(200), "UNKNOWN");
	ck_assert(!record__type_known(40));
	ck_assert(record__type_known(REC_COMPRESSED2));
	ck_assert(!record__type_known_to_perf61(REC_COMPRESSED2));
}
END_TEST

/* Default event names with perf's modifiers: each case's name is what perf 6.1 printed
 * ("# Samples: ... of event '...'") for a pipe recording without EVENT_DESC (perf 4.4's
 * piped lost_samples file, from ../shared/external) whose attrs were given these
 * type, config, exclude_{user,kernel,hv,host,guest} and precise_ip values (and, for
 * breakpoints, bp_type and bp_addr). */
START_TEST(test_evlist_default_names)
{
	static const struct {
		uint32_t type;
		uint64_t config;
		const char *exclude;	/* user kernel hv host guest */
		unsigned precise;
		const char *name;
	} cases[] = {
		{ 0, 0, "00001", 2, "cycles:ppH" },
		{ 0, 0, "00000", 0, "cycles:HG" },
		{ 0, 1, "01000", 0, "instructions:uh" },
		{ 0, 4, "10000", 0, "branches:kh" },
		{ 0, 0, "00001", 0, "cycles" },
		{ 0, 1, "00010", 0, "instructions:G" },
		{ 0, 4, "00011", 2, "branches:pp" },
		{ 1, 0, "01101", 3, "cpu-clock:upppH" },
		{ 1, 1, "00000", 1, "task-clock:p" },
		{ 1, 2, "11000", 0, "page-faults:h" },
		{ 0, 0, "00101", 2, "cycles:kuppH" },
		{ 0, 1, "11111", 0, "instructions" },
		{ 0, 4, "00000", 3, "branches:ppp" },
		{ 0, 10, "00000", 0, "unknown-hardware:HG" },
		{ 1, 10, "11110", 3, "unknown-software:pppG" },	/* bpf-output */
		{ 1, 9, "00101", 1, "dummy:kupH" },
		/* cache: type | op << 8 | result << 16 */
		{ 3, 0 | 0 << 8 | 1 << 16, "00000", 0, "L1-dcache-load-misses:HG" },
		{ 3, 6 | 2 << 8 | 0 << 16, "00000", 0, "node-prefetches:HG" },
		{ 3, 1 | 1 << 8 | 1 << 16, "00000", 0, "invalid-cache:HG" },
		{ 3, 0 | 3 << 8, "00000", 0, "unknown-ext-hardware-cache-op:HG" },
		{ 3, 0 | 2 << 16, "00000", 0, "unknown-ext-hardware-cache-result:HG" },
		{ 3, 7, "00000", 0, "unknown-ext-hardware-cache-type:HG" },
		{ 3, 5 | 1ULL << 40, "00000", 0, "branch-loads:HG" },
		{ 4, 0, "01110", 2, "raw 0x0:uppG" },
		{ 4, 0x1234, "01001", 2, "raw 0x1234:uhppH" },
		{ 6, 0, "00000", 0, "unknown attr type: 6" },
	};
	static const enum attr_flag bits[] = {
		ATTR_EXCLUDE_USER, ATTR_EXCLUDE_KERNEL, ATTR_EXCLUDE_HV, ATTR_EXCLUDE_HOST,
		ATTR_EXCLUDE_GUEST,
	};
	const size_t n = sizeof(cases) / sizeof(cases[0]);
	struct evlist el;

	evlist__init(&el);
	for (size_t i = 0; i < n; i++) {
		struct event_attr a = testlib_attr(SAMPLE_IP);

		a.type = cases[i].type;
		a.config = cases[i].config;
		a.flags = (uint64_t)cases[i].precise << ATTR_PRECISE_IP;
		for (size_t b = 0; b < 5; b++)
			if (cases[i].exclude[b] == '1')
				a.flags |= 1ULL << bits[b];
		ck_assert_int_eq(evlist__add(&el, &a, NULL, 0, NULL), 0);
	}
	/* a named event keeps its name; a tracepoint (named from its format) stays
	 * unnamed */
	{
		struct event_attr a = testlib_attr(SAMPLE_IP);

		ck_assert_int_eq(evlist__add(&el, &a, NULL, 0, NULL), 0);
		ck_assert_int_eq(evsel__set_name(el.evsels[n], "mine"), 0);
		a.type = ATTR_TYPE_TRACEPOINT;
		ck_assert_int_eq(evlist__add(&el, &a, NULL, 0, NULL), 0);
	}
	/* breakpoints (precise_ip 2 and exclude_guest: ppH) */
	for (uint32_t t = 0; t < 8; t++) {
		struct event_attr a = testlib_attr(SAMPLE_IP);

		a.type = ATTR_TYPE_BREAKPOINT;
		a.bp_type = t;
		a.config1 = 0x1000 * t;
		a.flags = 2ULL << ATTR_PRECISE_IP | 1ULL << ATTR_EXCLUDE_GUEST;
		ck_assert_int_eq(evlist__add(&el, &a, NULL, 0, NULL), 0);
	}
	ck_assert_int_eq(evlist__name_defaults(&el), 0);
	for (size_t i = 0; i < n; i++)
		ck_assert_str_eq(evsel__name(el.evsels[i]), cases[i].name);
	ck_assert_str_eq(evsel__name(el.evsels[n]), "mine");
	ck_assert_ptr_null(el.evsels[n + 1]->name);	/* a tracepoint */
	ck_assert_str_eq(evsel__name(el.evsels[n + 2]), "mem:0x0::ppH");
	ck_assert_str_eq(evsel__name(el.evsels[n + 3]), "mem:0x1000:r:ppH");
	ck_assert_str_eq(evsel__name(el.evsels[n + 5]), "mem:0x3000:rw:ppH");
	ck_assert_str_eq(evsel__name(el.evsels[n + 6]), "mem:0x4000:x:ppH");
	ck_assert_str_eq(evsel__name(el.evsels[n + 9]), "mem:0x7000:rwx:ppH");
	evlist__exit(&el);
}
END_TEST

Suite *format_suite(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_header_native_and_swapped);
	tcase_add_test(tc, test_header_errors);
	tcase_add_test(tc, test_attr_roundtrip_and_swap);
	tcase_add_test(tc, test_id_pos);
	tcase_add_test(tc, test_sample_every_field);
	tcase_add_test(tc, test_sample_single_bits);
	tcase_add_test(tc, test_sample_branch_stack);
	tcase_add_test(tc, test_evlist_lookup);
	tcase_add_test(tc, test_evlist_excludes_kernel);
	tcase_add_test(tc, test_evlist_default_names);
	tcase_add_test(tc, test_record_swap_comm);
	tcase_add_test(tc, test_record_names);
	suite_add_tcase(s, tc);
	return s;
}
