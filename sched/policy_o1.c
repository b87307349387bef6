/*
 * policy_o1.c - lineage mode's o1 (sched=o1): Ingo Molnar's O(1)
 * scheduler as Linux 2.6.8 shipped it (kernel/sched.c), the one the
 * staircase was written against, for SCHED_NORMAL and SCHED_BATCH. The
 * rules are docs/o1.md; the § numbers below are its.
 *
 * Two priority arrays per CPU: the shared lists of the run queue are the
 * active one (so the shared pick, the first task of the first non-empty
 * list, is O(1)'s), and rq->o1.expired the expired one. A task that used
 * its slice goes to the expired array, unless it is interactive and
 * nobody starves; when no o1 task is left active, the arrays swap (here:
 * the expired tasks move onto the shared lists). The dynamic priority is
 * the static one moved by up to 5 by sleep_avg, the interactivity
 * estimate (§2, §3).
 */
#include "o1.h"
#include "policy.h"
#include "core.h"
#include "tunables.h"

#define NS_PER_MS		1000000ull
#define MIN_TIMESLICE_MS	5
#define MAX_TIMESLICE_MS	200
#define GRANULARITY_MS		10		/* TIMESLICE_GRANULARITY's unit */
#define MAX_BONUS		10		/* 40 nice levels x 25 % */
#define INTERACTIVE_DELTA	2
#define MAX_SLEEP_AVG_MS	1000		/* DEF_TIMESLICE 100 ms x MAX_BONUS */
#define NS_MAX_SLEEP_AVG	(MAX_SLEEP_AVG_MS * NS_PER_MS)
#define STARVATION_LIMIT_MS	MAX_SLEEP_AVG_MS
#define ON_RUNQUEUE_WEIGHT	30		/* % of a woken task's wait that counts as sleep */
#define CHILD_PENALTY		95		/* % of the parent's bonus a child starts with */
#define PARENT_PENALTY		100
#define CREDIT_LIMIT		100

/* ---------- the numbers (§1, §2) ---------- */

/* §1: 5 ms at nice 19 to 200 ms at nice -20; 100 ms at nice 0. */
static int slice_ms(int static_prio)
{
	return MIN_TIMESLICE_MS + (MAX_TIMESLICE_MS - MIN_TIMESLICE_MS) *
		(LOWEST_STAIR - static_prio) / (NICE_LEVELS - 1);
}

int o1_timeslice(const struct sched_task *p)
{
	return ms_to_ticks(slice_ms(p->static_prio));
}

/* §2: CURRENT_BONUS, 0..10 from sleep_avg 0..1 s. */
int o1_bonus(const struct sched_task *p)
{
	return (int)(p->o1.sleep_avg / NS_PER_MS) * MAX_BONUS / MAX_SLEEP_AVG_MS;
}

/* §2: the dynamic priority, static - (bonus - 5), within 100..139. */
int o1_effective_prio(const struct sched_task *p)
{
	int prio = p->static_prio - (o1_bonus(p) - MAX_BONUS / 2);

	return prio < MAX_RT_PRIO ? MAX_RT_PRIO : prio > LOWEST_STAIR ? LOWEST_STAIR : prio;
}

/* §2: DELTA: how far above its static priority a task must stand to be
 * interactive, 2 at nice 0 (nice x 10 / 40 + 2, truncated). */
static int delta(const struct sched_task *p)
{
	return PRIO_TO_NICE(p->static_prio) * MAX_BONUS / NICE_LEVELS + INTERACTIVE_DELTA;
}

/* §2: TASK_INTERACTIVE. SCHED_BATCH never is (docs/o1.md §6). */
bool o1_interactive(const struct sched_task *p)
{
	return p->policy != SCHED_BATCH && p->prio <= p->static_prio - delta(p);
}

/* §2: INTERACTIVE_SLEEP: the sleep_avg that makes the task interactive. */
static uint64_t interactive_sleep(const struct sched_task *p)
{
	return (uint64_t)(MAX_SLEEP_AVG_MS * (MAX_BONUS / 2 + delta(p) + 1) / MAX_BONUS - 1) *
	       NS_PER_MS;
}

static bool high_credit(const struct sched_task *p) { return p->o1.credit > CREDIT_LIMIT; }
static bool low_credit(const struct sched_task *p) { return p->o1.credit < -CREDIT_LIMIT; }

/* ---------- the arrays (§1) ---------- */

static void list_add_before(struct sched_list *n, struct sched_list *next)
{
	n->prev = next->prev;
	n->next = next;
	next->prev->next = n;
	next->prev = n;
}

