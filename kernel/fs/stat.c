/*
 * stat.c - file status: stat64 (195), lstat64 (196), fstat64 (197),
 * fstatat64 (300), statx (383) and readlink (85), with Linux i386's
 * structures and errors: one description of a file (struct kstat) that
 * every call fills its structure from, so stat and fstatat agree.
 *
 * glibc 2.36 asks statx first (fstat on stdout decides its buffering: a
 * character device that is a terminal is line-buffered, like Linux's
 * console) and falls back to fstatat64. The files are the three kinds of
 * kernel/fs/file.h: the console (a character device, Linux's /dev/console,
 * 5:1), pipes (FIFOs), the initrd's read-only files and directories and
 * the devices in /dev (kernel/fs/dev.c).
 * Links are the initrd's symbolic links (a tar's) and the magic ones,
 * /proc/self and /proc/PID/exe (kernel/fs/proc/procfs.c): stat follows them,
 * lstat and readlink show the link.
 */
#include "stat.h"
#include "lib/errno.h"
#include "file.h"
#include "fs.h"
#include "initrd.h"
#include "namei.h"
#include "tmpfs.h"
#include "kernel/task/proc.h"
#include "kernel/fs/proc/procfs.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"

#include <uapi/stat.h>	/* struct stat64, AT_*, STATX_BASIC_STATS, S_IF* */

/* What this kernel knows of a file, before either layout is filled. */
struct kstat {
	uint32_t mode, nlink, uid, gid, blksize, rdev_major, rdev_minor;
	uint32_t dev_minor;		/* major 0: anonymous file systems (initrd 1, each tmpfs its own) */
	struct tmpfs_time atime, mtime, ctime;	/* the initrd's: its mtime, all three */
	uint64_t ino, size, blocks;
};

#define INITRD_DEV_MINOR	1	/* st_dev of every initrd node: (0, 1) */

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

static uint32_t subdirs(const struct initrd_file *dir)
{
	const struct initrd_file *f;
	uint32_t pos = 0, n = 0;
	while ((f = initrd_next_child(dir, &pos)) != NULL)
		n += f->is_dir;
	return n;
}

/* A tmpfs node: all it keeps (kernel/fs/tmpfs.h). */
static void stat_tmpfs(const struct tmpfs_node *t, struct kstat *k)
{
	*k = (struct kstat){ .blksize = 4096, .dev_minor = t->sb->dev_minor, .ino = t->ino,
			     .mode = t->mode, .nlink = t->n.nlink, .uid = t->uid, .gid = t->gid,
			     .size = t->n.size, .atime = t->atime, .mtime = t->mtime,
			     .ctime = t->ctime,	/* the pages it has, not its holes: */
			     .blocks = 8ull * __atomic_load_n(&t->present, __ATOMIC_RELAXED) };
}

static void stat_node(const struct initrd_file *n, struct kstat *k)
{
	if (tmpfs_of(n)) {
		stat_tmpfs(tmpfs_of(n), k);
		return;
	}
	*k = (struct kstat){ .nlink = 1, .blksize = 4096, .dev_minor = INITRD_DEV_MINOR };
	k->ino = initrd_ino(n);			/* getdents64's d_ino too */
	k->atime = k->mtime = k->ctime = (struct tmpfs_time){ n->mtime, 0 };
	if (n->procfs)			/* Linux's /proc inodes: made when looked at */
		k->atime = k->mtime = k->ctime = tmpfs_now();
	if (n->owner == NODE_INITRD && !n->procfs)
		k->nlink = initrd_nlink(n);	/* counted as the tree was built */
	if (n->is_dir) {
		k->mode = S_IFDIR | n->perm;
		if (n->procfs)			/* ".", its name, each child's ".." */
			k->nlink = 2 + subdirs(n);
	} else if (n->magic == MAGIC_FD) {	/* lstat of /proc/PID/fd/N: Linux's 64 */
		k->mode = S_IFLNK | n->perm;
		k->size = 64;
	} else if (n->magic) {			/* lstat of /proc/self, /proc/PID/exe */
		char text[FS_PATH_MAX];
		int len = initrd_magic_text(n, text, sizeof(text));
		k->mode = S_IFLNK | 0777;
		k->size = len > 0 ? (uint64_t)len : 0;
	} else if (n->symlink) {		/* lstat of a symbolic link */
		k->mode = S_IFLNK | 0777;
		k->size = strlen(n->symlink);
	} else if (n->rdev) {
		k->mode = S_IFCHR | n->perm;
		k->rdev_major = n->rdev >> 8;
		k->rdev_minor = n->rdev & 0xff;
	} else {
		k->mode = S_IFREG | n->perm;
		k->size = n->size;
		k->blocks = (n->size + 511) / 512;
	}
	if (n->procfs)				/* /proc/PID: its process's */
		k->uid = k->gid = (uint32_t)procfs_uid(n);
}

