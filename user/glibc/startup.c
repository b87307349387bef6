/*
 * startup - what a program built with the distribution's C library needs
 * before and around main (issue 26), in KTAP, so that tests/linux-diff.sh
 * compares this kernel's answers with Linux 6.1's: thread-local storage
 * (set_thread_area, glibc's %gs), the thread-id calls, clone's flag
 * checks and glibc's fork (a clone), stat on stdio and files, getrandom,
 * clock_gettime64 and printf("%f") (the FPU).
 *
 * Built by make with Debian's glibc (user/user.mk):
 *	i686-linux-gnu-gcc -static -pthread -O2 -o startup user/glibc/startup.c
 * startup.linux.ktap beside it is its transcript on Debian's Linux 6.1
 * (6.1.0-57-686) in QEMU with the project's init, as tests/linux-diff.sh
 * boots it.
 */
#define _GNU_SOURCE
#include <asm/ldt.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ktap.h"	/* n, failures, check(), check_ours(), raw() */

static __thread int tls_counter = 41;
static __thread char tls_name[16] = "main";

static void tls_checks(void)
{
	unsigned gs = 0;	/* movw writes the low 16 bits only */
	__asm__ volatile("movw %%gs, %w0" : "+r"(gs));
	check(gs == 0x33, "glibc_loads_gs_with_tls_slot_6");
	tls_counter++;
	check(tls_counter == 42 && strcmp(tls_name, "main") == 0, "tls_variables_read_and_write");

	struct user_desc d = { .entry_number = 6 };
	long r = raw(syscall(SYS_get_thread_area, &d));
	unsigned self;
	__asm__ volatile("movl %%gs:0, %0" : "=r"(self));
	check(r == 0 && d.base_addr == self && d.seg_32bit && d.limit_in_pages,
	      "get_thread_area_6_is_the_thread_block");

	struct user_desc e = { .entry_number = -1u, .base_addr = 0x1000, .limit = 0xfffff,
			       .seg_32bit = 1, .limit_in_pages = 1, .useable = 1 };
	r = raw(syscall(SYS_set_thread_area, &e));
	check(r == 0 && e.entry_number == 7, "set_thread_area_minus_1_picks_slot_7");
	e.contents = 3;		/* a code segment: refused */
	check(raw(syscall(SYS_set_thread_area, &e)) == -EINVAL, "set_thread_area_code_segment_einval");
	e.contents = 0;
	e.entry_number = 9;
	check(raw(syscall(SYS_set_thread_area, &e)) == -EINVAL, "set_thread_area_entry_9_einval");
	d.entry_number = 5;
	check(raw(syscall(SYS_get_thread_area, &d)) == -EINVAL, "get_thread_area_entry_5_einval");
	check(raw(syscall(SYS_set_thread_area, (void *)1)) == -EFAULT, "set_thread_area_bad_pointer_efault");
	struct user_desc empty = { .entry_number = 7, .read_exec_only = 1, .seg_not_present = 1 };
	check(raw(syscall(SYS_set_thread_area, &empty)) == 0, "set_thread_area_empties_slot_7");
	d.entry_number = 7;
	r = raw(syscall(SYS_get_thread_area, &d));
	check(r == 0 && d.base_addr == 0 && d.seg_not_present && d.read_exec_only,
	      "get_thread_area_7_reads_back_empty");
}

static void id_checks(void)
{
	check(syscall(SYS_gettid) == getpid(), "gettid_is_getpid_in_a_single_thread");
	int tid;
	check(syscall(SYS_set_tid_address, &tid) == getpid(), "set_tid_address_returns_the_tid");
	check(raw(syscall(SYS_set_robust_list, (void *)0, 11)) == -EINVAL,
	      "set_robust_list_wrong_size_einval");
	check(raw(syscall(SYS_clone, CLONE_THREAD | SIGCHLD, 0, 0, 0, 0)) == -EINVAL,
	      "clone_thread_without_sighand_einval");
	check(raw(syscall(SYS_clone, CLONE_SIGHAND | SIGCHLD, 0, 0, 0, 0)) == -EINVAL,
	      "clone_sighand_without_vm_einval");

	fflush(stdout);
	pid_t pid = fork();		/* glibc: clone(CHILD_SETTID|CHILD_CLEARTID|SIGCHLD) */
	if (pid == 0) {
		_exit(tls_counter == 42 && syscall(SYS_gettid) == getpid() ? 7 : 1);
	}
	int st = 0;
	check(pid > 0 && waitpid(pid, &st, 0) == pid && WIFEXITED(st) && WEXITSTATUS(st) == 7,
	      "fork_child_keeps_tls_and_has_its_own_tid");
}

static void file_checks(void)
{
	struct stat st;
	check(fstat(1, &st) == 0 && S_ISCHR(st.st_mode) && isatty(1), "stdout_is_a_terminal");
	int p[2];
	check(pipe(p) == 0 && fstat(p[0], &st) == 0 && S_ISFIFO(st.st_mode), "a_pipe_is_a_fifo");
	check(stat("/bin/startup", &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0,
	      "stat_of_this_program");
	errno = 0;
	check(stat("/no/such", &st) == -1 && errno == ENOENT, "stat_of_nothing_enoent");
	check(raw(fstatat(AT_FDCWD, "/bin/startup", &st, 0x8000)) == -EINVAL, "fstatat_bad_flag_einval");
	check(raw(fstat(99, &st)) == -EBADF, "fstat_closed_fd_ebadf");
	char buf[64];
	check(raw(readlink("/bin/startup", buf, sizeof(buf))) == -EINVAL, "readlink_of_a_file_einval");
	check(raw(readlink("/no/such", buf, sizeof(buf))) == -ENOENT, "readlink_of_nothing_enoent");
}

static void misc_checks(void)
{
	unsigned char a[64] = { 0 }, b[64] = { 0 };
	check(getrandom(a, sizeof(a), 0) == 64 && getrandom(b, sizeof(b), 0) == 64 &&
	      memcmp(a, b, sizeof(a)) != 0, "getrandom_fills_and_differs");
	check(raw(getrandom(a, 1, 0x40)) == -EINVAL, "getrandom_bad_flag_einval");
	check(raw(getrandom(a, 1, GRND_RANDOM | GRND_INSECURE)) == -EINVAL,
	      "getrandom_random_with_insecure_einval");
	struct timespec t0, t1;
	check(clock_gettime(CLOCK_MONOTONIC, &t0) == 0 && clock_gettime(CLOCK_MONOTONIC, &t1) == 0 &&
	      (t1.tv_sec > t0.tv_sec || (t1.tv_sec == t0.tv_sec && t1.tv_nsec >= t0.tv_nsec)),
	      "clock_gettime_monotonic_goes_forward");
	check(raw(clock_gettime(12345, &t0)) == -EINVAL, "clock_gettime_bad_clock_einval");
	char s[64];
	volatile double x = 2.0;
	snprintf(s, sizeof(s), "%f %.3e %g", 3.25, x / 3.0, 1e100);
	check(strcmp(s, "3.250000 6.667e-01 1e+100") == 0, "printf_floating_point");
}

int main(void)
{
	printf("KTAP version 1\n1..30\n");
	tls_checks();
	id_checks();
	file_checks();
	misc_checks();
	return failures ? 1 : 0;
}
