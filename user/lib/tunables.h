/*
 * tunables.h - the scheduler's tunables (docs/staircase.md §9) as the tools
 * see them: `tune` (our own listing) and `sysctl` (procps's forms, keys
 * kernel.<name> as -ck kept them in /proc/sys/kernel).
 *
 * Nothing about a tunable is written here: its name, range, default, unit
 * and meaning come from the kernel's table (sched/tunables.c) through
 * call 502's DESCRIBE, at run time. Reading and writing go through call
 * 502 too; the kernel checks the range (EINVAL) and the privilege (EPERM).
 * On Linux there is no call 502: every function fails with ENOSYS.
 */
#ifndef USER_LIB_TUNABLES_H
#define USER_LIB_TUNABLES_H

#include <stddef.h>

#include "kernel_calls.h"	/* struct sched_tunable_desc */

struct tunable {
	int id;				/* SCHED_TUNABLE_* */
	struct sched_tunable_desc desc;	/* the kernel's row */
};

/* Tunable id: 0, or -1 and errno: EINVAL past the last id (so ids 0, 1,
 * ... until EINVAL are all of them), ENOSYS on Linux. */
int tunable_describe(int id, struct tunable *t);

/* By its name (rr_interval): 0, or -1 and errno: ENOENT if the kernel has
 * no such tunable, ENOSYS on Linux. */
int tunable_find(const char *name, struct tunable *t);

/* The value, or -1 and errno (ENOSYS on Linux). */
int tunable_get(const struct tunable *t);

/* Store value: 0, or -1 and errno: EROFS for a read-only one (the kernel
 * is not asked), else the kernel's EINVAL / EPERM. */
int tunable_set(const struct tunable *t, int value);

/* The range as the rule book writes it, "1..1000", in buf; returns buf. */
const char *tunable_range(const struct tunable *t, char *buf, size_t size);

/* Why the tunables cannot be read here, for errno ENOSYS: one line. */
const char *tunable_nosys_why(void);

#endif
