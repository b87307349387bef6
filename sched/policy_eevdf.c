/*
 * policy_eevdf.c - lineage mode's eevdf (sched=eevdf): Earliest Eligible
 * Virtual Deadline First as Linux 6.6 merged it (commit 147f3efaa241 and
 * its series), for SCHED_NORMAL and SCHED_BATCH. The rules are
 * docs/eevdf.md; the § numbers below are its.
 *
 * As in Linux, eevdf is a flag on cfs (policy_cfs.c, fair_eevdf): the
 * same queue in vruntime order, weights, vruntime, min_vruntime and
 * put_prev. What changes: a task's lag (how far the weighted average
 * vruntime V is ahead of its own) is kept when it leaves the queue and
 * given back when it returns; only tasks at or before V are eligible;
 * each has a virtual deadline, its vruntime plus its slice in virtual
 * time; the eligible task with the earliest deadline runs. No period, no
 * sleeper credit, no wake-up granularity.
 *
 * As in Linux, V's sums are kept as tasks come and go (O(1)), and the
 * pick walks a tree whose nodes know their subtree's earliest deadline
 * (eevdf_tree.c, O(log n)).
 */
#include "cfs.h"
#include "core.h"
#include "tunables.h"

/* t's part of the sums (§1). */
static int64_t avg_term(const struct runqueue *rq, const struct sched_task *t, uint32_t w)
{
	return (int64_t)(t->fair.vruntime - rq->fair.min_vruntime) * w;
}

/* Every queued fair task (the running one included: it stays on the
 * list), and extra, a task not queued yet, if not NULL. The sums are
 * kept as tasks come and go (rq->fair.avg_sum and load; fair_update_curr
 * follows the running task's vruntime and min_vruntime), as Linux 6.6's
 * avg_vruntime is. */
static struct fair_avg queue_avg(const struct runqueue *rq, const struct sched_task *extra)
{
	struct fair_avg a = { rq->fair.avg_sum, rq->fair.load };

	if (extra) {
		a.sum += avg_term(rq, extra, cfs_weight(extra));
		a.load += cfs_weight(extra);
	}
	return a;
}

/* §1: V, Linux's avg_vruntime: the weighted average, rounded down. */
static uint64_t avg_vruntime(const struct runqueue *rq, struct fair_avg a)
{
	int64_t avg = a.sum;

	if (a.load) {
		if (avg < 0)
			avg -= a.load - 1;
		avg /= a.load;
	}
	return rq->fair.min_vruntime + (uint64_t)avg;
}

int64_t eevdf_lag(const struct sched_task *p)
{
	const struct runqueue *rq = task_rq(p);

	if (!p->on_rq)
		return p->fair.vlag;
	return (int64_t)(avg_vruntime(rq, queue_avg(rq, NULL)) - p->fair.vruntime);
}

/* §2: eligible when its vruntime is not after V (lag >= 0), compared
 * without the division: sum >= key x load. */
bool eevdf_eligible(const struct runqueue *rq, struct fair_avg a, const struct sched_task *t)
{
	int64_t key = (int64_t)(t->fair.vruntime - rq->fair.min_vruntime);

	return a.sum >= key * a.load;
}

/* §3: the base slice in t's virtual ns. */
static uint64_t vslice(const struct sched_task *t)
{
	return fair_virtual_ns((uint64_t)tunables.base_slice_ns, cfs_weight(t));
}

/* ---------- the pick (§3) ---------- */

/*
 * Linux's pick_eevdf: the running task while it still has the slice it
 * was picked with (RUN_TO_PARITY: its deadline is the one stashed in
 * vlag at the pick) and is eligible; else the eligible task with the
 * earliest deadline, the running one included (it is not in the tree,
 * and wins only with a deadline strictly earlier). extra: a woken task
 * not queued yet (wake placement asks about a copy), after the queue's.
 */
static struct sched_task *pick_eevdf(const struct runqueue *rq, const struct sched_task *extra)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	struct fair_avg a = queue_avg(rq, extra);
	const struct sched_task *curr = rq->fair.curr, *best;

	if (curr && !eevdf_eligible(rq, a, curr))
		curr = NULL;
	if (curr && (uint64_t)curr->fair.vlag == curr->fair.deadline)
		return (struct sched_task *)curr;
	best = eevdf_tree_pick(rq, a);
	if (extra && eevdf_eligible(rq, a, extra) &&
	    (!best || fair_before(extra->fair.deadline, best->fair.deadline)))
		best = extra;
	if (!best || (curr && fair_before(curr->fair.deadline, best->fair.deadline)))
		best = curr;
	if (!best && q->next != q)		/* cannot happen: Linux's "EEVDF scheduling fail" */
		best = list_task(q->next);
	return (struct sched_task *)best;
}

/* schedule(): the pick replaces the head of the list the core took. The
 * deadline is stashed in vlag, unused until the task leaves the queue
 * (Linux's HACK in set_next_entity, for RUN_TO_PARITY). */
