/*
 * gdt.c - builds and loads one CPU's GDT and TSS; iopl and ioperm, which
 * that TSS (no I/O bitmap) and eflags' IOPL 0 refuse.
 */
#include "cpu.h"
#include "lib/errno.h"
#include "gdt.h"
#include "lib/string.h"
#include "trap.h"
#include "x86.h"

/* Descriptor flags: present, DPL, type. 0xC in the high nibble of the
 * flags byte = 4 KiB granularity, 32-bit. */
uint64_t gdt_segment(uint32_t base, uint32_t limit, uint8_t access, uint8_t flags)
{
	uint64_t d = 0;
	d |= limit & 0xFFFF;
	d |= (uint64_t)(base & 0xFFFFFF) << 16;
	d |= (uint64_t)access << 40;
	d |= (uint64_t)((limit >> 16) & 0xF) << 48;
	d |= (uint64_t)(flags & 0xF) << 52;
	d |= (uint64_t)((base >> 24) & 0xFF) << 56;
	return d;
}

void gdt_load(struct cpu *c)
{
	c->gdt[SEG_NULL] = 0;
	c->gdt[SEG_KCODE] = gdt_segment(0, 0xFFFFF, 0x9A, 0xC);
	c->gdt[SEG_KDATA] = gdt_segment(0, 0xFFFFF, 0x92, 0xC);
	c->gdt[SEG_UCODE] = gdt_segment(0, 0xFFFFF, 0xFA, 0xC);
	c->gdt[SEG_UDATA] = gdt_segment(0, 0xFFFFF, 0xF2, 0xC);
	c->gdt[SEG_TSS] = gdt_segment((uint32_t)&c->tss, sizeof(c->tss) - 1, 0x89, 0x0);
	c->gdt[SEG_PERCPU] = gdt_segment((uint32_t)c, sizeof(*c) - 1, 0x92, 0x4);
	c->gdt[SEG_DFTSS] = gdt_segment((uint32_t)&c->df_tss, sizeof(c->df_tss) - 1, 0x89, 0x0);
	double_fault_tss_init(c);

	memset(&c->tss, 0, sizeof(c->tss));
	c->tss.ss0 = KDATA_SEL;
	c->tss.iomap_base = sizeof(c->tss);	/* no I/O bitmap: user in/out faults */

	struct { uint16_t limit; uint32_t base; } __attribute__((packed)) desc = {
		sizeof(c->gdt) - 1, (uint32_t)c->gdt
	};
	lgdt(&desc);
	__asm__ volatile(
		"ljmp %0, $1f\n1:\n"
		"movw %w1, %%ds\n movw %w1, %%es\n movw %w1, %%ss\n"
		"movw %w2, %%fs\n movw %w3, %%gs\n"
		: : "i"(KCODE_SEL), "r"(KDATA_SEL), "r"(PERCPU_SEL), "r"(0) : "memory");
	ltr(TSS_SEL);
	lldt(0);		/* no LDT until a process with one runs (kernel/arch/ldt.c) */
}

/*
 * 110 iopl(level), 101 ioperm(from, num, on): user mode never gets I/O
 * ports here. An ordinary user gets Linux's answer (EPERM; EINVAL for a
 * level above 3 or a range past port 65535); root is refused as well
 * (EPERM), where Linux would grant it: nothing in this kernel's user space
 * drives hardware. Dropping to level 0, or turning ports off, is a no-op.
 */
int sys_iopl(uint32_t level)
{
	if (level > 3)
		return -EINVAL;
	return level == 0 ? 0 : -EPERM;
}

int sys_ioperm(uint32_t from, uint32_t num, int on)
{
	if (from + num < from || from + num > 65536)
		return -EINVAL;
	return on ? -EPERM : 0;
}
