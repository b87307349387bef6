/*
 * pmm.c - a bitmap of physical frames: bit set = in use.
 *
 * A bitmap (rather than xv6's free list) because kernel stacks need two
 * adjacent frames. Searches start where the last one ended (next fit) so
 * the common single-frame case is quick. Freeing a frame that is already
 * free panics: it is always a bug, and a silent one would corrupt memory
 * much later.
 *
 * Kernel frames (stacks, page tables, heap pages) come and go through a
 * small cache per CPU in front of the
 * bitmap (Linux's per-CPU page lists, mm/page_alloc.c): a fork takes and
 * gives back dozens of frames, and with one global lock for each, forks
 * on several CPUs would queue on that lock. A cache is refilled from the
 * bitmap and emptied into it PCP_BATCH frames at a time, so the global
 * lock is taken once per PCP_BATCH frames. Each cache has its own lock,
 * uncontended but for one case: when memory runs out, the CPU that finds
 * nothing empties every cache into the bitmap (pmm_drain_caches) before
 * it says there is none. A cached frame stays marked in use in the bitmap
 * and has count 0; pmm_free_count() counts it as free.
 *
 * Each frame also has a reference count (frame_refs): copy-on-write fork
 * and shared mappings put one user page in several page tables, and the
 * frame is free only when the last of them lets go (pmm_unref, which
 * gives user pages to a cache of their own, never to the kernel's: why,
 * at its definition). A frame
 * handed out by pmm_alloc has count 1; pmm_free insists on that, so a
 * frame still mapped elsewhere can never be freed by mistake.
 *
 * Lock order: a CPU's cache (either kind), then the bitmap's lock; never
 * two caches.
 */
#include <stdbool.h>
#include "pmm.h"
#include "kernel/debug/panic.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/arch/maxcpus.h"
#include "vm.h"

#define MAX_FRAMES (DIRECT_MAP_SIZE / PAGE_SIZE)

static struct spinlock lock = SPINLOCK_INIT("pmm");
static uint32_t used[MAX_FRAMES / 32];
static bool bitmap_ready;
static uint32_t nfree, ntotal, hint;
/* 32 bits: a page is in every mapping of it, bounded only by the
 * processes (threads-max, 5,397 at most) times their regions
 * (MM_MAX_AREAS, kernel/mm/mm.h): a file's or a shared memory segment's
 * page mapped 4,096 times in each of 16 processes is past 16 bits.
 * Changed atomically: two processes that share a page may drop it at
 * once on two CPUs. */
static uint32_t frame_refs[MAX_FRAMES];

#define PCP_HIGH	32	/* a CPU keeps at most this many free frames */
#define PCP_BATCH	16	/* moved between a cache and the bitmap at once */

struct frame_cache {
	struct spinlock lock;
	uint32_t count;
	uint32_t frames[PCP_HIGH];	/* frame numbers; the last is the warmest */
};
static struct frame_cache caches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = { .lock = SPINLOCK_INIT("frame cache") }
};
/* Freed user pages, handed out again for user pages only (pmm_unref). */
static struct frame_cache user_caches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = { .lock = SPINLOCK_INIT("user frame cache") }
};

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
	pmm_drain_caches();	/* a cached frame is marked in use: not twice free */
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
	pmm_drain_caches();	/* no cache may keep a frame of the range */
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

/* Up to n single frames from the bitmap into out[]; how many. Caller
 * holds the lock. The frames stay marked in use, with count 0. */
static uint32_t bitmap_take(uint32_t *out, uint32_t n)
{
	uint32_t got = 0;
	while (got < n && nfree > 0) {
		uint32_t f = find_run(1);
		if (!f)
			break;
		set_used(f);
		nfree--;
		hint = f + 1;
		out[got++] = f;
	}
	return got;
}

/* n frames (count 0, marked in use) back into the bitmap; lock held. */
static void bitmap_give(const uint32_t *frames, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		set_free(frames[i]);
	nfree += n;
}

/* Empty every CPU's cache into the bitmap: memory is short, and a frame
 * another CPU keeps is as free as any. One cache locked at a time. */
