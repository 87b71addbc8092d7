/*
 * tracefs - tracepoint ids and the tracing data (record/tracefs.h).
 */
#include "record/tracefs.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>	/* PATH_MAX */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "record/sysfile.h"
#include "util/array.h"

#include "banned.h"

/* tracefs' directory, found (or mounted) once; NULL: none */
static const char *tracefs_dir(void)
{
	static const char *const dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };
	static const char *found;
	static bool looked;
	char path[128];
	struct stat st;

	if (looked)
		return found;
	looked = true;
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/events", dirs[i]);
		if (!stat(path, &st) && S_ISDIR(st.st_mode))
			return found = dirs[i];
	}
	/* perf mounts it where it is missing */
	if (!mount("nodev", dirs[0], "tracefs", 0, NULL) &&
	    !stat("/sys/kernel/tracing/events", &st) && S_ISDIR(st.st_mode))
		found = dirs[0];
	return found;
}

int record_tracefs__id(const char *spec, size_t len, uint64_t *id)
{
	const char *colon = memchr(spec, ':', len), *dir = tracefs_dir();
	char text[32];

	if (!colon || colon == spec || colon + 1 == spec + len ||
	    memchr(colon + 1, ':', (size_t)(spec + len - colon - 1)) ||
	    memchr(spec, '/', len) || memchr(spec, '.', len))
		return -EINVAL;
	if (!dir)
		return -ENOENT;
	if (sysfile__line(text, sizeof(text), "%s/events/%.*s/%.*s/id", dir,
			  (int)(colon - spec), spec, (int)(spec + len - colon - 1), colon + 1) ||
	    text[0] < '0' || text[0] > '9')
		return -ENOENT;
	*id = strtoull(text, NULL, 10);
	return 0;
}

struct blob {
	unsigned char *p;
	size_t len, cap;
	int err;
};

static void put(struct blob *b, const void *p, size_t n)
{
	if (b->err)
		return;
	if (array__grow(&b->p, &b->cap, b->len + n, 1, 8192)) {
		b->err = -ENOMEM;
		return;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
}

static void put_u32(struct blob *b, uint32_t v) { put(b, &v, 4); }
static void put_u64(struct blob *b, uint64_t v) { put(b, &v, 8); }

/* tracefs file REL (relative to its directory) with its size first, as a u32 or a u64 */
static void put_file(struct blob *b, const char *rel, bool size64)
{
	char path[PATH_MAX];
	unsigned char *text;
	size_t n;
	int err;

	if (b->err)
		return;
	snprintf(path, sizeof(path), "%s/%s", tracefs_dir(), rel);
	if ((err = sysfile__read(path, &text, &n))) {
		b->err = err;
		return;
	}
	if (size64)
		put_u64(b, n);
	else
		put_u32(b, (uint32_t)n);
	put(b, text, n);
	free(text);
}

/* The system of name (up to its ':'), len bytes. */
static size_t sys_len(const char *name)
{
	return strcspn(name, ":");
}

/* Whether names[i] came earlier (a tracepoint named twice is written once). */
static bool seen_before(const char *const *names, size_t i)
{
	for (size_t k = 0; k < i; k++)
		if (!strcmp(names[k], names[i]))
			return true;
	return false;
}

/* The formats of the tracepoints of system sys (len bytes) among names */
static void put_system(struct blob *b, const char *const *names, size_t nr, const char *sys,
		       size_t len)
{
	uint32_t count = 0;

	for (size_t i = 0; i < nr; i++)
		count += sys_len(names[i]) == len && !strncmp(names[i], sys, len) &&
			 !seen_before(names, i);
	put_u32(b, count);
	for (size_t i = 0; i < nr; i++) {
		char rel[PATH_MAX];

		if (sys_len(names[i]) != len || strncmp(names[i], sys, len) ||
		    seen_before(names, i))
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s/%s/format", (int)len, sys,
			 names[i] + len + 1);
		put_file(b, rel, true);
	}
}

int record_tracefs__tracing_data(const char *const *names, size_t nr, unsigned char **out,
				 size_t *len)
{
	static const unsigned char magic[] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n',
					       'g' };
	const uint16_t one = 1;
	struct blob b = { 0 };
	uint32_t systems = 0;
	unsigned char c;

	if (!tracefs_dir())
		return -ENOENT;
	put(&b, magic, sizeof(magic));
	put(&b, "0.6", 4);
	c = *(const unsigned char *)&one ? 0 : 1;	/* big-endian */
	put(&b, &c, 1);
	c = (unsigned char)sizeof(long);
	put(&b, &c, 1);
	put_u32(&b, (uint32_t)sysconf(_SC_PAGESIZE));
	put(&b, "header_page", sizeof("header_page"));
	put_file(&b, "events/header_page", true);
	put(&b, "header_event", sizeof("header_event"));
	put_file(&b, "events/header_event", true);
	/* the ftrace system's formats, then the other systems' in order of first use */
	put_system(&b, names, nr, "ftrace", 6);
	for (size_t i = 0; i < nr; i++) {
		bool first = true;

		for (size_t k = 0; k < i && first; k++)
			first = sys_len(names[k]) != sys_len(names[i]) ||
				strncmp(names[k], names[i], sys_len(names[i]));
		systems += first && strncmp(names[i], "ftrace:", 7);
	}
	put_u32(&b, systems);
	for (size_t i = 0; i < nr; i++) {
		size_t sl = sys_len(names[i]);
		bool first = true;

		for (size_t k = 0; k < i && first; k++)
			first = sys_len(names[k]) != sl || strncmp(names[k], names[i], sl);
		if (!first || !strncmp(names[i], "ftrace:", 7))
			continue;
		put(&b, names[i], sl);
		put(&b, "", 1);
		put_system(&b, names, nr, names[i], sl);
	}
	put_u32(&b, 0);	/* kallsyms: none, as perf 6.1 */
	put_file(&b, "printk_formats", false);
	put_file(&b, "saved_cmdlines", true);
	if (b.err) {
		free(b.p);
		return b.err;
	}
	*out = b.p;
	*len = b.len;
	return 0;
}
