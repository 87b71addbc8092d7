/*
 * fuzz_header - the input is a whole perf.data file: file_header__probe/read, the attrs
 * table with its ids (file_header__read_attrs, evlist__check), the feature table
 * (file_header__feat_sections) and features__parse() of every present feature, then the
 * `--header-only [-I]` text of it (header_print__header) into /dev/null.
 *
 * Unlike session__open(), a failing feature does not stop the others (more states).
 * Format: docs/perf-data-format.md §§0, 1, 2.
 */
#include <string.h>	/* memset */
#include <stdlib.h>	/* free */

#include "format/diag.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/header.h"
#include "report/header-print.h"
#include "tests/fuzz/fuzzlib.h"
#include "banned.h"

static void use_features(const struct features *f, const struct evlist *el)
{
	struct feat_group_state *g = calloc(el->nr ? el->nr : 1, sizeof(*g));

	if (g)
		features__group_rebuild(f, g, el->nr);
	free(g);
	for (size_t i = 0; i < el->nr; i++)
		for (size_t k = 0; k < el->evsels[i]->nr_ids; k++)
			(void)features__event_by_id(f, el->evsels[i]->ids[k]);
	for (unsigned feat = 0; feat < FEAT_BITS; feat++)
		(void)features__perf_processed(f, feat, feat & 1);
	(void)features__dir_version(f);
}

static void test_one(const uint8_t *data, size_t size)
{
	unsigned char *buf = fuzz__dup(data, size);
	struct file_section sec[FEAT_BITS];
	struct header_print_info hi;
	struct file_header h;
	struct features f;
	struct evlist el;
	struct diag d;
	uint64_t feat_off;
	bool swap = false, is_pipe;

	if (!buf)
		return;
	evlist__init(&el);
	features__init(&f);
	(void)file_header__probe(buf, size, &is_pipe, &swap);
	if (file_header__read(&h, &swap, buf, size, size, "fuzz", &d) ||
	    file_header__read_attrs(&h, swap, buf, size, &el, "fuzz", &d))
		goto out;
	(void)evlist__check(&el, &d);
	for (size_t i = 0; i < el.nr; i++)
		(void)evsel__name(el.evsels[i]);
	if (file_header__feat_sections(&h, swap, buf, size, sec, &feat_off, "fuzz", &d))
		goto out;
	for (unsigned feat = 1; feat < FEAT_BITS; feat++) {
		if (!file_header__has_feat(&h, feat))
			continue;
		(void)feat__name(feat);
		(void)features__parse(&f, feat, buf + sec[feat].offset, (size_t)sec[feat].size,
				      swap, sec[feat].offset, "fuzz", &d);
	}
	use_features(&f, &el);
	memset(&hi, 0, sizeof(hi));
	hi.path = "fuzz";
	hi.is_dir = size & 1;
	hi.full = size & 2;	/* -I on half of the inputs */
	hi.data_offset = h.data.offset;
	hi.data_size = h.data.size;
	hi.feat_offset = feat_off;
	memcpy(hi.bitmap, h.features, sizeof(hi.bitmap));
	hi.feat = &f;
	if (fuzz__devnull())
		(void)header_print__header(fuzz__devnull(), &hi);
out:
	features__exit(&f);
	evlist__exit(&el);
	free(buf);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz__limit_alloc(FUZZ_ALLOC_LIMIT(size));
	test_one(data, size);
	fuzz__limit_alloc(0);
	return 0;
}
