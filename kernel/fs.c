/*
 * fs.c - the calls on paths and directories: chdir, getcwd, stat64,
 * lstat64, fstat64, getdents64, and the path walk every call that names a
 * file goes through (open, execve too).
 *
 * The only file system is the initrd (kernel/initrd.c), read-only and
 * without links, so a working directory is just a node of its tree, lstat
 * is stat, and every directory's ".." is its parent. The structures are
 * Linux i386's (asm/stat.h's struct stat64, linux/dirent.h's
 * linux_dirent64), so glibc's and Debian's programs read them unchanged.
 */
#include "fs.h"
#include <uapi/stat.h>	/* S_IF* */
#include "errno.h"
#include "file.h"
#include "proc.h"
#include "string.h"
#include "uaccess.h"

/* Linux i386's struct stat64: 96 bytes, the padding is glibc 2.1's. */
struct stat64 {
	uint64_t st_dev;
	uint8_t pad0[4];
	uint32_t st_ino32;
	uint32_t st_mode, st_nlink, st_uid, st_gid;
	uint64_t st_rdev;
	uint8_t pad3[4];
	int64_t st_size;
	uint32_t st_blksize;
	uint64_t st_blocks;			/* 512-byte blocks */
	uint32_t st_atime, st_atime_nsec;
	uint32_t st_mtime, st_mtime_nsec;
	uint32_t st_ctime, st_ctime_nsec;
	uint64_t st_ino;
} __attribute__((packed));
_Static_assert(sizeof(struct stat64) == 96, "Linux i386 struct stat64 is 96 bytes");

#define DT_DIR		4
#define DT_REG		8
#define INITRD_DEV	1		/* st_dev of every initrd node: (0, 1) */
#define TTYS0_RDEV	((4 << 8) | 64)	/* the console is /dev/ttyS0: (4, 64) */

static const struct initrd_file *cwd_of(const struct proc *p)
{
	return p->group_leader->cwd ? p->group_leader->cwd : initrd_root();
}

int fs_lookup(const struct proc *p, const char *path, const struct initrd_file **out)
{
	return initrd_resolve(cwd_of(p), path, out);
}