static void list_del(struct sched_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

static void link_active(struct runqueue *rq, struct sched_task *t)
{
	struct sched_task *curr = rq->curr;

	if (t->o1.fork_first && curr != t && curr->on_rq && curr->prio == t->prio &&
	    ops_of(curr) == ops_of(t) && !curr->o1.expired)
		rq_link_before(rq, t, &curr->run_list);	/* 2.6.8: just before its parent */
	else
		rq_link_before(rq, t, &rq->queue[t->prio]);
	t->o1.fork_first = false;
	rq->o1.nr_active++;
}

/* §1: no o1 task active, some expired: the arrays swap. */
static void maybe_swap(struct runqueue *rq)
{
	if (rq->o1.nr_active || !rq->o1.nr_expired)
		return;
	for (int i = 0; i < NICE_LEVELS; i++) {
		struct sched_list *q = &rq->o1.expired[i];
		while (q->next != q) {
			struct sched_task *t = list_task(q->next);
			list_del(&t->run_list);
			t->o1.expired = false;
			rq->o1.nr_expired--;
			link_active(rq, t);
		}
	}
	rq->o1.expired_timestamp = 0;
	rq->o1.best_expired_prio = MAX_PRIO;
}

static void o1_enqueue(struct runqueue *rq, struct sched_task *t)
{
	KASSERT(t->prio >= MAX_RT_PRIO && t->prio <= LOWEST_STAIR);
	if (t->o1.expired) {
		list_add_before(&t->run_list, &rq->o1.expired[t->prio - MAX_RT_PRIO]);
		rq->o1.nr_expired++;
	} else {
		link_active(rq, t);
	}
}

static void unlink(struct runqueue *rq, struct sched_task *t)
{
	if (t->o1.expired) {
		list_del(&t->run_list);
		rq->o1.nr_expired--;
	} else {
		rq_unlink(rq, t);
		rq->o1.nr_active--;
	}
}

static void o1_dequeue(struct runqueue *rq, struct sched_task *t)
{
	unlink(rq, t);		/* its array stays (a nice change queues it back there) */
	maybe_swap(rq);
}

/* A queued task to the tail of the expired array, or of its list on the
 * active one, at its priority now. */
static void requeue(struct runqueue *rq, struct sched_task *t, bool expired)
{
	unlink(rq, t);
	t->prio = o1_effective_prio(t);
	t->o1.expired = expired;
	o1_enqueue(rq, t);
	if (expired) {
		if (!rq->o1.expired_timestamp)
			rq->o1.expired_timestamp = rq->ticks;
		if (t->static_prio < rq->o1.best_expired_prio)
			rq->o1.best_expired_prio = t->static_prio;
	}
	maybe_swap(rq);
}

/* ---------- sleep_avg (§3) ---------- */

/* Linux 2.6.8's recalc_task_prio: sleep earns sleep_avg, weighted for
 * tasks with little bonus; a long sleep of a user task makes it just
 * interactive; a task woken from uninterruptible sleep (activated -1)
 * cannot become interactive by it; the credit gives hysteresis. */
static void recalc_task_prio(struct sched_task *p, uint64_t now)
{
	uint64_t sleep = now > p->timestamp ? now - p->timestamp : 0;
	uint64_t slice_ns = (uint64_t)slice_ms(p->static_prio) * NS_PER_MS;

	if (sleep > NS_MAX_SLEEP_AVG)
		sleep = NS_MAX_SLEEP_AVG;
	if (sleep && p->policy != SCHED_BATCH) {
		if (!p->is_kthread && p->o1.activated != -1 && sleep > interactive_sleep(p)) {
			p->o1.sleep_avg = (MAX_SLEEP_AVG_MS - 100) * NS_PER_MS;	/* - AVG_TIMESLICE */
			if (!high_credit(p))
				p->o1.credit++;
		} else {
			int weight = MAX_BONUS - o1_bonus(p);
			sleep *= weight ? weight : 1;
			if (low_credit(p) && sleep > slice_ns)
				sleep = slice_ns;
			if (p->o1.activated == -1 && !high_credit(p) && !p->is_kthread) {
				if (p->o1.sleep_avg >= interactive_sleep(p))
					sleep = 0;
				else if (p->o1.sleep_avg + sleep >= interactive_sleep(p)) {
					p->o1.sleep_avg = interactive_sleep(p);
					sleep = 0;
				}
			}
			p->o1.sleep_avg += sleep;
			if (p->o1.sleep_avg > NS_MAX_SLEEP_AVG) {
				p->o1.sleep_avg = NS_MAX_SLEEP_AVG;
				if (!high_credit(p))
					p->o1.credit++;
			}
		}
	}
	p->prio = o1_effective_prio(p);
}

/* Wake-up (activate_task): sleep_avg from the sleep, then active. Every
 * wake-up here is a task's (activated 1): sched/ cannot tell an
 * interrupt's (2.6.8's activated 2, its wait counted in full). */
static void o1_activate(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	(void)rq;
	if (p->flags & SF_UISLEEP)
		p->o1.activated = -1;
	p->flags &= ~SF_UISLEEP;
	recalc_task_prio(p, now);
	if (!p->o1.activated)
		p->o1.activated = 1;
	p->o1.expired = false;
	p->timestamp = now;
}

/* schedule(): the stint just run comes off sleep_avg (divided by the
 * bonus for a task of high credit); at 0 the credit falls. */
static void o1_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	uint64_t run = now > prev->timestamp ? now - prev->timestamp : 0;

	(void)rq;
	if (run > NS_MAX_SLEEP_AVG)
		run = NS_MAX_SLEEP_AVG;
	if (high_credit(prev))
		run /= o1_bonus(prev) ? (uint64_t)o1_bonus(prev) : 1;
	if (prev->o1.sleep_avg > run) {
		prev->o1.sleep_avg -= run;
	} else {
		prev->o1.sleep_avg = 0;
		if (!high_credit(prev) && !low_credit(prev))
			prev->o1.credit--;
	}
	prev->timestamp = now;
}

