/*
 * socket.c - the socket calls: socket, socketpair, bind, connect, listen,
 * accept4, getsockname, getpeername, sendto, recvfrom, sendmsg, recvmsg,
 * shutdown, getsockopt and setsockopt, reached both through i386's
 * socketcall (102: Debian's glibc, built for Linux 3.2) and the direct
 * calls 359-373 (glibc 2.36 built for later kernels): socketcall copies
 * its arguments and calls the same functions. Only AF_UNIX is a family
 * here (unix.c); the rest are EAFNOSUPPORT, AF_INET's socketpair
 * EOPNOTSUPP, as Linux's.
 *
 * Addresses cross as Linux's move_addr_to_kernel and move_addr_to_user:
 * in, a length past 128 or negative is EINVAL; out, the caller's length
 * is read, at most that much is written, and the full length written
 * back. An AF_UNIX address is the family, then a path and its NUL, or a
 * NUL and an abstract name's bytes (unix_validate_addr, unix_mkname_bsd).
 */
#include "net.h"
#include "unix.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/debug/printk.h"
#include "kernel/fs/file.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"		/* KERNEL_OFFSET: access_ok */
#include "kernel/task/proc.h"
#include <uapi/ioctls.h>
#include <uapi/limits.h>
#include <uapi/socket.h>

/* ---- addresses ----------------------------------------------------------- */

/* An AF_UNIX address from user memory; alen 2 with AF_UNIX: *family_only. */
static int addr_in(const void *uaddr, int alen, struct unix_addr *a)
{
	char raw[_K_SS_MAXSIZE + 1];
	if (alen < 0 || alen > _K_SS_MAXSIZE)
		return -EINVAL;
	if (alen && copy_from_user(raw, uaddr, (uint32_t)alen) < 0)
		return -EFAULT;
	uint16_t family = alen >= 2 ? (uint16_t)(raw[0] | raw[1] << 8) : 0xffff;
	if (alen <= 2 || alen > UNIX_ADDR_MAX || family != AF_UNIX)
		return -EINVAL;
	memset(a, 0, sizeof(*a));
	memcpy(a->bytes, raw, (uint32_t)alen);
	a->len = (uint32_t)alen;
	if (a->bytes[2])		/* a path: up to its NUL, and the NUL */
		a->len = 2 + (uint32_t)strlen(a->bytes + 2) + 1;
	return 0;
}

static int addr_out(const struct unix_addr *a, void *uaddr, int *ulen)
{
	int len;
	if (copy_from_user(&len, ulen, sizeof(len)) < 0)
		return -EFAULT;
	if ((uint32_t)len > a->len && len > 0)
		len = (int)a->len;
	if (len < 0)
		return -EINVAL;
	if (len && copy_to_user(uaddr, a->bytes, (uint32_t)len) < 0)
		return -EFAULT;
	int full = (int)a->len;
	return copy_to_user(ulen, &full, sizeof(full)) < 0 ? -EFAULT : 0;
}

/* ---- descriptors --------------------------------------------------------- */

/* The socket on fd, for one call: -EBADF, -ENOTSOCK or 0 (fd_done after). */
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

static struct file *sock_to_file(struct socket *s, int flags)
{
	struct file *f = file_alloc(FT_SOCKET);
	if (f) {
		f->sock = s;
		f->flags |= (uint32_t)flags & O_NONBLOCK;
	}
	return f;
}

static bool nonblocking(const struct file *f, uint32_t flags)
{
	return (f->flags & O_NONBLOCK) || (flags & MSG_DONTWAIT);
}

/* Linux's __sock_create and unix_create: family, type, protocol. */
static int create_error(int family, int type, int protocol)
{
	if (family < 0 || family >= NPROTO)
		return -EAFNOSUPPORT;
	if (type < 0 || type >= SOCK_MAX)
		return -EINVAL;
	if (family != AF_UNIX)
		return -EAFNOSUPPORT;
	if (protocol != 0 && protocol != AF_UNIX)
		return -EPROTONOSUPPORT;
	return type == SOCK_STREAM || type == SOCK_DGRAM || type == SOCK_RAW ? 0 : -ESOCKTNOSUPPORT;
}

