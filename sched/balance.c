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
 * And a split within the threshold (12 hogs on 8 CPUs: four pairs, four
 * alone) would freeze, so CPUs take turns moving one waiting task at a
 * time to change who is alone (rotation, [beyond], staircase.md §8.2).
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

static struct rotation rotations[SCHED_MAX_CPUS];	/* balance.h */

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
		rotations[cpu] = (struct rotation){ 0, 0 };
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

	rq_lock(rq);
	/* t's state is its queue's to guard (policy.h): a queued t that a
	 * balancer pulled away since the caller read t->cpu is no longer this
	 * queue's, and the caller's own check after locking will try again. */
	yes = t->cpu == cpu;
	if (yes) {
		predict_activation(t, &woken);
		yes = preempt_decision(rq, &woken) != PREEMPT_NO;
	}
	rq_unlock(rq);
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
		return 0;		/* within the threshold: rotate()'s business (§8.2) */
	src = busiest_cpu(busiest_group);
	/* Every task there pinned to it (the rq's count, read unlocked: a
	 * hint, as placement's): nothing to pull and no running task to
	 * push, so its lock is left alone. Otherwise an idle CPU, which
	 * balances every tick, would take a busy CPU's lock a thousand times
	 * a second for nothing. */
	if (cpu_rq(src)->nr_pinned >= cpu_rq(src)->nr_running)
		return count_balance(sd, 0);
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

/* ---------- rotation [beyond] (staircase.md §8.2) ---------- */

struct rotation *cpu_rotation(int cpu)
{
	return &rotations[cpu];
}

static bool recently_rotated(const struct runqueue *rq, uint64_t now)
{
	uint64_t t = rotations[rq->cpu].rotated_ns;

	return t && now - t < ROTATE_INTERVAL_NS;
}

/* The group of sd that holds cpu (0 if cpu is outside sd). */
static uint32_t group_of(const struct sched_domain *sd, int cpu)
{
	for (int i = 0; i < sd->ngroups; i++)
		if (sd->groups[i] & bit(cpu))
			return sd->groups[i];
	return 0;
}

/*
 * One task from src to dst would leave dst, or one of dst's groups, busier
 * than src (or src's group) was before: the split would not just change
 * sides, and the balancer would pull back. Per group, so that a core with
 * two busy threads counts as busier than two cores with one (§8.3) and a
 * package as busy as its threads together.
 */
static bool move_unbalances(int dst, int src)
{
	const struct runqueue *d = cpu_rq(dst);

	if (d->nr_running >= cpu_rq(src)->nr_running)
		return true;
	for (int i = 0; i < d->nr_domains; i++) {
		uint32_t local = group_of(&d->sd[i], dst), remote = group_of(&d->sd[i], src);
		if (remote && remote != local && group_load(local) >= group_load(remote))
			return true;
	}
	return false;
}

/* src may give this CPU a task by rotation: it has one waiting, gave or
 * took none within ROTATE_INTERVAL_NS, and the move only mirrors the split. */
static bool can_rotate_from(const struct runqueue *this_rq, int src, uint64_t now)
{
	return src != this_rq->cpu && cpu_rq(src)->nr_running >= 2 &&
	       !recently_rotated(cpu_rq(src), now) && !move_unbalances(this_rq->cpu, src);
}

/* The least recently rotated CPU of span this CPU may rotate from, not in
 * tried; -1 if none. */
static int rotate_source(const struct runqueue *this_rq, uint32_t span, uint32_t tried,
			 uint64_t now)
{
	int best = -1;

	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		if ((span & ~tried & bit(cpu)) && can_rotate_from(this_rq, cpu, now) &&
		    (best < 0 || rotations[cpu].rotated_ns < rotations[best].rotated_ns))
			best = cpu;
	return best;
}

/* Turns: another CPU that runs as many tasks as this one and could take
 * from src too goes first if it has waited longer for its turn (its task
 * has had a CPU alone for longer). Ties: the lower CPU number. */
