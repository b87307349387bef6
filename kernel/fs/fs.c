/*
 * fs.c - the calls on paths and directories: chdir, getcwd, getdents64,
 * and the path walk every call that names a file goes through (open,
 * execve, the stat calls of kernel/fs/stat.c too).
 *
 * The tree is the initrd (kernel/fs/initrd.c), read-only, with tmpfs
 * mounted on some of its directories (kernel/fs/mount.c); a working
 * directory is a node of it, held (node_hold), and getcwd spells its
 * path from its names up (mount_path). getdents64's records are Linux
 * i386's (linux/dirent.h's linux_dirent64), so glibc's and Debian's
 * programs read them unchanged.
 */
#include "fs.h"
#include <uapi/stat.h>	/* S_IF* */
#include "lib/errno.h"
#include "file.h"
#include "kernel/task/proc.h"
#include "kernel/fs/proc/procfs.h"
#include "mount.h"
#include "namei.h"
#include "tmpfs.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/arch/maxcpus.h"
#include "lib/objcache.h"
#include "kernel/mm/uaccess.h"

#include <uapi/dirent.h>	/* struct linux_dirent64, DT_* */

static const struct initrd_file *cwd_of(const struct proc *p)
{
	const struct initrd_file *cwd = p->fs->cwd;
	return cwd ? cwd : initrd_root();
}

int fs_lookup(const struct proc *p, const char *path, const struct initrd_file **out)
{
	return initrd_resolve(cwd_of(p), path, out);
}

/* Where a relative path given with dirfd starts (the *at() calls): the
 * working directory for AT_FDCWD, else the directory open on dirfd. The
 * file is held in *r for the walk (fd_use), so another thread's close
 * cannot free it, and with it the start directory, under the walk. */
static int dirfd_start(int dirfd, const struct initrd_file **start, struct fd_ref *r)
{
	if (dirfd == AT_FDCWD) {
		*start = cwd_of(current());
		return 0;
	}
	*r = fd_use(dirfd);
	if (!r->file)
		return -EBADF;
	if (r->file->type != FT_INITRD || !r->file->node->is_dir)
		return -ENOTDIR;
	*start = r->file->node;
	return 0;
}

int fs_lookup_at(int dirfd, const char *path, const struct initrd_file **out, bool follow)
{
	const struct initrd_file *start = initrd_root();
	struct fd_ref r = { 0 };
	int err = path[0] == '/' ? 0 : dirfd_start(dirfd, &start, &r);
	if (err == 0)
		err = initrd_resolve_at(start, path, out, follow);
	if (r.file)
		fd_done(r);
	return err;
}

int fs_lookup_user(const char *upath, const struct initrd_file **out)
{
	char path[FS_PATH_MAX];
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	return fs_lookup(current(), path, out);
}

/* The working directory becomes node: a directory the caller may search. */
static int set_cwd(const struct initrd_file *node)
{
	if (!node->is_dir)
		return -ENOTDIR;
	int err = fs_permission(node, MAY_EXEC);
	if (err)
		return err;
	err = node_hold(node);		/* a /proc/PID or tmpfs directory: kept while here */
	if (err)
		return err;
	node_drop(__atomic_exchange_n(&current()->fs->cwd, node,
					     __ATOMIC_ACQ_REL));
	return 0;
}

int sys_chdir(const char *upath)
{
	const struct initrd_file *node;
	int err = fs_lookup_user(upath, &node);
	return err < 0 ? err : set_cwd(node);
}

/* fchdir (133): to the directory open on fd (find goes back so). */
int sys_fchdir(int fd)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = r.file->node ? set_cwd(r.file->node) : -ENOTDIR;
	fd_done(r);
	return err;
}

int sys_umask(uint32_t mask)
{
	struct fs_struct *fs = current()->fs;
	return (int)__atomic_exchange_n(&fs->umask, mask & 0777, __ATOMIC_RELAXED);
}

/* ---- the fs information of a process -------------------------------------- */

/* Each CPU keeps its last freed ones for its next fork (lib/objcache.h):
 * every fork makes one and every exit frees one, and the heap's lists
 * cost twice as much (make profile). */
static struct objcache fs_caches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = OBJCACHE_INIT("fs cache")
};

static struct fs_struct *fs_alloc(void)
{
	struct fs_struct *fs = objcache_take(&fs_caches[this_cpu()]);
	return fs ? fs : kmalloc(sizeof(*fs));
}

static void fs_free(struct fs_struct *fs)
{
	if (!objcache_keep(&fs_caches[this_cpu()], fs))
		kfree(fs);
}

void fs_drain_caches(void)
{
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		void *objs[OBJCACHE_MAX];
		int n = objcache_empty(&fs_caches[cpu], objs);
		for (int i = 0; i < n; i++)
			kfree(objs[i]);
	}
}

