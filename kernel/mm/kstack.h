/*
 * kstack.h - kernel stacks (kernel/mm/kstack.c): one per task, KSTACK_SIZE
 * bytes above an unmapped guard page, in a range of kernel virtual
 * addresses above the direct map.
 */
#ifndef KERNEL_KSTACK_H
#define KERNEL_KSTACK_H

#include <stdbool.h>
#include <stdint.h>

#define KSTACK_PAGES	2		/* Linux i386's THREAD_SIZE: 8 KiB */
#define KSTACK_SIZE	(KSTACK_PAGES * 4096)
/* The range: 64 MiB below the last 4 MiB of the address space, so at
 * most 5,461 stacks of 3 pages (a guard and two). ioremap stays below it. */
#define KSTACK_RANGE_END	0xFFC00000u
#define KSTACK_RANGE_BASE	(KSTACK_RANGE_END - (64u << 20))
#define KSTACK_SLOTS_MAX	((KSTACK_RANGE_END - KSTACK_RANGE_BASE) / 4096 / (KSTACK_PAGES + 1))

/* Boot, before the first address space: page tables for nslots stacks. */
void kstack_init(int nslots);
/* A new stack (its lowest byte) and its slot, or NULL when the slots or
 * the frames have run out. */
void *kstack_alloc(int *slot);
/* Give the stack's frames back; no CPU may be running on it. */
void kstack_free(void *stack);
/* Every CPU's cached stacks (the last freed ones, kept whole for the
 * next fork) back to the frames and slots: the slots ran out, or a leak
 * test counts the free frames. */
void kstack_drain_caches(void);
/* Is va in a guard page (a stack overflow, kernel/arch/trap.c)? */
bool kstack_in_guard(uint32_t va);

#endif
