/*
 * sched_pi - SCHED_BATCH cannot cause priority inversion (staircase.md §7.4).
 *
 * The scene, all on CPU 0: a BATCH task B takes a kernel mutex and sleeps
 * uninterruptibly while holding it (test_mutex HOLD_SLEEP: lock, sleep,
 * unlock, all in one system call, the way a real task holds a kernel lock
 * across disk I/O). A NORMAL task W waits for the same mutex, and a NORMAL
 * hog H keeps the CPU busy. A BATCH task runs only when nothing else
 * wants the CPU, so if B stayed at priority 140 after waking, H would keep
 * it off the CPU for ever, and W, which only needs the mutex, would starve
 * too: priority inversion.
 *
 * The rule: a BATCH task woken from uninterruptible sleep runs once at
 * priority 139, the lowest stair. H descends its staircase one stair per
 * quantum and reaches 139 before its slice ends (§5: stair 139
 * for the last quantum of a nice 0 task's 200 ms slice), so B gets the CPU
 * within one of H's slices, releases the mutex in kernel mode (the kernel
 * is not preemptible) and W runs. The bound is therefore H's full slice
 * (sched_rr_get_interval of a NORMAL task), plus a tolerance.
 *
 * The contrast (case 2): B takes the mutex in one call, sleeps
 * *interruptibly* in user space (nanosleep), and unlocks in another call.
 * Nothing lifts it off 140 now, so W gets nothing while H runs: the test
 * expects W still waiting after a full second, then kills H to let B
 * finish. That is why the elevation is tied to uninterruptible sleep.
 *
 * `sched_pi --sibling` (run on a 1x1x2 machine) puts the hog on CPU 1,
 * the hyperthread sibling of CPU 0, instead: CPU 0 is idle when B wakes,
 * but the SMT rule keeps BATCH work off a core that runs anything else.
 * B's elevated run must not be held off by it (docs/staircase.md §8.3):
 * the seed's order held it off for ever (the watchdog's 2 s).
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define TRIALS 3

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void pin_cpu0(void)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(0, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int hog_cpu;	/* 0, or 1 with --sibling */

static pid_t spawn_hog(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		cpu_set_t set;
		CPU_ZERO(&set);
		CPU_SET(hog_cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		for (;;)
			;
	}
	return pid;
}

/* W: wait for the mutex, report when it got it (ns), release it. */
static pid_t spawn_waiter(int fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		pin_cpu0();
		test_mutex(TEST_MUTEX_LOCK, 0);
		long long t = now_ns();
		test_mutex(TEST_MUTEX_UNLOCK, 0);
		write(fd, &t, sizeof(t));
		_exit(0);
	}
	return pid;
}

static void become_batch(void)
{
	struct sched_param sp = { 0 };
	pin_cpu0();
	sched_setscheduler(0, SCHED_BATCH, &sp);
}

/* Kill pid after ms: if the rule is broken, W would wait for ever behind
 * the hog; the watchdog ends the hog so the test reports instead of hanging. */
static pid_t spawn_watchdog(pid_t pid, int ms)
{
	pid_t w = fork();
	if (w == 0) {
		test_sleep_ms(ms);
		kill(pid, SIGKILL);
		_exit(0);
	}
	return w;
}

/* Case 1, one trial: returns W's wait after B's wake-up time, in ms. */
static long long one_trial(int hold_ms)
{
	int tb[2], tw[2];
	long long t0, got;

	pipe(tb);
	pipe(tw);
	pid_t b = fork();
	if (b == 0) {
		become_batch();
		t0 = now_ns();
		write(tb[1], &t0, sizeof(t0));
		test_mutex(TEST_MUTEX_HOLD_SLEEP, hold_ms);
		_exit(0);
	}
	read(tb[0], &t0, sizeof(t0));
	test_sleep_ms(20);			/* B is asleep holding the mutex now */
	pid_t w = spawn_waiter(tw[1]);
	test_sleep_ms(20);			/* W is waiting for it */
	pid_t h = spawn_hog();
	pid_t dog = spawn_watchdog(h, hold_ms + 2000);
	if (read(tw[0], &got, sizeof(got)) != sizeof(got))
		got = -1;
	kill(h, SIGKILL);
	waitpid(h, NULL, 0);
	kill(dog, SIGKILL);
	waitpid(dog, NULL, 0);
	waitpid(w, NULL, 0);
	waitpid(b, NULL, 0);
	close(tb[0]), close(tb[1]), close(tw[0]), close(tw[1]);
	return got < 0 ? -1 : (got - (t0 + hold_ms * 1000000LL)) / 1000000;
}

