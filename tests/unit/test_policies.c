/*
 * test_policies.c - staircase.md §6 and §7: preemption, yield, FIFO, RR,
 * BATCH, ISO, fork and nice.
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"
#include "../../sched/core.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"
#include <setjmp.h>
#include <stddef.h>
#include <string.h>


static struct sched_task *spawn(void)
{
	return &fake_spawn(0, 1000, 1000)->sched;
}

/* Make t the running task of CPU 0 by hand (white-box preemption tests). */
static void make_curr(struct sched_task *t)
{
	cpu_rq(0)->curr = t;
}

/* ---- preemption check (staircase.md §6.3) ---- */

TEST(preempt_more_urgent_task_preempts)
{
	struct sched_task *curr = spawn(), *p = spawn();
	make_curr(curr);
	curr->prio = 125;
	p->prio = 120;
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NOW);
	p->prio = 126;
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NO);
}

TEST(preempt_equal_prio_cases)
{
	struct sched_task *curr = spawn(), *p = spawn();
	make_curr(curr);
	curr->prio = p->prio = 120;
	curr->time_slice = 4;
	p->slice = 200;			/* whole slice, */
	p->time_slice = 10;		/* more quantum left than curr: yes */
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NOW);
	p->slice = 199;			/* part-way through its slice: no */
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NO);
	p->slice = 200;
	p->time_slice = 4;		/* time_slice <= curr's: no */
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NO);
	p->time_slice = 10;
	curr->policy = SCHED_RR;	/* curr is RT: no */
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NO);
}

TEST(preempt_compute_mode_delays_user_tasks_only)
{
	struct sched_task *curr = spawn(), *p = spawn();
	tunables.compute = 1;
	make_curr(curr);
	curr->prio = 125;
	p->prio = 120;
	cpu_rq(0)->cache_ticks = 3;
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_DELAYED);
	p->is_kthread = true;
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NOW);
	p->is_kthread = false;
	cpu_rq(0)->cache_ticks = 10;
	CHECK_EQ(preempt_decision(cpu_rq(0), p), PREEMPT_NOW);
}

/* ---- yield (staircase.md §6.5) ---- */

TEST(yield_drops_to_139_then_runs_from_head_of_its_stair)
{
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	for (int i = 0; i < 15; i++)	/* a: 121, b runs (120) ... */
		tick0();
	CHECK(fake_curr(0) == b);
	b->burst = 2;			/* as if it had slept twice: yield takes it */
	sched_do_yield();		/* b yields */
	CHECK_EQ(b->prio, 139);
	CHECK(b->flags & SF_YIELDED);
	CHECK_EQ(b->burst, 0);
	CHECK_EQ(b->slice, 200);
	fake_resched_pending();
	CHECK(fake_curr(0) == a);	/* a at 121 beats b at 139 */
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* a sleeps: b picked from 139 ... */
	CHECK(fake_curr(0) == b);
	CHECK_EQ(b->prio, 120);		/* ... back on its top stair */
	CHECK_EQ(b->flags & SF_YIELDED, 0);
	CHECK(cpu_rq(0)->queue[120].next == &b->run_list);	/* at the head */
	/* Head, not tail, shows where others wait on that stair: for nice 19
	 * it is 139 itself. c yields behind d, e queues behind c; d sleeps:
	 * c is picked and goes back to the head of 139, before e ... */
	fake_boot(1, NULL);
	struct sched_task *c = spawn(), *d = spawn();
	sched_set_user_nice(c, 19);
	sched_set_user_nice(d, 19);
	fake_schedule(0);
	CHECK(fake_curr(0) == c);
	sched_do_yield();
	fake_resched_pending();
	CHECK(fake_curr(0) == d);
	struct fake_proc *e = fake_new_task(0, 1000, 1000);
	sched_set_user_nice(&e->sched, 19);
	sched_wake_new(&e->sched);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == c);
	CHECK(cpu_rq(0)->queue[139].next == &c->run_list);
	CHECK(cpu_rq(0)->queue[139].prev == &e->sched.run_list);
	/* ... so after a preemption c, not e, goes on */
	struct sched_task *w = spawn();
	fake_resched_pending();
	CHECK(fake_curr(0) == w);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == c);
}

