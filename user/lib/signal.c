/*
 * signal.c - sigaction and signal sets over the rt_ calls, the signal-name
 * table, and the terminal and identity wrappers that go with job control.
 *
 * sigaction always passes SA_RESTORER, as glibc does: a handler returns
 * into the restorer, which asks the kernel to put back the registers it
 * saved in the frame on the user stack. Linux i386 builds two frames: the
 * rt frame (siginfo and ucontext) for SA_SIGINFO handlers, whose restorer
 * calls rt_sigreturn (173), and the old one for plain handlers, whose
 * restorer pops the signal number and calls sigreturn (119).
 */
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

#include "syscall.h"

#define RET(x) return __syscall_ret(x)
#define SIGSET_BYTES 8

void __restore_rt(void), __restore(void);
#define STR_(x) #x
#define STR(x) STR_(x)
__asm__(".text\n.globl __restore_rt\n.type __restore_rt,@function\n"
	"__restore_rt:\n\tmovl $" STR(__NR_rt_sigreturn) ", %eax\n\tint $0x80\n\thlt\n"
	".size __restore_rt, .-__restore_rt\n"
	".globl __restore\n.type __restore,@function\n"
	"__restore:\n\tpopl %eax\n\tmovl $" STR(__NR_sigreturn) ", %eax\n\tint $0x80\n\thlt\n"
	".size __restore, .-__restore\n");

int sigaction(int sig, const struct sigaction *act, struct sigaction *old)
{
	struct sigaction k;

	if (act) {
		k = *act;
		k.sa_flags |= SA_RESTORER;
		k.sa_restorer = (k.sa_flags & SA_SIGINFO) ? __restore_rt : __restore;
		act = &k;
	}
	RET(syscall4(__NR_rt_sigaction, sig, (long)act, (long)old, SIGSET_BYTES));
}

sighandler_t signal(int sig, sighandler_t handler)
{
	struct sigaction sa = { .sa_handler = handler, .sa_flags = SA_RESTART }, old;

	if (sigaction(sig, &sa, &old) < 0)
		return SIG_ERR;
	return old.sa_handler;
}

int sigprocmask(int how, const sigset_t *set, sigset_t *old)
{
	RET(syscall4(__NR_rt_sigprocmask, how, (long)set, (long)old, SIGSET_BYTES));
}

int sigpending(sigset_t *set)
{
	RET(syscall2(__NR_rt_sigpending, (long)set, SIGSET_BYTES));
}

int sigsuspend(const sigset_t *mask)
{
	RET(syscall2(__NR_rt_sigsuspend, (long)mask, SIGSET_BYTES));
}

int pause(void) { RET(syscall0(__NR_pause)); }
int killpg(pid_t pgrp, int sig) { return pgrp <= 1 ? (errno = EINVAL, -1) : kill(-pgrp, sig); }
int raise(int sig) { return kill(getpid(), sig); }

static int sig_ok(int sig) { return sig >= 1 && sig < NSIG; }
#define WORD(sig) (((sig) - 1) / 32)
#define BIT(sig) (1ul << (((sig) - 1) % 32))

int sigemptyset(sigset_t *s) { s->sig[0] = s->sig[1] = 0; return 0; }
int sigfillset(sigset_t *s) { s->sig[0] = s->sig[1] = ~0ul; return 0; }

int sigaddset(sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return errno = EINVAL, -1;
	s->sig[WORD(sig)] |= BIT(sig);
	return 0;
}

int sigdelset(sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return errno = EINVAL, -1;
	s->sig[WORD(sig)] &= ~BIT(sig);
	return 0;
}

int sigismember(const sigset_t *s, int sig)
{
	if (!sig_ok(sig))
		return errno = EINVAL, -1;
	return (s->sig[WORD(sig)] & BIT(sig)) != 0;
}

/* ---- names: the one table (kill -l, the shell's job messages, ps) ---- */

