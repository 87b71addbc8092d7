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

#endif
