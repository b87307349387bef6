/*
 * test_sd.c - lineage mode's sd, Kolivas's Staircase Deadline (2007)
 * (docs/sd.md): one test per rule, named after it.
 */
#include "test.h"
#include "../../sched/sd.h"
#include "../../sched/core.h"
#include "../../sched/policy.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"

#define MS	1000000ull

static void boot_sd(void)
{
	fake_class = "sd";
	fake_boot(1, NULL);
	sim_reset();
}

static struct sched_task *sleeper(void)
{
	struct sched_task *t = &fake_new_task(0, 1000, 1000)->sched;
	t->state = TASK_INTERRUPTIBLE;
	return t;
}

static struct sched_task *hog(void)
{
	return &sim_add(0, 0, 0)->proc->sched;
}

static void ticks(int n)
{
	for (int i = 0; i < n; i++)
		tick0();
}

/* A sleeper that ran `run` ticks of its first quota at 120, beside a hog
 * (the hog, queued after it, has not run yet); NULL if it did not go so. */
static struct sched_task *sleeper_beside_hog(struct sched_task **h, int run)
{
	struct sched_task *s = sleeper();
	sched_wake_up(s);
	*h = hog();
	if (fake_schedule(0) != s)
		return NULL;
	ticks(run);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	return fake_curr(0) == *h ? s : NULL;
}

/* ---- §1: the quotas ---- */

TEST(sd_quota_is_rr_interval_at_each_level_from_nice_down)
{
	struct sched_task t = { 0 };
	CHECK_EQ(sd_rr_ticks(), 8);			/* 8 ms at HZ 1000 */
	t.static_prio = NICE_TO_PRIO(0);
	CHECK_EQ(sd_levels(&t), 20);
	t.static_prio = NICE_TO_PRIO(-20);
	CHECK_EQ(sd_levels(&t), 40);
	t.static_prio = NICE_TO_PRIO(19);
	CHECK_EQ(sd_levels(&t), 1);
}

/* ---- §2: a task's quota at each level ---- */

TEST(sd_used_quota_drops_the_task_one_level)
{
	boot_sd();
	struct sched_task *h = hog();
	CHECK(fake_schedule(0) == h);
	CHECK_EQ(h->prio, 120);
	ticks(7);
	CHECK_EQ(h->prio, 120);
	ticks(1);
	CHECK_EQ(h->prio, 121);
	CHECK_EQ(h->time_slice, 8);			/* a fresh quota there */
}

/* Out of quota at 139 (nice 19 has only that level): expired until no
 * task is left active; then the major rotation gives fresh quotas. */
TEST(sd_out_of_quota_waits_expired_for_the_major_rotation)
{
	boot_sd();
	struct sched_task *a = hog(), *b = hog();
	sched_set_user_nice(a, 19);
	sched_set_user_nice(b, 19);
	struct sched_task *first = fake_schedule(0);
	struct sched_task *second = first == a ? b : a;
	uint32_t rotation = cpu_rq(0)->sdl.rotation;
	CHECK_EQ(first->prio, 139);
	ticks(8);
	CHECK(first->sdl.expired);
	CHECK_EQ(cpu_rq(0)->sdl.nr_expired, 1);
	CHECK(fake_curr(0) == second);
	ticks(8);					/* both expired: the rotation */
	CHECK_EQ(cpu_rq(0)->sdl.rotation, rotation + 1);
	CHECK(!first->sdl.expired && !second->sdl.expired);
	CHECK_EQ(cpu_rq(0)->sdl.nr_active, 2);
	CHECK(fake_curr(0) == first);
	CHECK_EQ(first->time_slice, 8);
}

/* ---- §3: the level's quota and the minor rotation ---- */

/* The level's quota is the sum of those that entered it; every tick
 * spends the best open level's, whoever runs. Spent, the level closes:
 * a sleeper that kept its quota there wakes one level down. */
TEST(sd_minor_rotation_closes_a_spent_level)
{
	boot_sd();
	struct sched_task *h, *s = sleeper_beside_hog(&h, 0);
	CHECK(s);
	CHECK_EQ(cpu_rq(0)->sdl.quota[20], 16);		/* level 120: two quotas */
	ticks(8);					/* the hog's quota at 120 */
	CHECK_EQ(h->prio, 121);
	CHECK_EQ(cpu_rq(0)->sdl.prio_level, 120);	/* the sleeper's quota keeps it open */
	ticks(8);					/* spent by the hog at 121 */
	CHECK_EQ(cpu_rq(0)->sdl.prio_level, 121);
	sched_wake_up(s);
	CHECK_EQ(s->prio, 121);
	CHECK_EQ(s->time_slice, 8);
}

