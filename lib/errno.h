/*
 * errno.h - Linux i386 error numbers, for the kernel: include/uapi/errno.h,
 * the one list shared with sched/ and the small libc. Values must stay
 * Linux's: user programs built for Linux read them.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#include <uapi/errno.h>

#endif
