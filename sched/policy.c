/*
 * policy.c - SCHED_NORMAL, the plain staircase (staircase.md §4 to §6),
 * and the table of every policy with its boot-time check.
 *
 * NORMAL is the staircase itself, so its table is here, beside its
 * hooks, the staircase_* functions below; the other policies (policy_rt.c,
 * policy_batch.c, policy_iso.c) name the same functions where they do
 * what the staircase does. Nice 0 has max_burst 19, top stair 120, a
 * quantum of RR and a full slice of 20 RR = 200 ms at HZ 1000, and its
 * burst extends its time on the top stair.
 */
#include "policy.h"
#include "tunables.h"

const struct sched_policy policy_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = staircase_effective_prio,
	.first_quantum = staircase_first_quantum,
	.tick = staircase_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = staircase_smt_rule,
	.yield = staircase_yield,
	.rr_get_interval = staircase_rr_get_interval,
};

/* The staircase keeps no state beyond its tunables. */
static void staircase_class_init(int ncpus)
{
	(void)ncpus;
}

/* The staircase, the default class: every policy, each with its own table. */
const struct sched_class staircase_class = {
	.name = "staircase",
	.title = "Con Kolivas's staircase v7.F with the seeds' BATCH and ISO (docs/staircase.md)",
	.policies = {
		[SCHED_NORMAL]	= &policy_normal,
		[SCHED_FIFO]	= &policy_fifo,
		[SCHED_RR]	= &policy_rr,
		[SCHED_BATCH]	= &policy_batch,
		[SCHED_ISO]	= &policy_iso,
/* LAB policy BEGIN */
/* LAB policy END */
	},
	.init = staircase_class_init,
};

/* Every hook named: a NULL one would be called at the first tick or
 * wake-up of a task of that policy; here it stops the boot instead, and
 * the assertion names the hook (policy.h). */
void check_policy_hooks(const struct sched_policy *p)
{
	const struct sched_ops *o = p->ops;

	KASSERT(p->rr_interval);
	KASSERT(p->max_burst);
	KASSERT(p->full_slice);
	KASSERT(p->effective_prio);
	KASSERT(p->first_quantum);
	KASSERT(p->tick);
	KASSERT(p->rq_tick);
	KASSERT(p->wake);
	KASSERT(p->smt_rule);
	KASSERT(p->yield);
	KASSERT(p->rr_get_interval);
	KASSERT(o);
	KASSERT(o->enqueue);
	KASSERT(o->dequeue);
	KASSERT(o->activate);
	KASSERT(o->preempt);
	KASSERT(o->fork);
	KASSERT(o->wake_new);
	KASSERT(o->put_prev);
	KASSERT(o->pick);
	KASSERT(o->set_curr);
	KASSERT(o->yield);
	KASSERT(o->renice);
	KASSERT(o->migrate);
}

/* Each class's table has SCHED_NORMAL and names each policy by its own
 * number, every hook named (the tick's rq_tick loop calls each). */
void sched_check_policies(void)
{
	for (int c = 0; sched_classes[c]; c++) {
		const struct sched_class *cl = sched_classes[c];
		KASSERT(cl->policies[SCHED_NORMAL] && cl->init);
		for (int i = 0; i < SCHED_NR_POLICIES; i++) {
			if (!cl->policies[i])
				continue;
			KASSERT(cl->policies[i]->number == i);
			check_policy_hooks(cl->policies[i]);
		}
	}
}

/* ---------- the staircase's ops (policy.h): the core's code, core.c ---------- */

/* Nothing more before a new task's first enqueue: it waits at the tail
 * of the stair fork gave it. */
static void staircase_wake_new(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	(void)t;
}

/* The staircase keeps nothing of a task's stint but what put_prev_task
 * records for every policy. */
static void staircase_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	(void)rq;
	(void)prev;
	(void)now;
}

/* Nothing to start: the staircase keeps no per-stint state. */
static void staircase_set_curr(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	(void)t;
}

/* A task moving between CPUs keeps all it has: clock_ns() is one clock
 * for every CPU (§8). */
static void staircase_migrate(struct runqueue *src, struct runqueue *dst, struct sched_task *t)
{
	(void)src;
	(void)dst;
	(void)t;
}

const struct sched_ops staircase_ops = {
	.enqueue = staircase_enqueue,
	.dequeue = staircase_dequeue,
	.activate = staircase_activate,
	.preempt = staircase_preempt,
	.fork = staircase_fork,
	.wake_new = staircase_wake_new,
	.put_prev = staircase_put_prev,
	.pick = staircase_pick,
	.set_curr = staircase_set_curr,
	.yield = staircase_yield_task,
	.renice = staircase_renice,
	.migrate = staircase_migrate,
};

