/*
 * `dirreport -D`: every record as perf 6.1's dump-raw-trace prints it, in perf's
 * delivery order, each tagged with the file it came from.
 *
 * A sink of the sample pipeline (resolve/pipeline.h) that takes every record
 * (pipeline_sink.every_record): in order, each record is counted and given the
 * context perf prints it with, side-band records replay into the machine, a sample
 * gets its thread and comm; on the workers each record's text is formatted (a
 * sample's dso found as it was at the sample), a batch in two chunks per formatting
 * thread while the next batch is replayed; the chunks are written in order.
 */
#include "report/cmd.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free */

#include "format/evlist.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "report/branch.h"
#include "report/dump.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "resolve/pipeline.h"
#include "util/workqueue.h"
#include "report/strbuf.h"
#include "util/phase.h"
#include "banned.h"

struct dumper {
	struct pipeline_sink sink;	/* dump_sink with its job size */
	struct session *s;
	FILE *out;
	struct dump_stats stats;
	struct dump_ctx ctx;		/* the complete evlist's */
	struct dump_ctx *pipe_ctx;	/* pipe: ctx after k HEADER_ATTRs, k = 0..nr */
	size_t attrs_seen;		/* pipe: HEADER_ATTR records delivered so far */
	bool branch_mode;		/* perf's branch view: a sample counts once per
					 * branch (report/branch.h) */
};

/* What one job of the pipeline writes: its records' text. */
struct dump_chunk {
	struct strbuf sb;
};

/* pipeline sink: prepare() - every record in its turn: counted, given the context
 * perf prints it with (a pipe's records take the context of the HEADER_ATTRs
 * delivered before them); a sample counted for its event */
static int sink_prepare(void *ctx, struct resolved_sample *rs)
{
	struct dumper *dp = ctx;
	const struct record_ref *ref = rs->ref;

	dump_stats__count(&dp->stats, ref->type);
	if (ref->flags & RECORD_REF_CONTAINER)	/* counted, not printed */
		return PIPELINE_DROP;
	rs->aux = &dp->ctx;
	if (dp->pipe_ctx) {
		rs->aux = &dp->pipe_ctx[dp->attrs_seen];
		if (ref->type == REC_HEADER_ATTR && dp->attrs_seen < session__evlist(dp->s)->nr)
			dp->attrs_seen++;
	}
	if (rs->record_only)
		return 0;
	rs->aux_int = rs->t->tid;
	/* perf runs its report under -D: the branch view counts the branches of a
	 * sample with a branch stack, and nothing for one without */
	if (!dp->branch_mode)
		return dump_stats__count_sample(&dp->stats, (uint32_t)ref->evsel->idx);
	if (rs->s.sample_type & SAMPLE_BRANCH_STACK)
		return dump_stats__count_samples(&dp->stats, (uint32_t)ref->evsel->idx,
						 (uint32_t)rs->s.branch_nr);
	return 0;
}

/* pipeline sink: sample() - a record's text, on any worker: a sample with its thread
 * and dso (-D prints the dso, never the symbol: no symbol table is loaded) */
static int sink_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		       const struct resolved_sample *rs)
{
	const struct dumper *dp = ctx;
	const struct record_ref *ref = rs->ref;
	struct dump_chunk *c = chunk;
	/* appended to in a copy of its own: chunks may share cache lines, and each
	 * append writes len (16 workers writing one line made -j 16's formatting
	 * take 4-5x the CPU of -j 2's) */
	struct strbuf sb = c->sb;
	struct dump_rec rec = {
		.data = ref->data, .size = ref->size, .offset = ref->offset,
		.path = session__file_label(dp->s, ref->file), .evsel = ref->evsel,
	};
	struct sample smp;

	(void)state;
	if (!rs->record_only) {
		struct addr_location al;

		pipeline__resolve_map(pt, rs, rs->s.misc & MISC_CPUMODE_MASK, rs->s.ip, &al);
		rec.sample = &rs->s;
		rec.nr_deliveries = 1;
		rec.comm = rs->comm;
		rec.tid = rs->aux_int;
		rec.dso = al.level == 'H' ? "[hypervisor]" : al.dso ? dso__long_name(al.dso)
								   : NULL;
	} else if (ref->type < REC_USER_FIRST && ref->type != REC_SAMPLE && ref->evsel) {
		/* the id trailer, for the summary's prefix */
		rec.sample = sample__parse_id_trailer(&smp, &ref->evsel->attr, ref->data,
						      ref->size) ? NULL : &smp;
	}
	/* (a SAMPLE that does not parse: no sample, perf's truncated marker) */
	dump__record(&sb, rs->aux, &rec);
	c->sb = sb;
	return 0;
}

