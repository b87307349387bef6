/*
 * procs - processes as Linux has them (issue 45), in KTAP, so that
 * tests/linux-diff.sh compares this kernel's answers with Linux 6.1's:
 *   - the errnos of the edges: kill and waitpid with INT_MIN, a sleep on
 *     a thread's CPU clock;
 *   - vfork: the parent goes on when the child execs or exits (dash runs
 *     every external command so); the child runs in the parent's memory,
 *     lent (a comment line says so; user/glibc/clonevm.c checks it);
 *   - a signal sent to the process while every thread blocks it waits in
 *     the process's shared set (ShdPnd) for the first thread that
 *     unblocks it, not in one thread's own;
 *   - pipes: 64 KiB, F_GETPIPE_SZ and F_SETPIPE_SZ, POLLOUT only when a
 *     PIPE_BUF write would go in;
 *   - prlimit64 on another process, and its errors;
 *   - select and pselect: ready bits, a timeout and the time left, a
 *     closed descriptor, a negative nfds;
 *   - clone(CLONE_PARENT): the child is its caller's sibling, its
 *     caller's parent waits for it, and it signals as its caller would;
 *   - a stop signal stops every thread of the process (a group stop),
 *     and SIGCONT continues them all;
 *   - wait4's __WNOTHREAD: a thread waits for the children it made.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o procs user/glibc/procs.c
 * With --exit N as its arguments it exits N at once (what vfork's child
 * execs).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/limits.h>	/* PIPE_BUF */
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asleep.h"
#include "ktap.h"


static const char *errname(int e)
{
	switch (e) {
	case 0:		 return "0";
	case ESRCH:	 return "ESRCH";
	case EINVAL:	 return "EINVAL";
	case ECHILD:	 return "ECHILD";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENOSYS:	 return "ENOSYS";
	default:	 return "other";
	}
}

/* ---- the edges' errnos ------------------------------------------------- */

static void edges(void)
{
	char what[96];
	errno = 0;
	int r = (int)syscall(SYS_kill, INT_MIN, 0);
	snprintf(what, sizeof(what), "returned %d, %s", r, errname(r < 0 ? errno : 0));
	check_why(r == -1 && errno == ESRCH, "kill_int_min_is_esrch", what);

	errno = 0;
	r = (int)syscall(SYS_wait4, INT_MIN, NULL, 0, NULL);
	snprintf(what, sizeof(what), "returned %d, %s", r, errname(r < 0 ? errno : 0));
	check_why(r == -1 && errno == ESRCH, "waitpid_int_min_is_esrch", what);

	struct timespec ts = { 0, 1000 };
	r = (int)syscall(SYS_clock_nanosleep, CLOCK_THREAD_CPUTIME_ID, 0, &ts, NULL);
	snprintf(what, sizeof(what), "returned %d, %s", r, errname(r < 0 ? errno : 0));
	check_why(r == -1 && errno == EOPNOTSUPP, "clock_nanosleep_on_a_thread_clock_is_eopnotsupp",
	      what);

	/* 407, struct __kernel_timespec: what glibc 2.34+ calls first */
	long long ok64[2] = { 0, 1000000 }, bad64[2] = { 0, 1000000000 };
	int a = (int)syscall(407, CLOCK_MONOTONIC, 0, ok64, NULL);
	int b = (int)syscall(407, CLOCK_MONOTONIC, 0, bad64, NULL);
	int eb = errno;
	int c = (int)syscall(407, CLOCK_MONOTONIC, 0, (void *)16, NULL);
	int ec = errno;
	snprintf(what, sizeof(what), "1 ms: %d; nsec 1e9: %d %s; a bad pointer: %d %s", a, b,
		 errname(eb), c, ec == EFAULT ? "EFAULT" : "other");
	check_why(a == 0 && b == -1 && eb == EINVAL && c == -1 && ec == EFAULT,
	      "clock_nanosleep_time64_sleeps_and_checks_its_timespec", what);
}

