/*
 * mqueue.c - POSIX message queues, as Linux's ipc/mqueue.c keeps them: a
 * queue has a name (one flat name space, Linux's mqueue file system
 * without its mount), an owner and a mode, room for maxmsg messages of
 * at most msgsize bytes each, and its messages by priority (highest
 * first, the oldest first among equals). mq_open gives an open file
 * (FT_MQUEUE) like any other descriptor: close, dup, fork, poll (POLLIN
 * with a message, POLLOUT with room) and read (Linux's status line) work
 * on it; a queue lives while it is named or open.
 *
 * mq_timedsend and mq_timedreceive wait, when full or empty, until there
 * is room or a message, their absolute CLOCK_REALTIME deadline
 * (ETIMEDOUT) or a signal (EINTR); O_NONBLOCK on the open description
 * makes that EAGAIN. mq_notify registers one process: when a message
 * arrives in an empty queue and no receiver waits, it is sent its signal
 * (si_code SI_MESGQ, the sender's pid and uid, the sigev_value) or
 * nothing (SIGEV_NONE), once. /proc/sys/fs/mqueue has Linux's limits
 * (CAP_SYS_RESOURCE passes msg_max, msgsize_max and queues_max). Not
 * built: the mqueue file system's mount (/dev/mqueue), SIGEV_THREAD (it
 * needs a netlink socket: glibc's mq_notify makes one), and
 * RLIMIT_MSGQUEUE's count.
 *
 * mq_lock guards the name list, every queue and every message list; no
 * copy to or from user memory happens under it. Sending and receiving
 * are mqueue_msg.c's.
 */
#include "mqueue.h"
#include "file.h"
#include "fs.h"
#include "namei.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include "kernel/task/proc.h"
#include "kernel/time/sleep.h"
#include "kernel/time/systime.h"
#include "kernel/time/time.h"
#include <uapi/fcntl.h>
#include <uapi/mqueue.h>
#include <uapi/poll.h>
#include <uapi/signal.h>
#include <uapi/time.h>

struct spinlock mq_lock = SPINLOCK_INIT("mqueue");
static struct mqueue *queues;
static int nr_queues;

/* /proc/sys/fs/mqueue, in name order: value, least, most. */
static struct { const char *name; uint32_t value, min, max; } limits[MQ_SYSCTL_NR] = {
	{ "msg_default",	10,	1,	HARD_MSGMAX },
	{ "msg_max",		10,	1,	HARD_MSGMAX },
	{ "msgsize_default",	8192,	128,	HARD_MSGSIZEMAX },
	{ "msgsize_max",	8192,	128,	HARD_MSGSIZEMAX },
	{ "queues_max",		256,	0,	INT32_MAX },
};
enum { MSG_DEFAULT, MSG_MAX, MSGSIZE_DEFAULT, MSGSIZE_MAX, QUEUES_MAX };

const char *mq_sysctl_name(int i) { return limits[i].name; }
uint32_t mq_sysctl_value(int i)  { return __atomic_load_n(&limits[i].value, __ATOMIC_RELAXED); }

int mq_sysctl_write(int i, const char *text, uint32_t len)
{
	int64_t v;
	if (parse_decimals(text, len, &v, 1) != 1 || v < limits[i].min || v > limits[i].max)
		return -EINVAL;
	__atomic_store_n(&limits[i].value, (uint32_t)v, __ATOMIC_RELAXED);
	return 0;
}

/* ---- names and lives ------------------------------------------------ */

static struct mqueue *find(const char *name)
{
	struct mqueue *q = queues;
	while (q && strcmp(q->name, name) != 0)
		q = q->next;
	return q;
}

void mq_put(struct mqueue *q)
{
	spin_lock(&mq_lock);
	bool last = --q->refs == 0;
	spin_unlock(&mq_lock);
	if (!last)
		return;
	while (q->msgs) {
		struct mq_msg *m = q->msgs;
		q->msgs = m->next;
		kfree(m);
	}
	kfree(q);
}

/* The name from user memory, as Linux's mqueue lookup takes it (glibc
 * took the leading '/' off): too long ENAMETOOLONG, empty ENOENT, with a
 * '/' EACCES. */
