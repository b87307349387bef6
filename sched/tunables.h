/*
 * tunables.h - the scheduler's knobs (staircase.md §9), in one place.
 *
 * The table in tunables.c is the only place a tunable's name, range,
 * default, unit and meaning are written. Ids are call 502's
 * (SCHED_TUNABLE_*, uapi/ourcalls.h). Every tunable is a boot parameter
 * (sched_setup_param) and a file /proc/sys/kernel/NAME by its table name,
 * and can be read and changed at run time (sched_tunable_get/set, by id);
 * tune, sysctl and the libc learn the rest from call 502's DESCRIBE
 * (sched_tunable_describe). A bad value returns -EINVAL and leaves the
 * old one. The derived numbers (RR in ticks, the
 * compute-mode delay in ticks) are computed from these on every use, so a
 * change takes effect at the next tick.
 */
#ifndef SCHED_TUNABLES_H
#define SCHED_TUNABLES_H

#include <stdint.h>
#include <stdbool.h>
#include <uapi/ourcalls.h>	/* SCHED_TUNABLE_*: call 502's ids and record */

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
int sched_tunable_describe(int id, struct sched_tunable_desc *d);	/* 0, or -EINVAL */
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
