/*
 * Unit tests of report/symbol and report/dso: perf 6.1's symbol tables and lookups.
 *
 * The expected answers were checked against perf 6.1.187 (`perf script -F
 * ip,sym,symoff` and `perf report --stdio`) on recordings and on synthetic perf.data
 * files that place one sample on every byte or every symbol boundary of a dso:
 * alias choice, zero-size extension, the last symbol's page rounding, the search
 * path quirk for overlapping symbols, kallsyms relocation and module dropping, perf
 * map parsing and C++ names are all pinned down below.
 */
#include <check.h>
#include <dirent.h>	/* opendir: the threads of /proc/self/task */
#include <pthread.h>	/* the FIFO's writer */
#include <dlfcn.h>	/* dladdr */
#include <elf.h>	/* STB_*, STT_* */
#include <errno.h>
#include <fcntl.h>	/* AT_FDCWD */
#include <inttypes.h>	/* SCNx64 */
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>	/* mkdir, mkfifo */
#include <time.h>	/* clock_gettime */
#include <unistd.h>	/* write, close */

#include "format/record.h"	/* REC_MMAP, MISC_KERNEL */
#include "machine/dso.h"
#include "machine/machine.h"
#include "format/sample.h"
#include "reader/session.h"	/* struct record_ref */
#include "util/workqueue.h"
#include "machine/symbol.h"
#include "testlib.h"

#include "banned.h"

/* ---- builder: fix-ups and the replayed tree ---------------------------------- */

static void add(struct symtab_builder *b, uint64_t start, uint64_t size, uint8_t bind,
		uint8_t type, const char *name)
{
	ck_assert_int_eq(symtab_builder__add(b, start, size, bind, type, name,
					     strlen(name)), 0);
}

static const char *name_at(const struct symtab *t, uint64_t addr)
{
	const struct symbol *s = symtab__find(t, addr);

	return s ? s->name : "-";
}

START_TEST(test_symbol_alias_choice)
{
	struct symtab_builder b = { 0 };
	struct symtab t;

	/* perf keeps one symbol per start: sized, non-weak, global, fewer leading
	 * underscores, longer name, first inserted */
	/* zero-size and followed by the same start: stays zero-size and loses (a
	 * zero-size symbol LAST at its start would grow to the next start instead) */
	add(&b, 0x100, 0, STB_GLOBAL, STT_FUNC, "zero_size_global_longest");
	add(&b, 0x100, 0x10, STB_WEAK, STT_FUNC, "weak_but_long_name");
	add(&b, 0x100, 0x10, STB_LOCAL, STT_FUNC, "local_name_longest_of_all");
	add(&b, 0x100, 0x10, STB_GLOBAL, STT_FUNC, "__glob");
	add(&b, 0x100, 0x10, STB_GLOBAL, STT_FUNC, "glob_b");
	add(&b, 0x100, 0x10, STB_GLOBAL, STT_FUNC, "glob_a");
	add(&b, 0x200, 0x10, STB_WEAK, STT_FUNC, "w1");
	add(&b, 0x200, 0x10, STB_LOCAL, STT_FUNC, "l1");
	add(&b, 0x300, 0x10, STB_LOCAL, STT_FUNC, "_under");
	add(&b, 0x300, 0x10, STB_LOCAL, STT_FUNC, "plain");
	symtab_builder__fixup_end(&b, false);
	symtab_builder__fixup_duplicate(&b);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_uint_eq(t.nr, 3);
	ck_assert_str_eq(name_at(&t, 0x100), "glob_b");	/* same length: first wins */
	ck_assert_str_eq(name_at(&t, 0x205), "l1");		/* local beats weak */
	ck_assert_str_eq(name_at(&t, 0x30f), "plain");
	ck_assert_str_eq(name_at(&t, 0x310), "-");
	for (size_t i = 0; i < t.nr; i++)
		ck_assert_uint_eq(t.syms[i].idx, i);
	symtab__exit(&t);
	symtab__exit(&t);	/* double exit is harmless */
}
END_TEST

START_TEST(test_symbol_zero_size_rule)
{
	struct symtab_builder b = { 0 };
	struct symtab t;

	add(&b, 0x1000, 0, STB_GLOBAL, STT_FUNC, "zs");		/* -> next start */
	add(&b, 0x1040, 0x10, STB_GLOBAL, STT_FUNC, "sized");	/* gap after it */
	add(&b, 0x1080, 0, STB_LOCAL, STT_NOTYPE, "label");	/* -> next start */
	add(&b, 0x1100, 0x0, STB_GLOBAL, STT_FUNC, "last");	/* -> page + 4096 */
	symtab_builder__fixup_end(&b, false);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0xfff), "-");
	ck_assert_str_eq(name_at(&t, 0x1000), "zs");
	ck_assert_str_eq(name_at(&t, 0x103f), "zs");
	ck_assert_str_eq(name_at(&t, 0x104f), "sized");
	ck_assert_str_eq(name_at(&t, 0x1050), "-");		/* between symbols */
	ck_assert_str_eq(name_at(&t, 0x10ff), "label");
	ck_assert_uint_eq(t.syms[3].end, 0x3000);	/* roundup(0x1100, 4096) + 4096 */
	ck_assert_str_eq(name_at(&t, 0x2fff), "last");
	ck_assert_str_eq(name_at(&t, 0x3000), "-");
	symtab__exit(&t);
}
END_TEST

START_TEST(test_symbol_zero_size_without_fixup)
{
	struct symtab_builder b = { 0 };
	struct symtab t;

	/* perf map symbols get no fix-ups: a zero-size one matches its start only */
	add(&b, 0x10, 0, STB_GLOBAL, STT_FUNC, "z");
	add(&b, 0x20, 4, STB_GLOBAL, STT_FUNC, "s");
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0x10), "z");
	ck_assert_str_eq(name_at(&t, 0x11), "-");
	ck_assert_str_eq(name_at(&t, 0x23), "s");
	symtab__exit(&t);
}
END_TEST

START_TEST(test_symbol_tree_overlap)
{
	struct symtab_builder b = { 0 };
	struct symtab t;

	/*
	 * Ascending inserts A, B, C make B the root.  perf returns the first node on
	 * the search path that contains the address: inside B that is B, below B the
	 * search goes left to A, above B it goes right to C and misses A entirely.
	 */
	add(&b, 0x100, 0x100, STB_GLOBAL, STT_FUNC, "A");
	add(&b, 0x150, 0x10, STB_GLOBAL, STT_FUNC, "B");
	add(&b, 0x300, 0x10, STB_GLOBAL, STT_FUNC, "C");
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0x120), "A");
	ck_assert_str_eq(name_at(&t, 0x155), "B");
	ck_assert_str_eq(name_at(&t, 0x170), "-");
	ck_assert_str_eq(name_at(&t, 0x305), "C");
	symtab__exit(&t);

	/* Two symbols: A is the root and shadows B completely. */
	add(&b, 0x100, 0x100, STB_GLOBAL, STT_FUNC, "A");
	add(&b, 0x150, 0x10, STB_GLOBAL, STT_FUNC, "B");
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0x155), "A");
	symtab__exit(&t);
}
END_TEST

START_TEST(test_symbol_many_random)
{
	struct symtab_builder b = { 0 };
	struct symtab t;
	uint64_t x = 88172645463325252ULL;
	char nm[32];

	/* Non-overlapping symbols inserted in random order: every start and last byte
	 * resolves to its symbol whatever the tree looks like (exercises rotations and
	 * erasures). */
	for (int i = 0; i < 5000; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		snprintf(nm, sizeof(nm), "s%" PRIu64, (x % 20000));
		add(&b, (x % 20000) * 16, (x & 1) ? 8 : 0, STB_GLOBAL, STT_FUNC, nm);
	}
	symtab_builder__fixup_end(&b, false);
	symtab_builder__fixup_duplicate(&b);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_uint_gt(t.nr, 3000);
	for (size_t i = 0; i < t.nr; i++) {
		const struct symbol *s = &t.syms[i];

		if (i)
			ck_assert_uint_gt(s->start, t.syms[i - 1].start);
		ck_assert_ptr_eq(symtab__find(&t, s->start), s);
		if (s->end > s->start)
			ck_assert_ptr_eq(symtab__find(&t, s->end - 1), s);
		snprintf(nm, sizeof(nm), "s%" PRIu64, s->start / 16);
		ck_assert_str_eq(s->name, nm);
	}
	symtab__exit(&t);
}
END_TEST

/* Random symbols: starts, sizes (zero, small, large: overlapping), insertion and
 * erasure order, more symbols after the fix-ups (as the PLT entries come). */
static void random_table(struct symtab_builder *b, uint64_t seed, bool overlap)
{
	uint64_t x = seed;
	char nm[32];

	for (int i = 0; i < 3000; i++) {
		uint64_t size;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		size = (x >> 20) % 4 == 0 ? 0 : (x >> 24) % 17;
		if (overlap && (x >> 30) % 16 == 0)
			size = (x >> 34) % 4096;
		snprintf(nm, sizeof(nm), "%s%d", (x >> 40) % 3 ? "s" : "__s", i);
		add(b, (x % 8000) * 16, size, (uint8_t)((x >> 44) % 3), STT_FUNC, nm);
	}
	symtab_builder__fixup_end(b, false);
	symtab_builder__fixup_duplicate(b);
	for (int i = 0; i < 200; i++) {
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		snprintf(nm, sizeof(nm), "late%d", i);
		if (overlap)
			add(b, (x % 9000) * 16 + 8, (x >> 20) % 64, STB_GLOBAL, STT_FUNC, nm);
		else
			add(b, 0x100000 + (uint64_t)i * 16, 8, STB_GLOBAL, STT_FUNC, nm);
	}
}

/* symtab__find() through the index (struct symtab) answers as the search of all
 * ranges does (the same table with its index taken away), at every range's start, the
 * bytes beside it and addresses between, for dense tables, tables spread over the
 * whole address space (buckets without a range, ranges near 2^64) and tables just
 * under and over SYMTAB_INDEX_MIN ranges. */
static void check_index_answers(const struct symtab *t, uint64_t seed)
{
	struct symtab plain = *t;
	uint64_t x = seed;

	plain.index = NULL;
	ck_assert_ptr_eq(symtab__find(t, 0), symtab__find(&plain, 0));
	ck_assert_ptr_eq(symtab__find(t, UINT64_MAX), symtab__find(&plain, UINT64_MAX));
	for (size_t i = 0; i < t->nr_ranges; i++) {
		uint64_t a = t->ranges[i].start;

		ck_assert_ptr_eq(symtab__find(t, a), symtab__find(&plain, a));
		ck_assert_ptr_eq(symtab__find(t, a - 1), symtab__find(&plain, a - 1));
		ck_assert_ptr_eq(symtab__find(t, a + 1), symtab__find(&plain, a + 1));
	}
	for (int i = 0; i < 20000; i++) {
		uint64_t a;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		a = t->nr_ranges ? t->ranges[x % t->nr_ranges].start + (x >> 40) % 4096 - 2048 : x;
		ck_assert_ptr_eq(symtab__find(t, a), symtab__find(&plain, a));
		ck_assert_ptr_eq(symtab__find(t, x), symtab__find(&plain, x));
	}
}

