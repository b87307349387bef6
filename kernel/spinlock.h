/*
 * spinlock.h - the kernel's lock type: declared in sched/spinlock.h, which
 * sched/ shares (it must build without kernel/); implemented in
 * kernel/spinlock.c.
 */
#ifndef KERNEL_SPINLOCK_H
#define KERNEL_SPINLOCK_H

#include "../sched/spinlock.h"

/* Take l if it is free (true), else return false at once: for a waiter
 * that must do something else while it waits (kernel/mm.c). */
bool spin_trylock(struct spinlock *l);

#endif
