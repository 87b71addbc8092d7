/*
 * `dirconvert --to-file` / `--to-dir`: the recording rewritten as a perf.data file or a
 * data directory (format/writer.h), in this machine's byte order, compressed or not.
 *
 * Records are written in perf 6.1's delivery order (session__deliver), so the output is
 * time ordered and perf reads it back in the same order:
 *  - a file: the records perf delivers at once (its own, and those with time 0) are
 *    written plain where they were delivered, the others (compressed with -z) between
 *    them; the writer closes every index chunk (about 1 MiB of records) with a
 *    FINISHED_ROUND, and where the order of the input goes back in time or a record
 *    that perf delivers at once follows queued ones, two FINISHED_ROUNDs in a row make
 *    perf deliver everything queued before it (docs/perf-data-format.md §7.2), as it
 *    was delivered from the input;
 *  - a directory: the records perf delivers at once go to `data` (as perf --threads
 *    writes its own and the synthesized records there), the others to `data.N` by their
 *    cpu (`--split cpu`) or in turn, a file per 1 MiB time chunk (`--split N`); perf
 *    merges them by time (§7.3), and no FINISHED_ROUND is written (perf writes none in
 *    a directory).
 * The input's containers (COMPRESSED) and FINISHED_ROUNDs are not copied: the writer
 * makes its own.  Pipe input's HEADER_ATTR, HEADER_FEATURE and HEADER_TRACING_DATA
 * become the attrs table and feature sections.
 */
#include "convert/cmd.h"

#include <errno.h>
#include <stdio.h>	/* fprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* memcpy */
#include <unistd.h>	/* unlink */

#include "convert/outfile.h"
#include "format/bytes.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/header.h"
#include "format/record.h"
#include "format/writer.h"
#include "reader/session.h"
#include "banned.h"

struct write_run {
	struct session *s;
	struct writer *w;
	const char *input;
	bool dir;
	bool all_in_one;	/* dir: everything in data.0 (perf reads in file order) */
	unsigned split_n;	/* dir: files by time chunk; 0 = by cpu */
	unsigned nr_files;	/* dir: data.N files */
	/* file: queued records written since everything was last flushed */
	bool queued;
	uint64_t last_time;
	/* dir --split N: current file and bytes written to it in this chunk */
	unsigned cur;
	uint64_t cur_bytes;
	bool have_tracing;	/* a pipe's HEADER_TRACING_DATA was kept */
	int err;
	struct diag *d;
};

/* The cpu of a kernel record (SAMPLE body or sample_id trailer), or -1. */
static long record_cpu(const struct record_ref *r)
{
	const struct event_attr *a;
	uint64_t st;
	size_t pos;

	if (!r->evsel)
		return -1;
	a = &r->evsel->attr;
	st = a->sample_type;
	if (!(st & SAMPLE_CPU))
		return -1;
	if (r->type == REC_SAMPLE) {
		static const uint64_t before = SAMPLE_IDENTIFIER | SAMPLE_IP | SAMPLE_TID |
			SAMPLE_TIME | SAMPLE_ADDR | SAMPLE_ID | SAMPLE_STREAM_ID;

		pos = 8 + 8 * (size_t)__builtin_popcountll(st & before);
	} else {
		size_t back = 8 + ((st & SAMPLE_IDENTIFIER) ? 8 : 0);

		if (!attr__flag(a, ATTR_SAMPLE_ID_ALL) || r->size < 8 + back)
			return -1;
		pos = r->size - back;
	}
	if (pos + 4 > r->size)
		return -1;
	return (long)bytes__u32(r->data + pos);
}

/* Every event's attr and ids; every feature the output keeps. */
static int put_header(struct write_run *wr)
{
	struct evlist *el = session__evlist(wr->s);
	const struct features *f = session__features(wr->s);
	int err;

	for (size_t i = 0; i < el->nr; i++) {
		const struct evsel *ev = el->evsels[i];

		if ((err = writer__add_event(wr->w, &ev->attr, ev->ids, ev->nr_ids)))
			return err;
	}
	for (unsigned feat = 1; feat < FEAT_BITS; feat++) {
		const void *body;
		size_t size;
		uint64_t off;
		bool swap;

		/* the writer makes DIR_FORMAT and COMPRESSED; AUXTRACE holds file
		 * offsets of the input (perf then finds the AUX data by reading) */
		if (feat == FEAT_DIR_FORMAT || feat == FEAT_COMPRESSED ||
		    feat == FEAT_AUXTRACE || !session__feature(wr->s, feat, &body, &size, &off,
							       &swap))
			continue;
		if (!swap)
			err = writer__set_feature(wr->w, feat, body, size);
		else
			err = writer__encode_feature(wr->w, f, feat);
		if (err == -ENOTSUP || err == -ENOENT)
			err = 0;	/* not re-encodable: dropped (format/README.md) */
		if (err)
			return err;
	}
	return 0;
}

