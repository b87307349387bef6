/*
 * schedattr - the calls Debian's procps and util-linux (issue 28) found
 * missing, in KTAP, so that tests/linux-diff.sh compares this kernel's
 * answers with Linux 6.1's: sched_setattr/sched_getattr (sizes, E2BIG,
 * flags, policies, nice, errors in Linux's order), dup3, mkdir on a
 * read-only file system, prctl(PR_CAPBSET_READ), the coarse clocks and
 * the wall clock (/proc/stat's btime is the boot's wall-clock time).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o schedattr user/glibc/schedattr.c
 * schedattr.linux.ktap beside it is its transcript on Debian's Linux 6.1 (6.1.0-50-686)
 * in QEMU, as tests/linux-diff.sh boots it. Linux's initramfs is
 * writable and the initrd here is not, so mkdir is checked only where both
 * answer alike (EEXIST, ENOENT, ENOTDIR), not a new name (EROFS here).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

struct attr {			/* Linux's struct sched_attr, 56 bytes */
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static int n, failures;

static void check(int ok, const char *name)
{
	printf("%sok %d - %s\n", ok ? "" : "not ", ++n, name);
	failures += !ok;
}

static long raw(long r)
{
	return r < 0 ? -errno : r;
}

static long setattr(int pid, void *a, unsigned flags)
{
	return raw(syscall(SYS_sched_setattr, pid, a, flags));
}

static long getattr(int pid, void *a, unsigned size, unsigned flags)
{
	return raw(syscall(SYS_sched_getattr, pid, a, size, flags));
}

static void getattr_checks(void)
{
	struct attr a;
	memset(&a, 0xff, sizeof(a));
	check(getattr(0, &a, sizeof(a), 0) == 0 && a.size == 56 && a.policy == SCHED_OTHER &&
	      a.nice == 0 && a.priority == 0 && a.flags == 0, "getattr_self_normal");
	unsigned char big[80];
	memset(big, 0xff, sizeof(big));
	check(getattr(0, big, sizeof(big), 0) == 0 && ((struct attr *)big)->size == 56 &&
	      big[60] == 0xff, "getattr_larger_buffer_gets_56");
	memset(&a, 0xff, sizeof(a));
	check(getattr(0, &a, 48, 0) == 0 && a.size == 48 && a.util_min == 0xffffffffu,
	      "getattr_version0_gets_48");
	check(getattr(0, &a, 47, 0) == -EINVAL, "getattr_short_size_einval");
	check(getattr(0, &a, 4097, 0) == -EINVAL, "getattr_size_past_a_page_einval");
	check(getattr(0, &a, sizeof(a), 1) == -EINVAL, "getattr_flags_einval");
	check(getattr(-1, &a, sizeof(a), 0) == -EINVAL, "getattr_negative_pid_einval");
	check(getattr(0, NULL, sizeof(a), 0) == -EINVAL, "getattr_null_einval");
	check(getattr(99999, &a, sizeof(a), 0) == -ESRCH, "getattr_no_such_pid_esrch");
	check(getattr(0, (void *)16, sizeof(a), 0) == -EFAULT, "getattr_bad_pointer_efault");
}

static int in_child(int (*fn)(void))
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn());
	int st;
	waitpid(pid, &st, 0);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 99;
}

static int fifo_then_read(void)
{
	struct attr a = { .size = sizeof(a), .policy = SCHED_FIFO, .priority = 10 };
	if (setattr(0, &a, 0) != 0)
		return 1;
	memset(&a, 0, sizeof(a));
	if (getattr(0, &a, sizeof(a), 0) != 0 || a.policy != SCHED_FIFO || a.priority != 10)
		return 2;
	return sched_getscheduler(0) == SCHED_FIFO ? 0 : 3;
}

