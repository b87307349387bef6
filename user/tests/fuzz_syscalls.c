/*
 * fuzz_syscalls [calls [seed [parallel [aim [threads]]]]] - random system
 * calls must never hurt the kernel.
 *
 *   calls     system calls to make in all (default 20000), up to
 *             PER_CHILD per child; counted as the children make them
 *   seed      the random seed (default 12345); the same seed makes the same
 *             calls with the same arguments (the n-th child of a fuzzer
 *             starts from seed + 0 + 2000 + ... + 2000(n-1), as always)
 *   parallel  fuzzers at once (default 1, at most 8): fuzzer k uses seed+k
 *   aim       percent of the calls aimed at the numbers the kernel has
 *             (default 0: every number 0..599 alike, most of them ENOSYS)
 *   threads   threads per child making the calls (default 1, at most
 *             MAX_THREADS): see "With threads" below
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
 * children. The System V objects random calls made (queues, arrays,
 * segments, which outlive their makers as on Linux) are removed before
 * each count. Both lines end with the seed.
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
 * or takes too long: fork, vfork and execve (the child would multiply or
 * turn into another program), the sleeps, and the test mutex's timed hold.
 *
 * With threads (issue 26: "the fuzzer calls all of these from several
 * threads of one process"), each child is a thread group: its first
 * thread only watches, and `threads` threads (user/lib/thread.h: clone
 * with the thread flags, CLONE_SETTLS, CLONE_CHILD_CLEARTID and a futex
 * join) share its calls. One call in THREAD_CALL_SHARE is aimed at what
 * threads add: clone with a flag combination Linux refuses (it must
 * answer EINVAL), futex with a random operation on an aligned, unaligned
 * (WAKE must answer EINVAL), unmapped or kernel word with short or bad
 * timeouts, set_thread_area / get_thread_area with random descriptors (an
 * entry outside the TLS slots must answer EINVAL), tgkill / tkill at its
 * own threads, rt_sigprocmask in each thread (a set size other than 8:
 * EINVAL), and exit of one thread, which the first thread replaces by a
 * new one that goes on with its share. A wrong answer fails the first
 * check. The first thread ends the child when every share is made, or
 * when no thread made a call for BLOCKED_MS (then the parent does not
 * look at the child's sleep: the first thread sleeps between looks).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uapi/clone.h>
#include <uapi/futex.h>
#include <uapi/ipc.h>
#include <uapi/unistd.h>
#include <uapi/tls.h>

#include "args.h"
#include "syscall.h"
#include "testlib.h"
#include "thread.h"

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
/* A thread group is slower (its futex waits sleep up to 2 ms each; seen
 * under make test's load: 15 of 90 groups over 1 s) and watches its own
 * blocked threads: only a group stopped or wedged as a whole waits this. */
#define GROUP_STUCK_MS 5000
#define MAX_THREADS 8
#define THREAD_CALL_SHARE 8	/* one call in this many aimed at threads */
#define THREAD_STACK 16384
#define FUTEX_WORDS 4

/* One fuzzing thread's state: its own random stream and share of calls. */
struct slot {
	unsigned long rng;
	unsigned made, quota;
	struct thread t;
};

/* Everything a child reads while it fuzzes, with the buffer its calls may
 * write into last: a call that writes past the buffer's end (a long read,
 * a struct bigger than it) cannot change the child's own state. */
static struct {
	unsigned long rng;
	int aim_pct;			/* percent aimed at implemented calls */
	int nimplemented;
	short implemented[NR_CALLS];	/* their numbers */
	int nthreads;			/* fuzzing threads per child (1: none) */
	struct slot slots[MAX_THREADS];
	unsigned wrong, started;	/* wrong answers; threads started */
	int first_wrong, first_got;	/* which aimed call answered wrongly, what */
	int futex_words[FUTEX_WORDS + 1];	/* what the threads' futex calls share */
	char buffer[4096];		/* random_arg's valid pointer */
	char *shared;			/* and a page every child shares (MAP_SHARED) */
} s = { .rng = DEFAULT_SEED };

static char stacks[MAX_THREADS][THREAD_STACK] __attribute__((aligned(16)));

/* Each thread draws from its own stream (one thread: s.rng, as always). */
static unsigned long next_random(unsigned long *rng)
{
	*rng = *rng * 1103515245 + 12345;
	return *rng >> 8;
}

