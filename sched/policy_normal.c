/*
 * policy_normal.c - SCHED_NORMAL: the plain staircase (staircase.md §4-§6).
 *
 * Every hook is the staircase's default (policy.c): nice 0 has max_burst
 * 19, top stair 120, a quantum of RR and a full slice of 20 RR = 200 ms at
 * HZ 1000, and its burst extends its time on the top stair.
 */
#include "policy.h"

const struct sched_policy policy_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
};
