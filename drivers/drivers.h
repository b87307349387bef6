/*
 * drivers/ - the devices: the interrupt controllers (pic: switched off;
 * ioapic; lapic: each CPU's, its timer and IPIs), the timers (pit: a
 * stopwatch; timer: the tick on every CPU and the TSC's calibration), the
 * battery clock (rtc), the UARTs (serial, serial_irq: console input), the
 * VGA text screen, the PS/2 keyboard, ACPI's tables and the CPU topology.
 *
 * Locks: none taken from outside; each device's registers are written by
 * the CPU that owns them, or once at boot before the other CPUs start.
 *
 * Face of this folder. May call: lib, sched, kernel/arch, kernel/debug, kernel/init, kernel/mm, kernel/time.
 */
#ifndef DRIVERS_DRIVERS_H
#define DRIVERS_DRIVERS_H

#include "acpi.h"
#include "ioapic.h"
#include "keyboard.h"
#include "lapic.h"
#include "pic.h"
#include "pit.h"
#include "rtc.h"
#include "serial.h"
#include "serial_irq.h"
#include "timer.h"
#include "topology.h"
#include "vga.h"

#endif
