/*
 * mount.c - the mount table: tmpfs on directories of the tree
 * (kernel/fs/mount.h), mount(2), umount2(2), statfs(2) and /proc/mounts.
 *
 * At boot / stays the initrd, read-only, as Linux keeps its initramfs'
 * files; /tmp and /dev/shm get a tmpfs each with systemd's options
 * (mode=1777, nosuid, nodev, strictatime, half the RAM); /root and
 * /home/student get a tmpfs each, owned by root (0700) and by student
 * (uid 1000, 0755). A tmpfs over them rather than an overlay of the
 * initrd: the initrd has nothing under either to show through, so an
 * overlay's copy-up would buy nothing and cost a second kind of node.
 *
 * mount_lock guards the table and the nodes' mounted counts.
 */
#include "mount.h"
#include "fs.h"
#include "file.h"
#include "tmpfs.h"
#include "lib/errno.h"
#include "lib/format.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/debug/printk.h"
#include "kernel/fs/proc/procfs.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"
#include <uapi/stat.h>

#define RAMFS_MAGIC	0x858458f6	/* the initrd: Linux's initramfs without tmpfs */
#define MOUNT_SOURCE_MAX 32
#define MOUNT_OPTS_MAX	256		/* mount(2)'s data: one page on Linux */

struct mount {
	const struct initrd_file *point;	/* NULL: a free slot */
	struct tmpfs_sb *sb;
	uint32_t flags;				/* MS_NOSUID... as /proc/mounts shows them */
	bool size_given, inodes_given;		/* shown in /proc/mounts, as Linux does */
	char source[MOUNT_SOURCE_MAX];
	char *path;				/* the mount point's, at mount time (kmalloc) */
};

static struct mount mounts[MOUNT_MAX];
static struct spinlock mount_lock = SPINLOCK_INIT("mount");

const struct initrd_file *mount_cross(const struct initrd_file *point)
{
	while (point->mounted) {
		const struct initrd_file *root = NULL;
		spin_lock(&mount_lock);
		for (int i = MOUNT_MAX - 1; i >= 0 && !root; i--)
			if (mounts[i].point == point)
				root = &mounts[i].sb->root->n;
		spin_unlock(&mount_lock);
		if (!root)
			break;
		point = root;
	}
	return point;
}

const struct initrd_file *mount_point_of(const struct initrd_file *root)
{
	const struct initrd_file *point = NULL;
	spin_lock(&mount_lock);
	for (int i = 0; i < MOUNT_MAX; i++)
		if (mounts[i].point && &mounts[i].sb->root->n == root)
			point = mounts[i].point;
	spin_unlock(&mount_lock);
	return point;
}

/* The mount a node is in, or NULL (the initrd, /proc). Under mount_lock. */
static struct mount *mount_of(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	for (int i = 0; t && i < MOUNT_MAX; i++)
		if (mounts[i].point && mounts[i].sb == t->sb)
			return &mounts[i];
	return NULL;
}

/* ---- options: "size=64m,mode=1777,uid=0,gid=0,nr_inodes=1k" ---- */

struct tmpfs_opts {
	uint32_t pages, inodes, mode, uid, gid;
	bool size_given, inodes_given;
};

/* A number with a k, m, g or % suffix (size=50%: of RAM), in bytes or as is. */
static bool parse_size(const char *s, uint64_t *out, bool percent_ok)
{
	uint64_t v = 0;
	if (!*s)
		return false;
	for (; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uint64_t)(*s - '0');
	if (*s == 'k' || *s == 'K')
		v <<= 10, s++;
	else if (*s == 'm' || *s == 'M')
		v <<= 20, s++;
	else if (*s == 'g' || *s == 'G')
		v <<= 30, s++;
	else if (*s == '%' && percent_ok)
		v = (uint64_t)pmm_total_count() * 4096 * v / 100, s++;
	*out = v;
	return *s == 0;
}

static bool parse_num(const char *s, int base, uint32_t *out)
{
	uint32_t v = 0;
	if (!*s)
		return false;
	for (; *s; s++) {
		int d = *s - '0';
		if (d < 0 || d >= base)
			return false;
		v = v * (uint32_t)base + (uint32_t)d;
	}
	*out = v;
	return true;
}

