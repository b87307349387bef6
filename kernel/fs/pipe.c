/*
 * pipe.c - pipes: a ring buffer between a reading and a writing end,
 * 64 KiB as Linux's (16 pages, each taken when first written; fcntl's
 * F_SETPIPE_SZ makes it a power of two pages). What a user's pipes may
 * hold, and how big an unprivileged F_SETPIPE_SZ may make one, are
 * Linux's limits (kernel/fs/pipe_limits.c).
 *
 * A write of at most PIPE_BUF (4 KiB) bytes is atomic: it waits for room
 * for all of it, so two writers' messages never interleave; a longer one
 * may be split. poll says POLLOUT once a whole page is free (Linux's
 * "a free slot"), so that a PIPE_BUF write after it does not block.
 *
 * read blocks while the pipe is empty and a writer exists, and returns 0
 * (end of file) once all writers have closed. write blocks while the pipe
 * is full; with no reader left it fails with -EPIPE after SIGPIPE.
 * A stream socket (kernel/net/unix.c) is two pipes crossed: its shutdown()
 * shuts a pipe (EOF to its reader, EPIPE to its writer, as closed ends
 * would give), and its pipes sleep on the socket ends' queues: a
 * socket's readers, writers and pollers share its one queue, so that poll
 * waits on one queue for either direction.
 * A pipe of its own has two queues, as Linux's (rd_wait, wr_wait):
 * readers and the read end's pollers wait for data on one, writers and
 * the write end's pollers for room on the other, so that a write wakes
 * only readers and a read only writers (one queue for both made every
 * message of hackbench wake the twenty senders blocked beside it).
 * Data moves through a small kernel bounce buffer so that no user memory is
 * touched while the pipe's lock is held.
 */
#include "lib/errno.h"
#include "file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/vm.h"
#include "kernel/task/proc.h"
#include "kernel/mm/uaccess.h"
#include "lib/string.h"
#include "kernel/sync/waitq.h"
#include <uapi/poll.h>
#include <uapi/limits.h>	/* PIPE_BUF */
#include "kernel/debug/trace.h"	/* TRACE_WAKE */

#define PIPE_PAGE	4096u
_Static_assert(PIPE_PAGE == PAGE_SIZE, "a ring page is a frame");
#define PIPE_DEF_SIZE	(16 * PIPE_PAGE)	/* Linux's default */
#define PIPE_MIN_SIZE	(2 * PIPE_PAGE)		/* over the soft limit (Linux's PIPE_MIN_DEF_BUFFERS) */
#define CHUNK 256

struct pipe {
	struct spinlock lock;
	uint32_t size;			/* bytes it holds at most: a power of two pages */
	char **page;			/* size / PIPE_PAGE: the ring's pages, each made at its first write */
	struct pipe_user *user;		/* charged for it (pipe_limits.c); NULL: a socket's */
	uint32_t charged;		/* pages charged to user */
	uint32_t nread, nwrite;		/* bytes ever read / written */
	int readers, writers;		/* open ends */
	int closing;			/* pipe_close calls still waking sleepers */
	bool shut;			/* shutdown(): no more data either way */
	struct waitq *rd_wait;		/* readers wait for data here, */
	struct waitq *wr_wait;		/* writers for room: its own, or socket ends' (socket.c) */
	struct waitq own_rd, own_wr;
};

/* A pipe of size bytes with no files yet: its readers sleep on rdq, its
 * writers on wrq (NULL, NULL: its own queues). */
static struct pipe *alloc_sized(struct waitq *rdq, struct waitq *wrq, uint32_t size)
{
	struct pipe *p = kzalloc(sizeof(*p));
	char **page = kzalloc(size / PIPE_PAGE * sizeof(char *));
	if (!p || !page) {
		kfree(p);
		kfree(page);
		return NULL;
	}
	p->page = page;
	spin_init(&p->lock, "pipe");
	waitq_init(&p->own_rd, "pipe read wait");
	waitq_init(&p->own_wr, "pipe write wait");
	p->rd_wait = rdq ? rdq : &p->own_rd;
	p->wr_wait = wrq ? wrq : &p->own_wr;
	p->readers = p->writers = 1;
	p->size = size;
	return p;
}