static int batch_nice_then_read(void)
{
	struct attr a = { .size = 48, .policy = SCHED_BATCH, .nice = 5 };
	if (setattr(0, &a, 0) != 0)
		return 1;
	if (getpriority(PRIO_PROCESS, 0) != 5 || sched_getscheduler(0) != SCHED_BATCH)
		return 2;
	/* KEEP_POLICY: nice only */
	struct attr k = { .size = 48, .policy = SCHED_FIFO, .flags = 0x08, .nice = 7 };
	if (setattr(0, &k, 0) != 0 || sched_getscheduler(0) != SCHED_BATCH ||
	    getpriority(PRIO_PROCESS, 0) != 7)
		return 3;
	/* nice clamped to 19 */
	struct attr c = { .size = 48, .policy = SCHED_OTHER, .nice = 50 };
	if (setattr(0, &c, 0) != 0 || getpriority(PRIO_PROCESS, 0) != 19)
		return 4;
	return 0;
}

static int unprivileged_lower_nice(void)
{
	struct attr a = { .size = 48, .policy = SCHED_OTHER, .nice = 5 };
	if (setattr(0, &a, 0) != 0 || setuid(1000) != 0)
		return 1;
	a.nice = 2;
	return setattr(0, &a, 0) == -EPERM ? 0 : 2;
}

static void setattr_checks(void)
{
	struct attr a = { .size = sizeof(a), .policy = SCHED_OTHER };
	check(setattr(0, &a, 0) == 0, "setattr_normal");
	check(in_child(fifo_then_read) == 0, "setattr_fifo_10_reads_back");
	check(in_child(batch_nice_then_read) == 0, "setattr_batch_nice_keep_policy_clamp");
	check(in_child(unprivileged_lower_nice) == 0, "setattr_unprivileged_lower_nice_eperm");
	a.policy = SCHED_FIFO;
	a.priority = 0;
	check(setattr(0, &a, 0) == -EINVAL, "setattr_fifo_priority_0_einval");
	a.priority = 100;
	check(setattr(0, &a, 0) == -EINVAL, "setattr_fifo_priority_100_einval");
	a.policy = SCHED_OTHER;
	a.priority = 1;
	check(setattr(0, &a, 0) == -EINVAL, "setattr_normal_priority_1_einval");
	a.priority = 0;
	a.policy = 77;
	check(setattr(0, &a, 0) == -EINVAL, "setattr_unknown_policy_einval");
	a.policy = SCHED_OTHER;
	a.flags = 0x80;
	check(setattr(0, &a, 0) == -EINVAL, "setattr_unknown_flag_einval");
	a.flags = 0;
	check(setattr(0, &a, 1) == -EINVAL, "setattr_syscall_flags_einval");
	check(setattr(-1, &a, 0) == -EINVAL, "setattr_negative_pid_einval");
	check(setattr(0, NULL, 0) == -EINVAL, "setattr_null_einval");
	check(setattr(99999, &a, 0) == -ESRCH, "setattr_no_such_pid_esrch");
	check(setattr(0, (void *)16, 0) == -EFAULT, "setattr_bad_pointer_efault");
	unsigned char big[80] = { 0 };
	memcpy(big, &a, sizeof(a));
	((struct attr *)big)->size = sizeof(big);
	check(setattr(0, big, 0) == 0, "setattr_larger_zero_tail_ok");
	big[70] = 1;
	check(setattr(0, big, 0) == -E2BIG && ((struct attr *)big)->size == 56,
	      "setattr_nonzero_tail_e2big_size_56");
	a.size = 40;
	check(setattr(0, &a, 0) == -E2BIG && a.size == 56, "setattr_short_size_e2big");
	a.size = 0;
	check(setattr(0, &a, 0) == 0, "setattr_size_0_is_version0");
}

