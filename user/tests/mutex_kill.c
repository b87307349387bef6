/*
 * mutex_kill - a task waiting for a kernel mutex can still be killed.
 *
 * A holds test mutex 0 (call 503) and sleeps two seconds in user space
 * without releasing it. B asks for the same mutex and sleeps
 * uninterruptibly in the kernel. The parent kills B after 100 ms: B must
 * die (SIGKILL) at once, not when A lets go two seconds later, and A must
 * still get to release the mutex and exit cleanly; a later LOCK by another
 * task succeeds. (Linux: TASK_KILLABLE, mutex_lock_killable.)
 */
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

int main(int argc, char **argv)
{
	int fd[2], status = 0;
	char c;

	test_require_our_kernel(argc, argv, 0);
	ktap_plan(3);
	pipe(fd);
	pid_t a = fork();
	if (a == 0) {
		test_mutex(TEST_MUTEX_LOCK, 0);
		write(fd[1], "x", 1);
		test_sleep_ms(2000);
		test_mutex(TEST_MUTEX_UNLOCK, 0);
		_exit(0);
	}
	read(fd[0], &c, 1);		/* A holds the mutex now */
	pid_t b = fork();
	if (b == 0) {
		test_mutex(TEST_MUTEX_LOCK, 0);	/* waits for A */
		_exit(3);			/* only if it got it: it must not */
	}
	test_sleep_ms(100);			/* B is asleep in the kernel */
	long long t0 = monotonic_ns();
	kill(b, SIGKILL);
	waitpid(b, &status, 0);
	long long ms = (monotonic_ns() - t0) / 1000000;
	ktap_ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL && ms < 500,
		"mutex_waiter_dies_when_killed", "reaped %lld ms after SIGKILL, %s %d; "
		"want SIGKILL within 500 ms (A holds the mutex for 2000 ms)", ms,
		WIFSIGNALED(status) ? "signal" : "exit status",
		WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	waitpid(a, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "holder_releases_and_exits",
		"status 0x%x", status);
	pid_t d = fork();
	if (d == 0) {
		int r = test_mutex(TEST_MUTEX_LOCK, 0);
		if (r == 0)
			test_mutex(TEST_MUTEX_UNLOCK, 0);
		_exit(r == 0 ? 0 : 1);
	}
	waitpid(d, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0, "mutex_free_afterwards",
		"status 0x%x", status);
	close(fd[0]), close(fd[1]);
	return ktap_done();
}
