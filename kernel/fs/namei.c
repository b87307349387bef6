/*
 * namei.c - the calls that make, remove, rename and change names and
 * their files: mkdir, rmdir, unlink, rename, link, symlink, chmod, chown,
 * truncate, and O_CREAT's create (kernel/fs/file.c). Only tmpfs
 * (kernel/fs/tmpfs.c) takes them; the initrd answers EROFS, after the
 * walk's own errors and EEXIST, in Linux's order.
 *
 * Permissions as Linux's generic_permission with the effective ids:
 * write and search on the directory to change a name in it; in a sticky
 * directory (/tmp) a name goes only by its file's owner, the directory's
 * owner, or root (EPERM otherwise).
 */
#include "namei.h"
#include "fs.h"
#include "file.h"
#include "tmpfs.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"
#include <uapi/stat.h>

uint32_t fs_fsuid(void)
{
	return (uint32_t)current()->euid;
}

uint32_t fs_new_gid(const struct initrd_file *dir, uint16_t dir_mode)
{
	struct tmpfs_node *t = tmpfs_of(dir);
	return t && (dir_mode & S_ISGID) ? t->gid : (uint32_t)current()->egid;
}

static void owner_of(const struct initrd_file *n, uint32_t *uid, uint32_t *gid, uint32_t *mode)
{
	struct tmpfs_node *t = tmpfs_of(n);
	if (t) {
		*uid = t->uid, *gid = t->gid, *mode = t->mode;
		return;
	}
	*uid = *gid = n->procfs ? (uint32_t)procfs_uid(n) : 0;
	*mode = n->perm | (n->is_dir ? S_IFDIR : 0);
}

int mode_permission(uint32_t uid, uint32_t gid, uint32_t mode, bool is_dir, int mask)
{
	const struct proc *p = current();
	uint32_t bits = (uint32_t)p->euid == uid ? mode >> 6 :
			(uint32_t)p->egid == gid ? mode >> 3 : mode;
	if (!(mask & ~bits & 7))
		return 0;
	/* Linux's generic_permission: CAP_DAC_OVERRIDE may do all but run a
	 * file with no x bit; CAP_DAC_READ_SEARCH read anything and search
	 * any directory. */
	if (proc_capable(p, CAP_DAC_OVERRIDE))
		return (mask & MAY_EXEC) && !is_dir && !(mode & 0111) ? -EACCES : 0;
	uint32_t read_search = MAY_READ | (is_dir ? MAY_EXEC : 0);
	return proc_capable(p, CAP_DAC_READ_SEARCH) && !(mask & ~read_search & 7) ? 0 : -EACCES;
}

int fs_permission(const struct initrd_file *n, int mask)
{
	uint32_t uid, gid, mode;
	owner_of(n, &uid, &gid, &mode);
	return mode_permission(uid, gid, mode, n->is_dir, mask);
}

/* The sticky rule (Linux's may_delete): 0, or -EPERM. */
static int sticky_check(struct tmpfs_node *dir, struct tmpfs_node *victim)
{
	uint32_t uid = fs_fsuid();
	if (!(dir->mode & S_ISVTX) || capable(CAP_FOWNER) || uid == victim->uid || uid == dir->uid)
		return 0;
	return -EPERM;
}

/* Split path at its last name: the directory it is in (walked, links
 * followed) and the name (trailing '/' dropped; "/" gives "."). */
static int walk_parent(int dirfd, char *path, const struct initrd_file **dir, char **name)
{
	size_t len = strlen(path);
	while (len > 1 && path[len - 1] == '/')
		path[--len] = 0;
	char *slash = NULL;
	for (char *c = path; *c; c++)
		if (*c == '/')
			slash = c;
	if (!slash) {
		*name = path;
		return fs_lookup_at(dirfd, ".", dir, true);
	}
	*name = slash[1] ? slash + 1 : (char *)".";
	char save = slash[slash == path];
	slash[slash == path] = 0;		/* "/x": "/"; "a/b": "a" */
	int err = fs_lookup_at(dirfd, path, dir, true);
	slash[slash == path] = save;
	return err;
}

