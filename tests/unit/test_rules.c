/*
 * test_rules.c - rules that the mutation check (make mutate, tools/mutate/)
 * found untested: each test here fails on at least one mutant of sched/
 * that every other unit test let through. The name is the rule; the
 * comment names the mutant(s) of tools/mutate/mutants.txt it kills.
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"
#include "../../sched/core.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"
#include <limits.h>


static struct sched_task *spawn(void)
{
	return &fake_spawn(0, 1000, 1000)->sched;
}

#define param user_param

/* t, running alone on CPU 0, runs `ticks`, sleeps sleep_ns, is woken and runs. */
static void run_sleep_wake(struct sched_task *t, int ticks, uint64_t sleep_ns)
{
	for (int i = 0; i < ticks; i++)
		tick0();
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += sleep_ns;
	sched_wake_up(t);
	fake_schedule(0);
}



/* ---- wake-up: recalc (staircase.md §6.2) ---- */

/* recalc_compute_not_brief: in compute mode any stint counts as brief, so a
 * run + sleep shorter than the (100-tick) quantum continues the slice. */
TEST(compute_mode_short_run_and_sleep_continue_the_slice)
{
	tunables.compute = 1;
	struct sched_task *t = spawn();
	fake_schedule(0);
	run_sleep_wake(t, 5, 20 * TICK_NS);	/* 5 + 20 ticks < 100 */
	CHECK_EQ(t->burst, 0);
	CHECK_EQ(t->slice, 2000 - 5);
	run_sleep_wake(t, 5, 200 * TICK_NS);	/* a real sleep earns a burst */
	CHECK_EQ(t->burst, 1);
}

/* recalc_brief_boundary: run + sleep of exactly one quantum is a real sleep. */
TEST(run_plus_sleep_of_exactly_one_quantum_is_a_real_sleep)
{
	struct sched_task *t = spawn();
	fake_schedule(0);
	fake_now_ns += 500000;			/* runs 0.5 ms */
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 9400000;			/* 9.9 ms in all: 9 ticks */
	sched_wake_up(t);
	fake_schedule(0);
	CHECK_EQ(t->burst, 0);			/* continued */
	fake_now_ns += 500000;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 9500000;			/* 10 ms in all: 10 ticks = RR */
	sched_wake_up(t);
	CHECK_EQ(t->burst, 1);			/* a real sleep */
	CHECK_EQ(t->slice, 200);
	CHECK_EQ(t->totalrun, 0);
}

/* recalc_slice_under_one_tick: a continued slice with exactly nothing left
 * (slice - total = 0 ticks) starts over with one burst less. */
TEST(continued_slice_with_nothing_left_starts_over)
{
	struct sched_task *t = spawn();
	fake_schedule(0);
	run_sleep_wake(t, 1, 20 * TICK_NS);
	run_sleep_wake(t, 1, 20 * TICK_NS);
	CHECK_EQ(t->burst, 2);
	t->totalrun = 199500000;		/* 199.5 ms run in short stints */
	fake_now_ns += 500000;			/* + 0.5 ms: 200 ticks = the slice */
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 1000000;
	sched_wake_up(t);
	CHECK_EQ(t->totalrun, 0);
	CHECK_EQ(t->burst, 1);
	CHECK_EQ(t->slice, 200);
}

/* ---- preemption (staircase.md §6.3) ---- */

/* preempt_compute_rt_delayed: compute mode holds back user tasks only; a
 * real-time task preempts at once, even in curr's first cache_delay. */
TEST(compute_mode_rt_wakeup_preempts_at_once)
{
	tunables.compute = 1;
	struct sched_task *hog = spawn();
	fake_schedule(0);
	struct fake_proc *f = fake_new_task(0, 0, 0);
	sched_set_policy(&f->sched, SCHED_FIFO, 10);
	fake_need_resched[0] = false;
	sched_wake_new(&f->sched);
	CHECK(fake_need_resched[0]);
	CHECK(!cpu_rq(0)->preempted);
	fake_resched_pending();
	CHECK(fake_curr(0) == &f->sched);
	CHECK(hog->on_rq);
}

/* tick_delayed_preempt_not_cleared: a held-back preemption is done once;
 * when its task has gone meanwhile, curr is not asked again every tick. */