/* One "key=value" of the options: 0, or -EINVAL (Linux's answer for an
 * unknown or bad parameter). */
static int parse_opt(char *opt, struct tmpfs_opts *o)
{
	char *val = opt;
	while (*val && *val != '=')
		val++;
	if (*val)
		*val++ = 0;
	uint64_t v;
	if (strcmp(opt, "size") == 0 && parse_size(val, &v, true)) {
		o->pages = (uint32_t)((v + 4095) / 4096);
		o->size_given = true;
	} else if (strcmp(opt, "mode") == 0 && parse_num(val, 8, &o->mode) && o->mode <= 07777) {
	} else if (strcmp(opt, "uid") == 0 && parse_num(val, 10, &o->uid)) {
	} else if (strcmp(opt, "gid") == 0 && parse_num(val, 10, &o->gid)) {
	} else if (strcmp(opt, "nr_inodes") == 0 && parse_size(val, &v, false) && v > 0 &&
		   v <= UINT32_MAX) {
		o->inodes = (uint32_t)v;
		o->inodes_given = true;
	} else if (strcmp(opt, "inode64") == 0 || strcmp(opt, "inode32") == 0) {
	} else {
		return -EINVAL;
	}
	return 0;
}

static int parse_opts(char *data, struct tmpfs_opts *o)
{
	/* Linux's defaults: half the RAM, and as many nodes as it has pages */
	*o = (struct tmpfs_opts){ .pages = pmm_total_count() / 2, .inodes = pmm_total_count() / 2,
				  .mode = 01777 };
	while (data && *data) {
		char *end = data;
		while (*end && *end != ',')
			end++;
		bool last = !*end;
		*end = 0;
		int err = parse_opt(data, o);
		if (err)
			return err;
		data = last ? NULL : end + 1;
	}
	return 0;
}

/* ---- mounting ---- */

static int mount_tmpfs(const struct initrd_file *point, const char *path, const char *source,
		       uint32_t flags, char *data)
{
	struct tmpfs_opts o;
	int err = parse_opts(data, &o);
	if (err)
		return err;
	struct tmpfs_sb *sb = tmpfs_new(o.pages, o.inodes, (uint16_t)o.mode, o.uid, o.gid);
	char *copy = kmalloc(strlen(path) + 1);
	if (!sb || !copy) {
		if (sb)
			tmpfs_kill(sb);
		kfree(copy);
		return -ENOMEM;
	}
	strlcpy(copy, path, strlen(path) + 1);
	err = -ENOMEM;				/* Linux: the table is not limited; ours is */
	spin_lock(&mount_lock);
	for (int i = 0; i < MOUNT_MAX; i++)
		if (!mounts[i].point) {
			mounts[i] = (struct mount){ .point = point, .sb = sb, .path = copy,
				.flags = flags & (MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_NOATIME |
						  MS_RDONLY | MS_STRICTATIME),
				.size_given = o.size_given, .inodes_given = o.inodes_given };
			strlcpy(mounts[i].source, source, sizeof(mounts[i].source));
			((struct initrd_file *)point)->mounted++;
			err = 0;
			break;
		}
	spin_unlock(&mount_lock);
	if (err) {
		tmpfs_kill(sb);
		kfree(copy);
	}
	return err;
}

/* A directory the kernel makes and mounts at boot. */
static void boot_mount(const char *path, const char *opts, uint32_t flags)
{
	char data[64];
	const struct initrd_file *point;
	initrd_add_dir(path);
	strlcpy(data, opts, sizeof(data));
	if (initrd_resolve(NULL, path, &point) < 0 || mount_tmpfs(point, path, "tmpfs", flags, data))
		pr_warn("mount: %s: tmpfs not mounted\n", path);
}

void mount_init(void)
{
	boot_mount("/tmp", "mode=1777", MS_NOSUID | MS_NODEV | MS_STRICTATIME);
	/* POSIX shared memory (shm_open, sem_open): files here, mapped
	 * MAP_SHARED (kernel/mm/filemap.c). */
	boot_mount("/dev/shm", "mode=1777", MS_NOSUID | MS_NODEV | MS_STRICTATIME);
	boot_mount("/root", "mode=0700", MS_NOSUID | MS_NODEV | MS_STRICTATIME);
	boot_mount("/home/student", "mode=0755,uid=1000,gid=1000",
		   MS_NOSUID | MS_NODEV | MS_STRICTATIME);
}

