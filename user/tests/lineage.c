/*
 * lineage - make lineage's workloads (issue 41, docs/lineage.md §5): one
 * static i386 program, run on this kernel under each sched= and on Linux
 * 6.1, so every class meets the same tasks. Every task runs as NORMAL,
 * nice 0 unless said, and they start together (a "go" pipe).
 *
 *   lineage interactive [MS]  a task that runs 1 ms and sleeps 9 ms, alone
 *                             for MS / 2 (the kernel's own wake-up path),
 *                             then beside 2 hogs: how late each wake-up
 *                             ran (p50, p99, max us), and its share
 *   lineage nice [MS]         two hogs, nice 0 against nice 5, 10 and 19,
 *                             MS each: the two shares
 *   lineage ingo [MS]         Ingo Molnar's workload (docs/exercises.md §6):
 *                             a hog beside two tasks that run 4 ms, sleep 1 ms
 *   lineage fiftyp [MS]       fiftyp-style: a hog beside two tasks that each
 *                             want half the CPU, run 10 ms / sleep 10 ms,
 *                             then again with 1 ms / 1 ms
 *   lineage thud [MS]         thud-style: a hog beside 3 tasks that sleep
 *                             1 s together, then each run 200 ms of CPU,
 *                             over and over: the hog's share and its
 *                             longest time without the CPU
 *   lineage forkstorm [MS]    a hog beside a task that keeps 4 children
 *                             alive, each runs 2 ms and exits: the hog's
 *                             share, the children's (2 ms each) and how
 *                             many ended per second
 *   lineage smp [MS]          3 hogs free to run on every CPU, for a
 *                             machine of 2: each one's part of what the
 *                             three got (a third each is fair), the
 *                             spread, and how many times they changed CPU
 *   lineage -h                this text; exit status 0
 *
 * Everything but smp runs on CPU 0. Every figure is a line "name value unit" on stdout (schedbench's
 * format, tools/bench/lineage.sh reads them). A task's CPU time is what it
 * saw itself run: the sum of the steps between its clock reads shorter
 * than GAP_NS (testlib's hog loop does the same), so both kernels are
 * measured by the same code. MS defaults to 3000 (100..600000).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "testlib.h"

#define GAP_NS		200000LL	/* a step longer than this: not running */
#define MAX_LATE	4096		/* wake-ups kept per task */
#define MAX_TASKS	6

/* What one task does: run run_us of CPU, then sleep sleep_us, over and
 * over (sleep_first: the sleep comes first); run_us 0 is a hog. */
struct role {
	int run_us, sleep_us, sleep_first, nice;
	int forker;		/* keeps 4 children of 2 ms alive instead */
	int anycpu;		/* may run on every CPU, not CPU 0 only */
};

struct report {
	long long run_ns;		/* CPU time it saw itself get */
	long moves;			/* times it was seen on another CPU */
	long long max_gap_ns;		/* longest time runnable without the CPU */
	long children;			/* a forker's children reaped */
	int error;			/* errno of its setup, or 0 */
	int n_late;			/* wake-ups measured, at most MAX_LATE */
	long long late_ns[MAX_LATE];	/* each: the time it ran minus its wake time */
};