TEST(held_back_preemption_fires_once)
{
	fake_boot(2, NULL);
	tunables.compute = 1;
	struct sched_task *hog = spawn();
	fake_schedule(0);
	sched_set_user_nice(hog, 5);			/* 125 */
	fake_resched_pending();
	struct sched_task *w = spawn();			/* 120: held back */
	CHECK(cpu_rq(0)->preempted);
	CHECK_EQ(sched_set_cpus_allowed(w, 0x2), 0);	/* and moved away */
	CHECK_EQ(w->cpu, 1);
	for (int i = 0; i < 10; i++)			/* cache_delay: the resched */
		tick0();
	CHECK(fake_curr(0) == hog);
	for (int i = 0; i < 20; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
		CHECK(!fake_need_resched[0]);
	}
}

/* switch_keeps_cache_ticks: cache_delay counts from the last switch. */
TEST(a_switch_restarts_the_cache_delay)
{
	tunables.compute = 1;
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	sched_set_user_nice(b, 5);		/* queued b: 125 */
	for (int i = 0; i < 20; i++)		/* a runs 20 ticks */
		tick0();
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* b starts: its cache is cold */
	CHECK(fake_curr(0) == b);
	fake_need_resched[0] = false;
	struct sched_task *c = spawn();		/* 120 beats 125, but b just started */
	CHECK(!fake_need_resched[0]);
	CHECK(cpu_rq(0)->preempted);
	for (int i = 0; i < 10; i++)
		tick0();
	CHECK(fake_curr(0) == c);
}

/* switch_keeps_preempted: a preemption held back for a task that then ran
 * anyway (curr slept) is forgotten at the switch. */
TEST(a_switch_forgets_a_held_back_preemption)
{
	tunables.compute = 1;
	struct sched_task *hog = spawn();
	fake_schedule(0);
	sched_set_user_nice(hog, 5);
	fake_resched_pending();
	struct sched_task *w = spawn();
	CHECK(cpu_rq(0)->preempted);
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* hog sleeps: w runs */
	CHECK(fake_curr(0) == w);
	for (int i = 0; i < 20; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
		CHECK(!fake_need_resched[0]);	/* w's quantum is 100 ticks */
	}
}

/* ---- moving between CPUs (staircase.md §8.1) ---- */

/* wake_new_ignores_affinity: a new task whose CPU is outside its mask is
 * queued on an allowed CPU. */
TEST(new_task_is_queued_on_a_cpu_of_its_mask)
{
	fake_boot(2, NULL);
	struct fake_proc *p = fake_new_task(0, 1000, 1000);
	p->sched.cpus_allowed = 0x2;
	sched_wake_new(&p->sched);
	CHECK_EQ(p->sched.cpu, 1);
	CHECK_EQ(cpu_rq(1)->nr_running, 1);
	CHECK_EQ(cpu_rq(0)->nr_running, 0);
}

/* switch_no_last_ran: a task that has just run is cache-hot: an idle CPU
 * does not pull it at its first try. */
TEST(a_task_that_just_ran_is_cache_hot)
{
	fake_boot(2, NULL);
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	for (int i = 0; i < 10; i++)		/* a's quantum ends: b runs */
		tick0();
	CHECK(fake_curr(0) == b);
	CHECK_EQ(a->stats.last_ran_ns, fake_now_ns);
	fake_schedule(1);			/* idle balance: a is hot, refused */
	CHECK_EQ(a->cpu, 0);
	CHECK(fake_curr(1)->is_idle);
}

/* ---- accounting (staircase.md §6.1) ---- */

/* account_nice_positive_is_user, account_nice_boundary: nice > 0 time is
 * nice time, even nice 1; nice 0 and below is user time. */
TEST(nice_above_0_is_accounted_as_nice_time)
{
	struct sim_task *t = sim_add(0, 0, 0);
	sched_set_user_nice(&t->proc->sched, 1);
	sim_run(50);
	CHECK_EQ(cpu_rq(0)->nice_ticks, 50);
	CHECK_EQ(cpu_rq(0)->user_ticks, 0);
	sched_set_user_nice(&t->proc->sched, -1);
	sim_run(50);
	CHECK_EQ(cpu_rq(0)->nice_ticks, 50);
	CHECK_EQ(cpu_rq(0)->user_ticks, 50);
}

