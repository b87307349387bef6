/*
 * threads - what a pthreads program built with the distribution's C
 * library asks of the kernel (issue 26): clone(CLONE_THREAD), futexes,
 * per-thread TLS, ids, policies and signals, in KTAP, so that
 * tests/linux-diff.sh can compare this kernel's transcript with Linux
 * 6.1's. Run as root (one thread switches itself to SCHED_FIFO).
 *
 * Built with Debian's glibc, not the project's libc:
 *	i686-linux-gnu-gcc -static -pthread -O2 -o threads user/glibc/threads.c
 * threads.linux.ktap beside this file is its transcript on Debian's Linux
 * 6.1 in QEMU (tests/linux-diff.sh threads), made as memory.linux.ktap
 * was (see user/glibc/memory.c).
 *
 * Every check is deterministic on one CPU and on several: threads that
 * must be asleep before a wake are waited for with a flag and a pause.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int n;
static int failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	fflush(stdout);
	failures += !ok;
}

static long raw(long r)
{
	return r == -1 ? -errno : r;
}

static pid_t gettid_(void)
{
	return (pid_t)syscall(SYS_gettid);
}

static void pause_ms(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };
	nanosleep(&ts, NULL);
}

static long futex(void *uaddr, int op, uint32_t val, const struct timespec *t, void *uaddr2,
		  uint32_t val3)
{
	return raw(syscall(SYS_futex, uaddr, op, val, t, uaddr2, val3));
}

/* ---- mutex, condition variable, join -------------------------------------- */

#define WORKERS 4
#define ROUNDS 20000

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long counter;

static void *add_many(void *arg)
{
	for (int i = 0; i < ROUNDS; i++) {
		pthread_mutex_lock(&lock);
		counter++;
		pthread_mutex_unlock(&lock);
		if (i % 1000 == 0)
			sched_yield();
	}
	return (void *)((intptr_t)arg * 10);
}

static void mutex_and_join(void)
{
	pthread_t t[WORKERS];
	int made = 0, joined = 0;
	for (intptr_t i = 0; i < WORKERS; i++)
		made += pthread_create(&t[i], NULL, add_many, (void *)i) == 0;
	for (int i = 0; i < WORKERS; i++) {
		void *v = NULL;
		joined += pthread_join(t[i], &v) == 0 && (intptr_t)v == i * 10;
	}
	check(made == WORKERS, "pthread_create_4_threads");
	check(joined == WORKERS, "pthread_join_returns_each_value");
	check(counter == (long)WORKERS * ROUNDS, "mutex_keeps_80000_increments");
}

#define SLOTS 4
#define ITEMS 2000

static pthread_cond_t not_full = PTHREAD_COND_INITIALIZER, not_empty = PTHREAD_COND_INITIALIZER;
static int queue[SLOTS], head, count;

static void *producer(void *arg)
{
	(void)arg;
	for (int i = 1; i <= ITEMS; i++) {
		pthread_mutex_lock(&lock);
		while (count == SLOTS)
			pthread_cond_wait(&not_full, &lock);
		queue[(head + count++) % SLOTS] = i;
		pthread_cond_signal(&not_empty);
		pthread_mutex_unlock(&lock);
	}
	return NULL;
}

static void *consumer(void *arg)
{
	long sum = 0;
	(void)arg;
	for (int i = 0; i < ITEMS; i++) {
		pthread_mutex_lock(&lock);
		while (count == 0)
			pthread_cond_wait(&not_empty, &lock);
		sum += queue[head];
		head = (head + 1) % SLOTS;
		count--;
		pthread_cond_signal(&not_full);
		pthread_mutex_unlock(&lock);
	}
	return (void *)sum;
}

static void condvar(void)
{
	pthread_t p, c;
	void *sum = NULL;
	pthread_create(&c, NULL, consumer, NULL);
	pthread_create(&p, NULL, producer, NULL);
	pthread_join(p, NULL);
	pthread_join(c, &sum);
	check((long)sum == (long)ITEMS * (ITEMS + 1) / 2, "condvar_hands_2000_items_over");
}

/* A thread that exits holding a robust mutex: the kernel walks its
 * robust list (set_robust_list) and marks the lock's owner dead, waking
 * the thread waiting for it, which gets EOWNERDEAD. */
