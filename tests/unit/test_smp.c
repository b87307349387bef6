/*
 * test_smp.c - staircase.md §8: the SMT dependent-sleeper rule, wake-up
 * placement, load balancing and affinity, on fake topologies.
 */
#include "test.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../sched/runqueue.h"
#include "../../sched/balance.h"
#include "../../sched/syscalls.h"
#include "../../lib/errno.h"
#include <string.h>



static int core_of(int cpu)	/* for boot_topology(1, cores, 2) */
{
	return cpu / 2;
}

/* ---- SMT rule (staircase.md §8.3) ---- */

TEST(smt_topology_builds_domains)
{
	boot_topology(1, 2, 2);
	CHECK_EQ(cpu_rq(0)->siblings, 0x3);
	CHECK_EQ(cpu_rq(3)->siblings, 0xc);
	CHECK_EQ(cpu_rq(0)->nr_domains, 2);		/* SMT, cores; one package */
	CHECK_EQ(cpu_rq(0)->sd[0].level, SD_SMT);
	CHECK_EQ(cpu_rq(0)->sd[1].level, SD_CORE);
	CHECK_EQ(cpu_rq(0)->sd[1].ngroups, 2);
	CHECK_EQ(cpu_rq(0)->sd[1].groups[1], 0xc);
	boot_topology(2, 2, 2);
	CHECK_EQ(cpu_rq(5)->nr_domains, 3);
	CHECK_EQ(cpu_rq(5)->sd[2].groups[0], 0x0f);
	CHECK_EQ(cpu_rq(5)->sd[2].groups[1], 0xf0);
}

TEST(smt_batch_never_shares_a_core_with_normal_work)
{
	boot_topology(1, 1, 2);
	pinned(0, SCHED_NORMAL, 0);
	struct sched_task *b = pinned(1, SCHED_BATCH, 0);
	for (int i = 0; i < 300; i++)
		sim_step();
	CHECK_EQ(b->stats.nr_runs, 0);
	CHECK(fake_curr(1)->is_idle);
	CHECK(fake_trace_count(TRACE_SMT_IDLE, -1) > 0);
}

TEST(smt_two_batch_siblings_both_run)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_BATCH, 0);
	struct sched_task *b = pinned(1, SCHED_BATCH, 0);
	sim_run(10);
	CHECK(fake_curr(0) == a);
	CHECK(fake_curr(1) == b);
}

TEST(smt_normal_waits_while_sibling_runs_rt)
{
	boot_topology(1, 1, 2);
	struct sched_task *rt = pinned(0, SCHED_FIFO, 0);
	struct sched_task *n = pinned(1, SCHED_NORMAL, 0);
	sim_run(100);
	CHECK(fake_curr(0) == rt);
	CHECK_EQ(n->stats.nr_runs, 0);
}

TEST(smt_rt_task_runs_and_makes_normal_sibling_reschedule)
{
	boot_topology(1, 1, 2);
	struct sched_task *n = pinned(1, SCHED_NORMAL, 0);
	sim_run(5);
	CHECK(fake_curr(1) == n);
	struct sched_task *rt = pinned(0, SCHED_FIFO, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == rt);		/* RT never waits */
	CHECK(fake_need_resched[1]);		/* the NORMAL sibling is told */
	fake_schedule(1);
	CHECK(fake_curr(1)->is_idle);
}

TEST(smt_task_with_much_less_slice_waits)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_NORMAL, 0);	/* full slice 200 */
	struct sched_task *b = pinned(1, SCHED_NORMAL, 19);	/* full slice 10 */
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	CHECK_EQ(a->slice, 200);
	fake_schedule(1);			/* 200 * 75 / 100 > 10: b waits */
	CHECK(fake_curr(1)->is_idle);
	a->slice = 15;				/* 11 > 10: still waits */
	fake_schedule(1);
	CHECK(fake_curr(1)->is_idle);
	a->slice = 14;				/* 10 > 10 is false: b runs */
	fake_schedule(1);
	CHECK(fake_curr(1) == b);
	tunables.per_cpu_gain = 100;		/* a second thread is a whole CPU */
	a->slice = 200;
	fake_schedule(1);
	CHECK(fake_curr(1) == b);
}

