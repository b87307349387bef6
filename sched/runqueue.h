/*
 * runqueue.h - one run queue per CPU (staircase.md §2).
 *
 * A run queue is 142 FIFO lists indexed by priority and a bitmap of the
 * non-empty ones; bit 141 (MAX_PRIO) is always set, so "find the first set
 * bit" always stops, at the idle task at worst. Picking the next task is
 * O(1) in the number of runnable tasks. The running task stays on its list
 * (at the head, where it was picked from) while it runs.
 *
 * Every field is protected by rq->lock unless its comment says otherwise.
 * To hold several rq locks at once, use lock_rqs() (ascending CPU order).
 */
#ifndef SCHED_RUNQUEUE_H
#define SCHED_RUNQUEUE_H

#include "sched.h"
#include "machine.h"

#define BITMAP_WORDS	((NR_PRIO_LISTS + 31) / 32)

enum sd_level { SD_SMT, SD_CORE, SD_PACKAGE, SD_NR_LEVELS };

/* A scheduling domain (balance.c): a set of CPUs split into groups. */
struct sched_domain {
	int level;			/* enum sd_level */
	uint32_t span;			/* CPUs in this domain */
	int ngroups;
	uint32_t groups[SCHED_MAX_CPUS];	/* each a child domain's span */
	unsigned busy_interval;		/* ticks between balances when busy */
	uint64_t cache_hot_ns;		/* ran this recently = cache-hot */
	int cache_nice_tries;		/* failures before hot tasks may move */
	int nr_balance_failed;
	uint64_t next_balance;		/* rq->ticks of the next balance */
};

struct runqueue {
	struct spinlock lock;
	int cpu;
	uint32_t bitmap[BITMAP_WORDS];	/* bit prio: queue[prio] is not empty */
	uint32_t bitmap_words;		/* bit w: bitmap[w] is not 0 */
	struct sched_list queue[NR_PRIO_LISTS];
	int nr_running;			/* queued tasks incl. curr, never idle; read unlocked by balancers */
	int nr_pinned;			/* of those, allowed on one CPU only: no balancer may take them
					 * (read unlocked: a balancer that sees all pinned does not lock) */
	struct sched_task *curr;	/* read unlocked by wake placement */
	struct sched_task *idle;
	uint64_t ticks;			/* sched_tick() calls on this CPU */

	/* per-CPU accounting in ticks (BATCH and nice > 0 count as nice) */
	uint64_t user_ticks, nice_ticks, system_ticks, idle_ticks;
	uint64_t lost_ticks;		/* of those, never delivered (sched_account_lost_ticks) */

	/* ISO cap [beyond]: decaying share of ticks spent on ISO tasks */
	uint64_t iso_avg;		/* fraction of ISO_ONE (policy_iso.c) */
	bool iso_throttled;		/* ISO tasks here run as BATCH */

	/* compute mode: delayed preemption (staircase.md §6.3) */
	int cache_ticks;		/* ticks since the last switch */
	bool preempted;			/* a preemption is being held back */

	/* cfs (policy_cfs.c): the queued fair tasks, running one included */
	struct {
		uint64_t min_vruntime;	/* only grows: what sleepers are placed against */
		uint32_t load;		/* the sum of their weights */
		int nr;			/* how many */
		struct sched_task *curr;	/* the running one, if fair */
		/* eevdf (eevdf_tree.c, policy_eevdf.c): the waiting ones as a
		 * tree, and sum of (vruntime - min_vruntime) x weight over all */
		struct sched_task *root;
		uint64_t seq;		/* the last tree insertion's number */
		int64_t avg_sum;
	} fair;

	/* o1 (policy_o1.c): the expired array, beside the shared lists that
	 * are its active one */
	struct {
		struct sched_list expired[NICE_LEVELS];	/* by prio - 100 */
		int nr_active, nr_expired;	/* o1 tasks on each array */
		uint64_t expired_timestamp;	/* rq->ticks when one first expired; 0: none */
		int best_expired_prio;		/* best static_prio expired */
	} o1;

