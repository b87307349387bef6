/*
 * fuzz_syscalls [calls] - random system calls must never hurt the kernel.
 *
 * Children make system calls with random numbers (0..599) and random
 * arguments: small integers, -1, huge values, NULL, pointers into their
 * own memory, into unmapped space and into the kernel. Each child first
 * becomes an ordinary user (setuid 1000), so it cannot power the machine
 * off, kill other users' processes or change the scheduler's tunables;
 * it closes stdin, so no read waits for the keyboard, and writes its
 * output into a pipe that nobody reads. A child that dies
 * of a fault, blocks for more than a second (a pipe with no writer, say)
 * or leaves its queue changed is simply replaced: only the kernel is under
 * test. It passes if every call returned (the kernel is still here to
 * print the result), no child was left behind, and the kernel's free
 * memory is back where it was: within HEAP_SLACK frames, because the
 * kernel heap keeps pages it has cut into small blocks (a burst of open
 * pipes and files can make it cut a few more); a leak of anything per
 * call or per child would show as far more over 25 children.
 *
 * A few calls are never made, because their effect is the test's own end
 * or takes too long: fork and execve (the child would multiply or turn
 * into another program), the sleeps, and the test mutex's timed hold.
 */
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include "testlib.h"

#define DEFAULT_CALLS 20000
#define PER_CHILD 2000
#define HEAP_SLACK 8

static unsigned long rng = 12345;

static unsigned long next_random(void)
{
	rng = rng * 1103515245 + 12345;
	return rng >> 8;
}

static long random_arg(void)
{
	static char buffer[64];
	switch (next_random() % 8) {
	case 0:	return 0;
	case 1:	return -1;
	case 2:	return next_random() % 16;			/* fds, small ints */
	case 3:	return (long)buffer;				/* a valid pointer */
	case 4:	return 0xC0100000L;				/* kernel memory */
	case 5:	return 0x40000000L + (next_random() % 4096);	/* unmapped */
	case 6:	return (long)0x7FFFFFFF;
	default: return (long)next_random();
	}
}

static int excluded(long nr)
{
	switch (nr) {
	case 2: case 11: case 162: case 267:	/* fork execve nanosleep clock_nanosleep */
	case 1: case 252:			/* exit, exit_group: ends the batch early */
	case 503:				/* test mutex: a hold can sleep 10 s */
		return 1;
	default:
		return 0;
	}
}

static void child(int calls)
{
	int p[2];

	/* stdout and stderr go into a pipe nobody reads (writes: EPIPE), so
	 * random buffers never reach the console. */
	if (pipe(p) == 0) {
		close(p[0]);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[1]);
	}
	close(0);
	if (setuid(1000) < 0)
		_exit(2);
	for (int i = 0; i < calls; i++) {
		long nr = next_random() % 600;
		if (excluded(nr))
			continue;
		syscall5(nr, random_arg(), random_arg(), random_arg(),
			 random_arg(), random_arg());
	}
	_exit(0);
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Run one child; kill it if it is still there after a second. */
static int run_child(int calls, int *stuck, int *faulted)
{
	pid_t pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0)
		child(calls);
	long long deadline = now_ms() + 1000;
	int status;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (now_ms() > deadline) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			(*stuck)++;
			return 0;
		}
		sched_yield();
	}
	if (WIFSIGNALED(status))
		(*faulted)++;
	return 0;
}

int main(int argc, char **argv)
{
	int total = argc > 1 ? atoi(argv[1]) : DEFAULT_CALLS;
	int stuck = 0, faulted = 0, children = 0;

	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);
	int stuck0 = 0, faulted0 = 0;
	run_child(PER_CHILD, &stuck0, &faulted0);	/* warm the heap up */
	int before = free_frames();
	for (int done = 0; done < total; done += PER_CHILD) {
		rng += done;
		if (run_child(PER_CHILD, &stuck, &faulted) < 0)
			break;
		children++;
	}
	int after = free_frames();
	ktap_ok(children * PER_CHILD >= total, "random_syscalls_leave_kernel_running",
		"%d calls in %d children: %d died of a fault, %d were stuck and killed",
		children * PER_CHILD, children, faulted, stuck);
	ktap_ok(after <= before && after >= before - HEAP_SLACK,
		"random_syscalls_leak_no_memory",
		"free frames before %d, after %d (heap may keep up to %d)",
		before, after, HEAP_SLACK);
	return ktap_done();
}
