#ifndef DIRREPORT_CLI_TIME_RANGE_H
#define DIRREPORT_CLI_TIME_RANGE_H
/*
 * time-range - perf 6.1's `--time` argument (util/time-utils.c's behaviour): absolute
 * ranges "START,STOP" in seconds with up to 9 decimals (either side may be empty;
 * several ranges separated by spaces) or percentages of the recording's sample time
 * span: "10%/2" (the second tenth), "0%-10%", "25%" (the first quarter), several
 * separated by commas.
 *
 * Thread safety: a parsed set is immutable.
 */
#include <stdbool.h>
#include <stdint.h>

/** Most ranges one --time argument may hold. */
#define TIME_RANGES_MAX 64

struct time_ranges {
	struct { uint64_t start, end; } r[TIME_RANGES_MAX];	/* ns; 0 = open */
	int nr;
};

/** @brief Whether @p str uses percentages (needs the recording's first and last
 *         sample times). */
bool time_ranges__is_percent(const char *str);

/**
 * @brief Parse @p str as perf does.
 * @param first, last  the recording's first and last sample times (ns; the
 *                     SAMPLE_TIME feature), for percentages
 * @return 0, or -EINVAL for perf's "Invalid time string".
 * Thread safety: pure.  Format: none.
 */
int time_ranges__parse(struct time_ranges *tr, const char *str, uint64_t first,
		       uint64_t last);

/**
 * @brief perf_time__ranges_skip_sample(): whether a sample at @p t (ns) is outside
 *        the ranges (time 0 is never skipped).
 * Thread safety: pure.  Format: none.
 */
bool time_ranges__skip(const struct time_ranges *tr, uint64_t t);

#endif