static int uninterruptible(void *arg, char *detail, size_t n)
{
	/* Different hold times wake B at different points of H's slice. */
	static const int hold_ms[TRIALS] = { 300, 370, 430 };
	long long slice_ms = *(long long *)arg, worst = 0, sum = 0;

	for (int i = 0; i < TRIALS; i++) {
		long long wait = one_trial(hold_ms[i]);
		if (wait < 0) {
			snprintf(detail, n, "trial %d: the waiter never got the mutex", i);
			return 0;
		}
		sum += wait;
		if (wait > worst)
			worst = wait;
	}
	snprintf(detail, n, "waiter got the mutex %lld ms (avg) / %lld ms (max) "
		 "after the batch task woke; want max <= %lld ms (one hog slice + 50)",
		 sum / TRIALS, worst, slice_ms + 50);
	return worst <= slice_ms + 50;
}

/* Case 2: the same with an interruptible sleep: W must still be waiting. */
static int interruptible(void *arg, char *detail, size_t n)
{
	int tw[2], tb[2];
	long long t0, got;
	char c;

	(void)arg;
	pipe(tw);
	pipe(tb);
	pid_t b = fork();
	if (b == 0) {
		become_batch();
		test_mutex(TEST_MUTEX_LOCK, 0);
		write(tb[1], "x", 1);
		test_sleep_ms(300);		/* interruptible: no elevation on wake-up */
		test_mutex(TEST_MUTEX_UNLOCK, 0);
		_exit(0);
	}
	read(tb[0], &c, 1);
	pid_t w = spawn_waiter(tw[1]);
	test_sleep_ms(20);
	pid_t h = spawn_hog();
	t0 = now_ns();
	test_sleep_ms(1300);			/* B's sleep ends at ~300 ms */
	kill(h, SIGKILL);		/* now B can run, unlock, and W goes */
	waitpid(h, NULL, 0);
	read(tw[0], &got, sizeof(got));
	waitpid(w, NULL, 0);
	waitpid(b, NULL, 0);
	close(tw[0]), close(tw[1]), close(tb[0]), close(tb[1]);
	long long after_ms = (got - t0) / 1000000;
	snprintf(detail, n, "with an interruptible sleep the waiter got the mutex "
		 "only %lld ms after the hog started (the hog was killed at 1300 ms); "
		 "want >= 1200 ms", after_ms);
	return after_ms >= 1200;
}

int main(int argc, char **argv)
{
	char detail[240];
	struct timespec rr;
	long long slice_ms;

	test_require_our_kernel(argc, argv, 0);
	test_require_staircase();
	if (argc > 1 && strcmp(argv[1], "--sibling") == 0) {
		if (test_ncpus() < 2)
			ktap_skip_all("--sibling needs a second CPU (1x1x2)");
		hog_cpu = 1;
	} else if (argc > 1) {
		fprintf(stderr, "usage: sched_pi [--sibling]\n");
		return 2;
	}
	pin_cpu0();
	sched_rr_get_interval(0, &rr);		/* a NORMAL task's full slice */
	slice_ms = rr.tv_sec * 1000LL + rr.tv_nsec / 1000000;
	ktap_plan(2);
	ktap_ok(test_retry_once(uninterruptible, &slice_ms, detail, sizeof(detail)),
		"batch_holding_mutex_wakes_at_139_and_releases_it", "%s", detail);
	ktap_ok(test_retry_once(interruptible, NULL, detail, sizeof(detail)),
		"batch_after_interruptible_sleep_stays_at_140", "%s", detail);
	return ktap_done();
}
