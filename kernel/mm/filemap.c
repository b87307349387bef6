/*
 * filemap.c - mappings of files' own pages, as Linux maps a file's page
 * cache: tmpfs files', and the initrd's.
 *
 * An initrd file is read-only and never changes, so its page cache is a
 * frame per page read, made at the first fault on it and kept while the
 * system runs; every private mapping maps that one frame read-only (a
 * write copies it, as the cache's own reference says it is not the
 * process's alone), so a hundred shells hold one copy of the shell's code.
 * Only a private mapping's read fault maps it: a write fault copies the
 * file's bytes into a frame of the process's own, as before, and a shared
 * mapping of an initrd file has frames of its own (the file cannot be
 * written).
 *
 * A tmpfs file's pages are frames of their own (kernel/fs/tmpfs_data.c),
 * and a mapping maps those very frames, each with one more reference
 * (pmm_ref) and the software bit PTE_FILE:
 *   - MAP_SHARED: writable if the region is, so a write through it is
 *     the file's, seen by read() and by every other mapping at once;
 *   - MAP_PRIVATE: read-only, so the first write copies the page
 *     (filemap_copy), and the copy is the process's alone;
 *   - a page wholly past the end of the file is SIGBUS, as is a page the
 *     full mount cannot give.
 * fork copies no PTE_FILE entry (kernel/mm/vm.c): the child faults the
 * file's page in again, as Linux's copy_page_range skips such ranges, so
 * every mapped file page is in a page table that a truncation can find.
 * A truncation (filemap_unmap) finds them by walking every address
 * space's regions for the file; Linux keeps a tree of a file's mappings
 * (i_mmap) instead. Teaching size: only a file that is mapped pays.
 */
#include "filemap.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "mm.h"
#include "pmm.h"
#include "kernel/arch/smp.h"
#include "kernel/fs/tmpfs.h"
#include "kernel/task/proc.h"
#include "kernel/fs/initrd.h"
#include "kmalloc.h"

/* By a file's index (initrd_ino - 1): the frames of its n pages, 0 for a
 * page not read yet. Grows to the highest index faulted. */
struct file_cache {
	uint32_t *frames;
	uint32_t n;
};
static struct spinlock cache_lock = SPINLOCK_INIT("initrd page cache");
static struct file_cache *cache;
static uint32_t cache_len;
static uint32_t cache_frames;		/* /proc/meminfo's Cached */

/* The file's page number at va of a; past 4 GiB (mremap grew it): none. */
static bool file_page(const struct vm_area *a, uint32_t va, uint32_t *pg)
{
	uint64_t off = (uint64_t)a->file_off + (va - a->start);
	*pg = (uint32_t)(off / PAGE_SIZE);
	return off <= 0xFFFFFFFFu;
}

/* A private copy of the frame at pa becomes the page at va; the
 * caller's reference to pa (a fault's, or the entry's it replaces) is
 * given back. Out of memory: nothing changed. */
static enum fault_result map_copy(struct proc *p, const struct vm_area *a, uint32_t va,
				  pte_t *pte, uint32_t pa)
{
	uint32_t copy = pmm_alloc_user();
	if (!copy)
		return FAULT_OOM;	/* nothing changed */
	memcpy(P2V(copy), P2V(pa), PAGE_SIZE);
	vm_set_pte(p->mm->pgdir, va, pte, copy | mm_pte_flags(a, true));
	pmm_unref(pa);
	p->group->cow_copies++;
	return FAULT_OK;
}

/* The file whose bytes f holds: a hard link's, or f. */
static const struct initrd_file *data_of(const struct initrd_file *f)
{
	return f->hardlink ? f->hardlink : f;
}

bool filemap_cached(const struct vm_area *a, bool write)
{
	const struct initrd_file *f = a->file;
	return f && !write && !a->ops && !(a->flags & VMA_SHARED) && f->owner == NODE_INITRD &&
	       !f->is_dir && !f->procfs && !f->rdev && data_of(f)->data;
}

/* f's slot of the cache, made (and the cache grown) if need be; NULL when
 * memory runs out. cache_lock held. */
static uint32_t *cache_pages(const struct initrd_file *f)
{
	uint32_t i = initrd_ino(f) - 1;
	if (i >= cache_len) {
		uint32_t len = i + 64;
		struct file_cache *grown = kzalloc(len * sizeof(*grown));
		if (!grown)
			return NULL;
		if (cache)
			memcpy(grown, cache, cache_len * sizeof(*grown));
		kfree(cache);
		cache = grown;
		cache_len = len;
	}
	if (!cache[i].frames) {
		cache[i].n = PAGE_ROUND_UP(f->size) / PAGE_SIZE;
		cache[i].frames = kzalloc(cache[i].n * sizeof(uint32_t));
	}
	return cache[i].frames;
}

/* Page pg of the initrd file f, read once into its frame; *pa with one
 * more reference. 0, -EFAULT past the end of the file, -ENOMEM. */
