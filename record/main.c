/*
 * dirrecord - perf record's spelling: record a command, processes, threads or the
 * whole system into a perf.data file (record/recorder.h does the work). A thin front
 * end: parse options, run, print the one-line diagnostic, exit.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <limits.h>	/* PATH_MAX */
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/options.h"
#include "format/attr.h"
#include "format/diag.h"
#include "format/index.h"
#include "format/writer.h"	/* WRITER_AIO_MAX */
#include "record/events.h"
#include "record/recorder.h"
#include "record/sysfile.h"
#include "record/target.h"
#include "record/threads.h"
#include "banned.h"

/* The SYNOPSIS of docs/dirrecord.1.md; the options come from the table. */
static const char synopsis[] =
	"usage: dirrecord [-a | -C CPUS | -p PID | -t TID] [-e EVENTS]\n"
	"                 [-F FREQ | -c COUNT] [-g | --call-graph MODE] [-m PAGES]\n"
	"                 [-o FILE] [--threads[=SPEC]] [-z | --compression-level=N]\n"
	"                 [--aio[=N]] [-M SIZE] [-k CLOCKID] [-N | --buildid-dir DIR]\n"
	"                 [-q] [--] [COMMAND [ARGS...]]\n";
static const char epilogue[] =
	"A COMMAND is started with the events and waited for; without one, -a, -C, -p and\n"
	"-t record until SIGINT (Ctrl-C) or SIGTERM, or until the processes exit.\n";

#define PROG "dirrecord"
/* the default ring buffer: 512 KiB of data per cpu, as perf record maps for root */
#define DEFAULT_MMAP_BYTES (512u * 1024)

static volatile sig_atomic_t stop_signal;
static volatile sig_atomic_t snapshot_asked;

static void on_snapshot(int sig)
{
	(void)sig;
	snapshot_asked = 1;
}

static void on_stop(int sig)
{
	stop_signal = sig;
}

static void on_child(int sig)
{
	(void)sig;	/* only to wake poll() up (EINTR) */
}

static int bad_usage(const char *msg)
{
	return cli__bad_usage(PROG, msg);
}

static int fail(const char *fmt, const char *arg)
{
	fprintf(stderr, PROG ": ");
	fprintf(stderr, fmt, arg);
	fputc('\n', stderr);
	return 1;
}

/* A write error the recording can be kept after (writer__salvage()): the disk or
 * the quota is full, or the file too large. */
static bool write_failed(int err)
{
	return err == -ENOSPC || err == -EDQUOT || err == -EFBIG;
}

static int fail_diag(const struct diag *d)
{
	char line[1024];

	if (d->path[0])
		diag__format(d, line, sizeof(line));
	else
		snprintf(line, sizeof(line), "%s", d->msg[0] ? d->msg : diag__code_str(d->code));
	fprintf(stderr, PROG ": %s\n", line);
	return 1;
}

/* a positive decimal number */
static bool parse_u64(const char *s, uint64_t *v)
{
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	*v = strtoull(s, &end, 10);
	return !errno && !*end && *v;
}

/* a size: bytes, or a number with a B/K/M/G suffix */
static bool parse_size(const char *s, uint64_t *v)
{
	unsigned long long n, unit = 1;
	char *end;

	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || !n)
		return false;
	if (*end) {
		switch (*end == 'b' || *end == 'B' ? 'B' : *end & ~0x20) {
		case 'B': unit = 1; break;
		case 'K': unit = 1ULL << 10; break;
		case 'M': unit = 1ULL << 20; break;
		case 'G': unit = 1ULL << 30; break;
		default: return false;
		}
		if (end[1])
			return false;
	}
	if (n > (1ULL << 40) / unit)
		return false;
	*v = n * unit;
	return true;
}

/* -m: pages, or a size with a B/K/M/G suffix; rounded up to a power of two */
static bool parse_mmap_pages(const char *s, unsigned *pages)
{
	unsigned long long page = (unsigned long long)sysconf(_SC_PAGESIZE), n = 1;
	size_t len = strlen(s);
	uint64_t v;

	if (!parse_size(s, &v))
		return false;
	if (len && (s[len - 1] < '0' || s[len - 1] > '9'))
		v = (v + page - 1) / page;	/* a size: its pages */
	while (n < v)
		n <<= 1;
	if (n > (1u << 24))
		return false;
	*pages = (unsigned)n;
	return true;
}

