/*
 * progress - terminal progress bar (see progress.h).
 */
#include "cli/progress.h"

#include <stdlib.h>	/* getenv, strtod */
#include <string.h>	/* memset, strcmp */
#include <sys/stat.h>	/* stat */
#include <time.h>	/* clock_gettime */
#include <unistd.h>	/* isatty */

#include "cli/pager.h"	/* cli__stdout_is_terminal */
#include "reader/session.h"

#include "banned.h"

#define BAR_CELLS 30
#define REDRAW_SECONDS 0.1
#define DELAY_SECONDS 1.0

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
	const char *env = getenv("DIRREPORT_PROGRESS_DELAY");
	char *end;

	memset(p, 0, sizeof(*p));
	p->out = enabled ? out : NULL;
	p->total = total;
	p->start = p->last = now();
	p->delay = DELAY_SECONDS;
	if (env && *env) {
		double v = strtod(env, &end);

		if (!*end && v >= 0)
			p->delay = v;
	}
}

bool progress__wanted(bool writes_stdout)
{
	return isatty(2) && !(writes_stdout && cli__stdout_is_terminal());
}

uint64_t progress__session_bytes(struct session *s)
{
	uint64_t total = 0;
	struct stat st;

	if (session__is_pipe(s) && !strcmp(session__path(s), "-"))
		return 0;
	for (size_t i = 0; i < session__nr_files(s); i++) {
		const char *label = session__file_label(s, i);

		if (!strcmp(label, "pipe"))
			label = session__path(s);
		if (stat(label, &st))
			return 0;
		total += (uint64_t)st.st_size;
	}
	return total;
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
	if (!p->total) {
		n = snprintf(line, sizeof(line), "%s  %s/s", done, rate);
	} else if (bps > 0) {
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
	if (p->width ? t - p->last < REDRAW_SECONDS : t - p->start < p->delay)
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