/* The directory to change a name in: tmpfs (else EROFS), searchable and
 * writable by the caller (else EACCES). */
static int may_change(const struct initrd_file *dir, struct tmpfs_node **out)
{
	if (!dir->is_dir)
		return -ENOTDIR;
	int err = fs_permission(dir, MAY_EXEC);
	if (err)
		return err;
	*out = tmpfs_of(dir);
	if (!*out)
		return -EROFS;
	return fs_permission(dir, MAY_WRITE | MAY_EXEC);
}

static bool is_dot(const char *name)
{
	return strcmp(name, ".") == 0 || strcmp(name, "..") == 0;
}

/* The parent and name of a path from user memory, for a new name:
 * EEXIST when it is there, ENAMETOOLONG for a name over 255 bytes. */
static int new_name(int dirfd, char *path, const char **name, struct tmpfs_node **dir)
{
	const struct initrd_file *d, *there;
	char *nm;
	int err = walk_parent(dirfd, path, &d, &nm);
	if (err < 0)
		return err;
	if (strlen(nm) > FS_NAME_MAX)
		return -ENAMETOOLONG;
	if (is_dot(nm) || fs_lookup_at(dirfd, path, &there, false) == 0)
		return -EEXIST;
	*name = nm;
	return may_change(d, dir);
}

/* path's last name is a symbolic link to nothing: path becomes where it
 * points (its text, from the link's directory when relative). */
static int through_link(char *path, const char *target)
{
	char *slash = NULL;
	for (char *c = path; *c; c++)
		if (*c == '/')
			slash = c;
	size_t keep = target[0] == '/' || !slash ? 0 : (size_t)(slash - path) + 1;
	if (keep + strlen(target) + 1 > FS_PATH_MAX)
		return -ENAMETOOLONG;
	memmove(path + keep, target, strlen(target) + 1);
	return 0;
}

int fs_create(int dirfd, char *path, uint32_t mode, const struct initrd_file **out)
{
	const char *name;
	struct tmpfs_node *dir = NULL, *t;
	const struct initrd_file *link;
	/* O_CREAT follows a last link that names nothing: Linux makes its target */
	for (int hops = 0; fs_lookup_at(dirfd, path, &link, false) == 0 && link->symlink; hops++) {
		int err = hops == INITRD_MAX_LINKS ? -ELOOP : through_link(path, link->symlink);
		if (err)
			return err;
	}
	int err = new_name(dirfd, path, &name, &dir);
	if (err < 0)
		return err;
	uint32_t umask = current()->fs->umask;
	err = tmpfs_create(dir, name, (uint16_t)(S_IFREG | (mode & 07777 & ~umask)), NULL, &t);
	if (err == 0)
		*out = &t->n;
	return err;
}

static int copy_path(const char *upath, char *path)
{
	int err = strncpy_from_user(path, upath, FS_PATH_MAX);
	return err < 0 ? err : 0;
}

int sys_mkdirat(int dirfd, const char *upath, uint32_t mode)
{
	char path[FS_PATH_MAX];
	const char *name;
	struct tmpfs_node *dir = NULL, *t;
	int err = copy_path(upath, path);
	if (err || (err = new_name(dirfd, path, &name, &dir)) < 0)
		return err;
	uint32_t umask = current()->fs->umask;
	return tmpfs_create(dir, name, (uint16_t)(S_IFDIR | (mode & 07777 & ~umask)), NULL, &t);
}

/* bind() of an AF_UNIX socket to path (kernel memory, changed): a new
 * socket file of mode & ~umask, held, as Linux's mknod(S_IFSOCK). EEXIST
 * when the name is there (no link followed). */
