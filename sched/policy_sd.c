/*
 * policy_sd.c - lineage mode's sd (sched=sd): Con Kolivas's Staircase
 * Deadline scheduler (2007; first posted as RSDL, the Rotating Staircase
 * DeadLine), for SCHED_NORMAL and SCHED_BATCH. The rules are docs/sd.md;
 * the § numbers below are its.
 *
 * O(1)'s two priority arrays per CPU (policy_o1.c): the shared lists of
 * the run queue are the active one, rq->sdl.expired the expired one. No
 * sleep is measured and nothing is estimated:
 *   - a task has a quota of rr_interval at every level from its static
 *     priority (its nice) down to 139; using it up drops it one level,
 *     and below 139 it goes to the expired array (§2);
 *   - each level also has a run-queue-wide quota, the sum of the task
 *     quotas that entered it this rotation; every tick spends the quota
 *     of the best level still open (rq->sdl.prio_level), and when that is
 *     spent the level closes: whatever is left on it moves one level down
 *     (a minor rotation, §3). Nothing is queued above prio_level;
 *   - when no sd task is left on the active array, a new rotation begins:
 *     the expired tasks become active with fresh quotas from their nice
 *     down (a major rotation, §3);
 *   - a sleeper keeps its level and quota; it wakes where it was unless
 *     the rotation has closed that level meanwhile (§4).
 * Invariant: every sd task on the active array sits on queue[sdl.level],
 * with sdl.level >= rq->sdl.prio_level and sdl.rotation == rq->sdl.rotation.
 */
#include "sd.h"
#include "policy.h"
#include "core.h"
#include "tunables.h"

/* ---------- the numbers (§1) ---------- */

int sd_rr_ticks(void)
{
	int rr = ms_to_ticks(SD_RR_MS);

	return rr > 0 ? rr : 1;
}

/* §1: nice -20 has a quota at all 40 levels, nice 0 at 20, nice 19 at 1. */
int sd_levels(const struct sched_task *p)
{
	return LOWEST_STAIR - p->static_prio + 1;
}

static int *level_quota(struct runqueue *rq, int level)
{
	return &rq->sdl.quota[level - MAX_RT_PRIO];
}

/* ---------- the arrays ---------- */

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

/* §2: t takes a fresh quota at level (or at the best open one, if the
 * rotation has closed level), and the level's quota grows by it. */
static void enter_level(struct runqueue *rq, struct sched_task *t, int level)
{
	if (level < rq->sdl.prio_level)
		level = rq->sdl.prio_level;
	t->sdl.level = level;
	t->prio = level;
	t->time_slice = sd_rr_ticks();
	*level_quota(rq, level) += t->time_slice;
	t->sdl.rotation = rq->sdl.rotation;
	t->sdl.stale = false;
}

static void link_active(struct runqueue *rq, struct sched_task *t)
{
	t->sdl.expired = false;
	rq_link_before(rq, t, &rq->queue[t->prio]);
	rq->sdl.nr_active++;
}

/* §2: out of quota at every level: it waits for the next rotation, by
 * nice, and takes its quotas then. */
static void link_expired(struct runqueue *rq, struct sched_task *t)
{
	t->sdl.expired = true;
	t->prio = t->static_prio;
	list_add_before(&t->run_list, &rq->sdl.expired[t->static_prio - MAX_RT_PRIO]);
	rq->sdl.nr_expired++;
}

static void unlink(struct runqueue *rq, struct sched_task *t)
{
	if (t->sdl.expired) {
		list_del(&t->run_list);
		rq->sdl.nr_expired--;
	} else {
		rq_unlink(rq, t);
		rq->sdl.nr_active--;
	}
}

/* §3, the major rotation: a new rotation, every level open and empty;
 * the expired tasks, in the order they expired by nice, take their
 * quotas from their nice down. Sleepers of older rotations take theirs
 * when they wake (sd_enqueue). */
