/*
 * uaccess.c - copy to and from user space, one page at a time, through
 * the page tables (see uaccess.h for why).
 */
#include "uaccess.h"
#include "lib/errno.h"
#include "fault.h"
#include "mm.h"
#include "kernel/task/proc.h"
#include "lib/string.h"

/* A bound, so that no copy can spin for ever; far more than forks
 * could take a page away in a row. */
#define FAULT_RETRIES 64

/* What a walk does with each piece: look only, or copy one way. */
enum copy_dir { LOOK, FROM_USER, TO_USER };

/* A copy of a few bytes (a pipe's byte, a syscall's int) costs less by
 * hand than memcpy's call and set-up. */
static inline void copy_bytes(char *to, const char *from, uint32_t len)
{
	if (len > 16) {
		memcpy(to, from, len);
		return;
	}
	for (uint32_t i = 0; i < len; i++)
		to[i] = from[i];
}

/* One piece within a page: 0, or -EFAULT if the page is not there (or
 * not writable, for a write). In line: a pipe's byte comes through here
 * (make profile, docs/bench.md). */
static inline __attribute__((always_inline)) int copy_piece(pde_t *pgdir, uint32_t va,
		bool write, char *kbuf, uint32_t len, enum copy_dir dir)
{
	uint32_t pa = vm_user_phys(pgdir, va, write);
	if (!pa)
		return -EFAULT;
	if (dir == FROM_USER)
		copy_bytes(kbuf, P2V(pa), len);
	else if (dir == TO_USER)
		copy_bytes(P2V(pa), kbuf, len);
	return 0;
}

/*
 * Walk [u, u+n) page by page, copying each piece to or from kbuf.
 * Returns 0 or -EFAULT. A piece is found and copied under the address
 * space's lock when the space is the caller's own and other tasks use it
 * too (threads, or a process clone(CLONE_VM) or vfork gave it), so that
 * another task's munmap cannot free the frame between the look-up and
 * the copy (the copy would land in a frame that may be a page table by
 * then). A space with one user has nobody to race with (only that user
 * could give it to another, and it is here), and a mere look
 * (user_range_ok) needs no lock: both skip it, which keeps a pipe's round
 * trip as short as before threads.
 */
static int walk_user(pde_t *pgdir, uint32_t u, uint32_t n, bool write, char *kbuf,
		     enum copy_dir dir)
{
	struct proc *me = current();
	struct mm *mm = me->mm;
	bool mine = mm && pgdir == mm->pgdir;
	bool locked = mine && dir != LOOK && __atomic_load_n(&mm->users, __ATOMIC_RELAXED) > 1;
	uint32_t off = 0;

	if (!pgdir || u + n < u || u + n > KERNEL_OFFSET)
		return -EFAULT;
	while (off < n) {
		uint32_t va = u + off;
		uint32_t len = PAGE_SIZE - (va & (PAGE_SIZE - 1));
		if (len > n - off)
			len = n - off;
		int err;
		/* A page not touched yet, or shared copy-on-write, or just
		 * below the stack: the kernel's access faults it in as the
		 * program's own would, and tries again. Again and again: a
		 * fork in another thread makes the page copy-on-write anew
		 * between the fault and the copy (seen: a pipe read lost its
		 * bytes with EFAULT in smp_stress's thread groups). */
		for (int tries = 0;; tries++) {
			if (locked)
				mm_lock(mm);
			err = copy_piece(pgdir, va, write, kbuf + off, len, dir);
			if (locked)
				mm_unlock(mm);
			if (!err || tries == FAULT_RETRIES || !mine ||
			    mm_fault(me, va, write) != FAULT_OK)
				break;
		}
		if (err)
			return err;
		off += len;
	}
	return 0;
}

/* The caller's page tables; NULL for the idle task, which has none. */
static pde_t *my_pgdir(void)
{
	struct mm *mm = current()->mm;
	return mm ? mm->pgdir : NULL;
}

int copy_from_user(void *dst, const void *usrc, uint32_t n)
{
	return walk_user(my_pgdir(), (uint32_t)usrc, n, false, dst, FROM_USER);
}

int copy_to_user(void *udst, const void *src, uint32_t n)
{
	return walk_user(my_pgdir(), (uint32_t)udst, n, true, (char *)src, TO_USER);
}

int copy_to_pgdir(pde_t *pgdir, uint32_t uva, const void *src, uint32_t n)
{
	return walk_user(pgdir, uva, n, true, (char *)src, TO_USER);
}

int copy_from_pgdir(void *dst, pde_t *pgdir, uint32_t uva, uint32_t n)
{
	return walk_user(pgdir, uva, n, false, dst, FROM_USER);
}

bool user_range_ok(const void *u, uint32_t n, bool write)
{
	return walk_user(my_pgdir(), (uint32_t)u, n, write, NULL, LOOK) == 0;
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
