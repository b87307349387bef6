/*
 * ltprun - the in-guest runner of make ltp (tools/ltp/run.sh): runs each
 * test of a list with a time limit and prints one parseable line per test
 * on the console. Static i386 glibc program; the same binary runs on our
 * kernel and on Linux.
 *
 *   ltprun LIST
 *
 * LIST has one test a line: "SUITE NAME LIMIT_S [VAR=VALUE...] PROGRAM
 * [ARG...]" (the VAR=VALUE words go into the test's environment); empty
 * lines and lines starting with '#' are skipped. Each test runs in /tmp,
 * in a process group of its own, with its output on the console between
 *
 *   ltp: start SUITE NAME
 *   ltp: result SUITE NAME RESULT status=N|signal=N ms=N
 *
 * RESULT is from the exit status: LTP's syscalls tests OR together TFAIL 1,
 * TBROK 2, TWARN 4, TCONF 32 (PASS at 0); Open POSIX tests ("posix")
 * exit 0 PASS, 1 FAIL, 2 UNRESOLVED, 4 UNSUPPORTED, 5 UNTESTED. A test
 * still running after LIMIT_S seconds is TIMEOUT: first every thread of
 * its processes (its group and their descendants) is printed as
 *
 *   ltp: hang NAME pid=P tid=T wchan=W stat=<its /proc/P/task/T/stat>
 *
 * then the group is killed. Last line: "ltp: done N tests".
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MAX_ARGS 32
#define MAX_PIDS 512

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000L + ts.tv_nsec / 1000000;
}

/* Reads a small file into buf (NUL-terminated, trailing newline cut). */
static int read_small(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY);
	ssize_t n;

	buf[0] = '\0';
	if (fd < 0)
		return -1;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == '\0'))
		buf[--n] = '\0';
	return 0;
}

/* ppid and pgrp of a process from /proc/PID/stat; 0 if it is gone. */
static int stat_ids(int pid, int *ppid, int *pgrp)
{
	char path[64], buf[512], *rp;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if (read_small(path, buf, sizeof(buf)) < 0)
		return 0;
	rp = strrchr(buf, ')');	/* comm may hold spaces and ')' */
	if (!rp || sscanf(rp + 2, "%*c %d %d", ppid, pgrp) != 2)
		return 0;
	return 1;
}

static int in_set(const int *set, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (set[i] == pid)
			return 1;
	return 0;
}

/* The test's processes: its group, and every descendant of one of them
 * (a test may start a session of its own). Returns how many. */
static int test_pids(int leader, int *set)
{
	int n = 1, grew = 1;

	set[0] = leader;
	while (grew && n < MAX_PIDS) {
		DIR *d = opendir("/proc");
		struct dirent *e;

		grew = 0;
		if (!d)
			break;
		while ((e = readdir(d)) && n < MAX_PIDS) {
			int pid = atoi(e->d_name), ppid, pgrp;

			if (pid <= 0 || in_set(set, n, pid) ||
			    !stat_ids(pid, &ppid, &pgrp))
				continue;
			if (pgrp == leader || in_set(set, n, ppid)) {
				set[n++] = pid;
				grew = 1;
			}
		}
		closedir(d);
	}
	return n;
}

/* Prints every thread of one process: its stat line and wchan. */
static void dump_threads(const char *name, int pid)
{
	char path[96], stat[512], wchan[128];
	DIR *d;
	struct dirent *e;

	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	d = opendir(path);
	if (!d) {
		printf("ltp: hang %s pid=%d (no %s: %s)\n", name, pid, path,
		       strerror(errno));
		return;
	}
	while ((e = readdir(d))) {
		int tid = atoi(e->d_name);

		if (tid <= 0)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", pid, tid);
		read_small(path, stat, sizeof(stat));
		snprintf(path, sizeof(path), "/proc/%d/task/%d/wchan", pid, tid);
		if (read_small(path, wchan, sizeof(wchan)) < 0 || !wchan[0])
			snprintf(wchan, sizeof(wchan), "-");
		printf("ltp: hang %s pid=%d tid=%d wchan=%s stat=%s\n", name,
		       pid, tid, wchan, stat);
	}
	closedir(d);
}

/* Kills the test's processes; with `show`, prints their threads first. */
static void kill_test(const char *name, int leader, int show)
{
	int set[MAX_PIDS], n = test_pids(leader, set);

	if (show)
		for (int i = 0; i < n; i++)
			dump_threads(name, set[i]);
	fflush(stdout);
	kill(-leader, SIGKILL);
	for (int i = 0; i < n; i++)
		kill(set[i], SIGKILL);
}

