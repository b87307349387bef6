/*
 * maxcpus.h - how many CPUs the kernel can run: the size of every per-CPU
 * array. Apart from kernel/arch/cpu.h so that code the host unit tests build
 * (kernel/mm/pmm.c's frame caches) has it without the x86 inlines.
 */
#ifndef KERNEL_MAXCPUS_H
#define KERNEL_MAXCPUS_H

#define MAX_CPUS 32

#endif
