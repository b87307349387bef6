/*
 * kill - send a signal to processes.
 *
 *   kill [-SIG] PID...     SIG: a number or a name (TERM, KILL, INT, ...);
 *                          default TERM
 *   kill -l                list the signal names
 *
 * There are no signal handlers on this kernel: any signal but 0 ends the
 * target, with that signal as its wait status (init ignores signals).
 * Only pid > 0 (no process groups).  Same program on Linux.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args.h"

static const struct { const char *name; int nr; } sigs[] = {
	{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
	{ "ILL", SIGILL }, { "TRAP", SIGTRAP }, { "ABRT", SIGABRT },
	{ "BUS", SIGBUS }, { "FPE", SIGFPE }, { "KILL", SIGKILL },
	{ "USR1", SIGUSR1 }, { "SEGV", SIGSEGV }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CHLD", SIGCHLD }, { "CONT", SIGCONT }, { "STOP", SIGSTOP },
};
#define NSIGS (int)(sizeof(sigs) / sizeof(sigs[0]))

static int usage(void)
{
	fprintf(stderr, "usage: kill [-SIG] PID...   (SIG: number or name, default TERM)\n"
		"       kill -l\n");
	return 2;
}

static int parse_int(const char *s, int *out)
{
	return parse_int_arg(s, 0, 2147483647L, out);
}

static int parse_sig(const char *s)
{
	int n;

	if (parse_int(s, &n))
		return n <= 64 ? n : -1;
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (int i = 0; i < NSIGS; i++)
		if (strcmp(s, sigs[i].name) == 0)
			return sigs[i].nr;
	return -1;
}

int main(int argc, char **argv)
{
	int sig = SIGTERM, i = 1, status = 0;

	if (argc == 2 && strcmp(argv[1], "-l") == 0) {
		for (int j = 0; j < NSIGS; j++)
			printf("%2d %s\n", sigs[j].nr, sigs[j].name);
		return 0;
	}
	if (i < argc && argv[i][0] == '-') {
		sig = parse_sig(argv[i] + 1);
		if (sig < 0) {
			fprintf(stderr, "kill: unknown signal '%s' (kill -l lists them)\n",
				argv[i] + 1);
			return usage();
		}
		i++;
	}
	if (i >= argc) {
		fprintf(stderr, "kill: no pid given\n");
		return usage();
	}
	for (; i < argc; i++) {
		int pid;

		if (!parse_int(argv[i], &pid) || pid == 0) {
			fprintf(stderr, "kill: bad pid '%s' (a number > 0)\n", argv[i]);
			status = 1;
			continue;
		}
		if (kill(pid, sig) < 0) {
			printf("kill: %d: %s\n", pid, strerror(errno));
			status = 1;
		}
	}
	return status;
}
