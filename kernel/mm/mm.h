/*
 * kernel/mm/ - memory: physical frames and their reference counts (pmm;
 * lock "pmm" and a frame cache per CPU), the kernel heap (kmalloc; a cache
 * per CPU), kernel stacks (kstack), page tables and the direct map (vm),
 * an address space, shared by the tasks that use it (its regions: mm,
 * this file; its life: space; the mm lock guards its regions and page
 * tables), the memory calls (mmap), page faults and copy-on-write
 * (fault), mappings of tmpfs files (filemap), and the one checked path
 * to user memory (uaccess).
 *
 * Face of this folder. May call: lib, kernel/arch, kernel/debug, kernel/fs, kernel/task.
 *
 * mm.h - an address space: its page tables and its regions (kernel/mm/mm.c).
 *
 * Linux calls a region a vm_area and the address space an mm; so do we.
 * An mm is an object of its own, counted by its users (Linux's
 * mm_users): every thread of a process that uses it, and clone(CLONE_VM)
 * or vfork gives another process the same one. fork copies it
 * (copy-on-write, mm_copy), exec builds a new one and lets go of the
 * old, and the last user to let go (exit, exec) gives it all back. A
 * region is a page-aligned range [start, end) with one protection and one
 * origin: anonymous memory (zero-filled when first touched), a private
 * copy of an initrd file, a tmpfs file's own pages, shared or private
 * (kernel/mm/filemap.c; the region holds the file), or anonymous memory
 * shared with the children forked after it was mapped. The program image, the brk heap and the
 * stack are regions like any other (docs/kernel.md, "Address space").
 *
 * Teaching size: a sorted array where Linux has a maple tree. It lives
 * on the kernel heap and doubles when full, up to MM_MAX_AREAS (Linux's
 * vm.max_map_count is 65,530): glibc's malloc maps every block over
 * 128 KiB on its own, and freeing every other one of 300 such blocks
 * leaves 300 regions.
 */
#ifndef KERNEL_MM_H
#define KERNEL_MM_H

#include <stdbool.h>
#include <stdint.h>
#include "vm.h"
#include "lib/spinlock.h"
#include <uapi/mman.h>	/* PROT_*, MAP_*: shared with libc */

#define MM_MAX_AREAS	4096
/* No mapping below 64 KiB (Debian's vm.mmap_min_addr): a NULL pointer
 * plus a small offset always faults. */
#define MMAP_MIN_ADDR	0x10000u
/* New mappings go top-down from here: below the stack's 8 MiB. */
#define MMAP_BASE	(0xBFFFF000u - (8u << 20))

/* vm_area.flags */
#define VMA_SHARED	0x1	/* MAP_SHARED: pages stay shared after fork */
#define VMA_GROWSDOWN	0x2	/* the stack: a fault just below grows it */
#define VMA_HEAP	0x4	/* brk's */
#define VMA_MAYWRITE	0x8	/* a shared file mapping whose descriptor could write */
#define VMA_NOWRITE	0x10	/* may never be made writable (SHM_RDONLY): Linux's !VM_MAYWRITE */
#define VMA_LOCKED	0x20	/* mlock, MAP_LOCKED: VmLck counts it (nothing is paged out) */

struct initrd_file;
struct vm_area;
struct ldt;

/*
 * A region whose frames belong to an object outside the address space (a
 * System V shared memory segment, kernel/ipc/shm.c), as Linux's
 * vm_operations_struct: open is told of every region made from it (its
 * insertion, fork's copy, a split: area_hold), close of every one that
 * goes (munmap, exec, exit: area_drop), so that the object counts the
 * regions that map it; fault gives the frame for a page touched first
 * (the object's own, one reference more for the mapping; 0 or -ENOMEM). Called under the mm lock: none may sleep. Such
 * regions are never merged or moved.
 */
struct vm_area_ops {
	void (*open)(const struct vm_area *a);
	void (*close)(const struct vm_area *a);
	int (*fault)(const struct vm_area *a, uint32_t va, uint32_t *pa);
};

struct vm_area {
	uint32_t start, end;		/* page-aligned, start < end */
	uint8_t prot;			/* PROT_READ | PROT_WRITE | PROT_EXEC */
	uint8_t flags;			/* VMA_* */
	const struct initrd_file *file;	/* a file mapping's file, or NULL */
	uint32_t file_off;		/* the file's byte at start (ops: the object's) */
	const struct vm_area_ops *ops;	/* NULL but for an outside object's region */
	void *priv;			/* that object */
};

