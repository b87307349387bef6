/*
 * tmpfs.c - tmpfs's names and nodes (kernel/fs/tmpfs.h says how they
 * fit and which lock guards what); a file's pages are tmpfs_data.c's.
 */
#include "tmpfs.h"
#include "fs.h"
#include "namei.h"
#include "lib/assert.h"
#include "lib/errno.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/time/time.h"
#include "kernel/time/systime.h"
#include <uapi/stat.h>		/* S_IF* */

/* A name in a directory. cookie: its getdents offset, never reused in
 * that directory, so a listing resumes after the last name it gave. */
struct tmpfs_dirent {
	struct tmpfs_dirent *next;
	struct tmpfs_node *node;
	uint32_t cookie;
	uint8_t len;
	char name[];
};

static struct spinlock tmpfs_lock = SPINLOCK_INIT("tmpfs");
static uint32_t tmpfs_minor = 0x10;	/* st_dev minors: the initrd has 1 */

static struct tmpfs_time now(void)
{
	uint64_t ns = clock_ns() + realtime_offset_ns();
	return (struct tmpfs_time){ (int64_t)(ns / 1000000000u), (uint32_t)(ns % 1000000000u) };
}

/* A directory's st_size, as Linux's shmem: 2 of these for "." and "..",
 * and one per name in it (append, splice_out). */
#define BOGO_DIRENT_SIZE	20

/* A node of sb, not yet named; NULL when nr_inodes or memory is out.
 * Under tmpfs_lock (the count). */
static struct tmpfs_node *node_alloc(struct tmpfs_sb *sb, uint16_t mode, uint32_t uid,
				     uint32_t gid)
{
	if (sb->used_inodes >= sb->max_inodes)
		return NULL;
	struct tmpfs_node *t = kzalloc(sizeof(*t));
	if (!t)
		return NULL;
	sb->used_inodes++;
	t->n.owner = NODE_TMPFS;
	t->n.is_dir = (mode & S_IFMT) == S_IFDIR;
	t->n.size = t->n.is_dir ? 2 * BOGO_DIRENT_SIZE : 0;
	t->n.perm = mode & 07777;
	t->n.nlink = 0;
	t->sb = sb;
	t->ino = ++sb->next_ino;
	t->mode = mode;
	t->uid = uid;
	t->gid = gid;
	t->atime = t->mtime = t->ctime = now();
	t->next_cookie = 2;		/* 0 and 1 are "." and ".." */
	mutex_init(&t->data_lock, "tmpfs data");
	spin_init(&t->pages_lock, "tmpfs pages");
	return t;
}

static void node_free_rcu(struct rcu_head *h)
{
	struct tmpfs_node *t = (struct tmpfs_node *)((char *)h - offsetof(struct tmpfs_node, rcu));
	kfree((void *)t->n.symlink);
	kfree(t);
}

/* Under tmpfs_lock: free t once no name and no hold is left. Its pages
 * go now (no one can reach them); the node itself after a grace period,
 * since a walk may still be looking at it. */
static void node_put(struct tmpfs_node *t)
{
	KASSERT(spin_held(&tmpfs_lock) && t->refs >= 0);
	if (t->n.nlink > 0 || t->refs > 0)
		return;
	struct tmpfs_node *dir = t->gone ? t->parent : NULL;
	t->sb->used_inodes--;
	tmpfs_free_pages(t);
	kfree(t->gone);
	rcu_call(&t->rcu, node_free_rcu);
	if (dir) {			/* the directory it was unlinked from lets go too */
		dir->refs--;
		dir->sb->holds--;
		node_put(dir);
	}
}