/* 359 */
int sys_socket(int family, int type, int protocol)
{
	int flags = type & ~SOCK_TYPE_MASK;
	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	type &= SOCK_TYPE_MASK;
	int err = create_error(family, type, protocol);
	if (err)
		return err;
	struct socket *s = sock_alloc(type == SOCK_RAW ? SOCK_DGRAM : type);	/* Linux: RAW is DGRAM */
	struct file *f = s ? sock_to_file(s, flags) : NULL;
	if (!f) {
		if (s)
			sock_put(s);
		return -ENOMEM;
	}
	int fd = fd_install(f, flags & SOCK_CLOEXEC);
	if (fd < 0)
		file_close(f);
	return fd;
}

/* 360: Linux's order: flags, then the descriptors are taken and written
 * out (EMFILE, EFAULT), then family, type and protocol. */
int sys_socketpair(int family, int type, int protocol, int *usv)
{
	int flags = type & ~SOCK_TYPE_MASK;
	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	int kind = type & SOCK_TYPE_MASK;
	struct socket *sa, *sb;
	int err = unix_pair(kind == SOCK_DGRAM ? SOCK_DGRAM : SOCK_STREAM, &sa, &sb);
	if (err < 0)
		return err;
	struct file *a = sock_to_file(sa, flags), *b = sock_to_file(sb, flags);
	if (!a || !b) {
		if (a)
			file_close(a);
		else
			socket_close(sa);
		if (b)
			file_close(b);
		else
			socket_close(sb);
		return -ENOMEM;
	}
	int fds[2];
	err = fd_install_pair(usv, a, b, flags & SOCK_CLOEXEC, fds);
	if (err < 0)
		return err;
	err = family == AF_INET ? -EOPNOTSUPP : create_error(family, kind, protocol);
	if (err < 0) {		/* the numbers stay written, as Linux's */
		sys_close(fds[0]);
		sys_close(fds[1]);
	}
	return err;
}

/* 361: a name; with only the family, an abstract one is made up. */
int sys_bind(int fd, const void *uaddr, int addrlen)
{
	struct unix_addr a;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	uint16_t family = 0;
	if (addrlen == 2 && copy_from_user(&family, uaddr, 2) < 0)
		err = -EFAULT;
	else if (addrlen == 2 && family == AF_UNIX)
		err = unix_autobind(r.file->sock);
	else if (!(err = addr_in(uaddr, addrlen, &a)))
		err = unix_bind(r.file->sock, &a);
	fd_done(r);
	return err;
}

/* 362: a stream joins a listener; a datagram socket gets a default peer
 * (AF_UNSPEC: none). */
int sys_connect(int fd, const void *uaddr, int addrlen)
{
	struct unix_addr a;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct socket *s = r.file->sock;
	uint16_t family = 0xffff;
	if (addrlen >= 2 && copy_from_user(&family, uaddr, 2) < 0)
		err = -EFAULT;
	else if (s->type == SOCK_DGRAM && addrlen >= 2 && family == AF_UNSPEC)
		unix_disconnect(s);
	else if (!(err = addr_in(uaddr, addrlen, &a)))
		err = unix_connect(s, &a, r.file->flags & O_NONBLOCK);
	fd_done(r);
	return err;
}

/* 363 */
int sys_listen(int fd, int backlog)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	err = unix_listen(r.file->sock, backlog);
	fd_done(r);
	return err;
}

/* 364 (and socketcall's accept: flags 0). The peer's name written out
 * after the descriptor is made; a bad buffer loses the connection, as
 * Linux's. */
int sys_accept4(int fd, void *uaddr, int *uaddrlen, int flags)
{
	if (flags & ~(SOCK_CLOEXEC | SOCK_NONBLOCK))
		return -EINVAL;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct socket *e;
	err = unix_accept(r.file->sock, &e, r.file->flags & O_NONBLOCK);
	fd_done(r);
	if (err)
		return err;
	struct file *f = sock_to_file(e, flags);
	if (!f) {
		socket_close(e);
		return -ENOMEM;
	}
	int nfd = fd_install(f, flags & SOCK_CLOEXEC);
	if (nfd < 0) {
		file_close(f);
		return nfd;
	}
	if (uaddr) {
		struct unix_addr peer = { 2, { AF_UNIX } };
		if (e->peer && e->peer->addr)
			peer = *e->peer->addr;
		err = addr_out(&peer, uaddr, uaddrlen);
		if (err) {
			sys_close(nfd);
			return err;
		}
	}
	return nfd;
}

/* 367, 368: a name not bound is the family alone. */
static int name_of(int fd, void *uaddr, int *uaddrlen, bool peer)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct socket *s = r.file->sock;
	struct unix_addr a = { 2, { AF_UNIX } };
	spin_lock(&s->lock);
	struct socket *of = peer ? s->peer : s;
	if (peer && (!of || (s->type == SOCK_STREAM && sock_state(s) != SS_CONNECTED)))
		err = -ENOTCONN;
	else if (of->addr)
		a = *of->addr;
	spin_unlock(&s->lock);
	fd_done(r);
	return err ? err : addr_out(&a, uaddr, uaddrlen);
}