/* Bytes of the record to copy: the record, and the AUXTRACE data that follows it. */
static int record_bytes(struct write_run *wr, const struct record_ref *r, size_t *n)
{
	uint64_t extra = 0;

	*n = r->size;
	if (r->type == REC_AUXTRACE && r->size >= 16)
		extra = bytes__u64(r->data + 8);
	if (extra) {
		if (r->disk_size < r->size || extra > r->disk_size - r->size)
			return session__record_diag(wr->s, r->file, r->offset, wr->d,
						    -DIAG_BAD_RECORD,
						    "AUXTRACE data runs past the record");
		*n += (size_t)extra;
	}
	return 0;
}

/* A pipe's tracing data (HEADER_TRACING_DATA and the bytes after it) as the
 * TRACING_DATA feature of the output. */
static int keep_tracing(struct write_run *wr, const struct record_ref *r)
{
	uint32_t n;

	if (wr->have_tracing || r->size < 12)
		return 0;
	n = bytes__u32(r->data + 8);
	if (r->disk_size < r->size || n > r->disk_size - r->size)
		return session__record_diag(wr->s, r->file, r->offset, wr->d, -DIAG_PIPE,
					    "TRACING_DATA payload runs past the record");
	wr->have_tracing = true;
	return writer__set_feature(wr->w, FEAT_TRACING_DATA, r->data + r->size, n);
}

static int write_file_record(struct write_run *wr, const struct record_ref *r, size_t n,
			     bool immediate)
{
	int err;

	if (wr->queued && (immediate || r->time < wr->last_time)) {
		/* two rounds: perf delivers everything queued before this record */
		if ((err = writer__round(wr->w, 0)) || (err = writer__round(wr->w, 0)))
			return err;
		wr->queued = false;
	}
	if (immediate)
		return writer__write(wr->w, 0, r->data, n, 0, WRITER_PLAIN);
	wr->queued = true;
	wr->last_time = r->time;
	return writer__write(wr->w, 0, r->data, n, r->time, 0);
}

static unsigned dir_stream(struct write_run *wr, const struct record_ref *r, size_t n)
{
	long cpu;

	if (wr->all_in_one)
		return 1;
	if (wr->split_n == 0) {
		cpu = record_cpu(r);
		return 1 + (unsigned)((cpu < 0 ? 0 : (unsigned long)cpu) % wr->nr_files);
	}
	/* a new file per time chunk, never between records of the same time */
	if (wr->cur_bytes >= WRITER_INDEX_BYTES && r->time != wr->last_time) {
		wr->cur = (wr->cur + 1) % wr->split_n;
		wr->cur_bytes = 0;
	}
	wr->cur_bytes += n;
	wr->last_time = r->time;
	return 1 + wr->cur;
}

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t nr)
{
	struct write_run *wr = ctx;
	int err = 0;

	for (size_t i = 0; i < nr && !err; i++) {
		const struct record_ref *r = recs[i];
		bool immediate = (r->flags & RECORD_REF_IMMEDIATE) || r->time == 0 ||
				 r->type >= REC_USER_FIRST;
		size_t n;

		if (r->flags & RECORD_REF_CONTAINER)
			continue;
		switch (r->type) {
		case REC_FINISHED_ROUND:
		case REC_HEADER_ATTR:
		case REC_HEADER_EVENT_TYPE:
		case REC_HEADER_FEATURE:
		case REC_COMPRESSED:
		case REC_COMPRESSED2:
			continue;
		case REC_HEADER_TRACING_DATA:
			err = keep_tracing(wr, r);
			continue;
		default:
			break;
		}
		if ((err = record_bytes(wr, r, &n)))
			break;
		if (!wr->dir)
			err = write_file_record(wr, r, n, immediate);
		else if (immediate && !wr->all_in_one)
			err = writer__write(wr->w, 0, r->data, n, 0, WRITER_PLAIN);
		else
			err = writer__write(wr->w, dir_stream(wr, r, n), r->data, n,
					    immediate ? 0 : r->time,
					    immediate ? WRITER_PLAIN : 0);
	}
	if (err)
		wr->err = err;
	return err;
}

/* Compression level of the output: -z, --decompress, else the input's. */
static int out_level(const struct convert_opts *o, const struct features *f)
{
	if (o->decompress)
		return 0;
	if (o->comp_level > 0)
		return o->comp_level;
	if (features__has(f, FEAT_COMPRESSED) && f->comp.type == FEAT_COMP_ZSTD)
		return f->comp.level >= 1 && f->comp.level <= 22 ? (int)f->comp.level : 1;
	return 0;
}

