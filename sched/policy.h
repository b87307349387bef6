/*
 * policy.h - the policy table: where every difference between the
 * scheduling policies lives (staircase.md §4, §5, §6 and §7).
 *
 * Like Linux's struct sched_class, but small: one struct of numbers and
 * hooks per policy, one file per policy (policy_normal.c, policy_rt.c,
 * policy_batch.c, policy_iso.c) and one table (policy.c). The core calls
 * only these hooks, never "if (policy == ...)". To add a policy: write
 * policy_foo.c with a struct sched_policy, give it a SCHED_ number in
 * sched.h and add it to the table in policy.c.
 *
 * All quantities are in ticks. Hooks that change a queued task are called
 * with its rq lock held.
 */
#ifndef SCHED_POLICY_H
#define SCHED_POLICY_H

#include "runqueue.h"
#include "tunables.h"

/* The SMT rule's roles (staircase.md §8.3), from a policy's smt_rule. */
#define SMT_NEVER_WAITS		0x1	/* never idled for its sibling (RT) */
#define SMT_ALWAYS_WAITS	0x2	/* idled for any sibling (BATCH) */
#define SMT_SIBLING_WAITS	0x4	/* its sibling is always idled for it (RT) */
#define SMT_SIBLING_NEVER_WAITS	0x8	/* nobody idles for it (BATCH) */

/* Every task starts as this policy (sched_task_init). */
#define DEFAULT_POLICY		SCHED_NORMAL

struct sched_policy {
	const char *name;
	bool rt;		/* FIFO/RR: prio = 99 - rt_priority, never moves */
	/* What an unprivileged request for it becomes (seed 003: FIFO/RR are
	 * granted as ISO), or NULL if anyone may have it. */
	const struct sched_policy *unprivileged_as;
	int number;		/* its SCHED_ number */
	bool user_only;		/* kernel threads may not have it (seed 002) */
	bool nice_time;		/* its ticks count as "nice" time (seed 002) */
	int prio_min, prio_max;	/* sched_get_priority_min/max */

	int (*rr_interval)(const struct sched_task *p);	/* the quantum */
	int (*max_burst)(const struct sched_task *p);
	int (*full_slice)(const struct sched_task *p);
	int (*effective_prio)(struct sched_task *p);	/* the stair now */
	int (*first_quantum)(const struct sched_task *p);	/* time_slice at wake-up */
	void (*tick)(struct runqueue *rq, struct sched_task *p);
	/* Optional. Every tick of every CPU, whatever runs (ISO's share). */
	void (*rq_tick)(struct runqueue *rq, struct sched_task *curr);
	/* Optional. At wake-up, before the stair is computed (§6.2). */
	void (*wake)(struct sched_task *p);
	/* Optional: SMT_* roles for the SMT rule; none: by slice (§8.3). */
	unsigned (*smt_rule)(const struct sched_task *p);
	void (*yield)(struct sched_task *p);		/* set prio/flags for yield */
	int (*rr_get_interval)(const struct sched_task *p);	/* reported, in ticks */
};

extern const struct sched_policy policy_normal, policy_fifo, policy_rr,
	policy_batch, policy_iso;
extern const struct sched_policy *const sched_policies[SCHED_NR_POLICIES];

static inline const struct sched_policy *policy_of(const struct sched_task *p)
{
	return sched_policies[p->policy];
}

static inline bool valid_policy(int policy)
{
	return policy >= 0 && policy < SCHED_NR_POLICIES && sched_policies[policy];
}

/* Shorthands for the core. */
static inline int rr_interval(const struct sched_task *p) { return policy_of(p)->rr_interval(p); }
static inline int max_burst(const struct sched_task *p) { return policy_of(p)->max_burst(p); }
static inline int full_slice(const struct sched_task *p) { return policy_of(p)->full_slice(p); }
static inline int effective_prio(struct sched_task *p) { return policy_of(p)->effective_prio(p); }
static inline bool fixed_prio(const struct sched_task *p) { return policy_of(p)->rt; }
static inline unsigned smt_rule(const struct sched_task *p)
{
	return policy_of(p)->smt_rule ? policy_of(p)->smt_rule(p) : 0;
}

/* Shared by the staircase policies (policy.c). */
int staircase_prio(struct sched_task *p, bool burst_extends_top);
void staircase_tick(struct runqueue *rq, struct sched_task *p);
int rr_quantum(const struct sched_task *p);	/* RR for everyone */
int rr_first_quantum(const struct sched_task *p);	/* rr_interval(p) */
int full_slice_interval(const struct sched_task *p);	/* full_slice(p) */
void dec_burst(struct sched_task *p);
void inc_burst(struct sched_task *p);

/* The ISO cap [beyond] (policy_iso.c). */
int iso_share_permille(const struct runqueue *rq);

#endif
