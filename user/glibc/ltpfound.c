/*
 * ltpfound - what LTP's tests (make ltp, bench/results/ltp.md) found
 * missing or different here, in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's:
 *   - /proc/sys/kernel/tainted reads 0 (LTP checks it around a test);
 *   - prctl PR_SET_TIMERSLACK / PR_GET_TIMERSLACK: 50000 ns to begin
 *     with, a set value read back, 0 back to the thread's default, and a
 *     child's value and default both its parent's current value;
 *   - prctl PR_SET_TSC / PR_GET_TSC: read back, EINVAL for other modes,
 *     EFAULT, and rdtsc under PR_TSC_SIGSEGV kills with SIGSEGV;
 *   - mmap with MAP_SHARED_VALIDATE: a flag Linux does not know is
 *     EOPNOTSUPP on a file, known ones map, anonymous memory is EINVAL;
 *   - mmap of /dev/zero: private and shared zeroed memory, a shared
 *     mapping seen by a forked child's write, and one from a read-only
 *     descriptor that mprotect may not make writable (EACCES);
 *   - CPU-time clocks by id (pthread_getcpuclockid, clock_getcpuclockid):
 *     a spinning thread's, another process's, and EINVAL for another
 *     process's thread and for an unknown clock kind;
 *   - capget: root's full sets in version 3's two words and version 1's
 *     one, an unknown version (EINVAL, and the kernel's written back; 0
 *     with no data pointer), a negative pid, a reaped one, and the sets
 *     after setresuid drops root (effective only, then everything);
 *   - getpriority/setpriority on a process group and on a user: every
 *     process of it changed, the highest priority (lowest nice) read,
 *     ESRCH for a group or user with no process, EPERM (the others
 *     changed all the same) when one of them is another user's;
 *   - prctl PR_SET_CHILD_SUBREAPER / PR_GET_CHILD_SUBREAPER: a fork does
 *     not inherit it; a grandchild orphaned while running, and one
 *     orphaned as a zombie, come to the subreaper (getppid, wait);
 *     without it they go to init;
 *   - unshare: 0 for what a process of one thread shares with nobody,
 *     EINVAL for an unknown flag and for CLONE_THREAD/CLONE_VM in a
 *     process of two threads, EPERM for a user's namespace (root's is
 *     EINVAL here, where namespaces are not built: kernel-specific).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o ltpfound user/glibc/ltpfound.c
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/capability.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

static void tainted(void)
{
	char buf[32] = "";
	int fd = open("/proc/sys/kernel/tainted", O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
	if (fd >= 0)
		close(fd);
	check_why(n == 2 && strcmp(buf, "0\n") == 0, "proc_sys_kernel_tainted_is_0",
		  n < 0 ? "not readable" : buf[0] == '0' ? "0" : "other");
}

static void timerslack(void)
{
	char what[128];
	long first = prctl(PR_GET_TIMERSLACK);
	check_why(first == 50000, "timerslack_begins_at_50000", result_name(first));
	long set = raw(prctl(PR_SET_TIMERSLACK, 70000));
	long got = prctl(PR_GET_TIMERSLACK);
	snprintf(what, sizeof(what), "set %s, read %ld", result_name(set), got);
	check_why(set == 0 && got == 70000, "timerslack_set_reads_back", what);
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		long v[2];
		v[0] = prctl(PR_GET_TIMERSLACK);
		prctl(PR_SET_TIMERSLACK, 5);
		prctl(PR_SET_TIMERSLACK, 0);
		v[1] = prctl(PR_GET_TIMERSLACK);
		write(p[1], v, sizeof(v));
		_exit(0);
	}
	long v[2] = { -1, -1 };
	read(p[0], v, sizeof(v));
	waitpid(c, NULL, 0);
	close(p[0]), close(p[1]);
	snprintf(what, sizeof(what), "child's %ld, its default %ld", v[0], v[1]);
	check_why(v[0] == 70000 && v[1] == 70000, "timerslack_child_takes_parents_current", what);
	prctl(PR_SET_TIMERSLACK, 0);
	got = prctl(PR_GET_TIMERSLACK);
	check_why(got == 50000, "timerslack_0_resets_to_the_default", result_name(got));
}

static uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return (uint64_t)hi << 32 | lo;
}

static void tsc(void)
{
	int mode = 0;
	long r = raw(prctl(PR_GET_TSC, &mode));
	check_why(r == 0 && mode == PR_TSC_ENABLE, "tsc_enabled_to_begin_with", result_name(r ? r : mode));
	check_why(raw(prctl(PR_SET_TSC, 3)) == -EINVAL, "tsc_mode_3_is_einval",
		  result_name(raw(prctl(PR_SET_TSC, 3))));
	check_why(raw(prctl(PR_SET_TSC, 0)) == -EINVAL, "tsc_mode_0_is_einval",
		  result_name(raw(prctl(PR_SET_TSC, 0))));
	r = raw(prctl(PR_GET_TSC, (int *)8));
	check_why(r == -EFAULT, "get_tsc_unmapped_is_efault", result_name(r));
	pid_t c = fork();
	if (c == 0) {
		int m = 0;
		if (prctl(PR_SET_TSC, PR_TSC_SIGSEGV) != 0 || prctl(PR_GET_TSC, &m) != 0 ||
		    m != PR_TSC_SIGSEGV)
			_exit(2);
		rdtsc();
		_exit(0);
	}
	int st;
	waitpid(c, &st, 0);
	char what[128];
	snprintf(what, sizeof(what), "%s %d", WIFSIGNALED(st) ? "signal" : "exit",
		 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
	check_why(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, "rdtsc_under_tsc_sigsegv_faults",
		  what);
	uint64_t a = rdtsc(), b = rdtsc();	/* and the parent's still runs */
	check(b > a, "rdtsc_still_runs_in_the_parent");
}

