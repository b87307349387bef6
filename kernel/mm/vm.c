/*
 * vm.c - page directories and page tables.
 *
 * The kernel half of every page directory holds 4 MiB pages only (the
 * direct map and ioremap windows), set up at boot and never changed after
 * the first process exists, so copying those entries into a new directory
 * once is enough: no later synchronisation between address spaces.
 */
#include "vm.h"
#include "lib/errno.h"
#include "kstack.h"
#include "kernel/arch/maxcpus.h"
#include "kernel/arch/cpu.h"	/* mycpu, cpus: the directory each CPU has loaded */
#include "kernel/debug/panic.h"
#include "lib/spinlock.h"	/* this_cpu */
#include "pmm.h"
#include "kmalloc.h"
#include "lib/string.h"
#include "kernel/arch/x86.h"

extern pde_t boot_pgdir[];
pde_t *kernel_pgdir = boot_pgdir;

#define KERNEL_PDE_FIRST PDX(KERNEL_OFFSET)
#define IOREMAP_BASE     (KERNEL_OFFSET + DIRECT_MAP_SIZE)

static uint32_t ioremap_next = IOREMAP_BASE;
static bool kernel_half_frozen;		/* set once the first address space is made */

void *ioremap(uint32_t pa, uint32_t size)
{
	uint32_t big = 4u << 20;
	uint32_t first = pa & ~(big - 1);
	uint32_t last = (pa + size - 1) & ~(big - 1);

	if (pa + size <= DIRECT_MAP_SIZE && pa + size > pa)
		return P2V(pa);
	/* Already mapped by an earlier call? Reuse that window. */
	for (uint32_t va = IOREMAP_BASE; va < ioremap_next; va += big) {
		if (PTE_ADDR(kernel_pgdir[PDX(va)]) == first && last == first)
			return (void *)(va + (pa - first));
	}
	KASSERT(!kernel_half_frozen);
	uint32_t va0 = ioremap_next;
	for (uint32_t p = first;; p += big) {
		if (ioremap_next >= KSTACK_RANGE_BASE)	/* the kernel stacks' range */
			panic("ioremap: out of kernel address space");
		kernel_pgdir[PDX(ioremap_next)] = p | PTE_PS | PTE_PCD | PTE_PWT | PTE_W | PTE_P;
		invlpg(ioremap_next);
		ioremap_next += big;
		if (p == last)
			break;
	}
	return (void *)(va0 + (pa - first));
}

void vm_drop_identity_map(void)
{
	for (uint32_t i = 0; i < KERNEL_PDE_FIRST; i++)
		kernel_pgdir[i] = 0;
	write_cr3(read_cr3());
}

/*
 * Where a user address space has pages. A program's pages sit in a few
 * dozen of the 1,024 entries of each of its two or three page tables (its
 * image and heap low, its stack just below the kernel), and looking at all
 * of them was half of a fork (make profile, docs/bench.md). So each
 * directory has a map of its user part: which directory entries have a
 * page table (a bitmap, like the run queue's), and for the first
 * MAP_SPANS tables made, the span of entries that may be present. fork
 * and exit walk only those (a later table, whole). Every entry outside a
 * span is 0; a span only grows (vm_free_range leaves it as it is).
 * stale says that a present entry was cleared, moved to another frame or
 * lost a permission since the other CPUs last forgot their translations
 * of this space (vm_take_stale): a call that only added pages need not
 * interrupt them.
 *
 * rss counts the present user pages, by kind (the kernel's RSS counters:
 * a file's own page, PTE_FILE; a shared mapping's, PTE_SHARED; else
 * anonymous), and hiwater the most there were at once (VmHWM, ru_maxrss).
 *
 * The map (struct uspace_map, vm.h) lives in the address space's struct
 * mm, beside the directory it describes, and is found from the
 * directory: its last entry maps nothing (the top 4 MiB is no kernel
 * range, see kstack.h) and holds the map's address, with the present bit
 * clear, so the MMU never reads it.
 */
#define MAP_PDE   1023				/* the entry that holds the map */
_Static_assert(USER_PDES == KERNEL_PDE_FIRST, "the user part ends where the kernel's begins");
_Static_assert(KSTACK_RANGE_END == (uint32_t)MAP_PDE << 22, "the map's entry maps nothing");

