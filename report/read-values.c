/*
 * read-values - the -T/--threads table (see read-values.h).
 */
#include "report/read-values.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "util/array.h"
#include "banned.h"

int read_values__init(struct read_values *v, size_t max_counters)
{
	memset(v, 0, sizeof(*v));
	v->max_counters = max_counters ? max_counters : 1;
	v->names = calloc(v->max_counters, sizeof(*v->names));
	v->counter_ids = calloc(v->max_counters, sizeof(*v->counter_ids));
	if (!v->names || !v->counter_ids) {
		read_values__exit(v);
		return -ENOMEM;
	}
	return 0;
}

void read_values__exit(struct read_values *v)
{
	free(v->names);
	free(v->counter_ids);
	free(v->pid);
	free(v->tid);
	free(v->values);
	memset(v, 0, sizeof(*v));
}

static long find_thread(struct read_values *v, uint32_t pid, uint32_t tid)
{
	for (size_t i = 0; i < v->nr_threads; i++)
		if (v->pid[i] == pid && v->tid[i] == tid)
			return (long)i;
	if (array__grow(&v->pid, &v->cap_threads, v->nr_threads + 1, sizeof(*v->pid), 16) ||
	    array__grow(&v->tid, &v->cap_tid, v->nr_threads + 1, sizeof(*v->tid), 16) ||
	    array__grow(&v->values, &v->cap_values, (v->nr_threads + 1) * v->max_counters,
			sizeof(*v->values), 16 * v->max_counters))
		return -1;
	v->pid[v->nr_threads] = pid;
	v->tid[v->nr_threads] = tid;
	memset(v->values + v->nr_threads * v->max_counters, 0,
	       v->max_counters * sizeof(*v->values));
	return (long)v->nr_threads++;
}

int read_values__add(struct read_values *v, uint32_t pid, uint32_t tid, size_t counter,
		     const char *name, uint64_t value)
{
	long t = find_thread(v, pid, tid);
	size_t c;

	if (t < 0)
		return -ENOMEM;
	for (c = 0; c < v->nr_counters && v->counter_ids[c] != counter; c++)
		;
	if (c == v->nr_counters) {
		if (c == v->max_counters)
			return -EINVAL;
		v->counter_ids[c] = counter;
		v->names[c] = name;
		v->nr_counters++;
	}
	v->values[(size_t)t * v->max_counters + c] += value;
	return 0;
}

void read_values__fprintf(const struct read_values *v, FILE *out)
{
	int pidw = 3, tidw = 3, *cw = malloc(v->max_counters * sizeof(*cw));
	char buf[32];

	if (!cw) {	/* perf says so too */
		fputs("INTERNAL ERROR: Failed to allocate counterwidth array\n", out);
		return;
	}
	for (size_t j = 0; j < v->nr_counters; j++)
		cw[j] = (int)strlen(v->names[j]);
	for (size_t i = 0; i < v->nr_threads; i++) {
		int w = snprintf(buf, sizeof(buf), "%d", (int)v->pid[i]);

		if (w > pidw)
			pidw = w;
		w = snprintf(buf, sizeof(buf), "%d", (int)v->tid[i]);
		if (w > tidw)
			tidw = w;
		for (size_t j = 0; j < v->nr_counters; j++) {
			w = snprintf(buf, sizeof(buf), "%" PRIu64,
				     v->values[i * v->max_counters + j]);
			if (w > cw[j])
				cw[j] = w;
		}
	}
	fprintf(out, "# %*s  %*s", pidw, "PID", tidw, "TID");
	for (size_t j = 0; j < v->nr_counters; j++)
		fprintf(out, "  %*s", cw[j], v->names[j]);
	fputc('\n', out);
	for (size_t i = 0; i < v->nr_threads; i++) {
		fprintf(out, "  %*d  %*d", pidw, (int)v->pid[i], tidw, (int)v->tid[i]);
		for (size_t j = 0; j < v->nr_counters; j++)
			fprintf(out, "  %*" PRIu64, cw[j], v->values[i * v->max_counters + j]);
		fputc('\n', out);
	}
	free(cw);
}
