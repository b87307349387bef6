/*
 * stat.c - file status: fstat64 (197), fstatat64 (300), statx (383) and
 * readlink (85), with Linux i386's structures and errors.
 *
 * glibc 2.36 asks statx first (fstat on stdout decides its buffering: a
 * character device that is a terminal is line-buffered, like Linux's
 * console) and falls back to fstatat64. The files are the three kinds of
 * kernel/file.h: the console (a character device, Linux's /dev/console,
 * 5:1), pipes (FIFOs) and the initrd's read-only files and directories.
 * There are no symbolic links, so readlink finds none: EINVAL for a path
 * that exists, ENOENT else (also /proc/self/exe: no /proc yet, and glibc
 * does without it).
 */
#include "stat.h"
#include "errno.h"
#include "file.h"
#include "initrd.h"
#include "proc.h"
#include "string.h"
#include "uaccess.h"

#include <uapi/stat.h>	/* AT_*, STATX_BASIC_STATS, S_IF* */

/* What this kernel knows of a file, before either layout is filled. */
struct kstat {
	uint32_t mode, nlink, uid, gid, blksize, rdev_major, rdev_minor;
	uint64_t ino, size, blocks;
};

/* Linux i386's struct stat64 (asm/stat.h), 96 bytes. */
struct stat64 {
	uint64_t dev;
	uint32_t pad0, ino32, mode, nlink, uid, gid;
	uint64_t rdev;
	uint32_t pad3;
	int64_t size;
	uint32_t blksize;
	uint64_t blocks;
	uint32_t atime, atime_nsec, mtime, mtime_nsec, ctime, ctime_nsec;
	uint64_t ino;
} __attribute__((packed));
_Static_assert(sizeof(struct stat64) == 96, "Linux's struct stat64");

/* Linux's struct statx (linux/stat.h), 256 bytes. */
struct statx_ts { int64_t sec; uint32_t nsec; int32_t reserved; };
struct statx {
	uint32_t mask, blksize;
	uint64_t attributes;
	uint32_t nlink, uid, gid;
	uint16_t mode, spare0;
	uint64_t ino, size, blocks, attributes_mask;
	struct statx_ts atime, btime, ctime, mtime;
	uint32_t rdev_major, rdev_minor, dev_major, dev_minor;
	uint64_t mnt_id;
	uint32_t dio_mem_align, dio_offset_align;
	uint64_t spare3[12];
};
_Static_assert(sizeof(struct statx) == 256, "Linux's struct statx");

static void stat_node(const struct initrd_file *n, struct kstat *k)
{
	*k = (struct kstat){ .nlink = 1, .blksize = 4096 };
	k->mode = n->is_dir ? (S_IFDIR | 0755) : (S_IFREG | 0755);
	k->ino = initrd_index(n) + 2;	/* 1 would be the root */
	k->size = n->size;
	k->blocks = (n->size + 511) / 512;
}

static void stat_file(const struct file *f, struct kstat *k)
{
	if (f->type == FT_INITRD) {
		stat_node(f->node, k);
		return;
	}
	*k = (struct kstat){ .nlink = 1, .blksize = 4096 };
	if (f->type == FT_CONSOLE) {	/* Linux: crw--w---- 5,1, blksize 1024 */
		k->mode = S_IFCHR | 0620;
		k->rdev_major = 5;
		k->rdev_minor = 1;
		k->blksize = 1024;
	} else {
		k->mode = S_IFIFO | 0600;
	}
}

/* The file dirfd/upath names (AT_EMPTY_PATH: dirfd itself). A relative
 * path with AT_FDCWD starts at the working directory (kernel/fs.c's walk);
 * relative to another directory fd is not done yet: it starts at /. */
static int stat_lookup(int dirfd, const char *upath, int flags, struct kstat *k)
{
	char path[INITRD_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	if (path[0] == '\0') {
		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		struct file *f = fd_file(dirfd);
		if (!f)
			return -EBADF;
		stat_file(f, k);
		return 0;
	}
	if (path[0] != '/' && dirfd != AT_FDCWD && !fd_file(dirfd))
		return -EBADF;
	const struct initrd_file *n;
	err = initrd_resolve(dirfd == AT_FDCWD ? current()->group_leader->cwd : initrd_root(), path, &n);
	if (err < 0)
		return err;
	stat_node(n, k);
	return 0;
}

static int put_stat64(const struct kstat *k, void *ustat)
{
	struct stat64 s = { 0 };
	s.ino32 = (uint32_t)k->ino;
	s.ino = k->ino;
	s.mode = k->mode;
	s.nlink = k->nlink;
	s.uid = k->uid;
	s.gid = k->gid;
	s.rdev = (uint64_t)k->rdev_major << 8 | k->rdev_minor;	/* old_encode_dev */
	s.size = (int64_t)k->size;
	s.blksize = k->blksize;
	s.blocks = k->blocks;
	return copy_to_user(ustat, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

int sys_fstatat64(int dirfd, const char *upath, void *ustat, int flags)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH))
		return -EINVAL;
	struct kstat k;
	int err = stat_lookup(dirfd, upath, flags, &k);
	return err < 0 ? err : put_stat64(&k, ustat);
}

/* Linux checks the flags, then the mask's reserved bit, then the path. */
int sys_statx(int dirfd, const char *upath, int flags, uint32_t mask, void *ustatx)
{
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
		      AT_STATX_SYNC_TYPE))
		return -EINVAL;
	if ((flags & AT_STATX_SYNC_TYPE) == AT_STATX_SYNC_TYPE)
		return -EINVAL;
	if (mask & 0x80000000u)		/* STATX__RESERVED */
		return -EINVAL;
	struct kstat k;
	int err = stat_lookup(dirfd, upath, flags, &k);
	if (err < 0)
		return err;
	struct statx x = { 0 };
	x.mask = STATX_BASIC_STATS;
	x.blksize = k.blksize;
	x.nlink = k.nlink;
	x.uid = k.uid;
	x.gid = k.gid;
	x.mode = (uint16_t)k.mode;
	x.ino = k.ino;
	x.size = k.size;
	x.blocks = k.blocks;
	x.rdev_major = k.rdev_major;
	x.rdev_minor = k.rdev_minor;
	return copy_to_user(ustatx, &x, sizeof(x)) < 0 ? -EFAULT : 0;
}

int sys_readlink(const char *upath, char *ubuf, int size)
{
	(void)ubuf;
	char path[INITRD_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	if (size <= 0)
		return -EINVAL;
	return initrd_lookup(path) ? -EINVAL : -ENOENT;
}
