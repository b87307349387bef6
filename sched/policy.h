/*
 * policy.h - the policy table: where every difference between the
 * scheduling policies lives (staircase.md §4, §5, §6 and §7).
 *
 * Like Linux's struct sched_class, but small: one struct of numbers and
 * hooks per policy, one file per policy (policy.c: SCHED_NORMAL, the
 * plain staircase, whose hooks the others reuse; policy_rt.c,
 * policy_batch.c, policy_iso.c) and one table (policy.c). The core calls
 * only these hooks, never "if (policy == ...)". To add a policy: write
 * policy_foo.c with a struct sched_policy, give it a SCHED_ number in
 * sched.h and add it to the table in policy.c.
 *
 * Every table names every hook, as Linux's sched_class does even for the
 * idle class's empty task_tick_idle: what a policy shares with the plain
 * staircase it names as the staircase_* function (policy.c), so reading
 * one table tells what that policy does. A NULL hook is a bug, caught at
 * boot (sched_check_policies, from sched_init) and by a unit test.
 *
 * All quantities are in ticks. Locking: every hook runs with the lock of
 * the task's run queue held (cpu_rq(p->cpu)), interrupts off, and only
 * reads or writes the task it is given and that run queue. The core calls
 * them from the tick, wake-up, schedule(), fork, nice and the system
 * calls, all under that lock; wake-up placement asks them about a private
 * copy of the task (predict_activation), also under that lock. The one
 * exception is sched_task_init, on a task no other CPU can see yet: it
 * asks full_slice and rr_interval without a lock, and those two may
 * read only the task and the tunables.
 */
#ifndef SCHED_POLICY_H
#define SCHED_POLICY_H

#include "runqueue.h"
#include "tunables.h"

/* A woken task against the running one (staircase.md §6.3; cfs.md §4). */
enum preempt_decision { PREEMPT_NO, PREEMPT_NOW, PREEMPT_DELAYED };

/*
 * How a task of a policy lives on its run queue: the class interface of
 * lineage mode (docs/lineage.md §2). The staircase's (staircase_ops,
 * core.c) serves every policy of the staircase and FIFO/RR under every
 * class; policy_cfs.c's serve SCHED_NORMAL and SCHED_BATCH under cfs and eevdf.
 * The core calls these and nothing else for what differs between
 * schedulers; the locking is the policy hooks' (below): each runs with
 * the task's run queue locked (both queues for migrate).
 */
struct sched_ops {
	/* Put t on rq's lists where it waits (the staircase: the tail of
	 * queue[t->prio]), or take it off; the core counts it. */
	void (*enqueue)(struct runqueue *rq, struct sched_task *t);
	void (*dequeue)(struct runqueue *rq, struct sched_task *t);
	/* Wake-up: all that activation decides about p before it is queued
	 * on rq (t->cpu is rq's). Wake placement asks it about a copy of p,
	 * so it writes nothing but p and the accounting of rq's running
	 * task. */
	void (*activate)(struct runqueue *rq, struct sched_task *p, uint64_t now);
	/* Should the woken (or moved, or new) p preempt rq->curr? No side
	 * effects. */
	enum preempt_decision (*preempt)(const struct runqueue *rq, const struct sched_task *p);
	/* Fork: the child's start, under the parent's run-queue lock; then
	 * wake_new, just before the child is first queued on rq. */
	void (*fork)(struct sched_task *parent, struct sched_task *child);
	void (*wake_new)(struct runqueue *rq, struct sched_task *t);
	/* schedule(): prev stops running (it may be about to sleep), and
	 * next, the first task of the highest list, is about to run: the
	 * task to run instead, if the policy says another (staircase: a
	 * YIELDED task back to its stair). */
	void (*put_prev)(struct runqueue *rq, struct sched_task *prev, uint64_t now);
	struct sched_task *(*pick)(struct runqueue *rq, struct sched_task *next);
	/* A policy change: the running t runs on under its new policy
	 * (Linux's set_curr_task; put_prev came before the change). */
	void (*set_curr)(struct runqueue *rq, struct sched_task *t);
	/* sched_yield by the running p. */
	void (*yield)(struct runqueue *rq, struct sched_task *p);
	/* A nice change: set t's static_prio and what follows from it; t is
	 * off its queue (the core queues it again). */
	void (*renice)(struct sched_task *t, int nice);
	/* t, off src's queue, moves to dst's (both locked). */
	void (*migrate)(struct runqueue *src, struct runqueue *dst, struct sched_task *t);
};