/* "1,2,3" -> pids */
static int parse_pid_list(const char *s, pid_t **out, size_t *nr)
{
	size_t n = 0, cap = 0;
	pid_t *v = NULL;

	while (*s) {
		char *end;
		long x;

		if (*s < '0' || *s > '9')
			goto bad;
		x = strtol(s, &end, 10);
		if (x <= 0 || x > 0x3fffffff || (*end && *end != ','))
			goto bad;
		if (n == cap) {
			pid_t *g;

			cap = cap ? 2 * cap : 8;
			g = realloc(v, cap * sizeof(*v));
			if (!g)
				goto bad;
			v = g;
		}
		v[n++] = (pid_t)x;
		s = *end ? end + 1 : end;
	}
	if (!n)
		goto bad;
	*out = v;
	*nr = n;
	return 0;
bad:
	free(v);
	return -EINVAL;
}

struct options {
	bool all_cpus, quiet, have_events, threads, no_buildid_cache;
	const char *buildid_dir;	/* --buildid-dir, or NULL: $HOME/.debug */
	const char *threads_spec;	/* --threads=SPEC, or NULL */
	int comp_level;			/* -z */
	unsigned nr_cblocks;		/* --aio */
	uint64_t snapshot_size;		/* -M */
	const char *cpu_list, *pid_list, *tid_list, *output;
	struct record_event *ev;
	size_t nr_ev;
	struct record_opts ro;
	unsigned mmap_pages;
	char **cmd;	/* the command, or NULL */
};

/* ---- the option table's handlers (cli/options.h): opt->value is struct options ---- */

static int opt_event(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;
	char err[256];

	if (record_events__parse(arg, &o->ev, &o->nr_ev, err, sizeof(err)))
		return cli__opt_usage(p, "-e: %s", err);
	o->have_events = true;
	return 0;
}

static int opt_freq(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;

	if (!parse_u64(arg, &o->ro.freq))
		return cli__opt_usage(p, "-F takes a number of samples per second");
	return 0;
}

static int opt_count(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;

	if (!parse_u64(arg, &o->ro.period))
		return cli__opt_usage(p, "-c takes a number of events");
	return 0;
}

static int opt_g(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	(void)p, (void)arg;
	((struct options *)opt->value)->ro.callchain = true;
	return 0;
}

static int opt_call_graph(struct cli_parser *p, const struct cli_option *opt,
			  const char *arg)
{
	struct options *o = opt->value;

	if (!strcmp(arg, "fp")) {
		o->ro.callchain = true;
	} else if (!strncmp(arg, "dwarf", 5) && (!arg[5] || arg[5] == ',')) {
		uint64_t size = 8192;

		if (arg[5] && (!parse_u64(arg + 6, &size) || size > 65528))
			return cli__opt_usage(p, "--call-graph dwarf,SIZE takes a stack size "
					      "up to 65528 bytes");
		o->ro.dwarf_size = (uint32_t)size;
		o->ro.callchain = false;
	} else {
		return cli__opt_usage(p, "--call-graph takes fp or dwarf[,SIZE]");
	}
	return 0;
}

static int opt_mmap_pages(struct cli_parser *p, const struct cli_option *opt,
			  const char *arg)
{
	if (!parse_mmap_pages(arg, &((struct options *)opt->value)->mmap_pages))
		return cli__opt_usage(p, "-m takes a number of pages or a size such as 512K");
	return 0;
}

static int opt_threads(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;

	(void)p;
	o->threads = true;
	o->threads_spec = arg;
	return 0;
}

static int opt_compress(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	uint64_t level = 1;

	if (arg && (!parse_u64(arg, &level) || level > 22))
		return cli__opt_usage(p, "-z takes a zstd level from 1 to 22");
	((struct options *)opt->value)->comp_level = (int)level;
	return 0;
}

/* --aio[=N]: perf's numbers: none or 0 is 1, above 4 is 4 */
static int opt_aio(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	uint64_t n = 1;

	if (arg && strcmp(arg, "0") && !parse_u64(arg, &n))
		return cli__opt_usage(p, "--aio takes a number of writes in flight (1..%u)",
				      WRITER_AIO_MAX);
	((struct options *)opt->value)->nr_cblocks = n > WRITER_AIO_MAX ? WRITER_AIO_MAX :
						     (unsigned)n;
	return 0;
}