static void stat_file(const struct file *f, struct kstat *k)
{
	if (f->type == FT_INITRD || f->type == FT_DEV || f->type == FT_PROC) {
		stat_node(f->node, k);
		return;
	}
	*k = (struct kstat){ .nlink = 1, .blksize = 4096, .ino = f->ino };
	if (f->type == FT_CONSOLE) {	/* Linux: crw--w---- 5,1, blksize 1024 */
		k->mode = S_IFCHR | 0620;
		k->rdev_major = 5;
		k->rdev_minor = 1;
		k->blksize = 1024;
	} else if (f->type == FT_SOCKET) {	/* Linux's sock_alloc: srwxrwxrwx */
		k->mode = S_IFSOCK | 0777;
	} else if (f->type == FT_EPOLL) {	/* Linux's anon inode: no type bits */
		k->mode = 0600;
	} else if (f->type == FT_MQUEUE) {	/* a file of Linux's mqueue file system */
		mq_file_owner(f, &k->mode, &k->uid, &k->gid);
		k->mode |= S_IFREG;
	} else {
		k->mode = S_IFIFO | 0600;
	}
}

/* The file dirfd/upath names (AT_EMPTY_PATH: dirfd itself); a relative
 * path starts at dirfd's directory or, for AT_FDCWD, the working directory
 * (kernel/fs/fs.c's fs_lookup_at). */
