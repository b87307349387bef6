/*
 * signals - POSIX signals as Linux i386 gives them (issue 11).
 *
 * One line per check, deterministic text only (no pids, addresses or
 * times: relations such as "sender pid matches: yes"), so the transcript
 * is diffed line for line against Linux 6.1's (tests/linux-diff.sh):
 * handlers and the frames they get (the old struct sigframe for a handler
 * without SA_SIGINFO, the rt frame with siginfo and ucontext with it, the
 * registers saved there and put back by sigreturn/rt_sigreturn), masks and
 * pending sets, the order pending signals are delivered in, EINTR and
 * SA_RESTART, SIGCHLD, stop and continue, default actions, kill's targets
 * and permissions, process groups and sessions, and faults caught by a
 * handler.
 *
 * The checks run in sections, each in a forked child that leads its own
 * process group (so kill(0, ...) stays inside it). A section that dies or
 * hangs (10 s) is killed and its remaining checks are printed "not ok",
 * so the numbering of the later sections still lines up with Linux's.
 * Children a section makes never print; results come back through pipes
 * and exit codes. Sleeps are only margins (150 ms) before a signal is sent
 * to a process that must be blocked by then.
 *
 * Handlers are installed with rt_sigaction and the restorer glibc and musl
 * use: __restore_rt (rt_sigreturn) with SA_SIGINFO, and a sigreturn (119)
 * trampoline without it, because Linux i386 builds the old sigframe for a
 * handler without SA_SIGINFO (the library's sigaction passes __restore_rt
 * for both, and on Linux such a handler dies in rt_sigreturn with SIGSEGV).
 *
 * Run as root: the permission checks fork, setresuid to uid 4242 and use
 * SIGURG (ignored by default, so kill(-1) as that uid harms nothing else).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "syscall.h"
#include <uapi/prctl.h>	/* PR_SET_DUMPABLE */

#define TEST_UID 4242
#define OTHER_UID 4243
#define MARGIN_MS 150
#define SECTION_TIMEOUT_S 10

/* ---- Linux i386's frame structures (asm/sigcontext.h, asm/ucontext.h) ---- */

/* struct sigcontext, struct ucontext: uapi/signal.h (through <signal.h>). */

_Static_assert(sizeof(struct sigcontext) == 88, "struct sigcontext is 88 bytes");
_Static_assert(__builtin_offsetof(struct ucontext, uc_sigmask) == 108, "uc_sigmask at 108");
_Static_assert(sizeof(siginfo_t) == 128, "siginfo is 128 bytes");

#define EFL_CF 0x1
#define EFL_IF 0x200
#define EFL_DF 0x400
#define EFL_IOPL 0x3000

/* ---- assembly: trampolines, a handler entry that records registers, a
 * kill with known registers, and faulting instructions with labels ---- */

void restore_plain(void);
void entry_stub(void);
long raw_kill(long pid, long sig);
extern void __restore_rt(void);
extern char raw_kill_after[];
long do_null_write(void), do_div0(void), do_ud2(void), do_int3(void);
extern char null_write_insn[], null_write_after[], div0_insn[], div0_after[];
extern char ud2_insn[], ud2_after[], int3_after[];

/* raw_kill's registers: in = edx, esi, edi, ebp before the int $0x80;
 * out = eax, ebx, ecx, edx, esi, edi, ebp, eflags after it; rk_sp = esp at
 * the int $0x80; rk_std: set the direction flag for the call. */
long rk_in[4], rk_out[8], rk_sp, rk_std;
/* entry_stub's record of the handler's entry: eax, edx, ecx, esp, eflags */
long st_eax, st_edx, st_ecx, st_esp, st_eflags;
void *st_target;

__asm__(
	".text\n"
	".globl restore_plain\n"
	"restore_plain:\n"
	"	popl %eax\n"
	"	movl $119, %eax\n"
	"	int $0x80\n"
	"	hlt\n"
	/* records what the kernel put in the registers, then jumps to the C
	 * handler with the stack untouched (it sees the frame as its caller's) */
	".globl entry_stub\n"
	"entry_stub:\n"
	"	movl %eax, st_eax\n"
	"	movl %edx, st_edx\n"
	"	movl %ecx, st_ecx\n"
	"	movl %esp, st_esp\n"
	"	pushfl\n"
	"	popl st_eflags\n"
	"	cld\n"			/* C code must not run with DF set */
	"	jmp *st_target\n"
	".globl raw_kill\n"
	"raw_kill:\n"
	"	pushl %ebp\n"
	"	pushl %ebx\n"
	"	pushl %esi\n"
	"	pushl %edi\n"
	"	movl 20(%esp), %ebx\n"
	"	movl 24(%esp), %ecx\n"
	"	movl rk_in, %edx\n"
	"	movl rk_in+4, %esi\n"
	"	movl rk_in+8, %edi\n"
	"	movl rk_in+12, %ebp\n"
	"	movl $37, %eax\n"
	"	cmpl $0, rk_std\n"	/* leaves CF clear */
	"	je 1f\n"
	"	std\n"
	"1:	movl %esp, rk_sp\n"
	"	int $0x80\n"
	".globl raw_kill_after\n"
	"raw_kill_after:\n"
	"	pushfl\n"
	"	cld\n"
	"	popl rk_out+28\n"
	"	movl %eax, rk_out\n"
	"	movl %ebx, rk_out+4\n"
	"	movl %ecx, rk_out+8\n"
	"	movl %edx, rk_out+12\n"
	"	movl %esi, rk_out+16\n"
	"	movl %edi, rk_out+20\n"
	"	movl %ebp, rk_out+24\n"
	"	popl %edi\n"
	"	popl %esi\n"
	"	popl %ebx\n"
	"	popl %ebp\n"
	"	ret\n"
	".globl do_null_write\n"
	"do_null_write:\n"
	"	xorl %eax, %eax\n"
	".globl null_write_insn\n"
	"null_write_insn:\n"
	"	movl $1, (%eax)\n"
	".globl null_write_after\n"
	"null_write_after:\n"
	"	movl $7, %eax\n"
	"	ret\n"
	".globl do_div0\n"
	"do_div0:\n"
	"	pushl %ebx\n"
	"	movl $1, %eax\n"
	"	xorl %edx, %edx\n"
	"	xorl %ebx, %ebx\n"
	".globl div0_insn\n"
	"div0_insn:\n"
	"	divl %ebx\n"
	".globl div0_after\n"
	"div0_after:\n"
	"	movl $8, %eax\n"
	"	popl %ebx\n"
	"	ret\n"
	".globl do_ud2\n"
	"do_ud2:\n"
	".globl ud2_insn\n"
	"ud2_insn:\n"
	"	ud2\n"
	".globl ud2_after\n"
	"ud2_after:\n"
	"	movl $9, %eax\n"
	"	ret\n"
	".globl do_int3\n"
	"do_int3:\n"
	"	int3\n"
	".globl int3_after\n"
	"int3_after:\n"
	"	movl $10, %eax\n"
	"	ret\n");

/* ---- results ---- */

static int count, failed, progress_fd = -1;
static const char *self_path = "/bin/signals";

static const char *yn(int c) { return c ? "yes" : "no"; }

/* One KTAP line, flushed at once; a section's child also reports it to
 * the runner through progress_fd ('o' or 'f'). */
