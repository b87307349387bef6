/*
 * fuzz_syscalls [calls [seed [parallel [aim]]]] - random system calls must
 * never hurt the kernel.
 *
 *   calls     system calls to make in all (default 20000), up to
 *             PER_CHILD per child; counted as the children make them
 *   seed      the random seed (default 12345); the same seed makes the same
 *             calls with the same arguments (the n-th child of a fuzzer
 *             starts from seed + 0 + 2000 + ... + 2000(n-1), as always)
 *   parallel  fuzzers at once (default 1, at most 8): fuzzer k uses seed+k
 *   aim       percent of the calls aimed at the numbers the kernel has
 *             (default 0: every number 0..599 alike, most of them ENOSYS)
 *
 * Children make system calls with random numbers and random
 * arguments: small integers, -1, huge values, NULL, pointers into their
 * own memory, into unmapped space and into the kernel. Each child first
 * becomes an ordinary user (setuid 1000), so it cannot power the machine
 * off, kill other users' processes or change the scheduler's tunables;
 * it closes stdin, so no read waits for the keyboard, and writes its
 * output into a pipe that nobody reads. A child that dies of a fault, is
 * blocked (asleep for BLOCKED_MS: it reads a pipe that only it could
 * write, say; no call it makes sleeps for a time), runs for more than
 * STUCK_MS or leaves its queue changed is simply replaced, and the next
 * child goes on until the calls are made: only the kernel is under test.
 * A child tells how many calls it made through a pipe at PROGRESS_FD
 * (keyed records: the bytes its random writes put there are not taken
 * for a count), and keeps its own state in front of the buffer its calls
 * may write into (struct s below). It passes if every call returned (the kernel
 * is still here to print the result), no child was left behind, and the
 * kernel's free memory is back where it was: within HEAP_SLACK frames,
 * because the kernel heap keeps pages it has cut into small blocks (a
 * burst of open pipes and files can make it cut a few more); a leak of
 * anything per call or per child would show as far more over 25
 * children. Both lines end with the seed.
 *
 * With parallel > 1 each fuzzer is a root process of its own that runs
 * its children one after another, so that many unprivileged processes
 * make random calls at the same time. With aim > 0 a first child (uid
 * 1000 too) calls every number once with zero arguments, and those that
 * do not answer ENOSYS make the list the aimed calls are drawn from.
 *
 * Pointer arguments also point at one page that every child shares
 * (MAP_SHARED|MAP_ANONYMOUS, mapped before the first child), so the
 * memory calls (mmap, munmap, mprotect, mremap, madvise) meet shared
 * frames from several processes; the frame count afterwards includes
 * them.
 *
 * A few calls are never made, because their effect is the test's own end
 * or takes too long: fork and execve (the child would multiply or turn
 * into another program), the sleeps, and the test mutex's timed hold.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "args.h"
#include "syscall.h"
#include "testlib.h"

/* sched/sched.h's task states, as call 500 reports them */
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2

#define DEFAULT_CALLS 20000
#define DEFAULT_SEED 12345
#define PER_CHILD 2000
#define HEAP_SLACK 8
#define MAX_PARALLEL 8
#define NR_CALLS 600
#define PROGRESS_FD 15		/* NOFILE - 1: where a child reports its count */
#define PROGRESS_EVERY 64
#define BLOCKED_MS 50		/* asleep this long: blocked for good */
#define STUCK_MS 1000		/* 2000 calls take about 0.1 s */

/* Everything a child reads while it fuzzes, with the buffer its calls may
 * write into last: a call that writes past the buffer's end (a long read,
 * a struct bigger than it) cannot change the child's own state. */
static struct {
	unsigned long rng;
	int aim_pct;			/* percent aimed at implemented calls */
	int nimplemented;
	short implemented[NR_CALLS];	/* their numbers */
	char buffer[4096];		/* random_arg's valid pointer */
	char *shared;			/* and a page every child shares (MAP_SHARED) */
} s = { .rng = DEFAULT_SEED };

static unsigned long next_random(void)
{
	s.rng = s.rng * 1103515245 + 12345;
	return s.rng >> 8;
}

