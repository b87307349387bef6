/*
 * top - per-CPU load and the busiest tasks, every SEC seconds, N times.
 *
 *   top [-n N] [-d SEC]        default N 5, SEC 1
 *
 * Each block: one line per CPU with the user/nice/system/idle share of its
 * ticks over the last interval (call 501; nice = BATCH or nice > 0 time),
 * its queue length, its ISO share (5 s decaying average) and whether its
 * ISO tasks are throttled to BATCH (iso_cpu, docs/staircase.md §7.5); then the
 * tasks that used the most CPU in that interval (call 500, pids 1..4096),
 * %CPU being ticks used / ticks elapsed (100% = one whole CPU).  Blocks are
 * separated by a blank line; no terminal control.  Linux has no calls
 * 500/501: top says so and exits 1.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"

#include "kernel_calls.h"

#define MAX_PID 4096
#define MAX_CPUS 32
#define SHOW 10

static uint32_t prev_ticks[MAX_PID + 1];
static struct sched_task_info cur[MAX_PID + 1];
static int ids[MAX_PID + 1];
static uint32_t delta[MAX_PID + 1];

static int usage(void)
{
	fprintf(stderr, "usage: top [-n N] [-d SEC]   (N 1..10000, default 5; "
		"SEC 1..60, default 1)\n");
	return 2;
}

static int parse_int(const char *s, int *out, int lo, int hi)
{
	return parse_int_arg(s, lo, hi, out);
}


static uint64_t total(const struct sched_cpu_info *c)
{
	return c->user_ticks + c->nice_ticks + c->system_ticks + c->idle_ticks;
}

/* per mille of part in whole, printed as 12.3% */
static void pct(uint64_t part, uint64_t whole)
{
	unsigned pm = whole ? (unsigned)(part * 1000 / whole) : 0;
	printf(" %3u.%u%%", pm / 10, pm % 10);
}

/* Read every task; returns how many (indices in ids[]). */
static int scan_tasks(void)
{
	int n = 0;

	for (int pid = 1; pid <= MAX_PID; pid++) {
		if (sched_stat(pid, &cur[pid]) < 0)
			continue;
		uint32_t t = cur[pid].utime + cur[pid].stime;
		delta[pid] = t - prev_ticks[pid];	/* new pid: prev 0 */
		prev_ticks[pid] = t;
		ids[n++] = pid;
	}
	return n;
}

int main(int argc, char **argv)
{
	struct sched_cpu_info before[MAX_CPUS], after[MAX_CPUS];
	int rounds = 5, sec = 1, ncpus = 0, hz;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-n") == 0 && i + 1 < argc) {
			if (!parse_int(argv[++i], &rounds, 1, 10000)) {
				fprintf(stderr, "top: bad -n '%s'\n", argv[i]);
				return usage();
			}
		} else if (strcmp(argv[i], "-d") == 0 && i + 1 < argc) {
			if (!parse_int(argv[++i], &sec, 1, 60)) {
				fprintf(stderr, "top: bad -d '%s'\n", argv[i]);
				return usage();
			}
		} else {
			fprintf(stderr, "top: bad argument '%s'\n", argv[i]);
			return usage();
		}
	}
	hz = sched_tunable_get(SCHED_TUNABLE_HZ);
	if (hz <= 0) {
		printf("top: needs the staircase kernel's calls 500/501 (%s here); "
		       "on Linux use top(1)\n", strerror(errno));
		return 1;
	}
	while (ncpus < MAX_CPUS && sched_cpustat(ncpus, &before[ncpus]) == 0)
		ncpus++;
	scan_tasks();

	for (int r = 1; r <= rounds; r++) {
		struct timespec ts = { sec, 0 };
		nanosleep(&ts, NULL);
		for (int c = 0; c < ncpus; c++)
			if (sched_cpustat(c, &after[c]) < 0) {
				printf("top: cpu %d: %s\n", c, strerror(errno));
				return 1;
			}
		int n = scan_tasks();
		uint64_t elapsed = total(&after[0]) - total(&before[0]);

		if (r > 1)
			printf("\n");
		printf("top: %d of %d, %llu ticks (hz %d), %d tasks\n", r, rounds,
		       (unsigned long long)elapsed, hz, n);
		printf("CPU    USER    NICE  SYSTEM    IDLE  RUN     ISO THROTTLED CURR\n");
		for (int c = 0; c < ncpus; c++) {
			const struct sched_cpu_info *a = &after[c], *b = &before[c];
			uint64_t all = total(a) - total(b);
			printf("%3d", c);
			pct(a->user_ticks - b->user_ticks, all);
			pct(a->nice_ticks - b->nice_ticks, all);
			pct(a->system_ticks - b->system_ticks, all);
			pct(a->idle_ticks - b->idle_ticks, all);
			printf(" %4d %3d.%d%% %9s %4d\n", a->nr_running,
			       a->iso_share_permille / 10, a->iso_share_permille % 10,
			       a->iso_throttled ? "yes" : "no", a->curr_pid);
			before[c] = *a;
		}

		/* the SHOW busiest: a partial selection sort of ids[] by delta */
		printf("  PID STATE POLICY PRIO NICE CPU   %%CPU TIME(ms)\n");
		for (int k = 0; k < n && k < SHOW; k++) {
			int best = k;
			for (int j = k + 1; j < n; j++)
				if (delta[ids[j]] > delta[ids[best]])
					best = j;
			int t = ids[k]; ids[k] = ids[best]; ids[best] = t;
			const struct sched_task_info *p = &cur[ids[k]];
			printf("%5d %-5c %-6s %4d %4d %3d", p->pid,
			       "RSD?X???W"[p->state >= 0 && p->state <= 8 ? p->state : 3],
			       sched_policy_name(p->policy), p->prio, p->nice, p->cpu);
			pct(delta[ids[k]], elapsed);
			printf(" %8llu\n", ((unsigned long long)p->utime + p->stime) *
			       1000 / hz);
		}
	}
	return 0;
}