struct tmpfs_sb *tmpfs_new(uint32_t max_pages, uint32_t max_inodes, uint16_t mode, uint32_t uid,
			   uint32_t gid)
{
	struct tmpfs_sb *sb = kzalloc(sizeof(*sb));
	if (!sb)
		return NULL;
	sb->max_pages = max_pages;
	sb->max_inodes = max_inodes;
	spin_lock(&tmpfs_lock);
	sb->dev_minor = tmpfs_minor++;
	sb->root = node_alloc(sb, S_IFDIR | (mode & 07777), uid, gid);
	if (sb->root)
		sb->root->n.nlink = 2;
	spin_unlock(&tmpfs_lock);
	if (!sb->root) {
		kfree(sb);
		return NULL;
	}
	return sb;
}

static void kill_tree(struct tmpfs_node *top);

static void sb_free_rcu(struct rcu_head *h)
{
	kfree((char *)h - offsetof(struct tmpfs_sb, rcu));
}

int tmpfs_kill(struct tmpfs_sb *sb)
{
	spin_lock(&tmpfs_lock);
	if (sb->holds > 0) {
		spin_unlock(&tmpfs_lock);
		return -EBUSY;
	}
	kill_tree(sb->root);
	sb->root->n.nlink = 0;
	node_put(sb->root);
	spin_unlock(&tmpfs_lock);
	rcu_call(&sb->rcu, sb_free_rcu);	/* a walk may still stat the dead root */
	return 0;
}

static uint32_t pages_total;		/* every mount's: /proc/meminfo's Shmem */

bool tmpfs_charge(struct tmpfs_sb *sb, uint32_t n)
{
	uint32_t used = __atomic_load_n(&sb->used_pages, __ATOMIC_RELAXED);
	do {
		if (used + n > sb->max_pages || used + n < used)
			return false;
	} while (!__atomic_compare_exchange_n(&sb->used_pages, &used, used + n, false,
					      __ATOMIC_RELAXED, __ATOMIC_RELAXED));
	__atomic_add_fetch(&pages_total, n, __ATOMIC_RELAXED);
	return true;
}

void tmpfs_uncharge(struct tmpfs_sb *sb, uint32_t n)
{
	__atomic_sub_fetch(&sb->used_pages, n, __ATOMIC_RELAXED);
	__atomic_sub_fetch(&pages_total, n, __ATOMIC_RELAXED);
}

uint32_t tmpfs_pages_total(void)
{
	return __atomic_load_n(&pages_total, __ATOMIC_RELAXED);
}

/* ---- names ---- */

static struct tmpfs_dirent *find(struct tmpfs_node *dir, const char *name, size_t len,
				 struct tmpfs_dirent **prev)
{
	struct tmpfs_dirent *p = NULL;
	for (struct tmpfs_dirent *d = dir->first; d; p = d, d = d->next)
		if (d->len == len && memcmp(d->name, name, len) == 0) {
			if (prev)
				*prev = p;
			return d;
		}
	return NULL;
}

int tmpfs_lookup(const struct initrd_file **at, const char *name, size_t len)
{
	struct tmpfs_node *dir = tmpfs_of(*at);
	if (fs_permission(*at, MAY_EXEC))
		return -EACCES;			/* no search permission (/root for a user) */
	if (len > FS_NAME_MAX)
		return -ENAMETOOLONG;
	spin_lock(&tmpfs_lock);
	struct tmpfs_dirent *d = find(dir, name, len, NULL);
	if (d)
		*at = &d->node->n;
	spin_unlock(&tmpfs_lock);
	return d ? 0 : -ENOENT;
}

const struct initrd_file *tmpfs_parent(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	return t->parent ? &t->parent->n : NULL;
}

int tmpfs_hold(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	int err = 0;
	spin_lock(&tmpfs_lock);
	if (t->n.nlink == 0 && t->refs == 0)
		err = -ENOENT;			/* on its way out */
	else
		t->refs++, t->sb->holds++;
	spin_unlock(&tmpfs_lock);
	return err;
}

void tmpfs_drop(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	spin_lock(&tmpfs_lock);
	KASSERT(t->refs > 0 && t->sb->holds > 0);
	t->refs--;
	t->sb->holds--;
	node_put(t);
	spin_unlock(&tmpfs_lock);
}