/* ---- vfork --------------------------------------------------------------- */

static volatile int shared_word;

static void vforks(const char *self)
{
	char what[128], c = 0;
	int p[2];
	shared_word = 0;
	if (pipe(p) < 0)
		p[0] = p[1] = -1;
	pid_t pid = vfork();
	if (pid == 0) {
		shared_word = 42;	/* the parent's memory, lent */
		write(p[1], "c", 1);	/* before the parent goes on */
		_exit(7);
	}
	int ran_first = fcntl(p[0], F_SETFL, O_NONBLOCK) == 0 && read(p[0], &c, 1) == 1;
	int st = 0;
	waitpid(pid, &st, 0);
	close(p[0]);
	close(p[1]);
	snprintf(what, sizeof(what), "pid %s, the child wrote before the parent went on: %s, status %d",
		 pid > 0 ? "> 0" : "<= 0", ran_first ? "yes" : "no",
		 WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	check_why(pid > 0 && ran_first && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "vfork_parent_goes_on_when_the_child_exits", what);
	/* A comment, not compared (clonevm.c's vfork checks compare it). */
	printf("# vfork: the child's write to the parent's memory is %s\n",
	       shared_word == 42 ? "seen (the memory is lent)" : "not seen (the child had a copy)");

	pid = vfork();
	if (pid == 0) {
		char *argv[] = { (char *)self, "--exit", "9", NULL };
		execv(self, argv);
		_exit(127);
	}
	st = 0;
	waitpid(pid, &st, 0);
	snprintf(what, sizeof(what), "status %d", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	check_why(pid > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 9, "vfork_child_execs", what);
}

/* ---- a process's signal waits for a thread that takes it ----------------- */

static volatile pid_t handled_by;
static int go[2];		/* the worker unblocks when main has looked at ShdPnd */

static void on_usr1(int sig)
{
	(void)sig;
	handled_by = (pid_t)syscall(SYS_gettid);
}

static void *unblocker(void *arg)
{
	(void)arg;
	struct timespec wait = { 0, 100000000 };
	char c;
	read(go[0], &c, 1);	/* main sent the signal and read ShdPnd: the order is the test's */
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);	/* the pending one comes now */
	for (int i = 0; i < 100 && !handled_by; i++)
		nanosleep(&wait, NULL);
	return (void *)(long)syscall(SYS_gettid);
}

/* "ShdPnd:\t..." of /proc/self/status: is SIGUSR1's bit set? */
static int shared_pending_usr1(void)
{
	FILE *f = fopen("/proc/self/status", "r");
	char line[256];
	unsigned long long bits = 0;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "ShdPnd: %llx", &bits) == 1)
			break;
	if (f)
		fclose(f);
	return (int)(bits >> (SIGUSR1 - 1) & 1);
}

static void shared_pending(void)
{
	char what[128];
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t s;
	sigemptyset(&s);
	sigaddset(&s, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &s, NULL);	/* the worker inherits it */
	pthread_t t;
	if (pipe(go) < 0)
		return check_why(0, "a_process_signal_waits_for_the_thread_that_unblocks_it", "no pipe");
	pthread_create(&t, NULL, unblocker, NULL);
	kill(getpid(), SIGUSR1);
	int shared = shared_pending_usr1();
	write(go[1], "g", 1);
	void *worker_tid;
	pthread_join(t, &worker_tid);
	snprintf(what, sizeof(what), "in ShdPnd after kill: %s; handled by %s", shared ? "yes" : "no",
		 !handled_by ? "no thread" :
		 handled_by == (pid_t)(long)worker_tid ? "the worker" : "another thread");
	check_why(shared && handled_by == (pid_t)(long)worker_tid,
	      "a_process_signal_waits_for_the_thread_that_unblocks_it", what);
	close(go[0]);
	close(go[1]);
	pthread_sigmask(SIG_UNBLOCK, &s, NULL);
	signal(SIGUSR1, SIG_DFL);
}

