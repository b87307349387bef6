/*
 * forkloop N - N cycles of fork, child exit, wait (default 1000).
 *
 * For the leak test: run it, compare the kernel's free memory and process
 * table before and after.  Each child exits with i % 128 and the parent
 * checks it got exactly that back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000;

	for (int i = 0; i < n; i++) {
		int status;
		pid_t pid = fork();

		if (pid < 0) {
			printf("forkloop: cycle %d: fork: %s\n", i, strerror(errno));
			return 1;
		}
		if (pid == 0)
			_exit(i % 128);
		if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != i % 128) {
			printf("forkloop: cycle %d: bad wait, status 0x%x\n", i,
			       status);
			return 1;
		}
	}
	printf("forkloop: %d fork/exit/wait cycles ok\n", n);
	return 0;
}
