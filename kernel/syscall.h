/*
 * kernel/ - the entry points: main.c (the boot, in order) and syscall.c
 * (the table of system calls, Linux i386's numbers). Every other file of
 * the kernel is in a room below, each with its face header.
 *
 * Face of this folder. May call: lib, sched, drivers, kernel/arch, kernel/debug, kernel/fs, kernel/fs/proc, kernel/init, kernel/ipc, kernel/mm, kernel/net, kernel/sync, kernel/sys, kernel/task, kernel/time.
 *
 * syscall.h - the system call table (kernel/syscall.c).
 */
#ifndef KERNEL_SYSCALL_H
#define KERNEL_SYSCALL_H

struct trapframe;

/* int 0x80's C entry (kernel/arch/trapentry.asm's syscall_entry). */
void syscall(struct trapframe *tf);

#endif