static void major_rotation(struct runqueue *rq)
{
	rq->sdl.rotation++;
	rq->sdl.prio_level = MAX_RT_PRIO;
	for (int i = 0; i < NICE_LEVELS; i++)
		rq->sdl.quota[i] = 0;
	for (int i = 0; i < NICE_LEVELS; i++) {
		struct sched_list *q = &rq->sdl.expired[i];
		while (q->next != q) {
			struct sched_task *t = list_task(q->next);
			list_del(&t->run_list);
			rq->sdl.nr_expired--;
			enter_level(rq, t, t->static_prio);
			link_active(rq, t);
		}
	}
}

/* §3: the active array holds no sd task: the expired one swaps in (or,
 * with none expired either, the rotation starts again for the next). */
static void maybe_major_rotation(struct runqueue *rq)
{
	if (!rq->sdl.nr_active)
		major_rotation(rq);
}

/* §3, the minor rotation: the best open level's quota is spent. It
 * closes, and the tasks left on it move one level down with fresh
 * quotas there, in their order; from 139, to the expired array. */
static void minor_rotation(struct runqueue *rq)
{
	int level = rq->sdl.prio_level;
	struct sched_list *q = &rq->queue[level];

	if (level == LOWEST_STAIR) {
		while (q->next != q) {
			struct sched_task *t = list_task(q->next);
			unlink(rq, t);
			link_expired(rq, t);
		}
		maybe_major_rotation(rq);
		return;
	}
	rq->sdl.prio_level = level + 1;
	while (q->next != q) {
		struct sched_task *t = list_task(q->next);
		unlink(rq, t);
		enter_level(rq, t, level + 1);
		link_active(rq, t);
	}
}

/* Where t would queue on rq now, without queuing it (§4): an older
 * rotation's task starts again from its nice, and no task queues above
 * the best open level. */
static int queue_level(const struct runqueue *rq, const struct sched_task *t)
{
	int level = t->sdl.level;

	if (t->sdl.rotation != rq->sdl.rotation || !level)
		level = t->static_prio;
	return level < rq->sdl.prio_level ? rq->sdl.prio_level : level;
}

static void sd_enqueue(struct runqueue *rq, struct sched_task *t)
{
	bool older = t->sdl.rotation != rq->sdl.rotation || !t->sdl.level;

	if (older)
		t->sdl.expired = false;	/* its rotation is over: it has quotas again */
	if (t->sdl.expired) {
		link_expired(rq, t);
		return;
	}
	if (older || t->sdl.stale || t->sdl.level < rq->sdl.prio_level)
		enter_level(rq, t, older ? t->static_prio : t->sdl.level);
	t->prio = t->sdl.level;
	KASSERT(t->prio >= rq->sdl.prio_level && t->prio <= LOWEST_STAIR);
	link_active(rq, t);
}

static void sd_dequeue(struct runqueue *rq, struct sched_task *t)
{
	unlink(rq, t);		/* its level and quota stay: §4 */
	maybe_major_rotation(rq);
}

/* ---------- the tick (§2, §3) ---------- */

/* §2: p's quota at its level is used up: one level down with a fresh
 * quota, or, from 139, to the expired array. */
static void quota_used(struct runqueue *rq, struct sched_task *p)
{
	unlink(rq, p);
	if (p->sdl.level < LOWEST_STAIR) {
		enter_level(rq, p, p->sdl.level + 1);
		link_active(rq, p);
		sched_trace(rq->cpu, TRACE_STAIR_DROP, p, p->prio);
	} else {
		link_expired(rq, p);
		sched_trace(rq->cpu, TRACE_SLICE_END, p, p->prio);
		maybe_major_rotation(rq);
	}
	resched_cpu(rq->cpu);
}

/* §3: close the best open level while its quota is spent (an empty one
 * with none is skipped at once), so prio_level always has quota left
 * while any sd task is active. */
