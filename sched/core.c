/*
 * core.c - the staircase scheduler's core: wake-up, tick, schedule(),
 * yield, fork and nice (staircase.md §3 to §6).
 *
 * Every policy difference is behind the hooks of policy.h; SMP placement
 * and balancing are in balance.c, the SMT rule in smt.c. What is left here
 * is the life of a task: it is activated (woken), it runs and is ticked
 * down the stairs, it sleeps or yields, and schedule() picks the next one.
 */
#include "core.h"
#include "policy.h"
#include "balance.h"
#include "smt.h"
#include "tunables.h"
#include "../lib/errno.h"

/* ---------- small helpers ---------- */

uint64_t ns_to_ticks(uint64_t ns)
{
	return ns * (uint64_t)tunables.hz / 1000000000ull;
}

static uint32_t cpu_bit(int cpu)
{
	return 1u << cpu;
}

uint32_t sched_online_mask(void)
{
	return sched_ncpus >= 32 ? ~0u : (1u << sched_ncpus) - 1;
}

/* Switches out while still runnable (a preemption, a yield): every turn
 * but the one on a CPU now ended in a switch out, and nvcsw counts those
 * asleep (put_prev_task). */
uint32_t sched_task_nivcsw(const struct sched_task *t)
{
	return t->stats.nr_runs - t->stats.nvcsw - (t->on_cpu ? 1u : 0u);
}

int sched_task_nice(const struct sched_task *t)
{
	return PRIO_TO_NICE(t->static_prio);
}

struct sched_task *sched_current(void)
{
	return cpu_rq(this_cpu())->curr;
}

/* ---------- boot ---------- */

void sched_set_hz(int hz)
{
	tunables.hz = hz;
}

void sched_init(int ncpus, const struct sched_topology *topo)
{
	KASSERT(ncpus >= 1 && ncpus <= SCHED_MAX_CPUS);
	sched_check_policies();
	class_install();
	sched_ncpus = ncpus;
	for (int cpu = 0; cpu < ncpus; cpu++)
		rq_init(cpu_rq(cpu), cpu);
	sched_class->init(ncpus);
	balance_init(ncpus, topo);
}

/* The idle task is rq->curr when nothing else runs; it is never queued. */
void sched_init_idle(int cpu, struct sched_task *idle)
{
	struct runqueue *rq = cpu_rq(cpu);

	sched_task_init(idle, true);
	idle->is_idle = true;
	idle->prio = idle->static_prio = MAX_PRIO;
	idle->cpu = cpu;
	idle->cpus_allowed = cpu_bit(cpu);
	idle->on_cpu = 1;
	rq->idle = rq->curr = idle;
}

void sched_task_init(struct sched_task *t, bool kthread)
{
	t->run_list.next = t->run_list.prev = &t->run_list;
	t->policy = DEFAULT_POLICY;
	t->rt_priority = 0;
	t->static_prio = t->prio = NICE_TO_PRIO(0);
	t->burst = 0;
	t->slice = full_slice(t);
	t->time_slice = rr_interval(t);
	t->runtime = t->totalrun = t->timestamp = 0;
	t->flags = 0;
	t->state = TASK_RUNNING;
	t->cpu = this_cpu();
	t->cpus_allowed = sched_online_mask();
	t->on_rq = t->on_cpu = 0;
	t->migrate_to = -1;
	t->rotated_runs = ~0u;
	t->is_kthread = kthread;
	t->is_idle = false;
	t->stats = (struct sched_task_stats){ 0 };
	t->fair = (struct sched_fair_entity){ 0 };
	t->o1 = (struct sched_o1_entity){ 0 };
	t->sdl = (struct sched_sd_entity){ 0 };
}

/* ---------- activation (staircase.md §6.2, wake-up) ---------- */

/*
 * recalc: a task that ran less than a tick (or any task, without the
 * interactive mode) and whose run + sleep was shorter than one quantum
 * did not really sleep: it continues its old slice. Otherwise its sleep
 * earns one more burst (not after an uninterruptible sleep).
 */