static int initrd_page(const struct initrd_file *f, uint32_t pg, uint32_t *pa)
{
	f = data_of(f);
	if (pg >= PAGE_ROUND_UP(f->size) / PAGE_SIZE)
		return -EFAULT;
	spin_lock(&cache_lock);
	uint32_t *pages = cache_pages(f);
	if (pages && !pages[pg] && (pages[pg] = pmm_alloc_user()) != 0) {
		uint32_t off = pg * PAGE_SIZE, n = f->size - off < PAGE_SIZE ? f->size - off : PAGE_SIZE;
		memset(P2V(pages[pg]), 0, PAGE_SIZE);
		memcpy(P2V(pages[pg]), f->data + off, n);
		cache_frames++;
	}
	*pa = pages ? pages[pg] : 0;
	if (*pa)
		pmm_ref(*pa);
	spin_unlock(&cache_lock);
	return *pa ? 0 : -ENOMEM;
}

/* The frames of pages that only the cache holds given back; true when
 * none of the file's is left. cache_lock held: no fault can take one. */
static bool drop_pages(uint32_t *pages, uint32_t n)
{
	bool empty = true;
	for (uint32_t pg = 0; pg < n; pg++) {
		if (pages[pg] && pmm_refs(pages[pg]) == 1) {
			pmm_unref(pages[pg]);
			pages[pg] = 0;
			cache_frames--;
		}
		empty &= !pages[pg];
	}
	return empty;
}

void filemap_drop_cache(void)
{
	bool empty = true;
	spin_lock(&cache_lock);
	for (uint32_t i = 0; i < cache_len; i++) {
		struct file_cache *c = &cache[i];
		if (c->frames && drop_pages(c->frames, c->n)) {
			kfree(c->frames);
			c->frames = NULL;
		}
		empty &= !c->frames;
	}
	if (empty) {
		kfree(cache);
		cache = NULL;
		cache_len = 0;
	}
	spin_unlock(&cache_lock);
}

bool filemap_is_cached_page(const struct vm_area *a, uint32_t va, uint32_t pa)
{
	uint32_t pg;
	if (!filemap_cached(a, false) || !file_page(a, va, &pg))
		return false;
	uint32_t i = initrd_ino(data_of(a->file)) - 1;
	spin_lock(&cache_lock);
	bool cached = i < cache_len && cache[i].frames && pg < cache[i].n &&
		      cache[i].frames[pg] == pa;
	spin_unlock(&cache_lock);
	return cached;
}

uint32_t filemap_cached_frames(void)
{
	return __atomic_load_n(&cache_frames, __ATOMIC_RELAXED);
}

enum fault_result filemap_fault(struct proc *p, const struct vm_area *a, uint32_t va,
				pte_t *pte, bool write)
{
	uint32_t pg, pa;
	if (!file_page(a, va, &pg))
		return FAULT_SIGBUS;
	int err = tmpfs_of(a->file) ? tmpfs_fault_page(tmpfs_of(a->file), pg, &pa)
				    : initrd_page(a->file, pg, &pa);
	if (err)
		return err == -ENOMEM ? FAULT_OOM : FAULT_SIGBUS;
	bool shared = a->flags & VMA_SHARED;
	if (write && !shared) {
		enum fault_result r = map_copy(p, a, va, pte, pa);
		if (r != FAULT_OK)
			pmm_unref(pa);
		return r;
	}
	/* An initrd page is never truncated away: fork copies its entry as any
	 * private read-only page's (a write copies it, since the cache holds
	 * it too), and the child need not fault it in again. */
	uint32_t file = tmpfs_of(a->file) ? PTE_FILE : 0;
	vm_set_pte(p->mm->pgdir, va, pte, pa | mm_pte_flags(a, shared) | file);
	return FAULT_OK;
}

enum fault_result filemap_copy(struct proc *p, const struct vm_area *a, uint32_t va, pte_t *pte)
{
	return map_copy(p, a, va, pte, PTE_ADDR(*pte));	/* the entry's reference goes */
}

/* Under mm's lock: the pages first..end-1 of file out of its regions. */
static void unmap_in(struct mm *mm, const struct initrd_file *file, uint32_t first,
		     uint32_t end, bool cows)
{
	for (int i = 0; i < mm->n; i++) {
		const struct vm_area *a = &mm->area[i];
		if (a->file != file)
			continue;
		uint64_t apg = a->file_off / PAGE_SIZE, aend = apg + (a->end - a->start) / PAGE_SIZE;
		uint64_t lo = first > apg ? first : apg, hi = end < aend ? end : aend;
		for (uint64_t pg = lo; pg < hi; pg++) {
			uint32_t va = a->start + (uint32_t)(pg - apg) * PAGE_SIZE;
			pte_t *pte = vm_walk(mm->pgdir, va, false);
			if (pte && (*pte & PTE_P) && (cows || (*pte & PTE_FILE)))
				vm_free_range(mm->pgdir, va, PAGE_SIZE);
		}
	}
}

/* Every process's address space (its leader's, kept still by its task
 * lock), under its lock; one that processes share is visited once for
 * each (the second finds nothing left). A process being forked is
 * skipped: it has no file page yet (see the top). */
void filemap_unmap(const struct initrd_file *file, uint32_t first, uint32_t end, bool cows)
{
	struct proc *p;
	for_each_task(p) {
		if (p->group_leader != p || p->pstate == P_EMBRYO)
			continue;
		task_lock(p);
		struct mm *mm = p->mm;
		if (mm) {
			mm_lock(mm);
			unmap_in(mm, file, first, end, cows);
			if (vm_take_stale(mm->pgdir))
				smp_flush_tlb(mm->pgdir);
			mm_unlock(mm);
		}
		task_unlock(p);
	}
}