/* writers counts one way or the other, never both (tmpfs.h): a move by
 * delta, refused (ETXTBSY) when checked and it counts the other way. */
static int writers_move(struct tmpfs_node *t, int delta, bool checked)
{
	int err = 0;
	spin_lock(&tmpfs_lock);
	if (checked && (delta > 0 ? t->writers < 0 : t->writers > 0))
		err = -ETXTBSY;
	else
		t->writers += delta;
	KASSERT(checked || t->writers * delta <= 0);	/* a put or allow never crosses 0 */
	spin_unlock(&tmpfs_lock);
	return err;
}

int tmpfs_get_write(struct tmpfs_node *n)
{
	return writers_move(n, 1, true);
}

void tmpfs_put_write(struct tmpfs_node *n)
{
	writers_move(n, -1, false);
}

int tmpfs_deny_write(struct tmpfs_node *n)
{
	return writers_move(n, -1, true);
}

void tmpfs_allow_write(struct tmpfs_node *n)
{
	writers_move(n, 1, false);
}

void tmpfs_map_hold(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	spin_lock(&tmpfs_lock);
	KASSERT(t->refs > 0);		/* the caller's open file or region holds it */
	t->refs++;
	t->sb->holds++;
	t->mapped++;
	spin_unlock(&tmpfs_lock);
}

void tmpfs_map_drop(const struct initrd_file *n)
{
	struct tmpfs_node *t = tmpfs_of(n);
	spin_lock(&tmpfs_lock);
	KASSERT(t->mapped > 0);
	t->mapped--;
	spin_unlock(&tmpfs_lock);
	tmpfs_drop(n);
}

const struct initrd_file *tmpfs_readdir(const struct initrd_file *dir, uint32_t *pos,
					char *name)
{
	const struct initrd_file *found = NULL;
	spin_lock(&tmpfs_lock);
	for (struct tmpfs_dirent *d = tmpfs_of(dir)->first; d; d = d->next)
		if (d->cookie >= *pos) {
			memcpy(name, d->name, d->len);
			name[d->len] = 0;
			*pos = d->cookie + 1;
			found = &d->node->n;
			break;
		}
	spin_unlock(&tmpfs_lock);
	return found;
}

static struct tmpfs_dirent *dirent_new(const char *name, struct tmpfs_node *t)
{
	size_t len = strlen(name);
	struct tmpfs_dirent *d = kmalloc(sizeof(*d) + len + 1);
	if (d) {
		d->node = t;
		d->len = (uint8_t)len;
		memcpy(d->name, name, len + 1);
	}
	return d;
}

/* Under tmpfs_lock: d at the end of dir's list, with a fresh cookie. */
static void append(struct tmpfs_node *dir, struct tmpfs_dirent *d)
{
	dir->n.size += BOGO_DIRENT_SIZE;
	d->next = NULL;
	d->cookie = dir->next_cookie++;
	if (dir->last)
		dir->last->next = d;
	else
		dir->first = d;
	dir->last = d;
	dir->mtime = dir->ctime = now();
}

/* Under tmpfs_lock: d out of dir's list (prev: the one before it). */
static void splice_out(struct tmpfs_node *dir, struct tmpfs_dirent *d, struct tmpfs_dirent *prev)
{
	dir->n.size -= BOGO_DIRENT_SIZE;
	if (prev)
		prev->next = d->next;
	else
		dir->first = d->next;
	if (dir->last == d)
		dir->last = prev;
	dir->mtime = dir->ctime = now();
}

int tmpfs_name_in(const struct initrd_file *dir, const struct initrd_file *child, char *name)
{
	int err = -ENOENT;
	struct tmpfs_node *t = tmpfs_of(child);
	spin_lock(&tmpfs_lock);
	struct tmpfs_dirent *d = tmpfs_of(dir)->first;
	while (d && &d->node->n != child)
		d = d->next;
	if (!d && t->gone && &t->parent->n == dir)
		d = t->gone;			/* unlinked: its last name */
	if (d) {
		memcpy(name, d->name, d->len);
		name[d->len] = 0;
		err = d == t->gone;
	}
	spin_unlock(&tmpfs_lock);
	return err;
}

