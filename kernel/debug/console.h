/*
 * console.h - the system console: COM1 serial mirrored to the VGA screen.
 */
#ifndef KERNEL_CONSOLE_H
#define KERNEL_CONSOLE_H

#include <stddef.h>

void console_init(void);
/* Write len bytes as one unit: no other CPU's output lands in between. */
void console_write(const char *buf, size_t len);
/* For panic: no lock, no waiting. */
void console_emergency(const char *s);

/* Input: bytes typed on the serial line or the keyboard, buffered here
 * and handed to the terminal (kernel/fs/tty.c: tty_receive). */
void console_input_byte(char c);	/* called from interrupt handlers */
int console_getc_nowait(void);		/* -1 when none is buffered */

#endif
