/*
 * uapi/time.h - the clocks and clock_nanosleep's flag: Linux i386's numbers
 * (linux/time.h), once for the kernel (kernel/systime.h, kernel/sleep.c)
 * and the small libc (user/lib/include/time.h).
 */
#ifndef UAPI_TIME_H
#define UAPI_TIME_H

#define CLOCK_REALTIME			0
#define CLOCK_MONOTONIC			1
#define CLOCK_PROCESS_CPUTIME_ID	2
#define CLOCK_THREAD_CPUTIME_ID		3

#define TIMER_ABSTIME			1

#endif
