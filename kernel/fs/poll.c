/*
 * poll.c - poll (168), and select (142) and pselect6 (308, 413) on top
 * of it: wait until one of several descriptors is ready.
 *
 * Each file says what it is ready for now (file_poll in kernel/fs/file.c:
 * pipes and the console by their state, files and devices always) and
 * where its readiness changes (file_waitq: the pipe's or the terminal's
 * wait queue). poll queues itself on every one of those queues first,
 * then looks at the files, then sleeps: a change that comes between the
 * look and the sleep wakes it, as in waitq.h's pattern. A timeout is a
 * deadline on the sleep queues (kernel/time/sleep.c: sleep_nap_until).
 */
#include "poll.h"
#include "lib/errno.h"
#include "file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include "kernel/time/sleep.h"
#include "lib/string.h"
#include "kernel/time/systime.h"
#include "kernel/time/time.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include <uapi/poll.h>

/* The files the descriptors name, each held (file_dup) for the whole
 * call, so a close meanwhile cannot free a queue poll sleeps on. */
struct polled {
	struct file *file;		/* NULL: a negative or closed descriptor */
	struct waiter w;
};

static void hold(struct pollfd *fds, struct polled *pl, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		pl[i].file = fds[i].fd >= 0 ? fd_get(fds[i].fd) : NULL;
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

#define NO_DEADLINE	UINT64_MAX

/* The loop: 0 or more ready, 0 at the deadline (now, for 0: a look),
 * -EINTR for a signal. The state is set first, also when no file has a
 * queue (no descriptors, or only negative ones: a pure sleep). */
static int poll_wait(struct pollfd *fds, struct polled *pl, uint32_t n, uint64_t deadline)
{
	for (;;) {
		sched_set_current_state(TASK_INTERRUPTIBLE);
		watch(pl, n, true);
		int ready = poll_once(fds, pl, n);
		bool expired = deadline != NO_DEADLINE && clock_ns() >= deadline;
		if (ready || expired || signal_pending(current())) {
			watch(pl, n, false);
			sched_set_current_state(TASK_RUNNING);
			if (ready || expired)
				return ready;
			return -EINTR;
		}
		if (deadline != NO_DEADLINE)
			sleep_nap_until(deadline);
		else
			schedule();
		watch(pl, n, false);
	}
}

static uint64_t deadline_after_ms(int timeout_ms)
{
	return timeout_ms < 0 ? NO_DEADLINE : clock_ns() + (uint64_t)timeout_ms * 1000000u;
}

int sys_poll(void *ufds, uint32_t nfds, int timeout_ms)
{
	/* Linux's limit; the limits are the group's (a thread's own are unset) */
	if (nfds > current()->group->rlim[RLIMIT_NOFILE].rlim_cur)
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
	ret = poll_wait(fds, pl, nfds, deadline_after_ms(timeout_ms));
	release(pl, nfds);
	if (ret >= 0 && nfds && copy_to_user(ufds, fds, bytes) < 0)
		ret = -EFAULT;
out:
	kfree(fds);
	kfree(pl);
	return ret;
}

/* ---- select and pselect6 ------------------------------------------------------ */

/*
 * Linux's select, as poll of the descriptors whose bits are set (fs/select.c):
 * readable is POLLIN, POLLHUP or POLLERR; writable POLLOUT or POLLERR;
 * exceptional POLLPRI. A set bit for a descriptor that is not open is
 * EBADF; nfds past the table is cut to it. The sets come back with only
 * the ready bits, and the timeout with the time left (select; pselect6's
 * too, which glibc hides). A signal restarts the call unless a handler
 * ran (ERESTARTNOHAND).
 */
#define POLLIN_SET	(POLLIN | POLLRDNORM | POLLHUP | POLLERR)
#define POLLOUT_SET	(POLLOUT | POLLWRNORM | POLLERR)
#define POLLEX_SET	POLLPRI
#define FDSET_WORDS(n)	(((n) + 31) / 32)

struct fdsets {
	uint32_t *in, *out, *ex;	/* kmalloc'd copies, NULL for a NULL set */
};

static bool bit(const uint32_t *set, int fd)
{
	return set && (set[fd / 32] >> (fd % 32) & 1);
}

static int read_set(uint32_t **to, void *u, uint32_t words)
{
	*to = NULL;
	if (!u)
		return 0;
	*to = kmalloc(words * 4);
	if (!*to)
		return -ENOMEM;
	return copy_from_user(*to, u, words * 4) < 0 ? -EFAULT : 0;
}

/* The pollfds of the set bits: *count of them, or -EBADF / -ENOMEM. */
static struct pollfd *sets_to_poll(const struct fdsets *s, int nfds, uint32_t *count, int *err)
{
	uint32_t n = 0;
	for (int fd = 0; fd < nfds; fd++)
		n += bit(s->in, fd) || bit(s->out, fd) || bit(s->ex, fd);
	*count = n;
	struct pollfd *fds = kmalloc((n ? n : 1) * sizeof(*fds));
	if (!fds) {
		*err = -ENOMEM;
		return NULL;
	}
	uint32_t i = 0;
	for (int fd = 0; fd < nfds; fd++) {
		short ev = (bit(s->in, fd) ? POLLIN_SET : 0) | (bit(s->out, fd) ? POLLOUT_SET : 0) |
			   (bit(s->ex, fd) ? POLLEX_SET : 0);
		if (!ev)
			continue;
		if (!fd_file(fd)) {
			kfree(fds);
			*err = -EBADF;
			return NULL;
		}
		fds[i++] = (struct pollfd){ fd, ev, 0 };
	}
	return fds;
}

/* The sets again, with only the ready bits; the number of bits set. */
static int poll_to_sets(const struct pollfd *fds, uint32_t n, struct fdsets *s, uint32_t words)
{
	int count = 0;
	uint32_t *sets[3] = { s->in, s->out, s->ex };
	const uint32_t masks[3] = { POLLIN_SET, POLLOUT_SET, POLLEX_SET };
	for (int k = 0; k < 3; k++)
		if (sets[k])
			memset(sets[k], 0, words * 4);
	for (uint32_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (sets[k] && (fds[i].events & masks[k]) && (fds[i].revents & masks[k])) {
				sets[k][fds[i].fd / 32] |= 1u << (fds[i].fd % 32);
				count++;
			}
	return count;
}

static int write_sets(const struct fdsets *s, void *uin, void *uout, void *uex, uint32_t words)
{
	if ((uin && copy_to_user(uin, s->in, words * 4) < 0) ||
	    (uout && copy_to_user(uout, s->out, words * 4) < 0) ||
	    (uex && copy_to_user(uex, s->ex, words * 4) < 0))
		return -EFAULT;
	return 0;
}

static int do_select(int nfds, void *uin, void *uout, void *uex, uint64_t deadline)
{
	if (nfds < 0)
		return -EINVAL;
	uint32_t max = fd_table_size();
	if ((uint32_t)nfds > max)
		nfds = (int)max;
	uint32_t words = FDSET_WORDS((uint32_t)nfds), n = 0;
	struct fdsets s = { NULL, NULL, NULL };
	struct pollfd *fds = NULL;
	struct polled *pl = NULL;
	int err = read_set(&s.in, uin, words);
	if (!err)
		err = read_set(&s.out, uout, words);
	if (!err)
		err = read_set(&s.ex, uex, words);
	if (!err)
		fds = sets_to_poll(&s, nfds, &n, &err);
	if (!err && !(pl = kzalloc((n ? n : 1) * sizeof(*pl))))
		err = -ENOMEM;
	if (!err) {
		hold(fds, pl, n);
		err = poll_wait(fds, pl, n, deadline);
		release(pl, n);
	}
	if (err >= 0) {
		err = poll_to_sets(fds, n, &s, words);
		if (write_sets(&s, uin, uout, uex, words) < 0)
			err = -EFAULT;
	}
	kfree(fds);
	kfree(pl);
	kfree(s.in);
	kfree(s.out);
	kfree(s.ex);
	return err == -EINTR ? -ERESTARTNOHAND : err;
}

/* What is left of a deadline, for the timeout written back. */
static uint64_t left_of(uint64_t deadline)
{
	uint64_t now = clock_ns();
	return deadline == NO_DEADLINE || deadline <= now ? 0 : deadline - now;
}

/* 142 _newselect: timeout a struct timeval (NULL: for ever). */
int sys_select(int nfds, void *uin, void *uout, void *uex, void *utv)
{
	uint64_t deadline = NO_DEADLINE;
	int32_t tv[2];
	if (utv) {
		if (copy_from_user(tv, utv, sizeof(tv)) < 0)
			return -EFAULT;
		if (tv[0] < 0 || tv[1] < 0)
			return -EINVAL;
		uint64_t ns = (uint64_t)tv[0] * 1000000000ull + (uint64_t)(tv[1] % 1000000) * 1000u +
			      (uint64_t)(tv[1] / 1000000) * 1000000000ull;
		deadline = clock_ns() + ns;
	}
	int ret = do_select(nfds, uin, uout, uex, deadline);
	if (utv && ret != -EFAULT) {
		uint64_t left = left_of(deadline);
		int32_t rem[2] = { (int32_t)(left / 1000000000ull),
				   (int32_t)(left % 1000000000ull / 1000u) };
		(void)copy_to_user(utv, rem, sizeof(rem));	/* Linux ignores a failure here */
	}
	return ret;
}

/* pselect6's sixth argument: { const sigset_t *ss; size_t ss_len; }. */
static int read_sigmask(const void *usig, sigset64_t *mask, bool *given)
{
	uint32_t arg[2];
	*given = false;
	if (!usig)
		return 0;
	if (copy_from_user(arg, usig, sizeof(arg)) < 0)
		return -EFAULT;
	if (!arg[0])
		return 0;
	if (arg[1] != sizeof(sigset64_t))
		return -EINVAL;
	if (copy_from_user(mask, (const void *)arg[0], sizeof(*mask)) < 0)
		return -EFAULT;
	*given = true;
	return 0;
}

static int pselect(int nfds, void *uin, void *uout, void *uex, void *uts, const void *usig,
		   bool time64)
{
	uint64_t deadline = NO_DEADLINE;
	int64_t ts[2];
	if (uts) {
		int32_t ts32[2];
		if (time64 ? copy_from_user(ts, uts, sizeof(ts)) < 0
			   : copy_from_user(ts32, uts, sizeof(ts32)) < 0)
			return -EFAULT;
		if (!time64)
			ts[0] = ts32[0], ts[1] = ts32[1];
		if (ts[0] < 0 || ts[1] < 0 || ts[1] >= 1000000000)
			return -EINVAL;
		deadline = clock_ns() + (uint64_t)ts[0] * 1000000000ull + (uint64_t)ts[1];
	}
	sigset64_t mask;
	bool masked;
	int err = read_sigmask(usig, &mask, &masked);
	if (err)
		return err;
	if (masked)
		signal_mask_for_call(mask);	/* put back when the call ends */
	int ret = do_select(nfds, uin, uout, uex, deadline);
	if (masked)
		signal_unmask_after_call(ret == -ERESTARTNOHAND);
	if (uts && ret != -EFAULT) {
		uint64_t left = left_of(deadline);
		ts[0] = (int64_t)(left / 1000000000ull), ts[1] = (int64_t)(left % 1000000000ull);
		int32_t ts32[2] = { (int32_t)ts[0], (int32_t)ts[1] };
		(void)(time64 ? copy_to_user(uts, ts, sizeof(ts)) : copy_to_user(uts, ts32, sizeof(ts32)));
	}
	return ret;
}

int sys_pselect6(int nfds, void *uin, void *uout, void *uex, void *uts, const void *usig)
{
	return pselect(nfds, uin, uout, uex, uts, usig, false);
}

int sys_pselect6_time64(int nfds, void *uin, void *uout, void *uex, void *uts, const void *usig)
{
	return pselect(nfds, uin, uout, uex, uts, usig, true);
}
