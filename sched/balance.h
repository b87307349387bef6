/*
 * balance.h - SMP: scheduling domains, wake-up placement and load
 * balancing (staircase.md §8).
 */
#ifndef SCHED_BALANCE_H
#define SCHED_BALANCE_H

#include "runqueue.h"

/* Rotation (staircase.md §8.2): a CPU gives or takes at most one task by
 * rotation in this time. */
#define ROTATE_INTERVAL_NS	20000000ull

/* Rotation's state of one CPU: written under that CPU's rq lock, read
 * without it as a hint, reset by balance_init(). Not in struct runqueue:
 * 16 bytes more there changed how every schedule() computes an rq's
 * address (a shift sequence instead of imul, and a register spilled):
 * +88 instructions a sched_yield (make bench). */
struct rotation {
	uint64_t rotated_ns;		/* last gave or took a task by rotation */
	uint64_t turn_ns;		/* its turn: the oldest goes first */
};
struct rotation *cpu_rotation(int cpu);

void balance_init(int ncpus, const struct sched_topology *topo);
/* Where to put t when it wakes: reads the other queues without their locks
 * (a hint), and takes prev's lock only to ask whether t would preempt there. */
int select_task_cpu(struct sched_task *t);
/* Called by schedule() with no lock held when this CPU has nothing to run. */
void idle_balance(struct runqueue *rq);
/* Called by sched_tick() with no lock held: the periodic rebalance. */
void balance_tick(struct runqueue *rq, bool idle);
/* Move t (queued, not running) to a CPU it is allowed on; no lock held. */
void migrate_queued_task(struct sched_task *t);
/* Finish an SF_MIGRATE move after prev left its CPU; no lock held. */
void migrate_switched_out(struct sched_task *p);

#endif