static void recalc_task_prio(struct sched_task *p, uint64_t now)
{
	uint64_t sleep = now > p->timestamp ? now - p->timestamp : 0;
	uint64_t total = p->totalrun + p->runtime;
	bool brief = ns_to_ticks(p->runtime) == 0 || !tunables.interactive ||
		     tunables.compute;

	if ((p->flags & SF_FORKED) ||
	    (brief && ns_to_ticks(p->runtime + sleep) < (uint64_t)rr_interval(p))) {
		int64_t total_ticks = (int64_t)ns_to_ticks(total);
		p->flags &= ~SF_FORKED;
		if (p->slice - total_ticks < 1) {
			p->totalrun = 0;
			dec_burst(p);
		} else {
			p->totalrun = total;
			p->slice -= (int)total_ticks;
		}
	} else {
		if (!(p->flags & SF_UISLEEP))
			inc_burst(p);
		p->runtime = p->totalrun = 0;
	}
}

/* Everything activation decides about p, without touching a queue. */
static void prepare_activation(struct sched_task *p, uint64_t now)
{
	p->slice = full_slice(p);
	recalc_task_prio(p, now);
	policy_wake(p);		/* BATCH reads UISLEEP here */
	p->prio = effective_prio(p);
	p->flags &= ~SF_UISLEEP;
	p->time_slice = first_quantum(p);
	p->timestamp = now;
}

/* The staircase's activate (policy.h). */
void staircase_activate(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	(void)rq;
	prepare_activation(p, now);
}

static void activate_task(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	ops_of(p)->activate(rq, p, now);
	p->stats.queued_ns = now;
	enqueue_task(rq, p);
}

/* What activate_task would make of t, on a copy: wake-up placement asks
 * it with t's run queue locked, as the hooks require (policy.h). */
void predict_activation(const struct sched_task *t, struct sched_task *copy)
{
	KASSERT(spin_held(&task_rq(t)->lock));
	*copy = *t;
	ops_of(copy)->activate(task_rq(t), copy, clock_ns());
}

/* ---------- preemption (staircase.md §6.3) ---------- */

enum preempt_decision staircase_preempt(const struct runqueue *rq,
					       const struct sched_task *p)
{
	const struct sched_task *curr = rq->curr;

	/* staircase.md §11.5: an idle CPU has no cache worth protecting. */
	if (curr->is_idle)
		return PREEMPT_NOW;
	if (p->prio > curr->prio)
		return PREEMPT_NO;
	if (p->prio == curr->prio &&
	    (p->slice < full_slice(p) || p->time_slice <= curr->time_slice ||
	     fixed_prio(curr)))
		return PREEMPT_NO;
	/* Compute mode: let curr use its cache for cache_delay first. */
	if (!tunables.compute || rq->cache_ticks >= cache_delay_ticks() ||
	    p->is_kthread || fixed_prio(p))
		return PREEMPT_NOW;
	return PREEMPT_DELAYED;
}

void check_preempt(struct runqueue *rq, struct sched_task *p)
{
	enum preempt_decision d = preempt_decision(rq, p);

	if (d == PREEMPT_NO)
		return;
	sched_trace(rq->cpu, TRACE_PREEMPT, p, d == PREEMPT_DELAYED);
	if (d == PREEMPT_DELAYED)
		rq->preempted = true;
	else
		resched_cpu(rq->cpu);
}

/* ---------- moving between CPUs (staircase.md §8.1) ---------- */

/*
 * A moved task's stair is recomputed on the new CPU (ISO may be throttled
 * on one CPU, not another). Its timestamp stays: clock_ns() is one clock
 * for every CPU, so the seed's rebase would only add error
 * (staircase.md §8). A YIELDED task keeps its list; its prio is
 * recomputed when picked.
 */
/* A moved task keeps its prio if it is a yield's 139 or a newborn's stair
 * below its parent (§6.5, §6.6): neither is where its slice puts it. */
#define SF_KEEP_STAIR (SF_YIELDED | SF_NEWBORN)