int fs_mksock(char *path, uint32_t mode, const struct initrd_file **out)
{
	const char *name;
	struct tmpfs_node *dir = NULL, *t;
	int err = new_name(AT_FDCWD, path, &name, &dir);
	if (err < 0)
		return err;
	uint32_t umask = current()->fs->umask;
	err = tmpfs_create(dir, name, (uint16_t)(S_IFSOCK | (mode & 07777 & ~umask)), NULL, &t);
	if (err == 0 && (err = tmpfs_hold(&t->n)) == 0)
		*out = &t->n;
	return err;
}

/* A bind that lost (the socket was bound meanwhile): its file goes. */
void fs_mksock_undo(char *path)
{
	const struct initrd_file *d;
	struct tmpfs_node *dir;
	char *name;
	if (walk_parent(AT_FDCWD, path, &d, &name) == 0 && may_change(d, &dir) == 0)
		(void)tmpfs_remove(dir, name, false, sticky_check);
}

bool fs_is_socket(const struct initrd_file *n)
{
	const struct tmpfs_node *t = tmpfs_of(n);
	return t && (t->mode & S_IFMT) == S_IFSOCK;
}

int sys_mkdir(const char *upath, uint32_t mode)
{
	return sys_mkdirat(AT_FDCWD, upath, mode);
}

/* unlink, unlinkat and rmdir: the name must be there (ENOENT), "." is
 * EINVAL and ".." ENOTEMPTY for rmdir, a directory EISDIR for unlink. */
/* path (FS_PATH_MAX bytes, changed) unlinked or, with rmdir, removed. */
static int remove_path(int dirfd, char *path, bool rmdir)
{
	const struct initrd_file *d, *victim;
	struct tmpfs_node *dir = NULL;
	char *name;
	int err = walk_parent(dirfd, path, &d, &name);
	if (err < 0)
		return err;
	if (strlen(name) > FS_NAME_MAX)
		return -ENAMETOOLONG;
	if (rmdir && is_dot(name))
		return name[1] ? -ENOTEMPTY : -EINVAL;
	if ((err = fs_lookup_at(dirfd, path, &victim, false)) < 0)
		return err;
	if (!rmdir && victim->is_dir)
		return -EISDIR;
	if (rmdir && !victim->is_dir)
		return -ENOTDIR;
	if ((err = may_change(d, &dir)) < 0)
		return err;
	return tmpfs_remove(dir, name, rmdir, sticky_check);
}

static int remove_name(int dirfd, const char *upath, bool rmdir)
{
	char path[FS_PATH_MAX];
	int err = copy_path(upath, path);
	return err ? err : remove_path(dirfd, path, rmdir);
}

int fs_unlink_kernel(int dirfd, char *path)
{
	return remove_path(dirfd, path, false);
}

int sys_unlinkat(int dirfd, const char *upath, int flags)
{
	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	return remove_name(dirfd, upath, flags & AT_REMOVEDIR);
}

int sys_unlink(const char *upath)
{
	return remove_name(AT_FDCWD, upath, false);
}

int sys_rmdir(const char *upath)
{
	return remove_name(AT_FDCWD, upath, true);
}

int sys_renameat2(int olddirfd, const char *uold, int newdirfd, const char *unew, uint32_t flags)
{
	char opath[FS_PATH_MAX], npath[FS_PATH_MAX];
	const struct initrd_file *od, *nd, *src;
	struct tmpfs_node *odir = NULL, *ndir = NULL;
	char *oname, *nname;
	if ((flags & ~(uint32_t)(RENAME_NOREPLACE | RENAME_EXCHANGE)) ||
	    (flags & RENAME_NOREPLACE && flags & RENAME_EXCHANGE))
		return -EINVAL;			/* RENAME_WHITEOUT is overlayfs's: not here */
	int err = copy_path(uold, opath);
	if (err || (err = copy_path(unew, npath)) < 0)
		return err;
	if ((err = fs_lookup_at(olddirfd, opath, &src, false)) < 0)
		return err;
	if ((err = walk_parent(olddirfd, opath, &od, &oname)) < 0 ||
	    (err = walk_parent(newdirfd, npath, &nd, &nname)) < 0)
		return err;
	if (strlen(nname) > FS_NAME_MAX)
		return -ENAMETOOLONG;
	if (is_dot(oname) || is_dot(nname))
		return -EBUSY;
	if ((err = may_change(od, &odir)) < 0 || (err = may_change(nd, &ndir)) < 0)
		return err;
	return tmpfs_rename(odir, oname, ndir, nname, flags, sticky_check);
}

