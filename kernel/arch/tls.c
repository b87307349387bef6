/*
 * tls.c - thread-local storage: set_thread_area (243) and
 * get_thread_area (244), as Linux i386 (arch/x86/kernel/tls.c).
 *
 * glibc on i386 reaches its thread's data through %gs: at start-up it
 * asks for a free GDT slot (entry_number -1), gets 6 back and loads %gs
 * with 0x33. Each task keeps its three slots (struct tls_state in its
 * proc); schedule() copies them into the CPU's GDT, so the same selector
 * means each thread's own block. The trap frame saves the user's %gs, and
 * trapret's pop reloads it from the GDT after every switch.
 */
#include "tls.h"
#include "desc.h"
#include "lib/errno.h"
#include "gdt.h"
#include "kernel/task/proc.h"
#include "kernel/mm/uaccess.h"

_Static_assert(SEG_TLS_MIN == GDT_ENTRY_TLS_MIN && SEG_TLS_MAX == GDT_ENTRY_TLS_MAX,
	       "the GDT's TLS slots are Linux's 6..8");
_Static_assert(sizeof(struct user_desc) == 16, "Linux's struct user_desc");

/* "No segment" as programs write it: all zero but the entry (Linux's
 * LDT_zero()); LDT_empty()'s way is desc_empty(). */
static bool desc_zero(const struct user_desc *u)
{
	return u->base_addr == 0 && u->limit == 0 && u->contents == 0 &&
	       u->read_exec_only == 0 && u->seg_32bit == 0 && u->limit_in_pages == 0 &&
	       u->seg_not_present == 0 && u->useable == 0;
}

/* Linux's tls_desc_okay(): only present 32-bit data segments, since a
 * user code or 16-bit segment in the GDT is a hole Linux closed too. */
static bool desc_okay(const struct user_desc *u)
{
	if (desc_zero(u) || desc_empty(u))
		return true;
	return u->seg_32bit && u->contents <= 1 && !u->seg_not_present;
}

/* The GDT slot's descriptor: 0 for either way of saying "none". */
static uint64_t tls_desc(const struct user_desc *u)
{
	return desc_zero(u) || desc_empty(u) ? 0 : desc_encode(u);
}

/* A segment register naming a slot just emptied would fault in the
 * kernel, at trapret's pop: Linux reloads it and falls back to the null
 * selector; so does this. */
static void drop_selector(struct trapframe *tf, uint32_t idx)
{
	uint32_t sel = idx << 3;
	if ((tf->gs & 0xFFFC) == sel)
		tf->gs = 0;
	if ((tf->fs & 0xFFFC) == sel)
		tf->fs = 0;
	if ((tf->es & 0xFFFC) == sel)
		tf->es = 0;
	if ((tf->ds & 0xFFFC) == sel)
		tf->ds = 0;
}

static int free_slot(const struct tls_state *t)
{
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		if (t->desc[i] == 0)
			return GDT_ENTRY_TLS_MIN + i;
	return -ESRCH;
}

/* Linux's do_set_thread_area(): for the caller, or for a child clone is
 * making (CLONE_SETTLS, which names its slot: no allocation). */
int tls_set(struct proc *p, struct user_desc *uinfo, bool can_allocate)
{
	struct user_desc u;
	if (copy_from_user(&u, uinfo, sizeof(u)) < 0)
		return -EFAULT;
	if (!desc_okay(&u))
		return -EINVAL;
	int idx = (int)u.entry_number;
	if (idx == -1 && can_allocate) {
		idx = free_slot(&p->tls);
		if (idx < 0)
			return idx;
		if (copy_to_user(&uinfo->entry_number, &idx, sizeof(idx)) < 0)
			return -EFAULT;
	}
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	uint64_t d = tls_desc(&u);
	p->tls.desc[idx - GDT_ENTRY_TLS_MIN] = d;
	if (!d)
		drop_selector(p->tf, (uint32_t)idx);
	if (p == current()) {
		push_cli();	/* this CPU's GDT, not the one we may migrate to */
		tls_load(mycpu(), &p->tls);
		pop_cli();
	}
	return 0;
}

int sys_set_thread_area(struct user_desc *uinfo)
{
	return tls_set(current(), uinfo, true);
}

int sys_get_thread_area(struct user_desc *uinfo)
{
	struct proc *p = current();
	int idx;
	if (copy_from_user(&idx, &uinfo->entry_number, sizeof(idx)) < 0)
		return -EFAULT;
	if (idx < GDT_ENTRY_TLS_MIN || idx > GDT_ENTRY_TLS_MAX)
		return -EINVAL;
	struct user_desc u;
	desc_decode(p->tls.desc[idx - GDT_ENTRY_TLS_MIN], (uint32_t)idx, &u);
	if (copy_to_user(uinfo, &u, sizeof(u)) < 0)
		return -EFAULT;
	return 0;
}