static long random_arg(void)
{
	switch (next_random() % 8) {
	case 0:	return 0;
	case 1:	return -1;
	case 2:	return next_random() % 16;			/* fds, small ints */
	/* a valid pointer: the child's own buffer, or the page all children
	 * share (chosen without a draw, so a seed draws what it always drew) */
	case 3:	return (s.rng & 0x100) && s.shared ? (long)s.shared : (long)s.buffer;
	case 4:	return 0xC0100000L;				/* kernel memory */
	case 5:	return 0x40000000L + (next_random() % 4096);	/* unmapped */
	case 6:	return (long)0x7FFFFFFF;
	default: return (long)next_random();
	}
}

static int excluded(long nr)
{
	switch (nr) {
	case 2: case 11: case 162: case 267:	/* fork execve nanosleep clock_nanosleep */
	case 1: case 252:			/* exit, exit_group: ends the batch early */
	case 503:				/* test mutex: a hold can sleep 10 s */
	case 29: case 179:			/* pause, rt_sigsuspend: wait for a signal */
	case 119: case 173:			/* sigreturn: jumps to a random frame's eip */
		return 1;
	default:
		return 0;
	}
}

/* With aim 0 this draws exactly what the plain fuzzer always drew. */
static long random_nr(void)
{
	if (s.aim_pct && s.nimplemented && (int)(next_random() % 100) < s.aim_pct)
		return s.implemented[next_random() % s.nimplemented];
	return next_random() % NR_CALLS;
}

/* An ordinary user with no stdin, its output going nowhere, and no file
 * of its parent's but PROGRESS_FD (a fuzzer's report pipe, say). */
static void become_harmless(void)
{
	int p[2];

	for (int fd = 3; fd < PROGRESS_FD; fd++)
		close(fd);
	/* stdout and stderr go into a pipe nobody reads (writes: EPIPE, with
	 * SIGPIPE ignored as on Linux it must be), so random buffers never
	 * reach the console. */
	signal(SIGPIPE, SIG_IGN);
	if (pipe(p) == 0) {
		close(p[0]);
		dup2(p[1], 1);
		dup2(p[1], 2);
		close(p[1]);
	}
	close(0);
	if (setuid(1000) < 0)
		_exit(2);
}

/* A progress record: the calls made so far, keyed so that bytes a random
 * write(PROGRESS_FD, ...) puts in the pipe are never taken for one. */
struct progress {
	unsigned made, check;
};

static unsigned progress_check(unsigned made, unsigned key)
{
	return (made ^ key) * 2654435761u + key;
}

static void report_progress(unsigned made, unsigned key)
{
	struct progress r = { made, progress_check(made, key) };

	write(PROGRESS_FD, &r, sizeof(r));
}

/* What the child's buffer holds at first: a path for the calls that take
 * one (open, stat, chdir, readlink, access...), /proc's among them, so the
 * random calls reach its generated files, links and directories. */
static const char *const first_paths[] = {
	"/proc/self/stat", "/proc/self", "/proc/1/status", "/proc/sys/kernel/rr_interval",
	"/proc", "/proc/self/exe", "/proc/uptime", "/proc/self/sched", "/bin", "/dev/null",
};

static void child(int calls, unsigned key)
{
	unsigned made = 0;

	become_harmless();
	strcpy(s.buffer, first_paths[key % (sizeof(first_paths) / sizeof(first_paths[0]))]);
	for (int i = 0; i < calls; i++) {
		long nr = random_nr();
		if (excluded(nr))
			continue;
		syscall5(nr, random_arg(), random_arg(), random_arg(),
			 random_arg(), random_arg());
		if (++made % PROGRESS_EVERY == 0)
			report_progress(made, key);
	}
	report_progress(made, key);
	_exit(0);
}

