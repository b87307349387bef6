/*
 * Lab policy's reference solution for sched/policy.c: what the solution tree has
 * between each pair of LAB policy markers of sched/policy.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 * Never copied into a student tree.
 */
/* LAB policy BEGIN */
/* LAB policy SOLUTION
	[SCHED_IDLEPRIO] = &policy_idleprio,
*/
/* LAB policy END */
