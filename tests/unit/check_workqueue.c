/* Unit tests of the workqueue and parallel_for. */
#include <check.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>

#include "util/workqueue.h"
#include "banned.h"

static void add_one(void *p)
{
	atomic_fetch_add((atomic_int *)p, 1);
}

static void square(void *ctx, size_t i)
{
	((size_t *)ctx)[i] = i * i;
}

START_TEST(test_workqueue_runs_everything)
{
	for (unsigned workers = 0; workers < 4; workers++) {
		struct workqueue *wq;
		atomic_int n;

		atomic_init(&n, 0);
		ck_assert_int_eq(workqueue__new(&wq, workers), 0);
		ck_assert_uint_eq(workqueue__nr_workers(wq), workers);
		for (int i = 0; i < 1000; i++)
			ck_assert_int_eq(workqueue__queue(wq, add_one, &n), 0);
		workqueue__flush(wq);
		ck_assert_int_eq(atomic_load(&n), 1000);
		workqueue__delete(wq);
	}
	workqueue__delete(NULL);
}
END_TEST

START_TEST(test_parallel_for)
{
	size_t v[5000];
	struct workqueue *wq;

	ck_assert_int_eq(workqueue__new(&wq, 3), 0);
	for (size_t n = 0; n < 5000; n += 997) {
		for (size_t i = 0; i < 5000; i++)
			v[i] = 1;
		ck_assert_int_eq(parallel_for(wq, n, square, v), 0);
		for (size_t i = 0; i < n; i++)
			ck_assert_uint_eq(v[i], i * i);
		if (n < 5000)
			ck_assert_uint_eq(v[n], 1);
	}
	workqueue__delete(wq);
	ck_assert_int_eq(parallel_for(NULL, 10, square, v), 0);
	ck_assert_uint_eq(v[9], 81);
	ck_assert_uint_ge(workqueue__online_cpus(), 1);
}
END_TEST

static void block_until_released(void *p)
{
	atomic_int *gate = p;

	atomic_store(&gate[1], 1);	/* started */
	while (!atomic_load(&gate[0]))
		;
}

/* A group is waited for alone: its items run (on the caller when the only worker is
 * busy) while an earlier item of no group is still running; parallel_for too. */
START_TEST(test_workqueue_group)
{
	struct workqueue *wq;
	struct wq_group g = { 0 };
	atomic_int gate[2], n;
	size_t v[100];

	atomic_init(&gate[0], 0);
	atomic_init(&gate[1], 0);
	atomic_init(&n, 0);
	ck_assert_int_eq(workqueue__new(&wq, 1), 0);
	ck_assert_int_eq(workqueue__queue(wq, block_until_released, gate), 0);
	while (!atomic_load(&gate[1]))	/* the worker is busy with it */
		;
	for (int i = 0; i < 10; i++)
		ck_assert_int_eq(workqueue__queue_group(wq, &g, add_one, &n), 0);
	workqueue__group_wait(wq, &g);
	ck_assert_int_eq(atomic_load(&n), 10);
	ck_assert_uint_eq(g.left, 0);
	ck_assert_int_eq(parallel_for(wq, 100, square, v), 0);
	ck_assert_uint_eq(v[99], 99 * 99);
	ck_assert_int_eq(atomic_load(&gate[0]), 0);	/* still blocked */
	atomic_store(&gate[0], 1);
	workqueue__flush(wq);
	/* with free workers, a group's items run on them and are waited for */
	for (int i = 0; i < 1000; i++)
		ck_assert_int_eq(workqueue__queue_group(wq, &g, add_one, &n), 0);
	workqueue__group_wait(wq, &g);
	ck_assert_int_eq(atomic_load(&n), 1010);
	workqueue__delete(wq);
	/* an inline pool runs them at once */
	ck_assert_int_eq(workqueue__new(&wq, 0), 0);
	ck_assert_int_eq(workqueue__queue_group(wq, &g, add_one, &n), 0);
	ck_assert_int_eq(atomic_load(&n), 1011);
	workqueue__group_wait(wq, &g);
	workqueue__delete(wq);
}
END_TEST

/* An item that splits its work: children queued in a group of its own whose parent
 * is the item's group, then waited for. */
struct splitter {
	struct workqueue *wq;
	struct wq_group g, kids;
	pthread_t caller;
	atomic_int started, on_caller, ran;
};

static void kid(void *p)
{
	struct splitter *sp = p;

	if (pthread_equal(pthread_self(), sp->caller))
		atomic_store(&sp->on_caller, 1);
	atomic_fetch_add(&sp->ran, 1);
}

static void split(void *p)
{
	struct splitter *sp = p;

	atomic_store(&sp->started, 1);
	for (int i = 0; i < 8; i++)
		(void)workqueue__queue_group(sp->wq, &sp->kids, kid, sp);
	/* the only worker is this one: the thread waiting for the parent group runs
	 * them (a pool that did not would hang here: the test's timeout) */
	while (!atomic_load(&sp->on_caller))
		;
	workqueue__group_wait(sp->wq, &sp->kids);
}

/* The waiter of a group runs the items its running items queue in child groups. */
START_TEST(test_workqueue_child_group)
{
	struct splitter sp = { .caller = pthread_self() };

	atomic_init(&sp.started, 0);
	atomic_init(&sp.on_caller, 0);
	atomic_init(&sp.ran, 0);
	sp.kids.parent = &sp.g;
	ck_assert_int_eq(workqueue__new(&sp.wq, 1), 0);
	ck_assert_int_eq(workqueue__queue_group(sp.wq, &sp.g, split, &sp), 0);
	while (!atomic_load(&sp.started))	/* on the worker, not here */
		;
	workqueue__group_wait(sp.wq, &sp.g);
	ck_assert_int_eq(atomic_load(&sp.ran), 8);
	ck_assert_int_eq(atomic_load(&sp.on_caller), 1);
	ck_assert_uint_eq(sp.g.left, 0);
	ck_assert_uint_eq(sp.kids.left, 0);
	workqueue__delete(sp.wq);
}
END_TEST

Suite *workqueue_suite(void)
{
	Suite *s = suite_create("workqueue");
	TCase *tc = tcase_create("pool");

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_workqueue_runs_everything);
	tcase_add_test(tc, test_parallel_for);
	tcase_add_test(tc, test_workqueue_group);
	tcase_add_test(tc, test_workqueue_child_group);
	suite_add_tcase(s, tc);
	return s;
}
