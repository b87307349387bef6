/*
 * file.c - reference-counted open files and dispatch on their type, and
 * the system calls on file descriptors (the current process's files[]).
 *
 * The threads of a group share one table, and clone(CLONE_FILES) shares
 * it with another process too; a thread made without CLONE_FILES has
 * one of its own (struct files_struct, kernel/fs/fdtable.h). A lock per table (file_lock): two
 * threads cannot take the same free descriptor. A descriptor one thread closes while
 * another is inside a read of it is not held for the reader (Linux's
 * fget reference): a known shortcut.
 */
#include "file.h"
#include "namei.h"
#include "tmpfs.h"
#include "dev.h"
#include "eventpoll.h"
#include "kernel/net/net.h"
#include "lib/errno.h"
#include "fs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/task/proc.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/limits.h>	/* UIO_MAXIOV */
#include <uapi/poll.h>
#include <uapi/stat.h>	/* AT_FDCWD */

/* The caller's descriptors. */
static struct files_struct *my_files(void)
{
	return current()->files;
}

/* The slots change under the table's file_lock (one lock per table: a
 * global one would be fought over by forks on different CPUs); two
 * threads cannot take the same free descriptor. */
static struct spinlock *fd_lock(void)
{
	return &my_files()->file_lock;
}

/* The table; the caller may read a slot without its lock: a table that
 * grows meanwhile stays allocated (kernel/fs/fdtable.c). */
static struct fdtable *fd_table(void)
{
	return __atomic_load_n(&my_files()->fdt, __ATOMIC_ACQUIRE);
}

/* The soft RLIMIT_NOFILE: no descriptor at or past it. */
static uint32_t fd_limit(void)
{
	return current()->group->rlim[RLIMIT_NOFILE].rlim_cur;
}

/* Under the table's lock: the table, grown to hold fd; NULL if no memory. */
static struct fdtable *fd_table_for_locked(uint32_t fd)
{
	struct files_struct *files = my_files();
	struct fdtable *t = files->fdt;
	if (fd < t->max_fds)
		return t;
	t = fdtable_grow(t, fd);
	if (t)
		__atomic_store_n(&files->fdt, t, __ATOMIC_RELEASE);
	return t;
}

/* F_GETFL of a new file: how it is open, as Linux reports it. */
static uint32_t default_flags(enum file_type type)
{
	switch (type) {
	case FT_CONSOLE:	return O_RDWR;
	case FT_SOCKET:		return O_RDWR;
	case FT_PIPE_WRITE:	return O_WRONLY;
	default:		return O_RDONLY;
	}
}

/* The inode numbers of pipes and sockets (Linux's get_next_ino). */
static uint32_t anon_ino;

struct file *file_alloc(enum file_type type)
{
	struct file *f = kzalloc(sizeof(*f));
	if (f) {
		f->type = type;
		f->ref = 1;
		f->flags = default_flags(type);
		if (type == FT_PIPE_READ || type == FT_PIPE_WRITE || type == FT_SOCKET)
			f->ino = __atomic_add_fetch(&anon_ino, 1, __ATOMIC_RELAXED);
	}
	return f;
}

/* The count is atomic, no lock: forks and exits on every CPU take and
 * drop references to the same few files (a shell's terminal), and one
 * lock over all counts would be fought over. Only the holder that takes it
 * to 0 frees the file. */
void file_close(struct file *f)
{
	int left = __atomic_sub_fetch(&f->ref, 1, __ATOMIC_ACQ_REL);
	if (left > 0)
		return;
	if (f->epitems)			/* nobody else holds f: none can be added */
		eventpoll_release(f);
	if (f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE)
		pipe_close(f->pipe, f->type == FT_PIPE_WRITE);
	if (f->type == FT_PROC)
		procfs_release(f);
	if (f->type == FT_SOCKET)
		socket_close(f->sock);
	if (f->type == FT_EPOLL)
		eventpoll_free(f->ep);
	if (f->type == FT_MQUEUE)
		mq_file_close(f);
	if (f->type == FT_INITRD)
		file_put_write(f->node, (int)f->flags);
	node_drop(f->node);
	kfree(f);
}

