/*
 * Lab iso's stubs for sched/syscalls.c: what lab iso's student tree has
 * between each pair of LAB iso markers of sched/syscalls.c instead of the code
 * there, region by region in that file's order (tools/lab/markers.py).
 */
/* LAB iso BEGIN */
/* LAB iso STUB
	// Before: real time needs privilege, as on Linux (CAP_SYS_NICE).
	if (sched_policies[policy]->rt && !privileged(me))
		return -EPERM;
*/
/* LAB iso END */
