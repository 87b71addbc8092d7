/*
 * fold - folded stacks in stackcollapse-perf.pl's format (see fold.h).
 */
#include "script/fold.h"

#include <errno.h>
#include <stdlib.h>	/* malloc, free, qsort */
#include <string.h>	/* memcmp, memcpy, strchr, strcmp, strlen, strncmp */

#include "util/hashtab.h"
#include "banned.h"

struct fold_slot {
	char *key;		/* owned, NUL-terminated; NULL = empty slot */
	size_t len;		/* bytes of key */
	uint64_t hash;
	uint64_t count;		/* samples */
};

struct script_fold {
	struct fold_slot *v;	/* owned hash table */
	size_t cap, nr;
	struct script_buf key;	/* the stack being built */
	struct script_buf pname;
	uint64_t samples;
	bool annotate;		/* `_[k]`/`_[j]` suffixes (fold.h) */
};

int script_fold__new(struct script_fold **out)
{
	*out = calloc(1, sizeof(**out));
	return *out ? 0 : -ENOMEM;
}

void script_fold__delete(struct script_fold *f)
{
	if (!f)
		return;
	for (size_t i = 0; i < f->cap; i++)
		free(f->v[i].key);
	free(f->v);
	script_buf__exit(&f->key);
	script_buf__exit(&f->pname);
	free(f);
}

void script_fold__annotate(struct script_fold *f)
{
	f->annotate = true;
}

enum script_frame_kind script_fold__part_kind(const char *part, size_t len, size_t *bare)
{
	*bare = len;
	if (len < 4)
		return SCRIPT_KIND_USER;
	if (!memcmp(part + len - 4, SCRIPT_FOLD_KERNEL_SUFFIX, 4)) {
		*bare = len - 4;
		return SCRIPT_KIND_KERNEL;
	}
	if (!memcmp(part + len - 4, SCRIPT_FOLD_OTHER_SUFFIX, 4)) {
		*bare = len - 4;
		return SCRIPT_KIND_OTHER;
	}
	return SCRIPT_KIND_USER;
}

uint64_t script_fold__samples(const struct script_fold *f)
{
	return f->samples;
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

/* Whether h[i..n) starts with \s+\d+[/]*\d*\s (see fold.h; greedy is exact here). */
static bool tid_follows(const char *h, size_t i, size_t n)
{
	size_t j = i;

	while (j < n && is_space(h[j]))
		j++;
	if (j == i || j >= n || !is_digit(h[j]))
		return false;
	while (j < n && is_digit(h[j]))
		j++;
	while (j < n && h[j] == '/')
		j++;
	while (j < n && is_digit(h[j]))
		j++;
	return j < n && is_space(h[j]);
}

int script_fold__pname(struct script_buf *b, const char *h, size_t n)
{
	size_t e;

	if (!n || is_space(h[0]) || h[0] == '\n')
		return 0;
	for (e = 2; e < n; e++) {
		if (h[e - 1] == '\n')
			return 0;	/* '.' stops at a newline */
		if (tid_follows(h, e, n))
			break;
	}
	if (e >= n)
		return 0;
	if (script_buf__reserve(b, e))
		return -ENOMEM;
	for (size_t i = 0; i < e; i++)
		b->p[b->len++] = h[i] == ' ' ? '_' : h[i];
	return 0;
}

/* Whether s[0..n) matches /\.\(.*\)\./ (a Go method name). */
static bool go_method(const char *s, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++) {
		if (s[i] != '.' || s[i + 1] != '(')
			continue;
		for (size_t j = i + 2; j + 1 < n; j++)
			if (s[j] == ')' && s[j + 1] == '.')
				return true;
		return false;	/* a later ".(" has less room after it */
	}
	return false;
}

/* One part of a frame (n bytes of s), tidied, appended. */
static int fold_part(struct script_buf *b, const char *s, size_t n, const char *mod,
		     bool java, bool inlined, const char *suffix)
{
	static const char anon[] = "anonymous namespace)";
	size_t start = b->len, cut;
	int err;

	if (n == 9 && !memcmp(s, "[unknown]", 9) && strcmp(mod, "[unknown]")) {
		const char *base = strrchr(mod, '/');

		base = base ? base + 1 : mod;
		if ((err = script_buf__put(b, "[", 1)) ||
		    (err = script_buf__put(b, base, strlen(base))) ||
		    (err = script_buf__put(b, "]", 1)))
			return err;
	} else if ((err = script_buf__put(b, s, n))) {
		return err;
	}
	/* ';' -> ':' */
	for (size_t i = start; i < b->len; i++)
		if (b->p[i] == ';')
			b->p[i] = ':';
	if (!go_method(b->p + start, b->len - start)) {
		for (cut = start; cut < b->len; cut++)
			if (b->p[cut] == '(' &&
			    (b->len - cut - 1 < sizeof(anon) - 1 ||
			     memcmp(b->p + cut + 1, anon, sizeof(anon) - 1)))
				break;
		b->len = cut;
	}
	/* quotes deleted */
	cut = start;
	for (size_t i = start; i < b->len; i++)
		if (b->p[i] != '"' && b->p[i] != '\'')
			b->p[cut++] = b->p[i];
	b->len = cut;
	if (java && memchr(b->p + start, '/', b->len - start) && b->len > start &&
	    b->p[start] == 'L') {
		memmove(b->p + start, b->p + start + 1, b->len - start - 1);
		b->len--;
	}
	if (inlined && script_buf__put(b, "_[i]", 4))
		return -ENOMEM;
	return suffix ? script_buf__put(b, suffix, strlen(suffix)) : 0;
}

