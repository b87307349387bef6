/*
 * dir.c - files and directories: stat, readlink, chdir, getcwd, sysinfo, and
 * opendir/readdir, which read a directory's entries in batches with
 * getdents64 as glibc does.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "syscall.h"

#define RET(x) return __syscall_ret(x)

int stat(const char *path, struct stat *st) { RET(syscall2(__NR_stat64, (long)path, (long)st)); }
int lstat(const char *path, struct stat *st) { RET(syscall2(__NR_lstat64, (long)path, (long)st)); }
int fstat(int fd, struct stat *st) { RET(syscall2(__NR_fstat64, fd, (long)st)); }
int chdir(const char *path) { RET(syscall1(__NR_chdir, (long)path)); }
ssize_t readlink(const char *path, char *buf, size_t n) { RET(syscall3(__NR_readlink, (long)path, (long)buf, n)); }
int sysinfo(struct sysinfo *info) { RET(syscall1(__NR_sysinfo, (long)info)); }
int getdents64(int fd, void *buf, size_t n) { RET(syscall3(__NR_getdents64, fd, (long)buf, n)); }

/* The kernel returns the length; POSIX returns buf. */
char *getcwd(char *buf, size_t size)
{
	return __syscall_ret(syscall2(__NR_getcwd, (long)buf, size)) < 0 ? NULL : buf;
}

struct DIR {
	int fd;
	int pos, len;			/* the next entry in buf, the bytes in it */
	char buf[2048] __attribute__((aligned(8)));
};

DIR *opendir(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY);
	if (fd < 0)
		return NULL;
	DIR *d = malloc(sizeof(*d));
	if (!d) {
		close(fd);
		errno = ENOMEM;
		return NULL;
	}
	d->fd = fd;
	d->pos = d->len = 0;
	return d;
}

struct dirent *readdir(DIR *d)
{
	if (d->pos >= d->len) {
		int n = getdents64(d->fd, d->buf, sizeof(d->buf));
		if (n <= 0)
			return NULL;
		d->pos = 0;
		d->len = n;
	}
	struct dirent *e = (struct dirent *)(d->buf + d->pos);
	d->pos += e->d_reclen;
	return e;
}

int closedir(DIR *d)
{
	int r = close(d->fd);
	free(d);
	return r;
}
