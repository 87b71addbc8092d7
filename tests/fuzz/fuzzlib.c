#include "tests/fuzz/fuzzlib.h"

#include <dirent.h>	/* opendir, readdir */
#include <errno.h>
#include <fcntl.h>	/* open */
#include <stdlib.h>	/* malloc, realloc, free, mkdtemp, atexit, getenv */
#include <string.h>	/* memcpy, memcmp */
#include <sys/stat.h>	/* mkdir */
#include <unistd.h>	/* write, close, unlink, rmdir */

#include "format/attr.h"
#include "format/bytes.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "banned.h"

uint8_t fuzz_input__u8(struct fuzz_input *in)
{
	return in->pos < in->len ? in->p[in->pos++] : 0;
}

uint64_t fuzz_input__u64(struct fuzz_input *in)
{
	uint64_t v = 0;
	size_t n = fuzz_input__left(in) < 8 ? fuzz_input__left(in) : 8;

	memcpy(&v, in->p + in->pos, n);
	in->pos += n;
	return v;
}

const uint8_t *fuzz_input__bytes(struct fuzz_input *in, size_t n, size_t *got)
{
	const uint8_t *p = in->p + in->pos;

	*got = fuzz_input__left(in) < n ? fuzz_input__left(in) : n;
	in->pos += *got;
	return p;
}

unsigned char *fuzz__dup(const void *p, size_t n)
{
	unsigned char *c = malloc(n ? n : 1);

	if (c && n)
		memcpy(c, p, n);
	return c;
}

size_t fuzz__split(const uint8_t *p, size_t n, size_t max, size_t *off, size_t *len)
{
	size_t parts = 0, start = 0;

	for (size_t i = 0; parts + 1 < max && i + FUZZ_SEP_LEN <= n; i++) {
		if (memcmp(p + i, FUZZ_SEP, FUZZ_SEP_LEN))
			continue;
		off[parts] = start;
		len[parts++] = i - start;
		start = i + FUZZ_SEP_LEN;
		i = start - 1;
	}
	off[parts] = start;
	len[parts++] = n - start;
	return parts;
}

static char tmpdir[256];

/* Remove the files of fuzz__tmpdir()/sub (or of tmpdir itself when sub is ""). */
static void rm_files(const char *sub)
{
	DIR *d = opendir(fuzz__path(sub));
	struct dirent *de;
	char name[300];

	if (!d)
		return;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(name, sizeof(name), "%s%s%s", sub, *sub ? "/" : "", de->d_name);
		unlink(fuzz__path(name));
	}
	closedir(d);
}

static void rm_tmpdir(void)
{
	rm_files(FUZZ_DIR);
	rmdir(fuzz__path(FUZZ_DIR));
	rm_files("");
	rmdir(tmpdir);
}

const char *fuzz__tmpdir(void)
{
	const char *base;

	if (tmpdir[0])
		return tmpdir;
	base = getenv("TMPDIR");
	snprintf(tmpdir, sizeof(tmpdir), "%s/dirreport-fuzz-XXXXXX",
		 base && *base ? base : "/tmp");
	if (!mkdtemp(tmpdir)) {
		tmpdir[0] = 0;
		return NULL;
	}
	atexit(rm_tmpdir);
	if (mkdir(fuzz__path(FUZZ_DIR), 0700) < 0)
		return NULL;
	return tmpdir;
}

const char *fuzz__path(const char *name)
{
	static char path[1024];
	int n = snprintf(path, sizeof(path), "%s/%s", tmpdir, name);

	/* names are ours and short: never truncated in practice */
	return n > 0 && (size_t)n < sizeof(path) ? path : tmpdir;
}

int fuzz__write(const char *name, const void *p, size_t n)
{
	const unsigned char *b = p;
	int fd, ok = 1;

	if (!fuzz__tmpdir())
		return -1;
	fd = open(fuzz__path(name), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (ok && n) {
		ssize_t w = write(fd, b, n);

		ok = w > 0;
		if (ok) {
			b += w;
			n -= (size_t)w;
		}
	}
	return close(fd) == 0 && ok ? 0 : -1;
}

void fuzz__unlink(const char *name)
{
	if (fuzz__tmpdir())
		unlink(fuzz__path(name));
}

FILE *fuzz__devnull(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "w");
	return f;
}

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define FUZZ_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define FUZZ_ASAN 1
#endif

