/*
 * socket.c - socketpair(AF_UNIX, SOCK_STREAM): two connected stream
 * sockets, as hackbench's default mode and many programs' helpers use.
 *
 * A stream pair is two pipes crossed (kernel/fs/pipe.c): each end reads
 * from one and writes to the other. Each end has one wait queue, where
 * its readers wait for data, its writers for room and its pollers for
 * either (Linux's sk_wq): a write wakes the peer's queue, a read the
 * peer's writers, so an edge-triggered epoll of one end hears only of
 * what changed for it.
 * Closing an end closes its sides of both pipes: the other end reads end
 * of file and its writes get EPIPE with SIGPIPE, as Linux. shutdown()
 * shuts pipes the way Linux's unix_shutdown marks both sockets: SHUT_WR
 * ends the pipe this end writes (the peer reads EOF, this end's writes
 * get EPIPE), SHUT_RD the one it reads (this end reads EOF once it is
 * drained, the peer's writes get EPIPE).
 *
 * Not done here (say so, do not pretend): SOCK_DGRAM and SOCK_SEQPACKET
 * pairs (ESOCKTNOSUPPORT; Linux has them), socket() alone and every
 * call on named sockets (bind, connect, listen, accept...: -ENOSYS,
 * logged once, as an unknown call), sendmsg/recvmsg and socket options,
 * MSG_PEEK, MSG_WAITALL and MSG_OOB (EOPNOTSUPP), and Linux's 208 KiB socket buffers
 * (a pipe holds 4 KiB: a writer waits sooner, sees nothing else).
 */
#include "socket.h"
#include "lib/errno.h"
#include "file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/debug/printk.h"
#include "kernel/task/proc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/sync/waitq.h"
#include <uapi/poll.h>
#include <uapi/socket.h>

struct unix_pair {
	struct waitq wait[2];	/* end i's readers, writers and pollers */
	int err[2];		/* end i's pending error (Linux's sk_err), 0 if none */
	int ends;		/* open ends: freed with the last */
};

struct socket {
	struct unix_pair *pair;
	struct pipe *rx, *tx;	/* read from rx, write to tx */
	struct waitq *wait;	/* this end's: data in rx, room in tx */
	int end;		/* 0 or 1: its index in the pair's arrays */
};

static struct socket *socket_end(struct unix_pair *pair, int end, struct pipe *rx, struct pipe *tx)
{
	struct socket *s = kzalloc(sizeof(*s));
	if (s) {
		s->pair = pair;
		s->rx = rx;
		s->tx = tx;
		s->wait = &pair->wait[end];
		s->end = end;
	}
	return s;
}

/* Two files, each one end of a new connected stream pair. */
static int unix_stream_pair(struct file **a, struct file **b)
{
	struct unix_pair *pair = kzalloc(sizeof(*pair));
	if (!pair)
		return -ENOMEM;
	waitq_init(&pair->wait[0], "socket wait");
	waitq_init(&pair->wait[1], "socket wait");
	pair->ends = 2;
	/* ab: a writes, b reads; its readers wait on b's queue, its writers on a's */
	struct pipe *ab = pipe_alloc(&pair->wait[1], &pair->wait[0]);
	struct pipe *ba = pipe_alloc(&pair->wait[0], &pair->wait[1]);
	struct socket *sa = socket_end(pair, 0, ba, ab), *sb = socket_end(pair, 1, ab, ba);
	*a = file_alloc(FT_SOCKET);
	*b = file_alloc(FT_SOCKET);
	if (!ab || !ba || !sa || !sb || !*a || !*b) {
		pipe_free(ab);
		pipe_free(ba);
		kfree(sa);
		kfree(sb);
		kfree(*a);
		kfree(*b);
		kfree(pair);
		return -ENOMEM;
	}
	(*a)->sock = sa;
	(*b)->sock = sb;
	return 0;
}

/* Closed with data unread: the peer's next read fails with ECONNRESET
 * and its poll says POLLERR until then, as Linux's unix_release_sock. */
void socket_close(struct socket *s)
{
	struct unix_pair *pair = s->pair;
	if (pipe_poll(s->rx, false) & POLLIN)
		__atomic_store_n(&pair->err[!s->end], ECONNRESET, __ATOMIC_RELEASE);
	pipe_close(s->rx, 0);
	pipe_close(s->tx, 1);
	kfree(s);
	if (__atomic_sub_fetch(&pair->ends, 1, __ATOMIC_ACQ_REL) == 0)
		kfree(pair);
}

