#ifndef DIRREPORT_CLI_LIST_H
#define DIRREPORT_CLI_LIST_H
/*
 * list - the comma-separated lists of perf's filter options (--comms, --dsos, -S,
 * --pid, --tid), matched as perf 6.1's strlist/intlist match them.
 *
 * Thread safety: pure.
 */
#include <stdbool.h>
#include <stddef.h>

/**
 * @brief perf's strlist__has_entry(): whether the comma-separated @p list holds an
 *        item equal to the @p len bytes at @p name.
 * @param list  the option's argument; NULL (no list) holds nothing
 * @return true when listed.  Format: none.
 */
bool cli__list_has(const char *list, const char *name, size_t len);

/** @brief cli__list_has() of the NUL-terminated @p name. */
bool cli__str_listed(const char *list, const char *name);

/**
 * @brief perf's intlist__has_entry() on a comma-separated list of numbers (the front
 *        end has checked it; an empty item is 0, as perf's strtol makes it).
 * @param list  NULL holds nothing
 * @return true when @p v is listed.  Format: none.
 */
bool cli__int_listed(const char *list, long v);

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