__attribute__((format(printf, 3, 4)))
static int check(int cond, const char *name, const char *fmt, ...)
{
	char buf[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	count++;
	if (!cond)
		failed++;
	printf("%sok %d - %s # %s\n", cond ? "" : "not ", count, name, buf);
	fflush(stdout);
	if (progress_fd >= 0)
		write(progress_fd, cond ? "o" : "f", 1);
	return cond;
}

static void skip(const char *name, const char *why)
{
	count++;
	printf("ok %d - %s # SKIP %s\n", count, name, why);
	fflush(stdout);
	if (progress_fd >= 0)
		write(progress_fd, "o", 1);
}

/* fork for a helper child: it never prints and does not hold the
 * section's progress pipe open. */
static pid_t spawn(void)
{
	pid_t pid = fork();

	if (pid == 0 && progress_fd >= 0) {
		close(progress_fd);
		progress_fd = -1;
	}
	return pid;
}

/* ---- small helpers ---- */

static void msleep(int ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

#define ERRNO_OF(call) ((call) == -1 ? errno : 0)

static long raw_errno(long r) { return r < 0 && r > -4096 ? -r : 0; }

static int act(int sig, void *handler, unsigned long flags, const sigset_t *mask)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = (sighandler_t)handler;
	sa.sa_flags = flags | SA_RESTORER;
	sa.sa_restorer = (flags & SA_SIGINFO) ? __restore_rt : restore_plain;
	if (mask)
		sa.sa_mask = *mask;
	return __syscall_ret(syscall4(__NR_rt_sigaction, sig, (long)&sa, 0, 8));
}

static int query(int sig, struct sigaction *old)
{
	memset(old, 0, sizeof(*old));
	return __syscall_ret(syscall4(__NR_rt_sigaction, sig, 0, (long)old, 8));
}

static sigset_t mk(int sig, ...)
{
	sigset_t s;
	va_list ap;

	sigemptyset(&s);
	va_start(ap, sig);
	for (; sig != 0; sig = va_arg(ap, int))
		sigaddset(&s, sig);
	va_end(ap);
	return s;
}

static sigset_t none(void) { return mk(0); }

static sigset_t getmask(void)
{
	sigset_t s;

	sigprocmask(SIG_BLOCK, NULL, &s);
	return s;
}

static void setmask(sigset_t s) { sigprocmask(SIG_SETMASK, &s, NULL); }
static void block(int sig) { sigset_t s = mk(sig, 0); sigprocmask(SIG_BLOCK, &s, NULL); }
static void unblock(int sig) { sigset_t s = mk(sig, 0); sigprocmask(SIG_UNBLOCK, &s, NULL); }

static sigset_t pending(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigpending(&s);
	return s;
}

static int same(sigset_t a, sigset_t b) { return a.sig[0] == b.sig[0] && a.sig[1] == b.sig[1]; }

/* "{USR1,USR2}"; four buffers in turn, for use in one printf */
static const char *ms(sigset_t s)
{
	static char bufs[4][160];
	static int turn;
	char *b = bufs[turn++ % 4];
	size_t n = 0;

	b[n++] = '{';
	for (int sig = 1; sig < NSIG && n < 150; sig++) {
		if (!sigismember(&s, sig))
			continue;
		if (n > 1)
			b[n++] = ',';
		if (sig_abbrev(sig))
			n += snprintf(b + n, 160 - n, "%s", sig_abbrev(sig));
		else
			n += snprintf(b + n, 160 - n, "%d", sig);
	}
	b[n++] = '}';
	b[n] = 0;
	return b;
}

static void put_ints(int fd, const int *v, int n) { write(fd, v, n * sizeof(int)); }

static int get_ints(int fd, int *v, int n)
{
	int got = 0, want = n * (int)sizeof(int);

	while (got < want) {
		int r = read(fd, (char *)v + got, want - got);
		if (r <= 0)
			return -1;
		got += r;
	}
	return 0;
}

static int get_byte(int fd)
{
	unsigned char c;

	return read(fd, &c, 1) == 1 ? c : -1;
}

/* "exit 3", "signal 15", "stopped 19", "continued" */
static const char *st_str(int st)
{
	static char bufs[4][48];
	static int turn;
	char *b = bufs[turn++ % 4];

	if (WIFEXITED(st))
		snprintf(b, 48, "exit %d", WEXITSTATUS(st));
	else if (WIFCONTINUED(st))
		snprintf(b, 48, "continued");
	else if (WIFSTOPPED(st))
		snprintf(b, 48, "stopped %d", WSTOPSIG(st));
	else
		snprintf(b, 48, "signal %d%s", WTERMSIG(st), WCOREDUMP(st) ? " core" : "");
	return b;
}

static int reap(pid_t pid)
{
	int st = -1;

	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

/* A child blocked in pause() until it is killed. */
static pid_t spawn_pauser(void)
{
	pid_t pid = spawn();

	if (pid == 0) {
		for (;;)
			pause();
	}
	return pid;
}

static char proc_state(pid_t pid);

/* A child that sends sig (and then sig2 if not 0) to its parent once the
 * parent sleeps (in the call the test is about: a fixed delay instead
 * let a slow host send it before the call), then writes 'x' to fd (if
 * >= 0) after MARGIN_MS, and exits with code. */
static pid_t spawn_signaller(int sig, int sig2, int fd, int code)
{
	pid_t parent = getpid(), pid = spawn();

	if (pid == 0) {
		while (proc_state(parent) != 'S')
			msleep(1);
		kill(parent, sig);
		if (sig2)
			kill(parent, sig2);
		msleep(MARGIN_MS);
		if (fd >= 0)
			write(fd, "x", 1);
		_exit(code);
	}
	return pid;
}

/* The state letter of /proc/PID/stat ('R', 'S', ...), or 0. */
static char proc_state(pid_t pid)
{
	char path[32], buf[256];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return 0;
	int n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = 0;
	char *end = strrchr(buf, ')');
	return end && end[1] == ' ' ? end[2] : 0;
}

/* A child that sends sig once this process is asleep ('S': in the call
 * the caller makes next, since nothing else between sleeps), so that the
 * signal surely interrupts that call however slow the host; then it
 * exits with code, at once or (go >= 0) once a byte comes through go:
 * the caller's interrupted call has returned by then, and no exit races
 * the signal. */
static pid_t spawn_signaller_asleep(int sig, int go, int code)
{
	pid_t parent = getpid(), pid = spawn();

	if (pid == 0) {
		while (proc_state(parent) != 'S')
			msleep(1);
		kill(parent, sig);
		if (go >= 0) {
			char c;
			read(go, &c, 1);
		}
		_exit(code);
	}
	return pid;
}

/* ======================================================================
 * handlers and their frames
 * ====================================================================== */

static volatile int hs_ran, hs_sig, hs_modify;
static long hs_entry[5];		/* eax, edx, ecx, esp, eflags at entry */
static unsigned long hs_ret, hs_arg_info, hs_arg_uc;
static struct sigcontext hs_sc;
static struct ucontext hs_uc;
static siginfo_t hs_si;
static sigset_t hs_inside;

static void record_entry(void)
{
	hs_entry[0] = st_eax;
	hs_entry[1] = st_edx;
	hs_entry[2] = st_ecx;
	hs_entry[3] = st_esp;
	hs_entry[4] = st_eflags;
	hs_ret = *(unsigned long *)st_esp;
	hs_inside = getmask();
}

/* new register values a handler writes into the frame */
static const unsigned long new_regs[7] = {	/* eax ebx ecx edx esi edi ebp */
	4242, 0x0b0b0b0b, 0x0c0c0c0c, 0x0d0d0d0d, 0x5e5e5e5e, 0xd1d1d1d1, 0xb9b9b9b9
};

static void modify(struct sigcontext *sc)
{
	if (hs_modify == 1) {
		sc->eax = new_regs[0];
		sc->ebx = new_regs[1];
		sc->ecx = new_regs[2];
		sc->edx = new_regs[3];
		sc->esi = new_regs[4];
		sc->edi = new_regs[5];
		sc->ebp = new_regs[6];
		sc->eflags |= EFL_CF;
	} else if (hs_modify == 2) {
		sc->eflags |= EFL_IOPL;
	} else if (hs_modify == 3) {
		sc->cs = 0x08;
	} else if (hs_modify == 4) {
		sc->eip = 0xC0100000;
	}
}

/* the old frame: pretcode, sig, struct sigcontext, ... */
static void plain_handler(int sig)
{
	struct sigcontext *sc = (struct sigcontext *)(st_esp + 8);

	record_entry();
	hs_ran++;
	hs_sig = sig;
	hs_sc = *sc;
	modify(sc);
}

/* the rt frame: pretcode, sig, pinfo, puc, siginfo, ucontext, ... */
static void rt_handler(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;

	record_entry();
	hs_ran++;
	hs_sig = sig;
	hs_arg_info = (unsigned long)si;
	hs_arg_uc = (unsigned long)uc;
	hs_si = *si;
	hs_uc = *uc;
	modify(&uc->uc_mcontext);
}

static void set_markers(void)
{
	rk_in[0] = 0x11d11d11;	/* edx */
	rk_in[1] = 0x22522522;	/* esi */
	rk_in[2] = 0x33d33d33;	/* edi */
	rk_in[3] = 0x44b44b44;	/* ebp */
	rk_std = 1;
}

/* the sigcontext holds the registers of raw_kill's int $0x80 */
static int sc_matches(const struct sigcontext *sc, int sig, char *why, size_t n)
{
	int ok = sc->eip == (unsigned long)raw_kill_after && (sc->cs & 3) == 3 &&
		 (sc->ss & 3) == 3 && sc->esp == (unsigned long)rk_sp &&
		 sc->esp_at_signal == (unsigned long)rk_sp && sc->eax == 0 &&
		 sc->ebx == (unsigned long)getpid() && sc->ecx == (unsigned long)sig &&
		 sc->edx == (unsigned long)rk_in[0] && sc->esi == (unsigned long)rk_in[1] &&
		 sc->edi == (unsigned long)rk_in[2] && sc->ebp == (unsigned long)rk_in[3];

	snprintf(why, n, "eip after the int 0x80: %s, cs and ss rpl 3: %s, esp: %s, "
		 "eax is kill's 0: %s, ebx ecx edx esi edi ebp: %s, DF and IF set: %s",
		 yn(sc->eip == (unsigned long)raw_kill_after),
		 yn((sc->cs & 3) == 3 && (sc->ss & 3) == 3),
		 yn(sc->esp == (unsigned long)rk_sp && sc->esp_at_signal == (unsigned long)rk_sp),
		 yn(sc->eax == 0),
		 yn(sc->ebx == (unsigned long)getpid() && sc->ecx == (unsigned long)sig &&
		    sc->edx == (unsigned long)rk_in[0] && sc->esi == (unsigned long)rk_in[1] &&
		    sc->edi == (unsigned long)rk_in[2] && sc->ebp == (unsigned long)rk_in[3]),
		 yn((sc->eflags & (EFL_DF | EFL_IF)) == (EFL_DF | EFL_IF)));
	return ok && (sc->eflags & (EFL_DF | EFL_IF)) == (EFL_DF | EFL_IF);
}

static int regs_restored(char *why, size_t n)
{
	int regs = 1;

	for (int i = 0; i < 7; i++)
		regs &= (unsigned long)rk_out[i] == new_regs[i];
	snprintf(why, n, "kill returned %ld, ebx..ebp as written: %s, CF as written: %s, "
		 "DF back: %s", rk_out[0], yn(regs), yn(rk_out[7] & EFL_CF),
		 yn(rk_out[7] & EFL_DF));
	return regs && (rk_out[7] & EFL_CF) && (rk_out[7] & EFL_DF);
}

static void section_handlers(void)
{
	char why[300];
	sigset_t usr2 = mk(SIGUSR2, 0);
	pid_t me = getpid();
	long r;

	/* --- a handler without SA_SIGINFO: the old struct sigframe --- */
	setmask(usr2);
	act(SIGUSR1, entry_stub, 0, NULL);
	st_target = (void *)plain_handler;
	set_markers();
	hs_ran = hs_sig = hs_modify = 0;
	r = raw_kill(me, SIGUSR1);
	check(hs_ran == 1 && hs_sig == SIGUSR1 && r == 0, "handler_runs_with_its_signal_number",
	      "ran before kill returned: %s, signal %d, kill returned %ld",
	      yn(hs_ran == 1), hs_sig, r);
	check(hs_entry[3] < rk_sp && rk_sp - hs_entry[3] < 16384 && (hs_entry[3] + 4) % 16 == 0,
	      "handler_runs_on_the_user_stack_below_the_interrupted_esp",
	      "below it: %s, within 16 KiB: %s, esp+4 16-byte aligned: %s",
	      yn(hs_entry[3] < rk_sp), yn(rk_sp - hs_entry[3] < 16384),
	      yn((hs_entry[3] + 4) % 16 == 0));
	check(hs_ret == (unsigned long)restore_plain, "handler_returns_into_sa_restorer",
	      "return address is sa_restorer: %s", yn(hs_ret == (unsigned long)restore_plain));
	check(hs_entry[0] == SIGUSR1 && hs_entry[1] == 0 && hs_entry[2] == 0 &&
	      !(hs_entry[4] & EFL_DF), "plain_handler_entry_registers",
	      "eax = signal: %s, edx = 0: %s, ecx = 0: %s, DF clear: %s",
	      yn(hs_entry[0] == SIGUSR1), yn(hs_entry[1] == 0), yn(hs_entry[2] == 0),
	      yn(!(hs_entry[4] & EFL_DF)));
	{
		int ok = sc_matches(&hs_sc, SIGUSR1, why, sizeof(why));
		check(ok && hs_sc.oldmask == usr2.sig[0], "plain_frame_sigcontext_holds_the_interrupted_registers",
		      "%s, oldmask is the mask at the signal: %s", why,
		      yn(hs_sc.oldmask == usr2.sig[0]));
	}
	hs_modify = 1;
	r = raw_kill(me, SIGUSR1);
	hs_modify = 0;
	{
		int ok = regs_restored(why, sizeof(why));
		check(ok && same(getmask(), usr2), "sigreturn_restores_the_plain_frame",
		      "%s, mask back to %s", why, ms(getmask()));
	}

	/* --- SA_SIGINFO: the rt frame --- */
	act(SIGUSR1, entry_stub, SA_SIGINFO, NULL);
	st_target = (void *)rt_handler;
	set_markers();
	hs_ran = 0;
	r = raw_kill(me, SIGUSR1);
	check(hs_ran == 1 && hs_si.si_signo == SIGUSR1 && hs_si.si_errno == 0 &&
	      hs_si.si_code == SI_USER && hs_si.si_pid == me && hs_si.si_uid == getuid(),
	      "siginfo_of_a_kill_to_self",
	      "ran: %s, si_signo %d, si_errno %d, si_code %d, si_pid is ours: %s, si_uid is ours: %s",
	      yn(hs_ran == 1), hs_si.si_signo, hs_si.si_errno, hs_si.si_code,
	      yn(hs_si.si_pid == me), yn(hs_si.si_uid == getuid()));
	{
		unsigned long base = (unsigned long)hs_entry[3];
		int args = hs_arg_info == base + 16 && hs_arg_uc == base + 16 + 128;
		check(args && hs_ret == (unsigned long)__restore_rt && (base + 4) % 16 == 0 &&
		      base < (unsigned long)rk_sp && rk_sp - base < 16384,
		      "rt_frame_has_the_linux_layout",
		      "siginfo at frame+16 and ucontext after it: %s, returns into sa_restorer: %s, "
		      "esp+4 16-byte aligned: %s, below the interrupted esp: %s",
		      yn(args), yn(hs_ret == (unsigned long)__restore_rt), yn((base + 4) % 16 == 0),
		      yn(base < (unsigned long)rk_sp && rk_sp - base < 16384));
	}
	check(hs_entry[0] == SIGUSR1 && (unsigned long)hs_entry[1] == hs_arg_info &&
	      (unsigned long)hs_entry[2] == hs_arg_uc && !(hs_entry[4] & EFL_DF),
	      "rt_handler_entry_registers",
	      "eax = signal: %s, edx = &info: %s, ecx = &uc: %s, DF clear: %s",
	      yn(hs_entry[0] == SIGUSR1), yn((unsigned long)hs_entry[1] == hs_arg_info),
	      yn((unsigned long)hs_entry[2] == hs_arg_uc), yn(!(hs_entry[4] & EFL_DF)));
	{
		int ok = sc_matches(&hs_uc.uc_mcontext, SIGUSR1, why, sizeof(why));
		check(ok, "ucontext_mcontext_holds_the_interrupted_registers", "%s", why);
	}
	{
		sigset_t both = mk(SIGUSR1, SIGUSR2, 0);
		check(same(hs_uc.uc_sigmask, usr2) && hs_uc.uc_mcontext.oldmask == usr2.sig[0] &&
		      same(hs_inside, both), "ucontext_sigmask_is_the_mask_at_the_signal",
		      "uc_sigmask %s, oldmask matches: %s, mask inside the handler %s",
		      ms(hs_uc.uc_sigmask), yn(hs_uc.uc_mcontext.oldmask == usr2.sig[0]),
		      ms(hs_inside));
	}
	/* No alternate stack: Linux 6.1 i386 writes SS_DISABLE in ss_flags,
	 * the x86-64 kernels' ia32 frames 0; either is Linux's. */
	{
		int flags_ok = hs_uc.uc_stack.ss_flags == 0 ||
			       hs_uc.uc_stack.ss_flags == SS_DISABLE;
		check(hs_uc.uc_link == 0 && flags_ok && hs_uc.uc_stack.ss_sp == 0 &&
		      hs_uc.uc_stack.ss_size == 0, "ucontext_link_and_stack",
		      "uc_link 0x%lx, uc_stack flags SS_DISABLE or 0: %s, sp 0x%lx, size %lu",
		      (unsigned long)hs_uc.uc_link, yn(flags_ok), (unsigned long)hs_uc.uc_stack.ss_sp, hs_uc.uc_stack.ss_size);
	}
	hs_modify = 1;
	r = raw_kill(me, SIGUSR1);
	hs_modify = 0;
	{
		int ok = regs_restored(why, sizeof(why));
		check(ok && same(getmask(), usr2), "rt_sigreturn_restores_the_registers_from_the_frame",
		      "%s, mask back to %s", why, ms(getmask()));
	}
	rk_std = 0;

	/* --- from another process: si_pid and si_uid (the sender's real uid) --- */
	if (geteuid() != 0) {
		skip("siginfo_of_a_kill_from_another_uid", "not root");
	} else {
		int fds[2];
		pid_t child;

		pipe(fds);
		block(SIGUSR1);
		hs_ran = 0;
		child = spawn();
		if (child == 0) {
			int res[2] = { 0, 0 };
			res[0] = setresuid(TEST_UID, 0, 0);
			res[1] = kill(getppid(), SIGUSR1);
			put_ints(fds[1], res, 2);
			_exit(0);
		}
		int res[2] = { -9, -9 };
		get_ints(fds[0], res, 2);
		reap(child);
		sigset_t empty = none();
		sigsuspend(&empty);
		check(hs_ran == 1 && hs_si.si_code == SI_USER && hs_si.si_pid == child &&
		      hs_si.si_uid == TEST_UID && res[0] == 0 && res[1] == 0,
		      "siginfo_of_a_kill_from_another_uid",
		      "sender with real uid %d, effective 0: kill %d, si_code %d, "
		      "sender pid matches: %s, si_uid is its real uid: %s",
		      TEST_UID, res[1], hs_si.si_code, yn(hs_si.si_pid == child),
		      yn(hs_si.si_uid == TEST_UID));
		close(fds[0]);
		close(fds[1]);
	}
	setmask(none());
}

/* A handler that corrupts its frame: only the process may suffer. */
static void frame_abuse_child(int how)
{
	act(SIGUSR1, entry_stub, SA_SIGINFO, NULL);
	st_target = (void *)rt_handler;
	hs_modify = how;
	raw_kill(getpid(), SIGUSR1);
	_exit(100);
}

static void section_frame_abuse(void)
{
	pid_t me = getpid(), child;
	int st;

	act(SIGUSR1, entry_stub, SA_SIGINFO, NULL);
	st_target = (void *)rt_handler;
	hs_modify = 2;
	rk_std = 0;
	raw_kill(me, SIGUSR1);
	hs_modify = 0;
	check(!(rk_out[7] & EFL_IOPL), "sigreturn_cannot_raise_iopl",
	      "IOPL after a frame asking for 3: %ld", (rk_out[7] & EFL_IOPL) >> 12);

	child = spawn();
	if (child == 0)
		frame_abuse_child(3);
	st = reap(child);
	/* Linux keeps the selector with RPL forced to 3, and the return to
	 * user mode faults: SIGSEGV on x86-64 kernels, SIGILL (iret
	 * exception) on i386 ones */
	{
		int killed = WIFSIGNALED(st) && (WTERMSIG(st) == SIGSEGV || WTERMSIG(st) == SIGILL);
		printf("# cs 0x08 in the frame: %s (a comment: not compared)\n", st_str(st));
		check(killed, "sigreturn_to_a_kernel_code_selector_kills_only_the_process",
		      "cs 0x08 in the frame: killed by SIGSEGV or SIGILL: %s",
		      killed ? "yes" : st_str(st));
	}

	child = spawn();
	if (child == 0)
		frame_abuse_child(4);
	st = reap(child);
	check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV,
	      "sigreturn_to_a_kernel_address_kills_with_sigsegv",
	      "eip 0xc0100000 in the frame: %s", st_str(st));
}

/* ======================================================================
 * the x87 state around a handler
 * ====================================================================== */

static volatile unsigned short fpu_cw_in_handler;

static void fpu_handler(int sig)
{
	unsigned short cw, junk = 0x0c7f;

	(void)sig;
	__asm__ volatile("fnstcw %0" : "=m"(cw));
	fpu_cw_in_handler = cw;
	__asm__ volatile("fninit\n\tfldcw %0\n\tfldz\n\tfldz\n\tfldz" : : "m"(junk));
}

static void section_fpu(void)
{
	unsigned short cw = 0x027f, cw_after = 0, cw_default = 0x037f;
	/* 1.5 as an IEEE double, kept as bits (no floating point in C here) */
	unsigned long long in = 0x3ff8000000000000ull, out = 0;

	act(SIGUSR1, fpu_handler, 0, NULL);
	__asm__ volatile("fninit\n\tfldcw %0\n\tfldl %1" : : "m"(cw), "m"(in));
	kill(getpid(), SIGUSR1);
	__asm__ volatile("fnstcw %0\n\tfstpl %1" : "=m"(cw_after), "=m"(out));
	__asm__ volatile("fninit\n\tfldcw %0" : : "m"(cw_default));
	check(fpu_cw_in_handler == 0x037f && cw_after == 0x027f && out == in,
	      "x87_state_is_saved_around_a_handler",
	      "handler starts with control word 0x%x, ours back: %s, st(0) back: %s",
	      fpu_cw_in_handler, yn(cw_after == 0x027f), yn(out == in));
}

/* ======================================================================
 * masks and pending signals
 * ====================================================================== */

static volatile int m_count, m_depth, m_maxdepth, m_reraise;
static sigset_t m_first_mask;

static void mask_handler(int sig)
{
	sigset_t cur = getmask();

	if (m_count++ == 0)
		m_first_mask = cur;
	if (++m_depth > m_maxdepth)
		m_maxdepth = m_depth;
	if (m_reraise) {
		m_reraise = 0;
		kill(getpid(), sig);
	}
	m_depth--;
}

static void m_reset(void) { m_count = m_depth = m_maxdepth = m_reraise = 0; }

static volatile int ss_ran;
static sigset_t ss_inside, ss_ucmask;

static void suspend_handler(int sig, siginfo_t *si, void *ucv)
{
	(void)sig;
	(void)si;
	ss_ran++;
	ss_inside = getmask();
	ss_ucmask = ((struct ucontext *)ucv)->uc_sigmask;
}

static void section_masks(void)
{
	sigset_t usr1 = mk(SIGUSR1, 0), usr2 = mk(SIGUSR2, 0), old, p;
	struct sigaction o;
	int ran;

	act(SIGUSR1, mask_handler, 0, NULL);
	m_reset();
	block(SIGUSR1);
	kill(getpid(), SIGUSR1);
	ran = m_count;
	p = pending();
	check(ran == 0 && same(p, usr1), "a_blocked_signal_stays_pending",
	      "handler ran: %s, pending %s", yn(ran), ms(p));

	sigprocmask(SIG_UNBLOCK, &usr1, &old);
	ran = m_count;
	p = pending();
	check(ran == 1 && same(old, usr1) && same(p, none()),
	      "unblocking_delivers_before_sigprocmask_returns",
	      "handler ran before sigprocmask returned: %s, old mask %s, pending now %s",
	      yn(ran == 1), ms(old), ms(p));

	{
		sigset_t hup = mk(SIGHUP, 0), set = mk(SIGUSR2, SIGTERM, 0), term = mk(SIGTERM, 0);
		sigset_t after_set, after_unblock;

		setmask(hup);
		sigprocmask(SIG_SETMASK, &set, &old);
		after_set = getmask();
		sigprocmask(SIG_UNBLOCK, &term, NULL);
		after_unblock = getmask();
		setmask(none());
		check(same(old, hup) && same(after_set, set) && same(after_unblock, usr2),
		      "sig_setmask_replaces_and_sig_unblock_removes",
		      "old %s, after SETMASK %s, after UNBLOCK TERM %s", ms(old), ms(after_set),
		      ms(after_unblock));
	}
	{
		sigset_t all, ks = mk(SIGKILL, SIGSTOP, 0), got_all, got_ks;

		sigfillset(&all);
		sigprocmask(SIG_BLOCK, &all, NULL);
		got_all = getmask();
		setmask(ks);
		got_ks = getmask();
		setmask(none());
		check(got_all.sig[0] == 0xfffbfeff && got_all.sig[1] == 0xffffffff &&
		      same(got_ks, none()), "sigkill_and_sigstop_are_dropped_from_the_mask",
		      "block all: 0x%08lx 0x%08lx, setmask {KILL,STOP}: %s",
		      got_all.sig[0], got_all.sig[1], ms(got_ks));
	}
	{
		int e[4], q1, q2;

		e[0] = ERRNO_OF(act(SIGKILL, mask_handler, 0, NULL));
		e[1] = ERRNO_OF(act(SIGKILL, SIG_IGN, 0, NULL));
		e[2] = ERRNO_OF(act(SIGSTOP, mask_handler, 0, NULL));
		e[3] = ERRNO_OF(act(SIGSTOP, SIG_IGN, 0, NULL));
		q1 = query(SIGKILL, &o);
		int dfl1 = o.sa_handler == SIG_DFL;
		q2 = query(SIGSTOP, &o);
		int dfl2 = o.sa_handler == SIG_DFL;
		check(e[0] == EINVAL && e[1] == EINVAL && e[2] == EINVAL && e[3] == EINVAL &&
		      q1 == 0 && q2 == 0 && dfl1 && dfl2,
		      "sigkill_and_sigstop_cannot_be_caught_or_ignored",
		      "handler/SIG_IGN for KILL: errno %d %d, for STOP: %d %d; "
		      "querying them: %d %d, SIG_DFL: %s", e[0], e[1], e[2], e[3], q1, q2,
		      yn(dfl1 && dfl2));
	}
	{
		struct sigaction sa;
		sigset_t set = none();
		long e[6];

		memset(&sa, 0, sizeof(sa));
		sa.sa_handler = mask_handler;
		sa.sa_flags = SA_RESTORER;
		sa.sa_restorer = restore_plain;
		e[0] = raw_errno(syscall4(__NR_rt_sigaction, 0, (long)&sa, 0, 8));
		e[1] = raw_errno(syscall4(__NR_rt_sigaction, 65, (long)&sa, 0, 8));
		e[2] = raw_errno(syscall4(__NR_rt_sigaction, SIGUSR1, (long)&sa, 0, 4));
		e[3] = raw_errno(syscall4(__NR_rt_sigprocmask, 3, (long)&set, 0, 8));
		e[4] = raw_errno(syscall4(__NR_rt_sigprocmask, SIG_BLOCK, (long)&set, 0, 4));
		e[5] = raw_errno(syscall2(__NR_rt_sigsuspend, (long)&set, 4));
		int ok = 1;
		for (int i = 0; i < 6; i++)
			ok &= e[i] == EINVAL;
		check(ok, "bad_signal_numbers_hows_and_set_sizes_are_einval",
		      "sigaction 0: %ld, 65: %ld, size 4: %ld; sigprocmask how 3: %ld, "
		      "size 4: %ld; sigsuspend size 4: %ld", e[0], e[1], e[2], e[3], e[4], e[5]);
	}
	{
		act(SIGUSR1, mask_handler, SA_RESTART, &usr2);
		query(SIGUSR1, &o);
		check(o.sa_handler == mask_handler && o.sa_flags == (SA_RESTART | SA_RESTORER) &&
		      o.sa_restorer == restore_plain && same(o.sa_mask, usr2),
		      "sigaction_reports_the_action_set",
		      "handler ours: %s, flags 0x%lx, restorer ours: %s, mask %s",
		      yn(o.sa_handler == mask_handler), o.sa_flags,
		      yn(o.sa_restorer == restore_plain), ms(o.sa_mask));
	}
	{
		sigset_t both = mk(SIGUSR1, SIGUSR2, 0);

		act(SIGUSR1, mask_handler, 0, &usr2);
		m_reset();
		m_reraise = 1;
		kill(getpid(), SIGUSR1);
		check(same(m_first_mask, both) && m_count == 2 && m_maxdepth == 1 &&
		      same(getmask(), none()), "a_handler_blocks_its_signal_and_sa_mask",
		      "mask inside %s, raised again inside: nested: %s, delivered after the "
		      "handler returned: %s, mask after %s", ms(m_first_mask),
		      yn(m_maxdepth > 1), yn(m_count == 2), ms(getmask()));
	}
	{
		act(SIGUSR1, mask_handler, SA_NODEFER, NULL);
		m_reset();
		m_reraise = 1;
		kill(getpid(), SIGUSR1);
		check(same(m_first_mask, none()) && m_count == 2 && m_maxdepth == 2,
		      "sa_nodefer_lets_the_handler_nest",
		      "mask inside %s, handler runs: %d, deepest nesting %d", ms(m_first_mask),
		      m_count, m_maxdepth);
	}
	{
		pid_t child;
		int st;

		act(SIGUSR1, mask_handler, SA_RESETHAND, NULL);
		m_reset();
		kill(getpid(), SIGUSR1);
		query(SIGUSR1, &o);
		child = spawn();
		if (child == 0) {
			act(SIGUSR1, mask_handler, SA_RESETHAND, NULL);
			kill(getpid(), SIGUSR1);
			kill(getpid(), SIGUSR1);
			_exit(0);
		}
		st = reap(child);
		check(m_count == 1 && same(m_first_mask, usr1) && o.sa_handler == SIG_DFL &&
		      WIFSIGNALED(st) && WTERMSIG(st) == SIGUSR1,
		      "sa_resethand_resets_to_sig_dfl_on_delivery",
		      "mask inside %s, handler afterwards SIG_DFL: %s, a second SIGUSR1: %s",
		      ms(m_first_mask), yn(o.sa_handler == SIG_DFL), st_str(st));
	}
	{
		act(SIGUSR1, mask_handler, 0, NULL);
		m_reset();
		block(SIGUSR1);
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGUSR1);
		kill(getpid(), SIGUSR1);
		unblock(SIGUSR1);
		check(m_count == 1, "a_standard_signal_sent_three_times_while_blocked_runs_once",
		      "handler runs: %d", m_count);
	}
	{
		sigset_t p1, p2, p3;

		block(SIGUSR1);
		kill(getpid(), SIGUSR1);
		p1 = pending();
		act(SIGUSR1, SIG_IGN, 0, NULL);
		p2 = pending();
		act(SIGUSR1, SIG_DFL, 0, NULL);
		unblock(SIGUSR1);
		block(SIGURG);
		kill(getpid(), SIGURG);
		p3 = pending();
		unblock(SIGURG);
		check(same(p1, usr1) && same(p2, none()) && same(p3, mk(SIGURG, 0)) &&
		      same(pending(), none()),
		      "sig_ign_discards_a_pending_signal_but_a_blocked_one_is_kept",
		      "pending %s, after SIG_IGN %s; SIGURG (default ignore) sent while "
		      "blocked: pending %s, after unblocking %s", ms(p1), ms(p2), ms(p3),
		      ms(pending()));
	}
	{
		sigset_t both = mk(SIGUSR1, SIGUSR2, 0), empty = none(), after;
		int r, e;

		act(SIGUSR1, suspend_handler, SA_SIGINFO, NULL);
		ss_ran = 0;
		setmask(both);
		kill(getpid(), SIGUSR1);
		r = sigsuspend(&empty);
		e = errno;
		after = getmask();
		setmask(none());
		check(r == -1 && e == EINTR && ss_ran == 1 && same(ss_inside, usr1) &&
		      same(ss_ucmask, both) && same(after, both),
		      "sigsuspend_runs_the_handler_returns_eintr_and_restores_the_mask",
		      "returned %d errno %d, mask in the handler %s, uc_sigmask %s, mask after %s",
		      r, e, ms(ss_inside), ms(ss_ucmask), ms(after));
	}
	{
		pid_t child = spawn();
		int st;

		if (child == 0) {
			sigset_t all;
			sigfillset(&all);
			sigsuspend(&all);
			_exit(0);
		}
		msleep(MARGIN_MS);
		kill(child, SIGKILL);
		st = reap(child);
		check(WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
		      "sigsuspend_with_every_signal_masked_still_dies_of_sigkill", "%s", st_str(st));
	}
}

