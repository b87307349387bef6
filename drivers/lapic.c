/*
 * lapic.c - local APIC registers, timer and IPIs (Intel SDM vol. 3 ch. 10).
 *
 * The registers are 32-bit words 16 bytes apart in one 4 KiB page; the page
 * sits above the direct map, so lapic_init() ioremap()s it. All CPUs use
 * the same virtual address: the hardware routes each access to the APIC of
 * the CPU making it.
 */
#include "lapic.h"
#include "kernel/arch/cpu.h"
#include "kernel/arch/trap.h"
#include "kernel/mm/vm.h"
#include "kernel/arch/x86.h"

/* Register offsets (SDM vol. 3 table 10-1). */
enum {
	LAPIC_ID = 0x20, LAPIC_TPR = 0x80, LAPIC_EOI = 0xB0, LAPIC_SVR = 0xF0,
	LAPIC_ESR = 0x280, LAPIC_ICR_LO = 0x300, LAPIC_ICR_HI = 0x310,
	LAPIC_LVT_TIMER = 0x320, LAPIC_LVT_LINT0 = 0x350, LAPIC_LVT_LINT1 = 0x360,
	LAPIC_LVT_ERROR = 0x370, LAPIC_TIMER_INIT = 0x380, LAPIC_TIMER_CUR = 0x390,
	LAPIC_TIMER_DIV = 0x3E0,
};

#define SVR_ENABLE      0x100
#define LVT_MASKED      0x10000
#define TIMER_DIV_16    0x3		/* divide configuration 0011 (§10.5.4) */

/* ICR fields (§10.6.1). */
#define ICR_FIXED       0x000
#define ICR_INIT        0x500
#define ICR_STARTUP     0x600
#define ICR_PENDING     0x1000		/* delivery status: send pending */
#define ICR_ASSERT      0x4000
#define ICR_LEVEL       0x8000
#define ICR_ALL_BUT_SELF 0xC0000

#define APIC_BASE_MSR    0x1B
#define APIC_BASE_ENABLE 0x800		/* global enable (§10.4.3) */

/* The registers; NULL until lapic_init() maps them on the boot CPU. */
static volatile uint32_t *lapic;
static uint8_t armed_vector[MAX_CPUS];	/* each CPU's LVT timer vector; 0: unset */

static uint32_t rd(uint32_t reg)
{
	return lapic[reg / 4];
}

static void wr(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
	(void)lapic[LAPIC_ID / 4];	/* read back: wait for the write to land */
}

/* The writes of every interrupt (EOI, the timer's count) go without the
 * read-back, as Linux's native_apic_mem_write: the APIC's page is
 * uncached, so the write is done before the next instruction that could
 * depend on it (iret, hlt). Under QEMU's -icount each access of the page
 * ends the vCPU's turn; 8 of them a tick left a vCPU that took its
 * timer interrupts while the other ran a busy load no turn to do
 * anything else (docs/bench.md). */
static void wr_fast(uint32_t reg, uint32_t v)
{
	lapic[reg / 4] = v;
}

void lapic_init(uint32_t pa)
{
	lapic = ioremap(pa, PAGE_SIZE);
	lapic_enable();
}

void lapic_enable(void)
{
	wrmsr(APIC_BASE_MSR, rdmsr(APIC_BASE_MSR) | APIC_BASE_ENABLE);
	wr(LAPIC_SVR, SVR_ENABLE | T_SPURIOUS);
	/* LINT0 would carry the 8259's ExtINT, LINT1 NMI: we use neither. */
	wr(LAPIC_LVT_LINT0, LVT_MASKED);
	wr(LAPIC_LVT_LINT1, LVT_MASKED);
	wr(LAPIC_LVT_TIMER, LVT_MASKED);
	armed_vector[cpu_id()] = 0;
	wr(LAPIC_LVT_ERROR, LVT_MASKED);
	wr(LAPIC_ESR, 0);		/* back-to-back writes clear it (§10.5.3) */
	wr(LAPIC_ESR, 0);
	wr(LAPIC_EOI, 0);		/* acknowledge anything left over */
	wr(LAPIC_TPR, 0);		/* accept every priority */
}

uint32_t lapic_id(void)
{
	return rd(LAPIC_ID) >> 24;
}

/* trap() calls this after every interrupt handler; before lapic_init()
 * there is no APIC to tell (and no interrupt it delivered). */
void lapic_eoi(void)
{
	if (lapic)
		wr_fast(LAPIC_EOI, 0);
}

void lapic_timer_oneshot_max(void)
{
	armed_vector[cpu_id()] = 0;	/* the next oneshot writes its vector again */
	wr(LAPIC_TIMER_DIV, TIMER_DIV_16);
	wr(LAPIC_LVT_TIMER, LVT_MASKED | T_LAPIC_TIMER);
	wr(LAPIC_TIMER_INIT, 0xFFFFFFFF);
}

uint32_t lapic_timer_current(void)
{
	return rd(LAPIC_TIMER_CUR);
}

/* One interrupt after count timer clocks (one-shot mode, §10.5.4). The
 * divider and the vector are written only when they change: a tick
 * rewrites just the count, which starts the countdown. */
void lapic_timer_oneshot(uint32_t count, uint8_t vector)
{
	int cpu = cpu_id();
	if (armed_vector[cpu] != vector) {
		wr(LAPIC_TIMER_DIV, TIMER_DIV_16);
		wr(LAPIC_LVT_TIMER, vector);
		armed_vector[cpu] = vector;
	}
	wr_fast(LAPIC_TIMER_INIT, count);
}

static void send(uint32_t apic_id, uint32_t low)
{
	uint32_t flags = read_eflags();
	cli();			/* ICR high then low must not be split by an IPI of ours */
	while (rd(LAPIC_ICR_LO) & ICR_PENDING)
		pause();
	wr(LAPIC_ICR_HI, apic_id << 24);
	wr(LAPIC_ICR_LO, low);
	while (rd(LAPIC_ICR_LO) & ICR_PENDING)
		pause();
	if (flags & EFLAGS_IF)
		sti();
}

/* INIT assert, then INIT de-assert, which older (82489DX) APICs need (§8.4.4.1). */
void lapic_send_init(uint32_t apic_id)
{
	send(apic_id, ICR_INIT | ICR_LEVEL | ICR_ASSERT);
	send(apic_id, ICR_INIT | ICR_LEVEL);
}

void lapic_send_startup(uint32_t apic_id, uint32_t page)
{
	send(apic_id, ICR_STARTUP | (page & 0xFF));
}

void lapic_send_ipi(uint32_t apic_id, uint8_t vector)
{
	send(apic_id, ICR_FIXED | vector);
}

void lapic_send_ipi_all_but_self(uint8_t vector)
{
	send(0, ICR_ALL_BUT_SELF | ICR_FIXED | vector);
}