static void drain(struct frame_cache *fc)
{
	if (fc->count == 0)	/* a racy peek: a refill after it is kept */
		return;
	spin_lock(&fc->lock);
	spin_lock(&lock);
	bitmap_give(fc->frames, fc->count);
	fc->count = 0;
	spin_unlock(&lock);
	spin_unlock(&fc->lock);
}

void pmm_drain_caches(void)
{
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		drain(&caches[cpu]);
		drain(&user_caches[cpu]);
	}
}

/* A frame from this CPU's cache (refilled from the bitmap when empty),
 * its count set to 1; 0 when the bitmap had none either. */
static uint32_t cache_alloc(void)
{
	struct frame_cache *fc = &caches[this_cpu()];
	uint32_t f = 0;
	spin_lock(&fc->lock);
	if (fc->count == 0) {
		spin_lock(&lock);
		fc->count = bitmap_take(fc->frames, PCP_BATCH);
		spin_unlock(&lock);
	}
	if (fc->count > 0) {
		f = fc->frames[--fc->count];
		frame_refs[f] = 1;
	}
	spin_unlock(&fc->lock);
	return f;
}

/* A freed frame (count 0 already) into this CPU's cache; a full cache
 * first gives its PCP_BATCH coldest frames back to the bitmap. */
static void cache_free(uint32_t f)
{
	struct frame_cache *fc = &caches[this_cpu()];
	spin_lock(&fc->lock);
	if (fc->count == PCP_HIGH) {
		spin_lock(&lock);
		bitmap_give(fc->frames, PCP_BATCH);
		spin_unlock(&lock);
		fc->count -= PCP_BATCH;
		memmove(fc->frames, fc->frames + PCP_BATCH, fc->count * sizeof(fc->frames[0]));
	}
	fc->frames[fc->count++] = f;
	spin_unlock(&fc->lock);
}

/* n free frames starting on a multiple of align frames (boot only: the
 * kernel-stack region), or 0. */
uint32_t pmm_alloc_aligned(uint32_t n, uint32_t align)
{
	uint32_t found = 0;

	pmm_drain_caches();
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

static uint32_t bitmap_alloc_contig(uint32_t n)
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
	return f;
}

uint32_t pmm_alloc(void)
{
	uint32_t f = cache_alloc();
	if (!f) {			/* the other CPUs' caches, drained */
		pmm_drain_caches();
		f = bitmap_alloc_contig(1);
	}
	return f * PAGE_SIZE;
}

/* One frame is a single frame, through this CPU's cache (kmalloc asks
 * for one for each struct proc). */
uint32_t pmm_alloc_contig(uint32_t n)
{
	if (n == 1)
		return pmm_alloc();
	uint32_t f = bitmap_alloc_contig(n);
	if (!f && n) {
		pmm_drain_caches();
		f = bitmap_alloc_contig(n);
	}
	return f * PAGE_SIZE;
}

