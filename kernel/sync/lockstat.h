/*
 * lockstat.h - lock statistics (docs/kernel.md "Lock statistics"): every
 * spinlock and mutex of one name is one class; each CPU counts, per class,
 * acquisitions, contended acquisitions, and the TSC cycles spent waiting
 * and holding. Read with system call 509 (the lockstat tool), in the
 * columns of Linux's /proc/lock_stat.
 *
 * Built with LOCK_DEBUG (the default build; DEBUG=0 leaves it out) and
 * off until switched on (`lockstat on`, as Linux's kernel.lock_stat
 * sysctl): off, it costs a lock one test (+10 instructions a yield);
 * on, it costs a yield about 540 more (docs/kernel.md "Lock statistics").
 */
#ifndef KERNEL_LOCKSTAT_H
#define KERNEL_LOCKSTAT_H

#include <stdint.h>
#include <stdbool.h>
#include "lib/spinlock.h"

enum lock_kind { LOCK_SPIN = 0, LOCK_MUTEX = 1 };

/* What one CPU saw of one class. Cycles are the TSC's. */
struct lock_cpu_stat {
	uint64_t acquisitions;
	uint64_t contentions;	/* acquisitions that had to wait */
	uint64_t acq_bounces;	/* taken on another CPU than last time */
	uint64_t con_bounces;	/* contended, and the holder was another CPU than last time */
	uint64_t wait_total, wait_min, wait_max;
	uint64_t hold_total, hold_min, hold_max;
};

struct lock_class;

/* Counting? Read by every spin_lock; written by call 509 only. */
extern volatile bool lockstat_on;

/* A spinlock just taken (waited_from: the TSC when it was found taken, 0
 * if it was free) and about to be released, when it was taken counting. */
void lockstat_spin_taken(struct spinlock *l, uint64_t waited_from);
void lockstat_spin_released(struct spinlock *l);

struct lock_class *lockstat_class(const char *name, enum lock_kind kind);
void lockstat_acquired(struct lock_class *c, int last_cpu, uint64_t wait, bool contended);
void lockstat_released(struct lock_class *c, uint64_t held);

int sys_lock_stat(int op, uint32_t ubuf, int n);

#endif
