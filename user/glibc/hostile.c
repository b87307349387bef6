/*
 * hostile - what an ordinary user's program may try against the kernel
 * (issue 46), in KTAP, so that tests/linux-diff.sh compares this kernel's
 * answers with Linux 6.1's:
 *   - %ss loaded with one of the program's TLS selectors, then that slot
 *     emptied or made read-only by set_thread_area, or a CLONE_SETTLS
 *     thread started with it empty: the kernel's iret to user mode cannot
 *     load it. Linux kills the process with SIGILL; the kernel must never
 *     panic (it did: "general protection fault in kernel mode" at trapret);
 *   - mremap growing a mapping past 4 GiB (ENOMEM, not a region that
 *     ends below its start), wait4's __WALL and __WCLONE;
 *   - "#!" scripts (/bin/script_*, user/scripts/): the interpreter's argv,
 *     blanks, the 256-byte line, nested interpreters and their limit,
 *     a missing interpreter, no interpreter.
 * The %ss system calls are made with int $0x80, which keeps %ss on both
 * kernels (Linux's sysenter path would put its own %ss back).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o hostile user/glibc/hostile.c
 * With --argv... as its first argument it only prints its argv (it is
 * the scripts' interpreter).
 */
#define _GNU_SOURCE
#include <asm/ldt.h>
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"

/* ---- %ss in a TLS slot ------------------------------------------------- */

static long int80(long nr, long a, long b, long c, long d, long e)
{
	long r;
	__asm__ volatile("int $0x80" : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e) : "memory");
	return r;
}

static void load_ss(unsigned sel)
{
	__asm__ volatile("movw %w0, %%ss" : : "r"(sel) : "memory");
}

static unsigned user_ss(void)
{
	unsigned sel;
	__asm__ volatile("movw %%ss, %w0" : "=r"(sel));
	return sel & 0xFFFF;
}

/* A flat, writable 32-bit data segment in a free TLS slot: its selector. */
static struct user_desc flat(int entry)
{
	struct user_desc u = { 0 };
	u.entry_number = (unsigned)entry;
	u.limit = 0xFFFFF;
	u.seg_32bit = 1;
	u.limit_in_pages = 1;
	u.useable = 1;
	return u;
}

static int flat_slot(void)
{
	struct user_desc u = flat(-1);
	if (syscall(SYS_set_thread_area, &u) < 0)
		_exit(90);
	return (int)u.entry_number;
}

/* Linux's LDT_empty(): the way to free a slot. */
static struct user_desc empty(int entry)
{
	struct user_desc u = { 0 };
	u.entry_number = (unsigned)entry;
	u.read_exec_only = 1;
	u.seg_not_present = 1;
	return u;
}

static unsigned plain_ss;

/* Each variant runs in a child as uid 1000, which either dies or exits 0. */
static void ss_valid_slot(void)
{
	int idx = flat_slot();
	load_ss((unsigned)idx * 8 + 3);
	int80(SYS_getpid, 0, 0, 0, 0, 0);	/* a slot that stays good is fine */
	load_ss(plain_ss);
}

static void ss_slot_emptied(void)
{
	int idx = flat_slot();
	struct user_desc e = empty(idx);
	load_ss((unsigned)idx * 8 + 3);
	int80(SYS_set_thread_area, (long)&e, 0, 0, 0, 0);
	load_ss(plain_ss);
}

static void ss_slot_read_only(void)
{
	int idx = flat_slot();
	struct user_desc ro = flat(idx);
	ro.read_exec_only = 1;
	load_ss((unsigned)idx * 8 + 3);
	int80(SYS_set_thread_area, (long)&ro, 0, 0, 0, 0);
	load_ss(plain_ss);
}

static char thread_stack[16384] __attribute__((aligned(16)));

/* The new thread returns from clone into the exit call below it. */
static long clone_thread_that_exits(unsigned long flags, void *stack, struct user_desc *tls)
{
	long r;
	__asm__ volatile("int $0x80\n\t"
			 "test %%eax, %%eax\n\t"
			 "jnz 1f\n\t"
			 "movl $1, %%eax\n\t"	/* the thread: exit(0) */
			 "xorl %%ebx, %%ebx\n\t"
			 "int $0x80\n"
			 "1:"
			 : "=a"(r)
			 : "a"(SYS_clone), "b"(flags), "c"(stack), "d"(0), "S"(tls), "D"(0)
			 : "memory");
	return r;
}

