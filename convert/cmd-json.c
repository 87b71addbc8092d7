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
#include <stdio.h>	/* FILE, fopen, fputs, snprintf */
#include <string.h>	/* strcmp */
#include <time.h>	/* gmtime_r, strftime */

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
#include "banned.h"

/* JSON output settings: perf's file is indented; one sample per line keeps ours
 * greppable and half the size.  Keys in insertion order (perf's). */
#define DUMP_FLAGS (JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII * 0)

struct json_run {
	struct machine *m;
	FILE *fp;
	uint64_t nr_samples;
	bool bad;		/* a record failed: its file and offset */
	uint16_t bad_file;
	uint64_t bad_offset;
	bool write_failed;
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
		const char *v = *(char *const *)((const char *)f + strs[i].off);

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

/* One callchain entry: the address, and its symbol and dso where it has a symbol. */
static int add_entry(struct json_run *r, json_t *chain, struct thread *t, uint16_t cpumode,
		     uint64_t ip)
{
	struct addr_location al;
	json_t *e = json_object();

	machine__resolve(r->m, t, cpumode, ip, &al);
	if (!e || !set(e, "ip", hex(ip)))
		goto nomem;
	if (al.sym && symbol__name(al.sym)[0]) {
		if (!set(e, "symbol", json_string(symbol__name(al.sym))))
			goto nomem;
		if (al.dso && !set(e, "dso", json_string(dso__short_name(al.dso))))
			goto nomem;
	}
	if (json_array_append_new(chain, e))
		return -ENOMEM;
	return 0;
nomem:
	json_decref(e);
	return -ENOMEM;
}

struct chain_ctx {
	struct json_run *r;
	json_t *chain;
	struct thread *t;
};

static int chain_frame(void *ctx, uint16_t cpumode, uint64_t ip)
{
	struct chain_ctx *c = ctx;

	return add_entry(c->r, c->chain, c->t, cpumode, ip);
}

static int on_sample(struct json_run *r, const struct record_ref *ref)
{
	const struct evsel *ev = ref->evsel;
	struct sample s;
	struct thread *t;
	json_t *o, *chain;
	int err;

	if ((err = sample__parse(&s, &ev->attr, ref->data, ref->size)))
		return err;
	t = machine__findnew_thread(r->m, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	/* the sample's own address first (perf's machine__resolve(): it also gives a
	 * thread never named its default name) */
	struct addr_location al;

	machine__resolve(r->m, t, s.misc & MISC_CPUMODE_MASK, s.ip, &al);
	o = json_object();
	chain = json_array();
	if (!o || !chain ||
	    !set(o, "timestamp", json_integer((json_int_t)s.time)) ||
	    !set(o, "pid", json_integer(t->pid)) || !set(o, "tid", json_integer(t->tid)) ||
	    ((ev->attr.sample_type & SAMPLE_CPU) && !set(o, "cpu", json_integer(s.cpu))) ||
	    !set(o, "comm", json_string(thread__comm(t)))) {
		err = -ENOMEM;
		goto out;
	}
	if (ev->attr.sample_type & SAMPLE_CALLCHAIN) {
		struct chain_ctx c = { r, chain, t };

		err = machine__callchain_walk(&s, false, UINT64_MAX, chain_frame, &c);
		if (err == 1)
			err = 0;	/* a chain perf cannot walk: what was walked */
	} else {
		err = add_entry(r, chain, t, s.misc & MISC_CPUMODE_MASK, s.ip);
	}
	if (err)
		goto out;
	err = set(o, "callchain", chain) ? 0 : -ENOMEM;
	chain = NULL;
	if (err)
		goto out;
	if (fputs(r->nr_samples ? ",\n" : "\n", r->fp) == EOF ||
	    json_dumpf(o, r->fp, DUMP_FLAGS)) {
		r->write_failed = true;
		err = -EIO;
	}
	r->nr_samples++;
out:
	json_decref(chain);
	json_decref(o);
	return err;
}

static int on_batch(void *ctx, const struct record_ref *const *recs, size_t n)
{
	struct json_run *r = ctx;
	struct sample s;
	int err = 0;

	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		if (!ref->evsel)
			continue;
		switch (ref->type) {
		case REC_SAMPLE:
			err = on_sample(r, ref);
			break;
		case REC_MMAP:
		case REC_MMAP2:
		case REC_COMM:
		case REC_FORK:
		case REC_EXIT:
			sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
			err = machine__process(r->m, ref, &s);
			break;
		default:
			break;
		}
		if (err && !r->write_failed) {
			r->bad = true;
			r->bad_file = ref->file;
			r->bad_offset = ref->offset;
		}
	}
	return err;
}

static int write_json(struct cmd_recording *rec, FILE *fp, const char *out, struct diag *d)
{
	struct session *s = cmd_recording__session(rec);
	struct json_run r = { .m = cmd_recording__machine(rec), .fp = fp };
	json_t *h = headers(s);
	int err;

	if (!h)
		return diag__set(d, out, DIAG_NO_OFFSET, -ENOMEM, NULL);
	/* {"linux-perf-json-version": 1, "headers": {...}, "samples": [ ... ]} */
	if (fputs("{\n\"linux-perf-json-version\": 1,\n\"headers\": ", fp) == EOF ||
	    json_dumpf(h, fp, JSON_INDENT(1) | JSON_PRESERVE_ORDER) ||
	    fputs(",\n\"samples\": [", fp) == EOF)
		r.write_failed = true;
	json_decref(h);
	err = r.write_failed ? -EIO : session__deliver(s, on_batch, &r, 0);
	if (!err && fputs("\n]\n}\n", fp) == EOF)
		r.write_failed = true;
	if (r.write_failed || err == -EIO)
		return diag__set(d, out, DIAG_NO_OFFSET, -EIO, "write error");
	if (err && r.bad)
		return diag__set(d, session__file_label(s, r.bad_file), r.bad_offset, err, NULL);
	if (err)
		return diag__set(d, session__path(s), DIAG_NO_OFFSET, err, NULL);
	return 0;
}

int cmd_json(const struct convert_opts *o, struct diag *d)
{
	struct cmd_recording *rec = NULL;
	FILE *fp = NULL;
	int err;

	err = cmd_recording__open(&rec, o, false, d);
	if (!err)
		err = outfile__claim(o->json, o->force, d);
	if (!err && !(fp = fopen(outfile__tmp_path(), "w")))
		err = diag__set(d, outfile__tmp_path(), DIAG_NO_OFFSET, -errno,
				"cannot open: %s", strerror(errno));
	if (!err)
		err = write_json(rec, fp, o->json, d);
	if (fp && fclose(fp) && !err)
		err = diag__set(d, o->json, DIAG_NO_OFFSET, -EIO, "write error");
	if (!err)
		err = outfile__commit(d);
	outfile__drop();
	cmd_recording__close(rec);
	return err;
}
