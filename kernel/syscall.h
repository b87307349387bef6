/*
 * syscall.h - the system call table (kernel/syscall.c).
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

struct trapframe;

/* int 0x80's C entry (kernel/trapentry.asm's syscall_entry). */
void syscall(struct trapframe *tf);

#endif
