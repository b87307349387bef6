/*
 * ioapic.h - the I/O APICs: where device interrupts enter.
 */
#ifndef DRIVERS_IOAPIC_H
#define DRIVERS_IOAPIC_H

#include <stdint.h>

/* Map the IOAPICs the MADT listed and mask every input. */
void ioapic_init(void);
/* Deliver ISA IRQ irq as vector to the CPU with that APIC ID, following
 * the MADT's interrupt source overrides (e.g. on QEMU IRQ 0 is GSI 2). */
void ioapic_route_isa(int irq, uint8_t vector, uint32_t apic_id);

#endif
