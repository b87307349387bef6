/*
 * poll.h - poll (168), kernel/poll.c.
 */
#ifndef KERNEL_POLL_H
#define KERNEL_POLL_H

#include <stdint.h>

int sys_poll(void *ufds, uint32_t nfds, int timeout_ms);

#endif
