/*
 * serial_irq.h - console input from COM1 by interrupt.
 */
#ifndef DRIVERS_SERIAL_IRQ_H
#define DRIVERS_SERIAL_IRQ_H

#include <stdint.h>

/* Route COM1's IRQ 4 to the CPU with APIC ID apic_id and turn on the
 * UART's receive interrupt: each byte becomes a console_input_byte(). */
void serial_irq_init(uint32_t apic_id);
/* Vector T_IRQ0 + COM1_IRQ (kernel/arch/trap.c's interrupt()). */
struct trapframe;
void serial_intr(struct trapframe *tf);

#endif
