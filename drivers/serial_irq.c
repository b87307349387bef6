/*
 * serial_irq.c - COM1 receive interrupts feed the console input buffer.
 *
 * drivers/serial.c drives the UART itself (polled output); this file
 * wires its receive interrupt through the IOAPIC to kernel/debug/console.c.
 * A terminal sends Enter as '\r'; we pass bytes on unchanged.
 */
#include "serial_irq.h"
#include "ioapic.h"
#include "serial.h"
#include "kernel/debug/console.h"
#include "kernel/debug/printk.h"
#include "kernel/arch/trap.h"
#include "kernel/arch/x86.h"

void serial_intr(struct trapframe *tf)
{
	(void)tf;
	int c;
	while ((c = serial_getc_nowait()) >= 0)
		console_input_byte((char)c);
}

void serial_irq_init(uint32_t apic_id)
{
	ioapic_route_isa(COM1_IRQ, T_IRQ0 + COM1_IRQ, apic_id);
	serial_enable_rx_interrupt();
	serial_intr(NULL);		/* bytes that arrived before: no edge for them */
}
