/*
 * pmm.c - a bitmap of physical frames: bit set = in use.
 *
 * A bitmap (rather than xv6's free list) because kernel stacks need two
 * adjacent frames. Searches start where the last one ended (next fit) so
 * the common single-frame case is quick. Freeing a frame that is already
 * free panics: it is always a bug, and a silent one would corrupt memory
 * much later.
 *
 * Each frame also has a reference count (frame_refs): copy-on-write fork
 * and shared mappings put one user page in several page tables, and the
 * frame is free only when the last of them lets go (pmm_unref). A frame
 * handed out by pmm_alloc has count 1; pmm_free insists on that, so a
 * frame still mapped elsewhere can never be freed by mistake.
 */
#include <stdbool.h>
#include "pmm.h"
#include "panic.h"
#include "spinlock.h"
#include "string.h"
#include "vm.h"

#define MAX_FRAMES (DIRECT_MAP_SIZE / PAGE_SIZE)

static struct spinlock lock = SPINLOCK_INIT("pmm");
static uint32_t used[MAX_FRAMES / 32];
static bool bitmap_ready;
static uint32_t nfree, ntotal, hint;
/* 16 bits: a shared mapping's page is in every process that has it (up to
 * threads-max, 5,397 at most, so 8 bits would overflow). Changed atomically: two processes that
 * share a page may drop it at once on two CPUs. */
static uint16_t frame_refs[MAX_FRAMES];

static bool frame_used(uint32_t f) { return used[f / 32] & (1u << (f % 32)); }
static void set_used(uint32_t f)   { used[f / 32] |= 1u << (f % 32); }
static void set_free(uint32_t f)   { used[f / 32] &= ~(1u << (f % 32)); }

static void ensure_bitmap(void)
{
	if (bitmap_ready)
		return;
	for (uint32_t i = 0; i < MAX_FRAMES / 32; i++)
		used[i] = ~0u;
	bitmap_ready = true;
}

/* Clip [pa, pa+len) to the frames we manage; round inward or outward. */
static bool frame_range(uint64_t pa, uint64_t len, bool inward,
			uint32_t *first, uint32_t *end)
{
	uint64_t lo = inward ? (pa + PAGE_SIZE - 1) / PAGE_SIZE : pa / PAGE_SIZE;
	uint64_t hi = inward ? (pa + len) / PAGE_SIZE : (pa + len + PAGE_SIZE - 1) / PAGE_SIZE;
	if (hi > MAX_FRAMES)
		hi = MAX_FRAMES;
	if (lo >= hi)
		return false;
	*first = (uint32_t)lo;
	*end = (uint32_t)hi;
	return true;
}

void pmm_add_free(uint64_t pa, uint64_t len)
{
	uint32_t f, end;
	ensure_bitmap();
	if (!frame_range(pa, len, true, &f, &end))
		return;
	for (; f < end; f++) {
		if (frame_used(f)) {
			set_free(f);
			nfree++;
			ntotal++;
		}
	}
}

void pmm_reserve(uint64_t pa, uint64_t len)
{
	uint32_t f, end;
	ensure_bitmap();
	if (!frame_range(pa, len, false, &f, &end))
		return;
	for (; f < end; f++) {
		if (!frame_used(f)) {
			set_used(f);
			nfree--;
		}
	}
}

/* Find n free adjacent frames, starting the search at hint; caller locks. */
static uint32_t find_run(uint32_t n)
{
	for (uint32_t pass = 0; pass < 2; pass++) {
		uint32_t run = 0;
		uint32_t start = pass == 0 ? hint : 0;
		uint32_t stop = pass == 0 ? MAX_FRAMES : hint + n;
		for (uint32_t f = start; f < stop && f < MAX_FRAMES; f++) {
			run = frame_used(f) ? 0 : run + 1;
			if (run == n)
				return f + 1 - n;
		}
	}
	return 0;	/* frame 0 is always reserved, so 0 means "none" */
}

/* n free frames starting on a multiple of align frames (boot only: the
 * kernel-stack region), or 0. */
uint32_t pmm_alloc_aligned(uint32_t n, uint32_t align)
{
	uint32_t found = 0;

	spin_lock(&lock);
	for (uint32_t f = align; !found && f + n <= MAX_FRAMES; f += align) {
		uint32_t i = 0;
		while (i < n && !frame_used(f + i))
			i++;
		if (i == n)
			found = f;
	}
	for (uint32_t i = 0; found && i < n; i++) {
		set_used(found + i);
		frame_refs[found + i] = 1;
	}
	if (found)
		nfree -= n;
	spin_unlock(&lock);
	return found * PAGE_SIZE;
}

uint32_t pmm_alloc_contig(uint32_t n)
{
	spin_lock(&lock);
	uint32_t f = n && n <= nfree ? find_run(n) : 0;
	if (f) {
		for (uint32_t i = 0; i < n; i++) {
			set_used(f + i);
			frame_refs[f + i] = 1;
		}
		nfree -= n;
		hint = f + n;
	}
	spin_unlock(&lock);
	return f * PAGE_SIZE;
}

uint32_t pmm_alloc(void)
{
	return pmm_alloc_contig(1);
}

void pmm_free_contig(uint32_t pa, uint32_t n)
{
	KASSERT(pa % PAGE_SIZE == 0);
	uint32_t f = pa / PAGE_SIZE;
	spin_lock(&lock);
	for (uint32_t i = 0; i < n; i++) {
		if (f + i == 0 || f + i >= MAX_FRAMES || !frame_used(f + i))
			panic("pmm_free: frame 0x%x is not allocated", (f + i) * PAGE_SIZE);
		/* 0: pmm_unref freed it already; >1: still mapped elsewhere. */
		KASSERT(frame_refs[f + i] == 1);
		frame_refs[f + i] = 0;
		set_free(f + i);
	}
	nfree += n;
#ifdef POISON_FREE
	/* Under the lock: nobody can have these frames again before we are done. */
	memset(P2V(pa), POISON_BYTE, n * PAGE_SIZE);
#endif
	spin_unlock(&lock);
}

void pmm_free(uint32_t pa)
{
	pmm_free_contig(pa, 1);
}

void pmm_ref(uint32_t pa)
{
	uint32_t f = pa / PAGE_SIZE;
	KASSERT(f < MAX_FRAMES && frame_refs[f] > 0 && frame_refs[f] < 0xFFFF);
	__atomic_add_fetch(&frame_refs[f], 1, __ATOMIC_RELAXED);
}

void pmm_unref(uint32_t pa)
{
	uint32_t f = pa / PAGE_SIZE;
	KASSERT(f < MAX_FRAMES && frame_refs[f] > 0);	/* never freed twice */
	/* Only the holder that takes the count to 0 frees: pmm_free sees 1. */
	if (__atomic_sub_fetch(&frame_refs[f], 1, __ATOMIC_ACQ_REL) == 0) {
		frame_refs[f] = 1;
		pmm_free(pa);
	}
}

uint32_t pmm_refs(uint32_t pa)
{
	return __atomic_load_n(&frame_refs[pa / PAGE_SIZE], __ATOMIC_ACQUIRE);
}

uint32_t pmm_free_count(void)
{
	return nfree;
}

uint32_t pmm_total_count(void)
{
	return ntotal;
}

