/*
 * lapic.h - the local APIC of each CPU (xAPIC, memory-mapped).
 *
 * Every CPU has one at the same physical address; each CPU sees its own.
 * It takes interrupts to this CPU (EOI), runs the per-CPU timer, and sends
 * inter-processor interrupts (IPIs).
 */
#ifndef DRIVERS_LAPIC_H
#define DRIVERS_LAPIC_H

#include <stdint.h>

/* Map the registers (once, on the boot CPU) and enable this CPU's APIC. */
void lapic_init(uint32_t pa);
/* Enable the APIC of the CPU calling it (each AP, after lapic_init). */
void lapic_enable(void);
uint32_t lapic_id(void);
/* End of interrupt (trap() after each handler); a no-op before lapic_init. */
void lapic_eoi(void);

/* The timer counts down from an initial count at bus clock / 16. */
void lapic_timer_oneshot_max(void);	/* start counting from 0xFFFFFFFF, masked */
uint32_t lapic_timer_current(void);
void lapic_timer_oneshot(uint32_t count, uint8_t vector);

/* IPIs (Intel SDM vol. 3 §10.6). Each waits until the APIC accepted it. */
void lapic_send_init(uint32_t apic_id);
void lapic_send_startup(uint32_t apic_id, uint32_t page);	/* start at page << 12 */
void lapic_send_ipi(uint32_t apic_id, uint8_t vector);
void lapic_send_ipi_all_but_self(uint8_t vector);

#endif
