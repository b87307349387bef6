/*
 * kernel_calls.h - the calls that exist only on our kernel (numbers >= 500).
 *
 * This is the one user-side table of them; the kernel keeps the matching
 * table in kernel/.  On Linux every one of these fails with errno ENOSYS, so
 * a program calls kernel_is_ours() first and prints "# SKIP" otherwise.
 *
 * The struct layouts are a PROPOSAL to settle with the kernel team: plain
 * 32/64-bit fields, no padding surprises, and a leading `size` so either side
 * can grow the struct later (the kernel fills min(size, its size) bytes).
 */
#ifndef USER_KERNEL_CALLS_H
#define USER_KERNEL_CALLS_H

#include <stdint.h>
#include <sys/types.h>

#define SYS_sched_stat     500	/* (pid, struct sched_stat *)        */
#define SYS_sched_cpustat  501	/* (cpu, struct sched_cpustat *)     */
#define SYS_sched_tunable  502	/* (id, op, value) -> value          */
#define SYS_test_mutex     503	/* (op, arg)                         */
#define SYS_trace          504	/* (op, arg)                         */

/* Per-task statistics (500).  Times are nanoseconds since the task began. */
struct sched_stat {
	uint32_t size;		/* in: sizeof(struct sched_stat) */
	int32_t pid;
	int32_t policy;		/* SCHED_* */
	int32_t nice;		/* -20..19 */
	int32_t rt_priority;	/* 0..99 */
	int32_t prio;		/* current stair, 0..141 (spec section 1) */
	int32_t static_prio;
	int32_t burst;
	int32_t slice;		/* ticks left of the whole slice */
	int32_t time_slice;	/* ticks left of the current quantum */
	int32_t cpu;		/* CPU it last ran on */
	int32_t iso_demoted;	/* 1 while its CPU runs ISO as BATCH */
	uint64_t run_ns;	/* time on a CPU */
	uint64_t wait_ns;	/* time runnable but waiting */
	uint64_t nr_switches;	/* times switched in */
	uint64_t nr_wakeups;	/* sleeps that ended */
};

/* Per-CPU statistics (501). */
struct sched_cpustat {
	uint32_t size;		/* in: sizeof(struct sched_cpustat) */
	int32_t cpu;
	int32_t nr_running;
	int32_t iso_share;	/* decaying ISO share, per mille */
	int32_t iso_demoting;	/* 1 while ISO tasks run as BATCH */
	int32_t pad;
	uint64_t user_ns;	/* time in user tasks, not nice */
	uint64_t nice_ns;	/* BATCH and nice > 0 time */
	uint64_t system_ns;
	uint64_t idle_ns;
	uint64_t nr_switches;
	uint64_t nr_migrations;	/* tasks pulled to this CPU */
};

/* Tunables (502), spec section 9.  op GET returns the value; op SET stores
 * `value` (root only) and returns the old value. */
enum sched_tunable_id {
	SCHED_TUNABLE_HZ = 0,		/* read only */
	SCHED_TUNABLE_INTERACTIVE = 1,
	SCHED_TUNABLE_COMPUTE = 2,
	SCHED_TUNABLE_RR_INTERVAL = 3,	/* milliseconds */
	SCHED_TUNABLE_PER_CPU_GAIN = 4,	/* percent */
	SCHED_TUNABLE_ISO_CPU = 5,	/* percent */
	SCHED_TUNABLE_CACHE_DELAY = 6,	/* milliseconds */
};
#define SCHED_TUNABLE_GET 0
#define SCHED_TUNABLE_SET 1

/* The kernel mutex of the priority-inversion test (503). */
#define TEST_MUTEX_LOCK    0	/* arg: mutex index; sleeps uninterruptibly */
#define TEST_MUTEX_UNLOCK  1	/* arg: mutex index */

/* Trace control (504). */
#define TRACE_STOP   0
#define TRACE_START  1	/* arg: event mask, 0 = all */
#define TRACE_CLEAR  2
#define TRACE_DUMP   3	/* print the buffer on the console */

/* Wrappers: 0 (or the value) on success, -1 and errno on failure. */
int sched_stat(pid_t pid, struct sched_stat *st);
int sched_cpustat(int cpu, struct sched_cpustat *st);
int sched_tunable_get(int id);
int sched_tunable_set(int id, int value);	/* returns the old value */
int test_mutex(int op, int arg);
int trace_ctl(int op, int arg);

/* 1 when running on our kernel (uname sysname is not "Linux"). */
int kernel_is_ours(void);

#endif
