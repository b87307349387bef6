/*
 * tmpfs_data.c - a tmpfs file's bytes: an array of pages, each a frame
 * of its own (kernel/mm/pmm.c), or NULL for a hole that reads as zeros
 * (ftruncate up, a write past the end). Every page is charged to its
 * mount's size= limit before it is taken, so a full tmpfs answers ENOSPC
 * and the kernel never runs out of memory for it.
 *
 * The pages are also the file's page cache, what its mappings map
 * (kernel/mm/filemap.c): a frame counts the file's reference and one for
 * each page table that has it (pmm_ref), so a page the file lets go
 * lives on until its last mapping does; and a truncation or a punched
 * hole first takes the pages it loses out of every mapping
 * (filemap_unmap), as Linux's truncate_pagecache. Locks: tmpfs.h.
 */
#include "tmpfs.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"

#define FALLOC_FL_KEEP_SIZE	1	/* linux/falloc.h */
#define FALLOC_FL_PUNCH_HOLE	2

#define TMPFS_PAGE	4096u
#define TMPFS_FILE_MAX	0xFFFFFFFFull	/* st_size is kept in 32 bits: then EFBIG */

static const uint8_t zeros[TMPFS_PAGE];

/* Pages that hold size bytes. */
static uint32_t pages_for(uint64_t size)
{
	return (uint32_t)((size + TMPFS_PAGE - 1) / TMPFS_PAGE);
}

/* Under pages_lock: slots for page index pg, the array doubled until it
 * fits. */
static bool grow_slots(struct tmpfs_node *n, uint32_t pg)
{
	if (pg < n->npages)
		return true;
	uint32_t want = n->npages ? n->npages : 4;
	while (want <= pg)
		want *= 2;
	uint8_t **p = kzalloc(want * sizeof(*p));
	if (!p)
		return false;
	if (n->pages)
		memcpy(p, n->pages, n->npages * sizeof(*p));
	kfree(n->pages);
	n->pages = p;
	n->npages = want;
	return true;
}

/* Under pages_lock, its slot there and its charge taken: a zeroed frame
 * as page pg; false when memory is out. */
static bool add_frame(struct tmpfs_node *n, uint32_t pg)
{
	uint32_t pa = pmm_alloc_user();
	if (!pa)
		return false;
	memset(P2V(pa), 0, TMPFS_PAGE);
	n->pages[pg] = P2V(pa);
	__atomic_add_fetch(&n->present, 1, __ATOMIC_RELAXED);
	return true;
}

/* Under pages_lock: page pg is there, made (zeroed, charged) if it was
 * a hole: 0, -ENOSPC (the mount is full) or -ENOMEM. */
static int make_page(struct tmpfs_node *n, uint32_t pg)
{
	if (!grow_slots(n, pg))
		return -ENOMEM;
	if (n->pages[pg])
		return 0;
	if (!tmpfs_charge(n->sb, 1))
		return -ENOSPC;
	if (!add_frame(n, pg)) {
		tmpfs_uncharge(n->sb, 1);
		return -ENOMEM;
	}
	return 0;
}

/* Page pg of the file, made if need be: NULL when the mount is full or
 * memory is out (ENOSPC either way, as Linux's shmem). The data mutex
 * held: the page stays. */
static uint8_t *page_for_write(struct tmpfs_node *n, uint32_t pg)
{
	spin_lock(&n->pages_lock);
	uint8_t *page = make_page(n, pg) == 0 ? n->pages[pg] : NULL;
	spin_unlock(&n->pages_lock);
	return page;
}

/* Page pg, or NULL for a hole; the data mutex held: it stays. */
static uint8_t *page_at(struct tmpfs_node *n, uint32_t pg)
{
	spin_lock(&n->pages_lock);
	uint8_t *page = pg < n->npages ? n->pages[pg] : NULL;
	spin_unlock(&n->pages_lock);
	return page;
}

/* The data mutex held: the size, seen by a fault under pages_lock. */
static void set_size(struct tmpfs_node *n, uint32_t size)
{
	spin_lock(&n->pages_lock);
	n->n.size = size;
	spin_unlock(&n->pages_lock);
}

