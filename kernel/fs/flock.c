/*
 * flock.c - POSIX record locks: fcntl's F_GETLK, F_SETLK and F_SETLKW
 * (and their 64-bit forms), as sqlite3 takes them on its database.
 *
 * A lock is a byte range of a file (a node of the tree) held by a process
 * (its thread group), for reading (shared) or writing (exclusive). Two
 * locks conflict when their owners differ, their ranges overlap and one
 * of them is a write lock. A process's new lock replaces what it held
 * over that range (the rest of an old lock stays, split if need be). All
 * of a process's locks on a file go when it closes any descriptor of the
 * file, and when it exits: POSIX's rule, Linux's too.
 *
 * One list for every file and one spinlock (flock_lock), as Linux's first
 * implementation had: a teaching kernel has few locks at once. A waiter
 * (F_SETLKW) sleeps on one queue, woken at every unlock. There is no
 * deadlock detection (Linux's EDEADLK), and no OFD locks (F_OFD_*: EINVAL).
 */
#include "file.h"
#include "lib/errno.h"
#include "lib/spinlock.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include "kernel/task/proc.h"		/* current, signal_pending, schedule */
#include <uapi/fcntl.h>

#define OFFSET_MAX	INT64_MAX	/* a lock to the end of the file and beyond */

struct file_lock {
	struct file_lock *next;
	const struct initrd_file *node;
	int owner;			/* the thread group's id */
	short type;			/* F_RDLCK or F_WRLCK */
	int64_t start, end;		/* bytes start..end, both included */
};

static struct file_lock *locks;
static struct spinlock flock_lock = SPINLOCK_INIT("flock");
static struct waitq flock_wait = { .lock = SPINLOCK_INIT("flock wait"), .head = NULL };

static int owner_of_current(void)
{
	return current()->group_leader->pid;
}

/* Under flock_lock: a lock of another owner in the way of want, or NULL. */
static struct file_lock *conflict(const struct file_lock *want)
{
	for (struct file_lock *l = locks; l; l = l->next)
		if (l->node == want->node && l->owner != want->owner &&
		    l->start <= want->end && want->start <= l->end &&
		    (l->type == F_WRLCK || want->type == F_WRLCK))
			return l;
	return NULL;
}

/* Under flock_lock: want's owner lets go of want's range of its file,
 * keeping the parts of its locks outside it. spare: a lock to use for a
 * split (consumed: *spare set to NULL), or NULL when none is needed. */
static void cut_range(const struct file_lock *want, struct file_lock **spare)
{
	for (struct file_lock **pp = &locks, *l; (l = *pp) != NULL;) {
		if (l->node != want->node || l->owner != want->owner ||
		    l->end < want->start || want->end < l->start) {
			pp = &l->next;
			continue;
		}
		if (l->start < want->start && l->end > want->end) {	/* split in two */
			struct file_lock *tail = *spare;
			*spare = NULL;
			*tail = *l;
			tail->start = want->end + 1;
			l->end = want->start - 1;
			l->next = tail;
			return;
		}
		if (l->start < want->start) {
			l->end = want->start - 1;
		} else if (l->end > want->end) {
			l->start = want->end + 1;
		} else {
			*pp = l->next;
			kfree(l);
			continue;
		}
		pp = &l->next;
	}
}

/* Under flock_lock: mine (not yet listed) takes in its owner's locks of
 * the same type that touch it, as Linux merges them (F_GETLK then shows
 * one range, not the pieces it was taken in). */
static void merge_neighbours(struct file_lock *mine)
{
	for (struct file_lock **pp = &locks, *l; (l = *pp) != NULL;) {
		bool touches = l->node == mine->node && l->owner == mine->owner &&
			       l->type == mine->type &&
			       ((l->end != OFFSET_MAX && l->end + 1 == mine->start) ||
				(mine->end != OFFSET_MAX && mine->end + 1 == l->start));
		if (!touches) {
			pp = &l->next;
			continue;
		}
		mine->start = l->start < mine->start ? l->start : mine->start;
		mine->end = l->end > mine->end ? l->end : mine->end;
		*pp = l->next;
		kfree(l);
	}
}

/* The range the caller's flock names, from whence: 0, or -EINVAL. */
static int to_range(struct file *f, int whence, int64_t start, int64_t len,
		    struct file_lock *out)
{
	int64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? (int64_t)f->offset :
		       whence == SEEK_END ? (int64_t)f->node->size : -1;
	if (base < 0)
		return -EINVAL;
	start += base;
	if (len < 0) {			/* the len bytes before start */
		start += len;
		len = -len;
	}
	if (start < 0)
		return -EINVAL;
	out->start = start;
	out->end = len == 0 || len > OFFSET_MAX - start ? OFFSET_MAX : start + len - 1;
	return 0;
}

