/*
 * smp_stress [tasks [seconds [seed [live]]]] - many tasks that sleep and
 * run at random, with random policies and affinities, on many CPUs (issue
 * 6: "8 CPUs, 64 tasks, 20 s: no task lost, no lockup, kernel invariants
 * hold"; issue 14: make stress).
 *
 *   tasks    tasks to start (default 64); with live < tasks, about that
 *            many, in turns (below)
 *   seconds  how long the run lasts (default 20)
 *   seed     the random seed (default: from the clock); printed first.
 *            It fixes every random choice (which operation, how long, which
 *            mask, policy, nice, signal); what the scheduler makes of them
 *            differs from run to run, so a failure may need a few runs.
 *   live     given at all: the full mix below, with at most `live` tasks
 *            (<= MAX_LIVE) alive at once
 *
 * Each task loops until its end, picking at random: spin 0-3 ms;
 * sleep 0-5 ms; yield; set its own affinity to a random mask (then check
 * that getcpu() is inside it); change its policy among NORMAL, BATCH and
 * ISO (and nice); or become FIFO/RR for a spin of at most 1 ms and back;
 * or fork a child that exits at once. Odd tasks never change their own
 * mask: the parent changes theirs at random while they run. Every task
 * must exit 0 by the deadline plus a grace period and be reaped; a task
 * that finds itself outside its own mask exits 1. The kernel's debug build
 * checks its invariants (KASSERT) all along: a panic fails the harness
 * case. Without `live` (the smp_stress_2x2x2 case): all tasks start at
 * once and run to the deadline, two checks.
 *
 * The full mix (a fourth argument, make stress) adds: FIFO/RR stretches
 * of up to 20 spins of 0.5 ms with a sleep after each; a pipe to a child
 * that writes up to 12 KiB in random pieces, read in random pieces and
 * checked byte by byte; a child that spins, sleeps, yields or blocks
 * reading a pipe, killed with SIGKILL within 3 ms (it must end by that
 * signal, or exit 0 by itself if it could). With live < tasks, tasks live
 * a random time (seconds x live / tasks on average) and a new one takes the
 * place of each that ends, until the deadline; the parent kills a random
 * task now and then (about one in KILLED_SHARE) with
 * SIGKILL, SIGTERM, SIGINT, SIGHUP or SIGUSR1 (none has a handler: each
 * kills), and such a task must end by a signal it was sent (or exit
 * normally). In the full run the parent also stops a random task with
 * SIGSTOP and continues it with SIGCONT 20 ms later, and sends SIGUSR2,
 * which every task catches (SA_RESTART) and must survive: a task left
 * stopped, or killed by SIGUSR2, fails the checks below.
 *
 * Thread groups (issue 26, full mix only): one task in THREADED_SHARE is
 * a process of 2 or 3 threads (user/lib/thread.h). Each extra thread
 * runs the same mix with its own life (so threads exit one by one, while
 * the process lives on), its own policy, nice and mask, and also sleeps
 * on the group's futex word for up to 3 ms or wakes its sleepers. The
 * first thread joins the others before it exits (CLONE_CHILD_CLEARTID's
 * wake); a thread not ended within GRACE_S - 2 s of the run's deadline
 * (or of its group's end, if later) fails the first check. Not of its
 * group's end: while the mix runs on every CPU, a BATCH thread runs only
 * when its CPU is idle (docs/staircase.md §7.4) and may wait that long
 * (seed 127101039: two BATCH threads that had run once, runnable 10 s
 * after their group's end, each ending once the run's load was gone). The
 * parent's signals, stops and kills hit the whole group. Five checks: every task started is reaped; masks hold;
 * pipe data intact; killed tasks and children end as killed; the free
 * frame count (call 505) comes back to what it was before the run, within
 * FRAME_SLACK frames that the kernel heap may keep (as fuzz_syscalls).
 * Every `not ok` line names the seed.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <uapi/futex.h>

#include "args.h"
#include "syscall.h"
#include "testlib.h"
#include "thread.h"

#define MAX_LIVE 128
#define GRACE_S 10
#define FRAME_SLACK 8
#define FRAMES_WAIT_MS 5000	/* orphaned grandchildren end within this */
#define KILLED_SHARE 6		/* the parent kills about one task in this many */
#define PROGRESS_S 10
#define THREADED_SHARE 4	/* one task in this many is a thread group */
#define MAX_EXTRA_THREADS 2
#define THREAD_STACK 32768

