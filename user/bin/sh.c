/*
 * sh - a minimal shell.
 *
 * Reads a line, splits it at spaces, and runs the first word: a path if it
 * contains '/', else <dir>/<word> where <dir> is the shell's own directory
 * (/bin on our kernel).  Waits for it and prints its status if non-zero.
 * A line ending in '&' runs in the background: the shell prints [pid] and
 * goes on; before each prompt it reaps finished background jobs and prints
 * "[pid] done, status N" (or "[pid] killed by signal N").
 * Builtins: exit [N], help, wait (for every background job).  No quoting,
 * pipes, redirection or variables.  docs/tools.md shows the tools.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_LEN 256
#define MAX_ARGS 16
#define MAX_JOBS 32

static char bindir[128] = "/bin";
static pid_t jobs[MAX_JOBS];	/* background children not yet reaped */
static int njobs;

/* Read one line from fd 0; returns its length, -1 at end of input, or -2
 * if it was too long (the rest of that line is read and dropped). */
static int read_line(char *buf, int size)
{
	int n = 0, too_long = 0;
	char c;

	for (;;) {
		if (read(0, &c, 1) != 1) {
			if (n == 0 && !too_long)
				return -1;
			break;	/* a last line without '\n' */
		}
		if (c == '\n')
			break;
		if (n < size - 1)
			buf[n++] = c;
		else
			too_long = 1;
	}
	buf[n] = '\0';
	return too_long ? -2 : n;
}

/* Split at spaces and tabs; returns the word count, -1 if too many. */
static int split(char *line, char **argv)
{
	int n = 0;

	for (char *p = line; *p;) {
		while (*p == ' ' || *p == '\t')
			*p++ = '\0';
		if (!*p)
			break;
		if (n == MAX_ARGS)
			return -1;
		argv[n++] = p;
		while (*p && *p != ' ' && *p != '\t')
			p++;
	}
	argv[n] = NULL;
	return n;
}

static void help(void)
{
	printf("builtins:\n"
	       "  exit [N]                 leave the shell\n"
	       "  help                     this list\n"
	       "  wait                     wait for every background job\n"
	       "  CMD [ARG...] &           run CMD in the background: prints [pid]\n"
	       "anything else runs a program: 'hello' runs %s/hello,\n"
	       "'/path/prog arg ...' runs that file.  The scheduler tools:\n"
	       "  ps [-v]                  every task: policy, stair, burst, slice, times\n"
	       "  top [-n N] [-d SEC]      per-CPU load and the busiest tasks, every SEC s\n"
	       "  chrt -f|-r|-b|-i|-o [PRIO] CMD   run CMD with a policy (chrt -p PID: show)\n"
	       "  nice [-n N] CMD          run CMD with nice +N (default 10)\n"
	       "  renice N -p PID          set a running task's nice value\n"
	       "  tune [NAME [VALUE]]      the scheduler tunables (rr_interval, iso_cpu, ...)\n"
	       "  spin [SEC] [-c CPU]      burn CPU; prints the CPU time it got\n"
	       "  sleeper RUN SLEEP [SEC]  run RUN ms, sleep SLEEP ms; wake-up latencies\n"
	       "  kill [-SIG] PID...       end a task (kill -l lists the signals)\n"
	       "  trace run PROG [ARG...]  record what the scheduler did while PROG runs\n"
	       "  hello                    hello from pid N\n", bindir);
}

/* Print how a background job ended and forget it; other children (orphans
 * handed to us when we are pid 1) are reaped silently. */
static void job_ended(pid_t pid, int status)
{
	for (int i = 0; i < njobs; i++) {
		if (jobs[i] != pid)
			continue;
		if (WIFSIGNALED(status))
			printf("[%d] killed by signal %d\n", pid, WTERMSIG(status));
		else
			printf("[%d] done, status %d\n", pid, WEXITSTATUS(status));
		jobs[i] = jobs[--njobs];
		return;
	}
}

/* Before each prompt: reap whatever has finished, without waiting. */
static void reap_jobs(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		job_ended(pid, status);
}

/* The wait builtin: every background job, in the order they end. */
static void wait_jobs(void)
{
	int status;

	while (njobs > 0) {
		pid_t pid = jobs[0];
		if (waitpid(pid, &status, 0) < 0) {
			printf("sh: wait %d: %s\n", pid, strerror(errno));
			jobs[0] = jobs[--njobs];
			continue;
		}
		job_ended(pid, status);
	}
}

static void run(char **argv, int background)
{
	char path[LINE_LEN + 128];
	const char *name = argv[0];
	int status;
	pid_t pid;

	if (background && njobs == MAX_JOBS) {
		printf("sh: %d background jobs already; 'wait' for them first\n",
		       MAX_JOBS);
		return;
	}
	if (strchr(name, '/'))
		snprintf(path, sizeof(path), "%s", name);
	else
		snprintf(path, sizeof(path), "%s/%s", bindir, name);
	argv[0] = path;	/* programs find their siblings from argv[0] */

	pid = fork();
	if (pid < 0) {
		printf("sh: fork: %s\n", strerror(errno));
		return;
	}
	if (pid == 0) {
		execve(path, argv, environ);
		printf("sh: %s: %s\n", name, strerror(errno));
		_exit(127);
	}
	if (background) {
		jobs[njobs++] = pid;
		printf("[%d]\n", pid);
		return;
	}
	if (waitpid(pid, &status, 0) < 0) {
		printf("sh: waitpid: %s\n", strerror(errno));
		return;
	}
	if (WIFSIGNALED(status))
		printf("sh: %s: killed by signal %d\n", name, WTERMSIG(status));
	else if (WEXITSTATUS(status) != 0)
		printf("sh: %s: exit status %d\n", name, WEXITSTATUS(status));
}

int main(int argc, char **argv)
{
	char line[LINE_LEN], *words[MAX_ARGS + 1];
	char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;
	int n;

	if (slash && slash != argv[0])
		snprintf(bindir, sizeof(bindir), "%.*s",
			 (int)(slash - argv[0]), argv[0]);
	for (;;) {
		int background = 0;

		reap_jobs();
		printf("$ ");
		fflush(stdout);
		n = read_line(line, sizeof(line));
		if (n == -1)
			break;
		if (n == -2) {
			printf("sh: line too long (max %d characters)\n",
			       LINE_LEN - 1);
			continue;
		}
		n = split(line, words);
		if (n < 0) {
			printf("sh: too many words (max %d)\n", MAX_ARGS);
			continue;
		}
		/* "cmd &" or "cmd&": in the background */
		if (n > 0) {
			char *last = words[n - 1];
			size_t len = strlen(last);
			if (len > 0 && last[len - 1] == '&') {
				background = 1;
				last[len - 1] = '\0';
				if (len == 1)
					words[--n] = NULL;
			}
		}
		if (n == 0) {
			if (background)
				printf("sh: nothing to run before '&'\n");
			continue;
		}
		if (strcmp(words[0], "exit") == 0)
			return n > 1 ? atoi(words[1]) : 0;
		if (strcmp(words[0], "help") == 0)
			help();
		else if (strcmp(words[0], "wait") == 0)
			wait_jobs();
		else
			run(words, background);
	}
	printf("\n");
	return 0;
}
