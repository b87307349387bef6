/*
 * tmpfs.h - a file system in RAM with Linux's tmpfs semantics
 * (kernel/fs/tmpfs.c): directories of names, files of pages, symbolic
 * and hard links; a size limit (ENOSPC, never the kernel out of memory).
 *
 * A tmpfs node is a struct initrd_file (owner NODE_TMPFS) inside a
 * struct tmpfs_node, so the one path walk (kernel/fs/initrd.c) returns
 * it like any other node. A directory holds its names as a list of
 * entries; a name points at a node, and a node counts its names (nlink)
 * and its holds (open files, working directories: refs). A node is
 * freed when both are 0: an unlinked file open somewhere keeps its data
 * until the last close, as Linux.
 *
 * Locks: tmpfs_lock (a spinlock) guards every directory's entries, every
 * node's nlink, refs, attributes and parent, and each mount's inode
 * count; nothing sleeps under it. Page counts are atomic. A file's
 * size and the pages it loses change under its own data mutex, taken
 * with the file held (refs), so a read or write may fault on user
 * memory; the page array and the size also under the file's pages_lock,
 * a spinlock, which a page fault takes (under its address space's lock)
 * to find or add the page it maps. A page found stays while the data
 * mutex is held. Lock order: data mutex, then an address space's lock
 * (kernel/mm/mm.h), then pages_lock.
 *
 * A file's pages are its page cache (Linux's shmem): a shared mapping
 * maps those very frames, a private one maps them read-only until its
 * first write copies (kernel/mm/filemap.c). Each mapping's region holds
 * the file (tmpfs_map_hold), so it outlives its close and unlink; a
 * truncation first takes the lost pages out of every mapping.
 * The walk finds a node under tmpfs_lock and uses
 * it without a hold until it next sleeps (kernel/sync/rcu.h): freeing
 * waits for an RCU grace period.
 */
#ifndef KERNEL_FS_TMPFS_H
#define KERNEL_FS_TMPFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include "initrd.h"
#include "kernel/sync/mutex.h"
#include "lib/spinlock.h"
#include "kernel/sync/rcu.h"

struct tmpfs_dirent;
struct tmpfs_sb;

struct tmpfs_time {
	int64_t sec;
	uint32_t nsec;
};

struct tmpfs_node {
	struct initrd_file n;		/* first: the walk's node (n.owner NODE_TMPFS) */
	struct tmpfs_sb *sb;
	uint32_t ino;
	uint32_t uid, gid;
	uint16_t mode;			/* S_IF* | permission bits, as stat says */
	int refs;			/* holds: open files, working directories */
	/* Linux's i_writecount: > 0, descriptors open for writing; < 0,
	 * programs running it (exec): each excludes the other (ETXTBSY). */
	int writers;
	struct tmpfs_time atime, mtime, ctime;
	/* A directory's; NULL for a mount's root. A file's: the directory
	 * of its newest name, NULL once that name is gone (its path is then
	 * unknown: /proc/PID/maps and fd). */
	struct tmpfs_node *parent;
	/* A file unlinked while held (open, mapped): its last name, and its
	 * parent held for it, so that its path reads "/tmp/x (deleted)" as
	 * Linux's (/proc/PID/fd, maps); freed with it. */
	struct tmpfs_dirent *gone;
	struct tmpfs_dirent *first, *last;	/* a directory's names, oldest first */
	uint32_t next_cookie;		/* a directory's: the next name's getdents offset */
	struct mutex data_lock;		/* a file's pages and size */
	struct spinlock pages_lock;	/* pages, npages, n.size (see the top) */
	uint8_t **pages;		/* a file's: kernel addresses of frames, NULL a hole */
	uint32_t npages;		/* slots in pages */
	uint32_t mapped;		/* regions that map it (tmpfs_lock) */
	uint32_t present;		/* pages that are not holes: st_blocks / 8 (atomic) */
	struct rcu_head rcu;
};

/* One mount of tmpfs: its limit and what it holds. */
struct tmpfs_sb {
	struct tmpfs_node *root;
	uint32_t max_pages, used_pages;	/* size=, in pages; pages in files */
	uint32_t max_inodes, used_inodes;	/* nr_inodes= */
	uint32_t next_ino;
	uint32_t dev_minor;		/* st_dev (0, minor): one per mount */
	int holds;			/* refs of all its nodes: umount's EBUSY */
	struct rcu_head rcu;
};

static inline struct tmpfs_node *tmpfs_of(const struct initrd_file *n)
{
	return n && n->owner == NODE_TMPFS ? (struct tmpfs_node *)n : NULL;
}

/* A fresh file system of max_pages pages and max_inodes nodes (its root
 * the first), root owned by uid/gid with mode's permission bits; NULL
 * when memory is out. */
struct tmpfs_sb *tmpfs_new(uint32_t max_pages, uint32_t max_inodes, uint16_t mode, uint32_t uid,
			   uint32_t gid);
/* Free it all: 0, or -EBUSY while a node is held. */
int tmpfs_kill(struct tmpfs_sb *sb);
/* Pages in every tmpfs file (/proc/meminfo's Shmem). */
uint32_t tmpfs_pages_total(void);

/* ---- the walk (kernel/fs/initrd.c) ---- */
int tmpfs_lookup(const struct initrd_file **at, const char *name, size_t len);
/* A directory's parent, a file's (see parent); a mount's root: NULL (the
 * walk asks the mount). */