/* mount (21): tmpfs only, by root. Linux's order: EPERM, then the
 * target's walk, then the type. */
int sys_mount(const char *usource, const char *utarget, const char *utype,
	      uint32_t flags, const void *udata)
{
	char target[FS_PATH_MAX], type[16], source[MOUNT_SOURCE_MAX] = "none";
	char opts[MOUNT_OPTS_MAX];
	const struct initrd_file *point;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	int err = strncpy_from_user(target, utarget, sizeof(target));
	if (err < 0)
		return err;
	if (usource && (err = strncpy_from_user(source, usource, sizeof(source))) < 0)
		return err;
	opts[0] = 0;
	if (udata && (err = strncpy_from_user(opts, udata, sizeof(opts))) < 0)
		return err;
	if ((flags & MS_MGC_MSK) == MS_MGC_VAL)
		flags &= ~MS_MGC_MSK;
	if ((err = fs_lookup_at(AT_FDCWD, target, &point, true)) < 0)
		return err;
	if (flags & (MS_REMOUNT | MS_BIND | MS_MOVE))
		return -EINVAL;			/* not kept here */
	if (!utype || (err = strncpy_from_user(type, utype, sizeof(type))) < 0)
		return !utype ? -EINVAL : err;
	if (strcmp(type, "tmpfs") != 0)
		return -ENODEV;			/* a type the kernel does not know */
	if (!point->is_dir)
		return -ENOTDIR;
	char path[FS_PATH_MAX];
	if (mount_path(point, path, sizeof(path)) < 0)
		return -ENAMETOOLONG;
	return mount_tmpfs(point, path, source, flags, opts);
}

/* umount2 (52): by root, of a mount's root; EBUSY while anything in it is
 * open, a working directory or a mount point. */
int sys_umount2(const char *utarget, int flags)
{
	char target[FS_PATH_MAX];
	const struct initrd_file *root;
	if (!capable(CAP_SYS_ADMIN))
		return -EPERM;
	if (flags & ~(MNT_FORCE | MNT_DETACH | MNT_EXPIRE | UMOUNT_NOFOLLOW))
		return -EINVAL;
	int err = strncpy_from_user(target, utarget, sizeof(target));
	if (err < 0)
		return err;
	if ((err = fs_lookup_at(AT_FDCWD, target, &root, !(flags & UMOUNT_NOFOLLOW))) < 0)
		return err;
	struct tmpfs_node *t = tmpfs_of(root);
	if (!t || t->sb->root != t)
		return -EINVAL;			/* not a mount's root */
	if (root->mounted)
		return -EBUSY;
	spin_lock(&mount_lock);
	struct mount *m = mount_of(root), gone = { 0 };
	if (m && tmpfs_kill(m->sb) == 0) {
		((struct initrd_file *)m->point)->mounted--;
		gone = *m;
		*m = (struct mount){ 0 };
	}
	spin_unlock(&mount_lock);
	if (!gone.point)
		return m ? -EBUSY : -EINVAL;
	kfree(gone.path);
	return 0;
}

/* ---- paths and /proc/mounts ---- */

#define DELETED	" (deleted)"	/* Linux's d_path after an unlinked file's name */

/* The absolute path of node n: the tree's own, or a tmpfs node's names
 * up to its mount, after its mount point's path; an unlinked file's with
 * DELETED. */
