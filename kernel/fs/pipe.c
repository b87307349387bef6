/*
 * pipe.c - pipes: a ring buffer between a reading and a writing end,
 * 64 KiB as Linux's (16 pages, each taken when first written; fcntl's
 * F_SETPIPE_SZ makes it 4 KiB to 1 MiB, a power of two pages).
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
#define PIPE_MAX_SIZE	(256 * PIPE_PAGE)	/* /proc/sys/fs/pipe-max-size: 1 MiB */
#define CHUNK 256

struct pipe {
	struct spinlock lock;
	uint32_t size;			/* bytes it holds at most: a power of two pages */
	char *page[PIPE_MAX_SIZE / PIPE_PAGE];	/* the ring's pages, each made at its first write */
	uint32_t nread, nwrite;		/* bytes ever read / written */
	int readers, writers;		/* open ends */
	int closing;			/* pipe_close calls still waking sleepers */
	bool shut;			/* shutdown(): no more data either way */
	struct waitq *rd_wait;		/* readers wait for data here, */
	struct waitq *wr_wait;		/* writers for room: its own, or socket ends' (socket.c) */
	struct waitq own_rd, own_wr;
};

/* A pipe with no files yet: its readers sleep on rdq, its writers on
 * wrq (NULL, NULL: its own queues). */
struct pipe *pipe_alloc(struct waitq *rdq, struct waitq *wrq)
{
	struct pipe *p = kzalloc(sizeof(*p));
	if (!p)
		return NULL;
	spin_init(&p->lock, "pipe");
	waitq_init(&p->own_rd, "pipe read wait");
	waitq_init(&p->own_wr, "pipe write wait");
	p->rd_wait = rdq ? rdq : &p->own_rd;
	p->wr_wait = wrq ? wrq : &p->own_wr;
	p->readers = p->writers = 1;
	p->size = PIPE_DEF_SIZE;
	return p;
}

/* A ring page is a frame of its own (a heap block of 4 KiB would take
 * two, with its header). */
static char *page_alloc(void)
{
	uint32_t pa = pmm_alloc();
	return pa ? P2V(pa) : NULL;
}

static void free_pages_from(struct pipe *p, uint32_t first)
{
	for (uint32_t i = first; i < PIPE_MAX_SIZE / PIPE_PAGE; i++) {
		if (p->page[i])
			pmm_free(V2P(p->page[i]));
		p->page[i] = NULL;
	}
}

void pipe_free(struct pipe *p)
{
	if (!p)
		return;
	free_pages_from(p, 0);
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

int pipe_create(struct file **rd, struct file **wr)
{
	struct pipe *p = pipe_alloc(NULL, NULL);
	*rd = file_alloc(FT_PIPE_READ);
	*wr = file_alloc(FT_PIPE_WRITE);
	if (!p || !*rd || !*wr) {
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

/* F_SETPIPE_SZ: want rounded up to a power of two pages (Linux's
 * round_pipe_size); -EPERM past PIPE_MAX_SIZE, -EBUSY when what the pipe
 * holds would not fit. What it holds is laid out again from the start. */
int pipe_set_size(struct pipe *p, uint32_t want)
{
	uint32_t size = PIPE_PAGE;
	while (size < want && size <= PIPE_MAX_SIZE)
		size <<= 1;
	if (size > PIPE_MAX_SIZE)
		return -EPERM;
	spin_lock(&p->lock);
	uint32_t used = p->nwrite - p->nread;
	char *held = used ? kmalloc(used) : NULL;
	int err = used > size ? -EBUSY : used && !held ? -ENOMEM : 0;
	if (!err) {
		ring_get(p, held, used);
		free_pages_from(p, 0);
		p->size = size;
		p->nread = p->nwrite = 0;
		if (ring_room(p, used))
			ring_put(p, held, used);
		else
			err = -ENOMEM;		/* the pages it had were just given back */
	}
	spin_unlock(&p->lock);
	kfree(held);
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
