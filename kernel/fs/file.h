/*
 * file.h - open files: what a file descriptor points at.
 *
 * Seven kinds: the console (fd 0, 1, 2 at boot), one end of a pipe, a
 * file of the tree (the initrd's, read-only, or tmpfs's: FT_INITRD), a device of /dev (kernel/fs/dev.c), a
 * /proc file (kernel/fs/proc/procfs.c), a socket (kernel/net/),
 * and an epoll (kernel/fs/eventpoll.c). A struct file is shared between
 * descriptors after fork and dup2, and freed when the last one closes.
 */
#ifndef KERNEL_FILE_H
#define KERNEL_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include "initrd.h"

enum file_type { FT_CONSOLE, FT_PIPE_READ, FT_PIPE_WRITE, FT_INITRD, FT_DEV, FT_PROC, FT_SOCKET,
		FT_EPOLL, FT_MQUEUE };

struct pipe;
struct socket;
struct eventpoll;
struct epitem;
struct mqueue;
struct mq_attr;
struct sigevent;
struct proc;
struct waitq;

struct file {
	enum file_type type;
	int ref;			/* descriptors pointing here */
	struct pipe *pipe;		/* FT_PIPE_* */
	struct socket *sock;		/* FT_SOCKET */
	struct eventpoll *ep;		/* FT_EPOLL */
	struct mqueue *mq;		/* FT_MQUEUE (kernel/fs/mqueue.c) */
	struct epitem *epitems;		/* the epolls watching it (eventpoll.c's ep_global) */
	const struct initrd_file *node;	/* FT_INITRD, FT_DEV (kernel/fs/dev.c), FT_PROC */
	uint64_t offset;		/* FT_INITRD, FT_PROC: lseek may go past the end, as Linux */
	char *text;			/* FT_PROC: the text of the last read from 0 (kmalloc) */
	uint32_t text_len;
	int proc_pid;			/* FT_PROC: the node's pid at open (its slot may be reused) */
	uint32_t flags;			/* O_ACCMODE, O_APPEND, O_NONBLOCK...: fcntl's F_GETFL */
	uint32_t ino;			/* a pipe's or socket's inode number (fstat, /proc/PID/fd) */
};

struct file *file_alloc(enum file_type type);
/* One descriptor more names f (dup, fork's copy of a table): in line,
 * since a fork copies every descriptor. */
static inline struct file *file_dup(struct file *f)
{
	__atomic_add_fetch(&f->ref, 1, __ATOMIC_RELAXED);
	return f;
}
void file_close(struct file *f);
/* Read/write n bytes to/from user memory: bytes moved, or -errno. */
int file_read(struct file *f, void *ubuf, uint32_t n);
int file_write(struct file *f, const void *ubuf, uint32_t n);

/* The current process's file on descriptor fd, or NULL: only to ask
 * whether there is one, or for what never sleeps and cannot outlive a
 * close (the file may be freed by another thread's close at any time). */
struct file *fd_file(int fd);
/* The file on fd for the length of one call that uses it (Linux's
 * fdget): with a reference when another task uses the table and could
 * close fd meanwhile, without one when the caller is its only user.
 * file NULL: no such descriptor. fd_done() after. */
struct fd_ref {
	struct file *file;
	bool held;
};
struct fd_ref fd_use(int fd);
void fd_done(struct fd_ref r);
/* The same with a reference, taken under the table's lock (Linux's fget):
 * for a caller that keeps the file while another thread may close the
 * descriptor (poll, select). NULL if none; file_close gives it back. */
struct file *fd_get(int fd);
/* The same for task p's lowest open descriptor from *fd up
 * (/proc/PID/fd), *fd moved to it, its close-on-exec bit in *cloexec;
 * NULL if none. */
struct file *fd_next_of(struct proc *p, int *fd, bool *cloexec);
/* Slots in the current process's descriptor table (select's bound). */
uint32_t fd_table_size(void);
/* Slots in task p's (/proc/PID/status's FDSize; 0: a zombie's). */
uint32_t fd_table_size_of(struct proc *p);

/* The system calls on descriptors of the current process. */
int sys_read(int fd, void *ubuf, uint32_t n);
int sys_write(int fd, const void *ubuf, uint32_t n);
int sys_ioctl(int fd, uint32_t req, void *uarg);
int sys_open(const char *upath, int flags, uint32_t mode);
int sys_openat(int dirfd, const char *upath, int flags, uint32_t mode);
int sys_creat(const char *upath, uint32_t mode);
int sys_close(int fd);
int sys_dup2(int oldfd, int newfd);
int sys_dup3(int oldfd, int newfd, int flags);
/* POSIX record locks (kernel/fs/flock.c): fcntl's F_GETLK, F_SETLK,
 * F_SETLKW on f (flock64: the 64-bit struct, commands 12-14); and every
 * lock owner (a thread group's id) holds on node, let go at a close. */