void pmm_free_contig(uint32_t pa, uint32_t n)
{
	if (n == 1) {
		pmm_free(pa);
		return;
	}
	KASSERT(pa % PAGE_SIZE == 0);
	uint32_t f = pa / PAGE_SIZE;
	spin_lock(&lock);
	for (uint32_t i = 0; i < n; i++) {
		if (f + i == 0 || f + i >= MAX_FRAMES || !frame_used(f + i) ||
		    frame_refs[f + i] == 0)
			panic("pmm_free: frame 0x%x is not allocated", (f + i) * PAGE_SIZE);
		/* >1: still mapped elsewhere. */
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
	KASSERT(pa % PAGE_SIZE == 0);
	uint32_t f = pa / PAGE_SIZE;
	/* A cached frame is marked in use but has count 0. */
	if (f == 0 || f >= MAX_FRAMES || !frame_used(f) || frame_refs[f] == 0)
		panic("pmm_free: frame 0x%x is not allocated", pa);
	KASSERT(frame_refs[f] == 1);	/* >1: still mapped elsewhere */
	frame_refs[f] = 0;
#ifdef POISON_FREE
	memset(P2V(pa), POISON_BYTE, PAGE_SIZE);	/* ours until cached */
#endif
	cache_free(f);
}

void pmm_ref(uint32_t pa)
{
	uint32_t f = pa / PAGE_SIZE;
	KASSERT(f < MAX_FRAMES && frame_refs[f] > 0 && frame_refs[f] < 0xFFFFFFFFu);
	__atomic_add_fetch(&frame_refs[f], 1, __ATOMIC_RELAXED);
}

/*
 * User pages (the only frames with more than one mapping) go, when their
 * last mapping goes, to their CPU's cache of user pages, never to the
 * kernel's: a frame that held a program's code can still have blocks
 * translated by QEMU's TCG, and a kernel object that reused it at once
 * (a struct proc, a kernel stack: written all the time, never whole) made
 * every write to it take QEMU's slow path until the page's last
 * translated block was overwritten (make test's suite runs went 11 s ->
 * 68 s; a BATCH hog after forktree ran 30 times slower). A user page is
 * written whole when it is handed out again (zeros, a file's bytes, a
 * copy: pmm_alloc_user), which forgets those blocks at once. What its
 * cache cannot keep goes to the bitmap, whose next fit brings it back
 * much later, in batches (pmm_unref_batch): one hold of the bitmap's lock
 * per PMM_BATCH frames. So a fork + exit + wait takes the global lock
 * only when a cache runs over or dry.
 */
static bool unref_to_zero(uint32_t f)
{
	KASSERT(f < MAX_FRAMES && frame_refs[f] > 0);	/* never freed twice */
	/* Only the holder that takes the count to 0 frees. */
	return __atomic_sub_fetch(&frame_refs[f], 1, __ATOMIC_ACQ_REL) == 0;
}

void pmm_batch_flush(struct pmm_batch *b)
{
	if (b->n == 0)
		return;
	for (uint32_t i = 0; i < b->n; i++) {
		uint32_t f = b->frames[i];
		if (f == 0 || !frame_used(f))
			panic("pmm_free: frame 0x%x is not allocated", f * PAGE_SIZE);
#ifdef POISON_FREE
		memset(P2V(f * PAGE_SIZE), POISON_BYTE, PAGE_SIZE);
#endif
	}
	struct frame_cache *uc = &user_caches[this_cpu()];
	uint32_t kept = 0;
	spin_lock(&uc->lock);
	while (kept < b->n && uc->count < PCP_HIGH)
		uc->frames[uc->count++] = b->frames[kept++];
	if (kept < b->n) {		/* the cache is full: the rest to the bitmap */
		spin_lock(&lock);
		bitmap_give(b->frames + kept, b->n - kept);
		spin_unlock(&lock);
	}
	spin_unlock(&uc->lock);
	b->n = 0;
}

uint32_t pmm_alloc_user(void)
{
	struct frame_cache *uc = &user_caches[this_cpu()];
	uint32_t f = 0;
	spin_lock(&uc->lock);
	if (uc->count > 0) {
		f = uc->frames[--uc->count];
		frame_refs[f] = 1;
	}
	spin_unlock(&uc->lock);
	return f ? f * PAGE_SIZE : pmm_alloc();
}

void pmm_unref_batch(struct pmm_batch *b, uint32_t pa)
{
	uint32_t f = pa / PAGE_SIZE;
	if (!unref_to_zero(f))
		return;
	b->frames[b->n++] = f;
	if (b->n == PMM_BATCH)
		pmm_batch_flush(b);
}

void pmm_unref(uint32_t pa)
{
	struct pmm_batch b = { 0 };
	pmm_unref_batch(&b, pa);
	pmm_batch_flush(&b);
}

uint32_t pmm_refs(uint32_t pa)
{
	return __atomic_load_n(&frame_refs[pa / PAGE_SIZE], __ATOMIC_ACQUIRE);
}

/* The bitmap's free frames and the caches' (read without their locks:
 * a figure for sysinfo and /proc/meminfo, exact when nothing moves). */
uint32_t pmm_free_count(void)
{
	uint32_t n = nfree;
	for (int cpu = 0; cpu < MAX_CPUS; cpu++)
		n += caches[cpu].count + user_caches[cpu].count;
	return n;
}

uint32_t pmm_total_count(void)
{
	return ntotal;
}

