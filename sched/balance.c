/*
 * balance.c - SMP: scheduling domains, wake-up placement and load
 * balancing (staircase.md §8).
 *
 * Each CPU schedules its own queue; this file keeps the queues even.
 * A CPU sees the machine as up to three nested domains: its SMT siblings
 * (groups: single CPUs), the cores of its package (groups: cores) and the
 * packages (groups: packages). Levels with nothing to balance are left out.
 *
 * The rules: a CPU about to idle pulls work (idle_balance); every CPU
 * rebalances each domain periodically from its tick (balance_tick); a
 * task is only ever pulled while it waits in a queue, never while it runs,
 * never to a CPU outside its affinity mask, and, unless balancing keeps
 * failing, not while it is cache-hot. Tasks are taken from the tail of the
 * most urgent lists first. One exception lets CPU-bound tasks spread one
 * per core: an idle core may ask a busy hyperthread to hand over its
 * running task at its next schedule() (the "push", as Linux's active
 * balancing does), so the task moves only after it has stopped running.
 */
#include "balance.h"
#include "core.h"
#include "policy.h"
#include "tunables.h"

static const struct {
	int busy_interval_ms;		/* rebalance period while busy (idle: every tick) */
	uint64_t cache_hot_ns;		/* ran this recently: leave it where its cache is */
	int cache_nice_tries;		/* failed balances before hot tasks may move */
	int imbalance_pct;		/* busiest must exceed local by this % too */
} level_params[SD_NR_LEVELS] = {
	[SD_SMT]	= { 2, 0, 0, 110 },		/* siblings share all caches */
	[SD_CORE]	= { 4, 2500000, 1, 125 },
	[SD_PACKAGE]	= { 8, 5000000, 2, 125 },
};

static uint32_t bit(int cpu)
{
	return 1u << cpu;
}

/* ---------- building the domains ---------- */

static int topo_package(const struct sched_topology *topo, int cpu)
{
	return topo ? topo->cpu[cpu].package : 0;
}

static int topo_core(const struct sched_topology *topo, int cpu)
{
	return topo ? topo->cpu[cpu].core : cpu;	/* no topology: one core each */
}

/* The CPUs that share cpu's core (SD_SMT), package (SD_CORE) or machine. */
static uint32_t span_of(int ncpus, const struct sched_topology *topo, int cpu, int level)
{
	uint32_t span = 0;

	if (level < SD_SMT)
		return bit(cpu);
	for (int d = 0; d < ncpus; d++) {
		bool same_pkg = topo_package(topo, d) == topo_package(topo, cpu);
		bool same_core = same_pkg && topo_core(topo, d) == topo_core(topo, cpu);
		if (level == SD_PACKAGE || (level == SD_CORE && same_pkg) || same_core)
			span |= bit(d);
	}
	return span;
}

static void add_domain(struct runqueue *rq, int ncpus, const struct sched_topology *topo,
		       int level, uint32_t span)
{
	struct sched_domain *sd = &rq->sd[rq->nr_domains];

	sd->level = level;
	sd->span = span;
	sd->ngroups = 0;
	for (int d = 0; d < ncpus; d++) {
		uint32_t g = span_of(ncpus, topo, d, level - 1);
		bool seen = false;
		if (!(span & bit(d)))
			continue;
		for (int i = 0; i < sd->ngroups; i++)
			seen |= (sd->groups[i] == g);
		if (!seen)
			sd->groups[sd->ngroups++] = g;
	}
	sd->busy_interval = ms_to_ticks(level_params[level].busy_interval_ms);
	sd->cache_hot_ns = level_params[level].cache_hot_ns;
	sd->cache_nice_tries = level_params[level].cache_nice_tries;
	sd->nr_balance_failed = 0;
	sd->next_balance = 0;
	if (sd->ngroups > 1)
		rq->nr_domains++;
}

void balance_init(int ncpus, const struct sched_topology *topo)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct runqueue *rq = cpu_rq(cpu);
		uint32_t below = bit(cpu);

		rq->nr_domains = 0;
		rq->siblings = span_of(ncpus, topo, cpu, SD_SMT);
		for (int level = SD_SMT; level < SD_NR_LEVELS; level++) {
			uint32_t span = span_of(ncpus, topo, cpu, level);
			if (span != below)
				add_domain(rq, ncpus, topo, level, span);
			below = span;
		}
	}
}

/* ---------- wake-up placement ---------- */

static bool cpu_is_idle(int cpu)
{
	struct runqueue *rq = cpu_rq(cpu);

	return rq->curr == rq->idle && rq->nr_running == 0;
}

static bool core_is_idle(int cpu)
{
	for (int s = 0; s < sched_ncpus; s++)
		if ((cpu_rq(cpu)->siblings & bit(s)) && !cpu_is_idle(s))
			return false;
	return true;
}

static bool wake_would_preempt(const struct sched_task *t, int cpu)
{
	struct runqueue *rq = cpu_rq(cpu);
	struct sched_task woken;
	bool yes;

	predict_activation(t, &woken);
	rq_lock(rq);
	yes = preempt_decision(rq, &woken) != PREEMPT_NO;
	spin_unlock(&rq->lock);
	return yes;
}

