/*
 * poll.c - poll (168): wait until one of several descriptors is ready.
 *
 * Each file says what it is ready for now (file_poll in kernel/file.c:
 * pipes and the console by their state, files and devices always) and
 * where its readiness changes (file_waitq: the pipe's or the terminal's
 * wait queue). poll queues itself on every one of those queues first,
 * then looks at the files, then sleeps: a change that comes between the
 * look and the sleep wakes it, as in waitq.h's pattern. A timeout is a
 * deadline on the sleep queues (kernel/sleep.c: sleep_nap_until).
 */
#include "poll.h"
#include "errno.h"
#include "file.h"
#include "kmalloc.h"
#include "proc.h"
#include "sleep.h"
#include "systime.h"
#include "time.h"
#include "uaccess.h"
#include "waitq.h"
#include <uapi/poll.h>

/* The files the descriptors name, each held (file_dup) for the whole
 * call, so a close meanwhile cannot free a queue poll sleeps on. */
struct polled {
	struct file *file;		/* NULL: a negative or closed descriptor */
	struct waiter w;
};

static void hold(struct pollfd *fds, struct polled *pl, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++) {
		struct file *f = fds[i].fd >= 0 ? fd_file(fds[i].fd) : NULL;
		pl[i].file = f ? file_dup(f) : NULL;
	}
}

static void release(struct polled *pl, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (pl[i].file)
			file_close(pl[i].file);
}

/* One look at every descriptor: revents filled, the number ready. */
static int poll_once(struct pollfd *fds, struct polled *pl, uint32_t n)
{
	int ready = 0;
	for (uint32_t i = 0; i < n; i++) {
		fds[i].revents = 0;
		if (fds[i].fd < 0)
			continue;		/* Linux: ignored, revents 0 */
		uint32_t mask = pl[i].file ? file_poll(pl[i].file) : POLLNVAL;
		fds[i].revents = (short)(mask & ((uint16_t)fds[i].events | POLLERR | POLLHUP | POLLNVAL));
		ready += fds[i].revents != 0;
	}
	return ready;
}

/* Queue on, or leave, every file's wait queue. */
static void watch(struct polled *pl, uint32_t n, bool on)
{
	for (uint32_t i = 0; i < n; i++) {
		struct waitq *wq = pl[i].file ? file_waitq(pl[i].file) : NULL;
		if (!wq)
			continue;
		if (on)
			waitq_prepare(wq, &pl[i].w, TASK_INTERRUPTIBLE);
		else
			waitq_finish(wq, &pl[i].w);
	}
}

/* The loop: 0 or more ready, 0 at the deadline, -EINTR for a signal. The
 * state is set first, also when no file has a queue (no descriptors, or
 * only negative ones: a pure sleep). */
static int poll_wait(struct pollfd *fds, struct polled *pl, uint32_t n, int timeout_ms)
{
	uint64_t deadline = timeout_ms > 0 ? clock_ns() + (uint64_t)timeout_ms * 1000000u : 0;
	for (;;) {
		sched_set_current_state(TASK_INTERRUPTIBLE);
		watch(pl, n, true);
		int ready = poll_once(fds, pl, n);
		bool expired = timeout_ms == 0 || (timeout_ms > 0 && clock_ns() >= deadline);
		if (ready || expired || signal_pending(current())) {
			watch(pl, n, false);
			sched_set_current_state(TASK_RUNNING);
			if (ready || expired)
				return ready;
			return -EINTR;
		}
		if (timeout_ms > 0)
			sleep_nap_until(deadline);
		else
			schedule();
		watch(pl, n, false);
	}
}

int sys_poll(void *ufds, uint32_t nfds, int timeout_ms)
{
	/* Linux's limit; the limits are the group's (a thread's own are unset) */
	if (nfds > current()->group_leader->rlim[RLIMIT_NOFILE].rlim_cur)
		return -EINVAL;
	uint32_t bytes = nfds * sizeof(struct pollfd);
	struct pollfd *fds = nfds ? kmalloc(bytes) : NULL;
	struct polled *pl = nfds ? kzalloc(nfds * sizeof(*pl)) : NULL;
	int ret = -ENOMEM;
	if (nfds && (!fds || !pl))
		goto out;
	ret = -EFAULT;
	if (nfds && copy_from_user(fds, ufds, bytes) < 0)
		goto out;
	hold(fds, pl, nfds);
	ret = poll_wait(fds, pl, nfds, timeout_ms);
	release(pl, nfds);
	if (ret >= 0 && nfds && copy_to_user(ufds, fds, bytes) < 0)
		ret = -EFAULT;
out:
	kfree(fds);
	kfree(pl);
	return ret;
}