static void shared_validate(void)
{
	char path[] = "/tmp/ltpfoundXXXXXX";
	int fd = mkstemp(path);
	unlink(path);
	ftruncate(fd, 4096);
	void *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | (1 << 10), fd, 0);
	long r = m == MAP_FAILED ? -errno : 0;
	check_why(r == -EOPNOTSUPP, "shared_validate_unknown_flag_is_eopnotsupp", result_name(r));
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_POPULATE, fd, 0);
	r = m == MAP_FAILED ? -errno : 0;
	check_why(r == 0, "shared_validate_known_flags_map", result_name(r));
	if (m != MAP_FAILED)
		munmap(m, 4096);
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED_VALIDATE | MAP_ANONYMOUS, -1, 0);
	r = m == MAP_FAILED ? -errno : 0;
	check_why(r == -EINVAL, "shared_validate_anonymous_is_einval", result_name(r));
	close(fd);
}

static void dev_zero(void)
{
	int rw = open("/dev/zero", O_RDWR), ro = open("/dev/zero", O_RDONLY);
	char *priv = mmap(NULL, 8192, PROT_READ | PROT_WRITE, MAP_PRIVATE, ro, 0);
	int ok = priv != MAP_FAILED && priv[0] == 0 && priv[8191] == 0;
	if (ok)
		priv[100] = 7;
	check_why(ok && priv[100] == 7, "dev_zero_private_is_writable_zeros",
		  priv == MAP_FAILED ? result_name(-errno) : "mapped");
	volatile char *sh = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, rw, 0);
	long r = sh == MAP_FAILED ? -errno : 0;
	if (r == 0) {
		pid_t c = fork();
		if (c == 0) {
			sh[5] = 42;
			_exit(0);
		}
		waitpid(c, NULL, 0);
	}
	check_why(r == 0 && sh[5] == 42, "dev_zero_shared_sees_the_childs_write",
		  r ? result_name(r) : sh[5] == 42 ? "42" : "not seen");
	void *rd = mmap(NULL, 4096, PROT_READ, MAP_SHARED, ro, 0);
	r = rd == MAP_FAILED ? -errno : 0;
	long w = rd == MAP_FAILED ? 0 : raw(mprotect(rd, 4096, PROT_READ | PROT_WRITE));
	char what[128];
	snprintf(what, sizeof(what), "mmap %s, mprotect write %s", result_name(r), result_name(w));
	check_why(r == 0 && w == -EACCES, "dev_zero_shared_readonly_may_not_become_writable", what);
	r = (long)mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, ro, 0);
	check_why(r == -1 && errno == EACCES, "dev_zero_shared_write_from_readonly_is_eacces",
		  r == -1 ? result_name(-errno) : "mapped");
	r = (long)mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, open("/dev/null", O_RDONLY), 0);
	check_why(r == -1 && errno == ENODEV, "dev_null_does_not_map",
		  r == -1 ? result_name(-errno) : "mapped");
	close(rw);
	close(ro);
}

