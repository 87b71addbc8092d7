/*
 * `dirreport -D`: every record as perf 6.1's dump-raw-trace prints it, in perf's
 * delivery order, each tagged with the file it came from.
 *
 * Per batch of delivered records: a pass 0 on the workers fills the batch's items and
 * parses its samples into digests (prep_chunk()); one sequential pass replays
 * side-band records through the machine state and resolves each sample's thread and
 * dso (both depend on order) from its digest, without reading the
 * sample's record (whose cache lines were the producer thread's: most of that pass's
 * cost); then the text of the batch is formatted on the workers, in chunks, while the
 * calling thread prepares the next batch (the session holds the batch's records
 * meanwhile: session__hold_batches()), and written in order with large writes once
 * that is done.
 */
#include "report/cmd.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memset */

#include "format/evlist.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "util/workqueue.h"
#include "report/branch.h"
#include "report/dump.h"
#include "machine/machine.h"
#include "report/strbuf.h"
#include "util/array.h"
#include "util/phase.h"
#include "banned.h"

#define DUMP_CHUNKS 16

/* How format_chunk() parses an item's record again for its text (pass 0 parsed it
 * too: a parsed struct sample is 368 bytes, the record's bytes are
 * read for the text anyway, so the batch's items stay small: 104 bytes, not 464). */
enum dump_parse {
	PARSE_NONE, PARSE_SAMPLE, PARSE_TRAILER,
	PARSE_HOLE,			/* a container, counted, not printed */
};

struct dump_item {
	struct dump_rec rec;		/* rec.sample is set by format_chunk(), and a
					 * sample's comm, tid and dso from its
					 * dump_who */
	struct dump_ctx *ctx;		/* borrowed: the ctx valid at delivery */
	uint8_t parse;			/* enum dump_parse */
};

/* What the sequential pass finds for a sample item (the same index): its thread and
 * dso, apart from the items (the workers write those in pass 0).  A user-mode
 * sample's dso is found where its text is formatted (format_chunk(), on a worker), in
 * a copy of its process's maps as they were at the sample (maps__copy(): the arrays
 * stay until the batch is written, finish_slot()). */
struct dump_who {
	const char *comm, *dso;		/* as dump_rec's */
	int tid;
	bool user;			/* dso: in maps at the sample's ip */
	struct maps maps;		/* user: a copy */
};

/* Pass 0's digest of a batch's record, for the sequential pass (the same index). */
struct dump_prep {
	uint64_t ip;
	int32_t pid, tid;
	uint32_t type;			/* the record's */
	uint32_t branch_nr;		/* SAMPLE_BRANCH_STACK: the branches */
	uint32_t evsel_idx;
	uint8_t cpumode;
	uint8_t kind;			/* enum prep_kind */
};

enum prep_kind {
	PREP_OTHER,			/* the sequential pass reads the record */
	PREP_CONTAINER,			/* counted only */
	PREP_SAMPLE,			/* parsed: the digest holds what it needs */
	PREP_BAD_SAMPLE,		/* does not parse: counted, prints the
					 * truncated marker */
};

struct dumper;

/* One chunk of a slot's items, formatted by format_chunk() on a worker. */
struct dump_job {
	struct dumper *dp;
	struct dump_slot *sl;
	size_t c;
};

/* A batch in the pipeline: prepared on the calling thread, formatted on the workers
 * while the next one is prepared in the other slot, then written. */
struct dump_slot {
	struct dump_item *items;	/* owned, batch-sized */
	size_t n, cap;			/* items in the batch; allocated */
	struct dump_who *who;		/* owned, cap of them: items[i]'s is who[i] */
	struct dump_prep *prep;		/* owned, cap of them: record i's is prep[i],
					 * its item items[i] */
	struct strbuf chunks[DUMP_CHUNKS];
	struct dump_job jobs[DUMP_CHUNKS];
	struct wq_group g;		/* the chunks being formatted */
	bool busy;			/* queued: wait for g, then write */
	size_t maps_mark;		/* machine__maps_retired() once prepared: the
					 * arrays replaced before are free to go once
					 * it is written */
};

