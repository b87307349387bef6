/*
 * signal.h - POSIX signals with Linux i386's numbers, semantics and frames.
 *
 * A process has a set of pending signals, a mask of blocked ones and an
 * action per signal (default, ignore, or a user handler). Sending marks a
 * signal pending (docs/kernel.md "Signals": what each default does);
 * delivery happens on the way back to user mode (signal_deliver), where a
 * default action ends or stops the process and a handler gets a frame on
 * the user stack laid out as Linux builds it, so the same static binary
 * runs on both kernels. A blocking call that a signal interrupts returns
 * one of the ERESTART codes below; delivery turns it into EINTR or
 * restarts the call (SA_RESTART), as Linux does.
 */
#ifndef KERNEL_SIGNAL_H
#define KERNEL_SIGNAL_H

#include <uapi/signal.h>

#include <stdint.h>
#include <stdbool.h>
#include "kernel/arch/trap.h"

#define NSIG		64		/* signals 1..64 */

#define SIG_DFL		0u
#define SIG_IGN		1u

/* Returned by interrupted calls, never seen by user code (Linux's values). */
#define ERESTARTSYS		512	/* restart if SA_RESTART, else EINTR */
#define ERESTARTNOINTR		513	/* always restart */
#define ERESTARTNOHAND		514	/* restart only if no handler ran */
#define ERESTART_RESTARTBLOCK	516	/* no handler: go on through restart_syscall */

/* tf returns from a system call (syscall_nr, -1 once it must not restart)
 * that a signal interrupted: eax holds one of the codes above. */
static inline bool syscall_interrupted(const struct trapframe *tf, int syscall_nr)
{
	int r = -(int)tf->eax;		/* the result first: almost never a restart */
	return r >= ERESTARTSYS && r <= ERESTART_RESTARTBLOCK &&
	       tf->trapno == T_SYSCALL && syscall_nr >= 0;
}

typedef uint64_t sigset64_t;
#define SIGBIT(sig)	(1ull << ((sig) - 1))
#define SIG_UNBLOCKABLE	(SIGBIT(SIGKILL) | SIGBIT(SIGSTOP))

/* struct sigaction (uapi/signal.h) as the kernel reads it: the handler's
 * and the restorer's addresses as numbers, the mask as 64 bits. */
static inline uint32_t sa_addr(const struct sigaction *a) { return (uint32_t)a->sa_handler; }
static inline uint32_t sa_restorer_addr(const struct sigaction *a) { return (uint32_t)a->sa_restorer; }
static inline sigset64_t sigset_bits(sigset_t s) { return (sigset64_t)s.sig[1] << 32 | s.sig[0]; }
static inline sigset_t sigset_of(sigset64_t m)
{
	return (sigset_t){ { (unsigned long)m, (unsigned long)(m >> 32) } };
}

/* What a handler's siginfo says about one pending signal. */
struct ksiginfo {
	int code;
	int pid, uid;		/* the sender (kill) or the child (SIGCHLD) */
	int status;		/* SIGCHLD: exit code or signal */
	uint32_t addr;		/* faults: the address */
};

struct proc;

/* Send sig to p with signal_lock held (kill, the tty, exit's SIGCHLD). */
void signal_send_locked(struct proc *p, int sig, const struct ksiginfo *info);
/* To t's process: one of its threads that does not block sig. */
void signal_send_process(struct proc *t, int sig, const struct ksiginfo *info);
/* Send sig to every process of group pgid; signal_lock held. Returns the
 * number of processes it reached. */
int signal_send_group_locked(int pgid, int sig, const struct ksiginfo *info);
/* Send sig from the kernel to a process group (the tty's Ctrl-C). */
void signal_send_group(int pgid, int sig);
/* Send sig from the kernel to the current process (SIGPIPE). */
void signal_send_self(int sig);
/* signal_pending(p), asked on every return to user mode, is inline in
 * proc.h. */
/* SIGKILL waits (killable sleeps, which only a fatal signal ends). */
bool signal_fatal_pending(const struct proc *p);
/* sig would be discarded (ignored and not blocked) or is blocked: the tty
 * does not stop such a background reader with SIGTTIN but fails it. */
bool signal_ignored_or_blocked(const struct proc *p, int sig);
/* On the way to user mode: act on pending signals (may not return). */
void signal_deliver(struct trapframe *tf);
/* A fault in user mode: a handler gets it, otherwise the process dies. */
void signal_fault(struct trapframe *tf, int sig);
/* The same with the si_code and si_addr given (a page fault's). */
void signal_fault_at(struct trapframe *tf, int sig, int code, uint32_t addr);
/* exit's: SIGCHLD to parent for child's end (its wait status), unless it
 * would be dropped at once, which takes no signal_lock, and a
 * wake-up of parent's wait4. parent's family lock held. */
void signal_child_exited(struct proc *child, struct proc *parent, int status);
/* fork: the child inherits actions and mask, not pending signals;
 * exec: handled signals go back to default. */
void signal_fork(struct proc *child, const struct proc *parent);
/* kernel/task/coredump.c: does sig's default action dump core? Write the
 * caller's core file for sig, tf its registers: true if one was written. */
bool signal_dumps_core(int sig);
bool coredump(int sig, const struct trapframe *tf);
/* own: NULL, or room for a copy of handlers that another process shares
 * (clone's CLONE_SIGHAND), which p's group then takes instead. */
struct sighand;
void signal_exec(struct proc *p, struct sighand *own);
int sys_sigaltstack(const stack_t *uss, stack_t *uoss);

int sys_kill(int pid, int sig);
int sys_tkill(int tid, int sig);
int sys_tgkill(int tgid, int tid, int sig);
int sys_rt_sigaction(int sig, const void *uact, void *uold, uint32_t size);
int sys_rt_sigprocmask(int how, const void *uset, void *uold, uint32_t size);
int sys_rt_sigpending(void *uset, uint32_t size);
int sys_rt_sigsuspend(const void *umask, uint32_t size);
int sys_pause(void);
int sys_sigreturn(void);
int sys_rt_sigreturn(void);
int sys_restart_syscall(void);

/* pselect6: the caller's mask is mask until the call ends; then put
 * back, at once or (interrupted) after the signal is handled. */
void signal_mask_for_call(sigset64_t mask);
void signal_unmask_after_call(bool interrupted);

#endif
