/*
 * sysvipc.h - what the System V IPC programs share (user/glibc/sysvipc.c,
 * user/glibc/sysvshm.c): KTAP lines, errno names, waiting until another
 * task sleeps, children as an ordinary user, a signal to interrupt a
 * sleeper, the free-frame check. A header of static functions: each
 * program is one file that make builds on its own.
 */
#ifndef USER_GLIBC_SYSVIPC_H
#define USER_GLIBC_SYSVIPC_H

#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "asleep.h"

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */
#define USER_UID	1000
#define KEY_BASE	0x5ee0000

static int n, failures;

static void check(int ok, const char *name, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void check(int ok, const char *name, const char *fmt, ...)
{
	char what[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	printf("%sok %d - %s # %s\n", ok ? "" : "not ", ++n, name, what);
	failures += !ok;
}

static inline const char *en(int r)
{
	if (r >= 0)
		return "0";
	switch (errno) {
	case EINVAL:	return "EINVAL";
	case ENOENT:	return "ENOENT";
	case EEXIST:	return "EEXIST";
	case EACCES:	return "EACCES";
	case EPERM:	return "EPERM";
	case EAGAIN:	return "EAGAIN";
	case ENOMSG:	return "ENOMSG";
	case E2BIG:	return "E2BIG";
	case EIDRM:	return "EIDRM";
	case EINTR:	return "EINTR";
	case EFBIG:	return "EFBIG";
	case ERANGE:	return "ERANGE";
	case EFAULT:	return "EFAULT";
	case ENOSYS:	return "ENOSYS";
	case ENOMEM:	return "ENOMEM";
	default:	return "other";
	}
}

/* Until process pid sleeps (asleep.h). */
static inline void wait_asleep(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	wait_stat_asleep(path);
}

/* The exit status of child pid, or -1 if it did not exit. */
static inline int reap(pid_t pid)
{
	int st;
	if (waitpid(pid, &st, 0) != pid)
		return -1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/* A child that becomes uid 1000 and returns f()'s value as its status. */
static inline int as_user(int (*f)(int), int arg)
{
	pid_t pid = fork();
	if (pid == 0) {
		if (setgid(USER_UID) < 0 || setuid(USER_UID) < 0)
			_exit(99);
		_exit(f(arg));
	}
	return reap(pid);
}

/* Only this kernel counts its free frames (call 505): round() repeated
 * leaves them exactly where they were (after warm-up rounds: the heap
 * keeps its pages). Linux prints SKIP. */
static inline void leak_check(const char *name, void (*round)(void))
{
	long before = syscall(NR_FREE_FRAMES);
	if (before < 0) {
		printf("ok %d - %s # SKIP kernel-specific\n", ++n, name);
		return;
	}
	for (int i = 0; i < 3; i++)
		round();
	before = syscall(NR_FREE_FRAMES);
	for (int i = 0; i < 20; i++)
		round();
	long after = syscall(NR_FREE_FRAMES);
	printf("%sok %d - %s # kernel-specific: free frames %ld before, %ld after\n",
	       before == after ? "" : "not ", ++n, name, before, after);
	failures += before != after;
}

static inline void on_signal(int sig)
{
	(void)sig;
}

/* A child that signals the parent (SIGUSR1, a handler without
 * SA_RESTART) once the parent sleeps. */
static inline pid_t signal_me_when_asleep(void)
{
	pid_t parent = getpid(), pid = fork();
	if (pid == 0) {
		wait_asleep(parent);
		kill(parent, SIGUSR1);
		_exit(0);
	}
	return pid;
}

struct msgb {
	long mtype;
	char mtext[64];
};

#endif
