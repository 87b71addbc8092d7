/*
 * `dirconvert --to-json`: the recording as perf 6.1's `perf data convert --to-json`
 * writes it: one object with "linux-perf-json-version", the file's "headers" and one
 * "samples" entry per sample (time, pid, tid, cpu, comm and the callchain resolved to
 * symbols and dsos).  Every value is encoded by jansson; the document is streamed (one
 * sample object at a time, the enclosing object and array written around them), so
 * memory does not grow with the recording.
 */
#include "convert/cmd.h"

#include <errno.h>
#include <inttypes.h>	/* PRIx64 */
#include <jansson.h>
#include <stdio.h>	/* FILE, fopen, fputs, fwrite, snprintf */
#include <stdlib.h>	/* free */
#include <string.h>	/* memcpy, strerror */
#include <time.h>	/* gmtime_r, strftime */

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
#include "util/workqueue.h"
#include "util/array.h"
#include "util/hashtab.h"
#include "banned.h"

/* JSON output settings: perf's file is indented; one sample per line keeps ours
 * greppable and half the size.  Keys in insertion order (perf's). */
#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII * 0)

/* Samples encoded per work item: enough to pay for a hand-over, small enough to
 * spread a batch over the workers. */
#define CHUNK_SAMPLES 512

/* One callchain entry resolved on the replaying thread: its JSON object
 * {"ip", "symbol", "dso"}, made once per distinct entry and shared (borrowed from the
 * run's cache: the encoding threads take references). */
struct js_frame {
	json_t *entry;
};

/* One sample resolved on the replaying thread, encoded later on any. */
struct js_sample {
	uint64_t time;
	int32_t pid, tid, cpu;
	bool has_cpu;
	json_t *comm;		/* the cache's */
	size_t first, nr;	/* its frames in json_run.frames */
};

/* JSON values made once and shared (jansson's reference counts are atomic): the
 * names by their address (the machine interns comms and keeps dso and symbol names
 * as long as it lives), the callchain entries by address and names.  Tables of
 * util/hashtab.h: a slot with a NULL value is empty. */
struct name_slot {
	const char *name;
	json_t *val;
};

/* A callchain entry: the address, and its symbol and dso where it has a symbol. */
struct entry_key {
	uint64_t ip;
	json_t *sym, *dso;	/* the name table's values, or NULL */
};

struct entry_slot {
	struct entry_key k;
	json_t *val;
};


/* A growable text buffer (one per chunk of a batch). */
struct js_text {
	char *p;
	size_t len, cap;
	bool failed;		/* out of memory */
};

struct json_run {
	struct machine *m;
	struct workqueue *wq;	/* borrowed: the session's pool */
	FILE *fp;
	/* the batch being resolved */
	struct js_sample *samples;
	size_t nr_samples, cap_samples;
	struct js_frame *frames;
	size_t nr_frames, cap_frames;
	struct js_text *texts;	/* one per chunk */
	size_t nr_texts, cap_texts;	/* texts[0 .. nr_texts) initialised */
	uint64_t written;	/* samples written so far (the separator) */
	/* replaying thread only; owned */
	struct name_slot *names;
	size_t cap_names, nr_names;
	struct entry_slot *entries;
	size_t cap_entries, nr_entries;
	bool bad;		/* a record failed: its file and offset */
	uint16_t bad_file;
	uint64_t bad_offset;
	bool write_failed;
	struct progress prog;	/* bytes of records replayed (a bar on a terminal) */
	bool any_cpu;		/* an event samples the cpu (PERF_SAMPLE_CPU) */
	int write_err;		/* -errno of the first failed write (-ENOSPC), or 0 */
};

/* set(obj, key, value): value is stolen; false when jansson ran out of memory. */
static bool set(json_t *obj, const char *key, json_t *value)
{
	return value && json_object_set_new(obj, key, value) == 0;
}

/* A hexadecimal address as perf writes it ("0x7fa357c05a13"). */
static json_t *hex(uint64_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "0x%" PRIx64, v);
	return json_string(buf);
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

static uint64_t mix(uint64_t k)
{
	k ^= k >> 33;
	k *= 0xff51afd7ed558ccdULL;
	k ^= k >> 33;
	return k;
}

static uint64_t name_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return mix((uint64_t)(uintptr_t)((const struct name_slot *)slot)->name);
}