static struct uspace_map *map_of(pde_t *pgdir)
{
	return (struct uspace_map *)pgdir[MAP_PDE];
}

/* The span of table pdx, or NULL: a table past the first MAP_SPANS. */
static struct table_span *span_of(struct uspace_map *m, uint32_t pdx)
{
	for (int i = 0; i < m->nspans; i++)
		if (m->span[i].pdx == pdx)
			return &m->span[i];
	return NULL;
}

/* [*first, *end): the entries of table pdx that may be present. */
static void table_range(pde_t *pgdir, uint32_t pdx, uint32_t *first, uint32_t *end)
{
	const struct table_span *s = span_of(map_of(pgdir), pdx);

	*first = s ? s->first : 0;
	*end = s ? s->end : 1024;
}

/* A new table at pdx: the map notes it, and its (empty) span if room. */
static void map_new_table(pde_t *pgdir, uint32_t pdx)
{
	struct uspace_map *m = map_of(pgdir);

	m->tables[pdx / 32] |= 1u << (pdx % 32);
	if (m->nspans < MAP_SPANS)
		m->span[m->nspans++] = (struct table_span){ .pdx = (uint16_t)pdx };
}

/* A present entry at va's place: its table's span takes it in. */
static void map_note(pde_t *pgdir, uint32_t va)
{
	struct table_span *s = span_of(map_of(pgdir), PDX(va));
	uint32_t ptx = PTX(va);

	if (!s)
		return;				/* walked whole */
	if (s->first == s->end) {
		s->first = (uint16_t)ptx;
		s->end = (uint16_t)(ptx + 1);
	} else if (ptx < s->first) {
		s->first = (uint16_t)ptx;
	} else if (ptx >= s->end) {
		s->end = (uint16_t)(ptx + 1);
	}
}

/* The next directory entry at or after i that has a page table, or
 * USER_PDES: the set bits of the map, lowest first. */
static uint32_t next_table(pde_t *pgdir, uint32_t i)
{
	const uint32_t *bits = map_of(pgdir)->tables;

	for (uint32_t w = i / 32; w < USER_PDES / 32; w++) {
		uint32_t word = bits[w] & (~0u << (w == i / 32 ? i % 32 : 0));
		if (word)
			return w * 32 + __builtin_ctz(word);
	}
	return USER_PDES;
}

#define for_each_table(pgdir, i) \
	for (uint32_t i = next_table(pgdir, 0); i < USER_PDES; i = next_table(pgdir, i + 1))

pde_t *vm_new_pgdir(struct uspace_map *m)
{
	uint32_t pa = pmm_alloc();
	if (!pa)
		return NULL;
	memset(m, 0, sizeof(*m));
	pde_t *pd = P2V(pa);
	memset(pd, 0, PAGE_SIZE);
	kernel_half_frozen = true;
	for (uint32_t i = KERNEL_PDE_FIRST; i < 1024; i++)
		pd[i] = kernel_pgdir[i];
	KASSERT(!(pd[MAP_PDE] & PTE_P));
	pd[MAP_PDE] = (uint32_t)m;
	return pd;
}

pte_t *vm_walk(pde_t *pgdir, uint32_t va, bool create)
{
	KASSERT(va < KERNEL_OFFSET);
	pde_t *pde = &pgdir[PDX(va)];
	if (!(*pde & PTE_P)) {
		if (!create)
			return NULL;
		uint32_t pa = pmm_alloc();
		if (!pa)
			return NULL;
		memset(P2V(pa), 0, PAGE_SIZE);
		/* The directory entry allows everything; each PTE decides. */
		*pde = pa | PTE_P | PTE_W | PTE_U;
		map_new_table(pgdir, PDX(va));
	}
	pte_t *table = P2V(PTE_ADDR(*pde));
	return &table[PTX(va)];
}

/* Does replacing old by new take something away that a TLB may hold? */
static bool takes_away(pte_t old, pte_t new)
{
	const pte_t rights = PTE_P | PTE_W | PTE_U;
	return (old & PTE_P) && (PTE_ADDR(old) != PTE_ADDR(new) || (old & rights & ~new));
}