/* The highest count the child reported (the pipe may hold other bytes). */
static unsigned read_progress(int fd, unsigned key)
{
	static unsigned char buf[8192];
	unsigned best = 0;
	int got = 0, n;

	while (got < (int)sizeof(buf) && (n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += n;
	for (int off = 0; off + (int)sizeof(struct progress) <= got; off++) {
		struct progress r;
		memcpy(&r, buf + off, sizeof(r));
		if (r.check == progress_check(r.made, key) && r.made <= PER_CHILD &&
		    r.made > best)
			best = r.made;
	}
	return best;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* Which numbers answer something other than ENOSYS (as uid 1000, zero
 * arguments: one of the inputs the fuzzer makes anyway). */
static void find_implemented(void)
{
	unsigned char is[NR_CALLS];
	int p[2], status;
	pid_t pid;

	if (pipe(p) < 0)
		return;
	if (dup2(p[1], PROGRESS_FD) < 0 || (pid = fork()) < 0) {
		close(p[0]);
		close(p[1]);
		close(PROGRESS_FD);
		return;
	}
	if (pid == 0) {
		become_harmless();
		for (int nr = 0; nr < NR_CALLS; nr++)
			is[nr] = !excluded(nr) &&
				 syscall5(nr, 0, 0, 0, 0, 0) != -ENOSYS;
		write(PROGRESS_FD, is, sizeof(is));
		_exit(0);
	}
	close(p[1]);
	close(PROGRESS_FD);
	int got = 0, n;
	while (got < NR_CALLS && (n = read(p[0], is + got, NR_CALLS - got)) > 0)
		got += n;
	close(p[0]);
	waitpid(pid, &status, 0);
	for (int nr = 0; got == NR_CALLS && nr < NR_CALLS; nr++)
		if (is[nr])
			s.implemented[s.nimplemented++] = nr;
}

struct tally {
	long long made;			/* system calls the children made */
	int children, stuck, faulted;
	int lost;			/* a fuzzer that did not report */
	int short_of_calls;		/* a fuzzer that gave up before its share */
};

/* Run one child; kill it if it has been asleep for BLOCKED_MS (nothing it
 * can reach wakes it: no call it makes sleeps for a time), or is still
 * there after STUCK_MS. */
static int run_child(int calls, struct tally *t)
{
	/* not from next_random(): the child's calls come from s.rng as it is */
	unsigned key = (unsigned)s.rng * 2654435761u ^ (unsigned)now_ms();
	int pp[2];

	if (pipe(pp) < 0)
		return -1;
	if (dup2(pp[1], PROGRESS_FD) < 0) {
		close(pp[0]);
		close(pp[1]);
		return -1;
	}
	close(pp[1]);
	pid_t pid = fork();
	if (pid == 0) {
		close(pp[0]);
		child(calls, key);
	}
	close(PROGRESS_FD);
	if (pid < 0) {
		close(pp[0]);
		return -1;
	}
	long long start = now_ms(), asleep_since = -1;
	struct timespec poll = { 0, 1000000 };	/* leave the CPUs to the children */
	int status;
	while (waitpid(pid, &status, WNOHANG) == 0) {
		struct sched_task_info info;
		long long now = now_ms();
		int asleep = sched_stat(pid, &info) == 0 &&
			     (info.state == TASK_INTERRUPTIBLE ||
			      info.state == TASK_UNINTERRUPTIBLE);

		if (!asleep)
			asleep_since = -1;
		else if (asleep_since < 0)
			asleep_since = now;
		if (now - start > STUCK_MS ||
		    (asleep_since >= 0 && now - asleep_since >= BLOCKED_MS)) {
			kill(pid, SIGKILL);
			waitpid(pid, &status, 0);
			t->stuck++;
			status = 0;
			break;
		}
		nanosleep(&poll, NULL);
	}
	if (WIFSIGNALED(status))
		t->faulted++;
	t->made += read_progress(pp[0], key);
	close(pp[0]);
	t->children++;
	return 0;
}

/* One fuzzer: children in a row, from `seed`, until they made `calls`
 * calls (a child that faults or is stuck makes fewer than PER_CHILD). */
static void fuzzer(unsigned long seed, long long calls, struct tally *t)
{
	int limit = 4 * (calls + PER_CHILD - 1) / PER_CHILD + 4;

	s.rng = seed;
	for (int done = 0; t->made < calls; done += PER_CHILD) {
		s.rng += done;
		if (t->children >= limit || run_child(PER_CHILD, t) < 0) {
			t->short_of_calls++;
			break;
		}
	}
}

/* `calls` calls over `parallel` fuzzers at once, each a process of its
 * own (one fuzzer: in this process, as the plain fuzzer always ran). */
static void run_fuzzers(unsigned long seed, int parallel, long long calls,
			struct tally *sum)
{
	int p[2];
	pid_t pids[MAX_PARALLEL];

	if (parallel == 1) {
		fuzzer(seed, calls, sum);
		return;
	}
	if (pipe(p) < 0) {
		sum->lost = parallel;
		return;
	}
	for (int k = 0; k < parallel; k++) {
		long long mine = calls / parallel + (k < calls % parallel);
		pids[k] = fork();
		if (pids[k] == 0) {
			struct tally t = { 0 };
			close(p[0]);
			fuzzer(seed + k, mine, &t);
			write(p[1], &t, sizeof(t));
			_exit(0);
		}
	}
	close(p[1]);
	for (int k = 0; k < parallel; k++) {
		struct tally t;
		if (pids[k] < 0 || read(p[0], &t, sizeof(t)) != sizeof(t)) {
			sum->lost++;
			continue;
		}
		sum->made += t.made;
		sum->children += t.children;
		sum->stuck += t.stuck;
		sum->faulted += t.faulted;
		sum->short_of_calls += t.short_of_calls;
	}
	close(p[0]);
	for (int k = 0; k < parallel; k++)
		if (pids[k] > 0)
			waitpid(pids[k], NULL, 0);
}

static int arg_or(int argc, char **argv, int i, long lo, long hi, int def)
{
	int v = def;

	if (argc > i && !parse_int_arg(argv[i], lo, hi, &v)) {
		printf("usage: fuzz_syscalls [calls [seed [parallel [aim]]]]: bad %s\n",
		       argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	int total = arg_or(argc, argv, 1, 1, 100000000, DEFAULT_CALLS);
	unsigned long seed = arg_or(argc, argv, 2, 0, 0x7fffffff, DEFAULT_SEED);
	int parallel = arg_or(argc, argv, 3, 1, MAX_PARALLEL, 1);
	struct tally warm = { 0 }, t = { 0 };

	s.aim_pct = arg_or(argc, argv, 4, 0, 100, 0);
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);
	printf("# seed %lu, %d fuzzer%s (seeds %lu..%lu), %d calls, %d%% aimed;"
	       " again: /bin/fuzz_syscalls:%d:%lu:%d:%d\n", seed, parallel,
	       parallel > 1 ? "s" : "", seed, seed + parallel - 1, total,
	       s.aim_pct, total, seed, parallel, s.aim_pct);
	if (s.aim_pct) {
		find_implemented();
		printf("# %d of %d call numbers answer other than ENOSYS\n",
		       s.nimplemented, NR_CALLS);
	}
	/* One page shared by every child of every fuzzer (issue 25): their
	 * random calls write, unmap and reprotect it while the others use it. */
	s.shared = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (s.shared == MAP_FAILED)
		s.shared = NULL;
	/* warm the heap up: one child per fuzzer, all at once */
	run_fuzzers(seed, parallel, parallel, &warm);
	int before = free_frames();
	long long t0 = now_ms();
	run_fuzzers(seed, parallel, total, &t);
	long long ms = now_ms() - t0;
	int after = free_frames();
	ktap_ok(t.made >= total && !t.lost && !t.short_of_calls,
		"random_syscalls_leave_kernel_running",
		"%lld calls in %d children: %d died of a fault, %d were stuck and killed;"
		" %d fuzzers lost, %d gave up short; %lld ms, %lld calls/s; seed %lu",
		t.made, t.children, t.faulted, t.stuck, t.lost, t.short_of_calls,
		ms, ms > 0 ? t.made * 1000 / ms : 0, seed);
	ktap_ok(after <= before && after >= before - HEAP_SLACK,
		"random_syscalls_leak_no_memory",
		"free frames before %d, after %d (heap may keep up to %d); seed %lu",
		before, after, HEAP_SLACK, seed);
	return ktap_done();
}
