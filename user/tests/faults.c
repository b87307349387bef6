/*
 * faults - hostile programs get what Linux gives them: a signal that kills
 * only them, or an error.
 *
 * First the fault programs of /bin (looked up beside this one), then
 * hostile actions run in a forked child each: reads and writes of NULL and
 * of kernel addresses, privileged instructions (hlt, cli, in), int3 and
 * into, a far jump to a kernel code selector, a call to NULL, a stack
 * overflow, a null SS, and the calls an ordinary user may not make
 * (iopl, ioperm) or that must fail cleanly (a bad system-call number, a
 * write to a closed fd, from a kernel pointer, brk until it stops). The
 * expected results are what Linux i386 gives, and the transcript is diffed
 * against Linux's line for line (tests/linux-diff.sh): a #GP from `cli` in
 * user mode is SIGSEGV on Linux, not SIGILL; int3 is SIGTRAP (its gate is
 * open to ring 3); iopl(3) as uid 1000 is EPERM.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ktap.h"
#include "syscall.h"

/* Past Linux's calls and ours: -ENOSYS on both kernels. */
#define NO_SUCH_CALL 9999

static const struct {
	const char *prog;
	int signal;
} cases[] = {
	{ "fault_null", SIGSEGV },
	{ "fault_kwrite", SIGSEGV },
	{ "fault_cli", SIGSEGV },
	{ "fault_div", SIGFPE },
	{ "fault_ill", SIGILL },
};
#define NCASES (int)(sizeof(cases) / sizeof(cases[0]))

/* ---- hostile actions, each in its own child ---- */

static void null_read(void) { (void)*(volatile int *)0; }
static void null_write(void) { *(volatile int *)0 = 1; }
static void kernel_read(void) { (void)*(volatile int *)0xC0100000; }
static void do_hlt(void) { __asm__ volatile("hlt"); }
static void do_in(void) { __asm__ volatile("inb $0x60, %%al" ::: "eax"); }
static void do_int3(void) { __asm__ volatile("int3"); }
/* into traps (#OF) only when OF is set: 0x7fffffff + 1 sets it */
static void do_into(void) { __asm__ volatile("movl $0x7fffffff, %%eax\n\taddl $1, %%eax\n\tinto" ::: "eax", "cc"); }
static void far_jump_kernel_cs(void) { __asm__ volatile("ljmp $0x08, $0"); }
static void call_null(void) { ((void (*)(void))0)(); }
static void null_ss(void) { __asm__ volatile("movw $0, %%ax\n\tmovw %%ax, %%ss" ::: "eax"); }

static volatile int forever = 1;

static int depth(int n)
{
	volatile char pad[256];
	pad[0] = (char)n;
	return forever ? depth(n + 1) + pad[0] : 0;
}
static void stack_overflow(void) { depth(0); }

static const struct {
	const char *name;
	void (*fn)(void);
	int signal;
} actions[] = {
	{ "null_read", null_read, SIGSEGV },
	{ "null_write", null_write, SIGSEGV },
	{ "kernel_address_read", kernel_read, SIGSEGV },
	{ "hlt", do_hlt, SIGSEGV },
	{ "in_port_0x60", do_in, SIGSEGV },
	{ "int3", do_int3, SIGTRAP },
	{ "into_with_overflow", do_into, SIGSEGV },
	{ "far_jump_to_selector_8", far_jump_kernel_cs, SIGSEGV },
	{ "call_null", call_null, SIGSEGV },
	{ "stack_overflow", stack_overflow, SIGSEGV },
	{ "null_ss", null_ss, SIGSEGV },
};
#define NACTIONS (int)(sizeof(actions) / sizeof(actions[0]))