static int initrd_read(struct file *f, void *ubuf, uint32_t n)
{
	const struct initrd_file *node = f->node;
	if (node->is_dir)
		return -EISDIR;
	if (tmpfs_of(node))
		return file_node_read(f, ubuf, n);
	if (f->offset >= node->size)
		return 0;
	if (n > node->size - f->offset)
		n = node->size - (uint32_t)f->offset;
	if (copy_to_user(ubuf, node->data + f->offset, n) < 0)
		return -EFAULT;
	f->offset += n;
	return (int)n;
}

int file_read(struct file *f, void *ubuf, uint32_t n)
{
	switch (f->type) {
	case FT_CONSOLE:	return tty_read(ubuf, n, f->flags & O_NONBLOCK);
	case FT_PIPE_READ:	return pipe_read(f->pipe, ubuf, n, f->flags & O_NONBLOCK);
	case FT_INITRD:		return initrd_read(f, ubuf, n);
	case FT_DEV:		return dev_read(f, ubuf, n);
	case FT_PROC:		return procfs_read(f, ubuf, n);
	case FT_SOCKET:		return socket_read(f, ubuf, n);
	case FT_EPOLL:		return -EINVAL;		/* Linux: no read for it */
	case FT_MQUEUE:		return mq_file_read(f, ubuf, n);	/* its status line */
	default:		return -EBADF;
	}
}

int file_write(struct file *f, const void *ubuf, uint32_t n)
{
	switch (f->type) {
	case FT_CONSOLE:	return tty_write(ubuf, n);
	case FT_PIPE_WRITE:	return pipe_write(f->pipe, ubuf, n, f->flags & O_NONBLOCK, true);
	case FT_INITRD:		return file_node_write(f, ubuf, n);	/* tmpfs's */
	case FT_DEV:		return dev_write(f, ubuf, n);
	case FT_PROC:		return procfs_write(f, ubuf, n);
	case FT_SOCKET:		return socket_write(f, ubuf, n);
	case FT_EPOLL:		return -EINVAL;
	case FT_MQUEUE:		return -EINVAL;		/* Linux: no write for it */
	default:		return -EBADF;
	}
}

/* Regular files and devices never make a reader or writer wait. */
#define ALWAYS_READY	(POLLIN | POLLRDNORM | POLLOUT | POLLWRNORM)

static bool is_terminal(const struct file *f)
{
	return f->type == FT_CONSOLE || (f->type == FT_DEV && !dev_seekable(f));
}

uint32_t file_poll(struct file *f)
{
	if (is_terminal(f))
		return tty_poll();
	if (f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE)
		return pipe_poll(f->pipe, f->type == FT_PIPE_WRITE);
	if (f->type == FT_SOCKET)
		return socket_poll(f->sock);
	if (f->type == FT_EPOLL)
		return eventpoll_poll(f->ep);
	if (f->type == FT_MQUEUE)
		return mq_file_poll(f);
	return ALWAYS_READY;
}

struct waitq *file_waitq(struct file *f)
{
	if (is_terminal(f))
		return tty_waitq();
	if (f->type == FT_PIPE_READ || f->type == FT_PIPE_WRITE)
		return pipe_waitq(f->pipe, f->type == FT_PIPE_WRITE);
	if (f->type == FT_SOCKET)
		return socket_waitq(f->sock);
	if (f->type == FT_EPOLL)
		return eventpoll_waitq(f->ep);
	if (f->type == FT_MQUEUE)
		return mq_file_waitq(f);
	return NULL;
}

/* ---- the descriptor calls ------------------------------------------------- */

static void fd_set_cloexec(int fd, bool on)
{
	spin_lock(fd_lock());
	fdtable_set_cloexec(fd_table(), fd, on);
	spin_unlock(fd_lock());
}

static bool fd_get_cloexec(int fd)
{
	return fdtable_cloexec(fd_table(), fd);
}

