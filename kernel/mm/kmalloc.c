/*
 * kmalloc.c - a size-class heap on top of the frame allocator.
 *
 * Small requests are served from size classes (32 bytes .. 2 KiB, header
 * included): the powers of two, and a twenty-first, a twelfth, a fifth
 * and a third of a frame (192, 336, 816 and 1,360 bytes: a process's
 * descriptors with their first table, its thread group, and a task's
 * struct proc and a process's handlers, which a power of two would round
 * up by half). Each class keeps a free list,
 * refilled by cutting a fresh frame into blocks. Larger requests get
 * whole adjacent frames.
 * Every block starts with a 16-byte header saying which it is, so kfree
 * needs no size, and a magic number that catches bad and double frees.
 *
 * Each CPU keeps a few free blocks of each class in front of the shared
 * lists (as Linux's SLUB keeps a per-CPU freelist): a fork allocates and
 * frees a handful of blocks, and forks on several CPUs would queue on the
 * one heap lock. A CPU's list holds at most KCACHE_HIGH blocks a class and moves
 * KCACHE_BATCH at a time to or from the shared list, under the heap lock.
 * When the shared list of a class is empty, every CPU's blocks of it go
 * back first (drain_class), and only then is a fresh frame cut: the heap
 * grows no faster than with one list, and no free block is out of reach.
 * Lock order: a CPU's cache, then the heap lock, then the frame
 * allocator's; never two caches.
 */
#include <stdint.h>
#include "kmalloc.h"
#include "kernel/debug/panic.h"
#include "pmm.h"
#include "lib/string.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "kernel/arch/maxcpus.h"
#include "vm.h"

#define MAGIC_USED 0x6B6D616Cu	/* "kmal" */
#define MAGIC_FREE 0x66726565u	/* "free" */
/* Each a multiple of 16 (the header's alignment), smallest first. */
static const uint16_t class_size[] = { 32, 64, 128, 192, 256, 336, 512, 816, 1024, 1360, 2048 };
#define NCLASSES ((int)(sizeof(class_size) / sizeof(class_size[0])))
#define LARGE_CLASS 0xFF

/* Aligned to 16 so that the block after it is too (16 bytes on i386). */
struct header {
	uint32_t magic;
	uint32_t class;		/* size class index, or LARGE_CLASS */
	uint32_t npages;	/* LARGE_CLASS only */
	struct header *next;	/* free list link while free */
} __attribute__((aligned(16)));

static struct spinlock lock = SPINLOCK_INIT("kmalloc");
static struct header *free_list[NCLASSES];

#define KCACHE_HIGH	32	/* a CPU keeps at most this many blocks a class */
#define KCACHE_BATCH	16	/* moved to or from the shared list at once */

struct kcache {
	struct spinlock lock;	/* its CPU's; another takes it only to drain */
	struct header *list[NCLASSES];
	uint32_t count[NCLASSES];
};
static struct kcache kcaches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = { .lock = SPINLOCK_INIT("kmalloc cache") }
};

/* The first class of at least total bytes, or -1. One bigger than the
 * middle class skips the first half (a fork asks for two such). */
static int class_of(size_t total)
{
	int mid = NCLASSES / 2;
	for (int c = total > class_size[mid] ? mid + 1 : 0; c < NCLASSES; c++)
		if (total <= class_size[c])
			return c;
	return -1;
}

static bool refill(int c)
{
	uint32_t pa = pmm_alloc();
	if (!pa)
		return false;
	uint32_t size = class_size[c];
	char *page = P2V(pa);
	for (uint32_t off = 0; off + size <= PAGE_SIZE; off += size) {
		struct header *h = (struct header *)(page + off);
		h->magic = MAGIC_FREE;
		h->class = c;
		h->next = free_list[c];
		free_list[c] = h;
	}
	return true;
}

/* Up to KCACHE_BATCH blocks of class c from the shared list onto kc's;
 * heap lock held. With cut, an empty list first gets a fresh frame's
 * blocks (one frame, never more: the heap grows only when no block of
 * the class is free anywhere). */
static void take_batch(struct kcache *kc, int c, bool cut)
{
	if (cut && !free_list[c])
		refill(c);
	for (int i = 0; i < KCACHE_BATCH && free_list[c]; i++) {
		struct header *h = free_list[c];
		free_list[c] = h->next;
		h->next = kc->list[c];
		kc->list[c] = h;
		kc->count[c]++;
	}
}

/* n blocks of class c from the front of kc's list back to the shared one;
 * heap lock held. */
static void give_back(struct kcache *kc, int c, uint32_t n)
{
	for (; n > 0 && kc->list[c]; n--) {
		struct header *h = kc->list[c];
		kc->list[c] = h->next;
		kc->count[c]--;
		h->next = free_list[c];
		free_list[c] = h;
	}
}

/* Every CPU's blocks of class c back to the shared list, one cache at a
 * time (the caller holds none). */
static void drain_class(int c)
{
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		struct kcache *kc = &kcaches[cpu];
		if (!__atomic_load_n(&kc->count[c], __ATOMIC_RELAXED))
			continue;
		spin_lock(&kc->lock);
		spin_lock(&lock);
		give_back(kc, c, kc->count[c]);
		spin_unlock(&lock);
		spin_unlock(&kc->lock);
	}
}

/*
 * A block of class c from this CPU's list, refilled from the shared one
 * when empty. Only when no CPU has a free block of the class is a fresh
 * frame cut (blocks freed on another CPU, as a child's at its exit, are
 * drained back first), so the heap grows no more than with one shared
 * list: the leak tests' steady state holds (user/tests/leak.c). NULL when
 * no frame is left either.
 */
