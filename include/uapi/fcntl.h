/*
 * uapi/fcntl.h - open's flags: Linux i386's numbers (asm-generic/fcntl.h),
 * once for the kernel (kernel/fs.h) and the small libc
 * (user/lib/include/fcntl.h).
 */
#ifndef UAPI_FCNTL_H
#define UAPI_FCNTL_H

#define O_ACCMODE	3
#define O_RDONLY	0
#define O_WRONLY	1
#define O_RDWR		2
#define O_DIRECTORY	0200000	/* fail with ENOTDIR unless it is a directory */

#endif