TEST(sd_minor_rotation_moves_the_tasks_left_one_level_down)
{
	boot_sd();
	struct sched_task *a = hog(), *b = hog();
	fake_schedule(0);
	cpu_rq(0)->sdl.quota[20] = 3;			/* the level's quota, nearly spent */
	ticks(3);
	CHECK_EQ(cpu_rq(0)->sdl.prio_level, 121);
	CHECK_EQ(a->prio, 121);
	CHECK_EQ(b->prio, 121);
	CHECK_EQ(a->time_slice, 8);			/* fresh quotas at 121 */
	CHECK_EQ(b->time_slice, 8);
}

/* ---- §4: no sleep bonus ---- */

TEST(sd_sleeper_keeps_its_level_and_quota)
{
	boot_sd();
	struct sched_task *h, *s = sleeper_beside_hog(&h, 3);
	CHECK(s);
	ticks(2);
	fake_now_ns += 10000 * MS;			/* a long sleep earns nothing */
	sched_wake_up(s);
	CHECK_EQ(s->prio, 120);
	CHECK_EQ(s->time_slice, 5);
}

TEST(sd_wakeup_preempts_only_from_a_better_level)
{
	boot_sd();
	struct sched_task *h, *s = sleeper_beside_hog(&h, 3);
	CHECK(s);
	fake_need_resched[0] = false;
	struct sched_task *w = sleeper();
	sched_wake_up(w);				/* a new task at 120, as the hog */
	CHECK_EQ(w->prio, 120);
	CHECK(!fake_need_resched[0]);
	boot_sd();
	s = sleeper_beside_hog(&h, 3);
	CHECK(s);
	ticks(8);					/* the hog to 121 */
	CHECK_EQ(h->prio, 121);
	fake_need_resched[0] = false;
	sched_wake_up(s);				/* 120: better */
	CHECK(fake_need_resched[0]);
}

/* ---- §5: fork, yield, nice ---- */

TEST(sd_fork_splits_the_quota_with_the_child)
{
	boot_sd();
	struct sched_task *parent = hog();
	fake_schedule(0);
	ticks(3);					/* 5 left at 120 */
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	sched_fork(parent, &child->sched);
	CHECK_EQ(child->sched.time_slice, 3);
	CHECK_EQ(parent->time_slice, 2);
	CHECK_EQ(child->sched.prio, 120);
}

TEST(sd_yield_goes_to_the_expired_array)
{
	boot_sd();
	hog();
	hog();
	struct sched_task *t = fake_schedule(0);
	sched_do_yield();
	CHECK(t->sdl.expired);
	fake_resched_pending();
	CHECK(fake_curr(0) != t);
}

TEST(sd_worse_nice_closes_levels_better_nice_waits_for_the_rotation)
{
	boot_sd();
	struct sched_task *a = hog(), *b = hog();
	fake_schedule(0);
	sched_set_user_nice(a, 10);
	CHECK_EQ(a->prio, 130);
	sched_set_user_nice(b, -5);
	CHECK_EQ(b->prio, 120);				/* no level handed out */
}

/* ---- §6: BATCH, ISO ---- */

TEST(sd_woken_batch_task_never_preempts)
{
	boot_sd();
	struct sched_task *h, *s = sleeper_beside_hog(&h, 3);
	CHECK(s);
	s->policy = SCHED_BATCH;
	ticks(8);					/* the hog to 121 */
	fake_need_resched[0] = false;
	sched_wake_up(s);				/* 120, but BATCH */
	CHECK_EQ(s->prio, 120);
	CHECK(!fake_need_resched[0]);
}

TEST(sd_has_no_sched_iso)
{
	boot_sd();
	fake_spawn(0, 1000, 1000);
	fake_schedule(0);
	CHECK_EQ(sys_sched_setscheduler(0, SCHED_ISO, user_param(0)), -EINVAL);
}

/* §1: hogs at nice 0, 10, 19 share by their levels, 20 : 10 : 1. */
TEST(sd_hogs_share_by_their_number_of_levels)
{
	boot_sd();
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0), *c = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 10);
	sched_set_user_nice(&c->proc->sched, 19);
	sim_run(31 * 8 * 20);
	CHECK(sim_share(a, 31 * 8 * 20) > 0.62 && sim_share(a, 31 * 8 * 20) < 0.67);
	CHECK(sim_share(b, 31 * 8 * 20) > 0.30 && sim_share(b, 31 * 8 * 20) < 0.35);
	CHECK(sim_share(c, 31 * 8 * 20) > 0.02 && sim_share(c, 31 * 8 * 20) < 0.05);
}
