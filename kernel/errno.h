/*
 * errno.h - Linux i386 error numbers used by the kernel.
 * The scheduler's subset lives in sched/errno.h (sched/ cannot reach out);
 * this header adds the rest. Values must stay Linux's: user programs built
 * for Linux read them.
 */
#ifndef KERNEL_ERRNO_H
#define KERNEL_ERRNO_H

#include "../sched/errno.h"

#define EINTR	4
#define EIO	5
#define E2BIG	7
#define ENOEXEC	8
#define EBADF	9
#define ECHILD	10
#define EAGAIN	11
#define ENOMEM	12
#define ENOTDIR	20
#define EISDIR	21
#define EMFILE	24
#define ENOTTY	25
#define ENOSPC	28
#define EROFS	30
#define EPIPE	32
#define ERANGE	34
#define ENAMETOOLONG 36

#endif
