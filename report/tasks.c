/*
 * tasks - the --tasks tree (see tasks.h).
 */
#include "report/tasks.h"

#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>

#include "machine/machine.h"
#include "util/array.h"
#include "banned.h"

int task_ppids__set(struct task_ppids *p, const struct thread *t, int32_t ppid)
{
	for (size_t i = 0; i < p->nr; i++) {
		if (p->thread[i] == t) {
			p->ppid[i] = ppid;
			return 0;
		}
	}
	if (array__grow(&p->thread, &p->cap, p->nr + 1, sizeof(*p->thread), 64) ||
	    array__grow(&p->ppid, &p->cap_ppid, p->nr + 1, sizeof(*p->ppid), 64))
		return -ENOMEM;
	p->thread[p->nr] = t;
	p->ppid[p->nr++] = ppid;
	return 0;
}

void task_ppids__exit(struct task_ppids *p)
{
	free(p->thread);
	free(p->ppid);
	p->thread = NULL;
	p->ppid = NULL;
	p->nr = p->cap = 0;
}

int task_mmaps__add(struct task_mmaps *mm, const struct task_mmap *m)
{
	if (array__grow(&mm->v, &mm->cap, mm->nr + 1, sizeof(*mm->v), 64))
		return -ENOMEM;
	mm->v[mm->nr++] = *m;
	return 0;
}

void task_mmaps__exit(struct task_mmaps *mm)
{
	free(mm->v);
	mm->v = NULL;
	mm->nr = mm->cap = 0;
}

/* The newest record whose map holds this piece of it (maps split when newer maps
 * overlap them, their offsets kept). */
static const struct task_mmap *record_of(const struct task_mmaps *mm, const struct map *p)
{
	for (size_t i = mm->nr; i-- > 0;) {
		const struct task_mmap *r = &mm->v[i];

		if (r->dso == p->dso && p->start >= r->start && p->end <= r->end &&
		    p->pgoff - p->start == r->rel)
			return r;
	}
	return NULL;
}

static void print_maps(const struct maps *maps, const struct task_mmaps *mm, int indent,
		       FILE *out)
{
	static const struct task_mmap none = { 0 };

	for (size_t i = 0; maps && i < maps->nr; i++) {
		const struct map *p = &maps->v[i];
		const struct task_mmap *r = record_of(mm, p);

		if (!r)
			r = &none;
		fprintf(out, "%*s  %" PRIx64 "-%" PRIx64 " %c%c%c%c %08" PRIx64 " %" PRIu64
			" %s\n", indent, "", p->start, p->end,
			r->prot & 1 ? 'r' : '-', r->prot & 2 ? 'w' : '-',
			r->prot & 4 ? 'x' : '-', r->flags & 1 ? 's' : 'p',
			r == &none ? p->pgoff : r->pgoff + (p->start - r->start), r->ino,
			dso__long_name(p->dso));
	}
}

struct task {
	struct thread *thread;
	int32_t ppid;
	bool listed;		/* in the roots or some task's children */
	size_t *children;	/* owned: indexes, in the order perf links them */
	size_t nr_children, cap_children;
};

/* perf's thread table order: bucket tid % 256, then tid. */
static int task_cmp(const void *pa, const void *pb)
{
	const struct thread *a = *(struct thread *const *)pa;
	const struct thread *b = *(struct thread *const *)pb;
	unsigned ba = (unsigned)a->tid % 256, bb = (unsigned)b->tid % 256;

	if (ba != bb)
		return ba < bb ? -1 : 1;
	return a->tid < b->tid ? -1 : a->tid > b->tid;
}

static long find_tid(const struct task *t, size_t n, int32_t tid)
{
	for (size_t i = 0; i < n; i++)
		if (t[i].thread->tid == tid)
			return (long)i;
	return -1;
}

/* perf's tasks_list(): link @p i under its ancestors; the root to list, -1 for none,
 * -2 on error. */
static long tasks_list(struct task *t, size_t n, size_t i)
{
	for (size_t depth = 0; depth <= n; depth++) {
		long parent;
		struct task *pt;

		if (t[i].listed)
			return -1;
		if (t[i].ppid == -1)
			return (long)i;
		parent = find_tid(t, n, t[i].ppid);
		if (parent < 0)
			return -2;
		pt = &t[parent];
		if (array__grow(&pt->children, &pt->cap_children, pt->nr_children + 1,
				sizeof(*pt->children), 4))
			return -3;
		pt->children[pt->nr_children++] = i;
		t[i].listed = true;
		i = (size_t)parent;
	}
	return -1;	/* a cycle: perf would not end */
}

static void print_level(struct machine *m, const struct task_mmaps *mm,
			const struct task *t, size_t i, int level, FILE *out)
{
	int indent;

	struct thread *th = t[i].thread;
	const char *comm = thread__comm(th);

	if (!comm) {	/* the default name (":<tid>", "swapper"), made on demand */
		const struct comm *c = machine__thread_comm(m, th);

		comm = c ? c->str : "";
	}
	indent = fprintf(out, "  %8d %8d %8d |%*s", th->pid, th->tid, t[i].ppid, level, "");
	fprintf(out, "%s\n", comm);
	if (mm)
		print_maps(th->maps, mm, indent, out);
	for (size_t c = 0; c < t[i].nr_children && level < 1000; c++)
		print_level(m, mm, t, t[i].children[c], level + 1, out);
}

int tasks__fprintf(struct machine *m, const struct task_ppids *p,
		   const struct task_mmaps *mm, FILE *out)
{
	size_t n = machine__threads(m, NULL, 0), nr_roots = 0;
	struct thread **threads = malloc((n ? n : 1) * sizeof(*threads));
	struct task *t = calloc(n ? n : 1, sizeof(*t));
	size_t *roots = malloc((n ? n : 1) * sizeof(*roots));
	int err = 0;

	if (!threads || !t || !roots) {
		err = -ENOMEM;
		goto out;
	}
	machine__threads(m, threads, n);
	qsort(threads, n, sizeof(*threads), task_cmp);
	for (size_t i = 0; i < n; i++) {
		t[i].thread = threads[i];
		t[i].ppid = -1;
		for (size_t k = 0; k < p->nr; k++)
			if (p->thread[k] == threads[i])
				t[i].ppid = p->ppid[k];
	}
	for (size_t i = 0; i < n && !err; i++) {
		long r;

		if (t[i].listed)
			continue;
		r = tasks_list(t, n, i);
		if (r == -2)
			err = -ENOENT;
		else if (r == -3)
			err = -ENOMEM;
		else if (r >= 0) {
			roots[nr_roots++] = (size_t)r;
			t[r].listed = true;
		}
	}
	if (!err) {
		fprintf(out, "# %8s %8s %8s  %s\n", "pid", "tid", "ppid", "comm");
		for (size_t i = 0; i < nr_roots; i++)
			print_level(m, mm, t, roots[i], 0, out);
	}
out:
	for (size_t i = 0; t && i < n; i++)
		free(t[i].children);
	free(t);
	free(threads);
	free(roots);
	return err;
}
