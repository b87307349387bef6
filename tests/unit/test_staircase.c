/*
 * test_staircase.c - staircase.md §5, §6 and §10: stairs, bursts, slices.
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"


static struct sched_task *run_one(void)
{
	struct fake_proc *p = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	return &p->sched;
}

/* Run t for ms ticks, sleep for sleep_ns, wake it (t alone on CPU 0). */
static void run_sleep_wake(struct sched_task *t, int ticks, uint64_t sleep_ns, int state)
{
	for (int i = 0; i < ticks; i++)
		tick0();
	fake_sleep(0, state);
	fake_now_ns += sleep_ns;
	sched_wake_up(t);
	fake_schedule(0);
}

TEST(staircase_worked_example_spec10)
{
	struct sched_task *t = run_one();
	CHECK_EQ(t->prio, 120);
	CHECK_EQ(t->burst, 0);
	for (int k = 1; k <= 400; k++) {
		tick0();
		int want_prio = 120 + (k % 200) / 10;
		int want_slice = 200 - k % 200;
		if (t->prio != want_prio || t->slice != want_slice || t->burst != 0) {
			test_fail(__FILE__, __LINE__, "after tick %d: prio %d slice %d burst %d, want %d %d 0",
				  k, t->prio, t->slice, t->burst, want_prio, want_slice);
			return;
		}
	}
	CHECK(fake_curr(0) == t);
}

TEST(staircase_one_stair_per_quantum_requeues_at_tail)
{
	struct sched_task *a = run_one();
	struct fake_proc *b = fake_spawn(0, 1000, 1000);
	/* a at 120 for 10 ticks, then 121: b (120) runs */
	for (int i = 0; i < 10; i++)
		tick0();
	CHECK_EQ(a->prio, 121);
	CHECK(fake_curr(0) == &b->sched);
	CHECK_EQ(b->sched.prio, 120);
}

TEST(staircase_burst_grows_on_real_sleep)
{
	struct sched_task *t = run_one();
	run_sleep_wake(t, 5, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 1);
	CHECK_EQ(t->slice, 200);
	CHECK_EQ(t->prio, 120);
	/* the top stair now lasts (burst + 1) quanta = 20 ticks */
	for (int i = 0; i < 19; i++)
		tick0();
	CHECK_EQ(t->prio, 120);
	tick0();
	CHECK_EQ(t->prio, 121);
	run_sleep_wake(t, 1, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 2);
}

TEST(staircase_burst_capped_at_max_burst)
{
	struct sched_task *t = run_one();
	sched_set_user_nice(t, 17);		/* max_burst 2 */
	for (int i = 0; i < 5; i++)
		run_sleep_wake(t, 2, 50 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 2);
}

TEST(staircase_no_burst_for_uninterruptible_sleep)
{
	struct sched_task *t = run_one();
	run_sleep_wake(t, 5, 20 * TICK_NS, TASK_UNINTERRUPTIBLE);
	CHECK_EQ(t->burst, 0);
	CHECK_EQ(t->flags & SF_UISLEEP, 0);	/* cleared on wake */
}

TEST(staircase_burst_decays_on_slice_expiry)
{
	struct sched_task *t = run_one();
	for (int i = 0; i < 3; i++)
		run_sleep_wake(t, 1, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 3);
	CHECK_EQ(t->slice, 200);
	for (int i = 0; i < 199; i++)
		tick0();
	CHECK_EQ(t->burst, 3);
	tick0();			/* whole slice used */
	CHECK_EQ(t->burst, 2);
	CHECK_EQ(t->slice, 200);
	CHECK_EQ(t->prio, 120);
}

/*
 * Continued slice: runtime < 1 tick and run + sleep < one quantum: the
 * task keeps its slice, less the accumulated run time; no burst.
 */
