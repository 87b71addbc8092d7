/*
 * index-build - the per-file index of a recording (format/index.h,
 * docs/index-format.md) built from one pass over its records and the facts of its
 * scan pass (a directory's records taken from the scan pass itself, each file on its
 * worker; a single file's from the delivery pass), written atomically beside the file
 * or inside the directory: what `dirconvert --index` writes, and dirrecord at the end
 * of a recording.
 */
#include "reader/session.h"

#include <errno.h>
#include <limits.h>	/* PATH_MAX */
#include <stdio.h>	/* snprintf */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* strcmp, strrchr */
#include <sys/stat.h>	/* stat */
#include <zstd.h>	/* ZSTD_findFrameCompressedSize */

#include "format/diag.h"
#include "format/evlist.h"
#include "format/header.h"
#include "format/index.h"
#include "format/record.h"
#include "banned.h"

struct index_run {
	struct dir_index_builder *b;
	uint64_t *samples;	/* per file, per evsel index (nr_files * nr_evsels) */
	size_t nr_evsels;
	bool ready;		/* b describes the files: the scan's records go to it */
};

/* Whether a COMPRESSED record's payload is one whole zstd frame (one that decodes on
 * its own: dirconvert writes them so; perf 6.1 writes one stream across records). */
static bool independent_frame(const struct record_ref *ref)
{
	const unsigned char *p = ref->data + 8;
	size_t n = ref->size > 8 ? ref->size - 8 : 0;

	if (ref->type != REC_COMPRESSED || n < 4)
		return false;
	return ZSTD_findFrameCompressedSize(p, n) == n;
}

/* Describe the session's files to the builder: a single file's data section, or a
 * directory's `data` (its data section) and data.N (whole files). */
static int describe_files(struct dir_index_builder *b, struct session *s, bool is_dir,
			  const char *input, struct diag *d)
{
	const struct file_header *h = session__header(s);
	char path[PATH_MAX];
	struct stat st;

	for (size_t i = 0; i < session__nr_files(s); i++) {
		const char *label = session__file_label(s, i);
		const char *name = strrchr(label, '/') ? strrchr(label, '/') + 1 : label;
		uint64_t off, size;
		int err;

		if (is_dir)
			snprintf(path, sizeof(path), "%s/%s", input, name);
		else
			snprintf(path, sizeof(path), "%s", input);
		if (stat(path, &st))
			return diag__set(d, path, DIAG_NO_OFFSET, -errno, NULL);
		if (!is_dir || !strcmp(name, "data")) {
			off = h->data.offset;
			size = h->data.size;
		} else {
			off = 0;
			size = (uint64_t)st.st_size;
		}
		/* a recording perf did not finish (data size 0) is read to the file's
		 * end, as the reader does */
		if (!size && off <= (uint64_t)st.st_size)
			size = (uint64_t)st.st_size - off;
		if (off > (uint64_t)st.st_size || size > (uint64_t)st.st_size - off)
			size = off > (uint64_t)st.st_size ? 0 : (uint64_t)st.st_size - off;
		err = dir_index_builder__file(b, i, name, (uint64_t)st.st_size,
					      (int64_t)st.st_mtim.tv_sec * 1000000000 +
					      st.st_mtim.tv_nsec, off, size);
		if (err)
			return diag__set(d, path, DIAG_NO_OFFSET, err, NULL);
	}
	return 0;
}

/* One record of file `file` into the builder, a sample into samples[its evsel]. */
static int add_record(struct index_run *r, size_t file, const struct record_ref *ref,
		      uint64_t *samples)
{
	int err = dir_index_builder__record(r->b, file, ref->offset, ref->type,
					    ref->time ? ref->time : UINT64_MAX,
					    (ref->flags & RECORD_REF_CONTAINER) &&
					    independent_frame(ref));

	if (!err)
		err = dir_index_builder__place(r->b, file, ref->offset, ref->type,
					       ref->disk_size != 0);
	if (!err && ref->type == REC_SAMPLE && !(ref->flags & RECORD_REF_CONTAINER) &&
	    ref->evsel && ref->evsel->idx < r->nr_evsels)
		samples[ref->evsel->idx]++;
	return err;
}

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct index_run *r = ctx;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++)
		err = add_record(r, recs[i]->file, recs[i], r->samples);
	return err;
}

/* session_opts.on_scan: the scan pass's records, each file on its worker (the
 * builder's files and the sample counts are per file) */
