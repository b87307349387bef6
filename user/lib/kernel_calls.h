/*
 * kernel_calls.h - the calls that exist only on our kernel (numbers >= 500).
 *
 * This is the one user-side table of them; the kernel keeps the matching
 * table in kernel/.  On Linux every one of these fails with errno ENOSYS, so
 * a program calls kernel_is_ours() first and prints "# SKIP" otherwise.
 *
 * The two structs mirror sched/syscalls.h (struct sched_task_info, 80 bytes,
 * and struct sched_cpu_info, 56 bytes); the static asserts catch a drift.
 * The argument convention of 502 (id, op, value) is ours to agree on.
 */
#ifndef USER_KERNEL_CALLS_H
#define USER_KERNEL_CALLS_H

#include <stdint.h>
#include <sys/types.h>

#define SYS_sched_stat     500	/* (pid, struct sched_task_info *)   */
#define SYS_sched_cpustat  501	/* (cpu, struct sched_cpu_info *)    */
#define SYS_sched_tunable  502	/* (id, op, value)                   */
#define SYS_test_mutex     503	/* (op, arg)                         */
#define SYS_trace          504	/* (op, arg)  kernel/trace.c, docs/trace.md */
#define SYS_free_frames    505	/* ()  free physical frames, for leak tests */
#define SYS_sched_topology 506	/* (cpu, struct sched_topology_info *) */
#define SYS_proc_name      507	/* (pid, char *buf, len >= 16): name, for ps */
#define SYS_proc_ids       508	/* (pid, struct proc_ids *): parent, ids, start, for ps */

/* One task as the scheduler sees it (500).  Ticks are 1/hz s. */
struct sched_task_info {
	int32_t pid, policy, rt_priority, nice;
	int32_t prio, static_prio, burst, slice;	/* slice: ticks left */
	int32_t time_slice, cpu, state, flags;		/* ticks left */
	uint32_t utime, stime, nr_runs, cpus_allowed;	/* times in ticks */
	uint64_t wait_ns;				/* runnable, waiting */
	int32_t max_burst, full_slice;
};
_Static_assert(sizeof(struct sched_task_info) == 80, "matches the kernel");

/* One CPU (501). */
struct sched_cpu_info {
	uint64_t user_ticks, nice_ticks, system_ticks, idle_ticks;
	int32_t cpu, nr_running;
	int32_t iso_share_permille;	/* decaying share of ISO ticks */
	int32_t iso_throttled;		/* 1: ISO tasks run as BATCH here */
	int32_t curr_pid;		/* 0 when idle */
	int32_t lost_ticks;		/* ticks never delivered: the host did not run this vCPU */
};
_Static_assert(sizeof(struct sched_cpu_info) == 56, "matches the kernel");

/* Where a CPU sits (506): CPUs with the same package and core are
 * hyperthread siblings; siblings is that set as a mask. */
struct sched_topology_info {
	int32_t ncpus, package, core, thread;
	uint32_t siblings;
};
_Static_assert(sizeof(struct sched_topology_info) == 20, "matches the kernel");

/* Tunables (502), staircase.md §9; ids as sched/tunables.h.  op GET returns
 * the value; op SET stores `value` (root only) and returns 0. */
enum sched_tunable_id {
	SCHED_TUNABLE_HZ = 0,		/* read only */
	SCHED_TUNABLE_INTERACTIVE = 1,
	SCHED_TUNABLE_COMPUTE = 2,
	SCHED_TUNABLE_RR_INTERVAL = 3,	/* milliseconds */
	SCHED_TUNABLE_PER_CPU_GAIN = 4,	/* percent */
	SCHED_TUNABLE_ISO_CPU = 5,	/* percent */
	SCHED_TUNABLE_CACHE_DELAY = 6,	/* milliseconds */
	SCHED_TUNABLE_ROTATE = 7,	/* 0/1: balancer rotation [beyond] */
};
#define SCHED_TUNABLE_GET 0
#define SCHED_TUNABLE_SET 1

/* The kernel mutexes of the priority-inversion test (503). */
#define TEST_MUTEX_LOCK    0	/* arg: mutex index 0..3; sleeps uninterruptibly */
#define TEST_MUTEX_UNLOCK  1	/* arg: mutex index */
#define TEST_KERNEL_SPIN   3	/* arg: ms; root only: loop in kernel mode (watchdog test) */
#define TEST_STACK_OVERFLOW 4	/* root only: overflow the kernel stack (a panic, by design) */
#define TEST_SPIN_HOLD     5	/* arg: us (0..1000); hold the spinlock "test spin" */
#define TEST_MUTEX_HOLD_SLEEP 2	/* arg: ms; in one call: lock mutex 0, sleep
				 * uninterruptibly ms, unlock (all in kernel mode) */

/* Trace control (504). */
#define TRACE_STOP   0
#define TRACE_START  1	/* arg: event mask, 0 = all */
#define TRACE_CLEAR  2
#define TRACE_DUMP   3	/* print the buffer on the console */
#define TRACE_STREAM 4	/* arg: event mask, 0 = all; clear, record, stream to COM2 */
#define TRACE_DRAIN  5	/* send what was recorded since the last drain to COM2 */

/* Wrappers: 0 (or the value) on success, -1 and errno on failure. */
int sched_stat(pid_t pid, struct sched_task_info *info);
int sched_cpustat(int cpu, struct sched_cpu_info *info);
int sched_tunable_get(int id);
int sched_tunable_set(int id, int value);
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
struct proc_ids {
	int32_t pid, ppid, pgid, sid;
	int32_t uid, euid, gid, egid;
	uint32_t start_ms;		/* since boot */
	int32_t tty;			/* 1: in the console's session (ttyS0) */
};
int proc_ids(pid_t pid, struct proc_ids *ids);

/* 1 when running on our kernel (uname sysname is not "Linux"). */
int kernel_is_ours(void);

#endif
