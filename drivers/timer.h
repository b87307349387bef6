/*
 * timer.h - the periodic tick on every CPU, and clock calibration.
 *
 * Each CPU's local APIC timer interrupts it timer_hz times a second. The
 * tick handler counts mycpu()->ticks and calls timer_tick_hook, which the
 * scheduler sets to its scheduler_tick(). The hook runs in interrupt
 * context on the CPU that ticked, with interrupts off.
 */
#ifndef DRIVERS_TIMER_H
#define DRIVERS_TIMER_H

#include <stdbool.h>
#include <stdint.h>

extern int timer_hz;			/* boot parameter hz=, 100..1000 */
/* user_mode: the tick interrupted user code (for CPU-time accounting). */
extern void (*timer_tick_hook)(bool user_mode);

/* Boot CPU, once, interrupts off: read hz=, measure the local APIC timer
 * and the TSC against the PIT, start clock_ns(). Prints "timer: lapic H Hz". */
void timer_calibrate(void);
/* Start this CPU's periodic tick (boot CPU and each AP). */
void timer_start(void);

/* test=timer: count every CPU's ticks over 2 s of TSC time and print
 * "timer: cpuK T ticks in M ms" for each. Needs interrupts on. */
void timer_selftest(void);

#endif
