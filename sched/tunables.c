/*
 * tunables.c - the table of scheduler tunables (staircase.md §9).
 *
 * One row per tunable: its boot-parameter name, where it lives, its range
 * and its default. Changing one at run time is a plain store: the numbers
 * that depend on it are recomputed at their next use.
 */
#include "tunables.h"
#include "../lib/errno.h"
#include "sched.h"
#include <stddef.h>

/* Initialised statically so that boot parameters can be set before sched_init(). */
struct sched_tunables tunables = {
	.hz = 1000, .interactive = 1, .compute = 0, .rr_interval_ms = 10,
	.per_cpu_gain = 25, .iso_cpu = 70, .cache_delay_ms = 10,
	.rotate = 1,
	.latency_ns = 20000000, .min_granularity_ns = 4000000,
	.wakeup_granularity_ns = 10000000, .child_runs_first = 1, .compat_yield = 0,
	.base_slice_ns = 750000,
};

static const struct {
	const char *name;
	int *value;
	int min, max, dflt;
	bool read_only;		/* set through another path (hz: sched_set_hz) */
} table[TUNABLE_NR] = {
	[TUNABLE_HZ]		= { "hz", &tunables.hz, HZ_MIN, HZ_MAX, 1000, true },
	[TUNABLE_INTERACTIVE]	= { "sched_interactive", &tunables.interactive, 0, 1, 1, false },
	[TUNABLE_COMPUTE]	= { "sched_compute", &tunables.compute, 0, 1, 0, false },
	[TUNABLE_RR_INTERVAL]	= { "rr_interval", &tunables.rr_interval_ms, 1, TUNABLE_MS_MAX, 10, false },
	[TUNABLE_PER_CPU_GAIN]	= { "per_cpu_gain", &tunables.per_cpu_gain, 0, 100, 25, false },
	[TUNABLE_ISO_CPU]	= { "iso_cpu", &tunables.iso_cpu, 0, 100, 70, false },
	[TUNABLE_CACHE_DELAY]	= { "cache_delay", &tunables.cache_delay_ms, 0, TUNABLE_MS_MAX, 10, false },
	[TUNABLE_ROTATE]	= { "sched_rotate", &tunables.rotate, 0, 1, 1, false },
	/* cfs: Linux 2.6.24's ranges (kernel/sysctl.c: 100 us..1 s; the
	 * wake-up granularity from 0) and defaults, before cfs_init scales
	 * the three times by 1 + log2(ncpus) as Linux did (docs/cfs.md §6) */
	[TUNABLE_LATENCY_NS]	= { "sched_latency_ns", &tunables.latency_ns,
				    CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 20000000, false },
	[TUNABLE_MIN_GRANULARITY_NS] = { "sched_min_granularity_ns", &tunables.min_granularity_ns,
				    CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 4000000, false },
	[TUNABLE_WAKEUP_GRANULARITY_NS] = { "sched_wakeup_granularity_ns",
				    &tunables.wakeup_granularity_ns, 0, CFS_GRAN_MAX_NS, 10000000, false },
	[TUNABLE_CHILD_RUNS_FIRST] = { "sched_child_runs_first", &tunables.child_runs_first,
				    0, 1, 1, false },
	[TUNABLE_COMPAT_YIELD]	= { "sched_compat_yield", &tunables.compat_yield, 0, 1, 0, false },
	/* eevdf: Linux 6.6's base_slice_ns (a debugfs file there, unchecked;
	 * here cfs's range) */
	[TUNABLE_BASE_SLICE_NS]	= { "sched_base_slice_ns", &tunables.base_slice_ns,
				    CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 750000, false },
};

/* ms_to_ticks() and cache_delay_ticks() multiply in an int (tunables.h). */
_Static_assert((long long)TUNABLE_MS_MAX * HZ_MAX <= 0x7FFFFFFF, "ms * hz fits an int");

void sched_tunables_defaults(void)
{
	for (int i = 0; i < TUNABLE_NR; i++)
		*table[i].value = table[i].dflt;
}

const char *sched_tunable_name(int id)
{
	if (id < 0 || id >= TUNABLE_NR)
		return NULL;
	return table[id].name;
}

int sched_tunable_get(int id)
{
	if (id < 0 || id >= TUNABLE_NR)
		return -EINVAL;
	return *table[id].value;
}

static int set_checked(int id, int value)
{
	if (value < table[id].min || value > table[id].max)
		return -EINVAL;
	*table[id].value = value;
	return 0;
}

int sched_tunable_set(int id, int value)
{
	if (id < 0 || id >= TUNABLE_NR || table[id].read_only)
		return -EINVAL;
	return set_checked(id, value);
}

/* The kernel has no libc here: two small string helpers. */
static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/*
 * A decimal int, optional sign; false for anything an int cannot hold
 * (checked after every digit, in 64 bits: iso_cpu=4294967346 must not
 * wrap to 50 on a 32-bit long).
 */
static bool str_to_int(const char *s, int *out)
{
	bool neg = (*s == '-');
	int64_t v = 0, limit = neg ? 2147483648ll : 2147483647ll;

	if (*s == '-' || *s == '+')
		s++;
	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9')
			return false;
		v = v * 10 + (*s - '0');
		if (v > limit)
			return false;
	}
	*out = (int)(neg ? -v : v);
	return true;
}

/* Boot parameters: every tunable, hz included, by its table name. */
int sched_setup_param(const char *key, const char *value)
{
	for (int id = 0; id < TUNABLE_NR; id++) {
		if (!str_eq(key, table[id].name))
			continue;
		int v;
		if (!value || !str_to_int(value, &v))
			return -EINVAL;
		return set_checked(id, v);
	}
	return -ENOENT;
}

int sched_hz(void) { return tunables.hz; }

bool sched_tunable_is_default(int id)
{
	return id >= 0 && id < TUNABLE_NR && *table[id].value == table[id].dflt;
}

int cache_delay_ticks(void)
{
	return tunables.cache_delay_ms * tunables.hz / 1000;
}
