/*
 * sched_yield - yielding gives the CPU away.
 *
 * staircase.md §6.5: a NORMAL task that yields drops to the lowest stair, so
 * beside a NORMAL hog that never yields it gets almost nothing: the hog
 * keeps >= 80%.  §7.1 / POSIX: a FIFO task that yields goes to the
 * tail of its priority's list, so two FIFO tasks that keep yielding
 * alternate: their loop counts (one yield per loop) stay within 2:1.  A
 * yield that did not switch would let one of them loop alone.
 */
#include <sched.h>
#include <stdio.h>

#include "testlib.h"

#define WINDOW_MS 500

static int normal(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = { { .policy = SCHED_OTHER },
				    { .policy = SCHED_OTHER, .yield = 1 } };
	struct hog_report r[2];
	char a[16], b[16];
	int hog, yielder;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	hog = permille(r[0].run_ns, WINDOW_MS * 1000000LL);
	yielder = permille(r[1].run_ns, WINDOW_MS * 1000000LL);
	snprintf(detail, n, "hog %s, yielder %s (%ld yields), want hog "
		 ">= 80%%", pct(hog, a), pct(yielder, b), r[1].loops);
	return hog >= 800;
}

static int fifo(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = {
		{ .policy = SCHED_FIFO, .priority = 50, .yield = 1 },
		{ .policy = SCHED_FIFO, .priority = 50, .yield = 1 },
	};
	struct hog_report r[2];
	long a, b;

	(void)arg;
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	a = r[0].loops;
	b = r[1].loops;
	snprintf(detail, n, "loops %ld and %ld, want both >= 100 and "
		 "within 2:1", a, b);
	return a >= 100 && b >= 100 && a <= 2 * b && b <= 2 * a;
}

int main(int argc, char **argv)
{
	char detail[200];

	test_require_our_kernel(argc, argv, 0);
	test_require_staircase();
	ktap_plan(2);
	ktap_ok(test_retry_once(normal, NULL, detail, sizeof(detail)),
		"normal_yielder_gives_way_to_hog", "%s", detail);
	ktap_ok(test_retry_once(fifo, NULL, detail, sizeof(detail)),
		"fifo_yielders_take_turns", "%s", detail);
	return ktap_done();
}
