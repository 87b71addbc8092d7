/*
 * target - cpu lists, a process's threads, the command held before its exec
 * (record/target.h).
 */
#include "record/target.h"

#include <ctype.h>	/* isdigit */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>	/* O_CLOEXEC */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "banned.h"

#define CPU_MAX 4096

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

static int parse_cpu_list(const char *list, int **cpus, size_t *nr)
{
	unsigned char *seen = calloc(CPU_MAX, 1);
	const char *p = list;
	size_t n = 0;
	int *out;

	if (!seen)
		return -ENOMEM;
	while (*p) {
		char *end;
		long lo, hi;

		if (!isdigit((unsigned char)*p))
			goto bad;
		lo = strtol(p, &end, 10);
		hi = lo;
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				goto bad;
			hi = strtol(p, &end, 10);
			p = end;
		}
		if (lo > hi || hi >= CPU_MAX)
			goto bad;
		for (long c = lo; c <= hi; c++)
			if (!seen[c]++)
				n++;
		if (*p == ',' && p[1])
			p++;
		else if (*p && *p != '\n')
			goto bad;
		else if (*p == '\n')
			break;
	}
	if (!n)
		goto bad;
	out = malloc(n * sizeof(*out));
	if (!out) {
		free(seen);
		return -ENOMEM;
	}
	n = 0;
	for (int c = 0; c < CPU_MAX; c++)
		if (seen[c])
			out[n++] = c;
	free(seen);
	qsort(out, n, sizeof(*out), cmp_int);
	*cpus = out;
	*nr = n;
	return 0;
bad:
	free(seen);
	return -EINVAL;
}

int record_target__cpus(const char *list, int **cpus, size_t *nr)
{
	char buf[4096];
	FILE *f;
	int err;

	if (list)
		return parse_cpu_list(list, cpus, nr);
	f = fopen("/sys/devices/system/cpu/online", "re");
	if (!f)
		return -errno;
	if (!fgets(buf, sizeof(buf), f)) {
		err = ferror(f) ? -EIO : -EINVAL;
		fclose(f);
		return err;
	}
	fclose(f);
	return parse_cpu_list(buf, cpus, nr);
}

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = *(const pid_t *)a, y = *(const pid_t *)b;

	return (x > y) - (x < y);
}

int record_target__threads(pid_t pid, pid_t **tids, size_t *nr)
{
	char path[64];
	struct dirent *e;
	pid_t *out = NULL;
	size_t n = 0, cap = 0;
	DIR *dir;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while ((e = readdir(dir))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (n == cap) {
			pid_t *grown;

			cap = cap ? 2 * cap : 16;
			grown = realloc(out, cap * sizeof(*out));
			if (!grown) {
				free(out);
				closedir(dir);
				return -ENOMEM;
			}
			out = grown;
		}
		out[n++] = (pid_t)strtol(e->d_name, NULL, 10);
	}
	closedir(dir);
	if (!n) {
		free(out);
		return -ESRCH;
	}
	qsort(out, n, sizeof(*out), cmp_pid);
	*tids = out;
	*nr = n;
	return 0;
}

pid_t record_target__tgid(pid_t tid)
{
	char path[64], line[256];
	pid_t tgid = -ESRCH;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	f = fopen(path, "re");
	if (!f)
		return -ESRCH;
	while (fgets(line, sizeof(line), f))
		if (!strncmp(line, "Tgid:", 5)) {
			tgid = (pid_t)strtol(line + 5, NULL, 10);
			break;
		}
	fclose(f);
	return tgid;
}

int record_child__start(struct record_child *c, char *const argv[])
{
	int go[2], err[2];

	c->pid = -1;
	c->go_fd = c->err_fd = -1;
	if (pipe2(go, O_CLOEXEC))
		return -errno;
	if (pipe2(err, O_CLOEXEC)) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		return e;
	}
	c->pid = fork();
	if (c->pid < 0) {
		int e = -errno;

		close(go[0]);
		close(go[1]);
		close(err[0]);
		close(err[1]);
		return e;
	}
	if (c->pid == 0) {
		char b;
		int e;

		close(go[1]);
		close(err[0]);
		/* the parent's go byte, or EOF when it gave up */
		if (read(go[0], &b, 1) != 1)
			_exit(127);
		execvp(argv[0], argv);
		e = errno;
		if (write(err[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(127);
	}
	close(go[0]);
	close(err[1]);
	c->go_fd = go[1];
	c->err_fd = err[0];
	return 0;
}

int record_child__go(struct record_child *c)
{
	int e = 0;
	ssize_t n;

	if (write(c->go_fd, "g", 1) != 1)
		e = -errno;
	close(c->go_fd);
	c->go_fd = -1;
	if (!e) {
		do
			n = read(c->err_fd, &e, sizeof(e));
		while (n < 0 && errno == EINTR);
		e = n == (ssize_t)sizeof(e) ? -e : 0;
	}
	close(c->err_fd);
	c->err_fd = -1;
	if (e) {
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
		c->pid = -1;
	}
	return e;
}

void record_child__abandon(struct record_child *c)
{
	if (c->go_fd >= 0)
		close(c->go_fd);
	if (c->err_fd >= 0)
		close(c->err_fd);
	c->go_fd = c->err_fd = -1;
	if (c->pid > 0)
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	c->pid = -1;
}
