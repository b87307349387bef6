/*
 * procfs.c - /proc's tree and its open files (kernel/fs/proc/procfs.h says how
 * the three procfs files divide the work).
 *
 * The path walk (kernel/fs/initrd.c) asks here for the children it cannot
 * find in the initrd's table: the PIDs of /proc and the files of
 * /proc/PID. Magic links stand for a node the kernel chooses, as
 * Linux's: /proc/self (readlink: the caller's pid; the walk goes on in
 * the caller's /proc/PID), /proc/PID/exe (its program; busybox runs its
 * applets by executing /proc/self/exe again), cwd, root and fd/N
 * (procfs_fd.c).
 *
 * An open /proc file (FT_PROC) keeps its text from the last read that
 * started at offset 0, so a reader that reads in pieces sees one
 * consistent text, and a reader that seeks back to 0 sees a fresh one
 * (top re-reads so). A /proc/PID file checks at every read that its
 * process still lives: a pid that exited gives ESRCH, never the data of a
 * process that took its slot.
 */
#include "procfs.h"
#include <stdarg.h>
#include <stdbool.h>
#include "lib/errno.h"
#include "kernel/fs/file.h"
#include "lib/format.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/mount.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/task/proc.h"
#include "lib/string.h"
#include "kernel/mm/uaccess.h"
#include <uapi/fcntl.h>		/* O_ACCMODE */


/* The longest value a /proc/sys file takes in one write ("1000\n"). */
#define PROCFS_WRITE_MAX	32

void procfs_init(void)
{
	initrd_add_proc("/proc", PROCFS_ROOT, 0, 0555, true);
	initrd_add_magic("/proc/self", MAGIC_SELF);
	procfs_sys_init();
}

/* ---- the tree --------------------------------------------------------------- */

const struct initrd_file *initrd_magic_target(const struct initrd_file *link)
{
	struct proc *p = current();
	if (!p)
		return NULL;
	if (link->magic == MAGIC_SELF)			/* the process's: its group's id */
		return procfs_pid_dir(p->group_leader ? p->group_leader->pid : p->pid);
	if (link->magic == MAGIC_EXE)
		return procfs_pid_exe(link->arg);	/* NULL for a kernel thread: ENOENT */
	if (link->magic == MAGIC_CWD)
		return procfs_pid_cwd(link->arg);
	if (link->magic == MAGIC_ROOT)			/* one tree: "/" while it lives */
		return procfs_pid_dir(link->arg) ? initrd_root() : NULL;
	if (link->magic == MAGIC_FD)
		return procfs_fd_target(link);
	return NULL;
}

int initrd_magic_text(const struct initrd_file *link, char *buf, uint32_t size)
{
	struct proc *p = current();
	if (link->magic == MAGIC_SELF && p)
		return ksnprintf(buf, size, "%d", p->group_leader ? p->group_leader->pid : p->pid);
	if (link->magic == MAGIC_FD)
		return procfs_fd_link_text(link, buf, size);
	const struct initrd_file *t = initrd_magic_target(link);
	if (!t)
		return -ENOENT;
	if (t->path) {
		strlcpy(buf, t->path, size);
		return (int)strlen(buf);
	}
	return mount_path(t, buf, size);	/* a tmpfs directory (cwd): its names up */
}

/* A decimal pid with no sign, no leading zero (Linux: "01" is no PID). */
static int parse_pid(const char *name, size_t len)
{
	int pid = 0;
	if (len == 0 || len > 9 || name[0] == '0')
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		pid = pid * 10 + (name[i] - '0');
	}
	return pid;
}

int procfs_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	if ((*at)->procfs == PROCFS_PID_DIR || (*at)->procfs == PROCFS_PID_FD_DIR ||
	    (*at)->procfs == PROCFS_PID_FDINFO_DIR)
		return procfs_pid_lookup(at, name, len);
	int pid = parse_pid(name, len);
	const struct initrd_file *d = pid <= 0 ? NULL :
		(*at)->procfs == PROCFS_PID_TASK ? procfs_tid_dir(proc_tgid((*at)->arg), pid) :
		procfs_pid_dir(pid);
	if (!d)
		return -ENOENT;
	*at = d;
	return 0;
}

const struct initrd_file *procfs_next_child(const struct initrd_file *dir, uint32_t *pos,
					    uint32_t base)
{
	if (dir->procfs != PROCFS_ROOT && dir->procfs != PROCFS_PID_DIR &&
	    dir->procfs != PROCFS_PID_TASK && dir->procfs != PROCFS_PID_FD_DIR &&
	    dir->procfs != PROCFS_PID_FDINFO_DIR) {
		*pos = base;
		return NULL;
	}
	return procfs_pid_next(dir, pos, dir->procfs == PROCFS_ROOT ? base : 0);
}

const struct initrd_file *procfs_parent(const struct initrd_file *n)
{
	return procfs_pid_parent(n);
}

uint32_t procfs_ino(const struct initrd_file *n)
{
	return procfs_pid_ino(n);
}

