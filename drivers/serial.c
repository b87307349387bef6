/*
 * serial.c - 16550 UART driver for COM1 (115200 8N1).
 *
 * Output is polled (wait for the transmit holding register to empty):
 * simple, and it works inside a panic with interrupts off. Input raises
 * IRQ 4 once serial_enable_rx_interrupt() is called and the IOAPIC routes
 * it; kernel/console.c reads the bytes.
 */
#include "serial.h"
#include "../kernel/x86.h"

enum {
	REG_DATA = 0, REG_IER = 1, REG_FCR = 2, REG_LCR = 3, REG_MCR = 4,
	REG_LSR = 5,
	LSR_DATA_READY = 0x01, LSR_THR_EMPTY = 0x20,
	LCR_DLAB = 0x80, LCR_8N1 = 0x03,
};

void serial_init(void)
{
	outb(COM1_PORT + REG_IER, 0x00);		/* no interrupts yet */
	outb(COM1_PORT + REG_LCR, LCR_DLAB);
	outb(COM1_PORT + REG_DATA, 1);			/* divisor 1: 115200 baud */
	outb(COM1_PORT + REG_IER, 0);
	outb(COM1_PORT + REG_LCR, LCR_8N1);
	outb(COM1_PORT + REG_FCR, 0xC7);		/* FIFOs on, cleared, 14-byte trigger */
	outb(COM1_PORT + REG_MCR, 0x0B);		/* DTR, RTS, OUT2 (IRQ line enable) */
}

void serial_putc(char c)
{
	for (int spins = 0; spins < 100000; spins++)
		if (inb(COM1_PORT + REG_LSR) & LSR_THR_EMPTY)
			break;
	outb(COM1_PORT + REG_DATA, (unsigned char)c);
}

bool serial_has_input(void)
{
	return inb(COM1_PORT + REG_LSR) & LSR_DATA_READY;
}

int serial_getc_nowait(void)
{
	return serial_has_input() ? inb(COM1_PORT + REG_DATA) : -1;
}

void serial_enable_rx_interrupt(void)
{
	outb(COM1_PORT + REG_IER, 0x01);		/* received data available */
}
