/*
 * Lab policy's reference solution for sched/sched.h: what the solution tree has
 * between each pair of LAB policy markers of sched/sched.h instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 * Never copied into a student tree.
 */
/* LAB policy BEGIN */
/* LAB policy SOLUTION
#define SCHED_IDLEPRIO	5
#define SCHED_NR_POLICIES 6
*/
/* LAB policy END */