/* The file on fd with a reference of the caller's (Linux's fget), taken
 * under the table's lock, so that another thread's close cannot free it
 * between the look and the reference; NULL if none. file_close drops it. */
struct file *fd_get(int fd)
{
	struct file *f = NULL;
	spin_lock(fd_lock());
	struct fdtable *t = fd_table();
	if (fd >= 0 && (uint32_t)fd < t->max_fds && t->fd[fd])
		f = file_dup(t->fd[fd]);
	spin_unlock(fd_lock());
	return f;
}

struct file *fd_next_of(struct proc *p, int *fd, bool *cloexec)
{
	struct file *f = NULL;
	task_lock(p);			/* the table stays while we look */
	struct files_struct *files = p->files;
	if (files)
		spin_lock(&files->file_lock);
	struct fdtable *t = files ? files->fdt : NULL;
	for (uint32_t at = (uint32_t)*fd; t && *fd >= 0 && at < t->max_fds && !f; at++)
		if (t->fd[at]) {
			f = file_dup(t->fd[at]);
			*cloexec = fdtable_cloexec(t, at);
			*fd = (int)at;
		}
	if (files)
		spin_unlock(&files->file_lock);
	task_unlock(p);
	return f;
}

uint32_t fd_table_size_of(struct proc *p)
{
	task_lock(p);
	uint32_t size = p->files ? p->files->fdt->max_fds : 0;
	task_unlock(p);
	return size;
}

uint32_t fd_table_size(void)
{
	return fd_table()->max_fds;
}

struct file *fd_file(int fd)
{
	struct fdtable *t = fd_table();
	return fd >= 0 && (uint32_t)fd < t->max_fds ? t->fd[fd] : NULL;
}

/* The reference is taken when another task uses the table too (a
 * thread, or a process that shares it: Linux's fdget), which may close
 * fd meanwhile. In line here: a pipe's read and write come through
 * (make profile). */
__attribute__((always_inline)) inline struct fd_ref fd_use(int fd)
{
	struct files_struct *files = current()->files;
	if (__atomic_load_n(&files->count, __ATOMIC_RELAXED) > 1)
		return (struct fd_ref){ fd_get(fd), true };
	struct fdtable *t = __atomic_load_n(&files->fdt, __ATOMIC_ACQUIRE);
	return (struct fd_ref){ fd >= 0 && (uint32_t)fd < t->max_fds ? t->fd[fd] : NULL, false };
}

void fd_done(struct fd_ref r)
{
	if (r.held && r.file)
		file_close(r.file);
}

/* Put f on the lowest free descriptor from `from` up, below
 * RLIMIT_NOFILE, marked close-on-exec or not: the descriptor, or
 * -EMFILE (-ENOMEM when the table cannot grow, as Linux's alloc_fd). */
static int fd_install_from(struct file *f, int from, bool cloexec)
{
	uint32_t limit = fd_limit();
	int found = -EMFILE;
	spin_lock(fd_lock());
	struct fdtable *t = fd_table();
	uint32_t fd = (uint32_t)from;
	while (fd < t->max_fds && t->fd[fd])
		fd++;
	if (fd < limit) {
		t = fd_table_for_locked(fd);
		if (!t) {
			found = -ENOMEM;
		} else {
			t->fd[fd] = f;
			fdtable_set_cloexec(t, fd, cloexec);
			found = (int)fd;
		}
	}
	spin_unlock(fd_lock());
	return found;
}

/* Empty slot fd (or put f there, not close-on-exec); what was in it, for
 * the caller to close. fd is below the table's end, or below
 * RLIMIT_NOFILE with f given (dup2's new descriptor). */
static struct file *fd_swap(int fd, struct file *f, int *err)
{
	struct file *old = NULL;
	spin_lock(fd_lock());
	struct fdtable *t = f ? fd_table_for_locked(fd) : fd_table();
	*err = t ? 0 : -ENOMEM;
	if (t && (uint32_t)fd < t->max_fds) {
		old = t->fd[fd];
		t->fd[fd] = f;
		fdtable_set_cloexec(t, fd, false);
	}
	spin_unlock(fd_lock());
	return old;
}