/* ---- pipes ---------------------------------------------------------------- */

/* Bytes a non-blocking write end takes before EAGAIN. */
static long fill(int fd)
{
	static char block[1024];
	long total = 0, r;
	while ((r = write(fd, block, sizeof(block))) > 0)
		total += r;
	return total;
}

static void pipes(void)
{
	char what[160], c;
	int p[2];
	if (pipe(p) < 0) {
		check_why(0, "pipe_holds_64_kib_and_says_so", "pipe failed");
		return;
	}
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	long held = fill(p[1]);
	int size = fcntl(p[0], F_GETPIPE_SZ);
	snprintf(what, sizeof(what), "held %ld, F_GETPIPE_SZ %d", held, size);
	check_why(held == 65536 && size == 65536, "pipe_holds_64_kib_and_says_so", what);

	/* a byte read out of a full pipe frees no whole page: no POLLOUT,
	 * and a PIPE_BUF write would not go in whole */
	read(p[0], &c, 1);
	int e;
	struct pollfd pf = { p[1], POLLOUT, 0 };
	int ready = poll(&pf, 1, 0);
	static char page[PIPE_BUF];
	long r = write(p[1], page, sizeof(page));
	e = errno;
	snprintf(what, sizeof(what), "poll %d revents %#x, a PIPE_BUF write %ld %s", ready,
		 pf.revents, r, r < 0 && e == EAGAIN ? "EAGAIN" : "");
	check_why(ready == 0 && r == -1 && e == EAGAIN, "pollout_waits_for_a_free_page", what);

	int busy = fcntl(p[1], F_SETPIPE_SZ, 4096);
	e = errno;
	while (read(p[0], what, sizeof(what)) == sizeof(what) && held > 0)
		held -= sizeof(what);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	while (read(p[0], what, sizeof(what)) > 0)
		;
	int small = fcntl(p[1], F_SETPIPE_SZ, 100);
	long small_held = fill(p[1]);
	int notpipe = fcntl(0, F_GETPIPE_SZ);
	int e2 = errno;
	snprintf(what, sizeof(what), "full: %d %s; empty: %d, then held %ld; on stdin %d %s", busy,
		 e == EBUSY ? "EBUSY" : "other", small, small_held, notpipe,
		 e2 == EBADF ? "EBADF" : "other");
	check_why(busy == -1 && e == EBUSY && small == 4096 && small_held == 4096 &&
	      notpipe == -1 && e2 == EBADF, "f_setpipe_sz_rounds_up_and_refuses_to_drop_data", what);
	close(p[0]);
	close(p[1]);
}

/* ---- another process's limits (prlimit64) ------------------------------- */

