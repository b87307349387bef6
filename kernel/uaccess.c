/*
 * uaccess.c - copy to and from user space, one page at a time, through
 * the page tables (see uaccess.h for why).
 */
#include "uaccess.h"
#include "errno.h"
#include "fault.h"
#include "mm.h"
#include "proc.h"
#include "string.h"

/* A bound, so that no copy can spin for ever; far more than forks
 * could take a page away in a row. */
#define FAULT_RETRIES 64

/* One piece within a page: found and copied under the address space's
 * lock when it is the caller's own and other threads share it, so that
 * another thread's munmap cannot free the frame between the look-up and
 * the copy (the copy would land in a frame that may be a page table by
 * then). A process of one thread has nobody to race with (only it could
 * start a second thread), and a mere look (user_range_ok) needs no lock:
 * both skip it, which keeps a pipe's round trip as short as before threads.
 * 0, or -EFAULT if the page is not there (or not writable, for a write). */
static int copy_piece(pde_t *pgdir, uint32_t va, bool write, uint32_t off, uint32_t len,
		      void (*fn)(void *kaddr, uint32_t off, uint32_t len, void *arg), void *arg)
{
	struct proc *g = current()->group_leader;
	bool own = pgdir == current()->pgdir && fn && g->nr_threads > 1;

	if (own)
		mm_lock(&g->mm);
	uint32_t pa = vm_user_phys(pgdir, va, write);
	if (pa && fn)
		fn(P2V(pa), off, len, arg);
	if (own)
		mm_unlock(&g->mm);
	return pa ? 0 : -EFAULT;
}

/* Walk [u, u+n) page by page; fn copies each piece. Returns 0 or -EFAULT. */
static int walk_user(pde_t *pgdir, uint32_t u, uint32_t n, bool write,
		     void (*fn)(void *kaddr, uint32_t off, uint32_t len, void *arg), void *arg)
{
	uint32_t off = 0;

	if (!pgdir || u + n < u || u + n > KERNEL_OFFSET)
		return -EFAULT;
	while (off < n) {
		uint32_t va = u + off;
		uint32_t len = PAGE_SIZE - (va & (PAGE_SIZE - 1));
		if (len > n - off)
			len = n - off;
		int err = copy_piece(pgdir, va, write, off, len, fn, arg);
		/* A page not touched yet, or shared copy-on-write, or just
		 * below the stack: the kernel's access faults it in as the
		 * program's own would, and tries again. Again and again: a
		 * fork in another thread makes the page copy-on-write anew
		 * between the fault and the copy (seen: a pipe read lost its
		 * bytes with EFAULT in smp_stress's thread groups). */
		for (int tries = 0; err && tries < FAULT_RETRIES &&
		     pgdir == current()->pgdir && mm_fault(current(), va, write) == FAULT_OK; tries++)
			err = copy_piece(pgdir, va, write, off, len, fn, arg);
		if (err)
			return err;
		off += len;
	}
	return 0;
}

static void from_user(void *kaddr, uint32_t off, uint32_t len, void *dst)
{
	memcpy((char *)dst + off, kaddr, len);
}

static void to_user(void *kaddr, uint32_t off, uint32_t len, void *src)
{
	memcpy(kaddr, (const char *)src + off, len);
}

int copy_from_user(void *dst, const void *usrc, uint32_t n)
{
	return walk_user(current()->pgdir, (uint32_t)usrc, n, false, from_user, dst);
}

int copy_to_user(void *udst, const void *src, uint32_t n)
{
	return walk_user(current()->pgdir, (uint32_t)udst, n, true, to_user, (void *)src);
}

int copy_to_pgdir(pde_t *pgdir, uint32_t uva, const void *src, uint32_t n)
{
	return walk_user(pgdir, uva, n, true, to_user, (void *)src);
}

bool user_range_ok(const void *u, uint32_t n, bool write)
{
	return walk_user(current()->pgdir, (uint32_t)u, n, write, NULL, NULL) == 0;
}

int strncpy_from_user(char *dst, const char *usrc, uint32_t max)
{
	for (uint32_t i = 0; i < max; i++) {
		if (copy_from_user(&dst[i], usrc + i, 1) < 0)
			return -EFAULT;
		if (dst[i] == 0)
			return (int)i;
	}
	return -ENAMETOOLONG;
}
