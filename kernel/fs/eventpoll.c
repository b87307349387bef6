/*
 * eventpoll.c - epoll (254-256, 319, 329): a descriptor that watches
 * other descriptors, Linux's fs/eventpoll.c in small.
 *
 * An epoll file keeps an interest list of items, one per (file, fd)
 * added with EPOLL_CTL_ADD, and a ready list. Each item hangs a hook on
 * its file's wait queue (file_waitq, the queue poll sleeps on; waitq.h's
 * hooks): when that queue is woken, the hook puts the item on the ready
 * list and wakes the epoll's own queue, where epoll_wait sleeps. So a
 * sleeping epoll_wait costs nothing until something it watches changes,
 * and it only looks at the items that changed. epoll_wait takes items
 * off the ready list and asks each file what it is ready for now
 * (file_poll): an item that is not ready any more is dropped; one that is
 * is reported and, level-triggered, put back at the tail, so it is looked
 * at again next time; EPOLLET items wait for their next wake-up, and
 * EPOLLONESHOT items are disabled until EPOLL_CTL_MOD. The wake-ups carry
 * no event mask here (Linux's keys): a hook fires for any change of its
 * queue, and the look at the file decides.
 *
 * An epoll file is itself pollable (POLLIN when one of its ready items
 * is ready), so it can be watched by another: a cycle, or a chain of
 * more than Linux's EP_MAX_NESTS + 1 epolls, is refused with ELOOP when
 * it would be made.
 * When the last reference to a watched file goes (file_close), its items
 * leave every interest list (eventpoll_release), as Linux's.
 *
 * Locks, in this order: ep_global (a mutex: every file's list of items,
 * the loop check, an epoll file's end), an epoll's mtx (its interest list;
 * held while items are looked at and reported, so none is freed
 * meanwhile; nested epolls are taken outer first, which the loop check
 * keeps acyclic), then ep->lock (a spinlock: the ready list, which hooks
 * touch from under the watched file's queue lock).
 *
 * Not done: EPOLLEXCLUSIVE is accepted with Linux's rules but every
 * waiter is woken; EPOLLWAKEUP is ignored; the interest list is a list,
 * not Linux's red-black tree (EPOLL_CTL_* walk it); no max_user_watches;
 * files that are always ready (regular files, /dev/null, /proc) have no
 * queue and are EPERM, as Linux's regular files (its /dev/urandom and
 * /proc files can be watched).
 */
#include <stddef.h>
#include "eventpoll.h"
#include "file.h"
#include "lib/errno.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"		/* KERNEL_OFFSET: the end of user space */
#include "kernel/sync/mutex.h"
#include "kernel/sync/waitq.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include "kernel/time/sleep.h"
#include "kernel/time/time.h"
#include <uapi/eventpoll.h>
#include <uapi/poll.h>

#define EP_MAX_NESTS	4		/* Linux's: epolls below an epoll */
#define EP_PRIVATE	(EPOLLWAKEUP | EPOLLONESHOT | EPOLLET | EPOLLEXCLUSIVE)
#define EP_EXCLUSIVE_OK	(EPOLLIN | EPOLLOUT | EPOLLERR | EPOLLHUP | EPOLLWAKEUP | EPOLLET | \
			 EPOLLEXCLUSIVE)
#define EP_MAX_EVENTS	(0x7fffffff / sizeof(struct epoll_event))
#define NO_DEADLINE	UINT64_MAX

struct epitem {
	struct eventpoll *ep;
	struct file *file;		/* not held: eventpoll_release drops the item first */
	int fd;				/* with file, the key (a dup is another item) */
	uint32_t events;		/* asked for; only EP_PRIVATE once a oneshot fired */
	uint64_t data;
	struct waitq *wq;		/* the file's queue, which hook hangs on */
	struct waiter hook;
	struct epitem *next;		/* the interest list (ep->mtx) */
	struct epitem *fnext;		/* the file's items (ep_global) */
	struct epitem *rnext;		/* the ready list, while ready (ep->lock) */
	bool ready;
};

struct eventpoll {
	struct mutex mtx;
	struct spinlock lock;
	struct epitem *items;
	struct epitem *rhead, *rtail;	/* the ready list, FIFO */
	struct waitq wq;		/* epoll_wait's sleepers and outer epolls' hooks */
	struct file *file;		/* its file: epitems there are the epolls above */
	uint32_t visited, up_visited;	/* the loop check's pass that last saw it, */
	int depth, up_depth;		/* and the depths it found (ep_global) */
};

