#ifndef DIRREPORT_REPORT_HEADER_PRINT_H
#define DIRREPORT_REPORT_HEADER_PRINT_H
/*
 * header-print - the `# ...` header of `perf report --header-only` / `--header` of
 * perf 6.1, with or without -I, for regular files, directories and pipe streams.
 *
 * Regular file or directory: header_print__header() prints everything, from the first
 * "# ========" to the closing "# ========\n#\n".
 * Pipe stream: header_print__header() prints the short preamble (offsets 0) and the
 * closing lines; perf then prints each feature when its HEADER_FEATURE record is
 * processed, so the caller calls header_print__feature() after every successful
 * features__parse() of a record with feat_id < FEAT_LAST_PERF61 (in --header-only mode
 * it stops reading at the terminating record feat_id == FEAT_LAST_PERF61).
 *
 * Format: docs/perf-data-format.md §§2.3 (print lines) and 11 (first lines); behaviour of
 * perf 6.1 observed with --header-only [-I] on real and hand-made files.
 * Thread safety: functions write only to the FILE they are given.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>	/* time_t */

#include "format/header.h"	/* FEAT_BITS */

struct features;

/** What the header shows besides the features. */
struct header_print_info {
	const char *path;	/* input as given (perf does not print it) */
	bool is_pipe;		/* pipe stream: offsets print as 0, features come later */
	bool is_dir;		/* data directory: DIR_FORMAT prints the version (perf
				 * prints 0 for a regular file carrying the feature) */
	bool full;		/* -I: print the "full only" features */
	time_t mtime;		/* st_mtime of the header file (dir/data for a directory,
				 * the stream's fd for a pipe) */
	uint64_t data_offset;	/* bytes; 0 for a pipe */
	uint64_t data_size;	/* bytes; 0 for a pipe */
	uint64_t feat_offset;	/* bytes (data_offset + data_size); 0 for a pipe */
	uint64_t bitmap[FEAT_BITS / 64];	/* header feature bitmap (not for pipes) */
	const struct features *feat;	/* parsed features; borrowed */
};

/**
 * @brief Print the header block: "# ========", captured on, header version, offsets,
 *        then (not for pipes) every set feature 1..31 in id order and
 *        "# missing features: ...", then "# ========" and "#".
 * @param fp  output stream
 * @param hi  what to print (features of bits set in hi->bitmap should have been parsed
 *            into hi->feat; a set bit without parsed content prints as perf prints an
 *            empty feature)
 * @return 0, or when fp reports an error the negative errno of its failed write
 *         (-ENOSPC on a full device; -EIO when errno has none).
 * Thread safety: writes only fp; calls localtime_r (reads TZ).
 * Format: perf 6.1 perf_session__fprintf_info(); "captured on" is ctime()-formatted in
 * the C locale.
 */
int header_print__header(FILE *fp, const struct header_print_info *hi);

/**
 * @brief Print one feature as perf 6.1 does (nothing for features perf does not print,
 *        "# <NAME> info available, use -I to display" for a full-only feature without
 *        hi->full).
 * @param fp    output stream
 * @param hi    hi->feat holds the feature (and, in pipe mode, only the features that
 *              arrived so far: BPF_PROG_INFO then cannot see BPF_BTF, as in perf)
 * @param feat  feature id; ids outside 1..31 print nothing
 * @return 0, or when fp reports an error the negative errno of its failed write
 *         (-ENOSPC on a full device; -EIO when errno has none).
 * Thread safety: writes only fp. Format: docs/perf-data-format.md §2.3 "printed as" column.
 */
int header_print__feature(FILE *fp, const struct header_print_info *hi, unsigned feat);

#endif
