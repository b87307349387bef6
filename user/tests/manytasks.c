/*
 * manytasks - a thousand children asleep at once, all found and all
 * reaped (docs/kernel.md, "Tasks and their limits"). Until issue 32 the
 * kernel had a table of 256 process slots.
 *
 *   manytasks [N]     (N children, 1000 by default)
 *
 * The children sleep in pause(), in one process group that the parent
 * makes (setpgid on each child, so no child need run first). Checks: all
 * N forks succeed; none has ended before the kill (waitpid WNOHANG finds
 * none); /proc lists a directory for each and /proc/loadavg counts them;
 * kill(-1, 0) finds someone; kill(-pgid, SIGTERM) reaches the whole
 * group; waitpid(-1) reaps exactly N, each ended by SIGTERM, and then
 * says ECHILD. Runs on Linux too.
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "testlib.h"

#define MAX_CHILDREN 4000

static pid_t kids[MAX_CHILDREN];

/* How many of kids[0..n) have a directory in /proc. */
static int listed_in_proc(int n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	int found = 0;
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL) {
		pid_t pid = (pid_t)atoi(e->d_name);
		for (int i = 0; pid > 0 && i < n; i++)
			if (kids[i] == pid) {
				found++;
				break;
			}
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 1000, forked = 0, err = 0;

	if (n < 1 || n > MAX_CHILDREN)
		n = 1000;
	ktap_plan(7);
	for (; forked < n; forked++) {
		pid_t pid = fork();
		if (pid == 0) {
			for (;;)
				pause();
		}
		if (pid < 0) {
			err = errno;
			break;
		}
		kids[forked] = pid;
		setpgid(pid, kids[0]);		/* the first child leads the group */
	}
	ktap_ok(forked == n, "fork_all_children", "%d of %d forked%s%s", forked, n,
		err ? ", then " : "", err ? strerror(err) : "");
	int status;
	pid_t early = waitpid(-1, &status, WNOHANG);
	ktap_ok(early == 0, "all_children_alive_at_once", "waitpid(WNOHANG) returned %d", early);
	int listed = listed_in_proc(forked);
	ktap_ok(listed == forked, "proc_lists_every_child", "%d of %d in /proc", listed, forked);
	int total = test_read_number("/proc/loadavg", '/');
	ktap_ok(total > forked, "loadavg_counts_every_child", "/proc/loadavg total %d, want > %d",
		total, forked);
	ktap_ok(kill(-1, 0) == 0, "kill_minus_one_finds_them", "kill(-1, 0): %s",
		strerror(errno));
	int r = forked ? kill(-kids[0], SIGTERM) : -1;
	ktap_ok(r == 0, "kill_the_group", "kill(-%d, SIGTERM) returned %d", forked ? kids[0] : 0, r);
	int reaped = 0, by_term = 0;
	pid_t pid;
	while ((pid = waitpid(-1, &status, 0)) > 0) {
		reaped++;
		by_term += WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
	}
	int last_errno = errno;
	ktap_ok(reaped == forked && by_term == forked && last_errno == ECHILD,
		"waitpid_reaps_every_child", "%d reaped, %d by SIGTERM, of %d; then %s",
		reaped, by_term, forked, strerror(last_errno));
	return ktap_done();
}