int sys_read(int fd, void *ubuf, uint32_t n)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int got = file_read(r.file, ubuf, n);
	fd_done(r);
	return got;
}

int sys_write(int fd, const void *ubuf, uint32_t n)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int done = file_write(r.file, ubuf, n);
	fd_done(r);
	return done;
}

/* A directory opens read-only (for getdents64); O_DIRECTORY insists on
 * one. Linux's order: the walk's errors, then ENOTDIR, EISDIR, EROFS. */
static enum file_type type_of(const struct initrd_file *node)
{
	if (node->rdev)
		return FT_DEV;
	return node->procfs && !node->is_dir ? FT_PROC : FT_INITRD;
}

static int open_node(const struct initrd_file *node, int flags, bool created)
{
	enum file_type type = type_of(node);
	if ((flags & O_DIRECTORY) && !node->is_dir)
		return -ENOTDIR;
	if (type == FT_PROC) {			/* /proc's own permission rules */
		int err = procfs_may_open(node, flags);
		if (err)
			return err;
	} else if (!created) {
		int err = open_permission(node, flags);
		if (err)
			return err;
	}
	if (fs_is_socket(node))
		return -ENXIO;			/* Linux: a socket file is not opened */
	int err = node_hold(node);		/* a /proc/PID or tmpfs node: kept while open */
	if (!err && (err = file_get_write(node, flags)) < 0)
		node_drop(node);		/* a running program's: ETXTBSY */
	if (err)
		return err;
	struct file *f = file_alloc(type);
	if (!f) {
		file_put_write(node, flags);
		node_drop(node);
		return -ENOMEM;
	}
	f->node = node;
	f->proc_pid = node->arg;
	/* Linux keeps every flag but the ones that act only at open. */
	f->flags = (uint32_t)flags & ~(O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_CLOEXEC);
	if ((flags & O_TRUNC) && (flags & O_ACCMODE) && tmpfs_of(node) && !node->is_dir)
		tmpfs_truncate(tmpfs_of(node), 0);
	int fd = fd_install_from(f, 0, flags & O_CLOEXEC);
	if (fd < 0)
		file_close(f);
	return fd;
}

int sys_open(const char *upath, int flags, uint32_t mode)
{
	return sys_openat(AT_FDCWD, upath, flags, mode);
}

int sys_creat(const char *upath, uint32_t mode)
{
	return sys_openat(AT_FDCWD, upath, O_CREAT | O_WRONLY | O_TRUNC, mode);
}

/* openat (295): glibc's open() since 2.26, busybox's too. O_CREAT makes
 * a name that is not there (kernel/fs/namei.c: EROFS outside tmpfs, as
 * the shell's "> /x" says "Read-only file system"); with O_EXCL one that
 * is there is EEXIST. */
int sys_openat(int dirfd, const char *upath, int flags, uint32_t mode)
{
	char path[FS_PATH_MAX];
	const struct initrd_file *node;
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	bool follow = !(flags & O_NOFOLLOW) && !((flags & O_CREAT) && (flags & O_EXCL));
	err = fs_lookup_at(dirfd, path, &node, follow);
	if (err == 0 && (flags & O_CREAT) && (flags & O_EXCL))
		return -EEXIST;
	if (err == 0 && (node->symlink || node->magic) && !follow)
		return -ELOOP;			/* O_NOFOLLOW on a link */
	if (err == -ENOENT && (flags & O_CREAT)) {
		size_t len = strlen(path);
		if (len && path[len - 1] == '/')
			return -EISDIR;		/* "new/": Linux will not make a file of it */
		err = fs_create(dirfd, path, mode, &node);
		if (err == 0)
			return open_node(node, flags & ~O_TRUNC, true);
	}
	if (err < 0)
		return err;
	return open_node(node, flags, false);
}

