#ifndef DIRREPORT_CLI_LIST_H
#define DIRREPORT_CLI_LIST_H
/*
 * list - the checks of the comma-separated lists of perf's filter options (--comms,
 * --dsos, -S, --pid, --tid, -C) as perf 6.1 parses them; the samples are matched
 * against them by resolve/filter.h.
 *
 * Thread safety: pure.
 */
#include <stdbool.h>
#include <stddef.h>

/**
 * @brief The check of perf 6.1's strlist parse (--comms, --dsos, -S, in perf report
 *        and perf script alike): no item listed twice (an empty item is one, but
 *        for a last one: "a," holds "a" alone).
 * @param list  the option's argument
 * @return true when perf takes it.  Format: none.
 */
bool cli__str_list_valid(const char *list);

/**
 * @brief The check of perf 6.1's intlist parse (--pid, --tid, in perf report and
 *        perf script alike): decimal numbers as strtol() reads them, comma-separated
 *        (an empty item is 0), each listed once: "1,1", "x", "1x", "0," and
 *        "1,," are refused; "", "1," and " 1" taken.
 * @param list  the option's argument
 * @return true when perf takes it.  Format: none.
 */
bool cli__int_list_valid(const char *list);

/**
 * @brief The check of a -C list: "N" or "N-M" items (M >= N), comma-separated, cpus
 *        under 4096, digits only; the empty list is taken (perf 6.1 takes it: no cpu,
 *        so no sample), " 1" and "1," are not.
 * @param list  the option's argument
 * @return true when valid.  Format: perf's cpu map syntax.
 */
bool cli__cpu_list_valid(const char *list);

#endif
