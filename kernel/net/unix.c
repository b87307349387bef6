/*
 * unix.c - AF_UNIX sockets, as Linux's net/unix/af_unix.c: stream and
 * datagram sockets, socketpair, listen, connect and accept, their data,
 * shutdown and poll. Names are unix_name.c's; the calls socket.c's.
 *
 * A connected stream is two pipes crossed (kernel/fs/pipe.c): each end
 * reads one and writes the other. Each socket has one wait queue (Linux's
 * sk_wq) where its readers, writers, pollers and accepters wait: a pipe's
 * readers sleep on the reading socket's queue, its writers on the
 * writing one's, so an edge-triggered epoll hears only of what changed
 * for its socket. connect() to a listener makes the server's end at once
 * (an embryo, Linux's too) and queues it on the listener, at most backlog
 * + 1 of them; accept() takes the oldest. A datagram socket keeps a queue
 * of whole messages, each with its sender's name: a read takes one
 * (cutting it to the buffer: MSG_TRUNC), and a sender waits while the
 * receiver holds UNIX_DGRAM_QLEN + 1 of them (not when the receiver is
 * connected back to it, as Linux's; then only the bytes bound it).
 *
 * Closing: the peer of a stream reads end of file and its writes get
 * EPIPE; if the closed end left data unread, or never was accepted, the
 * peer's next read fails with ECONNRESET (POLLERR until then). A
 * socket's memory lives until its last reference (the file, a stream
 * peer, a datagram socket connected to it, the accept queue) goes, so
 * that a peer's pipes can still wake its queue.
 *
 * Not done: SOCK_SEQPACKET (ESOCKTNOSUPPORT), control messages but
 * SCM_RIGHTS (unix_scm.c), MSG_OOB (EOPNOTSUPP), SO_PASSCRED, and
 * Linux's per-byte socket memory accounting (a stream holds a pipe's
 * 64 KiB each way, a datagram queue UNIX_BUF bytes).
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

struct socket *sock_alloc(int type)
{
	struct socket *s = kzalloc(sizeof(*s));
	if (!s)
		return NULL;
	s->type = type;
	s->refs = 1;
	spin_init(&s->lock, "socket");
	waitq_init(&s->wait, "socket wait");
	s->cred = (struct ucred_k){ 0, -1, -1 };	/* Linux's, with no peer */
	return s;
}

void sock_get(struct socket *s)
{
	__atomic_add_fetch(&s->refs, 1, __ATOMIC_RELAXED);
}

/* What waits to be read goes, with the files in flight in it, as
 * Linux purges a closed socket's receive queue: nobody can read it now. */
static void purge(struct socket *s)
{
	spin_lock(&s->lock);
	struct dgram *d = s->dq_head;
	struct scm_fds *b = s->scm_head;
	s->dq_head = s->dq_tail = NULL;
	s->scm_head = s->scm_tail = NULL;
	s->dq_len = 0;
	s->dq_bytes = 0;
	spin_unlock(&s->lock);
	while (d) {
		struct dgram *next = d->next;
		scm_free(d->fds);
		kfree(d);
		d = next;
	}
	while (b) {
		struct scm_fds *next = b->next;
		scm_free(b);
		b = next;
	}
}