static long random_arg(unsigned long *rng)
{
	switch (next_random(rng) % 8) {
	case 0:	return 0;
	case 1:	return -1;
	case 2:	return next_random(rng) % 16;			/* fds, small ints */
	/* a valid pointer: the child's own buffer, or the page all children
	 * share (chosen without a draw, so a seed draws what it always drew) */
	case 3:	return (*rng & 0x100) && s.shared ? (long)s.shared : (long)s.buffer;
	case 4:	return 0xC0100000L;				/* kernel memory */
	case 5:	return 0x40000000L + (next_random(rng) % 4096);	/* unmapped */
	case 6:	return (long)0x7FFFFFFF;
	default: return (long)next_random(rng);
	}
}

static int excluded(long nr)
{
	switch (nr) {
	case 2: case 11: case 162: case 267:	/* fork execve nanosleep clock_nanosleep */
	case 190:				/* vfork: its child would fuzz on, unwatched */
	case 1: case 252:			/* exit, exit_group: ends the batch early */
	case 503:				/* test mutex: a hold can sleep 10 s */
	case 29: case 179:			/* pause, rt_sigsuspend: wait for a signal */
	case 119: case 173:			/* sigreturn: jumps to a random frame's eip */
		return 1;
	default:
		return 0;
	}
}

/* Implemented calls that wait for ever with every argument 0 (select's
 * and pselect6's no descriptors and no timeout, as pause): the probe
 * takes them as implemented without making them; the fuzz makes them
 * with random arguments, and a child asleep in one is replaced. */
static int waits_with_no_arguments(long nr)
{
	return nr == 142 || nr == 308 || nr == 413;	/* _newselect, pselect6, pselect6_time64 */
}

/* With aim 0 this draws exactly what the plain fuzzer always drew. */
static long random_nr(unsigned long *rng)
{
	if (s.aim_pct && s.nimplemented && (int)(next_random(rng) % 100) < s.aim_pct)
		return s.implemented[next_random(rng) % s.nimplemented];
	return next_random(rng) % NR_CALLS;
}

/* One random call with random arguments; 0 if the number drawn is one
 * never made. */
