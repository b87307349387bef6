/*
 * faults - each fault program must be killed by the signal Linux gives.
 *
 * The programs are looked up beside this one (/bin on our kernel).  The
 * expected signals are what Linux i386 delivers, and our kernel matches:
 * a #GP from `cli` in user mode is SIGSEGV on Linux, not SIGILL.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

static const struct {
	const char *prog;
	int signal;
} cases[] = {
	{ "fault_null", SIGSEGV },
	{ "fault_kwrite", SIGSEGV },
	{ "fault_cli", SIGSEGV },
	{ "fault_div", SIGFPE },
	{ "fault_ill", SIGILL },
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

int main(int argc, char **argv)
{
	char dir[128] = "/bin", path[192], name[64];
	char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;

	if (slash && slash != argv[0])
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - argv[0]),
			 argv[0]);
	ktap_plan(NCASES);
	for (int i = 0; i < NCASES; i++) {
		char *child_argv[] = { path, NULL };
		int status = -1;
		pid_t pid;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].prog);
		snprintf(name, sizeof(name), "%s_killed_by_signal_%d",
			 cases[i].prog, cases[i].signal);
		pid = fork();
		if (pid == 0) {
			dup2(2, 1);	/* keep its "about to fault" line off
					   the KTAP stream */
			execve(path, child_argv, environ);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		ktap_ok(WIFSIGNALED(status) &&
			WTERMSIG(status) == cases[i].signal, name,
			"status=0x%x signal=%d", status & 0x7f7f,
			WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	return ktap_done();
}
