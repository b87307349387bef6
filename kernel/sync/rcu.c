/*
 * rcu.c - deferred freeing after a grace period (kernel/sync/rcu.h).
 *
 * Fork, exit and wait4 run without a global lock,
 * so a task may be reaped while another CPU, which found it by its pid a
 * moment before, still reads it. Its memory must outlive every such
 * look. The kernel is not preemptible: a CPU that has been through
 * schedule(), sat in the idle loop, or taken a tick in user mode since
 * the task became unreachable holds no pointer to it any more. That is
 * a quiescent state, and a grace period is over once every other CPU
 * has passed one (Linux's classic RCU; McKenney and Slingwine, 1998).
 *
 * Each CPU counts its quiescent states (rcu_qs_count: one increment in
 * schedule()). Freed objects queue on their CPU's list; a
 * batch of them takes a snapshot of every CPU's count, and is run once
 * each other online CPU's count has moved. The reclaiming CPU itself is
 * at a quiescent point when it reclaims (rcu_reclaim's rule). An idle
 * CPU still ticks (drivers/timer.c), so a grace period lasts about a
 * tick at most.
 */
#include "rcu.h"
#include <stdbool.h>
#include <stddef.h>
#include "sched/sched.h"	/* TASK_UNINTERRUPTIBLE, sched_online_mask() */
#include "kernel/time/sleep.h"
#include "lib/spinlock.h"
#include "kernel/time/time.h"

struct rcu_qs rcu_qs_count[MAX_CPUS];

struct rcu_cpu {
	struct spinlock lock;		/* its CPU's, and rcu_barrier's */
	struct rcu_head *next;		/* queued since the last batch began */
	struct rcu_head *batch;		/* waiting for the grace period of snap */
	uint32_t snap[MAX_CPUS];
} __attribute__((aligned(64)));

static struct rcu_cpu rcu[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = { .lock = SPINLOCK_INIT("rcu") }
};

static void snapshot(uint32_t *snap)
{
	for (int c = 0; c < MAX_CPUS; c++)
		snap[c] = __atomic_load_n(&rcu_qs_count[c].n, __ATOMIC_ACQUIRE);
}

/* Has every online CPU but this one passed a quiescent state since snap? */
static bool grace_over(const uint32_t *snap)
{
	uint32_t others = sched_online_mask() & ~(1u << this_cpu());
	for (int c = 0; c < MAX_CPUS; c++) {
		if ((others & (1u << c)) &&
		    __atomic_load_n(&rcu_qs_count[c].n, __ATOMIC_ACQUIRE) == snap[c])
			return false;
	}
	return true;
}

static void run(struct rcu_head *h)
{
	while (h) {
		struct rcu_head *next = h->next;
		h->func(h);
		h = next;
	}
}

void rcu_call(struct rcu_head *head, void (*func)(struct rcu_head *))
{
	struct rcu_cpu *r = &rcu[this_cpu()];
	head->func = func;
	spin_lock(&r->lock);
	head->next = r->next;
	r->next = head;
	spin_unlock(&r->lock);
}

void rcu_reclaim(void)
{
	struct rcu_cpu *r = &rcu[this_cpu()];
	struct rcu_head *done = NULL;
	if (!__atomic_load_n(&r->batch, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&r->next, __ATOMIC_RELAXED))
		return;			/* the common case: nothing freed here */
	spin_lock(&r->lock);
	if (r->batch && grace_over(r->snap)) {
		done = r->batch;
		r->batch = NULL;
	}
	if (!r->batch && r->next) {
		r->batch = r->next;
		r->next = NULL;
		snapshot(r->snap);
	}
	spin_unlock(&r->lock);
	run(done);
}

/* Append list b to list a; the new head. */
static struct rcu_head *splice(struct rcu_head *a, struct rcu_head *b)
{
	if (!a)
		return b;
	struct rcu_head *t = a;
	while (t->next)
		t = t->next;
	t->next = b;
	return a;
}

void rcu_barrier(void)
{
	struct rcu_head *all = NULL;
	for (int c = 0; c < MAX_CPUS; c++) {
		struct rcu_cpu *r = &rcu[c];
		spin_lock(&r->lock);
		all = splice(splice(all, r->batch), r->next);
		r->batch = r->next = NULL;
		spin_unlock(&r->lock);
	}
	if (!all)
		return;
	/* A snapshot taken after every one of them was queued: a grace
	 * period from here covers them all. */
	uint32_t snap[MAX_CPUS];
	snapshot(snap);
	while (!grace_over(snap))
		sleep_until(clock_ns() + 1000000, TASK_UNINTERRUPTIBLE);
	run(all);
}