static void run_action(int i)
{
	char name[80];
	int status = -1;
	pid_t pid = fork();

	if (pid == 0) {
		actions[i].fn();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	snprintf(name, sizeof(name), "%s_killed_by_signal_%d", actions[i].name,
		 actions[i].signal);
	ktap_ok(WIFSIGNALED(status) && WTERMSIG(status) == actions[i].signal, name,
		"status=0x%x signal=%d", status & 0x7f7f,
		WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}

/* ---- calls that must fail cleanly (as uid 1000 where it matters) ---- */

static int raw_errno(long r) { return r < 0 && r > -4096 ? (int)-r : 0; }

static void calls_as_user(void *arg)
{
	(void)arg;
	char buf[8] = "abcdefg";
	int pfd[2];

	pipe(pfd);
	close(pfd[0]);
	close(pfd[1]);
	ktap_errno("bad_syscall_number_9999", raw_errno(syscall0(NO_SUCH_CALL)), ENOSYS);
	ktap_errno("write_closed_fd", raw_errno(syscall3(__NR_write, pfd[1], (long)buf, 1)), EBADF);
	pipe(pfd);
	/* A system call made with the direction flag set: the kernel must
	 * clear it for its own string instructions and copy the right bytes. */
	{
		char a[400] = "", b[400] = "";
		long r;
		syscall1(__NR_uname, (long)a);
		__asm__ volatile("std\n\tint $0x80\n\tcld" : "=a"(r) : "a"(__NR_uname), "b"(b) : "memory", "cc");
		ktap_ok(r == 0 && memcmp(a, b, sizeof(a)) == 0, "syscall_with_direction_flag_set",
			"uname returned %ld, %s", r, memcmp(a, b, sizeof(a)) ? "different bytes" : "same bytes");
	}
	ktap_errno("write_from_kernel_pointer",
		   raw_errno(syscall3(__NR_write, pfd[1], 0xC0100000L, 16)), EFAULT);
	close(pfd[0]);
	close(pfd[1]);
	if (setuid(1000) < 0) {
		ktap_ok(0, "setuid_1000", "errno %d", errno);
		return;
	}
	ktap_errno("iopl_3_as_uid_1000", raw_errno(syscall1(__NR_iopl, 3)), EPERM);
	ktap_errno("iopl_4_is_einval", raw_errno(syscall1(__NR_iopl, 4)), EINVAL);
	ktap_errno("ioperm_as_uid_1000", raw_errno(syscall3(__NR_ioperm, 0x60, 1, 1)), EPERM);
	/* brk: grow 16 MiB at a time until it stops; it must stop, not crash */
	unsigned long start = (unsigned long)syscall1(__NR_brk, 0), cur = start;
	int steps = 0;
	while (steps < 4096) {
		unsigned long want = cur + (16ul << 20);
		unsigned long got = (unsigned long)syscall1(__NR_brk, (long)want);
		if (got < want)
			break;
		cur = got;
		steps++;
	}
	ktap_ok(steps > 0 && steps < 4096 && (unsigned long)syscall1(__NR_brk, 0) == cur,
		"brk_grows_then_stops_cleanly", "run-dependent: grew %d x 16 MiB", steps);
}

int main(int argc, char **argv)
{
	char dir[128] = "/bin", path[192], name[64];
	char *slash = argc > 0 ? strrchr(argv[0], '/') : NULL;

	if (slash && slash != argv[0])
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - argv[0]),
			 argv[0]);
	ktap_plan(NCASES + NACTIONS + 8);
	for (int i = 0; i < NCASES; i++) {
		char *child_argv[] = { path, NULL };
		int status = -1;
		pid_t pid;

		snprintf(path, sizeof(path), "%s/%s", dir, cases[i].prog);
		snprintf(name, sizeof(name), "%s_killed_by_signal_%d",
			 cases[i].prog, cases[i].signal);
		pid = fork();
		if (pid == 0) {
			dup2(2, 1);	/* keep its "about to fault" line off
					   the KTAP stream */
			execve(path, child_argv, environ);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		ktap_ok(WIFSIGNALED(status) &&
			WTERMSIG(status) == cases[i].signal, name,
			"status=0x%x signal=%d", status & 0x7f7f,
			WIFSIGNALED(status) ? WTERMSIG(status) : 0);
	}
	for (int i = 0; i < NACTIONS; i++)
		run_action(i);
	ktap_in_child("calls_as_user", calls_as_user, NULL);
	return ktap_done();
}
