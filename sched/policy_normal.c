/*
 * policy_normal.c - SCHED_NORMAL: the plain staircase (staircase.md §4-§6).
 *
 * Every hook is the staircase's own (policy.c): nice 0 has max_burst 19,
 * top stair 120, a quantum of RR and a full slice of 20 RR = 200 ms at
 * HZ 1000, and its burst extends its time on the top stair.
 */
#include "policy.h"

const struct sched_policy policy_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = staircase_effective_prio,
	.first_quantum = staircase_first_quantum,
	.tick = staircase_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = staircase_smt_rule,
	.yield = staircase_yield,
	.rr_get_interval = staircase_rr_get_interval,
};
