/*
 * trace - record what the scheduler does, and print it (docs/trace.md).
 *
 *   trace start [EVENTS]   record EVENTS: a mask (0x1f) or names
 *                          (switch,wakeup); default every event
 *   trace stop             stop recording
 *   trace clear            forget what was recorded
 *   trace dump             print it on the console (stops recording)
 *   trace run [-c|-m] PROG [ARGS] [+ PROG [ARGS]]...
 *                          record every event while the programs run
 *                          (together), and wait for them all
 *
 * `trace run` streams the events to the second serial port (COM2) when
 * the machine has one (`make run TRACE=file`): it drains the kernel's
 * buffers there every 100 ms, so a run of any length fits and the console
 * stays free. With -m (`make trace PROG=...`) the kernel keeps the events
 * in memory, in rings as large as it can spare, and they go to COM2 after
 * the programs have exited: nothing runs for the recorder meanwhile, and
 * a fast workload loses nothing until the rings are full. Without COM2,
 * or with -c, it records into the buffers and dumps them on the console
 * at the end, one "trace: ..." line per event. Draw any of them with
 * tools/traceview.py.
 * System call 504, which only root may make.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kernel_calls.h"

/* The kernel's ring per CPU while streaming live (kernel/debug/trace.h):
 * a drain sends at most this much, so that one drain ends. */
#define TRACE_RING_EVENTS 4096

/* In the order of enum sched_trace_event (sched/machine.h): bit i of a
 * mask is event_names[i]. */
static const char *const event_names[] = {
	"switch", "wakeup", "sleep", "stair_drop", "slice_end", "preempt",
	"yield", "fork", "migrate", "nice", "iso_throttle", "smt_idle",
	"affinity", "pid_change", "lost_ticks",
};
#define NR_EVENTS (int)(sizeof(event_names) / sizeof(event_names[0]))

static void usage(void)
{
	fprintf(stderr,
		"usage: trace start [EVENTS]   EVENTS: a mask like 0x3, or names like switch,wakeup\n"
		"       trace stop | clear | dump\n"
		"       trace run [-c|-m] PROGRAM [ARGS...] [+ PROGRAM [ARGS...]]...\n"
		"         (-c: dump on the console even when COM2 is there;\n"
		"          -m: keep the events in memory, send them to COM2 at the end)\n"
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
	if (ret < 0 && (op == TRACE_STREAM || op == TRACE_RECORD) && errno == ENODEV)
		return ret;	/* no COM2: the caller dumps on the console */
	if (ret < 0) {
		fprintf(stderr, "trace: %s%s\n", strerror(errno),
			errno == ENOSYS ? " (this kernel cannot trace)" :
			errno == EPERM ? " (only root may trace)" : "");
		exit(1);
	}
	return ret;
}

/* Start argv[0] (found beside this program when it has no '/'); returns
 * its pid, or -1. */
static pid_t start(char **argv, const char *self)
{
	char path[256];
	const char *slash = strrchr(self, '/');
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
		return -1;
	}
	if (pid == 0) {
		argv[0] = path;
		execve(path, argv, environ);
		fprintf(stderr, "trace: cannot run %s: %s\n", path, strerror(errno));
		_exit(127);
	}
	return pid;
}

/* The exit status the way a shell reports it. */
static int shell_status(int status)
{
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

#define MAX_PROGS 8
/* Lines a drain sends in one system call: the kernel does not preempt a
 * system call, so a woken task waits for one chunk at most. */
#define DRAIN_CHUNK 32

/* Send what the kernel holds, a chunk at a time; at most limit lines
 * (0: all). */
static void drain(int limit)
{
	int sent = 0, n;

	do {
		n = ctl(TRACE_DRAIN, DRAIN_CHUNK);
		sent += n;
	} while (n == DRAIN_CHUNK && (limit == 0 || sent < limit));
}

/*
 * trace run: the programs are the words of argv split at "+". Streaming
 * live, we wake every 100 ms to drain the buffers to COM2 while they run;
 * recording to memory (-m) or dumping (-c), we just wait, and send or dump
 * at the end. Returns the first non-zero status, else 0.
 */
static int run(int argc, char **argv, const char *self, char mode)
{
	char **prog[MAX_PROGS];
	pid_t pids[MAX_PROGS];
	int status[MAX_PROGS], nprogs = 0, left, ret = 0, events = 0, ring = 0;
	bool stream = false, live;

	for (int i = 0; i < argc; i++) {
		if (strcmp(argv[i], "+") == 0) {
			argv[i] = NULL;
			continue;
		}
		if (i > 0 && argv[i - 1] != NULL)
			continue;
		if (nprogs == MAX_PROGS) {
			fprintf(stderr, "trace: at most %d programs\n", MAX_PROGS);
			return 2;
		}
		prog[nprogs++] = &argv[i];
	}
	if (nprogs == 0)
		usage();
	if (mode != 'c') {
		ring = ctl(mode == 'm' ? TRACE_RECORD : TRACE_STREAM, 0);
		stream = ring >= 0;
	}
	live = stream && mode != 'm';
	if (!stream) {
		ctl(TRACE_CLEAR, 0);
		ctl(TRACE_START, 0);
	}
	for (int i = 0; i < nprogs; i++) {
		pids[i] = start(prog[i], self);
		status[i] = 1 << 8;	/* "exited 1" if it never started */
	}
	left = 0;
	for (int i = 0; i < nprogs; i++)
		left += pids[i] > 0;
	while (left > 0) {
		int st;
		pid_t pid = waitpid(-1, &st, live ? WNOHANG : 0);
		if (pid < 0) {
			fprintf(stderr, "trace: waitpid: %s\n", strerror(errno));
			break;
		}
		for (int i = 0; i < nprogs; i++)
			if (pid > 0 && pids[i] == pid) {
				status[i] = st;
				left--;
			}
		if (live && pid == 0) {
			drain(TRACE_RING_EVENTS);
			usleep(100000);
		}
	}
	if (stream) {
		if (!live)
			drain(0);	/* the recording ends at the first drain */
		events = ctl(TRACE_STOP, 0);
	} else {
		ctl(TRACE_STOP, 0);
		ctl(TRACE_DUMP, 0);
	}
	for (int i = 0; i < nprogs; i++) {
		int s = shell_status(status[i]);
		printf("trace run: %s exited with status %d\n", prog[i][0], s);
		if (s && !ret)
			ret = s;
	}
	if (stream)
		printf("trace run: %d events %s COM2\n", events,
		       live ? "streamed to" : "recorded in memory, then sent to");
	if (stream && !live)
		printf("trace run: the memory held %d events a CPU\n", ring);
	return ret;
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	long mask = 0;

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
		char mode = !strcmp(argv[2], "-c") ? 'c' : !strcmp(argv[2], "-m") ? 'm' : 0;
		int skip = mode != 0;
		if (argc < 3 + skip)
			usage();
		return run(argc - 2 - skip, argv + 2 + skip, argv[0], mode);
	} else {
		usage();
	}
	return 0;
}