void attach_task(struct runqueue *src, struct runqueue *dst, struct sched_task *p)
{
	KASSERT(spin_held(&src->lock) && spin_held(&dst->lock));
	KASSERT(!p->on_rq && !p->on_cpu);
	ops_of(p)->migrate(src, dst, p);
	p->cpu = dst->cpu;
	if (!(p->flags & SF_KEEP_STAIR))
		p->prio = effective_prio(p);
	enqueue_task(dst, p);
	sched_trace(dst->cpu, TRACE_MIGRATE, p, src->cpu);
	check_preempt(dst, p);
}

/* ---------- waking (Linux try_to_wake_up) ---------- */

/*
 * Step 1 of a wake-up: claim t. Only a sleeping t can be woken, and only
 * from the exact state we saw (compare-and-swap): a task still on its
 * queue has not reached schedule() yet and may be changing its own state
 * right now, without our lock (back to RUNNING, or to TASK_DEAD on its
 * way out of exit), and a plain store could bring a dead task back to
 * life. A t still queued becomes RUNNING and schedule() keeps it: done.
 * Otherwise it becomes TASK_WAKING, which makes other wakers leave it
 * alone, and the caller goes on with the steps below.
 */
enum claim { CLAIM_NONE, CLAIM_DONE, CLAIM_OFF_QUEUE };

static enum claim claim_sleeper(struct sched_task *t)
{
	struct runqueue *rq = task_rq_lock(t);
	int state = __atomic_load_n(&t->state, __ATOMIC_SEQ_CST);
	bool woke = false;

