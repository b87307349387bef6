/*
 * test_cfs.c - lineage mode (docs/lineage.md) and its cfs, the CFS of
 * Linux 2.6.24 (docs/cfs.md): one test per rule, named after it.
 */
#include "test.h"
#include "../../sched/cfs.h"
#include "../../sched/core.h"
#include "../../sched/policy.h"
#include "../../sched/syscalls.h"
#include "../../sched/tunables.h"
#include "../../lib/errno.h"
#include <string.h>

#define SECONDS(s)	((s) * FAKE_HZ)
#define MS		1000000ull

static void boot_cfs(int ncpus)
{
	fake_class = "cfs";
	fake_boot(ncpus, NULL);
	sim_reset();
}

/* A fair task of uid 1000 on CPU 0 that has never run and sleeps, with
 * this vruntime (as if it had run that much before it slept). */
static struct sched_task *sleeper(uint64_t vruntime)
{
	struct sched_task *t = &fake_new_task(0, 1000, 1000)->sched;
	t->state = TASK_INTERRUPTIBLE;
	t->fair.vruntime = vruntime;
	return t;
}

static void run_ticks(int n)
{
	for (int i = 0; i < n; i++)
		tick0();
}

/* ---- lineage mode: the classes (docs/lineage.md §1) ---- */

TEST(class_unknown_name_is_einval_and_keeps_the_choice)
{
	CHECK_EQ(sched_select_class("bfs"), -EINVAL);
	CHECK_EQ(sched_select_class(NULL), -EINVAL);
	CHECK(strcmp(sched_class_name(), "staircase") == 0);
	CHECK(strcmp(sched_class_names(), "staircase o1 sd cfs eevdf") == 0);
	CHECK_EQ(sched_select_class("cfs"), 0);
	CHECK(strcmp(sched_class_name(), "cfs") == 0);
}

/* Every class's every policy names ops with every hook (the boot's check
 * asserts the same; this also counts the struct, so a new op is listed). */
TEST(every_class_policy_names_every_op)
{
	CHECK_EQ(sizeof(struct sched_ops), 12 * sizeof(void *));
	for (int c = 0; sched_classes[c]; c++) {
		CHECK(sched_classes[c]->policies[SCHED_NORMAL] != NULL);
		for (int i = 0; i < SCHED_NR_POLICIES; i++) {
			const struct sched_policy *p = sched_classes[c]->policies[i];
			void *ops[12];
			if (!p)
				continue;
			CHECK(p->ops != NULL);
			memcpy(ops, p->ops, sizeof(ops));
			for (int h = 0; h < 12; h++)
				CHECK(ops[h] != NULL);
		}
	}
}

/* docs/lineage.md §2: SCHED_ISO is the staircase's; under cfs asking for
 * it is EINVAL, and an unprivileged FIFO request (ISO under the
 * staircase) is EPERM, as on Linux. */
TEST(cfs_has_no_sched_iso)
{
	boot_cfs(1);
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_ISO, user_param(0)), -EINVAL);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, user_param(10)), -EPERM);
	CHECK_EQ(me->sched.policy, SCHED_NORMAL);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_BATCH, user_param(0)), 0);
	CHECK_EQ(me->sched.policy, SCHED_BATCH);
}

/* ---- §1: weights and vruntime ---- */

TEST(cfs_weights_are_linux_prio_to_weight)
{
	struct sched_task t = { 0 };
	static const struct { int nice; uint32_t w; } want[] = {
		{ -20, 88761 }, { -1, 1277 }, { 0, 1024 }, { 1, 820 }, { 5, 335 }, { 19, 15 },
	};
	for (unsigned i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		t.static_prio = NICE_TO_PRIO(want[i].nice);
		CHECK_EQ(cfs_weight(&t), want[i].w);
	}
}

TEST(cfs_nice_5_gets_weight_335_of_1359)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 5);
	sim_run(SECONDS(20));
	CHECK_EQ(a->ran + b->ran, SECONDS(20));
	CHECK_RANGE(sim_share(b, SECONDS(20)), 335.0 / 1359 - 0.01, 335.0 / 1359 + 0.01);
}

