/*
 * pid_reuse - a system call aimed at a dying process never lands on the
 * process that gets its memory next, and pids that wrap around never
 * land on a task that still has one (docs/kernel.md, "Processes").
 *
 *   pid_reuse [ROUNDS]        (boot with test=slowfind to make it bite)
 *   pid_reuse --wrap          (pid_max 1,000: the boot's pid_max=, or
 *                              root writes /proc/sys/kernel/pid_max)
 *
 * The race: a task's memory (struct proc, kernel stack) is reused by the
 * next ones. A (uid 1000) forks, in turn, a "target" child that exits at
 * once and a "victim" child that nobody ever names; the victim often gets
 * the target's memory.
 * B (root, on another CPU) calls sched_setscheduler(target, SCHED_BATCH)
 * as soon as A tells it the target's pid, while the target is dying. With
 * test=slowfind the kernel waits 500 us between finding the target and
 * acting on it: before the fix (a reference that keeps the slot from being
 * reused), that change landed on the victim, which finds itself BATCH.
 * Checks: no victim ever sees itself BATCH.
 *
 * --wrap: past pid_max - 1 the next pid is 300 (Linux's RESERVED_PIDS),
 * and the search skips every pid a task has as its pid, its process
 * group or its session. Twenty children asleep hold pids just above 300,
 * and a process group outlives its leader (its pid must stay taken while
 * a member is left); then 2 x pid_max children are forked and reaped.
 * Checks: the pids wrapped, and to 300; no short-lived child got a
 * sleeper's pid or the group's. A pid_max above 1,000 is lowered to 1,000
 * first by writing /proc/sys/kernel/pid_max, as root does on Linux; it
 * runs on Linux too.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

#define SLEEPERS 20
#define WRAP_PID_MAX 1000

static pid_t fork_sleeper(void)
{
	pid_t pid = fork();
	if (pid == 0)
		for (;;)
			pause();
	return pid;
}

/* A child that exits at once, reaped: its pid. */
static pid_t fork_reap(void)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	if (pid > 0)
		waitpid(pid, NULL, 0);
	return pid;
}

/* A process group whose leader has exited: its one member asleep. The
 * group's id (the old leader's pid) must not be handed out again. */
static pid_t orphaned_group(void)
{
	int ready[2];
	pipe(ready);
	pid_t leader = fork();
	if (leader == 0) {
		setpgid(0, 0);
		if (fork_sleeper() > 0)
			write(ready[1], "x", 1);
		_exit(0);
	}
	char c;
	read(ready[0], &c, 1);
	waitpid(leader, NULL, 0);
	close(ready[0]);
	close(ready[1]);
	return leader;
}

static int wrap_check(void)
{
	pid_t sleepers[SLEEPERS], pid, last = 0, first_after_wrap = 0;
	int pid_max = test_read_number("/proc/sys/kernel/pid_max", 0), wraps = 0, on_sleeper = 0, on_group = 0, failed = 0;

	if (pid_max > WRAP_PID_MAX && test_write_number("/proc/sys/kernel/pid_max", WRAP_PID_MAX) == 0) {
		ktap_note("pid_max %d, set to %d by writing /proc/sys/kernel/pid_max", pid_max,
			  WRAP_PID_MAX);
		pid_max = test_read_number("/proc/sys/kernel/pid_max", 0);
	}
	if (pid_max < 0 || pid_max > 4096)
		ktap_skip_all("pid_max is not at most 4096 (boot with pid_max=1000, or as root)");
	ktap_plan(3);
	while ((pid = fork_reap()) > 0 && pid < 310)
		;
	for (int i = 0; i < SLEEPERS; i++)
		sleepers[i] = fork_sleeper();
	pid_t group = orphaned_group();
	for (int i = 0; i < 2 * pid_max; i++) {
		pid = fork_reap();
		if (pid < 0) {
			failed++;
			continue;
		}
		if (pid < last && wraps++ == 0)
			first_after_wrap = pid;
		last = pid;
		on_group += pid == group;
		for (int k = 0; k < SLEEPERS; k++)
			on_sleeper += pid == sleepers[k];
	}
	ktap_ok(wraps >= 1 && first_after_wrap == 300, "pids_wrap_to_300_past_pid_max",
		"pid_max %d: %d wraps, the first to pid %d; %d forks failed", pid_max, wraps,
		first_after_wrap, failed);
	ktap_ok(on_sleeper == 0, "a_wrapped_pid_is_never_a_live_tasks",
		"%d forks got a pid of the %d sleepers (%d..%d)", on_sleeper, SLEEPERS,
		sleepers[0], sleepers[SLEEPERS - 1]);
	ktap_ok(on_group == 0, "a_wrapped_pid_is_never_a_live_process_groups",
		"%d forks got pid %d, the id of a group its member still has", on_group, group);
	kill(-group, SIGKILL);		/* init reaps that one */
	for (int i = 0; i < SLEEPERS; i++) {
		kill(sleepers[i], SIGKILL);
		waitpid(sleepers[i], NULL, 0);
	}
	return ktap_done();
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--wrap") == 0)
		return wrap_check();
	int rounds = argc > 1 ? atoi(argv[1]) : 300, tell[2], res[2];
	int victims_batch = 0, targets = 0, status;

	test_require_our_kernel(argc, argv, 0);
	if (test_ncpus() < 2)
		ktap_skip_all("needs two CPUs (A and B race on different CPUs)");
	if (rounds < 1 || rounds > 100000)
		rounds = 300;
	ktap_plan(1);
	pipe(tell);
	pipe(res);
	pid_t a = fork();
	if (a == 0) {
		pin(0);
		setuid(1000);
		close(tell[0]);
		for (int i = 0; i < rounds; i++) {
			pid_t t = fork();
			if (t == 0)
				_exit(0);			/* the target dies at once */
			write(tell[1], &t, sizeof(t));
			waitpid(t, NULL, 0);
			pid_t v = fork();
			if (v == 0) {
				struct timespec ts = { 0, 2000000 };
				nanosleep(&ts, NULL);	/* B's late change lands by now */
				_exit(sched_getscheduler(0) == SCHED_BATCH ? 1 : 0);
			}
			waitpid(v, &status, 0);
			victims_batch += WIFEXITED(status) && WEXITSTATUS(status) == 1;
		}
		pid_t end = -1;
		write(tell[1], &end, sizeof(end));
		write(res[1], &victims_batch, sizeof(victims_batch));
		_exit(0);
	}
	pin(1);
	close(tell[1]);
	for (;;) {
		pid_t t;
		struct sched_param sp = { 0 };
		if (read(tell[0], &t, sizeof(t)) != sizeof(t) || t < 0)
			break;
		sched_setscheduler(t, SCHED_BATCH, &sp);	/* ESRCH if already gone */
		targets++;
	}
	read(res[0], &victims_batch, sizeof(victims_batch));
	waitpid(a, NULL, 0);
	ktap_ok(victims_batch == 0, "a_call_on_a_dying_pid_never_lands_on_its_slots_next_process",
		"%d rounds: %d victims found themselves BATCH (only targets were named)",
		targets, victims_batch);
	return ktap_done();
}