static int rss_kind(pte_t pte)
{
	return pte & PTE_FILE ? VM_RSS_FILE : pte & PTE_SHARED ? VM_RSS_SHMEM : VM_RSS_ANON;
}

/* A present user entry comes (1) or goes (-1). */
static void rss_add(struct uspace_map *m, pte_t pte, int n)
{
	m->rss[rss_kind(pte)] += (uint32_t)n;
	m->rss_all += (uint32_t)n;
	if (m->rss_all > m->hiwater)
		m->hiwater = m->rss_all;
}

/* An entry set, the map kept, the counts not (fork's copy counts in
 * bulk). */
static void set_pte_uncounted(pde_t *pgdir, uint32_t va, pte_t *pte, pte_t value)
{
	if (takes_away(*pte, value))
		map_of(pgdir)->stale = true;
	*pte = value;
	map_note(pgdir, va);
}

/* Every user page is mapped here (vm_map_page, vm_alloc_user). */
static void set_pte(pde_t *pgdir, uint32_t va, pte_t *pte, pte_t value)
{
	pte_t old = *pte;
	set_pte_uncounted(pgdir, va, pte, value);
	if (old & PTE_P)
		rss_add(map_of(pgdir), old, -1);
	if (value & PTE_P)
		rss_add(map_of(pgdir), value, 1);
}

void vm_rss(pde_t *pgdir, uint32_t rss[VM_RSS_KINDS], uint32_t *all, uint32_t *hiwater)
{
	struct uspace_map *m = map_of(pgdir);
	memcpy(rss, m->rss, sizeof(m->rss));
	*all = m->rss_all;
	*hiwater = m->hiwater;
}

bool vm_take_stale(pde_t *pgdir)
{
	bool stale = map_of(pgdir)->stale;
	map_of(pgdir)->stale = false;
	return stale;
}

/* The address space each CPU has loaded: its struct cpu's pgdir. */
bool vm_loaded_on(int cpu, const pde_t *pgdir)
{
	return cpus[cpu].pgdir == pgdir;
}

int vm_map_page(pde_t *pgdir, uint32_t va, uint32_t pa, uint32_t flags)
{
	pte_t *pte = vm_walk(pgdir, va, true);
	if (!pte)
		return -1;
	KASSERT(!(*pte & PTE_P));
	set_pte(pgdir, va, pte, pa | flags | PTE_P);
	return 0;
}

void vm_free_user(pde_t *pgdir)
{
	struct uspace_map *m = map_of(pgdir);
	struct pmm_batch b = { 0 };

	for_each_table(pgdir, i) {
		pte_t *table = P2V(PTE_ADDR(pgdir[i]));
		uint32_t first, end;
		table_range(pgdir, i, &first, &end);
		for (uint32_t j = first; j < end; j++)
			if (table[j] & PTE_P)
				pmm_unref_batch(&b, PTE_ADDR(table[j]));
		pmm_free(PTE_ADDR(pgdir[i]));
		pgdir[i] = 0;
	}
	pmm_batch_flush(&b);
	memset(m, 0, sizeof(*m));
}

void vm_free_pgdir(pde_t *pgdir)
{
	vm_free_user(pgdir);
	pmm_free(V2P(pgdir));
}

void vm_switch(pde_t *pgdir)
{
	mycpu()->pgdir = pgdir;
	write_cr3(V2P(pgdir));
}

void vm_unload(pde_t *pgdir)
{
	push_cli();			/* this CPU's, not another's */
	if (mycpu()->pgdir == pgdir)
		vm_switch(kernel_pgdir);
	pop_cli();
}

/*
 * fork: copy-on-write. The child gets its own page tables, but every user
 * page stays where it is and is mapped in both, with one more reference
 * (pmm_ref). A private page loses PTE_W in both parent and child, so the
 * first write of either faults and gets a copy of its own (kernel/mm/fault.c);
 * a page of a shared mapping (PTE_SHARED) keeps PTE_W: both see every write.
 * A file's own page (PTE_FILE) is not copied: the child's first touch
 * maps it again from the file (kernel/mm/filemap.c says why).
 * Only the page tables are new: 4 KiB for each 4 MiB a program spans.
 */
