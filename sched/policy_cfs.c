/*
 * policy_cfs.c - lineage mode's cfs (sched=cfs): the Completely Fair Scheduler
 * as Linux 2.6.24 shipped it, for SCHED_NORMAL and SCHED_BATCH. The
 * rules are docs/cfs.md, written from Documentation/sched-design-CFS.txt
 * and 2.6.24's kernel/sched_fair.c; the § numbers below are its.
 *
 * Every fair task has a vruntime: the ns it ran, each counted 1024 /
 * weight (§1). The queue is the list at FAIR_PRIO, kept in vruntime
 * order (§2: Linux's rbtree, as a sorted list, so a wake-up costs a walk,
 * a pick does not); the core takes its head, the leftmost. The running
 * task stays on the list where it was put (its key), and goes back in
 * order when it stops running (put_prev). FIFO/RR keep their lists above
 * 100 and the staircase's ops (shared, docs/lineage.md); SCHED_ISO does
 * not exist here.
 *
 * Times are clock_ns() ns, not ticks: a tick only looks at the clock.
 * Locking is the ops' (policy.h): the run queue of the task is held.
 */
#include "cfs.h"
#include "core.h"
#include "policy.h"
#include "tunables.h"

/* §1: Linux's prio_to_weight[], nice -20..19: each level about 1.25
 * times the next, so one nice level is about 10 % of the CPU. */
static const uint32_t nice_weight[NICE_LEVELS] = {
	88761, 71755, 56483, 46273, 36291,
	29154, 23254, 18705, 14949, 11916,
	9548, 7620, 6100, 4904, 3906,
	3121, 2501, 1991, 1586, 1277,
	1024, 820, 655, 526, 423,
	335, 272, 215, 172, 137,
	110, 87, 70, 56, 45,
	36, 29, 23, 18, 15,
};

bool fair_eevdf;

uint32_t cfs_weight(const struct sched_task *p)
{
	return nice_weight[USER_PRIO(p)];
}

/* vruntimes wrap (u64): compare them by their signed distance. */
bool fair_before(uint64_t a, uint64_t b)
{
	return (int64_t)(a - b) < 0;
}

/* §1: delta ns of a task of this weight, in virtual ns. */
uint64_t fair_virtual_ns(uint64_t delta, uint32_t weight)
{
	return weight == NICE_0_LOAD ? delta : delta * NICE_0_LOAD / weight;
}

/* ---------- the period and the slices (§3) ---------- */

/* sched_latency_ns while at most latency / min_granularity tasks share
 * it (Linux's sched_nr_latency, rounded up); past that, min_granularity
 * each. */
uint64_t cfs_period(int nr)
{
	uint64_t latency = (uint64_t)tunables.latency_ns;
	uint64_t gran = (uint64_t)tunables.min_granularity_ns;
	uint64_t nr_latency = (latency + gran - 1) / gran;

	return (uint64_t)nr > nr_latency ? (uint64_t)nr * gran : latency;
}

uint64_t cfs_slice(const struct runqueue *rq, const struct sched_task *p)
{
	uint32_t w = cfs_weight(p), load = rq->fair.load;
	int nr = rq->fair.nr;

	if (!p->on_rq || p->cpu != rq->cpu) {	/* count it as if queued */
		load += w;
		nr++;
	}
	return cfs_period(nr) * w / load;
}

/* §5: the virtual time one more task of p's weight adds to the period. */
static uint64_t vslice_add(const struct runqueue *rq, const struct sched_task *p)
{
	return cfs_period(rq->fair.nr + 1) * NICE_0_LOAD / (rq->fair.load + cfs_weight(p));
}

/* ---------- the queue (§2) ---------- */

/* The leftmost task that is not running: the head, or the one after the
 * running task (which stays on the list where its key put it). */
static struct sched_task *leftmost_waiting(const struct runqueue *rq)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	struct sched_list *n = q->next;

	if (n != q && list_task(n) == rq->fair.curr)
		n = n->next;
	return n == q ? NULL : list_task(n);
}

/* Into the list after every task whose key is not larger (equal keys
 * keep their order, as Linux's rbtree did). From the tail: a task put
 * back after running usually belongs near it. */
void fair_link(struct runqueue *rq, struct sched_task *t)
{
	struct sched_list *q = &rq->queue[FAIR_PRIO], *n = q->prev;

	t->fair.key = t->fair.vruntime;
	while (n != q && fair_before(t->fair.key, list_task(n)->fair.key))
		n = n->prev;
	rq_link_before(rq, t, n->next);
}

