/*
 * errno.h - Linux i386 error numbers used by the kernel.
 *
 * One list in two parts. The numbers sched/ returns are defined once, in
 * sched/errno.h; this header includes it and adds the rest. That header is
 * the neutral one both sides share, and it has to live in sched/: sched/
 * includes nothing outside sched/ (it is built alone into the host tests
 * and the simulator), as with the lock type (sched/spinlock.h). It holds
 * Linux's values and nothing of the scheduler's state, so including it is
 * not the kernel looking into the scheduler (that goes through
 * sched/sched.h only). Values must stay Linux's: user programs built for
 * Linux read them.
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
#define EEXIST	17
#define ENODEV	19
#define ENOTDIR	20
#define EISDIR	21
#define EMFILE	24
#define ENOTTY	25
#define ENOSPC	28
#define EROFS	30
#define EPIPE	32
#define ERANGE	34
#define EOVERFLOW 75
#define ENAMETOOLONG 36
#define EOPNOTSUPP 95

#endif
