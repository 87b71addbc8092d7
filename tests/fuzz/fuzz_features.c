/*
 * fuzz_features - one feature body through features__parse(), in native and in swapped
 * byte order, then header_print__feature() of it (with and without -I) into /dev/null.
 *
 * Input: byte 0 = feature id (bit 7 clear: id = byte 0, the rest is its body) or, with
 * bit 7 set, a sequence of [u8 id][u32 length][body] entries parsed in order into the
 * same struct features (CPU_TOPOLOGY after NRCPUS, GROUP_DESC after EVENT_DESC, a
 * repeated feature replaces the earlier one); entries whose id is smaller than the
 * previous one are skipped, as features__parse() requires increasing ids. Bit 6: the
 * header text is printed as for a pipe.
 * Each body is copied to a buffer of exactly its size.
 * Format: docs/perf-data-format.md §§2.2, 2.3, 12.
 */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

#include "format/diag.h"
#include "format/feature.h"
#include "report/header-print.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static void parse_one(struct features *f, unsigned id, const uint8_t *p, size_t n,
		      bool swap)
{
	unsigned char *body = fuzz__dup(p, n);
	struct diag d;

	if (!body)
		return;
	(void)features__parse(f, id, body, n, swap, 4096, "fuzz", &d);
	free(body);
}

static void print_all(const struct features *f, bool is_pipe)
{
	struct header_print_info hi;
	struct feat_group_state *g = calloc(f->nr_events + 1, sizeof(*g));

	if (g)
		(void)features__group_rebuild(f, g, f->nr_events);
	free(g);
	if (!fuzz__devnull())
		return;
	memset(&hi, 0, sizeof(hi));
	hi.path = "fuzz";
	hi.feat = f;
	hi.is_pipe = is_pipe;
	for (unsigned full = 0; full < 2; full++) {
		hi.full = full;
		for (unsigned id = 0; id < FEAT_BITS; id++)
			if (features__has(f, id))
				(void)header_print__feature(fuzz__devnull(), &hi, id);
	}
}

static void run(const uint8_t *data, size_t size, bool swap)
{
	struct fuzz_input in;
	struct features f;
	uint8_t first;

	fuzz_input__init(&in, data, size);
	features__init(&f);
	first = fuzz_input__u8(&in);
	if (!(first & 0x80)) {
		parse_one(&f, first, in.p + in.pos, fuzz_input__left(&in), swap);
	} else {
		unsigned last = 0;

		while (fuzz_input__left(&in) >= 5) {
			unsigned id = fuzz_input__u8(&in);
			uint32_t len = 0;
			const uint8_t *p;
			size_t got;

			for (int i = 0; i < 4; i++)
				len |= (uint32_t)fuzz_input__u8(&in) << (8 * i);
			p = fuzz_input__bytes(&in, len, &got);
			/* features__parse() wants increasing ids (a repeat may replace) */
			if (id < last)
				continue;
			last = id;
			parse_one(&f, id, p, got, swap);
		}
	}
	print_all(&f, first & 0x40);
	features__exit(&f);
	features__exit(&f);	/* documented as safe twice */
}

static void test_one(const uint8_t *data, size_t size)
{
	run(data, size, false);
	run(data, size, true);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz__limit_alloc(FUZZ_ALLOC_LIMIT(size));
	test_one(data, size);
	fuzz__limit_alloc(0);
	return 0;
}
