/*
 * sched/ - the scheduler: the staircase and the lineage classes, plain
 * C with no hardware. It includes only itself and the base (lib/,
 * include/uapi/), and reaches the machine only through machine.h, so it
 * builds unchanged into the kernel, the host unit tests and the simulator.
 * Locks: each run queue's lock, innermost of all (docs/scheduler.md).
 *
 * Face of this folder. May call: lib.
 *
 * sched.h - the staircase scheduler: what the kernel sees.
 *
 * The rules are docs/staircase.md (v7.F staircase plus the seeds'
 * BATCH and ISO policies); docs/scheduler.md walks through the code.
 *
 * HOW THE KERNEL DRIVES THE SCHEDULER
 *
 *   Boot (one CPU, before other CPUs start):
 *     sched_set_hz(hz); sched_setup_param(key, value) for each sched_* key;
 *     sched_init(ncpus, &topology);
 *     sched_init_idle(cpu, &idle_proc[cpu].sched) for every CPU (the idle
 *       task is rq->curr until something else runs; it is never queued);
 *     sched_task_init(&init.sched, false); sched_wake_new(&init.sched).
 *
 *   Task creation: sched_task_init(&p->sched, kthread) for a new kernel
 *     thread, or sched_fork(&parent->sched, &child->sched) for fork (parent =
 *     current); finish building the child, then sched_wake_new(&child->sched).
 *
 *   Sleeping (in process context, no sched lock held):
 *     sched_set_current_state(TASK_INTERRUPTIBLE or TASK_UNINTERRUPTIBLE);
 *     if (!condition) schedule();  else sched_set_current_state(TASK_RUNNING);
 *   (UISLEEP is set by sched_schedule() when an uninterruptible task really
 *   leaves the queue, as in the seed, so a wake-up that comes first leaves
 *   no stale flag.)
 *   Exit: sched_set_current_state(TASK_DEAD); schedule(); (never returns).
 *
 *   The kernel's schedule() (interrupts OFF from before sched_schedule()
 *   until after sched_finish_switch(), no sched lock held):
 *     cpu->need_resched = 0;
 *     prev = current; next = sched_schedule();
 *     if (next != prev) { switch stacks to next;
 *                         sched_finish_switch(prev);  (in next's context) }
 *   A new task's first return from the switch must also call
 *   sched_finish_switch(prev) before it enables interrupts.
 *   After sched_finish_switch(prev) returns, a TASK_DEAD prev may be freed.
 *
 *   Waking: sched_wake_up(t) from any CPU, any context (interrupt handlers
 *     included), no sched lock held. It calls resched_cpu() when t should
 *     preempt; the kernel then schedules on its way back to user mode (the
 *     kernel itself is not preemptible).
 *
 *   Timer: sched_tick(user_mode) on every CPU, HZ times a second, from the
 *     timer interrupt (interrupts off, no sched lock held). user_mode says
 *     whether the interrupted code was in user mode (for accounting).
 *     Periods that passed without an interrupt (the timer lost them) go to
 *     sched_account_lost_ticks(n, user_mode) from the same place.
 *
 *   Syscalls: see sched/syscalls.h (called in process context, interrupts
 *     on, no lock held). Afterwards the kernel must honour need_resched on
 *     the way back to user mode, as after any interrupt.
 */
#ifndef SCHED_SCHED_H
#define SCHED_SCHED_H

#include <stdint.h>
#include <stdbool.h>

#define SCHED_MAX_CPUS	32

/* Policies: the Linux i386 numbers plus the -ck ones (staircase.md §1),
 * in include/uapi/sched.h, the one definition user space shares. */
#include <uapi/sched.h>		/* SCHED_*, struct sched_param */
#include <uapi/time.h>		/* struct timespec32 (sched_rr_get_interval) */
/* LAB policy BEGIN */
#define SCHED_NR_POLICIES 5
/* LAB policy END */

/* Priorities (staircase.md §1): lower number = more urgent. */
#define MAX_RT_PRIO	100		/* 0..99 real time */
#define MAX_USER_RT_PRIO 100		/* rt_priority is 1..99 */
#define LOWEST_STAIR	139		/* the bottom of the staircase */
#define BATCH_PRIO	140		/* SCHED_BATCH: below every stair */
#define MAX_PRIO	141		/* the idle task; bitmap search stop */
#define NR_PRIO_LISTS	142		/* lists 0..141 */
#define NICE_LEVELS	40		/* nice -20..19 */
#define NICE_TO_PRIO(nice)	(MAX_RT_PRIO + NICE_LEVELS / 2 + (nice))
#define PRIO_TO_NICE(prio)	((prio) - MAX_RT_PRIO - NICE_LEVELS / 2)
#define USER_PRIO(p)		((p)->static_prio - MAX_RT_PRIO)	/* 0..39 */

