/*
 * mmap.c - the system calls that change an address space's regions:
 * mmap2 and old mmap, munmap, mprotect, mremap, madvise, brk.
 *
 * Linux i386's semantics and errors, checked in Linux's order (mm/mmap.c,
 * mm/mprotect.c, mm/mremap.c, mm/madvise.c of 6.1), so that a bad call
 * gets the errno Linux gives and changes nothing. The regions themselves
 * are kernel/mm/mm.c; their pages arrive on first touch (kernel/mm/fault.c),
 * except a shared anonymous mapping's, which are made at once: a page
 * must be one frame in every process that shares it, and a child forked
 * before the first touch would otherwise get a page of its own. (Linux
 * keeps such pages in a shmem file instead; teaching size.) MAP_POPULATE
 * faults every page of a new mapping in before mmap returns.
 * A tmpfs file's mapping maps the file's own pages (kernel/mm/filemap.c);
 * an initrd file's gets copies of its bytes, which are read-only anyway.
 *
 * A task's address space is its group's, and maybe other processes' too
 * (kernel/mm/mm.h): each call works on it under its lock, and when the call took a page
 * away or narrowed one (vm_take_stale), the other CPUs that have it
 * loaded drop their cached translations before the lock is let go
 * (smp_flush_tlb); a call that only added pages interrupts no one.
 * Shortcut: the frames are freed
 * first, so a thread that writes to memory another thread is unmapping
 * at that moment may write to a freed frame; Linux frees them only after
 * the flush (its mmu_gather).
 */
#include "lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/fs/dev.h"		/* dev_is_zero */
#include <uapi/fcntl.h>		/* O_ACCMODE */
#include "mm.h"
#include "mmap.h"
#include "fault.h"
#include "pmm.h"
#include "kernel/task/proc.h"
#include "kernel/arch/smp.h"
#include "lib/string.h"
#include "uaccess.h"
#include "kernel/arch/x86.h"

#define RLIMIT_AS_PAGES(p) ((p)->group->rlim[RLIMIT_AS].rlim_cur / PAGE_SIZE)
/* Frames a mapping that takes its frames at once (brk's promise, a shared
 * mapping) must leave for everyone else: one process must not be able to
 * take the last free memory. 4 MiB. */
#define RESERVE_FRAMES 1024

static bool frames_left_for_others(uint32_t bytes)
{
	return bytes / PAGE_SIZE + RESERVE_FRAMES <= pmm_free_count();
}

/* Linux's may_expand_vm: RLIMIT_AS counts every mapped page. */
static bool may_expand(struct proc *p, uint32_t bytes)
{
	return mm_total_pages(p->mm) + bytes / PAGE_SIZE <= RLIMIT_AS_PAGES(p);
}

/* A shared anonymous range gets its zeroed frames now (see the top). */
static int populate_shared(struct proc *p, const struct vm_area *a, uint32_t start, uint32_t end)
{
	for (uint32_t va = start; va < end; va += PAGE_SIZE) {
		pte_t *pte = vm_walk(p->mm->pgdir, va, true);
		uint32_t pa = pte ? pmm_alloc_user() : 0;
		if (!pa)
			return -ENOMEM;
		memset(P2V(pa), 0, PAGE_SIZE);
		vm_set_pte(p->mm->pgdir, va, pte, pa | mm_pte_flags(a, true));
	}
	return 0;
}

/* Linux's LEGACY_MAP_MASK: the flags MAP_SHARED_VALIDATE accepts (no file
 * here adds any of its own, as DAX's MAP_SYNC would). */
#define LEGACY_MAP_MASK (MAP_SHARED | MAP_PRIVATE | MAP_FIXED | MAP_ANONYMOUS | \
			 MAP_DENYWRITE | MAP_EXECUTABLE | MAP_UNINITIALIZED | MAP_GROWSDOWN | \
			 MAP_LOCKED | MAP_NORESERVE | MAP_POPULATE | MAP_NONBLOCK | \
			 MAP_STACK | MAP_HUGETLB)
