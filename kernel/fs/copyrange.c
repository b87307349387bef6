/*
 * copyrange.c - copy_file_range (377), which coreutils' cp tries first,
 * and the page-cache hints fadvise64 (250) and fadvise64_64 (272).
 *
 * copy_file_range copies bytes between two files inside the kernel, as
 * Linux 6.1 does for a file system with no copy method of its own
 * (tmpfs): only within one mounted file system, else EXDEV, and cp then
 * reads and writes itself. Its checks are Linux's, in its order
 * (generic_file_rw_checks, generic_copy_file_checks): flags, the files,
 * their modes, then the ranges (a negative offset is EOVERFLOW); a range
 * past the end copies what there is, and a range of a file onto itself
 * that overlaps is EINVAL.
 */
#include "file.h"
#include "tmpfs.h"
#include "lib/errno.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include <uapi/fcntl.h>

#define COPY_CHUNK	1024		/* bytes per step: a kmalloc class of one frame */
#define MAX_RW_COUNT	0x7FFFF000u	/* Linux's INT_MAX & PAGE_MASK */

/* One end: its file, where it reads or writes, and where that came from. */
struct copy_end {
	struct file *f;
	int64_t *upos;			/* the caller's offset, or NULL: the file's */
	int64_t pos;
};

static int end_pos(struct copy_end *e)
{
	if (!e->upos) {
		e->pos = (int64_t)e->f->offset;
		return 0;
	}
	return copy_from_user(&e->pos, e->upos, sizeof(e->pos)) < 0 ? -EFAULT : 0;
}

static int end_save(const struct copy_end *e)
{
	if (e->upos)
		return copy_to_user(e->upos, &e->pos, sizeof(e->pos)) < 0 ? -EFAULT : 0;
	e->f->offset = (uint64_t)e->pos;
	return 0;
}

/* Linux's generic_file_rw_checks: directories, other than regular files,
 * then the modes the files were opened with. */
static int rw_checks(const struct file *in, const struct file *out)
{
	const struct initrd_file *a = in->type == FT_INITRD ? in->node : NULL;
	const struct initrd_file *b = out->type == FT_INITRD ? out->node : NULL;
	if ((a && a->is_dir) || (b && b->is_dir))
		return -EISDIR;
	if (!a || !b || a->symlink || b->symlink || a->rdev || b->rdev)
		return -EINVAL;
	if ((in->flags & O_ACCMODE) == O_WRONLY || (out->flags & O_ACCMODE) == O_RDONLY ||
	    (out->flags & O_APPEND))
		return -EBADF;
	return 0;
}

/* The bytes, COPY_CHUNK at a time through a kernel buffer; how many. */
static int copy_bytes(struct copy_end *in, struct copy_end *out, uint32_t count)
{
	char *buf = kmalloc(COPY_CHUNK);
	if (!buf)
		return -ENOMEM;
	uint32_t done = 0;
	int err = 0;
	while (done < count) {
		uint32_t want = count - done < COPY_CHUNK ? count - done : COPY_CHUNK;
		int got = node_read(in->f->node, buf, want, (uint32_t)in->pos);
		uint64_t at = (uint64_t)out->pos;
		int put = got > 0 ? tmpfs_write_kernel(tmpfs_of(out->f->node), buf, (uint32_t)got, &at)
				  : got;
		if (put <= 0) {
			err = put;
			break;
		}
		in->pos += put;
		out->pos += put;
		done += (uint32_t)put;
		if (put < got)
			break;
	}
	kfree(buf);
	return done ? (int)done : err;
}

/* Linux's vfs_copy_file_range for a file system without a copy method:
 * its checks in its order, then the bytes. */
static int copy_range(struct copy_end *in, struct copy_end *out, uint32_t count)
{
	int err = rw_checks(in->f, out->f);
	if (err)
		return err;
	const struct initrd_file *a = in->f->node, *b = out->f->node;
	if (in->pos < 0 || out->pos < 0)
		return -EOVERFLOW;	/* Linux 6.1: its overflow check, before the range's */
	if (count > MAX_RW_COUNT)
		count = MAX_RW_COUNT;
	if (in->pos >= (int64_t)a->size)
		count = 0;
	else if ((uint64_t)((int64_t)a->size - in->pos) < count)
		count = (uint32_t)((int64_t)a->size - in->pos);
	if (a == b && out->pos + count > in->pos && out->pos < in->pos + count)
		return -EINVAL;		/* the same file, overlapping */
	if (count == 0)
		return 0;
	if (!tmpfs_of(a) || !tmpfs_of(b) || tmpfs_of(a)->sb != tmpfs_of(b)->sb)
		return -EXDEV;		/* one file system only */
	int done = copy_bytes(in, out, count);
	if (done > 0 && ((err = end_save(in)) || (err = end_save(out))))
		return err;
	return done;
}

int sys_copy_file_range(int fd_in, int64_t *uoff_in, int fd_out, int64_t *uoff_out,
			uint32_t len, uint32_t flags)
{
	struct fd_ref rin = fd_use(fd_in);
	if (!rin.file)
		return -EBADF;
	struct fd_ref rout = fd_use(fd_out);
	int err = rout.file ? 0 : -EBADF;
	struct copy_end in = { rin.file, uoff_in, 0 }, out = { rout.file, uoff_out, 0 };
	if (!err && !(err = end_pos(&in)) && !(err = end_pos(&out)))
		err = flags ? -EINVAL : copy_range(&in, &out, len);
	if (rout.file)
		fd_done(rout);
	fd_done(rin);
	return err;
}

/* fadvise: a hint about the page cache, which tmpfs's pages are; nothing
 * to do but Linux's answers (ksys_fadvise64_64, generic_fadvise). */
#define POSIX_FADV_NOREUSE	5	/* the largest advice */

static int fadvise(int fd, int advice)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = 0;
	if (r.file->type == FT_PIPE_READ || r.file->type == FT_PIPE_WRITE)
		err = -ESPIPE;
	else if (advice < 0 || advice > POSIX_FADV_NOREUSE)
		err = -EINVAL;		/* a negative len is no error on tmpfs (Linux 6.1) */
	fd_done(r);
	return err;
}

int sys_fadvise64(int fd, uint32_t off_lo, uint32_t off_hi, uint32_t len, int advice)
{
	(void)off_lo;
	(void)off_hi;
	(void)len;
	return fadvise(fd, advice);
}

int sys_fadvise64_64(int fd, uint32_t off_lo, uint32_t off_hi, uint32_t len_lo,
		     uint32_t len_hi, int advice)
{
	(void)off_lo;
	(void)off_hi;
	(void)len_lo;
	(void)len_hi;
	return fadvise(fd, advice);
}