/* ---- SMT (staircase.md §8.3) ---- */

/* tick_idle_no_recheck: a CPU idling because of the SMT rule looks again at
 * every tick, so the waiting task starts as soon as the rule allows it. */
TEST(smt_held_back_task_starts_at_the_first_tick_it_may)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_NORMAL, 0);	/* full slice 200 */
	struct sched_task *b = pinned(1, SCHED_NORMAL, 19);	/* full slice 10 */
	sim_add_task(fake_of(a), 0, 0);
	sim_add_task(fake_of(b), 0, 0);
	int steps = 0;
	while (fake_curr(1) != b && steps < 300) {
		sim_step();
		steps++;
	}
	CHECK(fake_curr(1) == b);
	CHECK_EQ(a->slice, 14);		/* 14 * 75 / 100 = 10: no longer > 10 */
}

/* smt_idle_sibling_not_woken: a CPU that picks a task wakes an idle sibling
 * that has queued work, so that it applies the rule again. */
TEST(smt_picking_a_task_wakes_an_idle_sibling_with_queued_work)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_NORMAL, 0);
	struct sched_task *b = pinned(1, SCHED_NORMAL, 19);
	fake_schedule(0);
	fake_schedule(1);
	CHECK(fake_curr(0) == a);
	CHECK(fake_curr(1)->is_idle);		/* b held back */
	fake_need_resched[1] = false;
	a->slice = 14;				/* now b may run beside a */
	fake_schedule(0);			/* a picked again ... */
	CHECK(fake_curr(0) == a);
	CHECK(fake_need_resched[1]);		/* ... and CPU 1 told to look */
	fake_schedule(1);
	CHECK(fake_curr(1) == b);
}

/* smt_kthread_sibling_counts: the rule is for user tasks on both sides: a
 * kernel thread on the sibling holds no user task off. */
TEST(smt_kernel_thread_sibling_holds_no_user_task_off)
{
	boot_topology(1, 1, 2);
	struct sched_task *k = pinned(0, SCHED_NORMAL, 0);
	k->is_kthread = true;
	struct sched_task *u = pinned(1, SCHED_NORMAL, 19);
	fake_schedule(0);
	CHECK(fake_curr(0) == k);
	fake_schedule(1);			/* 200 * 75 / 100 > 10, but k is a kthread */
	CHECK(fake_curr(1) == u);
}

/* policy_keeps_yielded: a yielded task made BATCH is plain BATCH (not on an
 * elevated run), so the SMT rule keeps it off a core that runs NORMAL work. */
TEST(yielded_task_made_batch_is_held_off_by_the_smt_rule)
{
	boot_topology(1, 1, 2);
	struct sched_task *h = pinned(1, SCHED_NORMAL, 0);
	struct sched_task *t = pinned(0, SCHED_NORMAL, 0);
	struct sched_task *o = pinned(0, SCHED_NORMAL, 0);
	fake_schedule(1);
	fake_schedule(0);
	CHECK(fake_curr(1) == h);
	CHECK(fake_curr(0) == t);
	sched_do_yield();			/* t: 139, YIELDED; o runs */
	fake_schedule(0);
	CHECK(fake_curr(0) == o);
	sched_set_policy(t, SCHED_BATCH, 0);	/* by some other task */
	CHECK_EQ(t->prio, 140);
	CHECK_EQ(t->flags & SF_YIELDED, 0);
	cpu_rq(0)->curr = o;
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* o sleeps: only t is left */
	CHECK(fake_curr(0)->is_idle);		/* BATCH beside NORMAL: waits */
	CHECK_EQ(t->stats.nr_runs, 1);
}

/* ---- nice (staircase.md §6.7) ---- */

/* nice_clamp_top_of_stairs: a nice change never lifts a task above the
 * stairs (100) into the real-time range. */
TEST(nice_change_never_lifts_a_task_above_the_stairs)
{
	struct sched_task *hog = spawn(), *t = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == hog);
	sched_set_policy(t, SCHED_ISO, 0);
	CHECK_EQ(t->prio, 110);
	sched_set_user_nice(t, -20);		/* 110 - 20 = 90: kept at 100 */
	CHECK_EQ(t->prio, 100);
	fake_resched_pending();
	CHECK(fake_curr(0) == t);
}

