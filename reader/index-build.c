/*
 * index-build - the per-file index of a recording (format/index.h,
 * docs/index-format.md) built from one pass over its records and the facts of its
 * scan pass, written atomically beside the file or inside the directory: what
 * `dirconvert --index` writes, and dirrecord at the end of a recording.
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
	uint64_t *samples;	/* per evsel index */
	size_t nr_evsels;
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

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct index_run *r = ctx;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		err = dir_index_builder__record(r->b, ref->file, ref->offset, ref->type,
						ref->time ? ref->time : UINT64_MAX,
						(ref->flags & RECORD_REF_CONTAINER) &&
						independent_frame(ref));
		if (!err)
			err = dir_index_builder__place(r->b, ref->file, ref->offset, ref->type,
						       ref->disk_size != 0);
		if (!err && ref->type == REC_SAMPLE && !(ref->flags & RECORD_REF_CONTAINER) &&
		    ref->evsel && ref->evsel->idx < r->nr_evsels)
			r->samples[ref->evsel->idx]++;
	}
	return err;
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

int session__build_index(const char *input, unsigned jobs, uint64_t interval,
			  struct diag *d)
{
	struct session_opts so = { .path = input, .jobs = jobs };
	struct session *s = NULL;
	struct index_run r = { 0 };
	struct dir_index *ix = NULL;
	char path[PATH_MAX];
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
	if (!err)
		err = session__load(s, d);
	if (err) {
		if (d->code == 0)
			diag__set(d, input, DIAG_NO_OFFSET, err, NULL);
		goto out;
	}
	const struct evlist *el = session__evlist(s);

	r.nr_evsels = el->nr;
	if (!(r.samples = calloc(el->nr ? el->nr : 1, sizeof(*r.samples))) ||
	    dir_index_builder__new(&r.b, session__nr_files(s), interval)) {
		err = diag__set(d, input, DIAG_NO_OFFSET, -ENOMEM, NULL);
		goto out;
	}
	if ((err = describe_files(r.b, s, is_dir, input, d)))
		goto out;
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
	err = session__deliver(s, on_batch, &r, 0);
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
