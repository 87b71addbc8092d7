#ifndef DIRREPORT_REPORT_GROUP_H
#define DIRREPORT_REPORT_GROUP_H
/*
 * group - perf 6.1's event groups in the report: which events print together
 * (`perf report --group`, the default) and under which name.
 *
 * perf rebuilds the groups of a recording from the GROUP_DESC feature (events of a
 * group follow their leader in the attrs table).  Its group view (symbol_conf
 * event_group) is on unless --no-group is given: a leader of several events then
 * prints one histogram for the group (report/hist.h, hists__fprintf_group()) and its
 * members print nothing of their own.  --group or --no-group on a recording without
 * groups makes the first event the leader of all ("forced leader", named without
 * braces).  Without the group view a leader of several still says "of events".
 *
 * Thread safety: immutable once made.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct evlist;
struct features;
struct hists;
struct hists_print_opts;

struct report_groups {
	size_t nr;			/* events (attrs table order) */
	uint32_t *nr_members;		/* owned, per event: events of the group it
					 * leads, itself first (perf's nr_members);
					 * 1: alone; 0: a member of another's group
					 * (members follow their leader) */
	char **desc;			/* owned, per event: perf's evsel__group_desc()
					 * for a leader of several, else NULL */
	bool view;			/* perf's group view is on */
};

/**
 * @brief The groups of a recording as perf's report sees them.
 * @param el     the events (names from evsel__name())
 * @param f      the header features (GROUP_DESC); may be NULL (no groups)
 * @param group  --group 1, --no-group -1 (the last given), neither 0
 * @param out    receives the groups, owned by the caller (report_groups__delete())
 * @return 0 or -ENOMEM.  A GROUP_DESC that does not fit the events (perf calls it
 *         invalid) is treated as no groups.
 * Thread safety: pure.  Format: feature HEADER_GROUP_DESC (leader_idx, nr_members,
 * name "{anon_group}" for an unnamed group).
 */
int report_groups__new(struct report_groups **out, const struct evlist *el,
		       const struct features *f, int group);

/** @brief Free the groups (NULL is fine). */
void report_groups__delete(struct report_groups *g);

/**
 * @brief Whether event idx prints a block of its own: always without the group view,
 *        else when it is not a member of another event's group.
 * Thread safety: pure.  Format: none.
 */
bool report_groups__prints(const struct report_groups *g, size_t idx);

/**
 * @brief Print the block of event idx: its group (hists__fprintf_group()) when the
 *        group view is on and idx leads several events, else its own histogram
 *        (hists__fprintf(), "of events" when it leads several).
 * @param hists  every event's histogram (indexed like the events, has_callchains
 *               set)
 * @param name   event idx's name
 * @return 0 or -ENOMEM.
 * Thread safety: the histograms' thread.  Format: none (perf report --stdio).
 */
int report_groups__fprintf(const struct report_groups *g, size_t idx, struct hists *hists,
			   const struct hists_print_opts *po, const char *name, FILE *out);

#endif