static pthread_mutex_t robust;
static volatile int robust_held;

static void *die_holding(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&robust);
	robust_held = 1;
	pause_ms(100);			/* the main thread waits for it meanwhile */
	return NULL;
}

static void robust_mutex(void)
{
	pthread_mutexattr_t a;
	pthread_mutexattr_init(&a);
	pthread_mutexattr_setrobust(&a, PTHREAD_MUTEX_ROBUST);
	pthread_mutex_init(&robust, &a);
	pthread_t t;
	pthread_create(&t, NULL, die_holding, NULL);
	while (!robust_held)
		pause_ms(1);
	int r = pthread_mutex_lock(&robust);
	check(r == EOWNERDEAD, "robust_mutex_of_a_thread_that_died_eownerdead");
	if (r == EOWNERDEAD)
		pthread_mutex_consistent(&robust);
	check(pthread_mutex_unlock(&robust) == 0 && pthread_join(t, NULL) == 0,
	      "robust_mutex_made_consistent_and_unlocked");
}

/* ---- TLS and ids ------------------------------------------------------------ */

static __thread int tls_value = 7;
static __thread char tls_name[16];

struct ids { int idx; pid_t pid, tid; int tls_start, tls_end; void *tls_addr; };

static void *who(void *arg)
{
	struct ids *r = arg;
	char want[16];
	r->tls_start = tls_value;		/* each thread's starts at 7 */
	tls_value = 100 + r->idx;
	snprintf(tls_name, sizeof(tls_name), "t%d", tls_value);
	snprintf(want, sizeof(want), "t%d", 100 + r->idx);
	pause_ms(20);				/* the others write theirs meanwhile */
	r->tls_end = tls_value == 100 + r->idx && strcmp(tls_name, want) == 0;
	r->tls_addr = &tls_value;
	r->pid = getpid();
	r->tid = gettid_();
	return NULL;
}

static void tls_and_ids(void)
{
	struct ids r[3];
	pthread_t t[3];
	tls_value = 1;
	for (int i = 0; i < 3; i++) {
		r[i].idx = i;
		pthread_create(&t[i], NULL, who, &r[i]);
	}
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], NULL);
	int fresh = 1, kept = 1, distinct = 1, same_pid = 1, own_tid = 1;
	for (int i = 0; i < 3; i++) {
		fresh &= r[i].tls_start == 7;
		kept &= r[i].tls_end;
		distinct &= r[i].tls_addr != &tls_value;
		same_pid &= r[i].pid == getpid();
		own_tid &= r[i].tid != getpid() && r[i].tid > 0;
		for (int j = 0; j < i; j++)
			distinct &= r[i].tls_addr != r[j].tls_addr, own_tid &= r[i].tid != r[j].tid;
	}
	check(fresh, "tls_starts_at_its_initial_value_in_each_thread");
	check(kept && tls_value == 1, "tls_values_stay_distinct_per_thread");
	check(distinct, "tls_addresses_differ_per_thread");
	check(same_pid, "getpid_is_the_process_in_every_thread");
	check(own_tid && gettid_() == getpid(), "gettid_differs_per_thread_main_is_getpid");
}

/* ---- CPU time of a process is all its threads' ------------------------------ */

