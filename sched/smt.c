/*
 * smt.c - hyperthread siblings share one core (staircase.md §8.3, seed 002).
 *
 * Two tasks on sibling threads slow each other down. The "dependent
 * sleeper" rule keeps a task with much less slice left than its sibling's
 * from slowing the sibling down, keeps BATCH tasks off a core that runs
 * anything else, and lets real-time tasks have a core to themselves.
 * per_cpu_gain (25 %) is how much a second thread adds to a core.
 */
#include "smt.h"
#include "policy.h"
#include "tunables.h"

/* LAB smt BEGIN */
/*
 * Should p wait (the CPU run idle) while its sibling runs s? Yes if s has
 * much more slice left than p's whole slice, or s is RT, or p is BATCH;
 * never if p is RT or s is BATCH, and never if p is a BATCH task on its
 * elevated run at 139 after an uninterruptible sleep: it may hold what a
 * NORMAL task waits for, and the seed's order (this rule first) let a
 * sibling hold it off for ever (staircase.md §8.3, [decided]). The same
 * test with the roles swapped says whether s should be made to reschedule.
 */
static bool should_defer(const struct sched_task *p, const struct sched_task *s)
{
	int keep = 100 - tunables.per_cpu_gain;

	unsigned rp = smt_rule(p), rs = smt_rule(s);

	if ((rp & SMT_NEVER_WAITS) || (rs & SMT_SIBLING_NEVER_WAITS))
		return false;
	return s->slice * keep / 100 > full_slice(p) || (rs & SMT_SIBLING_WAITS) ||
	       (rp & SMT_ALWAYS_WAITS);
}

bool dependent_sleeper(struct runqueue *rq, struct sched_task *p)
{
	bool run_idle = false;

	KASSERT(spin_held(&rq->lock));
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		struct runqueue *srq = cpu_rq(cpu);
		struct sched_task *s;

		if (cpu == rq->cpu || !(rq->siblings & (1u << cpu)))
			continue;
		KASSERT(spin_held(&srq->lock));
		s = srq->curr;
		if (s->is_idle) {
			/* an idle sibling that has queued work: wake it */
			if (srq->nr_running)
				resched_cpu(cpu);
			continue;
		}
		if (p->is_kthread || s->is_kthread)
			continue;	/* the rule is for user tasks only */
		if (should_defer(p, s))
			run_idle = true;
		if (should_defer(s, p))
			resched_cpu(cpu);
	}
	return run_idle;
}
/* LAB smt END */

void wake_sleeping_siblings(struct runqueue *rq)
{
	for (int cpu = 0; cpu < sched_ncpus; cpu++) {
		struct runqueue *srq = cpu_rq(cpu);

		if (cpu == rq->cpu || !(rq->siblings & (1u << cpu)))
			continue;
		KASSERT(spin_held(&srq->lock));
		if (srq->curr->is_idle && srq->nr_running)
			resched_cpu(cpu);
	}
}