static int stat_lookup(int dirfd, const char *upath, int flags, struct kstat *k)
{
	char path[FS_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	if (path[0] == '\0') {
		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		struct fd_ref r = fd_use(dirfd);
		if (!r.file)
			return -EBADF;
		stat_file(r.file, k);
		fd_done(r);
		return 0;
	}
	const struct initrd_file *n;
	err = fs_lookup_at(dirfd, path, &n, !(flags & AT_SYMLINK_NOFOLLOW));
	if (err < 0)
		return err;
	stat_node(n, k);
	return 0;
}

static int put_stat64(const struct kstat *k, void *ustat)
{
	struct stat64 s = { 0 };
	s.st_dev = k->dev_minor;				/* (0, minor) */
	s.__st_ino = (uint32_t)k->ino;
	s.st_ino = k->ino;
	s.st_mode = k->mode;
	s.st_nlink = k->nlink;
	s.st_uid = k->uid;
	s.st_gid = k->gid;
	s.st_rdev = (uint64_t)k->rdev_major << 8 | k->rdev_minor;	/* old_encode_dev */
	s.st_size = (int64_t)k->size;
	s.st_blksize = k->blksize;
	s.st_blocks = k->blocks;
	s.st_atime = (uint32_t)k->atime.sec;
	s.st_atime_nsec = k->atime.nsec;
	s.st_mtime = (uint32_t)k->mtime.sec;
	s.st_mtime_nsec = k->mtime.nsec;
	s.st_ctime = (uint32_t)k->ctime.sec;
	s.st_ctime_nsec = k->ctime.nsec;
	return copy_to_user(ustat, &s, sizeof(s)) < 0 ? -EFAULT : 0;
}

/* stat64 (195) and lstat64 (196): fstatat64 from the working directory;
 * with no symbolic links here, lstat is stat. */
int sys_stat64(const char *upath, void *ustat)
{
	return sys_fstatat64(AT_FDCWD, upath, ustat, 0);
}

int sys_lstat64(const char *upath, void *ustat)
{
	return sys_fstatat64(AT_FDCWD, upath, ustat, AT_SYMLINK_NOFOLLOW);
}

int sys_fstat64(int fd, void *ustat)
{
	struct fd_ref r = fd_use(fd);
	struct kstat k;
	if (!r.file)
		return -EBADF;
	stat_file(r.file, &k);
	fd_done(r);
	return put_stat64(&k, ustat);
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
	x.dev_minor = k.dev_minor;
	x.atime = (struct statx_ts){ k.atime.sec, k.atime.nsec, 0 };
	x.mtime = (struct statx_ts){ k.mtime.sec, k.mtime.nsec, 0 };
	x.ctime = (struct statx_ts){ k.ctime.sec, k.ctime.nsec, 0 };
	return copy_to_user(ustatx, &x, sizeof(x)) < 0 ? -EFAULT : 0;
}

/* readlink (85) and readlinkat (305): a symbolic link's target, or a magic
 * one's (/proc/self: the pid; /proc/PID/exe: the program), cut to size
 * without a NUL, as
 * Linux. A file that is not a link is EINVAL. */
static int readlink_at(int dirfd, const char *upath, char *ubuf, int size)
{
	char path[FS_PATH_MAX];
	const struct initrd_file *n;
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	if (size <= 0)
		return -EINVAL;
	err = fs_lookup_at(dirfd, path, &n, false);
	if (err < 0)
		return err;
	if (n->symlink) {
		uint32_t len = (uint32_t)strlen(n->symlink);
		if (len > (uint32_t)size)
			len = (uint32_t)size;
		return copy_to_user(ubuf, n->symlink, len) < 0 ? -EFAULT : (int)len;
	}
	if (!n->magic)
		return -EINVAL;
	char text[FS_PATH_MAX];
	int len = initrd_magic_text(n, text, sizeof(text));
	if (len < 0)
		return len;
	if (len > size)
		len = size;
	return copy_to_user(ubuf, text, (uint32_t)len) < 0 ? -EFAULT : len;
}

int sys_readlink(const char *upath, char *ubuf, int size)
{
	return readlink_at(AT_FDCWD, upath, ubuf, size);
}

int sys_readlinkat(int dirfd, const char *upath, char *ubuf, int size)
{
	return readlink_at(dirfd, upath, ubuf, size);
}

/* ---- access ------------------------------------------------------------------ */

/* access's mode bits (libc's unistd.h; no kernel header has them). */
#define X_OK	1
#define W_OK	2
#define R_OK	4

/*
 * May the caller's real ids (AT_EACCESS: effective ones) do mode to n?
 * Linux's order: the permission bits (root reads and writes anything, and
 * executes what has an x bit or is a directory), then EROFS for a write
 * on the read-only initrd. /proc has its own rules (kernel/fs/proc/procfs.c).
 */
static int may_access(const struct initrd_file *n, int mode, bool effective)
{
	const struct proc *p = current();
	int uid = effective ? p->euid : p->uid, gid = effective ? p->egid : p->gid;
	struct kstat k;
	stat_node(n, &k);
	if ((mode & W_OK) && n->procfs && !n->is_dir)
		return procfs_may_open(n, O_WRONLY);
	uint32_t bits = uid == 0 ? 06 | ((k.mode & 0111) || n->is_dir)
		      : (uint32_t)uid == k.uid ? k.mode >> 6 : (uint32_t)gid == k.gid ? k.mode >> 3 : k.mode;
	if (mode & ~bits & 7)
		return -EACCES;
	/* /proc is not a read-only mount on Linux: root may write its
	 * directories as far as access() can tell (stress-ng checks its
	 * --temp-path so) */
	if ((mode & W_OK) && !n->rdev && !n->procfs && !tmpfs_of(n))
		return -EROFS;
	return 0;
}

int sys_faccessat2(int dirfd, const char *upath, int mode, int flags)
{
	char path[FS_PATH_MAX];
	const struct initrd_file *n;
	if (mode & ~(R_OK | W_OK | X_OK))
		return -EINVAL;
	if (flags & ~(AT_EACCESS | AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	err = fs_lookup_at(dirfd, path, &n, !(flags & AT_SYMLINK_NOFOLLOW));
	if (err < 0)
		return err;
	return mode ? may_access(n, mode, flags & AT_EACCESS) : 0;	/* F_OK: it exists */
}

int sys_faccessat(int dirfd, const char *upath, int mode)
{
	return sys_faccessat2(dirfd, upath, mode, 0);
}

int sys_access(const char *upath, int mode)
{
	return sys_faccessat2(AT_FDCWD, upath, mode, 0);
}