static struct mutex ep_global = {
	.lock = SPINLOCK_INIT("epoll global"),
	.wait = { .lock = SPINLOCK_INIT("epoll global wait"), .head = NULL },
	.last_cpu = -1,
};
static uint32_t loop_pass;		/* under ep_global */

/* ---- the ready list ------------------------------------------------------ */

/* Under ep->lock. */
static void ready_append(struct eventpoll *ep, struct epitem *it)
{
	if (it->ready)
		return;
	it->ready = true;
	it->rnext = NULL;
	if (ep->rtail)
		ep->rtail->rnext = it;
	else
		ep->rhead = it;
	ep->rtail = it;
}

/* The head, taken off; NULL if none. Under ep->lock. */
static struct epitem *ready_pop(struct eventpoll *ep)
{
	struct epitem *it = ep->rhead;
	if (it) {
		ep->rhead = it->rnext;
		if (!ep->rhead)
			ep->rtail = NULL;
		it->ready = false;
	}
	return it;
}

static void ready_remove(struct eventpoll *ep, struct epitem *it)
{
	spin_lock(&ep->lock);
	struct epitem *prev = NULL;
	for (struct epitem *p = ep->rhead; p && it->ready; prev = p, p = p->rnext) {
		if (p != it)
			continue;
		if (prev)
			prev->rnext = it->rnext;
		else
			ep->rhead = it->rnext;
		if (ep->rtail == it)
			ep->rtail = prev;
		it->ready = false;
	}
	spin_unlock(&ep->lock);
}

static bool ready_any(struct eventpoll *ep)
{
	spin_lock(&ep->lock);
	bool any = ep->rhead != NULL;
	spin_unlock(&ep->lock);
	return any;
}

/* The wake-up of a watched file's queue, under that queue's lock. A
 * disabled oneshot item waits for EPOLL_CTL_MOD. */
static void ep_hook(struct waiter *w)
{
	struct epitem *it = (struct epitem *)((char *)w - offsetof(struct epitem, hook));
	struct eventpoll *ep = it->ep;
	spin_lock(&ep->lock);
	bool armed = it->events & ~EP_PRIVATE;
	if (armed)
		ready_append(ep, it);
	spin_unlock(&ep->lock);
	if (armed)
		waitq_wake_all(&ep->wq);
}

/* What it is ready for of what it asks (EPOLLERR, EPOLLHUP always). */
static uint32_t item_poll(struct epitem *it)
{
	return file_poll(it->file) & (it->events | EPOLLERR | EPOLLHUP) & ~EP_PRIVATE;
}

/* ---- the epoll file ------------------------------------------------------ */

static struct eventpoll *ep_of(struct file *f)
{
	return f->type == FT_EPOLL ? f->ep : NULL;
}

/* file_poll of an epoll file: POLLIN when an item on its ready list is
 * ready; the ones that are not leave the list, as Linux's. */
uint32_t eventpoll_poll(struct eventpoll *ep)
{
	uint32_t mask = 0;
	mutex_lock(&ep->mtx);
	for (;;) {
		spin_lock(&ep->lock);
		struct epitem *it = ready_pop(ep);
		spin_unlock(&ep->lock);
		if (!it)
			break;
		if (item_poll(it)) {
			spin_lock(&ep->lock);	/* back at the head, as it was */
			if (!it->ready) {
				it->ready = true;
				it->rnext = ep->rhead;
				ep->rhead = it;
				if (!ep->rtail)
					ep->rtail = it;
			}
			spin_unlock(&ep->lock);
			mask = POLLIN | POLLRDNORM;
			break;
		}
	}
	mutex_unlock(&ep->mtx);
	return mask;
}

struct waitq *eventpoll_waitq(struct eventpoll *ep)
{
	return &ep->wq;
}

/* Take it off its file's queue and lists, and free it; under ep_global
 * and ep->mtx. */
