/*
 * unix_data.c - what AF_UNIX sockets carry (unix.c has the sockets):
 * a stream's bytes through its pipes, a datagram socket's whole messages,
 * and shutdown. The buffers are iovecs of user memory (struct kiov).
 */
#include "unix.h"
#include "net.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include <uapi/poll.h>
#include <uapi/socket.h>

static uint32_t iov_total(const struct kiov *iov, int n)
{
	uint32_t total = 0;
	for (int i = 0; i < n; i++)
		total += iov[i].len;
	return total;
}

/* ---- streams ------------------------------------------------------------- */

/* Linux's sock_error: a pending error, taken, once nothing is left to read. */
static int take_error(struct socket *s)
{
	if (!__atomic_load_n(&s->err, __ATOMIC_ACQUIRE) || (pipe_poll(s->rx, false) & POLLIN))
		return 0;
	return -__atomic_exchange_n(&s->err, 0, __ATOMIC_ACQ_REL);
}

static int stream_write(struct socket *s, const struct kiov *iov, int n, uint32_t flags,
			bool nonblock)
{
	int done = 0;
	for (int i = 0; i < n; i++) {
		int k = pipe_write(s->tx, iov[i].base, iov[i].len, nonblock, !(flags & MSG_NOSIGNAL));
		if (k < 0)
			return done ? done : k;
		done += k;
		if ((uint32_t)k < iov[i].len)
			break;
	}
	return done;
}

/* SCM_RIGHTS on a stream: b goes on the peer's queue, marked with where
 * this send's bytes start in the pipe, before they are written (so a
 * reader that sees them finds it); false (b not taken) if the peer is
 * closed: the write then fails with EPIPE. */
static bool scm_attach(struct socket *s, struct scm_fds *b)
{
	struct socket *peer = s->peer;
	uint32_t nread;
	spin_lock(&peer->lock);
	bool open = !peer->closed;
	if (open) {
		b->refs = 2;		/* the queue's and ours until scm_sent */
		pipe_counts(s->tx, &nread, &b->at);
		b->end = UINT32_MAX;
		b->next = NULL;
		if (peer->scm_tail)
			peer->scm_tail->next = b;
		else
			peer->scm_head = b;
		peer->scm_tail = b;
	}
	spin_unlock(&peer->lock);
	return open;
}

/* The send is over: b's end is known, or (nothing sent) b goes. A reader
 * may have taken b meanwhile, or the peer's close purged it: then only
 * our reference is dropped. */
static void scm_sent(struct socket *s, struct scm_fds *b, int done)
{
	struct socket *peer = s->peer;
	struct scm_fds *prev = NULL, *p;
	spin_lock(&peer->lock);
	for (p = peer->scm_head; p && p != b; p = p->next)
		prev = p;
	bool drop = p && done <= 0;
	if (p && !drop)
		b->end = b->at + (uint32_t)done;
	if (drop) {
		if (prev)
			prev->next = b->next;
		else
			peer->scm_head = b->next;
		if (peer->scm_tail == b)
			peer->scm_tail = prev;
	}
	spin_unlock(&peer->lock);
	if (drop)
		scm_free(b);		/* the queue's reference, and the files */
	scm_unref(b);			/* ours */
}

static int stream_send(struct socket *s, const struct kiov *iov, int n, uint32_t flags,
		       bool nonblock, const struct unix_addr *to, struct scm_fds *fds)
{
	if (to || sock_state(s) != SS_CONNECTED) {
		scm_free(fds);
		return to ? (sock_state(s) == SS_CONNECTED ? -EISCONN : -EOPNOTSUPP) : -ENOTCONN;
	}
	if (fds && !scm_attach(s, fds)) {
		scm_free(fds);
		fds = NULL;
	}
	int done = stream_write(s, iov, n, flags, nonblock);
	if (fds)
		scm_sent(s, fds, done);
	return done;
}

static bool peekable(struct socket *s, void *arg)
{
	int *got = arg;
	char c;
	*got = pipe_peek(s->rx, &c, 1);
	return *got != -EAGAIN;
}