#define MAP_AS_ANONYMOUS 1	/* type_ok: /dev/zero, mapped as anonymous memory */

/* May this mapping's type go with its file and protection? (do_mmap's
 * switch on MAP_TYPE, in its order.) Anonymous memory is SHARED or
 * PRIVATE; a file's mapping may also be SHARED_VALIDATE, then with no
 * flag Linux does not know (EOPNOTSUPP). A shared mapping may write (now
 * or after mprotect: VMA_MAYWRITE) only a file open for writing; any
 * mapping needs a file open for reading. Only the tree's files map
 * (tmpfs's, and the initrd's, which are never open for writing) and
 * /dev/zero (MAP_AS_ANONYMOUS: zeroed memory of the mapping's own,
 * VMA_NOWRITE when shared from a descriptor not open for writing):
 * pipes, other devices, /proc and directories are ENODEV. */
static int type_ok(const struct file *f, uint32_t prot, uint32_t flags, uint8_t *vma_flags)
{
	uint32_t type = flags & MAP_TYPE;

	if (type != MAP_SHARED && type != MAP_PRIVATE && type != MAP_SHARED_VALIDATE)
		return -EINVAL;
	if (!f)
		return type == MAP_SHARED_VALIDATE ? -EINVAL : 0;
	if (type == MAP_SHARED_VALIDATE && (flags & ~(uint32_t)LEGACY_MAP_MASK))
		return -EOPNOTSUPP;
	uint32_t acc = f->flags & O_ACCMODE;
	bool writer = acc == O_WRONLY || acc == O_RDWR;
	if (type != MAP_PRIVATE && (prot & PROT_WRITE) && !writer)
		return -EACCES;
	if (type != MAP_PRIVATE && writer)
		*vma_flags |= VMA_MAYWRITE;
	if (acc == O_WRONLY)
		return -EACCES;
	bool zero = dev_is_zero(f);
	if (!zero && (f->type != FT_INITRD || f->node->is_dir))
		return -ENODEV;
	if (flags & MAP_GROWSDOWN)
		return -EINVAL;
	if (zero && type != MAP_PRIVATE && !writer)
		*vma_flags |= VMA_NOWRITE;
	return zero ? MAP_AS_ANONYMOUS : 0;
}

/* Where the mapping goes: addr itself (MAP_FIXED), the hint if free, or
 * the highest free range; an errno otherwise (get_unmapped_area). */
static int64_t place(struct proc *p, uint32_t addr, uint32_t len, uint32_t flags)
{
	if (len > KERNEL_OFFSET)
		return -ENOMEM;
	if (flags & (MAP_FIXED | MAP_FIXED_NOREPLACE)) {
		if (addr > KERNEL_OFFSET - len)
			return -ENOMEM;
		if (addr & (PAGE_SIZE - 1))
			return -EINVAL;
		if (addr < MMAP_MIN_ADDR)
			return -EPERM;		/* Linux: security_mmap_addr */
		return addr;
	}
	addr = PAGE_ROUND_UP(addr);
	if (addr >= MMAP_MIN_ADDR && addr <= KERNEL_OFFSET - len && !mm_overlap(p->mm, addr, addr + len))
		return addr;
	addr = mm_free_range(p->mm, len);
	return addr ? (int64_t)addr : -ENOMEM;
}

/* Make the region (MAP_FIXED: over whatever was there). */
static int map_region(struct proc *p, struct vm_area *a, uint32_t flags)
{
	uint32_t len = a->end - a->start;

	if (!may_expand(p, len))
		return -ENOMEM;
	if ((a->flags & VMA_SHARED) && !a->file && !frames_left_for_others(len))
		return -ENOMEM;
	if ((flags & MAP_FIXED) && mm_unmap(p->mm, a->start, a->end) < 0)
		return -ENOMEM;
	if (mm_insert(p->mm, a) < 0)
		return -ENOMEM;
	if ((a->flags & VMA_SHARED) && !a->file && populate_shared(p, a, a->start, a->end) < 0) {
		mm_unmap(p->mm, a->start, a->end);	/* cannot fail: no split */
		return -ENOMEM;
	}
	mm_merge(p->mm);
	return (int)a->start;
}

