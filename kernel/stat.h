/*
 * stat.h - what a file is: fstatat64, statx and readlink (stat64, lstat64 and fstat64 are kernel/fs.c's), as
 * glibc's start-up and stdio ask (is stdout a terminal? how big a buffer?).
 */
#ifndef KERNEL_STAT_H
#define KERNEL_STAT_H

#include <stdint.h>

int sys_fstatat64(int dirfd, const char *upath, void *ustat, int flags);
int sys_statx(int dirfd, const char *upath, int flags, uint32_t mask, void *ustatx);
int sys_readlink(const char *upath, char *ubuf, int size);

#endif
