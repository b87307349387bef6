/*
 * smp_stress - many tasks that sleep and run at random, with random
 * policies and affinities, on many CPUs (issue 6: "8 CPUs, 64 tasks, 20 s:
 * no task lost, no lockup, kernel invariants hold").
 *
 * Each task loops until the deadline, picking at random: spin 0-3 ms;
 * sleep 0-5 ms; yield; set its own affinity to a random mask (then check
 * that getcpu() is inside it); change its policy among NORMAL, BATCH and
 * ISO (and nice); or become FIFO/RR for a spin of at most 1 ms and back;
 * or fork a child that exits at once. Odd tasks never change their own
 * mask: the parent changes theirs at random while they run. Every task
 * must exit 0 by the deadline plus a grace period and be reaped; a task
 * that finds itself outside its own mask exits 1. The kernel's debug build
 * checks its invariants (KASSERT) all along: a panic fails the harness
 * case. Usage: smp_stress [tasks [seconds]] (default 64 tasks, 20 s).
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define MAX_TASKS 128
#define GRACE_S 10

static int ncpus;
static unsigned seed;
static int report[2];		/* children write {ops, cpu changes} here */

static unsigned rnd(unsigned n)
{
	seed = seed * 1103515245u + 12345u;
	return ((seed >> 8) & 0xffffff) % n;
}

static unsigned random_mask(void)
{
	unsigned all = ncpus >= 32 ? ~0u : (1u << ncpus) - 1, m;

	do
		m = (rnd(4) == 0 ? 1u << rnd(ncpus) : (unsigned)rnd(1u << 16) * 2654435761u) & all;
	while (!m);
	return m;
}

static int set_mask(pid_t pid, unsigned m)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < ncpus; i++)
		if (m & (1u << i))
			CPU_SET(i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static void spin_us(int us)
{
	long long end = monotonic_ns() + us * 1000LL;

	while (monotonic_ns() < end)
		;
}

static void set_policy(int policy, int prio)
{
	struct sched_param sp = { prio };

	sched_setscheduler(0, policy, &sp);
}

/* One task's life; returns its exit status. */
static int task(int id, long long deadline)
{
	static const int policies[] = { SCHED_OTHER, SCHED_BATCH, SCHED_ISO };
	struct timespec ts;
	long outside = 0, counts[2] = { 0, 0 };
	int last = sched_getcpu();

	seed ^= id * 7919u + (unsigned)monotonic_ns();
	while (monotonic_ns() < deadline) {
		int cpu = sched_getcpu();
		counts[0]++;
		counts[1] += cpu != last;
		last = cpu;
		switch (rnd(10)) {
		case 0: case 1: case 2:
			spin_us(rnd(3000));
			break;
		case 3: case 4: case 5:
			ts = (struct timespec){ 0, rnd(5000) * 1000L };
			nanosleep(&ts, NULL);
			break;
		case 6:
			sched_yield();
			break;
		case 7:
			if (id % 2 == 0) {
				unsigned m = random_mask();
				if (set_mask(0, m) == 0 && !(m & (1u << sched_getcpu())))
					outside++;
			}
			break;
		case 8:
			set_policy(policies[rnd(3)], 0);
			setpriority(PRIO_PROCESS, 0, rnd(40) - 20);
			break;
		case 9:
			if (rnd(3) == 0) {
				pid_t c = fork();
				if (c == 0)
					_exit(0);
				if (c > 0)
					waitpid(c, NULL, 0);
			} else {
				/* real time only briefly: never a spin for ever */
				set_policy(rnd(2) ? SCHED_FIFO : SCHED_RR, 1 + rnd(99));
				spin_us(rnd(1000));
				set_policy(SCHED_OTHER, 0);
			}
			break;
		}
	}
	write(report[1], counts, sizeof(counts));
	if (outside)
		printf("# task %d: %ld times outside its own mask after setaffinity\n", id, outside);
	return outside ? 1 : 0;
}

int main(int argc, char **argv)
{
	int ntasks = argc > 1 ? atoi(argv[1]) : 64, secs = argc > 2 ? atoi(argv[2]) : 20;
	int reaped = 0, failed = 0, remote = 0;
	pid_t pids[MAX_TASKS];
	long long start, deadline, end, ops = 0, changes = 0;

	test_require_our_kernel(argc, argv, 0);
	ncpus = test_ncpus();
	if (ntasks < 1 || ntasks > MAX_TASKS)
		ntasks = 64;
	ktap_plan(2);
	printf("# %d tasks on %d CPUs for %d s\n", ntasks, ncpus, secs);
	pipe(report);
	start = monotonic_ns();
	deadline = start + secs * 1000000000LL;
	for (int i = 0; i < ntasks; i++) {
		pids[i] = fork();
		if (pids[i] == 0)
			_exit(task(i, deadline));
		if (pids[i] < 0) {
			printf("# fork %d failed: errno %d\n", i, errno);
			ntasks = i;
			break;
		}
	}
	seed = (unsigned)start;
	/* While they run: change the odd tasks' masks from outside. */
	while (monotonic_ns() < deadline) {
		struct timespec ts = { 0, 2000000 };
		int i = 2 * rnd(ntasks / 2) + 1;
		if (i < ntasks && set_mask(pids[i], random_mask()) == 0)
			remote++;
		nanosleep(&ts, NULL);
	}
	end = deadline + GRACE_S * 1000000000LL;
	while (reaped < ntasks && monotonic_ns() < end) {
		int status;
		pid_t pid = waitpid(-1, &status, WNOHANG);
		if (pid > 0) {
			for (int i = 0; i < ntasks; i++)
				if (pids[i] == pid) {
					reaped++;
					failed += !(WIFEXITED(status) && WEXITSTATUS(status) == 0);
				}
		} else {
			struct timespec ts = { 0, 10000000 };
			nanosleep(&ts, NULL);
		}
	}
	close(report[1]);
	for (long c[2]; read(report[0], c, sizeof(c)) == sizeof(c); ) {
		ops += c[0];
		changes += c[1];
	}
	ktap_ok(reaped == ntasks, "stress_every_task_exits_and_is_reaped",
		"%d of %d reaped within %d s of the %d s deadline (%lld ms after start);"
		" %lld operations, %lld CPU changes seen, %d remote mask changes",
		reaped, ntasks, GRACE_S, secs, (monotonic_ns() - start) / 1000000, ops,
		changes, remote);
	ktap_ok(failed == 0, "stress_tasks_stay_inside_their_masks",
		"%d tasks failed (outside their mask, or killed)", failed);
	return ktap_done();
}
