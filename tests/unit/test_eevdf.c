/*
 * test_eevdf.c - lineage mode's eevdf, EEVDF as Linux 6.6 merged it
 * (docs/eevdf.md): one test per rule, named after it.
 */
#include "test.h"
#include "../../sched/cfs.h"
#include "../../sched/core.h"
#include "../../sched/policy.h"
#include "../../sched/tunables.h"
#include "../../lib/errno.h"

#define SECONDS(s)	((s) * FAKE_HZ)
#define US		1000ull
#define MS		1000000ull

static void boot_eevdf(int ncpus)
{
	fake_class = "eevdf";
	fake_boot(ncpus, NULL);
	sim_reset();
}

/* A fair task of uid 1000 on CPU 0, asleep, with this lag (V - vruntime
 * when it left the queue). */
static struct sched_task *sleeper(int64_t vlag)
{
	struct sched_task *t = &fake_new_task(0, 1000, 1000)->sched;
	t->state = TASK_INTERRUPTIBLE;
	t->fair.vlag = vlag;
	return t;
}

static void ticks(int n)
{
	for (int i = 0; i < n; i++) {
		fake_now_ns += TICK_NS;
		fake_tick(0, true);
	}
}

/* Three tasks woken in turn onto an idle CPU with lags +2, -2 and 0 ms:
 * a at V = 0, b 4 ms after (its lag scaled by 2048/1024), c at the new
 * V, 2 ms. V is then 2 ms: a and c are eligible, b is not. */
static void three(struct sched_task **a, struct sched_task **b, struct sched_task **c)
{
	*a = sleeper(2 * MS);
	*b = sleeper(-2 * (int64_t)MS);
	*c = sleeper(0);
	sched_wake_up(*a);
	sched_wake_up(*b);
	sched_wake_up(*c);
}

/* A queued task's deadline, set as a test wants it: out of the tree and
 * back, so that its subtree's earliest deadline follows. */
static void set_deadline(struct sched_task *t, uint64_t dl)
{
	struct runqueue *rq = cpu_rq(t->cpu);
	bool in = t->fair.in_tree;

	eevdf_tree_erase(rq, t);
	t->fair.deadline = dl;
	if (in)
		eevdf_tree_insert(rq, t);
}

/* ---- §1, §4: lag, V, placement ---- */

TEST(eevdf_wakes_at_v_minus_its_lag_scaled_by_the_load)
{
	boot_eevdf(1);
	struct sched_task *a, *b, *c;
	three(&a, &b, &c);
	CHECK_EQ(a->fair.vruntime, 0);			/* alone: V, the lag unused */
	CHECK_EQ(b->fair.vruntime, 4 * MS);		/* 0 + 2 ms x 2048 / 1024 */
	CHECK_EQ(c->fair.vruntime, 2 * MS);		/* V of a and b */
	CHECK_EQ(c->fair.deadline, 2 * MS + 750 * US);	/* one base slice on */
}

/* V weighs each vruntime by its task's weight: beside a nice-0 task at 0,
 * a nice-19 one (weight 15) moves it by 15/1039 of its distance. */
TEST(eevdf_v_is_the_weight_averaged_vruntime)
{
	boot_eevdf(1);
	struct sched_task *a = sleeper(0), *b = sleeper(-1 * (int64_t)MS), *c = sleeper(0);
	sched_set_user_nice(b, 19);
	sched_wake_up(a);
	sched_wake_up(b);
	CHECK_EQ(b->fair.vruntime, 1 * MS * 1039 / 1024);
	sched_wake_up(c);				/* lag 0: at V */
	CHECK_EQ(c->fair.vruntime, b->fair.vruntime * 15 / 1039);
}

TEST(eevdf_lag_saved_when_leaving_and_clamped_to_two_slices)
{
	boot_eevdf(1);
	struct sched_task *a, *b, *c;
	three(&a, &b, &c);
	fake_schedule(0);
	struct sched_task *run = fake_curr(0);
	CHECK(run == a);
	fake_sleep(0, TASK_INTERRUPTIBLE);		/* a leaves at V - 2 ms: lag 2 ms */
	CHECK_EQ(a->fair.vlag, (int64_t)(1500 * US));	/* clamped: 2 x 0.75 ms */
	CHECK(fake_curr(0) == c);
	fake_sleep(0, TASK_INTERRUPTIBLE);		/* c leaves at V (of b, c): lag 1 ms */
	CHECK_EQ(c->fair.vlag, (int64_t)(1 * MS));
}