int fs_init(struct proc *p)
{
	p->fs = fs_alloc();
	if (!p->fs)
		return -ENOMEM;
	*p->fs = (struct fs_struct){ .users = 1, .umask = INIT_UMASK, .cwd = NULL };
	return 0;
}

/* A copy of from: its directory held (another process that shares from
 * may chdir meanwhile, and then the new one is held); NULL if no memory. */
static struct fs_struct *fs_copy(struct fs_struct *from)
{
	struct fs_struct *fs = fs_alloc();
	if (!fs)
		return NULL;
	fs->users = 1;
	fs->umask = __atomic_load_n(&from->umask, __ATOMIC_RELAXED);
	do
		fs->cwd = __atomic_load_n(&from->cwd, __ATOMIC_ACQUIRE);
	while (node_hold(fs->cwd) != 0);
	return fs;
}

int copy_fs(struct proc *child, struct proc *parent, bool share)
{
	if (share) {
		__atomic_add_fetch(&parent->fs->users, 1, __ATOMIC_RELAXED);
		child->fs = parent->fs;
		return 0;
	}
	child->fs = fs_copy(parent->fs);
	return child->fs ? 0 : -ENOMEM;
}

void fs_put(struct fs_struct *fs)
{
	if (__atomic_sub_fetch(&fs->users, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	node_drop(fs->cwd);
	fs_free(fs);
}

int fs_unshare(struct proc *p)
{
	struct fs_struct *old = p->fs;
	if (__atomic_load_n(&old->users, __ATOMIC_ACQUIRE) == 1)
		return 0;
	struct fs_struct *fs = fs_copy(old);
	if (!fs)
		return -ENOMEM;
	task_lock(p);
	p->fs = fs;
	task_unlock(p);
	fs_put(old);
	return 0;
}

const struct initrd_file *fs_cwd_of(struct proc *p)
{
	task_lock(p);
	const struct initrd_file *cwd = p->fs ? p->fs->cwd : NULL;
	task_unlock(p);
	return cwd ? cwd : initrd_root();
}

/* Linux returns the length with its NUL; ERANGE when size is too small. */
int sys_getcwd(char *ubuf, uint32_t size)
{
	char path[FS_PATH_MAX];
	int n = mount_path(cwd_of(current()), path, sizeof(path));
	if (n < 0)
		return n;			/* ENOENT: removed (Linux: ENOENT too) */
	uint32_t len = (uint32_t)n + 1;
	if (size < len)
		return -ERANGE;
	if (copy_to_user(ubuf, path, len) < 0)
		return -EFAULT;
	return (int)len;
}

/* ---- getdents64 ------------------------------------------------------------ */

/*
 * A directory's offset counts "." (0), ".." (1), then 2 + the table index
 * to scan from next, so a listing resumed by a second call (or after
 * lseek to a d_off) carries on where it stopped.
 */
static const struct initrd_file *entry_at(const struct initrd_file *dir, uint32_t off,
					  const char **name, uint32_t *next, char *buf)
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
	if (tmpfs_of(dir)) {			/* names by cookie: see tmpfs_readdir */
		const struct initrd_file *f = tmpfs_readdir(dir, &off, buf);
		*name = buf;
		*next = off;
		return f;
	}
	uint32_t pos = off - 2;
	const struct initrd_file *f = initrd_next_child(dir, &pos);
	*next = pos + 2;
	if (f)
		*name = initrd_name(f);
	return f;
}

static int getdents_file(struct file *f, void *udirp, uint32_t count)
{
	char rec[sizeof(struct linux_dirent64) + FS_NAME_MAX + 8], namebuf[FS_NAME_MAX + 1];
	uint32_t done = 0;

	if (f->type != FT_INITRD || !f->node->is_dir)
		return -ENOTDIR;
	for (;;) {
		const char *name;
		uint32_t next;
		if (f->offset > UINT32_MAX)	/* lseek'd past every entry */
			break;
		const struct initrd_file *e = entry_at(f->node, (uint32_t)f->offset, &name, &next,
						       namebuf);
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
		d->d_type = e->is_dir ? DT_DIR : e->rdev ? DT_CHR :
			    (e->symlink || e->magic) ? DT_LNK : DT_REG;
		memcpy(d->d_name, name, len + 1);
		if (copy_to_user((char *)udirp + done, rec, reclen) < 0)
			return -EFAULT;
		done += reclen;
		f->offset = next;
	}
	return (int)done;
}

int sys_getdents64(int fd, void *udirp, uint32_t count)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int done = getdents_file(r.file, udirp, count);
	fd_done(r);
	return done;
}
