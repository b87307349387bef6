/*
 * core.h - what core.c shares with the other files of sched/ (not with
 * the kernel: that is sched.h).
 */
#ifndef SCHED_CORE_H
#define SCHED_CORE_H

#include "policy.h"

/* The preemption check of p's policy (its ops' preempt), without side
 * effects: staircase.md §6.3 for the staircase's. */
static inline enum preempt_decision preempt_decision(const struct runqueue *rq,
						     const struct sched_task *p)
{
	return ops_of(p)->preempt(rq, p);
}
/* The same, acting on it: resched_cpu(), or remember a delayed one. */
void check_preempt(struct runqueue *rq, struct sched_task *p);
/* What t would look like if it were woken now (for wake placement). */
void predict_activation(const struct sched_task *t, struct sched_task *copy);
/* Move a dequeued task from src to dst (both locked): staircase.md §8.1. */
void attach_task(struct runqueue *src, struct runqueue *dst, struct sched_task *p);
uint64_t ns_to_ticks(uint64_t ns);

#endif