int sys_close(int fd)
{
	int err;
	struct file *f = fd >= 0 ? fd_swap(fd, NULL, &err) : NULL;
	if (!f)
		return -EBADF;
	if (f->node)			/* POSIX: any close lets go of the process's locks */
		locks_release(f->node, current()->group_leader->pid);
	file_close(f);
	return 0;
}

int sys_dup2(int oldfd, int newfd)
{
	struct file *f = fd_file(oldfd);
	if (!f)
		return -EBADF;
	if (newfd < 0 || (uint32_t)newfd >= fd_limit())
		return -EBADF;		/* Linux: at or past RLIMIT_NOFILE */
	if (newfd == oldfd)
		return newfd;
	f = fd_get(oldfd);		/* the reference for newfd, under the table's lock */
	if (!f)
		return -EBADF;		/* another thread closed it meanwhile */
	int err;
	struct file *old = fd_swap(newfd, f, &err);
	if (err < 0) {
		file_close(f);		/* the reference taken for newfd */
		return err;
	}
	if (old)
		file_close(old);
	return newfd;
}

/* dup3 (330): dup2 with O_CLOEXEC, checked in Linux's order (ksys_dup3):
 * other flags, then oldfd == newfd, are EINVAL before any fd is looked at. */
int sys_dup3(int oldfd, int newfd, int flags)
{
	if (flags & ~O_CLOEXEC)
		return -EINVAL;
	if (oldfd == newfd)
		return -EINVAL;
	if (newfd < 0 || (uint32_t)newfd >= fd_limit())
		return -EBADF;
	int fd = sys_dup2(oldfd, newfd);
	if (fd >= 0 && (flags & O_CLOEXEC))
		fd_set_cloexec(fd, true);
	return fd;
}

/* ---- seeking ---------------------------------------------------------------- */

/* Linux's limit for an offset (MAX_LFS_FILESIZE on i386: 2^44 - 1 with
 * 4 KiB pages). */
#define MAX_OFFSET	((1ull << 44) - 1)

/* The new offset of an initrd file or directory, or -errno. SEEK_DATA and
 * SEEK_HOLE as Linux's generic_file_llseek: the data is the whole file,
 * the one hole is at its end. */
static int64_t seek_node(struct file *f, int64_t off, int whence)
{
	int64_t size = f->node->is_dir ? 0 : (int64_t)f->node->size;
	int64_t pos;
	switch (whence) {
	case SEEK_SET:	pos = off; break;
	case SEEK_CUR:	pos = (int64_t)f->offset + off; break;
	case SEEK_END:
		if (f->node->is_dir)
			return -EINVAL;
		pos = size + off;
		break;
	case SEEK_DATA:
	case SEEK_HOLE:
		if (f->node->is_dir || off < 0 || off >= size)
			return -ENXIO;
		pos = whence == SEEK_DATA ? off : size;
		break;
	default:	return -EINVAL;
	}
	/* /proc's directories: Linux's procfs has s_maxbytes MAX_NON_LFS. */
	uint64_t max = f->node->procfs && f->node->is_dir ? INT32_MAX : MAX_OFFSET;
	if (pos < 0 || (uint64_t)pos > max)
		return -EINVAL;
	f->offset = (uint64_t)pos;
	return pos;
}

static int64_t seek_file(struct file *f, int64_t off, int whence)
{
	if (f->type == FT_INITRD)
		return seek_node(f, off, whence);
	if (f->type == FT_PROC)		/* Linux's seq_lseek: no SEEK_END */
		return whence == SEEK_SET || whence == SEEK_CUR ? seek_node(f, off, whence) : -EINVAL;
	if (f->type == FT_DEV && dev_seekable(f))
		return whence <= SEEK_END ? 0 : -EINVAL;	/* null, zero: stay at 0 */
	return -ESPIPE;		/* the console, pipes */
}

static int64_t file_seek(int fd, int64_t off, int whence)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int64_t pos = seek_file(r.file, off, whence);
	fd_done(r);
	return pos;
}

