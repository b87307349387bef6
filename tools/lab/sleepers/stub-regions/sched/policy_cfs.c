/*
 * Lab sleepers' stubs for sched/policy_cfs.c: what lab sleepers' student
 * tree has between each pair of LAB sleepers markers of
 * sched/policy_cfs.c instead of the code there, region by region in that
 * file's order (tools/lab/markers.py).
 */
/* LAB sleepers BEGIN */
/* LAB sleepers STUB
// Before: no placement. A task that wakes keeps the vruntime it fell asleep
// with, however far min_vruntime has moved on since, and a new task keeps
// the one cfs_fork copied from its parent.
//
// Write place_entity (docs/labs/sleepers.md, docs/cfs.md §4 and §5):
// initial (a new task, from cfs_wake_new): START_DEBIT, min_vruntime plus
// vslice_add(rq, p), the virtual slice one more task of its weight adds
// to the period; else (a wake-up, from cfs_activate): NEW_FAIR_SLEEPERS,
// at best min_vruntime - tunables.latency_ns, never before its own
// vruntime. Compare vruntimes with fair_before(a, b) (a < b, wrap-safe).
static void place_entity(const struct runqueue *rq, struct sched_task *p, bool initial)
{
	(void)vslice_add;	// what START_DEBIT adds (above)
	(void)rq;
	(void)p;
	(void)initial;
}
*/
/* LAB sleepers END */
