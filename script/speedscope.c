/*
 * speedscope - samples as a speedscope file, written with jansson (speedscope.h).
 */
#include "script/speedscope.h"

#include <errno.h>
#include <stdio.h>	/* fdopen, fclose */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memcmp, memcpy, strdup, strlen */

#include <jansson.h>	/* json_* */

#include "script/format.h"	/* struct script_buf */
#include "util/array.h"
#include "util/hashtab.h"
#include "util/outpath.h"
#include "banned.h"

#define SPEEDSCOPE_SCHEMA "https://www.speedscope.app/file-format-schema.json"

struct ss_frame {
	size_t key_off;		/* bytes into the key pool: NAME '\0' FILE '\0' */
	size_t name_len, file_len;	/* file_len 0: no file */
};

struct ss_slot {
	uint32_t idx1;		/* frame index + 1; 0 = empty slot */
	uint64_t hash;
};

struct ss_profile {
	unsigned event_idx;
	int32_t pid;
	char *comm;		/* owned */
	char *name;		/* owned */
	uint32_t *ids;		/* owned: every entry's frame indices, one after another */
	size_t nr_ids, cap_ids;
	size_t *start;		/* owned: entry i is ids[start[i] .. start[i + 1]) */
	uint64_t *weights;	/* owned: samples per entry */
	size_t nr, cap_start, cap_weights;
	uint64_t samples;
};

struct script_speedscope {
	char *name;		/* owned */
	struct ss_frame *frames;	/* owned */
	size_t nr_frames, cap_frames;
	struct ss_slot *slots;	/* owned hash table over frames */
	size_t cap_slots;
	struct script_buf keys;	/* frame keys */
	struct ss_profile *profiles;	/* owned */
	size_t nr_profiles, cap_profiles;
	size_t last;		/* the profile of the last sample */
	struct script_buf part;	/* scratch: one frame's folded names */
	struct script_buf key;	/* scratch: one key */
	uint32_t *stack;	/* scratch: one sample's indices, innermost first */
	size_t cap_stack;
	uint64_t samples;
};

int script_speedscope__new(struct script_speedscope **out, const char *name)
{
	struct script_speedscope *s = calloc(1, sizeof(*s));

	if (s && !(s->name = strdup(name ? name : ""))) {
		free(s);
		s = NULL;
	}
	*out = s;
	return s ? 0 : -ENOMEM;
}

void script_speedscope__delete(struct script_speedscope *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nr_profiles; i++) {
		free(s->profiles[i].name);
		free(s->profiles[i].comm);
		free(s->profiles[i].ids);
		free(s->profiles[i].start);
		free(s->profiles[i].weights);
	}
	free(s->profiles);
	free(s->frames);
	free(s->slots);
	free(s->stack);
	script_buf__exit(&s->keys);
	script_buf__exit(&s->part);
	script_buf__exit(&s->key);
	free(s->name);
	free(s);
}

uint64_t script_speedscope__samples(const struct script_speedscope *s)
{
	return s->samples;
}

size_t script_speedscope__nr_profiles(const struct script_speedscope *s)
{
	return s->nr_profiles;
}

static uint64_t key_hash(const char *p, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)p[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static uint64_t slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ((const struct ss_slot *)slot)->hash;
}

/* The index of frame (name, file), added when new; -errno on failure. */
static int64_t frame_id(struct script_speedscope *s, const char *name, size_t name_len,
			const char *file)
{
	size_t file_len = file ? strlen(file) : 0, n = name_len + 1 + file_len + 1, i;
	struct script_buf *k = &s->key;
	struct ss_frame *fr;
	uint64_t h;

	k->len = 0;
	if (script_buf__reserve(k, n))
		return -ENOMEM;
	memcpy(k->p, name, name_len);
	k->p[name_len] = 0;
	memcpy(k->p + name_len + 1, file ? file : "", file_len);
	k->p[n - 1] = 0;
	k->len = n;
	h = key_hash(k->p, n);
	if (hashtab__reserve(&s->slots, &s->cap_slots, s->nr_frames, sizeof(*s->slots), 1024,
			     slot_hash, NULL))
		return -ENOMEM;
	for (i = hashtab__first(h, s->cap_slots); s->slots[i].idx1;
	     i = hashtab__next(i, s->cap_slots)) {
		fr = &s->frames[s->slots[i].idx1 - 1];
		if (s->slots[i].hash == h && fr->name_len == name_len &&
		    fr->file_len == file_len && !memcmp(s->keys.p + fr->key_off, k->p, n))
			return s->slots[i].idx1 - 1;
	}
	if (s->nr_frames >= UINT32_MAX - 1)
		return -EOVERFLOW;
	if (array__grow(&s->frames, &s->cap_frames, s->nr_frames + 1, sizeof(*s->frames), 256))
		return -ENOMEM;
	fr = &s->frames[s->nr_frames];
	*fr = (struct ss_frame){ .key_off = s->keys.len, .name_len = name_len,
				 .file_len = file_len };
	if (script_buf__put(&s->keys, k->p, n))
		return -ENOMEM;
	s->slots[i] = (struct ss_slot){ .idx1 = (uint32_t)(s->nr_frames + 1), .hash = h };
	return (int64_t)s->nr_frames++;
}