static long cpu_ms(clockid_t clock)
{
	struct timespec ts;
	clock_gettime(clock, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

static void *spin_250ms(void *arg)
{
	(void)arg;
	while (cpu_ms(CLOCK_THREAD_CPUTIME_ID) < 250)
		;
	return NULL;
}

static void cpu_times(void)
{
	pthread_t t;
	long before = cpu_ms(CLOCK_THREAD_CPUTIME_ID);
	pthread_create(&t, NULL, spin_250ms, NULL);
	pthread_join(t, NULL);
	struct rusage self, thread;
	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_THREAD, &thread);
	long self_ms = self.ru_utime.tv_sec * 1000 + self.ru_utime.tv_usec / 1000 +
		       self.ru_stime.tv_sec * 1000 + self.ru_stime.tv_usec / 1000;
	long mine_ms = thread.ru_utime.tv_sec * 1000 + thread.ru_utime.tv_usec / 1000 +
		       thread.ru_stime.tv_sec * 1000 + thread.ru_stime.tv_usec / 1000;
	check(cpu_ms(CLOCK_PROCESS_CPUTIME_ID) >= 250 + before && self_ms >= 240,
	      "process_cpu_time_counts_an_exited_threads_250_ms");
	check(cpu_ms(CLOCK_THREAD_CPUTIME_ID) - before < 200 && mine_ms < self_ms,
	      "thread_cpu_time_is_the_callers_own");
}

/* ---- names (prctl) ------------------------------------------------------------- */

static void *rename_self(void *arg)
{
	char *out = arg;
	prctl(PR_SET_NAME, "a-very-long-thread-name", 0, 0, 0);
	prctl(PR_GET_NAME, out, 0, 0, 0);
	return NULL;
}

static void names(void)
{
	char mine[16] = "", theirs[16] = "";
	pthread_t t;
	pthread_create(&t, NULL, rename_self, theirs);
	pthread_join(t, NULL);
	prctl(PR_GET_NAME, mine, 0, 0, 0);
	check(strcmp(theirs, "a-very-long-thr") == 0, "prctl_set_name_cut_to_15_bytes_in_a_thread");
	check(strcmp(mine, "threads") == 0, "prctl_get_name_of_the_main_thread_unchanged");
	check(raw(prctl(9999, 0, 0, 0, 0)) == -EINVAL, "prctl_unknown_option_einval");
}

/* ---- a thread at SCHED_FIFO in a SCHED_OTHER process ------------------------- */

static void *go_fifo(void *arg)
{
	int *r = arg;
	struct sched_param sp = { .sched_priority = 10 };
	r[0] = pthread_setschedparam(pthread_self(), SCHED_FIFO, &sp);
	r[1] = sched_getscheduler(0);
	r[2] = sched_getscheduler(gettid_());
	r[3] = sched_getscheduler(getpid());	/* the main thread's */
	return NULL;
}

static void fifo_thread(void)
{
	int r[4] = { -1, -1, -1, -1 };
	pthread_t t;
	pthread_create(&t, NULL, go_fifo, r);
	pthread_join(t, NULL);
	check(r[0] == 0 && r[1] == SCHED_FIFO && r[2] == SCHED_FIFO,
	      "thread_switches_itself_to_fifo");
	check(r[3] == SCHED_OTHER && sched_getscheduler(0) == SCHED_OTHER,
	      "process_main_thread_stays_normal");
}

/* ---- floating point and big mallocs in threads ------------------------------- */

static void *float_work(void *arg)
{
	double x = (double)(intptr_t)arg, acc = 0;
	char s[32];
	for (int i = 1; i <= 20000; i++) {
		acc += x / i;
		if (i % 5000 == 0)
			sched_yield();		/* others' FPU registers in between */
	}
	snprintf(s, sizeof(s), "%.6f", acc);
	return strdup(s);
}

static void floating_point(void)
{
	pthread_t t[3];
	char *s[3];
	for (intptr_t i = 0; i < 3; i++)
		pthread_create(&t[i], NULL, float_work, (void *)(i + 1));
	for (int i = 0; i < 3; i++)
		pthread_join(t[i], (void **)&s[i]);
	char want[3][32];
	for (int i = 0; i < 3; i++) {
		double acc = 0;
		for (int k = 1; k <= 20000; k++)
			acc += (double)(i + 1) / k;
		snprintf(want[i], sizeof(want[i]), "%.6f", acc);
	}
	int same = 1;
	for (int i = 0; i < 3; i++)
		same &= strcmp(s[i], want[i]) == 0;
	char f[32];
	snprintf(f, sizeof(f), "%f", 3.25);
	check(same && strcmp(f, "3.250000") == 0, "printf_f_and_float_sums_in_threads");
	for (int i = 0; i < 3; i++)
		free(s[i]);
}

static void *big_malloc(void *arg)
{
	size_t len = (4u << 20) + (size_t)(intptr_t)arg * 4096;
	unsigned char *p = malloc(len);
	if (!p)
		return (void *)0;
	for (size_t i = 0; i < len; i += 512)
		p[i] = (unsigned char)(i / 512 + (intptr_t)arg);
	int ok = 1;
	sched_yield();
	for (size_t i = 0; i < len; i += 512)
		ok &= p[i] == (unsigned char)(i / 512 + (intptr_t)arg);
	free(p);
	return (void *)(intptr_t)ok;
}

static void large_mallocs(void)
{
	pthread_t t[4];
	int ok = 0;
	for (intptr_t i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, big_malloc, (void *)i);
	for (int i = 0; i < 4; i++) {
		void *v;
		pthread_join(t[i], &v);
		ok += (intptr_t)v == 1;
	}
	check(ok == 4, "four_threads_malloc_4_mib_each");
}

static void *nothing(void *arg)
{
	return arg;
}

static void many_threads(void)
{
	int ok = 0;
	for (intptr_t i = 0; i < 60; i++) {
		pthread_t t;
		void *v = NULL;
		if (pthread_create(&t, NULL, nothing, (void *)i) == 0 && pthread_join(t, &v) == 0)
			ok += (intptr_t)v == i;
	}
	check(ok == 60, "sixty_threads_one_after_another");
}

/* ---- processes with threads ----------------------------------------------------- */

static volatile int release_helper;

static void *helper(void *arg)
{
	(void)arg;
	while (!release_helper)
		pause_ms(5);
	return NULL;
}

static void *child_thread(void *arg)
{
	*(pid_t *)arg = gettid_();
	return NULL;
}

static void fork_in_threads(void)
{
	pthread_t h;
	pthread_create(&h, NULL, helper, NULL);
	pid_t pid = fork();
	if (pid == 0) {
		/* Only the forking thread came along: it is the new process's
		 * only thread, and it can make threads of its own. */
		pthread_t t;
		pid_t tid = 0;
		int ok = gettid_() == getpid();
		ok &= pthread_create(&t, NULL, child_thread, &tid) == 0 && pthread_join(t, NULL) == 0;
		ok &= tid != 0 && tid != getpid();
		_exit(ok ? 3 : 1);
	}
	int st = 0;
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 3,
	      "fork_from_a_threaded_process_copies_one_thread");
	release_helper = 1;
	pthread_join(h, NULL);
}