static void other_checks(void)
{
	/* a newfd past RLIMIT_NOFILE (1,024) is EBADF, as in dup2 */
	int fd = dup3(1, 10, O_CLOEXEC);
	check(fd == 10 && fcntl(10, F_GETFD) == FD_CLOEXEC, "dup3_cloexec");
	check(dup3(1, 11, 0) == 11 && fcntl(11, F_GETFD) == 0, "dup3_no_flags");
	check(raw(dup3(1, 1, 0)) == -EINVAL, "dup3_same_fd_einval");
	check(raw(dup3(1, 12, O_NONBLOCK)) == -EINVAL, "dup3_bad_flags_einval");
	check(raw(dup3(99, 12, 0)) == -EBADF, "dup3_bad_oldfd_ebadf");
	check(raw(dup3(1, -1, 0)) == -EBADF, "dup3_bad_newfd_ebadf");
	check(raw(dup3(1, 1024, 0)) == -EBADF, "dup3_newfd_at_nofile_ebadf");
	check(raw(mkdir("/bin", 0755)) == -EEXIST, "mkdir_existing_eexist");
	check(raw(mkdir("/no/such/dir", 0755)) == -ENOENT, "mkdir_missing_parent_enoent");
	check(raw(mkdir("/bin/schedattr/x", 0755)) == -ENOTDIR, "mkdir_under_a_file_enotdir");
	check(prctl(PR_CAPBSET_READ, 0) == 1 && prctl(PR_CAPBSET_READ, 40) == 1,
	      "capbset_read_0_and_40");
	check(raw(prctl(PR_CAPBSET_READ, 41)) == -EINVAL, "capbset_read_41_einval");
	struct timespec c, r;
	check(clock_gettime(CLOCK_REALTIME_COARSE, &c) == 0 && clock_gettime(CLOCK_REALTIME, &r) == 0 &&
	      r.tv_sec - c.tv_sec <= 1, "realtime_coarse");
	check(clock_gettime(CLOCK_MONOTONIC_COARSE, &c) == 0 && clock_gettime(CLOCK_BOOTTIME, &c) == 0 &&
	      clock_gettime(CLOCK_MONOTONIC_RAW, &c) == 0, "monotonic_coarse_boottime_raw");
	check(r.tv_sec > 1600000000, "realtime_is_a_date_after_2020");
	/* Linux's time() is the coarse clock's seconds (the vDSO's), which
	 * lag CLOCK_REALTIME's by up to a tick at a second's turn: compared
	 * with a coarse reading taken before it, and close to r */
	struct timespec rc;
	clock_gettime(CLOCK_REALTIME_COARSE, &rc);
	time_t t = time(NULL);
	check(t >= rc.tv_sec && t <= r.tv_sec + 60, "time_works");	/* 60: a stalled host */
	FILE *f = fopen("/proc/stat", "r");
	char line[256];
	long long btime = -1;
	while (f && fgets(line, sizeof(line), f))
		sscanf(line, "btime %lld", &btime);
	clock_gettime(CLOCK_REALTIME, &r);	/* the two clocks together: a busy host */
	clock_gettime(CLOCK_MONOTONIC, &c);	/* may stall between here and above */
	check(btime > 0 && llabs(r.tv_sec - c.tv_sec - btime) <= 2, "btime_is_realtime_less_uptime");
}

/* SCHED_RESET_ON_FORK (chrt -R): or'ed into the policy and reported
 * back; a child of an RR task at nice -5 starts as SCHED_OTHER at nice
 * 0 without the flag; sched_setparam keeps it; sched_getattr shows it as
 * SCHED_FLAG_RESET_ON_FORK; a user may not take it off (EPERM). */
static int reset_child(void)
{
	return sched_getscheduler(0) == SCHED_OTHER && getpriority(PRIO_PROCESS, 0) == 0 ? 0 : 1;
}

static int reset_rr(void)
{
	struct sched_param p = { 20 };
	if (sched_setscheduler(0, SCHED_RR | SCHED_RESET_ON_FORK, &p) != 0)
		return 1;
	if (sched_getscheduler(0) != (SCHED_RR | SCHED_RESET_ON_FORK))
		return 2;
	p.sched_priority = 30;
	if (sched_setparam(0, &p) != 0 || sched_getscheduler(0) != (SCHED_RR | SCHED_RESET_ON_FORK))
		return 3;
	return in_child(reset_child) ? 4 : 0;
}

