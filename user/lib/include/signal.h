/*
 * signal.h - Linux i386 signals: numbers, sets, sigaction and friends.
 *
 * The structures are the kernel's (rt_sigaction with an 8-byte set), so a
 * static binary built on this library behaves the same on Linux and here.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <sys/types.h>

#define SIGHUP    1
#define SIGINT    2
#define SIGQUIT   3
#define SIGILL    4
#define SIGTRAP   5
#define SIGABRT   6
#define SIGIOT    6
#define SIGBUS    7
#define SIGFPE    8
#define SIGKILL   9
#define SIGUSR1  10
#define SIGSEGV  11
#define SIGUSR2  12
#define SIGPIPE  13
#define SIGALRM  14
#define SIGTERM  15
#define SIGSTKFLT 16
#define SIGCHLD  17
#define SIGCONT  18
#define SIGSTOP  19
#define SIGTSTP  20
#define SIGTTIN  21
#define SIGTTOU  22
#define SIGURG   23
#define SIGXCPU  24
#define SIGXFSZ  25
#define SIGVTALRM 26
#define SIGPROF  27
#define SIGWINCH 28
#define SIGIO    29
#define SIGPWR   30
#define SIGSYS   31
#define NSIG     65		/* signals 1..64 */
#define _NSIG    NSIG

typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

typedef struct { unsigned long sig[2]; } sigset_t;	/* 64 bits, as the kernel's */

#define SA_NOCLDSTOP 0x00000001
#define SA_NOCLDWAIT 0x00000002
#define SA_SIGINFO   0x00000004
#define SA_RESTORER  0x04000000
#define SA_ONSTACK   0x08000000
#define SA_RESTART   0x10000000
#define SA_NODEFER   0x40000000
#define SA_RESETHAND 0x80000000

#define SIG_BLOCK   0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2

/* si_code values */
#define SI_USER    0
#define SI_KERNEL  0x80
#define CLD_EXITED 1
#define CLD_KILLED 2
#define CLD_DUMPED 3
#define CLD_STOPPED 5
#define CLD_CONTINUED 6

typedef struct {
	int si_signo, si_errno, si_code;
	union {
		int _pad[29];
		struct { pid_t pid; uid_t uid; } kill;
		struct { pid_t pid; uid_t uid; int status; clock_t utime, stime; } chld;
		struct { void *addr; } fault;
	} _sifields;
} siginfo_t;				/* 128 bytes */
#define si_pid    _sifields.kill.pid
#define si_uid    _sifields.kill.uid
#define si_status _sifields.chld.status
#define si_addr   _sifields.fault.addr

struct sigaction {
	union {
		sighandler_t sa_handler;
		void (*sa_sigaction)(int, siginfo_t *, void *);
	};
	unsigned long sa_flags;
	void (*sa_restorer)(void);
	sigset_t sa_mask;
};

int kill(pid_t pid, int sig);
int killpg(pid_t pgrp, int sig);
int raise(int sig);
int sigaction(int sig, const struct sigaction *act, struct sigaction *old);
sighandler_t signal(int sig, sighandler_t handler);	/* BSD: SA_RESTART */
int sigprocmask(int how, const sigset_t *set, sigset_t *old);
int sigpending(sigset_t *set);
int sigsuspend(const sigset_t *mask);
int sigemptyset(sigset_t *set);
int sigfillset(sigset_t *set);
int sigaddset(sigset_t *set, int sig);
int sigdelset(sigset_t *set, int sig);
int sigismember(const sigset_t *set, int sig);

/* The one table of signal names: "INT" for 2 (NULL if none), and the
 * description a shell prints ("Interrupt"). */
const char *sig_abbrev(int sig);
const char *strsignal(int sig);
/* "INT", "SIGINT" or "2" -> 2; -1 if it names no signal. */
int sig_from_name(const char *name);
void psignal(int sig, const char *s);

#endif
