/*
 * fdtable.c - the descriptor table's memory: one kmalloc'd block holding
 * the header, the file slots and the close-on-exec bits. Growing copies
 * the slots into a table twice as large (or large enough) and keeps the
 * old one chained to the new: a thread that read the table's address
 * just before may still be looking at it without the lock (Linux frees
 * the old table after an RCU grace period; we free it when the group's
 * table goes, at most as much memory again as the table itself).
 * The caller (kernel/fs/file.c) holds the lock over the table's slots.
 */
#include <stdbool.h>
#include "fdtable.h"
#include "kernel/mm/kmalloc.h"
#include "lib/string.h"

static uint32_t bitmap_words(uint32_t max_fds)
{
	return (max_fds + 31) / 32;
}

/* A zeroed table of max_fds slots, or NULL. */
struct fdtable *fdtable_alloc(uint32_t max_fds)
{
	uint32_t size = sizeof(struct fdtable) + max_fds * sizeof(struct file *) +
			bitmap_words(max_fds) * sizeof(uint32_t);
	struct fdtable *t = kzalloc(size);
	if (!t)
		return NULL;
	t->max_fds = max_fds;
	t->fd = (struct file **)(t + 1);
	t->cloexec = (uint32_t *)(t->fd + max_fds);
	return t;
}

/* The table and the ones it grew from; the files are the caller's. */
void fdtable_free(struct fdtable *t)
{
	while (t) {
		struct fdtable *old = t->old;
		kfree(t);
		t = old;
	}
}

/* A copy of t with room for descriptor fd (doubling, as Linux's
 * expand_fdtable rounds up), t chained behind it; NULL if no memory. */
struct fdtable *fdtable_grow(struct fdtable *t, uint32_t fd)
{
	uint32_t max = t->max_fds;
	while (max <= fd)
		max *= 2;
	struct fdtable *n = fdtable_alloc(max);
	if (!n)
		return NULL;
	memcpy(n->fd, t->fd, t->max_fds * sizeof(struct file *));
	memcpy(n->cloexec, t->cloexec, bitmap_words(t->max_fds) * sizeof(uint32_t));
	n->old = t;
	return n;
}

bool fdtable_cloexec(const struct fdtable *t, uint32_t fd)
{
	return (t->cloexec[fd / 32] >> (fd % 32)) & 1;
}

void fdtable_set_cloexec(struct fdtable *t, uint32_t fd, bool on)
{
	if (on)
		t->cloexec[fd / 32] |= 1u << (fd % 32);
	else
		t->cloexec[fd / 32] &= ~(1u << (fd % 32));
}
