/*
 * unix.h - AF_UNIX sockets inside kernel/net/: what the calls
 * (socket.c) ask of the sockets (unix.c, unix_name.c).
 */
#ifndef KERNEL_NET_UNIX_H
#define KERNEL_NET_UNIX_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/spinlock.h"
#include "kernel/sync/waitq.h"

#define UNIX_PATH_MAX	108		/* sun_path's size */
#define UNIX_ADDR_MAX	(2 + UNIX_PATH_MAX)	/* sizeof(struct sockaddr_un) */
#define UNIX_BUF	212992		/* Linux's wmem_default: SO_SNDBUF, SO_RCVBUF */
#define UNIX_DGRAM_QLEN	10		/* Linux's net.unix.max_dgram_qlen */
#define SOMAXCONN	4096		/* Linux's net.core.somaxconn: listen's cap */

enum sock_state { SS_UNBOUND_CLOSED, SS_LISTENING, SS_CONNECTED };

/* A name: sun_family, then the path and its NUL, or (abstract) a NUL and
 * the name's bytes; len counts them all, as getsockname gives it. */
struct unix_addr {
	uint32_t len;
	char bytes[UNIX_ADDR_MAX + 1];
};

struct ucred_k {
	int32_t pid, uid, gid;
};

struct initrd_file;

/* Files passed with SCM_RIGHTS (unix_scm.c), held until received.
 * refs: its holders (a stream's sender, until its write is over, and the
 * queue or its taker): the files are the taker's, the memory the last's. */
struct scm_fds {
	struct scm_fds *next;		/* a stream's queue of them */
	uint32_t at, end;		/* stream: the receiving pipe's bytes they came with */
	int refs;
	int n;
	struct file *files[];
};

/* A datagram waiting to be read, with its sender's name. */
struct dgram {
	struct dgram *next;
	uint32_t len;
	struct scm_fds *fds;		/* NULL: none came with it */
	struct unix_addr from;		/* len 0: an unnamed sender */
	char data[];
};

/*
 * One socket. Its references: its file, its stream peer, the datagram
 * sockets connected to it, a listener's accept queue; freed at the last
 * (sock_put). lock guards state, peer, the accept queue, the datagram
 * queue, err and the shut flags; the pipes have their own.
 */
struct socket {
	int type;			/* SOCK_STREAM, SOCK_DGRAM */
	int state;			/* enum sock_state */
	int refs;
	struct spinlock lock;
	struct waitq wait;		/* its readers, writers, pollers, accepters */
	struct unix_addr *addr;		/* bound name (kmalloc), NULL if none */
	const struct initrd_file *node;	/* a path name's socket file, held */
	bool in_table;			/* in the name table (unix_name.c) */
	struct socket *table_next;
	struct socket *peer;		/* stream: the other end; datagram: connect's target */
	struct pipe *rx, *tx;		/* stream: read from rx, write to tx */
	int err;			/* pending error (sk_err): SO_ERROR, a read */
	bool rd_shut, wr_shut;		/* datagram shutdown() (a stream's are its pipes') */
	bool closed;			/* its file is gone */
	struct ucred_k cred;		/* SO_PEERCRED: the peer's, when it connected */
	int backlog, queued;		/* listening: the cap and the connections waiting */
	struct socket *acc_head, *acc_tail, *acc_next;
	struct dgram *dq_head, *dq_tail;	/* datagrams to read */
	int dq_len;
	uint32_t dq_bytes;
	struct scm_fds *scm_head, *scm_tail;	/* stream: files with bytes of rx */
};

/* The state, read without the lock: a connected stream's pipes and peer
 * are set before its state says so (stream_link). */
static inline int sock_state(const struct socket *s)
{
	return __atomic_load_n(&s->state, __ATOMIC_ACQUIRE);
}

/* unix.c */
struct socket *sock_alloc(int type);
void sock_get(struct socket *s);
void sock_put(struct socket *s);
int unix_pair(int type, struct socket **a, struct socket **b);
/* Sleep on s's queue until ready(s, arg) holds under s->lock: 0 with the
 * lock held, or -EAGAIN (nonblock) / -ERESTARTSYS without it. ready() is
 * called with the task's state set (it may take spinlocks, not sleep). */
int sock_wait(struct socket *s, bool (*ready)(struct socket *, void *), void *arg, bool nonblock);
int unix_listen(struct socket *s, int backlog);
void unix_disconnect(struct socket *s);
int unix_connect(struct socket *s, const struct unix_addr *a, bool nonblock);
int unix_accept(struct socket *s, struct socket **out, bool nonblock);
/* Data: iov of n pieces (user memory), flags MSG_*; from: a datagram's
 * sender address out (len 0 when unnamed). */
struct kiov {
	void *base;
	uint32_t len;
};
/* fds (taken, NULL: none) go with the data; *fds_out (NULL: the caller
 * takes none, they are closed) are those that came with what was read. */
int unix_send(struct socket *s, const struct kiov *iov, int n, uint32_t flags, bool nonblock,
	      const struct unix_addr *to, struct scm_fds *fds);
int unix_recv(struct socket *s, const struct kiov *iov, int n, uint32_t flags, bool nonblock,
	      struct unix_addr *from, uint32_t *msg_flags, struct scm_fds **fds_out);
int unix_shutdown(struct socket *s, int how);
void unix_current_cred(struct ucred_k *c);

/* unix_scm.c */
struct user_msghdr;
int scm_from_user(const struct user_msghdr *m, struct scm_fds **out);
int scm_to_user(struct scm_fds *b, void *uctl, uint32_t ctllen, uint32_t flags, uint32_t *used,
		uint32_t *msg_flags);
/* Close the files it still holds, and drop a reference (the taker's). */
void scm_free(struct scm_fds *b);
void scm_unref(struct scm_fds *b);

/* unix_name.c: the names sockets are bound to */
int unix_bind(struct socket *s, const struct unix_addr *a);
int unix_autobind(struct socket *s);
/* The socket bound to a, with a reference: 0, or ENOENT, EACCES,
 * ECONNREFUSED (nothing of this type bound there), EPROTOTYPE (a path
 * bound by another type). */
int unix_find(const struct unix_addr *a, int type, struct socket **out);
void unix_unbind(struct socket *s);

#endif
