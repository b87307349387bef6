/*
 * fpu.h - each process's x87/SSE registers (docs/kernel.md "The FPU").
 *
 * The registers are switched eagerly: schedule() saves the outgoing
 * task's and loads the incoming one's, so a program's floating point is
 * its own (the kernel itself never touches them: -mgeneral-regs-only).
 */
#ifndef KERNEL_FPU_H
#define KERNEL_FPU_H

#include <stdbool.h>
#include <stdint.h>

#define FPU_STATE_SIZE 512		/* fxsave's image (fnsave uses the first 108) */

struct fpu_state {
	uint8_t bytes[FPU_STATE_SIZE];
} __attribute__((aligned(16)));

/* This CPU: FPU on, exceptions reported natively, fxsave if it has it;
 * the first call also records the clean state (after fninit). */
void fpu_cpu_init(void);

extern bool fpu_have_fxsr;		/* set by fpu_cpu_init() */

/* Inline: schedule() does both at every switch. */
static inline void fpu_save(struct fpu_state *s)	/* this CPU's registers -> s */
{
	if (fpu_have_fxsr)
		__asm__ volatile("fxsave %0" : "=m"(*s));
	else
		__asm__ volatile("fnsave %0; fwait" : "=m"(*s));
}

static inline void fpu_restore(const struct fpu_state *s)	/* s -> this CPU's registers */
{
	if (fpu_have_fxsr)
		__asm__ volatile("fxrstor %0" : : "m"(*s));
	else
		__asm__ volatile("frstor %0" : : "m"(*s));
}

void fpu_clean(struct fpu_state *s);		/* s = the state after fninit */
/* Make a state from user memory safe to load (MXCSR's reserved bits). */
void fpu_sanitize(struct fpu_state *s);

#endif
