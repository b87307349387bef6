/*
 * nice - run a command with a changed nice value.
 *
 *   nice                     print the current nice value
 *   nice [-n N] COMMAND...   run COMMAND with nice increased by N (default 10)
 *
 * Nice sets a NORMAL task's top stair: static_prio = 120 + nice
 * (staircase.md §1), and with it the whole slice: nice 0 gets 20 RR, nice 10 gets
 * 10 RR, so two hogs at nice 0 and 10 share a CPU about 2:1 (§10.3).
 * Lowering nice needs root; like GNU nice, a refused change is reported and
 * the command runs anyway.  Same on Linux.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "args.h"

static int usage(void)
{
	fprintf(stderr, "usage: nice [-n N] COMMAND [ARG...]   (N -20..19, default 10)\n"
		"       nice                          (print the current nice value)\n");
	return 2;
}

static int parse_int(const char *s, int *out)
{
	return parse_int_arg(s, -1000000, 1000000, out);
}

int main(int argc, char **argv)
{
	int inc = 10, i = 1, n;
	char path[256];
	const char *slash = strrchr(argv[0], '/');

	if (argc == 1) {
		errno = 0;
		n = getpriority(PRIO_PROCESS, 0);
		if (n == -1 && errno) {
			printf("nice: getpriority: %s\n", strerror(errno));
			return 1;
		}
		printf("%d\n", n);
		return 0;
	}
	if (strcmp(argv[1], "-n") == 0) {
		if (argc < 3 || !parse_int(argv[2], &inc)) {
			fprintf(stderr, "nice: bad nice value '%s'\n",
				argc < 3 ? "" : argv[2]);
			return usage();
		}
		i = 3;
	} else if (argv[1][0] == '-') {
		fprintf(stderr, "nice: unknown option '%s'\n", argv[1]);
		return usage();
	}
	if (i >= argc) {
		fprintf(stderr, "nice: no command given\n");
		return usage();
	}

	errno = 0;
	n = nice(inc);
	if (n == -1 && errno)
		printf("nice: cannot change nice by %d: %s%s (running it anyway)\n",
		       inc, strerror(errno), errno == EPERM ? ", lowering needs root" : "");

	if (strchr(argv[i], '/'))
		snprintf(path, sizeof(path), "%s", argv[i]);
	else if (slash && slash != argv[0])
		snprintf(path, sizeof(path), "%.*s/%s", (int)(slash - argv[0]),
			 argv[0], argv[i]);
	else
		snprintf(path, sizeof(path), "/bin/%s", argv[i]);
	const char *name = argv[i];
	argv[i] = path;
	execve(path, argv + i, environ);
	printf("nice: %s: %s\n", name, strerror(errno));
	return 127;
}
