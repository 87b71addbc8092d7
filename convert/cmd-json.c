/*
 * `dirconvert --to-json`: the recording as perf 6.1's `perf data convert --to-json`
 * writes it: one object with "linux-perf-json-version", the file's "headers" and one
 * "samples" entry per sample (time, pid, tid, cpu, comm and the callchain resolved to
 * symbols and dsos).  The headers object is encoded by jansson; the samples are
 * resolved on the sample pipeline's workers (resolve/pipeline.h) and each encoded
 * there by a streaming generator (libyajl: no tree per sample), one per line, the
 * chunks written in order, so memory does not grow with the recording.
 */
#include "convert/cmd.h"

#include <errno.h>
#include <jansson.h>
#include <yajl/yajl_gen.h>
#include <stdio.h>	/* FILE, fopen, fputs, fwrite, snprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* memcpy, strerror */
#include <time.h>	/* gmtime_r, strftime */

#include "cli/cli.h"
#include "cli/progress.h"
#include "convert/cmd-export.h"
#include "convert/outfile.h"
#include "format/diag.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/header.h"
#include "format/record.h"
#include "format/sample.h"
#include "machine/dso.h"
#include "machine/machine.h"
#include "machine/symbol.h"
#include "reader/session.h"
#include "resolve/pipeline.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "util/phase.h"
#include "banned.h"

struct json_run {
	FILE *fp;
	struct pipeline *pipe;	/* owned: resolves and encodes the samples */
	bool written;		/* a sample was written (the separator) */
	bool write_failed;
	int write_err;		/* -errno of the first failed write (-ENOSPC), or 0 */
	struct progress prog;	/* bytes of records replayed (a bar on a terminal) */
	bool any_cpu;		/* an event samples the cpu (PERF_SAMPLE_CPU) */
};

/* set(obj, key, value): value is stolen; false when jansson ran out of memory. */
static bool set(json_t *obj, const char *key, json_t *value)
{
	return value && json_object_set_new(obj, key, value) == 0;
}

/* perf's headers object (format facts: perf 6.1 data-convert-json.c output, observed
 * on its files: "captured-on" is the input's mtime in UTC; feat-offset is the end of
 * the data section). */