static int random_call(unsigned long *rng)
{
	long nr = random_nr(rng);

	if (excluded(nr))
		return 0;
	long a1 = random_arg(rng), a2 = random_arg(rng);
	/* mq_open never creates: a queue outlives its maker, as on Linux,
	 * and with no mqueue file system mounted (not built) none could be
	 * listed to be removed before the frames are counted, as the System
	 * V objects are (remove_ipc_objects) */
	if (nr == __NR_mq_open)
		a2 &= ~O_CREAT;
	syscall5(nr, a1, a2, random_arg(rng), random_arg(rng), random_arg(rng));
	return 1;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
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

/* A progress record: the calls made so far (and with threads: wrong
 * answers, threads started), keyed so that bytes a random
 * write(PROGRESS_FD, ...) puts in the pipe are never taken for one. */
struct progress {
	unsigned made, wrong, started;
	int first_wrong, first_got;
	unsigned check;
};

static unsigned progress_check(const struct progress *r, unsigned key)
{
	return ((r->made ^ key) * 2654435761u + key) ^ (r->wrong * 40503u) ^
	       (r->started * 2246822519u) ^ ((unsigned)r->first_wrong << 24) ^
	       ((unsigned)r->first_got * 3266489917u);
}

static void report_progress(unsigned made, unsigned key)
{
	struct progress r = { made, s.wrong, s.started, s.first_wrong, s.first_got, 0 };

	r.check = progress_check(&r, key);
	write(PROGRESS_FD, &r, sizeof(r));
}

/* What the child's buffer holds at first: a path for the calls that take
 * one (open, stat, chdir, readlink, access...), /proc's among them, so the
 * random calls reach its generated files, links and directories. */
static const char *const first_paths[] = {
	"/proc/self/stat", "/proc/self", "/proc/1/status", "/proc/sys/kernel/rr_interval",
	"/proc", "/proc/self/exe", "/proc/uptime", "/proc/self/sched", "/bin", "/dev/null",
};

static void threaded_child(int calls, unsigned key);

static void child(int calls, unsigned key)
{
	unsigned made = 0;

	become_harmless();
	strcpy(s.buffer, first_paths[key % (sizeof(first_paths) / sizeof(first_paths[0]))]);
	if (s.nthreads > 1)
		threaded_child(calls, key);
	for (int i = 0; i < calls; i++) {
		if (!random_call(&s.rng))
			continue;
		if (++made % PROGRESS_EVERY == 0)
			report_progress(made, key);
	}
	report_progress(made, key);
	_exit(0);
}

/* ---- with threads ---------------------------------------------------- */

/* The aimed calls whose answers are checked. */
enum aimed { AIM_CLONE = 1, AIM_FUTEX, AIM_TLS, AIM_KILL, AIM_SIGMASK };
static const char *const aimed_names[] = {
	"none", "clone", "futex", "thread_area", "tgkill", "rt_sigprocmask",
};

/* A wrong answer to an aimed call: counted, and the first one kept. */
static void expect(enum aimed what, long got, long want)
{
	if (got == want)
		return;
	if (__atomic_fetch_add(&s.wrong, 1, __ATOMIC_RELAXED) == 0) {
		s.first_wrong = what;
		s.first_got = (int)got;
	}
}

/* A clone flag combination Linux's copy_process refuses with EINVAL,
 * around random thread flags. If it were taken, the new task leaves at
 * once (it runs on no stack of its own). */
static void bad_clone(unsigned long *rng)
{
	static const unsigned wrongs[][2] = {		/* {set, clear} */
		{ CLONE_THREAD, CLONE_SIGHAND },	/* a thread shares handlers */
		{ CLONE_SIGHAND, CLONE_VM },		/* shared handlers, shared memory */
		{ CLONE_NEWNS | CLONE_FS, 0 },		/* a new namespace, shared root */
	};
	unsigned flags = next_random(rng) & (CLONE_VM | CLONE_FS | CLONE_FILES |
		CLONE_SIGHAND | CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS |
		CLONE_PARENT_SETTID | CLONE_CHILD_CLEARTID | CSIGNAL);
	const unsigned *w = wrongs[next_random(rng) % 3];
	flags = (flags | w[0]) & ~w[1];
	long r = syscall5(__NR_clone, flags, 0, random_arg(rng), random_arg(rng),
			  random_arg(rng));
	if (r == 0)
		for (;;)
			syscall1(__NR_exit, 0);
	expect(AIM_CLONE, r, -EINVAL);
}

/* A futex word: one the threads share (word), unaligned, unmapped, the
 * kernel's, NULL, or in the page every child shares. */
static long futex_addr(unsigned long *rng, int *word)
{
	switch (next_random(rng) % 6) {
	case 0:	return (long)word + 1 + (long)(next_random(rng) % 3);
	case 1:	return 0x40000000L + 4 * (long)(next_random(rng) % 1024);
	case 2:	return 0xC0100000L;
	case 3:	return 0;
	case 4:	return s.shared ? (long)s.shared + 4 * (long)(next_random(rng) % 4) : (long)word;
	default: return (long)word;
	}
}

/* A timeout: a few ms relative or absolute (WAIT_BITSET), a bad tv_nsec,
 * or a pointer nowhere; a wait never lasts much longer than 2 ms. */
static long futex_timeout(unsigned long *rng, int op, struct timespec *ts)
{
	int clk = op & FUTEX_CLOCK_REALTIME ? CLOCK_REALTIME : CLOCK_MONOTONIC;

	switch (next_random(rng) % 4) {
	case 0:	*ts = (struct timespec){ 0, 1000000000L + (long)(next_random(rng) % 10) };
		return (long)ts;
	case 1:	return 0x40000000L;
	default:
		*ts = (struct timespec){ 0, (long)(next_random(rng) % 2000000) };
		if ((op & FUTEX_CMD_MASK) == FUTEX_WAIT_BITSET) {
			struct timespec now;
			clock_gettime(clk, &now);
			ts->tv_nsec += now.tv_nsec;
			ts->tv_sec = now.tv_sec + ts->tv_nsec / 1000000000L;
			ts->tv_nsec %= 1000000000L;
		}
		return (long)ts;
	}
}

/* A random operation (the ones that wait get a short timeout) on a
 * random word, sometimes with the value the word holds, so it waits. */
static void random_futex(unsigned long *rng)
{
	int op = next_random(rng) % 14;
	struct timespec ts;

	op |= next_random(rng) % 2 ? FUTEX_PRIVATE_FLAG : 0;
	op |= next_random(rng) % 4 == 0 ? FUTEX_CLOCK_REALTIME : 0;
	int *word = &s.futex_words[next_random(rng) % FUTEX_WORDS];
	long addr = futex_addr(rng, word), addr2 = futex_addr(rng, word + 1);
	int cmd = op & FUTEX_CMD_MASK;
	/* the value the word holds: a wait sleeps (until its timeout) */
	int val = addr == (long)word && next_random(rng) % 2 ? *word : (int)(next_random(rng) % 4);
	bool waits = cmd == FUTEX_WAIT || cmd == FUTEX_WAIT_BITSET ||
		     cmd == FUTEX_LOCK_PI || cmd == FUTEX_WAIT_REQUEUE_PI;
	long arg4 = waits ? futex_timeout(rng, op, &ts) : (long)(next_random(rng) % 4);
	long r = syscall6(__NR_futex, addr, op, val, arg4, addr2, (long)next_random(rng));

	/* (with CLOCK_REALTIME, WAKE is ENOSYS before the address is seen) */
	if (cmd == FUTEX_WAKE && (addr & 3) && !(op & FUTEX_CLOCK_REALTIME))
		expect(AIM_FUTEX, r, -EINVAL);
	if (next_random(rng) % 4 == 0)		/* the word changes, as a lock's */
		__atomic_fetch_add(&s.futex_words[next_random(rng) % FUTEX_WORDS], 1,
				   __ATOMIC_RELAXED);
}

/* set_thread_area with a random descriptor for a TLS slot, for -1 (the
 * kernel picks) or for an entry outside them (EINVAL); or
 * get_thread_area of one (-1 is outside too). A thread's own %gs entry
 * may become anything: the kernel reloads %gs on every return. */
static void random_tls(unsigned long *rng)
{
	static const int entries[] = { -1, GDT_ENTRY_TLS_MIN, GDT_ENTRY_TLS_MIN + 1,
		GDT_ENTRY_TLS_MAX, 0, GDT_ENTRY_TLS_MIN - 1, GDT_ENTRY_TLS_MAX + 1, 8191 };
	int e = entries[next_random(rng) % 8];
	unsigned bits = next_random(rng);
	struct user_desc d = {
		.entry_number = e, .base_addr = random_arg(rng),
		.limit = next_random(rng) & 0xfffff, .seg_32bit = bits & 1,
		.contents = (bits >> 1) & 3, .read_exec_only = (bits >> 3) & 1,
		.limit_in_pages = (bits >> 4) & 1, .seg_not_present = (bits >> 5) & 1,
		.useable = (bits >> 6) & 1,
	};
	bool set = next_random(rng) % 2;
	long r = syscall1(set ? __NR_set_thread_area : __NR_get_thread_area, (long)&d);

	if ((e != -1 || !set) && (e < GDT_ENTRY_TLS_MIN || e > GDT_ENTRY_TLS_MAX))
		expect(AIM_TLS, r, -EINVAL);
}

/* tgkill or tkill at one of our own threads (0 once it is gone, or -1:
 * EINVAL), with a signal that does no harm here (SIGUSR1 and SIGUSR2 are
 * caught, the rest ignored), 0, or no signal at all. */
static void random_kill(unsigned long *rng)
{
	static const int sigs[] = { 0, SIGUSR1, SIGUSR2, SIGCHLD, SIGWINCH, SIGURG, 65, -1 };
	int sig = sigs[next_random(rng) % 8];
	int tid = next_random(rng) % 8 ? s.slots[next_random(rng) % s.nthreads].t.tid : -1;
	long r = next_random(rng) % 2 ? syscall3(__NR_tgkill, getpid(), tid, sig)
				      : syscall2(__NR_tkill, tid, sig);
	if (tid <= 0)
		expect(AIM_KILL, r, -EINVAL);
}

/* This thread's own mask: a random how (3: EINVAL), a random set among
 * signals the others send or a fault raises, and sometimes a set size
 * other than the kernel's 8 bytes (EINVAL). */
static void random_sigmask(unsigned long *rng)
{
	unsigned some = 1u << (SIGUSR1 - 1) | 1u << (SIGUSR2 - 1) | 1u << (SIGCHLD - 1) |
			1u << (SIGSEGV - 1) | 1u << (SIGKILL - 1) | 1u << (SIGSTOP - 1);
	sigset_t set = { { next_random(rng) & some, 0 } }, old;
	int how = next_random(rng) % 4;
	int size = next_random(rng) % 4 ? 8 : (int)(next_random(rng) % 16);
	long r = syscall4(__NR_rt_sigprocmask, how, (long)&set, (long)&old, size);

	if (size != 8)
		expect(AIM_SIGMASK, r, -EINVAL);
}

/* One call aimed at what threads add (the comment at the top). */
static void thread_call(unsigned long *rng)
{
	switch (next_random(rng) % 6) {
	case 0:	bad_clone(rng); break;
	case 1:	random_futex(rng); break;
	case 2:	random_tls(rng); break;
	case 3:	random_kill(rng); break;
	case 4:	random_sigmask(rng); break;
	default:
		if (next_random(rng) % 4 == 0)
			for (;;)	/* this thread only: the first starts another */
				syscall1(__NR_exit, 0);
		random_futex(rng);
	}
}

static int fuzz_thread(void *arg)
{
	struct slot *sl = arg;

	while (sl->made < sl->quota) {
		if (next_random(&sl->rng) % THREAD_CALL_SHARE == 0) {
			sl->made++;
			thread_call(&sl->rng);
		} else if (random_call(&sl->rng)) {
			sl->made++;
		}
	}
	return 0;
}

static void start_thread(struct slot *sl)
{
	if (thread_create(&sl->t, fuzz_thread, sl, stacks[sl - s.slots], THREAD_STACK) == 0)
		s.started++;
}

static unsigned calls_made(void)
{
	unsigned made = 0;

	for (int k = 0; k < s.nthreads; k++)
		made += s.slots[k].made;
	return made;
}

static void caught(int sig) { (void)sig; }

/* The first thread: start the fuzzing threads with a share each, start a
 * new one in the place of each that exits early, report, and end the
 * child once the calls are made or none was made for BLOCKED_MS. */
static void threaded_child(int calls, unsigned key)
{
	struct sigaction sa = { .sa_handler = caught, .sa_flags = SA_RESTART };
	struct timespec nap = { 0, 1000000 };

	sigaction(SIGUSR1, &sa, NULL);
	sigaction(SIGUSR2, &sa, NULL);
	for (int k = 0; k < s.nthreads; k++) {
		struct slot *sl = &s.slots[k];
		*sl = (struct slot){ .rng = s.rng ^ ((k + 1) * 2654435761u),
				     .quota = calls / s.nthreads + (k < calls % s.nthreads) };
		start_thread(sl);
	}
	unsigned made, last = 0;
	for (long long changed = now_ms();; nanosleep(&nap, NULL)) {
		made = calls_made();
		if (made != last) {
			if (made / PROGRESS_EVERY != last / PROGRESS_EVERY)
				report_progress(made, key);
			last = made;
			changed = now_ms();
		}
		if (made >= (unsigned)calls || now_ms() - changed >= BLOCKED_MS)
			break;
		for (int k = 0; k < s.nthreads; k++)
			if (s.slots[k].made < s.slots[k].quota && s.slots[k].t.tid == 0)
				start_thread(&s.slots[k]);
	}
	report_progress(made, key);
	_exit(0);		/* exit_group: ends threads still in a call */
}

/* The record with the highest count the child reported (the pipe may
 * hold other bytes). */
static struct progress read_progress(int fd, unsigned key)
{
	static unsigned char buf[8192];
	struct progress best = { 0 };
	int got = 0, n;

	while (got < (int)sizeof(buf) && (n = read(fd, buf + got, sizeof(buf) - got)) > 0)
		got += n;
	for (int off = 0; off + (int)sizeof(struct progress) <= got; off++) {
		struct progress r;
		memcpy(&r, buf + off, sizeof(r));
		if (r.check == progress_check(&r, key) && r.made <= PER_CHILD &&
		    r.made > best.made)
			best = r;
	}
	return best;
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
				 (waits_with_no_arguments(nr) ||
				  syscall5(nr, 0, 0, 0, 0, 0) != -ENOSYS);
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

/* The System V objects the random calls made outlive their makers, as on
 * Linux (a queue with its messages, an array, a segment with the pages
 * touched): root removes every one before each count of the free frames,
 * so that only a leak is counted. */
static void remove_ipc_objects(void)
{
	static const int info[3] = { MSG_INFO, SEM_INFO, SHM_INFO };
	static const int stat[3] = { MSG_STAT_ANY, SEM_STAT_ANY, SHM_STAT_ANY };
	static const long ctl[3] = { __NR_msgctl, __NR_semctl, __NR_shmctl };
	long buf[64];

	for (int k = 0; k < 3; k++) {
		/* semctl's (id, semnum, cmd, arg); the others' (id, cmd, buf) */
		long max = k == 1 ? syscall4(ctl[k], 0, 0, info[k], (long)buf)
				  : syscall3(ctl[k], 0, info[k], (long)buf);
		for (long idx = 0; idx <= max; idx++) {
			long id = k == 1 ? syscall4(ctl[k], idx, 0, stat[k], (long)buf)
					 : syscall3(ctl[k], idx, stat[k], (long)buf);
			if (id >= 0 && k == 1)
				syscall4(ctl[k], id, 0, IPC_RMID, 0);
			else if (id >= 0)
				syscall3(ctl[k], id, IPC_RMID, 0);
		}
	}
}

struct tally {
	long long made;			/* system calls the children made */
	int children, stuck, faulted;
	int lost;			/* a fuzzer that did not report */
	int short_of_calls;		/* a fuzzer that gave up before its share */
	int wrong, threads;		/* wrong answers; threads started */
	int first_wrong, first_got;	/* the first wrong answer's call, value */
};

/* Run one child; kill it if it has been asleep for BLOCKED_MS (nothing it
 * can reach wakes it: no call it makes sleeps for a time), or is still
 * there after STUCK_MS. A child with threads watches its own, and has
 * GROUP_STUCK_MS. */
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
		int asleep = s.nthreads == 1 && sched_stat(pid, &info) == 0 &&
			     (info.state == TASK_INTERRUPTIBLE ||
			      info.state == TASK_UNINTERRUPTIBLE);

		if (!asleep)
			asleep_since = -1;
		else if (asleep_since < 0)
			asleep_since = now;
		if (now - start > (s.nthreads > 1 ? GROUP_STUCK_MS : STUCK_MS) ||
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
	struct progress r = read_progress(pp[0], key);
	t->made += r.made;
	if (r.wrong && !t->wrong) {
		t->first_wrong = r.first_wrong;
		t->first_got = r.first_got;
	}
	t->wrong += r.wrong;
	t->threads += r.started;
	close(pp[0]);
	t->children++;
	return 0;
}

/* One fuzzer: children in a row, from `seed`, until they made `calls`
 * calls (a child that faults, is stuck, exits at random or, a thread
 * group, goes quiet for BLOCKED_MS on a busy host makes fewer than
 * PER_CHILD). CHILDREN_PER_SHARE children a share at most: the bound
 * only stops a fuzzer whose children can make no calls at all (4 ran
 * out at times with threads on a loaded host, a fifth of the calls
 * still to make). */
#define CHILDREN_PER_SHARE	16

static void fuzzer(unsigned long seed, long long calls, struct tally *t)
{
	int limit = CHILDREN_PER_SHARE * (calls + PER_CHILD - 1) / PER_CHILD + 4;

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
		if (t.wrong && !sum->wrong) {
			sum->first_wrong = t.first_wrong;
			sum->first_got = t.first_got;
		}
		sum->wrong += t.wrong;
		sum->threads += t.threads;
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
		printf("usage: fuzz_syscalls [calls [seed [parallel [aim [threads]]]]]: bad %s\n",
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
	s.nthreads = arg_or(argc, argv, 5, 1, MAX_THREADS, 1);
	test_require_our_kernel(argc, argv, 0);
	ktap_plan(2);
	printf("# seed %lu, %d fuzzer%s (seeds %lu..%lu), %d calls, %d%% aimed, %d thread%s"
	       " each; again: /bin/fuzz_syscalls:%d:%lu:%d:%d:%d\n", seed, parallel,
	       parallel > 1 ? "s" : "", seed, seed + parallel - 1, total,
	       s.aim_pct, s.nthreads, s.nthreads > 1 ? "s" : "", total, seed, parallel,
	       s.aim_pct, s.nthreads);
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
	remove_ipc_objects();
	int before = free_frames();
	long long t0 = now_ms();
	run_fuzzers(seed, parallel, total, &t);
	long long ms = now_ms() - t0;
	remove_ipc_objects();
	int after = free_frames();
	ktap_ok(t.made >= total && !t.lost && !t.short_of_calls && !t.wrong,
		"random_syscalls_leave_kernel_running",
		"%lld calls in %d children: %d died of a fault, %d were stuck and killed;"
		" %d fuzzers lost, %d gave up short; %lld ms, %lld calls/s; %d threads"
		" started, %d wrong answers to aimed calls (the first: %s, %d); seed %lu",
		t.made, t.children, t.faulted, t.stuck, t.lost, t.short_of_calls,
		ms, ms > 0 ? t.made * 1000 / ms : 0, t.threads, t.wrong,
		aimed_names[(unsigned)t.first_wrong % 6], t.first_got, seed);
	ktap_ok(after <= before && after >= before - HEAP_SLACK,
		"random_syscalls_leak_no_memory",
		"free frames before %d, after %d (heap may keep up to %d); seed %lu",
		before, after, HEAP_SLACK, seed);
	return ktap_done();
}
