/*
 * vga.h - the 80x25 VGA text screen, a mirror of the serial console.
 */
#ifndef DRIVERS_VGA_H
#define DRIVERS_VGA_H

void vga_init(void);
void vga_putc(char c);

#endif