/* ---------- the plain staircase's numbers (§4) ---------- */

/* The quantum: RR, the rr_interval tunable in ticks. */
int staircase_rr_interval(const struct sched_task *p)
{
	(void)p;
	return rr_ticks();
}

/* §4: one extra quantum on the top stair per user priority above the
 * lowest: 19 at nice 0, 0 at nice 19 (stair_max_burst, policy.h). */
int staircase_max_burst(const struct sched_task *p)
{
	return stair_max_burst(p);
}

/* §4: one quantum per stair from the top stair down to 139 (policy.h). */
int staircase_full_slice(const struct sched_task *p)
{
	return stair_full_slice(p);
}

/* §5, with the burst extending the top stair. */
int staircase_effective_prio(const struct sched_task *p)
{
	return staircase_prio(p, true);
}

/* §6.2: a woken task starts with one quantum. */
int staircase_first_quantum(const struct sched_task *p)
{
	return rr_interval(p);
}

/* What sched_rr_get_interval reports: the whole slice. */
int staircase_rr_get_interval(const struct sched_task *p)
{
	return full_slice(p);
}

/* The staircase keeps no per-CPU state (ISO's share is the only user). */
void staircase_rq_tick(struct runqueue *rq, struct sched_task *curr)
{
	(void)rq;
	(void)curr;
}

/* Nothing of its own at wake-up: the core's recalc is the whole rule. */
void staircase_wake(struct sched_task *p)
{
	(void)p;
}

/* §8.3: no role; the SMT rule goes by slice alone. */
unsigned staircase_smt_rule(const struct sched_task *p)
{
	(void)p;
	return 0;
}

/* SCHED_RESET_ON_FORK (policy.h): every class's children alike. */
void policy_reset_on_fork(struct sched_task *child)
{
	if (sched_policies[child->policy]->rt) {
		child->policy = DEFAULT_POLICY;
		child->rt_priority = 0;
	}
	if (child->static_prio < NICE_TO_PRIO(0))
		child->static_prio = NICE_TO_PRIO(0);
	child->reset_on_fork = false;
}

/* §6.5, sched_yield: to the lowest stair, flagged YIELDED (policy.h). */
int staircase_yield(struct sched_task *p)
{
	return stair_yield(p);
}

/* ---------- bursts, stairs and the tick (§5, §6.1) ---------- */

void dec_burst(struct sched_task *p)
{
	if (p->burst > 0)
		p->burst--;
}

void inc_burst(struct sched_task *p)
{
	if (p->burst < max_burst(p))
		p->burst++;
}

/*
 * staircase.md §5: where on the staircase the task stands. The top stair
 * is 139 - max_burst; the task stays there for one quantum (burst + 1 of
 * them with the interactive extension) and then drops one stair per
 * quantum used, never below 139.
 */
int staircase_prio(const struct sched_task *p, bool burst_extends_top)
{
/* LAB stairs BEGIN */
	int best_burst = max_burst(p);
	int rr = rr_interval(p);
	int used = full_slice(p) - p->slice;
	int first = rr;
	int prio = LOWEST_STAIR - best_burst;

	KASSERT(p->burst <= best_burst);	/* inc_burst and rescale_slice keep it */
	if (burst_extends_top && tunables.interactive && !tunables.compute)
		first *= p->burst + 1;
	if (used < first)
		return prio;
	prio += 1 + (used - first) / rr;
	return prio > LOWEST_STAIR ? LOWEST_STAIR : prio;
/* LAB stairs END */
}

/*
 * staircase.md §6.1, tick: the whole slice used sends the task back to its
 * top stair with one less burst; a quantum used sends it one stair down.
 * Either way it goes to the tail of its new list and gives up the CPU.
 */
void staircase_tick(struct runqueue *rq, struct sched_task *p)
{
/* LAB stairs BEGIN */
	if (--p->slice <= 0) {
		dec_burst(p);
		p->slice = full_slice(p);
		end_quantum(rq, p, TRACE_SLICE_END);
	} else if (--p->time_slice <= 0) {
		end_quantum(rq, p, TRACE_STAIR_DROP);
	}
/* LAB stairs END */
}

void end_quantum(struct runqueue *rq, struct sched_task *p, int event)
{
	requeue_task(rq, p, effective_prio(p));
	p->time_slice = rr_interval(p);
	sched_trace(rq->cpu, event, p, p->prio);
	resched_cpu(rq->cpu);
}