/* pipeline sink: emit() - a chunk's text out, in order */
static int sink_emit(void *ctx, void *chunk)
{
	struct dumper *dp = ctx;
	struct dump_chunk *c = chunk;
	int err = strbuf__fwrite(&c->sb, dp->out);

	strbuf__reset(&c->sb);
	return err;
}

static void sink_chunk_exit(void *ctx, void *chunk)
{
	(void)ctx;
	strbuf__exit(&((struct dump_chunk *)chunk)->sb);
}

static const struct pipeline_sink dump_sink = {
	.prepare = sink_prepare,
	.chunk_size = sizeof(struct dump_chunk),
	.chunk_exit = sink_chunk_exit,
	.sample = sink_sample,
	.emit = sink_emit,
	.every_record = true,
};

static int setup_pipe_ctx(struct dumper *dp, const char *arch)
{
	struct evlist *el = session__evlist(dp->s);

	dp->pipe_ctx = calloc(el->nr + 1, sizeof(*dp->pipe_ctx));
	if (!dp->pipe_ctx)
		return -ENOMEM;
	for (size_t k = 0; k <= el->nr; k++) {
		struct evlist view = *el;	/* the first k events, as perf knows them */

		view.nr = k;
		dump_ctx__init(&dp->pipe_ctx[k], &view, arch);
	}
	return 0;
}

int cmd_dump(struct session *s, const struct report_opts *o, struct machine *m, FILE *out)
{
	struct dumper dp = { .s = s, .out = out };
	struct pipeline *pipe = NULL;
	struct strbuf tail;
	int err;

	/* perf's report refuses these before it reads a record */
	if (branch_mode__check(s, o, out))
		return CMD_ERR_REPORTED;
	dp.branch_mode = branch_mode__on(s, o->branch_stack);
	dump_stats__init(&dp.stats);
	strbuf__init(&tail, 4096);
	dump_ctx__init(&dp.ctx, session__evlist(s), NULL);
	/* a batch's text in two chunks per thread that formats (fewer, larger texts
	 * waste less of their huge pages: util/hugemem.h), at least 256 records */
	dp.sink = dump_sink;
	dp.sink.job_items = SESSION_DELIVER_BATCH /
			    (2 * ((size_t)workqueue__nr_workers(session__workqueue(s)) + 1));
	if (dp.sink.job_items < 256)
		dp.sink.job_items = 256;
	err = pipeline__new(&pipe, m, session__workqueue(s), &dp.sink, &dp);
	if (!err && session__is_pipe(s))
		err = setup_pipe_ctx(&dp, NULL);
	if (!err) {
		const struct evsel *first = evlist__first(session__evlist(s));

		/* perf's session setup says this (only under -D) when it cannot order */
		if (!session__is_pipe(s) && first && !attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL))
			strbuf__addstr(&tail, "WARNING: No sample_id_all support, falling back "
					      "to unordered processing\n");
		dump__preamble(&tail);
		fwrite(tail.buf, 1, tail.len, out);
		/* each batch's records are formatted on the workers while the next
		 * batch is replayed, and written in order */
		err = pipeline__deliver(pipe, s, 0);
		phases__mark("delivery");
	}
	pipeline__delete(pipe);
	if (!err) {
		strbuf__reset(&tail);
		dump_stats__print_opt(&tail, &dp.stats, session__evlist(s),
				      file_header__has_feat(session__header(s), FEAT_AUXTRACE),
				      !o->no_skip_empty);
		err = strbuf__fwrite(&tail, out);
	}
	strbuf__exit(&tail);
	free(dp.pipe_ctx);
	dump_stats__exit(&dp.stats);
	return err;
}