TEST(eevdf_gives_no_sleeper_credit_beyond_its_lag)
{
	boot_eevdf(1);
	struct sim_task *h = sim_add(0, 0, 0);
	fake_schedule(0);
	ticks(1000);
	struct sched_task *s = sleeper(0);	/* slept the whole second */
	sched_wake_up(s);
	/* cfs would place it at min_vruntime - 20 ms; eevdf at V, the hog's */
	CHECK_EQ(s->fair.vruntime, h->proc->sched.fair.vruntime);
}

/* ---- §2, §3: eligibility and the pick ---- */

TEST(eevdf_ineligible_task_not_picked)
{
	boot_eevdf(1);
	struct sched_task *a, *b, *c;
	three(&a, &b, &c);
	set_deadline(b, 0);			/* the earliest deadline, but after V */
	set_deadline(a, 3 * MS);
	CHECK(fake_schedule(0) == c);		/* c: 2.75 ms, the earliest eligible */
}

TEST(eevdf_picks_the_earliest_eligible_deadline)
{
	boot_eevdf(1);
	struct sched_task *a, *b, *c;
	three(&a, &b, &c);
	CHECK(fake_schedule(0) == a);		/* a: 0.75 ms; c: 2.75 ms */
}

TEST(eevdf_new_slice_at_the_deadline_and_the_cpu_picks_again)
{
	boot_eevdf(1);
	struct sim_task *x = sim_add(0, 0, 0), *y = sim_add(0, 0, 0);
	struct sched_task *first = fake_schedule(0);
	CHECK(first == &x->proc->sched || first == &y->proc->sched);
	uint64_t d = first->fair.deadline;
	CHECK(first->fair.vruntime < d);
	fake_need_resched[0] = false;
	ticks(1);				/* 1 ms: past a 0.75 ms slice */
	CHECK(fake_need_resched[0]);
	CHECK_EQ(first->fair.deadline, first->fair.vruntime + 750 * US);
	fake_resched_pending();
	CHECK(fake_curr(0) != first);
}

TEST(eevdf_nice_5_gets_weight_335_of_1359)
{
	boot_eevdf(1);
	struct sim_task *a = sim_add(0, 0, 0), *b = sim_add(0, 0, 0);
	sched_set_user_nice(&b->proc->sched, 5);
	sim_run(SECONDS(20));
	CHECK_EQ(a->ran + b->ran, SECONDS(20));
	CHECK_RANGE(sim_share(b, SECONDS(20)), 335.0 / 1359 - 0.01, 335.0 / 1359 + 0.01);
}

/* ---- §5: wake-up preemption ---- */