/* MSG_PEEK: what is there, left there; waits as a read does. */
static int stream_peek(struct socket *s, const struct kiov *iov, int n, bool nonblock)
{
	int got;
	int err = sock_wait(s, peekable, &got, nonblock);
	if (err)
		return err;
	spin_unlock(&s->lock);
	if (got <= 0)
		return got;
	uint32_t total = iov_total(iov, n);
	total = total > 4096 ? 4096 : total;
	char *buf = kmalloc(total ? total : 1);
	if (!buf)
		return -ENOMEM;
	got = pipe_peek(s->rx, buf, total);
	uint32_t at = 0;
	for (int i = 0; i < n && got > 0 && at < (uint32_t)got; i++) {
		uint32_t k = iov[i].len < (uint32_t)got - at ? iov[i].len : (uint32_t)got - at;
		if (copy_to_user(iov[i].base, buf + at, k) < 0) {
			got = at ? (int)at : -EFAULT;
			break;
		}
		at += k;
	}
	kfree(buf);
	return got;
}

static bool readable(struct socket *s, void *arg)
{
	(void)arg;
	return pipe_poll(s->rx, false) & (POLLIN | POLLHUP);
}

/* The files that came with the bytes a read of want bytes from here
 * takes, if any, off the queue; *limit: where the read must stop (the
 * end of the send they came with). Ones whose bytes were read are gone. */
static struct scm_fds *scm_take(struct socket *s, uint32_t want, uint32_t *limit)
{
	uint32_t nread, nwrite;
	struct scm_fds *b, *taken = NULL, *stale = NULL;
	*limit = UINT32_MAX;
	spin_lock(&s->lock);
	pipe_counts(s->rx, &nread, &nwrite);
	while (!taken && (b = s->scm_head) && b->at < nread + want) {
		s->scm_head = b->next;
		if (!s->scm_head)
			s->scm_tail = NULL;
		if (b->end > nread) {
			*limit = b->end == UINT32_MAX ? UINT32_MAX : b->end - nread;
			taken = b;
		} else {
			b->next = stale;	/* its bytes went without it */
			stale = b;
		}
	}
	spin_unlock(&s->lock);
	while (stale) {
		struct scm_fds *next = stale->next;
		scm_free(stale);
		stale = next;
	}
	return taken;
}

/* Into iov, at most limit bytes: the first may be waited for; after it,
 * only MSG_WAITALL waits. */
static int stream_read(struct socket *s, const struct kiov *iov, int n, uint32_t flags,
		       bool nonblock, uint32_t limit)
{
	int done = 0;
	for (int i = 0; i < n && (uint32_t)done < limit; i++) {
		uint32_t len = iov[i].len < limit - (uint32_t)done ? iov[i].len : limit - (uint32_t)done;
		for (uint32_t off = 0; off < len;) {
			bool nb = nonblock || (done && !(flags & MSG_WAITALL));
			int k = pipe_read(s->rx, (char *)iov[i].base + off, len - off, nb);
			if (k <= 0)
				return done ? done : k;
			done += k;
			off += (uint32_t)k;
			if (off < len && !(flags & MSG_WAITALL))
				return done;
		}
	}
	return done;
}

