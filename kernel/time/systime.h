/*
 * systime.h - time as user programs see it: clock_gettime, times,
 * getrusage (and wait4's rusage), in Linux units from scheduler ticks.
 */
#ifndef KERNEL_SYSTIME_H
#define KERNEL_SYSTIME_H

#include <stdint.h>

#include <uapi/time.h>	/* CLOCK_*, TIMER_ABSTIME */
#include <uapi/resource.h>	/* struct rusage */
#include <uapi/times.h>	/* struct tms */

#define USER_HZ 100		/* Linux i386's clock_t unit for times() */

/* ru = CPU times of utime and stime ticks, every other field 0. */
void rusage_fill(struct rusage *ru, uint32_t utime, uint32_t stime);

/* The wall clock: read the RTC once (after the TSC is calibrated). */
void systime_init(void);
/* CLOCK_REALTIME - CLOCK_MONOTONIC in ns: the wall-clock time of boot
 * (/proc/stat's btime), and what an absolute REALTIME deadline
 * (clock_nanosleep, futex) loses to be on clock_ns()'s scale. */
uint64_t realtime_offset_ns(void);

int sys_clock_gettime(int clock, void *uts);
int sys_clock_gettime64(int clock, void *uts);
int sys_clock_getres(int clock, void *uts);
int sys_clock_getres_time64(int clock, void *uts);	/* 403: 64-bit timespec */
int sys_times(void *utms);
int sys_getrusage(int who, void *uru);

#endif