TEST(eevdf_woken_task_preempts_when_the_pick_would_choose_it)
{
	boot_eevdf(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	ticks(10);				/* its slice renewed: no parity left */
	fake_need_resched[0] = false;
	sched_wake_up(sleeper(1 * MS));		/* owed 1 ms: eligible, earlier deadline */
	CHECK(fake_need_resched[0]);
}

TEST(eevdf_run_to_parity_keeps_a_fresh_slice)
{
	boot_eevdf(1);
	struct sched_task *t = sleeper(0), *h = sleeper(-300 * (int64_t)US);
	sched_set_user_nice(t, 5);		/* a 2.29 ms virtual slice */
	sched_wake_up(t);
	sched_wake_up(h);			/* after V: not eligible */
	CHECK(fake_schedule(0) == t);
	CHECK_EQ((uint64_t)t->fair.vlag, t->fair.deadline);
	fake_need_resched[0] = false;
	struct sched_task *s = sleeper(0);
	sched_wake_up(s);			/* eligible, its deadline before t's */
	CHECK(fair_before(s->fair.deadline, t->fair.deadline));
	CHECK(!fake_need_resched[0]);		/* t keeps the slice it was picked with */
}

TEST(eevdf_batch_never_preempts_on_wakeup)
{
	boot_eevdf(1);
	sim_add(0, 0, 0);
	fake_schedule(0);
	ticks(10);
	struct sched_task *b = sleeper(1 * MS);
	sched_set_policy(b, SCHED_BATCH, 0);
	fake_need_resched[0] = false;
	sched_wake_up(b);
	CHECK(!fake_need_resched[0]);
}

/* ---- §6: fork, yield ---- */

TEST(eevdf_new_task_gets_half_a_slice)
{
	boot_eevdf(1);
	struct sim_task *h = sim_add(0, 0, 0);
	fake_schedule(0);
	ticks(10);
	struct fake_proc *child = fake_new_task(0, 1000, 1000);
	sched_fork(&h->proc->sched, &child->sched);
	sched_wake_new(&child->sched);
	CHECK_EQ(child->sched.fair.vruntime, h->proc->sched.fair.vruntime);	/* V: no lag */
	CHECK_EQ(child->sched.fair.deadline - child->sched.fair.vruntime, 375 * US);
}

TEST(eevdf_yield_pushes_the_deadline_one_slice)
{
	boot_eevdf(1);
	sim_add(0, 0, 0);
	sim_add(0, 0, 0);
	struct sched_task *t = fake_schedule(0);
	uint64_t d = t->fair.deadline;
	sched_do_yield();
	CHECK_EQ(t->fair.deadline, d + 750 * US);
}

/* ---- §7: the base slice ---- */

TEST(eevdf_base_slice_scales_with_1_plus_log2_cpus_up_to_8)
{
	boot_eevdf(2);
	CHECK_EQ(tunables.base_slice_ns, 1500000);
	boot_eevdf(16);
	CHECK_EQ(tunables.base_slice_ns, 3000000);	/* counted up to 8: x4 */
	CHECK_EQ(sched_tunable_set(SCHED_TUNABLE_BASE_SLICE_NS, 99999), -EINVAL);
}

/* A move keeps the lag, not the vruntime: on an empty CPU the task lands
 * at that CPU's V. */
TEST(eevdf_moved_task_keeps_its_lag)
{
	boot_eevdf(2);
	sim_add(0, 0, 0);
	fake_schedule(0);
	ticks(100);
	struct sched_task *t = &fake_spawn(0, 1000, 1000)->sched;	/* waits behind it */
	cpu_rq(1)->fair.min_vruntime = 7000 * MS;
	CHECK_EQ(sched_set_cpus_allowed(t, 1u << 1), 0);
	CHECK_EQ(t->cpu, 1);
	CHECK_EQ(t->fair.vruntime, 7000 * MS);		/* alone there: at V */
	CHECK_EQ(t->fair.deadline, 7000 * MS + 1500 * US);	/* 2 CPUs: a 1.5 ms slice */
}

/* A policy change of the running task keeps it the running one (Linux's
 * set_curr_task), whatever the pick would choose now. */
TEST(eevdf_policy_change_of_the_running_task_keeps_it_current)
{
	boot_eevdf(1);
	struct sched_task *a, *b, *c;
	three(&a, &b, &c);
	CHECK(fake_schedule(0) == a);
	set_deadline(c, 0);			/* the pick would take c now */
	sched_set_policy(a, SCHED_BATCH, 0);
	CHECK(cpu_rq(0)->fair.curr == a);
	CHECK_EQ((uint64_t)a->fair.vlag, a->fair.deadline);
	fake_sleep(0, TASK_INTERRUPTIBLE);
	CHECK(fake_curr(0) == c);
}

/* ---- §3: the tree the pick walks (eevdf_tree.c) ---- */

/* Before b in the queue's order (the tree's): the smaller queued key,
 * or the same key queued first. */
static bool queued_before(const struct sched_task *a, const struct sched_task *b)
{
	if (a->fair.key != b->fair.key)
		return fair_before(a->fair.key, b->fair.key);
	return a->fair.seq < b->fair.seq;
}

/* Subtree n checked node by node, in order: each after the one before it
 * (*prev), marked in the tree, AVL-balanced, its height and earliest
 * deadline its children's. Its height, or -1 at the first fault. */
static int check_subtree(const struct sched_task *n, const struct sched_task **prev, int *count)
{
	if (!n)
		return 0;
	const struct sched_task *l = n->fair.left, *r = n->fair.right;
	int hl = check_subtree(l, prev, count);
	if (hl < 0 || (*prev && !queued_before(*prev, n)) || !n->fair.in_tree)
		return -1;
	*prev = n;
	(*count)++;
	int hr = check_subtree(r, prev, count);
	uint64_t min = n->fair.deadline;
	if (l && fair_before(l->fair.min_deadline, min))
		min = l->fair.min_deadline;
	if (r && fair_before(r->fair.min_deadline, min))
		min = r->fair.min_deadline;
	if (hr < 0 || hl - hr > 1 || hr - hl > 1 || n->fair.height != 1 + (hl > hr ? hl : hr) ||
	    n->fair.min_deadline != min)
		return -1;
	return n->fair.height;
}

/* The tree holds every task of the fair list but the running one. */
static bool tree_follows_list(const struct runqueue *rq)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	const struct sched_task *prev = NULL;
	int count = 0, listed = 0;

	for (const struct sched_list *n = q->next; n != q; n = n->next) {
		const struct sched_task *t = list_task((struct sched_list *)n);
		if (t == rq->fair.curr)
			continue;
		if (!t->fair.in_tree)
			return false;
		listed++;
	}
	return check_subtree(rq->fair.root, &prev, &count) >= 0 && count == listed;
}

