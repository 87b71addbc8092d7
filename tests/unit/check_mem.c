/*
 * Unit tests of report/mem: data_src texts of the memory sort keys.  The table is
 * perf 6.1's output: `perf script -F data_src` (its LVL, SNP, TLB, LCK and BLK
 * parts, which `perf report --mem-mode -s mem|snoop|tlb|locked|blocked` prints alike)
 * on copies of samples/tcd.data whose data_src words were rewritten one by one (this
 * machine has no PMU that records memory accesses).
 */
#include <check.h>
#include <string.h>

#include "machine/mem.h"

#include "banned.h"

static const struct {
	uint64_t src;
	const char *lvl, *snoop, *tlb, *lock, *blk;
} observed[] = {
	{ 0x0, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x1, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x2, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x4, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x8, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x10, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x20, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x40, "N/A hit", "N/A", "N/A", "No", " N/A" },
	{ 0x80, "N/A miss", "N/A", "N/A", "No", " N/A" },
	{ 0x100, "L1", "N/A", "N/A", "No", " N/A" },
	{ 0x200, "LFB/MAB", "N/A", "N/A", "No", " N/A" },
	{ 0x400, "L2", "N/A", "N/A", "No", " N/A" },
	{ 0x800, "L3", "N/A", "N/A", "No", " N/A" },
	{ 0x1000, "Local RAM", "N/A", "N/A", "No", " N/A" },
	{ 0x2000, "Remote RAM (1 hop)", "N/A", "N/A", "No", " N/A" },
	{ 0x4000, "Remote RAM (2 hops)", "N/A", "N/A", "No", " N/A" },
	{ 0x8000, "Remote Cache (1 hop)", "N/A", "N/A", "No", " N/A" },
	{ 0x10000, "Remote Cache (2 hops)", "N/A", "N/A", "No", " N/A" },
	{ 0x20000, "I/O", "N/A", "N/A", "No", " N/A" },
	{ 0x40000, "Uncached", "N/A", "N/A", "No", " N/A" },
	{ 0x140, "L1 hit", "N/A", "N/A", "No", " N/A" },
	{ 0x480, "L2 miss", "N/A", "N/A", "No", " N/A" },
	{ 0x300, "L1 or LFB/MAB", "N/A", "N/A", "No", " N/A" },
	{ 0x1840, "L3 or Local RAM hit", "N/A", "N/A", "No", " N/A" },
	{ 0x80000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x100000, "N/A", "None", "N/A", "No", " N/A" },
	{ 0x200000, "N/A", "Hit", "N/A", "No", " N/A" },
	{ 0x400000, "N/A", "Miss", "N/A", "No", " N/A" },
	{ 0x800000, "N/A", "HitM", "N/A", "No", " N/A" },
	{ 0x4000000000, "N/A", "Fwd", "N/A", "No", " N/A" },
	{ 0x8000000000, "N/A", "Peer", "N/A", "No", " N/A" },
	{ 0x4000200000, "N/A", "Hit or Fwd", "N/A", "No", " N/A" },
	{ 0x1000000, "N/A", "N/A", "N/A", "N/A", " N/A" },
	{ 0x2000000, "N/A", "N/A", "N/A", "Yes", " N/A" },
	{ 0x3000000, "N/A", "N/A", "N/A", "N/A", " N/A" },
	{ 0x4000000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x8000000, "N/A", "N/A", "N/A hit", "No", " N/A" },
	{ 0x10000000, "N/A", "N/A", "N/A miss", "No", " N/A" },
	{ 0x20000000, "N/A", "N/A", "L1", "No", " N/A" },
	{ 0x40000000, "N/A", "N/A", "L2", "No", " N/A" },
	{ 0x80000000, "N/A", "N/A", "Walker", "No", " N/A" },
	{ 0x100000000, "N/A", "N/A", "Fault", "No", " N/A" },
	{ 0x28000000, "N/A", "N/A", "L1 hit", "No", " N/A" },
	{ 0xd0000000, "N/A", "N/A", "L2 or Walker miss", "No", " N/A" },
	{ 0x60000000, "N/A", "N/A", "L1 or L2", "No", " N/A" },
	{ 0x200000000, "L1", "N/A", "N/A", "No", " N/A" },
	{ 0x400000000, "L2", "N/A", "N/A", "No", " N/A" },
	{ 0x600000000, "L3", "N/A", "N/A", "No", " N/A" },
	{ 0x800000000, "L4", "N/A", "N/A", "No", " N/A" },
	{ 0xa00000000, "L5", "N/A", "N/A", "No", " N/A" },
	{ 0xc00000000, "L6", "N/A", "N/A", "No", " N/A" },
	{ 0xe00000000, "L7", "N/A", "N/A", "No", " N/A" },
	{ 0x1000000000, "L8", "N/A", "N/A", "No", " N/A" },
	{ 0x1200000000, "CXL", "N/A", "N/A", "No", " N/A" },
	{ 0x1400000000, "I/O", "N/A", "N/A", "No", " N/A" },
	{ 0x1600000000, "Any cache", "N/A", "N/A", "No", " N/A" },
	{ 0x1800000000, "LFB/MAB", "N/A", "N/A", "No", " N/A" },
	{ 0x1a00000000, "RAM", "N/A", "N/A", "No", " N/A" },
	{ 0x1c00000000, "PMEM", "N/A", "N/A", "No", " N/A" },
	{ 0x1e00000000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x600000040, "L3 hit", "N/A", "N/A", "No", " N/A" },
	{ 0x3a00000000, "Remote RAM", "N/A", "N/A", "No", " N/A" },
	{ 0x200000080, "L1 miss", "N/A", "N/A", "No", " N/A" },
	{ 0x2000000000, "Remote ", "N/A", "N/A", "No", " N/A" },
	{ 0x80600000040, "core, same node L3 hit", "N/A", "N/A", "No", " N/A" },
	{ 0x103a00000000, "Remote node, same socket RAM", "N/A", "N/A", "No", " N/A" },
	{ 0x183600000040, "Remote socket, same board Any cache hit", "N/A", "N/A", "No", " N/A" },
	{ 0x201a00000000, "board RAM", "N/A", "N/A", "No", " N/A" },
	{ 0x10000000000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x20000000000, "N/A", "N/A", "N/A", "No", " Data" },
	{ 0x40000000000, "N/A", "N/A", "N/A", "No", " Addr" },
	{ 0x60000000000, "N/A", "N/A", "N/A", "No", " Data Addr" },
	{ 0x70000000000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x30000000000, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x300000, "N/A", "None or Hit", "N/A", "No", " N/A" },
	{ 0xf00000, "N/A", "None or Hit or Miss or HitM", "N/A", "No", " N/A" },
	{ 0x4000080000, "N/A", "N/A or Fwd", "N/A", "No", " N/A" },
	{ 0xc000800000, "N/A", "HitM or Fwd or Peer", "N/A", "No", " N/A" },
	{ 0xc000000000, "N/A", "Fwd or Peer", "N/A", "No", " N/A" },
	{ 0x60, "N/A hit", "N/A", "N/A", "No", " N/A" },
	{ 0xa0, "N/A miss", "N/A", "N/A", "No", " N/A" },
	{ 0xc0, "N/A hit miss", "N/A", "N/A", "No", " N/A" },
	{ 0x400000100, "L1 or L2", "N/A", "N/A", "No", " N/A" },
	{ 0x400000140, "L1 or L2 hit", "N/A", "N/A", "No", " N/A" },
	{ 0x200000020, "N/A or L1", "N/A", "N/A", "No", " N/A" },
	{ 0x2000002000, "Remote Remote RAM (1 hop)", "N/A", "N/A", "No", " N/A" },
	{ 0x2000000100, "Remote L1", "N/A", "N/A", "No", " N/A" },
	{ 0x80000000000, "core, same node ", "N/A", "N/A", "No", " N/A" },
	{ 0x100000000000, "node, same socket ", "N/A", "N/A", "No", " N/A" },
	{ 0x180200000000, "socket, same board L1", "N/A", "N/A", "No", " N/A" },
	{ 0x280200000000, "(null) L1", "N/A", "N/A", "No", " N/A" },
	{ 0x380200000000, "(null) L1", "N/A", "N/A", "No", " N/A" },
	{ 0xc000000, "N/A", "N/A", "N/A hit", "No", " N/A" },
	{ 0x183a0007ffe0, "Remote socket, same board RAM hit miss", "N/A", "N/A", "No", " N/A" },
	{ 0x3a00020040, "Remote I/O or RAM hit", "N/A", "N/A", "No", " N/A" },
	{ 0x1800000080, "LFB/MAB miss", "N/A", "N/A", "No", " N/A" },
	{ 0x1800000200, "LFB/MAB or LFB/MAB", "N/A", "N/A", "No", " N/A" },
	{ 0x3, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x1f, "N/A", "N/A", "N/A", "No", " N/A" },
	{ 0x180000, "N/A", "N/A or None", "N/A", "No", " N/A" },
	{ 0x18000000, "N/A", "N/A", "N/A hit miss", "No", " N/A" },
	{ 0x1e05080021, "N/A or N/A", "N/A", "N/A", "N/A", " N/A" },
};

