/*
 * exec_thread_leak - fork from threads, exec from a thread (issue 46,
 * items 2 and 3): free frames come back and every child ends.
 *
 *   exec_thread_leak [SECONDS [FORKERS [READERS [FILE [MODE]]]]]
 *   (defaults 4, 2, 1, all (every file), -1 (every mode in turn))
 *
 * FORKERS threads of one process each fork children in a loop for
 * SECONDS. Each child starts a thread (clone with CLONE_THREAD, as
 * pthread_create) and that thread, not the leader, execs this program
 * again ("--exit"), which exits 7 at once: the exec ends the child's
 * leader and makes the thread the group's leader (Linux's de_thread).
 * The child's leader meanwhile sleeps in thread_join, or has exited
 * already, or calls exit_group (MODE, below). READERS more threads read
 * /proc/PID/{stat,status,maps,...} (or just FILE) of the children while
 * they fork, exec and exit.
 *
 * Each child must be reaped with status 7 within CHILD_DEADLINE_MS
 * (Linux: all, always); one that is not is SIGKILLed and counted stuck.
 * Then the kernel's free frames (call 505, which lets go of exited
 * threads, drains the per-CPU caches, frees the /proc nodes no one holds
 * and the heap's wholly free pages first) must equal, exactly, the count
 * after the warm-up: rounds of the same load (each forker forking
 * WARM_FORKS children at least) until one round costs no frame. What the
 * kernel keeps at its highest peak of tasks (the page tables of the
 * kernel stacks' range) is made there; what a load leaks goes on costing
 * frames round after round, as "# round" lines show.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include "testlib.h"
#include "thread.h"

#define MAX_FORKERS	8
#define MAX_READERS	4
#define STACK_SIZE	16384
#define CHILD_DEADLINE_MS 5000
#define CHILD_STATUS	7
#define WARM_FORKS	12	/* a warm-up forker's least: every mode, 4 times */
#define WARM_ROUNDS	6

static char self_path[] = "/bin/exec_thread_leak";
static char stacks[MAX_FORKERS + MAX_READERS][STACK_SIZE] __attribute__((aligned(16)));
/* The exec'ing thread's stack in a child (each child has its own copy). */
static char child_stack[MAX_FORKERS][STACK_SIZE] __attribute__((aligned(16)));

struct forker {
	int index;
	long long until_ns;
	int min_forks;
	int forks, reaped, bad_status, stuck, fork_failed;
};

static const char *only_file;		/* argv[4]: read just this one */
static int only_mode;			/* argv[5]: only this mode; -1 each in turn */
static volatile int last_child;		/* for the readers */
static volatile int stop_readers;
static volatile long reads;

static long long now_ns(void)
{
	struct timespec ts;
	syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, (long)&ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000 };
	syscall2(__NR_nanosleep, (long)&ts, 0);
}

/* In the child: the thread that execs. Returns only if execve failed. */
static int exec_from_thread(void *arg)
{
	(void)arg;
	char *argv[] = { self_path, "--exit", NULL };
	syscall3(__NR_execve, (long)self_path, (long)argv, 0);
	syscall1(__NR_exit_group, 126);
	return 0;
}

/* How a child's leader spends the exec of its thread (fork i uses mode
 * i % CHILD_MODES): asleep in thread_join (the exec ends it), gone
 * already through exit (the thread execs beside a zombie leader, as
 * after glibc's pthread_exit in main), or racing the exec with
 * exit_group (either may win: the status says which). */
enum { LEADER_JOINS, LEADER_EXITS, LEADER_EXIT_GROUP, CHILD_MODES };
#define RACE_STATUS	3

static void child(int index, int mode)
{
	struct thread t;
	if (thread_create(&t, exec_from_thread, NULL, child_stack[index], STACK_SIZE) != 0)
		syscall1(__NR_exit_group, 125);
	if (mode == LEADER_EXITS)
		syscall1(__NR_exit, 0);		/* this thread only */
	if (mode == LEADER_EXIT_GROUP)
		syscall1(__NR_exit_group, RACE_STATUS);
	thread_join(&t, -1);
	syscall1(__NR_exit_group, 124);	/* the exec ended the join: never here */
}

/* Reap pid within the deadline, or kill it and count it stuck. */
static void reap(struct forker *f, int pid, int mode)
{
	long long deadline = now_ns() + CHILD_DEADLINE_MS * 1000000LL;
	int status = 0;
	long r;
	while ((r = syscall3(__NR_waitpid, pid, (long)&status, WNOHANG)) == 0 &&
	       now_ns() < deadline)
		sleep_us(1000);
	if (r == 0) {
		f->stuck++;
		printf("# child %d (leader mode %d) not ended after %d ms: SIGKILL\n",
		       pid, mode, CHILD_DEADLINE_MS);
		syscall2(__NR_kill, pid, SIGKILL);
		r = syscall3(__NR_waitpid, pid, (long)&status, 0);
	}
	if (r != pid)
		return;
	f->reaped++;
	bool raced = mode == LEADER_EXIT_GROUP && WIFEXITED(status) &&
		     WEXITSTATUS(status) == RACE_STATUS;
	if (!raced && (!WIFEXITED(status) || WEXITSTATUS(status) != CHILD_STATUS))
		f->bad_status++;
}

