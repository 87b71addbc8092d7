/*
 * `dirreport --stdio`: replay the records in perf's order through the machine state,
 * resolve every sample to comm / dso / symbol and print one histogram per event.
 */
#include "report/cmd.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free */

#include "format/bytes.h"
#include "format/evlist.h"
#include "format/feature.h"
#include "format/record.h"
#include "format/sample.h"
#include "reader/session.h"
#include "reader/workqueue.h"
#include "report/dso.h"
#include "report/hist.h"
#include "report/machine.h"
#include "banned.h"

struct report {
	struct session *session;
	struct machine *machine;
	struct hists *hists;		/* one per evsel, owned */
	uint64_t total_lost_samples;
	/* per batch: the samples resolved to their maps, and the dsos to load */
	struct pending *pending;	/* owned */
	size_t nr_pending, cap_pending;
	struct dso **to_load;		/* owned; borrowed dsos */
	size_t nr_to_load, cap_to_load;
};

/* A sample whose map is known; its symbol is looked up once its dso is loaded. */
struct pending {
	struct addr_location al;
	const char *comm;
	uint64_t period;
	size_t evsel_idx;
};

static int want_loaded(struct report *rp, struct dso *dso)
{
	if (!dso || dso->loaded)
		return 0;
	for (size_t i = 0; i < rp->nr_to_load; i++)
		if (rp->to_load[i] == dso)
			return 0;
	if (rp->nr_to_load == rp->cap_to_load) {
		size_t cap = rp->cap_to_load ? rp->cap_to_load * 2 : 16;
		struct dso **v = realloc(rp->to_load, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rp->to_load = v;
		rp->cap_to_load = cap;
	}
	rp->to_load[rp->nr_to_load++] = dso;
	return 0;
}

/* Pass 1 for a sample: thread, comm and map, in delivery order. */
static int report_sample(struct report *rp, const struct record_ref *ref)
{
	struct sample s;
	struct thread *t;
	struct pending *p;
	int err;

	err = sample__parse(&s, &ref->evsel->attr, ref->data, ref->size);
	if (err)
		return err;
	t = machine__findnew_thread(rp->machine, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	p = &rp->pending[rp->nr_pending++];
	machine__resolve_map(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.ip, &p->al);
	p->al.map = NULL;	/* not stable across batches; the copied fields are */
	p->comm = thread__comm(t);
	p->period = s.period;
	p->evsel_idx = ref->evsel->idx;
	return want_loaded(rp, p->al.dso);
}

static void load_one(void *ctx, size_t i)
{
	struct report *rp = ctx;

	/* -ENOMEM leaves the dso unloaded: its lookups then load (and fail) again */
	(void)dso__load(rp->to_load[i]);
}

/*
 * A batch in three passes: (1) replay side-band records and resolve each sample's
 * thread and map, in order; (2) load the symbol tables this batch needs, one dso per
 * worker; (3) look the symbols up and count.
 */
static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct report *rp = p;
	struct sample s;
	int err = 0;

	if (n > rp->cap_pending) {
		free(rp->pending);
		rp->pending = malloc(n * sizeof(*rp->pending));
		if (!rp->pending)
			return -ENOMEM;
		rp->cap_pending = n;
	}
	rp->nr_pending = 0;
	rp->nr_to_load = 0;
	for (size_t i = 0; i < n && !err; i++) {
		const struct record_ref *ref = recs[i];

		switch (ref->type) {
		case REC_SAMPLE:
			err = report_sample(rp, ref);
			break;
		case REC_LOST_SAMPLES:
			if (ref->size >= 16)
				rp->total_lost_samples += bytes__u64(ref->data + 8);
			break;
		case REC_COMM:
		case REC_FORK:
		case REC_MMAP:
		case REC_MMAP2:
			sample__parse_id_trailer(&s, &ref->evsel->attr, ref->data, ref->size);
			err = machine__process(rp->machine, ref, &s);
			break;
		default:
			break;
		}
	}
	if (!err && rp->nr_to_load)
		err = parallel_for(session__workqueue(rp->session), rp->nr_to_load, load_one,
				   rp);
	for (size_t i = 0; i < rp->nr_pending && !err; i++) {
		struct pending *pd = &rp->pending[i];
		struct hist_entry key;

		addr_location__resolve_sym(&pd->al);
		key = (struct hist_entry){
			.comm = pd->comm,
			.dso = pd->al.dso,
			.sym = pd->al.sym,
			.addr = pd->al.addr,
			.sym_unmapped_start = pd->al.sym_unmapped_start,
			.level = pd->al.level,
		};
		err = hists__add(&rp->hists[pd->evsel_idx], &key, pd->period);
	}
	return err;
}

int cmd_report(struct session *s, const struct report_opts *o, struct machine *m,
	       FILE *out)
{
	struct evlist *el = session__evlist(s);
	struct report rp = { .session = s, .machine = m };
	int err;

	if (o->header) {
		err = cmd_header(s, o, m, out);
		if (err)
			return err;
	}
	rp.hists = calloc(el->nr, sizeof(*rp.hists));
	if (!rp.hists)
		return -ENOMEM;
	for (size_t i = 0; i < el->nr; i++)
		hists__init(&rp.hists[i]);
	err = session__deliver(s, on_batch, &rp, 0);
	if (!err) {
		if (!o->header)
			fputs("# To display the perf.data header info, please use "
			      "--header/--header-only options.\n#\n", out);
		fprintf(out, "#\n# Total Lost Samples: %llu\n#\n",
			(unsigned long long)rp.total_lost_samples);
		for (size_t i = 0; i < el->nr && !err; i++) {
			/* perf skips events without samples (--skip-empty is on by default) */
			if (!rp.hists[i].nr_samples)
				continue;
			err = hists__fprintf(&rp.hists[i], evsel__name(el->evsels[i]), out);
		}
	}
	for (size_t i = 0; i < el->nr; i++)
		hists__exit(&rp.hists[i]);
	free(rp.hists);
	free(rp.pending);
	free(rp.to_load);
	return err;
}
