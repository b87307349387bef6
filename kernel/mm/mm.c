/*
 * mm.c - the regions of an address space (struct mm, kernel/mm/mm.h);
 * its life (made, copied, shared, let go) is kernel/mm/space.c's.
 *
 * This file keeps the list: find, insert, split, merge, unmap, protect,
 * and where a new mapping goes. What a region's pages are is decided when
 * one is touched (kernel/mm/fault.c); the system calls that change regions
 * are kernel/mm/mmap.c. Every function here runs under the mm's lock, or
 * on an mm that no one else can reach yet (exec's, fork's new one).
 */
#include "mm.h"
#include "lib/errno.h"
#include "kernel/fs/tmpfs.h"
#include "kmalloc.h"
#include "kernel/debug/panic.h"
#include "pmm.h"
#include "lib/string.h"

struct vm_area *mm_find(struct mm *mm, uint32_t va)
{
	for (int i = 0; i < mm->n && mm->area[i].start <= va; i++)
		if (va < mm->area[i].end)
			return &mm->area[i];
	return NULL;
}

struct vm_area *mm_overlap(struct mm *mm, uint32_t start, uint32_t end)
{
	for (int i = 0; i < mm->n && mm->area[i].start < end; i++)
		if (mm->area[i].end > start)
			return &mm->area[i];
	return NULL;
}

uint32_t mm_total_pages(const struct mm *mm)
{
	uint32_t pages = 0;
	for (int i = 0; i < mm->n; i++)
		pages += (mm->area[i].end - mm->area[i].start) / PAGE_SIZE;
	return pages;
}

/* A region that maps a tmpfs file holds it (tmpfs_map_hold), and so
 * does each copy of it (a split, fork's); each lets go as it goes (a
 * merge, munmap, exec, exit). The initrd's files never go. A region of
 * an outside object tells the object the same (vm_area_ops: open, close). */
static void area_hold(const struct vm_area *a)
{
	if (tmpfs_of(a->file))
		tmpfs_map_hold(a->file);
	if (a->ops)
		a->ops->open(a);
}

static void area_drop(const struct vm_area *a)
{
	if (tmpfs_of(a->file))
		tmpfs_map_drop(a->file);
	if (a->ops)
		a->ops->close(a);
}

/* The array doubles (from 8) when full. */
int mm_reserve(struct mm *mm, int more)
{
	int cap = mm->cap ? mm->cap : 8;

	if (mm->n + more <= mm->cap)
		return 0;
	if (mm->n + more > MM_MAX_AREAS)
		return -ENOMEM;
	while (cap < mm->n + more)
		cap *= 2;
	struct vm_area *bigger = kmalloc(cap * sizeof(*bigger));
	if (!bigger)
		return -ENOMEM;
	if (mm->n)
		memcpy(bigger, mm->area, mm->n * sizeof(*bigger));
	kfree(mm->area);
	mm->area = bigger;
	mm->cap = cap;
	return 0;
}

int mm_insert(struct mm *mm, const struct vm_area *a)
{
	int i = 0;

	KASSERT(a->start < a->end && !mm_overlap(mm, a->start, a->end));
	if (mm_reserve(mm, 1) < 0)
		return -ENOMEM;
	while (i < mm->n && mm->area[i].start < a->start)
		i++;
	memmove(&mm->area[i + 1], &mm->area[i], (mm->n - i) * sizeof(*a));
	mm->area[i] = *a;
	mm->n++;
	area_hold(a);
	return 0;
}

static void remove_area(struct mm *mm, int i)
{
	area_drop(&mm->area[i]);
	memmove(&mm->area[i], &mm->area[i + 1], (mm->n - i - 1) * sizeof(mm->area[0]));
	mm->n--;
}

/* Would splitting at va need a new region? */
static bool split_needed(struct mm *mm, uint32_t va)
{
	struct vm_area *a = mm_find(mm, va);
	return a && a->start != va;
}

int mm_split_at(struct mm *mm, uint32_t va)
{
	struct vm_area *a = mm_find(mm, va);

	if (!a || a->start == va)
		return 0;
	int i = a - mm->area;
	if (mm_reserve(mm, 1) < 0)
		return -ENOMEM;
	a = &mm->area[i];		/* the array may have moved */
	struct vm_area upper = *a;
	upper.start = va;
	upper.file_off += va - a->start;	/* the file's byte at va */
	a->end = va;
	return mm_insert(mm, &upper);
}

/* Room for the (at most two) splits at start and end, made now so that
 * the change cannot fail halfway. */
static int room_to_split(struct mm *mm, uint32_t start, uint32_t end)
{
	return mm_reserve(mm, split_needed(mm, start) + split_needed(mm, end));
}

static bool can_merge(const struct vm_area *a, const struct vm_area *b)
{
	return a->end == b->start && a->prot == b->prot && a->flags == b->flags && !a->ops && !b->ops &&
	       a->file == b->file && (!a->file || a->file_off + (a->end - a->start) == b->file_off);
}

void mm_merge(struct mm *mm)
{
	for (int i = 0; i + 1 < mm->n;) {
		if (can_merge(&mm->area[i], &mm->area[i + 1])) {
			mm->area[i].end = mm->area[i + 1].end;
			remove_area(mm, i + 1);
		} else {
			i++;
		}
	}
}