/*
 * §1, §2: charge the running fair task the ns since it was last charged,
 * and move min_vruntime up to the smallest vruntime there is (the running
 * task's or the leftmost waiting one's). It only grows: it is what
 * sleepers and new tasks are placed against.
 */
void fair_update_curr(struct runqueue *rq, uint64_t now)
{
	struct sched_task *c = rq->fair.curr, *l;
	uint64_t v;

	if (!c)
		return;
	if (now > c->fair.exec_start) {
		uint64_t delta = now - c->fair.exec_start;
		uint64_t dv = fair_virtual_ns(delta, cfs_weight(c));
		c->fair.sum_exec += delta;
		c->fair.vruntime += dv;
		if (fair_eevdf && c->on_rq)	/* eevdf's sums follow it */
			rq->fair.avg_sum += (int64_t)dv * c->fair.weight;
		if (fair_eevdf)
			eevdf_update_deadline(rq, c);
	}
	c->fair.exec_start = now;
	v = c->fair.vruntime;
	l = leftmost_waiting(rq);
	if (l && fair_before(l->fair.vruntime, v))
		v = l->fair.vruntime;
	if (fair_before(rq->fair.min_vruntime, v)) {
		if (fair_eevdf)		/* every key is taken from min_vruntime */
			rq->fair.avg_sum -= (int64_t)(v - rq->fair.min_vruntime) * rq->fair.load;
		rq->fair.min_vruntime = v;
	}
}

/* t is running on rq from now: its stint is measured from here (§3). */
void fair_start_running(struct runqueue *rq, struct sched_task *t, uint64_t now)
{
	rq->fair.curr = t;
	t->fair.exec_start = now;
	t->fair.prev_sum_exec = t->fair.sum_exec;
}

/* Only pick and put_prev change rq->fair.curr: a nice change dequeues and
 * queues the running task again, and it runs on (Linux's set_user_nice;
 * a policy change goes through put_prev and pick, core.c). */
void cfs_enqueue(struct runqueue *rq, struct sched_task *t)
{
	KASSERT(t->prio == FAIR_PRIO);
	fair_update_curr(rq, clock_ns());
	fair_link(rq, t);
	t->fair.weight = cfs_weight(t);
	rq->fair.load += t->fair.weight;
	rq->fair.nr++;
}

void cfs_dequeue(struct runqueue *rq, struct sched_task *t)
{
	fair_update_curr(rq, clock_ns());
	rq_unlink(rq, t);
	rq->fair.load -= t->fair.weight;
	rq->fair.nr--;
}

/* schedule(): prev stops running; still runnable, it goes back into the
 * list at its vruntime now (§2). */
void cfs_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	KASSERT(rq->fair.curr == prev);
	fair_update_curr(rq, now);
	rq->fair.curr = NULL;
	if (prev->state == TASK_RUNNING) {
		rq_unlink(rq, prev);
		fair_link(rq, prev);
	}
}

/* A policy change: t runs on, its stint counted from now. */
void cfs_set_curr(struct runqueue *rq, struct sched_task *t)
{
	fair_start_running(rq, t, clock_ns());
}

/* §2: the leftmost, which the core took from the head of the list. */
static struct sched_task *cfs_pick(struct runqueue *rq, struct sched_task *next)
{
	cfs_set_curr(rq, next);
	return next;
}

/* ---------- the tick (§3) ---------- */

/* Linux's check_preempt_tick: with others queued, the running task gives
 * way once it has run its slice of the period since it was picked. */
static void cfs_tick(struct runqueue *rq, struct sched_task *p)
{
	KASSERT(rq->fair.curr == p);
	fair_update_curr(rq, clock_ns());
	if (rq->fair.nr > 1 && p->fair.sum_exec - p->fair.prev_sum_exec > cfs_slice(rq, p)) {
		sched_trace(rq->cpu, TRACE_SLICE_END, p, p->prio);
		resched_cpu(rq->cpu);
	}
}

/* ---------- wake-up (§4) ---------- */

/* LAB sleepers BEGIN */
/*
 * place_entity: a new task starts one vslice_add after min_vruntime
 * (START_DEBIT: the period already promised is not its, §5); a sleeper
 * comes back at min_vruntime - sched_latency at best (NEW_FAIR_SLEEPERS:
 * sleeps up to one latency do not count), and never before its own
 * vruntime (§4).
 */