void sock_put(struct socket *s)
{
	if (__atomic_sub_fetch(&s->refs, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	purge(s);
	kfree(s->addr);
	kfree(s);
}

void unix_current_cred(struct ucred_k *c)
{
	struct proc *p = current();
	*c = (struct ucred_k){ p->group_leader->pid, p->euid, p->egid };
}

/* The two pipes of a stream between a and b (ab: a writes, b reads; its
 * readers sleep on b's queue, its writers on a's): 0, or -ENOMEM with
 * neither made. */
static int stream_pipes(struct socket *a, struct socket *b, struct pipe **ab, struct pipe **ba)
{
	*ab = pipe_alloc(&b->wait, &a->wait);
	*ba = pipe_alloc(&a->wait, &b->wait);
	if (*ab && *ba)
		return 0;
	pipe_free(*ab);
	pipe_free(*ba);
	return -ENOMEM;
}

/* a and b joined by the pipes as a connected stream; each holds the
 * other. Allocates nothing: callable under a lock. */
static void stream_link(struct socket *a, struct socket *b, struct pipe *ab, struct pipe *ba)
{
	a->tx = b->rx = ab;
	a->rx = b->tx = ba;
	sock_get(b);
	sock_get(a);
	a->peer = b;
	b->peer = a;
	/* published last: who sees the state sees the pipes */
	__atomic_store_n(&a->state, SS_CONNECTED, __ATOMIC_RELEASE);
	__atomic_store_n(&b->state, SS_CONNECTED, __ATOMIC_RELEASE);
}

int unix_pair(int type, struct socket **a, struct socket **b)
{
	*a = sock_alloc(type);
	*b = sock_alloc(type);
	int err = *a && *b ? 0 : -ENOMEM;
	struct pipe *ab, *ba;
	if (!err && type == SOCK_STREAM) {
		err = stream_pipes(*a, *b, &ab, &ba);
		if (!err)
			stream_link(*a, *b, ab, ba);
	} else if (!err) {
		sock_get(*b);
		sock_get(*a);
		(*a)->peer = *b;
		(*b)->peer = *a;
	}
	if (err) {
		if (*a)
			sock_put(*a);
		if (*b)
			sock_put(*b);
		return err;
	}
	unix_current_cred(&(*a)->cred);
	(*b)->cred = (*a)->cred;
	return 0;
}

/* ---- closing ------------------------------------------------------------- */

/* A stream end goes: its pipes close (EOF and EPIPE for the peer), and
 * the peer gets ECONNRESET if data was left unread here or (embryo) it
 * never was accepted. */
static void stream_release(struct socket *s, bool embryo)
{
	struct socket *peer = s->peer;
	if (!peer)
		return;
	if (embryo || (pipe_poll(s->rx, false) & POLLIN))
		__atomic_store_n(&peer->err, ECONNRESET, __ATOMIC_RELEASE);
	pipe_close(s->rx, 0);
	pipe_close(s->tx, 1);
	sock_put(peer);			/* after the wake-ups on its queue */
}

static void listener_release(struct socket *s)
{
	spin_lock(&s->lock);
	struct socket *e = s->acc_head;
	s->acc_head = s->acc_tail = NULL;
	s->queued = 0;
	spin_unlock(&s->lock);
	while (e) {
		struct socket *next = e->acc_next;
		e->closed = true;
		stream_release(e, true);
		purge(e);
		sock_put(e);
		e = next;
	}
}

/* The file's last reference is gone (file_close). */
void socket_close(struct socket *s)
{
	unix_unbind(s);
	spin_lock(&s->lock);
	s->closed = true;
	int state = sock_state(s);
	spin_unlock(&s->lock);
	if (s->type == SOCK_STREAM && state == SS_CONNECTED)
		stream_release(s, false);
	else if (state == SS_LISTENING)
		listener_release(s);
	else if (s->type == SOCK_DGRAM && s->peer)
		sock_put(s->peer);
	purge(s);
	waitq_wake_all(&s->wait);	/* connecters waiting on a listener */
	sock_put(s);
}

/* ---- poll ---------------------------------------------------------------- */

#define POLL_OUT	(POLLOUT | POLLWRNORM | POLLWRBAND)

/* Linux's unix_poll for a connected stream: readable with data or once
 * reading is shut (POLLRDHUP too), writable while there is room or once
 * writing is shut, POLLHUP when both are. */
static uint32_t stream_poll(struct socket *s)
{
	uint32_t in = pipe_poll(s->rx, false), out = pipe_poll(s->tx, true);
	bool rd_shut = in & POLLHUP, wr_shut = out & POLLERR;
	uint32_t mask = in & (POLLIN | POLLRDNORM);
	if (rd_shut)
		mask |= POLLIN | POLLRDNORM | POLLRDHUP;
	if ((out & POLLOUT) || wr_shut)
		mask |= POLL_OUT;
	if (rd_shut && wr_shut)
		mask |= POLLHUP;
	return mask;
}

/* unix_dgram_poll: not writable while a peer that is not connected back
 * has its queue full. */
static uint32_t dgram_poll(struct socket *s)
{
	spin_lock(&s->lock);
	uint32_t mask = s->dq_head ? POLLIN | POLLRDNORM : 0;
	if (s->rd_shut)
		mask |= POLLIN | POLLRDNORM | POLLRDHUP;
	if (s->rd_shut && s->wr_shut)
		mask |= POLLHUP;
	struct socket *peer = s->peer;
	bool blocked = peer && peer->peer != s && peer->dq_len > UNIX_DGRAM_QLEN;
	spin_unlock(&s->lock);
	return blocked ? mask : mask | POLL_OUT;
}

uint32_t socket_poll(struct socket *s)
{
	uint32_t mask;
	if (s->type == SOCK_DGRAM)
		mask = dgram_poll(s);
	else if (sock_state(s) == SS_CONNECTED)
		mask = stream_poll(s);
	else if (sock_state(s) == SS_LISTENING)
		mask = s->queued ? POLLIN | POLLRDNORM : 0;
	else
		mask = POLL_OUT | POLLHUP;	/* Linux: a stream not connected */
	if (__atomic_load_n(&s->err, __ATOMIC_ACQUIRE))
		mask |= POLLERR;
	return mask;
}

struct waitq *socket_waitq(struct socket *s)
{
	return &s->wait;
}

int sock_wait(struct socket *s, bool (*ready)(struct socket *, void *), void *arg,
	      bool nonblock)
{
	struct waiter w;
	spin_lock(&s->lock);
	if (ready(s, arg))		/* the common case: no queueing */
		return 0;
	for (;;) {
		/* queued, the state set, before the look: a pipe's wakers change
		 * what ready() sees without s->lock, and their wake-up after
		 * the look must find us (waitq.h's pattern) */
		waitq_prepare(&s->wait, &w, TASK_INTERRUPTIBLE);
		bool now = ready(s, arg);
		if (now || nonblock || signal_pending(current())) {
			waitq_finish(&s->wait, &w);
			if (now)
				return 0;
			spin_unlock(&s->lock);
			return nonblock ? -EAGAIN : -ERESTARTSYS;
		}
		spin_unlock(&s->lock);
		schedule();
		waitq_finish(&s->wait, &w);
		spin_lock(&s->lock);
	}
}

/* ---- listen, connect, accept --------------------------------------------- */

int unix_listen(struct socket *s, int backlog)
{
	if (s->type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if ((uint32_t)backlog > SOMAXCONN)
		backlog = SOMAXCONN;
	int err = 0;
	spin_lock(&s->lock);
	if (!s->addr || sock_state(s) == SS_CONNECTED)
		err = -EINVAL;		/* no listening unnamed, or connected */
	if (!err) {
		s->backlog = backlog;
		s->state = SS_LISTENING;
		unix_current_cred(&s->cred);
	}
	spin_unlock(&s->lock);
	waitq_wake_all(&s->wait);	/* a larger backlog: room for connecters */
	return err;
}

static bool room_or_gone(struct socket *l, void *arg)
{
	(void)arg;
	return sock_state(l) != SS_LISTENING || l->closed || l->queued <= l->backlog;
}

/* The server's end for s, made and joined to s once l has room for it
 * (nothing of s changes before: a poll of s meanwhile sees it as it
 * was), then queued on listener l: 0, or the errors. */
static int queue_embryo(struct socket *s, struct socket *l, bool nonblock)
{
	struct socket *e = sock_alloc(SOCK_STREAM);
	struct pipe *se, *es;
	if (!e || stream_pipes(s, e, &se, &es)) {
		if (e)
			sock_put(e);
		return -ENOMEM;
	}
	unix_current_cred(&e->cred);
	e->addr = kmalloc(sizeof(*e->addr));
	int err = sock_wait(l, room_or_gone, NULL, nonblock);
	bool locked = !err;		/* sock_wait's 0 comes with l->lock */
	if (!err && (sock_state(l) != SS_LISTENING || l->closed))
		err = -ECONNREFUSED;
	if (!err) {
		spin_lock(&s->lock);	/* l's, then s's: s is not a listener */
		err = sock_state(s) == SS_CONNECTED ? -EISCONN : 0;	/* another thread won */
		if (!err)
			stream_link(s, e, se, es);
		spin_unlock(&s->lock);
	}
	if (err) {
		if (locked)
			spin_unlock(&l->lock);
		pipe_free(se);
		pipe_free(es);
		sock_put(e);
		return err;
	}
	if (e->addr && l->addr)
		*e->addr = *l->addr;	/* an accepted socket has its listener's name */
	s->cred = l->cred;
	e->acc_next = NULL;
	if (l->acc_tail)
		l->acc_tail->acc_next = e;
	else
		l->acc_head = e;
	l->acc_tail = e;
	l->queued++;
	spin_unlock(&l->lock);
	waitq_wake_all(&l->wait);
	return 0;
}

/* Linux's unix_stream_connect; the datagram one sets the default peer. */
int unix_connect(struct socket *s, const struct unix_addr *a, bool nonblock)
{
	struct socket *other;
	if (s->type == SOCK_STREAM && sock_state(s) == SS_LISTENING)
		return -EINVAL;
	if (s->type == SOCK_STREAM && sock_state(s) == SS_CONNECTED)
		return -EISCONN;
	int err = unix_find(a, s->type, &other);
	if (err)
		return err;
	if (s->type == SOCK_STREAM) {
		err = queue_embryo(s, other, nonblock);
		sock_put(other);
		return err;
	}
	spin_lock(&s->lock);
	bool refused = other->peer && other->peer != s;	/* Linux's unix_may_send */
	struct socket *old = refused ? NULL : s->peer;
	if (!refused)
		s->peer = other;
	spin_unlock(&s->lock);
	if (old || refused)
		sock_put(refused ? other : old);
	return refused ? -EPERM : 0;
}

/* connect(AF_UNSPEC) of a datagram socket: no default peer any more. */
void unix_disconnect(struct socket *s)
{
	spin_lock(&s->lock);
	struct socket *old = s->type == SOCK_DGRAM ? s->peer : NULL;
	if (old)
		s->peer = NULL;
	spin_unlock(&s->lock);
	if (old)
		sock_put(old);
}

static bool has_embryo(struct socket *l, void *arg)
{
	(void)arg;
	return l->acc_head != NULL;
}

int unix_accept(struct socket *s, struct socket **out, bool nonblock)
{
	if (s->type != SOCK_STREAM)
		return -EOPNOTSUPP;
	if (sock_state(s) != SS_LISTENING)
		return -EINVAL;
	int err = sock_wait(s, has_embryo, NULL, nonblock);
	if (err)
		return err;
	struct socket *e = s->acc_head;
	s->acc_head = e->acc_next;
	if (!s->acc_head)
		s->acc_tail = NULL;
	s->queued--;
	spin_unlock(&s->lock);
	waitq_wake_all(&s->wait);	/* room for the next connecter */
	*out = e;			/* the queue's reference becomes the file's */
	return 0;
}
