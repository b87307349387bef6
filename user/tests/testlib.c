/*
 * testlib.c - see testlib.h.
 *
 * How a hog measures its own CPU time without help from the kernel: it
 * reads CLOCK_MONOTONIC in a tight loop.  While it has the CPU, successive
 * reads are microseconds apart; when it was preempted, the step is at least
 * a tick.  Summing the small steps gives the CPU time it got, and the large
 * ones are the gaps.  This needs a clock much finer than a tick (the kernel
 * reads the TSC); gap_threshold() checks and adapts.  It cannot see a
 * switch that lasts less than the threshold (two tasks yielding to each
 * other), which is why the report also counts loops.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

void test_require_our_kernel(int argc, char **argv, int allow_force)
{
	if (kernel_is_ours())
		return;
	if (allow_force && argc > 1 && strcmp(argv[1], "--force") == 0) {
		printf("# not our kernel: running anyway (--force)\n");
		return;
	}
	ktap_skip_all("not this kernel");
}

int test_kernel_specific_skip(const char *name)
{
	if (kernel_is_ours())
		return 0;
	ktap_skip(name, "kernel-specific");
	return 1;
}

const char *test_scheduler(void)
{
	static char name[32];
	int fd, n;

	if (name[0])
		return name;
	strcpy(name, "staircase");
	fd = open("/proc/scheduler", O_RDONLY);
	if (fd < 0)
		return name;
	n = read(fd, name, sizeof(name) - 1);
	close(fd);
	name[n > 0 ? n : 0] = 0;
	name[strcspn(name, " \t\n")] = 0;
	if (!name[0])
		strcpy(name, "staircase");
	return name;
}

static const char *staircase_skip_reason(void)
{
	static char why[64];

	snprintf(why, sizeof(why), "staircase rule, this boot runs %s", test_scheduler());
	return why;
}

int test_staircase_rule_skip(const char *name)
{
	if (test_kernel_specific_skip(name))
		return 1;
	if (strcmp(test_scheduler(), "staircase") == 0)
		return 0;
	ktap_skip(name, staircase_skip_reason());
	return 1;
}

void test_require_staircase(void)
{
	if (kernel_is_ours() && strcmp(test_scheduler(), "staircase") != 0)
		ktap_skip_all(staircase_skip_reason());
}

pid_t test_reaped_pid(void)
{
	pid_t pid = fork();

	if (pid == 0)
		_exit(0);
	waitpid(pid, NULL, 0);
	return pid;
}

void test_sleep_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

/* Over every CPU (call 501): all its ticks, or only the lost ones; -1 on Linux. */
static long long cpustat_sum(int lost_only)
{
	struct sched_cpu_info info;
	long long sum = 0;

	if (!kernel_is_ours())
		return -1;
	for (int cpu = 0; sched_cpustat(cpu, &info) == 0; cpu++)
		sum += lost_only ? info.lost_ticks : (long long)(info.user_ticks +
			info.nice_ticks + info.system_ticks + info.idle_ticks);
	return sum;
}

long long test_lost_ticks(void)
{
	return cpustat_sum(1);
}

/* measure() once; *stall_pm: per mille of the ticks it took that the
 * timer never delivered (the host did not run the vCPU), 0 on Linux. */
static int measure_once(int (*measure)(void *arg, char *detail, size_t n),
			void *arg, char *detail, size_t n, int *stall_pm)
{
	long long lost0 = test_lost_ticks(), ticks0 = test_cpu_ticks();
	int ok = measure(arg, detail, n);
	long long lost = test_lost_ticks() - lost0, ticks = test_cpu_ticks() - ticks0;

	*stall_pm = lost0 < 0 || ticks <= 0 ? 0 : permille(lost, ticks);
	return ok;
}

int test_retry_once(int (*measure)(void *arg, char *detail, size_t n),
		    void *arg, char *detail, size_t n)
{
	int stall_pm;

	if (measure_once(measure, arg, detail, n, &stall_pm))
		return 1;
	printf("# first try failed (%s)%s; retrying once\n", detail,
	       stall_pm >= HOST_STALL_PM ? " while the host stalled this machine" : "");
	if (measure_once(measure, arg, detail, n, &stall_pm))
		return 1;
	if (stall_pm < HOST_STALL_PM)
		return 0;
	/* Not the scheduler: the vCPU did not run. Say so, as a skip. */
	char was[256];
	snprintf(was, sizeof(was), "%s", detail);
	snprintf(detail, n, "SKIP host stalled: %d.%d%% of the ticks were never "
		 "delivered (QEMU was not running this machine); measured: %s",
		 stall_pm / 10, stall_pm % 10, was);
	return 1;
}

