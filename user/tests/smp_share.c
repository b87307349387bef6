/*
 * smp_share - N CPU-bound NORMAL tasks on M CPUs share them fairly.
 *
 * staircase.md §8.1, §8.2 (load balancing keeps queues even), issues 6 and
 * 31: with -smp 2,sockets=2, three hogs free to run anywhere each get 2/3
 * of a CPU, within 12 points, over 3 s; with -smp 4, six hogs (two CPUs
 * with a pair, two with one alone) 2/3 each too. That needs more than
 * "pull when two tasks apart": a 2:1 split is stable, so the balancer must
 * rotate which task has a CPU to itself. Jain's index of the shares,
 * (sum x)^2 / (n sum x^2), must be at least 0.95 as well (the seed's frozen
 * split, sched_rotate=0, gives 0.889). Usage: smp_share [hogs] (default:
 * CPUs + 1; at most HOGS_MAX, 8).
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "testlib.h"

#define WINDOW_MS 3000
#define TOLERANCE_PM 120	/* 12 points */
#define JAIN_MIN_PM 950		/* Jain's index, per mille */

static int nhogs, ncpus;

/* Jain's fairness index of the shares in per mille: 1000 when all equal. */
static int jain_pm(const int *pm, int n)
{
	long long sum = 0, sumsq = 0;

	for (int i = 0; i < n; i++) {
		sum += pm[i];
		sumsq += (long long)pm[i] * pm[i];
	}
	return sumsq ? (int)(sum * sum * 1000 / (n * sumsq)) : 0;
}

static int share(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[16];
	struct hog_report r[16];
	int want = ncpus * 1000 / nhogs, lo = 1000, hi = 0, len = 0, ok = 1, pms[16], jain;
	long moves = 0;
	char a[16];

	(void)arg;
	for (int i = 0; i < nhogs; i++)
		spec[i] = (struct hog_spec){ .policy = SCHED_OTHER,
					     .cpus = (1u << ncpus) - 1,
					     .sample_cpu = 1 };
	if (hogs_run(spec, nhogs, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	len += snprintf(detail + len, n - len, "shares");
	for (int i = 0; i < nhogs; i++) {
		int pm = pms[i] = hog_pm(&r[i], WINDOW_MS);
		lo = pm < lo ? pm : lo;
		hi = pm > hi ? pm : hi;
		moves += r[i].moves;
		if (pm < want - TOLERANCE_PM || pm > want + TOLERANCE_PM)
			ok = 0;
		len += snprintf(detail + len, n - len, " %s", pct(pm, a));
	}
	len += snprintf(detail + len, n - len, " (clock:");
	for (int i = 0; i < nhogs; i++)
		len += snprintf(detail + len, n - len, " %s",
				pct(permille(r[i].run_ns, WINDOW_MS * 1000000LL), a));
	len += snprintf(detail + len, n - len, "; min %s", pct(lo, a));
	len += snprintf(detail + len, n - len, " max %s), %ld CPU changes; want ", pct(hi, a), moves);
	len += snprintf(detail + len, n - len, "%s +- 12 points each", pct(want, a));
	jain = jain_pm(pms, nhogs);
	len += snprintf(detail + len, n - len, "; Jain %d.%03d (>= %d.%03d)", jain / 1000,
			jain % 1000, JAIN_MIN_PM / 1000, JAIN_MIN_PM % 1000);
	return ok && jain >= JAIN_MIN_PM;
}

int main(int argc, char **argv)
{
	char detail[300];

	test_require_our_kernel(argc, argv, 1);
	ncpus = test_ncpus();
	nhogs = argc > 1 && argv[1][0] != '-' ? atoi(argv[1]) : ncpus + 1;
	if (nhogs < 1 || nhogs > HOGS_MAX)
		nhogs = ncpus + 1 <= HOGS_MAX ? ncpus + 1 : HOGS_MAX;
	ktap_plan(1);
	printf("# %d hogs on %d CPUs for %d ms\n", nhogs, ncpus, WINDOW_MS);
	ktap_ok(test_retry_once(share, NULL, detail, sizeof(detail)),
		"smp_hogs_share_cpus_fairly", "%s", detail);
	return ktap_done();
}
