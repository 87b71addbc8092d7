/*
 * list - perf's filter lists (see list.h).
 */
#include "cli/list.h"

#include <stdlib.h>	/* strtol */
#include <string.h>	/* memcmp, strchr, strlen */

#include "banned.h"

bool cli__list_has(const char *list, const char *name, size_t len)
{
	while (list) {
		const char *comma = strchr(list, ',');
		size_t n = comma ? (size_t)(comma - list) : strlen(list);

		if (n == len && !memcmp(list, name, n))
			return true;
		list = comma ? comma + 1 : NULL;
	}
	return false;
}

bool cli__str_listed(const char *list, const char *name)
{
	return cli__list_has(list, name, strlen(name));
}

bool cli__int_listed(const char *list, long v)
{
	while (list) {
		char *end;

		if (strtol(list, &end, 10) == v)
			return true;
		list = *end == ',' ? end + 1 : NULL;
	}
	return false;
}
