/*
 * tunables.h - the scheduler's tunables (docs/staircase.md §9) as the tools
 * see them: one table behind both `tune` (our own listing) and `sysctl`
 * (procps's forms, keys kernel.<name> as -ck kept them in /proc/sys/kernel).
 *
 * Reading and writing go through call 502 (kernel_calls.h); the kernel
 * checks the range (EINVAL) and the privilege (EPERM).  On Linux there is
 * no call 502: ENOSYS.
 */
#ifndef USER_LIB_TUNABLES_H
#define USER_LIB_TUNABLES_H

struct tunable {
	int id;			/* enum sched_tunable_id */
	const char *name;	/* the boot parameter's name: rr_interval */
	const char *unit;	/* "ms", "%", "Hz" or "" */
	const char *range;	/* as the rule book gives it: "1..1000" */
	const char *meaning;	/* one line, for tune's listing */
	int read_only;		/* hz: a boot parameter only */
};

extern const struct tunable tunables[];
extern const int ntunables;

/* By its name (rr_interval); NULL if there is no such tunable. */
const struct tunable *tunable_find(const char *name);

/* The value, or -1 and errno (ENOSYS on Linux). */
int tunable_get(const struct tunable *t);

/* Store value: 0, or -1 and errno: EROFS for a read-only one (the kernel
 * is not asked), else the kernel's EINVAL / EPERM. */
int tunable_set(const struct tunable *t, int value);

/* Why the tunables cannot be read here, for errno ENOSYS: one line. */
const char *tunable_nosys_why(void);

#endif
