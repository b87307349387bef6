/*
 * kernel_calls.h - the calls that exist only on our kernel (numbers >= 500).
 *
 * Their numbers are __NR_* in include/uapi/unistd.h, which the kernel's table
 * (kernel/syscall.c) uses too.  On Linux every one of these fails with errno ENOSYS, so
 * a program calls kernel_is_ours() first and prints "# SKIP" otherwise.
 *
 * Their structs and operations are include/uapi/ourcalls.h's, the kernel's
 * too.
 */
#ifndef USER_KERNEL_CALLS_H
#define USER_KERNEL_CALLS_H

#include <stdint.h>
#include <sys/types.h>

/* The records and operations, shared with the kernel. */
#include <uapi/ourcalls.h>

/* Wrappers: 0 (or the value) on success, -1 and errno on failure. */
int sched_stat(pid_t pid, struct sched_task_info *info);
int sched_cpustat(int cpu, struct sched_cpu_info *info);
int sched_tunable_get(int id);
int sched_tunable_set(int id, int value);
int sched_tunable_describe(int id, struct sched_tunable_desc *desc);
int test_mutex(int op, int arg);
int trace_ctl(int op, int arg);
int free_frames(void);
int sched_topology(int cpu, struct sched_topology_info *info);
/* A process's name (its program's file name) into buf (size >= 16). */
int proc_name(pid_t pid, char *buf, size_t len);
/* Lock statistics (509, include/uapi/lockstat.h): up to n classes into
 * buf, returning how many there are; lock_stat_reset() (root) zeroes them. */
struct lock_stat_info;
int lock_stat_read(struct lock_stat_info *buf, int n);
int lock_stat_reset(void);
/* Count from now on (1) or stop (0): root; off at boot. state: 1 counting. */
int lock_stat_set(int on);
int lock_stat_state(void);

/* Who a process is (508): what ps -ef and ps aux show. */
int proc_ids(pid_t pid, struct proc_ids *ids);

/* 1 when running on our kernel (uname sysname is not "Linux"). */
int kernel_is_ours(void);

#endif
