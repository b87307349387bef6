/*
 * uapi/mqueue.h - POSIX message queues (mq_open 277 ... mq_getsetattr 282,
 * mq_timedsend_time64 418, mq_timedreceive_time64 419): Linux's struct
 * mq_attr (linux/mqueue.h), struct sigevent (asm-generic/siginfo.h) and
 * their numbers, once for the kernel (kernel/fs/mqueue.c) and user
 * programs.
 */
#ifndef UAPI_MQUEUE_H
#define UAPI_MQUEUE_H

struct mq_attr {
	long mq_flags;		/* O_NONBLOCK: the open description's */
	long mq_maxmsg;		/* messages it holds at most */
	long mq_msgsize;	/* bytes a message has at most */
	long mq_curmsgs;	/* messages it holds now */
	long __reserved[4];
};

#define MQ_PRIO_MAX	32768	/* priorities 0 .. MQ_PRIO_MAX - 1 */
#define MQ_BYTES_MAX	819200	/* Linux's RLIMIT_MSGQUEUE default */

/* mq_notify's struct sigevent: 64 bytes on i386. */
#define SIGEV_SIGNAL	0	/* a signal, si_code SI_MESGQ */
#define SIGEV_NONE	1	/* nothing: the registration only */
#define SIGEV_THREAD	2	/* glibc's: through a netlink socket */
struct sigevent {
	int sigev_value;	/* union sigval: an int or a pointer */
	int sigev_signo;
	int sigev_notify;
	int _pad[13];
};

#endif