static void prlimits(void)
{
	char what[192];
	int go[2], back[2];
	if (pipe(go) < 0 || pipe(back) < 0) {
		check_why(0, "prlimit64_of_a_child_sets_its_limit", "pipe failed");
		return;
	}
	pid_t child = fork();
	if (child == 0) {		/* waits, then says its soft NOFILE limit */
		char c;
		read(go[0], &c, 1);
		struct rlimit r;
		getrlimit(RLIMIT_NOFILE, &r);
		int n = (int)r.rlim_cur;
		write(back[1], &n, sizeof(n));
		_exit(0);
	}
	unsigned long long set[2] = { 100, 200 };
	long r = syscall(SYS_prlimit64, child, RLIMIT_NOFILE, set, NULL);
	int e = r < 0 ? errno : 0, seen = -1;
	write(go[1], "x", 1);
	read(back[0], &seen, sizeof(seen));
	waitpid(child, NULL, 0);
	snprintf(what, sizeof(what), "returned %ld %s, the child's soft limit %d", r, errname(e), seen);
	check_why(r == 0 && seen == 100, "prlimit64_of_a_child_sets_its_limit", what);

	unsigned long long old[2];
	long gone = syscall(SYS_prlimit64, child, RLIMIT_NOFILE, NULL, old);
	int e1 = errno;
	long neg = syscall(SYS_prlimit64, -5, RLIMIT_NOFILE, NULL, old);
	int e2 = errno;
	long badres = syscall(SYS_prlimit64, getpid(), 99, NULL, old);
	int e3 = errno;
	int st = 0;
	pid_t user = fork();
	if (user == 0) {		/* uid 1000 may not read init's */
		if (setgid(1000) < 0 || setuid(1000) < 0)
			_exit(3);
		_exit(syscall(SYS_prlimit64, 1, RLIMIT_NOFILE, NULL, old) == -1 && errno == EPERM ? 0 : 1);
	}
	waitpid(user, &st, 0);
	snprintf(what, sizeof(what), "reaped: %ld %s; pid -5: %ld %s; resource 99: %ld %s; "
		 "uid 1000 on init: %s", gone, errname(e1), neg, errname(e2), badres, errname(e3),
		 WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "EPERM" : "other");
	check_why(gone == -1 && e1 == ESRCH && neg == -1 && e2 == ESRCH && badres == -1 &&
	      e3 == EINVAL && WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "prlimit64_errors_as_linux", what);
}

/* ---- select and pselect ------------------------------------------------- */

static void selects(void)
{
	char what[192];
	int p[2];
	if (pipe(p) < 0) {
		check_why(0, "select_sees_a_readable_and_a_writable_pipe", "pipe failed");
		return;
	}
	write(p[1], "x", 1);
	fd_set rd, wr;
	FD_ZERO(&rd);
	FD_ZERO(&wr);
	FD_SET(p[0], &rd);
	FD_SET(p[1], &rd);		/* the write end is never readable */
	FD_SET(p[1], &wr);
	struct timeval tv = { 1, 0 };
	int n = select(p[1] + 1, &rd, &wr, NULL, &tv);
	snprintf(what, sizeof(what), "returned %d, read end %s, write end readable %s, writable %s", n,
		 FD_ISSET(p[0], &rd) ? "readable" : "not", FD_ISSET(p[1], &rd) ? "yes" : "no",
		 FD_ISSET(p[1], &wr) ? "yes" : "no");
	check_why(n == 2 && FD_ISSET(p[0], &rd) && !FD_ISSET(p[1], &rd) && FD_ISSET(p[1], &wr),
	      "select_sees_a_readable_and_a_writable_pipe", what);

	char c;
	read(p[0], &c, 1);
	FD_ZERO(&rd);
	FD_SET(p[0], &rd);
	tv = (struct timeval){ 0, 50000 };
	n = select(p[0] + 1, &rd, NULL, NULL, &tv);
	int cleared = !FD_ISSET(p[0], &rd);
	FD_ZERO(&rd);
	FD_SET(p[1] + 10, &rd);		/* not open */
	struct timeval zero = { 0, 0 };
	int bad = select(p[1] + 11, &rd, NULL, NULL, &zero);
	int e = errno;
	int neg = select(-1, NULL, NULL, NULL, &zero);
	int e2 = errno;
	struct timespec ts = { 0, 20000000 };
	sigset_t none;
	sigemptyset(&none);
	int ps = pselect(0, NULL, NULL, NULL, &ts, &none);
	snprintf(what, sizeof(what), "empty: %d (set %s, time left %ld us); a closed fd: %d %s; "
		 "nfds -1: %d %s; pselect 20 ms: %d", n, cleared ? "cleared" : "kept",
		 (long)(tv.tv_sec * 1000000 + tv.tv_usec), bad, e == EBADF ? "EBADF" : "other", neg,
		 errname(e2), ps);
	check_why(n == 0 && cleared && tv.tv_sec == 0 && tv.tv_usec == 0 && bad == -1 && e == EBADF &&
	      neg == -1 && e2 == EINVAL && ps == 0, "select_times_out_and_checks_its_arguments", what);
	close(p[0]);
	close(p[1]);

	/* pselect's reason to be: SIGUSR1 blocked but while it waits, so a
	 * signal sent before the wait is not lost and one during it ends it */
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, before, after;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	sigprocmask(SIG_BLOCK, &usr1, &before);
	handled_by = 0;
	pid_t parent = getpid(), child = fork();
	if (child == 0) {		/* once the parent sleeps in pselect */
		char path[40];
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)parent);
		wait_stat_asleep(path);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	struct timespec five = { 5, 0 };
	int r = pselect(0, NULL, NULL, NULL, &five, &none);
	int er = errno;
	sigprocmask(SIG_SETMASK, NULL, &after);
	waitpid(child, NULL, 0);
	snprintf(what, sizeof(what), "returned %d %s, the handler %s, SIGUSR1 blocked again: %s", r,
		 r < 0 && er == EINTR ? "EINTR" : "", handled_by ? "ran" : "did not run",
		 sigismember(&after, SIGUSR1) ? "yes" : "no");
	check_why(r == -1 && er == EINTR && handled_by && sigismember(&after, SIGUSR1),
	      "pselect_unblocks_for_its_wait_only", what);
	sigprocmask(SIG_SETMASK, &before, NULL);
	signal(SIGUSR1, SIG_DFL);
}

