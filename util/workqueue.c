#include "util/workqueue.h"

#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>	/* calloc, free */
#include <unistd.h>	/* sysconf */

#include "banned.h"

struct work {
	workqueue_fn fn;
	void *arg;
	struct wq_group *group;	/* NULL, or the group it counts in */
	struct work *next;
};

struct workqueue {
	pthread_mutex_t lock;
	pthread_cond_t more;	/* signalled when work is queued or on stop */
	pthread_cond_t idle;	/* signalled when pending drops to 0 */
	pthread_cond_t done;	/* signalled when a group's last item is done */
	struct work *head, *tail;
	size_t pending;		/* queued + running */
	bool stop;
	unsigned nr;
	pthread_t *threads;
};

static void *worker(void *p)
{
	struct workqueue *wq = p;

	(void)pthread_setname_np(pthread_self(), "dr-worker");	/* for perf, top, gdb */
	pthread_mutex_lock(&wq->lock);
	for (;;) {
		struct work *w;

		while (!wq->head && !wq->stop)
			pthread_cond_wait(&wq->more, &wq->lock);
		if (!wq->head)
			break;
		w = wq->head;
		wq->head = w->next;
		if (!wq->head)
			wq->tail = NULL;
		pthread_mutex_unlock(&wq->lock);
		w->fn(w->arg);
		pthread_mutex_lock(&wq->lock);
		if (w->group && --w->group->left == 0)
			pthread_cond_broadcast(&wq->done);
		if (--wq->pending == 0)
			pthread_cond_broadcast(&wq->idle);
		free(w);
	}
	pthread_mutex_unlock(&wq->lock);
	return NULL;
}

int workqueue__new(struct workqueue **out, unsigned nr_workers)
{
	struct workqueue *wq = calloc(1, sizeof(*wq));
	int err;

	*out = NULL;
	if (!wq)
		return -ENOMEM;
	pthread_mutex_init(&wq->lock, NULL);
	pthread_cond_init(&wq->more, NULL);
	pthread_cond_init(&wq->idle, NULL);
	pthread_cond_init(&wq->done, NULL);
	if (nr_workers) {
		wq->threads = calloc(nr_workers, sizeof(*wq->threads));
		if (!wq->threads) {
			workqueue__delete(wq);
			return -ENOMEM;
		}
	}
	for (unsigned i = 0; i < nr_workers; i++) {
		err = pthread_create(&wq->threads[i], NULL, worker, wq);
		if (err) {
			workqueue__delete(wq);
			return -err;
		}
		wq->nr++;
	}
	*out = wq;
	return 0;
}

void workqueue__delete(struct workqueue *wq)
{
	if (!wq)
		return;
	pthread_mutex_lock(&wq->lock);
	wq->stop = true;
	pthread_cond_broadcast(&wq->more);
	pthread_mutex_unlock(&wq->lock);
	for (unsigned i = 0; i < wq->nr; i++)
		pthread_join(wq->threads[i], NULL);
	free(wq->threads);
	pthread_cond_destroy(&wq->done);
	pthread_cond_destroy(&wq->idle);
	pthread_cond_destroy(&wq->more);
	pthread_mutex_destroy(&wq->lock);
	free(wq);
}

static int enqueue(struct workqueue *wq, struct wq_group *g, workqueue_fn fn, void *arg)
{
	struct work *w;

	if (!wq->nr) {
		fn(arg);
		return 0;
	}
	w = calloc(1, sizeof(*w));
	if (!w)
		return -ENOMEM;
	w->fn = fn;
	w->arg = arg;
	w->group = g;
	pthread_mutex_lock(&wq->lock);
	if (wq->tail)
		wq->tail->next = w;
	else
		wq->head = w;
	wq->tail = w;
	wq->pending++;
	if (g)
		g->left++;
	pthread_cond_signal(&wq->more);
	/* whoever waits for the parent group runs the item too (group_wait) */
	if (g && g->parent)
		pthread_cond_broadcast(&wq->done);
	pthread_mutex_unlock(&wq->lock);
	return 0;
}

