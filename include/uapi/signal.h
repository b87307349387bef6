/*
 * uapi/signal.h - Linux's i386 signal numbers and the sigaction, sigprocmask
 * and siginfo constants and the structs the signal calls exchange, written
 * once for the kernel (kernel/task/signal.h) and the small libc
 * (user/lib/include/signal.h). NSIG and SIG_DFL/SIG_IGN stay
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
#define SI_MESGQ	(-3)	/* a message reached an empty POSIX message queue */
#define SI_TKILL	(-6)	/* tkill, tgkill */
#define CLD_EXITED	1
#define CLD_KILLED	2
#define CLD_DUMPED	3
#define CLD_STOPPED	5
#define CLD_CONTINUED	6
#define SEGV_MAPERR	1
#define SEGV_ACCERR	2
#define FPE_INTDIV	1	/* SIGFPE: integer divide by zero */
#define ILL_ILLOPN	2	/* SIGILL: illegal operand */
#define ILL_BADSTK	8	/* SIGILL: internal stack error (a bad %ss) */

/* sigaltstack's ss_flags (ucontext's uc_stack) */
#define SS_ONSTACK	1
#define SS_DISABLE	2
#define SS_AUTODISARM	(1u << 31)	/* disarmed while a handler runs on it */
#define MINSIGSTKSZ	2048		/* x86's: a smaller stack is ENOMEM */

/*
 * The structs the signal calls and frames exchange, i386's layouts
 * (asm/signal.h, asm/sigcontext.h, asm-generic/siginfo.h,
 * asm-generic/ucontext.h). The kernel treats addresses in them as numbers
 * (kernel/task/signal.h's sa_addr); the libc calls them.
 */

/* A set of the 64 signals, 8 bytes: signal n is bit (n - 1) % 32 of word
 * (n - 1) / 32. */
typedef struct {
	unsigned long sig[2];
} sigset_t;

struct siginfo;

/* rt_sigaction's struct (the set last, unlike the old sigaction's): 20 bytes */
struct sigaction {
	union {
		void (*sa_handler)(int);	/* or SIG_DFL (0), SIG_IGN (1) */
		void (*sa_sigaction)(int, struct siginfo *, void *);	/* SA_SIGINFO */
	};
	unsigned long sa_flags;
	void (*sa_restorer)(void);	/* SA_RESTORER: the handler returns here */
	sigset_t sa_mask;		/* blocked while the handler runs */
};

/* What a handler with SA_SIGINFO gets: 128 bytes */
typedef struct siginfo {
	int si_signo, si_errno, si_code;
	union {
		int _pad[29];
		struct { int pid; unsigned int uid; } kill;
		struct { int pid; unsigned int uid; int status; long utime, stime; } chld;
		struct { void *addr; } fault;
	} _sifields;
} siginfo_t;

/* The registers a handler's frame saves: 88 bytes. fpstate points to the
 * FPU state (struct _fpstate_32) the frame carries below it. */
struct sigcontext {
	unsigned short gs, __gsh, fs, __fsh, es, __esh, ds, __dsh;
	unsigned long edi, esi, ebp, esp, ebx, edx, ecx, eax;
	unsigned long trapno, err, eip;
	unsigned short cs, __csh;
	unsigned long eflags, esp_at_signal;
	unsigned short ss, __ssh;
	unsigned long fpstate, oldmask, cr2;
};

typedef struct sigaltstack {
	void *ss_sp;
	int ss_flags;			/* SS_DISABLE: no alternate stack */
	unsigned long ss_size;
} stack_t;

/* rt_sigreturn's context, the third argument of an SA_SIGINFO handler:
 * uc_sigmask at byte 108 */
struct ucontext {
	unsigned long uc_flags;
	struct ucontext *uc_link;
	stack_t uc_stack;
	struct sigcontext uc_mcontext;
	sigset_t uc_sigmask;
};

#endif