static void rotate(struct runqueue *rq)
{
	while (rq->sdl.nr_active && *level_quota(rq, rq->sdl.prio_level) <= 0) {
		minor_rotation(rq);
		resched_cpu(rq->cpu);
	}
}

/* Every tick spends the running task's quota and the best open level's
 * (§3: that is what bounds every level's time, whoever runs). */
static void sd_tick(struct runqueue *rq, struct sched_task *p)
{
	rotate(rq);
	(*level_quota(rq, rq->sdl.prio_level))--;
	if (--p->time_slice <= 0)
		quota_used(rq, p);
	rotate(rq);
}

/* ---------- wake-up, fork, yield, nice (§4, §5) ---------- */

/* §4: no sleep bonus, nothing measured: the level it will queue at. */
static void sd_activate(struct runqueue *rq, struct sched_task *p, uint64_t now)
{
	p->flags &= ~SF_UISLEEP;
	p->prio = queue_level(rq, p);
	p->timestamp = now;
}

/* §4: a better level preempts; a woken SCHED_BATCH task never does
 * (§6). */
static enum preempt_decision sd_preempt(const struct runqueue *rq, const struct sched_task *p)
{
	const struct sched_task *curr = rq->curr;

	if (curr->is_idle)
		return PREEMPT_NOW;
	if (p->policy == SCHED_BATCH)
		return PREEMPT_NO;
	return p->prio < curr->prio ? PREEMPT_NOW : PREEMPT_NO;
}

/* §5: the child shares the parent's quota at its level (rounded in the
 * child's favour) and its level; a fork creates no CPU time. A parent
 * left with none has used its quota. */
static void sd_fork(struct sched_task *parent, struct sched_task *child)
{
	child->sdl = parent->sdl;
	child->sdl.expired = false;
	child->time_slice = (parent->time_slice + 1) >> 1;
	parent->time_slice >>= 1;
	child->prio = parent->sdl.level ? parent->sdl.level : parent->static_prio;
	if (parent->time_slice > 0)
		return;
	parent->time_slice = 1;		/* a tick at least, if it is not running */
	if (parent->on_rq && task_rq(parent)->curr == parent)
		quota_used(task_rq(parent), parent);
}

static void sd_wake_new(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	t->sdl.expired = false;
}

/* §5: sched_yield gives up every quota left this rotation: to the
 * expired array. */
static void sd_yield(struct runqueue *rq, struct sched_task *p)
{
	if (p->sdl.expired)
		return;
	unlink(rq, p);
	link_expired(rq, p);
	maybe_major_rotation(rq);
}

/* §5: a worse nice closes the levels above it now; a better one opens
 * its levels at the next rotation (no quota is handed out by renicing). */
static void sd_renice(struct sched_task *t, int nice)
{
	t->static_prio = NICE_TO_PRIO(nice);
	if (t->sdl.level && t->sdl.level < t->static_prio) {
		t->sdl.level = t->static_prio;
		t->sdl.stale = true;
	}
	t->prio = t->sdl.expired || !t->sdl.level ? t->static_prio : t->sdl.level;
}

/* The balancer moves active tasks only; on dst the task keeps its level
 * (or the best open one there) with a fresh quota, counted in dst's. */
static void sd_migrate(struct runqueue *src, struct runqueue *dst, struct sched_task *t)
{
	(void)src;
	t->sdl.expired = false;
	if (!t->sdl.level)
		t->sdl.level = t->static_prio;
	t->sdl.stale = true;
	t->sdl.rotation = dst->sdl.rotation;
}

static void sd_put_prev(struct runqueue *rq, struct sched_task *prev, uint64_t now)
{
	(void)rq;
	prev->timestamp = now;
}

static struct sched_task *sd_pick(struct runqueue *rq, struct sched_task *next)
{
	(void)rq;
	return next;
}

static void sd_set_curr(struct runqueue *rq, struct sched_task *t)
{
	(void)rq;
	(void)t;
}