static void item_free(struct eventpoll *ep, struct epitem *it)
{
	waitq_hook_remove(it->wq, &it->hook);	/* after it, the hook never runs */
	ready_remove(ep, it);
	for (struct epitem **pp = &ep->items; *pp; pp = &(*pp)->next)
		if (*pp == it) {
			*pp = it->next;
			break;
		}
	for (struct epitem **pp = &it->file->epitems; *pp; pp = &(*pp)->fnext)
		if (*pp == it) {
			*pp = it->fnext;
			break;
		}
	kfree(it);
}

/* The last reference to f is gone: it leaves every interest list. */
void eventpoll_release(struct file *f)
{
	mutex_lock(&ep_global);
	while (f->epitems) {
		struct eventpoll *ep = f->epitems->ep;
		mutex_lock(&ep->mtx);
		item_free(ep, f->epitems);
		mutex_unlock(&ep->mtx);
	}
	mutex_unlock(&ep_global);
}

/* The epoll file's last reference is gone (after eventpoll_release). */
void eventpoll_free(struct eventpoll *ep)
{
	mutex_lock(&ep_global);
	mutex_lock(&ep->mtx);
	while (ep->items)
		item_free(ep, ep->items);
	mutex_unlock(&ep->mtx);
	mutex_unlock(&ep_global);
	kfree(ep);
}

/* ---- epoll_create -------------------------------------------------------- */

static int ep_create(int flags)
{
	if (flags & ~EPOLL_CLOEXEC)
		return -EINVAL;
	struct eventpoll *ep = kzalloc(sizeof(*ep));
	struct file *f = ep ? file_alloc(FT_EPOLL) : NULL;
	if (!f) {
		kfree(ep);
		return -ENOMEM;
	}
	mutex_init(&ep->mtx, "epoll");
	spin_init(&ep->lock, "epoll ready");
	waitq_init(&ep->wq, "epoll wait");
	f->ep = ep;
	ep->file = f;
	f->flags = O_RDWR;
	int fd = fd_install(f, flags & EPOLL_CLOEXEC);
	if (fd < 0)
		file_close(f);
	return fd;
}

/* 254: size is only checked, as Linux's. */
int sys_epoll_create(int size)
{
	return size <= 0 ? -EINVAL : ep_create(0);
}

/* 329 */
int sys_epoll_create1(int flags)
{
	return ep_create(flags);
}

/* ---- epoll_ctl ----------------------------------------------------------- */

/* Levels of epolls below `to` (0: it watches none), or more than
 * EP_MAX_NESTS once the walk meets ep (a cycle) or goes too deep. Linux's
 * ep_loop_check_proc: each epoll once per pass (its depth kept). Under
 * ep_global. */
static int depth_below(struct eventpoll *ep, struct eventpoll *to, int depth)
{
	if (to->visited == loop_pass)
		return to->depth;
	int result = 0;
	mutex_lock(&to->mtx);
	for (struct epitem *it = to->items; it && result <= EP_MAX_NESTS; it = it->next) {
		struct eventpoll *sub = ep_of(it->file);
		if (!sub)
			continue;
		int d = sub == ep || depth > EP_MAX_NESTS ? EP_MAX_NESTS + 1
			: depth_below(ep, sub, depth + 1) + 1;
		result = d > result ? d : result;
	}
	mutex_unlock(&to->mtx);
	to->visited = loop_pass;
	to->depth = result;
	return result;
}

/* Levels of epolls above ep (0: no epoll watches it); under ep_global,
 * which guards every file's items. */
static int depth_above(struct eventpoll *ep)
{
	if (ep->up_visited == loop_pass)
		return ep->up_depth;
	int result = 0;
	for (struct epitem *it = ep->file->epitems; it; it = it->fnext) {
		int d = depth_above(it->ep) + 1;
		result = d > result ? d : result;
	}
	ep->up_visited = loop_pass;
	ep->up_depth = result;
	return result;
}

/* Would ep watching `to` close a cycle, or make a chain of epolls more
 * than EP_MAX_NESTS deep, counting those above ep too? Linux 6.1's
 * ep_loop_check (with its stable fix for unbounded recursion). */
static bool loop_check(struct eventpoll *ep, struct eventpoll *to)
{
	loop_pass++;
	int below = depth_below(ep, to, 0);
	return below > EP_MAX_NESTS || below + 1 + depth_above(ep) > EP_MAX_NESTS;
}

