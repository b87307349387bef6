/*
 * uapi/fcntl.h - open's flags and fcntl's commands: Linux i386's numbers
 * (asm-generic/fcntl.h),
 * once for the kernel (kernel/fs/fs.h) and the small libc
 * (user/lib/include/fcntl.h).
 */
#ifndef UAPI_FCNTL_H
#define UAPI_FCNTL_H

#include <stdint.h>

#define O_ACCMODE	3
#define O_RDONLY	0
#define O_WRONLY	1
#define O_RDWR		2
#define O_CREAT		0100
#define O_EXCL		0200
#define O_NOCTTY	0400
#define O_TRUNC		01000
#define O_APPEND	02000
#define O_NONBLOCK	04000
#define O_LARGEFILE	0100000
#define O_DIRECTORY	0200000	/* fail with ENOTDIR unless it is a directory */
#define O_NOFOLLOW	0400000
#define O_CLOEXEC	02000000

/* lseek (19) and _llseek (140): whence */
#define SEEK_SET	0
#define SEEK_CUR	1
#define SEEK_END	2
#define SEEK_DATA	3
#define SEEK_HOLE	4

/* fcntl (55) and fcntl64 (221) */
#define F_DUPFD		0
#define F_GETFD		1
#define F_SETFD		2
#define F_GETFL		3
#define F_SETFL		4
#define F_DUPFD_CLOEXEC	1030
#define F_SETPIPE_SZ	1031
#define F_GETPIPE_SZ	1032
#define FD_CLOEXEC	1

/* close_range's flags (linux/close_range.h) */
#define CLOSE_RANGE_UNSHARE	(1u << 1)
#define CLOSE_RANGE_CLOEXEC	(1u << 2)

/* POSIX record locks (fcntl 5-7 with struct flock, 12-14 with flock64) */
#define F_GETLK		5
#define F_SETLK		6
#define F_SETLKW	7
#define F_GETLK64	12
#define F_SETLK64	13
#define F_SETLKW64	14
#define F_RDLCK		0
#define F_WRLCK		1
#define F_UNLCK		2

/* Linux i386's struct flock (16 bytes) and struct flock64 (24: the 64-bit
 * fields 4-aligned); named apart from libc's own. */
struct uapi_flock {
	short l_type, l_whence;
	int32_t l_start, l_len;
	int32_t l_pid;
};
struct uapi_flock64 {
	short l_type, l_whence;
	int64_t l_start, l_len;
	int32_t l_pid;
} __attribute__((packed, aligned(4)));

#endif
