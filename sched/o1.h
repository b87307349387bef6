/*
 * o1.h - the numbers of o1's rules (policy_o1.c, docs/o1.md), computed as
 * the scheduler computes them, for the unit tests.
 */
#ifndef SCHED_O1_H
#define SCHED_O1_H

#include "runqueue.h"

int o1_timeslice(const struct sched_task *p);		/* §1: ticks */
int o1_bonus(const struct sched_task *p);		/* §2: CURRENT_BONUS, 0..10 */
int o1_effective_prio(const struct sched_task *p);	/* §2: 100..139 */
bool o1_interactive(const struct sched_task *p);	/* §2: TASK_INTERACTIVE */

extern const struct sched_ops o1_ops;		/* NORMAL and BATCH under o1 */

#endif
