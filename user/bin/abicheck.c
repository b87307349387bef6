/*
 * abicheck - results that must be identical on Linux and on our kernel.
 *
 * Each line is one rule of the Linux i386 ABI (docs/abi.md) with the
 * values it saw; the text holds no pids or times, so the transcripts from
 * the two kernels can be compared with diff.
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Past Linux's last call, below ours (500: docs/abi.md §4): -ENOSYS. */
#define NO_SUCH_CALL 499

#include "ktap.h"
#include "syscall.h"

#define KERNEL_ADDR ((void *)0xC0100000)

static void check_processes(void)
{
	pid_t me = getpid(), pid;
	int status = -1;

	ktap_ok(me > 0, "getpid_positive", "pid>0: %s", me > 0 ? "yes" : "no");
	pid = fork();
	if (pid == 0)
		_exit(getppid() == me ? 0 : 1);
	waitpid(pid, &status, 0);
	ktap_ok(status == 0, "child_getppid_is_parent", "child status=0x%x",
		status);

	pid = fork();
	if (pid == 0)
		_exit(3);
	waitpid(pid, &status, 0);
	ktap_ok(status == 0x300, "exit_3_gives_status_0x300", "status=0x%x",
		status);

	pid = fork();
	if (pid == 0) {
		for (;;)
			sched_yield();
	}
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	ktap_ok(status == SIGKILL, "sigkill_gives_status_9", "status=0x%x",
		status);
	ktap_errno("kill_reaped_pid_esrch", ERRNO_OF(kill(pid, SIGKILL)), ESRCH);
	ktap_errno("wait_without_children_echild", ERRNO_OF(wait(&status)),
		     ECHILD);
	ktap_ok(getuid() == geteuid(), "getuid_equals_geteuid", "same=%s",
		getuid() == geteuid() ? "yes" : "no");
}

static void check_errors(void)
{
	struct timespec ts = { 0, 2000000000 };
	struct sched_param sp = { 0 };
	int fds[2], r;
	char c = 'x';

	ktap_errno("write_fd_99_ebadf", ERRNO_OF(write(99, "x", 1)), EBADF);
	ktap_errno("close_minus_1_ebadf", ERRNO_OF(close(-1)), EBADF);
	ktap_errno("dup2_bad_fd_ebadf", ERRNO_OF(dup2(99, 5)), EBADF);
	ktap_errno("syscall_499_enosys",
		     ERRNO_OF(__syscall_ret(syscall0(NO_SUCH_CALL))), ENOSYS);
	ktap_errno("open_missing_file_enoent",
		     ERRNO_OF(open("/no/such/file", O_RDONLY)), ENOENT);
	ktap_errno("execve_missing_file_enoent",
		     ERRNO_OF(execve("/no/such/file", NULL, NULL)), ENOENT);

	pipe(fds);
	ktap_errno("write_to_pipe_read_end_ebadf", ERRNO_OF(write(fds[0], &c, 1)),
		     EBADF);
	write(fds[1], &c, 1);
	ktap_errno("read_pipe_into_null_efault", ERRNO_OF(read(fds[0], NULL, 1)),
		     EFAULT);
	ktap_errno("read_pipe_into_kernel_address_efault",
		     ERRNO_OF(read(fds[0], KERNEL_ADDR, 1)), EFAULT);
	close(fds[0]);
	close(fds[1]);

	ktap_errno("sched_setscheduler_pid_minus_1_einval",
		     ERRNO_OF(sched_setscheduler(-1, SCHED_OTHER, &sp)), EINVAL);
	ktap_errno("nanosleep_nsec_2e9_einval", ERRNO_OF(nanosleep(&ts, NULL)),
		     EINVAL);
	ktap_errno("clock_gettime_clock_99_einval",
		     ERRNO_OF(clock_gettime(99, &ts)), EINVAL);
	ktap_errno("clock_gettime_kernel_address_efault",
		     ERRNO_OF(clock_gettime(CLOCK_MONOTONIC, KERNEL_ADDR)), EFAULT);
	r = clock_nanosleep(99, 0, &ts, NULL);
	ktap_ok(r == EINVAL, "clock_nanosleep_clock_99_returns_einval",
		"returned %d want %d", r, EINVAL);
}

static void check_time_and_memory(void)
{
	struct timespec a, b, ms = { 0, 1000000 };
	int backwards = 0, r;
	char *p;

	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 1000; i++) {
		clock_gettime(CLOCK_MONOTONIC, &b);
		if (b.tv_sec < a.tv_sec ||
		    (b.tv_sec == a.tv_sec && b.tv_nsec < a.tv_nsec))
			backwards++;
		a = b;
	}
	ktap_ok(backwards == 0, "clock_monotonic_never_goes_back",
		"%d backward steps in 1000 reads", backwards);
	r = clock_nanosleep(CLOCK_MONOTONIC, 0, &ms, NULL);
	ktap_ok(r == 0, "clock_nanosleep_1ms_returns_0", "returned %d", r);
	ktap_ok(sched_yield() == 0, "sched_yield_returns_0", "returned 0");

	p = sbrk(8192);
	if (p != (void *)-1)
		memset(p, 0xab, 8192);
	ktap_ok(p != (void *)-1 && sbrk(0) == p + 8192,
		"sbrk_8192_grows_the_heap", "usable=%s",
		p != (void *)-1 ? "yes" : "no");
}

static void check_errno_untouched(void)
{
	struct rusage ru;
	cpu_set_t set;

	errno = 77;
	getpid();
	getppid();
	sched_yield();
	getrusage(RUSAGE_SELF, &ru);
	sched_getaffinity(0, sizeof(set), &set);
	ktap_ok(errno == 77, "successful_calls_leave_errno_alone",
		"errno=%d want 77", errno);
}

int main(void)
{
	int start_errno = errno;

	ktap_plan(27);
	ktap_ok(start_errno == 0, "errno_starts_at_0", "errno=%d",
		start_errno);
	check_processes();
	check_errors();
	check_time_and_memory();
	check_errno_untouched();
	return ktap_done();
}