int tmpfs_fault_page(struct tmpfs_node *n, uint32_t pg, uint32_t *pa)
{
	spin_lock(&n->pages_lock);
	int err = pg >= pages_for(n->n.size) ? -EFAULT : make_page(n, pg);
	if (!err) {
		*pa = V2P(n->pages[pg]);
		pmm_ref(*pa);
	}
	spin_unlock(&n->pages_lock);
	return err;
}

/* count bytes at off into buf, user memory or the kernel's. */
static int read_pages(struct tmpfs_node *n, void *buf, uint32_t count, uint64_t off, bool user)
{
	mutex_lock(&n->data_lock);
	uint32_t size = n->n.size, done = 0;
	int err = 0;
	if (off < size && count > size - off)
		count = size - (uint32_t)off;
	while (off < size && done < count) {
		uint32_t pos = (uint32_t)off + done, po = pos % TMPFS_PAGE, pg = pos / TMPFS_PAGE;
		uint32_t chunk = TMPFS_PAGE - po < count - done ? TMPFS_PAGE - po : count - done;
		const uint8_t *page = page_at(n, pg);
		if (!page)
			page = zeros;
		if (!user) {
			memcpy((char *)buf + done, page + po, chunk);
		} else if (copy_to_user((char *)buf + done, page + po, chunk) < 0) {
			err = -EFAULT;
			break;
		}
		done += chunk;
	}
	mutex_unlock(&n->data_lock);
	return done ? (int)done : err;
}

int tmpfs_read(struct tmpfs_node *n, void *ubuf, uint32_t count, uint64_t off)
{
	return read_pages(n, ubuf, count, off, true);
}

int tmpfs_read_kernel(struct tmpfs_node *n, void *buf, uint32_t count, uint64_t off)
{
	return read_pages(n, buf, count, off, false);
}

/* count bytes from buf, user memory or the kernel's, at *pos (append: at
 * the end); *pos moves past them. */
static int write_pages(struct tmpfs_node *n, const void *buf, uint32_t count, uint64_t *pos,
		       bool append, bool user)
{
	mutex_lock(&n->data_lock);
	uint64_t off = append ? n->n.size : *pos;
	uint32_t done = 0;
	int err = 0;
	if (off + count > TMPFS_FILE_MAX) {
		mutex_unlock(&n->data_lock);
		return -EFBIG;
	}
	while (done < count) {
		uint32_t pos = (uint32_t)off + done, po = pos % TMPFS_PAGE;
		uint32_t chunk = TMPFS_PAGE - po < count - done ? TMPFS_PAGE - po : count - done;
		uint8_t *page = page_for_write(n, pos / TMPFS_PAGE);
		if (!page) {
			err = -ENOSPC;		/* what was written stays */
			break;
		}
		if (!user) {
			memcpy(page + po, (const char *)buf + done, chunk);
		} else if (copy_from_user(page + po, (const char *)buf + done, chunk) < 0) {
			err = -EFAULT;
			break;
		}
		done += chunk;
	}
	if (done && off + done > n->n.size)	/* a write that wrote nothing grows nothing */
		set_size(n, (uint32_t)(off + done));
	*pos = off + done;
	mutex_unlock(&n->data_lock);
	if (done)
		tmpfs_touch(n, true);
	return done ? (int)done : err;
}

int tmpfs_write(struct tmpfs_node *n, const void *ubuf, uint32_t count, uint64_t *pos,
		bool append)
{
	return write_pages(n, ubuf, count, pos, append, true);
}

int tmpfs_write_kernel(struct tmpfs_node *n, const void *buf, uint32_t count, uint64_t *pos)
{
	return write_pages(n, buf, count, pos, false, false);
}

/* Pages first..end-1 go back (holes again); under the data mutex or
 * when no one else can reach the file. A mapped frame stays with its
 * mappings (its count), out of the file. */
static void free_range(struct tmpfs_node *n, uint32_t first, uint32_t end)
{
	uint32_t freed = 0;
	spin_lock(&n->pages_lock);
	for (uint32_t i = first; i < n->npages && i < end; i++)
		if (n->pages[i]) {
			pmm_unref(V2P(n->pages[i]));
			n->pages[i] = NULL;
			freed++;
		}
	spin_unlock(&n->pages_lock);
	if (freed) {
		tmpfs_uncharge(n->sb, freed);
		__atomic_sub_fetch(&n->present, freed, __ATOMIC_RELAXED);
	}
}