TEST(yield_rt_goes_to_tail_of_own_list)
{
	struct sched_task *a = spawn(), *b = spawn();
	sched_set_policy(a, SCHED_FIFO, 10);
	sched_set_policy(b, SCHED_FIFO, 10);
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	sched_do_yield();
	CHECK_EQ(a->prio, 89);
	CHECK_EQ(a->flags & SF_YIELDED, 0);
	fake_resched_pending();
	CHECK(fake_curr(0) == b);
}

TEST(yield_batch_goes_to_tail_of_140)
{
	struct sched_task *a = spawn(), *b = spawn();
	sched_set_policy(a, SCHED_BATCH, 0);
	sched_set_policy(b, SCHED_BATCH, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	sched_do_yield();
	CHECK_EQ(a->prio, 140);
	fake_resched_pending();
	CHECK(fake_curr(0) == b);
}

/* ---- FIFO and RR (staircase.md §7.1, §7.2) ---- */

TEST(fifo_preempted_stays_at_head_woken_goes_to_tail)
{
	struct sched_task *hi = spawn(), *f1 = spawn(), *f2 = spawn();
	sched_set_policy(hi, SCHED_FIFO, 50);	/* prio 49 */
	fake_schedule(0);
	CHECK(fake_curr(0) == hi);
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* hi waits for an event */
	sched_set_policy(f1, SCHED_FIFO, 10);	/* prio 89, queued f1 then f2 */
	sched_set_policy(f2, SCHED_FIFO, 10);
	fake_schedule(0);
	CHECK(fake_curr(0) == f1);
	for (int i = 0; i < 30; i++)		/* FIFO has no quantum */
		tick0();
	CHECK(fake_curr(0) == f1);
	sched_wake_up(hi);			/* preempts f1 */
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == hi);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == f1);		/* preempted f1 is still at the head */
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* f1 sleeps, f2 runs */
	CHECK(fake_curr(0) == f2);
	sched_wake_up(f1);			/* woken: to the tail, behind f2 */
	CHECK(!fake_need_resched[0]);
	CHECK(cpu_rq(0)->queue[89].prev == &f1->run_list);
	CHECK(cpu_rq(0)->queue[89].next == &f2->run_list);
}

TEST(rr_rotates_after_one_quantum)
{
	struct sched_task *a = spawn(), *b = spawn();
	sched_set_policy(a, SCHED_RR, 10);
	sched_set_policy(b, SCHED_RR, 10);
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	for (int i = 0; i < 9; i++)
		tick0();
	CHECK(fake_curr(0) == a);
	tick0();
	CHECK(fake_curr(0) == b);
	CHECK_EQ(a->prio, 89);
	CHECK_EQ(a->time_slice, 10);
	for (int i = 0; i < 10; i++)
		tick0();
	CHECK(fake_curr(0) == a);
}

/* ---- BATCH (seed 002) ---- */

TEST(batch_never_runs_while_normal_task_runnable)
{
	struct sim_task *hog = sim_add(0, 0, 0);
	struct sim_task *batch = sim_add(0, 0, 0);
	sched_set_policy(&batch->proc->sched, SCHED_BATCH, 0);
	sim_run(3000);
	CHECK_EQ(batch->ran, 0);
	CHECK_EQ(hog->ran, 3000);
	/* and it runs when the CPU would otherwise idle */
	hog->run_ticks = 1;
	hog->left = 0;
	hog->sleep_ticks = 100000;
	sim_run(100);
	CHECK_RANGE(batch->ran, 99, 100);
}

