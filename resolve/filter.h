#ifndef DIRREPORT_RESOLVE_FILTER_H
#define DIRREPORT_RESOLVE_FILTER_H
/*
 * filter - perf's sample filters, written once for every front end: -C (the sample's
 * cpu), --comms, --pid, --tid (its thread: perf's thread__is_filtered()), --dsos and
 * -S/--symbols (where its address resolves: the dso and symbol parts of perf's
 * machine__resolve()).  The lists are matched as perf 6.1's strlist and intlist match
 * them; the front ends have checked them (cli/list.h).
 *
 * Thread safety: a filter is read-only once made: any number of threads may ask it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct addr_location;
struct dso;
struct thread;

/** The options, as given (comma-separated lists; NULL: no such filter). */
struct sample_filter_opts {
	const char *comms, *pids, *tids, *dsos, *symbols;
	const char *cpus;	/* perf's cpu map syntax ("0-2,5"); "" selects none */
};

struct sample_filter {
	struct sample_filter_opts o;	/* the lists, borrowed */
	uint64_t *cpus;			/* owned bitmap of -C; NULL: every cpu */
	size_t nr_cpu_bits;
};

/**
 * @brief Make a filter of @p o (its strings borrowed for the filter's life).
 * @return 0; -EINVAL for a -C list that is not "N" or "N-M" items under 4096;
 *         -ENOMEM.  On error @p f needs no sample_filter__exit().
 * Format: perf's cpu map syntax.
 */
int sample_filter__init(struct sample_filter *f, const struct sample_filter_opts *o);

/** @brief Free what sample_filter__init() made. */
void sample_filter__exit(struct sample_filter *f);

/** @brief Whether -C keeps a sample of @p cpu (-1: not recorded, kept only without -C). */
bool sample_filter__cpu(const struct sample_filter *f, int32_t cpu);

/**
 * @brief Whether --comms, --pid or --tid leave out a sample of @p t whose comm at the
 *        sample is @p comm (perf's thread__is_filtered()).
 */
bool sample_filter__thread(const struct sample_filter *f, const struct thread *t,
			   const char *comm);

/**
 * @brief Whether --dsos leaves out a sample in @p dso (NULL: no map; left out when
 *        there is a list), named by its short or its long name.
 */
bool sample_filter__dso(const struct sample_filter *f, const struct dso *dso);

/**
 * @brief Whether -S leaves out a sample resolved to @p al at @p ip: kept when its
 *        symbol's name is listed, or its address as "0x..." (perf 6.1 compares the
 *        sample's address, not the symbol's start); left out without a symbol.
 */
bool sample_filter__symbol(const struct sample_filter *f, const struct addr_location *al,
			   uint64_t ip);

/** @brief Whether any of --comms, --pid, --tid is given. */
static inline bool sample_filter__has_thread(const struct sample_filter *f)
{
	return f->o.comms || f->o.pids || f->o.tids;
}

#endif
