/*
 * policy.c - the policy table and the staircase shared by NORMAL, ISO and
 * BATCH (staircase.md §4 to §6).
 */
#include "policy.h"
#include "tunables.h"

const struct sched_policy *const sched_policies[SCHED_NR_POLICIES] = {
	[SCHED_NORMAL]	= &policy_normal,
	[SCHED_FIFO]	= &policy_fifo,
	[SCHED_RR]	= &policy_rr,
	[SCHED_BATCH]	= &policy_batch,
	[SCHED_ISO]	= &policy_iso,
/* LAB policy BEGIN */
/* LAB policy SOLUTION
	[SCHED_IDLEPRIO] = &policy_idleprio,
*/
/* LAB policy END */
};

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
/* LAB stairs STUB
	// Before: a task stands on its top stair for ever and never descends.
	(void)burst_extends_top;
	return LOWEST_STAIR - max_burst(p);
*/
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
/* LAB stairs STUB
	// Before: round robin on the task's stair. The slice and the quantum
	// count down; a used quantum sends the task to the tail of the same
	// list; a used slice starts again, with the burst untouched.
	if (--p->slice < 1)
		p->slice += full_slice(p);
	if (--p->time_slice < 1)
		end_quantum(rq, p, TRACE_SLICE_END);
*/
/* LAB stairs END */
}

void end_quantum(struct runqueue *rq, struct sched_task *p, int event)
{
	requeue_task(rq, p, effective_prio(p));
	p->time_slice = rr_interval(p);
	sched_trace(rq->cpu, event, p, p->prio);
	resched_cpu(rq->cpu);
}
