/*
 * fuzz_mm - threads and mappings at random (issue 46): the kernel keeps
 * running, and every frame comes back.
 *
 *   fuzz_mm [ROUNDS [SECONDS [SEED [THREADS]]]]  (defaults 3, 4, 1, 8)
 *   fuzz_mm --exit                                (what exec'd children run)
 *
 * Each round is one process of uid 1000 whose THREADS threads, for
 * SECONDS, pick calls at random (a seeded xorshift each, SEED + round *
 * 100 + thread): mmap (private or shared, a hint or MAP_FIXED inside a
 * 16 MiB window), munmap, mprotect, mremap (growing, shrinking, moving),
 * madvise(MADV_DONTNEED), brk up and down, touching pages through the
 * kernel (read from /dev/zero into them, write from them to /dev/null:
 * EFAULT where nothing is mapped, never a fault), futex waits (1 ms) and
 * wakes on words of the window, a short-lived thread, fork (the child
 * touches pages, copy-on-write, and exits), fork and exec of this program
 * from a new thread of the child (de_thread), and reads of
 * /proc/self/{maps,status,stat,statm} and of the round's /proc/PID/maps
 * from its threads. Every call's address may be unmapped, unaligned or
 * half outside a mapping; nothing is checked but that the kernel lives.
 * Even rounds end by themselves (each thread reaps its children and
 * returns, the leader exits); odd rounds are SIGKILLed by the parent
 * while every thread is busy.
 *
 * After each round the kernel's free frames (call 505: exited threads
 * freed, caches drained, the heap shrunk) must equal the count after the
 * first round, the warm-up (what the highest peak of tasks keeps: the
 * kernel stacks' page tables), exactly. Orphaned grandchildren of a
 * killed round end by themselves; the count is retried for 2 s while
 * they go. Prints "# round" lines and two KTAP results.
 */
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include "testlib.h"
#include "thread.h"

#define MAX_THREADS	8
#define STACK_SIZE	16384
#define WINDOW		0x50000000u	/* where the calls aim */
#define WINDOW_PAGES	4096u		/* 16 MiB */
#define PAGE		4096u
#define FUZZ_UID	1000
#define SETTLE_TRIES	20		/* x 100 ms: orphans of a killed round end */
#define MADV_DONTNEED_	4

enum op { OP_MMAP, OP_MUNMAP, OP_MPROTECT, OP_MREMAP, OP_MADVISE, OP_BRK, OP_TOUCH,
	  OP_FUTEX, OP_THREAD, OP_FORK, OP_EXEC, OP_PROC, NOPS };
static const char *const op_names[NOPS] = {
	"mmap", "munmap", "mprotect", "mremap", "madvise", "brk", "touch",
	"futex", "thread", "fork", "exec", "proc",
};

struct worker {
	unsigned rng;
	long long until_ns;
	int index;
	struct thread helper;		/* OP_THREAD's short-lived thread */
};

/* Shared with the parent through a MAP_SHARED page: each round's counts. */
struct tally {
	long ops[NOPS];
	long us[NOPS];			/* time the calls took, for the rates */
};

static struct tally *tally;
static struct worker workers[MAX_THREADS];
static char stacks[MAX_THREADS][STACK_SIZE] __attribute__((aligned(16)));
static char helper_stacks[MAX_THREADS][STACK_SIZE] __attribute__((aligned(16)));
static char exec_stack[STACK_SIZE] __attribute__((aligned(16)));
static int fd_zero = -1, fd_null = -1, round_pid;
static char self_path[] = "/bin/fuzz_mm";

