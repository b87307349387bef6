/*
 * uapi/socket.h - sockets: Linux i386's numbers (linux/socket.h,
 * linux/net.h, asm-generic/socket.h), once for the kernel
 * (kernel/net/) and user programs.
 */
#ifndef UAPI_SOCKET_H
#define UAPI_SOCKET_H

#include <stdint.h>
#include "fcntl.h"

/* families */
#define AF_UNSPEC	0	/* a datagram socket's connect: disconnect */
#define AF_UNIX		1	/* also AF_LOCAL */
#define AF_INET		2
#define NPROTO		46	/* AF_MAX in Linux 6.1: families at or past it do not exist */

/* types; the flags ride in the same argument, above SOCK_TYPE_MASK */
#define SOCK_STREAM	1
#define SOCK_DGRAM	2
#define SOCK_RAW	3
#define SOCK_RDM	4
#define SOCK_SEQPACKET	5
#define SOCK_PACKET	10
#define SOCK_MAX	11
#define SOCK_TYPE_MASK	0xf
#define SOCK_CLOEXEC	O_CLOEXEC
#define SOCK_NONBLOCK	O_NONBLOCK

/* send and recv flags */
#define MSG_OOB		0x1
#define MSG_PEEK	0x2
#define MSG_CTRUNC	0x8
#define MSG_TRUNC	0x20
#define MSG_DONTWAIT	0x40
#define MSG_WAITALL	0x100
#define MSG_NOSIGNAL	0x4000
#define MSG_CMSG_CLOEXEC	0x40000000	/* received descriptors close-on-exec */

/* control messages (sendmsg, recvmsg): at SOL_SOCKET, SCM_RIGHTS carries
 * descriptors, at most SCM_MAX_FD in one message (Linux's net/scm.h) */
struct cmsghdr {
	uint32_t cmsg_len;		/* the header and its data, unaligned */
	int cmsg_level;
	int cmsg_type;
};
#define SCM_RIGHTS	1
#define SCM_CREDENTIALS	2
#define SCM_MAX_FD	253

/* getsockopt and setsockopt: the socket level's options (asm-generic/socket.h) */
#define SOL_SOCKET	1
#define SO_REUSEADDR	2
#define SO_TYPE		3
#define SO_ERROR	4
#define SO_SNDBUF	7
#define SO_RCVBUF	8
#define SO_KEEPALIVE	9
#define SO_LINGER	13
#define SO_PASSCRED	16
#define SO_PEERCRED	17
#define SO_RCVTIMEO_OLD	20
#define SO_SNDTIMEO_OLD	21
#define SO_ACCEPTCONN	30
#define SO_PROTOCOL	38
#define SO_DOMAIN	39

/* sendmsg and recvmsg's message (Linux's struct user_msghdr, i386) */
struct user_msghdr {
	void *msg_name;
	int msg_namelen;
	void *msg_iov;			/* struct iovec[msg_iovlen] */
	uint32_t msg_iovlen;
	void *msg_control;
	uint32_t msg_controllen;
	uint32_t msg_flags;
};
#define _K_SS_MAXSIZE	128	/* sizeof(struct sockaddr_storage): EINVAL past it */

/* shutdown's how */
#define SHUT_RD		0
#define SHUT_WR		1
#define SHUT_RDWR	2

/* socketcall (102)'s calls (linux/net.h), as i386 glibc makes them */
#define SYS_SOCKET	1
#define SYS_BIND	2
#define SYS_CONNECT	3
#define SYS_LISTEN	4
#define SYS_ACCEPT	5
#define SYS_GETSOCKNAME	6
#define SYS_GETPEERNAME	7
#define SYS_SOCKETPAIR	8
#define SYS_SEND	9
#define SYS_RECV	10
#define SYS_SENDTO	11
#define SYS_RECVFROM	12
#define SYS_SHUTDOWN	13
#define SYS_SETSOCKOPT	14
#define SYS_GETSOCKOPT	15
#define SYS_SENDMSG	16
#define SYS_RECVMSG	17
#define SYS_ACCEPT4	18
#define SYS_RECVMMSG	19
#define SYS_SENDMMSG	20

#endif