/* A woken task's first pick: its wait on the queue counts as sleep too,
 * 30 % of it, and it takes the priority that gives (it still runs now). */
static struct sched_task *o1_pick(struct runqueue *rq, struct sched_task *next)
{
	if (next->o1.activated > 0) {
		uint64_t now = clock_ns();
		uint64_t wait = now > next->timestamp ? now - next->timestamp : 0;
		unlink(rq, next);
		recalc_task_prio(next, next->timestamp + wait * (ON_RUNQUEUE_WEIGHT * 128 / 100) / 128);
		o1_enqueue(rq, next);
	}
	next->o1.activated = 0;
	return next;
}

/* ---------- the tick (§4) ---------- */

/* EXPIRED_STARVING: the expired array has waited a second per runnable
 * task, or holds a task of better static priority than the running one. */
static bool expired_starving(const struct runqueue *rq)
{
	uint64_t limit = (uint64_t)ms_to_ticks(STARVATION_LIMIT_MS) * (uint64_t)rq->nr_running + 1;

	return (rq->o1.expired_timestamp && rq->ticks - rq->o1.expired_timestamp >= limit) ||
	       rq->curr->static_prio > rq->o1.best_expired_prio;
}

/* TIMESLICE_GRANULARITY: 10 ms x 2^(bonus missing - 1) x CPUs. */
static int granularity(const struct sched_task *p)
{
	int missing = MAX_BONUS - o1_bonus(p);

	return ms_to_ticks(GRANULARITY_MS) * (1 << ((missing ? missing : 1) - 1)) * sched_ncpus;
}

static void o1_tick(struct runqueue *rq, struct sched_task *p)
{
	if (--p->time_slice <= 0) {
		p->time_slice = o1_timeslice(p);
		p->o1.first_slice = false;
		requeue(rq, p, !o1_interactive(p) || expired_starving(rq));
		sched_trace(rq->cpu, TRACE_SLICE_END, p, p->prio);
		resched_cpu(rq->cpu);
	} else if (o1_interactive(p) && (o1_timeslice(p) - p->time_slice) % granularity(p) == 0 &&
		   p->time_slice >= granularity(p)) {
		requeue(rq, p, false);		/* round robin among its equals */
		sched_trace(rq->cpu, TRACE_STAIR_DROP, p, p->prio);
		resched_cpu(rq->cpu);
	}
}

/* ---------- fork, yield, nice, preemption (§5) ---------- */

/* The parent's slice is split with the child (rounded in the child's
 * favour); a parent left with none expires now. The child starts with
 * 95 % of the parent's bonus and no credit. */
