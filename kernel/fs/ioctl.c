/*
 * ioctl.c - ioctl (54), in Linux's order (fs/ioctl.c): first what every
 * descriptor answers (do_vfs_ioctl: FIOCLEX and FIONCLEX, FIONBIO, and
 * FIONREAD of a regular file), then the file's own: the terminal's
 * (kernel/fs/tty.c, also as /dev/tty and /dev/console), a pipe's
 * FIONREAD, a socket's (kernel/net/). ENOTTY for the rest, as Linux's.
 */
#include "file.h"
#include "fs.h"
#include "dev.h"
#include "lib/errno.h"
#include "kernel/mm/uaccess.h"
#include "kernel/net/net.h"
#include <uapi/fcntl.h>
#include <uapi/ioctls.h>

static int put_int(void *uarg, int v)
{
	return copy_to_user(uarg, &v, sizeof(v)) < 0 ? -EFAULT : 0;
}

/* FIONBIO: Linux's ioctl_fionbio. */
static int set_nonblock(struct file *f, const void *uarg)
{
	int on;
	if (copy_from_user(&on, uarg, sizeof(on)) < 0)
		return -EFAULT;
	if (on)
		__atomic_fetch_or(&f->flags, O_NONBLOCK, __ATOMIC_RELAXED);
	else
		__atomic_fetch_and(&f->flags, ~(uint32_t)O_NONBLOCK, __ATOMIC_RELAXED);
	return 0;
}

/* The file's own ioctls. */
static int file_ioctl(struct file *f, uint32_t req, void *uarg)
{
	if (f->type == FT_DEV)
		return dev_ioctl(f, req, uarg);
	if (f->type == FT_CONSOLE)
		return tty_ioctl(req, uarg);
	if (f->type == FT_SOCKET)
		return socket_ioctl(f->sock, req, uarg);
	if ((f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE) && req == FIONREAD) {
		uint32_t nread, nwrite;
		pipe_counts(f->pipe, &nread, &nwrite);
		return put_int(uarg, (int)(nwrite - nread));
	}
	return -ENOTTY;
}

int sys_ioctl(int fd, uint32_t req, void *uarg)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	struct file *f = r.file;
	int err;
	if (req == FIOCLEX || req == FIONCLEX)
		err = sys_fcntl64(fd, F_SETFD, req == FIOCLEX ? FD_CLOEXEC : 0);
	else if (req == FIONBIO)
		err = set_nonblock(f, uarg);
	else if (req == FIONREAD && f->type == FT_INITRD && !f->node->is_dir)
		err = put_int(uarg, (int)((int64_t)f->node->size - (int64_t)f->offset));
	else
		err = file_ioctl(f, req, uarg);
	fd_done(r);
	return err;
}