/* nice_moves_off_stairs: 140 (BATCH) does not move with nice. */
TEST(nice_change_leaves_batch_at_140)
{
	struct sched_task *hog = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == hog);
	sched_set_policy(b, SCHED_BATCH, 0);
	CHECK_EQ(b->prio, 140);
	sched_set_user_nice(b, -5);
	CHECK_EQ(b->prio, 140);
	sched_set_user_nice(b, 10);
	CHECK_EQ(b->prio, 140);
}

/* nice_rt_requeued: for FIFO/RR a nice change only sets static_prio: no
 * requeue, no reschedule. */
TEST(nice_change_of_an_rt_task_keeps_its_place)
{
	struct sched_task *a = spawn(), *b = spawn();
	sched_set_policy(a, SCHED_FIFO, 10);
	sched_set_policy(b, SCHED_FIFO, 10);
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	fake_need_resched[0] = false;
	sched_set_user_nice(a, 5);
	CHECK_EQ(a->static_prio, 125);
	CHECK_EQ(a->prio, 89);
	CHECK(!fake_need_resched[0]);
	CHECK(cpu_rq(0)->queue[89].next == &a->run_list);
}

/* rescale_slice_can_be_0: the rescaled slice is at least one tick. */
TEST(renice_leaves_at_least_one_tick_of_slice)
{
	struct sched_task *t = spawn();
	fake_schedule(0);
	for (int i = 0; i < 199; i++)
		tick0();
	CHECK_EQ(t->slice, 1);
	sched_set_user_nice(t, 19);		/* 1 * 10 / 200 = 0: kept at 1 */
	CHECK_EQ(t->slice, 1);
}

/* ---- policy changes (staircase.md §6.7) ---- */

/* policy_running_fall_no_resched: a running task whose priority got worse
 * gives up the CPU. */
TEST(policy_change_that_lowers_the_running_task_reschedules)
{
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	fake_need_resched[0] = false;
	sched_set_policy(a, SCHED_BATCH, 0);	/* 120 -> 140 */
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == b);
}

/* policy_queued_no_preempt_check: a waiting task raised by a policy change
 * gets the preemption check. */
TEST(policy_change_of_a_waiting_task_runs_the_preemption_check)
{
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	fake_need_resched[0] = false;
	sched_set_policy(b, SCHED_FIFO, 10);
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == b);
}

/* setscheduler_iso_keeps_rt_priority: an unprivileged FIFO request of an
 * ISO task is ISO with priority 0 again: a no-op, it keeps its place. */
TEST(unprivileged_fifo_request_of_an_iso_task_changes_nothing)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000), *o = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, param(50)), 0);
	CHECK_EQ(sys_sched_setscheduler(o->pid, SCHED_ISO, param(0)), 0);
	CHECK_EQ(me->sched.prio, 110);
	CHECK_EQ(o->sched.prio, 110);
	CHECK(cpu_rq(0)->queue[110].next == &me->sched.run_list);
	int changes = fake_trace_count(TRACE_NICE, me->pid);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, param(50)), 0);
	CHECK_EQ(fake_trace_count(TRACE_NICE, me->pid), changes);
	CHECK(cpu_rq(0)->queue[110].next == &me->sched.run_list);
}

/* ---- bursts (staircase.md §3, §4) ---- */

/* inc_burst_past_max, batch_max_burst_off_by_one: burst is capped by
 * max_burst: 19 for nice 0 BATCH; for FIFO/RR max_burst is the burst
 * itself, so it never grows. */
TEST(burst_is_capped_at_max_burst_for_batch_and_never_grows_for_rt)
{
	struct fake_proc *me = fake_spawn(0, 0, 0);
	struct sched_task *t = &me->sched;
	struct sched_task_info *ti = (void *)fake_user_mem;
	fake_schedule(0);
	sched_set_policy(t, SCHED_BATCH, 0);
	for (int i = 0; i < 25; i++)
		run_sleep_wake(t, 2, 50 * TICK_NS);
	CHECK_EQ(sys_sched_task_stats(0, ti), 0);
	CHECK_EQ(ti->max_burst, 19);
	CHECK_EQ(ti->burst, 19);
	sched_set_policy(t, SCHED_FIFO, 10);
	t->burst = 0;
	for (int i = 0; i < 3; i++)
		run_sleep_wake(t, 2, 50 * TICK_NS);
	CHECK_EQ(t->burst, 0);
	CHECK_EQ(max_burst(t), 0);
}

