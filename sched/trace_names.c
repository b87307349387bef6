/*
 * trace_names.c - how scheduler events are named in a trace dump.
 *
 * The kernel's trace dump (kernel/debug/trace.c) and the simulator's --trace
 * (tools/sim) print the same lines, and tools/traceview.py reads them, so
 * the names live here, once, beside the events (sched/machine.h).
 */
#include "machine.h"
#include "policy.h"
#include "sched.h"

/* [event] = { its name, what its arg is } */
const char *const sched_trace_names[TRACE_NR_EVENTS][2] = {
	[TRACE_SWITCH]       = { "switch", "prio" },
	[TRACE_WAKEUP]       = { "wakeup", "prio" },
	[TRACE_SLEEP]        = { "sleep", "state" },
	[TRACE_STAIR_DROP]   = { "stair_drop", "prio" },
	[TRACE_SLICE_END]    = { "slice_end", "prio" },
	[TRACE_PREEMPT]      = { "preempt", "delayed" },
	[TRACE_YIELD]        = { "yield", "prio" },
	[TRACE_FORK]         = { "fork", "prio" },
	[TRACE_MIGRATE]      = { "migrate", "from" },
	[TRACE_NICE]         = { "nice", "prio" },
	[TRACE_ISO_THROTTLE] = { "iso_throttle", "on" },
	[TRACE_SMT_IDLE]     = { "smt_idle", "prio" },
	[TRACE_AFFINITY]     = { "affinity", "cpus" },
	[TRACE_PID_CHANGE]   = { "pid_change", "from" },
	[TRACE_LOST_TICKS]   = { "lost_ticks", "ticks" },
};

/* The table's name for a policy, lower-cased without its prefix, so a policy a
 * student adds (one file, one table entry) shows up by its own name. The
 * staircase's table has every policy and the names every class uses; it
 * is there before any boot (the simulator parses its workload first). */
const char *sched_trace_policy_name(int policy)
{
	static char lower[SCHED_NR_POLICIES][16];

	if (policy == SCHED_NR_POLICIES)
		return "idle";
	if (policy < 0 || policy >= SCHED_NR_POLICIES || !staircase_class.policies[policy])
		return "-";
	if (!lower[policy][0]) {
		const char *n = staircase_class.policies[policy]->name;
		unsigned i = 0;
		if (n[0] == 'S' && n[1] == 'C' && n[2] == 'H' && n[3] == 'E' &&
		    n[4] == 'D' && n[5] == '_')
			n += 6;
		for (; n[i] && i < sizeof(lower[0]) - 1; i++)
			lower[policy][i] = n[i] >= 'A' && n[i] <= 'Z' ? n[i] - 'A' + 'a' : n[i];
		lower[policy][i] = 0;
	}
	return lower[policy];
}
