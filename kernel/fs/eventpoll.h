/*
 * eventpoll.h - epoll (kernel/fs/eventpoll.c): the calls, and what an
 * epoll file is to the rest of kernel/fs/ (file.c).
 */
#ifndef KERNEL_EVENTPOLL_H
#define KERNEL_EVENTPOLL_H

#include <stdint.h>

struct file;
struct eventpoll;
struct waitq;

int sys_epoll_create(int size);
int sys_epoll_create1(int flags);
int sys_epoll_ctl(int epfd, int op, int fd, const void *uevent);
int sys_epoll_wait(int epfd, void *uevents, int maxevents, int timeout_ms);
int sys_epoll_pwait(int epfd, void *uevents, int maxevents, int timeout_ms,
		    const void *usigmask, uint32_t sigsetsize);

/* An epoll file as file_poll and file_waitq see it. */
uint32_t eventpoll_poll(struct eventpoll *ep);
struct waitq *eventpoll_waitq(struct eventpoll *ep);
/* file_close, at the last reference: f leaves every epoll watching it
 * (before f's own end); and an epoll file's end. */
void eventpoll_release(struct file *f);
void eventpoll_free(struct eventpoll *ep);

#endif