TEST(smt_sibling_with_little_slice_is_made_to_reschedule)
{
	boot_topology(1, 1, 2);
	struct sched_task *b = pinned(1, SCHED_NORMAL, 19);
	fake_schedule(1);
	CHECK(fake_curr(1) == b);
	struct sched_task *a = pinned(0, SCHED_NORMAL, 0);
	fake_need_resched[1] = false;
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	CHECK(fake_need_resched[1]);		/* 200 * 75 / 100 > full_slice(b) = 10 */
}

TEST(smt_idle_sibling_with_queued_work_is_woken)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_NORMAL, 0);
	pinned(1, SCHED_NORMAL, 19);
	fake_schedule(0);
	fake_schedule(1);
	CHECK(fake_curr(1)->is_idle);		/* held back by the rule */
	fake_need_resched[1] = false;
	cpu_rq(0)->curr = a;
	fake_sleep(0, TASK_INTERRUPTIBLE);	/* a sleeps: cpu0 goes idle ... */
	CHECK(fake_curr(0)->is_idle);
	CHECK(fake_need_resched[1]);		/* ... and wakes its sibling */
	fake_schedule(1);
	CHECK(!fake_curr(1)->is_idle);
}

TEST(smt_rule_is_for_user_tasks_only)
{
	boot_topology(1, 1, 2);
	struct sched_task *a = pinned(0, SCHED_FIFO, 0);
	struct sched_task *k = pinned(1, SCHED_NORMAL, 0);
	k->is_kthread = true;
	fake_schedule(0);
	CHECK(fake_curr(0) == a);
	fake_schedule(1);
	CHECK(fake_curr(1) == k);
}

/* ---- wake-up placement ---- */

TEST(wake_prefers_a_fully_idle_core_over_an_idle_sibling)
{
	boot_topology(1, 2, 2);
	struct fake_proc *a = fake_spawn(0, 0, 0);
	struct fake_proc *b = fake_spawn(0, 0, 0);
	sched_set_user_nice(&a->sched, -5);		/* a: 115 */
	fake_schedule(0);
	CHECK(fake_curr(0) == &a->sched);
	/* b: take it off cpu0's queue as if it had run there and slept */
	cpu_rq(0)->curr = &b->sched; b->sched.on_cpu = 1; a->sched.on_cpu = 0;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == &a->sched);
	fake_now_ns += 50 * TICK_NS;
	sched_wake_up(&b->sched);			/* 120 would not preempt 115 */
	CHECK_EQ(core_of(b->sched.cpu), 1);
}

TEST(wake_stays_on_last_cpu_when_it_would_preempt)
{
	boot_topology(1, 2, 2);
	struct fake_proc *a = fake_spawn(0, 0, 0);
	struct fake_proc *b = fake_spawn(0, 0, 0);
	sched_set_user_nice(&b->sched, -5);		/* b wakes at 115 */
	fake_schedule(0);
	cpu_rq(0)->curr = &b->sched; b->sched.on_cpu = 1; a->sched.on_cpu = 0;
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == &a->sched);
	for (int i = 0; i < 5; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
	fake_now_ns += 50 * TICK_NS;
	sched_wake_up(&b->sched);
	CHECK_EQ(b->sched.cpu, 0);
	CHECK(fake_need_resched[0]);
}

/* A queued task that a balancer pulls to another CPU between
 * select_task_cpu()'s read of t->cpu and its lock of that queue (make
 * stress, seed 127101039: the predict_activation assertion, via
 * sched_setaffinity's migrate_queued_task). The lock hook plays the
 * balancer. */
static struct fake_proc *pulled;
static void pull_when_rq0_locked(struct spinlock *l)
{
	if (pulled && l == &cpu_rq(0)->lock) {
		pulled->sched.cpu = 1;
		pulled = NULL;
	}
}

TEST(placement_of_a_task_pulled_meanwhile_reads_no_queue_it_left)
{
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(0, 0, 0), *b = fake_spawn(0, 0, 0);
	struct fake_proc *c = fake_spawn(1, 0, 0);
	fake_schedule(0);
	fake_schedule(1);
	CHECK(fake_curr(0) == &a->sched && fake_curr(1) == &c->sched && b->sched.on_rq);
	pulled = b;
	fake_lock_hook = pull_when_rq0_locked;
	int cpu = select_task_cpu(&b->sched);	/* asserted before the fix */
	fake_lock_hook = NULL;
	CHECK(pulled == NULL);			/* the pull happened */
	CHECK(cpu == 0 || cpu == 1);
	b->sched.cpu = 0;				/* undo the play */
}

