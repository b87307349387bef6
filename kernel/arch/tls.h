/*
 * tls.h - thread-local storage segments: the GDT entries each task may
 * set (set_thread_area), copied into its CPU's GDT at every switch.
 */
#ifndef KERNEL_TLS_H
#define KERNEL_TLS_H

#include <stdbool.h>
#include <stdint.h>
#include <uapi/tls.h>
#include "cpu.h"

/* A task's TLS descriptors, in GDT format (0 = empty). */
struct tls_state {
	uint64_t desc[GDT_ENTRY_TLS_ENTRIES];
};

struct proc;
int sys_set_thread_area(struct user_desc *uinfo);
/* set_thread_area for p (the caller, or a child clone prepares). */
int tls_set(struct proc *p, struct user_desc *uinfo, bool can_allocate);
int sys_get_thread_area(struct user_desc *uinfo);

/* Put a task's descriptors into this CPU's GDT at a switch: the pop of
 * %gs on the way back to user mode then reads the task's own segment.
 * The kernel never uses %gs, so it still holds the previous task's user
 * selector; an interrupt taken in the next task's kernel code would save
 * and pop that selector against a slot now empty (a #GP in the kernel),
 * so it is nulled first. Inline: every context switch pays for it. */
static inline void tls_load(struct cpu *c, const struct tls_state *t)
{
	__asm__ volatile("movw %w0, %%gs" : : "r"(0));
	for (int i = 0; i < GDT_ENTRY_TLS_ENTRIES; i++)
		c->gdt[GDT_ENTRY_TLS_MIN + i] = t->desc[i];
}

#endif