/* Linux's unix_poll for a connected stream socket: readable with data or
 * once reading is shut (POLLRDHUP too), writable while there is room or
 * once writing is shut (the write then fails at once), POLLHUP when both
 * are shut (the peer closed). */
uint32_t socket_poll(struct socket *s)
{
	uint32_t in = pipe_poll(s->rx, false), out = pipe_poll(s->tx, true);
	bool rd_shut = in & POLLHUP, wr_shut = out & POLLERR;
	uint32_t mask = in & (POLLIN | POLLRDNORM);
	if (rd_shut)
		mask |= POLLIN | POLLRDNORM | POLLRDHUP;
	if ((out & POLLOUT) || wr_shut)
		mask |= POLLOUT | POLLWRNORM | POLLWRBAND;
	if (rd_shut && wr_shut)
		mask |= POLLHUP;
	if (__atomic_load_n(&s->pair->err[s->end], __ATOMIC_ACQUIRE))
		mask |= POLLERR;
	return mask;
}

struct waitq *socket_waitq(struct socket *s)
{
	return s->wait;
}

/* A pending error, taken (Linux's sock_error), once nothing is left to
 * read: then it is the read's answer. */
static int take_error(struct socket *s)
{
	if (pipe_poll(s->rx, false) & POLLIN)
		return 0;
	return -__atomic_exchange_n(&s->pair->err[s->end], 0, __ATOMIC_ACQ_REL);
}

static int stream_read(struct socket *s, void *ubuf, uint32_t n, bool nonblock)
{
	int err = take_error(s);
	return err ? err : pipe_read(s->rx, ubuf, n, nonblock);
}

int socket_read(struct file *f, void *ubuf, uint32_t n)
{
	return stream_read(f->sock, ubuf, n, f->flags & O_NONBLOCK);
}

int socket_write(struct file *f, const void *ubuf, uint32_t n)
{
	return pipe_write(f->sock->tx, ubuf, n, f->flags & O_NONBLOCK, true);
}

/* ---- the system calls ----------------------------------------------------- */

/* Linux's order (__sys_socketpair, __sock_create, unix_create): flags,
 * then the descriptors are taken and written out (EMFILE, EFAULT), then
 * the family, type and protocol are checked. */
static int pair_error(int family, int type, int protocol)
{
	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= SOCK_MAX)
		return -EINVAL;
	if (family == AF_INET)		/* Linux has it, but no pairs of it */
		return -EOPNOTSUPP;
	if (family != AF_UNIX)		/* a family Linux has no module for here */
		return -EAFNOSUPPORT;
	if (protocol != 0 && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	return type == SOCK_STREAM ? 0 : -ESOCKTNOSUPPORT;
}

/* socketpair (360; socketcall's SYS_SOCKETPAIR) */
int sys_socketpair(int family, int type, int protocol, int *usv)
{
	int flags = type & ~SOCK_TYPE_MASK;
	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	struct file *a, *b;
	int err = unix_stream_pair(&a, &b);
	if (err < 0)
		return err;
	a->flags |= (uint32_t)flags & O_NONBLOCK;
	b->flags |= (uint32_t)flags & O_NONBLOCK;
	int fds[2];
	err = fd_install_pair(usv, a, b, flags & SOCK_CLOEXEC, fds);
	if (err < 0)
		return err;
	err = pair_error(family, type & SOCK_TYPE_MASK, protocol);
	if (err < 0) {		/* the numbers stay written, as Linux's */
		sys_close(fds[0]);
		sys_close(fds[1]);
	}
	return err;
}

/* The socket on fd, for one call (fd_use): -EBADF, -ENOTSOCK or 0; on
 * 0, fd_done(*r) after. */
static int sock_file(int fd, struct fd_ref *r)
{
	*r = fd_use(fd);
	if (!r->file)
		return -EBADF;
	if (r->file->type == FT_SOCKET)
		return 0;
	fd_done(*r);
	return -ENOTSOCK;
}

/* sendto (369), send (socketcall's SYS_SEND): a connected stream takes
 * no address (Linux: EISCONN). */
