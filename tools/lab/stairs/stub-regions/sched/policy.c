/*
 * Lab stairs's stubs for sched/policy.c: what lab stairs's student tree has
 * between each pair of LAB stairs markers of sched/policy.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 */
/* LAB stairs BEGIN */
/* LAB stairs STUB
	// Before: a task stands on its top stair for ever and never descends.
	(void)burst_extends_top;
	return LOWEST_STAIR - max_burst(p);
*/
/* LAB stairs END */
/* LAB stairs BEGIN */
/* LAB stairs STUB
	// Before: round robin on the task's stair. The slice and the quantum
	// count down; a used quantum sends the task to the tail of the same
	// list; a used slice starts again, with the burst untouched.
	if (--p->slice < 1)
		p->slice += full_slice(p);
	if (--p->time_slice < 1)
		end_quantum(rq, p, TRACE_SLICE_END);
*/
/* LAB stairs END */
