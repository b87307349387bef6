/*
 * trace - record what the scheduler does, and print it (docs/trace.md).
 *
 *   trace start [EVENTS]   record EVENTS: a mask (0x1f) or names
 *                          (switch,wakeup); default every event
 *   trace stop             stop recording
 *   trace clear            forget what was recorded
 *   trace dump             print it on the console (stops recording)
 *   trace run PROG [ARGS]  clear, start, run PROG and wait, stop, dump
 *
 * The kernel prints the dump, one "trace: ..." line per event; save the
 * serial log and draw it with tools/traceview.py. System call 504, which
 * only root may make.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_calls.h"

/* In the order of enum sched_trace_event (sched/machine.h): bit i of a
 * mask is event_names[i]. */
static const char *const event_names[] = {
	"switch", "wakeup", "sleep", "stair_drop", "slice_end", "preempt",
	"yield", "fork", "migrate", "nice", "iso_throttle", "smt_idle",
};
#define NR_EVENTS (int)(sizeof(event_names) / sizeof(event_names[0]))

static void usage(void)
{
	fprintf(stderr,
		"usage: trace start [EVENTS]   EVENTS: a mask like 0x3, or names like switch,wakeup\n"
		"       trace stop | clear | dump\n"
		"       trace run PROGRAM [ARGS...]\n"
		"events:");
	for (int i = 0; i < NR_EVENTS; i++)
		fprintf(stderr, " %s", event_names[i]);
	fprintf(stderr, "\n");
	exit(2);
}

/* "0x11", "17" or "switch,stair_drop" to a mask; -1 if it is neither. */
static long parse_events(const char *s)
{
	char word[32], *end;
	long mask = strtol(s, &end, 0);

	if (*s >= '0' && *s <= '9')
		return *end || mask < 0 || mask >= (1L << NR_EVENTS) ? -1 : mask;
	mask = 0;
	while (*s) {
		size_t n = strchr(s, ',') ? (size_t)(strchr(s, ',') - s) : strlen(s);
		int i;
		if (n == 0 || n >= sizeof(word))
			return -1;
		memcpy(word, s, n);
		word[n] = '\0';
		for (i = 0; i < NR_EVENTS && strcmp(word, event_names[i]) != 0; i++)
			;
		if (i == NR_EVENTS) {
			fprintf(stderr, "trace: no event called \"%s\"\n", word);
			return -1;
		}
		mask |= 1L << i;
		s += n + (s[n] == ',');
	}
	return mask;
}

static int ctl(int op, int arg)
{
	int ret;

	fflush(stdout);		/* our lines before the kernel's */
	ret = trace_ctl(op, arg);
	if (ret < 0) {
		fprintf(stderr, "trace: %s%s\n", strerror(errno),
			errno == ENOSYS ? " (this kernel cannot trace)" :
			errno == EPERM ? " (only root may trace)" : "");
		exit(1);
	}
	return ret;
}

/* Run argv[0] (found beside this program when it has no '/'), wait, and
 * return its exit status the way a shell reports it. */
static int run(char **argv, const char *self)
{
	char path[256];
	const char *slash = strrchr(self, '/');
	int status;
	pid_t pid;

	if (strchr(argv[0], '/'))
		snprintf(path, sizeof(path), "%s", argv[0]);
	else
		snprintf(path, sizeof(path), "%.*s/%s", slash ? (int)(slash - self) : 1,
			 slash ? self : ".", argv[0]);
	fflush(stdout);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "trace: fork: %s\n", strerror(errno));
		return 1;
	}
	if (pid == 0) {
		argv[0] = path;
		execve(path, argv, environ);
		fprintf(stderr, "trace: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		fprintf(stderr, "trace: waitpid: %s\n", strerror(errno));
		return 1;
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	long mask = 0;
	int status;

	if (strcmp(cmd, "start") == 0 && argc <= 3) {
		if (argc == 3 && (mask = parse_events(argv[2])) < 0)
			usage();
		ctl(TRACE_START, (int)mask);
	} else if (strcmp(cmd, "stop") == 0 && argc == 2) {
		ctl(TRACE_STOP, 0);
	} else if (strcmp(cmd, "clear") == 0 && argc == 2) {
		ctl(TRACE_CLEAR, 0);
	} else if (strcmp(cmd, "dump") == 0 && argc == 2) {
		ctl(TRACE_DUMP, 0);
	} else if (strcmp(cmd, "run") == 0 && argc >= 3) {
		ctl(TRACE_CLEAR, 0);
		ctl(TRACE_START, 0);
		status = run(argv + 2, argv[0]);
		ctl(TRACE_STOP, 0);
		ctl(TRACE_DUMP, 0);
		printf("trace run: %s exited with status %d\n", argv[2], status);
		return status;
	} else {
		usage();
	}
	return 0;
}