/* ---- load balancing ---- */

static bool on_different_cores(struct sched_task *a, struct sched_task *b)
{
	return core_of(a->cpu) != core_of(b->cpu);
}

TEST(balance_two_hogs_queued_on_one_cpu_end_on_different_cores)
{
	boot_topology(1, 2, 2);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sim_run(200);
	CHECK(on_different_cores(&a->proc->sched, &b->proc->sched));
	CHECK_EQ(fake_migrated_running, 0);
	sim_run(1000);
	CHECK(on_different_cores(&a->proc->sched, &b->proc->sched));
	CHECK_RANGE(a->ran, 1150, 1200);
	CHECK_RANGE(b->ran, 1150, 1200);
}

TEST(balance_two_hogs_on_sibling_threads_spread_to_idle_core)
{
	boot_topology(1, 2, 2);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(1, 0, 0);
	fake_resched_pending();
	CHECK(fake_curr(0) == &a->proc->sched);	/* both running, one core */
	CHECK(fake_curr(1) == &b->proc->sched);
	sim_run(100);
	CHECK(on_different_cores(&a->proc->sched, &b->proc->sched));
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 1);	/* one move, no ping-pong */
	sim_run(1000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 1);
	CHECK_EQ(fake_migrated_running, 0);
}

TEST(balance_four_hogs_on_4_cores_x_2_threads_one_per_core)
{
	boot_topology(1, 4, 2);
	struct sim_task *t[4];
	for (int i = 0; i < 4; i++)
		t[i] = sim_add(0, 0, 0);
	sim_run(500);
	int per_core[4] = { 0 };
	for (int i = 0; i < 4; i++)
		per_core[core_of(t[i]->proc->sched.cpu)]++;
	for (int c = 0; c < 4; c++)
		CHECK_EQ(per_core[c], 1);
	CHECK_EQ(fake_migrated_running, 0);
}

