/*
 * kernel/net/ - sockets: the socket calls (socket, both socketcall (102)
 * and the direct calls 359-373 through one table of handlers), and
 * AF_UNIX's stream and datagram sockets (unix, unix_data) with their
 * names (unix_name: socket files in the tree, abstract names in a table
 * under names_lock). Each socket's lock guards its state, peer, accept
 * queue and datagram queue; a stream's bytes are a pipe's (kernel/fs/).
 *
 * Face of this folder. May call: lib, kernel/debug, kernel/fs, kernel/mm, kernel/sync, kernel/task.
 *
 * net.h - what the rest of the kernel sees of a socket: the system calls
 * (kernel/syscall.c) and a socket as an open file (kernel/fs/file.c).
 */
#ifndef KERNEL_NET_H
#define KERNEL_NET_H

#include <stdint.h>

struct file;
struct socket;
struct waitq;

/* A socket's file: read, write, its last close, poll, its ioctls. */
int socket_read(struct file *f, void *ubuf, uint32_t n);
int socket_write(struct file *f, const void *ubuf, uint32_t n);
void socket_close(struct socket *s);
uint32_t socket_poll(struct socket *s);
struct waitq *socket_waitq(struct socket *s);
int socket_ioctl(struct socket *s, uint32_t req, void *uarg);

int sys_socket(int family, int type, int protocol);
int sys_socketpair(int family, int type, int protocol, int *usv);
int sys_bind(int fd, const void *uaddr, int addrlen);
int sys_connect(int fd, const void *uaddr, int addrlen);
int sys_listen(int fd, int backlog);
int sys_accept4(int fd, void *uaddr, int *uaddrlen, int flags);
int sys_getsockname(int fd, void *uaddr, int *uaddrlen);
int sys_getpeername(int fd, void *uaddr, int *uaddrlen);
int sys_sendto(int fd, const void *ubuf, uint32_t n, uint32_t flags,
	       const void *uaddr, int addrlen);
int sys_recvfrom(int fd, void *ubuf, uint32_t n, uint32_t flags,
		 void *uaddr, int *uaddrlen);
int sys_sendmsg(int fd, const void *umsg, uint32_t flags);
int sys_recvmsg(int fd, void *umsg, uint32_t flags);
int sys_shutdown(int fd, int how);
int sys_getsockopt(int fd, int level, int name, void *uval, int *ulen);
int sys_setsockopt(int fd, int level, int name, const void *uval, int len);
int sys_socketcall(int call, const uint32_t *uargs);

#endif
