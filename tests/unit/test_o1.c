/*
 * test_o1.c - lineage mode's o1, Linux 2.6.8's O(1) scheduler
 * (docs/o1.md): one test per rule, named after it.
 */
#include "test.h"
#include "../../sched/o1.h"
#include "../../sched/core.h"
#include "../../sched/policy.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"

#define MS	1000000ull

static void boot_o1(void)
{
	fake_class = "o1";
	fake_boot(1, NULL);
	sim_reset();
}

static struct sched_task *sleeper(uint64_t sleep_avg_ms)
{
	struct sched_task *t = &fake_new_task(0, 1000, 1000)->sched;
	t->state = TASK_INTERRUPTIBLE;
	t->o1.sleep_avg = sleep_avg_ms * MS;
	t->prio = o1_effective_prio(t);
	return t;
}

static void ticks(int n)
{
	for (int i = 0; i < n; i++)
		tick0();
}

/* ---- §1: slices and the two arrays ---- */

TEST(o1_slice_100_ms_at_nice_0_200_at_minus_20_5_at_19)
{
	struct sched_task t = { 0 };
	t.static_prio = NICE_TO_PRIO(0);
	CHECK_EQ(o1_timeslice(&t), 100);
	t.static_prio = NICE_TO_PRIO(-20);
	CHECK_EQ(o1_timeslice(&t), 200);
	t.static_prio = NICE_TO_PRIO(19);
	CHECK_EQ(o1_timeslice(&t), 5);
}

/* A hog that used its slice waits in the expired array until no task is
 * left active; then the arrays swap. */
TEST(o1_expired_task_waits_for_the_swap)
{
	boot_o1();
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	struct sched_task *first = fake_schedule(0);
	struct sched_task *second = first == &a->proc->sched ? &b->proc->sched : &a->proc->sched;
	ticks(100);
	CHECK(first->o1.expired);
	CHECK(fake_curr(0) == second);
	CHECK_EQ(cpu_rq(0)->o1.nr_expired, 1);
	ticks(99);
	CHECK(fake_curr(0) == second);		/* its whole slice, no round robin */
	ticks(1);				/* both expired: the swap */
	CHECK(fake_curr(0) == first);
	CHECK(!first->o1.expired && !second->o1.expired);	/* both active again */
	CHECK_EQ(cpu_rq(0)->o1.nr_expired, 0);
	CHECK_EQ(cpu_rq(0)->o1.nr_active, 2);
}

/* ---- §2: sleep_avg, bonus, interactivity ---- */

TEST(o1_bonus_moves_the_priority_by_up_to_5)
{
	struct sched_task t = { 0 };
	t.static_prio = NICE_TO_PRIO(0);
	CHECK_EQ(o1_effective_prio(&t), 125);		/* no sleep: -5 */
	t.o1.sleep_avg = 500 * MS;
	CHECK_EQ(o1_bonus(&t), 5);
	CHECK_EQ(o1_effective_prio(&t), 120);
	t.o1.sleep_avg = 1000 * MS;
	CHECK_EQ(o1_effective_prio(&t), 115);		/* a full second: +5 */
}

TEST(o1_task_interactive_at_2_above_its_static_priority_at_nice_0)
{
	struct sched_task t = { 0 };
	t.static_prio = NICE_TO_PRIO(0);
	t.prio = 118;
	CHECK(o1_interactive(&t));
	t.prio = 119;
	CHECK(!o1_interactive(&t));
	t.static_prio = NICE_TO_PRIO(19);		/* DELTA 19 x 10 / 40 + 2 = 6 */
	t.prio = 133;
	CHECK(o1_interactive(&t));
	t.prio = 134;
	CHECK(!o1_interactive(&t));
}

TEST(o1_sleep_earns_sleep_avg_times_the_missing_bonus)
{
	boot_o1();
	sim_add(0, 0, 0);
	fake_schedule(0);
	struct sched_task *s = sleeper(0);
	s->timestamp = fake_now_ns;
	fake_now_ns += 10 * MS;
	sched_wake_up(s);
	CHECK_EQ(s->o1.sleep_avg, 100 * MS);		/* 10 ms x (10 - 0) */
	CHECK_EQ(s->prio, 124);
}

