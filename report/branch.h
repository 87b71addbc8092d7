#ifndef DIRREPORT_REPORT_BRANCH_H
#define DIRREPORT_REPORT_BRANCH_H
/*
 * branch - perf 6.1's branch view (its sort__mode SORT_MODE__BRANCH): when a
 * recording has branch stacks (perf record -b), `perf report` counts one entry per
 * branch of each sample instead of one per sample, `-D` counts one SAMPLE event per
 * branch, and the branch sort keys (report/sort.h) exist.
 *
 * Which recordings get the view, how a branch's addresses are resolved and what its
 * flags mean.  The histogram side is report/hist.h (struct hist_sample's branch) and
 * the keys report/sort.h.
 *
 * Thread safety: the predicates are pure; branch_end__resolve_map() is the machine's
 * (the thread that replays records).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

struct addr_location;
struct machine;
struct report_opts;
struct session;
struct thread;

/** perf's default sort order in the branch view. */
#define BRANCH_DEFAULT_SORT_ORDER "comm,dso_from,symbol_from,symbol_to,cycles"

/**
 * @brief Whether perf 6.1 reports this recording in its branch view.
 * @param opt  -b/--branch-stack: 1, --no-branch-stack: -1, neither: 0
 * @return true with -b, or by default when the recording has the BRANCH_STACK feature
 *         and no event samples the user stack (perf's has_br_stack; a pipe has no
 *         feature bits when perf decides, so never by default).
 * Thread safety: pure.  Format: feature bit HEADER_BRANCH_STACK, attr.sample_type.
 */
bool branch_mode__on(struct session *s, int opt);

/**
 * @brief Whether any event samples branch stacks (perf's combined sample_type has
 *        PERF_SAMPLE_BRANCH_STACK): -b on a recording without is refused by perf.
 * Thread safety: pure.  Format: attr.sample_type.
 */
bool branch_mode__has_stacks(struct session *s);

/**
 * @brief What perf refuses before it reads a record: --mem-mode in the branch view
 *        ("branch and mem mode incompatible", nothing on @p out) and -b on a
 *        recording file whose events have no branch stacks ("Selected -b but no
 *        branch data", after the report's first two lines unless -q or --header).
 * @return 0, or CMD_ERR_REPORTED once the message is on stderr.
 * Thread safety: pure but for @p out and stderr.  Format: attr.sample_type, feature
 *         bit HEADER_BRANCH_STACK.
 */
int branch_mode__check(struct session *s, const struct report_opts *o, FILE *out);

/**
 * @brief The map part of perf's thread__find_cpumode_addr_location() for one end of
 *        a branch: the sample's cpumode does not say where a branch address lies, so
 *        user maps are tried, then the kernel's; without a map the address is level
 *        'H' with no dso (perf tries the guest modes last, which it does not have).
 * @param al  receives the map fields as machine__resolve_map() sets them (al->addr
 *            map-relative, or @p ip without a map); al->sym stays NULL
 * Thread safety: the machine's thread.  Format: PERF_SAMPLE_BRANCH_STACK addresses.
 */
void branch_end__resolve_map(struct machine *m, struct thread *t, uint64_t ip,
			     struct addr_location *al);

/*
 * A branch entry's flags word (perf 6.1's struct branch_flags, UAPI
 * perf_branch_entry): bit 0 mispred, 1 predicted, 2 in_tx, 3 abort, 4-19 cycles.
 */
static inline bool branch_flags__mispred(uint64_t f) { return f & 1; }
static inline bool branch_flags__predicted(uint64_t f) { return f >> 1 & 1; }
static inline bool branch_flags__in_tx(uint64_t f) { return f >> 2 & 1; }
static inline bool branch_flags__abort(uint64_t f) { return f >> 3 & 1; }
static inline uint16_t branch_flags__cycles(uint64_t f) { return (uint16_t)(f >> 4); }

#endif
