/*
 * session - a recording opened (reader/session.h): a perf.data file, a pipe (spooled
 * to a temporary file) or a data directory (data, data.N) - its header, attrs and
 * feature sections read and checked (session__open()); closed; what the front ends
 * read of it (the accessors), the warnings kept for them and their diagnostics
 * (session__warn(), session__record_diag()).  Loading is session-load.c's, delivery
 * session-deliver.c's; what the three share is session-internal.h.
 */
#define DIRREPORT_IN_READER
#include "reader/session.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdarg.h>	/* va_list */
#include <stdio.h>	/* asprintf, snprintf, vasprintf */
#include <stdlib.h>	/* calloc, free, getenv, malloc, realloc */
#include <string.h>	/* memcpy, memset, strcmp, strdup, strncmp */
#include <sys/stat.h>	/* fstat, stat */
#include <unistd.h>	/* close, read */

#include "format/bytes.h"
#include "format/diag.h"
#include "format/feature.h"
#include "format/index.h"
#include "reader/reader-internal.h"
#include "reader/session-internal.h"
#include "util/workqueue.h"
#include "banned.h"

/* A single file's scan pass: parts of at least this many bytes, about four per
 * thread (scan_split()). */
#define SCAN_PART_MIN (1u << 20)

/* Records per file held at once when a directory is streamed (default).  A quarter
 * of it is also how often a directory's merge hands a batch over (deliver_streamed()),
 * so it bounds the front ends' per-batch arrays too: 65536 held 111 MB at the peak of
 * the bench directory's report, 16384 89 MB (with 1 MiB release steps, reader.c),
 * 8192 78 MB but 5 % more wall (batches of 2048 records); 16384 was as fast as 65536
 * at -j 1 and -j 2 on both bench recordings. */
#define STREAM_WINDOW 16384

