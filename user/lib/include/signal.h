/*
 * signal.h - Linux i386 signals: numbers, sets, sigaction and friends.
 *
 * The structures are the kernel's (rt_sigaction with an 8-byte set), so a
 * static binary built on this library behaves the same on Linux and here.
 */
#ifndef _SIGNAL_H
#define _SIGNAL_H

#include <uapi/signal.h>

#include <sys/types.h>

#define NSIG     65		/* signals 1..64 */
#define _NSIG    NSIG

typedef void (*sighandler_t)(int);
#define SIG_DFL ((sighandler_t)0)
#define SIG_IGN ((sighandler_t)1)
#define SIG_ERR ((sighandler_t)-1)

/* sigset_t, siginfo_t, struct sigaction, stack_t, struct sigcontext and
 * struct ucontext: uapi/signal.h, the kernel's own. */
#define si_pid    _sifields.kill.pid
#define si_uid    _sifields.kill.uid
#define si_status _sifields.chld.status
#define si_addr   _sifields.fault.addr

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
