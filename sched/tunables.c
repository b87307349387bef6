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

/*
 * The table: everything else (boot parameters, /proc/sys/kernel, call 502
 * and through it tune, sysctl and the libc) reads names, ranges and
 * defaults from here. Names are the -ck patches' /proc/sys/kernel names
 * where -ck had the tunable; a meaning is one line (tune's listing) and
 * fits sched_tunable_desc (the unit tests check).
 */
static const struct {
	const char *name;
	int *value;
	int min, max, dflt;
	bool read_only;		/* set through another path (hz: sched_set_hz) */
	const char *unit;
	const char *meaning;
} table[SCHED_TUNABLE_NR] = {
	[SCHED_TUNABLE_HZ] = { "hz", &tunables.hz, HZ_MIN, HZ_MAX, 1000, true, "Hz",
		"timer ticks per second; a tick is the scheduler's unit (boot: hz=N)" },
	[SCHED_TUNABLE_INTERACTIVE] = { "interactive", &tunables.interactive, 0, 1, 1, false, "",
		"1: the top stair lasts burst+1 quanta (sleepers earn bursts); 0: one" },
	[SCHED_TUNABLE_COMPUTE] = { "compute", &tunables.compute, 0, 1, 0, false, "",
		"1: compute mode: RR x10, no bursts, preemption held back cache_delay" },
	[SCHED_TUNABLE_RR_INTERVAL] = { "rr_interval", &tunables.rr_interval_ms,
		1, TUNABLE_MS_MAX, 10, false, "ms",
		"RR, the quantum: one stair per RR; nice 0 slice = 20 RR" },
	[SCHED_TUNABLE_PER_CPU_GAIN] = { "per_cpu_gain", &tunables.per_cpu_gain, 0, 100, 25, false, "%",
		"SMT: a task waits if its sibling has (100-gain)% more slice than its whole" },
	[SCHED_TUNABLE_ISO_CPU] = { "iso_cpu", &tunables.iso_cpu, 0, 100, 70, false, "%",
		"ISO above this CPU share (5 s average) runs as BATCH; 100 = no cap" },
	[SCHED_TUNABLE_CACHE_DELAY] = { "cache_delay", &tunables.cache_delay_ms,
		0, TUNABLE_MS_MAX, 10, false, "ms",
		"compute mode: a wake-up preempts only after this much running" },
	[SCHED_TUNABLE_ROTATE] = { "sched_rotate", &tunables.rotate, 0, 1, 1, false, "",
		"1: the balancer rotates uneven splits (3 hogs on 2 CPUs, 12 on 8); 0: the seed's" },
	/* cfs: Linux 2.6.24's names, ranges (kernel/sysctl.c: 100 us..1 s;
	 * the wake-up granularity from 0) and defaults, before cfs_init
	 * scales the three times by 1 + log2(ncpus) as Linux did (docs/cfs.md §6) */
	[SCHED_TUNABLE_LATENCY_NS] = { "sched_latency_ns", &tunables.latency_ns,
		CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 20000000, false, "ns",
		"cfs: the period in which every task runs once (x 1 + log2 CPUs)" },
	[SCHED_TUNABLE_MIN_GRANULARITY_NS] = { "sched_min_granularity_ns", &tunables.min_granularity_ns,
		CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 4000000, false, "ns",
		"cfs: the shortest slice; past latency/this tasks the period grows" },
	[SCHED_TUNABLE_WAKEUP_GRANULARITY_NS] = { "sched_wakeup_granularity_ns",
		&tunables.wakeup_granularity_ns, 0, CFS_GRAN_MAX_NS, 10000000, false, "ns",
		"cfs: a woken task preempts only if this much (virtual) ahead" },
	[SCHED_TUNABLE_CHILD_RUNS_FIRST] = { "sched_child_runs_first", &tunables.child_runs_first,
		0, 1, 1, false, "",
		"cfs: 1: a forked child takes its parent's vruntime if smaller" },
	[SCHED_TUNABLE_COMPAT_YIELD] = { "sched_compat_yield", &tunables.compat_yield,
		0, 1, 0, false, "",
		"cfs: 1: sched_yield goes behind every other task (BATCH always does)" },
	/* eevdf: Linux 6.6's base_slice_ns (a debugfs file there, unchecked;
	 * here cfs's range) */
	[SCHED_TUNABLE_BASE_SLICE_NS] = { "sched_base_slice_ns", &tunables.base_slice_ns,
		CFS_GRAN_MIN_NS, CFS_GRAN_MAX_NS, 750000, false, "ns",
		"eevdf: the slice a task asks for; its deadline is that far ahead" },
};

/* ms_to_ticks() and cache_delay_ticks() multiply in an int (tunables.h). */
_Static_assert((long long)TUNABLE_MS_MAX * HZ_MAX <= 0x7FFFFFFF, "ms * hz fits an int");

void sched_tunables_defaults(void)
{
	for (int i = 0; i < SCHED_TUNABLE_NR; i++)
		*table[i].value = table[i].dflt;
}

const char *sched_tunable_name(int id)
{
	if (id < 0 || id >= SCHED_TUNABLE_NR)
		return NULL;
	return table[id].name;
}

int sched_tunable_get(int id)
{
	if (id < 0 || id >= SCHED_TUNABLE_NR)
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
	if (id < 0 || id >= SCHED_TUNABLE_NR || table[id].read_only)
		return -EINVAL;
	return set_checked(id, value);
}

/* The kernel has no libc here: three small string helpers. */
static bool str_eq(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

/* Copies at most size - 1 bytes and always ends dst (the table's strings
 * fit: the unit tests check that nothing is cut). */
static void str_copy(char *dst, const char *src, int size)
{
	int i = 0;
	for (; i < size - 1 && src[i]; i++)
		dst[i] = src[i];
	dst[i] = 0;
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

/* One row as call 502's record, every byte written (it goes to user space). */
int sched_tunable_describe(int id, struct sched_tunable_desc *d)
{
	if (id < 0 || id >= SCHED_TUNABLE_NR)
		return -EINVAL;
	*d = (struct sched_tunable_desc){
		.min = table[id].min, .max = table[id].max, .dflt = table[id].dflt,
		.read_only = table[id].read_only,
	};
	str_copy(d->name, table[id].name, sizeof(d->name));
	str_copy(d->unit, table[id].unit, sizeof(d->unit));
	str_copy(d->meaning, table[id].meaning, sizeof(d->meaning));
	return 0;
}

/* Boot parameters: every tunable, hz included, by its table name. */
int sched_setup_param(const char *key, const char *value)
{
	for (int id = 0; id < SCHED_TUNABLE_NR; id++) {
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
	return id >= 0 && id < SCHED_TUNABLE_NR && *table[id].value == table[id].dflt;
}

int cache_delay_ticks(void)
{
	return tunables.cache_delay_ms * tunables.hz / 1000;
}
