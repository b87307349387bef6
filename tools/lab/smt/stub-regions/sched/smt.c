/*
 * Lab smt's stubs for sched/smt.c: what lab smt's student tree has
 * between each pair of LAB smt markers of sched/smt.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 */
/* LAB smt BEGIN */
/* LAB smt STUB
// Before: no dependent-sleeper rule. Each hyperthread schedules as if it
// had a core to itself, and nothing is ever held back for a sibling.
bool dependent_sleeper(struct runqueue *rq, struct sched_task *p)
{
	(void)rq;
	(void)p;
	return false;
}
*/
/* LAB smt END */
