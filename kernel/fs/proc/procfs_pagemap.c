/*
 * procfs_pagemap.c - /proc/PID/pagemap: one 64-bit word for each virtual
 * page of the process, the word of page va at offset (va / 4096) * 8, as
 * Linux 6.1's (fs/proc/task_mmu.c; Documentation/admin-guide/mm/
 * pagemap.rst):
 *
 *   bit 63     present
 *   bit 62     swapped: never (no swap)
 *   bit 61     a file's page (the initrd's page cache, a tmpfs file's
 *              page) or shared anonymous memory (Linux's shmem)
 *   bit 56     mapped by one page table only (Linux's page_mapcount == 1)
 *   bit 55     soft-dirty: never, as on Linux i386 (no soft-dirty tracking)
 *   bits 0-54  the page frame number, for root only; 0 for others (Linux
 *              4.2+: CAP_SYS_ADMIN)
 *
 * A page not present, or outside every region, is 0. The file is binary,
 * not a text made at offset 0 (procfs.c): each read fills its words from
 * the page tables, under the process's mm lock, a chunk at a time, and
 * copies each chunk out with the lock let go (the copy may fault a page
 * of the reader's in, which takes the lock). Opening another process's
 * needs Linux's ptrace read permission (procfs_fd_may).
 *
 * How many page tables map a frame: its reference count (kernel/mm/pmm.c),
 * less the one a file's page cache or a System V segment keeps. Linux
 * maps a shared zero page on a read of untouched anonymous memory
 * (present, not exclusive); this kernel gives such a read a page of its
 * own (present, exclusive). And the PFN is shown to a reader who is root
 * when it reads, where Linux asks about the opener.
 */
#include "procfs.h"
#include "lib/errno.h"
#include "kernel/fs/file.h"
#include "kernel/mm/filemap.h"
#include "kernel/mm/mm.h"
#include "kernel/mm/pmm.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"

#define PM_ENTRY_BYTES		8
#define PM_PFRAME_MASK		((1ull << 55) - 1)
#define PM_MMAP_EXCLUSIVE	(1ull << 56)
#define PM_FILE			(1ull << 61)
#define PM_PRESENT		(1ull << 63)
#define PM_CHUNK		64			/* words filled per hold of the lock */
#define PM_END_VPN		(KERNEL_OFFSET / PAGE_SIZE)	/* Linux's task_size */

/* Is the page at va of region a (its entry pte) a file's or shared
 * memory's (bit 61)? *held: the references the page's owner object keeps
 * (its cache, the file, the segment), not page tables. */
static bool file_page(const struct vm_area *a, uint32_t va, pte_t pte, uint32_t *held)
{
	*held = 0;
	if ((pte & PTE_FILE) || a->ops || filemap_is_cached_page(a, va, PTE_ADDR(pte)))
		*held = 1;
	return *held || (a->flags & VMA_SHARED);
}

/* The word of page va of address space mm. Its lock held. */
static uint64_t pagemap_entry(struct mm *mm, uint32_t va, bool show_pfn)
{
	pte_t *pte = vm_walk(mm->pgdir, va, false);
	const struct vm_area *a = mm_find(mm, va);
	if (!pte || !(*pte & PTE_P) || !a)
		return 0;
	uint32_t pa = PTE_ADDR(*pte), held;
	uint64_t e = PM_PRESENT;
	if (file_page(a, va, *pte, &held))
		e |= PM_FILE;
	if (pmm_refs(pa) - held == 1)
		e |= PM_MMAP_EXCLUSIVE;
	if (show_pfn)
		e |= (pa / PAGE_SIZE) & PM_PFRAME_MASK;
	return e;
}

/* Words for n pages from vpn of g's space into buf (0s once it has
 * none); its lock taken. */
static void fill(struct proc *g, uint32_t vpn, uint32_t n, uint64_t *buf, bool show_pfn)
{
	struct mm *mm = lock_mm_of(g);
	for (uint32_t i = 0; i < n; i++)
		buf[i] = mm ? pagemap_entry(mm, (vpn + i) * PAGE_SIZE, show_pfn) : 0;
	if (mm)
		unlock_mm_of(g, mm);
}

/* Linux's pagemap_read(): offset and count whole words (EINVAL); words up
 * to the end of user space, then nothing (0). A kernel thread has no
 * address space: 0 at once, as Linux's (no mm) before it looks at the
 * offset; this kernel looks at the offset first.
 * The offset moves by what was copied, even when a copy then fails. */
int procfs_pagemap_read(struct file *f, void *ubuf, uint32_t n)
{
	struct proc *p = proc_get_or_zombie(f->proc_pid);
	if (!p)
		return -ESRCH;
	if (f->offset % PM_ENTRY_BYTES || n % PM_ENTRY_BYTES) {
		proc_put(p);
		return -EINVAL;
	}
	struct proc *g = p;		/* the task's own address space */
	if (!__atomic_load_n(&g->mm, __ATOMIC_RELAXED)) {	/* a kernel thread: nothing to read */
		proc_put(p);
		return 0;
	}
	bool show_pfn = capable(CAP_SYS_ADMIN);	/* Linux: the opener's; here the reader's */
	uint64_t buf[PM_CHUNK];
	uint64_t vpn = f->offset / PM_ENTRY_BYTES;
	uint32_t copied = 0;
	int err = 0;
	while (copied < n && vpn < PM_END_VPN) {
		uint32_t k = (n - copied) / PM_ENTRY_BYTES;
		if (k > PM_CHUNK)
			k = PM_CHUNK;
		if (k > PM_END_VPN - vpn)
			k = (uint32_t)(PM_END_VPN - vpn);
		fill(g, (uint32_t)vpn, k, buf, show_pfn);
		if (copy_to_user((char *)ubuf + copied, buf, k * PM_ENTRY_BYTES) < 0) {
			err = -EFAULT;
			break;
		}
		copied += k * PM_ENTRY_BYTES;
		vpn += k;
	}
	proc_put(p);
	f->offset += copied;
	return err ? err : (int)copied;
}
