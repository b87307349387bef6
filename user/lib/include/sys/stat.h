/* sys/stat.h - stat(), lstat(), fstat() through Linux i386's stat64 calls
 * (195-197), so sizes and inode numbers are 64-bit as glibc's are. */
#ifndef _SYS_STAT_H
#define _SYS_STAT_H

#include <sys/types.h>

#include <uapi/stat.h>	/* struct stat (uapi's stat64, sys/types.h), S_IF*, AT_* */
#define S_ISDIR(m)  (((m) & S_IFMT) == S_IFDIR)
#define S_ISREG(m)  (((m) & S_IFMT) == S_IFREG)
#define S_ISCHR(m)  (((m) & S_IFMT) == S_IFCHR)
#define S_ISFIFO(m) (((m) & S_IFMT) == S_IFIFO)
#define S_ISLNK(m)  (((m) & S_IFMT) == S_IFLNK)
#define S_ISSOCK(m) (((m) & S_IFMT) == S_IFSOCK)

int stat(const char *path, struct stat *st);
int lstat(const char *path, struct stat *st);
int fstat(int fd, struct stat *st);

#endif
