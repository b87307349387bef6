/*
 * sched_iso - SCHED_ISO: soft real time for ordinary users, with a cap.
 *
 * Spec section 7:
 *  - an unprivileged request for SCHED_FIFO is granted as SCHED_ISO;
 *  - two "hostile" ISO tasks (run 4 ms, sleep 1 ms) beside a NORMAL hog on
 *    one CPU: with iso_cpu=70 the cap demotes them and the hog gets >= 25%
 *    (the model says 31%); with iso_cpu=100 (the seed: no cap) it gets
 *    < 25% (the model says 0%).  The cap works on a ~5 s average, so each
 *    run lasts 8 s and only its second half is measured.
 * The tunable is set with the kernel's call 502 and restored at the end.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define WINDOW_MS 8000
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

static int hog_share(int iso_cpu, char *detail, size_t n)
{
	struct hog_spec spec[3] = {
		{ .policy = SCHED_OTHER },
		{ .policy = SCHED_ISO, .run_us = 4000, .sleep_us = 1000 },
		{ .policy = SCHED_ISO, .run_us = 4000, .sleep_us = 1000 },
	};
	struct hog_report r[3];
	int half = WINDOW_MS / BUCKET_MS / 2, hog, iso;
	char a[16], b[16];

	if (sched_tunable_set(SCHED_TUNABLE_ISO_CPU, iso_cpu) < 0 ||
	    hogs_run(spec, 3, WINDOW_MS, BUCKET_MS, r) < 0) {
		snprintf(detail, n, "could not set iso_cpu or start the hogs");
		return -1;
	}
	hog = hog_share_pm(&r[0], BUCKET_MS, half, 2 * half);
	iso = hog_share_pm(&r[1], BUCKET_MS, half, 2 * half) +
	      hog_share_pm(&r[2], BUCKET_MS, half, 2 * half);
	snprintf(detail, n, "iso_cpu=%d: last %d s hog %s, iso pair %s",
		 iso_cpu, WINDOW_MS / 2000, pct(hog, a), pct(iso, b));
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

int main(int argc, char **argv)
{
	int saved;
	char detail[200];

	test_require_our_kernel(argc, argv, 0);
	ktap_plan(3);
	ktap_in_child("unprivileged_fifo_becomes_iso", unprivileged_fifo, NULL);
	saved = sched_tunable_get(SCHED_TUNABLE_ISO_CPU);
	ktap_ok(test_retry_once(capped, NULL, detail, sizeof(detail)),
		"iso_cpu_70_leaves_hog_at_least_25_percent", "%s", detail);
	ktap_ok(test_retry_once(uncapped, NULL, detail, sizeof(detail)),
		"iso_cpu_100_lets_hostile_iso_starve_hog", "%s", detail);
	if (saved >= 0)
		sched_tunable_set(SCHED_TUNABLE_ISO_CPU, saved);
	return ktap_done();
}