/* A thread asleep in read() on a pipe while another closes that
 * descriptor: the read goes on with the file it started with (the call
 * holds its own reference, Linux's fdget), and returns the byte written
 * after the close. */
static int close_fd, close_wr;
static volatile int close_got;

static void *blocked_reader(void *arg)
{
	char c = 0;
	(void)arg;
	close_got = (int)read(close_fd, &c, 1) == 1 && c == 'x' ? 1 : -1;
	return NULL;
}

static void close_under_a_reader(void)
{
	int p[2];
	pthread_t t;
	if (pipe(p) < 0)
		return;
	close_fd = p[0];
	close_wr = p[1];
	pthread_create(&t, NULL, blocked_reader, NULL);
	char path[64];			/* once the reader sleeps in read */
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)getpid() + 1);
	wait_stat_asleep(path);
	int closed = close(p[0]);
	ssize_t w = write(p[1], "x", 1);
	pthread_join(t, NULL);
	close(p[1]);
	check_why(closed == 0 && w == 1 && close_got == 1, "close_under_a_blocked_reader_lets_it_finish",
	      close_got == 1 ? "the read returned the byte" : "the read failed");
}

/* The caller (a child of ours) clones with CLONE_PARENT: its child is
 * ours, not its own. The caller reports the new pid and its own wait's
 * errno on one pipe, the new one the parent it sees on another. */