TEST(batch_after_uninterruptible_sleep_runs_once_at_139)
{
	struct sched_task *hog = spawn(), *b = spawn();
	sched_set_policy(b, SCHED_BATCH, 0);
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
	sched_wake_up(b);
	CHECK_EQ(b->prio, 139);			/* one run at the lowest stair */
	CHECK(b->flags & SF_YIELDED);
	CHECK_EQ(b->flags & SF_UISLEEP, 0);
	int ticks = 0;
	while (fake_curr(0) != b && ticks < 400) {
		tick0();
		ticks++;
	}
	CHECK_RANGE(ticks, 1, 200);		/* once hog reaches 139 */
	CHECK_EQ(b->prio, 140);			/* and straight back to 140 */
	CHECK_EQ(b->flags & SF_YIELDED, 0);
}

TEST(batch_after_interruptible_sleep_stays_at_140)
{
	struct sched_task *hog = spawn(), *b = spawn();
	sched_set_policy(b, SCHED_BATCH, 0);
	cpu_rq(0)->curr = b;
	b->on_cpu = 1;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == hog);
	sched_wake_up(b);
	CHECK_EQ(b->prio, 140);
	for (int i = 0; i < 1000; i++)
		tick0();
	CHECK(fake_curr(0) == hog);
	CHECK_EQ(b->stats.nr_runs, 0);
}

TEST(batch_woken_gets_whole_slice_as_quantum)
{
	struct sched_task *b = spawn();
	sched_set_policy(b, SCHED_BATCH, 0);
	cpu_rq(0)->curr = b;
	b->on_cpu = 1;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	fake_now_ns += 100 * TICK_NS;
	sched_wake_up(b);
	CHECK_EQ(b->slice, 200);
	CHECK_EQ(b->time_slice, 200);
}

TEST(batch_time_is_accounted_as_nice)
{
	struct sim_task *b = sim_add(0, 0, 0);
	sched_set_policy(&b->proc->sched, SCHED_BATCH, 0);
	sim_run(50);
	CHECK_EQ(cpu_rq(0)->nice_ticks, 50);
	CHECK_EQ(cpu_rq(0)->user_ticks, 0);
}

TEST(kernel_thread_may_not_be_batch)
{
	struct fake_proc *k = fake_new_task(0, 0, 0);
	struct fake_proc *me = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == &me->sched);
	k->sched.is_kthread = true;
	struct sched_param *prm = (void *)fake_user_mem;
	prm->sched_priority = 0;
	CHECK_EQ(sys_sched_setscheduler(k->pid, SCHED_BATCH, prm), -EPERM);
	CHECK_EQ(sys_sched_setscheduler(me->pid, SCHED_BATCH, prm), 0);
}

/* ---- ISO (seed 003) ---- */

TEST(iso_starts_at_110_and_drops_a_stair_per_half_quantum)
{
	struct sched_task *t = spawn();
	sched_set_policy(t, SCHED_ISO, 0);
	fake_schedule(0);
	CHECK_EQ(t->prio, 110);
	CHECK_EQ(t->slice, 300);
	for (int k = 1; k <= 300; k++) {
		tick0();
		int used = k % 300;
		int want = used < 5 ? 110 : 110 + 1 + (used - 5) / 5;
		if (want > 139)
			want = 139;
		if (t->prio != want) {
			test_fail(__FILE__, __LINE__, "tick %d: prio %d, want %d", k, t->prio, want);
			return;
		}
	}
}

TEST(iso_gets_no_burst_extension)
{
	struct sched_task *t = spawn();
	sched_set_policy(t, SCHED_ISO, 0);
	fake_schedule(0);
	t->burst = 10;
	for (int i = 0; i < 5; i++)
		tick0();
	CHECK_EQ(t->prio, 111);
}

TEST(unprivileged_fifo_becomes_iso)
{
	struct fake_proc *me = fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	struct sched_param *prm = (void *)fake_user_mem;
	prm->sched_priority = 50;
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, prm), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_ISO);
	CHECK_EQ(me->sched.prio, 110);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_RR, prm), 0);
	CHECK_EQ(sys_sched_getscheduler(me->pid), SCHED_ISO);
	me->euid = 0;			/* privileged: real FIFO */
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_FIFO, prm), 0);
	CHECK_EQ(sys_sched_getscheduler(0), SCHED_FIFO);
	CHECK_EQ(me->sched.prio, 49);
}

