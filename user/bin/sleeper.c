/*
 * sleeper - an interactive-looking load: run a little, sleep, repeat.
 *
 *   sleeper RUN_MS SLEEP_MS [SECONDS]     default 5 s
 *
 * Each cycle burns RUN_MS of CPU (measured by its own clock: reads less
 * than 200 us apart count as running), then sleeps SLEEP_MS with nanosleep.
 * At the end it prints its CPU share and how late it woke (wake-up latency
 * = time asleep - SLEEP_MS): average, median, 90th percentile and worst.
 * The staircase rewards sleeping: every real sleep earns a burst and a
 * fresh slice at the top stair (staircase.md §6.2), so `sleeper 1 9` beside
 * two `spin`s should still wake within about a quantum (rr_interval).
 * Same on Linux.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "args.h"

#define STEP_NS 200000LL

static int usage(void)
{
	fprintf(stderr, "usage: sleeper RUN_MS SLEEP_MS [SECONDS]   "
		"(RUN_MS 0..10000, SLEEP_MS 1..10000, SECONDS 1..3600, default 5)\n");
	return 2;
}

static int parse_int(const char *s, int *out, int lo, int hi)
{
	return parse_int_arg(s, lo, hi, out);
}

/* Burn `ns` of CPU time as seen by our clock; returns wall time taken. */
static long long burn(long long ns)
{
	long long start = monotonic_ns(), last = start, now, ran = 0;

	while (ran < ns) {
		now = monotonic_ns();
		if (now - last < STEP_NS)
			ran += now - last;
		last = now;
	}
	return last - start;
}

static void sort(unsigned *a, int n)
{
	for (int gap = n / 2; gap > 0; gap /= 2)
		for (int i = gap; i < n; i++)
			for (int j = i; j >= gap && a[j - gap] > a[j]; j -= gap) {
				unsigned t = a[j];
				a[j] = a[j - gap];
				a[j - gap] = t;
			}
}

int main(int argc, char **argv)
{
	int run_ms, sleep_ms, seconds = 5, n = 0, cap;
	long long start, end, ran_ns = 0, sum = 0;
	unsigned *lat;

	if (argc < 3 || argc > 4)
		return usage();
	if (!parse_int(argv[1], &run_ms, 0, 10000)) {
		fprintf(stderr, "sleeper: bad RUN_MS '%s'\n", argv[1]);
		return usage();
	}
	if (!parse_int(argv[2], &sleep_ms, 1, 10000)) {
		fprintf(stderr, "sleeper: bad SLEEP_MS '%s'\n", argv[2]);
		return usage();
	}
	if (argc == 4 && !parse_int(argv[3], &seconds, 1, 3600)) {
		fprintf(stderr, "sleeper: bad SECONDS '%s'\n", argv[3]);
		return usage();
	}
	cap = seconds * 1000 / sleep_ms + 1;
	lat = malloc(cap * sizeof(*lat));
	if (!lat) {
		printf("sleeper: out of memory for %d samples\n", cap);
		return 1;
	}

	start = monotonic_ns();
	end = start + seconds * 1000000000LL;
	while (monotonic_ns() < end && n < cap) {
		struct timespec ts = { sleep_ms / 1000, (sleep_ms % 1000) * 1000000L };
		long long before, late;

		burn(run_ms * 1000000LL);
		ran_ns += run_ms * 1000000LL;
		before = monotonic_ns();
		if (nanosleep(&ts, NULL) < 0) {
			printf("sleeper: nanosleep: %s\n", strerror(errno));
			return 1;
		}
		late = monotonic_ns() - before - sleep_ms * 1000000LL;
		if (late < 0)
			late = 0;	/* woke early: shown as 0 */
		lat[n++] = (unsigned)(late / 1000);
		sum += late / 1000;
	}
	long long wall = monotonic_ns() - start;
	int pm = (int)(ran_ns * 1000 / wall);

	if (n == 0) {
		printf("sleeper[%d]: no cycle finished in %d s\n", getpid(), seconds);
		return 1;
	}
	sort(lat, n);
	printf("sleeper[%d]: %d cycles of %d ms run + %d ms sleep in %lld ms: "
	       "CPU %d.%d%%\n", getpid(), n, run_ms, sleep_ms, wall / 1000000,
	       pm / 10, pm % 10);
	printf("sleeper[%d]: wake-up latency us: avg %lld, median %u, p90 %u, "
	       "max %u\n", getpid(), sum / n, lat[n / 2], lat[n * 9 / 10],
	       lat[n - 1]);
	return 0;
}
