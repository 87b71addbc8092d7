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
#include "report/hist.h"
#include "report/machine.h"
#include "banned.h"

struct report {
	struct session *session;
	struct machine *machine;
	struct hists *hists;		/* one per evsel, owned */
	uint64_t total_lost_samples;
};

static int report_sample(struct report *rp, const struct record_ref *ref)
{
	struct sample s;
	struct thread *t;
	struct addr_location al;
	struct hist_entry key;
	int err;

	err = sample__parse(&s, &ref->evsel->attr, ref->data, ref->size);
	if (err)
		return err;
	t = machine__findnew_thread(rp->machine, (int32_t)s.pid, (int32_t)s.tid);
	if (!t)
		return -ENOMEM;
	machine__resolve(rp->machine, t, s.misc & MISC_CPUMODE_MASK, s.ip, &al);
	key = (struct hist_entry){
		.comm = thread__comm(t),
		.dso = al.map ? al.map->dso : NULL,
		.sym = al.sym,
		.addr = al.addr,
		.sym_unmapped_start = al.sym_unmapped_start,
		.level = al.level,
	};
	return hists__add(&rp->hists[ref->evsel->idx], &key, s.period);
}

static int on_batch(void *p, const struct record_ref *const *recs, size_t n)
{
	struct report *rp = p;
	struct sample s;
	int err = 0;

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
	return err;
}

int cmd_report(struct session *s, const struct report_opts *o, FILE *out)
{
	struct evlist *el = session__evlist(s);
	struct report rp = { .session = s };
	int err;

	if (o->header) {
		err = cmd_header(s, o, out);
		if (err)
			return err;
	}
	err = machine__new(&rp.machine, o->kallsyms);
	if (!err)
		err = machine__apply_build_ids(rp.machine, session__features(s));
	if (err) {
		machine__delete(rp.machine);
		return err;
	}
	rp.hists = calloc(el->nr, sizeof(*rp.hists));
	if (!rp.hists) {
		machine__delete(rp.machine);
		return -ENOMEM;
	}
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
	machine__delete(rp.machine);
	return err;
}