const struct sched_ops sd_ops = {
	.enqueue = sd_enqueue,
	.dequeue = sd_dequeue,
	.activate = sd_activate,
	.preempt = sd_preempt,
	.fork = sd_fork,
	.wake_new = sd_wake_new,
	.put_prev = sd_put_prev,
	.pick = sd_pick,
	.set_curr = sd_set_curr,
	.yield = sd_yield,
	.renice = sd_renice,
	.migrate = sd_migrate,
};

/* ---------- the tables and the class ---------- */

static int sd_rr_interval(const struct sched_task *p)
{
	(void)p;
	return sd_rr_ticks();
}

static int sd_max_burst(const struct sched_task *p)
{
	return sd_levels(p) - 1;
}

/* A rotation's whole entitlement: a quota at each of its levels. */
static int sd_full_slice(const struct sched_task *p)
{
	return sd_rr_ticks() * sd_levels(p);
}

static int sd_prio(const struct sched_task *p)
{
	return p->sdl.level && !p->sdl.expired ? p->sdl.level : p->static_prio;
}

static int sd_yield_prio(struct sched_task *p)
{
	return p->prio;
}

static unsigned sd_smt_rule(const struct sched_task *p)
{
	(void)p;
	return SMT_NEVER_WAITS | SMT_SIBLING_NEVER_WAITS;
}

const struct sched_policy policy_sd_normal = {
	.name = "SCHED_NORMAL", .number = SCHED_NORMAL,
	.prio_min = 0, .prio_max = 0,
	.ops = &sd_ops,
	.rr_interval = sd_rr_interval,
	.max_burst = sd_max_burst,
	.full_slice = sd_full_slice,
	.effective_prio = sd_prio,
	.first_quantum = sd_rr_interval,
	.tick = sd_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = sd_smt_rule,
	.yield = sd_yield_prio,
	.rr_get_interval = sd_rr_interval,
};

/* SCHED_BATCH (§6): NORMAL's quotas and rotations; a woken one never
 * preempts (sd_preempt), and its time counts as nice time. */
const struct sched_policy policy_sd_batch = {
	.name = "SCHED_BATCH", .number = SCHED_BATCH,
	.user_only = true, .nice_time = true,
	.prio_min = 0, .prio_max = 0,
	.ops = &sd_ops,
	.rr_interval = sd_rr_interval,
	.max_burst = sd_max_burst,
	.full_slice = sd_full_slice,
	.effective_prio = sd_prio,
	.first_quantum = sd_rr_interval,
	.tick = sd_tick,
	.rq_tick = staircase_rq_tick,
	.wake = staircase_wake,
	.smt_rule = sd_smt_rule,
	.yield = sd_yield_prio,
	.rr_get_interval = sd_rr_interval,
};

static void sd_init(int ncpus)
{
	for (int cpu = 0; cpu < ncpus; cpu++) {
		struct runqueue *rq = cpu_rq(cpu);
		for (int i = 0; i < NICE_LEVELS; i++) {
			rq->sdl.expired[i].next = rq->sdl.expired[i].prev = &rq->sdl.expired[i];
			rq->sdl.quota[i] = 0;
		}
		rq->sdl.nr_active = rq->sdl.nr_expired = 0;
		rq->sdl.prio_level = MAX_RT_PRIO;
		rq->sdl.rotation = 1;
	}
}

const struct sched_class sd_class = {
	.name = "sd",
	.title = "Staircase Deadline of Con Kolivas, 2007 (docs/sd.md); FIFO/RR and the SMP balancer shared",
	.policies = {
		[SCHED_NORMAL]	= &policy_sd_normal,
		[SCHED_FIFO]	= &policy_fifo,
		[SCHED_RR]	= &policy_rr,
		[SCHED_BATCH]	= &policy_sd_batch,
	},
	.init = sd_init,
};