int sys_sendto(int fd, const void *ubuf, uint32_t n, uint32_t flags,
	       const void *uaddr, uint32_t addrlen)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err < 0)
		return err;
	if (flags & MSG_OOB)		/* Linux ignores MSG_PEEK and MSG_WAITALL here */
		err = -EOPNOTSUPP;
	else if (uaddr && addrlen)
		err = -EISCONN;
	else
		err = pipe_write(r.file->sock->tx, ubuf, n,
				 (r.file->flags & O_NONBLOCK) || (flags & MSG_DONTWAIT),
				 !(flags & MSG_NOSIGNAL));
	fd_done(r);
	return err;
}

/* recvfrom (371), recv (SYS_RECV): the peer of a pair has no name, so an
 * address asked for comes back 0 bytes long, as Linux's. */
int sys_recvfrom(int fd, void *ubuf, uint32_t n, uint32_t flags,
		 void *uaddr, uint32_t *uaddrlen)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err < 0)
		return err;
	if (flags & (MSG_OOB | MSG_PEEK | MSG_WAITALL)) {
		fd_done(r);
		return -EOPNOTSUPP;
	}
	bool nonblock = (r.file->flags & O_NONBLOCK) || (flags & MSG_DONTWAIT);
	int got = stream_read(r.file->sock, ubuf, n, nonblock);
	fd_done(r);
	uint32_t zero = 0;
	if (got >= 0 && uaddr && uaddrlen && copy_to_user(uaddrlen, &zero, sizeof(zero)) < 0)
		return -EFAULT;
	return got;
}

/* shutdown (373, SYS_SHUTDOWN) */
int sys_shutdown(int fd, int how)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err < 0)
		return err;
	if (how < SHUT_RD || how > SHUT_RDWR) {
		err = -EINVAL;
	} else {
		if (how != SHUT_WR)
			pipe_shut(r.file->sock->rx);
		if (how != SHUT_RD)
			pipe_shut(r.file->sock->tx);
	}
	fd_done(r);
	return err;
}

/* Logged once per call, as kernel/syscall.c logs an unknown system call. */
static int socketcall_unknown(int call)
{
	static uint32_t logged;
	if (!(__atomic_fetch_or(&logged, 1u << call, __ATOMIC_RELAXED) & (1u << call)))
		printk("syscall: unimplemented socketcall %d from %s[%d]; -ENOSYS "
		       "(logged once per call)\n", call, current()->name, current()->pid);
	return -ENOSYS;
}

/* socketcall (102): i386 glibc's way into every socket call (it makes
 * the direct calls 359-373 only when built for Linux 4.3 and later;
 * Debian's is built for 3.2). args points at the call's arguments, as
 * many as Linux's nargs[] says. A call not done here is an unknown one. */
static const uint8_t nargs[SYS_SENDMMSG + 1] = {
	0, 3, 3, 3, 2, 3, 3, 3, 4, 4, 4, 6, 6, 2, 5, 5, 3, 3, 4, 5, 4,
};

int sys_socketcall(int call, const uint32_t *uargs)
{
	uint32_t a[6];
	if (call < SYS_SOCKET || call > SYS_SENDMMSG)
		return -EINVAL;
	if (copy_from_user(a, uargs, nargs[call] * sizeof(uint32_t)) < 0)
		return -EFAULT;
	switch (call) {
	case SYS_SOCKETPAIR:
		return sys_socketpair((int)a[0], (int)a[1], (int)a[2], (int *)a[3]);
	case SYS_SEND:
		return sys_sendto((int)a[0], (void *)a[1], a[2], a[3], NULL, 0);
	case SYS_RECV:
		return sys_recvfrom((int)a[0], (void *)a[1], a[2], a[3], NULL, NULL);
	case SYS_SENDTO:
		return sys_sendto((int)a[0], (void *)a[1], a[2], a[3], (void *)a[4], a[5]);
	case SYS_RECVFROM:
		return sys_recvfrom((int)a[0], (void *)a[1], a[2], a[3], (void *)a[4], (uint32_t *)a[5]);
	case SYS_SHUTDOWN:
		return sys_shutdown((int)a[0], (int)a[1]);
	default:
		return socketcall_unknown(call);
	}
}
