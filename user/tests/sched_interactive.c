/*
 * sched_interactive - a task that mostly sleeps runs soon after it wakes.
 *
 * docs/staircase.md §6.2: every real sleep earns burst and a fresh slice at the
 * top stair, so a task that runs 1 ms and sleeps 9 ms preempts CPU hogs
 * that have descended the stairs.  Beside two NORMAL hogs on CPU 0 its
 * average wake-up latency (from the end of the sleep to running again)
 * must be within one quantum (RR, 10 ms by default), and it must get at
 * least half of the ~10% of the CPU it asks for.
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 3000

/* RR (staircase.md §4); 10 ms when the kernel cannot tell us (Linux, --force). */
static long long quantum_ns(void)
{
	int ms = sched_tunable_get(SCHED_TUNABLE_RR_INTERVAL);

	if (ms <= 0)
		return 10000000LL;
	if (sched_tunable_get(SCHED_TUNABLE_COMPUTE) == 1)
		ms *= 10;
	return ms * 1000000LL;
}

static int measure(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[3] = {
		{ .policy = SCHED_OTHER, .run_us = 1000, .sleep_us = 9000 },
		{ .policy = SCHED_OTHER },
		{ .policy = SCHED_OTHER },
	};
	struct hog_report r[3];
	long long avg, q;
	char a[16];
	int share;

	(void)arg;
	if (hogs_run(spec, 3, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	q = quantum_ns();
	avg = r[0].wakeups ? r[0].late_sum_ns / r[0].wakeups : -1;
	share = permille(r[0].run_ns, WINDOW_MS * 1000000LL);
	snprintf(detail, n, "%ld wake-ups, latency avg %lld us max %lld us, "
		 "quantum %lld us; got %s of the cpu, want >= 5%%",
		 r[0].wakeups, avg / 1000, r[0].late_max_ns / 1000, q / 1000,
		 pct(share, a));
	return avg >= 0 && avg <= q && share >= 50;
}

int main(int argc, char **argv)
{
	char detail[200];

	test_require_our_kernel(argc, argv, 1);
	ktap_plan(1);
	ktap_ok(test_retry_once(measure, NULL, detail, sizeof(detail)),
		"interactive_task_wakes_within_a_quantum", "%s", detail);
	return ktap_done();
}
