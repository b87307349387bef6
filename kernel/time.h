/*
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

/* Linux i386's struct timespec, as clock_gettime and nanosleep exchange it
 * with user programs. sched/syscalls.h declares the same struct for
 * sched_rr_get_interval (sched/ cannot include this header); no file
 * includes both, and one that did would not compile. */
struct timespec32 {
	int32_t tv_sec;
	int32_t tv_nsec;
};

uint64_t clock_ns(void);
void clock_set_tsc_khz(uint64_t khz);	/* after calibration */
uint64_t clock_tsc_khz(void);
uint64_t clock_cycles_to_ns(uint64_t cycles);	/* TSC cycles as ns, no division */
void udelay(uint32_t us);		/* busy-wait; needs a calibrated TSC */

#endif