static void place_entity(const struct runqueue *rq, struct sched_task *p, bool initial)
{
	uint64_t v = rq->fair.min_vruntime;

	if (initial) {
		p->fair.vruntime = v + vslice_add(rq, p);
		return;
	}
	v -= (uint64_t)tunables.latency_ns;
	if (fair_before(p->fair.vruntime, v))
		p->fair.vruntime = v;
}
/* LAB sleepers END */

static void cfs_activate(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	fair_update_curr(rq, now);
	place_entity(rq, p, false);
	p->prio = FAIR_PRIO;
	p->flags &= ~SF_UISLEEP;
	p->timestamp = now;
}

/*
 * Linux's check_preempt_wakeup: real time preempts a fair task, a fair
 * task never preempts real time; between fair tasks the woken one
 * preempts if its vruntime is ahead of the running one's by more than
 * sched_wakeup_granularity (counted in the running task's virtual ns).
 * A BATCH task never preempts on wake-up: its preemption is the tick's.
 */
static enum preempt_decision fair_preempt(const struct runqueue *rq,
					  const struct sched_task *p, bool on_wakeup)
{
	const struct sched_task *curr = rq->curr;
	uint64_t gran;

	if (curr->is_idle)
		return PREEMPT_NOW;
	if (p->prio != curr->prio)
		return p->prio < curr->prio ? PREEMPT_NOW : PREEMPT_NO;
	if (!on_wakeup)
		return PREEMPT_NO;
	gran = fair_virtual_ns((uint64_t)tunables.wakeup_granularity_ns, cfs_weight(curr));
	return fair_before(p->fair.vruntime + gran, curr->fair.vruntime) ? PREEMPT_NOW : PREEMPT_NO;
}

static enum preempt_decision cfs_preempt(const struct runqueue *rq, const struct sched_task *p)
{
	return fair_preempt(rq, p, true);
}

static enum preempt_decision cfs_batch_preempt(const struct runqueue *rq,
					       const struct sched_task *p)
{
	return fair_preempt(rq, p, false);
}

/* ---------- fork (§5) ---------- */

void cfs_fork(struct sched_task *parent, struct sched_task *child)
{
	child->prio = FAIR_PRIO;
	child->fair.vruntime = parent->fair.vruntime;
}

/* Linux's task_new_fair: placed after the period (START_DEBIT); with
 * sched_child_runs_first, on the parent's CPU, the child takes the
 * parent's vruntime if that is smaller, and the parent the child's. The
 * CPU reschedules either way. */
static void cfs_wake_new(struct runqueue *rq, struct sched_task *t)
{
	struct sched_task *curr = rq->fair.curr;

	fair_update_curr(rq, clock_ns());
	place_entity(rq, t, true);
	if (tunables.child_runs_first && curr && t->cpu == this_cpu() &&
	    fair_before(curr->fair.vruntime, t->fair.vruntime)) {
		uint64_t v = curr->fair.vruntime;
		curr->fair.vruntime = t->fair.vruntime;
		t->fair.vruntime = v;
	}
	resched_cpu(rq->cpu);
}

/* ---------- yield, nice, moves (§7) ---------- */

/* Linux's yield_task_fair: alone, nothing; else the running task is
 * charged its time so far and schedule() puts it where that places it.
 * With sched_compat_yield, and always for BATCH, it goes to the right of
 * the rightmost. */
static void fair_yield(struct runqueue *rq, struct sched_task *p, bool to_the_right)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	struct sched_list *n = q->prev;

	if (rq->fair.nr == 1)
		return;
	fair_update_curr(rq, clock_ns());
	if (!to_the_right)
		return;
	if (list_task(n) == p)
		n = n->prev;
	if (n != q && !fair_before(list_task(n)->fair.vruntime, p->fair.vruntime))
		p->fair.vruntime = list_task(n)->fair.vruntime + 1;
}

static void cfs_yield(struct runqueue *rq, struct sched_task *p)
{
	fair_yield(rq, p, tunables.compat_yield);
}

static void cfs_batch_yield(struct runqueue *rq, struct sched_task *p)
{
	fair_yield(rq, p, true);
}

/* The weight follows the nice level when the core queues t again; its
 * vruntime stays (Linux's set_user_nice). */
void cfs_renice(struct sched_task *t, int nice)
{
	t->static_prio = NICE_TO_PRIO(nice);
}

/* Linux's set_task_cpu: the vruntime keeps its distance from
 * min_vruntime, not its value (each queue's clock is its own). */
static void cfs_migrate(struct runqueue *src, struct runqueue *dst, struct sched_task *t)
{
	t->fair.vruntime = t->fair.vruntime - src->fair.min_vruntime + dst->fair.min_vruntime;
}

