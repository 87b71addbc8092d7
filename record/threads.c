/*
 * threads - --threads: the masks (record/threads.h), the reader threads and snapshot
 * mode's drains (record/recorder.h: recorder__start(), recorder__snapshot()).
 */
#include "record/threads.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "format/record.h"
#include "format/sample.h"
#include "record/recorder-internal.h"
#include "record/target.h"
#include "util/array.h"
#include "banned.h"

/* ---- masks --------------------------------------------------------------------- */

/* the cpu list naming cpu's group for a named spec (its file's first line), in buf */
static int group_of(const char *spec, int cpu, char *buf, size_t len)
{
	static const char *const core[] = { "core_cpus_list", "thread_siblings_list" };
	static const char *const pkg[] = { "package_cpus_list", "core_siblings_list" };
	const char *const *names = !strcmp(spec, "core") ? core : pkg;
	char path[256];
	FILE *f = NULL;

	if (!strcmp(spec, "numa")) {
		/* the node whose cpulist holds it; one node where there are none */
		for (int node = 0; node < 4096; node++) {
			int *c;
			size_t n;

			snprintf(path, sizeof(path), "/sys/devices/system/node/node%d/cpulist",
				 node);
			f = fopen(path, "re");
			if (!f) {
				if (node == 0)
					break;
				continue;
			}
			if (!fgets(buf, (int)len, f))
				buf[0] = 0;
			fclose(f);
			if (record_target__cpus(buf, &c, &n))
				continue;
			for (size_t i = 0; i < n; i++)
				if (c[i] == cpu) {
					free(c);
					return 0;
				}
			free(c);
			if (node > 255)
				break;
		}
		snprintf(buf, len, "numa");	/* no node knows it: all in one */
		return 0;
	}
	for (int k = 0; k < 2 && !f; k++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/topology/%s", cpu,
			 names[k]);
		f = fopen(path, "re");
	}
	if (!f) {
		snprintf(buf, len, "%d", cpu);	/* no topology: a group of its own */
		return 0;
	}
	if (!fgets(buf, (int)len, f))
		snprintf(buf, len, "%d", cpu);
	fclose(f);
	return 0;
}

static int index_of(const int *cpus, size_t nr, int cpu)
{
	for (size_t i = 0; i < nr; i++)
		if (cpus[i] == cpu)
			return (int)i;
	return -1;
}

/* the named specs: cpus with the same group line share a thread */
static int named_masks(const char *spec, const int *cpus, size_t nr_cpus,
		       unsigned *thread_of, cpu_set_t *aff, size_t *nr_threads)
{
	char (*groups)[1024] = calloc(nr_cpus, sizeof(*groups));
	size_t n = 0;

	if (!groups)
		return -ENOMEM;
	for (size_t i = 0; i < nr_cpus; i++) {
		size_t t;

		if (!strcmp(spec, "cpu"))
			snprintf(groups[i], sizeof(groups[i]), "%d", cpus[i]);
		else
			group_of(spec, cpus[i], groups[i], sizeof(groups[i]));
		for (t = 0; t < i; t++)
			if (!strcmp(groups[t], groups[i]))
				break;
		if (t < i) {
			thread_of[i] = thread_of[t];
		} else {
			thread_of[i] = (unsigned)n;
			CPU_ZERO(&aff[n]);
			n++;
		}
		CPU_SET(cpus[i], &aff[thread_of[i]]);
	}
	free(groups);
	*nr_threads = n;
	return 0;
}