TEST(cfs_nice_0_vs_nice_10_gets_1024_to_110)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 10);
	sim_run(SECONDS(20));
	CHECK_RANGE((double)a->ran / (double)b->ran, 1024.0 / 110 * 0.95, 1024.0 / 110 * 1.05);
}

TEST(cfs_vruntime_grows_by_ns_times_1024_over_weight)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0);
	sched_set_user_nice(&a->proc->sched, 5);
	fake_schedule(0);
	uint64_t v0 = a->proc->sched.fair.vruntime, s0 = a->proc->sched.fair.sum_exec;
	run_ticks(10);
	CHECK_EQ(a->proc->sched.fair.sum_exec - s0, 10 * MS);
	CHECK_EQ(a->proc->sched.fair.vruntime - v0, 10 * (MS * 1024 / 335));
}

/* ---- §2: the queue ---- */

TEST(cfs_runs_the_smallest_vruntime_first)
{
	boot_cfs(1);
	struct sched_task *a = sleeper(30 * MS), *b = sleeper(10 * MS), *c = sleeper(20 * MS);
	sched_wake_up(a);
	sched_wake_up(b);
	sched_wake_up(c);
	CHECK(fake_schedule(0) == b);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == c);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == a);
}

TEST(cfs_min_vruntime_follows_the_smallest_and_never_falls)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(50);
	uint64_t m = cpu_rq(0)->fair.min_vruntime;
	CHECK_EQ(m, a->proc->sched.fair.vruntime);
	/* A sleeper placed below it does not pull it back. */
	sched_wake_up(sleeper(0));
	run_ticks(1);
	CHECK(cpu_rq(0)->fair.min_vruntime >= m);
}

/* ---- §3: period, slice, tick ---- */

TEST(cfs_period_stretches_past_latency_over_min_granularity)
{
	boot_cfs(1);
	CHECK_EQ(cfs_period(1), 20 * MS);
	CHECK_EQ(cfs_period(5), 20 * MS);
	CHECK_EQ(cfs_period(6), 24 * MS);
	CHECK_EQ(cfs_period(10), 40 * MS);
}

TEST(cfs_tick_preempts_after_its_slice_of_the_period)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	struct sched_task *first = fake_schedule(0);
	CHECK(first == &a->proc->sched || first == &b->proc->sched);
	CHECK_EQ(cfs_slice(cpu_rq(0), first), 10 * MS);	/* 20 ms x 1024 / 2048 */
	run_ticks(10);
	CHECK(fake_curr(0) == first);			/* 10 ms: not more than its slice */
	run_ticks(1);
	CHECK(fake_curr(0) != first);			/* 11 ms: more */
}

/* ---- §4: wake-up ---- */

TEST(cfs_sleeper_placed_at_min_vruntime_minus_latency)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(1000);
	struct sched_task *far = sleeper(0), *near = sleeper(0);
	sched_wake_up(far);
	uint64_t m = cpu_rq(0)->fair.min_vruntime;
	CHECK_EQ(far->fair.vruntime, m - 20 * MS);
	/* Never placed before its own vruntime: a short sleeper keeps it. */
	near->fair.vruntime = m - 5 * MS;
	sched_wake_up(near);
	CHECK_EQ(near->fair.vruntime, m - 5 * MS);
}

TEST(cfs_wakeup_preempts_only_beyond_wakeup_granularity)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(1000);
	fake_need_resched[0] = false;
	sched_wake_up(sleeper(0));		/* 20 ms behind: 10 ms granularity passes */
	CHECK(fake_need_resched[0]);
	fake_need_resched[0] = false;
	tunables.wakeup_granularity_ns = 25 * MS;	/* 20 ms is within 25 */
	sched_wake_up(sleeper(0));
	CHECK(!fake_need_resched[0]);
}