static int get_name(const char *uname, char name[MQ_NAME_MAX + 1])
{
	int n = strncpy_from_user(name, uname, MQ_NAME_MAX + 1);
	if (n < 0)
		return n;
	if (n == 0)
		return -ENOENT;
	return strchr(name, '/') ? -EACCES : 0;
}

/* May the caller open q so (Linux's inode permission of its file)? */
static bool may_open(const struct mqueue *q, int accmode)
{
	int want = accmode == O_RDONLY ? MAY_READ : accmode == O_WRONLY ? MAY_WRITE : MAY_READ | MAY_WRITE;
	return mode_permission((uint32_t)q->uid, (uint32_t)q->gid, q->mode, false, want) == 0;
}

/* A new queue of attributes a (NULL: the defaults), checked as Linux's
 * mqueue_attr_ok: EINVAL, or ENOMEM. */
static int make(const char *name, uint32_t mode, const struct mq_attr *a, struct mqueue **out)
{
	long maxmsg = mq_sysctl_value(MSG_DEFAULT), msgsize = mq_sysctl_value(MSGSIZE_DEFAULT);
	if (a) {
		bool rooted = capable(CAP_SYS_RESOURCE);
		if (a->mq_maxmsg <= 0 || a->mq_msgsize <= 0)
			return -EINVAL;
		if (rooted ? a->mq_maxmsg > HARD_MSGMAX || a->mq_msgsize > HARD_MSGSIZEMAX
			   : a->mq_maxmsg > (long)mq_sysctl_value(MSG_MAX) ||
			     a->mq_msgsize > (long)mq_sysctl_value(MSGSIZE_MAX))
			return -EINVAL;
		maxmsg = a->mq_maxmsg;
		msgsize = a->mq_msgsize;
	}
	size_t len = strlen(name) + 1;
	struct mqueue *q = kzalloc(sizeof(*q) + len);
	if (!q)
		return -ENOMEM;
	strlcpy(q->name, name, len);
	q->uid = current()->euid;
	q->gid = current()->egid;
	q->mode = mode & 0777 & ~__atomic_load_n(&current()->fs->umask, __ATOMIC_RELAXED);
	q->maxmsg = maxmsg;
	q->msgsize = msgsize;
	waitq_init(&q->wait, "mqueue");
	*out = q;
	return 0;
}

/* What mq_open may do with q, found by its name: 0 or -errno. mq_lock. */
static int may_reopen(const struct mqueue *q, int oflag)
{
	if ((oflag & (O_CREAT | O_EXCL)) == (O_CREAT | O_EXCL))
		return -EEXIST;
	if ((oflag & O_ACCMODE) == O_ACCMODE)
		return -EINVAL;			/* Linux: only when it exists */
	return may_open(q, oflag & O_ACCMODE) ? 0 : -EACCES;
}

/* Find or make the queue for mq_open, with a reference: 0 or -errno.
 * The attributes are checked only for a queue it makes (Linux's). */
static int open_queue(const char *name, int oflag, uint32_t mode, const struct mq_attr *a,
		      struct mqueue **out)
{
	struct mqueue *fresh = NULL, *q;
	int err;
	for (;;) {
		spin_lock(&mq_lock);
		q = find(name);
		if (q || !(oflag & O_CREAT) || fresh)
			break;
		spin_unlock(&mq_lock);		/* made outside the lock, then again */
		if ((err = make(name, mode, a, &fresh)) != 0)
			return err;
	}
	if (q)
		err = may_reopen(q, oflag);
	else if (!fresh)
		err = -ENOENT;
	else if (nr_queues >= (int)mq_sysctl_value(QUEUES_MAX) && !capable(CAP_SYS_RESOURCE))
		err = -ENOSPC;
	else
		err = 0;
	if (!err && !q) {
		q = fresh;
		fresh = NULL;
		q->named = true;
		q->refs = 1;		/* the name's */
		q->next = queues;
		queues = q;
		nr_queues++;
	}
	if (!err)
		q->refs++;		/* the file's */
	spin_unlock(&mq_lock);
	kfree(fresh);			/* another made it first */
	*out = err ? NULL : q;
	return err;
}

