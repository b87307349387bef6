/*
 * pathlen - path lengths of the core system calls (issue 12, docs/bench.md).
 *
 *   pathlen                     every figure, one "name value unit" line each
 *   pathlen FIGURE [COUNT]      one figure only, COUNT operations (for
 *                               make profile); prints "pathlen: begin" and
 *                               "pathlen: end" around them, and with
 *                               PATHLEN_WAIT set in the environment reads
 *                               one byte from stdin after "begin" (the
 *                               profiler's go, once QEMU's log is on)
 *
 * FIGURE is one of getpid, yield, pipe, fork, exec, or, for make paths
 * only (tools/bench/paths.sh: the files a path runs code in), tick or
 * setsched:
 *
 *   tick      COUNT milliseconds of a NORMAL hog spinning in user mode:
 *             the kernel runs only timer ticks (some of which end a
 *             quantum and drop it a stair, §6.1) and what they call
 *   setsched  sched_setscheduler() of a sleeping child of the same
 *             user, to SCHED_BATCH and back to SCHED_NORMAL in turn (§7.6)
 *
 * Each of the first five figures is the
 * median of REPS repetitions, after a warm-up, of the time stamp counter
 * (rdtsc) around a loop of operations, divided by the operations:
 *
 *   getpid  one getpid() call
 *   yield   one sched_yield() by the parent while a child pinned to the
 *           same CPU yields back (the loop alternates parent and child,
 *           so one "call" includes the child's yield and two switches)
 *   pipe    one 1-byte round trip: parent writes, child reads and writes
 *           back, parent reads (two pipes)
 *   fork    fork(), the child _exit(0)s, the parent waitpid()s
 *   exec    fork(), the child execve()s this program with "exit0" (which
 *           returns at once), the parent waitpid()s
 *
 * Under QEMU's -icount shift=0,sleep=off the guest TSC advances by one
 * per instruction, so the unit is instructions ("insn"); on a real CPU it
 * is TSC ticks. The binary is a static i386 Linux program: the same file
 * runs on Linux, which is how make bench compares the two kernels.
 */
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define REPS 9

static const char *self = "/bin/pathlen";

static inline unsigned long long rdtsc(void)
{
	unsigned int lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((unsigned long long)hi << 32) | lo;
}

static void pin0(void)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(0, &set);
	if (sched_setaffinity(0, sizeof(set), &set) < 0)
		perror("pathlen: sched_setaffinity");
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

/* Each figure: run n operations, return the TSC ticks they took. */
static unsigned long long run_getpid(int n)
{
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++)
		getpid();
	return rdtsc() - t0;
}

static pid_t yielder = -1;

static unsigned long long run_yield(int n)
{
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++)
		sched_yield();
	return rdtsc() - t0;
}

static void yield_start(void)
{
	yielder = fork();
	if (yielder < 0)
		die("pathlen: fork");
	if (yielder == 0)
		for (;;)
			sched_yield();
}

static void yield_stop(void)
{
	kill(yielder, SIGKILL);
	waitpid(yielder, NULL, 0);
}

static int to_child[2], to_parent[2];
static pid_t echoer = -1;

static void pipe_start(void)
{
	if (pipe(to_child) < 0 || pipe(to_parent) < 0)
		die("pathlen: pipe");
	echoer = fork();
	if (echoer < 0)
		die("pathlen: fork");
	if (echoer == 0) {
		char c;

		close(to_child[1]);
		close(to_parent[0]);
		while (read(to_child[0], &c, 1) == 1)
			write(to_parent[1], &c, 1);
		_exit(0);
	}
}

static void pipe_stop(void)
{
	close(to_child[1]);
	waitpid(echoer, NULL, 0);
	close(to_child[0]);
	close(to_parent[0]);
	close(to_parent[1]);
}

static unsigned long long run_pipe(int n)
{
	char c = 'x';
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		write(to_child[1], &c, 1);
		read(to_parent[0], &c, 1);
	}
	return rdtsc() - t0;
}

static unsigned long long run_fork(int n)
{
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0)
			_exit(0);
		if (p < 0)
			die("pathlen: fork");
		waitpid(p, NULL, 0);
	}
	return rdtsc() - t0;
}

static unsigned long long run_exec(int n)
{
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++) {
		pid_t p = fork();

		if (p == 0) {
			char *argv[] = { (char *)self, "exit0", NULL };
			char *envp[] = { NULL };

			execve(self, argv, envp);
			_exit(127);
		}
		if (p < 0)
			die("pathlen: fork");
		waitpid(p, NULL, 0);
	}
	return rdtsc() - t0;
}

