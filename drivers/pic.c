/*
 * pic.c - remap and mask the two 8259A PICs.
 *
 * At power-on the master PIC delivers IRQ 0-7 on vectors 8-15, which are
 * CPU exceptions. Even though we never use the PICs, we remap them first
 * (to T_IRQ0..T_IRQ0+15) so that a stray interrupt from them cannot look
 * like a double fault, then mask all sixteen lines.
 */
#include "pic.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

#define PIC1_CMD  0x20
#define PIC1_DATA 0x21
#define PIC2_CMD  0xA0
#define PIC2_DATA 0xA1

void pic_init(void)
{
	/* The initialization command words, 8259A datasheet:
	 * ICW1 0x11 = edge triggered, cascade, ICW4 follows;
	 * ICW2 = vector base; ICW3 = cascade wiring (slave on IRQ 2);
	 * ICW4 0x01 = 8086 mode. */
	outb(PIC1_CMD, 0x11);
	outb(PIC2_CMD, 0x11);
	outb(PIC1_DATA, T_IRQ0);
	outb(PIC2_DATA, T_IRQ0 + 8);
	outb(PIC1_DATA, 1 << 2);
	outb(PIC2_DATA, 2);
	outb(PIC1_DATA, 0x01);
	outb(PIC2_DATA, 0x01);

	outb(PIC1_DATA, 0xFF);
	outb(PIC2_DATA, 0xFF);
}