static volatile int spin_stop;
static pid_t spinner_tid;

static void *spinner(void *arg)
{
	(void)arg;
	__atomic_store_n(&spinner_tid, gettid(), __ATOMIC_RELEASE);
	while (!spin_stop)
		;
	return NULL;
}

/* Linux's clock id of thread or process pid's CPU time of kind which. */
static clockid_t cpu_clock(pid_t pid, int thread, int which)
{
	return (clockid_t)((~(unsigned)pid << 3) | (thread ? 4 : 0) | (unsigned)which);
}

static void cpu_clocks(void)
{
	pthread_t t;
	clockid_t id;
	struct timespec ts = { 0, 0 };

	pthread_create(&t, NULL, spinner, NULL);
	while (!__atomic_load_n(&spinner_tid, __ATOMIC_ACQUIRE))
		usleep(1000);
	struct timespec nap = { 0, 300 * 1000000L };
	nanosleep(&nap, NULL);
	int e = pthread_getcpuclockid(t, &id);
	long r = e ? -e : raw(clock_gettime(id, &ts));
	check_why(r == 0 && (ts.tv_sec > 0 || ts.tv_nsec > 0), "thread_cpu_clock_of_a_spinner_runs",
		  result_name(r));
	r = raw(clock_gettime(cpu_clock(spinner_tid, 1, 1), &ts));
	check_why(r == 0, "thread_virt_clock_reads", result_name(r));
	r = raw(clock_gettime(cpu_clock(spinner_tid, 1, 3), &ts));
	check_why(r == -EINVAL, "cpu_clock_kind_3_is_einval", result_name(r));
	spin_stop = 1;
	pthread_join(t, NULL);

	pid_t c = fork();
	if (c == 0) {
		pause();
		_exit(0);
	}
	e = clock_getcpuclockid(c, &id);
	r = e ? -e : raw(clock_gettime(id, &ts));
	check_why(r == 0, "another_process_cpu_clock_reads", result_name(r));
	r = raw(clock_gettime(cpu_clock(c, 1, 2), &ts));
	check_why(r == -EINVAL, "another_process_thread_clock_is_einval", result_name(r));
	kill(c, SIGKILL);
	waitpid(c, NULL, 0);
	r = raw(clock_gettime(cpu_clock(c, 0, 2), &ts));
	check_why(r == -EINVAL, "a_reaped_process_clock_is_einval", result_name(r));
}

static long capget_(struct __user_cap_header_struct *h, struct __user_cap_data_struct *d)
{
	return raw(syscall(SYS_capget, h, d));
}

/* The sets a child has after setresuid(r, e, s), as "eff/perm" of word 0. */
static void sets_after(int r, int e, int s, char *out, size_t len)
{
	int p[2];
	pipe(p);
	pid_t c = fork();
	if (c == 0) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		uint32_t v[2] = { 7, 7 };
		if (setresuid(r, e, s) == 0 && capget_(&h, d) == 0)
			v[0] = d[0].effective, v[1] = d[0].permitted;
		write(p[1], v, sizeof(v));
		_exit(0);
	}
	uint32_t v[2] = { 9, 9 };
	read(p[0], v, sizeof(v));
	waitpid(c, NULL, 0);
	close(p[0]), close(p[1]);
	snprintf(out, len, "%#x/%#x", v[0], v[1]);
}

