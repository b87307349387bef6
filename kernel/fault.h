/*
 * fault.h - what happens when a user program faults (kernel/fault.c).
 */
#ifndef KERNEL_FAULT_H
#define KERNEL_FAULT_H

void fault_init(void);

#endif