static json_t *headers(struct session *s)
{
	const struct file_header *h = session__header(s);
	const struct features *f = session__features(s);
	json_t *o = json_object();
	bool ok = o != NULL;

	ok = ok && set(o, "header-version", json_integer(1));
	if (ok && session__mtime(s) > 0) {
		time_t t = (time_t)session__mtime(s);
		struct tm tm;
		char buf[32];

		if (gmtime_r(&t, &tm) && strftime(buf, sizeof(buf), "%FT%TZ", &tm))
			ok = set(o, "captured-on", json_string(buf));
	}
	if (ok && !session__is_pipe(s)) {
		ok = set(o, "data-offset", json_integer((json_int_t)h->data.offset)) &&
		     set(o, "data-size", json_integer((json_int_t)h->data.size)) &&
		     set(o, "feat-offset", json_integer((json_int_t)(h->data.offset +
								    h->data.size)));
	}
	static const struct { unsigned feat; const char *key; size_t off; } strs[] = {
		{ FEAT_HOSTNAME, "hostname", offsetof(struct features, hostname) },
		{ FEAT_OSRELEASE, "os-release", offsetof(struct features, osrelease) },
		{ FEAT_ARCH, "arch", offsetof(struct features, arch) },
		{ FEAT_CPUDESC, "cpu-desc", offsetof(struct features, cpudesc) },
		{ FEAT_CPUID, "cpuid", offsetof(struct features, cpuid) },
	};
	for (size_t i = 0; ok && i < sizeof(strs) / sizeof(strs[0]); i++) {
		const char *v;

		memcpy(&v, (const char *)f + strs[i].off, sizeof(v));

		if (features__has(f, strs[i].feat) && v)
			ok = set(o, strs[i].key, json_string(v));
	}
	if (ok && features__has(f, FEAT_NRCPUS))
		ok = set(o, "nrcpus-online", json_integer(f->nr_cpus_online)) &&
		     set(o, "nrcpus-avail", json_integer(f->nr_cpus_avail));
	if (ok && features__has(f, FEAT_VERSION) && f->version)
		ok = set(o, "perf-version", json_string(f->version));
	if (ok && features__has(f, FEAT_CMDLINE)) {
		json_t *a = json_array();

		for (uint32_t i = 0; a && i < f->nr_cmdline; i++)
			if (json_array_append_new(a, json_string(f->cmdline[i])))
				ok = false;
		ok = ok && set(o, "cmdline", a);
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* ---- resolving (the replaying thread) ------------------------------------------ */

/* ---- samples: resolved and encoded on the pipeline's workers --------------------- */

/* What one job writes: its samples' text, each ",\n{...}". */
struct js_chunk {
	char *p;
	size_t len, cap;
	bool failed;		/* out of memory */
};

/*
 * A frame's object as the generator wrote it the first time for its symbol and dso,
 * kept by the symbol's and dso's pointers, its address written as "0x" alone:
 * `{"ip":"0x","symbol":"NAME","dso":"DSO"}`.  Each frame copies it with its own
 * address's digits put in at ip_at.  A recording's samples name the same few
 * symbols over and over; the generator wrote each frame a token at a time, every
 * token through its print callback (the bench directory: half of the encoding's
 * CPU).
 */
struct js_frag {
	const struct symbol *sym;	/* NULL: an empty slot */
	const struct dso *dso;
	uint64_t hash;
	size_t off, len;		/* the text in js_worker.frag_text */
	size_t ip_at;			/* where the address's digits go, from off */
};

/* A worker's generators, writing into the chunk of the sample at hand. */
struct js_worker {
	yajl_gen g;
	struct js_chunk *c;
	yajl_gen fg;		/* writes the fragments, into frag_text */
	struct js_chunk frag_text;
	struct js_frag *frags;	/* hash table (util/hashtab.h) */
	size_t cap_frags, nr_frags;
	struct js_frag bare;	/* the frame without a symbol; len 0 until written */
};

/* Room for size more bytes at the chunk's end (its len not moved), or NULL: the
 * chunk failed (out of memory). */
static char *reserve(struct js_chunk *c, size_t size)
{
	if (c->failed || array__grow(&c->p, &c->cap, c->len + size, 1, 64u << 10)) {
		c->failed = true;
		return NULL;
	}
	return c->p + c->len;
}

static void append(struct js_chunk *c, const char *text, size_t size)
{
	char *o = reserve(c, size);

	if (o) {
		memcpy(o, text, size);
		c->len += size;
	}
}

static void collect(void *ctx, const char *text, size_t size)
{
	struct js_worker *w = ctx;
	struct js_chunk *c = w->c;

	/* most of the generator's pieces are one character: a quote, a brace, a colon */
	if (size == 1 && c->len < c->cap) {
		c->p[c->len++] = *text;
		return;
	}
	append(c, text, size);
}

static void collect_frag(void *ctx, const char *text, size_t size)
{
	struct js_worker *w = ctx;

	append(&w->frag_text, text, size);
}

/* A key: a string literal (its length known here). */
#define gen_key(g, key) gen_text((g), (key), sizeof(key) - 1)

static bool gen_text(yajl_gen g, const char *s, size_t len)
{
	return yajl_gen_string(g, (const unsigned char *)s, len) == yajl_gen_status_ok;
}

#define gen_str(g, key, s) (gen_key((g), key) && gen_text((g), (s), strlen(s)))

/* A number as yajl_gen_integer() writes it ("%lld"), formatted here: yajl's goes
 * through sprintf, most of the encoding's time. */
static bool gen_int(yajl_gen g, long long v)
{
	char buf[24], *p = buf + sizeof(buf);
	unsigned long long u = v < 0 ? 0 - (unsigned long long)v : (unsigned long long)v;

	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return yajl_gen_number(g, p, (size_t)(buf + sizeof(buf) - p)) == yajl_gen_status_ok;
}

#define gen_key_int(g, key, v) (gen_key((g), key) && gen_int((g), (v)))

static uint64_t frag_hash(const struct symbol *sym, const struct dso *dso)
{
	return ((uintptr_t)sym * 0x9e3779b97f4a7c15ULL) ^ ((uintptr_t)dso >> 4);
}

static uint64_t frag_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ((const struct js_frag *)slot)->hash;
}

/* Write the frame object of (sym, dso) with the fragment generator into the
 * worker's fragment text, at its end: f->off, len and ip_at set. @return 0, -ENOMEM. */
static int frag_write(struct js_worker *w, const struct symbol *sym, const struct dso *dso,
		      struct js_frag *f)
{
	f->off = w->frag_text.len;
	yajl_gen_reset(w->fg, NULL);
	if (yajl_gen_map_open(w->fg) != yajl_gen_status_ok || !gen_key(w->fg, "ip") ||
	    !gen_text(w->fg, "0x", 2) || w->frag_text.failed)
		return -ENOMEM;
	f->ip_at = w->frag_text.len - 1 - f->off;	/* before the string's closing quote */
	if (sym && (!gen_str(w->fg, "symbol", symbol__name(sym)) ||
		    (dso && !gen_str(w->fg, "dso", dso__short_name(dso)))))
		return -ENOMEM;
	if (yajl_gen_map_close(w->fg) != yajl_gen_status_ok || w->frag_text.failed)
		return -ENOMEM;
	f->len = w->frag_text.len - f->off;
	return 0;
}

/*
 * The frame object of (sym, dso), written by the fragment generator the first time;
 * (NULL, NULL) for a frame without a symbol.  @return the fragment, or NULL (no
 * memory).
 */
static const struct js_frag *frag(struct js_worker *w, const struct symbol *sym,
				  const struct dso *dso)
{
	uint64_t h;
	struct js_frag *f;
	size_t i;

	if (!sym) {
		if (!w->bare.len && frag_write(w, NULL, NULL, &w->bare))
			return NULL;
		return &w->bare;
	}
	h = frag_hash(sym, dso);
	if (hashtab__reserve(&w->frags, &w->cap_frags, w->nr_frags, sizeof(*w->frags), 1024,
			     frag_slot_hash, NULL))
		return NULL;
	for (i = hashtab__first(h, w->cap_frags); w->frags[i].sym;
	     i = hashtab__next(i, w->cap_frags))
		if (w->frags[i].sym == sym && w->frags[i].dso == dso)
			return &w->frags[i];
	f = &w->frags[i];
	if (frag_write(w, sym, dso, f)) {
		f->sym = NULL;
		return NULL;
	}
	f->sym = sym;
	f->dso = dso;
	f->hash = h;
	w->nr_frags++;
	return f;
}

/* One callchain entry {"ip", "symbol", "dso"}: the address, and its symbol and dso
 * where it has a symbol.  @return 0, PIPELINE_AGAIN, -ENOMEM. */
static int gen_frame(struct js_worker *w, struct pipeline_thread *pt,
		     const struct resolved_sample *rs, uint16_t cpumode, uint64_t ip)
{
	static const char digits[] = "0123456789abcdef";
	struct addr_location al;
	const struct js_frag *f;
	struct js_chunk *c = w->c;
	size_t nd = 1;
	char *o;
	int err = pipeline__resolve(pt, rs, cpumode, ip, &al);

	if (err)
		return err;
	if (al.sym && symbol__name(al.sym)[0])
		f = frag(w, al.sym, al.dso);
	else
		f = frag(w, NULL, NULL);
	if (!f)
		return -ENOMEM;
	/*
	 * The array's next value: an empty "number" has the generator write the
	 * separator and count the value (yajl_gen_number() prints its text as given);
	 * the frame's text, the generator's own with the digits put in, follows.
	 */
	if (yajl_gen_number(w->g, "", 0) != yajl_gen_status_ok)
		return -ENOMEM;
	for (uint64_t v = ip >> 4; v; v >>= 4)
		nd++;
	if (!(o = reserve(c, f->len + nd)))
		return -ENOMEM;
	memcpy(o, w->frag_text.p + f->off, f->ip_at);
	o += f->ip_at;
	for (size_t k = nd; k; k--, ip >>= 4)
		o[k - 1] = digits[ip & 15];
	o += nd;
	memcpy(o, w->frag_text.p + f->off + f->ip_at, f->len - f->ip_at);
	c->len += f->len + nd;
	return 0;
}

/*
 * The callchain as perf data convert --to-json walks it (not as perf report does): a
 * context marker sets the cpumode of the entries after it, any other entry at or above
 * CONTEXT_MAX (0xffffffffffffffff in frame-pointer chains of real recordings) is
 * skipped, and the entries after it are kept.
 */
static int gen_chain(struct js_worker *w, struct pipeline_thread *pt,
		     const struct resolved_sample *rs)
{
	const struct sample *s = &rs->s;
	uint16_t cpumode = MISC_USER;
	int err = 0;

	for (uint64_t i = 0; i < s->callchain_nr && !err; i++) {
		uint64_t ip = sample__callchain_ip(s, i);

		if (ip < CONTEXT_MAX)
			err = gen_frame(w, pt, rs, cpumode, ip);
		else if (ip == CONTEXT_HV)
			cpumode = MISC_HYPERVISOR;
		else if (ip == CONTEXT_KERNEL)
			cpumode = MISC_KERNEL;
		else if (ip == CONTEXT_USER)
			cpumode = MISC_USER;
	}
	return err;
}

/* pipeline sink: prepare() - what the worker may not read from the thread */
static int sink_prepare(void *ctx, struct resolved_sample *rs)
{
	(void)ctx;
	rs->aux_int = rs->t->pid;
	return 0;
}

/* pipeline sink: sample() - one sample object, perf's keys in perf's order, on a
 * line of its own after a comma (emit() drops the document's first comma) */
static int sink_sample(void *ctx, void *state, void *chunk, struct pipeline_thread *pt,
		       const struct resolved_sample *rs)
{
	const struct json_run *r = ctx;
	const struct evsel *ev = rs->ref->evsel;
	const struct sample *s = &rs->s;
	struct js_worker *w = state;
	struct js_chunk *c = chunk;
	size_t mark = c->len;
	struct addr_location al;
	int err;

	/* the sample's own address first (perf's machine__resolve()) */
	if ((err = pipeline__resolve(pt, rs, s->misc & MISC_CPUMODE_MASK, s->ip, &al)))
		return err;
	w->c = c;
	yajl_gen_reset(w->g, NULL);
	collect(w, ",\n", 2);
	if (yajl_gen_map_open(w->g) != yajl_gen_status_ok ||
	    !gen_key_int(w->g, "timestamp", (long long)s->time) ||
	    !gen_key_int(w->g, "pid", rs->aux_int) ||
	    !gen_key_int(w->g, "tid", (int32_t)s->tid))
		return -ENOMEM;
	/* perf writes "cpu" when any event samples it: -1 for the samples of the others */
	if (r->any_cpu &&
	    !gen_key_int(w->g, "cpu", ev->attr.sample_type & SAMPLE_CPU ? (int32_t)s->cpu : -1))
		return -ENOMEM;
	if (!gen_str(w->g, "comm", rs->comm) || !gen_key(w->g, "callchain") ||
	    yajl_gen_array_open(w->g) != yajl_gen_status_ok)
		return -ENOMEM;
	if (ev->attr.sample_type & SAMPLE_CALLCHAIN)
		err = gen_chain(w, pt, rs);
	else
		err = gen_frame(w, pt, rs, s->misc & MISC_CPUMODE_MASK, s->ip);
	if (!err && (yajl_gen_array_close(w->g) != yajl_gen_status_ok ||
		     yajl_gen_map_close(w->g) != yajl_gen_status_ok))
		err = -ENOMEM;
	if (!err && c->failed)
		err = -ENOMEM;
	if (err == PIPELINE_AGAIN)
		c->len = mark;	/* done again once the dso is loaded */
	return err;
}

/* A write to the output failed: the first errno kept (a full disk says so); -EIO. */
static int write_failed(struct json_run *r)
{
	if (!r->write_failed)
		r->write_err = errno ? -errno : -EIO;
	r->write_failed = true;
	return -EIO;
}

/* pipeline sink: emit() - a chunk's samples out, in order */
static int sink_emit(void *ctx, void *chunk)
{
	struct json_run *r = ctx;
	struct js_chunk *c = chunk;
	size_t skip = !r->written && c->len;	/* the document's first comma */
	int err = 0;

	if (c->failed)
		err = -ENOMEM;
	else if (c->len && fwrite(c->p + skip, 1, c->len - skip, r->fp) != c->len - skip)
		err = write_failed(r);
	r->written |= c->len != 0;
	c->len = 0;
	c->failed = false;
	return err;
}

static int sink_thread_init(void *ctx, void *state)
{
	struct js_worker *w = state;

	(void)ctx;
	if (!(w->g = yajl_gen_alloc(NULL)) ||
	    !yajl_gen_config(w->g, yajl_gen_print_callback, collect, w) ||
	    !(w->fg = yajl_gen_alloc(NULL)) ||
	    !yajl_gen_config(w->fg, yajl_gen_print_callback, collect_frag, w))
		return -ENOMEM;
	return 0;
}

static void sink_thread_exit(void *ctx, void *state)
{
	struct js_worker *w = state;

	(void)ctx;
	if (w->g)
		yajl_gen_free(w->g);
	if (w->fg)
		yajl_gen_free(w->fg);
	free(w->frag_text.p);
	free(w->frags);
}

static void sink_chunk_exit(void *ctx, void *chunk)
{
	(void)ctx;
	free(((struct js_chunk *)chunk)->p);
}

/* pipeline sink: batch() - the progress bar */
static void sink_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct json_run *r = ctx;
	uint64_t bytes = 0;

	for (size_t i = 0; i < n; i++)
		bytes += recs[i]->disk_size;
	progress__add(&r->prog, bytes);
}

