/*
 * pager - standard output through $PAGER on a terminal (see pager.h).
 */
#include "cli/pager.h"

#include <errno.h>
#include <signal.h>	/* sigaction, raise */
#include <stdio.h>	/* fflush, snprintf */
#include <stdlib.h>	/* atexit, getenv, setenv */
#include <string.h>	/* strcmp, strchr */
#include <sys/select.h>	/* select */
#include <sys/wait.h>	/* waitpid */
#include <unistd.h>	/* access, close, dup2, execl, fork, isatty, pipe */

#include "banned.h"

static pid_t pager_pid = -1;	/* the pager's process; -1: none */
static pid_t owner_pid;		/* the process that started it (not a fork of it) */
static bool paged;

static const int caught[] = { SIGINT, SIGHUP, SIGTERM, SIGQUIT, SIGPIPE };

/* Whether `less` is an executable file in a directory of $PATH. */
static bool less_installed(void)
{
	const char *path = getenv("PATH");
	char buf[4096];

	for (const char *p = path ? path : "/usr/bin:/bin"; ; ) {
		const char *colon = strchr(p, ':');
		int n = colon ? (int)(colon - p) : (int)strlen(p);

		if (n > 0 && snprintf(buf, sizeof(buf), "%.*s/less", n, p) < (int)sizeof(buf) &&
		    access(buf, X_OK) == 0)
			return true;
		if (!colon)
			return false;
		p = colon + 1;
	}
}

/* The pager to run; NULL for none. */
static const char *pager_command(void)
{
	const char *pager = getenv("DIRREPORT_PAGER");

	if (!pager)
		pager = getenv("PAGER");
	if (!pager)
		pager = less_installed() ? "less" : NULL;
	if (!pager || !*pager || !strcmp(pager, "cat"))
		return NULL;
	return pager;
}

/* End of output for the pager, then wait for it (async-signal-safe). */
static void close_and_wait(void)
{
	close(1);
	close(2);
	while (waitpid(pager_pid, NULL, 0) < 0 && errno == EINTR)
		;
	pager_pid = -1;
}

static void wait_at_exit(void)
{
	if (pager_pid < 0 || getpid() != owner_pid)
		return;
	fflush(NULL);	/* not fflush(stdout): a front end may have closed it */
	close_and_wait();
}

static void on_signal(int sig)
{
	if (pager_pid >= 0 && getpid() == owner_pid) {
		close_and_wait();
		/* the pager is gone (quit before the end): nothing more to say */
		if (sig == SIGPIPE)
			_exit(0);
	}
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The pager's process: wait for the first bytes (less would take the terminal
 * before there is anything to show), then run it. */
static void run_pager(int in, int out, const char *pager)
{
	fd_set rd;

	dup2(in, 0);
	close(in);
	close(out);
	FD_ZERO(&rd);
	FD_SET(0, &rd);
	(void)select(1, &rd, NULL, NULL, NULL);
	if (!getenv("LESS"))
		setenv("LESS", "FRX", 1);
	if (!getenv("LV"))
		setenv("LV", "-c", 1);
	execl("/bin/sh", "sh", "-c", pager, (char *)NULL);
	_exit(127);
}

bool cli__pager_start(void)
{
	struct sigaction sa = { .sa_handler = on_signal };
	const char *pager;
	int fd[2];

	if (pager_pid >= 0 || !isatty(1) || !(pager = pager_command()))
		return false;
	if (pipe(fd))
		return false;
	fflush(NULL);	/* nothing buffered is written twice */
	pager_pid = fork();
	if (pager_pid < 0) {
		close(fd[0]);
		close(fd[1]);
		return false;
	}
	if (pager_pid == 0)
		run_pager(fd[0], fd[1], pager);
	owner_pid = getpid();
	paged = true;
	dup2(fd[1], 1);
	if (isatty(2))
		dup2(fd[1], 2);
	close(fd[0]);
	close(fd[1]);
	atexit(wait_at_exit);
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(caught) / sizeof(caught[0]); i++) {
		struct sigaction old;

		/* a signal the program was started to ignore stays ignored */
		if (sigaction(caught[i], NULL, &old) == 0 && old.sa_handler != SIG_IGN)
			sigaction(caught[i], &sa, NULL);
	}
	return true;
}

bool cli__stdout_is_terminal(void)
{
	return paged || isatty(1);
}
