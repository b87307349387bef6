/*
 * sched_batch - SCHED_BATCH runs only when nothing else wants the CPU.
 *
 * staircase.md §1 and §10.4: beside a NORMAL hog on one CPU a BATCH hog gets
 * (almost) nothing, under 1%; alone it gets (almost) all, at least 90%.
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 2000

static int beside_normal(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = { { .policy = SCHED_BATCH },
				    { .policy = SCHED_OTHER } };
	struct hog_report r[2];
	char a[16], b[16];
	int batch, normal;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	batch = permille(r[0].run_ns, WINDOW_MS * 1000000LL);
	normal = permille(r[1].run_ns, WINDOW_MS * 1000000LL);
	snprintf(detail, n, "batch got %s, normal %s, want batch < 1%%",
		 pct(batch, a), pct(normal, b));
	return batch < 10;
}

static int alone(void *arg, char *detail, size_t n)
{
	struct hog_spec spec = { .policy = SCHED_BATCH };
	struct hog_report r;
	char a[16];
	int batch;

	(void)arg;
	if (hogs_run(&spec, 1, WINDOW_MS / 2, 100, &r) < 0) {
		snprintf(detail, n, "could not start the hog");
		return 0;
	}
	batch = permille(r.run_ns, WINDOW_MS / 2 * 1000000LL);
	snprintf(detail, n, "batch alone got %s, want >= 90%%", pct(batch, a));
	return batch >= 900;
}

int main(int argc, char **argv)
{
	char detail[160];

	test_require_our_kernel(argc, argv, 0);
	test_require_staircase();
	ktap_plan(2);
	ktap_ok(test_retry_once(beside_normal, NULL, detail, sizeof(detail)),
		"batch_idle_only_beside_normal", "%s", detail);
	ktap_ok(test_retry_once(alone, NULL, detail, sizeof(detail)),
		"batch_alone_gets_the_cpu", "%s", detail);
	return ktap_done();
}