static const char *ltp_result(int code)
{
	if (code == 0)
		return "PASS";
	if (code & 2)
		return "BROK";
	if (code & 1)
		return "FAIL";
	if (code & 4)
		return "WARN";
	if (code == 32)
		return "CONF";
	return "OTHER";
}

static const char *posix_result(int code)
{
	static const char *const names[] = { "PASS", "FAIL", "UNRESOLVED",
		"OTHER", "UNSUPPORTED", "UNTESTED" };

	return code >= 0 && code <= 5 ? names[code] : "OTHER";
}

/* Waits for the test up to limit_s; returns its wait status or -1 on a
 * timeout (the test then killed and reaped). */
static int wait_limited(const char *name, int pid, int limit_s)
{
	long end = now_ms() + limit_s * 1000L;
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int status;

	for (;;) {
		int got = waitpid(pid, &status, WNOHANG);

		if (got == pid)
			return status;
		if (got < 0)
			return 0;
		if (now_ms() >= end)
			break;
		nanosleep(&tick, NULL);
	}
	kill_test(name, pid, 1);
	waitpid(pid, &status, 0);
	return -1;
}

static void run_test(char *line)
{
	char *argv[MAX_ARGS + 1], *suite, *name;
	int n = 0, prog = 3, limit, status, pid;
	long t0;

	for (char *w = strtok(line, " \t\n"); w && n < MAX_ARGS;
	     w = strtok(NULL, " \t\n"))
		argv[n++] = w;
	argv[n] = NULL;
	if (n < 4 || argv[0][0] == '#')
		return;
	suite = argv[0];
	name = argv[1];
	limit = atoi(argv[2]);
	while (prog < n - 1 && strchr(argv[prog], '='))
		prog++;
	printf("ltp: start %s %s\n", suite, name);
	fflush(stdout);
	t0 = now_ms();
	pid = fork();
	if (pid == 0) {
		setpgid(0, 0);
		if (chdir("/tmp") < 0)
			perror("ltprun: chdir /tmp");
		for (int i = 3; i < prog; i++)
			putenv(argv[i]);
		execv(argv[prog], argv + prog);
		printf("ltprun: cannot run %s: %s\n", argv[prog], strerror(errno));
		_exit(127);
	}
	if (pid < 0) {
		printf("ltp: result %s %s OTHER fork=%s ms=0\n", suite, name,
		       strerror(errno));
		return;
	}
	setpgid(pid, pid);
	status = wait_limited(name, pid, limit);
	if (status == -1) {
		printf("ltp: result %s %s TIMEOUT limit=%d ms=%ld\n", suite,
		       name, limit, now_ms() - t0);
	} else {
		kill_test(name, pid, 0);	/* what it left behind */
		if (WIFSIGNALED(status))
			printf("ltp: result %s %s SIGNAL signal=%d ms=%ld\n",
			       suite, name, WTERMSIG(status), now_ms() - t0);
		else
			printf("ltp: result %s %s %s status=%d ms=%ld\n", suite,
			       name, strcmp(suite, "posix") == 0 ?
			       posix_result(WEXITSTATUS(status)) :
			       ltp_result(WEXITSTATUS(status)),
			       WEXITSTATUS(status), now_ms() - t0);
	}
	fflush(stdout);
}

/* The tests' environment, the same on both kernels: LTP's temporary
 * directories in /tmp, its helpers on PATH, no colour codes. */
static void set_env(void)
{
	setenv("TMPDIR", "/tmp", 1);
	setenv("LTPROOT", "/ltp", 1);
	setenv("PATH", "/ltp/bin:/bin", 1);
	setenv("LTP_COLORIZE_OUTPUT", "0", 1);
	setenv("LTP_TIMEOUT_MUL", "2", 0);
}

int main(int argc, char **argv)
{
	char line[1024];
	FILE *list;
	int n = 0;

	if (argc != 2) {
		fprintf(stderr, "usage: ltprun LIST\n");
		return 2;
	}
	list = fopen(argv[1], "r");
	if (!list) {
		printf("ltprun: %s: %s\n", argv[1], strerror(errno));
		return 2;
	}
	setvbuf(stdout, NULL, _IOLBF, 0);
	set_env();
	/* Linux in QEMU has no entropy source: until its random generator is
	 * ready, glibc's malloc start-up (getrandom, GRND_NONBLOCK) leaves
	 * errno = EAGAIN at main, which Open POSIX tests read as their own
	 * call's. A blocking getrandom waits for it, as a booted system has. */
	char seed;
	if (getrandom(&seed, 1, 0) != 1)
		perror("ltprun: getrandom");
	while (fgets(line, sizeof(line), list)) {
		if (line[0] == '#' || line[0] == '\n')
			continue;
		run_test(line);
		n++;
	}
	printf("ltp: done %d tests\n", n);
	return 0;
}
