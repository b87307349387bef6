/*
 * tunables.c - the table of the scheduler's tunables (tunables.h), shared
 * by tune and sysctl so that a name, range or meaning is written once.
 */
#include <errno.h>
#include <string.h>

#include "kernel_calls.h"
#include "tunables.h"

const struct tunable tunables[] = {
	{ SCHED_TUNABLE_HZ, "hz", "Hz", "read-only",
	  "timer ticks per second; a tick is the scheduler's unit (boot: hz=N)", 1 },
	{ SCHED_TUNABLE_INTERACTIVE, "sched_interactive", "", "0..1",
	  "1: the top stair lasts burst+1 quanta (sleepers earn bursts); 0: one", 0 },
	{ SCHED_TUNABLE_COMPUTE, "sched_compute", "", "0..1",
	  "1: compute mode: RR x10, no bursts, preemption held back cache_delay", 0 },
	{ SCHED_TUNABLE_RR_INTERVAL, "rr_interval", "ms", "1..1000",
	  "RR, the quantum: one stair per RR; nice 0 slice = 20 RR", 0 },
	{ SCHED_TUNABLE_PER_CPU_GAIN, "per_cpu_gain", "%", "0..100",
	  "SMT: a task waits if its sibling has (100-gain)% more slice than its whole", 0 },
	{ SCHED_TUNABLE_ISO_CPU, "iso_cpu", "%", "0..100",
	  "ISO above this CPU share (5 s average) runs as BATCH; 100 = no cap", 0 },
	{ SCHED_TUNABLE_CACHE_DELAY, "cache_delay", "ms", "0..1000",
	  "compute mode: a wake-up preempts only after this much running", 0 },
	{ SCHED_TUNABLE_ROTATE, "sched_rotate", "", "0..1",
	  "1: the balancer rotates uneven splits (3 hogs on 2 CPUs, 12 on 8); 0: the seed's", 0 },
	/* sched=cfs (docs/cfs.md §6): Linux 2.6.24's names */
	{ SCHED_TUNABLE_LATENCY_NS, "sched_latency_ns", "ns", "100000..1000000000",
	  "cfs: the period in which every task runs once (x 1 + log2 CPUs)", 0 },
	{ SCHED_TUNABLE_MIN_GRANULARITY_NS, "sched_min_granularity_ns", "ns", "100000..1000000000",
	  "cfs: the shortest slice; past latency/this tasks the period grows", 0 },
	{ SCHED_TUNABLE_WAKEUP_GRANULARITY_NS, "sched_wakeup_granularity_ns", "ns", "0..1000000000",
	  "cfs: a woken task preempts only if this much (virtual) ahead", 0 },
	{ SCHED_TUNABLE_CHILD_RUNS_FIRST, "sched_child_runs_first", "", "0..1",
	  "cfs: 1: a forked child takes its parent's vruntime if smaller", 0 },
	{ SCHED_TUNABLE_COMPAT_YIELD, "sched_compat_yield", "", "0..1",
	  "cfs: 1: sched_yield goes behind every other task (BATCH always does)", 0 },
	{ SCHED_TUNABLE_BASE_SLICE_NS, "sched_base_slice_ns", "ns", "100000..1000000000",
	  "eevdf: the slice a task asks for; its deadline is that far ahead", 0 },
};
const int ntunables = sizeof(tunables) / sizeof(tunables[0]);

const struct tunable *tunable_find(const char *name)
{
	for (int i = 0; i < ntunables; i++)
		if (strcmp(name, tunables[i].name) == 0)
			return &tunables[i];
	return NULL;
}

int tunable_get(const struct tunable *t)
{
	return sched_tunable_get(t->id);
}

int tunable_set(const struct tunable *t, int value)
{
	if (t->read_only) {
		errno = EROFS;
		return -1;
	}
	return sched_tunable_set(t->id, value);
}

const char *tunable_nosys_why(void)
{
	return "the scheduler tunables exist only on the staircase kernel "
	       "(call 502: ENOSYS on Linux)";
}