static void *exit_five(void *arg)
{
	(void)arg;
	pause_ms(20);
	exit(5);
}

static void *crash(void *arg)
{
	(void)arg;
	pause_ms(20);
	volatile int *volatile bad = (int *)16;
	*bad = 1;
	return NULL;
}

/* A child whose second thread ends it while the first sleeps on. */
static int child_status(void *(*fn)(void *))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, fn, NULL);
		for (;;)
			pause();
	}
	int st = -1;
	waitpid(pid, &st, 0);
	return st;
}

static void *thread_exits_alone(void *arg)
{
	(void)arg;
	pause_ms(20);
	syscall(SYS_exit, 0);		/* this thread only (pthread_exit's last step) */
	return NULL;
}

static void group_ends(void)
{
	int st = child_status(exit_five);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 5, "exit_in_a_thread_ends_the_whole_process");
	st = child_status(crash);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "a_thread_fault_kills_the_process_sigsegv");

	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, thread_exits_alone, NULL);
		pause_ms(100);
		_exit(9);			/* the main thread outlives it */
	}
	st = -1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 9, "sys_exit_ends_one_thread_only");
}

static char *self_path;

static void *exec_self(void *arg)
{
	(void)arg;
	char *argv[] = { self_path, "exec-child", NULL };
	execv(self_path, argv);
	_exit(1);
}

static void exec_from_thread(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		pthread_t t;
		pthread_create(&t, NULL, exec_self, NULL);
		for (;;)
			pause();
	}
	int st = -1;
	check(waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 4,
	      "execve_from_a_thread_ends_the_others_and_keeps_the_pid");
}

static void *sleep_forever(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;		/* not reached */
}

/* A thread bomb as user 1000 with RLIMIT_NPROC 10: threads count as
 * processes, so 9 threads beside the first, then EAGAIN. Root's limit
 * is not touched (the child's setuid makes it user 1000). */