/* lseek (19): a 32-bit offset; EOVERFLOW when the result does not fit. */
int sys_lseek(int fd, int32_t off, int whence)
{
	int64_t pos = file_seek(fd, off, whence);
	if (pos > INT32_MAX)
		return -EOVERFLOW;
	return (int)pos;
}

/* _llseek (140), glibc's lseek64: the offset in two halves, the result
 * written to *uresult. */
int sys_llseek(int fd, uint32_t off_high, uint32_t off_low, int64_t *uresult, int whence)
{
	int64_t pos = file_seek(fd, (int64_t)((uint64_t)off_high << 32 | off_low), whence);
	if (pos < 0)
		return (int)pos;
	return copy_to_user(uresult, &pos, sizeof(pos)) < 0 ? -EFAULT : 0;
}

/* sendfile64 (239): copying between two files inside the kernel needs a
 * read and a write that take kernel buffers, which no file here has (they
 * all copy to and from user memory). Linux answers EINVAL where in_fd
 * cannot be spliced, and busybox's cat and coreutils then read and write:
 * so does everything here, without a log line for an unknown call. */
int sys_sendfile64(int out_fd, int in_fd, int64_t *uoffset, uint32_t count)
{
	(void)uoffset;
	(void)count;
	if (!fd_file(out_fd) || !fd_file(in_fd))
		return -EBADF;
	return -EINVAL;
}

/* pipe (42) is pipe2 with no flags; pipe2 (331) takes O_CLOEXEC (both
 * descriptors close on exec) and O_NONBLOCK (both ends return EAGAIN
 * where they would wait). Linux's O_DIRECT (packet mode) is not done:
 * EINVAL, like any other flag. */
int sys_pipe2(int *ufds, int flags)
{
	struct file *rd, *wr;
	if (flags & ~(O_CLOEXEC | O_NONBLOCK))
		return -EINVAL;
	if (!user_range_ok(ufds, 2 * sizeof(int), true))
		return -EFAULT;
	int err = pipe_create(&rd, &wr);
	if (err < 0)
		return err;
	rd->flags |= (uint32_t)flags & O_NONBLOCK;
	wr->flags |= (uint32_t)flags & O_NONBLOCK;
	int fds[2];
	return fd_install_pair(ufds, rd, wr, flags & O_CLOEXEC, fds);
}

int fd_install(struct file *f, bool cloexec)
{
	return fd_install_from(f, 0, cloexec);
}

int fd_install_pair(int *ufds, struct file *a, struct file *b, bool cloexec, int fds[2])
{
	int err;
	fds[0] = fd_install_from(a, 0, cloexec);
	fds[1] = fds[0] < 0 ? -EMFILE : fd_install_from(b, 0, cloexec);
	err = fds[1] < 0 ? -EMFILE : copy_to_user(ufds, fds, 2 * sizeof(int));
	if (err < 0) {
		/* An installed end belongs to the table now: another thread may
		 * have closed it already (then it dropped our reference) or put
		 * another file there; close what the slot holds. An end not
		 * installed is still ours to drop. */
		struct file *ends[2] = { a, b };
		for (int i = 0; i < 2; i++) {
			struct file *f = fds[i] >= 0 ? fd_swap(fds[i], NULL, &(int){0}) : ends[i];
			if (f)
				file_close(f);
		}
	}
	return err;
}

int sys_pipe(int *ufds)
{
	return sys_pipe2(ufds, 0);
}

/* fcntl (55) and fcntl64 (221, glibc's): the descriptor commands. F_SETFL
 * changes only O_APPEND and O_NONBLOCK, as Linux (its O_ASYNC, O_DIRECT,
 * O_NOATIME are not done here: left as they are). A pipe's size is read
 * and set (kernel/fs/pipe.c). Locks, leases and owners are not done: EINVAL,
 * as Linux answers a command it does not know. */
#define SETFL_MASK	(O_APPEND | O_NONBLOCK)