/* CPUS/AFFINITY:... */
static int user_masks(const char *spec, const int *cpus, size_t nr_cpus,
		      unsigned *thread_of, cpu_set_t *aff, size_t *nr_threads, char *err,
		      size_t len)
{
	char *copy = strdup(spec), *p = copy;
	size_t n = 0;
	int rc = 0;

	if (!copy)
		return -ENOMEM;
	for (size_t i = 0; i < nr_cpus; i++)
		thread_of[i] = (unsigned)-1;
	while (p && !rc) {
		char *next = strchr(p, ':'), *slash;
		int *mc, *ac;
		size_t nm, na, used = 0;

		if (next)
			*next++ = 0;
		slash = strchr(p, '/');
		if (slash)
			*slash++ = 0;
		if (record_target__cpus(p, &mc, &nm)) {
			snprintf(err, len, "--threads: '%s' is not a cpu list", p);
			rc = -EINVAL;
			break;
		}
		if (record_target__cpus(slash ? slash : p, &ac, &na)) {
			free(mc);
			snprintf(err, len, "--threads: '%s' is not a cpu list", slash);
			rc = -EINVAL;
			break;
		}
		CPU_ZERO(&aff[n]);
		for (size_t k = 0; k < na; k++)
			if (ac[k] < CPU_SETSIZE)
				CPU_SET(ac[k], &aff[n]);
		for (size_t k = 0; k < nm; k++) {
			int i = index_of(cpus, nr_cpus, mc[k]);

			if (i < 0)
				continue;	/* not recorded: ignored, as perf */
			if (thread_of[i] != (unsigned)-1) {
				snprintf(err, len, "--threads: cpu %d is in two masks", mc[k]);
				rc = -EINVAL;
			}
			thread_of[i] = (unsigned)n;
			used++;
		}
		free(mc);
		free(ac);
		if (!rc && !used) {
			snprintf(err, len, "--threads: mask %zu has no recorded cpu", n + 1);
			rc = -EINVAL;
		}
		n++;
		p = next;
	}
	for (size_t i = 0; !rc && i < nr_cpus; i++)
		if (thread_of[i] == (unsigned)-1) {
			snprintf(err, len, "--threads: cpu %d is in no mask", cpus[i]);
			rc = -EINVAL;
		}
	free(copy);
	*nr_threads = n;
	return rc;
}

int record_threads__masks(const char *spec, const int *cpus, size_t nr_cpus,
			  unsigned **thread_of, cpu_set_t **affinity, size_t *nr_threads,
			  char *err, size_t len)
{
	unsigned *to = calloc(nr_cpus ? nr_cpus : 1, sizeof(*to));
	cpu_set_t *aff = NULL;
	size_t max = nr_cpus ? nr_cpus : 1;
	int rc;

	if (!spec || !*spec)
		spec = "cpu";
	if (strcmp(spec, "cpu") && strcmp(spec, "core") && strcmp(spec, "package") &&
	    strcmp(spec, "numa")) {
		/* as many masks as colons + 1 */
		max = 1;
		for (const char *c = spec; *c; c++)
			max += *c == ':';
	}
	aff = calloc(max, sizeof(*aff));
	if (!to || !aff) {
		free(to);
		free(aff);
		return -ENOMEM;
	}
	if (!strcmp(spec, "cpu") || !strcmp(spec, "core") || !strcmp(spec, "package") ||
	    !strcmp(spec, "numa"))
		rc = named_masks(spec, cpus, nr_cpus, to, aff, nr_threads);
	else
		rc = user_masks(spec, cpus, nr_cpus, to, aff, nr_threads, err, len);
	if (rc) {
		free(to);
		free(aff);
		return rc;
	}
	*thread_of = to;
	*affinity = aff;
	return 0;
}

/* ---- the reader threads -------------------------------------------------------- */

/* a snapshot request: each ring's kept samples into its own file (one ring's records
 * are in time order already) */
static int drain_rings(struct recorder *r, const size_t *rings, size_t nr,
		       struct diag *d)
{
	int err = 0;

	for (size_t k = 0; !err && k < nr; k++) {
		struct rring *rr = &r->rings[rings[k]];

		if (rr->base)
			err = snapshot__drain(&rr->snap, recorder__emit_now, &rr->em);
		if (err)
			recorder__writer_error(r, rr->em.stream, err, d);
	}
	return err;
}

static void *reader_main(void *arg)
{
	struct rthread *t = arg;
	struct recorder *r = t->r;
	int err = 0;

	for (;;) {
		bool stop = atomic_load(&r->stop);
		unsigned req = atomic_load(&r->snap_req);
		uint64_t bytes;

		err = recorder__read_rings(r, t->rings, t->nr_rings, &bytes, &t->d);
		if (!err && req != t->snap_seen) {
			t->snap_seen = req;
			err = drain_rings(r, t->rings, t->nr_rings, &t->d);
		}
		if (err || stop)
			break;
		/* a large read: more is likely there already; a small one: wait for
		 * the kernel's wakeup (perf's watermark, half a ring) rather than read
		 * (and write) a few records at a time */
		if (bytes >= t->reread)
			continue;
		if (t->hup) {
			poll(NULL, 0, 100);
			continue;
		}
		if (poll(t->pfds, t->nr_rings, 100) > 0) {
			size_t hup = 0, n = 0;

			for (size_t k = 0; k < t->nr_rings; k++) {
				if (t->pfds[k].fd < 0)
					continue;
				n++;
				hup += !!(t->pfds[k].revents & (POLLHUP | POLLERR));
			}
			if (n && hup == n) {
				t->hup = true;
				atomic_fetch_add(&r->nr_hup, 1);
			}
		}
	}
	if (err) {
		t->err = err;
		atomic_store(&r->failed, 1);
	}
	return NULL;
}

