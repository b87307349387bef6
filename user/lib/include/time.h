/* time.h - clocks and sleeping (32-bit time_t, as the i386 calls 265/267). */
#ifndef _TIME_H
#define _TIME_H

#include <sys/types.h>

#include <uapi/time.h>	/* struct timespec (uapi's timespec32), CLOCK_*, TIMER_ABSTIME */

int clock_gettime(clockid_t clk, struct timespec *ts);
int nanosleep(const struct timespec *req, struct timespec *rem);
/* Returns 0 or a positive error number (POSIX); errno is not touched. */
int clock_nanosleep(clockid_t clk, int flags, const struct timespec *req,
		    struct timespec *rem);

/* Not POSIX, but every test wants it: CLOCK_MONOTONIC in nanoseconds. */
long long monotonic_ns(void);

#endif
