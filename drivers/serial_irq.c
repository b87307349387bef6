/*
 * serial_irq.c - COM1 receive interrupts feed the console input buffer.
 *
 * drivers/serial.c drives the UART itself (polled output); this file
 * wires its receive interrupt through the IOAPIC to kernel/console.c.
 * A terminal sends Enter as '\r'; we pass bytes on unchanged.
 */
#include "serial_irq.h"
#include "ioapic.h"
#include "serial.h"
#include "../kernel/console.h"
#include "../kernel/printk.h"
#include "../kernel/trap.h"
#include "../kernel/x86.h"

#define ECHO_MAX 80

static void serial_intr(struct trapframe *tf)
{
	(void)tf;
	int c;
	while ((c = serial_getc_nowait()) >= 0)
		console_input_byte((char)c);
}

void serial_irq_init(uint32_t apic_id)
{
	trap_register(T_IRQ0 + COM1_IRQ, serial_intr);
	ioapic_route_isa(COM1_IRQ, T_IRQ0 + COM1_IRQ, apic_id);
	serial_enable_rx_interrupt();
	serial_intr(NULL);		/* bytes that arrived before: no edge for them */
}

void serial_echo_test(void)
{
	char line[ECHO_MAX + 1];
	int n = 0;

	printk("echo: ready\n");
	for (;;) {
		int c = console_getc_nowait();
		if (c < 0) {
			hlt();		/* the next interrupt: a byte, or a tick */
			continue;
		}
		if (c == '\r' || c == '\n')
			break;
		if (n < ECHO_MAX)
			line[n++] = (char)c;
	}
	line[n] = 0;
	printk("echo: got \"%s\"\n", line);
}
