/*
 * forkbomb - an ordinary user's fork bomb cannot take the machine from root
 * (docs/kernel.md, "Limits").
 *
 * forkbomb [--check] [SECONDS]
 * forkbomb --at-limit [SECONDS]
 *
 * A uid-1000 process starts a classic bomb: every process forks as fast as
 * it can, and every child does the same, for SECONDS (3); then each waits for
 * its children and exits, reporting whether any fork of its subtree failed
 * with EAGAIN. Meanwhile root, at nice 0 like everyone else, sleeps 10 ms
 * at a time and measures how late each sleep ends. The per-user limit
 * (RLIMIT_NPROC, 64 processes by default) and the slots kept for root
 * bound the bomb; then root must still be able to fork.
 *
 * Checks: the bomb's forks fail with EAGAIN; root can fork in the middle of
 * the bomb (before the limit, the table filled up and it could not); root's
 * 10 ms sleeps are never
 * more than 50 ms late during the bomb (in virtual time; a busy host can
 * stall a real-time boot for longer, so the bound is checked with
 * --check, as the test case does); root forks afterwards; an ordinary user
 * cannot raise its hard limit. On Linux it runs too (its limit is its own).
 *
 * --at-limit (this kernel only): root lifts the bomb's RLIMIT_NPROC, so
 * the bomb grows to threads-max (/proc/sys/kernel/threads-max) but the
 * last 16 tasks, which only root may take. Checks: the bomb stops there
 * (/proc/loadavg's total); root still forks; root's kill(-1, SIGKILL)
 * ends the bomb (every process but init and root's own), and all of it is
 * reaped (init takes the orphans).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "testlib.h"

#define SLEEP_NS 10000000LL
#define LATE_BOUND_NS 50000000LL

/* Fork until the deadline; exit 42 if a fork in this subtree got EAGAIN. */
static void bomber(long long deadline)
{
	int eagain = 0, other = 0, status;

	while (monotonic_ns() < deadline) {
		pid_t pid = fork();
		if (pid == 0) {
			eagain = other = 0;	/* a new bomber */
			continue;
		}
		if (pid < 0) {
			if (errno == EAGAIN)
				eagain = 1;
			else
				other = 1;
		}
	}
	while (wait(&status) > 0)
		if (WIFEXITED(status) && WEXITSTATUS(status) == 42)
			eagain = 1;
	_exit(other ? 1 : eagain ? 42 : 0);
}

#define ROOT_RESERVE 16		/* kernel/task/proc.h's NPROC_ROOT_RESERVE */

/* Live tasks: the "total" of /proc/loadavg's "running/total". */
static int live_tasks(void)
{
	return test_read_number("/proc/loadavg", '/');
}

/* Wait until the number of live tasks has not changed for 300 ms (or
 * the deadline passes); that number. */
static int settled_tasks(long long deadline)
{
	int last = -1, same = 0;
	while (monotonic_ns() < deadline && same < 3) {
		int now = live_tasks();
		same = now == last ? same + 1 : 0;
		last = now;
		test_sleep_ms(100);
	}
	return last;
}

/* Has uid 1000 no task left, zombies included? Then, and only then, a
 * uid-1000 child with RLIMIT_NPROC 2 can fork. */
static int bomb_user_gone(void)
{
	int status;
	pid_t c = fork();
	if (c == 0) {
		struct rlimit two = { 2, 2 };
		if (setrlimit(RLIMIT_NPROC, &two) < 0 || setuid(1000) < 0)
			_exit(2);
		pid_t g = fork();
		if (g == 0)
			_exit(0);
		if (g > 0)
			waitpid(g, NULL, 0);
		_exit(g > 0 ? 0 : 1);
	}
	return c > 0 && waitpid(c, &status, 0) == c && WIFEXITED(status) && WEXITSTATUS(status) == 0;
}

