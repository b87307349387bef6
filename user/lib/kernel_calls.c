/* kernel_calls.c - wrappers for our kernel's own calls (kernel_calls.h). */
#include <string.h>
#include <sys/utsname.h>

#include "kernel_calls.h"
#include "syscall.h"
#include <uapi/lockstat.h>

int sched_stat(pid_t pid, struct sched_task_info *info)
{
	return __syscall_ret(syscall2(__NR_sched_task_stats, pid, (long)info));
}

int sched_cpustat(int cpu, struct sched_cpu_info *info)
{
	return __syscall_ret(syscall2(__NR_sched_cpu_stats, cpu, (long)info));
}

int sched_tunable_get(int id)
{
	return __syscall_ret(syscall3(__NR_sched_tunable, id,
				      SCHED_TUNABLE_GET, 0));
}

int sched_tunable_set(int id, int value)
{
	return __syscall_ret(syscall3(__NR_sched_tunable, id,
				      SCHED_TUNABLE_SET, value));
}

int sched_tunable_describe(int id, struct sched_tunable_desc *desc)
{
	return __syscall_ret(syscall3(__NR_sched_tunable, id,
				      SCHED_TUNABLE_DESCRIBE, (long)desc));
}

int test_mutex(int op, int arg)
{
	return __syscall_ret(syscall2(__NR_test_mutex, op, arg));
}

int trace_ctl(int op, int arg)
{
	return __syscall_ret(syscall2(__NR_trace, op, arg));
}

int kernel_is_ours(void)
{
	struct utsname u;

	if (uname(&u) < 0)
		return 0;
	return strcmp(u.sysname, "Linux") != 0;
}

int free_frames(void)
{
	return __syscall_ret(syscall0(__NR_free_frames));
}

int sched_topology(int cpu, struct sched_topology_info *info)
{
	return __syscall_ret(syscall2(__NR_sched_topology, cpu, (long)info));
}

int proc_ids(pid_t pid, struct proc_ids *ids)
{
	return __syscall_ret(syscall2(__NR_proc_ids, pid, (long)ids));
}

int proc_name(pid_t pid, char *buf, size_t len)
{
	return __syscall_ret(syscall3(__NR_proc_name, pid, (long)buf, (long)len));
}

int lock_stat_read(struct lock_stat_info *buf, int n)
{
	return __syscall_ret(syscall3(__NR_lock_stat, LOCK_STAT_READ, (int)buf, n));
}

int lock_stat_reset(void)
{
	return __syscall_ret(syscall3(__NR_lock_stat, LOCK_STAT_RESET, 0, 0));
}

int lock_stat_set(int on)
{
	return __syscall_ret(syscall3(__NR_lock_stat, LOCK_STAT_SET, on, 0));
}

int lock_stat_state(void)
{
	return __syscall_ret(syscall3(__NR_lock_stat, LOCK_STAT_STATE, 0, 0));
}
