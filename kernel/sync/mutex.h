/*
 * mutex.h - sleeping locks for the kernel.
 *
 * A task that finds the mutex taken sleeps UNINTERRUPTIBLY (it cannot be
 * killed out of it), which is what sets the scheduler's UISLEEP flag and,
 * for a BATCH task, earns it one run at priority 139 when it wakes
 * (docs/staircase.md §7.4: the cure for priority inversion).
 */
#ifndef KERNEL_MUTEX_H
#define KERNEL_MUTEX_H

#include "waitq.h"

struct proc;

struct mutex {
	struct spinlock lock;
	struct proc *owner;
	struct waitq wait;
	/* Lock statistics (kernel/sync/lockstat.c), as for a spinlock; the wait
	 * counted is the sleep until the mutex is ours. */
	struct lock_class *cls;
	int last_cpu;
	uint64_t held_since;
};

void mutex_init(struct mutex *m, const char *name);
void mutex_lock(struct mutex *m);
/* As mutex_lock, but a kill ends the wait: 0 with the mutex, or -EINTR. */
int mutex_lock_killable(struct mutex *m);
void mutex_unlock(struct mutex *m);

#endif
