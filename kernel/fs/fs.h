/*
 * kernel/fs/ - files: the open file and its operations (file, fileio,
 * ioctl),
 * POSIX record locks (flock; flock_lock), a process's descriptors
 * (fdtable: each table's file_lock), the path walk, the directory
 * calls and the fs information they start from (fs, this file), the
 * calls that change names (namei), stat and
 * the extended-attribute calls (xattr), the read-only initrd tree
 * (initrd, read from tar archives by ustar; built at boot, never
 * changed), tmpfs, files in RAM (tmpfs, tmpfs_data; tmpfs_lock and each
 * file's data mutex), the mount table (mount; mount_lock), the character
 * devices (dev), pipes (each pipe's lock; sockets are kernel/net/'s), the
 * terminal's line discipline (tty; tty_lock), poll and select, and epoll
 * (eventpoll; ep_global, each epoll's mtx and ready-list lock), POSIX
 * message queues (mqueue, mqueue_msg; mq_lock). /proc
 * is the room below, proc/.
 *
 * Face of this folder. May call: lib, kernel/arch, kernel/debug, kernel/fs/proc, kernel/init, kernel/mm, kernel/net, kernel/sync, kernel/sys, kernel/task, kernel/time.
 *
 * fs.h - the file-system calls on paths and directories (kernel/fs/fs.c):
 * every path a program names is walked here, from its working directory.
 */
#ifndef KERNEL_FS_H
#define KERNEL_FS_H

#include "initrd.h"

#include <uapi/fcntl.h>		/* O_ACCMODE, O_DIRECTORY */

/* A path as a program may write it, with "..", "./": Linux takes 4,096
 * bytes; ours sits on an 8 KiB kernel stack, twice for rename, so 512
 * (a 255-byte name fits under /tmp/); a longer one is ENAMETOOLONG. */
#define FS_PATH_MAX	512
#define FS_NAME_MAX	255		/* Linux's NAME_MAX: one component */

struct file;
struct proc;

/* Copy a path from user memory and walk it from the current process's
 * working directory: 0 and *out, or -errno (EFAULT, ENAMETOOLONG, ENOENT,
 * ENOTDIR). */
int fs_lookup_user(const char *upath, const struct initrd_file **out);
/* The same for a path already in kernel memory, from process p's cwd. */
int fs_lookup(const struct proc *p, const char *path, const struct initrd_file **out);
/* The same for the *at() calls: a relative path starts at the directory
 * open on dirfd (-EBADF when none is, -ENOTDIR when it is a file), or at
 * the working directory for AT_FDCWD; an absolute one ignores dirfd.
 * follow: a magic link as the last component stands for its target
 * (stat, open); else the link itself (lstat, readlink). */
int fs_lookup_at(int dirfd, const char *path, const struct initrd_file **out, bool follow);

/* Linux's init_fs: the file-creation mask init starts with. */
#define INIT_UMASK	0022

/*
 * A task's fs information (Linux's fs_struct): where its relative paths
 * start and the mask of the files it makes. fork copies it, clone's
 * CLONE_FS shares it with the new thread or process (users), and then a
 * chdir or umask of one is the others' too. Each field changes by one
 * atomic exchange.
 */
struct fs_struct {
	int users;				/* tasks using it; changed atomically */
	uint32_t umask;				/* init's 022, inherited, kept by exec */
	const struct initrd_file *cwd;		/* held (node_hold); NULL means "/" */
};

/* init's: "/" and INIT_UMASK; 0 or -ENOMEM. */
int fs_init(struct proc *p);
/* fork and clone: child's, a copy of parent's (the calling task's) or
 * (share: CLONE_FS) the same; 0 or -ENOMEM. */
int copy_fs(struct proc *child, struct proc *parent, bool share);
/* One task less uses fs; the last lets go of the working directory. */
void fs_put(struct fs_struct *fs);
/* The ones each CPU keeps for its next fork back to the heap (a leak
 * test counts the free frames). */
void fs_drain_caches(void);
/* One of p's own if it shares it (unshare; p is the caller): 0 or -ENOMEM. */
int fs_unshare(struct proc *p);
/* Task p's working directory (not held: /proc/PID/cwd), "/" if none. */
const struct initrd_file *fs_cwd_of(struct proc *p);

int sys_chdir(const char *upath);
int sys_fchdir(int fd);
/* 60: the old mask; the new one is mask & 0777, taken from the mode of
 * every file and directory made (kernel/fs/namei.c). */
int sys_umask(uint32_t mask);
int sys_getcwd(char *ubuf, uint32_t size);
int sys_getdents64(int fd, void *udirp, uint32_t count);

/* Extended attributes (kernel/fs/xattr.c): none are kept; Linux tmpfs's
 * answers for a file without any. */
int sys_getxattr(const char *upath, const char *uname, void *uvalue, uint32_t size);
int sys_lgetxattr(const char *upath, const char *uname, void *uvalue, uint32_t size);
int sys_fgetxattr(int fd, const char *uname, void *uvalue, uint32_t size);
int sys_removexattr(const char *upath, const char *uname);
int sys_lremovexattr(const char *upath, const char *uname);
int sys_fremovexattr(int fd, const char *uname);
int sys_setxattr(const char *upath, const char *uname, const void *uvalue, uint32_t size,
		 int flags);
int sys_lsetxattr(const char *upath, const char *uname, const void *uvalue, uint32_t size,
		  int flags);
int sys_fsetxattr(int fd, const char *uname, const void *uvalue, uint32_t size, int flags);
int sys_listxattr(const char *upath, char *ulist, uint32_t size);
int sys_llistxattr(const char *upath, char *ulist, uint32_t size);
int sys_flistxattr(int fd, char *ulist, uint32_t size);

#endif
