/*
 * runqueue.c - the per-CPU priority lists, their bitmap and rq locking.
 *
 * Nothing here knows about stairs: a task is put on the list of its
 * t->prio, where its policy's ops place it (the staircase's: at the tail;
 * CFS's: in vruntime order), and the first set bit of the bitmap names
 * the list to take the next task from (staircase.md §2).
 */
#include "runqueue.h"
#include "policy.h"

struct runqueue runqueues[SCHED_MAX_CPUS];
int sched_ncpus = 1;

static void list_init(struct sched_list *l)
{
	l->next = l->prev = l;
}

static bool list_empty(const struct sched_list *l)
{
	return l->next == l;
}

static void list_insert(struct sched_list *n, struct sched_list *prev,
			struct sched_list *next)
{
	n->prev = prev;
	n->next = next;
	prev->next = n;
	next->prev = n;
}

static void list_remove(struct sched_list *n)
{
	n->prev->next = n->next;
	n->next->prev = n->prev;
	n->next = n->prev = n;
}

struct sched_task *list_task(struct sched_list *node)
{
	return (struct sched_task *)((char *)node - offsetof(struct sched_task, run_list));
}

/* The bitmap has two levels: bit w of rq->bitmap_words says whether word
 * w has any bit set, so the first non-empty list is two ctz away, not a
 * search of five words (make profile: a third of each pick). */
static void set_bit(struct runqueue *rq, unsigned prio)
{
	unsigned w = prio / 32;

	rq->bitmap[w] |= 1u << (prio % 32);
	rq->bitmap_words |= 1u << w;
}

static void clear_bit(struct runqueue *rq, unsigned prio)
{
	unsigned w = prio / 32;

	rq->bitmap[w] &= ~(1u << (prio % 32));
	if (!rq->bitmap[w])
		rq->bitmap_words &= ~(1u << w);
}

void rq_init(struct runqueue *rq, int cpu)
{
	spin_init(&rq->lock, "runqueue");
	rq->cpu = cpu;
	for (int i = 0; i < BITMAP_WORDS; i++)
		rq->bitmap[i] = 0;
	rq->bitmap_words = 0;
	for (int i = 0; i < NR_PRIO_LISTS; i++)
		list_init(&rq->queue[i]);
	set_bit(rq, MAX_PRIO);		/* the search stop */
	rq->nr_running = 0;
	rq->nr_pinned = 0;
	rq->curr = rq->idle = NULL;
	rq->ticks = 0;
	rq->user_ticks = rq->nice_ticks = rq->system_ticks = rq->idle_ticks = 0;
	rq->lost_ticks = 0;
	rq->iso_avg = 0;
	rq->iso_throttled = false;
	rq->cache_ticks = 0;
	rq->preempted = false;
	rq->fair.min_vruntime = 0;
	rq->fair.load = 0;
	rq->fair.nr = 0;
	rq->fair.curr = NULL;
	rq->fair.root = NULL;
	rq->fair.seq = 0;
	rq->fair.avg_sum = 0;
	rq->siblings = 1u << cpu;
	rq->nr_domains = 0;
	rq->push_cpu = -1;
}

/* The list operations proper; the callers below assert the rules. */
static inline void link_task(struct runqueue *rq, struct sched_task *t, bool head)
{
	struct sched_list *q = &rq->queue[t->prio];
	if (head)
		list_insert(&t->run_list, q, q->next);
	else
		list_insert(&t->run_list, q->prev, q);
	set_bit(rq, t->prio);
}

static inline void unlink_task(struct runqueue *rq, struct sched_task *t)
{
	list_remove(&t->run_list);
	if (list_empty(&rq->queue[t->prio]))
		clear_bit(rq, t->prio);
}

void rq_link_before(struct runqueue *rq, struct sched_task *t, struct sched_list *node)
{
	list_insert(&t->run_list, node->prev, node);
	set_bit(rq, t->prio);
}

void rq_unlink(struct runqueue *rq, struct sched_task *t)
{
	unlink_task(rq, t);
}

/* The staircase's place for a task (staircase.md §2): the tail of its
 * list. */
void staircase_enqueue(struct runqueue *rq, struct sched_task *t)
{
	link_task(rq, t, false);
}

void staircase_dequeue(struct runqueue *rq, struct sched_task *t)
{
	unlink_task(rq, t);
}