int fs_lookup_user(const char *upath, const struct initrd_file **out)
{
	char path[FS_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	return fs_lookup(current(), path, out);
}

int sys_chdir(const char *upath)
{
	const struct initrd_file *node;
	int err = fs_lookup_user(upath, &node);
	if (err < 0)
		return err;
	if (!node->is_dir)
		return -ENOTDIR;
	current()->group_leader->cwd = node;
	return 0;
}

/* Linux returns the length with its NUL; ERANGE when size is too small. */
int sys_getcwd(char *ubuf, uint32_t size)
{
	const char *path = cwd_of(current())->path;
	uint32_t len = (uint32_t)strlen(path) + 1;
	if (size < len)
		return -ERANGE;
	if (copy_to_user(ubuf, path, len) < 0)
		return -EFAULT;
	return (int)len;
}

/* ---- stat ------------------------------------------------------------------ */

static uint32_t subdirs(const struct initrd_file *dir)
{
	const struct initrd_file *f;
	uint32_t pos = 0, n = 0;
	while ((f = initrd_next_child(dir, &pos)) != NULL)
		n += f->is_dir;
	return n;
}

static void stat_node(const struct initrd_file *node, struct stat64 *st)
{
	st->st_dev = INITRD_DEV;
	st->st_ino = st->st_ino32 = initrd_ino(node);
	st->st_mode = (node->is_dir ? S_IFDIR : S_IFREG) | node->perm;
	st->st_nlink = node->is_dir ? 2 + subdirs(node) : 1;	/* ".", its name, each child's ".." */
	st->st_size = node->size;
	st->st_blocks = (node->size + 511) / 512;
	st->st_atime = st->st_mtime = st->st_ctime = node->mtime;
}

static int copy_stat(const struct stat64 *st, void *ustat64)
{
	return copy_to_user(ustat64, st, sizeof(*st)) < 0 ? -EFAULT : 0;
}

int sys_stat64(const char *upath, void *ustat64)
{
	const struct initrd_file *node;
	struct stat64 st;
	int err = fs_lookup_user(upath, &node);
	if (err < 0)
		return err;
	memset(&st, 0, sizeof(st));
	st.st_blksize = 4096;
	stat_node(node, &st);
	return copy_stat(&st, ustat64);
}

/* No symbolic links on the initrd: lstat is stat. */
int sys_lstat64(const char *upath, void *ustat64)
{
	return sys_stat64(upath, ustat64);
}

int fs_fstat(struct file *f, void *ustat64)
{
	struct stat64 st;
	memset(&st, 0, sizeof(st));
	st.st_blksize = 4096;
	st.st_nlink = 1;
	switch (f->type) {
	case FT_INITRD:
		stat_node(f->node, &st);
		break;
	case FT_CONSOLE:
		st.st_mode = S_IFCHR | 0620;
		st.st_rdev = TTYS0_RDEV;
		break;
	default:			/* a pipe's two ends */
		st.st_mode = S_IFIFO | 0600;
		st.st_blksize = 4096;
		break;
	}
	return copy_stat(&st, ustat64);
}

int sys_fstat64(int fd, void *ustat64)
{
	struct file *f = fd_file(fd);
	return f ? fs_fstat(f, ustat64) : -EBADF;
}

/* ---- getdents64 ------------------------------------------------------------ */

/* linux/dirent.h: 19 bytes of header, the name and its NUL, padded to 8. */
struct linux_dirent64 {
	uint64_t d_ino;
	int64_t d_off;			/* the offset of the next entry */
	uint16_t d_reclen;
	uint8_t d_type;
	char d_name[];
} __attribute__((packed));

/*
 * A directory's offset counts "." (0), ".." (1), then 2 + the table index
 * to scan from next, so a listing resumed by a second call (or after
 * lseek to a d_off) carries on where it stopped.
 */
static const struct initrd_file *entry_at(const struct initrd_file *dir, uint32_t off,
					  const char **name, uint32_t *next)
{
	if (off == 0) {
		*name = ".";
		*next = 1;
		return dir;
	}
	if (off == 1) {
		*name = "..";
		*next = 2;
		return initrd_parent(dir);
	}
	uint32_t pos = off - 2;
	const struct initrd_file *f = initrd_next_child(dir, &pos);
	*next = pos + 2;
	if (f)
		*name = initrd_name(f);
	return f;
}

int sys_getdents64(int fd, void *udirp, uint32_t count)
{
	struct file *f = fd_file(fd);
	char rec[sizeof(struct linux_dirent64) + INITRD_PATH_MAX + 8];
	uint32_t done = 0;

	if (!f)
		return -EBADF;
	if (f->type != FT_INITRD || !f->node->is_dir)
		return -ENOTDIR;
	for (;;) {
		const char *name;
		uint32_t next;
		const struct initrd_file *e = entry_at(f->node, f->offset, &name, &next);
		if (!e)
			break;
		uint32_t len = (uint32_t)strlen(name);
		uint32_t reclen = (sizeof(struct linux_dirent64) + len + 1 + 7) & ~7u;
		if (done + reclen > count)
			return done ? (int)done : -EINVAL;	/* Linux: EINVAL when not even one fits */
		struct linux_dirent64 *d = (struct linux_dirent64 *)rec;
		memset(rec, 0, reclen);
		d->d_ino = initrd_ino(e);
		d->d_off = next;
		d->d_reclen = (uint16_t)reclen;
		d->d_type = e->is_dir ? DT_DIR : DT_REG;
		memcpy(d->d_name, name, len + 1);
		if (copy_to_user((char *)udirp + done, rec, reclen) < 0)
			return -EFAULT;
		done += reclen;
		f->offset = next;
	}
	return (int)done;
}
