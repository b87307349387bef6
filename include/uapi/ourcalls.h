/*
 * uapi/ourcalls.h - what the calls only this kernel has (500 and up,
 * docs/abi.md §4; their numbers are in uapi/unistd.h) exchange: the records
 * they fill and the operations they take. Defined once, for the kernel
 * (sched/syscalls.c, kernel/task/proc.c, drivers/topology.c, kernel/debug/trace.c,
 * kernel/task/sched_glue.c) and the small libc (user/lib/kernel_calls.h).
 */
#ifndef UAPI_OURCALLS_H
#define UAPI_OURCALLS_H

#include <stdint.h>

/* 500, sched_task_stats(pid, struct *): one task as the scheduler sees it.
 * Ticks are 1/hz s. 80 bytes. */
struct sched_task_info {
	int32_t pid, policy, rt_priority, nice;
	int32_t prio, static_prio, burst, slice;	/* slice: ticks left */
	int32_t time_slice, cpu, state, flags;		/* time_slice: ticks left */
	uint32_t utime, stime, nr_runs, cpus_allowed;	/* utime/stime in ticks */
	uint64_t wait_ns;				/* runnable but not running */
	int32_t max_burst, full_slice;
};

/* 501, sched_cpu_stats(cpu, struct *): one CPU. 56 bytes. */
struct sched_cpu_info {
	uint64_t user_ticks, nice_ticks, system_ticks, idle_ticks;
	int32_t cpu, nr_running;
	int32_t iso_share_permille;	/* decaying share of ISO ticks, 0..1000 */
	int32_t iso_throttled;		/* 1: ISO tasks run as BATCH here */
	int32_t curr_pid;		/* 0 when idle */
	int32_t lost_ticks;		/* ticks the timer never delivered (host stalls) */
};

/* 502, sched_tunable(id, op, value): staircase.md §9. GET returns the
 * value; SET stores it (root only) and returns 0; DESCRIBE fills the
 * struct sched_tunable_desc that value points to and returns 0. An id past
 * the last is EINVAL for every op, so a reader counts them by asking. */
#define SCHED_TUNABLE_GET	0
#define SCHED_TUNABLE_SET	1
#define SCHED_TUNABLE_DESCRIBE	2

/* One tunable as the kernel's table (sched/tunables.c) gives it; strings
 * NUL-terminated. 148 bytes. */
struct sched_tunable_desc {
	int32_t min, max;	/* a value outside min..max is EINVAL */
	int32_t dflt;		/* the value at boot without a boot parameter */
	int32_t read_only;	/* 1: set at boot only (hz) */
	char name[32];		/* boot parameter and /proc/sys/kernel file */
	char unit[4];		/* "ms", "%", "Hz", "ns" or "" */
	char meaning[96];	/* one line, for tune's listing */
};
enum sched_tunable_id {
	SCHED_TUNABLE_HZ = 0,		/* read only */
	SCHED_TUNABLE_INTERACTIVE = 1,
	SCHED_TUNABLE_COMPUTE = 2,
	SCHED_TUNABLE_RR_INTERVAL = 3,	/* milliseconds */
	SCHED_TUNABLE_PER_CPU_GAIN = 4,	/* percent */
	SCHED_TUNABLE_ISO_CPU = 5,	/* percent */
	SCHED_TUNABLE_CACHE_DELAY = 6,	/* milliseconds */
	SCHED_TUNABLE_ROTATE = 7,	/* 0/1: balancer rotation [beyond] */
	/* cfs and eevdf (sched=cfs, docs/cfs.md §6), by Linux's names */
	SCHED_TUNABLE_LATENCY_NS = 8,	/* sched_latency_ns */
	SCHED_TUNABLE_MIN_GRANULARITY_NS = 9,	/* sched_min_granularity_ns */
	SCHED_TUNABLE_WAKEUP_GRANULARITY_NS = 10,	/* sched_wakeup_granularity_ns */
	SCHED_TUNABLE_CHILD_RUNS_FIRST = 11,	/* sched_child_runs_first: 0/1 */
	SCHED_TUNABLE_COMPAT_YIELD = 12,	/* sched_compat_yield: 0/1 */
	SCHED_TUNABLE_BASE_SLICE_NS = 13,	/* sched_base_slice_ns (eevdf) */
	SCHED_TUNABLE_NR
};

/* 503, test_mutex(op, arg): the boot tests' kernel mutexes (kernel/sync/mutex.c). */
#define TEST_MUTEX_LOCK		0	/* arg: mutex index 0..3; sleeps uninterruptibly */
#define TEST_MUTEX_UNLOCK	1	/* arg: mutex index */
#define TEST_MUTEX_HOLD_SLEEP	2	/* arg: ms; in one call: lock mutex 0, sleep
					 * uninterruptibly ms, unlock (all in kernel mode) */
#define TEST_KERNEL_SPIN	3	/* arg: ms; root only: loop in kernel mode (watchdog test) */
#define TEST_STACK_OVERFLOW	4	/* root only: overflow the kernel stack (a panic, by design) */
#define TEST_SPIN_HOLD		5	/* arg: us (0..1000); hold the spinlock "test spin" */

/* 504, trace(op, arg): kernel/debug/trace.c, docs/trace.md. */
#define TRACE_STOP	0
#define TRACE_START	1	/* arg: event mask, 0 = all */
#define TRACE_CLEAR	2
#define TRACE_DUMP	3	/* print the buffer on the console */
#define TRACE_STREAM	4	/* arg: event mask, 0 = all; clear, record, stream to COM2 */
#define TRACE_DRAIN	5	/* arg: most lines, 0 = all; send what was recorded since the last drain to COM2 */
#define TRACE_RECORD	6	/* arg: event mask, 0 = all; as STREAM, into rings as large as memory
				 * allows; the first DRAIN ends the recording; returns records per CPU */

/* 506, sched_topology(cpu, struct *): where a CPU sits. CPUs with the same
 * package and core are hyperthread siblings; siblings is that set. */
struct sched_topology_info {
	int32_t ncpus, package, core, thread;
	uint32_t siblings;		/* CPUs on the same core, cpu included */
};

/* 508, proc_ids(pid, struct *): what ps -ef and ps aux show in UID, PPID,
 * STIME (Linux's /proc/PID/stat and status). */
struct proc_ids {
	int32_t pid, ppid, pgid, sid;
	int32_t uid, euid, gid, egid;
	uint32_t start_ms;		/* since boot */
	int32_t tty;			/* 1: in the console's session (ttyS0) */
};

#endif