	if (state == TASK_INTERRUPTIBLE || state == TASK_UNINTERRUPTIBLE ||
	    state == TASK_STOPPED)
		woke = __atomic_compare_exchange_n(&t->state, &state,
						   t->on_rq ? TASK_RUNNING : TASK_WAKING,
						   false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
	bool queued = t->on_rq;
	task_rq_unlock(rq);
	return !woke ? CLAIM_NONE : queued ? CLAIM_DONE : CLAIM_OFF_QUEUE;
}

/* Step 2: the CPU t slept on must be off t's stack before t runs again. */
static void wait_until_off_cpu(struct sched_task *t)
{
	while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
		cpu_relax();
}

/* Step 3: choose its CPU (staircase.md §8.1) and lock the source and
 * destination queues; returns the locked set. Again if the affinity
 * changed between the choice and the lock. */
static uint32_t place_woken(struct sched_task *t, int *dst)
{
	int src = t->cpu;
	for (;;) {
		*dst = select_task_cpu(t);
		uint32_t locked = cpu_bit(src) | cpu_bit(*dst);
		lock_rqs(locked);
		if (t->cpus_allowed & cpu_bit(*dst))
			return locked;
		unlock_rqs(locked);
	}
}

/* Linux's try_to_wake_up: the steps above, then activation on the chosen
 * CPU (§6.2) and the preemption check (§6.3). Returns whether it woke t. */
bool sched_wake_up(struct sched_task *t)
{
	enum claim c = claim_sleeper(t);
	int dst;

	if (c != CLAIM_OFF_QUEUE)
		return c == CLAIM_DONE;
	wait_until_off_cpu(t);
	uint32_t locked = place_woken(t, &dst);
	struct runqueue *rq = cpu_rq(dst);
	int src = t->cpu;
	if (dst != src) {
		ops_of(t)->migrate(cpu_rq(src), rq, t);
		t->cpu = dst;
		sched_trace(dst, TRACE_MIGRATE, t, src);
	}
	activate_task(rq, t, clock_ns());
	t->state = TASK_RUNNING;
	sched_trace(dst, TRACE_WAKEUP, t, t->prio);
	check_preempt(rq, t);
	unlock_rqs(locked);
	return true;
}

void sched_set_current_state(int state)
{
	struct sched_task *t = sched_current();

	KASSERT(state == TASK_RUNNING || state == TASK_INTERRUPTIBLE ||
		state == TASK_UNINTERRUPTIBLE || state == TASK_STOPPED ||
		state == TASK_DEAD);
	__atomic_store_n(&t->state, state, __ATOMIC_SEQ_CST);
}

/* ---------- fork (staircase.md §6.6) ---------- */

/*
 * The child copies the parent's stair, slice and quantum and starts with
 * no burst; the parent is marked FORKED so that its next wake-up continues
 * its slice rather than earning a burst.
 */
void sched_fork(struct sched_task *parent, struct sched_task *child)
{
	struct runqueue *rq;

	sched_task_init(child, parent->is_kthread);
	child->policy = parent->policy;
	child->rt_priority = parent->rt_priority;
	child->static_prio = parent->static_prio;
	child->cpus_allowed = parent->cpus_allowed;
	if (parent->reset_on_fork)
		policy_reset_on_fork(child);

	rq = task_rq_lock(parent);
	child->cpu = parent->cpu;
	ops_of(child)->fork(parent, child);
	task_rq_unlock(rq);
}

/* The staircase's fork (§6.6), under the parent's run-queue lock. */
void staircase_fork(struct sched_task *parent, struct sched_task *child)
{
	child->prio = parent->prio;
	/* A fork creates no time on the parent's stair: the child waits its
	 * first turn one stair lower (staircase.md §6.6, §11.19), so a fork
	 * bomb cannot fill the top stair ahead of a task that wakes there. */
	if (parent->prio >= MAX_RT_PRIO && parent->prio < LOWEST_STAIR &&
	    !(parent->flags & SF_YIELDED)) {
		child->prio = parent->prio + 1;
		child->flags |= SF_NEWBORN;
	}
	child->slice = parent->slice;
	child->time_slice = parent->time_slice;
	child->burst = 0;
	parent->flags |= SF_FORKED;
}

/* Queue a new task at the tail on its CPU (no child-runs-first). */
void sched_wake_new(struct sched_task *t)
{
	struct runqueue *rq;
	uint64_t now;

	if (!(t->cpus_allowed & cpu_bit(t->cpu)))
		t->cpu = __builtin_ctz(t->cpus_allowed);
	rq = task_rq_lock(t);
	now = clock_ns();
	t->timestamp = now;
	t->stats.queued_ns = now;
	t->state = TASK_RUNNING;
	ops_of(t)->wake_new(rq, t);
	enqueue_task(rq, t);
	sched_trace(rq->cpu, TRACE_FORK, t, t->prio);
	check_preempt(rq, t);
	task_rq_unlock(rq);
}

/* ---------- the tick (staircase.md §6.1) ---------- */

/* BATCH and nice > 0 time is "nice" time, the rest "user" (seed 002). */
static void account_tick(struct runqueue *rq, struct sched_task *p, bool user_mode)
{
	if (p->is_idle) {
		rq->idle_ticks++;
	} else if (!user_mode) {
		p->stats.stime++;
		rq->system_ticks++;
	} else {
		p->stats.utime++;
		if (policy_of(p)->nice_time || sched_task_nice(p) > 0)
			rq->nice_ticks++;
		else
			rq->user_ticks++;
	}
}

/*
 * Ticks the timer counted but never delivered (the kernel's jiffies moved
 * on by more than one since the last interrupt: QEMU drops timer
 * interrupts while the host leaves a vCPU unscheduled). The time passed
 * all the same, on whatever this CPU was running: charge it to that, for
 * the statistics only (no stair drop, no balancing). So per-CPU ticks add
 * up to elapsed time, and a task's share = its ticks / elapsed ticks.
 */
void sched_account_lost_ticks(unsigned n, bool user_mode)
{
	struct runqueue *rq = cpu_rq(this_cpu());

	KASSERT(irqs_disabled());
	rq_lock(rq);
	rq->lost_ticks += n;
	sched_trace(rq->cpu, TRACE_LOST_TICKS, rq->curr, (int)n);
	while (n--)
		account_tick(rq, rq->curr, user_mode);
	rq_unlock(rq);
}

void sched_tick(bool user_mode)
{
	struct runqueue *rq = cpu_rq(this_cpu());
	struct sched_task *p;
	bool idle;

	KASSERT(irqs_disabled());
	rq_lock(rq);
	p = rq->curr;
	rq->ticks++;
	account_tick(rq, p, user_mode);
	for (int i = 0; i < SCHED_NR_POLICIES; i++)
		if (sched_policies[i])		/* NULL: not in this class */
			sched_policies[i]->rq_tick(rq, p);
	idle = p->is_idle;
	if (idle) {
		/* Work held back by the SMT rule: look again every tick. */
		if (rq->nr_running)
			resched_cpu(rq->cpu);
	} else {
		KASSERT(p->on_rq);
		rq->cache_ticks++;
		policy_tick(rq, p);
		/* Compute mode: a preemption held back until cache_delay. */
		if (rq->preempted && rq->cache_ticks >= cache_delay_ticks()) {
			rq->preempted = false;
			resched_cpu(rq->cpu);
		}
	}
	rq_unlock(rq);
	balance_tick(rq, idle);
}

/* ---------- schedule() (staircase.md §6.4) ---------- */

/*
 * Should prev leave this CPU (affinity change, or an active balance to
 * push_cpu)? A push request was made for the task running then, which
 * is prev: it is used or dropped here, never left for a later task
 * (staircase.md §8).
 */
static bool must_migrate(struct runqueue *rq, struct sched_task *prev, int push_cpu)
{
	if (!(prev->cpus_allowed & cpu_bit(rq->cpu))) {
		prev->migrate_to = -1;
		return true;
	}
	if (push_cpu >= 0 && (prev->cpus_allowed & cpu_bit(push_cpu))) {
		prev->migrate_to = push_cpu;
		return true;
	}
	return false;
}

/* Record prev's stint; a sleeping (or moving) prev leaves the queue. */
static void put_prev_task(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	int push_cpu = rq->push_cpu;

	rq->push_cpu = -1;
	if (prev->is_idle)
		return;
	ops_of(prev)->put_prev(rq, prev, now);
	prev->runtime = now - prev->timestamp;
	if (prev->state != TASK_RUNNING) {
		if (prev->state == TASK_UNINTERRUPTIBLE)
			prev->flags |= SF_UISLEEP;
		dequeue_task(rq, prev);
		prev->timestamp = now;
		prev->stats.nvcsw++;
		sched_trace(rq->cpu, TRACE_SLEEP, prev, prev->state);
	} else if (must_migrate(rq, prev, push_cpu)) {
		dequeue_task(rq, prev);
		prev->flags |= SF_MIGRATE;
	}
}

/* A YIELDED task, once picked, gets its real stair back and goes to the
 * head of that list, so it runs now and then continues normally. */
struct sched_task *staircase_pick(struct runqueue *rq, struct sched_task *next)
{
	if (next->flags & SF_YIELDED) {
		next->flags &= ~SF_YIELDED;
		requeue_task_head(rq, next, effective_prio(next));
	}
	return next;
}

/* The head of the highest non-empty list, unless the SMT rule says to
 * idle, as its policy's ops' pick has it. */
static struct sched_task *pick_next_task(struct runqueue *rq)
{
	struct sched_task *next = pick_first_task(rq);