static bool profile_is(const struct ss_profile *p, unsigned event_idx, int32_t pid,
		       const char *comm)
{
	return p->pid == pid && p->event_idx == event_idx && !strcmp(p->comm, comm);
}

static struct ss_profile *profile(struct script_speedscope *s, unsigned event_idx,
				  const char *event, int32_t pid, const char *comm)
{
	struct ss_profile *p;
	size_t n;

	if (s->last < s->nr_profiles && profile_is(&s->profiles[s->last], event_idx, pid, comm))
		return &s->profiles[s->last];
	for (size_t i = 0; i < s->nr_profiles; i++) {
		if (profile_is(&s->profiles[i], event_idx, pid, comm)) {
			s->last = i;
			return &s->profiles[i];
		}
	}
	if (array__grow(&s->profiles, &s->cap_profiles, s->nr_profiles + 1,
			sizeof(*s->profiles), 16))
		return NULL;
	p = &s->profiles[s->nr_profiles];
	*p = (struct ss_profile){ .event_idx = event_idx, .pid = pid };
	n = strlen(comm) + strlen(event) + 32;
	p->name = malloc(n);
	p->comm = strdup(comm);
	if (!p->name || !p->comm) {
		free(p->name);
		free(p->comm);
		return NULL;
	}
	snprintf(p->name, n, "%s (%d) %s", comm, (int)pid, event);
	s->last = s->nr_profiles++;
	return p;
}

/* The sample's frame indices, innermost first, into s->stack; *n their number. */
static int sample_ids(struct script_speedscope *s, const struct script_fold_frame *frames,
		      size_t nr, bool java, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t parts, off = 0, first = *n;
		int err;

		s->part.len = 0;
		if ((err = script_fold__frame(&s->part, frames[i].sym, frames[i].dso, java,
					      &parts)))
			return err;
		/* its parts, joined by ';', go outer to inner: reversed below with the
		 * whole stack, so they are pushed in order here and swapped after */
		for (size_t k = 0; k < parts; k++) {
			const char *p = s->part.p + off;
			const char *semi = memchr(p, ';', s->part.len - off);
			size_t len = semi ? (size_t)(semi - p) : s->part.len - off;
			int64_t id = frame_id(s, p, len, frames[i].dso);

			if (id < 0)
				return (int)id;
			if (array__grow(&s->stack, &s->cap_stack, *n + 1, sizeof(*s->stack), 64))
				return -ENOMEM;
			s->stack[(*n)++] = (uint32_t)id;
			off += len + 1;
		}
		/* parts of one frame: innermost last in the folded name, so reverse */
		for (size_t a = first, b = *n; a + 1 < b; a++, b--) {
			uint32_t t = s->stack[a];

			s->stack[a] = s->stack[b - 1];
			s->stack[b - 1] = t;
		}
	}
	return 0;
}

int script_speedscope__add(struct script_speedscope *s, unsigned event_idx,
			   const char *event, int32_t pid, const char *comm,
			   const struct script_fold_frame *frames, size_t nr, bool java)
{
	struct ss_profile *p = profile(s, event_idx, event, pid, comm);
	size_t n, at;
	int err;

	if (!p)
		return -ENOMEM;
	if ((err = sample_ids(s, frames, nr, java, &n)))
		return err;
	/* the same stack as the entry before: one more sample of it */
	if (p->nr && p->nr_ids - p->start[p->nr - 1] == n) {
		const uint32_t *prev = p->ids + p->start[p->nr - 1];
		bool same = true;

		for (size_t i = 0; i < n && same; i++)
			same = prev[i] == s->stack[n - 1 - i];
		if (same) {
			p->weights[p->nr - 1]++;
			p->samples++;
			s->samples++;
			return 0;
		}
	}
	if (array__grow(&p->ids, &p->cap_ids, p->nr_ids + n, sizeof(*p->ids), 256) ||
	    array__grow(&p->start, &p->cap_start, p->nr + 1, sizeof(*p->start), 64) ||
	    array__grow(&p->weights, &p->cap_weights, p->nr + 1, sizeof(*p->weights), 64))
		return -ENOMEM;
	at = p->nr_ids;
	for (size_t i = 0; i < n; i++)	/* root first */
		p->ids[at + i] = s->stack[n - 1 - i];
	p->nr_ids += n;
	p->start[p->nr] = at;
	p->weights[p->nr] = 1;
	p->nr++;
	p->samples++;
	s->samples++;
	return 0;
}