static void capabilities(void)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	char what[128];
	memset(d, 0x55, sizeof(d));
	long r = capget_(&h, d);
	snprintf(what, sizeof(what), "%s: %#x %#x / %#x %#x / %#x %#x", result_name(r), d[0].effective,
		 d[1].effective, d[0].permitted, d[1].permitted, d[0].inheritable, d[1].inheritable);
	check_why(r == 0 && d[0].effective == ~0u && d[1].effective == 0x1ff &&
		  d[0].permitted == ~0u && d[1].permitted == 0x1ff && !d[0].inheritable &&
		  !d[1].inheritable, "capget_v3_root_has_every_capability", what);
	h.version = _LINUX_CAPABILITY_VERSION_1;
	memset(d, 0x55, sizeof(d));
	r = capget_(&h, d);
	snprintf(what, sizeof(what), "%s, second word %#x", result_name(r), d[1].effective);
	check_why(r == 0 && d[0].effective == ~0u && d[1].effective == 0x55555555,
		  "capget_v1_writes_one_word", what);
	h.version = 0x12345678;
	r = capget_(&h, d);
	snprintf(what, sizeof(what), "%s, version now %#x", result_name(r), h.version);
	check_why(r == -EINVAL && h.version == _LINUX_CAPABILITY_VERSION_3,
		  "capget_unknown_version_is_einval_and_says_v3", what);
	h.version = 0x12345678;
	r = capget_(&h, NULL);
	check_why(r == 0, "capget_unknown_version_without_data_is_0", result_name(r));
	h = (struct __user_cap_header_struct){ _LINUX_CAPABILITY_VERSION_3, -1 };
	r = capget_(&h, d);
	check_why(r == -EINVAL, "capget_negative_pid_is_einval", result_name(r));
	pid_t c = fork();
	if (c == 0)
		_exit(0);
	waitpid(c, NULL, 0);
	h.pid = c;
	r = capget_(&h, d);
	check_why(r == -ESRCH, "capget_reaped_pid_is_esrch", result_name(r));
	r = capget_((void *)8, d);
	check_why(r == -EFAULT, "capget_unmapped_header_is_efault", result_name(r));
	sets_after(1000, 1000, 0, what, sizeof(what));
	check_why(strcmp(what, "0/0xffffffff") == 0, "capget_euid_1000_saved_0_keeps_permitted", what);
	sets_after(1000, 1000, 1000, what, sizeof(what));
	check_why(strcmp(what, "0/0") == 0, "capget_every_uid_1000_has_none", what);
}

/* A child in process group pgid (0: a new one of its own) as user uid,
 * once it is both, waiting until the pipe hold is closed. */
static pid_t member(int pgid, int uid, const int hold[2])
{
	int ready[2];
	char b = 0;
	pipe(ready);
	pid_t c = fork();
	if (c == 0) {
		close(hold[1]);
		setpgid(0, pgid);
		if (uid && setresuid(uid, uid, uid) != 0)
			_exit(1);
		write(ready[1], &b, 1);
		read(hold[0], &b, 1);
		_exit(0);
	}
	setpgid(c, pgid ? pgid : c);	/* either may run first */
	read(ready[0], &b, 1);
	close(ready[0]);
	close(ready[1]);
	return c;
}

