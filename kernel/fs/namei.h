/*
 * namei.h - the calls that change names and their files (kernel/fs/namei.c):
 * mkdir, rmdir, unlink, rename, link, symlink, chmod, chown, truncate.
 */
#ifndef KERNEL_FS_NAMEI_H
#define KERNEL_FS_NAMEI_H

#include <stdbool.h>
#include <stdint.h>
#include "initrd.h"

#define MAY_EXEC	1
#define MAY_WRITE	2
#define MAY_READ	4

/* Linux's generic_permission with the caller's effective ids: 0 or -EACCES. */
int fs_permission(const struct initrd_file *n, int mask);
/* The same rule for any object with an owner and mode bits (a message
 * queue's): the caller's effective ids against uid, gid and mode, then
 * CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH. 0 or -EACCES. */
int mode_permission(uint32_t uid, uint32_t gid, uint32_t mode, bool is_dir, int mask);
/* A new file's owner: the caller's effective uid; its group: the
 * directory's when it is set-group-ID, else the caller's. */
uint32_t fs_fsuid(void);
uint32_t fs_new_gid(const struct initrd_file *dir, uint16_t dir_mode);
/* O_CREAT of a name not there (kernel/fs/file.c): path (FS_PATH_MAX bytes,
 * changed) from dirfd; 0 and the new file, or -errno. */
int fs_create(int dirfd, char *path, uint32_t mode, const struct initrd_file **out);
/* unlink of a path the kernel names (a core dump's old "core"), changed. */
int fs_unlink_kernel(int dirfd, char *path);

/* AF_UNIX's bind (kernel/net/): a socket file at path (FS_PATH_MAX bytes,
 * changed), held (node_drop gives it back); 0, -EEXIST, or the path's
 * errors. And whether a node is one. */
int fs_mksock(char *path, uint32_t mode, const struct initrd_file **out);
void fs_mksock_undo(char *path);
bool fs_is_socket(const struct initrd_file *n);
int sys_mkdir(const char *upath, uint32_t mode);
int sys_mkdirat(int dirfd, const char *upath, uint32_t mode);
int sys_unlink(const char *upath);
int sys_unlinkat(int dirfd, const char *upath, int flags);
int sys_rmdir(const char *upath);
int sys_rename(const char *uold, const char *unew);
int sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew);
int sys_renameat2(int olddirfd, const char *uold, int newdirfd, const char *unew, uint32_t flags);
int sys_link(const char *uold, const char *unew);
int sys_linkat(int olddirfd, const char *uold, int newdirfd, const char *unew, int flags);
int sys_symlink(const char *utarget, const char *upath);
int sys_symlinkat(const char *utarget, int dirfd, const char *upath);
int sys_chmod(const char *upath, uint32_t mode);
int sys_fchmod(int fd, uint32_t mode);
int sys_fchmodat(int dirfd, const char *upath, uint32_t mode);
int sys_chown32(const char *upath, uint32_t uid, uint32_t gid);
int sys_lchown32(const char *upath, uint32_t uid, uint32_t gid);
int sys_fchown32(int fd, uint32_t uid, uint32_t gid);
int sys_fchownat(int dirfd, const char *upath, uint32_t uid, uint32_t gid, int flags);
int sys_truncate(const char *upath, int32_t size);
int sys_ftruncate(int fd, int32_t size);
int sys_truncate64(const char *upath, uint32_t lo, uint32_t hi);
int sys_ftruncate64(int fd, uint32_t lo, uint32_t hi);
int sys_fsync(int fd);
int sys_utimensat(int dirfd, const char *upath, const int32_t *uts, int flags);
int sys_utimensat_time64(int dirfd, const char *upath, const int64_t *uts, int flags);

#endif
