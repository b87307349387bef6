/*
 * test_idleprio.c - SCHED_IDLEPRIO, the policy of lab policy
 * (docs/labs/policy.md): policy 5, for any user, BATCH's numbers, always
 * at 140 (no run at 139 after an uninterruptible sleep), nice time, no
 * kernel threads, and on hyperthreads it always waits for its sibling.
 *
 * Every test asks for the policy through the system call first, so that in
 * a tree without it (policy 5 is EINVAL) each one fails at that check
 * instead of reaching a table entry that is not there.
 */
#include <string.h>
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/runqueue.h"
#include "../../sched/core.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"

#ifndef SCHED_IDLEPRIO
#define SCHED_IDLEPRIO 5	/* the number the lab gives it */
#endif

/* Make t IDLEPRIO as its owner would (CPU 0's current task, or the idle
 * task, which is root, asks); 0 on success. */
static int make_idleprio(struct sched_task *t)
{
	return sys_sched_setscheduler(fake_pid(t), SCHED_IDLEPRIO, user_param(0));
}

static struct sched_task *spawn(void)
{
	return &fake_spawn(0, 1000, 1000)->sched;
}

TEST(idleprio_is_policy_5_for_any_user)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	struct fake_proc *other = fake_new_task(0, 2000, 2000);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_IDLEPRIO, user_param(0)), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_IDLEPRIO);
	CHECK_EQ(me->sched.policy, SCHED_IDLEPRIO);
	CHECK_EQ(me->sched.rt_priority, 0);
	CHECK_EQ(sys_sched_setparam(0, user_param(0)), 0);	/* stays IDLEPRIO */
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_IDLEPRIO);
	/* another user's task: no */
	CHECK_EQ(sys_sched_setscheduler(other->pid, SCHED_IDLEPRIO, user_param(0)), -EPERM);
	/* and back to NORMAL is allowed too */
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_NORMAL, user_param(0)), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_NORMAL);
}

TEST(idleprio_priority_range_and_interval)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK_EQ(sys_sched_get_priority_max(SCHED_IDLEPRIO), 0);
	CHECK_EQ(sys_sched_get_priority_min(SCHED_IDLEPRIO), 0);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_IDLEPRIO, user_param(1)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_IDLEPRIO, user_param(0)), 0);
	struct timespec32 *ts = (void *)(fake_user_mem + 64);
	CHECK_EQ(sys_sched_rr_get_interval(0, ts), 0);
	CHECK_EQ(ts->tv_sec, 0);
	CHECK_EQ(ts->tv_nsec, 200000000);	/* its whole slice, as BATCH */
	(void)me;
}

TEST(idleprio_kernel_thread_may_not_be_idleprio)
{
	struct fake_proc *k = fake_new_task(0, 0, 0);
	struct fake_proc *me = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	k->sched.is_kthread = true;
	CHECK_EQ(sys_sched_setscheduler(k->pid, SCHED_IDLEPRIO, user_param(0)), -EPERM);
	CHECK_EQ(sys_sched_setscheduler(me->pid, SCHED_IDLEPRIO, user_param(0)), 0);
}

TEST(idleprio_numbers_as_batch)
{
	struct sched_task *t = &fake_new_task(0, 1000, 1000)->sched;
	CHECK_EQ(make_idleprio(t), 0);
	CHECK_EQ(rr_interval(t), 100);		/* 10 RR */
	CHECK_EQ(full_slice(t), 200);		/* RR * (40 - 20) */
	CHECK_EQ(effective_prio(t), 140);
	t->static_prio = NICE_TO_PRIO(19);
	CHECK_EQ(full_slice(t), 10);		/* RR * (40 - 39) */
	CHECK_EQ(effective_prio(t), 140);
}

TEST(idleprio_waits_at_140_beside_normal_and_runs_alone)
{
	struct sim_task *hog = sim_add(0, 0, 0);
	struct sim_task *idle = sim_add(0, 0, 0);
	CHECK_EQ(make_idleprio(&idle->proc->sched), 0);
	CHECK_EQ(idle->proc->sched.prio, 140);
	sim_run(3000);
	CHECK_EQ(idle->ran, 0);
	CHECK_EQ(hog->ran, 3000);
	/* and it runs when the CPU would otherwise idle */
	hog->run_ticks = 1;
	hog->left = 0;
	hog->sleep_ticks = 100000;
	sim_run(100);
	CHECK_RANGE(idle->ran, 99, 100);
}