/* ======================================================================
 * the order pending signals are delivered in
 * ====================================================================== */

static volatile int order[8], norder;

static void order_handler(int sig) { if (norder < 8) order[norder++] = sig; }

static const char *order_str(void)
{
	static char b[64];
	size_t n = 0;

	b[0] = 0;
	for (int i = 0; i < norder; i++)
		n += snprintf(b + n, sizeof(b) - n, "%s%s", i ? " " : "", sig_abbrev(order[i]));
	return b;
}

static void section_order(void)
{
	static const int sigs[4] = { SIGHUP, SIGUSR1, SIGUSR2, SIGTERM };
	sigset_t four = mk(SIGHUP, SIGUSR1, SIGUSR2, SIGTERM, 0);

	for (int v = 0; v < 2; v++) {
		for (int i = 0; i < 4; i++)
			act(sigs[i], order_handler, 0, v ? &four : NULL);
		setmask(four);
		kill(getpid(), SIGTERM);
		kill(getpid(), SIGUSR2);
		kill(getpid(), SIGHUP);
		kill(getpid(), SIGUSR1);
		norder = 0;
		setmask(none());
		if (v == 0)
			check(norder == 4 && order[0] == SIGTERM && order[1] == SIGUSR2 &&
			      order[2] == SIGUSR1 && order[3] == SIGHUP,
			      "pending_signals_each_get_a_frame_on_top_of_the_last",
			      "handlers with empty sa_mask, unblocked together: ran %s", order_str());
		else
			check(norder == 4 && order[0] == SIGHUP && order[1] == SIGUSR1 &&
			      order[2] == SIGUSR2 && order[3] == SIGTERM,
			      "pending_signals_are_taken_lowest_number_first",
			      "handlers blocking each other, unblocked together: ran %s", order_str());
	}
}

