/*
 * beside - run a program beside N CPU hogs, the field's "under load":
 *
 *   beside N PROG [ARG...]
 *
 * Starts N NORMAL processes that spin, runs PROG (a path) with its
 * arguments, kills the hogs when it ends and exits with its status.
 * make bench-field runs cyclictest so on both kernels (init's run= takes
 * one program; no shell is needed). Static, so the same binary serves
 * Linux 6.1.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#define HOGS_MAX 16

static void hog(void)
{
	for (volatile unsigned long n = 0;; n++)
		;
}

int main(int argc, char **argv)
{
	pid_t hogs[HOGS_MAX];
	int n = argc > 2 ? atoi(argv[1]) : -1, status = 0;

	if (n < 0 || n > HOGS_MAX) {
		fprintf(stderr, "usage: beside N(0..%d) PROG [ARG...]\n", HOGS_MAX);
		return 2;
	}
	for (int i = 0; i < n; i++) {
		hogs[i] = fork();
		if (hogs[i] == 0)
			hog();
	}
	pid_t pid = fork();
	if (pid == 0) {
		execve(argv[2], argv + 2, environ);
		perror(argv[2]);
		_exit(127);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	for (int i = 0; i < n; i++)
		if (hogs[i] > 0)
			kill(hogs[i], SIGKILL);
	for (int i = 0; i < n; i++)
		if (hogs[i] > 0)
			waitpid(hogs[i], NULL, 0);
	if (pid < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