int script_fold__frame(struct script_buf *b, const char *sym, const char *dso, bool java,
		       size_t *nparts)
{
	return script_fold__frame_suffixed(b, sym, dso, java, NULL, nparts);
}

int script_fold__frame_suffixed(struct script_buf *b, const char *sym, const char *dso,
				bool java, const char *suffix, size_t *nparts)
{
	const char *raw = sym ? sym : "[unknown]", *mod = dso ? dso : "[unknown]";
	size_t n = strlen(raw), last = 0, k = 0;
	int err;

	*nparts = 0;
	if (raw[0] == '(')
		return 0;	/* "skip process names" */
	/* Perl's split drops trailing empty fields: find the end of the last
	 * non-empty one */
	for (size_t i = 0, f = 0; i <= n; i++) {
		if (i == n || (raw[i] == '-' && raw[i + 1] == '>')) {
			if (i > f)
				last = i;
			f = i + 2;
			i += (i < n);
		}
	}
	for (size_t f = 0; last;) {
		const char *arrow = strstr(raw + f, "->");
		size_t e = arrow && (size_t)(arrow - raw) < last ? (size_t)(arrow - raw) : last;

		if (k && (err = script_buf__put(b, ";", 1)))
			return err;
		if ((err = fold_part(b, raw + f, e - f, mod, java, k > 0, suffix)))
			return err;
		k++;
		if (e == last)
			break;
		f = e + 2;
	}
	*nparts = k;
	return 0;
}

static uint64_t key_hash(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ULL;
	return h ^ (h >> 29);
}

static uint64_t slot_hash(const void *ctx, const void *slot)
{
	(void)ctx;
	return ((const struct fold_slot *)slot)->hash;
}

/* Count @p count samples of the stack s[0..n). */
static int count_key(struct script_fold *f, const char *s, size_t n, uint64_t count)
{
	uint64_t h = key_hash(s, n);
	size_t i;

	if (hashtab__reserve(&f->v, &f->cap, f->nr, sizeof(*f->v), 1024, slot_hash, NULL))
		return -ENOMEM;
	for (i = hashtab__first(h, f->cap); f->v[i].key; i = hashtab__next(i, f->cap)) {
		if (f->v[i].hash == h && f->v[i].len == n && !memcmp(f->v[i].key, s, n)) {
			f->v[i].count += count;
			return 0;
		}
	}
	f->v[i].key = malloc(n + 1);
	if (!f->v[i].key)
		return -ENOMEM;
	memcpy(f->v[i].key, s, n);
	f->v[i].key[n] = 0;
	f->v[i].len = n;
	f->v[i].hash = h;
	f->v[i].count = count;
	f->nr++;
	return 0;
}

int script_fold__merge(struct script_fold *dst, const struct script_fold *src)
{
	int err = 0;

	for (size_t i = 0; i < src->cap && !err; i++)
		if (src->v[i].key)
			err = count_key(dst, src->v[i].key, src->v[i].len, src->v[i].count);
	if (!err)
		dst->samples += src->samples;
	return err;
}

int script_fold__add(struct script_fold *f, const char *header, size_t header_len,
		     const struct script_fold_frame *frames, size_t nr)
{
	struct script_buf *k = &f->key;
	bool java;
	size_t parts;
	int err;

	k->len = 0;
	f->pname.len = 0;
	if ((err = script_fold__pname(&f->pname, header, header_len)) ||
	    (err = script_buf__put(k, f->pname.p, f->pname.len)))
		return err;
	java = f->pname.len == 4 && !memcmp(f->pname.p, "java", 4);
	for (size_t i = nr; i-- > 0;) {
		size_t mark = k->len;

		const char *sfx = !f->annotate ? NULL :
			frames[i].kind == SCRIPT_KIND_KERNEL ? SCRIPT_FOLD_KERNEL_SUFFIX :
			frames[i].kind == SCRIPT_KIND_OTHER ? SCRIPT_FOLD_OTHER_SUFFIX : NULL;

		if ((err = script_buf__put(k, ";", 1)) ||
		    (err = script_fold__frame_suffixed(k, frames[i].sym, frames[i].dso, java,
						       sfx, &parts)))
			return err;
		if (!parts)
			k->len = mark;
	}
	if ((err = count_key(f, k->len ? k->p : "", k->len, 1)))
		return err;
	f->samples++;
	return 0;
}

static int slot_cmp(const void *a, const void *b)
{
	const struct fold_slot *x = *(const struct fold_slot *const *)a;
	const struct fold_slot *y = *(const struct fold_slot *const *)b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->key, y->key, n);

	return c ? c : (x->len > y->len) - (x->len < y->len);
}

int script_fold__for_each(struct script_fold *f,
			  int (*fn)(void *ctx, const char *stack, size_t len, uint64_t count),
			  void *ctx)
{
	struct fold_slot **v = malloc((f->nr ? f->nr : 1) * sizeof(*v));
	size_t n = 0;
	int err = 0;

	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < f->cap; i++)
		if (f->v[i].key)
			v[n++] = &f->v[i];
	qsort(v, n, sizeof(*v), slot_cmp);
	for (size_t i = 0; i < n && !err; i++)
		err = fn(ctx, v[i]->key, v[i]->len, v[i]->count);
	free(v);
	return err;
}

static int write_line(void *ctx, const char *stack, size_t len, uint64_t count)
{
	(void)len;
	return fprintf(ctx, "%s %llu\n", stack, (unsigned long long)count) < 0 ? -EIO : 0;
}

int script_fold__write(struct script_fold *f, FILE *out)
{
	return script_fold__for_each(f, write_line, out);
}
