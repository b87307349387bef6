/*
 * syscall.h - the system call table (kernel/syscall.c).
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

void syscall_init(void);

#endif
