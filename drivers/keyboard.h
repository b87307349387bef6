/*
 * keyboard.h - the PS/2 keyboard, as console input.
 */
#ifndef DRIVERS_KEYBOARD_H
#define DRIVERS_KEYBOARD_H

#include <stdint.h>

#define KBD_IRQ     1	/* ISA IRQ 1 */

/* Route IRQ 1 to the CPU with APIC ID apic_id; keys then arrive as
 * console_input_byte() calls. */
void keyboard_init(uint32_t apic_id);
/* Vector T_IRQ0 + KBD_IRQ (kernel/arch/trap.c's interrupt()). */
struct trapframe;
void keyboard_intr(struct trapframe *tf);

#endif