static const struct { const char *abbrev, *text; } names[32] = {
	[1] = { "HUP", "Hangup" },		[2] = { "INT", "Interrupt" },
	[3] = { "QUIT", "Quit" },		[4] = { "ILL", "Illegal instruction" },
	[5] = { "TRAP", "Trace/breakpoint trap" }, [6] = { "ABRT", "Aborted" },
	[7] = { "BUS", "Bus error" },		[8] = { "FPE", "Floating point exception" },
	[9] = { "KILL", "Killed" },		[10] = { "USR1", "User defined signal 1" },
	[11] = { "SEGV", "Segmentation fault" }, [12] = { "USR2", "User defined signal 2" },
	[13] = { "PIPE", "Broken pipe" },	[14] = { "ALRM", "Alarm clock" },
	[15] = { "TERM", "Terminated" },	[16] = { "STKFLT", "Stack fault" },
	[17] = { "CHLD", "Child exited" },	[18] = { "CONT", "Continued" },
	[19] = { "STOP", "Stopped (signal)" },	[20] = { "TSTP", "Stopped" },
	[21] = { "TTIN", "Stopped (tty input)" }, [22] = { "TTOU", "Stopped (tty output)" },
	[23] = { "URG", "Urgent I/O condition" }, [24] = { "XCPU", "CPU time limit exceeded" },
	[25] = { "XFSZ", "File size limit exceeded" }, [26] = { "VTALRM", "Virtual timer expired" },
	[27] = { "PROF", "Profiling timer expired" }, [28] = { "WINCH", "Window changed" },
	[29] = { "IO", "I/O possible" },	[30] = { "PWR", "Power failure" },
	[31] = { "SYS", "Bad system call" },
};

const char *sig_abbrev(int sig)
{
	return sig >= 1 && sig < 32 ? names[sig].abbrev : NULL;
}

const char *strsignal(int sig)
{
	static char buf[32];

	if (sig >= 1 && sig < 32)
		return names[sig].text;
	snprintf(buf, sizeof(buf), sig_ok(sig) ? "Real-time signal %d" : "Unknown signal %d",
		 sig_ok(sig) ? sig - 34 : sig);
	return buf;
}

int sig_from_name(const char *s)
{
	if (*s >= '0' && *s <= '9') {
		int n = 0;
		for (; *s >= '0' && *s <= '9' && n < NSIG; s++)
			n = n * 10 + (*s - '0');
		return *s == 0 && sig_ok(n) ? n : -1;
	}
	if (strncmp(s, "SIG", 3) == 0)
		s += 3;
	for (int i = 1; i < 32; i++)
		if (strcmp(s, names[i].abbrev) == 0)
			return i;
	return -1;
}

void psignal(int sig, const char *s)
{
	if (s && *s)
		fprintf(stderr, "%s: %s\n", s, strsignal(sig));
	else
		fprintf(stderr, "%s\n", strsignal(sig));
}

/* ---- process groups, the terminal ---------------------------------------- */

int setpgid(pid_t pid, pid_t pgid) { RET(syscall2(__NR_setpgid, pid, pgid)); }
pid_t getpgid(pid_t pid) { RET(syscall1(__NR_getpgid, pid)); }
pid_t getpgrp(void) { RET(syscall0(__NR_getpgrp)); }
pid_t setsid(void) { RET(syscall0(__NR_setsid)); }
pid_t getsid(pid_t pid) { RET(syscall1(__NR_getsid, pid)); }

int ioctl(int fd, unsigned long req, ...)
{
	va_list ap;
	va_start(ap, req);
	long arg = va_arg(ap, long);
	va_end(ap);
	RET(syscall3(__NR_ioctl, fd, (long)req, arg));
}

pid_t tcgetpgrp(int fd)
{
	pid_t pg;
	return ioctl(fd, TIOCGPGRP, &pg) < 0 ? -1 : pg;
}

int tcsetpgrp(int fd, pid_t pgrp) { return ioctl(fd, TIOCSPGRP, &pgrp); }
int tcgetattr(int fd, struct termios *t) { return ioctl(fd, TCGETS, t); }

int tcsetattr(int fd, int when, const struct termios *t)
{
	if (when < TCSANOW || when > TCSAFLUSH)
		return errno = EINVAL, -1;
	return ioctl(fd, TCSETS + when, t);
}

int isatty(int fd)
{
	struct termios t;
	return tcgetattr(fd, &t) == 0;
}

/* ---- identity ------------------------------------------------------------ */

int setreuid(uid_t r, uid_t e) { RET(syscall2(__NR_setreuid32, r, e)); }
int setresuid(uid_t r, uid_t e, uid_t s) { RET(syscall3(__NR_setresuid32, r, e, s)); }
int getresuid(uid_t *r, uid_t *e, uid_t *s) { RET(syscall3(__NR_getresuid32, (long)r, (long)e, (long)s)); }
gid_t getgid(void) { return syscall0(__NR_getgid32); }
gid_t getegid(void) { return syscall0(__NR_getegid32); }
int setgid(gid_t g) { RET(syscall1(__NR_setgid32, g)); }
int setregid(gid_t r, gid_t e) { RET(syscall2(__NR_setregid32, r, e)); }
int setresgid(gid_t r, gid_t e, gid_t s) { RET(syscall3(__NR_setresgid32, r, e, s)); }
int getresgid(gid_t *r, gid_t *e, gid_t *s) { RET(syscall3(__NR_getresgid32, (long)r, (long)e, (long)s)); }