static void clone_parent_with(unsigned long csignal, const char *name)
{
	int rp[2], gp[2];
	if (pipe(rp) < 0 || pipe(gp) < 0)
		return check_why(0, name, strerror(errno));
	pid_t c = fork();
	if (c == 0) {
		long g = syscall(SYS_clone, CLONE_PARENT | csignal, 0, 0, 0, 0);
		if (g == 0) {		/* the new one: whose child is it? */
			int pp = getppid();
			write(gp[1], &pp, sizeof(pp));
			_exit(7);
		}
		int report[2] = { (int)g, g < 0 ? (int)errno : 0 };
		if (g > 0 && waitpid(-1, NULL, 0) < 0)
			report[1] = errno;	/* ECHILD: it has none of its own */
		write(rp[1], report, sizeof(report));
		_exit(0);
	}
	close(rp[1]);
	close(gp[1]);
	int report[2] = { 0, 0 }, pp = 0, st = 0;
	read(rp[0], report, sizeof(report));
	waitpid(c, NULL, 0);
	if (report[0] <= 0) {
		check_why(0, name, strerror(report[1]));
	} else {
		read(gp[0], &pp, sizeof(pp));
		pid_t w = waitpid(report[0], &st, 0);
		char what[160];
		snprintf(what, sizeof(what), "its parent is ours: %s; the caller's wait: %s; "
			 "we reaped it: %s, status %d", pp == getpid() ? "yes" : "no",
			 strerrorname_np(report[1]) ? strerrorname_np(report[1]) : "no error",
			 w == report[0] ? "yes" : "no", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		check_why(pp == getpid() && report[1] == ECHILD && w == report[0] && WIFEXITED(st) &&
		      WEXITSTATUS(st) == 7, name, what);
	}
	close(rp[0]);
	close(gp[0]);
}

static void clone_parents(void)
{
	clone_parent_with(SIGCHLD, "clone_parent_child_is_the_callers_sibling");
	/* Linux takes the caller's exit signal with CLONE_PARENT, not CSIGNAL */
	clone_parent_with(0, "clone_parent_without_csignal_still_waitable");
	errno = 0;
	long r = syscall(SYS_clone, CLONE_PARENT | CLONE_THREAD | SIGCHLD, 0, 0, 0, 0);
	check_why(r == -1 && errno == EINVAL, "clone_parent_thread_without_sighand_is_einval",
	      strerrorname_np(errno) ? strerrorname_np(errno) : "no error");
}

/* ---- a stop signal stops the whole process -------------------------- */

static void *spinner(void *arg)
{
	volatile unsigned *count = arg;
	for (;;)
		(*count)++;
	return NULL;
}

/* How many of pid's threads are stopped ('T' in /proc/PID/task/TID/stat),
 * and how many there are. */
static int stopped_threads(pid_t pid, int *all)
{
	char path[320], line[256];
	int stopped = 0;
	*all = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	DIR *d = opendir(path);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", pid, e->d_name);
		FILE *f = fopen(path, "r");
		char *paren = f && fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
		stopped += paren && paren[2] == 'T';
		(*all)++;
		if (f)
			fclose(f);
	}
	if (d)
		closedir(d);
	return stopped;
}

static void group_stops(void)
{
	volatile unsigned *count = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
					MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	char what[160];
	pid_t c = fork();
	if (c == 0) {			/* the main thread waits, a second spins */
		pthread_t t;
		pthread_create(&t, NULL, spinner, (void *)count);
		for (;;)
			pause();
	}
	struct timespec tick = { 0, 1000000 }, wait = { 0, 100000000 };
	for (int i = 0; i < 5000 && *count == 0; i++)
		nanosleep(&tick, NULL);
	int st = 0, st2 = 0, all = 0;
	kill(c, SIGSTOP);
	pid_t w = 0;			/* at most 5 s: a stop that never completes fails, not hangs */
	for (int i = 0; i < 5000 && (w = waitpid(c, &st, WUNTRACED | WNOHANG)) == 0; i++)
		nanosleep(&tick, NULL);
	unsigned before = *count;
	nanosleep(&wait, NULL);		/* a stopped spinner counts nothing */
	unsigned after = *count;
	int stopped = stopped_threads(c, &all);
	kill(c, SIGCONT);
	pid_t w2 = 0;
	for (int i = 0; i < 5000 && (w2 = waitpid(c, &st2, WCONTINUED | WNOHANG)) == 0; i++)
		nanosleep(&tick, NULL);
	for (int i = 0; i < 5000 && *count == after; i++)
		nanosleep(&tick, NULL);
	int goes_on = *count != after;
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	snprintf(what, sizeof(what), "reported stopped: %s; the spinner %s; %d of %d threads "
		 "stopped; continued: %s, it counts again: %s",
		 w == c && WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP ? "yes" : "no",
		 before == after ? "stood still" : "ran on", stopped, all,
		 w2 == c && WIFCONTINUED(st2) ? "yes" : "no", goes_on ? "yes" : "no");
	check_why(w == c && WIFSTOPPED(st) && before == after && stopped == all && all == 2 &&
	      w2 == c && WIFCONTINUED(st2) && goes_on, "sigstop_stops_every_thread", what);
	munmap((void *)count, 4096);
}

