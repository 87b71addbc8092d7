/*
 * perf's event groups in the report (see group.h).
 */
#include "report/group.h"

#include <errno.h>
#include <stdlib.h>	/* calloc, free, malloc */
#include <string.h>	/* strlen, memcpy */

#include "format/evlist.h"
#include "format/feature.h"
#include "report/hist.h"
#include "report/hist-print.h"
#include "banned.h"

void report_groups__delete(struct report_groups *g)
{
	if (!g)
		return;
	for (size_t i = 0; g->desc && i < g->nr; i++)
		free(g->desc[i]);
	free(g->desc);
	free(g->nr_members);
	free(g);
}

/* perf's evsel__group_desc(): "NAME { a, b }" ("anon group" without a name), or
 * "a, b" for a forced leader. */
static char *group_desc(const struct evlist *el, size_t leader, size_t n,
			const char *name, bool forced)
{
	size_t len = 1;
	char *s, *p;

	if (!forced)
		len += strlen(name ? name : "anon group") + 4;
	for (size_t k = 0; k < n; k++)
		len += strlen(evsel__name(el->evsels[leader + k])) + 2;
	s = malloc(len);
	if (!s)
		return NULL;
	p = s;
	if (!forced)
		p += snprintf(p, len, "%s { ", name ? name : "anon group");
	for (size_t k = 0; k < n; k++)
		p += snprintf(p, len - (size_t)(p - s), "%s%s", k ? ", " : "",
			      evsel__name(el->evsels[leader + k]));
	if (!forced)
		snprintf(p, len - (size_t)(p - s), " }");
	return s;
}

int report_groups__new(struct report_groups **out, const struct evlist *el,
		       const struct features *f, int group)
{
	struct report_groups *g = calloc(1, sizeof(*g));
	struct feat_group_state *st = NULL;
	bool forced = false;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	g->nr = el->nr;
	g->view = group >= 0;
	g->nr_members = calloc(el->nr ? el->nr : 1, sizeof(*g->nr_members));
	g->desc = calloc(el->nr ? el->nr : 1, sizeof(*g->desc));
	if (!g->nr_members || !g->desc)
		goto nomem;
	for (size_t i = 0; i < el->nr; i++)
		g->nr_members[i] = 1;
	if (f && f->nr_groups && el->nr) {
		st = calloc(el->nr, sizeof(*st));
		if (!st)
			goto nomem;
		/* perf's process_group_desc(); an invalid one leaves no groups here */
		if (features__group_rebuild(f, st, el->nr)) {
			for (size_t i = 0; i < el->nr; i++)
				g->nr_members[i] = st[i].leader != i ? 0 :
						   st[i].nr_members ? st[i].nr_members : 1;
		} else {
			free(st);
			st = NULL;
		}
	}
	/* perf's evlist__force_leader(): --group or --no-group given, no groups */
	if (!st && group && el->nr > 1) {
		forced = true;
		g->nr_members[0] = (uint32_t)el->nr;
		for (size_t i = 1; i < el->nr; i++)
			g->nr_members[i] = 0;
	}
	for (size_t i = 0; i < el->nr; i++) {
		if (g->nr_members[i] < 2)
			continue;
		/* a group runs over the events after its leader (process_group_desc) */
		if (i + g->nr_members[i] > el->nr)
			g->nr_members[i] = (uint32_t)(el->nr - i);
		g->desc[i] = group_desc(el, i, g->nr_members[i], st ? st[i].name : NULL,
					forced);
		if (!g->desc[i])
			goto nomem;
	}
	free(st);
	*out = g;
	return 0;
nomem:
	free(st);
	report_groups__delete(g);
	return -ENOMEM;
}

bool report_groups__prints(const struct report_groups *g, size_t idx)
{
	return !g->view || g->nr_members[idx] != 0;
}

int report_groups__fprintf(const struct report_groups *g, size_t idx, struct hists *hists,
			   const struct hists_print_opts *po, const char *name, FILE *out)
{
	size_t n = g->nr_members[idx];
	struct hists_print_opts o = *po;
	struct hists **hs;
	int err;

	o.leads_group = n > 1;
	if (!g->view || n < 2)
		return hists__fprintf(&hists[idx], &o, name, out);
	hs = malloc(n * sizeof(*hs));
	if (!hs)
		return -ENOMEM;
	for (size_t k = 0; k < n; k++)
		hs[k] = &hists[idx + k];
	err = hists__fprintf_group(hs, n, &o, g->desc[idx], out);
	free(hs);
	return err;
}
