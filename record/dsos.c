/*
 * dsos - the mapped files the samples fell in (record/dsos.h).
 */
#include "record/dsos.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "format/feature.h"	/* struct feat_build_id */
#include "format/record.h"	/* MISC_KERNEL, MISC_USER */
#include "record/features.h"

#include "banned.h"

#define NR_BUCKETS 4096

struct map {
	uint64_t start, end;
	uint32_t file;
};

struct proc {
	int32_t pid;
	struct map *maps;
	size_t nr, cap;
	struct proc *next;
};

struct file {
	char *name;
	bool hit, kernel;
	uint32_t next;	/* chain of the name's bucket; UINT32_MAX ends it */
};

struct record_dsos {
	struct proc *procs[NR_BUCKETS];
	struct file *files;
	size_t nr_files, cap_files;
	uint32_t file_bucket[NR_BUCKETS];
};

int record_dsos__new(struct record_dsos **out)
{
	struct record_dsos *t = calloc(1, sizeof(*t));

	if (!t)
		return -ENOMEM;
	memset(t->file_bucket, 0xff, sizeof(t->file_bucket));
	*out = t;
	return 0;
}

void record_dsos__delete(struct record_dsos *t)
{
	if (!t)
		return;
	for (size_t b = 0; b < NR_BUCKETS; b++)
		for (struct proc *p = t->procs[b], *n; p; p = n) {
			n = p->next;
			free(p->maps);
			free(p);
		}
	for (size_t i = 0; i < t->nr_files; i++)
		free(t->files[i].name);
	free(t->files);
	free(t);
}

static size_t pid_bucket(int32_t pid)
{
	return ((uint32_t)pid * 2654435761u) % NR_BUCKETS;
}

static struct proc *proc_get(struct record_dsos *t, int32_t pid, bool create)
{
	size_t b = pid_bucket(pid);
	struct proc *p;

	for (p = t->procs[b]; p; p = p->next)
		if (p->pid == pid)
			return p;
	if (!create)
		return NULL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return NULL;
	p->pid = pid;
	p->next = t->procs[b];
	t->procs[b] = p;
	return p;
}

static int proc_add(struct proc *p, const struct map *m)
{
	if (p->nr == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 16;
		struct map *g = realloc(p->maps, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		p->maps = g;
		p->cap = cap;
	}
	p->maps[p->nr++] = *m;
	return 0;
}

/* the file's index, interned */
static int file_index(struct record_dsos *t, const char *name, size_t len, uint32_t *idx)
{
	uint32_t h = 5381, b;
	char *copy;

	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned char)name[i];
	b = h % NR_BUCKETS;
	for (uint32_t i = t->file_bucket[b]; i != UINT32_MAX; i = t->files[i].next)
		if (strlen(t->files[i].name) == len && !memcmp(t->files[i].name, name, len)) {
			*idx = i;
			return 0;
		}
	if (t->nr_files == t->cap_files) {
		size_t cap = t->cap_files ? 2 * t->cap_files : 64;
		struct file *g = realloc(t->files, cap * sizeof(*g));

		if (!g)
			return -ENOMEM;
		t->files = g;
		t->cap_files = cap;
	}
	copy = strndup(name, len);
	if (!copy)
		return -ENOMEM;
	t->files[t->nr_files] = (struct file){ .name = copy, .next = t->file_bucket[b] };
	t->file_bucket[b] = (uint32_t)t->nr_files;
	*idx = (uint32_t)t->nr_files++;
	return 0;
}

int record_dsos__mmap(struct record_dsos *t, int32_t pid, uint64_t start, uint64_t len,
		      const char *name, size_t name_len)
{
	struct proc *p = proc_get(t, pid, true);
	struct map m = { .start = start, .end = start + len };
	int err;

	if (!p)
		return -ENOMEM;
	err = file_index(t, name, name_len, &m.file);
	if (err)
		return err;
	if (pid == -1)
		t->files[m.file].kernel = true;
	return proc_add(p, &m);
}

int record_dsos__fork(struct record_dsos *t, int32_t child, int32_t parent)
{
	struct proc *pp = proc_get(t, parent, false), *c;

	if (!pp || child == parent)
		return 0;
	c = proc_get(t, child, true);
	if (!c)
		return -ENOMEM;
	pp = proc_get(t, parent, false);	/* unchanged: creation only prepends */
	c->nr = 0;
	for (size_t i = 0; i < pp->nr; i++)
		if (proc_add(c, &pp->maps[i]))
			return -ENOMEM;
	return 0;
}

void record_dsos__exec(struct record_dsos *t, int32_t pid)
{
	struct proc *p = proc_get(t, pid, false);

	if (p)
		p->nr = 0;
}

bool record_dsos__hit(struct record_dsos *t, int32_t pid, uint64_t ip, bool kernel,
		      uint64_t *start, uint64_t *end)
{
	struct proc *p = proc_get(t, kernel ? -1 : pid, false);

	if (!p)
		return false;
	for (size_t i = p->nr; i-- > 0;)
		if (ip >= p->maps[i].start && ip < p->maps[i].end) {
			t->files[p->maps[i].file].hit = true;
			*start = p->maps[i].start;
			*end = p->maps[i].end;
			return true;
		}
	return false;
}

void record_dsos__free_build_ids(struct feat_build_id *ids, size_t nr)
{
	for (size_t i = 0; ids && i < nr; i++)
		free(ids[i].filename);
	free(ids);
}

int record_dsos__build_ids(struct record_dsos *t, struct feat_build_id **out, size_t *nr)
{
	struct feat_build_id *ids = calloc(t->nr_files + 1, sizeof(*ids));
	size_t n = 0;

	if (!ids)
		return -ENOMEM;
	if (!record_features__kernel_build_id(ids[0].build_id, &ids[0].size)) {
		ids[0].pid = -1;
		ids[0].misc = MISC_KERNEL;
		ids[0].filename = strdup("[kernel.kallsyms]");
		if (!ids[0].filename)
			goto nomem;
		n = 1;
	}
	for (size_t i = 0; i < t->nr_files; i++) {
		const struct file *f = &t->files[i];
		struct feat_build_id *e = &ids[n];

		if (!f->hit || f->name[0] != '/')
			continue;
		if (record_features__file_build_id(f->name, e->build_id, &e->size))
			continue;
		e->pid = -1;
		e->misc = f->kernel ? MISC_KERNEL : MISC_USER;
		e->filename = strdup(f->name);
		if (!e->filename)
			goto nomem;
		n++;
	}
	*out = ids;
	*nr = n;
	return 0;
nomem:
	record_dsos__free_build_ids(ids, n);
	return -ENOMEM;
}