/* Task states. Only sched/ and the sleep helper write them. */
#define TASK_RUNNING		0
#define TASK_INTERRUPTIBLE	1
#define TASK_UNINTERRUPTIBLE	2
#define TASK_DEAD		4
#define TASK_WAKING		8	/* transient: a waker owns the task */
#define TASK_STOPPED		16	/* stopped by a signal: asleep until SIGCONT (staircase.md §6.8) */

/* Task flags (staircase.md §3), plus one for affinity moves. */
#define SF_FORKED	0x1	/* set on the parent at fork */
#define SF_YIELDED	0x2	/* set by yield (and BATCH's run at 139) */
#define SF_UISLEEP	0x4	/* went to uninterruptible sleep; cleared on wake */
#define SF_MIGRATE	0x8	/* leave this CPU at the next schedule() */
#define SF_NEWBORN	0x10	/* forked, not yet run: one stair below its parent (§6.6) */

/* A doubly linked list node; the run-queue lists are made of these. */
struct sched_list {
	struct sched_list *next, *prev;
};

/* Per-task statistics, read through sched_task_stats(). */
struct sched_task_stats {
	uint32_t utime, stime;		/* ticks charged in user / kernel mode */
	uint32_t nr_runs;		/* times switched in */
	uint32_t nvcsw;			/* switched out asleep (getrusage; the other
					 * switches out, preempted or yielding, are
					 * nr_runs less these, less the running one) */
	uint64_t wait_ns;		/* total time runnable but not running */
	uint64_t queued_ns;		/* when it last became runnable-waiting */
	uint64_t last_ran_ns;		/* when it last stopped running */
};

struct sched_task;

/* CFS's part of a task (policy_cfs.c, docs/cfs.md), in ns and virtual ns. */
struct sched_fair_entity {
	uint64_t vruntime;		/* virtual ns run: each ns counts 1024 / weight */
	uint64_t key;			/* vruntime when it was queued: its place in the list */
	uint64_t sum_exec;		/* ns run in all */
	uint64_t prev_sum_exec;		/* sum_exec when it was last picked */
	uint64_t exec_start;		/* when update_curr last charged it */
	uint32_t weight;		/* its weight while queued (in rq->fair.load) */
	/* eevdf (policy_eevdf.c, docs/eevdf.md) */
	uint64_t deadline;		/* vruntime + its slice in virtual ns */
	int64_t vlag;			/* V - vruntime when it left the queue; the
					 * deadline while it runs (RUN_TO_PARITY) */
	bool initial;			/* its next enqueue is its first (fork) */
	/* its node in eevdf's tree (eevdf_tree.c) while it waits */
	struct sched_task *left, *right;
	uint64_t min_deadline;		/* the earliest deadline in its subtree */
	uint64_t seq;			/* when it was put in: orders equal keys */
	int height;			/* of its subtree, 1 for a leaf */
	bool in_tree;
};

/* o1's part of a task (policy_o1.c, docs/o1.md); its slice is time_slice. */
struct sched_o1_entity {
	uint64_t sleep_avg;		/* ns, 0..1 s: the interactivity estimate */
	int credit;			/* interactive_credit, -100..+100 and past */
	int activated;			/* -1: woken from D; 1: woken; 0: ran since */
	bool first_slice;		/* still on the slice fork gave it */
	bool expired;			/* on the expired array */
	bool fork_first;		/* its first enqueue: before its parent */
};

/* sd's part of a task (policy_sd.c, docs/sd.md); its quota left at its
 * level is time_slice. */
struct sched_sd_entity {
	int level;			/* 100..139: where its quota is; 0: none yet */
	uint32_t rotation;		/* its run queue's major rotation it belongs to */
	bool expired;			/* on the expired array */
	bool stale;			/* its next enqueue gives a fresh quota at level */
};

/*
 * The scheduler's part of a process. The kernel embeds one in struct proc
 * and never writes its fields: sched/ owns all of them.
 */
