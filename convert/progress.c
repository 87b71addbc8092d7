/*
 * progress - terminal progress bar (see progress.h).
 */
#include "convert/progress.h"

#include <string.h>	/* memset */
#include <time.h>	/* clock_gettime */

#include "banned.h"

#define BAR_CELLS 30
#define REDRAW_SECONDS 0.1

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void progress__format_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = { "B", "KB", "MB", "GB", "TB" };
	size_t u = 0;

	while (bytes >= 1000.0 && u + 1 < sizeof(units) / sizeof(units[0])) {
		bytes /= 1000.0;
		u++;
	}
	snprintf(buf, len, u ? "%.1f %s" : "%.0f %s", bytes, units[u]);
}

void progress__init(struct progress *p, FILE *out, uint64_t total, bool enabled)
{
	memset(p, 0, sizeof(*p));
	p->out = enabled && total ? out : NULL;
	p->total = total;
	p->start = p->last = now();
}

static void draw(struct progress *p, double t)
{
	char done[32], all[32], rate[32], bar[BAR_CELLS + 1], line[160];
	double frac = p->total ? (double)p->done / (double)p->total : 0.0;
	double secs = t - p->start, bps = secs > 0 ? (double)p->done / secs : 0.0;
	int cells, n;

	if (frac > 1.0)
		frac = 1.0;
	cells = (int)(frac * BAR_CELLS);
	memset(bar, '#', (size_t)cells);
	memset(bar + cells, '.', (size_t)(BAR_CELLS - cells));
	bar[BAR_CELLS] = 0;
	progress__format_bytes(done, sizeof(done), (double)p->done);
	progress__format_bytes(all, sizeof(all), (double)p->total);
	progress__format_bytes(rate, sizeof(rate), bps);
	if (bps > 0) {
		unsigned left = (unsigned)((double)(p->total - (p->done < p->total ? p->done
							       : p->total)) / bps + 0.5);

		n = snprintf(line, sizeof(line), "[%s] %3d%%  %s / %s  %s/s  %u:%02u left",
			     bar, (int)(frac * 100), done, all, rate, left / 60, left % 60);
	} else {
		n = snprintf(line, sizeof(line), "[%s] %3d%%  %s / %s", bar,
			     (int)(frac * 100), done, all);
	}
	fprintf(p->out, "\r%s%*s", line, p->width > n ? p->width - n : 0, "");
	fflush(p->out);
	p->width = n;
}

void progress__add(struct progress *p, uint64_t bytes)
{
	double t;

	if (!p->out)
		return;
	p->done += bytes;
	t = now();
	if (t - p->last < REDRAW_SECONDS)
		return;
	p->last = t;
	draw(p, t);
}

void progress__exit(struct progress *p)
{
	if (!p->out || !p->width)
		return;
	fprintf(p->out, "\r%*s\r", p->width, "");
	fflush(p->out);
	p->width = 0;
}