TEST(balance_two_packages_spread_across_packages)
{
	boot_topology(2, 1, 1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sim_run(100);
	CHECK(a->proc->sched.cpu != b->proc->sched.cpu);
}

/* A 2:1 split is "balanced" by the threshold, but the task alone would get
 * 100 % and the other two 50 %: the balancer rotates which task is alone
 * (issue 6: three hogs on 2 CPUs each get 67 % within 12 points). */
TEST(balance_three_hogs_on_two_cpus_share_fairly)
{
	boot_topology(2, 1, 1);
	struct sim_task *t[3];
	for (int i = 0; i < 3; i++)
		t[i] = sim_add(0, 0, 0);
	sim_run(3000);
	for (int i = 0; i < 3; i++)
		CHECK_RANGE(t[i]->ran, 1650, 2350);	/* 2000 +- 350 ticks (12 points) */
	CHECK_EQ(fake_migrated_running, 0);
}

TEST(balance_five_hogs_on_two_siblings_share_fairly)
{
	boot_topology(1, 1, 2);
	struct sim_task *t[5];
	for (int i = 0; i < 5; i++)
		t[i] = sim_add(i % 2, 0, 0);
	sim_run(4000);
	for (int i = 0; i < 5; i++)
		CHECK_RANGE(t[i]->ran, 1600 - 300, 1600 + 300);
	CHECK_EQ(fake_migrated_running, 0);
}

/* ---- rotation [beyond] (staircase.md §8.2) ---- */

/* hogs CPU hogs, all queued on CPU 0 of a packages x cores x threads machine. */
static struct sim_task **start_hogs(int packages, int cores, int threads, int hogs)
{
	static struct sim_task *t[SIM_MAX];

	boot_topology(packages, cores, threads);
	sim_reset();
	for (int i = 0; i < hogs; i++)
		t[i] = sim_add(0, 0, 0);
	return t;
}

/* Uneven splits, within the imbalance threshold, that pulling alone would
 * freeze (§8.2's table): over 6 s each hog gets its M/H of a CPU, +-8 %. */
TEST(rotation_evens_out_uneven_splits)
{
	static const struct { int packages, cores, threads, hogs; } split[] = {
		{ 2, 1, 1, 3 },		/* 2 CPUs: 2:1 */
		{ 1, 4, 1, 5 },		/* 4 CPUs: 2:1:1:1 */
		{ 1, 4, 1, 6 },
		{ 1, 4, 1, 7 },
		{ 1, 8, 1, 12 },	/* the case: four pairs, four alone */
		{ 1, 4, 2, 10 },	/* 4 cores x 2 threads */
		{ 2, 2, 1, 5 },		/* 2 packages x 2 cores */
		{ 2, 2, 2, 12 },	/* 2 packages x 2 cores x 2 threads */
	};
	for (unsigned k = 0; k < sizeof(split) / sizeof(split[0]); k++) {
		int ncpus = split[k].packages * split[k].cores * split[k].threads;
		struct sim_task **t = start_hogs(split[k].packages, split[k].cores,
						 split[k].threads, split[k].hogs);
		double ideal = 6000.0 * ncpus / split[k].hogs;
		sim_run(6000);
		for (int i = 0; i < split[k].hogs; i++)
			CHECK_RANGE(t[i]->ran, ideal * 0.92, ideal * 1.08);
		CHECK_EQ(fake_migrated_running, 0);
	}
}

/* The CPU alone goes to the task that has waited the largest part of its
 * life: 15 hogs on 8 CPUs (one alone at a time), 20 s, each within 5 % of
 * 8/15 of a CPU (10,667 ticks). Leaving out the task the taker already
 * runs from that comparison lets three hogs in fifteen fall to 50 %. */
TEST(rotation_leaves_the_neediest_task_alone)
{
	struct sim_task **t = start_hogs(1, 8, 1, 15);
	sim_run(20000);
	for (int i = 0; i < 15; i++)
		CHECK_RANGE(t[i]->ran, 10133, 11200);
}

/* sched_rotate=0 is the seed's balancer: 12 hogs on 8 CPUs settle as four
 * pairs and four alone, and stay so (every hog at 100 % or 50 %). */
TEST(rotation_off_leaves_the_seeds_frozen_split)
{
	struct sim_task **t = start_hogs(1, 8, 1, 12);
	int alone = 0, paired = 0;

	tunables.rotate = 0;
	sim_run(200);			/* spread by pulling */
	int moves = fake_trace_count(TRACE_MIGRATE, -1);
	for (int i = 0; i < 12; i++)
		t[i]->ran = 0;
	sim_run(5000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), moves);
	for (int i = 0; i < 12; i++) {
		alone += t[i]->ran == 5000;
		paired += t[i]->ran >= 2400 && t[i]->ran <= 2600;
	}
	CHECK_EQ(alone, 4);
	CHECK_EQ(paired, 8);
}

/* The highest and lowest load among the groups of CPUs of width w (w = 1:
 * CPUs, 2: the cores of a 2-thread machine). */
static int load_spread(int w)
{
	int hi = 0, lo = 1 << 30;

	for (int first = 0; first < fake_ncpus; first += w) {
		int load = 0;
		for (int cpu = first; cpu < first + w; cpu++)
			load += cpu_rq(cpu)->nr_running;
		hi = load > hi ? load : hi;
		lo = load < lo ? load : lo;
	}
	return hi - lo;
}

/* A rotation only mirrors the split: at every tick after the spreading,
 * CPUs differ by at most one task and so do cores (a core whose two
 * threads both have a pair never faces one with a thread alone). */
TEST(rotation_never_unbalances)
{
	start_hogs(1, 8, 1, 11);
	sim_run(200);
	for (int i = 0; i < 3000; i++) {
		sim_step();
		CHECK(load_spread(1) <= 1);
	}
	start_hogs(1, 4, 2, 13);		/* cores: one with two pairs, three with 2+1 */
	sim_run(200);
	for (int i = 0; i < 3000; i++) {
		sim_step();
		CHECK(load_spread(1) <= 1);
		CHECK(load_spread(2) <= 1);
	}
	CHECK(fake_trace_count(TRACE_MIGRATE, -1) > 50);
}