static void priorities(void)
{
	int hold[2];
	char what[128];

	pipe(hold);
	pid_t a = member(0, 0, hold), b = member(a, 0, hold);
	long r = raw(setpriority(PRIO_PGRP, a, 7));
	int na = getpriority(PRIO_PROCESS, a), nb = getpriority(PRIO_PROCESS, b);
	snprintf(what, sizeof(what), "%s, nice %d and %d", result_name(r), na, nb);
	check_why(r == 0 && na == 7 && nb == 7, "setpriority_pgrp_changes_every_member", what);
	setpriority(PRIO_PROCESS, b, 3);
	errno = 0;
	int g = getpriority(PRIO_PGRP, a);
	snprintf(what, sizeof(what), "%d %s", g, result_name(-errno));
	check_why(g == 3 && errno == 0, "getpriority_pgrp_is_the_lowest_nice", what);
	pid_t u1 = member(0, 1234, hold), u2 = member(0, 1234, hold);
	r = raw(setpriority(PRIO_USER, 1234, 11));
	na = getpriority(PRIO_PROCESS, u1), nb = getpriority(PRIO_PROCESS, u2);
	snprintf(what, sizeof(what), "%s, nice %d and %d", result_name(r), na, nb);
	check_why(r == 0 && na == 11 && nb == 11, "setpriority_user_changes_every_process", what);
	errno = 0;
	g = getpriority(PRIO_USER, 4321);
	check_why(g == -1 && errno == ESRCH, "getpriority_user_without_processes_is_esrch",
		  result_name(-errno));
	r = raw(setpriority(PRIO_PGRP, 32767, 0));
	check_why(r == -ESRCH, "setpriority_empty_pgrp_is_esrch", result_name(r));
	/* a user's setpriority over a group with root's a and b in it */
	pid_t c = member(a, 1234, hold);
	pid_t t = fork();
	if (t == 0) {
		setresuid(1234, 1234, 1234);
		long e = raw(setpriority(PRIO_PGRP, a, 15));
		_exit(e == -EPERM && getpriority(PRIO_PROCESS, c) == 15 ? 0 : 1);
	}
	int st;
	waitpid(t, &st, 0);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0, "setpriority_pgrp_eperm_changes_the_rest",
		  WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "EPERM, own changed" : "other");
	close(hold[0]);
	close(hold[1]);
	while (wait(NULL) > 0)
		;
}

/* A child that forks a grandchild and exits, the grandchild's pid
 * returned. Running: the grandchild reports its new parent on the pipe
 * once the child is gone, then exits 3. zombie: the grandchild exits 3 first,
 * and the child exits 50 ms after (the grandchild then a zombie, if the
 * machine is not starved: either way it must come to the reaper). */
static pid_t orphan(int report, bool zombie)
{
	int go[2], got[2];	/* go: EOF when the child (running) or grandchild (zombie) ends */
	pipe(go);
	pipe(got);
	pid_t c = fork();
	if (c == 0) {
		pid_t mid = getpid(), g = fork();
		char b;
		if (g == 0) {
			close(got[0]);
			close(got[1]);
			if (!zombie) {
				int pp;
				close(go[1]);
				read(go[0], &b, 1);	/* EOF: the child is exiting */
				for (int i = 0; i < 5000 && (pp = getppid()) == mid; i++)
					usleep(1000);	/* until its exit has handed us on */
				write(report, &pp, sizeof(pp));
			}
			_exit(3);
		}
		write(got[1], &g, sizeof(g));
		if (zombie) {
			struct timespec t = { 0, 50 * 1000000L };
			close(go[1]);
			read(go[0], &b, 1);		/* EOF: the grandchild has exited */
			nanosleep(&t, NULL);
		}
		_exit(0);
	}
	pid_t g = 0;
	close(go[1]);
	close(got[1]);
	read(got[0], &g, sizeof(g));
	close(got[0]);
	close(go[0]);
	waitpid(c, NULL, 0);
	return g;
}

