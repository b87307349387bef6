/*
 * serial.c - 16550 UART driver for COM1 (115200 8N1), and COM2 for output.
 *
 * Output is polled (wait for the transmit holding register to empty):
 * simple, and it works inside a panic with interrupts off. Input raises
 * IRQ 4 once serial_enable_rx_interrupt() is called and the IOAPIC routes
 * it; kernel/debug/console.c reads the bytes.
 */
#include "serial.h"
#include "kernel/arch/x86.h"

enum {
	REG_DATA = 0, REG_IER = 1, REG_FCR = 2, REG_LCR = 3, REG_MCR = 4,
	REG_LSR = 5, REG_SCR = 7,
	LSR_DATA_READY = 0x01, LSR_THR_EMPTY = 0x20,
	LCR_DLAB = 0x80, LCR_8N1 = 0x03,
};

static void uart_init(int port)
{
	outb(port + REG_IER, 0x00);			/* no interrupts yet */
	outb(port + REG_LCR, LCR_DLAB);
	outb(port + REG_DATA, 1);			/* divisor 1: 115200 baud */
	outb(port + REG_IER, 0);
	outb(port + REG_LCR, LCR_8N1);
	outb(port + REG_FCR, 0xC7);			/* FIFOs on, cleared, 14-byte trigger */
	outb(port + REG_MCR, 0x0B);			/* DTR, RTS, OUT2 (IRQ line enable) */
}

static void uart_putc(int port, char c)
{
	for (int spins = 0; spins < 100000; spins++)
		if (inb(port + REG_LSR) & LSR_THR_EMPTY)
			break;
	outb(port + REG_DATA, (unsigned char)c);
}

void serial_init(void)
{
	uart_init(COM1_PORT);
}

void serial_putc(char c)
{
	uart_putc(COM1_PORT, c);
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

/* COM2. No UART at a port reads back 0xFF whatever was written; a 16550
 * keeps what is written to its scratch register. */
static bool com2;

bool serial2_init(void)
{
	outb(COM2_PORT + REG_SCR, 0x5A);
	if (inb(COM2_PORT + REG_SCR) != 0x5A)
		return com2 = false;
	outb(COM2_PORT + REG_SCR, 0xA5);
	if (inb(COM2_PORT + REG_SCR) != 0xA5)
		return com2 = false;
	uart_init(COM2_PORT);
	return com2 = true;
}

bool serial2_present(void)
{
	return com2;
}

void serial2_write(const char *buf, int len)
{
	for (int i = 0; com2 && i < len; i++)
		uart_putc(COM2_PORT, buf[i]);
}
