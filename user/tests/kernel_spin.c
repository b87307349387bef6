/*
 * kernel_spin [MS] - stay in kernel mode for MS milliseconds (default
 * 6000) through test call 503 KERNEL_SPIN, so that the watchdog reports
 * this CPU as stuck (kernel/debug/watchdog.c): after 5 s the console shows
 * "watchdog: cpuN has run pid P (kernel_spin) in kernel mode for ... ms"
 * and a backtrace through sys_test_mutex. Root only; then it returns, and
 * the machine goes on as before.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"
#include "testlib.h"

int main(int argc, char **argv)
{
	int ms = 6000;

	test_require_our_kernel(argc, argv, 0);
	if (argc > 1 && !parse_int_arg(argv[1], 0, 10000, &ms)) {
		fprintf(stderr, "usage: kernel_spin [MS]   (0..10000, default 6000)\n");
		return 2;
	}
	ktap_plan(1);
	int r = test_mutex(TEST_KERNEL_SPIN, ms);
	ktap_ok(r == 0, "kernel_spin_returns", "spun %d ms in kernel mode: %s", ms,
		r == 0 ? "returned 0" : strerror(errno));
	return ktap_done();
}
