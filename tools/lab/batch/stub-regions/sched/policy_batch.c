/*
 * Lab batch's stubs for sched/policy_batch.c: what lab batch's student tree has
 * between each pair of LAB batch markers of sched/policy_batch.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 */
/* LAB batch BEGIN */
/* LAB batch STUB
// Before: BATCH is the plain staircase under another number, as if it
// were SCHED_NORMAL: every hook is the staircase's own.
const struct sched_policy policy_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH, .prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	// Every hook is the plain staircase's, as SCHED_NORMAL's. BATCH's
	// rules (README-LAB.md) concern these,
	.rr_interval = staircase_rr_interval, .full_slice = staircase_full_slice,
	.effective_prio = staircase_effective_prio, .wake = staircase_wake,
	.first_quantum = staircase_first_quantum, .yield = staircase_yield,
	.smt_rule = staircase_smt_rule,
	// and not these:
	.max_burst = staircase_max_burst, .tick = staircase_tick,
	.rq_tick = staircase_rq_tick, .rr_get_interval = staircase_rr_get_interval,
};
*/
/* LAB batch END */