/* ---- fork and nice (staircase.md §6.6, §6.7) ---- */

TEST(fork_child_copies_slice_quantum_no_burst_one_stair_below)
{
	struct sched_task *parent = spawn();
	fake_schedule(0);
	for (int i = 0; i < 34; i++)
		tick0();
	parent->burst = 3;
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	sched_fork(parent, &child->sched);
	sched_wake_new(&child->sched);
	CHECK_EQ(parent->prio, 123);
	CHECK_EQ(child->sched.prio, 124);		/* its first turn: one stair below */
	CHECK(child->sched.flags & SF_NEWBORN);
	CHECK_EQ(child->sched.slice, 166);
	CHECK_EQ(child->sched.time_slice, 6);
	CHECK_EQ(child->sched.burst, 0);
	CHECK(parent->flags & SF_FORKED);
	CHECK(child->sched.on_rq);
	CHECK_EQ(child->sched.cpu, 0);
	CHECK(cpu_rq(0)->queue[124].prev == &child->sched.run_list);	/* tail */
	CHECK(!fake_need_resched[0]);		/* no child-runs-first */
}

/* staircase.md §6.6: forks put nothing on the parent's stair. A task
 * that wakes on that stair runs before every child of a fork loop, and
 * the child keeps its lower stair if the balancer moves it before it ran;
 * once it has run, its stair is its own again. */
TEST(fork_children_wait_below_the_parents_stair)
{
	struct sched_task *parent = spawn();
	fake_schedule(0);
	struct sched_task *kids[8];
	for (int i = 0; i < 8; i++) {
		kids[i] = &fake_new_task(0, 1000, 1000)->sched;
		sched_fork(parent, kids[i]);
		sched_wake_new(kids[i]);
		CHECK_EQ(kids[i]->prio, 121);
	}
	struct runqueue *rq = cpu_rq(0);
	spin_lock(&rq->lock);
	dequeue_task(rq, kids[0]);
	attach_task(rq, rq, kids[0]);		/* a move keeps the newborn's stair */
	spin_unlock(&rq->lock);
	CHECK_EQ(kids[0]->prio, 121);
	for (int i = 0; i < 10; i++)
		tick0();			/* the parent's quantum at 120 */
	CHECK(rq->curr != parent);
	CHECK(!(rq->curr->flags & SF_NEWBORN));	/* it ran: the flag is gone */
}

TEST(nice_change_moves_prio_by_delta)
{
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	for (int i = 0; i < 10; i++)
		tick0();			/* a: 121; b runs at 120 */
	CHECK(fake_curr(0) == b);
	CHECK_EQ(a->prio, 121);
	sched_set_user_nice(a, 3);		/* queued, fell: no resched */
	CHECK_EQ(a->prio, 124);
	CHECK(!fake_need_resched[0]);
	sched_set_user_nice(a, -5);		/* rose: resched */
	CHECK_EQ(a->prio, 116);
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == a);
	sched_set_user_nice(a, 10);		/* running and fell: resched */
	CHECK_EQ(a->prio, 131);
	CHECK(fake_need_resched[0]);
	sched_set_user_nice(a, 19);		/* never below 139 */
	CHECK_EQ(a->prio, 139);
}

/* ---- the wake-up protocol ---- */

TEST(wakeup_before_schedule_is_not_lost)
{
	struct sched_task *t = spawn();
	fake_schedule(0);
	sched_set_current_state(TASK_INTERRUPTIBLE);
	CHECK(sched_wake_up(t));		/* the waker comes first */
	CHECK_EQ(t->state, TASK_RUNNING);
	fake_schedule(0);
	CHECK(fake_curr(0) == t);		/* it never left the queue */
	CHECK(t->on_rq);
	CHECK(!sched_wake_up(t));		/* already running: nothing to do */
}

