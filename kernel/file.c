/*
 * file.c - reference-counted open files and dispatch on their type.
 */
#include "file.h"
#include "errno.h"
#include "kmalloc.h"
#include "spinlock.h"
#include "string.h"
#include "uaccess.h"

static struct spinlock ref_lock = SPINLOCK_INIT("file refs");

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
