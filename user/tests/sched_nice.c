/*
 * sched_nice - nice values share one CPU in proportion to their slices.
 *
 * staircase.md §10.3: nice 0 and nice 10 CPU hogs share about 2:1 (full slices
 * of 20 and 10 RR); we accept 1.70..2.30 (15%).  Nice 0 against nice 19
 * (full slice 1 RR, lowest stair) is about 20:1; we accept 10..40.
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 3000

struct nice_case {
	int nice;		/* of the second hog; the first is nice 0 */
	int lo, hi;		/* accepted ratio, x100 */
};

static int measure(void *arg, char *detail, size_t n)
{
	const struct nice_case *c = arg;
	struct hog_spec spec[2] = { { .nice = 0 }, { .nice = c->nice } };
	struct hog_report r[2];
	char a[16], b[16];
	long long ratio;

	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	ratio = r[1].run_ns ? r[0].run_ns * 100 / r[1].run_ns : 999999;
	snprintf(detail, n, "nice 0 got %s, nice %d got %s: ratio %lld.%02lld, "
		 "want %d.%02d..%d.%02d",
		 pct(permille(r[0].run_ns, WINDOW_MS * 1000000LL), a), c->nice,
		 pct(permille(r[1].run_ns, WINDOW_MS * 1000000LL), b),
		 ratio / 100, ratio % 100, c->lo / 100, c->lo % 100,
		 c->hi / 100, c->hi % 100);
	return ratio >= c->lo && ratio <= c->hi;
}

int main(int argc, char **argv)
{
	struct nice_case ten = { 10, 170, 230 }, nineteen = { 19, 1000, 4000 };
	char detail[200];

	test_require_our_kernel(argc, argv, 1);
	test_require_staircase();
	ktap_plan(2);
	ktap_ok(test_retry_once(measure, &ten, detail, sizeof(detail)),
		"nice_0_vs_10_shares_2_to_1", "%s", detail);
	ktap_ok(test_retry_once(measure, &nineteen, detail, sizeof(detail)),
		"nice_0_vs_19_shares_about_20_to_1", "%s", detail);
	return ktap_done();
}
