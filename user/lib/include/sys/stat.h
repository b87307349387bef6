/* sys/stat.h - stat(), lstat(), fstat() through Linux i386's stat64 calls
 * (195-197), so sizes and inode numbers are 64-bit as glibc's are. */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H

#include <sys/types.h>

/* Linux i386's struct stat64, 96 bytes (asm/stat.h). */
struct stat {
	unsigned long long st_dev;
	unsigned char __pad0[4];
	unsigned long __st_ino;
	mode_t st_mode;
	unsigned int st_nlink;
	uid_t st_uid;
	gid_t st_gid;
	unsigned long long st_rdev;
	unsigned char __pad3[4];
	long long st_size;
	unsigned long st_blksize;
	unsigned long long st_blocks;
	time_t st_atime;
	unsigned long st_atime_nsec;
	time_t st_mtime;
	unsigned long st_mtime_nsec;
	time_t st_ctime;
	unsigned long st_ctime_nsec;
	unsigned long long st_ino;
} __attribute__((packed));

#include <uapi/stat.h>	/* S_IFMT, S_IFDIR, ...; AT_FDCWD, ... */
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)

int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);

#endif
