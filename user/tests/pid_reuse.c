/*
 * pid_reuse - a system call aimed at a dying process never lands on the
 * process that gets its slot next (docs/kernel.md, "Processes").
 *
 *   pid_reuse [ROUNDS]        (boot with test=slowfind to make it bite)
 *
 * Pids are never reused here, but process-table slots are. A (uid 1000)
 * forks, in turn, a "target" child that exits at once and a "victim"
 * child that nobody ever names; the victim usually gets the target's slot.
 * B (root, on another CPU) calls sched_setscheduler(target, SCHED_BATCH)
 * as soon as A tells it the target's pid, while the target is dying. With
 * test=slowfind the kernel waits 500 us between finding the target and
 * acting on it: before the fix (a reference that keeps the slot from being
 * reused), that change landed on the victim, which finds itself BATCH.
 * Checks: no victim ever sees itself BATCH.
 */
#include <sched.h>
#include <stdio.h>
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

int main(int argc, char **argv)
{
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