/* Under the data mutex: pages first..end-1 out of every mapping of n
 * (cows: a private mapping's copies of them too, as a truncation takes
 * them), before the file lets them go. */
static void unmap_range(struct tmpfs_node *n, uint32_t first, uint32_t end, bool cows)
{
	if (__atomic_load_n(&n->mapped, __ATOMIC_ACQUIRE))
		filemap_unmap(&n->n, first, end, cows);
}

/* Bytes off..off+len-1 read as zeros (holes stay holes); under the mutex. */
static void zero_bytes(struct tmpfs_node *n, uint64_t off, uint64_t len)
{
	for (uint64_t at = off; at < off + len;) {
		uint32_t pg = (uint32_t)(at / TMPFS_PAGE), po = (uint32_t)(at % TMPFS_PAGE);
		uint64_t chunk = TMPFS_PAGE - po < off + len - at ? TMPFS_PAGE - po : off + len - at;
		uint8_t *page = page_at(n, pg);
		if (page)
			memset(page + po, 0, (size_t)chunk);
		at += chunk;
	}
}

/* The new size first, so that a fault past it is SIGBUS from now on;
 * then the lost pages out of the mappings, then out of the file. */
int tmpfs_truncate(struct tmpfs_node *n, uint64_t size)
{
	if (size > TMPFS_FILE_MAX)
		return -EFBIG;
	mutex_lock(&n->data_lock);
	uint32_t keep = pages_for(size), old = n->n.size;
	set_size(n, (uint32_t)size);
	if (size < old) {
		unmap_range(n, keep, UINT32_MAX, true);
		free_range(n, keep, UINT32_MAX);
		if (size % TMPFS_PAGE)		/* past the end reads 0 */
			zero_bytes(n, size, TMPFS_PAGE - size % TMPFS_PAGE);
	}
	mutex_unlock(&n->data_lock);
	tmpfs_touch(n, true);
	return 0;
}

/* Pages for bytes off..off+len-1 (fallocate), zeroed where there were
 * none: all of them charged first, so a full mount answers ENOSPC with
 * nothing taken, as Linux's shmem_fallocate leaves it after its undo.
 * Under the data mutex. */
static int allocate_range(struct tmpfs_node *n, uint64_t off, uint64_t len)
{
	uint32_t first = (uint32_t)(off / TMPFS_PAGE), end = pages_for(off + len), missing = 0;
	spin_lock(&n->pages_lock);
	bool room = grow_slots(n, end - 1);
	for (uint32_t pg = first; room && pg < end; pg++)
		missing += !n->pages[pg];
	spin_unlock(&n->pages_lock);
	if (!room || !tmpfs_charge(n->sb, missing))
		return -ENOSPC;
	int err = 0;
	for (uint32_t pg = first; pg < end && !err; pg++) {
		spin_lock(&n->pages_lock);
		if (!n->pages[pg] && missing) {	/* a fault may have filled it since */
			if (add_frame(n, pg))
				missing--;
			else
				err = -ENOSPC;
		}
		spin_unlock(&n->pages_lock);
	}
	tmpfs_uncharge(n->sb, missing);		/* what is left of it */
	return err;
}

int tmpfs_fallocate(struct tmpfs_node *n, int mode, uint64_t off, uint64_t len)
{
	if (off + len > TMPFS_FILE_MAX)
		return -EFBIG;
	mutex_lock(&n->data_lock);
	int err = 0;
	if (mode & FALLOC_FL_PUNCH_HOLE) {
		uint32_t first = (uint32_t)((off + TMPFS_PAGE - 1) / TMPFS_PAGE);
		uint32_t end = (uint32_t)((off + len) / TMPFS_PAGE);
		zero_bytes(n, off, len);		/* the partial pages at each end */
		if (first < end) {		/* the whole ones: holes */
			unmap_range(n, first, end, false);
			free_range(n, first, end);
		}
	} else {
		err = allocate_range(n, off, len);
		if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && off + len > n->n.size)
			set_size(n, (uint32_t)(off + len));
	}
	mutex_unlock(&n->data_lock);
	if (!err)
		tmpfs_touch(n, true);
	return err;
}

void tmpfs_free_pages(struct tmpfs_node *n)
{
	free_range(n, 0, UINT32_MAX);
	kfree(n->pages);
	n->pages = NULL;
	n->npages = 0;
}