/* ======================================================================
 * EINTR and SA_RESTART
 * ====================================================================== */

static volatile int e_count;

static void count_handler(int sig) { (void)sig; e_count++; }

static void section_eintr(void)
{
	int fds[2], r, e;
	char buf[8];
	pid_t child;

	for (int restart = 0; restart < 2; restart++) {
		pipe(fds);
		act(SIGUSR1, count_handler, restart ? SA_RESTART : 0, NULL);
		e_count = 0;
		child = spawn_signaller(SIGUSR1, 0, fds[1], 0);
		r = read(fds[0], buf, sizeof(buf));
		e = errno;
		reap(child);
		if (!restart)
			check(r == -1 && e == EINTR && e_count == 1,
			      "a_read_on_an_empty_pipe_is_interrupted_with_eintr",
			      "handler ran: %s, read returned %d errno %d", yn(e_count == 1), r, e);
		else
			check(r == 1 && buf[0] == 'x' && e_count == 1,
			      "sa_restart_restarts_the_read",
			      "handler ran: %s, read returned %d, the byte written after the signal: %s",
			      yn(e_count == 1), r, yn(r == 1 && buf[0] == 'x'));
		close(fds[0]);
		close(fds[1]);
	}

	pipe(fds);
	act(SIGUSR1, SIG_IGN, 0, NULL);
	child = spawn_signaller(SIGUSR1, SIGURG, fds[1], 0);
	r = read(fds[0], buf, sizeof(buf));
	reap(child);
	check(r == 1, "an_ignored_signal_does_not_interrupt_a_read",
	      "SIG_IGN SIGUSR1 and default-ignored SIGURG sent: read returned %d", r);
	close(fds[0]);
	close(fds[1]);

	for (int restart = 0; restart < 2; restart++) {
		struct timespec req = { 3, 0 }, rem = { 0, 0 };

		act(SIGUSR1, count_handler, restart ? SA_RESTART : 0, NULL);
		e_count = 0;
		child = spawn_signaller_asleep(SIGUSR1, -1, 0);
		r = nanosleep(&req, &rem);
		e = errno;
		reap(child);
		int remok = (rem.tv_sec > 0 || rem.tv_nsec > 0) && rem.tv_sec < 3 &&
			    rem.tv_nsec >= 0 && rem.tv_nsec < 1000000000;
		check(r == -1 && e == EINTR && e_count == 1 && remok,
		      restart ? "nanosleep_is_eintr_even_with_sa_restart"
			      : "nanosleep_interrupted_returns_eintr_and_the_time_left",
		      "handler ran: %s, returned %d errno %d, rem > 0: %s, rem < request: %s",
		      yn(e_count == 1), r, e, yn(rem.tv_sec > 0 || rem.tv_nsec > 0),
		      yn(rem.tv_sec < 3));
	}

	for (int restart = 0; restart < 2; restart++) {
		int st = -1, go[2];
		pid_t got, got2 = 0;

		act(SIGUSR1, count_handler, restart ? SA_RESTART : 0, NULL);
		e_count = 0;
		if (pipe(go) < 0)
			go[0] = go[1] = -1;
		/* without SA_RESTART the child waits to exit until wait4 has
		 * answered: an exit before that would let wait4 reap it */
		child = spawn_signaller_asleep(SIGUSR1, restart ? -1 : go[0], 5);
		got = wait4(child, &st, 0, NULL);
		e = errno;
		write(go[1], "x", 1);
		close(go[0]);
		close(go[1]);
		if (got < 0)
			got2 = wait4(child, &st, 0, NULL);
		if (!restart)
			check(got == -1 && e == EINTR && e_count == 1 && got2 == child &&
			      WIFEXITED(st) && WEXITSTATUS(st) == 5,
			      "wait4_interrupted_returns_eintr",
			      "handler ran: %s, returned %d errno %d, the next wait4 reaps it: %s, %s",
			      yn(e_count == 1), got, e, yn(got2 == child), st_str(st));
		else
			check(got == child && e_count == 1 && WIFEXITED(st) && WEXITSTATUS(st) == 5,
			      "sa_restart_restarts_wait4",
			      "handler ran: %s, child pid matches: %s, %s", yn(e_count == 1),
			      yn(got == child), st_str(st));
	}

	{
		int rs[2], es[2], cs[2];

		for (int restart = 0; restart < 2; restart++) {
			act(SIGUSR1, count_handler, restart ? SA_RESTART : 0, NULL);
			e_count = 0;
			child = spawn_signaller_asleep(SIGUSR1, -1, 0);
			rs[restart] = pause();
			es[restart] = errno;
			cs[restart] = e_count;
			reap(child);
		}
		check(rs[0] == -1 && es[0] == EINTR && cs[0] == 1 && rs[1] == -1 &&
		      es[1] == EINTR && cs[1] == 1, "pause_returns_eintr_even_with_sa_restart",
		      "without: %d errno %d, with SA_RESTART: %d errno %d, handler runs %d %d",
		      rs[0], es[0], rs[1], es[1], cs[0], cs[1]);
	}
	{
		sigset_t usr1 = mk(SIGUSR1, 0), empty = none();

		act(SIGUSR1, count_handler, SA_RESTART, NULL);
		e_count = 0;
		setmask(usr1);
		child = spawn_signaller(SIGUSR1, 0, -1, 0);
		r = sigsuspend(&empty);
		e = errno;
		reap(child);
		check(r == -1 && e == EINTR && e_count == 1 && same(getmask(), usr1),
		      "sigsuspend_waits_for_a_signal_from_another_process",
		      "handler ran: %s, returned %d errno %d, mask after %s", yn(e_count == 1),
		      r, e, ms(getmask()));
		setmask(none());
	}
	{
		/* a stop and continue of a reader with no handler: the read goes on */
		int st1, st2, st3;

		pipe(fds);
		child = spawn();
		if (child == 0) {
			r = read(fds[0], buf, 1);
			_exit(r == 1 && buf[0] == 'y' ? 0 : r < 0 ? 10 + errno : 2);
		}
		msleep(MARGIN_MS);
		kill(child, SIGSTOP);
		waitpid(child, &st1, WUNTRACED);
		kill(child, SIGCONT);
		waitpid(child, &st2, WCONTINUED);
		write(fds[1], "y", 1);
		st3 = reap(child);
		check(WIFSTOPPED(st1) && WIFCONTINUED(st2) && WIFEXITED(st3) && WEXITSTATUS(st3) == 0,
		      "a_read_stopped_and_continued_goes_on",
		      "%s, %s, then the reader got the byte: %s", st_str(st1), st_str(st2),
		      yn(WIFEXITED(st3) && WEXITSTATUS(st3) == 0));
		close(fds[0]);
		close(fds[1]);
	}
}

