/*
 * uapi/limits.h - Linux's limits that programs and the kernel share
 * (linux/limits.h), once.
 */
#ifndef UAPI_LIMITS_H
#define UAPI_LIMITS_H

#define PIPE_BUF	4096	/* bytes a pipe write moves whole (POSIX) */
#define UIO_MAXIOV	1024	/* pieces of readv, writev, sendmsg (linux/uio.h) */

#endif