int procfs_uid(const struct initrd_file *n)
{
	return n->procfs >= PROCFS_PID_DIR && n->procfs <= PROCFS_PID_EXE ? procfs_pid_uid(n) : 0;
}

/* ---- the text buffer -------------------------------------------------------- */

static bool pb_grow(struct pbuf *b, uint32_t need)
{
	uint32_t cap = b->cap ? b->cap : 1024;
	while (cap < need)
		cap *= 2;
	if (cap == b->cap)
		return true;
	char *p = kmalloc(cap);
	if (!p) {
		b->err = -ENOMEM;
		return false;
	}
	if (b->p)
		memcpy(p, b->p, b->len);
	kfree(b->p);
	b->p = p;
	b->cap = cap;
	return true;
}

void pb_printf(struct pbuf *b, const char *fmt, ...)
{
	va_list ap;
	if (b->err || !pb_grow(b, b->len + 1))
		return;
	va_start(ap, fmt);
	int n = kvsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	if (n < 0 || b->len + (uint32_t)n < b->cap) {
		b->len += n > 0 ? (uint32_t)n : 0;
		return;
	}
	if (!pb_grow(b, b->len + (uint32_t)n + 1))	/* too long: again, with room */
		return;
	va_start(ap, fmt);
	kvsnprintf(b->p + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (uint32_t)n;
}

/* A NUL too (cmdline's separators), which pb_printf cannot write. */
void pb_putc(struct pbuf *b, char c)
{
	if (b->err || !pb_grow(b, b->len + 2))
		return;
	b->p[b->len++] = c;
}

/* ---- open files --------------------------------------------------------------- */

static bool is_pid_file(const struct initrd_file *n)
{
	return n->procfs >= PROCFS_PID_STAT && n->procfs <= PROCFS_PID_EXE;
}

static bool is_sys_file(const struct initrd_file *n)
{
	return n->procfs >= PROCFS_SYS_OSTYPE;
}

/*
 * Linux's permission check: reading is for everyone; writing needs the
 * write bit, which only the tunables have (0644, owner root). Root may
 * still open another /proc file for writing (its DAC override) and then
 * fails at write, except under /proc/sys, whose own check refuses root
 * too (proc_sys_permission).
 */
int procfs_may_open(const struct initrd_file *n, int flags)
{
	int err = procfs_fd_may(n);		/* another's descriptors: EACCES */
	if (err)
		return err;
	if ((flags & O_ACCMODE) == O_RDONLY)
		return 0;
	bool root = current()->euid == 0;
	if (n->perm & 0200)
		return root ? 0 : -EACCES;
	return root && !is_sys_file(n) ? 0 : -EACCES;
}

static int make_text(struct file *f)
{
	struct pbuf b = { 0 };
	int err = is_pid_file(f->node) ? procfs_pid_text(f->node, &b)
				       : procfs_sys_text(f->node, &b);
	if (!err)
		err = b.err;
	if (err) {
		kfree(b.p);
		return err;
	}
	kfree(f->text);
	f->text = b.p;
	f->text_len = b.len;
	return 0;
}

int procfs_read(struct file *f, void *ubuf, uint32_t n)
{
	if ((f->flags & O_ACCMODE) == O_WRONLY)
		return -EBADF;
	if (is_pid_file(f->node) && !procfs_pid_node_lives(f->node, f->proc_pid))
		return -ESRCH;			/* exited, or its slot reused */
	if (f->node->procfs == PROCFS_PID_PAGEMAP)
		return procfs_pagemap_read(f, ubuf, n);	/* binary, no text */
	if (f->offset == 0 || !f->text) {
		int err = make_text(f);
		if (err)
			return err;
	}
	if (f->offset >= f->text_len)
		return 0;
	if (n > f->text_len - f->offset)
		n = f->text_len - (uint32_t)f->offset;
	if (copy_to_user(ubuf, f->text + f->offset, n) < 0)
		return -EFAULT;
	f->offset += n;
	return (int)n;
}

/*
 * Only the writable /proc/sys files (0644) take a write, whole at
 * offset 0 (Linux's sysctl_writes_strict: a write further on is ignored). The others answer
 * as Linux's do when root opened them for writing: EINVAL for /proc/PID's
 * (no write method), EIO for /proc's own (proc_reg_write without one).
 */
int procfs_write(struct file *f, const void *ubuf, uint32_t n)
{
	char text[PROCFS_WRITE_MAX];
	if ((f->flags & O_ACCMODE) == O_RDONLY)
		return -EBADF;
	if (!(f->node->perm & 0200))
		return is_pid_file(f->node) ? -EINVAL : -EIO;
	if (f->offset > 0)
		return (int)n;
	if (n >= sizeof(text))
		return -EINVAL;
	if (copy_from_user(text, ubuf, n) < 0)
		return -EFAULT;
	int err = procfs_sys_write(f->node, text, n);
	if (err)
		return err;
	f->offset += n;
	return (int)n;
}

void procfs_release(struct file *f)
{
	kfree(f->text);
	f->text = NULL;
}