struct dumper {
	struct session *s;
	struct machine *machine;
	FILE *out;
	struct dump_stats stats;
	struct dump_ctx ctx;		/* the complete evlist's */
	struct dump_ctx *pipe_ctx;	/* pipe: ctx after k HEADER_ATTRs, k = 0..nr */
	size_t attrs_seen;		/* pipe: HEADER_ATTR records delivered so far */
	struct dump_slot slot[2];
	unsigned cur;			/* the slot the next batch is prepared in */
	size_t nr_chunks;		/* of each batch: two per thread that formats (fewer,
					 * larger texts waste less of their huge pages), at
					 * most DUMP_CHUNKS */
	bool branch_mode;		/* perf's branch view: a sample counts once per
					 * branch (report/branch.h) */
	const struct record_ref *const *recs;	/* the batch being prepared */
	size_t nr_recs;
};

/* Sequential: a parsed sample's thread and dso (into @p who), counted. */
static int resolve_sample(struct dumper *dp, const struct dump_prep *pr, struct dump_who *who)
{
	struct thread *t = machine__findnew_thread(dp->machine, pr->pid, pr->tid);
	struct addr_location al;

	if (!t || !(who->comm = machine__sample_comm(dp->machine, t)))
		return -ENOMEM;
	who->tid = t->tid;
	who->user = pr->cpumode == MISC_USER;
	if (who->user) {	/* machine__resolve_map()'s, on a worker */
		maps__copy(t->maps, &who->maps);
	} else {
		/* -D prints the dso, never the symbol: no symbol table is loaded;
		 * a kernel address may move the kernel's map (and the next batch's
		 * records change the kernel's maps while this one is formatted) */
		machine__resolve_map(dp->machine, t, pr->cpumode, pr->ip, &al);
		if (al.level == 'H')
			who->dso = "[hypervisor]";
		else
			who->dso = al.dso ? dso__long_name(al.dso) : NULL;
	}
	/* perf runs its report under -D: the branch view counts the branches of a
	 * sample with a branch stack, and nothing for one without */
	if (!dp->branch_mode)
		return dump_stats__count_sample(&dp->stats, pr->evsel_idx);
	if (pr->branch_nr != UINT32_MAX)
		return dump_stats__count_samples(&dp->stats, pr->evsel_idx, pr->branch_nr);
	return 0;
}

/* Pass 0: an item's fields from its record. */
static void item_init(struct dumper *dp, const struct record_ref *ref, struct dump_item *it)
{
	memset(&it->rec, 0, sizeof(it->rec));
	it->parse = PARSE_NONE;
	it->rec.data = ref->data;
	it->rec.size = ref->size;
	it->rec.offset = ref->offset;
	it->rec.path = session__file_label(dp->s, ref->file);
	it->rec.evsel = ref->evsel;
	it->ctx = &dp->ctx;
}

/* Records per pass 0 job. */
#define PREP_CHUNK 512

/*
 * Pass 0 for the records [c * PREP_CHUNK, ...) of the batch being prepared, on any
 * worker: record i's item (items[i]) filled, a sample parsed into its digest
 * (prep[i]), a container's item a hole.  Reads only the records.
 */
static void prep_chunk(void *ctx, size_t c)
{
	struct dumper *dp = ctx;
	struct dump_slot *sl = &dp->slot[dp->cur];
	size_t end = (c + 1) * PREP_CHUNK;

	if (end > dp->nr_recs)
		end = dp->nr_recs;
	for (size_t i = c * PREP_CHUNK; i < end; i++) {
		const struct record_ref *ref = dp->recs[i];
		struct dump_item *it = &sl->items[i];
		struct dump_prep *pr = &sl->prep[i];
		struct sample smp;

		pr->type = ref->type;
		if (ref->flags & RECORD_REF_CONTAINER) {
			pr->kind = PREP_CONTAINER;
			it->parse = PARSE_HOLE;
			continue;
		}
		item_init(dp, ref, it);
		pr->kind = PREP_OTHER;
		if (ref->type < REC_USER_FIRST && ref->type != REC_SAMPLE &&
		    !sample__parse_id_trailer(&smp, &ref->evsel->attr, ref->data, ref->size))
			it->parse = PARSE_TRAILER;
		if (ref->type == REC_SAMPLE) {
			it->parse = PARSE_SAMPLE;
			if (sample__parse(&smp, &ref->evsel->attr, ref->data, ref->size)) {
				pr->kind = PREP_BAD_SAMPLE;	/* the truncated marker */
				continue;
			}
			it->rec.nr_deliveries = 1;
			pr->kind = PREP_SAMPLE;
			pr->ip = smp.ip;
			pr->pid = (int32_t)smp.pid;
			pr->tid = (int32_t)smp.tid;
			pr->cpumode = smp.misc & MISC_CPUMODE_MASK;
			pr->evsel_idx = (uint32_t)ref->evsel->idx;
			pr->branch_nr = (smp.sample_type & SAMPLE_BRANCH_STACK) ?
					(uint32_t)smp.branch_nr : UINT32_MAX;
		}
	}
}