/* Under tmpfs_lock: name t in dir (a new name, checked absent). */
static int add_name(struct tmpfs_node *dir, const char *name, struct tmpfs_node *t)
{
	struct tmpfs_dirent *d = dirent_new(name, t);
	if (!d)
		return -ENOSPC;
	append(dir, d);
	t->n.nlink++;
	t->parent = dir;
	if (t->n.is_dir)
		dir->n.nlink++;			/* its ".." */
	return 0;
}

/* Under tmpfs_lock: a held file loses its last name d in dir: the name
 * is kept, and dir held, for its path's "(deleted)" (tmpfs.h, gone). */
static bool keep_gone_name(struct tmpfs_node *t, struct tmpfs_node *dir, struct tmpfs_dirent *d)
{
	if (t->n.nlink > 0 || t->refs == 0 || t->parent != dir)
		return false;
	t->gone = d;
	dir->refs++;
	dir->sb->holds++;
	return true;
}

/* Under tmpfs_lock: take d (after prev) out of dir; the node is put. */
static void drop_name(struct tmpfs_node *dir, struct tmpfs_dirent *d, struct tmpfs_dirent *prev)
{
	struct tmpfs_node *t = d->node;
	splice_out(dir, d, prev);
	if (t->n.is_dir) {
		kfree(d);
		KASSERT(!t->first);		/* only an empty directory loses its name */
		t->n.nlink = 0;			/* its name and its "." */
		t->parent = NULL;		/* not kept alive by it: ".." is itself now */
		dir->n.nlink--;
	} else {
		t->n.nlink--;
		if (!keep_gone_name(t, dir, d)) {
			kfree(d);
			if (t->parent == dir)
				t->parent = NULL;	/* its other names, if any, are unknown */
		}
	}
	t->ctime = now();
	node_put(t);
}

/* Under tmpfs_lock: every name below top removed, every node freed (no
 * node is held: tmpfs_kill checked). A loop, not a recursion: a tree may
 * be deeper than a kernel stack. Names go from the front of each list,
 * so a directory emptied is its parent's first name again. */
static void kill_tree(struct tmpfs_node *top)
{
	struct tmpfs_node *dir = top;
	for (;;) {
		struct tmpfs_dirent *d = dir->first;
		if (d && d->node->n.is_dir && d->node->first) {
			dir = d->node;		/* down: empty it first */
		} else if (d) {
			drop_name(dir, d, NULL);
		} else if (dir != top) {
			dir = dir->parent;	/* up: its first name is now empty */
			drop_name(dir, dir->first, NULL);
		} else {
			return;
		}
	}
}

/* Is dir still in the tree (not removed while the caller walked)? */
static bool alive(const struct tmpfs_node *dir)
{
	return dir->n.nlink > 0;
}

int tmpfs_create(struct tmpfs_node *dir, const char *name, uint16_t mode,
		 const char *target, struct tmpfs_node **out)
{
	char *text = NULL;
	if (target) {
		text = kmalloc(strlen(target) + 1);
		if (!text)
			return -ENOSPC;
		strlcpy(text, target, strlen(target) + 1);
	}
	int err = 0;
	spin_lock(&tmpfs_lock);
	struct tmpfs_node *t = NULL;
	if (!alive(dir))
		err = -ENOENT;
	else if (find(dir, name, strlen(name), NULL))
		err = -EEXIST;
	else if (!(t = node_alloc(dir->sb, mode, fs_fsuid(), fs_new_gid(&dir->n, dir->mode))))
		err = -ENOSPC;
	else if ((err = add_name(dir, name, t)) < 0)
		node_put(t);
	if (!err) {
		if ((mode & S_IFMT) == S_IFDIR)
			t->n.nlink = 2;
		t->n.symlink = text;
		if (text)
			t->n.size = (uint32_t)strlen(text);
		text = NULL;
		*out = t;
	}
	spin_unlock(&tmpfs_lock);
	kfree(text);
	return err;
}

