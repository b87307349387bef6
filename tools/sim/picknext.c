/*
 * picknext.c - staircase-sim --picknext N,N,...: the cost of picking the
 * next task against the number of runnable tasks, on the host (issue 32).
 *
 * make bench's picknext (user/tests/schedbench.c, docs/bench.md) counts
 * the kernel's instructions per sched_yield() with 1 to 4,000 runnable CPU
 * hogs on one CPU: flat at every size, since the staircase picks from a
 * bitmap of 142 lists, not by looking at each task (docs/staircase.md §2).
 * This is the same experiment on the simulator's fake machine: N hogs on
 * one CPU take turns yielding (sched_do_yield, then schedule(), as
 * sys_sched_yield and the way back to user mode do), and the host time of
 * a yield is printed, the best of five rounds. Host time is noisy and
 * includes the fake machine's own work, so the figures are a shape, not a
 * path length: the line should be flat, within the noise, from 1 to 4,000.
 */
#include "picknext.h"
#include "../../tests/unit/fake_machine.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define YIELDS_PER_ROUND 20000
#define ROUNDS 9

static double now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void yield_once(void)
{
	sched_do_yield();	/* the current task goes to the back (§7.1) */
	fake_schedule(0);
}

/* The best of ROUNDS rounds' host time per yield with n hogs on CPU 0. */
static double ns_per_yield(int n)
{
	fake_boot(1, NULL);
	for (int i = 0; i < n; i++)
		fake_spawn(0, 0, 0);
	fake_schedule(0);
	for (int i = 0; i < 2 * n; i++)	/* every hog has run and yielded */
		yield_once();
	double best = 0;
	for (int r = 0; r < ROUNDS; r++) {
		double t0 = now_ns();
		for (int i = 0; i < YIELDS_PER_ROUND; i++)
			yield_once();
		double t = (now_ns() - t0) / YIELDS_PER_ROUND;
		if (r == 0 || t < best)
			best = t;
	}
	return best;
}

/* "1,10,100": each a count of hogs, 1 to PICKNEXT_MAX; -1 if not. */
static int parse_counts(const char *list, int *counts, int max)
{
	int n = 0;
	const char *p = list;
	while (*p) {
		char *end;
		long v = strtol(p, &end, 10);
		if (end == p || v < 1 || v > PICKNEXT_MAX || n == max ||
		    (*end && *end != ','))
			return -1;
		counts[n++] = (int)v;
		p = *end ? end + 1 : end;
		if (*end && !*p)
			return -1;	/* a trailing comma */
	}
	return n;
}

int sim_picknext(const char *list)
{
	int counts[16];
	int n = parse_counts(list, counts, 16);
	if (n <= 0) {
		fprintf(stderr, "staircase-sim: --picknext wants counts of runnable tasks, "
			"1 to %d, separated by commas (at most 16), not '%s'\n", PICKNEXT_MAX, list);
		return 1;
	}
	double first = 0;
	printf("# picknext: host ns per sched_yield() + schedule(), one CPU, N NORMAL hogs "
	       "(best of %d rounds of %d)\n", ROUNDS, YIELDS_PER_ROUND);
	for (int i = 0; i < n; i++) {
		double t = ns_per_yield(counts[i]);
		if (i == 0)
			first = t;
		printf("picknext %d runnable: %.0f ns per yield (%.2fx the first)\n",
		       counts[i], t, t / first);
	}
	return 0;
}
