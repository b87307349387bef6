/*
 * uapi/stat.h - file types, the *at() calls' flags and struct stat64:
 * Linux i386's numbers and layout (linux/stat.h, linux/fcntl.h,
 * asm/stat.h), once for the kernel (kernel/fs/fs.c, kernel/fs/stat.c) and the
 * small libc (user/lib/include/sys/stat.h, where it is POSIX's struct stat).
 */
#ifndef UAPI_STAT_H
#define UAPI_STAT_H

/* st_mode's file type */
#define S_IFMT		0170000
#define S_IFSOCK	0140000
#define S_IFLNK		0120000
#define S_IFREG		0100000
#define S_IFDIR		0040000
#define S_IFCHR		0020000
#define S_IFIFO		0010000
#define S_IWUSR		0000200	/* the owner may write */
#define S_ISUID		0004000
#define S_ISGID		0002000	/* a directory's: new names take its group */
#define S_ISVTX		0001000	/* sticky: a directory's names go only by their owner's hand */

/* fstatat64, statx */
#define AT_FDCWD		(-100)	/* "the working directory", as dirfd */
#define AT_SYMLINK_NOFOLLOW	0x100
#define AT_EACCESS		0x200	/* faccessat: the effective ids, not the real ones */
#define AT_NO_AUTOMOUNT		0x800
#define AT_EMPTY_PATH		0x1000
#define AT_REMOVEDIR		0x200	/* unlinkat: rmdir (the same bit as AT_EACCESS) */
#define AT_SYMLINK_FOLLOW	0x400	/* linkat: link what a symbolic link names */
/* renameat2's flags (linux/fs.h) */
#define RENAME_NOREPLACE	1
#define RENAME_EXCHANGE		2
#define RENAME_WHITEOUT		4
#define AT_STATX_SYNC_TYPE	0x6000
#define STATX_BASIC_STATS	0x7ff

/* What stat64, lstat64, fstat64 and fstatat64 (195-197, 300) fill: 96
 * bytes, packed as i386 lays them out (the 64-bit fields on 4-byte
 * boundaries). st_ino is there twice: the old 32-bit field (__st_ino) and
 * the full one at the end. */
struct stat64 {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	unsigned int st_mode;
	unsigned int st_nlink;
	unsigned int st_uid;
	unsigned int st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	unsigned long st_atime;
	unsigned long st_atime_nsec;
	unsigned long st_mtime;
	unsigned long st_mtime_nsec;
	unsigned long st_ctime;
	unsigned long st_ctime_nsec;
	unsigned long long st_ino;
} __attribute__((packed));

#endif