START_TEST(test_mem_observed)
{
	char buf[128];

	for (size_t i = 0; i < sizeof(observed) / sizeof(observed[0]); i++) {
		uint64_t s = observed[i].src;

		mem_src__text(s, MEM_FIELD_LVL, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, observed[i].lvl), "%#llx lvl: '%s'",
			      (unsigned long long)s, buf);
		mem_src__text(s, MEM_FIELD_SNOOP, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, observed[i].snoop), "%#llx snoop: '%s'",
			      (unsigned long long)s, buf);
		mem_src__text(s, MEM_FIELD_DTLB, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, observed[i].tlb), "%#llx tlb: '%s'",
			      (unsigned long long)s, buf);
		mem_src__text(s, MEM_FIELD_LOCK, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, observed[i].lock), "%#llx lock: '%s'",
			      (unsigned long long)s, buf);
		mem_src__text(s, MEM_FIELD_BLK, buf, sizeof(buf));
		ck_assert_msg(!strcmp(buf, observed[i].blk), "%#llx blk: '%s'",
			      (unsigned long long)s, buf);
	}
}
END_TEST

/* The fields the keys compare, and a buffer too small: cut and terminated. */
START_TEST(test_mem_fields)
{
	char buf[8];

	ck_assert_uint_eq(mem_src__field(0x1e05080021ULL, MEM_FIELD_LVL), 1);
	ck_assert_uint_eq(mem_src__field(0x1e05080021ULL, MEM_FIELD_SNOOP), 1);
	ck_assert_uint_eq(mem_src__field(0x1e05080021ULL, MEM_FIELD_LOCK), 1);
	ck_assert_uint_eq(mem_src__field(0x1e05080021ULL, MEM_FIELD_DTLB), 1);
	ck_assert_uint_eq(mem_src__field(0x1e05080021ULL, MEM_FIELD_BLK), 0);
	ck_assert_uint_eq(mem_src__field(0x7ffe0ULL, MEM_FIELD_LVL), 0x3fff);
	ck_assert_uint_eq(mem_src__text(0x1e05080021ULL, MEM_FIELD_LVL, buf, sizeof(buf)), 7);
	ck_assert_str_eq(buf, "N/A or ");
	ck_assert_uint_eq(mem_src__text(0x20, MEM_FIELD_LVL, buf, 0), 0);
}
END_TEST

