/*
 * speedscope - samples as a speedscope file, streamed with libyajl (speedscope.h).
 */
#include "script/speedscope.h"

#include <errno.h>
#include <stdio.h>	/* fdopen, fclose */
#include <stdlib.h>	/* calloc, free */
#include <string.h>	/* memcmp, memcpy, strdup, strlen */

#include <yajl/yajl_gen.h>	/* the file, streamed */

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

/* A frame seen before (by its name's and dso's pointers, which stay): its ids. */
struct ss_seen {
	const char *sym, *dso;	/* borrowed, as the frame gave them (either may be
				 * NULL: `used` marks a slot in use) */
	uint64_t hash;
	uint32_t first, n;	/* its ids in seen_ids, innermost first */
	bool java, used;
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
	struct ss_seen *seen;	/* owned hash table: frames seen, their ids */
	size_t cap_seen, nr_seen;
	uint32_t *seen_ids;	/* owned: their ids, one frame's after another */
	size_t nr_seen_ids, cap_seen_ids;
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
	free(s->seen);
	free(s->seen_ids);
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

static uint64_t seen_hash(const char *sym, const char *dso, bool java)
{
	uint64_t h = ((uintptr_t)sym * 0x9e3779b97f4a7c15ULL) ^ (uintptr_t)dso ^ java;

	return (h ^ (h >> 31)) * 0xbf58476d1ce4e5b9ULL;
}

static uint64_t seen_slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ((const struct ss_seen *)slot)->hash;
}

/* The slot of frame (sym, dso, java) in s->seen: found (used), or where it goes. */
static struct ss_seen *seen_slot(struct script_speedscope *s, const char *sym,
				 const char *dso, bool java, uint64_t h)
{
	size_t i;

	for (i = hashtab__first(h, s->cap_seen); s->seen[i].used;
	     i = hashtab__next(i, s->cap_seen))
		if (s->seen[i].hash == h && s->seen[i].sym == sym && s->seen[i].dso == dso &&
		    s->seen[i].java == java)
			break;
	return &s->seen[i];
}

/* The sample's frame indices, innermost first, into s->stack; *n their number.  A
 * frame's ids are remembered by its name's and dso's pointers (the samples of a
 * recording name the same few symbols over and over). */
