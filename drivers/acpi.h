/*
 * acpi.h - what the ACPI tables tell us about the machine.
 *
 * acpi_init() finds the RSDP, walks the RSDT (or XSDT) and reads two
 * tables: the MADT ("APIC": which CPUs exist, where the IOAPICs are, how
 * ISA IRQs are wired to them) and the FADT ("FACP": how to power off).
 * Without ACPI we assume one CPU and the PC's default addresses; the MP
 * table is not read at all (it hides hyperthreads, docs/hardware-notes.md §4).
 */
#ifndef DRIVERS_ACPI_H
#define DRIVERS_ACPI_H

#include <stdbool.h>
#include <stdint.h>
#include "kernel/arch/cpu.h"

#define ACPI_MAX_IOAPICS 8

struct acpi_ioapic {
	uint8_t id;
	uint32_t pa;		/* register window */
	uint32_t gsi_base;	/* first global system interrupt it serves */
};

/* How one ISA IRQ reaches the IOAPICs (MADT interrupt source override). */
struct acpi_isa_irq {
	uint32_t gsi;
	bool active_low;
	bool level;
};

extern uint32_t acpi_lapic_pa;			/* local APIC registers */
extern int acpi_ncpus;				/* enabled processors */
extern uint8_t acpi_cpu_apic_ids[MAX_CPUS];	/* in MADT order */
extern int acpi_nioapics;
extern struct acpi_ioapic acpi_ioapics[ACPI_MAX_IOAPICS];
extern struct acpi_isa_irq acpi_isa_irqs[16];

/* Returns false (and fills in the defaults) when there is no usable ACPI. */
bool acpi_init(void);
/* Soft-off (S5) through the FADT's PM1 control ports; returns if the
 * tables gave none, or if the machine did not go off. */
void acpi_power_off(void);

#endif
