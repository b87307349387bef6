/*
 * itimer - alarm, setitimer and getitimer (issue 28: stress-ng's
 * --timeout is an alarm) in KTAP, so that tests/linux-diff.sh compares
 * this kernel's answers with Linux 6.1's: alarm's return value and its
 * rounding, SIGALRM's arrival time, an interval timer's re-arms (at the
 * signal's delivery: a blocked SIGALRM leaves the timer at 0), getitimer's
 * values, ITIMER_VIRTUAL and ITIMER_PROF on CPU time, fork's child without
 * timers, execve keeping ITIMER_REAL, and the errors in Linux's order.
 * Times are checked against bounds wide enough for QEMU under load.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o itimer user/glibc/itimer.c
 * itimer.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * (6.1.0-50-686) in QEMU, as tests/linux-diff.sh boots it. The calls are
 * made raw (syscall()), with Linux's 32-bit struct itimerval, so that
 * glibc's 64-bit time conversions do not touch the bad pointers.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct tv32 { long sec, usec; };
struct itv32 { struct tv32 interval, value; };	/* Linux's __kernel_old_itimerval */

#define REAL	0
#define VIRTUAL	1
#define PROF	2
#define MS	1000000LL

static int n, failures;
static volatile int alarms, vtalrms, profs;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static long raw(long r)
{
	return r < 0 ? -errno : r;
}

static long set(int which, const void *v, void *old)
{
	return raw(syscall(SYS_setitimer, which, v, old));
}

static long get(int which, void *v)
{
	return raw(syscall(SYS_getitimer, which, v));
}

static long alarm_raw(unsigned s)
{
	return syscall(SYS_alarm, s);
}

static struct itv32 itv(long long value_us, long long interval_us)
{
	return (struct itv32){ { (long)(interval_us / 1000000), (long)(interval_us % 1000000) },
			       { (long)(value_us / 1000000), (long)(value_us % 1000000) } };
}

