/*
 * time-range - perf 6.1's --time ranges (see time-range.h).
 */
#include "cli/time-range.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>	/* round */
#include <stdlib.h>	/* strtod, strtol, strtoul */
#include <string.h>

#include "banned.h"

#define NSEC_PER_SEC 1000000000ULL

/* perf's parse_nsec_time(): "SEC[.FRACTION]", at most 9 fraction digits. */
static int parse_nsec(const char *s, size_t len, uint64_t *t)
{
	char buf[64], frac[10];
	unsigned long sec, ns = 0;
	char *end;

	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len);
	buf[len] = '\0';
	sec = strtoul(buf, &end, 10);
	if (*end != '.' && *end != '\0')
		return -EINVAL;
	if (*end == '.') {
		size_t n = strlen(++end);

		if (n > 9)
			return -EINVAL;
		memcpy(frac, end, n);
		memset(frac + n, '0', 9 - n);
		frac[9] = '\0';
		ns = strtoul(frac, &end, 10);
		if (*end != '\0')
			return -EINVAL;
	}
	*t = (uint64_t)sec * NSEC_PER_SEC + ns;
	return 0;
}

/* perf_time__parse_str(): "START,STOP", either may be empty; no comma: START. */
static int parse_one(const char *s, size_t len, uint64_t *start, uint64_t *end)
{
	const char *comma = memchr(s, ',', len);
	size_t n1 = comma ? (size_t)(comma - s) : len;

	*start = *end = 0;
	if (n1 && parse_nsec(s, n1, start))
		return -EINVAL;
	if (comma && len - n1 - 1 && parse_nsec(comma + 1, len - n1 - 1, end))
		return -EINVAL;
	if (*end && *end < *start)
		return -EINVAL;
	return 0;
}

/* perf_time__parse_strs(): as many ranges as commas, separated by spaces. */
static int parse_abs(struct time_ranges *tr, const char *str)
{
	int num = 0, i;
	const char *p = str;

	for (const char *c = str; *c; c++)
		num += *c == ',';
	if (!num || num > TIME_RANGES_MAX)
		return -EINVAL;
	for (i = 0; i < num - 1; i++) {
		const char *arg = p, *q = strchr(p, ',') + 1;

		while (isspace((unsigned char)*q))
			q++;
		while (*q && !isspace((unsigned char)*q))
			if (*q++ == ',')
				return -EINVAL;
		if (parse_one(arg, (size_t)(q - arg), &tr->r[i].start, &tr->r[i].end))
			return -EINVAL;
		p = *q ? q + 1 : q;
	}
	if (parse_one(p, strlen(p), &tr->r[i].start, &tr->r[i].end))
		return -EINVAL;
	for (i = 0; i < num - 1; i++)
		if (tr->r[i].end >= tr->r[i + 1].start)
			return -EINVAL;
	tr->nr = num;
	return 0;
}

/* perf's parse_percent(): "D%" (strtod must take all of D). */
static int parse_percent(const char *s, size_t len, double *pcnt)
{
	char buf[64], *end;

	if (!len || s[len - 1] != '%' || len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, s, len - 1);
	buf[len - 1] = '\0';
	*pcnt = strtod(buf, &end) / 100.0;
	return *end ? -EINVAL : 0;
}

/* perf's set_percent_time(). */
static int set_percent(struct time_ranges *tr, int i, double a, double b, uint64_t first,
		       uint64_t last)
{
	uint64_t total = last - first;

	if (a < 0.0 || a > 1.0 || b < 0.0 || b > 1.0)
		return -EINVAL;
	tr->r[i].start = first + (uint64_t)round(a * (double)total);
	tr->r[i].end = first + (uint64_t)round(b * (double)total);
	if (tr->r[i].end > tr->r[i].start && tr->r[i].end != last)
		tr->r[i].end -= 1;
	return 0;
}

/* "P%/N": the Nth slice of P percent. */
static int percent_slash(struct time_ranges *tr, int i, const char *s, size_t len,
			 uint64_t first, uint64_t last)
{
	const char *slash = memchr(s, '/', len);
	char buf[32], *end;
	double pcnt;
	long n;

	if (!slash || parse_percent(s, (size_t)(slash - s), &pcnt))
		return -EINVAL;
	len -= (size_t)(slash - s) + 1;
	if (len >= sizeof(buf))
		return -EINVAL;
	memcpy(buf, slash + 1, len);
	buf[len] = '\0';
	n = strtol(buf, &end, 10);
	if (*end || pcnt <= 0.0)
		return -EINVAL;
	return set_percent(tr, i, pcnt * (double)(n - 1), pcnt * (double)n, first, last);
}

/* "A%-B%". */
static int percent_dash(struct time_ranges *tr, int i, const char *s, size_t len,
			uint64_t first, uint64_t last)
{
	const char *dash = memchr(s, '-', len);
	double a, b;

	if (!len)	/* perf: an empty item is no range, and no error */
		return 1;
	if (!dash || parse_percent(s, (size_t)(dash - s), &a) ||
	    parse_percent(dash + 1, len - (size_t)(dash - s) - 1, &b))
		return -EINVAL;
	return set_percent(tr, i, a, b, first, last);
}

bool time_ranges__is_percent(const char *str)
{
	return strchr(str, '%') != NULL;
}

int time_ranges__parse(struct time_ranges *tr, const char *str, uint64_t first,
		       uint64_t last)
{
	bool slash = strchr(str, '/') != NULL;

	memset(tr, 0, sizeof(*tr));
	if (!time_ranges__is_percent(str))
		return parse_abs(tr, str);
	if (slash || strchr(str, '-')) {
		/* perf's percent_comma_split() */
		const char *p = str, *end = str + strlen(str);

		while (p < end) {
			const char *comma = strchr(p, ',');
			size_t len = comma ? (size_t)(comma - p) : strlen(p);
			int err;

			if (tr->nr >= TIME_RANGES_MAX)
				return -EINVAL;
			err = slash ? percent_slash(tr, tr->nr, p, len, first, last)
				    : percent_dash(tr, tr->nr, p, len, first, last);
			if (err < 0)
				return -EINVAL;
			tr->nr++;
			if (!comma)
				break;
			p = comma + 1;
		}
		return tr->nr ? 0 : -EINVAL;
	}
	/* "P%": the first slice; '%' must end the string */
	if (str[strlen(str) - 1] != '%' || strchr(str, '%') != str + strlen(str) - 1)
		return -EINVAL;
	{
		double pcnt;

		if (parse_percent(str, strlen(str), &pcnt) || pcnt <= 0.0)
			return -EINVAL;
		if (set_percent(tr, 0, 0.0, pcnt, first, last))
			return -EINVAL;
		tr->nr = 1;
	}
	return 0;
}

bool time_ranges__skip(const struct time_ranges *tr, uint64_t t)
{
	if (!tr || !tr->nr || t == 0)
		return false;
	if (tr->nr == 1)
		return (tr->r[0].start && t < tr->r[0].start) ||
		       (tr->r[0].end && t > tr->r[0].end);
	for (int i = 0; i < tr->nr; i++)
		if (t >= tr->r[i].start && (t <= tr->r[i].end || !tr->r[i].end))
			return false;
	return true;
}
