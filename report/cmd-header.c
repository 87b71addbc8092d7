/*
 * `--header-only` and the header part of `--header`: the header as perf 6.1 prints it,
 * from the feature sections the session parsed.
 */
#include "report/cmd.h"

#include <string.h>	/* memcpy */

#include "format/feature.h"
#include "format/header.h"
#include "reader/session.h"
#include "report/header-print.h"
#include "banned.h"

int cmd_header(struct session *s, const struct report_opts *o, struct machine *m,
	       FILE *out)
{
	const struct file_header *h = session__header(s);
	struct header_print_info hi = {
		.path = session__path(s),
		.is_pipe = session__is_pipe(s),
		.is_dir = session__is_dir(s),
		.full = o->show_info,
		.mtime = (time_t)session__mtime(s),
		.data_offset = h->data.offset,
		.data_size = h->data.size,
		.feat_offset = session__feat_offset(s),
		.feat = session__features(s),
	};
	int err;

	(void)m;
	memcpy(hi.bitmap, h->features, sizeof(hi.bitmap));
	err = header_print__header(out, &hi);
	/* A pipe carries its features as records: perf prints them as they arrive,
	 * which is id order (perf record sends them so). */
	for (unsigned f = 1; !err && hi.is_pipe && f < FEAT_LAST_PERF61; f++)
		if (features__has(hi.feat, f))
			err = header_print__feature(out, &hi, f);
	return err;
}
