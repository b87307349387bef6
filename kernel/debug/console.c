/*
 * console.c - output to serial + VGA under one lock, and an input buffer.
 *
 * The lock is what keeps lines whole when several CPUs print at once: each
 * console_write() is atomic. printk formats a whole message first and then
 * writes it with a single console_write().
 */
#include <stdint.h>
#include "console.h"
#include "kernel/fs/file.h"
#include "lib/spinlock.h"
#include "drivers/serial.h"
#include "drivers/vga.h"

static struct spinlock out_lock = SPINLOCK_INIT("console");

#define INBUF_SIZE 256
static struct spinlock in_lock = SPINLOCK_INIT("console input");
static char inbuf[INBUF_SIZE];
static uint32_t in_head, in_tail;	/* head: next to read; tail: next to write */

void console_init(void)
{
	serial_init();
	vga_init();
}

static void put(char c)
{
	if (c == '\n')
		serial_putc('\r');
	serial_putc(c);
	vga_putc(c);
}

void console_write(const char *buf, size_t len)
{
	spin_lock(&out_lock);
	while (len--)
		put(*buf++);
	spin_unlock(&out_lock);
}

void console_emergency(const char *s)
{
	while (*s)
		put(*s++);
}

void console_input_byte(char c)
{
	spin_lock(&in_lock);
	if (in_tail - in_head < INBUF_SIZE)	/* full: drop the byte */
		inbuf[in_tail++ % INBUF_SIZE] = c;
	spin_unlock(&in_lock);
	tty_receive();			/* the line discipline, once tty_init() ran */
}

int console_getc_nowait(void)
{
	int c = -1;
	spin_lock(&in_lock);
	if (in_head != in_tail)
		c = (unsigned char)inbuf[in_head++ % INBUF_SIZE];
	spin_unlock(&in_lock);
	return c;
}