static void eevdf_set_curr(struct runqueue *rq, struct sched_task *t)
{
	fair_start_running(rq, t, clock_ns());
	eevdf_tree_erase(rq, t);
	t->fair.vlag = (int64_t)t->fair.deadline;
}

/* prev stops running; still runnable, it waits in the tree again, at its
 * vruntime now (cfs_put_prev put it in the list there). */
static void eevdf_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	cfs_put_prev(rq, prev, now);
	if (prev->state == TASK_RUNNING)
		eevdf_tree_insert(rq, prev);
}

static struct sched_task *eevdf_pick(struct runqueue *rq, struct sched_task *next)
{
	struct sched_task *t = pick_eevdf(rq, NULL);

	if (!t)
		t = next;
	eevdf_set_curr(rq, t);
	return t;
}

/* ---------- deadlines and the tick (§3) ---------- */

/* Linux's update_deadline, at every charge: once the running task's
 * vruntime reaches its deadline it asks for a new slice, and the CPU
 * picks again if another task waits. */
void eevdf_update_deadline(struct runqueue *rq, struct sched_task *c)
{
	if (fair_before(c->fair.vruntime, c->fair.deadline))
		return;
	c->fair.deadline = c->fair.vruntime + vslice(c);
	if (rq->fair.nr > 1) {
		sched_trace(rq->cpu, TRACE_SLICE_END, c, c->prio);
		resched_cpu(rq->cpu);
	}
}

/* The tick only charges: the deadline does the rest (6.6 has no
 * check_preempt_tick). */
static void eevdf_tick(struct runqueue *rq, struct sched_task *p)
{
	KASSERT(rq->fair.curr == p);
	fair_update_curr(rq, clock_ns());
}

/* ---------- lag: leaving and joining the queue (§4) ---------- */

/* Linux's update_entity_lag: V - vruntime, within two slices (at least
 * a tick) of t's virtual time either way. */
static void save_lag(struct runqueue *rq, struct sched_task *t)
{
	int64_t lag = (int64_t)(avg_vruntime(rq, queue_avg(rq, NULL)) - t->fair.vruntime);
	uint64_t tick_ns = 1000000000ull / (uint64_t)tunables.hz;
	uint64_t two = 2 * (uint64_t)tunables.base_slice_ns;
	int64_t limit = (int64_t)fair_virtual_ns(two > tick_ns ? two : tick_ns, cfs_weight(t));

	t->fair.vlag = lag > limit ? limit : lag < -limit ? -limit : lag;
}

/*
 * Linux's place_entity: at V minus its lag, the lag scaled up by
 * (load + w) / load so that adding the task leaves it that lag after V
 * moves; its deadline one slice on, half a slice for a new task
 * (PLACE_DEADLINE_INITIAL). Alone, it takes V.
 */
static void place(const struct runqueue *rq, struct sched_task *t, bool initial)
{
	struct fair_avg a = queue_avg(rq, NULL);
	int64_t lag = 0;
	uint64_t vs = vslice(t);

	if (rq->fair.nr && a.load)
		lag = t->fair.vlag * (a.load + cfs_weight(t)) / a.load;
	t->fair.vruntime = avg_vruntime(rq, a) - (uint64_t)lag;
	if (initial)
		vs /= 2;
	t->fair.deadline = t->fair.vruntime + vs;
}

/* Every enqueue places the task by its lag (a wake-up, a nice change, a
 * move to another CPU: the lag, not the vruntime, travels). */
static void eevdf_enqueue(struct runqueue *rq, struct sched_task *t)
{
	fair_update_curr(rq, clock_ns());
	place(rq, t, t->fair.initial);
	t->fair.initial = false;
	cfs_enqueue(rq, t);
	rq->fair.avg_sum += avg_term(rq, t, t->fair.weight);
	if (t != rq->fair.curr)
		eevdf_tree_insert(rq, t);
}

static void eevdf_dequeue(struct runqueue *rq, struct sched_task *t)
{
	fair_update_curr(rq, clock_ns());
	save_lag(rq, t);
	eevdf_tree_erase(rq, t);
	cfs_dequeue(rq, t);
	rq->fair.avg_sum -= avg_term(rq, t, t->fair.weight);
}

/* Wake-up: placed here too, so that wake placement's copy has its
 * vruntime and deadline; the enqueue places it again, the same way. */
static void eevdf_activate(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	fair_update_curr(rq, now);
	p->prio = FAIR_PRIO;
	p->flags &= ~SF_UISLEEP;
	p->timestamp = now;
	place(rq, p, p->fair.initial);
}

/* A move keeps the lag, which the enqueue on the new CPU gives back. */
static void eevdf_migrate(struct runqueue *src, struct runqueue *dst, struct sched_task *t)
{
	(void)src;
	(void)dst;
	(void)t;
}

