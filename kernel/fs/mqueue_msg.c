/*
 * mqueue_msg.c - a POSIX message queue's messages (kernel/fs/mqueue.c
 * says the rules): mq_timedsend and mq_timedreceive (279, 280, and the
 * *_time64 calls 418, 419), mq_notify (281), mq_getsetattr (282).
 * Linux's checks, in Linux's order.
 */
#include "mqueue.h"
#include "file.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include "kernel/time/sleep.h"
#include "kernel/time/systime.h"
#include "kernel/time/time.h"
#include <uapi/fcntl.h>
#include <uapi/mqueue.h>
#include <uapi/signal.h>
#include <uapi/time.h>

/* The open queue on fd for a call that needs it readable (O_RDONLY) or
 * writable (O_WRONLY), or either way (-1), with the file held: fd_done()
 * after; r.file NULL when fd is no such queue (EBADF). */
static struct fd_ref queue_of(int fd, int accmode, struct mqueue **q)
{
	struct fd_ref r = fd_use(fd);
	uint32_t mode = r.file ? r.file->flags & O_ACCMODE : 0;
	if (r.file && (r.file->type != FT_MQUEUE ||
		       (accmode >= 0 && mode != O_RDWR && mode != (uint32_t)accmode))) {
		fd_done(r);
		r.file = NULL;
	}
	*q = r.file ? r.file->mq : NULL;
	return r;
}

/* Sleep on q (mq_lock held, and again on return) until woken, the
 * deadline (0: none) or a signal: 0, -ETIMEDOUT or -EINTR. */
static int wait_on(struct mqueue *q, uint64_t deadline)
{
	struct waiter w;
	waitq_prepare(&q->wait, &w, TASK_INTERRUPTIBLE);
	if (deadline)
		sleep_timer_start(deadline);
	spin_unlock(&mq_lock);
	if (!signal_pending(current()) && (!deadline || clock_ns() < deadline))
		schedule();
	if (deadline)
		sleep_timer_cancel();
	waitq_finish(&q->wait, &w);
	spin_lock(&mq_lock);
	return deadline && clock_ns() >= deadline ? -ETIMEDOUT :
	       signal_pending(current()) ? -EINTR : 0;
}

/* An absolute CLOCK_REALTIME timeout as a CLOCK_MONOTONIC deadline
 * (0: none); -EFAULT, or -EINVAL for a bad one (Linux's prepare_timeout). */
static int deadline_of(const void *uts, bool time64, uint64_t *deadline)
{
	*deadline = 0;
	if (!uts)
		return 0;
	int64_t sec, nsec;
	if (time64) {
		struct timespec64 t;
		if (copy_from_user(&t, uts, sizeof(t)) < 0)
			return -EFAULT;
		sec = t.tv_sec, nsec = t.tv_nsec;
	} else {
		struct timespec32 t;
		if (copy_from_user(&t, uts, sizeof(t)) < 0)
			return -EFAULT;
		sec = t.tv_sec, nsec = t.tv_nsec;
	}
	if (sec < 0 || nsec < 0 || nsec >= 1000000000)
		return -EINVAL;
	uint64_t at = (uint64_t)sec * 1000000000ull + (uint64_t)nsec, off = realtime_offset_ns();
	*deadline = at > off ? at - off : 1;	/* past: at once (1: not "none") */
	return 0;
}

/* The message joins q after those of its priority and above. mq_lock. */
static void enqueue(struct mqueue *q, struct mq_msg *m)
{
	struct mq_msg **pp = &q->msgs;
	while (*pp && (*pp)->prio >= m->prio)
		pp = &(*pp)->next;
	m->next = *pp;
	*pp = m;
	q->curmsgs++;
	q->qsize += m->len;
}

/* A message into an empty queue tells the registered process, once
 * (Linux's __do_notify): not while a receiver waits for it. mq_lock. */
static void notify(struct mqueue *q, bool receivers)
{
	if (!q->notify_pid || q->curmsgs != 1 || receivers)
		return;
	int pid = q->notify_pid, sig = q->notify_signo;
	q->notify_pid = 0;
	if (!sig)
		return;			/* SIGEV_NONE */
	struct proc *t = proc_get(pid);
	if (!t)
		return;
	struct ksiginfo info = { .code = SI_MESGQ, .pid = current()->group_leader->pid,
				 .uid = current()->uid, .status = q->notify_value };
	signal_send_process(t, sig, &info);
	proc_put(t);
}

static int timed_send(int fd, const char *uptr, uint32_t len, uint32_t prio, const void *uts,
		      bool time64)
{
	uint64_t deadline;
	int err = deadline_of(uts, time64, &deadline);
	if (err)
		return err;
	if (prio >= MQ_PRIO_MAX)
		return -EINVAL;
	struct mqueue *q;
	struct fd_ref r = queue_of(fd, O_WRONLY, &q);
	if (!r.file)
		return -EBADF;
	bool nonblock = r.file->flags & O_NONBLOCK;
	err = len > (uint32_t)q->msgsize ? -EMSGSIZE : 0;
	struct mq_msg *m = err ? NULL : kmalloc(sizeof(*m) + len);
	if (!err && !m)
		err = -ENOMEM;
	if (!err && copy_from_user(m->data, uptr, len) < 0)
		err = -EFAULT;
	if (!err) {
		m->len = len;
		m->prio = prio;
		spin_lock(&mq_lock);
		while (!err && q->curmsgs >= q->maxmsg)
			err = nonblock ? -EAGAIN : wait_on(q, deadline);
		if (!err) {
			bool receivers = q->receivers > 0;
			enqueue(q, m);
			m = NULL;
			notify(q, receivers);
		}
		spin_unlock(&mq_lock);
		if (!err)
			waitq_wake_all(&q->wait);
	}
	kfree(m);
	fd_done(r);
	return err;
}

