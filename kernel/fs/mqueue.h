/*
 * mqueue.h - POSIX message queues inside kernel/fs: a queue and its
 * messages (mqueue.c: names, files, limits; mqueue_msg.c: send, receive,
 * notify). The calls are in file.h.
 */
#ifndef KERNEL_FS_MQUEUE_H
#define KERNEL_FS_MQUEUE_H

#include <stdbool.h>
#include <stdint.h>
#include "lib/spinlock.h"
#include "kernel/sync/waitq.h"

#define MQ_NAME_MAX	255		/* NAME_MAX: the name without its '/' */
#define HARD_MSGMAX	65536		/* Linux's: what even root may ask */
#define HARD_MSGSIZEMAX	(16 * 1024 * 1024)

struct mq_msg {
	struct mq_msg *next;
	uint32_t len, prio;
	char data[];
};

struct mqueue {
	struct mqueue *next;		/* on the name list while named */
	int refs;			/* open files, and 1 while named */
	bool named;
	int uid, gid;
	uint32_t mode;
	long maxmsg, msgsize, curmsgs;
	uint32_t qsize;			/* bytes of the messages held (QSIZE) */
	struct mq_msg *msgs;		/* by priority, highest first; FIFO among equals */
	struct waitq wait;		/* senders, receivers and pollers */
	int receivers;			/* waiting for a message */
	int notify_pid;			/* the registered process (0: none) */
	int notify_signo, notify_value;	/* 0 signo: SIGEV_NONE */
	char name[];
};

/* Guards the name list, every queue and its messages. */
extern struct spinlock mq_lock;
/* A reference let go; the last frees the queue and its messages. */
void mq_put(struct mqueue *q);

#endif