static void thread_bomb(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		struct rlimit r = { 10, 10 };
		if (setuid(1000) != 0 || setrlimit(RLIMIT_NPROC, &r) != 0)
			_exit(100);
		pthread_attr_t a;
		pthread_attr_init(&a);
		pthread_attr_setstacksize(&a, 65536);
		int made = 0, err = 0;
		while (made < 50 && err == 0) {
			pthread_t t;
			err = pthread_create(&t, &a, sleep_forever, NULL);
			made += err == 0;
		}
		_exit(err == EAGAIN ? made : 99);
	}
	int st = -1;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 9, "thread_bomb_stopped_by_rlimit_nproc_at_9_threads");
	pid_t other = fork();		/* and root can still fork */
	if (other == 0)
		_exit(0);
	check(other > 0 && waitpid(other, &st, 0) == other, "root_forks_after_the_thread_bomb");
}

/* ---- signals and threads --------------------------------------------------------- */

static volatile pid_t handled_by;
static volatile int handled;

static void on_usr1(int sig)
{
	(void)sig;
	handled_by = gettid_();
	handled = 1;
}

struct waiter { pid_t tid; volatile int ready; };

static void *wait_for_usr1(void *arg)
{
	struct waiter *w = arg;
	sigset_t usr1;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);
	pthread_sigmask(SIG_UNBLOCK, &usr1, NULL);	/* the creator may block it */
	w->tid = gettid_();
	w->ready = 1;
	while (!handled)
		pause_ms(2);
	return NULL;
}

static void signals(void)
{
	struct sigaction sa = { .sa_handler = on_usr1 };
	sigaction(SIGUSR1, &sa, NULL);
	sigset_t usr1, old;
	sigemptyset(&usr1);
	sigaddset(&usr1, SIGUSR1);

	struct waiter w = { 0, 0 };
	pthread_t t;
	pthread_create(&t, NULL, wait_for_usr1, &w);
	while (!w.ready)
		pause_ms(1);
	handled = 0;
	check(raw(syscall(SYS_tgkill, getpid(), w.tid, SIGUSR1)) == 0, "tgkill_to_a_thread");
	pthread_join(t, NULL);
	check(handled_by == w.tid, "tgkill_runs_the_handler_in_that_thread");
	check(raw(syscall(SYS_tgkill, getpid() + 100000, w.tid, 0)) == -ESRCH,
	      "tgkill_wrong_group_esrch");
	check(raw(syscall(SYS_tgkill, getpid(), 0, 0)) == -EINVAL, "tgkill_tid_0_einval");

	/* The main thread blocks it: a signal to the process goes to the
	 * thread that does not. */
	pthread_sigmask(SIG_BLOCK, &usr1, &old);
	w.ready = 0;
	handled = 0;
	pthread_create(&t, NULL, wait_for_usr1, &w);
	while (!w.ready)
		pause_ms(1);
	sigset_t mine;
	sigemptyset(&mine);
	pthread_sigmask(SIG_BLOCK, NULL, &mine);
	kill(getpid(), SIGUSR1);
	pthread_join(t, NULL);
	check(handled_by == w.tid && sigismember(&mine, SIGUSR1),
	      "kill_goes_to_the_thread_that_does_not_block_it");
	pthread_sigmask(SIG_SETMASK, &old, NULL);
}

/* ---- futex calls ------------------------------------------------------------------ */

static uint32_t f1, f2;
static volatile int asleep;

static void *wait_f1(void *arg)
{
	(void)arg;
	__atomic_add_fetch(&asleep, 1, __ATOMIC_SEQ_CST);
	long r;
	do
		r = futex(&f1, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
	while (r == -EINTR);
	return (void *)r;
}

static void futex_requeue_and_wake(void)
{
	pthread_t t[2];
	f1 = f2 = 0;
	asleep = 0;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, wait_f1, NULL);
	while (asleep < 2)
		pause_ms(1);
	pause_ms(100);			/* both inside FUTEX_WAIT */
	check(futex(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &f2, 5) == -EAGAIN,
	      "futex_cmp_requeue_value_changed_eagain");
	long moved = futex(&f1, FUTEX_CMP_REQUEUE_PRIVATE, 1, (void *)1, &f2, 0);
	long woke2 = futex(&f2, FUTEX_WAKE_PRIVATE, 10, NULL, NULL, 0);
	void *r0, *r1;
	pthread_join(t[0], &r0);
	pthread_join(t[1], &r1);
	check(moved == 2 && woke2 == 1 && r0 == 0 && r1 == 0,
	      "futex_cmp_requeue_wakes_one_moves_one");
}

