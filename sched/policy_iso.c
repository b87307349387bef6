/*
 * policy_iso.c - SCHED_ISO, isochronous soft real time (seed 003), and
 * the per-CPU cap on it, iso_cpu ([beyond], staircase.md §7.5).
 *
 * Any user may ask for ISO. An ISO task stands higher on the staircase
 * (user_prio is halved in max_burst: nice 0 starts at 110), but its
 * quantum is half of RR and it gets no burst extension of the top stair,
 * so it descends twice as fast when it uses the CPU.
 *
 * The cap: each CPU keeps a decaying average of the share of its ticks
 * spent running ISO-policy tasks (time constant ~5 s). Above iso_cpu %
 * the CPU "throttles": its ISO tasks are scheduled as if they were BATCH
 * (prio 140) until the share falls below 90 % of iso_cpu. iso_cpu = 100
 * is the seed's behaviour (no cap).
 */
#include "policy.h"
#include "tunables.h"

/* LAB iso BEGIN */
#define ISO_ONE		(1ull << 30)	/* iso_avg of 100 % */
#define ISO_PERIOD_S	5		/* averaging time constant */

static int iso_rr_interval(const struct sched_task *p)
{
	(void)p;
	int rr = rr_ticks() / 2;
	return rr ? rr : 1;
}

/* Seed 003: user_prio is halved, so nice 0 gets max_burst 29. */
static int iso_max_burst(const struct sched_task *p)
{
	return (NICE_LEVELS - 1) - USER_PRIO(p) / 2;
}

static int iso_effective_prio(const struct sched_task *p)
{
	if (task_rq(p)->iso_throttled)
		return BATCH_PRIO;
	return staircase_prio(p, false);
}

/*
 * Where a YIELDED ISO task waits: 139 like NORMAL, but 140 while its CPU
 * throttles ISO, so a yield is no way out of the throttle; it stays
 * YIELDED, so an unthrottle brings it to 139, not back to its top stair
 * (staircase.md §7.5, [decided]).
 */
static int iso_yield_prio(const struct sched_task *p)
{
	return task_rq(p)->iso_throttled ? BATCH_PRIO : LOWEST_STAIR;
}

static int iso_yield(struct sched_task *p)
{
	staircase_yield(p);
	return iso_yield_prio(p);
}

static void iso_update_share(struct runqueue *rq, struct sched_task *curr);

const struct sched_policy policy_iso = {
	.name = "SCHED_ISO", .number = SCHED_ISO,
	.prio_min = 0, .prio_max = 0,
	.ops = &staircase_ops,
	.rr_interval = iso_rr_interval,
	.max_burst = iso_max_burst,
	.full_slice = staircase_full_slice,
	.effective_prio = iso_effective_prio,
	.first_quantum = staircase_first_quantum,
	.tick = staircase_tick,
	.rq_tick = iso_update_share,
	.wake = staircase_wake,
	.smt_rule = staircase_smt_rule,
	.yield = iso_yield,
	.rr_get_interval = staircase_rr_get_interval,
};

int iso_share_permille(const struct runqueue *rq)
{
	return (int)(rq->iso_avg * 1000 / ISO_ONE);
}

/* Move every queued ISO task of rq to the list of its priority now. */
static void requeue_iso_tasks(struct runqueue *rq)
{
	for (int prio = MAX_RT_PRIO; prio <= BATCH_PRIO; prio++) {
		struct sched_list *q = &rq->queue[prio], *n, *next;
		for (n = q->next; n != q; n = next) {
			struct sched_task *p = list_task(n);
			next = n->next;
			if (p->policy != SCHED_ISO)
				continue;
			int new_prio = (p->flags & SF_YIELDED) ? iso_yield_prio(p) : effective_prio(p);
			if (new_prio != p->prio)
				requeue_task(rq, p, new_prio);
		}
	}
	resched_cpu(rq->cpu);
}

static bool iso_should_throttle(const struct runqueue *rq)
{
	if (tunables.iso_cpu >= 100)
		return false;
	return rq->iso_avg * 100 > (uint64_t)tunables.iso_cpu * ISO_ONE;
}

static bool iso_may_unthrottle(const struct runqueue *rq)
{
	if (tunables.iso_cpu >= 100)
		return true;
	return rq->iso_avg * 1000 < (uint64_t)tunables.iso_cpu * 9 * ISO_ONE;
}

/*
 * The rq_tick hook: every tick, with rq locked, fold this tick into the average
 * (every tick an ISO-policy task runs counts, demoted or not) and enter or
 * leave the throttled state.
 */
static void iso_update_share(struct runqueue *rq, struct sched_task *curr)
{
	uint64_t period = (uint64_t)ISO_PERIOD_S * tunables.hz;

	rq->iso_avg -= rq->iso_avg / period;
	if (curr->policy == SCHED_ISO && !curr->is_idle)
		rq->iso_avg += ISO_ONE / period;

	if (!rq->iso_throttled && iso_should_throttle(rq)) {
		rq->iso_throttled = true;
		sched_trace(rq->cpu, TRACE_ISO_THROTTLE, NULL, 1);
		requeue_iso_tasks(rq);
	} else if (rq->iso_throttled && iso_may_unthrottle(rq)) {
		rq->iso_throttled = false;
		sched_trace(rq->cpu, TRACE_ISO_THROTTLE, NULL, 0);
		requeue_iso_tasks(rq);
	}
}
/* LAB iso END */