/* ---------- wake-up preemption, fork, yield (§5, §6) ---------- */

/* Linux 6.6's check_preempt_wakeup: real time first; a woken NORMAL task
 * preempts when the pick would choose it; BATCH never on wake-up. */
static enum preempt_decision fair_preempt(const struct runqueue *rq,
					  const struct sched_task *p, bool on_wakeup)
{
	const struct sched_task *curr = rq->curr;

	if (curr->is_idle)
		return PREEMPT_NOW;
	if (p->prio != curr->prio)
		return p->prio < curr->prio ? PREEMPT_NOW : PREEMPT_NO;
	if (!on_wakeup)
		return PREEMPT_NO;
	return pick_eevdf(rq, p->on_rq ? NULL : p) == p ? PREEMPT_NOW : PREEMPT_NO;
}

static enum preempt_decision eevdf_preempt(const struct runqueue *rq, const struct sched_task *p)
{
	return fair_preempt(rq, p, true);
}

static enum preempt_decision eevdf_batch_preempt(const struct runqueue *rq,
						 const struct sched_task *p)
{
	return fair_preempt(rq, p, false);
}

/* A new task has no lag; its first enqueue places it with half a slice. */
static void eevdf_fork(struct sched_task *parent, struct sched_task *child)
{
	cfs_fork(parent, child);
	child->fair.vlag = 0;
}

static void eevdf_wake_new(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	t->fair.initial = true;
}

/* Linux 6.6's yield_task_fair: charged so far, its deadline one slice on. */
static void eevdf_yield(struct runqueue *rq, struct sched_task *p)
{
	if (rq->fair.nr == 1)
		return;
	fair_update_curr(rq, clock_ns());
	p->fair.deadline += vslice(p);
}

const struct sched_ops eevdf_ops = {
	.enqueue = eevdf_enqueue,
	.dequeue = eevdf_dequeue,
	.activate = eevdf_activate,
	.preempt = eevdf_preempt,
	.fork = eevdf_fork,
	.wake_new = eevdf_wake_new,
	.put_prev = eevdf_put_prev,
	.pick = eevdf_pick,
	.set_curr = eevdf_set_curr,
	.yield = eevdf_yield,
	.renice = cfs_renice,
	.migrate = eevdf_migrate,
};

/* SCHED_BATCH: the same, never preempting on wake-up. */
const struct sched_ops eevdf_batch_ops = {
	.enqueue = eevdf_enqueue,
	.dequeue = eevdf_dequeue,
	.activate = eevdf_activate,
	.preempt = eevdf_batch_preempt,
	.fork = eevdf_fork,
	.wake_new = eevdf_wake_new,
	.put_prev = eevdf_put_prev,
	.pick = eevdf_pick,
	.set_curr = eevdf_set_curr,
	.yield = eevdf_yield,
	.renice = cfs_renice,
	.migrate = eevdf_migrate,
};

/* ---------- the tables and the class ---------- */

/* What sched_rr_get_interval reports: the base slice, in ticks. */
static int eevdf_rr_get_interval(const struct sched_task *p)
{
	int ticks = (int)ns_to_ticks((uint64_t)tunables.base_slice_ns);

	(void)p;
	return ticks ? ticks : 1;
}

/* As cfs's tables: the staircase's numbers are named for the shared code
 * that keeps them, and read by nothing here. */
const struct sched_policy policy_eevdf_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.ops = &eevdf_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = cfs_prio,
	.first_quantum = staircase_first_quantum,
	.tick = eevdf_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = cfs_smt_rule,
	.yield = cfs_yield_prio,
	.rr_get_interval = eevdf_rr_get_interval,
};

const struct sched_policy policy_eevdf_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &eevdf_batch_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = cfs_prio,
	.first_quantum = staircase_first_quantum,
	.tick = eevdf_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = cfs_smt_rule,
	.yield = cfs_yield_prio,
	.rr_get_interval = eevdf_rr_get_interval,
};

/* §7: the base slice, while at its default, grows with 1 + log2 of the
 * CPUs, counted up to 8 (Linux's SCHED_TUNABLESCALING_LOG). */
static void eevdf_init(int ncpus)
{
	fair_eevdf = true;
	fair_scale_by_cpus(SCHED_TUNABLE_BASE_SLICE_NS, fair_cpu_factor(ncpus < 8 ? ncpus : 8));
}

const struct sched_class eevdf_class = {
	.name = "eevdf",
	.title = "EEVDF of Linux 6.6 (docs/eevdf.md); FIFO/RR and the SMP balancer shared",
	.policies = {
		[SCHED_NORMAL]	= &policy_eevdf_normal,
		[SCHED_FIFO]	= &policy_fifo,
		[SCHED_RR]	= &policy_rr,
		[SCHED_BATCH]	= &policy_eevdf_batch,
	},
	.init = eevdf_init,
};