struct mm {
	/* Its users (tasks), changed atomically: the last mm_put frees it.
	 * The page tables never change hands: pgdir and the map of where it
	 * has pages (kernel/mm/vm.c) are the mm's for life. */
	int users;
	pde_t *pgdir;
	struct uspace_map map;
	struct vm_area *area;			/* sorted by start, disjoint (kmalloc) */
	int n, cap;				/* regions, room for */
	uint32_t brk_start, brk;		/* the heap: [brk_start, brk) */
	/* Where exec put the argument and environment strings on the stack
	 * (Linux's mm->arg_start...): /proc/PID/cmdline and environ read
	 * them from there, as they are now. */
	uint32_t arg_start, arg_end, env_start, env_end;
	bool lock_future;			/* mlockall(MCL_FUTURE): new regions locked */
	uint32_t hiwater_vm;			/* pages mapped, the most before an unmap (VmPeak) */
	/* Its local descriptor table (modify_ldt, kernel/arch/ldt.c), NULL
	 * for none: replaced whole under the lock below, never changed in
	 * place; copied by fork, dropped by exec and at the end. */
	struct ldt *ldt;
	/* One task at a time changes the regions or the page tables (a
	 * fault, mmap and friends, fork's copy): its users may run on
	 * several CPUs. A spinlock: nothing under it sleeps. Linux has a
	 * sleeping mmap_lock, taken for reading by faults. */
	struct spinlock lock;
};

/* mlock and munlock of [start, end), whole pages: every region there
 * (split at the ends) gets or loses VMA_LOCKED; -ENOMEM where a page of
 * it is not mapped, nothing changed. mm_lock_all: every region
 * (mlockall, munlockall). */
int mm_lock_range(struct mm *mm, uint32_t start, uint32_t end, bool lock);
void mm_lock_all(struct mm *mm, bool lock);
/* The pages of the locked regions (VmLck). */
uint32_t mm_locked_pages(const struct mm *mm);

/* The region holding va, or NULL. */
struct vm_area *mm_find(struct mm *mm, uint32_t va);
/* The lowest region overlapping [start, end), or NULL. */
struct vm_area *mm_overlap(struct mm *mm, uint32_t start, uint32_t end);
/* Pages mapped, for RLIMIT_AS. */
uint32_t mm_total_pages(const struct mm *mm);
/* Room for `more` regions beyond n, now: 0, or -ENOMEM past MM_MAX_AREAS
 * or when the heap has no bigger array (then nothing changed). */
int mm_reserve(struct mm *mm, int more);
/* Add a region over an unmapped range; 0 or -ENOMEM (too many regions,
 * or no memory for a bigger array). */
int mm_insert(struct mm *mm, const struct vm_area *a);
/* Forget [start, end) and drop its pages; -ENOMEM if a split needs a
 * region more than there is room for (then nothing changed). */
int mm_unmap(struct mm *mm, uint32_t start, uint32_t end);
/* Give [start, end), which must be mapped throughout, protection prot;
 * -ENOMEM if not all mapped or no room to split (nothing changed). */
int mm_protect(struct mm *mm, uint32_t start, uint32_t end, uint8_t prot);
/* Split so that a region starts at va (if one holds it); -ENOMEM if full. */
int mm_split_at(struct mm *mm, uint32_t va);
/* Join neighbours that could be one region. */
void mm_merge(struct mm *mm);
/* The highest free range of len bytes below MMAP_BASE, or 0. */
uint32_t mm_free_range(struct mm *mm, uint32_t len);
/* The PTE bits a present page of a has; writable is whether a write may
 * go straight to the frame (not copy-on-write). */
uint32_t mm_pte_flags(const struct vm_area *a, bool writable);
/* fork: child's regions (new, empty) become copies of parent's, each
 * held again, unlocked (mlock is not inherited); 0 or -ENOMEM. */
int mm_copy_regions(struct mm *child, const struct mm *parent);
/* The last user's end: each region's object hears it go (close), and
 * the regions are no more (the array stays, for the next user). */
void mm_drop_regions(struct mm *mm);

/* The life of an address space (kernel/mm/space.c). A new empty one
 * (exec, init), its one user the caller; NULL when memory runs out. */
struct mm *mm_alloc(void);
/* fork: a copy of mm, copy-on-write (Linux's dup_mmap; its lock taken
 * here), its one user the caller; its regions lose their locks. NULL
 * when memory runs out. */
struct mm *mm_copy(struct mm *mm);
/* The address spaces each CPU keeps for its next fork (kernel/mm/mm.c)
 * back to the heap and the frame allocator (memory is short, or a leak
 * test counts the free frames). */
void mm_drain_caches(void);
/* One user more: a new thread, clone(CLONE_VM), vfork. */
void mm_get(struct mm *mm);
/* One user less (exit, exec). The last gives everything back: each
 * region's object hears it go (close), then the pages, the page tables
 * and the directory. No spinlock held; no CPU may have it loaded. */
void mm_put(struct mm *mm);
/* The lock above (in kernel/mm/mmap.c). */
void mm_lock(struct mm *mm);
void mm_unlock(struct mm *mm);

#endif
