#include "util/phase.h"

#include <errno.h>
#include <time.h>	/* clock_gettime */

#include "banned.h"

/* One mark: when (ns since phases__start()) and how much CPU the process had used. */
struct phase_mark {
	const char *name;
	long long wall_ns, cpu_ns;
};

static struct {
	bool on;
	struct timespec wall0, cpu0;
	struct phase_mark marks[PHASES_MAX];
	unsigned nr;
} phases;

static long long since(clockid_t clock, const struct timespec *t0)
{
	struct timespec t;

	if (clock_gettime(clock, &t))
		return 0;
	return (t.tv_sec - t0->tv_sec) * 1000000000LL + (t.tv_nsec - t0->tv_nsec);
}

void phases__start(bool on)
{
	phases.on = on;
	phases.nr = 0;
	if (on && (clock_gettime(CLOCK_MONOTONIC, &phases.wall0) ||
		   clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &phases.cpu0)))
		phases.on = false;
}

void phases__mark(const char *name)
{
	struct phase_mark *m;

	if (!phases.on || phases.nr == PHASES_MAX)
		return;
	m = &phases.marks[phases.nr++];
	m->name = name;
	m->wall_ns = since(CLOCK_MONOTONIC, &phases.wall0);
	m->cpu_ns = since(CLOCK_PROCESS_CPUTIME_ID, &phases.cpu0);
}

static int line(FILE *out, const char *prog, const char *name, long long wall,
		long long cpu)
{
	char busy[32] = "-";

	/* the busy threads of a stage under 1 ms say nothing (other threads' CPU
	 * time is counted at their ticks) */
	if (wall >= 1000000)
		snprintf(busy, sizeof(busy), "%.2f", (double)cpu / (double)wall);
	return fprintf(out, "%s: phase %s: %.1f ms wall, %.1f ms CPU, %s busy\n", prog,
		       name, (double)wall / 1e6, (double)cpu / 1e6, busy) < 0 ? -EIO : 0;
}

int phases__print(FILE *out, const char *prog)
{
	long long wall = 0, cpu = 0;
	int err = 0;

	if (!phases.on || !phases.nr)
		return 0;
	for (unsigned i = 0; i < phases.nr && !err; i++) {
		const struct phase_mark *m = &phases.marks[i];

		err = line(out, prog, m->name, m->wall_ns - wall, m->cpu_ns - cpu);
		wall = m->wall_ns;
		cpu = m->cpu_ns;
	}
	if (!err)
		err = line(out, prog, "total", wall, cpu);
	return err;
}
