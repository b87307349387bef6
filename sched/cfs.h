/*
 * cfs.h - what policy_cfs.c shares with the unit tests and the simulator: the
 * numbers of its rules (docs/cfs.md), computed as the scheduler computes
 * them.
 */
#ifndef SCHED_CFS_H
#define SCHED_CFS_H

#include "runqueue.h"
#include "policy.h"

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

/* ---- what policy_eevdf.c builds on (eevdf is a flag on cfs, as in
 * Linux 6.6: docs/eevdf.md) ---- */
extern bool fair_eevdf;		/* set by eevdf's class init: its rules run */
extern const struct sched_ops cfs_ops, cfs_batch_ops, eevdf_ops, eevdf_batch_ops;
bool fair_before(uint64_t a, uint64_t b);	/* a < b, vruntimes that wrap */
uint64_t fair_virtual_ns(uint64_t delta, uint32_t weight);
void fair_link(struct runqueue *rq, struct sched_task *t);
void fair_update_curr(struct runqueue *rq, uint64_t now);
void fair_start_running(struct runqueue *rq, struct sched_task *t, uint64_t now);
void fair_scale_by_cpus(int id, int factor);
int fair_cpu_factor(int ncpus);			/* 1 + ilog2(ncpus) */
/* eevdf.md §1: a queue's weighted sums, each vruntime taken from
 * min_vruntime: sum of (vruntime - min_vruntime) x weight, and of the
 * weights. */
struct fair_avg {
	int64_t sum;
	int64_t load;
};
/* eevdf.md §2: t's vruntime is not after V, the average of avg. */
bool eevdf_eligible(const struct runqueue *rq, struct fair_avg avg, const struct sched_task *t);
/* eevdf_tree.c: the waiting fair tasks (all but rq->fair.curr), ordered
 * by queued vruntime, each subtree knowing its earliest deadline. */
void eevdf_tree_insert(struct runqueue *rq, struct sched_task *t);
void eevdf_tree_erase(struct runqueue *rq, struct sched_task *t);	/* if in it */
/* eevdf.md §3: the eligible task with the earliest deadline, the first
 * in queue order of equal ones; NULL if none is eligible. */
struct sched_task *eevdf_tree_pick(const struct runqueue *rq, struct fair_avg avg);
/* eevdf.md §3: a new slice when the running task reaches its deadline. */
void eevdf_update_deadline(struct runqueue *rq, struct sched_task *c);
/* eevdf.md §1: p's lag, V - vruntime, while queued (its rq locked); the
 * saved one while not. */
int64_t eevdf_lag(const struct sched_task *p);
void cfs_enqueue(struct runqueue *rq, struct sched_task *t);
void cfs_dequeue(struct runqueue *rq, struct sched_task *t);
void cfs_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now);
void cfs_set_curr(struct runqueue *rq, struct sched_task *t);
void cfs_fork(struct sched_task *parent, struct sched_task *child);
void cfs_renice(struct sched_task *t, int nice);
int cfs_prio(const struct sched_task *p);
int cfs_yield_prio(struct sched_task *p);
unsigned cfs_smt_rule(const struct sched_task *p);

#endif