int fcntl_lock(struct file *f, int cmd, void *uarg, bool flock64);
void locks_release(const struct initrd_file *node, int owner);
/* A file of the tree (kernel/fs/fileio.c): open's permission check, a
 * tmpfs file's read and write at the file's offset, pread64, pwrite64. */
int open_permission(const struct initrd_file *node, int flags);
/* A tmpfs file open for writing is a writer (ETXTBSY while it runs). */
int file_get_write(const struct initrd_file *node, int flags);
void file_put_write(const struct initrd_file *node, int flags);
int file_node_read(struct file *f, void *ubuf, uint32_t n);
int file_node_write(struct file *f, const void *ubuf, uint32_t n);
int sys_pread64(int fd, void *ubuf, uint32_t n, uint32_t lo, uint32_t hi);
int sys_pwrite64(int fd, const void *ubuf, uint32_t n, uint32_t lo, uint32_t hi);
int sys_fallocate(int fd, int mode, uint32_t off_lo, uint32_t off_hi, uint32_t len_lo,
		  uint32_t len_hi);
int sys_pipe(int *ufds);
int sys_pipe2(int *ufds, int flags);
/* pipe2 and socketpair: a and b on the two lowest free descriptors, their
 * numbers in fds and copied to ufds; on failure (-EMFILE, -EFAULT) no
 * descriptor is left and both files are closed. */
/* f on the lowest free descriptor: it, or -EMFILE (f is the caller's to
 * close then). */
int fd_install(struct file *f, bool cloexec);
int fd_install_pair(int *ufds, struct file *a, struct file *b, bool cloexec, int fds[2]);
int sys_readv(int fd, const void *uiov, int iovcnt);
int sys_writev(int fd, const void *uiov, int iovcnt);
int sys_fcntl64(int fd, int cmd, uint32_t arg);
int sys_close_range(uint32_t first, uint32_t last, uint32_t flags);	/* closerange.c */
int sys_dup(int fd);
int sys_lseek(int fd, int32_t off, int whence);
int sys_llseek(int fd, uint32_t off_high, uint32_t off_low, int64_t *uresult, int whence);
int sys_sendfile64(int out_fd, int in_fd, int64_t *uoffset, uint32_t count);
/* kernel/fs/copyrange.c: copy_file_range (377) within one tmpfs, else
 * EXDEV; fadvise64 (250) and fadvise64_64 (272), hints with Linux's errnos. */
int sys_copy_file_range(int fd_in, int64_t *uoff_in, int fd_out, int64_t *uoff_out,
			uint32_t len, uint32_t flags);
int sys_fadvise64(int fd, uint32_t off_lo, uint32_t off_hi, uint32_t len, int advice);
int sys_fadvise64_64(int fd, uint32_t off_lo, uint32_t off_hi, uint32_t len_lo,
		     uint32_t len_hi, int advice);
/* poll (kernel/fs/poll.c): what f is ready for now (POLLIN, POLLOUT, POLLHUP,
 * POLLERR), and the wait queue woken when that changes (NULL: never). */
uint32_t file_poll(struct file *f);
struct waitq *file_waitq(struct file *f);
/* A process's descriptors (kernel/fs/fdtable.c). exec: close the ones
 * marked close-on-exec (O_CLOEXEC, FD_CLOEXEC). */
void fd_close_on_exec(struct proc *p);
/* fork and clone: child's descriptors, a copy of parent's (the calling
 * task's) or (share: CLONE_FILES) the same; 0 or -ENOMEM. */
int copy_files(struct proc *child, struct proc *parent, bool share);
/* One task less uses files; the last closes them. tgid: its process,
 * whose record locks go with a closed file; process_ends: the process's
 * end, when its locks go even on a file that others keep open. */
struct files_struct;
void files_put(struct files_struct *files, int tgid, bool process_ends);
/* A table of p's own if it shares one (exec, unshare, close_range; p is
 * the caller): 0 or -ENOMEM. */
int files_unshare(struct proc *p);

