/*
 * policy_batch.c - SCHED_BATCH, "idle" scheduling (seed 002).
 *
 * A BATCH task sits at 140, below every stair, so it runs only when
 * nothing else on its CPU wants to. Its quantum is 10 RR and its slice
 * RR * (40 - user_prio), so nice still orders batch tasks among themselves.
 * One exception guards against priority inversion: after an uninterruptible
 * sleep (a kernel mutex, disk I/O) it is queued once at 139 with YIELDED
 * set, so that when picked it drops straight back to 140.
 */
#include "policy.h"

/* LAB batch BEGIN */
static int batch_rr_interval(const struct sched_task *p)
{
	(void)p;
	return rr_ticks() * 10;
}

/* Seed 002: RR x (40 - user_prio), so nice orders batch tasks too. */
static int batch_full_slice(const struct sched_task *p)
{
	return rr_ticks() * (NICE_LEVELS - USER_PRIO(p));
}

/* staircase.md §5, §7.4: woken from an uninterruptible sleep, it runs
 * once at 139, marked YIELDED so that it drops back to 140 when picked. */
static void batch_wake(struct sched_task *p)
{
	if (p->flags & SF_UISLEEP)
		p->flags |= SF_YIELDED;
}

/* staircase.md §5: 139 on that one run, else 140. */
static int batch_effective_prio(const struct sched_task *p)
{
	return (p->flags & SF_YIELDED) ? LOWEST_STAIR : BATCH_PRIO;
}

/* staircase.md §8.3: BATCH is idled for any sibling and nobody is idled
 * for it; on its run at 139 it may hold what a NORMAL task waits for, so
 * then it is never idled either ([decided]). */
static unsigned batch_smt_rule(const struct sched_task *p)
{
	if (p->flags & SF_YIELDED)
		return SMT_NEVER_WAITS | SMT_SIBLING_NEVER_WAITS;
	return SMT_ALWAYS_WAITS | SMT_SIBLING_NEVER_WAITS;
}

/* Seed 002: a woken batch task gets its whole slice as its first quantum. */
static int batch_first_quantum(const struct sched_task *p)
{
	return p->slice;
}

/* staircase.md §6.5: BATCH yields to the tail of 140. */
static int batch_yield(struct sched_task *p)
{
	(void)p;
	return BATCH_PRIO;
}

const struct sched_policy policy_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	.rr_interval = batch_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = batch_full_slice,
	.effective_prio = batch_effective_prio,
	.first_quantum = batch_first_quantum,
	.tick = staircase_tick,
	.rq_tick = staircase_rq_tick,
	.wake = batch_wake,
	.smt_rule = batch_smt_rule,
	.yield = batch_yield,
	.rr_get_interval = staircase_rr_get_interval,
};
/* LAB batch END */