/* How a directory is split: by cpu (--split cpu, or by default when every event
 * samples the cpu), in N time chunks, or everything in data.0 (perf reads a recording
 * whose first event lacks sample_id_all in file order, and delivers every record of a
 * recording without timestamps at arrival). */
static int plan_dir(struct write_run *wr, const struct convert_opts *o, struct diag *d)
{
	struct evlist *el = session__evlist(wr->s);
	const struct features *f = session__features(wr->s);
	const struct evsel *first = evlist__first(el);
	bool all_cpu = el->nr > 0, any_time = false;

	for (size_t i = 0; i < el->nr; i++) {
		all_cpu &= (el->evsels[i]->attr.sample_type & SAMPLE_CPU) != 0;
		any_time |= (el->evsels[i]->attr.sample_type & SAMPLE_TIME) != 0;
	}
	/* no queue (perf reads in arrival order) or no timestamps (every record is
	 * delivered at arrival): one stream keeps the order, and data.0 must not be
	 * empty (perf refuses a directory without a non-empty data.N) */
	if (!first || !attr__flag(&first->attr, ATTR_SAMPLE_ID_ALL) || !any_time) {
		wr->all_in_one = true;
		wr->nr_files = 1;
		return 0;
	}
	if (o->split_n) {
		wr->split_n = wr->nr_files = o->split_n;
		return 0;
	}
	if (!all_cpu) {
		if (o->split_cpu)
			return diag__set(d, wr->input, DIAG_NO_OFFSET, -DIAG_USAGE,
					 "--split cpu: the recording's events do not sample "
					 "the cpu (use --split N)");
		wr->split_n = wr->nr_files = 1;
		return 0;
	}
	wr->nr_files = features__has(f, FEAT_NRCPUS) && f->nr_cpus_avail ?
		       f->nr_cpus_avail : 1;
	if (wr->nr_files > 4096)
		wr->nr_files = 4096;
	return 0;
}

static int run(struct write_run *wr, const struct convert_opts *o, struct diag *d)
{
	const char *out = wr->dir ? o->to_dir : o->to_file;
	struct writer_opts wo = {
		.dir = wr->dir, .comp_level = out_level(o, session__features(wr->s)),
		.rounds = !wr->dir,
	};
	int err;

	if (wr->dir && (err = plan_dir(wr, o, d)))
		return err;
	wo.nr_data_files = wr->nr_files;
	err = wr->dir ? outfile__claim_dir(out, o->input, o->force, wr->nr_files, d) :
			outfile__claim(out, o->input, OUTFILE_PRIVATE |
				       (o->force ? OUTFILE_FORCE : 0), d);
	if (err)
		return err;
	if (!wr->dir)
		unlink(outfile__tmp_path());	/* the writer creates it exclusively */
	err = writer__open(&wr->w, outfile__tmp_path(), &wo, d);
	if (!err && (err = put_header(wr)))
		diag__set(d, out, DIAG_NO_OFFSET, err, NULL);
	if (!err) {
		err = session__deliver(wr->s, on_batch, wr, 0);
		if (err && d->code == 0)
			*d = *writer__diag(wr->w);
		if (err && d->code == 0)
			diag__set(d, out, DIAG_NO_OFFSET, err, NULL);
	}
	if (!err) {
		err = writer__close(wr->w, d);
		wr->w = NULL;
	}
	/* every directory written carries its index (made from the finished files,
	 * before the rename, which keeps their sizes and mtimes) */
	if (!err && wr->dir)
		err = session__build_index(outfile__tmp_path(), o->jobs, 0, d);
	if (!err)
		err = outfile__commit(d);
	return err;
}

int cmd_write(const struct convert_opts *o, struct diag *d)
{
	struct session_opts so = { .path = o->input, .jobs = o->jobs };
	struct write_run wr = { .input = o->input ? o->input : "perf.data", .d = d,
				.dir = o->to_dir != NULL };
	int err = session__open(&wr.s, &so, d);

	if (!err)
		err = session__load(wr.s, d);
	if (err) {
		if (d->code == 0)
			diag__set(d, wr.input, DIAG_NO_OFFSET, err, NULL);
		session__close(wr.s);
		return err;
	}
	for (size_t i = 0; i < session__nr_warnings(wr.s); i++)
		fprintf(stderr, "dirconvert: warning: %s\n", session__warning(wr.s, i));
	err = run(&wr, o, d);
	writer__delete(wr.w);
	if (err)
		outfile__drop();
	session__close(wr.s);
	return err;
}
