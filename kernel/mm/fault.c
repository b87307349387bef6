/*
 * fault.c - CPU exceptions raised by user programs, and the page faults
 * that are not errors at all: demand paging and copy-on-write.
 *
 * A page fault inside a region (kernel/mm/mm.c) that the region's protection
 * allows is the kernel's business, and the program never knows:
 *   - a page never touched gets a zeroed frame, for a mapping of an
 *     initrd file a frame with the file's bytes, for a tmpfs file's the
 *     file's own page (kernel/mm/filemap.c), for an attached System V
 *     segment the segment's own frame (demand paging: mmap costs
 *     nothing);
 *   - a write to a page that fork left shared gets a private copy, or the
 *     page itself when no one else has it any more (copy-on-write);
 *   - a touch just below the stack grows the stack.
 * Anything else is the signal Linux would deliver: its handler gets it,
 * or it ends that process only (docs/abi.md §7): SIGSEGV with SEGV_MAPERR
 * outside every region and SEGV_ACCERR against a protection, SIGBUS past
 * the end of a mapped file, SIGSEGV for privileged instructions (a #GP,
 * as Linux), SIGBUS for a segment not present or a stack-segment fault
 * (an LDT selector's doing: kernel/arch/ldt.c), SIGILL for an invalid opcode, SIGFPE for a divide error.
 * Running out of frames on a fault kills the faulting process with
 * SIGKILL: Linux's OOM killer, simplified to "the one who asked".
 */
#include "fault.h"
#include "filemap.h"
#include "kernel/fs/initrd.h"
#include "kernel/fs/tmpfs.h"
#include "mm.h"
#include "pmm.h"
#include "kernel/task/proc.h"
#include "kernel/task/signal.h"
#include "kernel/arch/smp.h"
#include "lib/string.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

#define BUS_ADRERR 2	/* si_code of a SIGBUS past the end of a file */

/* The stack region grows down to a fault below it, as far as
 * RLIMIT_STACK allows (and at most USER_STACK_MAX: the mappings start
 * there), keeping a page's gap to the region below. */
static struct vm_area *grow_stack(struct proc *p, uint32_t va)
{
	struct mm *mm = p->mm;
	uint32_t page = PAGE_ROUND_DOWN(va), limit = p->group->rlim[RLIMIT_STACK].rlim_cur;
	int i = 0;

	while (i < mm->n && mm->area[i].end <= va)
		i++;
	if (i == mm->n || !(mm->area[i].flags & VMA_GROWSDOWN))
		return NULL;
	struct vm_area *stack = &mm->area[i];
	uint32_t below = i > 0 ? mm->area[i - 1].end : 0;
	if (limit > USER_STACK_MAX)
		limit = USER_STACK_MAX;
	if (stack->end - page > limit || page < below + PAGE_SIZE)
		return NULL;
	stack->start = page;
	return stack;
}

/* A fresh frame for the page at va of a: zeros, or the file's bytes, or
 * the outside object's frame (vm_area_ops). */
static enum fault_result fill_page(struct vm_area *a, uint32_t va, uint32_t *pa)
{
	if (a->ops)
		return a->ops->fault(a, va, pa) < 0 ? FAULT_OOM : FAULT_OK;
	uint64_t off = (uint64_t)a->file_off + (va - a->start);	/* mremap may grow it past 4 GiB */

	if (a->file && off >= PAGE_ROUND_UP(a->file->size))
		return FAULT_SIGBUS;		/* wholly past the end of the file */
	*pa = pmm_alloc_user();
	if (!*pa)
		return FAULT_OOM;
	memset(P2V(*pa), 0, PAGE_SIZE);
	if (a->file) {
		uint32_t n = a->file->size - off < PAGE_SIZE ? a->file->size - (uint32_t)off : PAGE_SIZE;
		memcpy(P2V(*pa), a->file->data + off, n);
	}
	return FAULT_OK;
}

static enum fault_result fault_in(struct proc *p, struct vm_area *a, uint32_t va, pte_t *pte,
				  bool write)
{
	uint32_t pa;
	if (tmpfs_of(a->file) || filemap_cached(a, write))	/* the file's own page */
		return filemap_fault(p, a, va, pte, write);
	enum fault_result r = fill_page(a, va, &pa);
	if (r == FAULT_OK)
		vm_set_pte(p->mm->pgdir, va, pte, pa | mm_pte_flags(a, true));
	return r;
}