/* A task's exit status: which checks it failed. */
#define BAD_MASK 1		/* ran outside its own mask */
#define BAD_PIPE 2		/* pipe data lost or changed */
#define BAD_CHILD 4		/* a child ended otherwise than it should */
#define BAD_THREAD 8		/* a thread of the group never ended */

static int ncpus, full;
static unsigned seed;
static int report_fd;		/* tasks write a struct counts here */

struct counts {
	long ops, changes;		/* operations; CPU changes seen */
	long pipe_bytes, child_kills;	/* checked pipe bytes; children killed */
	long fork_failures;
	long long kill_wait_max_ns;	/* longest kill-to-reaped of a child */
	int kill_wait_max_policy;	/* ... and the policy it had */
	int kill_wait_max_mode;		/* ... and what it was doing */
};

static unsigned rnd(unsigned n)
{
	seed = seed * 1103515245u + 12345u;
	return ((seed >> 8) & 0xffffff) % n;
}

/* Task `id`'s own random stream (id -1: the parent's). */
static unsigned stream(unsigned base, int id)
{
	unsigned s = base ^ ((unsigned)id * 2654435761u + 0x9e3779b9u);

	for (int i = 0; i < 4; i++)
		s = s * 1103515245u + 12345u;
	return s;
}

/* The futex word a thread group's threads sleep on and wake. */
static volatile int group_word;

static unsigned random_mask(void)
{
	unsigned all = ncpus >= 32 ? ~0u : (1u << ncpus) - 1, m;

	do
		m = (rnd(4) == 0 ? 1u << rnd(ncpus) : (unsigned)rnd(1u << 16) * 2654435761u) & all;
	while (!m);
	return m;
}