TEST(sleeping_task_leaves_queue_and_idle_runs)
{
	struct sched_task *t = spawn();
	fake_schedule(0);
	fake_sleep(0, TASK_UNINTERRUPTIBLE);
	CHECK(!t->on_rq);
	CHECK(fake_curr(0)->is_idle);
	CHECK_EQ(cpu_rq(0)->nr_running, 0);
	CHECK(sched_wake_up(t));
	CHECK(fake_need_resched[0]);
	fake_resched_pending();
	CHECK(fake_curr(0) == t);
}

TEST(stats_count_runs_wait_and_ticks)
{
	struct sched_task *a = spawn(), *b = spawn();
	fake_schedule(0);
	for (int i = 0; i < 10; i++)
		tick0();
	CHECK(fake_curr(0) == b);
	CHECK_EQ(a->stats.nr_runs, 1);
	CHECK_EQ(b->stats.nr_runs, 1);
	CHECK_EQ(b->stats.wait_ns, 10 * TICK_NS);
	CHECK_EQ(a->stats.utime, 10);
	fake_now_ns += TICK_NS;
	fake_tick(0, false);
	CHECK_EQ(b->stats.stime, 1);
	CHECK_EQ(cpu_rq(0)->system_ticks, 1);
	CHECK_EQ(cpu_rq(0)->user_ticks, 10);
}

/* ---- the policy table (policy.h): every hook named ---- */

/* The hooks of struct sched_policy, by name and place. */
static const struct { const char *name; size_t offset; } policy_hooks[] = {
#define HOOK(h) { #h, offsetof(struct sched_policy, h) }
	HOOK(rr_interval), HOOK(max_burst), HOOK(full_slice),
	HOOK(effective_prio), HOOK(first_quantum), HOOK(tick), HOOK(rq_tick),
	HOOK(wake), HOOK(smt_rule), HOOK(yield), HOOK(rr_get_interval),
#undef HOOK
};
#define NR_HOOKS (sizeof(policy_hooks) / sizeof(policy_hooks[0]))

static void *hook_at(const struct sched_policy *p, size_t offset)
{
	void *fn;
	memcpy(&fn, (const char *)p + offset, sizeof(fn));
	return fn;
}

/* Every table names every hook (a count of the struct's pointers after
 * prio_max keeps the list above complete). */
TEST(every_policy_table_names_every_hook)
{
	CHECK_EQ(sizeof(struct sched_policy) - offsetof(struct sched_policy, rr_interval),
		 NR_HOOKS * sizeof(void *));
	for (int i = 0; i < SCHED_NR_POLICIES; i++) {
		CHECK(sched_policies[i] != NULL);
		CHECK_EQ(sched_policies[i]->number, i);
		for (size_t h = 0; h < NR_HOOKS; h++)
			if (!hook_at(sched_policies[i], policy_hooks[h].offset))
				test_fail(__FILE__, __LINE__, "%s has no %s hook",
					  sched_policies[i]->name, policy_hooks[h].name);
	}
}

/* The boot's check (sched_init -> sched_check_policies) stops at a NULL
 * hook, naming it: one copy of SCHED_NORMAL's table per hook, with that
 * hook taken out. */
TEST(a_null_hook_fails_the_boot_check)
{
#ifndef NDEBUG			/* KASSERT is compiled out with NDEBUG */
	static jmp_buf jb;
	static size_t h;
	jmp_buf *saved = fake_assert_jmp;
	for (h = 0; h < NR_HOOKS; h++) {
		static struct sched_policy broken;
		broken = policy_normal;
		memset((char *)&broken + policy_hooks[h].offset, 0, sizeof(void *));
		fake_assert_jmp = &jb;
		if (setjmp(jb) == 0) {
			check_policy_hooks(&broken);
			fake_assert_jmp = saved;
			test_fail(__FILE__, __LINE__, "no KASSERT without %s",
				  policy_hooks[h].name);
			return;
		}
		fake_assert_jmp = saved;
		char want[64];
		snprintf(want, sizeof(want), "p->%s at", policy_hooks[h].name);
		CHECK(strstr(fake_assert_msg, want) != NULL);
	}
	check_policy_hooks(&policy_normal);	/* the real table passes */
#endif
}
