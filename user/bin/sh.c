/*
 * sh - a minimal shell.
 *
 * Reads a line, splits it at spaces, and runs the first word: a path if it
 * contains '/', else <dir>/<word> where <dir> is the shell's own directory
 * (/bin on our kernel).  Waits for it and prints its status if non-zero.
 * Builtins: exit [N], help.  No quoting, pipes, redirection or variables.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define LINE_LEN 256
#define MAX_ARGS 16

static char bindir[128] = "/bin";

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
	printf("builtins: exit [N], help\n"
	       "anything else runs a program: 'hello' runs %s/hello,\n"
	       "'/path/prog arg ...' runs that file\n", bindir);
}

static void run(char **argv)
{
	char path[LINE_LEN + 128];
	const char *name = argv[0];
	int status;
	pid_t pid;

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
		if (n == 0)
			continue;
		if (strcmp(words[0], "exit") == 0)
			return n > 1 ? atoi(words[1]) : 0;
		if (strcmp(words[0], "help") == 0)
			help();
		else
			run(words);
	}
	printf("\n");
	return 0;
}
