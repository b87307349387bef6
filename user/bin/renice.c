/*
 * renice - set the nice value of running processes.
 *
 *   renice [-n] N [-p] PID...
 *
 * Sets nice to N (absolute, -20..19; values outside are clamped by the
 * kernel, as on Linux) and prints the old and new value.  The task's stair
 * moves by the same delta at once (staircase.md §6.7, "nice change").  Lowering
 * nice, or changing another user's task, needs root.  Same on Linux.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "args.h"

static int usage(void)
{
	fprintf(stderr, "usage: renice [-n] N [-p] PID...   (N -20..19)\n");
	return 2;
}

static int parse_int(const char *s, int *out)
{
	return parse_int_arg(s, -1000000, 1000000, out);
}

int main(int argc, char **argv)
{
	int i = 1, value, status = 0, npids = 0;

	if (i < argc && strcmp(argv[i], "-n") == 0)
		i++;
	if (i >= argc)
		return usage();
	if (!parse_int(argv[i], &value)) {
		fprintf(stderr, "renice: bad nice value '%s'\n", argv[i]);
		return usage();
	}
	for (i++; i < argc; i++) {
		int pid, old;

		if (strcmp(argv[i], "-p") == 0)
			continue;
		if (!parse_int(argv[i], &pid) || pid <= 0) {
			fprintf(stderr, "renice: bad pid '%s'\n", argv[i]);
			return usage();
		}
		npids++;
		errno = 0;
		old = getpriority(PRIO_PROCESS, pid);
		if (old == -1 && errno) {
			printf("renice: %d: %s\n", pid, strerror(errno));
			status = 1;
			continue;
		}
		if (setpriority(PRIO_PROCESS, pid, value) < 0) {
			printf("renice: %d: cannot set nice %d: %s%s\n", pid, value,
			       strerror(errno),
			       errno == EACCES || errno == EPERM ?
			       " (lowering nice or another user's task needs root)" : "");
			status = 1;
			continue;
		}
		printf("%d (process ID) old priority %d, new priority %d\n", pid,
		       old, getpriority(PRIO_PROCESS, pid));
	}
	if (npids == 0) {
		fprintf(stderr, "renice: no pid given\n");
		return usage();
	}
	return status;
}