TEST(cfs_batch_never_preempts_on_wakeup)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(1000);
	struct sched_task *b = sleeper(0);
	sched_set_policy(b, SCHED_BATCH, 0);
	fake_need_resched[0] = false;
	sched_wake_up(b);
	CHECK(!fake_need_resched[0]);
	CHECK_EQ(b->fair.vruntime, cpu_rq(0)->fair.min_vruntime - 20 * MS);
}

TEST(cfs_fifo_preempts_a_fair_task_and_not_the_reverse)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	fake_need_resched[0] = false;
	struct sched_task *rt = pinned(0, SCHED_FIFO, 0);
	CHECK(fake_need_resched[0]);
	CHECK(fake_schedule(0) == rt);
	fake_need_resched[0] = false;
	sched_wake_up(sleeper(0));
	CHECK(!fake_need_resched[0]);
}

/* ---- §5: fork ---- */

TEST(cfs_new_task_starts_one_vslice_after_min_vruntime)
{
	boot_cfs(1);
	tunables.child_runs_first = 0;
	sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(100);
	struct fake_proc *child = fake_spawn(0, 1000, 1000);
	/* period(2) x 1024 / (1024 + 1024): 10 ms */
	CHECK_EQ(child->sched.fair.vruntime - cpu_rq(0)->fair.min_vruntime, 10 * MS);
}

TEST(cfs_child_runs_first_takes_the_parents_smaller_vruntime)
{
	boot_cfs(1);
	struct sched_task *parent = &sim_add(0, 0, 0)->proc->sched;
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	fake_schedule(0);
	run_ticks(100);
	sched_fork(parent, &child->sched);
	fake_need_resched[0] = false;
	uint64_t v = parent->fair.vruntime;		/* min_vruntime: it runs alone */
	CHECK_EQ(cpu_rq(0)->fair.min_vruntime, v);
	sched_wake_new(&child->sched);
	CHECK_EQ(child->sched.fair.vruntime, v);		/* the parent's */
	CHECK_EQ(parent->fair.vruntime, v + 10 * MS);	/* the child's: after one vslice */
	CHECK(fake_need_resched[0]);
	CHECK(fake_schedule(0) == &child->sched);
}

/* ---- §6: tunables ---- */

TEST(cfs_tunables_out_of_range_are_einval_and_unchanged)
{
	boot_cfs(1);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_LATENCY_NS, 99999), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_LATENCY_NS, 1000000001), -EINVAL);
	CHECK_EQ(sched_tunable_get(SCHED_TUNABLE_LATENCY_NS), 20000000);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_MIN_GRANULARITY_NS, 0), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_WAKEUP_GRANULARITY_NS, -1), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_CHILD_RUNS_FIRST, 2), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_COMPAT_YIELD, -1), -EINVAL);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_WAKEUP_GRANULARITY_NS, 0), 0);
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_LATENCY_NS, 100000), 0);
	CHECK_EQ(sched_setup_param("sched_latency_ns", "6000000"), 0);
	CHECK_EQ(tunables.latency_ns, 6000000);
}

TEST(cfs_times_scale_with_1_plus_log2_cpus)
{
	boot_cfs(2);
	CHECK_EQ(tunables.latency_ns, 40000000);
	CHECK_EQ(tunables.min_granularity_ns, 8000000);
	CHECK_EQ(tunables.wakeup_granularity_ns, 20000000);
	boot_cfs(4);
	CHECK_EQ(tunables.latency_ns, 60000000);
	fake_class = "staircase";
	fake_boot(4, NULL);			/* the staircase scales nothing */
	CHECK_EQ(tunables.latency_ns, 20000000);
}

/* ---- §7: yield, nice, moves ---- */

/* Without sched_compat_yield a yield only charges the time so far:
 * still the leftmost, the task runs on. */
TEST(cfs_yield_keeps_the_cpu_while_leftmost)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	struct sched_task *first = fake_schedule(0);
	struct sched_task *other = first == &a->proc->sched ? &b->proc->sched : &a->proc->sched;
	CHECK(first->fair.vruntime + 5 * MS < other->fair.vruntime);
	sched_do_yield();
	fake_resched_pending();
	CHECK(fake_curr(0) == first);
}