int sys_renameat(int olddirfd, const char *uold, int newdirfd, const char *unew)
{
	return sys_renameat2(olddirfd, uold, newdirfd, unew, 0);
}

int sys_rename(const char *uold, const char *unew)
{
	return sys_renameat2(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

int sys_linkat(int olddirfd, const char *uold, int newdirfd, const char *unew, int flags)
{
	char opath[FS_PATH_MAX], npath[FS_PATH_MAX];
	const struct initrd_file *src;
	const char *name;
	struct tmpfs_node *dir = NULL;
	if (flags & ~AT_SYMLINK_FOLLOW)
		return -EINVAL;
	int err = copy_path(uold, opath);
	if (err || (err = copy_path(unew, npath)) < 0)
		return err;
	if ((err = fs_lookup_at(olddirfd, opath, &src, flags & AT_SYMLINK_FOLLOW)) < 0)
		return err;
	if (src->is_dir)
		return -EPERM;			/* no hard links to directories */
	if ((err = new_name(newdirfd, npath, &name, &dir)) < 0)
		return err;
	if (!tmpfs_of(src))
		return -EXDEV;
	return tmpfs_link(dir, name, tmpfs_of(src));
}

int sys_link(const char *uold, const char *unew)
{
	return sys_linkat(AT_FDCWD, uold, AT_FDCWD, unew, 0);
}

int sys_symlinkat(const char *utarget, int dirfd, const char *upath)
{
	char target[FS_PATH_MAX], path[FS_PATH_MAX];
	const char *name;
	struct tmpfs_node *dir = NULL, *t;
	int err = copy_path(utarget, target);
	if (err || (err = copy_path(upath, path)) < 0)
		return err;
	if (!target[0])
		return -ENOENT;
	if ((err = new_name(dirfd, path, &name, &dir)) < 0)
		return err;
	return tmpfs_create(dir, name, S_IFLNK | 0777, target, &t);
}

int sys_symlink(const char *utarget, const char *upath)
{
	return sys_symlinkat(utarget, AT_FDCWD, upath);
}

/* ---- attributes ---- */

/* chmod: the owner or root; the initrd EROFS. */
static int chmod_node(const struct initrd_file *n, uint32_t mode)
{
	struct tmpfs_node *t = tmpfs_of(n);
	if (!t)
		return -EROFS;
	if (fs_fsuid() != 0 && fs_fsuid() != t->uid)
		return -EPERM;
	tmpfs_set_attr(t, (int)(mode & 07777), -1, -1);
	return 0;
}

/* chown: root only, or the owner giving its file to a group it is in
 * (its own: no supplementary groups here). -1 keeps an id. */
static int chown_node(const struct initrd_file *n, uint32_t uid, uint32_t gid)
{
	struct tmpfs_node *t = tmpfs_of(n);
	if (!t)
		return -EROFS;
	bool root = fs_fsuid() == 0;
	if (!root && ((uid != (uint32_t)-1 && uid != t->uid) || fs_fsuid() != t->uid ||
		      (gid != (uint32_t)-1 && gid != (uint32_t)current()->egid)))
		return -EPERM;
	tmpfs_set_attr(t, -1, uid == (uint32_t)-1 ? -1 : (int64_t)uid,
		       gid == (uint32_t)-1 ? -1 : (int64_t)gid);
	return 0;
}

static int lookup_user(int dirfd, const char *upath, bool follow, const struct initrd_file **n)
{
	char path[FS_PATH_MAX];
	int err = copy_path(upath, path);
	return err < 0 ? err : fs_lookup_at(dirfd, path, n, follow);
}

int sys_fchmodat(int dirfd, const char *upath, uint32_t mode)
{
	const struct initrd_file *n;
	int err = lookup_user(dirfd, upath, true, &n);
	return err < 0 ? err : chmod_node(n, mode);
}

int sys_chmod(const char *upath, uint32_t mode)
{
	return sys_fchmodat(AT_FDCWD, upath, mode);
}

int sys_fchmod(int fd, uint32_t mode)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = r.file->node ? chmod_node(r.file->node, mode) : -EPERM;
	fd_done(r);
	return err;
}

int sys_fchownat(int dirfd, const char *upath, uint32_t uid, uint32_t gid, int flags)
{
	const struct initrd_file *n;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	int err = lookup_user(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n);
	return err < 0 ? err : chown_node(n, uid, gid);
}

int sys_chown32(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, 0);
}