static int opt_snapshot(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;

	if (!parse_size(arg, &o->snapshot_size) || o->snapshot_size < 4096 ||
	    o->snapshot_size > (1ULL << 32))
		return cli__opt_usage(p, "-M takes a size from 4K to 4G, such as 4M");
	return 0;
}

static int opt_clockid(struct cli_parser *p, const struct cli_option *opt, const char *arg)
{
	struct options *o = opt->value;
	int id = record_events__clockid(arg);

	if (id < 0)
		return cli__opt_usage(p, "-k: unknown clockid '%s'", arg);
	o->ro.use_clockid = true;
	o->ro.clockid = id;
	return 0;
}

/* @return 0 to record, -1 after --help or --version (exit 0), else the exit status */
static int parse_options(int argc, char **argv, struct options *o)
{
	const struct cli_option opts[] = {
		{ "all-cpus", 'a', CLI_ARG_NONE, NULL, "every cpu (system-wide)",
		  cli__opt_true, &o->all_cpus, 0 },
		{ "cpu", 'C', CLI_ARG_REQUIRED, "CPUS",
		  "these cpus only (\"0-2,5\"; system-wide)", cli__opt_string, &o->cpu_list,
		  0 },
		{ "pid", 'p', CLI_ARG_REQUIRED, "PID",
		  "these processes (comma-separated) and their new threads",
		  cli__opt_string, &o->pid_list, 0 },
		{ "tid", 't', CLI_ARG_REQUIRED, "TID", "these threads (comma-separated)",
		  cli__opt_string, &o->tid_list, 0 },
		{ "event", 'e', CLI_ARG_REQUIRED, "EVENTS",
		  "events (default: cycles, or cpu-clock where the cpu has\n"
		  "no PMU); `{a,b}` groups; -e may be given again", opt_event, o, 0 },
		{ "freq", 'F', CLI_ARG_REQUIRED, "FREQ", "samples per second (default 4000)",
		  opt_freq, o, 0 },
		{ "count", 'c', CLI_ARG_REQUIRED, "COUNT", "one sample every COUNT events",
		  opt_count, o, 0 },
		{ "", 'g', CLI_ARG_NONE, NULL, "frame-pointer call graphs", opt_g, o, 0 },
		{ "call-graph", 0, CLI_ARG_REQUIRED, "MODE",
		  "fp, or dwarf[,SIZE] (user stacks copied)", opt_call_graph, o, 0 },
		{ "mmap-pages", 'm', CLI_ARG_REQUIRED, "N",
		  "ring buffer data pages per cpu (a power of two), or a\n"
		  "size with B/K/M/G (default 512K)", opt_mmap_pages, o, 0 },
		{ "output", 'o', CLI_ARG_REQUIRED, "FILE",
		  "output (default perf.data; an existing one is renamed\nFILE.old)",
		  cli__opt_string, &o->output, 0 },
		{ "threads", 0, CLI_ARG_OPTIONAL, "SPEC",
		  "a data directory (-o DIR, default perf.data): a reader\n"
		  "thread per mask of SPEC (cpu, core, package, numa,\n"
		  "or CPUS/AFFINITY:...; default cpu), cpu N's ring in\nDIR/data.N",
		  opt_threads, o, 0 },
		{ "compression-level", 'z', CLI_ARG_OPTIONAL, "N",
		  "\nzstd-compress the records (level N, 1..22; default 1)", opt_compress, o,
		  0 },
		{ "aio", 0, CLI_ARG_OPTIONAL, "N",
		  "asynchronous writes (io_uring): N in flight per file\n"
		  "(1..4, default 1)", opt_aio, o, 0 },
		{ "snapshot-size", 'M', CLI_ARG_REQUIRED, "SIZE",
		  "\nsnapshot mode: keep each ring's newest SIZE bytes of\n"
		  "samples (B/K/M/G) and write them on SIGUSR2 only", opt_snapshot, o, 0 },
		{ "clockid", 'k', CLI_ARG_REQUIRED, "CLOCKID",
		  "sample times on this clock: monotonic, monotonic_raw,\n"
		  "realtime, boottime, tai (or a number)", opt_clockid, o, 0 },
		{ "no-buildid-cache", 'N', CLI_ARG_NONE, NULL,
		  "add nothing to the build-id cache (~/.debug)", cli__opt_true,
		  &o->no_buildid_cache, 0 },
		{ "buildid-dir", 0, CLI_ARG_REQUIRED, "DIR",
		  "the build-id cache the recording's kernel symbols and\n"
		  "files go to (default ~/.debug)", cli__opt_string, &o->buildid_dir, 0 },
		{ "quiet", 'q', CLI_ARG_NONE, NULL, "no messages but errors", cli__opt_true,
		  &o->quiet, 0 },
		CLI_OPT_VERSION(PROG),
		CLI_OPT_HELP,
		CLI_OPT_END,
	};
	struct cli_parser p = { .prog = PROG, .synopsis = synopsis, .opts = opts,
				.epilogue = epilogue, .operands = true };
	int rc = cli__options_parse(&p, argc, argv);

	if (rc != CLI_GO_ON)
		return rc == 0 ? -1 : rc;
	if (p.next < argc)
		o->cmd = argv + p.next;
	if (o->ro.freq && o->ro.period)
		return bad_usage("-F and -c do not go together");
	if (!strcmp(o->output, "-"))
		return bad_usage("-o -: pipe output is not supported yet");
	if (!o->cmd && !o->all_cpus && !o->cpu_list && !o->pid_list && !o->tid_list)
		return bad_usage("no command to run, and no -a, -C, -p or -t");
	if ((o->pid_list != NULL) + (o->tid_list != NULL) +
	    (o->all_cpus || o->cpu_list) > 1)
		return bad_usage("-a/-C, -p and -t do not go together");
	return 0;
}