/* F_SETLK and F_SETLKW: want (its type F_UNLCK to let go) put in place,
 * waiting for conflicting locks to go when wait. */
static int set_lock(struct file_lock *want, bool wait)
{
	struct file_lock *spare = kmalloc(sizeof(*spare)), *mine = NULL;
	if (want->type != F_UNLCK && !(mine = kmalloc(sizeof(*mine)))) {
		kfree(spare);
		return -ENOLCK;
	}
	int err = 0;
	spin_lock(&flock_lock);
	while (want->type != F_UNLCK && conflict(want)) {
		if (!wait || signal_pending(current())) {
			err = wait ? -ERESTARTSYS : -EAGAIN;
			break;
		}
		struct waiter w;
		waitq_prepare(&flock_wait, &w, TASK_INTERRUPTIBLE);
		spin_unlock(&flock_lock);
		if (!signal_pending(current()))
			schedule();
		waitq_finish(&flock_wait, &w);
		spin_lock(&flock_lock);
	}
	if (!err && !spare)
		err = -ENOLCK;			/* a split could need it: no memory */
	if (!err) {
		cut_range(want, &spare);
		if (mine) {
			*mine = *want;
			merge_neighbours(mine);
			mine->next = locks;
			locks = mine;
			mine = NULL;
		}
	}
	spin_unlock(&flock_lock);
	kfree(spare);
	kfree(mine);
	if (!err)
		waitq_wake_all(&flock_wait);	/* a range may have come free */
	return err;
}

/* F_GETLK: the first lock in want's way, or F_UNLCK in type. */
static void get_lock(struct file_lock *want, int *pid)
{
	spin_lock(&flock_lock);
	struct file_lock *l = conflict(want);
	if (l) {
		*want = *l;
		*pid = l->owner;
	} else {
		want->type = F_UNLCK;
	}
	spin_unlock(&flock_lock);
}

void locks_release(const struct initrd_file *node, int owner)
{
	struct file_lock want = { .node = node, .owner = owner, .start = 0, .end = OFFSET_MAX };
	struct file_lock *spare = NULL;
	bool any = false;
	spin_lock(&flock_lock);
	for (struct file_lock *l = locks; l && !any; l = l->next)
		any = l->node == node && l->owner == owner;
	if (any)
		cut_range(&want, &spare);	/* the whole range: never a split */
	spin_unlock(&flock_lock);
	if (any)
		waitq_wake_all(&flock_wait);
}

/* fcntl's lock commands on f; flock64: uarg is a struct flock64. */
int fcntl_lock(struct file *f, int cmd, void *uarg, bool flock64)
{
	struct uapi_flock64 fl;
	if (!f->node)
		return -EINVAL;			/* a pipe, a socket: Linux locks those too */
	if (flock64 && copy_from_user(&fl, uarg, sizeof(fl)) < 0)
		return -EFAULT;
	if (!flock64) {
		struct uapi_flock s;
		if (copy_from_user(&s, uarg, sizeof(s)) < 0)
			return -EFAULT;
		fl = (struct uapi_flock64){ s.l_type, s.l_whence, s.l_start, s.l_len, s.l_pid };
	}
	struct file_lock want = { .node = f->node, .owner = owner_of_current(), .type = fl.l_type };
	bool get = cmd == F_GETLK || cmd == F_GETLK64;
	if (fl.l_type != F_RDLCK && fl.l_type != F_WRLCK && (fl.l_type != F_UNLCK || get))
		return -EINVAL;
	int err = to_range(f, fl.l_whence, fl.l_start, fl.l_len, &want);
	if (err)
		return err;
	if (get) {			/* Linux: nothing in the way changes only l_type */
		int pid = 0;
		get_lock(&want, &pid);
		if (want.type == F_UNLCK)
			fl.l_type = F_UNLCK;
		else
			fl = (struct uapi_flock64){ want.type, SEEK_SET, want.start,
				want.end == OFFSET_MAX ? 0 : want.end - want.start + 1, pid };
		if (!flock64) {
			struct uapi_flock s = { fl.l_type, fl.l_whence, (int32_t)fl.l_start,
						(int32_t)fl.l_len, fl.l_pid };
			return copy_to_user(uarg, &s, sizeof(s)) < 0 ? -EFAULT : 0;
		}
		return copy_to_user(uarg, &fl, sizeof(fl)) < 0 ? -EFAULT : 0;
	}
	int acc = (int)(f->flags & O_ACCMODE);
	if ((fl.l_type == F_RDLCK && acc == O_WRONLY) || (fl.l_type == F_WRLCK && acc == O_RDONLY))
		return -EBADF;			/* a lock needs the matching access */
	return set_lock(&want, cmd == F_SETLKW || cmd == F_SETLKW64);
}
