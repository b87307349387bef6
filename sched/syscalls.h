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
#include "sched.h"		/* struct timespec32 */

#define PRIO_PROCESS	0
#define PRIO_PGRP	1
#define PRIO_USER	2

struct sched_param {		/* Linux's */
	int32_t sched_priority;
};


/* sys_sched_task_stats(): one task, as the scheduler sees it. 80 bytes. */
struct sched_task_info {
	int32_t pid, policy, rt_priority, nice;
	int32_t prio, static_prio, burst, slice;	/* slice: ticks left */
	int32_t time_slice, cpu, state, flags;		/* time_slice: ticks left */
	uint32_t utime, stime, nr_runs, cpus_allowed;	/* utime/stime in ticks */
	uint64_t wait_ns;				/* runnable but not running */
	int32_t max_burst, full_slice;
};

/* sys_sched_cpu_stats(): one CPU. 56 bytes. */
struct sched_cpu_info {
	uint64_t user_ticks, nice_ticks, system_ticks, idle_ticks;
	int32_t cpu, nr_running;
	int32_t iso_share_permille;	/* decaying share of ISO ticks, 0..1000 */
	int32_t iso_throttled;		/* 1: ISO tasks run as BATCH here */
	int32_t curr_pid;		/* 0 when idle */
	int32_t lost_ticks;		/* ticks the timer never delivered (host stalls) */
};

int sys_sched_setscheduler(int pid, int policy, const void *uparam);
int sys_sched_getscheduler(int pid);
int sys_sched_setparam(int pid, const void *uparam);
int sys_sched_getparam(int pid, void *uparam);
int sys_sched_get_priority_max(int policy);
int sys_sched_get_priority_min(int policy);
int sys_sched_rr_get_interval(int pid, void *utimespec);
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

#endif
