/*
 * policy_rt.c - SCHED_FIFO and SCHED_RR (staircase.md §7.1, §7.2).
 *
 * Real-time tasks do not move on the staircase: prio = 99 - rt_priority.
 * The running task stays at the head of its list, so a preempted FIFO task
 * is the first of its priority to run again; a woken one goes to the tail.
 * RR adds a quantum of RR ticks, after which the task goes to the tail.
 */
#include "policy.h"

/* staircase.md §4: an RT task's max_burst is its current burst. */
static int rt_max_burst(const struct sched_task *p)
{
	return p->burst;
}

/* staircase.md §7.1: fixed, 99 - rt_priority. */
static int rt_effective_prio(const struct sched_task *p)
{
	return MAX_RT_PRIO - 1 - p->rt_priority;
}

/* staircase.md §8.3: RT is never idled for a sibling, and its sibling
 * (not RT) always is. */
static unsigned rt_smt_rule(const struct sched_task *p)
{
	(void)p;
	return SMT_NEVER_WAITS | SMT_SIBLING_WAITS;
}

/* FIFO: the tick only accounts time (done by the core). */
static void fifo_tick(struct runqueue *rq, struct sched_task *p)
{
	(void)rq;
	(void)p;
}

/* RR: a quantum used sends it to the tail of its own list. */
static void rr_tick(struct runqueue *rq, struct sched_task *p)
{
	p->slice--;
	if (--p->time_slice > 0)
		return;
	p->slice = full_slice(p);
	end_quantum(rq, p, TRACE_SLICE_END);
}

/* Its slice is one quantum. */
static int rt_full_slice(const struct sched_task *p)
{
	(void)p;
	return rr_ticks();
}

/* POSIX: a yielding RT task goes to the tail of its own list. */
static int rt_yield(struct sched_task *p)
{
	return p->prio;
}

static int fifo_rr_get_interval(const struct sched_task *p)
{
	(void)p;
	return 0;
}

const struct sched_policy policy_fifo = {
	.name = "SCHED_FIFO", .number = SCHED_FIFO,
	.rt = true,
/* LAB iso BEGIN */
	.unprivileged_as = &policy_iso,
/* LAB iso END */
	.prio_min = 1, .prio_max = MAX_USER_RT_PRIO - 1,
	.ops = &staircase_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = rt_max_burst,
	.full_slice = rt_full_slice,
	.effective_prio = rt_effective_prio,
	.first_quantum = staircase_first_quantum,
	.tick = fifo_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = rt_smt_rule,
	.yield = rt_yield,
	.rr_get_interval = fifo_rr_get_interval,
};

const struct sched_policy policy_rr = {
	.name = "SCHED_RR", .number = SCHED_RR,
	.rt = true,
/* LAB iso BEGIN */
	.unprivileged_as = &policy_iso,
/* LAB iso END */
	.prio_min = 1, .prio_max = MAX_USER_RT_PRIO - 1,
	.ops = &staircase_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = rt_max_burst,
	.full_slice = rt_full_slice,
	.effective_prio = rt_effective_prio,
	.first_quantum = staircase_first_quantum,
	.tick = rr_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = rt_smt_rule,
	.yield = rt_yield,
	.rr_get_interval = staircase_rr_get_interval,
};