struct pipe *pipe_alloc(struct waitq *rdq, struct waitq *wrq)
{
	return alloc_sized(rdq, wrq, PIPE_DEF_SIZE);
}

/* A ring page is a frame of its own (a heap block of 4 KiB would take
 * two, with its header). */
static char *page_alloc(void)
{
	uint32_t pa = pmm_alloc();
	return pa ? P2V(pa) : NULL;
}

static void free_pages(struct pipe *p)
{
	for (uint32_t i = 0; i < p->size / PIPE_PAGE; i++) {
		if (p->page[i])
			pmm_free(V2P(p->page[i]));
		p->page[i] = NULL;
	}
}

void pipe_free(struct pipe *p)
{
	if (!p)
		return;
	free_pages(p);
	if (p->user) {
		pipe_user_charge(p->user, p->charged, 0);
		pipe_user_put(p->user);
	}
	kfree(p->page);
	kfree(p);
}

/* Both ends' sleepers and pollers (one queue when a socket pair's). */
static void wake_both(struct pipe *p)
{
	TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->rd_wait));
	if (p->wr_wait != p->rd_wait)
		TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->wr_wait));
}

/* The reader sees end of file once the data is read; a writer gets EPIPE. */
void pipe_shut(struct pipe *p)
{
	spin_lock(&p->lock);
	p->shut = true;
	spin_unlock(&p->lock);
	wake_both(p);
}

static bool no_writer(const struct pipe *p)
{
	return p->writers == 0 || p->shut;
}

static bool no_reader(const struct pipe *p)
{
	return p->readers == 0 || p->shut;
}

/* A new pipe's size, charged to its user (Linux's alloc_pipe_info):
 * -ENFILE past the user's hard limit. */
static int new_pipe_size(struct pipe_user *u, uint32_t *size)
{
	uint32_t pages = PIPE_DEF_SIZE / PIPE_PAGE;
	uint32_t max_size = pipe_sysctl_value(PIPE_SYSCTL_MAX_SIZE);
	if (pages * PIPE_PAGE > max_size && !capable(CAP_SYS_RESOURCE))
		pages = max_size / PIPE_PAGE;
	uint32_t total = pipe_user_charge(u, 0, pages);
	if (pipe_pages_over_soft(total) && pipe_unprivileged()) {
		total = pipe_user_charge(u, pages, PIPE_MIN_SIZE / PIPE_PAGE);
		pages = PIPE_MIN_SIZE / PIPE_PAGE;
	}
	if (pipe_pages_over_hard(total) && pipe_unprivileged()) {
		pipe_user_charge(u, pages, 0);
		return -ENFILE;
	}
	*size = pages * PIPE_PAGE;
	return 0;
}

/* The pipe of pipe(2): charged to the caller's user. */
static int charged_pipe(struct pipe **pp)
{
	uint32_t size;
	struct pipe_user *u = pipe_user_get();
	int err = u ? new_pipe_size(u, &size) : -ENOMEM;
	struct pipe *p = err ? NULL : alloc_sized(NULL, NULL, size);
	if (!p) {
		if (!err)
			pipe_user_charge(u, size / PIPE_PAGE, 0);
		if (u)
			pipe_user_put(u);
		return err ? err : -ENOMEM;
	}
	p->user = u;
	p->charged = size / PIPE_PAGE;
	*pp = p;
	return 0;
}

