/*
 * smt_batch - a BATCH task never shares a physical core with non-batch
 * work (docs/staircase.md §8.3, the SMT "dependent sleeper" rule; issue 6), and
 * per-CPU accounting counts BATCH time as nice time (seed 002).
 *
 * A NORMAL hog pinned to CPU 0 and a BATCH hog pinned to CPU 1:
 *   - CPUs 0 and 1 are hyperthreads of one core (-smp 2,cores=1,threads=2):
 *     the BATCH hog gets under 5 % while the NORMAL hog runs, and CPU 1's
 *     ticks are idle ticks;
 *   - CPUs 0 and 1 are separate cores (-smp 2,cores=2,threads=1): both get
 *     about 100 % (at least 90 %), and CPU 1's ticks are nice ticks.
 * The program asks the kernel (call 506) which case it is in.
 */
#include <sched.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define WINDOW_MS 2000

static int siblings;

static int delta_pm(const struct sched_cpu_info *a, const struct sched_cpu_info *b,
		    int what)
{
	long long d[4] = { b->user_ticks - a->user_ticks, b->nice_ticks - a->nice_ticks,
			   b->system_ticks - a->system_ticks, b->idle_ticks - a->idle_ticks };
	long long total = d[0] + d[1] + d[2] + d[3];

	return permille(d[what], total);
}

enum { USER, NICE, SYSTEM, IDLE };

static int pair(void *arg, char *detail, size_t n)
{
	struct hog_spec spec[2] = { { .policy = SCHED_OTHER, .cpus = 1 },
				    { .policy = SCHED_BATCH, .cpus = 2 } };
	struct hog_report r[2];
	struct sched_cpu_info c0[2], c1[2];
	char a[16], b[16], c[16], d[16];
	int normal, batch, idle1;

	(void)arg;
	sched_cpustat(0, &c0[0]);
	sched_cpustat(1, &c1[0]);
	if (hogs_run(spec, 2, WINDOW_MS, 100, r) < 0) {
		snprintf(detail, n, "could not start the hogs");
		return 0;
	}
	sched_cpustat(0, &c0[1]);
	sched_cpustat(1, &c1[1]);
	normal = hog_pm(&r[0], WINDOW_MS);
	batch = hog_pm(&r[1], WINDOW_MS);
	idle1 = delta_pm(&c1[0], &c1[1], IDLE);
	if (siblings) {
		snprintf(detail, n, "siblings: normal %s, batch %s (clock %s); cpu1 idle %s;"
			 " want batch < 5%%, normal >= 90%%",
			 pct(normal, a), pct(batch, b),
			 pct(permille(r[1].run_ns, WINDOW_MS * 1000000LL), c), pct(idle1, d));
		return batch < 50 && normal >= 900;
	}
	snprintf(detail, n, "separate cores: normal %s, batch %s (clock %s %s); want both >= 90%%",
		 pct(normal, a), pct(batch, b),
		 pct(permille(r[0].run_ns, WINDOW_MS * 1000000LL), c),
		 pct(permille(r[1].run_ns, WINDOW_MS * 1000000LL), d));
	return normal >= 900 && batch >= 900;
}

/* A child pinned to cpu with policy spins in user mode (a clock read every
 * 2^16 loops) for ms; returns cpu's tick deltas in d[USER..IDLE]. */
static void spin_on(int cpu, int policy, int ms, long long d[4])
{
	struct sched_cpu_info a, b;
	pid_t pid;

	sched_cpustat(cpu, &a);
	pid = fork();
	if (pid == 0) {
		struct sched_param sp = { 0 };
		cpu_set_t set;
		long long end;
		volatile unsigned x = 0;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(0, sizeof(set), &set) < 0 ||
		    sched_setscheduler(0, policy, &sp) < 0)
			_exit(1);
		end = monotonic_ns() + ms * 1000000LL;
		while (monotonic_ns() < end)
			for (int i = 0; i < 65536; i++)
				x += i;
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	sched_cpustat(cpu, &b);
	d[USER] = b.user_ticks - a.user_ticks;
	d[NICE] = b.nice_ticks - a.nice_ticks;
	d[SYSTEM] = b.system_ticks - a.system_ticks;
	d[IDLE] = b.idle_ticks - a.idle_ticks;
}

/* Per-CPU accounting: a NORMAL spinner's CPU shows user time, a BATCH
 * spinner's CPU nice time (each alone, so the SMT rule plays no part). */
static int accounting(void *arg, char *detail, size_t n)
{
	long long u[4], b[4];

	(void)arg;
	spin_on(0, SCHED_OTHER, 1000, u);
	spin_on(1, SCHED_BATCH, 1000, b);
	snprintf(detail, n, "normal spinner: cpu0 user %lld nice %lld system %lld idle %lld; "
		 "batch spinner: cpu1 user %lld nice %lld system %lld idle %lld ticks; "
		 "want user resp. nice >= 80%%, the other < 5%%",
		 u[0], u[1], u[2], u[3], b[0], b[1], b[2], b[3]);
	return permille(u[USER], u[0] + u[1] + u[2] + u[3]) >= 800 &&
	       permille(u[NICE], u[0] + u[1] + u[2] + u[3]) < 50 &&
	       permille(b[NICE], b[0] + b[1] + b[2] + b[3]) >= 800 &&
	       permille(b[USER], b[0] + b[1] + b[2] + b[3]) < 50;
}

int main(int argc, char **argv)
{
	struct sched_topology_info t;
	char detail[300];

	test_require_our_kernel(argc, argv, 0);
	if (test_ncpus() < 2 || sched_topology(0, &t) < 0)
		ktap_skip_all("needs 2 CPUs and the topology call (506)");
	siblings = (t.siblings >> 1) & 1;
	ktap_plan(2);
	printf("# CPUs 0 and 1 are %s\n", siblings ? "hyperthreads of one core" : "separate cores");
	ktap_ok(test_retry_once(pair, NULL, detail, sizeof(detail)),
		siblings ? "smt_batch_waits_while_sibling_runs_normal"
			 : "batch_and_normal_on_separate_cores_both_run",
		"%s", detail);
	ktap_ok(test_retry_once(accounting, NULL, detail, sizeof(detail)),
		"cpu_accounting_batch_time_is_nice", "%s", detail);
	return ktap_done();
}
