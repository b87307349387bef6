/*
 * errno.h - the error numbers sched/ returns: Linux's, from
 * include/uapi/errno.h, the one list the kernel and the small libc share.
 * sched/ includes nothing of the kernel's; the ABI headers in include/uapi/
 * are neither side's, so sched/ takes its numbers from there as user space
 * does (the host tests and the simulator build with -I include too).
 */
#ifndef SCHED_ERRNO_H
#define SCHED_ERRNO_H

#include <uapi/errno.h>

#endif