/* ---- the ISO cap (staircase.md §7.5) ---- */

/* iso_throttle_at_cap: the cap is "share > iso_cpu": at iso_cpu 0 a CPU
 * that has run no ISO task does not throttle; one ISO tick does. */
TEST(iso_cpu_0_throttles_only_once_an_iso_task_has_run)
{
	tunables.iso_cpu = 0;
	sim_add(0, 0, 0);
	sim_run(20);
	CHECK(!cpu_rq(0)->iso_throttled);
	CHECK_EQ(fake_trace_count(TRACE_ISO_THROTTLE, -1), 0);
	struct sim_task *iso = sim_add(0, 0, 0);
	sched_set_policy(&iso->proc->sched, SCHED_ISO, 0);
	for (int i = 0; i < 20 && !cpu_rq(0)->iso_throttled; i++)
		sim_step();
	CHECK(cpu_rq(0)->iso_throttled);
	CHECK_EQ(fake_trace_count(TRACE_ISO_THROTTLE, -1), 1);
}

/* ---- balancing (staircase.md §8.1) ---- */

/* balance_pct_inclusive, balance_pct_ignored, balance_core_pct_124: the
 * busiest queue must exceed the local one by more than imbalance_pct
 * (125 % between cores): 10 against 8 is balanced, 11 against 8 is not.
 * Rotation (§8.2) would even 10:8 out on its own: off here. */
TEST(balance_needs_more_than_imbalance_pct)
{
	fake_boot(2, NULL);
	tunables.rotate = 0;
	for (int i = 0; i < 10; i++)
		fake_spawn(0, 1000, 1000);
	for (int i = 0; i < 8; i++)
		fake_spawn(1, 1000, 1000);
	fake_schedule(0);
	fake_schedule(1);
	fake_now_ns += TICK_NS;
	fake_tick(1, true);			/* CPU 1 balances: 10 vs 8 */
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 0);
	fake_spawn(0, 1000, 1000);		/* 11 vs 8: 1100 > 1000 */
	for (int i = 0; i < 4; i++) {		/* the next balance (busy: 4 ticks) */
		fake_now_ns += TICK_NS;
		fake_tick(1, true);
	}
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 1);
	CHECK_EQ(cpu_rq(1)->nr_running, 9);
}

/* balance_moves_whole_difference: a balance pulls half the difference. */
TEST(balance_pulls_half_the_difference)
{
	fake_boot(2, NULL);
	for (int i = 0; i < 4; i++)
		fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	fake_schedule(1);			/* idle balance: (4 - 0) / 2 */
	CHECK_EQ(cpu_rq(1)->nr_running, 2);
	CHECK_EQ(cpu_rq(0)->nr_running, 2);
}

/* balance_moves_cpu_held_task: a waiting task whose old CPU is still on its
 * stack (on_cpu: switched out, sched_finish_switch not reached) stays. */
TEST(balance_never_pulls_a_task_whose_cpu_is_still_on_its_stack)
{
	fake_boot(2, NULL);
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	b->on_cpu = 1;				/* white box: CPU 0 just left b */
	fake_schedule(1);
	b->on_cpu = 0;
	CHECK_EQ(b->cpu, 0);
	CHECK(fake_curr(1)->is_idle);
}

/* balance_hot_boundary: cache-hot is "ran less than cache_hot_ns ago";
 * exactly cache_hot_ns (2.5 ms between cores) ago is cold. */
TEST(balance_task_that_ran_exactly_cache_hot_ns_ago_is_cold)
{
	fake_boot(2, NULL);
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	fake_now_ns += 10 * TICK_NS;
	b->stats.last_ran_ns = fake_now_ns - 2500000;
	fake_schedule(1);			/* first try: moved */
	CHECK_EQ(b->cpu, 1);
	CHECK(fake_curr(1) == b);
}

/* ---- permissions (staircase.md §7.6) ---- */

/* may_change_not_same_euid, may_change_not_its_uid: sched_setscheduler on
 * another task is allowed when the caller's euid is the target's euid or
 * the target's uid. */