/* ---- __WNOTHREAD: the children a thread made itself ------------------ */

static pid_t thread_child;
static int thread_wait_errno, thread_wait_status;

/* Fork a child that exits 5, wait for it with __WNOTHREAD (first, with
 * WNOHANG, until it has exited: its own child, so found). */
static void *forking_thread(void *arg)
{
	(void)arg;
	thread_child = fork();
	if (thread_child == 0)
		_exit(5);
	int st = 0;
	pid_t w = waitpid(-1, &st, __WNOTHREAD);
	thread_wait_errno = w == thread_child ? 0 : errno;
	thread_wait_status = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	return NULL;
}

/* Fork a child that exits 4, say so (forked), and stay alive until told
 * (release): a thread that exits hands its children to another thread of
 * its process on Linux, and the main thread would then find this one. */
static int forked[2], release[2];

static void *forking_only(void *arg)
{
	(void)arg;
	pid_t c = fork();
	if (c == 0)
		_exit(4);
	write(forked[1], &c, sizeof(c));
	char x;
	read(release[0], &x, 1);
	return NULL;
}

/* The main thread's child, sleeping on a pipe until told. */
static void wnothread(void)
{
	char what[160];
	int p[2];
	if (pipe(p) < 0)
		return check_why(0, "wnothread_skips_another_threads_child", "no pipe");
	pid_t own = fork();
	if (own == 0) {
		char c;
		read(p[0], &c, 1);
		_exit(6);
	}
	/* another thread's children are not this thread's: with only the
	 * sleeping own child there is nothing to reap yet, and no other */
	pthread_t t;
	pthread_create(&t, NULL, forking_thread, NULL);
	pthread_join(t, NULL);
	check_why(thread_wait_errno == 0 && thread_wait_status == 5,
	      "wnothread_reaps_the_threads_own_child",
	      thread_wait_errno ? strerrorname_np(thread_wait_errno) : "reaped, status 5");
	/* the thread's next child, left for the main thread to see or not */
	pid_t other = -1;
	if (pipe(forked) < 0 || pipe(release) < 0)
		return check_why(0, "wnothread_skips_another_threads_child", "no pipe");
	pthread_create(&t, NULL, forking_only, NULL);
	read(forked[0], &other, sizeof(other));
	struct timespec tick = { 0, 1000000 };
	int st = 0;
	pid_t w = 0;
	for (int i = 0; i < 2000 && w == 0; i++) {	/* it has exited by then */
		w = waitpid(other, &st, WNOHANG | __WNOTHREAD);
		if (w == 0)
			nanosleep(&tick, NULL);
	}
	int e = w < 0 ? errno : 0;
	pid_t w2 = waitpid(other, &st, 0);	/* without it: the process's child */
	write(release[1], "x", 1);
	pthread_join(t, NULL);
	close(forked[0]), close(forked[1]), close(release[0]), close(release[1]);
	snprintf(what, sizeof(what), "with __WNOTHREAD: %s; without: %s, status %d",
		 w < 0 ? (strerrorname_np(e) ? strerrorname_np(e) : "?") : w == other ? "reaped" : "0",
		 w2 == other ? "reaped" : "not found", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	check_why(w < 0 && e == ECHILD && w2 == other && WIFEXITED(st) && WEXITSTATUS(st) == 4,
	      "wnothread_skips_another_threads_child", what);
	write(p[1], "x", 1);
	waitpid(own, NULL, 0);
	close(p[0]);
	close(p[1]);
}

int main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "--exit") == 0)
		return atoi(argv[2]);
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..22\n");
	edges();
	vforks(argv[0]);
	shared_pending();
	pipes();
	prlimits();
	selects();
	close_under_a_reader();
	clone_parents();
	group_stops();
	wnothread();
	return failures != 0;
}
