/*
 * periodic - a periodic task with a deadline, interbench-style: how well
 * does a policy serve audio or video beside CPU hogs?
 *
 *   periodic [--audio|--video] [-p PERIOD_MS] [-c CPU_PCT] [-t SECONDS]
 *
 *   --audio  5 % of the CPU every 50 ms (the default)
 *   --video  40 % at 60 Hz (a period of 16.667 ms)
 *   -p, -c   another period (1..10000 ms) or share (1..100 %)
 *   -t       how long to run, 1..3600 s (default 10)
 *
 * Period k starts at start + k * period (absolute clock_nanosleep on
 * CLOCK_MONOTONIC, so lateness never accumulates into the grid).  Each
 * period it wakes, records how late it woke (the latency), burns its share
 * of CPU time and counts the deadline met if the work was done before the
 * next period starts.  A late period is not skipped: its work is still
 * done, so a starved task shows it in its latency.  At the end, or on
 * SIGINT/SIGTERM (Ctrl-C, pkill periodic), one summary line:
 *
 *   periodic: audio 5% of 50 ms under NORMAL: 40 periods, 40 deadlines met
 *   (100.0%), latency mean 21 us, p99 25 us, max 27 us
 *
 * "Its share of CPU time" is CPU time, not wall time, so that a task that
 * is preempted mid-period still does all its work: CLOCK_THREAD_CPUTIME_ID.
 * On this kernel that clock counts the ticks charged to the task (1 ms at
 * hz 1000, kernel/time/systime.c), too coarse for a 2.5 ms share, so between
 * two of its steps the time the task saw itself run is added (clock reads
 * less than 200 us apart: spin's method).  On Linux the clock has
 * nanoseconds and is used alone.  Without it, wall time.  Try it as NORMAL,
 * then `chrt -i 0 periodic` (ISO), beside four `spin 20 &` on one CPU.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "args.h"

#define NS_PER_MS 1000000LL
#define NS_PER_S 1000000000LL
#define GAP_NS 200000LL		/* a larger step between two reads: not running */

static volatile int stop;	/* set by SIGINT/SIGTERM */

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static long long ns_of(clockid_t clk)
{
	struct timespec ts;

	if (clock_gettime(clk, &ts) < 0)
		return -1;
	return ts.tv_sec * NS_PER_S + ts.tv_nsec;
}

/* Wall time instead of CPU time: only if there is no thread clock. */
static int burn_wall(long long need)
{
	long long until = monotonic_ns() + need;

	while (monotonic_ns() < until)
		if (stop)
			return -1;
	return 0;
}

/* Burn `need` ns of this task's CPU time: 0, or -1 if a signal stopped it.
 * done = the thread clock since its first step + the time run since its
 * last step; before the first step, only the time run (the first tick
 * charges a whole tick of which we ran only a part). */
static int burn(long long need)
{
	long long seen = ns_of(CLOCK_THREAD_CPUTIME_ID), base = -1;
	long long ran = 0, since = 0, last = monotonic_ns();

	if (seen < 0)
		return burn_wall(need);
	while (!stop) {
		long long now = monotonic_ns(), c = ns_of(CLOCK_THREAD_CPUTIME_ID);

		if (now - last < GAP_NS)
			ran += now - last, since += now - last;
		last = now;
		if (c != seen) {
			if (base < 0)
				base = c - ran;
			seen = c, since = 0;
		}
		if ((base < 0 ? ran : c - base + since) >= need)
			return 0;
	}
	return -1;
}

/* Sleep until the absolute monotonic time t: 0, or -1 on a signal. */
static int sleep_until(long long t)
{
	struct timespec ts = { (time_t)(t / NS_PER_S), (long)(t % NS_PER_S) };

	while (!stop) {
		int e = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (e == 0)
			return 0;
		if (e != EINTR) {
			fprintf(stderr, "periodic: clock_nanosleep: %s\n", strerror(e));
			exit(1);
		}
	}
	return -1;
}

struct run {
	const char *label;
	long long period, work;		/* ns */
	int pct, seconds;
	int n, met, cap;
	int *lat_us;			/* one per period */
};

static void record(struct run *r, long long late_ns, int met)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 1024;
		r->lat_us = realloc(r->lat_us, r->cap * sizeof(int));
		if (!r->lat_us) {
			fprintf(stderr, "periodic: out of memory\n");
			exit(1);
		}
	}
	r->lat_us[r->n++] = late_ns < 0 ? 0 : (int)(late_ns / 1000);
	r->met += met;
}