/* the events of o (the default: cycles, or fallback's cpu-clock) with their attrs */
static int make_events(struct options *o, const char *fallback, bool system_wide,
		       bool command)
{
	char err[256];
	int rc;

	if (fallback || !o->have_events) {
		record_events__free(o->ev, o->nr_ev);
		o->ev = NULL;
		o->nr_ev = 0;
		if (record_events__parse(fallback ? fallback : "cycles", &o->ev, &o->nr_ev,
					 err, sizeof(err)))
			return -ENOMEM;
	}
	o->ro.sample_cpu = system_wide;
	rc = record_events__config(o->ev, o->nr_ev, &o->ro);
	if (!rc && system_wide)
		rc = record_events__add_tracking(&o->ev, &o->nr_ev);
	if (rc)
		return rc;
	/* only a command's exec starts the events; the others are enabled by ioctl */
	if (!command)
		for (size_t i = 0; i < o->nr_ev; i++)
			o->ev[i].attr.flags &= ~(1ULL << ATTR_ENABLE_ON_EXEC);
	return 0;
}

/* -F above the kernel's maximum: lowered to it, as perf record lowers it */
static void cap_freq(struct options *o)
{
	char buf[32];
	unsigned long long max;

	if (!o->ro.freq ||
	    sysfile__line(buf, sizeof(buf), "/proc/sys/kernel/perf_event_max_sample_rate"))
		return;
	if ((max = strtoull(buf, NULL, 10)) && o->ro.freq > max) {
		if (!o->quiet)
			fprintf(stderr, PROG ": warning: -F %llu is above the kernel's maximum "
				"(/proc/sys/kernel/perf_event_max_sample_rate): %llu Hz used\n",
				(unsigned long long)o->ro.freq, max);
		o->ro.freq = max;
	}
}

/* a recording: its file and index, or the directory with its files (data, data.N)
 * and index; a directory that holds anything else stays */
static void remove_output(const char *path, bool dir)
{
	char name[4096 + 300];
	struct dirent *de;
	DIR *dd;

	if (!dir) {
		unlink(path);
		snprintf(name, sizeof(name), "%s" DIR_INDEX_SUFFIX, path);
		unlink(name);
		return;
	}
	dd = opendir(path);
	while (dd && (de = readdir(dd))) {
		if (strcmp(de->d_name, "data") && strncmp(de->d_name, "data.", 5) &&
		    strcmp(de->d_name, DIR_INDEX_DIR_NAME))
			continue;
		snprintf(name, sizeof(name), "%s/%s", path, de->d_name);
		unlink(name);
	}
	if (dd)
		closedir(dd);
	rmdir(path);
}

/* FILE -> FILE.old, as perf record keeps the previous recording (a regular file or a
 * --threads directory; anything else is left for the writer, which refuses it) */