TEST(cfs_compat_yield_goes_right_of_the_rightmost)
{
	boot_cfs(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	struct sched_task *first = fake_schedule(0);
	struct sched_task *other = first == &a->proc->sched ? &b->proc->sched : &a->proc->sched;
	tunables.compat_yield = 1;
	sched_do_yield();
	CHECK_EQ(first->fair.vruntime, other->fair.vruntime + 1);
	fake_resched_pending();
	CHECK(fake_curr(0) == other);
}

TEST(cfs_moved_task_keeps_its_distance_from_min_vruntime)
{
	boot_cfs(2);
	sim_add(0, 0, 0);
	fake_schedule(0);
	run_ticks(100);
	struct sched_task *t = &fake_spawn(0, 1000, 1000)->sched;	/* queued behind it */
	cpu_rq(1)->fair.min_vruntime = 7000 * MS;
	int64_t d = (int64_t)(t->fair.vruntime - cpu_rq(0)->fair.min_vruntime);
	CHECK_EQ(sched_set_cpus_allowed(t, 1u << 1), 0);
	CHECK_EQ(t->cpu, 1);
	CHECK_EQ((int64_t)(t->fair.vruntime - cpu_rq(1)->fair.min_vruntime), d);
}

/* Linux's set_user_nice only dequeues and queues the running task again:
 * it runs on, its stint counted from where it was. */
TEST(cfs_renice_of_the_running_task_keeps_its_stint)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	sim_add(0, 0, 0);
	struct sched_task *t = fake_schedule(0);
	for (int i = 0; i < 5; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
	uint64_t prev = t->fair.prev_sum_exec;
	sched_set_user_nice(t, 1);
	CHECK(cpu_rq(0)->fair.curr == t);
	CHECK_EQ(t->fair.prev_sum_exec, prev);
	CHECK_EQ(t->fair.sum_exec - prev, 5 * MS);
	CHECK_EQ(t->fair.weight, 820);
}

/* A policy change is Linux's put_prev_task and set_curr_task: the running
 * task's stint starts again (2.6.24's, docs/cfs.md §8: a BATCH/NORMAL
 * flipper is never preempted by the tick). */
TEST(cfs_policy_change_of_the_running_task_restarts_its_stint)
{
	boot_cfs(1);
	sim_add(0, 0, 0);
	sim_add(0, 0, 0);
	struct sched_task *t = fake_schedule(0);
	for (int i = 0; i < 5; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
	sched_set_policy(t, SCHED_BATCH, 0);
	CHECK(cpu_rq(0)->fair.curr == t);
	CHECK_EQ(t->fair.prev_sum_exec, t->fair.sum_exec);
	sched_set_policy(t, SCHED_FIFO, 10);		/* out of cfs: not its current any more */
	CHECK(cpu_rq(0)->fair.curr == NULL);
	CHECK_EQ(cpu_rq(0)->fair.nr, 1);
}

/* docs/lineage.md §1: /proc/PID/sched shows each class's own state, from
 * sched_task_view: under cfs the vruntime and run time, not eevdf's. */
TEST(cfs_task_view_has_vruntime_and_run_time)
{
	struct sched_task_view v;
	struct sched_task *s = &fake_spawn(0, 1000, 1000)->sched;
	sched_task_view(s, &v);
	CHECK_EQ(v.fair, 0);				/* the staircase's task */
	boot_cfs(1);
	struct sched_task *t = &sim_add(0, 0, 0)->proc->sched;
	fake_schedule(0);
	run_ticks(3);
	sched_task_view(t, &v);
	CHECK_EQ(v.fair, 1);
	CHECK_EQ(v.eevdf, 0);
	CHECK_EQ(v.vruntime, t->fair.vruntime);
	CHECK_EQ(v.sum_exec_ns, 3 * MS);
}
