/*
 * smt.h - the dependent-sleeper rule for hyperthread siblings
 * (staircase.md §8.3, seed 002).
 */
#ifndef SCHED_SMT_H
#define SCHED_SMT_H

#include "runqueue.h"

/* Whether the rule has anyone to look at: a CPU without hyperthread
 * siblings (every CPU of a plain -smp N) skips the loops below. */
static inline bool rq_has_siblings(const struct runqueue *rq)
{
	return rq->siblings != 1u << rq->cpu;
}

/* rq and all its siblings locked: true if rq should run idle instead of p.
 * May ask siblings to reschedule. */
bool dependent_sleeper(struct runqueue *rq, struct sched_task *p);
/* rq is going idle: wake idle siblings that have queued work. */
void wake_sleeping_siblings(struct runqueue *rq);

#endif