int sys_lchown32(const char *upath, uint32_t uid, uint32_t gid)
{
	return sys_fchownat(AT_FDCWD, upath, uid, gid, AT_SYMLINK_NOFOLLOW);
}

int sys_fchown32(int fd, uint32_t uid, uint32_t gid)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = r.file->node ? chown_node(r.file->node, uid, gid) : -EPERM;
	fd_done(r);
	return err;
}

/* truncate: a regular file the caller may write. */
static int truncate_node(const struct initrd_file *n, int64_t size)
{
	if (size < 0)
		return -EINVAL;
	if (n->is_dir)
		return -EISDIR;
	int err = fs_permission(n, MAY_WRITE);
	if (err)
		return err;
	if (!tmpfs_of(n))
		return n->rdev ? 0 : -EROFS;
	if (n->symlink)
		return -EINVAL;
	if ((err = tmpfs_get_write(tmpfs_of(n))) < 0)
		return err;			/* a running program's: ETXTBSY */
	err = tmpfs_truncate(tmpfs_of(n), (uint64_t)size);
	tmpfs_put_write(tmpfs_of(n));
	return err;
}

int sys_truncate64(const char *upath, uint32_t lo, uint32_t hi)
{
	const struct initrd_file *n;
	int err = lookup_user(AT_FDCWD, upath, true, &n);
	return err < 0 ? err : truncate_node(n, (int64_t)((uint64_t)hi << 32 | lo));
}

int sys_truncate(const char *upath, int32_t size)
{
	return sys_truncate64(upath, (uint32_t)size, size < 0 ? 0xFFFFFFFFu : 0);
}

/* ftruncate: on a descriptor open for writing (EINVAL otherwise, as Linux). */
static int ftruncate_file(const struct file *f, int64_t size)
{
	if (!f->node || f->node->is_dir || (f->flags & O_ACCMODE) == O_RDONLY)
		return -EINVAL;
	if (size < 0)
		return -EINVAL;
	if (!tmpfs_of(f->node))
		return f->node->rdev ? 0 : -EINVAL;
	return tmpfs_truncate(tmpfs_of(f->node), (uint64_t)size);
}

int sys_ftruncate64(int fd, uint32_t lo, uint32_t hi)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int err = ftruncate_file(r.file, (int64_t)((uint64_t)hi << 32 | lo));
	fd_done(r);
	return err;
}

int sys_ftruncate(int fd, int32_t size)
{
	return sys_ftruncate64(fd, (uint32_t)size, size < 0 ? 0xFFFFFFFFu : 0);
}

/* ---- utimensat ---- */

