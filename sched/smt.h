/*
 * smt.h - the dependent-sleeper rule for hyperthread siblings
 * (staircase.md §8.3, seed 002).
 */
#ifndef SCHED_SMT_H
#define SCHED_SMT_H

#include "runqueue.h"

/* rq and all its siblings locked: true if rq should run idle instead of p.
 * May ask siblings to reschedule. */
bool dependent_sleeper(struct runqueue *rq, struct sched_task *p);
/* rq is going idle: wake idle siblings that have queued work. */
void wake_sleeping_siblings(struct runqueue *rq);

#endif
