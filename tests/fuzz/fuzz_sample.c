/*
 * fuzz_sample - record and sample parsing under an arbitrary attr: sample__parse(),
 * sample__parse_id_trailer(), evlist__evsel_of() / evlist__record_time() over an evlist
 * of 1..3 events, and the cross-endian path (record__swap() + sample__unswap_pairs() on
 * a copy, then parsed again). Every array a parsed sample borrows is read in full, so a
 * pointer or count past the record is caught by AddressSanitizer.
 *
 * Input (shared with fuzz_dump; struct fuzz_record in fuzzlib.h):
 *   [u8 flags][attr as stored, its own size field][u8 nr_ids][nr_ids % 8 u64 ids]
 *   [records: each takes header.size bytes (at least 8, at most what is left)]
 * flags bit 0: the attr is decoded byte-swapped; bits 1-2: evsels - 1 (0..2).
 * Format: docs/perf-data-format.md §§4.2, 5.1, 5.2, 5.3, 12.
 */
#include <stdlib.h>	/* free */

#include "format/bytes.h"
#include "format/evlist.h"
#include "format/record.h"
#include "format/sample.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static void swapped_copy(const struct event_attr *a, const unsigned char *rec, size_t n)
{
	unsigned char *c = fuzz__dup(rec, n);
	struct sample s;

	if (!c)
		return;
	/* the reader swaps the header first, then the body */
	bytes__put_u32(c, __builtin_bswap32(bytes__u32(c)));
	bytes__put_u16(c + 4, __builtin_bswap16(bytes__u16(c + 4)));
	bytes__put_u16(c + 6, __builtin_bswap16(bytes__u16(c + 6)));
	record__swap(c, n, attr__id_hdr_size(a));
	sample__unswap_pairs(a, c, n);
	if (sample__parse(&s, a, c, n) == 0)
		fuzz_record__touch_sample(&s);
	if (sample__parse_id_trailer(&s, a, c, n) == 0)
		fuzz_record__touch_sample(&s);
	free(c);
}

static void one_record(const struct fuzz_record *fr, const unsigned char *rec, size_t n)
{
	const struct event_attr *a = &fr->attr;
	struct evsel *ev;
	struct sample s;

	(void)record__type_name(bytes__u32(rec));
	(void)record__type_known(bytes__u32(rec));
	(void)record__type_known_to_perf61(bytes__u32(rec));
	if (sample__parse(&s, a, rec, n) == 0)
		fuzz_record__touch_sample(&s);
	if (sample__parse_id_trailer(&s, a, rec, n) == 0)
		fuzz_record__touch_sample(&s);
	if (evlist__evsel_of(&fr->evlist, rec, n, &ev) == 0) {
		(void)evlist__record_time(&fr->evlist, ev, rec, n);
		if (sample__parse(&s, &ev->attr, rec, n) == 0)
			fuzz_record__touch_sample(&s);
	}
	swapped_copy(a, rec, n);
}

static void test_one(const uint8_t *data, size_t size)
{
	struct fuzz_record fr;
	unsigned char *rec;
	size_t n;

	if (fuzz_record__init(&fr, data, size))
		return;
	(void)evlist__any_sample_type(&fr.evlist, SAMPLE_CPU);
	while ((rec = fuzz_record__next(&fr, &n))) {
		one_record(&fr, rec, n);
		free(rec);
	}
	fuzz_record__exit(&fr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz__limit_alloc(FUZZ_ALLOC_LIMIT(size));
	test_one(data, size);
	fuzz__limit_alloc(0);
	return 0;
}