/* ======================================================================
 * SIGCHLD
 * ====================================================================== */

static volatile int c_count;
static siginfo_t c_si;

static void chld_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	c_count++;
	c_si = *si;
}

static int chld_is(int code, int status, pid_t pid)
{
	return c_si.si_signo == SIGCHLD && c_si.si_code == code && c_si.si_status == status &&
	       c_si.si_pid == pid;
}

static void section_sigchld(void)
{
	sigset_t empty = none();
	pid_t child;
	int st = -1;

	act(SIGCHLD, chld_handler, SA_SIGINFO, NULL);
	block(SIGCHLD);

	c_count = 0;
	child = spawn();
	if (child == 0)
		_exit(7);
	sigsuspend(&empty);
	st = reap(child);
	check(c_count == 1 && chld_is(CLD_EXITED, 7, child) && c_si.si_uid == getuid() &&
	      WIFEXITED(st) && WEXITSTATUS(st) == 7, "sigchld_when_a_child_exits",
	      "handler ran: %s, si_code %d (CLD_EXITED), si_status %d, child pid matches: %s, "
	      "si_uid matches: %s, then waitpid: %s", yn(c_count == 1), c_si.si_code,
	      c_si.si_status, yn(c_si.si_pid == child), yn(c_si.si_uid == getuid()), st_str(st));

	c_count = 0;
	child = spawn_pauser();
	kill(child, SIGTERM);
	sigsuspend(&empty);
	st = reap(child);
	check(c_count == 1 && chld_is(CLD_KILLED, SIGTERM, child) && WIFSIGNALED(st),
	      "sigchld_when_a_child_is_killed",
	      "handler ran: %s, si_code %d (CLD_KILLED), si_status %d, then waitpid: %s",
	      yn(c_count == 1), c_si.si_code, c_si.si_status, st_str(st));

	for (int nocldstop = 0; nocldstop < 2; nocldstop++) {
		int fds[2], back[2], s1 = -1, s2 = -1, c1, c2, k1, k2, k3;
		sigset_t p1, p2;

		act(SIGCHLD, chld_handler, SA_SIGINFO | (nocldstop ? SA_NOCLDSTOP : 0), NULL);
		pipe(fds);
		pipe(back);
		c_count = 0;
		child = spawn();
		if (child == 0) {
			char c;
			raise(SIGSTOP);
			write(back[1], "c", 1);
			read(fds[0], &c, 1);
			_exit(3);
		}
		waitpid(child, &s1, WUNTRACED);
		p1 = pending();
		if (!nocldstop)
			sigsuspend(&empty);
		c1 = c_si.si_code;
		k1 = c_si.si_status;
		kill(child, SIGCONT);
		waitpid(child, &s2, WCONTINUED);
		get_byte(back[0]);
		p2 = pending();
		if (!nocldstop)
			sigsuspend(&empty);
		c2 = c_si.si_code;
		k2 = c_si.si_status;
		write(fds[1], "g", 1);
		sigsuspend(&empty);
		k3 = c_si.si_code;
		st = reap(child);
		if (!nocldstop)
			check(c_count == 3 && c1 == CLD_STOPPED && k1 == SIGSTOP && c2 == CLD_CONTINUED &&
			      k2 == SIGCONT && k3 == CLD_EXITED && c_si.si_status == 3 &&
			      WIFSTOPPED(s1) && WIFCONTINUED(s2),
			      "sigchld_when_a_child_stops_and_continues",
			      "%s: si_code %d status %d; %s: si_code %d status %d; exit: si_code %d "
			      "status %d", st_str(s1), c1, k1, st_str(s2), c2, k2, k3, c_si.si_status);
		else
			check(c_count == 1 && !sigismember(&p1, SIGCHLD) && !sigismember(&p2, SIGCHLD) &&
			      k3 == CLD_EXITED && WIFSTOPPED(s1) && WIFCONTINUED(s2),
			      "sa_nocldstop_leaves_out_stop_and_continue",
			      "%s: SIGCHLD pending: %s; %s: SIGCHLD pending: %s; exit: si_code %d, "
			      "handler runs %d", st_str(s1), yn(sigismember(&p1, SIGCHLD)), st_str(s2),
			      yn(sigismember(&p2, SIGCHLD)), k3, c_count);
		close(fds[0]);
		close(fds[1]);
		close(back[0]);
		close(back[1]);
	}

	{
		pid_t w;
		int e;

		setmask(none());
		act(SIGCHLD, SIG_IGN, 0, NULL);
		child = spawn();
		if (child == 0)
			_exit(0);
		w = wait(&st);
		e = errno;
		check(w == -1 && e == ECHILD, "sigchld_sig_ign_reaps_children_at_once",
		      "wait returned %d errno %d", w, e);
	}
	{
		pid_t w;
		int e;

		act(SIGCHLD, chld_handler, SA_SIGINFO | SA_NOCLDWAIT, NULL);
		block(SIGCHLD);
		c_count = 0;
		child = spawn();
		if (child == 0)
			_exit(4);
		sigsuspend(&empty);
		w = wait(&st);
		e = errno;
		check(c_count == 1 && chld_is(CLD_EXITED, 4, child) && w == -1 && e == ECHILD,
		      "sa_nocldwait_signals_but_reaps",
		      "handler ran: %s, si_status %d, then wait returned %d errno %d",
		      yn(c_count == 1), c_si.si_status, w, e);
	}
	act(SIGCHLD, SIG_DFL, 0, NULL);
	setmask(none());
}

/* ======================================================================
 * stop and continue
 * ====================================================================== */