static struct epitem *item_find(struct eventpoll *ep, struct file *f, int fd)
{
	for (struct epitem *it = ep->items; it; it = it->next)
		if (it->file == f && it->fd == fd)
			return it;
	return NULL;
}

/* Look at it once now, as a wake-up would: on the ready list if ready. */
static void item_check(struct eventpoll *ep, struct epitem *it)
{
	if (!item_poll(it))
		return;
	spin_lock(&ep->lock);
	ready_append(ep, it);
	spin_unlock(&ep->lock);
	waitq_wake_all(&ep->wq);
}

/* Under ep_global and ep->mtx. */
static int item_insert(struct eventpoll *ep, const struct epoll_event *ev, struct file *f, int fd)
{
	struct epitem *it = kzalloc(sizeof(*it));
	if (!it)
		return -ENOMEM;
	*it = (struct epitem){ .ep = ep, .file = f, .fd = fd, .events = ev->events,
			       .data = ev->data, .wq = file_waitq(f) };
	it->next = ep->items;
	ep->items = it;
	it->fnext = f->epitems;
	f->epitems = it;
	waitq_hook_add(it->wq, &it->hook, ep_hook);
	item_check(ep, it);
	return 0;
}

static void item_modify(struct eventpoll *ep, struct epitem *it, const struct epoll_event *ev)
{
	spin_lock(&ep->lock);		/* the hook reads events */
	it->events = ev->events;
	it->data = ev->data;
	spin_unlock(&ep->lock);
	item_check(ep, it);
}

/* Linux's checks before the interest list is looked at: EPERM for a file
 * that cannot be polled, EINVAL for an epoll on itself or a target that
 * is not an epoll, and EPOLLEXCLUSIVE's rules. */
static int ctl_check(struct file *epf, struct file *tf, int op, uint32_t events)
{
	if (!file_waitq(tf))
		return -EPERM;
	if (epf == tf || !ep_of(epf))
		return -EINVAL;
	if (op != EPOLL_CTL_DEL && (events & EPOLLEXCLUSIVE)) {
		if (op == EPOLL_CTL_MOD)
			return -EINVAL;
		if (op == EPOLL_CTL_ADD && (ep_of(tf) || (events & ~EP_EXCLUSIVE_OK)))
			return -EINVAL;
	}
	return 0;
}

/* Under ep_global and ep->mtx. */
static int ctl_locked(struct eventpoll *ep, int op, struct file *tf, int fd, struct epoll_event *ev)
{
	struct epitem *it = item_find(ep, tf, fd);
	switch (op) {
	case EPOLL_CTL_ADD:
		if (it)
			return -EEXIST;
		ev->events |= EPOLLERR | EPOLLHUP;
		return item_insert(ep, ev, tf, fd);
	case EPOLL_CTL_DEL:
		if (!it)
			return -ENOENT;
		item_free(ep, it);
		return 0;
	case EPOLL_CTL_MOD:
		if (!it)
			return -ENOENT;
		if (it->events & EPOLLEXCLUSIVE)
			return -EINVAL;
		ev->events |= EPOLLERR | EPOLLHUP;
		item_modify(ep, it, ev);
		return 0;
	default:
		return -EINVAL;
	}
}

/* 255 */
int sys_epoll_ctl(int epfd, int op, int fd, const void *uevent)
{
	struct epoll_event ev = { 0, 0 };
	if (op != EPOLL_CTL_DEL && copy_from_user(&ev, uevent, sizeof(ev)) < 0)
		return -EFAULT;
	struct file *epf = fd_get(epfd);
	if (!epf)
		return -EBADF;
	struct file *tf = fd_get(fd);
	int err = tf ? ctl_check(epf, tf, op, ev.events) : -EBADF;
	if (!err) {
		struct eventpoll *ep = epf->ep, *sub = ep_of(tf);
		mutex_lock(&ep_global);
		if (op == EPOLL_CTL_ADD && sub && loop_check(ep, sub))
			err = -ELOOP;
		if (!err) {
			mutex_lock(&ep->mtx);
			err = ctl_locked(ep, op, tf, fd, &ev);
			mutex_unlock(&ep->mtx);
		}
		mutex_unlock(&ep_global);
	}
	if (tf)
		file_close(tf);
	file_close(epf);
	return err;
}

/* ---- epoll_wait ---------------------------------------------------------- */

