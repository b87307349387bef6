/*
 * eevdf_tree.c - eevdf's index of its queue (docs/eevdf.md §3): the
 * waiting fair tasks in a balanced binary search tree ordered by vruntime,
 * each node also holding the earliest deadline in its subtree, so that
 * the pick finds the eligible task with the earliest deadline in
 * O(log n), as Linux 6.6 does with its augmented rbtree (min_deadline).
 *
 * The tree is an AVL tree (Adelson-Velsky and Landis, 1962): the heights
 * of a node's two subtrees differ by at most one, so its depth is at most
 * 1.44 log2(n + 2) and the recursion below is that deep at most. It holds
 * every task of the fair list (rq->queue[FAIR_PRIO]) except the running
 * one, which Linux's tree does not hold either. Its order is the list's:
 * vruntime as queued (fair.key), and equal keys in the order they were
 * queued (fair.seq), so an in-order walk meets the tasks as the list does.
 */
#include "cfs.h"

static int height(const struct sched_task *n)
{
	return n ? n->fair.height : 0;
}

/* Before b in the queue's order: the smaller key, or the same key queued
 * first. */
static bool before(const struct sched_task *a, const struct sched_task *b)
{
	if (a->fair.key != b->fair.key)
		return fair_before(a->fair.key, b->fair.key);
	return a->fair.seq < b->fair.seq;
}

static uint64_t earlier(uint64_t a, uint64_t b)
{
	return fair_before(a, b) ? a : b;
}

/* n's height and earliest deadline, from its children's. */
static void update(struct sched_task *n)
{
	struct sched_task *l = n->fair.left, *r = n->fair.right;
	int hl = height(l), hr = height(r);

	n->fair.height = 1 + (hl > hr ? hl : hr);
	n->fair.min_deadline = n->fair.deadline;
	if (l)
		n->fair.min_deadline = earlier(l->fair.min_deadline, n->fair.min_deadline);
	if (r)
		n->fair.min_deadline = earlier(r->fair.min_deadline, n->fair.min_deadline);
}

/* n's left child takes its place, n becomes its right child. */
static struct sched_task *rotate_right(struct sched_task *n)
{
	struct sched_task *l = n->fair.left;

	n->fair.left = l->fair.right;
	l->fair.right = n;
	update(n);
	update(l);
	return l;
}

static struct sched_task *rotate_left(struct sched_task *n)
{
	struct sched_task *r = n->fair.right;

	n->fair.right = r->fair.left;
	r->fair.left = n;
	update(n);
	update(r);
	return r;
}

/* n's subtrees are balanced trees whose heights differ by two at most:
 * one or two rotations make n's balanced too. Returns the new root. */
static struct sched_task *balance(struct sched_task *n)
{
	struct sched_task *l = n->fair.left, *r = n->fair.right;
	int diff = height(l) - height(r);

	update(n);
	if (diff > 1) {
		if (height(l->fair.left) < height(l->fair.right))
			n->fair.left = rotate_left(l);
		return rotate_right(n);
	}
	if (diff < -1) {
		if (height(r->fair.right) < height(r->fair.left))
			n->fair.right = rotate_right(r);
		return rotate_left(n);
	}
	return n;
}

static struct sched_task *insert(struct sched_task *n, struct sched_task *t)
{
	if (!n)
		return t;
	if (before(t, n))
		n->fair.left = insert(n->fair.left, t);
	else
		n->fair.right = insert(n->fair.right, t);
	return balance(n);
}

/* The subtree n without its first task, which *first receives. */
static struct sched_task *take_first(struct sched_task *n, struct sched_task **first)
{
	if (!n->fair.left) {
		*first = n;
		return n->fair.right;
	}
	n->fair.left = take_first(n->fair.left, first);
	return balance(n);
}

static struct sched_task *erase(struct sched_task *n, struct sched_task *t)
{
	struct sched_task *next;

	KASSERT(n);				/* t is in the tree */
	if (n != t) {
		if (before(t, n))
			n->fair.left = erase(n->fair.left, t);
		else
			n->fair.right = erase(n->fair.right, t);
		return balance(n);
	}
	if (!t->fair.left || !t->fair.right)
		return t->fair.left ? t->fair.left : t->fair.right;
	/* Two children: t's successor takes its place. */
	t->fair.right = take_first(t->fair.right, &next);
	next->fair.left = t->fair.left;
	next->fair.right = t->fair.right;
	return balance(next);
}

void eevdf_tree_insert(struct runqueue *rq, struct sched_task *t)
{
	KASSERT(!t->fair.in_tree && t != rq->fair.curr);
	t->fair.left = t->fair.right = NULL;
	t->fair.seq = ++rq->fair.seq;
	update(t);
	rq->fair.root = insert(rq->fair.root, t);
	t->fair.in_tree = true;
}

void eevdf_tree_erase(struct runqueue *rq, struct sched_task *t)
{
	if (!t->fair.in_tree)
		return;
	rq->fair.root = erase(rq->fair.root, t);
	t->fair.in_tree = false;
}

/* The first task of subtree n whose deadline is dl (its earliest). */
static struct sched_task *first_with_deadline(struct sched_task *n, uint64_t dl)
{
	for (;;) {
		struct sched_task *l = n->fair.left;
		if (l && l->fair.min_deadline == dl)
			n = l;
		else if (n->fair.deadline == dl)
			return n;
		else
			n = n->fair.right;
	}
}

/*
 * The eligible task with the earliest deadline; of equal deadlines the
 * first in the queue's order; NULL if none is eligible. Eligibility is a
 * prefix of the order (the tasks at or before V), so from the root: a
 * node that is not eligible sends the search left; one that is makes its
 * whole left subtree eligible, whose earliest deadline its min_deadline
 * says, and the search goes on to its right. Everything met comes before
 * what is met after it, so only a strictly earlier deadline replaces the
 * best so far.
 */
struct sched_task *eevdf_tree_pick(const struct runqueue *rq, struct fair_avg avg)
{
	struct sched_task *n = rq->fair.root, *best = NULL, *subtree = NULL;
	bool found = false;
	uint64_t dl = 0;

	while (n) {
		struct sched_task *l = n->fair.left;
		if (!eevdf_eligible(rq, avg, n)) {
			n = l;
			continue;
		}
		if (l && (!found || fair_before(l->fair.min_deadline, dl))) {
			subtree = l;
			best = NULL;
			dl = l->fair.min_deadline;
			found = true;
		}
		if (!found || fair_before(n->fair.deadline, dl)) {
			best = n;
			subtree = NULL;
			dl = n->fair.deadline;
			found = true;
		}
		n = n->fair.right;
	}
	return subtree ? first_with_deadline(subtree, dl) : best;
}
