/*
 * vm.h - virtual memory: the kernel's direct map and page tables.
 *
 * Every address space maps the kernel the same way above KERNEL_OFFSET:
 * physical 0..DIRECT_MAP_SIZE appears at KERNEL_OFFSET.. (4 MiB pages),
 * and device registers are mapped above that by ioremap(). User pages
 * live below KERNEL_OFFSET, in 4 KiB pages with the U/S bit set.
 */
#ifndef KERNEL_VM_H
#define KERNEL_VM_H

#include <stdint.h>
#include <stdbool.h>

#define KERNEL_OFFSET   0xC0000000u
#define DIRECT_MAP_SIZE (896u << 20)	/* must match boot/entry.asm */
#define PAGE_SIZE       4096u
#define PAGE_ROUND_UP(x)   (((uint32_t)(x) + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1))
#define PAGE_ROUND_DOWN(x) ((uint32_t)(x) & ~(PAGE_SIZE - 1))

#ifndef HOST_TEST
#define P2V(pa) ((void *)((uint32_t)(pa) + KERNEL_OFFSET))
#define V2P(va) ((uint32_t)(va) - KERNEL_OFFSET)
#else
/* tests/host: "physical memory" is a buffer of the test program's. */
extern char *host_phys_base;
#define P2V(pa) ((void *)(host_phys_base + (uint32_t)(pa)))
#define V2P(va) ((uint32_t)((char *)(va) - host_phys_base))
#endif

/* Page-table entry bits (Intel SDM vol. 3 §4.3). */
#define PTE_P   0x001	/* present */
#define PTE_W   0x002	/* writable */
#define PTE_U   0x004	/* user may access */
#define PTE_PWT 0x008
#define PTE_PCD 0x010	/* cache disable: for device registers */
#define PTE_PS  0x080	/* 4 MiB page (in a directory entry) */
/* Bits 9-11 are the software's. */
#define PTE_SHARED 0x200	/* a MAP_SHARED page: fork keeps it writable in both */
#define PTE_FILE   0x400	/* a tmpfs file's own page (kernel/mm/filemap.c): fork skips it */
#define PTE_ADDR(e) ((e) & ~0xFFFu)

#define PDX(va) (((uint32_t)(va) >> 22) & 0x3FF)
#define PTX(va) (((uint32_t)(va) >> 12) & 0x3FF)

typedef uint32_t pde_t;
typedef uint32_t pte_t;

extern pde_t *kernel_pgdir;

/* Map physical [pa, pa+size) for the kernel; uncached. Boot time only:
 * address spaces made later copy the kernel's mappings once. */
void *ioremap(uint32_t pa, uint32_t size);
/* Remove the identity map of low memory that booting needed. */
void vm_drop_identity_map(void);
/*
 * Where a user address space has pages (kernel/mm/vm.c says why and how;
 * only vm.c writes it): which of the USER_PDES directory entries have a
 * page table, and for the first MAP_SPANS tables made, the span of
 * entries that may be present; and how many pages are present, by kind,
 * and the most there were (read by vm_rss, and hiwater by exec and exit
 * for getrusage's peak). Its address space (struct mm) keeps it beside
 * the directory, one heap block for both.
 */
#define USER_PDES	(KERNEL_OFFSET >> 22)	/* 768 directory entries */
#define MAP_SPANS	12			/* a program has 3 to 5 tables */
struct table_span {
	uint16_t pdx, first, end;		/* pgdir[pdx]'s entries [first, end) */
};
enum { VM_RSS_ANON, VM_RSS_FILE, VM_RSS_SHMEM, VM_RSS_KINDS };
struct uspace_map {
	uint32_t tables[USER_PDES / 32];	/* bit i: pgdir[i] has a table */
	struct table_span span[MAP_SPANS];	/* of the first tables made */
	uint8_t nspans;
	bool stale;
	uint32_t rss[VM_RSS_KINDS];		/* present user pages, by kind */
	uint32_t rss_all, hiwater;		/* their sum, and its most */
};

/* A new page directory: the kernel half shared, the user half empty; a
 * frame, and m (its map, made empty here). NULL if no memory. */
pde_t *vm_new_pgdir(struct uspace_map *m);
/* Free the user half (its pages and page tables): vm_free_user, which
 * leaves the directory and its map as new; and then the directory too
 * (its map is its address space's). */
void vm_free_user(pde_t *pgdir);
void vm_free_pgdir(pde_t *pgdir);

pte_t *vm_walk(pde_t *pgdir, uint32_t va, bool create);
int vm_map_page(pde_t *pgdir, uint32_t va, uint32_t pa, uint32_t flags);
/* Physical address behind a user virtual address, or 0 if none; checks
 * that the page is user-accessible (and writable when write is set).
 * In line, without vm_walk: every user copy asks (a pipe's round trip six
 * times; make profile, docs/bench.md). */
static inline uint32_t vm_user_phys(pde_t *pgdir, uint32_t va, bool write)
{
	if (va >= KERNEL_OFFSET)
		return 0;
	pde_t pde = pgdir[PDX(va)];
	if (!(pde & PTE_P))
		return 0;
	pte_t pte = ((const pte_t *)P2V(PTE_ADDR(pde)))[PTX(va)];
	if (!(pte & PTE_P) || !(pte & PTE_U) || (write && !(pte & PTE_W)))
		return 0;
	return PTE_ADDR(pte) | (va & 0xFFF);
}
void vm_switch(pde_t *pgdir);
/* pgdir's last user is done with it: if this CPU still has it loaded,
 * load the kernel's instead, so that whoever gets the directory next
 * (a cached address space, or its frame) is switched to with %cr3
 * written, and meets none of its old translations. */
void vm_unload(pde_t *pgdir);
/* Was a present user entry of pgdir cleared, moved or narrowed since the
 * last call? (Then other CPUs that have it loaded must forget their
 * translations: smp_flush_tlb.) Clears the answer. Its lock held. */
bool vm_take_stale(pde_t *pgdir);
/* Has cpu loaded pgdir (vm_switch)? */
bool vm_loaded_on(int cpu, const pde_t *pgdir);
/* fork: the new directory dst (empty) shares every user page of src,
 * copy-on-write. 0, or -ENOMEM when memory runs out (then dst holds
 * some of them: freeing it lets go of those). */
int vm_copy_user(pde_t *dst, pde_t *src);
/* The present user pages of pgdir by kind (RssAnon, RssFile, RssShmem),
 * all of them (VmRSS), and the most there were at once (VmHWM). */
void vm_rss(pde_t *pgdir, uint32_t rss[VM_RSS_KINDS], uint32_t *all, uint32_t *hiwater);
/* Set a user PTE that vm_walk gave (keeps the map of where pages are). */
void vm_set_pte(pde_t *pgdir, uint32_t va, pte_t *pte, pte_t value);
/* Move the pages of [from, from+n) to [to, to+n) (mremap); -1 if out of
 * memory, then nothing moved. */
int vm_move_range(pde_t *pgdir, uint32_t from, uint32_t to, uint32_t n);
/* Map n bytes of fresh zeroed user pages at [va, va+n); flags PTE_W etc.
 * Pages already mapped are left alone. 0 or -1 when memory runs out. */
int vm_alloc_user(pde_t *pgdir, uint32_t va, uint32_t n, uint32_t flags);
/* Unmap the user pages in [va, va+n), dropping a reference to each. */
void vm_free_range(pde_t *pgdir, uint32_t va, uint32_t n);

#endif
