/*
 * kstack.c - kernel stacks (docs/kernel.md, "Kernel stacks").
 *
 * The range [KSTACK_RANGE_BASE, KSTACK_RANGE_END) is cut into slots of
 * KSTACK_PAGES + 1 pages; a slot's first page is never mapped, so a stack
 * that overflows faults there instead of writing over the stack below.
 * The range's page tables are made at boot, before the first address
 * space copies the kernel half: mapping a stack later changes entries of
 * tables that every address space shares, and nobody else needs telling.
 *
 * A stack's frames come from the frame allocator when a task is made and
 * go back when it is freed (Linux's vmalloc'd stacks, CONFIG_VMAP_STACK).
 * Freeing must make every CPU forget the old translations first (a TLB
 * shootdown): the next stack in that slot has other frames. Slots are a
 * bitmap searched from the start (first fit): whatever is kept per slot
 * (/proc's nodes) is then bounded by the peak number of tasks, where a
 * next fit would walk every slot of the range in time.
 *
 * Each CPU keeps its last OBJCACHE_MAX freed stacks whole, slot and
 * frames mapped, and hands them out first (Linux's cached vmap stacks,
 * NR_CACHED_STACKS): a fork + exit + wait then takes no global lock and
 * sends no shootdown, whose IPIs would interrupt every CPU on every exit.
 * A slot the caches keep is not a task's: when the bitmap has
 * none left, the caches are emptied before the answer is no.
 */
#include "kstack.h"
#include "kernel/arch/maxcpus.h"
#include "lib/objcache.h"
#include "kernel/debug/panic.h"
#include "pmm.h"
#include "kernel/arch/smp.h"
#include "lib/spinlock.h"
#include "lib/string.h"
#include "vm.h"
#include "kernel/arch/x86.h"

#define SLOT_PAGES	(KSTACK_PAGES + 1)
#define SLOT_BYTES	(SLOT_PAGES * PAGE_SIZE)

static struct spinlock lock = SPINLOCK_INIT("kstack");
static uint32_t used[(KSTACK_SLOTS_MAX + 31) / 32];	/* bit slot: taken */
static int nslots;

/* Each CPU's last freed stacks, whole (lib/objcache.h). */
static struct objcache caches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = OBJCACHE_INIT("kstack cache")
};

static pte_t *kstack_pte(uint32_t va)
{
	return (pte_t *)P2V(PTE_ADDR(kernel_pgdir[PDX(va)])) + PTX(va);
}

void kstack_init(int n)
{
	KASSERT(n > 0 && n <= (int)KSTACK_SLOTS_MAX);
	nslots = n;
	uint32_t end = KSTACK_RANGE_BASE + (uint32_t)n * SLOT_BYTES;
	for (uint32_t va = KSTACK_RANGE_BASE; va < end; va += 4u << 20) {
		uint32_t pt = pmm_alloc();
		if (!pt)
			panic("no memory for the kernel stacks' page tables");
		memset(P2V(pt), 0, PAGE_SIZE);
		kernel_pgdir[PDX(va)] = pt | PTE_W | PTE_P;
	}
	write_cr3(read_cr3());
}

/* The lowest free slot (first fit), or -1: the slots in use then stay
 * below the most tasks there ever were at once, and so do /proc's nodes,
 * which kernel/fs/proc/procfs_pid.c makes per slot and keeps. */
static int slot_take(void)
{
	int found = -1;
	spin_lock(&lock);
	for (int w = 0; w * 32 < nslots && found < 0; w++) {
		if (used[w] == ~0u)
			continue;
		int s = w * 32 + __builtin_ctz(~used[w]);
		if (s < nslots)
			found = s;
	}
	if (found >= 0)
		used[found / 32] |= 1u << (found % 32);
	spin_unlock(&lock);
	return found;
}

static void slot_give(int s)
{
	spin_lock(&lock);
	used[s / 32] &= ~(1u << (s % 32));
	spin_unlock(&lock);
}

/* Unmap the stack's pages from `mapped` down, on every CPU, then free
 * their frames. */
static void unmap_pages(uint32_t stack, int mapped)
{
	uint32_t pa[KSTACK_PAGES];
	for (int i = 0; i < mapped; i++) {
		pte_t *pte = kstack_pte(stack + i * PAGE_SIZE);
		pa[i] = PTE_ADDR(*pte);
		*pte = 0;
	}
	smp_flush_tlb_kernel(stack, (uint32_t)mapped);
	for (int i = 0; i < mapped; i++)
		pmm_free(pa[i]);
}

static int slot_of(uint32_t stack)
{
	return (int)((stack - KSTACK_RANGE_BASE) / SLOT_BYTES);
}

static void free_whole(uint32_t stack)
{
	unmap_pages(stack, KSTACK_PAGES);
	slot_give(slot_of(stack));
}

void kstack_drain_caches(void)
{
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		void *stacks[OBJCACHE_MAX];
		int n = objcache_empty(&caches[cpu], stacks);
		for (int i = 0; i < n; i++)
			free_whole((uint32_t)stacks[i]);
	}
}

void *kstack_alloc(int *slot)
{
	void *cached = objcache_take(&caches[this_cpu()]);
	if (cached) {
		*slot = slot_of((uint32_t)cached);
		return cached;
	}
	int s = slot_take();
	if (s < 0) {
		kstack_drain_caches();
		s = slot_take();
	}
	if (s < 0)
		return NULL;
	/* The slot's first page stays unmapped: the guard. */
	uint32_t stack = KSTACK_RANGE_BASE + (uint32_t)s * SLOT_BYTES + PAGE_SIZE;
	for (int i = 0; i < KSTACK_PAGES; i++) {
		uint32_t pa = pmm_alloc();
		if (!pa) {
			unmap_pages(stack, i);
			slot_give(s);
			return NULL;
		}
		/* A page that was not present is in no TLB: no flush needed. */
		*kstack_pte(stack + i * PAGE_SIZE) = pa | PTE_W | PTE_P;
	}
	*slot = s;
	return (void *)stack;
}

void kstack_free(void *stack)
{
	uint32_t va = (uint32_t)stack;
	KASSERT(va > KSTACK_RANGE_BASE && (va - KSTACK_RANGE_BASE) % SLOT_BYTES == PAGE_SIZE);
	if (!objcache_keep(&caches[this_cpu()], stack))
		free_whole(va);
}

bool kstack_in_guard(uint32_t va)
{
	return va >= KSTACK_RANGE_BASE && va < KSTACK_RANGE_BASE + (uint32_t)nslots * SLOT_BYTES &&
	       (va - KSTACK_RANGE_BASE) % SLOT_BYTES < PAGE_SIZE;
}