static uint64_t entry_key_hash(const struct entry_key *k)
{
	return mix(k->ip ^ (uint64_t)(uintptr_t)k->sym * 0x9e3779b97f4a7c15ULL ^
		   (uint64_t)(uintptr_t)k->dso);
}

static uint64_t entry_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return entry_key_hash(&((const struct entry_slot *)slot)->k);
}

/* The JSON string of a name of the machine (NULL: no memory). */
static json_t *name_json(struct json_run *r, const char *name)
{
	size_t i;

	if (hashtab__reserve(&r->names, &r->cap_names, r->nr_names, sizeof(*r->names), 1024,
			     name_hash, NULL))
		return NULL;
	i = hashtab__first(mix((uint64_t)(uintptr_t)name), r->cap_names);
	for (; r->names[i].val; i = hashtab__next(i, r->cap_names))
		if (r->names[i].name == name)
			return r->names[i].val;
	if (!(r->names[i].val = json_string(name)))
		return NULL;
	r->names[i].name = name;
	r->nr_names++;
	return r->names[i].val;
}


static json_t *make_entry(const void *arg)
{
	const struct entry_key *k = arg;
	json_t *e = json_object();

	if (!e || !set(e, "ip", hex(k->ip)) ||
	    (k->sym && json_object_set(e, "symbol", k->sym)) ||
	    (k->dso && json_object_set(e, "dso", k->dso))) {
		json_decref(e);
		return NULL;
	}
	return e;
}

/* The callchain entry of k, made on first use (NULL: no memory). */
static json_t *entry_json(struct json_run *r, const struct entry_key *k)
{
	size_t i;

	if (hashtab__reserve(&r->entries, &r->cap_entries, r->nr_entries,
			     sizeof(*r->entries), 4096, entry_hash, NULL))
		return NULL;
	i = hashtab__first(entry_key_hash(k), r->cap_entries);
	for (; r->entries[i].val; i = hashtab__next(i, r->cap_entries))
		if (r->entries[i].k.ip == k->ip && r->entries[i].k.sym == k->sym &&
		    r->entries[i].k.dso == k->dso)
			return r->entries[i].val;
	if (!(r->entries[i].val = make_entry(k)))
		return NULL;
	r->entries[i].k = *k;
	r->nr_entries++;
	return r->entries[i].val;
}

/* One callchain entry: the address, and its symbol and dso where it has a symbol. */
static int add_frame(struct json_run *r, struct thread *t, uint16_t cpumode, uint64_t ip)
{
	struct addr_location al;
	struct js_frame *f;

	if (array__grow(&r->frames, &r->cap_frames, r->nr_frames + 1, sizeof(*r->frames),
			4096))
		return -ENOMEM;
	machine__resolve(r->m, t, cpumode, ip, &al);
	f = &r->frames[r->nr_frames];
	struct entry_key k = { ip, NULL, NULL };

	if (al.sym && symbol__name(al.sym)[0] &&
	    !(k.sym = name_json(r, symbol__name(al.sym))))
		return -ENOMEM;
	if (k.sym && al.dso && !(k.dso = name_json(r, dso__short_name(al.dso))))
		return -ENOMEM;
	/* most entries recur (the same call sites in many samples): one object each */
	if (!(f->entry = entry_json(r, &k)))
		return -ENOMEM;
	r->nr_frames++;
	return 0;
}

/*
 * The callchain as perf data convert --to-json walks it (not as perf report does): a
 * context marker sets the cpumode of the entries after it, any other entry at or above
 * CONTEXT_MAX (0xffffffffffffffff in frame-pointer chains of real recordings) is
 * skipped, and the entries after it are kept.
 */
static int add_chain(struct json_run *r, struct thread *t, const struct sample *s)
{
	uint16_t cpumode = MISC_USER;
	int err = 0;

	for (uint64_t i = 0; i < s->callchain_nr && !err; i++) {
		uint64_t ip = sample__callchain_ip(s, i);

		if (ip < CONTEXT_MAX)
			err = add_frame(r, t, cpumode, ip);
		else if (ip == CONTEXT_HV)
			cpumode = MISC_HYPERVISOR;
		else if (ip == CONTEXT_KERNEL)
			cpumode = MISC_KERNEL;
		else if (ip == CONTEXT_USER)
			cpumode = MISC_USER;
	}
	return err;
}

