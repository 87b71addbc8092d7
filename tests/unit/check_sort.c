/*
 * Unit tests of report/sort: how perf 6.1 turns -s/-F/-n/--show-total-period into
 * columns and sort keys (checked against `perf report --stdio` headers), and the
 * text of a few columns.
 */
#include <check.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/sort.h"
#include "machine/dso.h"
#include "machine/machine.h"	/* struct thread */
#include "machine/symbol.h"

#include "banned.h"

/* The header line of a sort list ("# Overhead  Command ..."), trailing blanks cut. */
static char *header_of(const struct sort_opts *o)
{
	struct sort_list l;
	struct sort_widths w;
	char err[128] = "", *text = NULL, *nl;
	size_t len = 0;
	FILE *f;

	ck_assert_msg(sort_list__setup(&l, o, err, sizeof(err)) == 0, "%s", err);
	sort_widths__init(&w, &l);
	sort_widths__finish(&w, &l);
	f = open_memstream(&text, &len);
	sort_list__fprintf_header(&l, &w, f);
	fclose(f);
	nl = strchr(text, '\n');
	*nl = 0;
	while (nl > text && nl[-1] == ' ')
		*--nl = 0;
	return text;
}

static int setup_err(const struct sort_opts *o)
{
	struct sort_list l;
	char err[128] = "";

	return sort_list__setup(&l, o, err, sizeof(err));
}