static int reset_nice(void)
{
	struct sched_param p = { 0 };
	if (setpriority(PRIO_PROCESS, 0, -5) != 0 ||
	    sched_setscheduler(0, SCHED_OTHER | SCHED_RESET_ON_FORK, &p) != 0)
		return 1;
	struct attr a;
	if (getattr(0, &a, sizeof(a), 0) != 0 || a.flags != 1 || a.nice != -5)
		return 2;
	return in_child(reset_child) ? 3 : 0;
}

static int reset_user(void)
{
	struct sched_param p = { 0 };
	if (sched_setscheduler(0, SCHED_BATCH | SCHED_RESET_ON_FORK, &p) != 0 || setuid(1000) != 0)
		return 1;
	if (raw(sched_setscheduler(0, SCHED_BATCH, &p)) != -EPERM)
		return 2;
	return raw(sched_setscheduler(0, SCHED_BATCH | SCHED_RESET_ON_FORK, &p)) == 0 ? 0 : 3;
}

static void reset_on_fork_checks(void)
{
	check(in_child(reset_rr) == 0, "reset_on_fork_rr_child_is_other");
	check(in_child(reset_nice) == 0, "reset_on_fork_nice_child_is_0_getattr_flag");
	check(in_child(reset_user) == 0, "reset_on_fork_user_may_not_clear_it");
}

static volatile sig_atomic_t usr1;

static void on_usr1(int sig)
{
	usr1 = sig;
}

/* What stress-ng (issue 28) called besides: umask, PR_SET_PDEATHSIG. */
static void stress_ng_checks(void)
{
	check(umask(077) == 022 && umask(01777) == 077 && umask(022) == 0777,
	      "umask_022_at_start_masked_to_0777");
	int sig = -1;
	check(prctl(PR_SET_PDEATHSIG, SIGUSR1) == 0 && prctl(PR_GET_PDEATHSIG, &sig) == 0 &&
	      sig == SIGUSR1, "pdeathsig_set_and_get");
	check(prctl(PR_SET_PDEATHSIG, 65) == -1 && errno == EINVAL, "pdeathsig_65_einval");
	check(prctl(PR_GET_PDEATHSIG, (void *)16) == -1 && errno == EFAULT, "pdeathsig_get_efault");
	prctl(PR_SET_PDEATHSIG, 0);
	pid_t child = fork();
	if (child == 0) {
		pid_t pid = fork();
		if (pid == 0)
			_exit(prctl(PR_GET_PDEATHSIG, &sig) == 0 && sig == 0 ? 0 : 1);
		int st;
		waitpid(pid, &st, 0);
		_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 2);
	}
	int st;
	waitpid(child, &st, 0);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0, "pdeathsig_not_inherited_by_fork");
	int fds[2];
	pipe(fds);
	child = fork();
	if (child == 0) {
		if (fork() == 0) {	/* the grandchild: told by SIGUSR1 when child ends */
			signal(SIGUSR1, on_usr1);
			prctl(PR_SET_PDEATHSIG, SIGUSR1);
			write(fds[1], "r", 1);
			for (int i = 0; i < 200 && !usr1; i++)
				usleep(10000);
			write(fds[1], usr1 ? "s" : "x", 1);
			_exit(0);
		}
		char c;
		read(fds[0], &c, 1);	/* the grandchild is ready */
		_exit(0);
	}
	waitpid(child, &st, 0);	/* it read the grandchild's "r" */
	char c = 0;
	read(fds[0], &c, 1);
	check(c == 's', "pdeathsig_sent_when_parent_ends");
}

int main(void)
{
	printf("KTAP version 1\n1..54\n");
	getattr_checks();
	setattr_checks();
	other_checks();
	reset_on_fork_checks();
	stress_ng_checks();
	return failures ? 1 : 0;
}