/* 192: mmap2 - offset in pages; f NULL for MAP_ANONYMOUS. */
static int mmap_file(uint32_t addr, uint32_t len, uint32_t prot, uint32_t flags,
		     struct file *f, uint32_t pgoff)
{
	struct proc *p = current();
	struct vm_area a = { 0, 0, (uint8_t)(prot & 7), 0, NULL, 0, NULL, NULL };

	if (flags & MAP_FIXED_NOREPLACE)
		flags |= MAP_FIXED;
	if (len == 0)
		return -EINVAL;
	len = PAGE_ROUND_UP(len);
	if (len == 0)
		return -ENOMEM;
	if (pgoff + (len >> 12) < pgoff)
		return -EOVERFLOW;
	/* Regions keep 32-bit file offsets: no initrd file reaches 4 GiB.
	 * (Linux maps such a range and answers its access with SIGBUS.) */
	if (!(flags & MAP_ANONYMOUS) && (uint64_t)pgoff * PAGE_SIZE + len > 0xFFFFFFFFu)
		return -EOVERFLOW;
	int64_t at = place(p, addr, len, flags);
	if (at < 0)
		return (int)at;
	if ((flags & MAP_FIXED_NOREPLACE) && mm_overlap(p->mm, (uint32_t)at, (uint32_t)at + len))
		return -EEXIST;
	int err = type_ok(f, prot, flags, &a.flags);
	if (err < 0)
		return err;
	if (err == MAP_AS_ANONYMOUS) {
		f = NULL;
		a.flags &= (uint8_t)~VMA_MAYWRITE;	/* a file's flag */
	}
	a.file = f ? f->node : NULL;
	a.start = (uint32_t)at;
	a.end = (uint32_t)at + len;
	a.file_off = a.file ? pgoff * PAGE_SIZE : 0;
	if ((flags & MAP_TYPE) != MAP_PRIVATE)
		a.flags |= VMA_SHARED;
	if (flags & MAP_GROWSDOWN)
		a.flags |= VMA_GROWSDOWN;
	if ((flags & MAP_LOCKED) || p->mm->lock_future)
		a.flags |= VMA_LOCKED;
	return map_region(p, &a, flags);
}

/* The file on fd is used for the call only (fd_use): a mapping names the
 * file's node, which outlives every descriptor. */
static int do_mmap2(uint32_t addr, uint32_t len, uint32_t prot, uint32_t flags, int fd, uint32_t pgoff)
{
	if (flags & MAP_ANONYMOUS)
		return mmap_file(addr, len, prot, flags, NULL, pgoff);
	struct fd_ref r = fd_use(fd);
	if (!r.file)
		return -EBADF;
	int ret = mmap_file(addr, len, prot, flags, r.file, pgoff);
	fd_done(r);
	return ret;
}

/* 90: the old mmap - one pointer to the six arguments, offset in bytes. */
int sys_old_mmap(const uint32_t *uargs)
{
	uint32_t a[6];

	if (copy_from_user(a, uargs, sizeof(a)) < 0)
		return -EFAULT;
	if (a[5] & (PAGE_SIZE - 1))
		return -EINVAL;
	return sys_mmap2(a[0], a[1], a[2], a[3], (int)a[4], a[5] >> 12);
}

/* 91 */
static int do_munmap(uint32_t addr, uint32_t len)
{
	struct proc *p = current();

	if ((addr & (PAGE_SIZE - 1)) || addr > KERNEL_OFFSET || len > KERNEL_OFFSET - addr)
		return -EINVAL;
	len = PAGE_ROUND_UP(len);
	if (len == 0)
		return -EINVAL;
	return mm_unmap(p->mm, addr, addr + len);
}

/* A file shared from a descriptor not open for writing, or a segment
 * attached SHM_RDONLY, may not become writable (do_mprotect_pkey:
 * VM_MAYWRITE is off). */
