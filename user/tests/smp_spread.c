/*
 * smp_spread - CPU-bound tasks spread one per core before doubling up on
 * hyperthread siblings (docs/staircase.md §8; issue 6).
 *
 * With -smp 4,cores=2,threads=2, two CPU-bound tasks must be on different
 * cores (not two threads of one core) within 200 ms, and stay where they
 * are. Each hog samples getcpu() on every loop and records the CPUs it was
 * seen on per 25 ms bucket; the sibling map comes from the kernel (call
 * 506). Usage: smp_spread [hogs] (default 2; at most one per core).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "testlib.h"

#define WINDOW_MS 1600
#define BUCKET_MS 25
#define SETTLE_MS 200
#define NBUCKETS (WINDOW_MS / BUCKET_MS)

static int ncpus, nhogs, ncores;
static unsigned core_mask[32];		/* cpu -> its core's CPUs */

/* The cores (as a mask of their first CPUs) that the CPUs in m are on. */
static unsigned cores_of(unsigned m)
{
	unsigned cores = 0;

	for (int cpu = 0; cpu < ncpus; cpu++)
		if (m & (1u << cpu))
			cores |= 1u << __builtin_ctz(core_mask[cpu]);
	return cores;
}

/* arg NULL: the hogs start free (wake-up placement spreads them);
 * else they start on the threads of core 0, one per thread, and are set
 * free at "go" (the balancer must move a running task's successor: the
 * idle core asks a busy thread to hand its task over). */
static int spread(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[16];
	struct hog_report r[16];
	int settled = -1, len = 0, ok;
	long later_moves = 0;
	char a[16];

	(void)arg;
	for (int i = 0; i < nhogs; i++)
		spec[i] = (struct hog_spec){ .policy = SCHED_OTHER,
					     .cpus = (1u << ncpus) - 1,
					     .sample_cpu = 1 };
	if (arg) {
		unsigned core0 = core_mask[0];
		for (int i = 0; i < nhogs; i++) {
			int k = i % __builtin_popcount(core0), cpu = 0;
			for (unsigned m = core0; m; m &= m - 1, k--)
				if (k == 0)
					cpu = __builtin_ctz(m);
			spec[i].cpus = 1u << cpu;
			spec[i].cpus_at_go = (1u << ncpus) - 1;
		}
	}
	if (hogs_run(spec, nhogs, WINDOW_MS, BUCKET_MS, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	/* settled = the first bucket from which on no two hogs share a core
	 * and none changes cores within a bucket. A bucket in which a hog
	 * was not seen at all (its vCPU stalled by a busy host for 25 ms)
	 * says nothing either way. */
	for (int b = NBUCKETS - 1; b >= 0; b--) {
		unsigned used = 0;
		int clash = 0;
		for (int i = 0; i < nhogs; i++) {
			unsigned c = cores_of(r[i].bucket_cpus[b]);
			if ((c & (c - 1)) || (c & used))
				clash = 1;
			used |= c;
		}
		if (clash)
			break;
		settled = b;
	}
	/* stay there: no CPU change after SETTLE_MS */
	for (int i = 0; i < nhogs; i++) {
		unsigned after = 0;
		for (int b = SETTLE_MS / BUCKET_MS; b < NBUCKETS; b++)
			after |= r[i].bucket_cpus[b];
		if (after & (after - 1))
			later_moves++;
		len += snprintf(detail + len, n - len, "hog%d on cpus 0x%x (0x%x after %d ms), %s, %ld moves; ",
				i, r[i].cpu_seen, after, SETTLE_MS,
				pct(hog_pm(&r[i], WINDOW_MS), a), r[i].moves);
	}
	ok = settled >= 0 && settled * BUCKET_MS <= SETTLE_MS && later_moves == 0;
	if (settled >= 0)
		snprintf(detail + len, n - len, "one per core from %d ms; want <= %d ms and no move after",
			 settled * BUCKET_MS, SETTLE_MS);
	else
		snprintf(detail + len, n - len, "never one per core; want by %d ms", SETTLE_MS);
	return ok;
}

int main(int argc, char **argv)
{
	struct sched_topology_info t;
	char detail[600];

	test_require_our_kernel(argc, argv, 0);
	ncpus = test_ncpus();
	nhogs = argc > 1 ? atoi(argv[1]) : 2;
	for (int cpu = 0; cpu < ncpus; cpu++) {
		if (sched_topology(cpu, &t) < 0) {
			ktap_skip_all("no topology call (506)");
			return 0;
		}
		core_mask[cpu] = t.siblings;
		ncores += (__builtin_ctz(t.siblings) == cpu);
	}
	if (nhogs < 1 || nhogs > ncores || ncores < 2) {
		printf("1..0 # SKIP %d hogs, %d cores: nothing to spread\n", nhogs, ncores);
		return 0;
	}
	ktap_plan(2);
	printf("# %d hogs on %d CPUs, %d cores\n", nhogs, ncpus, ncores);
	ktap_ok(test_retry_once(spread, NULL, detail, sizeof(detail)),
		"smp_hogs_placed_one_per_core_not_siblings", "%s", detail);
	ktap_ok(test_retry_once(spread, "siblings", detail, sizeof(detail)),
		"smp_hogs_started_on_siblings_spread_to_cores", "%s", detail);
	return ktap_done();
}