/* The SMT rule's roles (staircase.md §8.3), from a policy's smt_rule. */
#define SMT_NEVER_WAITS		0x1	/* never idled for its sibling (RT) */
#define SMT_ALWAYS_WAITS	0x2	/* idled for any sibling (BATCH) */
#define SMT_SIBLING_WAITS	0x4	/* its sibling is always idled for it (RT) */
#define SMT_SIBLING_NEVER_WAITS	0x8	/* nobody idles for it (BATCH) */

/* Every task starts as this policy (sched_task_init). */
#define DEFAULT_POLICY		SCHED_NORMAL

/* A child of a SCHED_RESET_ON_FORK task, before its class's fork hook:
 * a real-time policy becomes DEFAULT_POLICY, a negative nice 0, and the
 * flag is not inherited (Linux's sched_fork; ISO and BATCH, which any
 * user may take, are kept). */
void policy_reset_on_fork(struct sched_task *child);

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
	/* How its tasks live on a run queue (staircase_ops, cfs_ops, ...). */
	const struct sched_ops *ops;

	/* The quantum (staircase_rr_interval: RR, rr_ticks()). */
	int (*rr_interval)(const struct sched_task *p);
	/* Extra quanta on the top stair (staircase_max_burst: 39 -
	 * user_prio, §4). */
	int (*max_burst)(const struct sched_task *p);
	/* The whole slice (staircase_full_slice: RR x (1 + max_burst), §4). */
	int (*full_slice)(const struct sched_task *p);
	/* The stair now, computed, never stored (the caller stores it)
	 * (staircase_effective_prio, §5). */
	int (*effective_prio)(const struct sched_task *p);
	/* time_slice at wake-up (staircase_first_quantum: the quantum, §6.2). */
	int (*first_quantum)(const struct sched_task *p);
	/* The running task's tick (staircase_tick, §6.1). */
	void (*tick)(struct runqueue *rq, struct sched_task *p);
	/* Every tick of every CPU, whatever runs, for every policy (ISO's
	 * share; staircase_rq_tick: nothing). */
	void (*rq_tick)(struct runqueue *rq, struct sched_task *curr);
	/* At wake-up, before the stair is computed (§6.2; staircase_wake:
	 * nothing). */
	void (*wake)(struct sched_task *p);
	/* SMT_* roles for the SMT rule (§8.3; staircase_smt_rule: none, the
	 * rule goes by slice alone). */
	unsigned (*smt_rule)(const struct sched_task *p);
	/* sched_yield: the list the task waits on (at its tail), and any
	 * flag the policy sets (staircase_yield: flagged YIELDED, at 139,
	 * §6.5). */
	int (*yield)(struct sched_task *p);
	/* What sched_rr_get_interval reports (staircase_rr_get_interval:
	 * the whole slice). */
	int (*rr_get_interval)(const struct sched_task *p);
};

extern const struct sched_policy policy_normal, policy_fifo, policy_rr,
	policy_batch, policy_iso;
/* LAB policy BEGIN */
/* LAB policy END */
extern const struct sched_ops staircase_ops;

/*
 * A scheduler of lineage mode (docs/lineage.md): the one chosen at boot
 * (sched=NAME; sched_select_class) names the table of policies every
 * task is scheduled by. A NULL entry is a policy that scheduler lacks
 * (SCHED_ISO outside the staircase): asking for it is EINVAL.
 */
struct sched_class {
	const char *name;	/* the sched= word, /proc/scheduler's first */
	const char *title;	/* what it is, for /proc/scheduler and the boot log */
	const struct sched_policy *policies[SCHED_NR_POLICIES];
	void (*init)(int ncpus);	/* at sched_init, before any task */
};
extern const struct sched_class staircase_class, o1_class, sd_class, cfs_class, eevdf_class;
extern const struct sched_class *sched_class;
/* Every class, NULL-terminated (class.c). */
extern const struct sched_class *const sched_classes[];
/* The chosen class's policies, copied from sched_class->policies by
 * class_install() (sched_init). */
extern const struct sched_policy *sched_policies[SCHED_NR_POLICIES];
void class_install(void);

static inline const struct sched_policy *policy_of(const struct sched_task *p)
{
	return sched_policies[p->policy];
}

static inline const struct sched_ops *ops_of(const struct sched_task *p)
{
	return policy_of(p)->ops;
}

