/*
 * fault.h - what happens when a user program faults (kernel/fault.c).
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct proc;
struct trapframe;

/* trap(): a CPU exception taken in user mode. Grows the stack, or sends
 * the process the signal Linux would (which may end it). */
void user_fault(struct trapframe *tf);
/* Map the page at addr if it lies in p's stack region (the stack grows on
 * demand, both on a fault and when a system call writes there). */
bool fault_grow_stack(struct proc *p, uint32_t addr);

#endif
