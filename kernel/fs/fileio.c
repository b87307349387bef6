/*
 * fileio.c - reading and writing a file of the tree by its open file:
 * a tmpfs file's bytes at the file's offset (O_APPEND: at its end),
 * pread64 and pwrite64 at an offset of their own, and open's permission
 * check for the initrd's and tmpfs's files (kernel/fs/file.c's open_node).
 */
#include "file.h"
#include "namei.h"
#include "tmpfs.h"
#include "kernel/fs/proc/procfs.h"
#include "lib/errno.h"
#include <uapi/fcntl.h>

/* May the caller open node so? Read, write or both by its bits
 * (kernel/fs/namei.c), a directory never for writing (EISDIR), the
 * initrd's files never for writing (EROFS; its devices may be). */
int open_permission(const struct initrd_file *node, int flags)
{
	int acc = flags & O_ACCMODE;
	int mask = (acc == O_RDONLY || acc == O_RDWR ? MAY_READ : 0) |
		   (acc == O_WRONLY || acc == O_RDWR || (flags & O_TRUNC) ? MAY_WRITE : 0);
	if ((mask & MAY_WRITE) && node->is_dir)
		return -EISDIR;
	if ((mask & MAY_WRITE) && !tmpfs_of(node) && !node->rdev)
		return -EROFS;
	if (node->procfs)
		return procfs_fd_may(node);	/* /proc/PID/fd of another: EACCES */
	return tmpfs_of(node) ? fs_permission(node, mask) : 0;
}

/* A tmpfs file opened for writing counts as a writer (tmpfs_get_write):
 * ETXTBSY while a program runs it; file_close gives it back. */
int file_get_write(const struct initrd_file *node, int flags)
{
	if ((flags & O_ACCMODE) == O_RDONLY || !tmpfs_of(node) || node->is_dir)
		return 0;
	return tmpfs_get_write(tmpfs_of(node));
}

void file_put_write(const struct initrd_file *node, int flags)
{
	if ((flags & O_ACCMODE) != O_RDONLY && tmpfs_of(node) && !node->is_dir)
		tmpfs_put_write(tmpfs_of(node));
}

int file_node_read(struct file *f, void *ubuf, uint32_t n)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	int done = tmpfs_read(tmpfs_of(f->node), ubuf, n, f->offset);
	if (done > 0)
		f->offset += (uint32_t)done;
	return done;
}

int file_node_write(struct file *f, const void *ubuf, uint32_t n)
{
	struct tmpfs_node *t = tmpfs_of(f->node);
	if (!t || (f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	uint64_t pos = f->offset;
	int done = tmpfs_write(t, ubuf, n, &pos, f->flags & O_APPEND);
	if (done > 0)
		f->offset = pos;
	return done;
}

/* pread64 (180) and pwrite64 (181): the offset is their own, the file's
 * stays. ESPIPE on what cannot seek, EINVAL for a negative offset. A /proc
 * file reads at any offset too, as Linux's (pagemap's readers use it). */
static int positional(const struct file *f, int64_t off)
{
	if (f->type != FT_INITRD && f->type != FT_PROC)
		return -ESPIPE;
	return off < 0 ? -EINVAL : f->node->is_dir ? -EISDIR : 0;
}

static int pread_file(struct file *f, void *ubuf, uint32_t n, int64_t off)
{
	int err = positional(f, off);
	if (err)
		return err;
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (tmpfs_of(f->node))
		return tmpfs_read(tmpfs_of(f->node), ubuf, n, (uint64_t)off);
	uint64_t keep = f->offset;		/* the initrd's: read, then put back */
	f->offset = (uint64_t)off;
	int done = file_read(f, ubuf, n);
	f->offset = keep;
	return done;
}

static int pwrite_file(struct file *f, const void *ubuf, uint32_t n, int64_t off)
{
	int err = positional(f, off);
	if (err)
		return err;
	if ((f->flags & O_ACCMODE) == O_RDONLY || !tmpfs_of(f->node))
		return -EBADF;
	uint64_t pos = (uint64_t)off;		/* Linux: O_APPEND writes at the end, pwrite too */
	return tmpfs_write(tmpfs_of(f->node), ubuf, n, &pos, f->flags & O_APPEND);
}

int sys_pread64(int fd, void *ubuf, uint32_t n, uint32_t lo, uint32_t hi)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int done = pread_file(r.file, ubuf, n, (int64_t)((uint64_t)hi << 32 | lo));
	fd_done(r);
	return done;
}

int sys_pwrite64(int fd, const void *ubuf, uint32_t n, uint32_t lo, uint32_t hi)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int done = pwrite_file(r.file, ubuf, n, (int64_t)((uint64_t)hi << 32 | lo));
	fd_done(r);
	return done;
}

/* fallocate (324): Linux's vfs_fallocate checks, in its order, then
 * tmpfs's pages (shmem_fallocate: KEEP_SIZE and PUNCH_HOLE only). */
#define FALLOC_FL_KEEP_SIZE	1
#define FALLOC_FL_PUNCH_HOLE	2

static int fallocate_file(const struct file *f, int mode, int64_t off, int64_t len)
{
	if (off < 0 || len <= 0)
		return -EINVAL;
	if (mode & ~(FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE) ||
	    (mode & (FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE)) == FALLOC_FL_PUNCH_HOLE)
		return -EOPNOTSUPP;
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE)
		return -ESPIPE;
	if (f->node && f->node->is_dir)
		return -EISDIR;
	if (f->type != FT_INITRD || !tmpfs_of(f->node))
		return -ENODEV;
	return tmpfs_fallocate(tmpfs_of(f->node), mode, (uint64_t)off, (uint64_t)len);
}

int sys_fallocate(int fd, int mode, uint32_t off_lo, uint32_t off_hi, uint32_t len_lo,
		  uint32_t len_hi)
{
	int64_t off = (int64_t)((uint64_t)off_hi << 32 | off_lo);
	int64_t len = (int64_t)((uint64_t)len_hi << 32 | len_lo);
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = fallocate_file(r.file, mode, off, len);
	fd_done(r);
	return err;
}