int pipe_create(struct file **rd, struct file **wr)
{
	struct pipe *p;
	int err = charged_pipe(&p);
	if (err)
		return err;
	*rd = file_alloc(FT_PIPE_READ);
	*wr = file_alloc(FT_PIPE_WRITE);
	if (!*rd || !*wr) {
		pipe_free(p);
		kfree(*rd);
		kfree(*wr);
		return -ENOMEM;
	}
	(*rd)->pipe = (*wr)->pipe = p;
	(*wr)->ino = (*rd)->ino;		/* one inode, two ends (pipe:[ino]) */
	return 0;
}

void pipe_close(struct pipe *p, int writable)
{
	spin_lock(&p->lock);
	if (writable)
		p->writers--;
	else
		p->readers--;
	p->closing++;
	spin_unlock(&p->lock);
	/* Wake outside the lock, so the pipe's lock never nests around the
	 * queue's and the run queues'; while we wake, p->closing keeps the
	 * other end's close on another CPU from freeing p under us. */
	wake_both(p);
	spin_lock(&p->lock);
	bool last = --p->closing == 0 && p->readers == 0 && p->writers == 0;
	spin_unlock(&p->lock);
	if (last)
		pipe_free(p);
}

/* Sleep on the pipe until woken; called and returns with p->lock held.
 * A signal is checked after the sleeping state is set, so one sent from
 * another CPU meanwhile is never missed (kernel/task/signal.c: kick). */
static void pipe_sleep(struct pipe *p, struct waitq *wq)
{
	struct waiter w;
	waitq_prepare(wq, &w, TASK_INTERRUPTIBLE);
	spin_unlock(&p->lock);
	if (!signal_pending(current()))
		schedule();
	waitq_finish(wq, &w);
	spin_lock(&p->lock);
}

/* poll: what each end is ready for (uapi/poll.h), and where it waits. */
uint32_t pipe_poll(struct pipe *p, bool write_end)
{
	uint32_t mask = 0;
	spin_lock(&p->lock);
	if (write_end) {
		if (p->size - (p->nwrite - p->nread) >= PIPE_PAGE)
			mask |= POLLOUT | POLLWRNORM;
		if (no_reader(p))
			mask |= POLLERR;
	} else {
		if (p->nwrite != p->nread)
			mask |= POLLIN | POLLRDNORM;
		if (no_writer(p))
			mask |= POLLHUP;
	}
	spin_unlock(&p->lock);
	return mask;
}

/* A copy of n bytes: a byte loop for a few (a call to memcpy costs more
 * than they do: pathlen's 1-byte pipe round trip), memcpy for more. */
static void copy(char *to, const char *from, uint32_t n)
{
	if (n <= 16) {
		while (n--)
			*to++ = *from++;
	} else {
		memcpy(to, from, n);
	}
}

/* n bytes in or out of the ring at the pipe's counters, a copy per page
 * they touch; the caller holds the lock and knows they fit or are there
 * (ring_room made the pages). A byte loop with a check per byte cost a
 * 100-byte message of hackbench some 4,500 instructions (docs/bench.md). */
static void ring_put(struct pipe *p, const char *from, uint32_t n)
{
	while (n) {
		uint32_t at = p->nwrite & (p->size - 1), off = at % PIPE_PAGE;
		uint32_t k = PIPE_PAGE - off < n ? PIPE_PAGE - off : n;
		copy(p->page[at / PIPE_PAGE] + off, from, k);
		p->nwrite += k;
		from += k;
		n -= k;
	}
}

static void ring_get(struct pipe *p, char *to, uint32_t n)
{
	while (n) {
		uint32_t at = p->nread & (p->size - 1), off = at % PIPE_PAGE;
		uint32_t k = PIPE_PAGE - off < n ? PIPE_PAGE - off : n;
		copy(to, p->page[at / PIPE_PAGE] + off, k);
		p->nread += k;
		to += k;
		n -= k;
	}
}

/* The pages the next n bytes go to, made now: false when memory ran out.
 * The lock held (the frame allocator takes only its own). */