/* The migrations of a run, from the trace (after the first skip records). */
static int migrations(int skip, struct fake_trace_rec *out, int max)
{
	int n = 0;

	for (int i = skip; i < fake_trace_len && n < max; i++)
		if (fake_trace[i].event == TRACE_MIGRATE)
			out[n++] = fake_trace[i];
	return n;
}

/* A rotated task is not sent back at once: the CPU that took it gives
 * nothing for ROTATE_INTERVAL_NS (a task waiting at the tail of its list
 * could otherwise bounce between two CPUs without running). */
TEST(rotation_does_not_bounce_a_task_back)
{
	static struct fake_trace_rec m[4000];
	start_hogs(1, 2, 1, 3);
	sim_run(100);
	int n = migrations(fake_trace_len, m, 0), skip = fake_trace_len;
	sim_run(5000);
	n = migrations(skip, m, 4000);
	CHECK(n >= 10);
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n && m[j].ns < m[i].ns + ROTATE_INTERVAL_NS; j++)
			CHECK(!(m[j].pid == m[i].pid && m[j].arg == m[i].cpu));
}

/* Paced: each CPU gives or takes at most one task by rotation per
 * ROTATE_INTERVAL_NS, so a pair of CPUs sees at most one move in that time.
 * 12 hogs on 8 CPUs: four alone; 15: one alone, which would otherwise take
 * again as soon as it has given. And few: 16-20 moves a second here (at
 * most 30); a task rotated again before it has run made it 66 with 13. */
TEST(rotation_moves_are_paced)
{
	static struct fake_trace_rec m[4000];
	for (int hogs = 12; hogs <= 15; hogs++) {
		uint64_t last[SCHED_MAX_CPUS] = { 0 };
		start_hogs(1, 8, 1, hogs);
		sim_run(200);
		int skip = fake_trace_len;
		sim_run(5000);
		int n = migrations(skip, m, 4000);
		CHECK_RANGE(n, 40, 150);
		for (int i = 0; i < n; i++) {
			int a = m[i].cpu, b = m[i].arg;
			CHECK(!last[a] || m[i].ns - last[a] >= ROTATE_INTERVAL_NS);
			CHECK(!last[b] || m[i].ns - last[b] >= ROTATE_INTERVAL_NS);
			last[a] = last[b] = m[i].ns;
		}
	}
}

/* Turns: of two CPUs that could both take the waiting task, the one that
 * has waited longer for its turn takes it, whatever their numbers. */
TEST(rotation_takes_turns)
{
	for (int older = 1; older <= 2; older++) {
		boot_topology(1, 3, 1);
		struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
		sim_add(1, 0, 0);
		sim_add(2, 0, 0);
		fake_resched_pending();
		a->proc->sched.cpus_allowed = b->proc->sched.cpus_allowed = 0x7;
		cpu_rotation(older)->turn_ns = 1;
		cpu_rotation(3 - older)->turn_ns = 2;
		int skip = fake_trace_len;
		for (int i = 0; i < 1000 && fake_trace_count(TRACE_MIGRATE, -1) == 0; i++)
			sim_step();
		struct fake_trace_rec m[1];
		CHECK_EQ(migrations(skip, m, 1), 1);
		CHECK_EQ(m[0].cpu, older);
		CHECK_EQ(m[0].arg, 0);
		CHECK_EQ(cpu_rotation(0)->turn_ns, m[0].ns);	/* the giver goes last */
	}
}

/* Pinned tasks stay, however uneven: rotation moves only the free ones. */
TEST(rotation_never_moves_a_pinned_task)
{
	boot_topology(1, 4, 1);
	struct sched_task *p0 = pinned(0, SCHED_NORMAL, 0), *p1 = pinned(0, SCHED_NORMAL, 0);
	sim_add_task(fake_of(p0), 0, 0);
	sim_add_task(fake_of(p1), 0, 0);
	for (int i = 0; i < 4; i++)
		sim_add(1, 0, 0);
	sim_run(5000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, fake_of(p0)->pid), 0);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, fake_of(p1)->pid), 0);
	CHECK(fake_trace_count(TRACE_MIGRATE, -1) > 10);	/* the free ones rotate */
}

