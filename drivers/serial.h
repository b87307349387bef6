/*
 * serial.h - the 16550 UART on COM1: the console the test harness reads.
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

#endif