int sys_getsockname(int fd, void *uaddr, int *uaddrlen)
{
	return name_of(fd, uaddr, uaddrlen, false);
}

int sys_getpeername(int fd, void *uaddr, int *uaddrlen)
{
	return name_of(fd, uaddr, uaddrlen, true);
}

/* 373 */
int sys_shutdown(int fd, int how)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	err = unix_shutdown(r.file->sock, how);
	fd_done(r);
	return err;
}

/* ---- data ---------------------------------------------------------------- */

/* read() and write() of a connected stream with no error or files
 * pending go straight to its pipes (hackbench's every message); the rest
 * as recv and send. */
static bool plain_stream(const struct socket *s)
{
	return s->type == SOCK_STREAM && sock_state(s) == SS_CONNECTED &&
	       !__atomic_load_n(&s->err, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&s->scm_head, __ATOMIC_ACQUIRE);
}

int socket_read(struct file *f, void *ubuf, uint32_t n)
{
	struct socket *s = f->sock;
	if (plain_stream(s))
		return pipe_read(s->rx, ubuf, n, f->flags & O_NONBLOCK);
	struct kiov iov = { ubuf, n };
	return unix_recv(s, &iov, 1, 0, f->flags & O_NONBLOCK, NULL, NULL, NULL);
}

int socket_write(struct file *f, const void *ubuf, uint32_t n)
{
	struct socket *s = f->sock;
	if (s->type == SOCK_STREAM && sock_state(s) == SS_CONNECTED)
		return pipe_write(s->tx, ubuf, n, f->flags & O_NONBLOCK, true);
	struct kiov iov = { (void *)ubuf, n };
	return unix_send(s, &iov, 1, 0, f->flags & O_NONBLOCK, NULL, NULL);
}

/* 369 (send: no address) */
int sys_sendto(int fd, const void *ubuf, uint32_t n, uint32_t flags, const void *uaddr,
	       int addrlen)
{
	struct unix_addr a;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct kiov iov = { (void *)ubuf, n };
	if (uaddr && addrlen)
		err = addr_in(uaddr, addrlen, &a);
	if (!err)
		err = unix_send(r.file->sock, &iov, 1, flags, nonblocking(r.file, flags),
				uaddr && addrlen ? &a : NULL, NULL);
	fd_done(r);
	return err;
}

/* 371 (recv: no address): the sender's name, len 0 when it has none. */
int sys_recvfrom(int fd, void *ubuf, uint32_t n, uint32_t flags, void *uaddr, int *uaddrlen)
{
	struct unix_addr from;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct kiov iov = { ubuf, n };
	int got = unix_recv(r.file->sock, &iov, 1, flags, nonblocking(r.file, flags), &from, NULL,
			    NULL);
	fd_done(r);
	if (got >= 0 && uaddr && (err = addr_out(&from, uaddr, uaddrlen)) < 0)
		return err;
	return got;
}

#define MAX_RW_COUNT	0x7ffff000u	/* Linux's: INT_MAX & PAGE_MASK, the most one call moves */

/* A message header and its iovecs from user memory (kiov kmalloc'd): a
 * piece negative as an ssize_t is EINVAL, one reaching into the kernel
 * EFAULT, and the pieces are cut where they pass MAX_RW_COUNT, as
 * Linux's import_iovec. */
static int msg_in(const void *umsg, struct user_msghdr *m, struct kiov **iov)
{
	*iov = NULL;
	if (copy_from_user(m, umsg, sizeof(*m)) < 0)
		return -EFAULT;
	if (m->msg_iovlen > UIO_MAXIOV)
		return -EMSGSIZE;
	uint32_t bytes = m->msg_iovlen * sizeof(struct kiov);
	*iov = kmalloc(bytes ? bytes : 1);
	if (!*iov)
		return -ENOMEM;
	if (bytes && copy_from_user(*iov, m->msg_iov, bytes) < 0)
		return -EFAULT;
	for (uint32_t i = 0; i < m->msg_iovlen; i++)
		if ((int32_t)(*iov)[i].len < 0)
			return -EINVAL;
	uint32_t total = 0;		/* at most MAX_RW_COUNT: no sum wraps */
	for (uint32_t i = 0; i < m->msg_iovlen; i++) {
		uint32_t len = (*iov)[i].len;
		if ((uint64_t)(uintptr_t)(*iov)[i].base + len > KERNEL_OFFSET)
			return -EFAULT;		/* access_ok */
		if (len > MAX_RW_COUNT - total)	/* Linux cuts the pieces there */
			(*iov)[i].len = len = MAX_RW_COUNT - total;
		total += len;
	}
	return 0;
}

