/*
 * poll.h - poll (168), kernel/fs/poll.c.
 */
#ifndef KERNEL_POLL_H
#define KERNEL_POLL_H

#include <stdint.h>

int sys_poll(void *ufds, uint32_t nfds, int timeout_ms);
/* 142 _newselect, 308 pselect6, 413 pselect6_time64. */
int sys_select(int nfds, void *uin, void *uout, void *uex, void *utv);
int sys_pselect6(int nfds, void *uin, void *uout, void *uex, void *uts, const void *usig);
int sys_pselect6_time64(int nfds, void *uin, void *uout, void *uex, void *uts, const void *usig);

#endif