START_TEST(test_symbol_index)
{
	struct symtab_builder b = { 0 };
	struct symtab t;
	uint64_t x = 0x9e3779b97f4a7c15ULL;
	char nm[32];

	/* dense, overlapping */
	random_table(&b, 0x1234567ULL, true);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_uint_ge(t.nr_ranges, SYMTAB_INDEX_MIN);
	ck_assert_ptr_nonnull(t.index);
	ck_assert_uint_eq(t.index[t.nr_index], t.nr_ranges);
	check_index_answers(&t, 7);
	symtab__exit(&t);
	/* spread: clusters at 0x1000, in the middle and just below 2^64 */
	for (int i = 0; i < 600; i++) {
		uint64_t base = i % 3 == 0 ? 0x1000 : i % 3 == 1 ? 0x7f0000000000ULL
							      : 0xfffffffffff00000ULL;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		snprintf(nm, sizeof(nm), "w%d", i);
		add(&b, base + (x % 60000) * 16, (x >> 20) % 40, STB_GLOBAL, STT_FUNC, nm);
	}
	symtab_builder__fixup_end(&b, false);
	symtab_builder__fixup_duplicate(&b);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_ptr_nonnull(t.index);
	ck_assert_uint_gt(t.index_shift, 32);
	check_index_answers(&t, 11);
	symtab__exit(&t);
	/* around the threshold: one range a symbol (gaps between), so n symbols give
	 * 2n ranges */
	for (int n = SYMTAB_INDEX_MIN / 2 - 1; n <= SYMTAB_INDEX_MIN / 2 + 1; n++) {
		for (int i = 0; i < n; i++) {
			snprintf(nm, sizeof(nm), "t%d", i);
			add(&b, 0xffffffff81000000ULL + (uint64_t)i * 64, 16, STB_GLOBAL,
			    STT_FUNC, nm);
		}
		ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
		ck_assert_int_eq(t.index != NULL, t.nr_ranges >= SYMTAB_INDEX_MIN);
		check_index_answers(&t, (uint64_t)n);
		symtab__exit(&t);
	}
}
END_TEST


START_TEST(test_symbol_sequence_equals_tree)
{
	for (uint64_t seed = 1; seed <= 6; seed++) {
		struct symtab_builder a = { 0 }, b = { .replay_always = true };
		struct symtab ta, tb;
		bool overlap = seed % 2 == 0;

		/* the same table twice: lookups from the sorted sequence (where nothing
		 * overlaps) and from perf's tree replayed must agree exactly */
		uint64_t s, e;

		random_table(&a, seed * 0x9E3779B97F4A7C15ULL, overlap);
		random_table(&b, seed * 0x9E3779B97F4A7C15ULL, overlap);
		/* the span without the table: the table's first start and last end */
		ck_assert_int_eq(symtab_builder__span(&a, &s, &e), 1);
		ck_assert_int_eq(symtab_builder__finish(&a, &ta), 0);
		ck_assert_uint_eq(s, ta.syms[0].start);
		ck_assert_uint_eq(e, ta.syms[ta.nr - 1].end);
		ck_assert_int_eq(symtab_builder__span(&a, &s, &e), 0);	/* emptied */
		ck_assert_int_eq(symtab_builder__finish(&b, &tb), 0);
		ck_assert_uint_gt(ta.nr, 2000);
		ck_assert_uint_eq(ta.nr, tb.nr);
		{	/* the odd seeds take the sequence's way, the even ones the tree's */
			bool disjoint = true;

			for (size_t i = 1; i < ta.nr; i++)
				if (ta.syms[i].start < ta.syms[i - 1].end ||
				    ta.syms[i].start == ta.syms[i - 1].start)
					disjoint = false;
			ck_assert(disjoint == !overlap);
		}
		for (size_t i = 0; i < ta.nr; i++) {
			ck_assert_uint_eq(ta.syms[i].start, tb.syms[i].start);
			ck_assert_uint_eq(ta.syms[i].end, tb.syms[i].end);
			ck_assert_str_eq(ta.syms[i].name, tb.syms[i].name);
		}
		ck_assert_uint_eq(ta.nr_ranges, tb.nr_ranges);
		for (size_t i = 0; i < ta.nr_ranges; i++) {
			ck_assert_uint_eq(ta.ranges[i].start, tb.ranges[i].start);
			ck_assert_uint_eq(ta.ranges[i].sym, tb.ranges[i].sym);
		}
		symtab__exit(&ta);
		symtab__exit(&tb);
	}
}
END_TEST

/* ---- kallsyms --------------------------------------------------------------- */

static const char fake_kallsyms[] =
	"0000000000000000 A fixed_percpu_data\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000100 W weak_fn\n"
	"ffffffff81000100 T strong_fn\n"
	"ffffffff81000200 t $x\n"
	"ffffffff81000300 r rodata_skipped\n"
	"ffffffff81000400 D data_obj\n"
	"ffffffff81000500 T __entry_SYSCALL_64_trampoline\n"
	"ffffffff81000600 t local_fn\n"
	"ffffffff81000700 t mod_in_middle\t[mod0]\n"
	"ffffffff81000800 T last_kernel\n"
	"ffffffffc0001000 t mod_fn\t[mod1]\n";