static int add_reader(struct session *s, const char *label, const char *fspath)
{
	struct reader *n = realloc(s->readers, (s->nr_readers + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->readers = n;
	n = &s->readers[s->nr_readers];
	memset(n, 0, sizeof(*n));
	n->index = (uint16_t)s->nr_readers++;
	n->label = strdup(label);
	n->fspath = strdup(fspath);
	n->evlist = &s->evlist;
	n->swap = s->swap;
	n->is_pipe = s->is_pipe;
	return n->label && n->fspath ? 0 : -ENOMEM;
}

int session__add_warning(struct session *s, char *w)
{
	char **n = realloc(s->warnings, (s->nr_warnings + 1) * sizeof(*n));

	if (!n) {
		free(w);
		return -ENOMEM;
	}
	s->warnings = n;
	s->warnings[s->nr_warnings++] = w;
	return 0;
}

int session__warn(struct session *s, const char *fmt, ...)
{
	va_list ap;
	char *w = NULL;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&w, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	return session__add_warning(s, w);
}

int session__open_fd(const char *fspath, const char *label, struct diag *d)
{
	int fd = open(fspath, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return diag__set(d, label, DIAG_NO_OFFSET, -errno, "cannot open: %s",
				 diag__code_str(-errno));
	return fd;
}

/* Regular file: header, attrs, feature table, data section bounds. */
static int open_regular(struct session *s, struct reader *r, struct diag *d)
{
	const unsigned char *m = r->st.map;
	uint64_t len = r->st.map_len, end, cut;
	int err;

	err = file_header__read(&s->header, &s->swap, m, r->st.map_len, len, r->label, d);
	if (err)
		return err;
	r->swap = s->swap;
	err = file_header__read_attrs(&s->header, s->swap, m, r->st.map_len, &s->evlist,
				      r->label, d);
	if (err)
		return err;
	if (!s->evlist.nr)
		return diag__set(d, r->label, 24, -DIAG_BAD_ATTR, "no event attributes");
	err = evlist__check(&s->evlist, d);
	if (err) {
		snprintf(d->path, sizeof(d->path), "%s", r->label);
		d->offset = s->header.attrs.offset;
		return err;
	}
	/* perf puts the data right after the attrs: a start past the end of the file is
	 * damage, not a cut (fuzzing found it) */
	if (s->header.data.offset > len)
		return diag__set(d, r->label, 40, -DIAG_BAD_HEADER,
				 "data section starts at %#llx, past the end of the file (%#llx)",
				 (unsigned long long)s->header.data.offset,
				 (unsigned long long)len);
	r->st.start = r->st.pos = s->header.data.offset;
	end = s->header.data.offset + s->header.data.size;
	if (s->header.data.size == 0 || end > len || end < s->header.data.offset) {
		/* Not finalised (perf record killed) or cut short: read to the end. */
		end = len;
		r->cut_is_warning = true;
		r->cut_warned = true;	/* one warning per file */
		if (s->header.data.size ? asprintf(&r->warning,
			"%s: offset %#llx: file is cut short (data section ends at %#llx); "
			"reporting the records before the cut", r->label,
			(unsigned long long)len,
			(unsigned long long)(s->header.data.offset + s->header.data.size)) < 0
		    : asprintf(&r->warning, "%s: offset 0x30: data size is 0 (perf record did "
			       "not finish); reading the records up to the end of the file",
			       r->label) < 0)
			r->warning = NULL;
		r->st.end = end;
		return 0;	/* the feature table is gone with the cut */
	}
	r->st.end = end;
	err = file_header__feat_sections_cut(&s->header, s->swap, m, r->st.map_len, s->feat,
					     &s->feat_offset, &cut, r->label, d);
	if (!err && cut != UINT64_MAX && asprintf(&r->warning,
		"%s: offset %#llx: file ends inside the feature sections; the features from "
		"there on are ignored", r->label, (unsigned long long)cut) < 0)
		r->warning = NULL;
	return err;
}


/* data.* files of a directory, in readdir order as perf 6.1 takes them: regular and
 * non-empty ones; one that cannot be stat()ed is skipped with a warning. */
static int open_dir_files(struct session *s, struct diag *d)
{
	DIR *dir = opendir(s->path);
	struct dirent *de;
	int err = 0;

	if (!dir)
		return diag__set(d, s->path, DIAG_NO_OFFSET, -errno, "cannot open directory: %s",
				 diag__code_str(-errno));
	while (!err && (de = readdir(dir))) {
		char *fs;
		struct stat st;

		if (strncmp(de->d_name, "data.", 5))
			continue;
		if (asprintf(&fs, "%s/%s", s->path, de->d_name) < 0) {
			err = -ENOMEM;
			break;
		}
		if (stat(fs, &st) < 0) {
			/* a dangling link, say: perf 6.1 skips the file silently; it is
			 * skipped here with a warning naming it */
			err = session__warn(s, "%s: cannot open: %s; the directory's other "
					    "data files are read without it", fs,
					    diag__code_str(-errno));
		} else if (S_ISREG(st.st_mode) && st.st_size > 0) {
			if (s->nr_readers >= UINT16_MAX)
				err = diag__set(d, s->path, DIAG_NO_OFFSET, -DIAG_BAD_RECORD,
						"too many data files");
			else
				err = add_reader(s, fs, fs);
		}
		free(fs);
	}
	closedir(dir);
	if (!err && s->nr_readers == 1)
		err = diag__set(d, s->path, DIAG_NO_OFFSET, -DIAG_NO_DATA_FILE,
				"data directory has no non-empty data.* file");
	return err;
}

static int open_pipe(struct session *s, struct reader *r)
{
	free(r->label);
	r->label = strdup("pipe");
	if (!r->label)
		return -ENOMEM;
	r->st.start = r->st.pos = PIPE_HEADER_SIZE;
	r->st.end = r->st.map_len;
	r->st.label_base = PIPE_HEADER_SIZE;
	r->cut_is_warning = true;
	r->is_pipe = true;
	r->swap = s->swap;
	return 0;
}

int session__open(struct session **out, const struct session_opts *opts, struct diag *d)
{
	struct session *s = calloc(1, sizeof(*s));
	const char *path = opts->path ? opts->path : "perf.data";
	bool is_stdin = !strcmp(path, "-");
	struct stat st;
	char *hdr_path = NULL;
	unsigned jobs = opts->jobs ? opts->jobs : workqueue__online_cpus();
	uint64_t version;
	int fd, err;
	bool regular = false;

	*out = NULL;
	if (!s)
		return -ENOMEM;
	evlist__init(&s->evlist);
	features__init(&s->features);
	s->window = opts->window ? opts->window : STREAM_WINDOW;
	s->scan_part = opts->scan_part ? opts->scan_part : SCAN_PART_MIN;
	s->use_index = opts->use_index;
	s->scan_optional = opts->scan_optional;
	s->on_scan = opts->on_scan;
	s->scan_ctx = opts->scan_ctx;
	s->path = strdup(path);
	if (!s->path) {
		err = -ENOMEM;
		goto err;
	}
	if (!is_stdin && stat(path, &st) < 0) {
		err = diag__set(d, path, DIAG_NO_OFFSET, -errno, "%s", diag__code_str(-errno));
		goto err;
	}
	if (!is_stdin && S_ISDIR(st.st_mode)) {
		s->is_dir = true;
		if (asprintf(&hdr_path, "%s/data", path) < 0) {
			err = -ENOMEM;
			goto err;
		}
		if (access(hdr_path, F_OK) < 0) {
			err = diag__set(d, path, DIAG_NO_OFFSET, -DIAG_NO_DATA_FILE,
					"data directory has no 'data' file");
			goto err;
		}
	}
	if (is_stdin && fstat(0, &st) < 0)
		st.st_mtime = 0;
	s->mtime = (int64_t)st.st_mtime;	/* perf prints it as "captured on" */
	/* fspath names the file in diagnostics too: standard input is "<stdin>" */
	err = add_reader(s, hdr_path ? hdr_path : path,
			 hdr_path ? hdr_path : is_stdin ? "<stdin>" : path);
	if (err)
		goto err;
	fd = is_stdin ? 0 : session__open_fd(s->readers[0].fspath, s->readers[0].label, d);
	if (fd < 0) {
		err = fd;
		goto err;
	}
	if (!is_stdin && fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		regular = true;
		s->read_again = true;
		s->mtime = (int64_t)st.st_mtime;
		err = reader__map(&s->readers[0], fd, false);
	} else {
		err = reader__map(&s->readers[0], fd, true);	/* stdin or a FIFO */
	}
	/* a regular file's scan pass reads it through a buffer (reader__read_start());
	 * not a directory's `data`: its immediate records, kept (keep_immediate()),
	 * would all be copied out of the buffer - megabytes of perf's synthesized
	 * side-band - where they can stay in the mapping */
	if (!is_stdin && (err || !regular || s->is_dir ||
			  reader__read_start(&s->readers[0], fd)))
		close(fd);
	if (err == -DIAG_NOT_PERF) {	/* a stream's magic: checked before spooling */
		err = diag__set(d, s->readers[0].label, 0, err, NULL);
		goto err;
	}
	if (err == -EFBIG && !regular) {
		err = diag__set(d, s->readers[0].label, DIAG_NO_OFFSET, err,
				"the stream is longer than the %s bytes it may be spooled "
				"(DIRREPORT_SPOOL_MAX)", getenv("DIRREPORT_SPOOL_MAX") &&
				*getenv("DIRREPORT_SPOOL_MAX") ? getenv("DIRREPORT_SPOOL_MAX") :
				"68719476736");
		goto err;
	}
	if (err) {
		err = diag__set(d, s->readers[0].label, DIAG_NO_OFFSET, err, "cannot read: %s",
				diag__code_str(err));
		goto err;
	}
	err = file_header__probe(s->readers[0].st.map, s->readers[0].st.map_len,
				 &s->is_pipe, &s->swap);
	if (err == -DIAG_NOT_PERF || (err == -DIAG_TRUNCATED && s->readers[0].st.map_len >= 8 &&
				       bytes__u64(s->readers[0].st.map) != PERF_MAGIC2 &&
				       bytes__u64(s->readers[0].st.map) != PERF_MAGIC2_SWAPPED)) {
		err = diag__set(d, s->readers[0].label, 0, -DIAG_NOT_PERF, NULL);
		goto err;
	}
	/* a pipe's header records keep pointers into the bytes (pipe_feature()) */
	if (s->is_pipe)
		reader__read_stop(&s->readers[0]);
	if (!err && s->is_pipe && !s->is_dir)
		err = open_pipe(s, &s->readers[0]);
	else
		err = open_regular(s, &s->readers[0], d);
	if (err)
		goto err;
	if (s->readers[0].warning) {
		err = session__add_warning(s, s->readers[0].warning);
		s->readers[0].warning = NULL;
		if (err)
			goto err;
	}
	if (!s->is_pipe && (err = session__parse_features(s, d)))
		goto err;
	if (s->is_dir) {
		version = features__has(&s->features, FEAT_DIR_FORMAT) ?
			  features__dir_version(&s->features) : 0;
		if (version > 1) {
			err = diag__set(d, s->readers[0].label, s->feat[FEAT_DIR_FORMAT].offset,
					-DIAG_DIR_VERSION,
					"unsupported data directory version %llu",
					(unsigned long long)version);
			goto err;
		}
		/* Without DIR_FORMAT perf reads `data` alone, even if data.* exist. */
		s->is_dir = version == 1;
		if (s->is_dir && (err = open_dir_files(s, d)))
			goto err;
	}
	err = workqueue__new(&s->wq, jobs > 1 ? jobs - 1 : 0);
	if (err)
		goto err;
	free(hdr_path);
	*out = s;
	return 0;
err:
	free(hdr_path);
	session__close(s);
	return err;
}

void session__close(struct session *s)
{
	if (!s)
		return;
	workqueue__delete(s->wq);
	dir_index__delete(s->ix);
	for (size_t i = 0; i < s->nr_readers; i++)
		reader__exit(&s->readers[i]);
	free(s->readers);
	for (size_t i = 0; i < s->nr_warnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	evlist__exit(&s->evlist);
	features__exit(&s->features);
	free(s->path);
	free(s);
}


/* Every present feature, in id order (CPU_TOPOLOGY needs NRCPUS before it). */
int session__parse_features(struct session *s, struct diag *d)
{
	for (unsigned f = 1; f < FEAT_BITS; f++) {
		const void *body;
		size_t size;
		uint64_t off;
		bool swap;
		int err;

		if (!session__feature(s, f, &body, &size, &off, &swap))
			continue;
		if (f > FEAT_LAST_PERF61)
			continue;	/* newer than we know: skipped, as perf skips them */
		err = features__parse(&s->features, f, body, size, swap, off,
				      s->readers[0].label, d);
		if (err)
			return err;
	}
	/* a damaged body read as perf reads it (a cut string): its one warning */
	if (s->features.warning) {
		char *w = strdup(s->features.warning);

		return w ? session__add_warning(s, w) : -ENOMEM;
	}
	return 0;
}

/* --- accessors ----------------------------------------------------------------- */

int session__scan_facts(const struct session *s, size_t i, uint64_t *lag,
			uint64_t **turns, size_t *nr_turns, uint64_t **imm, size_t *nr_imm)
{
	const struct reader *r = &s->readers[i];

	*turns = *imm = NULL;
	*nr_turns = *nr_imm = 0;
	if (s->is_pipe || !s->streamed || s->ix || r->off_disk)
		return -ENOENT;
	*turns = malloc(r->nr_turns ? r->nr_turns * sizeof(**turns) : 1);
	*imm = malloc(r->nr_imm ? r->nr_imm * sizeof(**imm) : 1);
	if (!*turns || !*imm) {
		free(*turns);
		free(*imm);
		*turns = *imm = NULL;
		return -ENOMEM;
	}
	if (r->nr_turns)
		memcpy(*turns, r->turn_off, r->nr_turns * sizeof(**turns));
	for (size_t k = 0; k < r->nr_imm; k++)
		(*imm)[k] = r->imm[k].offset;
	*nr_turns = r->nr_turns;
	*nr_imm = r->nr_imm;
	*lag = r->lag;
	return 0;
}

bool session__indexed(const struct session *s) { return s->ix != NULL; }

bool session__scanned(const struct session *s)
{
	return !s->is_pipe && !s->ix && s->streamed;
}

void session__hold_batches(struct session *s, unsigned n) { s->held_batches = n; }

bool session__deliver_error(const struct session *s, struct diag *d)
{
	if (!s || !s->deliver_diag.code)
		return false;
	*d = s->deliver_diag;
	return true;
}

void session__keep_samples(struct session *s, const struct session_time_range *ranges,
			   size_t n)
{
	s->keep = ranges;
	s->nr_keep = n;
}
uint64_t session__bytes_read(const struct session *s) { return s->bytes_read; }

uint64_t session__bytes_buffered(const struct session *s)
{
	uint64_t n = 0;

	for (size_t i = 0; i < s->nr_readers; i++)
		n += s->readers[i].st.rbuf_read;
	return n;
}
struct evlist *session__evlist(struct session *s) { return &s->evlist; }
const struct features *session__features(const struct session *s) { return &s->features; }
size_t session__nr_files(const struct session *s) { return s->nr_readers; }
const char *session__path(const struct session *s) { return s->path; }
bool session__is_pipe(const struct session *s) { return s->is_pipe; }
bool session__is_dir(const struct session *s) { return s->is_dir; }
bool session__can_read_again(const struct session *s) { return s->read_again; }
const struct file_header *session__header(const struct session *s) { return &s->header; }
int64_t session__mtime(const struct session *s) { return s->mtime; }
uint64_t session__feat_offset(const struct session *s) { return s->feat_offset; }
size_t session__nr_warnings(const struct session *s) { return s->nr_warnings; }
const char *session__warning(const struct session *s, size_t i) { return s->warnings[i]; }
struct workqueue *session__workqueue(struct session *s) { return s->wq; }

const char *session__file_label(const struct session *s, size_t i)
{
	return s->readers[i].label;
}

const char *session__file_path(const struct session *s, size_t i)
{
	return s->readers[i].fspath;
}

uint64_t session__file_offset(const struct session *s, size_t i, uint64_t offset)
{
	return offset + s->readers[i].st.label_base;
}

int session__record_diag(const struct session *s, size_t i, uint64_t offset,
			 struct diag *d, int code, const char *fmt, ...)
{
	char msg[sizeof(d->msg)];
	va_list ap;

	if (!fmt)
		return diag__set(d, session__file_path(s, i), session__file_offset(s, i, offset),
				 code, NULL);
	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	return diag__set(d, session__file_path(s, i), session__file_offset(s, i, offset), code,
			 "%s", msg);
}

bool session__feature(const struct session *s, unsigned feat, const void **body,
		      size_t *size, uint64_t *file_offset, bool *swap)
{
	if (feat >= FEAT_BITS)
		return false;
	*swap = s->swap;
	if (s->is_pipe) {
		const struct pipe_feature *pf = &s->readers[0].pipe_feat[feat];

		if (!pf->body)
			return false;
		*body = pf->body;
		*size = pf->size;
		*file_offset = pf->offset;
		return true;
	}
	if (!file_header__has_feat(&s->header, feat) || !s->feat[feat].offset)
		return false;
	*body = s->readers[0].st.map + s->feat[feat].offset;
	*size = (size_t)s->feat[feat].size;
	*file_offset = s->feat[feat].offset;
	return true;
}