/* 277: mq_open(name, oflag, mode, attr): a descriptor, or -errno. */
int sys_mq_open(const char *uname, int oflag, uint32_t mode, const struct mq_attr *uattr)
{
	char name[MQ_NAME_MAX + 1];
	struct mq_attr a;
	int err = get_name(uname, name);
	if (err)
		return err;
	if ((oflag & O_CREAT) && uattr && copy_from_user(&a, uattr, sizeof(a)) < 0)
		return -EFAULT;
	struct mqueue *q;
	err = open_queue(name, oflag, mode, (oflag & O_CREAT) && uattr ? &a : NULL, &q);
	if (err)
		return err;
	struct file *f = file_alloc(FT_MQUEUE);
	if (!f) {
		mq_put(q);
		return -ENOMEM;
	}
	f->mq = q;
	f->flags = (uint32_t)oflag & (O_ACCMODE | O_NONBLOCK);
	int fd = fd_install(f, oflag & O_CLOEXEC);
	if (fd < 0)
		file_close(f);
	return fd;
}

/* 278: mq_unlink(name): the name goes (the queue lives on while open).
 * Only the queue's owner or CAP_FOWNER removes it (EACCES, as Linux 6.1
 * answers). */
int sys_mq_unlink(const char *uname)
{
	char name[MQ_NAME_MAX + 1];
	int err = get_name(uname, name);
	if (err)
		return err;
	spin_lock(&mq_lock);
	struct mqueue *q = find(name), **pp = &queues;
	if (!q)
		err = -ENOENT;
	else if (q->uid != current()->euid && !capable(CAP_FOWNER))
		err = -EACCES;
	if (!err) {
		while (*pp != q)
			pp = &(*pp)->next;
		*pp = q->next;
		q->named = false;
		nr_queues--;
	}
	spin_unlock(&mq_lock);
	if (!err)
		mq_put(q);		/* the name's reference */
	return err;
}

/* ---- the file ------------------------------------------------------- */

void mq_file_close(struct file *f)
{
	struct mqueue *q = f->mq;
	spin_lock(&mq_lock);		/* Linux's mqueue_flush_file: ours goes */
	if (q->notify_pid == current()->group_leader->pid)
		q->notify_pid = 0;
	spin_unlock(&mq_lock);
	mq_put(q);
}

void mq_file_owner(const struct file *f, uint32_t *mode, uint32_t *uid, uint32_t *gid)
{
	*mode = f->mq->mode;
	*uid = (uint32_t)f->mq->uid;
	*gid = (uint32_t)f->mq->gid;
}

/* Linux's d_path of the file in the mqueue file system: "/NAME". */
int mq_file_path(struct file *f, char *buf, uint32_t size)
{
	return ksnprintf(buf, size, "/%s", f->mq->name);
}

uint32_t mq_file_poll(struct file *f)
{
	struct mqueue *q = f->mq;
	spin_lock(&mq_lock);
	uint32_t mask = (q->curmsgs ? POLLIN | POLLRDNORM : 0) |
			(q->curmsgs < q->maxmsg ? POLLOUT | POLLWRNORM : 0);
	spin_unlock(&mq_lock);
	return mask;
}

struct waitq *mq_file_waitq(struct file *f)
{
	return &f->mq->wait;
}

/* read(): Linux's status line of the queue, from the file's offset. */
int mq_file_read(struct file *f, void *ubuf, uint32_t n)
{
	struct mqueue *q = f->mq;
	char text[96];
	spin_lock(&mq_lock);
	int len = ksnprintf(text, sizeof(text), "QSIZE:%-10u NOTIFY:%-5d SIGNO:%-5d NOTIFY_PID:%-6d\n",
			    q->qsize, q->notify_pid && !q->notify_signo ? SIGEV_NONE : 0,
			    q->notify_pid ? q->notify_signo : 0, q->notify_pid);
	spin_unlock(&mq_lock);
	if (f->offset >= (uint64_t)len)
		return 0;
	if (n > (uint32_t)len - f->offset)
		n = (uint32_t)len - (uint32_t)f->offset;
	if (copy_to_user(ubuf, text + f->offset, n) < 0)
		return -EFAULT;
	f->offset += n;
	return (int)n;
}