static int on_sample(struct json_run *r, const struct record_ref *ref)
{
	const struct evsel *ev = ref->evsel;
	struct js_sample *js;
	struct sample s;
	struct thread *t;
	int err;

	if ((err = sample__parse(&s, &ev->attr, ref->data, ref->size)))
		return err;
	t = machine__findnew_thread(r->m, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	if (array__grow(&r->samples, &r->cap_samples, r->nr_samples + 1, sizeof(*r->samples),
			1024))
		return -ENOMEM;
	/* the sample's own address first (perf's machine__resolve(): it also gives a
	 * thread never named its default name) */
	struct addr_location al;

	machine__resolve(r->m, t, s.misc & MISC_CPUMODE_MASK, s.ip, &al);
	js = &r->samples[r->nr_samples];
	js->time = s.time;
	js->pid = t->pid;
	js->tid = t->tid;
	/* perf writes "cpu" when any event samples it: -1 for the samples of the others */
	js->cpu = ev->attr.sample_type & SAMPLE_CPU ? (int32_t)s.cpu : -1;
	js->has_cpu = r->any_cpu;
	if (!(js->comm = name_json(r, thread__comm(t))))
		return -ENOMEM;
	js->first = r->nr_frames;
	if (ev->attr.sample_type & SAMPLE_CALLCHAIN) {
		err = add_chain(r, t, &s);
	} else {
		err = add_frame(r, t, s.misc & MISC_CPUMODE_MASK, s.ip);
	}
	if (err)
		return err;
	js->nr = r->nr_frames - js->first;
	r->nr_samples++;
	return 0;
}

/* ---- encoding (any thread) ------------------------------------------------------ */

/* json_dump_callback()'s sink: append to a js_text. */
static int collect(const char *text, size_t size, void *data)
{
	struct js_text *b = data;

	if (array__grow(&b->p, &b->cap, b->len + size, 1, 64u << 10))
		return -1;
	memcpy(b->p + b->len, text, size);
	b->len += size;
	return 0;
}

/* The JSON object of one sample, perf's keys in perf's order. */
static json_t *sample_object(const struct json_run *r, const struct js_sample *js)
{
	json_t *o = json_object(), *chain = json_array();

	if (!o || !chain ||
	    !set(o, "timestamp", json_integer((json_int_t)js->time)) ||
	    !set(o, "pid", json_integer(js->pid)) || !set(o, "tid", json_integer(js->tid)) ||
	    (js->has_cpu && !set(o, "cpu", json_integer(js->cpu))) ||
	    json_object_set(o, "comm", js->comm))
		goto nomem;
	for (size_t i = 0; i < js->nr; i++)
		if (json_array_append(chain, r->frames[js->first + i].entry))
			goto nomem;
	if (!set(o, "callchain", chain)) {
		chain = NULL;
		goto nomem;
	}
	return o;
nomem:
	json_decref(chain);
	json_decref(o);
	return NULL;
}

/* Work item i: the samples of chunk i, each on a line of its own after a comma (the
 * first sample of the document after a newline only). */
static void encode_chunk(void *ctx, size_t i)
{
	struct json_run *r = ctx;
	/* filled in a copy of its own: the texts share cache lines, and each collect()
	 * writes len */
	struct js_text b = r->texts[i];
	size_t end = (i + 1) * CHUNK_SAMPLES;

	b.len = 0;
	b.failed = false;
	if (end > r->nr_samples)
		end = r->nr_samples;
	for (size_t k = i * CHUNK_SAMPLES; k < end && !b.failed; k++) {
		json_t *o = sample_object(r, &r->samples[k]);
		bool first = r->written == 0 && k == 0;

		if (!o || collect(first ? "\n" : ",\n", first ? 1 : 2, &b) ||
		    json_dump_callback(o, collect, &b, DUMP_FLAGS))
			b.failed = true;
		json_decref(o);
	}
	r->texts[i] = b;
}

/* A write to the output failed: the first errno kept (a full disk says so); -EIO. */
static int write_failed(struct json_run *r)
{
	if (!r->write_failed)
		r->write_err = errno ? -errno : -EIO;
	r->write_failed = true;
	return -EIO;
}

/* Encode the resolved samples of a batch on the workers and write them in order. */
static int write_batch(struct json_run *r)
{
	size_t n = (r->nr_samples + CHUNK_SAMPLES - 1) / CHUNK_SAMPLES;
	int err = 0;

	if (!n)
		return 0;
	if (n > r->nr_texts) {
		if (array__grow(&r->texts, &r->cap_texts, n, sizeof(*r->texts), 16))
			return -ENOMEM;
		memset(r->texts + r->nr_texts, 0, (n - r->nr_texts) * sizeof(*r->texts));
		r->nr_texts = n;
	}
	if ((err = parallel_for(r->wq, n, encode_chunk, r)))
		return err;
	for (size_t i = 0; i < n && !err; i++) {
		if (r->texts[i].failed)
			err = -ENOMEM;
		else if (fwrite(r->texts[i].p, 1, r->texts[i].len, r->fp) != r->texts[i].len)
			err = write_failed(r);
	}
	r->written += r->nr_samples;
	r->nr_samples = 0;
	r->nr_frames = 0;
	return err;
}

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct json_run *r = ctx;
	uint64_t bytes = 0;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		bytes += ref->disk_size;
		if (!ref->evsel)
			continue;
		err = ref->type == REC_SAMPLE ? on_sample(r, ref)
					      : machine__process_record(r->m, ref);
		if (err) {
			r->bad = true;
			r->bad_file = ref->file;
			r->bad_offset = ref->offset;
		}
	}
	progress__add(&r->prog, bytes);
	/* the names the frames point to stay: nothing the machine frees (maps and
	 * threads may go; comms, dsos and symbols live as long as the machine) */
	return err ? err : write_batch(r);
}

