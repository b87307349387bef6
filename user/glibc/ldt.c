/*
 * ldt - modify_ldt (123) as programs use it, in KTAP, so that
 * tests/linux-diff.sh compares this kernel's answers with Linux 6.1's:
 * the calls' errors (bad func, count, pointer, entry, conforming code),
 * entries written in both modes and read back byte for byte, the default
 * LDT, %fs through an LDT entry (as LTP's fork05) across system calls,
 * switches, fork (the child's copy is its own), threads (one table, a
 * rewritten entry seen by a thread running in user mode), signals (the
 * frame's %fs saved, restored and checked by sigreturn), a far jump into
 * an LDT code segment, exec (no LDT after it), and the faults: a cleared
 * entry, one not present, one past the table, one based in the kernel's
 * half: each kills only the child that used it, with Linux's signal.
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o ldt user/glibc/ldt.c
 * ldt.linux.ktap beside it is its transcript on Debian's Linux 6.1.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/ucontext.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <asm/ldt.h>

#include "ktap.h"	/* n, failures, check(), check_why(), check_ours(), raw() */

#define NR_FREE_FRAMES	505		/* this kernel's own (include/uapi/unistd.h) */
#define SEL(idx)	((unsigned short)((idx) << 3 | 7))	/* LDT, RPL 3 */
#define BAD_PTR		((void *)8)

static volatile int var_a = 42, var_b = 7, var_c = 5;
static uint8_t big[70000];

static long modify_ldt(int func, void *ptr, unsigned long count)
{
	return raw(syscall(SYS_modify_ldt, func, ptr, count));
}

/* A 32-bit byte-granular data segment at base, limit bytes - 1. */
static struct user_desc data_seg(unsigned idx, uintptr_t base, unsigned limit)
{
	return (struct user_desc){ .entry_number = idx, .base_addr = base, .limit = limit,
				   .seg_32bit = 1 };
}

static long write_entry(int func, struct user_desc d)
{
	return modify_ldt(func, &d, sizeof(d));
}

/* The LDT's entry idx as 16 hex digits (func 0, the low word first). */
static const char *entry_hex(unsigned idx, char *out)
{
	uint32_t w[2] = { 0, 0 };
	if (modify_ldt(0, big, (idx + 1) * 8) != (long)(idx + 1) * 8)
		return strcpy(out, "unreadable");
	memcpy(w, big + idx * 8, 8);
	sprintf(out, "%08x%08x", w[1], w[0]);
	return out;
}

static unsigned short get_fs(void)
{
	unsigned short s;
	__asm__ volatile("movw %%fs, %0" : "=r"(s));
	return s;
}

static void set_fs(unsigned short s)
{
	__asm__ volatile("movw %0, %%fs" : : "r"(s) : "memory");
}

static int read_fs0(void)
{
	int v;
	__asm__ volatile("movl %%fs:0, %0" : "=r"(v) : : "memory");
	return v;
}

static void write_fs0(int v)
{
	__asm__ volatile("movl %0, %%fs:0" : : "r"(v) : "memory");
}

/* Run fn in a child: its wait status. */
static int in_child(int (*fn)(void))
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0)
		_exit(fn());
	int st = -1;
	waitpid(pid, &st, 0);
	return st;
}

