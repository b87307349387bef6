/*
 * testlib.h - shared helpers for the tests in user/tests/.
 *
 * Besides KTAP printing (ktap.h, in libc) tests need three things:
 *   - to know whether they run on our kernel (most scheduler rules only
 *     hold here; on Linux they skip);
 *   - "hogs": child processes with a chosen policy and nice that burn CPU
 *     (or run/sleep in a pattern) on CPU 0 (or given CPUs) for a fixed window and report
 *     back what CPU time they got, and when;
 *   - a way to repeat a measurement once before calling it a failure.
 */
#ifndef USER_TESTS_TESTLIB_H
#define USER_TESTS_TESTLIB_H

#include <stddef.h>
#include <sys/types.h>

#include "kernel_calls.h"
#include "ktap.h"

/* On Linux print "1..0 # SKIP not this kernel" and exit 0.  With
 * allow_force, "--force" as argv[1] runs anyway (for trying the measuring
 * code on the host; never allowed for tests that use real-time policies). */
void test_require_our_kernel(int argc, char **argv, int allow_force);

/* On Linux print "ok N - name # SKIP kernel-specific" and return 1. */
int test_kernel_specific_skip(const char *name);

/* Lineage mode (docs/lineage.md): the scheduler this boot runs, the first
 * word of /proc/scheduler ("staircase" where there is no such file). The
 * staircase's own rules (docs/staircase.md) hold only under it: under
 * another (sched=cfs), test_staircase_rule_skip prints "ok N - name #
 * SKIP staircase rule, this boot runs cfs" and returns 1 (on Linux it
 * skips as test_kernel_specific_skip does), and test_require_staircase
 * skips the whole program so. */
const char *test_scheduler(void);
int test_staircase_rule_skip(const char *name);
void test_require_staircase(void);

/* nanosleep for ms milliseconds. */
void test_sleep_ms(int ms);
/* cyclictest's loop: count sleeps of 1 ms; late[i] is how many ns late
 * sleep i ended, late[] is left sorted (late[0] the least). Returns the
 * sum (for the average). wakelat and schedbench share it. */
long long test_sleep_late_1ms(long long *late, int count);

/* A pid that surely names no process: a child already reaped. */
pid_t test_reaped_pid(void);

/* Run measure() (which returns 1 = pass and describes what it saw in
 * detail); on failure print a note and run it once more. If the second
 * try fails too while the host stalled the machine (at least
 * HOST_STALL_PM per mille of its ticks were never delivered: QEMU was not
 * running the vCPU, in real time on a busy host), the result is a KTAP
 * skip that says so ("SKIP host stalled: ..."), not a failure: it says
 * nothing about the scheduler. Under -icount no tick is ever lost. */
#define HOST_STALL_PM 10
int test_retry_once(int (*measure)(void *arg, char *detail, size_t n),
		    void *arg, char *detail, size_t n);

/* ---- hogs ---- */

#define HOG_BUCKETS 64
/* The most hogs hogs_run() starts: the parent keeps one pipe end per hog
 * beside stdin/out/err and two pipes of its own; this kernel gave a
 * process 16 descriptors then (now Linux's RLIMIT_NOFILE, 1,024), and a
 * 10th hog's pipe() failed with EMFILE. Kept at 8: the tests' figures
 * were measured so. */
#define HOGS_MAX 8

struct hog_spec {
	int policy;		/* SCHED_* */
	int priority;		/* 1..99 for FIFO/RR, else 0 */
	int nice;
	int run_us;		/* with sleep_us: run this much CPU, then */
	int sleep_us;		/* sleep this long; 0 = never sleep */
	int yield;		/* 1: sched_yield() after every clock read */
	unsigned cpus;		/* affinity mask; 0 = CPU 0 only (the default) */
	int sample_cpu;		/* 1: getcpu() on every loop (cpu_seen, moves) */
	unsigned cpus_at_go;	/* if set: the affinity mask from "go" on */
};

struct hog_report {
	int error;		/* errno if it could not take its policy */
	long long run_ns;	/* CPU time it saw itself get in the window */
	long long bucket_ns[HOG_BUCKETS];	/* ... per time bucket */
	long loops;		/* clock reads (and yields) it made */
	long stints;		/* separate stretches of running */
	long long max_gap_ns;	/* longest time without the CPU (not asleep) */
	long wakeups;		/* sleeps that ended */
	long long late_sum_ns;	/* how late it ran after each sleep ended */
	long long late_max_ns;
	long long rr_interval_ns;	/* sched_rr_get_interval, after setup */
	/* with sample_cpu: */
	unsigned cpu_seen;		/* every CPU it saw itself on */
	unsigned bucket_cpus[HOG_BUCKETS];	/* ... per time bucket */
	long moves;			/* samples on a CPU other than the last one */
	int last_cpu;
	/* our kernel only: ticks the scheduler charged it in the window
	 * (utime + stime from call 500), -1 elsewhere */
	long ticks;
};

/* After hogs_run on our kernel: the timer ticks each CPU took during the
 * window, averaged over the CPUs (call 501: user + nice + system + idle),
 * or 0. A hog's CPU share is ticks / hogs_window_ticks: both count in
 * the guest's own ticks, so a vCPU that the host leaves unscheduled for a
 * while (QEMU on a busy host) does not make its tasks look starved. */
extern long hogs_window_ticks;

/* Fork one hog per spec, each pinned to spec->cpus (default CPU 0), start them together and let
 * them run window_ms; fill out[i].  bucket_ms is the width of the time
 * buckets.  Returns 0, or -1 if a hog could not be set up (reported). */
int hogs_run(const struct hog_spec *spec, int n, int window_ms,
	     int bucket_ms, struct hog_report *out);

/* The CPU the caller runs on: getcpu (318), or -1. */
int test_getcpu(void);

/* Sum of user + nice + system + idle ticks over every CPU (501), or -1. */
long long test_cpu_ticks(void);
/* Of those, the ticks never delivered (host stalls), or -1 on Linux. */
long long test_lost_ticks(void);

/* Number of CPUs online: the bits of the caller's initial affinity mask. */
int test_ncpus(void);

/* CPU time in buckets [from, to) as per mille of that span. */
int hog_share_pm(const struct hog_report *r, int bucket_ms, int from,
		 int to);

/* A hog's share of a CPU in per mille: ticks / hogs_window_ticks on our
 * kernel, else the CPU time it saw on the clock over window_ms. */
int hog_pm(const struct hog_report *r, int window_ms);

/* The number in a small file (/proc/sys/kernel/pid_max), or the one
 * after the first `after` character in it (after '/': the total of
 * /proc/loadavg's "running/total"); -1 if it cannot be read. */
int test_read_number(const char *path, char after);
/* Write n and a newline to such a file (root's sysctl -w kernel.pid_max=n):
 * 0, or -1 with errno. */
int test_write_number(const char *path, int n);

/* part / whole in per mille, and "12.3%" for printing it. */
int permille(long long part, long long whole);
const char *pct(int pm, char buf[16]);

#endif
