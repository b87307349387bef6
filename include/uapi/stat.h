/*
 * uapi/stat.h - file types and the *at() calls' flags: Linux i386's numbers
 * (linux/stat.h, linux/fcntl.h), once for the kernel (kernel/fs.c,
 * kernel/stat.c) and the small libc (user/lib/include/sys/stat.h).
 */
#ifndef UAPI_STAT_H
#define UAPI_STAT_H

/* st_mode's file type */
#define S_IFMT		0170000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_IWUSR		0000200	/* the owner may write */

/* fstatat64, statx */
#define AT_FDCWD		(-100)	/* "the working directory", as dirfd */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_EACCESS		0x200	/* faccessat: the effective ids, not the real ones */
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#define AT_STATX_SYNC_TYPE	0x6000
#define STATX_BASIC_STATS	0x7ff

#endif