static void json_run__exit(struct json_run *r)
{
	for (size_t i = 0; i < r->nr_texts; i++)
		free(r->texts[i].p);
	free(r->texts);
	free(r->samples);
	free(r->frames);
	for (size_t i = 0; i < r->cap_names; i++)
		json_decref(r->names[i].val);
	for (size_t i = 0; i < r->cap_entries; i++)
		json_decref(r->entries[i].val);
	free(r->names);
	free(r->entries);
}

static int write_json(struct cmd_recording *rec, FILE *fp, const char *out, bool progress,
		      struct diag *d)
{
	struct session *s = cmd_recording__session(rec);
	struct json_run r = { .m = cmd_recording__machine(rec), .fp = fp,
			      .wq = session__workqueue(s) };
	const struct evlist *el = session__evlist(s);
	json_t *h = headers(s);
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
	json_object_seed(0);	/* before the workers build objects (jansson's advice) */
	progress__init(&r.prog, stderr, progress__session_bytes(s), progress);
	err = r.write_failed ? -EIO : session__deliver(s, on_batch, &r, 0);
	progress__exit(&r.prog);
	json_run__exit(&r);
	if (!err && (fputs("\n]\n}\n", fp) == EOF || fflush(fp)))
		write_failed(&r);
	/* a damaged record (or one that could not be read: -EIO too), found while
	 * delivering where the recording was loaded without the scan pass */
	if (err && !r.write_failed && !r.bad && session__deliver_error(s, d))
		return err;
	if (r.write_failed || err == -EIO) {
		err = r.write_err ? r.write_err : -EIO;
		return diag__set(d, out, DIAG_NO_OFFSET, err, "write: %s", diag__code_str(err));
	}
	if (err && r.bad && err != -ENOMEM)
		return session__record_diag(s, r.bad_file, r.bad_offset, d, err, NULL);
	if (err)
		return diag__set(d, session__path(s), DIAG_NO_OFFSET, err, NULL);
	return 0;
}

int cmd_json(const struct convert_opts *o, struct diag *d)
{
	struct cmd_recording *rec = NULL;
	FILE *fp = NULL;
	int err;

	/* the output is OUT.tmp until the commit: no scan pass for a single file */
	err = cmd_recording__open(&rec, o, false, true, d);
	if (!err)
		err = outfile__claim(o->json, o->input, OUTFILE_STREAM |
				     (o->force ? OUTFILE_FORCE : 0), d);
	if (!err && !(fp = fopen(outfile__tmp_path(), "w")))
		err = diag__set(d, outfile__tmp_path(), DIAG_NO_OFFSET, -errno,
				"cannot open: %s", strerror(errno));
	if (!err)
		err = write_json(rec, fp, o->json, o->progress, d);
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
