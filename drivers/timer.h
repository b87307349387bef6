/*
 * timer.h - the tick on every CPU, sleep deadlines, and clock calibration.
 *
 * Each CPU's local APIC timer, in one-shot mode, interrupts it timer_hz
 * times a second for the tick, and in between at each sleep deadline
 * queued on that CPU (timer_arm). At each interrupt it says whether a
 * tick is due and hands over to kernel/time/tick.c, which does the tick's work
 * and wakes the sleepers that are due, in interrupt context on that CPU,
 * with interrupts off.
 */
#ifndef DRIVERS_TIMER_H
#define DRIVERS_TIMER_H

#include <stdint.h>

struct trapframe;

extern int timer_hz;			/* boot parameter hz=, HZ_MIN..HZ_MAX */

/* Boot CPU, once, interrupts off: read hz=, measure the local APIC timer
 * and the TSC against the PIT, start clock_ns(). Prints "timer: lapic H Hz". */
void timer_calibrate(void);
/* Start this CPU's tick (boot CPU and each AP). */
void timer_start(void);
/* Interrupts off: make this CPU's timer also fire at deadline_ns
 * (clock_ns() time), if that is before anything it waits for now. */
void timer_arm(uint64_t deadline_ns);
/* Vector T_LAPIC_TIMER (kernel/arch/trap.c's trap()). */
void timer_interrupt(struct trapframe *tf);

/* Tick interrupts a CPU has taken, and its ticks (which also count the
 * lost ones): what test=timer compares (kernel/debug/selftest.c). */
uint64_t timer_interrupts(int cpu);
uint64_t cpu_ticks(int cpu);

#endif