/* V's running sums equal the sums over the list (eevdf.md §1): each
 * queued task's (vruntime - min_vruntime) x weight, and the weights. */
static bool sums_follow_list(const struct runqueue *rq)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	int64_t sum = 0, load = 0;

	for (const struct sched_list *n = q->next; n != q; n = n->next) {
		const struct sched_task *t = list_task((struct sched_list *)n);
		sum += (int64_t)(t->fair.vruntime - rq->fair.min_vruntime) * cfs_weight(t);
		load += cfs_weight(t);
	}
	return sum == rq->fair.avg_sum && load == rq->fair.load;
}

/* The pick as the rule says it, by looking at every waiting task: the
 * eligible one with the earliest deadline, the first in queue order. */
static struct sched_task *pick_by_walking(struct runqueue *rq)
{
	const struct sched_list *q = &rq->queue[FAIR_PRIO];
	struct fair_avg a = { rq->fair.avg_sum, rq->fair.load };
	struct sched_task *best = NULL;

	for (const struct sched_list *n = q->next; n != q; n = n->next) {
		struct sched_task *t = list_task((struct sched_list *)n);
		if (t != rq->fair.curr && eevdf_eligible(rq, a, t) &&
		    (!best || fair_before(t->fair.deadline, best->fair.deadline)))
			best = t;
	}
	return best;
}

/* 40 tasks woken, run, put to sleep, reniced, made BATCH and back, and
 * yielding, in an order drawn from a fixed seed: after every step the tree
 * holds exactly the waiting tasks in the list's order, each subtree knows
 * its earliest deadline, V's running sums equal the sums over the list,
 * and the tree's pick is the one found by walking the queue. */
TEST(eevdf_tree_and_sums_follow_the_queue_and_pick_as_the_walk)
{
	enum { N = 40, STEPS = 3000 };
	struct sched_task *t[N];
	struct runqueue *rq;
	uint32_t seed = 12345;

	boot_eevdf(1);
	rq = cpu_rq(0);
	for (int i = 0; i < N; i++)
		t[i] = sleeper((int64_t)(i % 7) * (int64_t)MS - 3 * (int64_t)MS);
	for (int step = 0; step < STEPS; step++) {
		seed = seed * 1103515245u + 12345u;
		struct sched_task *x = t[(seed >> 8) % N];
		switch ((seed >> 20) % 6) {
		case 0:
			if (x->state != TASK_RUNNING)
				sched_wake_up(x);
			break;
		case 1:
			if (!fake_curr(0)->is_idle)
				fake_sleep(0, TASK_INTERRUPTIBLE);
			break;
		case 2:
			ticks(1 + (seed >> 28));
			fake_resched_pending();
			break;
		case 3:
			sched_set_user_nice(x, (int)((seed >> 12) % 40) - 20);
			break;
		case 4:
			sched_set_policy(x, x->policy == SCHED_BATCH ? SCHED_NORMAL : SCHED_BATCH, 0);
			break;
		case 5:
			if (!fake_curr(0)->is_idle) {
				sched_do_yield();
				fake_schedule(0);
			}
			break;
		}
		CHECK(tree_follows_list(rq));
		CHECK(sums_follow_list(rq));
		struct fair_avg a = { rq->fair.avg_sum, rq->fair.load };
		CHECK(eevdf_tree_pick(rq, a) == pick_by_walking(rq));
	}
}