static int stream_recv(struct socket *s, const struct kiov *iov, int n, uint32_t flags,
		       bool nonblock, struct unix_addr *from, struct scm_fds **fds_out)
{
	if (sock_state(s) != SS_CONNECTED)
		return -EINVAL;
	int err = take_error(s);
	if (err)
		return err;
	if (from && s->peer && s->peer->addr)
		*from = *s->peer->addr;
	if (flags & MSG_PEEK)
		return stream_peek(s, iov, n, nonblock);
	/* A recvmsg, or files queued: wait for bytes first, then see which
	 * files came with them (they are queued before their bytes are
	 * written, so once the bytes are seen, under the pipe's lock, so are
	 * they). A plain read goes straight to the pipe, and files whose
	 * bytes it took are dropped after it, as Linux's read() drops them. */
	uint32_t limit = UINT32_MAX;
	struct scm_fds *b = NULL;
	bool files = fds_out || __atomic_load_n(&s->scm_head, __ATOMIC_ACQUIRE);
	if (files) {
		if ((err = sock_wait(s, readable, NULL, nonblock)) < 0)
			return err;
		spin_unlock(&s->lock);
		b = scm_take(s, iov_total(iov, n), &limit);
		if (fds_out)
			*fds_out = b;
		else
			scm_free(b);
	}
	int done = stream_read(s, iov, n, flags, nonblock, limit);
	if (!fds_out && __atomic_load_n(&s->scm_head, __ATOMIC_ACQUIRE))
		scm_free(scm_take(s, 0, &limit));	/* ones that came while it slept */
	return done;
}


/* ---- datagrams ----------------------------------------------------------- */

/* Room in other's queue for a datagram of s: Linux's unix_recvq_full,
 * skipped when other is connected back to s; bytes bound it always. */
static bool dgram_room(struct socket *other, void *arg)
{
	struct socket *s = arg;
	if (other->closed || other->rd_shut)
		return true;
	return (other->peer == s || other->dq_len <= UNIX_DGRAM_QLEN) && other->dq_bytes < UNIX_BUF;
}

static struct dgram *dgram_make(struct socket *s, const struct kiov *iov, int n, uint32_t total,
				int *err)
{
	struct dgram *d = kmalloc(sizeof(*d) + (total ? total : 1));
	if (!d) {
		*err = -ENOBUFS;
		return NULL;
	}
	d->next = NULL;
	d->fds = NULL;
	d->len = total;
	d->from.len = 0;
	if (s->addr)
		d->from = *s->addr;
	uint32_t at = 0;
	for (int i = 0; i < n; i++) {
		if (copy_from_user(d->data + at, iov[i].base, iov[i].len) < 0) {
			kfree(d);
			*err = -EFAULT;
			return NULL;
		}
		at += iov[i].len;
	}
	return d;
}

/* Queue d on other: 0, or EAGAIN, ECONNREFUSED (closed), EPIPE (it shut
 * reading), ERESTARTSYS. */
static int dgram_queue(struct socket *s, struct socket *other, struct dgram *d, bool nonblock)
{
	int err = other == s ? (spin_lock(&s->lock), 0) : sock_wait(other, dgram_room, s, nonblock);
	if (err)
		return err;
	if (other->closed)
		err = -ECONNREFUSED;
	else if (other->rd_shut)
		err = -EPIPE;
	if (!err) {
		if (other->dq_tail)
			other->dq_tail->next = d;
		else
			other->dq_head = d;
		other->dq_tail = d;
		other->dq_len++;
		other->dq_bytes += d->len;
	}
	spin_unlock(&other->lock);
	if (!err)
		waitq_wake_all(&other->wait);
	return err;
}

/* Linux: a connected peer found closed is forgotten (the next send is
 * ENOTCONN). */
static void dgram_forget(struct socket *s, struct socket *other)
{
	spin_lock(&s->lock);
	bool was = s->peer == other;
	if (was)
		s->peer = NULL;
	spin_unlock(&s->lock);
	if (was)
		sock_put(other);
}

static int dgram_send(struct socket *s, const struct kiov *iov, int n, bool nonblock,
		      const struct unix_addr *to, struct scm_fds *fds)
{
	struct socket *other = NULL;
	if (!to) {
		spin_lock(&s->lock);
		other = s->peer;
		if (other)
			sock_get(other);
		spin_unlock(&s->lock);
		if (!other) {
			scm_free(fds);
			return -ENOTCONN;
		}
	}
	uint32_t total = iov_total(iov, n);
	int err = total > UNIX_BUF - 32 ? -EMSGSIZE : 0;
	struct dgram *d = err ? NULL : dgram_make(s, iov, n, total, &err);
	if (d)
		d->fds = fds;
	else
		scm_free(fds);
	if (!err && !other)
		err = unix_find(to, SOCK_DGRAM, &other);
	if (!err)
		err = dgram_queue(s, other, d, nonblock);
	if (err == -ECONNREFUSED && !to)
		dgram_forget(s, other);
	if (err && d) {
		scm_free(d->fds);
		kfree(d);
	}
	if (other)
		sock_put(other);
	return err ? err : (int)total;
}

