/*
 * fuzz_dump - the `-D` formatter: every record through dump__record() with its parsed
 * sample (SAMPLE body or sample_id trailer) or none, counted by dump_stats and closed
 * with dump_stats__print(), all into a strbuf that is thrown away. The record is an
 * exact-size copy: the formatter must never read past it.
 *
 * Input: as fuzz_sample (struct fuzz_record in fuzzlib.h). flags bit 3: evlist-wide
 * dump_ctx from an empty evlist (pipe mode before the first HEADER_ATTR); bit 4: an
 * ARCH other than x86 ("aarch64"); bit 5: the record's size as given to the formatter is
 * one byte short of what was copied (header.size then disagrees with the buffer).
 * Format: docs/perf-data-format.md §9.
 */
#include <stdlib.h>	/* free */
#include <string.h>	/* memset */

#include "format/bytes.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "report/dump.h"
#include "report/strbuf.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static void one_record(struct fuzz_record *fr, const struct dump_ctx *ctx,
		       struct dump_stats *st, struct strbuf *sb, const unsigned char *rec,
		       size_t n)
{
	struct dump_rec r;
	struct sample s;
	struct evsel *ev = NULL;
	uint32_t type = bytes__u32(rec);

	memset(&r, 0, sizeof(r));
	r.data = rec;
	r.size = (fr->flags & 0x20) && n > 8 ? n - 1 : n;
	r.offset = fr->in.pos;
	r.path = "fuzz.data";
	dump_stats__count(st, type);
	(void)dump__type_name(type);
	if (type < REC_USER_FIRST && evlist__evsel_of(&fr->evlist, rec, n, &ev) == 0) {
		r.evsel = ev;
		if (type == REC_SAMPLE ? sample__parse(&s, &ev->attr, rec, n) == 0
				       : sample__parse_id_trailer(&s, &ev->attr, rec, n) == 0)
			r.sample = &s;
		if (type == REC_SAMPLE && r.sample) {
			r.nr_deliveries = 1 + (s.read.nr & 1);
			r.comm = (s.pid & 1) ? "fuzz" : NULL;
			r.tid = (int)s.tid;
			r.dso = (s.ip & 1) ? "/usr/lib/libfuzz.so" : NULL;
			(void)dump_stats__count_sample(st, ev->idx);
		}
		if (type == REC_LOST_SAMPLES)
			(void)dump_stats__count_lost_samples(st, ev->idx);
		if (type == REC_TEXT_POKE)
			r.text_poke_sym = "fuzz_sym+0x10";
	}
	strbuf__reset(sb);
	dump__record(sb, ctx, &r);
	(void)strbuf__error(sb);
}

static void test_one(const uint8_t *data, size_t size)
{
	struct fuzz_record fr;
	struct dump_stats st, st2;
	struct dump_ctx ctx;
	struct strbuf sb;
	unsigned char *rec;
	size_t n;

	if (fuzz_record__init(&fr, data, size))
		return;
	strbuf__init(&sb, 4096);
	dump_stats__init(&st);
	dump_stats__init(&st2);
	dump_ctx__init(&ctx, (fr.flags & 8) ? NULL : &fr.evlist,
		       (fr.flags & 0x10) ? "aarch64" : NULL);
	dump__preamble(&sb);
	while ((rec = fuzz_record__next(&fr, &n))) {
		one_record(&fr, &ctx, &st, &sb, rec, n);
		free(rec);
	}
	(void)dump_stats__merge(&st2, &st);
	strbuf__reset(&sb);
	dump_stats__print(&sb, &st2, &fr.evlist, fr.flags & 0x40);
	dump_stats__exit(&st2);
	dump_stats__exit(&st);
	strbuf__exit(&sb);
	fuzz_record__exit(&fr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz__limit_alloc(FUZZ_ALLOC_LIMIT(size));
	test_one(data, size);
	fuzz__limit_alloc(0);
	return 0;
}
