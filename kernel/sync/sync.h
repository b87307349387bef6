/*
 * kernel/sync/ - the kernel's ways to wait for each other: the spinlock
 * of lib/spinlock.h on x86 (spinlock.c: interrupts off while held, nesting
 * counted), sleeping mutexes, wait queues, RCU (free only after every CPU
 * has passed a quiescent point) and the lock statistics (lockstat).
 *
 * Locks: each wait queue's and mutex's own lock guards its list of
 * sleepers; RCU's per-CPU lock its callbacks. These are innermost but for
 * the run queues' (sched/): nothing is taken while one is held.
 *
 * Face of this folder. May call: lib, sched, kernel/arch, kernel/debug, kernel/mm, kernel/task, kernel/time.
 */
#ifndef KERNEL_SYNC_SYNC_H
#define KERNEL_SYNC_SYNC_H

#include "lockstat.h"
#include "mutex.h"
#include "rcu.h"
#include "waitq.h"

#endif