int permille(long long part, long long whole)
{
	return whole > 0 ? (int)(part * 1000 / whole) : 0;
}

const char *pct(int pm, char buf[16])
{
	snprintf(buf, 16, "%d.%d%%", pm / 10, pm % 10);
	return buf;
}

/* ---- hogs ---- */

/* A step between two clock reads longer than this means "not running". */
static long long gap_threshold(void)
{
	long long a = monotonic_ns(), b, step = 0;

	for (int i = 0; i < 1000 && step == 0; i++) {	/* smallest step */
		b = monotonic_ns();
		step = b - a;
	}
	return step * 4 > 200000 ? step * 4 : 200000;	/* >= 200 us */
}

static int set_mask(unsigned mask)
{
	cpu_set_t cpus;

	CPU_ZERO(&cpus);
	for (int i = 0; i < 32; i++)
		if (mask & (1u << i))
			CPU_SET(i, &cpus);
	return sched_setaffinity(0, sizeof(cpus), &cpus);
}

static void hog_setup(const struct hog_spec *s, struct hog_report *r)
{
	struct sched_param sp = { s->priority };
	struct timespec ts;

	if (set_mask(s->cpus ? s->cpus : 1) < 0 ||
	    setpriority(PRIO_PROCESS, 0, s->nice) < 0 ||
	    sched_setscheduler(0, s->policy, &sp) < 0)
		r->error = errno;
	if (sched_rr_get_interval(0, &ts) == 0)
		r->rr_interval_ns = ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void hog_sleep(const struct hog_spec *s, struct hog_report *r)
{
	struct timespec ts = { s->sleep_us / 1000000,
			       (s->sleep_us % 1000000) * 1000L };
	long long t0 = monotonic_ns(), late;

	nanosleep(&ts, NULL);
	late = monotonic_ns() - t0 - s->sleep_us * 1000LL;
	r->wakeups++;
	r->late_sum_ns += late;
	if (late > r->late_max_ns)
		r->late_max_ns = late;
}

/* Ticks charged to the caller so far (call 500), or -1. */
static long own_ticks(void)
{
	struct sched_task_info info;

	if (!kernel_is_ours() || sched_stat(getpid(), &info) < 0)
		return -1;
	return info.utime + info.stime;
}

long hogs_window_ticks;

long long test_cpu_ticks(void)
{
	return cpustat_sum(0);
}

/* The measuring loop: see the comment at the top of this file. */
static void hog_loop(const struct hog_spec *s, struct hog_report *r,
		     long long start, long long window_ns, long long bucket_ns,
		     long long gap)
{
	long long last = start, burst = 0;

	for (;;) {
		long long now = monotonic_ns(), d = now - last;
		int b = (now - start) / bucket_ns;

		if (now >= start + window_ns)
			break;
		r->loops++;
		if (d >= gap || r->stints == 0)
			r->stints++;
		if (d < gap) {
			r->run_ns += d;
			r->bucket_ns[b < HOG_BUCKETS ? b : HOG_BUCKETS - 1] += d;
			burst += d;
		} else if (d > r->max_gap_ns) {
			r->max_gap_ns = d;
		}
		if (s->sample_cpu) {
			int cpu = test_getcpu();
			if (cpu >= 0 && cpu < 32) {
				if (r->cpu_seen && cpu != r->last_cpu)
					r->moves++;
				r->cpu_seen |= 1u << cpu;
				r->bucket_cpus[b < HOG_BUCKETS ? b : HOG_BUCKETS - 1] |= 1u << cpu;
				r->last_cpu = cpu;
			}
		}
		if (s->yield)
			sched_yield();
		if (s->sleep_us && burst >= s->run_us * 1000LL) {
			hog_sleep(s, r);
			burst = 0;
			r->stints++;
			now = monotonic_ns();
		}
		last = now;
	}
}

/* A pipe may hand a report over in pieces; collect all of it. */
static int read_full(int fd, void *buf, size_t n)
{
	size_t got = 0;

	while (got < n) {
		ssize_t r = read(fd, (char *)buf + got, n - got);

		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

int hogs_run(const struct hog_spec *spec, int n, int window_ms,
	     int bucket_ms, struct hog_report *out)
{
	long long gap = gap_threshold(), start[16], ticks0, ticks1;
	int go[2], ready[2], result[16][2], failed = 0;
	pid_t pid[16];
	char c;

	if (n > HOGS_MAX || pipe(go) < 0 || pipe(ready) < 0)
		return -1;
	memset(out, 0, n * sizeof(*out));
	for (int i = 0; i < n; i++) {
		pipe(result[i]);
		pid[i] = fork();
		if (pid[i] == 0) {
			struct hog_report r = { 0 };
			long long t0;

			hog_setup(&spec[i], &r);
			write(ready[1], "r", 1);		/* set up: policy, nice, CPU */
			read_full(go[0], &t0, sizeof(t0));	/* wait for go */
			long t0_ticks = own_ticks();

			if (spec[i].cpus_at_go)
				set_mask(spec[i].cpus_at_go);

			if (!r.error)
				hog_loop(&spec[i], &r, t0, window_ms * 1000000LL,
					 bucket_ms * 1000000LL, gap);
			r.ticks = t0_ticks < 0 ? -1 : own_ticks() - t0_ticks;
			write(result[i][1], &r, sizeof(r));
			_exit(0);
		}
		close(result[i][1]);
	}
	/* Wait until every hog has its policy: the staircase has no
	 * child-runs-first, so a child may not have run at all yet, and a
	 * FIFO sibling that starts early would starve it. */
	for (int i = 0; i < n; i++)
		read_full(ready[0], &c, 1);
	close(ready[0]);
	close(ready[1]);
	/* one write, so every hog becomes runnable at the same moment */
	start[0] = monotonic_ns();
	for (int i = 1; i < n; i++)
		start[i] = start[0];
	ticks0 = test_cpu_ticks();
	write(go[1], start, n * sizeof(start[0]));
	for (int i = 0; i < n; i++) {
		if (read_full(result[i][0], &out[i], sizeof(out[i])) < 0)
			out[i].error = -1;
		close(result[i][0]);
		waitpid(pid[i], NULL, 0);
		if (out[i].error) {
			printf("# hog %d (policy %d nice %d) failed: error %d\n",
			       i, spec[i].policy, spec[i].nice, out[i].error);
			failed = 1;
		}
	}
	ticks1 = test_cpu_ticks();
	hogs_window_ticks = ticks0 < 0 ? 0 : (ticks1 - ticks0) / test_ncpus();
	close(go[0]);
	close(go[1]);
	return failed ? -1 : 0;
}

int test_getcpu(void)
{
	return sched_getcpu();
}

int test_ncpus(void)
{
	cpu_set_t set;

	if (sched_getaffinity(0, sizeof(set), &set) < 0)
		return 1;
	return CPU_COUNT(&set);
}

int hog_pm(const struct hog_report *r, int window_ms)
{
	if (r->ticks >= 0 && hogs_window_ticks > 0)
		return permille(r->ticks, hogs_window_ticks);
	return permille(r->run_ns, window_ms * 1000000LL);
}

int hog_share_pm(const struct hog_report *r, int bucket_ms, int from, int to)
{
	long long sum = 0;

	for (int b = from; b < to && b < HOG_BUCKETS; b++)
		sum += r->bucket_ns[b];
	return permille(sum, (to - from) * bucket_ms * 1000000LL);
}

static int cmp_ll(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;
	return x < y ? -1 : x > y;
}

long long test_sleep_late_1ms(long long *late, int count)
{
	long long sum = 0;

	for (int i = 0; i < count; i++) {
		struct timespec ts = { 0, 1000000 };
		long long t0 = monotonic_ns();
		nanosleep(&ts, NULL);
		late[i] = monotonic_ns() - t0 - 1000000;
		sum += late[i];
	}
	qsort(late, count, sizeof(late[0]), cmp_ll);
	return sum;
}

int test_write_number(const char *path, int n)
{
	char text[16];
	int fd = open(path, O_WRONLY), len, r;
	if (fd < 0)
		return -1;
	len = snprintf(text, sizeof(text), "%d\n", n);
	r = write(fd, text, len) == len ? 0 : -1;
	close(fd);
	return r;
}

int test_read_number(const char *path, char after)
{
	char buf[128];
	int fd = open(path, O_RDONLY);
	int n = fd < 0 ? -1 : (int)read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	char *at = after ? strchr(buf, after) : buf;
	return at ? atoi(at + (after != 0)) : -1;
}
