/*
 * sched_fifo - a FIFO task runs until it sleeps; NORMAL tasks wait.
 *
 * docs/staircase.md §7.1.  On CPU 0: a NORMAL hog, and a FIFO task that burns
 * 300 ms of CPU, then sleeps 300 ms.  Measured in 50 ms buckets, skipping
 * the bucket at each edge: from 50 to 250 ms the NORMAL hog gets < 1% and
 * the FIFO task > 95%; from 350 to 550 ms the NORMAL hog gets > 90%.
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 600
#define BUCKET_MS 50

static int measure(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = {
		{ .policy = SCHED_OTHER },
		{ .policy = SCHED_FIFO, .priority = 50,
		  .run_us = 300000, .sleep_us = 300000 },
	};
	struct hog_report r[2];
	char a[16], b[16], c[16];
	int starved, fifo, after;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, BUCKET_MS, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	starved = hog_share_pm(&r[0], BUCKET_MS, 1, 5);
	fifo = hog_share_pm(&r[1], BUCKET_MS, 1, 5);
	after = hog_share_pm(&r[0], BUCKET_MS, 7, 11);
	snprintf(detail, n, "50-250 ms: normal %s fifo %s (want < 1%%, > 95%%); "
		 "350-550 ms: normal %s (want > 90%%)", pct(starved, a),
		 pct(fifo, b), pct(after, c));
	return starved < 10 && fifo > 950 && after > 900;
}

int main(int argc, char **argv)
{
	char detail[200];

	test_require_our_kernel(argc, argv, 0);
	ktap_plan(1);
	ktap_ok(test_retry_once(measure, NULL, detail, sizeof(detail)),
		"fifo_starves_normal_until_it_sleeps", "%s", detail);
	return ktap_done();
}
