/*
 * mount.h - the mount table (kernel/fs/mount.c): tmpfs mounted on a
 * directory of the tree, mount(2), umount2(2), statfs(2) and
 * /proc/mounts.
 *
 * "/" is the initrd (read-only) and /proc is its procfs part; neither is
 * in the table. A mount covers a directory (its node's mounted count):
 * the walk (kernel/fs/initrd.c) goes on from the mount's root when it
 * reaches one, and ".." of a mount's root is its mount point's parent.
 */
#ifndef KERNEL_FS_MOUNT_H
#define KERNEL_FS_MOUNT_H

#include <stdint.h>
#include "initrd.h"

#define MOUNT_MAX	32

#include <uapi/mount.h>	/* MS_*, MNT_*, struct statfs64 */

/* Boot: /tmp and /dev/shm as systemd mounts them, /root and
 * /home/student writable. */
void mount_init(void);
/* The root of what is mounted on point (the latest), or point itself. */
const struct initrd_file *mount_cross(const struct initrd_file *point);
/* The mount point a tmpfs root is mounted on (for ".."). */
const struct initrd_file *mount_point_of(const struct initrd_file *root);
/* The absolute path of node n into buf (an unlinked file's ends in
 * " (deleted)", as Linux's d_path): its length, or -ENAMETOOLONG, -ENOENT
 * (removed, unmounted, or a file whose name is not known). getcwd,
 * /proc/PID/cwd, maps and fd/N. */
int mount_path(const struct initrd_file *n, char *buf, uint32_t size);
/* /proc/PID/mounts' text (kernel/fs/proc/procfs_pid_text.c); /proc/mounts
 * is a link to self/mounts, as Linux's. */
struct pbuf;
void mount_show(struct pbuf *b);
/* /proc/PID/mountinfo: the same mounts in proc(5)'s mountinfo format. */
void mount_show_info(struct pbuf *b);

int sys_mount(const char *usource, const char *utarget, const char *utype,
	      uint32_t flags, const void *udata);
int sys_umount2(const char *utarget, int flags);
int sys_statfs(const char *upath, void *ubuf);
int sys_fstatfs(int fd, void *ubuf);
int sys_statfs64(const char *upath, uint32_t size, void *ubuf);
int sys_fstatfs64(int fd, uint32_t size, void *ubuf);

#endif
