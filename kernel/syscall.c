/*
 * syscall.c - int 0x80: Linux i386 system call numbers to kernel functions.
 *
 * The convention is Linux's (docs/abi.md §2): number in eax, arguments in ebx,
 * ecx, edx, esi, edi, ebp, result in eax, -errno on failure. This file is
 * the one table of every call the kernel has, including the ones that exist
 * only here (500 and up), and the dispatcher; each call lives with its
 * subsystem, in the file named beside its entry.
 */
#include "syscall.h"
#include "errno.h"
#include "cpu.h"
#include "cred.h"
#include "exec.h"
#include "file.h"
#include "fs.h"
#include "futex.h"
#include "gdt.h"
#include "lockstat.h"
#include "mmap.h"
#include "mutex.h"
#include "pgrp.h"
#include "pmm.h"
#include "power.h"
#include "printk.h"
#include "random.h"
#include "proc.h"
#include "sched_glue.h"
#include "signal.h"
#include "sysinfo.h"
#include "stat.h"
#include "sleep.h"
#include "systime.h"
#include "thread.h"
#include "trace.h"
#include "tls.h"
#include "trap.h"
#include "uname.h"
#include "x86.h"
#include "../drivers/topology.h"
#include "../sched/syscalls.h"	/* the scheduler's calls (sched/syscalls.c) */
#include <uapi/lockstat.h>

typedef int (*syscall_fn)(uint32_t, uint32_t, uint32_t, uint32_t, uint32_t, uint32_t);

#define NSYSCALLS 510
#define SYSCALL(nr, fn) [nr] = (syscall_fn)(void *)(fn)

