/*
 * syscalls.h - the scheduler's system calls, at the syscall boundary.
 *
 * Each takes the raw syscall arguments (user pointers included), checks
 * them in Linux's order (staircase.md §7.8), copies through copy_from_user /
 * copy_to_user and returns a value or -errno, exactly as the Linux i386
 * syscall would. Call them in process context, interrupts on, no lock
 * held; the kernel's syscall table maps numbers to them (Linux numbers
 * for the standard calls, 500+ for the ones that exist only here).
 *
 * Privilege is euid 0 (standing in for CAP_SYS_NICE).
 */
#ifndef SCHED_SYSCALLS_H
#define SCHED_SYSCALLS_H

#include <stdint.h>
#include "sched.h"		/* struct timespec32, struct sched_param (uapi) */
#include <uapi/resource.h>	/* PRIO_* */
#include <uapi/ourcalls.h>	/* struct sched_task_info, sched_cpu_info */

int sys_sched_setscheduler(int pid, int policy, const void *uparam);
int sys_sched_getscheduler(int pid);
int sys_sched_setparam(int pid, const void *uparam);
int sys_sched_getparam(int pid, void *uparam);
int sys_sched_setattr(int pid, void *uattr, uint32_t flags);
int sys_sched_getattr(int pid, void *uattr, uint32_t usize, uint32_t flags);
int sys_sched_get_priority_max(int policy);
int sys_sched_get_priority_min(int policy);
int sys_sched_rr_get_interval(int pid, void *utimespec);
int sys_sched_rr_get_interval_time64(int pid, void *utimespec);	/* 423: struct timespec64 */
int sys_sched_yield(void);
int sys_nice(int increment);			/* returns 0, as the raw syscall */
int sys_getpriority(int which, int who);	/* returns 20 - nice */
int sys_setpriority(int which, int who, int niceval);
int sys_sched_setaffinity(int pid, uint32_t len, const void *umask);
int sys_sched_getaffinity(int pid, uint32_t len, void *umask);	/* bytes written: 4 */

/* Only here (numbers 500+ in the kernel's table). */
int sys_sched_task_stats(int pid, void *uinfo);
int sys_sched_cpu_stats(int cpu, void *uinfo);
int sys_sched_get_tunable(int id);		/* value or -EINVAL */
int sys_sched_set_tunable(int id, int value);	/* -EINVAL, -EPERM */
int sys_sched_describe_tunable(int id, void *udesc);	/* -EINVAL, -EFAULT */

/* The same numbers for the kernel's own readers (/proc, kernel/procfs*.c):
 * no user memory, no permission check. quantum is rr_interval(p) (§4),
 * iso_throttled its CPU's ISO cap state (§7.5). */
struct sched_task_view {
	struct sched_task_info info;
	int quantum;
	int iso_throttled;
	uint32_t nvcsw, nivcsw;		/* switches out asleep, and while runnable */
	/* Lineage mode (docs/lineage.md): fair is 1 for a task of cfs or
	 * eevdf, which then has a vruntime and a run time in ns; eevdf is 1
	 * under eevdf, with a deadline and a lag (V - vruntime now while it
	 * is queued, the lag it left with while it is not). */
	int fair, eevdf;
	uint64_t vruntime, sum_exec_ns, deadline;
	int64_t lag;
	/* o1 is 1 for a task of o1 (docs/o1.md §2): its sleep_avg (ns,
	 * 0..1 s), the bonus 0..10 that gives, its interactive_credit and
	 * whether TASK_INTERACTIVE holds; sd is 1 for a task of sd (docs/sd.md
	 * §1): its level (100..139, 0 before its first quota), the quota left
	 * there in ticks (its time_slice) and its major rotation. Either's
	 * expired is 1 while it waits on the expired array. */
	int o1, sd;
	uint64_t sleep_avg;
	int bonus, credit, interactive, level, quota, expired;
	uint32_t rotation;
};
void sched_task_view(struct sched_task *p, struct sched_task_view *v);
int sched_cpu_view(int cpu, struct sched_cpu_info *info);	/* 0 / -EINVAL */

#endif