static int keep_old(const char *path)
{
	char old[4096];
	struct stat st, ost;

	if (lstat(path, &st) || (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
		return 0;
	snprintf(old, sizeof(old), "%s.old", path);
	/* an old directory recording goes first, as perf removes it (a file is
	 * replaced by the rename; a directory replaces only an empty one) */
	if (!lstat(old, &ost) && (S_ISDIR(ost.st_mode) || S_ISDIR(st.st_mode)))
		remove_output(old, S_ISDIR(ost.st_mode));
	if (rename(path, old)) {
		fprintf(stderr, PROG ": cannot rename %s to %s: %s\n", path, old,
			strerror(errno));
		return 1;
	}
	if (S_ISREG(st.st_mode)) {
		/* its index goes with it (a directory's is inside) */
		char idx[4096 + 16], old_idx[4096 + 16];

		snprintf(idx, sizeof(idx), "%s" DIR_INDEX_SUFFIX, path);
		snprintf(old_idx, sizeof(old_idx), "%s" DIR_INDEX_SUFFIX, old);
		if (rename(idx, old_idx) && errno != ENOENT)
			unlink(idx);
	}
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa = { 0 };

	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;	/* no SA_RESTART: poll() returns EINTR */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_snapshot;
	sigaction(SIGUSR2, &sa, NULL);
	sa.sa_handler = on_child;
	sa.sa_flags = SA_NOCLDSTOP;
	sigaction(SIGCHLD, &sa, NULL);
}

int main(int argc, char **argv)
{
	struct options o = { .output = "perf.data" };
	struct recorder_opts ro = { 0 };
	char buildid_dir[PATH_MAX];
	struct recorder_stats st = { 0 };
	struct record_child child = { .pid = -1, .go_fd = -1, .err_fd = -1 };
	struct diag d = { .offset = DIAG_NO_OFFSET };
	struct recorder *r = NULL;
	bool system_wide, command, created = false, child_done = false;
	pid_t *tids = NULL;
	int *cpus = NULL;
	unsigned *thread_of = NULL;
	cpu_set_t *affinity = NULL;
	size_t nr_threads = 0;
	size_t nr_tids = 0, nr_cpus = 0;
	int rc, status = 0, exit_code = 1;

	rc = parse_options(argc, argv, &o);
	if (rc) {
		record_events__free(o.ev, o.nr_ev);
		return rc < 0 ? 0 : rc;
	}
	system_wide = o.all_cpus || o.cpu_list;
	command = !system_wide && !o.pid_list && !o.tid_list;
	if (!o.mmap_pages)
		o.mmap_pages = DEFAULT_MMAP_BYTES / (unsigned)sysconf(_SC_PAGESIZE);
	cap_freq(&o);
	rc = make_events(&o, NULL, system_wide, command);
	if (rc == -EINVAL) {
		record_events__free(o.ev, o.nr_ev);
		return bad_usage("bad event options (-F with -c, or a DWARF stack too big)");
	}
	if (rc)
		goto out;
	rc = record_target__cpus(o.cpu_list, &cpus, &nr_cpus);
	if (rc == -EINVAL && o.cpu_list) {
		record_events__free(o.ev, o.nr_ev);
		return bad_usage("-C takes a cpu list such as 0-2,5");
	}
	if (rc) {
		fail("cannot read the online cpus: %s", strerror(-rc));
		goto out;
	}
	if (o.cpu_list) {
		int *online;
		size_t nr_online;
		char num[32];

		rc = record_target__cpus(NULL, &online, &nr_online);
		for (size_t i = 0; !rc && i < nr_cpus; i++) {
			bool found = false;

			for (size_t j = 0; j < nr_online; j++)
				found |= online[j] == cpus[i];
			if (!found) {
				snprintf(num, sizeof(num), "%d", cpus[i]);
				fail("-C: cpu %s is not online", num);
				free(online);
				goto out;
			}
		}
		if (!rc)
			free(online);
	}
	if (o.threads) {
		char err[256] = "";

		rc = record_threads__masks(o.threads_spec, cpus, nr_cpus, &thread_of, &affinity,
					   &nr_threads, err, sizeof(err));
		if (rc == -EINVAL) {
			record_events__free(o.ev, o.nr_ev);
			free(cpus);
			return bad_usage(err);
		}
		if (rc)
			goto out;
	}
	if (o.pid_list || o.tid_list) {
		pid_t *list;
		size_t n;

		if (parse_pid_list(o.pid_list ? o.pid_list : o.tid_list, &list, &n)) {
			record_events__free(o.ev, o.nr_ev);
			free(cpus);
			return bad_usage(o.pid_list ? "-p takes process ids, comma-separated"
					 : "-t takes thread ids, comma-separated");
		}
		if (o.tid_list) {
			tids = list;
			nr_tids = n;
			for (size_t i = 0; i < n; i++)
				if (record_target__tgid(tids[i]) < 0) {
					fail("no thread %s", o.tid_list);
					free(list);
					tids = NULL;
					goto out;
				}
		} else {
			for (size_t i = 0; i < n; i++) {
				pid_t *t;
				size_t nt;
				pid_t *g;

				rc = record_target__threads(list[i], &t, &nt);
				if (rc) {
					char num[32];

					snprintf(num, sizeof(num), "%d", (int)list[i]);
					fail("no process %s", num);
					free(list);
					goto out;
				}
				g = realloc(tids, (nr_tids + nt) * sizeof(*g));
				if (!g) {
					free(t);
					free(list);
					goto out;
				}
				tids = g;
				memcpy(tids + nr_tids, t, nt * sizeof(*t));
				nr_tids += nt;
				free(t);
			}
			free(list);
		}
	}
	install_signals();
	if (o.cmd) {
		rc = record_child__start(&child, o.cmd);
		if (rc) {
			fail("cannot start the command: %s", strerror(-rc));
			goto out;
		}
		if (command) {
			tids = malloc(sizeof(*tids));
			if (!tids)
				goto out;
			tids[0] = child.pid;
			nr_tids = 1;
		}
	}
	if (keep_old(o.output))
		goto out;
	if (o.threads && mkdir(o.output, 0700)) {
		fprintf(stderr, PROG ": cannot create the directory %s: %s\n", o.output,
			strerror(errno));
		goto out;
	}
	created = o.threads;	/* the directory is ours to remove on failure */

	ro.target = system_wide ? RECORDER_SYSTEM : o.pid_list ? RECORDER_PID :
		    o.tid_list ? RECORDER_TID : RECORDER_COMMAND;
	ro.tids = tids;
	ro.nr_tids = nr_tids;
	ro.cpus = cpus;
	ro.nr_cpus = nr_cpus;
	ro.mmap_pages = o.mmap_pages;
	/* perf samples addresses, and so synthesizes data maps, for -d and DWARF call graphs */
	ro.mmap_data = o.ro.data_addr || o.ro.dwarf_size;
	ro.path = o.output;
	ro.argv = (const char *const *)argv;
	ro.argc = (size_t)argc;
	ro.events = o.ev;
	ro.nr_events = o.nr_ev;
	ro.dir = o.threads;
	ro.nr_threads = nr_threads;
	ro.thread_of = thread_of;
	ro.affinity = affinity;
	ro.comp_level = o.comp_level;
	ro.nr_cblocks = o.nr_cblocks;
	ro.snapshot_size = (size_t)o.snapshot_size;
	/* perf record's cache: --buildid-dir, else $HOME/.debug */
	if (!o.no_buildid_cache && o.buildid_dir)
		ro.buildid_dir = o.buildid_dir;
	else if (!o.no_buildid_cache && getenv("HOME") && getenv("HOME")[0] &&
		 snprintf(buildid_dir, sizeof(buildid_dir), "%s/.debug", getenv("HOME")) <
			 (int)sizeof(buildid_dir))
		ro.buildid_dir = buildid_dir;
	rc = recorder__open(&r, &ro, &d);
	if ((rc == -ENOENT || rc == -EOPNOTSUPP || rc == -ENODEV) && !o.have_events) {
		/* perf record's fallback: no PMU here, so the cpu clock */
		d = (struct diag){ .offset = DIAG_NO_OFFSET };
		rc = make_events(&o, "cpu-clock", system_wide, command);
		ro.events = o.ev;
		ro.nr_events = o.nr_ev;
		if (!rc)
			rc = recorder__open(&r, &ro, &d);
	}
	if (rc) {
		fail_diag(&d);
		goto out;
	}
	created = true;
	if (recorder__aio_fallback(r) && !o.quiet)
		fprintf(stderr, PROG ": warning: --aio: io_uring is not available here (%s): "
			"plain writes\n", strerror(-recorder__aio_fallback(r)));
	rc = recorder__synthesize(r, &d);
	if (!rc)
		rc = recorder__start(r, &d);
	if (rc) {
		fail_diag(&d);
		goto out;
	}
	if (child.pid > 0) {
		rc = record_child__go(&child);
		if (rc) {
			fprintf(stderr, PROG ": cannot run '%s': %s\n", o.cmd[0], strerror(-rc));
			exit_code = 127;
			goto out;
		}
	}
	if (!command) {
		rc = recorder__enable(r);
		if (rc) {
			fail("cannot enable the events: %s", strerror(-rc));
			goto out;
		}
	}
	for (;;) {
		bool wrote;

		rc = recorder__read(r, &wrote, &d);
		if (rc) {
			fail_diag(&d);
			/* a full disk: what was written is kept, readable to there */
			if (write_failed(rc) && !recorder__salvage(r))
				created = false;
			goto out;
		}
		if (stop_signal)
			break;
		if (snapshot_asked) {
			snapshot_asked = 0;
			rc = recorder__snapshot(r, &d);
			if (rc) {
				fail_diag(&d);
				goto out;
			}
			continue;
		}
		if (child.pid > 0 && waitpid(child.pid, &status, WNOHANG) == child.pid) {
			child_done = true;
			break;
		}
		if (!wrote) {
			rc = recorder__wait(r, 100);
			if (rc < 0) {
				fail("poll: %s", strerror(-rc));
				goto out;
			}
			if (rc == 1 && !system_wide && child.pid <= 0)
				break;	/* every recorded task exited */
		}
	}
	if (child.pid > 0 && !child_done) {
		kill(child.pid, SIGTERM);
		while (waitpid(child.pid, &status, 0) < 0 && errno == EINTR)
			;
		child_done = true;
	}
	child.pid = -1;
	rc = recorder__finish(r, &st, &d);
	if (rc) {
		fail_diag(&d);
		if (write_failed(rc) && !recorder__salvage(r))
			created = false;
		goto out;
	}
	created = false;
	if (!o.quiet) {
		if (st.no_kernel_map)
			fprintf(stderr, PROG ": warning: /proc/kallsyms hides the kernel's "
				"addresses (/proc/sys/kernel/kptr_restrict): no kernel map\n");
		if (st.kernel_excluded)
			fprintf(stderr, PROG ": warning: no permission to record the kernel "
				"(/proc/sys/kernel/perf_event_paranoid): user space only\n");
		if (st.buildid_cache_err)
			fprintf(stderr, PROG ": warning: %s: the build-id cache entries could "
				"not all be added: %s\n", ro.buildid_dir,
				strerror(-st.buildid_cache_err));
		if (st.nr_lost)
			fprintf(stderr, PROG ": warning: the kernel lost %llu samples (a "
				"larger -m or a lower -F helps)\n",
				(unsigned long long)st.nr_lost);
		if (st.comp_out)	/* perf record -z's closing line, and the samples */
			fprintf(stderr, "[ " PROG ": Captured and wrote %.3f MB %s, compressed "
				"(original %.3f MB, ratio is %.3f) (%llu samples) ]\n",
				(double)(st.bytes - st.comp_in + st.comp_out) / (1024 * 1024),
				o.output, (double)st.bytes / (1024 * 1024),
				(double)st.comp_in / (double)st.comp_out,
				(unsigned long long)st.nr_samples);
		else
			fprintf(stderr, "[ " PROG ": Captured and wrote %.3f MB %s (%llu "
				"samples) ]\n", (double)st.bytes / (1024 * 1024), o.output,
				(unsigned long long)st.nr_samples);
	}
	/* as perf record: the command's exit status; 0 when we stopped it */
	exit_code = 0;
	if (o.cmd && WIFEXITED(status))
		exit_code = WEXITSTATUS(status);
	else if (o.cmd && WIFSIGNALED(status) && !stop_signal)
		exit_code = 128 + WTERMSIG(status);
out:
	if (child.pid > 0 && child.go_fd < 0) {
		kill(child.pid, SIGTERM);
		while (waitpid(child.pid, NULL, 0) < 0 && errno == EINTR)
			;
	} else if (child.pid > 0) {
		record_child__abandon(&child);
	}
	recorder__delete(r);
	if (created)
		remove_output(o.output, o.threads);
	record_events__free(o.ev, o.nr_ev);
	free(thread_of);
	free(affinity);
	free(cpus);
	free(tids);
	return exit_code;
}
