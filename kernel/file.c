/*
 * file.c - reference-counted open files and dispatch on their type, and
 * the system calls on file descriptors (the current process's files[]).
 *
 * The threads of a group share one table, the leader's (kernel/proc.h).
 * One lock over every table's slots (teaching size): two threads cannot
 * take the same free descriptor. A descriptor one thread closes while
 * another is inside a read of it is not held for the reader (Linux's
 * fget reference): a known shortcut.
 */
#include "file.h"
#include "errno.h"
#include "fs.h"
#include "kmalloc.h"
#include "proc.h"
#include "spinlock.h"
#include "string.h"
#include "uaccess.h"

static struct spinlock ref_lock = SPINLOCK_INIT("file refs");
static struct spinlock fd_lock = SPINLOCK_INIT("fd tables");

static struct file **fd_table(void)
{
	return current()->group_leader->files;
}

struct file *file_alloc(enum file_type type)
{
	struct file *f = kzalloc(sizeof(*f));
	if (f) {
		f->type = type;
		f->ref = 1;
	}
	return f;
}

struct file *file_dup(struct file *f)
{
	spin_lock(&ref_lock);
	f->ref++;
	spin_unlock(&ref_lock);
	return f;
}

void file_close(struct file *f)
{
	spin_lock(&ref_lock);
	int left = --f->ref;
	spin_unlock(&ref_lock);
	if (left > 0)
		return;
	if (f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE)
		pipe_close(f->pipe, f->type == FT_PIPE_WRITE);
	kfree(f);
}

static int initrd_read(struct file *f, void *ubuf, uint32_t n)
{
	const struct initrd_file *node = f->node;
	if (node->is_dir)
		return -EISDIR;
	if (f->offset >= node->size)
		return 0;
	if (n > node->size - f->offset)
		n = node->size - f->offset;
	if (copy_to_user(ubuf, node->data + f->offset, n) < 0)
		return -EFAULT;
	f->offset += n;
	return (int)n;
}

int file_read(struct file *f, void *ubuf, uint32_t n)
{
	switch (f->type) {
	case FT_CONSOLE:	return tty_read(ubuf, n);
	case FT_PIPE_READ:	return pipe_read(f->pipe, ubuf, n);
	case FT_INITRD:		return initrd_read(f, ubuf, n);
	default:		return -EBADF;
	}
}

int file_write(struct file *f, const void *ubuf, uint32_t n)
{
	switch (f->type) {
	case FT_CONSOLE:	return tty_write(ubuf, n);
	case FT_PIPE_WRITE:	return pipe_write(f->pipe, ubuf, n);
	case FT_INITRD:		return -EBADF;	/* opened read-only */
	default:		return -EBADF;
	}
}

/* ---- the descriptor calls ------------------------------------------------- */

struct file *fd_file(int fd)
{
	return fd >= 0 && fd < NOFILE ? fd_table()[fd] : NULL;
}

static int fd_install(struct file *f)
{
	struct file **files = fd_table();
	int found = -EMFILE;
	spin_lock(&fd_lock);
	for (int fd = 0; fd < NOFILE && found < 0; fd++) {
		if (!files[fd]) {
			files[fd] = f;
			found = fd;
		}
	}
	spin_unlock(&fd_lock);
	return found;
}

/* Empty slot fd (or put f there); what was in it, for the caller to close. */
static struct file *fd_swap(int fd, struct file *f)
{
	struct file **files = fd_table();
	spin_lock(&fd_lock);
	struct file *old = files[fd];
	files[fd] = f;
	spin_unlock(&fd_lock);
	return old;
}

int sys_read(int fd, void *ubuf, uint32_t n)
{
	struct file *f = fd_file(fd);
	return f ? file_read(f, ubuf, n) : -EBADF;
}

int sys_write(int fd, const void *ubuf, uint32_t n)
{
	struct file *f = fd_file(fd);
	return f ? file_write(f, ubuf, n) : -EBADF;
}

/* Only the console answers ioctls (kernel/tty.c); Linux says ENOTTY for
 * the others. */
int sys_ioctl(int fd, uint32_t req, void *uarg)
{
	struct file *f = fd_file(fd);
	if (!f)
		return -EBADF;
	return f->type == FT_CONSOLE ? tty_ioctl(req, uarg) : -ENOTTY;
}

/* A directory opens read-only (for getdents64); O_DIRECTORY insists on
 * one. Linux's order: the walk's errors, then ENOTDIR, EISDIR, EROFS. */
int sys_open(const char *upath, int flags)
{
	const struct initrd_file *node;
	int err = fs_lookup_user(upath, &node);
	if (err < 0)
		return err;
	if ((flags & O_DIRECTORY) && !node->is_dir)
		return -ENOTDIR;
	if ((flags & O_ACCMODE) != 0)	/* the initrd is read-only */
		return node->is_dir ? -EISDIR : -EROFS;
	struct file *f = file_alloc(FT_INITRD);
	if (!f)
		return -ENOMEM;
	f->node = node;
	int fd = fd_install(f);
	if (fd < 0)
		file_close(f);
	return fd;
}

int sys_close(int fd)
{
	struct file *f = fd >= 0 && fd < NOFILE ? fd_swap(fd, NULL) : NULL;
	if (!f)
		return -EBADF;
	file_close(f);
	return 0;
}

int sys_dup2(int oldfd, int newfd)
{
	struct file *f = fd_file(oldfd);
	if (!f)
		return -EBADF;
	if (newfd < 0 || newfd >= NOFILE)
		return -EBADF;
	if (newfd == oldfd)
		return newfd;
	struct file *old = fd_swap(newfd, file_dup(f));
	if (old)
		file_close(old);
	return newfd;
}

int sys_pipe(int *ufds)
{
	struct file *rd, *wr;
	int fds[2];
	if (!user_range_ok(ufds, sizeof(fds), true))
		return -EFAULT;
	int err = pipe_create(&rd, &wr);
	if (err < 0)
		return err;
	fds[0] = fd_install(rd);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install(wr);
	if (fds[1] < 0) {
		if (fds[0] >= 0)
			fd_swap(fds[0], NULL);
		file_close(rd);
		file_close(wr);
		return -EMFILE;
	}
	return copy_to_user(ufds, fds, sizeof(fds));
}

/* 331 pipe2: glibc's pipe() is pipe2(fds, 0). O_CLOEXEC and O_NONBLOCK
 * need close-on-exec and non-blocking descriptors, which this kernel has
 * not yet: EINVAL for any flag (Linux accepts those two and O_DIRECT). */
int sys_pipe2(int *ufds, int flags)
{
	return flags ? -EINVAL : sys_pipe(ufds);
}