/* A write to a private page that fork left read-only in both processes. */
static enum fault_result copy_on_write(struct proc *p, struct vm_area *a, uint32_t va, pte_t *pte)
{
	uint32_t old = PTE_ADDR(*pte);

	if ((*pte & PTE_FILE) && !(a->flags & VMA_SHARED))
		return filemap_copy(p, a, va, pte);	/* the file's page stays the file's */
	/* A shared mapping's page is never copied: every process must see
	 * the one frame (it lacks PTE_W only if mprotect made it read-only). */
	if (pmm_refs(old) > 1 && !(a->flags & VMA_SHARED)) {
		uint32_t pa = pmm_alloc_user();
		if (!pa)
			return FAULT_OOM;
		memcpy(P2V(pa), P2V(old), PAGE_SIZE);
		vm_set_pte(p->mm->pgdir, va, pte, pa | mm_pte_flags(a, true));
		pmm_unref(old);
		p->group->cow_copies++;
	} else {	/* the others let go of it already, or it is shared */
		vm_set_pte(p->mm->pgdir, va, pte, old | (*pte & PTE_FILE) | mm_pte_flags(a, true));
	}
	return FAULT_OK;
}

static enum fault_result fault_locked(struct proc *p, uint32_t va, bool write)
{
	if (va >= KERNEL_OFFSET)
		return FAULT_MAPERR;	/* as Linux: the kernel's half is no region */
	struct vm_area *a = mm_find(p->mm, va);
	if (!a && !(a = grow_stack(p, va)))
		return FAULT_MAPERR;
	if (a->prot == PROT_NONE || (write && !(a->prot & PROT_WRITE)))
		return FAULT_ACCERR;
	va = PAGE_ROUND_DOWN(va);
	pte_t *pte = vm_walk(p->mm->pgdir, va, true);
	if (!pte)
		return FAULT_OOM;
	enum fault_result r = FAULT_OK;
	if (!(*pte & PTE_P))
		r = fault_in(p, a, va, pte, write);
	else if (write && !(*pte & PTE_W))
		r = copy_on_write(p, a, va, pte);
	if (r == FAULT_OK)
		p->group->minflt++;
	return r;
}

/* A task's fault is served in its address space (its group's, maybe
 * shared with other processes: kernel/mm/mm.h), under its lock, and
 * counted for its process. A page copied for COW may still be read
 * through another CPU's stale translation to the old frame: those CPUs
 * forget theirs before this task writes. */
enum fault_result mm_fault(struct proc *p, uint32_t va, bool write)
{
	struct mm *mm = p->mm;
	mm_lock(mm);
	enum fault_result r = fault_locked(p, va, write);
	if (vm_take_stale(mm->pgdir))	/* a copy-on-write moved a page */
		smp_flush_tlb(mm->pgdir);
	mm_unlock(mm);
	return r;
}

static int fault_signal(const struct trapframe *tf)
{
	switch (tf->trapno) {
	case T_DIVIDE:
	case T_FPERR:
	case T_SIMDERR:	return SIGFPE;
	case T_ILLOP:
	case T_IRET:	return SIGILL;
	case T_BRKPT:
	case T_DEBUG:	return SIGTRAP;
	/* A segment not present (an LDT entry made so) and a stack-segment
	 * fault (outside an LDT stack segment's limit): SIGBUS, as Linux. */
	case T_SEGNP:
	case T_STACK:	return SIGBUS;
	default:	return SIGSEGV;
	}
}

static void page_fault(struct trapframe *tf)
{
	uint32_t addr = read_cr2();

	switch (mm_fault(current(), addr, tf->err & 2)) {
	case FAULT_OK:		return;
	case FAULT_MAPERR:	signal_fault_at(tf, SIGSEGV, SEGV_MAPERR, addr); return;
	case FAULT_ACCERR:	signal_fault_at(tf, SIGSEGV, SEGV_ACCERR, addr); return;
	case FAULT_SIGBUS:	signal_fault_at(tf, SIGBUS, BUS_ADRERR, addr); return;
	case FAULT_OOM:		proc_fault_kill(tf, SIGKILL);
	}
}

void user_fault(struct trapframe *tf)
{
	if (tf->trapno == T_PGFLT)
		page_fault(tf);
	else
		signal_fault(tf, fault_signal(tf));
}