START_TEST(test_symbol_kallsyms_rules)
{
	struct symtab_builder b = { 0 };
	struct symtab t;
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	const struct symbol *s;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));

	/* recorded _text 0x10000000 higher than now: KASLR delta shifts everything */
	ck_assert_int_gt(symtab__load_kallsyms(&b, path, "_text", 0xffffffff91000000, NULL), 0);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	/* _stext and _text share the start: the last one gets the size and wins */
	ck_assert_str_eq(name_at(&t, 0xffffffff91000000), "_text");
	ck_assert_str_eq(name_at(&t, 0xffffffff91000150), "strong_fn");
	/* '$' names and 'r' are dropped: strong_fn runs to data_obj */
	ck_assert_str_eq(name_at(&t, 0xffffffff910003ff), "strong_fn");
	s = symtab__find(&t, 0xffffffff91000400);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "data_obj");
	ck_assert_uint_eq(s->type, STT_OBJECT);
	ck_assert_uint_eq(s->binding, STB_GLOBAL);
	/* the entry trampoline is removed and leaves a hole */
	ck_assert_str_eq(name_at(&t, 0xffffffff91000550), "-");
	/* local_fn ends at the module symbol's page rule: roundup(start + 4096) */
	s = symtab__find(&t, 0xffffffff91000650);
	ck_assert_str_eq(s->name, "local_fn");
	ck_assert_uint_eq(s->binding, STB_LOCAL);
	ck_assert_uint_eq(s->end, 0xffffffff91002000);
	/* module symbols are gone; the last kernel symbol ends at roundup + 4096.
	 * local_fn now overlaps last_kernel and perf's tree search finds local_fn */
	ck_assert_str_eq(name_at(&t, 0xffffffff91000801), "local_fn");
	ck_assert_uint_eq(t.syms[t.nr - 1].end, 0xffffffff91002000);
	for (size_t i = 0; i < t.nr; i++)
		ck_assert_ptr_null(strchr(t.syms[i].name, '\t'));
	symtab__exit(&t);

	/* a reference symbol missing from the file loads nothing */
	ck_assert_int_eq(symtab__load_kallsyms(&b, path, "_nosuch", 0, NULL), -ENOENT);
	symtab_builder__exit(&b);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_symbol_kernel_dso)
{
	struct dsos *d;
	struct dso *k;
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	struct dsos_opts o = { .kallsyms = path };
	uint64_t s, e;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	ck_assert_int_eq(dsos__new(&d, &o), 0);
	k = dsos__kernel(d);
	ck_assert_ptr_eq(k, dsos__findnew(d, "[kernel.kallsyms]"));
	ck_assert_int_eq(k->kind, DSO_KIND_KERNEL);
	ck_assert_str_eq(dso__short_name(k), "[kernel.kallsyms]");
	ck_assert_int_eq(dso__set_kernel_ref(k, "[kernel.kallsyms]_text", 0xffffffff81000000), 0);
	ck_assert_str_eq(dso__find_symbol(k, 0xffffffff81000105)->name, "strong_fn");
	ck_assert_ptr_null(dso__find_symbol(k, 0xffffffff80000000));
	ck_assert(dso__symbol_span(k, &s, &e));
	ck_assert_uint_eq(s, 0xffffffff81000000);
	ck_assert_uint_eq(e, 0xffffffff81002000);
	ck_assert_int_eq(k->origin, SYMTAB_ORIGIN_KALLSYMS);
	dsos__delete(d);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* A read ahead run as an item of a group, as machine__preload_kernel() runs it. */
struct preload_item {
	struct dso *k;
	struct workqueue *wq;
	struct wq_group g;
	int err;
};

static void preload_item(void *arg)
{
	struct preload_item *pi = arg;

	pi->err = dso__preload_kernel(pi->k, pi->wq, &pi->g);
}

enum preload_mode { PRELOAD_NONE, PRELOAD_HERE, PRELOAD_WORKERS };

/* The kernel dso of a fresh collection over @p kallsyms, its reference set as a
 * recording's kernel MMAP sets it (ref NULL: none), loaded, read ahead or not: here,
 * or on a worker with its blocks parsed by the workers and by this thread, which
 * waits for the read ahead's group. */
static struct dsos *kernel_loaded_opts(const char *kallsyms, enum preload_mode preload,
				       const char *ref, uint64_t pgoff, bool span_only)
{
	struct dsos_opts o = { .kallsyms = kallsyms, .kernel_span_only = span_only };
	struct preload_item pi = { 0 };
	struct dsos *d;
	struct dso *k;

	ck_assert_int_eq(dsos__new(&d, &o), 0);
	k = dsos__kernel(d);
	/* at the start: before any record names the reference */
	if (preload == PRELOAD_HERE)
		ck_assert_int_eq(dso__preload_kernel(k, NULL, NULL), 0);
	if (preload == PRELOAD_WORKERS) {
		pi.k = k;
		ck_assert_int_eq(workqueue__new(&pi.wq, 2), 0);
		ck_assert_int_eq(workqueue__queue_group(pi.wq, &pi.g, preload_item, &pi), 0);
		workqueue__group_wait(pi.wq, &pi.g);
		workqueue__delete(pi.wq);
		ck_assert_int_eq(pi.err, 0);
		ck_assert_ptr_nonnull(k->preload);
	}
	if (ref)
		ck_assert_int_eq(dso__set_kernel_ref(k, ref, pgoff), 0);
	ck_assert_int_ge(dso__load(k), 0);
	return d;
}

static struct dsos *kernel_loaded(const char *kallsyms, enum preload_mode preload,
				  const char *ref, uint64_t pgoff)
{
	return kernel_loaded_opts(kallsyms, preload, ref, pgoff, false);
}

/* Kernel dsos a and b loaded the same table (symbols, ends, lookup ranges, module
 * symbols). */
static void same_kernel_table(const struct dso *a, const struct dso *b)
{
	ck_assert_ptr_null(a->preload);
	ck_assert_int_eq(a->origin, b->origin);
	ck_assert_uint_gt(b->symtab.nr, 3);
	ck_assert_uint_eq(a->symtab.nr, b->symtab.nr);
	for (size_t k = 0; k < a->symtab.nr; k++) {
		ck_assert_uint_eq(a->symtab.syms[k].start, b->symtab.syms[k].start);
		ck_assert_uint_eq(a->symtab.syms[k].end, b->symtab.syms[k].end);
		ck_assert_str_eq(a->symtab.syms[k].name, b->symtab.syms[k].name);
		ck_assert_uint_eq(a->symtab.syms[k].binding, b->symtab.syms[k].binding);
		ck_assert_uint_eq(a->symtab.syms[k].type, b->symtab.syms[k].type);
		ck_assert_uint_eq(a->symtab.syms[k].namelen_extra,
				  b->symtab.syms[k].namelen_extra);
	}
	ck_assert_uint_eq(a->symtab.nr_ranges, b->symtab.nr_ranges);
	for (size_t k = 0; k < a->symtab.nr_ranges; k++) {
		ck_assert_uint_eq(a->symtab.ranges[k].start, b->symtab.ranges[k].start);
		ck_assert_uint_eq(a->symtab.ranges[k].sym, b->symtab.ranges[k].sym);
	}
	ck_assert_uint_eq(a->kmods.nr, b->kmods.nr);
	for (size_t k = 0; k < a->kmods.nr; k++) {
		ck_assert_uint_eq(a->kmods.v[k].start, b->kmods.v[k].start);
		ck_assert_uint_eq(a->kmods.v[k].end, b->kmods.v[k].end);
		ck_assert_str_eq(a->kmods.pool + a->kmods.v[k].name,
				 b->kmods.pool + b->kmods.v[k].name);
		ck_assert_str_eq(a->kmods.pool + a->kmods.v[k].module,
				 b->kmods.pool + b->kmods.v[k].module);
	}
}

/*
 * dso__preload_kernel() builds the table ahead, unrelocated: what the load then gives
 * is what a load without it gives (symbols, ends, lookup ranges, module symbols),
 * when the recording's kernel sits where the file's does and when it does not (a
 * KASLR shift: the load reads the file again), for another reference symbol, and
 * with no reference at all.
 */
START_TEST(test_symbol_kernel_preload)
{
	static const struct { const char *ref; uint64_t pgoff; } refs[] = {
		{ "[kernel.kallsyms]_text", 0xffffffff81000000 },
		{ "[kernel.kallsyms]_text", 0xffffffff91000000 },
		/* another reference, recorded where the file has _text */
		{ "[kernel.kallsyms]data_obj", 0xffffffff81000000 },
		{ NULL, 0 },
	};
	char *dir = testlib_tmpdir(), path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		struct dsos *da = kernel_loaded(path, PRELOAD_HERE, refs[i].ref, refs[i].pgoff);
		struct dsos *db = kernel_loaded(path, PRELOAD_NONE, refs[i].ref, refs[i].pgoff);
		struct dsos *dc = kernel_loaded(path, PRELOAD_WORKERS, refs[i].ref,
						refs[i].pgoff);

		same_kernel_table(dsos__kernel(da), dsos__kernel(db));
		same_kernel_table(dsos__kernel(dc), dsos__kernel(db));
		dsos__delete(dc);
		/* the shift moved the symbols */
		if (i == 1)
			ck_assert_str_eq(dso__find_symbol(dsos__kernel(da),
							  0xffffffff91000105)->name, "strong_fn");
		dsos__delete(da);
		dsos__delete(db);
	}
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * dsos_opts.kernel_span_only (the dump): a kernel whose table was read ahead loads
 * only its span - the span the whole table has, for each reference the recording may
 * give - and no symbol, no module symbol; a table read again at the load (a KASLR
 * shift) is kept whole.
 */
START_TEST(test_symbol_kernel_span_only)
{
	static const struct { const char *ref; uint64_t pgoff; } refs[] = {
		{ "[kernel.kallsyms]_text", 0xffffffff81000000 },
		{ "[kernel.kallsyms]_text", 0xffffffff91000000 },
		{ "[kernel.kallsyms]data_obj", 0xffffffff81000000 },
		{ NULL, 0 },
	};
	char *dir = testlib_tmpdir(), path[PATH_MAX], empty[PATH_MAX];

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	for (size_t i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		struct dsos *full = kernel_loaded(path, PRELOAD_NONE, refs[i].ref, refs[i].pgoff);
		uint64_t fs, fe;

		ck_assert(dso__symbol_span(dsos__kernel(full), &fs, &fe));
		for (int mode = PRELOAD_NONE; mode <= PRELOAD_WORKERS; mode++) {
			struct dsos *d = kernel_loaded_opts(path, (enum preload_mode)mode,
							    refs[i].ref, refs[i].pgoff, true);
			struct dso *k = dsos__kernel(d);
			/* read ahead and taken: the recording's _text where the file has it,
			 * or no reference */
			bool kept = mode != PRELOAD_NONE && (i == 0 || i == 3);
			uint64_t s = 0, e = 0;

			ck_assert(dso__symbol_span(k, &s, &e));
			ck_assert_uint_eq(s, fs);
			ck_assert_uint_eq(e, fe);
			ck_assert_int_eq(k->span_only, kept);
			ck_assert_int_eq(k->origin, SYMTAB_ORIGIN_KALLSYMS);
			ck_assert_int_eq(k->origin_letter, 'k');
			ck_assert_str_eq(k->symsrc_path, path);
			if (kept) {
				ck_assert_uint_eq(k->symtab.nr, 0);
				ck_assert_uint_eq(k->kmods.nr, 0);
				ck_assert_ptr_null(dso__find_symbol(k, fs));
			} else {
				same_kernel_table(k, dsos__kernel(full));
			}
			dsos__delete(d);
		}
		dsos__delete(full);
	}
	/* a file without a kept symbol: no span either way */
	snprintf(empty, sizeof(empty), "%s/empty", dir);
	testlib_write_raw(empty, "0000000000000000 A fixed_percpu_data\n", 37);
	{
		struct dsos *d = kernel_loaded_opts(empty, PRELOAD_HERE, "[kernel.kallsyms]_text",
						    0, true);
		uint64_t s, e;

		ck_assert(!dso__symbol_span(dsos__kernel(d), &s, &e));
		ck_assert_int_eq(dsos__kernel(d)->span_only, false);
		ck_assert_int_eq(dsos__kernel(d)->origin_letter, '!');
		dsos__delete(d);
	}
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* Write a kernel notes file (as /sys/kernel/notes) holding build-id @p bid. */
static void write_notes(const char *path, const uint8_t *bid, size_t n)
{
	unsigned char buf[64] = { 0 };
	uint32_t namesz = 4, descsz = (uint32_t)n, type = 3;	/* NT_GNU_BUILD_ID */

	memcpy(buf, &namesz, 4);
	memcpy(buf + 4, &descsz, 4);
	memcpy(buf + 8, &type, 4);
	memcpy(buf + 12, "GNU", 4);
	memcpy(buf + 16, bid, n);
	testlib_write_raw(path, buf, 16 + n);
}

/* The kernel dso of a collection whose running kernel (notes in dir/notes, kallsyms
 * in dir/proc-kallsyms) is the recording's, build-id cache dir/cache, kallsyms read
 * ahead on a workqueue of `workers` workers; then, if `pgoff`, the recording's kernel
 * MMAP at that _text and the dso loaded as the first kernel sample loads it. */
static struct dsos *kernel_ahead_at(const char *dir, size_t workers, bool ahead,
				    bool at_take, uint64_t pgoff)
{
	static const uint8_t bid[20] = { 0x4a, 0x5a, 0x9b, 1, 2, 3 };
	char notes[PATH_MAX], live[PATH_MAX], cache[PATH_MAX];
	struct dsos_opts o = { .kernel_notes = notes, .proc_kallsyms = live,
			       .buildid_dir = cache, .stale_dir = dir,
			       .kallsyms_ahead = ahead, .kallsyms_check_at_take = at_take };
	struct preload_item pi = { 0 };
	struct dsos *d;

	snprintf(notes, sizeof(notes), "%s/notes", dir);
	snprintf(live, sizeof(live), "%s/proc-kallsyms", dir);
	snprintf(cache, sizeof(cache), "%s/cache", dir);
	write_notes(notes, bid, sizeof(bid));
	ck_assert_int_eq(dsos__new(&d, &o), 0);
	pi.k = dsos__kernel(d);
	dso__set_build_id(pi.k, bid, sizeof(bid));
	ck_assert_int_eq(workqueue__new(&pi.wq, (unsigned)workers), 0);
	ck_assert_uint_eq(workqueue__nr_workers(pi.wq), workers);
	ck_assert_int_eq(workqueue__queue_group(pi.wq, &pi.g, preload_item, &pi), 0);
	workqueue__group_wait(pi.wq, &pi.g);
	workqueue__delete(pi.wq);
	ck_assert_int_eq(pi.err, 0);
	if (pgoff) {
		ck_assert_int_eq(dso__set_kernel_ref(pi.k, "[kernel.kallsyms]_text", pgoff), 0);
		ck_assert_int_ge(dso__load(pi.k), 0);
	}
	return d;
}

static struct dsos *kernel_ahead(const char *dir, size_t workers, bool ahead, uint64_t pgoff)
{
	return kernel_ahead_at(dir, workers, ahead, false, pgoff);
}

/* The name of the kernel symbol at addr in d (the dso loaded). */
static const char *kname(struct dsos *d, uint64_t addr)
{
	const struct symbol *sym = dso__find_symbol(dsos__kernel(d), addr);

	ck_assert_ptr_nonnull(sym);
	return sym->name;
}

/* fake_kallsyms with 400 more kernel symbols (filler_NNN at 0xffffffff81001000 +
 * 16 * NNN) before its last line (a module's): some 12 KiB, past the first page.
 * With `rename`, filler_300 is named copied_300.  *len: its length. */
static char *ahead_text(bool rename, size_t *len)
{
	const char *last = strstr(fake_kallsyms, "ffffffffc0001000");	/* a module line */
	size_t cap = 64 << 10, n = (size_t)(last - fake_kallsyms);
	char *t = malloc(cap);

	ck_assert_ptr_nonnull(t);
	ck_assert_str_eq(last, "ffffffffc0001000 t mod_fn\t[mod1]\n");
	memcpy(t, fake_kallsyms, n);
	for (unsigned i = 0; i < 400; i++)
		n += (size_t)snprintf(t + n, cap - n, "ffffffff81%06x T %s_%03u\n",
				      0x1000 + 16 * i, rename && i == 300 ? "copied" : "filler", i);
	n += (size_t)snprintf(t + n, cap - n, "%s", last);
	ck_assert_uint_gt(n, 3 * 4096);
	*len = n;
	return t;
}

/* The build-id cache's copy of the running kernel's kallsyms (kernel_ahead()'s
 * build-id) made in @p dir's cache with @p len bytes of @p text; its path in
 * @p copy (PATH_MAX bytes). */
static void cache_copy(const char *dir, char *copy, const char *text, size_t len)
{
	snprintf(copy, PATH_MAX, "%s/cache", dir);
	ck_assert_int_eq(mkdir(copy, 0755), 0);
	snprintf(copy, PATH_MAX, "%s/cache/[kernel.kallsyms]", dir);
	ck_assert_int_eq(mkdir(copy, 0755), 0);
	snprintf(copy, PATH_MAX, "%s/cache/[kernel.kallsyms]/4a5a9b010203%028d", dir, 0);
	ck_assert_int_eq(mkdir(copy, 0755), 0);
	snprintf(copy + strlen(copy), PATH_MAX - strlen(copy), "/kallsyms");
	testlib_write_raw(copy, text, len);
}

/*
 * With kallsyms_ahead, the running kernel's symbols come from the build-id cache's
 * copy of its kallsyms, and dso__check_kernel() says whether the running kernel's
 * file is that copy byte for byte: the table is the one the file gives when they are
 * the same; when they differ past the first page, the table is the copy's (it was
 * read, not the file) and the check says where they part.  The file itself is read,
 * and there is nothing to check, without a copy, with a copy whose first page is not
 * the file's (another boot's addresses) or older than this boot, without a worker
 * (-j 1: nothing would run beside the read), without the option; and the check's
 * answer does not count where the copy's table was not taken: no kernel address
 * looked up, or a recording whose kernel sits elsewhere (the file read again).  A
 * copy found to differ is noted (in the test's directory) and not read again until
 * it changes.
 */
START_TEST(test_symbol_kernel_ahead)
{
	const uint64_t text = 0xffffffff81000000, f300 = 0xffffffff81001000 + 16 * 300;
	char *dir = testlib_tmpdir(), live[PATH_MAX], copy[PATH_MAX], *same, *renamed;
	struct timespec old[2] = { { 0, 0 }, { 0, 0 } }, later[2];
	size_t len, rlen;
	struct dsos *da, *db;
	uint64_t off = 0;

	same = ahead_text(false, &len);
	renamed = ahead_text(true, &rlen);
	snprintf(live, sizeof(live), "%s/proc-kallsyms", dir);
	testlib_write_raw(live, same, len);
	/* no copy in the cache: the file itself, nothing to check */
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_int_eq(dso__check_kernel_state(dsos__kernel(da)), KALLSYMS_CHECK_SETTLED);
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	ck_assert_str_eq(dsos__kernel(da)->symsrc_path, live);
	dsos__delete(da);
	/* the copy, the same bytes */
	cache_copy(dir, copy, same, len);
	da = kernel_ahead(dir, 1, true, text);
	db = kernel_ahead(dir, 1, false, text);
	same_kernel_table(dsos__kernel(da), dsos__kernel(db));
	/* taken: the check runs or has its answer (asked without waiting) */
	ck_assert_int_ne(dso__check_kernel_state(dsos__kernel(da)), KALLSYMS_CHECK_UNUSED);
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_SAME);
	ck_assert_int_eq(dso__check_kernel_state(dsos__kernel(da)), KALLSYMS_CHECK_SETTLED);
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_SAME);
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(db), &off), KALLSYMS_NOT_AHEAD);
	/* the symbols' source is the running kernel's file, as perf names it */
	ck_assert_str_eq(dsos__kernel(da)->symsrc_path, live);
	dsos__delete(da);
	dsos__delete(db);
	/* a copy that differs from the file past its first page: its table was taken,
	 * the check says where they differ; the copy is noted stale, so the next
	 * collection reads the file, until the copy changes */
	testlib_write_raw(copy, renamed, rlen);
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_str_eq(kname(da, f300), "copied_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_DIFFER);
	ck_assert_uint_eq(off, (uint64_t)(strstr(renamed, "copied_300") - renamed));
	dsos__delete(da);
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_str_eq(kname(da, f300), "filler_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &later[0]), 0);
	later[0].tv_sec += 5;
	later[1] = later[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, copy, later, 0), 0);	/* another copy */
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_str_eq(kname(da, f300), "copied_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_DIFFER);
	dsos__delete(da);
	/* ... not taken (the copy changed again, so no note holds): no kernel address
	 * looked up, or the recording's kernel elsewhere (a KASLR shift: the file is
	 * read again); nothing is noted then */
	later[0].tv_sec += 5;
	later[1] = later[0];
	ck_assert_int_eq(utimensat(AT_FDCWD, copy, later, 0), 0);
	da = kernel_ahead(dir, 1, true, 0);
	/* read ahead, not taken: nothing depends on it yet */
	ck_assert_int_eq(dso__check_kernel_state(dsos__kernel(da)), KALLSYMS_CHECK_UNUSED);
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	da = kernel_ahead(dir, 1, true, text + 0x10000000);
	ck_assert_str_eq(kname(da, f300 + 0x10000000), "filler_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	da = kernel_ahead(dir, 1, true, text);	/* not noted: read ahead, taken */
	ck_assert_str_eq(kname(da, f300), "copied_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_DIFFER);
	dsos__delete(da);
	/* -j 1 (no worker), no option: the running kernel's file */
	da = kernel_ahead(dir, 0, true, text);
	ck_assert_str_eq(kname(da, f300), "filler_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	da = kernel_ahead(dir, 1, false, text);
	ck_assert_str_eq(kname(da, f300), "filler_300");
	dsos__delete(da);
	/* a copy written before this boot began */
	ck_assert_int_eq(utimensat(AT_FDCWD, copy, old, 0), 0);
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_str_eq(kname(da, f300), "filler_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	/* a copy whose first page differs from the file's (strong_fn renamed) */
	memcpy(strstr(renamed, "strong_fn"), "other_", 6);
	testlib_write_raw(copy, renamed, rlen);
	da = kernel_ahead(dir, 1, true, text);
	ck_assert_str_eq(kname(da, 0xffffffff81000105), "strong_fn");
	ck_assert_str_eq(kname(da, f300), "filler_300");
	ck_assert_int_eq(dso__check_kernel(dsos__kernel(da), &off), KALLSYMS_NOT_AHEAD);
	dsos__delete(da);
	free(same);
	free(renamed);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * kallsyms__same_file() over two files read as streams: the same bytes (empty, and
 * over several of its 64 KiB chunks); a byte that differs (its offset); one file a
 * prefix of the other, either way, ending inside a chunk and at a chunk's end; a
 * file that cannot be opened.
 */
START_TEST(test_symbol_kallsyms_same_file)
{
	char *dir = testlib_tmpdir(), a[PATH_MAX], b[PATH_MAX], *text;
	size_t len = 200000;
	uint64_t off;

	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	ck_assert_ptr_nonnull(text = malloc(len));
	for (size_t i = 0; i < len; i++)
		text[i] = (char)('a' + i % 23);
	testlib_write_raw(a, text, 0);
	testlib_write_raw(b, text, 0);
	ck_assert_int_eq(kallsyms__same_file(a, b, &off), 0);
	ck_assert_uint_eq(off, 0);
	testlib_write_raw(a, text, len);
	testlib_write_raw(b, text, len);
	ck_assert_int_eq(kallsyms__same_file(a, b, &off), 0);
	ck_assert_uint_eq(off, len);
	text[150001] ^= 1;
	testlib_write_raw(b, text, len);
	ck_assert_int_eq(kallsyms__same_file(a, b, &off), 1);
	ck_assert_uint_eq(off, 150001);
	text[150001] ^= 1;
	for (size_t n = 100000; n <= 131072; n += 31072) {	/* in a chunk, at its end */
		testlib_write_raw(b, text, n);
		ck_assert_int_eq(kallsyms__same_file(a, b, &off), 1);
		ck_assert_uint_eq(off, n);
		ck_assert_int_eq(kallsyms__same_file(b, a, &off), 1);
		ck_assert_uint_eq(off, n);
	}
	snprintf(b, sizeof(b), "%s/none", dir);
	ck_assert_int_eq(kallsyms__same_file(a, b, &off), -ENOENT);
	ck_assert_int_eq(kallsyms__same_file(b, a, &off), -ENOENT);
	free(text);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/*
 * A kallsyms file of many blocks (kallsyms_load__next() hands out about 256 KiB
 * of whole lines at a time), read ahead on workers: each block parsed by whichever
 * thread is free, the waiting one included, then joined in file order.  The table
 * is the one a plain load gives: module symbols among the kernel's, _text in a
 * later block, a line longer than a block (its name cut at 512 bytes as perf cuts
 * it), a line that is not a symbol, and a last line without its newline.
 */
START_TEST(test_symbol_kernel_preload_blocks)
{
	char *dir = testlib_tmpdir(), path[PATH_MAX], *text, *p;
	size_t cap = 4u << 20, len = 0;
	struct dsos *da, *db;
	const struct dso *a;

	ck_assert_ptr_nonnull(text = malloc(cap));
	for (unsigned i = 0; i < 40000; i++) {
		if (i == 30000)
			len += (size_t)snprintf(text + len, cap - len,
						"ffffffff81000000 T _text\n"
						"not a symbol line\n");
		if (i == 20000) {	/* a name of 300 KiB */
			len += (size_t)snprintf(text + len, cap - len, "ffffffff81%06x T ", i);
			memset(text + len, 'n', 300u << 10);
			len += 300u << 10;
			text[len++] = '\n';
		}
		if (i % 7 == 3)
			len += (size_t)snprintf(text + len, cap - len,
						"ffffffffc0%06x t mod_fn_%u\t[mod%u]\n",
						i * 16, i, i % 3);
		else
			len += (size_t)snprintf(text + len, cap - len, "ffffffff81%06x %c fn_%u\n",
						i * 16 + 0x10000, i % 5 ? 'T' : 'd', i);
	}
	len += (size_t)snprintf(text + len, cap - len, "ffffffff82000000 T last_fn");
	ck_assert_uint_lt(len, cap);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, text, len);
	da = kernel_loaded(path, PRELOAD_WORKERS, "[kernel.kallsyms]_text", 0xffffffff81000000);
	db = kernel_loaded(path, PRELOAD_NONE, "[kernel.kallsyms]_text", 0xffffffff81000000);
	a = dsos__kernel(da);
	same_kernel_table(a, dsos__kernel(db));
	ck_assert_uint_gt(a->symtab.nr, 30000);
	ck_assert_uint_gt(a->kmods.nr, 5000);
	ck_assert_str_eq(dso__find_symbol(dsos__kernel(da), 0xffffffff82000000)->name,
			 "last_fn");
	p = (char *)dso__find_symbol(dsos__kernel(da), 0xffffffff81004e20)->name;
	ck_assert_uint_eq(strlen(p), 512);
	dsos__delete(da);
	dsos__delete(db);
	free(text);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

static void parse_block(void *blk)
{
	kallsyms_block__parse(blk);
}

/* The text and the node array of a load grow while blocks are out (first room set
 * small): the reader waits for the blocks out, then moves them; the symbols are
 * those of symtab__read_kallsyms(), in file order. */
static void load_in_blocks(const char *path, size_t first_cap, size_t first_nodes,
			   struct symtab *out, struct kallsyms_text *t)
{
	struct kallsyms_load l;
	struct symtab_builder b = { 0 };
	struct workqueue *wq;
	struct wq_group g = { 0 };
	struct kallsyms_block *blk;
	int more, grew = 0;

	ck_assert_int_eq(workqueue__new(&wq, 2), 0);
	ck_assert_int_eq(kallsyms_load__open(&l, path), 0);
	l.first_cap = first_cap;
	l.first_nodes = first_nodes;
	while ((more = kallsyms_load__next(&l, &blk, false)) != 0) {
		if (more == 2) {
			workqueue__group_wait(wq, &g);
			grew++;
			more = kallsyms_load__next(&l, &blk, true);
			if (!more)
				break;
		}
		ck_assert_int_eq(more, 1);
		ck_assert_int_eq(workqueue__queue_group(wq, &g, parse_block, blk), 0);
	}
	workqueue__group_wait(wq, &g);
	ck_assert_int_ge(grew, first_cap ? 2 : 0);	/* the text and the slots moved */
	ck_assert_int_eq(kallsyms_load__finish(&l, &b, t), 0);
	kallsyms_load__close(&l);
	workqueue__delete(wq);
	ck_assert_int_gt(symtab__finish_kallsyms(&b, t, false, 0, NULL), 0);
	ck_assert_int_eq(symtab_builder__finish(&b, out), 0);
}

START_TEST(test_symbol_kallsyms_load_grows)
{
	char *dir = testlib_tmpdir(), path[PATH_MAX], *text;
	size_t cap = 2u << 20, len = 0;
	struct symtab_builder b = { 0 };
	struct symtab a, c;
	struct kallsyms_text ta, tc;

	ck_assert_ptr_nonnull(text = malloc(cap));
	for (unsigned i = 0; i < 30000; i++)
		len += (size_t)snprintf(text + len, cap - len, "ffffffff81%06x %c fn_%u\n",
					i * 16, i % 9 ? 't' : 'B', i);
	len += (size_t)snprintf(text + len, cap - len, "ffffffff81000010 T _text\n");
	ck_assert_uint_lt(len, cap);
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, text, len);
	load_in_blocks(path, 300u << 10, 1000, &a, &ta);
	ck_assert_int_eq(symtab__read_kallsyms(&b, path, &tc), 0);
	ck_assert_int_gt(symtab__finish_kallsyms(&b, &tc, false, 0, NULL), 0);
	ck_assert_int_eq(symtab_builder__finish(&b, &c), 0);
	ck_assert(ta.found && tc.found);
	ck_assert_uint_eq(ta.addr, 0xffffffff81000010);
	ck_assert_uint_eq(tc.addr, ta.addr);
	ck_assert_uint_eq(a.nr, c.nr);
	ck_assert_uint_gt(a.nr, 29000);
	for (size_t k = 0; k < a.nr; k++) {
		ck_assert_uint_eq(a.syms[k].start, c.syms[k].start);
		ck_assert_uint_eq(a.syms[k].end, c.syms[k].end);
		ck_assert_str_eq(a.syms[k].name, c.syms[k].name);
		ck_assert_uint_eq(a.syms[k].binding, c.syms[k].binding);
	}
	ck_assert_uint_eq(a.nr_ranges, c.nr_ranges);
	/* of two symbols at 0xffffffff81000010 perf keeps the global one */
	ck_assert_str_eq(symtab__find(&a, 0xffffffff81000010)->name, "_text");
	symtab__exit(&a);
	symtab__exit(&c);
	free(text);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* The bytes of a line as perf's kallsyms reader takes them: hex digits of either
 * case, a name ending at a NUL or at the newline and cut to 512 bytes, '[' and '\t'
 * noted wherever they are in it (module rules), lines of every length so that the
 * newlines of a block fall on every byte of an 8-byte word (its line count reserves
 * the block's slots). */
START_TEST(test_symbol_kallsyms_lines)
{
	char *dir = testlib_tmpdir(), path[PATH_MAX], *text, longname[700];
	size_t cap = 1u << 20, len = 0;
	struct symtab_builder b = { 0 };
	struct kmod_symbols mods = { 0 };
	struct kallsyms_text kt;
	struct symtab t;
	const struct symbol *s;

	ck_assert_ptr_nonnull(text = malloc(cap));
	memset(longname, 'L', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	len += (size_t)snprintf(text + len, cap - len,
				"FFFFFFFF81000000 T Upper_hex\n"
				"ffffffff81000100 T %s\n", longname);
	/* a NUL inside a line ends its name */
	memcpy(text + len, "ffffffff81000200 t name_and\0hidden\n", 35);
	len += 35;
	len += (size_t)snprintf(text + len, cap - len,
				"ffffffff81000300 t br[acket\n"
				"ffffffff81000400 t in_mod\t[m]\n"
				"xyz T not_a_line\n"
				"ffffffff81000500T no_space\n");
	for (unsigned i = 0; i < 40; i++)	/* names of 1..40 bytes */
		len += (size_t)snprintf(text + len, cap - len, "ffffffff81%06x T %.*s\n",
					0x1000 + i * 16, (int)i + 1,
					"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN");
	len += (size_t)snprintf(text + len, cap - len, "ffffffff81100000 T last_no_newline");
	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, text, len);
	ck_assert_int_eq(symtab__read_kallsyms(&b, path, &kt), 0);
	ck_assert_int_gt(symtab__finish_kallsyms(&b, &kt, false, 0, &mods), 0);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0xffffffff81000000), "Upper_hex");
	s = symtab__find(&t, 0xffffffff81000100);
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(strlen(s->name), 512);
	/* the symbol before a name with '[' ends at the page rule, roundup(start +
	 * 4096), not at the next start */
	s = symtab__find(&t, 0xffffffff81000200);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "name_and");
	ck_assert_uint_eq(s->end, 0xffffffff81002000);
	ck_assert_str_eq(name_at(&t, 0xffffffff81000300), "br[acket");
	/* "name\t[module]" goes to the modules */
	ck_assert_uint_eq(mods.nr, 1);
	ck_assert_str_eq(mods.pool + mods.v[0].name, "in_mod");
	ck_assert_str_eq(mods.pool + mods.v[0].module, "[m]");
	for (unsigned i = 0; i < 40; i++) {
		char want[41];

		snprintf(want, sizeof(want), "%.*s", (int)i + 1,
			 "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN");
		ck_assert_str_eq(name_at(&t, 0xffffffff81001000 + i * 16), want);
	}
	ck_assert_str_eq(name_at(&t, 0xffffffff81100000), "last_no_newline");
	for (size_t i = 0; i < t.nr; i++) {
		ck_assert_str_ne(t.syms[i].name, "not_a_line");
		ck_assert_str_ne(t.syms[i].name, "no_space");
		ck_assert_str_ne(t.syms[i].name, "hidden");
	}
	/* 1 + 1 + 1 + 1 + 40 + 1 kernel symbols, the module's apart */
	ck_assert_uint_eq(t.nr, 45);
	symtab__exit(&t);
	kmod_symbols__exit(&mods);
	free(text);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* Threads of this process named @p comm. */
static unsigned threads_named(const char *comm)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	unsigned n = 0;

	ck_assert_ptr_nonnull(d);
	while ((e = readdir(d))) {
		char path[PATH_MAX], name[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if (!(f = fopen(path, "r")))
			continue;	/* the thread is gone */
		if (fgets(name, sizeof(name), f))
			name[strcspn(name, "\n")] = '\0';
		fclose(f);
		n += !strcmp(name, comm);
	}
	closedir(d);
	return n;
}

/* The running kernel's kallsyms as a FIFO: its first page written once a reader
 * opens it, the rest only once the test says so (go). */
struct fifo_writer {
	const char *path, *text;
	size_t len;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool go;
};

static void *fifo_write(void *arg)
{
	struct fifo_writer *w = arg;
	int fd = open(w->path, O_WRONLY);	/* once the read ahead opens it */

	if (fd < 0)
		return NULL;
	if (write(fd, w->text, 4096) == 4096) {	/* one page: what ahead_copy() reads */
		size_t off = 4096;

		pthread_mutex_lock(&w->mu);
		while (!w->go)
			pthread_cond_wait(&w->cv, &w->mu);
		pthread_mutex_unlock(&w->mu);
		while (off < w->len) {
			ssize_t k = write(fd, w->text + off, w->len - off);

			if (k <= 0)
				break;
			off += (size_t)k;
		}
	}
	close(fd);
	return NULL;
}

/* dsos_opts.kallsyms_check_at_take (a report that forks to check its tracing data
 * before its delivery): no check thread runs once the copy is read ahead, before the
 * table is taken - the running kernel's file is a FIFO that gives nothing past its
 * first page yet, so a check started then would be waiting in it, there to count;
 * taking the table starts the check, whose answer is the usual one.  Without the
 * option the check has started by then (once the copy has parsed). */
START_TEST(test_symbol_kernel_check_at_take)
{
	const uint64_t text = 0xffffffff81000000;
	char *dir = testlib_tmpdir(), live[PATH_MAX], copy[PATH_MAX], *t;
	struct fifo_writer w = { .path = live, .mu = PTHREAD_MUTEX_INITIALIZER,
				 .cv = PTHREAD_COND_INITIALIZER };
	uint64_t off = 0;
	pthread_t th;
	struct dsos *d;
	size_t n;

	t = ahead_text(false, &n);
	w.text = t;
	w.len = n;
	snprintf(live, sizeof(live), "%s/proc-kallsyms", dir);
	ck_assert_int_eq(mkfifo(live, 0600), 0);
	cache_copy(dir, copy, t, n);
	/* at take; then, without the option, once the copy has parsed */
	for (int at_take = 1; at_take >= 0; at_take--) {
		w.go = false;
		ck_assert_int_eq(pthread_create(&th, NULL, fifo_write, &w), 0);
		d = kernel_ahead_at(dir, 1, true, at_take, 0);	/* read ahead, not taken */
		ck_assert_uint_eq(threads_named("dr-kallsyms"), at_take ? 0 : 1);
		pthread_mutex_lock(&w.mu);
		w.go = true;
		pthread_cond_signal(&w.cv);
		pthread_mutex_unlock(&w.mu);
		ck_assert_int_eq(dso__set_kernel_ref(dsos__kernel(d), "[kernel.kallsyms]_text",
						     text), 0);
		ck_assert_int_ge(dso__load(dsos__kernel(d)), 0);	/* taken: checked */
		ck_assert_int_eq(dso__check_kernel(dsos__kernel(d), &off), KALLSYMS_SAME);
		ck_assert_int_eq(pthread_join(th, NULL), 0);
		dsos__delete(d);
	}
	free(t);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- kernel modules ----------------------------------------------------------- */

START_TEST(test_symbol_kmod_split)
{
	struct symtab_builder b = { 0 };
	struct kmod_symbols mods = { 0 };
	struct symtab t = { 0 }, m = { 0 };
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	const struct symbol *s;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	ck_assert_int_gt(symtab__load_kallsyms(&b, path, "_text", 0xffffffff91000000, &mods),
			 0);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	/* the module symbols are set aside in address order, unshifted, with the
	 * kallsyms end rules: a module symbol before a kernel one ends at
	 * roundup(start + 4096), the last one at roundup(start) + 4096 */
	ck_assert_uint_eq(mods.nr, 2);
	ck_assert_str_eq(mods.pool + mods.v[0].name, "mod_in_middle");
	ck_assert_str_eq(mods.pool + mods.v[0].module, "[mod0]");
	ck_assert_uint_eq(mods.v[0].start, 0xffffffff81000700);
	ck_assert_uint_eq(mods.v[0].end, 0xffffffff81002000);
	ck_assert_str_eq(mods.pool + mods.v[1].name, "mod_fn");
	ck_assert_uint_eq(mods.v[1].end, 0xffffffffc0002000);
	/* [mod1]'s table, relative to its map at 0xffffffffc0000000 */
	ck_assert_int_eq(kmod_symbols__table(&mods, "[mod1]", 0xffffffffc0000000, &m), 1);
	s = symtab__find(&m, 0x1800);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "mod_fn");
	ck_assert_uint_eq(s->start, 0x1000);
	ck_assert_uint_eq(s->end, 0x2000);
	ck_assert_uint_eq(s->namelen_extra, strlen("\t[mod1]"));	/* perf's namelen */
	symtab__exit(&m);
	ck_assert_int_eq(kmod_symbols__table(&mods, "[nosuch]", 0, &m), 0);
	symtab__exit(&m);
	symtab__exit(&t);
	kmod_symbols__exit(&mods);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_symbol_kmod_names)
{
	static const struct { const char *path, *name; } cases[] = {
		{ "/lib/modules/6.1.0/kernel/net/mac80211/mac80211.ko", "[mac80211]" },
		{ "/lib/modules/3.4/kernel/drivers/media/video/videobuf2-core.ko",
		  "[videobuf2_core]" },
		{ "/lib/modules/6.1.0/kernel/fs/ext4/ext4.ko.xz", "[ext4]" },
		{ "/lib/modules/6.1.0/kernel/fs/xfs/xfs.ko.zst", "[xfs]" },
		{ "/lib/modules/6.1.0/kernel/fs/btrfs/btrfs.ko.gz", "[btrfs]" },
		{ "[bpf_prog]", "[bpf_prog]" },		/* not a .ko: the name as is */
		{ "/usr/lib/some-file.so", "some_file.so" },
	};
	struct dsos *d;

	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct dso *m = dsos__findnew_module(d, cases[i].path);

		ck_assert_ptr_nonnull(m);
		ck_assert_int_eq(m->kind, DSO_KIND_MODULE);
		ck_assert_str_eq(dso__short_name(m), cases[i].name);
		ck_assert_str_eq(dso__long_name(m), cases[i].path);
		ck_assert_ptr_eq(dsos__findnew_module(d, cases[i].path), m);
	}
	dsos__delete(d);
}
END_TEST

/* An MMAP record of [start, start + len) at pgoff, replayed into m. */
static void mmap_record(struct machine *m, uint16_t misc, uint32_t pid, uint32_t tid,
			uint64_t start, uint64_t len, uint64_t pgoff, const char *name)
{
	struct testlib_buf b = { 0 };
	uint32_t type = REC_MMAP;
	uint16_t size;
	size_t n = strlen(name) + 1, pad = (8 - n % 8) % 8;
	struct record_ref ref = { .type = REC_MMAP };
	struct sample s;
	static const char zeros[8];

	size = (uint16_t)(8 + 4 + 4 + 8 + 8 + 8 + n + pad);
	testlib_buf_add(&b, &type, 4);
	testlib_buf_add(&b, &misc, 2);
	testlib_buf_add(&b, &size, 2);
	testlib_buf_u32(&b, pid);
	testlib_buf_u32(&b, tid);
	testlib_buf_u64(&b, start);
	testlib_buf_u64(&b, len);
	testlib_buf_u64(&b, pgoff);
	testlib_buf_add(&b, name, n);
	testlib_buf_add(&b, zeros, pad);
	ref.data = b.p;
	ref.size = (uint32_t)b.len;
	memset(&s, 0, sizeof(s));
	ck_assert_int_eq(machine__process(m, &ref, &s), 0);
	testlib_buf_free(&b);
}

/* A kernel MMAP record (pid -1) of [start, start + len) at pgoff. */
static void kernel_mmap(struct machine *m, uint64_t start, uint64_t len, uint64_t pgoff,
			const char *name)
{
	mmap_record(m, MISC_KERNEL, (uint32_t)-1, 0, start, len, pgoff, name);
}

/* maps__copy(): a copy of a process's maps taken before an MMAP that cuts them
 * still resolves as the maps were (what pass 1b of dirreport unwinds against on
 * the workers), the thread's own maps as they are now; machine__release_maps()
 * frees the old array (ASan and valgrind see it go, and see it kept until then). */
START_TEST(test_symbol_maps_copy)
{
	struct machine *m;
	struct thread *t;
	struct maps snap;
	struct addr_location al;

	ck_assert_int_eq(machine__new(&m, NULL), 0);
	for (int copy = 0; copy < 2; copy++) {
		uint32_t pid = 100 + (uint32_t)copy;

		mmap_record(m, MISC_USER, pid, pid, 0x400000, 0x3000, 0, "/bin/a");
		t = machine__findnew_thread(m, (int32_t)pid, (int32_t)pid);
		ck_assert_ptr_nonnull(t);
		if (copy)
			maps__copy(t->maps, &snap);
		/* /bin/b cuts /bin/a in two: a new array */
		mmap_record(m, MISC_USER, pid, pid, 0x401000, 0x1000, 0x5000, "/bin/b");
		if (copy) {
			ck_assert_uint_ne(snap.gen, t->maps->gen);
			maps__resolve_user(&snap, 0x401010, &al);
			ck_assert_ptr_nonnull(al.dso);
			ck_assert_str_eq(dso__long_name(al.dso), "/bin/a");
			ck_assert_uint_eq(al.addr, 0x1010);
			ck_assert_uint_eq(al.map_start, 0x400000);
			ck_assert_int_eq(al.level, '.');
			ck_assert_ptr_null(al.sym);
		}
		maps__resolve_user(t->maps, 0x401010, &al);
		ck_assert_ptr_nonnull(al.dso);
		ck_assert_str_eq(dso__long_name(al.dso), "/bin/b");
		ck_assert_uint_eq(al.addr, 0x5010);
		ck_assert_uint_eq(al.map_start, 0x401000);
		maps__resolve_user(t->maps, 0x402010, &al);	/* /bin/a's tail */
		ck_assert_str_eq(dso__long_name(al.dso), "/bin/a");
		ck_assert_uint_eq(al.addr, 0x2010);
		maps__resolve_user(t->maps, 0x403000, &al);	/* no map */
		ck_assert_ptr_null(al.dso);
		ck_assert_uint_eq(al.addr, 0x403000);
		maps__resolve_user(NULL, 0x401010, &al);
		ck_assert_ptr_null(al.dso);
		machine__release_maps(m);
	}
	machine__delete(m);
}
END_TEST

/* machine__release_maps_upto(): the dump's two stages - copies of batch 1 taken, a
 * count taken, batch 2's copies taken (one of an array batch 1 also read, replaced
 * in batch 2): releasing up to the count frees only the array replaced in batch 1
 * (ASan and valgrind see it go); batch 2's copies still resolve, and the arrays
 * counted after it are counted from 0. */
START_TEST(test_symbol_maps_release_upto)
{
	struct machine *m;
	struct thread *t;
	struct maps one, two;
	struct addr_location al;
	size_t mark;

	ck_assert_int_eq(machine__new(&m, NULL), 0);
	mmap_record(m, MISC_USER, 300, 300, 0x400000, 0x3000, 0, "/bin/a");
	t = machine__findnew_thread(m, 300, 300);
	ck_assert_ptr_nonnull(t);
	/* batch 1: a copy, then an MMAP that replaces its array */
	maps__copy(t->maps, &one);
	mmap_record(m, MISC_USER, 300, 300, 0x401000, 0x1000, 0x5000, "/bin/b");
	mark = machine__maps_retired(m);
	ck_assert_uint_eq(mark, 1);
	/* batch 2: a copy of the array now in use, then an MMAP that replaces it */
	maps__copy(t->maps, &two);
	mmap_record(m, MISC_USER, 300, 300, 0x402000, 0x1000, 0x9000, "/bin/c");
	ck_assert_uint_eq(machine__maps_retired(m), 2);
	maps__resolve_user(&one, 0x401010, &al);	/* batch 1 read it until now */
	ck_assert_str_eq(dso__long_name(al.dso), "/bin/a");
	machine__release_maps_upto(m, mark);	/* batch 1 written */
	ck_assert_uint_eq(machine__maps_retired(m), 1);
	maps__resolve_user(&two, 0x401010, &al);	/* batch 2's copy: still valid */
	ck_assert_str_eq(dso__long_name(al.dso), "/bin/b");
	maps__resolve_user(&two, 0x402010, &al);
	ck_assert_str_eq(dso__long_name(al.dso), "/bin/a");
	maps__resolve_user(t->maps, 0x402010, &al);
	ck_assert_str_eq(dso__long_name(al.dso), "/bin/c");
	machine__release_maps_upto(m, 5);	/* more than kept: all of them */
	ck_assert_uint_eq(machine__maps_retired(m), 0);
	machine__delete(m);
}
END_TEST

/* Module maps: perf's short name, module-relative addresses, and the kallsyms
 * symbols the kernel's first sample gives the modules mapped by then (none to a
 * module whose own sample came first). */
START_TEST(test_symbol_kmod_machine)
{
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	struct addr_location al;

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	for (int module_first = 0; module_first < 2; module_first++) {
		struct machine *m;

		ck_assert_int_eq(machine__new(&m, path), 0);
		kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
			    "[kernel.kallsyms]_text");
		kernel_mmap(m, 0xffffffffc0000000, 0x3000, 0,
			    "/lib/modules/6.1.0/kernel/drivers/mod1.ko");
		if (module_first)
			machine__resolve(m, NULL, MISC_KERNEL, 0xffffffffc0001010, &al);
		machine__resolve(m, NULL, MISC_KERNEL, 0xffffffff81000105, &al);
		ck_assert_str_eq(al.sym->name, "strong_fn");
		machine__resolve(m, NULL, MISC_KERNEL, 0xffffffffc0001010, &al);
		ck_assert_ptr_nonnull(al.dso);
		ck_assert_str_eq(dso__short_name(al.dso), "[mod1]");
		ck_assert_uint_eq(al.addr, 0x1010);	/* module-relative */
		ck_assert_uint_eq(al.map_pgoff, 0);
		if (module_first) {
			ck_assert_ptr_null(al.sym);
		} else {
			ck_assert_ptr_nonnull(al.sym);
			ck_assert_str_eq(al.sym->name, "mod_fn");
			ck_assert_uint_eq(al.sym_unmapped_start, 0xffffffffc0001000);
		}
		machine__delete(m);
	}
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* The fields of an addr_location that machine__resolve_map() and
 * machine__resolve_map_at() both set. */
static void same_map(const struct addr_location *x, const struct addr_location *y)
{
	ck_assert_ptr_eq(x->dso, y->dso);
	ck_assert_uint_eq(x->addr, y->addr);
	ck_assert_uint_eq(x->map_start, y->map_start);
	ck_assert_uint_eq(x->map_end, y->map_end);
	ck_assert_uint_eq(x->map_pgoff, y->map_pgoff);
	ck_assert_uint_eq(x->map_id, y->map_id);
	ck_assert_int_eq(x->level, y->level);
}

/*
 * machine__resolve_map_at() (dirreport's chains walked on the workers) resolves as
 * machine__resolve_map() once machine__kernel_ready(): kernel, module, user (in a
 * copy of the maps taken before an MMAP changed them) and hypervisor addresses; the
 * kernel is ready only after its first sample moved its map, and not before.
 */
START_TEST(test_symbol_resolve_map_at)
{
	static const struct { uint16_t cpumode; uint64_t ip; } ips[] = {
		{ MISC_KERNEL, 0xffffffff81000105 }, { MISC_KERNEL, 0xffffffff81001fff },
		{ MISC_KERNEL, 0xffffffff81002000 }, { MISC_KERNEL, 0xffffffffc0001010 },
		{ MISC_KERNEL, 0xffffffff80000000 }, { MISC_USER, 0x400010 },
		{ MISC_USER, 0x401010 }, { MISC_USER, 0x500000 },
		{ MISC_HYPERVISOR, 0x400010 },
	};
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	struct machine *m;
	struct thread *t;
	struct maps snap;
	struct addr_location x, y, want[sizeof(ips) / sizeof(ips[0])];

	snprintf(path, sizeof(path), "%s/kallsyms", dir);
	testlib_write_raw(path, fake_kallsyms, strlen(fake_kallsyms));
	ck_assert_int_eq(machine__new(&m, path), 0);
	ck_assert(machine__kernel_ready(m));	/* no kernel map */
	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
		    "[kernel.kallsyms]_text");
	kernel_mmap(m, 0xffffffffc0000000, 0x3000, 0,
		    "/lib/modules/6.1.0/kernel/drivers/mod1.ko");
	mmap_record(m, MISC_USER, 100, 100, 0x400000, 0x3000, 0, "/bin/a");
	t = machine__findnew_thread(m, 100, 100);
	ck_assert_ptr_nonnull(t);
	ck_assert(!machine__kernel_ready(m));
	/* before the kernel's first sample its map spans what the MMAP said */
	machine__resolve_map_at(m, t->maps, MISC_KERNEL, 0xffffffff81fff000, &x);
	ck_assert_ptr_nonnull(x.dso);
	machine__resolve_map(m, NULL, MISC_KERNEL, 0xffffffff81000105, &y);
	ck_assert(machine__kernel_ready(m));
	for (size_t i = 0; i < sizeof(ips) / sizeof(ips[0]); i++)
		machine__resolve_map(m, t, ips[i].cpumode, ips[i].ip, &want[i]);
	maps__copy(t->maps, &snap);
	/* /bin/b cuts /bin/a: the copy resolves as the maps were */
	mmap_record(m, MISC_USER, 100, 100, 0x401000, 0x1000, 0x5000, "/bin/b");
	for (size_t i = 0; i < sizeof(ips) / sizeof(ips[0]); i++) {
		machine__resolve_map_at(m, &snap, ips[i].cpumode, ips[i].ip, &x);
		same_map(&x, &want[i]);
		ck_assert_ptr_null(x.thread);
		ck_assert_ptr_null(x.sym);
	}
	ck_assert_ptr_nonnull(want[6].dso);
	ck_assert_str_eq(dso__long_name(want[6].dso), "/bin/a");
	ck_assert_str_eq(dso__short_name(want[3].dso), "[mod1]");
	machine__resolve_map(m, t, MISC_USER, 0x401010, &y);
	ck_assert_str_eq(dso__long_name(y.dso), "/bin/b");
	/* the kernel's map now ends with its symbols: past them, no map */
	machine__resolve_map_at(m, &snap, MISC_KERNEL, 0xffffffff81fff000, &x);
	ck_assert_ptr_null(x.dso);
	/* a module mapped later leaves the kernel ready; a new kernel map does not
	 * until its first sample */
	kernel_mmap(m, 0xffffffffc0010000, 0x2000, 0,
		    "/lib/modules/6.1.0/kernel/drivers/mod2.ko");
	ck_assert(machine__kernel_ready(m));
	kernel_mmap(m, 0xffffffff81000000, 0x1000000, 0xffffffff81000000,
		    "[kernel.kallsyms]_text");
	ck_assert(!machine__kernel_ready(m));
	machine__resolve_map(m, NULL, MISC_KERNEL, 0xffffffff81000105, &y);
	ck_assert(machine__kernel_ready(m));
	machine__release_maps(m);
	machine__delete(m);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- ELF: this test binary and libc ------------------------------------------ */

__attribute__((noinline, used)) static int symbol_test_probe_fn(int x)
{
	return x * 7 + 3;
}

/* map_ip of a code address of this process, as perf computes it from the MMAP. */
static bool map_ip_of(const void *addr, char *path, size_t len, uint64_t *map_ip)
{
	FILE *f = fopen("/proc/self/maps", "r");
	char line[PATH_MAX + 128];
	uint64_t a = (uint64_t)(uintptr_t)addr;
	bool ok = false;

	if (!f)
		return false;
	while (!ok && fgets(line, sizeof(line), f)) {
		uint64_t lo, hi, off;
		char perms[8], file[PATH_MAX];

		file[0] = '\0';
		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %4095s",
			   &lo, &hi, perms, &off, file) < 4)
			continue;
		if (a < lo || a >= hi || perms[2] != 'x')
			continue;
		snprintf(path, len, "%s", file);
		*map_ip = a - lo + off;
		ok = true;
	}
	fclose(f);
	return ok;
}

START_TEST(test_symbol_elf_self)
{
	char path[PATH_MAX];
	uint64_t ip;
	struct dsos *d;
	struct dso *dso;
	const struct symbol *s;

	ck_assert(map_ip_of((const void *)(uintptr_t)symbol_test_probe_fn, path,
			    sizeof(path), &ip));
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	dso = dsos__findnew(d, path);
	s = dso__find_symbol(dso, ip + 1);	/* inside, not at the start */
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "symbol_test_probe_fn");
	ck_assert_uint_le(s->start, ip);
	ck_assert_uint_gt(s->end, ip + 1);
	ck_assert_uint_eq(s->binding, STB_LOCAL);
	ck_assert_ptr_eq(dsos__findnew(d, path), dso);
	ck_assert_ptr_nonnull(strrchr(path, '/'));
	ck_assert_str_eq(dso__short_name(dso), strrchr(path, '/') + 1);
	dsos__delete(d);
}
END_TEST

START_TEST(test_symbol_elf_libc)
{
	char path[PATH_MAX];
	uint64_t ip;
	struct dsos *d;
	struct dso *dso;
	const struct symbol *s, *s2;
	Dl_info info;

	/* the libc entry point of fclose (not a PLT stub of ours) */
	ck_assert(dladdr((const void *)(uintptr_t)fclose, &info));
	ck_assert(map_ip_of(info.dli_saddr, path, sizeof(path), &ip));
	if (!strstr(path, "/libc.so"))
		return;	/* intercepted (ASan): fclose is not libc's here */
	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	dso = dsos__findnew(d, path);
	s = dso__find_symbol(dso, ip);
	ck_assert_ptr_nonnull(s);
	/* perf prints the versioned name from libc's .symtab (libc6-dbg) or "fclose"
	 * from .dynsym */
	ck_assert_msg(!strcmp(s->name, "fclose@@GLIBC_2.2.5") || !strcmp(s->name, "_IO_fclose") ||
		      !strcmp(s->name, "fclose"), "got %s", s->name);
	ck_assert_uint_eq(s->start, ip);
	/* lookups are stable and every symbol contains its own start */
	s2 = dso__find_symbol(dso, s->end - 1);
	ck_assert_ptr_nonnull(s2);
	for (size_t i = 0; i < dso->symtab.nr; i += 97) {
		const struct symbol *x = &dso->symtab.syms[i];
		const struct symbol *y = dso__find_symbol(dso, x->start);

		ck_assert_ptr_nonnull(y);
		ck_assert_uint_le(y->start, x->start);
	}
	dsos__delete(d);
}
END_TEST

START_TEST(test_symbol_build_id_mismatch)
{
	char path[PATH_MAX];
	uint64_t ip;
	struct dsos *d;
	struct dso *dso;
	static const uint8_t wrong[20] = { 1, 2, 3 };
	char *dir = testlib_tmpdir();
	struct dsos_opts o = { .buildid_dir = dir, .debug_dir = dir };

	ck_assert(map_ip_of((const void *)(uintptr_t)symbol_test_probe_fn, path,
			    sizeof(path), &ip));
	ck_assert_int_eq(dsos__new(&d, &o), 0);
	dso = dsos__findnew(d, path);
	dso__set_build_id(dso, wrong, sizeof(wrong));
	/* perf refuses images whose build-id differs from the recorded one */
	ck_assert_ptr_null(dso__find_symbol(dso, ip));
	ck_assert_int_eq(dso->load_err, -ENOENT);
	dsos__delete(d);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* dso__symsrc_guess(): the file dso__load() takes symbols from, found without
 * loading; nothing without a build-id (the load would read the file's own first),
 * for a wrong build-id (no file matches) or for a kernel dso. */
START_TEST(test_symbol_symsrc_guess)
{
	char path[PATH_MAX], got[PATH_MAX];
	uint64_t ip;
	struct dsos *d1, *d2;
	struct dso *loaded, *fresh;
	static const uint8_t wrong[20] = { 1, 2, 3 };

	ck_assert(map_ip_of((const void *)(uintptr_t)symbol_test_probe_fn, path,
			    sizeof(path), &ip));
	ck_assert_int_eq(dsos__new(&d1, NULL), 0);
	ck_assert_int_eq(dsos__new(&d2, NULL), 0);
	loaded = dsos__findnew(d1, path);
	ck_assert_int_eq(dso__symsrc_guess(loaded, got, sizeof(got)), -ENOENT);
	ck_assert_int_gt(dso__load(loaded), 0);
	ck_assert_ptr_nonnull(loaded->symsrc_path);
	if (loaded->has_build_id) {	/* linked with a build-id note */
		fresh = dsos__findnew(d2, path);
		dso__set_build_id(fresh, loaded->build_id, loaded->build_id_size);
		ck_assert_int_eq(dso__symsrc_guess(fresh, got, sizeof(got)), 0);
		ck_assert_str_eq(got, loaded->symsrc_path);
		ck_assert(!fresh->loaded);	/* the dso is left as it was */
		ck_assert_ptr_null(fresh->symsrc_path);
		ck_assert_int_eq(dso__symsrc_guess(fresh, got, 4), -ENAMETOOLONG);
		fresh = dsos__findnew(d2, "/nonexistent/libx.so");
		dso__set_build_id(fresh, wrong, sizeof(wrong));
		ck_assert_int_eq(dso__symsrc_guess(fresh, got, sizeof(got)), -ENOENT);
	}
	ck_assert_int_eq(dso__symsrc_guess(dsos__kernel(d2), got, sizeof(got)), -ENOENT);
	dsos__delete(d2);
	dsos__delete(d1);
}
END_TEST

START_TEST(test_symbol_vdso)
{
	struct dsos *d;
	struct dso *v;
	char *dir = testlib_tmpdir();
	struct dsos_opts o = { .buildid_dir = dir, .debug_dir = dir };
	static const uint8_t bid[20] = { 0xaa };

	ck_assert_int_eq(dsos__new(&d, &o), 0);
	v = dsos__findnew(d, "[vdso]");
	ck_assert_int_eq(v->kind, DSO_KIND_VDSO);
	ck_assert_str_eq(dso__short_name(v), "[vdso]");
	/* no build-id: the running vdso (x86-64 has __vdso_clock_gettime) */
	ck_assert_int_ge(dso__load(v), 0);
	if (v->symtab.nr) {
		bool found = false;

		for (size_t i = 0; i < v->symtab.nr; i++)
			found |= !strcmp(v->symtab.syms[i].name, "__vdso_clock_gettime");
		ck_assert(found);
	}
	/* a recorded build-id that is not in the cache: no symbols, as perf */
	v = dsos__findnew(d, "[vdso32]");
	dso__set_build_id(v, bid, sizeof(bid));
	ck_assert_int_eq(dso__load(v), 0);
	ck_assert_ptr_null(dso__find_symbol(v, 0x800));
	dsos__delete(d);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- perf map, names, formatting ---------------------------------------------- */

START_TEST(test_symbol_perf_map)
{
	struct symtab_builder b = { 0 };
	struct symtab t;
	char *dir = testlib_tmpdir(), path[PATH_MAX];
	static const char map[] =
		"7f0000001000 100 jit_a\n"
		"0x7f0000001200 0x80 jit with spaces\n"
		"7f0000001300 0 zero\n"
		"bad line\n"
		"7f0000001400 10 no_newline";

	snprintf(path, sizeof(path), "%s/perf-1.map", dir);
	testlib_write_raw(path, map, strlen(map));
	/* "bad line" parses like perf: start 0xbad, size 0 ("l" is not hex), name
	 * "ine" */
	ck_assert_int_eq(symtab__load_perf_map(&b, path), 5);
	ck_assert_int_eq(symtab_builder__finish(&b, &t), 0);
	ck_assert_str_eq(name_at(&t, 0x7f00000010ff), "jit_a");
	ck_assert_str_eq(name_at(&t, 0x7f0000001250), "jit with spaces");
	ck_assert_str_eq(name_at(&t, 0x7f0000001300), "zero");
	ck_assert_str_eq(name_at(&t, 0x7f0000001301), "-");
	ck_assert_str_eq(name_at(&t, 0xbad), "ine");
	/* perf cuts the last byte of every line, newline or not */
	ck_assert_str_eq(name_at(&t, 0x7f0000001400), "no_newlin");
	symtab__exit(&t);
	testlib_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_symbol_mmap_names)
{
	char buf[64];
	struct dsos *d;

	ck_assert_uint_eq(dso__mmap_name("//anon", 42, true, buf, sizeof(buf)),
			  DSO_MMAP_IDENTITY);
	ck_assert_str_eq(buf, "/tmp/perf-42.map");
	ck_assert_uint_eq(dso__mmap_name("[heap]", 7, false, buf, sizeof(buf)),
			  DSO_MMAP_IDENTITY);
	ck_assert_str_eq(buf, "[heap]");
	ck_assert_uint_eq(dso__mmap_name("[vdso]", 7, true, buf, sizeof(buf)), DSO_MMAP_VDSO);
	ck_assert_uint_eq(dso__mmap_name("/usr/bin/x", 7, true, buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "/usr/bin/x");

	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	ck_assert_str_eq(dso__short_name(dsos__findnew(d, "/tmp/perf-42.map")), "[JIT] tid 42");
	ck_assert_int_eq(dsos__findnew(d, "/tmp/perf-42.map")->kind, DSO_KIND_PERF_MAP);
	ck_assert_str_eq(dso__short_name(dsos__findnew(d, "/usr/lib/x86_64-linux-gnu/libc.so.6")),
			 "libc.so.6");
	ck_assert_str_eq(dso__short_name(dsos__findnew(d, "[heap]")), "[heap]");
	ck_assert_ptr_null(dsos__find(d, "/nonexistent"));
	/* a dso whose file does not exist resolves nothing */
	ck_assert_ptr_null(dso__find_symbol(dsos__findnew(d, "/nonexistent/x"), 0x1000));
	dsos__delete(d);
	dsos__delete(NULL);
}
END_TEST

START_TEST(test_symbol_demangle)
{
	static const char *const cases[][2] = {
		{ "_ZN2ns3BoxIiE4spinEi", "ns::Box<int>::spin" },
		{ "_Z10overloadedd", "overloaded" },
		{ "_Z3fooIiEvT_", "foo<int>" },
		{ "_ZNK1A1fEv", "A::f" },
		{ "_Z3foov.cold", "foo" },
		{ "_ZTV1A", "vtable for A" },
		{ "_ZStlsIfcSt11char_traitsIcEERSt13basic_ostreamIT0_T1_ES6_RKSt7complexIT_E",
		  "std::operator<< <float, char, std::char_traits<char> >" },
		{ "_ZNSt7__cxx1112basic_stringIcSt11char_traitsIcESaIcEEaSEOS4_",
		  "std::__cxx11::basic_string<char, std::char_traits<char>, std::allocator<char> >::operator=" },
	};
	char *s;

	static const char *const rust[][2] = {
		{ "_ZN1m5inner12Foo$LT$T$GT$2go17h2c17e28db10c892aE", "m::inner::Foo<T>::go" },
		{ "_ZN79_$LT$hashbrown..raw..RawTable$LT$T$C$A$GT$$u20$as$u20$core..ops..drop.."
		  "Drop$GT$4drop17h0025b0cb1bcec943E",
		  "<hashbrown::raw::RawTable<T,A> as core::ops::drop::Drop>::drop" },
		{ "_ZN4core3ops8function6FnOnce40call_once$u7b$$u7b$vtable.shim$u7d$$u7d$"
		  "17h586cf6476555c1edE", "core::ops::function::FnOnce::call_once{{vtable.shim}}" },
		{ "_ZN9hashbrown3raw21RawTable$LT$T$C$A$GT$14reserve_rehash17h4b39d1bfcccd7ef6E"
		  ".llvm.8163807276076909773", "hashbrown::raw::RawTable<T,A>::reserve_rehash" },
	};

	ck_assert_ptr_null(symbol__demangle("main"));
	ck_assert_ptr_null(symbol__demangle("_Z"));
	/* legacy Rust (libiberty tries it before C++): no hash, escapes decoded */
	for (size_t i = 0; i < sizeof(rust) / sizeof(rust[0]); i++) {
		s = symbol__demangle(rust[i][0]);
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(s, rust[i][1]);
		free(s);
	}
	s = symbol__demangle(cases[0][0]);
	if (!s)
		return;	/* no libstdc++ on this machine: names stay mangled */
	free(s);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		s = symbol__demangle(cases[i][0]);
		ck_assert_ptr_nonnull(s);
		ck_assert_str_eq(s, cases[i][1]);
		free(s);
	}
}
END_TEST

START_TEST(test_symbol_format)
{
	char buf[64];
	struct symbol obj = { .start = 0x2000, .end = 0x2004, .name = "_IO_stdin_used",
			      .type = STT_OBJECT };
	struct symbol fn = { .start = 0x10, .end = 0x20, .name = "f", .type = STT_FUNC };

	ck_assert_uint_eq(symbol__format_addr(buf, sizeof(buf), 0xcc5c), SYMBOL_ADDR_WIDTH);
	ck_assert_str_eq(buf, "0x000000000000cc5c");
	symbol__format_addr(buf, sizeof(buf), 0xffffffff81000100ULL);
	ck_assert_str_eq(buf, "0xffffffff81000100");
	symbol__format(buf, sizeof(buf), &fn, 0x15, 0x10);
	ck_assert_str_eq(buf, "f");
	/* perf subtracts the symbol's virtual address from the map_ip address */
	symbol__format(buf, sizeof(buf), &obj, 0x2000, 0x555555555000ULL);
	ck_assert_str_eq(buf, "_IO_stdin_used+0xffffaaaaaaaad000");
	symbol__format(buf, sizeof(buf), &obj, 0x2001, 0x2000);
	ck_assert_str_eq(buf, "_IO_stdin_used+0x1");
}
END_TEST

Suite *symbol_suite(void)
{
	Suite *s = suite_create("symbol");
	TCase *tc = tcase_create("symtab");

	tcase_add_test(tc, test_symbol_alias_choice);
	tcase_add_test(tc, test_symbol_zero_size_rule);
	tcase_add_test(tc, test_symbol_zero_size_without_fixup);
	tcase_add_test(tc, test_symbol_tree_overlap);
	tcase_add_test(tc, test_symbol_many_random);
	tcase_add_test(tc, test_symbol_index);
	tcase_add_test(tc, test_symbol_sequence_equals_tree);
	tcase_add_test(tc, test_symbol_perf_map);
	tcase_add_test(tc, test_symbol_demangle);
	tcase_add_test(tc, test_symbol_format);
	suite_add_tcase(s, tc);

	tc = tcase_create("dso");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_symbol_kallsyms_rules);
	tcase_add_test(tc, test_symbol_kernel_preload);
	tcase_add_test(tc, test_symbol_kernel_span_only);
	tcase_add_test(tc, test_symbol_kernel_preload_blocks);
	tcase_add_test(tc, test_symbol_kernel_ahead);
	tcase_add_test(tc, test_symbol_kernel_check_at_take);
	tcase_add_test(tc, test_symbol_kallsyms_same_file);
	tcase_add_test(tc, test_symbol_kallsyms_load_grows);
	tcase_add_test(tc, test_symbol_kallsyms_lines);
	tcase_add_test(tc, test_symbol_resolve_map_at);
	tcase_add_test(tc, test_symbol_kernel_dso);
	tcase_add_test(tc, test_symbol_kmod_split);
	tcase_add_test(tc, test_symbol_kmod_names);
	tcase_add_test(tc, test_symbol_kmod_machine);
	tcase_add_test(tc, test_symbol_maps_copy);
	tcase_add_test(tc, test_symbol_maps_release_upto);
	tcase_add_test(tc, test_symbol_elf_self);
	tcase_add_test(tc, test_symbol_elf_libc);
	tcase_add_test(tc, test_symbol_build_id_mismatch);
	tcase_add_test(tc, test_symbol_symsrc_guess);
	tcase_add_test(tc, test_symbol_vdso);
	tcase_add_test(tc, test_symbol_mmap_names);
	suite_add_tcase(s, tc);
	return s;
}