/* BATCH hogs are never rotated in front of NORMAL ones: CPU 0 runs a
 * NORMAL hog with a BATCH one waiting, CPU 1 two NORMAL hogs, CPU 2 one.
 * The NORMAL hogs rotate; the BATCH one, waiting behind a NORMAL hog
 * wherever it would go, stays. */
TEST(rotation_never_puts_batch_in_front_of_normal)
{
	fake_boot(3, NULL);
	sim_add(0, 0, 0);
	struct fake_proc *b = fake_spawn(0, 0, 0);
	sched_set_policy(&b->sched, SCHED_BATCH, 0);
	sim_add_task(b, 0, 0);
	sim_add(1, 0, 0);
	sim_add(1, 0, 0);
	sim_add(2, 0, 0);
	sim_run(5000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, b->pid), 0);
	CHECK_EQ(b->sched.stats.nr_runs, 0);
	CHECK(fake_trace_count(TRACE_MIGRATE, -1) > 10);
}

/* Rotation never moves a task that could not run at the other CPU: a
 * BATCH task waiting behind a NORMAL hog stays where it is. */
TEST(balance_rotation_leaves_a_waiting_batch_task_alone)
{
	fake_boot(2, NULL);
	sim_add(0, 0, 0);
	sim_add(1, 0, 0);
	struct fake_proc *b = fake_spawn(0, 0, 0);
	sched_set_policy(&b->sched, SCHED_BATCH, 0);
	sim_add_task(b, 0, 0);
	sim_run(1000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 0);
}

TEST(balance_pinned_tasks_are_never_moved)
{
	fake_boot(2, NULL);
	for (int i = 0; i < 3; i++)
		sim_add_task(fake_of(pinned(0, SCHED_NORMAL, 0)), 0, 0);
	sim_run(1000);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 0);
	CHECK_EQ(cpu_rq(1)->idle_ticks, 1000);
	CHECK_EQ(cpu_rq(0)->nr_running, 3);
}

/* Beside a task that may move, pinned ones are still never pulled: the
 * queue is not skipped as all-pinned, so the per-task rule decides. */
TEST(balance_pinned_tasks_beside_a_free_one_stay)
{
	fake_boot(2, NULL);
	struct fake_proc *free_one = fake_spawn(0, 0, 0);
	sim_add_task(free_one, 0, 0);
	struct sched_task *pin[3];
	for (int i = 0; i < 3; i++) {
		pin[i] = pinned(0, SCHED_NORMAL, 0);
		sim_add_task(fake_of(pin[i]), 0, 0);
	}
	sim_run(1000);
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(fake_trace_count(TRACE_MIGRATE, fake_of(pin[i])->pid), 0);
		CHECK_EQ(pin[i]->cpu, 0);
	}
	CHECK_EQ(free_one->sched.cpu, 1);		/* the free one went to the idle CPU */
}

TEST(balance_never_moves_a_running_task)
{
	fake_boot(4, NULL);
	for (int i = 0; i < 6; i++)
		sim_add(0, 0, 0);
	for (int i = 0; i < 6; i++)
		sim_add(i % 4, 3 + i, 2 + i);
	sim_run(3000);
	CHECK(fake_trace_count(TRACE_MIGRATE, -1) > 0);
	CHECK_EQ(fake_migrated_running, 0);
	/* the hog on a CPU alone stays: 1 running task vs idle is balanced */
	for (int cpu = 0; cpu < 4; cpu++)
		CHECK(rq_bitmap_ok(cpu_rq(cpu)));
}

TEST(balance_single_running_task_is_left_alone)
{
	fake_boot(2, NULL);
	struct sim_task *a = sim_add(0, 0, 0);
	sim_run(500);
	CHECK_EQ(a->proc->sched.cpu, 0);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, -1), 0);
}

TEST(balance_cache_hot_task_moves_only_after_failures)
{
	fake_boot(2, NULL);		/* one package, two cores: cache_nice_tries 1 */
	struct fake_proc *a = fake_spawn(0, 0, 0), *b = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == &a->sched);
	fake_now_ns += 10 * TICK_NS;
	b->sched.stats.last_ran_ns = fake_now_ns - TICK_NS;	/* ran 1 ms ago: hot */
	fake_schedule(1);		/* idle balance: hot, refused (failed 1) */
	CHECK_EQ(b->sched.cpu, 0);
	fake_schedule(1);		/* refused again (failed 2) */
	CHECK_EQ(b->sched.cpu, 0);
	fake_schedule(1);		/* balancing keeps failing: move it */
	CHECK_EQ(b->sched.cpu, 1);
	CHECK(fake_curr(1) == &b->sched);
}

