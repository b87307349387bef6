/*
 * uapi/eventpoll.h - epoll: Linux i386's numbers and event layout
 * (linux/eventpoll.h), once for the kernel (kernel/fs/eventpoll.c) and
 * user programs. The event bits below EPOLLRDHUP are poll's (uapi/poll.h).
 */
#ifndef UAPI_EVENTPOLL_H
#define UAPI_EVENTPOLL_H

#include <stdint.h>
#include "fcntl.h"

#define EPOLL_CLOEXEC	O_CLOEXEC	/* epoll_create1's one flag */

/* epoll_ctl's operations */
#define EPOLL_CTL_ADD	1
#define EPOLL_CTL_DEL	2
#define EPOLL_CTL_MOD	3

#define EPOLLIN		0x00000001
#define EPOLLPRI	0x00000002
#define EPOLLOUT	0x00000004
#define EPOLLERR	0x00000008
#define EPOLLHUP	0x00000010
#define EPOLLNVAL	0x00000020
#define EPOLLRDNORM	0x00000040
#define EPOLLRDBAND	0x00000080
#define EPOLLWRNORM	0x00000100
#define EPOLLWRBAND	0x00000200
#define EPOLLMSG	0x00000400
#define EPOLLRDHUP	0x00002000
/* how an item is reported, not what it waits for */
#define EPOLLEXCLUSIVE	(1u << 28)
#define EPOLLWAKEUP	(1u << 29)
#define EPOLLONESHOT	(1u << 30)
#define EPOLLET		(1u << 31)

/* i386: packed, 12 bytes (x86-64 keeps the same layout for its 32-bit
 * programs: EPOLL_PACKED in Linux's header) */
struct epoll_event {
	uint32_t events;
	uint64_t data;
} __attribute__((packed));

#endif