/* The highest message, off the queue. mq_lock held. */
static struct mq_msg *dequeue(struct mqueue *q)
{
	struct mq_msg *m = q->msgs;
	q->msgs = m->next;
	q->curmsgs--;
	q->qsize -= m->len;
	return m;
}

static int timed_receive(int fd, char *uptr, uint32_t len, uint32_t *uprio, const void *uts,
			 bool time64)
{
	uint64_t deadline;
	int err = deadline_of(uts, time64, &deadline);
	if (err)
		return err;
	struct mqueue *q;
	struct fd_ref r = queue_of(fd, O_RDONLY, &q);
	if (!r.file)
		return -EBADF;
	bool nonblock = r.file->flags & O_NONBLOCK;
	struct mq_msg *m = NULL;
	if (len < (uint32_t)q->msgsize)
		err = -EMSGSIZE;
	if (!err) {
		spin_lock(&mq_lock);
		q->receivers++;
		while (!err && !q->curmsgs)
			err = nonblock ? -EAGAIN : wait_on(q, deadline);
		q->receivers--;
		if (!err)
			m = dequeue(q);
		spin_unlock(&mq_lock);
	}
	if (m) {
		waitq_wake_all(&q->wait);	/* room for a sender */
		/* taken off first, as Linux: a bad buffer loses it */
		err = copy_to_user(uptr, m->data, m->len) < 0 ? -EFAULT : (int)m->len;
		if (err >= 0 && uprio && copy_to_user(uprio, &m->prio, sizeof(m->prio)) < 0)
			err = -EFAULT;
		kfree(m);
	}
	fd_done(r);
	return err;
}

int sys_mq_timedsend(int fd, const char *uptr, uint32_t len, uint32_t prio, const void *uts)
{
	return timed_send(fd, uptr, len, prio, uts, false);
}

int sys_mq_timedsend_time64(int fd, const char *uptr, uint32_t len, uint32_t prio, const void *uts)
{
	return timed_send(fd, uptr, len, prio, uts, true);
}

int sys_mq_timedreceive(int fd, char *uptr, uint32_t len, uint32_t *uprio, const void *uts)
{
	return timed_receive(fd, uptr, len, uprio, uts, false);
}

int sys_mq_timedreceive_time64(int fd, char *uptr, uint32_t len, uint32_t *uprio, const void *uts)
{
	return timed_receive(fd, uptr, len, uprio, uts, true);
}

/* SIGEV_THREAD's sigev_signo names a netlink socket (Linux's
 * netlink_getsockbyfilp): none here, so EBADF, ENOTSOCK or EINVAL. */
static int thread_notify(int sockfd)
{
	struct fd_ref r = fd_use(sockfd);
	int err = !r.file ? -EBADF : r.file->type != FT_SOCKET ? -ENOTSOCK : -EINVAL;
	if (r.file)
		fd_done(r);
	return err;
}

/* 281: mq_notify(fd, sevp): register the caller's process (EBUSY if
 * another is), or with sevp NULL unregister it. */
int sys_mq_notify(int fd, const struct sigevent *usev)
{
	struct sigevent ev;
	if (usev) {
		if (copy_from_user(&ev, usev, sizeof(ev)) < 0)
			return -EFAULT;
		if (ev.sigev_notify != SIGEV_NONE && ev.sigev_notify != SIGEV_SIGNAL &&
		    ev.sigev_notify != SIGEV_THREAD)
			return -EINVAL;
		if (ev.sigev_notify == SIGEV_SIGNAL && (ev.sigev_signo < 1 || ev.sigev_signo > NSIG))
			return -EINVAL;
		if (ev.sigev_notify == SIGEV_THREAD)
			return thread_notify(ev.sigev_signo);
	}
	struct mqueue *q;
	struct fd_ref r = queue_of(fd, -1, &q);
	if (!r.file)
		return -EBADF;
	int me = current()->group_leader->pid, err = 0;
	spin_lock(&mq_lock);
	if (!usev) {
		if (q->notify_pid == me)
			q->notify_pid = 0;
	} else if (q->notify_pid) {
		err = -EBUSY;
	} else {
		q->notify_pid = me;
		q->notify_signo = ev.sigev_notify == SIGEV_SIGNAL ? ev.sigev_signo : 0;
		q->notify_value = ev.sigev_value;
	}
	spin_unlock(&mq_lock);
	fd_done(r);
	return err;
}

/* 282: mq_getsetattr(fd, newattr, oldattr): only mq_flags's O_NONBLOCK
 * changes (the open description's); oldattr is as it was before. */
int sys_mq_getsetattr(int fd, const struct mq_attr *unew, struct mq_attr *uold)
{
	struct mq_attr a, old;
	if (unew) {
		if (copy_from_user(&a, unew, sizeof(a)) < 0)
			return -EFAULT;
		if (a.mq_flags & ~O_NONBLOCK)
			return -EINVAL;
	}
	struct mqueue *q;
	struct fd_ref r = queue_of(fd, -1, &q);
	if (!r.file)
		return -EBADF;
	spin_lock(&mq_lock);
	old = (struct mq_attr){ .mq_flags = (long)(r.file->flags & O_NONBLOCK), .mq_maxmsg = q->maxmsg,
				.mq_msgsize = q->msgsize, .mq_curmsgs = q->curmsgs };
	if (unew)
		r.file->flags = (r.file->flags & ~(uint32_t)O_NONBLOCK) | (uint32_t)a.mq_flags;
	spin_unlock(&mq_lock);
	fd_done(r);
	return uold && copy_to_user(uold, &old, sizeof(old)) < 0 ? -EFAULT : 0;
}