static void section_stop(void)
{
	pid_t child;
	int st = -1, st2 = -1, r;

	int go[2];

	pipe(go);
	child = spawn();
	if (child == 0) {
		char c;
		raise(SIGSTOP);
		/* Exit only once the parent has seen the continue: exited
		 * first, it would be reported as an exit (a race on Linux,
		 * where the child may run at once on another CPU). */
		read(go[0], &c, 1);
		_exit(6);
	}
	waitpid(child, &st, WUNTRACED);
	r = waitpid(child, &st2, WUNTRACED | WNOHANG);
	check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGSTOP && st == 0x137f && r == 0,
	      "waitpid_wuntraced_reports_a_stop_once",
	      "raise(SIGSTOP): status 0x%x, stopped: %s, signal %d; asked again: %d",
	      st, yn(WIFSTOPPED(st)), WSTOPSIG(st), r);
	kill(child, SIGCONT);
	waitpid(child, &st, WCONTINUED);
	r = waitpid(child, &st2, WCONTINUED | WNOHANG);
	write(go[1], "g", 1);
	close(go[0]);
	close(go[1]);
	int st3 = reap(child);
	check(WIFCONTINUED(st) && st == 0xffff && (r == 0 || r == child) &&
	      WIFEXITED(st3) && WEXITSTATUS(st3) == 6,
	      "waitpid_wcontinued_reports_a_continue",
	      "status 0x%x, continued: %s, then the child ran to its exit: %s", st,
	      yn(WIFCONTINUED(st)), st_str(st3));

	{
		int ready[2];

		pipe(ready);
		child = spawn();
		if (child == 0) {
			setpgid(0, 0);
			write(ready[1], "r", 1);
			for (;;)
				pause();
		}
		setpgid(child, child);
		get_byte(ready[0]);
		kill(child, SIGTSTP);
		waitpid(child, &st, WUNTRACED);
		kill(child, SIGKILL);
		st2 = reap(child);
		check(WIFSTOPPED(st) && WSTOPSIG(st) == SIGTSTP && WIFSIGNALED(st2) &&
		      WTERMSIG(st2) == SIGKILL, "sigtstp_stops_and_sigkill_kills_a_stopped_child",
		      "SIGTSTP: %s; SIGKILL while stopped: %s", st_str(st), st_str(st2));
		close(ready[0]);
		close(ready[1]);
	}

	{
		/* a child writing its clock every 10 ms does not run while stopped */
		int fds[2], during = 0, after = 0, n = 0;
		long long t1, t2, ts;

		pipe(fds);
		child = spawn();
		if (child == 0) {
			for (;;) {
				long long now = monotonic_ns();
				write(fds[1], &now, sizeof(now));
				msleep(10);
			}
		}
		read(fds[0], &ts, sizeof(ts));
		kill(child, SIGSTOP);
		waitpid(child, &st, WUNTRACED);
		t1 = monotonic_ns();
		msleep(200);
		t2 = monotonic_ns();
		kill(child, SIGCONT);
		waitpid(child, &st2, WCONTINUED);
		while (n++ < 2000 && read(fds[0], &ts, sizeof(ts)) == sizeof(ts)) {
			if (ts > t1 && ts < t2)
				during++;
			if (ts > t2) {
				after = 1;
				break;
			}
		}
		kill(child, SIGKILL);
		reap(child);
		check(WIFSTOPPED(st) && WIFCONTINUED(st2) && during == 0 && after,
		      "a_stopped_child_does_not_run",
		      "records written in 200 ms stopped: %d, written again after SIGCONT: %s",
		      during, yn(after));
		close(fds[0]);
		close(fds[1]);
	}

	{
		int alive, w;

		child = spawn_pauser();
		kill(child, SIGSTOP);
		waitpid(child, &st, WUNTRACED);
		kill(child, SIGTERM);
		msleep(MARGIN_MS);
		w = waitpid(child, &st2, WNOHANG);
		alive = kill(child, 0) == 0;
		kill(child, SIGCONT);
		st2 = reap(child);
		check(WIFSTOPPED(st) && w == 0 && alive && WIFSIGNALED(st2) && WTERMSIG(st2) == SIGTERM,
		      "sigterm_to_a_stopped_child_waits_for_sigcont",
		      "stopped, SIGTERM: still there after %d ms: %s, after SIGCONT: %s",
		      MARGIN_MS, yn(w == 0 && alive), st_str(st2));
	}

	{
		int res[2], codes[2];

		for (int cont = 0; cont < 2; cont++) {
			int ready[2], go[2];

			pipe(ready);
			pipe(go);
			block(SIGTSTP);
			child = spawn();
			if (child == 0) {
				write(ready[1], "r", 1);
				get_byte(go[0]);
				sigset_t p = pending();
				_exit(sigismember(&p, SIGTSTP) ? 1 : 0);
			}
			unblock(SIGTSTP);
			get_byte(ready[0]);
			kill(child, SIGTSTP);
			if (cont)
				kill(child, SIGCONT);
			write(go[1], "g", 1);
			st = reap(child);
			codes[cont] = st;
			res[cont] = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
			close(ready[0]);
			close(ready[1]);
			close(go[0]);
			close(go[1]);
		}
		check(res[0] == 1 && res[1] == 0, "sigcont_discards_a_pending_stop_signal",
		      "blocked SIGTSTP pending: %s, after a SIGCONT: %s (%s, %s)",
		      yn(res[0] == 1), yn(res[1] == 1), st_str(codes[0]), st_str(codes[1]));
	}
	{
		int ready[2], go[2], res;

		pipe(ready);
		pipe(go);
		setmask(mk(SIGTSTP, SIGCONT, 0));
		child = spawn();
		if (child == 0) {
			sigset_t p;
			write(ready[1], "r", 1);
			get_byte(go[0]);
			p = pending();
			_exit((sigismember(&p, SIGCONT) ? 1 : 0) | (sigismember(&p, SIGTSTP) ? 2 : 0));
		}
		setmask(none());
		get_byte(ready[0]);
		kill(child, SIGCONT);
		kill(child, SIGTSTP);
		write(go[1], "g", 1);
		st = reap(child);
		res = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		check(res == 2, "a_stop_signal_discards_a_pending_sigcont",
		      "both blocked, SIGCONT then SIGTSTP: SIGCONT pending: %s, SIGTSTP pending: %s",
		      yn(res >= 0 && (res & 1)), yn(res >= 0 && (res & 2)));
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
}

/* ======================================================================
 * default actions
 * ====================================================================== */

static volatile int p_count;
static siginfo_t p_si;

static void pipe_handler(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	p_count++;
	p_si = *si;
}

static void no_core(void)
{
	struct rlimit rl = { 0, 0 };

	setrlimit(RLIMIT_CORE, &rl);
	syscall2(__NR_prctl, PR_SET_DUMPABLE, 0);
}

static void section_defaults(void)
{
	static const int fatal[] = { SIGHUP, SIGINT, SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
				     SIGTERM, SIGABRT };
	char name[64];
	pid_t child;
	int st;

	for (unsigned i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++) {
		int ready[2];

		pipe(ready);
		child = spawn();
		if (child == 0) {
			no_core();
			write(ready[1], "r", 1);
			for (;;)
				pause();
		}
		get_byte(ready[0]);
		kill(child, fatal[i]);
		st = reap(child);
		snprintf(name, sizeof(name), "default_sig%s_kills", sig_abbrev(fatal[i]));
		for (char *p = name; *p; p++)
			if (*p >= 'A' && *p <= 'Z')
				*p += 'a' - 'A';
		check(WIFSIGNALED(st) && WTERMSIG(st) == fatal[i] && !WCOREDUMP(st), name,
		      "status 0x%x: %s (no core file with RLIMIT_CORE 0)", st, st_str(st));
		close(ready[0]);
		close(ready[1]);
	}

	child = spawn();
	if (child == 0) {
		raise(SIGCHLD);
		raise(SIGURG);
		raise(SIGWINCH);
		raise(SIGCONT);
		_exit(0);
	}
	st = reap(child);
	check(WIFEXITED(st) && WEXITSTATUS(st) == 0,
	      "sigchld_sigurg_sigwinch_sigcont_are_ignored_by_default",
	      "a child raising each: %s", st_str(st));

	{
		int fds[2];

		child = spawn();
		if (child == 0) {
			pipe(fds);
			close(fds[0]);
			write(fds[1], "x", 1);
			_exit(0);
		}
		st = reap(child);
		check(WIFSIGNALED(st) && WTERMSIG(st) == SIGPIPE,
		      "a_write_to_a_pipe_with_no_reader_kills_with_sigpipe", "%s", st_str(st));
	}
	{
		int fds[2], r, e;

		act(SIGPIPE, SIG_IGN, 0, NULL);
		pipe(fds);
		close(fds[0]);
		r = write(fds[1], "x", 1);
		e = errno;
		close(fds[1]);
		check(r == -1 && e == EPIPE, "with_sigpipe_ignored_the_write_fails_with_epipe",
		      "write returned %d errno %d", r, e);
	}
	{
		int fds[2], r, e;

		act(SIGPIPE, pipe_handler, SA_SIGINFO, NULL);
		p_count = 0;
		pipe(fds);
		close(fds[0]);
		r = write(fds[1], "x", 1);
		e = errno;
		close(fds[1]);
		check(r == -1 && e == EPIPE && p_count == 1 && p_si.si_code == SI_USER &&
		      p_si.si_pid == getpid(), "a_sigpipe_handler_runs_and_the_write_fails_with_epipe",
		      "handler ran: %s, si_code %d, si_pid is ours: %s, write returned %d errno %d",
		      yn(p_count == 1), p_si.si_code, yn(p_si.si_pid == getpid()), r, e);
	}
	{
		int fds[2], r, e;
		sigset_t p;

		act(SIGPIPE, SIG_DFL, 0, NULL);
		block(SIGPIPE);
		pipe(fds);
		close(fds[0]);
		r = write(fds[1], "x", 1);
		e = errno;
		close(fds[1]);
		p = pending();
		act(SIGPIPE, SIG_IGN, 0, NULL);
		unblock(SIGPIPE);
		act(SIGPIPE, SIG_DFL, 0, NULL);
		check(r == -1 && e == EPIPE && sigismember(&p, SIGPIPE),
		      "with_sigpipe_blocked_the_write_fails_and_sigpipe_is_pending",
		      "write returned %d errno %d, pending %s", r, e, ms(p));
	}
	{
		/* exec: handlers go back to SIG_DFL; ignored stays ignored; the
		 * mask and the pending signals are kept */
		child = spawn();
		if (child == 0) {
			char *argv[] = { (char *)self_path, "exec-probe", NULL };
			act(SIGUSR1, count_handler, SA_RESTART, NULL);
			act(SIGUSR2, SIG_IGN, 0, NULL);
			block(SIGTERM);
			kill(getpid(), SIGTERM);
			execve(self_path, argv, environ);
			_exit(100);
		}
		st = reap(child);
		int b = WIFEXITED(st) ? WEXITSTATUS(st) : 0;
		check(WIFEXITED(st) && b == 0x1f, "exec_resets_handlers_and_keeps_ignores_mask_and_pending",
		      "handler now SIG_DFL: %s, its flags cleared: %s, SIG_IGN kept: %s, "
		      "mask kept: %s, pending kept: %s (%s)", yn(b & 1), yn(b & 16), yn(b & 2),
		      yn(b & 4), yn(b & 8), st_str(st));
	}
}

static int exec_probe(void)
{
	struct sigaction o1, o2;
	sigset_t m = getmask(), p = pending();
	int b = 0;

	query(SIGUSR1, &o1);
	query(SIGUSR2, &o2);
	b |= o1.sa_handler == SIG_DFL ? 1 : 0;
	b |= o2.sa_handler == SIG_IGN ? 2 : 0;
	b |= sigismember(&m, SIGTERM) ? 4 : 0;
	b |= sigismember(&p, SIGTERM) ? 8 : 0;
	b |= o1.sa_flags == 0 ? 16 : 0;
	return b;
}

/* ======================================================================
 * kill's targets
 * ====================================================================== */

/* A child with sig blocked (inherited) that says it is ready, waits for
 * "go", and exits 1 if sig is pending then, else 0. */
static pid_t spawn_reporter(int ready_w, int go_r, pid_t pgid, uid_t uid)
{
	pid_t pid = spawn();

	if (pid == 0) {
		sigset_t p;
		if (pgid >= 0)
			setpgid(0, pgid);
		if (uid != (uid_t)-1)
			setresuid(uid, uid, uid);
		write(ready_w, "r", 1);
		get_byte(go_r);
		p = pending();
		_exit(sigismember(&p, SIGUSR1) || sigismember(&p, SIGURG) ? 1 : 0);
	}
	if (pgid >= 0)
		setpgid(pid, pgid ? pgid : pid);
	return pid;
}