static long long us(struct tv32 t)
{
	return t.sec * 1000000LL + t.usec;
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void on_signal(int sig)
{
	if (sig == SIGALRM)
		alarms++;
	else if (sig == SIGVTALRM)
		vtalrms++;
	else
		profs++;
}

static void disarm_all(void)
{
	struct itv32 zero = itv(0, 0);
	for (int w = REAL; w <= PROF; w++)
		set(w, &zero, NULL);
}

/* Sleep until *counter reaches want or limit_ms passes; the time waited. */
/* Wait until *counter reaches want, or limit_ms from t0; the ns since t0,
 * which the caller reads before it arms the timer: a check of "never
 * early" must count from there, or a host stall between the arming and
 * the first look makes an on-time signal look early. */
static long long wait_for(long long t0, volatile int *counter, int want, long long limit_ms)
{
	while (*counter < want && now_ns() - t0 < limit_ms * MS) {
		struct timespec ts = { 0, 1000000 };
		nanosleep(&ts, NULL);
	}
	return now_ns() - t0;
}

static void alarm_checks(void)
{
	disarm_all();
	check(alarm_raw(5) == 0, "alarm_none_pending_returns_0");
	check(alarm_raw(3) == 5, "alarm_returns_seconds_left_rounded_up");
	check(alarm_raw(0) == 3, "alarm_0_returns_old");
	struct itv32 v;
	check(get(REAL, &v) == 0 && us(v.value) == 0 && us(v.interval) == 0, "alarm_0_cancels");
	struct itv32 t = itv(2600000, 0);
	set(REAL, &t, NULL);
	check(alarm_raw(0) == 3, "alarm_rounds_2_6s_to_3");
	t = itv(2400000, 0);
	set(REAL, &t, NULL);
	check(alarm_raw(0) == 2, "alarm_rounds_2_4s_to_2");
	t = itv(300000, 0);
	set(REAL, &t, NULL);
	check(alarm_raw(0) == 1, "alarm_under_1s_returns_1");
	t = itv(1500000, 0);
	set(REAL, &t, NULL);
	alarm_raw(0);
	check(get(REAL, &v) == 0 && us(v.value) == 0, "alarm_0_cancels_setitimer");

	alarms = 0;
	long long t0 = now_ns();
	alarm_raw(1);
	long long waited = wait_for(t0, &alarms, 1, 3000);
	/* never early; late only by what a busy host takes (wait_for's 3 s) */
	check(alarms == 1 && waited >= 1000 * MS, "alarm_1_arrives_after_1s");
}

static void real_checks(void)
{
	struct itv32 t = itv(1500000, 250000), old, v;
	long long t_set = now_ns();
	check(set(REAL, &t, &old) == 0 && us(old.value) == 0 && us(old.interval) == 0,
	      "setitimer_real_old_is_zero");
	/* what is left: 1.5 s less the time since the set, taken after the
	 * call (a busy host may have taken much of it), and a tick */
	int got = get(REAL, &v);
	long long floor_us = 1500000 - (now_ns() - t_set) / 1000 - 10000;
	check(got == 0 && us(v.value) > floor_us && us(v.value) <= 1500000 &&
	      v.interval.sec == 0 && v.interval.usec == 250000, "getitimer_real_value_and_interval");
	struct itv32 u = itv(700000, 0);
	got = set(REAL, &u, &old);
	floor_us = 1500000 - (now_ns() - t_set) / 1000 - 10000;
	check(got == 0 && us(old.value) > floor_us && us(old.value) <= 1500000 &&
	      us(old.interval) == 250000, "setitimer_real_returns_old");
	disarm_all();

	alarms = 0;
	t = itv(50000, 0);
	long long t0 = now_ns();
	set(REAL, &t, NULL);
	long long waited = wait_for(t0, &alarms, 1, 1000);
	/* Never early; late by up to most of a second on a loaded host (make
	 * test's linux-diff boots both kernels at once on 2 cores: 300 ms
	 * was once too little here). */
	check(alarms == 1 && waited >= 50 * MS && waited < 900 * MS, "sigalrm_after_50ms");
	if (!(alarms == 1 && waited >= 50 * MS && waited < 900 * MS))	/* raw log only */
		printf("# sigalrm_after_50ms: %d alarms, waited %lld ms\n", alarms, waited / MS);
	check(get(REAL, &v) == 0 && us(v.value) == 0, "one_shot_done_reads_0");

	alarms = 0;
	t = itv(10000, 10000);
	t0 = now_ns();
	set(REAL, &t, NULL);
	wait_for(t0, &alarms, 5, 2000);
	waited = now_ns() - t0;
	/* never early; late only by what a busy host takes (wait_for's 2 s) */
	check(alarms >= 5 && waited >= 50 * MS, "interval_5_sigalrms_after_50ms");
	check(get(REAL, &v) == 0 && us(v.value) > 0 && us(v.value) <= 10000 &&
	      us(v.interval) == 10000, "interval_rearmed");
	disarm_all();
	int before = alarms;
	struct timespec ts = { 0, 50 * MS };
	nanosleep(&ts, NULL);
	check(alarms == before, "disarmed_interval_stops");
}

/* Linux re-arms an interval ITIMER_REAL when SIGALRM is taken: blocked,
 * the timer reads 0 with the signal pending, and one signal comes. */
static void blocked_checks(void)
{
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigprocmask(SIG_BLOCK, &block, &old);
	alarms = 0;
	struct itv32 t = itv(10000, 10000), v;
	set(REAL, &t, NULL);
	struct timespec ts = { 0, 60 * MS };
	nanosleep(&ts, NULL);
	sigset_t pending;
	sigpending(&pending);
	check(sigismember(&pending, SIGALRM) == 1 && get(REAL, &v) == 0 && us(v.value) == 0 &&
	      us(v.interval) == 10000, "blocked_sigalrm_pending_timer_reads_0");
	long long t_unblock = now_ns();
	sigprocmask(SIG_SETMASK, &old, NULL);
	/* one at the unblock, not the 6 periods it was blocked for; the
	 * re-armed timer may fire again while a busy host keeps us from the
	 * check: one more per 10 ms that passed */
	long long later = (now_ns() - t_unblock) / (10 * MS);
	check(alarms >= 1 && alarms <= 1 + later, "unblocked_one_sigalrm_not_a_backlog");
	check(get(REAL, &v) == 0 && us(v.value) > 0 && us(v.value) <= 10000,
	      "taking_sigalrm_rearms");
	disarm_all();
}

static void spin_until(volatile int *counter, long long limit_ms)
{
	long long t0 = now_ns();
	while (!*counter && now_ns() - t0 < limit_ms * MS)
		;
}

#define TICK_SLACK	(10 * MS)	/* a tick at HZ 100, the coarsest here and on Linux */

static void cpu_checks(void)
{
	struct itv32 t = itv(100000, 0), v, old;
	check(set(VIRTUAL, &t, &old) == 0 && us(old.value) == 0, "setitimer_virtual");
	check(get(VIRTUAL, &v) == 0 && us(v.value) > 90000 && us(v.value) <= 110000 &&
	      us(v.interval) == 0, "getitimer_virtual_value");
	struct timespec ts = { 0, 50 * MS };
	nanosleep(&ts, NULL);
	struct itv32 w;
	check(get(VIRTUAL, &w) == 0 && us(v.value) - us(w.value) < 10000,
	      "virtual_does_not_count_sleep");
	vtalrms = 0;
	t = itv(20000, 0);
	long long t0 = now_ns();
	set(VIRTUAL, &t, NULL);
	spin_until(&vtalrms, 3000);
	check(vtalrms == 1 && now_ns() - t0 >= 20 * MS - TICK_SLACK,	/* as SIGPROF's, below */
	      "sigvtalrm_after_20ms_of_user_time");
	check(get(VIRTUAL, &v) == 0 && us(v.value) == 0, "virtual_one_shot_done");

	profs = 0;
	t = itv(20000, 20000);
	t0 = now_ns();
	set(PROF, &t, NULL);
	spin_until(&profs, 3000);
	/* Linux charges CPU time a whole tick at a time (tick accounting):
	 * the first tick after t0 may bring up to a tick more than ran, so
	 * the signal may come a tick before 20 ms of wall time (it did,
	 * once, on a loaded host); never at once. */
	check(profs >= 1 && now_ns() - t0 >= 20 * MS - TICK_SLACK, "sigprof_after_20ms_of_cpu_time");
	check(get(PROF, &v) == 0 && us(v.value) > 0 && us(v.value) <= 25000 &&
	      us(v.interval) == 20000, "prof_interval_rearmed");
	disarm_all();
}

static int child_has_none(void)
{
	struct itv32 v;
	for (int w = REAL; w <= PROF; w++)
		if (get(w, &v) != 0 || us(v.value) || us(v.interval))
			return 1;
	return 0;
}

static void fork_exec_checks(const char *self)
{
	struct itv32 t = itv(10000000, 1000000), v;
	for (int w = REAL; w <= PROF; w++)
		set(w, &t, NULL);
	pid_t pid = fork();
	if (pid == 0)
		_exit(child_has_none());
	int st;
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "fork_child_has_no_timers");
	check(get(REAL, &v) == 0 && us(v.value) > 9000000 && get(PROF, &v) == 0 &&
	      us(v.value) > 9000000, "fork_parent_keeps_timers");
	disarm_all();

	t = itv(10000000, 1000000);
	set(REAL, &t, NULL);
	pid = fork();
	if (pid == 0) {
		t = itv(10000000, 0);
		set(REAL, &t, NULL);	/* this process's own: exec must keep it */
		execl(self, self, "--after-exec", (char *)NULL);
		_exit(3);
	}
	waitpid(pid, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "exec_keeps_itimer_real");
	disarm_all();
}

