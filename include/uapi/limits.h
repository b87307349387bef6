/*
 * uapi/limits.h - Linux's limits that programs and the kernel share
 * (linux/limits.h), once.
 */
#ifndef UAPI_LIMITS_H
#define UAPI_LIMITS_H

#define PIPE_BUF	4096	/* bytes a pipe write moves whole (POSIX) */

#endif