/* ---- the JSON ----------------------------------------------------------------------- */

/* obj[key] = v, v's reference taken; false on failure (v freed). */
static bool put(json_t *obj, const char *key, json_t *v)
{
	return v && !json_object_set_new(obj, key, v);
}

static bool push(json_t *arr, json_t *v)
{
	return v && !json_array_append_new(arr, v);
}

static json_t *frames_json(const struct script_speedscope *s)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < s->nr_frames; i++) {
		const struct ss_frame *fr = &s->frames[i];
		const char *key = s->keys.p + fr->key_off;
		json_t *o = json_object();

		/* json_stringn_nocheck: names are bytes from the recording, and jansson's
		 * checked constructor refuses invalid UTF-8; the writer escapes what
		 * JSON needs (json_dumpf with JSON_ENSURE_ASCII would refuse them too) */
		if (!o || !put(o, "name", json_stringn_nocheck(key, fr->name_len)) ||
		    (fr->file_len && !put(o, "file", json_stringn_nocheck(key + fr->name_len + 1,
									   fr->file_len))) ||
		    !push(arr, o)) {
			json_decref(o);
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *profile_json(const struct ss_profile *p)
{
	json_t *o = json_object(), *samples = NULL, *weights = NULL;
	/* the arrays go into o first: freeing o frees everything made */
	bool ok = o && put(o, "type", json_string("sampled")) &&
		  put(o, "name", json_stringn_nocheck(p->name, strlen(p->name))) &&
		  put(o, "unit", json_string("none")) &&
		  put(o, "startValue", json_integer(0)) &&
		  put(o, "endValue", json_integer((json_int_t)p->samples)) &&
		  put(o, "samples", samples = json_array()) &&
		  put(o, "weights", weights = json_array());

	if (!ok) {
		json_decref(o);
		return NULL;
	}
	for (size_t i = 0; ok && i < p->nr; i++) {
		size_t end = i + 1 < p->nr ? p->start[i + 1] : p->nr_ids;
		json_t *st = json_array();

		ok = push(samples, st);
		for (size_t k = p->start[i]; ok && k < end; k++)
			ok = push(st, json_integer(p->ids[k]));
		ok = ok && push(weights, json_integer((json_int_t)p->weights[i]));
	}
	if (!ok) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static json_t *doc_json(const struct script_speedscope *s, const char *exporter)
{
	json_t *doc = json_object(), *shared = NULL, *profiles = NULL;
	/* each part is made as it goes in: freeing doc frees everything made */
	bool ok = doc && put(doc, "$schema", json_string(SPEEDSCOPE_SCHEMA)) &&
		  put(doc, "shared", shared = json_object()) &&
		  put(shared, "frames", frames_json(s)) &&
		  put(doc, "profiles", profiles = json_array());

	for (size_t i = 0; ok && i < s->nr_profiles; i++)
		ok = push(profiles, profile_json(&s->profiles[i]));
	ok = ok && put(doc, "name", json_stringn_nocheck(s->name, strlen(s->name))) &&
	     put(doc, "activeProfileIndex", json_integer(0)) &&
	     put(doc, "exporter", json_string(exporter));
	if (!ok) {
		json_decref(doc);
		return NULL;
	}
	return doc;
}

int script_speedscope__write(struct script_speedscope *s, const char *exporter,
			     const char *path)
{
	struct outpath_file of;
	json_t *doc;
	FILE *fp;
	int err = 0;

	doc = doc_json(s, exporter);
	if (!doc)
		return -ENOMEM;
	if ((err = outpath__open(&of, path, NULL, false, 0666))) {
		json_decref(doc);
		return err;
	}
	fp = fdopen(of.fd, "w");
	if (!fp) {
		err = -errno;
		json_decref(doc);
		outpath__abort(&of);
		return err;
	}
	errno = 0;
	if (json_dumpf(doc, fp, JSON_COMPACT) || fflush(fp) || ferror(fp))
		err = errno ? -errno : -EIO;
	if (fclose(fp) && !err)
		err = errno ? -errno : -EIO;
	of.fd = -1;	/* closed with fp */
	json_decref(doc);
	if (err) {
		outpath__abort(&of);
		return err;
	}
	return outpath__commit(&of);
}