int workqueue__queue(struct workqueue *wq, workqueue_fn fn, void *arg)
{
	return enqueue(wq, NULL, fn, arg);
}

int workqueue__queue_group(struct workqueue *wq, struct wq_group *g, workqueue_fn fn,
			   void *arg)
{
	return enqueue(wq, g, fn, arg);
}

/* The first item of g, or of a group whose parent g is, that no worker has taken
 * yet, off the queue; NULL if none.  Under the lock. */
static struct work *take_from_group(struct workqueue *wq, struct wq_group *g)
{
	struct work *prev = NULL;

	for (struct work *w = wq->head; w; prev = w, w = w->next) {
		if (!w->group || (w->group != g && w->group->parent != g))
			continue;
		if (prev)
			prev->next = w->next;
		else
			wq->head = w->next;
		if (wq->tail == w)
			wq->tail = prev;
		return w;
	}
	return NULL;
}

void workqueue__group_wait(struct workqueue *wq, struct wq_group *g)
{
	struct work *w;

	if (!wq->nr)
		return;
	/* the group's items no worker has taken yet are run here, one at a time in
	 * queue order, so that workers that become free take the others; and so are
	 * those its running items queue in groups of their own (children of g) */
	pthread_mutex_lock(&wq->lock);
	for (;;) {
		while ((w = take_from_group(wq, g))) {
			struct wq_group *wg = w->group;

			pthread_mutex_unlock(&wq->lock);
			w->fn(w->arg);
			free(w);
			pthread_mutex_lock(&wq->lock);
			if (--wg->left == 0 && wg != g)
				pthread_cond_broadcast(&wq->done);
			if (--wq->pending == 0)
				pthread_cond_broadcast(&wq->idle);
		}
		if (!g->left)
			break;
		pthread_cond_wait(&wq->done, &wq->lock);
	}
	pthread_mutex_unlock(&wq->lock);
}

void workqueue__flush(struct workqueue *wq)
{
	pthread_mutex_lock(&wq->lock);
	while (wq->pending)
		pthread_cond_wait(&wq->idle, &wq->lock);
	pthread_mutex_unlock(&wq->lock);
}

unsigned workqueue__nr_workers(const struct workqueue *wq)
{
	return wq->nr;
}

struct pfor {
	void (*fn)(void *ctx, size_t i);
	void *ctx;
	size_t n;
	atomic_size_t next;
};

/* Each runner claims indexes until none are left. */
static void pfor_run(void *p)
{
	struct pfor *pf = p;
	size_t i;

	while ((i = atomic_fetch_add(&pf->next, 1)) < pf->n)
		pf->fn(pf->ctx, i);
}

int parallel_for(struct workqueue *wq, size_t n, void (*fn)(void *ctx, size_t i),
		 void *ctx)
{
	struct pfor pf = { .fn = fn, .ctx = ctx, .n = n };
	struct wq_group g = { 0 };
	unsigned helpers;
	int err = 0;

	atomic_init(&pf.next, 0);
	if (!wq || !wq->nr || n < 2) {
		for (size_t i = 0; i < n; i++)
			fn(ctx, i);
		return 0;
	}
	/* The caller is one runner; at most n-1 workers help it. */
	helpers = wq->nr < n - 1 ? wq->nr : (unsigned)(n - 1);
	for (unsigned k = 0; k < helpers && !err; k++)
		err = workqueue__queue_group(wq, &g, pfor_run, &pf);
	pfor_run(&pf);
	/* helpers still queued (behind other work) find nothing left: they are run
	 * here at once, so other queued work does not hold this loop up */
	workqueue__group_wait(wq, &g);
	return err;
}

unsigned workqueue__online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 0 ? (unsigned)n : 1;
}