int recorder__start(struct recorder *r, struct diag *d)
{
	sigset_t all, old;
	int err = 0;

	if (!r->nr_threads)
		return 0;
	r->threaded = true;
	/* the readers take no signals: they stay the main thread's */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	for (size_t i = 0; i < r->nr_threads && !err; i++) {
		struct rthread *t = &r->threads[i];
		pthread_attr_t at;

		size_t live = 0;

		t->d = (struct diag){ .offset = DIAG_NO_OFFSET };
		t->reread = UINT64_MAX;
		for (size_t k = 0; k < t->nr_rings; k++) {
			const struct rring *rr = &r->rings[t->rings[k]];

			t->pfds[k] = r->pfds[t->rings[k]];
			live += t->pfds[k].fd >= 0;
			/* a quarter of its smallest ring */
			if (rr->base && rr->ring.size / 4 < t->reread)
				t->reread = rr->ring.size / 4;
		}
		if (t->reread == 0)
			t->reread = 1;
		if (!live) {
			t->hup = true;	/* nothing to read */
			atomic_fetch_add(&r->nr_hup, 1);
		}
		err = -pthread_attr_init(&at);
		if (!err && t->has_affinity)
			pthread_attr_setaffinity_np(&at, sizeof(t->affinity), &t->affinity);
		if (!err) {
			err = -pthread_create(&t->th, &at, reader_main, t);
			pthread_attr_destroy(&at);
		}
		t->started = !err;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		diag__set(d, "", DIAG_NO_OFFSET, err, "cannot start a reader thread: %s",
			  strerror(-err));
	return err;
}

int recorder__threads_stop(struct recorder *r, struct diag *d)
{
	int err = 0;

	if (!r->threaded)
		return 0;
	atomic_store(&r->stop, true);
	for (size_t i = 0; i < r->nr_threads; i++) {
		struct rthread *t = &r->threads[i];

		if (!t->started)
			continue;
		pthread_join(t->th, NULL);
		t->started = false;
		if (t->err && !err) {
			err = t->err;
			if (d)
				*d = t->d;
		}
	}
	r->threaded = false;
	return err;
}

/* ---- snapshot mode, one file --------------------------------------------------- */

struct kept {
	uint64_t time;
	size_t off, size;	/* in the collection's buffer */
	size_t ring;
};

struct collection {
	struct recorder *r;
	size_t ring;
	unsigned char *buf;
	size_t len, cap;
	struct kept *v;
	size_t nr, cap_v;
};

static int collect(void *ctx, const void *rec, size_t size)
{
	struct collection *c = ctx;
	struct sample s;

	if (array__grow(&c->buf, &c->cap, c->len + size, 1, 1 << 16) ||
	    array__grow(&c->v, &c->cap_v, c->nr + 1, sizeof(*c->v), 256))
		return -ENOMEM;
	memcpy(c->buf + c->len, rec, size);
	c->v[c->nr] = (struct kept){ .off = c->len, .size = size, .ring = c->ring };
	if (!sample__parse(&s, &c->r->ev[0].attr, rec, size) &&
	    (c->r->ev[0].attr.sample_type & SAMPLE_TIME))
		c->v[c->nr].time = s.time;
	c->nr++;
	c->len += size;
	return 0;
}

static int cmp_kept(const void *a, const void *b)
{
	const struct kept *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	if (x->ring != y->ring)
		return x->ring < y->ring ? -1 : 1;
	return x->off < y->off ? -1 : x->off > y->off;	/* each ring's own order */
}

int recorder__snapshot(struct recorder *r, struct diag *d)
{
	struct collection c = { .r = r };
	uint64_t bytes;
	int err;

	if (!r->o.snapshot_size)
		return 0;
	if (r->threaded) {
		atomic_fetch_add(&r->snap_req, 1);
		return 0;
	}
	err = recorder__read_rings(r, NULL, r->nr_rings, &bytes, d);
	for (size_t i = 0; !err && i < r->nr_rings; i++) {
		c.ring = i;
		if (r->rings[i].base)
			err = snapshot__drain(&r->rings[i].snap, collect, &c);
	}
	if (!err && c.nr)
		qsort(c.v, c.nr, sizeof(*c.v), cmp_kept);
	for (size_t k = 0; !err && k < c.nr; k++)
		err = recorder__emit_now(&r->rings[c.v[k].ring].em, c.buf + c.v[k].off,
					 c.v[k].size);
	if (err)
		recorder__writer_error(r, RECORDER_ANY_STREAM, err, d);
	free(c.buf);
	free(c.v);
	return err;
}