/* tick: TSC ticks in a millisecond, measured around a 20 ms sleep before
 * the profiled spin, so that the spin itself makes no system call. */
static unsigned long long tsc_per_ms;

static unsigned long long now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static void tick_start(void)
{
	struct timespec d = { 0, 20000000 };
	unsigned long long t0 = rdtsc(), n0 = now_ns();

	nanosleep(&d, NULL);
	unsigned long long ns = now_ns() - n0;
	tsc_per_ms = (rdtsc() - t0) * 1000000ull / (ns ? ns : 1);
}

static unsigned long long run_tick(int n)
{
	unsigned long long t0 = rdtsc(), end = t0 + (unsigned long long)n * tsc_per_ms;

	while (rdtsc() < end)
		;
	return rdtsc() - t0;
}

static pid_t sleeper = -1;

static void setsched_start(void)
{
	sleeper = fork();
	if (sleeper < 0)
		die("pathlen: fork");
	if (sleeper == 0)
		for (;;)
			pause();
}

static void setsched_stop(void)
{
	kill(sleeper, SIGKILL);
	waitpid(sleeper, NULL, 0);
}

static unsigned long long run_setsched(int n)
{
	struct sched_param p = { 0 };
	unsigned long long t0 = rdtsc();

	for (int i = 0; i < n; i++)
		if (sched_setscheduler(sleeper, i % 2 ? SCHED_OTHER : SCHED_BATCH, &p) < 0)
			die("pathlen: sched_setscheduler");
	return rdtsc() - t0;
}

struct figure {
	const char *name;
	unsigned long long (*run)(int n);
	void (*start)(void), (*stop)(void);
	int n, warm;		/* operations per repetition, warm-up ones */
	int paths_only;		/* not one of the default figures: make paths's */
};

static const struct figure figures[] = {
	{ "getpid", run_getpid, NULL, NULL, 1000, 1000, 0 },
	{ "yield", run_yield, yield_start, yield_stop, 500, 100, 0 },
	{ "pipe", run_pipe, pipe_start, pipe_stop, 200, 50, 0 },
	{ "fork", run_fork, NULL, NULL, 20, 5, 0 },
	{ "exec", run_exec, NULL, NULL, 10, 3, 0 },
	{ "tick", run_tick, tick_start, NULL, 20, 1, 1 },
	{ "setsched", run_setsched, setsched_start, setsched_stop, 10, 2, 1 },
};

static int cmp_ull(const void *a, const void *b)
{
	unsigned long long x = *(const unsigned long long *)a;
	unsigned long long y = *(const unsigned long long *)b;

	return x < y ? -1 : x > y;
}

static void measure(const struct figure *f)
{
	unsigned long long per[REPS];

	if (f->start)
		f->start();
	f->run(f->warm);
	for (int r = 0; r < REPS; r++)
		per[r] = f->run(f->n) / f->n;
	if (f->stop)
		f->stop();
	qsort(per, REPS, sizeof(per[0]), cmp_ull);
	printf("%s %llu insn\n", f->name, per[REPS / 2]);
	fflush(NULL);
}

/* One figure, count operations, for make profile: the profiler keeps what
 * the kernel executes between the two markers. */
static void profile(const struct figure *f, int count)
{
	if (f->start)
		f->start();
	f->run(f->warm);
	printf("pathlen: begin %s %d\n", f->name, count);
	fflush(NULL);
	if (getenv("PATHLEN_WAIT")) {	/* make profile: wait for its go */
		char c;

		read(0, &c, 1);
	}
	unsigned long long t = f->run(count);
	printf("pathlen: end %s %d (%llu insn/op)\n", f->name, count,
	       t / (unsigned long long)count);
	fflush(NULL);
	if (f->stop)
		f->stop();
}

int main(int argc, char **argv)
{
	int nfig = sizeof(figures) / sizeof(figures[0]);

	if (argc > 1 && strcmp(argv[1], "exit0") == 0)
		return 0;
	if (argc > 0 && argv[0][0] == '/')
		self = argv[0];
	pin0();
	if (argc > 1) {
		for (int i = 0; i < nfig; i++)
			if (strcmp(argv[1], figures[i].name) == 0) {
				profile(&figures[i],
					argc > 2 ? atoi(argv[2]) : figures[i].n);
				return 0;
			}
		fprintf(stderr, "usage: pathlen [getpid|yield|pipe|fork|exec|tick|setsched [COUNT]]\n");
		return 2;
	}
	printf("# pathlen: median of %d, rdtsc ticks per operation"
	       " (instructions under qemu -icount shift=0)\n", REPS);
	for (int i = 0; i < nfig; i++)
		if (!figures[i].paths_only)
			measure(&figures[i]);
	return 0;
}
