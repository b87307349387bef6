/*
 * kmalloc.c - a size-class heap on top of the frame allocator.
 *
 * Small requests are served from power-of-two classes (32 bytes .. 2 KiB,
 * header included): each class keeps a free list, refilled by cutting a
 * fresh frame into blocks. Larger requests get whole adjacent frames.
 * Every block starts with a 16-byte header saying which it is, so kfree
 * needs no size, and a magic number that catches bad and double frees.
 */
#include <stdint.h>
#include "kmalloc.h"
#include "panic.h"
#include "pmm.h"
#include "string.h"
#include "spinlock.h"
#include "string.h"
#include "vm.h"

#define MAGIC_USED 0x6B6D616Cu	/* "kmal" */
#define MAGIC_FREE 0x66726565u	/* "free" */
#define MIN_SHIFT 5		/* 32 bytes */
#define MAX_SHIFT 11		/* 2 KiB */
#define NCLASSES (MAX_SHIFT - MIN_SHIFT + 1)
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

static int class_of(size_t total)
{
	for (int c = 0; c < NCLASSES; c++)
		if (total <= (1u << (c + MIN_SHIFT)))
			return c;
	return -1;
}

static bool refill(int c)
{
	uint32_t pa = pmm_alloc();
	if (!pa)
		return false;
	uint32_t size = 1u << (c + MIN_SHIFT);
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
		spin_lock(&lock);
		if (free_list[c] || refill(c)) {
			h = free_list[c];
			free_list[c] = h->next;
		}
		spin_unlock(&lock);
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
		memset(p, POISON_BYTE, (1u << (h->class + MIN_SHIFT)) - sizeof(*h));
#endif
	if (h->class == LARGE_CLASS) {
		pmm_free_contig(V2P(h), h->npages);
		return;
	}
	spin_lock(&lock);
	h->next = free_list[h->class];
	free_list[h->class] = h;
	spin_unlock(&lock);
}