const struct initrd_file *tmpfs_parent(const struct initrd_file *n);
/* Keep a node past its walk (0; -ENOENT once it is gone) and give it back. */
int tmpfs_hold(const struct initrd_file *n);
void tmpfs_drop(const struct initrd_file *n);
/* The next name of directory dir at getdents offset *pos (from 2): its
 * node, name copied into name (FS_NAME_MAX + 1 bytes), *pos past it; NULL
 * at the end. Names added or removed meanwhile do not disturb it. */
const struct initrd_file *tmpfs_readdir(const struct initrd_file *dir, uint32_t *pos,
					char *name);

/* Directory child's name in dir into name (FS_NAME_MAX + 1 bytes): 0,
 * 1 for the last name of an unlinked file (gone), or -ENOENT when it has
 * none there now. */
int tmpfs_name_in(const struct initrd_file *dir, const struct initrd_file *child, char *name);

/* ---- the calls on names (kernel/fs/namei.c); dir is held or just walked ---- */
/* A new node called name in dir: a file, a directory or (target) a
 * symbolic link of mode; 0 and *out, -EEXIST, -ENOSPC, -ENOENT (dir
 * removed). */
int tmpfs_create(struct tmpfs_node *dir, const char *name, uint16_t mode,
		 const char *target, struct tmpfs_node **out);
int tmpfs_link(struct tmpfs_node *dir, const char *name, struct tmpfs_node *file);
/* Remove name from dir: rmdir for a directory (ENOTEMPTY), unlink for
 * the rest (EISDIR); check(node) says whether the caller may (sticky). */
int tmpfs_remove(struct tmpfs_node *dir, const char *name, bool rmdir,
		 int (*check)(struct tmpfs_node *dir, struct tmpfs_node *victim));
int tmpfs_rename(struct tmpfs_node *odir, const char *oname, struct tmpfs_node *ndir,
		 const char *nname, unsigned flags,
		 int (*check)(struct tmpfs_node *dir, struct tmpfs_node *victim));
/* A region mapping n begins and ends (kernel/mm/mm.c): a hold, counted
 * in mapped. The hold is taken from one the caller has (an open file, a
 * region), so it cannot fail. */
void tmpfs_map_hold(const struct initrd_file *n);
void tmpfs_map_drop(const struct initrd_file *n);
/* Open for writing (or truncate) and close: 0, or -ETXTBSY while a
 * program runs the file. Exec and a program's end: 0, or -ETXTBSY while
 * it is open for writing. Under tmpfs_lock. */
int tmpfs_get_write(struct tmpfs_node *n);
void tmpfs_put_write(struct tmpfs_node *n);
int tmpfs_deny_write(struct tmpfs_node *n);
void tmpfs_allow_write(struct tmpfs_node *n);
void tmpfs_set_attr(struct tmpfs_node *n, int mode, int64_t uid, int64_t gid);
void tmpfs_touch(struct tmpfs_node *n, bool mtime);	/* mtime and ctime, or ctime */
struct tmpfs_time tmpfs_now(void);	/* the wall clock, as tmpfs stamps times */
/* utimensat: the times given (NULL: kept), ctime now. */
void tmpfs_set_times(struct tmpfs_node *n, const struct tmpfs_time *atime,
		     const struct tmpfs_time *mtime);

/* ---- a file's data (kernel/fs/tmpfs_data.c); the file is held ---- */
int tmpfs_read(struct tmpfs_node *n, void *ubuf, uint32_t count, uint64_t off);
/* Bytes written at *off (what fit before a full mount: ENOSPC only if
 * none), *off moved past them; append: at the end, found under the data
 * mutex, so two appenders never write over each other (O_APPEND). */
int tmpfs_write(struct tmpfs_node *n, const void *ubuf, uint32_t count, uint64_t *off,
		bool append);
int tmpfs_truncate(struct tmpfs_node *n, uint64_t size);
/* fallocate: pages for the range (size grown unless FALLOC_FL_KEEP_SIZE),
 * or FALLOC_FL_PUNCH_HOLE's zeros; 0, -ENOSPC (nothing taken), -EFBIG. */
int tmpfs_fallocate(struct tmpfs_node *n, int mode, uint64_t off, uint64_t len);
/* The same into kernel memory (exec reads a program's headers). */
int tmpfs_read_kernel(struct tmpfs_node *n, void *buf, uint32_t count, uint64_t off);
/* count bytes of the kernel's at *pos (copy_file_range), as tmpfs_write. */
int tmpfs_write_kernel(struct tmpfs_node *n, const void *buf, uint32_t count, uint64_t *pos);
/* A page fault on page pg of a mapping of n (kernel/mm/filemap.c): the
 * page's frame in *pa with a reference for the caller's page table,
 * made (zeroed) if it was a hole; -EFAULT wholly past the end of the
 * file, -ENOSPC on a full mount (both SIGBUS, as Linux), -ENOMEM. */
int tmpfs_fault_page(struct tmpfs_node *n, uint32_t pg, uint32_t *pa);
/* Free a file's pages (its node is going). */
void tmpfs_free_pages(struct tmpfs_node *n);
/* Count n pages against sb's size= (false: full) and give them back;
 * atomic, so callable under tmpfs_lock or without it. */
bool tmpfs_charge(struct tmpfs_sb *sb, uint32_t n);
void tmpfs_uncharge(struct tmpfs_sb *sb, uint32_t n);

#endif