static int fcntl_dup(int oldfd, uint32_t from, bool cloexec)
{
	if (from >= fd_limit())	/* Linux: EINVAL at or past RLIMIT_NOFILE */
		return -EINVAL;
	/* the new descriptor's reference, under the table's lock */
	struct file *f = fd_get(oldfd);
	if (!f)
		return -EBADF;
	int fd = fd_install_from(f, (int)from, cloexec);
	if (fd < 0)
		file_close(f);
	return fd;
}

/* dup (41): the lowest free descriptor, not close-on-exec. */
int sys_dup(int fd)
{
	return fd_file(fd) ? fcntl_dup(fd, 0, false) : -EBADF;
}

static int fcntl_file(struct file *f, int fd, int cmd, uint32_t arg)
{
	switch (cmd) {
	case F_DUPFD:		return fcntl_dup(fd, arg, false);
	case F_DUPFD_CLOEXEC:	return fcntl_dup(fd, arg, true);
	case F_GETFD:		return fd_get_cloexec(fd) ? FD_CLOEXEC : 0;
	case F_SETFD:
		fd_set_cloexec(fd, arg & FD_CLOEXEC);
		return 0;
	case F_GETFL:		return (int)f->flags;
	case F_SETFL:
		f->flags = (f->flags & ~SETFL_MASK) | (arg & SETFL_MASK);
		return 0;
	case F_GETLK: case F_SETLK: case F_SETLKW:
	case F_GETLK64: case F_SETLK64: case F_SETLKW64:
		return fcntl_lock(f, cmd, (void *)arg, cmd >= F_GETLK64);
	case F_GETPIPE_SZ:
	case F_SETPIPE_SZ:
		if (f->type != FT_PIPE_READ && f->type != FT_PIPE_WRITE)
			return -EBADF;		/* Linux: not a pipe */
		return cmd == F_GETPIPE_SZ ? pipe_get_size(f->pipe) : pipe_set_size(f->pipe, arg);
	default:
		return -EINVAL;
	}
}

int sys_fcntl64(int fd, int cmd, uint32_t arg)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int ret = fcntl_file(r.file, fd, cmd, arg);
	fd_done(r);
	return ret;
}

/* readv (145), writev (146): one read or write per piece, in order,
 * stopping at the first short one; an error only when nothing moved.
 * Linux's checks first: iovcnt past UIO_MAXIOV, or a length that is
 * negative as a ssize_t, is EINVAL (Linux also caps the total at
 * MAX_RW_COUNT: not done, no file here moves that much at once). */

struct iovec_32 {
	uint32_t base, len;
};

static int rw_vector_file(struct file *f, const void *uiov, int iovcnt, bool write)
{
	if (iovcnt < 0 || iovcnt > UIO_MAXIOV)
		return -EINVAL;
	struct iovec_32 *iov = kmalloc((uint32_t)iovcnt * sizeof(*iov) + 1);
	if (!iov)
		return -ENOMEM;
	int done = -EFAULT;
	if (copy_from_user(iov, uiov, (uint32_t)iovcnt * sizeof(*iov)) < 0)
		goto out;
	done = -EINVAL;
	for (int i = 0; i < iovcnt; i++)
		if ((int32_t)iov[i].len < 0)
			goto out;
	done = 0;
	for (int i = 0; i < iovcnt; i++) {
		void *ubuf = (void *)(uintptr_t)iov[i].base;
		int got = write ? file_write(f, ubuf, iov[i].len) : file_read(f, ubuf, iov[i].len);
		if (got < 0) {
			done = done ? done : got;
			break;
		}
		done += got;
		if ((uint32_t)got < iov[i].len)
			break;
	}
out:
	kfree(iov);
	return done;
}

static int rw_vector(int fd, const void *uiov, int iovcnt, bool write)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int done = rw_vector_file(r.file, uiov, iovcnt, write);
	fd_done(r);
	return done;
}

int sys_readv(int fd, const void *uiov, int iovcnt)
{
	return rw_vector(fd, uiov, iovcnt, false);
}

int sys_writev(int fd, const void *uiov, int iovcnt)
{
	return rw_vector(fd, uiov, iovcnt, true);
}