static bool other_goes_first(const struct runqueue *this_rq, int src, uint32_t span,
			     uint64_t now)
{
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		const struct runqueue *o = cpu_rq(cpu);
		if (!(span & bit(cpu)) || o == this_rq || cpu == src ||
		    o->nr_running != this_rq->nr_running || recently_rotated(o, now) ||
		    move_unbalances(cpu, src))
			continue;
		uint64_t mine = rotations[this_rq->cpu].turn_ns, theirs = rotations[cpu].turn_ns;
		if (theirs < mine || (theirs == mine && cpu < this_rq->cpu))
			return true;
	}
	return false;
}

/* Time waited (runnable, not running) and time run, in units of 2^20 ns
 * (about a ms): their products fit 64 bits for some 50 days of each. */
static uint64_t waited(const struct sched_task *t, uint64_t now)
{
	uint64_t w = t->stats.wait_ns;

	if (t->on_rq && !t->on_cpu)		/* waiting now: that wait counts too */
		w += now - t->stats.queued_ns;
	return w >> 20;
}

static uint64_t ran(const struct sched_task *t)
{
	return ((uint64_t)(t->stats.utime + t->stats.stime) * (1000000000u / tunables.hz)) >> 20;
}

/* a has waited a larger part of its life than b (waited / ran, compared
 * without a division): a hog that shared a CPU more has the larger part. */
static bool needier(const struct sched_task *a, const struct sched_task *b, uint64_t now)
{
	return waited(a, now) * ran(b) > waited(b, now) * ran(a);
}

/* What rotation may do with the task p waiting on src (§8.2). */
enum rotate_verdict {
	ROTATE_NEVER,	/* running, not allowed here, or could not run here soon */
	ROTATE_LATER,	/* not yet: it has not run since it was last rotated, or the
			 * task it would leave alone on src is not the neediest */
	ROTATE_HOT,	/* cache-hot, and balancing has not kept failing */
	ROTATE_OK,
};

/*
 * Both rqs locked. "Could run here soon": at most 139, or 140 if this CPU
 * runs a task at 140, so never BATCH in front of NORMAL work. "Neediest":
 * src's running task is left with its CPU alone, and the tasks that then
 * share (p, and this CPU's) must not have waited a larger part of their
 * lives than it; else wait until it is one of them that runs on src.
 */
static enum rotate_verdict rotate_verdict(const struct sched_task *p,
					  const struct runqueue *this_rq,
					  const struct runqueue *src,
					  const struct sched_domain *sd, uint64_t now)
{
	const struct sched_task *curr = this_rq->curr;
	int limit = curr->is_idle || curr->prio <= LOWEST_STAIR ? LOWEST_STAIR : curr->prio;

	if (p == src->curr || p->on_cpu || !(p->cpus_allowed & bit(this_rq->cpu)) ||
	    p->prio > limit)
		return ROTATE_NEVER;
	if (p->stats.nr_runs == p->rotated_runs ||
	    needier(p, src->curr, now) || needier(curr, src->curr, now))
		return ROTATE_LATER;
	return can_migrate(p, src, this_rq->cpu, sd, now) ? ROTATE_OK : ROTATE_HOT;
}

/*
 * Both rqs locked: of the tasks waiting on src that may come here, the one
 * that ran least recently; NULL if none. *later is set if one may come
 * later, *hot if one was refused only for being cache-hot.
 */
static struct sched_task *rotate_pick(const struct runqueue *this_rq, struct runqueue *src,
				      const struct sched_domain *sd, uint64_t now,
				      bool *later, bool *hot)
{
	struct sched_task *best = NULL;

	for (int prio = 0; prio <= BATCH_PRIO; prio++) {
		struct sched_list *q = &src->queue[prio];
		for (struct sched_list *n = q->next; n != q; n = n->next) {
			struct sched_task *p = list_task(n);
			switch (rotate_verdict(p, this_rq, src, sd, now)) {
			case ROTATE_NEVER:
				break;
			case ROTATE_LATER:
				*later = true;
				break;
			case ROTATE_HOT:
				*later = *hot = true;
				break;
			case ROTATE_OK:
				if (!best || p->stats.last_ran_ns < best->stats.last_ran_ns)
					best = p;
			}
		}
	}
	return best;
}