#ifdef FUZZ_ASAN
/* <sanitizer/allocator_interface.h> (not shipped with gcc; the runtime has it) */
int __sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *,
								  size_t),
					      void (*free_hook)(const volatile void *));

static size_t alloc_limit;

static void on_malloc(const volatile void *p, size_t size)
{
	(void)p;
	FUZZ_CHECK(!alloc_limit || size <= alloc_limit);
}

static void on_free(const volatile void *p)
{
	(void)p;
}

void fuzz__limit_alloc(size_t max_bytes)
{
	static bool installed;

	/* both hooks are required, else nothing is installed */
	if (!installed)
		installed = __sanitizer_install_malloc_and_free_hooks(on_malloc, on_free) != 0;
	alloc_limit = max_bytes;
}
#else
void fuzz__limit_alloc(size_t max_bytes)
{
	(void)max_bytes;
}
#endif

void fuzz__save_last(const void *p, size_t n)
{
	static const char *path;
	static bool checked;
	FILE *f;

	if (!checked) {
		path = getenv("FUZZ_LAST");
		checked = true;
	}
	if (!path || !(f = fopen(path, "wb")))
		return;
	fwrite(p, 1, n, f);
	fclose(f);
}

void fuzz__touch(const void *p, size_t n)
{
	const volatile unsigned char *b = p;
	unsigned char sum = 0;

	for (size_t i = 0; i < n; i++)
		sum ^= b[i];
	(void)sum;
}

void fuzz_buf__add(struct fuzz_buf *b, const void *p, size_t n)
{
	if (b->failed)
		return;
	if (n > b->cap - b->len) {
		size_t cap = (b->len + n) * 2 + 64;
		unsigned char *np = realloc(b->p, cap);

		if (!np) {
			b->failed = true;
			return;
		}
		b->p = np;
		b->cap = cap;
	}
	if (n)
		memcpy(b->p + b->len, p, n);
	b->len += n;
}

void fuzz_buf__u32(struct fuzz_buf *b, uint32_t v) { fuzz_buf__add(b, &v, 4); }
void fuzz_buf__u64(struct fuzz_buf *b, uint64_t v) { fuzz_buf__add(b, &v, 8); }

void fuzz_buf__exit(struct fuzz_buf *b)
{
	free(b->p);
	b->p = NULL;
	b->len = b->cap = 0;
	b->failed = false;
}

void fuzz__perf_file(struct fuzz_buf *out, const void *attr, size_t attr_len,
		     const void *data, size_t data_len, bool dir_format, bool compressed)
{
	uint64_t attrs_off = FILE_HEADER_SIZE, data_off = attrs_off + attr_len + 16;
	uint64_t nfeat = !!dir_format + !!compressed, body = data_off + data_len + 16 * nfeat;
	uint64_t feat0 = 0;

	if (dir_format)
		feat0 |= 1ULL << FEAT_DIR_FORMAT;
	if (compressed)
		feat0 |= 1ULL << FEAT_COMPRESSED;
	fuzz_buf__u64(out, PERF_MAGIC2);
	fuzz_buf__u64(out, FILE_HEADER_SIZE);
	fuzz_buf__u64(out, attr_len + 16);		/* attr_size */
	fuzz_buf__u64(out, attrs_off);
	fuzz_buf__u64(out, attr_len + 16);
	fuzz_buf__u64(out, data_off);
	fuzz_buf__u64(out, data_len);
	fuzz_buf__u64(out, 0);				/* event_types */
	fuzz_buf__u64(out, 0);
	fuzz_buf__u64(out, feat0);
	for (int i = 1; i < FEAT_BITS / 64; i++)
		fuzz_buf__u64(out, 0);
	fuzz_buf__add(out, attr, attr_len);
	fuzz_buf__u64(out, 0);				/* no ids */
	fuzz_buf__u64(out, 0);
	fuzz_buf__add(out, data, data_len);
	if (dir_format) {				/* feature table, bit order */
		fuzz_buf__u64(out, body);
		fuzz_buf__u64(out, 8);
		body += 8;
	}
	if (compressed) {
		fuzz_buf__u64(out, body);
		fuzz_buf__u64(out, 20);
	}
	if (dir_format)
		fuzz_buf__u64(out, 1);
	if (compressed) {
		fuzz_buf__u32(out, 0);		/* version */
		fuzz_buf__u32(out, 1);		/* zstd */
		fuzz_buf__u32(out, 1);		/* level */
		fuzz_buf__u32(out, 0);		/* ratio */
		fuzz_buf__u32(out, 528384);	/* mmap_len */
	}
}