int mount_path(const struct initrd_file *n, char *buf, uint32_t size)
{
	char name[FS_NAME_MAX + 1];
	uint32_t len = 0;
	int deleted = 0;
	buf[0] = 0;
	while (tmpfs_of(n)) {
		const struct initrd_file *up = tmpfs_parent(n);
		if (!up) {			/* a mount's root */
			n = mount_point_of(n);
			if (!n)
				return -ENOENT;	/* unmounted while we looked */
			continue;
		}
		int named = tmpfs_name_in(up, n, name);
		if (named < 0)
			return -ENOENT;
		deleted |= named;
		uint32_t k = (uint32_t)strlen(name);
		if (len + k + 2 > size)
			return -ENAMETOOLONG;
		memmove(buf + k + 1, buf, len + 1);
		buf[0] = '/';
		memcpy(buf + 1, name, k);
		len += k + 1;
		n = up;
	}
	uint32_t base = strcmp(n->path, "/") == 0 && len ? 0 : (uint32_t)strlen(n->path);
	uint32_t tail = deleted ? sizeof(DELETED) - 1 : 0;
	if (base + len + tail + 1 > size)
		return -ENAMETOOLONG;
	memmove(buf + base, buf, len + 1);
	memcpy(buf, n->path, base);
	if (deleted)
		memcpy(buf + base + len, DELETED, sizeof(DELETED));
	return (int)(base + len + tail);
}

/* A mount's own options, as /proc/mounts and mountinfo's sixth field. */
static void mount_opts(struct pbuf *b, const struct mount *m)
{
	pb_printf(b, "%s%s%s%s%s", m->flags & MS_RDONLY ? "ro" : "rw",
		  m->flags & MS_NOSUID ? ",nosuid" : "", m->flags & MS_NODEV ? ",nodev" : "",
		  m->flags & MS_NOEXEC ? ",noexec" : "",
		  m->flags & MS_NOATIME ? ",noatime" : m->flags & MS_STRICTATIME ? "" : ",relatime");
}

/* Its tmpfs's, as Linux's shmem_show_options: what was given, and a mode
 * or owner other than the default. */
static void super_opts(struct pbuf *b, const struct mount *m)
{
	if (m->size_given)
		pb_printf(b, ",size=%uk", m->sb->max_pages * 4);
	if (m->inodes_given)
		pb_printf(b, ",nr_inodes=%u", m->sb->max_inodes);
	struct tmpfs_node *r = m->sb->root;
	if ((r->mode & 07777) != 01777)
		pb_printf(b, ",mode=%o", r->mode & 07777);
	if (r->uid)
		pb_printf(b, ",uid=%u", r->uid);
	if (r->gid)
		pb_printf(b, ",gid=%u", r->gid);
}

void mount_show(struct pbuf *b)
{
	pb_printf(b, "rootfs / rootfs ro 0 0\n");
	pb_printf(b, "proc /proc proc rw,nosuid,nodev,noexec,relatime 0 0\n");
	spin_lock(&mount_lock);
	for (int i = 0; i < MOUNT_MAX; i++) {
		const struct mount *m = &mounts[i];
		if (!m->point)
			continue;
		pb_printf(b, "%s %s tmpfs ", m->source, m->path);
		mount_opts(b, m);
		super_opts(b, m);
		pb_printf(b, " 0 0\n");
	}
	spin_unlock(&mount_lock);
}

/* The mount a path is under: the one whose mount point is its longest
 * prefix (a slot number + 3: the ids of rootfs and /proc are 1 and 2). */
static int parent_id(const char *path)
{
	int best = 1;
	size_t best_len = 0;
	for (int i = 0; i < MOUNT_MAX; i++) {
		const struct mount *m = &mounts[i];
		size_t k = m->point ? strlen(m->path) : 0;
		if (k > best_len && strncmp(path, m->path, k) == 0 && path[k] == '/') {
			best = i + 3;
			best_len = k;
		}
	}
	return best;
}

/* /proc/PID/mountinfo (proc(5)): id, parent's id, st_dev, root, mount
 * point, its options, "-", type, source, the file system's options. The
 * initrd and /proc are st_dev (0, 1), each tmpfs its own minor. */
void mount_show_info(struct pbuf *b)
{
	pb_printf(b, "1 1 0:1 / / ro - rootfs rootfs ro\n");
	pb_printf(b, "2 1 0:1 / /proc rw,nosuid,nodev,noexec,relatime - proc proc rw\n");
	spin_lock(&mount_lock);
	for (int i = 0; i < MOUNT_MAX; i++) {
		const struct mount *m = &mounts[i];
		if (!m->point)
			continue;
		pb_printf(b, "%d %d 0:%u / %s ", i + 3, parent_id(m->path), m->sb->dev_minor, m->path);
		mount_opts(b, m);
		pb_printf(b, " - tmpfs %s %s", m->source, m->flags & MS_RDONLY ? "ro" : "rw");
		super_opts(b, m);
		pb_printf(b, "\n");
	}
	spin_unlock(&mount_lock);
}

