/*
 * lockstat_rules - the lock statistics (kernel/sync/lockstat.c, call 509) count what
 * happens: a lock two CPUs fight over shows contentions, the same lock
 * taken from one CPU shows none, a mutex slept on shows a mutex
 * contention, and the call's errors are Linux-style (docs/kernel.md
 * "Lock statistics"). And what issue 29 built: a fork + exit + wait takes
 * no global lock, only its parent's family lock. The "test spin" spinlock and test mutex 0 are call
 * 503's (TEST_SPIN_HOLD, TEST_MUTEX_HOLD_SLEEP). Run as root (reset).
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uapi/lockstat.h>

#include "syscall.h"
#include "testlib.h"

#define ROUNDS 200

static struct lock_stat_info info[128];

/* The class called name (kind 0 spin, 1 mutex); a zeroed one if none. */
static struct lock_stat_info find(const char *name, unsigned kind)
{
	struct lock_stat_info none = { .acquisitions = 0 };
	int n = lock_stat_read(info, 128);
	for (int i = 0; i < n && i < 128; i++)
		if (strcmp(info[i].name, name) == 0 && info[i].kind == kind)
			return info[i];
	return none;
}

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* A child on each of the CPUs given takes "test spin" ROUNDS times,
 * holding it us microseconds each time. */
static void spin_from(const int *cpus, int n, int us)
{
	for (int i = 0; i < n; i++) {
		if (fork() == 0) {
			pin(cpus[i]);
			for (int r = 0; r < ROUNDS; r++)
				test_mutex(TEST_SPIN_HOLD, us);
			_exit(0);
		}
	}
	while (wait(NULL) > 0)
		;
}

static void counters_are_sane(void)
{
	test_sleep_ms(5);		/* a sleep and a wake-up take the run queue's lock */
	int n = lock_stat_read(info, 128);
	int bad = 0, runqueue = 0;
	for (int i = 0; i < n && i < 128; i++) {
		struct lock_stat_info *s = &info[i];
		runqueue |= strcmp(s->name, "runqueue") == 0 && s->acquisitions > 0;
		bad += s->contentions > s->acquisitions || s->wait_min_ns > s->wait_max_ns ||
		       s->hold_min_ns > s->hold_max_ns || s->hold_max_ns > s->hold_total_ns ||
		       s->wait_max_ns > s->wait_total_ns;
	}
	ktap_ok(n > 0 && runqueue && !bad, "classes_read_and_consistent",
		"%d classes, runqueue taken: %d, inconsistent: %d", n, runqueue, bad);
}

static void one_cpu_is_never_contended(void)
{
	int cpu0[] = { 0 };
	lock_stat_reset();
	spin_from(cpu0, 1, 20);
	struct lock_stat_info s = find("test spin", 0);
	ktap_ok(s.acquisitions == ROUNDS && s.contentions == 0 && s.hold_min_ns >= 15000,
		"uncontended_lock_shows_no_contention",
		"%llu acquisitions, %llu contentions, hold min %llu ns",
		(unsigned long long)s.acquisitions, (unsigned long long)s.contentions,
		(unsigned long long)s.hold_min_ns);
}

static void two_cpus_contend(void)
{
	int cpus[] = { 0, 1 };
	if (test_ncpus() < 2) {
		ktap_skip("contended_lock_shows_contention", "one CPU");
		return;
	}
	lock_stat_reset();
	spin_from(cpus, 2, 100);
	struct lock_stat_info s = find("test spin", 0);
	ktap_ok(s.acquisitions == 2 * ROUNDS && s.contentions > 0 && s.wait_total_ns > 0 &&
		s.con_bounces <= s.contentions,
		"contended_lock_shows_contention",
		"%llu acquisitions, %llu contentions, waited %llu us in all",
		(unsigned long long)s.acquisitions, (unsigned long long)s.contentions,
		(unsigned long long)(s.wait_total_ns / 1000));
}