int fuzz_record__init(struct fuzz_record *fr, const uint8_t *data, size_t size)
{
	size_t nr_ev, nr_ids, got;
	uint64_t ids[8];
	const uint8_t *p;

	fuzz_input__init(&fr->in, data, size);
	fr->flags = fuzz_input__u8(&fr->in);
	p = fr->in.p + fr->in.pos;
	if (attr__decode(&fr->attr, p, fuzz_input__left(&fr->in), fr->flags & 1))
		return -1;
	(void)fuzz_input__bytes(&fr->in, fr->attr.size, &got);
	nr_ids = fuzz_input__u8(&fr->in) % 8;
	for (size_t i = 0; i < nr_ids; i++)
		ids[i] = fuzz_input__u64(&fr->in);
	nr_ev = 1 + (fr->flags >> 1 & 3);
	if (nr_ev > 3)
		nr_ev = 3;
	evlist__init(&fr->evlist);
	for (size_t e = 0; e < nr_ev; e++) {
		uint64_t mine[8];
		size_t k = 0;

		for (size_t i = e; i < nr_ids; i += nr_ev)
			mine[k++] = ids[i];
		/* a duplicate id is refused (-DIAG_BAD_ATTR): the evsel stays, as in the
		 * reader's error path */
		if (evlist__add(&fr->evlist, &fr->attr, mine, k, NULL) == -ENOMEM)
			break;
	}
	return 0;
}

unsigned char *fuzz_record__next(struct fuzz_record *fr, size_t *n)
{
	size_t left = fuzz_input__left(&fr->in), size, got;
	const uint8_t *p;

	if (left < RECORD_HEADER_SIZE)
		return NULL;
	size = bytes__u16(fr->in.p + fr->in.pos + 6);
	if (size < RECORD_HEADER_SIZE)
		size = RECORD_HEADER_SIZE;
	p = fuzz_input__bytes(&fr->in, size, &got);
	*n = got;
	return fuzz__dup(p, got);
}

void fuzz_record__exit(struct fuzz_record *fr)
{
	evlist__exit(&fr->evlist);
}

void fuzz_record__touch_sample(const struct sample *s)
{
	if (s->read.values)
		fuzz__touch(s->read.values, (size_t)s->read.nr * s->read.value_size);
	if (s->callchain)
		fuzz__touch(s->callchain, (size_t)s->callchain_nr * 8);
	if (s->raw)
		fuzz__touch(s->raw, s->raw_size);
	if (s->branch)
		fuzz__touch(s->branch, (size_t)s->branch_nr * 24);
	if (s->user_regs)
		fuzz__touch(s->user_regs, 8 * (size_t)__builtin_popcountll(s->user_regs_mask));
	if (s->user_stack)
		fuzz__touch(s->user_stack, (size_t)s->user_stack_size);
	if (s->intr_regs)
		fuzz__touch(s->intr_regs, 8 * (size_t)__builtin_popcountll(s->intr_regs_mask));
	if (s->aux)
		fuzz__touch(s->aux, (size_t)s->aux_size);
}

static void mix(struct fuzz_seen *sn, uint64_t v)
{
	sn->hash = (sn->hash ^ v) * 0x100000001b3ULL;
}

int fuzz__check_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct fuzz_seen *sn = ctx;

	for (size_t i = 0; i < n; i++) {
		const struct record_ref *r = recs[i];
		struct sample smp;

		FUZZ_CHECK(r->size >= RECORD_HEADER_SIZE);
		fuzz__touch(r->data, r->size);
		FUZZ_CHECK(bytes__u32(r->data) == r->type);
		FUZZ_CHECK(bytes__u16(r->data + 6) == r->size);
		FUZZ_CHECK(r->file < session__nr_files(sn->s));
		if (r->type < REC_USER_FIRST) {
			FUZZ_CHECK(r->evsel != NULL);
			if (r->type == REC_SAMPLE)
				FUZZ_CHECK(sample__parse(&smp, &r->evsel->attr, r->data,
							 r->size) == 0);
			else
				FUZZ_CHECK(sample__parse_id_trailer(&smp, &r->evsel->attr,
								    r->data, r->size) == 0);
			fuzz_record__touch_sample(&smp);
		}
		sn->nr++;
		mix(sn, r->type);
		mix(sn, r->size);
		mix(sn, r->file);
		mix(sn, r->offset);
		mix(sn, r->time);
	}
	return 0;
}
