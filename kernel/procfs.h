/*
 * procfs.h - /proc as far as it goes (kernel/procfs.c).
 */
#ifndef KERNEL_PROCFS_H
#define KERNEL_PROCFS_H

/* Boot, after initrd_init: /proc/self/exe. */
void procfs_init(void);

#endif
