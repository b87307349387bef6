/*
 * sd.h - the numbers of sd's rules (policy_sd.c, docs/sd.md), computed as
 * the scheduler computes them, for the unit tests.
 */
#ifndef SCHED_SD_H
#define SCHED_SD_H

#include "runqueue.h"

#define SD_RR_MS	8		/* §1: rr_interval, each level's task quota */

int sd_rr_ticks(void);				/* §1: the quota in ticks */
int sd_levels(const struct sched_task *p);	/* §1: levels from its nice down */

extern const struct sched_ops sd_ops;		/* NORMAL and BATCH under sd */

#endif