	if (next->is_idle) {
		if (rq_has_siblings(rq))
			wake_sleeping_siblings(rq);
		return next;
	}
	if (rq_has_siblings(rq) && dependent_sleeper(rq, next)) {
		sched_trace(rq->cpu, TRACE_SMT_IDLE, next, next->prio);
		return rq->idle;
	}
	return ops_of(next)->pick(rq, next);
}

static void switch_to_next(struct runqueue *rq, struct sched_task *prev,
			   struct sched_task *next, uint64_t now)
{
	rq->cache_ticks = 0;
	rq->preempted = false;
	if (!prev->is_idle) {
		prev->stats.last_ran_ns = now;
		prev->stats.queued_ns = now;
	}
	if (!next->is_idle) {
		next->stats.wait_ns += now - next->stats.queued_ns;
		next->stats.nr_runs++;
	}
	next->timestamp = now;
	next->flags &= ~SF_NEWBORN;	/* its first turn came: its stair is its own now */
	/* No CPU may still be on next's stack: wake-ups wait for on_cpu to
	 * clear, and the balancer never takes a task with on_cpu set. */
	KASSERT(!next->on_cpu || next->is_idle);
	next->on_cpu = 1;
	rq->curr = next;
	sched_trace(rq->cpu, TRACE_SWITCH, next, next->prio);
}

struct sched_task *sched_schedule(void)
{
	struct runqueue *rq = cpu_rq(this_cpu());
	struct sched_task *prev, *next;
	uint64_t now;

