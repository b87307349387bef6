/*
 * leak - process memory comes back: the kernel's free-frame count after
 * 1,000 fork+exit+wait cycles (and after 100 fork+exec+wait cycles) is
 * what it was before (issue 4). Free frames come from kernel-only call 505.
 *
 * A few warm-up cycles run first: the kernel heap keeps the pages it has
 * cut into small blocks for later use, which is not a leak; after warm-up
 * a steady state must hold exactly.
 */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

static int fork_exit(int n)
{
	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();
		if (pid < 0)
			return 0;
		if (pid == 0)
			_exit(i & 0x7F);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != (i & 0x7F))
			return 0;
	}
	return 1;
}

static int fork_exec(int n)
{
	char *argv[] = { "/bin/true_exit", NULL };
	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();
		if (pid < 0)
			return 0;
		if (pid == 0) {
			/* A program that is not there: exec fails, nothing leaks. */
			execve("/bin/no_such_program", argv, NULL);
			/* One that is: hello prints a line; keep it quiet. */
			close(1);
			argv[0] = "/bin/hello";
			execve(argv[0], argv, NULL);
			_exit(127);
		}
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
			return 0;
	}
	return 1;
}

int main(int argc, char **argv)
{
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);

	fork_exit(10);
	int before = free_frames();
	int ok = fork_exit(1000);
	int after = free_frames();
	ktap_ok(ok && after == before, "fork_exit_1000_cycles_free_no_frames",
		"free frames before %d, after %d, cycles %s", before, after,
		ok ? "ok" : "FAILED");

	fork_exec(5);
	before = free_frames();
	ok = fork_exec(100);
	after = free_frames();
	ktap_ok(ok && after == before, "fork_exec_100_cycles_free_no_frames",
		"free frames before %d, after %d, cycles %s", before, after,
		ok ? "ok" : "FAILED");
	return ktap_done();
}
