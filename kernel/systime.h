/*
 * systime.h - time as user programs see it: clock_gettime, times,
 * getrusage, and the conversions between scheduler ticks and Linux units.
 */
#ifndef KERNEL_SYSTIME_H
#define KERNEL_SYSTIME_H

#include <stdint.h>

#define CLOCK_REALTIME 0
#define CLOCK_MONOTONIC 1
#define CLOCK_PROCESS_CPUTIME_ID 2
#define CLOCK_THREAD_CPUTIME_ID 3
#define USER_HZ 100		/* Linux i386's clock_t unit for times() */

#include "../sched/syscalls.h"	/* struct timespec32, Linux's i386 timespec */

void ticks_to_timeval(uint32_t ticks, int32_t *sec, int32_t *usec);
int sys_clock_gettime(int clock, void *uts);
int sys_times(void *utms);
int sys_getrusage(int who, void *uru);

#endif
