/*
 * test_share.c - CPU shares from simulated runs (staircase.md §7 and §10),
 * and the ISO cap iso_cpu [beyond].
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"

#define SECONDS(s) ((s) * FAKE_HZ)

static struct sim_task *add_iso(int run, int sleep)
{
	struct sim_task *t = sim_add(0, run, sleep);
	sched_set_policy(&t->proc->sched, SCHED_ISO, 0);
	return t;
}

TEST(share_nice0_vs_nice10_about_2_to_1)
{
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 10);
	sim_run(SECONDS(20));
	double ratio = (double)a->ran / (double)b->ran;
	CHECK_EQ(a->ran + b->ran, SECONDS(20));
	CHECK_RANGE(ratio, 1.8, 2.2);
}

TEST(share_nice0_vs_nice19_about_20_to_1)
{
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 19);
	sim_run(SECONDS(20));
	double ratio = (double)a->ran / (double)b->ran;
	CHECK_RANGE(ratio, 18, 22);
}

TEST(share_normal_vs_batch_batch_gets_nothing)
{
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_policy(&b->proc->sched, SCHED_BATCH, 0);
	sim_run(SECONDS(5));
	CHECK_EQ(b->ran, 0);
	CHECK_EQ(a->ran, SECONDS(5));
}

/* staircase.md §10.5: "run 4 ms, sleep 1 ms" tasks starve a hog of the same nice. */
TEST(share_two_4ms_1ms_normal_tasks_starve_a_hog)
{
	struct sim_task *hog = sim_add(0, 0, 0);
	sim_add(0, 4, 1);
	sim_add(0, 4, 1);
	sim_run(SECONDS(60));
	CHECK_RANGE(sim_share(hog, SECONDS(60)), 0, 0.02);
}

TEST(iso_cpu_100_two_hostile_iso_tasks_starve_hog)
{
	tunables.iso_cpu = 100;
	struct sim_task *hog = sim_add(0, 0, 0);
	/* two NORMAL tasks just as hostile: as NORMAL, the four would share */
	struct sim_task *n1 = sim_add(0, 4, 1), *n2 = sim_add(0, 4, 1);
	add_iso(4, 1);
	add_iso(4, 1);
	sim_run(SECONDS(60));
	CHECK_RANGE(sim_share(hog, SECONDS(60)), 0, 0.02);
	/* it is ISO that starves them, not the brief sleeps: ISO runs ahead
	 * of NORMAL tasks that sleep just as briefly, and the CPU counts its
	 * ticks as ISO time */
	CHECK_RANGE(sim_share(n1, SECONDS(60)) + sim_share(n2, SECONDS(60)), 0, 0.02);
	CHECK_RANGE(iso_share_permille(cpu_rq(0)), 950, 1000);
	CHECK_EQ(fake_trace_count(TRACE_ISO_THROTTLE, -1), 0);
}

TEST(iso_cpu_70_hog_gets_about_31_percent)
{
	struct sim_task *hog = sim_add(0, 0, 0);
	struct sim_task *i1 = add_iso(4, 1), *i2 = add_iso(4, 1);
	sim_run(SECONDS(60));
	double h = sim_share(hog, SECONDS(60));
	double iso = sim_share(i1, SECONDS(60)) + sim_share(i2, SECONDS(60));
	CHECK_RANGE(h, 0.27, 0.35);
	CHECK_RANGE(iso, 0.65, 0.73);
}

TEST(iso_cpu_honest_audio_task_never_demoted)
{
	struct sim_task *hog = sim_add(0, 0, 0);
	struct sim_task *audio = add_iso(3, 47);
	sim_run(SECONDS(60));
	CHECK_EQ(fake_trace_count(TRACE_ISO_THROTTLE, -1), 0);
	CHECK_RANGE(sim_share(audio, SECONDS(60)), 0.055, 0.065);
	CHECK_RANGE(sim_share(hog, SECONDS(60)), 0.93, 0.95);
	CHECK_RANGE(cpu_rq(0)->iso_avg * 1000 >> 30, 50, 70);
}

/*
 * The decaying average has a 5 s time constant: an ISO hog alone reaches
 * 70 % after 5 ln(1/0.3) = 6.02 s; asleep, the share falls from 70 % to
 * 63 % (90 % of iso_cpu) in 5 ln(70/63) = 0.53 s.
 */
TEST(iso_cpu_demotion_and_recovery)
{
	struct sim_task *iso = add_iso(0, 0);
	struct sim_task *iso2 = add_iso(0, 0);
	struct sched_task *t = &iso->proc->sched, *t2 = &iso2->proc->sched;
	int ticks = 0;
	while (!cpu_rq(0)->iso_throttled && ticks < SECONDS(10)) {
		sim_step();
		ticks++;
	}
	CHECK_RANGE(ticks, 5950, 6100);
	sim_step();
	/* both ISO tasks now scheduled as BATCH, the queued one requeued too */
	CHECK_EQ(t->prio, 140);
	CHECK_EQ(t2->prio, 140);
	/* still running (nothing else wants the CPU), so still throttled */
	sim_run(SECONDS(2));
	CHECK(cpu_rq(0)->iso_throttled);
	/* both sleep: the share decays until it is under 63 % */
	iso->run_ticks = iso2->run_ticks = 1;
	iso->left = iso2->left = 0;
	iso->sleep_ticks = iso2->sleep_ticks = SECONDS(100);
	int share_at_sleep = cpu_rq(0)->iso_avg * 1000 >> 30;
	CHECK_RANGE(share_at_sleep, 750, 800);
	ticks = 0;
	while (cpu_rq(0)->iso_throttled && ticks < SECONDS(10)) {
		sim_step();
		ticks++;
	}
	/* from ~78 % down to 63 %: 5 ln(share / 0.63) s */
	CHECK_RANGE(ticks, 900, 1250);
	CHECK_EQ(fake_trace_count(TRACE_ISO_THROTTLE, -1), 2);
	fake_now_ns += TICK_NS;
	sched_wake_up(t);
	CHECK_EQ(t->prio, 110);
}

TEST(iso_cpu_throttled_iso_yields_to_normal)
{
	struct sim_task *iso = add_iso(0, 0);
	struct sim_task *hog = sim_add(0, 0, 0);
	cpu_rq(0)->iso_avg = (1ull << 30) * 71 / 100;	/* as if 71 % already */
	sim_run(10);
	CHECK(cpu_rq(0)->iso_throttled);
	uint64_t before = iso->ran;
	sim_run(300);
	CHECK_EQ(iso->ran, before);
	CHECK(hog->ran >= 300);
}