static void *interrupted(void *arg)
{
	uint32_t word = 0;
	struct sigaction sa = { .sa_handler = on_usr1 };	/* no SA_RESTART */
	sigaction(SIGUSR2, &sa, NULL);
	*(pid_t *)arg = gettid_();
	return (void *)futex(&word, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0);
}

static void futex_errors(void)
{
	uint32_t w = 1, b = 0;
	struct timespec ten_ms = { 0, 10000000 };
	check(futex(&w, FUTEX_WAIT_PRIVATE, 2, NULL, NULL, 0) == -EAGAIN,
	      "futex_wait_value_differs_eagain");
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long r = futex(&w, FUTEX_WAIT_PRIVATE, 1, &ten_ms, NULL, 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	long ms = (t1.tv_sec - t0.tv_sec) * 1000 + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	check(r == -ETIMEDOUT && ms >= 10, "futex_wait_relative_timeout_etimedout");
	struct timespec at;
	clock_gettime(CLOCK_REALTIME, &at);
	at.tv_nsec += 10000000;
	if (at.tv_nsec >= 1000000000)
		at.tv_sec++, at.tv_nsec -= 1000000000;
	check(futex(&w, FUTEX_WAIT_BITSET_PRIVATE | FUTEX_CLOCK_REALTIME, 1, &at, NULL,
		    FUTEX_BITSET_MATCH_ANY) == -ETIMEDOUT, "futex_wait_bitset_absolute_realtime_etimedout");
	check(futex(&w, FUTEX_WAIT_BITSET_PRIVATE, 1, NULL, NULL, 0) == -EINVAL,
	      "futex_wait_bitset_zero_einval");
	check(futex((char *)&w + 1, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == -EINVAL,
	      "futex_unaligned_einval");
	check(futex((void *)16, FUTEX_WAIT_PRIVATE, 0, NULL, NULL, 0) == -EFAULT,
	      "futex_wait_unmapped_efault");
	check(futex((void *)16, FUTEX_WAKE, 1, NULL, NULL, 0) == -EFAULT,
	      "futex_shared_wake_unmapped_efault");
	check(futex(&w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0) == 0, "futex_wake_nobody_0");
	check(futex(&w, FUTEX_WAKE | FUTEX_CLOCK_REALTIME, 1, NULL, NULL, 0) == -ENOSYS,
	      "futex_wake_with_clock_realtime_enosys");
	check(futex(&w, 99, 1, NULL, NULL, 0) == -ENOSYS, "futex_unknown_op_enosys");
	struct timespec bad = { 0, 1000000000 };
	check(futex(&w, FUTEX_WAIT_PRIVATE, 1, &bad, NULL, 0) == -EINVAL,
	      "futex_wait_bad_timespec_einval");
	long woke = futex(&w, FUTEX_WAKE_OP_PRIVATE, 1, (void *)1, &b,
			  FUTEX_OP(FUTEX_OP_ADD, 5, FUTEX_OP_CMP_EQ, 0));
	check(woke == 0 && b == 5, "futex_wake_op_adds_to_the_second_word");
	check(futex(&w, FUTEX_REQUEUE_PRIVATE, (uint32_t)-1, NULL, &b, 0) == -EINVAL,
	      "futex_requeue_negative_count_einval");

	pid_t tid = 0;
	pthread_t t;
	pthread_create(&t, NULL, interrupted, &tid);
	while (!tid)
		pause_ms(1);
	pause_ms(100);
	syscall(SYS_tgkill, getpid(), tid, SIGUSR2);
	void *res;
	pthread_join(t, &res);
	check((long)res == -EINTR, "futex_wait_interrupted_by_a_handler_eintr");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
		return gettid_() == getpid() ? 4 : 2;
	static char path[256];
	snprintf(path, sizeof(path), "%s%s", strchr(argv[0], '/') ? "" : "/bin/", argv[0]);
	self_path = path;
	printf("KTAP version 1\n1..49\n");
	mutex_and_join();
	condvar();
	robust_mutex();
	tls_and_ids();
	fifo_thread();
	names();
	cpu_times();
	floating_point();
	large_mallocs();
	many_threads();
	fork_in_threads();
	group_ends();
	exec_from_thread();
	thread_bomb();
	signals();
	futex_requeue_and_wake();
	futex_errors();
	fflush(stdout);
	return failures != 0;
}