int mm_unmap(struct mm *mm, uint32_t start, uint32_t end)
{
	if (room_to_split(mm, start, end) < 0)
		return -ENOMEM;
	uint32_t total = mm_total_pages(mm);	/* the peak, before it shrinks */
	if (total > mm->hiwater_vm)
		mm->hiwater_vm = total;
	mm_split_at(mm, start);
	mm_split_at(mm, end);
	for (int i = 0; i < mm->n;) {
		struct vm_area *a = &mm->area[i];
		if (a->start >= start && a->end <= end) {
			vm_free_range(mm->pgdir, a->start, a->end - a->start);
			remove_area(mm, i);
		} else {
			i++;
		}
	}
	return 0;
}

/* Is [start, end) mapped with no hole? */
static bool fully_mapped(struct mm *mm, uint32_t start, uint32_t end)
{
	for (uint32_t va = start; va < end;) {
		struct vm_area *a = mm_find(mm, va);
		if (!a)
			return false;
		va = a->end;
	}
	return true;
}

uint32_t mm_pte_flags(const struct vm_area *a, bool writable)
{
	uint32_t flags = PTE_P | ((a->flags & VMA_SHARED) ? PTE_SHARED : 0);

	/* PROT_NONE: present (the frame stays the process's) but not for the
	 * user, so every access faults and fault.c says SEGV_ACCERR. */
	if (a->prot == PROT_NONE)
		return flags;
	flags |= PTE_U;
	if ((a->prot & PROT_WRITE) && writable)
		flags |= PTE_W;
	return flags;
}

/* The present pages of a take its (new) protection. A private page shared
 * with another process stays read-only: its first write copies it. */
static void reprotect_pages(pde_t *pgdir, const struct vm_area *a)
{
	for (uint32_t va = a->start; va < a->end; va += PAGE_SIZE) {
		pte_t *pte = vm_walk(pgdir, va, false);
		if (!pte || !(*pte & PTE_P))
			continue;
		pte_t file = *pte & PTE_FILE;	/* a file's page: a private one is copied */
		bool own = (a->flags & VMA_SHARED) || (!file && pmm_refs(PTE_ADDR(*pte)) == 1);
		vm_set_pte(pgdir, va, pte, PTE_ADDR(*pte) | file | mm_pte_flags(a, own));
	}
}

int mm_protect(struct mm *mm, uint32_t start, uint32_t end, uint8_t prot)
{
	if (!fully_mapped(mm, start, end) || room_to_split(mm, start, end) < 0)
		return -ENOMEM;
	mm_split_at(mm, start);
	mm_split_at(mm, end);
	for (int i = 0; i < mm->n; i++) {
		struct vm_area *a = &mm->area[i];
		if (a->start >= start && a->end <= end) {
			a->prot = prot;
			reprotect_pages(mm->pgdir, a);
		}
	}
	mm_merge(mm);
	return 0;
}

static void set_locked(struct vm_area *a, bool lock)
{
	a->flags = lock ? a->flags | VMA_LOCKED : a->flags & ~VMA_LOCKED;
}

int mm_lock_range(struct mm *mm, uint32_t start, uint32_t end, bool lock)
{
	if (!fully_mapped(mm, start, end) || room_to_split(mm, start, end) < 0)
		return -ENOMEM;
	mm_split_at(mm, start);
	mm_split_at(mm, end);
	for (int i = 0; i < mm->n; i++)
		if (mm->area[i].start >= start && mm->area[i].end <= end)
			set_locked(&mm->area[i], lock);
	mm_merge(mm);
	return 0;
}

void mm_lock_all(struct mm *mm, bool lock)
{
	for (int i = 0; i < mm->n; i++)
		set_locked(&mm->area[i], lock);
	mm_merge(mm);
}

uint32_t mm_locked_pages(const struct mm *mm)
{
	uint32_t pages = 0;
	for (int i = 0; i < mm->n; i++)
		if (mm->area[i].flags & VMA_LOCKED)
			pages += (mm->area[i].end - mm->area[i].start) / PAGE_SIZE;
	return pages;
}

/* Top-down from MMAP_BASE, as Linux's default layout: the first gap of len
 * bytes, going down past each region in the way. */
uint32_t mm_free_range(struct mm *mm, uint32_t len)
{
	uint32_t end = MMAP_BASE;

	while (len <= end && end - len >= MMAP_MIN_ADDR) {
		struct vm_area *a = mm_overlap(mm, end - len, end);
		if (!a)
			return end - len;
		end = a->start;
	}
	return 0;
}

/* ---- what fork and the last user do with the regions ------------------ */

int mm_copy_regions(struct mm *child, const struct mm *parent)
{
	if (mm_reserve(child, parent->n) < 0)
		return -ENOMEM;
	memcpy(child->area, parent->area, parent->n * sizeof(parent->area[0]));
	child->n = parent->n;
	for (int i = 0; i < child->n; i++) {
		area_hold(&child->area[i]);
		child->area[i].flags &= ~VMA_LOCKED;	/* locks are not inherited */
	}
	mm_merge(child);
	child->brk_start = parent->brk_start;
	child->brk = parent->brk;
	child->arg_start = parent->arg_start;
	child->arg_end = parent->arg_end;
	child->env_start = parent->env_start;
	child->env_end = parent->env_end;
	return 0;
}

void mm_drop_regions(struct mm *mm)
{
	for (int i = 0; i < mm->n; i++)
		area_drop(&mm->area[i]);
	mm->n = 0;
	mm->brk_start = mm->brk = 0;
	mm->arg_start = mm->arg_end = mm->env_start = mm->env_end = 0;
	mm->lock_future = false;
	mm->hiwater_vm = 0;
}
