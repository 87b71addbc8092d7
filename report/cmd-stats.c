/*
 * `dirreport --stats`: perf report --stats, the record counts of the recording (the
 * "Aggregated stats:" block that closes `-D`) without the report.
 */
#include "report/cmd.h"

#include <errno.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* fprintf, snprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* strdup */

#include "format/diag.h"
#include "format/evlist.h"
#include "format/header.h"
#include "format/index.h"
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

/* The counts of the recording's index, as the pass over the records would count
 * them; the events take the names the index recorded (the full load's: EVENT_UPDATE
 * records can rename them). */
static int stats_from_index(struct dump_stats *st, struct session *s,
			    const struct dir_index *ix)
{
	struct evlist *el = session__evlist(s);
	int err = 0;

	for (size_t t = 0; t < DUMP_STATS_NR_TYPES; t++)
		st->nr_events[t] = (uint32_t)ix->counts[t];
	for (size_t i = 0; i < ix->nr_events && i < el->nr && !err; i++) {
		struct evsel *ev = el->evsels[i];
		char *name = strdup(ix->events[i].name);

		if (!name)
			return -ENOMEM;
		free(ev->name);
		ev->name = name;
		if (ix->events[i].nr_samples)
			err = dump_stats__count_samples(st, i, ix->events[i].nr_samples);
	}
	return err;
}

struct dir_index *cmd_stats_index(struct session *s, const char *input)
{
	struct dir_index *ix = NULL;
	char why[1024];

	if (session__is_pipe(s))
		return NULL;
	if (dir_index__open(input, session__is_dir(s), session__nr_files(s),
			    session__evlist(s)->nr, &ix, why, sizeof(why)) == 1)
		fprintf(stderr, "dirreport: warning: index ignored: %s\n", why);
	return ix;
}

int cmd_stats(struct session *s, const struct report_opts *o, struct machine *m,
	      FILE *out)
{
	return cmd_stats_with(s, o, m, out, NULL);
}

int cmd_stats_with(struct session *s, const struct report_opts *o, struct machine *m,
		   FILE *out, const struct dir_index *ix)
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
	err = ix ? stats_from_index(&st, s, ix) : session__deliver(s, on_batch, &st, 0);
	if (!err) {
		dump_stats__print_opt(&buf, &st, session__evlist(s),
				      file_header__has_feat(session__header(s), FEAT_AUXTRACE),
				      !o->no_skip_empty);
		err = strbuf__fwrite(&buf, out);
	}
	strbuf__exit(&buf);
	dump_stats__exit(&st);
	return err;
}