static const syscall_fn syscalls[NSYSCALLS] = {
	SYSCALL(0, sys_restart_syscall),	/* sleep.c */
	SYSCALL(1, sys_exit),			/* proc.c */
	SYSCALL(2, proc_fork),			/* proc.c */
	SYSCALL(3, sys_read),			/* file.c */
	SYSCALL(4, sys_write),			/* file.c */
	SYSCALL(5, sys_open),			/* file.c */
	SYSCALL(6, sys_close),			/* file.c */
	SYSCALL(7, sys_waitpid),		/* proc.c */
	SYSCALL(11, sys_execve),		/* exec.c */
	SYSCALL(12, sys_chdir),			/* fs.c */
	SYSCALL(20, sys_getpid),		/* proc.c */
	SYSCALL(23, sys_setuid),		/* cred.c */
	SYSCALL(24, sys_getuid),		/* cred.c */
	SYSCALL(29, sys_pause),			/* signal.c */
	SYSCALL(34, sys_nice),			/* sched/syscalls.c */
	SYSCALL(37, sys_kill),			/* signal.c */
	SYSCALL(42, sys_pipe),			/* file.c */
	SYSCALL(43, sys_times),			/* systime.c */
	SYSCALL(45, sys_brk),			/* mmap.c */
	SYSCALL(47, sys_getgid),		/* cred.c */
	SYSCALL(49, sys_geteuid),		/* cred.c */
	SYSCALL(50, sys_getegid),		/* cred.c */
	SYSCALL(54, sys_ioctl),			/* file.c */
	SYSCALL(57, sys_setpgid),		/* pgrp.c */
	SYSCALL(63, sys_dup2),			/* file.c */
	SYSCALL(64, sys_getppid),		/* proc.c */
	SYSCALL(65, sys_getpgrp),		/* pgrp.c */
	SYSCALL(66, sys_setsid),		/* pgrp.c */
	SYSCALL(75, sys_setrlimit),		/* proc.c */
	SYSCALL(76, sys_getrlimit),		/* proc.c (old getrlimit: the same here) */
	SYSCALL(77, sys_getrusage),		/* systime.c */
	SYSCALL(85, sys_readlink),		/* stat.c */
	SYSCALL(88, sys_reboot),		/* power.c */
	SYSCALL(90, sys_old_mmap),		/* mmap.c */
	SYSCALL(91, sys_munmap),		/* mmap.c */
	SYSCALL(96, sys_getpriority),		/* sched/syscalls.c */
	SYSCALL(97, sys_setpriority),		/* sched/syscalls.c */
	SYSCALL(101, sys_ioperm),		/* gdt.c */
	SYSCALL(110, sys_iopl),			/* gdt.c */
	SYSCALL(114, proc_wait4),		/* proc.c */
	SYSCALL(116, sys_sysinfo),		/* sysinfo.c */
	SYSCALL(119, sys_sigreturn),		/* signal.c */
	SYSCALL(120, sys_clone),		/* thread.c (fork-like only) */
	SYSCALL(122, sys_uname),		/* uname.c */
	SYSCALL(125, sys_mprotect),		/* mmap.c */
	SYSCALL(132, sys_getpgid),		/* pgrp.c */
	SYSCALL(147, sys_getsid),		/* pgrp.c */
	SYSCALL(154, sys_sched_setparam),	/* sched/syscalls.c */
	SYSCALL(155, sys_sched_getparam),	/* sched/syscalls.c */
	SYSCALL(156, sys_sched_setscheduler),	/* sched/syscalls.c */
	SYSCALL(157, sys_sched_getscheduler),	/* sched/syscalls.c */
	SYSCALL(158, sys_sched_yield),		/* sched/syscalls.c */
	SYSCALL(159, sys_sched_get_priority_max),	/* sched/syscalls.c */
	SYSCALL(160, sys_sched_get_priority_min),	/* sched/syscalls.c */
	SYSCALL(161, sys_sched_rr_get_interval),	/* sched/syscalls.c */
	SYSCALL(162, sys_nanosleep),		/* sleep.c */
	SYSCALL(163, sys_mremap),		/* mmap.c */
	SYSCALL(173, sys_rt_sigreturn),		/* signal.c */
	SYSCALL(174, sys_rt_sigaction),		/* signal.c */
	SYSCALL(175, sys_rt_sigprocmask),	/* signal.c */
	SYSCALL(176, sys_rt_sigpending),	/* signal.c */
	SYSCALL(179, sys_rt_sigsuspend),	/* signal.c */
	SYSCALL(183, sys_getcwd),		/* fs.c */
	SYSCALL(191, sys_getrlimit),		/* proc.c (ugetrlimit) */
	SYSCALL(192, sys_mmap2),		/* mmap.c */
	SYSCALL(195, sys_stat64),		/* fs.c */
	SYSCALL(196, sys_lstat64),		/* fs.c */
	SYSCALL(197, sys_fstat64),		/* fs.c */
	SYSCALL(199, sys_getuid),		/* cred.c */
	SYSCALL(200, sys_getgid),		/* cred.c */
	SYSCALL(201, sys_geteuid),		/* cred.c */
	SYSCALL(202, sys_getegid),		/* cred.c */
	SYSCALL(203, sys_setreuid),		/* cred.c */
	SYSCALL(204, sys_setregid),		/* cred.c */
	SYSCALL(208, sys_setresuid),		/* cred.c */
	SYSCALL(209, sys_getresuid),		/* cred.c */
	SYSCALL(210, sys_setresgid),		/* cred.c */
	SYSCALL(211, sys_getresgid),		/* cred.c */
	SYSCALL(213, sys_setuid),		/* cred.c */
	SYSCALL(214, sys_setgid),		/* cred.c */
	SYSCALL(219, sys_madvise),		/* mmap.c */
	SYSCALL(220, sys_getdents64),		/* fs.c */
	SYSCALL(224, sys_gettid),		/* proc.c */
	SYSCALL(238, sys_tkill),		/* signal.c */
	SYSCALL(240, sys_futex),		/* futex.c */
	SYSCALL(241, sys_sched_setaffinity),	/* sched/syscalls.c */
	SYSCALL(242, sys_sched_getaffinity),	/* sched/syscalls.c */
	SYSCALL(243, sys_set_thread_area),	/* tls.c */
	SYSCALL(244, sys_get_thread_area),	/* tls.c */
	SYSCALL(252, sys_exit_group),		/* proc.c */
	SYSCALL(258, sys_set_tid_address),	/* thread.c */
	SYSCALL(265, sys_clock_gettime),	/* systime.c */
	SYSCALL(267, sys_clock_nanosleep),	/* sleep.c */
	SYSCALL(270, sys_tgkill),		/* signal.c */
	SYSCALL(300, sys_fstatat64),		/* stat.c */
	SYSCALL(311, sys_set_robust_list),	/* thread.c */
	SYSCALL(312, sys_get_robust_list),	/* thread.c */
	SYSCALL(318, sys_getcpu),		/* cpu.c */
	SYSCALL(331, sys_pipe2),		/* file.c (flags 0 only) */
	SYSCALL(340, sys_prlimit64),		/* proc.c */
	SYSCALL(355, sys_getrandom),		/* random.c */
	SYSCALL(383, sys_statx),		/* stat.c */
	SYSCALL(386, sys_rseq),			/* thread.c (ENOSYS, as without CONFIG_RSEQ) */
	SYSCALL(403, sys_clock_gettime64),	/* systime.c */
	SYSCALL(422, sys_futex_time64),		/* futex.c */
	SYSCALL(435, sys_clone3),		/* thread.c (ENOSYS, as before Linux 5.3) */
	/* Only here (docs/abi.md §4: 500 and up). */
	SYSCALL(500, sys_sched_task_stats),	/* sched/syscalls.c */
	SYSCALL(501, sys_sched_cpu_stats),	/* sched/syscalls.c */
	SYSCALL(502, sys_sched_tunable),	/* sched_glue.c */
	SYSCALL(503, sys_test_mutex),		/* mutex.c */
	SYSCALL(504, sys_trace),		/* trace.c */
	SYSCALL(505, sys_free_frames),		/* pmm.c */
	SYSCALL(506, sys_sched_topology),	/* drivers/topology.c */
	SYSCALL(507, sys_proc_name),		/* proc.c */
	SYSCALL(__NR_lock_stat, sys_lock_stat),	/* lockstat.c */
	SYSCALL(508, sys_proc_ids),		/* proc.c */
};

