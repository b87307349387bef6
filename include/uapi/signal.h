/*
 * uapi/signal.h - Linux's i386 signal numbers and the sigaction, sigprocmask
 * and siginfo constants, written once for the kernel (kernel/signal.h) and
 * the small libc (user/lib/include/signal.h). NSIG and SIG_DFL/SIG_IGN stay
 * with each side: the kernel counts 64 signals and compares handler
 * addresses, the libc follows glibc (NSIG 65, handler casts).
 */
#ifndef UAPI_SIGNAL_H
#define UAPI_SIGNAL_H

#define SIGHUP		1
#define SIGINT		2
#define SIGQUIT		3
#define SIGILL		4
#define SIGTRAP		5
#define SIGABRT		6
#define SIGIOT		6
#define SIGBUS		7
#define SIGFPE		8
#define SIGKILL		9
#define SIGUSR1		10
#define SIGSEGV		11
#define SIGUSR2		12
#define SIGPIPE		13
#define SIGALRM		14
#define SIGTERM		15
#define SIGSTKFLT	16
#define SIGCHLD		17
#define SIGCONT		18
#define SIGSTOP		19
#define SIGTSTP		20
#define SIGTTIN		21
#define SIGTTOU		22
#define SIGURG		23
#define SIGXCPU		24
#define SIGXFSZ		25
#define SIGVTALRM	26
#define SIGPROF		27
#define SIGWINCH	28
#define SIGIO		29
#define SIGPWR		30
#define SIGSYS		31

/* sigaction's sa_flags */
#define SA_NOCLDSTOP	0x00000001u
#define SA_NOCLDWAIT	0x00000002u
#define SA_SIGINFO	0x00000004u
#define SA_RESTORER	0x04000000u
#define SA_ONSTACK	0x08000000u
#define SA_RESTART	0x10000000u
#define SA_NODEFER	0x40000000u
#define SA_RESETHAND	0x80000000u

/* sigprocmask's how */
#define SIG_BLOCK	0
#define SIG_UNBLOCK	1
#define SIG_SETMASK	2

/* siginfo's si_code */
#define SI_USER		0
#define SI_KERNEL	0x80
#define SI_TKILL	(-6)	/* tkill, tgkill */
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_STOPPED	5
#define CLD_CONTINUED	6
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2

#endif