struct sched_task {
	struct sched_list run_list;	/* link in rq->queue[prio] */
	int policy;			/* SCHED_* */
	int rt_priority;		/* 1..99 for FIFO/RR, else 0 */
	int static_prio;		/* 120 + nice */
	int prio;			/* current stair / list index */
	int burst;			/* extra RR intervals on the top stair */
	int slice;			/* ticks left of the whole slice */
	int time_slice;			/* ticks left of the current quantum */
	uint64_t runtime;		/* ns: the last on-CPU stint */
	uint64_t totalrun;		/* ns: run time across continued wake-ups */
	uint64_t timestamp;		/* ns: became runnable / started running */
	volatile uint32_t flags;	/* SF_*; written under the task's rq lock */
	volatile int state;		/* TASK_* */
	volatile int cpu;		/* the CPU whose queue it is (or was) on */
	uint32_t cpus_allowed;		/* bit i = may run on CPU i */
	volatile int on_rq;		/* on cpu's run queue (running or waiting) */
	volatile int on_cpu;		/* some CPU is still on its stack */
	int migrate_to;			/* SF_MIGRATE target, or -1 = any allowed */
	uint32_t rotated_runs;		/* stats.nr_runs when balance.c last rotated it */
	bool is_kthread;		/* a kernel thread: no user mode, not BATCH */
	bool reset_on_fork;		/* SCHED_RESET_ON_FORK: its children start plain */
	bool is_idle;			/* a per-CPU idle task */
	struct sched_task_stats stats;
	struct sched_fair_entity fair;	/* cfs and eevdf's; unused by the staircase */
	struct sched_o1_entity o1;	/* o1's */
	struct sched_sd_entity sdl;	/* sd's (staircase deadline) */
};

/* Topology from CPUID/ACPI: which package, core and thread each CPU is. */
struct sched_topology {
	struct {
		int package, core, thread;
	} cpu[SCHED_MAX_CPUS];
};

/* ---- boot ---- */
/* The tick rates the kernel's timer runs at (drivers/timer.c, tested at
 * both ends): the range of hz=, and of the hz tunable. */
#define HZ_MIN		100
#define HZ_MAX		1000
void sched_set_hz(int hz);	/* the timer frequency; default 1000 */
int sched_hz(void);		/* ticks per second, as sched_set_hz() set it */
void sched_init(int ncpus, const struct sched_topology *topo);	/* topo may be NULL */
void sched_init_idle(int cpu, struct sched_task *idle);

/* ---- lineage mode (docs/lineage.md): the scheduler, chosen at boot ---- */
/* Before sched_init(): "staircase" (the default), "cfs", "eevdf";
 * 0, or -EINVAL with the choice unchanged. */
int sched_select_class(const char *name);
const char *sched_class_name(void);	/* the chosen one's sched= word */
const char *sched_class_title(void);	/* what it is, in a few words */
const char *sched_class_names(void);	/* every valid name, space-separated */

/* ---- tasks ---- */
void sched_task_init(struct sched_task *t, bool kthread);
void sched_fork(struct sched_task *parent, struct sched_task *child);
void sched_wake_new(struct sched_task *t);
struct sched_task *sched_current(void);
void sched_set_current_state(int state);

/* ---- the core ---- */
struct sched_task *sched_schedule(void);
void sched_finish_switch(struct sched_task *prev);
bool sched_wake_up(struct sched_task *t);
void sched_tick(bool user_mode);
void sched_account_lost_ticks(unsigned n, bool user_mode);	/* statistics only */

/* ---- kernel-level changes (syscalls.c checks permissions first) ---- */
void sched_set_user_nice(struct sched_task *t, int nice);
int sched_task_nice(const struct sched_task *t);
uint32_t sched_task_nivcsw(const struct sched_task *t);	/* getrusage's ru_nivcsw */
void sched_set_policy(struct sched_task *t, int policy, int rt_priority);
int sched_set_cpus_allowed(struct sched_task *t, uint32_t mask);	/* 0 / -EINVAL */
void sched_do_yield(void);
/* The kernel gave t another pid (an exec from a thread takes its group
 * leader's); old_pid is the one it had. Only recorded: a pid_change event. */
void sched_note_pid_change(struct sched_task *t, int old_pid);
uint32_t sched_online_mask(void);	/* bit i set for each CPU 0..ncpus-1 */

#endif
