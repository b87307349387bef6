/*
 * tick.c - what a timer interrupt does on a CPU, in order.
 *
 * drivers/timer.c only drives the hardware: it programs each CPU's local
 * APIC timer (one-shot) for the earlier of its next tick and its earliest
 * sleep deadline, and at each interrupt says whether a tick is due and
 * calls tick_interrupt() here, interrupts off. Everything the kernel does
 * on a tick is below, in the order it happens:
 *
 *   1. count the tick: mycpu()->ticks, as Linux's jiffies (never less
 *      than the whole periods the TSC says have passed, less one);
 *   2. the scheduler's tick, sched_tick() (sched/core.c): the running
 *      task's quantum and stair (staircase.md §6.1), every policy's
 *      rq_tick, then load balancing (balance_tick, sched/balance.c); then
 *      the ticks QEMU lost, charged for the statistics only;
 *   3. the same ticks on the running process's CPU-time interval timers,
 *      ITIMER_VIRTUAL and ITIMER_PROF (itimer_tick, kernel/time/itimer.c);
 *   4. the load average (CPU 0, once per tick for the whole machine);
 *   5. the watchdog: has this CPU run one task in kernel mode too long?
 *
 * and then, tick or not, 6. the sleepers whose deadline has passed
 * (sleep_expire, kernel/time/sleep.c) and 7. the processes whose ITIMER_REAL
 * has expired (itimer_expire): the next of either is when the timer
 * fires again.
 */
#include "tick.h"
#include "kernel/arch/cpu.h"
#include "itimer.h"
#include "kernel/task/proc.h"
#include "kernel/sync/rcu.h"
#include "sleep.h"
#include "kernel/sys/sysinfo.h"
#include "kernel/arch/trap.h"
#include "kernel/debug/watchdog.h"
#include "sched/sched.h"

/*
 * Step 2. Lost ticks: an APIC raises a second timer interrupt while the
 * first is still pending as one, and QEMU does that when the host leaves
 * a vCPU unscheduled; the time passed all the same, so it is charged to
 * what ran (at most 1000 ticks at once). Nothing before this CPU joins
 * the scheduler: current is set at the end of proc_init_idle(). Returns
 * the ticks charged, this one and the lost ones.
 */
static unsigned sched_tick_cpu(struct cpu *c, bool user_mode)
{
	static uint64_t seen[MAX_CPUS];	/* c->ticks at the last call */
	uint64_t lost;

	if (!c->current)
		return 0;
	lost = seen[c->id] && c->ticks > seen[c->id] + 1 ? c->ticks - seen[c->id] - 1 : 0;
	if (lost > 1000)
		lost = 1000;
	seen[c->id] = c->ticks;
	sched_tick(user_mode);
	if (lost)
		sched_account_lost_ticks((unsigned)lost, user_mode);
	return 1 + (unsigned)lost;
}

static void tick(struct trapframe *tf, uint64_t due)
{
	struct cpu *c = mycpu();
	bool user_mode = trap_from_user(tf);

	if (user_mode)		/* nothing of the kernel's in hand (kernel/sync/rcu.c) */
		rcu_quiescent(c->id);
	c->ticks++;					/* 1 */
	if (due > c->ticks + 1)
		c->ticks = due - 1;
	if (sched_tick_cpu(c, user_mode))		/* 2 */
		itimer_tick(c->current, user_mode);	/* 3 */
	if (c->id == 0)
		loadavg_tick(c->ticks);			/* 4 */
	watchdog_tick(tf);				/* 5 */
}

uint64_t tick_interrupt(struct trapframe *tf, bool tick_due, uint64_t due)
{
	if (tick_due)
		tick(tf, due);
	uint64_t sleeper = sleep_expire();		/* 6 */
	uint64_t alarm = itimer_expire();		/* 7 */
	return sleeper < alarm ? sleeper : alarm;
}
