/*
 * ldt.h - a process's local descriptor table: modify_ldt (123), as Linux
 * i386's (arch/x86/kernel/ldt.c).
 *
 * The LDT belongs to the address space (struct mm's ldt, Linux's
 * mm->context.ldt): a group's threads share it, fork copies it, exec
 * drops it, and it goes with the process. Each CPU's GDT slot SEG_LDT
 * describes the table of the process running there; a switch loads it
 * (lldt) only when it is not the one the CPU has, so a switch between
 * processes without an LDT costs one compare.
 *
 * A table is never changed once installed: a write makes a new one, puts
 * it in the mm, has every CPU load its current process's table again,
 * and only then frees the old one (Linux's install_ldt and flush_ldt).
 * The user's segment registers are popped from the trap frame on every
 * return to user mode, so they are read again from the new table there;
 * one whose entry went is popped as the null selector instead
 * (kernel/arch/trap.c's return_fixup), as on Linux i386.
 */
#ifndef KERNEL_LDT_H
#define KERNEL_LDT_H

#include <stddef.h>
#include <stdint.h>
#include <uapi/ldt.h>
#include "cpu.h"
#include "kernel/mm/mm.h"

struct ldt {
	uint32_t nr_entries;		/* 1..LDT_ENTRIES: the highest entry written + 1 */
	/* As the CPU reads them: DPL-3 code or data segments, or 0. */
	uint64_t entries[] __attribute__((aligned(8)));
};

/* 123 modify_ldt(func, ptr, bytecount): 0 reads the LDT, 1 and 0x11
 * write an entry (the old and the new mode), 2 reads the default LDT. */
int sys_modify_ldt(int func, void *ptr, uint32_t bytecount);

/* fork, under the parent's mm lock: the child gets a copy of the
 * parent's LDT, if it has one. 0, or -ENOMEM. */
int ldt_copy(struct mm *child, const struct mm *parent);
static inline int ldt_fork(struct mm *child, const struct mm *parent)
{
	return parent->ldt ? ldt_copy(child, parent) : 0;
}

/* exec, and the end of an address space: it has no LDT any more, on any
 * CPU. No thread of it may be in user mode; no lock held. */
void ldt_drop(struct mm *mm);
static inline void ldt_release(struct mm *mm)
{
	if (mm->ldt)
		ldt_drop(mm);
}

/* Make l (NULL: none) this CPU's LDT. Interrupts off. */
/* mm's table; none for a kernel thread's (NULL mm). */
static inline const struct ldt *ldt_of(const struct mm *mm)
{
	return mm ? mm->ldt : NULL;
}

void ldt_install(struct cpu *c, const struct ldt *l);
/* The switch, interrupts off: the next task's LDT, if the CPU has another.
 * Inline: every switch asks. */
static inline void ldt_switch(struct cpu *c, const struct ldt *l)
{
	if (c->ldt != l)
		ldt_install(c, l);
}

#endif
