/*
 * ldt.c - modify_ldt (123): a process's own code and data segments, as
 * Linux i386 gives them (arch/x86/kernel/ldt.c; the rules in ldt.h).
 *
 * What a program may put in its LDT is what it could do with the flat
 * segments anyway: every entry is a code or data segment of privilege 3
 * (kernel/arch/desc.h), so a selector of it never reaches the kernel's
 * memory or privilege; a conforming code segment is refused, as Linux
 * refuses it. A selector that no longer works (an entry cleared, or not
 * present) faults where it is used: in user mode that kills the program
 * (#GP: SIGSEGV, #NP: SIGBUS, as Linux), on the way back to user mode it
 * becomes the null selector (kernel/arch/trap.c's return_fixup).
 */
#include "ldt.h"
#include "desc.h"
#include "gdt.h"
#include "smp.h"
#include "x86.h"
#include "lib/errno.h"
#include "lib/string.h"
#include "kernel/mm/kmalloc.h"
#include "kernel/mm/uaccess.h"
#include "kernel/task/proc.h"

#define LDT_MAX_BYTES		(LDT_ENTRIES * LDT_ENTRY_SIZE)
/* Linux i386's read_default_ldt: five empty entries. */
#define DEFAULT_LDT_BYTES	(5 * LDT_ENTRY_SIZE)
#define LDT_ACCESS		0x82	/* present, DPL 0, system segment type 2: an LDT */

enum { LDT_READ = 0, LDT_WRITE_OLD = 1, LDT_READ_DEFAULT = 2, LDT_WRITE = 0x11 };

/* The caller's address space (kernel/task/proc.h): its table is every
 * user's of it, threads and processes that share it (clone's CLONE_VM). */
static struct mm *my_mm(void)
{
	return current()->mm;
}

static struct ldt *ldt_alloc(uint32_t n)
{
	struct ldt *l = kzalloc(sizeof(*l) + n * LDT_ENTRY_SIZE);
	if (l)
		l->nr_entries = n;
	return l;
}

void ldt_install(struct cpu *c, const struct ldt *l)
{
	if (l) {
		uint32_t limit = l->nr_entries * LDT_ENTRY_SIZE - 1;
		c->gdt[SEG_LDT] = gdt_segment((uint32_t)l->entries, limit, LDT_ACCESS, 0);
		lldt(LDT_SEL);
	} else {
		lldt(0);
	}
	c->ldt = l;
}

/* An IPI (or a plain call here): this CPU's process's table, as it is now. */
static void reload_here(void *unused)
{
	(void)unused;
	struct cpu *c = mycpu();
	ldt_switch(c, ldt_of(current()->mm));
}

/*
 * old is out of its mm: once every CPU has loaded its process's table
 * again, none has old loaded, and none can load it (a switch reads the
 * mm's pointer with interrupts off, so a CPU that read old before it
 * changed answers our call only after it loaded it). Then it is freed.
 */
static void ldt_retire(struct ldt *old)
{
	for (int cpu = 0; cpu < ncpus; cpu++)
		smp_call_function(cpu, reload_here, NULL, true);
	kfree(old);
}

int ldt_copy(struct mm *child, const struct mm *parent)
{
	const struct ldt *from = parent->ldt;
	struct ldt *l = ldt_alloc(from->nr_entries);
	if (!l)
		return -ENOMEM;
	memcpy(l->entries, from->entries, from->nr_entries * LDT_ENTRY_SIZE);
	child->ldt = l;
	return 0;
}

void ldt_drop(struct mm *mm)
{
	mm_lock(mm);
	struct ldt *old = mm->ldt;
	mm->ldt = NULL;
	mm_unlock(mm);
	ldt_retire(old);
}

/* Entry idx becomes d: a new table, with room up to idx (Linux's: never
 * smaller than before), replaces the old. */
static int ldt_set(struct mm *mm, uint32_t idx, uint64_t d)
{
	mm_lock(mm);
	struct ldt *old = mm->ldt;
	uint32_t n = old && old->nr_entries > idx ? old->nr_entries : idx + 1;
	struct ldt *l = ldt_alloc(n);
	if (!l) {
		mm_unlock(mm);
		return -ENOMEM;
	}
	if (old)
		memcpy(l->entries, old->entries, old->nr_entries * LDT_ENTRY_SIZE);
	l->entries[idx] = d;
	mm->ldt = l;
	mm_unlock(mm);
	ldt_retire(old);
	return 0;
}

/* The entry a write makes: 0 to clear it (LDT_empty, or in the old mode
 * a base and limit of 0), else fill_ldt's descriptor, whose AVL bit the
 * old mode leaves clear. 16-bit segments are allowed, as on Linux i386. */
static uint64_t ldt_desc(const struct user_desc *u, bool oldmode)
{
	if ((oldmode && !u->base_addr && !u->limit) || desc_empty(u))
		return 0;
	uint64_t d = desc_encode(u);
	return oldmode ? d & ~DESC_AVL : d;
}

/* Linux's write_ldt(), its checks in its order. */
static int write_ldt(const void *uptr, uint32_t bytecount, bool oldmode)
{
	struct user_desc u;
	if (bytecount != sizeof(u))
		return -EINVAL;
	if (copy_from_user(&u, uptr, sizeof(u)) < 0)
		return -EFAULT;
	if (u.entry_number >= LDT_ENTRIES)
		return -EINVAL;
	/* A conforming code segment only while it is not present (the new
	 * mode): Linux's rule. */
	if (u.contents == 3 && (oldmode || !u.seg_not_present))
		return -EINVAL;
	return ldt_set(my_mm(), u.entry_number, ldt_desc(&u, oldmode));
}

/* Linux's read_ldt(): nothing (0) without an LDT; else bytecount bytes,
 * at most the whole LDT_ENTRIES, the entries past the table's end as
 * zeros. Copied aside under the lock: the table may be replaced and
 * freed while the copy to the user faults pages in. */
static int read_ldt(void *uptr, uint32_t bytecount)
{
	struct mm *mm = my_mm();
	if (bytecount > LDT_MAX_BYTES)
		bytecount = LDT_MAX_BYTES;
	mm_lock(mm);
	const struct ldt *l = mm->ldt;
	uint8_t *buf = l && bytecount ? kzalloc(bytecount) : NULL;
	if (buf) {
		uint32_t have = l->nr_entries * LDT_ENTRY_SIZE;
		memcpy(buf, l->entries, have < bytecount ? have : bytecount);
	}
	mm_unlock(mm);
	if (!l || !bytecount)
		return 0;
	if (!buf)
		return -ENOMEM;
	int err = copy_to_user(uptr, buf, bytecount);
	kfree(buf);
	return err < 0 ? -EFAULT : (int)bytecount;
}

/* Linux i386's read_default_ldt(): zeros, at most five entries' worth. */
static int read_default_ldt(void *uptr, uint32_t bytecount)
{
	static const uint8_t zeros[DEFAULT_LDT_BYTES];
	if (bytecount > sizeof(zeros))
		bytecount = sizeof(zeros);
	return copy_to_user(uptr, zeros, bytecount) < 0 ? -EFAULT : (int)bytecount;
}

int sys_modify_ldt(int func, void *ptr, uint32_t bytecount)
{
	switch (func) {
	case LDT_READ:		return read_ldt(ptr, bytecount);
	case LDT_WRITE_OLD:	return write_ldt(ptr, bytecount, true);
	case LDT_READ_DEFAULT:	return read_default_ldt(ptr, bytecount);
	case LDT_WRITE:		return write_ldt(ptr, bytecount, false);
	default:		return -ENOSYS;
	}
}
