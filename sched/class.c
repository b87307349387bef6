/*
 * class.c - lineage mode: which scheduler runs SCHED_NORMAL and
 * SCHED_BATCH, chosen once at boot (sched=NAME, docs/lineage.md §1).
 *
 * plugsched's precedent (2004-2007, cpusched=NAME and /proc/scheduler):
 * one scheduler per boot, never switched at run time, so no task's state
 * has to move from one scheduler's fields to another's. FIFO/RR and the
 * SMP balancer are shared by every class; SCHED_ISO is the staircase's.
 */
#include "policy.h"
#include "../lib/errno.h"

const struct sched_class *const sched_classes[] = {
	&staircase_class, &o1_class, &sd_class, &cfs_class, &eevdf_class, NULL,
};

const struct sched_class *sched_class = &staircase_class;
/* A copy of sched_class->policies, made by sched_init (class_install):
 * an array at a fixed address, so policy_of() is one load, as it was
 * before lineage mode (the staircase's path lengths, docs/bench.md). */
const struct sched_policy *sched_policies[SCHED_NR_POLICIES];

void class_install(void)
{
	for (int i = 0; i < SCHED_NR_POLICIES; i++)
		sched_policies[i] = sched_class->policies[i];
}

static bool name_is(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return *a == *b;
}

int sched_select_class(const char *name)
{
	for (int c = 0; name && sched_classes[c]; c++) {
		if (!name_is(name, sched_classes[c]->name))
			continue;
		sched_class = sched_classes[c];
		return 0;
	}
	return -EINVAL;
}

const char *sched_class_name(void)
{
	return sched_class->name;
}

const char *sched_class_title(void)
{
	return sched_class->title;
}

/* The names, space-separated, in a buffer big enough for many more than
 * the five of the issue (a longer list is cut, never overrun). */
const char *sched_class_names(void)
{
	static char buf[64];
	unsigned n = 0;

	for (int c = 0; sched_classes[c]; c++) {
		if (c && n + 1 < sizeof(buf))
			buf[n++] = ' ';
		for (const char *s = sched_classes[c]->name; *s && n + 1 < sizeof(buf); s++)
			buf[n++] = *s;
	}
	buf[n] = 0;
	return buf;
}