START_TEST(test_sort_columns)
{
	struct sort_opts o = { 0 };
	char *h;

	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Command  Shared Object  Symbol");
	free(h);

	/* children mode: Children, and Overhead renamed Self */
	o.children = true;
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children      Self  Command  Shared Object  Symbol");
	free(h);

	/* -n and --show-total-period come after the default value columns */
	o = (struct sort_opts){ .show_nr_samples = true, .show_total_period = true,
				.sort_order = "pid" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead       Samples        Period      Pid:Command");
	free(h);

	/* a value key named in -s stays where it is among the sort keys, but the
	 * default value columns come first */
	o = (struct sort_opts){ .sort_order = "sample,comm" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead       Samples  Command");
	free(h);

	/* -F is exact: no Self rename, Children even without children mode */
	o = (struct sort_opts){ .field_order = "overhead_children,overhead,comm" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children  Overhead  Command");
	free(h);

	/* -t: values separated, value headers still right-aligned */
	o = (struct sort_opts){ .children = true, .field_sep = ";", .sort_order = "dso" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Children;    Self;Shared Object");
	free(h);

	/* perf's prefix matching: "s" is symbol, "p" is pid */
	o = (struct sort_opts){ .sort_order = "s,p" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Symbol      Pid:Command");
	free(h);
}
END_TEST

START_TEST(test_sort_errors)
{
	struct sort_opts o = { .sort_order = "nonsense" };

	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "+";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	/* perf 6.1 refuses ipc_null in -s (its usage, no message), shows it in -F */
	o.sort_order = "ipc_null";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "sym,ipc_null";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = NULL;
	o.field_order = "overhead,ipc_null";
	ck_assert_int_eq(setup_err(&o), 0);
	o.field_order = "transaction";
	ck_assert_int_eq(setup_err(&o), 0);
	/* dcacheline and symbol_iaddr are memory keys (perf 6.1: --mem-mode only) */
	o = (struct sort_opts){ .sort_order = "dcacheline" };
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "symbol_iaddr";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.mem_mode = true;
	ck_assert_int_eq(setup_err(&o), 0);
}
END_TEST

static char *line_of(const struct sort_opts *o, const struct hist_entry *e, uint64_t total)
{
	struct sort_list l;
	struct sort_widths w;
	char err[128] = "", *text = NULL;
	size_t len = 0;
	FILE *f;

	ck_assert_int_eq(sort_list__setup(&l, o, err, sizeof(err)), 0);
	sort_widths__init(&w, &l);
	sort_widths__add(&w, &l, e);
	sort_widths__finish(&w, &l);
	f = open_memstream(&text, &len);
	ck_assert_int_eq(sort_list__fprintf_entry(&l, &w, e, total, f), 0);
	fclose(f);
	return text;
}

START_TEST(test_sort_entry_text)
{
	struct hist_entry e = { .comm = "gzip", .ip = 0xcc5c, .level = '.', .cpu = 1,
				.socket = 0, .time = 3219400000000ULL,
				.stat = { .period = 25, .nr_events = 3 } };
	struct sort_opts o = { 0 };
	char *s;

	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  gzip     [unknown]         [.] 0x000000000000cc5c\n");
	free(s);
	e.ip = 0;	/* perf's %#llx prints no 0x for zero */
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  gzip     [unknown]         [.] 0000000000000000\n");
	free(s);
	o.sort_order = "cpu,socket,time,sample";
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  001     000  3219.400000              3\n");
	free(s);
	/* transaction (word 0, the only one perf was seen to print): blank, the
	 * column 27 wide whatever its header (observed) */
	o = (struct sort_opts){ .sort_order = "transaction,comm" };
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%                               gzip   \n");
	free(s);
	/* ipc_null (-F only): perf's "-      -", compared like the symbol key */
	o = (struct sort_opts){ .field_order = "overhead,ipc_null" };
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, "    25.00%  -      -            \n");
	free(s);
	o = (struct sort_opts){ .sort_order = "comm", .field_sep = "," };
	e.comm = "a,b";
	s = line_of(&o, &e, 100);
	ck_assert_str_eq(s, " 25.00% ,a.b    \n");
	free(s);
}
END_TEST

/* sort_list__output_key(): wherever two entries' numbers differ, the output order
 * they give is sort_list__output_cmp()'s; none where the first key is not a value
 * column, or in the group view. */
START_TEST(test_sort_output_key)
{
	static const char *const comms[] = { "a", "b", "c" };
	static const struct sort_opts opts[] = {
		{ 0 }, { .children = true }, { .sort_order = "sym" },
		{ .sort_order = "dso,sym" }, { .field_order = "overhead,sym" },
		{ .field_order = "sym,overhead" }, { .children = true, .sort_order = "comm" },
	};
	static const bool has_key[] = { true, true, true, true, true, false, true };
	struct sort_ctx c = { 0 };
	struct hist_entry e[64];
	unsigned seed = 1;

	for (size_t i = 0; i < 64; i++) {
		seed = seed * 1103515245 + 12345;
		e[i] = (struct hist_entry){ .comm = comms[seed % 3], .ip = seed % 7,
					    .level = '.' };
		e[i].stat.period = (seed >> 8) % 5;	/* ties */
		e[i].stat_acc.period = e[i].stat.period + (seed >> 12) % 4;
	}
	for (size_t k = 0; k < sizeof(opts) / sizeof(opts[0]); k++) {
		struct sort_list l;
		char err[128] = "";
		size_t decided = 0;

		ck_assert_msg(sort_list__setup(&l, &opts[k], err, sizeof(err)) == 0, "%s", err);
		for (size_t i = 0; i < 64; i++)
			for (size_t j = 0; j < 64; j++) {
				uint64_t ki, kj;
				bool a = sort_list__output_key(&l, &c, &e[i], &ki);
				bool b = sort_list__output_key(&l, &c, &e[j], &kj);
				int r = sort_list__output_cmp(&l, &c, &e[i], &e[j]);

				ck_assert_int_eq(a, has_key[k]);
				ck_assert_int_eq(b, has_key[k]);
				if (!a || ki == kj)
					continue;
				decided++;
				ck_assert_msg((r > 0) == (ki > kj) && r != 0,
					      "options %zu: entries %zu, %zu", k, i, j);
			}
		ck_assert(!has_key[k] || decided > 64 * 64 / 2);
	}
	/* the group view: no number */
	{
		struct sort_list l;
		char err[128] = "";
		struct hist_entry pair = e[1];
		const struct hist_entry *pairs[] = { &pair };
		uint64_t key;

		ck_assert_int_eq(sort_list__setup(&l, &opts[0], err, sizeof(err)), 0);
		e[0].pairs = pairs;
		e[0].nr_pairs = 1;
		ck_assert(!sort_list__output_key(&l, &c, &e[0], &key));
	}
}
END_TEST

/* The tie tests' symbols: equal names at other addresses, and (past the first
 * TIE_SYMS_PLAIN) two overlapping inlined functions of one name. */
static const struct symbol tie_syms[] = {
	{ .start = 0x10, .end = 0x20, .name = "main" },
	{ .start = 0x30, .end = 0x40, .name = "main" },
	{ .start = 0x50, .end = 0x60, .name = "alpha" },
	{ .start = 0x70, .end = 0x80, .name = "zeta" },
	{ .start = 0x18, .end = 0x1c, .name = "inl", .inlined = true },
	{ .start = 0x19, .end = 0x1a, .name = "inl", .inlined = true },
};
#define TIE_SYMS (sizeof(tie_syms) / sizeof(tie_syms[0]))
#define TIE_SYMS_PLAIN 4

/* Entries for the tie tests: equal comm texts at distinct addresses, dsos of equal
 * short names, symbols of equal names, unresolved ones, few distinct periods and
 * depths, two threads. */
static void tie_entries(struct hist_entry *e, size_t n, struct dsos *d,
			const struct symbol *syms, size_t nr_syms, const struct thread *threads)
{
	static char comm_a[] = "perl", comm_b[] = "perl", comm_c[] = "sh";
	static const char *const comms[] = { comm_a, comm_b, comm_c, "bash" };
	struct dso *dsos[] = {
		dsos__findnew(d, "/usr/lib/libc.so.6"), dsos__findnew(d, "/lib/libc.so.6"),
		dsos__findnew(d, "/usr/bin/perl"), NULL,
	};
	unsigned seed = 7;

	for (size_t i = 0; i < n; i++) {
		seed = seed * 1103515245 + 12345;
		e[i] = (struct hist_entry){ .comm = comms[(seed >> 4) % 4], .ip = seed % 11,
					    .level = '.' };
		e[i].dso = dsos[(seed >> 7) % 4];
		e[i].sym = (seed >> 10) % 5 ? &syms[(seed >> 13) % nr_syms] : NULL;
		e[i].thread = &threads[(seed >> 16) % 2];
		e[i].max_depth = (seed >> 18) % 3;
		e[i].stat.period = (seed >> 20) % 3;
		e[i].stat_acc.period = e[i].stat.period + (seed >> 22) % 2;
	}
}

/* sort_list__keyed() and sort_list__cmp_keys(): for the key sets that compare comm,
 * dso and symbol alone, the key copies compare every pair of entries as the entries
 * do (equal comm texts at distinct addresses, dsos of equal short names, inlined
 * and unresolved symbols); the other key sets are not keyed. */
START_TEST(test_sort_cmp_keys)
{
	static const struct thread threads[2];
	static const struct { struct sort_opts o; bool keyed; } cases[] = {
		{ { 0 }, true },
		{ { .children = true }, true },
		{ { .sort_order = "dso,sym" }, true },
		{ { .sort_order = "sym" }, true },
		{ { .sort_order = "sym,comm" }, true },
		{ { .sort_order = "comm,sym,dso" }, true },
		{ { .sort_order = "dso" }, true },
		{ { .field_order = "overhead,sym,period" }, true },
		{ { .sort_order = "comm,dso", .verbose = true }, false },
		{ { .sort_order = "pid,comm" }, false },
		{ { .sort_order = "comm,srcline" }, false },
	};
	struct dsos *d;
	struct hist_entry e[96];
	struct hist_key k[96];
	size_t n = sizeof(e) / sizeof(e[0]);

	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	tie_entries(e, n, d, tie_syms, TIE_SYMS, threads);
	for (size_t i = 0; i < n; i++)
		hist_key__of(&k[i], &e[i]);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sort_list l;
		char err[128] = "";
		size_t differ = 0;

		ck_assert_msg(sort_list__setup(&l, &cases[c].o, err, sizeof(err)) == 0, "%s", err);
		ck_assert_int_eq(sort_list__keyed(&l), cases[c].keyed);
		if (!cases[c].keyed)
			continue;
		for (size_t from = 0; from < 3; from++)	/* the collapse's rest */
			for (size_t i = 0; i < n; i++)
				for (size_t j = 0; j < n; j++) {
					int want = sort_list__cmp_from(&l, from, &e[i], &e[j]);
					int got = sort_list__cmp_keys(&l, from, &k[i], &k[j]);

					ck_assert_msg((want > 0) == (got > 0) &&
						      (want < 0) == (got < 0),
						      "case %zu from %zu: entries %zu, %zu: %d against %d",
						      c, from, i, j, got, want);
					differ += !from && want != 0;
				}
		ck_assert_uint_gt(differ, n * n / 2);
	}
	dsos__delete(d);
}
END_TEST

static int sign(int c)
{
	return (c > 0) - (c < 0);
}

/* Whether the comparison of l is a total order on e[0..n): antisymmetric and
 * transitive (every triple); *pair and *triple receive a violation's count. */
static void order_faults(const struct sort_list *l, const struct hist_entry *e, size_t n,
			 size_t *pair, size_t *triple)
{
	*pair = *triple = 0;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			int ij = sign(sort_list__cmp(l, &e[i], &e[j]));

			*pair += ij != -sign(sort_list__cmp(l, &e[j], &e[i]));
			if (ij > 0)
				continue;
			for (size_t k = 0; k < n; k++)	/* i <= j <= k: i <= k */
				if (sign(sort_list__cmp(l, &e[j], &e[k])) <= 0 &&
				    sign(sort_list__cmp(l, &e[i], &e[k])) > 0)
					(*triple)++;
		}
}

/* sort_list.total_order (dirreport's default): the symbol key's comparison is a total
 * order on entries of resolved and unresolved symbols, dsos of equal names and
 * overlapping inlined functions, with or without a dso key, with -v, in the key
 * copies too; two entries are equal where perf's comparison says so, but for
 * inlined functions (equal by name).  perf's order (--perf-compat) is not transitive
 * on the same entries without a dso key: the test would see it. */
START_TEST(test_sort_total_order)
{
	static const struct thread threads[2];
	static const struct sort_opts cases[] = {
		{ 0 },
		{ .sort_order = "sym" },
		{ .sort_order = "sym,comm" },
		{ .sort_order = "dso,sym" },
		{ .sort_order = "comm,sym" },
		{ .sort_order = "sym", .verbose = true },
	};
	struct dsos *d;
	struct hist_entry e[72];
	struct hist_key k[72];
	size_t n = sizeof(e) / sizeof(e[0]), perf_faults = 0;

	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	tie_entries(e, n, d, tie_syms, TIE_SYMS, threads);
	for (size_t i = 0; i < n; i++)
		hist_key__of(&k[i], &e[i]);
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct sort_opts o = cases[c];
		struct sort_list perf, total;
		char err[128] = "";
		size_t pair, triple;

		ck_assert_int_eq(sort_list__setup(&perf, &o, err, sizeof(err)), 0);
		o.total_order = true;
		ck_assert_int_eq(sort_list__setup(&total, &o, err, sizeof(err)), 0);
		order_faults(&total, e, n, &pair, &triple);
		ck_assert_msg(!pair && !triple, "case %zu: %zu pairs, %zu triples out of order",
			      c, pair, triple);
		order_faults(&perf, e, n, &pair, &triple);
		perf_faults += pair + triple;
		for (size_t i = 0; i < n; i++)
			for (size_t j = 0; j < n; j++) {
				bool inl = (e[i].sym && e[i].sym->inlined) ||
					   (e[j].sym && e[j].sym->inlined);
				int t = sort_list__cmp(&total, &e[i], &e[j]);

				if (!inl)
					ck_assert_msg(!t == !sort_list__cmp(&perf, &e[i], &e[j]),
						      "case %zu: entries %zu, %zu", c, i, j);
				if (sort_list__keyed(&total))
					ck_assert_int_eq(sign(sort_list__cmp_keys(&total, 0, &k[i],
										  &k[j])),
							 sign(t));
			}
	}
	ck_assert_uint_gt(perf_faults, 0);
	dsos__delete(d);
}
END_TEST

/* sort_list__output_ties() and sort_list__cmp_ranks(): where they give numbers, the
 * numbers (and the depth rule) decide every pair of entries as the comparisons
 * themselves do; none for keys they cannot rank. */
START_TEST(test_sort_output_ties)
{
	static const struct thread threads[2];
	static const struct { struct sort_opts o; bool ties, ranks; } cases[] = {
		{ { 0 }, true, true },
		{ { .children = true }, true, true },
		{ { .sort_order = "dso,sym" }, true, true },
		{ { .sort_order = "sym,comm" }, true, false },
		{ { .sort_order = "comm,sym,dso" }, true, true },
		{ { .children = true, .sort_order = "comm" }, true, true },
		{ { .sort_order = "comm,dso", .verbose = true }, true, true },
		{ { .sort_order = "pid,comm" }, false, false },
		{ { .sort_order = "comm,pid" }, false, true },
		{ { .field_order = "overhead,sym,period" }, true, false },
	};
	struct dsos *d;
	struct hist_entry e[96];
	uint32_t order[96];
	size_t n = sizeof(e) / sizeof(e[0]);

	ck_assert_int_eq(dsos__new(&d, NULL), 0);
	tie_entries(e, n, d, tie_syms, TIE_SYMS_PLAIN, threads);
	for (size_t i = 0; i < n; i++)
		order[i] = (uint32_t)i;
	for (size_t k = 0; k < sizeof(cases) / sizeof(cases[0]); k++) {
		struct sort_list l;
		struct sort_ties t, r;
		char err[128] = "";

		ck_assert_msg(sort_list__setup(&l, &cases[k].o, err, sizeof(err)) == 0, "%s",
			      err);
		for (int depth = 0; depth < 4; depth++) {
			struct sort_ctx c = { .depth_ties = depth & 1, .caller_first = depth & 2 };
			size_t decided = 0;
			uint64_t key[96];

			ck_assert_int_eq(sort_list__output_ties(&l, &c, e, n, order, n, &t), 0);
			ck_assert_msg((t.v != NULL) == cases[k].ties, "case %zu", k);
			for (size_t i = 0; t.v && i < n; i++)
				ck_assert(sort_list__output_key(&l, &c, &e[i], &key[i]));
			for (size_t i = 0; t.v && i < n; i++)
				for (size_t j = 0; j < n; j++) {
					const uint64_t *p = t.v + i * t.width, *q = t.v + j * t.width;
					int want, got = 0;

					if (key[i] != key[j])
						continue;
					want = sort_list__output_cmp(&l, &c, &e[i], &e[j]);
					decided++;
					if (t.depth_rule && e[i].thread == e[j].thread &&
					    e[i].max_depth != e[j].max_depth)
						got = (e[i].max_depth > e[j].max_depth) ==
						      c.caller_first ? 1 : -1;
					for (size_t w = 0; !got && w < t.width; w++)
						if (p[w] != q[w])
							got = p[w] > q[w] ? 1 : -1;
					ck_assert_msg((want > 0) == (got > 0) && (want < 0) == (got < 0),
						      "case %zu depth %d: entries %zu, %zu: %d, %d",
						      k, depth, i, j, want, got);
				}
			ck_assert(!t.v || decided > n);
			free(t.v);
		}
		ck_assert_int_eq(sort_list__cmp_ranks(&l, e, n, order, n, &r), 0);
		ck_assert_msg((r.v != NULL) == cases[k].ranks, "case %zu", k);
		for (size_t i = 0; r.v && i < n; i++)
			for (size_t j = 0; j < n; j++) {
				int want = sort_list__cmp(&l, &e[i], &e[j]), got = 0;
				const uint64_t *p = r.v + i * r.width, *q = r.v + j * r.width;

				for (size_t w = 0; !got && w < r.width; w++)
					if (p[w] != q[w])
						got = p[w] > q[w] ? -1 : 1;
				if (!got)
					got = sort_list__cmp_from(&l, r.from, &e[i], &e[j]);
				ck_assert_msg((want > 0) == (got > 0) && (want < 0) == (got < 0),
					      "case %zu: entries %zu, %zu: %d, %d", k, i, j, want,
					      got);
			}
		free(r.v);
	}
	/* the group view: no numbers */
	{
		struct sort_list l;
		struct sort_ties t;
		struct sort_ctx c = { 0 };
		char err[128] = "";
		const struct hist_entry *pairs[] = { &e[1] };

		ck_assert_int_eq(sort_list__setup(&l, &cases[0].o, err, sizeof(err)), 0);
		e[5].pairs = pairs;
		e[5].nr_pairs = 1;
		ck_assert_int_eq(sort_list__output_ties(&l, &c, e, n, order, n, &t), 0);
		ck_assert(!t.v);
	}
	dsos__delete(d);
}
END_TEST

/* The parent key: -p appends it after the -s keys (once), entries without a parent
 * print "[other]" and sort after those with one. */
START_TEST(test_sort_parent)
{
	struct sort_opts o = { .sort_order = "comm", .parent_key = true };
	struct symbol a = { .name = "do_syscall_64" }, b = { .name = "__x64_sys_read" };
	struct hist_entry e1 = { .comm = "gzip", .parent = &a, .stat = { .period = 1 } };
	struct hist_entry e2 = e1, e3 = e1;
	struct sort_list l;
	char err[128] = "", *h, *line;

	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Command  Parent symbol");
	free(h);
	o.sort_order = "parent,comm";
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Parent symbol  Command");
	free(h);

	ck_assert_int_eq(sort_list__setup(&l, &o, err, sizeof(err)), 0);
	e2.parent = &b;
	e3.parent = NULL;
	/* a: new entry, b: node; perf's strcmp(right, left) and cmp_null */
	ck_assert_int_gt(sort_list__cmp(&l, &e1, &e2), 0);
	ck_assert_int_lt(sort_list__cmp(&l, &e2, &e1), 0);
	ck_assert_int_gt(sort_list__cmp(&l, &e3, &e1), 0);
	ck_assert_int_lt(sort_list__cmp(&l, &e1, &e3), 0);
	ck_assert_int_eq(sort_list__cmp(&l, &e3, &e3), 0);

	o.sort_order = "parent";
	line = line_of(&o, &e3, 1);
	ck_assert_str_eq(line, "   100.00%  [other]      \n");
	free(line);
	line = line_of(&o, &e1, 1);
	ck_assert_str_eq(line, "   100.00%  do_syscall_64\n");
	free(line);
}
END_TEST

/* The weight keys (observed on perf 6.1, x86): p_stage_cyc is dropped from -s but
 * shown by -F; weight and local_weight are at least 12 wide, numbers left-aligned. */
START_TEST(test_sort_weight_keys)
{
	struct sort_opts o = { .sort_order = "p_stage_cyc,local_p_stage_cyc,comm" };
	struct hist_entry e = { .comm = "gzip", .stat = { .period = 1, .nr_events = 1 } };
	char *h, *line;

	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Command");
	free(h);
	o = (struct sort_opts){ .field_order = "overhead,p_stage_cyc,ins_lat" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Pipeline Stage Cycle  INSTR Latency");
	free(h);
	o = (struct sort_opts){ .sort_order = "weight,local_weight" };
	line = line_of(&o, &e, 1);
	ck_assert_str_eq(line, "   100.00%  0             0           \n");
	free(line);
}
END_TEST

/* The cgroup keys (observed): "cgr" is cgroup; a sample without a cgroup id prints
 * N/A; the cgroup id is its thread's cgroup namespace, dev/0xinode. */
START_TEST(test_sort_cgroup_keys)
{
	struct sort_opts o = { .sort_order = "cgr,cgroup_" };
	struct hist_entry e = { .comm = "gzip", .cgroup_name = "N/A", .cgroup_dev = 4,
				.cgroup_ino = 0xeffffffb, .stat = { .period = 1 } };
	char *h, *line;

	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Cgroup  cgroup id (dev/inode)");
	free(h);
	line = line_of(&o, &e, 1);
	ck_assert_str_eq(line, "   100.00%  N/A     4/0xeffffffb\n");
	free(line);
}
END_TEST

/* --mem-mode's keys (headers from perf 6.1's reports of samples/tcd.data, e.g. the
 * golden case tcd-mem-sort-snoop), the overhead rule for value keys (golden
 * plain-sort-overhead-sys-sym) and the IPC column of "symbol" (tcd-sort-symbol-ipc) */
START_TEST(test_sort_mem_keys)
{
	struct sort_opts o = { .sort_order = "mem", .mem_mode = true };
	char *h;

	/* only with --mem-mode */
	o.mem_mode = false;
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.sort_order = "snoop";
	ck_assert_int_eq(setup_err(&o), -EINVAL);
	o.mem_mode = true;
	ck_assert_int_eq(setup_err(&o), 0);
	o.sort_order = "dcacheline";
	ck_assert_int_eq(setup_err(&o), 0);
	o.sort_order = "symbol_iaddr";
	ck_assert_int_eq(setup_err(&o), 0);
	/* dcacheline without a map: [X], the address's 64-byte line, 22 wide
	 * (observed with perf 6.1 on samples/mem-pf.data) */
	{
		struct hist_mem m = { .addr = 0x561d0036c01fULL, .al_addr = 0x561d0036c01fULL };
		struct hist_entry e = { .comm = "dd", .level = 'k', .cpumode = 1, .mem = &m,
					.stat = { .period = 1, .nr_events = 1 } };
		struct sort_opts d = { .sort_order = "dcacheline", .mem_mode = true };
		char *s = line_of(&d, &e, 4);

		ck_assert_str_eq(s, "    25.00%  [X] 0x0000561d0036c000\n");
		free(s);
		m.al_addr = m.addr = 0x3f;	/* line 0: 16 zeros, no 0x */
		s = line_of(&d, &e, 4);
		ck_assert_str_eq(s, "    25.00%  [X] 0000000000000000\n");
		free(s);
	}
	/* fixed widths, padded by the columns after them */
	o.sort_order = "mem,snoop,tlb,locked,blocked,phys_daddr,data_page_size";
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Memory access             Snoop         TLB access      "
			    "        Locked  Blocked     Data Physical Address   Data Page Size");
	free(h);
	/* the memory default order; local_p_stage_cyc dropped as on x86 */
	o.sort_order = NULL;
	h = header_of(&o);
	ck_assert_ptr_nonnull(strstr(h, "Local Weight  Memory access"));
	ck_assert_ptr_nonnull(strstr(h, "Locked  Blocked     Local INSTR Latency"));
	ck_assert_ptr_null(strstr(h, "Pipeline"));
	free(h);
	/* a list containing "overhead" gets no overhead key */
	o = (struct sort_opts){ .sort_order = "overhead_sys,sym" };
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead       sys  Symbol");
	free(h);
	/* "symbol" in -s: perf's IPC column */
	o.sort_order = "dso,symbol,comm";
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Shared Object  Symbol  Command  IPC   [IPC Coverage]");
	free(h);
	o.sort_order = "dso,sym,comm";
	h = header_of(&o);
	ck_assert_str_eq(h, "# Overhead  Shared Object  Symbol  Command");
	free(h);
}
END_TEST

Suite *sort_suite(void)
{
	Suite *s = suite_create("sort");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_sort_columns);
	tcase_add_test(tc, test_sort_errors);
	tcase_add_test(tc, test_sort_entry_text);
	tcase_add_test(tc, test_sort_parent);
	tcase_add_test(tc, test_sort_weight_keys);
	tcase_add_test(tc, test_sort_cgroup_keys);
	tcase_add_test(tc, test_sort_mem_keys);
	tcase_add_test(tc, test_sort_output_key);
	tcase_add_test(tc, test_sort_output_ties);
	tcase_add_test(tc, test_sort_cmp_keys);
	tcase_add_test(tc, test_sort_total_order);
	/* The tie and rank checks compare every pair of 96 entries under ten sort orders:
	 * under ASan, beside CI's TSan and memcheck runs, more than Check's 4 s. */
	tcase_set_timeout(tc, 30);
	suite_add_tcase(s, tc);
	return s;
}