static int on_scan(void *ctx, size_t file, const struct record_ref *ref)
{
	struct index_run *r = ctx;

	if (!r->ready)
		return 0;
	return add_record(r, file, ref, r->samples + file * r->nr_evsels);
}

/* A builder for the session's files (r->b, r->samples zeroed), ready for records. */
static int new_builder(struct index_run *r, struct session *s, bool is_dir,
		       const char *input, uint64_t interval, struct diag *d)
{
	size_t n = session__nr_files(s) * (r->nr_evsels ? r->nr_evsels : 1);

	r->ready = false;
	dir_index_builder__delete(r->b);
	r->b = NULL;
	free(r->samples);
	if (!(r->samples = calloc(n ? n : 1, sizeof(*r->samples))) ||
	    dir_index_builder__new(&r->b, session__nr_files(s), interval))
		return diag__set(d, input, DIAG_NO_OFFSET, -ENOMEM, NULL);
	return describe_files(r->b, s, is_dir, input, d);
}

int session__build_index(const char *input, unsigned jobs, uint64_t interval,
			  struct diag *d)
{
	struct index_run r = { 0 };
	struct session_opts so = { .path = input, .jobs = jobs, .on_scan = on_scan,
				   .scan_ctx = &r };
	struct session *s = NULL;
	struct dir_index *ix = NULL;
	const struct evlist *el;
	char path[PATH_MAX];
	size_t nr_files = 0;
	struct stat st;
	bool is_dir;
	int err;

	if (stat(input, &st))
		return diag__set(d, input, DIAG_NO_OFFSET, -errno, NULL);
	is_dir = S_ISDIR(st.st_mode);
	if ((err = dir_index__path(input, is_dir, path, sizeof(path))))
		return diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
	err = session__open(&s, &so, d);
	if (!err && session__is_pipe(s))
		err = diag__set(d, input, DIAG_NO_OFFSET, -DIAG_USAGE, "a pipe-format "
				"stream has no index (convert it with --to-file first)");
	if (!err && is_dir != session__is_dir(s))
		err = diag__set(d, input, DIAG_NO_OFFSET, -DIAG_USAGE, "a directory read "
				"as one file has no index");
	/* a directory's records go to the builder as the scan pass reads them (each
	 * file on its worker): no delivery pass to merge them in time order, which
	 * the index does not need (its entries are byte ranges of each file) */
	if (!err && is_dir) {
		r.nr_evsels = session__evlist(s)->nr;
		nr_files = session__nr_files(s);
		err = new_builder(&r, s, is_dir, input, interval, d);
		r.ready = !err;
	}
	if (!err)
		err = session__load(s, d);
	if (err) {
		if (d->code == 0)
			diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	el = session__evlist(s);
	if (!r.ready || !session__scanned(s) || el->nr != r.nr_evsels ||
	    session__nr_files(s) != nr_files) {
		/* not what the scan saw (or a single file): the delivery pass feeds it */
		r.nr_evsels = el->nr;
		if ((err = new_builder(&r, s, is_dir, input, interval, d)))
			goto out;
		r.ready = false;
	}
	/* what the scan pass learnt, so that readers can start without one */
	for (size_t i = 0; i < session__nr_files(s) && !err; i++) {
		uint64_t lag, *turns, *imm;
		size_t nr_turns, nr_imm;

		err = session__scan_facts(s, i, &lag, &turns, &nr_turns, &imm, &nr_imm);
		if (!err)
			err = dir_index_builder__scan(r.b, i, lag, turns, nr_turns, imm, nr_imm);
		free(turns);
		free(imm);
		if (err == -ENOENT)
			err = 0;
	}
	if (err) {
		err = diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	if (r.ready) {
		/* the files' sample counts into the first file's */
		for (size_t f = 1; f < nr_files; f++)
			for (size_t i = 0; i < r.nr_evsels; i++)
				r.samples[i] += r.samples[f * r.nr_evsels + i];
	} else {
		err = session__deliver(s, on_batch, &r, 0);
	}
	for (size_t i = 0; !err && i < el->nr; i++)
		err = dir_index_builder__event(r.b, i, evsel__name(el->evsels[i]), r.samples[i]);
	if (err) {
		if (d->code == 0)
			diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	err = dir_index_builder__finish(r.b, &ix);
	r.b = NULL;
	if (err)
		diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
	else
		err = dir_index__write(ix, path, d);
out:
	dir_index__delete(ix);
	dir_index_builder__delete(r.b);
	free(r.samples);
	session__close(s);
	return err;
}