int tmpfs_link(struct tmpfs_node *dir, const char *name, struct tmpfs_node *file)
{
	int err;
	spin_lock(&tmpfs_lock);
	if (!alive(dir) || (file->n.nlink == 0))
		err = -ENOENT;
	else if (file->sb != dir->sb)
		err = -EXDEV;
	else if (find(dir, name, strlen(name), NULL))
		err = -EEXIST;
	else if ((err = add_name(dir, name, file)) == 0)
		file->ctime = now();
	spin_unlock(&tmpfs_lock);
	return err;
}

/* May victim go from dir? A directory must be empty (rmdir), a file not
 * a directory (unlink), and check (the sticky bit) must agree. */
static int may_remove(struct tmpfs_node *dir, struct tmpfs_node *victim, bool rmdir,
		      int (*check)(struct tmpfs_node *, struct tmpfs_node *))
{
	if (rmdir && !victim->n.is_dir)
		return -ENOTDIR;
	if (!rmdir && victim->n.is_dir)
		return -EISDIR;
	if (victim->n.is_dir && victim->first)
		return -ENOTEMPTY;
	if (victim == victim->sb->root)
		return -EBUSY;
	return check ? check(dir, victim) : 0;
}

int tmpfs_remove(struct tmpfs_node *dir, const char *name, bool rmdir,
		 int (*check)(struct tmpfs_node *dir, struct tmpfs_node *victim))
{
	struct tmpfs_dirent *prev = NULL;
	int err;
	spin_lock(&tmpfs_lock);
	struct tmpfs_dirent *d = alive(dir) ? find(dir, name, strlen(name), &prev) : NULL;
	if (!d)
		err = -ENOENT;
	else if (d->node->n.mounted)
		err = -EBUSY;
	else if ((err = may_remove(dir, d->node, rmdir, check)) == 0)
		drop_name(dir, d, prev);
	spin_unlock(&tmpfs_lock);
	return err;
}

/* Is a at or below b? (rename of a directory into its own subtree.) */
static bool is_below(const struct tmpfs_node *a, const struct tmpfs_node *b)
{
	for (; a; a = a->parent)
		if (a == b)
			return true;
	return false;
}

/* Under tmpfs_lock: move the name od (in odir) to nname in ndir, over
 * nd there if any (may_remove said it may go). The new name is made
 * first, so a failure changes nothing. */
static int move_name(struct tmpfs_node *odir, struct tmpfs_dirent *od, struct tmpfs_node *ndir,
		     const char *nname, struct tmpfs_dirent *nd)
{
	struct tmpfs_node *t = od->node;
	struct tmpfs_dirent *d = dirent_new(nname, t), *prev = NULL;
	if (!d)
		return -ENOSPC;
	if (nd) {
		find(ndir, nd->name, nd->len, &prev);
		drop_name(ndir, nd, prev);
	}
	find(odir, od->name, od->len, &prev);
	splice_out(odir, od, prev);
	kfree(od);
	append(ndir, d);
	if (t->n.is_dir && odir != ndir) {
		odir->n.nlink--;
		ndir->n.nlink++;
	}
	t->parent = ndir;
	t->ctime = now();
	return 0;
}

/* Under tmpfs_lock: RENAME_EXCHANGE, the two names' nodes swapped. A
 * directory that changes parent moves its ".." link with it. */