static bool ring_room(struct pipe *p, uint32_t n)
{
	for (uint32_t done = 0; done < n;) {
		uint32_t at = (p->nwrite + done) & (p->size - 1);
		char **pg = &p->page[at / PIPE_PAGE];
		if (!*pg && !(*pg = page_alloc()))
			return false;
		done += PIPE_PAGE - at % PIPE_PAGE;
	}
	return true;
}

/* F_GETPIPE_SZ */
int pipe_get_size(struct pipe *p)
{
	return (int)p->size;
}

/* The ring laid out again in slots pages from the start, what it holds
 * kept: -EBUSY when that would not fit. p->lock held. */
static int resize_ring(struct pipe *p, uint32_t slots)
{
	uint32_t used = p->nwrite - p->nread, size = slots * PIPE_PAGE;
	if (used > size)
		return -EBUSY;
	char **page = kzalloc(slots * sizeof(char *));
	char *held = used ? kmalloc(used) : NULL;
	if (!page || (used && !held)) {
		kfree(page);
		kfree(held);
		return -ENOMEM;
	}
	ring_get(p, held, used);
	free_pages(p);
	kfree(p->page);
	p->page = page;
	p->size = size;
	p->nread = p->nwrite = 0;
	int err = ring_room(p, used) ? 0 : -ENOMEM;	/* the pages it had were just given back */
	if (!err)
		ring_put(p, held, used);
	kfree(held);
	return err;
}

/* F_SETPIPE_SZ, Linux's pipe_set_size: want rounded up to a power of two
 * pages (-EINVAL past 2 GiB); growing past pipe-max-size takes
 * CAP_SYS_RESOURCE, and past the user's limits privilege (-EPERM). */
int pipe_set_size(struct pipe *p, uint32_t want)
{
	uint32_t size = pipe_round_size(want), slots = size / PIPE_PAGE;
	if (!size || !p->user)
		return -EINVAL;
	spin_lock(&p->lock);
	bool grows = size > p->size;
	int err = 0;
	if (grows && size > pipe_sysctl_value(PIPE_SYSCTL_MAX_SIZE) && !capable(CAP_SYS_RESOURCE))
		err = -EPERM;
	uint32_t total = err ? 0 : pipe_user_charge(p->user, p->charged, slots);
	if (!err && grows && (pipe_pages_over_hard(total) || pipe_pages_over_soft(total)) &&
	    pipe_unprivileged())
		err = -EPERM;
	if (!err)
		err = resize_ring(p, slots);
	if (err && total)
		pipe_user_charge(p->user, slots, p->charged);	/* as it was */
	else if (!err)
		p->charged = slots;
	spin_unlock(&p->lock);
	if (!err)
		TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->wr_wait));	/* more room, maybe */
	return err ? err : (int)size;
}

/* MSG_PEEK on a stream socket: up to n bytes of what is there, copied to
 * kbuf and left in the pipe; 0 at end of file, -EAGAIN when empty (the
 * caller waits as for a read). */
int pipe_peek(struct pipe *p, char *kbuf, uint32_t n)
{
	spin_lock(&p->lock);
	uint32_t avail = p->nwrite - p->nread, saved = p->nread;
	int ret = avail ? (int)(n < avail ? n : avail) : no_writer(p) ? 0 : -EAGAIN;
	if (ret > 0) {
		ring_get(p, kbuf, (uint32_t)ret);
		p->nread = saved;
	}
	spin_unlock(&p->lock);
	return ret;
}

/* Bytes ever read and written (a stream socket's SCM_RIGHTS marks). */
void pipe_counts(struct pipe *p, uint32_t *nread, uint32_t *nwrite)
{
	spin_lock(&p->lock);
	*nread = p->nread;
	*nwrite = p->nwrite;
	spin_unlock(&p->lock);
}

struct waitq *pipe_waitq(struct pipe *p, bool write_end)
{
	return write_end ? p->wr_wait : p->rd_wait;
}

