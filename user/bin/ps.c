/*
 * ps - one line per process, as the staircase scheduler sees it.
 *
 *   ps        PID STATE POLICY PRIO NICE BURST SLICE CPU TIME RUNS WAIT
 *   ps -v     adds MAXB (max_burst), FULL (full_slice), MASK (cpus_allowed)
 *             and FLAGS (F forked, Y yielded, U uninterruptible, M migrating)
 *
 * It asks call 500 (sched_stat) about pids 1..4096 and skips the ESRCH ones.
 * PRIO is the task's current stair (docs/staircase.md §1: 100..139 NORMAL/ISO,
 * 140 BATCH, 0..99 real time); BURST and SLICE are §3's burst and
 * ticks left of the whole slice; TIME is utime + stime, WAIT the time spent
 * runnable but not running, both in ms.  On Linux call 500 does not exist:
 * ps then shows only PID, POLICY and NICE (sched_getscheduler,
 * getpriority) and says so.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

#include "kernel_calls.h"

#define MAX_PID 4096

static const char *policy_name(int policy)
{
	static const char *names[] = { "NORMAL", "FIFO", "RR", "BATCH", "ISO" };
	return policy >= 0 && policy < 5 ? names[policy] : "?";
}

static const char *state_name(int state)
{
	switch (state) {
	case 0: return "R";	/* running or runnable */
	case 1: return "S";	/* interruptible sleep */
	case 2: return "D";	/* uninterruptible sleep */
	case 4: return "X";	/* dead */
	case 8: return "W";	/* being woken */
	default: return "?";
	}
}

static void flags_name(int flags, char *buf)
{
	char *p = buf;
	if (flags & 0x1) *p++ = 'F';
	if (flags & 0x2) *p++ = 'Y';
	if (flags & 0x4) *p++ = 'U';
	if (flags & 0x8) *p++ = 'M';
	if (p == buf) *p++ = '-';
	*p = '\0';
}

static int usage(void)
{
	fprintf(stderr, "usage: ps [-v]\n"
		"  -v  also max_burst, full_slice, cpus_allowed mask, flags\n");
	return 2;
}

/* Linux: only what the standard calls tell about any pid. */
static int ps_linux(void)
{
	printf("ps: not the staircase kernel (call 500 sched_stat: %s);\n"
	       "ps: showing PID, POLICY and NICE only, pids 1..%d\n",
	       strerror(ENOSYS), MAX_PID);
	printf("%5s %-6s %4s\n", "PID", "POLICY", "NICE");
	for (int pid = 1; pid <= MAX_PID; pid++) {
		int policy = sched_getscheduler(pid);
		if (policy < 0)
			continue;
		errno = 0;
		int n = getpriority(PRIO_PROCESS, pid);
		if (n == -1 && errno)
			continue;
		/* Linux's 3 is SCHED_BATCH too; 5 is SCHED_IDLE. */
		printf("%5d %-6s %4d\n", pid,
		       policy == 5 ? "IDLE" : policy_name(policy & ~0x40000000), n);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct sched_task_info t;
	int verbose = 0, hz;

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-v") == 0)
			verbose = 1;
		else {
			fprintf(stderr, "ps: unknown argument '%s'\n", argv[i]);
			return usage();
		}
	}
	hz = sched_tunable_get(SCHED_TUNABLE_HZ);
	if (hz <= 0) {
		if (errno == ENOSYS)
			return ps_linux();
		printf("ps: cannot read hz (call 502): %s\n", strerror(errno));
		return 1;
	}

	printf("%5s %-5s %-6s %4s %4s %5s %5s %3s %8s %6s %8s", "PID", "STATE",
	       "POLICY", "PRIO", "NICE", "BURST", "SLICE", "CPU", "TIME(ms)",
	       "RUNS", "WAIT(ms)");
	if (verbose)
		printf(" %4s %5s %8s %5s", "MAXB", "FULL", "MASK", "FLAGS");
	printf(" %s\n", "NAME");
	for (int pid = 1; pid <= MAX_PID; pid++) {
		if (sched_stat(pid, &t) < 0) {
			if (errno != ESRCH)
				printf("ps: pid %d: %s\n", pid, strerror(errno));
			continue;
		}
		unsigned long long ms = ((unsigned long long)t.utime + t.stime)
					* 1000 / hz;
		printf("%5d %-5s %-6s %4d %4d %5d %5d %3d %8llu %6u %8llu",
		       t.pid, state_name(t.state), policy_name(t.policy), t.prio,
		       t.nice, t.burst, t.slice, t.cpu, ms, t.nr_runs,
		       t.wait_ns / 1000000);
		if (verbose) {
			char f[8];
			flags_name(t.flags, f);
			printf(" %4d %5d %8x %5s", t.max_burst, t.full_slice,
			       t.cpus_allowed, f);
		}
		char name[16];
		if (proc_name(pid, name, sizeof(name)) < 0)
			strcpy(name, "?");
		printf(" %s\n", name);
	}
	return 0;
}
