/*
 * policy_idleprio.c - SCHED_IDLEPRIO, policy 5: BATCH without the run at 139
 * (the reference solution of lab policy, docs/labs/policy.md).
 *
 * An IDLEPRIO task waits at 140 with the BATCH tasks, below every stair,
 * and runs only when nothing on the stairs wants its CPU. Its numbers are
 * BATCH's (staircase.md §4): a quantum of 10 RR, a slice of
 * RR * (40 - user_prio), the whole slice as its first quantum after a
 * wake-up, its ticks counted as nice time, no kernel threads. What it does
 * not have is BATCH's guard against priority inversion (§7.4): woken from
 * an uninterruptible sleep it stays at 140, so it never gets the one run
 * at 139, and on hyperthreads it always waits for its sibling (§8.3).
 */
#include "policy.h"

static int idleprio_rr_interval(const struct sched_task *p)
{
	(void)p;
	return rr_ticks() * 10;
}

/* As BATCH: RR x (40 - user_prio), so nice orders IDLEPRIO tasks too. */
static int idleprio_full_slice(const struct sched_task *p)
{
	return rr_ticks() * (NICE_LEVELS - USER_PRIO(p));
}

/* Always 140, whatever kind of sleep it woke from. */
static int idleprio_effective_prio(const struct sched_task *p)
{
	(void)p;
	return BATCH_PRIO;
}

/* It waits for any sibling, and nobody waits for it. */
static unsigned idleprio_smt_rule(const struct sched_task *p)
{
	(void)p;
	return SMT_ALWAYS_WAITS | SMT_SIBLING_NEVER_WAITS;
}

static int idleprio_first_quantum(const struct sched_task *p)
{
	return p->slice;
}

/* A yield goes to the tail of 140. */
static int idleprio_yield(struct sched_task *p)
{
	(void)p;
	return BATCH_PRIO;
}

const struct sched_policy policy_idleprio = {
	.name = "SCHED_IDLEPRIO", .number = SCHED_IDLEPRIO,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	.rr_interval = idleprio_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = idleprio_full_slice,
	.effective_prio = idleprio_effective_prio,
	.first_quantum = idleprio_first_quantum,
	.tick = staircase_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = idleprio_smt_rule,
	.yield = idleprio_yield,
	.rr_get_interval = staircase_rr_get_interval,
};