static void ss_clone_settls_empty(void)
{
	int idx = flat_slot();
	struct user_desc e = empty(idx);
	unsigned long flags = CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND |
			      CLONE_THREAD | CLONE_SYSVSEM | CLONE_SETTLS;
	load_ss((unsigned)idx * 8 + 3);
	long r = clone_thread_that_exits(flags, thread_stack + sizeof(thread_stack), &e);
	load_ss(plain_ss);
	if (r < 0)
		_exit(91);
	struct timespec t = { 0, 200 * 1000 * 1000 };
	nanosleep(&t, NULL);
}

static const char *ending(int st, char *buf, size_t len)
{
	if (WIFSIGNALED(st))
		snprintf(buf, len, "killed by %s", strsignal(WTERMSIG(st)));
	else
		snprintf(buf, len, "exit %d", WEXITSTATUS(st));
	return buf;
}

/* Run fn in a child as uid 1000; how it ended. */
static int run_as_user(void (*fn)(void))
{
	int st;
	pid_t pid = fork();
	if (pid == 0) {
		if (setuid(1000) < 0)
			_exit(92);
		fn();
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return -1;
	return st;
}

static void ss_checks(void)
{
	char buf[64];
	int st;

	plain_ss = user_ss();
	st = run_as_user(ss_valid_slot);
	check_why(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ss_in_a_valid_tls_slot_survives_a_syscall",
	      ending(st, buf, sizeof(buf)));
	st = run_as_user(ss_slot_emptied);
	check_why(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "ss_in_an_emptied_tls_slot_is_sigill",
	      ending(st, buf, sizeof(buf)));
	st = run_as_user(ss_slot_read_only);
	check_why(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "ss_in_a_read_only_tls_slot_is_sigill",
	      ending(st, buf, sizeof(buf)));
	st = run_as_user(ss_clone_settls_empty);
	check_why(WIFSIGNALED(st) && WTERMSIG(st) == SIGILL, "ss_in_a_clone_settls_empty_slot_is_sigill",
	      ending(st, buf, sizeof(buf)));
}

/* ---- mremap and wait4 ----------------------------------------------------- */

static int maps_all_ordered(void)
{
	FILE *f = fopen("/proc/self/maps", "r");
	unsigned long lo, hi;
	char line[256];
	int ok = f != NULL;
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx", &lo, &hi) != 2 || hi <= lo)
			ok = 0;
	if (f)
		fclose(f);
	return ok;
}

static void mremap_checks(void)
{
	char what[96];
	void *want = (void *)0x50000000;
	char *p = mmap(want, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	/* a length that takes the end past 4 GiB, wherever the map landed */
	size_t past = (size_t)(0x100002000ull - (unsigned long)p);
	void *r = mremap(p, 4096, past, 0);
	int e = errno;
	snprintf(what, sizeof(what), "map at 0x%lx, grown by 0x%zx: %s", (unsigned long)p, past,
		 r == MAP_FAILED ? strerror(e) : "accepted");
	check_why(p != MAP_FAILED && r == MAP_FAILED && e == ENOMEM,
	      "mremap_past_4gib_in_place_is_enomem", p == want ? "ENOMEM" : what);
	r = mremap(p, 4096, past, MREMAP_MAYMOVE);
	e = errno;
	check_why(r == MAP_FAILED && e == ENOMEM, "mremap_past_4gib_maymove_is_enomem",
	      r == MAP_FAILED ? strerror(e) : "accepted");
	check_why(maps_all_ordered(), "maps_has_no_region_ending_below_its_start", "/proc/self/maps");
	munmap(p, 4096);
}

static pid_t child_exiting(int code)
{
	pid_t pid = fork();
	if (pid == 0)
		_exit(code);
	return pid;
}

static void wait_checks(void)
{
	int st = 0;
	pid_t pid = child_exiting(7);
	pid_t got = waitpid(pid, &st, __WALL);
	check_why(got == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7, "waitpid_wall_reaps_a_fork_child",
	      "status 7");
	pid = child_exiting(8);
	got = waitpid(pid, &st, __WCLONE);
	int e = errno;
	check_why(got == -1 && e == ECHILD, "waitpid_wclone_skips_a_sigchld_child", strerror(e));
	got = waitpid(pid, &st, 0x04000000);
	e = errno;
	check_why(got == -1 && e == EINVAL, "waitpid_unknown_option_is_einval", strerror(e));
	got = waitpid(pid, &st, 0);
	check_why(got == pid && WEXITSTATUS(st) == 8, "waitpid_then_reaps_it", "status 8");
}

/* ---- "#!" scripts ---------------------------------------------------------- */

/* The interpreter's side: argv, joined by '|' (a long one by its length). */
static int print_argv(int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (strlen(argv[i]) > 40)
			printf("%s<%zu bytes>", i ? "|" : "", strlen(argv[i]));
		else
			printf("%s%s", i ? "|" : "", argv[i]);
	}
	printf("\n");
	return 0;
}

/* exec path with args in a child; its output, lines joined by "; " and
 * its exit status after " => ", or the errno. */
static void run_script(const char *path, char *const args[], char *out, size_t len)
{
	int fds[2], st;
	if (pipe(fds) < 0) {
		snprintf(out, len, "pipe: %s", strerror(errno));
		return;
	}
	pid_t pid = fork();
	if (pid == 0) {
		dup2(fds[1], 1);
		close(fds[0]);
		execv(path, args);
		printf("errno %s\n", strerrorname_np(errno));
		fflush(stdout);
		_exit(127);
	}
	close(fds[1]);
	size_t used = 0;
	ssize_t got;
	while (used < len - 24 && (got = read(fds[0], out + used, len - 24 - used)) > 0)
		used += (size_t)got;
	while (used && out[used - 1] == '\n')
		used--;
	out[used] = '\0';
	for (char *c = strchr(out, '\n'); c; c = strchr(c, '\n'))
		*c = ';';
	close(fds[0]);
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) && WEXITSTATUS(st) != 127)
		snprintf(out + used, 24, " => %d", WEXITSTATUS(st));
}