/* The smallest of this CPU's domains that holds cpu: its cache rules apply. */
static struct sched_domain *domain_with(struct runqueue *rq, int cpu)
{
	for (int i = 0; i < rq->nr_domains; i++)
		if (rq->sd[i].span & bit(cpu))
			return &rq->sd[i];
	return &rq->sd[rq->nr_domains - 1];
}

/* Take one task from src by rotation: true if one moved. Both CPUs then
 * sit out ROTATE_INTERVAL_NS, and src, whose running task now has the CPU
 * alone, goes to the back of the turns. */
static bool rotate_from(struct runqueue *this_rq, struct runqueue *src, uint64_t now,
			bool *later)
{
	struct sched_domain *sd = domain_with(this_rq, src->cpu);
	uint32_t locked = bit(this_rq->cpu) | bit(src->cpu);
	struct sched_task *p = NULL;
	bool hot = false;

	lock_rqs(locked);
	if (!move_unbalances(this_rq->cpu, src->cpu))
		p = rotate_pick(this_rq, src, sd, now, later, &hot);
	if (p) {
		p->rotated_runs = p->stats.nr_runs;
		dequeue_task(src, p);
		attach_task(src, this_rq, p);
		rotations[this_rq->cpu].rotated_ns = rotations[src->cpu].rotated_ns = now;
		rotations[src->cpu].turn_ns = now;
	}
	unlock_rqs(locked);
	if (p || hot)
		count_balance(sd, p != NULL);	/* hot refusals count as failures (§8.1) */
	return p != NULL;
}

/*
 * Rotation [beyond] (staircase.md §8.2): a split within the imbalance
 * threshold (3 hogs on 2 CPUs, 12 on 8) leaves the tasks that happen to be
 * alone with a whole CPU and the others with half. So a CPU that runs
 * fewer tasks than another of its widest domain takes a waiting task from
 * it now and then, and the task that has a CPU alone changes: over a few
 * hundred ms every task gets its share. CPUs take turns; a CPU that found
 * nothing it may take, now or later, gives its turn up.
 */
static void rotate(struct runqueue *this_rq, struct sched_domain *widest)
{
	uint64_t now = clock_ns();
	uint32_t tried = 0;
	bool later = false;
	int src;

	if (!tunables.rotate || recently_rotated(this_rq, now))
		return;
	while ((src = rotate_source(this_rq, widest->span, tried, now)) >= 0) {
		if (other_goes_first(this_rq, src, widest->span, now))
			return;
		if (rotate_from(this_rq, cpu_rq(src), now, &later))
			return;
		tried |= bit(src);
	}
	if (tried && !later) {
		rq_lock(this_rq);
		rotations[this_rq->cpu].turn_ns = now;
		rq_unlock(this_rq);
	}
}

/* From sched_tick(): each domain whose time has come is balanced; when the
 * widest one was and nothing moved, a busy CPU tries a rotation (§8.2). */
void balance_tick(struct runqueue *rq, bool idle)
{
	bool widest_due = false;
	int moved = 0;

	for (int i = 0; i < rq->nr_domains; i++) {
		struct sched_domain *sd = &rq->sd[i];
		if (rq->ticks < sd->next_balance)
			continue;
		sd->next_balance = rq->ticks + (idle ? 1 : sd->busy_interval);
		moved += load_balance(rq, sd);
		widest_due = i == rq->nr_domains - 1;
	}
	if (widest_due && !moved && !idle)
		rotate(rq, &rq->sd[rq->nr_domains - 1]);
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
