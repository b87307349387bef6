/*
 * stat.h - what a file is: stat64, lstat64, fstat64, fstatat64, statx,
 * readlink and access, as ls and glibc's start-up and stdio ask (is stdout a
 * terminal? how big a buffer?).
 */
#ifndef KERNEL_STAT_H
#define KERNEL_STAT_H

#include <stdint.h>

int sys_stat64(const char *upath, void *ustat);
int sys_lstat64(const char *upath, void *ustat);
int sys_fstat64(int fd, void *ustat);
int sys_fstatat64(int dirfd, const char *upath, void *ustat, int flags);
int sys_statx(int dirfd, const char *upath, int flags, uint32_t mask, void *ustatx);
int sys_readlink(const char *upath, char *ubuf, int size);
int sys_access(const char *upath, int mode);
int sys_faccessat(int dirfd, const char *upath, int mode);
int sys_faccessat2(int dirfd, const char *upath, int mode, int flags);
int sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size);
int sys_access(const char *upath, int mode);
int sys_faccessat(int dirfd, const char *upath, int mode);
int sys_faccessat2(int dirfd, const char *upath, int mode, int flags);

#endif