static int pin0(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	CPU_SET(0, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

/* Free to run on every CPU again (main pinned us to CPU 0). */
static int unpin(void)
{
	cpu_set_t s;

	CPU_ZERO(&s);
	for (int c = 0; c < CPU_SETSIZE; c++)
		CPU_SET(c, &s);
	return sched_setaffinity(0, sizeof(s), &s);
}

/* Sleep until the absolute monotonic time `until`; how late it ran. */
static long long sleep_until(long long until)
{
	struct timespec ts = { until / 1000000000LL, until % 1000000000LL };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
	return monotonic_ns() - until;
}

/* Run until `end` or until `budget_ns` of CPU was seen (0: no budget);
 * adds what it ran to r and returns the time it stopped. */
static long long spin(struct report *r, long long end, long long budget_ns)
{
	long long last = monotonic_ns(), got = 0;
	int cpu = sched_getcpu();

	while (last < end && (!budget_ns || got < budget_ns)) {
		long long now = monotonic_ns(), d = now - last;

		if (d < GAP_NS) {
			got += d;
		} else {		/* it was off the CPU: maybe it came back on another */
			int c = sched_getcpu();

			r->moves += c != cpu;
			cpu = c;
			if (d > r->max_gap_ns)
				r->max_gap_ns = d;
		}
		last = now;
	}
	r->run_ns += got;
	return last;
}

/* The fork storm's forker: keeps 4 children alive until end, each spins
 * 2 ms of CPU and exits; counts those it reaped before end. */
static void forker(struct report *r, long long end)
{
	int alive = 0;

	while (monotonic_ns() < end) {
		if (alive == 4 && wait(NULL) > 0)
			alive--, r->children++;
		pid_t c = fork();	/* fails: tried again at once */
		if (c == 0) {
			struct report mine = { 0 };
			spin(&mine, end, 2000000LL);
			_exit(0);
		}
		if (c > 0)
			alive++;
	}
	while (alive-- > 0)
		wait(NULL);
}

/* One task's life from start to end: a hog, the forker, or run_us of CPU
 * then a sleep_us sleep (from the end of its run) over and over, its
 * lateness measured at every wake-up. */
static void run_role(const struct role *ro, struct report *r, long long start,
		     long long end)
{
	long long budget = ro->run_us * 1000LL, t = start;

	if (ro->forker)
		return forker(r, end);
	if (!ro->run_us)
		return (void)spin(r, end, 0);
	if (!ro->sleep_first)
		t = spin(r, end, budget);		/* it runs first */
	while (t < end) {
		t += ro->sleep_us * 1000LL;		/* the time it wakes */
		if (t >= end)
			return;
		long long late = sleep_until(t);
		if (r->n_late < MAX_LATE)
			r->late_ns[r->n_late++] = late;
		t = spin(r, end, budget);
	}
}

static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t k = read(fd, (char *)buf + got, n - got);
		if (k <= 0)
			return -1;
		got += k;
	}
	return 0;
}

/* Fork one task per role, all on CPU 0, start them together for ms and
 * collect their reports: 0, or -1 if one could not be set up. */
static int run_tasks(const struct role *ro, int n, int ms, struct report *out)
{
	int go[2], res[MAX_TASKS][2];
	pid_t pid[MAX_TASKS];
	long long start;
	int failed = 0;

	if (pipe(go) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		int piped = pipe(res[i]) == 0;

		if (!piped || (pid[i] = fork()) < 0) {
			/* those started wait on go: end them, say why */
			printf("# lineage: task %d: %s\n", i, strerror(errno));
			if (piped)
				close(res[i][0]), close(res[i][1]);
			for (int j = 0; j < i; j++) {
				kill(pid[j], SIGKILL);
				waitpid(pid[j], NULL, 0);
				close(res[j][0]);
			}
			close(go[0]);
			close(go[1]);
			return -1;
		}
		if (pid[i] == 0) {
			static struct report r;

			if ((ro[i].anycpu ? unpin() : pin0()) < 0 ||
			    setpriority(PRIO_PROCESS, 0, ro[i].nice) < 0)
				r.error = errno;
			read_full(go[0], &start, sizeof(start));
			sleep_until(start);
			if (!r.error)
				run_role(&ro[i], &r, start, start + ms * 1000000LL);
			write(res[i][1], &r, sizeof(r));
			_exit(0);
		}
		close(res[i][1]);
	}
	test_sleep_ms(50);			/* every child at its read */
	start = monotonic_ns() + 10000000LL;	/* and 10 ms from now */
	for (int i = 0; i < n; i++)
		write(go[1], &start, sizeof(start));
	for (int i = 0; i < n; i++) {
		if (read_full(res[i][0], &out[i], sizeof(out[i])) < 0)
			out[i].error = -1;
		close(res[i][0]);
		waitpid(pid[i], NULL, 0);
		failed |= out[i].error != 0;
	}
	close(go[0]);
	close(go[1]);
	return failed ? -1 : 0;
}