TEST(idleprio_after_uninterruptible_sleep_stays_at_140)
{
	struct sched_task *hog = spawn(), *b = spawn();
	CHECK_EQ(make_idleprio(b), 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == hog);
	/* b sleeps uninterruptibly (as if it ran and took a kernel mutex) */
	cpu_rq(0)->curr = b;		/* white box: let b be the one that sleeps */
	b->on_cpu = 1;
	hog->on_cpu = 0;
	fake_sleep(0, TASK_UNINTERRUPTIBLE);
	CHECK(fake_curr(0) == hog);
	CHECK(b->flags & SF_UISLEEP);
	fake_now_ns += 5 * TICK_NS;
	uint32_t runs = b->stats.nr_runs;
	sched_wake_up(b);
	CHECK_EQ(b->prio, 140);			/* BATCH would be at 139 now */
	CHECK_EQ(b->flags & SF_YIELDED, 0);
	CHECK_EQ(b->flags & SF_UISLEEP, 0);
	for (int i = 0; i < 1000; i++)		/* five of the hog's slices */
		tick0();
	CHECK(fake_curr(0) == hog);
	CHECK_EQ(b->stats.nr_runs, runs);	/* never ran */
}

TEST(idleprio_woken_gets_whole_slice_as_quantum)
{
	struct sched_task *b = spawn();
	CHECK_EQ(make_idleprio(b), 0);
	cpu_rq(0)->curr = b;
	b->on_cpu = 1;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 100 * TICK_NS;
	sched_wake_up(b);
	CHECK_EQ(b->slice, 200);
	CHECK_EQ(b->time_slice, 200);
	CHECK_EQ(b->prio, 140);
}

TEST(idleprio_yield_goes_to_tail_of_140)
{
	struct sched_task *a = spawn(), *b = spawn();
	CHECK_EQ(make_idleprio(a), 0);
	CHECK_EQ(make_idleprio(b), 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	sched_do_yield();
	CHECK_EQ(a->prio, 140);
	CHECK_EQ(a->flags & SF_YIELDED, 0);	/* no way up to 139 by yielding */
	fake_resched_pending();
	CHECK(fake_curr(0) == b);
	CHECK(cpu_rq(0)->queue[140].prev == &a->run_list);
}

TEST(idleprio_and_batch_share_140_by_slice)
{
	struct sim_task *i = sim_add(0, 0, 0);
	struct sim_task *b = sim_add(0, 0, 0);
	CHECK_EQ(make_idleprio(&i->proc->sched), 0);
	sched_set_policy(&b->proc->sched, SCHED_BATCH, 0);
	sim_run(4000);
	CHECK_RANGE(sim_share(i, 4000), 0.4, 0.6);
	CHECK_RANGE(sim_share(b, 4000), 0.4, 0.6);
}

TEST(idleprio_time_is_accounted_as_nice)
{
	struct sim_task *b = sim_add(0, 0, 0);
	CHECK_EQ(make_idleprio(&b->proc->sched), 0);
	sim_run(50);
	CHECK_EQ(cpu_rq(0)->nice_ticks, 50);
	CHECK_EQ(cpu_rq(0)->user_ticks, 0);
}

TEST(idleprio_never_shares_a_core_with_normal_work)
{
	boot_topology(1, 1, 2);
	pinned(0, SCHED_NORMAL, 0);
	struct sched_task *b = pinned(1, SCHED_NORMAL, 0);
	CHECK_EQ(make_idleprio(b), 0);
	for (int i = 0; i < 300; i++)
		sim_step();
	CHECK_EQ(b->stats.nr_runs, 0);
	CHECK(fake_curr(1)->is_idle);
	CHECK(fake_trace_count(TRACE_SMT_IDLE, -1) > 0);

	/* two IDLEPRIO siblings do run side by side */
	boot_topology(1, 1, 2);
	struct sched_task *x = pinned(0, SCHED_NORMAL, 0);
	struct sched_task *y = pinned(1, SCHED_NORMAL, 0);
	CHECK_EQ(make_idleprio(x), 0);
	CHECK_EQ(make_idleprio(y), 0);
	sim_run(10);
	CHECK(fake_curr(0) == x);
	CHECK(fake_curr(1) == y);
}

TEST(idleprio_is_named_idleprio_in_the_trace)
{
	struct sched_task *t = spawn();
	CHECK_EQ(make_idleprio(t), 0);
	CHECK(strcmp(sched_trace_policy_name(SCHED_IDLEPRIO), "idleprio") == 0);
	CHECK(strcmp(sched_trace_policy_name(SCHED_BATCH), "batch") == 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == t);
	CHECK(fake_trace_len > 0);
	CHECK_EQ(fake_trace[fake_trace_len - 1].policy, SCHED_IDLEPRIO);
}
