#ifndef DIRREPORT_READER_WORKQUEUE_H
#define DIRREPORT_READER_WORKQUEUE_H
/*
 * workqueue - a small fixed pool of worker threads with a FIFO of work items.
 *
 * Invariants: items run exactly once, in an unspecified order and on an unspecified
 * worker; workqueue__flush() returns when every item queued before it has finished.
 * A pool of 0 workers runs each item inline in workqueue__queue() (used for -j 1 so
 * the single-threaded path has no threads at all).
 *
 * Thread safety: model (c) of the style guide: the pool's own lock protects its queue.
 * queue/flush may be called from one controlling thread; work functions must not call
 * back into the same workqueue.
 *
 * Groups: items queued in a struct wq_group can be waited for alone
 * (workqueue__group_wait()), so a caller can start work early (a dso's files read
 * while the recording is still being replayed) and wait for exactly that work later,
 * while other items stay queued; parallel_for() waits on a group of its own, so work
 * queued before it does not hold it up.
 */
#include <stddef.h>

struct workqueue;

typedef void (*workqueue_fn)(void *arg);

/**
 * @brief Start a pool.
 * @param out         the pool (owned by the caller; free with workqueue__delete)
 * @param nr_workers  threads to start; 0 = run work inline
 * @return 0, -ENOMEM, or -errno from pthread_create (threads already started are
 *         joined before returning).
 */
int workqueue__new(struct workqueue **out, unsigned nr_workers);

/** @brief Finish all queued work, stop the threads and free the pool. NULL is a no-op. */
void workqueue__delete(struct workqueue *wq);

/**
 * @brief Queue fn(arg).
 * @return 0 or -ENOMEM (then fn was not queued).
 */
int workqueue__queue(struct workqueue *wq, workqueue_fn fn, void *arg);

/** Items queued together and waited for together.  Zero-initialise; the counter
 *  is the pool's (read and written under its lock).  A running item may split its
 *  work into a group of its own whose parent is the item's group: whoever waits for
 *  the parent runs those items too (a worker reading a file queues the parsing of
 *  its blocks; the thread that waits for the reading helps parse). */
struct wq_group {
	size_t left;		/* items queued or running */
	struct wq_group *parent;	/* NULL, or the group of the item that queues
					 * this group's items (set before the first) */
};

/**
 * @brief Queue fn(arg) as an item of group @p g (on an inline pool: run it now).
 * @return 0 or -ENOMEM (then fn was not queued).
 * Thread safety: the controlling thread, or an item of @p g's parent group
 *         queueing into @p g; @p g must live until workqueue__group_wait() on it
 *         returns.
 */
int workqueue__queue_group(struct workqueue *wq, struct wq_group *g, workqueue_fn fn,
			   void *arg);

/**
 * @brief Wait until every item of @p g has run: those no worker has started yet
 *        are taken off the queue and run on the calling thread (in queue order),
 *        then the running ones are waited for; items of @p g's children groups
 *        queued meanwhile are run here as well.  Other items stay queued.
 *        Afterwards the items' effects are visible to the caller (the pool's lock
 *        orders them), and @p g may be reused or freed.
 * Thread safety: the controlling thread, or an item waiting for a group of its
 *        own (a child of its group) - never for a group one of its waiters runs.
 */
void workqueue__group_wait(struct workqueue *wq, struct wq_group *g);

/** @brief Wait until every item queued so far has run. */
void workqueue__flush(struct workqueue *wq);

/** @brief Number of worker threads (0 for an inline pool). */
unsigned workqueue__nr_workers(const struct workqueue *wq);

/**
 * @brief Run fn(ctx, i) for i in [0, n) on the pool and wait for all of them.
 *        The calling thread takes items too, so k workers run up to k+1 at once; an
 *        inline pool (0 workers) runs them in index order on the caller.  Items
 *        queued on the pool before the call may still be running or queued when it
 *        returns (it waits only for its own).
 * @return 0 or -ENOMEM. Thread safety: fn must be safe to run concurrently for
 *         different i.
 */
int parallel_for(struct workqueue *wq, size_t n, void (*fn)(void *ctx, size_t i),
		 void *ctx);

/** Online CPUs, at least 1: the default number of jobs. */
unsigned workqueue__online_cpus(void);

#endif
