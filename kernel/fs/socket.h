/*
 * socket.h - the socket calls (kernel/fs/socket.c): stream socket pairs.
 */
#ifndef KERNEL_SOCKET_H
#define KERNEL_SOCKET_H

#include <stdint.h>

int sys_socketpair(int family, int type, int protocol, int *usv);
int sys_sendto(int fd, const void *ubuf, uint32_t n, uint32_t flags,
	       const void *uaddr, uint32_t addrlen);
int sys_recvfrom(int fd, void *ubuf, uint32_t n, uint32_t flags,
		 void *uaddr, uint32_t *uaddrlen);
int sys_shutdown(int fd, int how);
int sys_socketcall(int call, const uint32_t *uargs);

#endif
