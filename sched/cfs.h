/*
 * cfs.h - what policy_cfs.c shares with the unit tests and the simulator: the
 * numbers of its rules (docs/cfs.md), computed as the scheduler computes
 * them.
 */
#ifndef SCHED_CFS_H
#define SCHED_CFS_H

#include "runqueue.h"

/* cfs.md §1: nice 0's weight; a task's vruntime grows by ns x 1024 / w. */
#define NICE_0_LOAD	1024
/* cfs.md §2: every fair task (NORMAL and BATCH) waits on this list, in
 * vruntime order; FIFO/RR stay above it, on their own lists. */
#define FAIR_PRIO	NICE_TO_PRIO(0)

/* cfs.md §1: Linux's prio_to_weight[] for p's nice. */
uint32_t cfs_weight(const struct sched_task *p);
/* cfs.md §3: the period in which nr queued tasks each run once. */
uint64_t cfs_period(int nr);
/* cfs.md §3: p's share of the period on rq, in ns (p queued on rq, or
 * counted as if it were). */
uint64_t cfs_slice(const struct runqueue *rq, const struct sched_task *p);

#endif
