/*
 * list - perf's filter lists (see list.h).
 */
#include "cli/list.h"

#include <stdlib.h>	/* strtol, strtoul */
#include <string.h>	/* memcmp, strchr, strlen */

#include "banned.h"

bool cli__str_list_valid(const char *list)
{
	for (const char *a = list; a;) {
		const char *ca = strchr(a, ',');
		size_t na = ca ? (size_t)(ca - a) : strlen(a);

		if (!ca && !na)
			break;	/* a last empty item is dropped */
		for (const char *b = ca ? ca + 1 : NULL; b;) {
			const char *cb = strchr(b, ',');
			size_t nb = cb ? (size_t)(cb - b) : strlen(b);

			if (!cb && !nb)
				break;
			if (na == nb && !memcmp(a, b, na))
				return false;
			b = cb ? cb + 1 : NULL;
		}
		a = ca ? ca + 1 : NULL;
	}
	return true;
}

bool cli__int_list_valid(const char *list)
{
	for (const char *a = list; a;) {
		char *end;
		long v = strtol(a, &end, 10);

		if (*end != ',' && *end)
			return false;
		for (const char *b = *end ? end + 1 : NULL; b;) {
			char *e2;

			if (strtol(b, &e2, 10) == v)
				return false;
			if (*e2 != ',' && *e2)
				break;	/* refused when a reaches it */
			b = *e2 ? e2 + 1 : NULL;
		}
		a = *end ? end + 1 : NULL;
	}
	return true;
}

bool cli__cpu_list_valid(const char *p)
{
	while (*p) {
		char *end;
		unsigned long a, b;

		if (*p < '0' || *p > '9')	/* strtoul would take blanks and signs */
			return false;
		a = b = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			if (p[1] < '0' || p[1] > '9')
				return false;
			b = strtoul(p + 1, &end, 10);
			p = end;
		}
		if (b < a || b >= 4096)
			return false;
		if (*p == ',' && p[1])
			p++;
		else if (*p)
			return false;
	}
	return true;
}