void enqueue_task(struct runqueue *rq, struct sched_task *t)
{
	KASSERT(spin_held(&rq->lock));
	KASSERT(!t->on_rq && !t->is_idle);
	KASSERT(t->prio >= 0 && t->prio < MAX_PRIO);
	ops_of(t)->enqueue(rq, t);
	t->on_rq = 1;
	rq->nr_running++;
	rq->nr_pinned += task_pinned(t);
}

void dequeue_task(struct runqueue *rq, struct sched_task *t)
{
	KASSERT(spin_held(&rq->lock));
	KASSERT(t->on_rq && t->cpu == rq->cpu);
	ops_of(t)->dequeue(rq, t);
	t->on_rq = 0;
	rq->nr_running--;
	rq->nr_pinned -= task_pinned(t);
}

/* A queued task changes lists without leaving the queue: what a dequeue
 * and an enqueue would do, with their checks made once (a tick's stair
 * drop, a yield and a yielder's pick come here, make profile). */
void move_task(struct runqueue *rq, struct sched_task *t, int prio, bool head)
{
	KASSERT(spin_held(&rq->lock));
	KASSERT(t->on_rq && t->cpu == rq->cpu && !t->is_idle);
	KASSERT(prio >= 0 && prio < MAX_PRIO);
	unlink_task(rq, t);
	t->prio = prio;
	link_task(rq, t, head);
}

struct sched_task *pick_first_task(struct runqueue *rq)
{
	KASSERT(spin_held(&rq->lock));
	KASSERT(rq->bitmap_words);		/* the stop bit MAX_PRIO stays set */
	int w = __builtin_ctz(rq->bitmap_words);
	int prio = w * 32 + __builtin_ctz(rq->bitmap[w]);
	return prio == MAX_PRIO ? rq->idle : list_task(rq->queue[prio].next);
}

bool rq_bitmap_ok(struct runqueue *rq)
{
	for (int prio = 0; prio < MAX_PRIO; prio++) {
		bool bit = rq->bitmap[prio / 32] & (1u << (prio % 32));
		if (bit == list_empty(&rq->queue[prio]))
			return false;
	}
	for (int w = 0; w < BITMAP_WORDS; w++)
		if (!rq->bitmap[w] != !(rq->bitmap_words & (1u << w)))
			return false;
	return rq->bitmap[MAX_PRIO / 32] & (1u << (MAX_PRIO % 32));
}

/*
 * THE LOCK-ORDERING RULE for run-queue locks (the one place it is written;
 * docs/scheduler.md repeats it):
 *
 *   1. Whoever holds more than one rq lock took them all at once with
 *      lock_rqs(mask), which takes them in ascending CPU order.
 *   2. Nobody takes an rq lock (one with rq_lock()/task_rq_lock(), or
 *      several with lock_rqs()) while already holding one. Each is let go
 *      by its pair: rq_unlock(), task_rq_unlock(), unlock_rqs().
 *   3. rq locks are innermost: nothing else is locked while one is held
 *      (machine.h), and the caller holds no other sched lock.
 *
 * So the order between any two rq locks is always "lower CPU first", and
 * two CPUs can never each hold a lock the other waits for. Both rules are
 * asserted (KASSERT) at every acquisition below; to drop one lock and
 * take two, unlock first (sched_schedule() does this around
 * idle_balance()).
 */
static inline void assert_no_rq_lock_held(void)
{
#ifndef NDEBUG
	for (int cpu = 0; cpu < sched_ncpus; cpu++)
		KASSERT(!spin_held(&cpu_rq(cpu)->lock));
#endif
}

void rq_lock(struct runqueue *rq)
{
	assert_no_rq_lock_held();
	spin_lock(&rq->lock);
}

/* The CPUs of mask, lowest first: each step takes the lowest set bit. */
void lock_rqs(uint32_t mask)
{
	assert_no_rq_lock_held();
	KASSERT(mask && 31 - __builtin_clz(mask) < sched_ncpus);
	for (uint32_t m = mask; m; m &= m - 1)
		spin_lock(&cpu_rq(__builtin_ctz(m))->lock);
}

/* Highest first, the reverse order. */
void unlock_rqs(uint32_t mask)
{
	for (uint32_t m = mask; m; ) {
		int cpu = 31 - __builtin_clz(m);
		spin_unlock(&cpu_rq(cpu)->lock);
		m &= ~(1u << cpu);
	}
}

/* t->cpu changes only under its rq lock, so re-check after locking. */
struct runqueue *task_rq_lock(struct sched_task *t)
{
	for (;;) {
		struct runqueue *rq = task_rq(t);
		rq_lock(rq);
		if (rq == task_rq(t))
			return rq;
		rq_unlock(rq);
	}
}