int pipe_read(struct pipe *p, void *ubuf, uint32_t n, bool nonblock)
{
	char tmp[CHUNK];
	uint32_t got = 0;

	if (n == 0)
		return 0;
	spin_lock(&p->lock);
	while (p->nread == p->nwrite && !no_writer(p)) {
		if (nonblock || signal_pending(current())) {
			spin_unlock(&p->lock);
			return nonblock ? -EAGAIN : -ERESTARTSYS;
		}
		pipe_sleep(p, p->rd_wait);
	}
	/* As Linux: a bad buffer fails with EFAULT and leaves the data in the
	 * pipe, so check it before taking anything out. */
	uint32_t avail = p->nwrite - p->nread;
	if (!user_range_ok(ubuf, n < avail ? n : avail, true)) {
		spin_unlock(&p->lock);
		return -EFAULT;
	}
	while (got < n && p->nread != p->nwrite) {
		uint32_t k = p->nwrite - p->nread;
		if (k > CHUNK)
			k = CHUNK;
		if (k > n - got)
			k = n - got;
		ring_get(p, tmp, k);
		spin_unlock(&p->lock);
		int err = copy_to_user((char *)ubuf + got, tmp, k);
		spin_lock(&p->lock);
		if (err < 0) {
			got = got ? got : (uint32_t)-EFAULT;
			break;
		}
		got += k;
	}
	spin_unlock(&p->lock);
	TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->wr_wait));	/* room for writers */
	return (int)got;
}

int pipe_write(struct pipe *p, const void *ubuf, uint32_t n, bool nonblock, bool sigpipe)
{
	char tmp[CHUNK];
	uint32_t done = 0;

	while (done < n) {
		uint32_t k = n - done < CHUNK ? n - done : CHUNK;
		if (copy_from_user(tmp, (const char *)ubuf + done, k) < 0)
			return done ? (int)done : -EFAULT;
		uint32_t told = 0;	/* bytes of this chunk a wake announced */
		spin_lock(&p->lock);
		for (uint32_t i = 0; i < k;) {
			if (no_reader(p)) {		/* Linux: SIGPIPE, then EPIPE */
				spin_unlock(&p->lock);
				if (sigpipe)
					signal_send_self(SIGPIPE);
				done += i;
				return done ? (int)done : -EPIPE;
			}
			if (signal_pending(current())) {
				spin_unlock(&p->lock);
				done += i;
				return done ? (int)done : -ERESTARTSYS;
			}
			uint32_t room = p->size - (p->nwrite - p->nread);
			/* PIPE_BUF or less goes in whole (atomic), or waits */
			bool full = room == 0 || (n <= PIPE_BUF && room < n - done - i);
			if (full && nonblock) {
				spin_unlock(&p->lock);
				done += i;
				return done ? (int)done : -EAGAIN;
			}
			if (full) {
				/* Full: wake a reader to drain it, but only for
				 * bytes of ours it has not been told of. A socket
				 * end's readers and writers share one queue, and
				 * writers that woke each other on a full pipe
				 * (as all pipes did) kept 20 of hackbench's
				 * senders running without progress, starving the
				 * one reader that could make some. */
				if (i > told) {
					told = i;
					spin_unlock(&p->lock);
					TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->rd_wait));
					spin_lock(&p->lock);
				}
				if (p->size - (p->nwrite - p->nread) == room)
					pipe_sleep(p, p->wr_wait);
				continue;
			}
			uint32_t put = k - i < room ? k - i : room;
			if (!ring_room(p, put)) {
				spin_unlock(&p->lock);
				done += i;
				return done ? (int)done : -ENOMEM;
			}
			ring_put(p, tmp + i, put);
			i += put;
		}
		spin_unlock(&p->lock);
		TRACE_WAKE(WAKE_PIPE, waitq_wake_all(p->rd_wait));	/* data for readers */
		done += k;
	}
	return (int)done;
}
