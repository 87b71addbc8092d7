#ifndef DIRREPORT_REPORT_HIST_PRINT_H
#define DIRREPORT_REPORT_HIST_PRINT_H
/*
 * hist-print - perf 6.1's `perf report --stdio` of one event's histogram
 * (report/hist.h) and of an event group (the group view): the event header, the
 * column headers, the entry lines and their call graphs, or with --hierarchy the
 * nested view of report/hierarchy.h.  The entries are made when printing, by
 * replaying perf's entry trees (report/hist.c).
 *
 * Thread safety: the histograms' thread.
 */
#include <stddef.h>
#include <stdio.h>

#include "report/hist.h"	/* struct hists, struct hists_print_opts */

/**
 * @brief Print the entries like perf 6.1 `perf report --stdio`: the "# Samples" and
 *        "# Event count" lines, the column headers, one line per entry with its call
 *        graph, and the two blank lines perf prints after each event.  With
 *        o->hierarchy the entries are nested by sort key (report/hierarchy.h).
 * @param event_name  the event's name as perf prints it
 * @return 0 or -ENOMEM (output may then be partial).
 * Thread safety: the histogram's thread; uses scratch space in o->chains.
 * Format: none (perf report --stdio).
 */
int hists__fprintf(struct hists *h, const struct hists_print_opts *o,
		   const char *event_name, FILE *out);

/**
 * @brief Print an event group like perf 6.1's group view (`perf report --group`):
 *        each histogram's entries are made and collapsed as hists__fprintf() makes
 *        them; then, member after member, every entry of the leader is paired with
 *        the member's entry of the same key, and every member entry left unpaired
 *        adds a zero entry (perf's dummy) to the leader's collapsed tree (perf's
 *        hists__match() and hists__link()).  The leader's entries are then sorted and
 *        printed with one value per event in every value column; entries, widths,
 *        --percent-limit and call graphs are the leader's.  The header counts are the
 *        group's sums.  With o->hierarchy the leader's entries and their pairs are
 *        nested by sort key (report/hierarchy.h).
 * @param hs  nr histograms, the leader's first, then its members in group order
 *            (each keyed by the same sort_list)
 * @param group_name  perf's evsel__group_desc(), e.g. "anon group { a, b }"
 * @return 0, -EINVAL (nr < 2: nothing printed) or -ENOMEM (output may then be
 *         partial).
 * Ownership: everything is borrowed.
 * Thread safety: the histograms' thread; uses scratch space in o->chains.
 * Format: none (perf report --stdio --group).
 */
int hists__fprintf_group(struct hists *const *hs, size_t nr,
			 const struct hists_print_opts *o, const char *group_name, FILE *out);

#endif