/* ---- affinity (sched_setaffinity semantics) ---- */

TEST(affinity_running_task_leaves_its_cpu_at_once)
{
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == &a->sched);
	uint32_t *m = (void *)fake_user_mem;
	*m = 0x2;
	CHECK_EQ(sys_sched_setaffinity(0, 4, m), 0);
	CHECK(fake_need_resched[0]);
	fake_schedule(0);		/* schedule() hands it over ... */
	CHECK(fake_curr(0)->is_idle);
	CHECK_EQ(a->sched.cpu, 1);		/* ... finish_switch queued it on cpu1 */
	CHECK(a->sched.on_rq);
	CHECK(fake_need_resched[1]);
	fake_schedule(1);
	CHECK(fake_curr(1) == &a->sched);
	/* Moving it while it ran would fail attach_task's KASSERT before any
	 * check here; what can go wrong is the hand-over: one move, and the
	 * MIGRATE flag gone, so that its next switch-out (a sleep) does not
	 * move (and queue) it again. */
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, a->pid), 1);
	CHECK_EQ(a->sched.flags & SF_MIGRATE, 0);
	fake_sleep(1, TASK_INTERRUPTIBLE);
	CHECK(!a->sched.on_rq);
	CHECK_EQ(fake_trace_count(TRACE_MIGRATE, a->pid), 1);
}

TEST(affinity_queued_task_moves_at_once)
{
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(0, 0, 0), *b = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK(fake_curr(0) == &a->sched);
	CHECK_EQ(sched_set_cpus_allowed(&b->sched, 0x2), 0);
	CHECK_EQ(b->sched.cpu, 1);
	CHECK(b->sched.on_rq);
	CHECK_EQ(sched_set_cpus_allowed(&b->sched, 0x4), -EINVAL);	/* offline only */
	CHECK_EQ(b->sched.cpus_allowed, 0x2);
}

TEST(affinity_sleeping_task_is_placed_by_its_wakeup)
{
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(0, 0, 0);
	fake_schedule(0);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK_EQ(sched_set_cpus_allowed(&a->sched, 0x2), 0);
	CHECK_EQ(a->sched.cpu, 0);
	fake_now_ns += 5 * TICK_NS;
	sched_wake_up(&a->sched);
	CHECK_EQ(a->sched.cpu, 1);
}

/* ---- accounting ---- */

/* Per-CPU ticks: BATCH time is nice time (seed 002); ticks the timer lost
 * are charged to whatever ran, for the statistics only. */
TEST(accounting_batch_is_nice_and_lost_ticks_go_to_current)
{
	fake_boot(2, NULL);
	struct sched_task *b = pinned(1, SCHED_BATCH, 0);
	sim_add_task(fake_of(b), 0, 0);
	sim_add(0, 0, 0);
	sim_run(100);
	CHECK_EQ(cpu_rq(1)->nice_ticks, 100);
	CHECK_EQ(cpu_rq(1)->user_ticks, 0);
	CHECK_EQ(cpu_rq(0)->user_ticks, 100);
	uint32_t before = b->stats.utime;
	int prio = b->prio, slice = b->slice;
	int traced = fake_trace_len;
	fake_cpu = 1;
	fake_irq_off[1]++;		/* as from the timer interrupt */
	sched_account_lost_ticks(5, true);
	fake_irq_off[1]--;
	fake_cpu = 0;
	/* a trace says where, so that a replay takes the time out of b's run */
	CHECK_EQ(fake_trace_len, traced + 1);
	CHECK_EQ(fake_trace[traced].event, TRACE_LOST_TICKS);
	CHECK_EQ(fake_trace[traced].cpu, 1);
	CHECK_EQ(fake_trace[traced].pid, fake_pid(b));
	CHECK_EQ(fake_trace[traced].arg, 5);
	CHECK_EQ(cpu_rq(1)->nice_ticks, 105);
	CHECK_EQ(b->stats.utime, before + 5);
	CHECK_EQ(b->prio, prio);		/* statistics only */
	CHECK_EQ(b->slice, slice);
}

