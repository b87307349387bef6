/*
 * objcache.h - a CPU's last few freed objects of one kind, kept whole
 * for its next allocation of that kind: kernel stacks (kernel/mm/kstack.c,
 * Linux's cached vmap stacks) and address spaces with their page
 * directories (kernel/mm/mm.c, Linux 2.6's pgd quicklists). Making either from scratch takes a global lock
 * (and, for a stack, a TLB shootdown on every CPU), so without these a
 * fork + exit + wait would take it on every CPU at once.
 *
 * One cache per CPU, in a cache line of its own; its lock is only ever
 * fought over when a CPU short of the objects empties them all.
 */
#ifndef KERNEL_OBJCACHE_H
#define KERNEL_OBJCACHE_H

#include <stdbool.h>
#include <stddef.h>
#include "spinlock.h"

#define OBJCACHE_MAX	2	/* as Linux's NR_CACHED_STACKS */

struct objcache {
	struct spinlock lock;
	int count;
	void *objs[OBJCACHE_MAX];
} __attribute__((aligned(64)));

#define OBJCACHE_INIT(name)	{ .lock = SPINLOCK_INIT(name) }

/* The most recently kept object, or NULL. */
static inline void *objcache_take(struct objcache *c)
{
	void *obj = NULL;
	spin_lock(&c->lock);
	if (c->count > 0)
		obj = c->objs[--c->count];
	spin_unlock(&c->lock);
	return obj;
}

/* Keep obj; false if the cache is full (the caller frees it). */
static inline bool objcache_keep(struct objcache *c, void *obj)
{
	bool kept = false;
	spin_lock(&c->lock);
	if (c->count < OBJCACHE_MAX) {
		c->objs[c->count++] = obj;
		kept = true;
	}
	spin_unlock(&c->lock);
	return kept;
}

/* Empty the cache into out (OBJCACHE_MAX places); how many it held. */
static inline int objcache_empty(struct objcache *c, void **out)
{
	spin_lock(&c->lock);
	int n = c->count;
	for (int i = 0; i < n; i++)
		out[i] = c->objs[i];
	c->count = 0;
	spin_unlock(&c->lock);
	return n;
}

#endif