/* 370: the message's pieces in order, to msg_name if given, with the
 * files of its SCM_RIGHTS control messages (unix_scm.c). */
int sys_sendmsg(int fd, const void *umsg, uint32_t flags)
{
	struct user_msghdr m;
	struct kiov *iov;
	struct unix_addr a;
	struct scm_fds *fds = NULL;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	err = msg_in(umsg, &m, &iov);
	if (!err && m.msg_name && m.msg_namelen)
		err = addr_in(m.msg_name, m.msg_namelen, &a);
	if (!err)
		err = scm_from_user(&m, &fds);
	if (!err)
		err = unix_send(r.file->sock, iov, (int)m.msg_iovlen, flags,
				nonblocking(r.file, flags), m.msg_name && m.msg_namelen ? &a : NULL, fds);
	kfree(iov);
	fd_done(r);
	return err;
}

/* 372: msg_namelen, the files that came (SCM_RIGHTS in msg_control),
 * msg_controllen and msg_flags (MSG_TRUNC for a cut datagram, MSG_CTRUNC
 * for files with no room) written back. */
int sys_recvmsg(int fd, void *umsg, uint32_t flags)
{
	struct user_msghdr m;
	struct kiov *iov;
	struct unix_addr from;
	struct scm_fds *fds = NULL;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	err = msg_in(umsg, &m, &iov);
	uint32_t mflags = 0, used = 0;
	if (!err)
		err = unix_recv(r.file->sock, iov, (int)m.msg_iovlen, flags, nonblocking(r.file, flags),
				&from, &mflags, &fds);
	kfree(iov);
	fd_done(r);
	if (err < 0) {
		scm_free(fds);		/* came with bytes another reader took, or a fault */
		return err;
	}
	struct user_msghdr *um = umsg;
	int e2 = scm_to_user(fds, m.msg_control, m.msg_controllen, flags, &used, &mflags);
	if (!e2 && m.msg_name)
		e2 = addr_out(&from, m.msg_name, &um->msg_namelen);
	if (!e2 && (copy_to_user(&um->msg_controllen, &used, 4) < 0 ||
		    copy_to_user(&um->msg_flags, &mflags, 4) < 0))
		e2 = -EFAULT;
	return e2 ? e2 : err;
}

/* ---- options -------------------------------------------------------------- */

/* 365: SOL_SOCKET's options that say something here; others ENOPROTOOPT,
 * other levels EOPNOTSUPP (AF_UNIX has none of its own). */
int sys_getsockopt(int fd, int level, int name, void *uval, int *ulen)
{
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	struct socket *s = r.file->sock;
	int len, v = 0;
	const void *val = &v;
	int size = sizeof(int);
	if (level != SOL_SOCKET)
		err = -EOPNOTSUPP;
	else if (copy_from_user(&len, ulen, sizeof(len)) < 0)
		err = -EFAULT;
	else if (len < 0)
		err = -EINVAL;
	else switch (name) {
	case SO_TYPE:		v = s->type; break;
	case SO_ERROR:		v = __atomic_exchange_n(&s->err, 0, __ATOMIC_ACQ_REL); break;
	case SO_SNDBUF:
	case SO_RCVBUF:		v = UNIX_BUF; break;
	case SO_ACCEPTCONN:	v = sock_state(s) == SS_LISTENING; break;
	case SO_DOMAIN:		v = AF_UNIX; break;
	case SO_PROTOCOL:	v = 0; break;
	case SO_PASSCRED:
	case SO_REUSEADDR:
	case SO_KEEPALIVE:	v = 0; break;
	case SO_PEERCRED:	val = &s->cred; size = sizeof(s->cred); break;
	default:		err = -ENOPROTOOPT;
	}
	if (!err) {
		len = len < size ? len : size;
		if (copy_to_user(uval, val, (uint32_t)len) < 0 ||
		    copy_to_user(ulen, &len, sizeof(len)) < 0)
			err = -EFAULT;
	}
	fd_done(r);
	return err;
}