static struct header *cache_alloc(int c)
{
	struct kcache *kc = &kcaches[this_cpu()];
	spin_lock(&kc->lock);
	if (!kc->list[c]) {
		spin_lock(&lock);
		bool shared = free_list[c] != NULL;
		take_batch(kc, c, false);
		spin_unlock(&lock);
		if (!shared) {
			spin_unlock(&kc->lock);
			drain_class(c);
			spin_lock(&kc->lock);
			spin_lock(&lock);
			take_batch(kc, c, true);
			spin_unlock(&lock);
		}
	}
	struct header *h = kc->list[c];
	if (h) {
		kc->list[c] = h->next;
		kc->count[c]--;
	}
	spin_unlock(&kc->lock);
	return h;
}

/* A freed block onto this CPU's list; a full list first gives
 * KCACHE_BATCH back to the shared one. */
static void cache_free(struct header *h)
{
	struct kcache *kc = &kcaches[this_cpu()];
	int c = (int)h->class;
	spin_lock(&kc->lock);
	if (kc->count[c] >= KCACHE_HIGH) {
		spin_lock(&lock);
		give_back(kc, c, KCACHE_BATCH);
		spin_unlock(&lock);
	}
	h->next = kc->list[c];
	kc->list[c] = h;
	kc->count[c]++;
	spin_unlock(&kc->lock);
}

/* ---- shrinking: pages whose blocks are all free go back ------------------ */

static struct header *merge(struct header *a, struct header *b)
{
	struct header head, *tail = &head;
	while (a && b) {
		struct header **least = a < b ? &a : &b;
		tail->next = *least;
		tail = *least;
		*least = (*least)->next;
	}
	tail->next = a ? a : b;
	return head.next;
}

/* A free list in address order (merge sort: blocks of one page side by side). */
static struct header *sort_blocks(struct header *h)
{
	if (!h || !h->next)
		return h;
	struct header *slow = h, *fast = h->next;
	while (fast && fast->next) {
		slow = slow->next;
		fast = fast->next->next;
	}
	struct header *second = slow->next;
	slow->next = NULL;
	return merge(sort_blocks(h), sort_blocks(second));
}

/* The frame a block lies in (the direct map keeps frames in address order). */
static uint32_t page_of(const struct header *h)
{
	return PAGE_ROUND_DOWN(V2P(h));
}

/* The sorted list less the pages it holds whole, which go back to the
 * frame allocator (refill cut each page into PAGE_SIZE / size blocks
 * from its start). Heap lock held. */
static struct header *release_whole_pages(struct header *sorted, int c)
{
	uint32_t per_page = PAGE_SIZE / class_size[c];
	struct header head = { .next = sorted }, *kept = &head;
	while (kept->next) {
		struct header *first = kept->next, *h = first;
		uint32_t n = 0;
		while (h && page_of(h) == page_of(first)) {
			h = h->next;
			n++;
		}
		if (n == per_page) {
			kept->next = h;
			pmm_free(page_of(first));
		} else {
			while (kept->next != h)
				kept = kept->next;
		}
	}
	return head.next;
}

/* Every CPU's free blocks back to the shared lists, and every page whose
 * blocks are all free back to the frame allocator (Linux's
 * kmem_cache_shrink): the heap shrinks to what is in use, so that a leak
 * test counts frames exactly however high a load drove it. */
void kmalloc_shrink(void)
{
	for (int c = 0; c < NCLASSES; c++) {
		drain_class(c);
		spin_lock(&lock);
		free_list[c] = release_whole_pages(sort_blocks(free_list[c]), c);
		spin_unlock(&lock);
	}
}

#ifdef HOST_TEST
/* The host unit tests give each test fresh memory (tests/host/main.c's
 * fresh_memory): the blocks of the last one's frames are forgotten. */
void kmalloc_forget_all(void)
{
	memset(free_list, 0, sizeof(free_list));
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		memset(kcaches[cpu].list, 0, sizeof(kcaches[cpu].list));
		memset(kcaches[cpu].count, 0, sizeof(kcaches[cpu].count));
	}
}
#endif

size_t kmalloc_block_size(size_t size)
{
	size_t total = size + sizeof(struct header);
	int c = class_of(total);
	return c < 0 ? PAGE_ROUND_UP(total) : (size_t)class_size[c];
}

void *kmalloc(size_t size)
{
	size_t total = size + sizeof(struct header);
	int c = class_of(total);
	struct header *h = NULL;

	if (size == 0 || total < size)
		return NULL;
	if (c < 0) {
		uint32_t npages = PAGE_ROUND_UP(total) / PAGE_SIZE;
		uint32_t pa = pmm_alloc_contig(npages);
		if (!pa)
			return NULL;
		h = P2V(pa);
		h->class = LARGE_CLASS;
		h->npages = npages;
	} else {
		h = cache_alloc(c);
		if (!h)
			return NULL;
		KASSERT(h->magic == MAGIC_FREE);
	}
	h->magic = MAGIC_USED;
	return h + 1;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct header *h = (struct header *)p - 1;
	if (h->magic != MAGIC_USED)
		panic("kfree: %p was not allocated (double free?)", p);
	h->magic = MAGIC_FREE;
#ifdef POISON_FREE
	/* A use after free now reads 0x6b bytes, not stale data that works. */
	if (h->class != LARGE_CLASS)
		memset(p, POISON_BYTE, class_size[h->class] - sizeof(*h));
#endif
	if (h->class == LARGE_CLASS) {
		pmm_free_contig(V2P(h), h->npages);
		return;
	}
	cache_free(h);
}
