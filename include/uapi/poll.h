/*
 * uapi/poll.h - poll's events: Linux i386's numbers (asm-generic/poll.h),
 * once for the kernel (kernel/fs/poll.c) and user programs.
 */
#ifndef UAPI_POLL_H
#define UAPI_POLL_H

#define POLLIN		0x0001
#define POLLPRI		0x0002
#define POLLOUT		0x0004
#define POLLERR		0x0008
#define POLLHUP		0x0010
#define POLLNVAL	0x0020
#define POLLRDNORM	0x0040
#define POLLWRNORM	0x0100
#define POLLWRBAND	0x0200
#define POLLRDHUP	0x2000

struct pollfd {
	int fd;
	short events, revents;
};

#endif