struct script_case {
	const char *name, *path, *want;
};

static const struct script_case scripts[] = {
	{ "script_runs_its_interpreter_with_one_argument", "/bin/script_args",
	  "/bin/hostile|--argv|/bin/script_args|a|b c" },
	{ "script_line_blanks_split_and_trimmed", "/bin/script_blanks",
	  "/bin/hostile|--argv  two words|/bin/script_blanks|a|b c" },
	{ "script_line_cut_at_256_bytes", "/bin/script_long",
	  "/bin/hostile|<240 bytes>|/bin/script_long|a|b c" },
	{ "script_whose_interpreter_is_a_script", "/bin/script_nested",
	  "/bin/hostile|--argv|/bin/script_args|nested|/bin/script_nested|a|b c" },
	{ "script_five_interpreters_deep_runs", "/bin/script_hop4",
	  "/bin/hostile|--argv|/bin/script_args|/bin/script_hop1|/bin/script_hop2|"
	  "/bin/script_hop3|/bin/script_hop4|a|b c" },
	{ "shell_script_runs_by_name", "/bin/script_sh",
	  "/bin/script_sh has 2 arguments: a b c;word one;word two;piped => 3" },
	{ "script_six_interpreters_deep_is_eloop", "/bin/script_hop5", "errno ELOOP" },
	{ "script_that_names_itself_is_eloop", "/bin/script_loop", "errno ELOOP" },
	{ "script_missing_interpreter_is_enoent", "/bin/script_missing", "errno ENOENT" },
	{ "script_without_interpreter_is_enoexec", "/bin/script_empty", "errno ENOEXEC" },
};

static void script_checks(void)
{
	char out[512];
	for (size_t i = 0; i < sizeof(scripts) / sizeof(scripts[0]); i++) {
		char *args[] = { "ignored-argv0", "a", "b c", NULL };
		run_script(scripts[i].path, args, out, sizeof(out));
		check_why(!strcmp(out, scripts[i].want), scripts[i].name, out);
	}
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strncmp(argv[1], "--argv", 6))
		return print_argv(argc, argv);
	setvbuf(stdout, NULL, _IONBF, 0);
	printf("KTAP version 1\n1..%zu\n", 4 + 3 + 4 + sizeof(scripts) / sizeof(scripts[0]));
	ss_checks();
	mremap_checks();
	wait_checks();
	script_checks();
	return failures ? 1 : 0;
}
