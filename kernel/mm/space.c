/*
 * space.c - an address space's life (struct mm, kernel/mm/mm.h): made
 * empty (exec, init: mm_alloc), copied copy-on-write (fork: mm_copy),
 * shared (a thread, clone's CLONE_VM, vfork: mm_get), let go (exit,
 * exec: mm_put), the last user freeing its pages. Linux has these in
 * kernel/fork.c (mm_alloc, dup_mm, mmput). The regions themselves are
 * kernel/mm/mm.c's, which the host unit tests build alone.
 */
#include "mm.h"
#include "lib/errno.h"
#include "kmalloc.h"
#include "kernel/arch/maxcpus.h"
#include "kernel/arch/smp.h"
#include "lib/objcache.h"
#include "kernel/arch/ldt.h"

/*
 * Each CPU keeps its last freed address spaces whole, for its next fork
 * or exec (lib/objcache.h): the directory, its user half empty, and a
 * small region array, with no region. Making one takes the frame
 * allocator's and the heap's locks (Linux 2.6's pgd quicklists, and a
 * slab cache's warm objects, spare it the same way).
 */
#define MM_CACHED_AREAS	16	/* a cached mm keeps an array up to this big */
static struct objcache mm_caches[MAX_CPUS] = {
	[0 ... MAX_CPUS - 1] = OBJCACHE_INIT("mm cache")
};

static void mm_free(struct mm *mm)
{
	vm_free_pgdir(mm->pgdir);
	kfree(mm->area);
	kfree(mm);
}

void mm_drain_caches(void)
{
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		void *mms[OBJCACHE_MAX];
		int n = objcache_empty(&mm_caches[cpu], mms);
		for (int i = 0; i < n; i++)
			mm_free(mms[i]);
	}
}

/* A new one from the heap and the frame allocator; NULL if no memory. */
static struct mm *mm_new(void)
{
	struct mm *mm = kzalloc(sizeof(*mm));
	if (mm)
		mm->pgdir = vm_new_pgdir(&mm->map);
	if (!mm || !mm->pgdir) {
		kfree(mm);
		return NULL;
	}
	spin_init(&mm->lock, "mm");
	return mm;
}

struct mm *mm_alloc(void)
{
	struct mm *mm = objcache_take(&mm_caches[this_cpu()]);
	if (!mm)
		mm = mm_new();
	if (!mm) {
		mm_drain_caches();	/* another CPU's: its frames */
		mm = mm_new();
	}
	if (mm)
		mm->users = 1;
	return mm;
}

struct mm *mm_copy(struct mm *mm)
{
	struct mm *child = mm_alloc();
	if (!child)
		return NULL;
	mm_lock(mm);
	int err = vm_copy_user(child->pgdir, mm->pgdir);
	if (!err)
		err = mm_copy_regions(child, mm);
	if (vm_take_stale(mm->pgdir))	/* its pages are read-only now */
		smp_flush_tlb(mm->pgdir);
	mm_unlock(mm);
	if (err < 0) {
		mm_put(child);
		return NULL;
	}
	return child;
}

void mm_get(struct mm *mm)
{
	__atomic_add_fetch(&mm->users, 1, __ATOMIC_RELAXED);
}

/* Its regions and pages go: as new, but for its directory, its lock and
 * a small array (a big one goes too). */
static void mm_empty(struct mm *mm)
{
	ldt_release(mm);		/* its LDT (modify_ldt), once no CPU has it loaded */
	mm_drop_regions(mm);
	vm_free_user(mm->pgdir);
	if (mm->cap > MM_CACHED_AREAS) {
		kfree(mm->area);
		mm->area = NULL;
		mm->cap = 0;
	}
}

void mm_put(struct mm *mm)
{
	if (__atomic_sub_fetch(&mm->users, 1, __ATOMIC_ACQ_REL) > 0)
		return;
	vm_unload(mm->pgdir);		/* its last user may be exiting on this CPU */
	mm_empty(mm);
	if (!objcache_keep(&mm_caches[this_cpu()], mm))
		mm_free(mm);
}