TEST(o1_long_sleep_makes_a_user_task_just_interactive)
{
	boot_o1();
	struct sched_task *s = sleeper(0);
	s->timestamp = fake_now_ns;
	fake_now_ns += 900 * MS;			/* past INTERACTIVE_SLEEP, 799 ms */
	sched_wake_up(s);
	CHECK_EQ(s->o1.sleep_avg, 900 * MS);		/* MAX_SLEEP_AVG - AVG_TIMESLICE */
	CHECK_EQ(s->o1.credit, 1);
}

TEST(o1_run_time_comes_off_sleep_avg)
{
	boot_o1();
	struct sched_task *s = sleeper(300);
	sched_wake_up(s);
	CHECK(fake_schedule(0) == s);
	ticks(20);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK_EQ(s->o1.sleep_avg, 280 * MS);
}

/* ---- §4: the tick ---- */

TEST(o1_interactive_task_requeued_until_expired_starving)
{
	boot_o1();
	struct sched_task *i = sleeper(1000), *h;
	sched_wake_up(i);				/* prio 115: interactive */
	h = &sim_add(0, 0, 0)->proc->sched;
	CHECK(fake_schedule(0) == i);
	ticks(100);					/* its slice: back to the active array */
	CHECK(!i->o1.expired);
	CHECK(fake_curr(0) == i);
	cpu_rq(0)->o1.expired_timestamp = 1;		/* something has waited expired */
	cpu_rq(0)->ticks += 100000;			/* for much longer than the limit */
	ticks(100);
	CHECK(i->o1.expired);				/* EXPIRED_STARVING */
	CHECK(fake_curr(0) == h);
}

TEST(o1_interactive_tasks_round_robin_every_granularity)
{
	boot_o1();
	struct sched_task *a = sleeper(1000), *b = sleeper(1000);
	sched_wake_up(a);
	sched_wake_up(b);
	struct sched_task *first = fake_schedule(0);
	CHECK_EQ(first->prio, 115);
	ticks(9);
	CHECK(fake_curr(0) == first);
	ticks(1);					/* 10 ms x 2^0 x 1 CPU */
	CHECK(fake_curr(0) == (first == a ? b : a));
}

/* ---- §5: fork, yield, preemption ---- */

TEST(o1_fork_halves_the_slice_with_the_child)
{
	boot_o1();
	struct sched_task *parent = &sim_add(0, 0, 0)->proc->sched;
	fake_schedule(0);
	ticks(49);					/* 51 ticks left */
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	sched_fork(parent, &child->sched);
	CHECK_EQ(child->sched.time_slice, 26);
	CHECK_EQ(parent->time_slice, 25);
	CHECK(child->sched.o1.first_slice);
}

TEST(o1_yield_goes_to_the_expired_array)
{
	boot_o1();
	sim_add(0, 0, 0);
	sim_add(0, 0, 0);
	struct sched_task *t = fake_schedule(0);
	sched_do_yield();
	CHECK(t->o1.expired);
	fake_resched_pending();
	CHECK(fake_curr(0) != t);
}

TEST(o1_wakeup_preempts_by_dynamic_priority)
{
	boot_o1();
	sim_add(0, 0, 0);				/* prio 125 */
	fake_schedule(0);
	fake_need_resched[0] = false;
	struct sched_task *w = sleeper(0);		/* prio 125, as the hog's */
	w->timestamp = fake_now_ns;
	sched_wake_up(w);
	CHECK(!fake_need_resched[0]);			/* not better: no */
	struct sched_task *s = sleeper(600);		/* prio 119 */
	s->timestamp = fake_now_ns;
	sched_wake_up(s);
	CHECK(fake_need_resched[0]);
}

TEST(o1_has_no_sched_iso)
{
	boot_o1();
	fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_ISO, user_param(0)), -EINVAL);
}

/* /proc/PID/sched's cfs and eevdf lines are theirs: not an o1 task's. */
TEST(o1_task_view_has_no_vruntime)
{
	struct sched_task_view v;
	boot_o1();
	struct sched_task *t = &sim_add(0, 0, 0)->proc->sched;
	sched_task_view(t, &v);
	CHECK_EQ(v.fair, 0);
	CHECK_EQ(v.eevdf, 0);
}