static const struct pipeline_sink json_sink = {
	.batch = sink_batch,
	.prepare = sink_prepare,
	.thread_size = sizeof(struct js_worker),
	.thread_init = sink_thread_init,
	.thread_exit = sink_thread_exit,
	.chunk_size = sizeof(struct js_chunk),
	.chunk_exit = sink_chunk_exit,
	.sample = sink_sample,
	.emit = sink_emit,
};


static int write_json(struct cmd_recording *rec, FILE *fp, const char *out, bool progress,
		      struct diag *d)
{
	struct session *s = cmd_recording__session(rec);
	struct json_run r = { .fp = fp };
	const struct evlist *el = session__evlist(s);
	json_t *h = headers(s);
	uint16_t bad_file = 0;
	uint64_t bad_offset = 0;
	bool bad = false;
	int err;

	for (size_t i = 0; i < el->nr; i++)
		r.any_cpu |= (el->evsels[i]->attr.sample_type & SAMPLE_CPU) != 0;

	if (!h)
		return diag__set(d, out, DIAG_NO_OFFSET, -ENOMEM, NULL);
	/* {"linux-perf-json-version": 1, "headers": {...}, "samples": [ ... ]} */
	if (fputs("{\n\"linux-perf-json-version\": 1,\n\"headers\": ", fp) == EOF ||
	    json_dumpf(h, fp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) ||
	    fputs(",\n\"samples\": [", fp) == EOF)
		write_failed(&r);
	json_decref(h);
	/* the kernel's symbols read ahead are in before the first record (the pipeline
	 * loads the kernel's dso at its first kernel address) */
	machine__wait_preload(cmd_recording__machine(rec));
	phases__mark("kernel symbols wait");
	err = pipeline__new(&r.pipe, cmd_recording__machine(rec), session__workqueue(s),
			    &json_sink, &r);
	if (err)
		return diag__set(d, out, DIAG_NO_OFFSET, err, NULL);
	progress__init(&r.prog, stderr, progress__session_bytes(s), progress);
	err = r.write_failed ? -EIO : pipeline__deliver(r.pipe, s, 0);
	progress__exit(&r.prog);
	phases__mark("delivery");
	bad = pipeline__bad(r.pipe, &bad_file, &bad_offset);
	pipeline__delete(r.pipe);
	if (!err && (fputs("\n]\n}\n", fp) == EOF || fflush(fp)))
		write_failed(&r);
	/* a damaged record (or one that could not be read: -EIO too), found while
	 * delivering where the recording was loaded without the scan pass */
	if (err && !r.write_failed && !bad && session__deliver_error(s, d))
		return err;
	if (r.write_failed || err == -EIO) {
		err = r.write_err ? r.write_err : -EIO;
		return diag__set(d, out, DIAG_NO_OFFSET, err, "write: %s", diag__code_str(err));
	}
	if (err && bad && err != -ENOMEM)
		return session__record_diag(s, bad_file, bad_offset, d, err, NULL);
	if (err)
		return diag__set(d, session__path(s), DIAG_NO_OFFSET, err, NULL);
	return 0;
}