static void run_periods(struct run *r)
{
	long long start = monotonic_ns() + r->period;	/* the first one sleeps too */
	/* whole periods in the time: 300 of 16.666666 ms in 5 s, not 301 */
	long long periods = r->seconds * NS_PER_S / r->period;

	for (long long k = 0; k < periods && !stop; k++) {
		long long at = start + k * r->period;

		if (sleep_until(at) < 0)
			return;
		long long woke = monotonic_ns();
		if (burn(r->work) < 0)
			return;		/* interrupted: the period is not counted */
		record(r, woke - at, monotonic_ns() <= at + r->period);
	}
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return x < y ? -1 : x > y;
}

static const char *policy_now(char *buf, size_t n)
{
	struct sched_param sp = { 0 };
	int p = sched_getscheduler(0);

	if (p < 0)
		return "?";
	p &= ~0x40000000;	/* SCHED_RESET_ON_FORK */
	if (p == SCHED_FIFO || p == SCHED_RR) {
		sched_getparam(0, &sp);
		snprintf(buf, n, "%s %d", sched_policy_name(p), sp.sched_priority);
		return buf;
	}
	return sched_policy_name(p);
}

static void summary(struct run *r)
{
	char pol[24], period[24];
	long long sum = 0;
	int pm = r->n ? (int)((long long)r->met * 1000 / r->n) : 0;

	for (int i = 0; i < r->n; i++)
		sum += r->lat_us[i];
	qsort(r->lat_us, r->n, sizeof(int), cmp_int);
	/* p99: the smallest latency that 99 % of the periods did not exceed */
	int p99 = r->n ? r->lat_us[(r->n * 99 + 99) / 100 - 1] : 0;
	long long us = (r->period + 500) / 1000;	/* 16.667 ms, not 16.666 */
	if (us % 1000)
		snprintf(period, sizeof(period), "%lld.%03lld", us / 1000, us % 1000);
	else
		snprintf(period, sizeof(period), "%lld", us / 1000);
	printf("periodic: %s %d%% of %s ms under %s: %d periods, %d deadlines met "
	       "(%d.%d%%), latency mean %lld us, p99 %d us, max %d us\n",
	       r->label, r->pct, period, policy_now(pol, sizeof(pol)), r->n, r->met,
	       pm / 10, pm % 10, r->n ? sum / r->n : 0, p99,
	       r->n ? r->lat_us[r->n - 1] : 0);
}

static int usage(void)
{
	printf("usage: periodic [--audio|--video] [-p PERIOD_MS] [-c CPU_PCT] [-t SECONDS]\n"
	       "  --audio  5%% of the CPU every 50 ms (default)   --video  40%% at 60 Hz (16.667 ms)\n"
	       "  -p 1..10000 ms, -c 1..100 %%, -t 1..3600 s (default 10)\n"
	       "Each period: wake at its start, burn the share of CPU time, meet the deadline\n"
	       "if done before the next one.  Prints one line at the end or on SIGINT/SIGTERM.\n");
	return 0;
}

static int bad(const char *opt, const char *val, const char *range)
{
	if (!val)
		fprintf(stderr, "periodic: %s needs a number (%s)\n", opt, range);
	else
		fprintf(stderr, "periodic: %s: bad number '%s' (%s)\n", opt, val, range);
	return 2;
}

static int parse(struct run *r, int argc, char **argv)
{
	int v;

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (strcmp(a, "--audio") == 0)
			r->label = "audio", r->period = 50 * NS_PER_MS, r->pct = 5;
		else if (strcmp(a, "--video") == 0)
			r->label = "video", r->period = NS_PER_S / 60, r->pct = 40;
		else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
			return usage(), -1;
		else if (strcmp(a, "-p") == 0 || strcmp(a, "-c") == 0 || strcmp(a, "-t") == 0) {
			i++;
			if (a[1] == 'p' && !parse_int_arg(val, 1, 10000, &v))
				return bad(a, val, "1..10000 ms");
			if (a[1] == 'c' && !parse_int_arg(val, 1, 100, &v))
				return bad(a, val, "1..100 %");
			if (a[1] == 't' && !parse_int_arg(val, 1, 3600, &v))
				return bad(a, val, "1..3600 s");
			if (a[1] == 'p')
				r->period = v * NS_PER_MS, r->label = "custom";
			else if (a[1] == 'c')
				r->pct = v, r->label = "custom";
			else
				r->seconds = v;
		} else {
			fprintf(stderr, "periodic: unknown option '%s' (periodic -h)\n", a);
			return 2;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct run r = { .label = "audio", .period = 50 * NS_PER_MS, .pct = 5, .seconds = 10 };
	struct sigaction sa = { .sa_handler = on_signal };
	int e = parse(&r, argc, argv);

	if (e)
		return e < 0 ? 0 : e;
	r.work = r.period * r.pct / 100;
	/* No SA_RESTART: the sleep must end at once to print the summary. */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	run_periods(&r);
	summary(&r);
	free(r.lat_us);
	return 0;
}
