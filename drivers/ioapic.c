/*
 * ioapic.c - program IOAPIC redirection entries (82093AA datasheet §3.2).
 *
 * Each IOAPIC serves a range of global system interrupts (GSIs) starting
 * at its gsi_base; input n has a 64-bit redirection entry saying which
 * vector to raise on which CPU, how the line signals, and whether it is
 * masked. The registers are reached indirectly: write the register number
 * to IOREGSEL, then read or write IOWIN.
 */
#include "ioapic.h"
#include "acpi.h"
#include "kernel/debug/panic.h"
#include "kernel/debug/printk.h"
#include "kernel/mm/vm.h"

#define IOREGSEL 0x00
#define IOWIN    0x10
#define REG_VER  0x01			/* bits 16-23: last redirection entry */
#define REG_REDIR(n) (0x10 + 2 * (n))	/* low word; high word at +1 */

#define REDIR_MASKED     0x10000
#define REDIR_LEVEL      0x08000
#define REDIR_ACTIVE_LOW 0x02000

static volatile uint8_t *regs[ACPI_MAX_IOAPICS];
static uint32_t nentries[ACPI_MAX_IOAPICS];

static uint32_t rd(int i, uint32_t reg)
{
	*(volatile uint32_t *)(regs[i] + IOREGSEL) = reg;
	return *(volatile uint32_t *)(regs[i] + IOWIN);
}

static void wr(int i, uint32_t reg, uint32_t v)
{
	*(volatile uint32_t *)(regs[i] + IOREGSEL) = reg;
	*(volatile uint32_t *)(regs[i] + IOWIN) = v;
}

void ioapic_init(void)
{
	for (int i = 0; i < acpi_nioapics; i++) {
		regs[i] = ioremap(acpi_ioapics[i].pa, 0x20);
		nentries[i] = ((rd(i, REG_VER) >> 16) & 0xFF) + 1;
		for (uint32_t n = 0; n < nentries[i]; n++) {
			wr(i, REG_REDIR(n), REDIR_MASKED);
			wr(i, REG_REDIR(n) + 1, 0);
		}
	}
}

void ioapic_route_isa(int irq, uint8_t vector, uint32_t apic_id)
{
	const struct acpi_isa_irq *src = &acpi_isa_irqs[irq];
	for (int i = 0; i < acpi_nioapics; i++) {
		uint32_t base = acpi_ioapics[i].gsi_base;
		if (src->gsi < base || src->gsi >= base + nentries[i])
			continue;
		uint32_t n = src->gsi - base;
		uint32_t low = vector;		/* fixed delivery, physical destination */
		if (src->level)
			low |= REDIR_LEVEL;
		if (src->active_low)
			low |= REDIR_ACTIVE_LOW;
		wr(i, REG_REDIR(n) + 1, apic_id << 24);
		wr(i, REG_REDIR(n), low);
		return;
	}
	pr_warn("ioapic: no IOAPIC serves IRQ %d (GSI %u)\n", irq, src->gsi);
}