/* ---- locking ---- */

TEST(double_lock_must_start_with_no_rq_lock_held)
{
#ifndef NDEBUG			/* KASSERT is compiled out with NDEBUG */
	static jmp_buf jb;
	jmp_buf *saved = fake_assert_jmp;
	fake_boot(2, NULL);
	spin_lock(&cpu_rq(1)->lock);
	fake_assert_jmp = &jb;
	if (setjmp(jb) == 0) {
		lock_rqs(0x3);		/* would take rq0 after rq1: refused */
		fake_assert_jmp = saved;
		test_fail(__FILE__, __LINE__, "lock_rqs did not assert");
		return;
	}
	fake_assert_jmp = saved;
	CHECK(strstr(fake_assert_msg, "spin_held") != NULL);
#endif
}

/* The same rule for one lock: no rq lock may be taken while one is held,
 * whatever the CPU order (runqueue.c, "THE LOCK-ORDERING RULE"). */
TEST(single_rq_lock_must_start_with_no_rq_lock_held)
{
#ifndef NDEBUG
	static jmp_buf jb;
	jmp_buf *saved = fake_assert_jmp;
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(1, 0, 0);
	spin_lock(&cpu_rq(0)->lock);
	fake_assert_jmp = &jb;
	if (setjmp(jb) == 0) {
		task_rq_lock(&a->sched);	/* rq1 while holding rq0: refused */
		fake_assert_jmp = saved;
		test_fail(__FILE__, __LINE__, "task_rq_lock did not assert");
		return;
	}
	fake_assert_jmp = saved;
	CHECK(strstr(fake_assert_msg, "spin_held") != NULL);
#endif
}

/* An idle CPU balances every tick; a busy CPU whose every task is pinned
 * to it has nothing it could give, and its lock is left alone (issue
 * 29: seven idle CPUs took one busy CPU's lock 12 times per 100 fork +
 * exit + wait of a pinned worker). */
static int rq0_taken_by_cpu1;

static void count_rq0_by_cpu1(struct spinlock *l)
{
	if (l == &cpu_rq(0)->lock && fake_cpu == 1)
		rq0_taken_by_cpu1++;
}

TEST(balance_leaves_a_queue_of_pinned_tasks_unlocked)
{
	fake_boot(2, NULL);
	for (int i = 0; i < 3; i++)
		sim_add_task(fake_of(pinned(0, SCHED_NORMAL, 0)), 0, 0);
	CHECK_EQ(cpu_rq(0)->nr_pinned, 3);
	rq0_taken_by_cpu1 = 0;
	fake_lock_hook = count_rq0_by_cpu1;
	sim_run(1000);
	fake_lock_hook = NULL;
	CHECK_EQ(rq0_taken_by_cpu1, 0);
	CHECK_EQ(cpu_rq(1)->idle_ticks, 1000);
}

TEST(balance_pinned_count_follows_affinity_changes)
{
	fake_boot(2, NULL);
	struct fake_proc *a = fake_spawn(0, 0, 0), *b = fake_spawn(0, 0, 0);
	fake_schedule(0);
	CHECK_EQ(cpu_rq(0)->nr_pinned, 0);
	CHECK_EQ(sched_set_cpus_allowed(&b->sched, 1u << 0), 0);	/* queued, pinned here */
	CHECK_EQ(cpu_rq(0)->nr_pinned, 1);
	CHECK_EQ(sched_set_cpus_allowed(&a->sched, 1u << 0), 0);	/* running, pinned here */
	CHECK_EQ(cpu_rq(0)->nr_pinned, 2);
	CHECK_EQ(sched_set_cpus_allowed(&b->sched, 3), 0);		/* free again: may be pulled */
	CHECK_EQ(cpu_rq(0)->nr_pinned, 1);
	fake_schedule(1);					/* idle balance takes b */
	CHECK_EQ(b->sched.cpu, 1);
	CHECK_EQ(cpu_rq(0)->nr_pinned, 1);
	CHECK_EQ(cpu_rq(1)->nr_pinned, 0);
}