	KASSERT(irqs_disabled());
	lock_rqs(rq->siblings);		/* the SMT rule looks at siblings */
	now = clock_ns();
	prev = rq->curr;
	KASSERT(prev->on_cpu);
	put_prev_task(rq, prev, now);
	if (rq->nr_running == 0) {
		unlock_rqs(rq->siblings);
		idle_balance(rq);
		lock_rqs(rq->siblings);
	}
	next = pick_next_task(rq);
	if (next != prev)
		switch_to_next(rq, prev, next, now);
	/* Comparing the whole bitmap with all 142 lists costs ~4,000
	 * instructions, half of a yield (make profile): the host builds (unit
	 * tests, simulator) do it at every schedule(); the kernel checks what
	 * this pick relied on. */
	KASSERT(rq_pick_ok(rq, next));
#ifdef SCHED_FULL_CHECKS
	KASSERT(rq_bitmap_ok(rq));
#endif
	unlock_rqs(rq->siblings);
	return next;
}

/* After the stack switch: prev's CPU is off its stack. */
void sched_finish_switch(struct sched_task *prev)
{
	bool migrate = prev->flags & SF_MIGRATE;

	__atomic_store_n(&prev->on_cpu, 0, __ATOMIC_RELEASE);
	if (migrate)
		migrate_switched_out(prev);
}

/* ---------- yield, nice, policy, affinity ---------- */

/*
 * staircase.md §6.5, sched_yield: a fresh slice and quantum, no burst; the
 * policy decides where it waits (NORMAL/ISO: 139, YIELDED; RT: its own
 * list; BATCH: 140), always at the tail.
 */
void staircase_yield_task(struct runqueue *rq, struct sched_task *p)
{
	p->slice = full_slice(p);
	p->time_slice = rr_interval(p);
	p->burst = 0;
	requeue_task(rq, p, policy_yield(p));
}

void sched_do_yield(void)
{
	struct runqueue *rq = cpu_rq(this_cpu());
	struct sched_task *p;

	rq_lock(rq);
	p = rq->curr;
	if (!p->is_idle) {
		KASSERT(p->on_rq);
		ops_of(p)->yield(rq, p);
		sched_trace(rq->cpu, TRACE_YIELD, p, p->prio);
		resched_cpu(rq->cpu);
	}
	rq_unlock(rq);
}

/* On the stairs the prio moves with nice; off them (BATCH, throttled ISO)
 * it stays, and so does a YIELDED task's: 139 is its yield penalty (or a
 * BATCH task's one elevated run), not a stair (staircase.md §6.7). */
static int prio_after_nice(const struct sched_task *p, int delta)
{
	int prio = p->prio + delta;

	if (p->prio < MAX_RT_PRIO || p->prio > LOWEST_STAIR || (p->flags & SF_YIELDED))
		return p->prio;
	if (prio < MAX_RT_PRIO)
		return MAX_RT_PRIO;
	return prio > LOWEST_STAIR ? LOWEST_STAIR : prio;
}

/*
 * After a nice or policy change the full slice may differ: keep the
 * fraction of it already used (rounded against the task, at least one
 * tick), so that no change hands out a longer or fresher slice than the
 * task had, and cap the quantum at the new one (staircase.md §6.7).
 */
static void rescale_slice(struct sched_task *p, int old_full)
{
	int64_t slice = (int64_t)p->slice * full_slice(p) / old_full;

	p->slice = slice < 1 ? 1 : (int)slice;
	if (p->time_slice > rr_interval(p))
		p->time_slice = rr_interval(p);
	if (p->burst > max_burst(p))		/* burst stays 0..max_burst (§3) */
		p->burst = max_burst(p);
}

/* staircase.md §6.7: the stair moves with nice, the slice keeps its used
 * fraction. */
void staircase_renice(struct sched_task *t, int nice)
{
	int delta = NICE_TO_PRIO(nice) - t->static_prio;
	int old_full = full_slice(t);

	t->static_prio = NICE_TO_PRIO(nice);
	t->prio = prio_after_nice(t, delta);
	rescale_slice(t, old_full);
}

/* staircase.md §6.7, nice change, as the task's ops have it. */
void sched_set_user_nice(struct sched_task *t, int nice)
{
	struct runqueue *rq = task_rq_lock(t);
	int delta = NICE_TO_PRIO(nice) - t->static_prio;
	bool queued = t->on_rq, running = (rq->curr == t);

	if (delta == 0 || fixed_prio(t)) {
		t->static_prio = NICE_TO_PRIO(nice);
		task_rq_unlock(rq);
		return;
	}
	if (queued)
		dequeue_task(rq, t);
	ops_of(t)->renice(t, nice);
	if (queued) {
		enqueue_task(rq, t);
		/* Seed 002 also reschedules a running BATCH task whose nice
		 * did not change; here such a call returned above (§6.7). */
		if (delta < 0 || running)
			resched_cpu(rq->cpu);
	}
	sched_trace(rq->cpu, TRACE_NICE, t, t->prio);
	task_rq_unlock(rq);
}

/*
 * A policy change (staircase.md §6.7). To the policy and priority the
 * task has already, nothing changes: no fresh slice, no requeue (a
 * running FIFO task keeps its place at the head of its list). A real
 * change keeps the used fraction of the slice and any yield penalty, and
 * the stair follows from them: switching back and forth buys nothing.
 */
void sched_set_policy(struct sched_task *t, int policy, int rt_priority)
{
	struct runqueue *rq = task_rq_lock(t);
	bool queued = t->on_rq, running = (rq->curr == t);
	bool yielded = t->flags & SF_YIELDED;
	int old_prio = t->prio, old_full = full_slice(t);

	if (policy == t->policy && rt_priority == t->rt_priority) {
		task_rq_unlock(rq);
		return;
	}
	/* A running task stops running under its old policy and, queued
	 * again, starts under the new one, as Linux's put_prev_task and
	 * set_next_task have it (the staircase's ops do nothing here). */
	if (running)
		ops_of(t)->put_prev(rq, t, clock_ns());
	if (queued)
		dequeue_task(rq, t);
	t->policy = policy;
	t->flags &= ~SF_YIELDED;
	t->rt_priority = fixed_prio(t) ? rt_priority : 0;
	rescale_slice(t, old_full);
	t->prio = effective_prio(t);
	if (yielded)
		t->prio = policy_yield(t);
	if (queued) {
		enqueue_task(rq, t);
		if (running) {
			ops_of(t)->set_curr(rq, t);
			if (t->prio > old_prio)
				resched_cpu(rq->cpu);
		} else {
			check_preempt(rq, t);
		}
	}
	sched_trace(rq->cpu, TRACE_NICE, t, t->prio);
	task_rq_unlock(rq);
}

/*
 * A task whose CPU leaves its mask moves at once: queued, it is moved
 * now; running, its CPU is told to reschedule and schedule() hands it to
 * sched_finish_switch(), which queues it on an allowed CPU; asleep, its
 * wake-up will place it.
 */
int sched_set_cpus_allowed(struct sched_task *t, uint32_t mask)
{
	struct runqueue *rq;

	mask &= sched_online_mask();
	if (!mask)
		return -EINVAL;
	rq = task_rq_lock(t);
	if (t->on_rq)		/* its queue's count of pinned tasks follows */
		rq->nr_pinned -= task_pinned(t);
	if (t->cpus_allowed != mask)
		sched_trace(rq->cpu, TRACE_AFFINITY, t, (int)mask);
	t->cpus_allowed = mask;
	if (t->on_rq)
		rq->nr_pinned += task_pinned(t);
	if (!(mask & cpu_bit(t->cpu))) {
		if (rq->curr == t) {
			resched_cpu(rq->cpu);
		} else if (t->on_rq) {
			task_rq_unlock(rq);
			migrate_queued_task(t);
			return 0;
		}
	}
	task_rq_unlock(rq);
	return 0;
}

/* Nothing in sched/ keys on a pid: the event is for the trace alone. */
void sched_note_pid_change(struct sched_task *t, int old_pid)
{
	struct runqueue *rq = task_rq_lock(t);

	sched_trace(rq->cpu, TRACE_PID_CHANGE, t, old_pid);
	task_rq_unlock(rq);
}
