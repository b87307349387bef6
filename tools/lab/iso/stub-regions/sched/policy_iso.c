/*
 * Lab iso's stubs for sched/policy_iso.c: what lab iso's student tree has
 * between each pair of LAB iso markers of sched/policy_iso.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 */
/* LAB iso BEGIN */
/* LAB iso STUB
// Before: ISO is the plain staircase under another number, as if it were
// SCHED_NORMAL, with no cap; no CPU ever throttles it.
const struct sched_policy policy_iso = {
	.name = "SCHED_ISO", .number = SCHED_ISO, .prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	// Every hook is the plain staircase's, as SCHED_NORMAL's. ISO's rules
	// and its cap (README-LAB.md) concern these,
	.rr_interval = staircase_rr_interval, .max_burst = staircase_max_burst,
	.effective_prio = staircase_effective_prio, .yield = staircase_yield,
	.rq_tick = staircase_rq_tick,
	// and not these:
	.full_slice = staircase_full_slice, .first_quantum = staircase_first_quantum,
	.tick = staircase_tick, .wake = staircase_wake, .smt_rule = staircase_smt_rule,
	.rr_get_interval = staircase_rr_get_interval,
};

// The share of ISO ticks that the statistics call reports (syscalls.c).
int iso_share_permille(const struct runqueue *rq)
{
	(void)rq;
	return 0;
}
*/
/* LAB iso END */
