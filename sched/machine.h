/*
 * machine.h - everything the scheduler needs from the machine.
 *
 * sched/ is plain C with no hardware access. It is compiled three times:
 * into the kernel, into the host unit tests (tests/unit/fake_machine.c) and
 * into the host simulator (tools/sim). Each of them provides the functions
 * below; nothing else in sched/ may reach outside this directory. If a file
 * here needs an x86 header, the boundary has leaked.
 *
 * Context rules: every function here may be called with interrupts off and
 * with run-queue locks held, so none of them may sleep or take an rq lock.
 * Run-queue locks are innermost: sched/ calls nothing else while holding
 * one, and nobody outside sched/ ever holds one.
 *
 * sched/ calls no libc function. GCC may still emit memcpy/memset for a
 * struct copy even with -ffreestanding; the kernel provides both.
 *
 * The kernel's side, by file: kernel/task/sched_glue.c (this_cpu,
 * irqs_disabled, cpu_relax), kernel/time/time.c (clock_ns), kernel/arch/smp.c
 * (resched_cpu: an IPI), kernel/task/proc.c (sched_find_task, sched_put_task
 * and the task's pid and credentials: the process table), kernel/mm/uaccess.c
 * (copy_from_user, copy_to_user), kernel/debug/panic.c (kassert_fail,
 * lib/assert.h), kernel/debug/trace.c (sched_trace_record) and kernel/sync/spinlock.c
 * (the locks of lib/spinlock.h). The unit tests' and the simulator's side is
 * tests/unit/fake_machine.c.
 */
#ifndef SCHED_MACHINE_H
#define SCHED_MACHINE_H

#include <stdint.h>
#include <stdbool.h>
#include <stddef.h>
#include "../lib/spinlock.h"		/* struct spinlock, spin_lock/unlock/held */
#include "../lib/assert.h"		/* KASSERT, kassert_fail */

struct sched_task;

/* Monotonic time in nanoseconds, comparable across CPUs. */
uint64_t clock_ns(void);

/* Index of the CPU we are running on, 0..ncpus-1. */
int this_cpu(void);

/* True if interrupts are disabled on this CPU (used only in assertions). */
bool irqs_disabled(void);

/*
 * Ask CPU cpu to call schedule() at its next chance: set its need_resched
 * flag, and send it an IPI if it is not this CPU. Safe with rq locks held.
 */
void resched_cpu(int cpu);

/* Be polite inside a spin-wait loop (x86: pause). */
void cpu_relax(void);

/*
 * The kernel's process table. sched_find_task(pid) returns the task with
 * that pid (never called with pid 0, which sched/ reads as "current"), or
 * NULL, with a reference: its slot is not given to a new process until
 * sched_put_task(). A zombie is found until it is reaped, as on Linux;
 * the task may exit meanwhile (then changing it is harmless: it is
 * gone).
 * The credentials live in the kernel's struct proc, around struct sched_task.
 */
struct sched_task *sched_find_task(int pid);
/* Drop the reference sched_find_task() took: until then the task's slot
 * is not handed to a new process (its pid cannot be reused under us). */
void sched_put_task(struct sched_task *t);
/* getpriority/setpriority's PRIO_PGRP and PRIO_USER: the first live task
 * (any thread) at or after *pid in process group who (PRIO_PGRP) or of
 * real uid who (PRIO_USER), who 0 meaning the caller's; with a reference
 * as sched_find_task's and its pid in *pid, or NULL after the last. */
struct sched_task *sched_next_task_of(int which, int who, int *pid);
int sched_task_pid(struct sched_task *t);
int sched_task_uid(struct sched_task *t);
int sched_task_euid(struct sched_task *t);
/* Has t CAP_SYS_NICE (raise priorities, real-time policies, change
 * others' tasks)? Root's tasks have it unless they gave it up. */
bool sched_task_cap_nice(struct sched_task *t);

/* Copy to or from user memory: 0, or -EFAULT if any byte is unreachable. */
int copy_from_user(void *dst, const void *usrc, uint32_t n);
int copy_to_user(void *udst, const void *src, uint32_t n);


/*
 * Trace hook: called at every scheduling event below, with the rq lock of
 * cpu held. Must be cheap and must not call back into sched/. The kernel
 * may stub it; the trace viewer records (time, cpu, event, pid, arg).
 */
enum sched_trace_event {
	TRACE_SWITCH,		/* t starts running on cpu; arg = prio */
	TRACE_WAKEUP,		/* t woken onto cpu; arg = prio */
	TRACE_SLEEP,		/* t left the queue to sleep; arg = state */
	TRACE_STAIR_DROP,	/* t used a quantum; arg = new prio */
	TRACE_SLICE_END,	/* t used its whole slice; arg = new prio */
	TRACE_PREEMPT,		/* t (just woken) will preempt cpu; arg = 1 if delayed */
	TRACE_YIELD,		/* t yielded; arg = prio */
	TRACE_FORK,		/* t (the child) queued; arg = prio */
	TRACE_MIGRATE,		/* t moved to cpu; arg = the CPU it left */
	TRACE_NICE,		/* t changed nice or policy; arg = new prio */
	TRACE_ISO_THROTTLE,	/* cpu entered (arg 1) or left (arg 0) ISO throttling */
	TRACE_SMT_IDLE,		/* cpu runs idle instead of t (dependent sleeper) */
	TRACE_AFFINITY,		/* t's allowed CPUs changed; arg = the new mask */
	TRACE_PID_CHANGE,	/* t took another pid (exec in a thread: the leader's); arg = its old pid */
	TRACE_LOST_TICKS,	/* cpu missed arg ticks (its vCPU stood still) while t ran; charged to t */
	TRACE_NR_EVENTS
};
/* Bit e set: the machine records event e; 0 = tracing off. The machine
 * owns it and changes it. The test is inline, so that with tracing off an
 * event costs sched/ one load and one bit test (make profile). */
extern uint32_t sched_trace_mask;
void sched_trace_record(int cpu, int event, struct sched_task *t, int arg);

static inline void sched_trace(int cpu, int event, struct sched_task *t, int arg)
{
	if (__atomic_load_n(&sched_trace_mask, __ATOMIC_RELAXED) & (1u << event))
		sched_trace_record(cpu, event, t, arg);
}

/* How a dump names them (sched/trace_names.c): [event] = { name, what the
 * arg is }; and a policy's short name ("normal", ..., "idle" for
 * SCHED_NR_POLICIES, "-" for none). */
extern const char *const sched_trace_names[TRACE_NR_EVENTS][2];
const char *sched_trace_policy_name(int policy);

#endif