/* Pass 0 on the workers, then in order: counts, machine state, each sample's thread
 * and dso from its digest; a pipe's records take the context of the HEADER_ATTRs
 * delivered before them. */
static int prepare_batch(struct dumper *dp, struct dump_slot *sl,
			 const struct record_ref *const *recs, size_t n)
{
	int err;

	dp->recs = recs;
	dp->nr_recs = n;
	if ((err = parallel_for(session__workqueue(dp->s), (n + PREP_CHUNK - 1) / PREP_CHUNK,
				prep_chunk, dp)))
		return err;
	sl->n = n;
	for (size_t i = 0; i < n && !err; i++) {
		const struct dump_prep *pr = &sl->prep[i];
		const struct record_ref *ref;
		struct sample smp;

		dump_stats__count(&dp->stats, pr->type);
		if (dp->pipe_ctx && pr->kind != PREP_CONTAINER) {
			sl->items[i].ctx = &dp->pipe_ctx[dp->attrs_seen];
			if (pr->type == REC_HEADER_ATTR &&
			    dp->attrs_seen < session__evlist(dp->s)->nr)
				dp->attrs_seen++;
		}
		if (pr->kind == PREP_SAMPLE)
			err = resolve_sample(dp, pr, &sl->who[i]);
		if (pr->kind != PREP_OTHER || pr->type >= REC_USER_FIRST)
			continue;
		ref = recs[i];
		sample__parse_id_trailer(&smp, &ref->evsel->attr, ref->data, ref->size);
		err = machine__process(dp->machine, ref, &smp);
	}
	return err;
}

static void format_chunk(void *p)
{
	const struct dump_job *job = p;
	struct dump_slot *sl = job->sl;
	size_t c = job->c;
	size_t per = (sl->n + job->dp->nr_chunks - 1) / job->dp->nr_chunks;
	size_t lo = c * per, hi = lo + per < sl->n ? lo + per : sl->n;
	/* appended to in a copy of its own: the chunks' strbufs share cache lines, and
	 * each append writes len (16 workers writing one line made -j 16's formatting
	 * take 4-5x the CPU of -j 2's) */
	struct strbuf sb = sl->chunks[c];

	strbuf__reset(&sb);
	for (size_t i = lo; i < hi; i++) {
		const struct dump_item *it = &sl->items[i];
		struct dump_rec rec;
		struct sample smp;

		if (it->parse == PARSE_HOLE)
			continue;
		rec = it->rec;
		/* as pass 0 parsed it (a SAMPLE that does not parse prints the truncated
		 * marker) */
		if (it->parse == PARSE_SAMPLE) {
			const struct dump_who *who = &sl->who[i];

			rec.sample = sample__parse(&smp, &rec.evsel->attr, rec.data,
						   rec.size) ? NULL : &smp;
			if (rec.sample) {
				rec.comm = who->comm;
				rec.tid = who->tid;
				rec.dso = who->dso;
			}
			if (rec.sample && who->user) {
				struct addr_location al;

				maps__resolve_user(&who->maps, smp.ip, &al);
				rec.dso = al.dso ? dso__long_name(al.dso) : NULL;
			}
		} else if (it->parse == PARSE_TRAILER)
			rec.sample = sample__parse_id_trailer(&smp, &rec.evsel->attr,
							      rec.data, rec.size) ? NULL : &smp;
		dump__record(&sb, it->ctx, &rec);
	}
	sl->chunks[c] = sb;
}

/* Wait for a queued slot's chunks and write them, in order. */
static int finish_slot(struct dumper *dp, struct dump_slot *sl, int err)
{
	if (!sl->busy)
		return err;
	workqueue__group_wait(session__workqueue(dp->s), &sl->g);
	sl->busy = false;
	/* the copies of maps of this batch and those before are done with (the
	 * next batch, prepared, takes its count only after this: on_batch()) */
	machine__release_maps_upto(dp->machine, sl->maps_mark);
	sl->maps_mark = 0;
	for (size_t c = 0; c < dp->nr_chunks && !err; c++)
		err = strbuf__fwrite(&sl->chunks[c], dp->out);
	return err;
}