static int sample_ids(struct script_speedscope *s, const struct script_fold_frame *frames,
		      size_t nr, bool java, size_t *n)
{
	*n = 0;
	for (size_t i = 0; i < nr; i++) {
		size_t parts, off = 0, first = *n;
		uint64_t h = seen_hash(frames[i].sym, frames[i].dso, java);
		struct ss_seen *seen;
		int err;

		if (hashtab__reserve(&s->seen, &s->cap_seen, s->nr_seen, sizeof(*s->seen), 256,
				     seen_slot_hash, NULL))
			return -ENOMEM;
		seen = seen_slot(s, frames[i].sym, frames[i].dso, java, h);
		if (seen->used) {
			if (array__grow(&s->stack, &s->cap_stack, *n + seen->n,
					sizeof(*s->stack), 64))
				return -ENOMEM;
			memcpy(s->stack + *n, s->seen_ids + seen->first,
			       seen->n * sizeof(*s->stack));
			*n += seen->n;
			continue;
		}

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
		/* remembered (the table was reserved above; frame_id() did not touch it) */
		if (array__grow(&s->seen_ids, &s->cap_seen_ids, s->nr_seen_ids + (*n - first),
				sizeof(*s->seen_ids), 256))
			return -ENOMEM;
		memcpy(s->seen_ids + s->nr_seen_ids, s->stack + first,
		       (*n - first) * sizeof(*s->stack));
		*seen = (struct ss_seen){ .sym = frames[i].sym, .dso = frames[i].dso, .hash = h,
					  .first = (uint32_t)s->nr_seen_ids,
					  .n = (uint32_t)(*n - first), .java = java,
					  .used = true };
		s->nr_seen_ids += *n - first;
		s->nr_seen++;
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

/*
 * Written as it is generated (libyajl's streaming generator: no tree of the document,
 * whose samples arrays would take a node per frame index), compact (no spaces), the
 * escapes JSON needs.  Names are bytes from the recording: one that is not UTF-8 fails
 * the write (a JSON string is UTF-8).
 */

static void print_fp(void *ctx, const char *str, size_t len)
{
	(void)fwrite(str, 1, len, ctx);	/* ferror() is checked at the end */
}

static bool gen_text(yajl_gen g, const char *str, size_t len)
{
	return yajl_gen_string(g, (const unsigned char *)str, len) == yajl_gen_status_ok;
}

#define gen_key(g, key) gen_text((g), (key), sizeof(key) - 1)

static bool gen_int(yajl_gen g, long long v)
{
	return yajl_gen_integer(g, v) == yajl_gen_status_ok;
}

static bool gen_open(yajl_gen g, bool map)
{
	return (map ? yajl_gen_map_open(g) : yajl_gen_array_open(g)) == yajl_gen_status_ok;
}

static bool gen_close(yajl_gen g, bool map)
{
	return (map ? yajl_gen_map_close(g) : yajl_gen_array_close(g)) == yajl_gen_status_ok;
}

static bool frames_json(yajl_gen g, const struct script_speedscope *s)
{
	bool ok = gen_open(g, false);

	for (size_t i = 0; ok && i < s->nr_frames; i++) {
		const struct ss_frame *fr = &s->frames[i];
		const char *key = s->keys.p + fr->key_off;

		ok = gen_open(g, true) && gen_key(g, "name") && gen_text(g, key, fr->name_len) &&
		     (!fr->file_len || (gen_key(g, "file") &&
					gen_text(g, key + fr->name_len + 1, fr->file_len))) &&
		     gen_close(g, true);
	}
	return ok && gen_close(g, false);
}

static bool profile_json(yajl_gen g, const struct ss_profile *p)
{
	bool ok = gen_open(g, true) && gen_key(g, "type") && gen_key(g, "sampled") &&
		  gen_key(g, "name") && gen_text(g, p->name, strlen(p->name)) &&
		  gen_key(g, "unit") && gen_key(g, "none") &&
		  gen_key(g, "startValue") && gen_int(g, 0) &&
		  gen_key(g, "endValue") && gen_int(g, (long long)p->samples) &&
		  gen_key(g, "samples") && gen_open(g, false);

	for (size_t i = 0; ok && i < p->nr; i++) {
		size_t end = i + 1 < p->nr ? p->start[i + 1] : p->nr_ids;

		ok = gen_open(g, false);
		for (size_t k = p->start[i]; ok && k < end; k++)
			ok = gen_int(g, p->ids[k]);
		ok = ok && gen_close(g, false);
	}
	ok = ok && gen_close(g, false) && gen_key(g, "weights") && gen_open(g, false);
	for (size_t i = 0; ok && i < p->nr; i++)
		ok = gen_int(g, (long long)p->weights[i]);
	return ok && gen_close(g, false) && gen_close(g, true);
}

static bool doc_json(yajl_gen g, const struct script_speedscope *s, const char *exporter)
{
	bool ok = gen_open(g, true) && gen_key(g, "$schema") && gen_key(g, SPEEDSCOPE_SCHEMA) &&
		  gen_key(g, "shared") && gen_open(g, true) && gen_key(g, "frames") &&
		  frames_json(g, s) && gen_close(g, true) &&
		  gen_key(g, "profiles") && gen_open(g, false);

	for (size_t i = 0; ok && i < s->nr_profiles; i++)
		ok = profile_json(g, &s->profiles[i]);
	return ok && gen_close(g, false) &&
	       gen_key(g, "name") && gen_text(g, s->name, strlen(s->name)) &&
	       gen_key(g, "activeProfileIndex") && gen_int(g, 0) &&
	       gen_key(g, "exporter") && gen_text(g, exporter, strlen(exporter)) &&
	       gen_close(g, true);
}

int script_speedscope__write(struct script_speedscope *s, const char *exporter,
			     const char *path)
{
	struct outpath_file of;
	yajl_gen g;
	FILE *fp;
	int err = 0;

	if ((err = outpath__open(&of, path, NULL, false, 0666)))
		return err;
	fp = fdopen(of.fd, "w");
	if (!fp) {
		err = -errno;
		outpath__abort(&of);
		return err;
	}
	g = yajl_gen_alloc(NULL);
	errno = 0;
	if (!g || !yajl_gen_config(g, yajl_gen_print_callback, print_fp, fp) ||
	    !yajl_gen_config(g, yajl_gen_validate_utf8, 1))
		err = -ENOMEM;
	else if (!doc_json(g, s, exporter) || fflush(fp) || ferror(fp))
		err = errno ? -errno : -EIO;
	if (g)
		yajl_gen_free(g);
	if (fclose(fp) && !err)
		err = errno ? -errno : -EIO;
	of.fd = -1;	/* closed with fp */
	if (err) {
		outpath__abort(&of);
		return err;
	}
	return outpath__commit(&of);
}