static long long now_ns(void)
{
	struct timespec ts;
	syscall2(__NR_clock_gettime, CLOCK_MONOTONIC, (long)&ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static unsigned next(unsigned *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* An address in the window: page-aligned three times in four. */
static unsigned long some_addr(unsigned *s)
{
	unsigned long a = WINDOW + (next(s) % WINDOW_PAGES) * PAGE;
	return next(s) % 4 ? a : a + next(s) % PAGE;
}

/* A length of 1 to 64 pages, now and then not a whole page. */
static unsigned long some_len(unsigned *s)
{
	unsigned long len = (1 + next(s) % 64) * PAGE;
	return next(s) % 8 ? len : len - next(s) % PAGE;
}

static int some_prot(unsigned *s)
{
	static const int prots[] = { PROT_NONE, PROT_READ, PROT_READ | PROT_WRITE,
				     PROT_READ | PROT_EXEC, PROT_READ | PROT_WRITE | PROT_EXEC };
	return prots[next(s) % 5];
}

static void do_mmap(unsigned *s)
{
	int flags = (next(s) % 4 ? MAP_PRIVATE : MAP_SHARED) | MAP_ANONYMOUS;
	if (next(s) % 2)
		flags |= MAP_FIXED;
	unsigned long a = some_addr(s) & ~(PAGE - 1), len = some_len(s);
	if (a + len > WINDOW + WINDOW_PAGES * PAGE)
		len = WINDOW + WINDOW_PAGES * PAGE - a;
	long r = syscall6(__NR_mmap2, (long)a, (long)len, some_prot(s), flags, -1, 0);
	/* A hint the kernel could not take lands elsewhere: give it back, so
	 * that the process stays inside its window. */
	if (r > 0 && ((unsigned long)r < WINDOW || (unsigned long)r >= WINDOW + WINDOW_PAGES * PAGE))
		syscall2(__NR_munmap, r, (long)len);
}

static void do_mremap(unsigned *s)
{
	unsigned long old = some_addr(s), len = some_len(s), new_len = some_len(s);
	long r = syscall4(__NR_mremap, (long)old, (long)len, (long)new_len,
			  next(s) % 2 ? MREMAP_MAYMOVE : 0);
	if (r > 0 && ((unsigned long)r < WINDOW || (unsigned long)r >= WINDOW + WINDOW_PAGES * PAGE))
		syscall2(__NR_munmap, r, (long)new_len);
}

static void do_brk(unsigned *s)
{
	static unsigned long base;	/* the first brk: racy, any is fine */
	if (!base)
		base = (unsigned long)syscall1(__NR_brk, 0);
	syscall1(__NR_brk, (long)(base + (next(s) % 256) * PAGE));
}

/* Pages touched through the kernel: EFAULT where nothing is mapped. */
static void do_touch(unsigned *s)
{
	unsigned long a = some_addr(s), len = 1 + next(s) % (4 * PAGE);
	if (next(s) % 2)
		syscall3(__NR_read, fd_zero, (long)a, (long)len);
	else
		syscall3(__NR_write, fd_null, (long)a, (long)len);
}

static void do_futex(unsigned *s)
{
	struct timespec ms = { 0, 1000000 };
	long word = (long)(some_addr(s) & ~3ul);
	if (next(s) % 2)
		syscall4(__NR_futex, word, 0 /* FUTEX_WAIT */, 0, (long)&ms);
	else
		syscall3(__NR_futex, word, 1 /* FUTEX_WAKE */, 1 + next(s) % 4);
}

static void do_proc(unsigned *s)
{
	static const char *const files[] = { "maps", "status", "stat", "statm" };
	char path[48], buf[512];
	if (next(s) % 2)
		snprintf(path, sizeof(path), "/proc/self/%s", files[next(s) % 4]);
	else
		snprintf(path, sizeof(path), "/proc/%d/maps", round_pid);
	long fd = syscall2(__NR_open, (long)path, O_RDONLY);
	if (fd < 0)
		return;
	while (syscall3(__NR_read, fd, (long)buf, sizeof(buf)) > 0)
		;
	syscall1(__NR_close, fd);
}

static void random_op(unsigned *s, enum op op);

/* OP_THREAD's thread: a few calls, then it ends. */
static int helper(void *arg)
{
	unsigned s = (unsigned)(long)arg | 1;
	for (int i = 0; i < 16; i++)
		random_op(&s, (enum op)(next(&s) % OP_THREAD));	/* no thread, fork or exec */
	return 0;
}

static void do_thread(struct worker *w)
{
	if (w->helper.tid)
		return;			/* the last one still runs */
	thread_create(&w->helper, helper, (void *)(long)next(&w->rng),
		      helper_stacks[w->index], STACK_SIZE);
}

/* In an exec child: a new thread execs this program (--exit). */
static int exec_self(void *arg)
{
	(void)arg;
	char *argv[] = { self_path, "--exit", NULL };
	syscall3(__NR_execve, (long)self_path, (long)argv, 0);
	syscall1(__NR_exit_group, 126);
	return 0;
}

static void do_fork(unsigned *s, bool exec)
{
	long pid = syscall0(__NR_fork);
	if (pid == 0) {
		if (exec) {
			struct thread t;
			if (thread_create(&t, exec_self, NULL, exec_stack, STACK_SIZE) == 0)
				thread_join(&t, -1);
			syscall1(__NR_exit_group, 125);
		}
		for (int i = 0; i < 8; i++)
			do_touch(s);
		syscall1(__NR_exit_group, 0);
	}
	if (pid > 0)
		syscall4(__NR_wait4, pid, 0, 0, 0);
}

static void random_op(unsigned *s, enum op op)
{
	switch (op) {
	case OP_MMAP:	  do_mmap(s); break;
	case OP_MUNMAP:	  syscall2(__NR_munmap, (long)some_addr(s), (long)some_len(s)); break;
	case OP_MPROTECT: syscall3(__NR_mprotect, (long)some_addr(s), (long)some_len(s),
				   some_prot(s)); break;
	case OP_MREMAP:	  do_mremap(s); break;
	case OP_MADVISE:  syscall3(__NR_madvise, (long)some_addr(s), (long)some_len(s),
				   MADV_DONTNEED_); break;
	case OP_BRK:	  do_brk(s); break;
	case OP_TOUCH:	  do_touch(s); break;
	case OP_FUTEX:	  do_futex(s); break;
	case OP_PROC:	  do_proc(s); break;
	default:	  break;
	}
}

/* Forks, execs and threads are rarer than the rest: one call in 64 each. */
static enum op pick(unsigned *s)
{
	unsigned r = next(s) % 64;
	if (r == 0)
		return OP_FORK;
	if (r == 1)
		return OP_EXEC;
	if (r == 2)
		return OP_THREAD;
	static const enum op plain[] = { OP_MMAP, OP_MUNMAP, OP_MPROTECT, OP_MREMAP, OP_MADVISE,
					 OP_BRK, OP_TOUCH, OP_FUTEX, OP_PROC };
	return plain[r % (sizeof(plain) / sizeof(plain[0]))];
}

static int worker(void *arg)
{
	struct worker *w = arg;
	long long t = now_ns();
	while (t < w->until_ns) {
		enum op op = pick(&w->rng);
		if (op == OP_THREAD)
			do_thread(w);
		else if (op == OP_FORK || op == OP_EXEC)
			do_fork(&w->rng, op == OP_EXEC);
		else
			random_op(&w->rng, op);
		long long t1 = now_ns();
		__atomic_add_fetch(&tally->ops[op], 1, __ATOMIC_RELAXED);	/* a killed round counts too */
		__atomic_add_fetch(&tally->us[op], (long)((t1 - t) / 1000), __ATOMIC_RELAXED);
		t = t1;
	}
	if (w->helper.tid)
		thread_join(&w->helper, -1);
	return 0;
}

/* The round's process: uid 1000, THREADS workers, then exit. */
static void round_child(int round, int seconds, int seed, int threads)
{
	struct thread t[MAX_THREADS];
	if (syscall1(__NR_setuid32, FUZZ_UID) < 0)
		syscall1(__NR_exit_group, 3);
	round_pid = (int)syscall0(__NR_getpid);
	long long until = now_ns() + seconds * 1000000000LL;
	for (int i = 0; i < threads; i++) {
		workers[i] = (struct worker){ .rng = (unsigned)(seed + round * 100 + i) | 1,
					      .until_ns = until, .index = i };
		if (thread_create(&t[i], worker, &workers[i], stacks[i], STACK_SIZE) != 0)
			syscall1(__NR_exit_group, 4);
	}
	for (int i = 0; i < threads; i++)
		thread_join(&t[i], -1);
	syscall1(__NR_exit_group, 0);
}

/* Free frames once the orphans of a killed round are gone: the first
 * count that equals want, or the last of SETTLE_TRIES. */
static int settled_frames(int want)
{
	int n = free_frames();
	for (int i = 0; i < SETTLE_TRIES && n != want; i++) {
		test_sleep_ms(100);
		n = free_frames();
	}
	return n;
}

/* One round; returns how it ended: 0 by itself, 1 killed, -1 wrong. */
static int run_round(int round, int seconds, int seed, int threads)
{
	memset(tally, 0, sizeof(*tally));
	pid_t pid = fork();
	if (pid == 0)
		round_child(round, seconds, seed, threads);
	if (pid < 0)
		return -1;
	bool kill_it = round % 2;
	int status = 0;
	if (kill_it) {
		test_sleep_ms(seconds * 1000 - 200);
		kill(pid, SIGKILL);
	}
	waitpid(pid, &status, 0);
	if (kill_it)
		return WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL ? 1 : -1;
	return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--exit") == 0)
		return 0;
	int rounds = argc > 1 ? atoi(argv[1]) : 3;
	int seconds = argc > 2 ? atoi(argv[2]) : 4;
	int seed = argc > 3 ? atoi(argv[3]) : 1;
	int threads = argc > 4 ? atoi(argv[4]) : MAX_THREADS;
	if (rounds < 1 || seconds < 1 || threads < 1 || threads > MAX_THREADS) {
		printf("usage: fuzz_mm [ROUNDS [SECONDS [SEED [THREADS(1-%d)]]]]\n", MAX_THREADS);
		return 2;
	}
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);
	tally = mmap(NULL, sizeof(*tally), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	fd_zero = open("/dev/zero", O_RDWR);
	fd_null = open("/dev/null", O_RDWR);
	if (tally == MAP_FAILED || fd_zero < 0 || fd_null < 0) {
		printf("fuzz_mm: setup failed\n");
		return 1;
	}
	int base = 0, after = 0, wrong = 0, leaky = 0;
	long total = 0;
	for (int r = 0; r <= rounds; r++) {	/* round 0: the warm-up */
		int how = run_round(r, r ? seconds : 2, seed, threads);
		wrong += how < 0;
		after = r ? settled_frames(base) : free_frames();
		if (!r)
			base = after;
		leaky += after != base;
		long ops = 0;
		char line[512];
		int at = 0;
		for (int i = 0; i < NOPS; i++) {
			ops += tally->ops[i];
			at += snprintf(line + at, sizeof(line) - at, " %s %ld (%ld us)", op_names[i],
				       tally->ops[i], tally->ops[i] ? tally->us[i] / tally->ops[i] : 0);
		}
		total += r ? ops : 0;
		printf("# round %d (%s): %ld calls:%s; free frames %d\n", r,
		       how < 0 ? "ended wrongly" : how ? "killed" : "ended", ops, line, after);
	}
	ktap_ok(!wrong && total > 0, "mm_fuzz_kernel_survives",
		"%d rounds of %d s, %d threads, seed %d: %ld calls, %d rounds ended wrongly",
		rounds, seconds, threads, seed, total, wrong);
	ktap_ok(!leaky, "mm_fuzz_free_frames_back_after_each_round",
		"free frames after the warm-up %d, after the last round %d, %d rounds off",
		base, after, leaky);
	return ktap_done();
}
