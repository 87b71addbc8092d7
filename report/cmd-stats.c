/*
 * `dirreport --stats`: perf report --stats, the record counts of the recording (the
 * "Aggregated stats:" block that closes `-D`) without the report.
 */
#include "report/cmd.h"

#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "report/dump.h"
#include "report/sort.h"
#include "report/strbuf.h"
#include "banned.h"

/* Every record counts, containers (COMPRESSED) and what they hold alike; samples
 * also count for their event, as in -D. */
static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct dump_stats *st = p;
	struct sample s;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		dump_stats__count(st, ref->type);
		if ((ref->flags & RECORD_REF_CONTAINER) || ref->type != REC_SAMPLE)
			continue;
		if (sample__parse(&s, &ref->evsel->attr, ref->data, ref->size) == 0)
			err = dump_stats__count_sample(st, ref->evsel->idx);
	}
	return err;
}

int cmd_stats(struct session *s, const struct report_opts *o, struct machine *m,
	      FILE *out)
{
	struct dump_stats st;
	struct strbuf buf;
	int err;

	struct sort_opts so = {
		.sort_order = o->sort, .field_order = o->fields,
		.comm_list = o->comms, .dso_list = o->dsos, .sym_list = o->symbols,
	};
	struct sort_list sl;
	char msg[256];

	if (o->header) {
		err = cmd_header(s, o, m, out);
		if (err)
			return err;
	}
	/* perf's sort__setup_elide() prints before the session is processed */
	if (sort_list__setup(&sl, &so, msg, sizeof(msg)) == 0)
		sort_list__fprintf_elided(&sl, out);
	dump_stats__init(&st);
	strbuf__init(&buf, 4096);
	err = session__deliver(s, on_batch, &st, 0);
	if (!err) {
		dump_stats__print_opt(&buf, &st, session__evlist(s),
				      file_header__has_feat(session__header(s), FEAT_AUXTRACE),
				      !o->no_skip_empty);
		err = strbuf__error(&buf);
		if (!err && fwrite(buf.buf, 1, buf.len, out) != buf.len)
			err = -EIO;
	}
	strbuf__exit(&buf);
	dump_stats__exit(&st);
	return err;
}
