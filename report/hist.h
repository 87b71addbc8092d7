#ifndef DIRREPORT_REPORT_HIST_H
#define DIRREPORT_REPORT_HIST_H
/*
 * hist - histogram of samples for one event under the default sort keys comm,dso,sym,
 * and perf 6.1's `--stdio` rendering of it.
 *
 * Keys compare by identity: comm strings are interned by the machine, dsos and symbols
 * are unique objects, and unresolved addresses compare by value. As in perf, the
 * level ([k], [.]) is not part of the key: an entry shows its first sample's. The output order is
 * perf's: period descending, then comm, dso name and symbol name ascending (resolved
 * symbols before unresolved addresses, these by address).
 *
 * Thread safety: one hists per thread; hists__merge() combines them.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct dso;
struct symbol;

struct hist_entry {
	const char *comm;		/* interned, borrowed */
	struct dso *dso;		/* borrowed; NULL = [unknown] */
	const struct symbol *sym;	/* borrowed; NULL = unresolved */
	uint64_t addr;			/* unresolved: the printed address (a key);
					 * resolved: the first sample's map_ip */
	uint64_t sym_unmapped_start;	/* resolved: see addr_location */
	char level;			/* 'k', '.', ...: the first sample's (not a key) */
	uint64_t period;		/* sum of sample periods (event counts) */
	uint64_t nr_samples;
};

struct hists {
	struct hist_entry *v;	/* owned open-addressing table */
	size_t cap, nr;
	uint64_t total_period;	/* event count */
	uint64_t nr_samples;
};

void hists__init(struct hists *h);
void hists__exit(struct hists *h);

/** @brief Account one sample. @return 0 or -ENOMEM. */
int hists__add(struct hists *h, const struct hist_entry *key, uint64_t period);

/**
 * @brief Print the entries like perf 6.1 `perf report --stdio` (columns Overhead,
 *        Command, Shared Object, Symbol; widths from the entries), header lines
 *        included, ending with the two blank lines perf prints after each event.
 * @return 0 or -ENOMEM.
 */
int hists__fprintf(struct hists *h, const char *event_name, FILE *out);

#endif