static void out(const char *prefix, const char *name, long long v, const char *unit)
{
	printf("%s_%s %lld %s\n", prefix, name, v, unit);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

/* p50, p99 and max of a task's wake-up lateness, in us. */
static void out_late(const char *prefix, struct report *r)
{
	if (!r->n_late)
		return (void)printf("%s_wake n/a (no wake-ups)\n", prefix);
	qsort(r->late_ns, r->n_late, sizeof(r->late_ns[0]), cmp_ll);
	out(prefix, "wakeups", r->n_late, "wakeups");
	out(prefix, "p50", r->late_ns[r->n_late / 2] / 1000, "us");
	out(prefix, "p99", r->late_ns[r->n_late * 99 / 100] / 1000, "us");
	out(prefix, "max", r->late_ns[r->n_late - 1] / 1000, "us");
}

static long long share_pm(const struct report *r, int ms)
{
	return r->run_ns / (ms * 1000LL);
}

static struct report rep[MAX_TASKS];

/* Run the tasks, print each one's share as PREFIX_NAME permille. */
static int shares(const char *prefix, const struct role *ro, const char *const *names,
		  int n, int ms)
{
	char p[64];

	if (run_tasks(ro, n, ms, rep) < 0)
		return printf("%s n/a (a task could not be set up)\n", prefix), -1;
	for (int i = 0; i < n; i++) {
		snprintf(p, sizeof(p), "%s_%s", prefix, names[i]);
		out(p, "share", share_pm(&rep[i], ms), "permille");
	}
	return 0;
}

static const char *const hog_first[] = { "hog", "task1", "task2", "task3" };

static int do_interactive(int ms)
{
	static const struct role ro[] = { { 1000, 9000, 0, 0, 0, 0 }, { 0 }, { 0 } };
	static const char *const names[] = { "task", "hog1", "hog2" };

	/* alone first: the kernel's own wake-up path, which the hogs add to */
	printf("# interactive: a task that runs 1 ms / sleeps 9 ms alone for %d ms, "
	       "then beside 2 hogs for %d ms\n", ms / 2, ms);
	if (run_tasks(ro, 1, ms / 2, rep) == 0)
		out_late("interactive_alone", &rep[0]);
	if (shares("interactive", ro, names, 3, ms) == 0)
		out_late("interactive", &rep[0]);
	return 0;
}

static int do_nice(int ms)
{
	static const int nices[] = { 5, 10, 19 };
	char prefix[32];

	printf("# nice: a nice 0 hog beside a nice 5, 10, 19 hog, %d ms each\n", ms);
	for (int i = 0; i < 3; i++) {
		struct role ro[2] = { { 0 }, { 0, 0, 0, nices[i], 0, 0 } };
		char other[16];
		const char *const names[] = { "nice0", other };

		snprintf(other, sizeof(other), "nice%d", nices[i]);
		snprintf(prefix, sizeof(prefix), "nice_0v%d", nices[i]);
		shares(prefix, ro, names, 2, ms);
	}
	return 0;
}

static int do_ingo(int ms)
{
	static const struct role ro[] = { { 0 }, { 4000, 1000, 0, 0, 0, 0 }, { 4000, 1000, 0, 0, 0, 0 } };

	printf("# ingo: a hog beside two tasks that run 4 ms / sleep 1 ms, %d ms\n", ms);
	if (shares("ingo", ro, hog_first, 3, ms) == 0)
		out("ingo", "hog_maxgap", rep[0].max_gap_ns / 1000, "us");
	return 0;
}

static int do_fiftyp(int ms)
{
	static const int periods[] = { 10000, 1000 };
	char prefix[32];

	printf("# fiftyp: a hog beside two tasks that run and sleep alike (10/10 ms, 1/1 ms), %d ms each\n", ms);
	for (int i = 0; i < 2; i++) {
		int us = periods[i];
		struct role ro[3] = { { 0 }, { us, us, 0, 0, 0, 0 }, { us, us, 0, 0, 0, 0 } };

		snprintf(prefix, sizeof(prefix), "fiftyp_%dms", us / 1000);
		if (shares(prefix, ro, hog_first, 3, ms) == 0)
			out(prefix, "hog_maxgap", rep[0].max_gap_ns / 1000, "us");
	}
	return 0;
}

static int do_thud(int ms)
{
	static const struct role ro[] = { { 0 }, { 200000, 1000000, 1, 0, 0, 0 },
					  { 200000, 1000000, 1, 0, 0, 0 }, { 200000, 1000000, 1, 0, 0, 0 } };

	printf("# thud: a hog beside 3 tasks that sleep 1 s, then run 200 ms each, %d ms\n", ms);
	if (shares("thud", ro, hog_first, 4, ms) == 0)
		out("thud", "hog_maxgap", rep[0].max_gap_ns / 1000, "us");
	return 0;
}

static int do_forkstorm(int ms)
{
	static const struct role ro[] = { { 0 }, { 0, 0, 0, 0, 1, 0 } };
	static const char *const names[] = { "hog", "forker" };

	printf("# forkstorm: a hog beside a task that keeps 4 children of 2 ms alive, %d ms\n", ms);
	if (shares("forkstorm", ro, names, 2, ms) == 0) {
		/* the children's share: each ran 2 ms (the last ones maybe less) */
		out("forkstorm", "children_per_s", rep[1].children * 1000 / ms, "children");
		out("forkstorm", "children_share", rep[1].children * 2000 / ms, "permille");
		out("forkstorm", "hog_maxgap", rep[0].max_gap_ns / 1000, "us");
	}
	return 0;
}

/* Hogs that do not divide evenly over the CPUs: each one's part of the
 * CPU time the three got (333 permille each is fair; the machine's speed
 * and a busy host's stolen time cancel out), the spread between the most
 * and the least served, and the CPU changes each saw. */
static int do_smp(int ms)
{
	static const struct role ro[] = { { .anycpu = 1 }, { .anycpu = 1 }, { .anycpu = 1 } };
	long long sum = 0, lo = -1, hi = 0;
	char p[32];

	printf("# smp: 3 hogs free to run on every CPU, %d ms\n", ms);
	if (run_tasks(ro, 3, ms, rep) < 0)
		return printf("smp n/a (a task could not be set up)\n"), 0;
	for (int i = 0; i < 3; i++)
		sum += rep[i].run_ns;
	for (int i = 0; i < 3 && sum; i++) {
		long long part = rep[i].run_ns * 1000 / sum;

		snprintf(p, sizeof(p), "smp_hog%d", i + 1);
		out(p, "part", part, "permille");
		out(p, "moves", rep[i].moves, "moves");
		lo = lo < 0 || part < lo ? part : lo;
		hi = part > hi ? part : hi;
	}
	out("smp", "spread", hi - lo, "permille");
	return 0;
}

static const char usage_text[] =
	"usage: lineage interactive | nice | ingo | fiftyp | thud | forkstorm | smp [MS] | -h\n";

int main(int argc, char **argv)
{
	static const struct { const char *name; int (*run)(int); } cmds[] = {
		{ "interactive", do_interactive }, { "nice", do_nice },
		{ "ingo", do_ingo }, { "fiftyp", do_fiftyp }, { "thud", do_thud },
		{ "forkstorm", do_forkstorm }, { "smp", do_smp },
	};
	int ms = 3000;

	if (argc >= 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(usage_text, stdout), 0;
	if (argc < 2 || argc > 3 || (argc == 3 && !parse_int_arg(argv[2], 100, 600000, &ms))) {
		fprintf(stderr, "lineage: %s\n%s", argc < 2 ? "no workload" :
			argc > 3 ? "too many arguments" : "bad MS (100..600000)", usage_text);
		return 2;
	}
	pin0();
	for (unsigned i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].run(ms);
	fprintf(stderr, "lineage: unknown workload '%s'\n%s", argv[1], usage_text);
	return 2;
}
