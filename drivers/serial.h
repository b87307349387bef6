/*
 * serial.h - the 16550 UARTs: COM1, the console the test harness reads,
 * and COM2, which only the scheduler trace writes (docs/trace.md).
 */
#ifndef DRIVERS_SERIAL_H
#define DRIVERS_SERIAL_H

#include <stdbool.h>

#define COM1_PORT 0x3F8
#define COM1_IRQ  4

void serial_init(void);
void serial_putc(char c);
bool serial_has_input(void);
int serial_getc_nowait(void);		/* -1 when no byte is waiting */
void serial_enable_rx_interrupt(void);

#define COM2_PORT 0x2F8

/* COM2, output only: true if a UART answers there (QEMU has one only when
 * given a second -serial); then it is set up as COM1 is. */
bool serial2_init(void);
bool serial2_present(void);
void serial2_write(const char *buf, int len);

#endif