/* Report what is ready, at most max events: how many, or -EFAULT when
 * the first cannot be written. Looks at the items on the ready list when
 * it starts, each once; the level-triggered ones that are reported go
 * back at the tail. */
static int ep_send(struct eventpoll *ep, struct epoll_event *uev, int max)
{
	int got = 0;
	mutex_lock(&ep->mtx);
	spin_lock(&ep->lock);
	int queued = 0;
	for (struct epitem *p = ep->rhead; p; p = p->rnext)
		queued++;
	spin_unlock(&ep->lock);
	while (got < max && queued-- > 0) {
		spin_lock(&ep->lock);
		struct epitem *it = ready_pop(ep);
		spin_unlock(&ep->lock);
		if (!it)
			break;
		uint32_t revents = item_poll(it);
		if (!revents)
			continue;
		struct epoll_event e = { revents, it->data };
		if (copy_to_user(uev + got, &e, sizeof(e)) < 0) {
			spin_lock(&ep->lock);
			ready_append(ep, it);
			spin_unlock(&ep->lock);
			got = got ? got : -EFAULT;
			break;
		}
		got++;
		spin_lock(&ep->lock);
		if (it->events & EPOLLONESHOT)
			it->events &= EP_PRIVATE;
		else if (!(it->events & EPOLLET))
			ready_append(ep, it);
		spin_unlock(&ep->lock);
	}
	mutex_unlock(&ep->mtx);
	return got;
}

/* Linux's ep_poll: events, 0 at the deadline (at once for a timeout of
 * 0), -EINTR for a signal; ready events are reported before a signal. */
static int ep_wait(struct eventpoll *ep, struct epoll_event *uev, int max, uint64_t deadline)
{
	struct waiter w;
	for (;;) {
		int got = ep_send(ep, uev, max);
		if (got)
			return got;
		waitq_prepare(&ep->wq, &w, TASK_INTERRUPTIBLE);
		bool expired = deadline != NO_DEADLINE && clock_ns() >= deadline;
		if (ready_any(ep) || expired || signal_pending(current())) {
			waitq_finish(&ep->wq, &w);
			if (ready_any(ep))
				continue;
			return expired ? 0 : -EINTR;
		}
		if (deadline != NO_DEADLINE)
			sleep_nap_until(deadline);
		else
			schedule();
		waitq_finish(&ep->wq, &w);
	}
}

/* Linux's order: maxevents, the buffer's range (access_ok: below the
 * kernel, not whether it is mapped), the descriptor, its kind. */
static int do_epoll_wait(int epfd, void *uevents, int max, int timeout_ms)
{
	if (max <= 0 || (uint32_t)max > EP_MAX_EVENTS)
		return -EINVAL;
	uint64_t end = (uint64_t)(uintptr_t)uevents + (uint64_t)max * sizeof(struct epoll_event);
	if (end > KERNEL_OFFSET)
		return -EFAULT;
	struct fd_ref r = fd_use(epfd);
	if (!r.file)
		return -EBADF;
	struct eventpoll *ep = ep_of(r.file);
	int ret = -EINVAL;
	if (ep) {
		uint64_t deadline = timeout_ms < 0 ? NO_DEADLINE
				  : clock_ns() + (uint64_t)timeout_ms * 1000000u;
		ret = ep_wait(ep, uevents, max, deadline);
	}
	fd_done(r);
	return ret;
}

/* 256 */
int sys_epoll_wait(int epfd, void *uevents, int maxevents, int timeout_ms)
{
	return do_epoll_wait(epfd, uevents, maxevents, timeout_ms);
}

/* 319: with the signal mask *usigmask for the call's length (put back
 * after a handler runs, when the call was interrupted). */
int sys_epoll_pwait(int epfd, void *uevents, int maxevents, int timeout_ms,
		    const void *usigmask, uint32_t sigsetsize)
{
	sigset64_t mask;
	if (usigmask) {
		if (sigsetsize != sizeof(sigset64_t))
			return -EINVAL;
		if (copy_from_user(&mask, usigmask, sizeof(mask)) < 0)
			return -EFAULT;
		signal_mask_for_call(mask);
	}
	int ret = do_epoll_wait(epfd, uevents, maxevents, timeout_ms);
	if (usigmask)
		signal_unmask_after_call(ret == -EINTR);
	return ret;
}
