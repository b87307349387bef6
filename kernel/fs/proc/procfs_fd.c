/*
 * procfs_fd.c - /proc/PID/fd/ and /proc/PID/fdinfo/: a process's open
 * descriptors as Linux 6.1 shows them (fs/proc/fd.c).
 *
 *   fd/N      a magic link: readlink gives what N has open as Linux's
 *             d_path spells it ("/tmp/x", "/tmp/x (deleted)", "/dev/null",
 *             "pipe:[ino]", "socket:[ino]"), and the walk goes on to the
 *             open file's node (a file, a device, a /proc file). Its mode
 *             says how N is open: lr-x reading, l-wx writing, lrwx both.
 *   fdinfo/N  "pos:", "flags:", "mnt_id:", "ino:" lines: the offset, the
 *             open flags with O_CLOEXEC for the close-on-exec bit, the
 *             file system (its st_dev minor: this kernel has no mount
 *             ids) and the inode number.
 * Who may look (Linux's proc_fd_permission and ptrace_may_access with
 * PTRACE_MODE_READ_FSCREDS; the same rule opens /proc/PID/pagemap): the process's own threads, root, and a user
 * whose id is the process's real, effective and saved one while it is
 * dumpable; others get EACCES for the directories and all in them.
 * The nodes are procfs_pid.c's (procfs_fd_node), one per descriptor.
 * Shortcut: following fd/N of a pipe, a socket or the console is ENOENT
 * (Linux opens that pipe again); readlink and lstat of it work.
 */
#include "procfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/string.h"
#include "kernel/fs/file.h"
#include "kernel/fs/fdtable.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/mount.h"
#include "kernel/fs/namei.h"
#include "kernel/fs/tmpfs.h"
#include "kernel/task/proc.h"
#include <uapi/fcntl.h>		/* O_ACCMODE, O_CLOEXEC */

#define INITRD_DEV_MINOR	1	/* st_dev of the initrd's and /proc's nodes (kernel/fs/stat.c) */

static bool is_fd_node(const struct initrd_file *n)
{
	return n->procfs == PROCFS_PID_FD_DIR || n->procfs == PROCFS_PID_FDINFO_DIR ||
	       n->procfs == PROCFS_PID_FD || n->procfs == PROCFS_PID_FDINFO;
}

static bool may_look(const struct proc *p)
{
	const struct proc *me = current();
	uint32_t fsuid = fs_fsuid();
	if (me->group_leader == p->group_leader || proc_capable(me, CAP_SYS_PTRACE))
		return true;
	return fsuid == (uint32_t)p->uid && fsuid == (uint32_t)p->euid &&
	       fsuid == (uint32_t)p->suid && p->group->dumpable;
}

int procfs_fd_may(const struct initrd_file *n)
{
	/* pagemap: Linux's proc_mem_open asks the same (PTRACE_MODE_READ) */
	if (!is_fd_node(n) && n->procfs != PROCFS_PID_PAGEMAP)
		return 0;
	struct proc *p = proc_get_or_zombie(n->arg);
	if (!p)
		return -ENOENT;
	int err = may_look(p) ? 0 : -EACCES;
	proc_put(p);
	return err;
}

/* The file on descriptor *fd or the next open one of n's process, with a
 * reference (file_close after), *fd moved to it; NULL: none. */
static struct file *file_from(const struct initrd_file *n, int *fd, bool *cloexec)
{
	struct proc *p = proc_get_or_zombie(n->arg);
	if (!p)
		return NULL;
	struct file *f = fd_next_of(p, fd, cloexec);
	proc_put(p);
	return f;
}

/* The file descriptor fd of n's process has open, or NULL. */
static struct file *file_at(const struct initrd_file *n, int fd, bool *cloexec)
{
	int found = fd;
	struct file *f = file_from(n, &found, cloexec);
	if (f && found != fd) {
		file_close(f);
		return NULL;
	}
	return f;
}

/* Linux's name_to_int: decimal, no sign, no leading zero but "0". */
static int parse_fd(const char *name, size_t len)
{
	int fd = 0;
	if (len == 0 || len > 9 || (name[0] == '0' && len > 1))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		fd = fd * 10 + (name[i] - '0');
	}
	return fd;
}

/* fd/N's mode bits: r-x when N reads, -wx when it writes (proc_fd_link's
 * inode); fdinfo/N is r--r--r--. */
