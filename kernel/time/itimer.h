/*
 * itimer.h - a process's three interval timers: alarm, setitimer and
 * getitimer (kernel/time/itimer.c), as Linux 6.1's kernel/time/itimer.c.
 *
 * ITIMER_REAL counts wall-clock time and sends SIGALRM; ITIMER_VIRTUAL
 * counts the process's user time (SIGVTALRM) and ITIMER_PROF its user and
 * system time (SIGPROF), both in ticks, as Linux's tick-based CPU time
 * accounting counts them. The timers belong to the process (the group
 * leader's struct proc holds them): execve keeps them, fork's child
 * starts with none, the group's end cancels them.
 */
#ifndef KERNEL_ITIMER_H
#define KERNEL_ITIMER_H

#include <stdbool.h>
#include <stdint.h>
#include <uapi/time.h>		/* ITIMER_*, struct itimerval32 */

struct proc;
struct thread_group;

/* A CPU-time timer: the group's CPU time (ns, counted only while one of
 * its CPU timers is armed) at which it fires, 0 when disarmed, and the
 * period it re-arms with (Linux's struct cpu_itimer). */
struct cpu_itimer {
	uint64_t expires, incr;
};

/* In the group's struct thread_group (kernel/task/proc.h); all zero is "nothing armed". */
struct itimers {
	uint64_t real_expires;		/* clock_ns() of ITIMER_REAL's expiry */
	uint64_t real_incr;		/* its period, ns; 0: once */
	bool real_queued;		/* on the list of armed real timers */
	struct thread_group *real_next;		/* that list, by real_expires */
	struct cpu_itimer cpu[2];	/* ITIMER_VIRTUAL, ITIMER_PROF */
	uint64_t cputime[2];		/* user, user + system ns while armed */
};

/* The timer interrupt, every CPU (kernel/time/tick.c): send SIGALRM to the
 * processes whose real timer has expired; returns the next expiry, or
 * UINT64_MAX, for the CPU's one-shot timer. */
uint64_t itimer_expire(void);
/* Each tick that charged CPU time (kernel/time/tick.c): one tick to the running
 * thread's process, user or system; SIGVTALRM, SIGPROF when due. */
void itimer_tick(struct proc *p, bool user_mode);
/* kernel/task/signal.c took SIGALRM off leader's pending set: an interval
 * timer starts its next period now (Linux re-arms at dequeue, so a
 * blocked or ignored SIGALRM does not fire again). signal_lock held. */
void itimer_sigalrm_taken(struct proc *leader);
/* The group has ended: no more SIGALRM for it. */
void itimer_exit(struct proc *leader);

int sys_alarm(unsigned seconds);
int sys_setitimer(int which, const void *uvalue, void *uovalue);
int sys_getitimer(int which, void *uvalue);

#endif
