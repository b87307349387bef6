/*
 * pmm.h - the physical frame allocator.
 *
 * Frames are 4 KiB. Only frames inside the direct map are handed out, so
 * the kernel can always reach a frame at P2V(pa). pmm_free_count() is what
 * leak tests compare before and after.
 */
#ifndef KERNEL_PMM_H
#define KERNEL_PMM_H

#include <stdint.h>

/* Boot: everything starts reserved; free the usable RAM, then reserve
 * what is already in use (kernel image, modules, low memory). */
void pmm_add_free(uint64_t pa, uint64_t len);
void pmm_reserve(uint64_t pa, uint64_t len);

uint32_t pmm_alloc(void);			/* one frame, or 0 when none is left */
uint32_t pmm_alloc_contig(uint32_t n);	/* n adjacent frames, or 0 */
void pmm_free(uint32_t pa);
void pmm_free_contig(uint32_t pa, uint32_t n);	/* each frame's count must be 1 */

/* Reference counts of user pages (copy-on-write, shared mappings): one
 * more mapping of the frame; one fewer, freeing it at 0; how many now. */
void pmm_ref(uint32_t pa);
void pmm_unref(uint32_t pa);		/* a user page: to the user pages' cache at 0 (pmm.c says why) */
/* A frame for a user page, which the caller writes whole (zeros, a
 * file's bytes, a copy): from this CPU's freed user pages first. */
uint32_t pmm_alloc_user(void);
/* Many user pages at once (an address space's end): freed frames are
 * gathered and given back under one hold of the lock; flush at the end. */
#define PMM_BATCH 32
struct pmm_batch {
	uint32_t n;
	uint32_t frames[PMM_BATCH];
};
void pmm_unref_batch(struct pmm_batch *b, uint32_t pa);
void pmm_batch_flush(struct pmm_batch *b);
uint32_t pmm_refs(uint32_t pa);

uint32_t pmm_free_count(void);		/* the caches' frames too */
void pmm_drain_caches(void);		/* every CPU's cached frames back to the bitmap */
uint32_t pmm_total_count(void);		/* frames the allocator was given (sysinfo's totalram) */

/* n free frames starting on a multiple of align frames, or 0 (boot). */
uint32_t pmm_alloc_aligned(uint32_t n, uint32_t align);

/* With POISON_FREE (make POISON=1), freed frames and heap blocks are
 * filled with this byte, so that a use after free reads garbage at once. */
#define POISON_BYTE 0x6b

#endif