/* tools/mksyscallnames.sh, from Linux's asm/unistd_32.h at build time. */
extern const char *const linux_syscall_names[];
extern const unsigned linux_syscall_names_count;

/*
 * A call this kernel does not have: -ENOSYS, as Linux gives for one it
 * does not have, and one console line the first time each number is
 * asked for, so that a real program shows what ABI is missing (numbers
 * from 1,024 up share one line). Out of line: no known call pays for it.
 */
static __attribute__((noinline)) int syscall_unknown(uint32_t nr)
{
	static uint32_t logged[1024 / 32 + 1];
	uint32_t bit = nr < 1024 ? nr : 1024;
	if (__atomic_fetch_or(&logged[bit / 32], 1u << (bit % 32), __ATOMIC_RELAXED) &
	    (1u << (bit % 32)))
		return -ENOSYS;
	const char *name = nr < linux_syscall_names_count ? linux_syscall_names[nr] : NULL;
	struct proc *p = current();
	printk("syscall: unimplemented system call %u (%s) from %s[%d]; -ENOSYS "
	       "(logged once per number)\n", nr, name ? name : "not a Linux i386 call",
	       p->name, p->pid);
	return -ENOSYS;
}

/*
 * int 0x80 lands here from trapentry.asm's syscall_entry, not through
 * trap(): the number picks the function and the result goes back in eax.
 * Interrupts are on (a trap gate), so a long call does not hold off the
 * timer. On the way out, signals and the scheduler get their turn
 * (proc_return_to_user); most calls find nothing to do and return here.
 */
void syscall(struct trapframe *tf)
{
	struct proc *p = current();
	uint32_t nr = tf->eax;
	int ret;

	p->syscall_nr = (int)nr;	/* for a restart after a signal */
	if (nr < NSYSCALLS && syscalls[nr])
		ret = syscalls[nr](tf->ebx, tf->ecx, tf->edx, tf->esi, tf->edi, tf->ebp);
	else
		ret = syscall_unknown(nr);
	/* execve replaced the whole trap frame; its eax must start at 0. */
	tf->eax = (uint32_t)ret;
	cli();
	if (return_work(p, tf)) {
		sti();
		proc_return_to_user(tf);
	}
}
