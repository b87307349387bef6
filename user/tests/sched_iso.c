/*
 * sched_iso - SCHED_ISO: soft real time for ordinary users, with a cap.
 *
 * docs/staircase.md §7.5:
 *  - an unprivileged request for SCHED_FIFO is granted as SCHED_ISO;
 *  - two "hostile" ISO tasks (run 4 ms, sleep 1 ms) beside a NORMAL hog on
 *    one CPU: with iso_cpu=70 the cap demotes them and the hog gets >= 25%
 *    (the model says 31%); with iso_cpu=100 (the seed: no cap) it gets
 *    < 25% (the model says 0%).  The cap works on a ~5 s average that
 *    starts at 0 and reaches 70% only after ~6 s of ISO load, so each run
 *    lasts 12 s and only its last 4 s are measured (with 8 s and the last
 *    half, the first try regularly measured the hog before the cap began).
 *  - a sleep lasts at least a tick, so the pattern is in ticks: sleep 1,
 *    run 4 (4 ms / 1 ms at hz=1000).  With coarser ticks a one-tick sleep
 *    often lasts two, which leaves the hog ~20%: the pair would then stay
 *    under the cap's 70% for most of the window; run 8 ticks there
 *    (80 ms / 10 ms at hz=100).
 *  - in compute mode (compute=1) a wake-up whose run + sleep is
 *    shorter than a quantum (100 ms there) is not a real sleep (§6.2), so
 *    the hostile pair descends the stairs like a hog and, even without the
 *    cap, the NORMAL hog keeps >= 25%: check 3 says so instead.
 * The tunable is set with the kernel's call 502 and restored at the end.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define WINDOW_MS 12000
#define MEASURE_MS 4000	/* the last 4 s */
#define BUCKET_MS 500

static void unprivileged_fifo(void *unused)
{
	struct sched_param sp = { 10 };
	int r, policy;

	(void)unused;
	setuid(1000);
	r = sched_setscheduler(0, SCHED_FIFO, &sp);
	policy = sched_getscheduler(0);
	ktap_ok(r == 0 && policy == SCHED_ISO, "unprivileged_fifo_becomes_iso",
		"returned %d errno %d, policy now %d want %d", r,
		r ? errno : 0, policy, SCHED_ISO);
}

/* One tick in microseconds (the kernel's hz; 1000 if it cannot say). */
static int tick_us(void)
{
	int hz = sched_tunable_get(SCHED_TUNABLE_HZ);

	return 1000000 / (hz > 0 ? hz : 1000);
}

static int hog_share(int iso_cpu, char *detail, size_t n)
{
	int t = tick_us(), run = (t <= 1000 ? 4 : 8) * t;
	struct hog_spec spec[3] = {
		{ .policy = SCHED_OTHER },
		{ .policy = SCHED_ISO, .run_us = run, .sleep_us = t },
		{ .policy = SCHED_ISO, .run_us = run, .sleep_us = t },
	};
	struct hog_report r[3];
	int from = (WINDOW_MS - MEASURE_MS) / BUCKET_MS,
	    to = WINDOW_MS / BUCKET_MS, hog, iso;
	char a[16], b[16];

	if (sched_tunable_set(SCHED_TUNABLE_ISO_CPU, iso_cpu) < 0 ||
	    hogs_run(spec, 3, WINDOW_MS, BUCKET_MS, r) < 0) {
		snprintf(detail, n, "could not set iso_cpu or start the hogs");
		return -1;
	}
	hog = hog_share_pm(&r[0], BUCKET_MS, from, to);
	iso = hog_share_pm(&r[1], BUCKET_MS, from, to) +
	      hog_share_pm(&r[2], BUCKET_MS, from, to);
	snprintf(detail, n, "iso_cpu=%d: last %d s hog %s, iso pair %s "
		 "(run %d us, sleep %d us)", iso_cpu, MEASURE_MS / 1000,
		 pct(hog, a), pct(iso, b), run, t);
	return hog;
}

static int capped(void *arg, char *detail, size_t n)
{
	(void)arg;
	return hog_share(70, detail, n) >= 250;
}

static int uncapped(void *arg, char *detail, size_t n)
{
	int hog;

	(void)arg;
	hog = hog_share(100, detail, n);
	return hog >= 0 && hog < 250;
}

/* Compute mode: short sleeps are no real sleeps, cap or no cap. */
static int uncapped_compute(void *arg, char *detail, size_t n)
{
	(void)arg;
	return hog_share(100, detail, n) >= 250;
}

int main(int argc, char **argv)
{
	int saved;
	char detail[200];

	test_require_our_kernel(argc, argv, 0);
	test_require_staircase();
	ktap_plan(3);
	ktap_in_child("unprivileged_fifo_becomes_iso", unprivileged_fifo, NULL);
	saved = sched_tunable_get(SCHED_TUNABLE_ISO_CPU);
	ktap_ok(test_retry_once(capped, NULL, detail, sizeof(detail)),
		"iso_cpu_70_leaves_hog_at_least_25_percent", "%s", detail);
	if (sched_tunable_get(SCHED_TUNABLE_COMPUTE) == 1)
		ktap_ok(test_retry_once(uncapped_compute, NULL, detail,
					sizeof(detail)),
			"iso_cpu_100_compute_mode_hog_keeps_25_percent", "%s",
			detail);
	else
		ktap_ok(test_retry_once(uncapped, NULL, detail,
					sizeof(detail)),
			"iso_cpu_100_lets_hostile_iso_starve_hog", "%s",
			detail);
	if (saved >= 0)
		sched_tunable_set(SCHED_TUNABLE_ISO_CPU, saved);
	return ktap_done();
}