/* perf script's data_src text (tests/script/golden/mem-raw-data-src-script holds
 * perf's lines for these values) */
START_TEST(test_mem_script_text)
{
	static const struct { uint64_t src; const char *text; } cases[] = {
		{ 0x0, "|OP No|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
		{ 0x1e05080021, "|OP N/A|LVL N/A or N/A|SNP N/A|TLB N/A|LCK N/A|BLK  N/A" },
		{ 0x1a, "|OP LOAD|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
		{ 0x10, "|OP EXEC|LVL N/A|SNP N/A|TLB N/A|LCK No|BLK  N/A" },
		{ 0x68100142, "|OP LOAD|LVL L1 hit|SNP None|TLB L1 or L2 hit|LCK No|BLK  N/A" },
		/* cut to 99 bytes */
		{ 0x7ffff8a05442, "|OP LOAD|LVL Remote (null) N/A hit|SNP Hit or HitM or Fwd or "
				  "Peer|TLB L1 or L2 or " },
	};
	char buf[MEM_SCRIPT_TEXT_MAX];

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		size_t n = mem_src__script_text(cases[i].src, buf, sizeof(buf));

		ck_assert_msg(!strncmp(buf, cases[i].text, strlen(cases[i].text)),
			      "%#llx: '%s'", (unsigned long long)cases[i].src, buf);
		ck_assert_uint_eq(n, strlen(buf));
	}
	ck_assert_uint_eq(mem_src__script_text(0x7fffffffffffffff, buf, sizeof(buf)),
			  MEM_SCRIPT_TEXT_MAX - 1);
}
END_TEST

Suite *mem_suite(void)
{
	Suite *s = suite_create("mem");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_mem_observed);
	tcase_add_test(tc, test_mem_script_text);
	tcase_add_test(tc, test_mem_fields);
	suite_add_tcase(s, tc);
	return s;
}