static int exited_0(int st)
{
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

static int killed_by(int st, int sig)
{
	return WIFSIGNALED(st) && WTERMSIG(st) == sig;
}

/* ---- the calls' errors, before there is an LDT ---------------------------- */

static void error_checks(void)
{
	static uint8_t buf[128];
	struct user_desc d = data_seg(0, 0x1000, 0xfff);

	check(modify_ldt(0, buf, 64) == 0, "read_without_an_ldt_returns_0");
	check(modify_ldt(0, BAD_PTR, 64) == 0, "read_without_an_ldt_never_looks_at_the_pointer");
	memset(buf, 0xff, sizeof(buf));
	long r = modify_ldt(2, buf, 100);
	int zeros = 1;
	for (int i = 0; i < 40; i++)
		zeros &= buf[i] == 0;
	check(r == 40 && zeros && buf[40] == 0xff, "read_default_ldt_gives_40_zero_bytes");
	check(modify_ldt(2, buf, 3) == 3, "read_default_ldt_short_count");
	check(modify_ldt(2, BAD_PTR, 8) == -EFAULT, "read_default_ldt_bad_pointer_efault");
	check(modify_ldt(3, buf, 8) == -ENOSYS && modify_ldt(0x10, &d, 16) == -ENOSYS &&
	      modify_ldt(0x12, &d, 16) == -ENOSYS && modify_ldt(-1, buf, 8) == -ENOSYS,
	      "unknown_func_is_enosys");
	check(modify_ldt(1, &d, 15) == -EINVAL && modify_ldt(1, &d, 17) == -EINVAL &&
	      modify_ldt(0x11, &d, 0) == -EINVAL, "write_with_a_wrong_count_einval");
	check(modify_ldt(1, BAD_PTR, 16) == -EFAULT && modify_ldt(0x11, NULL, 16) == -EFAULT,
	      "write_bad_pointer_efault");
	d.entry_number = 8192;
	long big_idx = write_entry(1, d);
	d.entry_number = 0xffffffff;
	check(big_idx == -EINVAL && write_entry(0x11, d) == -EINVAL, "entry_8192_and_up_einval");
	d = data_seg(1, 0x1000, 0xfff);
	d.contents = 3;
	check(write_entry(0x11, d) == -EINVAL, "present_conforming_code_einval");
	d.seg_not_present = 1;
	check(write_entry(1, d) == -EINVAL, "conforming_code_in_the_old_mode_einval");
	check(modify_ldt(0, buf, 64) == 0, "failed_writes_make_no_ldt");
}

/* ---- entries written and read back ------------------------------------------ */

/* Write d with func, then check that it worked, showing the entry as the
 * table holds it (compared with Linux's, byte for byte). */
static void wrote(int func, struct user_desc d, const char *name)
{
	char hex[24];
	long r = write_entry(func, d);
	check_why(r == 0, name, entry_hex(d.entry_number, hex));
}

static void read_back_checks(void)
{
	char hex[24];
	struct user_desc d = { .entry_number = 0, .base_addr = 0x12345678, .limit = 0xabcde,
			       .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	wrote(1, d, "write_old_mode_drops_useable");
	d.entry_number = 2;
	wrote(0x11, d, "write_new_mode_keeps_useable");
	long r = modify_ldt(0, big, 24);
	check_why(r == 24, "entry_1_between_is_zero", entry_hex(1, hex));
	memset(big, 0xff, 200);
	r = modify_ldt(0, big, 100);
	int zeros = 1;
	for (int i = 24; i < 100; i++)
		zeros &= big[i] == 0;
	check(r == 100 && zeros && big[100] == 0xff, "read_past_the_table_is_zero_filled");
	check(modify_ldt(0, big, sizeof(big)) == LDT_ENTRIES * LDT_ENTRY_SIZE,
	      "read_is_at_most_ldt_entries_long");
	check(modify_ldt(0, BAD_PTR, 16) == -EFAULT, "read_bad_pointer_efault");
	check(modify_ldt(0, big, 0) == 0, "read_of_0_bytes_is_0");

	d = (struct user_desc){ .entry_number = 3, .base_addr = 0x1000, .limit = 0xff };
	wrote(0x11, d, "a_16_bit_data_segment");
	d.seg_32bit = 1;
	d.contents = MODIFY_LDT_CONTENTS_STACK;
	wrote(0x11, d, "an_expand_down_stack_segment");
	d = (struct user_desc){ .entry_number = 4, .limit = 0xfffff, .seg_32bit = 1,
				.contents = MODIFY_LDT_CONTENTS_CODE, .limit_in_pages = 1 };
	wrote(0x11, d, "a_code_segment");
	d.read_exec_only = 1;
	d.entry_number = 5;
	wrote(0x11, d, "an_execute_only_code_segment");
	d.contents = 3;
	d.seg_not_present = 1;
	wrote(0x11, d, "conforming_code_not_present_in_the_new_mode");
	d = (struct user_desc){ .entry_number = 3, .read_exec_only = 1, .seg_not_present = 1 };
	wrote(0x11, d, "an_empty_entry_clears_it");
	d = (struct user_desc){ .entry_number = 5, .seg_32bit = 1, .useable = 1 };
	wrote(1, d, "old_mode_base_and_limit_0_clear_it");
	d = (struct user_desc){ .entry_number = 6 };
	wrote(0x11, d, "new_mode_all_zero_is_a_segment");
}

/* ---- %fs through entry 0, as LTP's fork05 --------------------------------- */

static int child_sees_fs(void)
{
	return get_fs() == SEL(0) && read_fs0() == 99 && var_a == 99 ? 0 : 1;
}

static int child_rewrites_entry_0(void)
{
	if (write_entry(1, data_seg(0, (uintptr_t)&var_b, 3)) != 0)
		return 1;
	return get_fs() == SEL(0) && read_fs0() == 7 ? 0 : 2;
}

static void fs_checks(void)
{
	check(write_entry(1, data_seg(0, (uintptr_t)&var_a, 3)) == 0, "fork05s_entry_0_written");
	set_fs(SEL(0));
	check(get_fs() == 7 && read_fs0() == 42, "fs_reads_through_an_ldt_entry");
	write_fs0(99);
	check(var_a == 99, "fs_writes_through_an_ldt_entry");
	struct timespec ms = { 0, 1000000 };
	for (int i = 0; i < 20; i++) {
		sched_yield();
		getpid();
	}
	nanosleep(&ms, NULL);
	check(get_fs() == 7 && read_fs0() == 99, "fs_survives_calls_sleeps_and_switches");
	check(exited_0(in_child(child_sees_fs)), "fork_child_reads_through_its_fs");
	check(exited_0(in_child(child_rewrites_entry_0)) && read_fs0() == 99,
	      "fork_childs_ldt_is_its_own");
	check(write_entry(1, data_seg(0, (uintptr_t)&var_c, 3)) == 0 && get_fs() == 7 &&
	      read_fs0() == 5, "rewriting_the_entry_moves_fs_at_once");
	check(write_entry(1, data_seg(0, (uintptr_t)&var_a, 3)) == 0 && read_fs0() == 99,
	      "and_back");
}

/* ---- threads: one table ------------------------------------------------------ */

static volatile int thread_saw, spin_saw;

static void *thread_body(void *arg)
{
	(void)arg;
	set_fs(SEL(0));
	thread_saw = read_fs0();
	write_entry(0x11, data_seg(7, 0x7000, 3));
	return NULL;
}

static volatile int rewrite_now;

/* Pin the caller to cpu, if there is such a CPU. */
static void pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (cpu < sysconf(_SC_NPROCESSORS_ONLN))
		sched_setaffinity(0, sizeof(set), &set);
}

/* Waits until the main thread spins on %fs, then moves its entry 0:
 * from another CPU when there are two, so that the spinning one sees it
 * only if its CPU is told to load the new table (Linux's flush_ldt IPI). */
static void *rewriter(void *arg)
{
	(void)arg;
	pin(0);
	while (!rewrite_now)
		sched_yield();
	write_entry(1, data_seg(0, (uintptr_t)&var_c, 3));
	return NULL;
}

static void thread_checks(void)
{
	char hex[24];
	pthread_t t;
	pthread_create(&t, NULL, thread_body, NULL);
	pthread_join(t, NULL);
	check(thread_saw == 99, "a_thread_reads_through_the_same_entry");
	entry_hex(7, hex);
	check_why(strcmp(hex, "0000000000000000") != 0, "a_threads_write_is_the_processs", hex);

	pin(1);
	pthread_create(&t, NULL, rewriter, NULL);
	set_fs(SEL(0));
	rewrite_now = 1;
	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		spin_saw = read_fs0();
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (spin_saw != 5 && now.tv_sec - start.tv_sec < 5);
	pthread_join(t, NULL);
	check(spin_saw == 5, "a_running_thread_sees_a_rewritten_entry");
	pin(0);
	write_entry(1, data_seg(0, (uintptr_t)&var_a, 3));
}

/* ---- signals: the frame's %fs ----------------------------------------------- */

static volatile int frame_fs, handler_fs, put_fs = -1, clobber_fs;

static void on_usr1(int sig, siginfo_t *si, void *ctx)
{
	(void)sig;
	(void)si;
	ucontext_t *uc = ctx;
	frame_fs = uc->uc_mcontext.gregs[REG_FS];
	handler_fs = get_fs();
	if (clobber_fs)
		set_fs(0);
	if (put_fs >= 0)
		uc->uc_mcontext.gregs[REG_FS] = put_fs;
}

static int fs_after_signal(int to_put)
{
	put_fs = to_put;
	raise(SIGUSR1);
	put_fs = -1;
	return get_fs();
}

static void signal_checks(void)
{
	char what[64];
	struct sigaction sa = { .sa_sigaction = on_usr1, .sa_flags = SA_SIGINFO };
	sigaction(SIGUSR1, &sa, NULL);
	set_fs(SEL(0));
	clobber_fs = 1;
	int after = fs_after_signal(-1);
	clobber_fs = 0;
	check(frame_fs == 7 && handler_fs == 7, "the_frame_and_the_handler_have_the_ldt_fs");
	check(after == 7 && read_fs0() == 99, "sigreturn_restores_the_frames_fs");
	write_entry(1, data_seg(1, (uintptr_t)&var_b, 3));
	after = fs_after_signal(SEL(1));
	check(after == SEL(1) && read_fs0() == 7, "sigreturn_takes_another_ldt_fs_from_the_frame");
	set_fs(SEL(0));
	after = fs_after_signal(SEL(0) & ~3);
	check_why(after == (SEL(0) & ~3) && read_fs0() == 99, "sigreturn_keeps_an_ldt_fs_of_rpl_0",
		  after == 4 ? "0x4" : "not 0x4");
	static const int hostile[] = { 0x10, 0x13, 0x4b, 0x5b, 0x7f };
	int all_null = 1;
	what[0] = 0;
	for (unsigned i = 0; i < sizeof(hostile) / sizeof(hostile[0]); i++) {
		set_fs(SEL(0));
		after = fs_after_signal(hostile[i]);
		all_null &= after == 0;
		sprintf(what + strlen(what), "%s%#x->%#x", i ? " " : "", hostile[i], after);
	}
	check_why(all_null, "sigreturn_makes_no_segment_of_a_bad_fs", what);
	set_fs(SEL(0));
	signal(SIGUSR1, SIG_DFL);
}

/* ---- a far jump into an LDT code segment ------------------------------------ */

static void code_segment_checks(void)
{
	struct { uint32_t off; uint16_t sel; } __attribute__((packed)) to, back;
	unsigned short cs, seen = 0;
	int pid;

	__asm__ volatile("movw %%cs, %0" : "=r"(cs));
	to.sel = SEL(4);		/* base 0, 4 GiB, 32-bit, readable */
	back.sel = cs;
	__asm__ volatile(
		"movl $1f, (%[to])\n\t"
		"movl $2f, (%[back])\n\t"
		"ljmp *(%[to])\n"
		"1:\n\t"
		"movw %%cs, %%cx\n\t"
		"movl %[nr], %%eax\n\t"
		"int $0x80\n\t"
		"ljmp *(%[back])\n"
		"2:\n"
		: "=&a"(pid), "=&c"(seen)
		: [to] "r"(&to), [back] "r"(&back), [nr] "i"(SYS_getpid)
		: "memory");
	check(seen == SEL(4) && pid == getpid(), "a_system_call_from_an_ldt_code_segment");
}

/* ---- exec drops it ---------------------------------------------------------- */

static int exec_child(void)
{
	execl("/proc/self/exe", "ldt", "exec-child", (char *)NULL);
	return 99;
}

static void *exec_from_thread(void *arg)
{
	(void)arg;
	execl("/proc/self/exe", "ldt", "exec-child", (char *)NULL);
	return NULL;
}

/* A thread other than the leader execs: it becomes the leader (Linux's
 * de_thread), and the group's LDT goes all the same. */
static int thread_exec_child(void)
{
	pthread_t t;
	pthread_create(&t, NULL, exec_from_thread, NULL);
	pthread_join(t, NULL);
	return 99;
}

/* The program again, after exec: no LDT, and %fs null. */
static int after_exec(void)
{
	static uint8_t buf[16];
	int bad = modify_ldt(0, buf, sizeof(buf)) != 0;
	return bad | (get_fs() != 0) << 1;
}

/* ---- faults kill the child that took them ----------------------------------- */

static int load_cleared(void)
{
	struct user_desc d = { .entry_number = 0, .read_exec_only = 1, .seg_not_present = 1 };
	write_entry(0x11, d);
	if (get_fs() != 0)
		return 1;	/* the selector of an entry gone comes back null */
	set_fs(SEL(0));
	return 2;
}

static int load_not_present(void)
{
	struct user_desc d = data_seg(9, (uintptr_t)&var_a, 3);
	d.seg_not_present = 1;
	write_entry(0x11, d);
	set_fs(SEL(9));
	return 1;
}

static int load_past_the_table(void)
{
	set_fs(SEL(4000));
	return 1;
}

static int read_the_kernels_half(void)
{
	struct user_desc d = data_seg(10, 0xC0000000u, 0xfffff);
	d.limit_in_pages = 1;
	write_entry(0x11, d);
	set_fs(SEL(10));
	return read_fs0() == 0x12345678 ? 1 : 2;
}

static int jump_to_a_data_segment(void)
{
	struct { uint32_t off; uint16_t sel; } __attribute__((packed)) to = { 0, SEL(0) };
	__asm__ volatile("ljmp *(%0)" : : "r"(&to) : "memory");
	return 1;
}

/* From an LDT code segment, clear that very entry: the return from the
 * call cannot load %cs again, and the iret's fault is SIGILL (Linux's
 * iret_error), never the kernel's. */
static int clear_own_code_segment(void)
{
	static struct user_desc gone = { .entry_number = 4, .read_exec_only = 1,
					 .seg_not_present = 1 };
	struct { uint32_t off; uint16_t sel; } __attribute__((packed)) to = { 0, SEL(4) };
	__asm__ volatile(
		"movl $1f, (%[to])\n\t"
		"ljmp *(%[to])\n"
		"1:\n\t"
		"int $0x80\n\t"
		"ud2\n"
		: : [to] "S"(&to), "a"(SYS_modify_ldt), "b"(0x11), "c"(&gone), "d"(16)
		: "memory");
	return 1;
}

static void fault_checks(void)
{
	check(killed_by(in_child(clear_own_code_segment), SIGILL),
	      "clearing_the_code_segment_one_runs_in_is_sigill");
	check(killed_by(in_child(load_cleared), SIGSEGV) && get_fs() == 7 && read_fs0() == 99,
	      "loading_a_cleared_entry_kills_the_child_with_sigsegv");
	check(killed_by(in_child(load_not_present), SIGBUS), "loading_an_entry_not_present_is_sigbus");
	check(killed_by(in_child(load_past_the_table), SIGSEGV), "a_selector_past_the_table_is_sigsegv");
	check(killed_by(in_child(read_the_kernels_half), SIGSEGV),
	      "a_segment_based_in_the_kernels_half_reads_nothing");
	check(killed_by(in_child(jump_to_a_data_segment), SIGSEGV),
	      "a_far_jump_to_a_data_segment_is_sigsegv");
	check(read_fs0() == 99, "the_parent_goes_on");
}

/* ---- the whole table, and what it costs --------------------------------------- */

static int fill_and_exit(void)
{
	return write_entry(0x11, data_seg(LDT_ENTRIES - 1, 0x1000, 0xfff)) == 0 ? 0 : 1;
}

static void size_checks(void)
{
	wrote(0x11, data_seg(LDT_ENTRIES - 1, 0x1000, 0xfff), "entry_8191_grows_the_table");
	int here = syscall(NR_FREE_FRAMES) > 0;
	long before = here ? syscall(NR_FREE_FRAMES) : 0;
	int ok = 1;
	for (int i = 0; i < 20; i++)
		ok &= exited_0(in_child(fill_and_exit));
	long after = here ? syscall(NR_FREE_FRAMES) : 0;
	check(ok, "children_with_full_tables_exit");
	check_ours(here, before == after, "their_tables_are_freed_with_them");
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "exec-child") == 0)
		return after_exec();
	setvbuf(stdout, NULL, _IOLBF, 0);
	printf("KTAP version 1\n1..56\n");
	error_checks();
	read_back_checks();
	fs_checks();
	thread_checks();
	signal_checks();
	code_segment_checks();
	int st = in_child(exec_child);
	check(exited_0(st), "exec_drops_the_ldt_and_nulls_fs");
	check(exited_0(in_child(thread_exec_child)), "exec_from_a_thread_drops_the_ldt");
	fault_checks();
	size_checks();
	set_fs(0);
	return failures ? 1 : 0;
}
