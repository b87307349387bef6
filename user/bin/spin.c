/*
 * spin - burn CPU for a while and say how much CPU it actually got.
 *
 *   spin [SECONDS] [-c CPU]     default 5 s; -c pins it to one CPU
 *
 * Loops for SECONDS of wall time, mostly in user mode (a short counting
 * loop between clock reads, so that the ticks land as user or nice time,
 * not system).  At the end it prints the CPU time the kernel charged it
 * (getrusage) and the time it saw itself: consecutive CLOCK_MONOTONIC reads
 * less than 200 us apart mean it had the CPU (the testlib hogs' method,
 * docs/userland.md).  In real-time QEMU on a busy host the two differ: the
 * host's own gaps look like lost CPU to the clock, while the kernel charges
 * the ticks QEMU dropped to the task that was running.  Two spins on one CPU get about
 * half each; a nice 10 spin beside a nice 0 one about a third; a BATCH spin
 * beside a NORMAL one almost nothing (docs/staircase.md §10).  Same on Linux.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "args.h"

#define STEP_NS 200000LL	/* a larger gap between reads: not running */

static int usage(void)
{
	fprintf(stderr, "usage: spin [SECONDS] [-c CPU]   (SECONDS 1..3600, default 5)\n");
	return 2;
}

static int parse_int(const char *s, int *out)
{
	return parse_int_arg(s, 0, 1000000, out);
}

int main(int argc, char **argv)
{
	int seconds = 5, cpu = -1;
	long long start, now, last, ran = 0, wall;
	unsigned stretches = 0;
	struct rusage ru;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-c") == 0) {
			if (++i >= argc || !parse_int(argv[i], &cpu) || cpu >= CPU_SETSIZE) {
				fprintf(stderr, "spin: -c needs a CPU number\n");
				return usage();
			}
		} else if (!parse_int(argv[i], &seconds) || seconds < 1 ||
			   seconds > 3600) {
			fprintf(stderr, "spin: bad argument '%s'\n", argv[i]);
			return usage();
		}
	}
	if (cpu >= 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0) {
			printf("spin: cannot pin to CPU %d: %s%s\n", cpu,
			       strerror(errno),
			       errno == EINVAL ? " (no such CPU online)" : "");
			return 1;
		}
	}

	start = last = monotonic_ns();
	do {
		for (volatile int k = 0; k < 2000; k++)
			;	/* user-mode work between two clock reads */
		now = monotonic_ns();
		if (now - last < STEP_NS)
			ran += now - last;
		else
			stretches++;
		last = now;
	} while (now - start < seconds * 1000000000LL);
	wall = now - start;

	long long ru_ms = -1;
	if (getrusage(RUSAGE_SELF, &ru) == 0)
		ru_ms = (long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000 +
			(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1000;
	int pm = wall ? (int)(ran * 1000 / wall) : 0;
	int ru_pm = wall && ru_ms >= 0 ? (int)(ru_ms * 1000000000LL / wall) : 0;
	printf("spin[%d]: %lld ms wall, got %lld ms CPU (%d.%d%%); by its own "
	       "clock %lld ms (%d.%d%%), off the CPU %u times; on cpu %d\n",
	       getpid(), wall / 1000000, ru_ms, ru_pm / 10, ru_pm % 10,
	       ran / 1000000, pm / 10, pm % 10, stretches, sched_getcpu());
	return 0;
}