	/* sd (policy_sd.c): the expired array beside the shared lists that
	 * are its active one, and the rotation of the levels */
	struct {
		struct sched_list expired[NICE_LEVELS];	/* by static_prio - 100 */
		int nr_active, nr_expired;	/* sd tasks on each array */
		int quota[NICE_LEVELS];		/* ticks left to each level this rotation */
		int prio_level;			/* the best level still open: 100..139 */
		uint32_t rotation;		/* major rotations so far, from 1 */
	} sdl;				/* (rq->sd is the balancer's domains) */

	/* SMP balancing (balance.c) */
	uint32_t siblings;		/* SMT siblings, this CPU included */
	int nr_domains;
	struct sched_domain sd[SD_NR_LEVELS];
	int push_cpu;			/* active balance: move curr there, or -1 */
};

extern struct runqueue runqueues[SCHED_MAX_CPUS];
extern int sched_ncpus;

static inline struct runqueue *cpu_rq(int cpu)
{
	return &runqueues[cpu];
}

static inline struct runqueue *task_rq(const struct sched_task *t)
{
	return &runqueues[t->cpu];
}

/* Allowed on one CPU only (sched_setaffinity to one): rq->nr_pinned. */
static inline int task_pinned(const struct sched_task *t)
{
	return (t->cpus_allowed & (t->cpus_allowed - 1)) == 0;
}

void rq_init(struct runqueue *rq, int cpu);
/* Queue t (where its policy's ops put it: the staircase's, at the tail)
 * or take it off, counting it. */
void enqueue_task(struct runqueue *rq, struct sched_task *t);
void dequeue_task(struct runqueue *rq, struct sched_task *t);
/* What the ops build on: t joins queue[t->prio] just before node (the
 * list's head: at its tail), or leaves it; the bitmap follows. */
void rq_link_before(struct runqueue *rq, struct sched_task *t, struct sched_list *node);
void rq_unlink(struct runqueue *rq, struct sched_task *t);
/* A queued task to list prio, its head or tail (runqueue.c). */
void move_task(struct runqueue *rq, struct sched_task *t, int prio, bool head);
static inline void requeue_task(struct runqueue *rq, struct sched_task *t, int prio)
{
	move_task(rq, t, prio, false);		/* the tail */
}
static inline void requeue_task_head(struct runqueue *rq, struct sched_task *t, int prio)
{
	move_task(rq, t, prio, true);
}
struct sched_task *pick_first_task(struct runqueue *rq);	/* idle if none */
struct sched_task *list_task(struct sched_list *node);
bool rq_bitmap_ok(struct runqueue *rq);	/* bitmap matches lists (assertions) */
/* What a pick relies on: the idle stop bit is set, and a picked task is
 * queued on a non-empty list whose bit is set (assertions, O(1); inline:
 * every schedule() asks). */
static inline bool rq_pick_ok(const struct runqueue *rq, const struct sched_task *next)
{
	unsigned prio = next->prio;

	if (!(rq->bitmap[MAX_PRIO / 32] & (1u << (MAX_PRIO % 32))))
		return false;
	return next->is_idle || (next->on_rq && rq->queue[prio].next != &rq->queue[prio] &&
				 (rq->bitmap[prio / 32] & (1u << (prio % 32))));
}

/* Run-queue locking; the ordering rule is written and asserted in
 * runqueue.c: several locks only through lock_rqs() (lowest CPU first),
 * and never a second rq lock while holding one. */
void rq_lock(struct runqueue *rq);	/* one rq; asserts none held */
void lock_rqs(uint32_t mask);
void unlock_rqs(uint32_t mask);
struct runqueue *task_rq_lock(struct sched_task *t);	/* lock t's rq, stable */

/* The pairs of rq_lock() and task_rq_lock() (the rq the latter returned). */
static inline void rq_unlock(struct runqueue *rq)
{
	spin_unlock(&rq->lock);
}

static inline void task_rq_unlock(struct runqueue *rq)
{
	rq_unlock(rq);
}

#endif