static int report_of(pid_t pid)
{
	int st = reap(pid);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void section_kill(void)
{
	pid_t child;
	int r1, r2, e1, e2;

	{
		sigset_t empty = none();

		act(SIGCHLD, count_handler, 0, NULL);
		block(SIGCHLD);
		child = spawn_pauser();
		r1 = kill(child, 0);
		kill(child, SIGKILL);
		e_count = 0;
		sigsuspend(&empty);
		int zombie = kill(child, 0);
		reap(child);
		r2 = kill(child, 0);
		e2 = errno;
		act(SIGCHLD, SIG_DFL, 0, NULL);
		setmask(none());
		check(r1 == 0 && zombie == 0 && r2 == -1 && e2 == ESRCH,
		      "kill_0_tells_whether_a_process_exists",
		      "running: %d, a zombie: %d, reaped: %d errno %d", r1, zombie, r2, e2);
	}
	r1 = kill(getpid(), 65);
	e1 = errno;
	r2 = kill(getpid(), -1);
	e2 = errno;
	check(r1 == -1 && e1 == EINVAL && r2 == -1 && e2 == EINVAL, "kill_with_a_bad_signal_is_einval",
	      "signal 65: %d errno %d, signal -1: %d errno %d", r1, e1, r2, e2);

	{
		/* kill(0, sig): our group (this section leads its own), not others */
		int ready[2], go[2], a, b, c, selfp, r;
		pid_t pa, pb, pc;

		pipe(ready);
		pipe(go);
		block(SIGUSR1);
		pa = spawn_reporter(ready[1], go[0], -1, (uid_t)-1);
		pb = spawn_reporter(ready[1], go[0], -1, (uid_t)-1);
		pc = spawn_reporter(ready[1], go[0], 0, (uid_t)-1);
		for (int i = 0; i < 3; i++)
			get_byte(ready[0]);
		r = kill(0, SIGUSR1);
		{
			sigset_t pp = pending();
			selfp = sigismember(&pp, SIGUSR1);
		}
		write(go[1], "ggg", 3);
		a = report_of(pa);
		b = report_of(pb);
		c = report_of(pc);
		act(SIGUSR1, SIG_IGN, 0, NULL);
		act(SIGUSR1, SIG_DFL, 0, NULL);
		setmask(none());
		check(r == 0 && a == 1 && b == 1 && c == 0 && selfp,
		      "kill_0_reaches_the_callers_process_group",
		      "returned %d, the two children in our group: %s %s, one in another group: %s, "
		      "ourselves: %s", r, yn(a == 1), yn(b == 1), yn(c == 1), yn(selfp));
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
	{
		/* kill(-pgid, sig): that group only */
		int ready[2], go[2], a, b, c, selfp, r, e;
		pid_t pa, pb, pc;

		pipe(ready);
		pipe(go);
		block(SIGUSR1);
		pa = spawn_reporter(ready[1], go[0], 0, (uid_t)-1);
		pb = spawn_reporter(ready[1], go[0], pa, (uid_t)-1);
		pc = spawn_reporter(ready[1], go[0], -1, (uid_t)-1);
		for (int i = 0; i < 3; i++)
			get_byte(ready[0]);
		int same_group = getpgid(pb) == pa && getpgid(pa) == pa;
		r = kill(-pa, SIGUSR1);
		{
			sigset_t pp = pending();
			selfp = sigismember(&pp, SIGUSR1);
		}
		write(go[1], "ggg", 3);
		a = report_of(pa);
		b = report_of(pb);
		c = report_of(pc);
		setmask(none());
		check(r == 0 && same_group && a == 1 && b == 1 && c == 0 && !selfp,
		      "kill_minus_pgid_reaches_that_group_only",
		      "returned %d, both in the new group: %s %s, one in ours: %s, ourselves: %s",
		      r, yn(a == 1), yn(b == 1), yn(c == 1), yn(selfp));
		r = kill(-pa, SIGUSR1);
		e = errno;
		check(r == -1 && e == ESRCH, "kill_of_a_group_with_no_members_is_esrch",
		      "returned %d errno %d", r, e);
		close(ready[0]);
		close(ready[1]);
		close(go[0]);
		close(go[1]);
	}
}

/* ======================================================================
 * kill's permissions (as root: children with other uids)
 * ====================================================================== */

/* A child with the given real, effective and saved uid that waits for "go". */
static pid_t spawn_with_uids(uid_t r, uid_t e, uid_t s, int ready_w, int go_r)
{
	pid_t pid = spawn();

	if (pid == 0) {
		setresuid(r, e, s);
		write(ready_w, "r", 1);
		get_byte(go_r);
		_exit(0);
	}
	return pid;
}

static void section_permissions(void)
{
	static const char *names[] = {
		"an_unprivileged_kill_of_a_root_process_is_eperm",
		"kill_permission_follows_the_targets_real_and_saved_uid",
		"sigcont_may_go_to_any_process_of_the_session",
		"kill_minus_1_reaches_the_users_other_processes_only",
		"kill_minus_1_counts_the_processes_it_may_not_signal",
	};

	if (geteuid() != 0) {
		for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
			skip(names[i], "not root");
		return;
	}

	int ready[2], go[2], res[2];
	pid_t t_root, t_euid, t_ruid, t_suid, sender;

	pipe(ready);
	pipe(go);
	pipe(res);
	t_root = spawn_with_uids(0, 0, 0, ready[1], go[0]);
	t_euid = spawn_with_uids(0, TEST_UID, 0, ready[1], go[0]);
	t_ruid = spawn_with_uids(TEST_UID, 0, 0, ready[1], go[0]);
	t_suid = spawn_with_uids(0, 0, TEST_UID, ready[1], go[0]);
	for (int i = 0; i < 4; i++)
		get_byte(ready[0]);
	sender = spawn();
	if (sender == 0) {
		int v[12];
		v[0] = setresuid(TEST_UID, TEST_UID, TEST_UID);
		v[1] = kill(t_root, SIGURG); v[2] = errno;
		v[3] = kill(t_root, 0); v[4] = errno;
		v[5] = kill(t_euid, 0); v[6] = errno;
		v[7] = kill(t_ruid, 0);
		v[8] = kill(t_suid, 0);
		v[9] = kill(t_root, SIGCONT);
		v[10] = kill(t_euid, SIGCONT);
		v[11] = 0;
		put_ints(res[1], v, 12);
		_exit(0);
	}
	int v[12] = { -9 };
	get_ints(res[0], v, 12);
	reap(sender);
	write(go[1], "gggg", 4);
	reap(t_root);
	reap(t_euid);
	reap(t_ruid);
	reap(t_suid);
	check(v[0] == 0 && v[1] == -1 && v[2] == EPERM && v[3] == -1 && v[4] == EPERM,
	      names[0], "uid %d to root: SIGURG %d errno %d, signal 0 %d errno %d",
	      TEST_UID, v[1], v[2], v[3], v[4]);
	check(v[5] == -1 && v[6] == EPERM && v[7] == 0 && v[8] == 0, names[1],
	      "target with only its effective uid %d: %d errno %d; with its real uid: %d; "
	      "with its saved uid: %d", TEST_UID, v[5], v[6], v[7], v[8]);
	check(v[9] == 0 && v[10] == 0, names[2],
	      "uid %d sends SIGCONT to root processes of its session: %d %d", TEST_UID, v[9], v[10]);

	{
		/* kill(-1, SIGURG) as uid TEST_UID: its other processes, not root's,
		 * not itself */
		pid_t mine, roots;
		int a, b;

		block(SIGURG);
		mine = spawn_reporter(ready[1], go[0], -1, TEST_UID);
		roots = spawn_reporter(ready[1], go[0], -1, (uid_t)-1);
		get_byte(ready[0]);
		get_byte(ready[0]);
		sender = spawn();
		if (sender == 0) {
			int w[3];
			sigset_t p;
			w[0] = setresuid(TEST_UID, TEST_UID, TEST_UID);
			w[1] = kill(-1, SIGURG);
			p = pending();
			w[2] = sigismember(&p, SIGURG);
			put_ints(res[1], w, 3);
			_exit(0);
		}
		int w[3] = { -9, -9, -9 };
		get_ints(res[0], w, 3);
		reap(sender);
		write(go[1], "gg", 2);
		a = report_of(mine);
		b = report_of(roots);
		setmask(none());
		check(w[0] == 0 && w[1] == 0 && a == 1 && b == 0 && w[2] == 0, names[3],
		      "returned %d, its other process got it: %s, root's: %s, itself: %s",
		      w[1], yn(a == 1), yn(b == 1), yn(w[2] == 1));

		sender = spawn();
		if (sender == 0) {
			int z[2];
			setresuid(OTHER_UID, OTHER_UID, OTHER_UID);
			z[0] = kill(-1, SIGURG);
			z[1] = errno;
			put_ints(res[1], z, 2);
			_exit(0);
		}
		int z[2] = { -9, -9 };
		get_ints(res[0], z, 2);
		reap(sender);
		/* Linux: ESRCH only when there is no other process at all; the
		 * ones that refuse (EPERM) count, so the call returns 0 */
		check(z[0] == 0, names[4],
		      "uid %d with no processes of its own: returned %d errno %d", OTHER_UID,
		      z[0], z[0] ? z[1] : 0);
	}
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/* ======================================================================
 * process groups and sessions
 * ====================================================================== */

static void section_groups(void)
{
	pid_t me = getpid(), child, other;
	int ready[2], go[2], res[2], r, e;

	pipe(ready);
	pipe(go);
	pipe(res);

	child = spawn();
	if (child == 0) {
		get_byte(go[0]);
		_exit(0);
	}
	other = spawn();
	if (other == 0) {
		get_byte(go[0]);
		_exit(0);
	}
	check(getpgid(0) == getpgrp() && getpgid(me) == getpgrp() && getpgrp() == me &&
	      getpgid(child) == me && getsid(child) == getsid(0) && getsid(me) == getsid(0),
	      "getpgid_and_getsid_of_ourselves_and_a_child",
	      "getpgid(0) = getpgrp(): %s, we lead our group: %s, the child is in it: %s, "
	      "same session: %s", yn(getpgid(0) == getpgrp()), yn(getpgrp() == me),
	      yn(getpgid(child) == me), yn(getsid(child) == getsid(0)));

	r = setpgid(child, child);
	int moved = getpgid(child) == child;
	int r2 = setpgid(child, me);
	int back = getpgid(child) == me;
	check(r == 0 && moved && r2 == 0 && back, "setpgid_moves_a_child_to_a_new_group_and_back",
	      "setpgid(child, child): %d, its own group: %s; setpgid(child, ours): %d, back: %s",
	      r, yn(moved), r2, yn(back));

	r = setpgid(other, child);
	e = errno;
	check(r == -1 && e == EPERM, "setpgid_into_a_group_that_does_not_exist_is_eperm",
	      "into a non-leader's pid: %d errno %d", r, e);

	r = setpgid(getppid(), getppid());
	e = errno;
	r2 = setpgid(0, -1);
	int e2 = errno;
	check(r == -1 && e == ESRCH && r2 == -1 && e2 == EINVAL,
	      "setpgid_of_a_non_child_is_esrch_and_a_negative_group_einval",
	      "our parent: %d errno %d; pgid -1: %d errno %d", r, e, r2, e2);

	write(go[1], "gg", 2);
	reap(child);
	reap(other);
	r = getpgid(child);
	e = errno;
	r2 = getsid(child);
	e2 = errno;
	int r3 = setpgid(child, child), e3 = errno;
	check(r == -1 && e == ESRCH && r2 == -1 && e2 == ESRCH && r3 == -1 && e3 == ESRCH,
	      "getpgid_getsid_setpgid_of_a_reaped_pid_are_esrch",
	      "getpgid %d errno %d, getsid %d errno %d, setpgid %d errno %d", r, e, r2, e2, r3, e3);

	r = setsid();
	e = errno;
	check(r == -1 && e == EPERM, "setsid_by_a_group_leader_is_eperm",
	      "returned %d errno %d", r, e);

	/* a child makes its own session: it leads it and a group */
	child = spawn();
	if (child == 0) {
		int v[6];
		pid_t s = setsid();
		v[0] = s == getpid();
		v[1] = getsid(0) == getpid();
		v[2] = getpgid(0) == getpid();
		v[3] = setpgid(0, 0);
		v[4] = errno;
		v[5] = 0;
		put_ints(res[1], v, 6);
		get_byte(go[0]);
		_exit(0);
	}
	int v[6] = { -9, -9, -9, -9, -9, -9 };
	get_ints(res[0], v, 6);
	r = setpgid(child, child);
	e = errno;
	r2 = setpgid(child, me);
	e2 = errno;
	write(go[1], "g", 1);
	reap(child);
	check(v[0] == 1 && v[1] == 1 && v[2] == 1, "setsid_makes_a_new_session_and_group",
	      "returns the caller's pid: %s, getsid: %s, getpgid: %s", yn(v[0] == 1),
	      yn(v[1] == 1), yn(v[2] == 1));
	check(v[3] == -1 && v[4] == EPERM && r == -1 && e == EPERM && r2 == -1 && e2 == EPERM,
	      "setpgid_of_a_session_leader_or_into_another_session_is_eperm",
	      "the leader itself: %d errno %d; its parent, to its own pid: %d errno %d, "
	      "to ours: %d errno %d", v[3], v[4], r, e, r2, e2);

	/* a child that has exec'd cannot be moved */
	child = spawn();
	if (child == 0) {
		char rfd[16], wfd[16];
		char *argv[] = { (char *)self_path, "hold", rfd, wfd, NULL };
		snprintf(rfd, sizeof(rfd), "%d", go[0]);
		snprintf(wfd, sizeof(wfd), "%d", ready[1]);
		execve(self_path, argv, environ);
		_exit(100);
	}
	r2 = get_byte(ready[0]);
	r = setpgid(child, child);
	e = errno;
	write(go[1], "g", 1);
	reap(child);
	check(r2 == 'x' && r == -1 && e == EACCES, "setpgid_of_a_child_after_its_exec_is_eacces",
	      "the child exec'd: %s, setpgid %d errno %d", yn(r2 == 'x'), r, e);

	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
	close(res[0]);
	close(res[1]);
}

/* ======================================================================
 * faults caught by a handler
 * ====================================================================== */

static volatile int f_count;
static siginfo_t f_si;
static struct sigcontext f_sc;
static char *f_skip_to;

static void fault_handler(int sig, siginfo_t *si, void *ucv)
{
	struct ucontext *uc = ucv;

	(void)sig;
	f_count++;
	f_si = *si;
	f_sc = uc->uc_mcontext;
	if (f_skip_to)
		uc->uc_mcontext.eip = (unsigned long)f_skip_to;
}

static void fault_child(int how)
{
	if (how == 0) {
		block(SIGSEGV);
	} else if (how == 1) {
		act(SIGSEGV, SIG_IGN, 0, NULL);
	} else {
		/* the handler itself faults: SIGSEGV is blocked there */
		act(SIGSEGV, (void *)do_null_write, SA_SIGINFO, NULL);
	}
	do_null_write();
	_exit(0);
}

static void section_faults(void)
{
	long r;
	pid_t child;
	int st;

	act(SIGSEGV, fault_handler, SA_SIGINFO, NULL);
	f_count = 0;
	f_skip_to = null_write_after;
	r = do_null_write();
	check(f_count == 1 && f_si.si_signo == SIGSEGV && f_si.si_code == SEGV_MAPERR &&
	      f_si.si_addr == NULL, "sigsegv_handler_gets_the_fault_address",
	      "handler ran: %s, si_signo %d, si_code %d (SEGV_MAPERR), si_addr %p",
	      yn(f_count == 1), f_si.si_signo, f_si.si_code, f_si.si_addr);
	check(f_sc.eip == (unsigned long)null_write_insn && f_sc.trapno == 14 && f_sc.err == 6 &&
	      f_sc.cr2 == 0 && f_sc.eax == 0 && (f_sc.cs & 3) == 3,
	      "sigsegv_sigcontext_has_the_faulting_instruction",
	      "eip at the write: %s, trapno %lu, err %lu, cr2 0x%lx, eax %lu", 
	      yn(f_sc.eip == (unsigned long)null_write_insn), f_sc.trapno, f_sc.err, f_sc.cr2,
	      f_sc.eax);
	check(r == 7, "a_handler_skips_the_faulting_instruction_by_setting_eip",
	      "went on after the write: %s", yn(r == 7));

	act(SIGFPE, fault_handler, SA_SIGINFO, NULL);
	f_count = 0;
	f_skip_to = div0_after;
	r = do_div0();
	check(f_count == 1 && f_si.si_signo == SIGFPE && f_si.si_code == FPE_INTDIV &&
	      f_si.si_addr == div0_insn && f_sc.eip == (unsigned long)div0_insn &&
	      f_sc.trapno == 0 && f_sc.err == 0 && r == 8, "sigfpe_handler_on_a_division_by_zero",
	      "si_code %d (FPE_INTDIV), si_addr and eip at the div: %s %s, trapno %lu, err %lu, "
	      "went on: %s", f_si.si_code, yn(f_si.si_addr == div0_insn),
	      yn(f_sc.eip == (unsigned long)div0_insn), f_sc.trapno, f_sc.err, yn(r == 8));

	act(SIGILL, fault_handler, SA_SIGINFO, NULL);
	f_count = 0;
	f_skip_to = ud2_after;
	r = do_ud2();
	check(f_count == 1 && f_si.si_signo == SIGILL && f_si.si_code == ILL_ILLOPN &&
	      f_si.si_addr == ud2_insn && f_sc.eip == (unsigned long)ud2_insn &&
	      f_sc.trapno == 6 && f_sc.err == 0 && r == 9, "sigill_handler_on_ud2",
	      "si_code %d (ILL_ILLOPN), si_addr and eip at the ud2: %s %s, trapno %lu, err %lu, "
	      "went on: %s", f_si.si_code, yn(f_si.si_addr == ud2_insn),
	      yn(f_sc.eip == (unsigned long)ud2_insn), f_sc.trapno, f_sc.err, yn(r == 9));

	act(SIGTRAP, fault_handler, SA_SIGINFO, NULL);
	f_count = 0;
	f_skip_to = NULL;
	r = do_int3();
	check(f_count == 1 && f_si.si_signo == SIGTRAP && f_si.si_code == SI_KERNEL &&
	      f_sc.eip == (unsigned long)int3_after && f_sc.trapno == 3 && r == 10,
	      "sigtrap_handler_on_int3",
	      "si_code 0x%x (SI_KERNEL), eip after the int3: %s, trapno %lu, went on: %s",
	      f_si.si_code, yn(f_sc.eip == (unsigned long)int3_after), f_sc.trapno, yn(r == 10));

	static const char *const how[] = {
		"a_fault_with_sigsegv_blocked_still_kills",
		"a_fault_with_sigsegv_ignored_still_kills",
		"a_fault_in_the_sigsegv_handler_kills",
	};
	for (int i = 0; i < 3; i++) {
		child = spawn();
		if (child == 0)
			fault_child(i);
		st = reap(child);
		check(WIFSIGNALED(st) && WTERMSIG(st) == SIGSEGV, how[i], "%s", st_str(st));
	}
}

/* ======================================================================
 * the runner
 * ====================================================================== */

/* ---- /proc/PID/status's signal masks --------------------------------------- */

/* The hex mask after "Name:\t" in /proc/self/status, or ~0 if absent. */
static unsigned long long status_mask(const char *name)
{
	static char buf[2048];
	int fd = open("/proc/self/status", O_RDONLY), n = 0, r;
	if (fd < 0)
		return ~0ull;
	while (n < (int)sizeof(buf) - 1 && (r = read(fd, buf + n, sizeof(buf) - 1 - n)) > 0)
		n += r;
	close(fd);
	buf[n] = 0;
	char *at = strstr(buf, name);
	if (!at)
		return ~0ull;
	unsigned long long m = 0;
	for (at += strlen(name) + 2; *at && *at != '\n'; at++)	/* 16 hex digits */
		m = m << 4 | (unsigned)(*at <= '9' ? *at - '0' : *at - 'a' + 10);
	return m;
}

static void caught(int sig) { (void)sig; }

/* SigCgt and SigIgn have bit sig - 1 for each caught and ignored signal
 * (fs/proc/array.c): SIGUSR1 (10) caught is 0x200, SIGUSR2 (12) ignored
 * 0x800, and nothing else in this fresh child. */
static void section_proc_status(void)
{
	struct sigaction sa = { .sa_handler = caught };
	sigaction(SIGUSR1, &sa, NULL);
	signal(SIGUSR2, SIG_IGN);
	unsigned long long cgt = status_mask("SigCgt"), ign = status_mask("SigIgn");
	check(cgt == 0x200 && ign == 0x800, "proc_status_sigcgt_and_sigign_bits",
	      "SigCgt %llx, SigIgn %llx (want 200 and 800)", cgt, ign);
}

static const struct section {
	const char *name;
	void (*fn)(void);
	int checks;
} sections[] = {
	{ "handlers", section_handlers, 14 },
	{ "frame_abuse", section_frame_abuse, 3 },
	{ "fpu", section_fpu, 1 },
	{ "masks", section_masks, 14 },
	{ "order", section_order, 2 },
	{ "eintr", section_eintr, 10 },
	{ "sigchld", section_sigchld, 6 },
	{ "stop", section_stop, 7 },
	{ "defaults", section_defaults, 14 },
	{ "kill", section_kill, 5 },
	{ "permissions", section_permissions, 5 },
	{ "groups", section_groups, 9 },
	{ "faults", section_faults, 9 },
	{ "proc_status", section_proc_status, 1 },
};
#define NSECTIONS (int)(sizeof(sections) / sizeof(sections[0]))

static void run_section(const struct section *s)
{
	int fds[2], c, done = 0, seen = 0, st = 0, timed_out = 0;
	pid_t pid, timer;

	if (pipe(fds) < 0 || (pid = fork()) < 0) {
		for (int i = 0; i < s->checks; i++)
			check(0, s->name, "cannot fork for the section");
		return;
	}
	if (pid == 0) {
		close(fds[0]);
		progress_fd = fds[1];
		setpgid(0, 0);
		s->fn();
		fflush(stdout);
		write(fds[1], "E", 1);
		_exit(0);
	}
	close(fds[1]);
	setpgid(pid, pid);
	timer = fork();
	if (timer == 0) {
		close(fds[0]);
		msleep(SECTION_TIMEOUT_S * 1000);
		kill(-pid, SIGKILL);
		kill(pid, SIGKILL);
		_exit(0);
	}
	while ((c = get_byte(fds[0])) >= 0) {
		if (c == 'E') {
			done = 1;
			break;
		}
		seen++;
		count++;
		if (c == 'f')
			failed++;
	}
	close(fds[0]);
	kill(timer, SIGKILL);
	reap(timer);
	if (!done)
		kill(-pid, SIGKILL);
	st = reap(pid);
	if (!done)
		timed_out = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
	if (done && seen != s->checks)
		printf("# section %s ran %d checks, %d declared\n", s->name, seen, s->checks);
	for (int i = seen; i < s->checks; i++) {
		char name[64];
		snprintf(name, sizeof(name), "%s_check_%d_did_not_run", s->name, i + 1);
		if (timed_out)
			check(0, name, "the section was killed after %d s", SECTION_TIMEOUT_S);
		else
			check(0, name, "the section ended early: %s", st_str(st));
	}
}

int main(int argc, char **argv)
{
	int planned = 0;

	if (argc > 1 && strcmp(argv[1], "exec-probe") == 0)
		return exec_probe();
	if (argc > 3 && strcmp(argv[1], "hold") == 0) {
		write(atoi(argv[3]), "x", 1);
		get_byte(atoi(argv[2]));
		return 0;
	}
	if (argc > 0 && argv[0][0])
		self_path = argv[0];
	for (int i = 0; i < NSECTIONS; i++)
		planned += sections[i].checks;
	printf("KTAP version 1\n1..%d\n", planned);
	fflush(stdout);
	for (int i = 0; i < NSECTIONS; i++)
		run_section(&sections[i]);
	if (count != planned) {
		printf("# plan was %d tests but %d ran\n", planned, count);
		failed++;
	}
	return failed ? 1 : 0;
}