/* Pipes (kernel/fs/pipe.c). */
int pipe_create(struct file **rd, struct file **wr);
/* nonblock (O_NONBLOCK): -EAGAIN where they would sleep. */
int pipe_read(struct pipe *p, void *ubuf, uint32_t n, bool nonblock);
/* sigpipe: SIGPIPE with EPIPE (false for a send with MSG_NOSIGNAL). */
int pipe_write(struct pipe *p, const void *ubuf, uint32_t n, bool nonblock, bool sigpipe);
void pipe_close(struct pipe *p, int writable);
/* For stream sockets (kernel/net/unix.c): a pipe whose readers sleep on
 * rdq and writers on wrq (NULL: its own queues), one reader and one
 * writer; shut makes it end both ways. */
struct pipe *pipe_alloc(struct waitq *rdq, struct waitq *wrq);
void pipe_shut(struct pipe *p);
uint32_t pipe_poll(struct pipe *p, bool write_end);
int pipe_peek(struct pipe *p, char *kbuf, uint32_t n);
void pipe_counts(struct pipe *p, uint32_t *nread, uint32_t *nwrite);
struct waitq *pipe_waitq(struct pipe *p, bool write_end);
/* fcntl's F_GETPIPE_SZ and F_SETPIPE_SZ (the new size, or -errno). */
int pipe_get_size(struct pipe *p);
int pipe_set_size(struct pipe *p, uint32_t want);
void pipe_free(struct pipe *p);

/* Pipes' limits (kernel/fs/pipe_limits.c): /proc/sys/fs's files, and
 * each user's charge. */
enum { PIPE_SYSCTL_MAX_SIZE, PIPE_SYSCTL_PAGES_HARD, PIPE_SYSCTL_PAGES_SOFT, PIPE_SYSCTL_NR };
const char *pipe_sysctl_name(int i);
uint32_t pipe_sysctl_value(int i);
int pipe_sysctl_write(int i, const char *text, uint32_t len);
uint32_t pipe_round_size(uint64_t size);
bool pipe_unprivileged(void);
bool pipe_pages_over_soft(uint32_t pages);
bool pipe_pages_over_hard(uint32_t pages);
struct pipe_user;
struct pipe_user *pipe_user_get(void);
uint32_t pipe_user_charge(struct pipe_user *u, uint32_t old, uint32_t new);
void pipe_user_put(struct pipe_user *u);

/* POSIX message queues (kernel/fs/mqueue.c, mqueue_msg.c): the calls,
 * the file's operations, /proc/sys/fs/mqueue's limits. */
int sys_mq_open(const char *uname, int oflag, uint32_t mode, const struct mq_attr *uattr);
int sys_mq_unlink(const char *uname);
int sys_mq_timedsend(int fd, const char *uptr, uint32_t len, uint32_t prio, const void *uts);
int sys_mq_timedreceive(int fd, char *uptr, uint32_t len, uint32_t *uprio, const void *uts);
int sys_mq_timedsend_time64(int fd, const char *uptr, uint32_t len, uint32_t prio, const void *uts);
int sys_mq_timedreceive_time64(int fd, char *uptr, uint32_t len, uint32_t *uprio, const void *uts);
int sys_mq_notify(int fd, const struct sigevent *usev);
int sys_mq_getsetattr(int fd, const struct mq_attr *unew, struct mq_attr *uold);
void mq_file_close(struct file *f);
/* Its mode bits and owner (fstat); its name as /proc/PID/fd shows it. */
void mq_file_owner(const struct file *f, uint32_t *mode, uint32_t *uid, uint32_t *gid);
int mq_file_path(struct file *f, char *buf, uint32_t size);
int mq_file_read(struct file *f, void *ubuf, uint32_t n);
uint32_t mq_file_poll(struct file *f);
struct waitq *mq_file_waitq(struct file *f);
#define MQ_SYSCTL_NR 5
const char *mq_sysctl_name(int i);
uint32_t mq_sysctl_value(int i);
int mq_sysctl_write(int i, const char *text, uint32_t len);

/* The console as a file (kernel/fs/tty.c). */
int tty_read(void *ubuf, uint32_t n, bool nonblock);
int tty_write(const void *ubuf, uint32_t n);
void tty_init(void);
uint32_t tty_poll(void);
struct waitq *tty_waitq(void);
/* console_input_byte() (interrupt context): take every byte the console
 * has buffered. Does nothing before tty_init(): until then the raw
 * buffer is test=echo's (drivers/serial_irq.c). */
void tty_receive(void);
/* The terminal ioctls (termios, the foreground group); -ENOTTY else. */
int tty_ioctl(uint32_t req, void *uarg);

#endif
