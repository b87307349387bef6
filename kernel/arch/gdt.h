/*
 * gdt.h - segment selectors and the task-state segment.
 *
 * Paging does the real protection; segments are flat (base 0, 4 GiB) except
 * the per-CPU segment, whose base is this CPU's struct cpu (kernel/arch/cpu.h).
 */
#ifndef KERNEL_GDT_H
#define KERNEL_GDT_H

#include <stdint.h>

/* 6..8 are the thread-local storage slots, where Linux i386 has them
 * (uapi/tls.h, kernel/arch/tls.c): glibc hard-codes nothing but asks for -1,
 * yet a program that prints its %gs sees Linux's 0x33. */
enum {
	SEG_NULL, SEG_KCODE, SEG_KDATA, SEG_UCODE, SEG_UDATA, SEG_TSS,
	SEG_TLS_MIN, SEG_TLS_MAX = SEG_TLS_MIN + 2,
	SEG_PERCPU, SEG_DFTSS,
	SEG_LDT,		/* the running process's LDT, if it has one (kernel/arch/ldt.c) */
	GDT_ENTRIES
};

#define KCODE_SEL  (SEG_KCODE << 3)
#define KDATA_SEL  (SEG_KDATA << 3)
#define UCODE_SEL  ((SEG_UCODE << 3) | 3)
#define UDATA_SEL  ((SEG_UDATA << 3) | 3)
#define TSS_SEL    (SEG_TSS << 3)
#define PERCPU_SEL (SEG_PERCPU << 3)
#define DFTSS_SEL  (SEG_DFTSS << 3)	/* the double-fault task (kernel/arch/trap.c) */
#define LDT_SEL    (SEG_LDT << 3)
#define SEL_LDT    0x4	/* a selector's table bit: an entry of the LDT, not the GDT */

/* The hardware TSS: we use only esp0/ss0, the stack for entering ring 0. */
struct tss {
	uint32_t link, esp0, ss0, esp1, ss1, esp2, ss2;
	uint32_t cr3, eip, eflags, eax, ecx, edx, ebx, esp, ebp, esi, edi;
	uint32_t es, cs, ss, ds, fs, gs, ldt;
	uint16_t trap, iomap_base;
} __attribute__((packed));

struct cpu;
void gdt_load(struct cpu *c);
/* A descriptor for the GDT: base, limit (20 bits), access byte (present,
 * DPL, type) and the flags nibble (granularity, size). */
uint64_t gdt_segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags);

/* iopl(2) and ioperm(2): I/O ports stay closed to user mode. */
int sys_iopl(uint32_t level);
int sys_ioperm(uint32_t from, uint32_t num, int on);

#endif