static int exchange(struct tmpfs_node *odir, struct tmpfs_dirent *od, struct tmpfs_node *ndir,
		    struct tmpfs_dirent *nd)
{
	struct tmpfs_node *a = od->node, *b = nd->node;
	if ((a->n.is_dir && is_below(ndir, a)) || (b->n.is_dir && is_below(odir, b)))
		return -EINVAL;			/* one would go inside itself */
	od->node = b;
	nd->node = a;
	a->parent = ndir;
	b->parent = odir;
	if (odir != ndir) {
		odir->n.nlink += (uint32_t)b->n.is_dir - (uint32_t)a->n.is_dir;
		ndir->n.nlink += (uint32_t)a->n.is_dir - (uint32_t)b->n.is_dir;
	}
	a->ctime = b->ctime = odir->mtime = odir->ctime = ndir->mtime = ndir->ctime = now();
	return 0;
}

/* Under tmpfs_lock: may od (in odir) take nd's place, or swap with it? */
static int rename_rule(struct tmpfs_node *odir, struct tmpfs_dirent *od, struct tmpfs_node *ndir,
		       struct tmpfs_dirent *nd, unsigned flags,
		       int (*check)(struct tmpfs_node *dir, struct tmpfs_node *victim))
{
	if (!od || !alive(ndir) || (!nd && (flags & RENAME_EXCHANGE)))
		return -ENOENT;
	if (odir->sb != ndir->sb)
		return -EXDEV;
	if (nd && nd->node == od->node)
		return 1;			/* two names of one file: nothing to do (POSIX) */
	if (od->node->n.is_dir && is_below(ndir, od->node))
		return -EINVAL;			/* into its own subtree */
	if (nd && (flags & RENAME_NOREPLACE))
		return -EEXIST;
	if (od->node->n.mounted || (nd && nd->node->n.mounted))
		return -EBUSY;
	int err = nd && !(flags & RENAME_EXCHANGE) ?
		  may_remove(ndir, nd->node, od->node->n.is_dir, check) :
		  nd && check ? check(ndir, nd->node) : 0;
	return err ? err : check ? check(odir, od->node) : 0;
}

int tmpfs_rename(struct tmpfs_node *odir, const char *oname, struct tmpfs_node *ndir,
		 const char *nname, unsigned flags,
		 int (*check)(struct tmpfs_node *dir, struct tmpfs_node *victim))
{
	spin_lock(&tmpfs_lock);
	struct tmpfs_dirent *od = alive(odir) ? find(odir, oname, strlen(oname), NULL) : NULL;
	struct tmpfs_dirent *nd = alive(ndir) ? find(ndir, nname, strlen(nname), NULL) : NULL;
	int err = rename_rule(odir, od, ndir, nd, flags, check);
	if (err == 0)
		err = flags & RENAME_EXCHANGE ? exchange(odir, od, ndir, nd) :
		      move_name(odir, od, ndir, nname, nd);
	spin_unlock(&tmpfs_lock);
	return err > 0 ? 0 : err;
}

void tmpfs_set_attr(struct tmpfs_node *n, int mode, int64_t uid, int64_t gid)
{
	spin_lock(&tmpfs_lock);
	if (mode >= 0) {
		n->mode = (uint16_t)((n->mode & S_IFMT) | (mode & 07777));
		n->n.perm = (uint16_t)(mode & 07777);
	}
	if (uid >= 0)
		n->uid = (uint32_t)uid;
	if (gid >= 0)
		n->gid = (uint32_t)gid;
	n->ctime = now();
	spin_unlock(&tmpfs_lock);
}

void tmpfs_touch(struct tmpfs_node *n, bool mtime)
{
	struct tmpfs_time t = now();
	spin_lock(&tmpfs_lock);
	if (mtime)
		n->mtime = t;
	n->ctime = t;
	spin_unlock(&tmpfs_lock);
}

void tmpfs_set_times(struct tmpfs_node *n, const struct tmpfs_time *atime,
		     const struct tmpfs_time *mtime)
{
	struct tmpfs_time t = now();
	spin_lock(&tmpfs_lock);
	if (atime)
		n->atime = *atime;
	if (mtime)
		n->mtime = *mtime;
	n->ctime = t;
	spin_unlock(&tmpfs_lock);
}

struct tmpfs_time tmpfs_now(void)
{
	return now();
}
