/*
 * kernel/time/ - time: the TSC clock (time, this file), what a tick does
 * (tick), sleeping with a deadline (sleep: a sleepers' list per CPU under
 * its lock), the clocks user programs read (systime), and the interval
 * timers (itimer; itimer_lock).
 *
 * Face of this folder. May call: lib, sched, drivers, kernel/arch, kernel/debug, kernel/mm, kernel/sync, kernel/sys, kernel/task.
 *
 * time.h - the kernel's clocks.
 *
 * clock_ns() is a monotonic nanosecond clock built on the TSC, which
 * drivers/timer.c calibrates against the PIT at boot. It reads 0 until
 * then. The TSC is invariant and synchronised across CPUs on the machines
 * we run on (QEMU gives every vCPU the same TSC), so it is monotonic
 * across CPUs too.
 */
#ifndef KERNEL_TIME_H
#define KERNEL_TIME_H

#include <stdint.h>
#include <uapi/time.h>	/* struct timespec32, Linux i386's timespec */

uint64_t clock_ns(void);
void clock_set_tsc_khz(uint64_t khz);	/* after calibration */
uint64_t clock_tsc_khz(void);
uint64_t clock_cycles_to_ns(uint64_t cycles);	/* TSC cycles as ns, no division */
void udelay(uint32_t us);		/* busy-wait; needs a calibrated TSC */

#endif
