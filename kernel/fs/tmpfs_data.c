/*
 * tmpfs_data.c - a tmpfs file's bytes: an array of pages, each a frame
 * of its own (kernel/mm/pmm.c), or NULL for a hole that reads as zeros
 * (ftruncate up, a write past the end). Every page is charged to its
 * mount's size= limit before it is taken, so a full tmpfs answers ENOSPC
 * and the kernel never runs out of memory for it. All under the file's
 * data mutex (the file is held by its caller).
 */
#include "tmpfs.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/mm/vm.h"

#define FALLOC_FL_KEEP_SIZE	1	/* linux/falloc.h */
#define FALLOC_FL_PUNCH_HOLE	2

#define TMPFS_PAGE	4096u
#define TMPFS_FILE_MAX	0xFFFFFFFFull	/* st_size is kept in 32 bits: then EFBIG */

static const uint8_t zeros[TMPFS_PAGE];

/* Slots for page index pg: the array doubled until it fits. */
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

/* A zeroed frame as page pg (its slot there, its charge taken), or NULL. */
static uint8_t *new_page(struct tmpfs_node *n, uint32_t pg)
{
	uint32_t pa = pmm_alloc();
	if (!pa)
		return NULL;
	n->pages[pg] = P2V(pa);
	memset(n->pages[pg], 0, TMPFS_PAGE);
	__atomic_add_fetch(&n->present, 1, __ATOMIC_RELAXED);
	return n->pages[pg];
}

/* Page pg of the file, made (zeroed) if need be: NULL when the mount is
 * full or memory is out (ENOSPC either way, as Linux's shmem). */
static uint8_t *page_for_write(struct tmpfs_node *n, uint32_t pg)
{
	if (!grow_slots(n, pg))
		return NULL;
	if (n->pages[pg])
		return n->pages[pg];
	if (!tmpfs_charge(n->sb, 1))
		return NULL;
	if (!new_page(n, pg)) {
		tmpfs_uncharge(n->sb, 1);
		return NULL;
	}
	return n->pages[pg];
}

int tmpfs_read(struct tmpfs_node *n, void *ubuf, uint32_t count, uint64_t off)
{
	mutex_lock(&n->data_lock);
	uint32_t size = n->n.size, done = 0;
	int err = 0;
	if (off < size && count > size - off)
		count = size - (uint32_t)off;
	while (off < size && done < count) {
		uint32_t pos = (uint32_t)off + done, po = pos % TMPFS_PAGE, pg = pos / TMPFS_PAGE;
		uint32_t chunk = TMPFS_PAGE - po < count - done ? TMPFS_PAGE - po : count - done;
		const uint8_t *page = pg < n->npages && n->pages[pg] ? n->pages[pg] : zeros;
		if (copy_to_user((char *)ubuf + done, page + po, chunk) < 0) {
			err = -EFAULT;
			break;
		}
		done += chunk;
	}
	mutex_unlock(&n->data_lock);
	return done ? (int)done : err;
}

int tmpfs_write(struct tmpfs_node *n, const void *ubuf, uint32_t count, uint64_t *pos,
		bool append)
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
		if (copy_from_user(page + po, (const char *)ubuf + done, chunk) < 0) {
			err = -EFAULT;
			break;
		}
		done += chunk;
	}
	if (done && off + done > n->n.size)	/* a write that wrote nothing grows nothing */
		n->n.size = (uint32_t)(off + done);
	*pos = off + done;
	mutex_unlock(&n->data_lock);
	if (done)
		tmpfs_touch(n, true);
	return done ? (int)done : err;
}

/* Pages first..end-1 go back (holes again); under the data mutex or
 * when no one else can reach the file. */
static void free_range(struct tmpfs_node *n, uint32_t first, uint32_t end)
{
	uint32_t freed = 0;
	for (uint32_t i = first; i < n->npages && i < end; i++)
		if (n->pages[i]) {
			pmm_free(V2P(n->pages[i]));
			n->pages[i] = NULL;
			freed++;
		}
	if (freed) {
		tmpfs_uncharge(n->sb, freed);
		__atomic_sub_fetch(&n->present, freed, __ATOMIC_RELAXED);
	}
}

static void free_from(struct tmpfs_node *n, uint32_t first)
{
	free_range(n, first, UINT32_MAX);
}

/* Bytes off..off+len-1 read as zeros (holes stay holes); under the mutex. */
static void zero_bytes(struct tmpfs_node *n, uint64_t off, uint64_t len)
{
	for (uint64_t at = off; at < off + len;) {
		uint32_t pg = (uint32_t)(at / TMPFS_PAGE), po = (uint32_t)(at % TMPFS_PAGE);
		uint64_t chunk = TMPFS_PAGE - po < off + len - at ? TMPFS_PAGE - po : off + len - at;
		if (pg < n->npages && n->pages[pg])
			memset(n->pages[pg] + po, 0, (size_t)chunk);
		at += chunk;
	}
}

int tmpfs_truncate(struct tmpfs_node *n, uint64_t size)
{
	if (size > TMPFS_FILE_MAX)
		return -EFBIG;
	mutex_lock(&n->data_lock);
	uint32_t keep = (uint32_t)((size + TMPFS_PAGE - 1) / TMPFS_PAGE);
	free_from(n, keep);
	uint32_t tail = (uint32_t)size % TMPFS_PAGE;
	if (tail && keep - 1 < n->npages && n->pages[keep - 1])	/* past the end reads 0 */
		memset(n->pages[keep - 1] + tail, 0, TMPFS_PAGE - tail);
	n->n.size = (uint32_t)size;
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
	uint32_t first = (uint32_t)(off / TMPFS_PAGE);
	uint32_t end = (uint32_t)((off + len + TMPFS_PAGE - 1) / TMPFS_PAGE), missing = 0;
	if (!grow_slots(n, end - 1))
		return -ENOSPC;
	for (uint32_t pg = first; pg < end; pg++)
		missing += !n->pages[pg];
	if (!tmpfs_charge(n->sb, missing))
		return -ENOSPC;
	for (uint32_t pg = first; pg < end; pg++)
		if (!n->pages[pg]) {
			if (!new_page(n, pg)) {
				tmpfs_uncharge(n->sb, missing);	/* what is left of it */
				return -ENOSPC;
			}
			missing--;
		}
	return 0;
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
		if (first < end)
			free_range(n, first, end);	/* the whole ones: holes */
	} else {
		err = allocate_range(n, off, len);
		if (!err && !(mode & FALLOC_FL_KEEP_SIZE) && off + len > n->n.size)
			n->n.size = (uint32_t)(off + len);
	}
	mutex_unlock(&n->data_lock);
	if (!err)
		tmpfs_touch(n, true);
	return err;
}

void tmpfs_free_pages(struct tmpfs_node *n)
{
	free_from(n, 0);
	kfree(n->pages);
	n->pages = NULL;
	n->npages = 0;
}