static uint16_t node_perm(const struct initrd_file *dir, const struct file *f)
{
	if (dir->procfs == PROCFS_PID_FDINFO_DIR)
		return 0444;
	uint32_t acc = f->flags & O_ACCMODE;
	return (acc != O_WRONLY ? 0500 : 0) | (acc != O_RDONLY ? 0300 : 0);
}

/* Descriptor fd's node in dir, for the file f it has open. */
static const struct initrd_file *node_for(const struct initrd_file *dir, int fd, struct file *f)
{
	const struct initrd_file *n = procfs_fd_node(dir, fd, node_perm(dir, f));
	file_close(f);
	return n;
}

int procfs_fd_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	int err = procfs_fd_may(*at);
	if (err)
		return err;
	bool cloexec;
	int fd = parse_fd(name, len);
	struct file *f = fd < 0 ? NULL : file_at(*at, fd, &cloexec);
	if (!f)
		return -ENOENT;
	const struct initrd_file *n = node_for(*at, fd, f);
	if (!n)
		return -ENOMEM;
	*at = n;
	return 0;
}

/* Positions: descriptor + 1 of the last one given; a listing of another's
 * stops at once (opening it was refused already). */
const struct initrd_file *procfs_fd_next(const struct initrd_file *dir, uint32_t *pos)
{
	bool cloexec;
	int fd = (int)*pos;
	struct file *f = procfs_fd_may(dir) ? NULL : file_from(dir, &fd, &cloexec);
	const struct initrd_file *n = f ? node_for(dir, fd, f) : NULL;
	*pos = n ? (uint32_t)fd + 1 : NR_OPEN;
	return n;
}

const struct initrd_file *procfs_fd_target(const struct initrd_file *link)
{
	bool cloexec;
	struct file *f = file_at(link, link->index, &cloexec);
	if (!f)
		return NULL;
	const struct initrd_file *node = f->type == FT_INITRD || f->type == FT_DEV ||
					 f->type == FT_PROC ? f->node : NULL;
	file_close(f);
	return node;
}

/* A node's path: the initrd's and /proc's as they are named, a tmpfs
 * node's spelled from its names up ("... (deleted)" once it has none). */
static int node_path(const struct initrd_file *n, char *buf, uint32_t size)
{
	if (n->path) {
		strlcpy(buf, n->path, size);
		return (int)strlen(buf);
	}
	return mount_path(n, buf, size);
}

int procfs_fd_link_text(const struct initrd_file *link, char *buf, uint32_t size)
{
	bool cloexec;
	struct file *f = file_at(link, link->index, &cloexec);
	if (!f)
		return -ENOENT;
	int n;
	switch (f->type) {
	case FT_PIPE_READ:
	case FT_PIPE_WRITE:	n = ksnprintf(buf, size, "pipe:[%u]", f->ino); break;
	case FT_SOCKET:		n = ksnprintf(buf, size, "socket:[%u]", f->ino); break;
	case FT_CONSOLE:	n = ksnprintf(buf, size, "/dev/console"); break;
	case FT_MQUEUE:		n = mq_file_path(f, buf, size); break;
	default:		n = node_path(f->node, buf, size); break;
	}
	file_close(f);
	return n;
}

/* Linux's seq_show: the offset, f_flags (O_CLOEXEC from the table), the
 * mount, the inode. */
int procfs_fd_info_text(const struct initrd_file *n, struct pbuf *b)
{
	bool cloexec;
	struct file *f = file_at(n, n->index, &cloexec);
	if (!f)
		return -ENOENT;
	const struct initrd_file *node = f->type == FT_INITRD || f->type == FT_DEV ||
					 f->type == FT_PROC ? f->node : NULL;
	uint32_t dev = !node ? 0 : tmpfs_of(node) ? tmpfs_of(node)->sb->dev_minor : INITRD_DEV_MINOR;
	uint64_t pos = f->type == FT_INITRD || f->type == FT_PROC ? f->offset : 0;
	pb_printf(b, "pos:\t%llu\nflags:\t0%o\nmnt_id:\t%u\nino:\t%u\n", (unsigned long long)pos,
		  f->flags | (cloexec ? O_CLOEXEC : 0), dev, node ? initrd_ino(node) : f->ino);
	file_close(f);
	return 0;
}