int vm_copy_user(pde_t *dst, pde_t *src)
{
	for_each_table(src, i) {
		pte_t *table = P2V(PTE_ADDR(src[i]));
		uint32_t first, end;
		table_range(src, i, &first, &end);
		for (uint32_t j = first; j < end; j++) {
			if (!(table[j] & PTE_P) || (table[j] & PTE_FILE))
				continue;
			if (!(table[j] & PTE_SHARED) && (table[j] & PTE_W)) {
				table[j] &= ~PTE_W;
				map_of(src)->stale = true;
			}
			uint32_t va = (i << 22) | (j << 12);
			pte_t *pte = vm_walk(dst, va, true);
			if (!pte)
				return -ENOMEM;		/* what is mapped is let go with dst */
			set_pte_uncounted(dst, va, pte, table[j]);
			pmm_ref(PTE_ADDR(table[j]));
		}
	}
	/* the child holds what the parent holds but its files' own pages */
	struct uspace_map *d = map_of(dst), *m = map_of(src);
	d->rss[VM_RSS_ANON] = m->rss[VM_RSS_ANON];
	d->rss[VM_RSS_SHMEM] = m->rss[VM_RSS_SHMEM];
	d->rss_all = d->hiwater = d->rss[VM_RSS_ANON] + d->rss[VM_RSS_SHMEM];
	/* The parent's writable pages just became read-only: forget the
	 * translations its TLB still holds (fork runs in the parent). */
	write_cr3(read_cr3());
	return 0;
}

void vm_set_pte(pde_t *pgdir, uint32_t va, pte_t *pte, pte_t value)
{
	set_pte(pgdir, va, pte, value);
	invlpg(va);
}

/* mremap: move the pages of [from, from+n) to [to, to+n) (page tables of
 * the destination made first, so that running out of memory changes
 * nothing). -1 when memory runs out. */
int vm_move_range(pde_t *pgdir, uint32_t from, uint32_t to, uint32_t n)
{
	for (uint32_t off = 0; off < n; off += PAGE_SIZE)
		if (vm_walk(pgdir, from + off, false) && !vm_walk(pgdir, to + off, true))
			return -1;
	for (uint32_t off = 0; off < n; off += PAGE_SIZE) {
		pte_t *src = vm_walk(pgdir, from + off, false);
		if (!src || !(*src & PTE_P))
			continue;
		pte_t value = *src;
		*src = 0;
		rss_add(map_of(pgdir), value, -1);	/* and back, at to */
		map_of(pgdir)->stale = true;
		invlpg(from + off);
		vm_set_pte(pgdir, to + off, vm_walk(pgdir, to + off, false), value);
	}
	return 0;
}

int vm_alloc_user(pde_t *pgdir, uint32_t va, uint32_t n, uint32_t flags)
{
	for (uint32_t a = PAGE_ROUND_DOWN(va); a < va + n; a += PAGE_SIZE) {
		pte_t *pte = vm_walk(pgdir, a, true);
		if (!pte)
			return -1;
		if (*pte & PTE_P) {
			*pte |= flags;		/* e.g. a data segment sharing a text page */
			continue;
		}
		uint32_t pa = pmm_alloc_user();
		if (!pa)
			return -1;
		memset(P2V(pa), 0, PAGE_SIZE);
		set_pte(pgdir, a, pte, pa | flags | PTE_U | PTE_P);
	}
	return 0;
}

void vm_free_range(pde_t *pgdir, uint32_t va, uint32_t n)
{
	struct pmm_batch b = { 0 };
	for (uint32_t a = PAGE_ROUND_UP(va); a < va + n; a += PAGE_SIZE) {
		pte_t *pte = vm_walk(pgdir, a, false);
		if (pte && (*pte & PTE_P)) {
			pmm_unref_batch(&b, PTE_ADDR(*pte));
			rss_add(map_of(pgdir), *pte, -1);
			*pte = 0;
			map_of(pgdir)->stale = true;
			invlpg(a);
		}
	}
	pmm_batch_flush(&b);
}