static int forker(void *arg)
{
	struct forker *f = arg;
	while (now_ns() < f->until_ns || f->forks < f->min_forks) {
		int mode = only_mode >= 0 ? only_mode : f->forks % CHILD_MODES;
		long pid = syscall0(__NR_fork);
		if (pid == 0)
			child(f->index, mode);
		if (pid < 0) {
			f->fork_failed++;
			sleep_us(1000);
			continue;
		}
		f->forks++;
		last_child = (int)pid;
		reap(f, (int)pid, mode);
	}
	return 0;
}

static const char *const proc_files[] = {
	"stat", "status", "maps", "cmdline", "environ", "statm", "task",
};

/* Read every /proc/PID file of the newest child, over and over. */
static int reader(void *arg)
{
	(void)arg;
	char path[48], buf[1024];
	while (!stop_readers) {
		int pid = last_child;
		for (unsigned i = 0; pid && i < sizeof(proc_files) / sizeof(proc_files[0]); i++) {
			if (only_file && strcmp(only_file, proc_files[i]) != 0)
				continue;
			snprintf(path, sizeof(path), "/proc/%d/%s", pid, proc_files[i]);
			long fd = syscall2(__NR_open, (long)path, O_RDONLY);
			if (fd < 0)
				continue;
			while (syscall3(__NR_read, fd, (long)buf, sizeof(buf)) > 0)
				;
			syscall1(__NR_close, fd);
			reads++;
		}
		if (!pid)
			sleep_us(1000);
	}
	return 0;
}

struct totals {
	int forks, reaped, bad_status, stuck, fork_failed;
	long reads;
};

/* One round of ms milliseconds (and min_forks forks a forker at least):
 * forkers and readers, joined. */
static void round_run(int ms, int min_forks, int forkers, int readers, struct totals *tot)
{
	static struct forker fs[MAX_FORKERS];
	static struct thread ft[MAX_FORKERS], rt[MAX_READERS];
	long long until = now_ns() + ms * 1000000LL;
	stop_readers = 0;
	reads = 0;
	last_child = 0;
	for (int i = 0; i < readers; i++)
		if (thread_create(&rt[i], reader, NULL, stacks[MAX_FORKERS + i], STACK_SIZE))
			printf("# reader %d: thread_create failed\n", i);
	for (int i = 0; i < forkers; i++) {
		fs[i] = (struct forker){ .index = i, .until_ns = until, .min_forks = min_forks };
		if (thread_create(&ft[i], forker, &fs[i], stacks[i], STACK_SIZE))
			printf("# forker %d: thread_create failed\n", i);
	}
	for (int i = 0; i < forkers; i++)
		thread_join(&ft[i], -1);
	stop_readers = 1;
	for (int i = 0; i < readers; i++)
		thread_join(&rt[i], -1);
	*tot = (struct totals){ .reads = reads };
	for (int i = 0; i < forkers; i++) {
		tot->forks += fs[i].forks;
		tot->reaped += fs[i].reaped;
		tot->bad_status += fs[i].bad_status;
		tot->stuck += fs[i].stuck;
		tot->fork_failed += fs[i].fork_failed;
	}
}

static void totals_add(struct totals *to, const struct totals *t)
{
	to->forks += t->forks;
	to->reaped += t->reaped;
	to->bad_status += t->bad_status;
	to->stuck += t->stuck;
	to->fork_failed += t->fork_failed;
	to->reads += t->reads;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--exit") == 0)
		return CHILD_STATUS;
	int seconds = argc > 1 ? atoi(argv[1]) : 4;
	int forkers = argc > 2 ? atoi(argv[2]) : 2;
	int readers = argc > 3 ? atoi(argv[3]) : 1;
	only_file = argc > 4 && strcmp(argv[4], "all") != 0 ? argv[4] : NULL;
	only_mode = argc > 5 ? atoi(argv[5]) : -1;
	if (seconds < 1 || forkers < 1 || forkers > MAX_FORKERS ||
	    readers < 0 || readers > MAX_READERS) {
		printf("usage: exec_thread_leak [SECONDS [FORKERS(1-8) [READERS(0-4) [FILE [MODE(0-2)]]]]]\n");
		return 2;
	}
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);
	struct totals t;
	/* Warm-up: rounds until one costs no frame (at most WARM_ROUNDS). */
	int before = free_frames(), prev;
	for (int w = 0; w < WARM_ROUNDS; w++) {
		prev = before;
		round_run(500, WARM_FORKS, forkers, readers, &t);
		before = free_frames();
		if (w > 0 && before == prev)
			break;
	}
	struct totals all = { 0 };
	int after = before;
	for (int r = 0; r < seconds; r++) {	/* a second a round */
		round_run(1000, 0, forkers, readers, &t);
		after = free_frames();
		totals_add(&all, &t);
		printf("# round %d: %d forks, free frames %d\n", r + 1, t.forks, after);
	}
	t = all;
	ktap_ok(t.stuck == 0 && t.bad_status == 0 && t.reaped == t.forks && t.forks > 0,
		    "exec_from_thread_children_all_end",
		    "%d forks from %d threads, %d reaped, %d stuck past %d ms, %d bad statuses, "
		    "%d forks failed, %ld /proc reads",
		    t.forks, forkers, t.reaped, t.stuck, CHILD_DEADLINE_MS, t.bad_status,
		    t.fork_failed, t.reads);
	ktap_ok(before == after, "exec_from_thread_free_frames_back_to_baseline",
		    "free frames before %d, after %d", before, after);
	return ktap_done();
}