TEST(staircase_short_sleep_continues_old_slice)
{
	struct sched_task *t = run_one();
	for (int round = 1; round <= 4; round++) {
		fake_now_ns += 600000;		/* run 0.6 ms */
		fake_sleep(0, TASK_INTERRUPTIBLE);
		fake_now_ns += 2000000;		/* sleep 2 ms */
		sched_wake_up(t);
		fake_schedule(0);
	}
	/* total run 2.4 ms = 2 ticks: slice 200 - 2 */
	CHECK_EQ(t->burst, 0);
	CHECK_EQ(t->slice, 198);
	CHECK_EQ(t->totalrun, 2400000);
	CHECK_EQ(t->prio, 120);
}

TEST(staircase_continued_slice_used_up_costs_a_burst)
{
	struct sched_task *t = run_one();
	run_sleep_wake(t, 1, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	run_sleep_wake(t, 1, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 2);
	t->totalrun = 250 * TICK_NS;		/* as if 250 ticks were run in short bursts */
	fake_now_ns += 500000;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 1000000;
	sched_wake_up(t);
	CHECK_EQ(t->totalrun, 0);		/* 200 - 250 < 1 tick: start over ... */
	CHECK_EQ(t->burst, 1);			/* ... one burst less */
	CHECK_EQ(t->slice, 200);
}

TEST(staircase_forked_parent_continues_slice)
{
	struct sched_task *parent = run_one();
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	for (int i = 0; i < 30; i++)
		tick0();
	sched_fork(parent, &child->sched);
	sched_wake_new(&child->sched);
	CHECK(parent->flags & SF_FORKED);
	run_sleep_wake(parent, 0, 100 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(parent->flags & SF_FORKED, 0);
	CHECK_EQ(parent->burst, 0);		/* no burst for this sleep */
	CHECK_EQ(parent->slice, 170);		/* 200 - the 30 ticks it ran */
}

TEST(interactive_0_no_burst_extension)
{
	struct sched_task *t = run_one();
	run_sleep_wake(t, 5, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	run_sleep_wake(t, 5, 20 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 2);
	tunables.interactive = 0;
	/* a stint of >= 1 tick with run + sleep < RR now continues the slice */
	run_sleep_wake(t, 3, 2 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 2);
	CHECK_EQ(t->slice, 197);
	/* at the end of this quantum (used 3 + 10) it drops a stair: the top
	 * stair is one quantum long, not burst + 1 = 3 (used 13 < 30) */
	for (int i = 0; i < 9; i++)
		tick0();
	CHECK_EQ(t->prio, 120);
	tick0();
	CHECK_EQ(t->prio, 121);
}

TEST(compute_1_long_quantum_no_burst_extension)
{
	tunables.compute = 1;
	struct sched_task *t = run_one();
	CHECK_EQ(t->slice, 2000);
	run_sleep_wake(t, 5, 200 * TICK_NS, TASK_INTERRUPTIBLE);
	CHECK_EQ(t->burst, 1);
	for (int i = 0; i < 99; i++)
		tick0();
	CHECK_EQ(t->prio, 120);
	tick0();
	CHECK_EQ(t->prio, 121);		/* 100-tick quantum, no extension */
}

TEST(compute_1_delays_preemption_by_cache_delay)
{
	tunables.compute = 1;
	struct sched_task *hog = run_one();
	sched_set_user_nice(hog, 5);	/* 125 */
	fake_resched_pending();
	struct fake_proc *w = fake_spawn(0, 1000, 1000);
	/* w (120) is more urgent than hog (125), but hog has run 0 ticks */
	CHECK(!fake_need_resched[0]);
	tick0();
	CHECK(fake_curr(0) == hog);
	for (int i = 2; i < 10; i++)
		tick0();
	CHECK(fake_curr(0) == hog);
	tick0();	/* cache_ticks reaches cache_delay = 10 */
	CHECK(fake_curr(0) == &w->sched);
}

TEST(compute_0_preempts_at_once)
{
	struct sched_task *hog = run_one();
	sched_set_user_nice(hog, 5);
	fake_resched_pending();
	struct fake_proc *w = fake_spawn(0, 1000, 1000);
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == &w->sched);
}