static void mutex_sleep_is_a_contention(void)
{
	lock_stat_reset();
	pid_t holder = fork();
	if (holder == 0) {
		test_mutex(TEST_MUTEX_HOLD_SLEEP, 50);
		_exit(0);
	}
	test_sleep_ms(10);			/* the holder has it now */
	test_mutex(TEST_MUTEX_HOLD_SLEEP, 1);	/* sleeps until it is free */
	waitpid(holder, NULL, 0);
	struct lock_stat_info s = find("test mutex", 1);
	ktap_ok(s.acquisitions == 2 && s.contentions == 1 && s.wait_max_ns >= 20000000,
		"slept_on_mutex_is_one_contention",
		"%llu acquisitions, %llu contentions, waited up to %llu ms",
		(unsigned long long)s.acquisitions, (unsigned long long)s.contentions,
		(unsigned long long)(s.wait_max_ns / 1000000));
}

/* A fork + exit + wait of a process of one thread, pinned, caches warm:
 * not the process table's lock, nor the kernel stacks', nor the interval
 * timers' (docs/kernel.md "Tasks and their limits"), and the frame
 * bitmap's seldom (the per-CPU caches run over or dry now and then); the
 * parent's family lock at fork, exit and wait instead. */
static void fork_exit_wait_take_no_global_lock(void)
{
	pin(0);
	for (int i = 0; i < 2 * ROUNDS; i++) {
		if (i == ROUNDS)		/* the first half warms the caches */
			lock_stat_reset();
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		waitpid(p, NULL, 0);
	}
	struct lock_stat_info pt = find("signal", 0), ks = find("kstack", 0),
			      it = find("itimer", 0), pmm = find("pmm", 0),
			      fam = find("family", 0);
	ktap_ok(pt.acquisitions <= ROUNDS / 20 && ks.acquisitions == 0 && it.acquisitions == 0 &&
		pmm.acquisitions <= ROUNDS / 4 && fam.acquisitions >= 3 * ROUNDS,
		"fork_exit_wait_take_no_global_lock",
		"%d fork + exit + wait: signal %llu, kstack %llu, itimer %llu, pmm %llu, family %llu acquisitions",
		ROUNDS, (unsigned long long)pt.acquisitions, (unsigned long long)ks.acquisitions,
		(unsigned long long)it.acquisitions, (unsigned long long)pmm.acquisitions,
		(unsigned long long)fam.acquisitions);
}

static void errors(void)
{
	ktap_errno("bad_op_is_einval",
		   ERRNO_OF(__syscall_ret(syscall3(__NR_lock_stat, 7, 0, 0))), EINVAL);
	ktap_errno("negative_count_is_einval", ERRNO_OF(lock_stat_read(info, -1)), EINVAL);
	ktap_errno("bad_buffer_is_efault",
		   ERRNO_OF(lock_stat_read((struct lock_stat_info *)0xc0000000, 4)), EFAULT);
	pid_t pid = fork();
	if (pid == 0) {
		setuid(1000);
		_exit(lock_stat_reset() < 0 && errno == EPERM ? 0 : 1);
	}
	int status = 1;
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "reset_needs_root", NULL);
	ktap_ok(lock_stat_read(NULL, 0) > 0, "size_query_with_no_buffer", NULL);
	ktap_errno("switch_takes_0_or_1", ERRNO_OF(lock_stat_set(2)), EINVAL);
	pid = fork();
	if (pid == 0) {
		setuid(1000);
		_exit(lock_stat_set(0) < 0 && errno == EPERM && lock_stat_state() == 1 ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "switch_needs_root", NULL);
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(14);
	/* Off at boot: switch on, and see that off stops the counting. */
	ktap_ok(lock_stat_set(1) == 0 && lock_stat_state() == 1, "switched_on", NULL);
	counters_are_sane();
	one_cpu_is_never_contended();
	two_cpus_contend();
	mutex_sleep_is_a_contention();
	fork_exit_wait_take_no_global_lock();
	errors();
	lock_stat_reset();
	test_mutex(TEST_SPIN_HOLD, 1);		/* counted */
	lock_stat_set(0);
	struct lock_stat_info before = find("test spin", 0);
	test_mutex(TEST_SPIN_HOLD, 1);		/* not counted */
	struct lock_stat_info after = find("test spin", 0);
	ktap_ok(lock_stat_state() == 0 && before.acquisitions == 1 && after.acquisitions == 1,
		"switched_off_counts_nothing", "%llu then %llu acquisitions",
		(unsigned long long)before.acquisitions, (unsigned long long)after.acquisitions);
	return ktap_done();
}
