/*
 * systime.h - time as user programs see it: clock_gettime, times,
 * getrusage (and wait4's rusage), in Linux units from scheduler ticks.
 */
#ifndef KERNEL_SYSTIME_H
#define KERNEL_SYSTIME_H

#include <stdint.h>

#include <uapi/time.h>	/* CLOCK_*, TIMER_ABSTIME */

#define USER_HZ 100		/* Linux i386's clock_t unit for times() */

/* Linux's struct rusage on i386: two struct timevals (user and system
 * CPU time), then 14 longs this kernel leaves 0. */
struct rusage32 {
	int32_t utime_sec, utime_usec, stime_sec, stime_usec;
	int32_t rest[14];	/* ru_maxrss, ..., ru_minflt (rest[RU_MINFLT]), ... */
};
#define RU_MINFLT 4

/* ru = CPU times of utime and stime ticks, every other field 0. */
void rusage_fill(struct rusage32 *ru, uint32_t utime, uint32_t stime);

int sys_clock_gettime(int clock, void *uts);
int sys_clock_gettime64(int clock, void *uts);
int sys_clock_getres(int clock, void *uts);
int sys_clock_getres_time64(int clock, void *uts);	/* 403: 64-bit timespec */
int sys_times(void *utms);
int sys_getrusage(int who, void *uru);

#endif
