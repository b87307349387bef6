/*
 * policy_normal.c - SCHED_NORMAL: the plain staircase (staircase.md §4-§6).
 *
 * nice 0: max_burst 19, top stair 120, full slice 20 RR = 200 ms at HZ 1000.
 */
#include "policy.h"

static int normal_max_burst(const struct sched_task *p)
{
	return 39 - USER_PRIO(p);
}

static int normal_full_slice(const struct sched_task *p)
{
	return rr_ticks() * (1 + max_burst(p));
}

static int normal_effective_prio(struct sched_task *p)
{
	return staircase_prio(p, true);
}

/* staircase.md §6.5, sched_yield: drop to the lowest stair, flagged YIELDED. */
static void normal_yield(struct sched_task *p)
{
	p->flags |= SF_YIELDED;
	p->prio = LOWEST_STAIR;
}

const struct sched_policy policy_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.rr_interval = rr_quantum,
	.max_burst = normal_max_burst,
	.full_slice = normal_full_slice,
	.effective_prio = normal_effective_prio,
	.first_quantum = rr_first_quantum,
	.tick = staircase_tick,
	.yield = normal_yield,
	.rr_get_interval = full_slice_interval,
};