/* 366: the options programs set, taken and not acted on. */
int sys_setsockopt(int fd, int level, int name, const void *uval, int len)
{
	(void)uval;
	struct fd_ref r;
	int err = sock_file(fd, &r);
	if (err)
		return err;
	if (level != SOL_SOCKET)
		err = -EOPNOTSUPP;
	else if (len < (int)sizeof(int))
		err = -EINVAL;
	else if (name != SO_REUSEADDR && name != SO_KEEPALIVE && name != SO_SNDBUF &&
		 name != SO_RCVBUF && name != SO_PASSCRED && name != SO_LINGER &&
		 name != SO_RCVTIMEO_OLD && name != SO_SNDTIMEO_OLD)
		err = -ENOPROTOOPT;
	fd_done(r);
	return err;
}

/* ioctl (kernel/fs/ioctl.c): FIONREAD (SIOCINQ) is the bytes a stream
 * holds for reading or the next datagram's length, EINVAL on a listener,
 * as Linux's unix_ioctl; other requests ENOTTY. */
int socket_ioctl(struct socket *s, uint32_t req, void *uarg)
{
	if (req != FIONREAD)
		return -ENOTTY;
	int n = 0;
	if (sock_state(s) == SS_LISTENING)
		return -EINVAL;
	if (s->type == SOCK_STREAM && sock_state(s) == SS_CONNECTED) {
		uint32_t nread, nwrite;
		pipe_counts(s->rx, &nread, &nwrite);
		n = (int)(nwrite - nread);
	} else if (s->type == SOCK_DGRAM) {
		spin_lock(&s->lock);
		n = s->dq_head ? (int)s->dq_head->len : 0;
		spin_unlock(&s->lock);
	}
	return copy_to_user(uarg, &n, sizeof(n)) < 0 ? -EFAULT : 0;
}

/* ---- socketcall ----------------------------------------------------------- */

/* Logged once per call, as kernel/syscall.c logs an unknown system call. */
static int socketcall_unknown(int call)
{
	static uint32_t logged;
	if (!(__atomic_fetch_or(&logged, 1u << call, __ATOMIC_RELAXED) & (1u << call)))
		printk("syscall: unimplemented socketcall %d from %s[%d]; -ENOSYS "
		       "(logged once per call)\n", call, current()->name, current()->pid);
	return -ENOSYS;
}

/* socketcall (102): args points at the call's arguments, as many as
 * Linux's nargs[] says; each goes to the direct call's function. */
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
	int i0 = (int)a[0];
	void *p1 = (void *)a[1], *p2 = (void *)a[2], *p4 = (void *)a[4];
	switch (call) {
	case SYS_SOCKET:	return sys_socket(i0, (int)a[1], (int)a[2]);
	case SYS_BIND:		return sys_bind(i0, p1, (int)a[2]);
	case SYS_CONNECT:	return sys_connect(i0, p1, (int)a[2]);
	case SYS_LISTEN:	return sys_listen(i0, (int)a[1]);
	case SYS_ACCEPT:	return sys_accept4(i0, p1, p2, 0);
	case SYS_ACCEPT4:	return sys_accept4(i0, p1, p2, (int)a[3]);
	case SYS_GETSOCKNAME:	return sys_getsockname(i0, p1, p2);
	case SYS_GETPEERNAME:	return sys_getpeername(i0, p1, p2);
	case SYS_SOCKETPAIR:	return sys_socketpair(i0, (int)a[1], (int)a[2], (int *)a[3]);
	case SYS_SEND:		return sys_sendto(i0, p1, a[2], a[3], NULL, 0);
	case SYS_RECV:		return sys_recvfrom(i0, p1, a[2], a[3], NULL, NULL);
	case SYS_SENDTO:	return sys_sendto(i0, p1, a[2], a[3], p4, (int)a[5]);
	case SYS_RECVFROM:	return sys_recvfrom(i0, p1, a[2], a[3], p4, (int *)a[5]);
	case SYS_SHUTDOWN:	return sys_shutdown(i0, (int)a[1]);
	case SYS_SETSOCKOPT:	return sys_setsockopt(i0, (int)a[1], (int)a[2], (void *)a[3], (int)a[4]);
	case SYS_GETSOCKOPT:	return sys_getsockopt(i0, (int)a[1], (int)a[2], (void *)a[3], p4);
	case SYS_SENDMSG:	return sys_sendmsg(i0, p1, a[2]);
	case SYS_RECVMSG:	return sys_recvmsg(i0, p1, a[2]);
	default:		return socketcall_unknown(call);
	}
}