static inline bool valid_policy(int policy)
{
	return policy >= 0 && policy < SCHED_NR_POLICIES && sched_policies[policy];
}

/* Checks that every hook of p is named (a KASSERT naming the missing one);
 * sched_check_policies does it for every table of every class, at boot. */
void check_policy_hooks(const struct sched_policy *p);
void sched_check_policies(void);

/* The staircase's ops (staircase_ops, policy.c): what the core did before
 * lineage mode, in runqueue.c and core.c. */
void staircase_enqueue(struct runqueue *rq, struct sched_task *t);
void staircase_dequeue(struct runqueue *rq, struct sched_task *t);
void staircase_activate(struct runqueue *rq, struct sched_task *p, uint64_t now);
enum preempt_decision staircase_preempt(const struct runqueue *rq, const struct sched_task *p);
void staircase_fork(struct sched_task *parent, struct sched_task *child);
struct sched_task *staircase_pick(struct runqueue *rq, struct sched_task *next);
void staircase_yield_task(struct runqueue *rq, struct sched_task *p);
void staircase_renice(struct sched_task *t, int nice);

/* The plain staircase's hooks (policy.c), which SCHED_NORMAL's table names
 * and the other policies name where they do what the staircase does. */
int staircase_rr_interval(const struct sched_task *p);
int staircase_max_burst(const struct sched_task *p);
int staircase_full_slice(const struct sched_task *p);
int staircase_effective_prio(const struct sched_task *p);
int staircase_first_quantum(const struct sched_task *p);
void staircase_tick(struct runqueue *rq, struct sched_task *p);
void staircase_rq_tick(struct runqueue *rq, struct sched_task *curr);
void staircase_wake(struct sched_task *p);
unsigned staircase_smt_rule(const struct sched_task *p);
int staircase_yield(struct sched_task *p);
int staircase_rr_get_interval(const struct sched_task *p);

/* §5: the stair, with or without the burst extending the top one (ISO
 * has none). */
int staircase_prio(const struct sched_task *p, bool burst_extends_top);
/* A quantum is over: requeue at the stair now, a fresh quantum, and the
 * CPU reschedules; event is what the trace calls it. */
void end_quantum(struct runqueue *rq, struct sched_task *p, int event);
void dec_burst(struct sched_task *p);
void inc_burst(struct sched_task *p);

/* The plain staircase's numbers (§4), written once here: the hooks in
 * policy.c return them. */
static inline int stair_max_burst(const struct sched_task *p)
{
	return (NICE_LEVELS - 1) - USER_PRIO(p);
}

/* The core asks through these: always the task's policy's hook, so the
 * hook a student edits is the code that runs. */
static inline int rr_interval(const struct sched_task *p)
{
	return policy_of(p)->rr_interval(p);
}
static inline int max_burst(const struct sched_task *p)
{
	return policy_of(p)->max_burst(p);
}
/* §4: one quantum per stair from the top stair down to 139. */
static inline int stair_full_slice(const struct sched_task *p)
{
	return rr_ticks() * (1 + max_burst(p));
}
static inline int full_slice(const struct sched_task *p)
{
	return policy_of(p)->full_slice(p);
}
static inline int effective_prio(const struct sched_task *p)
{
	return policy_of(p)->effective_prio(p);
}
static inline int first_quantum(const struct sched_task *p)
{
	return policy_of(p)->first_quantum(p);
}
static inline void policy_tick(struct runqueue *rq, struct sched_task *p)
{
	policy_of(p)->tick(rq, p);
}
static inline void policy_wake(struct sched_task *p)
{
	policy_of(p)->wake(p);
}
/* §6.5, sched_yield: to the lowest stair, flagged YIELDED. */
static inline int stair_yield(struct sched_task *p)
{
	p->flags |= SF_YIELDED;
	return LOWEST_STAIR;
}
static inline int policy_yield(struct sched_task *p)
{
	return policy_of(p)->yield(p);
}
static inline int rr_get_interval(const struct sched_task *p)
{
	return policy_of(p)->rr_get_interval(p);
}
static inline bool fixed_prio(const struct sched_task *p) { return policy_of(p)->rt; }
static inline unsigned smt_rule(const struct sched_task *p)
{
	return policy_of(p)->smt_rule(p);
}

/* The ISO cap [beyond] (policy_iso.c). */
int iso_share_permille(const struct runqueue *rq);

#endif