static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct dumper *dp = p;
	struct dump_slot *sl = &dp->slot[dp->cur];
	struct workqueue *wq = session__workqueue(dp->s);
	int err = 0;

	/* the session lets the held batch go after this: it goes out now (and on an
	 * error, nothing may read the held records any more: waited for, not written) */
	if (n == 0)
		return finish_slot(dp, &dp->slot[!dp->cur], 0);
	if (n > sl->cap) {	/* items, who and prep grow together */
		size_t cap = sl->cap;
		struct dump_who *who;
		struct dump_prep *prep;

		if (array__grow(&sl->items, &cap, n, sizeof(*sl->items), 1024) ||
		    !(who = reallocarray(sl->who, cap, sizeof(*who))))
			return finish_slot(dp, &dp->slot[!dp->cur], -ENOMEM);
		sl->who = who;
		if (!(prep = reallocarray(sl->prep, cap, sizeof(*prep))))
			return finish_slot(dp, &dp->slot[!dp->cur], -ENOMEM);
		sl->prep = prep;
		sl->cap = cap;
	}
	err = prepare_batch(dp, sl, recs, n);
	/* the previous batch, formatted meanwhile, goes out first */
	err = finish_slot(dp, &dp->slot[!dp->cur], err);
	if (err)
		return err;
	sl->maps_mark = machine__maps_retired(dp->machine);
	sl->g = (struct wq_group){ 0 };
	for (size_t c = 0; c < dp->nr_chunks && !err; c++) {
		sl->jobs[c] = (struct dump_job){ dp, sl, c };
		err = workqueue__queue_group(wq, &sl->g, format_chunk, &sl->jobs[c]);
		sl->busy = true;
	}
	if (err)	/* the chunks queued read this batch: done before it goes */
		return finish_slot(dp, sl, err);
	dp->cur = !dp->cur;
	return 0;
}

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
	struct dumper dp = { .s = s, .out = out, .machine = m };
	struct strbuf tail;
	int err;

	/* perf's report refuses these before it reads a record */
	if (branch_mode__check(s, o, out))
		return CMD_ERR_REPORTED;
	dp.branch_mode = branch_mode__on(s, o->branch_stack);
	dp.nr_chunks = 2 * ((size_t)workqueue__nr_workers(session__workqueue(s)) + 1);
	if (dp.nr_chunks > DUMP_CHUNKS)
		dp.nr_chunks = DUMP_CHUNKS;
	dump_stats__init(&dp.stats);
	/* a batch's records are formatted while the next batch is prepared (an inline
	 * pool, -j 1, formats them before on_batch() returns) */
	if (workqueue__nr_workers(session__workqueue(s)) > 0)
		session__hold_batches(s, 1);
	strbuf__init(&tail, 4096);
	for (size_t k = 0; k < 2; k++)
		for (size_t c = 0; c < DUMP_CHUNKS; c++)
			strbuf__init(&dp.slot[k].chunks[c], 1 << 16);
	dump_ctx__init(&dp.ctx, session__evlist(s), NULL);
	err = 0;
	if (session__is_pipe(s))
		err = setup_pipe_ctx(&dp, NULL);
	if (!err) {
		const struct evsel *first = evlist__first(session__evlist(s));

		/* perf's session setup says this (only under -D) when it cannot order */
		if (!session__is_pipe(s) && first && !attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL))
			strbuf__addstr(&tail, "WARNING: No sample_id_all support, falling back "
					      "to unordered processing\n");
		dump__preamble(&tail);
		fwrite(tail.buf, 1, tail.len, out);
		err = session__deliver(s, on_batch, &dp, 0);
		/* the last batch, even after an error (its items are still running) */
		err = finish_slot(&dp, &dp.slot[!dp.cur], err);
		phases__mark("delivery");
	}
	if (!err) {
		strbuf__reset(&tail);
		dump_stats__print_opt(&tail, &dp.stats, session__evlist(s),
				      file_header__has_feat(session__header(s), FEAT_AUXTRACE),
				      !o->no_skip_empty);
		err = strbuf__fwrite(&tail, out);
	}
	for (size_t k = 0; k < 2; k++) {
		for (size_t c = 0; c < DUMP_CHUNKS; c++)
			strbuf__exit(&dp.slot[k].chunks[c]);
		free(dp.slot[k].items);
		free(dp.slot[k].who);
		free(dp.slot[k].prep);
	}
	strbuf__exit(&tail);
	free(dp.pipe_ctx);
	dump_stats__exit(&dp.stats);
	return err;
}