static int prot_allowed(struct mm *mm, uint32_t start, uint32_t end, uint32_t prot)
{
	for (int i = 0; i < mm->n; i++) {
		struct vm_area *a = &mm->area[i];
		if (a->start < end && a->end > start && (prot & PROT_WRITE) &&
		    ((a->file && (a->flags & VMA_SHARED) && !(a->flags & VMA_MAYWRITE)) ||
		     (a->flags & VMA_NOWRITE)))
			return -EACCES;
	}
	return 0;
}

/* 125 */
static int do_mprotect(uint32_t addr, uint32_t len, uint32_t prot)
{
	struct proc *p = current();

	if ((prot & PROT_GROWSDOWN) && (prot & PROT_GROWSUP))
		return -EINVAL;
	if (addr & (PAGE_SIZE - 1))
		return -EINVAL;
	if (len == 0)
		return 0;
	len = PAGE_ROUND_UP(len);
	if (len == 0 || addr + len < addr || addr + len > KERNEL_OFFSET)
		return -ENOMEM;
	if (prot & ~(uint32_t)(PROT_READ | PROT_WRITE | PROT_EXEC | PROT_SEM | PROT_GROWSDOWN | PROT_GROWSUP))
		return -EINVAL;
	int err = prot_allowed(p->mm, addr, addr + len, prot);
	if (err < 0)
		return err;
	return mm_protect(p->mm, addr, addr + len, (uint8_t)(prot & 7));
}

/* Grow a in place to new_end if nothing is in the way. */
static bool grow_in_place(struct proc *p, struct vm_area *a, uint32_t new_end)
{
	uint32_t old_end = a->end;

	if (new_end > MMAP_BASE && !(a->flags & VMA_GROWSDOWN) && old_end <= MMAP_BASE)
		return false;	/* leave the stack its room */
	if (new_end < old_end || new_end > KERNEL_OFFSET || mm_overlap(p->mm, old_end, new_end))
		return false;	/* past 4 GiB (it wrapped), into the kernel, or onto a neighbour */
	if ((a->flags & VMA_SHARED) && !a->file && !frames_left_for_others(new_end - old_end))
		return false;
	a->end = new_end;
	if ((a->flags & VMA_SHARED) && !a->file && populate_shared(p, a, old_end, new_end) < 0) {
		vm_free_range(p->mm->pgdir, old_end, new_end - old_end);
		a->end = old_end;
		return false;
	}
	return true;
}

/* Move [old, old+old_len) of region a to a new place of new_len bytes. */
static int move_region(struct proc *p, struct vm_area *a, uint32_t old, uint32_t old_len, uint32_t new_len)
{
	struct vm_area moved = *a;
	uint32_t to = mm_free_range(p->mm, new_len);

	if (!to || mm_reserve(p->mm, 2) < 0)	/* a split of the old, the new */
		return -ENOMEM;
	moved.start = to;
	moved.end = to + new_len;
	moved.file_off += old - a->start;
	if (vm_move_range(p->mm->pgdir, old, to, old_len) < 0)
		return -ENOMEM;
	mm_unmap(p->mm, old, old + old_len);	/* its pages are gone already */
	mm_insert(p->mm, &moved);
	if ((moved.flags & VMA_SHARED) && !moved.file &&
	    populate_shared(p, &moved, to + old_len, to + new_len) < 0) {
		mm_unmap(p->mm, to, to + new_len);
		return -ENOMEM;		/* Linux would have kept the old range; rare */
	}
	mm_merge(p->mm);
	return (int)to;
}