static void subreapers(void)
{
	int v = 9, p[2];
	long r = raw(prctl(PR_GET_CHILD_SUBREAPER, &v));
	check_why(r == 0 && v == 0, "subreaper_off_to_begin_with", result_name(r ? r : v));
	r = raw(prctl(PR_GET_CHILD_SUBREAPER, (int *)8));
	check_why(r == -EFAULT, "get_subreaper_unmapped_is_efault", result_name(r));
	int q[2];
	pipe(q);
	pid_t s = fork();
	if (s == 0) {			/* the subreaper, in a child of its own */
		int res[4] = { -1, -1, -1, -1 }, st;
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		pipe(p);
		pid_t c = fork();
		if (c == 0) {
			int w = 9;
			prctl(PR_GET_CHILD_SUBREAPER, &w);
			_exit(w);
		}
		waitpid(c, &st, 0);
		res[0] = WEXITSTATUS(st);			/* not inherited: 0 */
		pid_t g = orphan(p[1], false);
		int pp = 0;
		read(p[0], &pp, sizeof(pp));
		res[1] = pp == getpid();			/* adopted while running */
		res[2] = waitpid(g, &st, 0) == g ? st : -errno;
		g = orphan(p[1], true);
		res[3] = waitpid(g, &st, 0) == g ? st : -errno;	/* a zombie */
		write(q[1], res, sizeof(res));
		_exit(0);
	}
	int res[4] = { -2, -2, -2, -2 };
	read(q[0], res, sizeof(res));
	waitpid(s, NULL, 0);
	close(q[0]);
	close(q[1]);
	char what[64];
	check_why(res[0] == 0, "subreaper_is_not_inherited_by_fork", res[0] == 0 ? "0" : "1");
	check_why(res[1] == 1, "orphan_running_comes_to_the_subreaper", res[1] == 1 ? "getppid: it" : "other");
	snprintf(what, sizeof(what), "wait status %#x", res[2]);
	check_why(res[2] == 0x300, "subreaper_waits_for_the_orphan", what);
	snprintf(what, sizeof(what), "wait status %#x", res[3]);
	check_why(res[3] == 0x300, "orphaned_zombie_comes_to_the_subreaper", what);
	/* without: to init */
	pipe(p);
	s = fork();
	if (s == 0) {
		prctl(PR_SET_CHILD_SUBREAPER, 1);
		prctl(PR_SET_CHILD_SUBREAPER, 0);
		orphan(p[1], false);
		int pp = 0;
		read(p[0], &pp, sizeof(pp));
		_exit(pp == 1 ? 0 : 1);
	}
	int st;
	waitpid(s, &st, 0);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0, "subreaper_off_again_orphans_go_to_init",
		  WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "getppid: 1" : "other");
	close(p[0]);
	close(p[1]);
}

static void *idle_thread(void *arg)
{
	char b;
	read(*(int *)arg, &b, 1);
	return NULL;
}

static void unshares(void)
{
	char what[96];
	long r = raw(syscall(SYS_unshare, 0));
	check_why(r == 0, "unshare_nothing_is_0", result_name(r));
	r = raw(syscall(SYS_unshare, CLONE_FILES | CLONE_FS | CLONE_SYSVSEM));
	check_why(r == 0, "unshare_files_fs_sysvsem_alone_is_0", result_name(r));
	r = raw(syscall(SYS_unshare, CLONE_VM | CLONE_SIGHAND | CLONE_THREAD));
	check_why(r == 0, "unshare_vm_alone_is_0", result_name(r));
	r = raw(syscall(SYS_unshare, 0x1));
	check_why(r == -EINVAL, "unshare_unknown_flag_is_einval", result_name(r));
	int p[2];
	pthread_t t;
	pipe(p);
	pthread_create(&t, NULL, idle_thread, &p[0]);
	long rt = raw(syscall(SYS_unshare, CLONE_THREAD));
	long rv = raw(syscall(SYS_unshare, CLONE_VM));
	write(p[1], "x", 1);
	pthread_join(t, NULL);
	close(p[0]);
	close(p[1]);
	snprintf(what, sizeof(what), "CLONE_THREAD %s, CLONE_VM %s", result_name(rt), result_name(rv));
	check_why(rt == -EINVAL && rv == -EINVAL, "unshare_thread_or_vm_with_two_threads_is_einval",
		  what);
	pid_t c = fork();
	if (c == 0) {
		setresuid(1000, 1000, 1000);
		_exit(raw(syscall(SYS_unshare, CLONE_NEWUTS)) == -EPERM &&
		      raw(syscall(SYS_unshare, CLONE_NEWNS)) == -EPERM ? 0 : 1);
	}
	int st;
	waitpid(c, &st, 0);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0, "unshare_a_users_namespace_is_eperm",
		  WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "EPERM" : "other");
	c = fork();
	if (c == 0)
		_exit(raw(syscall(SYS_unshare, CLONE_NEWUTS)) == -EINVAL ? 0 : 1);
	waitpid(c, &st, 0);
	struct utsname u;
	uname(&u);
	check_ours(strstr(u.release, "staircase") != NULL, WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "unshare_roots_namespace_is_einval_none_built");
}

int main(void)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..54\n");
	tainted();
	timerslack();
	tsc();
	shared_validate();
	dev_zero();
	cpu_clocks();
	capabilities();
	priorities();
	subreapers();
	unshares();
	return failures != 0;
}