/* ---- statfs ---- */

static void fill_statfs(const struct initrd_file *n, struct statfs64 *s)
{
	*s = (struct statfs64){ .f_bsize = 4096, .f_frsize = 4096, .f_namelen = FS_NAME_MAX };
	struct tmpfs_node *t = tmpfs_of(n);
	if (t) {
		struct tmpfs_sb *sb = t->sb;
		s->f_type = TMPFS_MAGIC;
		s->f_blocks = sb->max_pages;
		s->f_bfree = s->f_bavail = sb->max_pages - sb->used_pages;
		s->f_files = sb->max_inodes;
		s->f_ffree = sb->max_inodes - sb->used_inodes;
		spin_lock(&mount_lock);
		struct mount *m = mount_of(n);
		uint32_t fl = m ? m->flags : 0;
		spin_unlock(&mount_lock);
		s->f_flags = ST_VALID | (fl & (MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC |
					       MS_NOATIME)) |
			     (fl & (MS_STRICTATIME | MS_NOATIME) ? 0 : ST_RELATIME);
	} else if (n->procfs || n->owner == NODE_PROC_PID) {
		s->f_type = PROC_SUPER_MAGIC;
		s->f_flags = ST_VALID | ST_NOSUID | ST_NODEV | ST_NOEXEC | ST_RELATIME;
	} else {
		s->f_type = RAMFS_MAGIC;
		s->f_flags = ST_VALID | ST_RDONLY;
	}
}

static int statfs_node(const struct initrd_file *n, uint32_t size, void *ubuf)
{
	struct statfs64 s;
	fill_statfs(n, &s);
	if (size == sizeof(struct statfs64))
		return copy_to_user(ubuf, &s, sizeof(s)) < 0 ? -EFAULT : 0;
	if (s.f_blocks > UINT32_MAX || s.f_files > UINT32_MAX)
		return -EOVERFLOW;
	struct statfs32 k = {
		.f_type = s.f_type, .f_bsize = s.f_bsize, .f_blocks = (uint32_t)s.f_blocks,
		.f_bfree = (uint32_t)s.f_bfree, .f_bavail = (uint32_t)s.f_bavail,
		.f_files = (uint32_t)s.f_files, .f_ffree = (uint32_t)s.f_ffree,
		.f_namelen = s.f_namelen, .f_frsize = s.f_frsize, .f_flags = s.f_flags,
	};
	return copy_to_user(ubuf, &k, sizeof(k)) < 0 ? -EFAULT : 0;
}

static int statfs_path(const char *upath, uint32_t size, void *ubuf)
{
	char path[FS_PATH_MAX];
	const struct initrd_file *n;
	int err = strncpy_from_user(path, upath, sizeof(path));
	if (err < 0)
		return err;
	if ((err = fs_lookup_at(AT_FDCWD, path, &n, true)) < 0)
		return err;
	return statfs_node(n, size, ubuf);
}

static int statfs_fd(int fd, uint32_t size, void *ubuf)
{
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	/* a pipe, a socket, the console: not kept here */
	int err = r.file->node ? statfs_node(r.file->node, size, ubuf) : -ENOSYS;
	fd_done(r);
	return err;
}

int sys_statfs(const char *upath, void *ubuf)
{
	return statfs_path(upath, sizeof(struct statfs32), ubuf);
}

int sys_fstatfs(int fd, void *ubuf)
{
	return statfs_fd(fd, sizeof(struct statfs32), ubuf);
}

int sys_statfs64(const char *upath, uint32_t size, void *ubuf)
{
	return size == sizeof(struct statfs64) ? statfs_path(upath, size, ubuf) : -EINVAL;
}

int sys_fstatfs64(int fd, uint32_t size, void *ubuf)
{
	return size == sizeof(struct statfs64) ? statfs_fd(fd, size, ubuf) : -EINVAL;
}