TEST(setscheduler_allowed_by_the_targets_euid_or_uid)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	struct fake_proc *by_euid = fake_new_task(0, 2000, 1000);
	struct fake_proc *by_uid = fake_new_task(0, 1000, 2000);
	struct fake_proc *neither = fake_new_task(0, 2000, 2000);
	CHECK_EQ(sys_sched_setscheduler(by_euid->pid, SCHED_BATCH, param(0)), 0);
	CHECK_EQ(sys_sched_setscheduler(by_uid->pid, SCHED_BATCH, param(0)), 0);
	CHECK_EQ(sys_sched_setscheduler(neither->pid, SCHED_BATCH, param(0)), -EPERM);
	uint32_t *m = (void *)fake_user_mem;
	*m = 1;
	CHECK_EQ(sys_sched_setaffinity(by_euid->pid, 4, m), 0);
	CHECK_EQ(sys_sched_setaffinity(by_uid->pid, 4, m), 0);
	CHECK_EQ(sys_sched_setaffinity(neither->pid, 4, m), -EPERM);
}

/* setpriority_caller_uid_ignored: setpriority on another task is allowed
 * when the target's uid is the caller's euid or the caller's uid. */
TEST(setpriority_allowed_by_the_callers_euid_or_uid)
{
	struct fake_proc *me = fake_spawn(0, 1000, 3000);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	struct fake_proc *mine = fake_new_task(0, 1000, 1000);
	struct fake_proc *as_euid = fake_new_task(0, 3000, 3000);
	struct fake_proc *other = fake_new_task(0, 2000, 2000);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, mine->pid, 5), 0);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, as_euid->pid, 5), 0);
	CHECK_EQ(sys_setpriority(PRIO_PROCESS, other->pid, 5), -EPERM);
	CHECK_EQ(sys_getpriority(PRIO_PROCESS, mine->pid), 15);
}

/* nice_increment_not_clamped: nice(INT_MAX) is clamped before it is added:
 * it cannot wrap round to -20 (nor overflow). */
TEST(nice_huge_increment_is_clamped_not_wrapped)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK_EQ(sys_nice(5), 0);
	CHECK_EQ(sys_nice(INT_MAX), 0);
	CHECK_EQ(sched_task_nice(&me->sched), 19);
	me->euid = 0;
	CHECK_EQ(sys_nice(INT_MIN), 0);
	CHECK_EQ(sched_task_nice(&me->sched), -20);
}

/* staircase.md §6.8: a stopped task is a sleeper: it leaves its queue, and
 * SIGCONT's wake-up is §6.2's, a stop of a quantum or more a real sleep. */
TEST(stopped_task_leaves_the_queue_and_wakes_as_a_sleeper)
{
	struct sched_task *t = &fake_spawn(0, 1000, 1000)->sched;
	fake_schedule(0);
	for (int i = 0; i < 30; i++)
		tick0();
	int burst = t->burst;
	fake_sleep(0, TASK_STOPPED);
	CHECK(!t->on_rq);
	fake_now_ns += 50 * 1000 * 1000ull;	/* stopped 50 ms: a real sleep */
	CHECK(sched_wake_up(t));
	CHECK(t->on_rq);
	CHECK_EQ(t->state, TASK_RUNNING);
	CHECK_EQ(t->burst, burst + 1);
	CHECK_EQ(t->slice, full_slice(t));
}

/* ---- accounting: getrusage's switch counts (sched_task_view) ---- */

/* A switch out asleep is voluntary; one while still runnable (a yield,
 * a preemption) is not; the running task's own turn is not over yet. */
TEST(switches_out_asleep_are_voluntary_the_others_not)
{
	struct sched_task *t = spawn(), *u = spawn();
	struct sched_task_view v;
	struct sched_task *a = fake_schedule(0);
	sched_do_yield();			/* a: still runnable */
	struct sched_task *b = fake_schedule(0);
	CHECK(a != b && !b->is_idle);
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* b: asleep; a runs again */
	CHECK(fake_curr(0) == a);
	sched_task_view(b, &v);
	CHECK_EQ(v.nvcsw, 1);
	CHECK_EQ(v.nivcsw, 0);
	sched_task_view(a, &v);			/* running: this turn is not over */
	CHECK_EQ(v.nvcsw, 0);
	CHECK_EQ(v.nivcsw, 1);
	(void)t, (void)u;
}