static int least_loaded(uint32_t allowed)
{
	int best = -1;

	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		if ((allowed & bit(cpu)) &&
		    (best < 0 || cpu_rq(cpu)->nr_running < cpu_rq(best)->nr_running))
			best = cpu;
	return best;
}

/*
 * The last CPU if it is idle or t would preempt there (its cache may still
 * be warm); else an idle CPU, preferring one whose whole core is idle over
 * an idle hyperthread of a busy core; else the last CPU, or the least
 * loaded allowed one. Reads other queues without their locks: a hint.
 */
int select_task_cpu(struct sched_task *t)
{
	int prev = t->cpu, idle_thread = -1;
	uint32_t allowed = t->cpus_allowed & sched_online_mask();

	KASSERT(allowed);
	if ((allowed & bit(prev)) && (cpu_is_idle(prev) || wake_would_preempt(t, prev)))
		return prev;
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		if (!(allowed & bit(cpu)) || !cpu_is_idle(cpu))
			continue;
		if (core_is_idle(cpu))
			return cpu;
		if (idle_thread < 0)
			idle_thread = cpu;
	}
	if (idle_thread >= 0)
		return idle_thread;
	if (allowed & bit(prev))
		return prev;
	return least_loaded(allowed);
}

/* ---------- pulling tasks ---------- */

static bool task_hot(const struct sched_task *p, uint64_t now, const struct sched_domain *sd)
{
	return p->stats.last_ran_ns && now - p->stats.last_ran_ns < sd->cache_hot_ns;
}

static bool can_migrate(const struct sched_task *p, const struct runqueue *src,
			int this_cpu_id, const struct sched_domain *sd, uint64_t now)
{
	if (p == src->curr || p->on_cpu)
		return false;		/* never a running task */
	if (!(p->cpus_allowed & bit(this_cpu_id)))
		return false;
	if (sd->nr_balance_failed > sd->cache_nice_tries)
		return true;
	return !task_hot(p, now, sd);
}

/* Both rqs locked: pull up to max tasks, from the tail, most urgent lists first. */
static int move_tasks(struct runqueue *this_rq, struct runqueue *src, int max,
		      const struct sched_domain *sd)
{
	uint64_t now = clock_ns();
	int moved = 0;

	for (int prio = 0; prio < MAX_PRIO && moved < max; prio++) {
		struct sched_list *q = &src->queue[prio], *n, *prev;
		for (n = q->prev; n != q && moved < max; n = prev) {
			struct sched_task *p = list_task(n);
			prev = n->prev;
			if (!can_migrate(p, src, this_rq->cpu, sd, now))
				continue;
			dequeue_task(src, p);
			attach_task(src, this_rq, p);
			moved++;
		}
	}
	return moved;
}

static int group_load(uint32_t group)
{
	int load = 0;

	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		if (group & bit(cpu))
			load += cpu_rq(cpu)->nr_running;
	return load;
}

static int busiest_cpu(uint32_t group)
{
	int best = -1;

	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		if ((group & bit(cpu)) &&
		    (best < 0 || cpu_rq(cpu)->nr_running > cpu_rq(best)->nr_running))
			best = cpu;
	return best;
}

/* Imbalance threshold: at least two tasks apart, and imbalance_pct %. */
static bool imbalanced(const struct sched_domain *sd, int busiest, int local)
{
	return busiest - local >= 2 &&
	       busiest * 100 > local * level_params[sd->level].imbalance_pct;
}

/* Ask src to hand its running task to this CPU at its next schedule(). */
static void request_push(struct runqueue *src, int this_cpu_id)
{
	struct sched_task *curr = src->curr;

	if (curr->is_idle || !(curr->cpus_allowed & bit(this_cpu_id)))
		return;
	src->push_cpu = this_cpu_id;
	resched_cpu(src->cpu);
}

/* A balance that moved nothing counts towards letting cache-hot tasks
 * move (cache_nice_tries, staircase.md §8.1); one that moved resets it. */
static int count_balance(struct sched_domain *sd, int moved)
{
	if (moved)
		sd->nr_balance_failed = 0;
	else
		sd->nr_balance_failed++;
	return moved;
}

/*
 * Rotation: a split one task apart (2:1, 3:2) is within the threshold, so
 * nothing above moves, and the task that happens to have a CPU alone would
 * get 100 % while the others share. So when src runs exactly one task
 * more than this CPU, a task waiting there that could run here soon (at
 * least as urgent as our current task; so never BATCH behind NORMAL) is
 * pulled, unless it was itself rotated and has not run since (moved to
 * the tail of an equal list, it could otherwise bounce for ever unrun): the one left
 * alone on src changes, and over time every task gets its fair turn (three
 * hogs on two CPUs: about 2/3 each). It is rate-limited by the domain's
 * balance interval and follows the usual rules (waiting, allowed here,
 * not cache-hot unless balancing keeps failing: so a failed rotation
 * counts as a failed balance). [beyond]: sched_rotate=0 turns it off,
 * the seed's balancer (staircase.md §8.2).
 */
