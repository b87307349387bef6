/*
 * filemap.c - mappings of tmpfs files, as Linux maps a file's page cache.
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
	vm_set_pte(p->pgdir, va, pte, copy | mm_pte_flags(a, true));
	pmm_unref(pa);
	p->mm.cow_copies++;
	return FAULT_OK;
}

enum fault_result filemap_fault(struct proc *p, const struct vm_area *a, uint32_t va,
				pte_t *pte, bool write)
{
	uint32_t pg, pa;
	if (!file_page(a, va, &pg))
		return FAULT_SIGBUS;
	int err = tmpfs_fault_page(tmpfs_of(a->file), pg, &pa);
	if (err)
		return err == -ENOMEM ? FAULT_OOM : FAULT_SIGBUS;
	bool shared = a->flags & VMA_SHARED;
	if (write && !shared) {
		enum fault_result r = map_copy(p, a, va, pte, pa);
		if (r != FAULT_OK)
			pmm_unref(pa);
		return r;
	}
	vm_set_pte(p->pgdir, va, pte, pa | mm_pte_flags(a, shared) | PTE_FILE);
	return FAULT_OK;
}

enum fault_result filemap_copy(struct proc *p, const struct vm_area *a, uint32_t va, pte_t *pte)
{
	return map_copy(p, a, va, pte, PTE_ADDR(*pte));	/* the entry's reference goes */
}

/* Under p's mm lock: the pages first..end-1 of file out of p's regions. */
static void unmap_in(struct proc *p, const struct initrd_file *file, uint32_t first,
		     uint32_t end, bool cows)
{
	for (int i = 0; i < p->mm.n; i++) {
		const struct vm_area *a = &p->mm.area[i];
		if (a->file != file)
			continue;
		uint64_t apg = a->file_off / PAGE_SIZE, aend = apg + (a->end - a->start) / PAGE_SIZE;
		uint64_t lo = first > apg ? first : apg, hi = end < aend ? end : aend;
		for (uint64_t pg = lo; pg < hi; pg++) {
			uint32_t va = a->start + (uint32_t)(pg - apg) * PAGE_SIZE;
			pte_t *pte = vm_walk(p->pgdir, va, false);
			if (pte && (*pte & PTE_P) && (cows || (*pte & PTE_FILE)))
				vm_free_range(p->pgdir, va, PAGE_SIZE);
		}
	}
}

/* Every group's address space (its leader's), under its lock; a process
 * being forked is skipped: it has no file page yet (see the top). */
void filemap_unmap(const struct initrd_file *file, uint32_t first, uint32_t end, bool cows)
{
	struct proc *p;
	for_each_task(p) {
		if (p->group_leader != p || p->pstate == P_EMBRYO)
			continue;
		mm_lock(&p->mm);
		if (p->pgdir) {
			unmap_in(p, file, first, end, cows);
			if (vm_take_stale(p->pgdir))
				smp_flush_tlb(p->pgdir);
		}
		mm_unlock(&p->mm);
	}
}