/* The program again after execve: its ITIMER_REAL is still armed. */
static int after_exec(void)
{
	struct itv32 v;
	return get(REAL, &v) == 0 && us(v.value) > 9000000 && us(v.interval) == 0 ? 0 : 1;
}

static void error_checks(void)
{
	struct itv32 t = itv(0, 0), v;
	check(set(3, &t, NULL) == -EINVAL, "setitimer_which_3_einval");
	check(set(-1, &t, NULL) == -EINVAL, "setitimer_which_negative_einval");
	check(get(3, &v) == -EINVAL, "getitimer_which_3_einval");
	t.value.usec = 1000000;
	check(set(REAL, &t, NULL) == -EINVAL, "setitimer_usec_1000000_einval");
	t.value.usec = -1;
	check(set(REAL, &t, NULL) == -EINVAL, "setitimer_usec_negative_einval");
	t = itv(0, 0);
	t.value.sec = -1;
	check(set(REAL, &t, NULL) == -EINVAL, "setitimer_sec_negative_einval");
	t = itv(1000000, 0);
	t.interval.usec = 1000000;
	check(set(REAL, &t, NULL) == -EINVAL && get(REAL, &v) == 0 && us(v.value) == 0,
	      "setitimer_bad_interval_einval_unset");
	check(set(REAL, (void *)16, NULL) == -EFAULT, "setitimer_bad_value_efault");
	check(set(7, (void *)16, NULL) == -EFAULT, "setitimer_reads_value_before_which");
	t = itv(5000000, 0);
	check(set(REAL, &t, (void *)16) == -EFAULT && get(REAL, &v) == 0 && us(v.value) > 4000000,
	      "setitimer_bad_old_efault_but_set");
	check(set(REAL, NULL, &v) == 0 && us(v.value) > 4000000 && get(REAL, &v) == 0 &&
	      us(v.value) == 0, "setitimer_null_value_disarms");
	check(get(REAL, (void *)16) == -EFAULT, "getitimer_bad_pointer_efault");
	check(get(REAL, NULL) == -EFAULT, "getitimer_null_efault");
	check(get(9, NULL) == -EINVAL, "getitimer_checks_which_first");
	disarm_all();
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "--after-exec") == 0)
		return after_exec();
	setvbuf(stdout, NULL, _IONBF, 0);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGVTALRM, &sa, NULL);
	sigaction(SIGPROF, &sa, NULL);
	printf("KTAP version 1\n1..44\n");
	alarm_checks();
	real_checks();
	blocked_checks();
	cpu_checks();
	fork_exec_checks(argv[0]);
	error_checks();
	printf("# %d failed\n", failures);
	return failures ? 1 : 0;
}
