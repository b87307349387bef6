/*
 * sched_rr - two SCHED_RR hogs of equal priority take turns, one quantum
 * each.
 *
 * staircase.md §4 and §7.2: the quantum is RR (sched_rr_get_interval tells).
 * Over 1 s on CPU 0 each hog gets 40..60%, and its stretches of running
 * last one quantum on average (0.5..1.5 of it).
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 1000

static int measure(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = {
		{ .policy = SCHED_RR, .priority = 50 },
		{ .policy = SCHED_RR, .priority = 50 },
	};
	struct hog_report r[2];
	long long q, stint[2];
	char a[16], b[16];
	int share[2], ok = 1;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	q = r[0].rr_interval_ns;
	for (int i = 0; i < 2; i++) {
		share[i] = permille(r[i].run_ns, WINDOW_MS * 1000000LL);
		stint[i] = r[i].run_ns / (r[i].stints ? r[i].stints : 1);
		ok &= share[i] >= 400 && share[i] <= 600;
		ok &= stint[i] * 2 >= q && stint[i] * 2 <= 3 * q;
	}
	snprintf(detail, n, "shares %s %s (want 40..60%%), average turn %lld "
		 "and %lld us, quantum %lld us", pct(share[0], a),
		 pct(share[1], b), stint[0] / 1000, stint[1] / 1000, q / 1000);
	return ok && q > 0;
}

int main(int argc, char **argv)
{
	char detail[200];

	test_require_our_kernel(argc, argv, 0);
	ktap_plan(1);
	ktap_ok(test_retry_once(measure, NULL, detail, sizeof(detail)),
		"rr_hogs_alternate_each_quantum", "%s", detail);
	return ktap_done();
}
