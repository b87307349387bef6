/*
 * forktree - a tree of 50 processes built with fork, execve and wait.
 *
 * Node k (the root is node 0, the program as started) has children 2k+1
 * and 2k+2, up to node 50.  Each child execs this program again as
 * "forktree --node k", forks its own children, waits for them, and exits
 * with the number of processes in its subtree that were reaped with the
 * right status (itself included).  So each exit status checks a whole
 * subtree, and the root expects 50 in total.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"

#define NODES 50	/* not counting the root */

static const char *self;

static int subtree_size(int k)
{
	return k > NODES ? 0 : 1 + subtree_size(2 * k + 1) +
				    subtree_size(2 * k + 2);
}

/* Start node k as a new process running this program. */
static pid_t spawn(int k)
{
	char arg[16];
	char *argv[] = { (char *)self, "--node", arg, NULL };
	pid_t pid = fork();

	if (pid == 0) {
		snprintf(arg, sizeof(arg), "%d", k);
		execve(self, argv, environ);
		_exit(0);	/* reports "0 processes good" */
	}
	return pid;
}

/* Fork node k's children, reap them, return how many processes below k
 * were reaped with the status their subtree should give. */
static int reap_children(int k)
{
	int good = 0;

	for (int c = 2 * k + 1; c <= 2 * k + 2 && c <= NODES; c++) {
		int status;
		pid_t pid = spawn(c);

		if (pid < 0) {
			printf("forktree: node %d: fork: %s\n", k, strerror(errno));
			continue;
		}
		if (waitpid(pid, &status, 0) != pid) {
			printf("forktree: node %d: waitpid: %s\n", k,
			       strerror(errno));
			continue;
		}
		if (WIFEXITED(status) &&
		    WEXITSTATUS(status) == subtree_size(c))
			good += subtree_size(c);
		else
			printf("forktree: node %d: status 0x%x, want exit %d\n",
			       c, status, subtree_size(c));
	}
	return good;
}

int main(int argc, char **argv)
{
	int good;

	self = argv[0];
	if (!strchr(self, '/'))
		self = "/bin/forktree";
	if (argc == 3 && strcmp(argv[1], "--node") == 0)
		return 1 + reap_children(atoi(argv[2]));

	good = reap_children(0);
	ktap_plan(1);
	ktap_ok(good == NODES, "forktree_all_reaped_with_right_status",
		"%d of %d processes", good, NODES);
	return ktap_done();
}
