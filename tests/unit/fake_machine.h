/*
 * fake_machine.h - a fake machine for running sched/ on the host.
 *
 * It implements everything sched/machine.h and lib/spinlock.h declare:
 * a clock the test advances by hand, CPUs that are just a number
 * (fake_cpu), reschedule requests recorded in fake_need_resched[], locks
 * that do not spin but still catch misuse (taking a lock twice, releasing
 * one not held), a task table for sched_find_task, and a "user memory"
 * region outside of which copy_to_user/copy_from_user fail with -EFAULT.
 * The unit tests and the simulator (tools/sim) share it.
 */
#ifndef FAKE_MACHINE_H
#define FAKE_MACHINE_H

#include <stdint.h>
#include <stdbool.h>
#include <setjmp.h>
#include "../../sched/sched.h"
#include "../../sched/machine.h"

/* 4,096: the simulator's --picknext runs 4,000 hogs (issue 32), as
 * make bench's picknext does in the kernel. */
#define FAKE_MAX_PROCS	4096
#define FAKE_HZ		1000
#define TICK_NS		(1000000000ull / FAKE_HZ)

/* A process of the fake kernel: the scheduler's part plus credentials. */
struct fake_proc {
	struct sched_task sched;
	int pid, uid, euid;
	int pgid;		/* 1 unless a test moves it (PRIO_PGRP) */
	bool used;
};

extern uint64_t fake_now_ns;
extern int fake_cpu;
extern int fake_ncpus;
extern bool fake_need_resched[SCHED_MAX_CPUS];
extern int fake_irq_off[SCHED_MAX_CPUS];	/* disable depth, locks included */
extern struct fake_proc fake_procs[FAKE_MAX_PROCS];
extern struct fake_proc fake_idle[SCHED_MAX_CPUS];

/* Trace: every sched_trace() call, in order. */
struct fake_trace_rec {
	uint64_t ns;
	int cpu, event, pid, arg;
	int policy;		/* SCHED_*, FAKE_POLICY_IDLE or FAKE_POLICY_NONE, as kernel/debug/trace.c */
};
#define FAKE_POLICY_IDLE SCHED_NR_POLICIES
#define FAKE_POLICY_NONE (-1)
#define FAKE_TRACE_MAX 200000
extern struct fake_trace_rec fake_trace[FAKE_TRACE_MAX];
extern int fake_trace_len;
int fake_trace_count(int event, int pid);	/* pid -1 = any */
/* References sched_find_task() handed out and sched_put_task() has not
 * dropped: 0 after every test (main.c checks), or a syscall leaks one. */
extern int fake_task_refs;
extern int fake_migrated_running;	/* TRACE_MIGRATE of a running task, or a CPU's
					 * current task found on another CPU */
/* If set, also called with every record, even once fake_trace[] is full
 * (the simulator prints them). Not reset by fake_boot(). */
extern void (*fake_trace_hook)(const struct fake_trace_rec *r);

/* If set, called by spin_lock() once it holds l: a test makes another
 * CPU's work happen between a caller's unlocked read and its lock (a
 * balancer pulling a task, say). fake_boot() clears it. */
extern void (*fake_lock_hook)(struct spinlock *l);

/* Assertion failures jump here when set (the test runner sets it). */
extern jmp_buf *fake_assert_jmp;
extern char fake_assert_msg[256];

/* Reset the machine and boot the scheduler on ncpus CPUs (topo may be NULL). */
void fake_boot(int ncpus, const struct sched_topology *topo);
/* The class fake_boot selects ("staircase" unless a test sets it). */
extern const char *fake_class;
/* ... with a timer of hz instead of FAKE_HZ (the simulator's 'hz'). */
void fake_boot_hz(int ncpus, const struct sched_topology *topo, int hz);
/* Length of a tick: 1 s / the scheduler's hz. */
uint64_t fake_tick_ns(void);
/* A new task (not yet runnable) on CPU cpu; uid/euid for permission tests. */
struct fake_proc *fake_new_task(int cpu, int uid, int euid);
/* ... and make it runnable there (sched_wake_new). */
struct fake_proc *fake_spawn(int cpu, int uid, int euid);
struct fake_proc *fake_of(struct sched_task *t);
int fake_pid(struct sched_task *t);	/* 0 for an idle task or NULL */

/* What the kernel's schedule() does, on CPU cpu: returns the new current. */
struct sched_task *fake_schedule(int cpu);
/* The timer interrupt on CPU cpu. */
void fake_tick(int cpu, bool user_mode);
/* Call schedule() on every CPU that has a reschedule request pending. */
void fake_resched_pending(void);
/* The running task of CPU cpu. */
struct sched_task *fake_curr(int cpu);
/* Put CPU cpu's current task to sleep (state) and schedule. */
void fake_sleep(int cpu, int state);

/* User memory: pointers into this region are valid user addresses. */
#define FAKE_USER_SIZE 4096
extern uint8_t fake_user_mem[FAKE_USER_SIZE];
#define FAKE_BAD_PTR ((void *)1)

#endif