static int at_limit(int seconds)
{
	int status;
	struct rlimit unlimited = { RLIM_INFINITY, RLIM_INFINITY };

	test_require_our_kernel(0, NULL, 0);
	int threads_max = test_read_number("/proc/sys/kernel/threads-max", 0);
	ktap_plan(4);
	ktap_note("threads-max %d; the bomb may have %d", threads_max, threads_max - ROOT_RESERVE);
	long long deadline = monotonic_ns() + seconds * 1000000000LL;
	pid_t leader = fork();
	if (leader == 0) {
		if (setrlimit(RLIMIT_NPROC, &unlimited) < 0 || setuid(1000) < 0)
			_exit(2);
		bomber(deadline);
	}
	int tasks = settled_tasks(deadline);
	ktap_ok(tasks == threads_max - ROOT_RESERVE, "bomb_stops_at_threads_max_less_roots_reserve",
		"%d live tasks, want %d", tasks, threads_max - ROOT_RESERVE);
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	ktap_ok(c > 0 && waitpid(c, NULL, 0) == c, "root_forks_at_the_limit", "fork returned %d (%s)",
		c, c < 0 ? strerror(errno) : "ok");
	int r = kill(-1, SIGKILL);
	waitpid(leader, &status, 0);
	ktap_ok(r == 0 && WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL, "root_kills_the_bomb",
		"kill(-1, SIGKILL) returned %d; the bomb's leader status 0x%x", r, status);
	long long give_up = monotonic_ns() + 20 * 1000000000LL;
	int gone;
	while (!(gone = bomb_user_gone()) && monotonic_ns() < give_up)
		test_sleep_ms(100);
	ktap_ok(gone, "the_whole_bomb_is_reaped", "uid 1000 %s; %d live tasks (init and me: 2)",
		gone ? "has no task left" : "still has tasks after 20 s", live_tasks());
	return ktap_done();
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--at-limit") == 0)
		return at_limit(argc > 2 ? atoi(argv[2]) : 3);
	int check = argc > 1 && strcmp(argv[1], "--check") == 0, status = 0, n = 0;
	int seconds = argc > 1 + check ? atoi(argv[1 + check]) : 3;
	long long worst = 0, sum = 0;
	struct rlimit rl;

	if (getuid() != 0)
		ktap_skip_all("needs root (the bomb drops to uid 1000)");
	ktap_plan(6);
	if (seconds < 1 || seconds > 600)
		seconds = 3;
	long long deadline = monotonic_ns() + seconds * 1000000000LL;
	pid_t leader = fork();
	if (leader == 0) {
		if (setuid(1000) < 0)
			_exit(2);
		bomber(deadline);
	}
	long long midpoint = deadline - seconds * 500000000LL;
	int mid_fork = 0, mid_errno = 0;
	while (monotonic_ns() < deadline) {
		struct timespec ts = { 0, SLEEP_NS };
		if (!mid_fork && monotonic_ns() >= midpoint) {
			/* the bomb is at its limit now: root must still fork */
			pid_t c = fork();
			if (c == 0)
				_exit(0);
			mid_fork = c > 0 ? 1 : -1;
			mid_errno = c > 0 ? 0 : errno;
			if (c > 0)
				waitpid(c, NULL, 0);
		}
		long long t0 = monotonic_ns();
		nanosleep(&ts, NULL);
		long long late = monotonic_ns() - t0 - SLEEP_NS;
		if (late > worst)
			worst = late;
		sum += late;
		n++;
	}
	waitpid(leader, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 42,
		"bomb_forks_fail_with_eagain", "bomb leader exit status %d (42: a fork "
		"failed with EAGAIN; 1: another error)", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	ktap_ok(!check || worst <= LATE_BOUND_NS, "root_sleeps_stay_on_time_during_the_bomb",
		"%d sleeps of 10 ms: late avg %lld us, max %lld us%s", n,
		n ? sum / n / 1000 : 0, worst / 1000, check ? "; want max <= 50000 us" : "");
	ktap_ok(mid_fork == 1, "root_forks_during_the_bomb",
		"fork %s (slots are kept for root)", mid_fork == 1 ? "succeeded" :
		mid_errno == EAGAIN ? "failed: EAGAIN" : "failed");
	pid_t pid = fork();
	if (pid == 0)
		_exit(0);
	ktap_ok(pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status),
		"root_forks_after_the_bomb", "fork returned %d", pid);
	getrlimit(RLIMIT_NPROC, &rl);
	ktap_note("RLIMIT_NPROC: soft %lu, hard %lu", rl.rlim_cur, rl.rlim_max);
	pid = fork();
	if (pid == 0) {
		struct rlimit up;
		setuid(1000);
		getrlimit(RLIMIT_NPROC, &up);
		up.rlim_max = up.rlim_max == RLIM_INFINITY ? RLIM_INFINITY : up.rlim_max + 1;
		int r = up.rlim_max == RLIM_INFINITY ? 0 : setrlimit(RLIMIT_NPROC, &up);
		_exit(up.rlim_max == RLIM_INFINITY ? 0 : r < 0 && errno == EPERM ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"ordinary_user_cannot_raise_its_hard_nproc_limit", "child status %d",
		WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	pid = fork();
	if (pid == 0) {
		struct rlimit bad = { 10, 5 };
		_exit(setrlimit(RLIMIT_NPROC, &bad) < 0 && errno == EINVAL ? 0 : 1);
	}
	waitpid(pid, &status, 0);
	ktap_ok(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		"soft_limit_above_hard_is_einval", "child status %d",
		WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	return ktap_done();
}