static int rotate(struct runqueue *this_rq, int src, struct sched_domain *sd)
{
	struct runqueue *s = cpu_rq(src);
	uint32_t locked = bit(this_rq->cpu) | bit(src);
	uint64_t now = clock_ns();
	int moved = 0;

	if (!tunables.rotate || src == this_rq->cpu || s->nr_running < 2 ||
	    this_rq->nr_running != s->nr_running - 1)
		return 0;
	lock_rqs(locked);
	if (s->nr_running >= 2 && this_rq->nr_running == s->nr_running - 1) {
		int limit = this_rq->curr->is_idle || this_rq->curr->prio <= LOWEST_STAIR ?
			    LOWEST_STAIR : this_rq->curr->prio;
		for (int prio = 0; prio <= limit && !moved; prio++) {
			struct sched_list *q = &s->queue[prio];
			for (struct sched_list *n = q->prev; n != q; n = n->prev) {
				struct sched_task *p = list_task(n);
				if (p->stats.nr_runs == p->rotated_runs ||
				    !can_migrate(p, s, this_rq->cpu, sd, now))
					continue;
				p->rotated_runs = p->stats.nr_runs;
				dequeue_task(s, p);
				attach_task(s, this_rq, p);
				moved = 1;
				break;
			}
		}
	}
	unlock_rqs(locked);
	return count_balance(sd, moved);
}

/*
 * Balance one domain from this CPU's point of view: find the busiest
 * group, and in it the busiest CPU, and pull half the difference. Group
 * sizes are assumed equal at each level (true for x86 topologies).
 */
static int load_balance(struct runqueue *this_rq, struct sched_domain *sd)
{
	int this = this_rq->cpu, local = 0, busiest = -1, src, moved;
	uint32_t busiest_group = 0, locked;

	for (int i = 0; i < sd->ngroups; i++) {
		int load = group_load(sd->groups[i]);
		if (sd->groups[i] & bit(this))
			local = load;
		else if (load > busiest) {
			busiest = load;
			busiest_group = sd->groups[i];
		}
	}
	if (!busiest_group)
		return 0;
	if (!imbalanced(sd, busiest, local))
		return busiest - local == 1 ? rotate(this_rq, busiest_cpu(busiest_group), sd) : 0;
	src = busiest_cpu(busiest_group);
	locked = bit(this) | bit(src);
	lock_rqs(locked);
	moved = move_tasks(this_rq, cpu_rq(src), (busiest - local) / 2, sd);
	if (!moved && local == 0 && cpu_rq(src)->nr_running == 1)
		request_push(cpu_rq(src), this);
	unlock_rqs(locked);
	return count_balance(sd, moved);
}

void idle_balance(struct runqueue *rq)
{
	for (int i = 0; i < rq->nr_domains; i++)
		if (load_balance(rq, &rq->sd[i]))
			return;
}

void balance_tick(struct runqueue *rq, bool idle)
{
	for (int i = 0; i < rq->nr_domains; i++) {
		struct sched_domain *sd = &rq->sd[i];
		if (rq->ticks < sd->next_balance)
			continue;
		sd->next_balance = rq->ticks + (idle ? 1 : sd->busy_interval);
		load_balance(rq, sd);
	}
}

/* ---------- affinity moves ---------- */

void migrate_queued_task(struct sched_task *t)
{
	for (;;) {
		while (__atomic_load_n(&t->on_cpu, __ATOMIC_ACQUIRE))
			cpu_relax();
		int src = t->cpu, dst = select_task_cpu(t);
		struct runqueue *s = cpu_rq(src);
		uint32_t locked = bit(src) | bit(dst);
		bool done = true;

		lock_rqs(locked);
		if (t->cpu != src || !(t->cpus_allowed & bit(dst)))
			done = false;			/* moved or re-masked meanwhile */
		else if (!t->on_rq || (t->cpus_allowed & bit(src)))
			;				/* asleep, or allowed again */
		else if (s->curr == t)
			resched_cpu(src);		/* started running: schedule() moves it */
		else if (t->on_cpu)
			done = false;
		else {
			dequeue_task(s, t);
			attach_task(s, cpu_rq(dst), t);
		}
		unlock_rqs(locked);
		if (done)
			return;
	}
}

void migrate_switched_out(struct sched_task *p)
{
	for (;;) {
		int src = p->cpu, dst = p->migrate_to;
		uint32_t locked;

		if (dst < 0 || !(p->cpus_allowed & bit(dst)))
			dst = select_task_cpu(p);
		locked = bit(src) | bit(dst);
		lock_rqs(locked);
		if (p->cpus_allowed & bit(dst)) {
			p->flags &= ~SF_MIGRATE;
			p->migrate_to = -1;
			attach_task(cpu_rq(src), cpu_rq(dst), p);
			unlock_rqs(locked);
			return;
		}
		unlock_rqs(locked);
	}
}