static void o1_fork(struct sched_task *parent, struct sched_task *child)
{
	uint64_t bonus_ns = (uint64_t)MAX_SLEEP_AVG_MS * NS_PER_MS / MAX_BONUS;

	child->time_slice = (parent->time_slice + 1) >> 1;
	parent->time_slice >>= 1;
	child->o1.first_slice = true;
	child->o1.sleep_avg = (uint64_t)(o1_bonus(parent) * CHILD_PENALTY / 100) * bonus_ns;
	parent->o1.sleep_avg = (uint64_t)(o1_bonus(parent) * PARENT_PENALTY / 100) * bonus_ns;
	child->o1.credit = 0;
	child->prio = o1_effective_prio(child);
	if (parent->time_slice <= 0) {
		parent->time_slice = 1;
		if (parent->on_rq && task_rq(parent)->curr == parent)
			o1_tick(task_rq(parent), parent);
	}
}

static void o1_wake_new(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	t->o1.fork_first = true;
	t->o1.expired = false;
}

/* 2.6.8's sched_yield: to the expired array. */
static void o1_yield(struct runqueue *rq, struct sched_task *p)
{
	if (!p->o1.expired)
		requeue(rq, p, true);
}

/* 2.6.8's set_user_nice: the dynamic priority becomes the new static
 * one until the next recalculation; the array stays. */
static void o1_renice(struct sched_task *t, int nice)
{
	t->static_prio = NICE_TO_PRIO(nice);
	t->prio = t->static_prio;
}

/* TASK_PREEMPTS_CURR: a better dynamic priority. */
static enum preempt_decision o1_preempt(const struct runqueue *rq, const struct sched_task *p)
{
	const struct sched_task *curr = rq->curr;

	return curr->is_idle || p->prio < curr->prio ? PREEMPT_NOW : PREEMPT_NO;
}

static void o1_migrate(struct runqueue *src, struct runqueue *dst, struct sched_task *t)
{
	(void)src;
	(void)dst;
	t->o1.expired = false;		/* the balancer only moves active tasks */
}

static void o1_set_curr(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	(void)t;
}

const struct sched_ops o1_ops = {
	.enqueue = o1_enqueue,
	.dequeue = o1_dequeue,
	.activate = o1_activate,
	.preempt = o1_preempt,
	.fork = o1_fork,
	.wake_new = o1_wake_new,
	.put_prev = o1_put_prev,
	.pick = o1_pick,
	.set_curr = o1_set_curr,
	.yield = o1_yield,
	.renice = o1_renice,
	.migrate = o1_migrate,
};

/* ---------- the tables and the class ---------- */

static int o1_rr_interval(const struct sched_task *p)
{
	return o1_timeslice(p);
}

static int o1_prio(const struct sched_task *p)
{
	return o1_effective_prio(p);
}

static int o1_yield_prio(struct sched_task *p)
{
	return p->prio;
}

static unsigned o1_smt_rule(const struct sched_task *p)
{
	(void)p;
	return SMT_NEVER_WAITS | SMT_SIBLING_NEVER_WAITS;
}

/* time_slice is o1's slice: a new task's is its whole slice (§1). */
const struct sched_policy policy_o1_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.ops = &o1_ops,
	.rr_interval = o1_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = o1_prio,
	.first_quantum = o1_rr_interval,
	.tick = o1_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = o1_smt_rule,
	.yield = o1_yield_prio,
	.rr_get_interval = o1_rr_interval,
};

/* SCHED_BATCH (2.6.8 had none): never interactive, no sleep_avg (§6). */
const struct sched_policy policy_o1_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &o1_ops,
	.rr_interval = o1_rr_interval,
	.max_burst = staircase_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = o1_prio,
	.first_quantum = o1_rr_interval,
	.tick = o1_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = o1_smt_rule,
	.yield = o1_yield_prio,
	.rr_get_interval = o1_rr_interval,
};

static void o1_init(int ncpus)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct runqueue *rq = cpu_rq(cpu);
		for (int i = 0; i < NICE_LEVELS; i++)
			rq->o1.expired[i].next = rq->o1.expired[i].prev = &rq->o1.expired[i];
		rq->o1.nr_active = rq->o1.nr_expired = 0;
		rq->o1.expired_timestamp = 0;
		rq->o1.best_expired_prio = MAX_PRIO;
	}
}

const struct sched_class o1_class = {
	.name = "o1",
	.title = "O(1) of Linux 2.6.8 (docs/o1.md); FIFO/RR and the SMP balancer shared",
	.policies = {
		[SCHED_NORMAL]	= &policy_o1_normal,
		[SCHED_FIFO]	= &policy_fifo,
		[SCHED_RR]	= &policy_rr,
		[SCHED_BATCH]	= &policy_o1_batch,
	},
	.init = o1_init,
};
