/*
 * tune - read and change the scheduler's tunables (docs/staircase.md §9).
 *
 *   tune               list every tunable: value, range and meaning
 *   tune NAME          show one
 *   tune NAME VALUE    set it (root only)
 *
 * Names are the boot parameters' (docs/scheduler.md): sched_interactive,
 * sched_compute, rr_interval, per_cpu_gain, iso_cpu, cache_delay; hz is
 * read-only (boot parameter only).  Call 502: the kernel checks the range
 * and refuses a bad value with EINVAL (keeping the old one), a non-root
 * caller with EPERM.  A change takes effect at the next tick.  Linux has
 * no call 502: tune says so and exits 1.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kernel_calls.h"

static const struct {
	int id;
	const char *name, *unit, *range, *meaning;
} knobs[] = {
	{ SCHED_TUNABLE_HZ, "hz", "Hz", "read-only",
	  "timer ticks per second; a tick is the scheduler's unit (boot: hz=N)" },
	{ SCHED_TUNABLE_INTERACTIVE, "sched_interactive", "", "0..1",
	  "1: the top stair lasts burst+1 quanta (sleepers earn bursts); 0: one" },
	{ SCHED_TUNABLE_COMPUTE, "sched_compute", "", "0..1",
	  "1: compute mode: RR x10, no bursts, preemption held back cache_delay" },
	{ SCHED_TUNABLE_RR_INTERVAL, "rr_interval", "ms", "1..1000",
	  "RR, the quantum: one stair per RR; nice 0 slice = 20 RR" },
	{ SCHED_TUNABLE_PER_CPU_GAIN, "per_cpu_gain", "%", "0..100",
	  "SMT: a task waits if its sibling has (100-gain)% more slice than its whole" },
	{ SCHED_TUNABLE_ISO_CPU, "iso_cpu", "%", "0..100",
	  "ISO above this CPU share (5 s average) runs as BATCH; 100 = no cap" },
	{ SCHED_TUNABLE_CACHE_DELAY, "cache_delay", "ms", "0..1000",
	  "compute mode: a wake-up preempts only after this much running" },
	{ SCHED_TUNABLE_ROTATE, "sched_rotate", "", "0..1",
	  "1: the balancer rotates a one-task split (3 hogs on 2 CPUs); 0: the seed's" },
};
#define NKNOBS (int)(sizeof(knobs) / sizeof(knobs[0]))

static int usage(void)
{
	fprintf(stderr, "usage: tune [NAME [VALUE]]\n  NAME:");
	for (int i = 0; i < NKNOBS; i++)
		fprintf(stderr, " %s", knobs[i].name);
	fprintf(stderr, "\n");
	return 2;
}

static int find(const char *name)
{
	for (int i = 0; i < NKNOBS; i++)
		if (strcmp(name, knobs[i].name) == 0)
			return i;
	return -1;
}

static void show(int i, int value)
{
	printf("%-17s %5d %-2s  %-9s  %s\n", knobs[i].name, value, knobs[i].unit,
	       knobs[i].range, knobs[i].meaning);
}

/* Read one; on failure print why and return -1. */
static int get(int i)
{
	int v = sched_tunable_get(knobs[i].id);

	if (v < 0) {
		if (errno == ENOSYS)
			printf("tune: the scheduler tunables exist only on the "
			       "staircase kernel (call 502: ENOSYS on Linux)\n");
		else
			printf("tune: reading %s: %s\n", knobs[i].name,
			       strerror(errno));
	}
	return v;
}

int main(int argc, char **argv)
{
	int i, old, value;
	char *end;
	long v;

	if (argc > 3)
		return usage();
	if (argc == 1) {
		if (get(0) < 0)
			return 1;
		printf("%-17s %5s %-2s  %-9s  %s\n", "NAME", "VALUE", "", "RANGE",
		       "MEANING");
		for (i = 0; i < NKNOBS; i++) {
			if ((value = get(i)) < 0)
				return 1;
			show(i, value);
		}
		return 0;
	}
	i = find(argv[1]);
	if (i < 0) {
		fprintf(stderr, "tune: unknown tunable '%s'\n", argv[1]);
		return usage();
	}
	if ((old = get(i)) < 0)
		return 1;
	if (argc == 2) {
		show(i, old);
		return 0;
	}

	errno = 0;
	v = strtol(argv[2], &end, 10);
	if (!argv[2][0] || *end || errno || v < -2147483647L || v > 2147483647L) {
		printf("tune: %s: '%s' is not a number (%s %s)\n", knobs[i].name,
		       argv[2], knobs[i].range, knobs[i].unit);
		return 1;
	}
	if (knobs[i].id == SCHED_TUNABLE_HZ) {
		printf("tune: hz is read-only: set it at boot (hz=100..1000)\n");
		return 1;
	}
	if (sched_tunable_set(knobs[i].id, (int)v) < 0) {
		if (errno == EINVAL)
			printf("tune: %s %ld: EINVAL, the kernel refused it: "
			       "%s takes %s %s (still %d)\n", knobs[i].name, v,
			       knobs[i].name, knobs[i].range, knobs[i].unit, old);
		else if (errno == EPERM)
			printf("tune: %s %ld: EPERM, only root may change "
			       "tunables (still %d)\n", knobs[i].name, v, old);
		else
			printf("tune: %s %ld: %s\n", knobs[i].name, v,
			       strerror(errno));
		return 1;
	}
	printf("%s: %d -> %d %s\n", knobs[i].name, old, get(i), knobs[i].unit);
	return 0;
}
