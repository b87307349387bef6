/*
 * fdtable.c - a process's descriptors (struct files_struct, fdtable.h):
 * made, copied by fork, shared by clone(CLONE_FILES), let go at exit,
 * copied again when exec finds it shared; and the table's memory: one
 * kmalloc'd block holding the header, the file slots and the
 * close-on-exec bits. Growing copies
 * the slots into a table twice as large (or large enough) and keeps the
 * old one chained to the new: a thread that read the table's address
 * just before may still be looking at it without the lock (Linux frees
 * the old table after an RCU grace period; we free it when the process's
 * descriptors go, at most as much memory again as the table itself).
 * The first table lives in the files_struct's own block, as Linux's.
 * The caller (kernel/fs/file.c) holds the lock over the table's slots.
 */
#include <stdbool.h>
#include "fdtable.h"
#include "file.h"
#include "lib/errno.h"
#include "kernel/task/proc.h"
#include "kernel/mm/kmalloc.h"
#include "lib/string.h"

static uint32_t bitmap_words(uint32_t max_fds)
{
	return (max_fds + 31) / 32;
}

/* The bytes of max_fds slots and their close-on-exec bits. */
static uint32_t slots_size(uint32_t max_fds)
{
	return max_fds * sizeof(struct file *) + bitmap_words(max_fds) * sizeof(uint32_t);
}

/* Point t at its slots, which start at mem. */
static void table_init(struct fdtable *t, void *mem, uint32_t max_fds)
{
	t->max_fds = max_fds;
	t->fd = mem;
	t->cloexec = (uint32_t *)(t->fd + max_fds);
}

/* A zeroed table of max_fds slots, or NULL. */
static struct fdtable *fdtable_alloc(uint32_t max_fds)
{
	struct fdtable *t = kzalloc(sizeof(struct fdtable) + slots_size(max_fds));
	if (t)
		table_init(t, t + 1, max_fds);
	return t;
}

struct files_struct *files_alloc(uint32_t max_fds)
{
	struct files_struct *files = kzalloc(sizeof(*files) + slots_size(max_fds));
	if (!files)
		return NULL;
	files->count = 1;
	spin_init(&files->file_lock, "fd table");
	table_init(&files->fdtab, files + 1, max_fds);
	files->fdt = &files->fdtab;
	return files;
}

/* The tables grown from fdtab, newest first, then the block itself. */
void files_free(struct files_struct *files)
{
	struct fdtable *t = files->fdt;
	while (t != &files->fdtab) {
		struct fdtable *old = t->old;
		kfree(t);
		t = old;
	}
	kfree(files);
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

/* ---- the descriptors of a process ------------------------------------- */

/* execve, once the other threads are gone and a shared table is
 * copied (files_unshare): p's table is its own. */
void fd_close_on_exec(struct proc *p)
{
	struct fdtable *t = p->files->fdt;
	for (uint32_t fd = 0; fd < t->max_fds; fd++) {
		if (fdtable_cloexec(t, fd) && t->fd[fd]) {
			file_close(t->fd[fd]);
			t->fd[fd] = NULL;
		}
		fdtable_set_cloexec(t, fd, false);
	}
}

/* A copy of from's table, each file shared (one more reference); NULL
 * if no memory. */
static struct files_struct *files_copy(struct files_struct *from)
{
	spin_lock(&from->file_lock);
	struct fdtable *t = from->fdt;
	struct files_struct *files = files_alloc(t->max_fds);
	if (files) {
		struct file **to = files->fdtab.fd;
		for (uint32_t fd = 0; fd < t->max_fds; fd++)
			if ((to[fd] = t->fd[fd]) != NULL)
				file_dup(to[fd]);
		memcpy(files->fdtab.cloexec, t->cloexec, bitmap_words(t->max_fds) * sizeof(uint32_t));
	}
	spin_unlock(&from->file_lock);
	return files;
}

int copy_files(struct proc *child, struct proc *parent, bool share)
{
	if (share) {
		__atomic_add_fetch(&parent->files->count, 1, __ATOMIC_RELAXED);
		child->files = parent->files;
		return 0;
	}
	child->files = files_copy(parent->files);
	return child->files ? 0 : -ENOMEM;
}

/* files goes with its last user: every descriptor is closed, with the
 * record locks its owner holds on the file. */
static void files_close_all(struct files_struct *files, int owner)
{
	struct fdtable *t = files->fdt;
	for (uint32_t fd = 0; fd < t->max_fds; fd++)
		if (t->fd[fd]) {
			if (t->fd[fd]->node)
				locks_release(t->fd[fd]->node, owner);
			file_close(t->fd[fd]);
		}
	files_free(files);
}

/* A process that lets go of a table others keep still lets go of its
 * record locks (POSIX: they are the process's, and end with it). */
static void files_drop_locks(struct files_struct *files, int owner)
{
	spin_lock(&files->file_lock);
	struct fdtable *t = files->fdt;
	for (uint32_t fd = 0; fd < t->max_fds; fd++)
		if (t->fd[fd] && t->fd[fd]->node)
			locks_release(t->fd[fd]->node, owner);
	spin_unlock(&files->file_lock);
}

void files_put(struct files_struct *files, int tgid, bool process_ends)
{
	if (process_ends && __atomic_load_n(&files->count, __ATOMIC_ACQUIRE) > 1)
		files_drop_locks(files, tgid);
	if (__atomic_sub_fetch(&files->count, 1, __ATOMIC_ACQ_REL) == 0)
		files_close_all(files, tgid);
}

int files_unshare(struct proc *p)
{
	struct files_struct *old = p->files;
	if (__atomic_load_n(&old->count, __ATOMIC_ACQUIRE) == 1)
		return 0;
	struct files_struct *files = files_copy(old);
	if (!files)
		return -ENOMEM;
	task_lock(p);
	p->files = files;
	task_unlock(p);
	files_put(old, p->group_leader->pid, false);	/* its copy keeps the locks' files */
	return 0;
}