const struct sched_ops cfs_ops = {
	.enqueue = cfs_enqueue,
	.dequeue = cfs_dequeue,
	.activate = cfs_activate,
	.preempt = cfs_preempt,
	.fork = cfs_fork,
	.wake_new = cfs_wake_new,
	.put_prev = cfs_put_prev,
	.pick = cfs_pick,
	.set_curr = cfs_set_curr,
	.yield = cfs_yield,
	.renice = cfs_renice,
	.migrate = cfs_migrate,
};

/* SCHED_BATCH: the same tree, no wake-up preemption, yield to the right. */
const struct sched_ops cfs_batch_ops = {
	.enqueue = cfs_enqueue,
	.dequeue = cfs_dequeue,
	.activate = cfs_activate,
	.preempt = cfs_batch_preempt,
	.fork = cfs_fork,
	.wake_new = cfs_wake_new,
	.put_prev = cfs_put_prev,
	.pick = cfs_pick,
	.set_curr = cfs_set_curr,
	.yield = cfs_batch_yield,
	.renice = cfs_renice,
	.migrate = cfs_migrate,
};

/* ---------- the policy tables and the class ---------- */

int cfs_prio(const struct sched_task *p)
{
	(void)p;
	return FAIR_PRIO;
}

/* Where a yielding fair task waits: its own list (its place there is its
 * ops' yield's). */
int cfs_yield_prio(struct sched_task *p)
{
	(void)p;
	return FAIR_PRIO;
}

/* What sched_rr_get_interval reports: its slice now, in ticks. */
static int cfs_rr_get_interval(const struct sched_task *p)
{
	int ticks = (int)ns_to_ticks(cfs_slice(task_rq(p), p));
	return ticks ? ticks : 1;
}

/* 2.6.24 had no SMT rule: nobody idles for a fair task, nor it for anyone. */
unsigned cfs_smt_rule(const struct sched_task *p)
{
	(void)p;
	return SMT_NEVER_WAITS | SMT_SIBLING_NEVER_WAITS;
}

/*
 * The tables. cfs reads none of the staircase's numbers (rr_interval,
 * max_burst, full_slice, first_quantum): they are named so that the
 * shared code that keeps them (sched_task_init, a change to FIFO/RR) has
 * consistent ones.
 */
const struct sched_policy policy_cfs_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.ops = &cfs_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = cfs_prio,
	.first_quantum = staircase_first_quantum,
	.tick = cfs_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = cfs_smt_rule,
	.yield = cfs_yield_prio,
	.rr_get_interval = cfs_rr_get_interval,
};

const struct sched_policy policy_cfs_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &cfs_batch_ops,
	.rr_interval = staircase_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = cfs_prio,
	.first_quantum = staircase_first_quantum,
	.tick = cfs_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = cfs_smt_rule,
	.yield = cfs_yield_prio,
	.rr_get_interval = cfs_rr_get_interval,
};

/* §6: Linux's sched_init_granularity: the three times, where still at
 * their defaults, grow with 1 + log2(ncpus), at most 200 ms. */
void fair_scale_by_cpus(int id, int factor)
{
	int64_t v = (int64_t)sched_tunable_get(id) * factor;

	if (sched_tunable_is_default(id))
		sched_tunable_set(id, v > 200000000 ? 200000000 : (int)v);
}

int fair_cpu_factor(int ncpus)
{
	int factor = 1;

	while ((1 << factor) <= ncpus)		/* 1 + ilog2(ncpus) */
		factor++;
	return factor;
}

static void cfs_init(int ncpus)
{
	int factor = fair_cpu_factor(ncpus);

	fair_eevdf = false;
	fair_scale_by_cpus(SCHED_TUNABLE_LATENCY_NS, factor);
	fair_scale_by_cpus(SCHED_TUNABLE_MIN_GRANULARITY_NS, factor);
	fair_scale_by_cpus(SCHED_TUNABLE_WAKEUP_GRANULARITY_NS, factor);
}

const struct sched_class cfs_class = {
	.name = "cfs",
	.title = "CFS of Linux 2.6.24 (docs/cfs.md); FIFO/RR and the SMP balancer shared",
	.policies = {
		[SCHED_NORMAL]	= &policy_cfs_normal,
		[SCHED_FIFO]	= &policy_fifo,
		[SCHED_RR]	= &policy_rr,
		[SCHED_BATCH]	= &policy_cfs_batch,
	},
	.init = cfs_init,
};
