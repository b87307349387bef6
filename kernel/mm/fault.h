/*
 * fault.h - what happens when a user program faults (kernel/mm/fault.c).
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

#include <stdbool.h>
#include <stdint.h>

struct proc;
struct trapframe;

/* trap(): a CPU exception taken in user mode. Serves a page fault that is
 * demand paging, copy-on-write or stack growth, or sends the process the
 * signal Linux would (which may end it). */
void user_fault(struct trapframe *tf);

enum fault_result { FAULT_OK, FAULT_MAPERR, FAULT_ACCERR, FAULT_SIGBUS, FAULT_OOM };
/* Make the page at va present (and writable if write) in p, as a fault
 * there would; also how the kernel reaches user pages not yet touched
 * (kernel/mm/uaccess.c). FAULT_OK or why not. */
enum fault_result mm_fault(struct proc *p, uint32_t va, bool write);

#endif
