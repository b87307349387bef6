/*
 * fs.h - the file-system calls on paths and directories (kernel/fs.c):
 * every path a program names is walked here, from its working directory.
 */
#ifndef KERNEL_FS_H
#define KERNEL_FS_H

#include "initrd.h"

#include <uapi/fcntl.h>		/* O_ACCMODE, O_DIRECTORY */

#define FS_PATH_MAX	256		/* a path as a program may write it, with "..", "./" */

struct file;
struct proc;

/* Copy a path from user memory and walk it from the current process's
 * working directory: 0 and *out, or -errno (EFAULT, ENAMETOOLONG, ENOENT,
 * ENOTDIR). */
int fs_lookup_user(const char *upath, const struct initrd_file **out);
/* The same for a path already in kernel memory, from process p's cwd. */
int fs_lookup(const struct proc *p, const char *path, const struct initrd_file **out);
int fs_fstat(struct file *f, void *ustat64);

int sys_chdir(const char *upath);
int sys_getcwd(char *ubuf, uint32_t size);
int sys_stat64(const char *upath, void *ustat64);
int sys_lstat64(const char *upath, void *ustat64);
int sys_fstat64(int fd, void *ustat64);
int sys_getdents64(int fd, void *udirp, uint32_t count);

#endif
