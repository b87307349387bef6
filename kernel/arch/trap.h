/*
 * trap.h - the trap frame and interrupt dispatch.
 */
#ifndef KERNEL_TRAP_H
#define KERNEL_TRAP_H

#include <stdint.h>
#include <stdbool.h>

/* What kernel/arch/trapentry.asm leaves on the kernel stack, lowest address
 * first. esp and ss are only there when the trap came from user mode. */
struct trapframe {
	uint32_t edi, esi, ebp, oesp, ebx, edx, ecx, eax;	/* pushad */
	uint32_t gs, fs, es, ds;
	uint32_t trapno, err;
	uint32_t eip, cs, eflags;
	uint32_t esp, ss;
};

enum {
	T_DIVIDE = 0, T_DEBUG = 1, T_NMI = 2, T_BRKPT = 3, T_OFLOW = 4,
	T_BOUND = 5, T_ILLOP = 6, T_DEVICE = 7, T_DBLFLT = 8, T_TSS = 10,
	T_SEGNP = 11, T_STACK = 12, T_GPFLT = 13, T_PGFLT = 14, T_FPERR = 16,
	T_ALIGN = 17, T_MCHK = 18, T_SIMDERR = 19,
	T_IRET = 31,		/* the kernel's iret to user mode faulted (trapentry.asm's
				 * iret_fault; Linux's X86_TRAP_IRET): SIGILL */
	T_IRQ0 = 32,		/* ISA IRQ n arrives on vector T_IRQ0 + n */
	T_SYSCALL = 0x80,
	T_LAPIC_TIMER = 0xE0,	/* IPIs and the local timer live up here */
	T_IPI_RESCHED = 0xE1,
	T_IPI_CALL = 0xE2,
	T_IPI_HALT = 0xE3,
	T_SPURIOUS = 0xFF,
};

static inline bool trap_from_user(const struct trapframe *tf)
{
	return (tf->cs & 3) == 3;
}

void idt_init(void);		/* build the IDT (once) */
struct cpu;
/* The TSS a double fault switches to, for CPU c (gdt_load calls it). */
void double_fault_tss_init(struct cpu *c);
void idt_load(void);		/* load it on this CPU */
const char *trap_name(int vector);
void trap(struct trapframe *tf);

#endif
