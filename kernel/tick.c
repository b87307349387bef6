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
 *   3. the load average (CPU 0, once per tick for the whole machine);
 *   4. the watchdog: has this CPU run one task in kernel mode too long?
 *
 * and then, tick or not, 5. the sleepers whose deadline has passed
 * (sleep_expire, kernel/sleep.c).
 */
#include "tick.h"
#include "cpu.h"
#include "sleep.h"
#include "sysinfo.h"
#include "trap.h"
#include "watchdog.h"
#include "../sched/sched.h"

/*
 * Step 2. Lost ticks: an APIC raises a second timer interrupt while the
 * first is still pending as one, and QEMU does that when the host leaves
 * a vCPU unscheduled; the time passed all the same, so it is charged to
 * what ran (at most 1000 ticks at once). Nothing before this CPU joins
 * the scheduler: current is set at the end of proc_init_idle().
 */
static void sched_tick_cpu(struct cpu *c, bool user_mode)
{
	static uint64_t seen[MAX_CPUS];	/* c->ticks at the last call */
	uint64_t lost;

	if (!c->current)
		return;
	lost = seen[c->id] && c->ticks > seen[c->id] + 1 ? c->ticks - seen[c->id] - 1 : 0;
	seen[c->id] = c->ticks;
	sched_tick(user_mode);
	if (lost)
		sched_account_lost_ticks(lost > 1000 ? 1000 : (unsigned)lost, user_mode);
}

static void tick(struct trapframe *tf, uint64_t due)
{
	struct cpu *c = mycpu();

	c->ticks++;					/* 1 */
	if (due > c->ticks + 1)
		c->ticks = due - 1;
	sched_tick_cpu(c, trap_from_user(tf));		/* 2 */
	if (c->id == 0)
		loadavg_tick(c->ticks);			/* 3 */
	watchdog_tick(tf);				/* 4 */
}

uint64_t tick_interrupt(struct trapframe *tf, bool tick_due, uint64_t due)
{
	if (tick_due)
		tick(tf, due);
	return sleep_expire();				/* 5 */
}