#define UTIME_NOW	((1l << 30) - 1)	/* linux/stat.h */
#define UTIME_OMIT	((1l << 30) - 2)

/* Two times as the caller gave them (NULL: both now) into a and m (NULL:
 * omitted); how many are set to something other than now. EINVAL for a
 * bad nanosecond field, as Linux. */
static int utime_args(const int64_t ts[4], struct tmpfs_time *a, struct tmpfs_time *m,
		      bool *keep_a, bool *keep_m, bool *explicit)
{
	struct tmpfs_time now = tmpfs_now();
	*keep_a = *keep_m = *explicit = false;
	*a = *m = now;
	if (!ts)
		return 0;
	for (int i = 0; i < 2; i++) {
		int64_t sec = ts[2 * i], nsec = ts[2 * i + 1];
		struct tmpfs_time *t = i ? m : a;
		bool *keep = i ? keep_m : keep_a;
		if (nsec == UTIME_OMIT)
			*keep = true;
		else if (nsec == UTIME_NOW)
			*t = now;
		else if (nsec < 0 || nsec > 999999999)
			return -EINVAL;
		else
			*t = (struct tmpfs_time){ sec, (uint32_t)nsec }, *explicit = true;
	}
	return 0;
}

/* Linux's vfs_utimes: times of one's choosing need the owner (or root,
 * EPERM else); "now" also the right to write (EACCES). */
static int utimes_node(const struct initrd_file *n, const int64_t ts[4])
{
	struct tmpfs_time a, m;
	bool keep_a, keep_m, explicit;
	int err = utime_args(ts, &a, &m, &keep_a, &keep_m, &explicit);
	if (err)
		return err;
	struct tmpfs_node *t = tmpfs_of(n);
	if (!t)
		return -EROFS;
	if (keep_a && keep_m)
		return 0;
	bool owner = fs_fsuid() == 0 || fs_fsuid() == t->uid;
	if (!owner && explicit)
		return -EPERM;
	if (!owner && fs_permission(n, MAY_WRITE))
		return -EACCES;
	tmpfs_set_times(t, keep_a ? NULL : &a, keep_m ? NULL : &m);
	return 0;
}

static int utimensat(int dirfd, const char *upath, const int64_t *ts, int flags)
{
	const struct initrd_file *n;
	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if (!upath && dirfd == AT_FDCWD)
		return -EFAULT;
	if (!upath) {				/* futimens: dirfd is the file */
		if (flags & AT_SYMLINK_NOFOLLOW)
			return -EINVAL;
		struct fd_ref r = fd_use(dirfd);
		if (!r.file)
			return -EBADF;
		int err = r.file->node ? utimes_node(r.file->node, ts) : -EROFS;
		fd_done(r);
		return err;
	}
	int err = lookup_user(dirfd, upath, !(flags & AT_SYMLINK_NOFOLLOW), &n);
	return err < 0 ? err : utimes_node(n, ts);
}

/* utimensat (320): two 32-bit timespecs; utimensat_time64 (412): 64-bit. */
int sys_utimensat(int dirfd, const char *upath, const int32_t *uts, int flags)
{
	int32_t t32[4];
	int64_t ts[4];
	if (uts && copy_from_user(t32, uts, sizeof(t32)) < 0)
		return -EFAULT;
	for (int i = 0; i < 4; i++)
		ts[i] = t32[i];
	return utimensat(dirfd, upath, uts ? ts : NULL, flags);
}

int sys_utimensat_time64(int dirfd, const char *upath, const int64_t *uts, int flags)
{
	int64_t ts[4];
	if (uts && copy_from_user(ts, uts, sizeof(ts)) < 0)
		return -EFAULT;
	return utimensat(dirfd, upath, uts ? ts : NULL, flags);
}

/* fsync, fdatasync: RAM is as synced as it gets. */
int sys_fsync(int fd)
{
	return fd_file(fd) ? 0 : -EBADF;
}
