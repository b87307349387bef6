/*
 * sys.c - the POSIX wrappers around the raw calls of syscall.h.
 *
 * Each is one line: call, then __syscall_ret() turns -errno into -1 + errno.
 * The few that differ from the raw call say so.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/times.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"

#define RET(x) return __syscall_ret(x)

pid_t fork(void)
{
	fflush(stdout);		/* or the child prints our buffer twice */
	RET(syscall0(__NR_fork));
}

int execve(const char *path, char *const argv[], char *const envp[])
{
	fflush(stdout);
	RET(syscall3(__NR_execve, (long)path, (long)argv, (long)envp));
}

void _exit(int status)
{
	for (;;)
		syscall1(__NR_exit_group, status);
}

ssize_t read(int fd, void *buf, size_t n)
{
	RET(syscall3(__NR_read, fd, (long)buf, n));
}

ssize_t write(int fd, const void *buf, size_t n)
{
	RET(syscall3(__NR_write, fd, (long)buf, n));
}

int open(const char *path, int flags, ...)
{
	RET(syscall3(__NR_open, (long)path, flags, 0));
}

int close(int fd) { RET(syscall1(__NR_close, fd)); }
int pipe(int fds[2]) { RET(syscall1(__NR_pipe, (long)fds)); }
int dup2(int oldfd, int newfd) { RET(syscall2(__NR_dup2, oldfd, newfd)); }
pid_t getpid(void) { RET(syscall0(__NR_getpid)); }
pid_t getppid(void) { RET(syscall0(__NR_getppid)); }
pid_t gettid(void) { RET(syscall0(__NR_gettid)); }
uid_t getuid(void) { return syscall0(__NR_getuid32); }
uid_t geteuid(void) { return syscall0(__NR_geteuid32); }
int setuid(uid_t uid) { RET(syscall1(__NR_setuid32, uid)); }
int kill(pid_t pid, int sig) { RET(syscall2(__NR_kill, pid, sig)); }
int uname(struct utsname *u) { RET(syscall1(__NR_uname, (long)u)); }

/* Raw nice returns 0; POSIX (and glibc) return the new nice value. */
int nice(int inc)
{
	if (__syscall_ret(syscall1(__NR_nice, inc)) < 0)
		return -1;
	return getpriority(PRIO_PROCESS, 0);
}

/* The raw call returns 20 - nice so that it is never negative. */
int getpriority(int which, id_t who)
{
	long r = __syscall_ret(syscall2(__NR_getpriority, which, who));
	return r < 0 ? -1 : 20 - (int)r;
}

int setpriority(int which, id_t who, int value)
{
	RET(syscall3(__NR_setpriority, which, who, value));
}

int getrlimit(int resource, struct rlimit *rlim)
{
	RET(syscall2(__NR_ugetrlimit, resource, (long)rlim));
}

int setrlimit(int resource, const struct rlimit *rlim)
{
	RET(syscall2(__NR_setrlimit, resource, (long)rlim));
}

int getrusage(int who, struct rusage *ru)
{
	RET(syscall2(__NR_getrusage, who, (long)ru));
}

/* times() returns a tick count that may look negative; never an error. */
clock_t times(struct tms *buf) { return syscall1(__NR_times, (long)buf); }

pid_t wait4(pid_t pid, int *status, int options, struct rusage *ru)
{
	RET(syscall4(__NR_wait4, pid, (long)status, options, (long)ru));
}

pid_t waitpid(pid_t pid, int *status, int options)
{
	RET(syscall3(__NR_waitpid, pid, (long)status, options));
}

pid_t wait(int *status) { return wait4(-1, status, 0, NULL); }

int reboot(int cmd)
{
	fflush(stdout);
	RET(syscall4(__NR_reboot, LINUX_REBOOT_MAGIC1, LINUX_REBOOT_MAGIC2,
		     cmd, 0));
}

/* brk(0) asks for the current break; a refused request returns the old. */
static unsigned long cur_brk;

int brk(void *addr)
{
	unsigned long r = syscall1(__NR_brk, (long)addr);

	cur_brk = r;
	if (r < (unsigned long)addr) {
		errno = ENOMEM;
		return -1;
	}
	return 0;
}

void *sbrk(long inc)
{
	unsigned long old;

	if (cur_brk == 0)
		cur_brk = syscall1(__NR_brk, 0);
	old = cur_brk;
	if (inc != 0 && brk((void *)(old + inc)) < 0)
		return (void *)-1;
	return (void *)old;
}

int clock_gettime(clockid_t clk, struct timespec *ts)
{
	RET(syscall2(__NR_clock_gettime, clk, (long)ts));
}

int nanosleep(const struct timespec *req, struct timespec *rem)
{
	RET(syscall2(__NR_nanosleep, (long)req, (long)rem));
}

int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem)
{
	return -syscall4(__NR_clock_nanosleep, clk, flags, (long)req,
			 (long)rem);
}

long long monotonic_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

unsigned int sleep(unsigned int seconds)
{
	struct timespec ts = { seconds, 0 };

	return nanosleep(&ts, &ts) < 0 ? ts.tv_sec : 0;
}

int usleep(unsigned long usec)
{
	struct timespec ts = { usec / 1000000, (usec % 1000000) * 1000 };

	return nanosleep(&ts, NULL);
}