/* 163: mremap (MREMAP_MAYMOVE; not MREMAP_FIXED or DONTUNMAP: EINVAL). */
static int do_mremap(uint32_t old, uint32_t old_len, uint32_t new_len, uint32_t flags, uint32_t new_addr)
{
	struct proc *p = current();
	(void)new_addr;

	if (flags & ~(uint32_t)(MREMAP_MAYMOVE | MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;
	if ((flags & MREMAP_FIXED) && !(flags & MREMAP_MAYMOVE))
		return -EINVAL;
	if (flags & (MREMAP_FIXED | MREMAP_DONTUNMAP))
		return -EINVAL;		/* not here */
	if (old & (PAGE_SIZE - 1))
		return -EINVAL;
	old_len = PAGE_ROUND_UP(old_len);
	new_len = PAGE_ROUND_UP(new_len);
	if (new_len == 0)
		return -EINVAL;
	struct vm_area *a = mm_find(p->mm, old);
	if (!a)
		return -EFAULT;
	if (old_len == 0)
		return -EINVAL;		/* a second view of a shared mapping: not here */
	if (old_len > a->end - old)
		return -EFAULT;		/* across a region's end */
	if (a->ops)
		return -EINVAL;		/* an attached segment stays put here (Linux moves it) */
	if (new_len <= old_len) {
		int err = mm_unmap(p->mm, old + new_len, old + old_len);
		return err < 0 ? err : (int)old;
	}
	if (!may_expand(p, new_len - old_len))
		return -ENOMEM;
	if (old + old_len == a->end && grow_in_place(p, a, old + new_len)) {
		mm_merge(p->mm);
		return (int)old;
	}
	if (!(flags & MREMAP_MAYMOVE))
		return -ENOMEM;
	return move_region(p, a, old, old_len, new_len);
}

/* Linux 6.1's madvise_behavior_valid, less the privileged ones. */
static bool advice_valid(int advice)
{
	return (advice >= MADV_NORMAL && advice <= MADV_DONTNEED) ||
	       (advice >= MADV_FREE && advice <= MADV_POPULATE_WRITE);
}

/* MADV_DONTNEED: private pages go; the next touch finds zeros (or the
 * file's bytes). A shared mapping's pages stay: its data lives on in the
 * others, as in Linux's shmem. */
static void dont_need(struct proc *p, uint32_t start, uint32_t end)
{
	for (uint32_t va = start; va < end;) {
		struct vm_area *a = mm_find(p->mm, va);
		if (!a) {
			va += PAGE_SIZE;
			continue;
		}
		uint32_t stop = a->end < end ? a->end : end;
		if (!(a->flags & VMA_SHARED))
			vm_free_range(p->mm->pgdir, va, stop - va);
		va = stop;
	}
}

/* 219: advice is a hint, except MADV_DONTNEED; -ENOMEM if part of the
 * range is not mapped (after acting on the rest, as Linux). */
static int do_madvise(uint32_t addr, uint32_t len, int advice)
{
	struct proc *p = current();

	if (!advice_valid(advice) || (addr & (PAGE_SIZE - 1)))
		return -EINVAL;
	uint32_t end = addr + PAGE_ROUND_UP(len);
	if ((len && !PAGE_ROUND_UP(len)) || end < addr)
		return -EINVAL;
	if (end == addr)
		return 0;
	if (advice == MADV_DONTNEED)
		dont_need(p, addr, end);
	for (uint32_t va = addr; va < end;) {
		struct vm_area *a = mm_find(p->mm, va);
		if (!a)
			return -ENOMEM;
		va = a->end;
	}
	return 0;
}

/* ---- brk: the heap above the program's segments --------------------------- */

/* The heap region ends at the old break (rounded up): move its end. */
static int brk_move(struct proc *p, uint32_t old_end, uint32_t new_end)
{
	struct mm *mm = p->mm;

	if (new_end < old_end)
		return mm_unmap(mm, new_end, old_end);
	if (new_end + PAGE_SIZE > MMAP_BASE || mm_overlap(mm, old_end, new_end + PAGE_SIZE))
		return -ENOMEM;		/* Linux keeps a page's gap to the next region */
	if (!may_expand(p, new_end - old_end))
		return -ENOMEM;
	if (!frames_left_for_others(new_end - old_end))
		return -ENOMEM;
	struct vm_area heap = { old_end, new_end, PROT_READ | PROT_WRITE, VMA_HEAP, NULL, 0, NULL, NULL };
	if (mm_insert(mm, &heap) < 0)
		return -ENOMEM;
	mm_merge(mm);
	return 0;
}

/* 45: Linux returns the current break when it cannot move it. */
static int do_brk(uint32_t addr)
{
	struct proc *p = current();
	uint32_t old_end = PAGE_ROUND_UP(p->mm->brk), new_end = PAGE_ROUND_UP(addr);

	if (addr < p->mm->brk_start || addr >= MMAP_BASE)
		return (int)p->mm->brk;
	if (new_end != old_end && brk_move(p, old_end, new_end) < 0)
		return (int)p->mm->brk;
	p->mm->brk = addr;
	return (int)addr;
}

/* mm_lock (kernel/mm/mm.h), here rather than in mm.c, which the host unit
 * tests build: the holder may be waiting for this CPU to drop its stale
 * translations (smp_flush_tlb), so a waiter answers while it waits. */
void mm_lock(struct mm *mm)
{
	while (!spin_trylock(&mm->lock)) {
		smp_poll_calls();
		pause();
	}
}

void mm_unlock(struct mm *mm)
{
	spin_unlock(&mm->lock);
}

/* ---- the calls, one task at a time ---------------------------------------- */

/* Called as its own statement: the order in which a call's arguments
 * are evaluated is unspecified in C, so mm_leave(mm_enter(), do_...())
 * may run do_...() before taking the lock. */
static struct mm *mm_enter(void)
{
	struct mm *mm = current()->mm;
	mm_lock(mm);
	return mm;
}

static int mm_leave(struct mm *mm, int result)
{
	if (vm_take_stale(mm->pgdir))	/* something went: other CPUs forget it */
		smp_flush_tlb(mm->pgdir);
	mm_unlock(mm);
	return result;
}

/* MAP_POPULATE (MAP_NONBLOCK with it turns it off, as since Linux
 * 2.6.23): the new mapping's pages now, as first touches would make them:
 * written for a private writable mapping (Linux breaks copy-on-write
 * there), read otherwise. The first page that cannot be had ends it, and
 * mmap succeeds all the same, as Linux's (its __mm_populate ignores
 * errors). Without the mm lock: each page is a fault of its own. */
static void populate(uint32_t start, uint32_t len, uint32_t prot, uint32_t flags)
{
	bool write = (prot & PROT_WRITE) && (flags & MAP_TYPE) == MAP_PRIVATE;
	for (uint32_t off = 0; off < PAGE_ROUND_UP(len); off += PAGE_SIZE)
		if (mm_fault(current(), start + off, write) != FAULT_OK)
			return;
}

/* An address, not an errno: -4095..-1 are errors (Linux's IS_ERR_VALUE). */
#define MAP_ERR_MIN	((uint32_t)-4095)

int sys_mmap2(uint32_t addr, uint32_t len, uint32_t prot, uint32_t flags, int fd, uint32_t pgoff)
{
	struct mm *mm = mm_enter();
	int r = mm_leave(mm, do_mmap2(addr, len, prot, flags, fd, pgoff));
	if ((flags & (MAP_POPULATE | MAP_NONBLOCK)) == MAP_POPULATE && (uint32_t)r < MAP_ERR_MIN)
		populate((uint32_t)r, len, prot, flags);
	return r;
}

int sys_munmap(uint32_t addr, uint32_t len)
{
	struct mm *mm = mm_enter();
	return mm_leave(mm, do_munmap(addr, len));
}

int sys_mprotect(uint32_t addr, uint32_t len, uint32_t prot)
{
	struct mm *mm = mm_enter();
	return mm_leave(mm, do_mprotect(addr, len, prot));
}

int sys_mremap(uint32_t old, uint32_t old_len, uint32_t new_len, uint32_t flags, uint32_t new_addr)
{
	struct mm *mm = mm_enter();
	return mm_leave(mm, do_mremap(old, old_len, new_len, flags, new_addr));
}

int sys_madvise(uint32_t addr, uint32_t len, int advice)
{
	struct mm *mm = mm_enter();
	return mm_leave(mm, do_madvise(addr, len, advice));
}

int sys_brk(uint32_t addr)
{
	struct mm *mm = mm_enter();
	return mm_leave(mm, do_brk(addr));
}

/* mlockall (152) and munlockall (153): this kernel never pages anything
 * out (there is no swap), so every page a program has stays resident and
 * locking is a promise already kept; the locked regions are marked
 * (VMA_LOCKED), for /proc/PID/status's VmLck. The checks are Linux's: the
 * flags (MCL_ONFAULT alone is EINVAL), and an unprivileged caller needs a
 * RLIMIT_MEMLOCK (EPERM at 0). cyclictest locks its memory first. */
int sys_mlockall(int flags)
{
	struct proc *p = current();
	if (!flags || (flags & ~(MCL_CURRENT | MCL_FUTURE | MCL_ONFAULT)) ||
	    flags == MCL_ONFAULT)
		return -EINVAL;
	if (!proc_capable(p, CAP_IPC_LOCK) && p->group->rlim[RLIMIT_MEMLOCK].rlim_cur == 0)
		return -EPERM;
	struct mm *mm = mm_enter();
	mm->lock_future = flags & MCL_FUTURE;
	if (flags & MCL_CURRENT)
		mm_lock_all(mm, true);
	return mm_leave(mm, 0);
}

int sys_munlockall(void)
{
	struct mm *mm = mm_enter();
	mm->lock_future = false;
	mm_lock_all(mm, false);
	return mm_leave(mm, 0);
}

/* Is every page of [start, end) in some region? */
static bool range_mapped(struct mm *mm, uint32_t start, uint32_t end)
{
	for (uint32_t va = start; va < end; ) {
		struct vm_area *a = mm_find(mm, va);
		if (!a)
			return false;
		va = a->end;
	}
	return true;
}

/* mlock (150) and munlock (151): as mlockall, resident already, the
 * regions marked (split at the range's ends). Linux's checks: the range
 * is whole pages around [addr, addr + len) and must be mapped throughout
 * (ENOMEM); an unprivileged caller needs a RLIMIT_MEMLOCK (EPERM at 0).
 * stress-ng locks its shared state. */
static int do_mlock(uint32_t addr, uint32_t len, bool lock)
{
	struct proc *p = current();
	uint32_t start = PAGE_ROUND_DOWN(addr);
	uint64_t end = ((uint64_t)addr + len + PAGE_SIZE - 1) & ~(uint64_t)(PAGE_SIZE - 1);
	if (end > 0xFFFFFFFFull)
		return -EINVAL;		/* Linux: the range wraps */
	if (lock && !capable(CAP_IPC_LOCK) && p->group->rlim[RLIMIT_MEMLOCK].rlim_cur == 0)
		return -EPERM;
	if (start == end)
		return 0;
	mm_lock(p->mm);
	int err = mm_lock_range(p->mm, start, (uint32_t)end, lock);
	mm_unlock(p->mm);
	return err;
}

int sys_mlock(uint32_t addr, uint32_t len)
{
	return do_mlock(addr, len, true);
}

int sys_munlock(uint32_t addr, uint32_t len)
{
	return do_mlock(addr, len, false);
}

/* 144: msync. A tmpfs file's mapping is its page cache and nothing lies
 * below it, so there is nothing to write back: Linux's checks, in its
 * order, and ENOMEM when part of the range is not mapped. */
int sys_msync(uint32_t addr, uint32_t len, int flags)
{
	struct mm *mm = current()->mm;
	if ((flags & ~(MS_ASYNC | MS_INVALIDATE | MS_SYNC)) || (addr & (PAGE_SIZE - 1)) ||
	    ((flags & MS_ASYNC) && (flags & MS_SYNC)))
		return -EINVAL;
	uint64_t end = (uint64_t)addr + PAGE_ROUND_UP(len);	/* Linux: a length that rounds to 0 is 0 */
	if (end > 0xFFFFFFFFull)
		return -ENOMEM;		/* it wraps */
	if (end == addr)
		return 0;
	mm_lock(mm);
	bool mapped = range_mapped(mm, addr, (uint32_t)end);
	mm_unlock(mm);
	return mapped ? 0 : -ENOMEM;
}
