/*
 * tunables.h - the scheduler's knobs (staircase.md §9), in one place.
 *
 * Every tunable is a boot parameter (sched_setup_param) and can be read and
 * changed at run time (sched_tunable_get/set, by id). A bad value returns
 * -EINVAL and leaves the old one. The derived numbers (RR in ticks, the
 * compute-mode delay in ticks) are computed from these on every use, so a
 * change takes effect at the next tick.
 */
#ifndef SCHED_TUNABLES_H
#define SCHED_TUNABLES_H

#include <stdint.h>
#include <stdbool.h>
#include <uapi/ourcalls.h>	/* SCHED_TUNABLE_*: call 502's ids */

/* The ids are call 502's (uapi/ourcalls.h), so tune and sysctl name them
 * as the kernel does. */
enum sched_tunable {
	TUNABLE_HZ = SCHED_TUNABLE_HZ,			/* timer Hz, owned by the kernel: read-only here */
	TUNABLE_INTERACTIVE = SCHED_TUNABLE_INTERACTIVE,	/* sched_interactive: 0..1, default 1 */
	TUNABLE_COMPUTE = SCHED_TUNABLE_COMPUTE,	/* sched_compute: 0..1, default 0 */
	TUNABLE_RR_INTERVAL = SCHED_TUNABLE_RR_INTERVAL,	/* rr_interval: 1..1000 ms, default 10 */
	TUNABLE_PER_CPU_GAIN = SCHED_TUNABLE_PER_CPU_GAIN,	/* per_cpu_gain: 0..100 %, default 25 */
	TUNABLE_ISO_CPU = SCHED_TUNABLE_ISO_CPU,	/* iso_cpu: 0..100 %, default 70 [beyond] */
	TUNABLE_CACHE_DELAY = SCHED_TUNABLE_CACHE_DELAY,	/* cache_delay: 0..1000 ms, default 10 */
	TUNABLE_ROTATE = SCHED_TUNABLE_ROTATE,		/* sched_rotate: 0..1, default 1 [beyond] */
	/* cfs (docs/cfs.md §6): Linux 2.6.24's sysctls, in ns */
	TUNABLE_LATENCY_NS = SCHED_TUNABLE_LATENCY_NS,	/* 0.1 ms..1 s, default 20 ms */
	TUNABLE_MIN_GRANULARITY_NS = SCHED_TUNABLE_MIN_GRANULARITY_NS,	/* 0.1 ms..1 s, default 4 ms */
	TUNABLE_WAKEUP_GRANULARITY_NS = SCHED_TUNABLE_WAKEUP_GRANULARITY_NS,	/* 0..1 s, default 10 ms */
	TUNABLE_CHILD_RUNS_FIRST = SCHED_TUNABLE_CHILD_RUNS_FIRST,	/* 0..1, default 1 */
	TUNABLE_COMPAT_YIELD = SCHED_TUNABLE_COMPAT_YIELD,	/* 0..1, default 0 */
	TUNABLE_BASE_SLICE_NS = SCHED_TUNABLE_BASE_SLICE_NS,	/* eevdf: 0.1 ms..1 s, default 0.75 ms */
	TUNABLE_NR = SCHED_TUNABLE_NR
};

struct sched_tunables {
	int hz;
	int interactive;
	int compute;
	int rr_interval_ms;
	int per_cpu_gain;
	int iso_cpu;
	int cache_delay_ms;
	int rotate;
	int latency_ns, min_granularity_ns, wakeup_granularity_ns;	/* cfs */
	int child_runs_first, compat_yield;				/* cfs */
	int base_slice_ns;						/* eevdf */
};

extern struct sched_tunables tunables;

void sched_tunables_defaults(void);
int sched_tunable_get(int id);			/* value, or -EINVAL */
int sched_tunable_set(int id, int value);	/* 0, or -EINVAL (unchanged) */
int sched_setup_param(const char *key, const char *value);	/* 0 / -EINVAL / -ENOENT */
const char *sched_tunable_name(int id);		/* NULL if no such id */
bool sched_tunable_is_default(int id);		/* still its default (cfs_init scales those) */

/* The range of cfs's times in ns (Linux 2.6.24's sysctl bounds). */
#define CFS_GRAN_MIN_NS	100000
#define CFS_GRAN_MAX_NS	1000000000

/* Derived numbers, in ticks (staircase.md §4). */
int cache_delay_ticks(void);

/* The longest time a tunable in ms may be (rr_interval, cache_delay); the
 * balance intervals of balance.c are shorter. */
#define TUNABLE_MS_MAX	1000

/* At least 1 tick. In 32 bits: ms is at most TUNABLE_MS_MAX and hz at most
 * HZ_MAX, so the product fits (asserted in tunables.c); a 64-bit division
 * would be a libgcc call of a few hundred instructions. Inline, like
 * rr_ticks(): every yield and stair computation asks (make profile,
 * docs/bench.md). */
static inline int ms_to_ticks(int ms)
{
	int ticks = ms * tunables.hz / 1000;
	return ticks ? ticks : 1;
}

/* staircase.md §4: RR = (10 * HZ / 1000) ?: 1, times 10 in compute mode. */
static inline int rr_ticks(void)
{
	int rr = ms_to_ticks(tunables.rr_interval_ms);
	return tunables.compute ? rr * 10 : rr;
}

#endif
