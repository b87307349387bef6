/*
 * tunables.c - the scheduler's tunables as the kernel's table describes
 * them (tunables.h): tune and sysctl ask, so a name, range or meaning is
 * written once, in sched/tunables.c.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "tunables.h"

int tunable_describe(int id, struct tunable *t)
{
	t->id = id;
	return sched_tunable_describe(id, &t->desc);
}

int tunable_find(const char *name, struct tunable *t)
{
	for (int id = 0; tunable_describe(id, t) == 0; id++)
		if (strcmp(name, t->desc.name) == 0)
			return 0;
	if (errno == EINVAL)		/* past the last: none has that name */
		errno = ENOENT;
	return -1;
}

int tunable_get(const struct tunable *t)
{
	return sched_tunable_get(t->id);
}

int tunable_set(const struct tunable *t, int value)
{
	if (t->desc.read_only) {
		errno = EROFS;
		return -1;
	}
	return sched_tunable_set(t->id, value);
}

const char *tunable_range(const struct tunable *t, char *buf, size_t size)
{
	snprintf(buf, size, "%d..%d", (int)t->desc.min, (int)t->desc.max);
	return buf;
}

const char *tunable_nosys_why(void)
{
	return "the scheduler tunables exist only on the staircase kernel "
	       "(call 502: ENOSYS on Linux)";
}