int cmd_json(const struct convert_opts *o, struct diag *d)
{
	struct cmd_recording *rec = NULL;
	FILE *fp = NULL;
	bool ahead;
	int err;

	err = outfile__claim(o->json, o->input, OUTFILE_STREAM |
			     (o->force ? OUTFILE_FORCE : 0), d);
	/* the kernel's symbols may be read ahead from the build-id cache's copy where
	 * the document can be made again (OUT.tmp, not a device or FIFO) */
	ahead = !err && !outfile__in_place();
	while (!err) {
		/* the output is OUT.tmp until the commit: no scan pass for a single
		 * file; the kernel's symbols are read on a worker while the recording
		 * loads */
		err = cmd_recording__open(&rec, o, true, ahead, true, d);
		if (!err && !(fp = fopen(outfile__tmp_path(), "w")))
			err = diag__set(d, outfile__tmp_path(), DIAG_NO_OFFSET, -errno,
					"cannot open: %s", strerror(errno));
		if (!err)
			err = write_json(rec, fp, o->json, o->progress, d);
		/* the copy read ahead must be the running kernel's file: else all again
		 * from /proc/kallsyms (OUT.tmp written anew) */
		if (err || !ahead || !cli__kernel_symbols_differ(cmd_recording__machine(rec),
								 "dirconvert", "JSON"))
			break;
		fclose(fp);
		fp = NULL;
		cmd_recording__close(rec);
		rec = NULL;
		ahead = false;
	}
	if (fp && fclose(fp) && !err) {
		err = errno ? -errno : -EIO;
		err = diag__set(d, o->json, DIAG_NO_OFFSET, err, "write: %s", diag__code_str(err));
	}
	if (!err)
		err = outfile__commit(d);
	outfile__drop();
	cmd_recording__close(rec);
	return err;
}