static int set_mask(pid_t pid, unsigned m)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	for (int i = 0; i < ncpus; i++)
		if (m & (1u << i))
			CPU_SET(i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

static void spin_us(int us)
{
	long long end = monotonic_ns() + us * 1000LL;

	while (monotonic_ns() < end)
		;
}

static void sleep_us(long us)
{
	struct timespec ts = { us / 1000000, (us % 1000000) * 1000L };

	nanosleep(&ts, NULL);
}

static void set_policy(int policy, int prio)
{
	struct sched_param sp = { prio };

	sched_setscheduler(0, policy, &sp);
}

/* A pipe to a child that writes n pattern bytes in random pieces; read
 * them in random pieces and check each. Returns the BAD_ bits. */
static int pipe_op(int id, struct counts *c)
{
	char buf[1024];		/* each thread its own */
	unsigned n = 1 + rnd(12288), key = rnd(256), got = 0, wrong = 0;
	int p[2], status;
	pid_t pid;

	if (pipe(p) < 0)
		return 0;
	pid = fork();
	if (pid < 0) {
		c->fork_failures++;
		close(p[0]);
		close(p[1]);
		return 0;
	}
	if (pid == 0) {
		close(p[0]);
		close(report_fd);
		for (unsigned done = 0; done < n;) {
			unsigned k = 1 + rnd(sizeof(buf));
			if (k > n - done)
				k = n - done;
			for (unsigned j = 0; j < k; j++)
				buf[j] = (char)((done + j) * 7 + key);
			ssize_t w = write(p[1], buf, k);
			if (w <= 0)
				_exit(3);	/* the reader is gone: it was killed */
			done += w;
		}
		_exit(0);
	}
	close(p[1]);
	for (;;) {
		ssize_t r = read(p[0], buf, 1 + rnd(sizeof(buf)));
		if (r <= 0)
			break;
		for (ssize_t j = 0; j < r; j++)
			wrong += buf[j] != (char)((got + j) * 7 + key);
		got += r;
	}
	close(p[0]);
	waitpid(pid, &status, 0);
	c->pipe_bytes += got;
	if (got != n || wrong) {
		printf("# task %d: pipe gave %u of %u bytes, %u wrong\n", id, got, n, wrong);
		return BAD_PIPE;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		printf("# task %d: pipe writer ended with status 0x%x\n", id, status);
		return BAD_CHILD;
	}
	return 0;
}

/* A child that spins, sleeps, yields or blocks on a pipe, killed within
 * 3 ms: it must end by SIGKILL (or by itself, if it could end at all). */
static const char *const child_what[] = { "spinning", "sleeping", "blocked", "yielding" };

static int kill_child_op(int id, struct counts *c)
{
	int mode = rnd(4), q[2] = { -1, -1 }, status;
	unsigned spin = rnd(20000), nap = 10000 + rnd(490000), wait = rnd(3000);
	pid_t pid;

	if (mode == 2 && pipe(q) < 0)
		mode = 0;
	pid = fork();
	if (pid < 0) {
		c->fork_failures++;
		if (mode == 2) {
			close(q[0]);
			close(q[1]);
		}
		return 0;
	}
	if (pid == 0) {
		char b;
		long long end;

		close(report_fd);
		switch (mode) {
		case 0:
			spin_us(spin);
			break;
		case 1:
			sleep_us(nap);
			break;
		case 2:		/* until killed, or its parent dies (EOF) */
			close(q[1]);
			read(q[0], &b, 1);
			_exit(4);
		case 3:
			end = monotonic_ns() + spin * 1000LL;
			while (monotonic_ns() < end)
				sched_yield();
			break;
		}
		_exit(0);
	}
	if (mode == 2)
		close(q[0]);
	sleep_us(wait);
	long long t0 = monotonic_ns();
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	long long dt = monotonic_ns() - t0;
	if (mode == 2)
		close(q[1]);
	c->child_kills++;
	if (dt > c->kill_wait_max_ns) {
		c->kill_wait_max_ns = dt;
		c->kill_wait_max_policy = sched_getscheduler(0);
		c->kill_wait_max_mode = mode;
	}
	if ((WIFSIGNALED(status) && WTERMSIG(status) == SIGKILL) ||
	    (mode != 2 && WIFEXITED(status) && WEXITSTATUS(status) == 0))
		return 0;
	printf("# task %d: %s child killed with SIGKILL ended with status 0x%x\n",
	       id, child_what[mode], status);
	return BAD_CHILD;
}

/* One task's life until `end`; returns its exit status (BAD_ bits). */
static volatile int usr2_seen;
static void on_usr2(int sig) { (void)sig; usr2_seen++; }

/* A thread of a group: sleep on the group's word for up to 3 ms (the
 * value it holds: a wake or the timeout ends the sleep), or wake them. */
static void futex_op(void)
{
	if (rnd(2)) {
		struct timespec ts = { 0, (long)rnd(3000000) };
		syscall4(__NR_futex, (long)&group_word, FUTEX_WAIT | FUTEX_PRIVATE_FLAG,
			 group_word, (long)&ts);
	} else {
		__atomic_fetch_add(&group_word, 1, __ATOMIC_RELAXED);
		syscall3(__NR_futex, (long)&group_word, FUTEX_WAKE | FUTEX_PRIVATE_FLAG,
			 1 + rnd(3));
	}
}

static int task(int id, long long end, int threaded)
{
	static const int policies[] = { SCHED_OTHER, SCHED_BATCH, SCHED_ISO };
	struct counts c = { 0 };
	long outside = 0;
	int last = sched_getcpu(), bad = 0;

	while (monotonic_ns() < end) {
		int cpu = sched_getcpu();
		c.ops++;
		c.changes += cpu != last;
		last = cpu;
		switch (rnd(full ? 12 : 10)) {
		case 0: case 1:
			spin_us(rnd(3000));
			break;
		case 2:
			if (threaded)
				futex_op();
			else
				spin_us(rnd(3000));
			break;
		case 3: case 4: case 5:
			sleep_us(rnd(5000));
			break;
		case 6:
			sched_yield();
			break;
		case 7:
			if (id % 2 == 0) {
				unsigned m = random_mask();
				if (set_mask(0, m) == 0 && !(m & (1u << sched_getcpu())))
					outside++;
			}
			break;
		case 8:
			set_policy(policies[rnd(3)], 0);
			setpriority(PRIO_PROCESS, 0, rnd(40) - 20);
			break;
		case 9:
			if (rnd(3) == 0) {
				int status;
				pid_t ch = fork();
				if (ch == 0)
					_exit(0);
				if (ch > 0 && waitpid(ch, &status, 0) == ch && full &&
				    !(WIFEXITED(status) && WEXITSTATUS(status) == 0)) {
					printf("# task %d: child that exits 0 ended with status 0x%x\n",
					       id, status);
					bad |= BAD_CHILD;
				}
				c.fork_failures += ch < 0;
			} else if (full && rnd(2)) {
				/* real time with a sleep after every spin */
				int n = 1 + rnd(20);
				set_policy(rnd(2) ? SCHED_FIFO : SCHED_RR, 1 + rnd(99));
				for (int i = 0; i < n; i++) {
					spin_us(rnd(500));
					sleep_us(500 + rnd(1500));
				}
				set_policy(SCHED_OTHER, 0);
			} else {
				/* real time only briefly: never a spin for ever */
				set_policy(rnd(2) ? SCHED_FIFO : SCHED_RR, 1 + rnd(99));
				spin_us(rnd(1000));
				set_policy(SCHED_OTHER, 0);
			}
			break;
		case 10:
			bad |= pipe_op(id, &c);
			break;
		case 11:
			bad |= kill_child_op(id, &c);
			break;
		}
	}
	write(report_fd, &c, sizeof(c));
	if (outside) {
		printf("# task %d: %ld times outside its own mask after setaffinity\n", id, outside);
		bad |= BAD_MASK;
	}
	return bad;
}

/* ---- thread groups ---------------------------------------------------- */

struct member {
	struct thread t;
	int id;
	long long end;
};

static char stacks[MAX_EXTRA_THREADS][THREAD_STACK] __attribute__((aligned(16)));
static long long run_deadline;	/* the whole run's, set before any task starts */

static int member_main(void *arg)
{
	struct member *m = arg;
	return task(m->id, m->end, 1);
}

/* A task that is a thread group: 1 or 2 more threads, each with a life
 * of its own within the task's (rnd() is the group's one stream: which
 * thread draws which number is the scheduler's doing). The first thread
 * runs the mix too, then joins the others. */
static int thread_group(int id, long long end)
{
	struct member m[MAX_EXTRA_THREADS];
	int n = 1 + rnd(MAX_EXTRA_THREADS), bad = 0;
	long long now = monotonic_ns();

	/* ms of the group's life left: none when it starts after its end (a
	 * short life near the deadline, or a late start on a loaded host).
	 * Cast to unsigned, a negative span gave its threads lives of up to
	 * 16,777 s: they ran on past the run ("not ended 10 s after its
	 * end", seeds 127101039 and 536949730), a bug of this test. */
	unsigned span = end > now ? (unsigned)((end - now) / 1000000) : 0;
	for (int i = 0; i < n; i++) {
		m[i] = (struct member){ .id = id, .end = now + rnd(span + 1) * 1000000LL };
		if (thread_create(&m[i].t, member_main, &m[i], stacks[i], THREAD_STACK) < 0)
			m[i].t.tid = 0;		/* none: the others go on */
	}
	bad |= task(id, end, 1);
	/* 2 s before the parent's own limit for the process, so that a late
	 * thread is named here rather than counted lost there */
	long long until = (end > run_deadline ? end : run_deadline) + (GRACE_S - 2) * 1000000000LL;
	for (int i = 0; i < n; i++) {
		long long left_ms = (until - monotonic_ns()) / 1000000;
		if (thread_join(&m[i].t, left_ms > 0 ? (int)left_ms : 1) < 0) {
			struct sched_task_info info = { 0 };
			char st[96] = "";
			int fd;
			sched_stat(m[i].t.tid, &info);
			snprintf(st, sizeof(st), "/proc/%d/stat", m[i].t.tid);
			if ((fd = open(st, O_RDONLY)) >= 0) {
				int n = read(fd, st, sizeof(st) - 1);
				st[n > 0 ? n : 0] = 0;
				close(fd);
			}
			printf("# task %d: thread %d not ended %d s after the run's end: state %d flags 0x%x"
			       " policy %d cpu %d runs %u; %s\n", id, m[i].t.tid, GRACE_S - 2, info.state,
			       info.flags, info.policy, info.cpu, info.nr_runs, st);
			bad |= BAD_THREAD;
		} else {
			bad |= m[i].t.result;
		}
	}
	return bad;
}

/* Sums the tasks' counts until every write end is closed; hands the sum
 * to the parent through `out`. */
static void collector(int in, int out)
{
	struct counts sum = { 0 }, c;

	while (read(in, &c, sizeof(c)) == sizeof(c)) {
		sum.ops += c.ops;
		sum.changes += c.changes;
		sum.pipe_bytes += c.pipe_bytes;
		sum.child_kills += c.child_kills;
		sum.fork_failures += c.fork_failures;
		if (c.kill_wait_max_ns > sum.kill_wait_max_ns) {
			sum.kill_wait_max_ns = c.kill_wait_max_ns;
			sum.kill_wait_max_policy = c.kill_wait_max_policy;
			sum.kill_wait_max_mode = c.kill_wait_max_mode;
		}
	}
	write(out, &sum, sizeof(sum));
	_exit(0);
}

struct slot {
	pid_t pid;		/* 0: free */
	int id;
	unsigned sent;		/* signals the parent sent it, as bits */
};

static struct slot slots[MAX_LIVE];
static int nslots, live, started, reaped, strangers;
static int bad_mask, bad_pipe, bad_child, bad_signal, bad_thread, killed, groups;
static pid_t collector_pid;
static int collector_status = -1;	/* -1: not reaped yet */

/* A task ended: judge how. */
static void account(pid_t pid, int status)
{
	int k;

	if (pid == collector_pid) {	/* only after the parent's close */
		collector_status = status;
		return;
	}
	for (k = 0; k < nslots && slots[k].pid != pid; k++)
		;
	if (k == nslots) {
		printf("# reaped pid %d, which is no task of ours (status 0x%x)\n", pid, status);
		strangers++;
		return;
	}
	reaped++;
	live--;
	if (WIFSIGNALED(status)) {
		int sig = WTERMSIG(status);
		if (sig < 32 && (slots[k].sent & (1u << sig))) {
			killed++;
		} else {
			printf("# task %d (pid %d) died of signal %d; it was sent 0x%x\n",
			       slots[k].id, pid, sig, slots[k].sent);
			bad_signal++;
		}
	} else {
		int code = WEXITSTATUS(status);
		bad_mask += !!(code & BAD_MASK);
		bad_pipe += !!(code & BAD_PIPE);
		bad_child += !!(code & BAD_CHILD);
		bad_thread += !!(code & BAD_THREAD);
		if (code & ~(BAD_MASK | BAD_PIPE | BAD_CHILD | BAD_THREAD)) {
			printf("# task %d (pid %d) exited with status %d\n", slots[k].id, pid, code);
			bad_signal++;
		}
	}
	slots[k].pid = 0;
}

static void reap_ready(void)
{
	int status;
	pid_t pid;

	while ((pid = waitpid(-1, &status, WNOHANG)) > 0)
		account(pid, status);
}

/* Before the baseline: as many pipes and killed children at once as the
 * run will have, so that the kernel heap has cut its pages already. */
static void warm_up(int n)
{
	pid_t pids[MAX_LIVE];
	struct counts c;

	for (int i = 0; i < n; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			seed = stream(seed, i);
			pipe_op(i, &c);
			kill_child_op(i, &c);
			_exit(0);
		}
	}
	for (int i = 0; i < n; i++)
		if (pids[i] > 0)
			waitpid(pids[i], NULL, 0);
}