static bool dgram_there(struct socket *s, void *arg)
{
	(void)arg;
	return s->dq_head || s->rd_shut;
}

static int dgram_recv(struct socket *s, const struct kiov *iov, int n, uint32_t flags,
		      bool nonblock, struct unix_addr *from, uint32_t *msg_flags,
		      struct scm_fds **fds_out)
{
	int err = sock_wait(s, dgram_there, NULL, nonblock);
	if (err)
		return err;
	struct dgram *d = s->dq_head;
	if (!d) {			/* shut for reading, and empty */
		spin_unlock(&s->lock);
		return 0;
	}
	if (!(flags & MSG_PEEK)) {
		s->dq_head = d->next;
		if (!s->dq_head)
			s->dq_tail = NULL;
		s->dq_len--;
		s->dq_bytes -= d->len;
	}
	spin_unlock(&s->lock);
	uint32_t at = 0;
	for (int i = 0; i < n && at < d->len && !err; i++) {
		uint32_t k = iov[i].len < d->len - at ? iov[i].len : d->len - at;
		err = copy_to_user(iov[i].base, d->data + at, k) < 0 ? -EFAULT : 0;
		at += k;
	}
	if (from)
		*from = d->from;
	if (at < d->len && msg_flags)
		*msg_flags |= MSG_TRUNC;
	uint32_t len = d->len;
	if (!(flags & MSG_PEEK)) {
		if (fds_out)
			*fds_out = d->fds;
		else
			scm_free(d->fds);
		kfree(d);
		waitq_wake_all(&s->wait);	/* room for senders */
	}
	if (err)
		return err;
	return (int)((flags & MSG_TRUNC) ? len : at);
}

/* ---- the entry points ---------------------------------------------------- */

int unix_send(struct socket *s, const struct kiov *iov, int n, uint32_t flags, bool nonblock,
	      const struct unix_addr *to, struct scm_fds *fds)
{
	if (flags & MSG_OOB) {
		scm_free(fds);
		return -EOPNOTSUPP;
	}
	if (s->type == SOCK_STREAM)
		return stream_send(s, iov, n, flags, nonblock, to, fds);
	return dgram_send(s, iov, n, nonblock, to, fds);
}

int unix_recv(struct socket *s, const struct kiov *iov, int n, uint32_t flags, bool nonblock,
	      struct unix_addr *from, uint32_t *msg_flags, struct scm_fds **fds_out)
{
	if (fds_out)
		*fds_out = NULL;
	if (flags & MSG_OOB)
		return -EOPNOTSUPP;
	if (from)
		from->len = 0;
	if (s->type == SOCK_STREAM)
		return stream_recv(s, iov, n, flags, nonblock, from, fds_out);
	return dgram_recv(s, iov, n, flags, nonblock, from, msg_flags, fds_out);
}

/* Linux's unix_shutdown: a stream shuts its pipes (the peer reads EOF,
 * this end's writes get EPIPE, and the other way); a datagram socket
 * marks only itself. */
int unix_shutdown(struct socket *s, int how)
{
	if (how < SHUT_RD || how > SHUT_RDWR)
		return -EINVAL;
	if (s->type == SOCK_STREAM && sock_state(s) == SS_CONNECTED) {
		if (how != SHUT_WR)
			pipe_shut(s->rx);
		if (how != SHUT_RD)
			pipe_shut(s->tx);
		return 0;
	}
	spin_lock(&s->lock);
	s->rd_shut |= how != SHUT_WR;
	s->wr_shut |= how != SHUT_RD;
	spin_unlock(&s->lock);
	waitq_wake_all(&s->wait);
	return 0;
}
