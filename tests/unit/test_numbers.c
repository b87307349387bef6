/*
 * test_numbers.c - staircase.md §4: the numbers, per policy.
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"

static struct sched_task *task_with(int policy, int nice)
{
	struct fake_proc *p = fake_new_task(0, 0, 0);
	p->sched.policy = policy;
	p->sched.static_prio = NICE_TO_PRIO(nice);
	return &p->sched;
}

TEST(numbers_rr_is_10_ticks_at_hz_1000)
{
	CHECK_EQ(rr_ticks(), 10);
	sched_set_hz(100);
	CHECK_EQ(rr_ticks(), 1);
	sched_set_hz(50);
	CHECK_EQ(rr_ticks(), 1);	/* (10 * HZ / 1000) ?: 1 */
	sched_set_hz(1000);
	tunables.compute = 1;
	CHECK_EQ(rr_ticks(), 100);
}

TEST(numbers_normal_nice0_maxburst19_slice200_top120)
{
	struct sched_task *t = task_with(SCHED_NORMAL, 0);
	CHECK_EQ(rr_interval(t), 10);
	CHECK_EQ(max_burst(t), 19);
	CHECK_EQ(full_slice(t), 200);
	t->slice = full_slice(t);
	CHECK_EQ(effective_prio(t), 120);
}

TEST(numbers_normal_nice19_maxburst0_slice10_top139)
{
	struct sched_task *t = task_with(SCHED_NORMAL, 19);
	CHECK_EQ(max_burst(t), 0);
	CHECK_EQ(full_slice(t), 10);
	t->slice = full_slice(t);
	CHECK_EQ(effective_prio(t), 139);
}

TEST(numbers_normal_nice10_slice100_top130)
{
	struct sched_task *t = task_with(SCHED_NORMAL, 10);
	CHECK_EQ(max_burst(t), 9);
	CHECK_EQ(full_slice(t), 100);
	t->slice = full_slice(t);
	CHECK_EQ(effective_prio(t), 130);
}

TEST(numbers_iso_nice0_maxburst29_slice300_quantum5_top110)
{
	struct sched_task *t = task_with(SCHED_ISO, 0);
	CHECK_EQ(rr_interval(t), 5);
	CHECK_EQ(max_burst(t), 29);
	CHECK_EQ(full_slice(t), 300);
	t->slice = full_slice(t);
	CHECK_EQ(effective_prio(t), 110);
	sched_set_hz(100);		/* RR = 1: half of it is still 1 */
	CHECK_EQ(rr_interval(t), 1);
}

TEST(numbers_batch_nice0_slice200_quantum100_prio140)
{
	struct sched_task *t = task_with(SCHED_BATCH, 0);
	CHECK_EQ(rr_interval(t), 100);
	CHECK_EQ(full_slice(t), 200);
	CHECK_EQ(effective_prio(t), 140);
	t->static_prio = NICE_TO_PRIO(19);
	CHECK_EQ(full_slice(t), 10);
}

TEST(numbers_rt_slice_is_rr_and_maxburst_is_burst)
{
	struct sched_task *t = task_with(SCHED_FIFO, 0);
	t->burst = 7;
	CHECK_EQ(full_slice(t), 10);
	CHECK_EQ(max_burst(t), 7);
	CHECK_EQ(rr_interval(t), 10);
}

TEST(numbers_compute_mode_rr_x10)
{
	tunables.compute = 1;
	struct sched_task *t = task_with(SCHED_NORMAL, 0);
	CHECK_EQ(rr_interval(t), 100);
	CHECK_EQ(full_slice(t), 2000);
	CHECK_EQ(rr_interval(task_with(SCHED_BATCH, 0)), 1000);
	CHECK_EQ(rr_interval(task_with(SCHED_ISO, 0)), 50);
}