static int arg_or(int argc, char **argv, int i, long lo, long hi, int def)
{
	int v = def;

	if (argc > i && !parse_int_arg(argv[i], lo, hi, &v)) {
		printf("usage: smp_stress [tasks [seconds [seed [live]]]]: bad %s\n", argv[i]);
		exit(2);
	}
	return v;
}

int main(int argc, char **argv)
{
	static const int signals[] = { SIGKILL, SIGTERM, SIGINT, SIGHUP, SIGUSR1 };
	int ntasks = arg_or(argc, argv, 1, 1, 1000000, 64);
	int secs = arg_or(argc, argv, 2, 1, 86400, 20);
	unsigned base = argc > 3 ? (unsigned)arg_or(argc, argv, 3, 0, 0x7fffffff, 0)
				 : (unsigned)monotonic_ns() & 0x7fffffff;
	int remote = 0, fork_failures = 0, frames_before = 0, frames_after = 0;
	int report[2], result[2], collector_ok = 0;
	struct counts sum = { 0 };
	long long start, deadline, end, next_progress;

	test_require_our_kernel(argc, argv, 0);
	ncpus = test_ncpus();
	full = argc > 4;
	nslots = full ? arg_or(argc, argv, 4, 1, MAX_LIVE, 1) : ntasks;
	if (nslots > ntasks)
		nslots = ntasks;
	if (nslots > MAX_LIVE) {
		printf("# at most %d tasks at once: running %d\n", MAX_LIVE, MAX_LIVE);
		nslots = ntasks = MAX_LIVE;
	}
	ktap_plan(full ? 5 : 2);
	printf("# seed %u: %d tasks (%d at once) on %d CPUs for %d s%s; again: "
	       "/bin/smp_stress:%d:%d:%u", base, ntasks, nslots, ncpus, secs,
	       full ? ", full mix" : "", ntasks, secs, base);
	if (full)
		printf(":%d", nslots);
	printf("\n");
	seed = stream(base, -1);
	report_fd = -1;
	if (full) {
		warm_up(nslots);
		/* before the collector and its pipes, which are gone by the
		 * time the count is taken again */
		frames_before = free_frames();
	}
	if (pipe(report) < 0 || pipe(result) < 0)
		return 1;
	collector_pid = fork();
	if (collector_pid == 0) {
		close(report[1]);
		close(result[0]);
		collector(report[0], result[1]);
	}
	close(report[0]);
	close(result[1]);
	report_fd = report[1];
	start = monotonic_ns();
	deadline = start + secs * 1000000000LL;
	run_deadline = deadline;
	next_progress = start + PROGRESS_S * 1000000000LL;
	/* about one task in KILLED_SHARE is killed by the parent */
	long long kill_mean_ms = (long long)secs * 1000 * KILLED_SHARE / ntasks;
	long long next_kill = start + rnd(2 * kill_mean_ms + 1) * 1000000LL;
	long long next_stop = start;
	/* Installed before the first fork, so that no task can be sent
	 * SIGUSR2 before it has the handler (fork keeps it). */
	struct sigaction usr2 = { .sa_handler = on_usr2, .sa_flags = SA_RESTART };
	sigaction(SIGUSR2, &usr2, NULL);
	int stopped = -1, stops = 0, usr2_sent = 0;	/* slot stopped now, or -1 */
	/* Tasks live about secs x live / tasks (all of the run if they all
	 * fit at once); a new one starts as one ends. */
	long long mean_ms = (long long)secs * 1000 * nslots / ntasks;
	for (long long now = start; now < deadline; now = monotonic_ns()) {
		for (int k = 0; k < nslots && (started < ntasks || nslots < ntasks); k++) {
			if (slots[k].pid)
				continue;
			long long life = deadline;
			if (nslots < ntasks)
				life = now + (50 + rnd(2 * mean_ms < 1 ? 1 : 2 * mean_ms)) * 1000000LL;
			int id = started;
			int threaded = full && id % THREADED_SHARE == THREADED_SHARE - 1;
			pid_t pid = fork();
			if (pid == 0) {
				seed = stream(base, id);
				if (life > deadline)
					life = deadline;
				_exit(threaded ? thread_group(id, life) : task(id, life, 0));
			}
			if (pid < 0) {
				if (!full) {	/* as always: run with those we have */
					printf("# fork %d failed: errno %d\n", id, errno);
					ntasks = started;
				}
				fork_failures++;
				break;
			}
			slots[k] = (struct slot){ pid, id, 0 };
			groups += threaded;
			started++;
			live++;
		}
		/* While they run: change the odd tasks' masks from outside. */
		int k = 2 * rnd(nslots / 2 > 0 ? nslots / 2 : 1) + 1;
		if (k < nslots && slots[k].pid && slots[k].id % 2 &&
		    set_mask(slots[k].pid, random_mask()) == 0)
			remote++;
		if (full && now >= next_kill) {
			k = rnd(nslots);
			int sig = signals[rnd(5)];
			if (slots[k].pid && kill(slots[k].pid, sig) == 0)
				slots[k].sent |= 1u << sig;
			next_kill = now + rnd(2 * kill_mean_ms + 1) * 1000000LL;
		}
		if (full && now >= next_stop) {	/* stop one, continue it 20 ms on */
			if (stopped >= 0 && slots[stopped].pid) {
				kill(slots[stopped].pid, SIGCONT);
				stopped = -1;
			} else if (slots[k = rnd(nslots)].pid && kill(slots[k].pid, SIGSTOP) == 0) {
				stopped = k;
				stops++;
			} else {
				stopped = -1;
			}
			if (slots[k = rnd(nslots)].pid && kill(slots[k].pid, SIGUSR2) == 0)
				usr2_sent++;
			next_stop = now + 20000000LL;
		}
		if (full)
			reap_ready();
		if (full && now >= next_progress) {
			printf("# %lld s: %d live, %d started, %d reaped, %d killed, %d free frames\n",
			       (now - start) / 1000000000LL, live, started, reaped, killed,
			       free_frames());
			next_progress += PROGRESS_S * 1000000000LL;
		}
		sleep_us(2000);
	}
	if (stopped >= 0 && slots[stopped].pid)
		kill(slots[stopped].pid, SIGCONT);
	if (full)
		printf("# %d stops and continues, %d SIGUSR2 caught or to be caught\n",
		       stops, usr2_sent);
	end = deadline + GRACE_S * 1000000000LL;
	while (live > 0 && monotonic_ns() < end) {
		reap_ready();
		if (live > 0)
			sleep_us(10000);
	}
	int lost = live;
	for (int k = 0; k < nslots; k++) {
		struct sched_task_info info;
		if (!slots[k].pid)
			continue;
		if (sched_stat(slots[k].pid, &info) == 0)
			printf("# task %d (pid %d) still there: state %d policy %d prio %d cpu %d"
			       " runs %u mask 0x%x\n", slots[k].id, slots[k].pid, info.state,
			       info.policy, info.prio, info.cpu, info.nr_runs, info.cpus_allowed);
		else
			printf("# task %d (pid %d) still there, not known to call 500\n",
			       slots[k].id, slots[k].pid);
		kill(slots[k].pid, SIGKILL);
		slots[k].sent |= 1u << SIGKILL;
	}
	/* what is left was sent SIGKILL: give it a moment, so the rest of the
	 * numbers say something */
	for (end = monotonic_ns() + 2000000000LL; live > 0 && monotonic_ns() < end;) {
		reap_ready();
		sleep_us(10000);
	}
	close(report[1]);
	/* the collector ends once no task (or child of one) holds the pipe */
	for (end = monotonic_ns() + 10000000000LL; monotonic_ns() < end;) {
		int status;
		if (collector_status >= 0 ||
		    waitpid(collector_pid, &status, WNOHANG) == collector_pid) {
			collector_ok = read(result[0], &sum, sizeof(sum)) == sizeof(sum);
			break;
		}
		sleep_us(10000);
	}
	if (!collector_ok) {
		printf("# the tasks' report pipe never reached end of file: a process still holds it\n");
		kill(collector_pid, SIGKILL);
		waitpid(collector_pid, NULL, 0);
	}
	close(result[0]);
	if (full) {
		/* orphaned children of killed tasks are init's to reap */
		for (end = monotonic_ns() + FRAMES_WAIT_MS * 1000000LL;; sleep_us(50000)) {
			frames_after = free_frames();
			if ((frames_after <= frames_before && frames_after >= frames_before - FRAME_SLACK) ||
			    monotonic_ns() >= end)
				break;
		}
	}
	long long elapsed_ms = (monotonic_ns() - start) / 1000000;
	if (!full) {
		ktap_ok(reaped == ntasks, "stress_every_task_exits_and_is_reaped",
			"%d of %d reaped within %d s of the %d s deadline (%lld ms after start);"
			" %ld operations, %ld CPU changes seen, %d remote mask changes; seed %u",
			reaped, ntasks, GRACE_S, secs, elapsed_ms, sum.ops, sum.changes,
			remote, base);
		ktap_ok(bad_mask + bad_signal == 0, "stress_tasks_stay_inside_their_masks",
			"%d tasks failed (outside their mask, or killed); seed %u",
			bad_mask + bad_signal, base);
		return ktap_done();
	}
	ktap_ok(!lost && reaped == started && !strangers && collector_ok && !bad_thread,
		"stress_every_task_exits_and_is_reaped",
		"%d started, %d reaped (%d killed by us), %d still there %d s after the"
		" %d s deadline, %d strangers; %ld operations, %ld CPU changes seen, %d"
		" remote mask changes, %d+%ld forks refused (parent+tasks); %lld ms;"
		" %d thread groups, %d with a thread not ended; seed %u",
		started, reaped, killed, lost, GRACE_S, secs, strangers, sum.ops,
		sum.changes, remote, fork_failures, sum.fork_failures, elapsed_ms,
		groups, bad_thread, base);
	ktap_ok(bad_mask == 0, "stress_tasks_stay_inside_their_masks",
		"%d tasks ran outside their mask; seed %u", bad_mask, base);
	ktap_ok(bad_pipe == 0, "stress_pipe_data_arrives_intact",
		"%d tasks saw pipe data lost or changed; %ld bytes checked; seed %u",
		bad_pipe, sum.pipe_bytes, base);
	ktap_ok(bad_child == 0 && bad_signal == 0, "stress_killed_tasks_end_as_killed",
		"%d killed by us, %d tasks ended otherwise than sent or exited,"
		" %d saw a child end wrongly; %ld children killed, longest kill to"
		" reaped %lld us (a %s child of policy %d); seed %u", killed, bad_signal,
		bad_child, sum.child_kills, sum.kill_wait_max_ns / 1000,
		child_what[sum.kill_wait_max_mode & 3], sum.kill_wait_max_policy, base);
	ktap_ok(frames_after <= frames_before && frames_after >= frames_before - FRAME_SLACK,
		"stress_free_frames_back_to_baseline",
		"free frames before %d, after %d (heap may keep up to %d); seed %u",
		frames_before, frames_after, FRAME_SLACK, base);
	return ktap_done();
}
