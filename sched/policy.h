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
 * A hook left out (NULL) means the staircase's default, named on each
 * hook below; so SCHED_NORMAL, the plain staircase, sets none.
 *
 * All quantities are in ticks. Every hook runs with the task's rq lock
 * held and interrupts off (the core calls them from the tick, wake-up,
 * schedule() and the system calls, all under that lock), and only reads
 * or writes the task it is given and that run queue.
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

	/* The quantum; default RR (rr_ticks()). */
	int (*rr_interval)(const struct sched_task *p);
	/* Default 39 - user_prio (§4). */
	int (*max_burst)(const struct sched_task *p);
	/* The whole slice; default RR x (1 + max_burst) (§4). */
	int (*full_slice)(const struct sched_task *p);
	/* The stair now, computed, never stored (the caller stores it);
	 * default staircase_prio(p, true) (§5). */
	int (*effective_prio)(const struct sched_task *p);
	/* time_slice at wake-up; default the quantum (§6.2). */
	int (*first_quantum)(const struct sched_task *p);
	/* Default staircase_tick (§6.1). */
	void (*tick)(struct runqueue *rq, struct sched_task *p);
	/* Optional. Every tick of every CPU, whatever runs (ISO's share). */
	void (*rq_tick)(struct runqueue *rq, struct sched_task *curr);
	/* Optional. At wake-up, before the stair is computed (§6.2). */
	void (*wake)(struct sched_task *p);
	/* Optional: SMT_* roles for the SMT rule; none: by slice (§8.3). */
	unsigned (*smt_rule)(const struct sched_task *p);
	/* sched_yield: the list the task waits on (at its tail), and any
	 * flag the policy sets; default: flagged YIELDED, at 139 (§6.5). */
	int (*yield)(struct sched_task *p);
	/* What sched_rr_get_interval reports; default the whole slice. */
	int (*rr_get_interval)(const struct sched_task *p);
};

extern const struct sched_policy policy_normal, policy_fifo, policy_rr,
	policy_batch, policy_iso;
/* LAB policy BEGIN */
/* LAB policy SOLUTION
extern const struct sched_policy policy_idleprio;
*/
/* LAB policy END */
extern const struct sched_policy *const sched_policies[SCHED_NR_POLICIES];

static inline const struct sched_policy *policy_of(const struct sched_task *p)
{
	return sched_policies[p->policy];
}

static inline bool valid_policy(int policy)
{
	return policy >= 0 && policy < SCHED_NR_POLICIES && sched_policies[policy];
}

/* The staircase's defaults, which the policies may also call: the two
 * formulas of §4 here (inline: every yield and stair asks for them, make
 * profile), the rest in policy.c. */

/* §4: one extra quantum on the top stair per user priority above the
 * lowest: 19 at nice 0, 0 at nice 19. */
static inline int staircase_max_burst(const struct sched_task *p)
{
	return (NICE_LEVELS - 1) - USER_PRIO(p);
}

int staircase_prio(const struct sched_task *p, bool burst_extends_top);
void staircase_tick(struct runqueue *rq, struct sched_task *p);
/* §6.5, sched_yield: to the lowest stair, flagged YIELDED. */
static inline int staircase_yield(struct sched_task *p)
{
	p->flags |= SF_YIELDED;
	return LOWEST_STAIR;
}
/* A quantum is over: requeue at the stair now, a fresh quantum, and the
 * CPU reschedules; event is what the trace calls it. */
void end_quantum(struct runqueue *rq, struct sched_task *p, int event);
void dec_burst(struct sched_task *p);
void inc_burst(struct sched_task *p);

/* The core asks through these: the policy's hook, or the default. */
#define POLICY_OR(p, hook, dflt) \
	(policy_of(p)->hook ? policy_of(p)->hook : (dflt))
static inline int rr_interval(const struct sched_task *p)
{
	return policy_of(p)->rr_interval ? policy_of(p)->rr_interval(p) : rr_ticks();
}
static inline int max_burst(const struct sched_task *p)
{
	return policy_of(p)->max_burst ? policy_of(p)->max_burst(p) : staircase_max_burst(p);
}
/* §4: one quantum per stair from the top stair down to 139. */
static inline int staircase_full_slice(const struct sched_task *p)
{
	return rr_ticks() * (1 + max_burst(p));
}
static inline int full_slice(const struct sched_task *p)
{
	return policy_of(p)->full_slice ? policy_of(p)->full_slice(p) : staircase_full_slice(p);
}
static inline int effective_prio(const struct sched_task *p)
{
	return policy_of(p)->effective_prio ? policy_of(p)->effective_prio(p) : staircase_prio(p, true);
}
static inline int first_quantum(const struct sched_task *p)
{
	return policy_of(p)->first_quantum ? policy_of(p)->first_quantum(p) : rr_interval(p);
}
static inline void policy_tick(struct runqueue *rq, struct sched_task *p)
{
	POLICY_OR(p, tick, staircase_tick)(rq, p);
}
static inline int policy_yield(struct sched_task *p)
{
	return policy_of(p)->yield ? policy_of(p)->yield(p) : staircase_yield(p);
}
static inline int rr_get_interval(const struct sched_task *p)
{
	return policy_of(p)->rr_get_interval ? policy_of(p)->rr_get_interval(p) : full_slice(p);
}
static inline bool fixed_prio(const struct sched_task *p) { return policy_of(p)->rt; }
static inline unsigned smt_rule(const struct sched_task *p)
{
	return policy_of(p)->smt_rule ? policy_of(p)->smt_rule(p) : 0;
}


/* The ISO cap [beyond] (policy_iso.c). */
int iso_share_permille(const struct runqueue *rq);

#endif
